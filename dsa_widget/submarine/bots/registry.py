"""Submarine's bots by name: :func:`make_bot`, :func:`parse_bot_spec` (what
:func:`dsa_widget.core.bots.resolve_bot` calls through ``SubmarineGame.BOTS``) and :data:`BOT_NAMES`.

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

from typing import Any

from ...core.bots import Bot, UnknownBotError

__all__ = ["BOT_NAMES", "BOT_SUMMARIES", "bot_class", "make_bot", "parse_bot_spec"]

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


def bot_class(name: str) -> type[Bot]:
    """The class behind a bot name (raises :class:`UnknownBotError`)."""
    classes = _classes()
    if not isinstance(name, str) or name not in classes:
        raise UnknownBotError(f"unknown bot {name!r}; available: {', '.join(BOT_NAMES)}", BOT_NAMES)
    return classes[name]


def make_bot(name: str, seed: int | None = None, **knobs: Any) -> Bot:
    """A new built-in bot by name, seeded, with optional knobs."""
    return bot_class(name)(seed=seed, **knobs)


def parse_bot_spec(spec: str, seed: int | None = None) -> Bot:
    """A bot from a spec ``name`` or ``name:knob=value,knob=value``."""
    name, _, rest = spec.partition(":")
    knobs: dict[str, Any] = {}
    for part in filter(None, rest.split(",")):
        key, eq, value = part.partition("=")
        if not eq:
            raise UnknownBotError(f"bot spec {spec!r}: expected knob=value, got {part!r}", BOT_NAMES)
        knobs[key.strip()] = _parse_value(value.strip())
    return make_bot(name.strip(), seed=seed, **knobs)


def _parse_value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if text.lower() == "none":
        return None
    return text
