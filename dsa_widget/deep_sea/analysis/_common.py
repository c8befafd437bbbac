"""Shared pieces of the analysis package: exact numbers, distributions, errors,
and the public facts about a board that the exact functions work from.

Every exact result is an :class:`Exact` (a :class:`fractions.Fraction` that also shows
its decimal value, in its unit: :class:`Chance`, :class:`Points`, :class:`Steps`) or a
:class:`Distribution` (outcome -> Chance).

>>> p = Chance(1, 9)
>>> p
1/9 ≈ 11.11%
>>> p == Fraction(1, 9), p.float
(True, 0.1111111111111111)
>>> d = Distribution({"heads": Fraction(1, 2), "tails": Fraction(1, 2)})
>>> d["heads"], d.floats()
(1/2 ≈ 50.00%, {'heads': 0.5, 'tails': 0.5})
"""

from __future__ import annotations

import contextlib
import html
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar, TypeVar

from ...core.errors import is_int
from ..errors import DeepSeaError

__all__ = ["Exact", "Distribution", "AnalysisError", "Board", "board_of"]


class AnalysisError(DeepSeaError):
    """A question the analysis functions cannot answer as asked (a :class:`ValueError`).

    The message says why and what to ask instead.
    """


_E = TypeVar("_E", bound="Exact")


class Exact(Fraction):
    """An exact rational number (a :class:`~fractions.Fraction`) that prints its decimal too.

    ``x.float`` is the float view.  A plain :class:`Exact` is a pure number; its subclasses
    say what they measure, and print so: :class:`Chance` (a probability: a percentage beside
    the fraction), :class:`Points` and :class:`Steps`.  A value is never printed as a
    percentage.  Arithmetic gives plain :class:`~fractions.Fraction` results.

    >>> Exact(10, 9), Chance(2, 9), Points(3, 2), Steps(10, 9)
    (10/9 ≈ 1.1111, 2/9 ≈ 22.22%, 3/2 ≈ 1.50 points, 10/9 ≈ 1.11 steps)
    >>> Points(3), Chance(1)
    (3 points, 1 (100%))
    >>> Exact(2, 9) + Fraction(1, 9)
    Fraction(1, 3)
    """

    __slots__ = ()
    #: what the number measures ("" for a pure number), for its text
    unit: ClassVar[str] = ""

    def __new__(cls: type[_E], numerator: Any = 0, denominator: Any = None) -> _E:
        return super().__new__(cls, numerator, denominator)

    @property
    def float(self) -> float:
        """The value as a float."""
        return self.numerator / self.denominator

    @property
    def percent(self) -> str:
        """The value as a percentage (meaningful for a :class:`Chance` only)."""
        return f"{100 * self.numerator / self.denominator:.2f}%"

    def _fraction(self) -> str:
        return str(self.numerator) if self.denominator == 1 else f"{self.numerator}/{self.denominator}"

    def _decimal(self) -> str:
        if self.unit:
            return f"{self.float:.2f} {self.unit}"
        return f"{self.float:.4f}"

    def __repr__(self) -> str:
        if self.denominator == 1:
            return f"{self.numerator} {self.unit}" if self.unit else str(self.numerator)
        return f"{self._fraction()} ≈ {self._decimal()}"

    def _repr_html_(self) -> str:
        if self.denominator == 1:
            return f"<code>{html.escape(repr(self))}</code>"
        return f"<code>{self._fraction()}</code> ≈ {html.escape(self._decimal())}"

    # keep the subclass through copy/pickle
    def __reduce__(self) -> tuple[Any, ...]:
        return (type(self), (self.numerator, self.denominator))


class Chance(Exact):
    """An exact probability: prints as its fraction and a percentage (``2/9 ≈ 22.22%``)."""

    __slots__ = ()

    def _decimal(self) -> str:
        return self.percent

    def __repr__(self) -> str:
        if self.denominator == 1:
            return f"{self.numerator} ({100 * self.numerator}%)"
        return f"{self._fraction()} ≈ {self.percent}"


class Points(Exact):
    """An exact number of points (an expected value): ``3/2 ≈ 1.50 points``."""

    __slots__ = ()
    unit = "points"


class Steps(Exact):
    """An exact number of spaces swum (an expected value): ``10/9 ≈ 1.11 steps``."""

    __slots__ = ()
    unit = "steps"


_ZERO = Exact(0)


def exact(x: Any) -> Exact:
    return x if type(x) is Exact else Exact(x)


def chance(x: Any) -> Chance:
    return x if type(x) is Chance else Chance(x)


