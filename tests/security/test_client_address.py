"""Issue 27, item 2: every throttle counts the client's address as the proxy configuration
defines it (`TRUSTED_PROXY_COUNT`, `config.client_address`), so a forged first entry of
`X-Forwarded-For` buys no extra requests: the deck check promises 30 a minute."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import RequestFactory

from config.client_address import client_ip
from decks.throttle import AnonymousDeckCheckThrottle
from tests.factories import EventFactory, sample_cards

from .conftest import https_client

pytestmark = pytest.mark.django_db
LIMIT = int(AnonymousDeckCheckThrottle.rate.split("/")[0])
BODY = {"format": "standard", "decklist_text": "4 Pikachu\n"}


@pytest.fixture(autouse=True)
def _cards_and_a_fresh_count():
    sample_cards()
    EventFactory()
    cache.clear()
    yield
    cache.clear()


def _forged(n: int, client_address: str = "203.0.113.7") -> dict:
    # What the TLS proxy passes on: the client's own claim, then the address it saw.
    return {"HTTP_X_FORWARDED_FOR": f"198.51.{n // 250}.{n % 250}, {client_address}"}


def test_forged_forwarded_for_entries_do_not_lift_the_api_deck_check_limit(production_settings):
    client = https_client()
    codes = [
        client.post(
            "/api/decks/check/", BODY, content_type="application/json", **_forged(n)
        ).status_code
        for n in range(LIMIT + 4)
    ]
    assert codes.count(200) == LIMIT, codes
    assert codes[LIMIT:] == [429] * 4
    # Another client behind the same proxy has its own count.
    other = client.post(
        "/api/decks/check/", BODY, content_type="application/json", **_forged(0, "203.0.113.8")
    )
    assert other.status_code == 200


def test_the_deck_check_page_counts_with_the_api_by_the_same_address(production_settings):
    client = https_client()
    for n in range(LIMIT):
        response = client.post(
            "/api/decks/check/", BODY, content_type="application/json", **_forged(n)
        )
        assert response.status_code == 200
    page = client.post("/decks/check/", BODY, **_forged(999))
    assert page.status_code == 429
    assert f"at most {LIMIT} a minute without signing in" in page.content.decode()
    assert "Retry-After" in page


def test_login_api_and_pages_read_one_address(production_settings):
    request = RequestFactory().get("/", HTTP_X_FORWARDED_FOR="6.6.6.6, 203.0.113.7")
    request.META["REMOTE_ADDR"] = "10.0.0.2"  # the proxy
    assert client_ip(request) == "203.0.113.7"
    throttle = AnonymousDeckCheckThrottle()
    # DRF's own reading of the request, after the middleware ran, is the same address.
    from config.client_address import ClientAddressMiddleware

    ClientAddressMiddleware(lambda r: None)(request)
    assert throttle.get_ident(request) == "203.0.113.7" == client_ip(request)
    assert request.META["PROXY_ADDR"] == "10.0.0.2"
    assert production_settings.AXES_CLIENT_IP_CALLABLE == "config.client_address.client_ip"
