"""The Crew's bots by name: :func:`make_bot`, :func:`parse_bot_spec` (what
:func:`dsa_widget.core.bots.resolve_bot` calls through ``CrewGame.BOTS``) and :data:`BOT_NAMES`.

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

from typing import Any

from ...core.bots import Bot, BotRegistry

__all__ = ["BOT_NAMES", "BOT_SUMMARIES", "bot_class", "make_bot", "parse_bot_spec"]

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


_REGISTRY = BotRegistry(BOT_NAMES, _classes)


def bot_class(name: str) -> type[Bot]:
    """The class behind a bot name (raises :class:`UnknownBotError`)."""
    return _REGISTRY.bot_class(name)


def make_bot(name: str, seed: int | None = None, **knobs: Any) -> Bot:
    """A new built-in bot by name, seeded, with optional knobs."""
    return _REGISTRY.make_bot(name, seed=seed, **knobs)


def parse_bot_spec(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec ``name`` or ``name:knob=value,knob=value``."""
    return _REGISTRY.parse_bot_spec(spec, seed=seed)
