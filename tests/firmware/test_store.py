"""firmware/store.py, the nvm record log, on the virtual NVM: round trips, erase counts,
a power cut at every byte of a save, bit flips, garbage, and the board build."""
import binascii
import random

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from firmware.store import Log, crc16
from twins.desktop.virtual import Flash, NVM_SIZE, PowerCut
from twins.boardvm import mpvm
from tools import mpy

SIZE = NVM_SIZE
STORE_REL = "firmware/store.py"


def rec(kind, payload):
    """A record built independently of store.py (binascii's CRC-CCITT, init 0xFFFF)."""
    body = bytes((0xA5, kind, len(payload))) + bytes(payload)
    return body + binascii.crc_hqx(body, 0xFFFF).to_bytes(2, "big")


def flash_with(data):
    flash = Flash()
    flash.data[0:len(data)] = data
    return flash


def whole_from(record):
    """How many leading bytes of a record must be programmed for it to read whole
    (trailing 0xFF bytes are already there in erased flash)."""
    return len(record.rstrip(b"\xff"))


def payload_whose_crc_ends_in_ff(kind, stem, both=False):
    """stem plus one byte (two if both) such that the record's CRC ends 0xFF (0xFFFF)."""
    for extra in range(65536 if both else 256):
        p = stem + extra.to_bytes(2 if both else 1, "big")
        crc = rec(kind, p)[-2:]
        if crc == b"\xff\xff" or (crc[1] == 0xFF and not both):
            return p
    raise AssertionError("no such payload")


# ----------------------------------------------------------------------------- basics

def test_crc_is_crc16_ccitt_false_and_the_record_layout_is_as_documented():
    assert crc16(b"123456789", 0, 9) == 0x29B1
    assert crc16(b"xx123456789", 2, 11) == 0x29B1
    flash = Flash()
    Log(flash.nvm).put(7, b"hi")
    assert flash.nvm[0:9] == rec(7, b"hi") + b"\xff\xff"
    assert rec(7, b"hi")[:5] == b"\xa5\x07\x02hi"


def test_round_trip_of_several_kinds_newest_wins_and_survives_a_reload():
    flash = Flash()
    log = Log(flash.nvm)
    assert log.get(1) is None and log.end == 0
    values = {1: b"\x00", 2: b"settings v1", 3: bytes(range(200)), 127: b"\xff\xa5\xff"}
    for kind, payload in values.items():
        log.put(kind, payload)
    log.put(2, bytearray(b"settings v2"))
    values[2] = b"settings v2"
    for reader in (log, Log(flash.nvm)):
        for kind, payload in values.items():
            assert reader.get(kind) == payload
            assert type(reader.get(kind)) is bytes
        assert reader.get(4) is None
    assert Log(flash.nvm).end == log.end == sum(len(p) + 5 for p in values.values()) + 16
    assert log.appends == 5 and log.compactions == 0 and flash.erases == 0


def test_a_file_backed_nvm_reopened_keeps_the_values(tmp_path):
    path = str(tmp_path / "nvm.bin")
    log = Log(Flash(path).nvm)
    log.put(1, b"stats")
    log.put(2, b"settings")
    log.put(1, b"stats 2")
    again = Log(Flash(path).nvm)
    assert again.get(1) == b"stats 2" and again.get(2) == b"settings"
    again.put(2, b"settings 2")
    assert Log(Flash(path).nvm).get(2) == b"settings 2"


def test_clear_forgets_everything():
    flash = Flash()
    log = Log(flash.nvm)
    log.put(1, b"a")
    log.put(2, b"b")
    log.clear()
    assert log.get(1) is None and log.end == 0
    assert flash.nvm[0:SIZE] == b"\xff" * SIZE and flash.erases == 1
    fresh = Log(flash.nvm)
    assert fresh.get(1) is None and fresh.get(2) is None and fresh.end == 0
    log.put(1, b"again")
    assert Log(flash.nvm).get(1) == b"again" and flash.erases == 1


@pytest.mark.parametrize("both", [False, True], ids=["crc-xxff", "crc-ffff"])
def test_a_record_whose_crc_ends_in_ff_bytes_is_not_appended_over(both):
    payload = payload_whose_crc_ends_in_ff(3, b"crc", both)
    flash = Flash()
    log = Log(flash.nvm)
    log.put(1, b"first")
    log.put(3, payload)
    end = len(rec(1, b"first")) + len(rec(3, payload))
    assert log.end == Log(flash.nvm).end == end
    Log(flash.nvm).put(2, b"after")
    fresh = Log(flash.nvm)
    assert fresh.get(3) == payload and fresh.get(2) == b"after" and fresh.get(1) == b"first"
    assert flash.erases == 0


