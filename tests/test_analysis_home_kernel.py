"""The compiled exact DP of home_chance (``analysis/home_kernel.py``) against the Python DPs.

Three independent ways to the same exact fraction must agree on many random positions (any
step, choice, seat and policy): the kernel (compiled by numba in this process, and the very
same code as plain Python on lists, ``home_kernel.plain_solve``), the Python ``_Solver`` and the
straightforward reference DP of ``tests/home_reference.py``.  In subprocesses numba is switched
off (``DSA_WIDGET_NO_NUMBA=1``) or cannot be imported: then ``home_chance`` runs the Python DP
and must still give the reference's fractions.  A deliberately wrong kernel (a rule changed
through ``plain_solve``'s overrides) must be caught.  The live overlay's budget of states
decides exact-or-estimate by the position alone.

Run as a script (``python tests/test_analysis_home_kernel.py POSITIONS``), it compares
``home_chance`` with the reference on that many positions with whatever this process has and
prints ``ok <compiled> <compared>``.
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

import helpers
import pytest
from home_reference import reference_chance
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget import Game
from dsa_widget.deep_sea.analysis import AnalysisError, home_chance, home_kernel
from dsa_widget.deep_sea.analysis import home as home_mod
from dsa_widget.deep_sea.analysis._common import board_of

ROOT = Path(__file__).resolve().parents[1]
PLAIN = home_kernel.plain_solve()


def random_position(seed: int) -> tuple[Game, int, Any, str]:
    """A game stopped at a random moment (any step, often crowded, any round), a seat, policies."""
    g = helpers.random_state(seed, max_steps=300, stop=0.03, events=False, history=False)
    rng = random.Random(seed)
    n = g.setup.n_players
    k = rng.random()
    others: Any = (
        "home" if k < 0.5 else "keep" if k < 0.75 else {q: rng.choice(["home", "keep"]) for q in range(n)}
    )
    return g, rng.randrange(n), others, "home" if rng.random() < 0.75 else "keep"


def by_python(g: Game, d: int, others: Any, me: str, choice: str | None, budget: int) -> Fraction | None:
    """The Python DP from a cold start (None past ``budget`` states)."""
    board = board_of(g)
    r, _ = home_mod._within(
        board, d, home_mod._policies(board, d, others, me), choice, budget, compiled=False
    )
    return r


def by_kernel(
    g: Game, d: int, others: Any, me: str, choice: str | None, run: Any = None
) -> tuple[Fraction, int]:
    """The kernel (``run``: compiled by default, or a plain copy), no budget; and its states."""
    board = board_of(g)
    done, loads = home_mod._start(board, d, choice)
    if done is not None:
        return done, 0
    r, fresh = home_mod._fast(board, d, home_mod._policies(board, d, others, me), loads, choice, None, run)
    assert r is not None
    return r, fresh


def compare(positions: int, first_seed: int, plain: bool, budget: int = 20_000) -> tuple[list[str], int]:
    """The disagreements between the kernel, the Python DP and the reference, and how many agreed."""
    bad: list[str] = []
    compared = 0
    seed = first_seed
    while compared < positions:
        seed += 1
        g, d, others, me = random_position(seed)
        if g.is_over or not home_kernel.fits(g.setup.n_players, g.path_length, max(g.air, 0)):
            continue
        for choice in (None, *g.legal_choices()):
            want = by_python(g, d, others, me, choice, budget)
            if want is None:
                continue  # too big for the Python DPs in a unit test
            try:
                ref = reference_chance(g, d, others=others, me=me, choice=choice, max_states=4 * budget)
            except AnalysisError:
                continue
            got, _ = by_kernel(g, d, others, me, choice)
            found = [got]
            if plain:
                found.append(by_kernel(g, d, others, me, choice, PLAIN)[0])
            if ref != want or any(x != want for x in found):
                bad.append(f"seed {seed}, seat {d}, {others}/{me}, {choice}: {found} != {want} (ref {ref})")
            compared += 1
    return bad, compared


# --------------------------------------------------------------------------- agreement


def test_this_process_compiles_with_numba() -> None:
    # the test environment has the fast extra: the compiled DP is what home_chance runs here
    assert home_kernel.COMPILED and home_mod.COMPILED


def test_kernel_compiled_and_plain_equal_both_python_dps() -> None:
    bad, compared = compare(120, first_seed=0, plain=True, budget=3_000)
    assert not bad and compared >= 120, bad[:3]


@pytest.mark.slow  # seconds of Python DPs: the fast tier compares on the small positions above
def test_kernel_equals_the_python_dps_on_bigger_positions() -> None:
    bad, compared = compare(150, first_seed=5_000, plain=False, budget=10_000)
    assert not bad, bad[:3]


@pytest.mark.slow  # seconds of reference DPs: the fast tier compares with it on the positions above
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), seat=st.integers(0, 5), keep=st.booleans())
def test_home_chance_is_the_references_on_hypothesis_positions(seed: int, seat: int, keep: bool) -> None:
    g = helpers.random_state(seed, max_steps=200, stop=0.04, events=False, history=False)
    if g.is_over:
        return
    d = seat % g.setup.n_players
    others = "keep" if keep else "home"
    for choice in g.legal_choices():
        try:
            want = reference_chance(g, d, others=others, choice=choice, max_states=10_000)
        except AnalysisError:
            continue
        assert home_chance(g, d, others=others, choice=choice, max_states=None) == want


def test_long_rounds_need_more_limbs() -> None:
    """A count of the DP's last layer ``E`` needs ``9**(E + 1)``: past 36 layers two limbs of 59 bits
    overflow and the kernel is asked again with more; the answer is still the Python DP's."""
    g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 40, air=90, seed=0)
    g.play_turn(dice=(3, 3), search="take")
    g.play_turn(dice=(1, 1), search="take")
    g.play_turn(back=False, dice=(3, 3), search="take")  # Ann: space 11, two items
    g.play_turn(back=True, dice=(3, 3))  # Bob is back: Ann breathes 2 a turn and swims 0 to 4
    board = board_of(g)
    d = 0
    pol = home_mod._policies(board, d, "home", "home")
    mixed, items = home_mod._plan(board, d, pol, list(board.loads), None)
    roots = [(w, x) for w, x in items if isinstance(x, tuple)]
    flat: list[int] = []
    for w, (q, air, upm, pos) in roots:
        flat += [w, q, air, upm, *pos]
    cfg = [board.n, board.path_length, d, int(board.requires_treasure), -1, 2, len(roots)]
    res, stats = [0, 0], [0, 0]
    assert PLAIN(cfg, list(board.loads), [int(x) for x in pol], flat, res, stats) == home_kernel.OVERFLOW
    assert stats[1] >= 36 and home_kernel.limbs_for(stats[1]) > 2
    want = by_python(g, d, "home", "home", None, 200_000)
    assert want is not None
    assert by_kernel(g, d, "home", "home", None)[0] == want == by_kernel(g, d, "home", "home", None, PLAIN)[0]


