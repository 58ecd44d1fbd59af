"""Issue 27, "Also": the page showing a new API token is never cached, and a judge can
disqualify (the floor offers it to judges: the role table gives them `penalties`, and a
disqualification's drop is part of the penalty)."""

from __future__ import annotations

import pytest
from django.urls import reverse

from floor.models import Penalty
from league.models import Registration, StaffRole
from tests.factories import UserFactory

from .conftest import https_client

pytestmark = pytest.mark.django_db


def test_the_new_token_page_is_not_stored(production_settings, world):
    response = https_client(world.ash).post(reverse("profile-tokens"), {"name": "script"})
    assert response.status_code == 200
    assert "shown only this once" in response.content.decode()
    assert "no-store" in response["Cache-Control"]


def test_a_judge_disqualifies_from_the_floor(production_settings, world):
    judge = UserFactory(username="judge-j")
    StaffRole.objects.create(
        league=world.event.season.league, user=judge, role=StaffRole.Role.JUDGE
    )
    match = world.event.rounds.get(number=1).matches.filter(player_b__isnull=False).first()
    client = https_client(judge)
    page = client.get(reverse("floor-match", args=[match.pk])).content.decode()
    assert 'value="disqualification"' in page  # offered...
    form = {"action": "penalty", "side": "a", "infraction": "cheating"}
    form |= {"penalty": "disqualification", "note": "marked cards"}
    response = client.post(reverse("floor-match", args=[match.pk]), form)
    assert response.status_code == 302  # ...and done
    assert Penalty.objects.filter(penalty="disqualification", match=match).exists()
    dropped = Registration.objects.get(pk=match.player_a_id)
    assert dropped.status == Registration.Status.DROPPED
