"""Saves posted by the laptop are stored, then applied by the worker in the order they
arrived, whatever order the worker's tasks run in (`tom.services.saves`)."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from matches.models import Round
from tests.factories import EventFactory, LeagueFactory, SeasonFactory, UserFactory
from tom import services, tdf
from tom.models import TomSave, TomUpload

TDF_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tom-exports" / "tdf"
pytestmark = pytest.mark.django_db


def test_saves_of_an_event_are_applied_in_the_order_they_arrived():
    organiser = UserFactory(username="to")
    league = LeagueFactory(organisers=[organiser])
    season = SeasonFactory(
        league=league, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2030, 12, 31)
    )
    event = EventFactory(season=season)
    final = tdf.parse((TDF_DIR / "ciphermaniac__tom-184-challenge.tdf").read_bytes())
    first, second = (
        tdf.write(tdf.truncated(final, rounds=n)).encode() for n in (1, 2)
    )  # rounds 1, then 1 and 2
    saves = [
        services.receive_save(
            event=event, data=data, by_user=organiser, source=TomUpload.Source.API
        )
        for data in (first, second)
    ]
    assert [s.status for s in saves] == ["pending", "pending"]
    # The second save's task runs first: the first save is applied before it.
    assert services.apply_save(save_id=saves[1].pk) == "applied"
    assert services.apply_save(save_id=saves[0].pk) == "applied"  # nothing left to do
    applied = TomSave.objects.filter(event=event).order_by("finished_at", "pk")
    assert [s.pk for s in applied] == [s.pk for s in saves]
    assert set(Round.objects.filter(event=event).values_list("number", flat=True)) == {1, 2}
    assert TomUpload.objects.filter(event=event).count() == 2
    # The same file posted again is answered from what is stored.
    again = services.receive_save(
        event=event, data=second, by_user=organiser, source=TomUpload.Source.API
    )
    assert again.status == "duplicate"
