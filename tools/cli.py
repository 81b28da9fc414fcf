"""Command lines that fail in words: a bad argument or input is one line that names it
(and the line of a file it is on), then exit status 2; never a traceback."""
import argparse
import contextlib
import sys

from tools import files


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


def read_text(path, kind="text"):
    """A text file's contents, or (None, one line saying why not: not a regular file, too
    large for its kind, or the line number of a byte that is not UTF-8). tools/files.py."""
    try:
        return files.read_text(path, kind), ""
    except files.FileProblem as e:
        return None, str(e)


def output_file(text):
    """An argparse type: a path output_problem() finds nothing wrong with, else the error
    ('argument --png: <why>')."""
    problem = files.output_problem(text)
    if problem:
        raise argparse.ArgumentTypeError(problem)
    return text


@contextlib.contextmanager
def ctrl_c(prog, left="nothing was left half-written"):
    """Ctrl-C in the block ends the program with one line, '<prog>: stopped (Ctrl-C);
    <left>', and exit status 130 (the shell's for SIGINT), not a traceback."""
    try:
        yield
    except KeyboardInterrupt:
        print("%s: stopped (Ctrl-C); %s" % (prog, left), file=sys.stderr)
        sys.exit(130)
