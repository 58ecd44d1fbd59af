"""What the organiser exports: an event as one JSON document (players, rounds, matches
with their games and sudden-death chains, drops, the standings after every round, once
finished the final results, and the event log of every change that is not play), and
a standings snapshot as CSV.

Facts about each player that apps above `matches` know (the archetype of their list:
`insights`, which `matches` may not import) come in through `register_player_facts`: each
app registers a function when it loads (`AppConfig.ready`), and the export adds what it
returns to the player's entry and final-results row."""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable

from django.utils.translation import pgettext, pgettext_lazy

from league.editions import event_edition
from league.models import Division, Event, Registration
from league.services import eventlog

from .models import Round, StandingsSnapshot
from .services.standings import final_standings

#: fn(event, registrations, *, all_lists) → {registration id: {field: value}}: more facts
#: for each player's entry. `all_lists`: the export is for staff who may read every list
#: (`league.permissions.can_view_all_decklists`); otherwise only what the event's decklist
#: phase has made public may be said of a list.
PlayerFacts = Callable[..., dict[int, dict]]
PLAYER_FACTS: list[PlayerFacts] = []


def register_player_facts(fn: PlayerFacts) -> None:
    """Add `fn`'s facts to every player of the export (once, however often it is called)."""
    if fn not in PLAYER_FACTS:
        PLAYER_FACTS.append(fn)


def _player_facts(event: Event, regs: Iterable[Registration], *, all_lists: bool) -> dict:
    facts: dict[int, dict] = {}
    for fn in PLAYER_FACTS:
        for pk, more in fn(event, regs, all_lists=all_lists).items():
            facts.setdefault(pk, {}).update(more)
    return facts


def export_event(event: Event, *, all_lists: bool = False) -> dict:
    """The event as one JSON document (staff only; full names). `all_lists`: the reader may
    read every list, so the registered facts may say what private lists hold."""
    regs = list(Registration.objects.filter(event=event).select_related("player").order_by("pk"))
    rounds = Round.objects.filter(event=event).prefetch_related("matches__games").order_by("number")
    snapshots = StandingsSnapshot.objects.filter(event=event).order_by("round_number", "version")
    facts = _player_facts(event, regs, all_lists=all_lists)
    return {
        "event": {
            "id": event.pk, "name": event.name, "format": event.format.key if event.format else None, "best_of": event.best_of,
            "status": event.status, "division_mode": event.division_mode,
            "sudden_death_prizes": event.sudden_death_prizes, "seed": event.seed,
            "days": event.days, "rule_edition": event_edition(event).edition.key,
        },
        "players": [
            {"registration": r.pk, "name": r.player.name, "player_id": r.player.player_id,
             "division": r.division, "status": r.status, "late_entry_round": r.late_entry_round,
             "dropped_after_round": r.dropped_after_round,
             "finished_on_day_one": r.finished_on_day_one, **facts.get(r.pk, {})}
            for r in regs
        ],
        "drops": {str(r.pk): r.dropped_after_round for r in regs if r.dropped_after_round},
        "rounds": [
            {
                "number": rd.number, "stage": rd.stage, "status": rd.status,
                "rematches": rd.rematches, "pair_downs": rd.pair_downs,
                "matches": [
                    {
                        "table": m.table, "division": m.division, "a": m.player_a_id, "b": m.player_b_id,
                        "status": m.status, "result": m.result or None,
                        "game_wins": [m.a_game_wins, m.b_game_wins], "at_time": m.ended_at_time,
                        "intentional_draw": m.intentional_draw,
                        "games": [
                            {"id": g.pk, "number": g.number, "sequence": g.sequence,
                             "replay_of": g.replay_of_id, "prizes": g.prizes, "outcome": g.outcome,
                             "reason": g.reason}
                            for g in sorted(m.games.all(), key=lambda g: (g.number, g.sequence))
                        ],
                    }
                    for m in sorted(rd.matches.all(), key=lambda m: (m.division, m.table))
                ],
            }
            for rd in rounds
        ],
        "standings": [
            {"round": s.round_number, "version": s.version, "published": s.published, "rows": s.rows}
            for s in snapshots
        ],
        # A finished event's published places (`services.final_standings`), else empty.
        "final_results": [
            {**row, **facts.get(row["registration"], {})} for row in final_standings(event)
        ],
        "log": eventlog.export_rows(event),
    }  # fmt: skip


