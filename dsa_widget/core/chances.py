"""Chances on the board, for every game: one figure is a label, a probability and what kind of
figure it is, so that a board can say each as what it is.

A game's presenter supplies them (:meth:`dsa_widget.core.session.BasePresenter.chances`, from
a seat's view only); the session publishes them with the screen while the board's ``hints``
are on, and the shell (``js/shell.js``) draws them in its "Chances" panel under the board.

The kinds:

* ``"exact"``: the probability itself, computed, not sampled (with ``given``, under the model
  it states: Submarine's "if every card you cannot see is as likely as any other to be next");
* ``"solved"``: the value of a game solved for the players' policy (``given``: "if both play
  the optimal policy");
* ``"estimate"``: a sample's proportion, with its 95% interval and its sample size ``n`` (with
  ``given``, the play the sample assumed: Pig's "if everyone then holds at 20").

>>> Figure("Ann wins if she rolls", 0.6198, "solved", given="if both play the optimal policy").words()
'solved, if both play the optimal policy'
>>> Figure("a 6 next", 1 / 6, "exact").to_dict()["kind"]
'exact'
>>> Figure("Bob makes it home", 0.44, "estimate", low=0.41, high=0.47, n=400).words()
'estimate 41–47%, 95%, n = 400'
>>> Figure("Cy wins", 0.3, "estimate", given="if all hold at 20", low=0.25, high=0.35, n=300).words()
'estimate 25–35%, 95%, n = 300, if all hold at 20'
>>> Figure("odd", 1.5, "exact")
Traceback (most recent call last):
...
dsa_widget.core.chances.FigureError: a figure's value is a probability from 0 to 1, got 1.5
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from .errors import GameError, is_int, is_number, short_repr
from .stats import wilson

__all__ = ["KINDS", "Figure", "FigureError"]

#: what a figure may be
KINDS = ("exact", "solved", "estimate")


class FigureError(GameError):
    """A figure that is not one: a value that is no probability, an unknown kind, an estimate
    without its interval or its sample size."""


def _probability(name: str, x: Any) -> float:
    if isinstance(x, bool) or not isinstance(x, (int, float)) or not 0 <= x <= 1 or math.isnan(x):
        raise FigureError(f"a figure's {name} is a probability from 0 to 1, got {short_repr(x)}")
    return float(x)


def _percent(x: float) -> str:
    """A probability as a whole percentage, or with one decimal where that would read 0 or 100."""
    p = 100 * x
    return f"{p:.0f}" if 0.5 <= p <= 99.5 else f"{p:.1f}"


@dataclass(frozen=True)
class Figure:
    """One figure of the "Chances" panel: ``label`` (what it is the chance of, in words),
    ``value`` (a probability), ``kind`` (one of :data:`KINDS`); ``given``: the condition the
    figure holds under (the model, the players' policy); ``low``, ``high``, ``n``: an
    estimate's 95% interval and sample size (required for an estimate, refused otherwise).  A
    bad figure raises :class:`FigureError`."""

    label: str
    value: float
    kind: str
    given: str = ""
    low: float | None = None
    high: float | None = None
    n: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.label, str) or not self.label.strip() or len(self.label) > 120:
            raise FigureError(f"a figure's label is a short text, got {short_repr(self.label)}")
        object.__setattr__(self, "value", _probability("value", self.value))
        if self.kind not in KINDS:
            raise FigureError(f"a figure's kind is one of {', '.join(KINDS)}, got {short_repr(self.kind)}")
        if not isinstance(self.given, str) or len(self.given) > 120:
            raise FigureError(f"a figure's condition is a short text, got {short_repr(self.given)}")
        if self.kind == "estimate":
            if self.low is None or self.high is None or self.n is None:
                raise FigureError("an estimate carries its 95% interval (low, high) and its sample size n")
            low, high = _probability("low", self.low), _probability("high", self.high)
            if not low <= self.value <= high:
                raise FigureError(f"an estimate's interval {low}..{high} must hold its value {self.value}")
            if not is_int(self.n) or self.n < 1:
                raise FigureError(
                    f"an estimate's sample size is a whole number from 1, got {short_repr(self.n)}"
                )
            object.__setattr__(self, "low", low)
            object.__setattr__(self, "high", high)
        elif self.low is not None or self.high is not None or self.n is not None:
            raise FigureError(f"only an estimate has an interval and a sample size (this one is {self.kind})")

    @classmethod
    def estimate(cls, label: str, successes: float, n: int, given: str = "") -> Figure:
        """An estimate from a sample: ``successes`` of ``n`` trials (fractional where a trial is
        shared, as a tied game), with its Wilson 95% interval (:func:`~dsa_widget.core.stats.wilson`).

        >>> Figure.estimate("Cy wins", 150, 500, given="if all hold at 20").words()
        'estimate 26–34%, 95%, n = 500, if all hold at 20'
        """
        if not is_int(n) or n < 1:
            raise FigureError(f"an estimate's sample size is a whole number from 1, got {short_repr(n)}")
        if not is_number(successes) or not 0 <= successes <= n:
            raise FigureError(
                f"an estimate's successes are a number from 0 to n, got {short_repr(successes)}"
            )
        low, high = wilson(successes, n)
        return cls(label, successes / n, "estimate", given=given, low=low, high=high, n=n)

    def words(self) -> str:
        """What the figure is, in words, as the panel writes it beside the value."""
        kind = self.kind
        if kind == "estimate":
            kind = f"estimate {_percent(self.low or 0.0)}–{_percent(self.high or 0.0)}%, 95%, n = {self.n}"
        return f"{kind}, {self.given}" if self.given else kind

    def to_dict(self) -> dict[str, Any]:
        """The figure as the screen carries it (``text``: the value in words, ``kind_words``:
        what it is)."""
        out: dict[str, Any] = {
            "label": self.label,
            "value": self.value,
            "text": f"{100 * self.value:.1f}%",
            "kind": self.kind,
            "kind_words": self.words(),
        }
        if self.kind == "estimate":
            out.update(low=self.low, high=self.high, n=self.n)
        return out
