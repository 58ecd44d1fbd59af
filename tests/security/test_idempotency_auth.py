"""Issue 27, item 6: a stored answer to an `Idempotency-Key` is replayed only to the
authenticated user it belongs to: a revoked token (or none) gets 401, not the deck text."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from league.services.tokens import create_api_token, revoke_api_token
from tests.factories import EventFactory, RegistrationFactory

from .conftest import HTTPS

pytestmark = pytest.mark.django_db
LIST = "4 Pikachu\n"


def _client(key: str | None = None, user=None) -> APIClient:
    client = APIClient(**HTTPS)
    if key:
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    if user is not None:
        client.force_login(user, backend="django.contrib.auth.backends.ModelBackend")
    return client


def _store(client, registration, idem="deck-1"):
    return client.post(
        f"/api/registrations/{registration.pk}/decks/",
        {"decklist_text": LIST},
        format="json",
        HTTP_IDEMPOTENCY_KEY=idem,
    )


@pytest.fixture
def open_registration(world):
    """Ash's registration at an event of league A whose lists are not locked yet."""
    event = EventFactory(season=world.event.season, name="Cerulean Cup")
    return RegistrationFactory(event=event, player=world.ash_registration.player)


def test_a_revoked_token_gets_no_stored_answer(production_settings, world, open_registration):
    ash = world.ash
    registration = open_registration
    token, key = create_api_token(user=ash, name="script")
    first = _store(_client(key), registration)
    assert first.status_code == 201, first.content
    assert _store(_client(key), registration).headers.get("Idempotent-Replayed") == "true"

    revoke_api_token(user=ash, token_id=token.pk)
    replay = _store(_client(key), registration)
    assert replay.status_code == 401
    assert "Idempotent-Replayed" not in replay.headers
    assert "Pikachu" not in replay.content.decode()
    # Nor anyone without credentials, nor a wrong token, with the same key and body.
    assert _store(_client(), registration).status_code in (401, 403)
    assert _store(_client("x" * 40), registration).status_code == 401


def test_keys_are_per_user_whatever_the_credentials(production_settings, world, open_registration):
    ash, misty = world.ash, world.misty
    _, ash_key = create_api_token(user=ash, name="a")
    _, other_key = create_api_token(user=ash, name="b")
    assert _store(_client(ash_key), open_registration).status_code == 201
    # The same user through another token or the session: the stored answer, per user.
    assert _store(_client(other_key), open_registration)["Idempotent-Replayed"] == "true"
    assert _store(_client(user=ash), open_registration)["Idempotent-Replayed"] == "true"
    # Another user with the same key and body: their own request, refused on its merits.
    _, misty_key = create_api_token(user=misty, name="m")
    theirs = _store(_client(misty_key), open_registration)
    assert "Idempotent-Replayed" not in theirs.headers
    assert theirs.status_code in (403, 404)
