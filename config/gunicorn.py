"""gunicorn's settings for `make serve` and production (`gunicorn -c config/gunicorn.py
config.wsgi`): sync workers (WEB_CONCURRENCY, default 5: 2 × cores + 1 on this machine's
2 cores), bound to WEB_BIND."""

import os

bind = os.environ.get("WEB_BIND", "127.0.0.1:8000")
workers = int(os.environ.get("WEB_CONCURRENCY", "5"))
worker_class = "sync"
timeout = int(os.environ.get("WEB_TIMEOUT", "30"))
# Recycle a worker now and then, so a slow leak never grows for days.
max_requests = 2000
max_requests_jitter = 200
accesslog = os.environ.get("WEB_ACCESS_LOG") or None
# gunicorn's control socket (`gunicornc`) is one path per user by default, so a second
# instance on the machine (a benchmark's ceiling, a test's server) logs "Address already
# in use" at start. Nothing here uses it: WEB_CONTROL_SOCKET names one to have it.
if os.environ.get("WEB_CONTROL_SOCKET"):
    control_socket = os.environ["WEB_CONTROL_SOCKET"]
else:
    control_socket_disable = True
