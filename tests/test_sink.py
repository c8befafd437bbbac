"""The drowning divers' chosen sink order (RULES.md, end of a round, step 2; issue 15).

Each test quotes the sentence of RULES.md or RECORD.md it checks.
"""

from __future__ import annotations

import json
import random

import pytest

from dsa_widget import DeepSea, Game, RecordError, load_record
from dsa_widget.deep_sea.bots import make_bot, play_bot_move
from dsa_widget.deep_sea.errors import IllegalActionError

PATH = [(1, 0), (1, 3), (2, 5), (2, 6), (3, 9), (4, 13)]
OPENING = [
    {"dice": (1, 1), "search": "take"},  # Ann takes the level-1 chip (3) on space 2
    {"dice": (1, 2), "search": "take"},  # Bob takes the level-2 chip (6) on space 4
    {"dice": (2, 2), "search": "take"},  # Ann takes the level-4 chip (13) on space 6
    {"dice": (2, 2), "search": "take"},  # Bob takes the level-3 chip (9) on space 5
    {"back": True, "dice": (1, 1)},  # Ann heads up: space 6 is the end
]


def drowning(**options) -> Game:
    """Both divers in the water with two chips each when the air runs out (Bob nearest)."""
    g = Game(players=["Ann", "Bob"], air=6, rounds=2, path=PATH, options=options)
    for t in OPENING:
        g.play_turn(**t)
    g.roll((1, 1))  # Bob, forced back (no free space deeper), swims to space 3; air is 0
    g.apply("none")
    return g


def stacks(g: Game) -> list:
    """The stacks past the end of the path, as (level, value) chips."""
    return [x for x in g.path if isinstance(x, list) and isinstance(x[0], list)]


def test_each_drowning_diver_chooses_in_drop_order():
    """'Each diver chooses the order in which his own chips are laid ... In live play the engine
    asks each drowning diver with two or more chips, in drop order, before the next round starts
    (a step of its own, after the last turn's search).'"""
    g = drowning()
    assert g.step == "sink" and g.round == 1 and g.current_player == 1  # Bob is nearest the submarine
    assert g.legal_choices() == ("lay all", "lay 0", "lay 1")
    assert not g.at_turn_boundary and g.turn_number == 5  # the round's last turn is still under way
    g.apply("lay 1")  # Bob: his level-3 chip first; the last one follows by itself
    assert g.current_player == 0 and g.legal_choices() == ("lay all", "lay 0", "lay 1")
    g.apply("lay 1")  # Ann: her level-4 chip first
    assert g.round == 2 and g.turn_number == 6
    # 'the first 3 laid chips form one stack on the first new space, the next 3 the next':
    # Bob's 3, 2 then Ann's 4 fill the first stack; Ann's 1 starts the next
    # ('a stack that one diver leaves with room is filled by the next diver's chips')
    assert g.path[-2:] == [[[3, 9], [2, 6], [4, 13]], [1, 3]]
    assert g.history[-1]["sink"] == {"1": [1, 0], "0": [1, 0]}


def test_a_diver_who_passes_lays_them_in_pickup_order():
    """'A diver who makes no choice lays them in pickup order.'"""
    g = drowning()
    g.apply("lay all")
    g.apply("lay all")
    assert g.path[-2:] == [[[2, 6], [3, 9], [1, 3]], [4, 13]]


def test_pickup_option_never_asks():
    """'or `pickup`: always the order he picked them up'."""
    g = drowning(sink_order="pickup")
    assert g.step != "sink" and g.round == 2
    assert g.path[-2:] == [[[2, 6], [3, 9], [1, 3]], [4, 13]]
    assert "sink" not in g.history[-1]


def test_farthest_first_asks_the_farthest_diver_first():
    """'Taking these divers one at a time — nearest the submarine first (option `drop_order`: ...
    or `farthest_first`)'."""
    g = drowning(drop_order="farthest_first")
    assert g.current_player == 0  # Ann, on space 6, is farthest
    g.apply("lay 0")
    g.apply("lay all")
    assert g.path[-2:] == [[[1, 3], [4, 13], [2, 6]], [3, 9]]


def _three_drown() -> tuple[Game, list]:
    """Ann drowns with two chips, Cy with one, Bob with nothing (air 2, three players): the game
    at the round's last search, and the record's turns up to it."""
    g = Game(players=["Ann", "Bob", "Cy"], air=2, rounds=2, path=PATH)
    turns = [
        {"dice": [1, 1], "search": "take"},  # Ann takes (1, 3) on space 2
        {"dice": [1, 2]},  # Bob to space 4, takes nothing
        {"dice": [2, 2], "search": "take"},  # Cy takes (4, 13) on space 6
        {"dice": [1, 1], "search": "take"},  # Ann to space 3, takes (2, 5); air 1
        {"dice": [1, 1]},  # Bob to space 5
    ]
    for t in turns:
        g.play_record_turn(t)
    g.roll((1, 1))  # Cy breathes: air 0, his last turn; forced back, up to space 4
    g.apply("none")
    return g, [*turns, {"dice": [1, 1]}]


