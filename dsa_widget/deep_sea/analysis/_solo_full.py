"""The solo problem under the real rules: the exact dynamic programme behind :func:`solo_policy`.

A state at the start of a turn is ``(pos, up, air, carried, blank, placed)``:

* ``pos``: his space (0 = the submarine); ``up``: heading up (he has turned back);
  ``air``: the air before he breathes;
* ``carried``: the levels of the chips he carries, sorted (a multiset: values are unknown, so
  two chips of one level are worth the same; the order only names the ``drop i`` choices);
* ``blank``: a bit mask of the spaces that are blanks; ``placed``: the spaces holding a chip he
  put down whose level differs from the space's own, as sorted ``(space, level)`` pairs.  Every
  other space holds its own chip.

Reductions that lose nothing: heading down, every space deeper than ``pos`` is untouched (he
has never been there), so only spaces ``1..pos`` are recorded; heading up, spaces deeper than
``pos`` are behind him for good (whatever he put down there is never seen again), so they are
forgotten; a chip put back on a space of its own level is that space's chip again.

The search is exact expectimax with branch and bound.  An upper bound comes from a
*relaxed* problem whose state is only ``(pos, up, air, carried, here)`` (``here``: what lies
on his own space): it is the same game except that, heading up, every newly reached space
offers both "take" (the best chip that could lie there) and "put down" (any carried chip).
Every real choice has a counterpart there, and its value grows with the carried chips' values,
so its value bounds the real one from above.  A choice whose bound is below the best exact
value found at that decision (by more than float noise) is not explored; all others are.  So
the memo holds exact (float) values of every state it explored, and the decisions are exact.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from fractions import Fraction
from typing import Any

from .dice import SUM_WEIGHTS

_SUMS = tuple(SUM_WEIGHTS.items())
#: floats closer than this are a tie (then the fixed preference decides)
TIE = 1e-12
#: a choice is skipped only when its upper bound is below the best by more than this
PRUNE = 1e-9
#: "what lies here" in the relaxed problem: unknown (a chip or a blank: both choices allowed)
ANY = -1
#: search choices, as codes: 0 = do nothing, 1..4 = put down a chip of that level, TAKE
NONE = 0
TAKE = 5

State = tuple[int, bool, int, tuple[int, ...], int, tuple[tuple[int, int], ...]]


class OverBudget(Exception):
    """A query needed more new states than its budget (``FullModel.limit``)."""


@contextmanager
def deep_recursion() -> Iterator[None]:
    """Room for the memoised recursion (a round is at most a few hundred frames deep)."""
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))
    try:
        yield
    finally:
        sys.setrecursionlimit(old)


def _pref(choice: int) -> int:
    # ties: do nothing first, then take, then put down the lowest level
    return 0 if choice == NONE else 1 if choice == TAKE else 1 + choice


class FullModel:
    """The exact solo DP under the real rules (see the module docstring)."""

    def __init__(
        self, levels: tuple[int, ...], air: int, means: tuple[Fraction, ...], requires: bool
    ) -> None:
        self.levels = levels
        self.n = len(levels)
        self.air = air
        self.means = means  # index = level (0 unused)
        self.requires = requires
        self.lv = (0,) + levels
        self.mf = tuple(float(m) for m in means)
        mf = self.mf
        # the best chip that can lie on space i heading up: its own, or one he put down there
        # when it was the deepest space he had reached (so from a space at or above it)
        best = [0] * (self.n + 1)
        for i in range(1, self.n + 1):
            best[i] = max(self.lv[1 : i + 1], key=lambda lvl: (mf[lvl], lvl))
        self.best_up = tuple(best)
        self.memo: dict[State, float] = {}
        #: stop (raise OverBudget) once the memo holds more states than this (None: never)
        self.limit: int | None = None
        self.rmemo: dict[tuple[int, bool, int, tuple[int, ...], int], float] = {}

    # ------------------------------------------------------------ helpers
    def content(self, i: int, blank: int, placed: tuple[tuple[int, int], ...]) -> int:
        """What lies on space ``i``: a level, or 0 for a blank."""
        for sp, lvl in placed:
            if sp == i:
                return lvl
        if blank >> i & 1:
            return 0
        return self.lv[i]

    def canonical(self, pos: int, up: bool, air: int, carried: Any, contents: dict[int, int]) -> State:
        """The state for a diver on ``pos`` with ``contents`` (space -> level, 0 = blank) of the
        spaces that matter (``1..pos``; missing spaces hold their own chips)."""
        blank = 0
        placed = []
        for i, c in contents.items():
            if not 1 <= i <= min(pos, self.n):
                continue
            if c == 0:
                blank |= 1 << i
            elif c != self.lv[i]:
                placed.append((i, c))
        return (pos, up, air, tuple(sorted(carried)), blank, tuple(sorted(placed)))

    def carried_value(self, carried: tuple[int, ...]) -> float:
        mf = self.mf
        return sum(mf[lvl] for lvl in carried)

    # ------------------------------------------------------------ the relaxed problem (bounds)
    def rstart(self, p: int, up: bool, a: int, c: tuple[int, ...], here: int) -> float:
        key = (p, up, a, c, here)
        r = self.rmemo.get(key)
        if r is not None:
            return r
        k = len(c)
        if up or p == 0:
            r = self.rswim(p, up, a - k, c, k, here)
        elif p >= self.n:
            r = self.rswim(p, True, a - k, c, k, here)
        else:
            r = self.rswim(p, False, a - k, c, k, here)
            if k or not self.requires:
                b = self.rswim(p, True, a - k, c, k, here)
                if b > r:
                    r = b
        self.rmemo[key] = r
        return r

    def rswim(self, p: int, up: bool, a2: int, c: tuple[int, ...], k: int, here: int) -> float:
        total = 0.0
        n = self.n
        for s, w in _SUMS:
            steps = s - k
            if steps <= 0:
                to, h = p, here
            elif up:
                to = p - steps
                if to <= 0:
                    total += w * self.carried_value(c)
                    continue
                h = ANY
            else:
                to = p + steps
                if to > n:
                    to = n
                h = self.lv[to]  # deeper than he has been: untouched
            if a2 <= 0:
                continue
            rstart = self.rstart
            best = rstart(to, up, a2, c, h)
            if h:
                lvl = self.best_up[to] if h == ANY else h
                v = rstart(to, up, a2, tuple(sorted(c + (lvl,))), 0)
                if v > best:
                    best = v
            if h <= 0 and k:
                for lvl in set(c):
                    i = c.index(lvl)
                    v = rstart(to, up, a2, c[:i] + c[i + 1 :], lvl)
                    if v > best:
                        best = v
            total += w * best
        return total / 9

    # ------------------------------------------------------------ the real problem
    def start(
        self, p: int, up: bool, a: int, c: tuple[int, ...], blank: int, placed: tuple[tuple[int, int], ...]
    ) -> float:
        """The optimal value (points) of a state at the start of a turn."""
        key = (p, up, a, c, blank, placed)
        r = self.memo.get(key)
        if r is not None:
            return r
        if self.limit is not None and len(self.memo) >= self.limit:
            raise OverBudget
        k = len(c)
        if up or p == 0:
            r = self.swim(p, up, a - k, c, k, blank, placed)
        elif p >= self.n:  # no free space deeper: he must turn back
            r = self.swim(p, True, a - k, c, k, blank, placed)
        elif k or not self.requires:
            r = self.turn(p, a, c, blank, placed)[0]
        else:
            r = self.swim(p, False, a - k, c, k, blank, placed)
        self.memo[key] = r
        return r

    def turn(
        self, p: int, a: int, c: tuple[int, ...], blank: int, placed: tuple[tuple[int, int], ...]
    ) -> tuple[float, bool]:
        """Heading down with the choice to turn back: (value, does the policy turn back?)."""
        k = len(c)
        h = self.content(p, blank, placed)
        ub_back = self.rswim(p, True, a - k, c, k, h)
        ub_on = self.rswim(p, False, a - k, c, k, h)
        if ub_back > ub_on:
            vb = self.swim(p, True, a - k, c, k, blank, placed)
            if ub_on < vb - PRUNE:
                return vb, True
            vc = self.swim(p, False, a - k, c, k, blank, placed)
        else:
            vc = self.swim(p, False, a - k, c, k, blank, placed)
            if ub_back < vc - PRUNE:
                return vc, False
            vb = self.swim(p, True, a - k, c, k, blank, placed)
        if vb > vc + TIE:
            return vb, True
        return vc, False

    def turn_values(
        self, p: int, a: int, c: tuple[int, ...], blank: int, placed: tuple[tuple[int, int], ...]
    ) -> tuple[float, float]:
        """(value if he turns back now, value if he keeps diving), both exact."""
        k = len(c)
        return (
            self.swim(p, True, a - k, c, k, blank, placed),
            self.swim(p, False, a - k, c, k, blank, placed),
        )

    def swim(
        self,
        p: int,
        up: bool,
        a2: int,
        c: tuple[int, ...],
        k: int,
        blank: int,
        placed: tuple[tuple[int, int], ...],
    ) -> float:
        """He has breathed (``a2`` left) and faces his way: the value of rolling and swimming."""
        total = 0.0
        n = self.n
        for s, w in _SUMS:
            steps = s - k
            if steps <= 0:
                to = p
            elif up:
                to = p - steps
                if to <= 0:
                    total += w * self.carried_value(c)
                    continue
            else:
                to = p + steps
                if to > n:
                    to = n
            if a2 <= 0:  # the last turn: only the submarine counts
                continue
            total += w * self.land(to, up, a2, c, blank, placed)[0]
        return total / 9

    def options(
        self,
        to: int,
        up: bool,
        a2: int,
        c: tuple[int, ...],
        blank: int,
        placed: tuple[tuple[int, int], ...],
    ) -> list[tuple[int, State]]:
        """The search choices on landing on ``to`` (``(code, next state)``; NONE always first)."""
        if up:  # the spaces below him are behind him for good
            blank &= (1 << (to + 1)) - 1
            placed = tuple(x for x in placed if x[0] <= to)
        here = self.content(to, blank, placed)
        out: list[tuple[int, State]] = [(NONE, (to, up, a2, c, blank, placed))]
        bit = 1 << to
        if here:
            rest = tuple(x for x in placed if x[0] != to)
            out.append((TAKE, (to, up, a2, tuple(sorted(c + (here,))), blank | bit, rest)))
        elif c:
            for lvl in sorted(set(c)):
                i = c.index(lvl)
                c2 = c[:i] + c[i + 1 :]
                if lvl == self.lv[to]:
                    out.append((lvl, (to, up, a2, c2, blank & ~bit, placed)))
                else:
                    pl = tuple(sorted(placed + ((to, lvl),)))
                    out.append((lvl, (to, up, a2, c2, blank & ~bit, pl)))
        return out

    def land(
        self,
        to: int,
        up: bool,
        a2: int,
        c: tuple[int, ...],
        blank: int,
        placed: tuple[tuple[int, int], ...],
    ) -> tuple[float, int, State]:
        """He landed on ``to`` (the round goes on): (value, the policy's choice, next state)."""
        opts = self.options(to, up, a2, c, blank, placed)
        if len(opts) == 1:
            st = opts[0][1]
            return self.start(*st), NONE, st
        rstart = self.rstart
        scored = []
        for code, st in opts:
            here = self.content(to, st[4], st[5])
            scored.append((rstart(to, up, a2, st[3], here), _pref(code), code, st))
        scored.sort(key=lambda x: (-x[0], x[1]))
        best_v = -1.0
        best_pref = 99
        best_code = NONE
        best_st = opts[0][1]
        for ub, pref, code, st in scored:
            if best_v >= 0 and ub < best_v - PRUNE:
                break  # sorted by bound: the rest are worse too
            v = self.start(*st)
            if v > best_v + TIE or (v >= best_v - TIE and pref < best_pref):
                best_v, best_pref, best_code, best_st = max(v, best_v), pref, code, st
        return best_v, best_code, best_st

    @contextmanager
    def budget(self, new_states: int | None) -> Iterator[None]:
        """Within this block, raise :class:`OverBudget` past ``new_states`` more states."""
        old = self.limit
        self.limit = None if new_states is None else len(self.memo) + new_states
        try:
            with deep_recursion():
                yield
        finally:
            self.limit = old

    def relaxed_turn(
        self, p: int, a: int, c: tuple[int, ...], blank: int, placed: tuple[tuple[int, int], ...]
    ) -> bool:
        """The relaxed problem's advice on turning back (a cheap heuristic)."""
        k = len(c)
        h = self.content(p, blank, placed)
        return self.rswim(p, True, a - k, c, k, h) > self.rswim(p, False, a - k, c, k, h) + TIE

    def relaxed_land(
        self, to: int, up: bool, a2: int, c: tuple[int, ...], blank: int, placed: tuple[tuple[int, int], ...]
    ) -> int:
        """The relaxed problem's search choice (a cheap heuristic)."""
        best_v, best_code = -1.0, NONE
        for code, st in self.options(to, up, a2, c, blank, placed):
            v = self.rstart(to, up, a2, st[3], self.content(to, st[4], st[5]))
            if v > best_v + TIE:
                best_v, best_code = v, code
        return best_code

    # ------------------------------------------------------------ the chosen policy, exactly
    def exact_value(self, state: State) -> Fraction:
        """The exact value of the policy the float search chose, from ``state``."""
        memo: dict[State, Fraction] = {}
        means = self.means
        n = self.n
        requires = self.requires

        def start(st: State) -> Fraction:
            r = memo.get(st)
            if r is not None:
                return r
            p, up, a, c, blank, placed = st
            k = len(c)
            if up or p == 0:
                heading = up
            elif p >= n:
                heading = True
            elif k or not requires:
                heading = self.turn(p, a, c, blank, placed)[1]
            else:
                heading = False
            a2 = a - k
            total = Fraction(0)
            for s, w in _SUMS:
                steps = s - k
                if steps <= 0:
                    to = p
                elif heading:
                    to = p - steps
                    if to <= 0:
                        total += w * sum((means[lvl] for lvl in c), Fraction(0))
                        continue
                else:
                    to = min(n, p + steps)
                if a2 <= 0:
                    continue
                total += w * start(self.land(to, heading, a2, c, blank, placed)[2])
            r = total / 9
            memo[st] = r
            return r

        return start(state)

    def walk(self, state: State, visit: Callable[[State, Fraction], None]) -> None:
        """Call ``visit(state, chance)`` for every start-of-turn state the policy reaches from
        ``state`` with the chance of reaching it (in an order where each state comes after
        every state that leads to it)."""
        chance: dict[State, Fraction] = {state: Fraction(1)}
        n = self.n

        def order(st: State) -> tuple[int, int]:
            # air never grows; at equal air (nothing carried) he moves down, then up
            p, up, a = st[0], st[1], st[2]
            return (-a, 2 * n + 2 - p if up else p)

        import heapq

        heap: list[tuple[tuple[int, int], int, State]] = [(order(state), 0, state)]
        seen = 1
        while heap:
            _, _, st = heapq.heappop(heap)
            pr = chance.pop(st)
            visit(st, pr)
            p, up, a, c, blank, placed = st
            k = len(c)
            if up or p == 0:
                heading = up
            elif p >= n:
                heading = True
            elif k or not self.requires:
                heading = self.turn(p, a, c, blank, placed)[1]
            else:
                heading = False
            if a - k <= 0:
                continue
            for s, w in _SUMS:
                steps = s - k
                if steps <= 0:
                    to = p
                elif heading:
                    to = p - steps
                    if to <= 0:
                        continue
                else:
                    to = min(n, p + steps)
                nxt = self.land(to, heading, a - k, c, blank, placed)[2]
                if nxt in chance:
                    chance[nxt] += pr * w / 9
                else:
                    chance[nxt] = pr * w / 9
                    seen += 1
                    heapq.heappush(heap, (order(nxt), seen, nxt))
