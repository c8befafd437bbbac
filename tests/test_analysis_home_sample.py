"""Random rounds of the home-chance DP's own model (``home_kernel.sample``), the live overlay's
estimate where the exact sum is past its budgets.

A descent follows the very turns, policies and shortcuts the DP sums, one drawn roll at a time,
so it must estimate exactly ``home_chance``: every descent from a position whose chance is 1
comes home and none from one whose chance is 0, the hits agree with the exact chance within
their sampling error, and the same seed gives the same hits compiled and as plain Python (so
the same on any machine).
"""

from __future__ import annotations

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_analysis_home_kernel import by_kernel, crowded, random_position

from dsa_widget.deep_sea.analysis import AnalysisError, home_kernel
from dsa_widget.deep_sea.analysis import home as home_mod
from dsa_widget.deep_sea.analysis._common import board_of
from dsa_widget.deep_sea.analysis.overlay import OVERLAY_PLAYOUTS, OVERLAY_SAMPLES, overlay_for

PLAIN_SAMPLE = home_kernel.plain_solve("sample")


def hits(g, d, others, me, choice, playouts, seed=0, run=None):
    """The hits of ``playouts`` descents (``run``: compiled by default, or the plain copy)."""
    board = board_of(g)
    done, loads = home_mod._start(board, d, choice)
    assert done is None
    pol = home_mod._policies(board, d, others, me)
    return home_mod._sample(board, d, pol, loads, choice, playouts, seed, run)


def fits(g) -> bool:
    return not g.is_over and home_kernel.fits(g.setup.n_players, g.path_length, max(g.air, 0))


def exact(g, d, others, me, choice, budget=200_000):
    """The kernel's fraction and its states (None past ``budget`` states: some random positions
    need far more than a unit test may spend)."""
    board = board_of(g)
    done, loads = home_mod._start(board, d, choice)
    if done is not None:
        return done, 0
    return home_mod._fast(board, d, home_mod._policies(board, d, others, me), loads, choice, budget)


def open_questions(limit: int, first_seed: int = 1):
    """(game, seat, others, me, choice, exact chance, states) for positions with something to sum."""
    seed = first_seed
    found = 0
    while found < limit:
        seed += 1
        g, d, others, me = random_position(seed)
        if not fits(g) or g.step == "sink":
            continue
        for choice in g.legal_choices():
            x, fresh = exact(g, d, others, me, choice)
            if x is not None and fresh:
                yield g, d, others, me, choice, x, fresh
                found += 1


# plain-Python descents are slow: the fast tier checks the first 10 of the same 40 questions
@pytest.mark.parametrize("questions", [10, pytest.param(40, marks=pytest.mark.slow)])
def test_compiled_and_plain_python_draw_the_same_hits(questions: int) -> None:
    checked = 0
    for g, d, others, me, choice, _, _ in open_questions(questions):
        for seed in (0, 12345):
            assert hits(g, d, others, me, choice, 200, seed) == hits(
                g, d, others, me, choice, 200, seed, PLAIN_SAMPLE
            )
        checked += 1
    assert checked == questions


@pytest.mark.slow  # 180,000 descents: the fast tier keeps the settled positions and the plain copy
def test_the_hits_estimate_the_exact_chance() -> None:
    """Within 4.5 standard errors on every position (fixed seeds: the same verdict every run),
    and the errors, scaled, look like a standard normal's overall."""
    zs = []
    for g, d, others, me, choice, chance, _ in open_questions(60, first_seed=100):
        n = 3_000
        p = hits(g, d, others, me, choice, n, seed=7) / n
        x = float(chance)
        se = math.sqrt(x * (1 - x) / n)
        assert abs(p - x) <= 4.5 * se + 1 / n, (choice, p, x)
        if 0.02 < x < 0.98:
            zs.append((p - x) / se)
    assert len(zs) >= 20
    mean = sum(zs) / len(zs)
    assert abs(mean) < 4 / math.sqrt(len(zs))  # no bias beyond sampling noise
    assert 0.5 < math.sqrt(sum(z * z for z in zs) / len(zs)) < 1.6


@pytest.mark.slow  # exact sums of crowded positions take seconds
def test_crowded_positions_past_the_live_budget() -> None:
    """Five and six divers deep, the positions the overlay estimates: the DP's float and the
    estimate agree within their sampling error."""
    for players, seed, stop in ((5, 1, 20), (6, 2, 20), (6, 3, 19)):
        g = crowded(players, seed, stop=stop)
        d = g.current_player
        for c in g.legal_choices():
            exact, _ = by_kernel(g, d, "home", "home", c)
            x = float(exact)
            n = 4_000
            p = hits(g, d, "home", "home", c, n, seed=1) / n
            assert abs(p - x) <= 4.5 * math.sqrt(x * (1 - x) / n) + 1 / n, (players, seed, c, p, x)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 2**31), draw=st.integers(0, 2**40))
def test_settled_positions_are_never_sampled_otherwise(seed: int, draw: int) -> None:
    """A chance of exactly 1 means every descent comes home, of exactly 0 that none does (a
    descent that strayed from the DP's model would show here), and the hits are a count."""
    g, d, others, me = random_position(seed)
    if not fits(g) or g.step == "sink":
        return
    for choice in g.legal_choices():
        chance, fresh = exact(g, d, others, me, choice, budget=50_000)
        if chance is None or not fresh:
            continue
        h = hits(g, d, others, me, choice, 150, draw)
        assert 0 <= h <= 150
        if chance == 1:
            assert h == 150
        elif chance == 0:
            assert h == 0


def test_live_estimates_check_their_input_and_need_the_compiled_dp(monkeypatch: pytest.MonkeyPatch) -> None:
    g = crowded(5, 1, stop=20)
    for bad in (0, -3, 2.5, True, "100"):
        with pytest.raises(AnalysisError, match="playouts"):
            home_mod.live_home_estimates(g, ["roll"], bad)  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="seed"):
        home_mod.live_home_estimates(g, ["roll"], 10, seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(AnalysisError, match="not legal"):
        home_mod.live_home_estimates(g, ["take"], 10)
    assert isinstance(AnalysisError("x"), ValueError)
    r = home_mod.live_home_estimates(g, ["roll"], 500, seed=3)
    if home_mod.COMPILED:
        assert r is not None and r["roll"].playouts == 500
        assert r == home_mod.live_home_estimates(g, ["roll"], 500, seed=3)  # the seed decides
        assert r["roll"].hits == hits(g, g.current_player, "home", "home", "roll", 500, 3)
    else:
        assert r is None
    monkeypatch.setattr(home_mod, "COMPILED", False)
    assert home_mod.live_home_estimates(g, ["roll"], 500) is None


def test_the_overlay_estimates_with_the_compiled_model_if_any(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past every budget the overlay shows an estimate: OVERLAY_SAMPLES rounds of the DP's model
    when compiled, else OVERLAY_PLAYOUTS rounds on the game engine; the note says how many."""
    g = crowded(6, 3, stop=19)
    ov = overlay_for(g, max_states=1_000, exact_states=100)
    p, lo, hi, n = ov["home_est"]["roll"]
    want = OVERLAY_SAMPLES if home_mod.COMPILED else OVERLAY_PLAYOUTS
    assert n == want and lo <= p <= hi and f"{want:,} playouts" in ov["home_note"]
    monkeypatch.setattr(home_mod, "COMPILED", False)
    ov2 = overlay_for(g, max_states=1_000, exact_states=None)
    assert ov2["home_est"]["roll"][3] == OVERLAY_PLAYOUTS
