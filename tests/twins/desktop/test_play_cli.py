"""make play's command line: the headless scripted mode and bad arguments."""
import os
import subprocess
import sys

import pytest
from PIL import Image

import places
from tools import mpy
from twins.desktop import scenes

ROOT = mpy.ROOT


def _play(*args):
    return subprocess.run([sys.executable, "-m", "twins.desktop.play"] + list(args), cwd=mpy.ROOT,
                          capture_output=True, text=True, timeout=120)


def test_headless_script_writes_the_frame_and_the_bus_counts(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_text("# start a 2-player match, then A covers pile 0\n400 A3 tap\n700 A0 tap\n")
    png = tmp_path / "out.png"
    r = _play("--script", str(script), "--png", str(png), "--decks", scenes.DECKS)
    assert r.returncode == 0, r.stderr
    assert "I2C bytes" in r.stdout and "2 handled" in r.stdout
    img = Image.open(png)
    assert img.size == (512, 256)


def test_headless_script_is_the_scene_it_describes(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_text(scenes.SCENES["cover"][1])
    png = tmp_path / "out.png"
    r = _play("--script", str(script), "--png", str(png), "--scale", "1", "--decks",
              scenes.DECKS, "--after", "400")
    assert r.returncode == 0, r.stderr
    hw, _ = scenes.play("cover")
    got = bytes(1 if v > 127 else 0 for v in Image.open(png).convert("L").tobytes())
    assert got == hw.oled.frame()


def _one_line_error(r, *words):
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2 and len(lines) == 1, r.stderr
    assert lines[0].startswith("make play: error:") and "Traceback" not in r.stderr
    for word in words:
        assert word in lines[0], (word, lines[0])


def test_bad_arguments_get_one_line_and_status_2():
    for args, word in ((["--piles", "5"], "--piles"), (["--wins", "9"], "--wins"),
                       (["--png", "x.png"], "--png needs --script"), (["--seed", "-4"], "-4"),
                       (["--i2c-hz", "12"], "12"), (["--bogus"], "--bogus"),
                       (["--scale", "0"], "1..16"), (["--scale", "300"], "1..16"),
                       (["--after", str(10 ** 14)], "0..3600000 ms"),
                       (["--clock-start", "0x20000000"], "--clock-start")):
        _one_line_error(_play(*args), word)


def test_a_bad_script_or_deck_names_the_problem(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_text("100 A0 tap\nbanana\n")
    _one_line_error(_play("--script", str(script)), "line 2")
    script.write_text("100 A0 tap\n")
    _one_line_error(_play("--script", str(script), "--decks", "5c 5c 9d / 2s"),
                    "5c is dealt twice")
    _one_line_error(_play("--script", str(script), "--decks", "5c 9d / 2s 5C"),
                    "5C is dealt twice (5c in A's deck, 5C in B's)")
    _one_line_error(_play("--script", str(script), "--decks", "5c 9d / 2s"), "deck_a")
    _one_line_error(_play("--script", str(tmp_path / "missing.txt")), "no such file")
    _one_line_error(_play("--script", str(script), "--decks", ""), "decks:")
    _one_line_error(_play("--script", ""), "--script", "an empty file name")


def test_a_script_that_never_ends_is_refused_unread(tmp_path):
    """/dev/zero would be read until the memory ran out, a pipe nobody writes for ever."""
    big = tmp_path / "big.keys"
    big.write_bytes(b"100 A0 tap\n" * 100000)  # 1.1 MB
    for given, says in (("/dev/zero", "a device or a pipe"), ("/dev/urandom", "a device"),
                        (places.fifo(tmp_path), "a device or a pipe"),
                        (str(big), "larger than a script may be (1 MB)")):
        places.one_line(places.run(["twins.desktop.play", "--script", given], timeout=60),
                        "make play: error:", given, says)


def test_a_png_that_cannot_be_written_whole_leaves_no_file(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_text("100 A0 tap\n")
    folder = tmp_path / "pictures"
    folder.mkdir()
    disk = places.full_disk(folder, size_kb=8, free_kb=4, seen=tmp_path / "seen")
    r = places.run(["twins.desktop.play", "--script", str(script), "--png",
                    str(folder / "glass.png"), "--scale", "16"], prefix=disk)
    places.one_line(r, "make play: error: cannot write", "glass.png", "the disk is full")
    assert places.files_in(tmp_path / "seen") == {"other": 4096}  # no PNG, no temporary


def test_script_limits_and_bad_bytes_are_named_with_their_line(tmp_path):
    script = tmp_path / "keys.txt"
    cases = ((b"100 A0 tap\n200 A1 tap 100000000000000000000\n", "line 2", "hold"),
             (b"100 A0 tap\n\n%d A0 down\n" % (1 << 28), "line 3", "past the longest"),
             (b"100 A0 tap\n# caf\xe9\n", "line 2", "not UTF-8"))
    for data, *words in cases:
        script.write_bytes(data)
        _one_line_error(_play("--script", str(script)), *words)


def test_a_png_into_a_missing_folder_is_refused_before_the_run(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_text("100 A0 tap\n")
    _one_line_error(_play("--script", str(script), "--png", str(tmp_path / "no" / "x.png")),
                    "does not exist")


def test_the_terminal_front_end_refuses_a_pipe():
    r = subprocess.run([sys.executable, "-m", "twins.desktop.play", "--terminal"], cwd=mpy.ROOT,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert r.returncode == 2 and "needs a terminal" in r.stderr


def test_a_window_without_a_display_says_so_and_uses_the_terminal():
    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY")}
    r = subprocess.run([sys.executable, "-m", "twins.desktop.play", "--window"], cwd=mpy.ROOT,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60,
                       env=env)
    assert "no display for a window" in r.stderr and "using the terminal" in r.stderr
    assert r.returncode == 2 and "needs a terminal" in r.stderr  # (stdin is not one here)


def test_a_terminal_too_small_for_the_glass_says_how_big_to_make_it():
    from twins.desktop import play
    from twins.desktop import virtual

    class Screen:
        def __init__(self, rows, cols):
            self.size, self.text = (rows, cols), []

        def getmaxyx(self):
            return self.size

        def erase(self):
            self.text = []

        def addstr(self, y, x, s):
            self.text.append(s)

        def refresh(self):
            pass
    hw = virtual.init(seed=1)
    small = Screen(12, 40)
    play._draw(small, hw, True, [])
    said = " ".join(small.text)
    assert "make the window at least 66x19 (it is 40x12)" in said
    narrow = Screen(10, 30)  # the words wrap between words, never inside a number
    play._draw(narrow, hw, True, [])
    assert all(len(line) < 30 for line in narrow.text), narrow.text
    assert "66x19" in " ".join(narrow.text).split() and "30x10);" in " ".join(narrow.text)
    big = Screen(24, 80)
    play._draw(big, hw, True, [])
    assert "make the window" not in "".join(big.text)


def test_braille_and_block_frames_cover_the_glass():
    from twins.desktop.play import frame_lines
    frame = bytes([1]) * (128 * 64)
    assert frame_lines(frame, braille=True) == ["\u28ff" * 64] * 16
    assert frame_lines(frame, braille=False) == ["\u2588" * 128] * 32


def _in_a_terminal(args, keys, env=None, prefix=(), file_size=None):
    """make play in a real (pseudo) terminal of 140 x 45: each (seconds, bytes) of keys is
    typed after that long; returns (everything it wrote, its exit status, None if it had
    not ended 10 s after the last key). prefix: a command that runs it; file_size: the
    largest file it may write (ulimit -f), in bytes."""
    import pty
    import select
    import time
    pid, fd = pty.fork()
    if pid == 0:  # the child
        os.environ["TERM"] = "xterm-256color"
        os.environ["LINES"], os.environ["COLUMNS"] = "45", "140"
        for name, value in (env or {}).items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        if file_size is not None:
            import resource
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))
        os.chdir(mpy.ROOT)
        command = list(prefix) + [sys.executable, "-m", "twins.desktop.play"] + args
        os.execvp(command[0], command)
    seen = b""

    def read_for(seconds):
        nonlocal seen
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            if select.select([fd], [], [], 0.05)[0]:
                try:
                    seen += os.read(fd, 65536)
                except OSError:
                    return

    status = None
    try:
        for wait, typed in keys:
            read_for(wait)
            os.write(fd, typed)
        end = time.monotonic() + 10  # a make play that hangs fails the test
        while time.monotonic() < end:
            read_for(0.1)
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                break
            time.sleep(0.05)
        else:
            status = None
    finally:
        try:
            os.kill(pid, 9)
        except OSError:
            pass
    return seen, status


def _ended_well(status):
    """It ended by itself, with exit status 0."""
    return status is not None and os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0


def test_the_terminal_front_end_plays_in_a_pseudo_terminal():
    seen, status = _in_a_terminal(
        ["--terminal", "--seed", "3", "--decks", scenes.DECKS, "--nvm", ""],
        [(4, b"v"),  # RIGHT on "2 PLAYERS": the match starts
         (1.5, b"z"),  # A covers pile 0 (5c, matching B's 5d)
         (1.5, b"\x1b")])  # Esc quits
    assert "Player A".encode() in seen and "[space]".encode() in seen
    assert _ended_well(status), seen[-500:]
    assert b"I2C bytes" in seen


def test_a_display_that_does_not_answer_gives_the_terminal_handheld():
    # A stale DISPLAY (tmux over ssh): pygame falls back to drawing offscreen, which is
    # no window; make play says so in one line and plays in the terminal.
    seen, status = _in_a_terminal(["--nvm", ""], [(4, b"\x1b")],
                                  env={"DISPLAY": ":99", "WAYLAND_DISPLAY": None,
                                       "SDL_VIDEODRIVER": None})
    assert b"no window (no display answers" in seen and b"using the terminal" in seen
    assert "Player A".encode() in seen and b"I2C bytes" in seen  # the terminal's glass
    assert b"ALSA" not in seen and b"XDG_RUNTIME_DIR" not in seen
    assert _ended_well(status), seen[-500:]


def test_the_window_front_end_runs_under_a_virtual_video_driver(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from twins.desktop.play import _parser, _window
    args = _parser().parse_args(["--window", "--seed", "2", "--nvm", ""])
    hw, passes = _window(args, stop_after=30)
    assert passes >= 30 and hw.bus.bytes_sent > 1000


def test_the_readme_screenshot_is_what_the_headless_mode_makes(tmp_path):
    import re
    with open(mpy.ROOT + "/Makefile") as f:
        decks = re.search(r"^SCREENSHOT_DECKS := (.*)$", f.read(), re.M).group(1)
    png = tmp_path / "shot.png"
    r = _play("--script", "docs/screenshot.keys", "--decks", decks, "--after", "150",
              "--png", str(png), "--scale", "4")
    assert r.returncode == 0, r.stderr
    made = Image.open(png).convert("L").tobytes()
    committed = Image.open(mpy.ROOT + "/docs/screenshot.png").convert("L").tobytes()
    assert made == committed, "docs/screenshot.png is stale: run make screenshot"


def test_nvm_saves_survive_a_kill_at_any_moment(tmp_path, monkeypatch):
    from twins.desktop import virtual
    path = str(tmp_path / "nvm.bin")
    flash = virtual.Flash(path)
    nvm = flash.nvm
    nvm[0:3] = b"old"
    before = open(path, "rb").read()
    for step in ("write", "fsync", "replace"):

        def killed(*a, **k):
            raise KeyboardInterrupt("killed")
        if step == "fsync":
            monkeypatch.setattr(os, "fsync", killed)
        elif step == "replace":
            monkeypatch.setattr(os, "replace", killed)
        else:
            monkeypatch.setattr(os, "fdopen", killed)
        with pytest.raises(KeyboardInterrupt):
            nvm[3:6] = b"new"
        monkeypatch.undo()
        assert open(path, "rb").read() == before, step  # the old contents, whole
        assert [p for p in os.listdir(tmp_path) if ".tmp-" in p] == []
        assert flash.data[3:6] == b"\xff\xff\xff"  # the write is undone in memory too
    nvm[3:6] = b"new"
    assert open(path, "rb").read()[:6] == b"oldnew"


def _claim(nvm):
    """make play --terminal --nvm nvm, with no terminal: it takes the memory, or refuses it
    in one line, before it stops for want of a terminal."""
    return subprocess.run([sys.executable, "-m", "twins.desktop.play", "--terminal", "--nvm", str(nvm)],
                          cwd=ROOT, capture_output=True, text=True, timeout=60)


def test_a_second_handheld_on_the_same_nvm_file_is_refused(tmp_path):
    from twins.desktop import virtual
    path = str(tmp_path / "nvm.bin")
    first = virtual.Flash(path)
    again = virtual.Flash(path)  # this process's own handhelds may share it (a power cycle)
    r = _claim(path)
    assert r.returncode == 2 and "in use by another virtual handheld" in r.stderr
    del first, again


@pytest.mark.parametrize("where,says", [("folder", "that is a folder"),
                                         ("missing/nvm.bin", "does not exist")])
def test_a_bad_nvm_path_is_refused_in_words(tmp_path, where, says):
    (tmp_path / "folder").mkdir()
    r = subprocess.run([sys.executable, "-m", "twins.desktop.play", "--terminal", "--nvm",
                        str(tmp_path / where)], cwd=ROOT, capture_output=True, text=True,
                       timeout=60)
    assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr


# ---- --nvm takes only a handheld's memory, and follows links ----

def _refused_untouched(tmp_path, path, *words):
    """make play --nvm path stops in one line before anything runs, path as it was."""
    before = os.lstat(path)
    data = open(path, "rb").read() if os.path.isfile(path) else None
    r = _claim(path)
    _one_line_error(r, "--nvm", *words)
    after = os.lstat(path)
    assert (after.st_mode, after.st_size, after.st_ino) == (before.st_mode, before.st_size,
                                                           before.st_ino)
    if data is not None:
        assert open(path, "rb").read() == data
    assert not os.path.exists(str(path) + ".lock")


def test_a_file_that_is_not_a_handhelds_memory_is_refused_and_left_as_it_was(tmp_path):
    readme = tmp_path / "README.md"
    readme.write_bytes(open(os.path.join(ROOT, "README.md"), "rb").read())
    _refused_untouched(tmp_path, readme, "is not a handheld's memory", "left as it is")
    same_size = tmp_path / "photo.bin"
    same_size.write_bytes(bytes(range(256)) * 16)  # 4,096 bytes, but no saved settings
    _refused_untouched(tmp_path, same_size, "is not a handheld's memory")


def test_a_pipe_or_a_device_is_refused_and_stays_what_it_was(tmp_path):
    import stat
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    _refused_untouched(tmp_path, fifo, "not a regular file")
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    device = tmp_path / "null"
    try:
        os.mknod(device, stat.S_IFCHR | 0o600, os.makedev(1, 3))  # a null device of our own
    except PermissionError:
        pytest.skip("making a device node needs root (CI runs as root)")
    _refused_untouched(tmp_path, device, "not a regular file")
    assert stat.S_ISCHR(os.lstat(device).st_mode)


@pytest.mark.parametrize("kind", ["empty", "erased", "torn"])
def test_an_empty_erased_or_torn_memory_is_taken(tmp_path, kind):
    from twins.desktop import virtual
    path = tmp_path / "nvm.bin"
    data = {"empty": b"", "erased": b"\xff" * 4096,
            "torn": b"\xa5\x01\x10\x01\x01" + b"\xff" * 4091}[kind]  # a record cut short
    path.write_bytes(data)
    assert virtual.memory_file_problem(str(path)) == ""
    flash = virtual.Flash(str(path))
    flash.nvm[100:102] = b"ok"
    assert open(path, "rb").read()[100:102] == b"ok"


@pytest.mark.parametrize("kind", ["symbolic", "hard"])
def test_a_link_to_a_memory_is_followed_locked_and_never_replaced(tmp_path, kind):
    from twins.desktop import virtual
    real = tmp_path / "real.bin"
    real.write_bytes(b"\xff" * 4096)
    link = tmp_path / "link.bin"
    (os.symlink if kind == "symbolic" else os.link)(real, link)
    flash = virtual.Flash(str(link))
    flash.nvm[0:3] = b"\xa5\x01\x01"  # (a file of two names is written in place)
    assert open(real, "rb").read(3) == b"\xa5\x01\x01"
    assert os.path.islink(link) if kind == "symbolic" else os.path.samefile(real, link)
    # The lock is the file's, not a name's: another make play on it by either is refused.
    for name in (real, link):
        _one_line_error(_claim(name), "--nvm", str(name), "in use by another virtual handheld")
    if kind == "hard":
        os.remove(real)  # one name again: saved whole, and still locked
        flash.nvm[3:4] = b"\x07"
        assert open(link, "rb").read(4) == b"\xa5\x01\x01\x07"
        _one_line_error(_claim(link), "in use by another virtual handheld")
        assert os.listdir(tmp_path) == ["link.bin"]  # no lock file nor temporary left
    del flash


def test_help_says_how_to_keep_the_memory_in_ram():
    r = _play("--help")
    assert r.returncode == 0 and "--nvm ''" in r.stdout and "RAM" in r.stdout


def test_a_script_uses_the_memory_it_is_given_and_none_when_not(tmp_path):
    from twins.desktop import glass
    nvm = str(tmp_path / "nvm.bin")
    settings = tmp_path / "settings.keys"  # SETTINGS, PILES 3 A ROW, back (saved)
    settings.write_text("400 A1 tap\n550 A1 tap\n700 A1 tap\n850 A3 tap\n1000 A1 tap\n"
                        "1150 A3 tap\n1300 MENU tap\n")
    r = _play("--script", str(settings), "--nvm", nvm)
    assert r.returncode == 0, r.stderr
    deal = tmp_path / "deal.keys"
    deal.write_text("400 A3 tap\n")  # 2 PLAYERS
    for memory, piles in ((nvm, 3), (None, 4)):
        png = tmp_path / "table.png"
        r = _play("--script", str(deal), "--png", str(png), "--scale", "1",
                  *(["--nvm", memory] if memory else []))
        assert r.returncode == 0, r.stderr
        frame = bytes(1 if v > 127 else 0 for v in Image.open(png).convert("L").tobytes())
        assert glass.piles_per_row(frame) == piles, memory


def test_a_png_that_is_a_folder_is_refused_before_the_run(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_text("100 A0 tap\n")
    _one_line_error(_play("--script", str(script), "--png", str(tmp_path)), "--png",
                    "is a folder")


def test_the_readmes_headless_example_makes_the_screenshot_beside_it(tmp_path):
    """docs/TWINS.md's example (its section moved there from the README) makes the
    README's screenshot."""
    import re
    import shlex
    with open(os.path.join(ROOT, "docs", "TWINS.md")) as f:
        page = f.read()
    section = page[page.index("## Scripts, screenshots"):]
    args = shlex.split(re.search(r'^make play ARGS="(.*)"$', section, re.M).group(1))
    png = tmp_path / "out.png"
    args[args.index("--png") + 1] = str(png)
    r = _play(*args)
    assert r.returncode == 0, r.stderr
    made = Image.open(png).convert("L").tobytes()
    committed = Image.open(os.path.join(ROOT, "docs", "screenshot.png")).convert("L").tobytes()
    assert made == committed, "docs/TWINS.md's example does not make docs/screenshot.png"


def test_a_key_number_that_is_no_key_is_named_with_its_line(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_text("100 A0 tap\n200 99 tap\n")
    _one_line_error(_play("--script", str(script)), "line 2", "key 99 is not a key")


def test_a_script_saved_with_a_byte_order_mark_runs(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_bytes(b"\xef\xbb\xbf400 A3 tap\n700 A0 tap\n")  # as some editors save it
    r = _play("--script", str(script), "--decks", scenes.DECKS)
    assert r.returncode == 0, r.stderr
    assert "2 handled" in r.stdout


def test_the_desktop_says_free_memory_is_not_measured_rather_than_a_number(tmp_path):
    (tmp_path / "none.keys").write_text("")
    r = _play("--script", str(tmp_path / "none.keys"))
    assert r.returncode == 0, r.stderr
    ready = [line for line in r.stdout.splitlines() if "ready" in line]
    assert ready == ["console: ready: free memory not measured here"], r.stdout


# ---- the keyboard layouts: the direct build's and the matrix build's (--keys, --piles 6) ----

def _glass_rows(build):
    """{(glass row, column): [(keyboard character, key number)]} of a build's layout: a
    keyboard row's keys run along the glass from its left; A's near and B's far row are
    the glass's bottom row (1), A's far and B's near row its top row (0)."""
    from twins.desktop.play import KEYBOARD_ROWS, KEYBOARDS
    out = {}
    for chars, seat, far in KEYBOARD_ROWS[build]:
        row = 1 if (seat == "A") != bool(far) else 0
        for i, ch in enumerate(chars):
            out.setdefault((row, i), []).append((ch, KEYBOARDS[build][ch]))
    return out


@pytest.mark.parametrize("build", [0, 1], ids=["direct", "matrix"])
def test_each_keyboard_key_sits_over_its_pile_for_both_seats(build):
    from hardware.keymap import pile_of, role_of
    from hardware.seats import KEYS_A_ROW, column
    from twins.desktop.play import KEYBOARDS, KEYMAPS
    n, keys_of = KEYS_A_ROW[build], KEYMAPS[build]
    board = KEYBOARDS[build]
    assert sorted(board.values()) == list(range(len(keys_of)))  # every key once: no clash
    assert len(board) == len(keys_of)
    for (row, col), keys in _glass_rows(build).items():
        piles = {pile_of(role_of(key, keys_of), n, n) for _, key in keys}
        # A's key and B's key in this place press the same pile, the one at this column
        # of this row of the glass (A's row: piles 0..n-1, B's: n..2n-1, seen by B).
        want = (1 - row) * n + column(1 - row, col, n)
        assert len(keys) == 2 and piles == {want}, (row, col, keys, piles)
    assert board[" "] == len(keys_of) - 1  # MENU, the key map's last key


def test_the_matrix_layout_is_the_six_keys_a_row_of_long_speed():
    from tools.keynames import name_of
    from twins.desktop.play import KEYBOARDS, KEYMAPS
    names = {ch: name_of(key, KEYMAPS[1]) for ch, key in KEYBOARDS[1].items()}
    assert [names[ch] for ch in "zxcvbn"] == ["A0", "A1", "A2", "A3", "A4", "A5"]
    assert [names[ch] for ch in "asdfgh"] == ["Af0", "Af1", "Af2", "Af3", "Af4", "Af5"]
    assert [names[ch] for ch in "=-0987"] == ["B0", "B1", "B2", "B3", "B4", "B5"]
    assert [names[ch] for ch in "][poiu"] == ["Bf0", "Bf1", "Bf2", "Bf3", "Bf4", "Bf5"]
    assert names[" "] == "MENU"


def _readme_tables():
    """The key tables of README's "The keys": [{seat: (top row chars, bottom row chars)}]."""
    import re
    with open(os.path.join(ROOT, "README.md")) as f:
        text = f.read()
    section = text[text.index("## The keys"):]
    section = section[:section.index("\n## ", 1)]
    tables = []
    for block in re.split(r"\n\n", section):
        rows = re.findall(r"^\| \*\*Player ([AB])\*\* [^|]*\|([^|]*)\|([^|]*)\|$", block, re.M)
        if rows:
            tables.append({seat: ("".join(re.findall(r"`(.)`", top)),
                                  "".join(re.findall(r"`(.)`", bottom)))
                           for seat, top, bottom in rows})
    return tables


def test_the_readme_tables_are_the_keyboards():
    from twins.desktop.play import KEYBOARD_ROWS
    tables = _readme_tables()
    assert len(tables) == 2
    for build, table in enumerate(tables):
        rows = {(seat, 1 if (seat == "A") != bool(far) else 0): chars
                for chars, seat, far in KEYBOARD_ROWS[build]}
        assert table == {s: (rows[(s, 0)], rows[(s, 1)]) for s in "AB"}, build


@pytest.mark.parametrize("build", [0, 1], ids=["direct", "matrix"])
def test_the_keys_help_shows_the_keyboard(build):
    import re
    from twins.desktop.play import HELPS, KEYBOARD_ROWS
    lines = HELPS[build].splitlines()
    # "    top row:     [a] [s] ...        top row:     [j] [k] ...": A's half, then B's
    top, bottom = [["".join(re.findall(r"\[(.)\]", half))
                    for half in re.split(r"(?:top|bottom) row:", line)[1:]]
                   for line in lines[1:3]]
    rows = {(seat, 1 if (seat == "A") != bool(far) else 0): chars
            for chars, seat, far in KEYBOARD_ROWS[build]}
    assert top == [rows[("A", 0)], rows[("B", 0)]] and bottom == [rows[("A", 1)], rows[("B", 1)]]
    assert "MENU: [space]" in HELPS[build]


def test_keys_and_piles_that_do_not_go_together_get_one_line():
    _one_line_error(_play("--piles", "6", "--keys", "direct"), "--piles 6", "--keys matrix")
    _one_line_error(_play("--keys", "diodes"), "--keys")
    _one_line_error(_play("--piles", "5", "--keys", "matrix"), "--piles")


def test_piles_6_plays_on_the_matrix_build_and_3_or_4_on_the_direct_unless_asked():
    from twins.desktop.play import _build, _parser, _settings
    for args, build in ((["--piles", "6"], 1), (["--piles", "4"], 0), ([], 0),
                        (["--piles", "3", "--keys", "matrix"], 1), (["--keys", "matrix"], 1),
                        (["--piles", "6", "--keys", "matrix"], 1)):
        parsed = _parser().parse_args(args)
        assert _build(parsed) == build, args
        assert _settings(parsed).get("CS_KEYS", "direct") == ("direct", "matrix")[build]


def test_a_matrix_script_names_the_matrix_keys(tmp_path):
    script = tmp_path / "keys.txt"
    # RIGHT on 2 PLAYERS; A covers pile 0 (5c); B covers pile 4 (5d): a 4-pile match
    script.write_text("400 A3 tap\n900 A0 tap\n1300 B0 tap\n1700 A5 tap\n")
    r = _play("--keys", "matrix", "--piles", "4", "--script", str(script), "--decks",
              scenes.DECKS)
    assert r.returncode == 0, r.stderr
    assert "4 handled" in r.stdout
    _one_line_error(_play("--script", str(script), "--decks", scenes.DECKS),
                    "line 4", "unknown key name 'A5'")  # the direct build has no A5


def test_run_script_takes_the_matrix_names_and_numbers():
    from hardware.keymap import ROLE_MENU
    from twins.desktop.play import run_script
    hw, app = run_script("400 A1 tap\n700 24 tap\n", settings={"CS_KEYS": "matrix"})
    assert hw.keymap[24] == ROLE_MENU and hw.menu_keys is not None  # on its own pin
    assert app.filter.presses == 2
    with pytest.raises(ValueError, match="key 25 is not a key"):
        run_script("400 25 tap\n", settings={"CS_KEYS": "matrix"})


def test_piles_6_plays_long_speed_from_a_script(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_text("400 A3 tap\n900 A5 tap\n1200 B5 tap\n")  # 2 PLAYERS; A's and
    r = _play("--piles", "6", "--script", str(script))  # B's 6th piles
    assert r.returncode == 0, r.stderr
    assert "3 handled" in r.stdout and "error" not in r.stdout.lower()


def test_the_terminal_and_the_window_show_the_matrix_builds_keys(monkeypatch):
    seen, status = _in_a_terminal(
        ["--terminal", "--keys", "matrix", "--seed", "3", "--decks", scenes.DECKS, "--nvm", ""],
        [(4, b"v"), (1.5, b"="), (1.5, b"\x1b")])  # 2 PLAYERS; B's own leftmost pile; Esc
    assert b"[=]" in seen and b"[n]" in seen and b"[;]" not in seen
    assert _ended_well(status), seen[-500:]
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    from twins.desktop.play import _parser, _window
    hw, passes = _window(_parser().parse_args(["--window", "--piles", "4", "--keys", "matrix",
                                               "--nvm", ""]), stop_after=30)
    assert passes >= 30 and hw.menu_keys is not None


# ---- saves that cannot land: a full disk, a file size limit, a read-only folder ----

# SETTINGS, down to PILES, RIGHT (3 a row), MENU: back, and the settings saved
_SAVE_SETTINGS = [(4, b"x"), (0.3, b"x"), (0.3, b"x"), (0.3, b"v"), (0.3, b"x"), (0.3, b"v"),
                  (0.3, b" "), (1.5, b"\x1b")]


@pytest.mark.parametrize("condition", ["full disk", "file size limit", "read-only folder"])
def test_saves_that_cannot_land_are_said_on_the_status_line_and_at_exit(tmp_path, condition):
    folder = tmp_path / "memory"
    folder.mkdir()
    nvm = str(folder / "nvm.bin")
    prefix, file_size, says = (), None, b"the last save to %s failed (" % nvm.encode()
    if condition == "full disk":  # a disk of one 4 KB block, taken by another file
        prefix = places.full_disk(folder, size_kb=4)
    elif condition == "file size limit":
        file_size = 1024
    else:
        open(nvm, "wb").write(b"\xff" * 4096)
        prefix = places.read_only(folder)
        says = b"saves off: the folder of %s is read-only" % nvm.encode()
    try:
        seen, status = _in_a_terminal(["--terminal", "--seed", "3", "--nvm", nvm],
                                      _SAVE_SETTINGS, prefix=prefix, file_size=file_size)
    finally:
        os.chmod(folder, 0o755)
    said = seen.replace(b"\r\n", b" ")
    assert _ended_well(status), seen[-800:]
    assert b"Traceback" not in seen
    exit_line = b"make play: " + says
    assert said.count(says) >= 2 and exit_line in said, seen[-800:]  # the glass's, the exit's
    assert said.index(says) < said.index(exit_line)
    if condition != "full disk":  # (the disk went with its namespace)
        assert os.path.getsize(nvm) in (0, 4096) and open(nvm, "rb").read(1) in (b"", b"\xff")


def test_a_memory_in_a_read_only_folder_is_read_and_play_goes_on(tmp_path):
    folder = tmp_path / "memory"
    folder.mkdir()
    nvm = str(folder / "nvm.bin")
    settings = tmp_path / "settings.keys"  # SETTINGS, PILES 3 A ROW, back (saved)
    settings.write_text("400 A1 tap\n550 A1 tap\n700 A1 tap\n850 A3 tap\n1000 A1 tap\n"
                        "1150 A3 tap\n1300 MENU tap\n")
    assert _play("--script", str(settings), "--nvm", nvm).returncode == 0
    saved = open(nvm, "rb").read()
    deal = tmp_path / "deal.keys"
    deal.write_text("400 A3 tap\n")  # 2 PLAYERS
    png = tmp_path / "table.png"
    prefix = places.read_only(folder)
    try:
        runs = [subprocess.run(prefix + [sys.executable, "-m", "twins.desktop.play", "--script",
                                         str(keys), "--nvm", nvm, "--png", str(png),
                                         "--scale", "1"],
                               cwd=ROOT, capture_output=True, text=True, timeout=120)
                for keys in (settings, deal)]  # PILES changed again, and not saved; a deal
    finally:
        os.chmod(folder, 0o755)
    for r in runs:
        assert r.returncode == 0 and "rror" not in r.stderr + r.stdout, r.stderr + r.stdout
        off = [line for line in r.stdout.splitlines() if "nvm" in line]
        assert off == ["console: nvm: saves off: the folder of %s is read-only; what it "
                       "holds was read, and nothing is written" % nvm], r.stdout
    from twins.desktop import glass
    frame = bytes(1 if v > 127 else 0 for v in Image.open(png).convert("L").tobytes())
    assert glass.piles_per_row(frame) == 3  # the memory was read
    assert open(nvm, "rb").read() == saved and os.listdir(folder) == ["nvm.bin"]


def test_after_stacked_decks_the_console_says_how_to_deal_that_match_again(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_text("400 A3 tap\n")  # 2 PLAYERS
    for decks, again in ((["--decks", scenes.DECKS], "make play --seed 5 with the same "
                          "--decks deals it again"), ([], "make play --seed 5 deals it again")):
        r = _play("--script", str(script), "--seed", "5", *decks)
        assert r.returncode == 0, r.stderr
        match = [line for line in r.stdout.splitlines() if line.startswith("console: match:")]
        assert len(match) == 1 and "(%s)" % again in match[0], r.stdout
