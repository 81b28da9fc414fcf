// The handheld in a web page (make web): CircuitPython's own Pico image and the CIRCUITPY
// drive (the one-file UF2) on rp2040js, wired as the chip twin wires it (board.mjs). The
// glass on a canvas from the I2C bytes (glass.mjs), keys from the keyboard and from touch,
// the piezo through WebAudio, the nvm sector kept in localStorage. Bundled by esbuild into
// chip.js; board.json (twins/chip/web.py) says the pins, the keys' names and the keyboard.
import { RP2040, USBCDC } from 'rp2040js';
import { bootselReleased, flashUf2, loadBootrom, NVM_AT, Piezo, pressButton, releaseButtons,
         wireDisplay } from './board.mjs';
import { fixTimerAlarms, pendingWakes, ringOscillator } from './errata.mjs';
import { FlashChip, wire } from './flash.mjs';
import { SSD1306 } from './glass.mjs';

const STORE = 'california-speed-nvm';  // localStorage: the nvm sector, base64
const NVM_BYTES = 4096;
const SLICE_MS = 14;  // wall time the emulator may take of an animation frame
const $ = (id) => document.getElementById(id);

async function bytesOf(name) {
  const r = await fetch(name);
  if (!r.ok) throw new Error(name + ': ' + r.status + ' ' + r.statusText);
  return new Uint8Array(await r.arrayBuffer());
}

function keptNvm() {
  let text = null;
  try { text = localStorage.getItem(STORE); } catch (e) { return null; }  // storage off
  if (!text) return null;
  try {
    const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
    return bytes.length === NVM_BYTES ? bytes : null;
  } catch (e) { return null; }  // not ours: the firmware starts from its defaults
}

function keepNvm(bytes) {
  let text = '';
  for (const b of bytes) text += String.fromCharCode(b);
  try { localStorage.setItem(STORE, btoa(text)); } catch (e) { status.storage = 'not kept: ' + e.name; }
}

const status = { speed: '', sound: 'muted: press a key or touch a button for sound', storage: '' };
function showStatus() {
  $('status').textContent = [status.speed, status.sound, status.storage].filter(Boolean).join(' · ');
}

// ---- the piezo: a square wave at the PWM's frequency, silent at duty 0
class Sound {
  constructor() { this.ctx = null; this.tone = { hz: 0, duty: 0 }; this.heard = []; }

  unlock() {  // browsers allow sound only after a touch or a key
    if (this.ctx) return;
    const Ctx = window.AudioContext || window.webkitAudioContext;
    if (!Ctx) { status.sound = 'no WebAudio: silent'; showStatus(); return; }
    this.ctx = new Ctx();
    this.osc = this.ctx.createOscillator();
    this.osc.type = 'square';
    this.gain = this.ctx.createGain();
    this.gain.gain.value = 0;
    this.osc.connect(this.gain).connect(this.ctx.destination);
    this.osc.start();
    this.ctx.resume();
    status.sound = '';
    showStatus();
    this.play(this.tone);
  }

  play(tone) {
    this.tone = tone;
    if (!this.ctx) return;
    const now = this.ctx.currentTime, on = tone.hz >= 20 && tone.duty > 0;
    this.heard.push(on ? Math.round(tone.hz) : 0);  // what went out, for the page's tests
    if (this.heard.length > 256) this.heard.shift();
    if (on) this.osc.frequency.setValueAtTime(Math.min(tone.hz, 20000), now);
    // louder towards half duty, as a piezo is
    this.gain.gain.setValueAtTime(on ? 0.25 * Math.min(tone.duty, 1 - tone.duty) * 2 : 0, now);
  }
}

// ---- the buttons: a key is down while any keyboard key or pointer holds it. Each of its
// edges reaches the GPIO once the chip's keypad has read the level before it on
// board.seen_scans scans (its debounce, and one more): a tap shorter than a frame falls
// between two slices of the chip, and its press is latched until the chip has seen it.
class Buttons {
  constructor(mcu, board, onFirstTouch) {
    this.mcu = mcu;
    this.pins = board.keys;  // name: GPIO
    this.holders = new Map();  // name: Set of what holds it
    this.edges = new Map();  // name: the levels (true: down) still to reach its GPIO
    this.scans = new Map();  // name: the scans that have read its GPIO's level
    this.need = board.seen_scans;
    this.gapNs = board.scan_ms * 0.5e6;  // reads closer than this are one scan
    this.lastScan = -Infinity;
    this.onFirstTouch = onFirstTouch;
  }

  hold(name, by, down) {
    if (!(name in this.pins)) return;
    this.onFirstTouch();
    const set = this.holders.get(name) || new Set();
    const was = set.size > 0;
    if (down) set.add(by); else set.delete(by);
    this.holders.set(name, set);
    if (was !== set.size > 0) {
      if (!this.edges.has(name)) { this.edges.set(name, []); this.scans.set(name, this.need); }
      this.edges.get(name).push(set.size > 0);
      this.reach(name);
      for (const el of document.querySelectorAll('[data-key="' + name + '"]')) {
        el.classList.toggle('held', set.size > 0);
      }
    }
  }

