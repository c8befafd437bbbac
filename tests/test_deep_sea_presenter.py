"""DeepSeaPresenter: Deep Sea Adventure's screens on the platform's Session, checked against the
served table's screens (SeatScreen) they replace, and for what each viewer may know."""

from __future__ import annotations

import random
from collections.abc import Iterator, Mapping
from typing import Any

import pytest
from deep_sea_served_reference import SeatScreen, compare_row
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.core.bots import bot_name
from dsa_widget.core.session import HIDDEN_REASONS, Session
from dsa_widget.core.timeline import Timeline
from dsa_widget.deep_sea.bots.heuristics import choice_words
from dsa_widget.deep_sea.presenter import DeepSeaPresenter
from dsa_widget.deep_sea.rules import Game
from dsa_widget.deep_sea.setup import standard_path
from dsa_widget.deep_sea.state import _visible_bank_seats, build_state, known_values, mask_branch_event
from dsa_widget.server.session_table import SessionTable

#: the keys Session.screen() writes over the presenter's
SESSION_KEYS = frozenset(
    {
        "seq",
        "mode",
        "kinds",
        "actor",
        "viewer",
        "bot_seats",
        "can_act",
        "legal",
        "chance",
        "over",
        "paused",
        "problem",
        "curtain",
        "history",
        "whatif",
        "bot_said",
    }
)
#: what a screen says of a bot's reasons under reveal="owner" (the session's words)
SECRET = HIDDEN_REASONS


def _session(n: int, reveal: str, seed: int, humans: tuple[int, ...] = (0,), **setup: Any) -> Session:
    seats = {q: "human" if q in humans else "random" for q in range(n)}
    return Session(
        "deep_sea",
        presenter=DeepSeaPresenter(),
        seats=seats,
        players=n,
        seed=seed,
        bot_seed=seed,
        options={"reveal": reveal},
        **setup,
    )


def _presenter(s: Session) -> DeepSeaPresenter:
    p = s.presenter
    assert isinstance(p, DeepSeaPresenter)
    return p


def _step(s: Session, rng: random.Random, said: dict[int, str]) -> None:
    """One step of the real game: a bot's (``said`` gets what the served table's card said of
    it), or a human's click through the session's intents."""
    g = s.game
    t = s.actor(g)
    assert t is not None
    if t in s.bots:
        step = g.step
        played = s.bot_move()
        if step != "roll":  # as DeepSeaTable._why
            name = bot_name(s.bots[t])
            if g.setup.options.reveal == "public":
                said[t] = s.bots[t].explain() or f"{name}: {choice_words(played)}"
            else:
                said[t] = f"{name}: {SECRET}"
        return
    choice = "roll" if g.step == "roll" else rng.choice(g.legal_choices())
    assert s.handle({"type": "intent", "seq": s.seq, "choice": choice}, seat=t) is None


def _play(s: Session, seed: int) -> Iterator[dict[int, str]]:
    """Play ``s`` to its end, yielding (what the bots said) before every step and at the end."""
    rng = random.Random(seed)
    said: dict[int, str] = {}
    yield said
    while not s.game.is_over:
        _step(s, rng, said)
        yield said


# ---------------------------------------------------------------------- golden: the served screens

CASES = [
    (2, "public", 1, (0,)),
    (2, "owner", 5, (0, 1)),
    (3, "owner", 2, (0,)),
    (4, "owner", 3, (1,)),
    (4, "public", 7, ()),
    (5, "public", 4, (0,)),
    (5, "owner", 6, (2,)),
]


