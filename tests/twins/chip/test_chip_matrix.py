"""The matrix build on the chip twin: `make uf2 ARGS="--keys matrix"`'s file (CS_KEYS =
"matrix") boots in rp2040js, and its 24 pile keys are a 4 x 6 diode matrix on the row and
column pins (twins/chip/js/matrix.mjs), scanned by CircuitPython's own keypad.KeyMatrix:
the unchanged firmware plays a match pressed through the diodes, and its glass is the
desktop twin's. The model's rule is tested alone first (node only)."""
import json
import os
import shutil
import subprocess

import pytest

from hardware import pinmap
from hardware.seats import PILE_CHOICES, build_of
from lab import chipbench
from twins.chip import chip, flash
from twins.desktop.scripted import TOGETHER, desktop_run, match_script
from twins.desktop.scenes import frame_diff as _diff, golden as _golden

NEEDS_NODE = pytest.mark.skipif(not (shutil.which("node") and shutil.which("npm")),
                                reason="the chip twin's matrix model needs node and npm")
REASON = chip.missing()
NEEDS_CHIP = pytest.mark.skipif(REASON is not None, reason="the chip twin: %s" % REASON)
ROWS, COLUMNS = 4, 6


# ---- the matrix's rule alone: which columns read low while one row is driven low ----

def _read(held, row, faults=None, drive=None):
    """The columns that read low while `row` is driven low and every other pin is an input
    pulled up, as keypad.KeyMatrix scans (columns_to_anodes); held: [(row, column)];
    faults: {(row, column): "missing" or "reversed"}; drive: {pin index: 0, 1, "up",
    "down" or "none"} over that (pins: the rows, then the columns)."""
    chip._npm_ready()
    pins = [0 if r == row else "up" for r in range(ROWS)] + ["up"] * COLUMNS
    for i, d in (drive or {}).items():
        pins[i] = d
    case = {"rows": ROWS, "columns": COLUMNS, "drive": pins,
            "held": [[r, c, (faults or {}).get((r, c), "diode")] for r, c in held]}
    return _levels([case])[0]


def _levels(cases):
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "cases.json")
        with open(path, "w") as f:
            json.dump({"cases": cases}, f)
        p = subprocess.run(["node", os.path.join(chip.NODE_DIR, "matrix.mjs"), path],
                           capture_output=True, text=True, cwd=chip.NODE_DIR, timeout=60)
    assert p.returncode == 0, p.stderr
    return [{c for c in range(COLUMNS) if not levels[ROWS + c]}
            for levels in json.loads(p.stdout)]


@NEEDS_NODE
def test_a_held_key_reads_low_on_its_column_only_while_its_row_is_driven():
    assert [_read([], r) for r in range(ROWS)] == [set()] * ROWS
    assert [_read([(2, 3)], r) for r in range(ROWS)] == [set(), set(), {3}, set()]
    assert _read([(2, 3), (2, 5), (0, 3)], 2) == {3, 5}  # two in a row, one more in a column


@NEEDS_NODE
def test_three_corners_held_read_no_fourth_through_diodes_and_a_ghost_without_one():
    corners = [(0, 0), (0, 1), (1, 0)]  # the fourth corner is (1, 1)
    assert [_read(corners, r) for r in range(ROWS)] == [{0, 1}, {0}, set(), set()]
    # row 1 low pulls column 0 low through (1, 0); with no diode at (0, 0) that pulls row 0
    # low, and row 0 pulls column 1 low through (0, 1): key (1, 1) reads pressed
    missing = {(0, 0): "missing"}
    assert [_read(corners, r, missing) for r in range(ROWS)] == [{0, 1}, {0, 1}, set(), set()]
    # the other two corners' diodes are not on that path: no ghost without them
    for key in ((0, 1), (1, 0)):
        assert _read(corners, 1, {key: "missing"}) == {0}, key
    # a row driven high (as the scan leaves it for a moment) is not pulled down
    assert _read(corners, 1, missing, drive={0: 1}) == {0}


@NEEDS_NODE
def test_a_key_with_no_diode_reads_as_a_key_and_one_turned_round_never_reads():
    assert _read([(3, 4)], 3, {(3, 4): "missing"}) == {4}
    assert [_read([(3, 4)], r, {(3, 4): "reversed"}) for r in range(ROWS)] == [set()] * ROWS
    # a column pulled down (not as the scan sets it) reads low, pressed or not
    assert _read([], 0, drive={ROWS: "down"}) == {0}


# ---- on the chip: make uf2 --keys matrix, booted and played by GPIO ----

