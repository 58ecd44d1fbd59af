"""League points across a season.

Each finished event awards points by final placement (a table per season: place → points)
plus points for taking part. A season may count only a player's best N finishes, as Play!
Pokémon's Championship Points do. Players on equal points share a rank (1, 1, 3).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass


@dataclass(frozen=True)
class PointsTable:
    placements: Mapping[int, int]
    attendance: int = 0

    @classmethod
    def from_json(cls, data: Mapping) -> PointsTable:
        placements = {int(place): int(points) for place, points in data.get("placements", {}).items()}
        return cls(placements=placements, attendance=int(data.get("attendance", 0)))

    def points_for(self, place: int) -> int:
        return self.placements.get(place, 0) + self.attendance


@dataclass(frozen=True)
class LeaderboardRow:
    player: str
    rank: int
    points: int
    events_played: int
    events_counted: int


def leaderboard(finishes: Iterable[tuple[str, int]], *, best: int | None = None) -> list[LeaderboardRow]:
    """`finishes` are (player, points) pairs, one per event played."""
    by_player: dict[str, list[int]] = {}
    for player, points in finishes:
        by_player.setdefault(player, []).append(points)
    rows = []
    for player, points in by_player.items():
        counted = sorted(points, reverse=True)[: best if best else None]
        rows.append((player, sum(counted), len(points), len(counted)))
    rows.sort(key=lambda r: (-r[1], r[0]))
    result: list[LeaderboardRow] = []
    for index, (player, total, played, counted) in enumerate(rows):
        rank = result[-1].rank if result and result[-1].points == total else index + 1
        result.append(LeaderboardRow(player, rank, total, played, counted))
    return result
