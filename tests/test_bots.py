"""Bots: the protocol, legality, no cheating, reproducibility and bad input (issue 4)."""

from __future__ import annotations

import random

import pytest
from helpers import snapshot
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dsa_widget import Game
from dsa_widget.core import GameError
from dsa_widget.deep_sea.bots import (
    BOT_NAMES,
    Bot,
    BotError,
    UnknownBotError,
    make_bot,
    parse_bot_spec,
    play_bot_move,
    play_until,
)
from dsa_widget.deep_sea.bots.heuristics import choice_words

# Search bots kept cheap in tests.
CHEAP = {"mc": {"playouts": 3}, "ismcts": {"playouts": 12}}

# Every built-in bot, and the search bots' other modes, as (name, knobs).
VARIANTS = [(name, CHEAP.get(name, {})) for name in BOT_NAMES] + [
    ("mc", {"playouts": 3, "horizon": "round", "rollout": "air", "self_rollout": "planner"}),
    ("ismcts", {"playouts": 12, "opponents": "model", "horizon": "round"}),
    ("ismcts", {"playouts": 12, "rollout": "random"}),
    ("mc", {"playouts": 3, "engine": "python"}),
    ("mc", {"playouts": 3, "engine": "kernel", "horizon": "game", "rollout": "random"}),
    ("ismcts", {"playouts": 12, "engine": "kernel"}),
    ("ismcts", {"playouts": 12, "leaf_playouts": 1, "opponents": "search", "self_rollout": None}),
    ("ismcts", {"playouts": 6, "leaf_playouts": 3, "engine": "python"}),
]


def cheap_bot(name: str, seed: int | None = 0) -> Bot:
    return make_bot(name, seed=seed, **CHEAP.get(name, {}))


def random_state(seed: int, players: int, steps: int, **kw) -> Game:
    """A game after some random-legal choices: ``steps`` modulo the length of
    that random game, so that the state is (almost always) not over."""
    rng = random.Random(seed)
    g = Game(players=players, seed=seed, **kw)
    length = 0
    while not g.is_over:
        g.apply(rng.choice(g.legal_choices()))
        length += 1
    rng = random.Random(seed)
    g = Game(players=players, seed=seed, **kw)
    for _ in range(steps % length):
        g.apply(rng.choice(g.legal_choices()))
    return g


def to_decision(g: Game, rng: random.Random) -> Game:
    """Roll until a bot has a decision to make (or the game ends)."""
    while g.step == "roll":
        g.apply("roll")
    return g


def hidden_shuffle(g: Game, rng: random.Random) -> tuple[Game, bool]:
    """A copy of ``g`` whose values are permuted among unbanked chips of the same
    level (nobody can see them); returns it and whether anything moved."""
    banked = {c for b in g._banked for c in b}
    vals = list(g._val)
    changed = False
    for level in (1, 2, 3, 4):
        ids = [c for c in range(len(vals)) if g._lv[c] == level and c not in banked]
        new = [vals[c] for c in ids]
        rng.shuffle(new)
        for c, v in zip(ids, new, strict=False):
            changed |= vals[c] != v
            vals[c] = v
    g2 = g.copy()
    g2._val = tuple(vals)
    return g2, changed


states = st.tuples(
    st.integers(0, 10**6),  # seed
    st.integers(2, 6),  # players
    st.integers(0, 400),  # random steps before the state
    st.sampled_from(
        [
            {},
            {"options": {"turn_back_requires_treasure": False}},
            {"options": {"reveal": "owner"}},
            {"air": 12, "rounds": 2},
            {"path": [(1, 0), (2, 4), (3, 9), (4, 13), (4, 15)]},
        ]
    ),
)


# ---------------------------------------------------------------------- names and protocol


def test_bot_names_make_bots():
    assert {"random", "baseline", "mc", "ismcts"} <= set(BOT_NAMES)
    for name in BOT_NAMES:
        bot = make_bot(name, seed=1)
        assert bot.name == name and callable(bot)
        assert bot.__doc__ and len(bot.__doc__) > 40, f"{name} needs a docstring saying its idea"
        assert bot.explain() == ""


