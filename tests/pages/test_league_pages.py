"""Home, league and event pages; registering and dropping."""

import pytest
from django.urls import reverse

from league.models import Event, Registration, SeasonStanding

from .conftest import make_round, registration_of

pytestmark = pytest.mark.django_db


def login_url(next_url: str) -> str:
    return f"{reverse('login')}?next={next_url}"


def test_home_lists_leagues_with_their_open_and_running_events(client, league, make_event):
    open_, _ = make_event(name="Open Challenge")
    running, _ = make_event(name="Running Cup", status=Event.Status.RUNNING)
    make_event(name="Secret Draft", status=Event.Status.DRAFT)
    make_event(name="Old Finished", status=Event.Status.FINISHED)

    response = client.get(reverse("home"))

    assert response.status_code == 200
    page = response.content.decode()
    assert league.name in page and reverse("league-detail", args=[league.slug]) in page
    assert open_.name in page and running.name in page
    assert reverse("event-detail", args=[open_.pk]) in page
    assert "Secret Draft" not in page and "Old Finished" not in page


def test_league_detail_shows_seasons_events_and_the_leaderboard(
    client, league, season, event, make_player
):
    first, second = make_player("Brock Harrison"), make_player("Gary Oak")
    SeasonStanding.objects.create(
        season=season, player=first, rank=1, points=18, events_played=3, events_counted=2
    )
    SeasonStanding.objects.create(
        season=season, player=second, rank=2, points=11, events_played=2, events_counted=2
    )

    response = client.get(reverse("league-detail", args=[league.slug]))

    assert response.status_code == 200
    page = response.content.decode()
    assert season.name in page and event.name in page
    assert page.index("Brock Harrison") < page.index("Gary Oak")
    assert ">18<" in page and "of 3" in page


def test_league_detail_hides_drafts_except_from_staff(client, league, make_event, organiser):
    make_event(name="Secret Draft", status=Event.Status.DRAFT)
    url = reverse("league-detail", args=[league.slug])
    assert "Secret Draft" not in client.get(url).content.decode()
    client.force_login(organiser)
    assert "Secret Draft" in client.get(url).content.decode()


def test_unknown_league_is_404(client, db):
    assert client.get(reverse("league-detail", args=["nope"])).status_code == 404


def test_event_detail_for_anonymous_shows_the_facts_and_a_login_link(client, event):
    response = client.get(reverse("event-detail", args=[event.pk]))

    assert response.status_code == 200
    page = response.content.decode()
    assert "Best of 1" in page and "50 minutes" in page and "Standard" in page
    assert "All divisions together" in page
    assert login_url(reverse("event-detail", args=[event.pk])) in page
    assert reverse("event-register", args=[event.pk]) not in page
    assert reverse("event-dashboard", args=[event.pk]) not in page


def test_a_player_registers_then_sees_their_status_and_deck_link(client, event, make_player):
    player = make_player("Dawn Berlitz")
    client.force_login(player.user)
    url = reverse("event-detail", args=[event.pk])
    assert reverse("event-register", args=[event.pk]) in client.get(url).content.decode()

    response = client.post(reverse("event-register", args=[event.pk]), follow=True)

    assert response.redirect_chain[-1][0] == url
    page = response.content.decode()
    assert f"You are registered for {event.name}." in page
    assert 'class="registration-status">Registered<' in page
    assert reverse("deck-submit", args=[event.pk]) in page
    assert reverse("event-register", args=[event.pk]) not in page
    assert registration_of(player, event).status == Registration.Status.REGISTERED


def test_registering_twice_shows_the_service_message(client, event, ash):
    client.force_login(ash.user)
    response = client.post(reverse("event-register", args=[event.pk]), follow=True)
    assert "is already registered" in response.content.decode()


