"""Match results from games, with sudden death.

A match is a list of games in the order they were played. A game ends with a winner
(`"a"` or `"b"`), with both players winning at once (`"both_won"`: both took their last
Prize card, or both were out of Pokémon, at the same moment), unfinished at time (`"tie"`),
or with a double game loss (`"double_loss"`). No-shows and staff penalties are game losses
recorded with their `reason`.

Sudden death: a game that ends `"both_won"` has no winner, so a new game is played at once,
a *replay* of it, with fewer Prize cards: 1 each by the rulebook, 6 by the current
tournament handbook's tiebreaker game. The event chooses (`sudden_death_prizes`). The replay
is the next item in the list and belongs to the same game slot; if it ends `"both_won"` too,
another replay follows, until one player wins. The chain is kept: every replay is a game.

Best of 1: the winner of the game wins the match. Best of 3: the first to two game wins.
At time (`at_time`): in Swiss, the player with more game wins wins and level game wins make
a tie; in the top cut a level match is decided by a sudden-death game. An intentional draw
is a tie in Swiss and is not allowed in the top cut. A double game loss in best of 1 is a
loss for both players.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RulesError

OUTCOMES = ("a", "b", "both_won", "tie", "double_loss")
REASONS = ("played", "no_show", "penalty", "conceded")
FULL_PRIZES = 6


@dataclass(frozen=True)
class GameResult:
    outcome: str
    reason: str = "played"
    prizes: int | None = None  # None: filled in (6, or the event's sudden-death count)


@dataclass(frozen=True)
class PlayedGame:
    """A game placed in its slot: `number` 1, 2, 3…; `sequence` 0 for the first game in the
    slot, 1, 2… for its sudden-death replays."""

    number: int
    sequence: int
    outcome: str
    reason: str
    prizes: int

    @property
    def is_replay(self) -> bool:
        return self.sequence > 0


@dataclass(frozen=True)
class NextGame:
    number: int
    sequence: int
    prizes: int
    why: str


@dataclass(frozen=True)
class Resolution:
    result: str | None  # "a" | "b" | "tie" | "double_loss", or None while games are still due
    a_wins: int
    b_wins: int
    games: tuple[PlayedGame, ...]
    next_game: NextGame | None

    @property
    def complete(self) -> bool:
        return self.result is not None


def resolve_match(
    games: Sequence[GameResult],
    *,
    best_of: int,
    top_cut: bool = False,
    at_time: bool = False,
    intentional_draw: bool = False,
    sudden_death_prizes: int = 1,
) -> Resolution:
    """Place `games` in their slots and decide the match. Raises `RulesError` with code
    `invalid-result` for a list that cannot have happened (a game after the match was
    decided, an unknown outcome, an unfinished game without time being called)."""
    if best_of not in (1, 3):
        raise RulesError("invalid-result", f"A match is best of 1 or best of 3, not {best_of}.")
    if sudden_death_prizes not in (1, 6):
        raise RulesError("invalid-result", "Sudden death is played with 1 or 6 Prize cards.")
    if intentional_draw:
        if top_cut:
            raise RulesError("invalid-result", "An intentional draw is not allowed in the top cut.")
        if games:
            raise RulesError("invalid-result", "An intentional draw has no games.")
        return Resolution("tie", 0, 0, (), None)

    need = best_of // 2 + 1
    a_wins = b_wins = 0
    placed: list[PlayedGame] = []
    number, sequence = 1, 0
    replay_pending = False
    for index, game in enumerate(games, start=1):
        if game.outcome not in OUTCOMES:
            raise RulesError("invalid-result", f"Game {index}: unknown outcome {game.outcome!r}.")
        if game.reason not in REASONS:
            raise RulesError("invalid-result", f"Game {index}: unknown reason {game.reason!r}.")
        if _decided(placed, a_wins, b_wins, need, best_of) and not replay_pending:
            raise RulesError(
                "invalid-result", f"Game {index} was listed after the match was already decided."
            )
        if placed and placed[-1].outcome == "tie" and not top_cut:
            raise RulesError(
                "invalid-result", f"Game {index}: no game follows an unfinished game in Swiss."
            )
        if game.outcome == "tie" and not at_time:
            raise RulesError(
                "invalid-result", f"Game {index} is unfinished, but time was not called."
            )
        default_prizes = sudden_death_prizes if replay_pending else FULL_PRIZES
        prizes = game.prizes if game.prizes is not None else default_prizes
        placed.append(PlayedGame(number, sequence, game.outcome, game.reason, prizes))
        if game.outcome == "both_won":
            replay_pending = True
            sequence += 1
            continue
        replay_pending = False
        if game.outcome == "a":
            a_wins += 1
        elif game.outcome == "b":
            b_wins += 1
        number, sequence = number + 1, 0

    if replay_pending:
        return Resolution(
            None, a_wins, b_wins, tuple(placed),
            NextGame(number, sequence, sudden_death_prizes, "both players won at once: sudden death"),
        )  # fmt: skip
    if a_wins >= need or b_wins >= need:
        return Resolution("a" if a_wins > b_wins else "b", a_wins, b_wins, tuple(placed), None)
    if best_of == 1 and placed and placed[-1].outcome == "double_loss":
        return Resolution("double_loss", 0, 0, tuple(placed), None)
    if at_time:
        if a_wins != b_wins:
            return Resolution("a" if a_wins > b_wins else "b", a_wins, b_wins, tuple(placed), None)
        if not top_cut:
            return Resolution("tie", a_wins, b_wins, tuple(placed), None)
        return Resolution(
            None, a_wins, b_wins, tuple(placed),
            NextGame(number, 0, sudden_death_prizes, "level at time in the top cut: sudden death"),
        )  # fmt: skip
    if best_of == 3 and len([g for g in placed if not g.is_replay]) >= 3:
        # Three games with double losses and no winner: nobody can reach two wins.
        if a_wins == b_wins:
            return Resolution("double_loss" if a_wins == 0 else "tie", a_wins, b_wins, tuple(placed), None)
        return Resolution("a" if a_wins > b_wins else "b", a_wins, b_wins, tuple(placed), None)
    return Resolution(None, a_wins, b_wins, tuple(placed), NextGame(number, 0, FULL_PRIZES, "next game"))


def _decided(placed: list[PlayedGame], a_wins: int, b_wins: int, need: int, best_of: int) -> bool:
    if max(a_wins, b_wins) >= need:
        return True
    return best_of == 1 and bool(placed) and placed[-1].outcome == "double_loss"


def games_from_payload(payload: object) -> list[GameResult]:
    """Read the games of a report (`[{"outcome", "reason"?, "prizes"?}, ...]`)."""
    if not isinstance(payload, list):
        raise RulesError("invalid-result", "The games must be a list.")
    games = []
    for index, item in enumerate(payload, start=1):
        if not isinstance(item, dict) or "outcome" not in item:
            raise RulesError("invalid-result", f"Game {index} needs an outcome.")
        prizes = item.get("prizes")
        if prizes is not None and (not isinstance(prizes, int) or not 1 <= prizes <= 6):
            raise RulesError("invalid-result", f"Game {index}: prizes must be 1 to 6.")
        games.append(GameResult(str(item["outcome"]), str(item.get("reason", "played")), prizes))
    return games
