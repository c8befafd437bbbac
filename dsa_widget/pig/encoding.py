"""Pig as fixed-size numbers for the adapters, and :func:`pig_env`, its PettingZoo environment.

Actions: ``0`` roll, ``1`` hold (the die is chance, never an action).  The observation has
:data:`SIZE` floats, seats relative to the observer (slot 0 is the observer, slot 1 the next
seat in turn order; a spectator observes as seat 0), slots the game lacks all 0:

>>> from dsa_widget.pig import PigGame
>>> enc = PigEncoding()
>>> [(f.name, f.offset, f.size) for f in enc.layout]
[('players', 0, 6), ('scores', 6, 6), ('to_move', 12, 6), ('turn_total', 18, 1), ('goal', 19, 1)]
>>> g = PigGame(3, goal=50, seed=1); g.apply("roll"); g.apply_chance(5)
>>> enc.observe(g.view(2))[:14], enc.mask(g.legal_actions())
([1.0, 1.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0], [1, 1])
"""

from __future__ import annotations

import functools
import struct
from collections.abc import Sequence
from typing import Any

from ..core.encoding import EncodingError, Field
from ..core.errors import is_int, short_repr
from .rules import HOLD, MAX_GOAL, ROLL, PigGame
from .view import PigView

__all__ = ["SIZE", "PigEncoding", "pig_env"]

_SEATS = 6
_FIELDS = (
    ("players", _SEATS, "1 for each relative slot the game has a seat for"),
    ("scores", _SEATS, "banked points / goal, by relative slot"),
    ("to_move", _SEATS, "one-hot: the relative slot whose turn it is (all 0 once over)"),
    ("turn_total", 1, "the turn total / goal"),
    ("goal", 1, f"goal / {MAX_GOAL}"),
)
_OFFSETS = [sum(size for _, size, _ in _FIELDS[:i]) for i in range(len(_FIELDS) + 1)]
SIZE = _OFFSETS[-1]


class PigEncoding:
    """Pig's numbers (one layout for every setup: seats are padded to six)."""

    num_actions = 2
    observation_size = SIZE
    actions = (ROLL, HOLD)
    layout = tuple(Field(n, o, s, m) for (n, s, m), o in zip(_FIELDS, _OFFSETS, strict=False))

    def __init__(self, state: Any = None) -> None:
        """``state`` (a game or view) gives the goal the bounds use; no size depends on it."""
        goal = getattr(state, "goal", None)
        self.goal: int | None = goal if isinstance(goal, int) else None

    def bounds(self) -> tuple[list[float], list[float]]:
        """Each feature's range: 0 to 1, but a score or a turn total over the goal: score plus
        turn total stays below ``goal + 6`` (a roll of at most 6 from below the goal, then only
        ``hold``), so their high is ``(goal + 5) / goal`` (6, the most for a goal of 1, when the
        encoding was built without a game)."""
        over = 6.0 if self.goal is None else (self.goal + 5) / self.goal
        high = [1.0] * SIZE
        high[_SEATS : 2 * _SEATS] = [over] * _SEATS
        high[3 * _SEATS] = over
        return [0.0] * SIZE, high

    def action(self, index: int) -> str:
        if not is_int(index) or not 0 <= index < 2:
            raise EncodingError(f"Pig's action numbers are 0 (roll) and 1 (hold), got {short_repr(index)}")
        return self.actions[index]

    def index(self, action: Any) -> int:
        if not isinstance(action, str) or action not in self.actions:
            raise EncodingError(f"Pig's actions are 'roll' and 'hold', got {short_repr(action)}")
        return self.actions.index(action)

    def observe(self, view: PigView) -> list[float]:
        current = None if view.winners else view.current
        return _observe(view.seat or 0, view.goal, view.scores, current, view.turn_total)

    def tracker(self, game: PigGame, new_buffer: Any = None) -> PigTracker:
        """A :class:`PigTracker` of ``game`` (``new_buffer`` is accepted for the adapters' sake:
        its observations are numpy float32 arrays)."""
        return PigTracker(game)

    def mask(self, legal: Sequence[Any]) -> list[int]:
        return [int(a in legal) for a in self.actions]

    def render_rgb(self, game: PigGame) -> Any:
        """The adapters' ``rgb_array`` picture: the scores, the turn total and the last die
        (:func:`~dsa_widget.pig.picture.board_rgb`)."""
        from .picture import board_rgb

        return board_rgb(game)


def _observe(me: int, goal: int, scores: Sequence[int], current: int | None, turn_total: int) -> list[float]:
    """The observation of seat ``me`` (``current`` None once the game is over)."""
    n = len(scores)
    out = [0.0] * SIZE
    for r in range(n):
        out[r] = 1.0
        out[_SEATS + r] = scores[(me + r) % n] / goal
    if current is not None:
        out[2 * _SEATS + (current - me) % n] = 1.0
    out[3 * _SEATS], out[3 * _SEATS + 1] = turn_total / goal, goal / MAX_GOAL
    return out


