"""Pages for running an event, one module per screen group:

- `events`: the event page, standings, the top-cut bracket, and the staff dashboard;
- `rounds`: pairing the next round, publishing / the clock / closing, the pairings (by
  table or by name) and the projector;
- `results`: the match page and its report and result forms, the staff's results grid;
- `exports`: standings CSV, event JSON, printable decklists;
- `paper`: the venue's paper (the wall lists, match slips, standings) as PDF;
- `players`: the player's own events and history (and the "your match" card);
- `corrections`: the scorekeeper's corrections of the current round (undo, swap, seat…);
- `why`: "why am I 9th?", one player's standing explained;
- `calendar`: the calendar feeds (a league's events, a user's own at a secret address).
- `me`: the viewer's own part of the public round pages (`me.json`).

Views are thin: they load rows (with the joins the hot pages need, since a 64-player round
is rendered on every phone in the room), check who may look (`league.view_helpers`), call
one service and redirect with a message. Results are worded by `matches.presenters`, read
queries are in `matches.selectors`. Pairings of a round that is not published yet are
staff-only: everyone else gets a 404, as in the API.
"""

from .calendar import league_calendar, my_calendar
from .corrections import round_correction
from .events import event_bracket, event_dashboard, event_detail, event_standings
from .exports import deck_sheet_pdf, event_decklists_pdf, event_export_json, event_standings_csv
from .me import event_me
from .paper import round_paper, standings_paper
from .players import my_events
from .reports import match_report
from .results import match_detail, match_quick_result, match_result, round_results
from .rounds import pair_next_round, round_action, round_pairings, round_projector
from .why import standing_why

__all__ = [
    "deck_sheet_pdf",
    "event_bracket",
    "event_dashboard",
    "event_decklists_pdf",
    "event_detail",
    "event_export_json",
    "event_me",
    "event_standings",
    "event_standings_csv",
    "league_calendar",
    "match_detail",
    "match_quick_result",
    "match_report",
    "match_result",
    "my_calendar",
    "my_events",
    "pair_next_round",
    "round_action",
    "round_correction",
    "round_pairings",
    "round_paper",
    "round_projector",
    "round_results",
    "standing_why",
    "standings_paper",
]
