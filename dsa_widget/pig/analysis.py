"""Optimal two-player Pig, solved: the chance of winning from every state, as in Neller & Presser,
"Optimal Play of the Dice Game Pig" (The UMAP Journal 25(1), 2004).

``win_probability(goal)[i][j][k]`` is the chance that the player to move wins when they have
banked ``i``, the opponent ``j`` and their turn total is ``k`` (``i, j < goal``, ``i + k <
goal``), both playing to win.  Each state is the better of rolling, ``(1 - P(j, i, 0) + sum of
P(i, j, k + r) for r = 2..6) / 6``, and holding, ``1 - P(j, i + k, 0)`` (allowed when ``k > 0``);
a state with ``i + k >= goal`` is a win.  Holding moves to a larger sum of banked scores, so the
states are solved by that sum, from the largest down.  Within one sum, ``P(i, j, 0)`` and ``P(j,
i, 0)`` depend on each other through a 1: each is a convex piecewise-linear function of the other
(a maximum over turn policies, each linear), and Newton's method on the pair settles in 2 to 5
steps.  Plain Python: about half a second for goal 100, four for goal 200 (the work grows as the
cube of the goal).

>>> p = win_probability(100)           # computed once, then cached
>>> round(p[0][0][0], 4)               # the first player's edge
0.5306
>>> action_values(0, 0, 20, 100)       # (roll, hold) at 0-0 with 20 on the turn
(0.6198..., 0.6192...)
>>> optimal_policy(100)[0][0][:30].index(False)     # at 0-0, hold from a turn total of 21
21

Two fixed policies against each other, exactly (:func:`head_to_head`), and the expected points of
one turn of "hold at n" (:func:`turn_points`), the quantity "hold at 20" maximises:

>>> round(head_to_head(optimal(100), hold_at(20), 100), 4)   # optimal moves first
0.5715
>>> float(turn_points(20)), turn_points(20) == turn_points(21)
(8.1417948..., True)
"""

from __future__ import annotations

import functools
from array import array
from collections.abc import Callable, Sequence
from fractions import Fraction

from ..core.errors import is_int

__all__ = [
    "MAX_SOLVED_GOAL",
    "Policy",
    "Table",
    "action_values",
    "head_to_head",
    "hold_at",
    "optimal",
    "optimal_policy",
    "turn_points",
    "win_probability",
]

#: the largest goal solved (four seconds, 34 MB)
MAX_SOLVED_GOAL = 200
#: ``policy(banked, opponent, turn_total)`` is True to roll, False to hold (asked only when the
#: turn total is positive and short of the goal)
Policy = Callable[[int, int, int], bool]
#: ``[i][j]`` is an array of doubles by turn total ``k`` (8 bytes a state: 4 MB for goal 100)
Table = tuple[tuple[Sequence[float], ...], ...]


def _column(goal: int, i: int, j: int, bust: float, start: list[list[float]]) -> tuple[list[float], float]:
    """``P(i, j, k)`` for every ``k`` when a 1 is worth ``bust``, and the slope of ``P(i, j, 0)`` in
    ``bust`` (the chance of throwing a 1 before holding, under the best policy found)."""
    n = goal - i
    v = [0.0] * n + [1.0] * 6
    d = [0.0] * (n + 6)
    opp = start[j]
    for k in range(n - 1, -1, -1):
        roll = (bust + v[k + 2] + v[k + 3] + v[k + 4] + v[k + 5] + v[k + 6]) / 6
        hold = 1.0 - opp[i + k] if k else -1.0
        if hold >= roll:
            v[k] = hold
        else:
            v[k] = roll
            d[k] = (1.0 + d[k + 2] + d[k + 3] + d[k + 4] + d[k + 5] + d[k + 6]) / 6
    return v[:n], d[0]


