"""Scheduled reminders: deck deadline (24 h and 1 h), event starting, round clocks."""

from datetime import timedelta

import pytest
from django.utils import timezone

from league import services as league_services
from league.models import Event
from matches import services
from notifications.models import Notification

pytestmark = pytest.mark.django_db


def test_deck_deadline_reminders_go_out_once_per_window(make_event):
    now = timezone.now()
    event, _regs = make_event(
        players=3, deck_deadline=now + timedelta(hours=20), status=Event.Status.REGISTRATION
    )
    assert league_services.send_deck_deadline_reminders(now=now) == 3
    assert (
        league_services.send_deck_deadline_reminders(now=now) == 0
    )  # beat runs again: nothing new
    later = event.deck_deadline - timedelta(minutes=30)
    assert league_services.send_deck_deadline_reminders(now=later) == 3
    kinds = Notification.objects.filter(kind="deck_deadline_reminder")
    assert kinds.count() == 6
    assert "not registered a decklist" in kinds.first().body


def test_no_reminder_after_the_deadline_or_far_before_it(make_event):
    now = timezone.now()
    make_event(players=2, deck_deadline=now - timedelta(minutes=1))
    make_event(players=2, deck_deadline=now + timedelta(days=3))
    assert league_services.send_deck_deadline_reminders(now=now) == 0


def test_event_starting_notice(make_event):
    now = timezone.now()
    make_event(players=2, starts_at=now + timedelta(minutes=30), status=Event.Status.REGISTRATION)
    assert league_services.send_event_starting_notices(now=now) == 2
    assert league_services.send_event_starting_notices(now=now) == 0


def test_round_clock_reminders_reach_staff_at_ten_minutes_and_at_time(make_event, staff):
    event, _ = make_event(players=4, round_minutes=50)
    round_ = services.pair_next_round(event=event, by_user=staff)
    round_ = services.start_clock(round_=round_, by_user=staff)
    assert services.send_round_clock_reminders(now=round_.ends_at - timedelta(minutes=30)) == 0
    assert services.send_round_clock_reminders(now=round_.ends_at - timedelta(minutes=5)) == 1
    assert services.send_round_clock_reminders(now=round_.ends_at - timedelta(minutes=4)) == 0
    assert services.send_round_clock_reminders(now=round_.ends_at + timedelta(minutes=1)) == 1
    notes = Notification.objects.filter(kind="round_clock", recipient=staff).order_by("id")
    assert [n.subject.split(": ")[1] for n in notes] == [
        "10 minutes left in round 1",
        "time in round 1",
    ]
    assert "2 result(s) still missing" in notes[0].body