def test_limbs_for() -> None:
    for e in range(0, 200, 7):
        k = home_kernel.limbs_for(e)
        assert 9 ** (e + 1) < 2 ** (home_kernel.LIMB * k) and (
            k == 1 or 9 ** (e + 1) >= 2 ** (home_kernel.LIMB * (k - 1))
        )


def test_positions_the_kernel_cannot_pack_use_the_python_dp() -> None:
    """A path longer than the packed states hold: home_chance still answers (by the Python DP)."""
    g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 70, air=6, seed=0)
    g.play_turn(dice=(2, 2), search="take")
    g.play_turn(dice=(1, 1), search="take")
    assert not home_kernel.fits(2, 70, 6)
    assert home_chance(g) == reference_chance(g)


# --------------------------------------------------------------------------- the budget


def test_the_budget_counts_the_states_expanded() -> None:
    """With a budget of exactly the states it expands a sum succeeds; with one fewer it stops."""
    checked = 0
    for seed in range(1, 400):
        g, d, others, me = random_position(seed)
        if g.is_over or g.step == "sink":
            continue
        board = board_of(g)
        pol = home_mod._policies(board, d, others, me)
        for choice in g.legal_choices():
            done, loads = home_mod._start(board, d, choice)
            if done is not None:
                continue
            r, fresh = home_mod._fast(board, d, pol, loads, choice, 20_000)
            if r is None or fresh == 0:
                continue
            assert home_mod._fast(board, d, pol, loads, choice, fresh) == (r, fresh)
            assert home_mod._fast(board, d, pol, loads, choice, fresh - 1)[0] is None
            with pytest.raises(AnalysisError, match="game states"):
                home_chance(g, d, others=others, me=me, choice=choice, max_states=fresh - 1)
            checked += 1
    assert checked > 100


def crowded(players: int, seed: int, stop: int = 20) -> Game:
    """Every diver takes his first chip and keeps diving until ``stop`` air are left."""
    g = Game(players=players, seed=seed, events=False, history=False)
    while g.round == 1 and g.air > stop and not g.is_over:
        q = g.current_player
        if g.step == "search":
            g.apply("take" if "take" in g.legal_choices() and not g.carrying[q] else "none")
        elif g.step == "turn_back":
            g.apply("continue")
        else:
            g.apply(g.legal_choices()[0])
    return g


