"""Build a FAT12 image of a folder as CircuitPython 10 formats its CIRCUITPY drive; read one back.

    python -m tools.fatimage SRC OUT.img

CircuitPython's flash block device shows a made-up MBR at block 0 and its one partition from
block 1, kept from the start of the flash region; so the region, like this image, starts with the
volume boot record, and f_mkfs (oofatfs R0.13c) records 1 hidden sector. For 1 MiB it picks
512-byte sectors and clusters, 1 reserved sector, 1 FAT of 7 sectors, 512 root entries, data from
sector 40: 2008 clusters. The label is a root-folder entry, as f_setlabel writes it (here also in
the boot sector). Dates are fixed at 2026-01-01 00:00 so an image is the same byte for byte.
"""
import os
import struct
import sys

SECTOR = 512
HIDDEN_SECTORS = 1                            # the partition starts at block 1 of the block device
MAX_FAT12 = 0xFF5                             # most clusters FatFs takes as FAT12
STAMP_DATE = (2026 - 1980) << 9 | 1 << 5 | 1  # 2026-01-01; the time fields stay 00:00:00
VOLUME_ID = STAMP_DATE << 16                  # f_mkfs's serial number: the time it ran
VOLUME, DIRECTORY, ARCHIVE, LONG_NAME = 0x08, 0x10, 0x20, 0x0F
SHORT_CHARS = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#$%&'()-@^_`{}~")
BAD_CHARS = frozenset('"*/:<>?\\|\x7f')
DOT, DOTDOT = b".          ", b"..         "
BOOT_SECTOR = "<3s8sHBHBHHBHHHIIBBBI11s8s"    # jump .. file system type (offsets 0..61)


