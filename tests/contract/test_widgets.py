"""The widget and server contract of every game on the platform (its board a
:class:`~dsa_widget.bridge.GameWidget`, its table a
:class:`~dsa_widget.server.session_table.SessionTable`), run once per such game of the
registry, with no kernel and no browser.

* hostile messages never raise, always say why, and change nothing;
* a refused intent leaves the screen as it was, and a stale one says so in words;
* every verb called from a cell redraws the board;
* a failing bot changes nothing: the game pauses and the board says why, in the notebook and
  at a served table alike (and the table does not stall);
* serving a board serves its own game and seats, and the board follows the table;
* the screen of a seat depends only on what that seat may know.
"""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from helpers import random_step

from dsa_widget.bridge import GameWidget
from dsa_widget.core.registry import GameSpec, Option, games
from dsa_widget.server import Table, make_table

PLATFORM = [g for g in games() if g.widget is not None and issubclass(g.widget_class(), GameWidget)]
IDS = [g.name for g in PLATFORM]


#: screen keys a game draws from its past (its events), which a game drawn from a view has not
PAST_KEYS = {"deep-sea": ("log", "log_total", "last_dice", "setup", "events", "history")}


def board(spec: GameSpec, **kw: Any) -> GameWidget:
    lo, _ = spec.seats
    kw.setdefault("seats", {q: "random" for q in range(1, lo)})
    return spec.widget_class()(players=[f"P{q}" for q in range(lo)], seed=3, **kw)


def screen(w: GameWidget) -> str:
    return json.dumps({"state": w.state, "setup": w.setup, "paused": w.paused}, sort_keys=True)


HOSTILE: list[Any] = [
    None,
    [],
    "intent",
    42,
    {"type": 5},
    {"type": "nope", "seq": 0},
    {"type": "__init__", "seq": 0},
    {"type": "_choice", "seq": 0},
    {"type": "intent"},
    {"type": "intent", "seq": 0},
    {"type": "intent", "seq": 0, "choice": 7},
    {"type": "intent", "seq": 0, "choice": ""},
    {"type": "intent", "seq": 0, "choice": "x" * 10_000},
    {"type": "intent", "seq": 0, "choice": "fly away"},
    {"type": "intent", "seq": True, "choice": "x"},
    {"type": "intent", "seq": -99, "choice": "x"},
    {"type": "intent", "seq": "0", "choice": "x"},
    {"type": "intent", "seq": 2**80, "choice": "x"},
    {"type": "pause", "seq": 0, "paused": "yes"},
    {"type": "show_seat", "seq": 0},
    {"type": "scrub", "seq": 0, "step": 999},
    {"type": "scrub", "seq": 0, "step": "0"},
    {"type": "undo", "seq": 0},
    {"type": "redo", "seq": 0},
    {"type": "back_to_real", "seq": 0},
    {"type": "play_out", "seq": 0},
    {"type": "new_game", "seq": 0},
    {"type": "new_game", "seq": 0, "setup": []},
    {"type": "new_game", "seq": 0, "setup": {"players": ["a"]}},
    {"type": "new_game", "seq": 0, "setup": {"players": ["a", "b"], "kinds": ["human", "skynet"]}},
    {"type": "new_game", "seq": 0, "setup": {"players": ["a", "b"], "options": {"nope": 1}}},
    {"type": "new_game", "seq": 0, "setup": {"players": ["a", "b"], "seed": -1}},
    {"type": "new_game", "seq": 0, "setup": {"players": ["a", "b"], "evil": 1}},
    {"type": "new_game", "seq": 0, "setup": {"players": ["a" * 100, "b"]}},
    {"type": "new_game", "seq": 0, "setup": {"players": "ab"}},
]


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
@pytest.mark.parametrize("k", range(len(HOSTILE)))
def test_hostile_messages_never_raise_say_why_and_change_nothing(spec: GameSpec, k: int) -> None:
    w = board(spec)
    before = screen(w)
    w.handle_intent(copy.deepcopy(HOSTILE[k]))
    assert w.error and w.error["message"] and len(w.error["message"]) <= 300, HOSTILE[k]
    assert w.last_exception is None
    assert screen(w) == before


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_a_stale_click_is_refused_in_words(spec: GameSpec) -> None:
    w = board(spec, seats={})
    legal = w.state["legal"] or [w.state["chance"]]
    w.apply(legal[0])
    before = screen(w)
    w.handle_intent({"type": "intent", "seq": w.seq - 1, "choice": legal[0]})
    assert w.error["kind"] == "stale" and "nothing changed" in w.error["message"]
    assert screen(w) == before


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_every_verb_from_a_cell_redraws_the_board(spec: GameSpec) -> None:
    w = board(spec, seats={})
    for verb in ("apply", "branch", "apply_in_branch", "undo", "redo", "back_to_real", "seek"):
        seq = w.state["seq"]
        if verb == "apply":
            w.apply((w.state["legal"] or [w.state["chance"]])[0])
        elif verb == "apply_in_branch":
            w.handle_intent(
                {"type": "intent", "seq": w.seq, "choice": (w.state["legal"] or [w.state["chance"]])[0]}
            )
        elif verb == "seek":
            w.seek(0)
        else:
            getattr(w, verb)()
        assert w.state["seq"] > seq, verb
    assert w.state["mode"] == "history"
    w.seek(None)
    w.new_game(players=list(w.game.players), seed=9)
    assert w.state["history"]["n"] == 0 and not w.error


