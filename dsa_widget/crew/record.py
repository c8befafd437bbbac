"""Records of *The Crew: Mission Deep Sea* (docs/CREW_RECORD.md): save an attempt, load one, replay it.

A record is ``{"format", "setup", "chance", "turns"}``: how the attempt was set up, what chance
gave it (the terrain card, the deal, the tasks in draw order: always written out once dealt, so
a record replays without re-deriving them), and every turn: one action with its seat.  Loading checks
everything and raises :class:`~dsa_widget.crew.errors.RecordError` naming the key or the turn
(counted from 1); ``python -m dsa_widget replay FILE`` prints :func:`state_dict` of the result.

>>> from dsa_widget.crew.rules import CrewGame
>>> g = CrewGame(["Ann", "Bob", "Cy"], seed=5, target=2)
>>> g.apply(g.legal_actions()[0])
>>> rec = game_to_record(g)
>>> sorted(rec), rec["setup"]["seed"], rec["turns"]
(['chance', 'format', 'setup', 'turns'], 5, [{'seat': 1, 'action': 'take 56'}])
>>> back = load_record(json.dumps(rec))
>>> state_dict(back) == state_dict(g) and back.view(0) == g.view(0)
True
>>> rec["turns"][0]["action"] = "take 96"
>>> try:
...     load_record(rec)
... except RecordError as e:
...     print(e.turn, str(e)[:30])
1 turn 1: 'take 96' is not legal
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core import records
from ..core.errors import is_int, short_repr
from ..core.records import is_count
from .cards import DECK, NCARDS, CardError, card
from .draw import deal_exception
from .errors import IllegalActionError, RecordError, SetupError
from .mission import Mission
from .options import OPTIONS

if TYPE_CHECKING:
    from .rules import CrewGame

__all__ = [
    "FORMAT",
    "MAX_TURNS",
    "MAX_TARGET",
    "game_to_record",
    "load_record",
    "read_record",
    "save",
    "state_dict",
]

FORMAT = "the-crew-deep-sea/record@1"
#: the most turns (actions) a record may hold: a real attempt has a few hundred at most; a turn of
#: the proposal step costs the engine milliseconds (it lists the proposals), so 2,000 turns replay
#: in a few seconds whatever they are
MAX_TURNS = 2_000
#: the longest action string accepted (a proposal of ten tasks is about 60 characters)
MAX_ACTION_CHARS = 256
_TOP_KEYS = ("format", "setup", "chance", "turns")
_SETUP_KEYS = (
    "players",
    "seed",
    "options",
    "target",
    "mission",
    "campaign",
    "timed",
    "attempt",
    "distress_used",
    "unavoidable_failures",
    "deal_check",
    "assignment",
)
_CHANCE_KEYS = ("terrain", "deal", "tasks")
_TURN_KEYS = ("seat", "action")
_TIMING = "timing"
_S4 = "S4"
_SEED_MIN, _SEED_MAX = -(2**63), 2**63 - 1
#: the largest difficulty target a record may ask to draw: drawing grows steeply with the target
#: (about 1 s at 50, 3 s at 60, 100 s at 250), so a record cannot ask for minutes of work
MAX_TARGET = 50
#: the last campaign mission a record may name (mission n > 32 draws to target n - 15)
_MAX_CAMPAIGN = MAX_TARGET + 15
_MAX_COUNTER = 1000
_MAX_NAME = 64


# ------------------------------------------------------------------------------------ helpers


def _setup_error(key: str, what: str) -> RecordError:
    return RecordError(f"setup key {key!r}: {what}", key=f"setup.{key}")


def _chance_error(key: str, what: str) -> RecordError:
    return RecordError(f"chance key {key!r}: {what}", key=f"chance.{key}")


def read_record(source: Any) -> dict[str, Any]:
    """A record as a dict from a dict, JSON text or bytes, a path or a file object, checked as
    every record document is (:func:`dsa_widget.core.records.read_document`: a fault is refused
    naming the turn or the key where it lies)."""
    return records.read_record(source, None, RecordError)


# ------------------------------------------------------------------------------------ writing


def _options_json(options: Mapping[str, Any]) -> dict[str, Any]:
    return {k: (list(v) if isinstance(v, tuple) else v) for k, v in options.items()}


def _mission_json(m: Mission) -> dict[str, Any]:
    """The mission's fields that are not ``None`` (a record never holds ``null``)."""
    return {k: v for k, v in m.to_dict().items() if v is not None}


