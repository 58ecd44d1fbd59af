"""Swiss standings with the Play! Pokémon tiebreakers, computed the way TOM computes them.

Order: match points, then Opponents' Win Percentage (OWP), then Opponents' Opponents' Win
Percentage (OOWP), then head-to-head (only when exactly two players are still tied and they
played each other), then a seeded random order.  Every number comes from a `RuleSet`
(`rules.scoring.PLAY_POKEMON` by default).  The definitions:

Match points
    ``win_points`` (3) per win, ``tie_points`` (1) per tie, ``loss_points`` (0) per loss.  A bye
    is a win: 3 points and a W in the W-L-T record, and so is an *earned* bye (one held before
    the event, ``MatchRecord.earned``).  A late entrant's forced loss is a loss.  A double game
    loss (``result`` "double_loss") is a loss for both players, who are each other's opponent
    like any pairing.

Win rate (of a player, as their opponents see it)
    ``(wins + tie_counts_as * ties) / rounds played``.  Ties enter as half a win
    (``tie_counts_as`` = 0.5): 2-1-1 over four rounds is (2 + 0.5) / 4 = 62.5 %.  A bye counts in
    neither the numerator nor the denominator; an earned bye counts as a won round (both,
    ``earned_bye_is_win``).  A late entrant's forced losses count as rounds played
    (``late_loss_counts_as_played``; TOM's data cannot tell either way: the one late entrant in
    the exports sits on the floor both ways).  The win rate is floored at ``owp_floor`` (25 %)
    and, for a player who dropped before the last Swiss round, capped at ``dropped_cap``
    (75 %).  A player with no rounds played has win rate 0 before the floor.

OWP
    The mean of the win rates of the player's opponents, one entry per match played (byes and
    forced losses have no opponent), plus one opponent at 100 % per earned bye.  A player with
    no opponents has OWP 0.

OOWP
    The mean of the opponents' OWPs, one entry per match played against a real opponent.

Dropped players
    ``dropped[id] = r`` means the player left after round ``r``.  Their win rate, OWP and OOWP are
    frozen at what they were after round ``r``: their own OWP uses their opponents' win rates as
    of round ``r`` (opponents who dropped earlier stay frozen at their own round), and every other
    player uses the frozen values.  A player who dropped before the event's last Swiss round
    (``swiss_rounds``, by default the last counted round) gets the 75 % cap; one who played
    every Swiss round and dropped after them does not.  Dropped players stay in the standings,
    ordered like everyone else; `rules.topcut.seeded_order` keeps them out of the top cut.

Finished players
    ``finished[id] = r`` means the player's event ended after round ``r`` without a drop: a
    two-day event's day-1 finisher, below the day-2 cut, who "finishes with their day-1
    standing".  They are frozen at round ``r`` exactly as a drop is (their own tiebreakers, and
    their win rate as their opponents see it), but the 75 % cap is for players who chose to
    leave: a finisher's win rate is never capped, and `Standing.dropped` stays false.  A player
    both dropped and finished counts as dropped.

Late entrants
    ``late[id] = r`` means the player registered while round ``r`` was running: rounds 1..r are
    forced losses (added here when the matches do not already contain them).

Comparison
    OWP and OOWP are compared exactly: all arithmetic is on integers over a common denominator,
    so no binary-float noise decides a place, and `Standing.owp` and ``oowp`` are the exact
    values as floats (pages show them with two decimals).  A `RuleSet` may instead round them
    before comparing (``tiebreak_decimals``, ``tiebreak_rounding``); TOM does not.

What the TOM exports show (tests/rules/test_tom_exports.py)
    With these definitions every division order of the 23 exports (35 with two players or
    more) is reproduced, once the top cut is seeded out as TOM does; 34 are fully determined
    by the results (the 35th has four no-shows with identical keys, ordered by TOM's lottery).
    Exact comparison is needed: half-even rounding to two decimals puts a 0.52 OWP level with
    a 0.525 one (cup-solo), and rounding binary floats turns 0.495 into 0.49
    (drop-after-swiss-cup).  Without the 25 % floor, ties as half a win, freezing dropped
    players at their drop round, the earned-bye rule or the cap's limit to drops before the
    last Swiss round, orders break.

`through_round` limits the computation to matches of rounds up to that number (standings as
they were after that round); a drop recorded after that round is not yet a drop.

The module is plain Python; ``python -m rules.standings`` reads a JSON request on stdin (see
`main`).
"""

