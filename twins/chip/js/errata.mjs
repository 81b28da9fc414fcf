// Where rp2040js 1.4.1 departs from the silicon in ways the firmware meets: the chip
// twin's corrections. CircuitPython's time.sleep arms a timer alarm and waits for an
// interrupt (WFI) with interrupts masked; both are needed for it to wake up (1, 2). Its
// os.urandom, the seed of every deal, reads the ring oscillator's random bit (3). Its deep
// sleep puts the crystal oscillator DORMANT until a pin wakes it (4), and
// microcontroller.cpu.frequency moves the system clock, which the cycles must follow (5).
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

// 4. DORMANT. CircuitPython's deep sleep with pin alarms only (ports/raspberrypi
// common-hal/alarm/__init__.c) enables each pin's dormant wake (IO_BANK0 DORMANT_WAKE_INTE,
// 4 bits a pin: level low, level high, edge low, edge high), moves clk_sys to the crystal,
// stops the PLLs and writes "coma" to XOSC DORMANT: the crystal stops, and with it every
// clock and the core, until a pin's wake event restarts it; the code after the write then
// resets the chip through the watchdog. rp2040js keeps no wake enables (they read
// 0xffffffff) and leaves the crystal unstable for good, so the core spins in xosc_dormant.
// Here the run loop asks dormant.asleep and, while it is, runs no instruction; woken()
// says when a pin's level or edge matches its enables, then the crystal is stable again.
const XOSC_DORMANT = 0x08, COMA = 0x636f6d61;
const WAKE_INTE0 = 0x160, WAKE_INTE3 = 0x16c;

export function dormancy(mcu) {
  const xosc = mcu.peripherals[0x40024], io = mcu.peripherals[0x40014];
  const enables = new Uint8Array(mcu.gpio.length);  // DORMANT_WAKE_INTE, a nibble a pin
  const was = [];  // each pin's level as the crystal stopped, then as last seen
  const state = { asleep: false, at: 0 };
  const xoscWrite = xosc.writeUint32.bind(xosc);
  xosc.writeUint32 = (offset, value) => {
    xoscWrite(offset, value);
    if (offset === XOSC_DORMANT && value >>> 0 === COMA) {
      state.asleep = true;
      state.at = mcu.clock.nanos;
      mcu.gpio.forEach((pin, i) => { was[i] = pin.rawInputValue; });
    }
  };
  const ioRead = io.readUint32.bind(io), ioWrite = io.writeUint32.bind(io);
  io.readUint32 = (offset) => {
    if (offset < WAKE_INTE0 || offset > WAKE_INTE3) return ioRead(offset);
    let word = 0;
    for (let i = 7; i >= 0; i--) word = (word << 4) | (enables[(offset - WAKE_INTE0) * 2 + i] || 0);
    return word >>> 0;
  };
  io.writeUint32 = (offset, value) => {
    if (offset < WAKE_INTE0 || offset > WAKE_INTE3) return ioWrite(offset, value);
    for (let i = 0; i < 8; i++) {
      const pin = (offset - WAKE_INTE0) * 2 + i;
      if (pin < enables.length) enables[pin] = (value >>> (4 * i)) & 15;
    }
  };
  state.woken = () => {
    let wake = false;
    mcu.gpio.forEach((pin, i) => {
      const high = pin.rawInputValue, e = enables[i];
      if ((e & 1 && !high) || (e & 2 && high) || (e & 4 && was[i] && !high)
          || (e & 8 && !was[i] && high)) wake = true;
      was[i] = high;
    });
    if (wake) {
      state.asleep = false;
      xosc.isDormant = false;
      xosc.stable = xosc.enabled;
    }
    return wake;
  };
  return state;
}

// 5. The system clock. rp2040js works out clk_sys from the PLL and CLOCKS registers
// (mcu.clkSys: the I2C's bit times and the PWM follow it) but counts nothing by it: a run
// loop's cycles must. ns per cycle at the clock the firmware set (8 at 125 MHz).
export function cycleNanos(mcu) {
  return 1e9 / mcu.clkSys;
}
