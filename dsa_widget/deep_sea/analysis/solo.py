"""The optimal solo policy: one diver alone, the air his only opponent, under the real rules.

Like Neller and Presser's analysis of the dice game Pig, we ask: which
decisions *maximise the expected banked value* of one round?  Alone, a
diver's only enemy is the air, which drops by the number of items he carries
at every turn.  Each decision trades the value of more treasure against the
weight that slows him down and the air it burns.

The model: the real rules, one diver
------------------------------------
* One diver, the standard path (8 spaces of each level, 1 to 4, outward) or
  any list of levels, ``air`` units of air (25), nobody else in the water (so
  no jumps), ``turn_back_requires_treasure`` as in the rules (default on).
  One round: the value is what he banks in it.
* Every legal choice of the rules (RULES.md) is a decision: at the
  start of a turn heading down, turn back or keep diving (a forced turn back
  at the path's end, and none while he carries nothing); after landing, do
  nothing, take the chip there, or put down any one carried chip on a blank
  (``drop i``).  The state holds all that can matter: his space, heading and
  air, the levels he carries, and which spaces above him are blanks or hold a
  chip he put down (and of which level).  Heading down, the spaces deeper
  than his own are untouched; heading up, those below him are never seen
  again, so the state forgets them.
* Chip values are unknown until banked, so a chip counts as its level's
  *expected* value: the mean of its level's unseen pool (1.5, 5.5, 9.5, 13.5
  before anything is banked; ``means`` to change it).  The values never
  influence the dice, the moves or his choices (he cannot see them), so the
  expected banked value is the sum over chips of the chance he banks the chip
  times its level's mean.
* Drowning loses everything he carries whatever the order he lays it in
  (option ``sink_order``), so the sink step changes nothing here.
* With one or more items the air drops every turn; with none he moves at
  least 2 spaces: the states form a graph without cycles, and memoised
  recursion over it is exact value iteration,

      V(state) = max over decisions of  sum over dice sums s of  w(s)/9 * V(next state)

  with V = the carried value when he reaches the submarine, and 0 when the
  air runs out with him in the water.  An upper bound from a relaxed problem
  (heading up, every space he reaches offers both "take" and "put down")
  skips the choices it proves worse, so the standard round needs some 16,000
  states solved (``states``; ``bound_states``: some 172,000 of the relaxed
  problem), a few seconds in plain Python.  A state far off the optimal
  diver's path can need millions: the queries about one state take a budget
  (``max_states``) and say so past it; the bot then falls back on the relaxed
  problem's advice.
* The table and the heat map show the policy where it goes: for each depth,
  air and load, the states in which the optimal diver, heading down, decides
  whether to turn back (:meth:`SoloPolicy.cells`).

The floating-point search picks the decisions; the value of the resulting
policy from the start of a round is then recomputed exactly (a Fraction).
``solo_policy(model="simplified")`` keeps the earlier, smaller model (no
putting down; spaces below the shallowest emptied one count as empty on the
way up), optimal only within itself: the difference is the price of that
simplification.

>>> pol = solo_policy(air=8, levels=(1, 1, 2, 2, 3, 3))   # a short practice path
>>> pol.exact_value
7789235/531441 ≈ 14.66 points
>>> pol.turn_back(depth=5, air=6, items=2, taken=(4, 5))   # a level-2 and a level-3 chip: go home
True
>>> round(solo_policy().value, 4), round(solo_policy(model="simplified").value, 4)
(20.8716, 20.6298)

On the standard path the optimal diver swims down carrying nothing (which costs
no air), takes the first level-4 chip he lands on at spaces 25 to 27 and turns
back at once, or, landing deeper, goes on to the end empty-handed and collects
on the way up: his only turn-back moments are those.

>>> sorted(solo_policy().cells())
[(25, 25, 1), (26, 25, 1), (27, 25, 1), (32, 25, 0)]
"""

from __future__ import annotations

import html
from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, Literal, overload

from ...core.errors import is_int
from ..rules import LAY_ALL
from ._common import AnalysisError, Points
from ._solo_full import NONE, TAKE, FullModel, OverBudget, State, deep_recursion
from .dice import SUM_WEIGHTS

__all__ = [
    "solo_policy",
    "SoloPolicy",
    "SimplifiedSoloPolicy",
    "AdviceTable",
    "HeatMap",
    "solo_bot",
    "solo_game",
    "clear_cache",
    "STANDARD_LEVELS",
]

#: The standard path's levels, space 1 to space 32.
STANDARD_LEVELS: tuple[int, ...] = (1,) * 8 + (2,) * 8 + (3,) * 8 + (4,) * 8
_STANDARD_MEANS = {1: Fraction(3, 2), 2: Fraction(11, 2), 3: Fraction(19, 2), 4: Fraction(27, 2)}
_SUMS = tuple(SUM_WEIGHTS.items())
#: which states a cell of the full policy's table and heat map describes
CELL_NOTE = (
    "Each cell: the optimal diver heading down on that space with that air before he breathes "
    "and that many chips, in every way he gets there; white: he never does."
)
#: the default budget of new states for a query about a state off the policy's path
MAX_STATES = 200_000
#: the bot's budget per decision before it falls back on the relaxed problem's advice
BOT_STATES = 20_000


@lru_cache(maxsize=8)
def _full_model(levels: tuple[int, ...], air: int, means: tuple[Fraction, ...], requires: bool) -> FullModel:
    m = FullModel(levels, air, means, requires)
    with deep_recursion():
        m.start(0, False, air, (), 0, ())
    return m


