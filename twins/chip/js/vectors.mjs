// The flash chip on tests/twins/models/flash_vectors.json (node vectors.mjs FILE), as JSON: for each of its
// 'cases' (the array rule), the bytes at its 'expect' offsets after its ops; for each of its
// 'chip' cases (the command state, on a FlashChip), its answers, log and 'expect' bytes
// (tests/twins/models/test_flash_rule.py).
import fs from 'node:fs';
import { applyErase, applyProgram, FlashChip } from './flash.mjs';

const { cases, chip } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const hex = (s) => Buffer.from(s, 'hex');
const filled = (c) => {
  const flash = new Uint8Array(c.size).fill(hex(c.fill)[0]);
  for (const [at, bytes] of c.set || []) flash.set(hex(bytes), at);
  return flash;
};
const expected = (c, flash) => c.expect.map(([at, bytes]) => Buffer.from(
  flash.subarray(at, at + bytes.length / 2)).toString('hex'));
const rule = cases.map((c) => {
  const flash = filled(c);
  for (const [op, addr, arg] of c.ops) {
    if (op === 'program') applyProgram(flash, addr, hex(arg));
    else applyErase(flash, addr, arg);
  }
  return expected(c, flash);
});
const commands = chip.map((c) => {
  const flash = filled(c), clock = { nanos: 0 };
  const fc = new FlashChip(flash, clock, c.timing);
  const answers = c.transactions.map(([t, bytes]) => {
    clock.nanos = t;
    fc.select(true);
    const back = [...hex(bytes)].map((b) => fc.transfer(b));
    fc.select(false);
    return Buffer.from(back).toString('hex');
  });
  const log = fc.log.map((e) => [e.cmd, e.t, e.end, e.addr ?? null]);
  return { answers, log, expect: expected(c, flash) };
});
process.stdout.write(JSON.stringify({ cases: rule, chip: commands }) + '\n');
