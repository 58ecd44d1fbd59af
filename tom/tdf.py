"""TOM saves (`.tdf`): reading and writing the XML that Pokémon's Tournament Operations
Manager writes, as plain Python (no Django).

`parse(data)` turns the bytes of a save into a `Tournament`; `write(tournament)` turns it
back into the text TOM writes: tab indentation, elements in TOM's order, TOM's layout
quirks (`<round … >` with a space, roster entries `<player … />`, match players
`<player1 …/>`, empty containers as an open and a close line) and its entity escapes.
Writing what was read gives the same element tree, and for TOM's own files the same text
(line endings aside: `write(..., newline="\\r\\n")` for CRLF).

Terms (see `../shared/data/tom-exports/tdf/README.md` for every element):
- a *pod* is a group TOM pairs on its own, by `category`: 0 Juniors, 1 Seniors, 2 Masters,
  8 Juniors and Seniors together, 10 all ages;
- a match's `outcome`: 1 player1 won, 2 player2 won, 3 tie, 4 earned bye, 5 bye, 8 a late
  entrant's loss for a round they missed, 10 double loss, 0 not played yet;
- round `type` 1 is the single-elimination top cut; Swiss rounds carry the root's type;
- dates are `MM/DD/YYYY` and timestamps `MM/DD/YYYY HH:MM:SS`, kept as TOM's text.

Everything TOM writes is kept, unknown elements are refused: a file that is not a TOM save,
is cut short, lacks an element TOM always writes or names a player twice raises
`TdfError`, whose message names the element.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from xml.etree.ElementTree import Element, ParseError, tostring

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

JUNIORS, SENIORS, MASTERS, JUNIORS_SENIORS, ALL_AGES = 0, 1, 2, 8, 10
#: The age divisions each pod category holds.
POD_DIVISIONS = {
    JUNIORS: (JUNIORS,),
    SENIORS: (SENIORS,),
    MASTERS: (MASTERS,),
    JUNIORS_SENIORS: (JUNIORS, SENIORS),
    ALL_AGES: (JUNIORS, SENIORS, MASTERS),
}
P1_WINS, P2_WINS, TIE, EARNED_BYE, BYE, LATE_LOSS, DOUBLE_LOSS, UNPLAYED = 1, 2, 3, 4, 5, 8, 10, 0
OUTCOMES = {UNPLAYED, P1_WINS, P2_WINS, TIE, EARNED_BYE, BYE, LATE_LOSS, DOUBLE_LOSS}
SINGLE_OUTCOMES = {EARNED_BYE, BYE, LATE_LOSS}
TOP_CUT_ROUND = 1
DATE_FORMAT = "%m/%d/%Y"
TIMESTAMP_FORMAT = "%m/%d/%Y %H:%M:%S"


class TdfError(ValueError):
    """The file is not a TOM save we can read; `element` names where (a path like
    `tournament/pods/pod[2]/rounds/round[3]`)."""

    def __init__(self, element: str, message: str):
        super().__init__(f"{element}: {message}")
        self.element = element
        self.message = message


# --- the data model ---------------------------------------------------------------------


@dataclass
class Organizer:
    popid: str
    name: str


@dataclass
class EventData:
    name: str
    id: str
    city: str
    state: str
    country: str
    roundtime: int
    finalsroundtime: int
    organizer: Organizer
    startdate: str
    lessswiss: bool = False
    autotablenumber: bool = False
    overflowtablestart: int = 0


@dataclass
class Dropped:
    round: int
    timestamp: str
    status: int = 1


@dataclass
class Player:
    userid: str
    firstname: str
    lastname: str
    birthdate: str
    creationdate: str
    lastmodifieddate: str
    starter: bool | None = True
    order: int | None = None
    seed: int | None = None
    byes: int | None = None
    dropped: Dropped | None = None

    @property
    def birth_year(self) -> int:
        return parse_date(self.birthdate).year

    @property
    def name(self) -> str:
        return f"{self.firstname} {self.lastname}".strip()


@dataclass
class Match:
    outcome: int
    timestamp: str
    tablenumber: int
    player1: str | None = None
    player2: str | None = None
    #: The one player of a bye, an earned bye or a late entrant's missed round.
    player: str | None = None

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(p for p in (self.player1, self.player2, self.player) if p)


@dataclass
class Round:
    number: int
    type: int
    stage: int
    timeleft: int
    matches: list[Match] = field(default_factory=list)
    pairtime: str | None = None
    starttime: str | None = None

    @property
    def is_top_cut(self) -> bool:
        return self.type == TOP_CUT_ROUND


@dataclass
class Subgroup:
    number: int
    players: list[str] = field(default_factory=list)


@dataclass
class Pod:
    category: int
    stage: int
    startingtable: int = 1
    playoff3rd4th: bool = False
    subgroupcount: int = 1
    additionalrounds: int | None = 0
    #: The XML of each child of `<blockedranges>` (empty in every file seen); None: absent.
    blockedranges: list[str] | None = field(default_factory=list)
    subgroups: list[Subgroup] = field(default_factory=list)
    rounds: list[Round] = field(default_factory=list)

    @property
    def players(self) -> list[str]:
        return [p for group in self.subgroups for p in group.players]

    @property
    def divisions(self) -> tuple[int, ...]:
        return POD_DIVISIONS[self.category]


@dataclass
class Place:
    id: str
    place: int


@dataclass
class StandingsPod:
    category: int
    type: str  # "finished" | "dnf"
    players: list[Place] = field(default_factory=list)


@dataclass
class CategoryCut:
    key: int
    options: list[int]
    cut: int
    playercount: int
    paired3rd4th: bool = False


@dataclass
class Tournament:
    type: int
    stage: int
    version: str
    gametype: str
    mode: str
    data: EventData
    timeelapsed: int
    players: list[Player]
    pods: list[Pod]
    finalsoptions: list[CategoryCut]
    #: None until TOM finalises the event.
    standings: list[StandingsPod] | None = None

    def player(self, userid: str) -> Player:
        return next(p for p in self.players if p.userid == userid)

    def pod_of(self) -> dict[str, Pod]:
        return {userid: pod for pod in self.pods for userid in pod.players}


# --- dates --------------------------------------------------------------------------------


def parse_date(text: str) -> date:
    return datetime.strptime(text, DATE_FORMAT).date()


def parse_timestamp(text: str | None) -> datetime | None:
    if not text:
        return None
    return datetime.strptime(text, TIMESTAMP_FORMAT)


def format_date(value: date) -> str:
    return value.strftime(DATE_FORMAT)


def format_timestamp(value: datetime) -> str:
    return value.strftime(TIMESTAMP_FORMAT)


def content_hash(data: bytes) -> str:
    """The SHA-256 of a save's bytes: the same file uploaded twice is one upload."""
    return hashlib.sha256(data).hexdigest()


