"""TOM saves in and out: import a save as an event (or update the event from a later save),
export an event as a save, and compare our standings with the ones TOM wrote.

An import plays the save through the site's own services, round by round, as if the event
were run here: players are registered (`league.services.register`, late entrants when
their first round comes), TOM's pairings are posted (`matches.services.
record_paired_matches`) and published (players are told their table), results are
recorded (`matches.services.record_decided_result`, so a changed result keeps its
history), drops are made after the round TOM names, rounds are closed (standings
snapshots, the event finished) and TOM's final places recorded as the league placements.

Our rounds and TOM's: Swiss rounds keep their numbers. TOM numbers each pod's rounds on
its own, so a Juniors+Seniors pod may play its top cut while Masters still play Swiss
round 5; here a round number is Swiss or top cut for the whole event, so TOM's top-cut
rounds start after `TomEvent.cut_offset` (the most Swiss rounds any pod plays) in every
pod.

Pods: an event with one pod is run combined; with several, separately, and each match
carries its pod (`Match.division`: `junior`, `senior`, `masters`, `jr+sr`, `all`).
Divisions: TOM's word (its standings, else the pod's only division, else the birth year
with the Play! Pokémon cut-offs of the event's season), not the site season's years.

Everything happens in one transaction: a file that is not a TOM save, is cut short, names a
player twice or contradicts the event raises `DomainError` (`tdf-invalid`,
`tdf-contradicts`) naming the element, and nothing is changed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
from collections import defaultdict
from dataclasses import dataclass, field
from datetime import date, datetime, time

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from decks.models import Format
from decks.services import ensure_default_formats
from league import permissions
from league import services as league_services
from league.models import Event, EventPlacement, League, Player, Registration, Season
from matches import selectors as match_selectors
from matches import services as match_services
from matches.models import Match, ResultChange, Round
from rules import divisions as age
from rules.errors import DomainError
from rules.scoring import structure_for, table_from_rows
from rules.standings import compute_standings

from . import tdf
from .models import TomEvent, TomUpload

DIVISION_OF_CATEGORY = {tdf.JUNIORS: age.JUNIOR, tdf.SENIORS: age.SENIOR, tdf.MASTERS: age.MASTERS}
CATEGORY_OF_DIVISION = {v: k for k, v in DIVISION_OF_CATEGORY.items()}
# TOM's pod categories in the site's words for a pod (`Match.division`, `rules.divisions`).
POD_LABEL = {
    0: age.pod_key((age.JUNIOR,)),
    1: age.pod_key((age.SENIOR,)),
    2: age.pod_key((age.MASTERS,)),
    8: age.pod_key((age.JUNIOR, age.SENIOR)),
    10: age.pod_key(age.ORDER),
}
RESULT_OF_OUTCOME = {
    tdf.P1_WINS: "a",
    tdf.P2_WINS: "b",
    tdf.TIE: "tie",
    tdf.DOUBLE_LOSS: "double_loss",
}
OUTCOME_OF_RESULT = {v: k for k, v in RESULT_OF_OUTCOME.items()}
FLIPPED = {"a": "b", "b": "a", "tie": "tie", "double_loss": "double_loss"}
MAX_SAVE_BYTES = 5 * 1024 * 1024


def _invalid(element: str, message: str) -> DomainError:
    return DomainError("tdf-invalid", f"{element}: {message}")


def _contradicts(element: str, message: str) -> DomainError:
    return DomainError("tdf-contradicts", f"{element}: {message}", status=409)


# --- the save as JSON (TomEvent.save_data) --------------------------------------------


def to_json(t: tdf.Tournament) -> dict:
    return dataclasses.asdict(t)


def from_json(d: dict) -> tdf.Tournament:
    data = dict(d["data"])
    data["organizer"] = tdf.Organizer(**data["organizer"])
    players = [
        tdf.Player(**{**p, "dropped": tdf.Dropped(**p["dropped"]) if p["dropped"] else None})
        for p in d["players"]
    ]
    pods = []
    for p in d["pods"]:
        rounds = [
            tdf.Round(**{**r, "matches": [tdf.Match(**m) for m in r["matches"]]})
            for r in p["rounds"]
        ]
        subgroups = [tdf.Subgroup(**s) for s in p["subgroups"]]
        pods.append(tdf.Pod(**{**p, "rounds": rounds, "subgroups": subgroups}))
    standings = None
    if d["standings"] is not None:
        standings = [
            tdf.StandingsPod(**{**s, "players": [tdf.Place(**x) for x in s["players"]]})
            for s in d["standings"]
        ]
    return tdf.Tournament(
        **{**d, "data": tdf.EventData(**data), "players": players, "pods": pods, "standings": standings,
           "finalsoptions": [tdf.CategoryCut(**c) for c in d["finalsoptions"]]}
    )  # fmt: skip


# --- reading a save ---------------------------------------------------------------------


def read_save(data: bytes) -> tdf.Tournament:
    """Parse a save, turning `tdf.TdfError` into `tdf-invalid`."""
    if len(data) > MAX_SAVE_BYTES:
        raise _invalid("file", f"the file is larger than {MAX_SAVE_BYTES // 1024 // 1024} MB")
    try:
        return tdf.parse(data)
    except tdf.TdfError as exc:
        raise _invalid(exc.element, exc.message) from None


def championship_year(day: date) -> int:
    """Play! Pokémon seasons run July to June and are named by the year they end in."""
    return day.year + 1 if day.month >= 7 else day.year


def tom_divisions(t: tdf.Tournament) -> dict[str, str]:
    """Each player's division as TOM has it (see the module docstring)."""
    out: dict[str, str] = {}
    year = championship_year(tdf.parse_date(t.data.startdate))
    for p in t.players:
        out[p.userid] = age.division_for(p.birth_year, junior_from=year - 12, senior_from=year - 16)
    for pod in t.pods:
        if len(pod.divisions) == 1:
            for userid in pod.players:
                out[userid] = DIVISION_OF_CATEGORY[pod.divisions[0]]
    for block in t.standings or []:
        if block.category in DIVISION_OF_CATEGORY:
            for place in block.players:
                out[place.id] = DIVISION_OF_CATEGORY[block.category]
    return out


