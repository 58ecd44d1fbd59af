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
from .results import GameResult

#: (code, label): the infraction categories of the penalty guidelines. The labels are the
#: English; the site's words for them (translatable, one recipe) are in floor/wording.py.
INFRACTIONS: tuple[tuple[str, str], ...] = (
    ("tardiness", "Tardiness"),
    ("procedural-minor", "Procedural Error – Minor"),
    ("procedural-major", "Procedural Error – Major"),
    ("deck-decklist", "Deck/Decklist problem"),
    ("marked-cards", "Marked cards"),
    ("slow-play", "Slow play"),
    ("unsporting-minor", "Unsporting Conduct – Minor"),
    ("unsporting-major", "Unsporting Conduct – Major"),
    ("unsporting-severe", "Unsporting Conduct – Severe"),
    ("cheating", "Cheating"),
)

CAUTION = "caution"
WARNING = "warning"
PRIZE = "prize"
GAME_LOSS = "game-loss"
MATCH_LOSS = "match-loss"
DISQUALIFICATION = "disqualification"

#: (code, label), least to most severe.
PENALTIES: tuple[tuple[str, str], ...] = (
    (CAUTION, "Caution"),
    (WARNING, "Warning"),
    (PRIZE, "Prize penalty"),
    (GAME_LOSS, "Game loss"),
    (MATCH_LOSS, "Match loss"),
    (DISQUALIFICATION, "Disqualification"),
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
        return f"Prize penalty ({prizes} Prize{'' if prizes == 1 else 's'})"
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