def test_unknown_bot_name_lists_names():
    with pytest.raises(UnknownBotError) as e:
        make_bot("alphadiver")
    assert isinstance(e.value, ValueError) and isinstance(e.value, GameError)
    for name in BOT_NAMES:
        assert name in str(e.value)
    with pytest.raises(ValueError, match="no knob 'depht'"):
        make_bot("depth", depht=3)
    with pytest.raises(ValueError, match="playouts"):
        make_bot("mc", playouts=0)
    with pytest.raises(ValueError, match="rollout"):
        make_bot("ismcts", rollout="clairvoyant")
    for bad in ("oracle", "eager+oracle", "eager+eager", "eager+"):
        with pytest.raises(ValueError, match="self_rollout"):
            make_bot("mc", self_rollout=bad)
    with pytest.raises(ValueError, match="self_rollout"):  # several own policies: mc only
        make_bot("ismcts", self_rollout="eager+planner")
    with pytest.raises(ValueError, match="horizon"):
        make_bot("mc", horizon="forever")
    with pytest.raises(ValueError, match="opponents"):
        make_bot("ismcts", opponents="telepathy")
    with pytest.raises(ValueError, match="max_time"):
        make_bot("mc", max_time=-1)
    for bad in (0, 2.5, "many"):
        with pytest.raises(ValueError, match="max_turns"):
            make_bot("mc", max_turns=bad)
    with pytest.raises(ValueError, match="unknown bot"):
        play_until(Game(players=2), {0: "nobody"})


def test_bot_spec_strings():
    b = parse_bot_spec("mc:playouts=5,margin_weight=0.5,max_time=none", seed=3)
    assert (b.playouts, b.margin_weight, b.max_time, b.seed) == (5, 0.5, None, 3)
    with pytest.raises(ValueError, match="knob=value"):
        parse_bot_spec("mc:playouts")


def test_plain_function_is_a_bot_and_rolls_are_not_asked():
    asked = []

    def first(view, legal):
        asked.append((view.step, legal))
        assert view.current_player == view.seat
        return legal[0]

    g = Game(players=3, seed=9)
    play_until(g, first, until="game")
    assert g.is_over and asked
    assert all(step != "roll" and legal != ("roll",) for step, legal in asked)


def test_play_bot_move_rolls_with_given_rng():
    g1, g2 = Game(players=2, seed=1), Game(players=2, seed=1)
    assert play_bot_move(g1, "random", rng=random.Random(5)) == "roll"
    assert play_bot_move(g2, "random", rng=random.Random(5)) == "roll"
    assert g1.state_dict() == g2.state_dict()


def test_play_until_turn_round_game():
    g = Game(players=["Ann", "Bob", "Cy"], seed=4)
    moves = play_until(g, "baseline", until="turn")
    assert moves and {s for s, _ in moves} == {0} and g.current_player == 1 and g.turn_number == 1
    play_until(g, ["baseline", "air", "take_n"], until="round")
    assert g.round == 2 or g.is_over
    play_until(g, {"Ann": "baseline", 1: "air", 2: make_bot("random", seed=1)}, until="game")
    assert g.is_over
    assert play_until(g, "random", until="game") == []
    with pytest.raises(ValueError, match="until"):
        play_until(Game(players=2), "random", until="dive")
    with pytest.raises(ValueError, match="seat"):
        play_until(Game(players=2), {5: "random"})
    with pytest.raises(ValueError, match="3 bots given for 2 seats"):
        play_until(Game(players=2), ["random"] * 3)


def test_play_until_stops_for_a_human_seat():
    g = Game(players=["Ann", "Bob"], seed=6)
    moves = play_until(g, {1: "baseline"}, until="game")
    assert moves == [] and g.current_player == 0
    g.apply("roll")
    if g.step == "search":
        g.apply("none")
    moves = play_until(g, {1: "baseline"}, until="game")
    assert moves and all(s == 1 for s, _ in moves) and (g.is_over or g.current_player == 0)


def test_seeded_bots_replay_identically():
    def play(seed):
        g = Game(players=3, seed=seed)
        play_until(g, [cheap_bot("mc", 1), cheap_bot("ismcts", 2), cheap_bot("random", 3)], until="game")
        return g.to_record()

    assert play(5) == play(5)


