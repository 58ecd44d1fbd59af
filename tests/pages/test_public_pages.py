"""One body for every viewer (`matches.public_pages`): a public round page is built once per
version of the event and then served with no query and no template, anonymous or signed
in; what is personal comes from `me.json`."""

import gzip

import brotli
import pytest
from django.urls import reverse

from matches import page_cache
from matches.models import Match

from .conftest import make_round, registration_of

pytestmark = pytest.mark.django_db


def public_urls(event, round_):
    return [
        reverse("round-pairings", args=[event.pk, 1]),
        reverse("round-pairings", args=[event.pk, 1]) + "?by=name",
        reverse("round-projector", args=[event.pk, 1]),
        reverse("event-standings", args=[event.pk]),
        f"/api/rounds/{round_.pk}/",
        f"/api/events/{event.pk}/standings/",
        f"/api/events/{event.pk}/overlay/",
    ]


@pytest.mark.parametrize("encoding", ["", "gzip", "br"])
def test_a_cached_public_page_costs_no_query_and_no_template_anonymous_or_signed_in(
    client, event, ash, round_one, templates, django_assert_num_queries, encoding
):
    headers = {"HTTP_ACCEPT_ENCODING": encoding} if encoding else {}
    for url in public_urls(event, round_one):
        first = client.get(url, **headers)  # built once, as an anonymous visitor sees it
        assert first.status_code == 200, url
        templates.clear()
        with django_assert_num_queries(0):
            anonymous = client.get(url, **headers)
        assert templates == [], url
        assert anonymous.content == first.content, url
        if "/api/events/" in url and url.endswith("/standings/"):
            continue  # a signed-in client's own answer: staff see live standings there
        client.force_login(ash.user)
        with django_assert_num_queries(0):
            signed_in = client.get(url, **headers)
        assert templates == [], url
        assert signed_in.content == first.content, url
        assert signed_in.get("Content-Encoding", "") == encoding
        assert "Cookie" not in signed_in.get("Vary", "") and not signed_in.cookies
        client.logout()
    plain = client.get(public_urls(event, round_one)[0]).content
    body = client.get(public_urls(event, round_one)[0], **headers).content
    unpacked = {"": lambda b: b, "gzip": gzip.decompress, "br": brotli.decompress}[encoding]
    assert unpacked(body) == plain


def test_the_signed_in_player_keeps_their_session_and_gets_their_table_from_me_json(
    client, event, ash, round_one
):
    client.force_login(ash.user)
    page = client.get(reverse("round-pairings", args=[event.pk, 1]))
    html = page.content.decode()
    # The body is the anonymous one: no name, no inbox, no "your table" written in it.
    assert "ash" not in html.lower().split("<main")[0] and "Log in" in html
    assert 'data-me="my-match" hidden' in html and "Your table" not in html
    me = client.get(reverse("event-me", args=[event.pk]) + "?round=1")
    assert me["Cache-Control"] == "private, no-store"
    assert me.json()["user"]["name"] == ash.user.username  # still signed in


def test_me_json_for_a_player_a_staff_member_and_an_anonymous_viewer(
    client, event, ash, misty, organiser, round_one
):
    url = reverse("event-me", args=[event.pk]) + "?round=1"
    anonymous = client.get(url).json()
    assert anonymous["user"] is None and anonymous["staff"] is False
    assert anonymous["match"] is None and anonymous["registration"] is None
    assert anonymous["links"] == [] and anonymous["version"] == str(page_cache.version(event.pk))

    client.force_login(ash.user)
    player = client.get(url).json()
    a = registration_of(ash, event)
    assert player["user"]["name"] == ash.user.username and player["user"]["unread"] == 0
    assert player["staff"] is False and player["links"] == []
    assert player["registration"] == {"id": a.pk, "name": "Ash Ketchum"}
    match = Match.objects.get(round=round_one, table=1)
    assert player["match"] == {
        "round": 1,
        "table": 1,
        "division": "",
        "opponent": "Misty Waterflower",
        "url": reverse("match-detail", args=[match.pk]),
    }

    client.force_login(misty.user)
    assert client.get(url).json()["match"]["opponent"] == "Ash Ketchum"

    client.force_login(organiser)
    staff = client.get(url).json()
    assert staff["staff"] is True and staff["registration"] is None and staff["match"] is None
    assert [link["label"] for link in staff["links"]] == [
        "Dashboard",
        "Results grid",
        "Print pairings (PDF)",
        "Match slips (PDF)",
        "Staff view",
    ]
    assert staff["links"][1]["url"] == reverse("round-results", args=[event.pk, 1])


def test_a_repeated_me_json_makes_no_query_and_follows_every_change_at_once(
    client,
    event,
    ash,
    round_one,
    settings,
    django_assert_num_queries,
    django_capture_on_commit_callbacks,
):
    """The user, the event, the viewer's part and the unread count come from the cache;
    a notification written or read, a staff role given and a renamed account show at
    once."""
    from league.models import StaffRole
    from notifications import services as notifications

    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cached_db"  # production's
    url = reverse("event-me", args=[event.pk]) + "?round=1"
    client.force_login(ash.user)
    first = client.get(url).json()
    with django_assert_num_queries(0):
        again = client.get(url).json()
    same = ("version", "user", "staff", "links", "registration", "match")
    assert {k: again[k] for k in same if k != "user"} == {k: first[k] for k in same if k != "user"}
    assert again["user"]["name"] == ash.user.username and again["user"]["unread"] == 0

    with django_capture_on_commit_callbacks(execute=True):
        notifications.notify(
            kind="result_reported",
            items=[notifications.NotificationItem(ash.user.pk, "me-json-test", "Hi", "Body")],
        )
    assert client.get(url).json()["user"]["unread"] == 1
    with django_capture_on_commit_callbacks(execute=True):
        notifications.mark_read(user=ash.user)
    assert client.get(url).json()["user"]["unread"] == 0

    with django_capture_on_commit_callbacks(execute=True):
        StaffRole.objects.create(league=event.season.league, user=ash.user, role="judge")
    assert client.get(url).json()["staff"] is True

    with django_capture_on_commit_callbacks(execute=True):
        ash.user.username = "ash-renamed"
        ash.user.save()
    assert client.get(url).json()["user"]["name"] == "ash-renamed"


