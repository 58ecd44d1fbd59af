"""The event's structure: how many Swiss rounds it plays and how large its top cut is."""

from __future__ import annotations

from league.models import Event, Registration
from rules.scoring import structure_for, table_from_rows

from .common import ACTIVE


def event_structure(event: Event) -> tuple[int, int]:
    """(Swiss rounds, top cut size) for the event: its overrides, else the season's table by
    attendance."""
    attendance = Registration.objects.filter(
        event=event, status__in=(*ACTIVE, Registration.Status.DROPPED)
    ).count()
    table = table_from_rows(event.season.structure_table)
    if attendance < table[0].min_players:
        rounds, cut = max(1, min(3, attendance - 1)), 0  # below the table: a short league night
    else:
        rounds, cut = structure_for(attendance, table)
    if event.swiss_rounds:
        rounds = event.swiss_rounds
    if event.top_cut is not None:
        cut = event.top_cut
    return rounds, cut
