"""A TOM save uploaded to a running event: what differs is said in words, once, with what
the organiser can do (issue 26, item 5)."""

from __future__ import annotations

import datetime as dt
import re
from html import unescape
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client

from league.models import Event, Registration
from matches import services as match_services
from matches.models import Match, Round
from tests.factories import (
    EventFactory,
    LeagueFactory,
    RegistrationFactory,
    SeasonFactory,
    UserFactory,
)
from tom.models import TomSave

TDF_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tom-exports" / "tdf"
PODS = TDF_DIR / "litian80__2026-cmwc-jan-cup.tdf"  # Juniors and Seniors together; Masters
pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="to")


@pytest.fixture
def running(organiser):
    league = LeagueFactory(organisers=[organiser])
    season = SeasonFactory(
        league=league, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2030, 12, 31)
    )
    return EventFactory(
        season=season,
        name="Saturday Cup",
        status=Event.Status.RUNNING,
        division_mode=Event.DivisionMode.COMBINED,
    )


def upload(client, event, raw: bytes):
    return client.post(
        f"/events/{event.pk}/tom/upload/",
        {"save": SimpleUploadedFile("cup.tdf", raw)},
        follow=True,
    )


def words(html: str) -> str:
    return unescape(re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)))


def test_a_running_event_with_no_round_paired_takes_a_save_that_pairs_divisions_apart(
    organiser, running
):
    """The dead end of issue 26: "division_mode cannot change once the event has started".
    How divisions are paired matters from round 1 on; before it, the save decides."""
    client = Client()
    client.force_login(organiser)
    response = upload(client, running, PODS.read_bytes())
    assert "TOM save imported" in response.content.decode()
    running.refresh_from_db()
    assert running.division_mode == Event.DivisionMode.SEPARATE
    assert running.status == Event.Status.FINISHED


def test_a_save_refused_for_a_running_event_says_what_differs_in_words(organiser, running):
    for _ in range(4):
        RegistrationFactory(event=running, status=Registration.Status.CHECKED_IN)
    match_services.pair_next_round(event=running, by_user=organiser)
    client = Client()
    client.force_login(organiser)
    response = upload(client, running, PODS.read_bytes())
    assert response.redirect_chain[-1][0] == f"/events/{running.pk}/tom/"
    page = words(response.content.decode())
    detail = (
        "Saturday Cup already has 1 round paired here, on the site, and none from TOM; this "
        "save has TOM's own pairings (the divisions in 2 groups (Juniors and Seniors "
        "together; Masters))."
    )
    assert detail in page
    assert page.count(detail) == 1  # said once
    assert "nothing was changed" in page
    for internal in ("division_mode", "tournament/", "tdf-", "pod(s)"):
        assert internal not in page
    # What the organiser can do: import the save as a new event (or change the settings).
    assert "Import it as a new event" in page and "Event settings" in page
    assert Round.objects.filter(event=running).count() == 1  # nothing changed
    refused = TomSave.objects.get(event=running)
    assert refused.status == TomSave.Status.REFUSED and refused.outcome["fix"] == "new-event"
    done = client.post(f"/events/{running.pk}/tom/saves/{refused.pk}/new-event/", follow=True)
    created = Event.objects.exclude(pk=running.pk).get()
    assert done.redirect_chain[-1][0] == f"/events/{created.pk}/"
    assert created.season_id == running.season_id
    assert created.status == Event.Status.FINISHED
    assert Match.objects.filter(round__event=created).exists()
    assert Round.objects.filter(event=running).count() == 1
    # Decided: the TOM page no longer offers it.
    again = words(client.get(f"/events/{running.pk}/tom/").content.decode())
    assert "Import it as a new event" not in again


def test_the_settings_page_says_which_setting_is_fixed_in_words_once(organiser, running):
    RegistrationFactory(event=running, status=Registration.Status.CHECKED_IN)
    RegistrationFactory(event=running, status=Registration.Status.CHECKED_IN)
    match_services.pair_next_round(event=running, by_user=organiser)
    client = Client()
    client.force_login(organiser)
    form = client.get(f"/events/{running.pk}/edit/").context["form"]
    data = {k: v for k, v in form.initial.items() if v is not None}
    data["division_mode"] = Event.DivisionMode.SEPARATE
    data["format"] = running.format.pk
    data["starts_at"] = running.starts_at.strftime("%Y-%m-%d %H:%M")
    page = words(client.post(f"/events/{running.pk}/edit/", data).content.decode())
    sentence = (
        "How the divisions are paired (together or separately) cannot change once the event "
        "has started."
    )
    assert page.count(sentence) == 1, page
    assert "division_mode" not in page
