"""Submarine records (docs/SUBMARINE_RECORD.md): round trips, a table of bad records (each a
RecordError naming its key or turn), bounded work, and the ``replay`` command's exit codes."""

from __future__ import annotations

import copy
import json
import random
import time
from pathlib import Path
from typing import Any

import pytest
from helpers import replay_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.core.records import MAX_BYTES, formats, replay
from dsa_widget.submarine import RecordError, SetupError, SubmarineGame
from dsa_widget.submarine.record import FORMAT, game_to_record, load_record, save

from .common import play_random


@pytest.fixture(scope="module")
def finished() -> dict[str, Any]:
    g = play_random(SubmarineGame(3, seed=21), random.Random(4))
    assert g.is_over
    return game_to_record(g)


def test_the_format_is_registered() -> None:
    assert FORMAT == "submarine/record@1" and FORMAT in formats()


def test_a_finished_game_round_trips(finished: dict[str, Any], tmp_path: Path) -> None:
    g = load_record(finished)
    assert g.is_over and game_to_record(g) == finished
    assert replay(finished) == g.state_dict()
    f = tmp_path / "game.json"
    save(g, f)
    assert load_record(f).state_dict() == g.state_dict()


def test_a_record_without_chance_replays_from_the_seed(finished: dict[str, Any]) -> None:
    rec = {k: v for k, v in finished.items() if k != "chance"}
    assert load_record(rec).state_dict() == load_record(finished).state_dict()


def _set(rec: dict[str, Any], path: str, value: Any) -> dict[str, Any]:
    out = copy.deepcopy(rec)
    node: Any = out
    keys = path.split("/")
    for k in keys[:-1]:
        node = node[int(k)] if isinstance(node, list) else node[k]
    last = keys[-1]
    if value is _DEL:
        del node[last]
    elif isinstance(node, list):
        node[int(last)] = value
    else:
        node[last] = value
    return out


_DEL = object()

BAD = [
    ("format", "submarine/record@2", "format", None),
    ("turns", _DEL, "turns", None),
    ("setup", _DEL, "setup", None),
    ("extra", 1, "extra", None),
    ("setup/players", 7, "setup.players", None),
    ("setup/players", ["a"], "setup.players", None),
    ("setup/seed", "x", "setup.seed", None),
    ("setup/seed", 2**70, "setup.seed", None),
    ("setup/options", {"deck": "52"}, "setup.options.deck", None),
    ("setup/colour", "red", "setup.colour", None),
    ("chance/layout", ["T01K1"], "chance.layout", None),
    ("chance/piles", [["K1"]], "chance.piles", None),
    ("chance/start_player", 9, "chance.start_player", None),
    ("chance/dice", 1, "chance.dice", None),
    ("turns", {}, "turns", None),
    ("turns", [{"seat": 0}] * 6000, "turns", 1),
    ("turns/0", {"seat": 0}, "turns", 1),
    ("turns/0/actions", [], "turns", 1),
    ("turns/0/actions", ["place 2", 3], "turns", 1),
    ("turns/0/actions", ["x" * 1000], "turns", 1),
    ("turns/1/actions", ["place 0"], "turns", 2),
    ("turns/1/seat", 5, "turns", 2),
    ("turns/2/actions", ["place 1", "place 1"], "turns", 3),
]


@pytest.mark.parametrize(("path", "value", "key", "turn"), BAD)
def test_bad_records(finished: dict[str, Any], path: str, value: Any, key: str, turn: int | None) -> None:
    rec = _set(finished, path, value)
    with pytest.raises(RecordError) as e:
        load_record(rec)
    assert e.value.key == key and e.value.turn == turn, str(e.value)
    # the message starts with the place in the platform's words (core.records.refuse), as every
    # game's reader says it: "turn N", "setup key 'K'", "chance key 'K'" or "key 'K'"
    section, _, rest = key.partition(".")
    where = (
        f"turn {turn}"
        if turn is not None
        else f"{section} key '{rest}'"
        if section in ("setup", "chance") and rest
        else f"key '{key}'"
    )
    assert str(e.value).startswith(where + ": "), str(e.value)


