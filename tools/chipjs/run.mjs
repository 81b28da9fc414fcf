// The chip twin's engine room: CircuitPython's own Pico image on an emulated RP2040
// (rp2040js), with an SSD1306 on the I2C pins, buttons on GPIO and a USB serial host.
// Driven by tools/chip.py (tools/chipjs/run.mjs): a JSON job in (argv[2]), JSON lines out on stdout:
//   {"k":"con","t":ns,"s":text}                  console (USB CDC) output
//   {"k":"i2c","t":ns,"end":ns,"a":addr,"ack":0|1,"d":hex}  one I2C write, start to stop
//   {"k":"key","t":ns,"pin":n,"down":0|1}          a button edge as the chip sees it (on the
//        matrix build a key's pin is [row pin, column pin], the wires it joins)
//   {"k":"read","t":ns,"key":n,"down":0|1}         the matrix build: a key's reading changed
//        as the keypad's scan read the GPIO inputs (key = row * columns + column)
//   {"k":"pwm","t":ns,"hz":f,"duty":d}             the piezo's PWM slice changed
//   {"k":"t0","t":ns}                              the first full frame is on the glass
//   {"k":"feed","t":[ns,...],"z":[ns,...]}         watchdog feeds (one per main-loop pass),
//        and at each the time the core had spent asleep (waiting for an interrupt) so far
//   {"k":"pc","refresh":{addr:n},"big":..,"other":..}  cycles by program counter in
//        passes that sent 1..256 I2C bytes, more, or none; sampled every 16 instructions
//        (-1: asleep)
//   {"k":"scan","t":ns,"pin":n}                    the first GPIO read after a key's edge
//   {"k":"flash","counts":{...},"log":[...]}       the flash chip's commands (flash.mjs)
//   {"k":"end","t":ns,"why":text,"asleep":ns,"wall_ms":ms}  the core's time asleep in all,
//        and the wall time the run took (simulated seconds per wall second)
import fs from 'node:fs';
import { RP2040, USBCDC, GPIOPinState } from 'rp2040js';
import { FLASH_BYTES, FlashChip, applyErase, wire } from './flash.mjs';
import { Matrix } from './matrix.mjs';
import { fixTimerAlarms, pendingWakes } from './errata.mjs';

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const MS = 1e6;

const mcu = new RP2040();
mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
const rom = fs.readFileSync(job.bootrom);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.byteLength >> 2));

// The flash: the whole 2 MB from job.flash (a board switched off and on again), else erased.
if (job.flash) mcu.flash.set(fs.readFileSync(job.flash).subarray(0, FLASH_BYTES), 0);
// The one UF2 a classroom drags onto RPI-RP2 (CircuitPython's image and the CIRCUITPY
// drive; tools/chip.py checked it): 512-byte blocks, each 256 bytes for a flash address,
// written as the boot ROM writes a file dragged onto RPI-RP2: each 4 KB sector a block
// falls in is erased, then programmed. Sectors no block falls in keep what they held.
if (job.uf2) {
  const uf2 = fs.readFileSync(job.uf2), erased = new Set();
  for (let at = 0; at + 512 <= uf2.length; at += 512) {
    const b = uf2.subarray(at, at + 512);
    if (b.readUInt32LE(0) !== 0x0a324655 || b.readUInt32LE(4) !== 0x9e5d5157) continue;
    const offset = b.readUInt32LE(12) - 0x10000000, size = b.readUInt32LE(16);
    const sector = offset & ~0xfff;
    if (!erased.has(sector)) { erased.add(sector); applyErase(mcu.flash, sector, 4096); }
    mcu.flash.set(b.subarray(32, 32 + size), offset);
  }
}
if (job.nvm) mcu.flash.set(fs.readFileSync(job.nvm), 0x100000 - 4096);

// CircuitPython reads BOOTSEL through the QSPI chip select (SIO GPIO_HI_IN bit 1), which
// rp2040js reads as low, "held": released means high.
// The first read of the GPIO inputs (SIO GPIO_IN) after a key's edge is the keypad's scan
// that sees it: {"k":"scan","t":ns,"pin":n} (a scan runs from a timer interrupt: while the
// flash is programmed or erased, interrupts are off and none runs).
// On the matrix build each read of the inputs also tells what the scan sees (matrix.read).
const sioRead = mcu.sio.readUint32.bind(mcu.sio);
const unseen = [];
let matrix = null;
mcu.sio.readUint32 = (offset) => {
  if (offset === 0x004 && unseen.length) {
    for (const pin of unseen.splice(0)) out({ k: 'scan', t: clock.nanos, pin });
  }
  if (offset === 0x004 && matrix) matrix.read();
  return offset === 0x008 ? sioRead(offset) | 2 : sioRead(offset);
};
const clock = mcu.clock;

