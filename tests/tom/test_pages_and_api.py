"""The organiser's side: the event page's TOM box, uploading a save, downloading the
event as a TOM file, and the laptop script's token-authenticated endpoint."""

import datetime as dt
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from rest_framework.test import APIClient

from league import services as league_services
from league.models import Event, Registration
from matches.models import Match, Round
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, SeasonFactory, UserFactory
from tom import services, tdf
from tom.models import TomUpload

TDF_DIR = Path(__file__).resolve().parents[2].parent / "shared" / "data" / "tom-exports" / "tdf"
pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser():
    return UserFactory(username="to")


@pytest.fixture
def event(organiser):
    league = LeagueFactory(organisers=[organiser])
    season = SeasonFactory(
        league=league, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2030, 12, 31)
    )
    return EventFactory(season=season, name="Tuesday Challenge")


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_staff_upload_a_save_on_the_event_page_and_download_it(organiser, event):
    # Registered on the site before the event: one of TOM's players, and one who did not come.
    raw = (TDF_DIR / "tanaleague__challenge-2025-09-25.tdf").read_bytes()
    t = tdf.parse(raw)
    known = PlayerFactory(player_id=t.players[0].userid, birth_date=dt.date(1990, 2, 27))
    absent = PlayerFactory(player_id="9999999")
    league_services.register(event=event, player=known)
    league_services.register(event=event, player=absent)
    client = logged_in(organiser)
    page = client.get(f"/events/{event.pk}/")
    assert b"Download TOM file" in page.content and b"Upload a TOM save" in page.content
    response = client.post(
        f"/events/{event.pk}/tom/upload/",
        {"save": SimpleUploadedFile("challenge.tdf", raw)},
        follow=True,
    )
    assert response.status_code == 200
    assert b"TOM save imported" in response.content
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert (
        Registration.objects.get(event=event, player=absent).status == Registration.Status.WITHDRAWN
    )
    assert b"agree with TOM" in response.content
    download = client.get(f"/events/{event.pk}/tom/save.tdf")
    assert download.status_code == 200
    assert download["Content-Disposition"] == f'attachment; filename="{t.data.id}.tdf"'
    assert tdf.parse(download.content) == t
    tom_page = client.get(f"/events/{event.pk}/tom/")
    assert b"challenge.tdf" in tom_page.content


def test_a_bad_upload_changes_nothing_and_says_why(organiser, event):
    client = logged_in(organiser)
    raw = (TDF_DIR / "tanaleague__challenge-2025-09-25.tdf").read_bytes()
    response = client.post(
        f"/events/{event.pk}/tom/upload/",
        {"save": SimpleUploadedFile("x.tdf", raw[:5000])},
        follow=True,
    )
    assert b"Nothing was changed" in response.content and b"line" in response.content
    assert not Round.objects.filter(event=event).exists() and not TomUpload.objects.exists()


def test_standings_differences_are_shown_to_staff_only(organiser, event):
    raw = (TDF_DIR / "opentourney__round-rock-summer-2026-06-20.tdf").read_bytes()
    services.import_save(data=raw, by_user=organiser, event=event)
    page = logged_in(organiser).get(f"/events/{event.pk}/")
    assert b"Our standings differ from TOM" in page.content
    player = UserFactory(username="someone")
    assert b"Our standings differ" not in logged_in(player).get(f"/events/{event.pk}/").content
    for url in (f"/events/{event.pk}/tom/", f"/events/{event.pk}/tom/save.tdf"):
        assert logged_in(player).get(url).status_code == 403


def posted(api, response, capture) -> dict:
    """A save the endpoint accepted (202, stored), once the worker has applied it (the
    outbox task runs when the request's transaction commits): its status as the laptop
    script reads it."""
    assert response.status_code == 202, response.content
    accepted = response.json()
    assert accepted["status"] == "pending" and accepted["status_url"].endswith(
        f"/api/tom/saves/{accepted['id']}/"
    )
    answer = api.get(accepted["status_url"])
    assert answer.status_code == 200
    return answer.json()


def test_the_laptop_script_posts_saves_with_its_token(
    organiser, event, django_capture_on_commit_callbacks
):
    token = services.new_upload_token(event=event, by_user=organiser)
    final = tdf.parse((TDF_DIR / "ciphermaniac__tom-184-challenge.tdf").read_bytes())
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    url = f"/api/tom/events/{event.pk}/saves/"
    # TOM pairs round 1: players with accounts see their table.
    round1 = tdf.write(tdf.truncated(final, rounds=1, last_unplayed=True)).encode()
    with django_capture_on_commit_callbacks(execute=True) as capture:
        response = api.post(
            url, data=round1, content_type="application/octet-stream", HTTP_X_FILENAME="r1.tdf"
        )
    body = posted(api, response, capture)
    assert (
        body["status"] == "applied"
        and body["duplicate"] is False
        and body["summary"]["matches_paired"] == 12
    )
    assert Round.objects.filter(event=event).count() == 1
    assert Round.objects.get(event=event, number=1).status == Round.Status.PUBLISHED
    # The script sends the same file again (TOM saved without a change): nothing happens.
    again = api.post(url, data=round1, content_type="application/octet-stream")
    assert again.status_code == 200 and again.json()["duplicate"] is True
    # Results come in, then the finished event.
    full = (TDF_DIR / "ciphermaniac__tom-184-challenge.tdf").read_bytes()
    with django_capture_on_commit_callbacks(execute=True) as capture:
        response = api.post(url, data=full, content_type="application/xml")
    assert posted(api, response, capture)["status"] == "applied"
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    assert services.export_save(event=event) == final
    assert TomUpload.objects.filter(event=event, source="api").count() == 2