def test_a_turn_that_does_not_finish_mid_record(finished: dict[str, Any]) -> None:
    turns = finished["turns"]
    k = next(i for i, t in enumerate(turns) if len(t["actions"]) > 1)
    rec = _set(finished, f"turns/{k}/actions", turns[k]["actions"][:1])
    with pytest.raises(RecordError) as e:
        load_record(rec)
    assert e.value.turn == k + 1


def test_turns_after_the_end(finished: dict[str, Any]) -> None:
    rec = copy.deepcopy(finished)
    rec["turns"].append({"seat": 0, "actions": ["pass"]})
    with pytest.raises(RecordError) as e:
        load_record(rec)
    assert e.value.turn == len(rec["turns"])


def test_not_json_and_nulls() -> None:
    for text in ("{", '{"format": "submarine/record@1", "setup": null}', "[]"):
        with pytest.raises(RecordError):
            load_record(text)


def test_work_is_bounded() -> None:
    """Loading does a bounded amount of work: the rules end a game (E5) and a turn (the joker
    swap cap), and a turn past the end or an action past a turn's end is refused where it
    stands; a long game that never collects (§8.30) replays quickly."""
    g = SubmarineGame(2, seed=1)
    while g.turn_number < 1_000:
        a = g.legal_actions()
        g.apply("mode move" if "mode move" in a else next(x for x in a if not x.startswith("collect")))
    rec = game_to_record(g)
    t = time.process_time()
    assert load_record(rec).state_dict() == g.state_dict()
    assert time.process_time() - t < 5.0
    rec["turns"] = rec["turns"][:5] + [{"seat": 0, "actions": ["pass"] * 101}]
    with pytest.raises(RecordError) as e:
        load_record(rec)
    assert e.value.turn == 6


def test_the_replay_command(finished: dict[str, Any], tmp_path: Path) -> None:
    good = tmp_path / "good.json"
    good.write_text(json.dumps(finished))
    out = replay_cli(str(good))
    assert out.returncode == 0 and json.loads(out.stdout) == load_record(finished).state_dict()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(_set(finished, "turns/1/actions", ["place 0"])))
    out = replay_cli("-", stdin=bad.read_text())
    assert out.returncode == 2 and "turn 2" in out.stderr and out.stdout == ""


@pytest.mark.parametrize("text", ["{not json", '{"format": "submarine/record@1", "setup": {"players": 2}}'])
def test_the_replay_command_refuses_bad_documents(text: str) -> None:
    out = replay_cli("-", stdin=text)
    assert out.returncode == 2 and out.stderr.startswith("error: ") and out.stdout == ""


def test_a_seat_is_a_whole_number_not_a_boolean_or_a_float(finished: dict[str, Any]) -> None:
    """SUBMARINE_RECORD.md: a turn's seat is the seat number (``true`` or ``1.0`` compare equal
    to a seat in Python, and were taken for it)."""
    seat = finished["turns"][0]["seat"]
    for value in (bool(seat), float(seat)) if seat in (0, 1) else (float(seat),):
        with pytest.raises(RecordError, match="is not a seat number") as e:
            load_record(_set(finished, "turns/0/seat", value))
        assert e.value.key == "turns" and e.value.turn == 1


def test_a_name_that_is_not_text_is_refused_with_its_key(finished: dict[str, Any]) -> None:
    """A lone surrogate is no character: such a name was accepted and then broke that seat's
    view (UTF-8).  Refused at setup, and in a record under ``setup.players``."""
    with pytest.raises(SetupError, match="lone surrogate") as s:
        SubmarineGame(["Ann", "\udc80"], seed=1)
    assert s.value.field == "players"
    players = ["Ann", "B\ud800b", "Cy"]
    for rec in (
        _set(finished, "setup/players", players),
        json.dumps(_set(finished, "setup/players", players)),
    ):
        with pytest.raises(RecordError, match="lone surrogate") as e:
            load_record(rec)
        assert e.value.key == "setup.players" and e.value.turn is None
    fine = SubmarineGame(["Åsa", "李", "🐙"], seed=1)
    assert load_record(json.dumps(game_to_record(fine))).players == ("Åsa", "李", "🐙")


