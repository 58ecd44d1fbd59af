"""Settings, read from the environment with safe defaults.

Defaults give the embedded quick start: SQLite under `var/`, Celery tasks run in-process,
e-mail printed to the console. Production sets `DJANGO_ENV=production`, which refuses to
start without `SECRET_KEY` and turns `DEBUG` off. Every variable is listed in README.md.
"""

import base64
import hashlib
import os
from datetime import timedelta
from pathlib import Path

import dj_database_url
from celery.schedules import crontab
from csp.constants import NONCE
from django.core.exceptions import ImproperlyConfigured

from notifications.schedule import BEAT_SCHEDULE as NOTIFICATIONS_BEAT_SCHEDULE

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(os.environ.get("VAR_DIR", BASE_DIR / "var"))
VAR_DIR.mkdir(parents=True, exist_ok=True)


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None or value == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str = "") -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


PRODUCTION = os.environ.get("DJANGO_ENV", "development") == "production"
DEBUG = env_bool("DJANGO_DEBUG", default=not PRODUCTION)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("SECRET_KEY must be set when DJANGO_ENV=production.")
    SECRET_KEY = "insecure-development-key-never-use-in-production"

ALLOWED_HOSTS = env_list(
    "ALLOWED_HOSTS", "" if PRODUCTION else "localhost,127.0.0.1,[::1],testserver"
)
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "axes",
    "notifications",
    "decks",
    "league",
    "webhooks",
    "matches",
    "floor",
    "tom",
    "insights",
    "gamenights",
]

MIDDLEWARE = [
    # The client's address behind the proxy, once, for every throttle (config/client_address.py).
    "config.client_address.ClientAddressMiddleware",
    "django.middleware.security.SecurityMiddleware",
    # Cache, static files and production server (see the block below).
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Security (production): oversized bodies and NUL in paths or queries refused before
    # anything reads them; the CSP.
    "config.limits.RequestBodyLimitMiddleware",
    "config.limits.RefuseNulMiddleware",
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.http.ConditionalGetMiddleware",
    "csp.middleware.CSPMiddleware",
    # Public round pages, whole from the cache, before the session or the user is read.
    "matches.public_pages.PublicPageMiddleware",
    # A signed-in viewer's own pages (me.json, the event and match pages), kept per user and
    # version, answered from the cache before the session is loaded (matches/own_pages.py).
    "matches.own_pages.OwnPageMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    # The reader's language: the language cookie, else Accept-Language (LANGUAGES below).
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    # Django's, with the user row from the shared cache (league/user_cache.py).
    "league.user_cache.CachedAuthenticationMiddleware",
    "config.idempotency.IdempotencyKeyMiddleware",
    "config.pwa.ViewerMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Last, as axes asks: turns a refused login into the lockout answer.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "notifications.context_processors.unread",
                "config.pwa.venue_words",
            ],
        },
    },
]

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL", f"sqlite:///{VAR_DIR / 'league.sqlite3'}"),
        conn_max_age=int(os.environ.get("DATABASE_CONN_MAX_AGE", "60")),
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Wait for a writer instead of failing with "database is locked" in the quick start.
    DATABASES["default"].setdefault("OPTIONS", {})["timeout"] = 20
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

LANGUAGE_CODE = "en"
TIME_ZONE = os.environ.get("TIME_ZONE", "UTC")
USE_I18N = True
# The six languages of Pokémon TCG Live, each named in itself (the switcher shows these).
LANGUAGES = [
    ("en", "English"),
    ("fr", "Français"),
    ("de", "Deutsch"),
    ("it", "Italiano"),
    ("es", "Español"),
    ("pt-br", "Português (Brasil)"),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(exist_ok=True)
# The site's own static files beside the apps' (the progressive web app's scripts: pwa/).
STATICFILES_DIRS = [BASE_DIR / "static"]

# --- Cache, static files and production server --------------------------------------
# The public round pages are built once per version of the event and kept in this cache
# (`matches/page_cache.py`); every web process must share it, so production uses Redis
# (`CACHE_URL`, default a local Redis' DB 2). The quick start and the tests keep it in the
# process (local memory), unless CACHE_URL is set.
CACHE_URL = os.environ.get("CACHE_URL", "redis://127.0.0.1:6379/2" if PRODUCTION else "")
if CACHE_URL:
    CACHES = {
        "default": {
            "BACKEND": "config.cache.RedisCache",  # Django's, one client a pool
            "LOCATION": CACHE_URL,
            "KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "league"),
            "OPTIONS": {"socket_timeout": 2, "socket_connect_timeout": 2},
        }
    }
    # Sessions are read from the shared cache and written through to the database: a
    # phone's every request then costs no session query, and a flushed cache logs nobody
    # out (a cache that cannot answer falls back to the database).
    SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# Static files are served by the web processes through WhiteNoise, compressed (gzip and
# Brotli) and with far-future cache headers once `collectstatic` has run (production).
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}
# gunicorn (`make serve`, `config/gunicorn.py`): workers and their timeout.
WEB_CONCURRENCY = int(os.environ.get("WEB_CONCURRENCY", "5"))

