"""Read queries shared by the pages, the API, the services and the tasks."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from league.models import Event, Registration
from rules.standings import MatchRecord

from .models import Game, Match, Round, StandingsSnapshot


def swiss_matches(event: Event, *, through_round: int | None = None) -> QuerySet[Match]:
    qs = Match.objects.filter(round__event=event, round__stage=Round.Stage.SWISS)
    if through_round is not None:
        qs = qs.filter(round__number__lte=through_round)
    return qs.order_by("round__number", "table")


def match_records(event: Event, *, through_round: int | None = None) -> list[MatchRecord]:
    """The Swiss results as the standings engine reads them, with a late entrant's forced
    losses for the rounds they missed. A double loss is a loss for each player."""
    records: list[MatchRecord] = []
    rows = (
        swiss_matches(event, through_round=through_round)
        .filter(status=Match.Status.FINAL)
        .values_list("round__number", "player_a_id", "player_b_id", "result")
    )
    for number, a_id, b_id, result in rows:
        a, b = str(a_id), (str(b_id) if b_id else None)
        if result == Match.Result.DOUBLE_LOSS:
            # Each player takes a match loss; the engine's form for that is a forced loss.
            records.append(MatchRecord(round=number, a=a, b=None, result="b"))
            records.append(MatchRecord(round=number, a=b, b=None, result="b"))
            continue
        records.append(MatchRecord(round=number, a=a, b=b, result=result))
    late = Registration.objects.filter(event=event, late_entry_round__gt=1).values_list("pk", "late_entry_round")
    for reg, first_round in late:
        for missed in range(1, first_round):
            if through_round is None or missed <= through_round:
                records.append(MatchRecord(round=missed, a=str(reg), b=None, result="b"))
    return records


def round_with_matches(round_: Round) -> Round:
    return (
        Round.objects.select_related("event")
        .prefetch_related(
            Prefetch(
                "matches",
                queryset=Match.objects.select_related("player_a__player", "player_b__player").order_by(
                    "division", "table"
                ),
            )
        )
        .get(pk=round_.pk)
    )


def match_games(match: Match) -> list[Game]:
    return list(match.games.order_by("number", "sequence"))


def latest_standings(event: Event, round_number: int | None = None) -> StandingsSnapshot | None:
    qs = StandingsSnapshot.objects.filter(event=event)
    if round_number is not None:
        qs = qs.filter(round_number=round_number)
    return qs.order_by("-round_number", "-version").first()


def current_round(event: Event) -> Round | None:
    return Round.objects.filter(event=event).order_by("-number").first()
