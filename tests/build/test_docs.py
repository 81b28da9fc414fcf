"""The documents say what the handheld shows, and the README is in a newcomer's order.

Every menu list, settings list and message README.md and docs/*.md quote is compared with
the glass the firmware draws (the desktop twin, read as its players read it): a list of a
page's items or a setting's choices is a run of them in the glass's order (a list that
names the page's title, or starts at its first item, is the whole page, or the first
screenful of it with the title); "LABEL: CHOICES" are that setting's choices; "set LABEL to
VALUE" names one of them; a `QUOTED` phrase in capitals is something the glass showed (or a
name of the engine's API or of a tool), and a "QUOTED" HOW TO PLAY page is that page.
"""
import glob
import os
import re
import sys
import types

import pytest

from engine import Rules
from handheld import A, B, BOOTED, SEEN, Hand
from twins.desktop import glass, scenes

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DOCS = ["README.md"] + sorted(os.path.relpath(p, ROOT)
                              for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))
RELEASE = "v1.0"  # BUILD.md's self-test picture: release v1.0 ...
CIRCUITPYTHON = (10, 3, 1)  # ... on the CircuitPython make toolchain fetches
MEM_FREE_KB = 120  # ... with this much free memory
WORDS = {"two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
         "nine": 9}
# The README's old headings: each is a heading of the README or of a docs/ page it links.
HEADINGS = {
    "California Speed handheld": "README.md", "Quick start": "README.md",
    "The keys": "README.md", "On the handheld": "README.md",
    "Put it on the Pico": "README.md", "Build one": "README.md", "In a browser": "README.md",
    "CircuitPython's own VM": "docs/TWINS.md", "The chip twin": "docs/TWINS.md",
    "Scripts, screenshots and bug reports": "docs/TWINS.md",
    "The toolchain: `make toolchain`": "docs/SHIPPING.md",
    "How the repository is laid out": "docs/ENGINEERING.md",
    "What `make test` checks": "docs/ENGINEERING.md", "Figures": "docs/ENGINEERING.md",
    "The simulation lab: playing against the computer": "docs/LAB.md",
}
# What a newcomer needs, in order: what it is, play it, the keys, on the handheld, put it
# on a Pico, build one; then the links to how it is made.
README_ORDER = ["In a browser", "Quick start", "The keys", "On the handheld",
                "Put it on the Pico", "Build one", "How it is made"]
README_MAX_BYTES = 16000  # read in a few minutes


# ---- what the glass shows ----

class Glass:
    """What the tour read off the glass: pages {name: [title, items...]} and their first
    screens, choices {label: [[choices in the glass's order], ...]} (one list a build; a
    setting that wraps is a ring), HOW TO PLAY's pages, what the info lines and banners
    said in play, and every line it saw."""

    def __init__(self):
        self.pages, self.first, self.choices, self.rings = {}, {}, {}, set()
        self.howto, self.said, self.seen = [], set(), set()

    def look(self, h):
        """Keep every line of the glass as it shows now (both seats' info lines too)."""
        self.seen.update(line.strip() for line in h.lines)
        for seat in (A, B):
            self.said.update((h.info(seat), h.banner(seat) or ""))
        self.seen |= self.said

    def page(self, h, name):
        """Read the page on the glass as it opens (its title and first screen), then all
        its items."""
        title = h.lines[0].strip()
        on_screen = [line[1:] for line in h.lines[1:7]]
        self.look(h)
        items = list(h.items())
        self.look(h)
        self.first[name] = [title] + [i for i in items if any(
            line == i or line.startswith(i + " ") for line in on_screen)]
        self.pages[name] = [title] + items

    def choices_of(self, h, label, player="A"):
        """Step the setting (or menu item) `label` from end to end with LEFT and RIGHT,
        keeping its choices as the glass shows them; it is left where it began when it
        wraps round."""
        for _ in range(24):
            if h.arrowed()[0] == label:
                break
            h.tap(player + "1")
        start, last, ring = h.arrowed()[1], h.arrowed()[1], False
        for _ in range(300):  # to the left end, or round to the start
            h.tap(player + "2")
            now = h.arrowed()[1]
            if now in (start, last):
                ring = now == start and now != last
                break
            last = now
        seen = [h.arrowed()[1]]
        for _ in range(300):
            h.tap(player + "3")
            now = h.arrowed()[1]
            if now in (seen[0], seen[-1]):
                break
            seen.append(now)
        self.seen.update(seen)
        self.choices.setdefault(label, []).append(seen)
        if ring:
            self.rings.add(label)