def test_explanations():
    g = Game(players=2, seed=3)
    g.roll((3, 3))
    for name in BOT_NAMES:
        bot = cheap_bot(name)
        choice = bot(g.view(0), g.legal_choices())
        e = bot.last_explanation
        assert e["choice"] == choice and choice_words(choice) in bot.explain()
    mc = make_bot("mc", seed=1, playouts=6)
    mc(g.view(0), g.legal_choices())
    e = mc.last_explanation
    assert set(e["values"]) == set(e["p_home"]) == {"none", "take"} and e["playouts"] == 6
    assert all(0 <= p <= 1 for p in e["p_home"].values())
    assert "back home" in mc.explain()


def test_baseline_follows_the_study_rule():
    g = Game(players=2, seed=1)
    g.roll((1, 1))  # space 2, air 25: dive on without taking
    bot = make_bot("baseline")
    assert bot(g.view(0), g.legal_choices()) == "none"
    g = Game(players=2, path=[(1, 0)] * 10 + [(3, 9)] * 6)
    g.roll((3, 3))
    g.apply("none")
    g.roll((1, 1))
    g.apply("none")
    g.roll((3, 3))  # space 12 of 16: past the middle, take one
    assert bot(g.view(0), g.legal_choices()) == "take"
    g.apply("take")
    g.roll((1, 1))
    g.apply("none")
    assert g.legal_choices() == ("back", "continue")
    assert bot(g.view(0), g.legal_choices()) == "back"  # and turn back at once


# ---------------------------------------------------------------------- legality


@pytest.mark.slow
@pytest.mark.parametrize("name", BOT_NAMES)
def test_every_bot_legal_in_thousands_of_states(name):
    # the search bots with a minimal budget: legality does not depend on it
    bot = make_bot(name, seed=1, **{"mc": {"playouts": 1}, "ismcts": {"playouts": 3}}.get(name, {}))
    checked = 0
    for seed in range(60):
        rng = random.Random(seed)
        g = Game(players=rng.randint(2, 6), seed=seed, options={"turn_back_requires_treasure": seed % 3 != 0})
        while not g.is_over:
            legal = g.legal_choices()
            if g.step != "roll":
                assert bot(g.view(g.current_player), legal) in legal
                checked += 1
            g.apply(rng.choice(legal))
    assert checked > 2000


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states, st.sampled_from(VARIANTS), st.integers(0, 1000))
def test_every_bot_returns_a_legal_choice(state, variant, bot_seed):
    seed, players, steps, kw = state
    g = to_decision(random_state(seed, players, steps, **kw), random.Random(seed))
    assume(not g.is_over)
    before = snapshot(g)
    name, knobs = variant
    choice = play_bot_move(g, make_bot(name, seed=bot_seed, **knobs))
    assert choice in before[2]


# ---------------------------------------------------------------------- no cheating


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(states, st.integers(0, 1000))
def test_no_bot_sees_hidden_values(state, bot_seed):
    seed, players, steps, kw = state
    g = to_decision(random_state(seed, players, steps, **kw), random.Random(seed))
    assume(not g.is_over)
    g2, _ = hidden_shuffle(g, random.Random(seed + 1))
    p = g.current_player
    assert g.view(p) == g2.view(p)
    for name, knobs in VARIANTS:
        b1, b2 = make_bot(name, seed=bot_seed, **knobs), make_bot(name, seed=bot_seed, **knobs)
        c1 = b1(g.view(p), g.legal_choices())
        c2 = b2(g2.view(p), g2.legal_choices())
        assert c1 == c2, (name, knobs)
        assert b1.last_explanation == b2.last_explanation, (name, knobs)


def test_hidden_shuffle_really_changes_values():
    g = to_decision(random_state(3, 3, 40), random.Random(0))
    g2, changed = hidden_shuffle(g, random.Random(1))
    assert changed and g2._val != g._val


