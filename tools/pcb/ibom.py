"""The interactive soldering guide: InteractiveHtmlBom's page of the board (click a part
in the list, see where it goes), run in the KiCad Python's own venv (.venv/kicad, from
requirements-kicad.txt: make pcb-setup) on a virtual X display of its own (Xvfb)."""
import contextlib
import os
import shutil
import signal
import subprocess

from tools.pcb import ROOT

IBOM_PYTHON = os.path.join(ROOT, ".venv", "kicad", "bin", "python")
OPTIONS = ["--no-browser", "--name-format", "ibom", "--blacklist", "H*", "--include-tracks",
           "--include-nets", "--highlight-pin1", "all", "--checkboxes", "Placed,Soldered",
           "--sort-order", "D,SW,R,DS,J,U,LS,SWP,BT,~"]


ATTEMPTS = 6


def missing():
    """'' when the guide can be made here, else what to install, in words."""
    if not shutil.which("Xvfb"):
        return ("the soldering guide needs Xvfb (apt-get install xvfb): InteractiveHtmlBom "
                "starts wxWidgets, which wants an X display")
    if not os.access(IBOM_PYTHON, os.X_OK) or subprocess.run(
            [IBOM_PYTHON, "-c", "import InteractiveHtmlBom"], capture_output=True,
            stdin=subprocess.DEVNULL).returncode:
        return ("the soldering guide needs InteractiveHtmlBom in %s: make pcb-setup installs "
                "requirements-kicad.txt there" % os.path.relpath(IBOM_PYTHON, ROOT))
    return ""


def command(board, folder):
    """The command that writes folder/ibom.html from the board file."""
    return [IBOM_PYTHON, "-m", "InteractiveHtmlBom.generate_interactive_bom",
            "--dest-dir", folder] + OPTIONS + [board]


@contextlib.contextmanager
def display():
    """A virtual X display (":N") for the length of the block: Xvfb says its number once
    it takes connections (-displayfd), so nothing races its start."""
    x = subprocess.Popen(["Xvfb", "-displayfd", "1", "-nolisten", "tcp", "-screen", "0",
                          "800x600x24"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        number = x.stdout.readline().strip()
        yield ":" + number.decode() if number else None
    finally:
        x.send_signal(signal.SIGTERM)
        x.wait()
