"""Rounds: pairing the next Swiss or top-cut round, publishing
it, the round clock and closing it. Anything that changes a round locks the event row
first, so two clicks on "pair next round" make one round."""

from __future__ import annotations

from collections import defaultdict
from datetime import timedelta

from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from league.models import Event, Registration
from rules import swiss, topcut
from rules.errors import DomainError
from rules.scoring import PLAY_POKEMON, match_points

from .. import notify, webhook_events
from ..models import Match, Round
from .common import ACTIVE, _lock_event, _require, _user, winner_of
from .standings import finish_event, request_standings, standings_rows
from .structure import Pod, day_one_of, event_pods
from .two_day import cut_to_day_two

# --- pairing ------------------------------------------------------------------------


def _pairing_players(event: Event, divisions: tuple[str, ...] | None) -> list[swiss.PairingPlayer]:
    regs = Registration.objects.filter(event=event).exclude(
        status__in=(Registration.Status.WITHDRAWN, Registration.Status.WAITLISTED)
    )
    if divisions:
        regs = regs.filter(division__in=divisions)
    regs = list(regs)
    opponents: dict[int, list[str]] = defaultdict(list)
    had_bye: set[int] = set()
    results = list(
        Match.objects.filter(
            round__event=event, round__stage=Round.Stage.SWISS, status=Match.Status.FINAL
        ).values_list("player_a_id", "player_b_id", "result")
    )
    points = match_points(results, PLAY_POKEMON)
    for a, b, _result in results:
        if b is None:
            had_bye.add(a)
            continue
        opponents[a].append(str(b))
        opponents[b].append(str(a))
    players = []
    for reg in regs:
        active = (
            reg.status in ACTIVE
            and (not event.require_check_in or reg.status == Registration.Status.CHECKED_IN)
            and not reg.finished_on_day_one
        )
        players.append(
            swiss.PairingPlayer(
                id=str(reg.pk),
                points=points[reg.pk],
                opponents=tuple(opponents[reg.pk]),
                had_bye=reg.pk in had_bye or reg.has_earned_bye,
                dropped=not active,
                late=bool(reg.late_entry_round and reg.late_entry_round > 1),
            )
        )
    return players


@transaction.atomic
def pair_next_round(*, event: Event, by_user) -> Round:
    """Pair the next round: a Swiss round until the event's Swiss rounds are played, then
    the top cut, one round at a time.

    Writes one `Round` (status `paired`, not yet visible to players) and its matches; a bye
    is a final win. Raises `round-open` while the last round is not closed, `event-finished`,
    `not-enough-players`.
    """
    event = _lock_event(event)
    _require(by_user, event, "pair-rounds")
    last = Round.objects.filter(event=event).order_by("-number").first()
    if last and last.status != Round.Status.CLOSED:
        raise DomainError(
            "round-open",
            _("Round %(number)s is not closed yet: enter every result first.")
            % {"number": last.number},
            status=409,
        )
    if event.status == Event.Status.FINISHED:
        raise DomainError(
            "event-finished", _("%(event)s is finished.") % {"event": event}, status=409
        )
    pods = event_pods(event)
    number = (last.number if last else 0) + 1
    swiss_played = Round.objects.filter(event=event, stage=Round.Stage.SWISS).count()
    in_swiss = [pod for pod in pods if pod.rounds > swiss_played]
    if in_swiss:
        round_ = _pair_swiss(event, number, by_user, in_swiss)
        event.swiss_rounds_paired = swiss_played + 1
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status", "swiss_rounds_paired"])
        return round_
    if all(pod.cut < 2 for pod in pods):
        raise DomainError(
            "event-finished", _("The Swiss rounds are over and there is no top cut."), status=409
        )
    return _pair_top_cut(event, number, pods, by_user)


