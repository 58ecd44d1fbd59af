"""A Regional's round (2,048 players, 1,024 tables): the pages people open at once take a
fixed number of queries, the public lists come from the cache once built, and the
organiser's grid and dashboard stay bounded. (Speed is measured in
benchmarks/bench_load.py, not here.)"""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from league.models import Registration
from matches.models import Match, Round
from matches.simulation import create_players

PLAYERS = 2048


@pytest.fixture
def regional(event, organiser):
    people = create_players(PLAYERS, prefix="reg", rng=random.Random(1))
    regs = Registration.objects.bulk_create(
        [Registration(event=event, player=p, status=Registration.Status.CHECKED_IN,
                      division="masters") for p in people]
    )  # fmt: skip
    round_ = Round.objects.create(event=event, number=1, status=Round.Status.PUBLISHED, seed="r")
    Match.objects.bulk_create(
        Match(round=round_, table=t, player_a=regs[2 * t - 2], player_b=regs[2 * t - 1],
              status=Match.Status.DISPUTED if t % 97 == 0 else Match.Status.PENDING)
        for t in range(1, PLAYERS // 2 + 1)
    )  # fmt: skip
    return event, regs


def queries(client, url) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content.decode()


def test_the_pairings_of_2048_players_take_few_queries_and_then_come_from_the_cache(
    client, regional
):
    event, regs = regional
    client.force_login(regs[5].player.user)
    url = reverse("round-pairings", args=[event.pk, 1]) + "?by=name"
    # Built once, as an anonymous visitor sees it (the event, the round, the matches with
    # their players, the points before the round, the round numbers): the same for every
    # viewer, so the signed-in player's session and account are not read.
    first, page = queries(client, url)
    assert first == 5
    assert page.count("<tr data-p=") == PLAYERS
    again, _ = queries(client, url)
    assert again == 0  # the whole page from the cache (matches.public_pages)
    # "Find my table" is the player's own page, answered per request.
    found, page = queries(client, url + f"&find={regs[5].player.player_id}")
    assert found == 9 and page.count("<tr data-p=") == 1  # the list, for one player


def test_the_results_grid_and_dashboard_of_2048_players_take_few_queries(
    client, regional, organiser
):
    event, _ = regional
    client.force_login(organiser)
    # Once first: the signed-in user, their staff roles and the rule editions are then read
    # from the cache, as on every request but a phone's first.
    client.get(reverse("round-results", args=[event.pk, 1]))
    grid, page = queries(client, reverse("round-results", args=[event.pk, 1]))
    assert grid <= 10
    assert page.count('<tr id="match-') == 200
    rows = page[page.index('<tr id="match-') :]
    assert rows.index('class="disputed"') < rows.index('class="pending"')  # disputes first
    ranged, page = queries(client, reverse("round-results", args=[event.pk, 1]) + "?tables=301-400")
    assert ranged == grid and page.count('<tr id="match-') == 100
    dashboard, page = queries(client, reverse("event-dashboard", args=[event.pk]))
    # 13, and one aggregate for the round's mail status (issue 15); less the user, their
    # staff roles and the rule edition, now read from the cache.
    assert dashboard == 11
    assert page.count('<tr id="registration-') == 100
    assert f"Players ({PLAYERS}" in page
