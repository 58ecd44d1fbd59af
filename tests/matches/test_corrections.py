"""The scorekeeper's corrections through the services: undo a round, swap, move, pair by
hand, seat a late arrival, give a bye, undo a drop or a check-in, fixed and feature tables;
each refusal; the notices players get; one event-log row per change, in its transaction."""

import pytest
from django.db.models import Q

from league import services as league_services
from league.event_log import EventLogEntry
from league.models import Event, Registration
from matches import page_cache, services
from matches.models import Match, Round
from notifications.models import Notification
from rules.errors import DomainError
from tests.factories import PlayerFactory, RegistrationFactory, UserFactory

pytestmark = pytest.mark.django_db

WHY = "entered by mistake"


def play_round(event, staff, *, winner="a"):
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.start_clock(round_=round_, by_user=staff)
    for m in round_.matches.filter(player_b__isnull=False):
        services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": winner}]})
    services.close_round(round_=round_, by_user=staff)
    return round_


def match_of(round_, reg) -> Match | None:
    return round_.matches.filter(Q(player_a=reg) | Q(player_b=reg)).first()


def seated(round_) -> list[int]:
    return [p for m in round_.matches.all() for p in (m.player_a_id, m.player_b_id) if p]


def log(event, kind=None):
    rows = EventLogEntry.objects.filter(event=event)
    return rows.filter(kind=kind) if kind else rows


def refused(code, call, **kwargs):
    with pytest.raises(DomainError) as err:
        call(**kwargs)
    assert err.value.code == code, err.value
    return err.value


# --- undo a round -----------------------------------------------------------------------


def test_undoing_a_published_round_tells_its_players_and_the_event_goes_back(
    make_event, staff, django_capture_on_commit_callbacks
):
    event, _regs = make_event(players=7)
    play_round(event, staff)
    round2 = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round2, by_user=staff)  # the bye is final: still undoable
    before = page_cache.version(event.pk)
    refused("reason-required", services.undo_round, round_=round2, by_user=staff, reason=" ")
    with django_capture_on_commit_callbacks(execute=True):
        assert services.undo_round(round_=round2, by_user=staff, reason=WHY) == 2
    event.refresh_from_db()
    assert not Round.objects.filter(event=event, number=2).exists()
    assert event.swiss_rounds_paired == 1 and event.status == Event.Status.RUNNING
    assert page_cache.version(event.pk) != before
    told = Notification.objects.filter(key__startswith=f"cancelled:round:{round2.pk}:")
    assert told.count() == 7 and "cancelled" in told.first().subject
    entry = log(event, EventLogEntry.Kind.ROUND_UNDONE).get()
    assert entry.reason == WHY and entry.by == staff and len(entry.before) == 4
    assert entry.registrations.count() == 7
    again = services.pair_next_round(event=event, by_user=staff)
    assert again.number == 2 and len(seated(again)) == 7


def test_undoing_round_one_reopens_registration(make_event, staff):
    event, _ = make_event(players=4)
    round1 = services.pair_next_round(event=event, by_user=staff)
    services.undo_round(round_=round1, by_user=staff, reason=WHY)
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION and event.swiss_rounds_paired == 0
    # Nobody was told of pairings that were never published.
    assert not Notification.objects.filter(key__startswith="cancelled:").exists()


def test_a_round_with_a_result_or_a_report_cannot_be_undone(make_event, staff):
    event, _regs = make_event(players=4)
    round1 = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round1, by_user=staff)
    m = round1.matches.order_by("table").first()
    player = m.player_a.player.user
    services.report_result(match=m, by_user=player, payload={"games": [{"outcome": "a"}]})
    err = refused(
        "round-has-results", services.undo_round, round_=round1, by_user=staff, reason=WHY
    )
    assert f"Table(s) {m.table}" in err.message
    assert Round.objects.filter(pk=round1.pk).exists() and not log(event).exists()