@pytest.mark.parametrize(("n", "reveal", "seed", "humans"), CASES)
def test_screens_are_the_served_tables_screens(
    n: int, reveal: str, seed: int, humans: tuple[int, ...]
) -> None:
    """At every step, for the spectator and every seat: the presenter's state is SeatScreen's
    state, key for key; Session.screen() keeps every key the session does not own."""
    s = _session(n, reveal, seed, humans)
    p = _presenter(s)
    viewers: list[int | None] = [None, *range(n)]
    old = {v: SeatScreen(v) for v in viewers}
    steps = 0
    for said in _play(s, seed):
        for v in viewers:
            want = old[v].build(s.game, seats=s.seats, seq=s.seq, bot_said=said, bot_delay=600)
            mine = p.screen(s, s.shown, v)
            # what the bots said is the session's part of a screen now, the same in every game
            assert mine == {k: x for k, x in want["state"].items() if k != "bot_said"}, (steps, v)
            full = s.screen(v)
            assert {k: x for k, x in full.items() if k not in SESSION_KEYS} == {
                k: x for k, x in want["state"].items() if k not in SESSION_KEYS
            }
            assert full["bot_said"] == want["state"]["bot_said"], (steps, v)
        steps += 1
    assert s.game.is_over and steps > 20
    final = s.screen(None)
    assert final["summary"]["id"].startswith("game") and final["summary"]["why_winner"]


def test_the_collisions_with_the_session_keys() -> None:
    """The keys of build_state (and SeatScreen) that Session.screen() writes over: the same
    meaning for seq, mode (in the real game), viewer and over; not for legal and paused."""
    s = _session(3, "owner", 1, humans=(0,))
    mine = _presenter(s).screen(s, s.shown, 0)
    assert set(mine) & SESSION_KEYS == {"seq", "mode", "viewer", "legal", "over", "paused"}
    for v in (None, 0, 1):
        full, own = s.screen(v), _presenter(s).screen(s, s.shown, v)
        assert (full["seq"], full["mode"], full["viewer"], full["over"]) == (
            own["seq"],
            own["mode"],
            own["viewer"],
            own["over"],
        )
    # legal: build_state shows the seat to act's choices to every screen, "roll" included; the
    # session only to the seat that acts (legal_for), with chance "roll" besides
    assert _presenter(s).screen(s, s.shown, 1)["legal"] == ["roll"]
    assert s.screen(0)["legal"] == ["roll"] and s.screen(0)["chance"] == "roll"
    assert s.screen(1)["legal"] == [] and s.screen(None)["legal"] == []
    # paused: build_state's is always False on a served page; the session's is the table's
    s.paused = True
    assert s.screen(0)["paused"] is True and _presenter(s).screen(s, s.shown, 0)["paused"] is False


# ---------------------------------------------------------------------- what a viewer may know


def _check_masked(state: Mapping[str, Any], game: Game, viewer: int | None) -> None:
    """No banked value ``viewer`` may not know anywhere in ``state`` (nor any value carried
    or on the path), as :func:`_visible_bank_seats` says it may know them."""
    vis = _visible_bank_seats(game, viewer, False)
    if vis is None:
        return
    for space in state["path"]:
        assert space == 0 or all(len(c) == 1 for c in space)
    for d in state["divers"]:
        assert all(len(c) == 1 for item in d["items"] for c in item)
    for q, chips in enumerate(state["banked"]):
        if q not in vis:
            assert all(len(c) == 1 for c in chips)
            assert state["scores"][q] is None or not chips
    assert state["winners"] == [] or game.is_over
    for e in state["events"]:
        if e["type"] == "bank" and e["seat"] not in vis:
            assert all(c[1] == "?" for c in e["chips"])
    names = game.players
    for line in state["log"]:
        if " banks " in line and not any(line.startswith(f"{names[q]} banks") for q in vis):
            assert "values hidden" in line
    summary = state["summary"]
    if summary is not None:
        for b in summary["banked"]:
            if b["seat"] not in vis:
                assert b["points"] is None and all(c[1] == "?" for c in b["chips"])
    for q, said in state.get("bot_said", {}).items():  # (a presenter's screen has none)
        assert said.endswith(SECRET), (q, said)


@pytest.mark.parametrize(("n", "seed"), [(2, 11), (3, 12), (5, 13)])
def test_owner_screens_hold_no_value_the_viewer_may_not_know(n: int, seed: int) -> None:
    s = _session(n, "owner", seed, humans=())
    p = _presenter(s)
    for _ in _play(s, seed):
        g = s.game
        for v in (None, *range(n)):
            _check_masked(s.screen(v), g, v)
            frames = s.frames()  # the history's screen of the step before (a saved page scrubs it)
            if len(frames) > 1:
                _check_masked(p.screen(s, frames[-2], v), frames[-2], v)


