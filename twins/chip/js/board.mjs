// The handheld's board around an emulated RP2040 (rp2040js), with nothing of node or the
// browser in it: shared by the chip twin (run.mjs, on node) and the web page (page.mjs).
// The boot ROM and the one-file UF2 from bytes, the BOOTSEL pin read as released, the
// buttons' pull-ups, the SSD1306 answering on the I2C wires and block, the piezo's PWM.
import { GPIOPinState } from 'rp2040js';
import { applyErase } from './flash.mjs';

export const NVM_AT = 0x100000 - 4096;  // the nvm sector (0x100FF000), an offset in the flash

export function loadBootrom(mcu, bytes) {
  mcu.loadBootrom(new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2));
}

// The one UF2 a classroom drags onto RPI-RP2 (CircuitPython's image and the CIRCUITPY
// drive): 512-byte blocks, each 256 bytes for a flash address, written as the boot ROM
// writes a file dragged onto RPI-RP2: each 4 KB sector a block falls in is erased, then
// programmed. Sectors no block falls in keep what they held.
export function flashUf2(mcu, uf2) {
  const view = new DataView(uf2.buffer, uf2.byteOffset, uf2.byteLength), erased = new Set();
  for (let at = 0; at + 512 <= uf2.length; at += 512) {
    if (view.getUint32(at, true) !== 0x0a324655 || view.getUint32(at + 4, true) !== 0x9e5d5157) {
      continue;
    }
    const offset = view.getUint32(at + 12, true) - 0x10000000, size = view.getUint32(at + 16, true);
    const sector = offset & ~0xfff;
    if (!erased.has(sector)) { erased.add(sector); applyErase(mcu.flash, sector, 4096); }
    mcu.flash.set(uf2.subarray(at + 32, at + 32 + size), offset);
  }
}

// CircuitPython reads BOOTSEL through the QSPI chip select (SIO GPIO_HI_IN bit 1), which
// rp2040js reads as low, "held": released means high. inputsRead() runs at each read of
// the GPIO inputs (SIO GPIO_IN), before it.
export function bootselReleased(mcu, inputsRead) {
  const sioRead = mcu.sio.readUint32.bind(mcu.sio);
  mcu.sio.readUint32 = (offset) => {
    if (offset === 0x004) inputsRead();
    return offset === 0x008 ? sioRead(offset) | 2 : sioRead(offset);
  };
}

// Buttons: released pins read high (the board's pull-ups), pressed low.
export function releaseButtons(mcu, pins) {
  for (const pin of pins) mcu.gpio[pin].setInputValue(true);
}

export function pressButton(mcu, pin, down) {
  mcu.gpio[pin].setInputValue(!down);
}

// The supply. On USB (no cells): VBUS_SENSE (GP24) high and VSYS 4.7 V, 5 V less the Pico's
// Schottky diode. On cells {from, to, over_ms}: VBUS_SENSE low and VSYS falling from `from`
// to `to` volts over the run's first over_ms, then staying. The Pico's divider puts VSYS/3
// on GP29, the ADC's channel 3, read against 3.3 V in 12 bits.
export function wirePower(mcu, cells) {
  mcu.gpio[24].setInputValue(!cells);
  const adc = mcu.adc, read = adc.onADCRead;
  adc.onADCRead = (channel) => {
    if (channel === 3) {
      const t = Math.min(1, cells ? mcu.clock.nanos / 1e6 / cells.over_ms : 0);
      const vsys = cells ? cells.from + (cells.to - cells.from) * t : 4.7;
      adc.channelValues[3] = Math.min(4095, Math.floor(vsys / 3 / 3.3 * 4095));
    }
    read(channel);
  };
}

