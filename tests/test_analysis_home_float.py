"""The exact DP of home_chance in double precision (``home_kernel.solve_float``), behind the
live overlay's figures past its budget of exact fractions (issue 10, item 4: "the overlay may
show a float computed from the exact DP (say so)").

The float must be the exact fraction to within rounding (1e-12 here, far below the digits the
overlay shows), expand exactly the states the exact DP expands, come out the same compiled
and as plain Python (so the same on any machine), and the overlay must say which figures are
floats.
"""

from __future__ import annotations

import pytest
from test_analysis_home_kernel import by_kernel, crowded, random_position

from dsa_widget.deep_sea.analysis import home as home_mod
from dsa_widget.deep_sea.analysis import home_kernel
from dsa_widget.deep_sea.analysis._common import board_of
from dsa_widget.deep_sea.analysis.overlay import FLOAT_NOTE, OVERLAY_EXACT_STATES, overlay_for

PLAIN_FLOAT = home_kernel.plain_solve("solve_float")


def by_float(g, d, others, me, choice, run=None, budget=None, layer=None):
    """The float DP (``run``: compiled by default, or a plain copy) and the states it expanded."""
    board = board_of(g)
    done, loads = home_mod._start(board, d, choice)
    if done is not None:
        return float(done), 0
    pol = home_mod._policies(board, d, others, me)
    return home_mod._fast_float(board, d, pol, loads, choice, budget, layer, run)


@pytest.mark.slow
def test_the_float_dp_is_the_exact_fraction_to_rounding_on_random_positions() -> None:
    compared = 0
    seed = 0
    while compared < 150:
        seed += 1
        g, d, others, me = random_position(seed)
        if g.is_over or not home_kernel.fits(g.setup.n_players, g.path_length, max(g.air, 0)):
            continue
        for choice in (None, *g.legal_choices()):
            exact, fresh = by_kernel(g, d, others, me, choice)
            x, fresh_f = by_float(g, d, others, me, choice)
            assert x is not None and abs(x - float(exact)) < 1e-12, (seed, choice, x, exact)
            assert fresh_f == fresh  # the same states, expanded once each
            if fresh < 3_000:  # the very same code as plain Python: the very same double
                assert by_float(g, d, others, me, choice, PLAIN_FLOAT)[0] == x
            compared += 1


@pytest.mark.slow
def test_the_float_dp_on_crowded_positions_and_its_budgets() -> None:
    """Four to six divers deep: the float is the fraction; past its budget, or past its cap on
    one turn's layer, it gives up (None) having expanded no more than the budget allows."""
    checked = 0
    for s in range(6):
        g = crowded(4 + s % 3, s, stop=16 + s % 4)
        if g.is_over or g.step == "sink":
            continue
        d = g.current_player
        for c in g.legal_choices():
            exact, fresh = by_kernel(g, d, "home", "home", c)
            x, fresh_f = by_float(g, d, "home", "home", c)
            assert x is not None and abs(x - float(exact)) < 1e-12 and fresh_f == fresh
            if fresh > 1:
                assert by_float(g, d, "home", "home", c, budget=fresh - 1)[0] is None
                assert by_float(g, d, "home", "home", c, budget=fresh)[0] == x
                assert by_float(g, d, "home", "home", c, layer=1)[0] is None
            checked += 1
    assert checked >= 6


def test_live_chances_try_fractions_first_then_floats() -> None:
    """exact_states: a choice within it gets its fraction; past it, the float of the same DP
    (within max_states); past both, None.  Without numba (compiled=False) no floats."""
    seen = {"fraction": 0, "float": 0, "none": 0}
    games = [crowded(4 + s % 3, s, stop=11 + s) for s in range(10)]
    for g in games:
        if g.is_over or g.step == "sink":
            continue
        v = g.view(g.current_player)
        live = home_mod.live_home_chances(v, 200_000, exact_states=2_000)
        exact_only = home_mod.live_home_chances(v, 2_000)
        python = home_mod.live_home_chances(v, 2_000, compiled=False, exact_states=0)
        tight = home_mod.live_home_chances(v, 1, exact_states=2_000)
        for c, x in live.items():
            assert python[c] is None or not isinstance(python[c], float)
            if exact_only[c] is not None:
                assert x == exact_only[c]
                seen["fraction"] += 1
            elif x is None:
                seen["none"] += 1
            else:
                assert isinstance(x, float)
                want = home_mod.home_chance(v, choice=c, max_states=None)
                assert abs(x - float(want)) < 1e-12
                assert tight[c] is None or not isinstance(tight[c], float)
                seen["float"] += 1
    assert seen["fraction"] and seen["float"], seen


def test_the_overlay_says_which_figures_are_floats() -> None:
    shown = 0
    for s in range(8):
        g = crowded(4 + s % 3, s, stop=17 + s % 5)
        if g.is_over or g.step == "sink":
            continue
        ov = overlay_for(g)
        floats = ov.get("home_float", {})
        for c in g.legal_choices():
            kinds = [ov["home"][c] is not None, c in floats, c in ov.get("home_est", {})]
            assert kinds.count(True) == 1, (c, ov)  # one figure a choice: fraction, float or estimate
        for x, rest in floats.values():
            assert 0.0 <= x <= 1.0 and x + rest == pytest.approx(1.0, abs=1e-15)
            shown += 1
        if floats:
            assert ov["home_float_note"] == FLOAT_NOTE and "floating point" in FLOAT_NOTE
        # fractions only: what the figures were before the float DP
        plain = overlay_for(g, exact_states=None)
        assert "home_float" not in plain
    assert shown > 0 and OVERLAY_EXACT_STATES > 0


def test_plain_solve_knows_its_functions() -> None:
    with pytest.raises(KeyError):
        home_kernel.plain_solve("nope")