def _twin_path(game: Game, viewer: int | None, seed: int) -> list[tuple[int, int]]:
    """``game``'s path with the values of every chip ``viewer`` never banked shuffled within
    its level (a standard path still): a game nobody but ``viewer`` could tell apart."""
    path = list(game.setup.path)
    own = set() if viewer is None else {c for c in game.view(0).banked[viewer]}
    rng = random.Random(seed)
    for level in (1, 2, 3, 4):
        ids = [i for i, (lv, _) in enumerate(path) if lv == level and i not in own]
        values = [path[i][1] for i in ids]
        rng.shuffle(values)
        for i, x in zip(ids, values, strict=True):
            path[i] = (level, x)
    return path


@settings(max_examples=12, deadline=None)
@given(n=st.integers(2, 5), seed=st.integers(0, 10_000), pick=st.integers(0, 5))
def test_twin_games_look_the_same_to_whoever_cannot_tell_them_apart(n: int, seed: int, pick: int) -> None:
    """Under reveal="owner" two games that differ only in values ``viewer`` does not know give
    ``viewer`` the same screens (board, log, summary, events, history words, history frames)
    at every step before the end, where every value is shown."""
    viewer = None if pick >= n else pick
    setup: dict[str, Any] = {"path": list(standard_path(seed)), "air": 12, "rounds": 2}
    a = _session(n, "owner", seed, humans=tuple(range(n)), **setup)
    rng = random.Random(seed)
    while not a.game.is_over:  # the game first: who banks what
        g = a.game
        a.apply("roll" if g.step == "roll" else rng.choice(g.legal_choices()))
    frames, steps = a.frames(), list(a.steps)
    twin = {**setup, "path": _twin_path(a.game, viewer, seed + 1)}
    a = _session(n, "owner", seed, humans=tuple(range(n)), **setup)
    b = _session(n, "owner", seed, humans=tuple(range(n)), **twin)
    for i, (q, action) in enumerate(steps):
        if frames[i + 1].is_over:
            break
        for s in (a, b):
            if action is None:
                s.chance(frames[i + 1].last_dice)
            else:
                s.apply(action, q)
        assert s.game.to_record()["turns"] == frames[i + 1].to_record()["turns"]
        sa, sb = a.screen(viewer), b.screen(viewer)
        assert sa == sb, i
        past_a, past_b = a.frames()[i], b.frames()[i]  # the history's screens of the step before
        assert _presenter(a).screen(a, past_a, viewer) == _presenter(b).screen(b, past_b, viewer), i
    assert a.labels(viewer) == b.labels(viewer)


# ---------------------------------------------------------------------- history words


def test_labels_are_the_masked_log_of_each_step() -> None:
    s = _session(3, "owner", 21, humans=())
    for _ in _play(s, 21):
        pass
    frames = s.frames()
    p = _presenter(s)
    hidden_banks = 0
    for v in (None, 0, 1, 2):
        labels = s.labels(v)
        assert len(labels) == len(s.steps)
        for i, ((q, action), text) in enumerate(zip(s.steps, labels, strict=True)):
            before, after = frames[i], frames[i + 1]
            assert text == p.label(before, after, q, action, v)
            if action is None:  # a roll: its dice
                d1, d2 = after.last_dice
                assert f"rolls {d1} + {d2}" in text
            vis = _visible_bank_seats(after, v, False)
            for e in after.events_since(before.n_events):
                if e["type"] == "bank" and vis is not None and e["seat"] not in vis:
                    hidden_banks += 1
                    who = after.players[e["seat"]]
                    assert f"{who} banks {len(e['chips'])} chip" in text
                    assert f"{who} banks {len(e['chips'])} chips:" not in text
                    assert f"{who} banks 1 chip:" not in text
    assert hidden_banks > 0
    # the steps nothing is said of (a search with nothing taken) still get words
    g = Game(players=["Ann", "Bob"], seed=1)
    before = g.copy()
    g.roll((1, 1))
    mid = g.copy()
    g.apply("none")
    assert p.label(mid, g, 0, "none", None) == "Ann chose none"
    assert p.label(before, mid, None, None, None).startswith("Ann rolls 1 + 1 = 2")


