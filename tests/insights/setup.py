"""The running event the insights tests share (pages and browser tests)."""

from league import services as league_services
from matches import services
from tests.factories import sample_cards, sample_deck_text, user_of

DECKS = ["Lightning Rush", "Blazing Reign", "Lightning Rush", "Spark and Flame"]


def make_running_event(make_event, staff, name="Stream Cup"):
    """Four players with their lists (two Pikachu, two Charizard ex by the default rules),
    round 1 paired, published and on the clock: (event, round, registrations)."""
    sample_cards()
    event, regs = make_event(players=4, name=name)
    for reg, deck in zip(regs, DECKS, strict=True):
        league_services.submit_deck(
            registration=reg, text=sample_deck_text(deck), by_user=user_of(reg)
        )
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    services.start_clock(round_=round_, by_user=staff)
    event.refresh_from_db()
    return event, round_, regs
