"""The event's structure: its pods, and how many Swiss rounds and how large a top cut each
plays.

A *pod* is a group of players paired among themselves. An event run with its divisions
together has one pod of everyone (key ""). An event run separately has one pod per
division, except that a division too small to play alone joins the next older one before
round 1 (`rules.divisions.combine_small_divisions`; too small: under the season table's
smallest attendance, 4 by default): the pod "jr+sr" holds Juniors and Seniors, "sr+ma"
Seniors and Masters, "all" everyone. `Match.division` holds the pod's key,
so once round 1 is paired the pods are read from it and never change; before that they are
what the registrations would make now (the organiser's preview).

Each pod gets its own number of Swiss rounds and its own top cut from its own attendance
(registered, checked in or dropped; when the event requires check-in, only the players who
checked in: attendance is who plays) through the season's table, as TOM does; the event's
overrides (`Event.swiss_rounds`, `Event.top_cut`) apply to every pod.

The event's rule edition (`league.editions`) decides how small divisions are handled:
"combine" (the older rule above) or "age-modified" Swiss, where a division under the
edition's minimum is paired with the next one but keeps its own standings, places and top
cut (`Pod.cut_groups`: one bracket a division, each from its own attendance). A two-day
event adds the edition's extra Swiss round at its attendance threshold and caps the cut
(`rules.editions.two_day_structure`).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import ngettext, pgettext_lazy

from league.editions import event_edition
from league.models import Division, Event, Registration
from rules import divisions as age
from rules.editions import age_modified_pods, day_one_rounds, two_day_structure
from rules.scoring import structure_for, table_from_rows

from ..models import Match, Round
from .common import ACTIVE

NAMES = dict(Division.choices)
# A division's players, as a pod's name and the reason for combining say them.
PLURALS = {
    Division.JUNIOR: pgettext_lazy("division, its players", "Juniors"),
    Division.SENIOR: pgettext_lazy("division, its players", "Seniors"),
    Division.MASTERS: pgettext_lazy("division, its players", "Masters"),
}


@dataclass(frozen=True)
class Pod:
    key: str  # "" for an event run together, else a `rules.divisions.pod_key`
    divisions: tuple[str, ...]
    attendance: int
    rounds: int
    cut: int
    reason: str = ""  # why divisions were combined ("" when they were not)
    # Age-modified Swiss: each division's own (attendance, top cut); empty otherwise.
    own_cuts: tuple[tuple[str, int, int], ...] = ()

    @property
    def age_modified(self) -> bool:
        return bool(self.own_cuts)

    def cut_groups(self) -> list[tuple[str, tuple[str, ...], int]]:
        """The pod's top-cut brackets as (key, divisions, size): one for the pod, or one a
        division in age-modified Swiss (its key is the division)."""
        if self.own_cuts:
            return [(d, (d,), cut) for d, _n, cut in self.own_cuts]
        return [(self.key, self.divisions, self.cut)]

    @property
    def name(self) -> str:
        if not self.key:
            return ""
        names = [str(_plural(d)) for d in self.divisions]
        out = names[0]
        for name in names[1:]:
            out = _("%(first)s and %(second)s") % {"first": out, "second": name}
        return out


def _plural(division: str) -> str:
    """Juniors, Seniors, Masters."""
    return PLURALS.get(division, NAMES.get(division, division))


def _small(counts: Counter, divisions, minimum: int) -> str:
    """The divisions under `minimum` with their players: "Juniors: 3 players, ..."."""
    return ", ".join(
        ngettext("%(division)s: %(count)s player", "%(division)s: %(count)s players", counts[d])
        % {"division": _plural(d), "count": counts[d]}
        for d in divisions
        if counts[d] < minimum
    )


def _structure(event: Event, attendance: int, table) -> tuple[int, int]:
    if attendance < table[0].min_players:
        rounds, cut = max(1, min(3, attendance - 1)), 0  # below the table: a short league night
    else:
        rounds, cut = structure_for(attendance, table)
    if event.days == 2:
        rounds, cut = two_day_structure(
            attendance, rounds, cut, event_edition(event).edition.two_day
        )
    if event.swiss_rounds:
        rounds = event.swiss_rounds
    if event.top_cut is not None:
        cut = event.top_cut
    return rounds, cut


def _counts(event: Event) -> Counter:
    """Players by division who count toward its size: registered, checked in or dropped;
    when the event requires check-in, only those who checked in (a player who never did
    plays no round)."""
    regs = Registration.objects.filter(
        event=event, status__in=(*ACTIVE, Registration.Status.DROPPED)
    )
    if event.require_check_in:
        regs = regs.filter(
            Q(status=Registration.Status.CHECKED_IN)
            | Q(status=Registration.Status.DROPPED, checked_in_at__isnull=False)
        )
    # Counted by PostgreSQL (a row a division, not a row a player: the event page asks).
    return Counter(
        dict(
            regs.order_by().values("division").annotate(n=Count("pk")).values_list("division", "n")
        )
    )


def _fixed_pods(event: Event, present: set[str]) -> list[tuple[str, ...]] | None:
    """The pods round 1 was paired in, or None before round 1. A division that was not
    there at round 1 (a late entrant's) joins the pod of the nearest older division, else
    the nearest younger."""
    keys = set(
        Match.objects.filter(
            round__event=event, round__stage=Round.Stage.SWISS, round__number=1
        ).values_list("division", flat=True)
    )
    pods = []
    for key in keys:
        try:
            pods.append(age.pod_divisions(key))
        except ValueError:
            return None  # an event paired before pods had keys: pair by division
    if not pods:
        return None
    pods.sort(key=lambda pod: age.ORDER.index(pod[0]))
    placed = {d for pod in pods for d in pod}
    for division in sorted(present - placed, key=age.ORDER.index):
        rank = age.ORDER.index(division)
        older = [k for k, pod in enumerate(pods) if age.ORDER.index(pod[0]) > rank]
        k = older[0] if older else len(pods) - 1
        pods[k] = tuple(sorted((*pods[k], division), key=age.ORDER.index))
    return pods


def event_pods(event: Event) -> list[Pod]:
    """The event's pods, youngest first, each with its attendance, rounds and top cut."""
    counts = _counts(event)
    table = table_from_rows(event.season.structure_table)
    if event.division_mode != Event.DivisionMode.SEPARATE:
        attendance = sum(counts.values())
        present = tuple(d for d in age.ORDER if counts[d])
        return [Pod("", present, attendance, *_structure(event, attendance, table))]
    present = {d for d, n in counts.items() if n}
    small = event_edition(event).edition.small_divisions
    if small.mode == "age_modified":
        return _age_modified_pods(event, counts, present, table, small.minimum or 0)
    minimum = small.minimum or table[0].min_players  # default: the table's smallest attendance
    grouped = _fixed_pods(event, present) or age.combine_small_divisions(
        {d: counts[d] for d in present}, minimum=minimum
    )
    pods = []
    for divisions in grouped:
        attendance = sum(counts[d] for d in divisions)
        reason = ""
        if len(divisions) > 1:
            reason = _(
                "%(small)s, fewer than the %(minimum)s a division needs to play on its own: "
                "paired together, ranked and awarded in their own divisions."
            ) % {"small": _small(counts, divisions, minimum), "minimum": minimum}
        rounds, cut = _structure(event, attendance, table)
        pods.append(Pod(age.pod_key(divisions), divisions, attendance, rounds, cut, reason))
    return pods


def _age_modified_pods(event: Event, counts: Counter, present: set[str], table, minimum: int):
    """Age-modified Swiss: small divisions paired with the next one; the pod's Swiss rounds
    from its attendance, each division's top cut from its own."""
    grouped = _fixed_pods(event, present) or age_modified_pods(
        {d: counts[d] for d in present}, minimum=minimum
    )
    pods = []
    for divisions in grouped:
        attendance = sum(counts[d] for d in divisions)
        rounds, cut = _structure(event, attendance, table)
        if len(divisions) == 1:
            pods.append(Pod(age.pod_key(divisions), divisions, attendance, rounds, cut))
            continue
        own = tuple((d, counts[d], _structure(event, counts[d], table)[1]) for d in divisions)
        # Translators: "Age-modified Swiss" and "top cut" are official TCG tournament terms.
        reason = _(
            "Age-modified Swiss: %(small)s, fewer than the %(minimum)s the rules edition "
            "asks for: paired with the next division, with their own standings, places and "
            "top cut."
        ) % {"small": _small(counts, divisions, minimum), "minimum": minimum}
        cut = max(c for *_, c in own)
        key = age.pod_key(divisions)
        pods.append(Pod(key, divisions, attendance, rounds, cut, reason=reason, own_cuts=own))
    return pods


def day_one_of(event: Event, pod: Pod) -> int | None:
    """How many of the pod's Swiss rounds are played on day 1 of a two-day event (None for
    a one-day event): the organiser's `Event.day1_rounds`, else two thirds."""
    if event.days != 2:
        return None
    return min(event.day1_rounds or day_one_rounds(pod.rounds), pod.rounds)


def pod_of(pods: list[Pod], division: str) -> Pod | None:
    """The pod a division plays in."""
    return next((p for p in pods if not p.key or division in p.divisions), None)


def event_structure(event: Event) -> tuple[int, int]:
    """(Swiss rounds, top cut size) for the event: its overrides, else the season's table by
    attendance. With separate divisions: the most any pod plays (see `event_pods`)."""
    pods = event_pods(event)
    if not pods:
        return _structure(event, 0, table_from_rows(event.season.structure_table))
    return structure_of(pods)


def structure_of(pods: list[Pod]) -> tuple[int, int]:
    """(the most Swiss rounds, the largest top cut) of some pods."""
    return max((p.rounds for p in pods), default=0), max((p.cut for p in pods), default=0)
