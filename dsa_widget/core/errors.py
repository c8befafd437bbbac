"""The error every game's errors derive from: bad input is a :class:`ValueError`."""

from __future__ import annotations

__all__ = ["GameError"]


class GameError(ValueError):
    """Base of every error the package raises for bad input or an illegal action.

    It is a :class:`ValueError`, so ``except ValueError`` catches all of them.  When it is
    raised, the object that raised it is unchanged.
    """
