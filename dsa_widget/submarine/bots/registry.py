"""Submarine's bots by name: :func:`make_bot`, :func:`parse_bot_spec` (what
:func:`dsa_widget.core.bots.resolve_bot` finds through the game registry) and :data:`BOT_NAMES`.

>>> make_bot("mc", seed=1, samples=4)
MonteCarloBot(seed=1, samples=4)
>>> parse_bot_spec("greedy:joker_cost=0.5")
GreedyBot(seed=None, joker_cost=0.5)
>>> make_bot("nobody")
Traceback (most recent call last):
...
dsa_widget.core.bots.UnknownBotError: unknown bot 'nobody'; available: random, greedy, mc, search
"""

from __future__ import annotations

from ...core.bots import BotRegistry
from .basic import GreedyBot, RandomBot
from .mc import MonteCarloBot
from .search import SearchBot

__all__ = ["BOTS", "BOT_NAMES", "BOT_SUMMARIES", "bot_class", "make_bot", "parse_bot_spec"]

#: this game's bots, as the game registry names them, simplest first
BOTS = BotRegistry.of(RandomBot, GreedyBot, MonteCarloBot, SearchBot)
#: the names :func:`make_bot` knows, simplest first, and one line per bot, for menus
BOT_NAMES, BOT_SUMMARIES = BOTS.names, BOTS.summaries
bot_class, make_bot, parse_bot_spec = BOTS.bot_class, BOTS.make_bot, BOTS.parse_bot_spec
