"""Estimated figures: playouts, Wilson intervals, whose knowledge is used."""

from __future__ import annotations

import math
import random

import pytest

from dsa_widget import Game
from dsa_widget.deep_sea.analysis import (
    AnalysisError,
    estimate_home_chance,
    home_chance,
    simple_bot,
    wilson_interval,
    win_chances,
)


def test_wilson_known_values():
    lo, hi = wilson_interval(50, 100)
    assert lo == pytest.approx(0.40383, abs=1e-4) and hi == pytest.approx(0.59617, abs=1e-4)
    lo, hi = wilson_interval(0, 20)
    assert lo == 0.0 and hi == pytest.approx(0.16112, abs=1e-4)
    assert wilson_interval(20, 20)[1] == 1.0
    with pytest.raises(AnalysisError):
        wilson_interval(3, 2)
    with pytest.raises(AnalysisError):
        wilson_interval(0, 0)


def test_wilson_coverage():
    """About 95% of intervals from simulated data contain the true p."""
    rng = random.Random(0)
    p, n, hits = 0.3, 80, 0
    for _ in range(2000):
        k = sum(rng.random() < p for _ in range(n))
        lo, hi = wilson_interval(k, n)
        hits += lo <= p <= hi
    assert 0.93 <= hits / 2000 <= 0.97


def test_knowledge_must_be_explicit():
    g = Game(players=3, seed=1)
    with pytest.raises(AnalysisError, match="whose knowledge"):
        win_chances(g, playouts=10)
    with pytest.raises(AnalysisError):
        win_chances(g, seat=0, god=True, playouts=10)
    with pytest.raises(AnalysisError):
        win_chances(g.view(0), god=True, playouts=10)
    with pytest.raises(AnalysisError):
        win_chances(g, seat=0, playouts=0)


def _same_public_state(seed: int):
    """Two games whose public states are identical but whose hidden values differ."""
    rng = random.Random(seed)
    path1 = [(lv, v) for lv in (1, 2, 3, 4) for v in rng.sample(range(4 * lv - 4, 4 * lv), 4) * 1]
    path2 = [(lv, v) for lv, v in path1]
    # swap the values of two level-4 chips in the second game
    i, j = [k for k, (lv, _) in enumerate(path2) if lv == 4][:2]
    path2[i], path2[j] = (4, path1[j][1]), (4, path1[i][1])
    gs = [Game(players=3, path=p, seed=seed) for p in (path1, path2)]
    for dice, search in [((2, 2), "take"), ((1, 1), "none"), ((3, 2), "take")]:
        for g in gs:
            g.play_turn(dice=dice, search=search)
    return gs


def test_player_estimate_never_uses_hidden_values():
    g1, g2 = _same_public_state(3)
    assert g1.view(0) == g2.view(0) and g1.path != g2.path
    e1 = win_chances(g1, seat=0, playouts=200, seed=5)
    e2 = win_chances(g2.view(0), playouts=200, seed=5)
    assert e1.wins == e2.wins


def test_decided_game_is_certain():
    g = Game(players=["Ann", "Bob"], path=[(1, 0), (4, 15), (1, 0)], rounds=2, air=25, seed=0)
    g.play_turn(dice=(1, 1), search="take")  # Ann: space 2, takes the 15
    g.play_turn(dice=(1, 1), search="none")  # Bob: jumps Ann, space 3
    g.play_turn(back=True, dice=(3, 3))  # Ann: home
    g.play_turn(dice=(3, 3))  # Bob: forced back, home
    assert g.round == 2 and g.scores == (15, 0)
    for est in (win_chances(g, god=True, playouts=200, seed=2), win_chances(g, seat=1, playouts=200, seed=2)):
        assert est.wins == (200, 0)
        assert est.interval(0)[1] == 1.0 and est.interval(0)[0] > 0.98


def test_estimate_agrees_with_an_independent_engine_simulation():
    """The same question answered by a plain loop over the engine with views."""
    g = Game(players=3, seed=11)
    for _ in range(25):
        g.apply(simple_bot(g.view(g.current_player), g.legal_choices()))
    n = 1500
    est = win_chances(g, god=True, playouts=n, seed=3)
    rng = random.Random(99)
    wins = [0, 0, 0]
    for _ in range(n):
        h = g.copy(history=False, events=False)
        h._rng = rng
        while not h.is_over:
            if h.step == "roll":
                h.roll()
            else:
                h.apply(simple_bot(h.view(h.current_player), h.legal_choices()))
        for w in h.winners:
            wins[w] += 1
    for q in range(3):
        p1, p2 = est.wins[q] / n, wins[q] / n
        se = math.sqrt(p1 * (1 - p1) / n + p2 * (1 - p2) / n)
        assert abs(p1 - p2) <= 4 * se + 1e-9, (q, p1, p2)


