"""Which files of the project go onto the board: the one rule, for deploy, the mpy checks
and the tests (stdlib only, so deploy runs with any Python 3).

Board code is every .py under engine/, hardware/ and firmware/ but hardware/contract.py
(the typed hardware contract: it imports typing). What only the desktop uses lives
elsewhere: the twins in twins/, the tools in tools/, the lab in lab/.
"""
import glob
import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BOARD_DIRS = ("engine", "hardware", "firmware")
DESKTOP_ONLY = ("hardware/contract.py",)
# The Adafruit libraries the firmware imports, each a module or a package in lib/.
LIBRARIES = ("adafruit_displayio_ssd1306", "adafruit_display_text", "adafruit_ticks")


def is_board_file(rel):
    """True for a repo-relative path (with '/') of a .py file that goes onto the board."""
    return (rel.endswith(".py") and rel.split("/")[0] in BOARD_DIRS
            and rel not in DESKTOP_ONLY)


def board_files(root=ROOT):
    """The board's .py files under root, repo-relative with '/', sorted by folder."""
    out = []
    for d in BOARD_DIRS:
        for path in sorted(glob.glob(os.path.join(root, d, "**", "*.py"), recursive=True)):
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            if is_board_file(rel):
                out.append(rel)
    return out


VERSION_FILE = "firmware/version.py"
MAX_VERSION = 12  # characters: the self-test's line shows it with CircuitPython's


def _git(root, *args):
    """What a git command prints in root, '' where there is no git or no repository."""
    try:
        p = subprocess.run(["git", "-C", root] + list(args), capture_output=True, text=True,
                           timeout=60)
    except (OSError, subprocess.SubprocessError):
        return ""
    return p.stdout.strip() if p.returncode == 0 else ""


SOURCE_DATE_EPOCH = "SOURCE_DATE_EPOCH"  # a build's fixed time (reproducible builds)
NO_COMMIT_TIME = 1767225600  # 2026-01-01 UTC: the time of a build from no commit


def build_time(root=ROOT):
    """(seconds since 1970, where they come from) that a build's files carry, so that one
    commit builds the same bytes: $SOURCE_DATE_EPOCH when it is set, else the time of the
    commit root is at, else 2026-01-01. ValueError for a SOURCE_DATE_EPOCH that is no
    whole number of seconds."""
    epoch = os.environ.get(SOURCE_DATE_EPOCH)
    if epoch is not None:
        if not (epoch.isascii() and epoch.isdigit()):
            raise ValueError("%s=%r is not a whole number of seconds since 1970"
                             % (SOURCE_DATE_EPOCH, epoch))
        return int(epoch), SOURCE_DATE_EPOCH
    when = _git(root, "log", "-1", "--format=%ct")
    return (int(when), "the commit") if when.isdigit() else (NO_COMMIT_TIME, "no commit")


def version(root=ROOT):
    """The version a build made from root carries: the tag on its commit, else the short
    commit, with '+' when the board's files differ from that commit (git status); 'dev'
    where there is no git or no repository."""
    tag = _git(root, "describe", "--tags", "--exact-match")
    name = tag if tag and len(tag) < MAX_VERSION else _git(root, "rev-parse", "--short=7",
                                                           "HEAD")
    if not name:
        return "dev"
    dirty = _git(root, "status", "--porcelain", "--", *BOARD_DIRS, "settings.toml")
    return name + ("+" if dirty else "")


_IN_NAMES = set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.+_-")


def version_in_name(text):
    """A version as a file name carries it on every system (any other character: '-')."""
    return "".join(c if c in _IN_NAMES else "-" for c in text)


def version_source(text):
    """The board's firmware/version.py saying text."""
    return '"""The version of the firmware on this drive (tools/deploy.py wrote it)."""\n' \
           'VERSION = %r\n' % text