# --- reading ------------------------------------------------------------------------------


class _Reader:
    """Reads one element's children in TOM's order, with paths for error messages."""

    def __init__(self, element: Element, path: str, expected: tuple[str, ...]):
        self.element = element
        self.path = path
        tags = [child.tag for child in element]
        unknown = [t for t in tags if t not in expected]
        if unknown:
            raise TdfError(
                f"{path}/{unknown[0]}", f"unknown element <{unknown[0]}> in <{element.tag}>"
            )
        for tag in set(tags):
            if tags.count(tag) > 1 and tag not in _REPEATABLE:
                raise TdfError(
                    f"{path}/{tag}", f"<{tag}> appears {tags.count(tag)} times in <{element.tag}>"
                )
        order = [expected.index(t) for t in tags]
        if order != sorted(order):
            raise TdfError(path, f"the elements of <{element.tag}> are not in TOM's order")

    def child(self, tag: str, required: bool = True) -> Element | None:
        found = self.element.find(tag)
        if found is None and required:
            raise TdfError(
                f"{self.path}/{tag}",
                f"<{self.element.tag}> has no <{tag}> (is the file cut short?)",
            )
        return found

    def text(self, tag: str, required: bool = True) -> str | None:
        found = self.child(tag, required)
        if found is None:
            return None
        if len(found):
            raise TdfError(f"{self.path}/{tag}", f"<{tag}> holds elements, TOM writes text there")
        return (found.text or "").strip()

    def int(self, tag: str, required: bool = True) -> int | None:
        value = self.text(tag, required)
        return None if value is None else _int(value, f"{self.path}/{tag}")

    def bool(self, tag: str, required: bool = True) -> bool | None:
        value = self.text(tag, required)
        return None if value is None else _bool(value, f"{self.path}/{tag}")


