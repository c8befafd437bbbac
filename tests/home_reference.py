"""The straightforward exact DP of :func:`~dsa_widget.deep_sea.analysis.home.home_chance` (a test oracle).

:class:`_RefSolver` is the first, plain version of the dynamic programme described in
:mod:`dsa_widget.deep_sea.analysis.home`: a recursion over (whose turn, air, positions, headings)
tuples with no packing, no move cache and looser bounds.  The fast
:class:`~dsa_widget.deep_sea.analysis.home._Solver` must give the very same fractions
(``tests/test_analysis_home_fast.py``);
``benchmarks/bench_analysis.py --home-reference`` times both.  Nothing else uses this module.
"""

from __future__ import annotations

import time
from fractions import Fraction
from typing import Any

from dsa_widget.deep_sea.analysis._common import Board, board_of, check_seat, occupancy
from dsa_widget.deep_sea.analysis.home import _POW9, _SUMS, _chance, _policies, _pow9, _TooBig
from dsa_widget.deep_sea.rules import swim

__all__ = ["reference_chance"]


class _RefSolver:
    """The straightforward exact DP (the reference for the tests; :class:`_Solver` is used).

    A probability is an int pair (num, e) meaning num / 9**e.
    """

    __slots__ = (
        "n",
        "length",
        "req",
        "d",
        "home_policy",
        "loads",
        "memo",
        "loaded",
        "budget",
        "deadline",
        "fresh",
    )

    def __init__(
        self, board: Board, d: int, home_policy: list[bool], loads: list[int], budget: int | None = None
    ) -> None:
        self.loaded = [i for i in range(board.n) if loads[i] > 0]
        self.budget = budget
        self.deadline: float | None = None
        self.fresh = 0  # states solved during the current call (for the budget)
        self.n = board.n
        self.length = board.path_length
        self.req = board.requires_treasure
        self.d = d
        self.home_policy = home_policy
        self.loads = loads
        self.memo: dict[tuple[Any, ...], tuple[int, int]] = {}

    def heading(self, q: int, pos: tuple[int, ...], up: tuple[bool, ...], choice: str | None = None) -> bool:
        """The heading of q for his swim this turn (forced turn back, policy or ``choice``)."""
        if up[q]:
            return True
        p = pos[q]
        if p == 0:
            return False
        occ = {x for i, x in enumerate(pos) if i != q and x > 0}
        if all(i in occ for i in range(p + 1, self.length + 1)):
            return True  # forced
        if choice is not None:
            return choice == "back"
        return self.home_policy[q] and (self.loads[q] > 0 or not self.req)

    def hopeless(self, q: int, air: int, pos: tuple[int, ...], up: tuple[bool, ...]) -> bool:
        """True when our diver cannot be back in time even with the best dice (a safe bound).

        Every other diver still in the water breathes on at least as many turns as he needs to
        reach the submarine with maximal rolls; our diver gains at most ``6 - k`` spaces a turn,
        plus at most one jump per other diver still out of the submarine (in one turn).
        """
        d = self.d
        loads = self.loads
        kd = loads[d]
        if kd == 0:
            return False
        n = self.n
        need = pos[d]
        if need <= 0:
            return False
        if kd >= 6:
            return True  # he can never move again
        out = 0
        breath = 0
        for i in range(n):
            if not (up[i] and pos[i] == 0):
                out += 1
                breath += loads[i]
        gain = 5 - kd + out  # 6 - kd spaces, plus one jump per other diver out of the submarine
        # quick exit: even if everybody breathes on every turn, the air lasts for the turns he needs
        if air > -(-need // gain) * breath:
            return False
        # fewest turns each other diver still breathes (he breathes on the turn he gets home)
        left = []
        for i in range(n):
            if i == d or (up[i] and pos[i] == 0) or loads[i] == 0:
                left.append(0)
            else:
                g = 6 - loads[i] + (n - 1)
                dist = pos[i]
                left.append(max(1, -(-dist // g)) if g > 0 else 10**6)
        turns = 0
        i = q
        while True:
            if i == d:
                air -= kd
                turns += 1
                if turns * gain >= need:
                    return False
                if air <= 0:
                    return True
            elif left[i]:
                left[i] -= 1
                air -= loads[i]
                if air <= 0:
                    return True
            i = i + 1 if i + 1 < n else 0

    def safe(self, air: int, pos: tuple[int, ...], up: tuple[bool, ...]) -> bool:
        """True when the air can never run out again, so every diver (ours too) gets back.

        A diver carrying one item gains at least one space a turn, so he breathes on at most
        (spaces still to swim) more turns; one carrying 2 or more may roll 0 forever (no bound).
        """
        length = self.length
        total = 0
        for i in self.loaded:
            if up[i] and pos[i] == 0:
                continue
            k = self.loads[i]
            if k >= 2:
                return False
            p = pos[i]
            if up[i] or (p > 0 and self.home_policy[i]):
                total += p
            else:
                total += 2 * length - p + 1
            if total >= air:
                return False
        return True

    def sure(self, q: int, air: int, pos: tuple[int, ...], up: tuple[bool, ...]) -> bool:
        """True when our diver gets back whatever the dice do (a safe bound).

        Carrying at most one item he gains at least one space a turn heading up, so within
        ``T`` more turns of his he is back; if the air cannot run out before his ``T``-th turn
        even when every other diver keeps breathing, he is safe.
        """
        d = self.d
        kd = self.loads[d]
        if kd > 1:
            return False
        p = pos[d]
        if up[d] or p > 0 and self.home_policy[d] and (kd > 0 or not self.req):
            need = p
        else:
            return False
        n = self.n
        turns = 0
        i = q
        while True:
            if i == d:
                turns += 1
                if turns >= need:
                    return True  # his last needed turn comes; a last turn still lets him swim
                air -= kd
            elif not (up[i] and pos[i] == 0):
                air -= self.loads[i]
            if air <= 0:
                return False
            i = i + 1 if i + 1 < n else 0

    # state at the start of q's turn, before he breathes
    def start(self, q: int, air: int, pos: tuple[int, ...], up: tuple[bool, ...]) -> tuple[int, int]:
        key = (q, air, pos, up)
        r = self.memo.get(key)
        if r is not None:
            return r
        if self.safe(air, pos, up) or self.sure(q, air, pos, up):
            r = (1, 0)
        elif self.hopeless(q, air, pos, up):
            r = (0, 0)
        else:
            self.fresh += 1
            if self.budget is not None and self.fresh > self.budget:
                raise _TooBig()
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise _TooBig()
            air2 = air - self.loads[q]
            r = self.swim(q, air2, air2 <= 0, pos, up, self.heading(q, pos, up))
        self.memo[key] = r
        return r

    def swim(
        self, q: int, air2: int, last: bool, pos: tuple[int, ...], up: tuple[bool, ...], heading: bool
    ) -> tuple[int, int]:
        """Expectation over the dice of q's swim (he has breathed and chosen his heading)."""
        k = self.loads[q]
        p = pos[q]
        d = self.d
        n = self.n
        occ = occupancy((x for i, x in enumerate(pos) if i != q), self.length)
        if up[q] != heading:
            ul = list(up)
            ul[q] = heading
            up = tuple(ul)
        # where each sum leads (sums that lead to the same space are merged)
        weights: dict[int, int] = {}
        for s, w in _SUMS:
            to = swim(p, heading, s - k, occ)
            weights[to] = weights.get(to, 0) + w
        # the next diver to play (the same whoever lands where, see end_turn)
        nq = q
        for _ in range(n):
            nq = nq + 1 if nq + 1 < n else 0
            if not (up[nq] and pos[nq] == 0):
                break
        memo = self.memo
        results: list[tuple[int, tuple[int, int]]] = []
        for to, w in weights.items():
            if heading and to == 0 and q == d:
                r = (1, 0)
            else:
                if to != p:
                    pl = list(pos)
                    pl[q] = to
                    npos = tuple(pl)
                else:
                    npos = pos
                if up[d] and npos[d] == 0:
                    r = (1, 0)
                elif last:
                    r = (1, 0) if npos[d] == 0 else (0, 0)
                else:
                    got = memo.get((nq, air2, npos, up))
                    r = got if got is not None else self.start(nq, air2, npos, up)
            results.append((w, r))
        return _mix(results)

    def end_turn(
        self, q: int, air2: int, last: bool, pos: tuple[int, ...], up: tuple[bool, ...]
    ) -> tuple[int, int]:
        """q's turn is over (he searched nothing): the round ends, or the next diver plays."""
        d = self.d
        if up[d] and pos[d] == 0:
            return (1, 0)
        if last:
            return (1, 0) if pos[d] == 0 else (0, 0)
        n = self.n
        nq = q
        for _ in range(n):
            nq = nq + 1 if nq + 1 < n else 0
            if not (up[nq] and pos[nq] == 0):
                break
        r = self.memo.get((nq, air2, pos, up))
        return r if r is not None else self.start(nq, air2, pos, up)

    def entry(self, board: Board, loads: list[int], choice: str | None) -> tuple[int, int]:
        """The chance from the board's current step (as :meth:`_Solver.entry`)."""
        q = board.current
        assert q is not None
        pos, up = board.positions, board.up
        if board.step == "search":
            return self.end_turn(q, board.air, board.last, pos, up)
        if board.step == "turn_back":
            heading = self.heading(q, pos, up, choice)
        elif board.breathed:  # roll, after breathing: the heading is settled
            return self.swim(q, board.air, board.last, pos, up, up[q])
        else:  # roll, before breathing
            heading = True if board.forced else self.heading(q, pos, up, "continue")
        air2 = board.air - loads[q]
        return self.swim(q, air2, air2 <= 0, pos, up, heading)


def _mix(results: list[tuple[int, tuple[int, int]]]) -> tuple[int, int]:
    e = 0
    for _, r in results:
        if r[1] > e:
            e = r[1]
    num = 0
    pw = _POW9 if e < len(_POW9) else [_pow9(i) for i in range(e + 1)]
    for w, (rn, re) in results:
        if rn:
            num += w * rn * pw[e - re]
    e += 1
    if num == 0:
        return (0, 0)
    while e and num % 9 == 0:
        num //= 9
        e -= 1
    return (num, e)


def reference_chance(
    state: Any,
    seat: int | None = None,
    *,
    others: Any = "home",
    me: str = "home",
    choice: str | None = None,
    max_states: int | None = None,
) -> Fraction:
    """:func:`~dsa_widget.deep_sea.analysis.home_chance` by :class:`_RefSolver` (nothing cached).

    >>> from dsa_widget import Game
    >>> from dsa_widget.deep_sea.analysis import home_chance
    >>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=8, seed=0)
    >>> g.play_turn(dice=(2, 3), search="take")
    >>> g.play_turn(dice=(1, 2), search="take")
    >>> reference_chance(g, choice="continue") == home_chance(g, choice="continue")
    True
    """
    board = board_of(state)
    d = check_seat(board, seat)
    return _chance(board, d, _policies(board, d, others, me), choice, max_states, make=_RefSolver)
