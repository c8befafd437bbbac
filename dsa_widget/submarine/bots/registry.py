"""Submarine's bots by name: :func:`make_bot`, :func:`parse_bot_spec` (what
:func:`dsa_widget.core.bots.resolve_bot` finds through the game registry) and :data:`BOT_NAMES`.

>>> make_bot("mc", seed=1, samples=4)
MonteCarloBot(seed=1, samples=4)
>>> parse_bot_spec("greedy:joker_cost=0.5")
GreedyBot(seed=None, joker_cost=0.5)
>>> make_bot("nobody")
Traceback (most recent call last):
...
dsa_widget.core.bots.UnknownBotError: unknown bot 'nobody'; available: random, greedy, mc
"""

from __future__ import annotations

from ...core.bots import Bot, BotRegistry

__all__ = ["BOTS", "BOT_NAMES", "BOT_SUMMARIES", "bot_class", "make_bot", "parse_bot_spec"]

#: The names :func:`make_bot` knows, simplest first.
BOT_NAMES: tuple[str, ...] = ("random", "greedy", "mc")

#: One line per bot, for menus.
BOT_SUMMARIES: dict[str, str] = {
    "random": "any legal action at random: a yardstick",
    "greedy": "collects the new treasures its hand can pay for, avoids paying opponents where it can",
    "mc": "Monte Carlo: tries each action on deals drawn from what it may know, keeps the best margin",
}


def _classes() -> dict[str, type[Bot]]:
    from .basic import GreedyBot, RandomBot
    from .mc import MonteCarloBot

    return {c.name: c for c in (RandomBot, GreedyBot, MonteCarloBot)}


#: this game's bots, as the game registry names them
BOTS = BotRegistry(BOT_NAMES, _classes, BOT_SUMMARIES)
bot_class = BOTS.bot_class
make_bot = BOTS.make_bot
parse_bot_spec = BOTS.parse_bot_spec