def clear_cache() -> None:
    """Forget every solved policy (the next :func:`solo_policy` call solves afresh)."""
    _full_model.cache_clear()
    _simple_model.cache_clear()


class SoloPolicy:
    """The optimal solo policy under the real rules: its value, its decisions, a table, a heat
    map and a bot.

    Build it with :func:`solo_policy` (cached).  ``value`` is the expected
    banked value of a round played optimally (exact: ``exact_value``).

    :meth:`turn_back` and :meth:`turn_back_values` describe a diver *heading down* on
    space ``depth`` at the start of a turn, with ``air`` left before he breathes,
    carrying ``items`` chips: those of the spaces ``taken`` (now blanks; every other
    space still holds its chip, nothing put down).  Without ``taken``: the likeliest
    way the optimal diver gets there (:meth:`cells`), or, if he never does, the
    ``items`` spaces ending at his own.  :meth:`advice`, :meth:`threshold`, the
    table and the heat map describe the states the optimal diver reaches
    (:meth:`cells`).  The bot plays every choice of the rules from a real view.

    >>> pol = solo_policy()
    >>> pol.turn_back(depth=26, air=25, items=1), pol.turn_back(depth=20, air=5, items=1)
    (True, False)
    """

    def __init__(self, model: FullModel) -> None:
        self._m = model
        self._cells: dict[tuple[int, int, int], list[tuple[Fraction, State, bool]]] | None = None

    @property
    def model(self) -> FullModel:
        """The solved model itself (its value tables), for the table, heat map and bot."""
        return self._m

    # ------------------------------------------------------------ numbers
    @property
    def levels(self) -> tuple[int, ...]:
        return self._m.levels

    @property
    def air(self) -> int:
        return self._m.air

    def start_state(self) -> State:
        """The state at the start of a round (in the submarine, nothing carried, full air)."""
        return (0, False, self._m.air, (), 0, ())

    @property
    def value(self) -> float:
        """Expected banked value of one round from the start, playing optimally (float)."""
        with deep_recursion():
            return self._m.start(*self.start_state())

    @property
    def exact_value(self) -> Points:
        """The same, as an exact fraction (the chosen policy evaluated in rational arithmetic)."""
        with deep_recursion():
            return Points(self._m.exact_value(self.start_state()))

    @property
    def states(self) -> int:
        """Number of real-rules states solved so far (exact values)."""
        return len(self._m.memo)

    @property
    def bound_states(self) -> int:
        """Number of states of the relaxed problem solved so far (the upper bounds)."""
        return len(self._m.rmemo)

    # ------------------------------------------------------------ the policy's own path
    def cells(self) -> dict[tuple[int, int, int], list[tuple[Fraction, State, bool]]]:
        """Every turn-back moment the policy reaches, by ``(depth, air, items)``: the list of
        ``(chance of reaching it, state, does he turn back?)`` (heading down on ``depth``
        with ``air`` before he breathes, ``items`` carried; at the path's end he must)."""
        if self._cells is None:
            m = self._m
            out: dict[tuple[int, int, int], list[tuple[Fraction, State, bool]]] = {}

            def visit(st: State, chance: Fraction) -> None:
                p, up, a, c, blank, placed = st
                if up or p == 0 or (not c and m.requires and p < m.n):
                    return
                back = True if p >= m.n else m.turn(p, a, c, blank, placed)[1]
                out.setdefault((p, a, len(c)), []).append((chance, st, back))

            with deep_recursion():
                m.walk(self.start_state(), visit)
            self._cells = out
        return self._cells

    # ------------------------------------------------------------ one state
    def state(self, depth: int, air: int, items: int, taken: Sequence[int] | None = None) -> State:
        """The model's state for the arguments of :meth:`turn_back` (see the class docstring)."""
        n = self._m.n
        if not (isinstance(depth, int) and 1 <= depth <= n):
            raise AnalysisError(f"depth must be a space from 1 to {n}, got {depth!r}")
        if not (isinstance(air, int) and air >= 1):
            raise AnalysisError(f"air must be a whole number >= 1, got {air!r}")
        if not (isinstance(items, int) and items >= 0):
            raise AnalysisError(f"items must be a whole number >= 0, got {items!r}")
        if taken is None:
            reached = self.cells().get((depth, air, items))
            if reached:
                return max(reached, key=lambda x: x[0])[1]  # the likeliest way he gets here
            if items > depth:
                raise AnalysisError(f"{items} chips cannot come from the {depth} spaces down to {depth}")
            spaces = tuple(range(depth - items + 1, depth + 1))
        else:
            spaces = tuple(sorted(set(taken)))
            if len(spaces) != items or any(not (isinstance(s, int) and 1 <= s <= depth) for s in spaces):
                raise AnalysisError(
                    f"taken must be {items} different spaces from 1 to {depth}, got {taken!r}"
                )
        contents = {s: 0 for s in spaces}
        carried = [self._m.lv[s] for s in spaces]
        return self._m.canonical(depth, False, air, carried, contents)

    def _solve(self, fn: Any, max_states: int | None) -> Any:
        try:
            with self._m.budget(max_states):
                return fn()
        except OverBudget:
            raise AnalysisError(
                f"this state needs more than max_states={max_states:,} new states to solve "
                "(states far off the optimal diver's path can); raise max_states or pass None"
            ) from None

    def turn_back(
        self,
        depth: int,
        air: int,
        items: int,
        taken: Sequence[int] | None = None,
        max_states: int | None = MAX_STATES,
    ) -> bool:
        """Does the policy turn back now?  (A diver heading down on space ``depth`` with ``air``
        left before he breathes, carrying the chips of the spaces ``taken``: the class
        docstring.)  At the path's end he must; carrying nothing
        (``turn_back_requires_treasure``) he may not.  A state off the policy's path may need
        many states solved: past ``max_states`` new ones it raises :class:`AnalysisError`.
        """
        p, _, a, c, blank, placed = self.state(depth, air, items, taken)
        if p >= self._m.n:
            return True
        if not c and self._m.requires:
            return False
        return bool(self._solve(lambda: self._m.turn(p, a, c, blank, placed)[1], max_states))

    def turn_back_values(
        self,
        depth: int,
        air: int,
        items: int,
        taken: Sequence[int] | None = None,
        max_states: int | None = MAX_STATES,
    ) -> tuple[float, float]:
        """Expected banked value (points) if he turns back now / if he keeps diving, each
        followed by optimal play (the same state and budget as :meth:`turn_back`)."""
        p, _, a, c, blank, placed = self.state(depth, air, items, taken)
        vals: tuple[float, float] = self._solve(
            lambda: self._m.turn_values(p, a, c, blank, placed), max_states
        )
        return vals

    def threshold(self, depth: int, air: int, items: int) -> Fraction | None:
        """Among the states the policy reaches at ``(depth, air, items)`` (see :meth:`cells`),
        the smallest carried value (expected points) from which on he turns back in every one
        carrying at least that much; ``None`` if there is none (or he never gets there).

        >>> pol = solo_policy()
        >>> pol.threshold(depth=26, air=25, items=1)
        Fraction(27, 2)
        """
        reached = self.cells().get((depth, air, items), [])
        means = self._m.means
        by_value: dict[Fraction, list[bool]] = {}
        for _, st, back in reached:
            v = sum((means[lvl] for lvl in st[3]), Fraction(0))
            by_value.setdefault(v, []).append(back)
        best = None
        for v in sorted(by_value, reverse=True):
            if all(by_value[v]):
                best = v
            else:
                break
        return best

    def advice(self, depth: int, air: int, items: int) -> str:
        """What the policy does at ``(depth, air, items)`` in the states it reaches there
        (:meth:`cells`): "back" (it turns back in all), "dive" (in none), "back if >= x" (when
        carrying at least x expected points), "mixed" (no such rule), "lost" (the air cannot
        last whatever he does) or "unreached" (the optimal diver is never there).

        >>> pol = solo_policy()
        >>> pol.advice(depth=26, air=25, items=1), pol.advice(depth=30, air=15, items=1)
        ('back', 'unreached')
        """
        reached = self.cells().get((depth, air, items))
        if not reached:
            return "unreached"
        m = self._m
        if all(m.start(*st) < 1e-12 for _, st, _ in reached):
            return "lost"
        if all(back for _, _, back in reached):
            return "back"
        if not any(back for _, _, back in reached):
            return "dive"
        t = self.threshold(depth, air, items)
        if t is None:
            return "mixed"
        means = m.means
        low = [back for _, st, back in reached if sum((means[lvl] for lvl in st[3]), Fraction(0)) < t]
        return "mixed" if any(low) else f"back if >= {float(t):g}"

    # ------------------------------------------------------------ table and heat map
    def table(
        self, items: int = 1, depths: Sequence[int] | None = None, airs: Sequence[int] | None = None
    ) -> AdviceTable:
        """The advice (see :meth:`advice`) for ``items`` items.

        Rows by air (high to low), columns by depth; ``note`` says which state a cell is.
        """
        depths = tuple(depths or range(1, self._m.n + 1))
        airs = tuple(airs or range(self._m.air, 0, -1))
        rows = [[self.advice(d, a, items) for d in depths] for a in airs]
        return AdviceTable(items, depths, airs, rows, note=CELL_NOTE)

    def heatmap(self, loads: Sequence[int] = (1, 2, 3), airs: Sequence[int] | None = None) -> HeatMap:
        """An SVG heat map of "turn back now?" by depth (x), air (y) and load (one panel per
        load); its caption says which state a cell describes (see :meth:`advice`)."""
        return HeatMap(self, tuple(loads), tuple(airs or range(self._m.air, 0, -1)), note=CELL_NOTE)

    def bot(self, view: Any, legal: Sequence[str]) -> str:
        """This policy as a bot: ``bot(view, legal) -> choice`` (see :func:`solo_bot`)."""
        return _decide_full(self, view, legal)

    def __repr__(self) -> str:
        return (
            f"<SoloPolicy: {self._m.n} spaces, air {self._m.air}, real rules; expected banked value "
            f"{self.value:.4f} per round; {self.states:,} states>"
        )


