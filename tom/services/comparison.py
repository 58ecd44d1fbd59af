"""Our final places compared with the ones TOM wrote."""

from __future__ import annotations

import dataclasses
from collections import defaultdict

from league.models import Event, Registration
from matches import selectors as match_selectors
from matches.models import Match, Round
from rules.standings import compute_standings

from .. import tdf
from ..models import TomEvent
from .common import DIVISION_OF_CATEGORY, POD_LABEL, finalised

# --- standings compared with TOM's ----------------------------------------------------------


def site_places(event: Event, t: tdf.Tournament) -> dict[str, list[str]]:
    """Our final order per division, by the site's standings rules over the imported
    results: each TOM pod ranked together (Swiss, then the top cut by how far players got,
    ties by seed), then listed per division. Player ids, best first."""
    regs = {
        r.pk: r for r in Registration.objects.filter(event=event)
        .exclude(status__in=(Registration.Status.WITHDRAWN, Registration.Status.WAITLISTED))
        .select_related("player")
    }  # fmt: skip
    earned = {pk for pk, r in regs.items() if r.has_earned_bye}
    records = [
        dataclasses.replace(m, earned=True)
        if m.b is None and m.result == "a" and int(m.a) in earned and m.round == 1
        else m
        for m in match_selectors.match_records(event)
    ]
    dropped = {str(pk): r.dropped_after_round for pk, r in regs.items() if r.dropped_after_round}
    late = {
        str(pk): r.late_entry_round - 1
        for pk, r in regs.items()
        if r.late_entry_round and r.late_entry_round > 1
    }
    by_player = {r.player.player_id: pk for pk, r in regs.items()}
    cut_matches = list(
        Match.objects.filter(round__event=event, round__stage=Round.Stage.TOP_CUT).select_related(
            "round"
        )
    )
    separate = event.division_mode == Event.DivisionMode.SEPARATE
    out: dict[str, list[str]] = defaultdict(list)
    for pod in t.pods:
        ids = {str(by_player[u]) for u in pod.players if u in by_player}
        standings = compute_standings(
            sorted(ids), [m for m in records if m.a in ids],
            dropped={k: v for k, v in dropped.items() if k in ids},
            late={k: v for k, v in late.items() if k in ids}, seed=f"{event.seed or event.pk}",
        )  # fmt: skip
        swiss_order = [int(s.id) for s in standings]
        seed_of = {reg: i for i, reg in enumerate(swiss_order)}
        label = POD_LABEL[pod.category] if separate else ""
        mine = [m for m in cut_matches if m.division == label and m.player_a_id in seed_of]
        placed: list[int] = []
        numbers = sorted({m.round.number for m in mine}, reverse=True)
        for i, number in enumerate(numbers):
            ms = [m for m in mine if m.round.number == number]
            if i == 0:
                placed += [
                    m.player_a_id if m.result == Match.Result.A else m.player_b_id
                    for m in ms
                    if m.result
                ]
            losers = [
                m.player_b_id if m.result == Match.Result.A else m.player_a_id
                for m in ms
                if m.result
            ]
            placed += sorted(
                (x for x in losers if x not in placed), key=lambda r: seed_of.get(r, 10**9)
            )
        placed += [reg for reg in swiss_order if reg not in placed]
        for reg in placed:
            out[regs[reg].division].append(regs[reg].player.player_id)
    return dict(out)


def compare_standings(*, event: Event, tom: TomEvent, t: tdf.Tournament) -> list[dict]:
    """Compare our order with the one TOM wrote, per division; keep the differences on the
    `TomEvent` for the event page. Nothing to compare before TOM finalises the event."""
    if not finalised(t):
        tom.standings_differences, tom.standings_compared = [], {}
        return []
    ours = site_places(event, t)
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
        mine = ours.get(division, [])
        place_of = {userid: i for i, userid in enumerate(mine, start=1)}
        tom_place = {p.id: p.place for p in block.players}
        diff = [u for u in theirs if place_of.get(u) != tom_place[u]]
        compared[division] = {"players": len(theirs), "agree": not diff}
        for userid in diff:
            differences.append({
                "division": division, "player_id": userid,
                "player": site_names.get(userid) or names.get(userid, userid),
                "tom_place": tom_place[userid], "site_place": place_of.get(userid),
            })  # fmt: skip
    tom.standings_differences, tom.standings_compared = differences, compared
    return differences