def _settings_and_menus(g, keys):
    """The main menu, CPU LEVEL's choices, the settings page and each setting's choices,
    the statistics and HOW TO PLAY, on a new handheld; on the matrix build, what it
    changes: PILES."""
    h = Hand(settings={"CS_KEYS": keys})
    h.run_until(BOOTED)
    if keys == "matrix":
        h.choose("SETTINGS")
        g.choices_of(h, "PILES")
        return
    g.page(h, "main")
    g.choices_of(h, "CPU LEVEL")
    h.choose("SETTINGS")
    g.page(h, "settings")
    for label in g.pages["settings"][1:]:
        g.choices_of(h, label)
    h.tap("MENU")
    h.choose("STATISTICS")
    g.page(h, "statistics")
    h.tap("MENU")
    h.choose("HOW TO PLAY")
    while True:
        g.look(h)
        text = " ".join(line.strip() for line in h.lines[3:7])
        if text in g.howto:
            break
        g.howto.append(text)
        h.tap("A3")


def _selftest(g):
    """The self-test on a board of BUILD.md's picture: its lines while MENU, held at
    power-up, is still down, then as keys go down and up."""
    import gc
    from firmware import version
    circuitpython = dict(vars(sys.implementation), name="circuitpython",
                         version=CIRCUITPYTHON)
    with pytest.MonkeyPatch.context() as m:
        m.setattr(sys, "implementation", types.SimpleNamespace(**circuitpython))
        m.setattr(gc, "mem_free", lambda: MEM_FREE_KB * 1024, raising=False)
        m.setattr(version, "VERSION", RELEASE)
        h = Hand(held=("MENU",))
        h.run_until(2500)
    assert h.screen == "selftest"
    g.look(h)
    g.pages["selftest"] = [line.strip() for line in h.lines]
    h.release("MENU")
    h.run_until(h.now + 200)
    g.look(h)
    for key in ("MENU", "Af0", "A0", "B0", "Bf0"):
        h.press(key, h.now)
        h.run_until(h.now + 200)
        g.look(h)
        h.release(key, h.now)
        h.run_until(h.now + 200)
        g.look(h)


def _dealt(lang=None, decks=scenes.DECKS, **options):
    """A two-player match dealt from stacked decks and seen (A's 5c and B's 5d a pair)."""
    h = Hand(decks=decks, rules=Rules(**options), lang=lang)
    h.tap("A3", at=400)
    h.run_until(h.now + SEEN)
    return h


