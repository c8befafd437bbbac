"""The Crew widget without a kernel: intents through its message handler, rejections, what the
synced state holds (never another seat's card), hot-seat, history, what-if, setup."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from dsa_widget.core.session import HIDDEN_REASONS, Session
from dsa_widget.crew.bots import BOT_NAMES
from dsa_widget.crew.cards import DECK
from dsa_widget.crew.errors import SetupError
from dsa_widget.crew.options import DEFAULTS, OPTIONS
from dsa_widget.crew.rules import CrewGame
from dsa_widget.crew.widget import Crew

ROOT = Path(__file__).resolve().parents[2]
HOSTILE = "<img src=x onerror=alert(1)>"
CARD = re.compile(r"^[PYBG][1-9]$|^S[1-4]$")


def intent(w: Crew, choice: str, seq: int | None = None) -> None:
    w.handle_intent({"type": "intent", "seq": w.seq if seq is None else seq, "choice": choice})


def four(**kw) -> Crew:
    kw.setdefault("seed", 1)
    kw.setdefault("target", 4)
    return Crew(
        players=["Ann", "Bob", "Cy", "Di"], viewer=0, seats={1: "random", 2: "random", 3: "random"}, **kw
    )


def play_by_clicks(w: Crew, rng: random.Random, *, limit: int = 2000) -> int:
    """Play the real game to its end through the message handler only: bot steps for bots,
    Show for the curtain, a random legal click for the human on screen."""
    n = 0
    while not w.game.is_over and n < limit:
        st = w.state
        if st["curtain"]:
            w.handle_intent({"type": "show_seat", "seq": w.seq})
        elif w.is_bot_turn():
            w.handle_intent({"type": "bot_step", "seq": w.seq})
        else:
            assert st["can_act"] and st["legal"], (st["step"], st["actor"], st["seat"])
            intent(w, rng.choice(st["legal"]))
        assert w.error == {}, w.error
        n += 1
    assert w.game.is_over
    return n


def cards_in(obj) -> set[str]:
    """Every card id anywhere in a JSON-like object (as a whole string)."""
    out: set[str] = set()
    if isinstance(obj, str):
        if CARD.match(obj):
            out.add(obj)
    elif isinstance(obj, list):
        for x in obj:
            out |= cards_in(x)
    elif isinstance(obj, dict):
        for k, x in obj.items():
            if k == "labels":  # history lines: "Ann played P3" (public plays only)
                for line in x:
                    out |= {t for t in line.split() if CARD.match(t)}
            else:
                out |= cards_in(x)
    return out


def public_cards(g: CrewGame) -> set[str]:
    """Cards anyone may know: played, communicated, Tonoja's face-up ones."""
    out = {DECK[c] for t in g.tricks for _, c in t.plays} | {DECK[c] for _, c in g.current_trick}
    out |= {DECK[c.card] for c in g.communications}
    out |= {u for u, _ in g.dummy_columns if u} if g.dummy is not None else set()
    return out


def without_seq(st: dict) -> dict:
    return {k: v for k, v in st.items() if k not in ("seq",)}


# ---------------------------------------------------------------- construction


def test_construct_from_keywords_and_from_a_game():
    w = four()
    st = w.state
    assert st["format"] == "the-crew-deep-sea/view@1"
    assert st["players"] == ["Ann", "Bob", "Cy", "Di"] and st["seat"] == 0 and w.viewer == 0
    assert st["kinds"] == ["human", "random", "random", "random"] == w.seats
    assert st["hand"] == w.game.hand(0) and st["mode"] == "real" and st["seq"] == w.seq
    g = CrewGame(["A", "B", "C"], seed=3, target=3)
    w2 = Crew(game=g, seats={1: "random"})
    assert w2.game is g and w2.viewer in (0, 2)  # two humans: the screen follows the one to act
    w3 = Crew(g)
    assert w3.game is g and w3.seats == ["human", "human", "human"]
    default = Crew(seed=2)
    assert default.seats[0] == "human" and all(s != "human" for s in default.seats[1:])


def test_two_players_add_tonoja_played_by_the_captain():
    w = Crew(players=["Ann", "Bob"], seats={1: "random"}, seed=4, target=3)
    assert w.seats == ["human", "random", "tonoja"] and w.state["players"][2] == "Tonoja"
    assert w.state["dummy"] == 2 and len(w.state["dummy_columns"]) == 7
    with pytest.raises(ValueError, match="Tonoja"):
        Crew(players=["Ann", "Bob"], seats={2: "random"}, seed=4)


