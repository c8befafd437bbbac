"""The record contract every registered game keeps (issue 32, "records to the letter"), run once
per game of the game registry; nothing here names a game.

RECORD.md: "A record that breaks a rule, or is not a valid record, prints nothing on standard
output, writes one line on standard error naming the turn (counted from 1) or the setup key and
what is wrong, and exits with status 2.  The same check raises a clear exception when a record is
loaded from Python."  And: "a record the package writes, the package reads back".

* every record ``to_record()`` writes (seeded random games, every player count) replays to the
  same final state;
* a record the game wrote, then damaged (hypothesis: keys deleted, values replaced by ``null``,
  ``NaN``, ``true``, ``1.0``, ``-1``, huge integers, strings, nested lists; keys written twice;
  the text cut short; turns reordered, dropped or repeated; lone surrogates in names) either
  replays or raises the game's ``RecordError`` (a ``ValueError``) whose message starts by naming
  the turn, the setup key or the key at fault; never any other exception;
* ``python -m dsa_widget replay`` on such a file prints nothing, exits 2 and writes exactly one
  line on standard error, naming where.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import pickle
import random
import re
import tempfile
from typing import Any

import pytest
from helpers import random_step, replay_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget.cli import main as cli_main
from dsa_widget.core.errors import GameError, RecordError
from dsa_widget.core.records import replay
from dsa_widget.core.registry import GameSpec, games

GAMES = games()
IDS = [g.name for g in GAMES]
#: at most this many actions a drawn game plays before it goes on to the next turn boundary
MAX_STEPS = 400
#: a game "played to its end" stops at the first turn boundary after this many actions (random
#: play of some Submarine options may sail on for thousands of turns: SUBMARINE.md §8 #30)
LONGEST = 20_000

#: how every refusal starts: where the fault is (RECORD.md: "naming the turn (counted from 1)
#: or the setup key"; the other formats' documents add a section's key and a top-level key)
PLACE = re.compile(r"(turn [1-9][0-9]*|(setup|chance) key '[^']*'|key '[^']*'): \S")
#: a text broken off where no key can be named (in its top object, between keys) says "record:"
WHOLE = re.compile(r"record: \S")


def record_error(spec: GameSpec) -> type[GameError]:
    """The game's own record error (every game's package exports its ``RecordError``)."""
    err: type[GameError] = importlib.import_module(f"dsa_widget.{spec.folder}").RecordError
    assert issubclass(err, RecordError) and issubclass(err, ValueError)
    return err


def played(spec: GameSpec, seed: int, players: int, steps: int | None) -> Any:
    """A seeded game of ``players`` seats, its rule options drawn with ``seed``, played by
    random legal moves for ``steps`` actions (``None``: to its end, or :data:`LONGEST`), then
    on to a turn boundary (what a record replays to)."""
    rng = random.Random(seed)
    options = {
        o.key: rng.choice(o.choices)[0] for o in spec.option_schema() if o.choices and rng.random() < 0.5
    }
    setup: dict[str, Any] = {"players": players, "seed": seed}
    if options:
        setup["options"] = options
    try:
        g = spec.new_game(**setup)
    except GameError:  # options that do not go together
        g = spec.new_game(players=players, seed=seed)
    done, limit = 0, LONGEST if steps is None else steps
    while not g.is_over and (done < limit or not g.at_turn_boundary):
        random_step(g, rng)
        done += 1
    return g


def shown(spec: GameSpec, g: Any) -> str:
    """What ``replay`` prints for ``g``, and every seat's view: equal texts, equal games."""
    views = [g.view(q).to_dict() for q in range(len(g.players))]
    return json.dumps([spec.show(g), views], sort_keys=True, default=str)


SEATS = [(spec, n) for spec in GAMES for n in range(spec.seats[0], spec.seats[1] + 1)]
SEAT_IDS = [f"{spec.name}-{n}" for spec, n in SEATS]


# ---------------------------------------------------------------------- what is written is read


