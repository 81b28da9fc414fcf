"""Hours of play and days of standby on 3 AAA cells, from the chip twin's measured awake
share and clock and published currents. The awake share and the clock are measured
(lab/chipbench.py power(), rp2040js with the clock modelled); every current here is
someone else's published figure, named with its source, and the result is an estimate with
their uncertainty, not a measurement of a handheld.

- The RP2040 datasheet (section 5.7.2, "Power consumption") gives the cores' current at
  125 MHz only as a graph (DVDD against frequency); its tables are at 48 MHz. The board
  figures below are published measurements of a Pico at VSYS 5 V.
- Waiting for an interrupt (WFI, what CircuitPython's time.sleep does) keeps every clock
  running: it saves the cores' switching, not the clock tree's. A lower clock saves both.
- Deep sleep (CircuitPython's alarm with pin alarms only) is XOSC DORMANT: every clock
  stopped until a pin wakes the chip.
"""

PICO_RUN_MA = 22.0  # a Pico at VSYS 5 V, a busy loop at 133 MHz (elektronik-labor.de,
# "Raspberry Pico34"); rp-rs/rp-hal issue 659 reports the same order
PICO_WFI_MA = 20.0  # a Pico at 5 V waiting in WFI/WFE with its clocks on (rp-rs/rp-hal
# issue 659)
CLOCK_POINTS = ((125, 20.0), (20, 6.0))  # (MHz, mA): a Pico running CircuitPython at two
# clocks (adafruit/circuitpython PR 7430, microcontroller.cpu.frequency on the RP2040: about
# 20 mA at 125 MHz, about 6 mA at 20 MHz); bablokb's pico-sleepcurrent measured the same
# slope (18.6 mA at 125 MHz, 7.7 mA at 25 MHz). The current is taken as a straight line
# through these two points: a part that does not depend on the clock, and one in
# proportion to it.
PICO_DORMANT_MA = 1.3  # a Pico in CircuitPython's deep sleep with a pin alarm (bablokb,
# pico-sleepcurrent); published figures range 0.8 mA (Raspberry Pi Pico datasheet, table 4:
# DORMANT at VSYS 5 V) and 0.9 mA (MicroPython commit b004e7e, xosc dormant, from USB) to
# about 1.8 mA
DORMANT_RANGE_MA = (0.8, 1.8)
OLED_MA_PER_LIT_PERCENT = 0.054  # a 0.96" SSD1306 module at 3.3 V, contrast 0x7F:
OLED_MA_DARK = 1.44  # I = 0.054 x lit % + 1.44 mA (hsel.co.uk, "SSD1306 power
# consumption", 2018); other modules draw up to about three times as much (The Things
# Network forum, "The workbench part 2": 8.7-16.7 mA at half the pixels lit)
OLED_SLEEP_MA = 0.01  # the SSD1306 in sleep mode (display off): 10 uA at most (Solomon
# Systech SSD1306 datasheet, "Sleep mode current")
AAA_MAH = 1000  # an alkaline AAA to 0.8 V a cell at a light drain (about 900-1,200 mAh)
CELLS_V = 4.5  # 3 AAA in series into VSYS (the Pico's buck-boost takes 1.8-5.5 V)
OLED_V = 3.3  # the OLED runs from the Pico's 3V3 regulator
REGULATOR = 0.9  # the buck-boost's efficiency, taken as 90%
FULL_MHZ = 125  # the clock the run and WFI figures were measured at (near enough: 133)


def clock_share(mhz):
    """A Pico's current at mhz as a share of its current at FULL_MHZ (CLOCK_POINTS' line)."""
    (f1, i1), (f2, i2) = CLOCK_POINTS
    slope = (i1 - i2) / (f1 - f2)
    return (i2 + slope * (mhz - f2)) / (i2 + slope * (FULL_MHZ - f2))


def board_ma(awake, mhz=FULL_MHZ):
    """A Pico's current at 5 V with its cores awake this share of the time at mhz."""
    return (awake * PICO_RUN_MA + (1 - awake) * PICO_WFI_MA) * clock_share(mhz)


def _cells_hours(pico_ma, oled_ma):
    """Hours on AAA_MAH cells: the Pico's power at 5 V and the OLED's at 3.3 V (through the
    regulator), drawn from the cells at CELLS_V."""
    watts = 5.0 * pico_ma / 1000 + OLED_V * oled_ma / 1000 / REGULATOR
    return AAA_MAH / 1000 * CELLS_V / watts


def oled_ma(lit_percent):
    """The OLED's current with this share of its pixels lit."""
    return OLED_MA_DARK + OLED_MA_PER_LIT_PERCENT * lit_percent


def hours(awake, lit_percent, mhz=FULL_MHZ):
    """Hours of play on AAA_MAH cells at mhz."""
    return _cells_hours(board_ma(awake, mhz), oled_ma(lit_percent))


def standby_days(dormant_ma=PICO_DORMANT_MA):
    """Days on AAA_MAH cells with the screen off and the chip DORMANT (the ten minutes
    before it, awake, are left out: a few hours' worth over a month)."""
    return _cells_hours(dormant_ma, OLED_SLEEP_MA) / 24


def day(play_h, awake, lit_percent, mhz, off_awake, screen_off_min):
    """A day of use, hour by hour: (hours, mA from the cells, % of the cells left) at each
    step. play_h hours of play, then the screen off for screen_off_min minutes (awake
    off_awake of the time) and ten minutes more, then DORMANT for the rest of the day."""
    def cells_ma(pico, oled):  # the cells' current at CELLS_V for that power
        return (5.0 * pico + OLED_V * oled / REGULATOR) / CELLS_V
    spans = ((play_h, cells_ma(board_ma(awake, mhz), oled_ma(lit_percent))),
             ((screen_off_min + 10) / 60, cells_ma(board_ma(off_awake, mhz), OLED_SLEEP_MA)),
             (None, cells_ma(PICO_DORMANT_MA, OLED_SLEEP_MA)))
    out, t, left = [], 0.0, 100.0
    for length, ma in spans:
        length = 24 - t if length is None else length
        out.append((t, ma, left))
        t += length
        left -= 100 * ma * length / AAA_MAH
        out.append((t, ma, left))
    return out


