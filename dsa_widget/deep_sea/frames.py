"""The game's past as the browser scrubs it: compact frames, one per completed turn.

Frames are built by replaying the record's turns (so frame ``k`` is exactly
what a record of ``k`` turns replays to) and hold chip values only where
:func:`~dsa_widget.deep_sea.state.known_values` allows them in that frame.
The front end expands them with no kernel (a static HTML export scrubs too).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from .rules import Game
from .state import _chip, _item, known_values

__all__ = ["HISTORY_SCHEMA", "HistoryBuilder", "expand_frames", "history_frame"]

HISTORY_SCHEMA = 1


def _search_text(search: Any) -> str:
    if isinstance(search, Mapping):
        return f"drop {search.get('drop')}"
    return str(search or "none")


def history_frame(
    game: Game,
    k: int,
    *,
    viewer: int | None,
    reveal_all: bool,
    turn: Mapping[str, Any] | None,
    seat: int | None,
    prev: dict[str, Any] | None,
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The compact frame of ``game`` after ``k`` turns and its full board (for the next delta).

    The first frame of a chunk (``prev`` is ``None``) holds the whole board:
    ``P`` path, ``D`` divers, ``B`` banked chips and scores.  A later frame
    holds only what changed since the previous one: ``pd`` (``[space index,
    space]`` pairs), ``dd`` (``[seat, diver]`` pairs), and ``B`` or ``P`` when
    they changed.  A diver is ``[pos, up, home, items]``.
    """
    known = known_values(game, viewer, reveal_all)
    v = game.view(0)
    levels = v.levels
    n = len(v.players)
    path = [0 if x is None else _item(x, levels, known) for x in v.path[1:]]
    divers = [
        [
            v.positions[q],
            int(v.heading_up[q]),
            int(v.returned[q]),
            [_item(it, levels, known) for it in v.carrying[q]],
        ]
        for q in range(n)
    ]
    banked = [[_chip(c, levels, known) for c in b] for b in v.banked]
    true_scores = game.scores
    scores = [true_scores[q] if all(c in known for c in v.banked[q]) else None for q in range(n)]
    bank = [banked, scores]
    frame: dict[str, Any] = {"k": k, "r": v.round, "a": v.air, "c": v.current_player, "s": v.step}
    if prev is None:
        frame.update(P=path, D=divers, B=bank)
    else:
        if len(path) != len(prev["path"]):
            frame["P"] = path
        else:
            pd = [[i, x] for i, (x, y) in enumerate(zip(path, prev["path"], strict=False)) if x != y]
            if pd:
                frame["pd"] = pd
        dd = [[q, d] for q, (d, e) in enumerate(zip(divers, prev["divers"], strict=False)) if d != e]
        if dd:
            frame["dd"] = dd
        if bank != prev["bank"]:
            frame["B"] = bank
    if turn is not None:
        dice = list(turn.get("dice") or ())
        frame["t"] = [
            seat,
            int(bool(turn.get("back", False))),
            dice,
            _search_text(turn.get("search", "none")),
        ]
    if v.finished:
        frame["o"] = 1
        frame["w"] = list(v.winners) if None not in scores else []
    return frame, {"path": path, "divers": divers, "bank": bank}


