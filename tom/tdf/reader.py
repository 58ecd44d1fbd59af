"""Reading a TOM save: `parse(data) -> Tournament`, every element checked against what
TOM writes (unknown elements, repeats, order, missing elements raise `TdfError` naming the
element), and `check(tournament)`, the consistency of what was read."""

from __future__ import annotations

from datetime import datetime
from xml.etree.ElementTree import Element, ParseError, tostring

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import fromstring

from .model import (
    DATE_FORMAT,
    OUTCOMES,
    POD_DIVISIONS,
    SINGLE_OUTCOMES,
    CategoryCut,
    Dropped,
    EventData,
    Match,
    Organizer,
    Place,
    Player,
    Pod,
    Round,
    StandingsPod,
    Subgroup,
    TdfError,
    Tournament,
)


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
    r = _Reader(
        element,
        path,
        (
            "name",
            "id",
            "city",
            "state",
            "country",
            "roundtime",
            "finalsroundtime",
            "organizer",
            "startdate",
            "lessswiss",
            "autotablenumber",
            "overflowtablestart",
        ),
    )
    organizer = r.child("organizer")
    _check_attrs(organizer, ("popid", "name"), f"{path}/organizer")
    return EventData(
        name=r.text("name"),
        id=r.text("id"),
        city=r.text("city"),
        state=r.text("state"),
        country=r.text("country"),
        roundtime=r.int("roundtime"),
        finalsroundtime=r.int("finalsroundtime"),
        organizer=Organizer(
            popid=_attr(organizer, "popid", f"{path}/organizer"),
            name=_attr(organizer, "name", f"{path}/organizer"),
        ),
        startdate=_check_date(r.text("startdate"), f"{path}/startdate"),
        lessswiss=r.bool("lessswiss"),
        autotablenumber=r.bool("autotablenumber"),
        overflowtablestart=r.int("overflowtablestart"),
    )


PLAYER_CHILDREN = (
    "firstname",
    "lastname",
    "birthdate",
    "starter",
    "order",
    "seed",
    "byes",
    "dropped",
    "creationdate",
    "lastmodifieddate",
)


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
                userid=userid,
                firstname=r.text("firstname"),
                lastname=r.text("lastname"),
                birthdate=_check_date(r.text("birthdate"), f"{here}/birthdate"),
                starter=r.bool("starter", required=False),
                order=r.int("order", required=False),
                seed=r.int("seed", required=False),
                byes=r.int("byes", required=False),
                dropped=dropped,
                creationdate=r.text("creationdate"),
                lastmodifieddate=r.text("lastmodifieddate"),
            )
        )
    return players


def _parse_pod(element: Element, path: str) -> Pod:
    _check_attrs(element, ("category", "stage"), path)
    r = _Reader(element, path, ("poddata", "subgroups", "rounds"))
    category = _int(_attr(element, "category", path), f"{path}@category")
    if category not in POD_DIVISIONS:
        raise TdfError(f"{path}@category", f"unknown pod category {category}")
    d = _Reader(
        r.child("poddata"),
        f"{path}/poddata",
        ("startingtable", "playoff3rd4th", "subgroupcount", "additionalrounds", "blockedranges"),
    )
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
    pod = StandingsPod(
        category=_int(_attr(element, "category", path), f"{path}@category"),
        type=_attr(element, "type", path),
    )
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
        cut=r.int("cut"),
        playercount=r.int("playercount"),
        paired3rd4th=r.bool("paired3rd4th"),
    )


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
