"""*Pig*, the dice game: the rules model.

2 to 6 players take turns.  On a turn the player rolls a die as often as they like: a 1 ends the
turn and loses the turn total, 2 to 6 adds to it.  ``hold`` banks the turn total and passes the
turn.  The first to bank ``goal`` points (100 by default) wins, by holding, as in Neller &
Presser's solved game (not the moment the points are reached).  Two rules keep every turn finite
without changing who wins under sensible play: ``hold`` needs a turn total above 0, and once score
plus turn total reaches the goal ``hold`` is the only action (rolling on could only lose a sure
win).  ``max_turns`` (optional) ends a game after that many turns, the best scores sharing the
win.  Nothing is hidden: the state is a :class:`~dsa_widget.pig.view.PigView` (``seat`` None).

>>> g = PigGame(["Ann", "Bob"], goal=20, seed=1)
>>> g.apply("roll"); g.to_move, g.chance_outcomes()[0]
(-1, (1, Fraction(1, 6)))
>>> g.apply_chance(5); g.apply("roll"); g.apply_chance(4); g.legal_actions()
('roll', 'hold')
>>> g.apply("hold"); g.scores, g.to_move, g.history
((9, 0), 1, ((0, (5, 4, 'hold')),))
>>> g.apply("roll"); g.apply_chance(1); g.scores, g.to_move     # a 1: Bob's turn is lost
((9, 0), 0)
>>> try:
...     g.apply("hold")
... except IllegalActionError as e:
...     print(e)
'hold' needs a turn total above 0: roll first; legal: 'roll'
"""

from __future__ import annotations

import copy
import random
from collections.abc import Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any, ClassVar

from ..core import errors as _core
from ..core.errors import GameError, is_int, short_repr
from ..core.protocol import random_playout as plain_playout
from ..core.records import name_problem
from .view import Move, PigView

__all__ = ["DIE", "HOLD", "MAX_GOAL", "ROLL", "IllegalActionError", "PigGame", "RecordError", "SetupError"]

ROLL, HOLD = "roll", "hold"
MAX_GOAL = 1000
#: the most moves in one turn (from 0, 500 twos reach 1000, then a hold)
MAX_MOVES = MAX_GOAL // 2 + 2
#: a roll's chance outcomes, one shared tuple
DIE: tuple[tuple[int, Fraction], ...] = tuple((face, Fraction(1, 6)) for face in range(1, 7))


class SetupError(_core.SetupError):
    """A bad setup keyword; ``field`` names it."""


class IllegalActionError(_core.IllegalActionError):
    """An action, die or record turn that is not legal now; the game is unchanged."""


class RecordError(_core.RecordError):
    """A record that is not a valid Pig record: ``key`` and ``turn`` (from 1) say where."""


def _int(value: Any, field: str, lo: int, hi: int) -> int:
    if not is_int(value) or not lo <= value <= hi:
        raise SetupError(f"{field} must be an int from {lo} to {hi}, got {short_repr(value)}", field)
    return int(value)


def _names(players: Any) -> tuple[str, ...]:
    if is_int(players):
        return tuple(f"Player {k + 1}" for k in range(_int(players, "players", 2, 6)))
    names = tuple(players) if isinstance(players, (list, tuple)) else ()
    for k, name in enumerate(names):
        problem = name_problem(name, 40)  # the check every game's names pass (no lone surrogate)
        if problem:
            raise SetupError(f"name {k + 1} of the players {problem}", "players")
    if 2 <= len(names) <= 6 and len(set(names)) == len(names):
        return names
    raise SetupError(f"players must be 2 to 6 or 2 to 6 distinct names, got {short_repr(players)}", "players")


def _replace(s: PigView, **changes: Any) -> PigView:
    """``dataclasses.replace(s, **changes)`` at a fifth of the cost (every move makes a new state,
    and the generic ``replace`` rebuilds its arguments field by field): :class:`PigView` is a plain
    frozen dataclass (no ``__post_init__``, nothing derived stored), so a copy of its fields with
    ``changes`` over them is the same value."""
    new = object.__new__(PigView)
    fields = new.__dict__
    fields.update(s.__dict__)
    fields.update(changes)
    return new