  reach(name) {  // its next level to the GPIO, if the chip has seen the one there
    const edges = this.edges.get(name);
    if (!edges.length || this.scans.get(name) < this.need) return;
    pressButton(this.mcu, this.pins[name], edges.shift());
    this.scans.set(name, 0);
  }

  inputsRead(nanos) {  // at each read of the GPIO inputs, before it
    if (nanos - this.lastScan < this.gapNs) return;
    this.lastScan = nanos;  // a scan starts: the ones before it have read each level
    for (const name of this.scans.keys()) {
      this.reach(name);
      this.scans.set(name, this.scans.get(name) + 1);  // this scan reads the level there now
    }
  }

  releaseAll(kind) {
    for (const [name, set] of this.holders) {
      for (const by of [...set]) if (by.startsWith(kind)) this.hold(name, by, false);
    }
  }
}

// Each seat's pile buttons in two rows of four as the player sees them (the far row, the
// opponent's piles, nearer the glass) and MENU; B's panel is turned to face B.
function drawPanels(board, buttons) {
  for (const seat of ['A', 'B']) {
    const panel = $('seat' + seat);
    const label = (name) => Object.keys(board.keyboard).find((ch) => board.keyboard[ch] === name);
    for (const far of ['f', '']) {
      const row = document.createElement('div');
      row.className = 'row';
      for (let i = 0; i < board.piles; i++) {
        const name = seat + far + i;
        row.appendChild(button(name, label(name), buttons));
      }
      panel.appendChild(row);
    }
    const row = document.createElement('div');
    row.className = 'row';
    const menu = button('MENU', seat === 'A' ? 'MENU · space' : 'MENU', buttons);
    menu.classList.add('menu');
    row.appendChild(menu);
    panel.appendChild(row);
  }
}

function button(name, label, buttons) {
  const el = document.createElement('button');
  el.dataset.key = name;
  el.textContent = label || '';
  el.setAttribute('aria-label', name);
  const by = (e) => 'pointer' + e.pointerId;
  el.addEventListener('pointerdown', (e) => {
    e.preventDefault();
    el.setPointerCapture(e.pointerId);  // a held button stays held wherever the finger goes
    buttons.hold(name, by(e), true);
  });
  const up = (e) => buttons.hold(name, by(e), false);
  el.addEventListener('pointerup', up);
  el.addEventListener('pointercancel', up);
  el.addEventListener('lostpointercapture', up);
  el.addEventListener('contextmenu', (e) => e.preventDefault());
  return el;
}

function listenToKeyboard(board, buttons) {
  const name = (e) => board.keyboard[e.key === ' ' ? ' ' : e.key.toLowerCase()];
  window.addEventListener('keydown', (e) => {
    const n = name(e);
    if (!n || e.ctrlKey || e.metaKey || e.altKey) return;
    e.preventDefault();
    if (!e.repeat) buttons.hold(n, 'key' + e.code, true);
  });
  window.addEventListener('keyup', (e) => {
    const n = name(e);
    if (n) buttons.hold(n, 'key' + e.code, false);
  });
  window.addEventListener('blur', () => buttons.releaseAll('key'));
}

// ---- the glass
function painter(canvas, oled) {  // draws the glass on the canvas
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(oled.width, oled.height);
  const frame = new Uint8Array(oled.width * oled.height);
  return () => {
    oled.frame(frame);
    const k = 0.45 + 0.55 * (oled.contrast / 255);  // contrast as brightness
    const px = image.data;
    for (let i = 0; i < frame.length; i++) {
      const on = frame[i] * k;
      px[i * 4] = 200 * on; px[i * 4 + 1] = 230 * on; px[i * 4 + 2] = 255 * on; px[i * 4 + 3] = 255;
    }
    ctx.putImageData(image, 0, 0);
  };
}

