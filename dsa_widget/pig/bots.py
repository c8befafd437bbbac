"""Pig's bots and its tournament arena.

``random`` rolls or holds at random; ``hold_at_20`` rolls until the turn total reaches ``n`` (20)
or holding wins; ``optimal`` plays Neller & Presser's policy, the one that maximises the chance of
winning (not the expected points), from the solved table of :mod:`dsa_widget.pig.analysis` (goal
up to 200).  With more than two players ``optimal`` plays that two-player policy against the
leading opponent: a sensible heuristic, no longer optimal.  ``max_turns`` is ignored.

>>> from dsa_widget.core.bots import play_bot_move
>>> from dsa_widget.pig import PigGame
>>> g = PigGame(2, goal=100, seed=1)
>>> for m in ("roll", 6, "roll", 6, "roll", 5, "roll", 6):
...     g.apply(m) if isinstance(m, str) else g.apply_chance(m)
>>> bot = BOTS.make_bot("optimal")
>>> play_bot_move(g, bot), bot.explain().splitlines()[0].split(" — ")[1]
('hold', 'holding banks 23 for a score of 23; the chance to win is 64.2% holding, 63.9% rolling (solved)')
>>> play_bot_move(g, "hold_at_20"), play_bot_move(g, "hold_at_20")
('roll', 'roll')
>>> from dsa_widget.core.tournament import tournament
>>> res = tournament(["optimal", "hold_at_20"], game=PigGame, games=4, setups=[{"goal": 30}],
...                  workers=1, progress=False)
>>> sorted(r["bot"] for r in res.rows)
['hold_at_20', 'optimal']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..core.bots import Bot, BotRegistry
from ..core.errors import is_int
from ..core.tournament import Arena
from .analysis import action_values
from .rules import HOLD, ROLL, PigGame
from .view import PigView

__all__ = ["ARENA", "BOTS", "BOT_NAMES", "BOT_SUMMARIES", "HoldAtBot", "OptimalBot", "RandomBot"]


class PigBot(Bot):
    """A Pig bot: the turn's forced steps settled once, the choice left to :meth:`choose`."""

    def decide(self, view: PigView, legal: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
        me, k = view.current, view.turn_total
        made = f"holding banks {k} for a score of {view.scores[me] + k}"
        if legal == (ROLL,):
            return ROLL, {"reason": "a turn starts with a roll"}
        if legal == (HOLD,):
            return HOLD, {"reason": f"{made} (goal {view.goal}): holding wins"}
        return self.choose(view, made)

    def choose(self, view: PigView, made: str) -> tuple[str, dict[str, Any]]:
        raise NotImplementedError


class RandomBot(PigBot):
    """Rolls or holds at random (seeded)."""

    name = "random"
    summary = "rolls or holds at random: a yardstick"

    def choose(self, view: PigView, made: str) -> tuple[str, dict[str, Any]]:
        return self.rng.choice((ROLL, HOLD)), {"reason": "at random"}


class HoldAtBot(PigBot):
    """Rolls until the turn total reaches ``n``."""

    name = "hold_at_20"
    summary = "rolls until the turn total reaches n (20) or holding wins"
    KNOBS: ClassVar[dict[str, Any]] = {"n": 20}
    n: int

    def _check_knobs(self) -> None:
        if not is_int(self.n) or self.n < 1:
            raise ValueError(f"hold_at_20: n must be a positive int, got {self.n!r}")

    def choose(self, view: PigView, made: str) -> tuple[str, dict[str, Any]]:
        if view.turn_total >= self.n:
            return HOLD, {"reason": f"{made}; the turn total reached {self.n}"}
        return ROLL, {"reason": f"the turn total {view.turn_total} is below {self.n}"}


class OptimalBot(PigBot):
    """Neller & Presser's optimal policy (two players; more: against the leading opponent)."""

    name = "optimal"
    summary = "Neller & Presser's policy: the best chance of winning, from a solved table"

    def choose(self, view: PigView, made: str) -> tuple[str, dict[str, Any]]:
        me = view.current
        opp = max((q for q in range(len(view.players)) if q != me), key=lambda q: view.scores[q])
        roll, hold = action_values(view.scores[me], view.scores[opp], view.turn_total, view.goal)
        choice = ROLL if roll > hold else HOLD
        return choice, {
            # the solved table's chances (both playing this policy), not an estimate
            "reason": f"{made}; the chance to win is {hold:.1%} holding, {roll:.1%} rolling (solved)",
            "values": {ROLL: roll, HOLD: hold},
        }


#: Pig's bots, as the game registry names them
BOTS = BotRegistry.of(RandomBot, HoldAtBot, OptimalBot)
BOT_NAMES, BOT_SUMMARIES = BOTS.names, BOTS.summaries


def _new_game(labels: Sequence[str], seed: int, setup: Mapping[str, Any]) -> PigGame:
    return PigGame(list(labels), seed=seed, **setup)


def _check_setup(n: int, setup: Mapping[str, Any]) -> None:
    PigGame(n, seed=0, **setup)  # raises SetupError naming the key at fault


#: how :func:`dsa_widget.core.tournament.tournament` plays one game of Pig
ARENA = Arena(game_type=PigGame, new_game=_new_game, check_setup=_check_setup)
