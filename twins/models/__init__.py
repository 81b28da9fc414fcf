"""The twins' models of the handheld's chip parts, each written once in Python: the SSD1306's
GDDRAM and commands (ssd1306.py), the keypad's debounce (debounce.py), the NOR flash's
program-versus-erase rule (norflash.py) and the flash chip's command state over it
(flashchip.py: write enable, busy, commands ignored while busy). The desktop twin imports them from here; the board
VM's bench runs the same files in CircuitPython's VM, as top-level modules beside the
stand-ins (twins/boardvm/boardvm.py). So they keep to the board subset, and their names stay few.
Not board code (tools/boardcode.py). The chip twin's JS has its own flash model
(twins/chip/js/flash.mjs), kept equal to norflash.py and flashchip.py by
tests/twins/models/flash_vectors.json.
"""
