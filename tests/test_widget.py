"""The widget without a kernel: intents, rejections, synced state contents, save/load."""

from __future__ import annotations

import json
import random

import pytest
from helpers import snapshot

from dsa_widget import Game, IllegalActionError, SetupError
from dsa_widget.deep_sea.state import build_state, state_bytes
from dsa_widget.deep_sea.widget import DeepSea, bot_names, resolve_bot

HOSTILE = "<img src=x onerror=alert(1)>"


def intent(w: DeepSea, choice, seq=None):
    w.handle_intent({"type": "intent", "seq": w.seq if seq is None else seq, "choice": choice})


def all_values_in(obj) -> list:
    """Every [level, value] pair anywhere in a JSON-like object."""
    out = []
    if isinstance(obj, list):
        if (
            len(obj) == 2
            and all(isinstance(x, int) and not isinstance(x, bool) for x in obj)
            and 1 <= obj[0] <= 4
        ):
            out.append(obj)
        for x in obj:
            out += all_values_in(x)
    elif isinstance(obj, dict):
        for x in obj.values():
            out += all_values_in(x)
    return out


def chips_in(state) -> list:
    """Every chip of path, carried items and banked chips."""
    out = []
    for sp in state["path"]:
        if sp:
            out += sp
    for d in state["divers"]:
        for it in d["items"]:
            out += it
    for b in state["banked"]:
        out += b
    return out


# ---------------------------------------------------------------- construction


def test_construct_from_setup_game_and_record(tmp_path):
    w = DeepSea(players=["Ann", "Bob"], seed=4, air=20, rounds=2)
    assert w.state["players"] == ["Ann", "Bob"] and w.state["air"] == 20 and w.state["rounds"] == 2
    g = Game(players=3, seed=2)
    w2 = DeepSea(g)
    assert w2.game is g and len(w2.state["divers"]) == 3
    g.roll((1, 1))
    g.apply("take")
    path = tmp_path / "g.json"
    g.save(path)
    w3 = DeepSea.load(path, seats={2: "random"})
    assert w3.game.state_dict() == g.state_dict()
    assert w3.seats == ["human", "human", "random"]
    assert DeepSea(g.to_record()).game.state_dict() == g.state_dict()


def test_bad_construction_raises():
    with pytest.raises(SetupError):
        DeepSea(players=1)
    with pytest.raises(ValueError, match="unknown bot"):
        DeepSea(players=2, seats={1: "no-such-bot"})
    with pytest.raises(ValueError, match="seat"):
        DeepSea(players=2, seats={5: "random"})
    with pytest.raises(TypeError):
        DeepSea(Game(players=2), players=3)


def test_resolve_bot():
    assert resolve_bot("human") == (None, "human")
    assert "random" in bot_names()
    b, label = resolve_bot(lambda view, legal: legal[0])
    assert callable(b) and label == "<lambda>"


# ---------------------------------------------------------------- intents


def test_intent_applies_and_bumps_seq():
    w = DeepSea(players=["Ann", "Bob"], seed=1)
    s0 = w.seq
    intent(w, "roll")
    assert w.seq == s0 + 1 and w.state["seq"] == w.seq
    assert (w.game.turn_number == 1 or w.game.step == "search") and w.error == {}
    assert any(e["type"] == "roll" for e in w.state["events"])
    assert any("rolls" in line for line in w.state["log"])


def test_stale_intent_changes_nothing():
    w = DeepSea(players=["Ann", "Bob"], seed=1)
    intent(w, "roll")
    before, state, seq = snapshot(w.game), w.state, w.seq
    w.handle_intent({"type": "intent", "seq": seq - 1, "choice": w.game.legal_choices()[0]})
    assert snapshot(w.game) == before and w.state == state and w.seq == seq
    assert w.error["kind"] == "stale" and f"#{seq - 1}" in w.error["message"]