def _swiss(pod: tdf.Pod) -> list[tdf.Round]:
    return [r for r in pod.rounds if not r.is_top_cut]


def _cut(pod: tdf.Pod) -> list[tdf.Round]:
    return [r for r in pod.rounds if r.is_top_cut]


def _finalised(t: tdf.Tournament) -> bool:
    return t.standings is not None


def _cut_offset(t: tdf.Tournament, season: Season, known: int | None) -> int:
    """Our number of the round before TOM's first top-cut round (kept once rounds exist)."""
    if known is not None:
        return known
    table = table_from_rows(season.structure_table)
    offset = 0
    for pod in t.pods:
        seen = len(_swiss(pod))
        if _finalised(t) or _cut(pod) or len(pod.players) < table[0].min_players:
            offset = max(offset, seen)
        else:  # this pod is still in Swiss: expect the rounds its attendance gives
            offset = max(offset, seen, structure_for(len(pod.players), table)[0])
    return offset


def site_number(pod: tdf.Pod, r: tdf.Round, offset: int) -> int:
    return r.number if not r.is_top_cut else offset + r.number - len(_swiss(pod))


def tom_number(pod_swiss_rounds: int, site_round: int, stage: str, offset: int) -> int:
    return site_round if stage == Round.Stage.SWISS else pod_swiss_rounds + site_round - offset


# --- import -------------------------------------------------------------------------------


@dataclass
class ImportResult:
    event: Event
    created: bool = False
    duplicate: bool = False
    summary: dict = field(default_factory=dict)


def default_season(*, by_user, league: League | None = None, on: date | None = None) -> Season:
    """The season an imported event goes to: the league's season covering the event's date,
    else its latest; without a league, the first league the user organises. Raises
    `no-season`."""
    if league is None:
        leagues = (
            League.objects.all()
            if by_user and by_user.is_superuser
            else League.objects.filter(organisers=by_user)
        )
        league = leagues.order_by("pk").first()
        if league is None:
            raise DomainError("no-season", "You organise no league: choose one (--league).")
    seasons = Season.objects.filter(league=league)
    if on is not None:
        covering = seasons.filter(starts_on__lte=on, ends_on__gte=on).order_by("-starts_on").first()
        if covering:
            return covering
    season = seasons.order_by("-starts_on").first()
    if season is None:
        raise DomainError("no-season", f"{league} has no season: create one first.")
    return season