@pytest.fixture(scope="module")
def matrix_uf2(tmp_path_factory):
    """The file make uf2 --keys matrix writes for this tree (with the goldens' version)."""
    from tools import drive, uf2
    path = str(tmp_path_factory.mktemp("dist") / "california-speed-matrix.uf2")
    assert uf2.main(["--keys", "matrix", "--version", drive.FIXED_VERSION, "--out", path]) == 0
    return path


@pytest.fixture(scope="module")
def matrix_booted(matrix_uf2):
    """Boot it, show the menu, start a 2-player match with A3 (RIGHT) through the matrix."""
    return chip.run("400 A3 tap 80\n", uf2=matrix_uf2, after_ms=600)


@pytest.fixture(scope="module")
def matrix_played(matrix_booted, matrix_uf2):
    """A match of 50 covers (4 piles a row, the default) pressed through the diode matrix
    with no USB host, with six moments when both players press at once; scripted on the
    desktop twin's matrix build (six keys under four cells: not the direct build's keys of
    the same names)."""
    seed = chip.seed_of(matrix_booted)
    script, checks, counts = match_script(seed, covers=50, together=6, keys="matrix")
    last = max(int(line.split()[0]) for line in script.splitlines())
    run = chip.run(script, uf2=matrix_uf2, usb=False, after_ms=checks[-1] - last + 100)
    return run, seed, script, checks, counts


def _taps(script):
    """[(ms, key name)] of a script's taps."""
    return [(int(w[0]), w[1]) for w in (ln.split() for ln in script.splitlines())]


@NEEDS_CHIP
def test_the_matrix_file_boots_to_the_main_menu_and_reads_a_press_through_a_diode(
        matrix_uf2, matrix_booted):
    assert chip.settings_of(matrix_uf2)["CS_KEYS"] == "matrix"
    run = matrix_booted
    assert run.t0 is not None, run.why + "\n" + run.text()
    got = run.oled_at(300).frame()
    assert got == _golden("menu"), _diff(got, _golden("menu"))
    assert [key for _, key in run.read_down()] == [chip.key_names("matrix")["A3"]]
    assert chip.seed_of(run)  # A3 (RIGHT on 2 PLAYERS) dealt a match


@NEEDS_CHIP
def test_menu_is_a_button_of_its_own_on_the_matrix_build(matrix_uf2):
    """DOWN three times and RIGHT through the matrix open the settings page; MENU, on its
    own pin, goes back: the glass is the desktop twin's at each step."""
    script = "400 A1 tap\n700 A1 tap\n1000 A1 tap\n1300 A3 tap\n1700 MENU tap\n"
    checks = [1200, 1600, 2000]
    run = chip.run(script, uf2=matrix_uf2, usb=False, after_ms=300)
    assert run.keys[-2:] == [(run.keys[-2][0], 14, 1), (run.keys[-1][0], 14, 0)]  # GP14
    desktop = desktop_run(script, 1, checks, keys="matrix")[0]
    frames = [run.oled_at(ms).frame() for ms in checks]
    for ms, got, want in zip(checks, frames, desktop):
        assert got == want, "at %d ms:\n%s" % (ms, _diff(got, want))
    assert frames[0] != frames[1] != frames[2] and frames[2] == frames[0]


@NEEDS_CHIP
def test_a_match_pressed_through_the_matrix_shows_what_the_desktop_twin_shows(matrix_played):
    run, seed, script, checks, counts = matrix_played
    assert counts["covered"] >= 50 and counts["foul"] and counts["collision"] \
        and counts["stall"] and counts["games"] and counts["piles"] == 4, counts
    desktop = desktop_run(script, seed, checks, keys="matrix")[0]
    for ms, want in zip(checks, desktop):
        got = run.oled_at(ms).frame()
        assert got == want, "at %d ms after the first frame:\n%s" % (ms, _diff(got, want))


@NEEDS_CHIP
def test_the_scan_reads_every_press_once_and_no_key_that_was_not_pressed(matrix_played):
    run, seed, script, checks, counts = matrix_played
    names = chip.key_names("matrix")
    pressed = [(ms, names[name]) for ms, name in _taps(script) if name != "MENU"]
    read = run.read_down()
    for ms, key in pressed:  # each read within a few scans of its press
        hit = [r for r in read if r[1] == key and ms <= r[0] <= ms + 5]
        assert len(hit) == 1, (ms, key, hit)
        read.remove(hit[0])
    assert read == [], read  # and nothing else (no ghost, no bounce)


