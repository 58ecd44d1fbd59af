"""Organiser pages: the results grid, the top-cut bracket, exports (standings CSV, event
JSON, decklists PDF) and pairings by name."""

import csv
import io
import json
import re

import pytest
from django.urls import reverse

from decks.printing import (
    UNKNOWN_SECTION,
    DeckSheet,
    SheetLine,
    decklists_pdf,
    find_font,
    sheet_lines,
)
from decks.services import card_index
from league import services as league_services
from league.models import Event, Registration
from matches import services
from matches.models import Game, Match, ResultChange, Round, StandingsSnapshot

from .conftest import make_round, registration_of, standings_row

pytestmark = pytest.mark.django_db


# --- helpers -------------------------------------------------------------------------------


def results_url(event, number=1):
    return reverse("round-results", args=[event.pk, number])


def quick(client, match, **data):
    return client.post(reverse("match-result-quick", args=[match.pk]), data, follow=True)


def report(match, player, outcome):
    """`player` reports `outcome` ("a"/"b") for their best-of-1 match."""
    services.report_result(
        match=match, by_user=player.user, payload={"games": [{"outcome": outcome}]}
    )


def row_positions(page: str, matches) -> list[int]:
    return [page.index(f'id="match-{m.pk}"') for m in matches]


def pdf_page_count(data: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page(?![a-zA-Z])", data))


def pdf_outline_titles(data: bytes) -> list[str]:
    """The `/Title` strings of the document (its title, then one outline entry per page)."""
    titles = []
    for literal, hexa in re.findall(rb"/Title\s*(?:\(((?:[^()\\]|\\.)*)\)|<([0-9a-fA-F]+)>)", data):
        if hexa:
            raw = bytes.fromhex(hexa.decode())
            titles.append(raw[2:].decode("utf-16-be") if raw[:2] == b"\xfe\xff" else raw.decode())
        else:
            titles.append(literal.decode("latin-1"))
    return titles


@pytest.fixture
def four(event, make_player, register, ash, misty):
    """Four registrations: Ash, Misty, Brock, Gary."""
    return [
        registration_of(ash, event),
        registration_of(misty, event),
        register(make_player("Brock Harrison")),
        register(make_player("Gary Oak")),
    ]


# --- results grid --------------------------------------------------------------------------


@pytest.fixture
def mixed_round(event, make_player, register, four):
    """Round 1 of ten players: tables 1 final, 2 missing, 3 reported, 4 disputed, 5 a bye."""
    more = [
        register(make_player(name)) for name in ("Erika", "Sabrina", "Koga", "Blaine", "Lt Surge")
    ]
    ash, misty, brock, gary = four
    round_ = make_round(
        event,
        [(ash, misty), (brock, gary), (more[0], more[1]), (more[2], more[3]), (more[4], None)],
    )
    t = {m.table: m for m in round_.matches.all()}
    staff = event.season.league.organisers.get()
    services.set_result(match=t[1], by_user=staff, payload={"games": [{"outcome": "a"}]})
    report(t[3], more[0].player, "a")  # Erika says she won; Sabrina has not reported
    report(t[4], more[2].player, "a")  # Koga says he won...
    report(t[4], more[3].player, "b")  # ...and so does Blaine
    return round_, t


def test_the_results_grid_puts_disputed_then_missing_then_reported_then_final(
    client, event, mixed_round, organiser
):
    _round, t = mixed_round
    assert [Match.objects.get(pk=t[n].pk).status for n in (1, 2, 3, 4, 5)] == [
        "final", "pending", "reported", "disputed", "final",
    ]  # fmt: skip
    client.force_login(organiser)

    response = client.get(results_url(event))

    assert response.status_code == 200
    page = response.content.decode()
    disputed, missing, reported, final, bye = row_positions(page, [t[4], t[2], t[3], t[1], t[5]])
    assert disputed < missing < reported < min(final, bye)
    assert final < bye  # by table within a status
    # What each side reported, and the result that stands.
    assert "Koga reported: Koga won: G1 Koga won" in page
    assert "Blaine reported: Blaine won: G1 Blaine won" in page
    assert "Erika reported: Erika won" in page
    assert "Ash Ketchum won 1–0" in page
    assert "<strong>1</strong> disputed" in page and "<strong>1</strong> missing" in page
    # Quick buttons and a game-by-game link on every row but the bye.
    assert page.count('name="quick" value="id"') == 4
    assert page.count(">Game by game</a>") == 4
    assert reverse("match-detail", args=[t[2].pk]) in page


def test_staff_enter_results_with_the_quick_buttons(client, event, four, organiser):
    ash, misty, brock, gary = four
    round_ = make_round(event, [(ash, misty), (brock, gary)])
    first, second = round_.matches.order_by("table")
    client.force_login(organiser)

    response = quick(client, first, quick="b")

    assert response.redirect_chain[-1][0] == results_url(event)
    assert "Table 1: Misty Waterflower won 1–0." in response.content.decode()
    first.refresh_from_db()
    assert (first.status, first.result) == (Match.Status.FINAL, Match.Result.B)
    change = ResultChange.objects.get(match=first)
    assert change.source == "staff" and change.changed_by == organiser

    quick(client, second, quick="id", note="agreed at the table")
    second.refresh_from_db()
    assert (second.result, second.intentional_draw, second.games.count()) == ("tie", True, 0)
    assert ResultChange.objects.get(match=second).note == "agreed at the table"

    quick(client, second, quick="tie", note="it was time, not a draw")
    second.refresh_from_db()
    assert (second.result, second.ended_at_time, second.intentional_draw) == ("tie", True, False)

    quick(client, second, quick="double_loss", note="both penalised")
    second.refresh_from_db()
    assert second.result == Match.Result.DOUBLE_LOSS
    assert list(second.games.values_list("outcome", "reason")) == [("double_loss", "penalty")]


def test_a_penalty_game_loss_from_the_grid(client, event, four, organiser):
    ash, misty, *_ = four
    match = make_round(event, [(ash, misty)]).matches.get()
    client.force_login(organiser)

    quick(client, match, game_1="penalty_a", note="deck registration error")

    match.refresh_from_db()
    assert (match.status, match.result, match.b_game_wins) == ("final", "b", 1)
    game = match.games.get()
    assert (game.outcome, game.reason) == (Game.Outcome.B, Game.Reason.PENALTY)


def test_best_of_three_from_the_grid(client, make_event, make_player, register, organiser):
    event, _ = make_event(best_of=3)
    a, b = (register(make_player(n), to=event) for n in ("Brock Harrison", "Gary Oak"))
    match = make_round(event, [(a, b)]).matches.get()
    client.force_login(organiser)

    page = client.get(results_url(event)).content.decode()
    assert 'name="game_3"' in page

    quick(client, match, quick="a")
    match.refresh_from_db()
    assert (match.result, match.a_game_wins, match.b_game_wins) == ("a", 2, 0)

    # A 1–1 at time, the first game lost to a penalty.
    quick(client, match, game_1="penalty_b", game_2="b", game_3="tie", note="slip misread")
    match.refresh_from_db()
    assert (match.result, match.a_game_wins, match.b_game_wins, match.ended_at_time) == (
        "tie", 1, 1, True,
    )  # fmt: skip
    assert list(match.games.values_list("reason", flat=True)) == ["penalty", "played", "played"]


def test_the_grid_reports_what_cannot_be_entered(client, event, four, organiser):
    ash, misty, *_ = four
    match = make_round(event, [(ash, misty)]).matches.get()
    client.force_login(organiser)

    page = quick(client, match).content.decode()
    assert "Pick an outcome, or enter the games." in page

    Round.objects.filter(pk=match.round_id).update(stage=Round.Stage.TOP_CUT)
    page = quick(client, match, quick="id").content.decode()
    assert "not allowed in the top cut" in page
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING
    assert 'value="id"' not in client.get(results_url(event)).content.decode()


def test_the_results_grid_is_for_staff_only(client, event, four, organiser):
    ash, misty, *_ = four
    match = make_round(event, [(ash, misty)]).matches.get()
    url = results_url(event)
    response = client.get(url)
    assert response.status_code == 302 and response["Location"].startswith(reverse("login"))
    assert (
        client.post(reverse("match-result-quick", args=[match.pk]), {"quick": "a"}).status_code
        == 302
    )
    client.force_login(ash.player.user)
    assert client.get(url).status_code == 403
    assert (
        client.post(reverse("match-result-quick", args=[match.pk]), {"quick": "a"}).status_code
        == 403
    )
    assert client.get(reverse("match-result-quick", args=[match.pk])).status_code == 405
    match.refresh_from_db()
    assert match.status == Match.Status.PENDING
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    assert client.get(results_url(event, 9)).status_code == 404


def test_the_results_grid_of_64_players_takes_few_queries(
    client, event, make_player, organiser, django_assert_max_num_queries
):
    field = [league_services.register(event=event, player=make_player()) for _ in range(64)]
    round_ = make_round(event, list(zip(field[::2], field[1::2], strict=True)))
    matches = list(round_.matches.order_by("table"))
    for m in matches[:8]:
        report(m, m.player_a.player, "a")
    for m in matches[8:12]:
        report(m, m.player_b.player, "a")
        report(m, m.player_a.player, "a")
    Match.objects.filter(pk__in=[m.pk for m in matches[20:]]).update(
        status=Match.Status.FINAL, result=Match.Result.A, a_game_wins=1
    )
    client.force_login(organiser)

    with django_assert_max_num_queries(9):
        response = client.get(results_url(event))

    page = response.content.decode()
    assert page.count('<tr id="match-') == 32
    assert page.count(" reported: ") == 8 + 8


def test_the_dashboard_links_the_grid_and_the_exports(client, event, four, organiser):
    make_round(event, [(four[0], four[1])])
    client.force_login(organiser)
    page = client.get(reverse("event-dashboard", args=[event.pk])).content.decode()
    assert results_url(event) in page
    assert reverse("event-decklists-pdf", args=[event.pk]) in page
    assert reverse("event-export-json", args=[event.pk]) in page


# --- the top-cut bracket -------------------------------------------------------------------


def finish_round(round_, staff, *, winner="a"):
    """Every open match of the round won by `winner`, then the round closed."""
    for m in round_.matches.exclude(status=Match.Status.FINAL):
        services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": winner}]})
    services.close_round(round_=round_, by_user=staff)


SLOT_RE = re.compile(
    r'<div class="slot( won| lost)?">\s*<span class="seed">(\d*)</span>\s*'
    r'<span class="name"(?: title="[^"]*")?>([^<]*)</span>\s*(?:<span class="games">(\d+)</span>)?'
)
CHAMPION_RE = re.compile(r'class="box champion decided">.*?<span class="name"[^>]*>([^<]+)<', re.S)


@pytest.fixture
def cut_event(make_event, make_player, organiser):
    """Ten players, one Swiss round closed: a top 8 to play."""
    event, _ = make_event(name="Cerulean Cup", swiss_rounds=1, top_cut=8)
    for i in range(10):
        league_services.register(event=event, player=make_player(f"Seed Player {i}"))
    swiss = services.pair_next_round(event=event, by_user=organiser)
    services.publish_round(round_=swiss, by_user=organiser)
    finish_round(swiss, organiser)
    # The task queued on commit, run here (test transactions never commit).
    services.recompute_standings(event_id=event.pk, publish_round=swiss.number)
    assert StandingsSnapshot.objects.filter(event=event, round_number=1, published=True).exists()
    return event


def test_the_bracket_shows_top_8_to_the_final_with_seeds_and_winners(client, cut_event, organiser):
    event = cut_event
    order = [row["player"] for row in services.standings_rows(event)]
    url = reverse("event-bracket", args=[event.pk])

    top8 = services.pair_next_round(event=event, by_user=organiser)
    assert top8.stage == Round.Stage.TOP_CUT
    assert client.get(url).status_code == 404  # paired, not published: staff only
    client.force_login(organiser)
    page = client.get(url).content.decode()
    assert "Top 8" in page and "Top 4" in page and "Final" in page
    client.logout()

    services.publish_round(round_=top8, by_user=organiser)
    page = client.get(url).content.decode()
    slots = SLOT_RE.findall(page)
    # Top 8 in bracket order with the seeds of the Swiss standings, then empty boxes.
    assert [(int(s[1]), s[2]) for s in slots[:8]] == [
        (seed, order[seed - 1]) for seed in (1, 8, 4, 5, 2, 7, 3, 6)
    ]
    assert page.count('class="box open"') == 2 + 1
    assert [s[2] for s in slots[8:]] == [""] * (4 + 2 + 1)  # Top 4, Final, Winner

    finish_round(top8, organiser)  # the better seed wins every match
    page = client.get(url).content.decode()
    slots = SLOT_RE.findall(page)
    # Winners are highlighted and carried into the next round's (unpaired) boxes.
    assert [s[0] for s in slots[:8]] == [" won", " lost"] * 4
    assert [s[3] for s in slots[:8]] == ["1", "0"] * 4
    assert [s[2] for s in slots[8:12]] == [order[0], order[3], order[1], order[2]]

    for _ in range(2):
        round_ = services.pair_next_round(event=event, by_user=organiser)
        services.publish_round(round_=round_, by_user=organiser)
        finish_round(round_, organiser, winner="b")
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED

    page = client.get(url).content.decode()
    slots = SLOT_RE.findall(page)
    assert [(s[0], s[1], s[2]) for s in slots[8:12]] == [
        (" lost", "1", order[0]), (" won", "4", order[3]),
        (" lost", "2", order[1]), (" won", "3", order[2]),
    ]  # fmt: skip
    assert [(s[0], s[1], s[2]) for s in slots[12:14]] == [
        (" lost", "4", order[3]), (" won", "3", order[2]),
    ]  # fmt: skip
    assert CHAMPION_RE.findall(page) == [order[2]]
    assert page.count('class="box open"') == 0
    assert 'class="slot won"' in page and page.count("slot won") == 4 + 2 + 1 + 1


def test_the_bracket_is_linked_once_public(client, cut_event, organiser):
    event = cut_event
    bracket = reverse("event-bracket", args=[event.pk])
    assert bracket not in client.get(reverse("event-detail", args=[event.pk])).content.decode()
    top8 = services.pair_next_round(event=event, by_user=organiser)
    assert bracket not in client.get(reverse("event-standings", args=[event.pk])).content.decode()
    services.publish_round(round_=top8, by_user=organiser)
    assert bracket in client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert bracket in client.get(reverse("event-standings", args=[event.pk])).content.decode()


def test_a_bracket_per_division_when_divisions_play_separately(
    client, make_event, make_player, organiser
):
    event, _ = make_event(division_mode=Event.DivisionMode.SEPARATE)
    juniors = [
        league_services.register(event=event, player=make_player(f"Junior {n}", birth_year=2016))
        for n in (1, 2)
    ]
    masters = [
        league_services.register(event=event, player=make_player(f"Master {n}")) for n in (1, 2)
    ]
    Event.objects.filter(pk=event.pk).update(status=Event.Status.TOP_CUT)
    round_ = Round.objects.create(
        event=event, number=2, stage=Round.Stage.TOP_CUT, status="published", seed="x"
    )
    Match.objects.create(
        round=round_, table=1, division="junior", player_a=juniors[0], player_b=juniors[1]
    )
    Match.objects.create(
        round=round_, table=1, division="masters", player_a=masters[1], player_b=masters[0],
        status=Match.Status.FINAL, result=Match.Result.B, b_game_wins=1,
    )  # fmt: skip

    page = client.get(reverse("event-bracket", args=[event.pk])).content.decode()

    assert page.index("<h2>Junior</h2>") < page.index("Junior 1") < page.index("<h2>Masters</h2>")
    assert page.index("<h2>Masters</h2>") < page.index("Master 2")
    assert CHAMPION_RE.findall(page) == ["Master 1"]
    assert "Table 1 · Playing" in page


def test_no_bracket_before_the_top_cut(client, event, organiser):
    url = reverse("event-bracket", args=[event.pk])
    assert client.get(url).status_code == 404
    client.force_login(organiser)
    assert "The top cut is not paired yet." in client.get(url).content.decode()


# --- standings CSV -------------------------------------------------------------------------


def read_csv(response) -> list[list[str]]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    return list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))


