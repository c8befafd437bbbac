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
the work grows quickly with their number and with the air left.  Typical
mid-round questions take about a millisecond and most take well under 100 ms;
five or six divers deep in the water with lots of air can need hundreds of
thousands of states.  ``max_states`` (default 200,000, one or two seconds)
bounds the work: past it an :class:`AnalysisError` says so and points to
:func:`~dsa_widget.analysis.estimate.estimate_home_chance`.  Solved states
are remembered between calls (see :func:`clear_cache`), so asking again after
the next turn of the same round is usually instant.

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
22/27 ≈ 0.8148
"""

from __future__ import annotations

import sys
from collections import OrderedDict
from fractions import Fraction
from typing import Any, Mapping

from ._common import AnalysisError, Board, Exact, board_of, check_seat
from .dice import SUM_WEIGHTS

__all__ = ["home_chance", "home_chances", "clear_cache", "POLICIES", "MAX_STATES"]

#: The assumptions a diver may be given.
POLICIES = ("home", "keep")

#: Default limit on the number of states the exact DP may visit (about 1-2 s of work).
MAX_STATES = 200_000

_SUMS = tuple(SUM_WEIGHTS.items())
_POW9 = [9**i for i in range(400)]


def _pow9(e: int) -> int:
    while e >= len(_POW9):
        _POW9.append(_POW9[-1] * 9)
    return _POW9[e]


class _Solver:
    """Exact DP; a probability is an int pair (num, e) meaning num / 9**e."""

    __slots__ = ("n", "length", "req", "d", "home_policy", "loads", "memo", "loaded", "budget", "fresh")

    def __init__(
        self, board: Board, d: int, home_policy: list[bool], loads: list[int], budget: int | None = None
    ) -> None:
        self.loaded = [i for i in range(board.n) if loads[i] > 0]
        self.budget = budget
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
        if up[d]:
            need = p
        elif p > 0 and self.home_policy[d] and (kd > 0 or not self.req):
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
        occ = {x for i, x in enumerate(pos) if i != q and x > 0}
        if up[q] != heading:
            ul = list(up)
            ul[q] = heading
            up = tuple(ul)
        # the free spaces he would pass, in order (jumped spaces are skipped)
        most = 6 - k
        frees: list[int] = []
        if most > 0:
            if heading:
                i = p - 1
                while i > 0 and len(frees) < most:
                    if i not in occ:
                        frees.append(i)
                    i -= 1
            else:
                i = p + 1
                length = self.length
                while i <= length and len(frees) < most:
                    if i not in occ:
                        frees.append(i)
                    i += 1
        nf = len(frees)
        # where each sum leads (sums that lead to the same space are merged)
        weights: dict[int, int] = {}
        for s, w in _SUMS:
            st = s - k
            if st <= 0:
                to = p
            elif st <= nf:
                to = frees[st - 1]
            elif heading:
                to = 0
            else:
                to = frees[-1] if nf else p  # the deepest free space
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


class _TooBig(Exception):
    pass


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


def _policies(board: Board, d: int, others: Any, me: str) -> list[bool]:
    def one(x: Any, who: str) -> bool:
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


def _chance(
    board: Board,
    d: int,
    home_policy: list[bool],
    choice: str | None,
    max_states: int | None = None,
    solvers: Any = None,
) -> Fraction:
    if board.current is None:
        raise AnalysisError("the game is over; no diver is in the water")
    if board.home[d]:
        return Fraction(1)
    loads = list(board.loads)
    q = board.current
    if choice is not None and choice not in board.legal:
        legal = ", ".join(map(repr, board.legal))
        raise AnalysisError(f"{choice!r} is not legal now (step {board.step!r}; legal: {legal})")
    if board.step == "search":
        if choice is not None and choice.startswith("drop"):
            loads[q] -= 1
        elif choice == "take":
            loads[q] += 1
    solver = _solver(board, d, home_policy, loads, max_states)
    pos, up = board.positions, board.up
    old = sys.getrecursionlimit()
    if old < 20000:
        sys.setrecursionlimit(20000)
    try:
        if board.step == "search":
            r = solver.end_turn(q, board.air, board.last, pos, up)
        elif board.step == "turn_back":
            heading = solver.heading(q, pos, up, choice)
            air2 = board.air - loads[q]
            r = solver.swim(q, air2, air2 <= 0, pos, up, heading)
        else:  # roll
            if board.breathed:
                r = solver.swim(q, board.air, board.last, pos, up, up[q])
            else:
                heading = True if board.forced else solver.heading(q, pos, up, "continue")
                air2 = board.air - loads[q]
                r = solver.swim(q, air2, air2 <= 0, pos, up, heading)
    except _TooBig:
        raise AnalysisError(
            f"the exact answer needs more than {max_states:,} game states (many divers in the water, "
            "lots of air): pass max_states=None to compute it anyway (it may take a long time), or "
            "use estimate_home_chance() for a simulated figure with a 95% interval"
        ) from None
    finally:
        sys.setrecursionlimit(old)
    return Fraction(r[0], _pow9(r[1]))


def home_chance(
    state: Any,
    seat: int | None = None,
    *,
    others: Any = "home",
    me: str = "home",
    choice: str | None = None,
    max_states: int | None = MAX_STATES,
) -> Exact:
    """The exact chance that ``seat`` (default: the diver to play) is back when the round ends.

    ``others`` is the assumption about every other diver (``"home"`` or
    ``"keep"``, see the module text; or a dict seat -> policy), ``me`` the
    policy of ``seat`` himself.  Nobody takes or puts down anything, except
    that ``choice``, if given, is the current player's choice for the step he
    is at (``"back"``/``"continue"``, ``"roll"``, ``"none"``/``"take"``/
    ``"drop i"``), after which he follows his policy.

    Works from a Game or any View: nothing hidden is used.

    Ann on space 5 with one item, Bob on space 3 with one, 8 air:

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=8, seed=0)
    >>> g.play_turn(dice=(2, 3), search="take")
    >>> g.play_turn(dice=(1, 2), search="take")
    >>> home_chance(g)                          # Ann heads home now
    1
    >>> home_chance(g, choice="continue")       # one more swim down first
    42978374/43046721 ≈ 0.9984
    >>> home_chance(g, choice="continue", others="keep")   # ... and Bob keeps diving
    428245/531441 ≈ 0.8058
    """
    board = board_of(state)
    d = check_seat(board, seat)
    return Exact(_chance(board, d, _policies(board, d, others, me), choice, max_states))


def home_chances(
    state: Any,
    seat: int | None = None,
    *,
    others: Any = "home",
    me: str = "home",
    max_states: int | None = MAX_STATES,
) -> dict[str, Exact]:
    """:func:`home_chance` for every legal choice of the player to move.

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=8, seed=0)
    >>> g.play_turn(dice=(2, 3), search="take")
    >>> g.play_turn(dice=(1, 2), search="take")
    >>> home_chances(g, others="keep")
    {'back': 6560/6561 ≈ 0.9998, 'continue': 428245/531441 ≈ 0.8058}
    """
    board = board_of(state)
    d = check_seat(board, seat)
    pol = _policies(board, d, others, me)
    return {c: Exact(_chance(board, d, pol, c, max_states)) for c in board.legal}
