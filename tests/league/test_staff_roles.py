"""Staff roles: each role can do exactly its actions, in `permissions.can`, on the pages and
in the API (table tests: one row per action, one column per role).

The actors: the league's organiser; a judge of this event; a scorekeeper of the whole
league; a judge of another event of the league (no rights here); a registered player.
"""

from __future__ import annotations

from datetime import date

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from league import permissions
from league import services as league_services
from league.models import Event, Registration, StaffRole
from league.services import staff
from matches.models import Match, Round
from rules.errors import DomainError
from tests.factories import (
    EventFactory,
    LeagueFactory,
    RegistrationFactory,
    SeasonFactory,
    UserFactory,
    sample_cards,
    sample_deck_text,
    seat_round,
    user_of,
)

pytestmark = pytest.mark.django_db

ACTORS = ("organiser", "judge", "scorekeeper", "other_judge", "player")

#: What each actor may do at the event: the whole contract of the roles.
EXPECTED = {
    "organiser": permissions.ACTIONS,
    "judge": {"view-private", "enter-results", "time-extensions", "judge-calls", "penalties",
              "deck-checks"},
    "scorekeeper": {"view-private", "pair-rounds", "enter-results"},
    "other_judge": set(),
    "player": set(),
}  # fmt: skip


@pytest.fixture
def scene(db):
    sample_cards()
    organiser = UserFactory(username="oak")
    league = LeagueFactory(organisers=[organiser])
    season = SeasonFactory(league=league, starts_on=date(2025, 1, 1), ends_on=date(2025, 12, 31))
    event = EventFactory(season=season, best_of=1)
    other_event = EventFactory(season=season, best_of=1)
    regs = [
        RegistrationFactory(event=event, status=Registration.Status.CHECKED_IN) for _ in range(4)
    ]
    judge, scorekeeper, other_judge = (UserFactory(username=n) for n in ("brock", "gary", "erika"))
    StaffRole.objects.create(league=league, event=event, user=judge, role="judge")
    StaffRole.objects.create(league=league, user=scorekeeper, role="scorekeeper")
    StaffRole.objects.create(league=league, event=other_event, user=other_judge, role="judge")
    league_services.submit_deck(
        registration=regs[0], text=sample_deck_text(), by_user=user_of(regs[0])
    )
    users = {
        "organiser": organiser,
        "judge": judge,
        "scorekeeper": scorekeeper,
        "other_judge": other_judge,
        "player": user_of(regs[1]),
    }
    return {"league": league, "event": event, "regs": regs, "users": users}


def _round(scene) -> Match:
    """Round 1 published, A v B at table 1 without a result."""
    event, (a, b, c, d) = scene["event"], scene["regs"]
    return seat_round(event, [(a, b), (c, d)]).matches.get(table=1)


@pytest.mark.parametrize("actor", ACTORS)
def test_can_answers_exactly_the_actions_of_the_role(scene, actor):
    user = scene["users"][actor]
    allowed = {a for a in permissions.ACTIONS if permissions.can(user, scene["event"], a)}
    assert allowed == EXPECTED[actor]


def test_roles_of_the_whole_league_reach_every_event_and_event_roles_only_theirs(scene):
    later = EventFactory(season=scene["event"].season)
    assert permissions.can(scene["users"]["scorekeeper"], later, "pair-rounds")
    assert not permissions.can(scene["users"]["judge"], later, "penalties")
    assert permissions.can(scene["users"]["other_judge"], later, "view-private") is False
    with pytest.raises(ValueError):
        permissions.can(scene["users"]["organiser"], later, "fly")


# --- pages ----------------------------------------------------------------------------
# (name, method, url(scene, match), data, expected status per actor)
E, D = "event", "deck"


def _page(name, *args):
    return lambda s, m: reverse(
        name, args=[a(s, m) if callable(a) else a for a in args]
    )  # fmt: skip


def _ev(s, m):
    return s["event"].pk


def _m(s, m):
    return m.pk