def test_the_standings_csv_is_public_once_published(client, event, snapshots, ash, misty):
    url = reverse("event-standings-csv", args=[event.pk])

    response = client.get(url)

    assert response.status_code == 200
    assert response.content.startswith("\ufeff".encode())
    assert (
        response["Content-Disposition"]
        == f'attachment; filename="{event.slug}-standings-round-1.csv"'
    )
    # Play! Pokémon IDs are the staff's and each player's own (issue 27), not the public's.
    assert read_csv(response) == [
        ["rank", "player", "player id", "division", "record", "points", "OWP %", "OOWP %", "dropped"],
        ["1", "Ash Ketchum", "", "Masters", "1-0-0", "3", "25.00", "75.00", "no"],
        ["2", "Misty Waterflower", "", "Masters", "0-1-0", "0", "100.00", "25.00", "no"],
    ]  # fmt: skip
    assert client.get(url + "?round=2").status_code == 404
    assert client.get(url + "?round=x").status_code == 404
    assert (
        reverse("event-standings-csv", args=[event.pk]) + "?round=1"
        in client.get(reverse("event-standings", args=[event.pk])).content.decode()
    )


def test_staff_also_download_the_live_standings(client, event, snapshots, organiser):
    client.force_login(organiser)
    response = client.get(reverse("event-standings-csv", args=[event.pk]))
    assert response["Content-Disposition"].endswith('-standings-round-2-live.csv"')
    rows = read_csv(response)
    assert rows[1][:2] == ["1", "Misty Waterflower"] and rows[1][6:] == ["62.50", "50.00", "no"]
    assert rows[2][1] == "Ash Ketchum" and rows[2][-1] == "yes"
    older = client.get(reverse("event-standings-csv", args=[event.pk]) + "?round=1")
    assert read_csv(older)[1][1] == "Ash Ketchum"
    ids = {row[1]: row[2] for row in read_csv(older)[1:]}
    assert all(ids.values()) and len(ids) == 2  # staff get every Play! Pokémon ID