def _play(g):
    """The messages and banners of play: each refusal, a stall, a key held, a game and a
    match won, a draw declared, B joining the computer's match; TOO LATE in each language."""
    h = _dealt()
    t = h.tap("A1")  # a foul, then a press in its lockout
    g.look(h)
    h.tap("A2", at=t + 200)
    g.look(h)
    for lang in (None, "fr", "pt"):  # a race lost: B presses A's pile 100 ms after A
        h = _dealt(lang)
        t = h.now
        h.press("A0", t)
        h.release("A0", t + 60)
        h.press("Bf3", t + 100)
        h.release("Bf3", t + 160)
        h.run_until(t + 300)
        g.look(h)
    for seed in range(1, 40):  # the coin toss: both in one instant, until one loses it
        h = Hand(decks=scenes.DECKS, rules=Rules(), seed=seed)
        h.tap("A3", at=400)
        h.run_until(h.now + SEEN)
        for key in ("A0", "Bf3"):
            h.press(key, h.now)
        h.run_until(h.now + 100)
        g.look(h)
        if any("LOST TOSS" in line for line in g.said):
            break
    h = _dealt()
    h.tap("A0")
    h.tap("B0", at=h.now + 100)  # nothing left to cover: NO MATCH
    g.look(h)
    h = _dealt()
    h.press("A1", h.now)  # a key held down: KEY HELD
    h.run_until(h.now + 3500)
    g.look(h)
    for wins in (2, 1):  # A places the last card: the game, then the match
        h = _dealt(decks=scenes.ONE_LEFT, wins_needed=wins)
        h.tap("A0")
        h.run_until(h.now + 1200)
        g.look(h)
    h = _dealt()
    h.hold("MENU", 800)
    g.page(h, "pause")
    h.choose("DECLARE DRAW")
    g.look(h)
    h = Hand()
    h.run_until(BOOTED)
    h.choose("VS COMPUTER")
    h.run_until(h.now + SEEN)
    h.tap("B1")
    g.look(h)


def _on_cells(g):
    """The gauge on 3 AAA cells nearly empty (VSYS 2.8 V): the menu's title, the
    self-test's CELLS line and the warning a match starts with, in each language."""
    for code in ("en", "fr", "pt"):
        h = Hand(cells=2.8, lang=code)
        h.run_until(1500)
        g.look(h)
        h.tap("A3", at=h.now + 100)
        h.run_until(h.now + 400)
        g.look(h)
    h = Hand(cells=2.8, held=("MENU",))
    h.run_until(2500)
    g.seen.add(glass.text_at(h.glass, 1, 31, 18).strip())  # (its line between the keys)


@pytest.fixture(scope="module")
def seen():
    g = Glass()
    _settings_and_menus(g, "direct")
    _settings_and_menus(g, "matrix")
    _selftest(g)
    _play(g)
    _on_cells(g)
    return g


def test_the_tour_reads_what_the_documents_quote(seen):
    """The glass was read: the tour is no vacuous pass."""
    assert seen.pages["main"][:3] == ["CALIFORNIA SPEED", "2 PLAYERS", "VS COMPUTER"]
    assert len(seen.pages["settings"]) > 10 and len(seen.howto) >= 5
    assert ["4 A ROW", "3 A ROW", "6 A ROW"] in seen.choices["PILES"]
    for said in ("FOUL!", "LOCKED", "TOO LATE", "TROP TARD", "TARDE DEMAIS", "LOST TOSS",
                 "NO MATCH", "KEY HELD", "YOU WIN!", "MATCH LOST", "DRAW", "B JOINS IN",
                 "ANY KEY:NEXT"):
        assert any(said in line for line in seen.said), said
    for shown in ("A 500MS+8", "MENU UP", "A FAR 1 DOWN", "I2C 3C 400K MEM 120K"):
        assert shown in seen.seen, shown


# ---- what the documents quote ----

def _paragraphs(doc):
    """(line number, text) of each paragraph, list item or table row outside code blocks,
    its lines joined by single spaces."""
    text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
    out, block, start, code = [], [], 0, False
    for n, line in enumerate(text.split("\n"), 1):
        if line.startswith("```"):
            code = not code
            line = ""
        if code or not line.strip() or line.startswith("|"):
            if block:
                out.append((start, " ".join(block)))
            block = []
            if line.startswith("|") and not code:
                out.append((n, line))
            continue
        if block and re.match(r"\s*(?:[-*]|\d+\.) ", line):
            out.append((start, " ".join(block)))
            block = []
        if not block:
            start = n
        block.append(line.strip())
    if block:
        out.append((start, " ".join(block)))
    return out


