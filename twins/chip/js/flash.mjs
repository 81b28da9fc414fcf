// The Pico's flash chip (a Winbond W25Q16JV, 2 MB) on the RP2040's SSI, for the chip twin.
// rp2040js answers only "read status" on the SSI and drops every other command, so the
// flash array never changes; this model takes the commands the boot ROM's and pico-sdk's
// flash_range_program / flash_range_erase send with the chip select forced low (IO_QSPI's
// SS override): write enable, page program (bits can only be cleared), 4 KB sector and
// 32/64 KB block erase (to 0xFF), write status (its bits not kept), read status with its
// busy and write-enable bits, read data, the JEDEC and unique ids. Busy times are the
// datasheet's typical values, or its maximums. Transfers with the chip select left to the
// SSI (the XIP setup of boot stage 2) are answered with zeros, as before. The same chip in
// Python is twins/models/flashchip.py; tests/twins/models/flash_vectors.json keeps the two equal.
//
// log: every command that changes the flash's state, in order, as
//   {cmd, t, end, addr, data}: t when the chip select rose (the command took effect),
//   end when the chip is no longer busy; data (hex) the bytes a page program or a write
//   status brought.
// A power cut at any instant follows from it (twins/chip/chip.py, twins/chip/chipnvm.py).

export const FLASH_BYTES = 2 * 1024 * 1024;
export const TIMES = {  // ns: W25Q16JV datasheet, tPP, tSE, tBE1, tBE2, tW; typical and maximum
  typ: { program: 0.4e6, sector: 45e6, block32: 120e6, block64: 150e6, status: 10e6 },
  max: { program: 3e6, sector: 400e6, block32: 1600e6, block64: 2000e6, status: 15e6 },
};
const CMD = { WREN: 0x06, WRDI: 0x04, RDSR: 0x05, RDSR2: 0x35, WRSR: 0x01, PP: 0x02, SE: 0x20,
              BE32: 0x52, BE64: 0xd8, READ: 0x03, FAST_READ: 0x0b, JEDEC: 0x9f,
              UID: 0x4b };
const ERASE_BYTES = { [CMD.SE]: 4096, [CMD.BE32]: 32768, [CMD.BE64]: 65536 };
const JEDEC_ID = [0xef, 0x40, 0x15];  // Winbond, SPI NOR, 16 Mbit

const hex = (bytes) => bytes.map((b) => b.toString(16).padStart(2, '0')).join('');

export function applyProgram(flash, addr, data) {
  // A page program: each byte ANDs into the array, wrapping within its 256-byte page.
  const page = addr & ~0xff;
  for (let i = 0; i < data.length; i++) flash[page + ((addr + i) & 0xff)] &= data[i];
}

export function applyErase(flash, addr, bytes) {
  const start = addr - (addr % bytes);
  flash.fill(0xff, start, start + bytes);
}

export class FlashChip {
  constructor(flash, clock, timing = 'typ') {
    this.flash = flash;  // the emulator's flash array (mcu.flash), offset 0 = 0x10000000
    this.clock = clock;
    this.times = TIMES[timing];
    this.selected = false;
    this.bytes = [];  // this transaction's bytes so far
    this.wel = false;
    this.busyUntil = 0;
    this.log = [];
    this.counts = { program: 0, erase: 0, wren: 0, status: 0 };
  }

  busy() { return this.clock.nanos < this.busyUntil; }

  select(low) {  // the chip select forced low (true) or high (false)
    if (low && !this.selected) { this.selected = true; this.bytes = []; }
    else if (!low && this.selected) { this.selected = false; this.end(); }
  }

  transfer(byte) {  // a byte out on SD0 while selected; returns the byte in on SD1
    if (!this.selected) return 0;
    const b = this.bytes;
    b.push(byte & 0xff);
    const n = b.length - 1, cmd = b[0];
    if (n === 0) return 0;
    switch (cmd) {
      case CMD.RDSR: return (this.busy() ? 1 : 0) | (this.wel || this.busy() ? 2 : 0);
      case CMD.RDSR2: return 0x02;  // QE: quad enabled, as boot stage 2 leaves it
      case CMD.JEDEC: return JEDEC_ID[(n - 1) % 3];
      case CMD.READ: return n >= 4 ? this.flash[(this.addr() + n - 4) % FLASH_BYTES] : 0;
      case CMD.FAST_READ: return n >= 5 ? this.flash[(this.addr() + n - 5) % FLASH_BYTES] : 0;
      default: return 0;  // UID and others: zeros, as rp2040js answered
    }
  }

