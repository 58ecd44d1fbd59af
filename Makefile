# One Makefile for people and CI. `make run` needs nothing but Python; `make test` starts
# PostgreSQL, Redis and RabbitMQ and installs Chromium when they are missing
# (scripts/test_setup.sh), then checks them (scripts/check_services.py).
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
BIN := $(VENV)/bin

TEST_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/league
TEST_BROKER_URL ?= redis://127.0.0.1:6379/0
TEST_RESULT_BACKEND ?= redis://127.0.0.1:6379/1
TEST_AMQP_URL ?= amqp://guest:guest@127.0.0.1:5672//
TEST_ENV := DATABASE_URL=$(TEST_DATABASE_URL) CELERY_BROKER_URL=$(TEST_BROKER_URL) \
	CELERY_RESULT_BACKEND=$(TEST_RESULT_BACKEND) TEST_AMQP_URL=$(TEST_AMQP_URL)
PYTEST_ARGS ?= -n 2

.PHONY: install run demo test test-fast lint format messages check-translations worker beat serve venue bench bench-load clean

# pip prints each package as it goes (about a minute on a fresh machine): no silent wait.
$(VENV)/.installed: pyproject.toml
	@echo "Installing the dependencies into $(VENV) (about a minute the first time)..."
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install -e '.[dev]'
	@echo "Dependencies installed."
	touch $@

install: $(VENV)/.installed

# `make run CARDS=../shared/data/pokemon-tcg` also imports a full card database in the
# pokemon-tcg-data layout (idempotent), so a real list can be pasted; `PORT=8001` if 8000
# is taken.
CARDS ?=
PORT ?= 8000

run: install
	$(PY) manage.py migrate --noinput
	$(PY) manage.py import_cards decks/sample_data
	$(if $(CARDS),$(PY) manage.py import_cards $(CARDS))
	$(PY) manage.py load_demo
	$(PY) manage.py runserver 127.0.0.1:$(PORT)

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports
	$(PY) scripts/check_budgets.py
	$(PY) scripts/check_translations.py

# The catalogues (issue 33): extract the marked words into locale/<ll>/LC_MESSAGES/django.po
# for each language (new entries empty, for translators), then compile the .mo files.
# Needs GNU gettext (xgettext, msgmerge, msgfmt); the check below does not.
LOCALES := fr de it es pt_BR
messages: install
	$(PY) manage.py makemessages --no-obsolete --ignore='.venv/*' --ignore='var/*' --ignore='tests/*' --ignore='benchmarks/*' $(addprefix -l ,$(LOCALES))
	$(PY) manage.py compilemessages $(addprefix -l ,$(LOCALES)) --ignore='.venv/*'

# Words people read that are not marked, and untranslated/fuzzy/stale catalogue entries
# (scripts/check_translations.py; `make lint` runs it too).
check-translations: install
	$(PY) scripts/check_translations.py

format: install
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

test: install lint
	bash scripts/test_setup.sh
	$(TEST_ENV) EXTRA_BROKER_URLS=$(TEST_AMQP_URL) $(PY) scripts/check_services.py
	$(TEST_ENV) $(BIN)/pytest $(PYTEST_ARGS)

# The pure tests: the rules engines, the decklist parser and the error-code list. No
# Django, PostgreSQL or broker (`-p no:django`); a few seconds.
FAST_TESTS := tests/rules tests/decks/test_parser.py tests/test_error_codes.py

test-fast: install
	$(BIN)/pytest -p no:django -W ignore::pytest.PytestConfigWarning $(FAST_TESTS)

worker: install
	$(BIN)/celery -A config worker --loglevel=INFO

beat: install
	$(BIN)/celery -A config beat --loglevel=INFO --schedule=var/celerybeat-schedule

# The site as production runs it, on this machine: gunicorn + a Celery worker + the beat
# (scripts/serve.sh; set SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL, CELERY_BROKER_URL,
# CACHE_URL as in docs/deploy.md).
serve: install
	bash scripts/serve.sh

# The site on the organiser's laptop at the venue, for the phones on the venue's network
# (scripts/venue.sh, docs/venue.md): SQLite (or DATABASE_URL), tasks in-process, and the
# push to the league's site when VENUE_EVENT, VENUE_PUSH_URL and VENUE_PUSH_TOKEN are set.
venue: install
	bash scripts/venue.sh

# Tournament day over HTTP (issue 16's table): `make bench-load PLAYERS="512 2048"`.
PLAYERS ?= 512
bench-load: install
	$(PY) benchmarks/bench_load.py --players $(PLAYERS)

bench: install  ## the rules engines; benchmarks/bench_site.py measures the site on PostgreSQL
	$(PY) benchmarks/bench_swiss.py
	$(PY) benchmarks/bench_decks.py

clean:
	rm -rf $(VENV) var .pytest_cache .ruff_cache
