"""Two-day events (`Event.days == 2`): day 1 Swiss, then a cut to day 2 by the rule
edition's match points (`rules.editions.TwoDay.day2_points`); day 2 Swiss continues from
the day-1 records among the players who made it, then the top cut (capped by the edition,
see `structure`). A player below the threshold finishes with their day-1 standing: they
are paired no more, never seeded into the top cut, and the standings freeze their
tiebreakers at day 1 as for a drop (`Registration.finished_on_day_one`)."""

from __future__ import annotations

from collections.abc import Iterable

from league.editions import event_edition
from league.models import Event, Registration
from rules.scoring import PLAY_POKEMON, match_points

from ..models import Match, Round
from .common import ACTIVE
from .structure import Pod, day_one_of, event_pods


def cut_to_day_two(event: Event, pod: Pod) -> int:
    """Mark the pod's players below the day-2 threshold after its day-1 rounds
    (`finished_on_day_one`); returns how many made day 2. Called as day 2's first round is
    paired; running it again marks nobody new."""
    day_one = day_one_of(event, pod)
    threshold = event_edition(event).edition.two_day.day2_points
    results = Match.objects.filter(
        round__event=event,
        round__stage=Round.Stage.SWISS,
        round__number__lte=day_one,
        status=Match.Status.FINAL,
    ).values_list("player_a_id", "player_b_id", "result")
    points = match_points(results, PLAY_POKEMON)
    regs = Registration.objects.filter(event=event, status__in=ACTIVE)
    if pod.key:
        regs = regs.filter(division__in=pod.divisions)
    below = [r.pk for r in regs if points[r.pk] < threshold]
    Registration.objects.filter(pk__in=below).update(finished_on_day_one=True)
    return regs.exclude(pk__in=below).count()


def frozen_on_day_one(event: Event, regs: Iterable[Registration]) -> dict[str, int]:
    """For the standings engine: each player who finished on day 1, frozen after their
    pod's day-1 rounds (as a drop is)."""
    if event.days != 2:
        return {}
    finished = [r for r in regs if r.finished_on_day_one]
    if not finished:
        return {}
    pods = event_pods(event)
    out = {}
    for reg in finished:
        pod = next(p for p in pods if not p.key or reg.division in p.divisions)
        out[str(reg.pk)] = day_one_of(event, pod)
    return out
