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

from ..core.errors import GameError, is_int, short_repr
from ..core.records import read_record, refuse
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


def _refuse(path: tuple[str | int, ...], what: str) -> GameError:
    """The platform's refusal (:func:`dsa_widget.core.records.refuse`): ``key 'K'``, ``setup key
    'K'``, ``chance key 'K'`` or ``turn N`` first, as every game's record reader says it."""
    return refuse(path, what, RecordError)


def _keys(d: Any, allowed: tuple[str, ...], where: tuple[str, ...], required: tuple[str, ...]) -> None:
    if not isinstance(d, dict):
        raise _refuse(where, "expected an object")
    for k in d:
        if k not in allowed:
            raise _refuse((*where, k), f"unknown key; the keys are {', '.join(allowed)}")
    for k in required:
        if k not in d:
            raise _refuse((*where, k), "missing")


def _setup_place(field: str) -> tuple[str, ...]:
    """Where a setup fault the rules name (``SetupError.field``) lies in a record."""
    if field == "setup":
        return ("setup",)
    if field in ("layout", "piles", "start"):
        return ("chance", "start_player" if field == "start" else field)
    if field in ("players", "seed"):
        return ("setup", field)
    return ("setup", f"options.{field}")


def load_record(source: Any) -> SubmarineGame:
    """The game a record describes, after its last turn (checked).  Every refusal is a
    :class:`RecordError` whose message starts with where the fault is, ``key 'K'``, ``setup key
    'K'``, ``chance key 'K'`` or ``turn N``, and whose ``key`` and ``turn`` say the same."""
    doc = read_record(source, FORMAT, RecordError)
    _keys(doc, _TOP, (), ("format", "setup", "turns"))
    setup = doc["setup"]
    _keys(setup, _SETUP, ("setup",), ("players",))
    seed = setup.get("seed", 0)
    if not is_int(seed) or not -_SEED <= seed < _SEED:
        raise _refuse(("setup", "seed"), "expected an int")
    players = setup["players"]
    if not (isinstance(players, list) and 2 <= len(players) <= 5) and not (is_int(players)):
        raise _refuse(("setup", "players"), "expected 2..5 names or a count")
    kwargs: dict[str, Any] = {}
    if "chance" in doc:
        chance = doc["chance"]
        _keys(chance, _CHANCE, ("chance",), _CHANCE)
        kwargs = {"layout": chance["layout"], "piles": chance["piles"], "start": chance["start_player"]}
        for k in ("layout", "piles"):
            if not isinstance(chance[k], list) or len(chance[k]) > 60:
                raise _refuse(("chance", k), "expected a list")
    try:
        game = SubmarineGame(players, seed=seed, options=setup.get("options"), **kwargs)
    except SetupError as e:
        raise _refuse(_setup_place(e.field or "setup"), str(e)) from None
    turns = doc["turns"]
    if not isinstance(turns, list):
        raise _refuse(("turns",), "expected a list")
    for i, t in enumerate(turns):
        if game.is_over:
            raise _refuse(("turns", i), "the game was already over")
        if not isinstance(t, dict) or set(t) != {"seat", "actions"}:
            raise _refuse(("turns", i), "expected {'seat', 'actions'}")
        acts = t["actions"]
        if not isinstance(acts, list) or not acts:
            raise _refuse(("turns", i), "'actions' is a non-empty list")
        if not all(isinstance(a, str) and len(a) <= MAX_ACTION_CHARS for a in acts):
            raise _refuse(("turns", i), "every action is a short string")
        seat = t["seat"]
        if type(seat) is not int:  # a seat is a whole number: not true, not 1.0
            raise _refuse(("turns", i), f"seat {short_repr(seat)} is not a seat number")
        if seat != game.to_move:
            raise _refuse(("turns", i), f"seat {short_repr(t['seat'])} is not to move")
        last = i == len(turns) - 1
        before = game.turn_number
        for a in acts:
            if game.turn_number != before or game.is_over:
                raise _refuse(("turns", i), f"{short_repr(a)} comes after the turn ended")
            try:
                game.apply(a)
            except IllegalActionError:
                raise _refuse(("turns", i), f"{short_repr(a)} is not legal") from None
        if game.turn_number == before and not game.is_over and not last:
            raise _refuse(("turns", i), "the actions do not complete the turn")
    return game


def replay_state(game: SubmarineGame) -> dict[str, Any]:
    """What ``python -m dsa_widget replay`` prints: the state after the record's last turn."""
    return game.state_dict()
