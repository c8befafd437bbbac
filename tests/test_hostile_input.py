"""Nothing a file or a browser sends can crash, hang or grow the kernel (issue 15).

Hypothesis throws JSON of every shape, raw bytes and browser messages at the record loader
and the widget: each is either accepted or refused with a typed error (a ``RecordError`` for
records, the ``error`` trait for the widget), and a refused input changes nothing.  A last test
replays the inputs that once exhausted memory under a hard memory limit.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget import DeepSea, Game, RecordError, load_record
from dsa_widget.deep_sea.errors import DeepSeaError

ROOT = Path(__file__).resolve().parents[1]

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=False),
    st.text(max_size=12),
)
json_values = st.recursive(
    scalars,
    lambda kids: st.one_of(
        st.lists(kids, max_size=5), st.dictionaries(st.text(max_size=8), kids, max_size=5)
    ),
    max_leaves=30,
)
BASE = {
    "format": "deep-sea-adventure/record@1",
    "setup": {"players": ["Ann", "Bob"], "path": [[1, 0], [1, 1], [2, 5], [3, 9]], "rounds": 1},
    "turns": [{"dice": [1, 1], "search": "take"}, {"dice": [1, 1], "search": "take"}],
}
KEYS = [
    "format",
    "setup",
    "turns",
    "players",
    "air",
    "rounds",
    "path",
    "seed",
    "options",
    "first_player",
    "dice",
    "search",
    "back",
    "player",
    "drop",
    "reveal",
    "sink",
]


def _mutated(base: dict, path: list[str | int], value: object) -> object:
    """``base`` with the value at ``path`` (as far as it exists) replaced by ``value``."""
    doc = json.loads(json.dumps(base))
    node = doc
    for step in path[:-1]:
        in_dict = isinstance(node, dict) and step in node
        in_list = isinstance(node, list) and isinstance(step, int) and 0 <= step < len(node)
        if not (in_dict or in_list):
            break
        node = node[step]
    last = path[-1] if path else "format"
    if isinstance(node, dict):
        node[str(last)] = value
    elif isinstance(node, list):
        node.append(value)
    return doc


def _load_or_refuse(doc: object) -> None:
    try:
        g = load_record(doc if isinstance(doc, (dict, bytes, str)) else json.dumps(doc))
    except RecordError:
        return
    assert isinstance(g, Game)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(path=st.lists(st.one_of(st.sampled_from(KEYS), st.integers(0, 3)), max_size=4), value=json_values)
def test_mutated_records_load_or_raise_a_record_error(path, value):
    _load_or_refuse(_mutated(BASE, path, value))


@settings(max_examples=300, deadline=None)
@given(doc=json_values)
def test_any_json_loads_or_raises_a_record_error(doc):
    _load_or_refuse(json.dumps(doc))


@settings(max_examples=300, deadline=None)
@given(
    data=st.binary(max_size=200) | st.binary(max_size=40).map(lambda b: json.dumps(BASE).encode()[:50] + b)
)
def test_any_bytes_load_or_raise_a_record_error(data):
    _load_or_refuse(data)


messages = st.fixed_dictionaries(
    {},
    optional={
        "type": st.one_of(
            st.sampled_from(
                [
                    "intent",
                    "bot_step",
                    "pause",
                    "new_game",
                    "what_if",
                    "roll",
                    "undo",
                    "redo",
                    "keep",
                    "back_to_real",
                ]
            ),
            json_values,
        ),
        "seq": st.one_of(st.just("SEQ"), json_values),
        "choice": st.one_of(
            st.sampled_from(["roll", "take", "none", "back", "continue", "drop 0", "drop 30000", "drop ²"]),
            json_values,
        ),
        "setup": st.one_of(
            st.dictionaries(st.sampled_from(KEYS + ["seats"]), json_values, max_size=4), json_values
        ),
        "dice": json_values,
        "turn": json_values,
        "paused": json_values,
    },
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(msgs=st.lists(st.one_of(messages, json_values), min_size=1, max_size=8))
def test_the_widget_never_raises_and_a_refused_message_changes_nothing(msgs):
    w = DeepSea(players=3, seed=5, seats={2: "random"})  # the screen follows the human to move
    for m in msgs:
        if isinstance(m, dict) and m.get("seq") == "SEQ":
            m = {**m, "seq": w.seq}
        before = (w.game.to_record(), w.seq, w.in_what_if)
        n_errors = w.error.get("n")
        w.handle_intent(m)  # never raises
        if w.error.get("n") != n_errors and w.error:  # refused: nothing changed
            assert (w.game.to_record(), w.seq, w.in_what_if) == before
    # and the board still works: a legal choice from the current state goes through
    if not w.in_what_if and not w.game.is_over and w.game.current_player not in (2,):
        w.handle_intent({"type": "intent", "seq": w.seq, "choice": w.game.legal_choices()[0]})
        assert w.error == {}


@settings(max_examples=200, deadline=None)
@given(choice=st.one_of(json_values, st.text(max_size=20).map(lambda t: "drop " + t)))
def test_a_refused_choice_changes_nothing(choice):
    g = Game(players=2, seed=3)
    g.roll((1, 1))
    before = g.to_record()
    try:
        g.apply(choice)
    except DeepSeaError:
        assert g.to_record() == before


MEMORY_SCRIPT = r"""
import resource, json
resource.setrlimit(resource.RLIMIT_AS, (1_500_000_000, 1_500_000_000))
from dsa_widget import DeepSea, Game, RecordError, load_record
from dsa_widget.deep_sea.errors import DeepSeaError
rec = {"format": "deep-sea-adventure/record@1", "setup": {"players": 2, "seed": 1},
       "turns": [{"dice": [1, 1], "search": "take"}, {"dice": [1, 1], "search": {"drop": 20000}}]}
for k in (20_000, 10**6, 10**30):
    rec["turns"][1]["search"]["drop"] = k
    try:
        load_record(rec)
    except RecordError:
        pass
g = Game(players=2, seed=1)
g.roll((1, 1))
for bad in ("drop 30000", "drop 999999", "drop " + "9" * 100000, {"drop": 10**6}):
    try:
        g.apply(bad)
    except DeepSeaError:
        pass
w = DeepSea(players=2, seed=1)
for i in range(2000):
    w.handle_intent({"type": "intent", "seq": w.seq, "choice": f"drop {30000 + i}"})
print("bounded")
"""


def test_inputs_that_once_exhausted_memory_run_under_a_memory_limit():
    out = subprocess.run(
        [sys.executable, "-c", MEMORY_SCRIPT], capture_output=True, text=True, cwd=ROOT, timeout=300
    )
    assert out.returncode == 0 and out.stdout.strip() == "bounded", out.stderr[-2000:]
