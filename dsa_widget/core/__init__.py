"""The shared core every game stands on.

============== ==============================================================
``protocol``   :class:`GameState` / :class:`GameView`: what every game offers
``errors``     :class:`GameError`, the base of every input error (a ValueError)
``timeline``   undo, redo, seek and branch, for any game
``bots``       the bot protocol ``bot(view, legal) -> action`` and the runners
``tournament`` seeded tournaments with Wilson intervals
``records``    reading record documents and dispatching on their ``format``
``stats``      Wilson intervals; ``progress``: one progress bar
============== ==============================================================
"""

from __future__ import annotations

from .errors import GameError
from .protocol import CHANCE, TERMINAL, GameState, GameView

__all__ = ["CHANCE", "TERMINAL", "GameError", "GameState", "GameView"]
