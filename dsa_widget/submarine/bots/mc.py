"""Submarine's Monte Carlo bot ``mc``: determinized flat Monte Carlo over its own view.

For each decision it draws ``samples`` full states consistent with its view
(:meth:`SubmarineView.sample <dsa_widget.submarine.view.SubmarineView.sample>`: every card it
cannot see is dealt again at random), applies each legal action to each of them, and plays
the rest out with the fast random loop (:func:`dsa_widget.submarine.fast.playout`), for at
most ``horizon`` turns (``None``: to the end).  An outcome is worth the score margin (own
score minus the best other score) plus ``win_weight`` times the win share (at a cut-off: 1 when
ahead, 1/2 when level).  Every action of one sample is played out with the same random stream
(common random numbers), so the comparison between actions is paired.  It never reads a
hidden card: only the view, and the samples drawn from it.  ``time_limit`` (seconds, off by
default so that a seed replays the same choices) stops sampling early.  ``prior`` (default 1)
adds that many times the ``greedy`` bot's rule-of-thumb value of each action to its mean.

>>> from dsa_widget.submarine.rules import SubmarineGame
>>> from dsa_widget.core.bots import play_bot_move
>>> g = SubmarineGame(2, seed=5)
>>> bot = MonteCarloBot(seed=1, samples=2, horizon=10)
>>> a = play_bot_move(g, bot)
>>> a.startswith("place "), sorted(bot.last_explanation["values"])[0]
(True, 'place 1')
"""

from __future__ import annotations

import random
import time
from typing import Any, ClassVar

from ...core.bots import Bot
from ...core.errors import is_int, is_number
from ..fast import FastState, playout
from .basic import GreedyBot, ViewFacts

__all__ = ["MonteCarloBot", "rollout_value"]


def rollout_value(state: FastState, seat: int, win_weight: float) -> float:
    """The worth of a (finished or cut-off) rollout to ``seat``."""
    sc = state.scores
    mine = sc[seat]
    other = max(x for i, x in enumerate(sc) if i != seat)
    if state.condition is not None:
        win = 1.0 / len(state.winners) if seat in state.winners else 0.0
    else:
        win = 1.0 if mine > other else 0.5 if mine == other else 0.0
    return (mine - other) + win_weight * win


class MonteCarloBot(Bot):
    """Determinized Monte Carlo: samples of its view, random rollouts, the best mean margin."""

    name = "mc"
    summary = "Monte Carlo: tries each action on deals drawn from what it may know, keeps the best margin"
    KNOBS: ClassVar[dict[str, Any]] = {
        "samples": 12,
        "horizon": 60,
        "win_weight": 1.0,
        "prior": 1.0,
        "time_limit": None,
    }
    samples: int
    horizon: int | None
    win_weight: float
    prior: float
    time_limit: float | None

    def _check_knobs(self) -> None:
        self._check_knob_kinds(("win_weight", "prior"))
        if not is_int(self.samples) or self.samples < 1:
            raise ValueError(f"mc: samples must be a positive int, got {self.samples!r}")
        if self.horizon is not None and (not is_int(self.horizon) or self.horizon < 1):
            raise ValueError(f"mc: horizon must be None or a positive int, got {self.horizon!r}")
        if self.time_limit is not None and not (is_number(self.time_limit) and self.time_limit > 0):
            raise ValueError(f"mc: time_limit must be None or positive, got {self.time_limit!r}")

    def decide(self, view: Any, legal: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
        if len(legal) == 1:
            return legal[0], {"reason": "the only legal action"}
        seat: int = view.seat
        totals = dict.fromkeys(legal, 0.0)
        t0 = time.perf_counter()
        done = 0
        for _ in range(self.samples):
            if done and self.time_limit is not None and time.perf_counter() - t0 > self.time_limit:
                break
            world = FastState.from_game(view.sample(self.rng))
            stream = self.rng.getrandbits(64)
            limit = 100_000 if self.horizon is None else world.turn + self.horizon
            for a in legal:
                s = world.copy()
                playout(s, random.Random(stream), max_turns=limit, first=a)
                totals[a] += rollout_value(s, seat, self.win_weight)
            done += 1
        values = {a: v / done for a, v in totals.items()}
        if self.prior:
            f = ViewFacts(view)
            judge = GreedyBot()
            values = {a: v + self.prior * judge.value(f, view, a) for a, v in values.items()}
        best = max(values.values())
        choice = next(a for a in legal if values[a] == best)
        return choice, {"reason": f"best mean margin over {done} samples", "values": values, "samples": done}
