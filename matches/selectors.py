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
    return qs.select_related("round").order_by("round__number", "table")


def match_records(event: Event, *, through_round: int | None = None) -> list[MatchRecord]:
    """The Swiss results as the standings engine reads them, with a late entrant's forced
    losses for the rounds they missed. A double loss is a loss for each player."""
    records: list[MatchRecord] = []
    last_round = 0
    for m in swiss_matches(event, through_round=through_round).filter(status=Match.Status.FINAL):
        last_round = max(last_round, m.round.number)
        a, b = str(m.player_a_id), (str(m.player_b_id) if m.player_b_id else None)
        if m.result == Match.Result.DOUBLE_LOSS:
            # Each player takes a match loss; the engine's form for that is a forced loss.
            records.append(MatchRecord(round=m.round.number, a=a, b=None, result="b"))
            records.append(MatchRecord(round=m.round.number, a=b, b=None, result="b"))
            continue
        records.append(MatchRecord(round=m.round.number, a=a, b=b, result=m.result))
    for reg in Registration.objects.filter(event=event, late_entry_round__gt=1):
        for missed in range(1, reg.late_entry_round):
            if through_round is None or missed <= through_round:
                records.append(MatchRecord(round=missed, a=str(reg.pk), b=None, result="b"))
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
