"""Swiss pairings for Play! Pokémon tournaments.

`pair_round` pairs one Swiss round.  What it guarantees, in order of priority:

1. Dropped players are never paired; every other player is paired exactly once, or gets the
   one bye when their number is odd.
2. The bye goes to a player of the lowest point group that holds someone without a bye yet,
   and to one of those who has not had a bye (if every active player has had one: the lowest
   group).  These two rules are hard constraints.
3. No rematch, whenever some pairing (with a bye as in 2) avoids all rematches; otherwise as
   few rematches as possible.
4. Among those pairings, the smallest total point difference ``sum(|points_a - points_b|)``:
   players meet opponents on equal match points, and a point group with an odd player out
   pairs one player down into the next group.
5. Then the smallest sum of squared differences (a player is paired down one group rather than
   two), then late entrants as the preferred pair-down and bye candidates of their group
   (``late``: "paired below others on the same points"), then a random choice.  Within a point
   group the pairing is random, never by tiebreakers; round 1 is random.

Randomness comes only from ``random.Random(f"{seed}:{round_number}")`` and the players are
put in a canonical order first, so the same input and seed give the same pairings.

How it is fast and still exact
------------------------------
The field is split into point groups, processed top down.  Each group, together with the
players floated down from above, is paired by a seeded shuffle and a greedy pass, repaired by
short alternating swaps and, if needed, by Edmonds' maximum-cardinality matching on that group
(`rules.matching`); whoever is left over floats to the next group.  That costs about linear time.

The result is then *certified*.  Its point difference is ``sum(gap_g * c_g)`` over the gaps
between consecutive point groups, ``c_g`` being the number of pairs across gap ``g``.  In any
pairing ``c_g`` has the parity of the number of players above the gap (the bye counts as a
player of its group), and for any run W of consecutive point groups, the players of W that
cannot be paired among themselves without a rematch (``|W| - 2 * matching number``, computed
exactly with Edmonds' algorithm) must cross one of W's two boundary gaps.  Where the fast
pairing crosses a gap more often than the parity asks, those constraints (for runs of up to
`CERTIFY_WINDOW` groups near it and for everything above and below it) feed a small dynamic
programme over the gaps whose minimum is a lower bound for every rematch-free pairing.  A
rematch-free pairing meeting it is optimal for rules 3 and 4; rule 5 is then followed as far as
the greedy pass gets it (a pair-down goes one group, a late entrant floats first).

When the certificate fails, fields of up to `EXACT_LIMIT` players are re-paired by an exact
minimum-cost perfect matching (Edmonds' weighted blossom algorithm, O(n^3)) with the whole
priority list, rule 5 included, encoded in integer edge costs; larger fields re-pair exactly
the regions around the failing gaps, and if that still cannot be certified, fields of up to
`FALLBACK_LIMIT` players are solved exactly as a whole (a second or two).  Beyond that a
field that is neither certified nor exactly solved keeps the best pairing found, and
`pair_round_with_report` says so.  Tests compare the results with exhaustive search.

``python -m rules.swiss`` reads ``{"round": r, "seed": s, "players": [{"id", "points",
"opponents", "had_bye", "dropped", "late"}]}`` on stdin and prints ``{"pairings": [[a, b], ...],
"bye": id or null}``; bad input prints one line on stderr and exits with status 2.
"""

from __future__ import annotations

import json
import random
import sys
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from rules._gc import gc_paused
from rules.errors import RulesError
from rules.matching import max_cardinality_matching as _max_cardinality_matching
from rules.matching import max_weight_matching as _max_weight_matching

__all__ = [
    "EXACT_LIMIT",
    "PairingPlayer",
    "PairingReport",
    "PairingResult",
    "assign_tables",
    "main",
    "minimum_point_difference",
    "pair_round",
    "pair_round_with_report",
    "pairing_warnings",
]