def test_live_chances_depend_on_the_position_and_the_budget_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """The overlay's exact-or-None: the same whatever was asked before and however slow the clock;
    an exact figure is home_chance's; a bigger budget answers at least as much."""
    import time

    games = [crowded(4 + s % 3, s, stop=18 + s % 5) for s in range(8)]
    games += [random_position(s)[0] for s in range(1, 20)]
    views = [g.view(g.current_player) for g in games if not g.is_over and g.step != "sink"]
    small = [home_mod.live_home_chances(v, 2_000) for v in views]
    big = [home_mod.live_home_chances(v, 40_000) for v in views]
    assert any(None in x.values() for x in small) and any(None not in x.values() for x in small)
    clock = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))  # a second per look
    monkeypatch.setattr(time, "process_time", lambda: float(next(clock)))
    home_mod.clear_cache()
    assert [home_mod.live_home_chances(v, 2_000) for v in reversed(views)] == small[::-1]
    for v, lo, hi in zip(views, small, big, strict=True):
        for c, x in hi.items():
            assert lo[c] is None or lo[c] == x
            if x is not None:
                assert x == home_chance(v, choice=c, max_states=None)


def test_live_chances_compiled_and_python_agree_where_both_answer() -> None:
    for seed in range(1, 60):
        g, _, _, _ = random_position(seed)
        if g.is_over or g.step == "sink":
            continue
        v = g.view(g.current_player)
        fast = home_mod.live_home_chances(v, 3_000)
        slow = home_mod.live_home_chances(v, 3_000, compiled=False)
        assert fast.keys() == slow.keys() == set(g.legal_choices())
        for c in fast:
            assert fast[c] is None or slow[c] is None or fast[c] == slow[c], (seed, c)


# --------------------------------------------------------------------------- wrong kernels


def _no_jumps(p: int, up: int, most: int, occ: int, length: int, dest: Any) -> None:
    """Swims that count taken spaces too (ignore the jumps)."""
    for j in range(1, most + 1):
        dest[j] = max(0, p - j) if up else min(length, p + j)


def _no_stop_at_the_end(p: int, up: int, most: int, occ: int, length: int, dest: Any) -> None:
    """Swims down past the deepest free space onto a taken one (the last space, taken or not)."""
    getattr(home_kernel._swims, "py_func", home_kernel._swims)(p, up, most, occ, length, dest)
    for j in range(1, most + 1):
        if not up and dest[j] != p and j == most:
            dest[j] = length


def _never_forced(q: int, p: int, upq: int, occo: int, length: int, pol: Any, loads: Any, req: int) -> int:
    """A heading rule without the forced turn back."""
    if upq:
        return 1
    if p == 0:
        return 0
    return 1 if pol[q] and (loads[q] > 0 or not req) else 0


@pytest.mark.parametrize(
    "overrides",
    [
        {"_swims": _no_jumps},
        {"_swims": _no_stop_at_the_end},
        {"_heading": _never_forced},
        {"_LMASK": (1 << 58) - 1},
    ],
)
def test_a_wrong_kernel_is_caught(overrides: dict[str, Any]) -> None:
    wrong = home_kernel.plain_solve(**overrides)
    for seed in range(1, 400):
        g, d, others, me = random_position(seed)
        if g.is_over or g.step == "sink":
            continue
        for choice in g.legal_choices():
            want = by_python(g, d, others, me, choice, 2_000)
            if want is None:
                continue
            try:
                got = by_kernel(g, d, others, me, choice, wrong)[0]
            except Exception:  # a broken kernel may crash: that is caught too
                return
            if got != want:
                return
    raise AssertionError(f"{overrides} was not caught")


# --------------------------------------------------------------------------- without numba


def _script(positions: int, env: dict[str, str], prelude: str = "") -> str:
    code = (
        prelude + "import runpy, sys; sys.argv = ['t', '%d']; runpy.run_path(%r, run_name='__main__')"
    ) % (positions, str(Path(__file__)))
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT / "tests",
        env={**os.environ, **env},
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout.strip().splitlines()[-1]


# second processes: the fast tier's numba-less home DP is test_analysis_home_layer's overlay
@pytest.mark.slow
def test_without_numba_env_var() -> None:
    assert _script(80, {"DSA_WIDGET_NO_NUMBA": "1"}) == "ok False 80"


@pytest.mark.slow
def test_with_numba_not_importable() -> None:
    assert (
        _script(40, {"DSA_WIDGET_NO_NUMBA": ""}, "import sys; sys.modules['numba'] = None;") == "ok False 40"
    )


if __name__ == "__main__":
    wanted = int(sys.argv[1])
    done = 0
    wrong: list[str] = []
    s = 20_000
    while done < wanted:
        s += 1
        g, d, others, me = random_position(s)
        if g.is_over:
            continue
        for c in g.legal_choices():
            try:
                ref = reference_chance(g, d, others=others, me=me, choice=c, max_states=5_000)
            except AnalysisError:
                continue
            if home_chance(g, d, others=others, me=me, choice=c, max_states=None) != ref:
                wrong.append(f"seed {s} seat {d} {others}/{me} {c}")
        done += 1
    for line in wrong[:5]:
        print(line)
    print("ok" if not wrong else "FAILED", home_kernel.COMPILED, done)
    sys.exit(1 if wrong else 0)
