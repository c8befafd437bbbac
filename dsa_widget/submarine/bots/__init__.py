"""Bots for *Submarine* and the tournaments that rank them.

The protocol is the package's: a bot is any callable ``bot(view, legal) -> action`` that gets
its seat's :class:`~dsa_widget.submarine.view.SubmarineView` (never a hidden card) and the legal
actions.  ``SubmarineGame.BOTS`` names this package, so bot names work wherever the core
accepts a bot (:func:`~dsa_widget.core.bots.resolve_bot`, :func:`~dsa_widget.core.bots.play_bot_move`).

Built-in bots (:data:`BOT_NAMES`): ``random``, ``greedy`` (rules of thumb by the scoring rules),
``mc`` (determinized Monte Carlo over states drawn from its view, rolled out with the fast
loop of :mod:`dsa_widget.submarine.fast`) and ``search`` (the same, but in its rollouts every
seat plays by greedy's rules of thumb).  :func:`tournament` ranks them with
95% Wilson intervals (:mod:`dsa_widget.submarine.bots.arena`).

>>> from dsa_widget.submarine.rules import SubmarineGame
>>> from dsa_widget.core.bots import resolve_bot
>>> resolve_bot("greedy", SubmarineGame)
GreedyBot(seed=None)
>>> res = tournament(["greedy", "random"], games=2, seed=1, workers=1, progress=False)
>>> sorted(r["bot"] for r in res.rows), res.row("greedy")["games"]
(['greedy', 'random'], 2)
"""

from __future__ import annotations

from ...core.bots import Bot, BotError, BotLike, UnknownBotError, bot_name, play_bot_move
from .arena import ARENA, ArenaGame, tournament
from .basic import GreedyBot, RandomBot
from .mc import MonteCarloBot
from .registry import BOT_NAMES, BOT_SUMMARIES, bot_class, make_bot, parse_bot_spec
from .search import SearchBot

__all__ = [
    "ARENA",
    "BOT_NAMES",
    "BOT_SUMMARIES",
    "ArenaGame",
    "Bot",
    "BotError",
    "BotLike",
    "GreedyBot",
    "MonteCarloBot",
    "RandomBot",
    "SearchBot",
    "UnknownBotError",
    "bot_class",
    "bot_name",
    "make_bot",
    "parse_bot_spec",
    "play_bot_move",
    "tournament",
]