def test_bad_construction_raises():
    with pytest.raises(SetupError):
        Crew(players=["Ann"])
    with pytest.raises(ValueError, match="unknown bot"):
        Crew(players=["A", "B", "C"], seats={1: "no-such-bot"})
    with pytest.raises(ValueError, match="seat"):
        Crew(players=["A", "B", "C"], seats={7: "random"})
    with pytest.raises(ValueError, match="reveal"):
        Crew(players=["A", "B", "C"], reveal="everything")
    with pytest.raises(TypeError):
        Crew(CrewGame(3, seed=1), players=["A", "B", "C"])


# ---------------------------------------------------------------- intents


def test_a_legal_intent_applies_and_bumps_seq():
    w = four()
    s0, st = w.seq, w.state
    assert st["can_act"] and st["actor"] == 0
    choice = st["legal"][0]
    intent(w, choice)
    assert w.error == {} and w.seq > s0 and w.state["seq"] == w.seq
    assert w.game.actions[0] == (0, choice) and w.state["history"]["n"] >= 1


def test_stale_intent_changes_nothing():
    w = four()
    intent(w, w.state["legal"][0])
    before, state, seq = list(w.game.actions), w.state, w.seq
    w.handle_intent({"type": "intent", "seq": seq - 1, "choice": w.game.legal_actions()[0]})
    assert list(w.game.actions) == before and w.state == state and w.seq == seq
    assert w.error["kind"] == "stale"


@pytest.mark.parametrize(
    "msg",
    [
        None,
        [1, 2],
        "play P3",
        42,
        {},
        {"type": "intent"},
        {"type": None},
        {"type": ["intent"]},
        {"type": "intent", "seq": "1", "choice": "pass"},
        {"type": "intent", "seq": True, "choice": "pass"},
        {"type": "intent", "seq": 1.0, "choice": "pass"},
        {"type": "intent", "seq": "SEQ", "choice": 7},
        {"type": "intent", "seq": "SEQ", "choice": None},
        {"type": "intent", "seq": "SEQ", "choice": ""},
        {"type": "intent", "seq": "SEQ", "choice": "x" * 10_000},
        {"type": "intent", "seq": "SEQ", "choice": HOSTILE},
        {"type": "intent", "seq": "SEQ", "choice": "play S9"},
        {"type": "intent", "seq": "SEQ", "choice": "take 999"},
        {"type": "intent", "seq": "SEQ", "choice": "propose 1:0"},
        {"type": "intent", "seq": "SEQ", "choice": "timeout"},
        {"type": "intent", "seq": "SEQ", "choice": "play P3\x00"},
        {"type": "hack", "seq": "SEQ"},
        {"type": "__init__", "seq": "SEQ"},
        {"type": "_publish", "seq": "SEQ"},
        {"type": "pause", "paused": "yes"},
        {"type": "hello", "n": -5},
        {"type": "show_seat", "seq": "SEQ"},
        {"type": "scrub", "seq": "SEQ", "step": 999},
        {"type": "scrub", "seq": "SEQ", "step": "1"},
        {"type": "undo", "seq": "SEQ"},
        {"type": "redo", "seq": "SEQ"},
        {"type": "keep", "seq": "SEQ"},
        {"type": "play_out", "seq": "SEQ"},
        {"type": "back_to_real", "seq": "SEQ"},
        {"type": "next_attempt", "seq": "SEQ", "tasks": "same"},
        {"type": "next_attempt", "seq": "SEQ", "tasks": HOSTILE},
        {"type": "timeout", "seq": "SEQ"},
        {"type": "new_game", "seq": "SEQ", "setup": "everything"},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A"] * 9}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", ""]}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B"], "evil": 1}},
        {
            "type": "new_game",
            "seq": "SEQ",
            "setup": {"players": ["A", "B", "C"], "kinds": ["human", "nope", "human"]},
        },
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B", "C"], "kinds": ["human"]}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B", "C"], "target": 0}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B", "C"], "target": 99}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B", "C"], "target": "3"}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B", "C"], "communication": HOSTILE}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B", "C"], "allocation": "one_owner"}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B", "C"], "timer_seconds": -1}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B", "C"], "campaign": 0}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B", "C"], "seed": "x"}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B", "C"], "options": {"evil": 1}}},
        {
            "type": "new_game",
            "seq": "SEQ",
            "setup": {"players": ["A", "B", "C"], "options": {"token_position": 3}},
        },
        {"type": "new_game", "seq": "SEQ", "setup": {"players": ["A", "B", "C"], "options": [1]}},
        {"type": "new_game", "seq": "SEQ", "setup": {"players": [HOSTILE * 10, "B", "C"]}},
    ],
)
def test_malformed_hostile_and_illegal_messages_change_nothing(msg):
    w = four()
    if isinstance(msg, dict):
        msg = {k: (w.seq if v == "SEQ" else v) for k, v in msg.items()}
    before, state, seq, setup = list(w.game.actions), json.dumps(w.state), w.seq, json.dumps(w.setup)
    game = w.game
    w.handle_intent(msg)  # never raises
    assert w.game is game and list(w.game.actions) == before
    assert json.dumps(w.state) == state and w.seq == seq and json.dumps(w.setup) == setup
    if not (isinstance(msg, dict) and msg.get("type") == "timeout"):
        assert w.error.get("kind") in Session.KINDS and w.error["kind"] not in ("internal", "bot"), w.error