# ---------------------------------------------------------------------- caches


def test_the_logs_grow_per_viewer_and_start_afresh() -> None:
    s = _session(3, "owner", 31, humans=(0,))
    p = _presenter(s)
    rng = random.Random(1)
    said: dict[int, str] = {}
    s.screen(0)
    book = p._logs[0]
    for _ in range(40):
        _step(s, rng, said)
        s.screen(0)
        assert p._logs[0] is book  # grown in place, never rebuilt
    assert book.sent == s.game.n_events and len(book.at) == s.game.n_events + 1
    n_log = s.screen(0)["log_total"]
    # an undo in the real game: a new generation, the log told again from the game's events
    s.undo(5)
    st0 = s.screen(0)
    assert p._logs[0] is not book and st0["log_total"] < n_log
    assert st0 == {**s.screen(0)}
    fresh = SeatScreen(0).build(s.game, seats=s.seats, seq=s.seq, bot_said={}, bot_delay=600)["state"]
    assert st0["log"] == fresh["log"] and st0["log_total"] == fresh["log_total"]
    # a new game: afresh too
    s.new_game(**_presenter(s).replay_setup(s.game, s.setup))
    assert (
        s.screen(0)["log"]
        == SeatScreen(0).build(s.game, seats=s.seats, seq=s.seq, bot_said={}, bot_delay=600)["state"]["log"]
    )
    assert s.screen(0)["bot_said"] == {}


def test_a_past_step_shows_its_log_and_its_own_events() -> None:
    s = _session(2, "owner", 41, humans=())
    rng = random.Random(2)
    said: dict[int, str] = {}
    for _ in range(30):
        _step(s, rng, said)
    frames = s.frames()
    for k in (0, 1, 7, 19):
        s.seek(k)
        st0 = s.screen(1)
        assert st0["mode"] == "history"
        g = frames[k]
        fresh = SeatScreen(1).build(g.copy(), seats=s.seats, seq=s.seq, bot_said={}, bot_delay=600)["state"]
        skip = SESSION_KEYS | {"events", "summary", "bot_said"}
        assert {x: y for x, y in st0.items() if x not in skip} == {
            x: y for x, y in fresh.items() if x not in skip
        }
        want = [] if k == 0 else g.events_since(frames[k - 1].n_events)
        assert [e["type"] for e in st0["events"]] == [e["type"] for e in want]
        assert st0["summary"] is None
    s.seek(None)
    assert s.screen(1)["mode"] == "real"


# ---------------------------------------------------------------------- what-if and its rows


def _to_round_two(s: Session, seed: int) -> None:
    rng = random.Random(seed)
    said: dict[int, str] = {}
    while s.game.round < 2 or any(not b for b in s.game.view(0).banked[1:]):
        _step(s, rng, said)
        if s.game.is_over:
            pytest.skip("the game ended first")


def test_a_what_if_is_masked_by_what_the_real_game_lets_the_viewer_know() -> None:
    s = _session(3, "owner", 8, humans=(0,), rounds=3)
    _to_round_two(s, 8)
    real = s.game
    s.branch()  # a player's what-if: the values the viewer does not know are drawn again
    assert s.branch_sampled
    st0 = s.screen(0)
    assert st0["mode"] == "whatif" and st0["log"] == ["What-if from now: the real game is untouched."]
    assert st0["summary"] is None and st0["events"] == []
    assert st0["setup"] == build_state(real, seats=s.seats, seq=0)["setup"]  # not the sample's
    known = known_values(real, 0)
    want = build_state(s.shown, seats=s.seats, seq=s.seq, viewer=0, known=known)
    assert st0["banked"] == want["banked"] and st0["scores"] == want["scores"]
    assert all(len(c) == 1 for q in (1, 2) for c in st0["banked"][q])
    rows = st0["whatif"]["compare"]
    assert [r["name"] for r in rows] == ["real", "what-if"]
    assert rows[0] == compare_row("real", real, known)
    assert rows[0]["scores"][1] is None and rows[0]["scores"][0] == real.scores[0]
    # the comparison's rows, as a spectator may know them: nobody's values under "owner"
    for r in s.compare(None):
        assert all(sc is None or not k for sc, k in zip(r["scores"], r["banked"], strict=True))