def _not_usual(o: Option) -> Any:
    """A value ``o`` takes other than its usual one."""
    if o.choices:
        return next(v for v, _ in o.choices if v != o.default)
    return o.minimum if o.minimum is not None and o.minimum != o.default else o.default + 1


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_the_new_game_form_starts_from_this_games_settings(spec: GameSpec) -> None:
    # found playing Pig(goal=30): "New game..." showed "Points to win 100" and Start, with
    # nothing changed, began a game to 100, while "Play again" kept 30.  The form (js/shell.js)
    # shows and sends back the `setup` trait's values and options; here is what it sends when
    # the player changes nothing
    own = {o.key: _not_usual(o) for o in spec.setup_schema()[:1]}
    rules = {o.key: _not_usual(o) for o in spec.option_schema()[:1]}
    w = board(spec, **own, **({"options": rules} if rules else {}))
    shown = json.loads(json.dumps(w.setup))  # as the browser has it
    assert {k: shown["values"][k] for k in own} == json.loads(json.dumps(own))
    assert {k: shown["options"][k] for k in rules} == json.loads(json.dumps(rules))
    form = {"players": shown["players"], "kinds": shown["kinds"], **shown["values"]}
    w.handle_intent({"type": "new_game", "seq": w.seq, "setup": {**form, "options": shown["options"]}})
    assert not w.error and w.state["history"]["n"] == 0
    assert {k: w.setup["values"][k] for k in own} == own and {
        k: w.setup["options"][k] for k in rules
    } == rules


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_the_new_game_form_starts_from_the_settings_of_a_game_given_to_the_board(spec: GameSpec) -> None:
    # the same for a board given a game (game=, as after loading a record): the form read only
    # the keywords the board was made with, so Pig(game=PigGame(goal=30)) showed 100 and a Crew
    # board given a target-6 mission showed target 3; play again lost them the same way
    own = {o.key: _not_usual(o) for o in spec.setup_schema()[:1]}
    rules = {o.key: _not_usual(o) for o in spec.option_schema()[:1]}
    lo, _ = spec.seats
    game = spec.new_game(
        players=[f"P{q}" for q in range(lo)], seed=3, **own, **({"options": rules} if rules else {})
    )
    w = spec.widget_class()(game=game, seats={q: "random" for q in range(1, lo)})
    assert not own.keys() & w.session.setup.keys()  # the settings come from the game only
    shown = json.loads(json.dumps(w.setup))
    assert {k: shown["values"][k] for k in own} == json.loads(json.dumps(own))
    assert {k: shown["options"][k] for k in rules} == json.loads(json.dumps(rules))
    w.handle_intent({"type": "play_again", "seq": w.seq})
    assert not w.error, w.error
    assert {k: w.setup["values"][k] for k in own} == own and {
        k: w.setup["options"][k] for k in rules
    } == rules


def _offered(o: Option) -> list[Any]:
    """Every value the setup form offers for ``o`` other than its usual one (the ends of a
    number's range)."""
    if o.choices:
        return [v for v, _ in o.choices if v != o.default]
    return [v for v in (o.minimum, o.maximum) if v is not None and v != o.default]


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_every_rule_option_the_form_offers_starts_a_game_and_the_form_keeps_it(spec: GameSpec) -> None:
    # found trying each option from the New game form as a teacher would: The Crew offered
    # "How a failed task is spotted: also from the hidden hands", which the game always
    # refuses; Submarine started a game with "15, 14, 13 or 12 cards" but the form then showed
    # "15 cards each", so Start with nothing changed went back to the usual table
    _, hi = spec.seats  # the most players: every seat a start player may name exists
    w = spec.widget_class()(players=[f"P{q}" for q in range(hi)], seed=3, seats={})
    for o in spec.option_schema():
        for value in _offered(o):
            shown = json.loads(json.dumps(w.setup))  # as the browser has it
            form = {"players": shown["players"], "kinds": shown["kinds"], **shown["values"]}
            sent = json.loads(json.dumps(value))
            w.handle_intent({"type": "new_game", "seq": w.seq, "setup": {**form, "options": {o.key: sent}}})
            assert not w.error, (o.key, value, w.error)
            assert json.loads(json.dumps(w.setup))["options"].get(o.key) == sent, (o.key, value)


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_a_rule_option_the_form_cannot_take_is_refused_in_the_forms_words(spec: GameSpec) -> None:
    # found typing a turn limit of 0 into Submarine's New game form: the refusal named the
    # option by its identifier ("option 'turn_limit' must be a whole number 1..5000"), not by
    # the label the form shows ("Turn limit"), as the form's own fields are
    w = board(spec, seats={})
    for o in spec.option_schema():
        bad: Any = "no such choice" if o.choices else (o.maximum or 0) + 1
        shown = json.loads(json.dumps(w.setup))
        before = screen(w)
        form = {"players": shown["players"], "kinds": shown["kinds"], **shown["values"]}
        w.handle_intent({"type": "new_game", "seq": w.seq, "setup": {**form, "options": {o.key: bad}}})
        assert w.error["kind"] == "setup" and w.error["message"].startswith(o.label), (o.key, w.error)
        assert screen(w) == before