EXACT_LIMIT = 64  # fields up to this size are solved exactly when the fast path is not certified
REGION_LIMIT = 56  # size of the regions re-solved exactly in larger fields
FALLBACK_LIMIT = 160  # up to this size, a field the regions could not certify is solved exactly
POOL_EDMONDS_LIMIT = 800  # largest point group repaired with Edmonds' algorithm
CERTIFY_SIDE_LIMIT = 800  # largest set of players whose matching number the certificate computes
CERTIFY_WINDOW = 3  # longest run of point groups the certificate examines as a window
RANDOM_SPREAD = 1 << 10  # range of the random tie-break in exact solves


@dataclass(frozen=True)
class PairingPlayer:
    """A player as the pairing sees them.  ``late``: entered after round 1 (paired below the
    others on the same points).  Opponent ids that are not in the field are ignored."""

    id: str
    points: int
    opponents: tuple[str, ...] = ()
    had_bye: bool = False
    dropped: bool = False
    late: bool = False


@dataclass(frozen=True)
class PairingResult:
    """``pairings`` (higher points first within a pair, top tables first), the ``bye`` (or None),
    and the quality figures: rematches, pairs between different point totals, and the total
    point difference over all pairs."""

    pairings: tuple[tuple[str, str], ...]
    bye: str | None
    rematches: int
    pair_downs: int
    point_difference: int


@dataclass(frozen=True)
class PairingReport:
    """How a pairing was found.

    ``certified``: proved optimal for "no avoidable rematch, then least point difference",
    either by the certificate or because the exact solver produced it.  ``lower_bound``: the
    point difference the point groups alone force (parities only, rematches ignored).
    ``proven_bound``: the lower bound the certificate proved for rematch-free pairings (at least
    ``lower_bound``; None when the final pairing has rematches or no bound was needed because
    the exact solver ran).  ``method``: "fast", "exact" or "regions"."""

    certified: bool
    lower_bound: int
    method: str
    proven_bound: int | None = None


def pair_round(
    round_number: int, players: Sequence[PairingPlayer], seed: int | str
) -> PairingResult:
    """Pair one Swiss round (see the module docstring for the rules and their priority)."""
    return pair_round_with_report(round_number, players, seed)[0]


def pair_round_with_report(
    round_number: int, players: Sequence[PairingPlayer], seed: int | str
) -> tuple[PairingResult, PairingReport]:
    """`pair_round`, plus how the result was obtained and whether it is proved optimal."""
    with gc_paused():
        return _Pairing(round_number, players, seed).run()


def minimum_point_difference(players: Sequence[PairingPlayer]) -> int:
    """The total point difference the point groups force on any pairing (ignoring rematches):
    every gap between consecutive point groups is crossed at least once when an odd number of
    players (counting the bye) sits above it."""
    pairing = _Pairing(1, players, 0)
    return pairing.parity_bound()


