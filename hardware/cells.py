"""The charge left in the handheld's 3 AAA alkaline cells from the Pico's VSYS, the
curve lab/battery.py derives from the cells' datasheets (through the board's 1N5817).
Board subset: hardware/pico.py loads it only on cells; the desktop twin reads it too."""


def percent(mv: int) -> int:
    """% left (0-100) at VSYS mv millivolts; -1 under the Pico's 1.8 V (no reading)."""
    if mv < 1800:
        return -1
    volts = (4200, 3900, 3600, 3450, 3300, 3150, 3000, 2850, 2700, 2550, 2400)  # VSYS, mV
    left = (100, 90, 70, 55, 45, 35, 25, 15, 8, 4, 0)  # % left there
    i = 0
    while i < 11 and mv < volts[i]:
        i += 1
    if i == 0:
        return 100
    if i == 11:
        return 0
    return left[i] + (left[i - 1] - left[i]) * (mv - volts[i]) // (volts[i - 1] - volts[i])
