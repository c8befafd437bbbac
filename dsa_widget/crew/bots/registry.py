"""The Crew's bots by name: :func:`make_bot`, :func:`parse_bot_spec` (what
:func:`dsa_widget.core.bots.resolve_bot` finds through the game registry) and :data:`BOT_NAMES`.

>>> make_bot("search", seed=1, samples=8)
SearchBot(seed=1, samples=8)
>>> parse_bot_spec("crewmate:communicate=false")
CrewmateBot(seed=None, communicate=False)
>>> make_bot("nobody")
Traceback (most recent call last):
...
dsa_widget.core.bots.UnknownBotError: unknown bot 'nobody'; available: random, crewmate, search
"""

from __future__ import annotations

from ...core.bots import BotRegistry

__all__ = ["BOTS", "BOT_NAMES", "BOT_SUMMARIES", "bot_class", "make_bot", "parse_bot_spec"]

#: this game's bots, as the game registry names them, simplest first: each one's class and its
#: one line for menus
BOTS = BotRegistry.of(
    {
        "random": ("dsa_widget.crew.bots.crewmate:RandomBot", "any legal choice at random: a yardstick"),
        "crewmate": (
            "dsa_widget.crew.bots.crewmate:CrewmateBot",
            "rules of thumb: takes tasks its hand suits, plays for everyone's tasks, shows one card",
        ),
        "search": (
            "dsa_widget.crew.bots.search:SearchBot",
            "Monte Carlo: tries each card on deals drawn from what it may know, keeps the most successful",
        ),
    }
)
#: the names :func:`make_bot` knows, simplest first, and one line per bot, for menus
BOT_NAMES, BOT_SUMMARIES = BOTS.names, BOTS.summaries
bot_class, make_bot, parse_bot_spec = BOTS.bot_class, BOTS.make_bot, BOTS.parse_bot_spec
