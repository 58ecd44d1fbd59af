"""The rule editions every site starts with (`league.RuleEdition` rows, seeded by the data
migration `0008_rule_editions`; organisers edit them or add more in the admin).

Each rule carries its source as it was reported in public summaries, not as a quotation of
a handbook the site holds: an organiser checks every value against the handbook they
hold. The earliest edition is the site's own rules before editions were data (rulebook
sudden death, small divisions combined below the structure table's smallest row), so an
event before September 2025 runs as it always did.
"""

from __future__ import annotations

import datetime

from django.utils.translation import gettext_noop

from rules.editions import (
    AgeDivisions,
    Edition,
    EndOfRound,
    Penalties,
    SmallDivisions,
    Tardiness,
    TwoDay,
)

TARDINESS = Tardiness(
    match_loss_minutes=10,
    drop_if_absent=True,
    source="tardiness is a procedural error: a match loss after 10 minutes late, then the "
    "player is dropped (from Aug 2024; handbook summaries)",
)
TOP_CUT_PRIZES = (
    "top cut after the turns: the player ahead on Prizes wins; level → play on until a Prize "
    "is taken (2025–; organisers' accounts)"
)
DAY2 = (
    "two-day events: day 2 for players at or above a match-point threshold (19 points has "
    "been the figure since 2018; verify; event reports)"
)
AGE_MODIFIED = SmallDivisions(
    mode="age_modified",
    minimum=6,
    source="age-modified Swiss when a Junior or Senior division has fewer than 6 players: they "
    "are paired with the next division but keep their own standings and top cut (2025 "
    "handbook; organisers' summaries)",
)
AGES_2026 = AgeDivisions(
    junior_from=2014,
    senior_from=2010,
    source="age divisions of the 2026 season: Juniors born 2014 or later, Seniors 2010–2013, "
    "Masters 2009 or earlier (2026 season; third-party tools matching the usual rule)",
)
TWO_DAY_2026 = TwoDay(
    extra_round_from=65,
    top_cut_cap=16,
    day2_points=19,
    source="two-day events: divisions of 65 or more players play one extra Swiss round; the "
    'asymmetric Top 8 is capped at 16 players "regardless of ties" (32 in 2025) (2026 season; '
    "regional event announcements)",
    day2_source=DAY2,
)

SITE_RULES = Edition(
    key="site-rules",
    name=gettext_noop("The site's rules before September 2025 (rulebook sudden death)"),
    in_force_from=datetime.date(2000, 1, 1),
    end_of_round=EndOfRound(
        procedure="sudden_death",
        swiss_no_winner="draw",
        top_cut_no_winner="sudden_death",
        source="the site's reading of the rulebooks before rule editions: an unfinished Swiss "
        "game is a tie; sudden death as the event chooses (1999 Advanced Rulebook, 2011 "
        "rulebook, 1996 continuation)",
        top_cut_source="a level top-cut match is settled by sudden death (rules.results)",
    ),
    two_day=TwoDay(
        extra_round_from=None,
        top_cut_cap=32,
        day2_points=19,
        source="two-day events: the asymmetric Top 8 capped at 32 players in 2025 (regional "
        "event announcements)",
        day2_source=DAY2,
    ),
    small_divisions=SmallDivisions(
        mode="combine",
        minimum=None,
        source="the site's rule before editions: a division below the structure table's "
        "smallest attendance joins the next older one (as TOM's combined pods)",
    ),
    tardiness=TARDINESS,
    penalties=Penalties(catalogue=gettext_noop("The site's penalty catalogue (rules.penalties)")),
    age_divisions=AgeDivisions(),
)

SEPTEMBER_2025 = Edition(
    key="2025-09",
    name=gettext_noop("1 September 2025: one extra turn, 10-minute overtime"),
    in_force_from=datetime.date(2025, 9, 1),
    end_of_round=EndOfRound(
        procedure="extra_turns",
        extra_turns=1,
        overtime_minutes=10,
        swiss_no_winner="draw",
        top_cut_no_winner="prizes",
        turns=gettext_noop("one extra turn"),
        source="end of round, Swiss: one extra turn after time, a 10-minute overtime clock, a "
        "draw when there is no winner (1 Sep 2025 – 12 Feb 2026; pokemon.com news (German "
        "edition), player.one)",
        top_cut_source=TOP_CUT_PRIZES,
    ),
    two_day=TWO_DAY_2026,
    small_divisions=AGE_MODIFIED,
    tardiness=TARDINESS,
    penalties=Penalties(catalogue=gettext_noop("The site's penalty catalogue (rules.penalties)")),
    age_divisions=AGES_2026,
)

FEBRUARY_2026 = Edition(
    key="2026-02",
    name=gettext_noop(
        "13 February 2026: the active player finishes, then three turns, 15-minute overtime"
    ),
    in_force_from=datetime.date(2026, 2, 13),
    end_of_round=EndOfRound(
        procedure="extra_turns",
        extra_turns=3,
        overtime_minutes=15,
        swiss_no_winner="draw",
        top_cut_no_winner="prizes",
        turns=gettext_noop(
            "the active player finishes their turn, then three more turns starting and "
            "ending with the opponent"
        ),
        source="end of round: the active player finishes, then three more turns starting and "
        "ending with the opponent; 15-minute overtime clock (from 13 Feb 2026; the same "
        "announcement). A Swiss game with no winner after the turns stays a draw: carried "
        "over from 1 Sep 2025, the announcement as reported does not say otherwise (verify)",
        top_cut_source=TOP_CUT_PRIZES,
    ),
    two_day=TWO_DAY_2026,
    small_divisions=AGE_MODIFIED,
    tardiness=TARDINESS,
    penalties=Penalties(
        catalogue=gettext_noop(
            "The site's penalty catalogue (rules.penalties), with the Q1 2026 update"
        ),
        notes=(
            gettext_noop("Open Deck List review infractions added."),
            gettext_noop("A guardian's removal does not disqualify the child."),
        ),
        source="penalties: Open Deck List review infractions added; a guardian's removal does "
        "not disqualify the child (Q1 2026; document update summaries)",
    ),
    age_divisions=AGES_2026,
)

SEED_EDITIONS: tuple[Edition, ...] = (SITE_RULES, SEPTEMBER_2025, FEBRUARY_2026)


def seed_rows() -> list[dict]:
    """The seeded editions as `RuleEdition` field values."""
    return [
        {
            "key": e.key,
            "name": e.name,
            "in_force_from": e.in_force_from,
            "rules": e.to_dict(),
        }
        for e in SEED_EDITIONS
    ]
