"""Rule editions: the tournament rules in force on a date, as data with their sources.

Play! Pokémon changes its tournament rules during a season (the end of a round, two-day
events, small age divisions, tardiness, penalties, age cut-off years). An *edition* is a
named, dated set of those rules: each part carries the `source` it was taken from, written
as it was reported, so an organiser can check it against the handbook they hold. The site
stores editions as rows (`league.RuleEdition`, editable in the admin, seeded from
`league/edition_seeds.py`); this module only reads them (`Edition.from_dict`) and answers
questions with them. An event takes the edition in force on its date (`in_force_on`)
unless its organiser picks another.

The parts:

* `EndOfRound`: what happens when time is called. ``"sudden_death"`` is the site's older
  reading (in Swiss an unfinished game is a tie; in the top cut a level match goes to the
  event's sudden death, see `rules.results`); ``"extra_turns"`` plays `extra_turns` more
  turns after time with an overtime clock of `overtime_minutes`. `swiss_no_winner` says
  what a Swiss game with no winner after the turns is: ``"draw"`` (a tie) or
  ``"prizes"`` (the player ahead on Prizes wins, a tie when level). `top_cut_no_winner`:
  ``"sudden_death"`` or ``"prizes"`` (the player ahead on Prizes wins; level, play goes on
  until a Prize is taken).
* `TwoDay`: divisions of `extra_round_from` players or more play one extra Swiss round;
  day 2 is for players with at least `day2_points` match points; the top cut is capped at
  `top_cut_cap` players, ties or not.
* `SmallDivisions`: ``"combine"`` (the site's older rule: a division below the structure
  table's smallest row joins the next older one and the pod plays one top cut) or
  ``"age_modified"`` (a division below `minimum` is paired with the next one but keeps its
  own standings, places and top cut).
* `Tardiness`: a player more than `match_loss_minutes` late loses the match (a procedural
  error); one who never arrives is dropped.
* `Penalties`: which penalty catalogue applies, with its notes.
* `AgeDivisions`: the cut-off years (None: the season's years).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from rules.divisions import ORDER
from rules.errors import RulesError
from rules.i18n import Text, gettext_noop, ngettext, say

END_OF_ROUND = ("sudden_death", "extra_turns")
SWISS_NO_WINNER = ("draw", "prizes")
TOP_CUT_NO_WINNER = ("sudden_death", "prizes")
SMALL_DIVISION_MODES = ("combine", "age_modified")


def _bad(message: str) -> RulesError:
    return RulesError("bad-edition", message)


def _nonneg_int(value: Any, what: str, *, allow_none: bool = False) -> None:
    if value is None and allow_none:
        return
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise _bad(f"{what} must be a whole number of 0 or more, not {value!r}")


@dataclass(frozen=True)
class EndOfRound:
    procedure: str = "sudden_death"
    extra_turns: int = 0
    overtime_minutes: int = 0
    swiss_no_winner: str = "draw"
    top_cut_no_winner: str = "sudden_death"
    turns: str = ""  # the turns after time, in words
    source: str = ""
    top_cut_source: str = ""

    def __post_init__(self) -> None:
        if self.procedure not in END_OF_ROUND:
            raise _bad(f"end of round must be one of {', '.join(END_OF_ROUND)}")
        if self.swiss_no_winner not in SWISS_NO_WINNER:
            raise _bad(f"a Swiss game without winner must be one of {', '.join(SWISS_NO_WINNER)}")
        if self.top_cut_no_winner not in TOP_CUT_NO_WINNER:
            raise _bad(f"a level top cut must be one of {', '.join(TOP_CUT_NO_WINNER)}")
        _nonneg_int(self.extra_turns, "extra turns")
        _nonneg_int(self.overtime_minutes, "overtime minutes")
        if self.procedure == "extra_turns" and self.extra_turns < 1:
            raise _bad("an extra-turns end of round needs at least one turn")

    @property
    def has_turns(self) -> bool:
        return self.procedure == "extra_turns"

    def summary(self) -> str:
        return self.summary_text().render()

    def summary_text(self) -> Text:
        """What happens at time: one marked sentence for each shape; the turns in words are
        the edition's data (the seeded ones are marked where they are seeded)."""
        sudden = self.top_cut_no_winner == "sudden_death"
        if not self.has_turns:
            if sudden:
                return say(
                    gettext_noop(
                        "At time: an unfinished game is a tie; a level top-cut match goes to "
                        "sudden death."
                    )
                )
            return say(
                gettext_noop(
                    "At time: an unfinished game is a tie; in the top cut the player ahead on "
                    "Prizes wins; level, play continues until a Prize is taken."
                )
            )
        if self.turns:
            turns: Text | str = Text(self.turns)
        else:
            turns = say(
                ngettext("%(count)s more turn", "%(count)s more turns", self.extra_turns),
                count=self.extra_turns,
            )
        draw = self.swiss_no_winner == "draw"
        msgid = _AT_TIME[(draw, sudden)]
        return say(msgid, turns=turns, minutes=self.overtime_minutes)


