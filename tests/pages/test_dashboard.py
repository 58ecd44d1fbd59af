"""The staff dashboard, end to end: pair → publish → players report → close."""

import pytest
from django.urls import reverse

from league.models import Registration
from matches.models import Match, Round, StandingsSnapshot

from .conftest import make_round, registration_of

pytestmark = pytest.mark.django_db


def dashboard_url(event):
    return reverse("event-dashboard", args=[event.pk])


def act(client, event, number, action):
    return client.post(
        reverse("round-action", args=[event.pk, number]), {"action": action}, follow=True
    )


def test_the_dashboard_is_for_staff_only(client, event, ash, organiser):
    url = dashboard_url(event)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(ash.user)
    assert client.get(url).status_code == 403
    assert client.post(reverse("event-pair-next-round", args=[event.pk])).status_code == 403
    client.force_login(organiser)
    assert client.get(url).status_code == 200


def test_staff_check_in_and_drop_players_and_see_the_waiting_list(
    client, make_event, make_player, register, organiser
):
    event, _ = make_event(capacity=2)
    first, second, third = (register(make_player(name), to=event) for name in ("Ann", "Ben", "Cy"))
    assert third.status == Registration.Status.WAITLISTED
    client.force_login(organiser)
    url = dashboard_url(event)
    page = client.get(url).content.decode()
    assert 'id="waiting-list"' in page and "Cy" in page

    response = client.post(
        reverse("registration-check-in", args=[event.pk, first.pk]), {"next": url}, follow=True
    )
    assert response.redirect_chain[-1][0] == url
    assert "Ann is checked in." in response.content.decode()
    first.refresh_from_db()
    assert first.status == Registration.Status.CHECKED_IN

    client.post(reverse("registration-drop", args=[event.pk, second.pk]), {"next": url})
    second.refresh_from_db()
    third.refresh_from_db()
    assert second.status == Registration.Status.WITHDRAWN
    assert third.status == Registration.Status.REGISTERED  # promoted from the waiting list


def test_players_cannot_check_in_someone_else(client, event, ash, misty):
    client.force_login(ash.user)
    registration = registration_of(misty, event)
    assert (
        client.post(reverse("registration-check-in", args=[event.pk, registration.pk])).status_code
        == 403
    )


def test_a_round_from_pairing_to_closing(
    client, event, organiser, make_player, register, django_capture_on_commit_callbacks
):
    players = [make_player(f"Player {letter}") for letter in "ABCD"]
    for player in players:
        register(player)
    client.force_login(organiser)

    response = client.post(reverse("event-pair-next-round", args=[event.pk]), follow=True)
    assert "Round 1 is paired" in response.content.decode()
    round_ = Round.objects.get(event=event, number=1)
    assert round_.status == Round.Status.PAIRED and round_.matches.count() == 2
    pairings = reverse("round-pairings", args=[event.pk, 1])
    assert "Not published yet" in client.get(pairings).content.decode()

    # A second click is refused while the round is open.
    response = client.post(reverse("event-pair-next-round", args=[event.pk]), follow=True)
    assert "is not closed yet" in response.content.decode()
    assert Round.objects.filter(event=event).count() == 1

    client.force_login(players[0].user)
    assert client.get(pairings).status_code == 404

    client.force_login(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        response = act(client, event, 1, "publish")
    assert "pairings published" in response.content.decode()
    response = act(client, event, 1, "start-clock")
    assert "the clock is running" in response.content.decode()
    round_.refresh_from_db()
    assert round_.status == Round.Status.RUNNING and round_.ends_at is not None

    response = act(client, event, 1, "close")
    assert "Results are missing at table(s) 1, 2" in response.content.decode()
    page = client.get(dashboard_url(event)).content.decode()
    assert "<strong>0</strong> of 2 results in" in page and "2 missing" in page

    for match in round_.matches.select_related("player_a__player__user", "player_b__player__user"):
        client.force_login(match.player_a.player.user)
        assert client.get(pairings).status_code == 200
        client.post(reverse("match-report", args=[match.pk]), {"mode": "quick", "outcome": "won"})
        client.force_login(match.player_b.player.user)
        response = client.post(
            reverse("match-report", args=[match.pk]),
            {"mode": "quick", "outcome": "lost"},
            follow=True,
        )
        assert "Both reports agree" in response.content.decode()
        match.refresh_from_db()
        assert match.status == Match.Status.FINAL and match.result == Match.Result.A

    client.force_login(organiser)
    assert "<strong>2</strong> of 2 results in" in client.get(dashboard_url(event)).content.decode()
    with django_capture_on_commit_callbacks(execute=True):
        response = act(client, event, 1, "close")
    assert "Round 1 is closed." in response.content.decode()
    round_.refresh_from_db()
    assert round_.status == Round.Status.CLOSED
    assert StandingsSnapshot.objects.filter(event=event, round_number=1, published=True).exists()

    client.logout()
    standings = client.get(reverse("event-standings", args=[event.pk])).content.decode()
    assert all(p.name in standings for p in players)
    assert "1-0-0" in standings and "0-1-0" in standings

    client.force_login(organiser)
    response = client.post(reverse("event-pair-next-round", args=[event.pk]), follow=True)
    assert "Round 2 is paired" in response.content.decode()
    page = client.get(reverse("round-pairings", args=[event.pk, 2])).content.decode()
    assert '<span class="pts">(3)</span>' in page and '<span class="pts">(0)</span>' in page


def test_disputed_matches_are_listed_on_the_dashboard(client, event, ash, misty, organiser):
    round_ = make_round(event, [(registration_of(ash, event), registration_of(misty, event))])
    match = round_.matches.get()
    for player in (ash, misty):
        client.force_login(player.user)
        client.post(reverse("match-report", args=[match.pk]), {"mode": "quick", "outcome": "won"})
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED

    client.force_login(organiser)
    page = client.get(dashboard_url(event)).content.decode()
    assert 'id="disputed"' in page and reverse("match-detail", args=[match.pk]) in page


def test_round_actions_are_for_staff_only(client, event, ash, misty):
    make_round(
        event, [(registration_of(ash, event), registration_of(misty, event))], status="paired"
    )
    client.force_login(ash.user)
    response = client.post(reverse("round-action", args=[event.pk, 1]), {"action": "publish"})
    assert response.status_code == 403
    assert Round.objects.get(event=event).status == Round.Status.PAIRED


def test_an_unknown_round_action_is_a_bad_request(client, event, ash, misty, organiser):
    make_round(event, [(registration_of(ash, event), registration_of(misty, event))])
    client.force_login(organiser)
    response = client.post(reverse("round-action", args=[event.pk, 1]), {"action": "explode"})
    assert response.status_code == 400
