"""Game records (../shared/RECORD.md): the shared worked examples, round trips, and bad records."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from helpers import random_game, replay_cli

from dsa_widget import FORMAT, Game, RecordError, load_record

ROOT = Path(__file__).resolve().parents[1]
# The hand-checked records of ../shared/records, kept in tests/records too so that the suite is
# complete on its own; when ../shared is beside the checkout, its records are replayed as well.
HERE = ROOT / "tests" / "records"
SHARED = ROOT.parent / "shared" / "records"
RECORDS = [
    p for d in (HERE, SHARED) for p in sorted(d.glob("*.json")) if not p.name.endswith(".expected.json")
]


def test_shared_records_exist():
    assert len({p.name for p in RECORDS}) >= 3, f"no records found in {HERE} or {SHARED}"


@pytest.mark.parametrize(
    "path", RECORDS, ids=lambda p: f"{'shared' if p.parent == SHARED else 'tests'}-{p.stem}"
)
def test_shared_record_replays_exactly(path: Path):
    """RECORD.md: 'records/ holds hand-checked records, each with the exact output its replay
    must print (NAME.expected.json; compare as JSON, not as text)'"""
    expected = json.loads(path.with_name(path.stem + ".expected.json").read_text())
    out = replay_cli(str(path))
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    assert json.loads(out.stdout) == expected
    # and from standard input
    out = replay_cli("-", stdin=path.read_text())
    assert json.loads(out.stdout) == expected
    # and from Python
    assert load_record(path).state_dict() == expected


@pytest.mark.parametrize("seed", [s if s < 5 else pytest.param(s, marks=pytest.mark.slow) for s in range(40)])
def test_saved_games_replay_through_the_cli(seed, tmp_path):
    """A record saved by the project always writes the path it used; live play writes the dice."""
    g = random_game(
        seed, players=2 + seed % 5, options={"drop_order": ["nearest_first", "farthest_first"][seed % 2]}
    )
    f = tmp_path / "game.json"
    g.save(f)
    rec = json.loads(f.read_text())
    assert rec["format"] == FORMAT and rec["setup"]["path"] == [list(c) for c in g.setup.path]
    assert all("dice" in t for t in rec["turns"])
    out = replay_cli(str(f))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == g.state_dict()


def test_record_stops_mid_game():
    """'A record may stop at any point; it then describes a game in progress.'"""
    g = random_game(3)
    rec = g.to_record()
    for k in (0, 1, 7, 30):
        part = {**rec, "turns": rec["turns"][:k]}
        h = load_record(part)
        assert h.turn_number == k and not h.is_over


def test_seed_without_path_shuffles_the_standard_chips():
    rec = {"format": FORMAT, "setup": {"players": 2, "seed": 9}, "turns": []}
    g = load_record(rec)
    assert g.setup.path == Game(players=2, seed=9).setup.path


def test_player_key_is_checked():
    rec = json.loads((HERE / "stacks-and-tiebreak.json").read_text())
    rec["turns"][7]["player"] = 1
    with pytest.raises(RecordError, match=r"^turn 8: player 1 given, but it is seat 2's turn"):
        load_record(rec)


BASE = {
    "format": FORMAT,
    "setup": {"players": ["Ann", "Bob"], "path": [[1, 0], [1, 1], [2, 5], [3, 9]], "rounds": 1},
    "turns": [{"dice": [1, 1], "search": "take"}, {"dice": [1, 1], "search": "take"}],
}


def _bad(mutate):
    rec = copy.deepcopy(BASE)
    mutate(rec)
    return rec


