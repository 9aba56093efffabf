# The set-up commands are `make run` and `make test`; both build .venv on first use.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
# Rebuilt whenever the dependencies change.
STAMP := $(VENV)/.installed-stamp

.PHONY: run test test-fast lint bench screenshots clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(sys.version_info < (3, 11))' \
		|| { echo "Python 3.11 or newer is needed: run e.g. 'make PYTHON=python3.12 ...'" >&2; exit 1; }
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	@touch $@

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

bench: $(STAMP)
	$(BIN)/python manage.py bench

# Re-takes docs/screenshots/ from the end-to-end run (needs /usr/bin/chromium).
screenshots: $(STAMP)
	WITCHHUNT_SCREENSHOTS=1 $(BIN)/pytest tests/e2e

clean:
	rm -rf $(VENV) staticfiles .pytest_cache .ruff_cache