class PigGame:
    """One game of Pig (see the module docstring).  ``options`` exists for the protocol's sake:
    Pig has no rule options."""

    CHANCE_ACTION: ClassVar[str] = ROLL

    def __init__(
        self,
        players: int | Sequence[str] = 2,
        *,
        goal: int = 100,
        seed: int | None = None,
        first_player: int = 0,
        max_turns: int | None = None,
        options: Mapping[str, Any] | None = None,
    ) -> None:
        names = _names(players)
        goal = _int(goal, "goal", 1, MAX_GOAL)
        first = _int(first_player, "first_player", 0, len(names) - 1)
        turns = None if max_turns is None else _int(max_turns, "max_turns", 1, 100_000)
        self.seed = None if seed is None else _int(seed, "seed", -(2**63), 2**64 - 1)
        if options:
            raise SetupError(f"Pig has no rule options, got {short_repr(options)}", "options")
        self._rng = random.Random(seed)
        self._s = PigView(None, (), names, goal, (0,) * len(names), 0, first, False, (), (), (), first, turns)

    @property
    def goal(self) -> int:
        return self._s.goal

    @property
    def players(self) -> tuple[str, ...]:
        return self._s.players

    @property
    def scores(self) -> tuple[int, ...]:
        return self._s.scores

    @property
    def winners(self) -> tuple[int, ...]:
        return self._s.winners

    @property
    def is_over(self) -> bool:
        return bool(self._s.winners)

    @property
    def turn_total(self) -> int:
        return self._s.turn_total

    @property
    def history(self) -> tuple[tuple[int, tuple[Move, ...]], ...]:
        """The completed turns: ``(seat, moves)``, each move a face rolled or ``"hold"``."""
        return self._s.history

    @property
    def turn_number(self) -> int:
        return len(self._s.history)

    @property
    def to_move(self) -> int:
        return self._s.to_move

    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is, while its die rolls too (``None`` once over)."""
        return None if self._s.winners else self._s.current

    @property
    def at_turn_boundary(self) -> bool:
        return not self._s.moves and not self._s.rolling

    def legal_actions(self) -> tuple[str, ...]:
        s = self._s
        if s.winners or s.rolling:
            return ()
        return (ROLL,) if not s.turn_total else (HOLD,) if s.can_win else (ROLL, HOLD)

    def returns(self) -> tuple[float, ...]:
        return tuple(map(float, self._s.scores))

    def apply(self, action: Any) -> None:
        legal = self.legal_actions()
        if not isinstance(action, str) or action not in legal:
            s = self._s
            why = f"an action is 'roll' or 'hold', got {short_repr(action)}"
            if s.winners or s.rolling:
                why = "the game is over" if s.winners else "the die is rolling: apply_chance(1..6) first"
            elif action == HOLD:
                why = "'hold' needs a turn total above 0: roll first"
            elif action == ROLL:
                why = f"{s.scores[s.current] + s.turn_total} reaches the goal ({s.goal}): hold to win"
            raise IllegalActionError(f"{why}; legal: {', '.join(map(repr, legal)) or 'none'}", legal)
        self.apply_unchecked(action)

    def apply_unchecked(self, action: Any) -> None:
        s = self._s
        if action == ROLL:
            self._s = _replace(s, rolling=True)
        else:
            banked = s.scores[s.current] + s.turn_total
            scores = (*s.scores[: s.current], banked, *s.scores[s.current + 1 :])
            self._end_turn(_replace(s, scores=scores, moves=(*s.moves, HOLD)), banked >= s.goal)

    def chance_outcomes(self) -> tuple[tuple[int, Fraction], ...]:
        return DIE if self._s.rolling else ()

    def apply_chance(self, outcome: Any) -> None:
        """Land the die on ``outcome`` (1..6).  The generator draws once per roll, chosen or drawn,
        so a game loaded from its record rolls on as the game it was saved from."""
        if not self._s.rolling or not is_int(outcome) or not 1 <= outcome <= 6:
            why = f"a die shows 1 to 6, got {short_repr(outcome)}" if self._s.rolling else "no die is rolling"
            raise IllegalActionError(why, self.legal_actions())
        self._rng.random()
        self._land(outcome)

    def sample_chance(self) -> None:
        if not self._s.rolling:
            raise IllegalActionError("no die is rolling", self.legal_actions())
        self._land(int(self._rng.random() * 6) + 1)

    def _land(self, face: int) -> None:
        s = _replace(
            self._s, rolling=False, moves=(*self._s.moves, face), turn_total=self._s.turn_total + face
        )
        if face == 1:
            self._end_turn(s, False)
        else:
            self._s = s

    def _end_turn(self, s: PigView, won: bool) -> None:
        history = (*s.history, (s.current, s.moves))
        winners: tuple[int, ...] = (s.current,) if won else ()
        if not won and s.max_turns is not None and len(history) >= s.max_turns:
            winners = tuple(q for q, x in enumerate(s.scores) if x == max(s.scores))
        current = s.current if winners else (s.current + 1) % len(s.players)
        self._s = _replace(s, history=history, moves=(), turn_total=0, winners=winners, current=current)

    def view(self, seat: int | None = None, knower: Any = None) -> PigView:
        """What ``seat`` knows: everything (``None``: a spectator; ``knower``, which the OpenSpiel
        adapter passes, changes nothing)."""
        if seat is not None and not (is_int(seat) and 0 <= seat < len(self._s.players)):
            raise GameError(f"no seat {short_repr(seat)}: seats are 0 to {len(self._s.players) - 1}")
        return _replace(self._s, seat=seat, legal=self.legal_actions() if seat == self.to_move else ())

    @classmethod
    def from_view(cls, view: PigView, seed: int | None = None) -> PigGame:
        """The game in ``view``'s state (nothing is hidden), its die seeded with ``seed``."""
        g = cls(view.players, goal=view.goal, seed=seed, first_player=view.first_player)
        g._s = replace(view, seat=None, legal=())
        return g

    def clone(self) -> PigGame:
        c = copy.copy(self)
        c._rng = rng = random.Random()
        rng.setstate(self._rng.getstate())
        return c

    def copy(self, **_: bool) -> PigGame:
        """:meth:`clone` (the OpenSpiel adapter asks for ``copy(history=False, events=False)``)."""
        return self.clone()

    def random_playout(self, rng: random.Random, trace: list[Any] | None = None) -> None:
        """Play on to the end from here with uniformly random legal actions and die rolls at their odds,
        drawn from ``rng``; ``trace`` (a list) receives what was played
        (:func:`dsa_widget.core.protocol.random_playout`, the plain way)."""
        plain_playout(self, rng, trace)

    def play_record_turn(self, turn: Any) -> None:
        """Play one turn as a record writes it, ``{"seat": s, "moves": [...]}``, checked as a whole:
        if any move is illegal, nothing is played."""
        seat, moves = (turn.get("seat"), turn.get("moves")) if isinstance(turn, Mapping) else (None, None)
        if not isinstance(turn, Mapping) or set(turn) != {"seat", "moves"} or not isinstance(moves, list):
            raise IllegalActionError("a turn is {'seat': seat, 'moves': [face, ..., 'hold']}")
        if not self.at_turn_boundary or self.is_over or not is_int(seat) or seat != self._s.current:
            raise IllegalActionError(f"seat {short_repr(seat)} may not start a turn now")
        if not 0 < len(moves) <= MAX_MOVES:
            raise IllegalActionError(f"a turn has 1 to {MAX_MOVES} moves")
        g = self.clone()
        for k, m in enumerate(moves, 1):
            try:
                if g.turn_number > self.turn_number:
                    raise IllegalActionError("the turn had ended")
                g.apply(HOLD if m == HOLD else ROLL)
                if m not in (ROLL, HOLD):
                    g.apply_chance(m)
            except IllegalActionError as e:
                raise IllegalActionError(f"move {k} ({short_repr(m)}): {e}", e.legal) from None
        self._s, self._rng = g._s, g._rng

    def to_record(self) -> dict[str, Any]:
        from .record import game_to_record

        return game_to_record(self)

    def save(self, path: Any) -> None:
        """Write the game's record (``pig/record@1``) as JSON to ``path``."""
        from .record import save

        save(self, path)

    @classmethod
    def from_record(cls, source: Any) -> PigGame:
        from .record import load_record

        return load_record(source)

    def state_dict(self) -> dict[str, Any]:
        """The state as JSON (what ``python -m dsa_widget replay`` prints)."""
        return {k: v for k, v in self._s.to_dict().items() if k not in ("seat", "legal", "history")}

    def __repr__(self) -> str:
        s = self._s
        who = ", ".join(f"{p} {x}" for p, x in zip(s.players, s.scores, strict=True))
        won = ", ".join(s.players[q] for q in s.winners)
        end = f"won by {won}" if won else f"{s.players[s.current]} has {s.turn_total} on the turn"
        return f"Pig to {s.goal}: {who}; {end}"
