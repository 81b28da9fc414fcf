"""Command lines that fail in words: a bad argument or input is one line that names it
(and the line of a file it is on), then exit status 2; never a traceback."""
import argparse
import sys


class Parser(argparse.ArgumentParser):
    """argparse, but an error is one line: '<prog>: error: <what> (see --help)'."""

    def error(self, message):
        self.exit(2, "%s: error: %s (see --help)\n" % (self.prog, message))


def bounded(low, high, unit=""):
    """An argparse type: a whole number from low to high."""
    def parse(text):
        try:
            value = int(text, 0)
        except ValueError:
            raise argparse.ArgumentTypeError("%r is not a whole number" % text)
        if not low <= value <= high:
            raise argparse.ArgumentTypeError("must be %d..%d%s, not %d" % (low, high, unit,
                                                                          value))
        return value
    return parse


def fail(prog, message):
    """Stop with one line and exit status 2."""
    print("%s: error: %s" % (prog, message), file=sys.stderr)
    sys.exit(2)


def read_text(path):
    """A text file's contents, or (None, one line saying why not, with the line number of a
    byte that is not UTF-8)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as e:
        return None, "cannot read %s: %s" % (path, e.strerror or e)
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        return None, "%s line %d: not text (byte 0x%02x is not UTF-8)" % (path, line,
                                                                          data[e.start])
