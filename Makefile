# The two commands of the README: `make serve` and `make test`. Both install what they need
# into .venv first (once, and again whenever pyproject.toml changes).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: serve test build install lint

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "pip==26.3"
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --group dev
	touch $@

install: $(BIN)/.installed

serve: $(BIN)/.installed
	SITE_URL=http://127.0.0.1:8000/ $(BIN)/mkdocs serve --livereload --dev-addr 127.0.0.1:8000

build: $(BIN)/.installed
	$(BIN)/mkdocs build --strict

# The translation report only informs (it never fails the build); see CONTRIBUTING.md.
test: $(BIN)/.installed
	tools/ensure-browser
	-$(BIN)/python -m tools.stale_translations
	$(BIN)/pytest

# The pre-commit hooks on every file; they run tools from .venv, so it goes first on PATH.
lint: $(BIN)/.installed
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/pre-commit run --all-files
