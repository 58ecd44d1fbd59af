"""The floor services on PostgreSQL: time extensions, judge calls, penalties, deck checks."""

from datetime import timedelta

import pytest
from django.utils import timezone

from floor import selectors, services
from floor.models import DeckCheck, JudgeCall, Penalty
from league.models import Registration
from matches import services as match_services
from matches.models import Game, Match
from matches.presenters import match_card
from rules.errors import DomainError
from tests.factories import RegistrationFactory, UserFactory, user_of

pytestmark = pytest.mark.django_db


def tables(round_):
    return list(round_.matches.filter(player_b__isnull=False).order_by("table"))


def win(match, side, staff):
    match_services.set_result(match=match, by_user=staff, payload={"games": [{"outcome": side}]})


# --- time extensions --------------------------------------------------------------------


def test_an_extension_moves_only_that_tables_clock(running, staff):
    _event, round_ = running()
    extended, other = tables(round_)
    services.extend_time(match=extended, by_user=staff, minutes=5, reason="deck check")
    services.extend_time(match=extended, by_user=staff, minutes=2)
    extended.refresh_from_db()
    assert extended.extra_minutes == 7
    assert extended.ends_at == round_.ends_at + timedelta(minutes=7)
    assert other.ends_at == round_.ends_at
    now = round_.ends_at - timedelta(minutes=1)
    assert match_card(extended, extended.player_a_id, now=now)["remaining"] == 8 * 60
    assert match_card(other, other.player_a_id, now=now)["remaining"] == 60
    # At the round's end the extended table still plays; the others are at time.
    assert match_card(extended, extended.player_a_id, now=round_.ends_at)["remaining"] == 7 * 60
    assert match_card(other, other.player_a_id, now=round_.ends_at)["remaining"] == 0


def test_pairing_the_next_round_waits_for_an_extended_table(running, staff):
    event, round_ = running()
    extended, other = tables(round_)
    services.extend_time(match=extended, by_user=staff, minutes=5)
    win(other, "a", staff)
    with pytest.raises(DomainError) as closing:
        match_services.close_round(round_=round_, by_user=staff)
    assert closing.value.code == "results-missing" and str(extended.table) in closing.value.message
    with pytest.raises(DomainError) as pairing:
        match_services.pair_next_round(event=event, by_user=staff)
    assert pairing.value.code == "round-open"
    win(extended, "b", staff)
    match_services.close_round(round_=round_, by_user=staff)
    assert match_services.pair_next_round(event=event, by_user=staff).number == 2


@pytest.mark.parametrize("minutes", [0, 31])
def test_an_extension_is_one_to_thirty_minutes(running, staff, minutes):
    _, round_ = running()
    with pytest.raises(DomainError) as exc:
        services.extend_time(match=tables(round_)[0], by_user=staff, minutes=minutes)
    assert exc.value.code == "invalid-extension"


def test_a_finished_table_gets_no_extension_and_players_none_at_all(running, staff):
    _, round_ = running()
    done, playing = tables(round_)
    win(done, "a", staff)
    with pytest.raises(DomainError) as exc:
        services.extend_time(match=done, by_user=staff, minutes=3)
    assert exc.value.code == "invalid-extension"
    with pytest.raises(DomainError) as exc:
        services.extend_time(match=playing, by_user=user_of(playing.player_a), minutes=3)
    assert exc.value.code == "not-allowed"


# --- judge calls ------------------------------------------------------------------------


def test_a_player_calls_a_judge_to_their_own_table_only(running, staff):
    _, round_ = running()
    mine, theirs = tables(round_)
    player = user_of(mine.player_a)
    call = services.call_judge(match=mine, by_user=player, reason="  Ruling on   an attack ")
    assert (call.status, call.reason, call.registration_id) == (
        "open",
        "Ruling on an attack",
        mine.player_a_id,
    )
    # A double tap returns the same call.
    assert services.call_judge(match=mine, by_user=player, reason="again").pk == call.pk
    with pytest.raises(DomainError) as exc:
        services.call_judge(match=theirs, by_user=player, reason="hello")
    assert exc.value.code == "not-your-match"
    with pytest.raises(DomainError) as exc:
        services.call_judge(match=mine, by_user=user_of(mine.player_b), reason="   ")
    assert exc.value.code == "invalid-call"


