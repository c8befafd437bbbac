"""Records of Pig, format ``pig/record@1``: ``{"format", "setup", "turns"}``.

``setup`` holds ``players`` (names), ``goal``, ``first_player`` and, when set, ``seed`` and
``max_turns``.  Each turn is ``{"seat": s, "moves": [...]}``: the faces rolled, ending with
``"hold"`` or a 1; only the last turn of a game in progress may stop early (ending ``"roll"`` while
the die is in the air).  Loading checks everything and raises :class:`RecordError` naming the
setup key or the turn (from 1).

>>> from dsa_widget.pig import PigGame
>>> g = PigGame(["Ann", "Bob"], goal=20, seed=2)
>>> for m in ("roll", 6, "roll", 5, "hold", "roll", 1):
...     g.apply(m) if isinstance(m, str) else g.apply_chance(m)
>>> rec = game_to_record(g)
>>> rec["turns"]
[{'seat': 0, 'moves': [6, 5, 'hold']}, {'seat': 1, 'moves': [1]}]
>>> load_record(json.dumps(rec)).state_dict() == g.state_dict()
True
>>> rec["turns"][1]["moves"] = [7]
>>> try:
...     load_record(rec)
... except RecordError as e:
...     print(e.turn, e)
2 turn 2: move 1 (7): a die shows 1 to 6, got 7
"""

from __future__ import annotations

import json
from typing import Any

from ..core.records import read_record, refuse
from .rules import IllegalActionError, PigGame, RecordError, SetupError

__all__ = ["FORMAT", "MAX_TURNS", "game_to_record", "load_record", "replay_state", "save"]

FORMAT = "pig/record@1"
#: the most turns a record may hold
MAX_TURNS = 100_000
_SETUP = ("players", "goal", "seed", "first_player", "max_turns")


def game_to_record(game: PigGame) -> dict[str, Any]:
    """The game as a JSON-ready record (a game in progress: its turn so far, last)."""
    v = game.view(None)
    setup = {"players": list(v.players), "goal": v.goal, "first_player": v.first_player}
    setup.update({k: x for k, x in (("seed", game.seed), ("max_turns", v.max_turns)) if x is not None})
    return {"format": FORMAT, "setup": setup, "turns": v.turns()}


def save(game: PigGame, path: Any) -> None:
    """Write the game's record as JSON to ``path``."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(game_to_record(game), f, indent=1)


def load_record(source: Any) -> PigGame:
    """The game a record (a dict, JSON text, a path or a file) describes, after its last turn.

    Every refusal is a :class:`RecordError` whose message starts with where the fault is
    (:func:`dsa_widget.core.records.refuse`): ``key 'K'``, ``setup key 'K'`` or ``turn N``.
    """
    doc = read_record(source, FORMAT, RecordError)
    for k in doc:
        if k not in ("format", "setup", "turns"):
            raise refuse((k,), "unknown key; a record has format, setup, turns", RecordError)
    setup, turns = doc.get("setup", {}), doc.get("turns", [])
    if not isinstance(setup, dict):
        raise refuse(("setup",), "expected an object", RecordError)
    for k in setup:
        if k not in _SETUP:
            raise refuse(("setup", k), f"unknown key; setup keys are {', '.join(_SETUP)}", RecordError)
    try:
        game = PigGame(**setup)
    except SetupError as e:
        raise refuse(("setup", e.field) if e.field else ("setup",), str(e), RecordError) from None
    if not isinstance(turns, list) or len(turns) > MAX_TURNS:
        raise refuse(("turns",), f"expected a list of at most {MAX_TURNS} turns", RecordError)
    for i, turn in enumerate(turns):
        if game.is_over:
            raise refuse(("turns", i), "the game was already over", RecordError)
        if not game.at_turn_boundary:
            raise refuse(("turns", i - 1), "the turn did not end (with 'hold' or a 1)", RecordError)
        try:
            game.play_record_turn(turn)
        except IllegalActionError as e:
            raise refuse(("turns", i), str(e), RecordError) from None
    return game


def replay_state(game: PigGame) -> dict[str, Any]:
    """What ``python -m dsa_widget replay`` prints: the state after the record's last turn."""
    return game.state_dict()
