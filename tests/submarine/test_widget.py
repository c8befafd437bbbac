"""The Submarine widget without a kernel: intents through the handler, hostile messages change
nothing, the state never holds another seat's hidden cards, the hot-seat curtain, history and
what-if, full games against bots, and the setup panel with every rule option."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from dsa_widget.submarine.bots import BOT_NAMES
from dsa_widget.submarine.options import CHOICES, DEFAULTS, NAMED_TABLES
from dsa_widget.submarine.rules import SubmarineGame
from dsa_widget.submarine.widget import Submarine
from dsa_widget.submarine.words import COLOUR_NAMES

HIDDEN_KEYS = ("hands", "piles", "undealt")


def snapshot(w: Submarine) -> tuple[str, list[tuple[int, str]], int]:
    st = dict(w.state)
    st.pop("seq", None)
    return json.dumps(st, sort_keys=True), w.actions, w.seq


def step(w: Submarine, choice: str) -> None:
    w.handle_intent({"type": "intent", "seq": w.seq, "choice": choice})
    assert not w.error, w.error


def test_the_state_is_the_seats_view_plus_ui_facts() -> None:
    w = Submarine(players=["You", "Bot"], seats={1: "random"}, seed=3)
    st = w.state
    g = w.game
    assert st["seat"] == 0 and st["players"] == ["You", "Bot"]
    assert st["hand"] == list(g.hand(0))
    assert st["kinds"] == ["human", "random"]
    for k in HIDDEN_KEYS:
        assert k not in st
    view = g.view(0).to_dict()
    for k, v in view.items():
        if k not in ("legal", "current_turn"):
            assert st[k] == v, k
    json.dumps(st)  # plain JSON


def test_a_legal_intent_is_applied_and_an_illegal_one_changes_nothing() -> None:
    w = Submarine(players=["You", "Bot"], seats={1: "random"}, seed=3, options={"start_player": 0})
    assert w.state["actor"] == 0 and w.state["legal"]
    before = snapshot(w)
    w.handle_intent({"type": "intent", "seq": w.seq, "choice": "sail 3"})  # placement phase
    assert w.error["kind"] == "illegal"
    assert snapshot(w) == before
    a = w.state["legal"][0]
    step(w, a)
    assert w.actions == [(0, a)]
    assert w.is_bot_turn()


HOSTILE: list[Any] = [
    None,
    [],
    "intent",
    42,
    {"type": 5},
    {"type": "nope"},
    {"type": "__init__", "seq": 1},
    {"type": "intent"},
    {"type": "intent", "choice": 7},
    {"type": "intent", "choice": ""},
    {"type": "intent", "choice": "x" * 10_000},
    {"type": "intent", "choice": "place 9"},
    {"type": "intent", "choice": "place 1", "seq": True},
    {"type": "intent", "choice": "place 1", "seq": -99},
    {"type": "intent", "choice": "place 1", "seq": "1"},
    {"type": "intent", "choice": {"a": 1}},
    {"type": "pause", "paused": "yes"},
    {"type": "show_seat"},
    {"type": "new_game"},
    {"type": "new_game", "setup": []},
    {"type": "new_game", "setup": {"players": ["a"]}},
    {"type": "new_game", "setup": {"players": ["a", "b"], "kinds": ["human", "skynet"]}},
    {"type": "new_game", "setup": {"players": ["a", "b"], "options": {"deck": "52"}}},
    {"type": "new_game", "setup": {"players": ["a", "b"], "options": {"nope": 1}}},
    {"type": "new_game", "setup": {"players": ["a", "b"], "options": {"start_player": 4}}},
    {"type": "new_game", "setup": {"players": ["a", "b"], "seed": -1}},
    {"type": "new_game", "setup": {"players": ["a", "b"], "evil": 1}},
    {"type": "new_game", "setup": {"players": ["a" * 100, "b"]}},
    {"type": "scrub", "step": 999},
    {"type": "scrub", "step": "0"},
    {"type": "undo"},
    {"type": "redo"},
    {"type": "back_to_real"},
    {"type": "play_out"},
]


@pytest.mark.parametrize("msg", HOSTILE, ids=[str(i) for i in range(len(HOSTILE))])
def test_hostile_messages_never_raise_and_change_nothing(msg: Any) -> None:
    w = Submarine(players=["You", "Bot"], seats={1: "random"}, seed=3, options={"start_player": 0})
    before = snapshot(w)
    m = copy.deepcopy(msg)
    if isinstance(m, dict) and m.get("type") not in ("intent",) and "seq" not in m:
        m["seq"] = w.seq  # reach the handler's own checks
    w.handle_intent(m)
    assert w.error, f"{msg!r} was accepted"
    assert snapshot(w) == before
    assert w.last_exception is None


def test_a_stale_bot_step_is_ignored_quietly() -> None:
    w = Submarine(players=["You", "Bot"], seats={1: "random"}, seed=3, options={"start_player": 1})
    before = snapshot(w)
    w.handle_intent({"type": "bot_step", "seq": w.seq - 1})
    assert snapshot(w) == before and not w.error
    w.handle_intent({"type": "bot_step", "seq": w.seq})
    assert len(w.actions) == 1 and w.actions[0][0] == 1


def _shuffled_hidden(g: SubmarineGame, keep: int, rng: random.Random) -> SubmarineGame:
    """The same game with every card ``keep`` cannot see dealt again (same counts)."""
    d = g.state_dict()
    pool = [c for q, h in enumerate(d["hands"]) if q != keep for c in h]
    pool += [c for p in d["piles"] for c in p] + list(d["undealt"])
    rng.shuffle(pool)
    for q, h in enumerate(d["hands"]):
        if q != keep:
            d["hands"][q] = sorted(pool[: len(h)])
            del pool[: len(h)]
    for q, p in enumerate(d["piles"]):
        d["piles"][q] = pool[: len(p)]
        del pool[: len(p)]
    d["undealt"] = sorted(pool)
    return SubmarineGame.from_state_dict(d)


def test_the_state_never_holds_another_seats_hidden_cards() -> None:
    """Shuffle every card seat 0 cannot see: the state seat 0's screen gets is the same."""
    rng = random.Random(5)
    g = SubmarineGame(["You", "B", "C"], seed=11)
    play = random.Random(2)
    differed = 0
    for n in range(120):
        if g.is_over:
            break
        if n % 10 == 0:
            other = _shuffled_hidden(g, 0, rng)
            differed += [other.hand(q) for q in (1, 2)] != [g.hand(q) for q in (1, 2)]
            a = Submarine(game=g.clone(), seats={1: "random", 2: "random"}, viewer=0)
            b = Submarine(game=other, seats={1: "random", 2: "random"}, viewer=0)
            assert a.session.screen() == b.session.screen(), f"the state changed with hidden cards at {n}"
            text = json.dumps(a.state)
            for k in HIDDEN_KEYS:
                assert f'"{k}"' not in text
        g.apply(play.choice(g.legal_actions()))
    assert differed >= 5