def test_only_the_current_round_can_be_undone_and_only_by_pairing_staff(make_event, staff):
    event, regs = make_event(players=4)
    round1 = play_round(event, staff)
    round2 = services.pair_next_round(event=event, by_user=staff)
    refused("not-last-round", services.undo_round, round_=round1, by_user=staff, reason=WHY)
    player = regs[0].player.user
    refused("not-allowed", services.undo_round, round_=round2, by_user=player, reason=WHY)


# --- edits by hand ----------------------------------------------------------------------


def test_swapping_two_players_tells_the_four_players_and_logs_one_row(
    make_event, staff, django_capture_on_commit_callbacks
):
    event, regs = make_event(players=8)
    play_round(event, staff)
    round2 = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round2, by_user=staff)
    m1, m2 = list(round2.matches.order_by("table")[:2])  # both on 3 points
    a, b = m1.player_a, m2.player_a
    before = page_cache.version(event.pk)
    with django_capture_on_commit_callbacks(execute=True):
        services.swap_players(round_=round2, a=a, b=b, by_user=staff, reason=WHY)
    assert match_of(round2, a).table == m2.table and match_of(round2, b).table == m1.table
    assert sorted(seated(round2)) == sorted(r.pk for r in regs)
    assert page_cache.version(event.pk) != before
    entry = log(event, EventLogEntry.Kind.PAIRING_EDITED).get()
    told = Notification.objects.filter(key__startswith=f"seating:{entry.pk}:")
    assert told.count() == 4
    mine = told.get(recipient=a.player.user)
    assert f"table {m2.table}" in mine.body and m2.player_b.player.name in mine.body
    assert {r.pk for r in entry.registrations.all()} == {
        m1.player_a_id,
        m1.player_b_id,
        m2.player_a_id,
        m2.player_b_id,
    }


def test_a_rematch_or_a_pairing_across_score_groups_needs_a_confirmation_naming_it(
    make_event, staff
):
    event, _regs = make_event(players=4)
    round1 = play_round(event, staff)
    round2 = services.pair_next_round(event=event, by_user=staff)
    winners = [m.player_a for m in round1.matches.all()]
    losers = [m.player_b for m in round1.matches.all()]
    # Round 2 pairs the two winners: swapping a winner with their round-1 opponent makes
    # a rematch at one table and a pairing of 3 points against 0 at both.
    w, loser = winners[0], losers[0]
    err = refused(
        "needs-confirmation",
        services.swap_players,
        round_=round2,
        a=winners[1],
        b=loser,
        by_user=staff,
        reason=WHY,
    )
    assert (
        f"{w.player.name} and {loser.player.name} have met before: confirm the rematch"
        in err.message
    )
    assert "different score groups" in err.message and "(3 points)" in err.message
    refused(
        "needs-confirmation",
        services.swap_players,
        round_=round2,
        a=winners[1],
        b=loser,
        by_user=staff,
        reason=WHY,
        confirm=["rematch"],
    )
    services.swap_players(
        round_=round2,
        a=winners[1],
        b=loser,
        by_user=staff,
        reason=WHY,
        confirm=["rematch", "score-groups"],
    )
    assert match_of(round2, w) == match_of(round2, loser)


def test_nobody_is_seated_twice_and_no_dropped_player_is_seated(make_event, staff):
    event, regs = make_event(players=6)
    play_round(event, staff)
    gone = regs[0]
    league_services.drop(registration=gone, by_user=staff)
    round2 = services.pair_next_round(event=event, by_user=staff)
    assert gone.pk not in seated(round2)
    err = refused(
        "player-dropped",
        services.seat_player,
        round_=round2,
        registration=gone,
        mode="bye",
        by_user=staff,
        reason=WHY,
    )
    assert "dropped" in err.message and gone.player.name in err.message
    there = Registration.objects.get(pk=round2.matches.first().player_a_id)
    err = refused(
        "seated-twice",
        services.seat_player,
        round_=round2,
        registration=there,
        mode="bye",
        by_user=staff,
        reason=WHY,
    )
    other = round2.matches.order_by("table").last()
    refused(
        "player-dropped",
        services.pair_players,
        round_=round2,
        a=other.player_a,
        b=gone,
        by_user=staff,
        reason=WHY,
        confirm=["score-groups", "rematch"],
    )
    assert sorted(seated(round2)) == sorted(r.pk for r in regs[1:])
    assert not log(event).exclude(kind=EventLogEntry.Kind.DROP).exists()