def standings_input(export: dict) -> dict:
    """The export's Swiss results in the input form of `python -m rules.standings`."""
    matches = []
    for rd in export["rounds"]:
        if rd["stage"] != "swiss":
            continue
        for m in rd["matches"]:
            a, b = str(m["a"]), (str(m["b"]) if m["b"] else None)
            matches.append({"round": rd["number"], "a": a, "b": b, "result": m["result"]})
    first_round = {str(p["registration"]): p["late_entry_round"] for p in export["players"]
                   if p["late_entry_round"] and p["late_entry_round"] > 1}  # fmt: skip
    for reg, entered in first_round.items():
        matches += [{"round": r, "a": reg, "b": None, "result": "b"} for r in range(1, entered)]
    # `rules.standings` reads `late` as the round running when the player came in.
    late = {reg: entered - 1 for reg, entered in first_round.items()}
    players = [
        str(p["registration"])
        for p in export["players"]
        if p["status"] not in ("withdrawn", "waitlisted")
    ]
    return {
        "seed": export["event"]["seed"] or str(export["event"]["id"]),
        "players": players,
        "matches": matches,
        "dropped": [k for k in export["drops"]],
        "drop_round": export["drops"],
        "late": late,
    }


# The header row organisers read in their spreadsheet (the values below stay data).
STANDINGS_CSV_COLUMNS = (
    pgettext_lazy("standings CSV column", "rank"),
    pgettext_lazy("standings CSV column", "player"),
    pgettext_lazy("standings CSV column", "player id"),
    pgettext_lazy("standings CSV column", "division"),
    pgettext_lazy("standings CSV column", "record"),
    pgettext_lazy("standings CSV column", "points"),
    # Translators: OWP/OOWP: opponents' (opponents') win percentage, the TCG tiebreakers.
    pgettext_lazy("standings CSV column", "OWP %"),
    pgettext_lazy("standings CSV column", "OOWP %"),
    # Translators: a player who dropped (left the event).
    pgettext_lazy("standings CSV column", "dropped"),
)
DIVISION_NAMES = dict(Division.choices)


def _csv_text(value: str) -> str:
    """A text cell a spreadsheet will not read as a formula."""
    return f"'{value}" if value[:1] in ("=", "+", "-", "@", "\t", "\r") else value


def write_standings_csv(
    snapshot: StandingsSnapshot, out, *, rows: list[dict] | None = None
) -> None:
    """Write a standings snapshot (or `rows`, its rows as the reader may see them) as CSV to
    `out` (anything with `write`): UTF-8 with a byte-order mark, so spreadsheets read
    accents; names that look like formulas quoted."""
    out.write("\ufeff")
    writer = csv.writer(out)
    writer.writerow([str(column) for column in STANDINGS_CSV_COLUMNS])
    for row in snapshot.rows if rows is None else rows:
        division = row.get("division", "")
        writer.writerow(
            [
                row["rank"],
                _csv_text(row["player"]),
                row.get("player_id", ""),
                DIVISION_NAMES.get(division, division),
                row["record"],
                row["points"],
                f"{float(row.get('owp') or 0) * 100:.2f}",
                f"{float(row.get('oowp') or 0) * 100:.2f}",
                pgettext("standings CSV, dropped", "yes")
                if row.get("dropped")
                else pgettext("standings CSV, dropped", "no"),
            ]
        )