class HistoryBuilder:
    """The game's past as compact frames, one per completed turn, built incrementally.

    Frame ``k`` is the board after ``k`` turns: exactly the game that a
    record of the first ``k`` turns replays to (it is replayed from the
    record's turns).  Frames of completed rounds are in :attr:`done` (one
    chunk per round, unchanged once the round is over); the current round's
    frames are in :attr:`tail`.  So while a round is played only the small
    tail changes, and the widget syncs the two as separate traits.

    A chunk is ``{"paths": [...], "banks": [...], "frames": [...]}``.  Chip
    values appear only where :func:`known_values` allows them *in that
    frame's state* (levels only unless revealed).
    """

    def __init__(self, *, viewer: int | None = None, reveal_all: bool = False) -> None:
        self.viewer = viewer
        self.reveal_all = reveal_all
        self.done: list[dict[str, Any]] = []
        self.tail: dict[str, Any] = _new_chunk()
        self._replay: Game | None = None
        self._turns: list[dict[str, Any]] = []
        self._setup: Any = None
        self._prev: dict[str, Any] | None = None

    @property
    def n_turns(self) -> int:
        return len(self._turns)

    def reset(self) -> None:
        self.done, self.tail, self._replay, self._turns, self._setup = [], _new_chunk(), None, [], None
        self._prev = None

    def update(self, game: Game, *, viewer: int | None = None, reveal_all: bool = False) -> bool:
        """Bring the frames up to ``game``'s completed turns; True if anything changed."""
        have = game.history_length
        if have is None:
            return False
        known = len(self._turns)
        # the last turn held (to see that the past is unchanged) and every turn after it
        since = max(known - 1, 0)
        tail = game.history_since(since) if have >= known else []
        changed = False
        if (
            self._replay is None
            or viewer != self.viewer
            or bool(reveal_all) != self.reveal_all
            or (game.setup is not self._setup and game.setup != self._setup)
            or have < known
            or (known and tail[0] != self._turns[-1])
        ):
            self.reset()
            self.viewer, self.reveal_all, self._setup = viewer, bool(reveal_all), game.setup
            self._replay = Game(game.setup, events=False)
            self._add(None, None)
            changed = True
            new = tail if since == 0 else game.history_since(0)
        else:
            new = tail[known - since :]
        assert self._replay is not None
        for t in new:
            seat = self._replay.current_player
            self._replay.play_record_turn(t)
            self._turns.append(t)
            self._add(t, seat)
            changed = True
        return changed

    def _add(self, turn: Mapping[str, Any] | None, seat: int | None) -> None:
        g = self._replay
        assert g is not None
        frames = self.tail["frames"]
        if frames and frames[0]["r"] != g.round and not g.is_over:
            self.done.append(self.tail)
            self.tail = _new_chunk()
            self._prev = None
        frame, self._prev = history_frame(
            g,
            len(self._turns),
            viewer=self.viewer,
            reveal_all=self.reveal_all,
            turn=turn,
            seat=seat,
            prev=self._prev,
        )
        self.tail["frames"].append(frame)

    def game_after(self, k: int) -> Game:
        """A fresh game after the first ``k`` recorded turns (a copy: change it freely)."""
        if not 0 <= k <= len(self._turns):
            raise ValueError(f"turn {k} is not in the history (turns 0..{len(self._turns)})")
        g = Game(self._setup)
        for t in self._turns[:k]:
            g.play_record_turn(t)
        return g

    def traits(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """``(history, history_tail)`` as the widget syncs them."""
        # new containers every time: a trait only syncs when its value compares unequal to the old one
        return (
            {"v": HISTORY_SCHEMA, "chunks": list(self.done), "n": sum(len(c["frames"]) for c in self.done)},
            {
                "v": HISTORY_SCHEMA,
                "start": sum(len(c["frames"]) for c in self.done),
                "frames": list(self.tail["frames"]),
            },
        )


def _new_chunk() -> dict[str, Any]:
    return {"frames": []}


def expand_frames(history: Mapping[str, Any], tail: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The frames of the two history traits as board states (what the front end draws).

    Each has ``turn``, ``round``, ``air``, ``current``, ``step``, ``over``,
    ``winners``, ``path``, ``divers`` (``pos``/``up``/``home``/``items``),
    ``banked``, ``scores`` (the keys of :func:`build_state`) and
    ``last_turn`` (``[seat, back, dice, search]`` of the turn that led here,
    or ``None``).  ``js/history.js`` decodes the same way in the browser.
    """
    out = []
    for ch in [*history.get("chunks", ()), tail]:
        path: list[Any] = []
        divers: list[Any] = []
        bank: list[Any] = [[], []]
        for f in ch.get("frames", ()):
            if "P" in f:
                path = list(f["P"])
            for i, x in f.get("pd", ()):
                path[i] = x
            if "D" in f:
                divers = list(f["D"])
            for q, d in f.get("dd", ()):
                divers[q] = d
            if "B" in f:
                bank = f["B"]
            out.append(
                {
                    "turn": f["k"],
                    "round": f["r"],
                    "air": f["a"],
                    "current": f["c"],
                    "step": f["s"],
                    "over": bool(f.get("o", 0)),
                    "winners": list(f.get("w", [])),
                    "path": list(path),
                    "divers": [
                        {"pos": d[0], "up": bool(d[1]), "home": bool(d[2]), "items": d[3]} for d in divers
                    ],
                    "banked": bank[0],
                    "scores": bank[1],
                    "last_turn": f.get("t"),
                }
            )
    return out
