"""The parts' footprints: KiCad's own from its libraries, and the Pico's and the OLED's
made here from their datasheets; with pcbnew's units and the stable UUIDs."""
import os
import sys
import uuid

from tools.pcb import (LIB, LIBS, NS, OLED_GLASS, OLED_H, OLED_PINS, OLED_TOP, OLED_W,
                       PICO_L, PICO_PAD, PICO_PAD_REACH, PICO_ROWS, PICO_USB_HOLES, PICO_W,
                       STROKE, TEXT, fail)

try:
    import pcbnew
except ImportError:
    pcbnew = None


def need_pcbnew():
    if pcbnew is None:
        fail("KiCad 9's pcbnew does not import in %s: run it with Debian's /usr/bin/python3 "
             "(apt-get install kicad)" % sys.executable)

MM = 1_000_000


def nm(v):
    return int(round(v * MM))


def pt(x, y):
    return pcbnew.VECTOR2I(nm(x), nm(y))


def mm(p):
    return (p.x / MM, p.y / MM)


def stable(item, name):
    """Give an item a UUID derived from its name, so every run writes the same bytes."""
    item.m_Uuid.Clone(pcbnew.KIID(str(uuid.uuid5(NS, name))))


def library_footprint(board, lib, name):
    """KiCad's footprint lib:name, named by its library (the schematic's symbols say it)."""
    fp = pcbnew.FootprintLoad(os.path.join(LIBS, lib + ".pretty"), name)
    if fp is None:
        fail("KiCad's footprint %s:%s is missing: install kicad-footprints" % (lib, name))
    fp.SetFPID(pcbnew.LIB_ID(lib, name))
    fp.SetParent(board)
    return fp


def _line(fp, layer, a, b, width=0.15):
    s = pcbnew.PCB_SHAPE(fp, pcbnew.SHAPE_T_SEGMENT)
    s.SetStart(pt(*a))
    s.SetEnd(pt(*b))
    s.SetLayer(layer)
    s.SetWidth(nm(width))
    fp.Add(s)


def _rect(fp, layer, x0, y0, x1, y1, width=0.15):
    for a, b in (((x0, y0), (x1, y0)), ((x1, y0), (x1, y1)), ((x1, y1), (x0, y1)),
                 ((x0, y1), (x0, y0))):
        _line(fp, layer, a, b, width)


def _pad(fp, number, x, y, size, drill, shape, offset=(0.0, 0.0)):
    p = pcbnew.PAD(fp)
    p.SetNumber(str(number))
    p.SetAttribute(pcbnew.PAD_ATTRIB_PTH)
    p.SetLayerSet(p.PTHMask())
    p.SetShape(shape)
    p.SetSize(pt(*size))
    p.SetDrillSize(pt(drill, drill))
    p.SetOffset(pcbnew.F_Cu, pt(*offset))
    p.SetPosition(pt(x, y))
    fp.Add(p)
    return p


def _hole(fp, x, y, drill):
    """A plain (unplated) hole."""
    p = pcbnew.PAD(fp)
    p.SetAttribute(pcbnew.PAD_ATTRIB_NPTH)
    p.SetLayerSet(p.UnplatedHoleMask())
    p.SetShape(pcbnew.PAD_SHAPE_CIRCLE)
    p.SetSize(pt(drill, drill))
    p.SetDrillSize(pt(drill, drill))
    p.SetPosition(pt(x, y))
    fp.Add(p)
    return p


def pico_footprint(board):
    """The Pico as Raspberry Pi's own footprint (RPi_Pico_SMD_TH) lays it: drawn upright,
    USB at the top, pin 1 at the top left; pads PICO_PAD long reaching PICO_PAD_REACH past
    the module's edge, soldered flat by its castellations; and the holes under the USB
    shell's legs (datasheet section 2.2), where solder would pool and tilt the module."""
    fp = pcbnew.FOOTPRINT(board)
    fp.SetFPID(pcbnew.LIB_ID(LIB, "RaspberryPi_Pico_Castellated"))
    fp.SetLibDescription("Raspberry Pi Pico (RP2040), soldered flat by its castellated "
                         "edges; Raspberry Pi's RPi_Pico_SMD_TH land pattern; datasheet "
                         "RP-008307-DS sections 2.1 and 2.2")
    half = PICO_ROWS / 2
    first = -(19 * 2.54) / 2
    length, width = PICO_PAD
    outward = PICO_W / 2 + PICO_PAD_REACH - length / 2 - half
    for k in range(1, 41):
        left = k <= 20
        x = -half if left else half
        y = first + ((k - 1) if left else (40 - k)) * 2.54
        shape = pcbnew.PAD_SHAPE_RECT if k == 1 else pcbnew.PAD_SHAPE_OVAL
        _pad(fp, k, x, y, (length, width), 1.0, shape, (-outward if left else outward, 0.0))
    w, h = PICO_W / 2, PICO_L / 2
    for x, from_end, drill in PICO_USB_HOLES:
        _hole(fp, x, -h + from_end, drill)
    reach = w + PICO_PAD_REACH
    _rect(fp, pcbnew.F_Fab, -w, -h, w, h, 0.1)
    _rect(fp, pcbnew.F_Fab, -4.0, -h - 1.3, 4.0, -h + 4.0, 0.1)  # the micro-USB socket
    _rect(fp, pcbnew.F_CrtYd, -reach - 0.25, -h - 0.25, reach + 0.25, h + 0.25, 0.05)
    _line(fp, pcbnew.F_SilkS, (-w - 0.2, h + 0.2), (w + 0.2, h + 0.2))
    return fp


def oled_footprint(board):
    """The OLED module on its 4-pin header: pins OLED_PINS (GND VCC SCL SDA) from the
    left, each named on the silkscreen below its pad, the module's outline below them (it
    stands on the header above the board)."""
    fp = pcbnew.FOOTPRINT(board)
    fp.SetFPID(pcbnew.LIB_ID(LIB, "SSD1306_OLED_I2C_Module"))
    fp.SetLibDescription("SSD1306 128x64 I2C OLED module, 0.96 inch, 27.3 x 27.8 mm, "
                         "4-pin header GND VCC SCL SDA")
    for i in range(4):
        _pad(fp, i + 1, i * 2.54, 0.0, (1.7, 1.7), 1.0,
             pcbnew.PAD_SHAPE_RECT if i == 0 else pcbnew.PAD_SHAPE_CIRCLE)
    cx = 1.5 * 2.54
    x0, x1 = cx - OLED_W / 2, cx + OLED_W / 2
    y0, y1 = -OLED_TOP, OLED_H - OLED_TOP
    _rect(fp, pcbnew.F_Fab, x0, y0, x1, y1, 0.1)
    (gx, gy), (gw, gh) = OLED_GLASS
    _rect(fp, pcbnew.F_Fab, gx - gw / 2, gy - gh / 2, gx + gw / 2, gy + gh / 2, 0.1)
    _rect(fp, pcbnew.F_CrtYd, x0 - 0.25, y0 - 0.25, x1 + 0.25, y1 + 0.25, 0.05)
    for i, label in enumerate(OLED_PINS):
        # beside its pad, reading up from below it
        t = pcbnew.PCB_TEXT(fp)
        t.SetText(label)
        t.SetLayer(pcbnew.F_SilkS)
        t.SetTextSize(pt(TEXT, TEXT))
        t.SetTextThickness(nm(STROKE))
        t.SetTextAngleDegrees(90)
        t.SetHorizJustify(pcbnew.GR_TEXT_H_ALIGN_RIGHT)
        t.SetPosition(pt(i * 2.54, 1.35))
        fp.Add(t)
    return fp