async function start() {
  const board = await (await fetch('board.json')).json();
  const [rom, uf2] = await Promise.all([bytesOf(board.bootrom), bytesOf(board.uf2)]);
  const mcu = new RP2040();
  mcu.logger = { debug() {}, info() {}, warn() {}, error() {} };
  loadBootrom(mcu, rom);
  flashUf2(mcu, uf2);
  const kept = keptNvm();
  if (kept) mcu.flash.set(kept, NVM_AT);
  const clock = mcu.clock;
  const flashChip = new FlashChip(mcu.flash, clock);
  wire(mcu, flashChip);

  // the console (USB CDC) in the browser's console, as make chip prints it, with ?console
  // in the address; without, no USB host, as a handheld on batteries: CircuitPython
  // serving a USB host keeps the core awake nearly all the time, and the page runs slower
  const cdc = new URLSearchParams(location.search).has('console') ? new USBCDC(mcu.usbCtrl)
    : null;
  const decoder = new TextDecoder();
  let line = '';
  if (cdc) cdc.onSerialData = (buf) => {
    line += decoder.decode(buf, { stream: true });
    let nl;
    while ((nl = line.indexOf('\n')) >= 0) {
      const text = line.slice(0, nl).replace(/\x1b\][^\x1b]*\x1b\\/g, '').replace(/\r$/, '');
      if (text) console.log('chip: ' + text);
      line = line.slice(nl + 1);
    }
  };

  const sound = new Sound();
  const buttons = new Buttons(mcu, board, () => sound.unlock());
  releaseButtons(mcu, Object.values(board.keys));
  bootselReleased(mcu, () => buttons.inputsRead(clock.nanos));
  drawPanels(board, buttons);
  listenToKeyboard(board, buttons);

  const oled = new SSD1306(board.width, board.height, board.address);
  let changed = true, t0 = null, stopNs = Infinity, stopMs = null;
  wireDisplay(mcu, board, {
    write(tx) { if (tx.ack && tx.a === board.address) { oled.write(tx.d); changed = true; } },
    firstFrame(t) { t0 = t; if (stopMs !== null) stopNs = t0 + stopMs * 1e6; },
  });
  fixTimerAlarms(mcu);  // (errata.mjs: the sleeping main loop needs its alarms on time)
  ringOscillator(mcu);  // (errata.mjs: the browser's crypto, so each visit deals its own match)
  const piezo = new Piezo(mcu, board.piezo);
  let stopped = '';
  mcu.peripherals[0x40058].onWatchdogTrigger = () => { stopped = 'the watchdog fired (the firmware hung): reload the page to start again'; };
  const draw = painter($('glass'), oled);

  // what the page's tests read: simulated ms since the first frame, a stop (ms after the
  // first frame: the chip waits there until it is moved), the speed, the tones played
  window.chip = {
    heard: () => (sound.ctx ? sound.heard : null),
    ms: () => (t0 === null ? null : (clock.nanos - t0) / 1e6),
    stopAt(ms) { stopMs = ms; stopNs = ms === null ? Infinity : t0 === null ? Infinity : t0 + ms * 1e6; },
    speed: 0,
  };

  // ---- run: simulated time paced to wall time, a slice each animation frame
  let owed = 0, last = performance.now(), window0 = { wall: last, sim: clock.nanos };
  function slice(limitNs, wallUntil) {
    let n = 0;
    while (clock.nanos < limitNs && clock.nanos < stopNs && !stopped) {
      if (mcu.core.waiting && pendingWakes(mcu.core)) mcu.core.waiting = false;  // (errata.mjs)
      if (mcu.core.waiting) {
        const next = clock.nanosToNextAlarm;
        const step = Number.isFinite(next) && next > 0 ? next : 1000;
        clock.tick(Math.min(step, Math.max(1, Math.min(limitNs, stopNs) - clock.nanos)));
      } else {
        clock.tick(mcu.core.executeInstruction() * 8);
      }
      if ((++n & 4095) === 0) {
        const tone = piezo.changed();
        if (tone) sound.play(tone);
        if (performance.now() > wallUntil) break;
      }
    }
  }
  let nvmDirty = false;
  function frame(now) {
    owed = Math.min(owed + (now - last) * 1e6, 100e6);  // at most 100 ms behind
    last = now;
    const from = clock.nanos;
    if (!stopped) slice(from + owed, now + SLICE_MS);
    owed = Math.max(0, owed - (clock.nanos - from));
    if (clock.nanos >= stopNs) owed = 0;  // held at a stop: no time is owed
    for (const e of flashChip.log) {  // the firmware wrote its nvm sector: keep it
      const at = e.cmd === 'erase' ? e.addr - (e.addr % e.bytes) : e.addr;
      if (e.cmd !== 'wren' && at < NVM_AT + NVM_BYTES && at + (e.bytes || 256) > NVM_AT) nvmDirty = true;
    }
    flashChip.log.length = 0;
    if (nvmDirty && !flashChip.busy()) {
      keepNvm(mcu.flash.subarray(NVM_AT, NVM_AT + NVM_BYTES));
      nvmDirty = false;
    }
    if (changed) { draw(); changed = false; }
    if (t0 !== null) $('booting')?.remove();  // the firmware's first frame is on the glass
    if (clock.nanos >= stopNs) window0 = { wall: now, sim: clock.nanos };  // held: not slow
    else if (now - window0.wall >= 1000) {
      const speed = (clock.nanos - window0.sim) / 1e6 / (now - window0.wall);
      window.chip.speed = speed;
      status.speed = stopped || (speed >= 0.95 ? 'real time'
        : speed.toFixed(speed < 0.1 ? 2 : 1) + 'x real time');
      showStatus();
      window0 = { wall: now, sim: clock.nanos };
    }
    requestAnimationFrame(frame);
  }
  mcu.core.PC = 0x10000000;
  showStatus();
  requestAnimationFrame(frame);
}

start().catch((e) => {
  $('booting')?.remove();
  $('status').textContent = location.protocol === 'file:'  // (the browser lets it fetch nothing)
    ? 'This page must be served, not opened as a file: run make web-serve'
    : 'The chip could not start: ' + e.message;
  console.error(e);
});