@NEEDS_CHIP
def test_both_players_pressing_at_once_lose_no_press_and_read_no_ghost(matrix_played):
    """Pairs of A's and B's keys in one matrix column and in two, and three corners of a
    rectangle (two of A's keys in one row, one of B's in one of their columns): the scan
    reads those keys and no fourth, and every pile pressed is covered on the chip's glass
    as on the desktop's."""
    run, seed, script, checks, counts = matrix_played
    kinds = [kind for _, kind, _ in counts["together"]]
    assert len(kinds) >= 6 and set(kinds) == set(TOGETHER), kinds
    names = chip.key_names("matrix")
    shape = {"column": (2, 1), "apart": (2, 2), "corners": (2, 2)}  # matrix rows, columns
    desktop = dict(zip(checks, desktop_run(script, seed, checks, keys="matrix")[0]))
    for t, kind, keys in counts["together"]:
        read = {key for at, key in run.read_down(t) if at <= t + 5}
        assert read == {names[k] for k in keys}, (t, kind, keys, read)
        spots = {divmod(names[k], COLUMNS) for k in keys}
        assert (len({r for r, _ in spots}), len({c for _, c in spots})) == shape[kind], keys
        assert counts["cover_at"].count(t) == len(keys), (t, kind, keys)  # each one a cover
        at = min(c for c in checks if c > t)
        got = run.oled_at(at).frame()
        assert got == desktop[at], "%s at %d ms:\n%s" % (keys, at, _diff(got, desktop[at]))


@NEEDS_CHIP
def test_press_to_glass_through_the_matrix_is_within_16_ms_at_the_95th_percentile(
        matrix_played):
    """A single press (the moments of two or three keys at once are left out: their
    second pile is drawn a pass later)."""
    run, seed, script, checks, counts = matrix_played
    together = {t for t, _, _ in counts["together"]}
    alone = [(t, box) for t, box in zip(counts["cover_at"], counts["cover_box"])
             if t not in together]
    ns = chipbench.press_to_glass(run, [t for t, _ in alone], [box for _, box in alone])
    assert len(ns) == len(alone) >= 30
    stats = chipbench.spread(ns)
    assert stats["p95"] <= 16e6, sorted(round(t / 1e6, 1) for t in ns)


@NEEDS_CHIP
@pytest.mark.parametrize("faults,ghost", [(None, False), ({0: "missing"}, True)])
def test_three_corners_held_read_a_ghost_on_the_chip_only_where_a_diode_is_missing(
        matrix_uf2, faults, ghost):
    """A0, A1 and Af0 (matrix keys (0, 0), (0, 1), (1, 0)) held at once: the chip's own
    scan reads Af1, the fourth corner, only with key (0, 0)'s diode missing."""
    held = ("A0", "A1", "Af0")
    script = "".join("400 %s down\n900 %s up\n" % (k, k) for k in held)
    run = chip.run(script, uf2=matrix_uf2, usb=False, after_ms=200, faults=faults)
    names = chip.key_names("matrix")
    read = {key for _, key in run.read_down()}
    assert read == {names[k] for k in held + ("Af1",) * ghost}, read


SIX = PILE_CHOICES[build_of("matrix")].index(6)  # the PILES setting's index for 6 a row


@NEEDS_CHIP
def test_a_long_speed_match_through_the_matrix_shows_what_the_desktop_shows(matrix_uf2):
    """PILES 6 saved in the nvm: a match of 6 piles a row, each pressed by its matrix key,
    on the chip and on the desktop twin's matrix build."""
    nvm = flash.saved_settings(piles=SIX)
    counts = match_script(1, covers=1, keys="matrix", nvm=nvm, limit_ms=4000)[2]
    assert counts["piles"] == 6, counts  # (before the chip's long run)
    seed = chip.seed_of(chip.run("400 A3 tap 80\n", uf2=matrix_uf2, nvm=nvm, after_ms=600))
    script, checks, counts = match_script(seed, covers=50, keys="matrix", nvm=nvm,
                                               together=6)
    assert {"A4", "A5", "B4", "B5"} & {name for _, name in _taps(script)}
    last = max(ms for ms, _ in _taps(script))
    run = chip.run(script, uf2=matrix_uf2, nvm=nvm, usb=False,
                   after_ms=checks[-1] - last + 100)
    desktop = desktop_run(script, seed, checks, keys="matrix", nvm=nvm)[0]
    for ms, want in zip(checks, desktop):
        got = run.oled_at(ms).frame()
        assert got == want, "at %d ms after the first frame:\n%s" % (ms, _diff(got, want))


# ---- wired from the printed board: hardware/pcb/nets.json, read back from its copper ----

from tools.pcb import KICAD_PYTHON, kicad_missing  # noqa: E402
NO_KICAD = kicad_missing()

