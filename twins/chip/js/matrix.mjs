// The matrix build's keys as wires (twins/chip/chip.py): 4 row pins, 6 column pins, and a key
// at each crossing that, while held, joins its row to its column through a diode, anode on
// the column and cathode on the row (keypad.KeyMatrix with columns_to_anodes=True). A held
// key can be built wrong, for tests: "missing" (no diode, a plain wire: it conducts both
// ways) or "reversed" (the cathode on the column).
//
// levels() is the electrical rule, pure: a pin driven low pulls low every pin it reaches
// along conducting paths (a diode passes current from its anode to a low cathode, so a low
// cathode pulls its anode low; a wire joins both ways); a pin driven high stays high and
// passes nothing on; any other pin reads its pull (up: high, down: low, none: as it was).
// CircuitPython's scan (shared-module/keypad/KeyMatrix.c) drives one row low at a time with
// the columns pulled up, reads the columns (low: pressed), then drives the row high and
// lets it go back to a pulled-up input.
//
//   node matrix.mjs FILE   the rule on each case of FILE ({"cases": [{rows, columns, drive,
//                          held}]}): the levels as JSON (tests/twins/chip/test_chip_matrix.py)
import fs from 'node:fs';
import { GPIOPinState } from 'rp2040js';

// drive[i], for the pins rows.concat(columns): 0 or 1 (driven), 'up', 'down', or 'none'
// (a floating input: was[i] is what it read); held: [[row, column, kind]], kind 'diode',
// 'missing' or 'reversed'. Returns the level (true: high) of each pin, in that order.
export function levels(rows, columns, drive, held, was = []) {
  const n = rows + columns;
  const next = Array.from({ length: n }, () => []);  // where low spreads from each pin
  for (const [r, c, kind] of held) {
    const row = r, col = rows + c;
    if (kind !== 'reversed') next[row].push(col);  // a low cathode (row) pulls its anode
    if (kind !== 'diode') next[col].push(row);  // reversed: the column is the cathode
  }
  const low = new Array(n).fill(false);
  const todo = [];
  for (let i = 0; i < n; i++) if (drive[i] === 0) { low[i] = true; todo.push(i); }
  while (todo.length) {
    for (const j of next[todo.pop()]) {
      if (!low[j] && drive[j] !== 1) { low[j] = true; todo.push(j); }
    }
  }
  return drive.map((d, i) => (d === 0 || d === 1 ? d === 1 : low[i] ? false
    : d === 'up' ? true : d === 'down' ? false : was[i] !== false));
}

const DRIVE = { [GPIOPinState.Low]: 0, [GPIOPinState.High]: 1,
                [GPIOPinState.InputPullUp]: 'up', [GPIOPinState.InputPullDown]: 'down' };

// The matrix on the emulated chip's GPIO. m: {rows: [gpio], columns: [gpio], faults:
// {key: 'missing' | 'reversed'}}; key number = row * columns + column. Every change of a
// row or column pin's state (direction, level, pulls) sets what the pins read again.
// read(): called at each read of the GPIO inputs; while one row is driven low it reports
// each key whose reading changed, as the scan sees it: report(key, down).
export class Matrix {
  constructor(mcu, m, report) {
    this.mcu = mcu;
    this.rows = m.rows;
    this.columns = m.columns;
    this.pins = m.rows.concat(m.columns);
    this.faults = m.faults || {};
    this.held = new Set();
    this.seen = new Map();  // key: down, as the scan last read it
    this.report = report;
    for (const p of this.pins) mcu.gpio[p].addListener(() => this.update());
    this.update();
  }

  key(row, column) { return row * this.columns.length + column; }

  // A switch the board joins to pins that are not one row and one column of the matrix
  // (another GPIO, or none: -1) joins nothing the scan reads.
  press(rowPin, columnPin, down) {
    const row = this.rows.indexOf(rowPin), column = this.columns.indexOf(columnPin);
    if (row < 0 || column < 0) return;
    const k = this.key(row, column);
    if (down) this.held.add(k); else this.held.delete(k);
    this.update();
  }

  update() {
    const gpio = this.mcu.gpio;
    const drive = this.pins.map((p) => DRIVE[gpio[p].value] ?? 'none');
    const held = [...this.held].map((k) => [Math.floor(k / this.columns.length),
      k % this.columns.length, this.faults[k] || 'diode']);
    const was = this.pins.map((p) => gpio[p].rawInputValue);
    const level = levels(this.rows.length, this.columns.length, drive, held, was);
    this.pins.forEach((p, i) => {
      if (gpio[p].rawInputValue !== level[i]) gpio[p].setInputValue(level[i]);
    });
  }

  read() {
    const gpio = this.mcu.gpio;
    const driven = this.rows.filter((p) => gpio[p].value === GPIOPinState.Low);
    if (driven.length !== 1) return;
    const row = this.rows.indexOf(driven[0]);
    this.columns.forEach((p, c) => {
      const k = this.key(row, c), down = !gpio[p].inputValue;
      if ((this.seen.get(k) || false) !== down) { this.seen.set(k, down); this.report(k, down); }
    });
  }
}

if (process.argv[1] && process.argv[1].endsWith('matrix.mjs')) {
  const { cases } = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
  const out = cases.map((c) => levels(c.rows, c.columns, c.drive, c.held, c.was));
  process.stdout.write(JSON.stringify(out) + '\n');
}
