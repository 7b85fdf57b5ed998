# The two commands of the README: `make run` and `make test` (`make test-fast` while developing).
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000

.PHONY: run test test-setup test-fast lint bench conformance clean vendor

$(PY):
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info >= (3, 11) else "Python 3.11+ is needed (set PYTHON=...)")'
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

# re-install only when pyproject.toml changed
$(VENV)/.stamp-run: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e .
	@touch $@

$(VENV)/.stamp-dev: pyproject.toml | $(PY)
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $@ $(VENV)/.stamp-run

# front-end libraries: npm installs the locked versions, their built files go to the git-ignored static/vendor/
VENDOR := static/vendor/.stamp
$(VENDOR): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	mkdir -p static/vendor/htmx
	cp node_modules/htmx.org/dist/htmx.min.js node_modules/htmx-ext-ws/dist/ws.min.js static/vendor/htmx/
	@touch $@

vendor: $(VENDOR)

# translations: the committed .po files compiled to git-ignored .mo files (polib; no gettext needed)
LOCALE := locale/.stamp
$(LOCALE): $(wildcard locale/*/LC_MESSAGES/*.po platform/*/locale/*/LC_MESSAGES/*.po) | $(VENV)/.stamp-run
	DEBUG=1 $(PY) manage.py compiletranslations
	@touch $@

run: $(VENV)/.stamp-run $(VENDOR) $(LOCALE)
	DEBUG=$${DEBUG:-1} PORT=$(PORT) $(PY) manage.py runplatform

test: test-setup
	$(PY) -m pytest $(PYTEST_ARGS)

# what a test run needs built first (.ci/run builds it once, then runs two passes side by side)
test-setup: $(VENV)/.stamp-dev $(VENDOR) $(LOCALE)

# everything but the tests marked `slow` (those that start daphne, Celery, manage.py or a browser)
test-fast: $(VENV)/.stamp-dev $(VENDOR) $(LOCALE)
	$(PY) -m pytest -m "not slow" $(PYTEST_ARGS)

# lint-imports: the apps' layers (pyproject's [tool.importlinter]), imports inside functions included
lint: $(VENV)/.stamp-dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(PY) -m mypy
	PYTHONPATH=platform $(VENV)/bin/lint-imports --no-cache

bench: $(VENV)/.stamp-run
	$(PY) -m games.bench

conformance: $(VENV)/.stamp-run
	$(PY) ../shared/conformance/run.py --random 200

clean:
	rm -rf $(VENV) var
