"""The schematic make pcb writes beside the board (hardware/pcb/california-speed.kicad_sch):
KiCad 9's ERC finds nothing in it, the board and it agree part for part and pad for net
(kicad-cli pcb drc --schematic-parity: the footprints carry their symbols' UUIDs), its
netlist joins what the pin map says, and its PDF (docs/schematic.pdf) is linked from the
README and docs/BUILD.md."""
import json
import os
import re
import subprocess

import pytest

from hardware import pinmap
from tools.boardcode import ROOT
from tools.pcb import kicad_missing

PCB = os.path.join(ROOT, "hardware", "pcb")
SCHEMATIC = os.path.join(PCB, "california-speed.kicad_sch")
BOARD = os.path.join(PCB, "california-speed.kicad_pcb")
NO_KICAD = kicad_missing()
needs_kicad = pytest.mark.skipif(NO_KICAD != "", reason=NO_KICAD)


@needs_kicad
def test_kicads_erc_finds_no_error_and_no_warning(tmp_path):
    report = tmp_path / "erc.json"
    p = subprocess.run(["kicad-cli", "sch", "erc", "--severity-all", "--format", "json",
                        "-o", str(report), SCHEMATIC], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    erc = json.loads(report.read_text())
    found = [v["description"] for sheet in erc["sheets"] for v in sheet["violations"]]
    assert len(erc["sheets"]) == 1 and found == []


@needs_kicad
def test_the_board_and_the_schematic_agree(tmp_path):
    report = tmp_path / "drc.json"
    p = subprocess.run(["kicad-cli", "pcb", "drc", "--severity-all", "--schematic-parity",
                        "--format", "json", "-o", str(report), BOARD], capture_output=True,
                       text=True, check=True)
    drc = json.loads(report.read_text())
    # the check ran: KiCad found the schematic and read its netlist (without one it says
    # so and reports no parity problem at all)
    assert os.path.exists(SCHEMATIC)
    assert "Failed to fetch schematic netlist" not in p.stdout + p.stderr
    assert [v["description"] for v in drc["schematic_parity"]] == []
    assert [v["description"] for v in drc["violations"]] == []


@needs_kicad
def test_the_schematics_netlist_joins_the_pin_maps_pins(tmp_path):
    netlist = tmp_path / "net.xml"
    subprocess.run(["kicad-cli", "sch", "export", "netlist", "--format", "kicadxml", "-o",
                    str(netlist), SCHEMATIC], capture_output=True, check=True)
    text = netlist.read_text()
    nets = {}
    for name, body in re.findall(r'<net code="\d+" name="([^"]*)"[^>]*>(.*?)</net>', text,
                                 re.S):
        nets[name] = sorted(re.findall(r'<node ref="([^"]+)" pin="([^"]+)"', body))
    from tools.pcb import PICO_GPIO

    def pico_pin(setting):
        return ("U1", str(PICO_GPIO[int(pinmap.default(setting)[2:])]))
    sda = [n for n, nodes in nets.items() if pico_pin("CS_I2C_SDA") in nodes]
    assert sda and ("J1", "4") in nets[sda[0]]
    menu = [n for n, nodes in nets.items() if pico_pin("CS_MENU") in nodes]
    assert ("SW25", "1") in nets[menu[0]]
    for r, gp in enumerate(pinmap.default("CS_MATRIX_ROWS").split(",")):
        row = [n for n, nodes in nets.items() if ("U1", str(PICO_GPIO[int(gp[2:])])) in nodes]
        cathodes = sorted(d for d, pin in nets[row[0]] if d.startswith("D") and pin == "1")
        assert cathodes == sorted("D%d" % (6 * r + c + 1) for c in range(6)), gp


def test_the_schematics_pdf_is_linked_from_the_readme_and_the_build_guide():
    assert os.path.getsize(os.path.join(ROOT, "docs", "schematic.pdf")) > 10000
    for doc, link in (("README.md", "docs/schematic.pdf"), ("docs/BUILD.md", "schematic.pdf"),
                      ("docs/BUILD.md", "ibom.html")):
        with open(os.path.join(ROOT, doc)) as f:
            assert "(%s)" % link in f.read(), (doc, link)
