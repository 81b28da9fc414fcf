"""The CIRCUITPY drive inside the one-file UF2: folder2uf2's FAT12 image (tools/uf2.py pack),
as CircuitPython's own f_mkfs lays it out, read back by pyfatfs, an implementation of its
own, and by the FAT spec's arithmetic. (These are the checks the hand-written FAT it
replaces was held to.)"""
import os
import struct

import pytest

from tools import uf2

BOARD = "raspberry_pi_pico"
STAMP = (1767225600, 0x1234ABCD)  # 2026-01-01, and a volume serial number
TREE = {
    "code.py": b'print("hello")\n',
    "settings.toml": b'CIRCUITPY_WEB_API_PORT = 80\n',
    "BOOT.TXT": b"a name that is its own 8.3 form\n",
    "README": b"no extension\n",
    "Mixed Case.Py": b"a space and mixed case\n",
    "empty.txt": b"",
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
MADE_BY_CIRCUITPY = (".fseventsd/no_log", ".metadata_never_index", ".Trashes", ".Trash-1000")


def make_tree(root, files=TREE, dirs=EMPTY_DIRS):
    for rel, data in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    for rel in dirs:
        (root / rel).mkdir(parents=True, exist_ok=True)
    return root


@pytest.fixture
def firmware(tmp_path):
    """A small stand-in for CircuitPython's Pico image (only its blocks go first)."""
    import folder2uf2
    path = str(tmp_path / "firmware.uf2")
    folder2uf2.write_uf2(path, b"\0" * 8192, uf2.XIP_BASE, uf2.board_facts(BOARD)[0])
    return path


def packed(tmp_path, tree, firmware, name="one.uf2"):
    out = str(tmp_path / name)
    uf2.pack(str(tree), firmware, BOARD, out, STAMP)
    return out


def test_a_tree_round_trips_through_an_independent_reader(tmp_path, firmware):
    from pyfatfs.PyFatFS import PyFatFS  # pinned in requirements.txt
    out = packed(tmp_path, make_tree(tmp_path / "src"), firmware)
    got = uf2.drive_files(out, BOARD)
    assert {k: v for k, v in got.items() if k not in MADE_BY_CIRCUITPY} == TREE
    image = tmp_path / "drive.img"
    image.write_bytes(uf2.drive_image(out, BOARD))
    fat = PyFatFS(str(image), read_only=True)
    try:
        dirs = {p.lstrip("/") for p in fat.walk.dirs("/")}
    finally:
        fat.close()
    assert set(EMPTY_DIRS) <= dirs


def test_the_boot_sector_is_circuitpythons_fat12_of_one_mebibyte(tmp_path, firmware):
    image = uf2.drive_image(packed(tmp_path, make_tree(tmp_path / "src"), firmware), BOARD)
    assert len(image) == 1024 * 1024
    bps, spc, reserved, fats, root_entries, total16, media, fat_size = struct.unpack_from(
        "<HBHBHHBH", image, 11)
    hidden, total32 = struct.unpack_from("<II", image, 28)
    label, fs_type = image[43:54], image[54:62]
    assert (bps, spc, fats, media, total16, total32) == (512, 1, 1, 0xF8, 2048, 0)
    assert hidden == 1  # CircuitPython's drive: partition 1 at LBA 1 of a synthesized MBR
    # FatFs's f_mkfs, as CircuitPython calls it, writes these; the label is in the root folder
    assert (label, fs_type) == (b"NO NAME    ", b"FAT     ") and image[510:512] == b"\x55\xaa"
    assert struct.unpack_from("<I", image, 39)[0] == STAMP[1]  # the volume serial number
    # fatgen103's arithmetic: the type follows from the count of clusters alone.
    root_dir_sectors = (root_entries * 32 + bps - 1) // bps
    first_data_sector = reserved + fats * fat_size + root_dir_sectors
    clusters = (total16 - first_data_sector) // spc
    assert clusters < 4085 and fat_size * bps * 2 >= (clusters + 2) * 3
    fat = image[reserved * bps:]
    assert fat[:3] == b"\xf8\xff\xff"  # FAT entries 0 and 1: the media byte, end of chain
    root = image[(reserved + fats * fat_size) * bps:]
    assert root[:12] == b"CIRCUITPY  \x08"  # the volume's label: what the computer shows


def test_the_same_tree_gives_the_same_bytes(tmp_path, firmware):
    first = make_tree(tmp_path / "a")
    second = make_tree(tmp_path / "b", dict(reversed(list(TREE.items()))), EMPTY_DIRS[::-1])
    os.utime(second / "code.py", (0, 0))
    one = open(packed(tmp_path, first, firmware, "1.uf2"), "rb").read()
    two = open(packed(tmp_path, second, firmware, "2.uf2"), "rb").read()
    assert one == two


def test_a_tree_that_fills_the_drive_exactly_fits_and_one_byte_more_does_not(tmp_path,
                                                                             firmware):
    fits = None
    for clusters in range(2008, 1990, -1):  # less what CircuitPython's own files take
        (tmp_path / "full").mkdir(exist_ok=True)
        (tmp_path / "full" / "all.bin").write_bytes(bytes(clusters * 512))
        try:
            packed(tmp_path, tmp_path / "full", firmware)
        except uf2.UF2Error:
            continue
        fits = clusters * 512
        break
    assert fits
    got = uf2.drive_files(str(tmp_path / "one.uf2"), BOARD)["all.bin"]
    assert got == bytes(fits)
    (tmp_path / "full" / "all.bin").write_bytes(bytes(fits + 1))
    with pytest.raises(uf2.UF2Error, match="do not fit in the Raspberry Pi Pico's 1024 KB"):
        packed(tmp_path, tmp_path / "full", firmware)


def test_too_many_entries_in_the_top_folder_is_said(tmp_path, firmware):
    make_tree(tmp_path / "src", {"F%03d.TXT" % n: b"" for n in range(600)}, [])
    with pytest.raises(uf2.UF2Error, match="too many entries in root directory"):
        packed(tmp_path, tmp_path / "src", firmware)


@pytest.mark.parametrize("names, shown", [
    (["a:b.txt"], "':'"), (["what?.py"], "'?'"), (["back\\slash"], "'\\\\\\\\'"),
    (["trailing."], "end in a dot"), (["trailing "], "end in a dot or a space"),
    (["Code.py", "code.py"], "differ only in case"),
])
def test_names_fat_cannot_hold_are_refused_in_one_line(tmp_path, firmware, names, shown):
    make_tree(tmp_path / "src", {"lib/" + name: b"" for name in names}, [])
    with pytest.raises(uf2.UF2Error, match=shown) as caught:
        packed(tmp_path, tmp_path / "src", firmware)
    assert "lib/" in str(caught.value) and "\n" not in str(caught.value)
    assert not (tmp_path / "one.uf2").exists()


def test_names_over_255_characters_are_refused():
    # Linux holds no such name (255 bytes at most), so the check is called directly.
    assert uf2.name_problem("x" * 256) == "FAT names are at most 255 characters"
    assert uf2.name_problem("x" * 255) == ""