def _engine_facts(game: CrewGame) -> dict[str, Any]:
    """What a record needs beyond the setup accessors: the campaign number, ``deal_check``, and
    whether the seed alone gives the attempt's chance outcomes (CrewGame's public properties)."""
    return {"campaign": game.campaign, "deal_check": game.deal_check, "seed_gives_deal": game.seed_gives_deal}


def game_to_record(game: CrewGame) -> dict[str, Any]:
    """The attempt as a record (JSON-ready, no ``null`` anywhere; docs/CREW_RECORD.md).

    The seed is written when it, with the setup, gives the chance outcomes (a game made from a
    seed); a game given an explicit deal, tasks or terrain, or one whose generator continued from
    an earlier attempt (``next_attempt``), is written with its chance outcomes only.
    """
    facts = _engine_facts(game)
    dealt = game.step != _TIMING
    setup: dict[str, Any] = {"players": [game.players[s] for s in game.humans]}
    if facts["seed_gives_deal"] or not dealt:
        setup["seed"] = game.seed
    setup["options"] = _options_json(game.options)
    campaign = facts["campaign"]
    if campaign is not None:
        setup["campaign"] = campaign
    elif game.mission.target is not None and game.mission == Mission(target=game.mission.target):
        setup["target"] = game.mission.target
    else:
        setup["mission"] = _mission_json(game.mission)
    if game.timed_arg is not None:
        setup["timed"] = game.timed_arg
    setup["attempt"] = game.attempt
    setup["distress_used"] = game.distress_before
    if game.unavoidable_before:
        setup["unavoidable_failures"] = game.unavoidable_before
    if not facts["deal_check"]:
        setup["deal_check"] = False
    if game.explicit_assignment is not None:
        setup["assignment"] = {str(t): s for t, s in sorted(game.explicit_assignment.items())}
    rec: dict[str, Any] = {"format": FORMAT, "setup": setup}
    if dealt:
        chance: dict[str, Any] = {}
        if game.terrain is not None:
            chance["terrain"] = game.terrain
        chance["deal"] = [list(h) for h in game.dealt]
        chance["tasks"] = list(game.task_ids)
        rec["chance"] = chance
    rec["turns"] = [{"seat": s, "action": a} for s, a in game.actions]
    return rec


def save(game: CrewGame, file: Any) -> None:
    """Write the attempt's record as JSON to a path or a text file object."""
    text = json.dumps(game_to_record(game), indent=1)
    if hasattr(file, "write"):
        file.write(text)
    else:
        with open(os.fspath(file), "w", encoding="utf-8") as f:
            f.write(text)


# ------------------------------------------------------------------------------------ reading


def _seats_of(players: Any) -> int:
    n = players if is_int(players) else len(players)
    return 3 if n == 2 else int(n)


def _check_players(setup: Mapping[str, Any]) -> Any:
    if "players" not in setup:
        raise _setup_error("players", "required")
    p = setup["players"]
    if is_int(p):
        if not 2 <= p <= 5:
            raise _setup_error("players", f"{short_repr(p)} players given; the game takes 2 to 5")
        return p
    if not isinstance(p, list) or not 2 <= len(p) <= 5:
        raise _setup_error("players", f"must be 2 to 5 names or a number 2 to 5, got {short_repr(p)}")
    for i, name in enumerate(p):
        problem = records.name_problem(name, _MAX_NAME)
        if problem:
            raise _setup_error("players", f"name {i + 1} {problem}")
    return list(p)


