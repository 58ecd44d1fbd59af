"""Standings (coalesced recomputes, snapshots and their publication), final places, the
end of an event, and the round-clock reminders."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from league import services as league_services
from league.models import Event, EventPlacement, Registration
from notifications import outbox
from rules import divisions as age
from rules.placements import CutMatch, final_order, reached
from rules.standings import compute_standings

from .. import notify, selectors, webhook_events
from ..models import (
    Match,
    Round,
    StandingsSnapshot,
    StandingsState,
)
from .common import require_tournament, winner_of
from .structure import event_pods
from .two_day import frozen_on_day_one

#: How long a standings request waits on the broker, gathering the results that follow it.
STANDINGS_COALESCE_SECONDS = 1


# --- standings ----------------------------------------------------------------------


@transaction.atomic
def request_standings(*, event: Event, round_number: int, publish_round: int | None = None) -> None:
    """Ask for the standings from `round_number` on to be recomputed after this transaction
    commits. Many requests in a short time make one task run: the task is queued only when
    none is waiting (`StandingsState.queued`), and it covers every round marked dirty.
    The request is recorded as a `notifications.OutboxTask` in this transaction, so a
    broker that is down or restarted empty delays it, never loses it."""
    state, _ = StandingsState.objects.select_for_update().get_or_create(event=event)
    state.requested += 1
    if state.dirty_from_round is None or round_number < state.dirty_from_round:
        state.dirty_from_round = round_number
    now = timezone.now()
    stale = state.queued_at is None or state.queued_at < now - timedelta(minutes=1)
    enqueue = not state.queued or stale or publish_round is not None
    state.queued = True
    if enqueue:
        state.queued_at = now
    state.save()
    if enqueue:
        # Recorded in this transaction and dispatched after commit; if the broker is down
        # or loses the message, the relay (`notifications.outbox`) runs it later.
        outbox.record_task(
            "matches.recompute_standings",
            args=[event.pk],
            kwargs={"publish_round": publish_round},
            countdown=0 if publish_round else STANDINGS_COALESCE_SECONDS,
        )


def standings_rows(event: Event, *, through_round: int | None = None) -> list[dict]:
    """The Swiss standings as rows for pages, the API and snapshots, best first. An event
    run together ranks everyone at once (ranks within a division follow that order); one run
    separately ranks each pod on its own (`structure.event_pods`), and the players of a
    pod of several divisions are ranked together, then numbered within their own division,
    as TOM does. With `through_round`, only what was known after that round counts."""
    regs = {
        r.pk: r
        for r in Registration.objects.filter(event=event)
        .exclude(status__in=(Registration.Status.WITHDRAWN, Registration.Status.WAITLISTED))
        .select_related("player")
    }
    if through_round is not None:
        # Only what was known after that round: nobody who entered later.
        regs = {
            pk: r
            for pk, r in regs.items()
            if not r.late_entry_round or r.late_entry_round - 1 <= through_round
        }
    records = selectors.match_records(event, through_round=through_round)
    # A drop after a later round is not yet a drop (the engine ignores it).
    dropped = {str(r.pk): r.dropped_after_round for r in regs.values() if r.dropped_after_round}
    # Two-day events: day-1 finishers, frozen at day 1 like a drop but never capped.
    day_one = frozen_on_day_one(event, regs.values())
    # The engine's `late` is the round that was running when the player came in (they lose
    # it and every round before); ours is the first round they play.
    late = {
        str(r.pk): r.late_entry_round - 1
        for r in regs.values()
        if r.late_entry_round and r.late_entry_round > 1
    }
    separate = event.division_mode == Event.DivisionMode.SEPARATE
    rows = []
    for pod in event_pods(event):
        ids = {str(pk) for pk, r in regs.items() if not pod.key or r.division in pod.divisions}
        if not ids:
            continue
        pod_records = [m for m in records if m.a in ids]
        standings = compute_standings(
            sorted(ids),
            pod_records,
            dropped={k: v for k, v in dropped.items() if k in ids},
            finished={k: v for k, v in day_one.items() if k in ids},
            late={k: v for k, v in late.items() if k in ids},
            seed=f"{event.seed or event.pk}",
            through_round=through_round,
            # The cap on a dropped player's win rate depends on the pod's Swiss rounds.
            swiss_rounds=_pod_swiss_rounds(event, pod),
        )
        rank_in: dict[str, int] = {}
        for s in standings:
            reg = regs[int(s.id)]
            rank = s.rank
            if separate and len(pod.divisions) > 1:
                rank = rank_in[reg.division] = rank_in.get(reg.division, 0) + 1
            rows.append(
                {
                    "registration": reg.pk,
                    "player": reg.player.name,
                    "player_id": reg.player.player_id,
                    "division": reg.division,
                    "rank": rank,
                    "points": s.points,
                    "record": s.record,
                    "owp": round(s.owp, 4),
                    "oowp": round(s.oowp, 4),
                    "dropped": s.dropped,
                }
            )
            if s.id in day_one:
                rows[-1]["day_one_only"] = True
    return rows


def _pod_swiss_rounds(event: Event, pod) -> int:
    """The pod's number of Swiss rounds: as planned while they are being played, as played
    once the event is past its Swiss rounds (an event mirrored from TOM may differ from the
    table). Never the round a snapshot is taken after: a player who dropped after round 2
    of 5 dropped before the last Swiss round, in every snapshot."""
    played = (
        Match.objects.filter(
            round__event=event, round__stage=Round.Stage.SWISS, division=pod.key
        ).aggregate(last=Max("round__number"))["last"]
        or 0
    )
    if event.status in (Event.Status.TOP_CUT, Event.Status.FINISHED):
        return played or pod.rounds
    return max(pod.rounds, played)


def recompute_standings(
    *, event_id: int, publish_round: int | None = None
) -> list[StandingsSnapshot]:
    """Recompute and store the standings after each Swiss round from the earliest round
    whose results changed (`StandingsState.dirty_from_round`) to the latest.

    A round's snapshot is overwritten while it is unpublished; once published (its round
    closed) a changed result writes a new version instead, so published standings never
    change silently. Idempotent: running twice writes nothing new the second time.
    """
    with transaction.atomic():
        StandingsState.objects.get_or_create(event_id=event_id)
        state = StandingsState.objects.select_for_update().get(pk=event_id)
        requested, dirty_from = state.requested, state.dirty_from_round
        state.queued = False
        state.dirty_from_round = None
        state.save(update_fields=["queued", "dirty_from_round"])
    event = Event.objects.select_related("season").get(pk=event_id)
    start = min(x for x in (dirty_from, publish_round, 10**4) if x is not None)
    written = []
    with transaction.atomic():
        rounds = Round.objects.filter(
            event=event, stage=Round.Stage.SWISS, number__gte=start
        ).order_by("number")
        for round_ in rounds:
            rows = standings_rows(event, through_round=round_.number)
            latest = (
                StandingsSnapshot.objects.filter(event=event, round_number=round_.number)
                .order_by("-version")
                .first()
            )
            publish = round_.status == Round.Status.CLOSED
            if latest and latest.rows == rows:
                if publish and not latest.published:
                    latest.published = True
                    latest.save(update_fields=["published", "computed_at"])
                    written.append(latest)
                continue
            if latest and not latest.published:
                latest.rows, latest.published = rows, publish
                latest.save(update_fields=["rows", "published", "computed_at"])
                written.append(latest)
            else:
                written.append(
                    StandingsSnapshot.objects.create(
                        event=event,
                        round_number=round_.number,
                        version=(latest.version + 1) if latest else 1,
                        rows=rows,
                        published=publish,
                    )
                )
        StandingsState.objects.filter(pk=event_id, computed__lt=requested).update(
            computed=requested
        )
        webhook_events.standings_published(event, publish_round, written)
    if publish_round and any(s.round_number == publish_round and s.published for s in written):
        notify.standings_published(event, publish_round)
    return written


# --- finishing ----------------------------------------------------------------------


def final_placements(event: Event) -> list[tuple[int, str, int]]:
    """(registration, division, place) for everyone, pod by pod, by the one recipe
    (`rules.placements.final_order`): top-cut players by how far they got (ties within a
    stage by Swiss seed), then the rest in Swiss order (`standings_rows`, the published
    standings). In an event run separately, places are numbered within each division (a
    combined pod's players keep their own division's places and prizes). `finish_event`
    records these; the TOM comparison reads them."""
    rows = standings_rows(event)
    division_of = {r["registration"]: r["division"] for r in rows}
    separate = event.division_mode == Event.DivisionMode.SEPARATE
    out = []
    for key, divisions in cut_groups(event):
        swiss_order = [
            str(r["registration"]) for r in rows if not key or r["division"] in divisions
        ]
        count: dict[str, int] = {}
        for reg in map(int, final_order(swiss_order, cut_rounds(event, key))):
            if reg not in division_of:
                continue  # withdrawn since the cut was paired
            group = division_of[reg] if separate else ""
            count[group] = count.get(group, 0) + 1
            out.append((reg, division_of[reg], count[group]))
    return out


def cut_groups(event: Event) -> list[tuple[str, tuple[str, ...]]]:
    """(key, divisions) of each top-cut bracket: one a pod, or one a division of an
    age-modified pod (`Pod.cut_groups`). A pod whose cut was played as one bracket (an
    event mirrored from TOM, whose top cut is the pod's) is read as it was played."""
    played = set(
        Match.objects.filter(round__event=event, round__stage=Round.Stage.TOP_CUT)
        .values_list("division", flat=True)
        .distinct()
    )
    out = []
    for pod in event_pods(event):
        groups = [(key, divisions) for key, divisions, _size in pod.cut_groups()]
        if pod.key in played and not played & {key for key, _ in groups if key != pod.key}:
            groups = [(pod.key, pod.divisions)]
        out += groups
    return out


def cut_rounds(event: Event, pod_key: str) -> list[list[CutMatch]]:
    """The pod's top-cut rounds as the placement rules read them (registration ids)."""
    rounds: dict[int, list[CutMatch]] = {}
    matches = Match.objects.filter(
        round__event=event, round__stage=Round.Stage.TOP_CUT, division=pod_key
    ).order_by("round__number", "table")
    for m in matches:
        winner = winner_of(m)
        rounds.setdefault(m.round_id, []).append(
            CutMatch(
                a=str(m.player_a_id),
                b=str(m.player_b_id) if m.player_b_id else None,
                winner=str(winner) if winner else None,
            )
        )
    return list(rounds.values())


def final_standings(event: Event) -> list[dict]:
    """A finished event's final standings, for its standings page, the API and the JSON
    export: a row a player, best first (division by division, youngest first, where places
    are numbered within each division). The places are the published ones (`EventPlacement`,
    what league points are given for: the recipe of `final_placements`, or TOM's for an
    event mirrored from TOM); each row adds how far the player got in the top cut
    (`reached`: "Winner", "Final", "Top 4", ...; "" below the cut), their Swiss rank,
    record, match points, OWP and OOWP. Empty before the event is finished."""
    if event.status != Event.Status.FINISHED:
        return []
    placements = list(
        EventPlacement.objects.filter(event=event).values_list(
            "registration_id", "division", "place", "points"
        )
    )
    if not placements:
        return []
    swiss = {r["registration"]: r for r in standings_rows(event)}
    how_far: dict[str, str] = {}
    for key, _divisions in cut_groups(event):
        how_far.update(reached(cut_rounds(event, key)))
    names = dict(Registration.objects.filter(event=event).values_list("pk", "player__name"))
    order = {d: i for i, d in enumerate(age.ORDER)}
    rows = []
    # Places are numbered within each division when divisions are placed apart (an event
    # run separately, or TOM's lists of a mirrored event), else once for everyone.
    per_division = len({p[2] for p in placements}) < len(placements)
    for reg, division, place, league_points in sorted(
        placements, key=lambda p: (order.get(p[1], 9) if per_division else 0, p[2])
    ):
        row = swiss.get(reg, {})
        rows.append(
            {
                "place": place,
                "registration": reg,
                "player": names.get(reg, ""),
                "player_id": row.get("player_id", ""),
                "division": division,
                "reached": how_far.get(str(reg), ""),
                "swiss_rank": row.get("rank"),
                "record": row.get("record", ""),
                "points": row.get("points", 0),
                "owp": row.get("owp", 0),
                "oowp": row.get("oowp", 0),
                "dropped": row.get("dropped", False),
                "league_points": league_points,
            }
        )
    return rows


@transaction.atomic
def finish_event(*, event: Event) -> None:
    """Mark the event finished, record final places and queue the league points."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    require_tournament(event)
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    league_services.record_placements(event=event, placements=final_placements(event))
    webhook_events.event_finished(event)


def send_round_clock_reminders(*, now=None) -> int:
    """Tell staff when a running round has 10 minutes left and when time is up (celery beat,
    every minute; notification keys make repeats harmless)."""
    now = now or timezone.now()
    written = 0
    running = Round.objects.filter(
        status=Round.Status.RUNNING, ends_at__lte=now + timedelta(minutes=10)
    )
    for round_ in running.select_related("event__season__league"):
        missing = round_.matches.exclude(status=Match.Status.FINAL).count()
        stage = "time" if round_.ends_at <= now else "10min"
        written += notify.round_clock(round_, stage=stage, missing=missing)
    return written