def test_a_bot_seat_cannot_be_played_from_the_screen():
    w = four()
    while not w.is_bot_turn():
        intent(w, w.state["legal"][0])
    assert w.state["legal"] == [] and not w.state["can_act"]
    a = w.game.to_move
    before = list(w.game.actions)
    intent(w, w.game.legal_actions()[0])
    assert w.error["kind"] == "not_your_turn" and list(w.game.actions) == before
    w.handle_intent({"type": "bot_step", "seq": w.seq})
    assert w.error == {} and len(w.game.actions) > len(before) and w.game.actions[len(before)][0] == a


def test_bot_step_is_quiet_when_stale_or_not_a_bot_turn():
    w = four()
    assert not w.is_bot_turn()
    seq, before = w.seq, list(w.game.actions)
    w.handle_intent({"type": "bot_step", "seq": seq})
    w.handle_intent({"type": "bot_step", "seq": seq - 1})
    assert w.seq == seq and list(w.game.actions) == before and w.error == {}


def test_a_full_mission_by_clicks_against_bots():
    results = set()
    for seed in range(4):
        w = four(seed=seed)
        n = play_by_clicks(w, random.Random(seed))
        st = w.state
        assert st["outcome"]["result"] in ("success", "failure") and n > 5
        assert st["history"]["n"] == len(w.game.actions) == len(st["history"]["labels"])
        assert st["legal"] == [] and not st["can_act"]
        results.add(st["outcome"]["result"])
        if st["outcome"]["result"] == "failure":
            assert st["retry"] == ["same", "new"]
            w.handle_intent({"type": "next_attempt", "seq": w.seq, "tasks": "same"})
            assert w.error == {} and w.game.attempt == 2 and w.state["outcome"] is None
            assert [t["id"] for t in w.state["tasks"]] == [t["id"] for t in st["tasks"]]
            assert w.state["history"]["n"] == 0
    w.handle_intent({"type": "play_again", "seq": w.seq})
    assert w.error == {} and w.game.attempt == 1 and w.seats == ["human", "random", "random", "random"]


def test_a_full_two_player_mission_in_hot_seat_by_clicks():
    for seed in (2, 5):
        w = Crew(players=["Ann", "Bob"], hot_seat=True, target=3, seed=seed)
        play_by_clicks(w, random.Random(seed))
        assert w.state["outcome"] is not None


def test_with_several_humans_every_turn_is_asked_even_a_forced_pass():
    # skipping a seat's empty communication turn would tell the others it had nothing to show
    w = Crew(players=["Ann", "Bob", "Cy"], hot_seat=True, target=3, seed=3)
    rng = random.Random(3)
    clicks = 0
    while not w.game.is_over:
        st = w.state
        if st["curtain"]:
            w.handle_intent({"type": "show_seat", "seq": w.seq})
            continue
        intent(w, rng.choice(st["legal"]))
        clicks += 1
    assert clicks == len(w.game.actions)