def test_a_body_is_built_and_kept_per_language_found_as_locale_middleware_does(
    client, event, ash, round_one, templates, settings, monkeypatch, django_assert_num_queries
):
    """The language cookie, else Accept-Language, picks the body; an `Accept-Language: fr`
    reader never gets the body built in English, and a signed-in reader's session is not
    read to find out."""
    from django.utils.translation import trans_real

    from matches import public_pages

    settings.LANGUAGES = [("en", "English"), ("fr", "Français"), ("pt-br", "Português")]
    # Until the catalogues exist Django falls back to English for every language.
    monkeypatch.setattr(trans_real, "check_for_language", lambda code: True)
    url = reverse("round-pairings", args=[event.pk, 1])
    english = client.get(url)
    assert english["Content-Language"] == "en" and "Accept-Language" in english["Vary"]

    templates.clear()
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr-CA,fr;q=0.9,en;q=0.5")
    assert french["Content-Language"] == "fr"
    assert templates, "the French body is built, not the English one served"
    templates.clear()
    client.force_login(ash.user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    with django_assert_num_queries(0):  # no session read: the cookie says French
        again = client.get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert again["Content-Language"] == "fr" and again.content == french.content
    assert templates == []
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "xx"  # unknown: Accept-Language decides
    assert client.get(url, HTTP_ACCEPT_LANGUAGE="pt-PT")["Content-Language"] == "pt-br"
    version = page_cache.version(event.pk)
    keys = {public_pages._entry_key(event.pk, version, "n", "", "br", lang) for lang in "ab"}
    assert len(keys) == 2


def test_two_languages_from_the_catalogues_each_get_their_own_body(
    client, event, ash, round_one, settings, django_assert_num_queries
):
    """With the real catalogues: an English and a French reader of the same pairings get
    the page in their own words, each body built once and served from the cache after."""
    url = reverse("round-pairings", args=[event.pk, 1])
    english = client.get(url, HTTP_ACCEPT_LANGUAGE="en-GB,en;q=0.8").content.decode()
    french = client.get(url, HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9").content.decode()
    assert "Standings" in english and "Classement" not in english
    assert "Classement" in french
    client.force_login(ash.user)
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    with django_assert_num_queries(0):
        again = client.get(url, HTTP_ACCEPT_LANGUAGE="en")
    assert again.content.decode() == french and again["Content-Language"] == "fr"
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    with django_assert_num_queries(0):
        assert client.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode() == english


def test_a_change_makes_a_new_body_and_the_old_etag_stops_matching(
    client, event, round_one, django_capture_on_commit_callbacks
):
    url = reverse("round-pairings", args=[event.pk, 1])
    first = client.get(url)
    assert first["Cache-Control"].startswith("public, max-age=0, s-maxage=")
    # Stale while revalidating is for shared caches only (a phone's cache shows nothing stale).
    assert "stale" not in first["Cache-Control"]
    assert "stale-while-revalidate=" in first["CDN-Cache-Control"]
    assert client.get(url, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    match = Match.objects.get(round=round_one, table=2)
    match.status, match.result, match.a_game_wins = Match.Status.FINAL, Match.Result.A, 2
    with django_capture_on_commit_callbacks(execute=True):
        match.save()  # bumps the version after commit
    second = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and "Brock Harrison won 2–0" in second.content.decode()
    assert int(second["X-Event-Version"]) > int(first["X-Event-Version"])
    assert f'data-event-version="{second["X-Event-Version"]}"' in second.content.decode()


def test_an_unpublished_round_is_not_public_and_the_staff_still_see_their_preview(
    client, event, ash, misty, organiser, round_one
):
    make_round(
        event,
        [(registration_of(ash, event), registration_of(misty, event))],
        number=2,
        status="paired",
    )
    url = reverse("round-pairings", args=[event.pk, 2])
    assert client.get(url).status_code == 404
    client.force_login(organiser)
    page = client.get(url)
    assert page.status_code == 200 and "Not published yet" in page.content.decode()
    assert "public" not in page.get("Cache-Control", "")
    client.logout()
    assert client.get(url).status_code == 404


def test_find_and_unknown_parameters_are_answered_per_request(client, event, ash, round_one):
    url = reverse("round-pairings", args=[event.pk, 1])
    client.force_login(ash.user)
    found = client.get(url + "?find=Brock")
    html = found.content.decode()
    assert "Brock Harrison" in html and html.count("<tr data-p") == 1
    assert "Your table" in html  # the per-user page writes the player's own table
    assert "X-Event-Version" not in found and "Log out" in html  # the per-user page
    assert "X-Event-Version" not in client.get(url + "?by=sideways")