def test_no_cheating_over_whole_games():
    """Two games identical but for the hidden deal: the same seeded bots play
    the same moves until something is banked (values then become public)."""
    path = list(Game(players=2, seed=12).setup.path)
    by_level: dict[int, list[int]] = {}
    for lv, v in path:
        by_level.setdefault(lv, []).append(v)
    rng = random.Random(2)
    for vs in by_level.values():
        rng.shuffle(vs)
    permuted = [(lv, by_level[lv].pop()) for lv, _ in path]
    assert permuted != path
    games = [Game(players=2, path=path, rng=7), Game(players=2, path=permuted, rng=7)]
    bots = [[cheap_bot("mc", 1), cheap_bot("ismcts", 2)] for _ in games]
    while games[0].round == 1 and not games[0].is_over:
        moves = [play_bot_move(g, b[g.current_player]) for g, b in zip(games, bots, strict=False)]
        assert moves[0] == moves[1]
        assert bots[0][0].last_explanation == bots[1][0].last_explanation


# ---------------------------------------------------------------------- bad bots


def test_raising_bot_names_bot_and_turn_and_leaves_game_intact():
    def grumpy(view, legal):
        raise ZeroDivisionError("no air for me")

    g = Game(players=["Ann", "Bob"], seed=1)
    play_until(g, "baseline", until="turn")
    g.apply("roll")
    before = snapshot(g)
    with pytest.raises(BotError) as e:
        play_bot_move(g, grumpy)
    msg = str(e.value)
    assert "'grumpy'" in msg and "turn 2" in msg and "Bob" in msg and "ZeroDivisionError" in msg
    assert e.value.bot == "grumpy" and e.value.turn == 2 and e.value.seat == 1
    assert isinstance(e.value, ValueError) and isinstance(e.value.__cause__, ZeroDivisionError)
    assert snapshot(g) == before


@pytest.mark.parametrize("answer", ["dive", "back", "drop 7", None, 3])
def test_illegal_choice_names_bot_and_turn_and_leaves_game_intact(answer):
    class Stubborn(Bot):
        """Always says the same thing, legal or not."""

        name = "stubborn"

        def decide(self, view, legal):
            return answer, {}

    g = Game(players=2, seed=2)
    g.roll((2, 2))
    before = snapshot(g)
    with pytest.raises(BotError, match=r"bot 'stubborn' returned .* not legal at seat 0 .*turn 1"):
        play_bot_move(g, Stubborn())
    assert snapshot(g) == before


def test_play_until_stops_at_the_bad_bot():
    g = Game(players=2, seed=3)
    with pytest.raises(BotError):
        play_until(g, {0: "baseline", 1: lambda v, legal: "nope"}, until="game")
    assert g.current_player == 1 and not g.is_over


def test_moving_in_a_finished_game():
    g = Game(players=2, seed=3)
    play_until(g, "random", until="game")
    with pytest.raises(BotError, match="over"):
        play_bot_move(g, "random")


def test_not_a_bot():
    with pytest.raises(TypeError, match="callable"):
        play_until(Game(players=2), {0: 42})
    g = Game(players=2, seed=1)
    g.roll((1, 1))
    with pytest.raises(TypeError, match="callable"):
        play_bot_move(g, 42)


def test_the_no_cheating_check_catches_a_cheater():
    """The check above can fail: a bot that peeks at the true values (through
    the game, not its view) decides differently once they are shuffled."""
    g = Game(players=2, seed=8)
    g.roll((3, 3))

    def peeker_for(game):
        def peeker(view, legal):
            chip = view.path[view.positions[view.seat]][0]
            return "take" if game._val[chip] >= 2 else "none"

        return peeker

    differs = 0
    for s in range(20):
        g2, _ = hidden_shuffle(g, random.Random(s))
        differs += peeker_for(g)(g.view(0), g.legal_choices()) != peeker_for(g2)(
            g2.view(0), g2.legal_choices()
        )
    assert differs > 0


def test_max_time_caps_the_search():
    g = Game(players=4, seed=8)
    g.roll((3, 3))
    for name in ("mc", "ismcts"):
        bot = make_bot(name, seed=1, playouts=10**6, max_time=0.05)
        assert bot(g.view(0), g.legal_choices()) in g.legal_choices()
        assert 1 <= bot.last_explanation["playouts"] < 10**6
    ism = make_bot("ismcts", seed=1, playouts=30)
    ism(g.view(0), g.legal_choices())
    assert sum(ism.last_explanation["visits"].values()) == 30 and "visits" in ism.explain()


