"""The CIRCUITPY drive exactly as `make deploy` writes it onto a real board, in a folder:
what `make uf2` packs into its image, `make bundle` zips, and the twins boot.

code.py, settings.toml, the board code as CircuitPython .mpy (or .py), the three Adafruit
libraries in lib/ compiled from the pinned packages (as .py source where there is no
CircuitPython mpy-cross), firmware/version.mpy saying the build's version, and deploy's
manifest, so that a later `make deploy` knows its own
files. Nothing of the twins' scaffolding: no boot_out.txt (CircuitPython writes its own
at boot) and no library bundle beside it.
"""
import contextlib
import io
import json
import os
import tempfile

FIXED_VERSION = "dev"  # what goldens and the twins' comparisons are made with


# What a drive of .py source costs, said where no mpy-cross is found: the smallest heap the
# soak plays in on CircuitPython's own VM, less the bench's share (docs/BENCH.md: 89 KB from
# .mpy, 121 KB with the board code as .py; more with the libraries as .py too, as here).
SOURCE_COST = ("the drive carries .py source, which the Pico compiles in its RAM at import: "
               "the game then plays in over 120 KB of the Pico's 186 KB free, against 89 KB "
               "from .mpy")


class DriveError(Exception):
    """The drive could not be written; the message says why."""


def settings_toml(tree, settings):
    """Replace (or add) settings.toml values in a written drive: {key: value}. A value
    replaces the key's line where it stands, under the comment that explains it; a key the
    file lacks is added at the end."""
    path = os.path.join(tree, "settings.toml")
    lines, done = [], set()
    with open(path) as f:
        for ln in f.read().splitlines():
            key = ln.split("=", 1)[0].strip()
            if key in settings:
                if key not in done:
                    lines.append("%s = %s" % (key, json.dumps(settings[key])))
                done.add(key)
            else:
                lines.append(ln)
    lines += ["%s = %s" % (key, json.dumps(value)) for key, value in settings.items()
              if key not in done]
    with open(path, "w") as f:
        f.write("\n".join(lines) + "\n")


def write(dest, *, version=None, use_mpy=True, settings=None, change=None, stamp=None,
          root=None, mpy_cross=None):
    """Write the drive into the folder dest (made; it must be new or empty) and return it.

    version: what the firmware says it is (default: from git, tools/boardcode.version);
    use_mpy: the packages as .mpy, compiled by CircuitPython's mpy-cross (else .py, and the
    libraries too when no mpy-cross is found); mpy_cross: its path (default: as
    tools/toolchain.py finds it); settings: settings.toml values to replace; change:
    change(dest) after it is written (a test breaks a file on purpose); stamp: seconds
    since 1970 that the manifest gives as its time (SOURCE_DATE_EPOCH, for a build that is
    the same every time; default now); root: the project (default this one). DriveError
    says what went wrong."""
    from tools import toolchain
    from tools import deploy
    from tools import files
    root = root or deploy.ROOT
    try:  # the drive's settings: a drive without them would run on defaults, unsaid
        files.read_text(os.path.join(root, "settings.toml"), "settings")
    except files.FileProblem as e:
        raise DriveError("%s; the drive's settings come from it (git checkout settings.toml "
                         "brings it back)" % e)
    try:
        found = toolchain.mpy_cross(mpy_cross)
    except toolchain.ToolchainError as e:
        raise DriveError(str(e))
    compiler = found if use_mpy else None
    if use_mpy and compiler is None:
        raise DriveError("the packages go onto the board as .mpy, made by CircuitPython's own "
                         "mpy-cross: make toolchain fetches it, or give --mpy-cross PATH or set "
                         "%s (docs/TWINS.md: 'CircuitPython's own VM')" % toolchain.ENV_MPY)
    os.makedirs(dest, exist_ok=True)
    if os.listdir(dest):
        raise DriveError("%s is not empty: the drive is written into a new folder" % dest)
    with tempfile.TemporaryDirectory(prefix="california-speed-libs-") as tmp:
        try:
            bundle = toolchain.library_bundle(tmp, deploy.LIBRARIES, found, use_mpy=False)
        except (RuntimeError, OSError) as e:
            raise DriveError("compiling the Adafruit libraries: %s" % e)
        boot_out = os.path.join(dest, "boot_out.txt")  # deploy looks for it on a drive
        with open(boot_out, "w") as f:
            f.write("Adafruit CircuitPython %d.x\n" % deploy.BOARD_MAJOR)
        args = ["--to", dest, "--bundle", bundle]
        args += ["--mpy-cross", compiler] if compiler else ["--no-mpy"]
        if version is not None:
            args += ["--version", version]
        said = io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said), \
                _source_date(stamp):
            code = deploy.main(args, root=root)
        os.remove(boot_out)
    if code != 0:
        lines = [ln.strip() for ln in said.getvalue().splitlines() if ln.strip()]
        errors = [ln.split("error: ", 1)[1] for ln in lines if "error: " in ln]
        raise DriveError("deploy could not write the drive: %s"
                         % ("; ".join(errors) or " ".join(lines[-1:])))
    if settings:
        settings_toml(dest, settings)
    if change is not None:
        change(dest)
    return dest


def find_mpy_cross(prog, given=None):
    """CircuitPython's mpy-cross for a command (make uf2, make bundle): given (--mpy-cross),
    else as tools/toolchain.py finds it; None, said in a line with what .py source costs,
    when there is none; one line and exit 2 when the one given or set does not work."""
    import sys
    from tools import toolchain
    from tools.cli import fail
    try:
        found = toolchain.mpy_cross(given)
    except toolchain.ToolchainError as e:
        fail(prog, str(e))
    if found is None:
        print("%s: no CircuitPython mpy-cross (make toolchain fetches it; or --mpy-cross PATH): "
              "%s" % (prog, SOURCE_COST), file=sys.stderr)
    return found


@contextlib.contextmanager
def _source_date(stamp):
    """SOURCE_DATE_EPOCH set to stamp meanwhile (the reproducible-builds convention)."""
    if stamp is None:
        yield
        return
    from tools.boardcode import SOURCE_DATE_EPOCH
    old = os.environ.get(SOURCE_DATE_EPOCH)
    os.environ[SOURCE_DATE_EPOCH] = str(int(stamp))
    try:
        yield
    finally:
        if old is None:
            del os.environ[SOURCE_DATE_EPOCH]
        else:
            os.environ[SOURCE_DATE_EPOCH] = old


def files(tree):
    """Every file of a written drive, '/'-separated paths relative to it, sorted."""
    out = []
    for folder, _, names in os.walk(tree):
        for name in names:
            out.append(os.path.relpath(os.path.join(folder, name), tree).replace(os.sep, "/"))
    return sorted(out)
