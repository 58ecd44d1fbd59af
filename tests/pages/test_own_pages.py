"""Own pages (`matches.own_pages`): a signed-in viewer's own answer (`me.json`, the event
page, the match page) is kept per user and versions and served again before the session,
the user or the CSRF middleware run, with no query; every change that shows on it makes
the next answer new."""

import gzip
import re

import pytest
from django.contrib.sessions.middleware import SessionMiddleware
from django.test import Client
from django.urls import reverse

from matches import page_cache
from matches.models import Match

from .conftest import registration_of

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _cached_sessions(settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"  # production's


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


# --- The event page and the match page --------------------------------------------------

TOKEN = re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"')


def html(response) -> str:
    """The page without its masked CSRF tokens (each render masks the secret anew)."""
    return TOKEN.sub("", response.content.decode())


def page_urls(event, match):
    return [reverse("event-detail", args=[event.pk]), reverse("match-detail", args=[match.pk])]


@pytest.fixture
def table_one(round_one):
    return Match.objects.get(round=round_one, table=1)


@pytest.mark.parametrize("running", [False, True])
def test_a_repeated_event_page_and_match_page_make_no_query_and_skip_the_session(
    client,
    event,
    ash,
    organiser,
    table_one,
    no_session,
    django_assert_num_queries,
    templates,
    running,
):
    from django.utils import timezone

    from league.models import Event
    from matches import services

    no_session.allowed = True
    # A deck deadline passed (the page says so already) changes nothing.
    Event.objects.filter(pk=event.pk).update(deck_deadline=timezone.now() - timezone.timedelta(1))
    if running:  # the round's clock runs: the card counts down to a moment
        services.start_clock(round_=table_one.round, by_user=organiser)
    client.force_login(ash.user)
    for url in page_urls(event, table_one):
        no_session.allowed = True
        normal = warm(client, url)
        no_session.allowed = False
        templates.clear()
        with django_assert_num_queries(0):
            kept = client.get(url)
        assert templates == [], url
        assert kept.status_code == 200 and html(kept) == html(normal), url
        assert ash.user.username in html(kept)  # the signed-in menu: their own page
        zipped = client.get(url, HTTP_ACCEPT_ENCODING="gzip")
        assert gzip.decompress(zipped.content) == kept.content
        etag = zipped["ETag"]
        assert (
            client.get(url, HTTP_ACCEPT_ENCODING="gzip", HTTP_IF_NONE_MATCH=etag).status_code == 304
        )


def test_a_first_page_since_the_session_left_the_cache_is_kept_at_once(
    client, event, ash, table_one, no_session, django_assert_num_queries, templates
):
    """A phone that last asked long ago (its session, user row and unread count's
    generation gone from the cache): the stack answers once and that answer is kept; the
    next is served from the cache, not rendered a second time."""
    from django.core.cache import cache

    from league import user_cache
    from notifications.services import unread_generation_key

    no_session.allowed = True
    client.force_login(ash.user)
    for url in page_urls(event, table_one):
        no_session.allowed = True
        normal = warm(client, url)
        session_key = client.cookies["sessionid"].value
        cache.delete_many(
            [
                user_cache.session_cache_key(session_key),
                user_cache.user_key(ash.user.pk),
                unread_generation_key(ash.user.pk),
            ]
        )
        first = client.get(url)
        assert html(first) == html(normal), url
        no_session.allowed = False
        templates.clear()
        with django_assert_num_queries(0):
            kept = client.get(url)
        assert templates == [], url
        assert html(kept) == html(normal), url


def test_pages_are_right_for_a_player_and_an_anonymous_viewer_and_never_kept_for_staff(
    event, ash, misty, organiser, table_one, no_session
):
    url = reverse("event-detail", args=[event.pk])
    seen = {}
    for who in (ash.user, misty.user, None):
        client = Client()
        no_session.allowed = True
        if who is not None:
            client.force_login(who)
        normal = html(warm(client, url))
        no_session.allowed = False
        assert html(client.get(url)) == normal
        seen[who.username if who else None] = normal
    assert "Misty Waterflower" in seen[ash.user.username]  # Ash's match card
    assert "Ash Ketchum" in seen[misty.user.username]
    assert "Log in</a> to register" in seen[None] and "Misty Waterflower" not in seen[None]

    no_session.allowed = True
    staff = Client()
    staff.force_login(organiser)
    normal = warm(staff, url)
    assert reverse("event-dashboard", args=[event.pk]) in html(normal)
    no_session.allowed = False
    with pytest.raises(AssertionError, match="session middleware ran"):
        staff.get(url)  # answered by the whole stack every time


def test_the_next_pages_are_new_after_a_deck_a_report_a_judge_call_and_an_extension(
    client, event, ash, misty, organiser, table_one, deck_text, django_capture_on_commit_callbacks
):
    from floor import services as floor
    from league import services as league_services
    from matches import services

    client.force_login(ash.user)
    event_url, match_url = page_urls(event, table_one)
    assert "not submitted" in html(warm(client, event_url))
    with django_capture_on_commit_callbacks(execute=True):
        league_services.submit_deck(  # by staff: lists are locked once round 1 is paired
            registration=registration_of(ash, event), text=deck_text, by_user=organiser
        )
    assert "version 1" in html(client.get(event_url))

    with django_capture_on_commit_callbacks(execute=True):
        services.start_clock(round_=table_one.round, by_user=organiser)
    assert "Call a judge" in html(warm(client, match_url))  # kept at this version
    with django_capture_on_commit_callbacks(execute=True):
        floor.call_judge(match=table_one, by_user=ash.user, reason="A ruling")
    page = html(client.get(match_url))
    assert "Your judge call" in page and "Waiting for a judge" in page
    call = table_one.judge_calls.get()
    with django_capture_on_commit_callbacks(execute=True):
        floor.take_call(call=call, by_user=organiser)
    assert "is on the way" in html(client.get(match_url))
    with django_capture_on_commit_callbacks(execute=True):
        floor.extend_time(match=table_one, by_user=organiser, minutes=3)
    assert "+3 min" in html(client.get(match_url))
    with django_capture_on_commit_callbacks(execute=True):
        services.report_result(
            match=table_one, by_user=misty.user, payload={"games": [{"outcome": "b"}]}
        )
    assert html(client.get(match_url)).count("Misty Waterflower") > html(
        warm(Client(), match_url)
    ).count("Misty Waterflower")  # her report is on Ash's page


def test_an_account_that_makes_its_player_profile_sees_register(
    client, event, make_user, django_capture_on_commit_callbacks
):
    from tests.factories import PlayerFactory

    user = make_user("newcomer")
    client.force_login(user)
    url = reverse("event-detail", args=[event.pk])
    assert "no player profile yet" in html(warm(client, url))
    with django_capture_on_commit_callbacks(execute=True):
        PlayerFactory(user=user, name="New Comer", player_id="999001")
    assert "no player profile yet" not in html(client.get(url))


def test_the_token_in_a_kept_page_works_for_a_post_and_a_flash_message_is_shown(
    event, ash, table_one, no_session, organiser, django_capture_on_commit_callbacks
):
    from matches import services

    with django_capture_on_commit_callbacks(execute=True):
        services.start_clock(round_=table_one.round, by_user=organiser)
    client = Client(enforce_csrf_checks=True)
    no_session.allowed = True
    client.force_login(ash.user)
    url = reverse("match-detail", args=[table_one.pk])
    warm(client, url)
    no_session.allowed = False
    kept = client.get(url).content.decode()
    no_session.allowed = True
    call_url = reverse("floor-call-judge", args=[table_one.pk])
    token = re.search(f'action="{call_url}".*?value="([^"]+)"', kept, re.S)
    assert client.post(call_url, {"reason": "Ruling"}).status_code == 403  # no token
    answer = client.post(
        call_url, {"reason": "Ruling", "csrfmiddlewaretoken": token.group(1)}, follow=True
    )
    assert answer.status_code == 200 and 'class="messages"' in answer.content.decode()
    assert "Your judge call" in answer.content.decode()


def test_a_running_clock_counts_to_its_moment_and_time_called_ends_the_keep(
    client, event, ash, table_one, organiser, no_session, django_capture_on_commit_callbacks
):
    from django.utils import timezone

    from matches import own_pages, services

    with django_capture_on_commit_callbacks(execute=True):
        services.start_clock(round_=table_one.round, by_user=organiser)
    no_session.allowed = True
    client.force_login(ash.user)
    url = reverse("event-detail", args=[event.pk])
    warm(client, url)
    no_session.allowed = False
    kept = html(client.get(url))  # kept: the card's clock counts down to a moment
    round_ = table_one.round
    round_.refresh_from_db()
    assert f'data-ends-at="{int(round_.ends_at.timestamp() * 1000)}"' in kept
    no_session.allowed = True

    with django_capture_on_commit_callbacks(execute=True):  # time is called
        round_.ends_at = timezone.now() - timezone.timedelta(seconds=5)
        round_.save()
    warm(client, url)
    no_session.allowed = False
    with pytest.raises(AssertionError, match="session middleware ran"):
        client.get(url)  # the overtime clock's text is of its second: never kept

    class Request:
        pass

    request = Request()
    own_pages.keep_until(request, timezone.now() + timezone.timedelta(seconds=10))
    assert 9 <= own_pages._timeout(request) <= 10
    own_pages.keep_until(request, timezone.now() + timezone.timedelta(seconds=5))
    assert 4 <= own_pages._timeout(request) <= 5  # the nearer moment
    passed = Request()
    own_pages.keep_until(passed, timezone.now() - timezone.timedelta(seconds=10))
    assert own_pages._timeout(passed) == own_pages.TIMEOUT  # a deadline passed changes nothing


def test_every_row_the_own_pages_show_bumps_the_event_version(
    event, ash, table_one, django_capture_on_commit_callbacks
):
    """What the event page and the match page show beyond the public pages' rows: a
    decklist, a report, a game, a judge call, the league's, season's and format's rows."""
    from floor.models import JudgeCall
    from league.models import DeckSubmission
    from matches.models import Game, ResultReport

    reg = registration_of(ash, event)
    match = Match.objects.get(pk=table_one.pk)  # its round not loaded: found by a query
    writes = {
        "deck": lambda: DeckSubmission.objects.create(
            registration=reg, version=9, text="", legal=True, verdict={}
        ),
        "report": lambda: ResultReport.objects.create(
            match=match, side="a", reported_by=ash.user, payload={"games": []}
        ),
        "report, match at hand": lambda: ResultReport.objects.create(
            match=table_one, side="b", reported_by=ash.user, payload={"games": []}
        ),
        "game": lambda: Game.objects.create(match_id=match.pk, number=1, outcome="a"),
        "call": lambda: JudgeCall.objects.create(
            event=event, match=match, registration=reg, reason="Ruling", called_by=ash.user
        ),
        "league": lambda: event.season.league.save(),
        "season": lambda: event.season.save(),
        "format": lambda: event.format.save(),
    }
    for name, write in writes.items():
        before = page_cache.version(event.pk)
        with django_capture_on_commit_callbacks(execute=True):
            write()
        assert page_cache.version(event.pk) != before, name