class Distribution(Mapping[Any, Exact]):
    """A probability distribution: an immutable mapping outcome -> :class:`Chance`.

    Outcomes are listed in increasing order when they can be compared.
    ``floats()`` gives the float view, ``mean`` the expectation (numeric
    outcomes; ``mean=Points`` or ``Steps`` says its unit), ``prob(test)`` the chance of
    outcomes passing a test.

    >>> d = Distribution({0: Fraction(1, 4), 2: Fraction(3, 4)}, mean=Points)
    >>> d.mean, d.prob(lambda x: x > 0)
    (3/2 ≈ 1.50 points, 3/4 ≈ 75.00%)
    >>> d == {0: Fraction(1, 4), 2: Fraction(3, 4)}
    True
    """

    __slots__ = ("_p", "title", "_mean")

    def __init__(self, probs: Mapping[Any, Any], title: str = "", mean: type[Exact] | None = None) -> None:
        items = [(k, chance(v)) for k, v in probs.items() if v != 0]
        with contextlib.suppress(TypeError):
            items.sort(key=lambda kv: kv[0])
        self._p: dict[Any, Exact] = dict(items)
        self.title = title
        self._mean = Exact if mean is None else mean

    def __getitem__(self, key: Any) -> Exact:
        return self._p[key]

    def get(self, key: Any, default: Any = _ZERO) -> Any:
        return self._p.get(key, default)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._p)

    def __len__(self) -> int:
        return len(self._p)

    def floats(self) -> dict[Any, float]:
        """The float view: outcome -> probability as a float."""
        return {k: v.float for k, v in self._p.items()}

    @property
    def total(self) -> Chance:
        return Chance(sum(self._p.values(), Fraction(0)))

    @property
    def mean(self) -> Exact:
        """The expected outcome (numeric outcomes only), in the outcomes' unit (points for
        values, steps for spaces swum)."""
        return self._mean(sum((k * v for k, v in self._p.items()), Fraction(0)))

    def prob(self, test: Callable[[Any], bool]) -> Chance:
        """The chance that the outcome passes ``test``."""
        return Chance(sum((v for k, v in self._p.items() if test(k)), Fraction(0)))

    def __repr__(self) -> str:
        inner = ", ".join(
            f"{k!r}: {v.numerator}/{v.denominator}" if v.denominator != 1 else f"{k!r}: {v}"
            for k, v in self._p.items()
        )
        return "{" + inner + "}"

    def _repr_html_(self) -> str:
        rows = "".join(
            f"<tr><td>{html.escape(str(k))}</td><td><code>{v.numerator}/{v.denominator}</code></td>"
            f"<td style='text-align:right'>{v.percent}</td>"
            f"<td><div style='background:#3b82f6;height:0.8em;width:{max(1, round(200 * v.float))}px'></div>"
            "</td></tr>"
            for k, v in self._p.items()
        )
        cap = f"<caption>{html.escape(self.title)}</caption>" if self.title else ""
        return f"<table>{cap}<tr><th>outcome</th><th>exact</th><th>%</th><th></th></tr>{rows}</table>"


@dataclass(frozen=True)
class Board:
    """The public facts about a round that movement and air depend on.

    Read from a :class:`~dsa_widget.deep_sea.rules.Game` or a :class:`~dsa_widget.deep_sea.view.View`
    (both give the same board: nothing here is hidden information).
    ``loads[q]`` is the number of items diver ``q`` carries (a stack is one).
    """

    n: int
    path_length: int
    air: int  # may be <= 0 during a last turn
    positions: tuple[int, ...]
    up: tuple[bool, ...]
    home: tuple[bool, ...]
    loads: tuple[int, ...]
    current: int | None
    step: str
    legal: tuple[str, ...]
    breathed: bool
    forced: bool  # current diver must turn back (not yet applied)
    last: bool  # the current turn is the round's last (air ran out when he breathed)
    requires_treasure: bool
    players: tuple[str, ...]

    def occupied(self, exclude: int) -> list[int]:
        """The path's spaces as the swim rule reads them (:func:`~dsa_widget.deep_sea.rules.swim`):
        ``occ[i] >= 0`` when a diver other than ``exclude`` is on space ``i``."""
        return occupancy(
            (p for q, p in enumerate(self.positions) if q != exclude and not self.home[q]), self.path_length
        )


def occupancy(spaces: Any, length: int) -> list[int]:
    """``occ`` for :func:`~dsa_widget.deep_sea.rules.swim`: -1 for a free space, 0 for a taken one
    (``spaces``: the taken ones; 0, the submarine, is never taken)."""
    occ = [-1] * (length + 1)
    for p in spaces:
        if p > 0:
            occ[p] = 0
    return occ


def board_of(state: Any) -> Board:
    """The :class:`Board` of a Game or a View (raises :class:`AnalysisError` otherwise)."""
    from ..rules import Game
    from ..view import View

    if isinstance(state, Game):
        # a view holds every public fact a board needs (values are never read here)
        state = View.of(state, state.current_player if state.current_player is not None else 0)
    if isinstance(state, View):
        v = state
        return Board(
            n=len(v.players),
            path_length=len(v.path) - 1,
            air=v.air,
            positions=tuple(v.positions),
            up=tuple(v.heading_up),
            home=tuple(v.returned),
            loads=tuple(len(c) for c in v.carrying),
            current=v.current_player,
            step=v.step,
            legal=tuple(v.legal),
            breathed=v.breathed,
            forced=v.must_turn_back,
            last=v.breathed and v.current_player is not None and v.air <= 0,
            requires_treasure=v.options.turn_back_requires_treasure,
            players=v.players,
        )
    raise AnalysisError(f"expected a Game or a View, got {type(state).__name__}")


def check_seat(board: Board, seat: Any) -> int:
    if seat is None:
        if board.current is None:
            raise AnalysisError("the game is over: there is no current diver; give seat=")
        return board.current
    if not is_int(seat) or not 0 <= seat < board.n:
        raise AnalysisError(f"seat must be a seat number from 0 to {board.n - 1}, got {seat!r}")
    return seat
