"""The twins: the handheld without its hardware. models/ (the chip parts, once), desktop/
(the virtual handheld, make play), boardvm/ (CircuitPython's own VM), chip/ (rp2040js running
CircuitPython's Pico image, and the page)."""
