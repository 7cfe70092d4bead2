# The two commands of the README: `make run` and `make test`. Everything else supports them.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
PY := $(VENV)/bin/python
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run dev test bench lint format install install-dev migrate clean docs

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(VENV)/bin/python
	$(PY) -m pip install --quiet -e ".[dev]"
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed
install-dev: $(VENV)/.installed-dev

migrate: install
	$(PY) manage.py migrate --noinput

# How a Conteur hosts an evening: DEBUG off, gunicorn, static files by WhiteNoise (bin/serve).
run: install
	PY=$(PY) HOST=$(HOST) PORT=$(PORT) bin/serve

# Django's debug server for working on the code: DEBUG on, reloads on every change.
dev: migrate
	$(PY) manage.py seed_demo
	@echo "Altherion (débogage) sur http://$(HOST):$(PORT)/ (Ctrl+C pour arrêter)"
	DEBUG=1 $(PY) manage.py runserver $(HOST):$(PORT)

test: install-dev
	$(PY) -m pytest $(PYTEST_ARGS)

bench: install-dev
	$(PY) bench/run.py

lint: install-dev
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(VENV)/bin/lint-imports
	@# Documented framework APIs only, HTML in templates, no module cycles (the product's checker,
	@# beside the checkout in ../shared when it is there).
	@if [ -x ../shared/bin/plain-django-check ]; then ../shared/bin/plain-django-check; fi

format: install-dev
	$(VENV)/bin/ruff check --fix .
	$(VENV)/bin/ruff format .

clean:
	rm -rf $(VENV) var staticfiles .pytest_cache .ruff_cache .hypothesis

# docs/rules.md: RULES.md's readings, generated from rules/readings.py (a test keeps them in sync).
docs: install
	$(PY) -m rules readings > docs/rules.md
