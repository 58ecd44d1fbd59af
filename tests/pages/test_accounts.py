"""A player's own pages: sign-up, profile, "My events" and the "your match" card."""

from datetime import date, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.template import engines
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from league.models import Event, EventPlacement, Player, Registration, Season
from matches.models import Match, Round

from .conftest import make_round, registration_of

pytestmark = pytest.mark.django_db

PASSWORD = "Squirtle-squad-77"


def page_of(response) -> str:
    return response.content.decode()


def finish(match: Match, result: str, a_wins: int = 1, b_wins: int = 0) -> None:
    Match.objects.filter(pk=match.pk).update(
        status=Match.Status.FINAL, result=result, a_game_wins=a_wins, b_game_wins=b_wins
    )


@pytest.fixture
def current_season(league):
    """A season running today (the pages' default season is an old one)."""
    today = timezone.localdate()
    return Season.objects.create(
        league=league,
        name="This season",
        starts_on=today - timedelta(days=30),
        ends_on=today + timedelta(days=300),
        junior_from_year=2015,
        senior_from_year=2011,
    )


# --- sign-up and profile ---------------------------------------------------------------


def test_a_newcomer_signs_up_fills_the_profile_registers_and_sees_it_in_my_events(
    client, event, current_season
):
    event_url = reverse("event-detail", args=[event.pk])
    signup_page = page_of(client.get(f"{reverse('signup')}?next={event_url}"))
    for field in ("username", "email", "password1", "password2"):
        assert f'<label for="id_{field}"' in signup_page
    assert f'name="next" value="{event_url}"' in signup_page

    response = client.post(
        reverse("signup"),
        {"username": "dawn", "email": "dawn@example.test", "password1": PASSWORD,
         "password2": PASSWORD, "next": event_url},
    )  # fmt: skip

    user = get_user_model().objects.get(username="dawn")
    assert user.email == "dawn@example.test" and user.has_usable_password()
    assert response.status_code == 302
    profile_url = response["Location"]
    assert profile_url.startswith(reverse("profile")) and "next=" in profile_url
    profile_page = client.get(profile_url)  # signed in by the sign-up
    assert profile_page.status_code == 200
    page = page_of(profile_page)
    assert "Step 2 of 2" in page and 'value="dawn@example.test"' in page
    assert f'name="next" value="{event_url}"' in page
    assert reverse("notification-preferences") in page

    response = client.post(
        reverse("profile"),
        {"name": "Dawn Berlitz", "player_id": "2210987", "birth_date": "1995-03-04",
         "email": "dawn@example.test", "next": event_url},
    )  # fmt: skip

    assert response.status_code == 302 and response["Location"] == event_url
    player = Player.objects.get(user=user)
    assert (player.name, player.player_id, player.birth_date) == (
        "Dawn Berlitz", "2210987", date(1995, 3, 4)
    )  # fmt: skip

    client.post(reverse("event-register", args=[event.pk]))
    assert registration_of(player, event).status == Registration.Status.REGISTERED

    page = page_of(client.get(reverse("my-events")))
    assert "Your player profile is ready" in page  # the messages of the steps before
    assert f"You are registered for {event.name}." in page
    assert event.name in page and reverse("event-detail", args=[event.pk]) in page
    upcoming = page[page.index("<h2>Upcoming</h2>") : page.index("<h2>Past events</h2>")]
    assert event.name in upcoming
    assert '<span class="registration-status">Registered</span> (Masters)' in upcoming
    assert "not submitted" in upcoming and reverse("deck-submit", args=[event.pk]) in upcoming

    page = page_of(client.get(reverse("profile")))
    assert '<strong class="division">Masters</strong> in Pallet Town League, This season' in page


def test_sign_up_errors_keep_the_input_and_an_outside_next_is_ignored(client, db):
    response = client.post(
        reverse("signup"),
        {"username": "brock", "email": "brock@example.test", "password1": PASSWORD,
         "password2": "something-else-1", "next": "https://evil.example/"},
    )  # fmt: skip
    assert response.status_code == 200
    page = page_of(response)
    assert 'value="brock"' in page and 'value="brock@example.test"' in page
    assert 'aria-invalid="true"' in page and "evil.example" not in page
    assert not get_user_model().objects.filter(username="brock").exists()

    response = client.post(
        reverse("signup"),
        {"username": "brock", "email": "brock@example.test", "password1": PASSWORD,
         "password2": PASSWORD, "next": "https://evil.example/"},
    )  # fmt: skip
    assert response["Location"] == reverse("profile")


