"""*Submarine* (Leo Colovini, 2004) — the package's third game: bathyscaphes collect treasures
below a sailing mother ship (spec ``../shared/submarine/SUBMARINE.md``).

The rules live in :mod:`dsa_widget.submarine.rules` (API and action table in its docstring),
the record format in :mod:`dsa_widget.submarine.record` (``docs/SUBMARINE_RECORD.md``).

>>> from dsa_widget.submarine import SubmarineGame
>>> g = SubmarineGame(4, seed=1)
>>> g.phase, len(g.legal_actions()), g.options["bathyscaphes_per_player"]["4"]
('place', 6, 4)
"""

from __future__ import annotations

from typing import Any

from . import odds
from .errors import IllegalActionError, RecordError, SetupError, SubmarineError
from .options import DEFAULTS, resolve_options
from .rules import COLOURS, SubmarineGame
from .view import SubmarineView

#: the names every game's package exports: its ``Game``, its ``View`` (and its widget class)
Game = SubmarineGame
View = SubmarineView


def __getattr__(name: str) -> Any:
    # the widget is loaded on first use: the rules never import ipywidgets/anywidget
    if name == "Submarine":
        from .widget import Submarine

        return Submarine
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "COLOURS",
    "DEFAULTS",
    "Game",
    "IllegalActionError",
    "RecordError",
    "SetupError",
    "Submarine",
    "SubmarineError",
    "SubmarineGame",
    "SubmarineView",
    "View",
    "odds",
    "resolve_options",
]