BAD_RECORDS = {
    "not json": ("{nope", r"not valid JSON"),
    "format": (_bad(lambda r: r.update(format="chess/pgn")), r"^key 'format'"),
    "unknown top key": (_bad(lambda r: r.update(moves=[])), r"^key 'moves'"),
    "no setup": (_bad(lambda r: r.pop("setup")), r"setup"),
    "players 7": (_bad(lambda r: r["setup"].update(players=7)), r"^setup key 'players': 7 players"),
    "players 1 name": (_bad(lambda r: r["setup"].update(players=["Solo"])), r"^setup key 'players'"),
    "players bool": (_bad(lambda r: r["setup"].update(players=True)), r"^setup key 'players'"),
    "players empty name": (_bad(lambda r: r["setup"].update(players=["", "Bob"])), r"^setup key 'players'"),
    "no players": (_bad(lambda r: r["setup"].pop("players")), r"^setup key 'players': required"),
    "air 0": (_bad(lambda r: r["setup"].update(air=0)), r"^setup key 'air'"),
    "air text": (_bad(lambda r: r["setup"].update(air="25")), r"^setup key 'air'"),
    "rounds 0": (_bad(lambda r: r["setup"].update(rounds=0)), r"^setup key 'rounds'"),
    "first player": (_bad(lambda r: r["setup"].update(first_player=2)), r"^setup key 'first_player'"),
    "level 5": (_bad(lambda r: r["setup"].update(path=[[5, 1]])), r"^setup key 'path': chip 1 has level 5"),
    "negative value": (_bad(lambda r: r["setup"].update(path=[[1, -1]])), r"^setup key 'path'"),
    "empty path": (_bad(lambda r: r["setup"].update(path=[])), r"^setup key 'path': is empty"),
    "chip shape": (_bad(lambda r: r["setup"].update(path=[[1, 2, 3]])), r"^setup key 'path'"),
    "unknown option": (_bad(lambda r: r["setup"].update(options={"gravity": 1})), r"^setup key 'options'"),
    "bad option value": (
        _bad(lambda r: r["setup"].update(options={"reveal": "all"})),
        r"^setup key 'options.reveal'",
    ),
    "unknown setup key": (_bad(lambda r: r["setup"].update(colour="red")), r"^setup key 'colour'"),
    "seed text": (_bad(lambda r: r["setup"].update(seed="x")), r"^setup key 'seed'"),
    "turns not list": (_bad(lambda r: r.update(turns={})), r"^key 'turns'"),
    "turn not object": (_bad(lambda r: r["turns"].append(3)), r"^turn 3: a turn is an object"),
    "no dice": (_bad(lambda r: r["turns"].append({"search": "none"})), r"^turn 3: dice missing"),
    "die 4": (_bad(lambda r: r["turns"].append({"dice": [4, 1]})), r"^turn 3: dice must be"),
    "die 0": (_bad(lambda r: r["turns"].append({"dice": [0, 1]})), r"^turn 3: dice must be"),
    "three dice": (_bad(lambda r: r["turns"].append({"dice": [1, 1, 1]})), r"^turn 3: dice must be"),
    "dice bool": (_bad(lambda r: r["turns"].append({"dice": [True, 1]})), r"^turn 3: dice must be"),
    "unknown turn key": (
        _bad(lambda r: r["turns"].append({"dice": [1, 1], "jump": 1})),
        r"^turn 3: unknown key",
    ),
    "bad search": (
        _bad(lambda r: r["turns"].append({"dice": [1, 1], "search": "grab"})),
        r"^turn 3: search must",
    ),
    "back not bool": (_bad(lambda r: r["turns"].append({"back": 1, "dice": [1, 1]})), r"^turn 3: back must"),
    "back first turn": (
        _bad(lambda r: r["turns"].__setitem__(0, {"back": True, "dice": [1, 1]})),
        r"^turn 1: .*in the submarine and cannot turn back",
    ),
    "take on blank": (
        _bad(
            lambda r: r["turns"].extend([{"dice": [1, 1]}, {"back": True, "dice": [1, 1], "search": "take"}])
        ),
        r"^turn 4: .*(blank|nothing to take)",
    ),
    "drop on chip": (
        _bad(lambda r: r["turns"].__setitem__(1, {"dice": [1, 1], "search": {"drop": 0}})),
        r"^turn 2: ",
    ),
    "drop out of range": (
        _bad(lambda r: r["turns"].extend([{"dice": [1, 1]}, {"dice": [1, 2], "search": {"drop": 3}}])),
        r"^turn 4: ",
    ),
    "search in submarine": (
        _bad(lambda r: r["turns"].append({"back": True, "dice": [3, 3], "search": "take"})),
        r"^turn 3: .*does not search",
    ),
    "wrong player": (
        _bad(lambda r: r["turns"].append({"player": 1, "dice": [1, 1]})),
        r"^turn 3: player 1 given",
    ),
    "turn after the end": (
        _bad(lambda r: r["turns"].extend([{"back": True, "dice": [3, 3]}] * 3)),
        r"^turn 5: the game is already over",
    ),
    # RECORD.md, "What a valid record is, exactly"; the line names the turn or the setup key
    # even for a fault of the JSON itself
    "duplicate key": (
        '{"format": "deep-sea-adventure/record@1", "format": "x"}',
        r"^key 'format': appears twice",
    ),
    "null value": (_bad(lambda r: r["setup"].update(rounds=None)), r"^setup key 'rounds': is null"),
    "null in a list": (_bad(lambda r: r["turns"].append(None)), r"^turn 3: null in a list"),
    "nested too deep": ('{"a": ' * 17 + "1" + "}" * 17, r"^key 'a': nested deeper than 16"),
    "NaN": ('{"format": NaN}', r"^key 'format': NaN is not a JSON number"),
    "null dice": (_bad(lambda r: r["turns"][1].update(dice=None)), r"^turn 2: key 'dice' is null"),
    "null drop index": (
        _bad(lambda r: r["turns"].append({"dice": [1, 1], "search": {"drop": None}})),
        r"^turn 3: key 'drop' is null",
    ),
    "NaN in a die": (
        json.dumps(_bad(lambda r: r["turns"].append({"dice": [1, "@"]}))).replace('"@"', "NaN"),
        r"^turn 3: NaN is not a JSON number",
    ),
    "Infinity as air": (
        json.dumps(_bad(lambda r: r["setup"].update(air="@"))).replace('"@"', "-Infinity"),
        r"^setup key 'air': -Infinity is not a JSON number",
    ),
    "dice twice in a turn": (
        json.dumps(_bad(lambda r: r["turns"].append({"dice": [1, 1]}))).replace(
            '{"dice": [1, 1]}]', '{"dice": [1, 1], "dice": [2, 2]}]'
        ),
        r"^turn 3: key 'dice' appears twice",
    ),
    "rounds twice": (
        json.dumps(BASE).replace('"rounds": ', '"rounds": 5, "rounds": '),
        r"^setup key 'rounds': appears twice",
    ),
    "a turn nested too deep": (
        json.dumps(_bad(lambda r: r["turns"].append({"dice": "@"}))).replace('"@"', "[" * 20 + "]" * 20),
        r"^turn 3: nested deeper than 16",
    ),
    "a turn nested past the parser": (
        json.dumps(_bad(lambda r: r["turns"].append({"dice": "@"}))).replace('"@"', "[" * 5000 + "]" * 5000),
        r"^turn 3: nested deeper than 16",
    ),
    "a seed of 5000 digits": (
        json.dumps(_bad(lambda r: r["setup"].update(seed="@"))).replace('"@"', "7" * 5000),
        r"^setup key 'seed': not valid JSON: an integer of more than",
    ),
    "cut short in a turn": (json.dumps(BASE)[:-8], r"^turn 2: not valid JSON"),
    "neither path nor seed": (_bad(lambda r: r["setup"].pop("path")), r"^setup key 'path': .*neither"),
    "air 1001": (_bad(lambda r: r["setup"].update(air=1001)), r"^setup key 'air'"),
    "rounds 101": (_bad(lambda r: r["setup"].update(rounds=101)), r"^setup key 'rounds'"),
    "path 1001 chips": (_bad(lambda r: r["setup"].update(path=[[1, 0]] * 1001)), r"^setup key 'path'"),
    "value 2**53": (_bad(lambda r: r["setup"].update(path=[[1, 2**53]])), r"^setup key 'path'"),
    "seed 2**63": (_bad(lambda r: r["setup"].update(seed=2**63)), r"^setup key 'seed'"),
    "name 65 characters": (
        _bad(lambda r: r["setup"].update(players=["a" * 65, "b"])),
        r"^setup key 'players'",
    ),
    "blank name": (_bad(lambda r: r["setup"].update(players=["   ", "b"])), r"^setup key 'players'"),
    "control character": (_bad(lambda r: r["setup"].update(players=["a\nb", "b"])), r"^setup key 'players'"),
    "option key not text": (
        '{"format": "deep-sea-adventure/record@1", "setup": {"players": 2, "seed": 1, "options": {"1": 2}}}',
        r"^setup key 'options'",
    ),
    "drop 20000": (
        _bad(lambda r: r["turns"].append({"dice": [1, 1], "search": {"drop": 20000}})),
        r"^turn 3: ",
    ),
    "huge drop": (
        _bad(lambda r: r["turns"].append({"dice": [1, 1], "search": {"drop": 10**30}})),
        r"^turn 3: ",
    ),
    "huge seat": (_bad(lambda r: r["turns"].append({"player": 10**30, "dice": [1, 1]})), r"^turn 3: player"),
}


