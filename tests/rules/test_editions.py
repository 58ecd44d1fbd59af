"""Rule editions as data (`rules.editions`): the parts, the edition in force on a date, the
two-day structure and age-modified pods. Each rule's test quotes its source as written in
the seeded edition's data (`league/edition_seeds.py`)."""

import datetime as dt

import pytest

from league.edition_seeds import FEBRUARY_2026, SEED_EDITIONS, SEPTEMBER_2025, SITE_RULES
from rules.editions import Edition, age_modified_pods, in_force_on, two_day_structure
from rules.errors import RulesError
from rules.scoring import structure_for


def test_the_edition_in_force_is_the_latest_dated_on_or_before_the_day():
    assert in_force_on(SEED_EDITIONS, dt.date(2025, 8, 31)) is SITE_RULES
    assert in_force_on(SEED_EDITIONS, dt.date(2025, 10, 1)) is SEPTEMBER_2025
    assert in_force_on(SEED_EDITIONS, dt.date(2026, 2, 12)) is SEPTEMBER_2025
    assert in_force_on(SEED_EDITIONS, dt.date(2026, 2, 13)) is FEBRUARY_2026
    assert in_force_on(SEED_EDITIONS, dt.date(1999, 1, 1)) is None


def test_an_edition_round_trips_through_its_stored_form():
    for edition in SEED_EDITIONS:
        again = Edition.from_dict(
            key=edition.key,
            name=edition.name,
            in_force_from=edition.in_force_from,
            rules=edition.to_dict(),
        )
        assert again == edition


@pytest.mark.parametrize(
    "rules",
    [
        {"end_of_round": {"procedure": "overtime"}},
        {"end_of_round": {"procedure": "extra_turns", "extra_turns": 0}},
        {"two_day": {"top_cut_cap": 12}},
        {"small_divisions": {"mode": "merge"}},
        {"age_divisions": {"junior_from": 2014}},
        {"tardiness": {"match_loss_minutes": -1}},
        {"unknown": {}},
        {"end_of_round": {"clock": 10}},
    ],
)
def test_a_bad_edition_is_refused_with_its_code(rules):
    with pytest.raises(RulesError) as err:
        Edition.from_dict(key="x", name="x", in_force_from=dt.date(2026, 1, 1), rules=rules)
    assert err.value.code == "bad-edition"


def test_end_of_round_of_september_2025_one_extra_turn_ten_minutes_a_draw():
    rule = SEPTEMBER_2025.end_of_round
    assert (
        "end of round, Swiss: one extra turn after time, a 10-minute overtime clock, a draw "
        "when there is no winner" in rule.source
    )
    assert (rule.procedure, rule.extra_turns, rule.overtime_minutes) == ("extra_turns", 1, 10)
    assert rule.swiss_no_winner == "draw"


def test_end_of_round_of_february_2026_three_turns_fifteen_minutes():
    rule = FEBRUARY_2026.end_of_round
    assert (
        "the active player finishes, then three more turns starting and ending with the "
        "opponent; 15-minute overtime clock" in rule.source
    )
    assert (rule.extra_turns, rule.overtime_minutes) == (3, 15)
    assert "15-minute overtime clock" in rule.summary()
    assert (
        "the player ahead on Prizes wins; level → play on until a Prize is taken"
        in rule.top_cut_source
    )
    assert rule.top_cut_no_winner == "prizes"


def test_two_day_events_play_one_extra_round_at_65_and_cap_the_cut_at_16():
    rule = FEBRUARY_2026.two_day
    assert "divisions of 65 or more players play one extra Swiss round" in rule.source
    assert 'capped at 16 players "regardless of ties"' in rule.source
    assert two_day_structure(64, *structure_for(64), rule) == (6, 8)
    assert two_day_structure(65, *structure_for(65), rule) == (8, 8)
    assert two_day_structure(700, *structure_for(700), rule) == (11, 16)  # table: 10 rounds, 64
    assert "(32 in 2025)" in rule.source
    assert two_day_structure(700, *structure_for(700), SITE_RULES.two_day) == (10, 32)


def test_day_two_threshold_is_data_marked_verify():
    assert "19 points has been the figure since 2018; verify" in FEBRUARY_2026.two_day.day2_source
    assert FEBRUARY_2026.two_day.day2_points == 19


def test_age_modified_swiss_pairs_small_divisions_with_the_next():
    rule = FEBRUARY_2026.small_divisions
    assert "fewer than 6 players: they are paired with the next division" in rule.source
    assert (rule.mode, rule.minimum) == ("age_modified", 6)
    counts = {"junior": 4, "senior": 5, "masters": 30}
    assert age_modified_pods(counts, minimum=6) == [("junior", "senior", "masters")]
    assert age_modified_pods({"junior": 4, "senior": 9, "masters": 30}, minimum=6) == [
        ("junior", "senior"),
        ("masters",),
    ]
    assert age_modified_pods({"junior": 8, "senior": 9, "masters": 3}, minimum=6) == [
        ("junior",),
        ("senior", "masters"),
    ]
    assert age_modified_pods({"junior": 8, "masters": 30}, minimum=6) == [("junior",), ("masters",)]


def test_tardiness_a_match_loss_after_ten_minutes():
    rule = FEBRUARY_2026.tardiness
    assert "a match loss after 10 minutes late, then the player is dropped" in rule.source
    assert rule.match_loss_minutes == 10 and rule.drop_if_absent


def test_age_cut_off_years_of_the_2026_season():
    rule = FEBRUARY_2026.age_divisions
    assert "Juniors born 2014 or later, Seniors 2010–2013, Masters 2009 or earlier" in rule.source
    assert (rule.junior_from, rule.senior_from) == (2014, 2010)


def test_penalty_update_of_q1_2026():
    rule = FEBRUARY_2026.penalties
    assert "Open Deck List review infractions added" in rule.source
    assert "A guardian's removal does not disqualify the child." in rule.notes
