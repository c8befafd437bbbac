"""Records of The Crew (docs/CREW_RECORD.md): round trips, the command line, bad records.

Random complete attempts for 2-5 players over many missions and rule options go through
``game_to_record`` -> JSON text -> ``load_record`` and must come back with the same state and
the same view for every seat; ``python -m dsa_widget replay`` prints the state or exits 2 with
one line; a table of bad records and random mutations are refused with a ``RecordError`` only.
"""

from __future__ import annotations

import contextlib
import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from helpers import replay_cli
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget.core.records import MAX_BYTES, MAX_DEPTH
from dsa_widget.core.records import replay as core_replay
from dsa_widget.crew.errors import RecordError
from dsa_widget.crew.mission import Mission
from dsa_widget.crew.record import FORMAT, game_to_record, load_record, save, state_dict
from dsa_widget.crew.rules import CrewGame

ROOT = Path(__file__).resolve().parents[2]

#: (CrewGame keywords, a label) covering the allocation and communication modes
SETUPS: list[dict[str, Any]] = [
    {"target": 0},
    {"target": 3},
    {"target": 6},
    {"campaign": 6},  # one_owner
    {"campaign": 8},  # constraint balance, no tasks
    {"campaign": 9},  # currents
    {"campaign": 10},  # captain_decides
    {"campaign": 11},  # rapture
    {"campaign": 12},  # lead_ban
    {"campaign": 14},  # volunteers, timer with an untimed alternative (the timing step)
    {"campaign": 14, "timed": False},
    {"campaign": 17},  # free
    {"campaign": 19},  # captain_first_hardest
    {"campaign": 20},  # terrain
    {"campaign": 25},  # terrain, skip_captain
    {"campaign": 26},  # volunteers 2, timer
    {"campaign": 27},  # final_card
    {"campaign": 32},  # fixed tasks
    {"mission": {"target": 4, "communication": "none"}},
    {"mission": {"target": 3, "comm_from_trick": 2, "comm_until_trick": 4}},
    {"mission": {"fixed_tasks": [3, 17], "allocation": "free"}},
    {"mission": {"target": 2, "constraints": [{"kind": "first_winner_leads"}]}},
]
OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"communication_window": "free"},
    {"token_position": "any_true", "prediction_timing": "on_take"},
    {"distress_activation": "any_human", "distress_persistence": "attempt"},
    {"tonoja_seat_order": "H0-T-H1", "two_player_distress": "humans_swap"},
    {"extra_card_seat": "seat0", "trick_history_visibility": "all", "mission_lead_ban": "illegal"},
    {"unavoidable_failure_vote": "on", "task_deck_between_missions": "used_pile"},
]


def play_randomly(g: CrewGame, rng: random.Random, *, stop: float = 0.0, limit: int = 800) -> CrewGame:
    """Random legal actions (sometimes another seat's communication in a free window, sometimes a
    timeout once the clock runs) until the end, or with chance ``stop`` after each action.  After
    300 actions it takes the first legal action (a random crew can offer and decline forever)."""
    for i in range(limit):
        if g.is_over or rng.random() < stop:
            break
        if i >= 300:
            g.apply(g.legal_actions()[0])
            continue
        if g.timer_started and rng.random() < 0.01:
            g.apply("timeout", seat=rng.randrange(g.seats))
            continue
        others = [s for s in range(g.seats) if s != g.to_move and g.legal_actions_for(s)]
        if others and rng.random() < 0.3:
            s = rng.choice(others)
            g.apply(rng.choice(g.legal_actions_for(s)), seat=s)
        else:
            g.apply(rng.choice(g.legal_actions()))
    return g


def random_game(seed: int, players: int | None = None, *, stop: float = 0.0) -> CrewGame:
    rng = random.Random(seed)
    n = players if players is not None else rng.randint(2, 5)
    kw = dict(rng.choice(SETUPS))
    opts = dict(rng.choice(OPTION_SETS))
    g = CrewGame(n, seed=seed, options=opts, **kw)
    return play_randomly(g, rng, stop=stop)


def assert_same(a: CrewGame, b: CrewGame) -> None:
    assert state_dict(a) == state_dict(b)
    for seat in [None, *range(a.seats)]:
        assert a.view(seat) == b.view(seat), seat
        assert a.view(seat).to_dict() == b.view(seat).to_dict(), seat
    assert a.legal_actions() == b.legal_actions()
    assert a.actions == b.actions