MOVE_TRACK = """import sys, pcbnew
path, ref, to_ref = sys.argv[1:]
bd = pcbnew.LoadBoard(path)
pads = [p for p in bd.FindFootprintByReference(ref).Pads() if p.GetNumber() == "1"]
to = bd.FindFootprintByReference(to_ref).FindPadByNumber("1").GetNet()
was = pads[0].GetNetCode()
for item in pads + [t for t in bd.GetTracks() if t.GetNetCode() == was and any(
        p.HitTest(t.GetStart()) or p.HitTest(t.GetEnd()) for p in pads)]:
    item.SetNet(to)
bd.Save(path)
"""


def test_the_committed_board_wires_each_key_where_the_pin_map_scans_it():
    """The chip's matrix build is wired from the board's nets: each switch joins the row
    and column settings.toml's rows and columns cross at for its key."""
    values = {s[0]: s[2] for s in pinmap.SETTINGS}
    values["CS_KEYS"] = "matrix"
    wires, buttons, matrix = chip._wiring(values, None)
    assert wires[:-1] == [[r, c] for r in matrix["rows"] for c in matrix["columns"]]
    assert buttons == [int(values["CS_MENU"][2:])]
    board = chip.board_nets()
    assert (board["SDA"], board["SCL"], board["piezo"]) == tuple(
        int(values[k][2:]) for k in ("CS_I2C_SDA", "CS_I2C_SCL", "CS_PIEZO"))


@pytest.mark.parametrize("change, said", [
    (None, "nets.json: no such file"),
    ("not json", "nets.json line 1 column 1: not JSON"),
    ({"keys": {}}, "nets.json: no 'MENU'"),
    ({"keys": {"A near 1": {"key": 0, "row": "GP40", "column": "GP16"}}, "MENU": "GP14",
      "SDA": "GP4", "SCL": "GP5", "piezo": "GP15"}, "A near 1's row reaches 'GP40'"),
    ({"keys": {}, "MENU": "", "SDA": "GP4", "SCL": "GP5", "piezo": "GP15"},
     "MENU reaches no GPIO"),
])
def test_a_nets_file_that_is_not_a_boards_says_so_in_one_line(tmp_path, change, said):
    path = tmp_path / "nets.json"
    if change is not None:
        path.write_text(change if isinstance(change, str) else json.dumps(change))
    with pytest.raises(ValueError, match=said) as e:
        chip.board_nets(str(path))
    assert "\n" not in str(e.value)


@NEEDS_CHIP
@pytest.mark.skipif(NO_KICAD != "", reason=NO_KICAD)
def test_a_switch_whose_track_goes_to_another_gpio_is_named_wrong_by_the_self_test(
        matrix_uf2, tmp_path):
    """In a copy of the board, A near 1's switch (SW1) has its column track moved to A near
    2's column (GP17): make pcb --nets-of reads the copy back, the chip is wired from it, and
    the self-test names A near 2 when A near 1 is pressed, as the desktop twin's self-test
    does when A near 2 is. Wired from the committed board it names A near 1."""
    from tools.boardcode import ROOT
    board = tmp_path / "california-speed.kicad_pcb"
    shutil.copy(os.path.join(ROOT, "hardware", "pcb", board.name), board)
    for argv in ([KICAD_PYTHON, "-c", MOVE_TRACK, str(board), "SW1", "SW2"],
                 [KICAD_PYTHON, "-m", "tools.pcb", "--nets-of", str(board)]):
        p = subprocess.run(argv, capture_output=True, text=True, cwd=ROOT)
        assert p.returncode == 0, p.stderr
    nets = str(tmp_path / "nets.json")
    assert chip.board_nets(nets)["keys"][0] == (6, 17)  # (the copper, read back)
    menu = "".join("%d A1 tap 80\n" % (400 + 300 * i) for i in range(6))  # DOWN to SELF TEST
    script = menu + "2000 A3 tap 80\n4500 A0 down\n"
    run = chip.run(script, uf2=matrix_uf2, usb=False, after_ms=300, nets=nets)
    right = chip.run(script, uf2=matrix_uf2, usb=False, after_ms=300)
    want = {k: desktop_run(menu + "2000 A3 tap 80\n4500 %s down\n" % k, 1, [4750],
                                keys="matrix")[0][0] for k in ("A0", "A1")}
    info = slice(8 * 128, 16 * 128)  # "I2C 3C 400K  MEM 98K": a desktop has no gc.mem_free
    for got, key in ((run.oled_at(4750).frame(), "A1"), (right.oled_at(4750).frame(), "A0")):
        got, expected = bytearray(got), bytearray(want[key])
        got[info] = expected[info] = bytes(8 * 128)
        assert got == expected, "pressed A0, want %s's glass:\n%s" % (key, _diff(got, expected))
    assert want["A0"] != want["A1"]
