"""Age divisions (Play! Pokémon): Junior, Senior and Masters by year of birth.

A season names two cut-off years: players born in `junior_from` or later are Juniors,
players born in `senior_from` or later (and not Juniors) are Seniors, everyone else Masters.
The years move every season, so they are data of the season, not constants here.
"""

JUNIOR, SENIOR, MASTERS = "junior", "senior", "masters"
ORDER = (JUNIOR, SENIOR, MASTERS)


def division_for(birth_year: int, *, junior_from: int, senior_from: int) -> str:
    if senior_from > junior_from:
        raise ValueError("senior_from must be a year before junior_from")
    if birth_year >= junior_from:
        return JUNIOR
    if birth_year >= senior_from:
        return SENIOR
    return MASTERS
