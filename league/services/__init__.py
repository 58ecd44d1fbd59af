"""The league's services: registration, check-in, late entry, drops, deck submissions,
league points, reminders, player profiles and events, a module each; import them from here
(`from league import services; services.register(...)`).

Every function here owns its transaction, raises `DomainError` with a stable code for a
mistake the user can fix, and says what it writes and what it queues. Pages, the API and
the management commands all call these; none of them writes league rows by itself.
"""

from __future__ import annotations

from .decklists import deck_lock, deck_lock_message, deck_locked, publish_decklists, submit_deck
from .events import EVENT_FIELDS, create_event, update_event
from .passwords import request_password_reset, send_password_reset
from .points import recompute_season_points, record_placements
from .profiles import save_profile
from .registrations import (
    check_in,
    division_of,
    drop,
    register,
    rounds_started,
    undo_check_in,
    undo_drop,
)
from .reminders import send_deck_deadline_reminders, send_event_starting_notices
from .seating import set_feature_tables, set_seating

__all__ = [
    "EVENT_FIELDS",
    "check_in",
    "create_event",
    "deck_lock",
    "deck_lock_message",
    "deck_locked",
    "division_of",
    "drop",
    "publish_decklists",
    "recompute_season_points",
    "record_placements",
    "register",
    "request_password_reset",
    "rounds_started",
    "save_profile",
    "send_deck_deadline_reminders",
    "send_event_starting_notices",
    "send_password_reset",
    "set_feature_tables",
    "set_seating",
    "submit_deck",
    "undo_check_in",
    "undo_drop",
    "update_event",
]
