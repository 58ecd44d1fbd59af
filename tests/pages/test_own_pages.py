"""Own pages (`matches.own_pages`): a signed-in viewer's own answer (`me.json`, the event
page, the match page) is kept per user and versions and served again before the session,
the user or the CSRF middleware run, with no query; every change that shows on it makes
the next answer new."""

import gzip

import pytest
from django.contrib.sessions.middleware import SessionMiddleware
from django.test import Client
from django.urls import reverse

from matches import page_cache

from .conftest import make_round, registration_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cached_sessions(settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"  # production's


@pytest.fixture
def round_one(event, ash, misty, make_player, register):
    """Round 1 published: Ash v Misty at table 1, Brock v Gary at table 2."""
    a, b = registration_of(ash, event), registration_of(misty, event)
    c, d = register(make_player("Brock Harrison")), register(make_player("Gary Oak"))
    return make_round(event, [(a, b), (c, d)])


@pytest.fixture
def no_session(monkeypatch):
    """Fails any request that reaches the session middleware (`stack()` allows it again)."""

    class Stack:
        allowed = False

    def refuse(self, request):
        assert Stack.allowed, "the session middleware ran"
        return original(self, request)

    original = SessionMiddleware.process_request
    monkeypatch.setattr(SessionMiddleware, "process_request", refuse)
    return Stack


def me_url(event):
    return reverse("event-me", args=[event.pk]) + "?round=1"


def warm(client, url, **headers):
    """The first answers (a CSRF cookie set, then the answer kept): the normal stack's."""
    client.get(url, **headers)
    return client.get(url, **headers)


def without_token(data: dict) -> dict:
    data = dict(data)
    if data.get("user"):
        data["user"] = {k: v for k, v in data["user"].items() if k != "csrf"}
    return data


def test_a_repeated_me_json_makes_no_query_and_skips_the_session_and_auth(
    client, event, ash, round_one, no_session, django_assert_num_queries
):
    no_session.allowed = True
    client.force_login(ash.user)
    normal = warm(client, me_url(event))
    no_session.allowed = False
    with django_assert_num_queries(0):
        kept = client.get(me_url(event))
    assert kept.status_code == 200 and kept["Cache-Control"] == "private, no-store"
    assert kept.json() == normal.json()  # the same CSRF cookie: the same token too
    assert without_token(kept.json())["user"]["name"] == ash.user.username
    assert "now" not in kept.json()
    zipped = client.get(me_url(event), HTTP_ACCEPT_ENCODING="gzip")
    no_session.allowed = True
    assert zipped["Content-Encoding"] == "gzip"
    assert gzip.decompress(zipped.content) == kept.content


def test_me_json_kept_is_right_for_a_player_a_staff_member_and_an_anonymous_viewer(
    event, ash, misty, organiser, round_one, no_session
):
    answers = {}
    for who in (ash.user, misty.user, organiser, None):
        client = Client()
        no_session.allowed = True
        if who is not None:
            client.force_login(who)
        normal = warm(client, me_url(event)).json()
        no_session.allowed = False
        kept = client.get(me_url(event)).json()
        assert kept == normal
        answers[who.username if who else None] = kept
    no_session.allowed = True
    assert answers[ash.user.username]["match"]["opponent"] == "Misty Waterflower"
    assert answers[misty.user.username]["match"]["opponent"] == "Ash Ketchum"
    assert answers["oak"]["staff"] is True and answers["oak"]["match"] is None
    assert answers[None]["user"] is None and answers[None]["staff"] is False


def test_the_next_me_json_is_new_after_every_change_that_shows_on_it(
    client, event, ash, round_one, django_capture_on_commit_callbacks
):
    from league.models import StaffRole
    from notifications import services as notifications

    url = me_url(event)
    client.force_login(ash.user)
    first = warm(client, url).json()
    assert first["user"]["unread"] == 0 and first["staff"] is False

    with django_capture_on_commit_callbacks(execute=True):
        notifications.notify(
            kind="result_reported",
            items=[notifications.NotificationItem(ash.user.pk, "own-pages", "Hi", "Body")],
        )
    assert client.get(url).json()["user"]["unread"] == 1

    with django_capture_on_commit_callbacks(execute=True):
        StaffRole.objects.create(league=event.season.league, user=ash.user, role="judge")
    assert client.get(url).json()["staff"] is True

    with django_capture_on_commit_callbacks(execute=True):
        page_cache.bump(event.pk)  # what every change of the event's pages does
    again = client.get(url).json()
    assert again["version"] == str(page_cache.version(event.pk)) != first["version"]

    with django_capture_on_commit_callbacks(execute=True):
        ash.user.username = "ash-renamed"
        ash.user.save()
    assert client.get(url).json()["user"]["name"] == "ash-renamed"

    client.post(reverse("logout"))
    assert client.get(url).json()["user"] is None


def test_a_password_changed_in_another_session_or_a_deactivated_account_signs_out(
    event, ash, round_one, django_capture_on_commit_callbacks
):
    url = me_url(event)
    phone, laptop = Client(), Client()
    phone.force_login(ash.user)
    assert warm(phone, url).json()["user"]["name"] == ash.user.username
    assert phone.get(url).json()["user"] is not None  # kept
    with django_capture_on_commit_callbacks(execute=True):
        ash.user.set_password("a new secret 123")
        ash.user.save()
        laptop.force_login(ash.user)
    assert phone.get(url).json()["user"] is None
    assert warm(laptop, url).json()["user"]["name"] == ash.user.username
    assert laptop.get(url).json()["user"] is not None  # kept for the laptop
    with django_capture_on_commit_callbacks(execute=True):
        ash.user.is_active = False
        ash.user.save()
    assert laptop.get(url).json()["user"] is None


def test_the_token_in_a_kept_answer_works_for_a_post(event, ash, round_one, no_session):
    client = Client(enforce_csrf_checks=True)
    no_session.allowed = True
    client.force_login(ash.user)
    warm(client, me_url(event))
    no_session.allowed = False
    token = client.get(me_url(event)).json()["user"]["csrf"]
    no_session.allowed = True
    assert client.post(reverse("logout")).status_code == 403  # no token: refused
    answer = client.post(reverse("logout"), {"csrfmiddlewaretoken": token})
    assert answer.status_code == 302
    assert client.get(me_url(event)).json()["user"] is None