def test_no_standings_csv_before_standings_or_for_a_draft(client, make_event, event, organiser):
    assert client.get(reverse("event-standings-csv", args=[event.pk])).status_code == 404
    draft, _ = make_event(status=Event.Status.DRAFT)
    StandingsSnapshot.objects.create(event=draft, round_number=1, published=True, rows=[])
    assert client.get(reverse("event-standings-csv", args=[draft.pk])).status_code == 404
    client.force_login(organiser)
    assert client.get(reverse("event-standings-csv", args=[draft.pk])).status_code == 200


def test_a_name_is_never_read_as_a_formula(client, event, make_player, register):
    reg = register(make_player("=HYPERLINK(1)"))
    StandingsSnapshot.objects.create(
        event=event, round_number=1, published=True,
        rows=[standings_row(reg, 1, 0, "0-0-0", 0, 0)],
    )  # fmt: skip
    rows = read_csv(client.get(reverse("event-standings-csv", args=[event.pk])))
    assert rows[1][1] == "'=HYPERLINK(1)"


# --- event JSON ----------------------------------------------------------------------------


def test_the_event_json_export_is_a_staff_download(client, event, four, organiser):
    round_ = make_round(event, [(four[0], four[1]), (four[2], None)])
    services.set_result(
        match=round_.matches.get(table=1), by_user=organiser, payload={"games": [{"outcome": "b"}]}
    )
    url = reverse("event-export-json", args=[event.pk])
    assert client.get(url).status_code == 302
    client.force_login(four[0].player.user)
    assert client.get(url).status_code == 403
    client.force_login(organiser)

    response = client.get(url)

    assert response.status_code == 200 and response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == f'attachment; filename="{event.slug}-export.json"'
    data = json.loads(response.content)
    assert data["event"]["name"] == "Viridian League Cup"
    assert {p["name"] for p in data["players"]} >= {"Ash Ketchum", "Misty Waterflower"}
    (round_1,) = data["rounds"]
    assert [m["result"] for m in round_1["matches"]] == ["b", "a"]
    assert round_1["matches"][0]["games"][0]["outcome"] == "b"


