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

Where nothing is solved (more than two players, a turn limit, a goal above
:data:`MAX_SOLVED_GOAL`), :func:`estimate_win` samples games from any position, every player
then holding at 20; :func:`hold_at_turn` is the exact law of one such turn that it draws from:

>>> wins, n = estimate_win((0, 0, 0), 0, 0, 100, first="roll", seed="doc")
>>> n > 100 and 0.2 < wins / n < 0.5
True
>>> float(turn_points(20)), turn_points(20) == turn_points(21)
(8.1417948..., True)
"""

from __future__ import annotations

import bisect
import functools
import random
from array import array
from collections.abc import Callable, Sequence
from fractions import Fraction

from ..core.errors import is_int, short_repr
from .rules import MAX_GOAL

__all__ = [
    "ESTIMATE_HOLD",
    "ESTIMATE_TURNS",
    "MAX_SOLVED_GOAL",
    "Policy",
    "Table",
    "action_values",
    "estimate_win",
    "head_to_head",
    "hold_at",
    "hold_at_turn",
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
#: the turn total every player holds at in :func:`estimate_win`'s games (sooner where holding
#: reaches the goal): the policy that maximises a turn's expected points (:func:`turn_points`)
ESTIMATE_HOLD = 20
#: the turns :func:`estimate_win` plays by default, over all its games: a budget of work, not
#: of time (about 7 ms of CPU here; from the start, about 1,000 games at two players and goal 100,
#: 760 at three, 89 at two and goal 1,000)
ESTIMATE_TURNS = 20_000
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


@functools.cache
def hold_at_turn(n: int) -> tuple[tuple[int, ...], tuple[Fraction, ...]]:
    """The law of the points one turn of "hold at ``n``" banks, exactly: the outcomes (0 after a
    1, else ``n`` to ``n + 5``) and their probabilities.

    >>> points, p = hold_at_turn(3)     # a 2 first means one roll more
    >>> points, [str(x) for x in p]
    ((0, 3, 4, 5, 6, 7, 8), ['7/36', '1/6', '7/36', '7/36', '7/36', '1/36', '1/36'])
    >>> sum(x * q for x, q in zip(*hold_at_turn(20))) == turn_points(20)
    True
    """
    if not is_int(n) or not 1 <= n <= MAX_GOAL:
        raise ValueError(f"hold_at_turn: n must be an int from 1 to {MAX_GOAL}, got {short_repr(n)}")
    reach = [Fraction(0)] * (n + 6)  # the chance the turn total passes through k
    reach[0] = Fraction(1)
    bust = Fraction(0)
    for k in range(n):  # below n the player rolls
        if reach[k]:
            bust += reach[k] / 6
            for r in range(2, 7):
                reach[k + r] += reach[k] / 6
    points = (0, *(k for k in range(n, n + 6) if reach[k]))
    return points, (bust, *(reach[k] for k in points[1:]))


@functools.cache
def _turn_sampler(n: int) -> tuple[tuple[int, ...], tuple[float, ...]]:
    """:func:`hold_at_turn` as outcomes and cumulative floats, for one uniform draw a turn."""
    points, p = hold_at_turn(n)
    cum, total = [], Fraction(0)
    for q in p:
        total += q
        cum.append(float(total))
    cum[-1] = 1.0
    return points, tuple(cum)


def estimate_win(
    scores: Sequence[int],
    current: int,
    turn_total: int,
    goal: int,
    *,
    first: str,
    turns_done: int = 0,
    max_turns: int | None = None,
    budget: int = ESTIMATE_TURNS,
    seed: object = 0,
) -> tuple[float, int]:
    """The chance that the player to move (``current``, with ``turn_total`` on the turn) wins,
    sampled: they ``first`` ``"roll"`` (a die thrown) or ``"hold"`` (bank the turn total), then
    every player holds at :data:`ESTIMATE_HOLD` (or as soon as holding reaches ``goal``).  With
    ``max_turns`` the games end after that many turns (``turns_done`` finished already), the
    best scores sharing the win.  Returns ``(wins, games)``: the games won (a win shared by
    ``m`` players counts ``1/m``) and the games played.  ``budget`` bounds the turns played over
    all games (whole games: at least one); ``seed`` makes the sample repeatable.

    >>> wins, n = estimate_win((60, 70), 0, 12, 100, first="hold", seed=1)   # bank 12: 72 to 70
    >>> round(wins / n, 2), n > 2000
    (0.43, True)
    >>> wins, n = estimate_win((10, 14), 0, 4, 100, first="hold", max_turns=1)   # the last turn
    >>> wins / n                                 # 14 all: the win is shared
    0.5
    """
    if first not in ("roll", "hold"):
        raise ValueError(f"estimate_win: first is 'roll' or 'hold', got {short_repr(first)}")
    if not is_int(budget) or budget < 1:
        raise ValueError(f"estimate_win: budget must be a positive int, got {short_repr(budget)}")
    _check_position(scores, current, turn_total, goal)
    if first == "hold" and turn_total < 1:
        raise ValueError("estimate_win: holding needs a turn total above 0")
    if not is_int(turns_done) or turns_done < 0:
        raise ValueError(f"estimate_win: turns_done is an int from 0, got {short_repr(turns_done)}")
    if max_turns is not None and (not is_int(max_turns) or max_turns <= turns_done):
        raise ValueError(
            f"estimate_win: max_turns is None or an int above turns_done ({turns_done}), "
            f"got {short_repr(max_turns)}"
        )
    rng = random.Random(repr(seed))
    uniform, players = rng.random, len(scores)
    wins, games, turns = 0.0, 0, 0
    while games == 0 or turns < budget:
        s = list(scores)
        q, done = current, turns_done
        # the player to move: one turn played roll by roll from where it stands
        k = turn_total
        if first == "roll":
            while True:
                face = 1 + int(uniform() * 6)
                if face == 1:
                    k = 0
                    break
                k += face
                if k >= min(ESTIMATE_HOLD, goal - s[q]):
                    break
        s[q] += k
        turns += 1
        done += 1
        winners: tuple[int, ...] = (q,) if s[q] >= goal else ()
        while not winners:
            if max_turns is not None and done >= max_turns:
                best = max(s)
                winners = tuple(p for p in range(players) if s[p] == best)
                break
            q = (q + 1) % players
            points, cum = _turn_sampler(min(ESTIMATE_HOLD, goal - s[q]))
            s[q] += points[bisect.bisect_right(cum, uniform())]
            turns += 1
            done += 1
            if s[q] >= goal:
                winners = (q,)
        games += 1
        if current in winners:
            wins += 1 / len(winners)
    return wins, games


def _check_position(scores: Sequence[int], current: int, turn_total: int, goal: int) -> None:
    """A game position :func:`estimate_win` can play from, or a ValueError saying what is wrong."""
    if not is_int(goal) or not 1 <= goal <= MAX_GOAL:
        raise ValueError(f"estimate_win: goal must be an int from 1 to {MAX_GOAL}, got {short_repr(goal)}")
    if (
        not isinstance(scores, Sequence)
        or not 2 <= len(scores) <= 6
        or not all(is_int(x) and 0 <= x < goal for x in scores)
    ):
        raise ValueError(f"estimate_win: scores are 2 to 6 ints from 0 to goal - 1, got {short_repr(scores)}")
    if not is_int(current) or not 0 <= current < len(scores):
        raise ValueError(f"estimate_win: current is a seat of the scores, got {short_repr(current)}")
    if not is_int(turn_total) or not 0 <= turn_total < goal - scores[current]:
        raise ValueError(
            f"estimate_win: the turn total is an int from 0, short of the goal, got {short_repr(turn_total)}"
        )