def test_a_full_event_puts_the_player_on_the_waiting_list(
    client, make_event, make_player, register
):
    full, _ = make_event(capacity=1)
    register(make_player(), to=full)
    player = make_player()
    client.force_login(player.user)

    response = client.post(reverse("event-register", args=[full.pk]), follow=True)

    assert "waiting list" in response.content.decode()
    assert registration_of(player, full).status == Registration.Status.WAITLISTED


def test_register_without_a_player_profile_says_so(client, event, make_user):
    client.force_login(make_user())
    response = client.post(reverse("event-register", args=[event.pk]), follow=True)
    assert "no player profile" in response.content.decode()
    assert not Registration.objects.filter(event=event).exists()


def test_register_needs_a_login(client, event):
    url = reverse("event-register", args=[event.pk])
    response = client.post(url)
    assert response.status_code == 302 and response["Location"] == login_url(url)


def test_a_player_drops_before_round_one_and_is_withdrawn(client, event, ash):
    registration = registration_of(ash, event)
    client.force_login(ash.user)

    response = client.post(
        reverse("registration-drop", args=[event.pk, registration.pk]), follow=True
    )

    assert "withdrew" in response.content.decode()
    registration.refresh_from_db()
    assert registration.status == Registration.Status.WITHDRAWN


def test_a_player_drops_after_a_round_and_stays_dropped(client, event, ash, misty):
    a, b = registration_of(ash, event), registration_of(misty, event)
    make_round(event, [(a, b)], status="closed")
    client.force_login(ash.user)

    response = client.post(reverse("registration-drop", args=[event.pk, a.pk]), follow=True)

    assert "dropped after round 1" in response.content.decode()
    a.refresh_from_db()
    assert a.status == Registration.Status.DROPPED and a.dropped_after_round == 1


def test_a_player_cannot_drop_someone_else(client, event, ash, misty):
    client.force_login(ash.user)
    registration = registration_of(misty, event)
    response = client.post(reverse("registration-drop", args=[event.pk, registration.pk]))
    assert response.status_code == 403
    registration.refresh_from_db()
    assert registration.status == Registration.Status.REGISTERED


def test_a_draft_event_is_404_except_for_staff(client, make_event, organiser, make_player):
    draft, _ = make_event(status=Event.Status.DRAFT)
    url = reverse("event-detail", args=[draft.pk])
    assert client.get(url).status_code == 404
    client.force_login(make_player().user)
    assert client.get(url).status_code == 404
    client.force_login(organiser)
    assert client.get(url).status_code == 200


def test_staff_see_links_to_the_dashboard_and_the_decklists(client, event, organiser):
    client.force_login(organiser)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert reverse("event-dashboard", args=[event.pk]) in page
    assert reverse("event-decks", args=[event.pk]) in page


def test_event_detail_lists_published_rounds_only_and_the_players_table(
    client, event, ash, misty, organiser
):
    a, b = registration_of(ash, event), registration_of(misty, event)
    make_round(event, [(a, b)], number=1, status="closed")
    make_round(event, [(b, a)], number=2, status="paired")
    url = reverse("event-detail", args=[event.pk])

    client.force_login(ash.user)
    page = client.get(url).content.decode()
    assert reverse("round-pairings", args=[event.pk, 1]) in page
    assert reverse("round-pairings", args=[event.pk, 2]) not in page
    assert "my-match" in page and "Misty Waterflower" in page  # the "your match" card

    client.force_login(organiser)
    assert reverse("round-pairings", args=[event.pk, 2]) in client.get(url).content.decode()


def test_the_site_icon_is_served(client):
    ico = client.get("/favicon.ico")
    assert ico.status_code == 200 and ico["Content-Type"] == "image/x-icon"
    assert ico.content[:4] == b"\x00\x00\x01\x00" and "max-age" in ico["Cache-Control"]
    svg = client.get("/favicon.svg")
    assert svg.status_code == 200 and svg.content.startswith(b"<svg")
    assert 'rel="icon"' in client.get("/").content.decode()