@pytest.mark.parametrize(("spec", "players"), SEATS, ids=SEAT_IDS)
@settings(max_examples=6, deadline=None)
@given(seed=st.integers(0, 2**31), steps=st.none() | st.integers(0, MAX_STEPS))
def test_every_record_to_record_writes_replays_to_the_same_state(
    spec: GameSpec, players: int, seed: int, steps: int | None
) -> None:
    g = played(spec, seed, players, steps)
    text = json.dumps(g.to_record())
    back = spec.from_record(json.loads(text))
    assert shown(spec, back) == shown(spec, g)
    assert json.dumps(back.to_record()) == text  # and writes the very same record again
    assert replay(text) == json.loads(json.dumps(spec.show(g)))


# ---------------------------------------------------------------------- damaged records

#: values put in place of a part of a record: a JSON value, or ``Raw`` text written as it is
_HUGE = 2**70


class Raw:
    """JSON text to write in place of a value (what ``json.dumps`` never writes)."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"Raw({self.text[:30]!r})"


VALUES: list[Any] = [
    None,
    True,
    False,
    1.0,
    2.0,
    -1,
    0,
    _HUGE,
    -(10**30),
    "",
    "x",
    "take",
    "\ud800",
    [],
    {},
    [[[[[[[[]]]]]]]],
    {"x": 1},
    [1, 1],
    Raw("NaN"),
    Raw("-Infinity"),
    Raw("1e999"),
    Raw("9" * 5000),
    Raw("[" * 40 + "]" * 40),
    Raw("[" * 3000 + "]" * 3000),
]

KINDS = (
    "delete",
    "set",
    "nudge",
    "twice",
    "cut text",
    "cut turns",
    "swap turns",
    "drop turn",
    "repeat turn",
    "surrogate name",
)


#: damage a game does not refuse yet, and why (each is an open item of its issue)
PENDING: set[tuple[str, str]] = set()


def _places(doc: Any) -> list[tuple[Any, Any]]:
    """Every (container, key or index) of ``doc``, in document order."""
    out: list[tuple[Any, Any]] = []

    def walk(x: Any) -> None:
        items = x.items() if isinstance(x, dict) else enumerate(x) if isinstance(x, list) else ()
        for k, v in items:
            out.append((x, k))
            walk(v)

    walk(doc)
    return out


def damaged(record: dict[str, Any], kind: str, pick: int, value: Any) -> str:
    """The text of ``record`` damaged one way (``kind``), at the part ``pick`` chooses."""
    doc = json.loads(json.dumps(record))
    raw: dict[str, str] = {}

    def put(where: Any, key: Any, v: Any) -> None:
        if isinstance(v, Raw):
            raw[f"@@raw{len(raw)}@@"] = v.text
            v = f"@@raw{len(raw) - 1}@@"
        where[key] = v

    places = _places(doc)
    where, key = places[pick % len(places)]
    turns = doc.get("turns") if isinstance(doc.get("turns"), list) else []
    k = pick % max(1, len(turns))
    if kind == "delete" and isinstance(where, dict):
        del where[key]
    elif kind == "set":
        put(where, key, value)
    elif kind == "nudge":
        old = where[key]
        if isinstance(old, bool):
            where[key] = not old
        elif isinstance(old, int):
            where[key] = old + (1 if pick % 2 else -1)
        elif isinstance(old, str):
            where[key] = old + " 1"
        else:
            put(where, key, value)
    elif kind == "twice" and isinstance(where, dict):
        other = "x" if isinstance(value, Raw) or value is None else value
        put(where, key, Raw(f"{json.dumps(where[key])}, {json.dumps(key)}: {json.dumps(other)}"))
    elif kind == "cut turns" and turns:
        del turns[k:]
    elif kind == "swap turns" and len(turns) > 1:
        j = (k + 1 + pick // 7) % len(turns)
        turns[k], turns[j] = turns[j], turns[k]
    elif kind == "drop turn" and turns:
        del turns[k]
    elif kind == "repeat turn" and turns:
        turns.insert(k, turns[k])
    elif kind == "surrogate name":
        setup = doc["setup"]
        names = setup["players"] if isinstance(setup["players"], list) else None
        if names is None:
            names = setup["players"] = [f"P{i}" for i in range(setup["players"])]
        names[pick % len(names)] = "\udfff" + names[pick % len(names)][:10]
    text = json.dumps(doc)
    for mark, t in raw.items():
        text = text.replace(json.dumps(mark), t)
    if kind == "cut text":
        text = text[: 1 + pick % (len(text) - 1)]
    return text


def _in_top_object(text: str) -> bool:
    """Whether ``text`` breaks off in its top object itself (not inside one of its values)."""
    depth, quoted, escaped = 0, False, False
    for ch in text:
        if quoted:
            quoted, escaped = (escaped or ch != '"'), (not escaped and ch == "\\")
        elif ch == '"':
            quoted = True
        elif ch in "{[":
            depth += 1
        elif ch in "}]":
            depth -= 1
    return depth <= 1


def check_refused(text: str, message: str) -> None:
    """A refusal's message says where, in one line of bounded length."""
    assert len(message) < 600, message
    if not PLACE.match(message):
        # only a text that breaks off where no key can be named (in the top object itself,
        # between its keys) may speak of the record as a whole
        assert WHOLE.match(message) and _in_top_object(text), message


