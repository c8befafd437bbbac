"""The Crew's errors: every one is a :class:`~dsa_widget.core.errors.GameError` (a ValueError).

When one is raised, the game that raised it is unchanged.
"""

from __future__ import annotations

from ..core import errors as _core
from ..core.errors import GameError

__all__ = ["CrewError", "IllegalActionError", "RecordError", "SetupError"]


class CrewError(GameError):
    """Base of The Crew's errors."""


class SetupError(CrewError, _core.SetupError):
    """A bad setup, mission or option; ``field`` names what is wrong."""


class IllegalActionError(CrewError, _core.IllegalActionError):
    """An action that is not legal now (or not this seat's to make); ``legal`` lists what is."""

    def __init__(self, message: str, legal: tuple[str, ...] = ()) -> None:
        super().__init__(message, legal=legal)


class RecordError(CrewError, _core.RecordError):
    """A record that is not a valid record of this game: ``key`` and ``turn`` say where."""
