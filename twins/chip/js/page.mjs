// The handheld in a web page (make web): CircuitPython's own Pico image and the CIRCUITPY
// drive (the one-file UF2) on rp2040js, in a Web Worker (worker.mjs, wired as the chip
// twin wires it: board.mjs). Here, on the page's own thread: the glass on a canvas, keys
// from the keyboard and from touch, the piezo through WebAudio, the nvm sector kept in
// the browser's storage (memory.mjs: one memory for every tab), the buttons' labels.
// The layout: face to face on a tablet lying between two players, upright on a desk (or
// as the visitor chooses), and How to play before the first match.
// Bundled by esbuild into chip.js; board.json (twins/chip/web.py) says the pins, the keys'
// names, their labels, the keyboard and the pause page's title.
import { Memory } from './memory.mjs';

const $ = (id) => document.getElementById(id);
const ASLEEP = { dormant: 'asleep: press a key', waking: 'waking up\u2026' };  // the deep sleep
const LAYOUT = 'california-speed-layout';  // localStorage: the visitor's choice, 'desk' or 'table'
const SEEN = 'california-speed-how-to-play';  // localStorage: How to play was seen (web.py SEEN)
// a shared touch screen: a finger is the pointer and the window is a tablet's, not a phone's
const TABLET = matchMedia('(pointer: coarse) and (min-width: 600px) and (min-height: 600px)');

function stored(key) {
  try { return localStorage.getItem(key); } catch (e) { return null; }  // storage off
}

function store(key, value) {
  try { localStorage.setItem(key, value); } catch (e) { /* storage off: not kept */ }
}

// ---- the layout: 'table' turns B's side to face B, 'desk' stands it upright
function showLayout() {
  const chosen = stored(LAYOUT);
  const layout = chosen === 'desk' || chosen === 'table' ? chosen : TABLET.matches ? 'table' : 'desk';
  document.body.dataset.layout = layout;
  for (const el of document.querySelectorAll('.layout button')) {
    el.setAttribute('aria-pressed', String(el.dataset.layout === layout));
  }
}

function offerLayouts() {
  showLayout();
  TABLET.addEventListener('change', showLayout);
  for (const el of document.querySelectorAll('.layout button')) {
    el.addEventListener('click', () => { store(LAYOUT, el.dataset.layout); showLayout(); });
  }
}

// ---- How to play: shown until the visitor has seen it once, and from its button
function teach() {
  const learn = $('learn');
  learn.addEventListener('close', () => store(SEEN, '1'));
  $('teach').addEventListener('click', () => learn.showModal());
  if (!stored(SEEN)) learn.showModal();
}

// The keyboard's keys in words, for How to play: each seat's rows as the keyboard has them
function keysInWords(board) {
  const keys = (re) => Object.keys(board.keyboard).filter((ch) => re.test(board.keyboard[ch]))
    .map((ch) => '<kbd>' + (ch === ' ' ? 'space' : ch) + '</kbd>').join(' ');
  $('learn-keys').innerHTML = 'On a keyboard, A plays ' + keys(/^A\d$/) + ' (A\u2019s piles) and '
    + keys(/^Af\d$/) + ' (B\u2019s, as A sees them); B plays ' + keys(/^B\d$/) + ' and '
    + keys(/^Bf\d$/) + '; ' + keys(/^MENU$/) + ' is MENU. In the menus the arrows move, '
    + '<kbd>Enter</kbd> chooses and <kbd>Esc</kbd> goes back.';
}

async function bytesOf(name, progress = () => {}) {  // progress(share of the bytes come)
  const r = await fetch(name);
  if (!r.ok) throw new Error(name + ': ' + r.status + ' ' + r.statusText);
  const total = Number(r.headers.get('content-length')) || 0;
  const chunks = [], reader = r.body.getReader();
  let got = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    got += value.length;
    if (total) progress(Math.min(1, got / total));
  }
  const bytes = new Uint8Array(got);
  got = 0;
  for (const c of chunks) { bytes.set(c, got); got += c.length; }
  return bytes;
}

// the status line: the chip's (stopped, asleep), else paused or its speed; the sound's; the storage's
const status = { chip: '', paused: false, speed: '',
                 sound: 'muted: press a key or touch a button for sound', storage: '' };
function showStatus(text = [status.chip || (status.paused ? 'paused' : status.speed), status.sound,
                            status.storage].filter(Boolean).join(' · ')) {
  for (const el of document.querySelectorAll('.status')) el.textContent = text;  // A's and B's
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

// ---- the buttons: a key is down while any keyboard key or pointer holds it; each of its
// edges goes to the chip (worker.mjs latches it until the chip's keypad has seen it)
class Buttons {
  constructor(worker, board, onFirstTouch) {
    this.worker = worker;
    this.pins = board.keys;  // name: GPIO
    this.holders = new Map();  // name: Set of what holds it
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
      this.worker.postMessage({ t: 'key', name, down: set.size > 0 });
      for (const el of document.querySelectorAll('[data-key="' + name + '"]')) {
        el.classList.toggle('held', set.size > 0);
      }
    }
  }

  releaseAll(kind) {
    for (const [name, set] of this.holders) {
      for (const by of [...set]) if (by.startsWith(kind)) this.hold(name, by, false);
    }
  }
}