def test_an_exchanged_card_is_never_named_in_the_history() -> None:
    """The card a seat tucks under its pile is hidden (even from its owner, once under the
    pile): every history says only that a card was swapped, never its colour; another screen's
    turn in progress too."""
    w = Submarine(players=["A", "B"], seats={0: "random", 1: "random"}, seed=4, viewer=0)
    seen = 0
    while not w.state["over"]:
        w.handle_intent({"type": "bot_step", "seq": w.seq})
        if w.state["actor"] == 1:
            assert all(not str(a).startswith("exchange K") for a in w.state["current_turn"])
    labels = w.session.labels()
    for (_q, a), label in zip(w.actions, labels, strict=True):
        if a.startswith("exchange "):
            seen += 1
            colour = COLOUR_NAMES[a.split()[1]]
            assert a.split()[1] not in label and colour not in label, label
            assert label.endswith("swapped a card with the top of the pile"), label
    assert seen


def test_hot_seat_curtain_holds_public_knowledge_only_until_show() -> None:
    w = Submarine(
        players=["Ann", "Bob", "Bot"], seats={2: "random"}, seed=1, hot_seat=True, options={"start_player": 0}
    )
    st = w.state
    assert st["curtain"] == {"seat": 0, "name": "Ann"}
    assert st["hand"] is None and st["seat"] is None and st["legal"] == []
    public = w.game.view(None).to_dict()
    assert {k: v for k, v in st.items() if k in public and k != "legal"} == {
        k: v for k, v in public.items() if k != "legal"
    }
    before = snapshot(w)
    w.handle_intent({"type": "intent", "seq": w.seq, "choice": "place 1"})
    assert w.error["kind"] == "curtain" and snapshot(w) == before
    w.handle_intent({"type": "show_seat", "seq": w.seq})
    assert w.state["curtain"] is None and w.state["seat"] == 0
    assert w.state["hand"] == list(w.game.hand(0))
    step(w, w.state["legal"][0])
    # Bob is next: the curtain again, and Ann's hand is gone from the state
    assert w.state["curtain"] == {"seat": 1, "name": "Bob"} and w.state["hand"] is None
    w.handle_intent({"type": "show_seat", "seq": w.seq})
    assert w.state["hand"] == list(w.game.hand(1))


def _play_to_the_end(w: Submarine, limit: int = 20_000) -> int:
    n = 0
    while not w.state["over"]:
        n += 1
        assert n < limit, "the game did not end"
        if w.is_bot_turn():
            w.handle_intent({"type": "bot_step", "seq": w.seq})
        else:
            if w.state.get("curtain"):
                w.handle_intent({"type": "show_seat", "seq": w.seq})
            w.handle_intent({"type": "intent", "seq": w.seq, "choice": w.state["legal"][0]})
        assert not w.error, w.error
    return n