def test_the_token_is_for_its_event_only_and_errors_have_codes(organiser, event):
    token = services.new_upload_token(event=event, by_user=organiser)
    other = EventFactory(season=event.season)
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    response = api.post(
        f"/api/tom/events/{other.pk}/saves/", data=b"x", content_type="application/xml"
    )
    assert response.status_code == 403 and response.json()["code"] == "not-allowed"
    response = api.post(
        f"/api/tom/events/{event.pk}/saves/", data=b"<html/>", content_type="application/xml"
    )
    assert response.status_code == 400 and response.json()["code"] == "tdf-invalid"
    assert "html" in response.json()["detail"]
    bad = APIClient()
    bad.credentials(HTTP_AUTHORIZATION="Bearer nope")
    assert (
        bad.post(
            f"/api/tom/events/{event.pk}/saves/", data=b"", content_type="application/xml"
        ).status_code
        == 401
    )
    assert APIClient().post(f"/api/tom/events/{event.pk}/saves/").status_code in (401, 403)
    # A new token replaces the old one.
    services.new_upload_token(event=event, by_user=organiser)
    response = api.post(
        f"/api/tom/events/{event.pk}/saves/", data=b"x", content_type="application/xml"
    )
    assert response.status_code == 401


def test_staff_can_post_a_save_as_a_multipart_file(
    organiser, event, django_capture_on_commit_callbacks
):
    api = APIClient()
    api.force_authenticate(organiser)
    raw = (TDF_DIR / "ciphermaniac-test__cup-finalized.tdf").read_bytes()
    with django_capture_on_commit_callbacks(execute=True) as capture:
        response = api.post(
            f"/api/tom/events/{event.pk}/saves/",
            {"save": SimpleUploadedFile("cup.tdf", raw)},
            format="multipart",
        )
    body = posted(api, response, capture)
    assert body["status"] == "applied" and body["standings_agree"] is True
    assert Match.objects.filter(round__event=event).count() == 9


@pytest.mark.django_db(transaction=True)
def test_the_laptop_script_against_a_live_server(live_server, tmp_path, capsys):
    import importlib.util

    spec = importlib.util.spec_from_file_location(
        "tom_push", Path(__file__).resolve().parents[2] / "scripts" / "tom_push.py"
    )
    tom_push = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tom_push)
    organiser = UserFactory(username="laptop-to")
    league = LeagueFactory(organisers=[organiser])
    season = SeasonFactory(
        league=league, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2030, 12, 31)
    )
    event = EventFactory(season=season)
    token = services.new_upload_token(event=event, by_user=organiser)
    folder = tmp_path / "TOM"
    folder.mkdir()
    (folder / "26-09-000123.tdf").write_bytes(
        (TDF_DIR / "ciphermaniac-test__cup-finalized.tdf").read_bytes()
    )
    url = f"{live_server.url}/api/tom/events/{event.pk}/saves/"
    assert tom_push.main([str(folder), "--url", url, "--token", token, "--once"]) == 0
    assert "26-09-000123.tdf" in capsys.readouterr().out
    assert Match.objects.filter(round__event=event).count() == 9
    assert tom_push.main([str(folder), "--url", url, "--token", token, "--once"]) == 0
    assert "already there" in capsys.readouterr().out
    assert tom_push.main([str(folder), "--url", url, "--token", "wrong", "--once"]) == 2


@pytest.mark.django_db(transaction=True)
def test_the_same_save_posted_twice_at_once_is_applied_once():
    from tests.matches.test_concurrency import run_together

    organiser = UserFactory(username="race-to")
    league = LeagueFactory(organisers=[organiser])
    season = SeasonFactory(
        league=league, starts_on=dt.date(2020, 1, 1), ends_on=dt.date(2030, 12, 31)
    )
    event = EventFactory(season=season)
    raw = (TDF_DIR / "ciphermaniac-test__cup-finalized.tdf").read_bytes()
    outcomes = run_together(
        lambda: services.import_save(data=raw, by_user=organiser, event=event),
        lambda: services.import_save(data=raw, by_user=organiser, event=event),
    )
    assert [kind for kind, _ in outcomes] == ["ok", "ok"]
    assert sorted(result.duplicate for _, result in outcomes) == [False, True]
    assert TomUpload.objects.filter(event=event).count() == 1
    assert Match.objects.filter(round__event=event).count() == 9