def _code_blocks(doc):
    """The lines of each code block of a document."""
    text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
    return [block.split("\n") for block in re.findall(r"^```[^\n]*\n(.*?)^```", text,
                                                      re.M | re.S)]


CAPS = "A-Z\u00c0-\u00de"
WORD = r"[%s0-9](?:[%s0-9!+/'-]|\.(?=\S))*" % (CAPS, CAPS)  # (a full stop ends a sentence)
ITEM = r"[*`]{0,2}(%s(?: %s)*)(?!\w|\.\S)[*`]{0,2}(?: \([^()]*\))?" % (WORD, WORD)
SEP = r"(?:,? or |,? and |, )"
LISTS = re.compile(r"(?<![\w`*])%s(?:%s%s){2,}" % (ITEM, SEP, ITEM))


def _items(text):
    """The phrases in capitals of a list, each with a letter."""
    found = re.findall(ITEM, text)
    return [i for i in found if re.search("[%s]" % CAPS, i)]


def _where(seen):
    """{name: (sequence, is a page, wraps)} of every list the glass shows."""
    out = {name: (items, True, False) for name, items in seen.pages.items()
           if name != "selftest"}
    for label, lists in seen.choices.items():
        for build, choices in enumerate(lists):
            out["%s (%d)" % (label, build)] = (choices, False, label in seen.rings)
    return out


def _a_run(items, sequence, ring):
    """True when items follow one another in sequence (round its end if it is a ring)."""
    if any(i not in sequence for i in items):
        return False
    n = len(sequence)
    for a, b in zip(items, items[1:]):
        i, j = sequence.index(a), sequence.index(b)
        if not (j == i + 1 or (ring and j == (i + 1) % n)):
            return False
    return True


def _quoted_lists(seen):
    """[(document, line, items, the glass's list it quotes, wrong)] for every list of three
    or more phrases in capitals that mostly quotes one list the glass shows."""
    where = _where(seen)
    out = []
    for doc in DOCS:
        for n, para in _paragraphs(doc):
            for m in LISTS.finditer(para):
                items = _items(m.group(0))
                if len(items) < 3:
                    continue
                name, hits = max(((k, sum(i in v[0] for i in items)) for k, v in where.items()),
                                 key=lambda kv: kv[1])
                if hits < 2:
                    continue
                sequence, is_page, ring = where[name]
                candidates = [v for v in where.values() if v[1] == is_page
                              and sum(i in v[0] for i in items) == hits]  # (either build)
                right = any(_a_run(items, s, r) for s, _, r in candidates)
                if right and is_page and items[0] in (sequence[0], sequence[1]):
                    whole = [s for s, _, _ in candidates]
                    firsts = [seen.first.get(k) for k in seen.first if seen.pages[k] in whole]
                    right = items in whole + firsts if items[0] == sequence[0] else \
                        items in [s[1:] for s in whole]
                out.append((doc, n, items, name, not right))
    return out


def test_every_list_of_a_page_or_a_settings_choices_is_the_glasss_own(seen):
    quoted = _quoted_lists(seen)
    wrong = ["%s:%d: %s (the glass: %s)" % (doc, n, ", ".join(items), name)
             for doc, n, items, name, bad in quoted if bad]
    assert wrong == [], "\n".join(wrong)
    # the lists this test is for are among those it found
    found = {(doc, name.split(" (")[0]) for doc, _, _, name, _ in quoted}
    assert {("docs/BUILD.md", "main"), ("README.md", "main"), ("README.md", "settings"),
            ("README.md", "pause"), ("README.md", "CPU LEVEL")} <= found, found


def _listed(text):
    """[(choice, a … before it)] of 'A, B … C' at the start of text."""
    out, pos, gap = [], 0, False
    item = re.compile(ITEM)
    while True:
        dots = re.compile(r" ?… ?").match(text, pos)
        if dots:
            gap, pos = True, dots.end()
        m = item.match(text, pos)
        if not m or not re.search("[%s]" % CAPS, m.group(1)):
            return out
        out.append((m.group(1), gap))
        gap, pos = False, m.end()
        sep = re.compile(r", (?!…)|, ").match(text, pos)
        if sep:
            pos = sep.end()
        elif not text.startswith(" …", pos) and not text.startswith("…", pos):
            return out


