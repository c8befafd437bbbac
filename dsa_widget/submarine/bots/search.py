"""Submarine's ``search`` bot: determinized Monte Carlo whose rollouts play every seat by
``greedy``'s rules of thumb.

For each decision it draws ``samples`` full states consistent with its view (the first with
:meth:`SubmarineView.sample <dsa_widget.submarine.view.SubmarineView.sample>`, the others by
:meth:`FastState.redeal <dsa_widget.submarine.fast.FastState.redeal>`: every card it cannot see is
dealt again at random; it never reads a hidden card).  On each of them it tries every legal
action and plays on with the fast loop (:func:`dsa_widget.submarine.fast.playout`) for at most
``horizon`` more turns, every seat (its own too) by greedy's rules (``rollout="greedy"``, the
default; ``"random"``: random play, as ``mc``).  Random play wastes the action being judged and
makes the opponents far weaker than real ones; greedy's rules finish its own turn sensibly and
model the opponents as players who collect what they can pay for.  Every action of one sample
is judged on the same deal (and the same random stream), so the comparison is paired.  An
outcome is worth the score margin (own score minus the best other score) plus ``win_weight``
times the win share (at a cut-off: 1 when ahead, 1/2 when level); ``prior`` adds that many
times greedy's rule-of-thumb value of the action.  The budget is a number of playouts
(``samples`` times the legal actions), never a clock, so a seed replays the same choices.

Its explanation says what it believed: the chosen action's mean margin and win share over the
deals drawn from its view, against the runner-up's.

>>> from dsa_widget.submarine.rules import SubmarineGame
>>> from dsa_widget.core.bots import play_bot_move
>>> g = SubmarineGame(2, seed=5)
>>> bot = SearchBot(seed=1, samples=2, horizon=10)
>>> a = play_bot_move(g, bot)
>>> a.startswith("place "), bot.explain().startswith("search: ")
(True, True)
"""

from __future__ import annotations

import random
from typing import Any, ClassVar

from ...core.bots import Bot
from ...core.errors import is_int, is_number
from ..fast import FastState, playout
from .basic import GreedyBot, ViewFacts
from .mc import rollout_value

__all__ = ["SearchBot"]


def _win_share(state: FastState, seat: int) -> float:
    """1 for a win (1/k shared), 1/2 for a tie at a cut-off, else 0."""
    if state.condition is not None:
        return 1.0 / len(state.winners) if seat in state.winners else 0.0
    sc = state.scores
    other = max(x for i, x in enumerate(sc) if i != seat)
    return 1.0 if sc[seat] > other else 0.5 if sc[seat] == other else 0.0


class SearchBot(Bot):
    """Determinized Monte Carlo over its view; every seat plays greedy's rules in the rollouts."""

    name = "search"
    summary = (
        "tries each action on deals drawn from what it may know, every seat then playing by the "
        "rules of thumb, and keeps the best margin"
    )
    KNOBS: ClassVar[dict[str, Any]] = {
        "samples": 8,
        "horizon": 24,
        "win_weight": 1.0,
        "prior": 1.0,
        "rollout": "greedy",
    }
    rollout: str
    samples: int
    horizon: int | None
    win_weight: float
    prior: float

    def _check_knobs(self) -> None:
        if not is_int(self.samples) or self.samples < 1:
            raise ValueError(f"search: samples must be a positive int, got {self.samples!r}")
        if self.horizon is not None and (not is_int(self.horizon) or self.horizon < 1):
            raise ValueError(f"search: horizon must be None or a positive int, got {self.horizon!r}")
        if self.rollout not in ("greedy", "random"):
            raise ValueError(f"search: rollout must be 'greedy' or 'random', got {self.rollout!r}")
        for k in ("win_weight", "prior"):
            v = self.knobs[k]
            if not is_number(v):
                raise ValueError(f"search: {k} must be a number, got {v!r}")

    def decide(self, view: Any, legal: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
        if len(legal) == 1:
            return legal[0], {"reason": "the only legal action"}
        seat: int = view.seat
        judge = GreedyBot()
        margin = dict.fromkeys(legal, 0.0)
        wins = dict.fromkeys(legal, 0.0)
        world = FastState.from_game(view.sample(self.rng))
        guided = self.rollout == "greedy"
        for i in range(self.samples):
            if i:
                world.redeal(seat, self.rng)  # another deal of every card it cannot see
            stream = self.rng.getrandbits(64)
            limit = 100_000 if self.horizon is None else world.turn + self.horizon
            for a in legal:
                s = world.copy()
                playout(s, random.Random(stream), max_turns=limit, first=a, guided=guided)
                margin[a] += rollout_value(s, seat, 0.0)
                wins[a] += _win_share(s, seat)
        n = self.samples
        values = {a: (margin[a] + self.win_weight * wins[a]) / n for a in legal}
        if self.prior:
            f = ViewFacts(view)
            values = {a: v + self.prior * judge.value(f, view, a) for a, v in values.items()}
        ranked = sorted(legal, key=lambda a: -values[a])
        choice, second = ranked[0], ranked[1]
        reason = (
            f"over {n} deals drawn from its view (every seat then playing by rules of thumb), "
            f"{choice!r} wins {wins[choice] / n:.0%} with mean margin {margin[choice] / n:+.2f}; "
            f"next best {second!r}: {wins[second] / n:.0%}, {margin[second] / n:+.2f}"
        )
        return choice, {"reason": reason, "values": values, "samples": n}
