// Where rp2040js 1.4.1 departs from the silicon in ways the firmware meets: the chip
// twin's corrections. CircuitPython's time.sleep arms a timer alarm and waits for an
// interrupt (WFI) with interrupts masked; both are needed for it to wake up (1, 2). Its
// os.urandom, the seed of every deal, reads the ring oscillator's random bit (3).
//
// 1. The timer's alarms.
// rp2040js 1.4.1 schedules an alarm (value - now in µs, with now's fraction) >>> 0 µs
// ahead: when the firmware arms an alarm for the microsecond the timer is in (CircuitPython
// does, sleeping for less than a tick's rest), the fraction makes that negative and it
// wraps to 2^32 µs, 71 minutes: the core waits for an interrupt that never comes. The
// silicon compares the alarm with TIMELR as it counts: an alarm for the present
// microsecond fires at once, one for the next at its start, one already past only when
// the 32-bit count comes round again (the SDK catches that case itself).
const ALARM0 = 0x10, ALARM3 = 0x1c;

export function fixTimerAlarms(mcu) {
  const timer = mcu.peripherals[0x40054];  // TIMER_BASE
  const write = timer.writeUint32.bind(timer);
  timer.writeUint32 = (offset, value) => {
    if (offset < ALARM0 || offset > ALARM3) return write(offset, value);
    const alarm = timer.alarms[(offset - ALARM0) >> 2];
    const nanos = mcu.clock.nanos;
    const micros = ((value >>> 0) - Math.floor(nanos / 1000)) >>> 0;
    alarm.armed = true;
    alarm.targetMicros = value >>> 0;
    alarm.clockAlarm.schedule(Math.max(0, micros * 1000 - (nanos % 1000)));
  };
}

// 2. WFI with an interrupt already pending. CircuitPython masks interrupts (PRIMASK),
// checks for work, then waits: an interrupt that came in between is pending when WFI
// runs, and the silicon's WFI then returns at once. rp2040js wakes the core only when an
// interrupt becomes pending while it waits, so it would wait for good. The run loop asks
// this before it lets time jump to the next alarm.
export function pendingWakes(core) {
  return (core.pendingInterrupts & core.enabledInterrupts) !== 0;
}

// 3. The ring oscillator's random bit. rp2040js leaves the ROSC unimplemented: RANDOMBIT
// reads 1 every time, so CircuitPython's os.urandom (SHA-256 over ROSC bits) gives the
// same bytes on every boot and every board deals the same first match. The silicon's bit
// is the ring's jitter against the system clock; here each read takes the next bit of a
// stream: from seed (a 32-bit number: the same stream on every run) or, with no seed,
// from the platform's crypto.getRandomValues (the browser's; node 20 has it too).
const RANDOMBIT = 0x1c;

export function ringOscillator(mcu, seed = null) {
  const rosc = mcu.peripherals[0x40060];  // ROSC_BASE
  const read = rosc.readUint32.bind(rosc);
  const words = new Uint32Array(64);
  let state = seed >>> 0, word = words.length, bit = 32;
  function refill() {
    if (seed === null) { globalThis.crypto.getRandomValues(words); return; }
    for (let i = 0; i < words.length; i++) {  // mulberry32
      state = (state + 0x6d2b79f5) >>> 0;
      let t = Math.imul(state ^ (state >>> 15), state | 1);
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
      words[i] = (t ^ (t >>> 14)) >>> 0;
    }
  }
  rosc.readUint32 = (offset) => {
    if (offset !== RANDOMBIT) return read(offset);
    if (bit === 32) {
      bit = 0;
      if (++word >= words.length) { refill(); word = 0; }
    }
    return (words[word] >>> bit++) & 1;
  };
}