def _check_options(setup: Mapping[str, Any]) -> dict[str, Any] | None:
    if "options" not in setup:
        return None
    o = setup["options"]
    if not isinstance(o, Mapping):
        raise _setup_error("options", f"must be an object of rule options, got {short_repr(o)}")
    for k, v in o.items():
        if k not in OPTIONS:
            raise _setup_error("options", f"unknown option {short_repr(k)}; known: {', '.join(OPTIONS)}")
        allowed = OPTIONS[k]
        vv = tuple(v) if isinstance(v, list) else v
        # compare by type too: True is not 1, and [2, 2, 3.0] is not [2, 2, 3]
        if not any(type(vv) is type(a) and vv == a and _same_types(vv, a) for a in allowed):
            shown = ", ".join(json.dumps(list(a) if isinstance(a, tuple) else a) for a in allowed)
            raise _setup_error("options", f"option {k!r} must be one of {shown}, got {short_repr(v)}")
    return dict(o)


def _same_types(a: Any, b: Any) -> bool:
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(type(x) is type(y) for x, y in zip(a, b, strict=True))
    return True


def _check_mission(setup: Mapping[str, Any]) -> dict[str, Any]:
    """The CrewGame keywords of ``target`` / ``mission`` / ``campaign`` (at most one of them)."""
    given = [k for k in ("target", "mission", "campaign") if k in setup]
    if len(given) > 1:
        raise _setup_error(given[1], f"give one of target, mission and campaign, not {' and '.join(given)}")
    if not given:
        return {}
    key = given[0]
    v = setup[key]
    if key == "target":
        if not is_count(v, 0, MAX_TARGET):
            raise _setup_error("target", f"must be an integer from 0 to {MAX_TARGET}, got {short_repr(v)}")
        return {"target": v}
    if key == "campaign":
        if not is_count(v, 1, _MAX_CAMPAIGN):
            raise _setup_error(
                "campaign", f"must be a mission number from 1 to {_MAX_CAMPAIGN}, got {short_repr(v)}"
            )
        return {"campaign": v}
    if not isinstance(v, Mapping):
        raise _setup_error("mission", f"must be an object (CREW.md 6.1), got {short_repr(v)}")
    for k in ("target", "volunteers", "comm_from_trick", "comm_until_trick", "timer_seconds"):
        if k in v and not is_count(v[k], 0, 10**9):
            raise _setup_error("mission", f"{k} must be an integer, got {short_repr(v[k])}")
    for k in ("allocation", "communication"):
        if k in v and not isinstance(v[k], str):
            raise _setup_error("mission", f"{k} must be a string, got {short_repr(v[k])}")
    for k in ("fixed_tasks", "constraints"):
        if k in v and not isinstance(v[k], list):
            raise _setup_error("mission", f"{k} must be a list, got {short_repr(v[k])}")
    if "untimed" in v and not isinstance(v["untimed"], Mapping):
        raise _setup_error("mission", f"untimed must be an object, got {short_repr(v['untimed'])}")
    for where, t in (("target", v.get("target")), ("untimed.target", (v.get("untimed") or {}).get("target"))):
        if t is not None and not is_count(t, 0, MAX_TARGET):
            raise _setup_error(
                "mission", f"{where} must be an integer from 0 to {MAX_TARGET}, got {short_repr(t)}"
            )
    try:
        return {"mission": Mission.from_dict(v)}
    except SetupError as e:
        raise _setup_error("mission", str(e)) from None
    except (TypeError, ValueError, KeyError) as e:  # a shape Mission's checks did not foresee
        raise _setup_error("mission", f"not a valid mission ({type(e).__name__})") from None