def test_a_taken_player_id_is_a_clear_error_and_the_form_keeps_what_was_typed(
    client, make_player, make_user
):
    make_player("Gary Oak")  # holds some ID
    taken = Player.objects.get(name="Gary Oak").player_id
    user = make_user("copycat")
    client.force_login(user)

    response = client.post(
        reverse("profile"),
        {"name": "Copy Cat", "player_id": taken, "birth_date": "2012-07-08",
         "email": "cat@example.test"},
    )  # fmt: skip

    assert response.status_code == 200
    page = page_of(response)
    assert f"Player ID {taken} is already taken by another player." in page
    assert "ask an organiser to link that player to your account" in page
    assert "Another player already has this ID." in page  # next to the field
    assert (
        'aria-invalid="true"' in page
        and 'aria-describedby="id_player_id_helptext id_player_id_error"' in page
    )
    for typed in (
        'value="Copy Cat"',
        f'value="{taken}"',
        'value="2012-07-08"',
        'value="cat@example.test"',
    ):
        assert typed in page
    assert not Player.objects.filter(user=user).exists()


def test_editing_the_profile_moves_upcoming_registrations_to_the_new_division(
    client, make_player, make_event, current_season
):
    player = make_player("Max Young", birth_year=1990)
    upcoming, _ = make_event(season=current_season)
    Registration.objects.create(event=upcoming, player=player, division="masters")
    played, _ = make_event(season=current_season, status=Event.Status.FINISHED)
    Registration.objects.create(event=played, player=player, division="masters")
    client.force_login(player.user)
    page = page_of(client.get(reverse("profile")))
    assert f'value="{player.player_id}"' in page and 'value="1990-05-01"' in page
    assert "Your profile" in page and "Step 2" not in page

    response = client.post(
        reverse("profile"),
        {"name": "Max", "player_id": player.player_id, "birth_date": "2013-05-01", "email": ""},
        follow=True,
    )

    assert "Your profile is saved." in page_of(response)
    assert '<strong class="division">Senior</strong>' in page_of(response)
    player.refresh_from_db()
    assert player.name == "Max" and player.birth_date == date(2013, 5, 1)
    assert registration_of(player, upcoming).division == "senior"
    assert registration_of(player, played).division == "masters"  # played as Masters