def test_a_judge_takes_and_closes_a_call_and_a_second_judge_is_told(running, staff):
    event, round_ = running()
    match = tables(round_)[0]
    other_judge = UserFactory(username="judge-two")
    event.season.league.organisers.add(other_judge)
    call = services.call_judge(match=match, by_user=user_of(match.player_b), reason="slow play")
    assert list(selectors.open_calls(event)) == [call]
    taken = services.take_call(call=call, by_user=staff)
    assert (taken.status, taken.taken_by) == ("taken", staff)
    assert services.take_call(call=call, by_user=staff).taken_by == staff  # a retry
    with pytest.raises(DomainError) as exc:
        services.take_call(call=call, by_user=other_judge)
    assert exc.value.code == "call-taken" and "organiser" in exc.value.message
    closed = services.close_call(call=call, by_user=staff, note="reminded of pace of play")
    assert (closed.status, closed.note, closed.closed_by) == (
        "closed",
        "reminded of pace of play",
        staff,
    )
    assert list(selectors.open_calls(event)) == []
    with pytest.raises(DomainError) as exc:
        services.take_call(call=call, by_user=other_judge)
    assert exc.value.code == "call-closed"


def test_players_cannot_take_or_close_calls(running, staff):
    _, round_ = running()
    match = tables(round_)[0]
    player = user_of(match.player_a)
    call = services.call_judge(match=match, by_user=player, reason="question")
    for action in (services.take_call, services.close_call):
        with pytest.raises(DomainError) as exc:
            action(call=call, by_user=player)
        assert exc.value.code == "not-allowed"
    assert JudgeCall.objects.get(pk=call.pk).status == "open"


# --- penalties --------------------------------------------------------------------------


def test_a_prize_penalty_is_recorded_and_leaves_the_result_alone(running, staff):
    _, round_ = running()
    match = tables(round_)[0]
    made = services.issue_penalty(match=match, side="a", by_user=staff,
                                  infraction="procedural-minor", penalty="prize", prizes=1,
                                  note="drew an extra card")  # fmt: skip
    assert made.label == "Prize penalty (1 Prize)" and not made.result_changed
    assert (made.round, made.match, made.judge) == (round_, match, staff)
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING and not match.games.exists()


@pytest.mark.parametrize(
    ("penalty", "prizes"), [("prize", None), ("prize", 7), ("warning", 2), ("sneeze", None)]
)
def test_a_penalty_must_make_sense(running, staff, penalty, prizes):
    _, round_ = running()
    with pytest.raises(DomainError) as exc:
        services.issue_penalty(match=tables(round_)[0], side="a", by_user=staff,
                               infraction="tardiness", penalty=penalty, prizes=prizes)  # fmt: skip
    assert exc.value.code == "invalid-penalty"


def test_a_game_loss_in_best_of_one_decides_the_match_through_the_result_rules(running, staff):
    event, round_ = running()
    match = tables(round_)[0]
    made = services.issue_penalty(match=match, side="a", by_user=staff,
                                  infraction="deck-decklist", penalty="game-loss")  # fmt: skip
    assert made.result_changed
    match.refresh_from_db()
    assert (match.status, match.result) == (Match.Status.FINAL, "b")
    assert list(match.games.values_list("outcome", "reason")) == [("b", Game.Reason.PENALTY)]
    change = match.changes.get()
    assert change.source == "staff" and "Game loss" in change.note
    rows = match_services.standings_rows(event)
    winner = next(r for r in rows if r["registration"] == match.player_b_id)
    assert winner["points"] == 3


def test_a_game_loss_in_best_of_three_waits_for_the_other_games(running, staff):
    _, round_ = running(best_of=3)
    match = tables(round_)[0]
    made = services.issue_penalty(match=match, side="b", by_user=staff,
                                  infraction="tardiness", penalty="game-loss")  # fmt: skip
    assert not made.result_changed
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING


def test_a_match_loss_overturns_a_result_that_stood(running, staff):
    _, round_ = running(best_of=3)
    match = tables(round_)[0]
    match_services.set_result(match=match, by_user=staff,
                              payload={"games": [{"outcome": "a"}, {"outcome": "a"}]})  # fmt: skip
    services.issue_penalty(match=match, side="a", by_user=staff,
                           infraction="unsporting-major", penalty="match-loss")  # fmt: skip
    match.refresh_from_db()
    assert (match.result, match.a_game_wins, match.b_game_wins) == ("b", 0, 2)
    assert set(match.games.values_list("reason", flat=True)) == {"penalty"}
    assert match.changes.count() == 2