def test_one_chip_or_none_is_never_asked():
    """'asks each drowning diver with two or more chips': one chip has one order, none has none."""
    g, _ = _three_drown()
    assert g.step == "sink" and g.current_player == 0 and g.view(0).sink_queue == (0,)
    g.apply("lay all")
    # nearest first: Ann's two chips (space 3), then Cy's one (space 4), Bob nothing: one stack
    assert g.round == 2 and g.path[-1] == [[1, 3], [2, 5], [4, 13]]


def test_naming_a_diver_with_nothing_to_lay_is_an_error():
    """RECORD.md: 'naming a diver who is back, not in the water or carries nothing is an error';
    'a drowning diver not named lays his chips in pickup order'."""
    _, turns = _three_drown()
    rec = {
        "format": "deep-sea-adventure/record@1",
        "setup": {"players": ["Ann", "Bob", "Cy"], "air": 2, "rounds": 2, "path": [list(c) for c in PATH]},
        "turns": turns,
    }
    assert load_record(rec).path[-1] == [[1, 3], [2, 5], [4, 13]]  # no sink key: pickup order
    rec["turns"][-1] = {**turns[-1], "sink": {"1": []}}
    with pytest.raises(RecordError, match=r"turn 6: sink: seat 1 is not a diver drowning with chips"):
        load_record(rec)
    rec["turns"][-1] = {**turns[-1], "sink": {"2": [0], "0": [1, 0]}}  # one chip: [0] is its order
    assert load_record(rec).path[-1] == [[2, 5], [1, 3], [4, 13]]


def test_levels_are_shown_never_values():
    """'Only levels are public, so the choice can only depend on levels: the carrier does not
    know his chips' values either.'"""
    g = drowning()
    v = g.view(1)
    assert v.known == {} and all(c not in v.known for it in v.carrying[1] for c in it)
    values = [g.chip(c)[1] for c in range(len(g.levels))]
    values[0], values[1], values[2], values[3] = values[1], values[0], values[3], values[2]  # same levels
    swapped = Game.from_view(v, values)
    assert swapped.view(1) == v and swapped.legal_choices() == g.legal_choices()


@pytest.mark.parametrize("bot", ["random", "take_n", "depth", "air", "baseline", "planner", "mc", "ismcts"])
def test_bots_choose_from_levels_only(bot):
    """A bot's sink choice is the same whatever the unseen values (values of the same level
    shuffled among the unbanked chips)."""
    g = drowning()
    v = g.view(1)
    values = [g.chip(c)[1] for c in range(len(g.levels))]
    rng = random.Random(1)
    for _ in range(5):
        alt = values[:]
        for level in (1, 2, 3, 4):
            ids = [c for c, lv in enumerate(g.levels) if lv == level]
            vals = [alt[c] for c in ids]
            rng.shuffle(vals)
            for c, x in zip(ids, vals, strict=True):
                alt[c] = x
        h = Game.from_view(v, alt)
        a, b = make_bot(bot, seed=4), make_bot(bot, seed=4)
        assert play_bot_move(g.copy(), a) == play_bot_move(h, b)


def test_record_writes_and_replays_the_chosen_orders():
    """RECORD.md: 'sink ... for each drowning diver named, the order in which his chips are laid'."""
    g = drowning()
    g.apply("lay 1")
    g.apply("lay all")
    rec = g.to_record()
    assert rec["turns"][-1]["sink"] == {"1": [1, 0], "0": [0, 1]}
    again = load_record(json.loads(json.dumps(rec)))
    assert again.state_dict() == g.state_dict()


BASE = {
    "format": "deep-sea-adventure/record@1",
    "setup": {"players": ["Ann", "Bob"], "air": 6, "rounds": 2, "path": [list(c) for c in PATH]},
    "turns": [{k: list(v) if isinstance(v, tuple) else v for k, v in t.items()} for t in OPENING]
    + [{"back": True, "dice": [1, 1]}],
}


