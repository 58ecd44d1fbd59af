"""Issue 27, item 3: webhooks follow the pages' visibility rule. A result entered by staff
in a round that is paired but not published is not announced while the public round page
answers 404; publishing the round announces it, after the pairings."""

from __future__ import annotations

import pytest
from django.test import Client
from django.utils import timezone

from matches import services as match_services
from webhooks import events
from webhooks.models import WebhookDelivery, WebhookEndpoint

pytestmark = pytest.mark.django_db


@pytest.fixture
def endpoint(make_event, staff):
    event, _ = make_event(players=5)
    # Paused: every delivery is recorded, none is sent (nothing here needs a receiver).
    hook = WebhookEndpoint.objects.create(
        league=event.season.league,
        url="https://hooks.example.org/x",
        events=sorted(events.NAMES),
        paused_at=timezone.now(),
    )
    hook.test_event = event
    return hook


def test_an_unpublished_round_announces_nothing_and_publication_announces_what_stood(
    endpoint, staff
):
    event = endpoint.test_event
    round_ = match_services.pair_next_round(event=event, by_user=staff)
    played = round_.matches.filter(player_b__isnull=False).order_by("table")
    first = played[0]
    match_services.set_result(match=first, by_user=staff, payload={"games": [{"outcome": "a"}]})

    # The pages: the round and the match are not found by anyone but staff.
    assert Client().get(f"/events/{event.pk}/rounds/1/").status_code == 404
    assert Client().get(f"/matches/{first.pk}/").status_code == 404
    assert Client().get(f"/api/matches/{first.pk}/").status_code == 404
    # The webhooks: nothing at all (not the pairing, not the result with both names).
    assert list(endpoint.deliveries.values_list("event", flat=True)) == []

    match_services.publish_round(round_=round_, by_user=staff)
    assert Client().get(f"/api/matches/{first.pk}/").status_code == 200
    recorded = list(endpoint.deliveries.order_by("pk").values_list("event", "payload"))
    assert [name for name, _ in recorded] == [
        events.ROUND_PAIRED,
        events.ROUND_PUBLISHED,
        events.RESULT_FINAL,  # the result that stood before publication, once
    ]
    announced = recorded[2][1]["data"]["match"]
    assert announced["id"] == first.pk and announced["table"] == first.table

    # Later results in the public round go out as they stand, as before.
    second = played[1]
    match_services.set_result(match=second, by_user=staff, payload={"games": [{"outcome": "b"}]})
    assert endpoint.deliveries.filter(event=events.RESULT_FINAL).count() == 2
    assert WebhookDelivery.objects.filter(event=events.RESULT_FINAL).count() == 2


def test_closing_a_round_that_was_never_published_publishes_it_first(endpoint, staff):
    event = endpoint.test_event
    round_ = match_services.pair_next_round(event=event, by_user=staff)
    for match in round_.matches.filter(player_b__isnull=False):
        match_services.set_result(match=match, by_user=staff, payload={"games": [{"outcome": "a"}]})
    assert not endpoint.deliveries.exists()
    match_services.close_round(round_=round_, by_user=staff)
    names = list(endpoint.deliveries.order_by("pk").values_list("event", flat=True))
    assert names[:4] == [
        events.ROUND_PAIRED,
        events.ROUND_PUBLISHED,
        events.RESULT_FINAL,
        events.RESULT_FINAL,
    ]
