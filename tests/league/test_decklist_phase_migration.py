"""The data migration from `Event.decklists_published` to `Event.decklists_open`: published
lists stay open ("now"), the others stay private ("never"); and back again."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

# The decks app at its newest: its tables keep their newest columns while league goes back
# and forth, so the historical Format must know them too.
DECKS = ("decks", "0003_format_rules")
BEFORE = [("league", "0006_event_kind_board_game"), DECKS]
AFTER = [("league", "0007_staff_roles_and_decklist_phases"), DECKS]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor.loader.project_state(targets).apps


@pytest.mark.django_db(transaction=True)
def test_published_lists_become_the_now_phase_and_the_others_never():
    latest = MigrationExecutor(connection).loader.graph.leaf_nodes()
    try:
        apps = migrate(BEFORE)
        League, Season = apps.get_model("league", "League"), apps.get_model("league", "Season")
        Event, Format = apps.get_model("league", "Event"), apps.get_model("decks", "Format")
        season = Season.objects.create(
            league=League.objects.create(name="L", slug="l"), name="S",
            starts_on="2025-01-01", ends_on="2025-12-31",
        )  # fmt: skip
        fmt = Format.objects.create(key="phase-test", name="Phase test")
        for slug, published in (("open", True), ("closed", False)):
            Event.objects.create(
                season=season, name=slug, slug=slug, format=fmt, decklists_published=published
            )

        apps = migrate(AFTER)
        Event = apps.get_model("league", "Event")
        phases = dict(Event.objects.values_list("slug", "decklists_open"))
        assert phases == {"open": "now", "closed": "never"}

        apps = migrate(BEFORE)
        Event = apps.get_model("league", "Event")
        assert dict(Event.objects.values_list("slug", "decklists_published")) == {
            "open": True,
            "closed": False,
        }
    finally:
        migrate(latest)
