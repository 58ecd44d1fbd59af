import itertools

import pytest
from django.contrib.auth import get_user_model

from .backends import FlakyBackend, RejectingBackend

_numbers = itertools.count(1)


@pytest.fixture
def make_user(db):
    def make(*, email: str | None = None, **fields):
        number = next(_numbers)
        username = fields.pop("username", f"player{number}")
        return get_user_model().objects.create_user(
            username=username,
            email=f"{username}@example.org" if email is None else email,
            **fields,
        )

    return make


@pytest.fixture(autouse=True)
def _notification_settings(settings):
    settings.NOTIFICATION_RETRY_BASE_SECONDS = 0
    settings.SITE_URL = "https://league.example.org"
    FlakyBackend.failures = 0
    FlakyBackend.attempts = 0
    RejectingBackend.refused = set()