def _reg0(s, m):
    return s["regs"][0].pk


PAGE_CASES = [
    # event settings: organisers only
    ("settings", "get", _page("event-edit", _ev), None,
     {"organiser": 200, "judge": 403, "scorekeeper": 403, "other_judge": 403, "player": 403}),
    # publishing the lists: organisers only (judges see the page but may not publish)
    ("publish lists", "post", _page("event-decks", _ev), {"published": "on"},
     {"organiser": 302, "judge": 403, "scorekeeper": 403, "other_judge": 403, "player": 403}),
    ("decklists page", "get", _page("event-decks", _ev), None,
     {"organiser": 200, "judge": 200, "scorekeeper": 403, "other_judge": 403, "player": 403}),
    ("a private list", "get", _page("event-deck-detail", _ev, _reg0), None,
     {"organiser": 200, "judge": 200, "scorekeeper": 403, "other_judge": 403, "player": 403}),
    ("print every sheet", "get", _page("event-decklists-pdf", _ev), None,
     {"organiser": 200, "judge": 200, "scorekeeper": 403, "other_judge": 403, "player": 403}),
    ("dashboard", "get", _page("event-dashboard", _ev), None,
     {"organiser": 200, "judge": 200, "scorekeeper": 200, "other_judge": 403, "player": 403}),
    ("results grid", "get", _page("round-results", _ev, 1), None,
     {"organiser": 200, "judge": 200, "scorekeeper": 200, "other_judge": 403, "player": 403}),
    ("enter a result", "post", _page("match-result-quick", _m), {"quick": "a"},
     {"organiser": 302, "judge": 302, "scorekeeper": 302, "other_judge": 403, "player": 403}),
    ("close the round", "post", _page("round-action", _ev, 1), {"action": "start-clock"},
     {"organiser": 302, "judge": 403, "scorekeeper": 302, "other_judge": 403, "player": 403}),
    ("TOM file", "get", _page("tom-event", _ev), None,
     {"organiser": 200, "judge": 403, "scorekeeper": 403, "other_judge": 403, "player": 403}),
    ("event export", "get", _page("event-export-json", _ev), None,
     {"organiser": 200, "judge": 200, "scorekeeper": 200, "other_judge": 403, "player": 403}),
    ("check in a player", "post", lambda s, m: reverse(
        "registration-check-in", args=[s["event"].pk, s["regs"][2].pk]), {},
     {"organiser": 302, "judge": 403, "scorekeeper": 302, "other_judge": 403, "player": 403}),
]  # fmt: skip


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("case", PAGE_CASES, ids=[c[0] for c in PAGE_CASES])
def test_pages_let_each_role_do_exactly_its_actions(client, scene, actor, case):
    name, method, url, data, expected = case
    match = _round(scene)
    Registration.objects.filter(pk=scene["regs"][2].pk).update(
        status=Registration.Status.REGISTERED
    )
    client.force_login(scene["users"][actor])
    response = getattr(client, method)(url(scene, match), data or {})
    assert response.status_code == expected[actor], (name, actor)
    event = Event.objects.get(pk=scene["event"].pk)
    if name == "publish lists":
        opened = event.decklists_open == Event.DecklistsOpen.NOW
        assert opened is (expected[actor] == 302)
    if name == "enter a result":
        assert (Match.objects.get(pk=match.pk).status == Match.Status.FINAL) is (
            expected[actor] == 302
        )


@pytest.mark.parametrize("actor", ACTORS)
def test_pairing_on_the_page_is_for_scorekeepers_and_organisers(client, scene, actor):
    client.force_login(scene["users"][actor])
    response = client.post(reverse("event-pair-next-round", args=[scene["event"].pk]))
    paired = Round.objects.filter(event=scene["event"]).exists()
    assert paired is ("pair-rounds" in EXPECTED[actor])
    assert response.status_code == (302 if paired else 403)


