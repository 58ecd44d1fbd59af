"""Factories for service, API and page tests, a module per app (`league`, `decks`,
`matches`, `webhooks`): rows made through the services wherever the site makes them so, and
factory_boy classes for the plain ones. Import them from here:
`from tests.factories import EventFactory, play_round`.

The fixtures built on them (`make_user`, `make_event`, `staff`, `league`, `season`) are in
`tests/conftest.py`; `tests/pages/conftest.py` gives the page tests their named league and
players.
"""

from .decks import SAMPLE_DATA, sample_cards, sample_deck_text, submit_list
from .league import (
    EventFactory,
    LeagueFactory,
    PlayerFactory,
    RegistrationFactory,
    SeasonFactory,
    UserFactory,
    checked_in_players,
    make_staff,
    site_rules_edition,
    standard_format,
    user_of,
)
from .matches import play_round, play_swiss, seat_round
from .webhooks import WebhookEndpointFactory

__all__ = [
    "SAMPLE_DATA",
    "EventFactory",
    "LeagueFactory",
    "PlayerFactory",
    "RegistrationFactory",
    "SeasonFactory",
    "UserFactory",
    "WebhookEndpointFactory",
    "checked_in_players",
    "make_staff",
    "play_round",
    "play_swiss",
    "sample_cards",
    "sample_deck_text",
    "seat_round",
    "site_rules_edition",
    "standard_format",
    "submit_list",
    "user_of",
]
