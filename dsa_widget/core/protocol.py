"""The game protocol: what every game of the package offers to everything that is not its rules.

Bots, :class:`~dsa_widget.core.timeline.Timeline`, tournaments, estimates,
the record CLI and the widget bridge are written against :class:`GameState`
and :class:`GameView`, never against one game's internals.  The design
follows OpenSpiel's state API in spirit:

* a state says who acts next (:attr:`GameState.to_move`): a seat ``>= 0``,
  :data:`CHANCE` (the next thing is a random outcome, e.g. dice) or
  :data:`TERMINAL`;
* at a seat's decision, :meth:`GameState.legal_actions` lists the actions and
  :meth:`GameState.apply` applies one, checked (an illegal action raises a
  :class:`~dsa_widget.core.errors.GameError` and changes nothing), while
  :meth:`GameState.apply_unchecked` is the fast path for playouts;
* at a chance node, :meth:`GameState.chance_outcomes` gives every outcome
  with its exact probability, :meth:`GameState.apply_chance` applies one
  chosen outcome (what-if, teaching, replays) and
  :meth:`GameState.sample_chance` draws one from the state's own generator;
* :meth:`GameState.view` is everything one seat may know, and
  :meth:`GameView.sample` draws a full state consistent with a view
  (determinization), so a bot or an estimate never needs the hidden truth;
* :meth:`GameState.clone`, :meth:`GameState.to_record` and the game's
  ``from_record`` class method make states cheap to branch and easy to keep;
* :meth:`GameState.random_playout` plays a state to the end with random legal actions (chance
  by its exact odds), from any state, and can write down what it played: :func:`play_trace`
  replays that trace, checked, from a copy taken before.  :func:`random_playout` is the plain
  way every game may use; a game with a faster loop of its own (Submarine) uses that instead.

Every game of the game registry (:mod:`dsa_widget.core.registry`) satisfies these protocols
under ``mypy --strict`` (its registration calls :func:`speaks_the_protocol`), and the shared
contract suites (``tests/contract/``) run on each.  Code outside a game's folder uses the
members declared here and nothing else of a state.

Deep Sea Adventure's :class:`~dsa_widget.deep_sea.Game` implements it:

>>> from fractions import Fraction
>>> from dsa_widget import Game
>>> g = Game(players=2, seed=4)
>>> isinstance(g, GameState), g.to_move == CHANCE
(True, True)
>>> sum(p for _, p in g.chance_outcomes()) == Fraction(1)
True
>>> g.apply_chance((1, 2)); g.to_move, g.legal_actions()
(0, ('none', 'take'))
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Protocol, TypeVar, runtime_checkable

__all__ = [
    "CHANCE",
    "TERMINAL",
    "GameState",
    "GameView",
    "S",
    "draw_chance",
    "play_trace",
    "random_playout",
    "speaks_the_protocol",
]

#: ``to_move`` when the next thing to happen is a chance outcome (dice, a deal)
CHANCE = -1
#: ``to_move`` once the game is over
TERMINAL = -4


@runtime_checkable
class GameView(Protocol):
    """What one seat may know at one moment (no hidden value, ever)."""

    @property
    def seat(self) -> int | None:
        """The seat whose knowledge this is (``None``: a spectator's, public knowledge only)."""

    @property
    def legal(self) -> tuple[Any, ...]:
        """The actions legal now (empty when it is not a seat's decision)."""

    def sample(self, rng: random.Random) -> GameState:
        """A full state consistent with this view, drawn with ``rng`` only."""

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data (two views are the same knowledge when these are equal)."""


@runtime_checkable
class GameState(Protocol):
    """One state of one game: the single source of truth for its rules."""

    #: the word a chance step is reported with when a runner plays it (``"roll"``)
    CHANCE_ACTION: ClassVar[str]

    @property
    def players(self) -> tuple[str, ...]:
        """The players' names, by seat."""

    @property
    def to_move(self) -> int:
        """A seat ``>= 0``, :data:`CHANCE` or :data:`TERMINAL`."""

    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is, chance steps of that turn included (``None`` once over).
        At a seat's decision it is :attr:`to_move`."""

    @property
    def is_over(self) -> bool: ...

    @property
    def turn_number(self) -> int:
        """Turns completed so far (a record of that many turns replays to the state at the
        turn boundary)."""

    @property
    def at_turn_boundary(self) -> bool:
        """True between two turns (or at the end): the state a record of
        :attr:`turn_number` turns replays to."""

    def legal_actions(self) -> tuple[Any, ...]:
        """The actions the seat to move may choose (empty at chance nodes and at the end)."""

    def apply(self, action: Any) -> None:
        """Apply one legal action, checked: an illegal one raises and changes nothing."""

    def apply_unchecked(self, action: Any) -> None:
        """Apply an action known to be legal (playouts): no check, no explanation."""

    def chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]:
        """At a chance node, every outcome with its exact probability (they sum to 1)."""

    def apply_chance(self, outcome: Any) -> None:
        """Apply a chosen chance outcome, checked."""

    def sample_chance(self) -> None:
        """Draw a chance outcome from the state's own generator and apply it."""

    def view(self, seat: int) -> GameView:
        """Everything ``seat`` may know now."""

    @property
    def scores(self) -> tuple[int, ...]:
        """Points by seat (true values)."""

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (several on a shared win), else ``()``."""

    def returns(self) -> tuple[float, ...]:
        """The result by seat for learning and search (the final scores)."""

    def clone(self) -> GameState:
        """An independent copy (chance generator included)."""

    def to_record(self) -> Mapping[str, Any]:
        """The game as a JSON-ready record (its ``format`` names the game)."""

    def play_record_turn(self, turn: Any) -> None:
        """Play one turn as a record writes it, checked as a whole."""

    def random_playout(self, rng: random.Random, trace: list[Any] | None = None) -> None:
        """Play on to the end from this state, whatever it is (a turn under way included), with
        random legal actions drawn from ``rng`` only, and chance outcomes at their exact odds;
        ``trace``, if a list, receives every action and chance outcome played, in order, so that
        :func:`play_trace` from a copy taken before reaches the same state.  The plain policy
        (:func:`random_playout`) picks uniformly among the legal actions; a game's own faster
        loop may weigh them otherwise, as its docstring says."""


S = TypeVar("S", bound=GameState)


def draw_chance(outcomes: Sequence[tuple[Any, Fraction]], rng: random.Random) -> Any:
    """One outcome drawn with ``rng`` at exactly its probability (the fractions' common
    denominator, then one whole number below it: no rounding of the odds).

    >>> rng = random.Random(1)
    >>> sorted({draw_chance([("a", Fraction(1, 3)), ("b", Fraction(2, 3))], rng) for _ in range(50)})
    ['a', 'b']
    """
    den = 1
    for _, p in outcomes:
        den = den * p.denominator // math.gcd(den, p.denominator)
    r = rng.randrange(den)
    for outcome, p in outcomes:
        r -= p.numerator * (den // p.denominator)
        if r < 0:
            return outcome
    raise ValueError("the chance outcomes' probabilities do not sum to 1")


def random_playout(state: GameState, rng: random.Random, trace: list[Any] | None = None) -> None:
    """The plain :meth:`GameState.random_playout`: until the game is over, a chance outcome at
    its exact odds (:func:`draw_chance`) or an action drawn uniformly from
    :meth:`~GameState.legal_actions`, applied unchecked; each is appended to ``trace`` if it is
    a list.  Everything random comes from ``rng``, so the same ``rng`` state plays the same game.

    >>> from dsa_widget.pig.rules import PigGame
    >>> g = PigGame(2, seed=1); start = g.clone(); trace: list[Any] = []
    >>> random_playout(g, random.Random(5), trace)
    >>> play_trace(start, trace); start.is_over, start.view(None) == g.view(None)
    (True, True)
    """
    while not state.is_over:
        if state.to_move == CHANCE:
            choice = draw_chance(state.chance_outcomes(), rng)
            state.apply_chance(choice)
        else:
            legal = state.legal_actions()
            choice = legal[int(rng.random() * len(legal))]
            state.apply_unchecked(choice)
        if trace is not None:
            trace.append(choice)


def play_trace(state: GameState, trace: Sequence[Any]) -> None:
    """Replay what :meth:`GameState.random_playout` wrote into ``trace``, checked: each item is
    applied with :meth:`~GameState.apply_chance` at a chance node, else with
    :meth:`~GameState.apply` (an illegal one raises the game's error)."""
    for item in trace:
        if state.to_move == CHANCE:
            state.apply_chance(item)
        else:
            state.apply(item)


def speaks_the_protocol(state: type[GameState], view: type[GameView]) -> None:
    """Nothing at run time.  A game's registration calls it under ``TYPE_CHECKING`` with its
    state and view classes, so that ``mypy --strict`` proves they speak the protocol (an
    argument that does not is a type error):

    >>> from typing import TYPE_CHECKING
    >>> if TYPE_CHECKING:
    ...     from dsa_widget.pig.rules import PigGame
    ...     from dsa_widget.pig.view import PigView
    ...     speaks_the_protocol(PigGame, PigView)
    """