// Each seat's pile buttons in two rows of four as the player sees them (the far row, the
// opponent's piles, nearer the glass) and MENU; B's panel is turned to face B. Each
// button says what it does (board.labels: the firmware's role table), its keyboard key
// a small hint.
function drawPanels(board, buttons) {
  const hint = (name) => Object.keys(board.keyboard).find((ch) => board.keyboard[ch] === name);
  for (const seat of ['A', 'B']) {
    const panel = document.querySelector('#seat' + seat + ' .pad');
    for (const far of ['f', '']) {
      const row = document.createElement('div');
      row.className = 'row';
      for (let i = 0; i < board.piles; i++) {
        const name = seat + far + i;
        row.appendChild(button(name, hint(name), buttons));
      }
      panel.appendChild(row);
    }
    const row = document.createElement('div');
    row.className = 'row';
    const menu = button('MENU', seat === 'A' ? hint('MENU') : '', buttons);
    menu.classList.add('menu');
    row.appendChild(menu);
    panel.appendChild(row);
  }
}

// What the glass shows, for the buttons' labels: 'play' when the two rows of cards meet
// across its middle (rows 31 and 32 lit along most of their width, between the cards'
// corners), 'result' when one line runs the whole width there (a game's end: ANY
// KEY:NEXT), else 'menu' (the menus, the pause, HOW TO PLAY, the self-test).
function screenOf(frame, width) {
  const lit = (y) => { let n = 0; for (let x = 0; x < width; x++) n += frame[y * width + x]; return n; };
  const across = Math.min(lit(31), lit(32));
  return across >= width - 8 ? 'result' : across >= width * 3 / 4 ? 'play' : 'menu';
}

// How many piles a row the table on the glass shows, from the card outlines along the row
// under its middle (twins/desktop/glass.py piles_per_row: A's row, or B's when the glass
// is turned); 0 when it shows none
function pilesOf(frame, width, height) {
  const at = (height / 2) * width;
  const outlined = (x, w) => {  // a card's top edge, its corners cut
    if (frame[at + x]) return false;
    for (let i = x + 2; i < x + w - 2; i++) if (!frame[at + i]) return false;
    return true;
  };
  for (const n of [4, 3, 5, 6]) {
    const w = Math.floor(width / n), left = Math.floor((width - w * n) / 2);
    let all = true;
    for (let i = 0; i < n && all; i++) all = outlined(left + i * w, w);
    if (all) return n;
  }
  return 0;
}

// The pause page: its title (board.paused, in each language) along the glass's top, or
// along its bottom turned (the page faces whoever paused)
function pausedOn(frame, board) {
  const rows = board.width * 8, end = frame.length - 1;
  return board.paused.some((title) => {
    let up = true, down = true;
    for (let i = 0; i < rows && (up || down); i++) {
      const lit = title.charCodeAt(i) === 49;  // '1'
      up = up && !!frame[i] === lit;
      down = down && !!frame[end - i] === lit;
    }
    return up || down;
  });
}

// board.labels: what each button does in the menus, and in play by the piles a row
function relabel(board, screen, piles) {
  for (const el of document.querySelectorAll('.pad button')) {
    const said = board.labels[el.dataset.key];
    el.querySelector('.what').textContent = screen === 'result' ? 'NEXT' : screen === 'menu'
      ? said.menu : said.play[piles] ?? said.play[board.piles];
  }
  document.body.dataset.screen = screen;
  document.body.dataset.piles = piles;
}

function button(name, hint, buttons) {
  const el = document.createElement('button');
  el.dataset.key = name;
  const what = document.createElement('span');
  what.className = 'what';
  el.appendChild(what);
  if (hint) {
    const small = document.createElement('small');
    small.className = 'hint';
    small.textContent = hint === ' ' ? 'space' : hint;
    el.appendChild(small);
  }
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

// The keyboard: each button's key (board.keyboard), and for A in the menus the arrows,
// Enter (RIGHT: it chooses) and Esc (MENU: back) (board.menu_keys; in play the arrows and
// Enter press no pile). Nothing reaches the chip while How to play is open.
function listenToKeyboard(board, buttons) {
  const held = new Map();  // e.code: the button its keydown holds
  const name = (e) => board.keyboard[e.key === ' ' ? ' ' : e.key.toLowerCase()]
    ?? (e.key === 'Escape' || document.body.dataset.screen !== 'play' ? board.menu_keys[e.key] : undefined);
  window.addEventListener('keydown', (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || $('learn').open) return;
    const n = held.get(e.code) ?? name(e);
    if (!n) return;
    e.preventDefault();
    if (!e.repeat) { held.set(e.code, n); buttons.hold(n, 'key' + e.code, true); }
  });
  window.addEventListener('keyup', (e) => {
    const n = held.get(e.code);
    held.delete(e.code);
    if (n) buttons.hold(n, 'key' + e.code, false);
  });
  window.addEventListener('blur', () => { held.clear(); buttons.releaseAll('key'); });
}

