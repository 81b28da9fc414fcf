"""The lab: measuring the game and the firmware (make sim, simpair, bench, nvm; battery)."""