// ---- the flash chip on the SSI: program and erase change the array (tools/chipjs/flash.mjs)
const flashChip = new FlashChip(mcu.flash, clock, job.flash_timing || 'typ');
wire(mcu, flashChip);

// ---- the console: a USB host that opens the CDC serial port
// (job.usb false: no host, as a handheld on batteries; the console is then not heard)
const cdc = job.usb === false ? null : new USBCDC(mcu.usbCtrl);
let line = '';
if (cdc) cdc.onDeviceConnected = () => out({ k: 'con', t: clock.nanos, s: '' });
if (cdc) cdc.onSerialData = (buf) => {
  line += Buffer.from(buf).toString('latin1');
  let nl;
  while ((nl = line.indexOf('\n')) >= 0) {
    const text = Buffer.from(line.slice(0, nl), 'latin1').toString('utf8');
    // without CircuitPython's status-bar escapes (OSC ... ST)
    out({ k: 'con', t: clock.nanos, s: text.replace(/\x1b\][^\x1b]*\x1b\\/g, '').replace(/\r$/, '') });
    line = line.slice(nl + 1);
  }
};

// ---- buttons: released pins read high (the board's pull-ups), pressed low
for (const pin of job.keys) mcu.gpio[pin].setInputValue(true);
// ---- the matrix build's 24 keys: diodes between row and column pins (matrix.mjs)
if (job.matrix) {
  matrix = new Matrix(mcu, job.matrix, (key, down) => out({ k: 'read', t: clock.nanos, key,
                                                             down: down ? 1 : 0 }));
}

// ---- the I2C wires: open drain with pull-ups, for CircuitPython's bit-banged probes
const SDA = job.sda, SCL = job.scl;
const present = !!job.display;
const bb = { sdaLow: false, scl: 1, sda: 1, state: 'idle', bits: 0, byte: 0, ackClock: false };
function driven(pin) {
  const p = mcu.gpio[pin];
  return p.value === GPIOPinState.Low;
}
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
        bb.acked = bb.state === 'data' || (present && (bb.byte >> 1) === job.address);
        bb.sdaLow = bb.acked;
      }
    }
    if (bb.sdaLow !== (sda === 0 && !driven(SDA))) { /* settle below */ }
  }
  const level = driven(SCL) ? false : true;
  mcu.gpio[SCL].setInputValue(level);
  mcu.gpio[SDA].setInputValue(!(driven(SDA) || bb.sdaLow));
}
mcu.gpio[SDA].addListener(() => wires());
mcu.gpio[SCL].addListener(() => wires());
wires();

