"""Fixed-size numbers for a game: the action numbering and the observation layout that
learning libraries and OpenSpiel need.

A game's :class:`Encoding` is built for one setup (the number of seats and the size of the
board fix every size).  It numbers every action the game can ever offer a seat, stably
(``index`` and ``action`` are inverse), and turns a seat's
:class:`~dsa_widget.core.protocol.GameView` into a flat list of floats whose layout it
documents field by field.  The encoding reads views only, so an observation can never hold
a value that seat may not know.

The game registry (:mod:`dsa_widget.core.registry`) names each game's encoding;
:func:`encoding_of` builds it for a state:

>>> from dsa_widget import Game
>>> enc = encoding_of(Game(players=2, seed=1))
>>> enc.num_actions, enc.action(0), enc.index("take")
(69, 'back', 3)
>>> len(enc.observe(Game(players=2, seed=1).view(0))) == enc.observation_size
True

An encoding may also give what only its game needs; the PettingZoo adapter asks for each with
``getattr`` and does without: ``agent_seats`` (the seats that are agents, in order, when not
every seat is: The Crew's dummy seat is none), ``reward_modes`` and ``final_rewards(game,
mode)`` (a game's own rewards, the first mode the default), ``full_state(game)`` and
``state_size`` (the centralised training state), ``render_text(game)`` (the ``ansi`` picture),
``render_rgb(game)`` (the ``rgb_array`` picture: an ``H x W x 3`` ``uint8`` array of what an
onlooker may see, the same size all game long, drawn with :mod:`dsa_widget.core.raster`),
``render_svg(game)`` (an ``svg`` picture) and ``tracker`` (observations kept up to date).
:func:`render_modes` says which pictures an encoding draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from .errors import GameError

__all__ = [
    "Encoding",
    "EncodingError",
    "Field",
    "encoding_of",
    "legal_action",
    "observation_bounds",
    "render_modes",
]


class EncodingError(GameError):
    """An action number or an action this encoding does not know."""


@dataclass(frozen=True)
class Field:
    """One named run of an observation: ``size`` floats from ``offset``, and what they mean."""

    name: str
    offset: int
    size: int
    meaning: str


@runtime_checkable
class Encoding(Protocol):
    """A game's numbers for one setup."""

    @property
    def num_actions(self) -> int:
        """How many action numbers there are (``0 .. num_actions - 1``)."""

    def action(self, index: int) -> Any:
        """The action with this number (raises :class:`EncodingError` outside the range).

        A game whose action strings name something a fixed numbering leaves out (Submarine's
        collections name their tile's space) gives a label instead; :func:`legal_action` finds
        the action itself among a state's legal ones."""

    def index(self, action: Any) -> int:
        """The number of an action (raises :class:`EncodingError` for an unknown one); two
        legal actions of one state never share a number."""

    @property
    def observation_size(self) -> int:
        """The length of every observation."""

    @property
    def layout(self) -> Sequence[Field]:
        """The observation's fields, in order, covering it exactly."""

    def observe(self, view: Any) -> list[float]:
        """The observation of a seat's view (its knowledge only)."""

    def mask(self, legal: Sequence[Any]) -> list[int]:
        """``1`` at the number of every legal action, ``0`` elsewhere."""


def encoding_of(state: Any) -> Encoding:
    """The :class:`Encoding` of a state's game for the state's setup (the game registry names
    the encoding class, which takes the state)."""
    from .registry import game_of

    spec = game_of(state)
    make = spec.encoding_class()
    if make is None:
        raise TypeError(f"{spec.title} has no action numbering for the adapters")
    enc = make(state)
    if not isinstance(enc, Encoding):  # pragma: no cover - a game's own wiring
        raise TypeError(f"{spec.encoding} does not build an Encoding")
    return enc


def legal_action(enc: Encoding, number: int, legal: Sequence[Any]) -> Any:
    """The action of ``legal`` whose number is ``number``, or ``None`` if none is: how the
    adapters turn a number into an action (``enc.action(number)`` where that is legal, else a
    search of ``legal``, for a numbering whose :meth:`Encoding.action` gives labels).

    >>> from dsa_widget.submarine.encoding import SubmarineEncoding
    >>> legal_action(SubmarineEncoding(), 369, ("end", "collect 3.2 T03K2 card"))
    'collect 3.2 T03K2 card'
    """
    a = enc.action(number)
    if a in legal:
        return a
    index = enc.index
    return next((x for x in legal if index(x) == number), None)


def observation_bounds(enc: Any) -> tuple[list[float], list[float]]:
    """The declared bounds of every observation feature: ``(low, high)``, two lists of
    ``observation_size`` floats with ``low[i] <= obs[i] <= high[i]`` in every state of the setup
    the encoding was built for (tested over random states of every game and player count).

    An encoding declares them with a ``bounds()`` method (optional in :class:`Encoding`; its
    own docstring says how each bound follows from the setup); raises ``TypeError`` for one
    that declares none.  The observations themselves are never rescaled: learners divide by
    the bounds (``dsa_widget.adapters.learn``, ``normalize=True``).

    >>> from dsa_widget.pig.encoding import PigEncoding
    >>> low, high = observation_bounds(PigEncoding())
    >>> len(high) == PigEncoding.observation_size, min(low), high[:7]
    (True, 0.0, [1.0, 1.0, 1.0, 1.0, 1.0, 1.0, 6.0])
    """
    declare = getattr(enc, "bounds", None)
    if not callable(declare):
        raise TypeError(f"{type(enc).__name__} declares no observation bounds")
    low, high = declare()
    size = enc.observation_size
    low, high = [float(x) for x in low], [float(x) for x in high]
    if len(low) != size or len(high) != size:  # pragma: no cover - a game's own wiring
        raise TypeError(f"{type(enc).__name__}.bounds() is not {size} long")
    return low, high


def render_modes(enc: Any) -> list[str]:
    """The PettingZoo ``render_modes`` an encoding's pictures give: ``"human"`` and ``"ansi"``
    always (text: its ``render_text``, else the game's ``repr``), then ``"rgb_array"`` and
    ``"svg"`` when it has the ``render_rgb`` / ``render_svg`` hook.

    >>> from dsa_widget.pig.encoding import PigEncoding
    >>> from dsa_widget import Game
    >>> render_modes(PigEncoding()), render_modes(encoding_of(Game(players=2, seed=1)))
    (['human', 'ansi', 'rgb_array'], ['human', 'ansi', 'rgb_array', 'svg'])
    """
    hooks = (("rgb_array", "render_rgb"), ("svg", "render_svg"))
    return ["human", "ansi", *(mode for mode, hook in hooks if callable(getattr(enc, hook, None)))]
