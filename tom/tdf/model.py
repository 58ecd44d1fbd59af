"""The TOM save as data: the outcome and pod codes, `TdfError`, the dataclasses a save
is read into (`Tournament` and its parts), and TOM's date and timestamp formats. Plain
Python, no Django."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import date, datetime

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