def _check_int(value: Any, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError("bad-input", f"{what} must be an integer, got {value!r}")
    return value


class _Pairing:
    """One pairing problem.  Nodes 0..n-1 are the active players sorted by id; node n is the
    bye (a phantom player that may only meet bye-eligible players) when n is odd."""

    def __init__(self, round_number: int, players: Sequence[PairingPlayer], seed: int | str):
        _check_int(round_number, "round_number")
        if round_number < 1:
            raise RulesError("bad-input", f"round numbers start at 1, got {round_number}")
        if not isinstance(seed, int | str) or isinstance(seed, bool):
            raise RulesError("bad-input", f"seed must be an int or a string, got {seed!r}")
        if isinstance(players, str | bytes) or not isinstance(players, Sequence):
            raise RulesError("bad-input", "players must be a sequence of PairingPlayer")
        for p in players:
            if type(p) is not PairingPlayer and not isinstance(p, PairingPlayer):
                raise RulesError("bad-input", f"players must be PairingPlayer objects, got {p!r}")
            if type(p.id) is not str or not p.id:
                raise RulesError("bad-player-id", f"player ids must be non-empty strings: {p.id!r}")
            if type(p.points) is not int:
                _check_int(p.points, f"points of {p.id!r}")
            if type(p.opponents) is not tuple and (
                isinstance(p.opponents, str) or not isinstance(p.opponents, Sequence)
            ):
                raise RulesError("bad-input", f"opponents of {p.id!r} must be a sequence of ids")
            if not (type(p.had_bye) is type(p.dropped) is type(p.late) is bool):
                raise RulesError("bad-input", f"the flags of {p.id!r} must be true or false")
        if len({p.id for p in players}) != len(players):
            seen: set[str] = set()
            for p in players:
                if p.id in seen:
                    raise RulesError("duplicate-player", f"player {p.id!r} is listed twice")
                seen.add(p.id)

        active = sorted((p for p in players if not p.dropped), key=lambda p: p.id)
        self.active = active
        n = self.n = len(active)
        index = {p.id: i for i, p in enumerate(active)}
        self.pts = [p.points for p in active]
        self.late = [p.late for p in active]
        # opp[i]: the players i lists as opponents (the relation is read both ways, see met()).
        try:
            opp = [{index[o] for o in p.opponents if o in index} for p in active]
        except TypeError:
            raise RulesError("bad-input", "opponent ids must be strings") from None
        for i, s in enumerate(opp):
            s.discard(i)
        self.opp = opp
        self.rng = random.Random(f"{seed}:{round_number}")

        # The bye: a phantom node n, allowed only next to the bye-eligible players.
        self.phantom = -1
        self.eligible: set[int] = set()
        if n % 2:
            fresh = [i for i in range(n) if not active[i].had_bye]
            pool = fresh or list(range(n))
            lowest = min(self.pts[i] for i in pool)
            self.eligible = {i for i in pool if self.pts[i] == lowest}
            self.phantom = n
            self.pts.append(lowest)
            self.late.append(False)
            opp.append(set())
        size = self.size = len(self.pts)

        # Point groups, best first; within a group a seeded shuffle, late entrants last.
        levels = sorted(set(self.pts), reverse=True)
        self.levels = levels
        level_index = {pts: b for b, pts in enumerate(levels)}
        self.group_of = [level_index[self.pts[v]] for v in range(size)]
        groups: list[list[int]] = [[] for _ in levels]
        for v in range(n):
            groups[self.group_of[v]].append(v)
        for group in groups:
            self.rng.shuffle(group)
            group.sort(key=self.late.__getitem__)
        self.groups = groups

    # -- basics ----------------------------------------------------------------------------

    def allowed(self, u: int, v: int) -> bool:
        """May u and v meet without a rematch (and, for the bye, within the bye rules)?"""
        if u == self.phantom:
            return v in self.eligible
        if v == self.phantom:
            return u in self.eligible
        return v not in self.opp[u] and u not in self.opp[v]

    def met(self, u: int, v: int) -> bool:
        """Have u and v played each other (as listed by either of them)?"""
        return v in self.opp[u] or u in self.opp[v]

    def parity_bound(self) -> int:
        levels = self.levels
        return sum(levels[g] - levels[g + 1] for g, odd in enumerate(self._parities()) if odd)

    def _bye_group(self) -> int:
        return self.group_of[self.phantom] if self.phantom >= 0 else -1

    def run(self) -> tuple[PairingResult, PairingReport]:
        if self.size == 0:
            return PairingResult((), None, 0, 0, 0), PairingReport(True, 0, "fast", 0)
        pairs = self._fast()
        method = "fast"
        certified, bound = self._certify(pairs)
        if not certified:
            if self.size <= EXACT_LIMIT:
                pairs = self._exact(list(range(self.size)))
                method = "exact"
                certified, bound = True, None
            else:
                pairs = self._improve_regions(pairs)
                method = "regions"
                certified, bound = self._certify(pairs)
                if not certified and self.size <= FALLBACK_LIMIT:
                    pairs = self._exact(list(range(self.size)))
                    method = "exact"
                    certified, bound = True, None
        result = self._result(pairs)
        return result, PairingReport(certified, self.parity_bound(), method, bound)

    def _result(self, pairs: list[tuple[int, int]]) -> PairingResult:
        active, pts, opp, phantom = self.active, self.pts, self.opp, self.phantom
        bye = None
        table = []
        rematches = downs = difference = 0
        for u, v in pairs:
            if phantom in (u, v):
                bye = active[v if u == phantom else u].id
                continue
            if pts[u] < pts[v] or (pts[u] == pts[v] and active[u].id > active[v].id):
                u, v = v, u
            if v in opp[u] or u in opp[v]:
                rematches += 1
            gap = pts[u] - pts[v]
            if gap:
                downs += 1
                difference += gap
            table.append((-pts[u], -pts[v], active[u].id, active[v].id))
        table.sort()
        return PairingResult(
            pairings=tuple((a, b) for _, _, a, b in table),
            bye=bye,
            rematches=rematches,
            pair_downs=downs,
            point_difference=difference,
        )

    # -- fast path -------------------------------------------------------------------------

    def _fast(self) -> list[tuple[int, int]]:
        pairs: list[tuple[int, int]] = []
        floaters: list[int] = []
        bye_group = self._bye_group()
        for b, members in enumerate(self.groups):
            front = [self.phantom, *floaters] if b == bye_group else floaters
            got, floaters = self._pair_pool(front, members)
            pairs += got
        if floaters:
            pairs += self._pair_leftovers(floaters)
        return pairs

    def _pair_pool(
        self, front: list[int], members: list[int]
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """Pair the players floated into a point group (`front`, best first; the bye first)
        with the group's `members`; return the pairs and who floats on (best first)."""
        allowed, opp, phantom = self.allowed, self.opp, self.phantom
        used: set[int] = set()
        pairs: list[tuple[int, int]] = []
        left_front: list[int] = []
        for f in front:
            # The bye takes the last eligible member (late entrants sit last); a floater the
            # first member it has not met.
            for m in reversed(members) if f == phantom else members:
                if m not in used and allowed(f, m):
                    used.add(m)
                    pairs.append((f, m))
                    break
            else:
                left_front.append(f)
        # Each remaining member in turn meets the next one it has not played; `rest` is kept
        # reversed so that taking the next member is a cheap pop from the end.
        rest = [m for m in reversed(members) if m not in used]
        left_members: list[int] = []
        while rest:
            u = rest.pop()
            ou = opp[u]
            for k in range(len(rest) - 1, -1, -1):
                v = rest[k]
                if v not in ou and u not in opp[v]:
                    del rest[k]
                    pairs.append((u, v))
                    break
            else:
                left_members.append(u)
        unpaired = left_front + left_members
        target = (len(front) + len(members)) % 2
        if len(unpaired) > target or left_front:
            pairs, unpaired = self._repair(front, members, pairs, unpaired, target)
        return pairs, unpaired

    def _repair(self, front, members, pairs, unpaired, target):
        """Fewer leftovers by direct pairs, two-pair swaps, then Edmonds' algorithm; a floater
        from above also displaces a member of this group (so it drops only one group)."""
        allowed = self.allowed
        front_set = set(front)
        changed = True
        while changed and len(unpaired) > target:
            changed = False
            for a in range(len(unpaired)):
                for b in range(a + 1, len(unpaired)):
                    u, v = unpaired[a], unpaired[b]
                    if allowed(u, v):
                        pairs.append((u, v))
                        unpaired = [x for x in unpaired if x != u and x != v]
                        changed = True
                        break
                    swap = self._swap(pairs, u, v)
                    if swap is not None:
                        unpaired = [x for x in unpaired if x != u and x != v]
                        changed = True
                        break
                if changed:
                    break
        if len(unpaired) > target and len(front) + len(members) <= POOL_EDMONDS_LIMIT:
            pairs, unpaired = self._pool_edmonds(front, members, pairs)
        # A floater left over takes the place of a member, who floats instead (preferably a
        # late entrant): the floater then drops one point group, not two.
        member_set = set(members)
        late = self.late
        for f in [x for x in unpaired if x in front_set]:
            moves = [
                (not late[y], k, x, y)
                for k, (a, b) in enumerate(pairs)
                if a in member_set and b in member_set
                for x, y in ((a, b), (b, a))
                if allowed(f, x)
            ]
            if moves:
                _, k, x, y = min(moves)
                pairs[k] = (f, x)
                unpaired = [y if z == f else z for z in unpaired]
        order = {v: k for k, v in enumerate(front + members)}
        unpaired.sort(key=order.__getitem__)
        return pairs, unpaired

    def _swap(self, pairs, u, v):
        """Replace some pair (x, y) by (u, x), (v, y) or (u, y), (v, x); None if impossible."""
        allowed = self.allowed
        start = self.rng.randrange(len(pairs)) if pairs else 0
        for step in range(len(pairs)):
            k = (start + step) % len(pairs)
            x, y = pairs[k]
            if allowed(u, x) and allowed(v, y):
                pairs[k] = (u, x)
                pairs.append((v, y))
                return k
            if allowed(u, y) and allowed(v, x):
                pairs[k] = (u, y)
                pairs.append((v, x))
                return k
        return None

    def _pool_edmonds(self, front, members, pairs):
        pool = front + members
        local = {v: k for k, v in enumerate(pool)}
        mate = [-1] * len(pool)
        for x, y in pairs:
            mate[local[x]] = local[y]
            mate[local[y]] = local[x]
        allowed = self.allowed

        def adjacent(k: int) -> list[int]:
            v = pool[k]
            return [j for j, u in enumerate(pool) if j != k and allowed(v, u)]

        _max_cardinality_matching(len(pool), adjacent, mate)
        new_pairs = [(pool[k], pool[j]) for k, j in enumerate(mate) if j > k]
        unpaired = [pool[k] for k, j in enumerate(mate) if j < 0]
        return new_pairs, unpaired

    def _pair_leftovers(self, left: list[int]) -> list[tuple[int, int]]:
        """Players nobody below could take: as many rematch-free pairs as possible among
        them, the rest as rematches (the certificate then fails and an exact solve follows)."""
        mate = [-1] * len(left)
        allowed = self.allowed
        _max_cardinality_matching(
            len(left),
            lambda k: [j for j, u in enumerate(left) if j != k and allowed(left[k], u)],
            mate,
        )
        pairs = [(left[k], left[j]) for k, j in enumerate(mate) if j > k]
        single = [left[k] for k, j in enumerate(mate) if j < 0]
        phantom = self.phantom
        if phantom in single:  # keep the bye with an eligible player if at all possible
            single.remove(phantom)
            single.insert(0, phantom)
        pairs += list(zip(single[::2], single[1::2], strict=True))
        return pairs

    # -- certificate -----------------------------------------------------------------------

    def crossings(self, pairs: list[tuple[int, int]]) -> list[int]:
        """c[g]: number of pairs crossing the gap between point groups g and g + 1."""
        k = len(self.levels)
        delta = [0] * (k + 1)
        group_of = self.group_of
        for u, v in pairs:
            a, b = group_of[u], group_of[v]
            if a != b:
                if a > b:
                    a, b = b, a
                delta[a] += 1
                delta[b] -= 1
        out = []
        running = 0
        for g in range(k - 1):
            running += delta[g]
            out.append(running)
        return out

    def _certify(self, pairs: list[tuple[int, int]]) -> tuple[bool, int | None]:
        """(proved optimal?, lower bound): `pairs` is optimal for rules 3 and 4 when it has
        no rematch and its point difference equals a lower bound every rematch-free pairing
        obeys."""
        if any(not self.allowed(u, v) for u, v in pairs):
            return False, None
        counts = self.crossings(pairs)
        parity = self._parities()
        gaps = [self.levels[g] - self.levels[g + 1] for g in range(len(counts))]
        cost = sum(c * gap for c, gap in zip(counts, gaps, strict=True))
        if all(c == p for c, p in zip(counts, parity, strict=True)):
            return True, cost
        bound = self._crossing_bound(pairs, counts, parity, gaps)
        return cost <= bound, bound

    def _parities(self) -> list[int]:
        sizes = [len(g) for g in self.groups]
        if self.phantom >= 0:
            sizes[self._bye_group()] += 1
        out = []
        above = 0
        for size in sizes[:-1]:
            above += size
            out.append(above % 2)
        return out

    def _crossing_bound(self, pairs, counts, parity, gaps) -> int:
        """A lower bound on ``sum(gap_g * c_g)`` over rematch-free pairings, where c_g counts
        the pairs across gap g.  Every c_g has the parity of the players above the gap, and for
        any window W of consecutive point groups, the players of W that cannot be paired
        inside W (``|W| - 2 * matching number``, Edmonds) must cross one of W's two boundary
        gaps.  Windows of up to `CERTIFY_WINDOW` groups near the gaps where the fast pairing
        exceeds the parity, and the windows reaching the top or the bottom of the field at
        those gaps, give the constraints; a small dynamic programme over the gaps finds the
        cheapest crossing counts satisfying them."""
        k = len(self.levels)
        excess = [g for g in range(k - 1) if counts[g] > parity[g]]
        group_nodes = [list(group) for group in self.groups]
        if self.phantom >= 0:
            group_nodes[self._bye_group()].append(self.phantom)
        windows: dict[tuple[int, int], int] = {}

        def deficiency(i: int, j: int) -> int | None:
            if (i, j) not in windows:
                nodes = [v for b in range(i, j + 1) for v in group_nodes[b]]
                if len(nodes) > CERTIFY_SIDE_LIMIT:
                    windows[(i, j)] = -1
                else:
                    windows[(i, j)] = len(nodes) - 2 * self._matching_number(nodes, pairs)
            value = windows[(i, j)]
            return None if value < 0 else value

        for g in excess:
            deficiency(0, g)
            deficiency(g + 1, k - 1)
            for i in range(max(0, g - CERTIFY_WINDOW + 1), min(k, g + CERTIFY_WINDOW + 1)):
                for j in range(i, min(k, i + CERTIFY_WINDOW)):
                    deficiency(i, j)
        low = list(parity)
        pair_constraints: dict[int, list[tuple[int, int]]] = {}  # right gap -> (left gap, need)
        for (i, j), need in windows.items():
            if need < 0:
                continue
            if i == 0 and j == k - 1:
                continue
            if i == 0:
                low[j] = max(low[j], need)
            elif j == k - 1:
                low[i - 1] = max(low[i - 1], need)
            else:
                pair_constraints.setdefault(j, []).append((i - 1, need))
        needs = [0] * (k - 1)  # the largest requirement a pair constraint puts on each gap
        for right, constraints in pair_constraints.items():
            for left, need in constraints:
                needs[right] = max(needs[right], need)
                needs[left] = max(needs[left], need)
        domains = []
        for g in range(k - 1):
            start = low[g] + ((low[g] - parity[g]) % 2)
            domains.append(list(range(start, max(start, needs[g]) + 2, 2)))
        states: dict[tuple[int, ...], int] = {(): 0}
        for g in range(k - 1):
            nxt: dict[tuple[int, ...], int] = {}
            for state, cost in states.items():
                for value in domains[g]:
                    ok = True
                    for left, need in pair_constraints.get(g, ()):
                        if state[left - g] + value < need:
                            ok = False
                            break
                    if not ok:
                        continue
                    key = (*state, value)[-CERTIFY_WINDOW:]
                    total = cost + value * gaps[g]
                    if total < nxt.get(key, total + 1):
                        nxt[key] = total
            states = nxt
        return min(states.values())

    def _matching_number(self, nodes: list[int], pairs) -> int:
        local = {v: k for k, v in enumerate(nodes)}
        mate = [-1] * len(nodes)
        for x, y in pairs:
            if x in local and y in local and self.allowed(x, y):
                mate[local[x]] = local[y]
                mate[local[y]] = local[x]
        allowed = self.allowed

        def adjacent(k: int) -> list[int]:
            v = nodes[k]
            return [j for j, u in enumerate(nodes) if j != k and allowed(v, u)]

        if sum(1 for j in mate if j < 0) > 1:  # otherwise the matching is already maximum
            _max_cardinality_matching(len(nodes), adjacent, mate)
        return sum(1 for j in mate if j >= 0) // 2

    # -- exact solver ----------------------------------------------------------------------

    def _edge_cost_tiers(self, u: int, v: int) -> tuple[int, int, int, int]:
        """(rematch, point difference, squared difference, pair-down not by a late entrant)."""
        if u == self.phantom or v == self.phantom:
            other = v if u == self.phantom else u
            return (0, 0, 0, 0 if self.late[other] else 1)
        gap = self.pts[u] - self.pts[v]
        upper = u if gap > 0 else v
        gap = abs(gap)
        return (
            1 if self.met(u, v) else 0,
            gap,
            gap * gap,
            1 if gap and not self.late[upper] else 0,
        )

    def _exact(self, nodes: list[int]) -> list[tuple[int, int]]:
        """Minimum-cost perfect matching of `nodes` (even count) under the priority list."""
        m = len(nodes)
        if m == 0:
            return []
        rng = self.rng
        phantom = self.phantom
        raw = []
        for a in range(m):
            u = nodes[a]
            for b in range(a + 1, m):
                v = nodes[b]
                if (u == phantom and v not in self.eligible) or (
                    v == phantom and u not in self.eligible
                ):
                    continue
                raw.append((a, b, self._edge_cost_tiers(u, v), rng.randrange(RANDOM_SPREAD)))
        # Lexicographic tiers packed into one integer; each tier's multiplier exceeds what
        # the lower tiers can add up to over a whole matching.
        slots = m // 2 + 1
        maxima = [max((t[k] for _, _, t, _ in raw), default=0) for k in range(4)]
        mult_random = 1
        mult = [0, 0, 0, 0]
        top = RANDOM_SPREAD - 1
        scale = slots * (top + 1)
        for k in (3, 2, 1, 0):
            mult[k] = scale
            top += maxima[k] * scale
            scale = slots * (top + 1)
        costs = [
            (a, b, sum(t[k] * mult[k] for k in range(4)) + r * mult_random) for a, b, t, r in raw
        ]
        ceiling = max(c for _, _, c in costs) + 1
        mate = _max_weight_matching(m, [(a, b, ceiling - c) for a, b, c in costs])
        return [(nodes[a], nodes[b]) for a, b in enumerate(mate) if b > a]

    def _improve_regions(self, pairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        """Large fields: re-solve exactly the neighbourhoods of the gaps where the fast
        pairing crosses more often than the bound, and of its rematches."""
        partner: dict[int, int] = {}
        for u, v in pairs:
            partner[u] = v
            partner[v] = u
        focus: list[int] = []  # point groups to look at
        counts = self.crossings(pairs)
        sizes = [len(g) for g in self.groups]
        if self.phantom >= 0:
            sizes[self._bye_group()] += 1
        above = 0
        for g, c in enumerate(counts):
            above += sizes[g]
            if c > above % 2:
                focus += [g, g + 1]
        for u, v in pairs:
            if not self.allowed(u, v):
                focus += [self.group_of[u], self.group_of[v]]
        done: set[int] = set()
        for centre in focus:
            if centre in done:
                continue
            region = self._region(centre, partner)
            done.update(self.group_of[v] for v in region)
            for u, v in self._exact(region):
                partner[u] = v
                partner[v] = u
        return [(u, v) for u, v in partner.items() if u < v]

    def _region(self, centre: int, partner: dict[int, int]) -> list[int]:
        """Whole small point groups around `centre` and samples of large ones, closed under
        the current pairing, about REGION_LIMIT nodes."""
        chosen: list[int] = []
        seen: set[int] = set()
        k = len(self.groups)
        sample = max(4, REGION_LIMIT // 8)
        for distance in range(k):
            added = False
            for b in sorted({centre - distance, centre + distance}):
                if not 0 <= b < k:
                    continue
                group = list(self.groups[b])
                if b == self._bye_group() and self.phantom >= 0:
                    group.append(self.phantom)
                if len(group) > sample:
                    group = self.rng.sample(group, sample)
                for v in group:
                    for w in (v, partner[v]):
                        if w not in seen:
                            seen.add(w)
                            chosen.append(w)
                added = True
            if not added or len(chosen) >= REGION_LIMIT:
                break
        return chosen


# -- tables: fixed seats and feature tables ---------------------------------------------------


def assign_tables(
    pairings: Sequence[tuple[str, str | None]],
    *,
    fixed: dict[str, int] | None = None,
    featured: Collection[str] = (),
    feature_tables: Sequence[int] = (),
) -> tuple[list[int], list[str]]:
    """Table numbers for `pairings` (in the order given: top tables first, byes last).

    A player with a fixed table (``fixed``: id -> table, accessibility) has their match at
    that table, whoever the opponent is; when two players who meet both have one, the
    first player's is used, and a table two matches claim goes to the first.  Feature
    tables are kept for the matches of ``featured`` players (in order) and for no other
    match; every other match gets the lowest free number.  Returns the tables, in the
    order of ``pairings``, and the players whose fixed table could not be kept.
    """
    fixed = fixed or {}
    reserved = set(feature_tables)
    tables: list[int | None] = [None] * len(pairings)
    used: set[int] = set()
    missed: list[str] = []
    for i, pair in enumerate(pairings):
        wanted = [fixed[p] for p in pair if p is not None and p in fixed]
        free = [t for t in wanted if t not in used]
        if free:
            tables[i] = free[0]
            used.add(free[0])
        missed += [p for p in pair if p is not None and p in fixed and fixed[p] != tables[i]]
    features = [t for t in feature_tables if t not in used]
    for i, pair in enumerate(pairings):
        if tables[i] is None and features and any(p in featured for p in pair if p):
            tables[i] = features.pop(0)
            used.add(tables[i])
    next_table = 1
    for i in range(len(pairings)):
        if tables[i] is None:
            while next_table in used or next_table in reserved:
                next_table += 1
            tables[i] = next_table
            used.add(next_table)
    return [t for t in tables if t is not None], missed


# -- pairings edited by hand ------------------------------------------------------------------


def pairing_warnings(a: PairingPlayer, b: PairingPlayer | None) -> tuple[str, ...]:
    """What a pairing made by hand needs confirmed: ``"rematch"`` (the two met before),
    ``"score-groups"`` (they are on different match points), ``"second-bye"`` (a bye to a
    player who had one).  Empty when the pairing is one Swiss could make."""
    if b is None:
        return ("second-bye",) if a.had_bye else ()
    warnings = []
    if b.id in a.opponents or a.id in b.opponents:
        warnings.append("rematch")
    if a.points != b.points:
        warnings.append("score-groups")
    return tuple(warnings)


# -- command line ------------------------------------------------------------------------------


def _players_from_json(data: Any) -> tuple[int, int | str, list[PairingPlayer]]:
    if not isinstance(data, dict):
        raise RulesError("bad-input", "the request must be a JSON object")
    for key in ("round", "seed", "players"):
        if key not in data:
            raise RulesError("bad-input", f"the request lacks {key!r}")
    raw = data["players"]
    if not isinstance(raw, list):
        raise RulesError("bad-input", "'players' must be a list")
    players = []
    for position, p in enumerate(raw):
        if not isinstance(p, dict):
            raise RulesError("bad-input", f"player {position} must be an object")
        if "id" not in p or "points" not in p:
            raise RulesError("bad-input", f"player {position} needs 'id' and 'points'")
        opponents = p.get("opponents", [])
        if not isinstance(opponents, list) or not all(isinstance(o, str) for o in opponents):
            raise RulesError("bad-input", f"opponents of player {position} must be a list of ids")
        players.append(
            PairingPlayer(
                id=p["id"],
                points=p["points"],
                opponents=tuple(opponents),
                had_bye=p.get("had_bye", False),
                dropped=p.get("dropped", False),
                late=p.get("late", False),
            )
        )
    return data["round"], data["seed"], players


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m rules.swiss`` < request.json (see the module docstring)."""
    try:
        try:
            data = json.load(sys.stdin)
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise RulesError("bad-json", f"stdin is not valid JSON ({exc})") from None
        round_number, seed, players = _players_from_json(data)
        result = pair_round(round_number, players, seed)
    except RulesError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    json.dump({"pairings": [list(p) for p in result.pairings], "bye": result.bye}, sys.stdout)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