def _is_swap(g: SubmarineGame, action: str) -> bool:
    """A collection of a board joker paid with a held joker."""
    parts = action.split()
    return parts[0] == "collect" and parts[3] == "joker" and parts[2] in g.board_jokers


def play(g: SubmarineGame, rng: random.Random, policy: str, stop: int) -> SubmarineGame:
    """Play ``stop`` actions at most (or to the end): ``random`` legal actions; ``stall``, never a
    collection (SUBMARINE.md §8 #30: only E5 ends such a game); ``swap``, every joker swap the
    rules allow (the longest turns)."""
    for _ in range(stop):
        if g.is_over:
            break
        legal = g.legal_actions()
        if policy == "stall":
            legal = tuple(a for a in legal if not a.startswith(("collect", "mode collect"))) or legal
        elif policy == "swap":
            legal = tuple(a for a in legal if _is_swap(g, a)) or legal
        g.apply(rng.choice(legal))
    return g


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    n=st.integers(2, 5),
    policy=st.sampled_from(["random", "stall", "swap"]),
    swaps=st.sampled_from([0, 1, 3, 20]),
    limit=st.sampled_from([1, 40, 300]),
    board=st.sampled_from(["inert", "collectable"]),
    dead_end=st.booleans(),
    stop=st.integers(1, 4_000),
)
def test_every_record_the_package_writes_replays_to_the_same_state(
    seed: int, n: int, policy: str, swaps: int, limit: int, board: str, dead_end: bool, stop: int
) -> None:
    """A record the package writes, it reads back: a game saved at any point (in the middle of a
    turn too), played at random, by players who never collect or who swap jokers all they may,
    loads from its JSON to the very same state, and is well within the record size."""
    options = {
        "board_jokers": board,
        "joker_swaps_per_turn": swaps,
        "turn_limit": limit,
        "dead_position_end": dead_end,
    }
    g = play(SubmarineGame(n, seed=seed, options=options), random.Random(seed), policy, stop)
    text = json.dumps(game_to_record(g))
    assert len(text.encode()) < MAX_BYTES // 10
    assert load_record(text).state_dict() == g.state_dict()


def test_the_longest_games_and_turns_the_rules_allow_replay() -> None:
    """The longest game (nobody collects until E5 at the default and highest 5,000 turns of
    play, SUBMARINE.md §8 #30) and turns full of joker swaps (the highest cap, 20) are written
    and read back, and the record of 5,025 turns as long as the longest stays under the size
    limit (docs/SUBMARINE_RECORD.md: at most 41 actions a turn)."""
    g = play(SubmarineGame(5, seed=3), random.Random(3), "stall", 1_000_000)
    assert g.result is not None and g.result[0] == "E5" and g.turn_number == 5_000 + 15
    text = json.dumps(game_to_record(g), indent=1)
    assert load_record(text).state_dict() == g.state_dict()
    options = {"board_jokers": "collectable", "joker_swaps_per_turn": 20}
    g = play(SubmarineGame(2, seed=5, options=options), random.Random(5), "swap", 100_000)
    rec = game_to_record(g)
    assert g.is_over and load_record(json.dumps(rec)).state_dict() == g.state_dict()
    longest = max(rec["turns"], key=lambda t: len(t["actions"]))
    assert 20 < len(longest["actions"]) <= 41
    worst = dict(longest, actions=["collect 3.2 T03K2 joker T11K4"] * 41)  # the widest action
    assert len(json.dumps({"turns": [worst] * 5_025}, indent=1).encode()) < MAX_BYTES - 10_000
