"""What the import, the export and the comparison share: TOM's codes in the site's words,
the save as JSON (`TomEvent.save_data`), reading a save, TOM's divisions, and where TOM's
rounds fall in ours (see `tom.services` for the numbering)."""

from __future__ import annotations

import dataclasses
from datetime import date

from decks.findings_text import word
from league.models import Season
from matches.models import Round
from rules import divisions as age
from rules.errors import DomainError
from rules.i18n import Text, gettext_noop, say, sentences, verbatim
from rules.scoring import structure_for, table_from_rows

from .. import tdf

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


def with_text(exc: DomainError, text: Text) -> DomainError:
    """`exc` keeping `text` (a `rules.i18n.Text`; its message is `text` in the active
    language) as `exc.text`: a refusal the worker stores with a save is worded again in the
    organiser's language when shown (`TomSave.worded_detail`)."""
    exc.text = text
    return exc


def _at(element: str, message: Text | str) -> Text:
    return sentences(
        verbatim(f"{element}:"), message if isinstance(message, Text) else verbatim(message)
    )


def invalid(element: str, message: Text | str) -> DomainError:
    text = _at(element, message)
    return with_text(DomainError("tdf-invalid", word(text)), text)


def contradicts(element: str, message: Text | str) -> DomainError:
    text = _at(element, message)
    return with_text(DomainError("tdf-contradicts", word(text), status=409), text)


# --- the save as JSON (TomEvent.save_data) --------------------------------------------


class SaveDiffers(DomainError):
    """The save and the event differ in a way the organiser can resolve: the message says
    how, in words; `fix` names the action the TOM page offers ("new-event": import the
    save as a new event of the same season)."""

    def __init__(self, message: Text, *, fix: str = ""):
        super().__init__("tdf-differs", word(message), status=409)
        self.fix, self.text = fix, message


#: How TOM pairs a pod's players, in words.
POD_WORDS = {
    tdf.JUNIORS: gettext_noop("Juniors"),
    tdf.SENIORS: gettext_noop("Seniors"),
    tdf.MASTERS: gettext_noop("Masters"),
    tdf.JUNIORS_SENIORS: gettext_noop("Juniors and Seniors together"),
    tdf.ALL_AGES: gettext_noop("all divisions together"),
}


def _pod_words(category: str) -> Text:
    if category in POD_WORDS:
        return say(POD_WORDS[category])
    return say(gettext_noop("pod %(category)s"), category=category)


def pairing_words(t: tdf.Tournament) -> Text:
    """How the save pairs its players: "all divisions together" or "the divisions in 2
    groups (Juniors and Seniors together; Masters)"."""
    if len(t.pods) == 1:
        return say(gettext_noop("all divisions together"))
    pods = Text("", parts=tuple(_pod_words(p.category) for p in t.pods), joiner="; ")
    return say(
        gettext_noop("the divisions in %(count)s groups (%(pods)s)"), count=len(t.pods), pods=pods
    )


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
        **{
            **d,
            "data": tdf.EventData(**data),
            "players": players,
            "pods": pods,
            "standings": standings,
            "finalsoptions": [tdf.CategoryCut(**c) for c in d["finalsoptions"]],
        }
    )


# --- reading a save ---------------------------------------------------------------------


def read_save(data: bytes) -> tdf.Tournament:
    """Parse a save, turning `tdf.TdfError` into `tdf-invalid`."""
    if len(data) > MAX_SAVE_BYTES:
        raise invalid(
            "file",
            say(
                gettext_noop("the file is larger than %(size)s MB"),
                size=MAX_SAVE_BYTES // 1024 // 1024,
            ),
        )
    try:
        return tdf.parse(data)
    except tdf.TdfError as exc:
        raise invalid(exc.element, exc.message) from None


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


def swiss_rounds_of(pod: tdf.Pod) -> list[tdf.Round]:
    return [r for r in pod.rounds if not r.is_top_cut]


def cut_rounds_of(pod: tdf.Pod) -> list[tdf.Round]:
    return [r for r in pod.rounds if r.is_top_cut]


def finalised(t: tdf.Tournament) -> bool:
    return t.standings is not None


def cut_offset_of(t: tdf.Tournament, season: Season, known: int | None) -> int:
    """Our number of the round before TOM's first top-cut round (kept once rounds exist)."""
    if known is not None:
        return known
    table = table_from_rows(season.structure_table)
    offset = 0
    for pod in t.pods:
        seen = len(swiss_rounds_of(pod))
        if finalised(t) or cut_rounds_of(pod) or len(pod.players) < table[0].min_players:
            offset = max(offset, seen)
        else:  # this pod is still in Swiss: expect the rounds its attendance gives
            offset = max(offset, seen, structure_for(len(pod.players), table)[0])
    return offset


def site_number(pod: tdf.Pod, r: tdf.Round, offset: int) -> int:
    return r.number if not r.is_top_cut else offset + r.number - len(swiss_rounds_of(pod))


def tom_number(pod_swiss_rounds: int, site_round: int, stage: str, offset: int) -> int:
    return site_round if stage == Round.Stage.SWISS else pod_swiss_rounds + site_round - offset