class _SimpleModel:
    """The simplified model's memoised DP (``model="simplified"``).

    Carried value is an int in units of 1/den points."""

    def __init__(
        self, levels: tuple[int, ...], air: int, means: tuple[Fraction, ...], requires: bool
    ) -> None:
        self.levels = levels
        self.n = len(levels)
        self.air = air
        self.requires = requires
        self.means = means  # index = level
        den = 1
        for m in means[1:]:
            den = den * m.denominator // _gcd(den, m.denominator)
        self.den = den
        # units of each space's chip (index = position; 0 = submarine)
        self.units = (0,) + tuple(int(means[lv] * den) for lv in levels)
        self.memo: dict[tuple[int, ...], float] = {}
        self.take_memo: dict[tuple[int, ...], float] = {}

    # V at the start of a turn (before breathing); ``first``: the shallowest space he emptied
    # (n + 1 if none) — every space above it still holds its chip.
    def start(self, pos: int, up: bool, air: int, k: int, v: int, here: bool, first: int) -> float:
        key = (pos, up, air, k, v, here, first)
        r = self.memo.get(key)
        if r is not None:
            return r
        if up:
            r = self.swim(pos, True, air - k, k, v, here, first)
        elif pos == 0:
            r = self.swim(0, False, air - k, k, v, False, first)
        elif pos >= self.n:
            r = self.swim(pos, True, air - k, k, v, here, first)  # forced to turn back
        else:
            cont = self.swim(pos, False, air - k, k, v, here, first)
            if k > 0 or not self.requires:
                back = self.swim(pos, True, air - k, k, v, here, first)
                r = back if back > cont + 1e-12 else cont
            else:
                r = cont
        self.memo[key] = r
        return r

    def back_better(self, pos: int, air: int, k: int, v: int, here: bool, first: int) -> bool:
        if pos >= self.n:
            return True
        if k == 0 and self.requires:
            return False
        b, c = self.turn_back_values(pos, air, k, v, here, first)
        return b > c + 1e-12

    def turn_back_values(
        self, pos: int, air: int, k: int, v: int, here: bool, first: int
    ) -> tuple[float, float]:
        """(value if he turns back now, value if he continues), at the start of a turn heading down."""
        return (
            self.swim(pos, True, air - k, k, v, here, first),
            self.swim(pos, False, air - k, k, v, here, first),
        )

    def swim(self, pos: int, up: bool, air2: int, k: int, v: int, here: bool, first: int) -> float:
        last = air2 <= 0
        n = self.n
        total = 0.0
        for s, w in _SUMS:
            steps = s - k
            if steps <= 0:
                to = pos
            elif up:
                to = pos - steps
                if to <= 0:
                    total += w * v
                    continue
            else:
                to = pos + steps
                if to > n:
                    to = n
            if last:
                continue
            total += w * self.land(to, up, air2, k, v, self.chip_at(to, pos, up, here, first), first)
        return total / 9

    @staticmethod
    def chip_at(to: int, pos: int, up: bool, here: bool, first: int) -> bool:
        """Does a chip lie where he landed?  (Heading up we only count spaces above ``first``.)"""
        if to == 0:
            return False
        if to == pos:
            return here
        return to < first if up else True

    def land(self, to: int, up: bool, air2: int, k: int, v: int, chip: bool, first: int) -> float:
        """He has landed on ``to`` and the round goes on; ``chip``: a chip he may take lies there."""
        if to == 0:  # still in the submarine (0 steps on his first swim)
            return self.start(0, False, air2, k, v, False, first)
        none = self.start(to, up, air2, k, v, chip, first)
        if chip:
            take = self.start(to, up, air2, k + 1, v + self.units[to], False, min(first, to))
            if take > none + 1e-12:
                return take
        return none

    def take_values(
        self, to: int, up: bool, air2: int, k: int, v: int, item_units: int, first: int
    ) -> tuple[float, float]:
        """(value if he takes an item worth ``item_units``, value if not), after landing on ``to``."""
        if air2 <= 0:
            return (0.0, 0.0)
        return (
            self.start(to, up, air2, k + 1, v + item_units, False, min(first, to)),
            self.start(to, up, air2, k, v, True, first),
        )

    # exact value of the policy the float sweep chose
    def exact_value(self) -> Fraction:
        memo: dict[tuple[int, ...], Fraction] = {}
        n = self.n
        den = self.den

        def start(pos: int, up: bool, air: int, k: int, v: int, here: bool, first: int) -> Fraction:
            key = (pos, up, air, k, v, here, first)
            r = memo.get(key)
            if r is None:
                if up or pos == 0:
                    r = swim(pos, up, air - k, k, v, here, first)
                else:
                    r = swim(pos, self.back_better(pos, air, k, v, here, first), air - k, k, v, here, first)
                memo[key] = r
            return r

        def swim(pos: int, up: bool, air2: int, k: int, v: int, here: bool, first: int) -> Fraction:
            if air2 <= 0:
                # last turn: only reaching the submarine now counts
                return Fraction(sum(w for s, w in _SUMS if up and s - k >= pos) * v, 9 * den)
            total = Fraction(0)
            for s, w in _SUMS:
                steps = s - k
                if steps <= 0:
                    to = pos
                elif up:
                    to = pos - steps
                    if to <= 0:
                        total += w * Fraction(v, den)
                        continue
                else:
                    to = min(n, pos + steps)
                if to == 0:
                    total += w * start(0, False, air2, k, v, False, first)
                    continue
                chip = self.chip_at(to, pos, up, here, first)
                if chip:
                    t, nn = self.take_values(to, up, air2, k, v, self.units[to], first)
                    if t > nn + 1e-12:
                        total += w * start(to, up, air2, k + 1, v + self.units[to], False, min(first, to))
                        continue
                total += w * start(to, up, air2, k, v, chip, first)
            return total / 9

        return start(0, False, self.air, 0, 0, False, n + 1)