@functools.lru_cache(maxsize=4)
def win_probability(goal: int = 100) -> Table:
    """The chance the player to move wins, ``[i][j][k]``, under optimal play by both."""
    if not is_int(goal) or not 1 <= goal <= MAX_SOLVED_GOAL:
        raise ValueError(f"the solved goals are 1 to {MAX_SOLVED_GOAL}, got {goal!r}")
    start = [[0.0] * goal for _ in range(goal)]  # P(i, j, 0), filled by decreasing i + j
    cols: list[list[Sequence[float]]] = [[() for _ in range(goal)] for _ in range(goal)]
    x = y = 0.5
    for s in range(2 * goal - 2, -1, -1):
        for i in range(max(0, s - goal + 1), s // 2 + 1):
            j = s - i
            for _ in range(60):  # Newton on x = P(i, j, 0), y = P(j, i, 0)
                vi, bi = _column(goal, i, j, 1.0 - y, start)
                ai = vi[0] - bi * (1.0 - y)  # x = ai + bi * (1 - y) on this piece
                if i == j:
                    vj, nx = vi, (ai + bi) / (1.0 + bi)
                    ny = nx
                else:
                    vj, bj = _column(goal, j, i, 1.0 - x, start)
                    aj = vj[0] - bj * (1.0 - x)
                    nx = (ai + bi - bi * (aj + bj)) / (1.0 - bi * bj)
                    ny = aj + bj * (1.0 - nx)
                done = abs(nx - x) + abs(ny - y) < 1e-13
                x, y = nx, ny
                if done:
                    break
            start[i][j], start[j][i] = x, y
            cols[i][j], cols[j][i] = array("d", vi), array("d", vj)
    return tuple(tuple(row) for row in cols)


def action_values(i: int, j: int, k: int, goal: int = 100) -> tuple[float, float]:
    """``(roll, hold)``: the chance to win after each choice at ``(i, j, k)`` (``hold`` is 0 when
    the turn total is 0: holding nothing is not allowed).  ``i`` and ``j`` are the banked scores
    of the player to move and the other, each 0 to ``goal - 1``, and ``k`` the turn total, 0 to
    ``goal - 1 - i`` (a position where nobody has won yet); anything else raises ``ValueError``.

    >>> roll, hold = action_values(0, 0, 5, goal=50)  # 5 on the turn at 0-0: roll on
    >>> round(roll, 4), round(hold, 4)
    (0.5695, 0.5049)
    >>> action_values(0, -1, 0, goal=50)
    Traceback (most recent call last):
    ...
    ValueError: j must be a whole number from 0 to 49 (the other's banked score), got -1
    """
    _check_goal(goal)
    for name, x, top, what in (
        ("i", i, goal - 1, "the mover's banked score"),
        ("j", j, goal - 1, "the other's banked score"),
        ("k", k, goal - 1 - i if is_int(i) else goal - 1, "the turn total, with i banked"),
    ):
        if not is_int(x) or not 0 <= x <= top:
            raise ValueError(f"{name} must be a whole number from 0 to {top} ({what}), got {x!r}")
    return _action_values(win_probability(goal), i, j, k, goal)


def _action_values(p: Table, i: int, j: int, k: int, goal: int) -> tuple[float, float]:
    """:func:`action_values` from the solved table ``p``, for a position known to be in it."""
    ahead = sum(p[i][j][k + r] if i + k + r < goal else 1.0 for r in range(2, 7))
    return (1.0 - p[j][i][0] + ahead) / 6, (1.0 - p[j][i + k][0] if k else 0.0)


@functools.lru_cache(maxsize=2)
def optimal_policy(goal: int = 100) -> tuple[tuple[tuple[bool, ...], ...], ...]:
    """``[i][j][k]``: True where rolling is the optimal choice (ties hold), for drawing the
    roll/hold boundary."""
    p = win_probability(goal)  # checks the goal
    return tuple(
        tuple(
            tuple(r > h for r, h in (_action_values(p, i, j, k, goal) for k in range(goal - i)))
            for j in range(goal)
        )
        for i in range(goal)
    )


def _check_goal(goal: int) -> None:
    if not is_int(goal) or not 1 <= goal <= MAX_SOLVED_GOAL:
        raise ValueError(f"the solved goals are 1 to {MAX_SOLVED_GOAL}, got {goal!r}")


def hold_at(n: int) -> Policy:
    """Roll while the turn total is below ``n``, then hold (``hold_at(20)``: the policy that
    maximises the expected points of a turn)."""
    if not is_int(n) or n < 1:
        raise ValueError(f"hold_at: n must be a positive int, got {n!r}")
    return lambda i, j, k: k < n


def optimal(goal: int = 100) -> Policy:
    """Neller & Presser's policy for ``goal``: roll where rolling wins more often (ties hold)."""
    table = optimal_policy(goal)
    return lambda i, j, k: table[i][j][k]


def _fixed_column(goal: int, i: int, j: int, policy: Policy, opp: list[list[float]]) -> tuple[float, float]:
    """``(a, b)`` with ``P(i, j, 0) = a + b * bust`` for the player to move playing ``policy``,
    where ``opp[j][m]`` is the opponent's chance to win on moving with ``m`` banked against ``j``
    and ``bust`` the player's chance after a 1 (``1 - opp[j][i]``)."""
    n = goal - i
    a = [0.0] * n + [1.0] * 6
    b = [0.0] * (n + 6)
    for k in range(n - 1, -1, -1):
        if k and not policy(i, j, k):
            a[k] = 1.0 - opp[j][i + k]
        else:
            a[k] = (a[k + 2] + a[k + 3] + a[k + 4] + a[k + 5] + a[k + 6]) / 6
            b[k] = (1.0 + b[k + 2] + b[k + 3] + b[k + 4] + b[k + 5] + b[k + 6]) / 6
    return a[0], b[0]


def head_to_head(first: Policy, second: Policy, goal: int = 100) -> float:
    """The exact chance (up to rounding) that the player who moves first, playing ``first``, beats
    the one playing ``second``.

    With both policies fixed, each player's chance at the start of a turn is linear in the chance
    after a 1: states are solved by the sum of banked scores, from the largest down, and within
    one sum each pair of turn starts ``(A to move at i-j, B to move at j-i)`` is two linear
    equations in two unknowns, solved outright.  Plain Python: about a second for goal 100."""
    _check_goal(goal)
    # a[i][j]: `first` to move with i banked against j; b[j][i]: `second` to move with j against i
    a = [[0.0] * goal for _ in range(goal)]
    b = [[0.0] * goal for _ in range(goal)]
    for s in range(2 * goal - 2, -1, -1):
        for i in range(max(0, s - goal + 1), min(s, goal - 1) + 1):
            j = s - i
            a0, a1 = _fixed_column(goal, i, j, first, b)  # A's chance = a0 + a1 * (1 - B's)
            b0, b1 = _fixed_column(goal, j, i, second, a)  # B's chance = b0 + b1 * (1 - A's)
            x = (a0 + a1 - a1 * (b0 + b1)) / (1.0 - a1 * b1)
            a[i][j], b[j][i] = x, b0 + b1 * (1.0 - x)
    return a[0][0]


def turn_points(n: int) -> Fraction:
    """The expected points one turn of "hold at ``n``" banks, exactly (no goal: a 1 scores 0)."""
    if not is_int(n) or not 1 <= n <= 1000:
        raise ValueError(f"turn_points: n must be an int from 1 to 1000, got {n!r}")
    e = [Fraction(k) for k in range(n, n + 6)]  # e[k - n] for k >= n: he holds k
    for _ in range(n):  # k = n - 1 down to 0
        e.insert(0, sum(e[1:6], Fraction(0)) / 6)
    return e[0]