# --- decklists PDF -------------------------------------------------------------------------


def test_the_decklists_pdf_has_one_page_per_player_with_a_list(
    client, event, ash, misty, make_player, register, deck_text, organiser
):
    flabebe = make_player("Flabébé Fan")
    register(flabebe)
    register(make_player("No List Yet"))
    withdrawn = make_player("Withdrawn Will")
    register(withdrawn)
    for player in (ash, misty, flabebe, withdrawn):
        league_services.submit_deck(
            registration=registration_of(player, event), text=deck_text, by_user=organiser
        )
    league_services.submit_deck(
        registration=registration_of(misty, event), text="4 Pikachu\n1 Nest Ball", by_user=organiser
    )
    Registration.objects.filter(player=withdrawn).update(status=Registration.Status.WITHDRAWN)
    client.force_login(organiser)

    response = client.get(reverse("event-decklists-pdf", args=[event.pk]))

    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    assert response["Content-Disposition"] == f'inline; filename="{event.slug}-decklists.pdf"'
    data = response.content
    assert data.startswith(b"%PDF-") and data.rstrip().endswith(b"%%EOF")
    assert pdf_page_count(data) == 3
    titles = pdf_outline_titles(data)
    titles.remove(f"Decklists · {event.name}")  # the document's title
    assert sorted(titles) == ["Ash Ketchum", "Flabébé Fan", "Misty Waterflower"]


