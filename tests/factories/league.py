"""Factories of the league app: accounts, leagues, seasons, events, players, registrations
(made through `league.services`, as the site makes them) and staff roles (through
`league.services.staff`)."""

import datetime as dt

import factory
from django.contrib.auth import get_user_model
from django.utils import timezone

from decks.models import Format
from league.models import Event, League, Player, Registration, RuleEdition, Season


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


def user_of(registration):
    return registration.player.user


def checked_in_players(event: Event, count: int) -> list[Registration]:
    """`count` new players with site accounts, registered and checked in to `event`."""
    return [
        RegistrationFactory(event=event, status=Registration.Status.CHECKED_IN)
        for _ in range(count)
    ]


def make_staff(event: Event, role: str, *, username: str | None = None, whole_league=False):
    """A new account with `role` ("judge" or "scorekeeper") at `event` (or its whole league),
    added through `league.services.staff` by one of the league's organisers."""
    from league.services import staff

    league = event.season.league
    user = UserFactory(**({"username": username} if username else {}))
    staff.add_staff(
        league=league,
        by_user=league.organisers.first(),
        username=user.username,
        role=role,
        event=None if whole_league else event,
    )
    return user
