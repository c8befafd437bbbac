"""The live overlay falls back to an estimate with its interval when the exact home chance is too big."""

from __future__ import annotations

import math
import random

import pytest

from dsa_widget import Game
from dsa_widget.deep_sea.analysis import home_chance
from dsa_widget.deep_sea.analysis.home import COMPILED
from dsa_widget.deep_sea.analysis.overlay import OVERLAY_PLAYOUTS, OVERLAY_SAMPLES, air_forecast, overlay_for


def _states(players: int = 6, n: int = 40):
    for s in range(n):
        g = Game(players=players, seed=s)
        r = random.Random(s)
        for _ in range(r.randint(20, 60)):
            if g.is_over:
                break
            g.apply(r.choice(g.legal_choices()))
        if not g.is_over:
            yield g


def test_every_home_figure_is_exact_or_an_estimate_with_interval():
    """A fraction, the exact DP's float (test_analysis_home_float.py), or an estimate with its
    interval; with small budgets (for speed) the 6-player states need estimates too."""
    estimated = floats = 0
    for g in _states():
        ov = overlay_for(g, max_states=3_000, exact_states=1_000)
        for c in g.legal_choices():
            exact = ov["home"][c]
            if exact is not None:
                continue
            if c in ov.get("home_float", {}):
                floats += 1
                continue
            est = ov.get("home_est", {}).get(c)
            assert est is not None, (c, ov)
            p, lo, hi, n = est
            assert n == (OVERLAY_SAMPLES if COMPILED else OVERLAY_PLAYOUTS) and 0 <= lo <= p <= hi <= 1
            estimated += 1
    assert estimated > 0 and floats > 0  # the 6-player states do exercise both


def test_the_kind_of_figure_depends_on_the_position_not_the_clock(monkeypatch):
    """The same position shows the same figures on a fast machine and on a loaded one: the
    choice between exact and estimate is a budget of states, not of time."""
    import time

    states = [g for g, _ in zip(_states(), range(12), strict=False)]
    look = {"max_states": 3_000, "exact_states": 200}
    calm = [overlay_for(g, **look) for g in states]
    assert any("home_est" in ov for ov in calm) and any("home_est" not in ov for ov in calm)
    assert any("home_float" in ov for ov in calm)
    clock = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))  # a second per look
    assert [overlay_for(g, **look) for g in states] == calm
    assert [overlay_for(g) for g in states[:4]] == [overlay_for(g) for g in states[:4]]


def test_estimates_agree_with_the_exact_answer():
    checked = 0
    for g in _states():
        # a small budget, fractions only: estimates small enough to check exactly
        ov = overlay_for(g, max_states=2_500, exact_states=None)
        for c, est in ov.get("home_est", {}).items():
            if est is None or checked >= 6:
                continue
            try:
                exact = float(
                    home_chance(g.view(g.current_player), choice=c, others="home", max_states=60_000)
                )
            except ValueError:
                continue  # too big even offline for a unit test
            p, _, _, n = est
            se = math.sqrt(max(exact * (1 - exact), 1 / n) / n)
            assert abs(p - exact) <= 4 * se + 1 / n, (c, p, exact)
            checked += 1
    assert checked == 6


@pytest.mark.parametrize("seed", range(30))
def test_air_forecast_is_what_the_engine_does_when_nobody_takes_or_gets_back(seed):
    """'next' and 'turns_left' against the engine itself: from a random moment of the first round
    on a long path, everybody keeps diving (continue, none, small dice), so nobody takes, puts
    down or gets back, which is the forecast's stated assumption."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    g = Game(players=n, path=[(1, 0)] * 60, air=rng.randint(3, 25), seed=seed)
    for _ in range(rng.randint(0, 40)):
        if g.round > 1 or g.is_over:
            break
        c = g.legal_choices()
        if g.step == "roll":
            g.roll((1, 1))
        else:
            g.apply("continue" if "continue" in c else rng.choice(c))  # never back: nobody returns
    if g.round > 1 or g.is_over:
        return
    seat = g.current_player
    now = g.turn_number
    f = air_forecast(g.view(seat))
    assert f["now"] == max(0, g.air)
    # 'after' is the air once this turn's breath is taken (RULES.md: a turn starts with it)
    probe = g.copy()
    if probe.step == "roll":
        probe.roll((1, 1))
    elif probe.step == "turn_back":
        probe.apply("continue")
    assert f["after"] == max(0, probe.air), (f, probe.air)
    loads = [len(d.carrying) for d in g.divers]
    assert f["others"] == sum(loads) - loads[seat]  # nobody is back in this test
    seen_next, turns = None, 0
    while g.round == 1 and not g.is_over:
        assert not any(d.returned for d in g.divers)  # the assumption holds
        if g.current_player == seat and g.turn_number > now and not g._breathed and g.step != "search":
            seen_next = g.air if seen_next is None else seen_next
            turns += 1
            now = g.turn_number  # count each of his turns once
            if f["turns_left"] is None and turns == 3:
                break  # nobody breathes: the air stays, and the forecast says no end
        c = g.legal_choices()
        if g.step == "roll":
            g.roll((1, 1))
        else:  # continue, search nothing, and at the round's end lay the chips as picked up
            g.apply("continue" if "continue" in c else ("none" if "none" in c else c[0]))
    if f["turns_left"] is None:
        assert f["per_round"] == 0 and f["next"] == seen_next == g.air
    else:
        assert (f["next"], f["turns_left"]) == (seen_next, turns), (f, seen_next, turns)


def test_long_fractions_reach_the_browser_unrounded():
    """JavaScript numbers are exact only up to 2**53: longer numerators/denominators go as strings
    (read with BigInt in js/history.js), shorter ones as numbers."""
    from fractions import Fraction

    from dsa_widget.deep_sea.analysis.overlay import _frac

    assert _frac(Fraction(6560, 6561)) == [6560, 6561]
    big = Fraction(79765889463593982435328, 9**24)
    num, den = _frac(big)
    assert (num, den) == (str(big.numerator), str(big.denominator))
    assert Fraction(int(num), int(den)) == big
    g = Game(players=["Ann", "Bob", "Cy"], path=[(1, 0)] * 16, air=25, seed=0)
    for dice in [(3, 1), (2, 1), (2, 2), (2, 3)]:
        g.play_turn(dice=dice, search="take")
    ov = overlay_for(g)
    exact = home_chance(g.view(g.current_player), choice="continue")
    assert exact.denominator > 2**53  # a long one: 25 air is many turns of dice
    assert ov["home"]["continue"] == [str(exact.numerator), str(exact.denominator)]
