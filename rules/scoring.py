"""Scoring numbers and the tournament structure table.

`RuleSet` holds every number the standings and pairings use, so a season can store its own
values (the site keeps them as JSON); `PLAY_POKEMON` is the Play! Pokémon default:

- match points: win 3, tie 1, loss 0; a bye (earned or not) scores as a win;
- a player's *win rate* (the value their opponents' tiebreakers use) is
  ``(match wins + tie_counts_as * ties) / rounds played``, where a bye counts in neither the
  numerator nor the denominator, an earned bye counts as a won round (``earned_bye_is_win``;
  it is also an opponent at 100 % in the holder's OWP) and a late entrant's forced losses do
  count as rounds played; it is floored at ``owp_floor`` (25 %) and, for a player who dropped
  before the last Swiss round, capped at ``dropped_cap`` (75 %);
- Opponents' Win Percentage and Opponents' Opponents' Win Percentage are compared exactly, as
  TOM does (see `rules.standings`); ``tiebreak_decimals`` rounds them first for a league that
  wants that, with ``tiebreak_rounding`` (half-even, half-up or floor).

The attendance table maps the number of players to the number of Swiss rounds and the size of
the top cut (TCG, Masters-style).  It is plain data: rows of
``(min_players, max_players or None, rounds, top_cut)``, buildable from a list of dicts with
`table_from_rows` and written back with `table_to_rows`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from fractions import Fraction
from typing import Any, NamedTuple

from rules.errors import RulesError

ROUNDING_MODES = ("half_even", "half_up", "floor")


@dataclass(frozen=True)
class RuleSet:
    """The numbers behind match points and tiebreakers (defaults: Play! Pokémon)."""

    win_points: int = 3
    tie_points: int = 1
    loss_points: int = 0
    owp_floor: float = 0.25
    dropped_cap: float = 0.75
    tie_counts_as: float = 0.5
    late_loss_counts_as_played: bool = True
    earned_bye_is_win: bool = True
    tiebreak_decimals: int | None = None
    tiebreak_rounding: str = "half_even"

    def __post_init__(self) -> None:
        for name in ("win_points", "tie_points", "loss_points"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int):
                raise RulesError("bad-ruleset", f"{name} must be an integer, got {value!r}")
        if not self.win_points > self.tie_points >= self.loss_points:
            raise RulesError("bad-ruleset", "points must satisfy win > tie >= loss")
        for name in ("owp_floor", "dropped_cap", "tie_counts_as"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value <= 1:
                raise RulesError("bad-ruleset", f"{name} must be a number in [0, 1], got {value!r}")
        if self.owp_floor > self.dropped_cap:
            raise RulesError("bad-ruleset", "owp_floor must not exceed dropped_cap")
        if self.tiebreak_decimals is not None and (
            isinstance(self.tiebreak_decimals, bool)
            or not isinstance(self.tiebreak_decimals, int)
            or not 0 <= self.tiebreak_decimals <= 12
        ):
            raise RulesError("bad-ruleset", "tiebreak_decimals must be None or an int in [0, 12]")
        if self.tiebreak_rounding not in ROUNDING_MODES:
            raise RulesError(
                "bad-ruleset", f"tiebreak_rounding must be one of {', '.join(ROUNDING_MODES)}"
            )

    # Exact values: the standings compute with integers, never with binary floats.
    @staticmethod
    def exact(value: float) -> Fraction:
        return Fraction(str(value)) if isinstance(value, float) else Fraction(value)

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RuleSet:
        known = {f.name for f in fields(cls)}
        unknown = sorted(set(data) - known)
        if unknown:
            raise RulesError("bad-ruleset", f"unknown rule set fields: {', '.join(unknown)}")
        return cls(**dict(data))


PLAY_POKEMON = RuleSet()


def match_points(
    results: Iterable[tuple[Any, Any | None, str]], rules: RuleSet = PLAY_POKEMON
) -> Counter:
    """Each player's match points from final match results `(a, b, result)`, `b` None for
    a bye and `result` one of ``"a"``, ``"b"``, ``"tie"``, ``"double_loss"``: a bye scores
    as a win for ``a``; a double loss is a loss for both. A player with no match reads 0."""
    points: Counter = Counter()
    for a, b, result in results:
        if b is None:
            points[a] += rules.win_points
        elif result in ("a", "b"):
            winner, loser = (a, b) if result == "a" else (b, a)
            points[winner] += rules.win_points
            points[loser] += rules.loss_points
        elif result == "tie":
            points[a] += rules.tie_points
            points[b] += rules.tie_points
        elif result == "double_loss":
            points[a] += rules.loss_points
            points[b] += rules.loss_points
    return points


class AttendanceRow(NamedTuple):
    """One line of the attendance table; ``max_players`` None means "and more"."""

    min_players: int
    max_players: int | None
    rounds: int
    top_cut: int


DEFAULT_TABLE: tuple[AttendanceRow, ...] = (
    AttendanceRow(4, 8, 3, 0),
    AttendanceRow(9, 12, 4, 2),
    AttendanceRow(13, 20, 5, 4),
    AttendanceRow(21, 32, 5, 8),
    AttendanceRow(33, 64, 6, 8),
    AttendanceRow(65, 128, 7, 8),
    AttendanceRow(129, 226, 8, 16),
    AttendanceRow(227, 409, 9, 32),
    AttendanceRow(410, None, 10, 64),
)

VALID_TOP_CUTS = (0, 2, 4, 8, 16, 32, 64, 128)


def _int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError("bad-attendance-table", f"{what} must be an integer, got {value!r}")
    return value


def validate_table(table: Sequence[Sequence[Any]]) -> tuple[AttendanceRow, ...]:
    """Check a table (rows sorted, contiguous, non-overlapping) and return it as rows."""
    if not table:
        raise RulesError("bad-attendance-table", "the attendance table is empty")
    rows: list[AttendanceRow] = []
    for position, raw in enumerate(table):
        if len(raw) != 4:
            raise RulesError("bad-attendance-table", f"row {position} must have four values")
        lo = _int(raw[0], "min_players")
        hi = None if raw[1] is None else _int(raw[1], "max_players")
        rounds = _int(raw[2], "rounds")
        cut = _int(raw[3], "top_cut")
        if lo < 1 or (hi is not None and hi < lo):
            raise RulesError("bad-attendance-table", f"row {position}: bad player range")
        if rounds < 1:
            raise RulesError("bad-attendance-table", f"row {position}: rounds must be >= 1")
        if cut not in VALID_TOP_CUTS:
            raise RulesError(
                "bad-attendance-table", f"row {position}: top cut must be 0 or a power of two"
            )
        if cut > lo:
            raise RulesError("bad-attendance-table", f"row {position}: top cut exceeds attendance")
        if rows:
            previous = rows[-1]
            if previous.max_players is None:
                raise RulesError("bad-attendance-table", "only the last row may be open-ended")
            if lo != previous.max_players + 1:
                raise RulesError(
                    "bad-attendance-table",
                    f"row {position} must start at {previous.max_players + 1} players",
                )
        rows.append(AttendanceRow(lo, hi, rounds, cut))
    return tuple(rows)


def table_from_rows(rows: Iterable[Mapping[str, Any]]) -> tuple[AttendanceRow, ...]:
    """Build a table from dicts such as ``{"min_players": 4, "max_players": 8, "rounds": 3,
    "top_cut": 0}`` (``max_players`` may be missing or None on the last row)."""
    table = []
    for position, row in enumerate(rows):
        if not isinstance(row, Mapping):
            raise RulesError("bad-attendance-table", f"row {position} must be an object")
        missing = [key for key in ("min_players", "rounds", "top_cut") if key not in row]
        if missing:
            raise RulesError("bad-attendance-table", f"row {position} lacks {', '.join(missing)}")
        table.append((row["min_players"], row.get("max_players"), row["rounds"], row["top_cut"]))
    return validate_table(table)


def table_to_rows(table: Sequence[Sequence[Any]] = DEFAULT_TABLE) -> list[dict[str, Any]]:
    """The inverse of `table_from_rows` (what the site stores as JSON)."""
    return [row._asdict() for row in validate_table(table)]


def structure_for(
    attendance: int, table: Sequence[Sequence[Any]] = DEFAULT_TABLE
) -> tuple[int, int]:
    """Number of Swiss rounds and top-cut size for ``attendance`` players."""
    if isinstance(attendance, bool) or not isinstance(attendance, int):
        raise RulesError("bad-attendance", f"attendance must be an integer, got {attendance!r}")
    rows = table if table is DEFAULT_TABLE else validate_table(table)
    for row in rows:
        lo, hi, rounds, cut = row
        if attendance >= lo and (hi is None or attendance <= hi):
            return rounds, cut
    smallest = rows[0][0]
    if attendance < smallest:
        raise RulesError(
            "too-few-players", f"a tournament needs at least {smallest} players, got {attendance}"
        )
    raise RulesError("too-many-players", f"the attendance table has no row for {attendance}")
