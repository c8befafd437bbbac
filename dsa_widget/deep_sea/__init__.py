"""Deep Sea Adventure: the rules, per-seat views, records, bots, analysis and the widget.

Everything of this game lives here; the shared machinery (the game protocol,
timelines, tournaments, records' dispatch) lives in :mod:`dsa_widget.core`.

============================ =====================================================
``rules``                    :class:`Game`, the single source of truth (no widget code)
``setup``, ``view``          setups and rule options; what one seat may know
``record``, ``events``       records (``docs/RECORD.md``) and the event log
``bots``, ``analysis``       bots; exact probabilities, estimates, the solo policy
``state``, ``frames``        the JSON the browser draws from (live state, history)
``widget``, ``render``       the anywidget bridge; the static SVG picture
============================ =====================================================
"""

from __future__ import annotations

from typing import Any

from .errors import DeepSeaError, IllegalActionError, RecordError, SetupError
from .events import describe, narrate
from .record import FORMAT, load_record
from .rules import BACK, CONTINUE, DICE_OUTCOMES, NONE, ROLL, TAKE, Diver, Game, drop
from .setup import Options, Setup, standard_path
from .view import View

__all__ = [
    "BACK",
    "CONTINUE",
    "DICE_OUTCOMES",
    "FORMAT",
    "NONE",
    "ROLL",
    "TAKE",
    "DeepSeaError",
    "Diver",
    "Game",
    "DeepSea",
    "IllegalActionError",
    "Options",
    "RecordError",
    "Setup",
    "SetupError",
    "View",
    "describe",
    "drop",
    "load_record",
    "narrate",
    "standard_path",
]


def __getattr__(name: str) -> Any:
    # the widget is loaded on first use: the rules never import ipywidgets/anywidget
    if name == "DeepSea":
        from .widget import DeepSea

        return DeepSea
    if name == "IllegalChoiceError":
        from .errors import deprecated_alias

        return deprecated_alias(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
