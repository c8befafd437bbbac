"""The optimal solo policy: legal as a bot, its value confirmed by the engine, optimal in its model."""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from helpers import random_state

from dsa_widget import Game
from dsa_widget.deep_sea.analysis import AnalysisError, solo_bot, solo_game, solo_policy
from dsa_widget.deep_sea.rules import DICE_OUTCOMES


def play_solo(policy, games: int, seed: int, **kw) -> list[int]:
    rng = random.Random(seed)
    out = []
    for i in range(games):
        g = solo_game(seed=seed * 100_000 + i, **kw)
        while not g.is_over:
            if g.step == "roll":
                g.roll(rng.choice(DICE_OUTCOMES))
            else:
                c = policy.bot(g.view(0), g.legal_choices())
                assert c in g.legal_choices()
                g.apply(c)
        out.append(g.scores[0])
    return out


def mean_se(xs):
    n = len(xs)
    m = sum(xs) / n
    return m, math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1) / n)


def test_standard_policy_value_matches_engine_simulation():
    pol = solo_policy()
    scores = play_solo(pol, 4000, seed=1)
    m, se = mean_se(scores)
    assert abs(m - pol.value) <= 4 * se, (m, se, pol.value)


@pytest.mark.parametrize(
    "air,levels", [(6, (1, 1, 2, 2, 3)), (10, (1, 2, 2, 3, 3, 4, 4)), (15, (1,) * 4 + (4,) * 4)]
)
def test_small_policies_value_matches_engine_simulation(air, levels):
    pol = solo_policy(air=air, levels=levels)
    assert float(pol.exact_value) == pytest.approx(pol.value, rel=1e-9)
    scores = play_solo(pol, 3000, seed=air, air=air, levels=levels)
    m, se = mean_se(scores)
    assert abs(m - pol.value) <= 4 * se, (m, se, pol.value)


def test_exact_value_is_a_fraction():
    pol = solo_policy(air=8, levels=(1, 1, 2, 2, 3, 3))
    v = pol.exact_value
    assert isinstance(v, Fraction) and float(v) == pytest.approx(pol.value)


def test_optimal_beats_fixed_rules():
    """Simple rules simulated in the engine never beat the optimal value (by more than noise)."""
    pol = solo_policy()

    class Rule:
        def __init__(self, n_take, depth):
            self.n_take, self.depth = n_take, depth

        def bot(self, view, legal):
            s = view.seat
            k = len(view.carrying[s])
            if view.step == "turn_back":
                return "back" if (k >= self.n_take or view.positions[s] >= self.depth) else "continue"
            if view.step == "search":
                return (
                    "take"
                    if (
                        "take" in legal
                        and not view.heading_up[s]
                        and view.positions[s] >= self.depth - 4
                        and k < self.n_take
                    )
                    else "none"
                )
            return legal[0]

    for n_take, depth in [(1, 32), (2, 28), (2, 20), (3, 30)]:
        m, se = mean_se(play_solo(Rule(n_take, depth), 1500, seed=7))
        assert m <= pol.value + 4 * se, (n_take, depth, m)


def test_bot_only_returns_legal_choices_anywhere():
    pol = solo_policy()
    seen = set()
    for seed in range(400):
        g = random_state(seed)
        if g.is_over:
            continue
        for seat in {g.current_player}:
            v = g.view(seat)
            c = solo_bot(v, g.legal_choices())
            assert c in g.legal_choices()
            assert pol.bot(v, g.legal_choices()) == c
            seen.add(g.step)
    assert {"turn_back", "roll", "search"} <= seen


def test_bot_plays_whole_games_legally():
    for seed in range(6):
        g = Game(players=2 + seed % 5, seed=seed)
        while not g.is_over:
            if g.step == "roll":
                g.apply("roll")
            else:
                g.apply(solo_bot(g.view(g.current_player), g.legal_choices()))


def test_bot_ignores_hidden_values():
    # the same public state with different hidden values gives the same decisions
    a = Game(players=2, path=[(1, 0), (1, 3), (2, 4), (2, 7)] * 2, seed=0)
    b = Game(players=2, path=[(1, 3), (1, 0), (2, 7), (2, 4)] * 2, seed=0)
    for g in (a, b):
        g.play_turn(dice=(1, 1), search="take")
        g.play_turn(dice=(2, 2), search="take")
    assert a.view(0) == b.view(0)
    assert solo_bot(a.view(0), a.legal_choices()) == solo_bot(b.view(0), b.legal_choices())


def test_table_and_heatmap():
    pol = solo_policy()
    # deep with one level-4 chip and moderate air: go home
    assert pol.turn_back(depth=30, air=15, items=1)
    # shallow with one level-1 chip and full air: keep diving
    assert not pol.turn_back(depth=3, air=25, items=1)
    b, c = pol.turn_back_values(depth=30, air=15, items=1)
    assert b > c
    t = pol.table(items=2, depths=[5, 20], airs=[25, 10])
    assert len(t.rows) == 2 and len(t.rows[0]) == 2
    assert all(c in ("back", "dive", "lost") or c.startswith("back if >= ") for row in t.rows for c in row)
    assert "air" in repr(t) and "<table>" in t._repr_html_()
    assert pol.advice(depth=30, air=15, items=1) == "back"
    assert pol.advice(depth=3, air=25, items=1) == "dive"
    assert pol.advice(depth=32, air=2, items=3) == "lost"
    # an advice "back if >= x" means: back from x on, dive below
    for d in range(1, 33):
        for a in range(1, 26, 3):
            adv = pol.advice(d, a, 1)
            if adv.startswith("back if"):
                t = pol.threshold(d, a, 1)
                assert pol.turn_back(d, a, 1, value=t)
                assert not pol.turn_back(d, a, 1, value=Fraction(3, 2))
    svg = pol.heatmap(loads=(1, 2), airs=tuple(range(25, 0, -3)))._repr_svg_()
    # it scales down to a notebook's width (issue 16, item 9)
    assert 'width="100%"' in svg and 'viewBox="0 0 ' in svg and "height: auto" in svg
    assert svg.startswith("<svg") and svg.endswith("</svg>") and "depth" in svg
    with pytest.raises(AnalysisError):
        pol.turn_back(depth=0, air=3, items=1)
    with pytest.raises(AnalysisError):
        solo_policy(air=0)
    with pytest.raises(AnalysisError):
        solo_policy(levels=(1, 5))


def test_policy_is_cached():
    assert solo_policy()._m is solo_policy()._m


def test_solo_game_is_a_one_diver_round():
    g = solo_game(seed=3, air=4)
    assert g.current_player == 0 and g.divers[1].returned
    g.roll((1, 1))
    g.apply("take")
    assert g.current_player == 0  # the ghost never plays
