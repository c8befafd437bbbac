"""Bots for *The Crew: Mission Deep Sea* and the tournaments that measure them.

The protocol is the package's: a bot is any callable ``bot(view, legal) -> action`` that gets
its seat's :class:`~dsa_widget.crew.view.CrewView` (never a hidden card) and the legal
actions.  ``CrewGame.BOTS`` names this package, so bot names work wherever the core accepts a
bot (:func:`~dsa_widget.core.bots.resolve_bot`, :func:`~dsa_widget.core.bots.play_bot_move`).

Built-in bots (:data:`BOT_NAMES`): ``random``, ``crewmate`` (rules of thumb), ``search``
(determinized Monte Carlo over deals drawn from its view, card play only) and ``planner``
(tasks and cards tried on drawn deals, weighted by how well the partners' cards fit them).
``solver`` (a module, not a bot) is the double-dummy solver of the teaching mode: it reads
every hand.

>>> from dsa_widget.crew.rules import CrewGame
>>> from dsa_widget.core.bots import play_bot_move, resolve_bot
>>> resolve_bot("crewmate", CrewGame)
CrewmateBot(seed=None)
>>> g = CrewGame(3, seed=2, target=2)
>>> bot = make_bot("crewmate", seed=1)
>>> while not g.is_over:
...     _ = play_bot_move(g, bot)
>>> g.outcome.result in ("success", "failure")
True

Mission success rates with Wilson intervals, per seat count and difficulty target:

>>> t = success_rates({"crewmate": "crewmate"}, seats=(4,), targets=(1,), games=4, seed=1, progress=False)
>>> [(r.bot, r.seats, r.target, r.games) for r in t.rows]
[('crewmate', 4, 1, 4)]
"""

from __future__ import annotations

from ...core.bots import Bot, BotError, BotLike, UnknownBotError, bot_name, play_bot_move
from .arena import SuccessRow, SuccessTable, play_attempt, success_rates
from .crewmate import CrewmateBot, RandomBot, task_fit
from .planner import PlannerBot
from .registry import BOT_NAMES, BOT_SUMMARIES, bot_class, make_bot, parse_bot_spec
from .search import SearchBot

__all__ = [
    "BOT_NAMES",
    "BOT_SUMMARIES",
    "Bot",
    "BotError",
    "BotLike",
    "CrewmateBot",
    "PlannerBot",
    "RandomBot",
    "SearchBot",
    "SuccessRow",
    "SuccessTable",
    "UnknownBotError",
    "bot_class",
    "bot_name",
    "make_bot",
    "parse_bot_spec",
    "play_attempt",
    "play_bot_move",
    "success_rates",
    "task_fit",
]
