"""*Pig*, the dice game Neller & Presser solved (2004): the package's fourth game, written against
the platform only.  Rules in :mod:`~dsa_widget.pig.rules`, records in :mod:`~dsa_widget.pig.record`,
bots (``random``, ``hold_at_20``, ``optimal``) in :mod:`~dsa_widget.pig.bots`, the solved game in
:mod:`~dsa_widget.pig.analysis`, the adapters' numbers in :mod:`~dsa_widget.pig.encoding` and
:mod:`~dsa_widget.pig.openspiel`.

>>> from dsa_widget.pig import Game
>>> g = Game(["Ann", "Bob"], goal=50, seed=4)
>>> g.apply("roll"); g.sample_chance(); g
Pig to 50: Ann 0, Bob 0; Ann has 2 on the turn
"""

from __future__ import annotations

from typing import Any

from .rules import IllegalActionError, PigGame, RecordError, SetupError
from .view import PigView

Game = PigGame
View = PigView

__all__ = ["Game", "IllegalActionError", "Pig", "PigGame", "PigView", "RecordError", "SetupError", "View"]


def __getattr__(name: str) -> Any:
    # the widget is loaded on first use: the rules never import ipywidgets/anywidget
    if name == "Pig":
        from .widget import Pig

        return Pig
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
