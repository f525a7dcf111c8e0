# Two commands matter: `make run` and `make test`. Both install what is missing first.
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export YOLO_CONFIG_DIR := $(CURDIR)/.yolo
export YOLO_OFFLINE := 1
export YOLO_AUTOINSTALL := 0
export ULTRALYTICS_SKIP_REQUIREMENTS_CHECKS := 1

.PHONY: install run test lint screenshots clean

$(STAMP): pyproject.toml constraints.txt scripts/install.sh scripts/system-deps.sh
	bash scripts/install.sh
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/mahjongero run

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy
	$(BIN)/python -m pytest

# the browser tests again, saving their screenshots into docs/screenshots/ (the README shows them)
screenshots: $(STAMP)
	MAHJONGERO_SCREENSHOTS=$(CURDIR)/docs/screenshots $(BIN)/python -m pytest tests/webui/test_browser.py

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache build *.egg-info