@pytest.mark.parametrize(
    ("name", "sink", "pattern"),
    [
        ("not a permutation", {"1": [0, 0]}, r"turn 6: sink: seat 1's order must list his chips 0..1"),
        ("too short", {"1": [0]}, r"turn 6: sink: seat 1's order"),
        ("not a list", {"1": "10"}, r"turn 6: sink: seat 1's order"),
        ("bools", {"1": [True, False]}, r"turn 6: sink: seat 1's order"),
        ("seat not a number", {"Bob": [1, 0]}, r"turn 6: sink: 'Bob' is not a seat number"),
        ("unknown seat", {"7": [1, 0]}, r"turn 6: sink: seat 7 is not a diver drowning"),
        ("not an object", [1, 0], r"turn 6: sink must be an object"),
    ],
)
def test_bad_sink_orders_are_refused(name, sink, pattern):
    """RECORD.md: 'must be a permutation of them ... naming a diver who is back, not in the water
    or carries nothing is an error'."""
    rec = json.loads(json.dumps(BASE))
    rec["turns"][-1]["sink"] = sink
    with pytest.raises(RecordError, match=pattern):
        load_record(rec)


def test_sink_only_where_the_rule_asks():
    """RECORD.md: 'only on a turn that ends a round, only under option sink_order: "chosen"'."""
    rec = json.loads(json.dumps(BASE))
    rec["turns"][0]["sink"] = {"0": [0]}
    with pytest.raises(RecordError, match=r"turn 1: sink is written only on a turn that ends a round"):
        load_record(rec)
    rec = json.loads(json.dumps(BASE))
    rec["setup"]["options"] = {"sink_order": "pickup"}
    rec["turns"][-1]["sink"] = {"1": [1, 0]}
    with pytest.raises(RecordError, match=r"turn 6: sink is written only"):
        load_record(rec)


def test_a_diver_not_named_lays_in_pickup_order():
    rec = json.loads(json.dumps(BASE))
    rec["turns"][-1]["sink"] = {"0": [1, 0]}  # Bob not named
    g = load_record(rec)
    assert g.path[-2:] == [[[2, 6], [3, 9], [4, 13]], [1, 3]]


def test_the_widget_asks_a_human_and_lets_a_bot_choose():
    """'The widget shows the step for a human seat ... and plays it for a bot seat'."""
    g = drowning()
    w = DeepSea(g, seats={0: "planner"})
    assert w.state["step"] == "sink" and w.state["current"] == 1 and w.state["laying"] == []
    assert w.state["legal"] == ["lay all", "lay 0", "lay 1"] and w.state["sinking"] == [1, 0]
    w.handle_intent({"type": "intent", "seq": w.seq, "choice": "lay 1"})
    assert w.error == {} and w.state["current"] == 0  # Bob is done; Ann (a bot) lays hers
    w.handle_intent({"type": "bot_step", "seq": w.seq})
    assert w.game.round == 2 and w.error == {}
    with pytest.raises(IllegalActionError):
        w.game.apply("lay 0")  # the step is over


def test_one_chip_divers_may_be_named_on_the_round_ending_turn():
    """RECORD.md: 'sink ... only on a turn that ends a round': with only one-chip divers drowning
    nobody is asked, and a record may still name them with their one order."""
    rec = {
        "format": "deep-sea-adventure/record@1",
        "setup": {"players": ["Ann", "Bob"], "air": 2, "rounds": 2, "path": [[1, 0], [1, 3], [2, 5], [3, 9]]},
        "turns": [
            {"dice": [1, 1], "search": "take"},
            {"dice": [1, 2], "search": "take"},
            {"dice": [1, 1]},
            {"dice": [1, 1], "sink": {"0": [0]}},
        ],
    }
    assert load_record(rec).round == 2
    rec["turns"][-1]["sink"] = {}
    assert load_record(rec).round == 2
    rec["turns"][-1]["sink"] = {"0": [0, 1]}
    with pytest.raises(RecordError, match=r"turn 4: sink: seat 0's order must list his chips 0..0"):
        load_record(rec)
    rec["turns"][2]["sink"] = {}  # turn 3 does not end the round
    with pytest.raises(RecordError, match=r"turn 3: sink is written only on a turn that ends a round"):
        load_record(rec)


def test_a_seat_is_written_one_way_only():
    """A seat key is its decimal number: "01" would name seat 1 a second time."""
    rec = json.loads(json.dumps(BASE))
    rec["turns"][-1]["sink"] = {"1": [1, 0], "01": [0, 1]}
    with pytest.raises(RecordError, match=r"turn 6: sink: '01' is not a seat number"):
        load_record(rec)


def test_a_search_that_is_no_choice_is_named_as_written():
    rec = {
        "format": "deep-sea-adventure/record@1",
        "setup": {"players": ["Ann", "Bob"], "path": [[1, 2], [2, 5], [3, 9]]},
        "turns": [
            {"dice": [1, 1], "search": "take"},
            {"dice": [1, 1]},
            {"dice": [1, 2], "search": {"drop": -1}},
        ],
    }
    with pytest.raises(RecordError, match=r"turn 3: \{'drop': -1\}: Ann is back in the submarine"):
        load_record(rec)