_REPEATABLE = {"player", "pod", "round", "match", "subgroup", "value", "categorycut"}


def _int(value: str, path: str) -> int:
    try:
        return int(value)
    except ValueError:
        raise TdfError(path, f"{value!r} is not a number") from None


def _bool(value: str, path: str) -> bool:
    if value not in ("true", "false"):
        raise TdfError(path, f"{value!r} is not true or false")
    return value == "true"


def _attr(element: Element, name: str, path: str) -> str:
    value = element.get(name)
    if value is None:
        raise TdfError(path, f'<{element.tag}> has no {name}="…" attribute')
    return value


def _check_attrs(element: Element, allowed: tuple[str, ...], path: str) -> None:
    unknown = set(element.attrib) - set(allowed)
    if unknown:
        raise TdfError(path, f'unknown attribute {sorted(unknown)[0]}="…" on <{element.tag}>')


def _check_date(value: str, path: str, fmt: str = DATE_FORMAT) -> str:
    try:
        datetime.strptime(value, fmt)
    except ValueError:
        raise TdfError(
            path, f"{value!r} is not a date TOM writes ({fmt.replace('%', '')})"
        ) from None
    return value


def parse(data: bytes | str) -> Tournament:
    """Read a TOM save. Raises `TdfError` naming the element for anything that is not one."""
    if isinstance(data, str):
        data = data.encode("utf-8")
    if not data.strip():
        raise TdfError("file", "the file is empty")
    try:
        root = fromstring(data)
    except ParseError as exc:
        line, column = exc.position
        raise TdfError(
            f"line {line}, column {column}",
            "not well-formed XML (a file cut short, or not a TOM save): " + str(exc).split(":")[0],
        ) from None
    except DefusedXmlException as exc:
        raise TdfError("file", f"refused: {exc.__class__.__name__}") from None
    if root.tag != "tournament":
        raise TdfError(
            root.tag, f"not a TOM save: the root element is <{root.tag}>, TOM writes <tournament>"
        )
    path = "tournament"
    _check_attrs(root, ("type", "stage", "version", "gametype", "mode"), path)
    top = _Reader(
        root, path, ("data", "timeelapsed", "players", "pods", "standings", "finalsoptions")
    )
    tournament = Tournament(
        type=_int(_attr(root, "type", path), f"{path}@type"),
        stage=_int(_attr(root, "stage", path), f"{path}@stage"),
        version=_attr(root, "version", path),
        gametype=_attr(root, "gametype", path),
        mode=_attr(root, "mode", path),
        data=_parse_data(top.child("data"), f"{path}/data"),
        timeelapsed=top.int("timeelapsed"),
        players=_parse_players(top.child("players"), f"{path}/players"),
        pods=[],
        finalsoptions=[],
    )
    pods = top.child("pods")
    _Reader(pods, f"{path}/pods", ("pod",))
    tournament.pods = [_parse_pod(p, f"{path}/pods/pod[{i}]") for i, p in enumerate(pods, start=1)]
    standings = top.child("standings", required=False)
    if standings is not None:
        _Reader(standings, f"{path}/standings", ("pod",))
        tournament.standings = [
            _parse_standings_pod(p, f"{path}/standings/pod[{i}]")
            for i, p in enumerate(standings, start=1)
        ]
    options = top.child("finalsoptions")
    _Reader(options, f"{path}/finalsoptions", ("categorycut",))
    tournament.finalsoptions = [
        _parse_cut(c, f"{path}/finalsoptions/categorycut[{i}]")
        for i, c in enumerate(options, start=1)
    ]
    check(tournament)
    return tournament