def test_auto_pass_skips_windows_with_nothing_to_say():
    # a human seat is never asked when "pass" is its only action
    w2 = four(seed=3)
    rng = random.Random(1)
    while not w2.game.is_over:
        if w2.is_bot_turn():
            w2.bot_move()
            continue
        assert w2.state["legal"] != ["pass"]
        intent(w2, rng.choice(w2.state["legal"]))


# ---------------------------------------------------------------- who sees what


def test_state_holds_only_the_screen_seats_cards():
    w = four(seed=6)
    rng = random.Random(2)
    while not w.game.is_over:
        st = w.state
        allowed = set(w.game.hand(0)) | public_cards(w.game)
        allowed |= {c for t in w.game.tricks for _, c in [(0, DECK[x]) for _, x in t.plays]}
        assert cards_in(st) <= allowed | set(w.game.dealt[0]), cards_in(st) - allowed
        if w.is_bot_turn():
            w.bot_move()
        else:
            intent(w, rng.choice(st["legal"]))


def _shuffled_twin(g: CrewGame, seat: int | None, seed: int) -> CrewGame:
    """The same public game with every card hidden from ``seat`` dealt again (a view sample)."""
    return g.view(seat).sample(random.Random(seed))


@pytest.mark.parametrize("players", [["Ann", "Bob", "Cy", "Di"], ["Ann", "Bob", "Cy"], ["Ann", "Bob"]])
def test_shuffling_the_hidden_cards_leaves_the_state_unchanged(players):
    rng = random.Random(len(players))
    g = CrewGame(players, seed=11, target=4)
    checked = 0
    for k in range(400):
        if g.is_over:
            break
        if k % 7 == 0:
            for seat in (0, None):
                twin = _shuffled_twin(g, seat, k)
                assert [h for q, h in enumerate(twin.dealt) if q == seat] == [
                    h for q, h in enumerate(g.dealt) if q == seat
                ]
                a = Crew(game=g.clone(), viewer=seat, seats=dict.fromkeys(range(1, len(players)), "random"))
                b = Crew(game=twin, viewer=seat, seats=dict.fromkeys(range(1, len(players)), "random"))
                assert without_seq(a.state) == without_seq(b.state)
                checked += 1
        g.apply(rng.choice(g.legal_actions()))
    assert checked >= 4


def test_hot_seat_curtain_holds_public_knowledge_only():
    w = Crew(players=["Ann", "Bob", "Cy"], hot_seat=True, target=3, seed=8)
    st = w.state
    assert st["curtain"] == {"seat": w.game.to_move, "name": w.game.players[w.game.to_move]}
    assert st["seat"] is None and st["hand"] is None and st["legal"] == [] and not st["can_act"]
    assert "reveal_hands" not in st and w.viewer is None
    public = dict(w.game.view(None).to_dict())
    for k, v in public.items():
        if k != "legal":
            assert st[k] == v, k
    assert cards_in(st) <= public_cards(w.game)
    # clicking before Show does nothing
    intent(w, w.game.legal_actions()[0])
    assert w.error["kind"] == "curtain" and not w.game.actions
    q = w.game.to_move
    w.handle_intent({"type": "show_seat", "seq": w.seq})
    st = w.state
    assert st["curtain"] is None and st["seat"] == q and st["hand"] == w.game.hand(q) and st["can_act"]
    # the next human to act gets the curtain again (public knowledge until Show)
    rng = random.Random(3)
    for _ in range(200):
        if w.game.is_over:
            break
        st = w.state
        if st["curtain"]:
            assert st["hand"] is None and cards_in(st) <= public_cards(w.game), cards_in(st)
            w.handle_intent({"type": "show_seat", "seq": w.seq})
        else:
            assert st["seat"] == w.game.to_move
            intent(w, rng.choice(st["legal"]))
        assert w.error == {}


def test_reveal_all_shows_every_hand_from_its_own_view():
    w = four(reveal=True)
    hands = w.state["reveal_hands"]
    assert hands == {str(q): w.game.hand(q) for q in range(4)}
    w.reveal = False
    assert "reveal_hands" not in w.state
    assert four(reveal="all").state["reveal_hands"] == hands  # the words this board took before
    w2 = Crew(players=["Ann", "Bob"], reveal=True, seed=2)
    assert set(w2.state["reveal_hands"]) == {"0", "1"}  # Tonoja's face-down cards stay hidden


