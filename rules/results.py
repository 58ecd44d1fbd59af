"""Match results from games, with sudden death.

A match is a list of games in the order they were played. A game ends with a winner
(`"a"` or `"b"`), with both players winning at once (`"both_won"`: both took their last
Prize card, or both were out of Pokémon, at the same moment), unfinished at time (`"tie"`),
or with a double game loss (`"double_loss"`). No-shows and staff penalties are game losses
recorded with their `reason`. A regular game is played with the format's Prize count
(`prizes`: 6, or 3 in the 1999 basic game).

Won both ways (1999 and 2011 rulebooks, `both_ways`): "if you win in both ways and your
opponent wins in only one way, you win!" The two ways are taking your last Prize card and
your opponent having no Benched Pokémon to replace a Knocked Out Active Pokémon. A game
reported `"both_won"` with how many ways each player won (`GameResult.ways`) is decided by
`both_won_outcome`: the player who won both ways against one wins the game, recorded with
the reason `"both_ways"`; otherwise it stays `"both_won"` and sudden death follows. The 1996
rulebook has no such rule (every simultaneous win goes to sudden death).

Sudden death: a game that ends `"both_won"` has no winner, so a new game is played at once,
a *replay* of it, with fewer Prize cards: 1 each by the rulebook, 6 by the current
tournament handbook's tiebreaker game. The event chooses (`sudden_death_prizes`). The replay
is the next item in the list and belongs to the same game slot; if it ends `"both_won"` too,
another replay follows, until one player wins. The chain is kept: every replay is a game.
A report never changes a game's Prize count: a game listed with a different `prizes` than
the one it is played with is refused (`prize-count`). (One game may be either: the next
game of a top-cut match level at time is the game that was on when time was called, with
the format's count, or the sudden-death game, with the event's; a report may say which.)

The 1996 sudden death (`sudden_death="continue"`) is no new game: "Both players put a 7th
Pokémon onto the battlefield ... The first player to Knock Out the seventh Pokémon of their
opponent wins. If neither player has any Pokémon that can be released at the time of
Sudden Death, the game is a draw." The continuation is the next item of the slot (as a
replay is, with `prizes` 0: no Prize cards are left) and may end `"draw"`: the slot is over
without a winner. A drawn game counts as a game win for nobody: a best of 1 is then a tie
in Swiss, and in the top cut the level match goes on with a tiebreaker game; in a best of
3 the match goes on to its next game. A draw is refused anywhere else (`invalid-result`).

The end of a round as the event's rule edition has it (`rules.editions.EndOfRound`): after
time and the extra turns, a game still unfinished is reported `"tie"` with who was ahead
on Prizes (`GameResult.ahead`: `"a"`, `"b"` or `"level"`). Where the edition says so
(`swiss_no_winner="prizes"`) the player ahead wins that Swiss game (reason
`"prizes_ahead"`); by default (`"draw"`) it stays a tie. In the top cut with
`top_cut_no_winner="prizes"` the player ahead wins the game, and when level "play continues
until a Prize is taken" (`GameResult.next_prize`, reason `"next_prize"`); the older reading
(`"sudden_death"`) keeps the sudden-death game below.

Best of 1: the winner of the game wins the match. Best of 3: the first to two game wins.
At time (`at_time`): in Swiss, the player with more game wins wins and level game wins make
a tie; in the top cut a level match is decided by a sudden-death game. An intentional draw
is a tie in Swiss and is not allowed in the top cut. A double game loss in best of 1 is a
loss for both players in Swiss.

The top cut is single elimination and needs a winner: a match that would end without one (a
double game loss in best of 1, or best of 3 level after three games) goes on with a
tiebreaker game, as the tournament handbook has it. Every game played to settle a level top-
cut match (after time, or after a double game loss) is played with the event's sudden-death
Prize count, like a replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .errors import RulesError

OUTCOMES = ("a", "b", "both_won", "tie", "double_loss", "draw")
REASONS = ("played", "no_show", "penalty", "conceded", "both_ways", "prizes_ahead", "next_prize")
#: Who was ahead on Prizes when a game was unfinished after the turns.
AHEAD = ("a", "b", "level")
#: What a game with no winner after the turns is (`rules.editions.EndOfRound`).
SWISS_NO_WINNER = ("draw", "prizes")
TOP_CUT_NO_WINNER = ("sudden_death", "prizes")
FULL_PRIZES = 6
#: How sudden death is played: a new game with the event's Prize count (1999, 2011, the
#: tournament handbook), or the same game going on (1996).
SUDDEN_DEATH_STYLES = ("new_game", "continue")
#: The Prize cards of a 1996 continuation: none are left when it starts.
CONTINUATION_PRIZES = 0


@dataclass(frozen=True)
class GameResult:
    outcome: str
    reason: str = "played"
    prizes: int | None = None  # None: filled in (the format's, or the event's sudden-death count)
    ways: tuple[int, int] | None = None  # a "both_won" game: how many ways a and b each won
    ahead: str | None = None  # an unfinished game after the turns: "a", "b" or "level"
    next_prize: str | None = None  # top cut, level: who took the next Prize ("a" or "b")


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


def both_won_outcome(a_ways: int, b_ways: int, *, both_ways: bool = True) -> str:
    """Who won a game both players won at once: `"a"` or `"b"` when that player won in both
    ways and the other in only one (and the format has the rule), else `"both_won"`
    (sudden death). Each count is 1 or 2."""
    if a_ways not in (1, 2) or b_ways not in (1, 2):
        raise RulesError("invalid-result", "Each player won in 1 or 2 ways.")
    if both_ways and a_ways != b_ways:
        return "a" if a_ways > b_ways else "b"
    return "both_won"


def resolve_match(
    games: Sequence[GameResult],
    *,
    best_of: int,
    top_cut: bool = False,
    at_time: bool = False,
    intentional_draw: bool = False,
    sudden_death_prizes: int = 1,
    prizes: int = FULL_PRIZES,
    sudden_death: str = "new_game",
    both_ways: bool = True,
    swiss_no_winner: str = "draw",
    top_cut_no_winner: str = "sudden_death",
) -> Resolution:
    """Place `games` in their slots and decide the match. Raises `RulesError` with code
    `invalid-result` for a list that cannot have happened (a game after the match was
    decided, an unknown outcome, an unfinished game without time being called, a draw
    outside a 1996 sudden death), and `prize-count` for a game listed with a Prize count
    that is not the one it is played with."""
    if best_of not in (1, 3):
        raise RulesError("invalid-result", f"A match is best of 1 or best of 3, not {best_of}.")
    if not 1 <= prizes <= FULL_PRIZES:
        raise RulesError(
            "invalid-result", f"A game is played with 1 to 6 Prize cards, not {prizes}."
        )
    if sudden_death_prizes not in (1, prizes, FULL_PRIZES) or sudden_death_prizes > prizes:
        raise RulesError(
            "invalid-result",
            f"Sudden death is played with 1 Prize card or the format's {prizes}, "
            f"not {sudden_death_prizes}.",
        )
    if sudden_death not in SUDDEN_DEATH_STYLES:
        raise RulesError("invalid-result", f"Unknown sudden-death style {sudden_death!r}.")
    if swiss_no_winner not in SWISS_NO_WINNER or top_cut_no_winner not in TOP_CUT_NO_WINNER:
        raise RulesError("invalid-result", "Unknown end-of-round rule.")
    continues = sudden_death == "continue"
    if intentional_draw:
        if top_cut:
            raise RulesError("invalid-result", "An intentional draw is not allowed in the top cut.")
        if games:
            raise RulesError("invalid-result", "An intentional draw has no games.")
        return Resolution("tie", 0, 0, (), None)

    need = best_of // 2 + 1
    a_wins = b_wins = 0
    draws = 0
    placed: list[PlayedGame] = []
    number, sequence = 1, 0
    replay_pending = False
    for index, game in enumerate(games, start=1):
        if game.outcome not in OUTCOMES:
            raise RulesError("invalid-result", f"Game {index}: unknown outcome {game.outcome!r}.")
        if game.reason not in REASONS:
            raise RulesError("invalid-result", f"Game {index}: unknown reason {game.reason!r}.")
        if _decided(placed, a_wins, b_wins, need, best_of, top_cut) and not replay_pending:
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
        if game.outcome == "draw" and not (continues and replay_pending):
            raise RulesError(
                "invalid-result",
                f"Game {index}: a game ends in a draw only in the 1996 sudden death, when "
                "neither player has a Pokémon to put in"
                + ("." if continues else "; this event plays sudden death as a new game."),
            )
        outcome, reason = game.outcome, game.reason
        if outcome == "tie":
            rule = top_cut_no_winner if top_cut else swiss_no_winner
            outcome, reason = _after_the_turns(game, index, top_cut=top_cut, rule=rule)
        elif game.ahead is not None or game.next_prize is not None:
            raise RulesError(
                "invalid-result", f"Game {index}: Prizes ahead belong to a game unfinished at time."
            )
        if reason == "both_ways" and not both_ways:
            raise RulesError(
                "invalid-result",
                f'Game {index}: this format\'s rules have no "won both ways"; a game both '
                "players won at once goes to sudden death.",
            )
        if outcome == "both_won" and game.ways is not None:
            outcome = both_won_outcome(*game.ways, both_ways=both_ways)
            if outcome != "both_won":
                reason = "both_ways"
        settling = top_cut and _level_and_over(placed, a_wins, b_wins, best_of)
        if replay_pending and continues:
            expected, why = CONTINUATION_PRIZES, "the 1996 sudden death goes on without Prize cards"
        elif replay_pending or settling:
            expected, why = sudden_death_prizes, "the event's sudden death"
        else:
            expected, why = prizes, "the format's Prize count"
        if (
            not replay_pending
            and not settling
            and top_cut
            and at_time
            and placed
            and a_wins == b_wins
            and game.prizes == sudden_death_prizes
        ):
            # Level at time in the top cut: the next game is either the game that was on
            # when time was called (the format's Prize count) or the sudden-death game that
            # settles the match (the event's); a report may say which, nothing else.
            expected = sudden_death_prizes
        if game.prizes is not None and game.prizes != expected:
            raise RulesError(
                "prize-count",
                f"Game {index} is played with {_prize_cards(expected)} each ({why}), not "
                f"{game.prizes}; a report cannot change it. Leave the Prize count out, or ask "
                "the staff to change the event.",
            )
        placed.append(PlayedGame(number, sequence, outcome, reason, expected))
        if outcome == "both_won":
            replay_pending = True
            sequence += 1
            continue
        replay_pending = False
        if outcome == "a":
            a_wins += 1
        elif outcome == "b":
            b_wins += 1
        elif outcome == "draw":
            draws += 1
        number, sequence = number + 1, 0

    if replay_pending and continues:
        return Resolution(
            None,
            a_wins,
            b_wins,
            tuple(placed),
            NextGame(
                number,
                sequence,
                CONTINUATION_PRIZES,
                "both players won at once: sudden death, the game goes on",
            ),
        )
    if replay_pending:
        return Resolution(
            None,
            a_wins,
            b_wins,
            tuple(placed),
            NextGame(
                number, sequence, sudden_death_prizes, "both players won at once: sudden death"
            ),
        )
    if a_wins >= need or b_wins >= need:
        return Resolution("a" if a_wins > b_wins else "b", a_wins, b_wins, tuple(placed), None)
    if top_cut and _level_and_over(placed, a_wins, b_wins, best_of) and not at_time:
        return Resolution(
            None,
            a_wins,
            b_wins,
            tuple(placed),
            NextGame(number, 0, sudden_death_prizes, "no winner in the top cut: a tiebreaker game"),
        )
    if best_of == 1 and placed and placed[-1].outcome == "double_loss":
        return Resolution("double_loss", 0, 0, tuple(placed), None)
    if best_of == 1 and placed and placed[-1].outcome == "draw":
        return Resolution("tie", 0, 0, tuple(placed), None)
    if at_time:
        if a_wins != b_wins:
            return Resolution("a" if a_wins > b_wins else "b", a_wins, b_wins, tuple(placed), None)
        if not top_cut:
            return Resolution("tie", a_wins, b_wins, tuple(placed), None)
        return Resolution(
            None,
            a_wins,
            b_wins,
            tuple(placed),
            NextGame(number, 0, sudden_death_prizes, "level at time in the top cut: sudden death"),
        )
    if best_of == 3 and len([g for g in placed if not g.is_replay]) >= 3:
        # Three games with double losses and no winner: nobody can reach two wins.
        if a_wins == b_wins:
            return Resolution(
                "double_loss" if a_wins == 0 and not draws else "tie",
                a_wins,
                b_wins,
                tuple(placed),
                None,
            )
        return Resolution("a" if a_wins > b_wins else "b", a_wins, b_wins, tuple(placed), None)
    return Resolution(None, a_wins, b_wins, tuple(placed), NextGame(number, 0, prizes, "next game"))


def _after_the_turns(game: GameResult, index: int, *, top_cut: bool, rule: str) -> tuple[str, str]:
    """The outcome and reason of a game unfinished after the turns, by the edition's rule
    (`rule`: `swiss_no_winner` in Swiss, `top_cut_no_winner` in the top cut)."""
    if game.ahead is not None and game.ahead not in AHEAD:
        raise RulesError("invalid-result", f"Game {index}: ahead must be a, b or level.")
    if game.next_prize is not None and game.next_prize not in ("a", "b"):
        raise RulesError("invalid-result", f"Game {index}: the next Prize was taken by a or b.")
    if rule not in ("prizes",):
        return "tie", game.reason  # a draw (Swiss) or the older sudden death (top cut)
    if game.ahead in ("a", "b"):
        return game.ahead, "prizes_ahead"
    if not top_cut:
        return "tie", game.reason  # level on Prizes in Swiss: a draw
    if game.ahead is None:
        raise RulesError(
            "invalid-result",
            f"Game {index} was unfinished after the turns: say who was ahead on Prizes "
            "(or that it was level).",
        )
    if game.next_prize is None:
        raise RulesError(
            "invalid-result",
            f"Game {index} was level on Prizes: play continues until a Prize is taken. Who "
            "took it?",
        )
    return game.next_prize, "next_prize"


def _prize_cards(n: int) -> str:
    return "no Prize cards" if n == 0 else f"{n} Prize card" + ("" if n == 1 else "s")


def _decided(
    placed: list[PlayedGame], a_wins: int, b_wins: int, need: int, best_of: int, top_cut: bool
) -> bool:
    if max(a_wins, b_wins) >= need:
        return True
    return (
        not top_cut
        and best_of == 1
        and bool(placed)
        and placed[-1].outcome in ("double_loss", "draw")
    )


def _level_and_over(placed: list[PlayedGame], a_wins: int, b_wins: int, best_of: int) -> bool:
    """The regular games are over with nobody ahead: after time was called on an unfinished
    game, after a best-of-1 double game loss, or after three best-of-3 games level."""
    if not placed or a_wins != b_wins:
        return False
    if placed[-1].outcome == "tie":
        return True
    if best_of == 1:
        return placed[-1].outcome in ("double_loss", "draw")
    return len([g for g in placed if not g.is_replay]) >= 3


def games_from_payload(payload: object) -> list[GameResult]:
    """Read the games of a report (`[{"outcome", "reason"?, "prizes"?, "ways"?, "ahead"?,
    "next_prize"?}, ...]`); `ways` (a `"both_won"` game) is `{"a": 1|2, "b": 1|2}`; `ahead`
    (a game unfinished after the turns) is `"a"`, `"b"` or `"level"`, `next_prize` `"a"` or
    `"b"`."""
    if not isinstance(payload, list):
        raise RulesError("invalid-result", "The games must be a list.")
    games = []
    for index, item in enumerate(payload, start=1):
        if not isinstance(item, dict) or "outcome" not in item:
            raise RulesError("invalid-result", f"Game {index} needs an outcome.")
        prizes = item.get("prizes")
        if prizes is not None and (
            not isinstance(prizes, int) or isinstance(prizes, bool) or not 0 <= prizes <= 6
        ):
            raise RulesError("invalid-result", f"Game {index}: prizes must be 0 to 6.")
        ways = item.get("ways")
        if ways is not None:
            if not (
                isinstance(ways, dict)
                and set(ways) == {"a", "b"}
                and all(type(v) is int and v in (1, 2) for v in ways.values())
            ):
                raise RulesError(
                    "invalid-result", f'Game {index}: ways must be {{"a": 1 or 2, "b": 1 or 2}}.'
                )
            if item["outcome"] != "both_won":
                raise RulesError(
                    "invalid-result", f"Game {index}: ways belong to a game both players won."
                )
            ways = (ways["a"], ways["b"])
        ahead, next_prize = item.get("ahead"), item.get("next_prize")
        if ahead is not None and ahead not in AHEAD:
            raise RulesError("invalid-result", f"Game {index}: ahead must be a, b or level.")
        if next_prize is not None and next_prize not in ("a", "b"):
            raise RulesError("invalid-result", f"Game {index}: next_prize must be a or b.")
        games.append(
            GameResult(
                str(item["outcome"]),
                str(item.get("reason", "played")),
                prizes,
                ways,
                ahead=ahead,
                next_prize=next_prize,
            )
        )
    return games


def result_snapshot(
    *,
    result: str,
    games: Sequence,
    at_time: bool,
    intentional_draw: bool,
    extra_turns: int | None = None,
) -> dict:
    """A result in the one form that reports, the result history and the pages store and
    compare: `{"result", "games": [{"number", "sequence", "outcome", "reason", "prizes"}],
    "at_time", "intentional_draw"}`, and `"extra_turns"` when the turns played after time
    were reported. `games` are anything with those attributes (the `PlayedGame`s of a
    `Resolution`, or stored game rows), in the order played."""
    snapshot = {
        "result": result,
        "games": [
            {
                "number": g.number,
                "sequence": g.sequence,
                "outcome": g.outcome,
                "reason": g.reason,
                "prizes": g.prizes,
            }
            for g in games
        ],
        "at_time": bool(at_time),
        "intentional_draw": bool(intentional_draw),
    }
    if extra_turns is not None:
        snapshot["extra_turns"] = extra_turns
    return snapshot


def same_result(first: dict | None, second: dict | None) -> bool:
    """Whether two snapshots (`result_snapshot`) say the same: equal, except that a game won
    both ways and the same game reported simply as won are one game."""

    def plain(snapshot: dict | None) -> dict | None:
        if not snapshot:
            return snapshot
        games = [
            {**g, "reason": "played"} if g.get("reason") == "both_ways" else g
            for g in snapshot.get("games", [])
        ]
        return {**snapshot, "games": games}

    return plain(first) == plain(second)
