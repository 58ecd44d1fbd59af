"""Delivery through Django's real SMTP backend to a local aiosmtpd server."""

import socket

import pytest

from notifications import services
from notifications.models import EmailStatus, Notification

from .helpers import item

aiosmtpd_controller = pytest.importorskip("aiosmtpd.controller")

pytestmark = pytest.mark.django_db


class FlakyHandler:
    """Answers `421` (try again later) to the first `failures` messages, then accepts."""

    def __init__(self, failures: int):
        self.failures = failures
        self.received = []

    async def handle_DATA(self, server, session, envelope):
        if self.failures > 0:
            self.failures -= 1
            return "421 4.3.2 Service not available, try again later"
        self.received.append(envelope)
        return "250 2.0.0 OK"


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def smtp_server(settings):
    handler = FlakyHandler(failures=2)
    controller = aiosmtpd_controller.Controller(handler, hostname="127.0.0.1", port=free_port())
    controller.start()
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = controller.port
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    yield handler
    controller.stop()


def test_smtp_server_refuses_twice_then_accepts_and_each_email_arrives_once(
    smtp_server, make_user, django_capture_on_commit_callbacks
):
    ash, misty = make_user(), make_user()

    with django_capture_on_commit_callbacks(execute=True):
        services.notify(kind="pairings_published", items=[item(ash, "a"), item(misty, "m")])

    assert sorted(envelope.rcpt_tos[0] for envelope in smtp_server.received) == sorted(
        [ash.email, misty.email]
    )
    first, second = Notification.objects.order_by("pk")
    assert {first.email_status, second.email_status} == {EmailStatus.SENT}
    # The refusals are charged to the row refused; the other waits, uncharged.
    assert (first.email_attempts, second.email_attempts) == (3, 1)
    assert "421" in first.email_error