def loads_or_refuses(spec: GameSpec, text: str) -> str | None:
    """``None`` when the game's reader takes ``text``; else its refusal, checked.  Any
    exception but the game's record error fails the test."""
    try:
        spec.from_record(text)  # type: ignore[arg-type]  # a reader takes the text itself too
    except record_error(spec) as e:
        check_refused(text, str(e))
        assert isinstance(e.turn, int) or e.turn is None
        return str(e)
    return None


def replay_command(path: str) -> tuple[int, str, str]:
    """``python -m dsa_widget replay PATH`` run in this process: exit status, output, errors."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli_main(["replay", path])
    return code, out.getvalue(), err.getvalue()


def check_command(spec: GameSpec, text: str, refusal: str | None) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "record.json")
        with open(path, "w", encoding="utf-8", errors="surrogatepass") as f:
            f.write(text)
        code, out, err = replay_command(path)
    if refusal is None:
        assert code == 0 and not err and isinstance(json.loads(out), dict)
        return
    assert (code, out) == (2, ""), err
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    check_refused(text, lines[0].removeprefix("error: "))


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 2**31),
    steps=st.integers(0, 120),
    kind=st.sampled_from(KINDS),
    pick=st.integers(0, 2**20),
    value=st.sampled_from(VALUES),
)
def test_a_damaged_record_replays_or_is_refused_naming_where(
    spec: GameSpec, seed: int, steps: int, kind: str, pick: int, value: Any
) -> None:
    lo, hi = spec.seats
    g = played(spec, seed, lo + seed % (hi - lo + 1), steps)
    text = damaged(g.to_record(), kind, pick, value)
    refusal = loads_or_refuses(spec, text)
    if kind == "surrogate name" and (spec.name, kind) not in PENDING:
        # issue 32: "names must be encodable (no lone surrogates)"
        assert refusal is not None and "setup key 'players': " in refusal, refusal
    check_command(spec, text, refusal)


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_the_command_line_refuses_a_damaged_record_in_one_line(spec: GameSpec, tmp_path: Any) -> None:
    """The same through a real ``python -m dsa_widget replay`` process (nothing else it loads
    may write to standard error): a value made ``null`` in the last turn, and a key no turn
    has."""
    g = played(spec, 7, spec.default_players, 30)
    record = g.to_record()
    last = len(record["turns"])
    null_place = next(i for i, (where, _) in enumerate(_places(record)) if where is record["turns"][-1])
    unknown = json.loads(json.dumps(record))
    unknown["turns"][-1]["zz"] = 1
    for text, where in (
        (damaged(record, "set", null_place, None), f"turn {last}: "),
        (json.dumps(unknown), f"turn {last}: "),
    ):
        f = tmp_path / "record.json"
        f.write_text(text)
        out = replay_cli(str(f))
        assert (out.returncode, out.stdout) == (2, ""), out.stderr
        lines = out.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith(f"error: {where}"), out.stderr


def _int_places(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path of every integer in ``doc`` (not the booleans)."""
    if isinstance(doc, bool):
        return []
    if isinstance(doc, int):
        return [path]
    items = doc.items() if isinstance(doc, dict) else enumerate(doc) if isinstance(doc, list) else ()
    return [p for k, v in items for p in _int_places(v, (*path, k))]