#: `EndOfRound.summary_text` with turns, by (no winner is a draw, the top cut's sudden death).
_AT_TIME = {
    (True, True): gettext_noop(
        "At time: %(turns)s (a %(minutes)s-minute overtime clock); then a game with no winner "
        "is a draw; a level top-cut match goes to sudden death."
    ),
    (True, False): gettext_noop(
        "At time: %(turns)s (a %(minutes)s-minute overtime clock); then a game with no winner "
        "is a draw; in the top cut the player ahead on Prizes wins; level, play continues "
        "until a Prize is taken."
    ),
    (False, True): gettext_noop(
        "At time: %(turns)s (a %(minutes)s-minute overtime clock); then the player ahead on "
        "Prizes wins (level: a draw); a level top-cut match goes to sudden death."
    ),
    (False, False): gettext_noop(
        "At time: %(turns)s (a %(minutes)s-minute overtime clock); then the player ahead on "
        "Prizes wins (level: a draw); in the top cut the player ahead on Prizes wins; level, "
        "play continues until a Prize is taken."
    ),
}


@dataclass(frozen=True)
class TwoDay:
    extra_round_from: int | None = None
    top_cut_cap: int | None = None
    day2_points: int = 19
    source: str = ""
    day2_source: str = ""

    def __post_init__(self) -> None:
        _nonneg_int(self.extra_round_from, "the extra round's attendance", allow_none=True)
        _nonneg_int(self.top_cut_cap, "the top-cut cap", allow_none=True)
        _nonneg_int(self.day2_points, "day 2's match points")
        if self.top_cut_cap is not None and self.top_cut_cap & (self.top_cut_cap - 1):
            raise _bad("the top-cut cap must be a power of two")


@dataclass(frozen=True)
class SmallDivisions:
    mode: str = "combine"
    minimum: int | None = None  # None: the structure table's smallest attendance
    source: str = ""

    def __post_init__(self) -> None:
        if self.mode not in SMALL_DIVISION_MODES:
            raise _bad(f"small divisions must be one of {', '.join(SMALL_DIVISION_MODES)}")
        _nonneg_int(self.minimum, "the smallest division", allow_none=True)


@dataclass(frozen=True)
class Tardiness:
    match_loss_minutes: int | None = None  # None: no tardiness rule in this edition
    drop_if_absent: bool = True
    source: str = ""

    def __post_init__(self) -> None:
        _nonneg_int(self.match_loss_minutes, "minutes late", allow_none=True)


@dataclass(frozen=True)
class Penalties:
    catalogue: str = ""
    notes: tuple[str, ...] = ()
    source: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.notes, tuple):
            object.__setattr__(self, "notes", tuple(self.notes))


@dataclass(frozen=True)
class AgeDivisions:
    junior_from: int | None = None  # None: the season's years
    senior_from: int | None = None
    source: str = ""

    def __post_init__(self) -> None:
        if (self.junior_from is None) != (self.senior_from is None):
            raise _bad("give both cut-off years or neither")
        if self.junior_from is not None and self.senior_from > self.junior_from:
            raise _bad("the Seniors' year must come before the Juniors'")


_PARTS = {
    "end_of_round": EndOfRound,
    "two_day": TwoDay,
    "small_divisions": SmallDivisions,
    "tardiness": Tardiness,
    "penalties": Penalties,
    "age_divisions": AgeDivisions,
}


