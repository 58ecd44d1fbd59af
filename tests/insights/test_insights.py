"""Archetypes, the metagame, the overlay's feed, a player's rounds and the QR pages, on
PostgreSQL through the services and pages."""

from datetime import datetime, timedelta

import pytest
from django.urls import reverse

from floor import services as floor
from insights import selectors, services
from league import services as league_services
from matches import services as match_services
from matches.services.standings import recompute_standings
from rules.errors import DomainError
from tests.factories import UserFactory, user_of

pytestmark = pytest.mark.django_db


def finish_round(round_, staff, outcome="a"):
    for match in round_.matches.filter(player_b__isnull=False):
        match_services.set_result(
            match=match, by_user=staff, payload={"games": [{"outcome": outcome}]}
        )


def test_lists_get_archetypes_from_the_rules_and_the_player_or_staff_correct_them(
    running_event, staff
):
    event, _, regs = running_event
    archetypes = selectors.event_archetypes(event)
    assert [archetypes[r.pk] for r in regs] == [
        "Pikachu",
        "Charizard ex",
        "Pikachu",
        "Charizard ex",
    ]

    services.save_archetype_rules(
        user=staff, league=event.season.league, text="Raichu -> Raichu Box"
    )
    assert selectors.event_archetypes(event)[regs[0].pk] == "Raichu Box"

    services.set_archetype(user=user_of(regs[3]), registration=regs[3], archetype="  Pika  Zard ")
    services.set_archetype(user=staff, registration=regs[1], archetype="Zard")
    archetypes = selectors.event_archetypes(event)
    assert archetypes[regs[3].pk] == "Pika Zard" and archetypes[regs[1].pk] == "Zard"
    with pytest.raises(DomainError) as exc:
        services.set_archetype(user=user_of(regs[0]), registration=regs[1], archetype="Mine")
    assert exc.value.code == "not-allowed"
    with pytest.raises(DomainError) as exc:
        services.save_archetype_rules(user=user_of(regs[0]), league=event.season.league, text="")
    assert exc.value.code == "not-allowed"


def test_the_metagame_shows_once_lists_are_public_with_shares_records_and_matchups(
    client, running_event, staff
):
    event, round_, _ = running_event
    finish_round(round_, staff)
    url = reverse("event-metagame", args=[event.pk])
    page = client.get(url).content.decode()
    assert "appears once the decklists are public" in page and "<svg" not in page

    client.force_login(staff)
    assert "Preview for staff" in client.get(url).content.decode()
    client.logout()

    league_services.publish_decklists(event=event, by_user=staff)
    meta, _ = selectors.event_metagame(event)
    assert [(s.archetype, s.players) for s in meta.shares] == [("Charizard ex", 2), ("Pikachu", 2)]
    total = sum(meta.records[name].played for name in meta.archetypes)
    mirrors = sum(meta.matchups[name][name].played for name in meta.archetypes)
    assert total + 2 * mirrors == 4  # two matches: each non-mirror counts for both sides
    page = client.get(url).content.decode()
    assert page.count('<svg class="chart"') == 2
    assert "Charizard ex" in page and "50%" in page  # the share, in the table beside the chart
    assert 'role="img"' in page and "<caption" in page


def test_the_overlay_feed_shows_players_records_score_clock_and_decks_only_once_public(
    client, running_event, staff
):
    event, round_, _ = running_event
    api = reverse("api:api-event-overlay", args=[event.pk])
    assert client.get(api).json()["players"] == []  # no feature match, no table asked

    services.set_feature_table(user=staff, event=event, table=1)
    data = client.get(api).json()
    match = round_.matches.get(table=1)
    assert data["featured"] and data["round"] == 1 and data["ends_at"]
    assert [p["name"] for p in data["players"]] == [
        match.player_a.player.name,
        match.player_b.player.name,
    ]
    assert [p["record"] for p in data["players"]] == ["0-0-0", "0-0-0"]
    assert data["players"][0]["archetype"] == "" and data["players"][0]["pokemon"] == []

    match_services.set_result(match=match, by_user=staff, payload={"games": [{"outcome": "a"}]})
    league_services.publish_decklists(event=event, by_user=staff)
    data = client.get(f"{api}?table=1").json()
    assert [p["games"] for p in data["players"]] == [1, 0]
    assert data["players"][0]["archetype"] in {"Pikachu", "Charizard ex"}
    assert {"count", "name"} <= set(data["players"][0]["pokemon"][0])
    assert client.get(f"{api}?table=x").status_code == 400

    page = client.get(reverse("event-overlay", args=[event.pk]) + "?table=1")
    html = page.content.decode()
    assert page.status_code == 200 and "overlay.js" in html and "<script>" not in html
    assert match.player_a.player.name in html


