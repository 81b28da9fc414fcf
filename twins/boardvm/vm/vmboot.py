"""Power on the virtual board in CircuitPython's VM and run code.py once, as the supervisor does.

    cd CIRCUITPY && circuitpython32 -X heapsize=90K vmboot.py OPTIONS_FILE

run in the CIRCUITPY tree, with OPTIONS_FILE's lines
    state=FILE out=DIR [script=FILE] [stop_at=MS] [pass_ms=3] [display=1|0] [seed=N]
    [probe=1] [settings=FILE]
(a file, not the command line: the VM keeps each word of its command line in the heap as
an interned name, names the board does not have; see vmbench.names()).

MICROPYPATH must put the bench folder first (twins/boardvm/boardvm.bench_dir: the
stand-ins for the board's C modules, the chips' models, this script), then the CIRCUITPY
tree and its lib/. One process is one run of code.py with a fresh heap, as
on the board: a reload, a reset, a power cycle or a deep sleep ends it, and the bench's
state (clock, flash, buttons, counters, where the script is) goes to the state file for
the next process (twins/boardvm/boardvm.py starts them). settings= reads os.getenv's values from
FILE instead of the tree's settings.toml (the matrix build: CS_KEYS = "matrix").
Everything worth reporting is printed as `BENCH <name> <value>` lines; shots and a copy of
the nvm after each write go to out.
"""
import gc
import sys

import vmbench as bench


def measure(label):  # (the heap: a name the firmware has, where _heap would be one more)
    gc.collect()
    print("BENCH heap %s %d" % (label, gc.mem_alloc()))


def main():
    args = {}
    with open(sys.argv[1]) as f:
        for line in f:
            k, v = line.rstrip("\n").split("=", 1)
            args[k] = v
    bench.pass_ms = int(args.get("pass_ms", "3"))
    bench.powered_display = args.get("display", "1") == "1"
    bench.settings_path = args.get("settings", "settings.toml")
    bench._rng = int(args.get("seed", "1"))
    why = bench.load_state(args["state"])
    if "script" in args:
        bench.open_script(args["script"], int(args.get("stop_at", "-1")))
    bench.out_dir = args["out"]
    with open("code.py") as f:
        code = f.read()
    import alarm
    # The board's C modules cost it no heap: load them before counting (not fontio,
    # terminalio, bitmaptools: only the error screen imports them, and their names, loaded
    # at boot, would move the qstr pools). The VM compiles this file, interning each of
    # its names: so a literal here, not a global.
    for name in ("board", "busio", "busdisplay", "displayio", "i2cdisplaybus", "keypad",
                 "microcontroller", "nvm", "os", "pwmio", "supervisor", "traceback",
                 "watchdog", "alarm", "alarm.pin", "time", "analogio", "digitalio"):
        __import__(name)
    if bench.setting("CS_KEYS") == "matrix":  # and keypad.KeyMatrix's (C on the board) on the
        import KeyMatrix  # noqa: F401  # build that scans one; keypad.py loads it elsewhere
    if why == "deep sleep wake":
        bench.note("woken by the pin alarm")
        woke = object.__new__(alarm.pin.PinAlarm)  # the RP2040 does not record the pin
        woke._pin, woke._value = None, False
        alarm.wake_alarm = woke
    bench.power_on(why != "supervisor.reload()")
    measure("boot" if bench.boots == 1 else "reboot")
    if args.get("probe") == "1" and bench.boots == 1:
        import hardware.pico  # noqa: F401
        import firmware.app  # noqa: F401
        measure("after_import")
    try:
        exec(code, {"__name__": "__main__"})
        why = "code.py ended"
    except bench.Stop as e:
        bench.note("stop: %s" % e.args[0])
        why = "stop"
    except bench.Reset as e:
        why = e.args[0]
    except Exception as e:  # code.py died: the board prints it and waits
        bench.exceptions.append(repr(e))
        bench.note("code.py died: %r" % (e,))
        why = "code.py died"
    if why == "deep sleep":
        alarms = bench.sleep_alarms
        bench.wd_mode = 0  # the supervisor stops the watchdog before it sleeps
        bench.note("deep sleep until %s" % " or ".join(
            "GP%d reads %d" % (a.pin._number, a.value) for a in alarms))
        why = "deep sleep wake" if bench.sleep_until_pin(alarms) else "stop"
    elif why in ("code.py died", "code.py ended"):
        if bench.wd_mode:  # a running watchdog resets the board
            bench.wall = bench.wd_fed_wall + bench.wd_timeout_ms + 1
            bench.note("reset: watchdog after %s" % why)
            why = "watchdog"
        else:
            bench.note("stop: the board waits at the REPL")
            why = "stop"
    bench.names("ended")
    bench.save_state(args["state"], why)
    for e in bench.exceptions:
        print("BENCH exception %s" % e)
    print("BENCH next %s" % why)


main()
