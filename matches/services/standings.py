"""Standings (coalesced recomputes, snapshots and their publication), final places, the
end of an event, and the round-clock reminders."""

from __future__ import annotations

from datetime import timedelta

from django.db import transaction
from django.utils import timezone

from league import services as league_services
from league.models import Event, Registration
from notifications import outbox
from rules.standings import compute_standings

from .. import notify, selectors
from ..models import (
    Match,
    Round,
    StandingsSnapshot,
    StandingsState,
)
from .structure import event_structure

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
    StandingsState.objects.get_or_create(event=event)
    state = StandingsState.objects.select_for_update().get(event=event)
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
    """The Swiss standings as rows for pages, the API and snapshots, best first. In an event
    run with separate divisions each division is ranked on its own; combined events rank
    everyone together (ranks within a division follow that order)."""
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
    # A drop after a later round is not yet a drop (the engine ignores it), and the cap on a
    # dropped player's win rate depends on the event's number of Swiss rounds.
    swiss_rounds, _cut = event_structure(event)
    dropped = {str(r.pk): r.dropped_after_round for r in regs.values() if r.dropped_after_round}
    # The engine's `late` is the round that was running when the player came in (they lose
    # it and every round before); ours is the first round they play.
    late = {
        str(r.pk): r.late_entry_round - 1
        for r in regs.values()
        if r.late_entry_round and r.late_entry_round > 1
    }
    groups = (
        {
            d: [pk for pk, r in regs.items() if r.division == d]
            for d in {r.division for r in regs.values()}
        }
        if event.division_mode == Event.DivisionMode.SEPARATE
        else {"": list(regs)}
    )
    rows = []
    for _division, members in sorted(groups.items()):
        ids = {str(pk) for pk in members}
        standings = compute_standings(
            sorted(ids),
            [m for m in records if m.a in ids],
            dropped={k: v for k, v in dropped.items() if k in ids},
            late={k: v for k, v in late.items() if k in ids},
            seed=f"{event.seed or event.pk}",
            through_round=through_round,
            swiss_rounds=swiss_rounds,
        )
        for s in standings:
            reg = regs[int(s.id)]
            rows.append({
                "registration": reg.pk, "player": reg.player.name, "player_id": reg.player.player_id,
                "division": reg.division, "rank": s.rank, "points": s.points, "record": s.record,
                "owp": round(s.owp, 4), "oowp": round(s.oowp, 4), "dropped": s.dropped,
            })  # fmt: skip
    return rows


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
                .order_by("-version").first()
            )  # fmt: skip
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
                        event=event, round_number=round_.number,
                        version=(latest.version + 1) if latest else 1, rows=rows, published=publish,
                    )
                )  # fmt: skip
        StandingsState.objects.filter(pk=event_id, computed__lt=requested).update(
            computed=requested
        )
    if publish_round and any(s.round_number == publish_round and s.published for s in written):
        notify.standings_published(event, publish_round)
    return written


# --- finishing ----------------------------------------------------------------------


def final_placements(event: Event) -> list[tuple[int, str, int]]:
    """(registration, division, place) for everyone: top-cut players by how far they got
    (ties within a stage by Swiss seed), then the rest in Swiss order."""
    rows = standings_rows(event)
    out = []
    divisions = (
        sorted({r["division"] for r in rows})
        if event.division_mode == Event.DivisionMode.SEPARATE
        else [""]
    )
    cut_rounds = list(
        Round.objects.filter(event=event, stage=Round.Stage.TOP_CUT).order_by("number")
    )
    for division in divisions:
        swiss_order = [r["registration"] for r in rows if not division or r["division"] == division]
        seed_of = {reg: i for i, reg in enumerate(swiss_order)}
        placed: list[int] = []
        for round_ in reversed(cut_rounds):
            ms = [m for m in round_.matches.all() if not division or m.division == division]
            if round_ is cut_rounds[-1]:
                for m in ms:
                    winner = m.player_a_id if m.result == Match.Result.A else m.player_b_id
                    if winner not in placed:
                        placed.append(winner)
            losers = [m.player_b_id if m.result == Match.Result.A else m.player_a_id for m in ms]
            placed.extend(
                sorted((x for x in losers if x not in placed), key=lambda r: seed_of.get(r, 10**9))
            )
        placed += [reg for reg in swiss_order if reg not in placed]
        division_of = {r["registration"]: r["division"] for r in rows}
        out += [(reg, division_of[reg], place) for place, reg in enumerate(placed, start=1)]
    return out


@transaction.atomic
def finish_event(*, event: Event) -> None:
    """Mark the event finished, record final places and queue the league points."""
    event = Event.objects.select_for_update().get(pk=event.pk)
    event.status = Event.Status.FINISHED
    event.save(update_fields=["status"])
    league_services.record_placements(event=event, placements=final_placements(event))


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