def _check_setup(setup: Any) -> tuple[dict[str, Any], int]:
    """CrewGame keywords from a record's ``setup`` (everything but the chance), and the seat count."""
    if not isinstance(setup, Mapping):
        raise RecordError(f"key 'setup': must be an object, got {short_repr(setup)}", key="setup")
    for key in setup:
        if key not in _SETUP_KEYS:
            raise _setup_error(key, f"unknown key; setup keys are {', '.join(_SETUP_KEYS)}")
    kw: dict[str, Any] = {"players": _check_players(setup)}
    seats = _seats_of(kw["players"])
    if "seed" in setup and not is_count(setup["seed"], _SEED_MIN, _SEED_MAX):
        raise _setup_error(
            "seed", f"must be an integer from -2**63 to 2**63 - 1, got {short_repr(setup['seed'])}"
        )
    kw["options"] = _check_options(setup)
    kw.update(_check_mission(setup))
    if "timed" in setup:
        if not isinstance(setup["timed"], bool):
            raise _setup_error("timed", f"must be true or false, got {short_repr(setup['timed'])}")
        kw["timed"] = setup["timed"]
    if "attempt" in setup:
        if not is_count(setup["attempt"], 1, _MAX_COUNTER):
            raise _setup_error(
                "attempt", f"must be an integer from 1 to {_MAX_COUNTER}, got {short_repr(setup['attempt'])}"
            )
        kw["attempt"] = setup["attempt"]
    if "distress_used" in setup:
        if not is_count(setup["distress_used"], 0, _MAX_COUNTER):
            raise _setup_error(
                "distress_used",
                f"must be an integer from 0 to {_MAX_COUNTER}, got {short_repr(setup['distress_used'])}",
            )
        kw["distress_used"] = setup["distress_used"]
    if "unavoidable_failures" in setup:
        u = setup["unavoidable_failures"]
        if not is_count(u, 0, _MAX_COUNTER):
            raise _setup_error(
                "unavoidable_failures", f"must be an integer from 0 to {_MAX_COUNTER}, got {short_repr(u)}"
            )
        kw["unavoidable_failures"] = u
    if "deal_check" in setup:
        if not isinstance(setup["deal_check"], bool):
            raise _setup_error("deal_check", f"must be true or false, got {short_repr(setup['deal_check'])}")
        kw["deal_check"] = setup["deal_check"]
    if "assignment" in setup:
        a = setup["assignment"]
        if not isinstance(a, Mapping) or not a:
            raise _setup_error("assignment", f"must be an object of task ids to seats, got {short_repr(a)}")
        out: dict[int, int] = {}
        for t, s in a.items():
            if not (t.isdigit() and t == str(int(t)) and 1 <= int(t) <= 96):
                raise _setup_error("assignment", f"{short_repr(t)} is not a task id 1-96 written in decimal")
            if not is_count(s, 0, seats - 1):
                raise _setup_error("assignment", f"task {t}: {short_repr(s)} is not a seat 0-{seats - 1}")
            out[int(t)] = s
        kw["assignment"] = out
    return kw, seats


def _check_chance(chance: Any, seats: int, players: Any, options: Mapping[str, Any] | None) -> dict[str, Any]:
    """The chance outcomes, checked for shape: ``{"terrain"?, "deal"?, "tasks"?}`` as given."""
    if not isinstance(chance, Mapping):
        raise RecordError(f"key 'chance': must be an object, got {short_repr(chance)}", key="chance")
    for key in chance:
        if key not in _CHANCE_KEYS:
            raise _chance_error(key, f"unknown key; chance keys are {', '.join(_CHANCE_KEYS)}")
    out: dict[str, Any] = {}
    if "terrain" in chance:
        t = chance["terrain"]
        if not (isinstance(t, str) and t in DECK[:36]):
            raise _chance_error("terrain", f"must be a coloured card id like 'G7', got {short_repr(t)}")
        out["terrain"] = t
    if "deal" in chance:
        out["deal"] = _check_deal(chance["deal"], seats, players, options)
    if "tasks" in chance:
        ts = chance["tasks"]
        if not isinstance(ts, list) or len(ts) > 96:
            raise _chance_error("tasks", f"must be a list of task ids in draw order, got {short_repr(ts)}")
        seen: set[int] = set()
        for i, t in enumerate(ts):
            if not is_count(t, 1, 96):
                raise _chance_error("tasks", f"task {i + 1}: {short_repr(t)} is not a task id 1-96")
            if t in seen:
                raise _chance_error("tasks", f"task {t} is drawn twice")
            seen.add(t)
        out["tasks"] = list(ts)
    return out


