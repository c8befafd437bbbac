"""Bots for Deep Sea Adventure and tournaments that rank them.

The protocol: a bot is any callable ``bot(view, legal) -> choice`` that gets
its player's :class:`~dsa_widget.deep_sea.view.View` (never a hidden value) and the
legal choices.  Bots are never asked to roll: the runner rolls the dice.

>>> from dsa_widget import Game
>>> from dsa_widget.deep_sea.bots import make_bot, play_bot_move, play_until, BOT_NAMES
>>> g = Game(players=["Ann", "Bob"], seed=1)
>>> bots = {0: make_bot("baseline"), 1: make_bot("mc", seed=1, playouts=4)}
>>> play_bot_move(g, bots[0])                # Ann's roll
'roll'
>>> play_bot_move(g, bots[0])                # Ann decides at the search step
'none'
>>> bots[0].explain()
'baseline: do nothing — dive on without taking'
>>> _ = play_until(g, bots, until="game")
>>> g.is_over
True

Built-in bots (see :data:`BOT_NAMES`): ``random``, the heuristics
``take_n``, ``depth``, ``air``, ``baseline`` (the C++ MCTS study's) and
``planner`` (the baseline's plan with the air counted), and the search bots
``mc`` (determinized Monte Carlo) and ``ismcts`` (information-set MCTS).

Rank them with one call (seats rotated, seeded, on both cores):

>>> res = tournament(["baseline", "planner", "random"], games=6, seed=1, progress=False)
>>> res.row("random")["games"]
6
"""

from __future__ import annotations

import random
from typing import Any

from ...core import bots as _core
from ...core.bots import Bot, BotError, BotLike, Played, UnknownBotError, Until, bot_name, play_bot_move
from ...core.tournament import TournamentResult
from .arena import tournament
from .heuristics import AirAwareBot, BaselineBot, DepthBot, PlannerBot, RandomBot, TakeNBot
from .registry import BOT_NAMES, bot_class, make_bot, parse_bot_spec
from .search import ISMCTSBot, MonteCarloBot

__all__ = [
    "BOT_NAMES",
    "AirAwareBot",
    "BaselineBot",
    "Bot",
    "BotError",
    "BotLike",
    "DepthBot",
    "ISMCTSBot",
    "MonteCarloBot",
    "PlannerBot",
    "RandomBot",
    "TakeNBot",
    "TournamentResult",
    "UnknownBotError",
    "bot_class",
    "bot_name",
    "make_bot",
    "parse_bot_spec",
    "play_bot_move",
    "play_until",
    "tournament",
]


def play_until(game: Any, bots: Any, until: Until = "turn", *, rng: random.Random | None = None) -> Played:
    """:func:`dsa_widget.core.bots.play_until`, with one more stop for this game:
    ``until="round"`` plays to the end of the round under way.

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], seed=2)
    >>> _ = play_until(g, "random", until="round")
    >>> g.round
    2
    """
    if until == "round":
        start = game.round
        return _core.play_until(game, bots, lambda g: g.round != start, rng=rng)
    return _core.play_until(game, bots, until, rng=rng)
