"""Infractions and penalties on the floor, after the Play! Pokémon Tournament Rules
Handbook's penalty guidelines, and how a penalty turns into games of a match.

The one place the categories and penalties are listed: the models, forms, API and pages
take their choices from here.

A penalty that costs games (`GAME_LOSS`, `MATCH_LOSS`, `DISQUALIFICATION`) is written as
games the opponent won with reason `"penalty"`, so the match result is decided by the same
rules as any other result (`rules.results.resolve_match`):
- a game loss is one such game after the games already played;
- a match loss (and a disqualification in a match without a result) is as many such games
  as it takes the opponent to win the match, with no other games.
"""

from __future__ import annotations

from collections.abc import Sequence

from .errors import RulesError
from .i18n import gettext_noop, ngettext
from .results import GameResult

#: (code, label): the infraction categories of the penalty guidelines. Labels are marked for
#: the catalogues (`rules.i18n`); the site translates them at display by their English.
INFRACTIONS: tuple[tuple[str, str], ...] = (
    ("tardiness", gettext_noop("Tardiness")),
    ("procedural-minor", gettext_noop("Procedural Error – Minor")),
    ("procedural-major", gettext_noop("Procedural Error – Major")),
    ("deck-decklist", gettext_noop("Deck/Decklist problem")),
    ("marked-cards", gettext_noop("Marked cards")),
    ("slow-play", gettext_noop("Slow play")),
    ("unsporting-minor", gettext_noop("Unsporting Conduct – Minor")),
    ("unsporting-major", gettext_noop("Unsporting Conduct – Major")),
    ("unsporting-severe", gettext_noop("Unsporting Conduct – Severe")),
    ("cheating", gettext_noop("Cheating")),
)

CAUTION = "caution"
WARNING = "warning"
PRIZE = "prize"
GAME_LOSS = "game-loss"
MATCH_LOSS = "match-loss"
DISQUALIFICATION = "disqualification"

#: (code, label), least to most severe.
PENALTIES: tuple[tuple[str, str], ...] = (
    (CAUTION, gettext_noop("Caution")),
    (WARNING, gettext_noop("Warning")),
    (PRIZE, gettext_noop("Prize penalty")),
    (GAME_LOSS, gettext_noop("Game loss")),
    (MATCH_LOSS, gettext_noop("Match loss")),
    (DISQUALIFICATION, gettext_noop("Disqualification")),
)

INFRACTION_LABELS = dict(INFRACTIONS)
PENALTY_LABELS = dict(PENALTIES)
MAX_PRIZES = 6


def check_penalty(infraction: str, penalty: str, prizes: int | None) -> None:
    """Raises `invalid-penalty` for an unknown category or penalty, or a Prize count that
    does not fit (a Prize penalty takes 1 to 6 Prizes; no other penalty takes any)."""
    if infraction not in INFRACTION_LABELS:
        raise RulesError("invalid-penalty", f"Unknown infraction {infraction!r}.")
    if penalty not in PENALTY_LABELS:
        raise RulesError("invalid-penalty", f"Unknown penalty {penalty!r}.")
    if penalty == PRIZE:
        if not prizes or not 1 <= prizes <= MAX_PRIZES:
            raise RulesError("invalid-penalty", "A Prize penalty takes 1 to 6 Prize cards.")
    elif prizes:
        raise RulesError("invalid-penalty", "Only a Prize penalty takes Prize cards.")


def penalty_label(penalty: str, prizes: int | None = None) -> str:
    if penalty == PRIZE and prizes:
        return ngettext(
            "Prize penalty (%(count)s Prize)", "Prize penalty (%(count)s Prizes)", prizes
        ) % {"count": prizes}
    return PENALTY_LABELS.get(penalty, penalty)


def costs_games(penalty: str) -> bool:
    return penalty in (GAME_LOSS, MATCH_LOSS, DISQUALIFICATION)


def penalty_games(
    penalty: str, *, penalised: str, played: Sequence[GameResult], best_of: int
) -> list[GameResult]:
    """The games of the match once `penalty` is applied to side `penalised` ("a" or "b"):
    `played` plus one game loss, or for a match loss / disqualification only the game
    losses that give the opponent the match."""
    if penalised not in ("a", "b"):
        raise RulesError("invalid-penalty", f"Unknown side {penalised!r}.")
    lost = GameResult("b" if penalised == "a" else "a", reason="penalty")
    if penalty == GAME_LOSS:
        return [*played, lost]
    if penalty in (MATCH_LOSS, DISQUALIFICATION):
        return [lost] * (best_of // 2 + 1)
    raise RulesError("invalid-penalty", f"A {penalty_label(penalty)} costs no games.")


def repeat_infractions(infractions: Sequence[str]) -> set[str]:
    """The categories that occur more than once in a player's history."""
    seen: set[str] = set()
    repeated: set[str] = set()
    for code in infractions:
        (repeated if code in seen else seen).add(code)
    return repeated