@pytest.mark.parametrize(
    "msg",
    [
        None,
        [1, 2],
        "roll",
        {"type": "intent"},
        {"type": "intent", "seq": "1", "choice": "roll"},
        {"type": "intent", "seq": True, "choice": "roll"},
        {"type": "intent", "seq": "SEQ", "choice": 7},
        {"type": "intent", "seq": "SEQ", "choice": None},
        {"type": "intent", "seq": "SEQ", "choice": "x" * 1000},
        {"type": "intent", "seq": "SEQ", "choice": "dance"},
        {"type": "intent", "seq": "SEQ", "choice": "drop -1"},
        {"type": "hack", "seq": "SEQ"},
        {"type": "pause", "paused": "yes"},
        {"type": "new_game", "seq": "SEQ", "setup": "everything"},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": 9}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", ""]}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": 2, "evil": 1}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": 2, "seats": ["human", "nope"]}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": 2, "options": {"reveal": "all"}}},
    ],
)
def test_malformed_and_illegal_messages_change_nothing(msg):
    w = DeepSea(players=["Ann", "Bob"], seed=3, seats={1: "random"})
    if isinstance(msg, dict):
        msg = {k: (w.seq if v == "SEQ" else v) for k, v in msg.items()}
    before, state, seq, seats = snapshot(w.game), w.state, w.seq, w.seats
    w.handle_intent(msg)
    assert snapshot(w.game) == before and w.state == state and w.seq == seq and w.seats == seats
    assert w.error["kind"] in ("malformed", "illegal", "setup") and w.error["message"]


def test_illegal_choice_rejected_with_reason():
    w = DeepSea(players=["Ann", "Bob"], seed=3)
    before = snapshot(w.game)
    intent(w, "take")
    assert snapshot(w.game) == before
    assert w.error["kind"] == "illegal" and "first roll" in w.error["message"]
    # the next good intent clears the error
    intent(w, "roll")
    assert w.error == {}


def test_front_end_cannot_play_a_bot_seat():
    w = DeepSea(players=["Ann", "Bob"], seed=3, seats={0: "random"})
    before = snapshot(w.game)
    intent(w, "roll")
    assert snapshot(w.game) == before and w.error["kind"] == "not_your_turn"
    assert "Ann's turn, not yours" in w.error["message"]


def test_repeated_errors_are_distinguishable():
    w = DeepSea(players=2, seed=3)
    intent(w, "take")
    n1 = w.error["n"]
    intent(w, "take")
    assert w.error["n"] == n1 + 1


def test_bot_step_only_on_bot_turn_and_current_seq():
    w = DeepSea(players=["Ann", "Bob"], seed=3, seats={1: "random"})
    before = snapshot(w.game)
    w.handle_intent({"type": "bot_step", "seq": w.seq})  # Ann is human: ignored
    assert snapshot(w.game) == before
    while w.game.current_player == 0:
        intent(w, w.game.legal_choices()[0])
    seq = w.seq
    w.handle_intent({"type": "bot_step", "seq": seq - 1})  # stale: quietly ignored
    assert w.seq == seq
    w.handle_intent({"type": "bot_step", "seq": seq})
    assert w.seq == seq + 1


def test_pause():
    w = DeepSea(players=2, seats={1: "random"})
    w.handle_intent({"type": "pause", "paused": True})
    assert w.paused is True
    w.handle_intent({"type": "pause", "paused": False})
    assert w.paused is False


def test_new_game_intent():
    w = DeepSea(players=["Ann", "Bob"], seed=3, seats={1: "random"})
    intent(w, "roll")
    w.handle_intent(
        {
            "type": "new_game",
            "seq": w.seq,
            "setup": {
                "players": ["X", "Y", "Z"],
                "air": 12,
                "rounds": 1,
                "seed": 5,
                "options": {"drop_order": "farthest_first", "reveal": "owner"},
                "seats": ["human", "heuristic", "random"],
            },
        }
    )
    assert w.error == {}
    assert w.game.players == ("X", "Y", "Z") and w.game.setup.air == 12
    assert w.game.setup.options.reveal == "owner" and w.seats == ["human", "heuristic", "random"]
    assert w.state["events"] == [] and w.state["log"][0].startswith("Round 1 starts")
    custom = {"players": 2, "path": [[1, 3], [2, 7], [4, 15]], "seats": ["human", "human"]}
    w.handle_intent({"type": "new_game", "seq": w.seq, "setup": custom})
    assert w.game.path_length == 3 and w.state["setup"]["custom_path"] is True
    assert all(len(c) == 1 for c in chips_in(w.state)), "custom path values must stay hidden"


# ---------------------------------------------------------------- hidden information


def play_to_end(w: DeepSea, seed: int = 0, check=None) -> None:
    rng = random.Random(seed)
    while not w.game.is_over:
        if w.is_bot_turn():
            w.handle_intent({"type": "bot_step", "seq": w.seq})
        else:
            intent(w, rng.choice(w.game.legal_choices()))
        if check:
            check(w)