def _parse_data(element: Element, path: str) -> EventData:
    r = _Reader(element, path, ("name", "id", "city", "state", "country", "roundtime", "finalsroundtime",
                                "organizer", "startdate", "lessswiss", "autotablenumber",
                                "overflowtablestart"))  # fmt: skip
    organizer = r.child("organizer")
    _check_attrs(organizer, ("popid", "name"), f"{path}/organizer")
    return EventData(
        name=r.text("name"), id=r.text("id"), city=r.text("city"), state=r.text("state"),
        country=r.text("country"), roundtime=r.int("roundtime"), finalsroundtime=r.int("finalsroundtime"),
        organizer=Organizer(popid=_attr(organizer, "popid", f"{path}/organizer"),
                            name=_attr(organizer, "name", f"{path}/organizer")),
        startdate=_check_date(r.text("startdate"), f"{path}/startdate"),
        lessswiss=r.bool("lessswiss"), autotablenumber=r.bool("autotablenumber"),
        overflowtablestart=r.int("overflowtablestart"),
    )  # fmt: skip


PLAYER_CHILDREN = ("firstname", "lastname", "birthdate", "starter", "order", "seed", "byes", "dropped",
                   "creationdate", "lastmodifieddate")  # fmt: skip


def _parse_players(element: Element, path: str) -> list[Player]:
    _Reader(element, path, ("player",))
    players, seen = [], {}
    for i, item in enumerate(element, start=1):
        here = f"{path}/player[{i}]"
        _check_attrs(item, ("userid",), here)
        userid = _attr(item, "userid", here)
        if userid in seen:
            raise TdfError(
                here, f"player {userid} is listed twice in <players> (also player[{seen[userid]}])"
            )
        seen[userid] = i
        r = _Reader(item, here, PLAYER_CHILDREN)
        dropped = None
        drop = r.child("dropped", required=False)
        if drop is not None:
            d = _Reader(drop, f"{here}/dropped", ("status", "round", "timestamp"))
            dropped = Dropped(
                status=d.int("status"), round=d.int("round"), timestamp=d.text("timestamp")
            )
        players.append(
            Player(
                userid=userid, firstname=r.text("firstname"), lastname=r.text("lastname"),
                birthdate=_check_date(r.text("birthdate"), f"{here}/birthdate"),
                starter=r.bool("starter", required=False), order=r.int("order", required=False),
                seed=r.int("seed", required=False), byes=r.int("byes", required=False), dropped=dropped,
                creationdate=r.text("creationdate"), lastmodifieddate=r.text("lastmodifieddate"),
            )
        )  # fmt: skip
    return players


def _parse_pod(element: Element, path: str) -> Pod:
    _check_attrs(element, ("category", "stage"), path)
    r = _Reader(element, path, ("poddata", "subgroups", "rounds"))
    category = _int(_attr(element, "category", path), f"{path}@category")
    if category not in POD_DIVISIONS:
        raise TdfError(f"{path}@category", f"unknown pod category {category}")
    d = _Reader(r.child("poddata"), f"{path}/poddata",
                ("startingtable", "playoff3rd4th", "subgroupcount", "additionalrounds", "blockedranges"))  # fmt: skip
    blocked = d.child("blockedranges", required=False)

    pod = Pod(
        category=category,
        stage=_int(_attr(element, "stage", path), f"{path}@stage"),
        startingtable=d.int("startingtable"),
        playoff3rd4th=d.bool("playoff3rd4th"),
        subgroupcount=d.int("subgroupcount"),
        additionalrounds=d.int("additionalrounds", required=False),
        blockedranges=None
        if blocked is None
        else [tostring(c, encoding="unicode").strip() for c in blocked],
    )
    subgroups = r.child("subgroups")
    _Reader(subgroups, f"{path}/subgroups", ("subgroup",))
    for i, group in enumerate(subgroups, start=1):
        here = f"{path}/subgroups/subgroup[{i}]"
        _check_attrs(group, ("number",), here)
        players = _Reader(group, here, ("players",)).child("players")
        _Reader(players, f"{here}/players", ("player",))
        ids = []
        for j, p in enumerate(players, start=1):
            _check_attrs(p, ("userid",), f"{here}/players/player[{j}]")
            ids.append(_attr(p, "userid", f"{here}/players/player[{j}]"))
        pod.subgroups.append(
            Subgroup(number=_int(_attr(group, "number", here), f"{here}@number"), players=ids)
        )
    rounds = r.child("rounds")
    _Reader(rounds, f"{path}/rounds", ("round",))
    for i, item in enumerate(rounds, start=1):
        pod.rounds.append(_parse_round(item, f"{path}/rounds/round[{i}]"))
    return pod


