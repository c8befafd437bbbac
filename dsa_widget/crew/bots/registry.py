"""The Crew's bots by name: :func:`make_bot`, :func:`parse_bot_spec` (what
:func:`dsa_widget.core.bots.resolve_bot` finds through the game registry) and :data:`BOT_NAMES`.

>>> make_bot("search", seed=1, samples=8)
SearchBot(seed=1, samples=8)
>>> parse_bot_spec("crewmate:communicate=false")
CrewmateBot(seed=None, communicate=False)
>>> make_bot("nobody")
Traceback (most recent call last):
...
dsa_widget.core.bots.UnknownBotError: unknown bot 'nobody'; available: random, crewmate, search, planner
"""

from __future__ import annotations

from ...core.bots import BotRegistry
from .crewmate import CrewmateBot, RandomBot
from .planner import PlannerBot
from .search import SearchBot

__all__ = ["BOTS", "BOT_NAMES", "BOT_SUMMARIES", "bot_class", "make_bot", "parse_bot_spec"]

#: this game's bots, as the game registry names them, simplest first
BOTS = BotRegistry.of(RandomBot, CrewmateBot, SearchBot, PlannerBot)
#: the names :func:`make_bot` knows, simplest first, and one line per bot, for menus
BOT_NAMES, BOT_SUMMARIES = BOTS.names, BOTS.summaries
bot_class, make_bot, parse_bot_spec = BOTS.bot_class, BOTS.make_bot, BOTS.parse_bot_spec