@pytest.mark.parametrize("actor", ["organiser", "judge", "scorekeeper"])
def test_the_dashboard_offers_only_the_buttons_of_the_role(client, scene, actor):
    _round(scene)
    Round.objects.filter(event=scene["event"]).update(status=Round.Status.PAIRED)
    client.force_login(scene["users"][actor])
    page = client.get(reverse("event-dashboard", args=[scene["event"].pk])).content.decode()
    assert ("Publish pairings" in page) is ("pair-rounds" in EXPECTED[actor])
    assert ("Decklists (PDF" in page) is ("deck-checks" in EXPECTED[actor])
    assert ('action="/events/' in page and "/drop/" in page) is ("pair-rounds" in EXPECTED[actor])
    event_page = client.get(reverse("event-detail", args=[scene["event"].pk])).content.decode()
    assert (reverse("event-edit", args=[scene["event"].pk]) in event_page) is (actor == "organiser")


# --- API ------------------------------------------------------------------------------


def _api(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


API_CASES = [
    ("publish lists", "post", lambda s, m: f"/api/events/{s['event'].pk}/publish-decklists/", {},
     {"organiser": 200, "judge": 403, "scorekeeper": 403, "other_judge": 403, "player": 403}),
    ("enter a result", "post", lambda s, m: f"/api/matches/{m.pk}/result/",
     {"games": [{"outcome": "a"}]},
     {"organiser": 200, "judge": 200, "scorekeeper": 200, "other_judge": 403, "player": 403}),
    ("start the clock", "post", lambda s, m: f"/api/rounds/{m.round_id}/start-clock/", {},
     {"organiser": 200, "judge": 403, "scorekeeper": 200, "other_judge": 403, "player": 403}),
    ("a private list", "get", lambda s, m: f"/api/registrations/{s['regs'][0].pk}/decks/", None,
     {"organiser": 200, "judge": 200, "scorekeeper": 403, "other_judge": 403, "player": 403}),
    ("the league's staff", "get", lambda s, m: f"/api/leagues/{s['league'].pk}/staff/", None,
     {"organiser": 200, "judge": 403, "scorekeeper": 403, "other_judge": 403, "player": 403}),
]  # fmt: skip


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("case", API_CASES, ids=[c[0] for c in API_CASES])
def test_the_api_lets_each_role_do_exactly_its_actions(scene, actor, case):
    name, method, url, data, expected = case
    match = _round(scene)
    client = _api(scene["users"][actor])
    response = getattr(client, method)(url(scene, match), data, format="json")
    assert response.status_code == expected[actor], (name, actor, response.content)
    if response.status_code == 403:
        assert response.json()["detail"]


@pytest.mark.parametrize("actor", ACTORS)
def test_pairing_through_the_api_is_for_scorekeepers_and_organisers(scene, actor):
    response = _api(scene["users"][actor]).post(f"/api/events/{scene['event'].pk}/pair-next-round/")
    assert response.status_code == (201 if "pair-rounds" in EXPECTED[actor] else 403)


@pytest.mark.parametrize("actor", ACTORS)
def test_the_api_tells_each_user_their_roles_and_actions(scene, actor):
    data = _api(scene["users"][actor]).get(f"/api/events/{scene['event'].pk}/my-actions/").json()
    assert set(data["actions"]) == set(EXPECTED[actor])
    roles = {"organiser": ["organiser"], "judge": ["judge"], "scorekeeper": ["scorekeeper"]}
    assert data["roles"] == roles.get(actor, [])


def test_a_draft_is_seen_by_its_event_staff_and_not_by_other_events_judges(client, scene):
    Event.objects.filter(pk=scene["event"].pk).update(status=Event.Status.DRAFT)
    url = reverse("event-detail", args=[scene["event"].pk])
    for actor, code in (("judge", 200), ("scorekeeper", 200), ("other_judge", 404)):
        client.force_login(scene["users"][actor])
        assert client.get(url).status_code == code, actor
        visible = permissions.visible_events(scene["users"][actor])
        assert visible.filter(pk=scene["event"].pk).exists() is (code == 200)
    client.force_login(scene["users"]["judge"])
    assert client.get(reverse("event-edit", args=[scene["event"].pk])).status_code == 403


# --- managing the staff ---------------------------------------------------------------


def test_organisers_add_and_remove_staff_on_the_page(client, scene):
    league, event = scene["league"], scene["event"]
    misty = UserFactory(username="misty")
    client.force_login(scene["users"]["organiser"])
    url = reverse("league-staff", args=[league.slug])
    page = client.get(url).content.decode()
    assert "brock" in page and "gary" in page and "the whole league" in page
    response = client.post(url, {"username": "Misty", "role": "judge", "event": event.pk})
    assert response.status_code == 302
    assert permissions.can(misty, event, "penalties")
    assert not permissions.can(misty, event, "manage-event")
    again = client.post(url, {"username": "misty", "role": "judge", "event": event.pk})
    assert "misty is already a judge there." in again.content.decode()
    unknown = client.post(url, {"username": "nobody", "role": "judge"})
    assert "No account is called" in unknown.content.decode()
    role = StaffRole.objects.get(user=misty)
    client.post(url, {"remove_role": role.pk})
    assert not permissions.can(misty, event, "penalties")
    client.post(url, {"username": "misty", "role": "organiser"})
    assert permissions.can(misty, event, "manage-event")
    client.post(url, {"remove_organiser": misty.pk})
    assert not permissions.can(misty, event, "view-private")


def test_only_organisers_manage_staff_and_a_league_keeps_one(client, scene):
    league = scene["league"]
    client.force_login(scene["users"]["judge"])
    assert client.get(reverse("league-staff", args=[league.slug])).status_code == 403
    with pytest.raises(DomainError) as err:
        staff.add_staff(league=league, by_user=scene["users"]["judge"], username="x", role="judge")
    assert err.value.code == "not-allowed"
    organiser = scene["users"]["organiser"]
    with pytest.raises(DomainError) as err:
        staff.remove_staff(league=league, by_user=organiser, organiser_id=organiser.pk)
    assert err.value.code == "last-organiser"
    with pytest.raises(DomainError) as err:
        staff.add_staff(
            league=league, by_user=organiser, username="brock", role="organiser",
            event=scene["event"],
        )  # fmt: skip
    assert err.value.code == "invalid-staff-role"


def test_organisers_manage_staff_through_the_api(scene):
    league, event = scene["league"], scene["event"]
    UserFactory(username="misty")
    api = _api(scene["users"]["organiser"])
    url = f"/api/leagues/{league.pk}/staff/"
    added = api.post(url, {"username": "misty", "role": "scorekeeper", "event": event.pk})
    assert added.status_code == 201 and added.json()["role"] == "scorekeeper"
    listed = api.get(url).json()
    assert {(m["username"], m["role"]) for m in listed} >= {
        ("oak", "organiser"),
        ("misty", "scorekeeper"),
        ("brock", "judge"),
    }
    twice = api.post(url, {"username": "misty", "role": "scorekeeper", "event": event.pk})
    assert twice.status_code == 409 and twice.json()["code"] == "already-staff"
    gone = api.post(f"{url}remove/", {"role_id": added.json()["role_id"]}, format="json")
    assert gone.status_code == 204
    assert not StaffRole.objects.filter(user__username="misty").exists()


def test_disputes_and_the_round_clock_reach_the_staff_who_enter_results(scene):
    ids = permissions.staff_user_ids(scene["event"], "enter-results")
    users = scene["users"]
    assert ids == sorted(
        u.pk for k, u in users.items() if k in ("organiser", "judge", "scorekeeper")
    )
    assert permissions.staff_user_ids(scene["event"], "manage-event") == [users["organiser"].pk]


def test_every_action_has_its_words_on_the_staff_page():
    assert set(permissions.ACTION_NAMES) == permissions.ACTIONS