// The SSD1306 at w.address (answering when w.display) on the I2C pins w.sda and w.scl.
// on.write(tx) gets each I2C write, start to stop: {t, a (address), ack, d (bytes)};
// on.firstFrame(ns) when the first full frame (1 KB of display data) has been sent.
export function wireDisplay(mcu, w, on) {
  const clock = mcu.clock;
  // ---- the I2C wires: open drain with pull-ups, for CircuitPython's bit-banged probes
  const SDA = w.sda, SCL = w.scl;
  const present = !!w.display;
  const bb = { sdaLow: false, scl: 1, sda: 1, state: 'idle', bits: 0, byte: 0, ackClock: false };
  const driven = (pin) => mcu.gpio[pin].value === GPIOPinState.Low;
  function wires() {
    const scl = driven(SCL) ? 0 : 1;
    const sda = driven(SDA) || bb.sdaLow ? 0 : 1;
    if (scl !== bb.scl || sda !== bb.sda) {
      const was = { scl: bb.scl, sda: bb.sda };
      bb.scl = scl; bb.sda = sda;
      if (scl && was.scl && sda !== was.sda) {  // SDA moves while SCL is high
        if (!sda) { bb.state = 'addr'; bb.bits = 0; bb.byte = 0; } else { bb.state = 'idle'; bb.sdaLow = false; }
      } else if (scl && !was.scl && (bb.state === 'addr' || bb.state === 'data') && !bb.ackClock) {
        bb.byte = (bb.byte << 1) | sda; bb.bits++;
      } else if (!scl && was.scl) {
        if (bb.ackClock) { bb.ackClock = false; bb.sdaLow = false; bb.bits = 0; bb.byte = 0;
          if (bb.state === 'addr') bb.state = bb.acked ? 'data' : 'idle'; }
        else if (bb.bits === 8) {
          bb.ackClock = true;
          bb.acked = bb.state === 'data' || (present && (bb.byte >> 1) === w.address);
          bb.sdaLow = bb.acked;
        }
      }
    }
    mcu.gpio[SCL].setInputValue(!driven(SCL));
    mcu.gpio[SDA].setInputValue(!(driven(SDA) || bb.sdaLow));
  }
  mcu.gpio[SDA].addListener(() => wires());
  mcu.gpio[SCL].addListener(() => wires());
  wires();

  // ---- the SSD1306 on the I2C block: bytes answered after their real bit times
  let dataBytes = 0, first = false;
  function sent(tx) {
    on.write(tx);
    if (tx.ack && tx.d[0] === 0x40) dataBytes += tx.d.length - 1;
    if (!first && dataBytes >= 1024) { first = true; on.firstFrame(clock.nanos); }
  }
  for (const i2c of mcu.i2c) {
    let tx = null;
    const bit = () => ((i2c.sclHighPeriod + i2c.sclLowPeriod) * 1e9) / mcu.clkSys;
    const later = (bits, fn) => clock.createAlarm(fn).schedule(bits * bit());
    i2c.onStart = () => { if (!tx) tx = { t: clock.nanos, a: -1, ack: 0, d: [] };
      later(1, () => i2c.completeStart()); };
    i2c.onConnect = (address, mode) => {
      tx.a = address; tx.ack = present && address === w.address && mode === 0 ? 1 : 0;
      later(9, () => i2c.completeConnect(!!tx.ack));
    };
    i2c.onWriteByte = (value) => { tx.d.push(value); later(9, () => i2c.completeWrite(true)); };
    i2c.onReadByte = () => later(9, () => i2c.completeRead(0xff));
    i2c.onStop = () => later(1, () => {
      if (tx) { sent(tx); tx = null; }
      i2c.completeStop();
    });
  }
  // RESETS: rp2040js keeps the register but resets no block. The silicon's block reset
  // clears the I2C registers: CircuitPython's I2C deinit is a block reset (pico-sdk
  // i2c_deinit), and a new busio.I2C refuses a block still enabled ("I2C peripheral in
  // use"), as after a reload's displayio.release_displays().
  const resets = mcu.peripherals[0x4000c];
  const resetsWrite = resets.writeUint32.bind(resets);
  resets.writeUint32 = (offset, value) => {
    resetsWrite(offset, value);
    if (offset !== 0) return;
    mcu.i2c.forEach((i2c, n) => {
      if (!(value & (1 << (3 + n)))) return;  // RESET bits 3 and 4: I2C0, I2C1
      i2c.enable = 0;
      i2c.intRaw = 0;
      i2c.intEnable = 0;
      i2c.abortSource = 0;
      i2c.txFIFO.reset();
      i2c.rxFIFO.reset();
      i2c.checkInterrupts();
    });
  };
}

// The piezo: its PWM slice's divider, TOP and compare. changed() is {hz, duty} when they
// make another tone than at the last report (hz 0 or duty 0: silent), else null. A tone is
// set by several writes (divider, TOP, compare): one in between is no tone a piezo could
// sound (a new divider with the old TOP read 1155 Hz between two of the firmware's notes),
// so a tone is reported once a call finds no write since the call before and the same tone.
export class Piezo {
  constructor(mcu, pin) {
    this.mcu = mcu;
    this.pin = pin;
    this.last = '';
    this.seen = '';  // the tone the last call found
    this.writes = 0;  // writes to the PWM's registers, and how many the last call had seen
    this.seenWrites = -1;
    const pwm = mcu.pwm, write = pwm.writeUint32.bind(pwm);
    pwm.writeUint32 = (offset, value) => { this.writes++; write(offset, value); };
  }

  changed() {
    const mcu = this.mcu, c = mcu.pwm.channels[(this.pin >> 1) & 7];
    const on = (c.csr & 1) && mcu.gpio[this.pin].functionSelect === 4;
    const div = (c.div >> 4) + (c.div & 15) / 16 || 1;
    const cc = this.pin & 1 ? c.cc >>> 16 : c.cc & 0xffff;
    const hz = on ? mcu.clkSys / div / (c.top + 1) / ((c.csr & 2) ? 2 : 1) : 0;
    const duty = on ? Math.min(1, cc / (c.top + 1)) : 0;
    const key = hz.toFixed(1) + ' ' + duty.toFixed(3);
    const settled = key === this.seen && this.writes === this.seenWrites;
    this.seen = key;
    this.seenWrites = this.writes;
    if (!settled || key === this.last) return null;
    this.last = key;
    return { hz, duty };
  }
}
