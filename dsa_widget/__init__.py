"""Board games in Jupyter: play, study and teach *Deep Sea Adventure*, *The Crew: Mission Deep
Sea*, *Submarine* and *Pig* (``python -m dsa_widget games`` lists them).

Each game is a subpackage that exports the same names: its ``Game``, its ``View``, its
widget class and ``IllegalActionError`` (:mod:`dsa_widget.deep_sea`, :mod:`dsa_widget.crew`,
:mod:`dsa_widget.submarine`, :mod:`dsa_widget.pig`); the game registry
(:mod:`dsa_widget.core.registry`) lists them.  Deep Sea Adventure, the first, is also
importable from the top level.  Its rules live in :mod:`dsa_widget.deep_sea.rules` (no widget
code is imported by them):

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], seed=1)
>>> g.legal_choices()
('roll',)

The widget, ``dsa_widget.DeepSea``, is imported on first use so that the
engine alone never loads ipywidgets.
"""

from __future__ import annotations

from typing import Any

from .deep_sea import (
    BACK,
    CONTINUE,
    DICE_OUTCOMES,
    NONE,
    ROLL,
    TAKE,
    Diver,
    Game,
    drop,
)
from .deep_sea.errors import DeepSeaError, IllegalActionError, RecordError, SetupError
from .deep_sea.events import describe, narrate
from .deep_sea.record import FORMAT, load_record
from .deep_sea.setup import Options, Setup, standard_path
from .deep_sea.view import View

__version__ = "0.1.0"

__all__ = [
    "Game",
    "Setup",
    "Options",
    "View",
    "Diver",
    "standard_path",
    "load_record",
    "FORMAT",
    "DeepSeaError",
    "SetupError",
    "IllegalActionError",
    "RecordError",
    "BACK",
    "CONTINUE",
    "ROLL",
    "NONE",
    "TAKE",
    "drop",
    "DICE_OUTCOMES",
    "describe",
    "narrate",
]


def __getattr__(name: str) -> Any:
    # The widget is loaded lazily: the rules engine never imports ipywidgets/anywidget.
    if name == "DeepSea":
        from .deep_sea.widget import DeepSea

        return DeepSea
    if name == "IllegalChoiceError":
        from .deep_sea.errors import deprecated_alias

        return deprecated_alias(name)
    raise AttributeError(f"module 'dsa_widget' has no attribute {name!r}")
