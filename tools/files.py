"""A file written whole or not at all, for the desktop: the virtual handheld's nvm file
(twins/desktop) and the files deploy puts on a CIRCUITPY drive (tools/deploy.py).

Here, not under twins/desktop (whose package imports Blinka and displayio) nor in
tools/ (hardware does not import the desktop programs): the standard library only, so
`make deploy` imports nothing heavy. Not board code (tools/boardcode.py).
"""
import os
import tempfile


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
        fd, temp = tempfile.mkstemp(prefix=name + ".tmp-", dir=folder or ".")
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
        try:
            os.remove(temp)
        except OSError:
            pass
        raise
