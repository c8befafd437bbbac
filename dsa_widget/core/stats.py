"""Small statistics shared by the tournaments and the probability lab."""

from __future__ import annotations

import math

__all__ = ["Z95", "sign_test", "wilson"]

#: the normal quantile of a two-sided 95% interval
Z95 = 1.959963984540054


def wilson(successes: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for ``successes`` out of ``n > 0`` (may be fractional).

    Better than "estimate ± 2 standard errors" near 0 and 1: it never leaves
    [0, 1], always contains the observed rate, and is not empty when every
    trial succeeded or failed.

    >>> lo, hi = wilson(70, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.604, 0.781)
    >>> wilson(20, 20)[1]
    1.0
    """
    p = successes / n
    z2 = z * z
    den = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / den
    # rounding must not push the bounds past the observed rate (e.g. 1.0 at n of n)
    return (max(0.0, min(p, centre - half)), min(1.0, max(p, centre + half)))


def sign_test(wins: int, losses: int) -> float:
    """The two-sided exact sign test of paired trials: ``wins`` pairs went one way and ``losses``
    the other (ties left out), each way equally likely if nothing differs.  The p-value is the
    chance of a split at least this uneven under that null hypothesis (1.0 when even).

    Used for paired bot runs: the same deals played by two versions of a bot, counting the
    attempts one won and the other lost.

    >>> round(sign_test(54, 28), 4)
    0.0054
    >>> sign_test(13, 13)
    1.0
    >>> sign_test(0, 0)
    1.0
    >>> sign_test(600, 500) < 0.01  # thousands of pairs
    True
    """
    if wins < 0 or losses < 0:
        raise ValueError(f"counts must be >= 0, not {wins!r} and {losses!r}")
    n, k = wins + losses, min(wins, losses)
    if n == 0:
        return 1.0
    tail = sum(math.comb(n, i) for i in range(k + 1)) / (1 << n)  # exact: no float overflow
    return min(1.0, 2.0 * tail)
