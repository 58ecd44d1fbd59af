"""Every app's notifications are worded in each recipient's language (their profile's, else
the event's) with times in the event's time zone, through one helper
(`notifications.language.for_each_recipient` / `in_recipients_language`): floor (penalty,
judge call, tardiness), league (deck verdict, reminders, event starting, staff notices),
matches (result changed, staff notices), webhooks (paused).

The catalogues are being filled, so gettext is replaced in each notify module by one that
writes the active language in front of the msgid: the test sees who got which language."""

import datetime as dt

import pytest
from django.utils import translation

from floor import notify as floor_notify
from floor import services as floor
from floor import tardiness
from league import notify as league_notify
from league.models import Event, Player
from matches import notify as match_notify
from notifications.models import Notification
from tests.factories import PlayerFactory, make_staff
from webhooks import sending
from webhooks.models import WebhookEndpoint

pytestmark = pytest.mark.django_db


def _tagged(message):
    return f"[{translation.get_language()}] {message}"


def _tagged_plural(singular, plural, n):
    return _tagged(singular if n == 1 else plural)


@pytest.fixture(autouse=True)
def tagged(monkeypatch):
    for module in (floor_notify, league_notify, match_notify, tardiness, sending):
        monkeypatch.setattr(module, "_", _tagged)
        if hasattr(module, "ngettext"):
            monkeypatch.setattr(module, "ngettext", _tagged_plural)


def speaks(reg, language: str) -> None:
    Player.objects.filter(pk=reg.player_id).update(language=language)
    reg.player.language = language


def language_of(user_id, kind: str) -> list[str]:
    return [
        n.subject.split("]")[0].lstrip("[")
        for n in Notification.objects.filter(recipient_id=user_id, kind=kind).order_by("pk")
    ]


def test_a_penalty_and_the_result_it_changes_in_each_players_language(running, staff):
    event, round_ = running(players=2, language="it")
    match = round_.matches.select_related("player_a__player", "player_b__player").get()
    speaks(match.player_a, "de")
    floor.issue_penalty(
        match=match, side="a", by_user=staff, infraction="cheating", penalty="match-loss"
    )
    a, b = match.player_a.player.user_id, match.player_b.player.user_id
    assert language_of(a, "penalty") == ["de"]
    assert language_of(a, "result_changed") == ["de"]
    assert language_of(b, "result_changed") == ["it"]  # no language of their own: the event's
    assert event.language == "it"


def test_staff_notices_go_to_each_staff_member_in_their_language(running, staff):
    event, round_ = running(players=2, language="fr")
    judge = make_staff(event, "judge")
    PlayerFactory(user=judge, language="es")
    match = round_.matches.select_related("player_a__player").get()
    call = floor.call_judge(match=match, by_user=match.player_a.player.user, reason="ruling")
    assert language_of(staff.pk, "judge_call") == ["fr"]  # no profile: the event's language
    assert language_of(judge.pk, "judge_call") == ["es"]
    speaks(match.player_a, "pt-br")
    floor.take_call(call=call, by_user=judge)
    assert language_of(match.player_a.player.user_id, "judge_call_taken") == ["pt-br"]


def test_tardiness_is_told_to_both_players_each_in_their_language(running, staff):
    _, round_ = running(players=2, language="en")
    match = round_.matches.select_related("round", "player_a__player", "player_b__player").get()
    speaks(match.player_b, "es")
    late = match.round.clock_started_at + dt.timedelta(minutes=11)
    tardiness.mark_late(match=match, side="a", by_user=staff, now=late)
    bodies = {
        n.recipient_id: n.body for n in Notification.objects.filter(key__startswith="tardiness:")
    }
    assert bodies[match.player_b.player.user_id].startswith("[es] ")
    assert bodies[match.player_a.player.user_id].startswith("[en] ")


def test_league_notices_are_in_the_players_language_and_the_events_time_zone(make_event):
    event, regs = make_event(players=2, language="fr", time_zone="America/Sao_Paulo")
    Event.objects.filter(pk=event.pk).update(
        starts_at=dt.datetime(2026, 3, 14, 18, 30, tzinfo=dt.UTC),
        deck_deadline=dt.datetime(2026, 3, 13, 23, 0, tzinfo=dt.UTC),
    )
    event.refresh_from_db()
    speaks(regs[0], "de")
    league_notify.event_starting(event)
    league_notify.deck_deadline_reminders(event, hours=24)
    for kind in ("event_starting", "deck_deadline_reminder"):
        assert language_of(regs[0].player.user_id, kind) == ["de"]
        assert language_of(regs[1].player.user_id, kind) == ["fr"]
    starting = Notification.objects.filter(kind="event_starting").first()
    assert "15:30" in starting.body  # 18:30 UTC is 15:30 in São Paulo
    reminder = Notification.objects.filter(kind="deck_deadline_reminder").first()
    assert "2026-03-13 20:00" in reminder.body


def test_a_paused_webhook_is_told_to_each_organiser_in_their_language(league, staff, settings):
    settings.WEBHOOK_PAUSE_AFTER_FAILURES = 1
    PlayerFactory(user=staff, language="it")
    endpoint = WebhookEndpoint.objects.create(league=league, url="https://example.org/hook")
    assert sending.count_failure(endpoint, "HTTP 500")
    assert language_of(staff.pk, "webhook_paused") == ["it"]
