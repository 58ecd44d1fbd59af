"""League points: an event's placements and the season's leaderboard."""

from __future__ import annotations

from django.db import transaction

from notifications import outbox
from rules.league_points import PointsTable, leaderboard

from ..models import Event, EventPlacement, Season, SeasonStanding


@transaction.atomic
def record_placements(*, event: Event, placements: list[tuple[int, str, int]]) -> None:
    """Store an event's final places `(registration id, division, place)` with the league
    points the season's table gives them, and queue the season leaderboard's recompute.
    Running it again overwrites the same rows."""
    table = PointsTable.from_json(event.season.points_table)
    EventPlacement.objects.filter(event=event).delete()
    EventPlacement.objects.bulk_create(
        EventPlacement(
            event=event,
            registration_id=reg,
            division=division,
            place=place,
            points=table.points_for(place),
        )
        for reg, division, place in placements
    )
    outbox.record_task("league.recompute_season_points", args=[event.season_id])


@transaction.atomic
def recompute_season_points(*, season: Season) -> list[SeasonStanding]:
    """Rebuild the season's leaderboard from the placements of its finished events,
    counting only each player's best finishes when the season sets a limit."""
    finishes = EventPlacement.objects.filter(
        event__season=season, event__status=Event.Status.FINISHED
    ).values_list("registration__player_id", "points")
    rows = leaderboard(((str(p), pts) for p, pts in finishes), best=season.best_finishes)
    SeasonStanding.objects.filter(season=season).delete()
    return SeasonStanding.objects.bulk_create(
        SeasonStanding(
            season=season,
            player_id=int(r.player),
            rank=r.rank,
            points=r.points,
            events_played=r.events_played,
            events_counted=r.events_counted,
        )
        for r in rows
    )
