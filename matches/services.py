"""Running an event: pairing rounds, results, the top cut, standings.

Each function owns its transaction, raises `DomainError` with a stable code for a mistake
staff or players can fix, and says what it writes and what it queues. The pairing and
standings rules themselves live in `rules/`; this module loads rows, calls them and saves.

Concurrency: anything that changes a round takes a row lock on the event first, so two
clicks on "pair next round" make one round; anything that changes a result locks the match,
so two reports arriving at once are applied one after the other and both are kept.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from datetime import timedelta
from functools import partial

from django.db import transaction
from django.db.models import Q
from django.utils import timezone

from league import permissions
from league import services as league_services
from league.models import Event, Registration
from rules import swiss, topcut
from rules.errors import DomainError
from rules.results import Resolution, games_from_payload, resolve_match
from rules.scoring import PLAY_POKEMON, structure_for, table_from_rows
from rules.standings import compute_standings

from . import notify, selectors
from .models import (
    Game,
    Match,
    ResultChange,
    ResultReport,
    Round,
    StandingsSnapshot,
    StandingsState,
)

ACTIVE = (Registration.Status.REGISTERED, Registration.Status.CHECKED_IN)
#: How long a standings request waits on the broker, gathering the results that follow it.
STANDINGS_COALESCE_SECONDS = 1


# --- structure ----------------------------------------------------------------------


def event_structure(event: Event) -> tuple[int, int]:
    """(Swiss rounds, top cut size) for the event: its overrides, else the season's table by
    attendance."""
    attendance = Registration.objects.filter(
        event=event, status__in=(*ACTIVE, Registration.Status.DROPPED)
    ).count()
    table = table_from_rows(event.season.structure_table)
    if attendance < table[0].min_players:
        rounds, cut = max(1, min(3, attendance - 1)), 0  # below the table: a short league night
    else:
        rounds, cut = structure_for(attendance, table)
    if event.swiss_rounds:
        rounds = event.swiss_rounds
    if event.top_cut is not None:
        cut = event.top_cut
    return rounds, cut


def _lock_event(event: Event) -> Event:
    return Event.objects.select_for_update().select_related("season__league", "format").get(pk=event.pk)


def _require_staff(user, event: Event) -> None:
    if not permissions.is_event_staff(user, event):
        raise DomainError("not-allowed", "Only the event's staff can do this.", status=403)


# --- pairing ------------------------------------------------------------------------


def _pairing_players(event: Event, division: str | None) -> list[swiss.PairingPlayer]:
    regs = Registration.objects.filter(event=event).exclude(
        status__in=(Registration.Status.WITHDRAWN, Registration.Status.WAITLISTED)
    )
    if division:
        regs = regs.filter(division=division)
    regs = list(regs)
    points: dict[int, int] = defaultdict(int)
    opponents: dict[int, list[str]] = defaultdict(list)
    had_bye: set[int] = set()
    score = {"win": PLAY_POKEMON.win_points, "tie": PLAY_POKEMON.tie_points, "loss": PLAY_POKEMON.loss_points}
    results = Match.objects.filter(
        round__event=event, round__stage=Round.Stage.SWISS, status=Match.Status.FINAL
    ).values_list("player_a_id", "player_b_id", "result")
    for a, b, result in results:
        if b is None:
            had_bye.add(a)
            points[a] += score["win"]
            continue
        opponents[a].append(str(b))
        opponents[b].append(str(a))
        if result == Match.Result.TIE:
            points[a] += score["tie"]
            points[b] += score["tie"]
        elif result in (Match.Result.A, Match.Result.B):
            points[a if result == Match.Result.A else b] += score["win"]
    players = []
    for reg in regs:
        active = reg.status in ACTIVE and (
            not event.require_check_in or reg.status == Registration.Status.CHECKED_IN
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
    _require_staff(by_user, event)
    last = Round.objects.filter(event=event).order_by("-number").first()
    if last and last.status != Round.Status.CLOSED:
        raise DomainError(
            "round-open", f"Round {last.number} is not closed yet: enter every result first.", status=409
        )
    if event.status == Event.Status.FINISHED:
        raise DomainError("event-finished", f"{event} is finished.", status=409)
    swiss_rounds, cut = event_structure(event)
    number = (last.number if last else 0) + 1
    swiss_played = Round.objects.filter(event=event, stage=Round.Stage.SWISS).count()
    if swiss_played < swiss_rounds:
        round_ = _pair_swiss(event, number, by_user)
        if event.status != Event.Status.RUNNING:
            event.status = Event.Status.RUNNING
            event.save(update_fields=["status"])
        return round_
    if cut < 2:
        raise DomainError("event-finished", "The Swiss rounds are over and there is no top cut.", status=409)
    return _pair_top_cut(event, number, cut, by_user)


def _divisions(event: Event) -> list[str]:
    if event.division_mode == Event.DivisionMode.SEPARATE:
        return list(
            Registration.objects.filter(event=event, status__in=ACTIVE)
            .order_by()
            .values_list("division", flat=True)
            .distinct()
        )
    return [""]


def _pair_swiss(event: Event, number: int, by_user) -> Round:
    seed = f"{event.seed or event.pk}"
    round_ = Round.objects.create(
        event=event, number=number, stage=Round.Stage.SWISS, seed=seed, created_by=_user(by_user)
    )
    matches: list[Match] = []
    rematches = pair_downs = 0
    for division in _divisions(event):
        players = _pairing_players(event, division or None)
        if sum(1 for p in players if not p.dropped) < 2:
            if division:
                continue
            raise DomainError("not-enough-players", "At least two active players are needed to pair a round.")
        result = swiss.pair_round(number, players, seed=f"{seed}:{division}")
        rematches += result.rematches
        pair_downs += result.pair_downs
        points = {p.id: p.points for p in players}
        ordered = sorted(result.pairings, key=lambda pair: -max(points[pair[0]], points[pair[1]]))
        table = 0
        for table, (a, b) in enumerate(ordered, start=1):
            matches.append(Match(round=round_, table=table, division=division, player_a_id=int(a), player_b_id=int(b)))
        if result.bye:
            matches.append(
                Match(round=round_, table=table + 1, division=division, player_a_id=int(result.bye),
                      status=Match.Status.FINAL, result=Match.Result.A)
            )  # fmt: skip
    Match.objects.bulk_create(matches)
    round_.rematches, round_.pair_downs = rematches, pair_downs
    round_.save(update_fields=["rematches", "pair_downs"])
    return round_


def _swiss_order(event: Event, division: str) -> list[int]:
    rows = standings_rows(event)
    return [row["registration"] for row in rows if not division or row["division"] == division]


def _pair_top_cut(event: Event, number: int, cut: int, by_user) -> Round:
    previous = Round.objects.filter(event=event, stage=Round.Stage.TOP_CUT).order_by("-number").first()
    matches: list[Match] = []
    round_ = Round.objects.create(
        event=event, number=number, stage=Round.Stage.TOP_CUT, seed=event.seed or str(event.pk),
        created_by=_user(by_user),
    )  # fmt: skip
    for division in _divisions(event):
        if previous is None:
            order = _swiss_order(event, division)
            active = set(
                Registration.objects.filter(event=event, status__in=ACTIVE).values_list("pk", flat=True)
            )
            seeds = [str(reg) for reg in order if reg in active][:cut]
            size = 1 << (len(seeds).bit_length() - 1) if seeds else 0
            pairs = topcut.bracket(seeds[:size]) if size >= 2 else []
        else:
            winners = [
                str(m.player_a_id if m.result == Match.Result.A else m.player_b_id)
                for m in previous.matches.filter(division=division).order_by("table")
            ]
            if len(winners) < 2:
                continue
            pairs = topcut.next_round(winners)
        for table, (a, b) in enumerate(pairs, start=1):
            matches.append(Match(round=round_, table=table, division=division, player_a_id=int(a), player_b_id=int(b)))
    if not matches:
        raise DomainError("event-finished", "The top cut is over.", status=409)
    Match.objects.bulk_create(matches)
    if event.status != Event.Status.TOP_CUT:
        event.status = Event.Status.TOP_CUT
        event.save(update_fields=["status"])
    return round_


def _user(user):
    return user if user is not None and user.is_authenticated else None


@transaction.atomic
def record_paired_matches(
    *, event: Event, number: int, stage: str, pairings: list[tuple[int, str, int, int | None]], by_user,
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
    _require_staff(by_user, event)
    if event.status == Event.Status.FINISHED:
        raise DomainError("event-finished", f"{event} is finished.", status=409)
    round_ = Round.objects.select_for_update().filter(event=event, number=number).first()
    if round_ is None:
        round_ = Round.objects.create(
            event=event, number=number, stage=stage, seed=f"external:{event.pk}", created_by=_user(by_user)
        )
    elif round_.stage != stage:
        raise DomainError(
            "round-stage", f"Round {number} is a {round_.get_stage_display()} round here.", status=409
        )
    elif pairings and round_.status == Round.Status.CLOSED:
        raise DomainError("round-closed", f"Round {number} is closed: no tables can be added.", status=409)
    if replace:
        old = Match.objects.filter(round=round_, division__in={d for _, d, _, _ in pairings})
        if old.filter(player_b__isnull=False).filter(Q(status=Match.Status.FINAL) | Q(reports__isnull=False)).exists():
            raise DomainError(
                "round-has-results", f"Round {number} has results: it cannot be paired again.", status=409
            )
        old.delete()
    Match.objects.bulk_create(
        Match(round=round_, table=table, division=division, player_a_id=a, player_b_id=b,
              **({"status": Match.Status.FINAL, "result": Match.Result.A} if b is None else {}))
        for table, division, a, b in pairings
    )  # fmt: skip
    status = Event.Status.TOP_CUT if stage == Round.Stage.TOP_CUT else Event.Status.RUNNING
    if event.status != status and not (status == Event.Status.RUNNING and event.status == Event.Status.TOP_CUT):
        event.status = status
        event.save(update_fields=["status"])
    if pairings and round_.status != Round.Status.PAIRED:
        notify.pairings_published(round_)
    return round_


@transaction.atomic
def publish_round(*, round_: Round, by_user) -> Round:
    """Make the pairings visible and notify every player of their opponent and table."""
    event = _lock_event(round_.event)
    _require_staff(by_user, event)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status != Round.Status.PAIRED:
        return round_
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    notify.pairings_published(round_)
    return round_


@transaction.atomic
def start_clock(*, round_: Round, by_user) -> Round:
    """Start the round clock (publishing the pairings first if needed)."""
    event = _lock_event(round_.event)
    _require_staff(by_user, event)
    if round_.status == Round.Status.PAIRED:
        publish_round(round_=round_, by_user=by_user)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.CLOSED:
        raise DomainError("round-closed", f"Round {round_.number} is closed.", status=409)
    now = timezone.now()
    round_.status = Round.Status.RUNNING
    round_.clock_started_at = now
    round_.ends_at = now + timedelta(minutes=event.round_minutes)
    round_.save(update_fields=["status", "clock_started_at", "ends_at"])
    return round_


@transaction.atomic
def close_round(*, round_: Round, by_user) -> Round:
    """Close a round once every result stands. Closing the last top-cut round (or the last
    Swiss round of an event with no cut) finishes the event and awards league points.
    Raises `results-missing`."""
    event = _lock_event(round_.event)
    _require_staff(by_user, event)
    round_ = Round.objects.select_for_update().get(pk=round_.pk)
    if round_.status == Round.Status.CLOSED:
        return round_
    open_tables = list(
        round_.matches.exclude(status=Match.Status.FINAL).order_by("table").values_list("table", flat=True)
    )
    if open_tables:
        shown = ", ".join(map(str, open_tables[:10])) + ("…" if len(open_tables) > 10 else "")
        raise DomainError(
            "results-missing", f"Results are missing at table(s) {shown}.", status=409
        )
    round_.status = Round.Status.CLOSED
    round_.closed_at = timezone.now()
    round_.save(update_fields=["status", "closed_at"])
    if round_.stage == Round.Stage.SWISS:
        request_standings(event=event, round_number=round_.number, publish_round=round_.number)
    if _event_complete(event, round_):
        finish_event(event=event)
    return round_


def _event_complete(event: Event, round_: Round) -> bool:
    if round_.stage == Round.Stage.TOP_CUT:
        # A top-cut round with one match per division still playing was the final.
        per_division = Counter(round_.matches.values_list("division", flat=True))
        return all(n == 1 for n in per_division.values())
    swiss_rounds, cut = event_structure(event)
    swiss_count = Round.objects.filter(event=event, stage=Round.Stage.SWISS).count()
    return swiss_count >= swiss_rounds and cut < 2


# --- results ------------------------------------------------------------------------


def _resolve(match: Match, payload: dict) -> Resolution:
    event = match.round.event
    return resolve_match(
        games_from_payload(payload.get("games", [])),
        best_of=event.best_of,
        top_cut=match.round.stage == Round.Stage.TOP_CUT,
        at_time=bool(payload.get("at_time")),
        intentional_draw=bool(payload.get("intentional_draw")),
        sudden_death_prizes=event.sudden_death_prizes,
    )


def _canonical(resolution: Resolution, payload: dict) -> dict:
    """The report in one normal form, so two reports of the same games compare equal."""
    return {
        "result": resolution.result,
        "games": [
            {"number": g.number, "sequence": g.sequence, "outcome": g.outcome, "reason": g.reason,
             "prizes": g.prizes}
            for g in resolution.games
        ],
        "at_time": bool(payload.get("at_time")),
        "intentional_draw": bool(payload.get("intentional_draw")),
    }  # fmt: skip


def _check_complete(resolution: Resolution) -> None:
    if not resolution.complete:
        nxt = resolution.next_game
        raise DomainError(
            "result-incomplete",
            f"The match is not over: game {nxt.number}"
            + (f" (sudden death, {nxt.prizes} Prize card{'s' if nxt.prizes > 1 else ''})" if nxt.prizes < 6 or nxt.sequence else "")
            + f" is still to be played ({nxt.why}).",
        )


def _lock_match(match: Match) -> Match:
    return (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__event__season__league", "player_a__player", "player_b__player")
        .get(pk=match.pk)
    )


@transaction.atomic
def report_result(*, match: Match, by_user, payload: dict) -> Match:
    """A player reports their match: `payload = {"games": [{"outcome": "a"|"b"|"both_won"|
    "tie"|"double_loss", "reason"?, "prizes"?}, ...], "at_time"?: bool,
    "intentional_draw"?: bool}` with games in the order played (a sudden-death replay right
    after the game it replays).

    Writes a `ResultReport`. When the other player's report agrees, the result stands (games,
    result, history, standings queued); when it differs the match is disputed and staff are
    told; otherwise the opponent is asked to confirm. Raises `not-your-match`,
    `round-not-public`, `result-final`, `result-incomplete`, `invalid-result`.
    """
    match = _lock_match(match)
    reg = Registration.objects.filter(event=match.round.event, player__user=by_user).first() if by_user else None
    side = match.side_of(reg.pk) if reg else None
    if side is None:
        raise DomainError("not-your-match", "You can only report your own match.", status=403)
    if match.is_bye:
        raise DomainError("result-final", "A bye needs no report.", status=409)
    if not match.round.is_public:
        raise DomainError("round-not-public", "This round's pairings are not published yet.", status=409)
    if match.status == Match.Status.FINAL:
        raise DomainError("result-final", "The result already stands; ask staff to correct it.", status=409)
    resolution = _resolve(match, payload)
    _check_complete(resolution)
    canonical = _canonical(resolution, payload)
    match.reports.filter(side=side, superseded=False).update(superseded=True)
    ResultReport.objects.create(match=match, side=side, reported_by=by_user, payload=canonical)
    other = match.reports.filter(side="b" if side == "a" else "a", superseded=False).order_by("-id").first()
    if other is None:
        match.status = Match.Status.REPORTED
        match.save(update_fields=["status", "updated_at"])
        notify.result_reported(match, reported_by_side=side)
    elif other.payload == canonical:
        _apply(match, resolution, canonical, by_user=by_user, source="players", note="both players agreed")
    else:
        match.status = Match.Status.DISPUTED
        match.save(update_fields=["status", "updated_at"])
        notify.result_disputed(match)
    return match


@transaction.atomic
def set_result(*, match: Match, by_user, payload: dict, note: str = "") -> Match:
    """Staff enter or correct a result, in any state, even after the round closed. The
    change is kept with who and when; a disputed match is resolved and both players told;
    the standings are recomputed (a published round's standings get a new version)."""
    match = _lock_match(match)
    _require_staff(by_user, match.round.event)
    if match.is_bye:
        raise DomainError("result-final", "A bye cannot be changed; re-pair instead.", status=409)
    resolution = _resolve(match, payload)
    _check_complete(resolution)
    was_disputed = match.status == Match.Status.DISPUTED
    _apply(match, resolution, _canonical(resolution, payload), by_user=by_user, source="staff", note=note)
    if was_disputed:
        notify.dispute_resolved(match)
    return match


@transaction.atomic
def record_decided_result(*, match: Match, result: str, by_user, source: str = "tom", note: str = "") -> Match:
    """A result decided elsewhere without its games (TOM keeps only who won): `result` is
    "a", "b", "tie" or "double_loss". The change is kept with who, when, before and after
    like any staff correction, and the standings are recomputed. Does nothing when the match
    already has that result. Raises `not-allowed`, `result-final` for a bye,
    `invalid-result`."""
    match = _lock_match(match)
    _require_staff(by_user, match.round.event)
    if match.is_bye:
        raise DomainError("result-final", "A bye cannot be changed; re-pair instead.", status=409)
    if result not in Match.Result.values:
        raise DomainError("invalid-result", f"Unknown result {result!r}.")
    if match.status == Match.Status.FINAL and match.result == result:
        return match
    resolution = Resolution(result=result, a_wins=0, b_wins=0, games=(), next_game=None)
    canonical = {"result": result, "games": [], "at_time": False, "intentional_draw": False}
    was_disputed = match.status == Match.Status.DISPUTED
    _apply(match, resolution, canonical, by_user=by_user, source=source, note=note)
    if was_disputed:
        notify.dispute_resolved(match)
    return match


def _snapshot(match: Match) -> dict | None:
    if not match.result:
        return None
    games = [
        {"number": g.number, "sequence": g.sequence, "outcome": g.outcome, "reason": g.reason, "prizes": g.prizes}
        for g in match.games.order_by("number", "sequence")
    ]  # fmt: skip
    return {"result": match.result, "games": games, "at_time": match.ended_at_time,
            "intentional_draw": match.intentional_draw}  # fmt: skip


def _apply(match: Match, resolution: Resolution, canonical: dict, *, by_user, source: str, note: str) -> None:
    before = _snapshot(match)
    match.games.all().delete()
    slot_heads: dict[int, Game] = {}
    for played in resolution.games:
        game = Game.objects.create(
            match=match,
            number=played.number,
            sequence=played.sequence,
            replay_of=slot_heads.get(played.number) if played.sequence else None,
            prizes=played.prizes,
            outcome=played.outcome,
            reason=played.reason,
        )
        slot_heads[played.number] = game
    match.result = resolution.result
    match.a_game_wins, match.b_game_wins = resolution.a_wins, resolution.b_wins
    match.ended_at_time = canonical["at_time"]
    match.intentional_draw = canonical["intentional_draw"]
    match.status = Match.Status.FINAL
    match.save()
    ResultChange.objects.create(
        match=match, changed_by=_user(by_user), source=source, before=before, after=canonical, note=note[:200]
    )
    if match.round.stage == Round.Stage.SWISS:
        # Marked after commit, in a transaction of its own: a hundred tables reporting at
        # once then hold the event's standings row for a moment each, not for their whole
        # report.
        transaction.on_commit(
            partial(request_standings, event=match.round.event, round_number=match.round.number)
        )


# --- standings ----------------------------------------------------------------------


@transaction.atomic
def request_standings(*, event: Event, round_number: int, publish_round: int | None = None) -> None:
    """Ask for the standings from `round_number` on to be recomputed after this transaction
    commits. Many requests in a short time make one task run: the task is queued only when
    none is waiting (`StandingsState.queued`), and it covers every round marked dirty."""
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
        from . import tasks

        event_id = event.pk
        transaction.on_commit(
            lambda: tasks.recompute_standings.apply_async(
                args=[event_id], kwargs={"publish_round": publish_round},
                countdown=0 if publish_round else STANDINGS_COALESCE_SECONDS,
            )
        )  # fmt: skip


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
    records = selectors.match_records(event, through_round=through_round)
    dropped = {str(r.pk): r.dropped_after_round for r in regs.values() if r.dropped_after_round}
    # The engine's `late` is the round that was running when the player came in (they lose
    # it and every round before); ours is the first round they play.
    late = {str(r.pk): r.late_entry_round - 1 for r in regs.values() if r.late_entry_round and r.late_entry_round > 1}
    groups = (
        _division_groups(regs, records)
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
        )
        for s in standings:
            reg = regs[int(s.id)]
            rows.append({
                "registration": reg.pk, "player": reg.player.name, "player_id": reg.player.player_id,
                "division": reg.division, "rank": s.rank, "points": s.points, "record": s.record,
                "owp": round(s.owp, 4), "oowp": round(s.oowp, 4), "dropped": s.dropped,
            })  # fmt: skip
    return rows


def _division_groups(regs: dict, records) -> dict[str, list[int]]:
    """Each division ranked on its own, except divisions that played each other (a Juniors
    and Seniors pod of an event run in TOM): those are ranked together, as TOM does."""
    merged = {r.division: r.division for r in regs.values()}
    for m in records:
        if m.b is not None and int(m.a) in regs and int(m.b) in regs:
            da, db = regs[int(m.a)].division, regs[int(m.b)].division
            if merged[da] != merged[db]:
                old, new = max(merged[da], merged[db]), min(merged[da], merged[db])
                merged = {d: new if g == old else g for d, g in merged.items()}
    groups: dict[str, list[int]] = {}
    for pk, r in regs.items():
        groups.setdefault(merged[r.division], []).append(pk)
    return groups


def recompute_standings(*, event_id: int, publish_round: int | None = None) -> list[StandingsSnapshot]:
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
        rounds = Round.objects.filter(event=event, stage=Round.Stage.SWISS, number__gte=start).order_by("number")
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
        StandingsState.objects.filter(pk=event_id, computed__lt=requested).update(computed=requested)
    if publish_round and any(s.round_number == publish_round and s.published for s in written):
        notify.standings_published(event, publish_round)
    return written


# --- finishing ----------------------------------------------------------------------


def final_placements(event: Event) -> list[tuple[int, str, int]]:
    """(registration, division, place) for everyone: top-cut players by how far they got
    (ties within a stage by Swiss seed), then the rest in Swiss order."""
    rows = standings_rows(event)
    out = []
    divisions = sorted({r["division"] for r in rows}) if event.division_mode == Event.DivisionMode.SEPARATE else [""]
    cut_rounds = list(Round.objects.filter(event=event, stage=Round.Stage.TOP_CUT).order_by("number"))
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
            placed.extend(sorted((x for x in losers if x not in placed), key=lambda r: seed_of.get(r, 10**9)))
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
    running = Round.objects.filter(status=Round.Status.RUNNING, ends_at__lte=now + timedelta(minutes=10))
    for round_ in running.select_related("event__season__league"):
        missing = round_.matches.exclude(status=Match.Status.FINAL).count()
        stage = "time" if round_.ends_at <= now else "10min"
        written += notify.round_clock(round_, stage=stage, missing=missing)
    return written