def _gcd(a: int, b: int) -> int:
    while b:
        a, b = b, a % b
    return a


@lru_cache(maxsize=8)
def _simple_model(
    levels: tuple[int, ...], air: int, means: tuple[Fraction, ...], requires: bool
) -> _SimpleModel:
    m = _SimpleModel(levels, air, means, requires)
    with deep_recursion():
        m.start(0, False, air, 0, 0, False, m.n + 1)
    return m


class SimplifiedSoloPolicy:
    """The old, simplified solo model (``solo_policy(model="simplified")``): optimal *within*
    that model only (see the module docstring), kept to show what the simplification costs.

    Its ``turn_back`` takes the carried ``value``, ``chip_here`` and ``first_taken`` of that
    model's state; its ``advice`` may say "back if >= x" (carried expected points).
    """

    def __init__(self, model: _SimpleModel) -> None:
        self._m = model

    @property
    def model(self) -> _SimpleModel:
        """The solved model itself (its value tables), for the table, heat map and bot."""
        return self._m

    # ------------------------------------------------------------ numbers
    @property
    def levels(self) -> tuple[int, ...]:
        return self._m.levels

    @property
    def air(self) -> int:
        return self._m.air

    @property
    def value(self) -> float:
        """Expected banked value of one round from the start, playing optimally (float)."""
        return self._m.start(0, False, self._m.air, 0, 0, False, self._m.n + 1) / self._m.den

    @property
    def exact_value(self) -> Points:
        """The same, as an exact fraction (the decisions' policy evaluated in rational arithmetic)."""
        return Points(self._m.exact_value())

    @property
    def states(self) -> int:
        """Number of states solved so far."""
        return len(self._m.memo)

    def _units(self, value: Any) -> int:
        return round(Fraction(value) * self._m.den)

    def turn_back(
        self,
        depth: int,
        air: int,
        items: int,
        value: Any = None,
        chip_here: bool = False,
        first_taken: int | None = None,
    ) -> bool:
        """Should a diver heading down on space ``depth``, with ``air`` left (before breathing),
        carrying ``items`` items worth ``value`` in expectation, turn back now?

        ``value`` defaults to ``items`` chips of the level of space ``depth``;
        ``first_taken`` (the shallowest space he emptied; every space above
        it still holds a chip he may take on the way up) defaults to ``depth``.
        """
        b, c = self.turn_back_values(depth, air, items, value, chip_here, first_taken)
        if items == 0 and self._m.requires and depth < self._m.n:
            return False
        return b > c + 1e-12 / self._m.den

    def turn_back_values(
        self,
        depth: int,
        air: int,
        items: int,
        value: Any = None,
        chip_here: bool = False,
        first_taken: int | None = None,
    ) -> tuple[float, float]:
        """Expected banked value (points) if he turns back now / if he continues."""
        m = self._m
        self._check(depth, air, items)
        if value is None:
            value = items * m.means[m.levels[depth - 1]]
        first = depth if first_taken is None else first_taken
        b, c = m.turn_back_values(depth, air, items, self._units(value), chip_here, first)
        return (b / m.den, c / m.den)

    def _check(self, depth: int, air: int, items: int) -> None:
        n = self._m.n
        if not (isinstance(depth, int) and 1 <= depth <= n):
            raise AnalysisError(f"depth must be a space from 1 to {n}, got {depth!r}")
        if not (isinstance(air, int) and air >= 1):
            raise AnalysisError(f"air must be a whole number >= 1, got {air!r}")
        if not (isinstance(items, int) and items >= 0):
            raise AnalysisError(f"items must be a whole number >= 0, got {items!r}")

    def _by_value(self, depth: int, air: int, items: int) -> list[tuple[Fraction, float, float]]:
        m = self._m
        top = max(m.levels[:depth])
        out = []
        for v in sorted(_possible_values(tuple(m.means), items, top)):
            b, c = self.turn_back_values(depth, air, items, v)
            out.append((v, b, c))
        return out

    def threshold(self, depth: int, air: int, items: int) -> Fraction | None:
        """The smallest carried value (among the possible ones for ``items`` chips no deeper than
        ``depth``) from which on turning back is optimal; ``None`` if it never is."""
        best = None
        for v, b, c in reversed(self._by_value(depth, air, items)):
            if b > c + 1e-12 / self._m.den:
                best = v
            else:
                break
        return best

    def advice(self, depth: int, air: int, items: int) -> str:
        """ "back" (turn back whatever you carry), "dive" (keep diving whatever you carry),
        "back if >= x" (turn back if what you carry is worth at least x in expectation), or
        "lost" (the air cannot last whatever you do).

        >>> pol = solo_policy(model="simplified")
        >>> pol.advice(depth=30, air=15, items=1), pol.advice(depth=3, air=25, items=1)
        ('back', 'dive')
        """
        if items == 0 and self._m.requires:
            return "dive"
        rows = self._by_value(depth, air, items)
        if all(b < 1e-12 and c < 1e-12 for _, b, c in rows):
            return "lost"
        t = self.threshold(depth, air, items)
        if t is None:
            return "dive"
        if t == rows[0][0]:
            return "back"
        return f"back if >= {float(t):g}"

    # ------------------------------------------------------------ table and heat map
    def table(
        self, items: int = 1, depths: Sequence[int] | None = None, airs: Sequence[int] | None = None
    ) -> AdviceTable:
        """The advice (see :meth:`advice`) for ``items`` items.

        Rows by air (high to low), columns by depth.
        """
        depths = tuple(depths or range(1, self._m.n + 1))
        airs = tuple(airs or range(self._m.air, 0, -1))
        return AdviceTable(items, depths, airs, [[self.advice(d, a, items) for d in depths] for a in airs])

    def heatmap(self, loads: Sequence[int] = (1, 2, 3), airs: Sequence[int] | None = None) -> HeatMap:
        """An SVG heat map of "turn back now?" by depth (x), air (y) and load (one panel per load)."""
        return HeatMap(self, tuple(loads), tuple(airs or range(self._m.air, 0, -1)))

    def bot(self, view: Any, legal: Sequence[str]) -> str:
        """This policy as a bot: ``bot(view, legal) -> choice`` (see :func:`solo_bot`)."""
        return _decide_simple(self, view, legal)

    def __repr__(self) -> str:
        return (
            f"<SimplifiedSoloPolicy: {self._m.n} spaces, air {self._m.air}; expected banked value "
            f"{self.value:.4f} per round; {self.states:,} states>"
        )


