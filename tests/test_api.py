"""The REST API: permissions, deck checks, the event flow, and the OpenAPI schema."""

import pytest
from rest_framework.test import APIClient

from league.models import Registration
from matches import services
from tests.factories import EventFactory, PlayerFactory, sample_cards, sample_deck_text, user_of

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_check_only_endpoint_returns_the_verdict_and_stores_nothing():
    sample_cards()
    EventFactory()  # creates the standard format
    response = client_for().post(
        "/api/decks/check/",
        {"format": "standard", "decklist_text": "4 Pikachu DM1 1\n5 Raichu\nfour Pikachu"},
        format="json",
    )
    assert response.status_code == 200
    body = response.json()
    assert body["legal"] is False
    codes = {e["code"]: e["lines"] for e in body["errors"]}
    assert codes["parse-error"] == [3]
    assert codes["too-many-copies"] == [2]
    assert "deck-size" in codes
    assert not Registration.objects.exists()


def test_submitting_a_list_through_the_api(make_event):
    sample_cards()
    _, (reg, other) = make_event(players=2)
    url = f"/api/registrations/{reg.pk}/decks/"
    created = client_for(user_of(reg)).post(
        url, {"decklist_text": sample_deck_text()}, format="json"
    )
    assert created.status_code == 201 and created.json()["legal"] is True
    assert client_for(user_of(reg)).get(url).status_code == 200
    assert client_for(user_of(other)).get(url).status_code == 403
    assert client_for().get(url).status_code == 403
    refused = client_for(user_of(other)).post(
        url, {"decklist_text": sample_deck_text()}, format="json"
    )
    assert refused.status_code == 403 and refused.json()["code"] == "not-allowed"


def test_register_via_api_and_duplicate_is_a_clear_error():
    event = EventFactory()
    player = PlayerFactory()
    api = client_for(player.user)
    assert api.post(f"/api/events/{event.pk}/register/").status_code == 201
    again = api.post(f"/api/events/{event.pk}/register/")
    assert again.status_code == 400 and again.json()["code"] == "already-registered"


def test_pairing_is_staff_only_and_unpublished_rounds_stay_hidden(make_event, staff):
    event, (reg, *_) = make_event(players=4)
    assert (
        client_for(user_of(reg)).post(f"/api/events/{event.pk}/pair-next-round/").status_code == 403
    )
    created = client_for(staff).post(f"/api/events/{event.pk}/pair-next-round/")
    assert created.status_code == 201
    round_id = created.json()["id"]
    second = client_for(staff).post(f"/api/events/{event.pk}/pair-next-round/")
    assert second.status_code == 409 and second.json()["code"] == "round-open"
    assert client_for().get(f"/api/rounds/?event={event.pk}").json() == []
    assert client_for(user_of(reg)).get(f"/api/rounds/{round_id}/").status_code == 404
    assert client_for(staff).post(f"/api/rounds/{round_id}/publish/").status_code == 200
    public = client_for().get(f"/api/rounds/?event={event.pk}").json()
    assert len(public) == 1 and len(public[0]["matches"]) == 2


def test_players_report_their_own_match_through_the_api(make_event, staff):
    event, _ = make_event(players=2)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    match = round_.matches.get()
    payload = {"games": [{"outcome": "both_won"}, {"outcome": "a"}]}
    url = f"/api/matches/{match.pk}/report/"
    assert (
        client_for(user_of(match.player_a)).post(url, payload, format="json").json()["status"]
        == "reported"
    )
    done = client_for(user_of(match.player_b)).post(url, payload, format="json").json()
    assert done["status"] == "final" and done["result"] == "a"
    assert [(g["number"], g["sequence"], g["prizes"]) for g in done["games"]] == [
        (1, 0, 6),
        (1, 1, 1),
    ]
    bad = client_for(user_of(match.player_a)).post(
        url, {"games": [{"outcome": "nope"}]}, format="json"
    )
    assert bad.status_code == 400
    history = client_for(staff).get(f"/api/matches/{match.pk}/").json()["changes"]
    assert history[0]["source"] == "players"
    assert (
        "changes" not in client_for(user_of(match.player_a)).get(f"/api/matches/{match.pk}/").json()
    )