def _parse_round(element: Element, path: str) -> Round:
    _check_attrs(element, ("number", "type", "stage"), path)
    r = _Reader(element, path, ("timeleft", "pairtime", "starttime", "matches"))
    round_ = Round(
        number=_int(_attr(element, "number", path), f"{path}@number"),
        type=_int(_attr(element, "type", path), f"{path}@type"),
        stage=_int(_attr(element, "stage", path), f"{path}@stage"),
        timeleft=r.int("timeleft"),
        pairtime=r.text("pairtime", required=False),
        starttime=r.text("starttime", required=False),
    )
    matches = r.child("matches")
    _Reader(matches, f"{path}/matches", ("match",))
    for i, item in enumerate(matches, start=1):
        here = f"{path}/matches/match[{i}]"
        _check_attrs(item, ("outcome",), here)
        m = _Reader(item, here, ("player1", "player2", "player", "timestamp", "tablenumber"))
        outcome = _int(_attr(item, "outcome", here), f"{here}@outcome")
        if outcome not in OUTCOMES:
            raise TdfError(f"{here}@outcome", f"unknown outcome {outcome}")
        ids = {}
        for tag in ("player1", "player2", "player"):
            child = m.child(tag, required=False)
            if child is not None:
                _check_attrs(child, ("userid",), f"{here}/{tag}")
                ids[tag] = _attr(child, "userid", f"{here}/{tag}")
        if outcome in SINGLE_OUTCOMES:
            if set(ids) != {"player"}:
                raise TdfError(here, f"a match with outcome {outcome} has one <player>")
        elif set(ids) != {"player1", "player2"}:
            raise TdfError(here, "a match has <player1> and <player2>")
        round_.matches.append(
            Match(
                outcome=outcome,
                timestamp=m.text("timestamp"),
                tablenumber=m.int("tablenumber"),
                **ids,
            )
        )
    return round_


def _parse_standings_pod(element: Element, path: str) -> StandingsPod:
    _check_attrs(element, ("category", "type"), path)
    _Reader(element, path, ("player",))
    pod = StandingsPod(category=_int(_attr(element, "category", path), f"{path}@category"),
                       type=_attr(element, "type", path))  # fmt: skip
    for i, p in enumerate(element, start=1):
        here = f"{path}/player[{i}]"
        _check_attrs(p, ("id", "place"), here)
        pod.players.append(
            Place(id=_attr(p, "id", here), place=_int(_attr(p, "place", here), f"{here}@place"))
        )
    return pod


def _parse_cut(element: Element, path: str) -> CategoryCut:
    _check_attrs(element, ("key",), path)
    r = _Reader(element, path, ("options", "cut", "playercount", "paired3rd4th"))
    options = r.child("options")
    _Reader(options, f"{path}/options", ("value",))
    return CategoryCut(
        key=_int(_attr(element, "key", path), f"{path}@key"),
        options=[_int((v.text or "").strip(), f"{path}/options/value") for v in options],
        cut=r.int("cut"), playercount=r.int("playercount"), paired3rd4th=r.bool("paired3rd4th"),
    )  # fmt: skip