def test_custom_callables_and_bad_bots():
    g = Game(players=2, seed=4)

    def diver(view, legal):
        return "take" if "take" in legal else ("back" if "back" in legal else legal[0])

    est = win_chances(g, [diver, simple_bot], seat=1, playouts=100, seed=1)
    assert est.playouts == 100
    est = win_chances(g, {0: diver}, seat=1, playouts=50, seed=1)
    assert est.playouts == 50

    def cheat(view, legal):
        return "take" if view.step == "search" else legal[0]

    with pytest.raises(AnalysisError, match="not legal"):
        win_chances(g, cheat, seat=0, playouts=50, seed=1)
    with pytest.raises(AnalysisError):
        win_chances(g, [diver], seat=0, playouts=5)
    with pytest.raises(AnalysisError):
        win_chances(g, 42, seat=0, playouts=5)


def test_bots_by_name():
    g = Game(players=3, seed=2)
    est = win_chances(g, ["random", "baseline", "simple"], seat=0, playouts=60, seed=1)
    assert est.playouts == 60 and sum(est.wins) >= 60
    with pytest.raises(AnalysisError):
        win_chances(g, "no-such-bot", seat=0, playouts=5)


def test_repr_shows_count_and_intervals():
    g = Game(players=2, seed=0)
    est = win_chances(g, seat=0, playouts=100, seed=0)
    text = repr(est)
    assert "100 playouts" in text and "95%" in text
    assert "Wilson" in est._repr_html_()


def test_progress_text(capsys):
    g = Game(players=2, seed=0)
    win_chances(g, seat=0, playouts=120, seed=0, progress=True)
    assert "120 of 120" in capsys.readouterr().err


def test_estimated_home_chance_brackets_the_exact_one():
    g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=8, seed=0)
    g.play_turn(dice=(2, 3), search="take")
    g.play_turn(dice=(1, 2), search="take")
    for others in ("home", "keep"):
        exact = home_chance(g, others=others, choice=None)
        est = estimate_home_chance(g, others=others, playouts=3000, seed=1)
        p = float(exact)
        assert abs(est.chance - p) <= 4 * math.sqrt(p * (1 - p) / 3000) + 1e-12
    # from a state where the exact answer is far from 0 and 1
    g = Game(players=3, path=[(1, 0)] * 10, air=9, seed=0)
    for dice, search in [((3, 3), "take"), ((2, 2), "take"), ((1, 2), "take")]:
        g.play_turn(dice=dice, search=search)
    g.play_turn(back=False, dice=(2, 2), search="take")
    exact = float(home_chance(g, seat=0))
    est = estimate_home_chance(g.view(1), seat=0, playouts=3000, seed=2)
    assert 0.02 < exact < 0.98
    assert abs(est.chance - exact) <= 4 * math.sqrt(exact * (1 - exact) / 3000)
    assert "95% interval" in repr(est)


# 2,000 playouts per seat and policy: the fast tier keeps the first state
@pytest.mark.parametrize("seed", [0, *(pytest.param(s, marks=pytest.mark.slow) for s in range(1, 8))])
def test_estimated_home_chance_agrees_with_exact_on_random_states(seed):
    """Random small states, every seat (also divers who have not dived yet: staying in the
    submarine until the round ends counts as back), both policies: within 4 standard errors."""
    rng = random.Random(seed)
    n = rng.randint(2, 4)
    g = Game(players=n, path=[(rng.randint(1, 2), 0)] * rng.randint(6, 12), air=rng.randint(4, 10), seed=seed)
    for _ in range(rng.randint(0, 2 * n)):
        if g.is_over or g.round > 1:
            break
        g.apply(rng.choice(g.legal_choices()))
    if g.is_over or g.round > 1:
        g = Game(players=n, path=[(1, 0)] * 8, air=6, seed=seed)
    playouts = 2000
    for d in range(n):
        for others in ("home", "keep"):
            try:
                exact = float(home_chance(g, seat=d, others=others, max_states=50_000))
            except AnalysisError:
                continue
            est = estimate_home_chance(g.view(d), seat=d, others=others, playouts=playouts, seed=seed)
            assert est.playouts == playouts
            se = math.sqrt(max(exact * (1 - exact), 1 / playouts) / playouts)
            assert abs(est.chance - exact) <= 4 * se + 1e-12, (d, others, est, exact)


def test_estimated_home_chance_can_stop_early():
    g = Game(players=6, seed=3)
    while g.turn_number < 8:
        g.apply(g.legal_choices()[-1])
    est = estimate_home_chance(g, playouts=10**6, max_seconds=0.0, min_playouts=30, seed=1)
    assert est.playouts == 30  # stopped at once, but not before the minimum
    est = estimate_home_chance(g, playouts=40, max_seconds=10.0, seed=1)
    assert est.playouts == 40  # the playout count still caps it
    with pytest.raises(AnalysisError, match="max_seconds"):
        estimate_home_chance(g, max_seconds=-1)