# ---------------------------------------------------------------- history and what-if


def test_scrub_shows_a_past_step_and_plays_nothing():
    w = four(seed=2)
    rng = random.Random(4)
    for _ in range(12):
        if w.is_bot_turn():
            w.bot_move()
        else:
            intent(w, rng.choice(w.state["legal"]))
    n = len(w.game.actions)
    w.handle_intent({"type": "scrub", "seq": w.seq, "step": 1})
    st = w.state
    assert w.error == {} and st["mode"] == "history" and st["history"] == {**st["history"], "n": n, "at": 1}
    assert st["legal"] == [] and st["turn_number"] == 1 and st["hand"] == w.game_after(1).hand(0)
    intent(w, "pass")
    assert w.error["kind"] == "history" and len(w.game.actions) == n
    w.handle_intent({"type": "scrub", "seq": w.seq, "step": None})
    assert w.state["mode"] == "real" and w.state["history"]["at"] is None


def test_what_if_branch_leaves_the_real_game_untouched():
    w = four(seed=5)
    while w.state["step"] != "play" or not w.state["can_act"]:
        if w.is_bot_turn():
            w.bot_move()
        else:
            intent(w, w.state["legal"][0])
    real = list(w.game.actions)
    w.handle_intent({"type": "what_if", "seq": w.seq})
    st = w.state
    assert w.error == {} and st["mode"] == "whatif" and st["whatif"]["sampled"]
    assert st["hand"] == w.game.hand(0)  # own hand kept, the others dealt again
    intent(w, st["legal"][-1])
    assert w.error == {} and w.state["whatif"]["can_undo"]
    w.handle_intent({"type": "play_out", "seq": w.seq})
    w.handle_intent({"type": "keep", "seq": w.seq})
    w.handle_intent({"type": "undo", "seq": w.seq})
    w.handle_intent({"type": "redo", "seq": w.seq})
    assert w.error == {}
    rows = w.state["whatif"]["compare"]
    assert [r["name"] for r in rows] == ["real", "kept 1", "what-if"]
    assert list(w.game.actions) == real
    w.handle_intent({"type": "back_to_real", "seq": w.seq})
    assert w.state["mode"] == "real" and list(w.game.actions) == real


def test_what_if_from_a_past_step_and_python_undo():
    w = four(seed=7)
    for _ in range(6):
        if w.is_bot_turn():
            w.bot_move()
        else:
            intent(w, w.state["legal"][0])
    w.seek(2)
    w.branch()
    assert not w.state["whatif"]["can_undo"] and w.state["whatif"]["from_step"] == 2
    assert [r["name"] for r in w.compare()] == ["real", "real at step 2", "what-if"]
    w.back_to_real()
    n = len(w.game.actions)
    w.undo(2)
    assert len(w.game.actions) == n - 2
    w.redo(2)
    assert len(w.game.actions) == n


# ---------------------------------------------------------------- setup


def test_new_game_from_the_setup_panel():
    w = four()
    su = w.setup
    # the form shows every rule option and setting in words (the registry's schema), never an
    # identifier; each with its help
    assert [o["key"] for o in su["schema"]] == list(DEFAULTS)
    assert [o["key"] for o in su["setup_schema"]] == [
        "target",
        "communication",
        "allocation",
        "timer_seconds",
        "campaign",
    ]
    for o in su["schema"] + su["setup_schema"]:
        assert o["label"] and "_" not in o["label"] and o["help"]
        assert all("_" not in c["label"] for c in o.get("choices", []))
    for o in su["schema"]:  # every value but the one the game refuses (R-13.1's diagnostic)
        assert [c["value"] for c in o["choices"]] == [
            list(v) if isinstance(v, tuple) else v
            for v in OPTIONS[o["key"]]
            if (o["key"], v) != ("failure_evaluation", "diagnostic")
        ]
    assert su["seats"] == [2, 5] and su["players"] == ["Ann", "Bob", "Cy", "Di"]
    setup = {
        "players": ["Eve", "Fay", "Gus"],
        "kinds": ["human", "random", "random"],
        "target": 5,
        "communication": "currents",
        "allocation": "free",
        "timer_seconds": None,
        "campaign": None,
        "seed": 9,
        "options": {"token_position": "any_true", "task11_difficulty": [2, 3, 3]},
    }
    w.handle_intent({"type": "new_game", "seq": w.seq, "setup": setup})
    assert w.error == {}, w.error
    g = w.game
    assert g.players == ("Eve", "Fay", "Gus") and w.seats == ["human", "random", "random"]
    assert g.mission.communication == "currents" and g.mission.allocation == "free" and g.mission.target == 5
    assert g.options["token_position"] == "any_true" and w.state["history"]["n"] == 0
    w.handle_intent({"type": "new_game", "seq": w.seq, "setup": {"players": ["Ann", "Bob"], "campaign": 3}})
    assert w.error == {} and w.game.dummy == 2 and w.seats[2] == "tonoja"