def test_a_report_s_answer_is_the_match_serializer_s(make_event, staff):
    """The report answers with `match_answer` (built from what it wrote), which must be
    what the schema's `MatchSerializer` says, byte for byte: a first report, a sudden-death
    replay confirmed, a minor's public name."""
    import datetime as dt

    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from matches.api import MatchSerializer, match_answer
    from matches.models import Match

    event, _ = make_event(players=2)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.publish_round(round_=round_, by_user=staff)
    match = round_.matches.get()
    minor = match.player_a.player
    minor.birth_date = dt.date.today() - dt.timedelta(days=365 * 12)
    minor.save()
    payload = {"games": [{"outcome": "both_won"}, {"outcome": "a"}]}
    url = f"/api/matches/{match.pk}/report/"

    def stored():
        fresh = (
            Match.objects.select_related("round", "player_a__player", "player_b__player")
            .prefetch_related("games")
            .get(pk=match.pk)
        )
        assert match_answer(fresh) == MatchSerializer(fresh).data
        return client_for().get(f"/api/matches/{match.pk}/").content

    def games_read(post):
        """`post`'s answer, and whether answering it read games from the database."""
        with CaptureQueriesContext(connection) as ctx:
            answer = post()
        return answer, any('FROM "matches_game"' in q["sql"] for q in ctx.captured_queries)

    first, read = games_read(
        lambda: client_for(user_of(match.player_a)).post(url, payload, format="json")
    )
    assert first.json()["games"] == [] and first.content == stored()
    # Games are written only with a result: a first report has none to read.
    assert not read
    done, read = games_read(
        lambda: client_for(user_of(match.player_b)).post(url, payload, format="json")
    )
    assert len(done.json()["games"]) == 2 and done.json()["games"][1]["replay_of"]
    assert not read  # the games it wrote, kept on the match (`services.results`)
    assert done.content == stored()
    assert done.json()["player_a_name"] != minor.name


def test_standings_are_public_only_once_published(
    make_event, staff, django_capture_on_commit_callbacks
):
    event, _ = make_event(players=4)
    round_ = services.pair_next_round(event=event, by_user=staff)
    with django_capture_on_commit_callbacks(execute=True):
        for m in round_.matches.all():
            services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
    assert client_for().get(f"/api/events/{event.pk}/standings/").json()["rows"] == []
    signed_in = APIClient()  # staff signed in (a session): their own answer, live standings
    signed_in.force_login(staff)
    assert len(signed_in.get(f"/api/events/{event.pk}/standings/").json()["rows"]) == 4
    with django_capture_on_commit_callbacks(execute=True):
        services.close_round(round_=round_, by_user=staff)
    public = client_for().get(f"/api/events/{event.pk}/standings/").json()
    assert public["published"] is True and public["round"] == 1 and len(public["rows"]) == 4


def test_openapi_schema_is_generated_without_warnings():
    from io import StringIO

    from django.core.management import call_command

    out, err = StringIO(), StringIO()
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=out, stderr=err)
    assert "/api/matches/{id}/report/" in out.getvalue()


def test_publishing_decklists_is_staff_only_and_opens_them_to_everyone(make_event, staff):
    sample_cards()
    event, (reg, other) = make_event(players=2)
    client_for(user_of(reg)).post(
        f"/api/registrations/{reg.pk}/decks/", {"decklist_text": sample_deck_text()}, format="json"
    )
    url = f"/api/events/{event.pk}/publish-decklists/"
    assert client_for(user_of(other)).post(url, {}, format="json").status_code == 403
    assert client_for(staff).post(url, {}, format="json").json()["decklists_published"] is True
    assert client_for().get(f"/api/registrations/{reg.pk}/decks/").status_code == 200