def round_trip(g: CrewGame) -> CrewGame:
    text = json.dumps(game_to_record(g))
    back = load_record(text)
    assert_same(g, back)
    again = load_record(json.dumps(game_to_record(back)))  # a reloaded attempt saves and loads too
    assert_same(g, again)
    return back


# ------------------------------------------------------------------------------------------------
# round trips


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("seed", range(12))
def test_complete_games_round_trip(players: int, seed: int) -> None:
    g = random_game(1000 * players + seed, players)
    assert g.is_over
    round_trip(g)


@pytest.mark.parametrize("seed", range(30))
def test_games_stopped_anywhere_round_trip(seed: int) -> None:
    round_trip(random_game(seed, stop=0.05))


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: json.dumps(s, sort_keys=True))
def test_every_mission_round_trips(setup: dict[str, Any]) -> None:
    for seed in range(3):
        rng = random.Random(seed)
        g = play_randomly(CrewGame(rng.randint(2, 5), seed=seed, **setup), rng)
        round_trip(g)


def test_records_hold_the_chance_outcomes_in_full() -> None:
    g = CrewGame(4, seed=11, campaign=20)  # terrain: a terrain card, the deal, the tasks
    rec = game_to_record(g)
    assert rec["setup"]["seed"] == 11 and rec["setup"]["campaign"] == 20
    assert rec["chance"] == {
        "terrain": g.terrain,
        "deal": [list(h) for h in g.dealt],
        "tasks": list(g.task_ids),
    }
    assert "null" not in json.dumps(rec)


def test_a_record_without_its_seed_replays_from_the_chance_outcomes() -> None:
    g = random_game(7, 4)
    rec = game_to_record(g)
    del rec["setup"]["seed"]
    assert_same(g, load_record(rec))


def test_explicit_deal_and_tasks_are_written_as_chance_without_a_seed() -> None:
    base = CrewGame(3, seed=2, target=3)
    g = CrewGame(3, seed=99, deal=[list(h) for h in base.dealt], tasks=list(base.task_ids))
    rec = game_to_record(g)
    assert "seed" not in rec["setup"]
    play_randomly(g, random.Random(1))
    round_trip(g)


def test_the_next_attempt_round_trips() -> None:
    for seed in range(40):
        g = random_game(seed, 4)
        if g.outcome is not None and g.outcome.result == "failure":
            break
    nxt = g.next_attempt("new")
    assert nxt.attempt == 2
    rec = game_to_record(nxt)
    assert "seed" not in rec["setup"]  # its generator continued: the seed alone does not give its deal
    play_randomly(nxt, random.Random(3))
    back = round_trip(nxt)
    assert back.attempt == 2 and state_dict(back)["reported_attempts"] == nxt.reported_attempts


def test_an_explicit_assignment_round_trips() -> None:
    g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1})
    assert game_to_record(g)["setup"]["assignment"] == {"70": 1}
    play_randomly(g, random.Random(0))
    round_trip(g)


def test_save_writes_a_loadable_file(tmp_path: Path) -> None:
    g = random_game(5, 3)
    f = tmp_path / "crew.json"
    save(g, f)
    assert_same(g, load_record(f))
    with open(f, encoding="utf-8") as fh:
        assert_same(g, load_record(fh))


def test_the_engine_writes_this_record_format() -> None:
    g = random_game(1, 4)
    assert g.to_record() == game_to_record(g)
    assert_same(g, CrewGame.from_record(game_to_record(g)))


def _doc_block(marker: str) -> Any:
    text = (ROOT / "docs" / "CREW_RECORD.md").read_text(encoding="utf-8")
    block = text.split(f"<!-- {marker} -->", 1)[1].split("```json", 1)[1].split("```", 1)[0]
    return json.loads(block)


def test_the_documented_example_replays_as_documented() -> None:
    """docs/CREW_RECORD.md: the complete example record and what replay prints for it."""
    rec = _doc_block("crew-record-example")
    g = load_record(rec)
    assert state_dict(g) == _doc_block("crew-replay-example")
    del rec["setup"]["seed"]  # "Delete seed and the record is still valid and replays the same"
    assert_same(g, load_record(rec))


# ------------------------------------------------------------------------------------------------
# the command line