def test_no_hidden_value_ever_reaches_the_browser():
    w = DeepSea(players=["Ann", "Bob", "Cy"], seed=11, seats={1: "random", 2: "heuristic"}, bot_seed=1)

    def check(w):
        st = w.state
        v = w.game.view(0)
        banked_ids = {c for b in v.banked for c in b}
        for sp in st["path"]:
            if sp:
                assert all(len(c) == 1 for c in sp), sp
        for d in st["divers"]:
            for it in d["items"]:
                assert all(len(c) == 1 for c in it), it
        # only banked chips have values, and the count matches
        n_vals = sum(len(c) == 2 for c in chips_in(st))
        assert n_vals == (len(banked_ids) if w.game.setup.options.reveal == "public" else 0)
        # nothing else in the JSON carries values: events carry levels except bank
        for e in st["events"]:
            if e["type"] in ("take", "drop", "sink"):
                assert all(isinstance(x, int) and 1 <= x <= 4 for x in (e.get("item") or e.get("chips")))

    play_to_end(w, check=check)
    assert w.state["over"] and all(s is not None for s in w.state["scores"])
    assert list(w.game.scores) == w.state["scores"]


def test_reveal_owner_hides_banked_values_until_the_end():
    w = DeepSea(
        players=["Ann", "Bob"],
        seed=2,
        seats={0: "random", 1: "random"},
        bot_seed=2,
        options={"reveal": "owner"},
    )
    assert w.viewer is None  # no human: a shared screen

    def check(w):
        if not w.game.is_over:
            assert all(len(c) == 1 for b in w.state["banked"] for c in b)
            for q, b in enumerate(w.game.view(0).banked):
                assert (w.state["scores"][q] is None) == bool(b)  # a score with no chips is 0
            for e in w.state["events"]:
                if e["type"] == "bank":
                    assert all(c[1] == "?" for c in e["chips"])

    play_to_end(w, check=check)
    assert all(len(c) == 2 for b in w.state["banked"] for c in b)


@pytest.mark.parametrize("reveal", ["owner", "public", 1, "no"])
def test_reveal_takes_only_true_or_false(reveal):
    """``reveal`` is the teacher's switch (True: every chip value shown), not the rule of who sees
    a chip's value: ``DeepSea(reveal="owner")`` built a teacher's table (bool("owner") is True)
    that showed the mc bot's reasons and every value.  Anything but True/False is refused and
    names the rule's own option."""
    with pytest.raises(SetupError, match=r'options=\{"reveal": "owner"\}'):
        DeepSea(players=["You", "Bot"], seats={1: "mc"}, reveal=reveal)
    w = DeepSea(players=["You", "Bot"], seats={1: "random"}, reveal=False, options={"reveal": "owner"})
    assert w.session.reveal is False and w.game.setup.options.reveal == "owner"


def test_reveal_owner_shows_the_single_human_his_own_chips():
    seen_own = seen_other = 0
    for seed in range(6):
        w = DeepSea(
            players=["Ann", "Bob"], seed=seed, bot_seed=seed, seats={1: "random"}, options={"reveal": "owner"}
        )
        assert w.viewer == 0
        rng = random.Random(seed)
        while not w.game.is_over:
            if w.is_bot_turn():
                w.bot_move()
            else:
                w.apply(rng.choice(w.game.legal_choices()))
            st = w.state
            if not st["over"]:
                assert all(len(c) == 1 for c in st["banked"][1])  # Bob's: hidden from Ann
                assert (st["scores"][1] is None) == bool(st["banked"][1])
                assert all(len(c) == 2 for c in st["banked"][0])  # Ann's own: shown
                seen_own += bool(st["banked"][0])
                seen_other += bool(st["banked"][1])
    assert seen_own and seen_other


def test_reveal_all_sends_every_value_and_can_be_switched():
    w = DeepSea(players=2, seed=1)
    assert all(len(c) == 1 for c in chips_in(w.state))
    w.reveal_all = True
    assert all(len(c) == 2 for c in chips_in(w.state)) and w.state["reveal_all"]
    truth = [c for sp in w.game.path for c in ([sp] if isinstance(sp[0], int) else sp)]
    assert [c for sp in w.state["path"] for c in sp] == truth
    w.reveal_all = False
    assert all(len(c) == 1 for c in chips_in(w.state))


def test_the_seed_never_reaches_the_browser_while_values_are_hidden():
    # the seed rebuilds the shuffled path (every value) and the dice
    w = DeepSea(players=2, seed=123456, seats={1: "random"}, bot_seed=3)
    assert "123456" not in json.dumps(w.state) and w.state["setup"]["seeded"] is True
    w.reveal_all = True
    assert w.state["setup"]["seed"] == 123456
    w.reveal_all = False
    play_to_end(w)
    # over, but the chips never banked are still hidden, and the seed would give them away
    assert w.game.is_over and w.state["setup"]["seed"] is None


