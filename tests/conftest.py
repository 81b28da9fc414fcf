"""Puts the project root on sys.path so tests import engine/, hardware/, firmware/, tools/,
twins/ and lab/, and the tests' own helpers: tests/engine/enginetest.py (stacked decks) and
tests/twins/desktop/handheld.py (the virtual handheld driven as a player would) and
tests/places.py (a full disk, a read-only folder, a pipe: places a command cannot use)."""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _path in (os.path.join(ROOT, "tests", "twins", "desktop"),
              os.path.join(ROOT, "tests", "engine"), ROOT):
    if _path not in sys.path:
        sys.path.insert(0, _path)
if os.path.join(ROOT, "tests") not in sys.path:  # last: its folders never hide a package
    sys.path.append(os.path.join(ROOT, "tests"))


def pytest_terminal_summary(terminalreporter):
    """Skipped tests are counted, with their reason, in one line per reason: never a pass."""
    reasons = {}
    for rep in terminalreporter.stats.get("skipped", []):
        reason = rep.longrepr[2] if isinstance(rep.longrepr, tuple) else str(rep.longrepr)
        reason = reason[len("Skipped: "):] if reason.startswith("Skipped: ") else reason
        reasons[reason] = reasons.get(reason, 0) + 1
    for reason, n in sorted(reasons.items()):
        terminalreporter.write_line("SKIPPED %d test%s: %s" % (n, "" if n == 1 else "s", reason),
                                    yellow=True)
