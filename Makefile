# The two commands of the README: `make serve` and `make test`. Both install what they need
# into .venv first (once, and again whenever pyproject.toml changes).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin

.PHONY: serve test build install lint audit matrix

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check "pip==26.3"
	# The pins are exact; a machine-wide pip constraint file (some images cap torch below the
	# pin) could only make this install fail, so it is not applied to the project's venv.
	PIP_CONSTRAINT=/dev/null $(BIN)/python -m pip install --quiet --disable-pip-version-check --group dev
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

# Lighthouse and axe-core on every page of both languages: a few minutes, so not part of
# `make test`; .ci/run runs it after the tests. The table lands in artifacts/audit.md.
LIGHTHOUSE := tools/lighthouse/node_modules/.installed

$(LIGHTHOUSE): tools/lighthouse/package-lock.json
	@command -v npm >/dev/null || { echo "make audit needs Node.js (>= 18) and npm" >&2; exit 1; }
	npm ci --prefix tools/lighthouse --no-audit --no-fund
	touch $@

audit: $(BIN)/.installed $(LIGHTHOUSE)
	tools/ensure-browser
	$(BIN)/python -m tools.audit $(AUDIT_ARGS)

# Every example against the other releases of data/releases.yml, each in its own venv under
# .matrix/ (made once; minutes). Not part of `make test`; .ci/run runs it after the tests.
matrix: $(BIN)/.installed
	$(BIN)/python -m tools.matrix
