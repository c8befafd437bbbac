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

__all__ = ["BOTS", "BOT_NAMES", "BOT_SUMMARIES", "bot_class", "make_bot", "parse_bot_spec"]


def _classes() -> dict[str, type[Bot]]:
    from .heuristics import AirAwareBot, BaselineBot, DepthBot, PlannerBot, RandomBot, TakeNBot
    from .search import ISMCTSBot, MonteCarloBot

    return {
        c.name: c
        for c in (
            RandomBot,
            TakeNBot,
            DepthBot,
            AirAwareBot,
            BaselineBot,
            PlannerBot,
            MonteCarloBot,
            ISMCTSBot,
        )
    }


#: The names :func:`make_bot` knows, simplest first.
BOT_NAMES: tuple[str, ...] = ("random", "take_n", "depth", "air", "baseline", "planner", "mc", "ismcts")


#: One line per bot, for menus: what it does, in a player's words.
BOT_SUMMARIES: dict[str, str] = {
    "random": "picks any legal choice at random: a yardstick",
    "take_n": "takes the first few treasures on the way down, then heads home",
    "depth": "dives to a set depth, takes one treasure there, heads home",
    "air": "keeps an eye on the air and turns back while it can still get home",
    "baseline": "the published C++ study's baseline: fixed rules for taking and turning back",
    "planner": "the baseline's plan with the air counted properly (the best rule of thumb here)",
    "mc": "Monte Carlo: plays each choice out many times from what it may know",
    "ismcts": "tree search over what it may know (information-set MCTS)",
}


#: this game's bots, as the game registry names them
BOTS = BotRegistry(BOT_NAMES, _classes, BOT_SUMMARIES)
BOTS.aliases["heuristic"] = "baseline"  # its name before version 0.3


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
