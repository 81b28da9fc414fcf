"""Files in and out, one way for every command: an input is a regular file read up to a size
that fits its kind, an output is written whole or not at all, and a problem with either is
one line that names the file.

The standard library only, so every command (make deploy, and make pcb in Debian's own
Python) imports it cheaply. Not board code (tools/boardcode.py).
"""
import contextlib
import errno
import json
import os
import re
import stat
import sys
import tempfile

# The largest input of each kind, in bytes: far beyond any real one, well below what could
# fill the memory. A key script is about 12 bytes a press, a megabyte several hours of play.
LIMITS = {
    "script": 1 << 20,
    "placement": 1 << 20,   # hardware/pcb/placement.json is about 12 KB
    "nets": 1 << 20,        # hardware/pcb/nets.json is about 3 KB
    "manifest": 4 << 20,    # a deploy manifest: a line per file on the drive
    "settings": 64 << 10,   # settings.toml: CIRCUITPY's is about 5 KB
    "uf2": 64 << 20,        # a 16 MB board's whole flash is 32 MB of UF2
    "text": 4 << 20,        # a document read to be served or rendered
    "board": 32 << 20,      # a .kicad_pcb: the handheld's is about 1 MB
    "rom": 1 << 20,         # the RP2040's boot ROM is 16 KB
    "page": 64 << 20,       # a file of the web page (its UF2s are about 2 MB each)
}
JSON_DEPTH = 32  # the deepest nesting a JSON input may have (ours have 4 levels at most)


class FileProblem(Exception):
    """An input or output that cannot be used; its message is one line naming the file."""


def input_problem(path):
    """'' when path is a regular file this program may read, else one line saying what it is
    instead: an empty name, nothing there, a folder, a device or a pipe (read once, it could
    not be read again), or a file it has no permission to read. It opens nothing, so a
    pipe or a device is never read, and a caller can check every input before any work."""
    if not path:
        return "an empty file name"
    try:
        st = os.stat(path)
    except OSError as e:
        if e.errno == errno.ENOENT and not os.path.lexists(path):
            return "%s: no such file" % path
        return "%s: cannot read it (%s)" % (path, _why(e))
    if stat.S_ISDIR(st.st_mode):
        return "%s is a folder: give a file in it" % path
    if not stat.S_ISREG(st.st_mode):
        return "%s is not a file (a device or a pipe): give a file saved on disk" % path
    if not os.access(path, os.R_OK):
        return "%s: cannot read it (no permission)" % path
    return ""


def read_bytes(path, kind):
    """The bytes of the input file path, a LIMITS kind; FileProblem in one line when it is
    not a regular file, cannot be read or is larger than its kind may be. The file is opened
    without blocking and checked again once open, so a pipe put in its place is never read."""
    problem = input_problem(path)
    if problem:
        raise FileProblem(problem)
    limit = LIMITS[kind]
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOCTTY", 0))
    except OSError as e:
        raise FileProblem("%s: cannot read it (%s)" % (path, _why(e)))
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise FileProblem("%s is not a file (a device or a pipe): give a file saved on "
                              "disk" % path)
        chunks, size = [], 0
        while size <= limit:
            chunk = os.read(fd, min(1 << 20, limit + 1 - size))
            if not chunk:
                break
            chunks.append(chunk)
            size += len(chunk)
    except OSError as e:
        raise FileProblem("%s: cannot read it (%s)" % (path, _why(e)))
    finally:
        os.close(fd)
    if size > limit:
        raise FileProblem("%s is larger than a %s may be (%s): is it the right file?"
                          % (path, kind, _size(limit)))
    return b"".join(chunks)


def decode(data, path):
    """UTF-8 text of a file's bytes (a byte-order mark dropped); FileProblem naming the
    line of the first byte that is not UTF-8."""
    if data.startswith(b"\xef\xbb\xbf"):  # as some editors save
        data = data[3:]
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise FileProblem("%s line %d: not text (byte 0x%02x is not UTF-8)"
                          % (path, line, data[e.start]))


def read_text(path, kind="text"):
    """The text of an input file (read_bytes, then decode); FileProblem in one line."""
    return decode(read_bytes(path, kind), path)


def parse_json(text, path):
    """A JSON document from text read from path; FileProblem naming the file, the line and
    the column of the first error, or the line where it nests deeper than JSON_DEPTH."""
    level = 0
    for m in re.finditer(r'"(?:[^"\\]|\\.)*"?|[\[\]{}]', text):
        ch = m.group()
        if ch in "[{":
            level += 1
            if level > JSON_DEPTH:
                line = text.count("\n", 0, m.start()) + 1
                raise FileProblem("%s line %d: nested more than %d deep (not the file it "
                                  "should be?)" % (path, line, JSON_DEPTH))
        elif ch in "]}":
            level -= 1
    try:
        return json.loads(text)
    except json.JSONDecodeError as e:
        raise FileProblem("%s line %d column %d: not JSON (%s)" % (path, e.lineno, e.colno,
                                                                    e.msg))
    except (ValueError, RecursionError) as e:  # a number too long to read, say
        raise FileProblem("%s: not JSON (%s)" % (path, str(e)[:80]))


