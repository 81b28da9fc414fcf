// The chip of the web page, in a Web Worker (make web bundles it into worker.js): the
// RP2040 (rp2040js) with the one-file UF2, wired as the chip twin wires it (board.mjs),
// its simulated time paced to wall time in slices, so the page's thread only draws,
// listens and plays. The page (page.mjs) and it speak in messages:
//   to it:    {t:'start', board, rom, uf2, nvm, console}   the board.json, the files' bytes
//             {t:'key', name, down}                       a key's edge (stamped on arrival)
//             {t:'stop', ms}                              hold the chip ms after the first
//                                                         frame (null: run on)
//             {t:'forward', ms}                           run it as fast as it can to ms past
//                                                         where it is, and hold it there
//             {t:'throttle', rate}                        a core rate times slower (a phone's):
//                                                         each slice's work is followed by
//                                                         rate - 1 times as long spent idle-busy
//   from it:  {t:'tick', ms, up, speed, frame, contrast, tones, nvm, stopped, state}  after
//             a slice: simulated ms since the boot's first frame (null before it), s since
//             power-on, the speed over the last second (null in between), the glass (and
//             contrast) when it changed, the tones since, the nvm sector when the firmware
//             wrote it, why the chip stopped ('' running), and 'booting', 'running',
//             'dormant' (the deep sleep: a key wakes it) or 'waking' (from the wake to the
//             first frame of the boot after its reset)
//             {t:'console', text}                         a line of the chip's console
import { RP2040, USBCDC } from 'rp2040js';
import { bootselReleased, flashUf2, loadBootrom, NVM_AT, Piezo, pressButton, releaseButtons,
         wireDisplay, wirePower } from './board.mjs';
import { cycleNanos, dormancy, fixTimerAlarms, pendingWakes, ringOscillator } from './errata.mjs';
import { FlashChip, wire } from './flash.mjs';
import { SSD1306 } from './glass.mjs';

const NVM_BYTES = 4096;
const SLICE_MS = 10;  // wall time a slice may take before the Worker reads its messages
const FRAME_MS = 15;  // the glass goes to the page at most this often (and at a stop)

// ---- the keys: each edge reaches the GPIO once the chip's keypad has read the level
// before it on board.seen_scans scans (its debounce, and one more): a tap shorter than a
// slice would fall between two scans, so its press is latched until the chip has seen it.
// An edge is stamped with the chip's time when it arrives, as the keypad would stamp it.
class Keys {
  constructor(mcu, board) {
    this.mcu = mcu;
    this.pins = board.keys;  // name: GPIO
    this.edges = new Map();  // name: the levels (true: down) still to reach its GPIO
    this.scans = new Map();  // name: the scans that have read its GPIO's level
    this.need = board.seen_scans;
    this.gapNs = board.scan_ms * 0.5e6;  // reads closer than this are one scan
    this.lastScan = -Infinity;
  }

  edge(name, down) {
    if (!(name in this.pins)) return;
    if (!this.edges.has(name)) { this.edges.set(name, []); this.scans.set(name, this.need); }
    this.edges.get(name).push(down);
    this.reach(name);
  }

  reach(name) {  // its next level to the GPIO, if the chip has seen the one there
    const edges = this.edges.get(name);
    if (!edges.length || this.scans.get(name) < this.need) return;
    pressButton(this.mcu, this.pins[name], edges.shift());
    this.scans.set(name, 0);
  }

  moveTo(mcu) {  // the chip after a reset: the keys down stay down, the edges to come come
    for (const name of this.edges.keys()) {
      const down = !this.mcu.gpio[this.pins[name]].rawInputValue;
      if (down) pressButton(mcu, this.pins[name], true);
    }
    this.mcu = mcu;
    this.lastScan = -Infinity;
  }

  inputsRead(nanos) {  // at each read of the GPIO inputs, before it
    if (nanos - this.lastScan < this.gapNs) return;
    this.lastScan = nanos;  // a scan starts: the ones before it have read each level
    for (const name of this.scans.keys()) {
      this.reach(name);
      this.scans.set(name, this.scans.get(name) + 1);  // this scan reads the level there now
    }
  }
}