def test_an_undone_drop_is_paired_again_in_the_next_round(make_event, staff):
    event, regs = make_event(players=6)
    play_round(event, staff)
    league_services.drop(registration=regs[0], by_user=staff)
    refused(
        "reason-required", league_services.undo_drop, registration=regs[0], by_user=staff, reason=""
    )
    refused(
        "not-dropped", league_services.undo_drop, registration=regs[1], by_user=staff, reason=WHY
    )
    league_services.undo_drop(registration=regs[0], by_user=staff, reason="wrong player dropped")
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.CHECKED_IN and regs[0].dropped_after_round is None
    round2 = services.pair_next_round(event=event, by_user=staff)
    assert regs[0].pk in seated(round2)
    kinds = list(log(event).values_list("kind", flat=True))
    assert kinds == [EventLogEntry.Kind.DROP, EventLogEntry.Kind.DROP_UNDONE]


def test_a_mistaken_check_in_is_undone_before_round_one(make_event, staff):
    event, regs = make_event(players=4, require_check_in=True)
    league_services.undo_check_in(registration=regs[0], by_user=staff, reason="wrong name ticked")
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.REGISTERED
    round1 = services.pair_next_round(event=event, by_user=staff)
    assert regs[0].pk not in seated(round1)
    refused(
        "event-started",
        league_services.undo_check_in,
        registration=regs[1],
        by_user=staff,
        reason=WHY,
    )


def test_a_late_arrival_is_seated_with_a_bye_an_opponent_or_a_loss(
    make_event, staff, django_capture_on_commit_callbacks
):
    event, _regs = make_event(players=6)
    play_round(event, staff)
    round2 = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round2, by_user=staff)
    late = [RegistrationFactory(event=event, status="registered") for _ in range(4)]
    assert late[0].late_entry_round == 3  # registering now would start next round
    with django_capture_on_commit_callbacks(execute=True):
        services.seat_player(
            round_=round2,
            registration=late[0],
            mode="bye",
            by_user=staff,
            reason="arrived at 10:12",
        )
    bye = match_of(round2, late[0])
    assert bye.is_bye and bye.status == Match.Status.FINAL and bye.table == 4
    late[0].refresh_from_db()
    assert late[0].late_entry_round == 2 and late[0].status == Registration.Status.CHECKED_IN
    assert Notification.objects.filter(recipient=late[0].player.user, body__contains="bye").exists()
    services.seat_player(
        round_=round2,
        registration=late[1],
        mode="opponent",
        opponent=late[2],
        by_user=staff,
        reason="arrived together",
    )
    assert match_of(round2, late[1]) == match_of(round2, late[2])
    services.seat_player(
        round_=round2, registration=late[3], mode="loss", by_user=staff, reason="late"
    )
    late[3].refresh_from_db()
    assert late[3].late_entry_round == 3 and match_of(round2, late[3]) is None
    refused(
        "seated-twice",
        services.seat_player,
        round_=round2,
        registration=late[1],
        mode="bye",
        by_user=staff,
        reason=WHY,
    )
    assert log(event, EventLogEntry.Kind.PLAYER_SEATED).count() == 3
    services.start_clock(round_=round2, by_user=staff)
    for m in round2.matches.filter(player_b__isnull=False):
        services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
    services.close_round(round_=round2, by_user=staff)
    rows = {r["registration"]: r for r in services.standings_rows(event)}
    assert rows[late[0].pk]["record"] == "1-1-0"  # round 1 lost, the bye won
    assert rows[late[3].pk]["record"] == "0-2-0"