def read_json(path, kind):
    """The JSON document in an input file of a LIMITS kind; FileProblem in one line."""
    return parse_json(read_text(path, kind), path)


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
    if os.path.lexists(path):
        if not os.path.isfile(path):
            return "%s is not a file (a device, a pipe or a broken link): give a file name" \
                % path
        if not os.access(path, os.W_OK):
            return "%s: cannot write it (no permission)" % path
    return folder_problem(os.path.dirname(os.path.abspath(path)), path)


def folder_problem(folder, what=None, make=False):
    """'' when files can be made in folder, else one line saying why not (it does not
    exist, is not a folder, or is read-only). make: a folder that does not exist is
    fine if its nearest existing parent can take it (the program will make it)."""
    what = folder if what is None else what
    if not folder:
        return "an empty folder name"
    where = os.path.abspath(folder)
    if make:
        while not os.path.lexists(where) and os.path.dirname(where) != where:
            where = os.path.dirname(where)
    if not os.path.exists(where):
        return "%s: the folder %s does not exist" % (what, where)
    if not os.path.isdir(where):
        return "%s: %s is not a folder" % (what, where)
    if not os.access(where, os.W_OK | os.X_OK) or _read_only(where):
        return "%s: cannot write a file in %s (no permission, or read-only)" % (what, where)
    return ""


def _read_only(folder):
    """Whether folder is on a file system mounted read-only (which root's access() misses)."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        return False


def _write(f, data):
    f.write(data)


def write_atomic(path, data, *, temp=None, mode=None, write=_write):
    """Write data to path under a temporary name beside it (`temp`, or a fresh name made
    from path's), flushed to the disk, then renamed over path: a kill at any moment
    leaves path's old contents or the new. On failure the temporary file is removed and
    the error raised. mode: the new file's permission bits (default: as it is created);
    write(f, data) puts the bytes into the open file (callers' tests make it fail)."""
    fd = None
    if temp is None:
        folder, name = os.path.split(path)
        fd, temp = tempfile.mkstemp(prefix="." + name + ".tmp-", dir=folder or ".")
    try:
        with open(temp, "wb") if fd is None else os.fdopen(fd, "wb") as f:
            fd = None  # (the file object closes it)
            write(f, data)
            f.flush()
            if mode is not None:
                os.fchmod(f.fileno(), mode)
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        if fd is not None:
            os.close(fd)
        _remove(temp)
        raise


@contextlib.contextmanager
def replacing(path, mode=0o644):
    """For a library that writes a file by its name (an STL, a PNG, a report): yields a
    temporary name beside path to write; when the block ends without an error the file is
    flushed to the disk and renamed over path, else it is removed and path left as it was.
    An empty file written there is an error (OSError), never kept."""
    folder, name = os.path.split(os.path.abspath(path))
    fd, temp = tempfile.mkstemp(prefix="." + name + ".tmp-", dir=folder,
                                suffix=os.path.splitext(name)[1])
    os.close(fd)
    try:
        yield temp
        with open(temp, "rb+") as f:
            if not os.fstat(f.fileno()).st_size:
                raise OSError(errno.EIO, "nothing was written")
            os.fchmod(f.fileno(), mode & ~_umask())
            os.fsync(f.fileno())
        os.replace(temp, path)
    except BaseException:
        _remove(temp)
        raise


def write_or_fail(path, data, prog):
    """write_atomic, or stop with one line saying what could not be written and why (as
    tools/cli.py fail() does: that module reads files through this one)."""
    try:
        write_atomic(path, data, mode=0o644 & ~_umask())
    except OSError as e:
        print("%s: error: %s" % (prog, cannot_write(path, e)), file=sys.stderr)
        sys.exit(2)


def cannot_write(path, error):
    """One line for an OSError met writing path: 'cannot write PATH: the disk is full'."""
    return "cannot write %s: %s" % (path, _why(error))


_WHY = {
    errno.ENOSPC: "the disk is full",
    errno.EDQUOT: "the disk quota is used up",
    errno.EROFS: "it is on a read-only disk",
    errno.EACCES: "no permission",
    errno.EPERM: "no permission",
    errno.EFBIG: "the file is larger than this process may write",
    errno.ENOENT: "no such file or folder",
    errno.ELOOP: "a link that leads round in a circle",
    errno.EISDIR: "it is a folder",
    errno.ENOTDIR: "a part of its path is not a folder",
}


def _why(error):
    """A few words for an OSError: ours for the common ones, else the system's."""
    return _WHY.get(error.errno) or (error.strerror or str(error)).lower()


def _size(n):
    return "%d MB" % (n >> 20) if n >= 1 << 20 else "%d KB" % (n >> 10)


def _umask():
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _remove(path):
    try:
        os.remove(path)
    except OSError:
        pass