def check(t: Tournament) -> None:
    """What TOM's own files always hold: every player in a pod, match or standings is in
    `<players>`, nobody is in two pods or twice in a round, round numbers are unique."""
    known = {p.userid for p in t.players}
    pod_of: dict[str, int] = {}
    for i, pod in enumerate(t.pods, start=1):
        here = f"tournament/pods/pod[{i}]"
        for userid in pod.players:
            if userid not in known:
                raise TdfError(
                    f"{here}/subgroups", f"player {userid} is in the pod but not in <players>"
                )
            if userid in pod_of:
                raise TdfError(
                    f"{here}/subgroups",
                    f"player {userid} is listed twice in the pods (also pod[{pod_of[userid]}])",
                )
            pod_of[userid] = i
        numbers = [r.number for r in pod.rounds]
        for j, round_ in enumerate(pod.rounds, start=1):
            rpath = f"{here}/rounds/round[{j}]"
            if numbers.count(round_.number) > 1:
                raise TdfError(rpath, f"round {round_.number} appears twice in the pod")
            seen: set[str] = set()
            for k, match in enumerate(round_.matches, start=1):
                for userid in match.players:
                    if userid not in known:
                        raise TdfError(
                            f"{rpath}/matches/match[{k}]", f"player {userid} is not in <players>"
                        )
                    if userid in seen:
                        raise TdfError(
                            f"{rpath}/matches/match[{k}]",
                            f"player {userid} plays twice in round {round_.number}",
                        )
                    seen.add(userid)
    for i, pod in enumerate(t.standings or [], start=1):
        for j, place in enumerate(pod.players, start=1):
            if place.id not in known:
                raise TdfError(
                    f"tournament/standings/pod[{i}]/player[{j}]",
                    f"player {place.id} is not in <players>",
                )


# --- writing ------------------------------------------------------------------------------


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        .replace('"', "&quot;").replace("'", "&apos;")
    )  # fmt: skip


def _bool_text(value: bool) -> str:
    return "true" if value else "false"


class _Writer:
    def __init__(self):
        self.lines: list[str] = []
        self.depth = 0

    def line(self, text: str) -> None:
        self.lines.append("\t" * self.depth + text)

    def leaf(self, tag: str, value) -> None:
        if isinstance(value, bool):
            value = _bool_text(value)
        self.line(f"<{tag}>{_escape(str(value))}</{tag}>")

    def open(self, tag: str, attrs: str = "") -> None:
        self.line(f"<{tag}{attrs}>")
        self.depth += 1

    def close(self, tag: str) -> None:
        self.depth -= 1
        self.line(f"</{tag}>")


def _attrs(**values) -> str:
    return "".join(f' {k}="{_escape(str(v))}"' for k, v in values.items())


def write(t: Tournament, *, newline: str = "\n") -> str:
    """The save as TOM writes it (UTF-8 text; encode it before writing a file)."""
    w = _Writer()
    w.line('<?xml version="1.0" encoding="UTF-8"?>')
    w.open(
        "tournament",
        _attrs(type=t.type, stage=t.stage, version=t.version, gametype=t.gametype, mode=t.mode),
    )
    d = t.data
    w.open("data")
    for tag in ("name", "id", "city", "state", "country", "roundtime", "finalsroundtime"):
        w.leaf(tag, getattr(d, tag))
    w.line(f"<organizer{_attrs(popid=d.organizer.popid, name=d.organizer.name)}/>")
    for tag in ("startdate", "lessswiss", "autotablenumber", "overflowtablestart"):
        w.leaf(tag, getattr(d, tag))
    w.close("data")
    w.leaf("timeelapsed", t.timeelapsed)
    w.open("players")
    for p in t.players:
        w.open("player", _attrs(userid=p.userid))
        for tag in ("firstname", "lastname", "birthdate", "starter", "order", "seed", "byes"):
            if getattr(p, tag) is not None:
                w.leaf(tag, getattr(p, tag))
        if p.dropped is not None:
            w.open("dropped")
            w.leaf("status", p.dropped.status)
            w.leaf("round", p.dropped.round)
            w.leaf("timestamp", p.dropped.timestamp)
            w.close("dropped")
        w.leaf("creationdate", p.creationdate)
        w.leaf("lastmodifieddate", p.lastmodifieddate)
        w.close("player")
    w.close("players")
    w.open("pods")
    for pod in t.pods:
        _write_pod(w, pod)
    w.close("pods")
    if t.standings is not None:
        w.open("standings")
        for pod in t.standings:
            w.open("pod", _attrs(category=pod.category, type=pod.type))
            for place in pod.players:
                w.line(f"<player{_attrs(id=place.id, place=place.place)} />")
            w.close("pod")
        w.close("standings")
    w.open("finalsoptions")
    for cut in t.finalsoptions:
        w.open("categorycut", _attrs(key=cut.key))
        w.open("options")
        for value in cut.options:
            w.leaf("value", value)
        w.close("options")
        w.leaf("cut", cut.cut)
        w.leaf("playercount", cut.playercount)
        w.leaf("paired3rd4th", cut.paired3rd4th)
        w.close("categorycut")
    w.close("finalsoptions")
    w.close("tournament")
    return newline.join(w.lines) + newline