def test_a_full_game_against_bots_through_the_handler() -> None:
    w = Submarine(players=["You", "Bot 1", "Bot 2"], seats={1: "random", 2: "greedy"}, seed=2)
    _play_to_the_end(w)
    g = w.game
    assert g.is_over and w.state["result"]["condition"] == g.result[0]
    assert w.state["legal"] == [] and w.last_exception is None
    w.handle_intent({"type": "play_again", "seq": w.seq})
    assert not w.state["over"] and w.actions == []


def test_a_short_game_with_a_turn_limit() -> None:
    w = Submarine(players=["You", "Bot"], seats={1: "random"}, seed=3, options={"turn_limit": 6})
    assert _play_to_the_end(w) < 200
    assert w.state["result"]["condition"] == "E5"


def test_history_scrub_and_what_if_leave_the_real_game_alone() -> None:
    w = Submarine(players=["You", "Bot"], seats={1: "random"}, seed=3, options={"start_player": 0})
    for _ in range(3):
        step(w, w.state["legal"][0])
        w.play_bots()
    n = len(w.actions)
    real = w.game.state_dict()
    w.handle_intent({"type": "scrub", "seq": w.seq, "step": 1})
    assert w.state["mode"] == "history" and w.state["legal"] == [] and w.state["placed"] == 1
    w.handle_intent({"type": "scrub", "seq": w.seq, "step": None})
    assert w.state["mode"] == "real"
    w.handle_intent({"type": "what_if", "seq": w.seq})
    assert w.state["mode"] == "whatif" and w.state["whatif"]["sampled"]
    assert w.state["hand"] == real["hands"][0]  # the own hand is kept
    step(w, w.state["legal"][0])
    assert w.state["whatif"]["can_undo"]
    w.handle_intent({"type": "undo", "seq": w.seq})
    assert w.state["whatif"]["can_redo"]
    w.handle_intent({"type": "redo", "seq": w.seq})
    w.handle_intent({"type": "play_out", "seq": w.seq})
    assert not w.error
    w.handle_intent({"type": "back_to_real", "seq": w.seq})
    assert w.state["mode"] == "real" and len(w.actions) == n and w.game.state_dict() == real


def test_the_setup_form_offers_every_option_in_words_with_its_default() -> None:
    w = Submarine(players=["You", "Bot"], seats={1: "random"}, seed=3)
    s = w.setup
    schema = {o["key"]: o for o in s["schema"]}
    assert list(schema) == list(DEFAULTS)  # every option, from the registry's schema
    for k, vals in CHOICES.items():
        assert [c["value"] for c in schema[k]["choices"]] == list(vals) and schema[k]["default"] == DEFAULTS[
            k
        ]
    for k, tables in NAMED_TABLES.items():  # a per-player-count table is chosen by its name
        assert [c["value"] for c in schema[k]["choices"]] == list(tables)
    for o in schema.values():
        assert o["label"] and "_" not in o["label"]
    assert s["bot_names"] == list(BOT_NAMES) and s["seats"] == [2, 5]


def _non_default_options() -> dict[str, Any]:
    out: dict[str, Any] = {k: vals[1] for k, vals in CHOICES.items()}
    out["cards_per_player"] = "linear"
    out["bathyscaphes_per_player"] = "fewer"
    out["start_player"] = 1
    out["turn_limit"] = 7
    out["joker_swaps_per_turn"] = 1
    return out


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_a_new_game_from_the_setup_panel_with_every_option(n: int) -> None:
    w = Submarine(players=["You", "Bot"], seats={1: "random"}, seed=3)
    opts = _non_default_options()
    assert set(opts) == set(DEFAULTS)
    kinds = ["human"] + ["random"] * (n - 1)
    setup = {"players": [f"P{q}" for q in range(n)], "kinds": kinds, "seed": 9, "options": opts}
    w.handle_intent({"type": "new_game", "seq": w.seq, "setup": setup})
    assert not w.error, w.error
    g = w.game
    assert g.seats == n and w.seats == kinds
    for k, v in opts.items():
        if k in NAMED_TABLES:
            assert g.options[k] == NAMED_TABLES[k][v]
        else:
            assert g.options[k] == v, k
    _play_to_the_end(w)


def test_bad_constructor_arguments_raise() -> None:
    with pytest.raises(ValueError):
        Submarine(players=["a", "b"], seats={1: "skynet"})
    with pytest.raises(ValueError):
        Submarine(players=["a", "b"], seats={5: "random"})
    with pytest.raises(TypeError):
        Submarine(game=SubmarineGame(2, seed=1), seed=1)
