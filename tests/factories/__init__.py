"""Factories for service, API and page tests (factory_boy). Registrations are made
through the league services, as the site makes them."""

import datetime as dt
from pathlib import Path

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from decks.models import Format
from league.models import Event, League, Player, Registration, RuleEdition, Season

ROOT = Path(__file__).resolve().parents[2]
SAMPLE_DATA = ROOT / "decks" / "sample_data"


class UserFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)

    username = factory.Sequence(lambda n: f"user{n}")
    email = factory.LazyAttribute(lambda u: f"{u.username}@example.test")
    password = "!"  # an unusable password, as set_unusable_password() stores it


class LeagueFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = League
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"League {n}")
    slug = factory.Sequence(lambda n: f"league-{n}")

    @factory.post_generation
    def organisers(self, create, extracted, **kwargs):
        for user in extracted or []:
            self.organisers.add(user)


class SeasonFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Season

    league = factory.SubFactory(LeagueFactory)
    name = "2026 season"
    starts_on = dt.date(2026, 1, 1)
    ends_on = dt.date(2026, 12, 31)
    junior_from_year = 2015
    senior_from_year = 2011


def standard_format() -> Format:
    fmt, _ = Format.objects.get_or_create(
        key="standard", defaults={"name": "Standard", "base": "standard"}
    )
    return fmt


def site_rules_edition() -> RuleEdition:
    """The site's older rules as an edition row (recreated after a flush): the factory's
    events keep the rules the tests were written for; a test of the dated editions passes
    `rule_edition=None` and a date."""
    from league.edition_seeds import SITE_RULES

    defaults = {
        "name": SITE_RULES.name,
        "in_force_from": SITE_RULES.in_force_from,
        "rules": SITE_RULES.to_dict(),
    }
    row, _ = RuleEdition.objects.get_or_create(key=SITE_RULES.key, defaults=defaults)
    return row


class EventFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Event

    season = factory.SubFactory(SeasonFactory)
    name = factory.Sequence(lambda n: f"Event {n}")
    slug = factory.Sequence(lambda n: f"event-{n}")
    format = factory.LazyFunction(standard_format)
    starts_at = factory.LazyFunction(timezone.now)
    best_of = 1
    seed = "test"
    rule_edition = factory.LazyFunction(site_rules_edition)


class PlayerFactory(factory.django.DjangoModelFactory):
    class Meta:
        model = Player

    name = factory.Sequence(lambda n: f"Player {n}")
    player_id = factory.Sequence(lambda n: f"P{n:06d}")
    birth_date = dt.date(1990, 1, 1)
    user = factory.SubFactory(UserFactory)


class RegistrationFactory(factory.django.DjangoModelFactory):
    """A registration made the way the site makes one: `league.services.register` (which
    works out the division, the waiting list and late entry), then `check_in` unless
    `status="registered"` is asked for."""

    class Meta:
        model = Registration

    event = factory.SubFactory(EventFactory)
    player = factory.SubFactory(PlayerFactory)
    status = Registration.Status.CHECKED_IN

    @classmethod
    def _create(cls, model_class, *, event, player, status, **fields):
        from league import services

        registration = services.register(event=event, player=player)
        if status == Registration.Status.CHECKED_IN:
            registration = services.check_in(registration=registration)
        elif status != registration.status:
            raise ValueError(f"RegistrationFactory cannot make a {status!r} registration")
        if fields:
            Registration.objects.filter(pk=registration.pk).update(**fields)
            registration.refresh_from_db()
        return registration


def sample_cards() -> None:
    """Load the project's sample card set (idempotent)."""
    from decks.importer import import_card_data

    import_card_data(SAMPLE_DATA)


def sample_deck_text(name: str = "Lightning Rush") -> str:
    from decks.models import PreconDeck

    return PreconDeck.objects.get(name=name).as_decklist_text()


def user_of(registration):
    return registration.player.user
