"""Factories of the decks app: the project's sample card set and its decks, and a list
submitted through `league.services.submit_deck`."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DATA = ROOT / "decks" / "sample_data"


def sample_cards() -> None:
    """Load the project's sample card set (idempotent)."""
    from decks.importer import import_card_data

    import_card_data(SAMPLE_DATA)


def sample_deck_text(name: str = "Lightning Rush") -> str:
    from decks.models import PreconDeck

    return PreconDeck.objects.get(name=name).as_decklist_text()


def submit_list(registration, *, text: str | None = None, by_user=None):
    """A decklist (the sample deck unless `text`) submitted for `registration` by its player
    (or `by_user`), through the service: checked, versioned, notified."""
    from league import services

    return services.submit_deck(
        registration=registration,
        text=sample_deck_text() if text is None else text,
        by_user=by_user or registration.player.user,
    )