def _pair_swiss(event: Event, number: int, by_user, pods: list[Pod]) -> Round:
    """Pair round `number` in each pod that still plays Swiss; `Match.division` is the pod."""
    seed = f"{event.seed or event.pk}"
    round_ = Round.objects.create(
        event=event, number=number, stage=Round.Stage.SWISS, seed=seed, created_by=_user(by_user)
    )
    matches: list[Match] = []
    rematches = pair_downs = 0
    for pod in pods:
        if day_one_of(event, pod) == number - 1:
            cut_to_day_two(event, pod)
        players = _pairing_players(event, pod.divisions if pod.key else None)
        if sum(1 for p in players if not p.dropped) < 2:
            if pod.key:
                continue
            raise DomainError(
                "not-enough-players", _("At least two active players are needed to pair a round.")
            )
        result = swiss.pair_round(number, players, seed=f"{seed}:{pod.key}")
        rematches += result.rematches
        pair_downs += result.pair_downs
        points = {p.id: p.points for p in players}
        ordered = sorted(result.pairings, key=lambda pair: -max(points[pair[0]], points[pair[1]]))
        pairs = [*ordered, *([(result.bye, None)] if result.bye else [])]
        tables = seat_tables(event, pairs)
        for (a, b), table in zip(pairs, tables, strict=True):
            bye = {"status": Match.Status.FINAL, "result": Match.Result.A} if b is None else {}
            matches.append(
                Match(
                    round=round_,
                    table=table,
                    division=pod.key,
                    player_a_id=int(a),
                    player_b_id=int(b) if b else None,
                    **bye,
                )
            )
    if not matches:
        raise DomainError(
            "not-enough-players", _("At least two active players are needed to pair a round.")
        )
    Match.objects.bulk_create(matches)
    round_.rematches, round_.pair_downs = rematches, pair_downs
    round_.save(update_fields=["rematches", "pair_downs"])
    webhook_events.round_paired(round_)
    return round_


def seat_tables(event: Event, pairs: list[tuple[str, str | None]]) -> list[int]:
    """Table numbers for a pod's pairs (top first, the bye last): fixed seats kept, feature
    tables only for the players fixed there (`rules.swiss.assign_tables`)."""
    ids = [int(p) for pair in pairs for p in pair if p]
    rows = Registration.objects.filter(pk__in=ids, fixed_table__isnull=False)
    fixed = {str(pk): table for pk, table in rows.values_list("pk", "fixed_table")}
    tables, _missed = swiss.assign_tables(
        pairs, fixed=fixed, feature_tables=event.feature_tables or []
    )
    return tables


def _pod_order(rows: list[dict], key: str, divisions: tuple[str, ...]) -> list[int]:
    """A bracket's Swiss standings (`standings_rows`), best first (a combined pod is ranked
    together; an age-modified division is its players in the pod's order)."""
    return [row["registration"] for row in rows if not key or row["division"] in divisions]


def _pod_cut_rounds(event: Event, key: str) -> list[list[Match]]:
    """A bracket's top-cut matches (`Pod.cut_groups`), a list per top-cut round it played,
    in table order."""
    matches = Match.objects.filter(
        round__event=event, round__stage=Round.Stage.TOP_CUT, division=key
    ).order_by("round__number", "table")
    rounds: dict[int, list[Match]] = {}
    for m in matches:
        rounds.setdefault(m.round_id, []).append(m)
    return list(rounds.values())


