"""The live overlay's second count of states: a cap on the states of one turn's layer of the
compiled DP (``max_layer`` of ``live_home_chances``, ``OVERLAY_MAX_LAYER``).

A capped sum is the exact fraction or ``None``, never another number; the cap that a position
needs is the same for the compiled kernel and its plain-Python copy; the decision depends on the
position and the two counts only (not on the clock or on what was asked before); the Python DP
(without numba) has no layers and ignores the cap.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from test_analysis_home_kernel import PLAIN, crowded, random_position

from dsa_widget.deep_sea.analysis import home as home_mod
from dsa_widget.deep_sea.analysis import home_kernel
from dsa_widget.deep_sea.analysis._common import board_of
from dsa_widget.deep_sea.analysis.overlay import OVERLAY_MAX_LAYER, OVERLAY_MAX_STATES, overlay_for

ROOT = Path(__file__).resolve().parents[1]


def _capped(g: Any, choice: str, layer: int | None, run: Any = None) -> Any:
    board = board_of(g)
    d = board.current
    pol = home_mod._policies(board, d, "home", "home")
    done, loads = home_mod._start(board, d, choice)
    assert done is None
    return home_mod._fast(board, d, pol, loads, choice, None, run, layer)[0]


def _least_layer(g: Any, choice: str, run: Any = None) -> int:
    """The smallest cap under which the sum is answered (bisection; the answer is monotone)."""
    if _capped(g, choice, 0, run) is not None:
        return 0
    lo, hi = 0, 1
    while _capped(g, choice, hi, run) is None:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if _capped(g, choice, mid, run) is None:
            lo = mid
        else:
            hi = mid
    return hi


def _cases() -> list[tuple[Any, str]]:
    out = []
    for seed in range(1, 120):
        g, _, _, _ = random_position(seed)
        if g.is_over or g.step == "sink":
            continue
        board = board_of(g)
        for c in g.legal_choices():
            done, _ = home_mod._start(board, board.current, c)
            if done is None and home_kernel.fits(board.n, board.path_length, max(board.air, 0)):
                out.append((g, c))
    return out


def test_a_capped_sum_is_the_exact_fraction_or_none() -> None:
    checked = 0
    for g, c in _cases()[:60]:
        want = _capped(g, c, None)
        for layer in (1, 20, 10**6):
            got = _capped(g, c, layer)
            assert got is None or got == want, (c, layer)
        assert _capped(g, c, 10**6) == want
        checked += 1
    assert checked == 60


@pytest.mark.slow  # bisections in plain Python: the fast tier keeps the wrong cap caught below
def test_the_least_cap_is_the_same_compiled_and_plain_and_is_tight() -> None:
    """Bisection finds the cap a sum needs (its largest layer): one less gives up, it answers;
    the compiled kernel and its plain-Python copy need the very same cap."""
    seen = set()
    for g, c in _cases()[:40]:
        need = _least_layer(g, c)
        assert _least_layer(g, c, PLAIN) == need
        assert need == 0 or _capped(g, c, need - 1) is None
        assert _capped(g, c, need) == _capped(g, c, None)
        seen.add(need)
    assert len(seen) > 5  # the positions do need different caps


def _one_too_many(count: int, layer: int) -> bool:
    return layer >= 0 and count > layer + 1


def test_a_wrong_cap_is_caught() -> None:
    """A kernel that checks the cap against the wrong count (one state too many) is caught by the
    tightness above: with it, the least cap is one less for some position."""
    wrong = home_kernel.plain_solve(_too_wide=_one_too_many)
    for g, c in _cases()[:40]:
        if _least_layer(g, c, wrong) != _least_layer(g, c, PLAIN):
            return
    raise AssertionError("the wrong cap was not caught")


def test_the_cap_gives_big_positions_up_early_and_never_by_the_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Crowded positions: under the overlay's cap a position past it spends fewer states than its
    budget; the figures are the same whatever the clock says and whatever was asked before."""
    import time

    games = [crowded(4 + s % 3, s, stop=18 + s % 5) for s in range(10)]
    views = [g.view(g.current_player) for g in games if not g.is_over and g.step != "sink"]
    capped = [home_mod.live_home_chances(v, OVERLAY_MAX_STATES, max_layer=OVERLAY_MAX_LAYER) for v in views]
    assert any(None in x.values() for x in capped) and any(None not in x.values() for x in capped)
    early = 0
    for v, x in zip(views, capped, strict=True):
        board = board_of(v)
        pol = home_mod._policies(board, board.current, "home", "home")
        for c, r in x.items():
            if r is None:
                _, used = home_mod._within(
                    board, board.current, pol, c, OVERLAY_MAX_STATES, True, OVERLAY_MAX_LAYER
                )
                early += used < OVERLAY_MAX_STATES
            else:
                assert r == home_mod.home_chance(v, choice=c, max_states=None)
    assert early > 0
    clock = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(clock)))
    monkeypatch.setattr(time, "process_time", lambda: float(next(clock)))
    again = [
        home_mod.live_home_chances(v, OVERLAY_MAX_STATES, max_layer=OVERLAY_MAX_LAYER) for v in views[::-1]
    ]
    assert again == capped[::-1]
    assert [overlay_for(g)["home"] for g in games[:4]] == [overlay_for(g)["home"] for g in games[:4]]


def test_the_python_dp_ignores_the_cap() -> None:
    for g, _ in _cases()[:30]:
        v = g.view(g.current_player)
        assert home_mod.live_home_chances(
            v, 2_000, compiled=False, max_layer=1
        ) == home_mod.live_home_chances(v, 2_000, compiled=False)


def test_without_numba_the_overlay_still_answers() -> None:
    """In a process without numba the overlay's exact figures are home_chance's (the Python DP,
    its own budget; the layer cap does not apply) and the rest are estimates."""
    code = (
        "import sys; sys.path.insert(0, 'tests')\n"
        "from test_analysis_home_kernel import crowded\n"
        "from dsa_widget.deep_sea.analysis import home_chance, home_kernel\n"
        "from dsa_widget.deep_sea.analysis.overlay import overlay_for\n"
        "assert not home_kernel.COMPILED\n"
        "exact = est = 0\n"
        "for s in range(4):\n"
        "    g = crowded(2 + s, s, stop=14)\n"
        "    ov = overlay_for(g)\n"
        "    for c, v in ov['home'].items():\n"
        "        if v is None:\n"
        "            assert ov['home_est'][c] is not None; est += 1\n"
        "        else:\n"
        "            x = home_chance(g.view(g.current_player), choice=c, max_states=None)\n"
        "            assert [x.numerator, x.denominator] == [int(v[0]), int(v[1])]; exact += 1\n"
        "print('ok', exact, est)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "DSA_WIDGET_NO_NUMBA": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    words = out.stdout.split()
    assert words[0] == "ok" and int(words[1]) > 0, out.stdout
