// The handheld's memory (the firmware's nvm sector) in the browser's storage: one memory for
// every tab of the page, as the handheld has one. The first tab open keeps it (it holds a
// Web Lock while it is open) and saves each write of the firmware's; a second tab plays
// from what was saved and says plainly that it does not save. When the first tab closes,
// the second keeps the memory from then on, saving what its firmware wrote, unless the
// first saved after the second read the memory: then it saves nothing (that would write
// the first's settings over with older ones) and asks to be reloaded. Before each save the
// stored memory must still be the one this tab last read or wrote, so a tab that cannot
// hold the lock (a browser without Web Locks, an older page) never writes over another's.
const STORE = 'california-speed-nvm';  // localStorage: the nvm sector, base64
const LOCK = 'california-speed-memory';
const NVM_BYTES = 4096;
const ELSEWHERE = 'the handheld is open in another tab: this one plays but does not save';
const STALE = 'the other tab saved the handheld\u2019s memory: reload this one to save here';
const HELD = () => new Promise(() => {});  // a lock held while the tab is open

function stored() {
  try { return localStorage.getItem(STORE); } catch (e) { return null; }  // storage off
}

export class Memory {
  constructor(say) {
    this.say = say;  // say(text): the storage's part of the status ('' nothing to say)
    this.keeping = false;  // this tab saves
    this.known = null;  // the stored text as this tab last read or wrote it
    this.latest = null;  // the firmware's last write, saved or not
  }

  // The saved nvm sector for the chip's flash (null: none, the firmware's defaults), read
  // once this tab knows whether it keeps the memory; a tab that does not waits to take it over.
  async open() {
    this.keeping = !navigator.locks || await new Promise((got) => navigator.locks.request(
      LOCK, { ifAvailable: true }, (lock) => { got(lock !== null); return lock && HELD(); }));
    const bytes = this.read();
    if (!this.keeping) {
      this.say(ELSEWHERE);
      navigator.locks.request(LOCK, () => this.takeOver());
    }
    return bytes;
  }

  read() {
    const text = this.known = stored();
    if (!text) return null;
    try {
      const bytes = Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
      return bytes.length === NVM_BYTES ? bytes : null;
    } catch (e) { return null; }  // not ours: the firmware starts from its defaults
  }

  takeOver() {  // the lock is this tab's: keep it, or give it up if the memory moved on
    if (stored() !== this.known) { this.say(STALE); return null; }
    this.keeping = true;
    this.say('');
    if (this.latest) this.write(this.latest);
    return HELD();
  }

  // The firmware wrote its nvm sector: saved if this tab keeps the memory.
  save(bytes) {
    this.latest = bytes;
    if (this.keeping) this.write(bytes);
  }

  write(bytes) {
    if (stored() !== this.known) { this.keeping = false; this.say(ELSEWHERE); return; }
    let text = '';
    for (const b of bytes) text += String.fromCharCode(b);
    text = btoa(text);
    try {
      localStorage.setItem(STORE, text);
      this.known = text;
    } catch (e) { this.say('not kept: ' + e.name); }
  }
}
