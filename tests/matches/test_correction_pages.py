"""The corrections from the round page and the API: the same services, the same refusals,
and the event log page filtered by kind and player."""

import pytest
from django.db.models import Q
from django.urls import reverse

from league import services as league_services
from league.event_log import EventLogEntry
from league.models import Registration
from matches import services
from matches.models import Match, Round
from tests.factories import RegistrationFactory

pytestmark = pytest.mark.django_db


def play_round(event, staff):
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.start_clock(round_=round_, by_user=staff)
    for m in round_.matches.filter(player_b__isnull=False):
        services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
    services.close_round(round_=round_, by_user=staff)
    return round_


def table_of(round_, reg) -> int | None:
    m = round_.matches.filter(Q(player_a=reg) | Q(player_b=reg)).first()
    return m.table if m else None


@pytest.fixture
def running(make_event, staff, client):
    event, regs = make_event(players=8)
    round1 = play_round(event, staff)
    round2 = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round2, by_user=staff)
    client.force_login(staff)
    return event, regs, round1, round2


def post(client, event, round_, *, follow=False, **data):
    url = reverse("round-correction", args=[event.pk, round_.number])
    return client.post(url, data, follow=follow)


def test_the_round_page_shows_the_corrections_to_staff_only(running, client):
    event, regs, _, round2 = running
    # The staff's view of the round page (`?live=1`, linked for them by me.json; the plain
    # URL is the one public body for every viewer).
    staff_view = reverse("round-pairings", args=[event.pk, 2]) + "?live=1"
    me = client.get(reverse("event-me", args=[event.pk]) + "?round=2").json()
    assert {"label": "Staff view", "url": "?live=1"} in me["links"]
    page = client.get(staff_view).content.decode()
    assert 'id="corrections"' in page and "Seat a late arrival" in page
    assert (
        'id="corrections"'
        not in client.get(reverse("round-pairings", args=[event.pk, 2])).content.decode()
    )
    client.force_login(regs[0].player.user)
    page = client.get(staff_view).content.decode()
    assert 'id="corrections"' not in page
    assert post(client, event, round2, action="undo", reason="x").status_code == 403


def test_swap_seat_and_undo_from_the_round_page(running, client, staff):
    event, _regs, _, round2 = running
    m1, m2 = round2.matches.order_by("table")[:2]
    a, b = m1.player_a, m2.player_a
    response = post(client, event, round2, action="swap", a=a.pk, b=b.pk, reason="wrong seats")
    assert response.status_code == 302
    assert table_of(round2, a) == m2.table and table_of(round2, b) == m1.table
    late = RegistrationFactory(event=event, status="registered")
    post(client, event, round2, action="seat", a=late.pk, mode="bye", reason="late")
    assert table_of(round2, late) == 5
    # A reason is required: the page says so and nothing changes.
    response = post(client, event, round2, action="undo", reason="", follow=True)
    assert "Say why" in response.content.decode()
    response = post(client, event, round2, action="undo", reason="paired before the drops")
    assert response.status_code == 302 and not Round.objects.filter(event=event, number=2).exists()
    kinds = list(
        EventLogEntry.objects.filter(event=event).order_by("id").values_list("kind", flat=True)
    )
    assert kinds == ["pairing_edited", "player_seated", "round_undone"]


def test_a_rematch_asks_for_a_confirmation_that_names_it(running, client):
    event, _regs, round1, round2 = running
    first = round1.matches.order_by("table").first()
    winner, loser = first.player_a, first.player_b
    # The winner's round-2 opponent swaps with the loser: winner and loser meet again.
    m = round2.matches.get(Q(player_a=winner) | Q(player_b=winner))
    opponent = m.player_b if m.player_a_id == winner.pk else m.player_a
    response = post(client, event, round2, action="swap", a=opponent.pk, b=loser.pk, reason="r")
    page = response.content.decode()
    assert response.status_code == 409
    assert f"{winner.player.name} and {loser.player.name} have met before" in page
    assert 'value="rematch"' in page and 'value="score-groups"' in page
    response = post(
        client,
        event,
        round2,
        action="swap",
        a=opponent.pk,
        b=loser.pk,
        reason="r",
        confirm=["rematch", "score-groups"],
    )
    assert response.status_code == 302 and table_of(round2, loser) == m.table