def test_replay_prints_the_state(tmp_path: Path) -> None:
    g = random_game(21, 2)
    f = tmp_path / "crew.json"
    save(g, f)
    out = replay_cli(str(f))
    assert out.returncode == 0, out.stderr
    assert json.loads(out.stdout) == state_dict(g) == core_replay(game_to_record(g))
    out = replay_cli("-", stdin=f.read_text())
    assert out.returncode == 0 and json.loads(out.stdout) == state_dict(g)


def test_replay_of_bad_records_exits_2_with_one_line(tmp_path: Path) -> None:
    for i, name in enumerate(["unknown top key", "illegal action", "seed/deal mismatch", "null"]):
        rec, _ = BAD_RECORDS[name]
        f = tmp_path / f"bad{i}.json"
        f.write_text(rec if isinstance(rec, str) else json.dumps(rec))  # (no bytes entry among these)
        out = replay_cli(str(f))
        assert out.returncode == 2 and out.stdout == ""
        lines = out.stderr.splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr


# ------------------------------------------------------------------------------------------------
# bad records


def _long_game(players: int, **kw: Any) -> CrewGame:
    """A complete attempt from a seed with at least 12 actions."""
    for seed in range(100):
        g = play_randomly(CrewGame(players, seed=seed, **kw), random.Random(seed))
        if g.turn_number >= 12:
            return g
    raise AssertionError("no long game")  # pragma: no cover


_GOOD = _long_game(4, target=4)
BASE = game_to_record(_GOOD)
_TWO = game_to_record(_long_game(2, target=3))


def _bad(mutate: Any, base: dict[str, Any] = BASE) -> dict[str, Any]:
    rec = copy.deepcopy(base)
    mutate(rec)
    return rec


def _set(path: list[Any], value: Any) -> Any:
    def f(rec: dict[str, Any]) -> None:
        d = rec
        for k in path[:-1]:
            d = d[k]
        d[path[-1]] = value

    return f


def _swap_first_cards(rec: dict[str, Any]) -> None:
    d = rec["chance"]["deal"]
    d[0][0], d[1][0] = d[1][0], d[0][0]


def _illegal_at(k: int) -> Any:
    def f(rec: dict[str, Any]) -> None:
        rec["turns"][k - 1]["action"] = "play Q7"

    return f


def _give_tonoja_s4(rec: dict[str, Any]) -> None:
    deal = rec["chance"]["deal"]
    t = 2  # the default seat order H0-H1-T
    for s in (0, 1):
        if "S4" in deal[s]:
            i = deal[s].index("S4")
            deal[s][i], deal[t][0] = deal[t][0], deal[s][i]


