"""Issue 17: one visibility rule for pages and API, swept over sequential ids by each actor.

Every API resource and every page that takes an id is asked for ids around the ones that
exist, by the anonymous visitor, two players of the running event and the organiser of
another league, against the production settings over HTTPS. Whatever belongs to the draft
event is "not found" (or, for an anonymous visitor on a login-only page, the login
redirect); its name never appears; no player's login name is shown to anyone but that
player and staff; a published decklist shows the public only the list that counts.
"""

from __future__ import annotations

import pytest

from league.models import Registration
from matches.models import Match, Round

from .conftest import EARLY_DRAFT, https_client

pytestmark = pytest.mark.django_db

#: (kind of id, address). Kinds: event, registration (with its event), round, match, season.
API = [
    ("event", "/api/events/{event}/"),
    ("event", "/api/events/{event}/registrations/"),
    ("event", "/api/events/{event}/standings/"),
    ("event", "/api/rounds/?event={event}"),
    ("round", "/api/rounds/{round}/"),
    ("match", "/api/matches/{match}/"),
    ("registration", "/api/registrations/{registration}/"),
    ("registration", "/api/registrations/{registration}/decks/"),
]
PAGES = [
    ("event", "/events/{event}/"),
    ("event", "/events/{event}/standings/"),
    ("event", "/events/{event}/standings.csv"),
    ("event", "/events/{event}/bracket/"),
    ("event", "/events/{event}/rounds/1/"),
    ("event", "/events/{event}/rounds/1/projector/"),
    ("event", "/events/{event}/deck/"),
    ("event", "/events/{event}/decks/"),
    ("event", "/events/{event}/manage/"),
    ("event", "/events/{event}/export.json"),
    ("event", "/events/{event}/edit/"),
    ("registration", "/events/{event}/decks/{registration}/"),
    ("match", "/matches/{match}/"),
]
ACTORS = ["anonymous", "ash", "misty", "org_b"]


def _ids(world):
    """Every id to try per kind: those that exist, and one either side."""
    regs = {r.pk: r.event_id for r in Registration.objects.all()}
    rounds = {r.pk: r.event_id for r in Round.objects.all()}
    matches = {m.pk: m.round.event_id for m in Match.objects.select_related("round")}
    events = {world.event.pk: world.event.pk, world.draft.pk: world.draft.pk}

    def around(table):
        return {i: table.get(i) for i in range(min(table) - 1, max(table) + 2)}

    return {
        "event": around(events),
        "registration": around(regs),
        "round": around(rounds),
        "match": around(matches),
    }


def _user(world, actor):
    return None if actor == "anonymous" else getattr(world, actor)


def _sweep(world, actor, table):
    client = https_client(_user(world, actor))
    me = _user(world, actor)
    logins = {"ash-login", "misty-login"} - ({me.username} if me else set())
    own = set(Registration.objects.filter(player__user=me).values_list("pk", flat=True))
    failures, asked = [], 0
    for kind, template in table:
        for pk, event_id in _ids(world)[kind].items():
            url = template.format(**{kind: pk, "event": event_id or pk})
            response = client.get(url)
            asked += 1
            body = response.content.decode(errors="replace")
            if response.status_code >= 500:
                failures.append(f"{url}: {response.status_code}")
            if "Secret Draft Cup" in body:
                failures.append(f"{url}: shows the draft event")
            if EARLY_DRAFT.strip() in body and not (kind == "registration" and pk in own):
                failures.append(f"{url}: shows an earlier version of someone's decklist")
            if any(login in body for login in logins):
                failures.append(f"{url}: shows another player's login name")
            if event_id == world.draft.pk and response.status_code != 404:
                login_page = response.status_code == 302 and "/login" in response["Location"]
                refused_anonymous = me is None and (
                    login_page or response.status_code in (401, 403)
                )
                if not refused_anonymous:
                    failures.append(f"{url}: draft answered {response.status_code}")
    return failures, asked


@pytest.mark.parametrize("actor", ACTORS)
def test_no_actor_sees_a_draft_or_more_than_published_in_the_api(production_settings, world, actor):
    failures, asked = _sweep(world, actor, API)
    assert asked > 30
    assert failures == []


@pytest.mark.parametrize("actor", ACTORS)
def test_no_actor_sees_a_draft_or_more_than_published_on_the_pages(
    production_settings, world, actor
):
    failures, asked = _sweep(world, actor, PAGES)
    assert asked > 30
    assert failures == []


@pytest.mark.parametrize("actor", ACTORS)
def test_event_lists_leave_the_draft_out(production_settings, world, actor):
    client = https_client(_user(world, actor))
    for url in ("/api/events/", "/", f"/leagues/{world.event.season.league.slug}/", "/me/"):
        response = client.get(url)
        assert "Secret Draft Cup" not in response.content.decode(), url
    ids = [e["id"] for e in client.get("/api/events/").json()["results"]]
    assert world.event.pk in ids and world.draft.pk not in ids


def test_the_draft_is_there_for_its_own_staff(production_settings, world):
    client = https_client(world.org_a)
    assert client.get(f"/api/events/{world.draft.pk}/").status_code == 200
    assert client.get(f"/api/events/{world.draft.pk}/standings/").status_code == 200
    assert client.get(f"/api/registrations/{world.draft_registration.pk}/decks/").json()
    assert client.get(f"/events/{world.draft.pk}/").status_code == 200
    ids = [e["id"] for e in client.get("/api/events/").json()["results"]]
    assert world.draft.pk in ids


def test_a_published_decklist_shows_others_only_the_list_that_counts(production_settings, world):
    url = f"/api/registrations/{world.ash_registration.pk}/decks/"
    for user in (None, world.misty, world.org_b):
        rows = https_client(user).get(url).json()
        assert [r["version"] for r in rows] == [2]
        assert "submitted_by" not in rows[0] and EARLY_DRAFT not in rows[0]["text"]
    for user in (world.ash, world.org_a):
        rows = https_client(user).get(url).json()
        assert [r["version"] for r in rows] == [2, 1]
        assert rows[1]["text"] == EARLY_DRAFT and rows[0]["submitted_by"] == "ash-login"