def _possible_values(means: tuple[Fraction, ...], items: int, top: int) -> set[Fraction]:
    vals = {Fraction(0)}
    for _ in range(items):
        vals = {v + means[lv] for v in vals for lv in range(1, top + 1)}
    return vals


class AdviceTable:
    """ "Turn back now?" for one load, by air (rows) and depth (columns); prints as a text table
    and shows as HTML in a notebook.  ``rows[i][j]`` is the advice at ``airs[i]``, ``depths[j]``."""

    def __init__(
        self,
        items: int,
        depths: tuple[int, ...],
        airs: tuple[int, ...],
        rows: list[list[str]],
        note: str = "",
    ) -> None:
        self.items, self.depths, self.airs, self.rows = items, depths, airs, rows
        #: which state each cell describes (printed under the title)
        self.note = note

    def __repr__(self) -> str:
        short = {"back": "B", "dive": ".", "lost": "x", "unreached": "-", "mixed": "?"}
        lines = [
            f"turn back now? carrying {self.items} item(s): B = back, . = dive, x = lost, "
            "- = never there, ? = mixed, a number = back if carrying at least that (expected points)",
        ]
        if self.note:
            lines.append(self.note)
        lines.append("air\\depth " + "".join(f"{d:>5}" for d in self.depths))
        for a, row in zip(self.airs, self.rows, strict=False):
            lines.append(f"{a:>9} " + "".join(f"{short.get(c, c.split()[-1]):>5}" for c in row))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        colour = {
            "back": "#fca5a5",
            "dive": "#bfdbfe",
            "lost": "#d1d5db",
            "unreached": "#ffffff",
            "mixed": "#e9d5ff",
        }
        head = "".join(f"<th>{d}</th>" for d in self.depths)
        body = "".join(
            f"<tr><th>{a}</th>"
            + "".join(
                f"<td style='background:{colour.get(c, '#fdba74')};text-align:center'>"
                f"{html.escape(c if c not in colour else c)}</td>"
                for c in row
            )
            + "</tr>"
            for a, row in zip(self.airs, self.rows, strict=False)
        )
        return (
            f"<table><caption>Turn back now? Carrying {self.items} item(s); rows: air left, "
            f"columns: depth. {html.escape(self.note)}</caption>"
            f"<tr><th>air \\ depth</th>{head}</tr>{body}</table>"
        )