def test_timeout_only_when_the_clock_ran_out():
    w = Crew(
        players=["Ann", "Bob", "Cy"],
        viewer=0,
        seats={1: "random", 2: "random"},
        seed=3,
        target=2,
        mission={"target": 2, "timer_seconds": 60},
    )
    while not w.game.timer_started:
        if w.is_bot_turn():
            w.bot_move()
        else:
            intent(w, w.state["legal"][0])
    clock = w.state["clock"]
    assert clock["seconds"] == 60 and clock["running"]
    w.handle_intent({"type": "timeout", "seq": w.seq})
    assert w.error["kind"] == "illegal" and not w.game.is_over
    w.session.presenter._clock_start -= 61  # the clock ran out
    w.handle_intent({"type": "timeout", "seq": w.seq})
    assert w.error == {} and w.game.outcome.result == "failure"


# ---------------------------------------------------------------- the bundle


def test_the_widget_ships_the_crew_bundle():
    esm = ROOT / "dsa_widget" / "static" / "crew.js"
    css = ROOT / "dsa_widget" / "static" / "crew.css"
    assert esm.is_file() and css.is_file(), "run `npm run build`"
    text = esm.read_text()
    assert str(Crew._esm) == text and str(Crew._css) == css.read_text()
    assert 'from"./' not in text.replace(" ", "") and 'import("./' not in text.replace(" ", "")
    assert "innerHTML" not in text and "insertAdjacentHTML" not in text and "outerHTML" not in text
    assert "--jp-layout-color1" in css.read_text()  # follows JupyterLab's theme


def test_the_example_notebook_leaves_the_first_move_to_the_reader_and_prints_words():
    """ "Run all" on crew-play.ipynb: the first table waits for its reader (Ann, nothing played
    for her, her first choice asked in words); what the notebook prints is sentences, never a
    bare tuple, list or dict; the Python-driven demo is a table of its own, played to its end."""
    import contextlib
    import io

    nb = json.loads((ROOT / "examples" / "crew-play.ipynb").read_text())
    ns: dict = {}
    printed = io.StringIO()
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            with contextlib.redirect_stdout(printed):
                exec(compile("".join(cell["source"]), "crew-play.ipynb", "exec"), ns)  # noqa: S102
    w = ns["w"]
    assert not w.game.is_over and w.state["outcome"] is None
    assert not [a for q, a in w.actions if q == 0], "Ann's moves were played for her"
    st = w.state
    assert st["can_act"] and st["legal"] and st["prompt"]
    assert ns["demo"] is not w and ns["demo"].game.is_over and not ns["demo"].in_what_if
    text = printed.getvalue()
    assert ns["demo"].state["ending"] in text
    assert "real:" in text and "what-if:" in text
    bare = [line for line in text.splitlines() if re.match(r"\s*[\(\[\{]", line)]
    assert not bare, bare
    # no cell ends with an expression that would show a repr (the tables are widgets)
    for cell in nb["cells"]:
        if cell["cell_type"] == "code":
            last = "".join(cell["source"]).strip().splitlines()[-1]
            assert last in ("w",) or last.startswith(("Crew(", "print(", "demo.back_to_real", "    ")), last


