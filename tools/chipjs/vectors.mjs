// The flash chip's rule on tests/flash_vectors.json (node vectors.mjs FILE): for each case,
// the bytes at its 'expect' offsets after its ops, as JSON (tests/test_flash_rule.py).
import fs from 'node:fs';
import { applyErase, applyProgram } from './flash.mjs';

const { cases } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const hex = (s) => Buffer.from(s, 'hex');
const out = cases.map((c) => {
  const flash = new Uint8Array(c.size).fill(hex(c.fill)[0]);
  for (const [at, bytes] of c.set || []) flash.set(hex(bytes), at);
  for (const [op, addr, arg] of c.ops) {
    if (op === 'program') applyProgram(flash, addr, hex(arg));
    else applyErase(flash, addr, arg);
  }
  return c.expect.map(([at, bytes]) => Buffer.from(flash.subarray(at, at + bytes.length / 2))
    .toString('hex'));
});
process.stdout.write(JSON.stringify(out) + '\n');