def test_the_decklists_pdf_is_for_staff_only(client, event, ash, deck_text, organiser):
    url = reverse("event-decklists-pdf", args=[event.pk])
    assert client.get(url).status_code == 302
    client.force_login(ash.user)
    assert client.get(url).status_code == 403
    client.force_login(organiser)
    response = client.get(url, follow=True)  # nothing submitted yet
    assert response.redirect_chain[-1][0] == reverse("event-dashboard", args=[event.pk])
    assert "nothing to print" in response.content.decode()


def test_sheet_lines_take_their_section_from_the_card_data(cards, deck_text):
    index = card_index()
    lines = sheet_lines(deck_text, index)
    sections = {line.name: line.section for line in lines}
    assert sections["Pikachu"] == "Pokémon"
    assert sections["Nest Ball"] == "Trainer"
    assert sections["Lightning Energy"] == "Energy"
    assert sum(line.count for line in lines) == 60
    odd = sheet_lines("Pokémon: 1\n2 Missingno\nSomething\n1 Iono\n3 Who Knows", index)
    assert [(line.count, line.name, line.section) for line in odd] == [
        (2, "Missingno", "Pokémon"), (1, "Iono", "Trainer"), (3, "Who Knows", "Pokémon"),
    ]  # fmt: skip
    assert sheet_lines("1 Who Knows", index)[0].section == UNKNOWN_SECTION


