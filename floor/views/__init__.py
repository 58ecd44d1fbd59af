"""The floor pages: the judges' call queue, a table's judge tools (time extension,
penalty, deck check) and a player's own penalties."""

from .calls import call_close, call_judge, call_take, floor_queue, pick_tables
from .players import my_penalties
from .tables import deck_check, match_floor

__all__ = [
    "call_close",
    "call_judge",
    "call_take",
    "deck_check",
    "floor_queue",
    "match_floor",
    "my_penalties",
    "pick_tables",
]
