"""At boot: the settings and statistics from the nvm log, their tallies' entries counted
in. Imported by the app while it starts and let go after, with the log's reader
(firmware/storeload.py), so that neither is in the heap during play."""
from firmware import settings as settings_mod, stats as stats_mod
from firmware.settings import SETTINGS_KIND
from firmware.stats import STATS_KIND, LIMIT

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from collections.abc import Callable

    from firmware.store import Log
    from firmware.settings import Settings
    from firmware.stats import Stats


clamped = []  # type: list[str]  # the settings decode_settings found out of range


def restore(log: "Log", settings: "Settings", stats: "Stats",
            console: "Callable[[str], None]") -> None:
    """Load settings and stats from the nvm's log; say on the console what was wrong."""
    clamped.clear()
    _kind(log, SETTINGS_KIND, "settings", settings, decode_settings, _setting, console)
    _kind(log, STATS_KIND, "statistics", stats, decode_stats, _game, console)
    for key in clamped:
        console("settings: saved %s is out of range; using its default" % key)
    # A saved PILES this build cannot press (6, read on the direct build): its default.
    i = settings_mod.KEYS.index("piles")
    if settings.index[i] >= len(settings.piles):
        console('settings: PILES %d needs the matrix build (CS_KEYS = "matrix"); '
                      "playing %d" % (settings.value("piles"), settings.piles[0]))
        settings.index[i] = 0


def _kind(log: "Log", kind: int, what: str, saved: "Settings | Stats",
          decode: "Callable[..., bool]", apply: "Callable[..., None]",
          console: "Callable[[str], None]") -> None:
    payload = log.get(kind)
    if kind in log.orphans:
        console("%s: the newest saved record cannot be read; %s" % (
            what, "using defaults" if payload is None else "using an older one"))
    if payload is None:
        return
    if not decode(saved, payload):
        console("%s: the saved record is not understood; using defaults" % what)
        return
    for e in log.entries(kind):  # entries count only with their base
        apply(saved, e)
    if log.lost:
        console("%s: %d saved changes could not be read" % (what, log.lost))
    saved.mark()


def decode_settings(settings: "Settings", payload: bytes) -> bool:
    """Load a SETTINGS record; an unknown version leaves the defaults (False), a bad index
    takes its default and is listed in clamped."""
    fields = settings_mod.FIELDS
    settings.reset()
    if not payload or payload[0] != settings_mod.RECORD_VERSION:
        return False
    for i in range(min(len(fields), len(payload) - 1)):
        v = payload[1 + i]
        _key, choices, _default = fields[i]
        if v < len(choices):
            settings.index[i] = v
            settings.language_chosen |= i == settings_mod.LANGUAGE
        elif v != settings_mod.PRESET or i != settings_mod.LANGUAGE:
            clamped.append(settings_mod.KEYS[i])
    return True


def decode_stats(stats: "Stats", payload: bytes) -> bool:
    """Load a STATS record; a short or out-of-range one leaves the defaults (False)."""
    fields = stats_mod.FIELDS
    stats.reset()
    if not payload or len(payload) < 4 * len(fields):
        return False
    values = [(payload[i] << 24) | (payload[i + 1] << 16) | (payload[i + 2] << 8)
              | payload[i + 3] for i in range(0, 4 * len(fields), 4)]
    if max(values) > LIMIT:
        return False
    for name, v in zip(fields, values):
        setattr(stats, name, v)
    if stats.streak_seat > 2:
        stats.streak_seat, stats.streak = 2, 0
    stats.mark()
    return True


def _setting(settings: "Settings", e: bytes) -> None:
    """A saved change (Settings.changes()); one out of range is passed over."""
    fields = settings_mod.FIELDS
    i, v = e[0], e[1]  # (setting number, index of its choice)
    if i < len(fields):
        _key, choices, _default = fields[i]
        if v < len(choices):
            settings.index[i] = v
            settings.language_chosen |= i == settings_mod.LANGUAGE


def _game(stats: "Stats", e: bytes) -> None:
    """A saved game (Stats.entry()); one with no valid result is passed over."""
    if e[0] >> 6 < 3:
        c = (e[0] & 31) << 1 | e[1] >> 7
        s = c * (e[1] & 127) * 100
        if stats.cover_ms + s < LIMIT:
            stats.covers += c
            stats.cover_ms += s
        stats.count(e[0] >> 6)
        if e[0] & 32:
            stats.match()
