"""Where the current diver lands: an exact distribution for each legal choice.

The reasoning, for a diver carrying ``k`` items:

1. The dice sum ``s`` is 2..6 with chances 1/9, 2/9, 3/9, 2/9, 1/9.
2. He swims ``max(0, s - k)`` spaces in his direction: up if he is already
   heading up, if he turns back now ("back"), or if he must turn back (no
   free space deeper than his own); down otherwise ("continue", or his first
   swim from the submarine).
3. Spaces holding another diver are jumped and not counted.  Heading down,
   a diver who would pass the deepest free space stops on it.  Heading up,
   reaching the submarine (position 0) ends his round safely.
4. Sums that lead to the same space add their chances.

Everything used is public (positions, headings, numbers of items, the
path's length), so a :class:`~dsa_widget.deep_sea.rules.Game` and any player's
:class:`~dsa_widget.deep_sea.view.View` give the same answer.

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], seed=1)
>>> g.roll((2, 3)); g.apply("take")          # Ann: space 5, one item
>>> g.roll((1, 1))                           # Bob: space 2, nothing taken
>>> g.apply("none")
>>> landing_distributions(g)                 # Ann's turn: turn back or not?
{'back': {0: 1/3, 1: 1/3, 3: 2/9, 4: 1/9}, 'continue': {6: 1/9, 7: 2/9, 8: 1/3, 9: 2/9, 10: 1/9}}

Turning back from space 5 with one item, sums 2..6 give 1..5 steps.  Going
up, the free spaces are 4, 3, 1 (space 2 is Bob's, jumped): 1 step lands on 4
(sum 2: 1/9), 2 steps on 3 (sum 3: 2/9), 3 steps on 1 (sum 4: 3/9), and 4 or
more steps reach the submarine (sums 5, 6: 2/9 + 1/9 = 1/3).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ..rules import has_free_deeper, swim
from ._common import AnalysisError, Board, Distribution, board_of
from .dice import SUM_WEIGHTS

__all__ = ["landing_distribution", "landing_distributions"]


def _landing(board: Board, seat: int, up: bool) -> Distribution:
    pos = board.positions[seat]
    k = board.loads[seat]
    occ = board.occupied(seat)
    out: dict[int, Fraction] = {}
    for s, w in SUM_WEIGHTS.items():
        to = swim(pos, up, s - k, occ)
        out[to] = out.get(to, Fraction(0)) + Fraction(w, 9)
    name = board.players[seat]
    return Distribution(out, title=f"where {name} lands ({'up' if up else 'down'}, {k} item(s))")


def _heading_for(board: Board, choice: str) -> bool:
    p = board.current
    assert p is not None
    if board.step == "turn_back":
        if choice == "back":
            return True
        if choice == "continue":
            return False
    elif board.step == "roll" and choice == "roll":
        if board.up[p] or board.forced:
            return True
        pos = board.positions[p]
        # True when forced to turn back (the engine applies it when he rolls)
        return pos > 0 and not has_free_deeper(pos, board.occupied(p))
    legal = ", ".join(map(repr, board.legal)) or "nothing"
    raise AnalysisError(
        f"{choice!r} is not a legal choice that leads to a swim now (step {board.step!r}; legal: {legal})"
    )


def landing_distributions(state: Any) -> dict[str, Distribution]:
    """For each legal choice of the current diver, where he lands after this turn's swim.

    Keys are the legal choices (``"back"``/``"continue"`` at the turn-back
    step, ``"roll"`` at the roll step); values map a position (0 = the
    submarine) to its exact chance.  Empty when no swim is ahead in this turn
    (search step, or the game is over).

    >>> from dsa_widget import Game
    >>> g = Game(players=2, path=[(1, 0)] * 4, seed=0)
    >>> landing_distributions(g)                  # a 4-space path: sums 4..6 stop on space 4
    {'roll': {2: 1/9, 3: 2/9, 4: 2/3}}
    """
    board = board_of(state)
    if board.current is None or board.step not in ("turn_back", "roll"):
        return {}
    return {c: _landing(board, board.current, _heading_for(board, c)) for c in board.legal}


def landing_distribution(state: Any, choice: str | None = None) -> Distribution:
    """Where the current diver lands if he makes ``choice`` (default: the only swim there is).

    ``choice`` is ``"back"`` or ``"continue"`` at the turn-back step and
    ``"roll"`` (or nothing) at the roll step.

    >>> from dsa_widget import Game
    >>> g = Game(players=2, seed=3)
    >>> landing_distribution(g)                   # first swim from the submarine
    {2: 1/9, 3: 2/9, 4: 1/3, 5: 2/9, 6: 1/9}
    >>> landing_distribution(g, "back")
    Traceback (most recent call last):
    ...
    dsa_widget.deep_sea.analysis._common.AnalysisError: 'back' is not a legal choice now (step 'roll'; legal: 'roll')
    """
    board = board_of(state)
    if board.current is None:
        raise AnalysisError("the game is over: nobody swims")
    if board.step not in ("turn_back", "roll"):
        raise AnalysisError(f"no swim is left in this turn (step {board.step!r}); ask again at the next turn")
    if choice is None:
        if board.step == "turn_back":
            raise AnalysisError("say which choice: 'back' or 'continue' (or use landing_distributions)")
        choice = "roll"
    if choice not in board.legal:
        legal = ", ".join(map(repr, board.legal))
        raise AnalysisError(f"{choice!r} is not a legal choice now (step {board.step!r}; legal: {legal})")
    return _landing(board, board.current, _heading_for(board, choice))
