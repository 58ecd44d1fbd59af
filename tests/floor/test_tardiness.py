"""Tardiness as the rule edition has it: a match loss after the edition's minutes, recorded
as a penalty; a player who never arrives is dropped; both players are told."""

import datetime as dt

import pytest
from django.urls import reverse

from floor import tardiness
from floor.models import Penalty
from league.models import Registration, RuleEdition
from matches import services
from matches.models import Match
from notifications.models import Notification
from rules.errors import DomainError
from tests.factories import EventFactory, LeagueFactory, RegistrationFactory, SeasonFactory

pytestmark = pytest.mark.django_db

SOURCE = "a match loss after 10 minutes late, then the player is dropped"


@pytest.fixture
def running_match(staff):
    event = EventFactory(season=SeasonFactory(league=LeagueFactory(organisers=[staff])))
    for _ in range(4):
        RegistrationFactory(event=event)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.start_clock(round_=round_, by_user=staff)
    return round_.matches.select_related("round", "player_a__player", "player_b__player")[0]


def test_the_source_is_in_the_editions_data():
    for key in ("site-rules", "2025-09", "2026-02"):
        rule = RuleEdition.objects.get(key=key).rules["tardiness"]
        assert SOURCE in rule["source"] and rule["match_loss_minutes"] == 10


def test_before_ten_minutes_nothing_happens(running_match, staff):
    nine = running_match.round.clock_started_at + dt.timedelta(minutes=9, seconds=59)
    with pytest.raises(DomainError) as err:
        tardiness.mark_late(match=running_match, side="b", by_user=staff, now=nine)
    assert err.value.code == "not-late-yet"
    assert "lost after 10 minutes" in err.value.message
    assert not Penalty.objects.exists()


def test_ten_minutes_late_is_a_match_loss_recorded_as_a_penalty(running_match, staff):
    ten = running_match.round.clock_started_at + dt.timedelta(minutes=10)
    penalty = tardiness.mark_late(match=running_match, side="b", by_user=staff, now=ten)
    assert (penalty.infraction, penalty.penalty) == ("tardiness", "match-loss")
    running_match.refresh_from_db()
    assert (running_match.status, running_match.result) == (Match.Status.FINAL, "a")
    assert running_match.player_b.status == Registration.Status.CHECKED_IN  # still playing
    assert running_match.changes.count() == 1  # the result history has it
    bodies = Notification.objects.filter(key__startswith="tardiness:").values_list(
        "body", flat=True
    )
    assert len(bodies) == 2 and all("10 minutes late" in b for b in bodies)


def test_a_player_who_never_arrives_is_dropped_from_the_judge_tools(client, running_match, staff):
    running_match.round.clock_started_at -= dt.timedelta(minutes=15)
    running_match.round.save()
    client.force_login(staff)
    page = client.get(reverse("floor-match", args=[running_match.pk])).content.decode()
    assert "10 minutes late: a match loss; a player who never arrives is dropped" in page
    answer = client.post(
        reverse("floor-match", args=[running_match.pk]),
        {"action": "late", "side": "a", "never_arrived": "1"},
    )
    assert answer.status_code == 302
    running_match.refresh_from_db()
    assert running_match.result == "b"
    assert running_match.player_a.status == Registration.Status.DROPPED
    assert Penalty.objects.get().note == "15 minutes late; never arrived"
