"""The nvm log's bytes, shared by firmware/store.py (saving) and firmware/storeload.py
(reading at boot): a record starts with MAGIC_BYTE and ends in the CRC-16 crc16() gives,
and the log ends after its last byte that is not 0xFF (used_end). store.py's docstring
has the whole format; each module writes its numbers (_HEAD, _SLOT...) as its own const(),
since a const is no module attribute on the board (tests/firmware/test_store.py checks they agree).
"""

MAGIC_BYTE = b"\xa5"


def crc16(buf: "bytes | bytearray", start: int, stop: int) -> int:
    """CRC-16/CCITT-FALSE of buf[start:stop] (bytewise, no table)."""
    crc = 0xFFFF
    for b in memoryview(buf)[start:stop]:
        x = (crc >> 8) ^ b
        x ^= x >> 4
        crc = ((crc << 8) ^ (x << 12) ^ (x << 5) ^ x) & 0xFFFF
    return crc


def used_end(buf: "bytes | bytearray", base: int) -> int:
    """base + the length of buf without its trailing 0xFF bytes (0 when all are 0xFF)."""
    n = len(buf)
    while n and buf[n - 1] == 0xFF:
        n -= 1
    return base + n if n else 0