def _write_pod(w: _Writer, pod: Pod) -> None:
    w.open("pod", _attrs(category=pod.category, stage=pod.stage))
    w.open("poddata")
    w.leaf("startingtable", pod.startingtable)
    w.leaf("playoff3rd4th", pod.playoff3rd4th)
    w.leaf("subgroupcount", pod.subgroupcount)
    if pod.additionalrounds is not None:
        w.leaf("additionalrounds", pod.additionalrounds)
    if pod.blockedranges is not None:
        w.open("blockedranges")
        for raw in pod.blockedranges:
            w.line(raw)
        w.close("blockedranges")
    w.close("poddata")
    w.open("subgroups")
    for group in pod.subgroups:
        w.open("subgroup", _attrs(number=group.number))
        w.open("players")
        for userid in group.players:
            w.line(f"<player{_attrs(userid=userid)} />")
        w.close("players")
        w.close("subgroup")
    w.close("subgroups")
    w.open("rounds")
    for r in pod.rounds:
        w.open("round", _attrs(number=r.number, type=r.type, stage=r.stage) + " ")
        w.leaf("timeleft", r.timeleft)
        if r.pairtime is not None:
            w.leaf("pairtime", r.pairtime)
        if r.starttime is not None:
            w.leaf("starttime", r.starttime)
        w.open("matches")
        for m in r.matches:
            w.open("match", _attrs(outcome=m.outcome))
            for tag in ("player1", "player2", "player"):
                if getattr(m, tag) is not None:
                    w.line(f"<{tag}{_attrs(userid=getattr(m, tag))}/>")
            w.leaf("timestamp", m.timestamp)
            w.leaf("tablenumber", m.tablenumber)
            w.close("match")
        w.close("matches")
        w.close("round")
    w.close("rounds")
    w.close("pod")


def truncated(t: Tournament, *, rounds: int, last_unplayed: bool = False) -> Tournament:
    """The save as TOM would have written it after `rounds` rounds had been paired: later
    rounds, drops after them, seeds and standings removed; with `last_unplayed`, round
    `rounds` is paired but has no results yet (for tests and rehearsals)."""
    players = []
    for p in t.players:
        keep_drop = (
            p.dropped if p.dropped and p.dropped.round < rounds + (not last_unplayed) else None
        )
        players.append(replace(p, dropped=keep_drop, order=None, seed=None))
    pods = []
    for pod in t.pods:
        kept = []
        for r in pod.rounds:
            if r.number < rounds or (r.number == rounds and not last_unplayed):
                kept.append(r)
            elif r.number == rounds:
                matches = [
                    m if m.outcome in SINGLE_OUTCOMES else replace(m, outcome=UNPLAYED)
                    for m in r.matches
                ]
                kept.append(replace(r, matches=matches))
        pods.append(replace(pod, rounds=kept))
    return replace(t, stage=min(t.stage, 4), players=players, pods=pods, standings=None)