def _pair_top_cut(event: Event, number: int, pods: list[Pod], by_user) -> Round:
    """Pair the next top-cut round of every pod whose cut is not over: seeds from the pod's
    standings (a player who dropped gets none), then the winners of its last round. A match
    without a winner stops the bracket: `top-cut-undecided` names its table."""
    pairs_by_pod: list[tuple[str, list[tuple[str, str]]]] = []
    rows: list[dict] | None = None  # the standings, read once for every pod that seeds
    names = {key: pod.name for pod in pods for key, *_ in pod.cut_groups()}
    for key, divisions, cut in (group for pod in pods for group in pod.cut_groups()):
        if cut < 2:
            continue
        played = _pod_cut_rounds(event, key)
        if not played:
            active = set(
                Registration.objects.filter(
                    event=event, status__in=ACTIVE, finished_on_day_one=False
                ).values_list("pk", flat=True)
            )
            rows = standings_rows(event) if rows is None else rows
            seeds = [str(reg) for reg in _pod_order(rows, key, divisions) if reg in active][:cut]
            size = 1 << (len(seeds).bit_length() - 1) if seeds else 0
            pairs = topcut.bracket(seeds[:size]) if size >= 2 else []
        else:
            last = played[-1]
            if len(last) < 2:
                continue  # its final is played
            undecided = [m.table for m in last if winner_of(m) is None]
            if undecided:
                # Translators: "top cut" is the official TCG term for the single-elimination rounds.
                message = (
                    _(
                        "Table %(table)s (%(pod)s) has no winner: a top-cut match is decided by "
                        "a tiebreaker game, never a tie or a double loss."
                    )
                    if key
                    else _(
                        "Table %(table)s has no winner: a top-cut match is decided by "
                        "a tiebreaker game, never a tie or a double loss."
                    )
                )
                params = {"table": undecided[0], "pod": names[key] if key else ""}
                raise DomainError("top-cut-undecided", message % params, status=409)
            pairs = topcut.next_round([str(winner_of(m)) for m in last])
        if pairs:
            pairs_by_pod.append((key, pairs))
    if not pairs_by_pod:
        raise DomainError("event-finished", _("The top cut is over."), status=409)
    round_ = Round.objects.create(
        event=event,
        number=number,
        stage=Round.Stage.TOP_CUT,
        seed=event.seed or str(event.pk),
        created_by=_user(by_user),
    )
    Match.objects.bulk_create(
        Match(round=round_, table=table, division=key, player_a_id=int(a), player_b_id=int(b))
        for key, pairs in pairs_by_pod
        for table, (a, b) in enumerate(pairs, start=1)
    )
    _mark_top_cut(int(p) for _, pairs in pairs_by_pod for pair in pairs for p in pair)
    if event.status != Event.Status.TOP_CUT:
        event.status = Event.Status.TOP_CUT
        event.save(update_fields=["status"])
    webhook_events.round_paired(round_)
    return round_


def _mark_top_cut(registration_ids) -> None:
    """Mark the players of a top-cut round as in the cut (`Registration.in_top_cut`: the
    lists a "top cut" decklist phase opens)."""
    Registration.objects.filter(pk__in=set(registration_ids), in_top_cut=False).update(
        in_top_cut=True
    )


@transaction.atomic
def record_paired_matches(
    *,
    event: Event,
    number: int,
    stage: str,
    pairings: list[tuple[int, str, int, int | None]],
    by_user,
    replace: bool = False,
) -> Round:
    """Write matches that were paired elsewhere (TOM on the organiser's laptop) into round
    `number`, creating the round if it is new: `pairings` are `(table, division,
    registration a, registration b or None for a bye)`. A bye is a final win, as when the
    site pairs. Pods of one event are paired separately, so a round may grow: matches of a
    division the round does not hold yet are added, and their players told once the round
    is published (notification keys make that safe to repeat).

    With `replace`, the round was paired again elsewhere: its matches in the divisions of
    `pairings` are deleted first, which is allowed only while none of them has a result or a
    report (byes aside).

    Writes the `Round` (status `paired`) and its `Match` rows; moves the event to running or
    top cut. Raises `not-allowed`, `event-finished`, `round-stage` (the number is a round of
    the other stage), `round-closed` (the round is closed: no new tables),
    `round-has-results` (a re-pairing after results).
    """
    event = _lock_event(event)
    _require(by_user, event, "pair-rounds")
    if event.status == Event.Status.FINISHED:
        raise DomainError(
            "event-finished", _("%(event)s is finished.") % {"event": event}, status=409
        )
    round_ = Round.objects.select_for_update().filter(event=event, number=number).first()
    if round_ is None:
        round_ = Round.objects.create(
            event=event,
            number=number,
            stage=stage,
            seed=f"external:{event.pk}",
            created_by=_user(by_user),
        )
    elif round_.stage != stage:
        raise DomainError(
            "round-stage",
            _("Round %(number)s is a %(stage)s round here.")
            % {"number": number, "stage": round_.get_stage_display()},
            status=409,
        )
    elif pairings and round_.status == Round.Status.CLOSED:
        raise DomainError(
            "round-closed",
            _("Round %(number)s is closed: no tables can be added.") % {"number": number},
            status=409,
        )
    if replace:
        old = Match.objects.filter(round=round_, division__in={d for _, d, _, _ in pairings})
        played = Q(status=Match.Status.FINAL) | Q(reports__isnull=False)
        if old.filter(player_b__isnull=False).filter(played).exists():
            raise DomainError(
                "round-has-results",
                _("Round %(number)s has results: it cannot be paired again.") % {"number": number},
                status=409,
            )
        old.delete()
    Match.objects.bulk_create(
        Match(
            round=round_,
            table=table,
            division=division,
            player_a_id=a,
            player_b_id=b,
            **({"status": Match.Status.FINAL, "result": Match.Result.A} if b is None else {}),
        )
        for table, division, a, b in pairings
    )
    webhook_events.round_paired(round_)
    status = Event.Status.TOP_CUT if stage == Round.Stage.TOP_CUT else Event.Status.RUNNING
    if event.status != status and not (
        status == Event.Status.RUNNING and event.status == Event.Status.TOP_CUT
    ):
        event.status = status
        event.save(update_fields=["status"])
    if stage == Round.Stage.TOP_CUT:
        _mark_top_cut(p for _, _, a, b in pairings for p in (a, b) if p)
    if stage == Round.Stage.SWISS and number > event.swiss_rounds_paired:
        event.swiss_rounds_paired = number
        event.save(update_fields=["swiss_rounds_paired"])
    if pairings and round_.status != Round.Status.PAIRED:
        notify.pairings_published(round_)
    return round_


