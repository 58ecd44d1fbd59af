"""Who is told what on the floor and after a result changes: a penalty to the penalised
player, a result changed by a penalty or by staff to both players, a judge call taken (or
closed) to the player who called; every message names the players, never "Player A/B".
Inbox rows, and e-mail as each user's preferences say."""

import pytest

from floor import services as floor
from matches import services
from notifications.models import EmailStatus, Notification

pytestmark = pytest.mark.django_db


def user_of(reg):
    return reg.player.user


def inbox(reg, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(recipient=user_of(reg), kind=kind).order_by("pk"))


def test_a_penalty_is_told_to_the_penalised_player(running, staff):
    _, round_ = running(players=2)
    match = round_.matches.get()
    floor.issue_penalty(
        match=match,
        side="a",
        by_user=staff,
        infraction="procedural-minor",
        penalty="warning",
        note="drew an extra card",
    )
    [notice] = inbox(match.player_a, "penalty")
    assert notice.subject.endswith("Warning issued to you")
    assert "Procedural Error – Minor" in notice.body and "drew an extra card" in notice.body
    assert notice.url == "/me/penalties/"
    assert notice.email_status == EmailStatus.PENDING  # e-mailed by default
    assert inbox(match.player_b, "penalty") == []
    assert Notification.objects.filter(kind="result_changed").count() == 0  # no result change


def test_a_game_loss_that_decides_the_match_tells_both_players_by_name(running, staff):
    _, round_ = running(players=2)
    match = round_.matches.get()
    a, b = match.player_a.player.name, match.player_b.player.name
    floor.issue_penalty(
        match=match,
        side="a",
        by_user=staff,
        infraction="procedural-major",
        penalty="game-loss",
        note="marked cards",
    )
    for reg in (match.player_a, match.player_b):
        [notice] = inbox(reg, "result_changed")
        assert f"is now {b} won 1–0" in notice.body and "Game loss for " + a in notice.body
        assert "Player A" not in notice.body and "Player B" not in notice.body
    [penalty] = inbox(match.player_a, "penalty")
    assert "It changed the match's result." in penalty.body


def test_a_staff_correction_tells_both_players_and_a_first_entry_does_not(running, staff):
    _, round_ = running(players=2)
    match = round_.matches.get()
    services.set_result(match=match, by_user=staff, payload={"games": [{"outcome": "a"}]})
    assert Notification.objects.filter(kind="result_changed").count() == 0
    match.refresh_from_db()
    services.set_result(
        match=match, by_user=staff, payload={"games": [{"outcome": "b"}]}, note="slip misread"
    )
    b = match.player_b.player.name
    for reg in (match.player_a, match.player_b):
        [notice] = inbox(reg, "result_changed")
        assert notice.body.endswith(f"is now {b} won 1–0. slip misread.")
    match.refresh_from_db()  # the same result again changes nothing and tells nobody
    services.set_result(match=match, by_user=staff, payload={"games": [{"outcome": "b"}]})
    assert Notification.objects.filter(kind="result_changed").count() == 2


def test_the_dispute_verdict_names_the_winner(running, staff):
    _, round_ = running(players=2)
    match = round_.matches.get()
    services.report_result(
        match=match, by_user=user_of(match.player_a), payload={"games": [{"outcome": "a"}]}
    )
    services.report_result(
        match=match, by_user=user_of(match.player_b), payload={"games": [{"outcome": "b"}]}
    )
    match.refresh_from_db()
    services.set_result(match=match, by_user=staff, payload={"games": [{"outcome": "b"}]})
    [notice] = inbox(match.player_a, "dispute_resolved")
    assert f"{match.player_b.player.name} won 1–0" in notice.body
    assert "Player B" not in notice.body
    assert inbox(match.player_a, "result_changed") == []  # one notice, not two


def test_the_caller_is_told_who_took_the_call_and_when_it_closed(running, staff):
    _, round_ = running(players=2)
    match = round_.matches.get()
    call = floor.call_judge(match=match, by_user=user_of(match.player_b), reason="Iono ruling")
    assert inbox(match.player_b, "judge_call_taken") == []
    floor.take_call(call=call, by_user=staff)
    floor.take_call(call=call, by_user=staff)  # a double tap tells nobody twice
    [taken] = inbox(match.player_b, "judge_call_taken")
    assert taken.subject.endswith(f"organiser is coming to table {match.table}")
    assert "Iono ruling" in taken.body and taken.url == f"/matches/{match.pk}/"
    assert taken.email_status == EmailStatus.NOT_REQUESTED  # stale by e-mail: inbox only
    floor.close_call(call=call, by_user=staff, note="explained Iono")
    closed = inbox(match.player_b, "judge_call_taken")[-1]
    assert (
        "closed" in closed.subject and closed.body == "organiser closed your call: explained Iono"
    )
    assert inbox(match.player_a, "judge_call_taken") == []


def test_a_name_ending_in_a_full_stop_ends_a_sentence_once(make_event, staff):
    event, regs = make_event(players=2)
    for reg, name in zip(regs, ("Brock H.", "Misty W."), strict=True):
        reg.player.name = name
        reg.player.save()
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.start_clock(round_=round_, by_user=staff)  # publishes: pairings are sent
    bodies = list(
        Notification.objects.filter(kind="pairings_published").values_list("body", flat=True)
    )
    assert len(bodies) == 2 and all(
        body.endswith(("against Brock H.", "against Misty W.")) for body in bodies
    )
    match = round_.matches.get()
    floor.issue_penalty(
        match=match,
        side="a",
        by_user=staff,
        infraction="procedural-minor",
        penalty="warning",
        note="Drew an extra card.",
    )
    [notice] = inbox(match.player_a, "penalty")
    assert notice.body.endswith(": Drew an extra card.") and ".." not in notice.body
