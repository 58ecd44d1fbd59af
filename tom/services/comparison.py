"""Our final places compared with the ones TOM wrote.

Ours are the site's published recipe, `matches.services.final_placements` (the Swiss
standings the site publishes, then the top cut by how far each player got,
`rules.placements.final_order`): the same function that records the places of every event
the site finishes. Nothing here ranks players on its own, so earned byes, the pod's Swiss
rounds and pods are read exactly as the standings pages read them. For an event mirrored
from TOM the event's placements are TOM's (the event was run there); the comparison tells
the organiser whether the site would have placed everyone the same.
"""

from __future__ import annotations

from collections import defaultdict

from league.models import Event, Registration
from matches import services as match_services

from .. import tdf
from ..models import TomEvent
from .common import DIVISION_OF_CATEGORY, finalised


def site_order(event: Event) -> dict[str, list[str]]:
    """Our final order per division (Play! Pokémon ids, best first), from the published
    places recipe."""
    player_id = dict(
        Registration.objects.filter(event=event).values_list("pk", "player__player_id")
    )
    out: dict[str, list[str]] = defaultdict(list)
    for reg, division, _place in sorted(
        match_services.final_placements(event), key=lambda row: (row[1], row[2])
    ):
        out[division].append(player_id[reg])
    return dict(out)


def compare_standings(*, event: Event, tom: TomEvent, t: tdf.Tournament) -> list[dict]:
    """Compare our final order with the one TOM wrote, per division; keep the differences on
    the `TomEvent` for the event page. Nothing to compare before TOM finalises the event."""
    if not finalised(t):
        tom.standings_differences, tom.standings_compared = [], {}
        return []
    ours = site_order(event)
    names = {p.userid: p.name for p in t.players}
    site_names = dict(
        Registration.objects.filter(event=event).values_list("player__player_id", "player__name")
    )
    differences, compared = [], {}
    for block in t.standings:
        if (
            block.type != "finished"
            or not block.players
            or block.category not in DIVISION_OF_CATEGORY
        ):
            continue
        division = DIVISION_OF_CATEGORY[block.category]
        theirs = [p.id for p in sorted(block.players, key=lambda p: p.place)]
        place_of = {userid: i for i, userid in enumerate(ours.get(division, []), start=1)}
        tom_place = {p.id: p.place for p in block.players}
        diff = [u for u in theirs if place_of.get(u) != tom_place[u]]
        compared[division] = {"players": len(theirs), "agree": not diff}
        for userid in diff:
            differences.append(
                {
                    "division": division,
                    "player_id": userid,
                    "player": site_names.get(userid) or names.get(userid, userid),
                    "tom_place": tom_place[userid],
                    "site_place": place_of.get(userid),
                }
            )
    tom.standings_differences, tom.standings_compared = differences, compared
    return differences