def test_bytes_that_are_no_record_exit_2(tmp_path):
    """RECORD.md: 'UTF-8 JSON (a byte-order mark is not allowed) ..., at most 10 MB'."""
    good = json.dumps(BASE).encode()
    cases = {
        "bom": (b"\xef\xbb\xbf" + good, r"byte-order mark"),
        "latin-1": (good.replace(b'"Ann"', b'"\xe9"'), r"^setup key 'players': not UTF-8"),
        "11 MB": (b'{"x": "' + b"a" * 11_000_000 + b'"}', r"larger than 10,000,000 bytes"),
    }
    for name, (data, pattern) in cases.items():
        with pytest.raises(RecordError, match=pattern):
            load_record(data)
        f = tmp_path / f"{name}.json"
        f.write_bytes(data)
        out = replay_cli(str(f))
        assert out.returncode == 2 and out.stdout == "" and len(out.stderr.splitlines()) == 1, name


def test_replay_dash_reads_the_stream_never_a_file_name(tmp_path):
    """'`-` for standard input': its text is the record, even when it looks like a path."""
    f = tmp_path / "real.json"
    f.write_text(json.dumps(BASE))
    out = replay_cli("-", stdin=str(f))  # a path on stdin is text, not a file to open
    assert out.returncode == 2 and "not valid JSON" in out.stderr
    out = replay_cli("-", stdin=json.dumps(BASE))
    assert out.returncode == 0 and json.loads(out.stdout) == load_record(BASE).state_dict()


