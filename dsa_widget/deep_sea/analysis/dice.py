"""Dice sums and how far a diver moves: exact distributions.

Each die has faces 1, 1, 2, 2, 3, 3, so it shows 1, 2 or 3, each with
chance 1/3.  Two dice give 3 x 3 = 9 equally likely ordered pairs:

====  =========================  =====
sum   pairs                      chance
====  =========================  =====
2     (1,1)                      1/9
3     (1,2) (2,1)                2/9
4     (1,3) (2,2) (3,1)          3/9
5     (2,3) (3,2)                2/9
6     (3,3)                      1/9
====  =========================  =====

A diver carrying ``k`` items swims ``max(0, sum - k)`` spaces (before
jumps): every item costs one space, and a result of 0 or less means he stays
put.  So the chances of the low sums pile up on 0.

>>> dice_sum_distribution()
{2: 1/9, 3: 2/9, 4: 1/3, 5: 2/9, 6: 1/9}
>>> steps_distribution(3)
{0: 1/3, 1: 1/3, 2: 2/9, 3: 1/9}
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

from ...core.errors import is_int
from ._common import AnalysisError, Distribution, Steps

__all__ = ["dice_sum_distribution", "steps_distribution", "expected_steps", "SUM_WEIGHTS"]

#: Ways (out of 9) to roll each sum 2..6.
SUM_WEIGHTS: dict[int, int] = {2: 1, 3: 2, 4: 3, 5: 2, 6: 1}


@cache
def dice_sum_distribution() -> Distribution:
    """The sum of the two dice: 2..6 with chances 1/9, 2/9, 3/9, 2/9, 1/9 (mean 4).

    Counted from the 9 equally likely ordered pairs of faces 1..3:

    >>> d = dice_sum_distribution()
    >>> d[4], d.mean
    (1/3 ≈ 33.33%, 4)
    >>> sum(d.values()) == 1
    True
    """
    counts: dict[int, int] = {}
    for a in (1, 2, 3):
        for b in (1, 2, 3):
            counts[a + b] = counts.get(a + b, 0) + 1
    return Distribution({s: Fraction(c, 9) for s, c in counts.items()}, title="sum of two dice")


@cache
def steps_distribution(items: int) -> Distribution:
    """How many spaces a diver carrying ``items`` items swims: ``max(0, sum - items)``.

    Every sum ``s`` moves the diver ``s - items`` spaces, or 0 if that is not
    positive; the chances of the sums that give 0 add up.

    >>> steps_distribution(0)
    {2: 1/9, 3: 2/9, 4: 1/3, 5: 2/9, 6: 1/9}
    >>> d = steps_distribution(2)
    >>> d
    {0: 1/9, 1: 2/9, 2: 1/3, 3: 2/9, 4: 1/9}
    >>> d.mean
    2 steps
    >>> steps_distribution(3).mean
    10/9 ≈ 1.11 steps
    >>> steps_distribution(6)
    {0: 1}
    """
    if not is_int(items) or items < 0:
        raise AnalysisError(f"items must be a whole number >= 0, got {items!r}")
    out: dict[int, Fraction] = {}
    for s, p in dice_sum_distribution().items():
        k = max(0, s - items)
        out[k] = out.get(k, Fraction(0)) + p
    return Distribution(out, title=f"spaces swum carrying {items} item(s)", mean=Steps)


def expected_steps(items: int) -> Steps:
    """The mean number of spaces swum carrying ``items`` items.

    While ``items <= 2`` no sum is wasted and the mean is simply ``4 - items``;
    from 3 items on, the "stay put" floor makes it larger than that.

    >>> [expected_steps(k) for k in range(5)]
    [4 steps, 3 steps, 2 steps, 10/9 ≈ 1.11 steps, 4/9 ≈ 0.44 steps]
    """
    return Steps(steps_distribution(items).mean)