from __future__ import annotations

import json
import random
import sys
from bisect import bisect_right
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from itertools import compress, repeat
from math import lcm
from operator import add, eq, mul, neg
from typing import Any

from rules._gc import gc_paused
from rules.errors import RulesError
from rules.scoring import PLAY_POKEMON, RuleSet
from rules.topcut import seeded_order

__all__ = ["MatchRecord", "Standing", "compute_standings", "main"]

RESULTS = ("a", "b", "tie", "double_loss")


@dataclass(frozen=True)
class MatchRecord:
    """One Swiss result.  ``b`` None with ``result`` "a" is a bye for ``a`` (``earned`` for a bye
    held before the event); ``b`` None with ``result`` "b" is a late entrant's forced loss."""

    round: int
    a: str
    b: str | None
    result: str  # "a" | "b" | "tie"
    earned: bool = False


@dataclass(frozen=True)
class Standing:
    id: str
    rank: int
    points: int
    wins: int
    losses: int
    ties: int
    owp: float
    oowp: float
    dropped: bool

    @property
    def record(self) -> str:
        return f"{self.wins}-{self.losses}-{self.ties}"


def _round_ratio(num: int, den: int, decimals: int, mode: str) -> int:
    """``num / den`` rounded to ``decimals`` places, as an integer count of 10**-decimals."""
    q, r = divmod(num * 10**decimals, den)
    if mode == "floor":
        return q
    twice = 2 * r
    if twice > den or (twice == den and (mode == "half_up" or q % 2 == 1)):
        return q + 1
    return q


def _check_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError("bad-input", f"{what} must be an integer, got {value!r}")
    return value


WIN, TIE, LOSS, BYE, FORCED = 0, 1, 2, 3, 4


def compute_standings(
    players: Sequence[str],
    matches: Sequence[MatchRecord],
    *,
    dropped: Mapping[str, int] | None = None,
    late: Mapping[str, int] | None = None,
    seed: int | str = 0,
    rules: RuleSet = PLAY_POKEMON,
    through_round: int | None = None,
    swiss_rounds: int | None = None,
    finished: Mapping[str, int] | None = None,
) -> list[Standing]:
    """Standings best first (see the module docstring for every definition).

    ``swiss_rounds`` is the number of Swiss rounds the event plays (the dropped-player cap
    applies only to drops before the last of them); it defaults to the last counted round.
    ``finished`` (id → round): players whose event ended after that round without a drop,
    frozen there like a drop but never capped."""
    computation = _Standings(
        players,
        matches,
        dropped or {},
        late or {},
        seed,
        rules,
        through_round,
        swiss_rounds,
        finished or {},
    )
    with gc_paused():
        return computation.run()


