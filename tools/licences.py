"""The licences that go with the handheld's files: the project's own (LICENSE, MIT) and
the MIT notices of the Adafruit libraries the drive carries in lib/, read from their
pinned packages' metadata. `make deploy` writes them onto CIRCUITPY as LICENSES.txt, so
the UF2's drive and the bundle carry them; the page adds the chip twin's own."""
import importlib.metadata
import os

from tools.boardcode import LIBRARIES, ROOT

FILE = "LICENSES.txt"  # its name on the drive and on the page
PROJECT = os.path.join(ROOT, "LICENSE")


def _read(path):
    with open(path, encoding="utf-8") as f:
        return f.read().strip() + "\n"


def library(module):
    """(its name, version and licence, its licence text) of the pinned package that holds
    an importable module (adafruit_ticks: "adafruit-circuitpython-ticks 1.1.7, MIT"); LookupError
    naming the module when it has none."""
    names = importlib.metadata.packages_distributions().get(module) or ()
    for name in names:
        dist = importlib.metadata.distribution(name)
        for listed in dist.metadata.get_all("License-File") or ():
            for where in ("licenses/" + listed, listed):  # metadata 2.4 (PEP 639), older
                text = dist.read_text(where)
                if text:
                    kind = dist.metadata["License-Expression"] or dist.metadata["License"]
                    return ("%s %s, %s" % (dist.metadata["Name"], dist.version, kind),
                            text.strip() + "\n")
    raise LookupError("no licence file in the package that holds %s (is requirements.txt "
                      "installed?)" % module)


def section(title, text):
    """One licence under a heading line."""
    return "== %s ==\n\n%s" % (title, text)


def drive_text():
    """LICENSES.txt as CIRCUITPY carries it: the project's licence, then each library's."""
    parts = [section("California Speed (the files on this drive), MIT", _read(PROJECT))]
    for module in LIBRARIES:
        what, text = library(module)
        parts.append(section("%s (lib/%s)" % (what, module), text))
    return "\n".join(parts)
