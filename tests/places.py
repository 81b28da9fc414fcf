"""Places a command cannot use, for the tests of every command: a full disk, a read-only
folder, a pipe nobody writes, a file that never ends. Each disk is made in a mount namespace
of the command's own (unshare), so nothing outside the test's folder changes."""
import os
import shutil
import subprocess
import sys

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def namespace(folder, setup):
    """A command prefix that runs a program in a mount namespace of its own once the shell
    commands setup have run there ($1: folder); skips where unshare cannot make one."""
    if not shutil.which("unshare") or subprocess.run(
            ["unshare", "--map-root-user", "--mount", "true"], capture_output=True).returncode:
        pytest.skip("no mount namespace here (unshare --map-root-user --mount)")
    return ["unshare", "--map-root-user", "--mount", "sh", "-c",
            setup + ' && shift && exec "$@"', "sh", str(folder)]


def full_disk(folder, size_kb=64, free_kb=0, seen=None):
    """A command prefix under which folder is a disk of size_kb with free_kb left (the rest
    taken by a file named 'other'). The disk goes with the command's namespace: seen, a
    folder, receives a copy of what the command left on it (else nothing outside can)."""
    prefix = namespace(folder, 'mount -t tmpfs -o size=%dk tmpfs "$1" && '
                               '(head -c %d /dev/zero > "$1/other" 2>/dev/null; true)'
                       % (size_kb, (size_kb - free_kb) * 1024))
    if seen is None:
        return prefix
    os.makedirs(str(seen), exist_ok=True)
    return prefix + ["sh", "-c", 'seen=$1; shift; "$@"; rc=$?; cp -a "$0/." "$seen/" && '
                     'exit $rc; exit 99', str(folder), str(seen)]


def read_only(folder):
    """A command prefix under which folder is read-only: a read-only bind mount of it in a
    namespace of its own; or, for a user other than root (whom chmod does not stop), its
    write bits taken away (the caller gives them back)."""
    if os.geteuid() != 0:
        try:
            return namespace(folder, 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"')
        except pytest.skip.Exception:
            os.chmod(folder, 0o555)
            return []
    return namespace(folder, 'mount --bind "$1" "$1" && mount -o remount,bind,ro "$1"')


def fifo(folder, name="pipe"):
    """A named pipe in folder that nothing writes: reading it would wait for ever."""
    path = os.path.join(str(folder), name)
    os.mkfifo(path)
    return path


def run(args, prefix=(), timeout=120, cwd=ROOT, env=None, python=sys.executable):
    """python -m args under prefix, from the project's root; its CompletedProcess (text).
    A command that outlives timeout fails the test, naming it."""
    try:
        return subprocess.run(list(prefix) + [python, "-m"] + list(args), cwd=cwd,
                              capture_output=True, text=True, timeout=timeout,
                              env=env, stdin=subprocess.DEVNULL)
    except subprocess.TimeoutExpired:
        pytest.fail("%s did not end in %d s" % (" ".join(args), timeout))


def as_at_a_terminal():
    """Popen's preexec_fn for a command sent Ctrl-C: SIGINT back to its default, as a
    terminal's foreground job has it (a job started in the background, as `.ci/run &` is,
    inherits it ignored, and Python then never raises KeyboardInterrupt)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def interrupted(args, after, timeout=120, cwd=ROOT, python=sys.executable):
    """python -m args, sent Ctrl-C (SIGINT) once a line of its standard output holds the
    text after; its CompletedProcess (text: the output before and after the signal)."""
    import signal
    import threading
    p = subprocess.Popen([python, "-u", "-m"] + list(args), cwd=cwd, text=True,
                         stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, preexec_fn=as_at_a_terminal)
    timer = threading.Timer(timeout, p.kill)
    timer.start()
    seen = []
    try:
        for line in p.stdout:
            seen.append(line)
            if after in line:
                p.send_signal(signal.SIGINT)
                break
        out, err = p.communicate()
    finally:
        timer.cancel()
    if not any(after in line for line in seen):
        pytest.fail("%s never said %r: %s" % (" ".join(args), after, "".join(seen)[-500:]))
    return subprocess.CompletedProcess(p.args, p.returncode, "".join(seen) + out, err)


def one_line(result, *words):
    """Assert a command failed in words: exit status 2, no traceback, and its last line on
    stderr (after any progress lines) holding every word; returns that line."""
    said = result.stderr.strip()
    assert result.returncode == 2, (result.returncode, result.stdout[-500:], said[-2000:])
    assert "Traceback" not in said and said, said[-2000:]
    last = said.splitlines()[-1]
    for word in words:
        assert word in last, (word, said[-2000:])
    return last


def files_in(folder):
    """{name: size} of everything under folder, hidden files included (a temporary name
    left behind shows here)."""
    out = {}
    for where, _, names in os.walk(str(folder)):
        for name in names:
            path = os.path.join(where, name)
            out[os.path.relpath(path, str(folder))] = os.path.getsize(path)
    return out