# ----------------------------------------------------------------------------- erases

def test_saves_do_not_erase_until_the_log_is_full_then_once_per_compaction():
    flash = Flash()
    log = Log(flash.nvm)
    newest = {}
    rng = random.Random(5)
    compactions_seen = 0
    for i in range(2000):
        kind = rng.choice((1, 2, 3, 4, 9))
        payload = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 40)))
        will_fit = log.end + len(payload) + 5 <= SIZE
        erases_before = flash.erases
        log.put(kind, payload)
        newest[kind] = payload
        if will_fit:
            assert flash.erases == erases_before, "an append erased (save %d)" % i
        else:
            compactions_seen += 1
            assert flash.erases == erases_before + 1
            fresh = Log(flash.nvm)
            for k, p in newest.items():
                assert fresh.get(k) == p
            assert fresh.end == log.end == sum(len(p) + 5 for p in newest.values())
        assert flash.erases == log.compactions == compactions_seen
    assert compactions_seen >= 10
    assert flash.writes == log.appends + log.compactions == 2000
    fresh = Log(flash.nvm)
    assert {k: fresh.get(k) for k in newest} == newest


def test_a_compaction_that_cannot_fit_raises_and_writes_nothing():
    flash = Flash(size=256)
    log = Log(flash.nvm)
    log.put(1, b"a" * 200)
    before = flash.nvm[0:256]
    with pytest.raises(ValueError, match="payload"):
        log.put(2, b"b" * 200)
    assert flash.nvm[0:256] == before and flash.erases == 0 and log.get(2) is None
    log.put(1, b"c" * 200)  # replacing the only kind fits: compaction drops the old one
    assert Log(flash.nvm).get(1) == b"c" * 200 and flash.erases == 1


# ----------------------------------------------------------------------------- power cuts

def _history():
    flash = Flash()
    log = Log(flash.nvm)
    for kind, payload in ((1, b"one-a"), (2, b"two-a"), (3, b"three-a"), (2, b"two-b")):
        log.put(kind, payload)
    return flash


@pytest.mark.parametrize("kind,new", [
    (2, b"new \x00\xa5\xff value"),
    (9, b"first save of 9 \xa5"),
    (3, payload_whose_crc_ends_in_ff(3, b"crc ends in ff ")),
], ids=["replace", "first-save", "crc-ends-in-ff"])
def test_power_cut_at_every_byte_of_an_append(kind, new):
    before = _history()
    state = bytes(before.data)
    old = Log(before.nvm).get(kind)
    others = {k: Log(before.nvm).get(k) for k in (1, 2, 3, 9) if k != kind}
    record = rec(kind, new)
    whole = whole_from(record)
    for n in range(len(record) + 1):
        flash = flash_with(state)
        log = Log(flash.nvm)
        flash.cut_power_after(n)
        with pytest.raises(PowerCut):
            log.put(kind, new)
        assert flash.erases == 0
        assert flash.nvm[0:SIZE] == state[:log.end] + record[:n] + state[log.end + n:]
        after = Log(flash.nvm)
        assert after.get(kind) == (new if n >= whole else old), "cut after %d bytes" % n
        assert {k: after.get(k) for k in others} == others, "cut after %d bytes" % n
        # The next save (of another kind, then this one) lands after the torn bytes,
        # with no erase, and reads back; nothing else changes.
        after.put(4, b"later")
        again = Log(flash.nvm)
        assert again.get(4) == b"later" and again.get(kind) == after.get(kind)
        assert {k: again.get(k) for k in others} == others
        again.put(kind, b"later still")
        again = Log(flash.nvm)
        assert again.get(kind) == b"later still" and again.get(4) == b"later"
        assert {k: again.get(k) for k in others} == others and flash.erases == 0


