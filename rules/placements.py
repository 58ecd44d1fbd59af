"""Final places: the order of a pod once its top cut is over (or as far as it has gone).

The recipe, the same for every event the site runs or mirrors from TOM: the top-cut players
by how far they got (the champion, then the other finalist, then the semi-finalists, ...),
players who went out in the same round ordered by their Swiss place; then everyone else in
Swiss order. A player who finished in a place of the cut but got no seed (one who dropped
after the last Swiss round, `rules.topcut.seeded_order`) is therefore first below the cut,
as TOM lists them. Without a top cut the final places are the Swiss order.

`final_order` works on one pod (players paired among themselves) at a time; the caller
numbers places within each division afterwards, if a pod holds several.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rules.errors import RulesError

__all__ = ["CutMatch", "final_order", "reached"]


@dataclass(frozen=True)
class CutMatch:
    """A top-cut match: its two players and the winner (None while undecided)."""

    a: str
    b: str | None
    winner: str | None = None


def _check(swiss_order: Sequence[str], cut_rounds: Sequence[Sequence[CutMatch]]) -> None:
    if isinstance(swiss_order, str) or len(set(swiss_order)) != len(swiss_order):
        raise RulesError("bad-input", "the Swiss order lists each player once")
    for matches in cut_rounds:
        for m in matches:
            if m.winner is not None and m.winner not in (m.a, m.b):
                raise RulesError("bad-input", f"{m.winner!r} won a match they did not play")


def final_order(swiss_order: Sequence[str], cut_rounds: Sequence[Sequence[CutMatch]]) -> list[str]:
    """The pod's final order, best first. `swiss_order` is the Swiss standings (ids, best
    first); `cut_rounds` the top cut's rounds in the order they were played (first round
    first), each the matches of that round. A match still undecided puts both its players
    among those who went out in that round (in Swiss order)."""
    _check(swiss_order, cut_rounds)
    seed = {pid: i for i, pid in enumerate(swiss_order)}

    def by_seed(ids):
        return sorted(ids, key=lambda pid: seed.get(pid, len(seed)))

    placed: list[str] = []
    for k, matches in enumerate(reversed(cut_rounds)):
        winners = [m.winner for m in matches if m.winner is not None]
        if k == 0:  # the last round played: its winners (the champion) first
            placed += [w for w in winners if w not in placed]
        out = [p for m in matches for p in (m.a, m.b) if p is not None and p not in winners]
        placed += by_seed(p for p in out if p not in placed)
    done = set(placed)
    return placed + [pid for pid in swiss_order if pid not in done]


def reached(cut_rounds: Sequence[Sequence[CutMatch]]) -> dict[str, str]:
    """How far each top-cut player got, in words: "Winner", "Final", "Top 4", "Top 8", ...
    (the round they went out in, named by how many players it had)."""
    out: dict[str, str] = {}
    last = len(cut_rounds) - 1
    for i, matches in enumerate(cut_rounds):
        size = 2 * len(matches)
        for m in matches:
            for p in (m.a, m.b):
                if p is not None:
                    out[p] = "Final" if size <= 2 else f"Top {size}"
            if i == last and m.winner is not None and size <= 2:
                out[m.winner] = "Winner"
    return out