def test_the_overlay_clock_is_the_tables_and_stops_at_final(client, running_event, staff):
    event, round_, _ = running_event
    services.set_feature_table(user=staff, event=event, table=1)
    api = reverse("api:api-event-overlay", args=[event.pk])
    match = round_.matches.get(table=1)
    round_.refresh_from_db()
    floor.extend_time(match=match, by_user=staff, minutes=5, reason="long ruling")
    data = client.get(api).json()
    ends = data["ends_at"].replace("Z", "+00:00")
    assert datetime.fromisoformat(ends) == round_.ends_at + timedelta(minutes=5)
    assert (data["extra_minutes"], data["final"]) == (5, False)

    match_services.set_result(match=match, by_user=staff, payload={"games": [{"outcome": "a"}]})
    data = client.get(api).json()
    assert data["final"] is True
    html = client.get(reverse("event-overlay", args=[event.pk])).content.decode()
    assert 'data-final="1"' in html and ">Final</span>" in html


def test_the_overlay_of_a_draft_event_is_not_found(client, running_event):
    event, _, _ = running_event
    event.status = "draft"
    event.save()
    assert client.get(reverse("api:api-event-overlay", args=[event.pk])).status_code == 404
    assert client.get(reverse("event-overlay", args=[event.pk])).status_code == 404


def test_a_players_page_shows_their_place_round_by_round(client, running_event, staff):
    event, round_, _ = running_event
    finish_round(round_, staff)
    match_services.close_round(round_=round_, by_user=staff)
    recompute_standings(event_id=event.pk, publish_round=1)
    match = round_.matches.get(table=1)
    page = client.get(reverse("player-rounds", args=[event.pk, match.player_a_id])).content.decode()
    assert '<svg class="chart"' in page
    assert match.player_b.player.name in page and ">win<" in page
    assert "1-0-0" in page


def test_organisers_edit_the_archetype_rules_on_a_page(client, running_event, staff):
    event, _, _ = running_event
    url = reverse("archetype-rules", args=[event.season.league.slug])
    assert client.get(url).status_code == 302  # log in first
    client.force_login(UserFactory())
    assert client.get(url).status_code == 403
    client.force_login(staff)
    assert "Comfey -&gt; Lost Box" in client.get(url).content.decode()  # the defaults
    page = client.post(url, {"rules": "Pikachu -> Mouse\nnonsense"}, follow=True).content.decode()
    assert "Line 2" in page
    client.post(url, {"rules": "Pikachu -> Mouse"})
    assert "Mouse" in selectors.event_archetypes(event).values()


def test_a_players_code_opens_their_registration_card_for_staff_only(client, running_event, staff):
    event, _, regs = running_event
    client.force_login(user_of(regs[0]))
    page = client.get(reverse("my-code", args=[event.pk])).content.decode()
    card = reverse("registration-card", args=[event.pk, regs[0].pk])
    assert '<svg viewBox="0 0' in page and 'class="qr"' in page
    assert client.get(card).status_code == 403
    client.force_login(staff)
    page = client.get(card).content.decode()
    assert regs[0].player.name in page and "Deck check" in page


def test_the_poster_says_register_before_and_pairings_during(client, make_event, running_event):
    event, _, _ = running_event
    upcoming, _ = make_event(players=0, status="registration")
    assert "Register" in client.get(reverse("event-poster", args=[upcoming.pk])).content.decode()
    page = client.get(reverse("event-poster", args=[event.pk])).content.decode()
    assert "Pairings" in page and f"/events/{event.pk}/" in page and 'class="qr"' in page
