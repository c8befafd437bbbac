"""The chance that a diver gets back to the submarine before the air runs out — exactly.

What decides it
---------------
The air is shared: every diver still in the water breathes one unit per item
he carries at the start of each of his turns, and the round ends after the
turn in which it reaches 0.  A diver who is back in the submarine then keeps
his treasure; one still in the water loses it.  So the answer depends on
the dice *and* on what the other divers do.  We fix what they do by a stated
assumption (a *policy*):

``"home"``  (default) the diver keeps what he carries (never takes, never puts
            down) and turns back at his first chance: at once if he may
            (on the path, heading down, and carrying an item when the
            option ``turn_back_requires_treasure`` is on), otherwise as soon
            as he may;
``"keep"``  the diver keeps what he carries and keeps his heading: heading
            down he turns back only when forced (no free space deeper).

The diver we ask about follows ``me`` (default ``"home"``: he heads home at
once with what he has).  Under fixed policies the only chance left is the
dice, so the chance is an exact sum over dice outcomes, computed by dynamic
programming:

    P(state) = sum over the 5 dice sums s of  w(s)/9 * P(state after the turn with sum s)

where a state is (whose turn, air, every position, every heading) and the
round's end gives 1 (our diver is in the submarine) or 0 (still in the
water).  Turn order, breathing, jumps over other divers, the deepest free
space, forced turn-backs and other divers reaching the submarine (they stop
breathing) are all applied exactly as the rules say.  Results are exact
fractions (sums of multiples of powers of 1/9).

"Back" means *not in the water when the round ends*: returned, or never left
the submarine.

Cost: the states are joint positions of every diver still in the water, so
the work grows quickly with their number and with the air left: most
mid-round questions need a few thousand states or fewer, but five or six
divers deep in the water with lots of air can need millions.  With the
``fast`` extra (numba) the DP runs compiled (:mod:`.home_kernel`: about a
microsecond a state, exact integers, the same fractions); without it, in
Python (tens of microseconds a state; solved states are then remembered
between calls, see :func:`clear_cache`, so asking again after the next turn
of the same round is usually instant).  ``max_states`` (default
:data:`MAX_STATES`: 5,000,000 compiled, 200,000 in Python, a few seconds
either way) bounds the work: past it an :class:`AnalysisError` says so and
points to :func:`~dsa_widget.deep_sea.analysis.estimate.estimate_home_chance`.
:func:`live_home_chances` is the live overlay's form: every choice under one
budget, from a cold start (and, compiled, a cap on the states of one turn's layer, so that a
position far past the budget is given up early), so that the answer depends on the position
only.  Compiled, it can also try the fractions within a small budget first and then sum the
same DP in double precision (:func:`.home_kernel.solve_float`, about 1.5 times as fast): the
exact chance to within about 1e-13, as a float.  Past every budget,
:func:`live_home_estimates` plays random rounds of the same model (:func:`.home_kernel.sample`)
for an estimate with its interval.

Worked example: Ann on space 3 heading up with 2 items, Bob already back,
4 air.  She breathes 2 a turn, so she gets two swims (the second on the last
turn: 4 -> 2 -> 0).  Each swim is max(0, sum - 2) = 0..4 spaces with chances
1, 2, 3, 2, 1 out of 9; she needs 3 spaces in all, and the two swims fall
short in 1 + 2 + 2 + 3 + 3 + 4 = 15 of the 81 cases: 66/81 = 22/27.

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 8, air=6, seed=0)
>>> g.play_turn(dice=(2, 2), search="take")             # Ann: space 4, 1 item
>>> g.play_turn(dice=(1, 1), search="take")             # Bob: space 2, 1 item
>>> g.play_turn(back=True, dice=(1, 1), search="take")  # Ann: up to space 3, 2 items
>>> g.play_turn(back=True, dice=(3, 3))                 # Bob: home
>>> home_chance(g)
22/27 ≈ 81.48%
"""

from __future__ import annotations

import sys
import time
from collections import OrderedDict
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ...core.errors import is_int
from ..rules import swim
from . import home_kernel
from ._common import AnalysisError, Board, Chance, board_of, check_seat, occupancy
from .dice import SUM_WEIGHTS
from .estimate import HomeEstimate

__all__ = [
    "home_chance",
    "home_chances",
    "live_home_chances",
    "live_home_estimates",
    "clear_cache",
    "POLICIES",
    "MAX_STATES",
    "COMPILED",
]

#: The assumptions a diver may be given.
POLICIES = ("home", "keep")

#: True when the exact DP runs compiled by numba (the ``fast`` extra; see :mod:`.home_kernel`)
COMPILED: bool = home_kernel.COMPILED

#: Default limit on the number of states the exact DP may expand: a few seconds of work either
#: way (compiled by numba it expands about 30 times as many states a second as in Python)
MAX_STATES = 5_000_000 if COMPILED else 200_000

_SUMS = tuple(SUM_WEIGHTS.items())
_POW9: list[int] = [9**i for i in range(400)]


def _pow9(e: int) -> int:
    while e >= len(_POW9):
        _POW9.append(_POW9[-1] * 9)
    return _POW9[e]