def test_a_first_player_the_game_has_no_seat_for_is_refused_in_the_forms_words() -> None:
    # Submarine's form offers Player 1 to Player 5 as the first player, whatever the number of
    # players: Player 4 in a game of two was refused as "start_player must be a seat 0..1"
    from dsa_widget.core.registry import game

    spec = game("submarine")
    w = board(spec, seats={})
    shown = json.loads(json.dumps(w.setup))
    form = {"players": shown["players"], "kinds": shown["kinds"], **shown["values"]}
    w.handle_intent({"type": "new_game", "seq": w.seq, "setup": {**form, "options": {"start_player": 3}}})
    assert w.error["message"].startswith("First player: a game of 2 has Player 1 to Player 2, not Player 4")


#: keys a saved page's scrub may show otherwise than a kernel's: Deep Sea sends the last lines
#: of its log with each past step (the whole log stays in Python), and The Crew's step that was
#: live when it was sent keeps its prompt (drawn only for a seat that can act, which a past
#: step never can)
PAST_DIFFERS = {"deep-sea": {"log"}, "crew": {"prompt", "clock", "retry"}}


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_a_saved_pages_history_step_shows_what_a_kernels_shows(spec: GameSpec) -> None:
    # found scrubbing a Submarine page saved with no kernel: every past step marked the seat to
    # move in the live game "to move" (Cy) under a header saying it was Ann's turn, and Pig's
    # and Submarine's past steps showed the bots' words of the live game.  A page with no kernel
    # rebuilds step k from the synced changes (js/shell.js frameAt, then live()'s overrides);
    # with a kernel the scrub asks Python (Session.screen in history mode)
    lo, _ = spec.seats
    w = board(spec, seats={q: "random" for q in range(1, lo)}, bot_seed=1)
    rng = random.Random(1)
    while w.state["history"]["n"] < 20 and not w.game.is_over:
        st = w.state
        if st["legal"]:
            w.apply(rng.choice(st["legal"]))
        else:
            assert w.bot_move() is not None or st["chance"]
            if st["chance"] and w.state["seq"] == st["seq"]:
                w.apply(st["chance"])
    saved = json.loads(json.dumps(w.state))
    frames, now = [], {}
    for change in [*(f for chunk in w.history_chunks for f in chunk), *w.history_tail]:
        now = {**now, **json.loads(json.dumps(change))}
        frames.append(now)
    offline = {"mode": "history", "over": False, "can_act": False, "legal": [], "chance": None}
    skip = {"seq", "history", *PAST_DIFFERS.get(spec.name, ())}
    for k in range(len(frames) - 1):
        page = {**saved, **frames[k], **offline}
        w.seek(k)
        kernel = json.loads(json.dumps(w.state))
        differ = sorted(key for key in (set(page) | set(kernel)) - skip if page.get(key) != kernel.get(key))
        assert not differ, (k, differ)
    w.seek(None)


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_a_what_if_shows_its_own_bots_words_and_the_real_game_gets_its_own_back(spec: GameSpec) -> None:
    # found saving a Pig page in a what-if: Bob's seat showed "why: roll the die - 22 banked
    # makes 22" beside a what-if where Bob had chosen nothing (the real game's words), and a
    # bot's choice in a what-if stayed under its seat once back in the real game
    lo, _ = spec.seats
    w = spec.widget_class()(
        players=[f"P{q}" for q in range(lo)], seats=dict.fromkeys(range(lo), "random"), seed=3, bot_seed=1
    )
    while not w.state["bot_said"] and not w.game.is_over:
        w.bot_move()
    real = w.state["bot_said"]
    assert real
    w.branch()
    assert w.state["bot_said"] == {}
    for _ in range(50):
        if w.state["bot_said"] or w.branch_game.is_over:
            break
        w.bot_move()
    assert w.state["bot_said"], "a bot chose in the what-if"
    w.back_to_real()
    assert w.state["bot_said"] == real


