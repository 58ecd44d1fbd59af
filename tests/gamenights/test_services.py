"""Board-game nights through their services, on PostgreSQL: seating, reports, places and
league points, and the guards that keep a night out of Swiss and a tournament out of tables."""

import pytest

from gamenights import services
from gamenights.models import GameTable, Seat
from league import services as league_services
from league.models import Event, EventPlacement, SeasonStanding
from matches import services as match_services
from rules.errors import DomainError
from tests.factories import (
    EventFactory,
    LeagueFactory,
    RegistrationFactory,
    SeasonFactory,
    UserFactory,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff():
    return UserFactory(username="brock")


@pytest.fixture
def night(staff):
    season = SeasonFactory(league=LeagueFactory(organisers=[staff]))
    event = EventFactory(season=season, kind=Event.Kind.BOARD_GAME, format=None, seed="night")
    regs = [RegistrationFactory(event=event) for _ in range(13)]
    return event, regs


def winners_of(table):
    return [s.registration_id for s in table.seats.order_by("seat")]


def test_thirteen_players_sit_at_tables_of_five_four_and_four(night, staff):
    event, regs = night
    sitting = services.seat_next_game(event=event, by_user=staff)
    sizes = [t.seats.count() for t in sitting.tables.order_by("number")]
    assert sizes == [5, 4, 4]
    assert sorted(
        Seat.objects.filter(table__sitting=sitting).values_list("registration_id", flat=True)
    ) == sorted(r.pk for r in regs)
    event.refresh_from_db()
    assert event.status == Event.Status.RUNNING
    with pytest.raises(DomainError) as exc:  # the tables have no results yet
        services.seat_next_game(event=event, by_user=staff)
    assert exc.value.code == "tables-open"


def test_winners_get_first_place_and_league_points(
    night, staff, django_capture_on_commit_callbacks
):
    event, regs = night
    sitting = services.seat_next_game(event=event, by_user=staff)
    winners = []
    for table in sitting.tables.order_by("number"):
        winner = winners_of(table)[0]
        winners.append(winner)
        services.report_table(table=table, by_user=staff, order=[winner])
    with django_capture_on_commit_callbacks(execute=True):
        services.finish_night(event=event, by_user=staff)
    event.refresh_from_db()
    assert event.status == Event.Status.FINISHED
    places = dict(
        EventPlacement.objects.filter(event=event).values_list("registration_id", "place")
    )
    assert {r for r, p in places.items() if p == 1} == set(winners)
    assert {p for r, p in places.items() if r not in winners} == {4}
    table = event.season.points_table
    board = {s.player_id: s.points for s in SeasonStanding.objects.filter(season=event.season)}
    first = table["placements"]["1"] + table["attendance"]
    fourth = table["placements"]["4"] + table["attendance"]
    for reg in regs:
        assert board[reg.player_id] == (first if reg.pk in winners else fourth)


def test_a_seated_player_reports_once_and_staff_correct(night, staff):
    event, _ = night
    sitting = services.seat_next_game(event=event, by_user=staff)
    table = sitting.tables.order_by("number").first()
    seated = winners_of(table)
    player_user = Seat.objects.get(table=table, registration_id=seated[1]).registration.player.user
    services.report_table(table=table, by_user=player_user, order=[seated[1]])
    with pytest.raises(DomainError) as exc:
        services.report_table(table=table, by_user=player_user, order=[seated[0]])
    assert exc.value.code == "result-final"
    services.report_table(table=table, by_user=staff, order=[seated[0]])
    assert Seat.objects.get(table=table, finish=1).registration_id == seated[0]
    other_table = sitting.tables.order_by("number").last()
    with pytest.raises(DomainError) as exc:  # not at that table
        services.report_table(
            table=other_table, by_user=player_user, order=[winners_of(other_table)[0]]
        )
    assert exc.value.code == "not-allowed"
    with pytest.raises(DomainError) as exc:  # someone from another table cannot win here
        services.report_table(table=other_table, by_user=staff, order=[seated[0]])
    assert exc.value.code == "invalid-result"


def test_the_house_rule_asks_every_place(night, staff):
    event, _ = night
    Event.objects.filter(pk=event.pk).update(full_finishing_order=True)
    event.refresh_from_db()
    sitting = services.seat_next_game(event=event, by_user=staff)
    table = sitting.tables.order_by("number").first()
    seated = winners_of(table)
    with pytest.raises(DomainError) as exc:
        services.report_table(table=table, by_user=staff, order=[seated[0]])
    assert exc.value.code == "result-incomplete"
    services.report_table(table=table, by_user=staff, order=list(reversed(seated)))
    finish = dict(table.seats.values_list("registration_id", "finish"))
    assert finish[seated[-1]] == 1 and finish[seated[0]] == len(seated)


def test_finishing_needs_every_result_and_staff(night, staff):
    event, regs = night
    services.seat_next_game(event=event, by_user=staff)
    with pytest.raises(DomainError) as exc:
        services.finish_night(event=event, by_user=staff)
    assert exc.value.code == "results-missing"
    with pytest.raises(DomainError) as exc:
        services.finish_night(event=event, by_user=regs[0].player.user)
    assert exc.value.code == "not-allowed"


def test_one_player_cannot_be_seated(staff):
    season = SeasonFactory(league=LeagueFactory(organisers=[staff]))
    event = EventFactory(season=season, kind=Event.Kind.BOARD_GAME, format=None)
    RegistrationFactory(event=event)
    with pytest.raises(DomainError) as exc:
        services.seat_next_game(event=event, by_user=staff)
    assert exc.value.code == "too-few-players"
    assert not GameTable.objects.exists()


def test_a_night_never_enters_swiss_or_the_top_cut(night, staff):
    event, _ = night
    with pytest.raises(DomainError) as exc:
        match_services.pair_next_round(event=event, by_user=staff)
    assert exc.value.code == "not-a-tournament"
    with pytest.raises(DomainError) as exc:
        match_services.finish_event(event=event)
    assert exc.value.code == "not-a-tournament"


def test_a_tournament_has_no_tables_and_a_night_no_decklists(night, staff):
    event, regs = night
    tournament = EventFactory(season=event.season)
    with pytest.raises(DomainError) as exc:
        services.seat_next_game(event=tournament, by_user=staff)
    assert exc.value.code == "not-a-board-game"
    with pytest.raises(DomainError) as exc:
        league_services.submit_deck(registration=regs[0], text="4 Pikachu", by_user=staff)
    assert exc.value.code == "no-decklists"


def test_a_night_has_no_format_and_a_tournament_needs_one(staff):
    season = SeasonFactory(league=LeagueFactory(organisers=[staff]))
    night = league_services.create_event(
        season=season, by_user=staff, name="Master Trainer night", kind=Event.Kind.BOARD_GAME,
        format=EventFactory(season=season).format,
    )  # fmt: skip
    assert night.format is None
    with pytest.raises(DomainError) as exc:
        league_services.create_event(season=season, by_user=staff, name="Cup", format=None)
    assert exc.value.code == "invalid-event"


def test_several_games_rank_by_wins(night, staff, django_capture_on_commit_callbacks):
    event, regs = night
    wins = {}
    for _ in range(2):
        sitting = services.seat_next_game(event=event, by_user=staff)
        for table in sitting.tables.order_by("number"):
            winner = winners_of(table)[0]
            wins[winner] = wins.get(winner, 0) + 1
            services.report_table(table=table, by_user=staff, order=[winner])
    services.finish_night(event=event, by_user=staff)
    places = dict(
        EventPlacement.objects.filter(event=event).values_list("registration_id", "place")
    )
    best = max(wins.values())
    assert all(places[r] == 1 for r, w in wins.items() if w == best)
    assert all(places[r] > 1 for r in (x.pk for x in regs) if wins.get(r, 0) < best)
