"""Read queries shared by the pages, the API, the services and the tasks."""

from __future__ import annotations

from django.db.models import (
    Case,
    Count,
    IntegerField,
    Max,
    OuterRef,
    Prefetch,
    Q,
    QuerySet,
    Subquery,
    Value,
    When,
)

from league import permissions
from league.models import DeckSubmission, Division, Event, Registration
from league.selectors import with_public_names
from rules.scoring import PLAY_POKEMON, match_points
from rules.standings import MatchRecord

from .models import Game, Match, ResultReport, Round, StandingsSnapshot


def swiss_matches(event: Event, *, through_round: int | None = None) -> QuerySet[Match]:
    qs = Match.objects.filter(round__event=event, round__stage=Round.Stage.SWISS)
    if through_round is not None:
        qs = qs.filter(round__number__lte=through_round)
    return qs.order_by("round__number", "table")


def match_records(event: Event, *, through_round: int | None = None) -> list[MatchRecord]:
    """The Swiss results as the standings engine reads them, with a late entrant's forced
    losses for the rounds they missed and earned byes marked. A double loss is a loss for each player, and each is
    the other's opponent, as for any pairing."""
    records: list[MatchRecord] = []
    rows = (
        swiss_matches(event, through_round=through_round)
        .filter(status=Match.Status.FINAL)
        .values_list("round__number", "player_a_id", "player_b_id", "result")
    )
    # A round-1 bye of a player who held an earned bye (TOM's outcome 4) is that bye.
    earned = set(
        Registration.objects.filter(event=event, has_earned_bye=True).values_list("pk", flat=True)
    )
    for number, a_id, b_id, result in rows:
        a, b = str(a_id), (str(b_id) if b_id else None)
        is_earned = b is None and result == "a" and number == 1 and a_id in earned
        records.append(MatchRecord(round=number, a=a, b=b, result=result, earned=is_earned))
    late = Registration.objects.filter(event=event, late_entry_round__gt=1).values_list(
        "pk", "late_entry_round"
    )
    for reg, first_round in late:
        for missed in range(1, first_round):
            if through_round is None or missed <= through_round:
                records.append(MatchRecord(round=missed, a=str(reg), b=None, result="b"))
    return records


def points_before(event: Event, number: int) -> dict[int, int]:
    """Each registration's Swiss match points before round `number` (one query)."""
    rows = Match.objects.filter(
        round__event=event,
        round__stage=Round.Stage.SWISS,
        round__number__lt=number,
        status=Match.Status.FINAL,
    ).values_list("player_a_id", "player_b_id", "result")
    return match_points(rows, PLAY_POKEMON)


def visible_rounds(event: Event, *, staff: bool) -> QuerySet[Round]:
    """The rounds of `event` a viewer may see: all of them for staff, else those whose
    pairings are published."""
    rounds = Round.objects.filter(event=event)
    return rounds if staff else rounds.public()


def standings_rows_for(user, event: Event, rows: list[dict], *, staff: bool) -> list[dict]:
    """Standings rows as `user` may read them: Play! Pokémon IDs (minors' among them) only
    where the site shows them, to the event's staff (`staff`: `can(user, event,
    "view-private")`) and to each player on their own row; "" elsewhere (the public
    standings page shows none). Names: full to staff, public names (a minor's first name
    and initial, `league.selectors.with_public_names`) to everyone else."""
    if staff:
        return rows
    rows = with_public_names(rows)
    own: set[int] = set()
    if user is not None and user.is_authenticated:
        own = set(
            Registration.objects.filter(event=event, player__user=user).values_list("pk", flat=True)
        )
    return [row if row.get("registration") in own else {**row, "player_id": ""} for row in rows]


def can_view_round(user, round_: Round, *, staff: bool | None = None) -> bool:
    """The one question "may `user` see this round (its pairings, matches, results)?", for
    pages, API and webhooks alike: the event's staff always; anyone else when they may see
    the event (`permissions.can_view_event`) and the round is public (`Round.is_public`).
    `staff`: the caller's answer to `can(user, event, "view-private")`, if it has one."""
    event = round_.event
    if staff is None:
        staff = permissions.can(user, event, "view-private")
    return staff or (round_.is_public and permissions.can_view_event(user, event))


