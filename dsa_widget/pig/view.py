"""What a seat knows in Pig: everything, history included.  A view is also the game's state.

>>> import random
>>> from dsa_widget.pig import PigGame
>>> g = PigGame(2, goal=30, seed=3)
>>> g.apply("roll"); g.apply_chance(6)
>>> v = g.view(1)
>>> v.legal, v.to_move, v.turn_total, g.view(0).legal
((), 0, 6, ('roll', 'hold'))
>>> s = v.sample(random.Random(1))     # the same state, its die seeded afresh
>>> s.view(1) == v, s.history == g.history
(True, True)
"""

from __future__ import annotations

import random
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Any

from ..core.protocol import CHANCE, TERMINAL

if TYPE_CHECKING:
    from .rules import PigGame

__all__ = ["Move", "PigView", "action_words"]

#: a move of a record turn: a face rolled, ``"hold"``, or (last in a game in progress) ``"roll"``
Move = int | str


@dataclass(frozen=True)
class PigView:
    """One seat's knowledge (``seat`` None: a spectator's).  ``current`` is the seat whose turn it
    is (the last to play once over), ``moves`` its turn so far, ``history`` the completed turns as
    ``(seat, moves)``."""

    seat: int | None
    legal: tuple[str, ...]
    players: tuple[str, ...]
    goal: int
    scores: tuple[int, ...]
    turn_total: int
    current: int
    rolling: bool
    moves: tuple[Move, ...]
    winners: tuple[int, ...]
    history: tuple[tuple[int, tuple[Move, ...]], ...]
    first_player: int
    max_turns: int | None

    @property
    def to_move(self) -> int:
        return TERMINAL if self.winners else CHANCE if self.rolling else self.current

    @property
    def can_win(self) -> bool:
        """True when holding now reaches the goal."""
        return self.scores[self.current] + self.turn_total >= self.goal

    def turns(self) -> list[dict[str, Any]]:
        """Every turn as a record writes it, the one in progress last."""
        out = [{"seat": s, "moves": list(m)} for s, m in self.history]
        if self.moves or self.rolling:
            out.append({"seat": self.current, "moves": [*self.moves, *(["roll"] if self.rolling else [])]})
        return out

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON-ready data."""
        d = {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}
        d.update(
            history=self.turns()[: len(self.history)], to_move=self.to_move, turn_number=len(self.history)
        )
        return d

    def sample(self, rng: random.Random) -> PigGame:
        """The state itself (nothing is hidden), its die seeded from ``rng``."""
        from .rules import PigGame

        return PigGame.from_view(self, rng.getrandbits(64))


_WORDS = {"roll": "roll the die", "hold": "hold (bank the turn total)"}


def action_words(action: Any, view: Any = None) -> str:
    """A Pig action as a player says it (the game's words in the registry).

    >>> action_words("roll")
    'roll the die'
    """
    return _WORDS.get(action, repr(action)) if isinstance(action, str) else repr(action)
