"""The language the handheld speaks. Each language is one module of words
(firmware/lang_en.py, lang_fr.py, lang_pt.py, the same names in each), and only the
chosen one is in the heap: use() imports it and lets the one before go. The settings
page's words are a module of their own (firmware/fields_en.py, ...), in the heap only
while that page is open: fields() and forget_fields().

    from firmware import lang
    lang.use("fr")
    line.show(lang.words.TOO_LATE)
"""
import sys

import firmware

if False:  # names for type annotations: mypy reads them, the compiler drops them
    import types  # noqa: F401

CODES = ("en", "fr", "pt")  # the LANGUAGE setting's choices, in its order

# The chosen language's module; None until use() is first called.
words = None  # type: types.ModuleType  # type: ignore[assignment]
code = ""  # the chosen language's code ("" until use() is first called)


def use(language: str) -> None:
    """Speak a language: "en", "fr" or "pt" (English for any other). The app chooses one
    as it starts; another is chosen by starting afresh (firmware/app.py: restart)."""
    global words, code
    if language not in CODES:
        language = "en"
    if language == code:
        return
    words = None  # type: ignore[assignment]
    for other in CODES:  # the language spoken until now (and any other) goes first
        firmware.forget("firmware.lang_" + other)
    name = "firmware.lang_" + language
    __import__(name)
    words = sys.modules[name]
    code = language
    fields()  # (its names are interned now, not in the middle of play)
    forget_fields()


def fields() -> tuple:
    """The settings page's words in the chosen language: (label, choices) of each setting,
    in firmware/settings.py's order; imported when first wanted."""
    name = "firmware.fields_" + code
    if name not in sys.modules:
        __import__(name)
    return sys.modules[name].FIELDS


def forget_fields() -> None:
    """The settings page's words leave the heap (the page has closed)."""
    firmware.forget("firmware.fields_" + code)
