// The chip twin's engine room: CircuitPython's own Pico image on an emulated RP2040
// (rp2040js), with an SSD1306 on the I2C pins, buttons on GPIO and a USB serial host.
// Driven by twins/chip/chip.py (twins/chip/js/run.mjs): a JSON job in (argv[2]), JSON lines out on stdout:
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
//   {"k":"clock","t":ns,"hz":f}                    clk_sys changed (microcontroller.cpu.frequency)
//   {"k":"dormant","t":ns,"woke":ns|null}          the crystal went DORMANT (deep sleep), and
//        when a pin's wake event restarted it (null: not by the end)
//   {"k":"reset","t":ns,"scratch":[...],"reason":n,"low":[pin,...]}  the watchdog reset that
//        follows a wake: what the next boot keeps (the watchdog's scratch and REASON; the
//        flash and SRAM go to job.reset_out + ".flash" and ".sram"), and the buttons held down
//   {"k":"end","t":ns,"why":text,"wall_ms":ms}     the wall time the run took (simulated
//        seconds per wall second)
import fs from 'node:fs';
import { RP2040, USBCDC } from 'rp2040js';
import { bootselReleased, flashUf2, loadBootrom, NVM_AT, Piezo, pressButton, releaseButtons,
         wireDisplay, wirePower } from './board.mjs';
import { FLASH_BYTES, FlashChip, wire } from './flash.mjs';
import { Matrix } from './matrix.mjs';
import { cycleNanos, dormancy, fixTimerAlarms, pendingWakes, ringOscillator } from './errata.mjs';

const job = JSON.parse(fs.readFileSync(process.argv[2], 'utf8'));
const out = (obj) => process.stdout.write(JSON.stringify(obj) + '\n');
const MS = 1e6;

const mcu = new RP2040();
mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
loadBootrom(mcu, fs.readFileSync(job.bootrom));

// The flash: the whole 2 MB from job.flash (a board switched off and on again), else erased;
// the UF2 written over it (twins/chip/chip.py checked it), then the nvm sector from job.nvm.
if (job.flash) mcu.flash.set(fs.readFileSync(job.flash).subarray(0, FLASH_BYTES), 0);
if (job.uf2) flashUf2(mcu, fs.readFileSync(job.uf2));
if (job.nvm) mcu.flash.set(fs.readFileSync(job.nvm), NVM_AT);
// A boot after a reset (job.after_reset): the SRAM and the watchdog's scratch and REASON as
// the reset left them (the silicon's watchdog reset clears neither; CircuitPython keeps its
// sleep memory in SRAM and the wake's cause in scratch 0).
if (job.after_reset) {
  const watchdog = mcu.peripherals[0x40058];
  mcu.sram.set(fs.readFileSync(job.after_reset.sram));
  watchdog.scratchData.set(job.after_reset.scratch);
  watchdog.reason = job.after_reset.reason;
}

// The first read of the GPIO inputs (SIO GPIO_IN) after a key's edge is the keypad's scan
// that sees it: {"k":"scan","t":ns,"pin":n} (a scan runs from a timer interrupt: while the
// flash is programmed or erased, interrupts are off and none runs).
// On the matrix build each read of the inputs also tells what the scan sees (matrix.read).
const unseen = [];
let matrix = null;
bootselReleased(mcu, () => {
  if (unseen.length) for (const pin of unseen.splice(0)) out({ k: 'scan', t: clock.nanos, pin });
  if (matrix) matrix.read();
});
const clock = mcu.clock;

// ---- the flash chip on the SSI: program and erase change the array (twins/chip/js/flash.mjs)
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

releaseButtons(mcu, job.keys);
wirePower(mcu, job.cells);  // USB power, or cells falling over the run (board.mjs)
for (const pin of job.held || []) pressButton(mcu, pin, 1);  // held through the reset
// ---- the matrix build's 24 keys: diodes between row and column pins (matrix.mjs)
if (job.matrix) {
  matrix = new Matrix(mcu, job.matrix, (key, down) => out({ k: 'read', t: clock.nanos, key,
                                                             down: down ? 1 : 0 }));
}

// TIMER: an alarm armed for the present microsecond fires (errata.mjs).
fixTimerAlarms(mcu);
// ROSC: the random bit follows job.entropy's stream (errata.mjs); with none, the bit
// rp2040js reads, the same on every run (the first deal the goldens were made with).
if (job.entropy !== null && job.entropy !== undefined) ringOscillator(mcu, job.entropy);
// XOSC DORMANT: deep sleep until a pin's wake event (errata.mjs); clk_sys as the firmware
// sets it, each cycle cycleNanos(mcu) long (errata.mjs).
const dormant = dormancy(mcu);
let slept = null;  // the 'dormant' line, once the crystal stopped
mcu.addClockListener((hz) => out({ k: 'clock', t: clock.nanos, hz }));