def current_match(user, event: Event) -> Match | None:
    """`user`'s match in the event's latest published round, with its round and players
    (one query), or None: nothing published yet, or not paired in that round."""
    latest = visible_rounds(event, staff=False).order_by("-number").values("number")[:1]
    # By the user's entries in this event (the matches' indexed player columns): a filter on
    # the players' accounts read every match of the round (2,048 rows at a Regional).
    mine = Registration.objects.filter(event=event, player__user=user).values("pk")
    return (
        Match.objects.filter(round__event=event, round__number=Subquery(latest))
        .filter(Q(player_a_id__in=mine) | Q(player_b_id__in=mine))
        .select_related("round", "player_a__player", "player_b__player")
        .first()
    )


def match_in_round(round_id: int, registration_id: int) -> Match | None:
    """The registration's match in that round, with its round and players (one query on
    the matches' indexed columns), or None: not paired in it."""
    found = list(
        Match.objects.filter(round_id=round_id)
        .filter(Q(player_a_id=registration_id) | Q(player_b_id=registration_id))
        .select_related("round", "player_a__player", "player_b__player")[:1]
    )
    return found[0] if found else None


def published_matches_of(registration_ids: set[int]) -> QuerySet[Match]:
    """The matches of these registrations in published rounds, in round order."""
    return (
        Match.objects.filter(
            Q(player_a_id__in=registration_ids) | Q(player_b_id__in=registration_ids)
        )
        .in_public_rounds()
        .select_related("round", "player_a__player", "player_b__player")
        .order_by("round__number", "pk")
    )


def latest_published_round(event_ids: list[int]) -> dict[int, int]:
    """The number of each event's latest published round (one query)."""
    if not event_ids:
        return {}
    return dict(
        Round.objects.filter(event_id__in=event_ids)
        .public()
        .order_by()
        .values("event_id")
        .annotate(n=Max("number"))
        .values_list("event_id", "n")
    )


def round_with_matches(round_: Round) -> Round:
    return (
        Round.objects.select_related("event")
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=Match.objects.select_related(
                    "player_a__player", "player_b__player"
                ).order_by("division", "table"),
            )
        )
        .get(pk=round_.pk)
    )


def match_games(match: Match) -> list[Game]:
    return list(match.games.order_by("number", "sequence"))


def visible_standings(event: Event, *, published_only: bool) -> QuerySet[StandingsSnapshot]:
    """The snapshots a viewer may see: the published ones, or all of them for staff."""
    qs = StandingsSnapshot.objects.filter(event=event)
    return qs.filter(published=True) if published_only else qs


def latest_standings(
    event: Event, round_number: int | None = None, *, published_only: bool = False
) -> StandingsSnapshot | None:
    """The newest version of the standings after `round_number` (default: the last round
    that has any), among those the viewer may see. Pages and the API both read this."""
    qs = visible_standings(event, published_only=published_only)
    if round_number is not None:
        qs = qs.filter(round_number=round_number)
    return qs.order_by("-round_number", "-version").first()


def latest_standings_head(
    event: Event, round_number: int | None = None, *, published_only: bool = False
) -> StandingsSnapshot | None:
    """`latest_standings` without its rows (a page that keeps the rendered rows in the
    cache reads them only on a miss)."""
    qs = visible_standings(event, published_only=published_only).defer("rows")
    if round_number is not None:
        qs = qs.filter(round_number=round_number)
    return qs.order_by("-round_number", "-version").first()


#: The results grid's order: what needs staff first.
RESULTS_ORDER = (
    Match.Status.DISPUTED,
    Match.Status.PENDING,
    Match.Status.REPORTED,
    Match.Status.FINAL,
)


def round_results(
    round_: Round, *, tables: tuple[int, int] | None = None, limit: int | None = None
) -> list[Match]:
    """A round's matches for the results grid: disputed, then missing, then reported (one
    side in), then final; by division and table within each. Each match carries its
    players and `open_reports` (the reports not superseded, side A first). `tables`
    keeps a range of tables; `limit` the first rows in that order."""
    order = Case(
        *(When(status=status, then=Value(i)) for i, status in enumerate(RESULTS_ORDER)),
        default=Value(len(RESULTS_ORDER)),
        output_field=IntegerField(),
    )
    reports = ResultReport.objects.filter(superseded=False).order_by("side", "id")
    matches = round_.matches.all()
    if tables is not None:
        matches = matches.filter(table__gte=tables[0], table__lte=tables[1])
    matches = (
        matches.select_related("player_a__player", "player_b__player")
        .annotate(status_order=order)
        .order_by("status_order", "division", "table")
    )
    if limit is not None:
        matches = matches[:limit]
    return list(
        matches.prefetch_related(Prefetch("reports", queryset=reports, to_attr="open_reports"))
    )


