""" "Why am I 9th?": a player's tiebreakers worked out step by step, in the terms of
`rules.standings` (its module docstring defines them).

For each opponent (one line a match against a real opponent): their record, their win
rate as played, the floor and the cap as applied, and the value that enters the player's
OWP; the OWP is the mean of those values; the OOWP is the mean of the opponents' own OWPs
(read from the standings). What this reading leaves out, the standings engine still counts:
an earned bye as a 100 % opponent, a late entrant's forced losses, and a dropped player's
tiebreakers frozen at their drop; `Explanation.owp` may then differ from the standings'
value, and the page says so.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .scoring import PLAY_POKEMON, RuleSet


@dataclass(frozen=True)
class OpponentLine:
    opponent: str
    round: int
    wins: int
    losses: int
    ties: int
    byes: int
    played: int  # rounds that count for the win rate (byes do not)
    win_rate: Fraction  # as played, before the floor and the cap
    applied: Fraction  # what enters the OWP
    note: str  # "floor", "cap" or ""
    owp: Fraction | None  # the opponent's own OWP (from the standings), for the OOWP


@dataclass(frozen=True)
class Explanation:
    opponents: tuple[OpponentLine, ...]
    owp: Fraction
    oowp: Fraction
    floor: Fraction
    cap: Fraction


def explain(
    player: str,
    results: Sequence[tuple[int, str, str | None, str]],
    *,
    dropped_early: set[str] = frozenset(),
    owp_of: Mapping[str, float] | None = None,
    rules: RuleSet = PLAY_POKEMON,
) -> Explanation:
    """`results`: the Swiss results `(round, a, b, result)` (`b` None for a bye; result
    "a", "b", "tie" or "double_loss"); `dropped_early`: players who dropped before the last
    Swiss round (capped); `owp_of`: each player's OWP as the standings have it."""
    record: dict[str, list[int]] = {}  # wins, losses, ties, byes

    def line(pid: str) -> list[int]:
        return record.setdefault(pid, [0, 0, 0, 0])

    for _round, a, b, result in results:
        if b is None:
            line(a)[3] += 1
            continue
        if result == "a":
            line(a)[0] += 1
            line(b)[1] += 1
        elif result == "b":
            line(b)[0] += 1
            line(a)[1] += 1
        elif result == "tie":
            line(a)[2] += 1
            line(b)[2] += 1
        else:  # a double loss
            line(a)[1] += 1
            line(b)[1] += 1
    floor, cap = rules.exact(rules.owp_floor), rules.exact(rules.dropped_cap)
    tie = rules.exact(rules.tie_counts_as)
    lines = []
    for number, a, b, _result in sorted(results):
        if b is None or player not in (a, b):
            continue
        opp = b if a == player else a
        wins, losses, ties, byes = line(opp)
        played = wins + losses + ties
        rate = (wins + tie * ties) / played if played else Fraction(0)
        applied, note = rate, ""
        if applied < floor:
            applied, note = floor, "floor"
        if opp in dropped_early and applied > cap:
            applied, note = cap, "cap"
        owp = None
        if owp_of is not None and opp in owp_of:
            owp = Fraction(str(owp_of[opp]))
        lines.append(
            OpponentLine(opp, number, wins, losses, ties, byes, played, rate, applied, note, owp)
        )
    owp = sum((x.applied for x in lines), Fraction(0)) / len(lines) if lines else Fraction(0)
    known = [x.owp for x in lines if x.owp is not None]
    oowp = sum(known, Fraction(0)) / len(known) if known else Fraction(0)
    return Explanation(tuple(lines), owp, oowp, floor, cap)