class HeatMap:
    """The "turn back now?" heat map (an object Jupyter draws as SVG)."""

    def __init__(
        self,
        policy: SoloPolicy | SimplifiedSoloPolicy,
        loads: tuple[int, ...],
        airs: tuple[int, ...],
        note: str = "",
    ) -> None:
        self.policy = policy
        #: which state each cell describes (the picture's caption says it)
        self.note = note
        self.loads = loads
        self.airs = airs
        self.depths = tuple(range(1, policy.model.n + 1))
        self.cells = {k: policy.table(k, self.depths, self.airs).rows for k in loads}

    def _repr_svg_(self) -> str:
        # small cells and big type: the picture scales to the cell's width, and its words must stay
        # readable there (about 11 px on a 1366-pixel screen; issue 29)
        cw, ch, fs = 10, 9, 13
        left, top = 46, 34
        pw = cw * len(self.depths)
        ph = ch * len(self.airs)
        gap = 36
        width = left + len(self.loads) * (pw + gap)
        cells = [c for rows in self.cells.values() for row in rows for c in row]
        legend = [("#b91c1c", "turn back")]
        if any(c.startswith("back if") for c in cells):
            legend.append(("rgb(240,140,60)", "turn back only if carrying enough (hover for the value)"))
        if any(c == "mixed" for c in cells):
            legend.append(("#a855f7", "it depends on which chips"))
        legend += [("#93c5fd", "keep diving"), ("#d1d5db", "too late either way")]
        line = fs + 5
        height = top + ph + 40 + line * (len(legend) + (1 if self.note else 0))
        m = self.policy.model
        out = [
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" '
            f'style="max-width: {width}px; height: auto" font-family="sans-serif" font-size="{fs}" '
            f'fill="#1f2328">'
        ]
        for pi, k in enumerate(self.loads):
            x0 = left + pi * (pw + gap)
            vmax = float(max(m.means[1:])) * k
            out.append(
                f'<text x="{x0 + pw / 2}" y="16" text-anchor="middle" font-size="{fs + 1}" font-weight="600">'
                f"carrying {k} item{'s' if k != 1 else ''}</text>"
            )
            for r, a in enumerate(self.airs):
                for c, d in enumerate(self.depths):
                    adv = self.cells[k][r][c]
                    if adv == "back":
                        fill, tip = "#b91c1c", "turn back"
                    elif adv == "dive":
                        fill, tip = "#93c5fd", "keep diving"
                    elif adv == "lost":
                        fill, tip = "#d1d5db", "too late: the air cannot last either way"
                    elif adv == "unreached":
                        fill, tip = "#ffffff", "the optimal diver is never here"
                    elif adv == "mixed":
                        fill, tip = "#a855f7", "back in some of the ways he gets here, not in others"
                    else:
                        f = min(1.0, float(adv.split()[-1]) / vmax)
                        fill = f"rgb({int(250 - 20 * f)},{int(200 - 120 * f)},{int(80 - 40 * f)})"
                        tip = f"turn back if carrying at least {adv.split()[-1]} points (expected)"
                    out.append(
                        f'<rect x="{x0 + c * cw}" y="{top + r * ch}" width="{cw - 1}" height="{ch - 1}" '
                        f'fill="{fill}"><title>depth {d}, air {a}, {k} item(s): {tip}</title></rect>'
                    )
            for c, d in enumerate(self.depths):
                if d % 4 == 0 or d == 1:
                    out.append(
                        f'<text x="{x0 + c * cw + cw / 2}" y="{top + ph + fs + 2}" '
                        f'text-anchor="middle">{d}</text>'
                    )
            for r, a in enumerate(self.airs):
                if a % 5 == 0:
                    out.append(f'<text x="{x0 - 4}" y="{top + r * ch + ch}" text-anchor="end">{a}</text>')
            out.append(
                f'<text x="{x0 + pw / 2}" y="{top + ph + 2 * fs + 6}" text-anchor="middle">'
                "depth (space)</text>"
            )
        out.append(
            f'<text x="12" y="{top + ph / 2}" transform="rotate(-90 12 {top + ph / 2})" '
            'text-anchor="middle">air left</text>'
        )
        y = top + ph + 2 * fs + 12
        for colour, words in legend:
            y += line
            out.append(
                f'<rect x="{left}" y="{y - fs + 2}" width="{fs}" height="{fs - 2}" fill="{colour}" '
                'stroke="#999"/>'
                f'<text x="{left + fs + 6}" y="{y}">{html.escape(words)}</text>'
            )
        if self.note:
            out.append(f'<text x="{left}" y="{y + line}">{html.escape(self.note)}</text>')
        out.append("</svg>")
        return "".join(out)

    def __repr__(self) -> str:
        return f"<HeatMap: turn back? by depth x air, loads {list(self.loads)}>"


