"""Full-screen pages in the small font: a title, up to six items, a hint line.

Used by the main menu, the settings, the pause screen and the statistics. A page faces
one player (the app turns the display for B); the chosen item has an arrow, and arrows in
the corners say when there is more above or below.
"""
import displayio

from firmware import glyphs
from firmware.ui import LINE_CHARS, Kit, TextLine

ROWS = 6
_ARROW = bytes((glyphs.ICON_RIGHT,))
_MORE_UP = bytes((glyphs.ICON_UP,))
_MORE_DOWN = bytes((glyphs.ICON_DOWN,))
_ARROWS = "".join([chr(c) for c in (glyphs.ICON_UP, 32, glyphs.ICON_DOWN, 32,
                                     glyphs.ICON_LEFT, 32, glyphs.ICON_RIGHT, 32)])


def hint(back: str) -> str:
    """The foot of a page: the four arrows, then what MENU does (back: "MENU:BACK")."""
    return _ARROWS + back


class Page:
    """Eight text lines; draw() writes a list of items and marks the chosen one."""

    def __init__(self, kit: Kit) -> None:
        self.group = displayio.Group()
        self.lines = [TextLine(kit, LINE_CHARS, 1, 8 * i) for i in range(ROWS + 2)]
        for line in self.lines:
            self.group.append(line.grid)
        self.top = 0

    def draw(self, title: str, labels: tuple[str, ...] | list[str],
             values: list[str] | None, chosen: int, foot: str, top: int = -1) -> None:
        """Show labels (with values right-aligned, if given); chosen < 0 marks nothing.
        top >= 0: the first row shown (a page that scrolls and has no chosen item)."""
        if top >= 0:
            self.top = top
        elif chosen >= 0:
            if chosen < self.top:
                self.top = chosen
            elif chosen >= self.top + ROWS:
                self.top = chosen - ROWS + 1
        else:
            self.top = 0
        self.lines[0].center(title)
        if self.top > 0:
            self.lines[0].put(LINE_CHARS - 1, _MORE_UP)
        for r in range(ROWS):
            i = self.top + r
            line = self.lines[1 + r]
            if i >= len(labels):
                line.show(b"")
                continue
            value = values[i] if values else ""
            line.put(0, _ARROW if i == chosen else b" ")
            col = line.put(1, labels[i])
            start = LINE_CHARS - len(value)
            line.fill(col, start)
            line.put(start, value)
        self.lines[-1].center(foot)
        if self.top + ROWS < len(labels):
            if len(foot) > LINE_CHARS - 3:  # a column between a long foot and the arrow
                self.lines[-1].show(foot)
            self.lines[-1].put(LINE_CHARS - 1, _MORE_DOWN)