def _is_quote_of(said, choices, ring):
    """True when [(choice, gap before it)] quotes choices: a run of them (… leaving a
    gap, the order kept), all of them when there is no gap and more than one."""
    items = [c for c, _ in said]
    if any(c not in choices for c in items):
        return False
    for (a, _), (b, gap) in zip(said, said[1:]):
        i, j = choices.index(a), choices.index(b)
        if not gap and not (j == i + 1 or ring and j == (i + 1) % len(choices)):
            return False
        if gap and not ring and j <= i:
            return False
    return any(gap for _, gap in said) or len(items) == 1 or sorted(items) == sorted(choices)


def test_every_settings_choices_quoted_after_its_label_are_its_choices(seen):
    """'LABEL: A, B, C' (all of its choices, or a run with … for the gaps), 'set LABEL to
    VALUE', 'LABEL set to VALUE', 'LABEL at VALUE' and 'SETTINGS → LABEL VALUE'."""
    names = "|".join(re.escape(label) for label in sorted(seen.choices, key=len, reverse=True))
    alone = r"(?<![%s])(?<![%s] )" % (CAPS, CAPS)
    value = r"\**([%s0-9][%s0-9 +/.]*[%s0-9+]|[%s])\**" % (CAPS, CAPS, CAPS, CAPS)
    named = re.compile(r"%s\**(%s)\**(?: set)? (?:to|at) %s" % (alone, names, value))
    arrowed = re.compile(r"SETTINGS → (%s) %s" % (names, value))
    labelled = re.compile(r"%s(%s): " % (alone, names))
    wrong, count = [], 0
    for doc in DOCS:
        for n, para in _paragraphs(doc):
            for m in list(named.finditer(para)) + list(arrowed.finditer(para)):
                count += 1
                label, said = m.group(1), m.group(2).strip()
                if not any(said == c or said.startswith(c + " ")
                           for choices in seen.choices[label] for c in choices):
                    wrong.append("%s:%d: %s %s" % (doc, n, label, said))
            for m in labelled.finditer(para):
                said = _listed(para[m.end():])
                if not said:
                    continue
                count += 1
                label = m.group(1)
                if not any(_is_quote_of(said, choices, label in seen.rings)
                           for choices in seen.choices[label]):
                    wrong.append("%s:%d: %s: %s (the glass: %s)" % (
                        doc, n, label, said, seen.choices[label]))
    assert wrong == [], "\n".join(wrong)
    assert count >= 10  # BUILD.md's FLIP SCREEN, SOUND and PILES; RULES.md's table; ...


def _names():
    """Names of the engine's API and of the tools a document may quote in capitals, and
    the tools' words (the release's SHA256SUMS)."""
    import engine
    from tools import release, toolchain
    modules = (engine, toolchain, release)
    return {n for m in modules for n in dir(m)} | {
        v for m in modules for v in vars(m).values() if isinstance(v, str)}


def test_every_quoted_phrase_in_capitals_is_one_the_glass_showed(seen):
    """`FOUL!`, `A 120MS`, `I2C 3C 400K MEM …K` (… stands for what varies): each phrase
    of the glass's characters with a word in capitals is part of a line the glass showed,
    in one of the languages (key names such as `A0` and formulas such as `2N` have no
    such word)."""
    glass_like = re.compile(r"^[%s0-9][%s0-9 !?:+/.'…-]*$" % (CAPS, CAPS))
    names = _names()
    wrong, count = [], 0
    for doc in DOCS:
        for n, para in _paragraphs(doc):
            for quote in re.findall(r"`([^`\n]+)`", para):
                if not glass_like.match(quote) or not re.search("[%s]{2}" % CAPS, quote):
                    continue
                count += 1
                pattern = re.compile(".+".join(re.escape(p) for p in quote.split("…")))
                if not any(pattern.search(line) for line in seen.seen) \
                        and quote not in names:
                    wrong.append("%s:%d: `%s`" % (doc, n, quote))
    assert wrong == [], "\n".join(wrong)
    assert count >= 30


