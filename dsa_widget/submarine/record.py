"""Records of Submarine (docs/SUBMARINE_RECORD.md): save a game, load one, replay it.

A record is ``{"format", "setup", "chance", "turns"}``: the players, seed and options; what the
setup shuffle gave (tile layout, dealt piles, start player: always written, so a record replays
without re-deriving them); and every turn as ``{"seat", "actions"}``.  Loading checks everything
and raises :class:`~dsa_widget.submarine.errors.RecordError` naming the key or the turn (from 1);
``python -m dsa_widget replay FILE`` prints the replayed game's ``state_dict()``.

>>> from dsa_widget.submarine.rules import SubmarineGame
>>> g = SubmarineGame(["Ann", "Bob"], seed=5)
>>> g.apply("place 3")
>>> rec = game_to_record(g)
>>> sorted(rec), rec["setup"]["seed"], rec["turns"]
(['chance', 'format', 'setup', 'turns'], 5, [{'seat': 1, 'actions': ['place 3']}])
>>> load_record(json.dumps(rec)).state_dict() == g.state_dict()
True
>>> rec["turns"][0]["actions"] = ["place 9"]
>>> try:
...     load_record(rec)
... except RecordError as e:
...     print(e.turn, str(e))
1 turn 1: 'place 9' is not legal
"""

from __future__ import annotations

import json
from typing import Any

from ..core.errors import short_repr
from ..core.records import read_record
from .errors import IllegalActionError, RecordError, SetupError
from .rules import SubmarineGame

__all__ = ["FORMAT", "game_to_record", "load_record", "save"]

FORMAT = "submarine/record@1"
# No count of turns or of actions in a turn is refused here: the rules bound both (E5 ends a
# game after ``turn_limit`` <= 5,000 turns of play, ``joker_swaps_per_turn`` bounds a step), a
# turn past the end or an action past a turn's end is refused where it stands, and the record's
# size is the one limit (dsa_widget.core.records.MAX_BYTES).  A record the package writes, it
# reads back.
#: the longest action string (``collect 3.2 T03K2 joker T11K4`` is 30)
MAX_ACTION_CHARS = 64
_TOP = ("format", "setup", "chance", "turns")
_SETUP = ("players", "seed", "options")
_CHANCE = ("layout", "piles", "start_player")
_SEED = 2**63


def game_to_record(game: SubmarineGame) -> dict[str, Any]:
    """The game as a JSON-ready record."""
    f = game.setup_facts()
    return {
        "format": FORMAT,
        "setup": {
            "players": f["players"],
            "seed": f["seed"],
            "options": {k: v for k, v in f["options"].items() if v is not None},
        },
        "chance": {"layout": f["layout"], "piles": f["piles"], "start_player": f["start_player"]},
        "turns": [{"seat": s, "actions": list(a)} for s, a in game.history],
    }


def save(game: SubmarineGame, path: Any) -> None:
    """Write the game's record as JSON to ``path``."""
    with open(path, "w", encoding="utf-8") as f:
        json.dump(game_to_record(game), f, indent=1)


def _keys(d: Any, allowed: tuple[str, ...], where: str, required: tuple[str, ...]) -> None:
    if not isinstance(d, dict):
        raise RecordError(f"key {where!r}: expected an object", key=where)
    for k in d:
        if k not in allowed:
            raise RecordError(f"key {where!r}: unknown key {short_repr(k)}", key=where)
    for k in required:
        if k not in d:
            raise RecordError(f"key {where + '.' + k!r}: missing", key=f"{where}.{k}")


def load_record(source: Any) -> SubmarineGame:
    """The game a record describes, after its last turn (checked; RecordError naming key/turn)."""
    doc = read_record(source, FORMAT, RecordError)
    _keys(doc, _TOP, "record", ("format", "setup", "turns"))
    setup = doc["setup"]
    _keys(setup, _SETUP, "setup", ("players",))
    seed = setup.get("seed", 0)
    if isinstance(seed, bool) or not isinstance(seed, int) or not -_SEED <= seed < _SEED:
        raise RecordError("key 'setup.seed': expected an int", key="setup.seed")
    players = setup["players"]
    if not (isinstance(players, list) and 2 <= len(players) <= 5) and not (
        isinstance(players, int) and not isinstance(players, bool)
    ):
        raise RecordError("key 'setup.players': expected 2..5 names or a count", key="setup.players")
    kwargs: dict[str, Any] = {}
    if "chance" in doc:
        chance = doc["chance"]
        _keys(chance, _CHANCE, "chance", _CHANCE)
        kwargs = {"layout": chance["layout"], "piles": chance["piles"], "start": chance["start_player"]}
        for k in ("layout", "piles"):
            if not isinstance(chance[k], list) or len(chance[k]) > 60:
                raise RecordError(f"key 'chance.{k}': expected a list", key=f"chance.{k}")
    try:
        game = SubmarineGame(players, seed=seed, options=setup.get("options"), **kwargs)
    except SetupError as e:
        field = e.field or "setup"
        key = (
            f"chance.{'start_player' if field == 'start' else field}"
            if field in ("layout", "piles", "start")
            else (f"setup.options.{field}" if field not in ("players", "seed", "setup") else f"setup.{field}")
        )
        raise RecordError(f"key {key!r}: {e}", key=key) from None
    turns = doc["turns"]
    if not isinstance(turns, list):
        raise RecordError("key 'turns': expected a list", key="turns")
    for i, t in enumerate(turns, 1):
        if game.is_over:
            raise RecordError(f"turn {i}: the game was already over", key="turns", turn=i)
        if not isinstance(t, dict) or set(t) != {"seat", "actions"}:
            raise RecordError(f"turn {i}: expected {{'seat', 'actions'}}", key="turns", turn=i)
        acts = t["actions"]
        if not isinstance(acts, list) or not acts:
            raise RecordError(f"turn {i}: 'actions' is a non-empty list", key="turns", turn=i)
        if not all(isinstance(a, str) and len(a) <= MAX_ACTION_CHARS for a in acts):
            raise RecordError(f"turn {i}: every action is a short string", key="turns", turn=i)
        seat = t["seat"]
        if type(seat) is not int:  # a seat is a whole number: not true, not 1.0
            raise RecordError(f"turn {i}: seat {short_repr(seat)} is not a seat number", key="turns", turn=i)
        if seat != game.to_move:
            raise RecordError(f"turn {i}: seat {short_repr(t['seat'])} is not to move", key="turns", turn=i)
        last = i == len(turns)
        before = game.turn_number
        for a in acts:
            if game.turn_number != before or game.is_over:
                raise RecordError(
                    f"turn {i}: {short_repr(a)} comes after the turn ended", key="turns", turn=i
                )
            try:
                game.apply(a)
            except IllegalActionError:
                raise RecordError(f"turn {i}: {short_repr(a)} is not legal", key="turns", turn=i) from None
        if game.turn_number == before and not game.is_over and not last:
            raise RecordError(f"turn {i}: the actions do not complete the turn", key="turns", turn=i)
    return game


def replay_state(game: SubmarineGame) -> dict[str, Any]:
    """What ``python -m dsa_widget replay`` prints: the state after the record's last turn."""
    return game.state_dict()