def _dummy_seat(players: Any, options: Mapping[str, Any] | None) -> int | None:
    n = players if is_int(players) else len(players)
    if n != 2:
        return None
    order = (options or {}).get("tonoja_seat_order", OPTIONS["tonoja_seat_order"][0])
    return 2 if order == "H0-H1-T" else 1


def _check_deal(deal: Any, seats: int, players: Any, options: Mapping[str, Any] | None) -> list[list[str]]:
    if not isinstance(deal, list) or len(deal) != seats:
        raise _chance_error("deal", f"must be a list of {seats} hands (one per seat), got {short_repr(deal)}")
    dummy = _dummy_seat(players, options)
    want = {3: [13, 13, 14], 4: [10] * 4, 5: [8] * 5}[seats]
    seen: dict[str, int] = {}
    for s, hand in enumerate(deal):
        if not isinstance(hand, list) or len(hand) > 14:
            raise _chance_error(
                "deal", f"seat {s}: a hand is a list of at most 14 card ids, got {short_repr(hand)}"
            )
        for c in hand:
            if not isinstance(c, str) or c not in DECK:
                raise _chance_error("deal", f"seat {s}: {short_repr(c)} is not a card id like 'P3' or 'S4'")
            if c in seen:
                raise _chance_error("deal", f"card {c} is dealt twice (seats {seen[c]} and {s})")
            seen[c] = s
    if len(seen) != NCARDS:
        missing = [c for c in DECK if c not in seen]
        raise _chance_error("deal", f"all 40 cards must be dealt; missing {', '.join(missing[:5])}")
    sizes = [len(h) for h in deal]
    if sorted(sizes) != want:
        raise _chance_error("deal", f"hand sizes must be {want} in some order, got {sizes}")
    if dummy is not None:
        if sizes[dummy] != 14:
            raise _chance_error("deal", f"Tonoja (seat {dummy}) has 14 cards: 7 face down, then 7 face up")
        if _S4 in deal[dummy]:
            raise _chance_error("deal", "S4 is always a human's card with two players (R-4.6)")
    return [list(h) for h in deal]


def _normal_deal(deal: Sequence[Sequence[str]], dummy: int | None) -> list[list[str]]:
    """A deal with every human's hand in deck order (the order of a hand means nothing;
    Tonoja's columns keep theirs)."""
    return [list(h) if s == dummy else sorted(h, key=card) for s, h in enumerate(deal)]


def _compare_chance(game: CrewGame, chance: Mapping[str, Any], seeded: bool) -> None:
    """Once the attempt is dealt: the recorded chance outcomes must be what happened."""
    source = "the seed gives" if seeded else "the replay gives"
    if ("terrain" in chance or game.terrain is not None) and chance.get("terrain") != game.terrain:
        if game.terrain is None:
            raise _chance_error("terrain", "given, but this attempt's communication mode is not terrain")
        if not seeded and "terrain" not in chance:
            raise _chance_error("terrain", "required: the mode is terrain and the record has no seed")
        raise _chance_error(
            "terrain", f"{short_repr(chance.get('terrain'))} recorded, but {source} {game.terrain}"
        )
    if "deal" in chance:
        have = _normal_deal(game.dealt, game.dummy)
        rec = _normal_deal(chance["deal"], game.dummy)
        if have != rec:
            seat = next(s for s in range(game.seats) if have[s] != rec[s])
            raise _chance_error("deal", f"seat {seat}'s hand is not the one {source}")
    if "tasks" in chance and list(game.task_ids) != chance["tasks"]:
        raise _chance_error(
            "tasks", f"{short_repr(chance['tasks'])} recorded, but {source} {list(game.task_ids)}"
        )