def result_counts(round_: Round) -> tuple[dict[str, int], int]:
    """How many of the round's matches are in each status, and its last table (one
    aggregate query)."""
    counts = round_.matches.aggregate(
        **{status: Count("id", filter=Q(status=status)) for status in RESULTS_ORDER},
        last_table=Max("table"),
    )
    last = counts.pop("last_table") or 0
    return counts, last


def top_cut_rounds(event: Event, *, public_only: bool) -> list[Round]:
    """The top-cut rounds in order, each with its matches and players (`public_only`: the
    published ones)."""
    rounds = visible_rounds(event, staff=not public_only).filter(stage=Round.Stage.TOP_CUT)
    matches = Match.objects.select_related("player_a__player", "player_b__player").order_by(
        "division", "table"
    )
    return list(rounds.prefetch_related(Prefetch("matches", queryset=matches)).order_by("number"))


def final_swiss_standings(event: Event) -> StandingsSnapshot | None:
    """The latest version of the standings after the last Swiss round, if computed."""
    last = (
        Round.objects.filter(event=event, stage=Round.Stage.SWISS)
        .order_by("-number")
        .values_list("number", flat=True)
        .first()
    )
    return None if last is None else latest_standings(event, last)


def latest_deck_submissions(event: Event) -> list[DeckSubmission]:
    """Each playing registration's latest decklist (waiting list and withdrawn left out),
    with its registration and player, by division then name."""
    latest = (
        DeckSubmission.objects.filter(registration=OuterRef("registration"))
        .order_by("-version")
        .values("pk")[:1]
    )
    division_order = Case(
        *(When(registration__division=d, then=Value(i)) for i, d in enumerate(Division.values)),
        default=Value(len(Division.values)),
        output_field=IntegerField(),
    )
    return list(
        DeckSubmission.objects.filter(registration__event=event, pk=Subquery(latest))
        .exclude(
            registration__status__in=(Registration.Status.WITHDRAWN, Registration.Status.WAITLISTED)
        )
        .select_related("registration__player")
        .annotate(division_order=division_order)
        .order_by("division_order", "registration__player__name", "registration_id")
    )


def dashboard(event: Event, *, find: str = "", rows: int = 100) -> dict:
    """What the staff dashboard shows of `event` (seven queries): the players in play (at
    most `rows`, those matching `find` by name or Play! Pokémon ID), their count and how
    many checked in, the waiting list and withdrawals, every round with its count of
    missing results, the current round's open matches (at most `rows`), the disputes, and
    whether there is a top cut and any standings."""
    others = (Registration.Status.WAITLISTED, Registration.Status.WITHDRAWN)
    listed = Registration.objects.filter(event=event).exclude(status__in=others)
    tally = listed.aggregate(
        total=Count("id"), checked_in=Count("id", filter=Q(status=Registration.Status.CHECKED_IN))
    )
    if find:
        listed = listed.filter(Q(player__name__icontains=find) | Q(player__player_id=find))
    players = list(listed.select_related("player").order_by("player__name")[:rows])
    side = list(
        Registration.objects.filter(event=event, status__in=others)
        .select_related("player")
        .order_by("player__name")
    )
    waiting = sorted(
        (r for r in side if r.status == Registration.Status.WAITLISTED),
        key=lambda r: (r.registered_at, r.pk),
    )
    final = Count("matches", filter=Q(matches__status=Match.Status.FINAL))
    rounds = list(
        Round.objects.filter(event=event)
        .annotate(total=Count("matches"), final=final)
        .order_by("number")
    )
    for round_ in rounds:
        round_.missing = round_.total - round_.final
    current = rounds[-1] if rounds else None
    open_matches = []
    if current is not None:
        open_matches = list(
            current.matches.exclude(status=Match.Status.FINAL)
            .select_related("player_a__player", "player_b__player")
            .order_by("division", "table")[:rows]
        )
    disputed = list(
        Match.objects.filter(round__event=event, status=Match.Status.DISPUTED)
        .select_related("round", "player_a__player", "player_b__player")
        .order_by("round__number", "table")
    )
    return {
        "players": players,
        "player_count": tally["total"],
        "checked_in": tally["checked_in"],
        "waiting": waiting,
        "withdrawn": [r for r in side if r.status == Registration.Status.WITHDRAWN],
        "rounds": rounds,
        "current": current,
        "open_matches": open_matches,
        "disputed": disputed,
        "has_top_cut": any(r.stage == Round.Stage.TOP_CUT for r in rounds),
        "has_standings": StandingsSnapshot.objects.filter(event=event).exists(),
    }
