"""The event as a TOM save (`export_save`, `export_text`).

A two-day event's cut to day 2: none of TOM's saves (`../shared/data/tom-exports/tdf/`,
TOM 1.74–1.86) has a day, a phase or a second Swiss stage; a pod's rounds are one Swiss
run, then the top cut, and the one way a save says "no longer paired after round R" is
`<dropped status="1" round="R">`. So a day-1 finisher (`Registration.finished_on_day_one`)
is written as TOM reads one: dropped after their pod's day-1 rounds, stamped when day 2 was
paired, with no day-2 match; the places in `<standings>` are the site's (day-1 finishers
below every day-2 player). TOM's own standings would cap such a player's win rate as a drop's
(75 %); the site's do not (`rules.standings`, "finished"), and the save's places are the
site's. A save read back into the site sees these players as drops."""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from datetime import datetime

from django.utils import timezone

from league.models import Event, EventPlacement, Registration
from matches import services as match_services
from matches.models import Match, ResultChange, Round
from rules import divisions as age

from .. import tdf
from ..models import TomEvent
from .common import CATEGORY_OF_DIVISION, OUTCOME_OF_RESULT, POD_LABEL, from_json, tom_number

# --- export -----------------------------------------------------------------------------


def tom_stamp(value: datetime | None) -> str:
    value = timezone.localtime(value) if value else timezone.localtime()
    return tdf.format_timestamp(value)


def export_save(*, event: Event) -> tdf.Tournament:
    """The event as a TOM save: players with ids and birth dates, pods, rounds, matches with
    TOM's outcome codes, byes, late entrants' losses, drops, the top cut, standings (once
    finished), finals options. Results, pairings, drops and places are the site's; what only
    TOM knows (its timestamps, table numbers of byes, pod settings) comes from the last
    imported save when there is one."""
    event = Event.objects.select_related("season__league").get(pk=event.pk)  # as it is now
    tom = TomEvent.objects.filter(event=event).first()
    base = from_json(tom.save_data) if tom and tom.save_data else None
    return _Exporter(event, tom, base).build()