def _full_log(kind, new):
    """A log with many superseded records whose erased tail is too short for rec(kind, new),
    and every payload each kind has had."""
    flash = Flash()
    log = Log(flash.nvm)
    saved = {1: [], 2: [], 3: [], 4: [], 77: []}
    lengths = {1: 20, 2: 8, 3: 40, 4: 3, 77: 1}
    i = 0
    need = len(new) + 5
    while SIZE - log.end >= need:
        kind_i = (1, 2, 3, 4, 77)[i % 5]
        payload = bytes((i + j) & 0xFF for j in range(lengths[kind_i]))
        if log.end + len(payload) + 5 > SIZE:
            payload = payload[:max(1, SIZE - log.end - 5)]
            if log.end + len(payload) + 5 > SIZE:
                break
        log.put(kind_i, payload)
        saved[kind_i].append(payload)
        i += 1
    assert log.compactions == 0 and SIZE - log.end < need and i > 100
    return flash, log, saved


@pytest.mark.parametrize("kind", [2, 9], ids=["replace", "first-save"])
def test_power_cut_at_every_byte_of_a_compaction(kind):
    new = b"the new value!"
    flash, log, saved = _full_log(kind, new)
    state, end = bytes(flash.data), log.end
    newest = {k: v[-1] for k, v in saved.items()}
    old = newest.get(kind)
    # The image the compaction must write: the new record first, then shortest first.
    rest = sorted((len(p), k) for k, p in newest.items() if k != kind)
    order = [kind] + [k for _, k in rest]
    final = dict(newest)
    final[kind] = new
    ends, at = {}, 0
    for k in order:
        r = rec(k, final[k])
        ends[k] = at + whole_from(r)
        at += len(r)
    used = at
    lost_at = []
    for n in range(SIZE + 1):
        flash.data[:] = state
        erases = flash.erases
        flash.cut_power_after(n)
        with pytest.raises(PowerCut):
            log.put(kind, new)
        assert flash.erases == erases + 1
        # A write that did not return leaves the in-memory view as it was.
        assert log.get(kind) == old and log.end == end and log.compactions == 0
        after = Log(flash.nvm)
        got = {k: after.get(k) for k in final}
        for k, p in got.items():
            assert p is None or p in saved.get(k, []) + [new], "cut %d: kind %d" % (n, k)
            assert p == (final[k] if n >= ends[k] else None), "cut %d: kind %d" % (n, k)
        if None in got.values():
            lost_at.append(n)
        after.put(kind, b"later")
        assert Log(flash.nvm).get(kind) == b"later"
    window = len(lost_at)
    report = ("compaction power-cut loss window: cuts after 0..%d of the 4,096 programmed "
              "image bytes lose records: %d bytes, the length of the compacted log (%d "
              "records); each kind is lost only if the cut falls before its own record's "
              "end; the kind being saved (first) only for cuts 0..%d (%d bytes, its own "
              "record, the same window as a torn append)"
              % (window - 1, window, len(order), ends[kind] - 1, ends[kind]))
    print(report)
    assert lost_at == list(range(window)), report
    assert window == ends[order[-1]] <= used, report
    assert ends[kind] == whole_from(rec(kind, new)), report
    # Outside the window the compaction is complete: the log holds exactly the newest values.
    flash.data[:] = state
    log.put(kind, new)
    assert log.compactions == 1 and log.end == used
    assert {k: Log(flash.nvm).get(k) for k in final} == final


# ----------------------------------------------------------------------------- bit flips

def _flip_history():
    """A log of several kinds and versions, with each record's kind and byte span."""
    flash = Flash()
    log = Log(flash.nvm)
    spans = []
    rng = random.Random(11)
    for i in range(24):
        kind = (1, 2, 3, 100)[i % 4] if i % 7 else 5
        payload = bytes(rng.randrange(256) for _ in range(rng.randrange(1, 24)))
        start = log.end
        log.put(kind, payload)
        spans.append((start, log.end, kind, payload))
    return flash, spans


FLIP_FLASH, FLIP_SPANS = _flip_history()
FLIP_END = FLIP_SPANS[-1][1]
FLIP_SAVED = {}
for _s, _e, _k, _p in FLIP_SPANS:
    FLIP_SAVED.setdefault(_k, []).append(_p)


def test_every_single_bit_flip_in_the_records_falls_back_to_the_previous_save():
    for offset in range(FLIP_END):
        hit = [s for s in FLIP_SPANS if s[0] <= offset < s[1]][0]
        expected = {}
        for span in FLIP_SPANS:
            if span is not hit:
                expected[span[2]] = span[3]
        for bit in range(8):
            flash = flash_with(FLIP_FLASH.data)
            flash.flip_bit(offset, bit)
            log = Log(flash.nvm)
            got = {k: log.get(k) for k in FLIP_SAVED if log.get(k) is not None}
            assert got == expected, "flip at byte %d bit %d" % (offset, bit)


