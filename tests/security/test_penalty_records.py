"""Issue 27, item 4: penalty records across leagues. The record follows the player (as
Play! Pokémon keeps penalty records across events: infraction, penalty, event, round and
date, whoever issued it); the judge's note stays with the league that wrote it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from floor import services as floor_services
from league.models import League
from matches import services as match_services
from tests.factories import EventFactory, RegistrationFactory, SeasonFactory

from .conftest import https_client

pytestmark = pytest.mark.django_db
NOTE_A = "Looked at the top card of the deck twice (league A note)"
NOTE_B = "Slow play after a caution (league B note)"


@pytest.fixture
def two_leagues(world):
    league_b = League.objects.get(organisers=world.org_b)
    event_b = EventFactory(season=SeasonFactory(league=league_b), name="Pewter Challenge")
    RegistrationFactory(event=event_b, player=world.ash_registration.player)
    RegistrationFactory(event=event_b)
    round_b = match_services.pair_next_round(event=event_b, by_user=world.org_b)
    match_services.publish_round(round_=round_b, by_user=world.org_b)
    match_b = round_b.matches.get(player_b__isnull=False)

    match_a = next(
        m
        for m in world.event.rounds.get(number=1).matches.all()
        if world.ash_registration.pk in (m.player_a_id, m.player_b_id)
    )
    floor_services.issue_penalty(
        match=match_a,
        side=match_a.side_of(world.ash_registration.pk),
        by_user=world.org_a,
        infraction="procedural-major",
        penalty="warning",
        note=NOTE_A,
    )
    ash_b = event_b.registrations.get(player=world.ash_registration.player)
    floor_services.issue_penalty(
        match=match_b,
        side=match_b.side_of(ash_b.pk),
        by_user=world.org_b,
        infraction="tardiness",
        penalty="caution",
        note=NOTE_B,
    )
    return match_a, match_b


def test_other_leagues_see_the_record_but_not_the_notes(production_settings, world, two_leagues):
    match_a, match_b = two_leagues
    page_b = https_client(world.org_b).get(reverse("floor-match", args=[match_b.pk]))
    assert page_b.status_code == 200
    text = page_b.content.decode()
    assert world.event.name in text  # league A's penalty: the event, infraction, penalty
    assert "Warning" in text
    assert NOTE_B in text  # league B's own note
    assert NOTE_A not in text  # league A's note stays with league A

    page_a = https_client(world.org_a).get(reverse("floor-match", args=[match_a.pk]))
    text = page_a.content.decode()
    assert NOTE_A in text and "Pewter Challenge" in text and NOTE_B not in text


def test_the_player_reads_their_own_record_with_its_notes(production_settings, world, two_leagues):
    text = https_client(world.ash).get(reverse("my-penalties")).content.decode()
    assert NOTE_A in text and NOTE_B in text