// ---- the SSD1306 on the I2C wires and block (board.mjs)
let t0 = null;
wireDisplay(mcu, job, {
  write(tx) {
    passBytes += tx.d.length;
    out({ k: 'i2c', t: tx.t, end: clock.nanos, a: tx.a, ack: tx.ack,
          d: Buffer.from(tx.d).toString('hex') });
  },
  firstFrame(t) {
    t0 = t;
    out({ k: 't0', t: t0 });
    cap.cancel();  // from here the script's length decides
    if (!job.after_reset) schedule();
  },
});

// ---- the piezo: its slice's divider, TOP and compare, whenever they change
const piezo = new Piezo(mcu, job.piezo);
function pwmState() {
  const tone = piezo.changed();
  if (tone) out({ k: 'pwm', t: clock.nanos, hz: tone.hz, duty: tone.duty });
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
wd.onWatchdogTrigger = () => {
  if (slept && slept.woke !== null) {  // the reset that ends a deep sleep: the next boot's
    fs.writeFileSync(job.reset_out + '.flash', mcu.flash.subarray(0, FLASH_BYTES));
    fs.writeFileSync(job.reset_out + '.sram', mcu.sram);
    out({ k: 'reset', t: clock.nanos, scratch: Array.from(wd.scratchData), reason: wd.reason,
          low: job.keys.filter((pin) => !mcu.gpio[pin].rawInputValue) });
    finish('reset after the wake from deep sleep');
    return;
  }
  out({ k: 'con', t: clock.nanos, s: '[chip] watchdog reset' });
  finish('watchdog reset');
};

// ---- the key script, from the first frame on (after a reset: from the boot's start)
function schedule() {
  for (const [ms, pin, down] of job.events) {
    clock.createAlarm(() => {
      if (Array.isArray(pin)) matrix.press(pin[0], pin[1], down);  // [row pin, column pin]
      else pressButton(mcu, pin, down);
      out({ k: 'key', t: clock.nanos, pin, down });
      unseen.push(pin);
    }).schedule(ms * MS);
  }
  clock.createAlarm(() => finish('script done')).schedule(job.after_ms * MS);
}

// Where the core can fetch an instruction: the boot ROM, the flash (XIP and its three
// mirrors), SRAM. rp2040js reads anything else as 0xffffffff and runs on, slowly, up
// the address space; the silicon's bus faults at once.
function runnable(pc) {
  return pc < 0x4000 || (pc >>> 26 === 0x4 && (pc & 0xffffff) < mcu.flash.length)
    || (pc >= 0x20000000 && pc < 0x20000000 + mcu.sram.length);
}

let done = null;
function finish(why) { if (!done) done = why; }
const cap = clock.createAlarm(() => finish('no first frame within ' + job.max_ms + ' ms'));
cap.schedule(job.max_ms * MS);
if (job.after_reset) schedule();

// ---- run: instructions, or straight to the next alarm while the core sleeps (WFI) or
// the crystal is DORMANT (no instruction runs until a pin wakes it)
const profile = !!job.profile;
let n = 0, acc = 0;
const wallStart = performance.now();
mcu.core.PC = 0x10000000;
while (!done) {
  if (dormant.asleep) {
    if (!slept) slept = { k: 'dormant', t: dormant.at, woke: null };
    if (dormant.woken()) { slept.woke = clock.nanos; continue; }
    const next = clock.nanosToNextAlarm;
    if (!Number.isFinite(next)) { finish('dormant, with nothing left to wake it'); continue; }
    clock.tick(Math.max(next, 1));
    continue;
  }
  if (mcu.core.waiting && pendingWakes(mcu.core)) mcu.core.waiting = false;  // (errata.mjs)
  if (mcu.core.waiting) {
    const next = clock.nanosToNextAlarm;
    const step = Number.isFinite(next) && next > 0 ? next : 1000;
    clock.tick(step);
    asleep += step;
    if (profile && t0 !== null) passSamples.set(-1, (passSamples.get(-1) || 0) + step / cycleNanos(mcu));
  } else {
    const pc = mcu.core.PC;
    const cycles = mcu.core.executeInstruction();
    clock.tick(cycles * cycleNanos(mcu));
    if (profile && t0 !== null) {  // from the first frame on
      acc += cycles;
      if ((n & 15) === 0) {
        passSamples.set(pc, (passSamples.get(pc) || 0) + acc);
        acc = 0;
      }
    }
  }
  if ((n++ & 4095) === 0) {
    pwmState();
    const pc = mcu.core.PC >>> 0;
    if (!runnable(pc)) {
      finish('the core ran off to 0x' + pc.toString(16) + ': no memory is there (the silicon '
             + 'would fault)');
    }
  }
}
if (slept) out(slept);
out({ k: 'feed', t: feeds, z: asleepAtFeed });
out({ k: 'flash', counts: flashChip.counts, log: flashChip.log });
if (job.flash_out) fs.writeFileSync(job.flash_out, mcu.flash.subarray(0, FLASH_BYTES));
if (profile) out({ k: 'pc', refresh: Object.fromEntries(hist.refresh),
                   big: Object.fromEntries(hist.big), other: Object.fromEntries(hist.other) });
out({ k: 'end', t: clock.nanos, why: done, wall_ms: Math.round(performance.now() - wallStart) });