@settings(max_examples=300, deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, FLIP_END + 63), st.integers(0, 7)),
                min_size=1, max_size=6))
def test_random_bit_flips_never_raise_and_only_return_saved_payloads(flips):
    flash = flash_with(FLIP_FLASH.data)
    for offset, bit in flips:
        flash.flip_bit(offset, bit)
    log = Log(flash.nvm)
    for kind in range(1, 255):
        got = log.get(kind)
        assert got is None or got in FLIP_SAVED.get(kind, []), (kind, got)
    log.put(3, b"still works")
    assert Log(flash.nvm).get(3) == b"still works"


# ----------------------------------------------------------------------------- garbage

def test_a_log_full_of_random_bytes_loads_and_takes_a_save():
    for seed in range(20):
        rng = random.Random(seed)
        flash = flash_with(bytes(rng.randrange(256) for _ in range(SIZE)))
        log = Log(flash.nvm)
        assert log.end == SIZE or flash.nvm[SIZE - 1] == 0xFF
        log.put(5, b"five")
        fresh = Log(flash.nvm)
        assert fresh.get(5) == b"five"


def test_all_zero_nvm_is_empty_and_full():
    flash = flash_with(bytes(SIZE))
    log = Log(flash.nvm)
    assert log.end == SIZE and all(log.get(k) is None for k in range(256))
    log.put(1, b"one")
    assert flash.erases == 1 and log.compactions == 1 and Log(flash.nvm).get(1) == b"one"


def test_unknown_kinds_are_kept_and_invalid_kinds_are_skipped():
    good = rec(77, b"from a newer firmware")
    kind0 = b"\xa5\x00\x01x" + binascii.crc_hqx(b"\xa5\x00\x01x", 0xFFFF).to_bytes(2, "big")
    kind255 = b"\xa5\xff\x01x" + binascii.crc_hqx(b"\xa5\xff\x01x", 0xFFFF).to_bytes(2, "big")
    len0 = b"\xa5\x01\x00" + binascii.crc_hqx(b"\xa5\x01\x00", 0xFFFF).to_bytes(2, "big")
    flash = flash_with(b"\x00\xa5\xa5" + kind0 + kind255 + len0 + good + b"\x13")
    log = Log(flash.nvm)
    assert log.get(77) == b"from a newer firmware"
    assert log.get(0) is None and log.get(255) is None and log.get(1) is None
    assert log.end == 3 + 6 + 6 + 5 + len(good) + 1
    flash.data[log.end:] = b"\x00" * (SIZE - log.end)  # full: the next save compacts
    log = Log(flash.nvm)
    log.put(1, b"one")
    fresh = Log(flash.nvm)
    assert fresh.get(77) == b"from a newer firmware" and fresh.get(1) == b"one"
    assert fresh.end == len(rec(1, b"one")) + len(good)


def test_lengths_that_run_past_the_end_are_skipped():
    flash = Flash()
    flash.data[SIZE - 10:SIZE - 7] = b"\xa5\x01\xc8"  # 200 bytes promised, 7 left
    tail = rec(2, b"xy")  # a valid record cut short by the end of the nvm
    flash.data[SIZE - 6:] = tail[:6]
    log = Log(flash.nvm)
    assert log.get(1) is None and log.get(2) is None and log.end == SIZE
    flash = Flash()
    flash.data[SIZE - 3:] = b"\xa5\x01\x01"  # too short for any record
    assert Log(flash.nvm).end == SIZE
    flash = Flash()
    flash.data[SIZE - 1] = 0xA5
    assert Log(flash.nvm).end == SIZE and Log(flash.nvm).get(1) is None


def test_a_record_exactly_filling_the_nvm():
    flash = Flash()
    log = Log(flash.nvm)
    while SIZE - log.end > 205:
        log.put(1, b"f" * 200)
    remaining = SIZE - log.end
    assert 6 <= remaining <= 205 and log.compactions == 0
    log.put(4, b"h" * (remaining - 5))
    assert log.end == SIZE and log.compactions == 0 and flash.erases == 0
    fresh = Log(flash.nvm)
    assert fresh.end == SIZE and fresh.get(4) == b"h" * (remaining - 5)
    fresh.put(4, b"next")
    again = Log(flash.nvm)
    assert flash.erases == 1 and again.get(4) == b"next" and again.get(1) == b"f" * 200