def _means(means: Any) -> tuple[Fraction, ...]:
    mm = dict(_STANDARD_MEANS)
    if means is not None:
        for k, v in dict(means).items():
            if k not in (1, 2, 3, 4):
                raise AnalysisError(f"means: unknown level {k!r}")
            mm[k] = Fraction(v)
    return (Fraction(0),) + tuple(mm[k] for k in (1, 2, 3, 4))


@overload
def solo_policy(
    air: int = ...,
    levels: Sequence[int] = ...,
    means: Any = ...,
    turn_back_requires_treasure: bool = ...,
    model: Literal["full"] = ...,
) -> SoloPolicy: ...
@overload
def solo_policy(
    air: int = ...,
    levels: Sequence[int] = ...,
    means: Any = ...,
    turn_back_requires_treasure: bool = ...,
    *,
    model: Literal["simplified"],
) -> SimplifiedSoloPolicy: ...
def solo_policy(
    air: int = 25,
    levels: Sequence[int] = STANDARD_LEVELS,
    means: Any = None,
    turn_back_requires_treasure: bool = True,
    model: str = "full",
) -> SoloPolicy | SimplifiedSoloPolicy:
    """Solve (once; then cached) the optimal solo policy for a round.

    ``levels``: the level of each space from the submarine outward (the
    standard path by default); ``means``: the expected chip value of each
    level (a dict level -> value; default 1.5, 5.5, 9.5, 13.5), e.g. from a
    view's unseen pool in a later round.  ``model="full"`` (the default): every
    choice of the real rules; ``model="simplified"``: the earlier model without
    putting chips down (see the module docstring), to measure what it costs.

    >>> pol = solo_policy(air=10, levels=(1, 2, 3, 4))
    >>> round(pol.value, 4) == round(float(pol.exact_value), 4)
    True
    >>> pol.exact_value > solo_policy(air=10, levels=(1, 2, 3, 4), model="simplified").exact_value
    True
    """
    if not is_int(air) or air < 1:
        raise AnalysisError(f"air must be a whole number >= 1, got {air!r}")
    lv = tuple(levels)
    if not lv or any(x not in (1, 2, 3, 4) for x in lv):
        raise AnalysisError("levels must be a non-empty list of levels 1 to 4")
    mt = _means(means)
    requires = bool(turn_back_requires_treasure)
    if model == "full":
        return SoloPolicy(_full_model(lv, air, mt, requires))
    if model == "simplified":
        return SimplifiedSoloPolicy(_simple_model(lv, air, mt, requires))
    raise AnalysisError(f"model must be 'full' or 'simplified', got {model!r}")


def _item_level(view: Any, item: Any) -> int:
    """A carried or lying item's level as the model sees it (a stack, which the solo round
    never makes, counts as its deepest chip: a heuristic for other games)."""
    return max(1, min(4, int(max(view.levels[c] for c in item))))


def _untouched(view: Any, item: Any, level: int) -> bool:
    return item is not None and len(item) == 1 and view.levels[item[0]] == level


