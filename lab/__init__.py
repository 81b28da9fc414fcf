"""The lab: measuring the game and the firmware (make sim, simpair, bench, nvm, chipnvm; the
chip twin's figures and power, chipbench: make chip's measurements; battery)."""
