"""What-if branches, history frames and probability overlays of the widget, without a kernel."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from helpers import snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget import Game
from dsa_widget.core.timeline import TimelineError
from dsa_widget.deep_sea.analysis import carried_value, home_chance, landing_distributions
from dsa_widget.deep_sea.analysis.overlay import air_forecast, overlay_for
from dsa_widget.deep_sea.record import load_record
from dsa_widget.deep_sea.state import build_state
from dsa_widget.deep_sea.widget import DeepSea

ROOT = Path(__file__).resolve().parents[1]
BOARD_KEYS = (
    "round",
    "air",
    "current",
    "step",
    "over",
    "winners",
    "path",
    "divers",
    "banked",
    "scores",
    "turn",
)


def intent(w: DeepSea, choice, seq=None):
    w.handle_intent({"type": "intent", "seq": w.seq if seq is None else seq, "choice": choice})


def msg(w: DeepSea, kind: str, **kw):
    w.handle_intent({"type": kind, "seq": w.seq, **kw})


def played(seed: int, players: int = 3, choices: int = 10_000, **kw) -> DeepSea:
    w = DeepSea(players=players, seed=seed, seats=["random"] * players, bot_seed=seed, **kw)
    k = 0
    while not w.game.is_over and k < choices:
        w.bot_move()
        k += 1
    return w


def values_in(obj) -> list:
    """[level, value] chips anywhere in a JSON-like object."""
    out = []
    if isinstance(obj, list):
        if (
            len(obj) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in obj)
            and 1 <= obj[0] <= 4
        ):
            out.append(obj)
        for x in obj:
            out += values_in(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            out += values_in(x)
    return out


def history_screens(w: DeepSea) -> list[dict]:
    """The synced history as a page with no kernel rebuilds it (js/shell.js frameAt): the
    screen after each step, from the changes of each step."""
    out, now = [], {}
    for diff in [*(f for chunk in w.history_chunks for f in chunk), *w.history_tail]:
        now = {**now, **diff}
        out.append(now)
    return out


# ---------------------------------------------------------------- history


@pytest.mark.slow
@pytest.mark.parametrize("seed,players,reveal", [(1, 2, False), (2, 4, False), (3, 3, True), (4, 6, False)])
def test_each_history_frame_is_what_the_record_replays_to(seed, players, reveal):
    w = played(seed, players, reveal_all=reveal)
    screens = history_screens(w)
    rec = w.game.to_record()
    assert len(screens) == len(w.session.steps) + 1
    assert w.history_turns == len(rec["turns"])
    for k in range(len(rec["turns"]) + 1):
        g = load_record({**rec, "turns": rec["turns"][:k]})
        assert w.game_after(turn=k) == g
        want = build_state(g, seats=w.seats, seq=1, reveal_all=reveal, viewer=w.viewer)
        f = screens[w.turn_step(k)]
        assert {key: f[key] for key in BOARD_KEYS} == {key: want[key] for key in BOARD_KEYS}, k


def frame_chips(f) -> list:
    out = [c for sp in f["path"] if sp for c in sp]
    out += [c for d in f["divers"] for it in d["items"] for c in it]
    return out + [c for b in f["banked"] for c in b]


def test_history_frames_hold_no_hidden_values():
    w = played(5, 3, choices=60, options={"reveal": "owner"})
    assert not w.game.is_over and w.viewer is None
    frames = history_screens(w)
    # owner reveal, a spectator's screen: not even banked values
    assert all(len(c) == 1 for f in frames for c in frame_chips(f))
    w2 = played(6, 2, choices=80)
    frames = history_screens(w2)
    for f in frames:
        banked = [c for b in f["banked"] for c in b]
        # every value shown is a banked chip's
        assert sum(len(c) == 2 for c in frame_chips(f)) == sum(len(c) == 2 for c in banked)
        assert all(len(c) == 1 for sp in f["path"] if sp for c in sp)  # values on the path: never
        assert all(len(c) == 1 for d in f["divers"] for it in d["items"] for c in it)  # carried: never
    assert any(len(c) == 2 for f in frames for b in f["banked"] for c in b)  # banked (public): shown
    w2.reveal_all = True  # the teaching switch rebuilds the frames with every value
    assert all(len(c) == 2 for sp in history_screens(w2)[0]["path"] for c in sp)


def test_history_syncs_small_updates_and_a_loaded_record_is_scrubbable(tmp_path):
    w = played(7, 4)
    # per step only the steps since the last full chunk travel (and the chunks when one fills)
    assert max(w.history_bytes) < 24_000, max(w.history_bytes)
    assert max(w.update_bytes) < 16_000
    path = tmp_path / "g.json"
    w.save(path)
    w2 = DeepSea.load(path)
    screens = history_screens(w2)
    assert len(screens) == len(w2.session.steps) + 1 and w2.history_turns == w.history_turns
    # the same board after every turn (a record keeps turns; "lay 0" then "lay all" is "lay all")
    mine, turns = history_screens(w), range(w.history_turns + 1)
    for k in turns:
        assert screens[w2.turn_step(k)]["divers"] == mine[w.turn_step(k)]["divers"], k
    w2.show_turn(3)
    assert w2.state["mode"] == "history" and w2.state["history"]["at"] == w2.turn_step(3)
    shown = w2.state
    assert shown["turn"] == 3 and shown["log"] == w2.log[: shown["log_total"]][-len(shown["log"]) :]
    with pytest.raises(ValueError):
        w2.show_turn(10_000)
    w2.show_turn(None)
    assert w2.state["mode"] == "real" and w2.state["history"]["at"] is None
    before = (w2.state, w2.seq)
    w2.handle_intent({"type": "scrub", "seq": w2.seq, "step": 10_000})  # as from a front end
    assert w2.error["kind"] == "malformed" and (w2.state, w2.seq) == before


def test_new_game_resets_the_history():
    w = played(8, 2, choices=30)
    assert w.history_turns > 0
    w.new_game(players=2, seed=1)
    assert w.history_turns == 0 and len(history_screens(w)) == 1


# ---------------------------------------------------------------- what-if


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    prefix=st.integers(0, 40),
    picks=st.lists(st.integers(0, 1000), max_size=40),
    from_past=st.booleans(),
    undos=st.integers(0, 5),
)
def test_what_if_never_changes_the_real_game(seed, prefix, picks, from_past, undos):
    w = played(seed, 2, choices=prefix)
    before, state, hist = snapshot(w.game), w.game.to_record(), (w.history_chunks, w.history_tail)
    turn = random.Random(seed).randint(0, w.history_turns) if from_past else None
    w.branch(turn=turn)
    assert w.in_what_if and w.state["mode"] == "whatif"
    for p in picks:
        g = w.shown_game
        if g.is_over:
            break
        if g.step == "roll" and p % 2:
            w.roll((1 + p % 3, 1 + p // 3 % 3))
        else:
            legal = g.legal_choices()
            intent(w, legal[p % len(legal)])
    for _ in range(min(undos, len(w.timeline) - 1)):
        w.undo()
    assert snapshot(w.game) == before and w.game.to_record() == state
    w.back_to_real()
    assert not w.in_what_if and w.state["mode"] == "real"
    assert snapshot(w.game) == before and (w.history_chunks, w.history_tail) == hist
    assert {k: w.state[k] for k in BOARD_KEYS} == {
        k: state_k
        for k, state_k in build_state(w.game, seats=w.seats, seq=0, viewer=w.viewer).items()
        if k in BOARD_KEYS
    }


def test_undo_redo_round_trip_and_compare():
    w = DeepSea(players=["Ann", "Bob"], seed=3, seats={1: "random"}, bot_seed=1)
    w.roll((2, 3))
    w.apply("take")
    w.play_bots()
    real = snapshot(w.game)
    w.branch()
    states = [w.state]
    w.apply("continue")
    states.append(w.state)
    w.roll((1, 1))
    states.append(w.state)
    w.undo()
    assert w.state["divers"] == states[1]["divers"] and w.state["whatif"]["can_redo"]
    w.undo()
    assert w.state["divers"] == states[0]["divers"] and not w.state["whatif"]["can_undo"]
    with pytest.raises(TimelineError):
        w.undo()
    w.redo(2)
    assert w.state["divers"] == states[2]["divers"] and w.state["air"] == states[2]["air"]
    rows = w.state["whatif"]["compare"]
    assert [r["name"] for r in rows] == ["real", "what-if"]
    assert rows[0]["divers"][0]["pos"] == w.game.divers[0].position
    assert rows[1]["divers"][0]["pos"] == w.branch_game.divers[0].position
    c = w.compare()
    assert [r["name"] for r in c.rows] == ["real", "what-if"]
    assert snapshot(w.game) == real
    w.back_to_real()
    with pytest.raises(TimelineError):
        w.compare()


def test_real_game_undo_redo_round_trip_in_place():
    g = Game(players=["Ann", "Bob"], seed=3)
    w = DeepSea(g, seats={1: "random"}, bot_seed=1)
    snaps = [snapshot(g)]
    states = [w.state]
    w.roll((2, 3))
    w.apply("take")
    w.play_bots()
    while w.game.current_player == 1:
        w.bot_move()
    n = 0
    for _ in range(3):
        w.apply(w.game.legal_choices()[0])
        n += 1
    end, end_state = snapshot(g), w.state
    w.undo(n)
    w.redo(n)
    assert w.game is g and snapshot(g) == end and w.state["divers"] == end_state["divers"]
    with pytest.raises(TimelineError):
        w.redo()
    while True:
        try:
            w.undo()
        except TimelineError:
            break
    assert w.game is g and snapshot(g)[:5] == snaps[0][:5] and w.state["divers"] == states[0]["divers"]
    assert w.history_turns == 0 and w.log == DeepSea(Game(players=["Ann", "Bob"], seed=3)).log
    w.roll()  # the dice are restored too: the same roll as a fresh game's first
    assert [e["dice"] for e in g.events if e["type"] == "roll"] == [e["dice"] for e in _first_roll(3)]
    w.undo()
    # acting after an undo drops the redo steps
    w.roll((1, 1))
    with pytest.raises(TimelineError):
        w.redo()


def _first_roll(seed):
    g = Game(players=["Ann", "Bob"], seed=seed)
    g.roll()
    return [e for e in g.events if e["type"] == "roll"]


def test_what_if_intents_from_the_front_end():
    w = DeepSea(players=["Ann", "Bob"], seed=3, seats={1: "random"}, bot_seed=1)
    before = snapshot(w.game)
    msg(w, "roll", dice=[3, 3])  # chosen dice: only in a what-if
    assert w.error["kind"] == "illegal" and "what-if" in w.error["message"] and snapshot(w.game) == before
    msg(w, "undo")
    assert w.error["kind"] == "whatif"
    w.handle_intent({"type": "what_if", "seq": w.seq - 1})  # stale
    assert w.error["kind"] == "stale" and not w.in_what_if
    msg(w, "what_if")
    assert w.error == {} and w.in_what_if
    msg(w, "roll", dice=[3, "3"])
    assert w.error["kind"] == "malformed"
    msg(w, "roll", dice=[4, 1])
    assert w.error["kind"] == "illegal" and w.branch_game.turn_number == 0
    msg(w, "roll", dice=[3, 3])
    assert w.error == {} and w.state["divers"][0]["pos"] == 6
    msg(w, "undo")
    assert w.state["divers"][0]["pos"] == 0
    msg(w, "redo")
    assert w.state["divers"][0]["pos"] == 6
    intent(w, "take")
    assert w.branch_game.current_player == 1
    intent(w, "roll")  # Bob's seat is not the screen's: S (bot_step) plays it in a what-if
    assert w.error["kind"] == "not_your_turn" and w.branch_game.current_player == 1
    w.handle_intent({"type": "bot_step", "seq": w.seq})  # the bot seat moves only when asked, in the branch
    assert w.error == {} and (w.branch_game.step != "roll" or w.branch_game.current_player == 0)
    msg(w, "back_to_real")
    assert not w.in_what_if and snapshot(w.game) == before
    # from a past turn: the board shows that step, and the what-if starts there
    w.roll((1, 2))
    w.apply("none")
    w.play_bots()
    msg(w, "scrub", step=w.turn_step(1))
    assert w.state["mode"] == "history" and w.state["turn"] == 1
    msg(w, "what_if")
    assert w.state["whatif"]["from_step"] == w.turn_step(1) == 2
    assert [r["name"] for r in w.state["whatif"]["compare"]][1] == "real at step 2"
    assert w.branch_game.view(0).to_dict() == w.game_after(turn=1).view(0).to_dict()


def test_keep_puts_several_outcomes_side_by_side():
    """Try one thing, keep it, undo, try another: the comparison shows both beside the real game."""
    w = DeepSea(players=["Ann", "Bob"], seed=3)
    before = snapshot(w.game)
    msg(w, "keep")  # only in a what-if
    assert w.error["kind"] == "whatif" and "what-if" in w.error["message"]
    with pytest.raises(TimelineError):
        w.keep()
    msg(w, "what_if")
    msg(w, "roll", dice=[3, 3])
    msg(w, "keep")
    assert w.error == {}
    msg(w, "undo")
    msg(w, "roll", dice=[1, 1])
    rows = w.state["whatif"]["compare"]
    assert [r["name"] for r in rows] == ["real", "kept 1", "what-if"]
    assert [r["divers"][0]["pos"] for r in rows] == [0, 6, 2]
    assert w.keep("two") == "two" and w.state["whatif"]["can_keep"]
    c = w.compare()
    assert [r["name"] for r in c.rows] == ["real", "kept 1", "two", "what-if"]
    with pytest.raises(ValueError):
        w.keep("two")  # names are unique
    with pytest.raises(TypeError):
        w.keep("<b>" * 20)  # too long
    w.keep()
    w.keep()
    assert not w.state["whatif"]["can_keep"]
    seq = w.seq
    msg(w, "keep")
    assert w.error["kind"] == "whatif" and len(w.state["whatif"]["compare"]) == 6 and w.seq == seq
    w.handle_intent({"type": "keep", "seq": w.seq - 1})  # stale
    assert w.error["kind"] == "stale"
    msg(w, "back_to_real")
    assert snapshot(w.game) == before
    msg(w, "what_if")  # a new what-if starts with nothing kept
    assert [r["name"] for r in w.state["whatif"]["compare"]] == ["real", "what-if"]


def test_what_if_never_reveals_hidden_values():
    # take a chip and bank it in the branch: its value stays hidden on the board
    w = DeepSea(
        players=["Ann", "Bob"],
        path=[(1, 3), (2, 7), (3, 11)] * 2,
        seed=1,
        air=30,
        options={"turn_back_requires_treasure": False},
    )
    w.branch()
    w.roll((1, 1))
    w.apply("take")  # Ann: space 2
    w.roll((1, 2))
    w.apply("none")  # Bob: space 3
    w.apply("back")
    w.roll((3, 3))  # Ann: home
    w.apply("back")
    w.roll((3, 3))  # Bob: home, the round ends, Ann banks
    assert w.branch_game.banked(0)
    text = json.dumps(w.state)
    assert all(len(c) == 1 for c in frame_chips(w.state)) and w.state["scores"][0] is None
    assert "points" not in text and all(
        c[1] == "?" for e in w.state["events"] if e["type"] == "bank" for c in e["chips"]
    )
    assert all(r["scores"][0] is None for r in w.state["whatif"]["compare"][1:])
    w.back_to_real()
    assert w.game.turn_number == 0


# ---------------------------------------------------------------- overlays


def test_overlay_numbers_are_the_analysis_functions():
    seen = set()
    for seed in range(4):
        w = DeepSea(players=3, seed=seed, seats=["random"] * 3, bot_seed=seed)
        while not w.game.is_over:
            g = w.game
            ov = w.overlay
            assert ov["seq"] == w.seq and ov["seat"] == g.current_player
            view = g.view(g.current_player)
            want = {
                c: [[pos, p.numerator, p.denominator] for pos, p in d.items()]
                for c, d in landing_distributions(g).items()
            }
            assert ov["landing"] == want
            if g.step == "sink":
                assert ov["home"] is None and "round is over" in ov["home_note"]  # nobody swims now
            elif ov["home"] is not None:
                assert set(ov["home"]) == set(g.legal_choices())
                for c, got in ov["home"].items():
                    if got is not None:
                        p = home_chance(view, choice=c, others="home")
                        assert [int(x) for x in got] == [p.numerator, p.denominator]
                        assert all(isinstance(x, int) and x < 2**53 or isinstance(x, str) for x in got)
                        seen.add("home")
            cv = carried_value(view, seat=g.current_player)
            assert [int(x) for x in ov["carry"]] == [cv.numerator, cv.denominator]
            load = sum(len(d.carrying) for d in g.divers if not d.returned)
            assert ov["air"] == air_forecast(view) and ov["air"]["per_round"] == load
            seen.add(g.step)
            w.bot_move()
    assert {"home", "turn_back", "roll", "search"} <= seen


def test_overlay_uses_only_what_the_player_may_know():
    # reveal=owner: Bob's banked chips are unknown to Ann, so the pool she averages over excludes
    # nothing of his
    w = DeepSea(players=["Ann", "Bob"], seed=2, seats={1: "random"}, bot_seed=2, options={"reveal": "owner"})
    rng = random.Random(0)
    while not w.game.is_over:
        if w.is_bot_turn():
            w.bot_move()
        else:
            g = w.game
            if w.overlay.get("carry") is not None:
                cv = carried_value(g.view(0), seat=0)
                assert w.overlay["carry"] == [cv.numerator, cv.denominator]
            w.apply(rng.choice(g.legal_choices()))
    assert overlay_for(w.game) == {"seat": None}


def test_hints_off_sends_no_overlay():
    w = DeepSea(players=2, seed=1)
    assert w.overlay and w.overlay["landing"]
    w.hints = False
    assert w.overlay == {}
    sent = []
    w.observe(lambda ch: sent.append(ch["new"]), names="overlay")
    w.roll((1, 1))
    w.apply("none")
    assert sent == [] and w.overlay == {}
    assert "landing" not in json.dumps(w.state)
    w.hints = True
    assert w.overlay["seq"] == w.seq


def test_overlay_is_cheap_and_sent_after_the_state():
    w = DeepSea(players=4, seed=3, seats=["random"] * 4, bot_seed=3)
    order = []
    w.observe(lambda ch: order.append(ch["name"]), names=["state", "overlay"])
    w.bot_move()
    assert order[:2] == ["state", "overlay"]
    w.play_bots()
    assert len(w.overlay_ms) > 50


def test_history_traits_change_at_every_turn():
    """A trait syncs only when its new value compares unequal to the old one: the tail must be a new list."""
    w = DeepSea(players=2, seed=1)
    sent = []
    w.observe(lambda ch: sent.append(len(ch["new"])), names="history_tail")
    w.roll((1, 1))
    w.apply("none")
    w.roll((1, 2))
    w.apply("none")
    assert sent == [2, 3, 4, 5]


def test_a_branch_does_not_foretell_the_real_dice():
    seen = set()
    for _ in range(12):
        w = DeepSea(players=2, seed=5)
        w.branch()
        w.roll()
        seen.add(tuple(next(e["dice"] for e in w.branch_game.events if e["type"] == "roll")))
        w.back_to_real()
    assert len(seen) > 1  # the branch rolls fresh dice each time, not the real game's next ones


def test_shared_screen_overlay_uses_only_public_knowledge():
    """Under reveal="owner", what a diver banked privately must not shape the expected value
    shown on a shared screen (viewer None): only what everybody knows counts."""
    from dsa_widget import Game
    from dsa_widget.deep_sea.analysis.overlay import overlay_for

    g = Game(
        players=["A", "B"],
        path=[(1, 3), (1, 0), (1, 1), (1, 2), (1, 0)],
        rounds=2,
        options={"reveal": "owner"},
    )
    g.play_turn(dice=(1, 1), search="none")  # A to 2
    g.play_turn(dice=(1, 1), search="take")  # B: 1, (2), 3: takes (1,1)
    g.play_turn(dice=(1, 2), search="none")  # A: 3 steps: (3) 4 5 -> 5
    g.play_turn(back=True, dice=(3, 3))  # B home with (1,1): banks 1, known only to B
    g.play_turn(back=False, dice=(1, 1))  # A forced back: 1 step up to 4
    while g.round == 1:
        g.play_turn(dice=(3, 3))
    assert g.view(1).known and not g.view(0).known
    # round 2: B (the last back) starts; have B pick up a level-1 chip
    while g.current_player != 1 or g.step != "roll":
        g.play_turn(dice=(1, 1))
    g.roll((1, 1))
    g.apply("take")
    while g.current_player != 1:
        g.play_turn(dice=(1, 1))
    shared = overlay_for(g, viewer=None)["carry"]
    own = overlay_for(g, viewer=1)["carry"]
    from fractions import Fraction

    pub = g.view(0)  # A knows nothing B banked: the public pool
    assert Fraction(*shared) == Fraction(sum(pub.unseen[1]), len(pub.unseen[1]))
    assert shared != own


def test_a_branch_played_to_the_end_does_not_tell_the_winner():
    """Who wins a branch follows from values the real game has not revealed."""
    w = DeepSea(players=["Ann", "Bob"], path=[(1, 3), (2, 7), (3, 11)], seed=1, rounds=1)
    w.branch()
    w.roll((1, 1))
    w.apply("take")  # Ann: space 2, (2,7)
    w.roll((1, 2))
    w.apply("take")  # Bob: space 3, (3,11)
    w.roll((3, 3))  # Ann, forced back (3 is Bob's, the last space): home
    w.roll((3, 3))  # Bob, forced back: home; the branch is over
    assert w.branch_game.is_over and w.branch_game.winners == (1,)
    assert w.state["over"] and w.state["winners"] == [] and w.state["scores"] == [None, None]
    text = json.dumps(w.state)
    assert "wins" not in text and "Bob win" not in text
    over = [e for e in w.state["events"] if e["type"] == "game_over"]
    assert over and over[0]["winners"] == []
    w.reveal_all = True
    assert w.state["winners"] == [1]


def test_keep_names_never_clash_and_a_new_branch_starts_empty():
    w = DeepSea(players=["Ann", "Bob"], seed=3)
    w.branch()
    w.roll((3, 3))
    w.keep("kept 2")  # a name the default would pick next-but-one
    assert w.keep() == "kept 3"  # 2 states kept: the next default is free
    msg(w, "keep")  # the board's button never fails on a clash
    assert w.error == {} and [r["name"] for r in w.state["whatif"]["compare"]][1:4] == [
        "kept 2",
        "kept 3",
        "kept 4",
    ]
    with pytest.raises(TimelineError, match="trying things already"):
        w.branch()  # one what-if at a time
    w.back_to_real()
    w.roll((1, 1))
    w.branch()  # a new branch (of now): kept rows belonged to the old one
    assert [r["name"] for r in w.state["whatif"]["compare"]] == ["real", "what-if"]
    w.back_to_real()
    msg(w, "scrub", step=0)
    msg(w, "what_if")
    assert [r["name"] for r in w.state["whatif"]["compare"]] == ["real", "real at step 0", "what-if"]


def test_the_header_dice_are_the_shown_games_latest_roll():
    """Issue 16, item 4: after leaving a what-if the state says the real game's last roll, not
    the branch's, even when the real game's newest events hold no roll."""
    w = DeepSea(players=["Ann", "Bob"], seed=3)
    assert w.state["last_dice"] is None  # nobody has rolled
    w.roll((1, 2))
    w.apply("take")
    assert w.state["last_dice"] == [1, 2]
    assert not any(e["type"] == "roll" for e in w.state["events"])  # only the take is new
    msg(w, "what_if")
    msg(w, "roll", dice=[3, 3])
    assert w.state["last_dice"] == [3, 3]  # the branch's roll while in the branch
    msg(w, "back_to_real")
    assert not w.in_what_if and w.state["last_dice"] == [1, 2]
    g = Game(players=2, seed=1, history=False)
    assert g.last_dice is None
    g.roll((2, 1))
    assert g.last_dice == (2, 1)


def test_a_boards_null_from_jupyterlite_is_none(monkeypatch):
    """JupyterLite's Python (Pyodide) hands a board's JSON null over as ``pyodide.ffi.jsnull``:
    Live (a scrub to step null, also End and Step on at the last step) was refused there as
    'the history has steps 0 to n', so the board stayed in the past. The widget reads a
    message with the browser's null as None (here a stand-in object, as Pyodide's)."""
    from dsa_widget.core import browser

    jsnull = type("JsNull", (), {})()
    monkeypatch.setattr(browser, "JS_NULL", jsnull)
    w = DeepSea(players=["Ann", "Bob"], seed=3)
    w.roll((1, 2))
    w.apply("take")
    w._on_msg(w, {"type": "scrub", "seq": w.seq, "step": 0})
    assert w.error == {} and w.state["mode"] == "history"
    w._on_msg(w, {"type": "scrub", "seq": w.seq, "step": jsnull})  # Live, as Pyodide gives it
    assert w.error == {} and w.state["mode"] == "real"