def test_a_what_if_holding_the_true_values_shows_only_what_the_real_game_lets_know() -> None:
    """The plan's Deep Sea what-if copies the real game (true values, fresh dice) instead of a
    sample: its events, log and rows then stay masked by the real game's knowledge."""
    s = _session(3, "owner", 8, humans=(0,), rounds=3)
    _to_round_two(s, 8)
    real = s.game
    s.branch()
    copy = real.copy()
    copy.set_dice(99)
    s.branch_line, s.branch_sampled = Timeline(copy), False  # as a start_branch hook would
    rng = random.Random(3)
    banks = 0
    while not s.shown.is_over and s.shown.round == 2:
        g = s.shown
        s.apply("roll" if g.step == "roll" else rng.choice(g.legal_choices()))
        st1 = s.screen(0)
        assert st1["log_total"] > 40 or st1["log"][0] == "What-if from now: the real game is untouched."
        assert st1["events"] == [mask_branch_event(e, False) for e in s.shown.events_since(g.n_events)]
        for e in st1["events"]:
            if e["type"] == "bank":
                banks += 1
                assert all(c[1] == "?" for c in e["chips"])
        known = known_values(real, 0)
        for q, chips in enumerate(st1["banked"]):
            for c, cid in zip(chips, s.shown.view(0).banked[q], strict=True):
                assert (len(c) == 2) == (cid in known)
        for r in st1["whatif"]["compare"]:
            assert r == compare_row(r["name"], s.shown if r["name"] == "what-if" else real, known)
    assert banks > 0 and len(s.screen(0)["log"]) > 5


def test_the_roll_intent_rolls_chosen_dice_in_a_what_if_only() -> None:
    s = _session(2, "public", 3, humans=(0, 1))
    r = s.handle({"type": "roll", "seq": s.seq, "dice": [1, 2]})
    assert r is not None and r.kind == "illegal" and s.game.step == "roll"
    s.handle({"type": "what_if", "seq": s.seq})
    assert s.in_what_if
    for bad in ([1], [1, "2"], [True, 1], "12"):
        r = s.handle({"type": "roll", "seq": s.seq, "dice": bad})
        assert r is not None and r.kind == "malformed"
    r = s.handle({"type": "roll", "seq": s.seq, "dice": [4, 1]})
    assert r is not None and r.kind == "illegal"
    assert s.handle({"type": "roll", "seq": s.seq, "dice": [3, 2]}) is None
    assert s.shown.last_dice == (3, 2) and s.game.step == "roll"  # the real game never moved
    r = s.handle({"type": "roll", "seq": s.seq, "dice": [1, 1]})
    assert r is not None and r.kind == "illegal"  # a choice comes next, not a roll
    assert s.screen(0)["last_dice"] == [3, 2]


# ---------------------------------------------------------------------- bots, play again, serving


def test_what_the_bots_said() -> None:
    def lazy(view: Any, legal: tuple[str, ...]) -> str:
        return legal[0]

    for reveal in ("public", "owner"):
        s = Session(
            "deep_sea",
            presenter=DeepSeaPresenter(),
            seats=["random", lazy],
            players=2,
            seed=2,
            bot_seed=2,
            options={"reveal": reveal},
        )
        while len(s.bot_said) < 2:
            s.bot_move()
        said = s.screen(None)["bot_said"]
        last = {q: next(a for w, a in reversed(s.steps) if w == q and a is not None) for q in (0, 1)}
        if reveal == "public":  # a bot with no explain(): its choice in the game's words
            assert said == {"0": s.bots[0].explain(), "1": f"lazy: {choice_words(last[1])}"}
            assert "'" not in said["1"]  # not its code ('none')
        else:
            assert said == {"0": f"random: {SECRET}", "1": f"lazy: {SECRET}"}