class _Solver:
    """Exact DP over packed states; a probability is an int pair (num, e) meaning num / 9**e.

    A state at the start of q's turn (before he breathes) is one int key:
    ``q | up-bits << 3 | positions << (3 + n) | air << top`` (positions ``pb`` bits each), built
    incrementally from the parent's key.  Alongside it the recursion carries the positions
    (tuple), the up-bits, the occupied spaces (a bit mask of path spaces held by divers in the
    water) and the home mask, so no state is ever decoded.  The moves of the diver to play depend
    only on (who, his space, his heading, the spaces the others hold): they are computed once per
    solver and kept in ``moves``.  Same rules and same answers as the straightforward
    ``tests/home_reference.py`` (the tests' oracle), with tighter (still safe) bounds in
    :meth:`sure` and :meth:`hopeless`, so fewer states are expanded.
    """

    __slots__ = (
        "breath",
        "budget",
        "d",
        "deadline",
        "fresh",
        "home_policy",
        "kd",
        "length",
        "light",
        "loaded",
        "loads",
        "low",
        "memo",
        "moves",
        "n",
        "nxt",
        "out",
        "pb",
        "req",
        "shift",
        "top",
    )

    def __init__(
        self, board: Board, d: int, home_policy: list[bool], loads: list[int], budget: int | None = None
    ) -> None:
        n = self.n = board.n
        self.length = board.path_length
        self.req = board.requires_treasure
        self.d = d
        self.home_policy = home_policy
        self.loads = loads
        self.kd = loads[d]
        self.budget = budget
        self.deadline: float | None = None  # perf_counter() time past which the call gives up
        self.fresh = 0
        self.memo: dict[int, tuple[int, int]] = {}
        self.pb = max(6, self.length.bit_length())
        self.top = 3 + n + n * self.pb
        self.low = (1 << self.top) - 1  # the key without its air field
        self.shift = [3 + n + q * self.pb for q in range(n)]  # where q's space sits in a key
        # q's moves by (spaces the others hold, his space, his up-bit, q) packed in one int
        self.moves: dict[int, tuple[bool, tuple[tuple[int, int], ...]]] = {}
        self.loaded = [i for i in range(n) if loads[i] > 0]
        full = 1 << n
        # next diver to play after q, given the mask of divers back in the submarine
        self.nxt = [[q] * full for q in range(n)]
        self.breath = [0] * full
        self.out = [0] * full
        # nobody in the water carries 2 items or more (else :meth:`safe` is False at once)
        self.light = [all(loads[i] < 2 or hm >> i & 1 for i in range(n)) for hm in range(full)]
        for hm in range(full):
            for q in range(n):
                nq = q
                for _ in range(n):
                    nq = nq + 1 if nq + 1 < n else 0
                    if not hm >> nq & 1:
                        break
                self.nxt[q][hm] = nq
            self.breath[hm] = sum(loads[i] for i in range(n) if not hm >> i & 1)
            self.out[hm] = sum(1 for i in range(n) if not hm >> i & 1)

    # ------------------------------------------------------------------ helpers

    def pack(self, q: int, air: int, pos: tuple[int, ...], upm: int) -> int:
        key = q | upm << 3 | air << self.top
        pb = self.pb
        s = 3 + self.n
        for p in pos:
            key |= p << s
            s += pb
        return key

    def heading(self, q: int, p: int, upq: int, occ: int, choice: str | None = None) -> bool:
        """The heading of q for his swim this turn (as ``_RefSolver.heading``)."""
        if upq:
            return True
        if p == 0:
            return False
        length = self.length
        if all(occ >> i & 1 for i in range(p + 1, length + 1)):
            return True  # forced
        if choice is not None:
            return choice == "back"
        return self.home_policy[q] and (self.loads[q] > 0 or not self.req)

    def move_table(self, q: int, p: int, occ: int, heading: bool) -> tuple[tuple[int, int], ...]:
        """((to, weight), ...) for q's swim from p with that heading; ``occ`` = the others' spaces.

        The swim rule itself is :func:`~dsa_widget.deep_sea.rules.swim` (as for the landing
        distribution); this runs once per (diver, space, heading, others' spaces) and is cached.
        """
        k = self.loads[q]
        length = self.length
        occupied = occupancy((i for i in range(1, length + 1) if occ >> i & 1), length)
        weights: dict[int, int] = {}
        for s, w in _SUMS:
            to = swim(p, heading, s - k, occupied)
            weights[to] = weights.get(to, 0) + w
        return tuple(weights.items())

    def hopeless(self, q: int, air: int, pos: tuple[int, ...], hm: int) -> bool:
        """True when our diver cannot be back in time even with the best dice (a safe bound).

        As ``_RefSolver.hopeless`` (``hm``: the mask of divers back in the submarine), with a
        tighter bound on his next swim: in it he can jump only the divers shallower than him
        and those who play before him (who might get there first), not every diver out.
        """
        kd = self.kd
        if kd == 0:
            return False
        d = self.d
        need = pos[d]
        if need <= 0:
            return False
        if kd >= 6:
            return True
        breath = self.breath[hm]
        if air > -(-need // (6 - kd)) * breath:
            return False  # quick exit: the air lasts for more swims than he can need (see below)
        n = self.n
        gain = 5 - kd + self.out[hm]
        ahead = (d - q) % n  # divers q, q+1, ... (cyclically) before d play before his swim
        j1 = 0
        for i in range(n):
            if i != d and not hm >> i & 1:
                pi = pos[i]
                if 0 < pi < need or (i - q) % n < ahead:
                    j1 += 1
        gain1 = 6 - kd + j1
        least = 1 if need <= gain1 else 1 - (-(need - gain1) // gain)  # fewest swims he needs
        if air > least * breath:
            return False
        loads = self.loads
        left = []
        for i in range(n):
            if i == d or hm >> i & 1 or loads[i] == 0:
                left.append(0)
            else:
                g = 6 - loads[i] + (n - 1)
                left.append(max(1, -(-pos[i] // g)) if g > 0 else 10**6)
        turns = 0
        i = q
        while True:
            if i == d:
                air -= kd
                turns += 1
                if turns >= least:
                    return False
                if air <= 0:
                    return True
            elif left[i]:
                left[i] -= 1
                air -= loads[i]
                if air <= 0:
                    return True
            i = i + 1 if i + 1 < n else 0

    def safe(self, air: int, pos: tuple[int, ...], upm: int, hm: int) -> bool:
        """As ``_RefSolver.safe``."""
        total = 0
        loads = self.loads
        for i in self.loaded:
            if hm >> i & 1:
                continue
            if loads[i] >= 2:
                return False
            p = pos[i]
            if upm >> i & 1 or (p > 0 and self.home_policy[i]):
                total += p
            else:
                total += 2 * self.length - p + 1
            if total >= air:
                return False
        return True

    def sure(self, q: int, air: int, pos: tuple[int, ...], upm: int, hm: int) -> bool:
        """True when our diver gets back whatever the dice do (a safe bound).

        Carrying at most one item he gains at least one space a turn heading up, so he is back
        by his ``need``-th turn from now (a last turn still lets him swim).  Before it, every
        other diver still in the water breathes on each of his turns, except that one heading
        home with one item is back within as many turns as his space number (he breathes on
        the turn he gets back, not after).  If that much breathing still leaves air, he is
        safe.  (``_RefSolver.sure`` is the same bound without that exception.)
        """
        kd = self.kd
        if kd > 1:
            return False
        d = self.d
        need = pos[d]
        if not (upm >> d & 1 or (need > 0 and self.home_policy[d] and (kd > 0 or not self.req))):
            return False
        n = self.n
        loads = self.loads
        home_policy = self.home_policy
        used = kd * (need - 1)
        ahead = (d - q) % n  # divers q, q+1, ... (cyclically) before d play once more
        for i in self.loaded:
            if i == d or hm >> i & 1:
                continue
            t = need if (i - q) % n < ahead else need - 1
            k = loads[i]
            if k == 1:
                pi = pos[i]
                if (upm >> i & 1 or (pi > 0 and home_policy[i])) and pi < t:
                    t = pi
            used += k * t
            if used >= air:
                return False
        return used < air

    # ------------------------------------------------------------------ the DP

    def start(
        self, q: int, air: int, pos: tuple[int, ...], upm: int, occ: int, hm: int, key: int
    ) -> tuple[int, int]:
        """The chance at the start of q's turn (before he breathes); ``key`` packs the state.

        The caller has checked ``memo``.  This is :meth:`swim` with the heading set by the
        forced turn back or q's policy, inlined (it runs once per state, so every call counts).
        """
        kd = self.kd
        d = self.d
        if (self.light[hm] and self.safe(air, pos, upm, hm)) or (kd <= 1 and self.sure(q, air, pos, upm, hm)):
            self.memo[key] = (1, 0)
            return (1, 0)
        if kd:
            need = pos[d]
            if (
                need > 0
                and (kd >= 6 or air <= -(-need // (6 - kd)) * self.breath[hm])  # quick exit first
                and self.hopeless(q, air, pos, hm)
            ):
                self.memo[key] = (0, 0)
                return (0, 0)
        self.fresh += 1
        if self.budget is not None and self.fresh > self.budget:
            raise _TooBig()
        if self.deadline is not None and not self.fresh & 63 and time.perf_counter() > self.deadline:
            raise _TooBig()
        air2 = air - self.loads[q]
        last = air2 <= 0
        p = pos[q]
        upq = upm >> q & 1
        occo = occ & ~(1 << p) if p else occ
        mk = ((occo << self.pb | p) << 4) | upq << 3 | q
        mt = self.moves.get(mk)
        if mt is None:
            hd = self.heading(q, p, upq, occo)
            mt = self.moves[mk] = (hd, self.move_table(q, p, occo, hd))
        hd, dests = mt
        memo_key = key  # the state as it is reached (before he turns back)
        if hd and not upq:
            upm |= 1 << q
            key |= 1 << (3 + q)
        nq = self.nxt[q][hm]
        top = self.top
        base = (key & self.low) - q + nq + (air2 << top)
        sh = self.shift[q]
        memo = self.memo
        r: tuple[int, int] | None  # a (num, e) pair; memo.get's None is handled where it is read
        start = self.start
        pw = _POW9
        num = 0
        e = 0
        for to, w in dests:
            if to == 0 and hd:
                if q == d:
                    r = _ONE
                elif last:
                    r = _ONE if pos[d] == 0 else _ZERO
                else:
                    nkey = base - (p << sh)
                    r = memo.get(nkey)
                    if r is None:  # he is back: he plays no more (the next diver is the same)
                        pl = list(pos)
                        pl[q] = 0
                        r = start(nq, air2, tuple(pl), upm, occo, hm | 1 << q, nkey)
            elif last:
                # the round ends: our diver is back only if he is in the submarine
                r = _ONE if (pos[d] == 0 if q != d else to == 0) else _ZERO
            elif to != p:
                nkey = base + ((to - p) << sh)
                r = memo.get(nkey)
                if r is None:
                    pl = list(pos)
                    pl[q] = to
                    r = start(nq, air2, tuple(pl), upm, occo | (1 << to), hm, nkey)
            else:
                r = memo.get(base)
                if r is None:
                    r = start(nq, air2, pos, upm, occ, hm, base)
            rn, re = r
            if rn:
                if re > e:
                    if re >= len(pw):
                        _pow9(re)
                    num *= pw[re - e]
                    e = re
                num += w * rn * pw[e - re]
        if num:
            e += 1
            while e and num % 9 == 0:
                num //= 9
                e -= 1
            r = (num, e)
        else:
            r = _ZERO
        memo[memo_key] = r
        return r

    def swim(
        self,
        q: int,
        air2: int,
        last: bool,
        pos: tuple[int, ...],
        upm: int,
        occ: int,
        hm: int,
        key: int,
        heading: bool | None,
    ) -> tuple[int, int]:
        """Expectation over the dice of q's swim.

        ``heading``: None for the forced turn back or his policy, else the heading (a bool).
        ``key`` is the packed state at the start of q's turn (its air field is replaced here).
        """
        p = pos[q]
        upq = upm >> q & 1
        occo = occ & ~(1 << p) if p else occ
        if heading is None:
            mk = ((occo << self.pb | p) << 4) | upq << 3 | q
            mt = self.moves.get(mk)
            if mt is None:
                hd = self.heading(q, p, upq, occo)
                mt = self.moves[mk] = (hd, self.move_table(q, p, occo, hd))
            hd, dests = mt
        else:
            hd = heading
            dests = self.move_table(q, p, occo, hd)
        d = self.d
        if hd and not upq:
            upm |= 1 << q
            key |= 1 << (3 + q)
        nq = self.nxt[q][hm]
        top = self.top
        base = (key & ((1 << top) - 1)) - q + nq + (air2 << top)
        sh = 3 + self.n + q * self.pb
        memo = self.memo
        r: tuple[int, int] | None  # a (num, e) pair; memo.get's None is handled where it is read
        e = 0
        res = []
        for to, w in dests:
            if to == 0 and hd:
                if q == d:
                    res.append((w, 1, 0))
                    continue
                if last:
                    r = (1, 0) if pos[d] == 0 else (0, 0)
                else:
                    nkey = base - (p << sh)
                    r = memo.get(nkey)
                    if r is None:  # he is back: he plays no more (the next diver is the same)
                        pl = list(pos)
                        pl[q] = 0
                        r = self.start(nq, air2, tuple(pl), upm, occo, hm | 1 << q, nkey)
            elif last:
                # the round ends: our diver is back only if he is in the submarine
                r = (1, 0) if (pos[d] == 0 if q != d else to == 0) else (0, 0)
            else:
                if to != p:
                    nkey = base + ((to - p) << sh)
                    r = memo.get(nkey)
                    if r is None:
                        pl = list(pos)
                        pl[q] = to
                        r = self.start(nq, air2, tuple(pl), upm, occo | (1 << to), hm, nkey)
                else:
                    r = memo.get(base)
                    if r is None:
                        r = self.start(nq, air2, pos, upm, occ, hm, base)
            if r[0]:
                e = max(e, r[1])
                res.append((w, r[0], r[1]))
        if not res:
            return (0, 0)
        num = 0
        pw = _POW9 if e < len(_POW9) else [_pow9(i) for i in range(e + 1)]
        for w, rn, re in res:
            num += w * rn * pw[e - re]
        e += 1
        while e and num % 9 == 0:
            num //= 9
            e -= 1
        return (num, e)

    def end_turn(
        self, q: int, air2: int, last: bool, pos: tuple[int, ...], upm: int, occ: int, hm: int
    ) -> tuple[int, int]:
        """q's turn is over (he searched nothing): the round ends, or the next diver plays."""
        d = self.d
        if hm >> d & 1:
            return (1, 0)
        if last:
            return (1, 0) if pos[d] == 0 else (0, 0)
        nq = self.nxt[q][hm]
        key = self.pack(nq, air2, pos, upm)
        r = self.memo.get(key)
        return r if r is not None else self.start(nq, air2, pos, upm, occ, hm, key)

    def entry(self, board: Board, loads: list[int], choice: str | None) -> tuple[int, int]:
        """The chance from the board's current step (``choice``: the current player's, if any)."""
        q = board.current
        assert q is not None
        pos, up = board.positions, board.up
        upm = hm = occ = 0
        for i, (p, u) in enumerate(zip(pos, up, strict=False)):
            if u:
                upm |= 1 << i
                if p == 0:
                    hm |= 1 << i
            if p > 0:
                occ |= 1 << p
        if board.step == "search":
            return self.end_turn(q, board.air, board.last, pos, upm, occ, hm)
        key = self.pack(q, 0, pos, upm)
        p = pos[q]
        occo = occ & ~(1 << p) if p else occ
        if board.step == "turn_back":
            heading = self.heading(q, p, upm >> q & 1, occo, choice)
        elif board.breathed:  # roll, after breathing: the heading is settled
            return self.swim(q, board.air, board.last, pos, upm, occ, hm, key, up[q])
        else:  # roll, before breathing
            heading = True if board.forced else self.heading(q, p, upm >> q & 1, occo, "continue")
        air2 = board.air - loads[q]
        return self.swim(q, air2, air2 <= 0, pos, upm, occ, hm, key, heading)


_ONE = (1, 0)
_ZERO = (0, 0)


class _TooBig(Exception):
    pass


# ---------------------------------------------------------------------- the compiled DP
# The first step of the DP (the current player's choice, breath and swim, or the end of his
# turn) is done here, in Python, as ``_Solver.entry`` does it; every state it leads to (a
# *root*: the start of the next diver's turn) is solved by ``home_kernel.solve``, all of one
# call's roots together in one memo.

#: a root: (whose turn, air, up-mask, positions), as ``home_kernel.solve`` takes them
_Root = tuple[int, int, int, tuple[int, ...]]
#: the first step: ``(mixed, [(weight, 0, 1 or a root), ...])``; mixed: a swim (the items'
#: weights are out of 9), else one item of weight 1
_Plan = tuple[bool, list[tuple[int, "int | _Root"]]]


def _plan(board: Board, d: int, home_policy: list[bool], loads: list[int], choice: str | None) -> _Plan:
    """``_Solver.entry`` down to the roots: what the current step leads to, before any DP."""
    q = board.current
    assert q is not None
    n = board.n
    pos, up = board.positions, board.up
    upm = hm = occ = 0
    for i, (p, u) in enumerate(zip(pos, up, strict=False)):
        if u:
            upm |= 1 << i
            if p == 0:
                hm |= 1 << i
        if p > 0:
            occ |= 1 << p

    def after(q: int, hm: int) -> int:
        nq = q
        for _ in range(n):
            nq = nq + 1 if nq + 1 < n else 0
            if not hm >> nq & 1:
                break
        return nq

    if board.step == "search":  # as _Solver.end_turn
        if hm >> d & 1:
            return (False, [(1, 1)])
        if board.last:
            return (False, [(1, int(pos[d] == 0))])
        return (False, [(1, (after(q, hm), board.air, upm, pos))])
    solver = _Solver(board, d, home_policy, loads)  # for its heading and move rules only
    p = pos[q]
    upq = upm >> q & 1
    occo = occ & ~(1 << p) if p else occ
    if board.step == "turn_back":
        hd = solver.heading(q, p, upq, occo, choice)
        air2 = board.air - loads[q]
        last = air2 <= 0
    elif board.breathed:  # roll, after breathing: the heading is settled
        hd, air2, last = up[q], board.air, board.last
    else:  # roll, before breathing
        hd = True if board.forced else solver.heading(q, p, upq, occo, "continue")
        air2 = board.air - loads[q]
        last = air2 <= 0
    if hd and not upq:
        upm |= 1 << q
    nq = after(q, hm)
    items: list[tuple[int, int | _Root]] = []
    for to, w in solver.move_table(q, p, occo, hd):
        pl = list(pos)
        pl[q] = to
        if to == 0 and hd:
            if q == d:
                items.append((w, 1))
            elif last:
                items.append((w, int(pos[d] == 0)))
            else:  # he is back: he plays no more
                items.append((w, (nq, air2, upm, tuple(pl))))
        elif last:  # the round ends: our diver is back only if he is in the submarine
            items.append((w, int(pos[d] == 0 if q != d else to == 0)))
        else:
            items.append((w, (nq, air2, upm, tuple(pl))))
    return (True, items)


def _fits(board: Board) -> bool:
    return home_kernel.fits(board.n, board.path_length, max(board.air, 0))


def _kernel_inputs(
    board: Board,
    d: int,
    home_policy: list[bool],
    loads: list[int],
    roots: list[tuple[int, _Root]],
    budget: int | None,
    layer: int | None,
    kk: int,
) -> list[list[int]]:
    """``[cfg, loads, pol, roots]`` as :func:`.home_kernel.solve` and ``solve_float`` take them
    (``kk``: the limbs of a count)."""
    flat: list[int] = []
    for w, (q, air, upm, pos) in roots:
        flat += [w, q, air, upm, *pos]
    cfg = [board.n, board.path_length, d, int(board.requires_treasure), -1 if budget is None else budget]
    cfg += [kk, len(roots), -1 if layer is None else layer]
    return [cfg, loads, [int(x) for x in home_policy], flat]


def _kernel_sum(
    board: Board,
    d: int,
    home_policy: list[bool],
    loads: list[int],
    roots: list[tuple[int, _Root]],
    budget: int | None,
    run: Any = None,
    layer: int | None = None,
) -> tuple[Fraction | None, int]:
    """The sum of ``w * chance(root)`` over ``roots`` by the compiled DP (None past ``budget``
    expanded states, or past ``layer`` states in one turn's layer), and the number of states it
    expanded.

    ``run``: the kernel's ``solve`` (default: :func:`.home_kernel.solve`, on numpy arrays when
    compiled); the tests pass :func:`.home_kernel.plain_solve` ``()``, which takes lists.
    """
    arrays = run is None and home_kernel.COMPILED
    run = run or home_kernel.solve
    kk = 2
    while True:
        bufs = _kernel_inputs(board, d, home_policy, loads, roots, budget, layer, kk)
        outs = [[0] * kk, [0, 0]]
        if arrays:
            bufs = [_np_array(b) for b in bufs]
            outs = [_np_array(b) for b in outs]
        status = run(*bufs, *outs)
        res, stats = (list(map(int, b)) for b in outs)
        if status == home_kernel.OVER_BUDGET:
            return None, stats[0]
        e = stats[1]
        if status == home_kernel.OK:
            num = sum(x << (home_kernel.LIMB * j) for j, x in enumerate(res))
            return Fraction(num, _pow9(e)), stats[0]
        kk = home_kernel.limbs_for(e)


def _kernel_float(
    board: Board,
    d: int,
    home_policy: list[bool],
    loads: list[int],
    roots: list[tuple[int, _Root]],
    budget: int | None,
    layer: int | None = None,
    run: Any = None,
) -> tuple[float | None, int]:
    """:func:`_kernel_sum` by :func:`.home_kernel.solve_float` (the same DP in double
    precision; ``run``: the tests pass :func:`.home_kernel.plain_solve` ``("solve_float")``)."""
    arrays = run is None and home_kernel.COMPILED
    run = run or home_kernel.solve_float
    bufs: list[Any] = [*_kernel_inputs(board, d, home_policy, loads, roots, budget, layer, 1), [0.0], [0, 0]]
    if arrays:
        import numpy as np

        bufs = [_np_array(b) for b in bufs[:4]] + [np.zeros(1), _np_array(bufs[5])]
    status = run(*bufs)
    fresh = int(bufs[5][0])
    if status == home_kernel.OVER_BUDGET:
        return None, fresh
    return float(bufs[4][0]), fresh


def _split_plan(
    board: Board, d: int, home_policy: list[bool], loads: list[int], choice: str | None
) -> tuple[bool, int, list[tuple[int, _Root]]]:
    """:func:`_plan` as (mixed, the weight of the items settled at once as 1, the roots left)."""
    mixed, items = _plan(board, d, home_policy, loads, choice)
    sure = sum(w * x for w, x in items if isinstance(x, int))
    return mixed, sure, [(w, x) for w, x in items if isinstance(x, tuple)]


def _fast_float(
    board: Board,
    d: int,
    home_policy: list[bool],
    loads: list[int],
    choice: str | None,
    budget: int | None,
    layer: int | None = None,
    run: Any = None,
) -> tuple[float | None, int]:
    """:func:`_fast` in double precision (None past ``budget`` or ``layer`` states)."""
    mixed, sure, roots = _split_plan(board, d, home_policy, loads, choice)
    rest, fresh = (
        _kernel_float(board, d, home_policy, loads, roots, budget, layer, run) if roots else (0.0, 0)
    )
    if rest is None:
        return None, fresh
    # the kernel's sum is out of 9 already (w / 9 a root); a first step that is no swim has
    # one item of weight 1
    return (sure / 9 + rest if mixed else sure + 9 * rest), fresh


def _np_array(values: list[int]) -> Any:
    import numpy as np

    return np.array(values, dtype=np.int64)


def _python_roots(solver: _Solver, roots: list[_Root]) -> list[Fraction]:
    """The exact chances of ``roots`` by ``solver`` (its memo kept); raises _TooBig past its budget."""
    out = []
    for q, air, upm, pos in roots:
        hm = occ = 0
        for i, p in enumerate(pos):
            if p > 0:
                occ |= 1 << p
            elif upm >> i & 1:
                hm |= 1 << i
        key = solver.pack(q, air, pos, upm)
        r = solver.memo.get(key)
        if r is None:
            r = solver.start(q, air, pos, upm, occ, hm, key)
        out.append(Fraction(r[0], _pow9(r[1])))
    return out


def _fast(
    board: Board,
    d: int,
    home_policy: list[bool],
    loads: list[int],
    choice: str | None,
    budget: int | None,
    run: Any = None,
    layer: int | None = None,
) -> tuple[Fraction | None, int]:
    """The chance by the compiled DP (None past ``budget`` states, or past ``layer`` states in
    one layer) and the states it expanded (``run``: as for :func:`_kernel_sum`)."""
    mixed, sure, roots = _split_plan(board, d, home_policy, loads, choice)
    rest, fresh = (
        _kernel_sum(board, d, home_policy, loads, roots, budget, run, layer) if roots else (Fraction(0), 0)
    )
    if rest is None:
        return None, fresh
    total = sure + rest
    return (total / 9 if mixed else total), fresh


# Solvers are kept between calls: a state's chance does not depend on how it was reached, so
# the next turn of the same round (nobody took or dropped anything) is mostly answered from the
# memo already filled.  A solver is keyed by everything its memo depends on.
_SOLVERS: OrderedDict[tuple[Any, ...], _Solver] = OrderedDict()
_KEEP_SOLVERS = 6
_KEEP_STATES = 400_000


def _solver(board: Board, d: int, home_policy: list[bool], loads: list[int], budget: int | None) -> _Solver:
    key = (board.n, board.path_length, board.requires_treasure, d, tuple(home_policy), tuple(loads))
    s = _SOLVERS.get(key)
    if s is None:
        s = _SOLVERS[key] = _Solver(board, d, home_policy, loads, budget)
    else:
        _SOLVERS.move_to_end(key)
    s.budget = budget
    s.fresh = 0
    while len(_SOLVERS) > _KEEP_SOLVERS or sum(len(x.memo) for x in _SOLVERS.values()) > _KEEP_STATES:
        if len(_SOLVERS) == 1:
            s.memo.clear()
            break
        _SOLVERS.popitem(last=False)
    return s


def clear_cache() -> None:
    """Forget the states solved by earlier calls (they are kept to answer later turns fast)."""
    _SOLVERS.clear()


def _policies(board: Board, d: int, others: Any, me: str) -> list[bool]:
    def one(x: object, who: str) -> bool:
        if x not in POLICIES:
            raise AnalysisError(
                f"{who}: the policy must be one of {', '.join(map(repr, POLICIES))}, got {x!r}"
            )
        return x == "home"

    out = []
    for q in range(board.n):
        if q == d:
            out.append(one(me, "me"))
        elif isinstance(others, Mapping):
            out.append(one(others.get(q, "home"), f"others[{q}]"))
        else:
            out.append(one(others, "others"))
    return out


def _too_big(limit: str) -> str:
    return (
        f"the exact answer needs {limit} (many divers in the water, lots of air): pass "
        "max_states=None (and no max_seconds) to compute it anyway (it may take a long time), or "
        "use estimate_home_chance() for a simulated figure with a 95% interval"
    )


def _start(board: Board, d: int, choice: str | None) -> tuple[Fraction | None, list[int]]:
    """Check the question; the answer when there is nothing to sum, and the loads after ``choice``."""
    if board.current is None:
        raise AnalysisError("the game is over; no diver is in the water")
    loads = list(board.loads)
    if board.home[d]:
        return Fraction(1), loads
    if board.step == "sink":  # the round is over, the chips are being laid: he is where he ends
        return Fraction(int(board.positions[d] == 0)), loads
    q = board.current
    if choice is not None and choice not in board.legal:
        legal = ", ".join(map(repr, board.legal))
        raise AnalysisError(f"{choice!r} is not legal now (step {board.step!r}; legal: {legal})")
    if board.step == "search":
        if choice is not None and choice.startswith("drop"):
            loads[q] -= 1
        elif choice == "take":
            loads[q] += 1
    return None, loads


def _entry(solver: Any, board: Board, loads: list[int], choice: str | None) -> tuple[int, int]:
    """``solver.entry`` with room for its recursion (raises ``_TooBig`` past its budget)."""
    old = sys.getrecursionlimit()
    if old < 20000:
        sys.setrecursionlimit(20000)
    try:
        r: tuple[int, int] = solver.entry(board, loads, choice)
    finally:
        sys.setrecursionlimit(old)
    return r


def _chance(
    board: Board,
    d: int,
    home_policy: list[bool],
    choice: str | None,
    max_states: int | None = None,
    make: Any = None,
    max_seconds: float | None = None,
) -> Fraction:
    """The chance as a Fraction; ``make`` builds the solver (default: the compiled DP when it is
    there and no ``max_seconds`` is given, else the cached :class:`_Solver`)."""
    if max_seconds is not None and not max_seconds >= 0:
        raise AnalysisError(f"max_seconds must be a number >= 0 or None, got {max_seconds!r}")
    done, loads = _start(board, d, choice)
    if done is not None:
        return done
    if make is None and max_seconds is None and COMPILED and _fits(board):
        r, _ = _fast(board, d, home_policy, loads, choice, max_states)
        if r is None:
            raise AnalysisError(_too_big(f"more than {max_states:,} game states"))
        return r
    solver = (make or _solver)(board, d, home_policy, loads, max_states)
    if max_seconds is not None:
        solver.deadline = time.perf_counter() + max_seconds
    try:
        num, e = _entry(solver, board, loads, choice)
    except _TooBig:
        limit = (
            f"more than {max_states:,} game states"
            if max_states is not None and solver.fresh > max_states
            else f"more than {max_seconds:g} s"
        )
        raise AnalysisError(_too_big(limit)) from None
    finally:
        solver.deadline = None
    return Fraction(num, _pow9(e))


def _within(
    board: Board,
    d: int,
    home_policy: list[bool],
    choice: str | None,
    budget: int,
    compiled: bool,
    layer: int | None = None,
) -> tuple[Fraction | None, int]:
    """The chance from a cold start (None past ``budget`` expanded states, or, compiled, past
    ``layer`` states in one layer) and the states expanded."""
    done, loads = _start(board, d, choice)
    if done is not None:
        return done, 0
    if compiled and _fits(board):
        return _fast(board, d, home_policy, loads, choice, budget, layer=layer)
    solver = _Solver(board, d, home_policy, loads, budget)  # a fresh memo: nothing remembered
    try:
        num, e = _entry(solver, board, loads, choice)
    except _TooBig:
        return None, solver.fresh
    return Fraction(num, _pow9(e)), solver.fresh


def live_home_chances(
    state: Any,
    max_states: int,
    *,
    others: Any = "home",
    compiled: bool | None = None,
    max_layer: int | None = None,
    exact_states: int | None = None,
) -> dict[str, Chance | float | None]:
    """:func:`home_chances` for the live overlay: every legal choice of the player to move under
    one budget of ``max_states`` states, and ``None`` for a choice past it.

    The choices are solved in their legal order, each from a cold start (nothing is
    remembered between calls), and each spends what it expands; the one that runs out of
    states gets ``None`` and leaves no budget to the ones after it (a choice that needs no
    states at all is still answered).  So the answer depends on the position and the budget
    only: never on the clock, the machine or what was asked before.  ``compiled`` (default:
    :data:`COMPILED`) picks the compiled DP or the Python one; both expand the same states
    and give the same fractions (the compiled one about 30 times faster).

    ``max_layer`` (compiled DP only; default: none) also gives a choice up as soon as one turn
    of its DP holds more than that many states: a position that is going to need far more
    states than the budget is then given up after a small part of it (the budget is spent
    when that happens, as above).  This too is a count of states, never the clock.

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=8, seed=0)
    >>> g.play_turn(dice=(2, 3), search="take")
    >>> g.play_turn(dice=(1, 2), search="take")
    >>> live_home_chances(g, 10_000)
    {'back': 1 (100%), 'continue': 42978374/43046721 ≈ 99.84%}
    >>> live_home_chances(g, 0)                 # "back" needs no state: he is safe at once
    {'back': 1 (100%), 'continue': None}

    ``exact_states`` (compiled DP only; default: none) makes the exact fractions the first
    try only: the choices are first solved exactly under that budget (all of them together, as
    above), and a choice past it is solved again by the same DP in double precision
    (:func:`.home_kernel.solve_float`, about 1.5 times as fast) under ``max_states`` and
    ``max_layer``, and gets a float: the exact chance to within about 1e-13, the same on
    every machine.  ``None`` still means past every budget.

    >>> r = live_home_chances(g, 10_000, exact_states=0)
    >>> r["back"], round(r["continue"], 6)      # "back" needs no state: still a fraction
    (1 (100%), 0.998412)
    """
    board = board_of(state)
    d = check_seat(board, None)
    pol = _policies(board, d, others, "home")
    use = COMPILED if compiled is None else compiled and COMPILED
    floats = use and exact_states is not None and _fits(board)
    out: dict[str, Chance | float | None] = {}
    left = exact_states if floats and exact_states is not None else max_states
    left_float = max_states
    for c in board.legal:
        r, used = _within(board, d, pol, c, left, use, None if floats else max_layer)
        left = 0 if r is None else left - used
        if r is not None:
            out[c] = Chance(r)
            continue
        out[c] = None
        if floats and left_float > 0:
            _, loads = _start(board, d, c)
            x, used = _fast_float(board, d, pol, loads, c, left_float, max_layer)
            out[c] = x
            left_float = 0 if x is None else left_float - used
    return out


def live_home_estimates(
    state: Any, choices: list[str], playouts: int, *, others: Any = "home", seed: int = 0
) -> dict[str, HomeEstimate] | None:
    """The live overlay's estimate for the choices :func:`live_home_chances` leaves open: for
    each of ``choices`` of the player to move, ``playouts`` random rounds of the very model
    :func:`home_chance` sums (:func:`.home_kernel.sample`: the same turns, policies and
    shortcuts, one drawn roll at a time), compiled.  The hits depend on the position,
    ``playouts`` and ``seed`` only.  ``None`` when the compiled DP is not there or the
    position does not fit it (then :func:`~.estimate.estimate_home_chance` plays the rounds
    on the game engine instead, some 20 times slower).

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=8, seed=0)
    >>> g.play_turn(dice=(2, 3), search="take"); g.play_turn(dice=(1, 2), search="take")
    >>> r = live_home_estimates(g, ["continue"], 20_000)
    >>> r is None or abs(r["continue"].chance - 0.998412) < 0.002
    True
    """
    board = board_of(state)
    d = check_seat(board, None)
    pol = _policies(board, d, others, "home")
    if not is_int(playouts) or playouts < 1:
        raise AnalysisError(f"playouts must be a whole number >= 1, got {playouts!r}")
    if not is_int(seed):
        raise AnalysisError(f"seed must be a whole number, got {seed!r}")
    if not (COMPILED and _fits(board)):
        return None
    out: dict[str, HomeEstimate] = {}
    for c in choices:
        done, loads = _start(board, d, c)
        if done is not None:
            out[c] = HomeEstimate(playouts if done == 1 else 0, playouts)
            continue
        out[c] = HomeEstimate(_sample(board, d, pol, loads, c, playouts, seed), playouts)
    return out


def _sample(
    board: Board,
    d: int,
    home_policy: list[bool],
    loads: list[int],
    choice: str | None,
    playouts: int,
    seed: int,
    run: Any = None,
) -> int:
    """The hits of :func:`.home_kernel.sample` (``run``: the tests pass :func:`.home_kernel.plain_solve`
    ``("sample")``, which takes lists)."""
    mixed, sure, roots = _split_plan(board, d, home_policy, loads, choice)
    bufs: list[Any] = _kernel_inputs(board, d, home_policy, loads, roots, None, None, 1)
    if run is None and home_kernel.COMPILED:
        bufs = [_np_array(b) for b in bufs]
    fn: Any = run or home_kernel.sample
    return int(fn(*bufs, 9 if mixed else 1, sure, playouts, seed % (1 << 62)))  # an int64 either way


def home_chance(
    state: Any,
    seat: int | None = None,
    *,
    others: Any = "home",
    me: str = "home",
    choice: str | None = None,
    max_states: int | None = MAX_STATES,
    max_seconds: float | None = None,
) -> Chance:
    """The exact chance that ``seat`` (default: the diver to play) is back when the round ends.

    ``others`` is the assumption about every other diver (``"home"`` or
    ``"keep"``, see the module text; or a dict seat -> policy), ``me`` the
    policy of ``seat`` himself.  Nobody takes or puts down anything, except
    that ``choice``, if given, is the current player's choice for the step he
    is at (``"back"``/``"continue"``, ``"roll"``, ``"none"``/``"take"``/
    ``"drop i"``), after which he follows his policy.

    Works from a Game or any View: nothing hidden is used.

    ``max_states`` (states expanded; default :data:`MAX_STATES`) and
    ``max_seconds`` bound the work: past either an :class:`AnalysisError`
    says so.  The sum runs compiled when numba is there (see
    :mod:`.home_kernel`) unless ``max_seconds`` is given: the clock is
    watched by the Python DP only, which keeps what it solved for the next
    call.  The widget's live overlay uses :func:`live_home_chances`.

    Ann on space 5 with one item, Bob on space 3 with one, 8 air:

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=8, seed=0)
    >>> g.play_turn(dice=(2, 3), search="take")
    >>> g.play_turn(dice=(1, 2), search="take")
    >>> home_chance(g)                          # Ann heads home now
    1 (100%)
    >>> home_chance(g, choice="continue")       # one more swim down first
    42978374/43046721 ≈ 99.84%
    >>> home_chance(g, choice="continue", others="keep")   # ... and Bob keeps diving
    428245/531441 ≈ 80.58%
    """
    board = board_of(state)
    d = check_seat(board, seat)
    return Chance(
        _chance(board, d, _policies(board, d, others, me), choice, max_states, max_seconds=max_seconds)
    )


def home_chances(
    state: Any,
    seat: int | None = None,
    *,
    others: Any = "home",
    me: str = "home",
    max_states: int | None = MAX_STATES,
    max_seconds: float | None = None,
) -> dict[str, Chance]:
    """:func:`home_chance` for every legal choice of the player to move (``max_seconds``: for all).

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=8, seed=0)
    >>> g.play_turn(dice=(2, 3), search="take")
    >>> g.play_turn(dice=(1, 2), search="take")
    >>> home_chances(g, others="keep")
    {'back': 6560/6561 ≈ 99.98%, 'continue': 428245/531441 ≈ 80.58%}
    """
    board = board_of(state)
    d = check_seat(board, seat)
    pol = _policies(board, d, others, me)
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    return {
        c: Chance(
            _chance(
                board,
                d,
                pol,
                c,
                max_states,
                max_seconds=None if deadline is None else max(0.0, deadline - time.perf_counter()),
            )
        )
        for c in board.legal
    }