@pytest.mark.parametrize("name", list(BAD_RECORDS))
def test_bad_records_raise_naming_turn_or_key(name):
    """RECORD.md: '... The same check raises a clear exception when a record is loaded from
    Python.'"""
    rec, pattern = BAD_RECORDS[name]
    with pytest.raises(RecordError, match=pattern):
        load_record(rec if isinstance(rec, str) else json.dumps(rec))


@pytest.mark.parametrize(
    "name", [n if i < 4 else pytest.param(n, marks=pytest.mark.slow) for i, n in enumerate(BAD_RECORDS)]
)
def test_bad_records_exit_2_with_one_line(name, tmp_path):
    """RECORD.md: 'A record that breaks a rule, or is not a valid record, prints nothing on
    standard output, writes one line on standard error naming the turn (counted from 1) or the
    setup key and what is wrong, and exits with status 2.' (The first few in the fast tier; the
    command line runs the same check as load_record.)"""
    rec, _ = BAD_RECORDS[name]
    text = rec if isinstance(rec, str) else json.dumps(rec)
    f = tmp_path / "bad.json"
    f.write_text(text)
    out = replay_cli(str(f))
    assert out.returncode == 2
    assert out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1, out.stderr
    assert lines[0].startswith("error: ")


def test_missing_file_exits_2(tmp_path):
    out = replay_cli(str(tmp_path / "nope.json"))
    assert out.returncode == 2 and out.stdout == "" and len(out.stderr.splitlines()) == 1


def test_record_error_is_a_value_error():
    assert issubclass(RecordError, ValueError)