def test_play_again_keeps_the_settings_but_not_the_seed() -> None:
    path = [[1, 2], [2, 5], [3, 9], [4, 14]]
    s = Session(
        "deep_sea",
        presenter=DeepSeaPresenter(),
        players=["Ann", "Bob", "Cy"],
        air=9,
        rounds=1,
        first_player=2,
        path=path,
        seed=5,
        options={"reveal": "owner", "tiebreak": "levels_desc"},
    )
    again = _presenter(s).replay_setup(s.game, s.setup)
    assert again == {
        "players": ["Ann", "Bob", "Cy"],
        "air": 9,
        "rounds": 1,
        "first_player": 2,
        "options": s.game.setup.options.to_dict(),
        "path": path,
    }
    s.new_game(**again)
    g = s.game.setup
    assert (g.players, g.air, g.rounds, g.first_player, g.seed) == (("Ann", "Bob", "Cy"), 9, 1, 2, None)
    assert g.options.reveal == "owner" and [list(c) for c in g.path] == path
    standard = Session("deep_sea", presenter=DeepSeaPresenter(), players=2, seed=3)
    assert _presenter(standard).replay_setup(standard.game, standard.setup)["path"] is None


def test_served_through_a_session_table() -> None:
    """SessionTable over a Session with this presenter: each seat's model holds its board (the
    board's settings the first time only)."""
    s = _session(2, "owner", 9, humans=(0,))
    table = SessionTable(s.game, session=s)
    m0 = table.screen(0, seq=1)
    assert m0["state"]["legal"] == ["roll"] and m0["state"]["step"] == "roll" and "bot_help" in m0
    assert table.screen(None, seq=1)["state"]["legal"] == []
    again = table.screen(0, seq=2)
    assert "bot_help" not in again and again["state"]["seq"] == 2
    table.apply_intent(0, {"choice": "roll"})
    while s.game.current_player == 0 and not s.game.is_over:
        table.apply_intent(0, {"choice": s.game.legal_choices()[-1]})
    while table.bot_due():
        table.bot_step()
    said = table.screen(1, seq=4)["state"]["bot_said"]
    assert said and all(t.endswith(SECRET) for t in said.values())


@pytest.mark.parametrize(("reveal", "seed"), [("public", 11), ("owner", 12)])
def test_the_viewers_of_one_change_share_what_they_may_all_know(reveal: str, seed: int) -> None:
    """Issue 32, item 4: a served table builds every viewer's screen after every change.  The
    viewers who may know the same chip values share one board, built once per change, and
    under ``reveal="public"`` (no value is ever masked in the log) one turn log serves them
    all (counted, not timed).  Each screen is still exactly the one a presenter of its own
    builds for that viewer alone."""
    n = 5
    s = _session(n, reveal, seed, humans=tuple(range(n)))
    p = _presenter(s)
    viewers: list[int | None] = [None, *range(n)]
    rng = random.Random(seed)
    said: dict[int, str] = {}
    changes = 0
    while not s.game.is_over:
        _step(s, rng, said)
        changes += 1
        before = p.boards_built
        shared = [s.screen(v) for v in viewers]
        built = p.boards_built - before
        known = {tuple(sorted(known_values(s.game, v).items())) for v in viewers}
        assert built == len(known)  # one board per distinct set of values shown
        if reveal == "public":
            assert built == 1
        if changes % 9 == 0 and not s.game.is_over:
            keys = ("path", "divers", "banked", "scores", "winners", "setup", "log", "log_total")
            for v, st in zip(viewers, shared, strict=True):
                # a presenter of its own, for this one viewer, sharing nothing
                lone = Session(s.game.clone(), presenter=DeepSeaPresenter(), seats=s.seats)
                alone = lone.screen(v)
                assert {k: st[k] for k in keys} == {k: alone[k] for k in keys}
    assert set(p._logs) == ({"all"} if reveal == "public" else set(viewers))