@transaction.atomic
def publish_round(*, round_: Round, by_user) -> Round:
    """Make the pairings visible and notify every player of their opponent and table."""
    event = _lock_event(round_.event)
    _require(by_user, event, "pair-rounds")
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.PAIRED:
        return round_
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    notify.pairings_published(round_)
    webhook_events.round_published(round_)
    return round_


@transaction.atomic
def start_clock(*, round_: Round, by_user) -> Round:
    """Start the round clock (publishing the pairings first if needed)."""
    event = _lock_event(round_.event)
    _require(by_user, event, "pair-rounds")
    if round_.status == Round.Status.PAIRED:
        publish_round(round_=round_, by_user=by_user)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.CLOSED:
        raise DomainError(
            "round-closed", _("Round %(number)s is closed.") % {"number": round_.number}, status=409
        )
    now = timezone.now()
    round_.status = Round.Status.RUNNING
    round_.clock_started_at = now
    round_.ends_at = now + timedelta(minutes=event.round_minutes)
    round_.save(update_fields=["status", "clock_started_at", "ends_at"])
    return round_


@transaction.atomic
def close_round(*, round_: Round, by_user) -> Round:
    """Close a round once every result stands, publishing it first if it is only paired.
    Closing the last top-cut round (or the last Swiss round of an event with no cut)
    finishes the event and awards league points.
    Raises `results-missing`."""
    event = _lock_event(round_.event)
    _require(by_user, event, "pair-rounds")
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.CLOSED:
        return round_
    open_tables = list(
        round_.matches.exclude(status=Match.Status.FINAL)
        .order_by("table")
        .values_list("table", flat=True)
    )
    if open_tables:
        shown = ", ".join(map(str, open_tables[:10])) + ("…" if len(open_tables) > 10 else "")
        raise DomainError(
            "results-missing",
            _("Results are missing at table(s) %(tables)s.") % {"tables": shown},
            status=409,
        )
    if round_.status == Round.Status.PAIRED:
        # A closed round is public: it is published first (players told, webhooks sent).
        round_ = publish_round(round_=round_, by_user=by_user)
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    if round_.stage == Round.Stage.SWISS:
        request_standings(event=event, round_number=round_.number, publish_round=round_.number)
    if _event_complete(event):
        finish_event(event=event)
    return round_


def _event_complete(event: Event) -> bool:
    """Every pod is done: its Swiss rounds played and, with a top cut, its final (or too few
    players were left to seed one)."""
    swiss_count = Round.objects.filter(event=event, stage=Round.Stage.SWISS).count()
    for pod in event_pods(event):
        if swiss_count < pod.rounds:
            return False
        for key, divisions, cut in pod.cut_groups():
            if cut < 2:
                continue
            played = _pod_cut_rounds(event, key)
            final_played = bool(played) and len(played[-1]) == 1
            if not final_played and (played or _seedable(event, key, divisions)):
                return False
    return True


def _seedable(event: Event, key: str, divisions: tuple[str, ...]) -> bool:
    active = Registration.objects.filter(event=event, status__in=ACTIVE, finished_on_day_one=False)
    if key:
        active = active.filter(division__in=divisions)
    return active.count() >= 2