def load_record(source: Any) -> CrewGame:
    """Check a record and return the attempt it describes, after its last turn.

    ``source``: a dict, JSON text or bytes, a path or a file object.  Raises
    :class:`~dsa_widget.crew.errors.RecordError` (``key``: the key at fault, like
    ``"setup.players"`` or ``"chance.deal"``; ``turn``: the turn, counted from 1); nothing else.
    """
    from .rules import CrewGame

    doc = records.read_record(source, FORMAT, RecordError)
    for key in doc:
        if key not in _TOP_KEYS:
            raise RecordError(f"key {short_repr(key)}: unknown; a record has {', '.join(_TOP_KEYS)}", key=key)
    kw, seats = _check_setup(doc.get("setup"))
    turns = doc.get("turns", [])
    if not isinstance(turns, list):
        raise RecordError(f"key 'turns': must be a list of turns, got {short_repr(turns)}", key="turns")
    if len(turns) > MAX_TURNS:
        raise RecordError(f"key 'turns': more than {MAX_TURNS:,} turns", key="turns")
    setup = doc["setup"]
    seeded = "seed" in setup
    chance = _check_chance(doc["chance"], seats, kw["players"], kw["options"]) if "chance" in doc else None
    if seeded:
        kw["seed"] = setup["seed"]
    else:
        if chance is None or "deal" not in chance or "tasks" not in chance:
            what = "the chance outcomes" if chance is None else "chance.deal and chance.tasks"
            raise _setup_error("seed", f"a record holds its seed, or {what}; it has neither")
        kw["seed"] = 0  # never drawn from: every chance outcome is given
        kw["deal"] = chance["deal"]
        kw["tasks"] = chance["tasks"]
        if "terrain" in chance:
            kw["terrain"] = chance["terrain"]
        if kw.get("deal_check", True):
            _check_deal_exception(chance["deal"], chance["tasks"])
    players = kw.pop("players")
    try:
        game = CrewGame(players, **kw)
    except SetupError as e:
        field = e.field or "setup"
        if field in ("deal", "tasks", "terrain") and not seeded:
            raise _chance_error(field, str(e)) from None
        key = field if field in _SETUP_KEYS else _setup_key_of(field)
        raise _setup_error(key, str(e)) from None
    compared = False
    if game.step != _TIMING and chance is not None:
        _compare_chance(game, chance, seeded)
        compared = True
    for k, a in enumerate(turns, start=1):
        _play(game, a, k)
        if not compared and game.step != _TIMING and chance is not None:
            try:
                _compare_chance(game, chance, seeded)
            except RecordError as e:
                raise RecordError(f"{e} (dealt at turn {k})", key=e.key) from None
            compared = True
    return game


def _setup_key_of(field: str) -> str:
    """The setup key a SetupError's field belongs to (mission fields go to the mission)."""
    return "options" if field in OPTIONS else "mission"


def _check_deal_exception(deal: Sequence[Sequence[str]], tasks: Sequence[int]) -> None:
    """A deal given without a seed must not be one R-6.10 redeals (Tonoja's 14 cards are one hand)."""
    masks = []
    for h in deal:
        m = 0
        for c in h:
            m |= 1 << card(c)
        masks.append(m)
    hit = deal_exception(masks, tasks)
    if hit is not None:
        raise _chance_error(
            "deal",
            f"seat {hit[1]}'s hand makes task {hit[0]} impossible (R-6.10): the engine redeals such a "
            f"deal (or the setup says deal_check: false)",
        )