def test_a_disqualification_loses_the_match_and_drops_the_player(running, staff):
    _event, round_ = running()
    match = tables(round_)[0]
    services.issue_penalty(match=match, side="b", by_user=staff,
                           infraction="cheating", penalty="disqualification")  # fmt: skip
    match.refresh_from_db()
    assert match.result == "a"
    reg = Registration.objects.get(pk=match.player_b_id)
    assert reg.status == Registration.Status.DROPPED and reg.dropped_after_round == 1


def test_a_players_history_runs_across_events_with_repeats_marked(running, staff, make_event):
    event, round_ = running()
    match = tables(round_)[0]
    player = match.player_a.player
    services.issue_penalty(match=match, side="a", by_user=staff,
                           infraction="tardiness", penalty="warning")  # fmt: skip
    other_event, _ = make_event(players=1)
    RegistrationFactory(event=other_event, player=player)
    round_2 = match_services.pair_next_round(event=other_event, by_user=staff)
    match_services.publish_round(round_=round_2, by_user=staff)
    other = round_2.matches.get(player_b__isnull=False)
    side = other.side_of(Registration.objects.get(event=other_event, player=player).pk)
    services.issue_penalty(match=other, side=side, by_user=staff,
                           infraction="tardiness", penalty="game-loss")  # fmt: skip
    services.issue_penalty(match=other, side=side, by_user=staff,
                           infraction="procedural-minor", penalty="caution")  # fmt: skip
    rows = selectors.penalty_history([player])[player.pk]
    assert [(r["penalty"].infraction, r["repeat"]) for r in rows] == [
        ("procedural-minor", False), ("tardiness", True), ("tardiness", True),
    ]  # fmt: skip
    assert {r["penalty"].event_id for r in rows} == {event.pk, other_event.pk}


def test_players_cannot_penalise(running, staff):
    _, round_ = running()
    match = tables(round_)[0]
    with pytest.raises(DomainError) as exc:
        services.issue_penalty(match=match, side="b", by_user=user_of(match.player_a),
                               infraction="tardiness", penalty="game-loss")  # fmt: skip
    assert exc.value.code == "not-allowed"
    assert not Penalty.objects.exists()


# --- deck checks ------------------------------------------------------------------------


def test_random_tables_for_deck_checks_are_real_tables_and_repeatable(running, staff):
    _, round_ = running(players=9)
    picked = services.pick_tables(round_=round_, by_user=staff, count=2, seed="r1")
    assert len(picked) == 2 and all(m.player_b_id for m in picked)
    assert picked == services.pick_tables(round_=round_, by_user=staff, count=2, seed="r1")
    assert len(services.pick_tables(round_=round_, by_user=staff, count=99)) == 4


def test_a_deck_check_mismatch_needs_a_note(running, staff):
    _, round_ = running()
    match = tables(round_)[0]
    with pytest.raises(DomainError) as exc:
        services.record_deck_check(match=match, side="a", by_user=staff, outcome="mismatch")
    assert exc.value.code == "invalid-deck-check"
    check = services.record_deck_check(match=match, side="a", by_user=staff,
                                       outcome="mismatch", note="3 Iono, list says 2")  # fmt: skip
    assert (check.registration_id, check.outcome) == (match.player_a_id, DeckCheck.Outcome.MISMATCH)
    with pytest.raises(DomainError) as exc:
        services.record_deck_check(
            match=match, side="b", by_user=user_of(match.player_b), outcome="ok"
        )
    assert exc.value.code == "not-allowed"


def test_seconds_left_counts_the_extension_and_never_below_zero():
    from matches.models import Round
    from matches.presenters import seconds_left

    round_ = Round(status=Round.Status.RUNNING, ends_at=timezone.now() - timedelta(minutes=3))
    assert seconds_left(round_) == 0
    assert 100 < seconds_left(round_, extra_minutes=5) <= 120


def test_a_judge_call_tells_the_staff_in_their_inbox_not_by_email(running, staff):
    from notifications.models import EmailStatus, Notification

    _, round_ = running()
    match = tables(round_)[0]
    player = user_of(match.player_a)
    services.call_judge(match=match, by_user=player, reason="ruling")
    services.call_judge(match=match, by_user=player, reason="ruling")  # a double tap
    (row,) = Notification.objects.filter(kind="judge_call")
    assert row.recipient == staff and f"table {match.table}" in row.subject
    assert row.email_status == EmailStatus.NOT_REQUESTED
