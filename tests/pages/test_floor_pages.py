"""The floor pages: "call a judge" on the match page, the judges' queue, a table's judge
tools (extension, penalty, history), deck checks and the player's own penalties."""

import re

import pytest
from django.urls import reverse

from floor.models import DeckCheck, JudgeCall, Penalty
from league import services as league_services
from matches.models import Match, Round

from .conftest import make_round, registration_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def match(event, ash, misty):
    round_ = make_round(event, [(registration_of(ash, event), registration_of(misty, event))])
    return round_.matches.get()


def test_a_player_calls_a_judge_and_the_judges_queue_shows_it(client, match, ash, misty, organiser):
    client.force_login(ash.user)
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert 'id="call-judge"' in page
    response = client.post(
        reverse("floor-call-judge", args=[match.pk]), {"reason": "Ruling on Iono"}, follow=True
    )
    after = response.content.decode()
    assert "Your call is with the judges" in after and "Waiting for a judge" in after
    assert 'id="judge-reason"' not in after and "on the way" not in after
    call = JudgeCall.objects.get()
    assert (call.match, call.reason, call.status) == (match, "Ruling on Iono", "open")
    # Players do not see the queue.
    assert client.get(reverse("floor-queue", args=[match.round.event_id])).status_code == 403
    client.force_login(organiser)
    queue = client.get(reverse("floor-queue", args=[match.round.event_id])).content.decode()
    assert "Table 1" in queue and "Ruling on Iono" in queue and "Nobody yet" in queue
    client.post(reverse("floor-call-take", args=[call.pk]))
    queue = client.get(reverse("floor-queue", args=[match.round.event_id])).content.decode()
    assert re.search(r'class="taken-by">oak<', queue)
    client.force_login(ash.user)
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert "oak is on the way" in page and 'id="judge-reason"' not in page
    client.force_login(organiser)
    client.post(reverse("floor-call-close", args=[call.pk]), {"note": "explained Iono"})
    call.refresh_from_db()
    assert (call.status, call.note) == ("closed", "explained Iono")
    queue = client.get(reverse("floor-queue", args=[match.round.event_id])).content.decode()
    assert "No open calls" in queue and "explained Iono" in queue


def test_the_call_form_is_only_for_the_tables_players(client, match, make_player, register):
    outsider = make_player("Brock Harrison")
    register(outsider)
    client.force_login(outsider.user)
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert 'id="call-judge"' not in page
    response = client.post(reverse("floor-call-judge", args=[match.pk]), {"reason": "hi"})
    assert response.status_code == 403
    assert not JudgeCall.objects.exists()


def test_an_extension_shows_on_the_players_card_the_pairings_and_the_projector(
    client, match, ash, organiser
):
    Round.objects.filter(pk=match.round_id).update(status=Round.Status.RUNNING)
    from django.utils import timezone

    Round.objects.filter(pk=match.round_id).update(
        ends_at=timezone.now() + timezone.timedelta(minutes=10)
    )
    client.force_login(organiser)
    response = client.post(reverse("floor-match", args=[match.pk]),
                           {"action": "extend", "minutes": "5", "reason": "deck check"}, follow=True)  # fmt: skip
    assert "+5 min" in response.content.decode()
    assert Match.objects.get(pk=match.pk).extra_minutes == 5
    client.force_login(ash.user)
    event_page = client.get(reverse("event-detail", args=[match.round.event_id])).content.decode()
    assert "time extension of <strong>+5 min</strong>" in event_page
    remaining = int(re.search(r'data-remaining="(\d+)"', event_page).group(1))
    assert 14 * 60 < remaining <= 15 * 60
    pairings = client.get(
        reverse("round-pairings", args=[match.round.event_id, 1])
    ).content.decode()
    assert "+5 min" in pairings
    projector = client.get(
        reverse("round-projector", args=[match.round.event_id, 1])
    ).content.decode()
    assert "+5 min" in projector


def test_a_penalty_from_the_table_page_with_the_history(client, match, ash, organiser):
    client.force_login(organiser)
    url = reverse("floor-match", args=[match.pk])
    client.post(url, {"action": "penalty", "side": "a", "infraction": "procedural-minor",
                      "penalty": "prize", "prizes": "2", "note": "looked at prizes"})  # fmt: skip
    response = client.post(url, {"action": "penalty", "side": "a", "infraction": "procedural-minor",
                                 "penalty": "game-loss", "note": "again"}, follow=True)  # fmt: skip
    page = response.content.decode()
    assert "The result was updated" in page
    assert "Prize penalty (2 Prizes)" in page and page.count(">repeat<") == 2
    match.refresh_from_db()
    assert match.result == "b"
    assert Penalty.objects.count() == 2
    # The player sees their own.
    client.force_login(ash.user)
    mine = client.get(reverse("my-penalties")).content.decode()
    assert "Prize penalty (2 Prizes)" in mine and "Game loss" in mine
    assert client.get(url).status_code == 403


def test_a_bad_penalty_is_shown_on_the_form(client, match, organiser):
    client.force_login(organiser)
    response = client.post(reverse("floor-match", args=[match.pk]),
                           {"action": "penalty", "side": "b", "infraction": "tardiness", "penalty": "prize"})  # fmt: skip
    assert response.status_code == 400
    assert "1 to 6 Prize cards" in response.content.decode()
    assert not Penalty.objects.exists()


def test_a_deck_check_shows_the_sheet_order_and_a_mismatch_leads_to_the_penalty_form(
    client, match, ash, organiser, deck_text
):
    league_services.submit_deck(registration=registration_of(ash, match.round.event), text=deck_text,
                                by_user=organiser)  # fmt: skip
    client.force_login(organiser)
    url = reverse("floor-deck-check", args=[match.pk])
    page = client.get(url).content.decode()
    ash_sheet = page[page.index('data-side="a"') : page.index('data-side="b"')]
    headings = re.findall(r"<h3>(\w+[é]?\w*)", ash_sheet)
    assert headings == [h for h in ("Pokémon", "Trainer", "Energy") if h in headings] and headings
    assert "No registered list" in page[page.index('data-side="b"') :]
    response = client.post(url, {"side": "a", "outcome": "mismatch", "note": "3 Iono, list says 2"})
    assert response.status_code == 302
    target = response["Location"]
    assert "infraction=deck-decklist" in target and "side=a" in target
    form = client.get(target).content.decode()
    assert '<option value="deck-decklist" selected>' in form
    assert DeckCheck.objects.get().outcome == "mismatch"


def test_random_deck_check_tables(client, match, organiser):
    client.force_login(organiser)
    response = client.post(
        reverse("floor-pick-tables", args=[match.round.event_id]), {"count": "1"}
    )
    assert response["Location"] == reverse("floor-deck-check", args=[match.pk])


def test_a_best_of_three_game_loss_waits_on_the_match_page(
    client, make_event, make_player, register, organiser
):
    event, _ = make_event(best_of=3)
    a, b = make_player("Brock Harrison"), make_player("Gary Oak")
    round_ = make_round(event, [(register(a, to=event), register(b, to=event))])
    match = round_.matches.get()
    client.force_login(organiser)
    client.post(reverse("floor-match", args=[match.pk]),
                {"action": "penalty", "side": "b", "infraction": "tardiness", "penalty": "game-loss"})  # fmt: skip
    assert Match.objects.get(pk=match.pk).status == Match.Status.PENDING
    client.force_login(a.user)
    page = client.get(reverse("match-detail", args=[match.pk])).content.decode()
    assert "Gary Oak has a <strong>game loss</strong>" in page