def test_move_a_match_to_another_table_and_pair_two_players_by_hand(make_event, staff):
    event, _regs = make_event(players=8)
    round1 = services.pair_next_round(event=event, by_user=staff)
    first = round1.matches.get(table=1)
    services.move_match(round_=round1, table=1, to_table=3, by_user=staff, reason="wheelchair")
    first.refresh_from_db()
    assert first.table == 3 and round1.matches.get(table=1).player_a_id is not None
    services.move_match(round_=round1, table=3, to_table=12, by_user=staff, reason="stream")
    assert sorted(round1.matches.values_list("table", flat=True)) == [1, 2, 4, 12]
    m1, m2 = round1.matches.order_by("table")[:2]
    services.pair_players(round_=round1, a=m1.player_a, b=m2.player_a, by_user=staff, reason=WHY)
    assert match_of(round1, m1.player_a) == match_of(round1, m2.player_a)
    assert match_of(round1, m1.player_b) == match_of(round1, m2.player_b)
    refused(
        "invalid-edit",
        services.pair_players,
        round_=round1,
        a=m1.player_a,
        b=m2.player_a,
        by_user=staff,
        reason=WHY,
    )
    assert log(event, EventLogEntry.Kind.PAIRING_EDITED).count() == 3


def test_a_bye_given_by_hand_leaves_the_opponent_to_be_seated(make_event, staff):
    event, _regs = make_event(players=4)
    round1 = services.pair_next_round(event=event, by_user=staff)
    m = round1.matches.order_by("table").first()
    a, b = m.player_a, m.player_b
    services.give_bye(round_=round1, registration=a, by_user=staff, reason="opponent missing")
    assert match_of(round1, a).is_bye and match_of(round1, b) is None
    entry = log(event, EventLogEntry.Kind.PAIRING_EDITED).get()
    assert f"{b.player.name} has no table now" in entry.summary
    services.give_bye(round_=round1, registration=b, by_user=staff, reason="arrived late")
    assert match_of(round1, b).is_bye


def test_a_second_bye_needs_its_confirmation(make_event, staff):
    event, _regs = make_event(players=3)
    round1 = play_round(event, staff)
    had = round1.matches.get(player_b__isnull=True).player_a
    round2 = services.pair_next_round(event=event, by_user=staff)
    m = match_of(round2, had)
    other = m.player_b if m.player_a_id == had.pk else m.player_a
    err = refused(
        "needs-confirmation",
        services.give_bye,
        round_=round2,
        registration=had,
        by_user=staff,
        reason=WHY,
    )
    assert f"{had.player.name} already had a bye" in err.message
    services.give_bye(
        round_=round2, registration=had, by_user=staff, reason=WHY, confirm=["second-bye"]
    )
    assert match_of(round2, other) is None


# --- fixed seats and feature tables ----------------------------------------------------


def test_a_fixed_seat_is_kept_every_round_and_feature_tables_hold_chosen_matches(make_event, staff):
    event, regs = make_event(players=16, swiss_rounds=4, top_cut=0)
    league_services.set_seating(
        registration=regs[3], by_user=staff, fixed_table=2, reason="wheelchair access"
    )
    refused(
        "table-taken",
        league_services.set_seating,
        registration=regs[4],
        by_user=staff,
        fixed_table=2,
    )
    league_services.set_feature_tables(event=event, by_user=staff, tables=[1, 20])
    # A player fixed at a feature table is on stream every round.
    league_services.set_seating(registration=regs[5], by_user=staff, fixed_table=20)
    for _ in range(4):
        round_ = play_round(event, staff)
        assert match_of(round_, regs[3]).table == 2
        featured = match_of(round_, regs[5])
        assert featured.table == 20 or regs[3].pk in (featured.player_a_id, featured.player_b_id)
        tables = sorted(round_.matches.values_list("table", flat=True))
        assert len(set(tables)) == len(tables) == 8
        assert 1 not in tables  # a feature table nobody is fixed at stays empty
        assert (20 in tables) == (featured.table == 20)
    assert log(event, EventLogEntry.Kind.SEATING).count() == 3