class _Exporter:
    def __init__(self, event: Event, tom: TomEvent | None, base: tdf.Tournament | None):
        self.event, self.tom, self.base = event, tom, base
        regs = list(
            Registration.objects.filter(event=event)
            .exclude(status=Registration.Status.WAITLISTED)
            .select_related("player")
            .order_by("registered_at", "pk")
        )
        base_ids = {p.userid for p in base.players} if base else set()
        # A player who withdrew before the event is in a TOM save only if TOM had them.
        self.regs = [
            r
            for r in regs
            if r.status != Registration.Status.WITHDRAWN or r.player.player_id in base_ids
        ]
        self.by_pk = {r.pk: r for r in self.regs}
        self.rounds = list(Round.objects.filter(event=event).order_by("number"))
        self.matches = defaultdict(list)
        for m in Match.objects.filter(round__event=event).select_related("round").order_by("table"):
            self.matches[m.round_id].append(m)
        self.offset = tom.cut_offset if tom and tom.cut_offset is not None else None
        swiss = [r for r in self.rounds if r.stage == Round.Stage.SWISS]
        if self.offset is None:
            self.offset = max((r.number for r in swiss), default=0)
        # Two-day events: each day-1 finisher's last round (their pod's day 1) and when day
        # 2 was paired (the cut), written as TOM's drop (the module docstring).
        self.day_one = match_services.frozen_on_day_one(event, self.regs)
        day_two = next(
            (r for r in swiss if self.day_one and r.number > min(self.day_one.values())), None
        )
        self.cut_at = day_two.created_at if day_two is not None else None
        self.changed_at = dict(
            ResultChange.objects.filter(match__round__event=event)
            .order_by("changed_at")
            .values_list("match_id", "changed_at")
        )

    def build(self) -> tdf.Tournament:
        base, event = self.base, self.event
        finished = event.status == Event.Status.FINISHED
        pods = self._pods()
        players = self._players(pods)
        cut = max((len([r for r in p.rounds if r.is_top_cut]) for p in pods), default=0)
        if base:
            head = dict(
                type=base.type,
                version=base.version,
                gametype=base.gametype,
                mode=base.mode,
                data=base.data,
                timeelapsed=base.timeelapsed,
            )
            stage = 5 if finished else base.stage
        else:
            head = dict(
                type=3 if cut else 2,
                version="1.86",
                gametype="TRADING_CARD_GAME",
                mode="TCG1DAY" if cut else "CUSTOM",
                timeelapsed=0,
                data=tdf.EventData(
                    name=event.name,
                    id=self.tom.sanction_id if self.tom else "",
                    city="",
                    state="",
                    country="",
                    roundtime=event.round_minutes,
                    finalsroundtime=event.round_minutes,
                    organizer=tdf.Organizer(popid="", name=str(event.season.league)),
                    startdate=tdf.format_date(timezone.localtime(event.starts_at).date()),
                ),
            )
            stage = 5 if finished else 4
        return tdf.Tournament(
            stage=stage,
            **head,
            players=players,
            pods=pods,
            standings=self._standings() if finished else None,
            finalsoptions=self._finals(pods),
        )

    # pods and rounds

    def _pod_specs(self) -> list[tuple[tdf.Pod, str, list[Registration]]]:
        """(pod with its settings, our match label, its registrations)."""
        regs = [r for r in self.regs if r.status != Registration.Status.WITHDRAWN]
        separate = self.event.division_mode == Event.DivisionMode.SEPARATE
        specs = []
        if self.base:
            base_pod_of = self.base.pod_of()
            for pod in self.base.pods:
                members = [r for r in regs if self._pod_category(r, base_pod_of) == pod.category]
                shell = dataclasses.replace(pod, subgroups=[], rounds=[])
                specs.append((shell, POD_LABEL[pod.category] if separate else "", members))
            return specs
        if separate:
            for division in (age.JUNIOR, age.SENIOR, age.MASTERS):
                members = [r for r in regs if r.division == division]
                if members:
                    category = CATEGORY_OF_DIVISION[division]
                    specs.append((tdf.Pod(category=category, stage=0), division, members))
            return specs
        divisions = {r.division for r in regs}
        category = CATEGORY_OF_DIVISION[divisions.pop()] if len(divisions) == 1 else tdf.ALL_AGES
        return [(tdf.Pod(category=category, stage=0), "", regs)]

    def _pod_category(self, reg: Registration, base_pod_of: dict) -> int | None:
        pod = base_pod_of.get(reg.player.player_id)
        if pod is not None:
            return pod.category
        category = CATEGORY_OF_DIVISION[reg.division]
        for p in self.base.pods:  # a player new since the save: the pod of their division
            if category in p.divisions:
                return p.category
        return None

    def _pods(self) -> list[tdf.Pod]:
        pods = []
        self.pod_regs = {}
        for pod, label, members in self._pod_specs():
            base_pod = (
                next((p for p in self.base.pods if p.category == pod.category), None)
                if self.base
                else None
            )
            order = {u: i for i, u in enumerate(base_pod.players)} if base_pod else {}
            ids = sorted(
                (r.player.player_id for r in members), key=lambda u: (order.get(u, len(order)), u)
            )
            pod.subgroups = [tdf.Subgroup(number=1, players=ids)]
            member_pks = {r.pk for r in members}
            swiss_count = 0
            for round_ in self.rounds:
                ms = [
                    m
                    for m in self.matches[round_.pk]
                    if m.division == label and m.player_a_id in member_pks
                ]
                late = [
                    r
                    for r in members
                    if round_.stage == Round.Stage.SWISS
                    and r.late_entry_round
                    and r.late_entry_round > round_.number
                    and round_.number >= 1
                ]
                if not ms and not late:
                    continue
                if round_.stage == Round.Stage.SWISS:
                    swiss_count += 1
                number = tom_number(swiss_count, round_.number, round_.stage, self.offset)
                base_round = (
                    next((r for r in base_pod.rounds if r.number == number), None)
                    if base_pod
                    else None
                )
                pod.rounds.append(self._round(round_, number, ms, late, base_round))
            if not base_pod:
                pod.stage = 1 if any(r.is_top_cut for r in pod.rounds) else 0
            self.pod_regs[pod.category] = members
            pods.append(pod)
        return pods

    def _round(
        self,
        round_: Round,
        number: int,
        ms: list[Match],
        late: list[Registration],
        base_round: tdf.Round | None,
    ) -> tdf.Round:
        top = round_.stage == Round.Stage.TOP_CUT
        if base_round:
            r = dataclasses.replace(base_round, matches=[])
        else:
            r = tdf.Round(
                number=number,
                type=tdf.TOP_CUT_ROUND if top else (3 if self.event.top_cut else 2),
                stage=8 if round_.status == Round.Status.CLOSED else 4,
                timeleft=0,
                pairtime=tom_stamp(round_.created_at),
                starttime=tom_stamp(
                    round_.clock_started_at or round_.published_at or round_.created_at
                ),
            )
        base_matches = {frozenset(m.players): m for m in base_round.matches} if base_round else {}
        out = []
        for m in ms:
            a = self.by_pk[m.player_a_id].player.player_id
            b = self.by_pk[m.player_b_id].player.player_id if m.player_b_id else None
            before = base_matches.get(frozenset(x for x in (a, b) if x))
            if b is None:
                earned = (
                    (before.outcome == tdf.EARNED_BYE)
                    if before
                    else (self.by_pk[m.player_a_id].has_earned_bye and round_.number == 1)
                )
                outcome = tdf.EARNED_BYE if earned else tdf.BYE
            elif m.status != Match.Status.FINAL:
                outcome = tdf.UNPLAYED
            else:
                outcome = OUTCOME_OF_RESULT[m.result]
            p1, p2 = (a, b)
            if before and b and before.player1 == b:  # TOM's seating
                p1, p2 = b, a
                outcome = {1: 2, 2: 1}.get(outcome, outcome)
            stamp = (
                before.timestamp
                if before and (before.outcome == outcome)
                else tom_stamp(self.changed_at.get(m.pk) or round_.created_at)
            )
            table = before.tablenumber if before else (0 if b is None else m.table)
            if b is None:
                out.append(tdf.Match(outcome=outcome, timestamp=stamp, tablenumber=table, player=a))
            else:
                out.append(
                    tdf.Match(
                        outcome=outcome, timestamp=stamp, tablenumber=table, player1=p1, player2=p2
                    )
                )
        for reg in late:
            userid = reg.player.player_id
            before = base_matches.get(frozenset([userid]))
            out.append(
                tdf.Match(
                    outcome=tdf.LATE_LOSS,
                    player=userid,
                    tablenumber=0,
                    timestamp=before.timestamp
                    if before
                    else r.pairtime or tom_stamp(round_.created_at),
                )
            )
        if base_round:
            position = {frozenset(m.players): i for i, m in enumerate(base_round.matches)}
            out.sort(key=lambda m: position.get(frozenset(m.players), len(position)))
        r.matches = out
        return r

    # players

    def _players(self, pods: list[tdf.Pod]) -> list[tdf.Player]:
        base = {p.userid: p for p in self.base.players} if self.base else {}
        order = {u: i for i, u in enumerate(base)}
        seeds = self._seeds(pods)
        out = []
        for reg in sorted(
            self.regs,
            key=lambda r: (order.get(r.player.player_id, len(order)), r.registered_at, r.pk),
        ):
            player = reg.player
            userid = player.player_id
            p = base.get(userid)
            # TOM's own text for a player it had (it writes 02/27 of the birth year).
            birth = p.birthdate if p is not None else tdf.format_date(player.birth_date)
            dropped = None
            if reg.status == Registration.Status.DROPPED and reg.dropped_after_round:
                number = reg.dropped_after_round
                if number > self.offset:  # dropped in the top cut: TOM's numbering of the pod
                    pod_swiss = max(
                        (
                            len([r for r in pod.rounds if not r.is_top_cut])
                            for pod in pods
                            if userid in pod.players
                        ),
                        default=self.offset,
                    )
                    number = pod_swiss + number - self.offset
                stamp = p.dropped.timestamp if p and p.dropped else tom_stamp(None)
                dropped = tdf.Dropped(round=number, timestamp=stamp, status=1)
            elif str(reg.pk) in self.day_one:  # below the day-2 cut: TOM's drop after day 1
                dropped = tdf.Dropped(
                    round=self.day_one[str(reg.pk)], timestamp=tom_stamp(self.cut_at), status=1
                )
            byes = p.byes if p is not None else None
            if reg.has_earned_bye and not byes:
                byes = 1
            order_seed = seeds.get(userid, (None, None))
            if p is not None:
                first, last = p.firstname, p.lastname
                created, modified, starter = p.creationdate, p.lastmodifieddate, p.starter
            else:
                first, _sep, last = player.name.partition(" ")
                created = modified = tom_stamp(reg.registered_at)
                starter = True
            out.append(
                tdf.Player(
                    userid=userid,
                    firstname=first,
                    lastname=last,
                    birthdate=birth,
                    starter=starter,
                    order=order_seed[0],
                    seed=order_seed[1],
                    byes=byes if byes else (0 if p and p.byes == 0 else None),
                    dropped=dropped,
                    creationdate=created,
                    lastmodifieddate=modified,
                )
            )
        return out

    def _seeds(self, pods: list[tdf.Pod]) -> dict[str, tuple[int, int]]:
        """(order in the bracket, seed) of every top-cut player: TOM's when the save had
        the same bracket, else by our Swiss order."""
        out = {}
        base = {p.userid: p for p in self.base.players} if self.base else {}
        for pod in pods:
            first = next((r for r in pod.rounds if r.is_top_cut), None)
            if first is None:
                continue
            players = [u for m in first.matches for u in (m.player1, m.player2) if u]
            if all(u in base and base[u].seed for u in players):
                out.update({u: (base[u].order, base[u].seed) for u in players})
                continue
            rows = match_services.standings_rows(self.event)
            rank = {r["player_id"]: i for i, r in enumerate(rows)}
            by_seed = sorted(players, key=lambda u: rank.get(u, 10**6))
            seed_of = {u: i for i, u in enumerate(by_seed, start=1)}
            for position, u in enumerate(players, start=1):
                out[u] = (position, seed_of[u])
        return out

    # standings and finals options

    def _standings(self) -> list[tdf.StandingsPod]:
        places = defaultdict(list)
        for reg_id, division, place in EventPlacement.objects.filter(event=self.event).values_list(
            "registration_id", "division", "place"
        ):
            reg = self.by_pk.get(reg_id)
            if reg is not None:
                places[CATEGORY_OF_DIVISION.get(division or reg.division)].append(
                    tdf.Place(id=reg.player.player_id, place=place)
                )
        if self.base and self.base.standings is not None:
            blocks = [(b.category, b.type) for b in self.base.standings]
        else:
            blocks = [(c, kind) for c in (2, 1, 0) for kind in ("finished", "dnf")]
        return [
            tdf.StandingsPod(
                category=c,
                type=kind,
                players=sorted(places[c], key=lambda p: p.place) if kind == "finished" else [],
            )
            for c, kind in blocks
        ]

    def _finals(self, pods: list[tdf.Pod]) -> list[tdf.CategoryCut]:
        if self.base:
            return self.base.finalsoptions
        out = []
        for pod in pods:
            size = (
                2 ** len([r for r in pod.rounds if r.is_top_cut])
                if any(r.is_top_cut for r in pod.rounds)
                else 0
            )
            for category in pod.divisions if pod.category != tdf.ALL_AGES else (tdf.MASTERS,):
                count = sum(
                    1
                    for r in self.pod_regs[pod.category]
                    if CATEGORY_OF_DIVISION[r.division] == category
                )
                out.append(
                    tdf.CategoryCut(
                        key=category, options=sorted({0, size}), cut=size, playercount=count
                    )
                )
        return out


def export_text(*, event: Event) -> str:
    return tdf.write(export_save(event=event))


def export_filename(event: Event) -> str:
    tom = TomEvent.objects.filter(event=event).first()
    stem = tom.sanction_id if tom and tom.sanction_id else event.slug
    return f"{stem}.tdf"