// ---- the glass
function painter(canvas, board) {  // draws a glass (1 lit, 0 dark) on the canvas
  const ctx = canvas.getContext('2d');
  const image = ctx.createImageData(board.width, board.height);
  return (frame, contrast) => {
    const k = 0.45 + 0.55 * (contrast / 255);  // contrast as brightness
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
  for (const a of document.querySelectorAll('a[data-uf2]')) {  // saved under make uf2's names
    a.download = board.downloads[a.getAttribute('href')];
  }
  const booting = (text) => { const el = $('booting'); if (el && el.textContent !== text) el.textContent = text; };
  const memory = new Memory((said) => { status.storage = said; showStatus(); });
  const [rom, uf2, nvm] = await Promise.all([bytesOf(board.bootrom), bytesOf(board.uf2, (share) =>
    booting('loading the chip\u2026 ' + Math.round(100 * share) + '%')), memory.open()]);
  booting('starting CircuitPython\u2026');
  const worker = new Worker('worker.js');
  worker.onerror = (e) => showStatus('The chip could not start: ' + e.message);
  const sound = new Sound();
  const buttons = new Buttons(worker, board, () => sound.unlock());
  drawPanels(board, buttons);
  relabel(board, 'menu', board.piles);
  keysInWords(board);
  listenToKeyboard(board, buttons);
  const draw = painter($('glass'), board);

  // what the page's tests (and a developer, in the console) use: simulated ms since the
  // boot's first frame, a stop (ms after the first frame: the chip waits there until it is
  // moved), a fast forward (the chip runs as fast as it can to ms past where it is, and
  // waits there: chip.fastForward(13 * 60000) reaches the deep sleep), a throttle (the
  // chip's core rate times slower, as a phone's: chip.throttle(4)), the speed, the
  // state ('booting', 'running', 'dormant': asleep until a key, 'waking': the boot after
  // the wake), the tones played
  let ms = null;
  window.chip = {
    heard: () => (sound.ctx ? sound.heard : null),
    ms: () => ms,
    stopAt(at) { worker.postMessage({ t: 'stop', ms: at }); },
    fastForward(by) { worker.postMessage({ t: 'forward', ms: by }); },
    throttle(rate) { worker.postMessage({ t: 'throttle', rate }); },  // a core rate times slower
    speed: 0,
    state: 'booting',
  };
  worker.onmessage = ({ data }) => {
    if (data.t === 'console') { console.log('chip: ' + data.text); return; }
    if (data.frame) {  // drawn before its time is told, so a test at that time sees it
      draw(data.frame, data.contrast);
      const screen = screenOf(data.frame, board.width);
      const piles = screen === 'play' && pilesOf(data.frame, board.width, board.height)
        || Number(document.body.dataset.piles);  // (a banner over the row: as it was)
      if (screen !== document.body.dataset.screen || piles !== Number(document.body.dataset.piles)) {
        relabel(board, screen, piles);
      }
      const paused = screen === 'menu' && pausedOn(data.frame, board);
      if (paused !== status.paused) { status.paused = paused; showStatus(); }
    }
    for (const tone of data.tones) sound.play(tone);
    if (data.nvm) memory.save(data.nvm);  // the firmware wrote its nvm sector
    if (data.ms !== null) $('booting')?.remove();  // the firmware's first frame is on the glass
    else booting('starting CircuitPython\u2026 ' + data.up.toFixed(1) + ' s');
    ms = data.ms;
    if (data.speed !== null || data.stopped || data.state !== window.chip.state) {
      if (data.speed !== null) window.chip.speed = data.speed;
      window.chip.state = data.state;
      const speed = window.chip.speed;
      status.chip = data.stopped || ASLEEP[data.state] || '';
      status.speed = !speed ? '' : speed >= 0.95 ? 'real time'
        : speed.toFixed(speed < 0.1 ? 2 : 1) + 'x real time';
      showStatus();
    }
  };
  worker.postMessage({ t: 'start', board, rom, uf2, nvm,
                       console: new URLSearchParams(location.search).has('console') },
                     [rom.buffer, uf2.buffer]);
  showStatus();
}

document.querySelector('#seatB .help').innerHTML = document.querySelector('#seatA .help').innerHTML;
offerLayouts();
teach();

// installed or offline, the page's files come from its service worker's cache (sw.js)
if ('serviceWorker' in navigator && location.protocol !== 'file:') {
  navigator.serviceWorker.register('sw.js').catch((e) => console.warn('no offline copy: ' + e.message));
}

start().catch((e) => {
  $('booting')?.remove();
  showStatus(location.protocol === 'file:'  // (the browser lets it fetch nothing)
    ? 'This page must be served, not opened as a file: run make web-serve'
    : 'The chip could not start: ' + e.message);
  console.error(e);
});
