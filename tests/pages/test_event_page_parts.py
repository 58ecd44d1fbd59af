"""The event page's parts that every viewer but staff sees (the facts, format and rules;
the rounds and published lists) are rendered once per version of the event and language
(`matches.views.events._public_parts`): a second player's first view renders only their
own parts, and every change that shows in them is seen at once."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from league.models import RuleEdition
from matches.models import Round

from .conftest import make_round, registration_of

pytestmark = pytest.mark.django_db

PARTS = {"league/_event_about.html", "league/_event_rounds.html"}


def test_a_second_player_gets_the_parts_already_rendered(client, event, ash, misty, templates):
    url = reverse("event-detail", args=[event.pk])
    client.force_login(ash.user)
    first = client.get(url).content.decode()
    assert set(templates) >= PARTS
    templates.clear()
    client.force_login(misty.user)
    second = client.get(url).content.decode()
    assert not PARTS & set(templates), "the second viewer rendered the shared parts again"
    about = first[first.index(">About<") : first.index(">Rounds<")]
    assert about in second  # the same facts, for both
    assert "Drop from the event" in second or "Withdraw" in second  # their own card


def test_a_published_round_shows_at_once(client, event, ash, misty):
    url = reverse("event-detail", args=[event.pk])
    client.force_login(ash.user)
    assert "No rounds published yet." in client.get(url).content.decode()
    a, b = registration_of(ash, event), registration_of(misty, event)
    make_round(event, [(a, b)])
    page = client.get(url).content.decode()
    assert "No rounds published yet." not in page
    assert reverse("round-pairings", args=[event.pk, 1]) in page


def test_staff_see_an_unpublished_round_that_players_do_not(client, event, ash, misty, organiser):
    a, b = registration_of(ash, event), registration_of(misty, event)
    make_round(event, [(a, b)], status=Round.Status.PAIRED)
    url = reverse("event-detail", args=[event.pk])
    pairings = reverse("round-pairings", args=[event.pk, 1])
    client.force_login(ash.user)
    assert pairings not in client.get(url).content.decode()
    client.force_login(organiser)
    assert pairings in client.get(url).content.decode()
    client.force_login(misty.user)  # after the staff's view: still not for a player
    assert pairings not in client.get(url).content.decode()


def test_a_deadline_passing_shows_without_a_write(client, event, ash, misty):
    """The deadline passes with no write to bump the version: the parts are kept per
    deck lock, so the next view says "(passed)"."""
    event.deck_deadline = timezone.now() + timedelta(minutes=5)
    event.save()
    url = reverse("event-detail", args=[event.pk])
    client.force_login(ash.user)
    assert "(passed)" not in client.get(url).content.decode()
    event.__class__.objects.filter(pk=event.pk).update(
        deck_deadline=timezone.now() - timedelta(minutes=1)
    )  # the clock moved on: no signal, no new version
    client.force_login(misty.user)
    assert "(passed)" in client.get(url).content.decode()


def test_an_edition_edited_in_the_admin_shows_at_once(client, event, ash):
    edition = RuleEdition.objects.get(pk=event.rule_edition_id) if event.rule_edition_id else None
    if edition is None:
        pytest.skip("the event runs by no stored edition")
    url = reverse("event-detail", args=[event.pk])
    client.force_login(ash.user)
    client.get(url)
    edition.name = "Pallet Town house rules, spring"
    edition.save()
    assert "Pallet Town house rules, spring" in client.get(url).content.decode()