def import_save(
    *, data: bytes, by_user, event: Event | None = None, season: Season | None = None,
    filename: str = "", source: str = TomUpload.Source.COMMAND, format_key: str = "standard",
) -> ImportResult:  # fmt: skip
    """Create an event from a TOM save (`event` None, in `season`), or bring `event` up to
    date with a later save of the same tournament. The same file imported into the same
    event twice is applied once (`duplicate`).

    Writes, through the league and matches services: players (new ones by their Play!
    Pokémon id), registrations, rounds, matches, results and their history, drops, the
    event's status, final placements; here: `TomEvent` (the save, the standings
    comparison) and one `TomUpload`. Queues what those services queue (notifications,
    standings, league points). Raises `tdf-invalid`, `tdf-contradicts`, `not-allowed`,
    `no-season`.
    """
    t = read_save(data)
    sha = tdf.content_hash(data)
    with transaction.atomic():
        created = event is None
        if created:
            season = season or default_season(by_user=by_user, on=tdf.parse_date(t.data.startdate))
            event = _create_event(t, season=season, by_user=by_user, format_key=format_key)
            tom = TomEvent.objects.create(event=event, sanction_id=t.data.id, save_data={})
        else:
            event = (
                Event.objects.select_for_update().select_related("season__league").get(pk=event.pk)
            )
            if not permissions.can(by_user, event, "manage-event"):
                raise DomainError(
                    "not-allowed", "Only the event's organisers can import a TOM save.", status=403
                )
            if TomUpload.objects.filter(event=event, sha256=sha).exists():
                return ImportResult(event=event, duplicate=True, summary={"duplicate": True})
            tom = TomEvent.objects.filter(event=event).first()
            if (tom is None or not tom.save_data) and Round.objects.filter(event=event).exists():
                raise _contradicts(
                    "tournament/pods", f"{event} already has rounds paired on this site."
                )
            if tom is None:
                tom = TomEvent.objects.create(event=event, sanction_id=t.data.id, save_data={})
            elif not tom.sanction_id:
                tom.sanction_id = t.data.id  # made for its upload token, before any save
            elif tom.sanction_id != t.data.id:
                raise _contradicts(
                    "tournament/data/id",
                    f"this save is tournament {t.data.id}, the event mirrors {tom.sanction_id}.",
                )
        summary = _Importer(event, tom, t, by_user).run()
        compare_standings(event=event, tom=tom, t=t)
        tom.save_data = to_json(t)
        tom.save()
        TomUpload.objects.create(
            event=event, sha256=sha, filename=filename.replace("\x00", "")[:200], size=len(data), source=source,
            uploaded_by=by_user if by_user and by_user.is_authenticated else None, summary=summary,
        )  # fmt: skip
    event.refresh_from_db()
    return ImportResult(event=event, created=created, summary=summary)


def _create_event(t: tdf.Tournament, *, season: Season, by_user, format_key: str) -> Event:
    ensure_default_formats()
    fmt = Format.objects.filter(key=format_key).first()
    if fmt is None:
        raise DomainError("unknown-format", f"No format {format_key!r}.")
    starts = timezone.make_aware(datetime.combine(tdf.parse_date(t.data.startdate), time(10, 0)))
    return league_services.create_event(
        season=season, by_user=by_user, name=t.data.name or f"TOM {t.data.id}", format=fmt,
        starts_at=starts, round_minutes=max(1, t.data.roundtime),
        division_mode=Event.DivisionMode.SEPARATE if len(t.pods) > 1 else Event.DivisionMode.COMBINED,
    )  # fmt: skip


