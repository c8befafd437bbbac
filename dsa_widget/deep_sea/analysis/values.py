"""What the treasure a diver carries is worth, given what is known — exactly.

Nobody sees a chip's value before it is banked, but everybody knows which
values have been *seen* (banked and revealed).  For each level, the values
not yet seen — the *unseen pool* — are equally likely to be on any of the
level's unseen chips, because the chips of a level were shuffled face down
and nothing since has told them apart.  So:

* one unseen chip of level L is worth, on average, the mean of L's unseen
  pool (before anything is banked: 1.5, 5.5, 9.5, 13.5 — RULES.md);
* several unseen chips of the same level are a draw *without replacement*
  from that pool (their values are not independent, but the mean of a sum
  is still the sum of the means);
* a known chip is worth exactly its value.

Only a :class:`~dsa_widget.deep_sea.view.View` is used (``view.unseen``,
``view.known``): the hidden values in the game are never read.  Give a Game
and a ``viewer`` seat to ask "what does this seat know?".

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], seed=4)
>>> g.roll((3, 3)); g.apply("take")       # Ann takes a level-1 chip
>>> carried_value(g.view(0), seat=0)
3/2 ≈ 1.50 points
>>> chip_mean(g.view(0), 4)
27/2 ≈ 13.50 points
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations
from typing import Any

from ...core.errors import is_int
from ._common import AnalysisError, Distribution, Points

__all__ = ["chip_mean", "item_value", "carried_value", "carried_value_distribution", "as_view"]


def as_view(state: Any, viewer: int | None = None) -> Any:
    """A View: ``state`` itself, or ``state.view(viewer)`` for a Game (``viewer`` required)."""
    from ..rules import Game
    from ..view import View

    if isinstance(state, View):
        if viewer is not None and viewer != state.seat:
            raise AnalysisError(f"this view is seat {state.seat}'s; it cannot answer for seat {viewer}")
        return state
    if isinstance(state, Game):
        if viewer is None:
            raise AnalysisError(
                "a Game knows every hidden value; say whose knowledge to use: viewer=<seat> "
                "(or pass game.view(seat))"
            )
        return state.view(viewer)
    raise AnalysisError(f"expected a View (or a Game and viewer=), got {type(state).__name__}")


def chip_mean(view: Any, level: int) -> Points:
    """The expected value of an unseen chip of ``level``: the mean of that level's unseen pool.

    >>> from dsa_widget import Game
    >>> [chip_mean(Game(players=2, seed=0).view(0), lv) for lv in (1, 2, 3, 4)]
    [3/2 ≈ 1.50 points, 11/2 ≈ 5.50 points, 19/2 ≈ 9.50 points, 27/2 ≈ 13.50 points]
    """
    pool = view.unseen.get(level, ())
    if not pool:
        raise AnalysisError(f"no value of level {level} is unseen: every chip of that level is known")
    return Points(sum(pool), len(pool))


def _item_chips(view: Any, item: Any) -> tuple[int, ...]:
    if item is None:
        return ()
    if isinstance(item, int):
        return (item,)
    return tuple(item)


def item_value(view: Any, item: Any) -> Points:
    """The expected value of one item (a chip id or a tuple of chip ids: a stack).

    >>> from dsa_widget import Game
    >>> v = Game(players=2, seed=0).view(0)
    >>> item_value(v, v.path[1]), item_value(v, None)
    (3/2 ≈ 1.50 points, 0 points)
    """
    total = Fraction(0)
    for c in _item_chips(view, item):
        if c in view.known:
            total += view.known[c]
        else:
            total += chip_mean(view, view.levels[c])
    return Points(total)


def carried_value(state: Any, seat: int | None = None, *, viewer: int | None = None) -> Points:
    """The expected total value of what ``seat`` carries, given what the viewer knows.

    ``state`` is a View (its seat is the viewer) or a Game with ``viewer=``.
    ``seat`` defaults to the viewer.  By linearity of expectation it is the
    sum of :func:`item_value` over the items.

    >>> from dsa_widget import Game
    >>> g = Game(players=2, path=[(1, 3), (1, 0), (2, 7)], seed=0)
    >>> g.roll((1, 1)); g.apply("take")            # seat 0 takes the level-1 chip on space 2
    >>> carried_value(g, viewer=1, seat=0)          # unseen level-1 values: 3 and 0
    3/2 ≈ 1.50 points
    """
    view = as_view(state, viewer)
    if seat is None:
        seat = view.seat
    if not is_int(seat) or not 0 <= seat < len(view.players):
        raise AnalysisError(f"seat must be a seat number from 0 to {len(view.players) - 1}, got {seat!r}")
    return Points(sum((item_value(view, it) for it in view.carrying[seat]), Fraction(0)))


def _subset_sums(pool: tuple[int, ...], m: int) -> dict[int, Fraction]:
    """Distribution of the sum of ``m`` values drawn without replacement from ``pool``."""
    if m > len(pool):
        raise AnalysisError(
            f"{m} unseen chips of a level but only {len(pool)} unseen values: the view is inconsistent"
        )
    counts: dict[int, int] = {}
    total = 0
    for combo in combinations(range(len(pool)), m):
        s = sum(pool[i] for i in combo)
        counts[s] = counts.get(s, 0) + 1
        total += 1
    return {s: Fraction(c, total) for s, c in counts.items()}


def carried_value_distribution(
    state: Any, seat: int | None = None, *, viewer: int | None = None
) -> Distribution:
    """The exact distribution of the total value of what ``seat`` carries.

    For each level, the carried unseen chips of that level are a random
    subset of that level's unseen chips, so their values are a draw without
    replacement from the unseen pool: every subset of the pool of the right
    size is equally likely.  Levels are independent of each other, so the
    total's distribution is the convolution of the levels', shifted by the
    known chips' values.

    >>> from dsa_widget import Game
    >>> g = Game(players=2, path=[(1, 0), (1, 3), (1, 3)], seed=0)
    >>> g.roll((1, 1)); g.apply("take")
    >>> carried_value_distribution(g, viewer=0)      # one of 0, 3, 3
    {0: 1/3, 3: 2/3}
    """
    view = as_view(state, viewer)
    if seat is None:
        seat = view.seat
    if not is_int(seat) or not 0 <= seat < len(view.players):
        raise AnalysisError(f"seat must be a seat number from 0 to {len(view.players) - 1}, got {seat!r}")
    known = 0
    per_level: dict[int, int] = {}
    for item in view.carrying[seat]:
        for c in item:
            if c in view.known:
                known += view.known[c]
            else:
                lv = view.levels[c]
                per_level[lv] = per_level.get(lv, 0) + 1
    dist: dict[int, Fraction] = {known: Fraction(1)}
    for lv, m in sorted(per_level.items()):
        part = _subset_sums(tuple(view.unseen.get(lv, ())), m)
        new: dict[int, Fraction] = {}
        for a, pa in dist.items():
            for b, pb in part.items():
                new[a + b] = new.get(a + b, Fraction(0)) + pa * pb
        dist = new
    return Distribution(dist, title=f"value of what {view.players[seat]} carries", mean=Points)
