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
>>> compare(real=t.game, what_if=what_if.game).rows[0]["name"]
'real'
"""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from ..deep_sea.errors import DeepSeaError
from ..deep_sea.rules import Game

__all__ = ["Timeline", "Comparison", "compare"]


class TimelineError(DeepSeaError):
    """Nothing to undo or redo, or a turn that is not in the timeline."""


class Timeline:
    """A game with every past state kept: undo, redo, scrub to a turn, branch.

    Each frame is an independent :class:`Game`; frame 0 is the game as it
    was given.  Acting while some frames have been undone drops them (as in
    an editor); :meth:`branch` keeps them instead, in a new timeline.
    """

    def __init__(self, game: Game | None = None, /, **setup: Any) -> None:
        if game is None:
            game = Game(**setup)
        elif setup:
            raise TypeError("give a Game or setup keywords, not both")
        self._frames: list[Game] = [game.copy()]
        self._at = 0

    @classmethod
    def from_record(cls, record: Any) -> "Timeline":
        """Every turn of a record as a frame (one frame per turn), positioned at the end."""
        from ..deep_sea.record import load_record, read_record

        doc = read_record(record)
        final = load_record(doc)  # checks the whole record first, with clear errors
        start = load_record({**doc, "turns": []})
        t = cls(start)
        for turn in final.history:
            t.play_turn(**_turn_kwargs(turn))
        return t

    # ------------------------------------------------------------------ acting

    @property
    def game(self) -> Game:
        """A copy of the current game (acting on it leaves the timeline as it was: act
        through the timeline instead)."""
        return self._current.copy()

    @property
    def _current(self) -> Game:
        """The current frame itself, for readers inside the package (frames are never changed
        once stored: every action acts on a copy)."""
        return self._frames[self._at]

    def _push(self, g: Game) -> None:
        del self._frames[self._at + 1 :]
        self._frames.append(g)
        self._at += 1

    def apply(self, choice: Any) -> None:
        """Apply a choice (see :meth:`Game.apply`); an illegal one changes nothing."""
        g = self._current.copy()
        g.apply(choice)
        self._push(g)

    def roll(self, dice: Sequence[int] | None = None) -> None:
        """Roll (chosen dice in a what-if, or the game's own)."""
        g = self._current.copy()
        g.roll(dice)
        self._push(g)

    def play_turn(self, back: bool = False, dice: Sequence[int] | None = None, search: Any = "none") -> None:
        """A whole turn as one frame (see :meth:`Game.play_turn`)."""
        g = self._current.copy()
        g.play_turn(back=back, dice=dice, search=search)
        self._push(g)

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
            if k not in out and (g.is_over or not g._breathed and g.step != "search"):
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

    def frames(self) -> Iterator[Game]:
        return iter(self._frames)

    # ------------------------------------------------------------------ branching

    def branch(self) -> "Timeline":
        """A new, independent timeline starting from the current state."""
        t = Timeline.__new__(Timeline)
        t._frames = [self._current.copy()]
        t._at = 0
        return t

    def __repr__(self) -> str:
        return f"<Timeline frame {self._at}/{len(self._frames) - 1}: {self._current!r}>"


def _turn_kwargs(turn: dict[str, Any]) -> dict[str, Any]:
    return {"back": turn.get("back", False), "dice": turn["dice"], "search": turn.get("search", "none")}


@dataclass(frozen=True)
class Comparison:
    """Games side by side: round, air, scores, positions, items carried.

    Shows as a table in a notebook.  Values carried stay hidden: only levels
    appear, as in the game.
    """

    rows: tuple[dict[str, Any], ...]
    players: tuple[str, ...]

    def _repr_html_(self) -> str:
        esc = html.escape
        head = "".join(f"<th>{esc(p)}</th>" for p in self.players)
        body = []
        for r in self.rows:
            cells = "".join(
                f"<td>{s} pts · {('back' if d['returned'] else 'space ' + str(d['position'])) if d['position'] or d['returned'] else 'sub'}"
                f" · {d['items']} item{'s' if d['items'] != 1 else ''}</td>"
                for s, d in zip(r["scores"], r["divers"])
            )
            body.append(
                f"<tr><th>{esc(r['name'])}</th><td>{'over' if r['finished'] else r['round']}</td>"
                f"<td>{r['air']}</td>{cells}</tr>"
            )
        return (
            "<table><thead><tr><th></th><th>round</th><th>air</th>" + head + "</tr></thead><tbody>"
            + "".join(body) + "</tbody></table>"
        )

    def __repr__(self) -> str:
        lines = []
        for r in self.rows:
            scores = ", ".join(f"{p} {s}" for p, s in zip(self.players, r["scores"]))
            where = ", ".join(f"{p} {_where(d)}" for p, d in zip(self.players, r["divers"]))
            head = f"{r['name']:>12}: " + ("game over" if r["finished"] else f"round {r['round']}, air {r['air']}")
            lines.append(f"{head}, scores {scores}\n{'':>14}{where}")
        return "\n".join(lines)


def _where(d: dict[str, Any]) -> str:
    """``back``, ``sub`` (not dived yet) or ``space 5 ↓ 2 items`` (heading down)."""
    if d["returned"]:
        return "back"
    if not d["position"]:
        return "sub"
    k = d["items"]
    return f"space {d['position']} {'↑' if d['heading'] == 'up' else '↓'} {k} item{'' if k == 1 else 's'}"


def compare(**games: Game) -> Comparison:
    """Compare games (usually a real one and its what-if branches) side by side.

    >>> from dsa_widget import Game
    >>> a = Game(players=2, seed=1); b = a.copy(); b.roll((3, 3)); b.apply("take")
    >>> print(compare(before=a, after=b))
          before: round 1, air 25, scores Player 1 0, Player 2 0
                  Player 1 sub, Player 2 sub
           after: round 1, air 25, scores Player 1 0, Player 2 0
                  Player 1 space 6 ↓ 1 item, Player 2 sub
    """
    if not games:
        raise ValueError("compare() needs at least one game, given as name=game")
    players = next(iter(games.values())).players
    rows = []
    for name, g in games.items():
        rows.append(
            {
                "name": name,
                "round": g.round,
                "air": g.air,
                "finished": g.is_over,
                "scores": g.scores,
                "divers": [
                    {"position": d.position, "returned": d.returned, "items": len(d.carrying), "heading": d.heading}
                    for d in g.divers
                ],
            }
        )
    return Comparison(tuple(rows), players)
