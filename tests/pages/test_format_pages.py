"""Format rules on the pages: the rules and play notes on the event and deck pages, the
"won both ways" question on the report form, the 1996 sudden death, the event form's
sudden-death checks, and the presets (with today's formats unchanged) in the database."""

import datetime as dt
from pathlib import Path

import pytest
from django.urls import reverse
from django.utils import timezone

from decks.models import CardSet, Format
from decks.services import check_decklist
from league.models import Event
from matches.models import Match
from rules.cards import load_index
from rules.formats import BASIC_1999, CURRENT, ORIGINAL_1996, PRESETS

from .conftest import make_round, registration_of
from .test_match_pages import page_of, report

pytestmark = pytest.mark.django_db
DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "pokemon-tcg"


def test_todays_formats_keep_todays_rules_and_the_presets_are_there():
    for key in ("standard", "expanded", "unlimited"):
        assert Format.objects.get(key=key).rules() == CURRENT
    for key, rules in PRESETS.items():
        assert Format.objects.get(key=key).rules() == rules
    names = set(Format.objects.values_list("name", flat=True))
    assert {"Original rules (1996)", "Advanced rules (1999)", "2011 rules",
            "Basic game (1999, 30 cards, 3 Prizes)"} <= names  # fmt: skip


def test_a_preset_takes_the_sets_released_by_its_date():
    basic = Format.objects.get(key="basic-1999")
    assert basic.to_spec().allowed_sets == {"(none released)"}  # no set imported: closed
    for set_id, released in [("base1", dt.date(1999, 1, 9)), ("base3", dt.date(1999, 10, 10)),
                             ("base4", dt.date(2000, 2, 24))]:  # fmt: skip
        CardSet.objects.create(id=set_id, name=set_id, release_date=released)
    spec = basic.to_spec()
    assert spec.allowed_sets == {"base1", "base3"}
    assert spec.rules == BASIC_1999 and spec.basic_energy_types == {
        "Grass", "Fire", "Water", "Lightning", "Psychic", "Fighting"
    }  # fmt: skip
    assert Format.objects.get(key="original-1996").to_spec().allowed_sets == {"base1"}


@pytest.mark.skipif(not DATA.exists(), reason="needs ../shared/data/pokemon-tcg")
def test_the_deck_check_service_reads_the_formats_rules():
    for set_id, released in [("base1", dt.date(1999, 1, 9)), ("base2", dt.date(1999, 6, 16))]:
        CardSet.objects.create(id=set_id, name=set_id, release_date=released)
    thirty = "4 Pikachu BS 58\n2 Raichu BS 14\n4 Bill BS 91\n20 Lightning Energy BS 100"
    index = load_index(DATA)
    basic = check_decklist(text=thirty, fmt=Format.objects.get(key="basic-1999"), index=index)
    assert basic.legal, basic.errors
    standard = check_decklist(text=thirty, fmt=Format.objects.get(key="standard"), index=index)
    assert "deck-size" in {f.code for f in standard.errors}


def test_the_event_page_shows_the_formats_rules_and_play_notes(client, make_event):
    event, _ = make_event(format=Format.objects.get(key="basic-1999"))
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert 'id="format-rules"' in page
    assert "Decks of exactly 30 cards" in page and "3 Prize cards each" in page
    assert "30-card decks and 3 Prize cards each" in page  # a play note
    original, _ = make_event(
        format=Format.objects.get(key="original-1996"),
        sudden_death_style=Event.SuddenDeath.CONTINUE,
    )
    page = client.get(reverse("event-detail", args=[original.pk])).content.decode()
    assert "every Energy card is exempt except Double Colorless Energy" in page
    assert "at least one Basic Pokémon" not in page
    assert "sudden death, 1996 style: the game goes on." in page
    assert "if neither has a Pokémon to put in, the game is a draw." in page
    assert ORIGINAL_1996.play_notes[0].split(":")[0] in page


def test_an_events_sudden_death_is_said_once_and_never_contradicted(client, make_event):
    # The 2011 rulebook's note says "otherwise sudden death: a new game with 1 Prize card
    # each"; an event run with the 1996 game that goes on must not say both.
    event = make_event(
        format=Format.objects.get(key="rules-2011"), sudden_death_style=Event.SuddenDeath.CONTINUE
    )
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    rules_box = page[page.index('id="format-rules"') :].split("</section>")[0]
    assert "the game goes on" in rules_box and "a new game" not in rules_box
    assert "you are the victor." in rules_box  # the both-ways note, without its other half
    new_game = make_event(
        format=Format.objects.get(key="original-1996"),
        sudden_death_prizes=1,
        sudden_death_style=Event.SuddenDeath.NEW_GAME,
    )
    page = client.get(reverse("event-detail", args=[new_game.pk])).content.decode()
    rules_box = page[page.index('id="format-rules"') :].split("</section>")[0]
    assert "a new game with 1 Prize card each" in rules_box and "goes on" not in rules_box


