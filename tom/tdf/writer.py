"""Writing a TOM save: `write(tournament)` gives the text TOM writes (tab indentation,
TOM's element order and layout quirks, its entity escapes), and `truncated`, a save cut
after a number of rounds (for tests and for staged uploads)."""

from __future__ import annotations

from dataclasses import replace

from .model import (
    SINGLE_OUTCOMES,
    UNPLAYED,
    Pod,
    Tournament,
)


def _escape(text: str) -> str:
    return (
        text.replace("&", "&amp;")
        .replace("<", "&lt;")
        .replace(">", "&gt;")
        .replace('"', "&quot;")
        .replace("'", "&apos;")
    )


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
