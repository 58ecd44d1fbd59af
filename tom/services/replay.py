"""A TOM save played through the site's own services, round by round (see `tom.services`):
players registered, TOM's pairings posted and published, results recorded, drops made after
the round TOM names, rounds closed, the event finished with TOM's final places."""

from __future__ import annotations

from collections import defaultdict

from league import services as league_services
from league.models import Event, Player, Registration
from matches import services as match_services
from matches.models import Match, Round
from rules.i18n import gettext_noop, say

from .. import tdf
from ..models import TomEvent
from .common import (
    DIVISION_OF_CATEGORY,
    FLIPPED,
    POD_LABEL,
    RESULT_OF_OUTCOME,
    SaveDiffers,
    contradicts,
    cut_offset_of,
    cut_rounds_of,
    finalised,
    pairing_words,
    site_number,
    swiss_rounds_of,
    tom_divisions,
)


class Replay:
    def __init__(self, event: Event, tom: TomEvent, t: tdf.Tournament, by_user):
        self.event, self.tom, self.t, self.by_user = event, tom, t, by_user
        self.summary = defaultdict(int)
        self.players = {p.userid: p for p in t.players}
        self.pod_of = t.pod_of()
        self.divisions = tom_divisions(t)
        self.regs: dict[str, Registration] = {
            r.player.player_id: r
            for r in Registration.objects.filter(event=event).select_related("player")
        }
        self.separate = event.division_mode == Event.DivisionMode.SEPARATE

    def label(self, pod: tdf.Pod) -> str:
        return POD_LABEL[pod.category] if self.separate else ""

    def run(self) -> dict:
        t = self.t
        had_rounds = Round.objects.filter(event=self.event).exists()
        separate = len(t.pods) > 1
        if self.separate != separate:
            if had_rounds:
                ours = (
                    say(gettext_noop("each division on its own"))
                    if self.separate
                    else say(gettext_noop("all divisions together"))
                )
                raise SaveDiffers(
                    say(
                        gettext_noop(
                            "In this save TOM pairs %(theirs)s; this event pairs %(ours)s, and "
                            "its rounds are already paired that way here, so the save cannot be "
                            "applied to it. Pair the event the same way in TOM, or import the save "
                            "as a new event."
                        ),
                        theirs=pairing_words(t),
                        ours=ours,
                    ),
                    fix="new-event",
                )
            mode = Event.DivisionMode.SEPARATE if separate else Event.DivisionMode.COMBINED
            self.event = league_services.update_event(
                event=self.event, by_user=self.by_user, division_mode=mode
            )
            self.separate = separate
        offset = cut_offset_of(t, self.event.season, self.tom.cut_offset if had_rounds else None)
        if any(cut_rounds_of(p) for p in t.pods):
            self.tom.cut_offset = offset
        self._structure(offset)
        # Where each player's TOM rounds fall in ours.
        rounds: dict[int, list[tuple[tdf.Pod, tdf.Round]]] = defaultdict(list)
        for pod in t.pods:
            for r in pod.rounds:
                rounds[site_number(pod, r, offset)].append((pod, r))
        late = self._late_entrants(offset)
        self._players(late, had_rounds)
        existing = set(Round.objects.filter(event=self.event).values_list("number", flat=True))
        missing = existing - set(rounds)
        if missing:
            raise contradicts(
                "tournament/pods",
                say(
                    gettext_noop("round %(round)s is on the site but not in this save."),
                    round=min(missing),
                ),
            )
        last = max(rounds, default=0)
        for number in sorted(rounds):
            for userid, first in late.items():
                if first == number and userid not in self.regs:
                    self._register(userid)
            self._round(number, rounds[number], offset, close=finalised(t) or number < last)
        for userid in late:
            if userid not in self.regs:
                self._register(userid)
        self._drops(offset, upto=None)
        self._finish()
        return dict(self.summary)

    def _structure(self, offset: int) -> None:
        swiss = max((len(swiss_rounds_of(p)) for p in self.t.pods), default=0)
        cuts = [c.cut for c in self.t.finalsoptions] + [
            2 ** len(cut_rounds_of(p)) for p in self.t.pods if cut_rounds_of(p)
        ]
        fields = {
            "swiss_rounds": max(swiss, 1) if finalised(self.t) else max(offset, swiss, 1),
            "top_cut": max(cuts, default=0),
        }
        changed = {k: v for k, v in fields.items() if getattr(self.event, k) != v}
        if changed:
            self.event = league_services.update_event(
                event=self.event, by_user=self.by_user, **changed
            )

    def _late_entrants(self, offset: int) -> dict[str, int]:
        """Players with a late entrant's loss (outcome 8): the first round they play here."""
        late: dict[str, int] = {}
        for pod in self.t.pods:
            missed: dict[str, int] = {}
            for r in pod.rounds:
                for m in r.matches:
                    if m.outcome == tdf.LATE_LOSS:
                        missed[m.player] = max(missed.get(m.player, 0), site_number(pod, r, offset))
            for userid, last_missed in missed.items():
                late[userid] = last_missed + 1
        return late

    def _players(self, late: dict[str, int], had_rounds: bool) -> None:
        t = self.t
        for userid, reg in self.regs.items():
            if userid not in self.players:
                gone = reg.status in (Registration.Status.WITHDRAWN, Registration.Status.WAITLISTED)
                if (self.tom.save_data or had_rounds) and not gone:
                    raise contradicts(
                        "tournament/players",
                        say(
                            gettext_noop(
                                "player %(id)s (%(name)s) is in the event but not in this save: "
                                "add them in TOM, or withdraw them here."
                            ),
                            id=userid,
                            name=reg.player.name,
                        ),
                    )
                if reg.is_active or reg.status == Registration.Status.WAITLISTED:
                    league_services.drop(
                        registration=reg, by_user=self.by_user
                    )  # not in TOM: withdrawn
                    self.summary["withdrawn"] += 1
        for i, p in enumerate(t.players, start=1):
            reg = self.regs.get(p.userid)
            if reg is not None:
                if reg.division != self.divisions[p.userid]:
                    Registration.objects.filter(pk=reg.pk).update(division=self.divisions[p.userid])
                    reg.division = self.divisions[p.userid]
                if p.userid not in self.pod_of and reg.is_active and not had_rounds:
                    self.regs[p.userid] = league_services.drop(
                        registration=reg, by_user=self.by_user
                    )
                continue
            if p.userid in late:
                continue
            if had_rounds and p.userid in self.pod_of:
                raise contradicts(
                    f"tournament/players/player[{i}]",
                    say(
                        gettext_noop(
                            "player %(id)s is new in this save but plays from the first round."
                        ),
                        id=p.userid,
                    ),
                )
            reg = self._register(p.userid)
            if p.userid not in self.pod_of:  # registered in TOM but in no pod: withdrawn
                self.regs[p.userid] = league_services.drop(registration=reg, by_user=self.by_user)
                self.summary["not_in_a_pod"] += 1

    def _register(self, userid: str) -> Registration:
        p = self.players[userid]
        player = Player.objects.filter(player_id=userid).first()
        if player is None:
            player = Player.objects.create(
                name=p.name or f"Player {userid}",
                player_id=userid,
                birth_date=tdf.parse_date(p.birthdate),
            )
            self.summary["players_created"] += 1
        reg = league_services.register(
            event=self.event, player=player, by_user=self.by_user, division=self.divisions[userid]
        )
        if reg.status == Registration.Status.WAITLISTED:
            raise contradicts(
                "tournament/players",
                say(
                    gettext_noop("the event is full: %(name)s (%(id)s) is on the waiting list."),
                    name=p.name,
                    id=userid,
                ),
            )
        reg.player = player
        self.regs[userid] = reg
        self.summary["registered"] += 1
        if p.byes:
            Registration.objects.filter(pk=reg.pk).update(has_earned_bye=True)
        return reg

    def _reg(self, userid: str, where: str) -> Registration:
        reg = self.regs.get(userid)
        if reg is None:
            raise contradicts(
                where,
                say(gettext_noop("player %(id)s plays here but is not registered."), id=userid),
            )
        return reg

    def _round(
        self, number: int, parts: list[tuple[tdf.Pod, tdf.Round]], offset: int, *, close: bool
    ) -> None:
        stage = Round.Stage.TOP_CUT if parts[0][1].is_top_cut else Round.Stage.SWISS
        round_ = Round.objects.filter(event=self.event, number=number).first()
        site_matches = list(round_.matches.all()) if round_ else []
        for pod, r in parts:
            where = f"tournament/pods/pod[{self.t.pods.index(pod) + 1}]/rounds/round[{pod.rounds.index(r) + 1}]"
            if (Round.Stage.TOP_CUT if r.is_top_cut else Round.Stage.SWISS) != stage:
                raise contradicts(
                    where,
                    # Translators: "Swiss" and "top cut" are the official tournament terms.
                    say(
                        gettext_noop(
                            "round %(round)s is Swiss in one pod and top cut in another here."
                        ),
                        round=r.number,
                    ),
                )
            label = self.label(pod)
            mine = [m for m in site_matches if m.division == label]
            wanted = [m for m in r.matches if m.outcome != tdf.LATE_LOSS]
            key = lambda a, b: frozenset(x for x in (a, b) if x)  # noqa: E731
            tom_pairs = {
                key(
                    self._reg(m.player1 or m.player, where).pk,
                    self._reg(m.player2, where).pk if m.player2 else None,
                ): m
                for m in wanted
            }
            site_pairs = {key(m.player_a_id, m.player_b_id): m for m in mine}
            repaired = bool(mine) and set(site_pairs) != set(tom_pairs)
            if repaired:
                played = [
                    m
                    for m in mine
                    if m.player_b_id and (m.status == Match.Status.FINAL or m.reports.exists())
                ]
                if played:
                    raise contradicts(
                        where,
                        say(
                            gettext_noop(
                                "round %(round)s is paired differently here and has results "
                                "(table %(table)s): TOM cannot have re-paired it."
                            ),
                            round=r.number,
                            table=played[0].table,
                        ),
                    )
                site_matches = [m for m in site_matches if m.division != label]
            if not mine or repaired:
                used = {m.table for m in site_matches}
                pairings = []
                for m in wanted:
                    a = self._reg(m.player1 or m.player, where).pk
                    b = self._reg(m.player2, where).pk if m.player2 else None
                    table = m.tablenumber
                    if table <= 0 or table in used:
                        table = max(used | {0, *(x.tablenumber for x in wanted)}) + 1
                    used.add(table)
                    pairings.append((table, label, a, b))
                round_ = match_services.record_paired_matches(
                    event=self.event,
                    number=number,
                    stage=stage,
                    pairings=pairings,
                    by_user=self.by_user,
                    replace=repaired,
                )
                self.summary["matches_paired"] += len(pairings)
                if repaired:
                    self.summary["rounds_repaired"] += 1
                site_matches = list(round_.matches.all())
                site_pairs = {
                    key(m.player_a_id, m.player_b_id): m
                    for m in site_matches
                    if m.division == label
                }
            for pair, m in tom_pairs.items():
                match = site_pairs[pair]
                if m.outcome in (tdf.BYE, tdf.EARNED_BYE):
                    continue
                result = RESULT_OF_OUTCOME.get(m.outcome)
                if result is None:
                    continue  # not played yet in TOM: leave whatever the site has
                if match.player_a_id != self.regs[m.player1].pk:
                    result = FLIPPED[result]
                if match.status == Match.Status.FINAL and match.result == result:
                    continue
                if match.status == Match.Status.FINAL:
                    self.summary["results_changed"] += 1
                else:
                    self.summary["results"] += 1
                match_services.record_decided_result(
                    match=match,
                    result=result,
                    by_user=self.by_user,
                    note=f"TOM save ({self.t.data.id})",
                )
        if round_ is None:
            return
        round_.refresh_from_db()
        if round_.status == Round.Status.PAIRED:
            match_services.publish_round(round_=round_, by_user=self.by_user)
        self._drops(offset, upto=number)
        complete = not round_.matches.exclude(status=Match.Status.FINAL).exists()
        if close and complete and round_.status != Round.Status.CLOSED:
            match_services.close_round(round_=round_, by_user=self.by_user)
            self.summary["rounds_closed"] += 1
        self.event.refresh_from_db()

    def _drops(self, offset: int, *, upto: int | None) -> None:
        for i, p in enumerate(self.t.players, start=1):
            reg = self.regs.get(p.userid)
            if reg is None or (p.dropped is None and upto is not None):
                continue
            if p.dropped is None:
                if reg.status == Registration.Status.DROPPED and upto is None:
                    raise contradicts(
                        f"tournament/players/player[{i}]",
                        # Translators: <dropped> is the name of an element in TOM's file: keep it.
                        say(
                            gettext_noop(
                                "%(name)s (%(id)s) dropped before; this save has no <dropped>."
                            ),
                            name=p.name,
                            id=p.userid,
                        ),
                    )
                continue
            pod = self.pod_of.get(p.userid)
            swiss = len(swiss_rounds_of(pod)) if pod else 0
            after = (
                p.dropped.round
                if p.dropped.round <= swiss or pod is None
                else offset + p.dropped.round - swiss
            )
            if upto is not None and after != upto:
                continue
            if reg.status == Registration.Status.DROPPED:
                if reg.dropped_after_round != after and upto is None:
                    raise contradicts(
                        f"tournament/players/player[{i}]/dropped/round",
                        say(
                            gettext_noop(
                                "%(name)s dropped after round %(before)s before, round %(now)s now."
                            ),
                            name=p.name,
                            before=reg.dropped_after_round,
                            now=after,
                        ),
                    )
                continue
            if not reg.is_active:
                continue
            self.regs[p.userid] = league_services.drop(
                registration=reg, by_user=self.by_user, after_round=after
            )
            self.summary["dropped"] += 1

    def _finish(self) -> None:
        if not finalised(self.t):
            return
        self.event.refresh_from_db()
        if self.event.status != Event.Status.FINISHED:
            match_services.finish_event(event=self.event)
        placements = []
        for block in self.t.standings:
            if block.type != "finished" or block.category not in DIVISION_OF_CATEGORY:
                continue
            for place in block.players:
                reg = self.regs.get(place.id)
                if reg is None:
                    raise contradicts(
                        "tournament/standings",
                        say(
                            gettext_noop("player %(id)s is ranked but not registered."), id=place.id
                        ),
                    )
                placements.append((reg.pk, DIVISION_OF_CATEGORY[block.category], place.place))
        league_services.record_placements(event=self.event, placements=placements)