class _Importer:
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
                mode = "separately" if self.separate else "combined"
                raise _contradicts(
                    "tournament/pods",
                    f"the event is run {mode}, the save has {len(t.pods)} pod(s).",
                )
            self.event = league_services.update_event(
                event=self.event, by_user=self.by_user,
                division_mode=Event.DivisionMode.SEPARATE if separate else Event.DivisionMode.COMBINED,
            )  # fmt: skip
            self.separate = separate
        offset = _cut_offset(t, self.event.season, self.tom.cut_offset if had_rounds else None)
        if any(_cut(p) for p in t.pods):
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
            raise _contradicts(
                "tournament/pods", f"round {min(missing)} is on the site but not in this save."
            )
        last = max(rounds, default=0)
        for number in sorted(rounds):
            for userid, first in late.items():
                if first == number and userid not in self.regs:
                    self._register(userid)
            self._round(number, rounds[number], offset, close=_finalised(t) or number < last)
        for userid in late:
            if userid not in self.regs:
                self._register(userid)
        self._drops(offset, upto=None)
        self._finish()
        return dict(self.summary)

    def _structure(self, offset: int) -> None:
        swiss = max((len(_swiss(p)) for p in self.t.pods), default=0)
        cuts = [c.cut for c in self.t.finalsoptions] + [
            2 ** len(_cut(p)) for p in self.t.pods if _cut(p)
        ]
        fields = {"swiss_rounds": max(swiss, 1) if _finalised(self.t) else max(offset, swiss, 1),
                  "top_cut": max(cuts, default=0)}  # fmt: skip
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
                    raise _contradicts(
                        "tournament/players",
                        f"player {userid} ({reg.player.name}) is in the event but not in this save: "
                        f"add them in TOM, or withdraw them here.",
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
                raise _contradicts(
                    f"tournament/players/player[{i}]",
                    f"player {p.userid} is new in this save but plays from the first round.",
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
            raise _contradicts(
                "tournament/players",
                f"the event is full: {p.name} ({userid}) is on the waiting list.",
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
            raise _contradicts(where, f"player {userid} plays here but is not registered.")
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
                raise _contradicts(
                    where, f"round {r.number} is Swiss in one pod and top cut in another here."
                )
            label = self.label(pod)
            mine = [m for m in site_matches if m.division == label]
            wanted = [m for m in r.matches if m.outcome != tdf.LATE_LOSS]
            key = lambda a, b: frozenset(x for x in (a, b) if x)  # noqa: E731
            tom_pairs = {
                key(self._reg(m.player1 or m.player, where).pk, self._reg(m.player2, where).pk if m.player2 else None): m
                for m in wanted
            }  # fmt: skip
            site_pairs = {key(m.player_a_id, m.player_b_id): m for m in mine}
            repaired = bool(mine) and set(site_pairs) != set(tom_pairs)
            if repaired:
                played = [
                    m for m in mine
                    if m.player_b_id and (m.status == Match.Status.FINAL or m.reports.exists())
                ]  # fmt: skip
                if played:
                    raise _contradicts(
                        where,
                        f"round {r.number} is paired differently here and has results "
                        f"(table {played[0].table}): TOM cannot have re-paired it.",
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
                    raise _contradicts(
                        f"tournament/players/player[{i}]",
                        f"{p.name} ({p.userid}) dropped before; this save has no <dropped>.",
                    )
                continue
            pod = self.pod_of.get(p.userid)
            swiss = len(_swiss(pod)) if pod else 0
            after = (
                p.dropped.round
                if p.dropped.round <= swiss or pod is None
                else offset + p.dropped.round - swiss
            )
            if upto is not None and after != upto:
                continue
            if reg.status == Registration.Status.DROPPED:
                if reg.dropped_after_round != after and upto is None:
                    raise _contradicts(
                        f"tournament/players/player[{i}]/dropped/round",
                        f"{p.name} dropped after round {reg.dropped_after_round} before, round {after} now.",
                    )
                continue
            if not reg.is_active:
                continue
            self.regs[p.userid] = league_services.drop(
                registration=reg, by_user=self.by_user, after_round=after
            )
            self.summary["dropped"] += 1

    def _finish(self) -> None:
        if not _finalised(self.t):
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
                    raise _contradicts(
                        "tournament/standings", f"player {place.id} is ranked but not registered."
                    )
                placements.append((reg.pk, DIVISION_OF_CATEGORY[block.category], place.place))
        league_services.record_placements(event=self.event, placements=placements)


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
    if not _finalised(t):
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


# --- export -----------------------------------------------------------------------------


def _stamp(value: datetime | None) -> str:
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
            .exclude(status=Registration.Status.WAITLISTED).select_related("player").order_by("registered_at", "pk")
        )  # fmt: skip
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
        self.changed_at = dict(
            ResultChange.objects.filter(match__round__event=event).order_by("changed_at")
            .values_list("match_id", "changed_at")
        )  # fmt: skip

    def build(self) -> tdf.Tournament:
        base, event = self.base, self.event
        finished = event.status == Event.Status.FINISHED
        pods = self._pods()
        players = self._players(pods)
        cut = max((len([r for r in p.rounds if r.is_top_cut]) for p in pods), default=0)
        if base:
            head = dict(type=base.type, version=base.version, gametype=base.gametype, mode=base.mode,
                        data=base.data, timeelapsed=base.timeelapsed)  # fmt: skip
            stage = 5 if finished else base.stage
        else:
            head = dict(
                type=3 if cut else 2, version="1.86", gametype="TRADING_CARD_GAME",
                mode="TCG1DAY" if cut else "CUSTOM", timeelapsed=0,
                data=tdf.EventData(
                    name=event.name, id=self.tom.sanction_id if self.tom else "", city="", state="", country="",
                    roundtime=event.round_minutes, finalsroundtime=event.round_minutes,
                    organizer=tdf.Organizer(popid="", name=str(event.season.league)),
                    startdate=tdf.format_date(timezone.localtime(event.starts_at).date()),
                ),
            )  # fmt: skip
            stage = 5 if finished else 4
        return tdf.Tournament(
            stage=stage, **head, players=players, pods=pods,
            standings=self._standings() if finished else None, finalsoptions=self._finals(pods),
        )  # fmt: skip

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
                    r for r in members
                    if round_.stage == Round.Stage.SWISS and r.late_entry_round and r.late_entry_round > round_.number
                    and round_.number >= 1
                ]  # fmt: skip
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

    def _round(self, round_: Round, number: int, ms: list[Match], late: list[Registration],
               base_round: tdf.Round | None) -> tdf.Round:  # fmt: skip
        top = round_.stage == Round.Stage.TOP_CUT
        if base_round:
            r = dataclasses.replace(base_round, matches=[])
        else:
            r = tdf.Round(
                number=number, type=tdf.TOP_CUT_ROUND if top else (3 if self.event.top_cut else 2),
                stage=8 if round_.status == Round.Status.CLOSED else 4, timeleft=0,
                pairtime=_stamp(round_.created_at), starttime=_stamp(round_.clock_started_at or round_.published_at or round_.created_at),
            )  # fmt: skip
        base_matches = {frozenset(m.players): m for m in base_round.matches} if base_round else {}
        out = []
        for m in ms:
            a = self.by_pk[m.player_a_id].player.player_id
            b = self.by_pk[m.player_b_id].player.player_id if m.player_b_id else None
            before = base_matches.get(frozenset(x for x in (a, b) if x))
            if b is None:
                earned = (before.outcome == tdf.EARNED_BYE) if before else (
                    self.by_pk[m.player_a_id].has_earned_bye and round_.number == 1)  # fmt: skip
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
                else _stamp(self.changed_at.get(m.pk) or round_.created_at)
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
            out.append(tdf.Match(outcome=tdf.LATE_LOSS, player=userid, tablenumber=0,
                                 timestamp=before.timestamp if before else r.pairtime or _stamp(round_.created_at)))  # fmt: skip
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
                    pod_swiss = max((len([r for r in pod.rounds if not r.is_top_cut]) for pod in pods
                                     if userid in pod.players), default=self.offset)  # fmt: skip
                    number = pod_swiss + number - self.offset
                stamp = p.dropped.timestamp if p and p.dropped else _stamp(None)
                dropped = tdf.Dropped(round=number, timestamp=stamp, status=1)
            byes = p.byes if p is not None else None
            if reg.has_earned_bye and not byes:
                byes = 1
            order_seed = seeds.get(userid, (None, None))
            if p is not None:
                first, last = p.firstname, p.lastname
                created, modified, starter = p.creationdate, p.lastmodifieddate, p.starter
            else:
                first, _, last = player.name.partition(" ")
                created = modified = _stamp(reg.registered_at)
                starter = True
            out.append(tdf.Player(
                userid=userid, firstname=first, lastname=last, birthdate=birth, starter=starter,
                order=order_seed[0], seed=order_seed[1], byes=byes if byes else (0 if p and p.byes == 0 else None),
                dropped=dropped, creationdate=created, lastmodifieddate=modified,
            ))  # fmt: skip
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
            tdf.StandingsPod(category=c, type=kind,
                             players=sorted(places[c], key=lambda p: p.place) if kind == "finished" else [])
            for c, kind in blocks
        ]  # fmt: skip

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


# --- the laptop script's token -------------------------------------------------------------


def token_digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


@transaction.atomic
def new_upload_token(*, event: Event, by_user) -> str:
    """A new upload token for the event's TOM laptop (the old one stops working). Returns
    the token, which is stored only as its SHA-256: show it once. Staff only."""
    if not permissions.can(by_user, event, "manage-event"):
        raise DomainError(
            "not-allowed", "Only the event's organisers can make an upload token.", status=403
        )
    tom = TomEvent.objects.select_for_update().filter(event=event).first()
    if tom is None:
        tom = TomEvent.objects.create(event=event, sanction_id="", save_data={})
    token = f"tom_{event.pk}_{secrets.token_urlsafe(32)}"
    tom.token_hash, tom.token_created_at, tom.token_user = (
        token_digest(token),
        timezone.now(),
        by_user,
    )
    tom.save(update_fields=["token_hash", "token_created_at", "token_user", "updated_at"])
    return token


def event_for_token(token: str) -> TomEvent | None:
    if not token or "\x00" in token:
        return None
    return (
        TomEvent.objects.select_related("event__season__league", "token_user")
        .filter(token_hash=token_digest(token))
        .exclude(token_hash="")
        .first()
    )


def organiser_user(username: str | None):
    User = get_user_model()
    if username:
        user = User.objects.filter(username=username).first()
        if user is None:
            raise DomainError("not-found", f"No user {username!r}.", status=404)
        return user
    return None
