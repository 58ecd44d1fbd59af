"""TOM saves (`.tdf`): reading and writing the XML that Pokémon's Tournament Operations
Manager writes, as plain Python (no Django).

`parse(data)` turns the bytes of a save into a `Tournament`; `write(tournament)` turns it
back into the text TOM writes: tab indentation, elements in TOM's order, TOM's layout
quirks (`<round … >` with a space, roster entries `<player … />`, match players
`<player1 …/>`, empty containers as an open and a close line) and its entity escapes.
Writing what was read gives the same element tree, and for TOM's own files the same text
(line endings aside: `write(..., newline="\\r\\n")` for CRLF).

Terms (see `../shared/data/tom-exports/tdf/README.md` for every element):
- a *pod* is a group TOM pairs on its own, by `category`: 0 Juniors, 1 Seniors, 2 Masters,
  8 Juniors and Seniors together, 10 all ages;
- a match's `outcome`: 1 player1 won, 2 player2 won, 3 tie, 4 earned bye, 5 bye, 8 a late
  entrant's loss for a round they missed, 10 double loss, 0 not played yet;
- round `type` 1 is the single-elimination top cut; Swiss rounds carry the root's type;
- dates are `MM/DD/YYYY` and timestamps `MM/DD/YYYY HH:MM:SS`, kept as TOM's text.

Everything TOM writes is kept, unknown elements are refused: a file that is not a TOM save,
is cut short, lacks an element TOM always writes or names a player twice raises
`TdfError`, whose message names the element.

The package: `model.py` (the codes and dataclasses), `reader.py` (`parse`, `check`),
`writer.py` (`write`, `truncated`).
"""

from .model import (
    ALL_AGES,
    BYE,
    DATE_FORMAT,
    DOUBLE_LOSS,
    EARNED_BYE,
    JUNIORS,
    JUNIORS_SENIORS,
    LATE_LOSS,
    MASTERS,
    OUTCOMES,
    P1_WINS,
    P2_WINS,
    POD_DIVISIONS,
    SENIORS,
    SINGLE_OUTCOMES,
    TIE,
    TIMESTAMP_FORMAT,
    TOP_CUT_ROUND,
    UNPLAYED,
    CategoryCut,
    Dropped,
    EventData,
    Match,
    Organizer,
    Place,
    Player,
    Pod,
    Round,
    StandingsPod,
    Subgroup,
    TdfError,
    Tournament,
    content_hash,
    format_date,
    format_timestamp,
    parse_date,
    parse_timestamp,
)
from .reader import PLAYER_CHILDREN, check, parse
from .writer import truncated, write

__all__ = [
    "ALL_AGES",
    "BYE",
    "DATE_FORMAT",
    "DOUBLE_LOSS",
    "EARNED_BYE",
    "JUNIORS",
    "JUNIORS_SENIORS",
    "LATE_LOSS",
    "MASTERS",
    "OUTCOMES",
    "P1_WINS",
    "P2_WINS",
    "PLAYER_CHILDREN",
    "POD_DIVISIONS",
    "SENIORS",
    "SINGLE_OUTCOMES",
    "TIE",
    "TIMESTAMP_FORMAT",
    "TOP_CUT_ROUND",
    "UNPLAYED",
    "CategoryCut",
    "Dropped",
    "EventData",
    "Match",
    "Organizer",
    "Place",
    "Player",
    "Pod",
    "Round",
    "StandingsPod",
    "Subgroup",
    "TdfError",
    "Tournament",
    "check",
    "content_hash",
    "format_date",
    "format_timestamp",
    "parse",
    "parse_date",
    "parse_timestamp",
    "truncated",
    "write",
]
