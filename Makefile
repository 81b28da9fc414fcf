# California Speed handheld: `make test` and `make play` set themselves up on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.requirements-installed

.PHONY: test bench clean

$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	@echo "Setting up $(VENV) from requirements.txt (first run only)..."
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	@touch $(STAMP)

test: $(STAMP)
	$(PY) -m pytest -q -p no:cacheprovider

bench: $(STAMP)
	$(PY) -m tools.bench

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache

.PHONY: play
play: $(STAMP)
	@$(PY) -m tools.play $(ARGS)
