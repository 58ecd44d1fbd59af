"""Board-game nights: multi-player games with one winner at each table.

Hasbro's Pokémon Master Trainer (1999) is played by "2 to 6 Players" and ends when one
trainer wins: "If you beat one of the Pokémon Masters, the game is over and you win!" The
rulebook names a winner and nobody else, so a table's result is its winner; a league may
also take down the full finishing order, a house rule (the rulebook has no second place).

Terms:
- a *sitting* is one game of the night: every player present is seated at a table;
- `table_sizes(n)` splits `n` players into as few tables as the 6-seat limit allows, as
  evenly as possible (13 → 5, 4, 4); a single player cannot play;
- `seat(players, seed=...)` shuffles with the given seed (never global randomness) and
  fills the tables in order;
- `night_places` turns the tables' results into places for the league's points table.

A night's places: players are ranked by games won, then (when finishing orders are kept)
by the sum of their finishing positions, lower first. Equal players share a place and the
next place skips (1, 1, 1, 4), as the league's leaderboard does. With one game and winners
only, the table winners share 1st place and everyone else shares the place after them.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .errors import RulesError

MIN_PLAYERS = 2  # "For 2 to 6 Players"
MAX_PLAYERS = 6


def table_sizes(
    players: int, *, min_size: int = MIN_PLAYERS, max_size: int = MAX_PLAYERS
) -> list[int]:
    """The sizes of the tables for `players` players, largest first: the fewest tables of
    at most `max_size`, their sizes differing by at most one. Raises `too-few-players`
    below `min_size` (a board game has no bye)."""
    if not MIN_PLAYERS <= min_size <= max_size:
        raise RulesError("bad-input", f"Table sizes {min_size}..{max_size} are not possible.")
    if players < min_size:
        raise RulesError(
            "too-few-players",
            f"A table needs at least {min_size} players; {players} present.",
        )
    tables = -(-players // max_size)  # ceil
    base, extra = divmod(players, tables)
    # tables = ceil(n / max) makes base >= max - tables + 1 >= min for any n >= min, since
    # min <= max / 2 + 1 holds for 2..6; checked all the same.
    if base < min_size:  # pragma: no cover - not reachable with 2..6 seats
        raise RulesError("bad-input", f"{players} players cannot sit at tables of {min_size}+.")
    return [base + 1] * extra + [base] * (tables - extra)


def seat(players: Sequence[int], *, seed: str) -> list[list[int]]:
    """`players` (ids) seated at random at `table_sizes(len(players))` tables, seat by seat.
    The same seed and players give the same seating."""
    if len(set(players)) != len(players):
        raise RulesError("duplicate-player", "A player can sit at one table only.")
    sizes = table_sizes(len(players))
    order = sorted(players)
    random.Random(seed).shuffle(order)
    tables, start = [], 0
    for size in sizes:
        tables.append(order[start : start + size])
        start += size
    return tables


@dataclass(frozen=True)
class TableResult:
    """One table of one game: who sat there, and either the winner only (`order` has one
    entry) or the full finishing order (house rule), winner first."""

    players: tuple[int, ...]
    order: tuple[int, ...]

    def __post_init__(self):
        check_order(self.players, self.order)


def check_order(players: Iterable[int], order: Sequence[int]) -> None:
    """A table's reported order: a winner seated there, or every player exactly once."""
    players = set(players)
    if not order:
        raise RulesError("invalid-result", "Say who won the game.")
    if len(set(order)) != len(order) or not set(order) <= players:
        raise RulesError("invalid-result", "Only the players at the table can finish, once each.")
    if len(order) not in (1, len(players)):
        raise RulesError(
            "invalid-result", "Give the winner only, or every player's finishing place."
        )


@dataclass(frozen=True)
class NightPlace:
    player: int
    place: int
    wins: int
    games: int


def night_places(results: Iterable[TableResult], *, full_order: bool) -> list[NightPlace]:
    """Places for everyone who sat at a table: by games won, then (with `full_order`) by
    the sum of finishing positions; equal players share a place (1, 1, 1, 4)."""
    wins: dict[int, int] = {}
    games: dict[int, int] = {}
    position_sum: dict[int, int] = {}
    for table in results:
        for player in table.players:
            wins.setdefault(player, 0)
            games[player] = games.get(player, 0) + 1
            position_sum.setdefault(player, 0)
        wins[table.order[0]] += 1
        if full_order:
            if len(table.order) != len(table.players):
                raise RulesError("result-incomplete", "Every table needs its full finishing order.")
            for position, player in enumerate(table.order, start=1):
                position_sum[player] += position

    def key(p: int) -> tuple[int, int]:
        return (-wins[p], position_sum[p] if full_order else 0)

    ranked = sorted(wins, key=lambda p: (key(p), p))
    out: list[NightPlace] = []
    for index, player in enumerate(ranked):
        same = out and key(ranked[index - 1]) == key(player)
        place = out[-1].place if same else index + 1
        out.append(NightPlace(player, place, wins[player], games[player]))
    return out
