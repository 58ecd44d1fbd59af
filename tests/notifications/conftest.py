import pytest

from .backends import FlakyBackend, RejectingBackend


@pytest.fixture(autouse=True)
def _notification_settings(settings):
    settings.NOTIFICATION_RETRY_BASE_SECONDS = 0
    settings.SITE_URL = "https://league.example.org"
    FlakyBackend.failures = 0
    FlakyBackend.attempts = 0
    RejectingBackend.refused = set()