def test_setup_summary_has_no_values():
    w = DeepSea(players=2, path=[[1, 3], [2, 7], [3, 11]])
    s = json.dumps(w.state["setup"])
    assert "path_levels" in s and "11" not in s and "7" not in s.replace('"path_levels": "123"', "")


# ---------------------------------------------------------------- Python API


def test_python_api_updates_state_live(tmp_path):
    w = DeepSea(players=["Ann", "Bob"], seed=1, seats={1: "random"}, bot_seed=4)
    seqs = [w.seq]
    w.roll((3, 3))
    seqs.append(w.seq)
    assert w.state["divers"][0]["pos"] == 6
    w.apply("take")
    assert w.state["divers"][0]["items"] == [[[1]]]
    with pytest.raises(IllegalActionError):
        w.apply("take")
    assert w.play_bots() >= 1 and w.game.current_player == 0
    assert w.seq > seqs[-1]
    p = tmp_path / "rec.json"
    w.save(p)  # a record holds whole turns: save between turns
    w2 = DeepSea.load(p)
    assert w2.game == w.game or w2.game.state_dict() == w.game.state_dict()
    assert w2.state["path"] == w.state["path"] and w2.state["divers"] == w.state["divers"]
    assert w.bot_move() in ("roll", "back", "continue")  # a random bot for the human seat
    w.new_game(players=["A", "B"], seed=9)
    assert w.seats == ["human", "random"] and w.state["players"] == ["A", "B"]
    w.new_game(players=3, seats={0: "random"})
    assert w.seats == ["random", "human", "human"]


def test_refresh_after_direct_game_change():
    w = DeepSea(players=2, seed=1)
    w.game.roll((1, 2))
    assert w.state["divers"][0]["pos"] == 0
    w.refresh()
    assert w.state["divers"][0]["pos"] == 3


def test_hostile_names_are_plain_text_in_state_and_svg():
    w = DeepSea(players=[HOSTILE, "Bob"], seed=1)
    assert w.state["players"][0] == HOSTILE  # data, rendered with textContent
    svg = w.game._repr_svg_()
    assert HOSTILE not in svg and "&lt;img src=x onerror=alert(1)&gt;" in svg


def test_complete_game_through_intents_and_update_size():
    w = DeepSea(players=["You", "Bot"], seed=7, seats={1: "heuristic"}, bot_seed=5)
    play_to_end(w, seed=3)
    assert w.state["over"] and w.state["winners"] == list(w.game.winners)
    assert w.state["log"][-1].startswith("Game over")
    assert max(w.update_bytes) < 16_000, max(w.update_bytes)


def test_six_player_state_stays_small():
    w = DeepSea(
        players=[f"Player with a long name {i}" for i in range(6)],
        seed=1,
        seats=["random"] * 6,
        reveal_all=True,
    )
    w.play_bots()
    assert w.game.is_over and max(w.update_bytes) < 16_000


def test_build_state_is_json_and_deterministic():
    g = Game(players=2, seed=5)
    a = build_state(g, seats=["human", "human"], seq=3)
    assert a == json.loads(json.dumps(a)) and state_bytes(a) < 4000
    assert a == build_state(g, seats=["human", "human"], seq=3)


def test_a_closed_widget_is_freed():
    """Nothing global keeps a widget (and its whole history) alive once it is closed and dropped."""
    import gc
    import weakref

    w = DeepSea(players=2, seed=1)
    w.roll((1, 1))
    ref = weakref.ref(w)
    w.close()
    del w
    gc.collect()
    assert ref() is None


def test_bots_are_described_and_say_why_they_chose():
    """Issue 16, item 8: each bot name has a one-line description for the menus, and the board
    shows why a bot chose, unless its reasons may rest on what only it knows."""
    from dsa_widget.deep_sea.bots import BOT_NAMES
    from dsa_widget.deep_sea.widget import DeepSea

    w = DeepSea(players=["Ann", "Bot"], seats={1: "planner"}, seed=2, bot_seed=1)
    assert set(w.bot_help) == set(BOT_NAMES) and all(len(t) > 10 for t in w.bot_help.values())
    w.roll((1, 1))
    w.apply("none")
    while w.game.current_player == 1 and not w.game.is_over:
        w.bot_move()
    said = w.state["bot_said"]["1"]
    assert said.startswith("planner: ") and " — " in said  # its explain(): choice and reason
    owner = DeepSea(
        players=["Ann", "Bot"], seats={1: "planner"}, seed=2, bot_seed=1, options={"reveal": "owner"}
    )
    owner.roll((1, 1))
    owner.apply("none")
    while owner.game.current_player == 1 and not owner.game.is_over:
        owner.bot_move()
    assert "only it knows" in owner.state["bot_said"]["1"] and "—" not in owner.state["bot_said"]["1"]
    owner.new_game(players=2)
    assert owner.state["bot_said"] == {}


