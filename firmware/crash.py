"""The error screen, shown by firmware.app.run() after an unexpected error. Imported only
then, when the app that failed has left the heap, so its code costs the running handheld
nothing."""
import displayio

from firmware import lang
from firmware.ui import Kit, TextLine, LINE_CHARS

if False:  # names for type annotations: mypy reads them, the compiler drops them
    from hardware.contract import Target


def show(hw: "Target", error: BaseException) -> None:
    """The error screen: what happened, in short, and how to go on."""
    kit = Kit()
    group = displayio.Group()
    text = (repr(error) + " " * LINE_CHARS * 3)[:LINE_CHARS * 3]
    words = lang.words
    if words is None:  # the error came before a language was chosen
        from firmware import lang_en as words
    said = words.ERROR
    rows = (said[0], "", text[:21], text[21:42], text[42:63], "", said[1], said[2])
    for i, row in enumerate(rows):
        line = TextLine(kit, LINE_CHARS, 1, 8 * i)
        line.center(row)
        group.append(line.grid)
    hw.display.root_group = group
    hw.display.rotation = 0
    hw.display.refresh()