@settings(max_examples=200, deadline=None, derandomize=True)
@given(st.binary(max_size=600), st.integers(0, SIZE))
def test_any_bytes_anywhere_load_without_raising(blob, at):
    flash = Flash()
    blob = blob[:SIZE - at]
    flash.data[at:at + len(blob)] = blob
    log = Log(flash.nvm)
    assert len(flash.nvm[0:SIZE].rstrip(b"\xff")) <= log.end <= SIZE
    log.put(9, b"nine")
    assert Log(flash.nvm).get(9) == b"nine"


# ----------------------------------------------------------------------------- arguments

@pytest.mark.parametrize("kind", [0, 128, 200, 255, -1, 1000, "1", 1.0, None])
def test_put_rejects_a_bad_kind(kind):
    flash = Flash()
    with pytest.raises(ValueError, match="kind"):
        Log(flash.nvm).put(kind, b"x")
    assert flash.writes == 0


@pytest.mark.parametrize("payload", [b"", b"x" * 201, "text", None, 5, [1, 2]])
def test_put_rejects_a_bad_payload(payload):
    flash = Flash()
    with pytest.raises(ValueError, match="payload"):
        Log(flash.nvm).put(1, payload)
    assert flash.writes == 0


def test_put_accepts_the_limits():
    flash = Flash()
    log = Log(flash.nvm)
    log.put(1, b"x")
    log.put(127, b"y" * 200)
    log.put(3, memoryview(b"mv"))
    assert Log(flash.nvm).get(1) == b"x" and Log(flash.nvm).get(127) == b"y" * 200
    assert Log(flash.nvm).get(3) == b"mv"


# ----------------------------------------------------------------------------- on the board

def test_store_compiles_with_mpy_cross_and_stays_small():
    size, msg = mpy.compile_file(STORE_REL)
    assert size is not None, msg
    print("store.mpy: %d bytes" % size)
    assert size <= 3072, size  # 1,887 B before the tallies


def test_store_runs_in_micropython():
    r = mpvm.run(
        "import sys\n"
        "sys.path.insert(0, '/input')\n"
        "from firmware import store\n"
        "class N:\n"
        "    def __init__(self): self.d = bytearray(b'\\xff' * 4096); self.erases = 0\n"
        "    def __len__(self): return 4096\n"
        "    def __getitem__(self, s): return bytes(self.d[s])\n"
        "    def __setitem__(self, s, v):\n"
        "        if any(b != 255 for b in self.d[s]): self.erases += 1\n"
        "        self.d[s] = v\n"
        "n = N()\n"
        "log = store.Log(n)\n"
        "i = 0\n"
        "while log.compactions < 3:\n"
        "    log.put(1 + i % 5, bytes([i & 255]) * (1 + i % 30)); i += 1\n"
        "log.put(9, b'nine')\n"
        "n.d[log.end:log.end + 3] = b'\\xa5\\x02\\x09'\n"
        "again = store.Log(n)\n"
        "print('GOT', again.get(9), again.get(5) == log.get(5), again.end == log.end + 3)\n"
        "print('COUNTS', n.erases, log.compactions)\n"
        "print('CRC', store.crc16(b'123456789', 0, 9))\n")
    assert r.ok, r.error or r.output
    assert r.lines("GOT") == [["b'nine'", "True", "True"]], r.output
    assert r.lines("COUNTS") == [["3", "3"]], r.output
    assert r.lines("CRC") == [[str(0x29B1)]], r.output


