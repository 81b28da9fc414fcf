"""The Pico's flash chip (W25Q16JV) as its commands see it: the write enable latch (WEL),
the busy bit (WIP) and the commands it ignores while busy, over norflash.py's array rule.
The chip twin's JS (twins/chip/js/flash.mjs FlashChip) is the same chip; the command cases
of tests/twins/models/flash_vectors.json keep the two equal. lab/chipnvm.py replays the chip twin's
flash log on it to rebuild the flash a power cut leaves. Not imported by the board VM's
bench (its heap and names stay as they were); board subset all the same.

A transaction is the bytes sent while the chip select is low; it takes effect when the
select rises: write enable sets WEL; page program, sector and block erase and write status
need WEL, clear it and make the chip busy for the datasheet's time; while busy, only read
status is answered and every other command is ignored.
"""
from twins.models.norflash import erase, program

FLASH_BYTES = 2 * 1024 * 1024
TIMES = {  # ns: W25Q16JV datasheet tPP, tSE, tBE1, tBE2, tW; typical and maximum
    "typ": {"program": 400000, "sector": 45000000, "block32": 120000000,
            "block64": 150000000, "status": 10000000},
    "max": {"program": 3000000, "sector": 400000000, "block32": 1600000000,
            "block64": 2000000000, "status": 15000000},
}
WREN, WRDI, RDSR, RDSR2, WRSR, PP = 0x06, 0x04, 0x05, 0x35, 0x01, 0x02
READ, FAST_READ, JEDEC = 0x03, 0x0B, 0x9F
ERASES = {0x20: (4096, "sector"), 0x52: (32768, "block32"), 0xD8: (65536, "block64")}
JEDEC_ID = b"\xef\x40\x15"  # Winbond, SPI NOR, 16 Mbit


def command_bytes(e):
    """The transaction a flash log entry ({cmd, addr, data, bytes}) was made of."""
    if e["cmd"] == "wren":
        return bytes((WREN,))
    if e["cmd"] == "status":
        return bytes((WRSR,)) + bytes.fromhex(e["data"])
    op = PP if e["cmd"] == "program" else [k for k, v in ERASES.items() if v[0] == e["bytes"]][0]
    a = e["addr"]
    head = bytes((op, a >> 16 & 0xFF, a >> 8 & 0xFF, a & 0xFF))
    return head + bytes.fromhex(e["data"]) if op == PP else head


class Chip:
    """The flash chip over flash (a bytearray, offset 0 = 0x10000000), at timing "typ" or
    "max"; log: the commands that changed its state, as flash.mjs logs them."""

    def __init__(self, flash, timing="typ"):
        self.flash = flash
        self.times = TIMES[timing]
        self.wel = False
        self.busy_until = 0
        self.log = []

    def status(self, now):
        """Status register 1: WIP (bit 0) while busy, WEL (bit 1) set or busy."""
        busy = now < self.busy_until
        return (1 if busy else 0) | (2 if self.wel or busy else 0)

    def transaction(self, data, now, done=1, chance=None):
        """The bytes the chip answers to data sent at now (ns), then the command's effect as
        the select rises: done of its work (a power cut part way: a program's first bytes
        programmed; an erase's programmed bits each read 1 with probability done, chance()
        drawing from [0, 1))."""
        answer = bytearray(len(data))
        for n in range(1, len(data)):
            answer[n] = self._answer(data, n, now)
        self._end(data, now, done, chance)
        return bytes(answer)

    def _answer(self, data, n, now):
        cmd = data[0]
        if cmd == RDSR:
            return self.status(now)
        if cmd == RDSR2:
            return 0x02  # QE: quad enabled, as boot stage 2 leaves it
        if cmd == JEDEC:
            return JEDEC_ID[(n - 1) % 3]
        skip = 4 if cmd == READ else 5 if cmd == FAST_READ else 0
        if skip and n >= skip:
            return self.flash[(_address(data) + n - skip) % FLASH_BYTES]
        return 0

    def _end(self, data, now, done, chance):
        cmd = data[0]
        if cmd == RDSR:
            return
        if cmd == WRDI:
            self.wel = False
            return
        if now < self.busy_until:
            return  # ignored while busy, as the chip does (only status is read)
        if cmd == WREN and len(data) == 1:
            self.wel = True
            self.log.append({"cmd": "wren", "t": now, "end": now})
            return
        if not self.wel or (cmd == WRSR and len(data) < 2):
            return
        if cmd == WRSR:  # its bits are not kept: QE stays set
            self.wel = False
            self._busy("status", now, {"data": data[1:].hex()})
            return
        if (cmd != PP and cmd not in ERASES) or len(data) < 4:
            return
        a = _address(data) % FLASH_BYTES
        self.wel = False
        if cmd == PP:
            if len(data) == 4:
                return
            payload = data[4:]
            program(self.flash, a, payload[:int(round(len(payload) * done))])
            self._busy("program", now, {"addr": a, "data": payload.hex()})
        else:
            size, kind = ERASES[cmd]
            if done >= 1:
                erase(self.flash, a, size)
            else:
                erase_part(self.flash, a - a % size, size, done, chance)
            self._busy(kind, now, {"cmd": "erase", "addr": a, "bytes": size})

    def _busy(self, kind, now, entry):
        self.busy_until = now + self.times[kind]
        e = {"cmd": kind, "t": now, "end": self.busy_until}
        e.update(entry)
        self.log.append(e)


def _address(data):
    return data[1] << 16 | data[2] << 8 | data[3]


def erase_part(flash, start, size, fraction, chance):
    """An erase stopped part way: each programmed (0) bit reads 1 with that probability."""
    for at in range(start, start + size):
        b = flash[at]
        for bit in range(8):
            if not b >> bit & 1 and chance() < fraction:
                b |= 1 << bit
        flash[at] = b
