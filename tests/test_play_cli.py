"""make play's command line: the headless scripted mode and bad arguments."""
import subprocess
import sys

from PIL import Image

from tools import mpy, scenes


def _play(*args):
    return subprocess.run([sys.executable, "-m", "tools.play"] + list(args), cwd=mpy.ROOT,
                          capture_output=True, text=True, timeout=120)


def test_headless_script_writes_the_frame_and_the_bus_counts(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_text("# start, then A covers pile 0\n100 A0 tap\n700 A0 tap\n")
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


def test_bad_arguments_get_a_usage_message():
    for args in (["--piles", "5"], ["--wins", "9"], ["--png", "x.png"], ["--seed", "-4"],
                 ["--i2c-hz", "12"], ["--bogus"]):
        r = _play(*args)
        assert r.returncode == 2, args
        assert "usage: make play" in r.stderr, args


def test_a_bad_script_or_deck_names_the_problem(tmp_path):
    script = tmp_path / "keys.txt"
    script.write_text("100 A0 tap\nbanana\n")
    r = _play("--script", str(script))
    assert r.returncode == 1 and "line 2" in r.stderr
    script.write_text("100 A0 tap\n")
    r = _play("--script", str(script), "--decks", "5c 5c 9d / 2s")
    assert r.returncode == 1 and "deck" in r.stderr
    r = _play("--script", str(tmp_path / "missing.txt"))
    assert r.returncode == 1 and "cannot read" in r.stderr


def test_the_terminal_front_end_refuses_a_pipe():
    r = subprocess.run([sys.executable, "-m", "tools.play", "--terminal"], cwd=mpy.ROOT,
                       stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1 and "needs a terminal" in r.stderr


def test_braille_and_block_frames_cover_the_glass():
    from tools.play import frame_lines
    frame = bytes([1]) * (128 * 64)
    assert frame_lines(frame, braille=True) == ["\u28ff" * 64] * 16
    assert frame_lines(frame, braille=False) == ["\u2588" * 128] * 32
