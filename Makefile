# The set-up commands are `make run` and `make test`; both build .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Rebuilt whenever the dependencies change: pyproject.toml's ranges, installed at the
# versions constraints.txt pins.
STAMP := $(VENV)/.installed-stamp

.PHONY: constraints run test test-fast test-pseudo lint messages messages-check pseudo-locale bench screenshots clean

$(STAMP): pyproject.toml constraints.txt
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "Python 3.11 or newer is needed: run e.g. 'make PYTHON=python3.12 ...'" >&2; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -c constraints.txt -e '.[dev]'
	@touch $@

# The newest versions pyproject.toml allows, resolved in a throwaway venv, written over
# constraints.txt's pins (its comment kept). Run the whole suite before committing them.
constraints:
	@rm -rf .venv-resolve && $(PYTHON) -m venv .venv-resolve
	.venv-resolve/bin/python -m pip install --quiet --disable-pip-version-check -e '.[dev,sentry]'
	@{ grep '^#' constraints.txt; .venv-resolve/bin/python -m pip freeze --exclude-editable; } > constraints.txt.new
	@mv constraints.txt.new constraints.txt && rm -rf .venv-resolve

run: $(STAMP)
	scripts/run-local

# PYTEST_ARGS passes options through, e.g. `make test PYTEST_ARGS="-n 2 -k signup"`.
# pytest's exit code 5 (no tests collected) gets its own message: a silent empty run
# must never look like a pass.
test: $(STAMP)
	@$(BIN)/pytest $(PYTEST_ARGS) || { status=$$?; \
		if [ $$status -eq 5 ]; then echo "pytest collected no tests" >&2; fi; exit $$status; }

# The fast lane: every test not marked slow (pyproject.toml's markers), on two processes.
# `make test` still runs everything.
test-fast: $(STAMP)
	@$(BIN)/pytest -m "not slow" -n 2 $(PYTEST_ARGS) || { status=$$?; \
		if [ $$status -eq 5 ]; then echo "pytest collected no tests" >&2; fi; exit $$status; }

lint: $(STAMP)
	$(BIN)/ruff check .

# The translation catalogs (docs/translation.md). Both need GNU gettext (apt `gettext`):
# `messages` brings locale/*/LC_MESSAGES/*.po up to date with the code and compiles the
# .mo files, which are committed (running the site needs no gettext); `messages-check`
# (CI) fails when a catalog or its .mo is behind the code.
messages: $(STAMP)
	$(BIN)/python manage.py messages_update

messages-check: $(STAMP)
	$(BIN)/python manage.py messages_check --complete

# Every page's words accented and bracketed ("[Ṽöţé]"), in var/pseudo-locale/: what is
# still English on a page shows at a glance (docs/translation.md).
pseudo-locale: $(STAMP)
	$(BIN)/python manage.py pseudo_locale

# The end-to-end tests once more, every page checked for English no catalog worded: the
# pages are English with each translated word wrapped in invisible marks, and any word
# outside them fails the run, listed page by page (tests/e2e/pseudo_run.py).
test-pseudo: $(STAMP)
	@WITCHHUNT_PSEUDO_LOCALE=1 $(BIN)/pytest tests/e2e $(PYTEST_ARGS) || { status=$$?; \
		if [ $$status -eq 5 ]; then echo "pytest collected no tests" >&2; fi; exit $$status; }

bench: $(STAMP)
	$(BIN)/python manage.py bench

# Re-takes docs/screenshots/ from the end-to-end run (needs /usr/bin/chromium).
screenshots: $(STAMP)
	WITCHHUNT_SCREENSHOTS=1 $(BIN)/pytest tests/e2e

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
