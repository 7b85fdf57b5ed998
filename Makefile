# The two commands of the README: `make run` and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
PORT   ?= 8000

.PHONY: run test lint bench conformance clean

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

run: $(VENV)/.stamp-run
	DEBUG=$${DEBUG:-1} PORT=$(PORT) $(PY) manage.py runplatform

test: $(VENV)/.stamp-dev
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(VENV)/.stamp-dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

bench: $(VENV)/.stamp-run
	$(PY) -m games.bench

conformance: $(VENV)/.stamp-run
	$(PY) ../shared/conformance/run.py --random 200

clean:
	rm -rf $(VENV) var
