# California Speed handheld: `make test` and `make play` set themselves up on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed

.PHONY: test lint bench clean

$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "Setting up $(VENV) from requirements.txt (first run only)..."
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider

# Style: ruff (pinned in requirements.txt) with ruff.toml's short rule set; .ci/run runs it
# before make test.
lint: $(STAMP)
	$(PY) -m ruff check --no-cache .

bench: $(STAMP)
	$(PY) -m lab.bench $(ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache

.PHONY: sim sim-docs
sim: $(STAMP)
	$(PY) -m lab.sim $(ARGS)

# docs/LAB.md's simulation pictures: the standard study, plots and summary only.
sim-docs: $(STAMP)
	$(PY) -m lab.sim --out sim-out
	mkdir -p docs/sim
	cp sim-out/game_length.png sim-out/variants.png sim-out/win_rate_by_reaction.png \
		sim-out/handicap.png sim-out/long_speed.png sim-out/summary.json docs/sim/

# make sim's speed against that of e02d551, in pairs on this machine (lab/simpair.py).
.PHONY: simpair
simpair: $(STAMP)
	@$(PY) -m lab.simpair $(ARGS)

.PHONY: deploy
deploy: $(STAMP)
	$(PY) -m tools.deploy $(ARGS)

.PHONY: play screenshot
play: $(STAMP)
	@$(PY) -m twins.desktop.play $(ARGS)

SCREENSHOT_DECKS := 5c 9d Jh 2s 7c 8c / 5d Kc 3h 8s 4c 6c
screenshot: $(STAMP)
	$(PY) -m twins.desktop.play --script docs/screenshot.keys --decks "$(SCREENSHOT_DECKS)" \
		--after 150 --png docs/screenshot.png --scale 4

# What the nvm keeps: wear (games per compaction) and a power cut at every point of one.
.PHONY: nvm
nvm: $(STAMP)
	@$(PY) -m lab.nvmcheck $(ARGS)

# The chip twin: CircuitPython's own Pico image in rp2040js (see twins/chip/chip.py); its
# measurements, --figures and --power, are the lab's (lab/chipbench.py, which hands a run on).
.PHONY: chip
chip: $(STAMP)
	@$(PY) -m lab.chipbench $(ARGS)

# The handheld as one UF2 file: CircuitPython's image for the board and the CIRCUITPY
# drive (tools/uf2.py; make uf2 ARGS=--help). make uf2 ARGS="--keys matrix": the matrix
# build's file (dist/...-raspberry_pi_pico-matrix-cp10.uf2, CS_KEYS = "matrix").
.PHONY: uf2
uf2: $(STAMP)
	@$(PY) -m tools.uf2 $(ARGS)

# The Project Bundle: dist/california-speed-<version>-cp10-bundle.zip, the CIRCUITPY drive
# that deploy writes under "CircuitPython 10.x/" with a README.txt (tools/bundle.py).
.PHONY: bundle
bundle: $(STAMP)
	@$(PY) -m tools.bundle $(ARGS)

# The memory on the chip twin: a save and a compaction on CircuitPython's own nvm path,
# and a power cut at every flash command of them, each booted (lab/chipnvm.py; --write
# puts its table into docs/NVM.md).
.PHONY: chipnvm
chipnvm: $(STAMP)
	@$(PY) -m lab.chipnvm $(ARGS)

# The handheld as a static web page: the direct build's UF2 on rp2040js in the browser
# (twins/chip/web.py): make web writes dist/web/; make web-serve also serves it on 127.0.0.1
# (ARGS="--port 8000" for a given port); make web-shot makes the README's docs/web.png.
.PHONY: web web-serve web-shot
web: $(STAMP)
	@$(PY) -m twins.chip.web $(ARGS)

web-serve: $(STAMP)
	@$(PY) -m twins.chip.web --serve $(ARGS)

web-shot: $(STAMP)
	@$(PY) -m twins.chip.web --version dev --shot docs/web.png $(ARGS)

# The printed circuit board (tools/pcb/): hardware/pcb/ (the KiCad 9 project and schematic,
# nets.json, placement.json), dist/pcb/ (gerbers and drills zipped, BOM, placement, the
# schematic's PDF, the soldering guide) and docs/pcb-front.png, pcb-back.png, schematic.pdf,
# ibom.html. It runs in Debian's /usr/bin/python3, not the venv: KiCad's pcbnew module imports
# only there (apt-get install -t bookworm-backports kicad kicad-footprints; and xvfb). Its own
# packages (InteractiveHtmlBom) go into .venv/kicad, a venv over that Python (make pcb-setup).
KICAD_PYTHON ?= /usr/bin/python3
KICAD_VENV := $(VENV)/kicad
KICAD_STAMP := $(KICAD_VENV)/.requirements-installed
$(KICAD_STAMP): requirements-kicad.txt
	@test -x $(KICAD_VENV)/bin/python || $(KICAD_PYTHON) -m venv --system-site-packages $(KICAD_VENV)
	$(KICAD_VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-kicad.txt
	@touch $(KICAD_STAMP)

.PHONY: pcb pcb-setup
pcb-setup: $(KICAD_STAMP)
pcb: $(KICAD_STAMP)
	@$(KICAD_PYTHON) -m tools.pcb $(ARGS)

# The printed case (tools/case/, in the venv: no KiCad needed):
# dist/case/california-speed-{top,bottom,door,caps,lever}.stl from hardware/pcb/placement.json;
# ARGS="--picture docs/case.png" also draws the README's picture.
.PHONY: case
case: $(STAMP)
	@$(PY) -m tools.case $(ARGS)

# CircuitPython's release files and the RP2040 boot ROM, fetched and checked (tools/fetch.py):
# the Pico's UF2, mpy-cross for this machine and bootrom-b1.bin into .toolchain/, where make
# uf2, bundle, web, chip and deploy find them; ARGS="--board raspberry_pi_pico_w" adds a
# board's UF2, TOOLCHAIN_MIRROR=URL (or ARGS="--mirror URL") fetches from another server.
.PHONY: toolchain
toolchain: $(STAMP)
	@$(PY) -m tools.fetch $(ARGS)

# Every file a player or a teacher wants, named with the version, in dist/release/ with its
# SHA256SUMS (tools/release.py): the UF2s, the Project Bundle, the page as a zip, the BOM,
# make pcb's files and pictures, the case's STLs. ARGS="--only uf2,bundle" for some.
.PHONY: release
release: $(STAMP)
	@$(PY) -m tools.release $(ARGS)
