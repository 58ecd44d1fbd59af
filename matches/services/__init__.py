"""Running an event: pairing rounds, results, the top cut, standings.

Each function owns its transaction, raises `DomainError` with a stable code for a mistake
staff or players can fix, and says what it writes and what it queues. The pairing and
standings rules themselves live in `rules/`; this module loads rows, calls them and saves.

Concurrency: anything that changes a round takes a row lock on the event first, so two
clicks on "pair next round" make one round; anything that changes a result locks the match,
so two reports arriving at once are applied one after the other and both are kept.

The functions live by concern (`structure`, `rounds`, `reports`, `results`, `standings`, with `common` helpers);
import them from here: `from matches import services; services.pair_next_round(...)`.
"""

from .after_work import after_reports, notify_result_reported
from .common import ACTIVE
from .corrections import undo_round
from .pairing_edits import (
    SEAT_MODES,
    give_bye,
    move_match,
    pair_players,
    seat_player,
    swap_players,
)
from .reports import can_report, report_refusal, report_result
from .results import record_decided_result, set_result, stored_result
from .rounds import (
    close_round,
    pair_next_round,
    publish_round,
    record_paired_matches,
    start_clock,
)
from .standings import (
    STANDINGS_COALESCE_SECONDS,
    cut_rounds,
    final_placements,
    final_standings,
    finish_event,
    recompute_standings,
    request_standings,
    send_round_clock_reminders,
    standings_rows,
)
from .structure import Pod, event_pods, event_structure, structure_of
from .two_day import frozen_on_day_one

__all__ = [
    "ACTIVE",
    "SEAT_MODES",
    "STANDINGS_COALESCE_SECONDS",
    "Pod",
    "after_reports",
    "can_report",
    "close_round",
    "cut_rounds",
    "event_pods",
    "event_structure",
    "final_placements",
    "final_standings",
    "finish_event",
    "frozen_on_day_one",
    "give_bye",
    "move_match",
    "notify_result_reported",
    "pair_next_round",
    "pair_players",
    "publish_round",
    "recompute_standings",
    "record_decided_result",
    "record_paired_matches",
    "report_refusal",
    "report_result",
    "request_standings",
    "seat_player",
    "send_round_clock_reminders",
    "set_result",
    "standings_rows",
    "start_clock",
    "stored_result",
    "structure_of",
    "swap_players",
    "undo_round",
]