def draw_day(steps, path, title):
    """A picture of day()'s steps: the cells' current (log scale) and what is left of them
    over the 24 hours, as a PNG at path (the same bytes for the same steps)."""
    import matplotlib
    matplotlib.use("Agg")
    from matplotlib import pyplot
    from tools.files import replacing
    hours = [t for t, _, _ in steps]
    fig, (top, low) = pyplot.subplots(2, 1, figsize=(8, 5), sharex=True)
    top.step(hours, [ma for _, ma, _ in steps], where="post")
    top.set_yscale("log")
    top.set_ylabel("mA from the cells")
    top.set_title(title, fontsize=10)
    low.plot(hours, [left for _, _, left in steps])
    low.set_ylabel("% of 3 AAA left")
    low.set_xlabel("hours (an hour of play, the screen off, then DORMANT)")
    low.set_xlim(0, 24)
    for axes in (top, low):
        axes.grid(True, alpha=0.3)
    fig.tight_layout()
    with replacing(path) as temp:
        fig.savefig(temp, dpi=80, metadata={"Software": None}, format="png")
    pyplot.close(fig)


def lit_percent(frame):
    """The share of the glass's pixels that are lit, in %, of a frame of 1s and 0s (the
    SSD1306 model's frame())."""
    return 100.0 * sum(frame) / len(frame)


# ---- the gauge (hardware/cells.py, read by hardware/pico.py cells()): 3 AAA alkaline cells ----
# An alkaline AAA's voltage under a light load (25-40 mA: the handheld's, above) against the
# share of its charge used, read off the published discharge curves: Energizer E92
# datasheet (constant current 25 mA, 21 C, to a 0.8 V cutoff) and Duracell MN2400
# datasheet (service hours at 25 mA-class loads). A fresh cell reads 1.5-1.6 V open
# circuit (Energizer's Alkaline Handbook, "open circuit voltage" 1.5-1.6 V; 1.58 V typical),
# 1.5 V within minutes under this load, about 1.2 V at half its service, and falls away
# below 0.9 V (the curves' knee; 0.8 V is the datasheets' cutoff). The points are read off
# the curves to about 0.05 V: an estimate of a typical cell, not a measurement.
CELL_CURVE = ((1.50, 100), (1.40, 90), (1.30, 70), (1.25, 55), (1.20, 45), (1.15, 35),
              (1.10, 25), (1.05, 15), (1.00, 8), (0.95, 4), (0.90, 0))  # (V a cell, % left)
CELLS = 3
DIODE_V = 0.3  # the board's 1N5817 (DS1) at 25-40 mA: about 0.3 V on its datasheet's
# typical forward curve (ON Semiconductor 1N5817; 0.45 V at most at 1 A); docs/BUILD.md's
# check reads 4.2 V at VSYS from fresh cells
USB_VSYS = 4.7  # on USB: VBUS 5 V less the Pico's own Schottky diode D1 (Raspberry Pi Pico
# datasheet, "Powering Pico": about 0.3 V); VBUS_SENSE (GP24) then reads high
PICO_VSYS = (1.8, 5.5)  # the Pico's VSYS input range (Raspberry Pi Pico datasheet, pinout)
ADC_VREF = 3.3  # the RP2040's ADC reference on a Pico: the 3.3 V rail (ADC_VREF, pin 35)


def vsys(cell_v):
    """VSYS from three cells at cell_v each, through the diode."""
    return CELLS * cell_v - DIODE_V


def adc_value(vsys_v):
    """What analogio.AnalogIn(board.VOLTAGE_MONITOR).value reads at VSYS (the Pico's divider
    puts a third of it on GP29; 12 bits against ADC_VREF, stretched to 16 as CircuitPython's
    RP2040 port does)."""
    raw = min(4095, int(vsys_v / 3 / ADC_VREF * 4095))
    return raw << 4 | raw >> 8


def gauge_table():
    """(what, cell V, VSYS V, AnalogIn.value) at full, half and empty, and on USB."""
    rows = [(what, v, vsys(v), adc_value(vsys(v)))
            for what, v in (("full", 1.50), ("half", 1.20), ("empty", 0.90))]
    return rows + [("USB", None, USB_VSYS, adc_value(USB_VSYS))]


LOW_PERCENT = 15  # a match starts with a warning (firmware/match.py _LOW): 1.05 V a cell
FLAT_PERCENT = 5  # no compaction of the nvm log (firmware/store.py _FLAT; docs/NVM.md)


def gauge():
    """(VSYS mV, % left) from full to empty: the curve hardware/cells.py holds."""
    return tuple((round(vsys(v) * 1000), left) for v, left in CELL_CURVE)


def percent(vsys_mv):
    """The charge left, 0-100 %, at VSYS vsys_mv from the cells' curve (hardware/cells.py
    percent() holds the same; -1 under the Pico's 1.8 V: no reading)."""
    if vsys_mv < PICO_VSYS[0] * 1000:
        return -1
    curve = gauge()
    if vsys_mv >= curve[0][0]:
        return 100
    for (hi, up), (lo, down) in zip(curve, curve[1:]):
        if vsys_mv >= lo:
            return down + (up - down) * (vsys_mv - lo) // (hi - lo)
    return 0
