"""The error every game's errors derive from: bad input is a :class:`ValueError`."""

from __future__ import annotations

from typing import TypeGuard

__all__ = [
    "GameError",
    "IllegalActionError",
    "RecordError",
    "SetupError",
    "is_int",
    "is_number",
    "short_repr",
]


class GameError(ValueError):
    """Base of every error the package raises for bad input or an illegal action.

    It is a :class:`ValueError`, so ``except ValueError`` catches all of them.  When it is
    raised, the object that raised it is unchanged.
    """


class IllegalActionError(GameError):
    """An action the rules do not allow now, in any game (each game's ``IllegalActionError``
    derives from it); ``legal`` lists what was legal.  The game is unchanged.

    >>> from dsa_widget.crew import CrewGame
    >>> try:
    ...     CrewGame(3, seed=1, target=1).apply("fly away")
    ... except IllegalActionError as e:
    ...     print(type(e).__module__)
    dsa_widget.crew.errors
    """

    def __init__(self, message: str, legal: tuple[str, ...] = ()) -> None:
        super().__init__(message)
        self.legal = legal


class SetupError(GameError):
    """A bad setup, mission or option, in any game (each game's ``SetupError`` derives from it);
    ``field`` names the setup key at fault when one is.

    >>> from dsa_widget.submarine import SubmarineGame
    >>> try:
    ...     SubmarineGame(9)
    ... except SetupError as e:
    ...     print(type(e).__module__, e.field)
    dsa_widget.submarine.errors players
    """

    def __init__(self, message: str, field: str | None = None) -> None:
        super().__init__(message)
        self.field = field


class RecordError(GameError):
    """A record that is not a valid record of its game, in any game (each game's ``RecordError``
    derives from it): ``key`` names the setup key at fault and ``turn`` the turn (from 1), when
    the fault has one.
    """

    def __init__(self, message: str, key: str | None = None, turn: int | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.turn = turn


def is_int(x: object) -> TypeGuard[int]:
    """Whether ``x`` is a whole number as input checks mean it: an ``int`` but not a ``bool``
    (``True`` is an ``int`` to Python, never a count or a seat to a game).

    >>> is_int(3), is_int(True), is_int(3.0)
    (True, False, False)
    """
    return isinstance(x, int) and not isinstance(x, bool)


def is_number(x: object) -> TypeGuard[int | float]:
    """Whether ``x`` is a number as input checks mean it: an ``int`` (not a ``bool``) or a
    ``float`` (a weight, a share, seconds).

    >>> is_number(3), is_number(0.5), is_number(True), is_number("1")
    (True, True, False, False)
    """
    return is_int(x) or isinstance(x, float)


def short_repr(x: object, limit: int = 60) -> str:
    """``repr(x)`` cut to about ``limit`` characters, for error messages that must not grow with
    the input (nor fail on it: an int too long to print is named by its type).

    >>> short_repr("x" * 1000)[:12], len(short_repr("x" * 1000)) <= 64
    ("'xxxxxxxxxxx", True)
    >>> short_repr(10**5000)
    '<a long int>'
    """
    try:
        if isinstance(x, (str, bytes)) and len(x) > limit:
            return repr(x[:limit]) + "…"
        r = repr(x)
    except ValueError:
        return f"<a long {type(x).__name__}>"
    return r if len(r) <= limit else r[:limit] + "…"