  addr() { const b = this.bytes; return (b[1] << 16) | (b[2] << 8) | b[3]; }

  end() {  // the chip select rose: a command that changes the state takes effect
    const b = this.bytes, cmd = b[0], now = this.clock.nanos;
    if (cmd === CMD.RDSR) { this.counts.status++; return; }
    if (cmd === CMD.WRDI) { this.wel = false; return; }
    if (this.busy()) return;  // ignored while busy, as the chip does (only status is read)
    if (cmd === CMD.WREN && b.length === 1) {
      this.wel = true;
      this.counts.wren++;
      this.log.push({ cmd: 'wren', t: now, end: now });
      return;
    }
    if (!this.wel) return;
    if (cmd === CMD.WRSR) {  // its bits are not kept: QE stays set
      if (b.length < 2) return;
      this.wel = false;
      this.busyUntil = now + this.times.status;
      this.log.push({ cmd: 'status', t: now, end: this.busyUntil, data: hex(b.slice(1)) });
      return;
    }
    const erase = ERASE_BYTES[cmd];
    if ((cmd !== CMD.PP && !erase) || b.length < 4) return;
    const addr = this.addr() % FLASH_BYTES;
    this.wel = false;
    if (cmd === CMD.PP) {
      const data = b.slice(4);
      if (!data.length) return;
      applyProgram(this.flash, addr, data);
      this.busyUntil = now + this.times.program;
      this.counts.program++;
      this.log.push({ cmd: 'program', t: now, end: this.busyUntil, addr,
                      data: hex(data) });
    } else {
      applyErase(this.flash, addr, erase);
      this.busyUntil = now + this.times[erase === 4096 ? 'sector' : erase === 32768 ? 'block32'
                                                                                   : 'block64'];
      this.counts.erase++;
      this.log.push({ cmd: 'erase', t: now, end: this.busyUntil, addr, bytes: erase });
    }
  }
}

// The RP2040's SSI and IO_QSPI wired to a FlashChip: DR0 writes are bytes out, DR0 reads the
// bytes in (a receive FIFO that RXFLR counts; the transmit FIFO drains at once), and the
// chip select is IO_QSPI's SS override (OUTOVER 2: low, 3: high). The IO_QSPI pads' other
// registers read as before (all ones) but the GPIO controls, which the ROM reads back.
export function wire(mcu, chip) {
  const ssi = mcu.peripherals[0x18000];
  const ssiRead = ssi.readUint32.bind(ssi), ssiWrite = ssi.writeUint32.bind(ssi);
  const rx = [];
  ssi.readUint32 = (offset) => {
    if (offset === 0x20) return 0;  // TXFLR
    if (offset === 0x24) return rx.length;  // RXFLR
    if (offset === 0x28) return 0x06 | (rx.length ? 0x08 : 0);  // SR: TFE, TFNF, RFNE
    if (offset === 0x60) return rx.length ? rx.shift() : 0;  // DR0
    return ssiRead(offset);
  };
  ssi.writeUint32 = (offset, value) => {
    if (offset === 0x60) {
      rx.push(chip.selected ? chip.transfer(value) : 0);
      if (rx.length > 16) rx.shift();  // a FIFO of 16
      return;
    }
    if (offset === 0x08 && !(value & 1)) rx.length = 0;  // SSIENR off: FIFOs cleared
    ssiWrite(offset, value);
  };
  const io = mcu.peripherals[0x40018];
  const ctrl = new Map();
  io.readUint32 = (offset) => ((offset & 7) === 4 ? ctrl.get(offset) || 0 : 0xffffffff);
  io.writeUint32 = (offset, value) => {
    ctrl.set(offset, value);
    if (offset === 0x0c) {  // GPIO_QSPI_SS_CTRL: OUTOVER, bits 9:8
      const over = (value >> 8) & 3;
      if (over === 2) chip.select(true);
      else if (over === 3 || over === 0) chip.select(false);
    }
  };
}
