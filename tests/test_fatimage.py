"""tools/fatimage.py: the FAT12 image CircuitPython mounts as CIRCUITPY, checked by its own
reader, by the FAT spec's arithmetic and by an independent implementation (mtools or pyfatfs)."""
import os
import struct
import subprocess
import sys

import pytest

from tools import fatimage

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TREE = {
    "code.py": b'print("hello")\n',
    "settings.toml": b'CIRCUITPY_WEB_API_PORT = 80\n',
    "BOOT.TXT": b"a name that is its own 8.3 form\n",
    "README": b"no extension\n",
    "Mixed Case.Py": b"a space and mixed case\n",
    "empty.txt": b"",
    ".metadata_never_index": b"",
    "thirteen_char": b"a long name filling exactly one LFN entry\n",
    "longfilename_one.txt": b"one\n",
    "longfilename_two.txt": b"two\n",
    "big.bin": bytes((i * 7 + i // 251) % 256 for i in range(150_000)),
    "lib/adafruit_displayio_ssd1306.mpy": bytes(range(256)) * 12,
    "lib/adafruit_display_text/__init__.py": b"",
    "lib/adafruit_display_text/bitmap_label.mpy": b"C\x06\x00\x1f" * 300,
    "game/levels/a_level_with_a_name_longer_than_twenty_six.json": b'{"rows": 8}\n',
}
EMPTY_DIRS = ["emptydir", "game/saves"]


def make_tree(root, files=TREE, dirs=EMPTY_DIRS):
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for rel in dirs:
        (root / rel).mkdir(parents=True, exist_ok=True)
    return root


@pytest.fixture
def tree(tmp_path):
    return make_tree(tmp_path / "src")


@pytest.fixture
def image(tree):
    return fatimage.build(str(tree))


def entries(image, cluster=0):
    """The 32-byte entries in use in the root folder (cluster 0) or in a subfolder's cluster."""
    at = 40 * 512 + (cluster - 2) * 512 if cluster else 8 * 512
    table = image[at:at + (512 if cluster else 512 * 32)]
    raws = [table[i:i + 32] for i in range(0, len(table), 32)]
    return raws[:[r[0] for r in raws].index(0)]


def short_entry(image, short, cluster=0):
    return next(raw for raw in entries(image, cluster) if raw[:11] == short)


def test_a_tree_round_trips(tmp_path):
    files = dict(TREE, **{"ünïcode ñame.txt": b"utf-8 on the board, UTF-16 in the entry\n"})
    assert fatimage.read(fatimage.build(str(make_tree(tmp_path, files)))) == files


def test_the_image_is_one_mebibyte(image):
    assert len(image) == 1024 * 1024


def test_short_names_get_numbered_tails_and_long_names_only_when_needed(image):
    raws = entries(image)
    shorts = [raw[:11] for raw in raws if raw[11] != fatimage.LONG_NAME]
    for short in (b"LONGFI~1TXT", b"LONGFI~2TXT", b"SETTIN~1TOM", b"THIRTE~1   ", b"CODE    PY ",
                  b"BIG     BIN", b"MIXEDC~1PY ", b"METADA~1   "):
        assert short in shorts
    for exact in (b"BOOT    TXT", b"README     "):
        at = shorts.index(exact)
        before = raws[[raw[:11] for raw in raws].index(exact) - 1]
        assert before[11] != fatimage.LONG_NAME, "%r needs no long name" % exact
        assert at >= 0
    code = [raw[:11] for raw in raws].index(b"CODE    PY ")
    assert raws[code - 1][11] == fatimage.LONG_NAME and raws[code - 1][0] == 0x41
    assert raws[code - 1][13] == fatimage.checksum(b"CODE    PY ")


def test_subfolders_have_dot_entries_pointing_at_themselves_and_their_parent(image):
    lib = struct.unpack_from("<H", short_entry(image, b"LIB        "), 26)[0]
    assert short_entry(image, b"LIB        ")[11] == fatimage.DIRECTORY
    dot, dotdot = entries(image, lib)[:2]
    assert (dot[:11], struct.unpack_from("<H", dot, 26)[0]) == (b".          ", lib)
    assert (dotdot[:11], struct.unpack_from("<H", dotdot, 26)[0]) == (b"..         ", 0)
    text = struct.unpack_from("<H", short_entry(image, b"ADAFRU~1   ", lib), 26)[0]
    assert struct.unpack_from("<H", entries(image, text)[1], 26)[0] == lib


def test_boot_sector_follows_the_fat12_spec(image):
    (jump, oem, bps, spc, reserved, fats, root_entries, total16, media, fat_size, spt, heads,
     hidden, total32, drive, _, signature, _, label, fs_type) = struct.unpack_from(
        fatimage.BOOT_SECTOR, image)
    assert jump[0] == 0xEB and jump[2] == 0x90 and oem == b"MSDOS5.0"
    assert (bps, spc, reserved, fats, root_entries, media) == (512, 1, 1, 1, 512, 0xF8)
    assert (total16, total32, spt, heads, hidden) == (2048, 0, 63, 255, 1)
    assert (drive, signature, label, fs_type) == (0x80, 0x29, b"CIRCUITPY  ", b"FAT12   ")
    assert image[510:512] == b"\x55\xaa"
    # fatgen103's arithmetic: the type follows from the count of clusters alone.
    root_dir_sectors = (root_entries * 32 + bps - 1) // bps
    first_data_sector = reserved + fats * fat_size + root_dir_sectors
    clusters = (total16 - first_data_sector) // spc
    assert (root_dir_sectors, fat_size, first_data_sector, clusters) == (32, 7, 40, 2008)
    assert clusters < 4085
    assert fat_size * bps * 2 >= (clusters + 2) * 3
    assert image[512:515] == b"\xf8\xff\xff"  # FAT entries 0 and 1: 0xFF8 (the media), 0xFFF
    assert entries(image)[0][:12] == b"CIRCUITPY  " + bytes([fatimage.VOLUME])


def test_a_file_over_many_clusters_is_one_chain_ending_in_end_of_chain(image):
    first, size = struct.unpack_from("<HI", short_entry(image, b"BIG     BIN"), 26)
    fat, cluster, chain = image[512:512 * 8], first, []
    while cluster < 0xFF8:
        chain.append(cluster)
        pair = int.from_bytes(fat[cluster * 3 // 2:][:2], "little")
        cluster = pair >> 4 if cluster & 1 else pair & 0xFFF
    assert len(chain) == -(-size // 512) == 293


def test_the_same_tree_gives_the_same_bytes(tmp_path):
    first = make_tree(tmp_path / "a")
    second = make_tree(tmp_path / "b", dict(reversed(list(TREE.items()))), EMPTY_DIRS[::-1])
    os.utime(second / "code.py", (0, 0))
    assert fatimage.build(str(first)) == fatimage.build(str(second))


def test_a_tree_that_fills_the_drive_exactly_fits_and_one_byte_more_does_not(tmp_path):
    make_tree(tmp_path / "full", {"all.bin": bytes(2008 * 512)}, [])
    assert fatimage.read(fatimage.build(str(tmp_path / "full"))) == {"all.bin": bytes(2008 * 512)}
    make_tree(tmp_path / "over", {"all.bin": bytes(2008 * 512 + 1)}, [])
    with pytest.raises(ValueError, match="does not fit in 1024 KiB: it needs 2009 clusters"):
        fatimage.build(str(tmp_path / "over"))


def test_too_many_entries_in_the_top_folder(tmp_path):
    make_tree(tmp_path, {"F%03d.TXT" % n: b"" for n in range(600)}, [])
    with pytest.raises(ValueError, match="601 entries in the top folder, FAT12 has 512"):
        fatimage.build(str(tmp_path))


@pytest.mark.parametrize("names, shown", [
    (["a:b.txt"], "':'"), (["what?.py"], "'?'"), (["back\\slash"], "'\\\\\\\\'"),
    (["trailing."], "end in a dot"), (["trailing "], "end in a dot or a space"),
    (["Code.py", "code.py"], "differ only in case"),
])
def test_names_fat_cannot_hold_are_refused_in_one_line(tmp_path, names, shown):
    make_tree(tmp_path, {"lib/" + name: b"" for name in names}, [])
    with pytest.raises(ValueError, match=shown) as caught:
        fatimage.build(str(tmp_path))
    assert "lib/" in str(caught.value) and "\n" not in str(caught.value)


def test_names_over_255_characters_are_refused():
    # Linux holds no such name (255 bytes at most), so the check is called directly.
    with pytest.raises(ValueError, match="lib/x+: FAT names are at most 255 characters"):
        fatimage.check_name("x" * 256, "lib/" + "x" * 256)


def test_the_reader_applies_the_lower_case_bits_fatfs_writes(image):
    at = image.index(short_entry(image, b"BOOT    TXT"))
    patched = bytearray(image)
    patched[at + 12] = 0x18
    assert "boot.txt" in fatimage.read(bytes(patched))


def test_an_independent_implementation_reads_the_same_tree(tree, image, tmp_path):
    from pyfatfs.PyFatFS import PyFatFS  # pinned in requirements.txt
    path = tmp_path / "drive.img"
    path.write_bytes(image)
    fs = PyFatFS(str(path), read_only=True)
    try:
        got = {p.lstrip("/"): fs.readbytes(p) for p in fs.walk.files("/")}
        dirs = {p.lstrip("/") for p in fs.walk.dirs("/")}
    finally:
        fs.close()
    assert got == TREE
    assert set(EMPTY_DIRS) <= dirs


def test_the_command_line_writes_the_image(tree, tmp_path):
    out = tmp_path / "drive.img"
    run = subprocess.run([sys.executable, "-m", "tools.fatimage", str(tree), str(out)], cwd=ROOT,
                         capture_output=True, text=True)
    assert (run.returncode, run.stderr) == (0, "")
    assert out.read_bytes() == fatimage.build(str(tree))


@pytest.mark.parametrize("bad", ["not a folder", "a bad name"])
def test_command_line_errors_are_one_line_and_status_2(tmp_path, capsys, bad):
    src = tmp_path / "src"
    if bad == "a bad name":
        make_tree(src, {"a:b.py": b""}, [])
    with pytest.raises(SystemExit) as caught:
        fatimage.main([str(src), str(tmp_path / "drive.img")])
    err = capsys.readouterr().err
    assert caught.value.code == 2 and err.count("\n") == 1
    assert err.startswith("python -m tools.fatimage: error: ")
    assert not (tmp_path / "drive.img").exists()