# --- E-mail -------------------------------------------------------------------------
EMAIL_BACKEND = os.environ.get(
    "EMAIL_BACKEND",
    "django.core.mail.backends.smtp.EmailBackend"
    if PRODUCTION
    else "django.core.mail.backends.console.EmailBackend",
)
EMAIL_HOST = os.environ.get("EMAIL_HOST", "localhost")
EMAIL_PORT = int(os.environ.get("EMAIL_PORT", "25"))
EMAIL_HOST_USER = os.environ.get("EMAIL_HOST_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("EMAIL_HOST_PASSWORD", "")
EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS")
EMAIL_FILE_PATH = os.environ.get("EMAIL_FILE_PATH", str(VAR_DIR / "mail"))
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "league@localhost")
# How long an e-mail's one-click unsubscribe link works (notifications/unsubscribe.py).
UNSUBSCRIBE_LINK_DAYS = int(os.environ.get("UNSUBSCRIBE_LINK_DAYS", "90"))
# Links in e-mails are made absolute with this.
SITE_URL = os.environ.get("SITE_URL", "http://localhost:8000")

# --- Celery -------------------------------------------------------------------------
# No broker: run tasks in the caller's process, so the quick start needs nothing else (the
# in-memory transport only keeps Celery from looking for a broker on localhost).
CELERY_TASK_ALWAYS_EAGER = not os.environ.get("CELERY_BROKER_URL")
CELERY_BROKER_URL = os.environ.get("CELERY_BROKER_URL") or "memory://localhost/"
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_RESULT_BACKEND = os.environ.get("CELERY_RESULT_BACKEND", "") or None
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_SERIALIZER = "json"
CELERY_ACCEPT_CONTENT = ["json"]
CELERY_TIMEZONE = TIME_ZONE
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
CELERY_TASK_DEFAULT_QUEUE = os.environ.get("CELERY_TASK_DEFAULT_QUEUE", "celery")
# Scheduled jobs (run exactly one `celery -A config beat`). Every job is idempotent.
CELERY_BEAT_SCHEDULE = {
    **NOTIFICATIONS_BEAT_SCHEDULE,
    "league.deck-deadline-reminders": {
        "task": "league.send_deck_deadline_reminders",
        "schedule": crontab(minute="*/5"),
    },
    "league.event-starting": {
        "task": "league.send_event_starting_notices",
        "schedule": crontab(minute="*/5"),
    },
    "matches.round-clocks": {"task": "matches.send_round_clock_reminders", "schedule": 60.0},
    "league.token-uses": {"task": "league.write_token_uses", "schedule": 60.0},
}

