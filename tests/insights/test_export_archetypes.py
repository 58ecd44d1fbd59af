"""The event's JSON export carries each player's archetype (issue 32) through the extension
point `matches.export.register_player_facts` (`matches` may not import `insights`, where
archetypes are named; `insights` registers when it loads). A list's archetype follows the
decklist rule: in every export once the list is public, and before that only for staff who
may read every list (organisers, judges), marked `archetype_public: false`; a scorekeeper's
export carries the public ones only."""

from __future__ import annotations

import json

import pytest
from django.urls import reverse

from insights.export import archetype_facts
from league.models import Event
from matches.export import PLAYER_FACTS, export_event
from tests.factories import make_staff

from .test_results import finished

pytestmark = pytest.mark.django_db


def archetypes(export: dict) -> dict[int, tuple[str, bool]]:
    return {
        p["registration"]: (p["archetype"], p["archetype_public"])
        for p in export["players"]
        if "archetype" in p
    }


def test_insights_registers_its_archetypes_when_it_loads():
    assert archetype_facts in PLAYER_FACTS


def test_the_top_cuts_lists_are_public_and_so_are_their_archetypes(make_event, staff):
    event, final = finished(make_event, staff, Event.DecklistsOpen.TOP_CUT)
    cut = {final.player_a_id, final.player_b_id}
    public = archetypes(export_event(event))
    assert set(public) == cut
    assert all(name and shown for name, shown in public.values())
    rows = {r["registration"]: r for r in export_event(event)["final_results"]}
    assert {pk for pk, r in rows.items() if r.get("archetype")} == cut
    everyone = archetypes(export_event(event, all_lists=True))
    assert len(everyone) == 4
    assert {pk for pk, (_, shown) in everyone.items() if shown} == cut


def test_private_lists_only_in_the_export_of_staff_who_read_every_list(client, make_event, staff):
    event, _ = finished(make_event, staff, Event.DecklistsOpen.NEVER)
    assert archetypes(export_event(event)) == {}
    url = reverse("event-export-json", args=[event.pk])
    client.force_login(staff)  # the organiser
    organisers = archetypes(json.loads(client.get(url).content))
    assert len(organisers) == 4 and not any(shown for _, shown in organisers.values())
    assert all(name for name, _ in organisers.values())
    client.force_login(make_staff(event, "judge"))
    assert archetypes(json.loads(client.get(url).content)) == organisers
    client.force_login(make_staff(event, "scorekeeper"))
    assert archetypes(json.loads(client.get(url).content)) == {}