SHEET = DeckSheet(
    player_name="Flabébé Fan",
    player_id="100042",
    division="Masters",
    lines=[
        SheetLine(1, "Nidoran ♀", "Pokémon"),
        SheetLine(1, "Rayquaza ★", "Pokémon", "DX 107"),
        SheetLine(1, "Latias δ", "Pokémon"),
        SheetLine(1, "Mew ◇", "Pokémon"),
        SheetLine(4, "Nest Ball", "Trainer", "SVI 181"),
    ],
    legal=False,
    card_count=8,
    findings=["The deck has 8 cards; it needs exactly 60."],
    version=2,
)


def test_the_sheets_embed_a_font_with_every_mark_of_card_names():
    font = find_font()
    if font is None:
        pytest.skip("no TrueType font (fonts-dejavu-core) on this machine")
    data = decklists_pdf([SHEET], event_name="Cup", compress=False)
    assert pdf_page_count(data) == 1
    assert b"/FontFile2" in data
    # The embedded subset maps glyphs back to each character (its ToUnicode CMap).
    for char in "é♀★◇δ":
        assert f"<{ord(char):04X}>".encode() in data, char


def test_without_a_font_the_marks_are_spelled_out():
    data = decklists_pdf([SHEET, SHEET], event_name="Cup", font=None, compress=False)
    assert pdf_page_count(data) == 2 and b"/FontFile2" not in data
    for text in (
        b"Nidoran F",
        b"Rayquaza Star",
        b"Latias Delta",
        b"Mew Prism Star",
        b"Flab\xe9b\xe9 Fan",
    ):
        assert text in data, text


