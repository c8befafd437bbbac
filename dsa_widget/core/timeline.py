"""What-if play: a game with its past (undo, redo, scrub) and branches you can compare.

A :class:`Timeline` keeps a frozen copy of the game after every choice and
every roll, so going back is free and the real game is never touched by
what you try in a branch.

>>> from dsa_widget import Game
>>> t = Timeline(Game(players=["Ann", "Bob"], seed=3))
>>> t.roll((3, 3)); t.apply("take")
>>> t.game.divers[0].position
6
>>> t.undo(); t.game.step            # back before "take"
'search'
>>> what_if = t.branch()              # try something else in a branch...
>>> what_if.apply("none"); what_if.roll((1, 1))
>>> t.game.step, t.can_redo           # ...the original is untouched
('search', True)
>>> t.redo(); t.game.current_player
1
>>> from dsa_widget.deep_sea.compare import compare
>>> compare(real=t.game, what_if=what_if.game).rows[0]["name"]
'real'
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any, Generic

from .errors import GameError
from .protocol import S
from .records import load as load_any
from .records import read_document

__all__ = ["Timeline", "TimelineError"]


class TimelineError(GameError):
    """Nothing to undo or redo, or a turn that is not in the timeline."""


class Timeline(Generic[S]):
    """A game with every past state kept: undo, redo, scrub to a turn, branch; for any game
    of the package (anything with the :class:`~dsa_widget.core.protocol.GameState` protocol).

    Each frame is an independent state (a clone); frame 0 is the game as it
    was given.  Acting while some frames have been undone drops them (as in
    an editor); :meth:`branch` keeps them instead, in a new timeline.
    """

    def __init__(self, game: S, /) -> None:
        self._frames: list[S] = [game.clone()]  # type: ignore[list-item]
        self._at = 0

    @classmethod
    def from_record(cls, record: Any) -> Timeline[Any]:
        """Every turn of a record (of any known game) as a frame, positioned at the end."""
        doc = read_document(record)
        load_any(doc)  # checks the whole record first, with clear errors
        t: Timeline[Any] = cls(load_any({**doc, "turns": []}))
        for turn in doc.get("turns", []):
            t.play_record_turn(turn)
        return t

    # ------------------------------------------------------------------ acting

    @property
    def game(self) -> S:
        """A copy of the current game (acting on it leaves the timeline as it was: act
        through the timeline instead)."""
        return self.current.clone()  # type: ignore[return-value]

    @property
    def current(self) -> S:
        """The current frame itself, to read without copying.  Never act on it (frames are
        never changed once stored): act through the timeline, or on :attr:`game`."""
        return self._frames[self._at]

    def _push(self, g: S) -> None:
        del self._frames[self._at + 1 :]
        self._frames.append(g)
        self._at += 1

    def _do(self, method: str, *args: Any) -> None:
        g: Any = self.current.clone()
        getattr(g, method)(*args)
        self._push(g)

    def record(self, state: S) -> None:
        """Keep a copy of ``state`` as the next frame (a change made outside the timeline, e.g.
        the live game a widget shows), dropping frames that were undone."""
        self._push(state.clone())  # type: ignore[arg-type]

    def apply(self, action: Any) -> None:
        """Apply a legal action (see the game's ``apply``); an illegal one changes nothing."""
        self._do("apply", action)

    def apply_chance(self, outcome: Any) -> None:
        """Apply a chosen chance outcome (chosen dice in a what-if)."""
        self._do("apply_chance", outcome)

    def sample_chance(self) -> None:
        """Draw a chance outcome from the game's own generator."""
        self._do("sample_chance")

    def roll(self, dice: Any = None) -> None:
        """Chance, Deep Sea Adventure's way: the chosen ``dice``, or the game's own."""
        if dice is None:
            self.sample_chance()
        else:
            self.apply_chance(dice)

    def play_record_turn(self, turn: Any) -> None:
        """A whole turn, as a record writes it, as one frame."""
        self._do("play_record_turn", turn)

    # ------------------------------------------------------------------ moving in time

    @property
    def can_undo(self) -> bool:
        return self._at > 0

    @property
    def can_redo(self) -> bool:
        return self._at < len(self._frames) - 1

    def undo(self, n: int = 1) -> None:
        """Go back ``n`` frames (a choice or a roll each)."""
        if n < 0 or self._at - n < 0:
            raise TimelineError(f"cannot undo {n} step(s): only {self._at} to undo")
        self._at -= n

    def redo(self, n: int = 1) -> None:
        if n < 0 or self._at + n >= len(self._frames):
            raise TimelineError(f"cannot redo {n} step(s): only {len(self._frames) - 1 - self._at} to redo")
        self._at += n

    def __len__(self) -> int:
        return len(self._frames)

    @property
    def index(self) -> int:
        """The current frame's index (0 = the start)."""
        return self._at

    def seek(self, index: int) -> None:
        """Go to frame ``index`` (negative counts from the end)."""
        n = len(self._frames)
        if not -n <= index < n:
            raise TimelineError(f"frame {index} is not in this timeline of {n} frames")
        self._at = index % n

    def turn_frames(self) -> dict[int, int]:
        """``{k: frame}``: the frame holding the state after ``k`` completed turns of the game.

        ``k`` counts the game's turns, not the timeline's: a timeline started (or branched)
        after 5 turns has keys 5, 6, ... (6, ... if it started in the middle of a turn).

        >>> from dsa_widget import Game
        >>> g = Game(players=2, seed=1); g.play_turn(dice=(1, 1)); g.play_turn(dice=(2, 2))
        >>> t = Timeline(g); t.roll((1, 2)); t.apply("none")
        >>> t.turn_frames()
        {2: 0, 3: 2}
        """
        out: dict[int, int] = {}
        for i, g in enumerate(self._frames):
            k = g.turn_number
            if k not in out and g.at_turn_boundary:
                out[k] = i
        return out

    def seek_turn(self, turn: int) -> None:
        """Go to the state after ``turn`` completed turns of the game (as a record of that many
        turns replays)."""
        frames = self.turn_frames()
        if turn not in frames:
            have = f"turns {min(frames)}..{max(frames)}" if frames else "no turn start"
            raise TimelineError(f"turn {turn} is not in this timeline ({have})")
        self._at = frames[turn]

    def frames(self) -> Iterator[S]:
        return iter(self._frames)

    # ------------------------------------------------------------------ branching

    def branch(self) -> Timeline[S]:
        """A new, independent timeline starting from the current state."""
        return Timeline(self.current)

    def __repr__(self) -> str:
        return f"<Timeline frame {self._at}/{len(self._frames) - 1}: {self.current!r}>"