def _where(path: tuple[Any, ...]) -> tuple[str, ...]:
    """How a refusal of the value at ``path`` starts: its turn, or its key, in the platform's
    words (:func:`dsa_widget.core.records.refuse`), the same in every game."""
    if path[0] == "turns":
        return (f"turn {path[1] + 1}: ",)
    if len(path) > 1:
        return (f"{path[0]} key '{path[1]}",)
    return (f"key '{path[0]}': ",)


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_a_seat_an_index_or_a_count_is_never_a_boolean_nor_a_float(spec: GameSpec) -> None:
    """Issue 32: "a seat, an index or a count is an integer, never a boolean or a float":
    every integer of a record the game wrote, made ``true`` (or ``false``) or ``1.0``, is
    refused, naming its turn or setup key."""
    lo, hi = spec.seats
    for seed in range(2):
        record = json.loads(json.dumps(played(spec, seed, lo + seed % (hi - lo + 1), 60).to_record()))
        for path in _int_places(record):
            old = record
            for k in path[:-1]:
                old = old[k]
            value = old[path[-1]]
            for wrong in (float(value), value == 0):
                old[path[-1]] = wrong
                refusal = loads_or_refuses(spec, json.dumps(record))
                assert refusal is not None, (path, wrong)
                assert refusal.startswith(_where(path)), (path, wrong, refusal)
            old[path[-1]] = value


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_every_game_saves_to_a_file_that_it_and_replay_read_back(spec: GameSpec, tmp_path: Any) -> None:
    """``g.save(path)`` is every game's way to write its record from a cell (Submarine had only
    ``record.save(g, path)``): the file holds ``to_record()``, ``from_record(path)`` and
    ``replay`` read it back to the same game."""
    g = played(spec, seed=5, players=spec.seats[0], steps=30)
    path = tmp_path / "game.json"
    g.save(str(path))
    assert json.loads(path.read_text(encoding="utf-8")) == json.loads(json.dumps(g.to_record()))
    back = type(g).from_record(str(path))
    assert shown(spec, back) == shown(spec, g)
    assert replay(path) == spec.show(g)


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_every_game_has_state_dict_which_is_what_replay_prints(spec: GameSpec) -> None:
    """``g.state_dict()`` is what ``replay`` prints, in every game (The Crew had only the
    module function ``record.state_dict(g)``)."""
    g = played(spec, seed=6, players=spec.seats[0], steps=20)
    assert json.dumps(g.state_dict(), sort_keys=True) == json.dumps(spec.show(g), sort_keys=True)


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_a_record_without_its_format_says_the_key_is_missing(spec: GameSpec) -> None:
    """A record whose ``format`` key is left out (or misspelt) is refused as missing it, by the
    game's loader and by ``replay``: both said 'got None' / 'unknown record format None', as if
    the file had named a format called None."""
    doc = dict(played(spec, seed=7, players=spec.seats[0], steps=5).to_record())
    doc["formt"] = doc.pop("format")
    with pytest.raises(GameError, match="key 'format': missing") as err:
        replay(doc)
    assert "None" not in str(err.value)
    with pytest.raises(record_error(spec), match="key 'format': expected '.*', it is missing") as mine:
        spec.from_record(doc)
    # one family: the platform's RecordError catches both, and each comes back whole from a
    # worker process (pickled), where it says what went wrong
    for e in (err.value, mine.value):
        assert isinstance(e, RecordError)
        back = pickle.loads(pickle.dumps(e))
        assert (type(back), str(back), back.key, back.turn) == (type(e), str(e), e.key, e.turn)