class _Standings:
    """One standings computation: exact integer arithmetic, written with list comprehensions
    and C-level builtins because it has to handle thousands of players in milliseconds."""

    def __init__(
        self, players, matches, dropped, late, seed, rules, through_round, swiss_rounds, finished
    ):
        self.players = players
        self.swiss_rounds = swiss_rounds
        self.matches = matches
        self.dropped = dropped
        self.late = late
        self.seed = seed
        self.rules = rules
        self.through_round = through_round
        self.finished: Mapping[str, int] = finished
        self.uncapped: frozenset[int] = frozenset()  # finished players: frozen, never capped

    # -- input ---------------------------------------------------------------------------

    def _read_players(self) -> None:
        players = self.players
        if isinstance(players, str) or not isinstance(players, Sequence):
            raise RulesError("bad-input", "players must be a sequence of ids")
        if not all(type(pid) is str and pid for pid in players):
            for pid in players:
                if not isinstance(pid, str) or not pid:
                    raise RulesError(
                        "bad-player-id", f"player ids must be non-empty strings, got {pid!r}"
                    )
        index = {pid: i for i, pid in enumerate(players)}
        if len(index) != len(players):
            seen: set[str] = set()
            for pid in players:
                if pid in seen:
                    raise RulesError("duplicate-player", f"player {pid!r} is listed twice")
                seen.add(pid)
        self.n = len(players)
        self.index = index
        for what, mapping, lowest in (
            ("dropped", self.dropped, 1),
            ("late", self.late, 0),
            ("finished", self.finished, 1),
        ):
            if not isinstance(mapping, Mapping):
                raise RulesError("bad-input", f"{what} must map player ids to round numbers")
            for pid, rnd in mapping.items():
                if pid not in index:
                    raise RulesError("unknown-player", f"{what} names unknown player {pid!r}")
                if _check_int(rnd, f"{what}[{pid!r}]") < lowest:
                    raise RulesError("bad-input", f"{what}[{pid!r}] must be a round number")
        if self.finished:
            # Frozen as drops are; the cap and the "dropped" mark are for drops only.
            self.uncapped = frozenset(index[p] for p in self.finished if p not in self.dropped)
            self.dropped = {**self.finished, **self.dropped}

    def _read_matches(self) -> None:
        matches = self.matches
        ms = matches if isinstance(matches, list) else list(matches)
        if not set(map(type, ms)) <= {MatchRecord}:
            for m in ms:
                if not isinstance(m, MatchRecord):
                    raise RulesError("bad-input", f"matches must be MatchRecord objects, got {m!r}")
        rnd = [m.round for m in ms]
        if not set(map(type, rnd)) <= {int}:
            for r in rnd:
                _check_int(r, "round")
        if rnd and min(rnd) < 1:
            raise RulesError("bad-input", f"round numbers start at 1, got {min(rnd)}")
        dropped, late, index, n = self.dropped, self.late, self.index, self.n
        if self.through_round is not None:
            last = _check_int(self.through_round, "through_round")
        else:
            last = max([max(rnd, default=0), *dropped.values(), *late.values(), 0])
        self.last = last
        if self.swiss_rounds is None:
            self.last_swiss = last
        else:
            self.last_swiss = _check_int(self.swiss_rounds, "swiss_rounds")
        if rnd and max(rnd) > last:
            ms = [m for m in ms if m.round <= last]
            rnd = [m.round for m in ms]
        if rnd != sorted(rnd):
            ms = sorted(ms, key=_by_round)
            rnd = [m.round for m in ms]
        res = [m.result for m in ms]
        if not set(map(type, res)) <= {str} or not set(res) <= _RESULT_SET:
            bad = next(r for r in res if not isinstance(r, str) or r not in _RESULT_SET)
            raise RulesError(
                "bad-result", f"result must be 'a', 'b', 'tie' or 'double_loss', got {bad!r}"
            )
        b_raw = [m.b for m in ms]
        try:
            a_all = [index[m.a] for m in ms]
            normal = [k for k, b in enumerate(b_raw) if b is not None]
            nb = [index[b_raw[k]] for k in normal]
        except (KeyError, TypeError):
            for pid in [m.a for m in ms] + [b for b in b_raw if b is not None]:
                if not isinstance(pid, str) or pid not in index:
                    raise RulesError(
                        "unknown-player", f"matches name unknown player {pid!r}"
                    ) from None
            raise
        if len(normal) == len(ms):
            na, nres, nrnd = a_all, res, rnd
        else:
            na = [a_all[k] for k in normal]
            nres = [res[k] for k in normal]
            nrnd = [rnd[k] for k in normal]
        if any(map(eq, na, nb)):
            raise RulesError("bad-input", "a player cannot play themselves")
        singles = [k for k, b in enumerate(b_raw) if b is None]
        byes = [a_all[k] for k in singles if res[k] == "a"]
        earned = (
            sorted((rnd[k], a_all[k]) for k in singles if res[k] == "a" and ms[k].earned)
            if self.rules.earned_bye_is_win
            else []
        )
        forced = [(a_all[k], rnd[k]) for k in singles if res[k] == "b"]
        if len(byes) + len(forced) != len(singles):
            raise RulesError(
                "bad-result", "a match without player b is a bye ('a') or a forced loss ('b')"
            )

        # Nobody has two results in one round.
        width = last + 1
        keyset = set(map(add, map(mul, a_all, repeat(width)), rnd))
        keyset.update(map(add, map(mul, nb, repeat(width)), nrnd))
        if len(keyset) != len(a_all) + len(nb):
            seen: set[int] = set()
            for key in [a * width + r for a, r in zip(a_all + nb, rnd + nrnd, strict=False)]:
                if key in seen:
                    i, r = divmod(key, width)
                    raise RulesError(
                        "duplicate-match",
                        f"player {self.players[i]!r} has two results in round {r}",
                    )
                seen.add(key)
        # Late entrants: a forced loss for each missed round not already recorded.
        for pid, lr in late.items():
            i = index[pid]
            for r in range(1, min(lr, last) + 1):
                if i * width + r not in keyset:
                    keyset.add(i * width + r)
                    forced.append((i, r))
        drop_at = [0] * n  # 0: not dropped as of `last`
        for pid, d in dropped.items():
            if d <= last:
                i = index[pid]
                drop_at[i] = d
                for r in range(d + 1, last + 1):
                    if i * width + r in keyset:
                        raise RulesError(
                            "match-after-drop",
                            f"player {pid!r} dropped after round {d} but has a result in round {r}",
                        )
        self.drop_at = drop_at

        # winner[k]: -1 for a tie, -2 for a double loss (a loss for each player).
        winner = [
            a if r == "a" else b if r == "b" else -1 if r == "tie" else -2
            for a, b, r in zip(na, nb, nres, strict=False)
        ]
        tie_players = [a for a, w in zip(na, winner, strict=False) if w == -1]
        tie_players += [b for b, w in zip(nb, winner, strict=False) if w == -1]
        self.wr_wins = list(map(Counter(winner).get, range(n), repeat(0)))
        self.ties = list(map(Counter(tie_players).get, range(n), repeat(0)))
        c_bye, c_forced = Counter(byes), Counter([i for i, _ in forced])
        self.wins = (
            [w + c_bye.get(i, 0) for i, w in enumerate(self.wr_wins)] if byes else self.wr_wins
        )
        # Opponents per player, in round order (the matches are sorted by round).
        opps: list[list[int]] = [[] for _ in range(n)]
        append_to = [o.append for o in opps]
        for a, b in zip(na, nb, strict=True):
            append_to[a](b)
            append_to[b](a)
        self.opps = opps
        self.losses = [
            len(o) - w - t for o, w, t in zip(opps, self.wr_wins, self.ties, strict=False)
        ]
        self.late_counts = lc = 1 if self.rules.late_loss_counts_as_played else 0
        self.wr_played = [len(o) for o in opps]
        for i, c in c_forced.items():
            self.losses[i] += c
            self.wr_played[i] += lc * c
        # An earned bye is a won round in the holder's own win rate and an opponent at 100 %
        # in the holder's OWP.
        self.earned = earned
        self.rate_wins = self.wr_wins
        self.virtual = [0] * n
        if earned:
            self.rate_wins = list(self.wr_wins)
            for _, i in earned:
                self.rate_wins[i] += 1
                self.wr_played[i] += 1
                self.virtual[i] += 1
        self.normal = (na, nb, nrnd, winner)
        self.forced = forced

    # -- tiebreakers -----------------------------------------------------------------------

    def _setup_units(self) -> None:
        rules = self.rules
        tie_value = RuleSet.exact(rules.tie_counts_as)
        floor_value = RuleSet.exact(rules.owp_floor)
        cap_value = RuleSet.exact(rules.dropped_cap)
        self.tnum, self.tden = tie_value.numerator, tie_value.denominator
        max_played = max(self.wr_played, default=0)
        big_l = lcm(
            self.tden * lcm(*range(1, max_played + 1)) if max_played else self.tden,
            floor_value.denominator,
            cap_value.denominator,
        )
        self.big_l = big_l
        self.floor_units = floor_value.numerator * (big_l // floor_value.denominator)
        self.cap_units = cap_value.numerator * (big_l // cap_value.denominator)
        self.per_played = [0] + [big_l // (self.tden * p) for p in range(1, max_played + 1)]
        max_opps = max(map(add, map(len, self.opps), self.virtual), default=0)
        self.big_m = lcm(*range(1, max_opps + 1)) if max_opps else 1
        self.m_over = [0] + [self.big_m // k for k in range(1, max_opps + 1)]

    def _tiebreakers(self) -> None:
        opps, m_over, drop_at = self.opps, self.m_over, self.drop_at
        tden, tnum, per = self.tden, self.tnum, self.per_played
        lo, hi = self.floor_units, self.cap_units
        raw = [
            (w * tden + t * tnum) * per[p]
            for w, t, p in zip(self.rate_wins, self.ties, self.wr_played, strict=True)
        ]
        wr = [v if v >= lo else lo for v in raw]
        last_swiss = self.last_swiss
        if any(0 < d < last_swiss for d in drop_at):
            uncapped = self.uncapped
            wr = [
                hi if 0 < d < last_swiss and v > hi and i not in uncapped else v
                for i, (v, d) in enumerate(zip(wr, drop_at, strict=True))
            ]
        self.wr_final = wr
        get = wr.__getitem__
        # OWP numerators over L*M, OOWP numerators over L*M*M (exact).
        owp = [sum(map(get, oi)) * m_over[len(oi)] for oi in opps]
        if self.earned:
            full = self.big_l
            for i, v in enumerate(self.virtual):
                if v:
                    oi = opps[i]
                    owp[i] = (sum(map(get, oi)) + v * full) * m_over[len(oi) + v]
        frozen_oowp = self._freeze(owp) if any(0 < d < self.last for d in drop_at) else {}
        get = owp.__getitem__
        oowp = [sum(map(get, oi)) * m_over[len(oi)] for oi in opps]
        for i, value in frozen_oowp.items():
            oowp[i] = value
        self.owp_num, self.oowp_num = owp, oowp

    def _freeze(self, owp: list[int]) -> dict[int, int]:
        """Players who dropped before the last round keep the OWP and OOWP they had after
        their drop round: replace those OWPs in `owp` and return those OOWPs."""
        n, drop_at, last, opps, m_over = self.n, self.drop_at, self.last, self.opps, self.m_over
        na, nb, nrnd, winner = self.normal
        tden, tnum, per = self.tden, self.tnum, self.per_played
        lo, hi = self.floor_units, self.cap_units
        by_round: dict[int, list[int]] = {}
        for i, d in enumerate(drop_at):
            if d:
                by_round.setdefault(d, []).append(i)
        # Running records after each round, updated match by match: win units (tden per
        # win, tnum per tie) and matches played. Win rates are then worked out only for the
        # players the drops of that round need (the dropped players' opponents).
        forced_rounds: dict[int, list[int]] = {}
        if self.late_counts:
            for i, r in self.forced:
                forced_rounds.setdefault(i, []).append(r)
            for rounds in forced_rounds.values():
                rounds.sort()
        units, count, virtual = [0] * n, [0] * n, [0] * n
        earned, next_earned, full = self.earned, 0, self.big_l
        capped: set[int] = set()
        frozen_owp: dict[int, int] = {}
        frozen_oowp: dict[int, int] = {}
        begin = 0
        for d in sorted(r for r in by_round if r < last):
            end = bisect_right(nrnd, d)
            for a, b, w in zip(na[begin:end], nb[begin:end], winner[begin:end], strict=True):
                count[a] += 1
                count[b] += 1
                if w >= 0:
                    units[w] += tden
                elif w == -1:
                    units[a] += tnum
                    units[b] += tnum
            begin = end
            while next_earned < len(earned) and earned[next_earned][0] <= d:
                i = earned[next_earned][1]
                units[i] += tden
                virtual[i] += 1
                next_earned += 1
            now = by_round[d]
            if d < self.last_swiss:
                capped.update(i for i in now if i not in self.uncapped)
            wr_d: dict[int, int] = {}

            def win_rate(i: int, d: int = d, wr_d: dict[int, int] = wr_d) -> int:
                value = wr_d.get(i)
                if value is None:
                    played = count[i] + virtual[i]
                    if i in forced_rounds:
                        played += bisect_right(forced_rounds[i], d)
                    value = units[i] * per[played]
                    if value < lo:
                        value = lo
                    elif value > hi and i in capped:
                        value = hi
                    wr_d[i] = value
                return value

            # OWP as of round d of the players dropping now and of their opponents (those who
            # dropped earlier keep their frozen OWP).
            needed = {o for i in now for o in opps[i] if not 0 < drop_at[o] < d}
            needed.update(now)
            owp_d = {
                o: (sum(map(win_rate, opps[o][: count[o]])) + virtual[o] * full)
                * m_over[count[o] + virtual[o]]
                for o in needed
            }
            for i in now:
                oi = opps[i]
                frozen_oowp[i] = (
                    sum([frozen_owp[o] if 0 < drop_at[o] < d else owp_d[o] for o in oi])
                    * m_over[len(oi)]
                )
            for i in now:
                frozen_owp[i] = owp_d[i]
        for i, value in frozen_owp.items():
            owp[i] = value
        return frozen_oowp

    # -- order -----------------------------------------------------------------------------

    def run(self) -> list[Standing]:
        self._read_players()
        self._read_matches()
        self._setup_units()
        self._tiebreakers()
        n, rules = self.n, self.rules
        den_owp = self.big_l * self.big_m
        den_oowp = den_owp * self.big_m
        decimals = rules.tiebreak_decimals
        if decimals is None:
            owp_key, oowp_key = self.owp_num, self.oowp_num
            owp_out = [x / den_owp for x in owp_key]
            oowp_out = [x / den_oowp for x in oowp_key]
        else:
            mode = rules.tiebreak_rounding
            owp_key = _round_all(self.owp_num, den_owp, decimals, mode)
            oowp_key = _round_all(self.oowp_num, den_oowp, decimals, mode)
            scale = 10**decimals
            owp_out = [x / scale for x in owp_key]
            oowp_out = [x / scale for x in oowp_key]

        wp, tp, lp = rules.win_points, rules.tie_points, rules.loss_points
        points = [
            w * wp + t * tp + lo * lp
            for w, t, lo in zip(self.wins, self.ties, self.losses, strict=True)
        ]

        players = self.players
        # The lottery for exact ties: a seeded random number per player, drawn in id order.
        draw = random.Random(f"{self.seed}:standings").random
        position = [0.0] * n
        for i in sorted(range(n), key=players.__getitem__):
            position[i] = draw()

        keys = list(zip(points, owp_key, oowp_key, strict=True))
        sort_keys = list(
            zip(map(neg, points), map(neg, owp_key), map(neg, oowp_key), position, strict=True)
        )
        order = sorted(range(n), key=sort_keys.__getitem__)

        # Head-to-head: only for a group of exactly two tied players who played each other.
        ordered_keys = [keys[i] for i in order]
        same_as_next = [*map(eq, ordered_keys, ordered_keys[1:]), False]
        duels = [
            start
            for start in compress(range(n - 1), same_as_next)
            if (start == 0 or not same_as_next[start - 1])
            and not same_as_next[start + 1]
            and order[start + 1] in self.opps[order[start]]
        ]
        if duels:
            score = self._head_to_head([(order[k], order[k + 1]) for k in duels])
            for k in duels:
                if score[(order[k], order[k + 1])] < 0:
                    order[k], order[k + 1] = order[k + 1], order[k]

        drop_at, wins, losses, ties = self.drop_at, self.wins, self.losses, self.ties
        uncapped = self.uncapped
        make = _standing_factory()
        return [
            make(
                players[i],
                rank,
                points[i],
                wins[i],
                losses[i],
                ties[i],
                owp_out[i],
                oowp_out[i],
                drop_at[i] > 0 and i not in uncapped,
            )
            for rank, i in enumerate(order, start=1)
        ]

    def _head_to_head(self, duels: list[tuple[int, int]]) -> dict[tuple[int, int], int]:
        """For each (x, y): > 0 if x won more of their matches against y than y did, < 0 for
        the reverse, 0 otherwise."""
        na, nb, _, winner = self.normal
        n = self.n
        score = dict.fromkeys(duels, 0)
        wanted = {x * n + y: (x, y) for x, y in duels}
        wanted.update({y * n + x: (x, y) for x, y in duels})
        keys = list(map(add, map(mul, na, repeat(n)), nb))
        for k in compress(range(len(keys)), map(wanted.__contains__, keys)):
            w = winner[k]
            if w >= 0:
                duel = wanted[keys[k]]
                score[duel] += 1 if w == duel[0] else -1
        return score


def _round_all(values: list[int], den: int, decimals: int, mode: str) -> list[int]:
    """`_round_ratio` for a whole list."""
    scale = 10**decimals
    if mode == "floor":
        return [x * scale // den for x in values]
    pairs = [divmod(x * scale, den) for x in values]
    if mode == "half_up":
        return [q + (2 * r >= den) for q, r in pairs]
    return [q + (2 * r > den or (2 * r == den and q & 1)) for q, r in pairs]


def _standing_factory():
    """Build `Standing`s without the frozen dataclass's per-field ``object.__setattr__`` calls
    (a third of the time for thousands of players); the result is an ordinary instance."""
    new = object.__new__
    set_attribute = object.__setattr__

    def make(pid, rank, points, wins, losses, ties, owp, oowp, dropped):
        standing = new(Standing)
        set_attribute(
            standing,
            "__dict__",
            {
                "id": pid,
                "rank": rank,
                "points": points,
                "wins": wins,
                "losses": losses,
                "ties": ties,
                "owp": owp,
                "oowp": oowp,
                "dropped": dropped,
            },
        )
        return standing

    return make


def _by_round(m: MatchRecord) -> int:
    return m.round


_RESULT_SET = frozenset(RESULTS)


# -- command line ------------------------------------------------------------------------------


def _request_from_json(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RulesError("bad-input", "the request must be a JSON object")
    players = data.get("players")
    if not isinstance(players, list):
        raise RulesError("bad-input", "'players' must be a list of ids")
    raw_matches = data.get("matches", [])
    if not isinstance(raw_matches, list):
        raise RulesError("bad-input", "'matches' must be a list")
    matches = []
    for position, m in enumerate(raw_matches):
        if not isinstance(m, dict):
            raise RulesError("bad-input", f"match {position} must be an object")
        try:
            matches.append(
                MatchRecord(
                    round=m["round"],
                    a=m["a"],
                    b=m.get("b"),
                    result=m["result"],
                    earned=bool(m.get("earned", False)),
                )
            )
        except KeyError as exc:
            raise RulesError("bad-input", f"match {position} lacks {exc.args[0]!r}") from None
    dropped_ids = data.get("dropped", [])
    drop_round = data.get("drop_round", {})
    if not isinstance(dropped_ids, list) or not isinstance(drop_round, dict):
        raise RulesError("bad-input", "'dropped' must be a list and 'drop_round' an object")
    last_round = max([m.round for m in matches if isinstance(m.round, int)] + [0])
    dropped = {}
    for pid in dropped_ids:
        dropped[pid] = drop_round.get(pid, last_round)
    for pid, rnd in drop_round.items():
        dropped.setdefault(pid, rnd)
    late = data.get("late", {})
    if not isinstance(late, dict):
        raise RulesError("bad-input", "'late' must be an object")
    finished = data.get("finished", {})
    if not isinstance(finished, dict):
        raise RulesError("bad-input", "'finished' must be an object")
    top_cut = data.get("top_cut", 0)
    if isinstance(top_cut, bool) or not isinstance(top_cut, int) or top_cut < 0:
        raise RulesError("bad-input", "'top_cut' must be a whole number of players")
    return {
        "players": players,
        "matches": matches,
        "dropped": dropped,
        "late": late,
        "finished": finished,
        "seed": data.get("seed", 0),
        "through_round": data.get("through_round"),
        "swiss_rounds": data.get("swiss_rounds"),
        "top_cut": top_cut,
    }


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m rules.standings`` < request.json

    Request: ``{"players": [ids], "matches": [{"round", "a", "b" (id or null), "result"
    ("a" | "b" | "tie"), "earned" (optional)}], "dropped": [ids], "drop_round": {id: round},
    "late": {id: round}, "finished" (optional: {id: round}), "seed" (optional),
    "through_round" (optional), "swiss_rounds" (optional), "top_cut" (optional: the cut's
    size)}``.  A dropped player without a
    ``drop_round`` dropped after the last round.  Prints ``{"standings": [{"id", "rank",
    "seed", "points", "record", "owp", "oowp", "dropped"}, ...]}``: with a top cut, its seeds
    first (``seed`` 1..size; a dropped player gets none), then everyone else in standings
    order (`rules.topcut.seeded_order`).  Bad input: one line on stderr, exit status 2.
    """
    try:
        try:
            data = json.load(sys.stdin)
        except json.JSONDecodeError as exc:
            raise RulesError("bad-json", f"stdin is not valid JSON ({exc})") from None
        request = _request_from_json(data)
        standings = compute_standings(
            request["players"],
            request["matches"],
            dropped=request["dropped"],
            late=request["late"],
            seed=request["seed"],
            through_round=request["through_round"],
            swiss_rounds=request["swiss_rounds"],
            finished=request["finished"],
        )
        by_id = {s.id: s for s in standings}
        order = seeded_order(
            [s.id for s in standings], request["top_cut"], [s.id for s in standings if s.dropped]
        )
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    seeds = {pid: k for k, pid in enumerate(order[: request["top_cut"]], start=1)}
    out = {
        "standings": [
            {
                "id": s.id,
                "rank": s.rank,
                "seed": seeds.get(s.id),
                "points": s.points,
                "record": s.record,
                "owp": s.owp,
                "oowp": s.oowp,
                "dropped": s.dropped,
            }
            for s in map(by_id.__getitem__, order)
        ]
    }
    json.dump(out, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