def test_account_pages_need_a_login_and_signup_sends_a_signed_in_user_on(client, make_user):
    for name in ("profile", "my-events"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    client.force_login(make_user())
    assert client.get(reverse("signup"))["Location"] == reverse("profile")


def test_my_events_without_a_profile_asks_for_one(client, make_user):
    client.force_login(make_user())
    page = page_of(client.get(reverse("my-events")))
    assert "You have no player profile yet" in page and reverse("profile") in page


def test_the_header_links_and_skip_link(client, make_player):
    page = page_of(client.get(reverse("home")))
    assert '<a class="skip-link" href="#content">' in page and '<main id="content"' in page
    assert reverse("signup") in page and reverse("login") in page
    assert reverse("my-events") not in page
    client.force_login(make_player().user)
    page = page_of(client.get(reverse("my-events")))
    assert f'<a href="{reverse("my-events")}" aria-current="page">My events</a>' in page
    assert f'href="{reverse("profile")}"' in page and reverse("signup") not in page


def test_the_login_page_has_labels_and_offers_sign_up_with_next(client, db):
    page = page_of(client.get(f"{reverse('login')}?next=/me/"))
    assert '<label for="id_username"' in page and '<label for="id_password"' in page
    assert f'href="{reverse("signup")}?next=/me/"' in page


# --- my events -------------------------------------------------------------------------


@pytest.fixture
def history(make_event, make_player, ash):
    """Ash's events: a finished one (2 rounds, placed 2nd), a running one (round 2 on the
    clock), an upcoming one, and a draft that stays hidden."""
    misty, brock, gary = (make_player(name) for name in ("Misty", "Brock", "Gary"))

    finished, _ = make_event(name="Autumn Cup", status=Event.Status.FINISHED)
    a, m, b = (Registration.objects.create(event=finished, player=p, division="masters")
               for p in (ash, misty, brock))  # fmt: skip
    r1 = make_round(finished, [(a, m), (b, None)], number=1, status="closed")
    finish(r1.matches.get(table=1), "a", 1, 0)
    r2 = make_round(finished, [(b, a), (m, None)], number=2, status="closed")
    finish(r2.matches.get(table=1), "a", 1, 0)  # Brock beat Ash
    EventPlacement.objects.create(
        event=finished, registration=a, division="masters", place=2, points=8
    )
    a.deck_submissions.create(version=1, text="x", legal=True, verdict={}, card_count=60)

    running, _ = make_event(name="Winter Challenge", status=Event.Status.RUNNING)
    a2, g2 = (Registration.objects.create(event=running, player=p, division="masters")
              for p in (ash, gary))  # fmt: skip
    first = make_round(running, [(g2, a2)], number=1, status="closed")
    finish(first.matches.get(), "tie", 0, 0)
    second = make_round(running, [(a2, g2)], number=2, status=Round.Status.RUNNING)
    Round.objects.filter(pk=second.pk).update(ends_at=timezone.now() + timedelta(minutes=20))
    make_round(running, [(g2, a2)], number=3, status=Round.Status.PAIRED)  # not public yet
    a2.deck_submissions.create(version=1, text="x", legal=False, verdict={}, card_count=59)
    a2.deck_submissions.create(version=2, text="x", legal=True, verdict={}, card_count=60)

    upcoming, _ = make_event(name="Spring Open")
    Registration.objects.create(event=upcoming, player=ash, division="masters")
    draft, _ = make_event(name="Secret Draft", status=Event.Status.DRAFT)
    Registration.objects.create(event=draft, player=ash, division="masters")
    return {"finished": finished, "running": running, "upcoming": upcoming,
            "running_match": second.matches.get()}  # fmt: skip


def section(page: str, start: str, end: str | None = None) -> str:
    tail = page[page.index(start) :]
    return tail[: tail.index(end)] if end else tail


def test_my_events_shows_running_upcoming_and_past_with_places_and_records(client, ash, history):
    client.force_login(ash.user)
    page = page_of(client.get(reverse("my-events")))

    assert "Secret Draft" not in page
    running = section(page, "<h2>Playing now</h2>", "<h2>Upcoming</h2>")
    assert "Winter Challenge" in running and "Autumn Cup" not in running
    assert "legal" in running and "(version 2, 60 cards)" in running
    match = history["running_match"]
    assert 'class="card my-match"' in running
    assert "Your match · round 2" in running and "<strong>1</strong>" in running
    assert '<strong class="my-opponent">Gary</strong>' in running
    assert 'role="timer" data-remaining="' in running
    assert f"{reverse('match-detail', args=[match.pk])}#report" in running
    assert "Tie 0–0" in running  # round 1's record

    upcoming = section(page, "<h2>Upcoming</h2>", "<h2>Past events</h2>")
    assert "Spring Open" in upcoming and "not submitted" in upcoming

    past = section(page, "<h2>Past events</h2>")
    assert "Autumn Cup" in past
    assert "<strong>2nd place</strong> (Masters) · 8 league points" in past
    rows = [row for row in past.split("<tr>")[2:]]
    assert "Misty" in rows[0] and "Won 1–0" in rows[0]
    assert "Brock" in rows[1] and "Lost 0–1" in rows[1]
    assert "Record 1–1–0" in past
    assert reverse("event-deck-detail", args=[history["finished"].pk, ash.registrations.get(
        event=history["finished"]).pk]) in past  # fmt: skip


def test_the_event_page_shows_your_match_in_the_latest_published_round(
    client, ash, history, make_player
):
    """The event page's card, from the page's own registration and latest published round
    (round 3 is paired, not published): round 2's match; none for a player who is not in
    the event, nor for anyone in an event with nothing published."""
    url = reverse("event-detail", args=[history["running"].pk])
    client.force_login(ash.user)
    page = page_of(client.get(url))
    assert "Your match · round 2" in page and '<strong class="my-opponent">Gary</strong>' in page
    assert f"{reverse('match-detail', args=[history['running_match'].pk])}#report" in page

    client.force_login(make_player().user)
    assert 'class="card my-match"' not in page_of(client.get(url))
    client.force_login(ash.user)
    upcoming = page_of(client.get(reverse("event-detail", args=[history["upcoming"].pk])))
    assert 'class="card my-match"' not in upcoming


def test_my_events_takes_a_fixed_number_of_queries(
    client, ash, history, make_event, make_player, django_assert_max_num_queries
):
    # More finished events with rounds must not add queries.
    for n in range(4):
        extra, _ = make_event(name=f"Extra {n}", status=Event.Status.FINISHED)
        opponent = make_player()
        mine = Registration.objects.create(event=extra, player=ash, division="masters")
        theirs = Registration.objects.create(event=extra, player=opponent, division="masters")
        for number in (1, 2, 3):
            finish(make_round(extra, [(mine, theirs)], number=number, status="closed")
                   .matches.get(), "b", 0, 1)  # fmt: skip
        EventPlacement.objects.create(
            event=extra, registration=mine, division="masters", place=2, points=8
        )
    client.force_login(ash.user)
    # session, user, player, unread badge, registrations, matches, latest rounds
    with django_assert_max_num_queries(7):
        response = client.get(reverse("my-events"))
    assert page_of(response).count("Lost 0–1") == 13  # and one in the Autumn Cup


# --- the "your match" card -------------------------------------------------------------


def render_my_match(event, user, *, with_request: bool = True) -> str:
    template = engines["django"].from_string("{% load match_tags %}{% my_match event %}")
    if not with_request:  # no context processors: only the card's own queries
        return template.render({"event": event, "user": user})
    request = RequestFactory().get("/")
    request.user = user
    return template.render({"event": event}, request)


def test_the_my_match_card_in_a_published_round(event, ash, misty):
    a, b = registration_of(ash, event), registration_of(misty, event)
    round_ = make_round(event, [(b, a)], number=1, status=Round.Status.PUBLISHED)
    match = round_.matches.get()

    html = render_my_match(event, ash.user)

    assert "Your match · round 1" in html
    assert "Table <strong>1</strong>" in html
    assert '<strong class="my-opponent">Misty Waterflower</strong>' in html
    assert "The clock has not started yet." in html
    assert "No result yet" in html
    assert f'href="{reverse("match-detail", args=[match.pk])}#report">Report the result' in html

    Round.objects.filter(pk=round_.pk).update(
        status=Round.Status.RUNNING, ends_at=timezone.now() + timedelta(minutes=30)
    )
    html = render_my_match(event, ash.user)
    assert 'role="timer" data-remaining="' in html and "left" in html
    assert any(f">{m}:" in html for m in (29, 30))
    assert '<span class="clock-running">' in html and '<span class="clock-up" hidden>' in html

    # Time called: the card says "Clock: Time!", not "Clock: Time! left".
    Round.objects.filter(pk=round_.pk).update(ends_at=timezone.now() - timedelta(minutes=1))
    html = render_my_match(event, ash.user)
    assert '<span class="clock-running" hidden>' in html
    assert '<span class="clock-up">Clock: <strong>Time!</strong></span>' in html

    finish(match, "b", 0, 1)  # Ash is side B
    html = render_my_match(event, ash.user)
    assert "Won 1–0" in html and "Report the result" not in html


def test_the_my_match_card_is_empty_for_unpublished_rounds_strangers_and_visitors(
    event, ash, misty, make_player
):
    from django.contrib.auth.models import AnonymousUser

    a, b = registration_of(ash, event), registration_of(misty, event)
    make_round(event, [(a, b)], number=1, status=Round.Status.PAIRED)
    assert "my-match" not in render_my_match(event, ash.user)
    Round.objects.filter(event=event).update(status=Round.Status.PUBLISHED)
    assert "my-match" in render_my_match(event, ash.user)
    assert "my-match" not in render_my_match(event, make_player().user)
    assert "my-match" not in render_my_match(event, AnonymousUser())


def test_the_my_match_card_shows_a_bye(event, ash):
    make_round(event, [(registration_of(ash, event), None)], number=1)
    html = render_my_match(event, ash.user)
    assert "You have a <strong>bye</strong> this round" in html


def test_the_my_match_card_takes_one_query(event, ash, misty, django_assert_num_queries):
    make_round(event, [(registration_of(ash, event), registration_of(misty, event))])
    with django_assert_num_queries(1):
        assert "my-match" in render_my_match(event, ash.user, with_request=False)


def test_the_e_mail_is_optional_at_sign_up_as_on_the_profile_and_step_2_has_no_tokens(
    client, current_season
):
    from league.forms import EMAIL_HELP

    response = client.post(
        reverse("signup"),
        {"username": "iris", "email": "", "password1": PASSWORD, "password2": PASSWORD},
    )
    assert response.status_code == 302
    assert get_user_model().objects.get(username="iris").email == ""
    step_2 = client.get(response["Location"]).content.decode()
    assert "Step 2 of 2" in step_2
    assert 'id="api-tokens"' not in step_2 and "Create a token" not in step_2
    client.logout()
    sign_up = client.get(reverse("signup")).content.decode()
    assert (
        sign_up.count(EMAIL_HELP.split(";")[0]) == 1 and step_2.count(EMAIL_HELP.split(";")[0]) == 1
    )