ADVERSARIAL = {
    "all 0xA5": b"\xa5" * SIZE,
    "heads of the longest records": b"\xa5\x01\xc8" * (SIZE // 3) + b"\xa5" * (SIZE % 3),
    "heads one byte apart": bytes((0xA5, 0xA5, 0xC8, 0x00) * (SIZE // 4)),
}


@pytest.mark.parametrize("name", sorted(ADVERSARIAL))
def test_loading_garbage_of_record_heads_takes_steps_in_proportion_to_the_size(name):
    log = Log(flash_with(ADVERSARIAL[name]).nvm)
    windows = SIZE // 512 + 2
    record = 205  # the candidate that crosses the budget is counted whole
    assert log.steps <= 3 * SIZE + record + windows, log.steps  # unbounded: ~170 x SIZE
    assert log.damaged and log.end == SIZE
    log.put(7, b"after the garbage")  # the sector is rewritten: the save still lands
    assert Log(log._nvm).get(7) == b"after the garbage"


def test_a_healthy_full_log_loads_within_the_budget_and_is_not_damaged():
    flash = Flash()
    log = Log(flash.nvm)
    for i in range(400):
        log.put(1 + i % 3, bytes([i & 0xFF]) * (1 + i % 30))
    again = Log(flash.nvm)
    assert not again.damaged and again.steps <= SIZE + SIZE // 512 + 2
    assert again.get(1) == log.get(1) and again.get(3) == log.get(3)


def test_loading_feeds_the_watchdog_as_it_reads():
    fed = []
    Log(flash_with(ADVERSARIAL["all 0xA5"]).nvm, feed=lambda: fed.append(1))
    assert len(fed) >= SIZE // 512 - 1


# ----------------------------------------------------------------------------- tallies

def _tally(entries, base=b"base"):
    flash = Flash()
    log = Log(flash.nvm, fold=lambda kind: b"folded %d" % kind)
    log.put(2, base)
    for e in entries:
        log.add(2, e)
    return flash, log


ENTRIES = [bytes((i % 200, i * 7 & 0xFF)) for i in range(75)]  # three blocks' worth


def test_a_tally_reads_back_its_entries_in_order_across_blocks_without_erasing():
    flash, log = _tally(ENTRIES)
    log.put(1, b"a value between")
    log.add(2, b"\x01\x02")
    again = Log(flash.nvm)
    assert list(again.entries(2)) == ENTRIES + [b"\x01\x02"] and again.lost == 0
    assert again.get(2) == b"base" and again.get(1) == b"a value between"
    assert again.end == log.end and flash.erases == 0
    # 76 entries: 3 slots each, a block head (8 bytes) every 32 entries
    assert log.end == len(rec(2, b"base")) + len(rec(1, b"a value between")) + 3 * (8 + 32 * 3)


def test_a_new_base_starts_the_tally_afresh_and_old_blocks_count_for_nothing():
    flash, log = _tally(ENTRIES[:5])
    log.put(2, b"new base")
    log.add(2, b"\x09\x09")
    assert list(Log(flash.nvm).entries(2)) == [b"\x09\x09"]
    flash2, log2 = _tally(ENTRIES[:5])
    flash2.flip_bit(3, 0)  # the base's payload: the blocks no longer link to a base
    again = Log(flash2.nvm)
    assert again.get(2) is None and list(again.entries(2)) == []


def test_a_damaged_newer_base_is_noticed_and_the_older_one_is_in_force():
    flash, log = _tally(ENTRIES[:3])
    assert Log(flash.nvm).orphans == {}
    at = log.end
    log.put(2, b"newer base")
    log.add(2, b"\x09\x09")
    flash.flip_bit(at + 4, 1)  # the newer base's payload: its block is now an orphan
    again = Log(flash.nvm)
    assert again.get(2) == b"base" and list(again.entries(2)) == ENTRIES[:3]
    assert again.orphans == {2: 1}  # the app says so (firmware/restore.py)


def test_a_tally_needs_its_base_and_good_entries():
    log = Log(Flash().nvm)
    with pytest.raises(ValueError, match="with a value"):
        log.add(2, b"\x00\x00")
    log.put(2, b"base")
    log.put(127, b"no tally")
    for bad in (b"\xff\x00", b"\x00", b"\x00\x00\x00"):
        with pytest.raises(ValueError, match="2 bytes"):
            log.add(2, bad)
    for kind in (0, 127, 128):
        with pytest.raises(ValueError, match="kind"):
            log.add(kind, b"\x00\x00")


@pytest.mark.parametrize("count", [3, 32], ids=["in-a-block", "opening-a-block"])
def test_power_cut_at_every_byte_of_an_entry(count):
    state_flash, _ = _tally(ENTRIES[:count])
    state = bytes(state_flash.data)
    new = b"\x42\x24"
    for n in range(12):
        flash = flash_with(state)
        log = Log(flash.nvm, fold=lambda kind: b"folded")
        flash.cut_power_after(n)
        try:
            log.add(2, new)
        except PowerCut:
            pass
        after = Log(flash.nvm)
        got = list(after.entries(2))
        assert got in (ENTRIES[:count], ENTRIES[:count] + [new]), "cut after %d" % n
        assert after.lost <= 1 and (after.lost == 0 or got == ENTRIES[:count]), n
        after.add(2, b"\x07\x07")  # the next entry lands after the torn bytes: no erase
        assert list(Log(flash.nvm).entries(2)) == got + [b"\x07\x07"] and flash.erases == 0


def test_a_flipped_bit_in_a_slot_loses_that_entry_only_and_is_counted():
    flash, log = _tally(ENTRIES[:10])
    start = len(rec(2, b"base")) + 8
    for slot in range(10):
        for bit in range(24):
            n = flash_with(flash.data)
            n.flip_bit(start + 3 * slot + bit // 8, bit % 8)
            again = Log(n.nvm)
            got = list(again.entries(2))
            assert got == ENTRIES[:slot] + ENTRIES[slot + 1:10], (slot, bit)
            assert again.lost == 1


def test_a_compaction_folds_each_tally_into_its_base():
    flash, log = _tally(ENTRIES)
    log.put(1, b"one")
    assert not log.tidy(log.size - log.end)  # enough room: nothing happens
    assert flash.erases == 0
    assert log.tidy(log.size - log.end + 1)
    assert flash.erases == 1 and log.compactions == 1
    again = Log(flash.nvm)
    assert again.get(2) == b"folded 2" and list(again.entries(2)) == []
    assert again.get(1) == b"one"
    assert again.end == len(rec(1, b"one")) + len(rec(2, b"folded 2"))
    log.add(2, b"\x01\x01")  # the tally goes on after its new base
    assert list(Log(flash.nvm).entries(2)) == [b"\x01\x01"]
    bare = Log(flash.nvm)  # no fold: a tally with entries cannot be compacted
    with pytest.raises(ValueError, match="fold"):
        bare.compact()
    assert flash.erases == 1


def test_an_entry_that_finds_the_log_full_compacts_as_a_last_resort():
    flash, log = _tally([])
    while log.size - log.end > 300:
        log.put(3, b"x" * 100)
    for i in range(1000):
        entry = bytes((5, i & 0xFF))
        log.add(2, entry)
        if flash.erases:
            break
    assert flash.erases == 1 and 30 < i < 1000
    again = Log(flash.nvm)
    assert again.get(2) == b"folded 2" and list(again.entries(2)) == [entry]


def test_power_cut_in_the_erase_of_a_compaction_never_reads_a_value_not_saved():
    flash, log = _tally(ENTRIES)
    log.put(1, b"one")
    state = bytes(flash.data)
    for fraction in (0, 0.001, 0.01, 0.1, 0.5, 1):
        for seed in range(3):
            n = flash_with(state)
            n.cut_power_in_erase(fraction, seed)
            with pytest.raises(PowerCut):
                Log(n.nvm, fold=lambda kind: b"folded").tidy(SIZE)
            assert n.erases == 1
            after = Log(n.nvm)
            assert after.get(1) in (None, b"one") and after.get(2) in (None, b"base")
            if after.get(2) is None:
                assert list(after.entries(2)) == []
            else:
                got = list(after.entries(2))
                assert all(e in ENTRIES for e in got)
                assert len(got) + after.lost >= len(ENTRIES) or after.lost, (fraction, seed)
            if fraction == 1:
                assert after.get(1) is None and after.get(2) is None
            if fraction == 0:
                assert list(after.entries(2)) == ENTRIES and after.get(1) == b"one"


def test_the_reader_uses_the_writers_format_and_leaves_the_heap_after():
    import sys
    import firmware
    from firmware import store, storeload
    for name in ("_HEAD", "_OVERHEAD", "_MAX_KIND", "_TALLY", "_SLOT", "_MAX_PAYLOAD"):
        assert getattr(storeload, name) == getattr(store, name), name
    Log(Flash().nvm)
    assert "firmware.storeload" in sys.modules
    firmware.forget("firmware.storeload")
    assert "firmware.storeload" not in sys.modules and not hasattr(firmware, "storeload")
    flash, log = _tally(ENTRIES[:3])
    assert list(Log(flash.nvm).entries(2)) == ENTRIES[:3]  # imported again when needed
