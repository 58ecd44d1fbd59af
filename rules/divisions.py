"""Age divisions (Play! Pokémon): Junior, Senior and Masters by year of birth.

A season names two cut-off years: players born in `junior_from` or later are Juniors,
players born in `senior_from` or later (and not Juniors) are Seniors, everyone else Masters.
The years move every season, so they are data of the season, not constants here.
"""

from collections.abc import Mapping

JUNIOR, SENIOR, MASTERS = "junior", "senior", "masters"
ORDER = (JUNIOR, SENIOR, MASTERS)

# The smallest division that plays on its own by default: the smallest attendance the
# Play! Pokémon structure table knows (4 players: three rounds, no top cut); below it a
# division is too small to run as a tournament. The site uses its season table's smallest
# row. TOM's saves show organisers combining more than that: their pods fit any minimum from
# 5 to 10 (tests/rules/test_divisions.py), so a league that wants TOM's habit raises it.
MIN_DIVISION_PLAYERS = 4


def division_for(birth_year: int, *, junior_from: int, senior_from: int) -> str:
    if senior_from > junior_from:
        raise ValueError("senior_from must be a year before junior_from")
    if birth_year >= junior_from:
        return JUNIOR
    if birth_year >= senior_from:
        return SENIOR
    return MASTERS


def combine_small_divisions(counts: Mapping[str, int], *, minimum: int) -> list[tuple[str, ...]]:
    """The pods of an event run with separate divisions: each division plays on its own,
    except one with fewer than ``minimum`` players (the smallest attendance the structure
    table knows), which is combined with the next older one before round 1 (Juniors with
    Seniors, Seniors with Masters, as TOM's combined pods do); the oldest, when too small, joins
    the next younger.  The check repeats on the combined pod.  ``counts`` maps divisions to
    their players; divisions without players have no pod.  Pods are listed youngest first.

    >>> combine_small_divisions({"junior": 2, "senior": 9, "masters": 18}, minimum=4)
    [('junior', 'senior'), ('masters',)]
    """
    unknown = set(counts) - set(ORDER)
    if unknown:
        raise ValueError(f"unknown divisions: {', '.join(sorted(unknown))}")
    pods = [(division,) for division in ORDER if counts.get(division, 0) > 0]

    def size(pod: tuple[str, ...]) -> int:
        return sum(counts[d] for d in pod)

    k = 0
    while k < len(pods) and len(pods) > 1:
        if size(pods[k]) >= minimum:
            k += 1
        elif k + 1 < len(pods):
            pods[k : k + 2] = [pods[k] + pods[k + 1]]
        else:
            pods[k - 1 : k + 1] = [pods[k - 1] + pods[k]]
            k -= 1
    return pods


# How a pod is written where one word must name it (`Match.division`, TOM's pod categories).
_POD_KEYS = {
    (JUNIOR,): JUNIOR,
    (SENIOR,): SENIOR,
    (MASTERS,): MASTERS,
    (JUNIOR, SENIOR): "jr+sr",
    (SENIOR, MASTERS): "sr+ma",
    (JUNIOR, MASTERS): "jr+ma",  # an event without Seniors
    (JUNIOR, SENIOR, MASTERS): "all",
}
_POD_DIVISIONS = {key: pod for pod, key in _POD_KEYS.items()}


def pod_key(pod: tuple[str, ...]) -> str:
    """The one word for a pod of `combine_small_divisions`: its division, or ``jr+sr``,
    ``sr+ma``, ``jr+ma`` (no Seniors came), ``all``."""
    try:
        return _POD_KEYS[tuple(pod)]
    except KeyError:
        raise ValueError(f"not a pod: {pod!r}") from None


def pod_divisions(key: str) -> tuple[str, ...]:
    """The inverse of `pod_key`."""
    try:
        return _POD_DIVISIONS[key]
    except KeyError:
        raise ValueError(f"not a pod key: {key!r}") from None
