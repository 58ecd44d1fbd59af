"""Issue 17, the rest of the probe, against the production settings: login throttling,
plain HTTP, the security headers, bounded input, account enumeration, the deck lock."""

from __future__ import annotations

import json

import pytest
from axes.models import AccessAttempt
from django.core import mail

from league.models import Event

from .conftest import https_client

pytestmark = pytest.mark.django_db
LOGIN = "/accounts/login/"
PASSWORD = "Right-Password-17"


@pytest.fixture
def ash(world):
    world.ash.set_password(PASSWORD)
    world.ash.save()
    return world.ash


def _login(client, username, password, **extra):
    return client.post(LOGIN, {"username": username, "password": password}, **extra)


def test_wrong_passwords_lock_the_account_with_a_clear_message_until_unlocked(
    production_settings, ash
):
    client = https_client()
    limit = production_settings.AXES_FAILURE_LIMIT
    for _ in range(limit - 1):
        assert _login(client, "ash-login", "wrong").status_code == 200
    locked = _login(client, "ash-login", "wrong")
    assert locked.status_code == 429
    assert "Too many failed logins" in locked.content.decode()
    # Locked: even the right password is refused now.
    assert _login(client, "ash-login", PASSWORD).status_code == 429
    # The unlock path: staff delete the attempts in the admin (or the cool-off passes).
    AccessAttempt.objects.all().delete()
    assert _login(client, "ash-login", PASSWORD).status_code == 302


def test_wrong_passwords_from_one_address_lock_the_address_whatever_the_account(
    production_settings, world
):
    client = https_client()
    proxy_says = {"HTTP_X_FORWARDED_FOR": "203.0.113.9"}
    for n in range(production_settings.AXES_FAILURE_LIMIT):
        _login(client, f"nobody-{n}", "wrong", **proxy_says)
    assert _login(client, "someone-else", "wrong", **proxy_says).status_code == 429
    # A client cannot step around it by claiming another address before the proxy's.
    spoofed = {"HTTP_X_FORWARDED_FOR": "198.51.100.1, 203.0.113.9"}
    assert _login(client, "another", "wrong", **spoofed).status_code == 429
    # Another address is not affected.
    other = {"HTTP_X_FORWARDED_FOR": "203.0.113.10"}
    assert _login(client, "another", "wrong", **other).status_code == 200


def test_the_api_takes_no_passwords_to_guess(production_settings, ash, world, settings):
    """Basic authentication is gone from the API (personal tokens replace it, issue 16), so
    passwords cannot be guessed through it without the login throttle: even the right
    password authenticates nobody there."""
    import base64

    classes = settings.REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"]
    assert not [c for c in classes if "Basic" in c]
    token = base64.b64encode(f"ash-login:{PASSWORD}".encode()).decode()
    response = https_client().post(
        f"/api/registrations/{world.ash_registration.pk}/decks/",
        {"decklist_text": "4 Pikachu\n"},
        content_type="application/json",
        HTTP_AUTHORIZATION=f"Basic {token}",
    )
    assert response.status_code in (401, 403)


def test_plain_http_is_redirected_before_any_view_or_authentication(production_settings, db):
    response = https_client().get("/api/events/", HTTP_X_FORWARDED_PROTO="http")
    assert response.status_code == 301 and response["Location"].startswith("https://")


def test_pages_and_the_api_docs_send_hsts_and_a_content_security_policy(production_settings, world):
    client = https_client(world.org_a)
    for url in (
        "/",
        f"/events/{world.event.pk}/",
        f"/events/{world.event.pk}/manage/",
        "/api/docs/",
    ):
        response = client.get(url)
        assert response.status_code == 200, url
        assert response["Strict-Transport-Security"].startswith("max-age=")
        policy = response["Content-Security-Policy"]
        script_src = next(d for d in policy.split("; ") if d.startswith("script-src"))
        assert "unsafe" not in script_src and "object-src 'none'" in policy
        html = response.content.decode()
        # Every inline script carries the nonce; no inline event handlers.
        assert "<script>" not in html and " onsubmit=" not in html and " onclick=" not in html
        if "<script nonce=" in html:
            nonce = script_src.split("'nonce-")[1].split("'")[0]
            assert html.count("<script nonce=") == html.count(f'nonce="{nonce}"')
    script = client.get("/api/docs/?script")
    assert script.status_code == 200 and "SwaggerUIBundle" in script.content.decode()