# --- the log of the other changes ------------------------------------------------------


def test_result_corrections_need_a_reason_and_are_logged(make_event, staff):
    event, _regs = make_event(players=4)
    round1 = services.pair_next_round(event=event, by_user=staff)
    m = round1.matches.order_by("table").first()
    services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
    assert not log(event).exists()  # entering a result is play
    refused(
        "reason-required",
        services.set_result,
        match=m,
        by_user=staff,
        payload={"games": [{"outcome": "b"}]},
    )
    services.set_result(
        match=m,
        by_user=staff,
        payload={"games": [{"outcome": "b"}]},
        note="the slip had the names swapped",
    )
    entry = log(event, EventLogEntry.Kind.RESULT_CORRECTED).get()
    assert entry.before["result"] == "a" and entry.after["result"] == "b"
    assert entry.reason == "the slip had the names swapped" and entry.round_number == 1


def test_settings_changed_during_play_are_logged(make_event, staff):
    event, _ = make_event(players=4)
    league_services.update_event(event=event, by_user=staff, round_minutes=45)
    assert not log(event).exists()  # before play: not a correction
    services.pair_next_round(event=event, by_user=staff)
    league_services.update_event(event=event, by_user=staff, round_minutes=55)
    entry = log(event, EventLogEntry.Kind.SETTINGS).get()
    assert entry.before == {"round_minutes": 45} and entry.after == {"round_minutes": 55}


def test_a_refused_change_writes_no_row_and_the_log_rolls_back_with_it(make_event, staff):
    event, _regs = make_event(players=4)
    round1 = services.pair_next_round(event=event, by_user=staff)
    m1, m2 = round1.matches.order_by("table")
    refused(
        "invalid-edit",
        services.swap_players,
        round_=round1,
        a=m1.player_a,
        b=m1.player_b,
        by_user=staff,
        reason=WHY,
    )
    stranger = UserFactory()
    refused(
        "not-allowed",
        services.swap_players,
        round_=round1,
        a=m1.player_a,
        b=m2.player_a,
        by_user=stranger,
        reason=WHY,
    )
    assert not log(event).exists()
    player = PlayerFactory()
    assert player.pk  # a player of another event is never seated here


def test_the_floor_writes_its_rows_time_extensions_penalties_and_deck_checks(make_event, staff):
    from floor import services as floor

    event, _regs = make_event(players=4)
    round1 = services.pair_next_round(event=event, by_user=staff)
    services.start_clock(round_=round1, by_user=staff)
    m = round1.matches.order_by("table").first()
    floor.extend_time(match=m, by_user=staff, minutes=5, reason="long ruling")
    floor.issue_penalty(
        match=m,
        side="a",
        by_user=staff,
        infraction="procedural-minor",
        penalty="warning",
        note="shuffled slowly",
    )
    floor.record_deck_check(match=m, side="b", by_user=staff, outcome="ok")
    rows = list(log(event).order_by("id"))
    assert [r.kind for r in rows] == ["time_extension", "penalty", "deck_check"]
    assert rows[0].after == {"minutes": 5, "reason": "long ruling"}
    assert [r.pk for r in rows[1].registrations.all()] == [m.player_a_id]
    assert all(r.by == staff and r.round_number == 1 for r in rows)
    # Filtered by player: the extension names both, the deck check only player B.
    assert {
        e.kind for e in league_services.eventlog.entries(event, registration=m.player_b_id)
    } == {"time_extension", "deck_check"}
