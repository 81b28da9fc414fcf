// Where rp2040js 1.4.1 departs from the silicon in ways a sleeping firmware meets: the
// chip twin's corrections. CircuitPython's time.sleep arms a timer alarm and waits for an
// interrupt (WFI) with interrupts masked; both are needed for it to wake up.
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