// ---- the SSD1306 on the I2C block: bytes answered after their real bit times
for (const i2c of mcu.i2c) {
  let tx = null;
  const bit = () => ((i2c.sclHighPeriod + i2c.sclLowPeriod) * 1e9) / mcu.clkSys;
  const later = (bits, fn) => clock.createAlarm(fn).schedule(bits * bit());
  i2c.onStart = () => { if (!tx) tx = { t: clock.nanos, a: -1, ack: 0, d: [] };
    later(1, () => i2c.completeStart()); };
  i2c.onConnect = (address, mode) => {
    tx.a = address; tx.ack = present && address === job.address && mode === 0 ? 1 : 0;
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

// TIMER: an alarm armed for the present microsecond fires (errata.mjs).
fixTimerAlarms(mcu);

let dataBytes = 0, t0 = null;
function sent(tx) {
  passBytes += tx.d.length;
  out({ k: 'i2c', t: tx.t, end: clock.nanos, a: tx.a, ack: tx.ack,
        d: Buffer.from(tx.d).toString('hex') });
  if (tx.ack && tx.d[0] === 0x40) dataBytes += tx.d.length - 1;
  if (t0 === null && dataBytes >= 1024) {
    t0 = clock.nanos;
    out({ k: 't0', t: t0 });
    cap.cancel();  // from here the script's length decides
    schedule();
  }
}

// ---- the piezo: its slice's divider, TOP and compare, whenever they change
const piezo = job.piezo, slice = (piezo >> 1) & 7, chB = piezo & 1;
let lastPwm = '';
function pwmState() {
  const c = mcu.pwm.channels[slice];
  const on = (c.csr & 1) && mcu.gpio[piezo].functionSelect === 4;
  const div = (c.div >> 4) + (c.div & 15) / 16 || 1;
  const cc = chB ? c.cc >>> 16 : c.cc & 0xffff;
  const hz = on ? mcu.clkSys / div / (c.top + 1) / ((c.csr & 2) ? 2 : 1) : 0;
  const duty = on ? Math.min(1, cc / (c.top + 1)) : 0;
  const key = hz.toFixed(1) + ' ' + duty.toFixed(3);
  if (key !== lastPwm) { lastPwm = key; out({ k: 'pwm', t: clock.nanos, hz, duty }); }
}

// ---- the watchdog's feeds mark the main loop's passes
// With job.profile, program-counter samples go to one of three histograms at each feed:
// passes that sent up to 256 I2C bytes (a cover's refresh), more, or none.
const feeds = [], asleepAtFeed = [];
let asleep = 0;  // ns the core has waited for an interrupt (WFI)
const hist = { refresh: new Map(), big: new Map(), other: new Map() };
let passSamples = new Map(), passBytes = 0;
const wd = mcu.peripherals[0x40058];
const wdWrite = wd.writeUint32.bind(wd);
wd.writeUint32 = (offset, value) => {
  if ((offset & 0xfff) === 4) {
    feeds.push(clock.nanos);
    asleepAtFeed.push(asleep);
    if (passSamples.size) {
      const into = passBytes === 0 ? hist.other : passBytes <= 256 ? hist.refresh : hist.big;
      for (const [pc, c] of passSamples) into.set(pc, (into.get(pc) || 0) + c);
      passSamples = new Map();
    }
    passBytes = 0;
  }
  wdWrite(offset, value);
};
wd.onWatchdogTrigger = () => { out({ k: 'con', t: clock.nanos, s: '[chip] watchdog reset' }); finish('watchdog reset'); };

// ---- the key script, from the first frame on
function schedule() {
  for (const [ms, pin, down] of job.events) {
    clock.createAlarm(() => {
      if (Array.isArray(pin)) matrix.press(pin[0], pin[1], down);  // [row pin, column pin]
      else mcu.gpio[pin].setInputValue(!down);
      out({ k: 'key', t: clock.nanos, pin, down });
      unseen.push(pin);
    }).schedule(ms * MS);
  }
  clock.createAlarm(() => finish('script done')).schedule(job.after_ms * MS);
}

let done = null;
function finish(why) { if (!done) done = why; }
const cap = clock.createAlarm(() => finish('no first frame within ' + job.max_ms + ' ms'));
cap.schedule(job.max_ms * MS);

// ---- run: instructions, or straight to the next alarm while the core sleeps (WFI)
const profile = !!job.profile;
let n = 0, acc = 0;
const wallStart = performance.now();
mcu.core.PC = 0x10000000;
while (!done) {
  if (mcu.core.waiting && pendingWakes(mcu.core)) mcu.core.waiting = false;  // (errata.mjs)
  if (mcu.core.waiting) {
    const next = clock.nanosToNextAlarm;
    const step = Number.isFinite(next) && next > 0 ? next : 1000;
    clock.tick(step);
    asleep += step;
    if (profile && t0 !== null) passSamples.set(-1, (passSamples.get(-1) || 0) + step / 8);
  } else {
    const pc = mcu.core.PC;
    const cycles = mcu.core.executeInstruction();
    clock.tick(cycles * 8);
    if (profile && t0 !== null) {  // from the first frame on
      acc += cycles;
      if ((n & 15) === 0) {
        passSamples.set(pc, (passSamples.get(pc) || 0) + acc);
        acc = 0;
      }
    }
  }
  if ((n++ & 4095) === 0) pwmState();
}
out({ k: 'feed', t: feeds, z: asleepAtFeed });
out({ k: 'flash', counts: flashChip.counts, log: flashChip.log });
if (job.flash_out) fs.writeFileSync(job.flash_out, mcu.flash.subarray(0, FLASH_BYTES));
if (profile) out({ k: 'pc', refresh: Object.fromEntries(hist.refresh),
                   big: Object.fromEntries(hist.big), other: Object.fromEntries(hist.other) });
out({ k: 'end', t: clock.nanos, why: done, asleep,
      wall_ms: Math.round(performance.now() - wallStart) });