class PigTracker:
    """Every seat's :meth:`PigEncoding.observe` of one live game, read from the game's public
    facts (Pig hides nothing) without building a view for each seat.

    >>> import numpy as np
    >>> g = PigGame(3, goal=50, seed=1); g.apply("roll"); g.apply_chance(5)
    >>> t, enc = PigEncoding().tracker(g), PigEncoding()
    >>> all(np.array_equal(t.observe(s), np.float32(enc.observe(g.view(s)))) for s in range(3))
    True
    """

    def __init__(self, game: PigGame) -> None:
        self.game = game
        n, goal = len(game.players), game.goal
        self._game = game
        self._n, self._goal, self._tab = n, goal, _float32_fractions(goal)
        self._cap = len(self._tab)
        # the parts of the list no move changes: the seats there are, the padding after the
        # scores, the goal; and each seat's scores from its own slot on, as floats, worked out
        # when the scores change (a hold), not at every roll
        self._players = [1.0] * n + [0.0] * (_SEATS - n)
        self._pad = [0.0] * (_SEATS - n)
        self._goal_f = _float32(goal / MAX_GOAL)
        self._scores: tuple[int, ...] | None = None
        self._rows: list[list[float]] = []

    def observe(self, seat: int) -> Any:
        """``encoding.observe(game.view(seat))`` as a fresh float32 array."""
        import numpy as np

        g = self.game
        obs = _observe(seat, g.goal, g.scores, g.current_player, g.turn_total)
        return np.array(obs, np.float32)

    def observe_list(self, seat: int) -> list[float]:
        """``observe(seat).tolist()`` (each number the float32 the array holds, as a Python float)
        without numpy: the OpenSpiel adapter gives tensors as lists, every seat's at every step.

        >>> g = PigGame(2, goal=30, seed=1); g.apply("roll"); g.apply_chance(4)
        >>> PigEncoding().tracker(g).observe_list(1)[12:20]
        [0.0, 1.0, 0.0, 0.0, 0.0, 0.0, 0.13333334028720856, 0.029999999329447746]
        """
        g = self._game
        scores = g.scores
        if scores is not self._scores:
            tab, goal, n = self._tab, self._goal, self._n
            frac = [tab[x] if 0 <= x < len(tab) else _float32(x / goal) for x in scores]
            self._rows = [frac[r:] + frac[:r] + self._pad for r in range(n)]
            self._scores = scores
        current, t = g.current_player, g.turn_total
        turn = self._tab[t] if 0 <= t < self._cap else _float32(t / self._goal)
        slot = _NOBODY if current is None else _SLOT[(current - seat) % self._n]
        return [*self._players, *self._rows[seat], *slot, turn, self._goal_f]


#: the ``to_move`` part of the observation: a 1 in relative slot ``r`` (``_SLOT[r]``), or nobody's
_SLOT = tuple([1.0 if i == r else 0.0 for i in range(_SEATS)] for r in range(_SEATS))
_NOBODY = [0.0] * _SEATS


def _float32(x: float) -> float:
    """``x`` rounded to float32 (what a float32 tensor holds), as a Python float."""
    return struct.unpack("f", struct.pack("f", x))[0]  # type: ignore[no-any-return]


@functools.lru_cache(maxsize=64)
def _float32_fractions(goal: int) -> tuple[float, ...]:
    """``k / goal`` rounded to float32, for every score or turn total ``k`` a game reaches
    (``0 .. goal + 5``: a roll of at most 6 from below the goal, then only ``hold``)."""
    return tuple(_float32(k / goal) for k in range(goal + 6))


def _new_game(setup: dict[str, Any], seed: int) -> PigGame:
    return PigGame(seed=seed, **setup)


def pig_env(
    players: int | Sequence[str] = 2,
    *,
    goal: int = 100,
    max_turns: int | None = None,
    **kwargs: Any,
) -> Any:
    """Pig as a PettingZoo AEC environment: the generic
    :class:`~dsa_widget.adapters.pettingzoo.GameEnv` (``reward``, ``render_mode`` ``"ansi"`` /
    ``"human"`` / ``"rgb_array"`` and ``max_cycles`` as there), wrapped as
    ``dsa_widget.adapters.pettingzoo.env`` wraps it (no ``illegal_reward``).  A bad setup raises
    :class:`~dsa_widget.pig.rules.SetupError` here.

    >>> e = pig_env(goal=20); e.reset(seed=3)
    >>> e.agent_selection, e.last()[0]["action_mask"].tolist()
    ('player_0', [1, 0])
    """
    from ..adapters.pettingzoo import GameEnv, _AssertOutOfBounds, _OrderEnforcing

    setup: dict[str, Any] = {"players": players, "goal": goal, "max_turns": max_turns}
    PigGame(**setup)
    e = GameEnv(functools.partial(_new_game, setup), **kwargs)
    e.metadata = {**e.metadata, "name": "pig_v0"}
    return _OrderEnforcing(_AssertOutOfBounds(e))
