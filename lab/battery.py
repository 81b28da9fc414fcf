"""Hours of play on 3 AAA cells, from the chip twin's measured awake share and published
currents. The awake share is measured (twins/chip/chip.py power(), rp2040js); every current
here is someone else's published figure, named with its source, and the result is an
estimate with their uncertainty, not a measurement of a handheld.

- The RP2040 datasheet (section 5.7.2, "Power consumption") gives the cores' current at
  125 MHz only as a graph (DVDD against frequency); its tables are at 48 MHz. The board
  figures below are published measurements of a Pico at VSYS 5 V.
- Waiting for an interrupt (WFI, what CircuitPython's time.sleep does) keeps every clock
  running: it saves the cores' switching, not the clock tree's. The RP2040's SLEEP state
  (clocks gated, pico-sdk's low_power: 7.3 mA at VSYS 5.2 V) is another thing, which
  CircuitPython's light sleep does not use between passes.
"""

PICO_RUN_MA = 22.0  # a Pico at VSYS 5 V, a busy loop at 133 MHz (elektronik-labor.de,
# "Raspberry Pico34"); rp-rs/rp-hal issue 659 reports the same order
PICO_WFI_MA = 20.0  # a Pico at 5 V waiting in WFI/WFE with its clocks on (rp-rs/rp-hal
# issue 659)
OLED_MA_PER_LIT_PERCENT = 0.054  # a 0.96" SSD1306 module at 3.3 V, contrast 0x7F:
OLED_MA_DARK = 1.44  # I = 0.054 x lit % + 1.44 mA (hsel.co.uk, "SSD1306 power
# consumption", 2018); other modules draw up to about three times as much (The Things
# Network forum, "The workbench part 2": 8.7-16.7 mA at half the pixels lit)
AAA_MAH = 1000  # an alkaline AAA to 0.8 V a cell at a light drain (about 900-1,200 mAh)
CELLS_V = 4.5  # 3 AAA in series into VSYS (the Pico's buck-boost takes 1.8-5.5 V)
OLED_V = 3.3  # the OLED runs from the Pico's 3V3 regulator
REGULATOR = 0.9  # the buck-boost's efficiency, taken as 90%


def board_ma(awake):
    """A Pico's current at 5 V with its cores awake this share of the time."""
    return awake * PICO_RUN_MA + (1 - awake) * PICO_WFI_MA


def hours(awake, lit_percent):
    """Hours of play on AAA_MAH cells: the Pico's power at 5 V and the OLED's at 3.3 V
    (through the regulator), drawn from the cells at CELLS_V."""
    pico_w = 5.0 * board_ma(awake) / 1000
    oled_w = OLED_V * (OLED_MA_DARK + OLED_MA_PER_LIT_PERCENT * lit_percent) / 1000 / REGULATOR
    return AAA_MAH / 1000 * CELLS_V / (pico_w + oled_w)


def lit_percent(frame):
    """The share of the glass's pixels that are lit, in %, of a frame of 1s and 0s (the
    SSD1306 model's frame())."""
    return 100.0 * sum(frame) / len(frame)
