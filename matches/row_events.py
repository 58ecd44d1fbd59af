"""The event of a round or a match named in a URL or a report, kept in the process: one
recipe for the public pages (`public_pages`: the API's round), the own pages
(`own_pages`: the match page) and the report frame (`report_frame`).

A round never moves to another event, nor a match to another round, so an answer once
read stays true for the process's life (a deleted row's id is not used again by
PostgreSQL). A match's event is read with every match of its round at once: when a round
goes up, its players ask for their own matches at the same moment, each of the web
processes meets every match of the round, and one query a process and round (1,024 rows of
two numbers at a 2,048-player Swiss round) replaces one a process and match. Each map
keeps at most `limit` answers (then starts again). `clear()` forgets them (tests: a
flushed database numbers its rows from 1 again)."""

from __future__ import annotations

from collections.abc import Callable

from django.db.models import Subquery

from league.params import parse_id

from .models import Match, Round


class KeptEvents:
    """Row id -> event id, kept in the process. `load(pk)` reads the database once for a
    row not kept yet and may answer for more rows than the one asked for."""

    def __init__(self, load: Callable[[int], dict[int, int]], limit: int):
        self._load, self._limit, self._kept = load, limit, {}

    def __call__(self, raw) -> int | None:
        pk = parse_id(str(raw))
        if pk is None:
            return None
        if pk not in self._kept:
            found = self._load(pk)
            if pk not in found:
                return None
            if len(self._kept) + len(found) > self._limit:
                self._kept.clear()
            self._kept.update(found)
        return self._kept[pk]

    def clear(self) -> None:
        self._kept.clear()


def _round(pk: int) -> dict[int, int]:
    return dict(Round.objects.filter(pk=pk).values_list("pk", "event_id"))


def _matches_of_round(pk: int) -> dict[int, int]:
    round_of = Match.objects.filter(pk=pk).values("round_id")
    rows = Match.objects.filter(round_id=Subquery(round_of)).order_by()
    return dict(rows.values_list("pk", "round__event_id"))


round_event = KeptEvents(_round, 50_000)
match_event = KeptEvents(_matches_of_round, 200_000)


def clear() -> None:
    round_event.clear()
    match_event.clear()