def test_mc_horizon_auto_plays_whole_games_with_two_players_only():
    """horizon="auto" (mc's default): playouts run to the end of the game with two players,
    to the end of the round with more; "game" and "round" do what they say at any size."""
    for players, auto in ((2, "game"), (3, "round"), (4, "round")):
        g = Game(players=players, seed=8)
        g.roll((3, 3))
        for engine in ("kernel", "python"):
            for horizon, expected in (("auto", auto), ("game", "game"), ("round", "round")):
                bot = make_bot("mc", seed=1, playouts=4, horizon=horizon, engine=engine)
                bot(g.view(0), g.legal_choices())
                assert bot.last_explanation["horizon"] == expected, (players, engine, horizon)
    assert make_bot("mc").horizon == "auto" and make_bot("mc").self_rollout == "eager+planner"


def test_mc_max_turns_caps_the_work_by_a_count():
    """max_turns: the search stops once its playouts have played that many diver turns (checked
    after each batch: 1,000 playouts a choice on the kernel, one in Python), so the cap is a
    count and the same seed makes the same choice on any machine."""
    g = Game(players=2, seed=8)
    g.roll((3, 3))
    view, legal = g.view(0), g.legal_choices()
    for engine, batch in (("kernel", 1000), ("python", 1)):
        one = {"engine": engine, "self_rollout": "eager"}  # one own policy: whole batches
        free = make_bot("mc", seed=1, playouts=2 * batch, max_turns=None, **one)
        free(view, legal)
        e = free.last_explanation
        assert e["playouts"] == 2 * batch
        # a whole game's rest a playout, every choice: more than one turn a playout
        assert e["turns"] > 2 * batch * len(legal)
        capped = make_bot("mc", seed=1, playouts=2 * batch, max_turns=1, **one)
        choice = capped(view, legal)
        assert capped.last_explanation["playouts"] == batch
        assert 0 < capped.last_explanation["turns"] < e["turns"]
        again = make_bot("mc", seed=1, playouts=2 * batch, max_turns=1, **one)
        assert again(view, legal) == choice
        assert again.last_explanation == capped.last_explanation
    # several own policies (the default): batches as much smaller, as much work between checks
    default = make_bot("mc", seed=1, max_turns=1)
    default(view, legal)
    k = len(default.self_rollout.split("+"))
    assert k > 1 and default.last_explanation["playouts"] == 1000 // k


def test_mc_with_several_own_policies_takes_the_best_for_each_choice():
    """self_rollout="eager+planner" (parallel rollouts): each choice is played out with every
    named policy for the bot's own later moves, on the same seeds, and is worth the best of
    those averages; so its values are the maxima of the single-policy searches' values (one
    batch of playouts: the same seeds as each single search)."""
    g = Game(players=2, seed=8)
    g.roll((3, 3))
    view, legal = g.view(0), g.legal_choices()
    for engine, playouts in (("kernel", 500), ("python", 6)):
        single = {}
        for name in ("eager", "planner"):
            bot = make_bot("mc", seed=4, playouts=playouts, self_rollout=name, engine=engine)
            bot(view, legal)
            single[name] = bot.last_explanation["values"]
        both = make_bot("mc", seed=4, playouts=playouts, self_rollout="eager+planner", engine=engine)
        choice = both(view, legal)
        e = both.last_explanation
        for c in legal:
            best = max(("eager", "planner"), key=lambda x: (single[x][c], x == "eager"))
            assert e["values"][c] == pytest.approx(single[best][c], abs=1e-12)
            assert e["self_rollout"][c] == best
        assert choice == max(legal, key=lambda c: (e["values"][c], -legal.index(c)))
        assert f"own moves by {e['self_rollout'][choice]}" in both.explain()
    one = make_bot("mc", seed=4, playouts=500, self_rollout="eager")
    assert "self_rollout" not in one.decide(view, legal)[1]


def _a_search_decision() -> Game:
    g = Game(players=3, seed=21)
    while not (g.step == "search" and "take" in g.legal_choices() and g.current_player == 0):
        g.apply("roll" if g.step == "roll" else ("continue" if "continue" in g.legal_choices() else "none"))
    return g


def _a_late_turn_back_decision() -> Game:
    g2 = Game(players=2, seed=5)  # a turn-back decision, later in a round
    while not (g2.step == "turn_back" and g2.carrying[g2.current_player] and g2.air < 20):
        lg = g2.legal_choices()
        g2.apply(
            "roll"
            if g2.step == "roll"
            else ("take" if "take" in lg else lg[-1] if "continue" in lg else lg[0])
        )
    return g2


