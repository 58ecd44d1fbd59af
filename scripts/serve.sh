#!/usr/bin/env bash
# `make serve`: the site as production runs it on one machine: gunicorn (config/gunicorn.py)
# serving pages, API and static files (WhiteNoise), one Celery worker and the one beat.
# Needs DJANGO_ENV=production's variables (SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL,
# CELERY_BROKER_URL, CACHE_URL): see README.md and docs/deploy.md. Ctrl-C stops all three.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
export DJANGO_ENV="${DJANGO_ENV:-production}"
$BIN/python manage.py migrate --noinput
$BIN/python manage.py collectstatic --noinput -v0
mkdir -p var
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' EXIT INT TERM
$BIN/gunicorn -c config/gunicorn.py config.wsgi & pids+=($!)
$BIN/celery -A config worker --loglevel=INFO & pids+=($!)
$BIN/celery -A config beat --loglevel=INFO --schedule=var/celerybeat-schedule & pids+=($!)
wait -n
