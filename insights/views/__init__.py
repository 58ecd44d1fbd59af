from .metagame import archetype_edit, archetype_rules, event_metagame, player_rounds
from .overlay import event_overlay, event_stream
from .players import player_page
from .qr import event_poster, my_code, registration_card
from .results import event_results

__all__ = [
    "archetype_edit",
    "archetype_rules",
    "event_metagame",
    "event_overlay",
    "event_poster",
    "event_results",
    "event_stream",
    "my_code",
    "player_page",
    "player_rounds",
    "registration_card",
]