def _play(game: CrewGame, a: Any, k: int) -> None:
    """Turn ``k`` (from 1) of a record, checked: one action of one seat."""
    if not isinstance(a, Mapping):
        raise RecordError(
            f'turn {k}: must be an object {{"seat": s, "action": a}}, got {short_repr(a)}', turn=k
        )
    for key in a:
        if key not in _TURN_KEYS:
            raise RecordError(f"turn {k}: unknown key {short_repr(key)}; a turn has seat and action", turn=k)
    if "seat" not in a or "action" not in a:
        raise RecordError(f"turn {k}: needs both seat and action", turn=k)
    seat, action = a["seat"], a["action"]
    if not is_count(seat, 0, game.seats - 1):
        raise RecordError(f"turn {k}: seat must be a seat 0-{game.seats - 1}, got {short_repr(seat)}", turn=k)
    if not isinstance(action, str) or len(action) > MAX_ACTION_CHARS:
        raise RecordError(
            f"turn {k}: action must be a string of at most {MAX_ACTION_CHARS} characters, "
            f"got {short_repr(action)}",
            turn=k,
        )
    if game.is_over:
        raise RecordError(f"turn {k}: the attempt is already over", turn=k)
    try:
        game.apply(action, seat=seat)
    except (IllegalActionError, CardError, SetupError) as e:
        raise RecordError(f"turn {k}: {e}", turn=k) from None


# ------------------------------------------------------------------------------------ the state


def _trick(number: int, leader: int, plays: Sequence[tuple[int, int]], winner: int | None) -> dict[str, Any]:
    d: dict[str, Any] = {
        "number": number,
        "leader": leader,
        "plays": [{"seat": s, "card": DECK[c]} for s, c in plays],
    }
    if winner is not None:
        d["winner"] = winner
    return d


def state_dict(game: CrewGame) -> dict[str, Any]:
    """The whole state of the attempt as JSON data (what ``replay`` prints): the truth, hidden
    cards included (docs/CREW_RECORD.md, "Replaying a record")."""
    from ..core.protocol import TERMINAL

    dealt = game.step != _TIMING
    n = game.seats
    columns = None
    if game.dummy is not None and dealt:
        columns = [{"up": u, "down": d} for u, d in game.dummy_columns]
    outcome = game.outcome
    return {
        "players": list(game.players),
        "humans": list(game.humans),
        "dummy": game.dummy,
        "seats": n,
        "tricks_total": game.tricks_total,
        "attempt": game.attempt,
        "reported_attempts": game.reported_attempts,
        "timed": game.timed,
        "communication": game.communication,
        "terrain": game.terrain,
        "captain": game.captain if dealt else None,
        "step": game.step,
        "to_move": None if game.to_move == TERMINAL else game.to_move,
        "acting_for": game.acting_for,
        "turn_number": game.turn_number,
        "legal": list(game.legal_actions()),
        "hands": [game.hand(s) for s in range(n)] if dealt else [[] for _ in range(n)],
        "dummy_columns": columns,
        "tasks": [
            {
                "id": t.id,
                "owner": t.owner,
                "status": t.status,
                "prediction": t.prediction,
                "progress": game.progress(i),
            }
            for i, t in enumerate(game.tasks)
        ],
        "tokens": list(game.tokens),
        "shared_tokens": game.shared_tokens,
        "communications": [
            {
                "seat": c.seat,
                "card": DECK[c.card],
                "position": c.position,
                "declared": c.declared,
                "trick": c.trick,
            }
            for c in game.communications
        ],
        "distress": {
            "used": game.distress_this_attempt,
            "direction": game.distress_direction,
            "cards": [list(game.distress_cards(s)) for s in range(n)],
        },
        "trick": (
            _trick(game.trick_number, game.leader, game.current_trick, None)
            if game.current_trick or (game.trick_number and outcome is None)
            else None
        ),
        "tricks": [_trick(t.number, t.leader, t.plays, t.winner) for t in game.tricks],
        "tricks_won": list(game.tricks_won),
        "outcome": None if outcome is None else outcome.as_dict(),
        "finished": game.is_over,
        "winners": list(game.winners),
    }
