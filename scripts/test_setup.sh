#!/usr/bin/env bash
# Everything the test suite needs on this kind of machine, set up by `make test` itself:
# PostgreSQL, Redis and RabbitMQ started when they are down, Debian's Chromium and the DejaVu
# fonts (decklist PDFs) installed when missing. Where this user lacks the rights, it prints
# the exact command to run and goes on: scripts/check_services.py then says what is missing.
set -u

as_root() {
    if [ "$(id -u)" = 0 ]; then "$@"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then sudo "$@"
    else echo "make test: run as root: $*" >&2; return 1
    fi
}

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

if ! port_open 5432 && [ -d /etc/postgresql ]; then
    echo "Starting PostgreSQL"
    as_root pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start
fi
if ! port_open 6379 && command -v redis-server >/dev/null 2>&1; then
    echo "Starting Redis"
    as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" \
        --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log
fi
if ! port_open 5672 && command -v rabbitmq-server >/dev/null 2>&1; then
    echo "Starting RabbitMQ"
    as_root rabbitmq-server -detached
fi

# Browser tests drive Debian's Chromium (never a downloaded browser); decklist PDFs use
# DejaVu Sans for the card names' marks (★ ◇ δ ♀).
if [ ! -x /usr/bin/chromium ] || [ ! -f /usr/share/fonts/truetype/dejavu/DejaVuSans.ttf ]; then
    echo "Installing Chromium and fonts-dejavu-core (apt-get)"
    as_root apt-get update -qq \
        && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-dejavu-core >/dev/null
fi

# The micro-cache tests run deploy/nginx/micro-cache.conf as their own nginx process.
if [ ! -x /usr/sbin/nginx ]; then
    echo "Installing nginx (apt-get)"
    as_root apt-get update -qq \
        && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nginx >/dev/null
    # Only the binary is wanted: the package's own server would take port 80.
    as_root service nginx stop >/dev/null 2>&1 || true
fi

# The catalogues' test runs makemessages on a copy of the tree (GNU gettext's xgettext).
if ! command -v xgettext >/dev/null 2>&1 || ! command -v msgfmt >/dev/null 2>&1; then
    echo "Installing gettext (apt-get)"
    as_root apt-get update -qq \
        && as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq gettext >/dev/null
fi

# Wait up to a minute for the services to answer (RabbitMQ takes a few seconds to start).
for _ in $(seq 1 60); do
    port_open 5432 && port_open 6379 && port_open 5672 && break
    sleep 1
done
exit 0
