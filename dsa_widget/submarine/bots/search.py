"""Submarine's ``search`` bot: determinized Monte Carlo whose rollouts finish its own turn the
``greedy`` way.

For each decision it draws ``samples`` full states consistent with its view
(:meth:`SubmarineView.sample <dsa_widget.submarine.view.SubmarineView.sample>`: every card it
cannot see is dealt again at random; it never reads a hidden card).  On each of them it tries
every legal action, lets the ``greedy`` rules of thumb finish the rest of its own turn (the
mode, the collections and moves, the step ends: ``mc`` leaves these to random play, which
wastes the action being judged), then plays the game out with the fast random loop
(:func:`dsa_widget.submarine.fast.playout`) for at most ``horizon`` more turns.  Every action of
one sample continues with the same random stream (common random numbers), so the comparison is
paired.  An outcome is worth the score margin (own score minus the best other score) plus
``win_weight`` times the win share; ``prior`` adds that many times greedy's rule-of-thumb value
of the action.  The budget is a number of playouts (``samples`` times the legal actions), never
a clock, so a seed replays the same choices.

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
    """Determinized Monte Carlo over its view; greedy finishes its own turn in each rollout."""

    name = "search"
    summary = (
        "tries each action on deals drawn from what it may know, finishing its turn by the "
        "rules of thumb, and keeps the best margin"
    )
    KNOBS: ClassVar[dict[str, Any]] = {
        "samples": 16,
        "horizon": 60,
        "win_weight": 1.0,
        "prior": 1.0,
    }
    samples: int
    horizon: int | None
    win_weight: float
    prior: float

    def _check_knobs(self) -> None:
        if isinstance(self.samples, bool) or not isinstance(self.samples, int) or self.samples < 1:
            raise ValueError(f"search: samples must be a positive int, got {self.samples!r}")
        if self.horizon is not None and (
            isinstance(self.horizon, bool) or not isinstance(self.horizon, int) or self.horizon < 1
        ):
            raise ValueError(f"search: horizon must be None or a positive int, got {self.horizon!r}")
        for k in ("win_weight", "prior"):
            v = self.knobs[k]
            if isinstance(v, bool) or not isinstance(v, (int, float)):
                raise ValueError(f"search: {k} must be a number, got {v!r}")

    def decide(self, view: Any, legal: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
        if len(legal) == 1:
            return legal[0], {"reason": "the only legal action"}
        seat: int = view.seat
        judge = GreedyBot()
        margin = dict.fromkeys(legal, 0.0)
        wins = dict.fromkeys(legal, 0.0)
        for _ in range(self.samples):
            world = view.sample(self.rng)
            stream = self.rng.getrandbits(64)
            for a in legal:
                g = world.clone()
                g.apply_unchecked(a)
                # the rest of its own turn by the rules of thumb, on the drawn deal (its seat's
                # view of that deal holds nothing the real view does not)
                while not g.is_over and g.to_move == seat and not g.at_turn_boundary:
                    v = g.view(seat)
                    more = g.legal_actions()
                    g.apply_unchecked(more[0] if len(more) == 1 else judge.decide(v, more)[0])
                s = FastState.from_game(g)
                limit = 100_000 if self.horizon is None else s.turn + self.horizon
                playout(s, random.Random(stream), max_turns=limit)
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
            f"over {n} deals drawn from its view (its turn finished by rules of thumb), "
            f"{choice!r} wins {wins[choice] / n:.0%} with mean margin {margin[choice] / n:+.2f}; "
            f"next best {second!r}: {wins[second] / n:.0%}, {margin[second] / n:+.2f}"
        )
        return choice, {"reason": reason, "values": values, "samples": n}
