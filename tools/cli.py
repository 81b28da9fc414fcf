"""Command lines that fail in words: a bad argument or input is one line that names it
(and the line of a file it is on), then exit status 2; never a traceback."""
import argparse
import os
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
    if data.startswith(b"\xef\xbb\xbf"):  # a UTF-8 byte-order mark, as some editors save
        data = data[3:]
    try:
        return data.decode("utf-8"), ""
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        return None, "%s line %d: not text (byte 0x%02x is not UTF-8)" % (path, line,
                                                                          data[e.start])


def output_problem(path):
    """'' when a program may write the file path (a new file, or an existing regular file it
    will replace), else one line saying why not: an empty name, a folder, a device or a
    pipe, a folder that does not exist or is not a folder, or no permission to write the
    file or to make one in its folder. It looks and writes nothing, so a caller can check
    every output before any work and stop in words (make sim --out checks its folder)."""
    if not path:
        return "an empty file name"
    if os.path.isdir(path):
        return "%s is a folder: give a file name" % path
    if path.endswith(("/", os.sep)):
        return "%s ends in a folder separator: give a file name" % path
    if os.path.exists(path):
        if not os.path.isfile(path):
            return "%s is not a file (a device or a pipe): give a file name" % path
        if not os.access(path, os.W_OK):
            return "%s: cannot write it (no permission)" % path
        return ""
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.exists(folder):
        return "%s: the folder %s does not exist" % (path, folder)
    if not os.path.isdir(folder):
        return "%s: %s is not a folder" % (path, folder)
    if not os.access(folder, os.W_OK | os.X_OK):
        return "%s: cannot write a file in %s (no permission, or read-only)" % (path, folder)
    return ""


def input_problem(path):
    """'' when path is a regular file this program may read, else one line saying what it is
    instead: an empty name, nothing there, a folder, a device or a pipe (read once, it could
    not be read again), or a file it has no permission to read. It opens nothing, so a
    pipe or a device is never read, and a caller can check every input before any work."""
    if not path:
        return "an empty file name"
    if not os.path.exists(path):
        return "%s: no such file" % path
    if os.path.isdir(path):
        return "%s is a folder: give a file in it" % path
    if not os.path.isfile(path):
        return "%s is not a file (a device or a pipe): give a file saved on disk" % path
    if not os.access(path, os.R_OK):
        return "%s: cannot read it (no permission)" % path
    return ""


def output_file(text):
    """An argparse type: a path output_problem() finds nothing wrong with, else the error
    ('argument --png: <why>')."""
    problem = output_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text
