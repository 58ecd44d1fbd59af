"""Factories of the matches app: rounds paired, played and closed through
`matches.services`, so the event's bookkeeping (its status, `swiss_rounds_paired`, the
standings, notifications, the page version) is what the site itself would write.

- `play_round(event, staff)`: pair the next round, start its clock, give every table a
  result (`winner`'s games, or `payload`) and close it.
- `play_swiss(event, staff)`: play rounds until the Swiss rounds of the event are done.
- `seat_round(event, pairs)`: a round with chosen pairings (registration pairs, `None` for
  a bye), recorded as a round paired elsewhere, then published (or left paired).
"""

from __future__ import annotations

from matches import services
from matches.models import Round


def _organiser(event):
    return event.season.league.organisers.first()


def play_round(event, staff=None, *, winner: str = "a", payload: dict | None = None) -> Round:
    """Pair, start the clock, enter every table's result as staff, close. `payload` is the
    result as `set_result` takes it; by default `winner` ("a" or "b") wins every game."""
    staff = staff or _organiser(event)
    round_ = services.pair_next_round(event=event, by_user=staff)
    services.start_clock(round_=round_, by_user=staff)
    if payload is None:
        payload = {"games": [{"outcome": winner}] * (event.best_of // 2 + 1)}
    for match in round_.matches.filter(player_b__isnull=False):
        services.set_result(match=match, by_user=staff, payload=payload)
    services.close_round(round_=round_, by_user=staff)
    return round_


def play_swiss(event, staff=None, **result) -> list[Round]:
    """Every Swiss round of the event (its structure by attendance), played as `play_round`."""
    rounds: list[Round] = []
    while not rounds or services.event_structure(event)[0] > len(rounds):
        rounds.append(play_round(event, staff, **result))
    return rounds


def seat_round(
    event,
    pairs,
    *,
    number: int = 1,
    division: str = "",
    stage: str = Round.Stage.SWISS,
    publish: bool = True,
    by_user=None,
) -> Round:
    """Round `number` with the chosen `pairs` of registrations (`None` as B for a bye, a
    final win as when the site pairs), at tables 1, 2, ... in order, through
    `record_paired_matches`; published unless `publish=False`."""
    by_user = by_user or _organiser(event)
    round_ = services.record_paired_matches(
        event=event,
        number=number,
        stage=stage,
        pairings=[
            (table, division, a.pk, b.pk if b is not None else None)
            for table, (a, b) in enumerate(pairs, start=1)
        ],
        by_user=by_user,
    )
    if publish:
        round_ = services.publish_round(round_=round_, by_user=by_user)
    return round_
