"""Paper for the venue (`matches.paper`, `matches/views/paper.py`): the wall lists and the
match slips, rendered to PNG with PDFium and read back, the slips' QR codes decoded with
zxing-cpp to the match each one is printed for.

Pages to look at are written to `var/screenshots/venue-*.png` (git-ignored)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.urls import reverse

from league.models import StaffRole
from matches.paper.lists import Group, NameRow, StandingRow, pairings_pdf, rows_per_page
from matches.paper.slips import PER_PAGE, Slip, SlipRules, slips_pdf

from .conftest import make_round, registration_of

pdfium = pytest.importorskip("pypdfium2")
zxingcpp = pytest.importorskip("zxingcpp")

SHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"
#: A modest resolution keeps the 171 pages of a 1,024-table round quick to render and read.
DPI = 100

FIRST = [
    "Ash",
    "Misty",
    "Brock",
    "Gary",
    "Dawn",
    "Serena",
    "Clemont",
    "Lillie",
    "Iris",
    "Cilan",
    "May",
    "Max",
    "Tracey",
    "Bonnie",
    "Gladion",
    "Hau",
]
LAST = [
    "Ketchum",
    "Waterflower",
    "Harrison",
    "Oak",
    "Berlitz",
    "Yvonne",
    "Meyer",
    "Aether",
    "Drake",
    "Dento",
    "Maple",
    "Birch",
    "Sketchit",
    "Kukui",
    "Sycamore",
    "Juniper",
]


def player_name(i: int) -> str:
    return f"{LAST[i % 16]} {FIRST[(i // 16) % 16]} {i:04d}"


def pages(data: bytes, dpi: int = DPI):
    document = pdfium.PdfDocument(data)
    for page in document:
        yield (
            page.render(scale=dpi / 72).to_pil().convert("L"),
            page.get_textpage().get_text_bounded(),
        )


def page_size_mm(data: bytes) -> tuple[float, float]:
    w, h = pdfium.PdfDocument(data)[0].get_size()
    return round(w / 72 * 25.4, 1), round(h / 72 * 25.4, 1)


@pytest.mark.parametrize("size", ["a4", "letter"])
def test_pairings_by_name_for_2048_players_are_paginated_alphabetically_by_division(size):
    """Every player once, alphabetically within their division, a division starting a new
    page, its later pages headed "continued", no page holding more than fits in large type."""
    names = sorted((player_name(i) for i in range(2048)), key=str.casefold)
    rows = [
        NameRow(n, f"{2000000 + i}", i % 10, i // 2 + 1, f"Opponent {i}")
        for i, n in enumerate(names)
    ]
    groups = [Group("Masters", rows[:1500]), Group("Seniors", rows[1500:])]
    data = pairings_pdf(
        groups,
        by_name=True,
        event_name="Viridian Regional Championships",
        round_label="Round 3",
        size=size,
    )
    assert page_size_mm(data) == {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}[size]
    per_page = rows_per_page(size)
    expected_pages = -(-1500 // per_page) + -(-548 // per_page)
    texts = [text for _, text in pages(data, dpi=20)]
    assert len(texts) == expected_pages
    seen, division_pages = [], {"Masters": 0, "Seniors": 0}
    for text in texts:
        division = "Masters" if "Pairings by name · Masters" in text else "Seniors"
        assert f"Round 3 · Pairings by name · {division}" in text
        on_page = re.findall(r"^([A-Z][a-z]+ [A-Z][a-z]+ \d{4})\b(?! to )", text, flags=re.M)
        assert 0 < len(on_page) <= per_page
        # The range at the top names the page's first and last player, for the wall.
        assert f"{on_page[0]} to {on_page[-1]}" in text
        assert ("continued" in text) == (division_pages[division] > 0)
        division_pages[division] += 1
        seen.extend(on_page)
    assert seen == names  # each once, in order, Masters' pages before Seniors'


def test_a_by_name_page_is_large_type_and_looked_at():
    rows = [NameRow(player_name(i), "", i % 4, i + 1, player_name(i + 100)) for i in range(60)]
    data = pairings_pdf(
        [Group("Masters", rows)], by_name=True, event_name="Viridian Cup", round_label="Round 2"
    )
    document = pdfium.PdfDocument(data)
    SHOTS.mkdir(parents=True, exist_ok=True)
    for n in (0, 1):
        document[n].render(scale=110 / 72).to_pil().save(SHOTS / f"venue-by-name-a4-p{n + 1}.png")
    # A name is printed at 14 pt, the table at 18 pt: readable from a step back on the wall.
    text = document[0].get_textpage()
    index = text.get_text_bounded().index(rows[0].name)
    _, bottom, _, top = text.get_charbox(index)
    assert top - bottom >= 8.5  # points: the glyph box of a 14 pt capital


def decode(image) -> list[tuple[float, float, str]]:
    """(y, x, text) of each QR code on the page image."""
    return [
        (r.position.top_left.y, r.position.top_left.x, r.text)
        for r in zxingcpp.read_barcodes(image, formats=zxingcpp.BarcodeFormat.QRCode)
    ]


@pytest.mark.parametrize("size", ["a4", "letter"])
def test_slips_of_a_1024_table_round_each_decode_to_their_own_match(size):
    """Six slips to a page; every slip's code is read back at 100 dpi, on its own slip (the
    codes read in the page's order: left to right, top to bottom), as its match's URL."""
    slips = [
        Slip(
            t,
            "Masters",
            player_name(2 * t),
            f"{3000000 + t}",
            player_name(2 * t + 1),
            f"{4000000 + t}",
            f"http://league.example/matches/{70000 + t}/",
        )
        for t in range(1, 1025)
    ]
    rules = SlipRules(best_of=3, both_ways=True, sudden_death="a new game with 1 Prize card.")
    data = slips_pdf(
        slips,
        event_name="Viridian Regional Championships",
        round_label="Round 9",
        rules=rules,
        size=size,
    )
    decoded_pages = 0
    for number, (image, text) in enumerate(pages(data)):
        expected = slips[number * PER_PAGE : (number + 1) * PER_PAGE]
        found = decode(image)
        # In reading order: the row (a third of the page) first, then left to right.
        third = image.height / 3
        found.sort(key=lambda f: (int(f[0] // third), f[1]))
        assert [f[2] for f in found] == [s.url for s in expected], f"page {number + 1}"
        for slip in expected:
            assert f"TABLE {slip.table}" in text and slip.a_name in text and slip.b_id in text
        decoded_pages += 1
    assert decoded_pages == -(-1024 // PER_PAGE)


def test_a_slip_asks_what_the_rules_ask():
    slip = Slip(7, "", "Ash Ketchum", "1000001", "Misty Waterflower", "1000002", "http://x/m/1/")
    best_of_3 = SlipRules(best_of=3, both_ways=True, sudden_death="a new game with 1 Prize card.")
    ((image, text),) = pages(
        slips_pdf([slip], event_name="Cup", round_label="Round 1", rules=best_of_3), dpi=200
    )
    SHOTS.mkdir(parents=True, exist_ok=True)
    image.save(SHOTS / "venue-slip-best-of-3.png")
    for words in (
        "TABLE 7",
        "Round 1",
        "Player ID 1000001",
        "Player ID 1000002",
        "G1",
        "G2",
        "G3",
        "Won both ways: [ ] Ash [ ] Misty [ ] neither",
        "Sudden death: a new game with 1 Prize card.",
        "Signature: Ash Ketchum",
        "Signature: Misty Waterflower",
        "Match winner",
    ):
        assert words in text
    single = SlipRules(
        best_of=1, both_ways=False, sudden_death="the game goes on; it may end in a draw (1996)."
    )
    ((_, text),) = pages(slips_pdf([slip], event_name="Cup", round_label="Round 1", rules=single))
    assert "G1" in text and "G2" not in text and "Won both ways" not in text
    assert "it may end in a draw (1996)" in text


def test_standings_for_the_wall():
    rows = [
        StandingRow(
            i + 1,
            player_name(i),
            f"{5000000 + i}",
            30 - i,
            "9-1-0",
            "61.20%",
            "55.00%",
            dropped=i == 3,
        )
        for i in range(40)
    ]
    from matches.paper.lists import standings_pdf

    data = standings_pdf(
        [Group("Masters", rows)], event_name="Cup", heading="Standings after round 5"
    )
    texts = [t for _, t in pages(data, dpi=30)]
    assert len(texts) == 2 and "continued" in texts[1] and "continued" not in texts[0]
    assert f"{player_name(3)} (dropped)" in texts[0] and "61.20%" in texts[0]


# --- the pages staff print from


def test_staff_print_a_rounds_paper_from_the_site(client, event, organiser, ash, misty, make_user):
    event.best_of = 3
    event.save(update_fields=["best_of"])
    a, b = registration_of(ash, event), registration_of(misty, event)
    round_ = make_round(event, [(a, b)])
    match = round_.matches.get()
    client.force_login(organiser)
    page = client.get(reverse("round-results", args=[event.pk, 1]))
    assert reverse("round-paper", args=[event.pk, 1, "slips"]) in page.content.decode()
    for kind in ("by-table", "by-name", "slips"):
        for size in ("a4", "letter"):
            response = client.get(reverse("round-paper", args=[event.pk, 1, kind]), {"size": size})
            assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
            assert response["Cache-Control"] == "private, no-store"
            assert page_size_mm(response.content)[1] == (297.0 if size == "a4" else 279.4)
    response = client.get(reverse("round-paper", args=[event.pk, 1, "slips"]))
    ((image, text),) = pages(response.content, dpi=150)
    assert [f[2] for f in decode(image)] == [f"http://testserver/matches/{match.pk}/"]
    assert "Ash Ketchum" in text and ash.player_id in text and misty.player_id in text
    assert client.get(reverse("round-paper", args=[event.pk, 1, "poster"])).status_code == 404
    # A judge prints too; a player does not.
    judge = make_user("judge")
    StaffRole.objects.create(user=judge, league=event.season.league, role=StaffRole.Role.JUDGE)
    client.force_login(judge)
    assert client.get(reverse("round-paper", args=[event.pk, 1, "by-name"])).status_code == 200
    client.force_login(ash.user)
    assert client.get(reverse("round-paper", args=[event.pk, 1, "slips"])).status_code == 403


def test_standings_print_once_computed(client, event, organiser, snapshots):
    client.force_login(organiser)
    response = client.get(reverse("standings-paper", args=[event.pk]))
    assert response.status_code == 200
    ((_, text),) = pages(response.content, dpi=30)
    assert "Standings after round 2 (not yet published)" in text
    assert "62.50%" in text and "Misty Waterflower" in text
