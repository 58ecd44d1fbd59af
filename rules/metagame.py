"""The metagame of an event from plain records: each archetype's share of the field, its
record (wins-losses-ties) and its match-up table against the others.

Terms: a *player* is any hashable key; `archetypes` maps each player to their archetype.
A *result* is `(a, b, result)` with `result` one of "a", "b", "tie", "double_loss" (as
`rules.standings.MatchRecord`); `b` is None for a bye.

Counting (as metagame sites do): byes count for nothing (they say nothing of a deck); a
double loss is a loss for each side; a mirror match (both players on one archetype) is
kept on the diagonal of the match-up table but left out of the archetype's record, where it
would always add one win and one loss. Players without an archetype (no list) are left out
of every count.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field

Result = tuple[Hashable, Hashable | None, str]


@dataclass(slots=True)
class Record:
    wins: int = 0
    losses: int = 0
    ties: int = 0

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.ties

    @property
    def win_rate(self) -> float | None:
        """Wins over matches played, a tie counting as a third of a win (3-1-0 points);
        None before any match."""
        if not self.played:
            return None
        return (self.wins + self.ties / 3) / self.played

    def __str__(self) -> str:
        return f"{self.wins}-{self.losses}-{self.ties}"

    def add(self, outcome: str) -> None:
        if outcome == "w":
            self.wins += 1
        elif outcome == "l":
            self.losses += 1
        else:
            self.ties += 1


@dataclass(frozen=True, slots=True)
class Share:
    archetype: str
    players: int
    share: float  # 0..1 of the players with an archetype


@dataclass(slots=True)
class Metagame:
    shares: list[Share]
    records: dict[str, Record]
    #: matchups[x][y]: the record of archetype x against archetype y
    matchups: dict[str, dict[str, Record]] = field(default_factory=dict)

    @property
    def archetypes(self) -> list[str]:
        return [s.archetype for s in self.shares]


def outcomes(result: str) -> tuple[str, str]:
    """The outcome ("w", "l", "t") for side a and side b of a result."""
    return {
        "a": ("w", "l"),
        "b": ("l", "w"),
        "tie": ("t", "t"),
        "double_loss": ("l", "l"),
    }[result]


def shares(archetypes: Mapping[Hashable, str]) -> list[Share]:
    """Each archetype's players and share, the largest first (then by name)."""
    counts: dict[str, int] = {}
    for archetype in archetypes.values():
        counts[archetype] = counts.get(archetype, 0) + 1
    total = sum(counts.values())
    ordered = sorted(counts.items(), key=lambda item: (-item[1], item[0].casefold()))
    return [Share(name, n, n / total) for name, n in ordered]


def metagame(archetypes: Mapping[Hashable, str], results: Iterable[Result]) -> Metagame:
    """Shares, records and the match-up table (every pair of archetypes, empty records
    where they never met)."""
    share_rows = shares(archetypes)
    names = [s.archetype for s in share_rows]
    records = {name: Record() for name in names}
    matrix = {x: {y: Record() for y in names} for x in names}
    for a, b, result in results:
        if b is None or a not in archetypes or b not in archetypes:
            continue
        x, y = archetypes[a], archetypes[b]
        out_a, out_b = outcomes(result)
        matrix[x][y].add(out_a)
        if x != y:
            matrix[y][x].add(out_b)
            records[x].add(out_a)
            records[y].add(out_b)
        else:
            matrix[x][x].add(out_b)
    return Metagame(shares=share_rows, records=records, matchups=matrix)


def player_record(player: Hashable, results: Iterable[Result]) -> Record:
    """One player's match record; a bye is a win (as on the standings)."""
    record = Record()
    for a, b, result in results:
        if a == player:
            record.add("w" if b is None else outcomes(result)[0])
        elif b == player:
            record.add(outcomes(result)[1])
    return record