def _broken_bot(view: Any, legal: tuple[Any, ...]) -> Any:
    raise RuntimeError("the bot's own bug")


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_a_failing_bot_pauses_the_game_and_says_why(spec: GameSpec) -> None:
    lo, _ = spec.seats
    w = spec.widget_class()(
        players=[f"P{q}" for q in range(lo)], seats=dict.fromkeys(range(lo), _broken_bot), seed=1
    )
    while w.game.to_move < 0 and not w.game.is_over:  # a chance step first: the runner draws it
        w.bot_move()
    steps = w.state["history"]["n"]
    w.handle_intent({"type": "bot_step", "seq": w.seq})
    assert w.paused and w.state["problem"] and "RuntimeError" in w.state["problem"]["message"]
    assert w.error["kind"] == "bot" and "paused" in w.error["message"]
    assert w.state["history"]["n"] == steps  # nothing was played for the bot
    # the same at a served table: the table pauses and every screen says why; nothing stalls
    table = make_table(spec.new_game(players=lo, seed=1), seats=[_broken_bot] * lo, started=True)
    assert isinstance(table, Table)
    table.run_bots(max_choices=50)
    assert table.paused and table.problem and "could not move" in table.problem
    assert "could not move" in json.loads(table.screen(None).parts["table"])["problem"]


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_serving_a_board_serves_its_own_game(spec: GameSpec) -> None:
    lo, _ = spec.seats
    w = board(spec, seats={q: "random" for q in range(1, lo)})
    table = make_table(w)
    assert table.game.game is w.game and table.game.seats == w.seats
    assert w.state["viewer"] is None  # the notebook now shows a spectator's screen
    seq = w.seq
    table.started = True
    table.run_bots()  # until a human is to act
    t = table.game.to_move
    legal = table.game.game.legal_actions() or (table.game.game.CHANCE_ACTION,)
    assert table.handle(t, {"type": "intent", "seq": table.seq, "choice": legal[0]}) is None
    assert w.seq > seq and w.state["history"]["n"] >= 1


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_w_serve_serves_the_board_and_gives_it_back(spec: GameSpec) -> None:
    """``w.serve()`` for every game: the board shows a spectator's screen, a cell's move
    reaches the seats' pages at once, and when the table closes the board is the notebook's
    again (whose screen it was before)."""
    from server_helpers import Client

    w = board(spec)
    viewer = w.state["viewer"]
    srv = w.serve(bot_delay=0.0)
    try:
        assert w.serving and w.server is srv and w.state["viewer"] is None
        assert srv.fill == spec.default_bot
        seat0 = Client(srv.base_url, srv.table.keys.seat_token(0))
        seq = seat0.state_at_least(1)["seq"]
        srv.call(lambda: w.play_bots() if w.is_bot_turn() else None)
        g = w.game
        legal = g.legal_actions() if g.to_move >= 0 else ()
        srv.call(lambda: w.apply(legal[0]) if legal else w.chance())  # a cell acts
        assert seat0.state_at_least(seq + 1)["history"]["n"] >= 1  # the page followed
        with pytest.raises(RuntimeError, match="served already"):
            w.serve()
        seq = w.seq
        srv.call(lambda: w.handle_intent({"type": "intent", "seq": w.seq, "choice": "anything"}))
        assert w.error["kind"] == "not_your_turn" and "served" in w.error["message"] and w.seq == seq
    finally:
        srv.stop()
    assert not w.serving and w.state["viewer"] == viewer


@pytest.mark.parametrize("spec", PLATFORM, ids=IDS)
def test_a_seats_screen_depends_only_on_what_it_may_know(spec: GameSpec) -> None:
    """Two games that seat 0 cannot tell apart (one drawn from its view) give seat 0 the very
    same screen: no synced trait holds a value it may not know."""
    rng = random.Random(4)
    for k in range(6):
        g = spec.new_game(players=spec.seats[0], seed=k)
        for _ in range(rng.randrange(30)):
            if g.is_over:
                break
            random_step(g, rng)
        other = g.view(0).sample(random.Random(k))
        a = spec.widget_class()(game=g.clone(), viewer=0)
        b = spec.widget_class()(game=other, viewer=0)
        # a game drawn from a view starts without its past: the keys told by the past (Deep
        # Sea's log of public events, its last dice, whether its setup was seeded) differ
        past = PAST_KEYS.get(spec.name, ())
        assert {k: v for k, v in a.state.items() if k not in past} == {
            k: v for k, v in b.state.items() if k not in past
        }
