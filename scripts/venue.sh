#!/usr/bin/env bash
# `make venue`: the site on the organiser's laptop for a day at the venue (docs/venue.md).
# One command: migrations, static files, then gunicorn on every address of the laptop
# (port VENUE_PORT, default 8000) with tasks run in-process (no broker) and the database
# of DATABASE_URL (default the SQLite file in var/). One web process with threads, so the
# pages' cache and the idempotency keys are shared without Redis (set CACHE_URL to use
# Redis and WEB_CONCURRENCY for more processes).
#
# With VENUE_EVENT, VENUE_PUSH_URL and VENUE_PUSH_TOKEN set, it also runs the pusher
# (`manage.py venue_push`) that keeps the league's online site following the event.
# Ctrl-C stops both.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN=.venv/bin
PORT="${VENUE_PORT:-8000}"
unset CELERY_BROKER_URL DJANGO_ENV
export DJANGO_DEBUG="${DJANGO_DEBUG:-0}" ALLOWED_HOSTS="${ALLOWED_HOSTS:-*}"
export SECRET_KEY="${SECRET_KEY:-$(mkdir -p var && { cat var/venue-secret 2>/dev/null || head -c 32 /dev/urandom | base64 | tee var/venue-secret; })}"
$BIN/python manage.py migrate --noinput
$BIN/python manage.py collectstatic --noinput -v0
$BIN/python manage.py venue_address --port "$PORT"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait' EXIT INT TERM
WEB_BIND="0.0.0.0:$PORT" $BIN/gunicorn -c config/gunicorn.py --workers "${WEB_CONCURRENCY:-1}" \
    --worker-class gthread --threads "${VENUE_THREADS:-16}" config.wsgi & pids+=($!)
if [[ -n "${VENUE_EVENT:-}" && -n "${VENUE_PUSH_URL:-}" && -n "${VENUE_PUSH_TOKEN:-}" ]]; then
    $BIN/python manage.py venue_push "$VENUE_EVENT" & pids+=($!)
fi
wait -n