NESTED = "[" * 100_000 + "]" * 100_000


@pytest.mark.parametrize(
    "path",
    [
        "/api/decks/check/",
        "/api/events/{event}/publish-decklists/",
        "/api/registrations/{registration}/decks/",
        "/api/matches/{match}/report/",
        "/api/matches/{match}/result/",
    ],
)
def test_json_nested_100000_deep_is_a_clear_400(production_settings, world, path):
    match = world.event.rounds.get().matches.first()
    url = path.format(event=world.event.pk, registration=world.ash_registration.pk, match=match.pk)
    response = https_client(world.org_a).post(url, NESTED, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["code"] == "json-too-deep"


def test_json_a_little_too_deep_is_refused_as_well(production_settings, world):
    body = json.dumps({"format": "standard", "decklist_text": "x", "x": [[[[[[[[[[]]]]]]]]]] * 4})
    deep = '{"a":' * 40 + "1" + "}" * 40
    client = https_client()
    assert (
        client.post("/api/decks/check/", body, content_type="application/json").status_code == 200
    )
    response = client.post("/api/decks/check/", deep, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "json-too-deep"


def test_a_body_over_the_limit_is_a_clear_400_before_anything_reads_it(production_settings, db):
    big = "x" * (production_settings.REQUEST_BODY_MAX_BYTES + 1)
    api = https_client().post("/api/decks/check/", big, content_type="application/json")
    assert api.status_code == 400 and api.json()["code"] == "request-too-large"
    page = https_client().post("/decks/check/", {"decklist_text": big})
    assert page.status_code == 400 and "larger than" in page.content.decode()


def test_signup_with_a_known_address_answers_as_for_a_new_one(
    production_settings, world, django_capture_on_commit_callbacks
):
    world.ash.email = "ash@example.test"
    world.ash.save()

    def sign_up(username, email):
        with django_capture_on_commit_callbacks(execute=True):
            return https_client().post(
                "/accounts/signup/",
                {"username": username, "email": email,
                 "password1": "Pidgey-Flies-88", "password2": "Pidgey-Flies-88"},
            )  # fmt: skip

    known, new = sign_up("gary", "ASH@example.test"), sign_up("gary2", "gary@example.test")
    assert (known.status_code, known["Location"]) == (new.status_code, new["Location"])
    assert [m.to for m in mail.outbox] == [["ash@example.test"]]


def test_a_list_cannot_be_changed_through_the_api_once_play_started(production_settings, world):
    assert world.event.deck_deadline is None and world.event.rounds.exists()
    response = https_client(world.ash).post(
        f"/api/registrations/{world.ash_registration.pk}/decks/",
        {"decklist_text": "4 Pikachu\n"},
        content_type="application/json",
    )
    assert response.status_code == 409 and response.json()["code"] == "deck-locked"


def test_the_draft_event_cannot_be_registered_for_through_the_api(production_settings, world):
    assert world.draft.status == Event.Status.DRAFT
    response = https_client(world.misty).post(f"/api/events/{world.draft.pk}/register/")
    assert response.status_code == 404


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        ('{"format": "stan\\u0000dard", "decklist_text": "4 Pikachu"}', "application/json"),
        ("format=stan%00dard&decklist_text=4+Pikachu", "application/x-www-form-urlencoded"),
    ],
)
def test_a_nul_character_is_a_clear_400(production_settings, db, body, content_type):
    response = https_client().post("/api/decks/check/", body, content_type=content_type)
    assert response.status_code == 400 and response.json()["code"] == "nul-character"