BAD_RECORDS: dict[str, tuple[Any, str]] = {
    "not json": ("{nope", r"not valid JSON"),
    "format": (_bad(_set(["format"], "the-crew-deep-sea/record@2")), r"^key 'format'"),
    "unknown top key": (_bad(_set(["moves"], [])), r"^key 'moves'"),
    "no setup": (_bad(lambda r: r.pop("setup")), r"^key 'setup'"),
    "unknown setup key": (_bad(_set(["setup", "air"], 3)), r"^setup key 'air': unknown"),
    "no players": (_bad(lambda r: r["setup"].pop("players")), r"^setup key 'players': required"),
    "players 6": (_bad(_set(["setup", "players"], 6)), r"^setup key 'players'"),
    "players bool": (_bad(_set(["setup", "players"], True)), r"^setup key 'players'"),
    "players one name": (_bad(_set(["setup", "players"], ["Solo"])), r"^setup key 'players'"),
    "players control char": (_bad(_set(["setup", "players", 0], "A\nB")), r"^setup key 'players'"),
    "seed text": (_bad(_set(["setup", "seed"], "7")), r"^setup key 'seed'"),
    "seed huge": (_bad(_set(["setup", "seed"], 10**400)), r"^setup key 'seed'"),
    "seed float": (_bad(_set(["setup", "seed"], 3.0)), r"^setup key 'seed'"),
    "options not object": (_bad(_set(["setup", "options"], ["free"])), r"^setup key 'options'"),
    "unknown option": (_bad(_set(["setup", "options", "gravity"], "on")), r"^setup key 'options': unknown"),
    "unknown option value": (
        _bad(_set(["setup", "options", "token_position"], "sideways")),
        r"^setup key 'options': option 'token_position'",
    ),
    "option value type": (
        _bad(_set(["setup", "options", "task11_difficulty"], [2, 2, 3.0])),
        r"^setup key 'options'",
    ),
    "target and mission": (_bad(_set(["setup", "mission"], {"target": 3})), r"^setup key 'mission'"),
    "target bool": (_bad(_set(["setup", "target"], True)), r"^setup key 'target'"),
    "target huge": (_bad(_set(["setup", "target"], 10**30)), r"^setup key 'target'"),
    "campaign 0": (_bad(lambda r: (r["setup"].pop("target"), r["setup"].update(campaign=0))), r"campaign"),
    "campaign 66": (_bad(lambda r: (r["setup"].pop("target"), r["setup"].update(campaign=66))), r"campaign"),
    "mission field": (
        _bad(lambda r: (r["setup"].pop("target"), r["setup"].update(mission={"target": 3, "gravity": 1}))),
        r"^setup key 'mission'",
    ),
    "mission allocation": (
        _bad(
            lambda r: (r["setup"].pop("target"), r["setup"].update(mission={"target": 3, "allocation": "x"}))
        ),
        r"^setup key 'mission'",
    ),
    "attempt 0": (_bad(_set(["setup", "attempt"], 0)), r"^setup key 'attempt'"),
    "distress_used text": (_bad(_set(["setup", "distress_used"], "no")), r"^setup key 'distress_used'"),
    "timed number": (_bad(_set(["setup", "timed"], 1)), r"^setup key 'timed'"),
    "assignment task": (_bad(_set(["setup", "assignment"], {"17x": 0})), r"^setup key 'assignment'"),
    "chance not object": (_bad(_set(["chance"], [])), r"^key 'chance'"),
    "unknown chance key": (_bad(_set(["chance", "dice"], [1])), r"^chance key 'dice': unknown"),
    "duplicate card": (
        _bad(lambda r: r["chance"]["deal"][0].__setitem__(0, r["chance"]["deal"][1][0])),
        r"twice",
    ),
    "not a card": (_bad(_set(["chance", "deal", 0, 0], "Q7")), r"^chance key 'deal'"),
    "wrong hand sizes": (
        _bad(lambda r: r["chance"]["deal"][0].append(r["chance"]["deal"][1].pop())),
        r"^chance key 'deal': hand sizes",
    ),
    "three hands for four": (_bad(lambda r: r["chance"]["deal"].pop()), r"^chance key 'deal'"),
    "Tonoja holds S4": (
        _bad(_give_tonoja_s4, _TWO),
        r"^chance key 'deal'",
    ),
    "seed/deal mismatch": (_bad(_swap_first_cards), r"^chance key 'deal': seat 0's hand"),
    "seed/tasks mismatch": (_bad(_set(["chance", "tasks"], [1])), r"^chance key 'tasks'"),
    "unknown task id": (_bad(_set(["chance", "tasks", 0], 97)), r"^chance key 'tasks'.*97"),
    "task twice": (_bad(lambda r: r["chance"]["tasks"].extend(r["chance"]["tasks"][:1])), r"twice"),
    "terrain not in mode": (_bad(_set(["chance", "terrain"], "G3")), r"^chance key 'terrain'"),
    "no seed no chance": (_bad(lambda r: (r["setup"].pop("seed"), r.pop("chance"))), r"^setup key 'seed'"),
    "turns not list": (_bad(_set(["turns"], {})), r"^key 'turns'"),
    "action not object": (_bad(_set(["turns", 2], "play P3")), r"^turn 3: "),
    "action no seat": (_bad(lambda r: r["turns"][4].pop("seat")), r"^turn 5: "),
    "action bad seat": (_bad(_set(["turns", 1, "seat"], 4)), r"^turn 2: seat"),
    "action wrong seat": (
        _bad(lambda r: r["turns"][3].update(seat=(r["turns"][3]["seat"] + 1) % 4)),
        r"^turn 4: ",
    ),
    "action unknown key": (_bad(_set(["turns", 0, "dice"], [1, 2])), r"^turn 1: unknown key"),
    "action number": (_bad(_set(["turns", 0, "action"], 17)), r"^turn 1: "),
    "action huge": (_bad(_set(["turns", 0, "action"], "play " + "P" * 10_000)), r"^turn 1: "),
    "illegal action": (_bad(_illegal_at(7)), r"^turn 7: "),
    "action after the end": (_bad(lambda r: r["turns"].append(r["turns"][-1])), r"already over"),
    "too many turns": (
        _bad(_set(["turns"], [{"seat": 0, "action": "pass"}] * 2_001)),
        r"^key 'turns'",
    ),
    "null": ('{"format": "the-crew-deep-sea/record@1", "setup": {"players": 3, "seed": null}}', r"null"),
    "null in list": (json.dumps(_bad(_set(["chance", "tasks"], [None]))), r"null"),
    "duplicate key": ('{"format": "the-crew-deep-sea/record@1", "format": "x"}', r"appears twice"),
    "deep": ('{"format": "the-crew-deep-sea/record@1", "setup": ' + "[" * 40 + "]" * 40 + "}", r"deeper"),
    "huge": (
        '{"format": "the-crew-deep-sea/record@1", "setup": {"players": "' + "x" * MAX_BYTES + '"}}',
        r"larger",
    ),
    "NaN": ('{"format": "the-crew-deep-sea/record@1", "setup": {"players": NaN}}', r"NaN"),
    "not an object": (b"[1, 2]", r"JSON object"),
}


