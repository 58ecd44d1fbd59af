"""Check that the services the test suite needs answer, and say how to start any that don't.

Used by `make test` before pytest: a missing PostgreSQL or broker then fails in one clear
line instead of a hundred stack traces.
"""

import os
import sys

START = {
    "postgresql": "pg_ctlcluster --skip-systemctl-redirect $(ls /etc/postgresql) main start",
    "redis": "redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save '' "
    "--appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log",
    "amqp": "rabbitmq-server -detached",
}


def check_database(url: str) -> str | None:
    import psycopg

    try:
        # Connect to the maintenance database: the test database is created by pytest.
        with psycopg.connect(url.rsplit("/", 1)[0] + "/postgres", connect_timeout=5):
            return None
    except Exception as exc:
        return f"PostgreSQL at {url} cannot be reached ({exc.__class__.__name__}). Start it: {START['postgresql']}"


def check_broker(url: str) -> str | None:
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=5) as conn:
            conn.ensure_connection(max_retries=1)
            return None
    except Exception as exc:
        kind = "redis" if url.startswith("redis") else "amqp"
        return (
            f"Broker at {url} cannot be reached ({exc.__class__.__name__}). Start it: {START[kind]}"
        )


def check_chromium() -> str | None:
    path = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    if os.access(path, os.X_OK):
        return None
    return f"Chromium is missing at {path} (browser tests). Install it: apt-get install chromium"


def main() -> int:
    problems = [
        p
        for p in (
            check_database(os.environ["DATABASE_URL"]),
            check_broker(os.environ["CELERY_BROKER_URL"]),
            *(check_broker(url) for url in os.environ.get("EXTRA_BROKER_URLS", "").split() if url),
            check_chromium(),
        )
        if p
    ]
    for problem in problems:
        print(problem, file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