def geometry(size):
    """(sectors, root entries, FAT sectors, first data sector, clusters) as f_mkfs picks them."""
    sectors = size // SECTOR
    root_entries = 64 if sectors <= 256 else 512
    fat_sectors = -(-((sectors * 3 + 1) // 2 + 3) // SECTOR)
    data_start = 1 + fat_sectors + root_entries * 32 // SECTOR
    clusters = sectors - data_start
    if size % SECTOR or sectors > MAX_FAT12 or clusters < 16:
        raise ValueError("the drive must be a multiple of 512 bytes, at most %d, with at least "
                         "16 clusters: not %d bytes" % (MAX_FAT12 * SECTOR, size))
    return sectors, root_entries, fat_sectors, data_start, clusters


def checksum(short):
    """The checksum of an 11-byte short name that its long-name entries carry."""
    total = 0
    for byte in short:
        total = (((total & 1) << 7) + (total >> 1) + byte) & 0xFF
    return total


def short_form(name):
    """(the 11-byte 8.3 form of name, lossy): lossy when more than case was lost, as FatFs's
    create_name judges it; a lossy form gets a ~N tail."""
    trimmed = name.lstrip(" .")
    body, dot, ext = trimmed.rpartition(".")
    if not dot:
        body, ext = ext, ""
    lossy, fields = trimmed != name, b""
    for text, width in ((body, 8), (ext, 3)):
        kept = text.replace(" ", "").replace(".", "")
        field = "".join(c.upper() if c.upper() in SHORT_CHARS else "_" for c in kept)
        lossy |= kept != text or field != kept.upper() or len(field) > width
        fields += field[:width].ljust(width).encode("ascii")
    return fields, lossy


def with_tail(short, number):
    """short (11 bytes) with its body cut to make room for ~number."""
    tail = b"~%d" % number
    return (short[:8].rstrip()[:8 - len(tail)] + tail).ljust(8) + short[8:]


def check_name(name, path):
    """Raise ValueError unless FatFs would store name (of the file at path) as it is."""
    bad = [c for c in name if c in BAD_CHARS or c < " "]
    if bad or name[-1] in " .":
        why = "hold %r" % bad[0] if bad else "end in a dot or a space"
        raise ValueError("%s: FAT names cannot %s" % (path, why))
    try:
        if len(name.encode("utf-16-le")) > 255 * 2:
            raise ValueError("%s: FAT names are at most 255 characters" % path)
    except UnicodeEncodeError:
        raise ValueError("%s: the name is not valid Unicode" % path) from None


def long_entries(name, short):
    """The long-name entries for name, in the order they are stored (last part first)."""
    units = name.encode("utf-16-le")
    count = -(-len(units) // 26)
    padded = (units + b"\0\0" + b"\xff\xff" * 12)[:count * 26]
    return [struct.pack("<B10sBBB12sH4s", n | (0x40 if n == count else 0), part[:10], LONG_NAME,
                        0, checksum(short), part[10:22], 0, part[22:])
            for n in range(count, 0, -1) for part in [padded[(n - 1) * 26:n * 26]]]


def entry(short, attr, first=0, size=0):
    """A 32-byte short directory entry stamped 2026-01-01 00:00."""
    return struct.pack("<11sBBBHHHHHHHI", short, attr, 0, 0, 0, STAMP_DATE, STAMP_DATE, 0, 0,
                       STAMP_DATE, first, size)


def names(folder, path):
    """[(name, short name, long-name entries)] for what is in folder, sorted by name."""
    found, seen = sorted(os.listdir(folder)), {}
    for name in found:
        check_name(name, path + name)
        if name.upper() in seen:
            raise ValueError("%s%s and %s differ only in case, which FAT does not tell apart"
                             % (path, seen[name.upper()], name))
        seen[name.upper()] = name
    forms = {name: short_form(name) for name in found}
    taken = {short for short, lossy in forms.values() if not lossy}
    listing = []
    for name in found:
        short, lossy = forms[name]
        if lossy:
            short = next(s for s in (with_tail(short, n) for n in range(1, 10 ** 6))
                         if s not in taken)
            taken.add(short)
        exact = not lossy and name == short_name(short, 0)
        listing.append((name, short, [] if exact else long_entries(name, short)))
    return listing


class Clusters:
    """The data area and FAT as they are filled, one cluster after the other."""

    def __init__(self):
        self.fat, self.data = [0xFF8, 0xFFF], bytearray()

    def store(self, payload):
        """Put payload in a chain of new clusters; its first cluster, 0 for nothing."""
        count = -(-len(payload) // SECTOR)
        if not count:
            return 0
        first = len(self.fat)
        self.fat += list(range(first + 1, first + count)) + [0xFFF]
        self.data += payload.ljust(count * SECTOR, b"\0")
        return first

    def folder(self, path, rel, listing, own=0, parent=0):
        """The directory entries of folder path, its files and subfolders stored first."""
        entries = [entry(DOT, DIRECTORY, own), entry(DOTDOT, DIRECTORY, parent)] if own else []
        for name, short, long_name in listing:
            full, where = os.path.join(path, name), rel + name
            if os.path.isdir(full):
                inner = names(full, where + "/")
                first = self.store(bytes(32 * (2 + sum(1 + len(lfn) for _, _, lfn in inner))))
                table = self.folder(full, where + "/", inner, first, own)
                self.data[(first - 2) * SECTOR:(first - 2) * SECTOR + len(table)] = table
                entries += long_name + [entry(short, DIRECTORY, first)]
            elif os.path.isfile(full):
                with open(full, "rb") as f:
                    data = f.read()
                entries += long_name + [entry(short, ARCHIVE, self.store(data), len(data))]
            else:
                raise ValueError("%s: neither a file nor a folder" % where)
        return b"".join(entries)


def build(src_dir, size=1024 * 1024, label="CIRCUITPY"):
    """The image of a FAT12 drive of size bytes holding what is in src_dir."""
    sectors, root_entries, fat_sectors, data_start, clusters = geometry(size)
    label = label.upper()
    if not 0 < len(label) <= 11 or any(c not in SHORT_CHARS and c != " " for c in label):
        raise ValueError("the label %r is not 1..11 letters, digits or !#$%%&'()-@^_`{}~" % label)
    label = label.ljust(11).encode("ascii")
    area = Clusters()
    root = entry(label, VOLUME) + area.folder(src_dir, "", names(src_dir, ""))
    if len(root) > root_entries * 32:
        raise ValueError("%s needs %d entries in the top folder, FAT12 has %d" % (
            src_dir, len(root) // 32, root_entries))
    if len(area.fat) - 2 > clusters:
        raise ValueError("%s does not fit in %d KiB: it needs %d clusters of 512 bytes, the drive "
                         "has %d" % (src_dir, size // 1024, len(area.fat) - 2, clusters))
    image = bytearray(size)
    struct.pack_into(BOOT_SECTOR, image, 0, b"\xeb\xfe\x90", b"MSDOS5.0", SECTOR, 1, 1, 1,
                     root_entries, sectors, 0xF8, fat_sectors, 63, 255, HIDDEN_SECTORS, 0, 0x80, 0,
                     0x29, VOLUME_ID, label, b"FAT12   ")
    image[510:512] = b"\x55\xaa"
    fat = area.fat + [0] * (len(area.fat) % 2)
    packed = b"".join((a | b << 12).to_bytes(3, "little") for a, b in zip(fat[::2], fat[1::2]))
    image[SECTOR:SECTOR + len(packed)] = packed
    root_at, data_at = (1 + fat_sectors) * SECTOR, data_start * SECTOR
    image[root_at:root_at + len(root)] = root
    image[data_at:data_at + len(area.data)] = area.data
    return bytes(image)


def short_name(raw, case):
    """The name an 8.3 entry shows, lower-cased where its case bits (DIR_NTres) say."""
    raw = (b"\xe5" + raw[1:]) if raw[0] == 0x05 else raw
    body, ext = raw[:8].decode("cp437").rstrip(), raw[8:11].decode("cp437").rstrip()
    body, ext = body.lower() if case & 0x08 else body, ext.lower() if case & 0x10 else ext
    return body + "." + ext if ext else body


def read(image):
    """{path: contents} for every file in a FAT12 image, long names followed."""
    if len(image) < SECTOR or image[510:512] != b"\x55\xaa":
        raise ValueError("not a FAT image: no 55 AA at the end of sector 0")
    bps, spc, reserved, fats, root_entries, total, fat_size = struct.unpack_from("<HBHBHHxH",
                                                                                 image, 11)
    total = total or struct.unpack_from("<I", image, 32)[0]
    if not bps or not spc or not fats or total * bps > len(image):
        raise ValueError("not a FAT image: a bad BPB, or the image is cut short")
    fat_at, cluster_size = reserved * bps, bps * spc
    root_at = fat_at + fats * fat_size * bps
    data_at = root_at + -(-root_entries * 32 // bps) * bps
    clusters = (total * bps - data_at) // cluster_size
    if clusters > MAX_FAT12:
        raise ValueError("not FAT12: %d clusters" % clusters)

    def chain(first):
        out, cluster, seen = bytearray(), first, set()
        while 2 <= cluster < clusters + 2 and cluster not in seen:
            seen.add(cluster)
            out += image[data_at + (cluster - 2) * cluster_size:][:cluster_size]
            pair = int.from_bytes(image[fat_at + cluster * 3 // 2:][:2], "little")
            cluster = pair >> 4 if cluster & 1 else pair & 0xFFF
        if first and cluster < 0xFF8:
            raise ValueError("a broken cluster chain from cluster %d" % first)
        return bytes(out)

    def folder(table, prefix, files):
        parts, expected = {}, None
        for raw in (table[at:at + 32] for at in range(0, len(table) - 31, 32)):
            if raw[0] == 0:
                break
            if raw[11] == LONG_NAME and raw[0] != 0xE5:
                if raw[0] & 0x40:
                    parts, expected = {}, raw[13]
                parts[raw[0] & 0x3F] = raw[1:11] + raw[14:26] + raw[28:32]
                parts = parts if raw[13] == expected else {}
                continue
            whole = parts and sorted(parts) == list(range(1, len(parts) + 1))
            name = (b"".join(parts[n] for n in sorted(parts)).decode("utf-16-le", "replace")
                    .split("\0")[0] if whole and expected == checksum(raw[:11])
                    else short_name(raw[:11], raw[12]))
            parts = {}
            first, size = struct.unpack_from("<HI", raw, 26)
            if raw[0] == 0xE5 or raw[11] & VOLUME or raw[:11] in (DOT, DOTDOT):
                continue
            if raw[11] & DIRECTORY:
                if prefix.count("/") > 64:
                    raise ValueError("folders nested too deep (a loop?) at %s" % prefix)
                folder(chain(first), prefix + name + "/", files)
            else:
                files[prefix + name] = chain(first)[:size]
        return files

    return folder(image[root_at:root_at + root_entries * 32], "", {})


def main(argv=None):
    """Write the image of SRC to OUT; a bad argument or tree is one line and exit status 2."""
    from tools.cli import Parser, fail
    parser = Parser(prog="python -m tools.fatimage", description=__doc__.split("\n")[0])
    parser.add_argument("src", metavar="SRC", help="the folder to put on the drive")
    parser.add_argument("out", metavar="OUT", help="the image file to write (1 MiB)")
    args = parser.parse_args(argv)
    if not os.path.isdir(args.src):
        fail(parser.prog, "%s is not a folder" % args.src)
    try:
        image = build(args.src)
        with open(args.out, "wb") as f:
            f.write(image)
    except ValueError as e:
        fail(parser.prog, str(e))
    except OSError as e:
        fail(parser.prog, "%s: %s" % (e.filename, e.strerror or e))
    return 0


if __name__ == "__main__":
    sys.exit(main())