def _decide_full(policy: SoloPolicy, view: Any, legal: Sequence[str]) -> str:
    legal = tuple(legal)
    if len(legal) == 1 or legal[0] == LAY_ALL:
        # the sink step: drowned chips are lost to him in any order
        return legal[0]
    step = view.step
    if step not in ("turn_back", "search"):
        return "roll" if "roll" in legal else legal[0]
    m = policy.model
    s = view.seat
    path = view.path
    carried = [_item_level(view, it) for it in view.carrying[s]]
    pos = min(view.positions[s], m.n)
    contents = {
        i: (0 if i >= len(path) or path[i] is None else _item_level(view, path[i])) for i in range(1, pos + 1)
    }
    # his own round on the model's path: decide exactly; else (company, another path, stacks)
    # or past the budget, the relaxed problem's advice is the heuristic
    alone = all(q == s or view.positions[q] == 0 for q in range(len(view.positions)))
    exact = (
        alone
        and len(path) == m.n + 1
        and all(len(it) == 1 for it in view.carrying[s])
        and all(it is None or len(it) == 1 for it in path)
        # heading down, the model takes the spaces below him for untouched
        and (
            view.heading_up[s]
            or all(
                path[i] is not None and view.levels[path[i][0]] == m.lv[i] for i in range(pos + 1, m.n + 1)
            )
        )
    )
    st = m.canonical(pos, view.heading_up[s] if step == "search" else False, view.air, carried, contents)
    p, up, a, c, blank, placed = st
    if step == "turn_back":
        if pos >= m.n:
            return "back"
        back = None
        if exact:
            try:
                with m.budget(BOT_STATES):
                    back = m.turn(p, a, c, blank, placed)[1]
            except OverBudget:
                pass
        if back is None:
            with deep_recursion():
                back = m.relaxed_turn(p, a, c, blank, placed)
        return "back" if back else "continue"
    if view.air <= 0:  # his last turn: nothing he does now changes the round
        return "none" if "none" in legal else legal[0]
    code = None
    if exact:
        try:
            with m.budget(BOT_STATES):
                code = m.land(p, up, a, c, blank, placed)[1]
        except OverBudget:
            pass
    if code is None:
        with deep_recursion():
            code = m.relaxed_land(p, up, a, c, blank, placed)
    if code == TAKE and "take" in legal:
        return "take"
    if code != NONE and code in carried:
        choice = f"drop {carried.index(code)}"
        if choice in legal:
            return choice
    return "none" if "none" in legal else legal[0]


def _decide_simple(policy: SimplifiedSoloPolicy, view: Any, legal: Sequence[str]) -> str:
    legal = tuple(legal)
    if len(legal) == 1 or legal[0] == LAY_ALL:
        # the sink step: drowned chips are lost to him in any order (the model assumes none)
        return legal[0]
    m = policy.model
    s = view.seat
    items = view.carrying[s]
    k = len(items)
    units = round(sum((view.expected_value(it) for it in items), 0.0) * m.den)
    real = view.positions[s]
    pos = min(real, m.n)
    # the shallowest empty space: every space above it still holds its chip
    first = next((i for i in range(1, len(view.path)) if view.path[i] is None), m.n + 1)
    first = min(first, m.n + 1)
    step = view.step
    if step == "turn_back":
        here = view.path[real] is not None
        return "back" if m.back_better(pos, max(1, view.air), k, units, here, first) else "continue"
    if step == "search":
        up = view.heading_up[s]
        if "take" in legal and pos > 0 and (not up or real < first):
            item = view.path[real]
            t, nn = m.take_values(
                pos, up, view.air, k, units, round(view.expected_value(item) * m.den), first
            )
            return "take" if t > nn + 1e-12 else "none"
        return "none"
    return "roll" if "roll" in legal else legal[0]


def solo_bot(view: Any, legal: Sequence[str]) -> str:
    """The optimal solo policy (standard path, 25 air, the real rules) as a bot
    ``bot(view, legal) -> choice``.

    Alone on a fresh standard path it plays optimally: turning back, taking,
    leaving and putting chips down.  In company or on another path it is a
    heuristic: it ignores the other divers, reads its space, air, load and the
    path's blanks from the view, and counts a stack as its deepest chip.  It
    always returns a legal choice and never uses hidden values.

    >>> from dsa_widget import Game
    >>> g = Game(players=2, seed=0)
    >>> solo_bot(g.view(0), g.legal_choices())
    'roll'
    """
    return _decide_full(solo_policy(), view, legal)


def solo_game(
    seed: int | None = None,
    air: int = 25,
    levels: Sequence[int] = STANDARD_LEVELS,
    values: Sequence[int] | None = None,
) -> Any:
    """A real :class:`~dsa_widget.deep_sea.rules.Game` set up for solo play: seat 0 dives alone.

    The engine needs two players, so seat 1 is a ghost who is already back in
    the submarine (he never plays, breathes or blocks).  One round.  Values
    are shuffled within each level by ``seed`` unless given.

    >>> g = solo_game(seed=1, air=5)
    >>> g.current_player, g.divers[1].returned
    (0, True)
    """
    import random
    from dataclasses import replace

    from ..rules import Game
    from ..setup import CHIP_VALUES

    lv = tuple(levels)
    if values is None:
        rng = random.Random(seed)
        pools = {k: list(CHIP_VALUES[k]) for k in (1, 2, 3, 4)}
        for p in pools.values():
            rng.shuffle(p)
        values = []
        for x in lv:
            if not pools[x]:
                pools[x] = list(CHIP_VALUES[x])
                rng.shuffle(pools[x])
            values.append(pools[x].pop())
    path = list(zip(lv, values, strict=False))
    g = Game(players=["Diver", "Ghost"], air=air, rounds=1, path=path, seed=seed)
    # the ghost is back in the submarine before anybody moves: the same position, built anew
    v = replace(g.view(0), returned=(False, True), heading_up=(False, True))
    return Game.from_view(v, list(values), rng=seed, events=True)
