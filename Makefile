# The two set-up commands of README.md: `make run` and `make test`. Each creates .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
export YOLO_OFFLINE := 1
export YOLO_AUTOINSTALL := False

.PHONY: run test lint types pytest bench clean system-packages run-packages

# Debian packages the tests need: a virtual screen for the Kivy window tests, and the SVG card decks (with their
# renderer) that the synthetic scenes draw faces from, and the fonts the procedural decks draw their ranks in (a seed
# draws another deck where other fonts are installed), and PostgreSQL for the floor's central store (its tests run
# their own server in a temporary folder), and Chromium with its WebDriver for the console's browser tests.
# Installed when missing and run as root, else named.
SYSTEM_PACKAGES := xvfb xauth librsvg2-bin kdegames-card-data-kf5 fonts-dejavu-core fonts-liberation2 fonts-freefont-ttf \
	fonts-urw-base35 fonts-linuxlibertine fonts-cantarell fonts-roboto-unhinted fonts-ebgaramond fonts-oldstandard \
	fonts-khmeros postgresql chromium chromium-driver

# Debian packages the kiosk itself uses: the Khmer font its screens draw Khmer in. Installed when missing and run as
# root; otherwise named, and the kiosk runs on (Khmer words then show as boxes until the font is installed).
RUN_PACKAGES := fonts-khmeros

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.run-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.test-installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $@ $(VENV)/.run-installed

run: run-packages $(VENV)/.run-installed
	$(BIN)/dealer-assist kiosk

run-packages:
	@command -v dpkg-query >/dev/null || exit 0; \
	missing=$$(for p in $(RUN_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done | tr '\n' ' '); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" != 0 ]; then echo "the kiosk's Khmer screens need: sudo apt-get install $$missing"; exit 0; fi; \
	echo "installing the Debian packages the kiosk uses: $$missing"; \
	DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null || \
	echo "could not install $$missing: the kiosk runs on, Khmer words show as boxes"

test: system-packages $(VENV)/.test-installed lint types pytest

system-packages:
	@command -v dpkg-query >/dev/null || { echo "not a Debian system: install Xvfb, rsvg-convert and the KDE SVG card decks yourself"; exit 0; }; \
	missing=$$(for p in $(SYSTEM_PACKAGES); do dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || echo $$p; done | tr '\n' ' '); \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" != 0 ]; then echo "the tests need these Debian packages: $$missing-- run: sudo apt-get install $$missing"; exit 1; fi; \
	echo "installing the Debian packages the tests need: $$missing"; \
	DEBIAN_FRONTEND=noninteractive apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null

lint: $(VENV)/.test-installed
	$(BIN)/ruff check .

types: $(VENV)/.test-installed
	$(BIN)/mypy

pytest: $(VENV)/.test-installed
	$(BIN)/python -m pytest -n 2 --dist loadfile --durations=15

bench: $(VENV)/.test-installed
	for b in bench/*.py; do echo "== $$b"; $(BIN)/python $$b || exit 1; done

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