def test_a_very_long_list_goes_on_over_a_second_page():
    lines = [SheetLine(1, f"Card {i}", ("Pokémon", "Trainer", "Energy")[i % 3]) for i in range(150)]
    data = decklists_pdf([DeckSheet("Long Lister", "1", "Masters", lines)], event_name="Cup")
    assert pdf_page_count(data) == 2
    assert sorted(pdf_outline_titles(data)) == ["Decklists · Cup", "Long Lister"]


# --- pairings by name ----------------------------------------------------------------------


def test_pairings_by_name_list_every_player_with_table_and_opponent(
    client, event, four, make_player, register
):
    ash, misty, brock, gary = four
    zed = register(make_player("Abe Zed"))
    make_round(event, [(gary, misty), (brock, ash), (zed, None)])
    client.force_login(ash.player.user)
    url = reverse("round-pairings", args=[event.pk, 1])

    page = client.get(url + "?by=name").content.decode()

    rows = re.findall(
        r"<tr data-p=\"(\d+)\">\s*<td>([^<]+) <span class=\"pts\">\(\d+\)</span></td>\s*"
        r"<td class=\"num\">(?:<a [^>]+>)?([^<]+)(?:</a>)?</td>\s*<td>(?:([^<]+) <span|<em>(BYE))",
        page,
    )
    assert [(r[1], r[2], r[3] or r[4]) for r in rows] == [
        ("Abe Zed", "–", "BYE"),
        ("Ash Ketchum", "2", "Brock Harrison"),
        ("Brock Harrison", "2", "Ash Ketchum"),
        ("Gary Oak", "1", "Misty Waterflower"),
        ("Misty Waterflower", "1", "Gary Oak"),
    ]
    # The viewer's own row is marked by the page's script from their own answer (the list
    # itself is the same for everyone, and cached): the row of their registration.
    me = client.get(reverse("event-me", args=[event.pk]) + "?round=1").json()
    mine = [r[1] for r in rows if r[0] == str(me["registration"]["id"])]
    assert mine == ["Ash Ketchum"] and "tr.mine td" in page
    assert '<strong aria-current="true">By name</strong>' in page
    by_table = client.get(url).content.decode()
    assert '<strong aria-current="true">By table</strong>' in by_table
    by_table = by_table[by_table.index("<table") :]  # the list, after the "your table" card
    assert by_table.index("Gary Oak") < by_table.index("Brock Harrison")
