"""Password reset: how long the page takes for a known and an unknown address, with a mail
server that takes 200 ms per message, Django's stock view against ours (issue 27). The
stock view sends inside the request, so the two answers differ by the mail server's time
and tell anyone which addresses have accounts; ours records an outbox task (published to
the broker after commit, on a queue nobody reads here) and answers alike.

    DATABASE_URL=postgres://… CELERY_BROKER_URL=redis://… .venv/bin/python benchmarks/bench_password_reset.py

Creates and drops its own test database (`test_<name>`).
"""

import asyncio
import os
import statistics
import sys
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from aiosmtpd.controller import Controller  # noqa: E402
from django.conf import settings  # noqa: E402
from django.contrib.auth import get_user_model  # noqa: E402
from django.contrib.auth.views import PasswordResetView  # noqa: E402
from django.test import RequestFactory  # noqa: E402
from django.test.utils import setup_databases, setup_test_environment, teardown_databases  # noqa: E402

from config.celery import app  # noqa: E402
from league.views import password_reset  # noqa: E402

ROUNDS = 15


class SlowServer:
    async def handle_DATA(self, server, session, envelope):
        await asyncio.sleep(0.2)
        return "250 OK"


def timed(view, address: str) -> float:
    request = RequestFactory().post("/accounts/password_reset/", {"email": address})
    request._dont_enforce_csrf_checks = True
    start = time.perf_counter()
    response = view(request)
    took = time.perf_counter() - start
    assert response.status_code == 302, response.status_code
    return took * 1000


def main() -> int:
    if not os.environ.get("CELERY_BROKER_URL"):
        print("Set CELERY_BROKER_URL: ours publishes the task, as production does.")
        return 2
    setup_test_environment()
    old = setup_databases(verbosity=0, interactive=False)
    port = int(os.environ.get("BENCH_SMTP_PORT", "18201"))
    controller = Controller(SlowServer(), hostname="127.0.0.1", port=port)
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST, settings.EMAIL_PORT = (
        "127.0.0.1",
        controller.server.sockets[0].getsockname()[1],
    )
    app.conf.task_default_queue = f"bench-reset-{uuid.uuid4().hex[:8]}"  # nobody reads it
    try:
        user = get_user_model().objects.create_user("misty", "misty@example.test", "Old-Pass-1")
        assert user.pk
        views = {
            "Django's (mail in the request)": PasswordResetView.as_view(),
            "ours (outbox)": password_reset,
        }
        print(f"{'view':<32}{'known ms':>10}{'unknown ms':>12}{'difference':>12}")
        for name, view in views.items():
            timed(view, "misty@example.test")  # warm up
            known = statistics.median(timed(view, "misty@example.test") for _ in range(ROUNDS))
            unknown = statistics.median(timed(view, "nobody@example.test") for _ in range(ROUNDS))
            print(f"{name:<32}{known:>10.1f}{unknown:>12.1f}{known - unknown:>12.1f}")
        print(f"medians of {ROUNDS}; mail server 200 ms a message; load {os.getloadavg()}")
    finally:
        controller.stop()
        with app.connection_for_write() as connection:
            connection.default_channel.queue_delete(app.conf.task_default_queue)
        teardown_databases(old, verbosity=0)
    return 0


if __name__ == "__main__":
    sys.exit(main())
