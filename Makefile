# The two set-up commands of README.md: `make run` and `make test`. Each creates .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export YOLO_OFFLINE := 1
export YOLO_AUTOINSTALL := False

.PHONY: run test lint types pytest bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.run-installed

run: $(VENV)/.run-installed
	$(BIN)/dealer-assist kiosk

test: $(VENV)/.test-installed lint types pytest

lint: $(VENV)/.test-installed
	$(BIN)/ruff check .

types: $(VENV)/.test-installed
	$(BIN)/mypy

pytest: $(VENV)/.test-installed
	$(BIN)/python -m pytest

bench: $(VENV)/.test-installed
	for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
