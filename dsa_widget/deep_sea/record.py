"""Game records (RECORD.md): save a game, load one, replay it.

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], path=[(1, 0), (1, 1), (2, 5), (3, 9)], rounds=1)
>>> g.play_turn(dice=(1, 1), search="take")
>>> rec = g.to_record()
>>> rec["turns"]
[{'dice': [1, 1], 'search': 'take'}]
>>> load_record(rec).state_dict() == g.state_dict()
True
>>> load_record({"format": FORMAT, "setup": {"players": 9, "seed": 1}})
Traceback (most recent call last):
...
dsa_widget.deep_sea.errors.RecordError: setup key 'players': 9 players given; the game takes 2 to 6
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..core import records
from ..core.errors import is_int, short_repr
from .errors import IllegalActionError, RecordError, SetupError
from .setup import Setup

if TYPE_CHECKING:
    from .rules import Game

__all__ = ["FORMAT", "game_to_record", "load_record", "play_record_turn", "read_record"]

FORMAT = "deep-sea-adventure/record@1"
_SETUP_KEYS = ("players", "air", "rounds", "first_player", "path", "seed", "options")
_TURN_KEYS = ("back", "dice", "search", "player", "sink")


def read_record(source: Any) -> dict[str, Any]:
    """A record as a dict from a dict, JSON text, a path or a file object (checked as every
    record document is, :func:`dsa_widget.core.records.read_document`: a fault is refused
    naming the turn or the key where it lies)."""
    return records.read_record(source, None, RecordError)


def setup_from_record(setup: Any) -> Setup:
    """The :class:`Setup` a record's ``setup`` object describes (errors name the key)."""
    if not isinstance(setup, Mapping):
        raise RecordError("setup key 'setup': missing, or not an object", key="setup")
    for key in setup:
        if key not in _SETUP_KEYS:
            raise RecordError(f"setup key {key!r}: unknown key; keys are {', '.join(_SETUP_KEYS)}", key=key)
    if "players" not in setup:
        raise RecordError("setup key 'players': required", key="players")
    if "path" not in setup and "seed" not in setup:
        raise RecordError(
            "setup key 'path': a record holds its path, or the seed that shuffles it; it has neither",
            key="path",
        )
    try:
        return Setup.create(**{k: setup[k] for k in setup})
    except SetupError as e:
        raise RecordError(str(e), key=e.field) from None


def load_record(source: Any, *, events: bool = True) -> Game:
    """Check a record and return the game it describes, after its last turn.

    Raises :class:`RecordError` naming the setup key or the turn (from 1) at fault.
    """
    from .rules import Game

    doc = records.read_record(source, FORMAT, RecordError)
    unknown = sorted(set(doc) - {"format", "setup", "turns"})
    if unknown:
        raise RecordError(
            f"key {unknown[0]!r}: unknown; a record has format, setup and turns", key=unknown[0]
        )
    setup = setup_from_record(doc.get("setup"))
    turns = doc.get("turns", [])
    if not isinstance(turns, list):
        raise RecordError("key 'turns': must be a list of turns", key="turns")
    game = Game(setup, events=events)
    for k, turn in enumerate(turns, start=1):
        try:
            play_record_turn(game, turn)
        except IllegalActionError as e:
            raise RecordError(f"turn {k}: {e}", turn=k) from None
    return game


def play_record_turn(game: Game, turn: Any) -> None:
    """Play one turn as a record writes it, checked as a whole (the one place a record's turn
    becomes moves: loading, history frames and timelines all come here).

    Raises :class:`~dsa_widget.deep_sea.errors.IllegalActionError` saying what is wrong; the
    game is unchanged.
    """
    if not isinstance(turn, Mapping):
        raise IllegalActionError(f"a turn is an object, got {turn!r}")
    for key in turn:
        if key not in _TURN_KEYS:
            raise IllegalActionError(f"unknown key {key!r}; a turn has back, dice, search, sink and player")
    if game.is_over:
        raise IllegalActionError("the game is already over")
    if "player" in turn:
        seat = turn["player"]
        if not is_int(seat):
            raise IllegalActionError(f"player must be a seat index, got {short_repr(seat)}")
        if seat != game.current_player:
            raise IllegalActionError(
                f"player {short_repr(seat)} given, but it is seat {game.current_player}'s turn "
                f"({game.players[game.current_player]})"  # type: ignore[index]
            )
    if "dice" not in turn:
        raise IllegalActionError("dice missing; every turn rolls")
    search = turn.get("search", "none")
    if not (search in ("none", "take") or (isinstance(search, Mapping) and set(search) == {"drop"})):
        raise IllegalActionError(f'search must be "none", "take" or {{"drop": i}}, got {json.dumps(search)}')
    game.play_turn(back=turn.get("back", False), dice=turn["dice"], search=search, sink=turn.get("sink"))


def game_to_record(game: Game) -> dict[str, Any]:
    setup = game.setup.to_dict()
    if game.setup.seed is not None:
        setup["seed"] = game.setup.seed
    return {"format": FORMAT, "setup": setup, "turns": game.history}


def for_replay(doc: Mapping[str, Any]) -> Game:
    """The game a record describes, for ``replay`` (no event log: nobody reads it there)."""
    return load_record(doc, events=False)


def replay_state(game: Game) -> dict[str, Any]:
    """What ``python -m dsa_widget replay`` prints: the state after the record's last turn."""
    return game.state_dict()
