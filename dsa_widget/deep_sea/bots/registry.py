"""Bots by name: :func:`make_bot` and :data:`BOT_NAMES`.

>>> make_bot("take_n", seed=1, n=3)
TakeNBot(seed=1, n=3)
>>> make_bot("nobody")
Traceback (most recent call last):
...
dsa_widget.core.bots.UnknownBotError: unknown bot 'nobody'; available: random, take_n, depth, air, baseline, planner, mc, ismcts
"""

from __future__ import annotations

from typing import Any

from ...core.bots import Bot, BotRegistry
from .heuristics import AirAwareBot, BaselineBot, DepthBot, PlannerBot, RandomBot, TakeNBot
from .search import ISMCTSBot, MonteCarloBot

__all__ = ["BOTS", "BOT_NAMES", "BOT_SUMMARIES", "bot_class", "make_bot", "parse_bot_spec"]

#: this game's bots, as the game registry names them, simplest first
BOTS = BotRegistry.of(
    RandomBot, TakeNBot, DepthBot, AirAwareBot, BaselineBot, PlannerBot, MonteCarloBot, ISMCTSBot
)
BOTS.aliases["heuristic"] = "baseline"  # its name before version 0.3
#: the names :func:`make_bot` knows, simplest first, and one line per bot, for menus
BOT_NAMES, BOT_SUMMARIES = BOTS.names, BOTS.summaries


def bot_class(name: str) -> type[Bot]:
    """The class behind a bot name (raises :class:`UnknownBotError`)."""
    return BOTS.bot_class(name)


def make_bot(name: str, seed: int | None = None, **knobs: Any) -> Bot:
    """A new built-in bot by name, seeded, with optional knobs.

    >>> bot = make_bot("mc", seed=7, playouts=8)
    >>> bot.name, bot.playouts
    ('mc', 8)
    >>> make_bot("air", speed=3)
    Traceback (most recent call last):
    ...
    dsa_widget.core.bots.UnknownBotError: bot 'air' has no knob 'speed'; its knobs are margin=2.0, carry=3, min_level=2
    """
    return BOTS.make_bot(name, seed=seed, **knobs)


def parse_bot_spec(spec: str, seed: int | None = None) -> Bot:
    """A bot from a command-line spec ``name`` or ``name:knob=value,knob=value``.

    >>> parse_bot_spec("take_n:n=3,min_level=2")
    TakeNBot(seed=None, n=3, min_level=2)
    """
    return BOTS.parse_bot_spec(spec, seed=seed)
