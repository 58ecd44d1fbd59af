"""The public deck check, `POST /api/decks/check/`: paste limits and the anonymous rate limit."""

import pytest
from django.core.cache import cache
from rest_framework.test import APIClient

from decks.api import AnonymousDeckCheckThrottle
from decks.parser import MAX_PASTE_CHARS, MAX_PASTE_LINES
from tests.factories import EventFactory, sample_cards

pytestmark = pytest.mark.django_db

URL = "/api/decks/check/"


@pytest.fixture(autouse=True)
def _fresh_throttle():
    cache.clear()
    yield
    cache.clear()


def post(client, text):
    return client.post(URL, {"format": "standard", "decklist_text": text}, format="json")


def test_too_many_lines_is_one_clear_error_naming_the_limit():
    sample_cards()
    EventFactory()
    response = post(APIClient(), "\n".join("1 Pikachu" for _ in range(MAX_PASTE_LINES + 1)))
    assert response.status_code == 200
    body = response.json()
    assert body["legal"] is False
    assert [e["code"] for e in body["errors"]] == ["too-many-lines"]
    assert str(MAX_PASTE_LINES) in body["errors"][0]["message"]


def test_a_paste_over_the_size_limit_is_refused_naming_the_limit():
    sample_cards()
    EventFactory()
    response = post(APIClient(), "4 Pikachu\n" * (MAX_PASTE_CHARS // 10 + 1))
    assert response.status_code == 400
    assert f"{MAX_PASTE_CHARS:,} characters" in str(response.json())


def test_anonymous_checks_are_rate_limited_with_a_clear_message():
    sample_cards()
    EventFactory()
    client = APIClient()
    limit = int(AnonymousDeckCheckThrottle.rate.split("/")[0])
    for _ in range(limit):
        assert post(client, "4 Pikachu").status_code == 200
    response = post(client, "4 Pikachu")
    assert response.status_code == 429
    detail = response.json()["detail"]
    assert f"at most {limit} a minute without signing in" in detail
    assert "Expected available in" in detail
    assert "Retry-After" in response


def test_signed_in_players_are_not_rate_limited(staff):
    sample_cards()
    EventFactory()
    client = APIClient()
    client.force_authenticate(staff)
    limit = int(AnonymousDeckCheckThrottle.rate.split("/")[0])
    for _ in range(limit + 2):
        assert post(client, "4 Pikachu").status_code == 200