@pytest.mark.parametrize(
    ("players", "kw"),
    [
        (["A", "B", "C"], {"mission": {"target": 4, "allocation": "free"}}),
        (["A", "B", "C", "D", "E"], {"mission": {"target": 6, "communication": "rapture"}}),
        (["A", "B", "C", "D"], {"mission": {"target": 5, "communication": "currents"}}),
        (["A", "B", "C", "D"], {"mission": {"target": 3, "communication": "terrain"}}),
        (["A", "B", "C"], {"tasks": [84, 85, 3]}),
        (["A", "B", "C", "D"], {"target": 4, "options": {"communication_window": "free"}}),
        (["A", "B"], {"mission": {"target": 3, "allocation": "free"}}),
        (["A", "B", "C"], {"campaign": 8}),
    ],
)
def test_every_mode_plays_to_the_end_by_clicks_in_hot_seat(players, kw):
    for seed in (1, 2):
        w = Crew(players=players, hot_seat=True, seed=seed, **kw)
        play_by_clicks(w, random.Random(seed))
        st = w.state
        assert st["outcome"]["result"] in ("success", "failure")
        assert st["history"]["n"] == len(w.game.actions)


def test_a_free_window_lets_the_screens_seat_communicate_out_of_turn():
    for seed in range(20):
        g = CrewGame(["A", "B", "C", "D"], seed=seed, target=2, options={"communication_window": "free"})
        rng = random.Random(seed)
        while not g.is_over and not (g.step == "play" and g.to_move != 1 and g.legal_actions_for(1)):
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        w = Crew(game=g, viewer=1)
        st = w.state
        assert st["can_act"] and st["legal"] and all(a.startswith("comm ") for a in st["legal"])
        before = len(g.actions)
        intent(w, st["legal"][0])
        assert w.error == {} and g.actions[before] == (1, st["legal"][0])
        return
    pytest.fail("no free window found")


def test_a_failing_bot_pauses_the_bots_and_its_words_stay_in_python():
    def leaky(view, legal):
        raise RuntimeError(f"I hold {' '.join(view.hand)}")

    w = Crew(players=["Ann", "Bob", "Cy"], viewer=0, seats={1: leaky, 2: "random"}, target=2, seed=1)
    while not w.is_bot_turn() or w.game.to_move != 1:
        if w.is_bot_turn():
            w.bot_move()
        else:
            intent(w, w.state["legal"][0])
    before = list(w.game.actions)
    w.handle_intent({"type": "bot_step", "seq": w.seq})
    assert w.error["kind"] == "bot" and w.paused and list(w.game.actions) == before
    assert "I hold" not in json.dumps(w.error) and "I hold" in str(w.last_exception)
    assert w.seats[1] == "leaky"


def test_the_picture_shows_the_screens_view_with_names_escaped():
    from xml.dom.minidom import parseString

    w = Crew(players=["Ann", HOSTILE, "Cy"], viewer=0, seats={1: "random", 2: "random"}, target=3, seed=1)
    svg = w._repr_svg_()
    parseString(svg)  # well-formed: the name is text, not markup
    assert "<img" not in svg
    shown = set(re.findall(r">([PYBGS][1-9])<", svg))
    assert shown <= set(w.game.hand(0)) | public_cards(w.game)


def test_free_selection_proposal_by_the_form_and_shown_to_the_confirming_seats():
    w = Crew(players=["Ann", "Bob", "Cy"], target=3, seed=4, mission={"target": 3, "allocation": "free"})
    st = w.state
    assert st["step"] == "propose" and st["can_act"]
    ids = [t["id"] for t in st["tasks"]]
    choice = "propose " + " ".join(f"{t}:1" for t in ids)  # the form's text, maybe not in the listed legal
    intent(w, choice)
    assert w.error == {} and w.state["step"] == "confirm"
    assert w.state["proposal"] == {"seat": st["actor"], "owners": {str(t): 1 for t in ids}}
    intent(w, "propose 1:0")  # not the proposer's step any more
    assert w.error["kind"] == "illegal"


def test_crewmate_bots_by_name_and_by_spec():
    names = list(BOT_NAMES)
    assert {"random", "crewmate"} <= set(names)
    w = Crew(
        players=["Ann", "Bob", "Cy", "Di"],
        viewer=0,
        seats={1: "crewmate", 2: "crewmate", 3: "crewmate:communicate=false"},
        target=3,
        seed=2,
        bot_seed=1,
    )
    assert w.seats == ["human", "crewmate", "crewmate", "crewmate:communicate=false"]
    play_by_clicks(w, random.Random(2))
    # a bot's reasons may rest on its own cards: a screen says only that they stay hidden
    hidden = w.state["bot_said"]
    assert set(hidden) <= {"1", "2", "3"} and hidden
    assert all(t.endswith(f": {HIDDEN_REASONS}") for t in hidden.values())
    w.reveal = True
    assert w.state["bot_said"].keys() == hidden.keys()
    assert all(" — " in t for t in w.state["bot_said"].values())
    with pytest.raises(ValueError, match="no knob 'nonsense'"):
        Crew(players=["A", "B", "C"], seats={1: "crewmate:nonsense=1"})


