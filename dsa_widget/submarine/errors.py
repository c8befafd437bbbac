"""Submarine's errors: every one is a :class:`~dsa_widget.core.errors.GameError` (a ValueError).

When one is raised, the game that raised it is unchanged.

>>> issubclass(IllegalActionError, ValueError), IllegalActionError("no", ("pass",)).legal
(True, ('pass',))
"""

from __future__ import annotations

from ..core import errors as _core
from ..core.errors import GameError

__all__ = ["IllegalActionError", "RecordError", "SetupError", "SubmarineError"]


class SubmarineError(GameError):
    """Base of Submarine's errors."""


class SetupError(SubmarineError, _core.SetupError):
    """A bad setup or option; ``field`` names what is wrong."""


class IllegalActionError(SubmarineError, _core.IllegalActionError):
    """An action that is not legal now; ``legal`` lists what is."""

    def __init__(self, message: str, legal: tuple[str, ...] = ()) -> None:
        super().__init__(message, legal=legal)


class RecordError(SubmarineError, _core.RecordError):
    """A record that is not a valid Submarine record: ``key`` and ``turn`` (from 1) say where."""
