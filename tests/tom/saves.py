"""TOM saves built for tests with `tom.tdf`'s writer: one Masters pod, `players` players
(ids 7000001, ...) and `rounds` Swiss rounds paired by the circle method (no rematch while
rounds < players), every result given by `result(round, table)` (1 player1 won, 2 player2
won, 3 tie). A player holding an earned bye sits out round 1 with TOM's outcome 4; with an
odd count someone else gets a plain bye (outcome 5) in later rounds. `finalised` writes
TOM's standings in the `order` given (ids, best first)."""

from __future__ import annotations

from tom import tdf

STAMP = "10/04/2026 10:00:00"


def player_ids(players: int) -> list[str]:
    return [str(7000001 + i) for i in range(players)]


def _pairs(ids: list[str], number: int) -> list[tuple[str, str | None]]:
    ring = ids + ([None] if len(ids) % 2 else [])
    n = len(ring)
    rest = ring[1:]
    shift = (number - 1) % (n - 1)
    rest = rest[shift:] + rest[:shift]
    ring = [ring[0], *rest]
    return [(ring[i], ring[n - 1 - i]) for i in range(n // 2)]


def build(
    *,
    players: int,
    rounds: int,
    earned: tuple[str, ...] = (),
    result=lambda number, table: 1 + (number + table) % 2,
    order: list[str] | None = None,
    name: str = "Built Cup",
    sanction_id: str = "26-10-009999",
) -> tdf.Tournament:
    ids = player_ids(players)
    roster = [
        tdf.Player(
            userid=u,
            firstname="Player",
            lastname=str(i),
            birthdate="02/27/1990",
            creationdate=STAMP,
            lastmodifieddate=STAMP,
            byes=1 if u in earned else None,
        )
        for i, u in enumerate(ids, start=1)
    ]
    out_rounds = []
    for number in range(1, rounds + 1):
        matches, table = [], 0
        sitting = [u for u in ids if number == 1 and u in earned]
        playing = [u for u in ids if u not in sitting]
        for u in sitting:
            matches.append(
                tdf.Match(outcome=tdf.EARNED_BYE, timestamp=STAMP, tablenumber=0, player=u)
            )
        for a, b in _pairs(playing, number):
            if a is None or b is None:
                matches.append(
                    tdf.Match(outcome=tdf.BYE, timestamp=STAMP, tablenumber=0, player=a or b)
                )
                continue
            table += 1
            matches.append(
                tdf.Match(
                    outcome=result(number, table),
                    timestamp=STAMP,
                    tablenumber=table,
                    player1=a,
                    player2=b,
                )
            )
        out_rounds.append(
            tdf.Round(
                number=number,
                type=2,
                stage=8,
                timeleft=0,
                matches=matches,
                pairtime=STAMP,
                starttime=STAMP,
            )
        )
    pod = tdf.Pod(
        category=tdf.MASTERS,
        stage=0,
        subgroups=[tdf.Subgroup(number=1, players=ids)],
        rounds=out_rounds,
    )
    standings = None
    if order is not None:
        standings = [
            tdf.StandingsPod(
                category=tdf.MASTERS,
                type="finished",
                players=[tdf.Place(id=u, place=i) for i, u in enumerate(order, start=1)],
            ),
            tdf.StandingsPod(category=tdf.MASTERS, type="dnf"),
        ]
    return tdf.Tournament(
        type=2,
        stage=5 if standings else 4,
        version="1.86",
        gametype="TRADING_CARD_GAME",
        mode="LEAGUECHALLENGE",
        timeelapsed=0,
        data=tdf.EventData(
            name=name,
            id=sanction_id,
            city="Austin",
            state="TX",
            country="United States",
            roundtime=30,
            finalsroundtime=0,
            organizer=tdf.Organizer(popid="9000000", name="TO"),
            startdate="10/04/2026",
        ),
        players=roster,
        pods=[pod],
        standings=standings,
        finalsoptions=[tdf.CategoryCut(key=tdf.MASTERS, options=[0], cut=0, playercount=players)],
    )


def build_bytes(**kwargs) -> bytes:
    return tdf.write(build(**kwargs)).encode()
