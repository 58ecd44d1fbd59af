"""Rule editions through the services: which edition an event runs by, attendance is who
plays, and age-modified Swiss (4 Juniors, 5 Seniors, 30 Masters)."""

import datetime as dt

import pytest
from django.db.models import F
from django.utils import timezone

from league import services as league_services
from league.editions import event_edition
from league.models import Event, Registration, RuleEdition
from matches import services
from matches.models import Match, Round
from tests.factories import EventFactory, LeagueFactory, PlayerFactory, SeasonFactory

pytestmark = pytest.mark.django_db


def on(day: dt.date):
    return timezone.make_aware(dt.datetime.combine(day, dt.time(10)))


def dated_event(staff, day, **fields):
    season = SeasonFactory(
        league=LeagueFactory(organisers=[staff]), junior_from_year=2015, senior_from_year=2011
    )
    return EventFactory(season=season, starts_at=on(day), rule_edition=None, **fields)


def register(event, staff, born: int, count: int, *, check_in=True):
    regs = []
    for _ in range(count):
        reg = league_services.register(
            event=event, player=PlayerFactory(birth_date=dt.date(born, 3, 1)), by_user=staff
        )
        if check_in:
            reg = league_services.check_in(registration=reg)
        regs.append(reg)
    return regs


def test_an_event_takes_the_edition_in_force_on_its_date(staff):
    autumn = dated_event(staff, dt.date(2025, 10, 1))
    spring = dated_event(staff, dt.date(2026, 3, 1))
    assert event_edition(autumn).edition.key == "2025-09"
    assert "In force on the event's date, 1 October 2025" in event_edition(autumn).why
    assert event_edition(spring).edition.key == "2026-02"
    picked = dated_event(
        staff, dt.date(2026, 3, 1)
    )  # the organiser picks the older edition for this one
    picked.rule_edition = RuleEdition.objects.get(key="2025-09")
    picked.save()
    picked = Event.objects.get(pk=picked.pk)
    assert event_edition(picked).edition.key == "2025-09"
    assert "Chosen by the organiser" in event_edition(picked).why


def test_a_new_edition_is_a_row_not_code(staff):
    RuleEdition.objects.create(
        key="2026-09",
        name="A later edition",
        in_force_from=dt.date(2026, 9, 1),
        rules={
            "end_of_round": {
                "procedure": "extra_turns",
                "extra_turns": 2,
                "overtime_minutes": 12,
                "source": "an organiser's note",
            }
        },
    )
    event = dated_event(staff, dt.date(2026, 10, 1))
    edition = event_edition(event).edition
    assert edition.key == "2026-09" and edition.end_of_round.overtime_minutes == 12


def test_players_who_never_checked_in_do_not_count(staff):
    """Attendance is who plays: 9 registered, 7 checked in → the 4-8 row (no top cut)."""
    event = dated_event(staff, dt.date(2026, 3, 1), require_check_in=True)
    register(event, staff, 1990, 7)
    register(event, staff, 1990, 2, check_in=False)
    (pod,) = services.event_pods(event)
    assert pod.attendance == 7
    assert (pod.rounds, pod.cut) == (3, 0)
    event.require_check_in = False
    event.save()
    (pod,) = services.event_pods(Event.objects.get(pk=event.pk))
    assert (pod.attendance, pod.rounds, pod.cut) == (9, 4, 2)


def test_unchecked_players_do_not_make_a_division_big_enough_to_play_alone(staff):
    """Combining (older rules) reads who checked in: 3 Juniors checked in of 5 registered
    join the Masters."""
    event = dated_event(
        staff,
        dt.date(2026, 3, 1),
        require_check_in=True,
        division_mode=Event.DivisionMode.SEPARATE,
    )
    event.rule_edition = RuleEdition.objects.get(key="site-rules")
    event.save()
    register(event, staff, 2016, 3)
    register(event, staff, 2016, 2, check_in=False)
    register(event, staff, 1990, 8)
    keys = [pod.key for pod in services.event_pods(Event.objects.get(pk=event.pk))]
    assert keys == ["jr+ma"]


def finish_round(staff, round_, winner="a"):
    """Every pending table of a paired round won by `winner`, then the round closed."""
    for m in round_.matches.filter(player_b__isnull=False, status=Match.Status.PENDING):
        services.set_result(match=m, by_user=staff, payload={"games": [{"outcome": winner}]})
    services.close_round(round_=round_, by_user=staff)


def test_age_modified_swiss_4_juniors_5_seniors_30_masters(
    staff, django_capture_on_commit_callbacks
):
    edition = RuleEdition.objects.get(key="2026-02").to_edition()
    assert (
        "age-modified Swiss when a Junior or Senior division has fewer than 6 players: they are "
        "paired with the next division but keep their own standings and top cut"
        in edition.small_divisions.source
    )
    event = dated_event(staff, dt.date(2026, 3, 1), division_mode=Event.DivisionMode.SEPARATE)
    register(event, staff, 2016, 4)
    register(event, staff, 2012, 5)
    register(event, staff, 1990, 30)
    (pod,) = services.event_pods(event)
    assert pod.key == "all" and pod.age_modified
    assert pod.attendance == 39 and pod.rounds == 6  # the pod's Swiss by its attendance
    assert "Age-modified Swiss" in pod.reason and "Juniors: 4 players" in pod.reason
    assert pod.cut_groups() == [
        ("junior", ("junior",), 0),
        ("senior", ("senior",), 0),
        ("masters", ("masters",), 8),
    ]
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(6):
            round_ = services.pair_next_round(event=event, by_user=staff)
            assert set(round_.matches.values_list("division", flat=True)) == {"all"}
            finish_round(staff, round_)
        mixed = Match.objects.filter(round__event=event, player_b__isnull=False).exclude(
            player_a__division=F("player_b__division")
        )
        assert mixed.exists()  # Juniors and Seniors were paired with the next division
        cut_rounds = 0
        while True:
            event.refresh_from_db()
            if event.status == Event.Status.FINISHED:
                break
            round_ = services.pair_next_round(event=event, by_user=staff)
            assert round_.stage == Round.Stage.TOP_CUT
            for m in round_.matches.select_related("player_a", "player_b"):
                assert m.division == m.player_a.division == m.player_b.division == "masters"
            cut_rounds += 1
            finish_round(staff, round_)
    assert cut_rounds == 3  # the Masters' own top 8
    rows = services.standings_rows(event)
    for division, size in (("junior", 4), ("senior", 5), ("masters", 30)):
        assert [r["rank"] for r in rows if r["division"] == division] == list(range(1, size + 1))
        places = sorted(event.placements.filter(division=division).values_list("place", flat=True))
        assert places == list(range(1, size + 1))  # each division its own places
    assert (
        not Registration.objects.filter(event=event, in_top_cut=True)
        .exclude(division="masters")
        .exists()
    )
