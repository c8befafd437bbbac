"""Exceptions raised by the rules engine.

Every error a user can cause is a :class:`DeepSeaError`, itself a
:class:`ValueError`, so ``except ValueError`` catches them all.  When one is
raised nothing has changed: a bad setup creates no game, an illegal choice
leaves the game exactly as it was, a bad record loads nothing.
"""

from __future__ import annotations

import warnings
from typing import Any

from ..core import errors as _core
from ..core.errors import GameError

__all__ = ["DeepSeaError", "SetupError", "IllegalActionError", "RecordError"]


class DeepSeaError(GameError):
    """Base class of every error the engine raises on bad input (a :class:`ValueError`)."""


class SetupError(DeepSeaError, _core.SetupError):
    """A setup value is invalid.  ``field`` names the offending setup key.

    >>> from dsa_widget import Game
    >>> Game(players=7)
    Traceback (most recent call last):
    ...
    dsa_widget.deep_sea.errors.SetupError: setup key 'players': 7 players given; the game takes 2 to 6
    """

    def __init__(self, field: str, message: str) -> None:  # field first: this game's older order
        super().__init__(f"setup key {field!r}: {message}", field)
        self.reason = message

    def __reduce__(self) -> tuple[Any, ...]:
        # its arguments are not its message: a tournament's worker sends it back pickled
        return (type(self), (self.field, self.reason))


class IllegalActionError(DeepSeaError, _core.IllegalActionError):
    """A choice that the rules do not allow at this moment (every game's illegal action is a
    :class:`dsa_widget.core.errors.IllegalActionError`).

    ``choice`` is what was asked for and ``legal`` the choices that were
    legal; the game is unchanged.
    """

    def __init__(self, message: str, choice: object = None, legal: tuple[str, ...] = ()) -> None:
        self.choice = choice
        super().__init__(message, legal=legal)


class RecordError(DeepSeaError, _core.RecordError):
    """A game record is malformed or breaks a rule.

    ``turn`` is the 1-based turn number at fault (``None`` for the setup or
    the document itself) and ``key`` the setup key at fault, if any.
    """

    def __init__(self, message: str, *, turn: int | None = None, key: str | None = None) -> None:
        super().__init__(message, key, turn)


def __getattr__(name: str) -> Any:
    if name == "IllegalChoiceError":
        return deprecated_alias(name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def deprecated_alias(name: str) -> type[IllegalActionError]:
    """``IllegalChoiceError``, this game's old name of :class:`IllegalActionError` (kept, with
    a :class:`DeprecationWarning`, for one release)."""
    warnings.warn(
        f"{name} is now IllegalActionError, the name every game uses; {name} goes in the next release",
        DeprecationWarning,
        stacklevel=3,
    )
    return IllegalActionError
