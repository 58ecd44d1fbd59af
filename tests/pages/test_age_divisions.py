"""An edition's age cut-off years decide an event's divisions (issue 31): the edition in
force is the rule the organiser runs the event by, so its years decide when it gives them;
the season's years apply when it gives none (the site's older rules). The event page says
which years apply. The 2026 season's years, as the issue reports them: "Juniors born 2014
or later, Seniors 2010–2013, Masters 2009 or earlier"."""

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from league import services as league_services
from league.editions import division_years
from league.models import RuleEdition

pytestmark = pytest.mark.django_db

#: Birth year → division under the 2026 season's years.
YEARS_2026 = {2015: "junior", 2014: "junior", 2013: "senior", 2010: "senior", 2009: "masters"}


def on(day: dt.date):
    return timezone.make_aware(dt.datetime.combine(day, dt.time(10)))


def test_the_2026_edition_quotes_the_years():
    source = RuleEdition.objects.get(key="2026-02").rules["age_divisions"]["source"]
    assert (
        "age divisions of the 2026 season: Juniors born 2014 or later, Seniors 2010–2013, "
        "Masters 2009 or earlier" in source
    )


def test_the_editions_years_decide_over_the_seasons(client, make_event, make_player, season):
    # The page tests' season keeps the older years (Juniors 2015+, Seniors 2011–2014).
    assert (season.junior_from_year, season.senior_from_year) == (2015, 2011)
    event, _ = make_event(starts_at=on(dt.date(2026, 3, 1)), rule_edition=None)
    years = division_years(event)
    assert (years.junior_from, years.senior_from, years.from_edition) == (2014, 2010, True)
    for year, division in YEARS_2026.items():
        player = make_player(f"Born {year}", birth_year=year)
        assert league_services.register(event=event, player=player).division == division, year
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert (
        "Age divisions (this edition's years): Juniors born 2014 or later, "
        "Seniors 2010–2013, Masters 2009 or earlier." in page
    )


def test_an_edition_without_years_keeps_the_seasons(client, make_event, make_player):
    event, _ = make_event()  # the site's older rules: no cut-off years
    years = division_years(event)
    assert (years.junior_from, years.senior_from, years.from_edition) == (2015, 2011, False)
    assert league_services.register(event=event, player=make_player(birth_year=2014)).division == (
        "senior"
    )
    assert league_services.register(event=event, player=make_player(birth_year=2010)).division == (
        "masters"
    )
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Age divisions (the season's years): Juniors born 2015 or later" in page


def test_choosing_another_edition_before_round_1_moves_the_divisions(
    make_event, make_player, organiser
):
    event, _ = make_event()  # the older rules: the season's years
    born_2014 = league_services.register(event=event, player=make_player(birth_year=2014))
    born_2010 = league_services.register(event=event, player=make_player(birth_year=2010))
    assert (born_2014.division, born_2010.division) == ("senior", "masters")
    league_services.update_event(
        event=event, by_user=organiser, rule_edition=RuleEdition.objects.get(key="2026-02")
    )
    born_2014.refresh_from_db()
    born_2010.refresh_from_db()
    assert (born_2014.division, born_2010.division) == ("junior", "senior")