@pytest.mark.parametrize("players", [["A", "B"], ["A", "B", "C", "D"]])
def test_a_wrapped_game_keeps_its_past_for_the_history(players):
    g = CrewGame(players, seed=5, target=3)
    rng = random.Random(2)
    for _ in range(15):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    w = Crew(game=g, viewer=0)
    n = len(g.actions)
    assert w.state["history"]["n"] == n and w.game is g
    assert w.game_after(n).view(0).to_dict() == g.view(0).to_dict()
    assert w.game_after(0).dealt == g.dealt and len(w.game_after(0).actions) == 0


def test_a_card_that_cannot_go_is_refused_in_a_players_words():
    """R-9.2: a card of the suit led must be played when the seat holds one; the refusal says so."""
    for seed in range(30):
        bots = {0: "random", 2: "random"}
        w = Crew(players=["Ann", "Bob", "Cy"], viewer=1, seats=bots, target=2, seed=seed)
        rng = random.Random(seed)
        for _ in range(200):
            g = w.game
            if g.is_over or (g.step == "play" and g.to_move == 1 and g.current_trick):
                break
            if w.is_bot_turn():
                w.bot_move()
            else:
                intent(w, rng.choice(w.state["legal"]))
        g = w.game
        if g.is_over:
            continue
        led = w.state["trick"]["plays"][0]["card"][0]
        off = [c for c in g.hand(1) if c[0] != led and f"play {c}" not in w.state["legal"]]
        if not off or not any(c[0] == led for c in g.hand(1)):
            continue
        before = list(g.actions)
        intent(w, f"play {off[0]}")
        assert w.error["kind"] == "illegal" and list(w.game.actions) == before
        assert w.error["message"].startswith("Follow suit:") and "legal:" not in w.error["message"]
        return
    pytest.fail("no off-suit card found to try")


def test_the_board_words_every_step_of_the_rules():
    # found scrubbing a Crew table's history in JupyterLab: the header said "Cy (crewmate bot):
    # distress_vote", the engine's name of the step; js/crew/cards.js's STEP_WORDS had no words
    # for it, nor for the allocation steps decide, accept and volunteer or the failure vote
    from dsa_widget.crew import rules

    steps = {
        getattr(rules, name)
        for name in ("TIMING", "ASSIGN", "PROPOSE", "CONFIRM", "DECIDE", "ACCEPT", "VOLUNTEER", "PREDICT")
        + ("DISTRESS", "DISTRESS_VOTE", "DISTRESS_GIVE", "COMMUNICATE", "PLAY", "OVER", "FAILURE_VOTE")
    }
    js = (ROOT / "js" / "crew" / "cards.js").read_text()
    block = re.search(r"export const STEP_WORDS = \{(.*?)\n\};", js, re.S)
    assert block
    worded = dict(re.findall(r"^\s*(\w+): \"([^\"]+)\",", block.group(1), re.M))
    assert steps <= worded.keys(), sorted(steps - worded.keys())
    assert all("_" not in words for words in worded.values())


@pytest.mark.parametrize("cards", ["Y9+B7", "Y7+B7"])
def test_task_13_reads_the_cards_the_option_makes_it_check(cards):
    # found spot-checking the rule options (CREW.md 16, task13_cards): with "Y7+B7" the task
    # was judged on yellow 7 and blue 7 but its card on the board still read "Capture yellow 9
    # and blue 7."
    from dsa_widget.crew.tasks import task_table
    from dsa_widget.crew.words import card_words

    w = Crew(players=["Ann", "Bob", "Cy"], seed=1, tasks=[13], options={"task13_cards": cards})
    task = next(t for t in w.state["tasks"] if t["id"] == 13)
    want = " and ".join(card_words(c) for c in cards.split("+"))
    assert task["summary"] == f"Capture {want}."
    assert task_table(w.game.options)[13].params["cards"] == cards.split("+")  # what is judged