def test_the_base_records_are_good() -> None:
    assert_same(_GOOD, load_record(BASE))
    load_record(_TWO)
    assert MAX_DEPTH < 40


@pytest.mark.parametrize("name", list(BAD_RECORDS))
def test_bad_records_raise_a_record_error_naming_the_key_or_action(name: str) -> None:
    rec, pattern = BAD_RECORDS[name]
    with pytest.raises(RecordError, match=pattern) as info:
        load_record(rec if isinstance(rec, (str, bytes)) else json.dumps(rec))
    msg = str(info.value)
    assert "\n" not in msg and len(msg) < 600
    if msg.startswith("turn "):
        assert info.value.turn == int(msg.split()[1].rstrip(":"))


def test_the_error_at_turn_k_names_k() -> None:
    for k in (1, 5, len(BASE["turns"])):
        with pytest.raises(RecordError) as info:
            load_record(_bad(_illegal_at(k)))
        assert info.value.turn == k and str(info.value).startswith(f"turn {k}: ")


def test_a_bad_record_from_a_timed_choice_names_the_dealing_turn() -> None:
    g = CrewGame(4, seed=8, campaign=14)  # the crew first chooses timed or untimed
    assert g.step == "timing"
    g.apply("untimed")
    rec = game_to_record(g)
    load_record(rec)
    rec["chance"]["tasks"] = rec["chance"]["tasks"][::-1] + [1]
    with pytest.raises(RecordError, match=r"^chance key 'tasks'.*dealt at turn 1"):
        load_record(rec)
    # a record that ends before the deal may carry the chance outcomes (a timeline cuts records so)
    good = game_to_record(g)
    undealt = {**good, "turns": []}
    assert load_record(undealt).step == "timing"
    del undealt["setup"]["seed"]  # without the seed, the deal comes from the chance outcomes
    later = load_record(undealt)
    later.apply("untimed", seat=0)
    assert_same(later, g)


# ------------------------------------------------------------------------------------------------
# mutations: a record changed at random loads or is refused with a RecordError, nothing else

scalars = st.one_of(
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.integers(-3, 100),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=8),
    st.sampled_from(["P3", "S4", "G9", "pass", "play P1", "take 17", "comm B2", "17", "H0-T-H1", "free"]),
)
json_values = st.recursive(
    scalars,
    lambda kids: st.one_of(
        st.lists(kids, max_size=4), st.dictionaries(st.text(max_size=6), kids, max_size=4)
    ),
    max_leaves=12,
)
KEYS = ["format", "setup", "chance", "turns", "players", "seed", "options", "target", "mission",
        "campaign", "timed", "attempt", "distress_used", "deal_check", "assignment", "terrain", "deal",
        "tasks", "seat", "action", "allocation", "communication", "constraints", "untimed"]  # fmt: skip


