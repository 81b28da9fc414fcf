// The SSD1306 OLED controller and its glass, decoded from the I2C bytes, for the web page:
// the same controller as twins/models/ssd1306.py (control bytes, commands with their
// arguments, GDDRAM writes in the three addressing modes) and twins/desktop/ssd1306.py
// (the glass: segment and COM remaps, start line, display offset, mux ratio, invert,
// entire display on, display on/off; contrast for brightness). Scrolling is not drawn.
// tests/twins/chip/test_web_glass.py holds the two to the same frames on one bus log.

const COLUMNS = 128, PAGES = 8, ROWS = 64;
export const HORIZONTAL = 0, VERTICAL = 1, PAGE_MODE = 2;
const ARGS = { 0x20: 1, 0x21: 2, 0x22: 2, 0x26: 6, 0x27: 6, 0x29: 5, 0x2a: 5, 0x81: 1, 0x8d: 1,
               0xa3: 2, 0xa8: 1, 0xad: 1, 0xd3: 1, 0xd5: 1, 0xd9: 1, 0xda: 1, 0xdb: 1 };

export class SSD1306 {
  constructor(width = 128, height = 64, address = 0x3c) {
    this.width = width;
    this.height = height;
    this.address = address;
    this.columnOffset = (COLUMNS - width) >> 1;
    this.reset();
  }

  reset() {  // power-on / RST, GDDRAM cleared
    this.gddram = new Uint8Array(COLUMNS * PAGES);
    Object.assign(this, {
      on: false, contrast: 0x7f, inverted: false, entireOn: false, mode: PAGE_MODE,
      segmentRemap: false, comRemap: false, startLine: 0, offset: 0, multiplex: 64,
      chargePump: false, scrolling: false, columnStart: 0, columnEnd: COLUMNS - 1,
      pageStart: 0, pageEnd: PAGES - 1, pageModeColumn: 0, column: 0, page: 0,
      op: 0, wanted: 0, args: [],
    });
  }

  write(bytes) {  // one I2C write to this address: everything after the address byte
    let control = -1;  // the next byte is a control byte
    for (const value of bytes) {
      if (control < 0) { control = value & 0xc0; continue; }
      if (control & 0x40) this.data(value); else this.command(value);
      if (control & 0x80) control = -1;  // Co=1: one byte, then another control byte
    }
  }

  data(value) {  // a GDDRAM byte at the address pointer, which moves on as the mode says
    let { column, page } = this;
    this.gddram[page * COLUMNS + column] = value;
    if (this.mode === PAGE_MODE) {
      column = column === COLUMNS - 1 ? this.pageModeColumn : column + 1;
    } else if (this.mode === HORIZONTAL) {
      if (column === this.columnEnd) {
        column = this.columnStart;
        page = page === this.pageEnd ? this.pageStart : (page + 1) % PAGES;
      } else column = (column + 1) % COLUMNS;
    } else if (page === this.pageEnd) {  // vertical
      page = this.pageStart;
      column = column === this.columnEnd ? this.columnStart : (column + 1) % COLUMNS;
    } else page = (page + 1) % PAGES;
    this.column = column;
    this.page = page;
  }

  command(value) {  // an opcode, or an argument of the pending one
    let op = value;
    if (this.wanted) {
      this.args.push(value);
      if (this.args.length < this.wanted) return;
      this.wanted = 0;
      op = this.op;
    } else if (ARGS[op]) {
      this.op = op; this.wanted = ARGS[op]; this.args = [];
      return;
    }
    const arg = this.args[0];
    if (op <= 0x1f) {  // page mode: the lower, then the upper column nibble
      this.pageModeColumn = op <= 0x0f ? (this.pageModeColumn & 0xf0) | op
        : ((op & 0x07) << 4) | (this.pageModeColumn & 0x0f);
      if (this.mode === PAGE_MODE) this.column = this.pageModeColumn;
    } else if (op === 0x20) {
      if ((arg & 3) !== 3) this.mode = arg & 3;  // 0b11 is invalid and ignored
    } else if (op === 0x21) {
      this.columnStart = arg & 0x7f; this.columnEnd = this.args[1] & 0x7f;
      this.column = this.columnStart;
    } else if (op === 0x22) {
      this.pageStart = arg & 7; this.pageEnd = this.args[1] & 7;
      this.page = this.pageStart;
    } else if (op === 0x2e || op === 0x2f) this.scrolling = op === 0x2f;
    else if (op >= 0x40 && op <= 0x7f) this.startLine = op & 0x3f;
    else if (op === 0x81) this.contrast = arg;
    else if (op === 0x8d) this.chargePump = (arg & 4) !== 0;
    else if (op === 0xa0 || op === 0xa1) this.segmentRemap = op === 0xa1;
    else if (op === 0xa4 || op === 0xa5) this.entireOn = op === 0xa5;
    else if (op === 0xa6 || op === 0xa7) this.inverted = op === 0xa7;
    else if (op === 0xa8) { if ((arg & 0x3f) >= 15) this.multiplex = (arg & 0x3f) + 1; }
    else if (op === 0xae || op === 0xaf) this.on = op === 0xaf;
    else if (op >= 0xb0 && op <= 0xb7) { if (this.mode === PAGE_MODE) this.page = op & 7; }
    else if (op >= 0xc0 && op <= 0xcf) this.comRemap = (op & 8) !== 0;
    else if (op === 0xd3) this.offset = arg & 0x3f;
    // the rest (scroll setup, 0xAD, 0xD5, 0xD9, 0xDA, 0xDB, NOP) changes nothing drawn
  }

  ramColumn(x) {
    const segment = COLUMNS - 1 - this.columnOffset - x;
    return this.segmentRemap ? COLUMNS - 1 - segment : segment;
  }

  ramRow(y) {  // the RAM row glass row y shows, or -1 for a COM line the mux leaves dark
    const com = this.height - 1 - y;
    const line = this.comRemap ? this.multiplex - 1 - com : com;
    if (line < 0 || line >= this.multiplex) return -1;
    return (line + this.startLine + this.offset) % ROWS;
  }

  // The glass, width * height bytes row-major from the top left: 1 lit, 0 dark.
  frame(out = new Uint8Array(this.width * this.height)) {
    out.fill(0);
    if (!this.on) return out;
    for (let y = 0; y < this.height; y++) {
      const row = this.ramRow(y);
      if (row < 0) continue;
      const base = y * this.width, page = (row >> 3) * COLUMNS, shift = row & 7;
      for (let x = 0; x < this.width; x++) {
        out[base + x] = this.entireOn ? 1
          : ((this.gddram[page + this.ramColumn(x)] >> shift) & 1) ^ (this.inverted ? 1 : 0);
      }
    }
    return out;
  }
}