def test_how_to_play_is_quoted_page_for_page_and_counted_right(seen):
    pages, count = len(seen.howto), 0
    wrong = []
    for doc in DOCS:
        for n, para in _paragraphs(doc):
            for quote in re.findall(r'"([%s0-9][^"]{20,})"' % CAPS, para):
                if quote.upper() == quote:
                    count += 1
                    if quote not in seen.howto:
                        wrong.append("%s:%d: %r" % (doc, n, quote))
            for said in re.findall(r"(?i:how to play)\W[^.]*?\b(%s) pages" % "|".join(WORDS),
                                   para):
                count += 1
                if WORDS.get(said.lower()) != pages:
                    wrong.append("%s:%d: %s pages (the glass: %d)" % (doc, n, said, pages))
    assert wrong == [], "\n".join(wrong)
    assert count >= pages + 2  # RULES.md's pages, and the README's and RULES.md's count


def test_the_self_tests_picture_is_the_glass(seen):
    """BUILD.md's picture of the self-test: its first two lines and its last are the
    glass's, on release v1.0 with 120 KB free, MENU still held from power-up."""
    pictures = [block for doc in DOCS for block in _code_blocks(doc)
                if block and block[0].strip() == seen.pages["selftest"][0]]
    assert pictures
    for block in pictures:
        lines = [line.strip() for line in block if line.strip()]
        top = [line.split("  ")[0] if "[" in line else line for line in lines[:2]]
        assert top == seen.pages["selftest"][:2]
        assert lines[-1] == seen.pages["selftest"][7]


# ---- the README's order and where its sections went ----

def _headings(doc):
    text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
    text = re.sub(r"^```.*?^```", "", text, flags=re.M | re.S)
    return re.findall(r"^#+ (.+)$", text, re.M)


def test_the_readme_is_in_a_newcomers_order_and_short():
    assert [h for h in _headings("README.md") if h in README_ORDER] == README_ORDER
    assert [h for h in _headings("README.md")][1:] == README_ORDER
    size = os.path.getsize(os.path.join(ROOT, "README.md"))
    assert size <= README_MAX_BYTES, size
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        text = f.read()
    assert "make play    # " in text and "make test    # " in text  # the quick start
    opening = text[:text.index("\n## ")]
    assert "github.io" in opening and "raspberry_pi_pico-cp10.uf2" in opening


def test_every_heading_of_the_old_readme_is_in_the_readme_or_a_page_it_links():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    for heading, doc in HEADINGS.items():
        assert heading in _headings(doc), (heading, doc)
        if doc != "README.md":
            assert "](%s" % doc in readme, doc


def _anchor(heading):
    """GitHub's anchor of a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.lower().replace("`", ""))
    return text.replace(" ", "-")


def test_every_anchor_a_document_links_is_a_heading_of_its_target():
    broken, count = [], 0
    for doc in DOCS:
        text = open(os.path.join(ROOT, doc), encoding="utf-8").read()
        for target in re.findall(r"\]\(([^)\s]*#[^)\s]+)\)", text):
            path, anchor = target.split("#", 1)
            if re.match(r"[a-z]+:", path):
                continue
            count += 1
            linked = os.path.normpath(os.path.join(os.path.dirname(doc), path)) if path else doc
            if not linked.endswith(".md") or not os.path.exists(os.path.join(ROOT, linked)):
                continue  # (a file's link: test_build_kit follows those)
            if anchor not in {_anchor(h) for h in _headings(linked)}:
                broken.append("%s: %s" % (doc, target))
    assert broken == []
    assert count >= 10