@dataclass(frozen=True)
class Edition:
    key: str
    name: str
    in_force_from: dt.date
    end_of_round: EndOfRound = field(default_factory=EndOfRound)
    two_day: TwoDay = field(default_factory=TwoDay)
    small_divisions: SmallDivisions = field(default_factory=SmallDivisions)
    tardiness: Tardiness = field(default_factory=Tardiness)
    penalties: Penalties = field(default_factory=Penalties)
    age_divisions: AgeDivisions = field(default_factory=AgeDivisions)

    def to_dict(self) -> dict[str, Any]:
        """The parts as JSON (what `league.RuleEdition.rules` stores)."""
        data = {name: asdict(getattr(self, name)) for name in _PARTS}
        data["penalties"]["notes"] = list(self.penalties.notes)
        return data

    @classmethod
    def from_dict(
        cls, *, key: str, name: str, in_force_from: dt.date, rules: Mapping[str, Any]
    ) -> Edition:
        """An edition from its stored parts; unknown parts or fields are refused."""
        if not isinstance(rules, Mapping):
            raise _bad("an edition's rules must be an object")
        unknown = sorted(set(rules) - set(_PARTS))
        if unknown:
            raise _bad(f"unknown parts: {', '.join(unknown)}")
        parts = {}
        for part, kind in _PARTS.items():
            raw = rules.get(part, {})
            if not isinstance(raw, Mapping):
                raise _bad(f"{part} must be an object")
            extra = sorted(set(raw) - {f.name for f in fields(kind)})
            if extra:
                raise _bad(f"unknown fields in {part}: {', '.join(extra)}")
            try:
                parts[part] = kind(**raw)
            except TypeError as exc:
                raise _bad(f"{part}: {exc}") from None
        return cls(key=key, name=name, in_force_from=in_force_from, **parts)

    def sources(self) -> list[tuple[str, str]]:
        """(rule, source) for every part with a source, as the event page lists them (the
        rule's name marked for the catalogues; the site translates it at display)."""
        rows = [
            (gettext_noop("End of round"), self.end_of_round.source),
            (gettext_noop("Top cut at time"), self.end_of_round.top_cut_source),
            (gettext_noop("Two-day events"), self.two_day.source),
            (gettext_noop("Day 2"), self.two_day.day2_source),
            (gettext_noop("Small age divisions"), self.small_divisions.source),
            (gettext_noop("Tardiness"), self.tardiness.source),
            (gettext_noop("Penalties"), self.penalties.source),
            (gettext_noop("Age divisions"), self.age_divisions.source),
        ]
        return [(rule, source) for rule, source in rows if source]


def in_force_on(editions: Sequence[Edition], day: dt.date) -> Edition | None:
    """The edition in force on `day`: the latest one whose date is on or before it."""
    current = [e for e in editions if e.in_force_from <= day]
    return max(current, key=lambda e: e.in_force_from, default=None)


def two_day_structure(attendance: int, rounds: int, cut: int, two_day: TwoDay) -> tuple[int, int]:
    """A two-day event's Swiss rounds and top cut from the one-day table's: one extra Swiss
    round at `extra_round_from` players or more, and the cut capped at `top_cut_cap`."""
    if two_day.extra_round_from is not None and attendance >= two_day.extra_round_from:
        rounds += 1
    if two_day.top_cut_cap is not None:
        cut = min(cut, two_day.top_cut_cap)
    return rounds, cut


def day_one_rounds(total: int) -> int:
    """The site's default split of a two-day event's Swiss rounds: two thirds on day 1,
    rounded up (the organiser may set another; the sources give no figure)."""
    return max(1, -(-2 * total // 3))


def age_modified_pods(counts: Mapping[str, int], *, minimum: int) -> list[tuple[str, ...]]:
    """Pods of age-modified Swiss: a division with fewer than `minimum` players is paired
    with the next older one (the oldest, when small, with the next younger), each division
    judged by its own size, so a small Junior and a small Senior division both end up with
    the Masters. Each division keeps its own standings, places and top cut; only the
    pairing is shared. Pods are listed youngest first.

    >>> age_modified_pods({"junior": 4, "senior": 5, "masters": 30}, minimum=6)
    [('junior', 'senior', 'masters')]
    """
    unknown = set(counts) - set(ORDER)
    if unknown:
        raise ValueError(f"unknown divisions: {', '.join(sorted(unknown))}")
    present = [d for d in ORDER if counts.get(d, 0) > 0]
    pods: list[list[str]] = []
    joining = False  # the last pod takes the next division
    for division in present:
        if joining:
            pods[-1].append(division)
        else:
            pods.append([division])
        joining = counts[division] < minimum
    if joining and len(pods) > 1 and len(pods[-1]) == 1:
        last = pods.pop()
        pods[-1].extend(last)
    return [tuple(p) for p in pods]
