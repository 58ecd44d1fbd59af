""" "Why am I 9th?": a player's standing page shows each opponent's record and win rate,
the floor and the cap as applied, and how OWP and OOWP were reached; the sums agree with
the published standings. The rule, as `rules.standings` states it: "The win rate is
floored at ``owp_floor`` (25 %) and, for a player who dropped before the last Swiss round,
capped at ``dropped_cap`` (75 %)"."""

import re

import pytest
from django.urls import reverse

import rules.standings
from matches import services
from matches.models import StandingsSnapshot
from tests.factories import EventFactory, LeagueFactory, RegistrationFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def test_the_floor_is_the_rule_the_page_applies():
    assert "The win rate is floored at ``owp_floor`` (25 %)" in rules.standings.__doc__


def test_a_players_standing_explained(client, staff, django_capture_on_commit_callbacks):
    event = EventFactory(
        season=SeasonFactory(league=LeagueFactory(organisers=[staff])), swiss_rounds=3, top_cut=0
    )
    for _ in range(8):
        RegistrationFactory(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(3):
            round_ = services.pair_next_round(event=event, by_user=staff)
            for m in round_.matches.filter(player_b__isnull=False):
                services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": "a"}]})
            services.close_round(round_=round_, by_user=staff)
    rows = StandingsSnapshot.objects.filter(event=event, published=True).latest("round_number").rows
    standings = client.get(reverse("event-standings", args=[event.pk])).content.decode()
    for row in rows:
        url = reverse("standing-why", args=[event.pk, row["registration"]]) + "?round=3"
        assert url.replace("?", "?") in standings.replace("&amp;", "&")
        page = client.get(url).content.decode()
        assert f"rank {row['rank']}" in page
        owp = re.search(r'class="owp">([\d.]+)%', page).group(1)
        oowp = re.search(r'class="oowp">([\d.]+)%', page).group(1)
        assert owp == f"{row['owp'] * 100:.2f}"  # the sum on the page is the standings' OWP
        assert oowp == f"{row['oowp'] * 100:.2f}"
        assert "the standings list" not in page
        assert page.count('<tr><td class="num">') == 3  # three opponents, one a round
    last = rows[-1]
    assert last["record"].startswith("0-3")  # win rate 0 %: counted at the floor, 25 %
    beaten_by = 0
    for row in rows[:-1]:
        page = client.get(reverse("standing-why", args=[event.pk, row["registration"]])).content
        if f"<td>{last['player']}</td><td>0-3-0".encode() in page:
            beaten_by += 1
            assert b'<td class="num">0.00%</td><td class="num">25.00% <small>(floor)' in page
    assert beaten_by == 3
