"""Pig's part of the OpenSpiel game ``python_pig`` (the generic game is
:mod:`dsa_widget.adapters.openspiel`; this module imports no OpenSpiel).

Parameters: ``players`` (2..6), ``goal`` and ``max_turns`` (default 1000: OpenSpiel needs a
bound on a game's length, and a game of busts could go on for ever; at the bound the highest
scores share the win).  There is no hidden deal; chance outcome ``i`` is the face ``i + 1``.
A turn throws at most ``goal // 2 + 1`` faces above 1 (each adds at least 2, and rolling stops at
the goal), then a 1 or a hold: at most ``2 * (goal // 2 + 2)`` actions, chance included.

>>> cfg = RULES.configure({"players": 3, "goal": 20})
>>> cfg.deal_length, cfg.num_actions, cfg.max_chance_outcomes, cfg.max_game_length
(0, 2, 6, 24000)
>>> cfg.observation_string(cfg.start(()).view(0))
'goal 20 | 0 0 0 | seat 0 turn 0'
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

from ..adapters.spiel_defaults import OpenGameConfig
from ..core.encoding import Encoding
from ..core.protocol import GameState
from .encoding import PigEncoding
from .rules import PigGame
from .view import PigView

__all__ = ["RULES", "PigConfig", "PigRules"]


class PigRules:
    """The names and parameters OpenSpiel's registry needs (the adapter adds ``returns``)."""

    short_name = "python_pig"
    long_name = "Python Pig"
    min_players, max_players = 2, 6
    parameters: Mapping[str, int | float | bool | str] = {"players": 2, "goal": 100, "max_turns": 1000}

    def configure(self, params: Mapping[str, Any]) -> PigConfig:
        """The game for these parameters; a bad one raises :class:`~dsa_widget.pig.rules.SetupError`."""
        unknown = sorted(k for k in params if k not in self.parameters)
        if unknown:
            raise ValueError(f"unknown parameter {unknown[0]!r}; they are {', '.join(self.parameters)}")
        return _configure(tuple(sorted({**self.parameters, **params}.items())))

    def params_of(self, game: PigGame | PigView) -> dict[str, Any]:
        """The parameters of a game's (or a view's) setup; no ``max_turns``: 1000."""
        v = game.view(None) if isinstance(game, PigGame) else game
        return {"players": len(v.players), "goal": v.goal, "max_turns": v.max_turns or 1000}

    def __reduce__(self) -> str:
        return "RULES"


@functools.lru_cache(maxsize=64)
def _configure(items: tuple[tuple[str, Any], ...]) -> PigConfig:
    return PigConfig(dict(items))


class PigConfig(OpenGameConfig):
    """Pig for one parameter set: what the generic adapter asks (shared and immutable); no deal,
    nothing hidden (:class:`~dsa_widget.adapters.spiel_defaults.OpenGameConfig`)."""

    max_chance_outcomes = 6
    min_score = 0.0

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.params = dict(params)
        start = self.start(())  # checks every parameter
        self.placeholder: GameState = start
        self.encoding: Encoding = PigEncoding()
        self.num_players, self.num_actions = len(start.players), 2
        self.max_score = float(start.goal + 5)
        self.max_game_length = int(params["max_turns"]) * 2 * (start.goal // 2 + 2)

    def __reduce__(self) -> Any:
        return (RULES.configure, (self.params,))

    def start(self, dealt: Sequence[int]) -> PigGame:
        p = self.params
        return PigGame(p["players"], goal=p["goal"], max_turns=p["max_turns"], seed=0)

    def observation_string(self, view: PigView) -> str:
        """The goal, the scores by seat, then the seat whose turn it is and its turn total."""
        end = (
            f"won by {list(view.winners)}" if view.winners else f"seat {view.current} turn {view.turn_total}"
        )
        scores = " ".join(map(str, view.scores))
        return f"goal {view.goal} | {scores} | {end}{' rolling' if view.rolling else ''}"

    def chance_string(self, outcome: Any) -> str:
        return f"roll {outcome}"


#: Pig's OpenSpiel rules (the game registry names them)
RULES = PigRules()
