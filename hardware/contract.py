"""The hardware contract, written once: every name the firmware uses from a hardware target.

A target (hardware/pico.py on the board, the desktop's virtual handheld) is a module or an
object whose init() returns something with these names. This file is for mypy and for
readers only: it imports `typing`, so it never goes onto the board; board code imports
these types inside `if False:` blocks, which mypy reads and the compiler drops.
"""
from typing import Any, Callable, Protocol

import displayio


class Display(Protocol):
    """The SSD1306 (adafruit_displayio_ssd1306.SSD1306, a busdisplay.BusDisplay) as used."""

    root_group: displayio.Group
    rotation: int
    brightness: float

    def refresh(self, *, target_frames_per_second: int | None = None,
                minimum_frames_per_second: int = 0) -> bool: ...

    def sleep(self) -> None: ...

    def wake(self) -> None: ...


class KeyEvent(Protocol):
    """A key event (keypad.Event) as read."""

    @property
    def key_number(self) -> int: ...

    @property
    def pressed(self) -> bool: ...

    @property
    def timestamp(self) -> int: ...


class KeyEvents(Protocol):
    """The scanner's event queue (keypad.EventQueue) as used."""

    def get_into(self, event: Any) -> bool:
        """Move the oldest event into event (one made by Target.Event); False if none."""
        ...

    @property
    def overflowed(self) -> bool: ...

    def clear(self) -> None: ...


class KeyScanner(Protocol):
    """The background key scanner (keypad.Keys) as used."""

    @property
    def events(self) -> KeyEvents: ...

    def reset(self) -> None:
        """Take every key as released: keys held now are reported pressed again."""
        ...


class Buzzer(Protocol):
    """A piezo: tone(hz) plays until tone(0)."""

    def tone(self, hz: int) -> None: ...


class Target(Protocol):
    """What firmware/app.py, match.py and selftest.py may use of a hardware target. (The
    objects are read-only properties here: a target may hold a subtype of each.)"""

    @property
    def display(self) -> Display:
        """The SSD1306, auto_refresh off."""
        ...

    @property
    def keys(self) -> KeyScanner:
        """The key scanner: keys.events.get_into(event) yields timestamped key events."""
        ...

    @property
    def scanners(self) -> "tuple[tuple[KeyScanner, int], ...]":
        """Every key scanner with the key number its key 0 has: (keys, 0), and on the matrix
        build (menu_keys, the matrix's key count). The app reads its events through these."""
        ...

    @property
    def menu_keys(self) -> KeyScanner | None:
        """The matrix build's MENU, on a pin and a scanner of its own (its key 0 is the
        keymap's last key); None on the direct build, where MENU is in keys."""
        ...

    @property
    def keymap(self) -> bytes:
        """Key number -> role (hardware/keymap.py)."""
        ...

    @property
    def Event(self) -> Callable[[], KeyEvent]:
        """Makes the one reused event (keypad.Event)."""
        ...

    @property
    def buzzer(self) -> Buzzer:
        """The piezo."""
        ...

    @property
    def nvm(self) -> Any:
        """Bytes that survive power-off: microcontroller.nvm (len, slices read and written)."""
        ...

    @property
    def info(self) -> dict:
        """The checked settings.toml values, by key."""
        ...

    def ticks_ms(self) -> int:
        """Milliseconds on the board's clock, wrapping at 2**29 (keypad's timestamps)."""
        ...

    def idle(self, ms: int) -> None:
        """End of a main-loop pass: sleep ms while the keys are scanned in the background."""
        ...

    def feed(self) -> None:
        """Feed the watchdog (every main-loop pass)."""
        ...

    def console(self, text: str) -> None:
        """A line on the serial console."""
        ...

    def print_exception(self, error: BaseException) -> None:
        """The traceback on the serial console."""
        ...

    def restart(self) -> None:
        """Start the app again after the error screen."""
        ...

    @property
    def sleep_memory(self) -> Any:
        """Bytes that survive restart() (alarm.sleep_memory on the board: 256 on an RP2040,
        kept over a reload, lost at power-off): where the error screen's note waits."""
        ...

    def stop_requested(self) -> bool:
        """True when the main loop should end (never on the board)."""
        ...

    def deep_sleep(self) -> bool:
        """Sleep until MENU is pressed; False (with the board running normally) if it cannot."""
        ...

    def random_seed(self) -> int:
        """A fresh match seed, 0 <= seed < 2**30."""
        ...

    def cells(self) -> int:
        """The cells' charge left in % (0-100), or -1 on USB power or with no reading;
        read anew every few seconds at most (lab/battery.py's GAUGE)."""
        ...


class TargetModule(Protocol):
    """A hardware target as code.py passes it to firmware.runner.run()."""

    def init(self, **options: Any) -> Target:
        """Build the hardware objects (nothing heavy happens at import)."""
        ...

    def restart(self) -> None:
        """After init() failed: start afresh (the board reloads code.py; the desktop lets
        init() be called again)."""
        ...


class Screen(Protocol):
    """What firmware/app.py shows: the match, its result, the menus, the self-test and HOW
    TO PLAY. Each does its own start and end; key() and advance() return an action
    (firmware/__init__.py's _A_...) for the app to carry out. On a menu page (the menus,
    HOW TO PLAY: the menus' group) a press clicks and turns the page to the presser."""

    group: displayio.Group  # what the glass shows while it is open
    on_sleep: int  # the action when the screen goes off for sleep (-1: it stays on)
    rest_ms: int  # after advance(): ms till it has work again (-1: advance every pass)

    def enter(self, app: "Shell") -> None:
        """It is now the screen on show (the app's show() puts its group on the glass)."""
        ...

    def leave(self, app: "Shell") -> None:
        """Another screen is opening (app.screen is it already): let go of what it holds."""
        ...

    def key(self, m: Any, t: int) -> int:
        ...

    def advance(self, now: int) -> int:
        ...


class Shell(Protocol):
    """What a screen may use of the app (firmware/app.py's App): in its enter() and leave(),
    and in the open() of a screen that borrows the play screen's room. The firmware's own
    objects are Any here (hardware/ knows nothing of the firmware); the list is the point.
    (Read-only properties: the app may hold a subtype of each.)"""

    @property
    def hw(self) -> Target: ...

    @property
    def display(self) -> Display: ...

    @property
    def screen(self) -> Screen:
        """The screen on show (a screen that leaves sees the one that comes)."""
        ...

    @property
    def table(self) -> Any:
        """The play screen (firmware/table.py): its background is lent, its cells come back."""
        ...

    @property
    def kit(self) -> Any:
        """The glyph sheets (firmware/ui.py), which every screen draws with."""
        ...

    @property
    def filter(self) -> Any:
        """The key filter (firmware/keyfilter.py): the self-test reads the keys down."""
        ...

    @property
    def sound(self) -> Any: ...

    @property
    def settings(self) -> Any:
        """The settings (firmware/settings.py): HOW TO PLAY speaks their language."""
        ...

    @property
    def menus(self) -> Any:
        """The menu pages (firmware/menus.py): HOW TO PLAY draws on their page."""
        ...

    def show(self, screen: Screen, player: int) -> None:
        """Put a screen's group on the glass, facing a player (-1: as it faces)."""
        ...