def _mutated(base: Any, path: list[Any], value: Any, delete: bool) -> Any:
    rec = copy.deepcopy(base)
    node = rec
    for step in path[:-1]:
        if isinstance(node, dict) and node:
            key = step if step in node else sorted(node)[hash(str(step)) % len(node)]
            node = node[key]
        elif isinstance(node, list) and node:
            node = node[step % len(node) if isinstance(step, int) else 0]
        else:
            break
    last = path[-1] if path else "setup"
    if isinstance(node, dict):
        if delete and last in node:
            del node[last]
        else:
            node[last if isinstance(last, str) else str(last)] = value
    elif isinstance(node, list) and node:
        i = last % len(node) if isinstance(last, int) else 0
        if delete:
            del node[i]
        else:
            node[i] = value
    return rec


BASES = [
    BASE,
    _TWO,
    game_to_record(random_game(9, 5, stop=0.1)),
    game_to_record(CrewGame(3, seed=1, campaign=20)),
]


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    base=st.sampled_from(range(len(BASES))),
    path=st.lists(st.one_of(st.sampled_from(KEYS), st.integers(0, 60)), min_size=1, max_size=4),
    value=json_values,
    delete=st.booleans(),
)
def test_mutated_records_load_or_raise_a_record_error(
    base: int, path: list[Any], value: Any, delete: bool
) -> None:
    doc = _mutated(BASES[base], path, value, delete)
    with contextlib.suppress(RecordError):
        load_record(json.dumps(doc))


@settings(max_examples=100, deadline=None)
@given(doc=json_values)
def test_any_json_loads_or_raises_a_record_error(doc: Any) -> None:
    with contextlib.suppress(RecordError):
        load_record(json.dumps({"format": FORMAT, "setup": doc}))


def test_a_crafted_mission_is_refused_quickly() -> None:
    """Big numbers are refused by their bounds, never worked with."""
    for mission in (
        {"target": 10**6},
        {"target": 51},
        {"target": 3, "comm_from_trick": 10**9},
        {"fixed_tasks": list(range(1, 97)) * 2},
        {"target": 3, "timer_seconds": 5, "untimed": {"target": 10**6}},
    ):
        rec = _bad(lambda r, m=mission: (r["setup"].pop("target"), r["setup"].update(mission=m)))
        with pytest.raises(RecordError, match=r"^(setup|chance) key"):
            load_record(rec)
    assert Mission(target=3) == Mission.from_dict({"target": 3})


def test_one_record_format_for_the_engine_and_the_package(tmp_path: Path) -> None:
    """CrewGame.to_record() is this module's record (no nulls: the package loader takes it),
    from_record loads it, save writes it; rules.FORMAT is this module's FORMAT."""
    from dsa_widget.core import records as core_records
    from dsa_widget.crew import rules

    assert rules.FORMAT is FORMAT
    g = CrewGame(4, seed=1, campaign=14)  # before the deal (the timing step)
    assert core_records.load(g.to_record()) is not None
    play_randomly(g, random.Random(2))
    assert_same(g, core_records.load(g.to_record()))
    assert_same(g, CrewGame.from_record(json.dumps(g.to_record())))
    g.save(tmp_path / "g.json")
    assert_same(g, CrewGame.from_record(tmp_path / "g.json"))
    # older callers naming the turns "actions" (outcome / result ignored)
    rec = g.to_record()
    old = {k: v for k, v in rec.items() if k != "turns"} | {"actions": [], "outcome": None, "result": None}
    assert CrewGame.from_record(old).turn_number == 0


def test_unavoidable_failures_are_recorded() -> None:
    """R-14.3 / R-14.8: the count of earlier failures declared unavoidable is in the setup."""
    opts = {"unavoidable_failure_vote": "on", "retry_tasks": "same"}
    for seed in range(40):
        g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1}, options=opts)
        rng = random.Random(seed)
        while g.step != "failure_vote" and not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
        if g.step == "failure_vote":
            break
    for _ in range(4):
        g.apply("unavoidable")
    assert_same(g, load_record(json.dumps(game_to_record(g))))
    nxt = g.next_attempt()
    rec = game_to_record(nxt)
    assert rec["setup"]["unavoidable_failures"] == 1
    back = load_record(json.dumps(rec))
    assert back.reported_attempts == nxt.reported_attempts == 1
    with pytest.raises(RecordError) as e:
        load_record(dict(rec, setup=dict(rec["setup"], unavoidable_failures=-1)))
    assert e.value.key == "setup.unavoidable_failures"