// after: the boot that follows a wake from deep sleep, from what the watchdog's reset left
// (as run.mjs's after_reset): the flash, the SRAM, the watchdog's scratch and REASON, the
// keys (held ones still held) and whether the nvm sector is still to go to the page
function start(data, after = null) {
  const { board, rom, uf2, nvm, console: withConsole } = data;
  const mcu = new RP2040();
  mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
  loadBootrom(mcu, rom);
  const watchdog = mcu.peripherals[0x40058];
  if (after) {
    mcu.flash.set(after.flash);
    mcu.sram.set(after.sram);
    watchdog.scratchData.set(after.scratch);
    watchdog.reason = after.reason;
  } else {
    flashUf2(mcu, uf2);
    if (nvm) mcu.flash.set(nvm, NVM_AT);
  }
  const clock = mcu.clock;
  const flashChip = new FlashChip(mcu.flash, clock);
  wire(mcu, flashChip);

  // the console (USB CDC) to the page, as make chip prints it, when it asks (?console);
  // else no USB host, as a handheld on batteries: CircuitPython serving a USB host keeps
  // the core awake nearly all the time, and the chip runs slower
  const cdc = withConsole ? new USBCDC(mcu.usbCtrl) : null;
  const decoder = new TextDecoder();
  let line = '';
  if (cdc) cdc.onSerialData = (buf) => {
    line += decoder.decode(buf, { stream: true });
    let nl;
    while ((nl = line.indexOf('\n')) >= 0) {
      const text = line.slice(0, nl).replace(/\x1b\][^\x1b]*\x1b\\/g, '').replace(/\r$/, '');
      if (text) postMessage({ t: 'console', text });
      line = line.slice(nl + 1);
    }
  };

  const keys = after ? after.keys : new Keys(mcu, board);
  releaseButtons(mcu, Object.values(board.keys));
  if (after) keys.moveTo(mcu);
  bootselReleased(mcu, () => keys.inputsRead(clock.nanos));
  wirePower(mcu, null);  // a browser's handheld is on USB power: no gauge on the glass
  const oled = new SSD1306(board.width, board.height, board.address);
  let changed = true, t0 = null, stopNs = Infinity, stopMs = null;
  wireDisplay(mcu, board, {
    write(tx) { if (tx.ack && tx.a === board.address) { oled.write(tx.d); changed = true; } },
    firstFrame(t) { t0 = t; if (stopMs !== null) stopNs = t0 + stopMs * 1e6; },
  });
  fixTimerAlarms(mcu);  // (errata.mjs: the sleeping main loop needs its alarms on time)
  ringOscillator(mcu);  // (errata.mjs: the platform's crypto, so each visit deals its own match)
  const piezo = new Piezo(mcu, board.piezo);
  let cycle = cycleNanos(mcu);  // ns an instruction's cycle takes at the clock the firmware set
  mcu.addClockListener(() => { cycle = cycleNanos(mcu); });  // (errata.mjs)
  // the deep sleep (errata.mjs): while the crystal is DORMANT no instruction runs, time
  // goes on with wall time, and a key wakes it; the watchdog's reset that follows the wake
  // boots a new chip from what the reset keeps
  const dormant = dormancy(mcu);
  let stopped = '', tones = [], woke = false, reset = false;
  watchdog.onWatchdogTrigger = () => {
    if (woke) reset = true;
    else stopped = 'the watchdog fired (the firmware hung): reload the page to start again';
  };

  let forward = false;  // run unpaced to the stop
  let throttle = 1;  // a core this many times slower (Chromium throttles no Worker)
  onmessage = ({ data }) => {
    if (data.t === 'key') keys.edge(data.name, data.down);
    else if (data.t === 'stop') {
      stopMs = data.ms;
      stopNs = data.ms === null || t0 === null ? Infinity : t0 + data.ms * 1e6;
      forward = false;
    } else if (data.t === 'forward') {
      stopMs = (t0 === null ? 0 : (clock.nanos - t0) / 1e6) + data.ms;
      stopNs = t0 === null ? Infinity : t0 + stopMs * 1e6;
      forward = true;
    } else if (data.t === 'throttle') {
      throttle = Math.max(1, Number(data.rate) || 1);
    }
  };

  function slice(limitNs, wallUntil) {
    let n = 0;
    while (clock.nanos < limitNs && clock.nanos < stopNs && !stopped && !reset
           && (t0 === null || limitNs !== Infinity)) {  // (an unpaced boot ends at the frame)
      if (dormant.asleep) {
        if (dormant.woken()) { woke = true; continue; }
        clock.tick(Math.max(1, Math.min(limitNs, stopNs) - clock.nanos));
        continue;
      }
      if (mcu.core.waiting && pendingWakes(mcu.core)) mcu.core.waiting = false;  // (errata.mjs)
      if (mcu.core.waiting) {
        const next = clock.nanosToNextAlarm;
        const step = Number.isFinite(next) && next > 0 ? next : 1000;
        clock.tick(Math.min(step, Math.max(1, Math.min(limitNs, stopNs) - clock.nanos)));
      } else {
        clock.tick(mcu.core.executeInstruction() * cycle);
      }
      if ((++n & 4095) === 0) {
        const tone = piezo.changed();
        if (tone) tones.push(tone);
        if (performance.now() > wallUntil) break;
      }
    }
  }

  // ---- run: simulated time paced to wall time; between slices the messages are read
  const yielded = new MessageChannel();
  let owed = 0, last = performance.now(), window0 = { wall: last, sim: clock.nanos };
  let nvmDirty = !!after && after.nvmDirty, sentFrame = -Infinity, held = false, paced = false;
  let sent = null;  // the state the page was last told
  function run() {
    const now = performance.now();
    owed = Math.min(owed + (now - last) * 1e6, 100e6);  // at most 100 ms behind
    last = now;
    const from = clock.nanos;
    // until the firmware's first frame nobody plays: the boot runs as fast as it can (its
    // sleeps take no wall time); from there simulated time is paced to wall time
    if (!stopped) slice(t0 === null ? Infinity : forward ? stopNs : from + owed, now + SLICE_MS / throttle);
    if (throttle > 1) {  // the same work on a slower core: busy for the rest of its time
      const busyUntil = performance.now() + (performance.now() - now) * (throttle - 1);
      while (performance.now() < busyUntil) { /* a slower core's time */ }
    }
    if (forward && clock.nanos >= stopNs) forward = false;
    if (!paced && t0 !== null) { paced = true; owed = 0; last = performance.now(); }
    owed = Math.max(0, owed - (clock.nanos - from));
    const atStop = clock.nanos >= stopNs;
    if (atStop) owed = 0;  // held at a stop: no time is owed
    for (const e of flashChip.log) {  // the firmware wrote its nvm sector: the page keeps it
      const at = e.cmd === 'erase' ? e.addr - (e.addr % e.bytes) : e.addr;
      if (e.cmd !== 'wren' && at < NVM_AT + NVM_BYTES && at + (e.bytes || 256) > NVM_AT) nvmDirty = true;
    }
    flashChip.log.length = 0;
    if (reset) {  // the wake's reset: the boot that follows, on a new chip
      start(data, { flash: mcu.flash, sram: mcu.sram, scratch: watchdog.scratchData,
                    reason: watchdog.reason, keys, nvmDirty });
      return;
    }
    const state = dormant.asleep ? 'dormant' : woke || (after && t0 === null) ? 'waking'
      : t0 === null ? 'booting' : 'running';
    const tick = { t: 'tick', ms: t0 === null ? null : (clock.nanos - t0) / 1e6,
                   up: clock.nanos / 1e9, speed: null,
                   frame: null, tones, nvm: null, stopped, state };
    tones = [];
    if (nvmDirty && !flashChip.busy()) {
      tick.nvm = mcu.flash.slice(NVM_AT, NVM_AT + NVM_BYTES);
      nvmDirty = false;
    }
    const end = performance.now();
    if (changed && (end - sentFrame >= FRAME_MS || (atStop && !held))) {
      tick.frame = oled.frame();
      tick.contrast = oled.contrast;
      changed = false;
      sentFrame = end;
    }
    if (atStop || t0 === null) window0 = { wall: end, sim: clock.nanos };  // held: not slow
    else if (end - window0.wall >= 1000) {
      tick.speed = (clock.nanos - window0.sim) / 1e6 / (end - window0.wall);
      window0 = { wall: end, sim: clock.nanos };
    }
    if (!(atStop && held && !tick.frame && !tick.nvm && !tick.tones.length && state === sent)) {
      postMessage(tick, [tick.frame, tick.nvm].filter(Boolean).map((b) => b.buffer));
    }
    held = atStop && !changed;
    sent = state;
    // behind (or forward): the next slice at once; caught up (or held, or asleep), later
    if ((owed > 1e6 || forward) && !atStop && !stopped) yielded.port2.postMessage(0);
    else setTimeout(run, state === 'dormant' ? 20 : atStop ? 4 : 1);
  }
  yielded.port1.onmessage = run;
  mcu.core.PC = 0x10000000;
  run();
}

onmessage = ({ data }) => { if (data.t === 'start') start(data); };