def test_a_dropped_player_cannot_be_seated_and_the_drop_is_undone_from_the_log_page(
    running, client, staff
):
    event, regs, _, round2 = running
    services.undo_round(round_=round2, by_user=staff, reason="redo")
    league_services.drop(registration=regs[0], by_user=staff)
    round2 = services.pair_next_round(event=event, by_user=staff)
    response = post(
        client, event, round2, action="seat", a=regs[0].pk, mode="bye", reason="x", follow=True
    )
    assert "dropped: undo that first" in response.content.decode()
    page = client.get(reverse("event-log", args=[event.pk])).content.decode()
    assert "Undo drop" in page
    url = reverse("registration-undo", args=[event.pk, regs[0].pk])
    client.post(url, {"what": "drop", "reason": "dropped the wrong player"})
    regs[0].refresh_from_db()
    assert regs[0].status == Registration.Status.CHECKED_IN
    by_kind = client.get(reverse("event-log", args=[event.pk]), {"kind": "drop_undone"})
    text = by_kind.content.decode()
    assert "dropped the wrong player" in text and text.count('data-kind="') == 1
    by_player = client.get(reverse("event-log", args=[event.pk]), {"player": regs[0].pk})
    text = by_player.content.decode()
    assert text.count('data-kind="') == 3  # undone round, drop, drop undone: all name them


def test_the_api_offers_the_same_operations_and_refusals(running, client, staff):
    event, regs, round1, round2 = running
    url = reverse("api:api-round-correction", args=[round2.pk])
    m1, m2 = round2.matches.order_by("table")[:2]
    a, b = m1.player_a, m2.player_a
    answer = client.post(
        url,
        {"action": "swap", "a": a.pk, "b": b.pk, "reason": "api"},
        content_type="application/json",
    )
    assert answer.status_code == 200 and answer.json()["kind"] == "pairing_edited"
    first = round1.matches.order_by("table").first()
    m = round2.matches.get(Q(player_a=first.player_a) | Q(player_b=first.player_a))
    opponent = m.player_b if m.player_a_id == first.player_a_id else m.player_a
    answer = client.post(
        url,
        {"action": "swap", "a": opponent.pk, "b": first.player_b_id, "reason": "api"},
        content_type="application/json",
    )
    assert answer.status_code == 409 and answer.json()["code"] == "needs-confirmation"
    assert answer.json()["warnings"] == ["rematch", "score-groups"]
    player = regs[0].player.user
    m1.refresh_from_db()
    services.report_result(
        match=m1, by_user=m1.player_a.player.user, payload={"games": [{"outcome": "a"}]}
    )
    answer = client.post(url, {"action": "undo", "reason": "api"}, content_type="application/json")
    assert answer.status_code == 409 and answer.json()["code"] == "round-has-results"
    league_services.drop(registration=regs[1], by_user=staff)
    undo = reverse("api:api-undo-drop", args=[regs[1].pk])
    assert client.post(undo, {"reason": ""}, content_type="application/json").json()["code"] == (
        "reason-required"
    )
    assert (
        client.post(undo, {"reason": "mistake"}, content_type="application/json").status_code == 200
    )
    log = client.get(reverse("api:api-event-log", args=[event.pk]), {"kind": "drop_undone"}).json()
    assert [e["reason"] for e in log] == ["mistake"]
    client.force_login(player)
    assert client.get(reverse("api:api-event-log", args=[event.pk])).status_code == 403
    answer = client.post(url, {"action": "undo", "reason": "x"}, content_type="application/json")
    assert answer.status_code == 403
    assert Match.objects.filter(round=round2).exists()
