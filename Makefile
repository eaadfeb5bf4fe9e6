# The two commands of the README, `make serve` and `make test`, and the contributor's
# commands of CONTRIBUTING.md (`make check CHAPTER=...`, `make lint`, `make build`). Each
# first installs what it needs into .venv (once, and again when pyproject.toml changes).
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8000
SHELL  := bash
# Material's end-of-life banner on every mkdocs command: said once in the README instead.
export NO_MKDOCS_2_WARNING := 1
# The library (torch_verified/) of this checkout, for every command below; PYTHONPATH comes
# before the editable install, which points at the checkout that last ran `make install`.
export PYTHONPATH := $(CURDIR)

.PHONY: serve test check build install lint audit matrix

# The stamp (in the checkout: several checkouts may share one .venv) holds the pyproject.toml
# it was installed from: a changed file reinstalls, a newer mtime of the same file does not. The pins are
# exact; a machine-wide pip constraint file (some images cap torch below the pin) could only
# make the install fail, so it is not applied to the project's venv. TORCH_INDEX: another
# build of the pinned torch from PyTorch's own index, e.g. the CPU-only one (README).
# Last, the library (torch_verified/) as an editable install, for a reader who runs
# .venv/bin/mkdocs or .venv/bin/pytest directly.
TORCH_INDEX ?=
install:
	@if ! cmp -s pyproject.toml .venv.installed; then \
	  set -e; \
	  echo "make install: the pinned dependencies into .venv (about 6 GB and a few minutes the first time)"; \
	  test -x $(BIN)/python || $(PYTHON) -m venv $(VENV); \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check "pip==26.3"; \
	  if [ -n "$(TORCH_INDEX)" ]; then PIP_CONSTRAINT=/dev/null $(BIN)/python -m pip install --quiet \
	    --disable-pip-version-check "torch==$$($(PYTHON) -m torch_verified.project pin)" --index-url $(TORCH_INDEX); fi; \
	  PIP_CONSTRAINT=/dev/null $(BIN)/python -m pip install --quiet --disable-pip-version-check --group dev; \
	  PYTHONWARNINGS=ignore $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .; \
	  cp pyproject.toml .venv.installed; fi

# The port first: when it is taken, say so at once instead of after a whole build.
serve: install
	@if (exec 3<>/dev/tcp/127.0.0.1/$(PORT)) 2>/dev/null; then \
	  echo "make serve: port $(PORT) is taken (another \`make serve\`?); pick another: make serve PORT=8001" >&2; \
	  exit 1; fi
	SITE_URL=http://127.0.0.1:$(PORT)/ $(BIN)/mkdocs serve --livereload --dev-addr 127.0.0.1:$(PORT)

# The site alone, as CI builds it (the tests build it with SITE_DIR=.site-test).
SITE_DIR ?= site
build: install
	$(BIN)/mkdocs build --strict --site-dir $(SITE_DIR)

# Everything a change to one chapter needs, in seconds: its snippets, its pages in both
# languages, parity, includes, glossary terms (tools/check.py says what runs).
check: install
	@$(BIN)/python -m tools.check $(CHAPTER)

# The translation report comes after the tests, where it is read; it never fails the run.
test: install
	tools/ensure-browser
	$(BIN)/pytest; status=$$?; $(BIN)/python -m tools.stale_translations; exit $$status

# The pre-commit hooks on every file, untracked ones too (a new snippet is linted before
# `git add`); each hook runs its tool from .venv.
lint: install
	@git ls-files --cached --others --exclude-standard | while IFS= read -r f; do \
	  [ -e "$$f" ] && printf '%s\0' "$$f"; done | xargs -0 $(BIN)/pre-commit run --files \
	  || { echo "make lint: a hook that says 'files were modified' fixed them (git diff shows how: review, then commit); fix what the others say" >&2; exit 1; }

# Lighthouse and axe-core on every page of both languages: a few minutes, so not part of
# `make test`; .ci/run runs it after the tests. The table lands in artifacts/audit.md.
LIGHTHOUSE := tools/lighthouse/node_modules/.installed

$(LIGHTHOUSE): tools/lighthouse/package-lock.json
	@command -v npm >/dev/null || { echo "make audit needs Node.js (>= 18) and npm" >&2; exit 1; }
	npm ci --prefix tools/lighthouse --no-audit --no-fund
	touch $@

audit: install $(LIGHTHOUSE)
	tools/ensure-browser
	$(BIN)/python -m tools.audit $(AUDIT_ARGS)

# Every example against the other releases of data/releases.yml, each in its own venv under
# ~/.cache/torch-verified/matrix/ (made once; minutes). Not part of `make test`; .ci/run runs it after the tests.
matrix: install
	$(BIN)/python -m tools.matrix
