"""Single-elimination top cut, seeded from the Swiss standings.

`bracket` places the seeds in the standard order, so that the better seed always meets the
worse one and the top two seeds can only meet in the final: for a top 8 the first round is
1v8, 4v5, 2v7, 3v6, and the winners of 1v8 and 4v5 meet in one semi-final while those of 2v7
and 3v6 meet in the other.  The pairs are listed in bracket order (the order of the lines on
the bracket sheet); `next_round` pairs neighbouring winners, kept in that order, for the next
round.  Within a pair the better seed comes first.  `bracket_layout` draws the sheet:
a column per round, each box fed by two boxes of the column before.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass

from rules.errors import RulesError

__all__ = [
    "BracketBox",
    "BracketColumn",
    "bracket",
    "bracket_layout",
    "bracket_order",
    "next_round",
    "seeded_order",
]


def _check_ids(ids: Sequence[str], what: str) -> list[str]:
    if isinstance(ids, str) or not isinstance(ids, Sequence):
        raise RulesError("bad-input", f"{what} must be a sequence of player ids")
    out = list(ids)
    for pid in out:
        if not isinstance(pid, str) or not pid:
            raise RulesError("bad-player-id", f"player ids must be non-empty strings, got {pid!r}")
    if len(set(out)) != len(out):
        raise RulesError("duplicate-player", f"{what} lists a player twice")
    return out


def bracket_order(size: int) -> list[int]:
    """Seed numbers (1-based) in bracket order: 2 → [1, 2]; 4 → [1, 4, 2, 3];
    8 → [1, 8, 4, 5, 2, 7, 3, 6].  Each round doubles the bracket by putting seed
    ``2m + 1 - s`` next to every seed ``s`` of the ``m``-seed bracket."""
    if isinstance(size, bool) or not isinstance(size, int) or size < 2 or size & (size - 1):
        raise RulesError("bad-top-cut", f"a top cut has 2, 4, 8, 16, ... players, not {size!r}")
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, total - s)]
    return order


def bracket(seeds: Sequence[str]) -> list[tuple[str, str]]:
    """First-round pairs of a top cut, in bracket order; ``seeds`` best first (seed 1 is
    ``seeds[0]``) and a power of two long."""
    players = _check_ids(seeds, "seeds")
    order = bracket_order(len(players))
    return [(players[order[k] - 1], players[order[k + 1] - 1]) for k in range(0, len(order), 2)]


def next_round(winners_in_bracket_order: Sequence[str]) -> list[tuple[str, str]]:
    """Pairs for the next round from the previous round's winners, given in bracket order
    (the winner of the first pair first).  A single winner is the champion: no more pairs."""
    winners = _check_ids(winners_in_bracket_order, "winners")
    if len(winners) == 1:
        return []
    if not winners or len(winners) & (len(winners) - 1):
        raise RulesError(
            "bad-top-cut", f"a top-cut round needs 2, 4, 8, ... winners, not {len(winners)}"
        )
    return [(winners[k], winners[k + 1]) for k in range(0, len(winners), 2)]


def seeded_order(order: Sequence[str], size: int, dropped: Collection[str]) -> list[str]:
    """The Swiss order with the top cut taken out of it, as TOM lists it: the first ``size``
    players of ``order`` (the standings, best first) who have not dropped are the seeds, in
    that order; everyone else follows in standings order.  A player who dropped after the
    last Swiss round gets no seed, so one who finished in a place of the cut is listed first
    below it (TOM's harness event drop-after-swiss-cup, p15)."""
    players = _check_ids(order, "order")
    if isinstance(size, bool) or not isinstance(size, int) or size < 0:
        raise RulesError("bad-top-cut", f"a top cut size is a whole number, not {size!r}")
    gone = set(dropped)
    seeds = [pid for pid in players if pid not in gone][:size]
    chosen = set(seeds)
    return seeds + [pid for pid in players if pid not in chosen]


@dataclass(frozen=True)
class BracketBox:
    """One box of a bracket sheet. `table` is the played match at this place (None while
    its round is not paired: `a` and `b` are then the winners of its two feeders, once
    known); `winner` is the id of the player who won it, if any."""

    table: int | None
    a: str | None
    b: str | None
    winner: str | None


@dataclass(frozen=True)
class BracketColumn:
    title: str  # "Top 8", "Top 4", "Final"
    round_index: int  # 0 for the top cut's first round
    boxes: tuple[BracketBox, ...]


def bracket_layout(
    first_round_tables: int,
    rounds: Sequence[Mapping[int, tuple[str | None, str | None, str | None]]],
) -> list[BracketColumn]:
    """The columns of a bracket sheet: one per round of a top cut whose first round has
    `first_round_tables` matches, each with its boxes in bracket order (table 1 first, box
    ``k`` of a column fed by boxes ``2k`` and ``2k + 1`` of the one before). `rounds[i]` maps
    the table numbers of round ``i`` paired so far to ``(a, b, winner)``; rounds not paired
    yet get open boxes holding the winners known so far."""
    size = 2 * first_round_tables
    columns: list[BracketColumn] = []
    previous: list[BracketBox] = []
    for i in range(max(1, size.bit_length() - 1)):
        played = rounds[i] if i < len(rounds) else {}
        boxes = []
        for k in range(max(1, size >> (i + 1))):
            if k + 1 in played:
                a, b, winner = played[k + 1]
                boxes.append(BracketBox(table=k + 1, a=a, b=b, winner=winner))
            else:
                feeders = previous[2 * k : 2 * k + 2]
                winners = [f.winner for f in feeders] + [None, None]
                boxes.append(BracketBox(table=None, a=winners[0], b=winners[1], winner=None))
        left = size >> i
        columns.append(
            BracketColumn(
                title="Final" if left <= 2 else f"Top {left}", round_index=i, boxes=tuple(boxes)
            )
        )
        previous = boxes
    return columns
