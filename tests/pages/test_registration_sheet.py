"""The deck registration sheet (`decks.printing`), in the Play! Pokémon layout: rendered to
PNG with PDFium (`pypdfium2`, a dev dependency) and read back, and printed by the player
before the event or by the staff who check decks.

The PNG goes to `var/screenshots/deck-registration-sheet.png` (git-ignored) to be looked at.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.urls import reverse

from decks.printing import DeckSheet, SheetLine, decklists_pdf, sheet_lines
from decks.services import card_index
from league import services as league_services
from league.models import StaffRole

from .conftest import registration_of

ROOT = Path(__file__).resolve().parents[2]
SHOT = ROOT / "var" / "screenshots" / "deck-registration-sheet.png"


def render(data: bytes, *, scale: float = 2.0):
    """Each page of the PDF as a PIL image, and its text as PDFium reads it."""
    pdfium = pytest.importorskip("pypdfium2")
    document = pdfium.PdfDocument(data)
    pages = []
    for page in document:
        image = page.render(scale=scale).to_pil().convert("RGB")
        text = page.get_textpage().get_text_bounded()
        pages.append((image, text))
    return pages


def test_the_sheet_has_the_official_layout_and_renders(cards, deck_text):
    lines = sheet_lines(deck_text, card_index())
    sheet = DeckSheet(
        player_name="Flabébé Fan", player_id="1234567", division="Senior", lines=lines,
        legal=True, card_count=60, version=3, submitted="2 May 2025, 18:04",
        birth_date="1 May 2012", event_date="10 May 2025",
    )  # fmt: skip
    ((image, text),) = render(decklists_pdf([sheet], event_name="Viridian League Cup"))
    SHOT.parent.mkdir(parents=True, exist_ok=True)
    image.save(SHOT)

    # A4 portrait, with the dark title bar across the top.
    width, height = image.size
    assert abs(height / width - 297 / 210) < 0.01
    assert image.getpixel((width // 2, int(height * 0.06))) == (29, 36, 48)
    for label in (
        "DECK REGISTRATION SHEET",
        "PLAYER NAME",
        "PLAYER ID",
        "DATE OF BIRTH",
        "EVENT",
        "EVENT DATE",
        "AGE DIVISION",
        "Junior",
        "Senior",
        "Masters",
        "POKÉMON",
        "TRAINER",
        "ENERGY",
        "QTY",
        "NAME",
        "SET",
        "NO.",
        "TOTAL",
    ):
        assert label in text, label  # fmt: skip
    for value in ("Flabébé Fan", "1234567", "1 May 2012", "Viridian League Cup", "10 May 2025"):
        assert value in text, value
    # Every line is on the sheet with its set and number, and each section's count.
    for line in lines:
        assert line.name in text, line.name
    printed = [line for line in lines if line.printing]
    assert printed
    for line in printed:
        set_code, number = line.printing.rsplit(" ", 1)
        assert set_code in text and number in text
    for section in ("Pokémon", "Trainer", "Energy"):
        count = sum(line.count for line in lines if line.section == section)
        assert f"{count} cards" in text, section
    assert text.index("POKÉMON") < text.index("TRAINER") < text.index("ENERGY")


def test_the_players_division_box_is_crossed(cards):
    lines = [SheetLine(4, "Pikachu", "Pokémon", "SVI 57")]
    crossed = {}
    for division in ("Junior", "Masters"):
        ((image, _),) = render(
            decklists_pdf([DeckSheet("A", "1", division, lines)], event_name="Cup"), scale=4
        )
        crossed[division] = _box_ink(image)
    # The crossed box has more ink than the empty one, and it moves with the division.
    assert crossed["Junior"][0] > crossed["Junior"][2]
    assert crossed["Masters"][2] > crossed["Masters"][0]


def _box_ink(image) -> list[int]:
    """Dark pixels inside each division's check box (positions from the layout, mm)."""
    mm = image.size[0] / 210
    ink = []
    for i in range(3):
        x0, y0 = 12 + 30 + i * 38 + 0.8, 12 + 13 + 22 + 2 + 0.8
        box = image.crop((int(x0 * mm), int(y0 * mm), int((x0 + 2.4) * mm), int((y0 + 2.4) * mm)))
        ink.append(sum(1 for p in box.get_flattened_data() if sum(p) < 300))
    return ink


def test_a_player_prints_their_own_sheet_and_staff_print_anyones(
    client, event, ash, misty, deck_text, organiser, make_user
):
    league_services.submit_deck(
        registration=registration_of(ash, event), text=deck_text, by_user=ash.user
    )
    url = reverse("deck-sheet-pdf", args=[event.pk, registration_of(ash, event).pk])
    client.force_login(ash.user)
    deck_page = client.get(reverse("deck-submit", args=[event.pk])).content.decode()
    assert url in deck_page
    mine = client.get(url)
    assert mine.status_code == 200 and mine["Content-Type"] == "application/pdf"
    ((_, text),) = render(mine.content)
    assert "Ash Ketchum" in text and ash.player_id in text and "1 May 1990" in text
    assert event.name in text and "Masters" in text
    client.force_login(misty.user)
    assert client.get(url).status_code == 403
    scorekeeper = make_user("scorekeeper")
    StaffRole.objects.create(league=event.season.league, user=scorekeeper, role="scorekeeper")
    client.force_login(scorekeeper)
    assert client.get(url).status_code == 403
    judge = make_user("judge")
    StaffRole.objects.create(league=event.season.league, event=event, user=judge, role="judge")
    client.force_login(judge)
    assert client.get(url).status_code == 200
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    no_list = reverse("deck-sheet-pdf", args=[event.pk, registration_of(misty, event).pk])
    assert client.get(no_list).status_code == 404