# 1,000 playouts in Python per case: the fast tier keeps one position and one horizon
@pytest.mark.parametrize(
    "position,horizon",
    [
        (_a_search_decision, "round"),
        pytest.param(_a_search_decision, "game", marks=pytest.mark.slow),
        pytest.param(_a_late_turn_back_decision, "round", marks=pytest.mark.slow),
        pytest.param(_a_late_turn_back_decision, "game", marks=pytest.mark.slow),
    ],
    ids=["search-round", "search-game", "turn_back-round", "turn_back-game"],
)
def test_search_engines_estimate_the_same_values(position, horizon):
    """The search bots' playouts on the compiled kernel (engine="kernel", the default for the
    planner and random rollouts) and in Python (engine="python") are the same estimate: the
    values of each choice agree within sampling error, on both horizons."""
    game = position()
    view, legal = game.view(game.current_player), game.legal_choices()
    est = {}
    for engine in ("kernel", "python"):
        bot = make_bot("mc", seed=3, playouts=1000, horizon=horizon, engine=engine)
        bot(view, legal)
        est[engine] = bot.last_explanation["values"]
    for c in legal:
        # rewards lie in [-0.2, 1.2], a standard deviation of at most 0.7: a standard
        # error of at most 0.022 each, 0.031 for the difference; 0.12 is about 4 of them
        assert abs(est["kernel"][c] - est["python"][c]) < 0.12, (horizon, c, est)


def test_engine_knob():
    assert (
        make_bot("mc", playouts=2).use_kernel and make_bot("ismcts", playouts=2, engine="kernel").use_kernel
    )
    assert make_bot("ismcts", playouts=2).use_kernel  # by default several rollouts a leaf: the kernel
    assert not make_bot("ismcts", playouts=2, leaf_playouts=1).use_kernel  # one rollout: Python
    assert not make_bot("mc", playouts=2, engine="python").use_kernel
    assert not make_bot("mc", playouts=2, rollout="air").use_kernel  # a rollout only Python plays
    for bad in (
        {"engine": "gpu"},
        {"engine": "kernel", "rollout": "air"},
        {"engine": "kernel", "self_rollout": "depth"},
    ):
        with pytest.raises(ValueError, match="engine|kernel"):
            make_bot("mc", **bad)


@pytest.mark.parametrize("name", ["take_n", "depth", "air", "baseline", "planner", "mc", "ismcts"])
def test_a_knob_of_the_wrong_kind_is_refused_when_the_bot_is_made(name):
    """A bot spec from a cell or a shell (``planner:slack=x``) is refused at once, naming the
    knob: the rules of thumb took any value and failed with a TypeError at their first decision
    (inside a tournament, after its workers had started), and mc/ismcts did the same for a
    text max_time, margin_weight or c."""
    from dsa_widget.deep_sea.bots import bot_class

    knobs = bot_class(name).KNOBS
    numeric = [k for k, v in knobs.items() if isinstance(v, (int, float)) and not isinstance(v, bool)]
    numeric += [k for k in ("max_time",) if k in knobs]
    assert numeric
    for key in numeric:
        for bad in ("x", [1]):
            with pytest.raises(ValueError, match=key):
                make_bot(name, **{key: bad})
    g = Game(players=2, seed=1)
    g.apply("roll")
    assert make_bot(name, seed=1)(g.view(0), g.legal_choices()) in g.legal_choices()


def test_a_knob_may_be_numpys_number():
    """The kind check takes any whole or real number, not only Python's: a knob swept with
    numpy (``np.arange``) is a ``numpy.int64`` / ``numpy.float64``; ``True`` stays refused."""
    np = pytest.importorskip("numpy")
    g = Game(players=2, seed=1)
    g.apply("roll")
    bot = make_bot("take_n", n=np.int64(3), seed=1)
    assert bot(g.view(0), g.legal_choices()) in g.legal_choices()
    with pytest.raises(ValueError, match="n must be a whole number"):
        make_bot("take_n", n=True)
    with pytest.raises(ValueError, match="n must be a whole number"):
        make_bot("take_n", n=np.float64(3.0))