# --- Broker and mail -----------------------------------------------------------------
# Nothing a page does may wait on, or fail with, the broker (issue 15). Publishing gives up
# after a second or two and is never retried in the request: the work is already recorded
# in the database (notification rows, `notifications.OutboxTask`) and the relay
# (`notifications.relay`, every `NOTIFICATION_RELAY_SECONDS`) dispatches what is due.
BROKER_TIMEOUT_SECONDS = float(os.environ.get("BROKER_TIMEOUT_SECONDS", "1.5"))
BROKER_CONNECT_TIMEOUT_SECONDS = float(os.environ.get("BROKER_CONNECT_TIMEOUT_SECONDS", "1"))
CELERY_BROKER_CONNECTION_TIMEOUT = BROKER_CONNECT_TIMEOUT_SECONDS
CELERY_TASK_PUBLISH_RETRY = False
CELERY_BROKER_TRANSPORT_OPTIONS = {
    # Redis: kombu has no socket timeout unless given one; a hung server would hang the page.
    "socket_timeout": BROKER_TIMEOUT_SECONDS,
    "socket_connect_timeout": BROKER_CONNECT_TIMEOUT_SECONDS,
    # kombu's own reconnect loop when a publisher opens its channel: one try, no wait (the
    # worker's consumer reconnects by `broker_connection_retry`, not by these).
    "max_retries": 1,
    "interval_start": 0,
    "interval_step": 0,
    "interval_max": 0,
    # Redis re-delivers an unacknowledged task after this: longer than the longest task (a
    # batch of 200 e-mails at 30 a minute takes under 7 minutes; the relay re-dispatches
    # the rows of a lost batch long before).
    "visibility_timeout": int(os.environ.get("CELERY_VISIBILITY_TIMEOUT", "1800")),
    # RabbitMQ (py-amqp): reads and writes on an established connection.
    "read_timeout": BROKER_TIMEOUT_SECONDS,
    "write_timeout": BROKER_TIMEOUT_SECONDS,
}
# `redis://` brokers use `config.broker.Transport` (one try per publish; config/celery.py).
CELERY_REDIS_SOCKET_TIMEOUT = BROKER_TIMEOUT_SECONDS
CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = BROKER_CONNECT_TIMEOUT_SECONDS
# Tasks are idempotent: acknowledged when done, re-delivered if their worker dies.
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
# After a failed publish, skip the broker for this long (the relay picks the work up), so a
# page that dispatches several tasks waits on a dead broker once, not once per task.
BROKER_BACKOFF_SECONDS = float(os.environ.get("BROKER_BACKOFF_SECONDS", "10"))
# How often the relay (beat) looks for due work; how long a worker's claim on an e-mail or
# an outbox task lives (after it the row is due again); how long fresh work is left to
# its own after-commit dispatch before the relay sends it again.
NOTIFICATION_RELAY_SECONDS = float(os.environ.get("NOTIFICATION_RELAY_SECONDS", "60"))
NOTIFICATION_LEASE_SECONDS = float(os.environ.get("NOTIFICATION_LEASE_SECONDS", "45"))
NOTIFICATION_RELAY_GRACE_SECONDS = float(os.environ.get("NOTIFICATION_RELAY_GRACE_SECONDS", "20"))
# A drain of batched after-work (a report's notice, webhook, standings request) waits this
# long after the commit that asked for it, so the commits of that moment join its batch
# (notifications/batches.py).
OUTBOX_BATCH_GATHER_SECONDS = float(os.environ.get("OUTBOX_BATCH_GATHER_SECONDS", "1"))
# Mail policy: messages per minute the sender keeps to (0: no limit); transient refusals
# back off exponentially from the base to the cap, for at most the budget (hours after
# the notification was written), then the row is `failed` with an ERROR log line.
NOTIFICATION_SEND_RATE_PER_MINUTE = float(os.environ.get("NOTIFICATION_SEND_RATE_PER_MINUTE", "60"))
NOTIFICATION_RETRY_BASE_SECONDS = float(os.environ.get("NOTIFICATION_RETRY_BASE_SECONDS", "30"))
NOTIFICATION_RETRY_MAX_SECONDS = float(os.environ.get("NOTIFICATION_RETRY_MAX_SECONDS", "900"))
NOTIFICATION_RETRY_BUDGET_HOURS = float(os.environ.get("NOTIFICATION_RETRY_BUDGET_HOURS", "24"))

# --- Outgoing webhooks (webhooks/) ---------------------------------------------------
# Targets must resolve to public addresses (no SSRF) unless this is on: development, and
# the tests' own receiver on 127.0.0.1.
WEBHOOK_ALLOW_PRIVATE_TARGETS = env_bool("WEBHOOK_ALLOW_PRIVATE_TARGETS", False)
WEBHOOK_CONNECT_TIMEOUT_SECONDS = float(os.environ.get("WEBHOOK_CONNECT_TIMEOUT_SECONDS", "3"))
# The whole attempt, from connecting to the end of the answer (not per socket read: a
# receiver trickling a byte at a time is cut off here); at most 2/3 of the lease.
WEBHOOK_DEADLINE_SECONDS = float(os.environ.get("WEBHOOK_DEADLINE_SECONDS", "10"))
# A worker's claim on a delivery while it sends (a dead worker's is due again after it).
WEBHOOK_LEASE_SECONDS = float(os.environ.get("WEBHOOK_LEASE_SECONDS", "60"))
WEBHOOK_RETRY_BASE_SECONDS = float(os.environ.get("WEBHOOK_RETRY_BASE_SECONDS", "30"))
WEBHOOK_RETRY_MAX_SECONDS = float(os.environ.get("WEBHOOK_RETRY_MAX_SECONDS", "3600"))
WEBHOOK_MAX_ATTEMPTS = int(os.environ.get("WEBHOOK_MAX_ATTEMPTS", "8"))
# Failed attempts in a row (any of the URL's deliveries) that pause a URL.
WEBHOOK_PAUSE_AFTER_FAILURES = int(os.environ.get("WEBHOOK_PAUSE_AFTER_FAILURES", "10"))
# --- end of Broker and mail -------------------------------------------------------------

# --- REST framework -----------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "config.api_schema.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        # First, so a refused token answers 401 with `WWW-Authenticate: Token`.
        "config.api_auth.TokenAuthentication",
        "rest_framework.authentication.SessionAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_PARSER_CLASSES": [
        "config.limits.BoundedJSONParser",
        "config.limits.BoundedFormParser",
        "config.limits.BoundedMultiPartParser",
    ],
    "DEFAULT_PAGINATION_CLASS": "config.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 100,
    "EXCEPTION_HANDLER": "config.api_errors.exception_handler",
    # Throttles read REMOTE_ADDR, which `config.client_address` has set from
    # TRUSTED_PROXY_COUNT (never DRF's default: the whole X-Forwarded-For as the key).
    "NUM_PROXIES": 0,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Pokémon TCG League API",
    "DESCRIPTION": "Deck registration, events, pairings, results and standings.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI served from our own static files: the docs page works without a CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Product settings ---------------------------------------------------------------