def test_the_deck_page_shows_the_play_notes(client, make_event, make_player, register):
    event, _ = make_event(format=Format.objects.get(key="advanced-1999"))
    player = make_player("Brock Harrison")
    register(player, to=event)
    client.force_login(player.user)
    page = client.get(reverse("deck-submit", args=[event.pk])).content.decode()
    assert "How Advanced rules (1999) is played" in page
    assert "your opponent may draw up to 2 extra cards" in page


@pytest.fixture
def match(event, ash, misty):
    round_ = make_round(event, [(registration_of(ash, event), registration_of(misty, event))])
    return round_.matches.get()


def test_both_won_asks_how_many_ways_and_the_rule_decides(client, match, ash, misty):
    client.force_login(ash.user)
    first = page_of(client, match)
    assert 'name="ways" value="1"' in first  # "We both won at once" asks the next question
    page = page_of(client, match, "?sudden_death=1&ways=1")
    assert "How many ways did each of you win?" in page
    assert "If you win in both ways and your opponent wins in only one way, you win" in page
    assert 'value="won_both_ways"' in page and 'value="lost_both_ways"' in page
    report(client, match, {"mode": "quick", "sudden_death": "0", "outcome": "won_both_ways"})
    client.force_login(misty.user)
    report(client, match, {"mode": "quick", "outcome": "lost"})
    match.refresh_from_db()
    assert match.status == Match.Status.FINAL and match.result == Match.Result.A
    assert match.games.get().reason == "both_ways"
    assert "Ash Ketchum won (both won at once, Ash Ketchum in both ways)" in page_of(client, match)


def test_the_games_form_offers_won_both_ways_and_explains_it(client, bo3_event, organiser):
    _, match = bo3_event
    client.force_login(organiser)
    page = page_of(client, match)
    assert 'value="a_both_ways"' in page and "Both won at once? There are two ways" in page
    response = client.post(
        reverse("match-result", args=[match.pk]),
        {"game_1": "b_both_ways", "reason_1": "played", "game_2": "b", "reason_2": "played"},
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.result == "b" and match.b_game_wins == 2


@pytest.fixture
def bo3_event(make_event, make_player, register):
    event, _ = make_event(best_of=3)
    a, b = make_player("Brock Harrison"), make_player("Gary Oak")
    round_ = make_round(event, [(register(a, to=event), register(b, to=event))])
    return event, round_.matches.get()


def test_a_1996_sudden_death_ends_in_a_draw_from_the_phone_buttons(
    client, make_event, make_player, register
):
    event, _ = make_event(
        format=Format.objects.get(key="original-1996"),
        sudden_death_style=Event.SuddenDeath.CONTINUE,
    )
    a, b = make_player("Brock Harrison"), make_player("Gary Oak")
    match = make_round(event, [(register(a, to=event), register(b, to=event))]).matches.get()
    client.force_login(a.user)
    first = page_of(client, match)
    assert 'name="ways"' not in first  # 1996 has no "won both ways"
    page = page_of(client, match, "?sudden_death=1")
    assert "Sudden death, 1996 rules" in page and "the game is a draw" in page
    report(client, match, {"mode": "quick", "sudden_death": "1", "outcome": "draw"})
    client.force_login(b.user)
    report(client, match, {"mode": "quick", "sudden_death": "1", "outcome": "draw"})
    match.refresh_from_db()
    assert match.result == Match.Result.TIE
    page = page_of(client, match)
    assert "the game goes on" in page and "a draw" in page.lower()


def test_the_event_form_refuses_more_sudden_death_prizes_than_the_format_has(
    client, league, organiser, season
):
    client.force_login(organiser)
    starts = timezone.now() + dt.timedelta(days=7)
    data = {
        "name": "Starter Night", "format": Format.objects.get(key="basic-1999").pk,
        "starts_at": starts.strftime("%Y-%m-%dT%H:%M"), "best_of": 1, "round_minutes": 30,
        "division_mode": "combined", "sudden_death_prizes": 6, "status": "registration",
        "sudden_death_style": "new_game",
    }  # fmt: skip
    page = client.post(f"/leagues/{league.slug}/events/new/", data).content.decode()
    assert "played with 3 Prize cards" in page
    assert not Event.objects.filter(name="Starter Night").exists()
    data["sudden_death_prizes"], data["sudden_death_style"] = 1, "continue"
    client.post(f"/leagues/{league.slug}/events/new/", data)
    assert Event.objects.get(name="Starter Night").sudden_death_style == "continue"