def test_round_and_game_summaries_and_play_again():
    """Issue 16, item 5: at a round's end the state carries what was banked, who drowned and
    the stacks at the bottom; at the game's end a score table by round and the winner
    explained; Play again starts the same setup afresh."""
    from dsa_widget.deep_sea.widget import DeepSea

    w = DeepSea(players=["Ann", "Bob"], seats=["random", "random"], seed=8, bot_seed=2, air=8)
    assert w.state["summary"] is None
    seen = []
    while not w.game.is_over:
        w.bot_move()
        s = w.state["summary"]
        if s is not None and (not seen or seen[-1]["id"] != s["id"]):
            seen.append(s)
    rounds = [s["round"] for s in seen]
    assert rounds == [1, 2, 3] and len({s["id"] for s in seen}) == 3
    for s in seen:
        assert s["why"] in ("the air ran out", "every diver is back")
        for b in s["banked"]:
            assert b["points"] == sum(c[1] for c in b["chips"])  # reveal="public": values shown
        sunk = [lv for d in s["drowned"] for lv in d["levels"]]
        assert [lv for st in s["stacks"] for lv in st["levels"]] == sunk
    last = seen[-1]
    assert last["over"] and last["id"].startswith("game")
    assert [sum(r) for r in last["rows"]] == list(w.game.scores) == last["totals"]
    assert (
        last["winners"] == list(w.game.winners)
        and "wins" in last["why_winner"]
        or "share" in last["why_winner"]
    )
    seed_before = w.game.setup.path
    w.handle_intent({"type": "play_again", "seq": w.seq})
    assert w.error == {} and w.game.turn_number == 0 and w.state["summary"] is None
    assert w.game.setup.players == ("Ann", "Bob") and w.game.setup.air == 8
    assert w.state["seats"] == ["random", "random"]
    assert sorted(w.game.setup.path) == sorted(seed_before)  # the same chips, shuffled afresh


def test_summaries_hide_what_the_viewer_may_not_know():
    from dsa_widget.deep_sea.widget import DeepSea

    w = DeepSea(
        players=["Ann", "Bob"], seats={1: "planner"}, seed=3, bot_seed=1, air=6, options={"reveal": "owner"}
    )

    def bob_banked():
        s = w.state["summary"]
        return s is not None and any(b["seat"] == 1 for b in s["banked"])

    for _ in range(2000):
        if w.game.is_over or bob_banked():
            break
        if w.is_bot_turn():
            w.bot_move()
        else:
            legal = w.game.legal_choices()
            w.apply("take" if "take" in legal else ("back" if "back" in legal else legal[0]))
    assert bob_banked() and w.viewer == 0
    for b in w.state["summary"]["banked"]:
        if b["seat"] == 1:  # Bob's values are his own under reveal="owner"
            assert b["points"] is None and all(c[1] == "?" for c in b["chips"])
        else:
            assert b["points"] == sum(c[1] for c in b["chips"])


def test_a_game_that_ends_early_says_why():
    """Issue 29 / RULES.md: "When a round ends with an empty path (every chip banked), the game
    ends at once". The game summary says so, instead of only "Round 1 is over"."""
    from dsa_widget.deep_sea.widget import DeepSea

    # one chip on a one-space path: Ann takes it and comes back, Bob never leaves
    w = DeepSea(players=["Ann", "Bob"], path=[[1, 2]], seed=1)
    g = w.game
    w.roll((1, 1))
    w.apply("take")
    while not g.is_over:
        legal = g.legal_choices()
        choice = "back" if "back" in legal else "roll" if "roll" in legal else legal[0]
        w.roll((1, 1)) if choice == "roll" else w.apply(choice)
    assert g.round == 1 < g.setup.rounds  # it ended early
    s = w.state["summary"]
    assert s["over"] and "nothing is left on the path" in s["ended"]


def test_a_game_that_runs_its_rounds_does_not_say_it_ended_early():
    from dsa_widget.deep_sea.widget import DeepSea

    w = DeepSea(players=["Ann", "Bob"], seats=["random", "random"], seed=8, bot_seed=2, air=8)
    while not w.game.is_over:
        w.bot_move()
    assert w.state["summary"]["over"] and "ended" not in w.state["summary"]