# Where `import_cards` looks when no path is given, and where tests find the full data.
CARD_DATA_PATH = os.environ.get("CARD_DATA_PATH", str(BASE_DIR.parent / "shared/data/pokemon-tcg"))

# === Security (production) ============================================================
# What `DJANGO_ENV=production` turns on behind the TLS proxy, and the limits that hold in
# every environment (so development and the tests see what production does).
# `manage.py check --deploy` is clean with these (tests/security/test_deploy.py).
if PRODUCTION:
    # The proxy terminates TLS and says so in X-Forwarded-Proto (it must overwrite any
    # X-Forwarded-Proto the client sent). Plain-HTTP requests are redirected to HTTPS
    # before any view (or API authentication) sees them.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = int(os.environ.get("SECURE_HSTS_SECONDS", str(365 * 24 * 3600)))
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", default=True)
    # Preloading commits the whole domain (and its subdomains) to HTTPS in browsers for
    # good: the site's owner opts in. Until then the check that asks for it is silenced.
    SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", default=False)
    if not SECURE_HSTS_PRELOAD:
        SILENCED_SYSTEM_CHECKS = ["security.W021"]
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
SESSION_COOKIE_HTTPONLY = True
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Proxies in front of the site whose X-Forwarded-For entries are trusted (1 behind the TLS
# proxy): the one setting every throttle (logins, API, pages) reads the client's address
# with, through `config.client_address`.
TRUSTED_PROXY_COUNT = int(os.environ.get("TRUSTED_PROXY_COUNT", "1" if PRODUCTION else "0"))

# Content-Security-Policy (django-csp): only our own scripts, styles and images. Inline
# <script> blocks carry the request's nonce (`{{ request.csp_nonce }}`); inline style
# attributes are allowed (styles cannot run code). Swagger UI loads its init script from
# a URL (SpectacularSwaggerSplitView), so it needs no inline script.
# The projector's clock is one inline script that never changes: allowed by its hash, so the
# projector (one body for every viewer, `matches.public_pages`) needs no per-request nonce.
PROJECTOR_CLOCK = "'sha256-{}'".format(
    base64.b64encode(
        hashlib.sha256((BASE_DIR / "templates/matches/_projector_clock.js").read_bytes()).digest()
    ).decode()
)
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'", NONCE, PROJECTOR_CLOCK],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],
        "connect-src": ["'self'"],
        "font-src": ["'self'"],
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    }
}

# Input bounds (config/limits.py): any request body, and JSON nesting in the API. The
# largest honest body is a decklist paste of a few kilobytes.
REQUEST_BODY_MAX_BYTES = int(os.environ.get("REQUEST_BODY_MAX_BYTES", str(256 * 1024)))
DATA_UPLOAD_MAX_MEMORY_SIZE = REQUEST_BODY_MAX_BYTES
# Paths whose bodies are TOM saves (up to `tom.services.MAX_SAVE_BYTES`, 5 MB: a one-round
# save of ~700 players is over 256 KB), with room for a multipart form's headers.
TOM_SAVE_BODY_MAX_BYTES = 5 * 1024 * 1024 + 64 * 1024
REQUEST_BODY_LIMITS_BY_PATH = [
    (r"^/api/tom/events/\d+/saves/$", TOM_SAVE_BODY_MAX_BYTES),
    (r"^/events/\d+/tom/upload/$", TOM_SAVE_BODY_MAX_BYTES),
]
JSON_MAX_DEPTH = 32

# Login throttling (django-axes, config/login_throttle.py): by account and, separately, by
# address; the lock lifts after the cool-off or when staff delete the attempts in the admin.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = int(os.environ.get("LOGIN_FAILURE_LIMIT", "10"))
AXES_COOLOFF_TIME = timedelta(minutes=int(os.environ.get("LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "config.client_address.client_ip"
AXES_LOCKOUT_CALLABLE = "config.login_throttle.lockout_response"
AXES_VERBOSE = False
# === end of Security (production) =====================================================

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "INFO")},
    # In-process tasks would log every run into the quick start's console.
    "loggers": {
        "celery.app.trace": {"level": "WARNING" if CELERY_TASK_ALWAYS_EAGER else "INFO"},
        # Every failed login at INFO would drown the log; lockouts are WARNING.
        "axes": {"level": "WARNING"},
    },
}
