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

from ...core.bots import Bot, BotRegistry

__all__ = ["BOTS", "BOT_NAMES", "BOT_SUMMARIES", "bot_class", "make_bot", "parse_bot_spec"]

#: The names :func:`make_bot` knows, simplest first.
BOT_NAMES: tuple[str, ...] = ("random", "crewmate", "search")

#: One line per bot, for menus.
BOT_SUMMARIES: dict[str, str] = {
    "random": "any legal choice at random: a yardstick",
    "crewmate": "rules of thumb: takes tasks its hand suits, plays for everyone's tasks, shows one card",
    "search": "Monte Carlo: tries each card on deals drawn from what it may know, keeps the most successful",
}


def _classes() -> dict[str, type[Bot]]:
    from .crewmate import CrewmateBot, RandomBot
    from .search import SearchBot

    return {c.name: c for c in (RandomBot, CrewmateBot, SearchBot)}


#: this game's bots, as the game registry names them
BOTS = BotRegistry(BOT_NAMES, _classes, BOT_SUMMARIES)
bot_class = BOTS.bot_class
make_bot = BOTS.make_bot
parse_bot_spec = BOTS.parse_bot_spec