@pytest.mark.parametrize("name", ["take_n", "depth", "air", "baseline", "planner"])
def test_heuristic_bots_take_the_fast_path_with_the_same_choices(name):
    """Named heuristic bots run their policy on the playout game (no View, no explanation):
    the estimate is exactly what calling the bot itself gives, playout for playout."""
    from dsa_widget.deep_sea.analysis.estimate import _PolicySeat, _resolve_bots
    from dsa_widget.deep_sea.bots import make_bot

    g = random_game_mid(4, seed=7)
    assert all(type(p) is _PolicySeat for p in _resolve_bots(name, 4, 1))
    fast = win_chances(g.view(0), playouts=300, seed=3, bots=name, engine="python")
    bots = [make_bot(name, seed=3 + i) for i in range(4)]
    slow = win_chances(
        g.view(0), playouts=300, seed=3, bots=[lambda v, legal, b=b: b(v, legal) for b in bots]
    )
    assert fast.wins == slow.wins


# 6,000 playouts each: the fast tier keeps the default bots (test_kernel checks each policy's rule)
@pytest.mark.parametrize(
    "bots",
    [
        None,
        pytest.param("planner", marks=pytest.mark.slow),
        pytest.param(["random", "planner", "simple", "planner"], marks=pytest.mark.slow),
    ],
)
def test_the_playout_kernel_gives_the_same_estimate(bots):
    """engine="auto" plays these bots on the compiled kernel (one draw of the hidden values per
    block, each playout dealing the unseen ones anew); the chances agree with the rules
    engine's own playouts within sampling error, for a player's knowledge and for the truth."""
    from dsa_widget.deep_sea.analysis.estimate import _kernel_policies, _resolve_bots

    assert _kernel_policies(_resolve_bots(bots, 4, 1)) is not None
    g = random_game_mid(4, seed=9)
    n = 1500
    for kw in ({"seat": 2}, {"god": True}):
        kern = win_chances(g, bots, playouts=n, seed=4, executor="local", **kw)
        slow = win_chances(g, bots, playouts=n, seed=4, engine="python", executor="local", **kw)
        for q in range(4):
            p = (kern.chance(q) + slow.chance(q)) / 2
            se = (2 * max(p * (1 - p), 0.01) / n) ** 0.5
            assert abs(kern.chance(q) - slow.chance(q)) < 4 * se, (kw, q, kern.wins, slow.wins)


def test_engine_choice():
    g = random_game_mid(3, seed=2)
    with pytest.raises(AnalysisError, match="engine"):
        win_chances(g, seat=0, playouts=10, engine="gpu")
    with pytest.raises(AnalysisError, match="kernel"):
        win_chances(g, "air", seat=0, playouts=10, engine="kernel")  # a bot the kernel does not play
    assert win_chances(g, "air", seat=0, playouts=10, seed=1).playouts == 10  # auto: the engine


def random_game_mid(players: int, seed: int) -> Game:
    g = Game(players=players, seed=seed)
    rng = random.Random(seed)
    while g.turn_number < 10:
        g.apply(rng.choice(g.legal_choices()))
    return g


def test_min_playouts_must_be_positive():
    g = Game(players=2, seed=1)
    for bad in (0, -1, 1.5, True):
        with pytest.raises(AnalysisError, match="min_playouts"):
            estimate_home_chance(g, min_playouts=bad, max_seconds=0)


def test_subclassed_heuristic_bots_are_called_as_themselves():
    """Only the built-in heuristic classes run on the playout game: a subclass's policy has not
    promised to read public things only."""
    from dsa_widget.deep_sea.analysis.estimate import _resolve_bots
    from dsa_widget.deep_sea.bots.heuristics import PlannerBot

    class MyPlanner(PlannerBot):
        pass

    bot = MyPlanner()
    assert _resolve_bots([bot, None], 2, 1)[0] is bot


def test_a_table_whose_chances_add_up_past_one_says_why():
    """Ties count as a win for each winner (the docstring's rule), so a table can show 9.2% and
    92.0%; it now says so, and says nothing when the chances add up to at most 100%."""
    from dsa_widget.deep_sea.analysis.estimate import WinEstimate

    tied = WinEstimate(players=("Ann", "Bob"), wins=(30, 80), playouts=100, knowledge="what Ann knows")
    assert "a tie counts as a win for each winner" in repr(tied)
    assert "a tie counts as a win for each winner" in tied._repr_html_()
    plain = WinEstimate(players=("Ann", "Bob"), wins=(30, 70), playouts=100, knowledge="what Ann knows")
    assert "tie" not in repr(plain) and "tie" not in plain._repr_html_()
