"""The compiled kernel (dsa_widget.submarine.kernel) against the checked engine: every kernel game's
trace, replayed through ``SubmarineGame.apply`` from the kernel's setup, ends alike (scores,
winners, end condition, turns), for 2-5 players and every option set the kernel plays.  The same
source as plain Python (``DSA_WIDGET_NO_NUMBA=1``, in a subprocess) is checked too, and plays the
very same games as the compiled one."""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from dsa_widget.submarine import kernel
from dsa_widget.submarine.kernel import KernelGame, check_options, kernel_game, kernel_games
from dsa_widget.submarine.rules import SubmarineGame

from .test_conformance import _OPTIONS

ROOT = Path(__file__).resolve().parents[2]
SUPPORTED = [o for o in _OPTIONS if o.get("activation_mode", "uniform") == "uniform"] + [
    {"turn_limit": 40, "tie_rule": "most_held_jokers"},
    {"board_jokers": "collectable", "dead_position_end": False, "exchange_on_arrival": True},
]


def replay(k: KernelGame) -> str | None:
    """None when the checked engine, fed the kernel's trace from its setup, ends as the kernel did."""
    g = SubmarineGame.from_state_dict(k.setup)
    for i, a in enumerate(k.trace):
        if g.is_over:
            return f"the engine's game ended before action {i} ({a})"
        g.apply(a)  # raises on an illegal action
    if not g.is_over:
        return "the engine's game is not over"
    got = (g.scores, g.winners, g.result[0], g.turn_number)  # type: ignore[index]
    want = (k.scores, k.winners, k.condition, k.turns)
    return None if got == want else f"engine {got} != kernel {want}"


def digest(games: int, seed: int, options: dict[str, Any] | None = None) -> str:
    h = hashlib.sha256()
    for i in range(games):
        k = kernel_game(2 + i % 4, seed=seed + i, options=options)
        h.update(repr((k.setup["tiles"], k.setup["piles"], k.trace, k.scores, k.winners)).encode())
    return h.hexdigest()


def test_this_process_compiles_with_numba() -> None:
    # the test environment has the fast extra: the compiled kernel is what these tests check
    assert kernel.COMPILED


@pytest.mark.slow
@pytest.mark.parametrize("options", SUPPORTED, ids=lambda o: ",".join(o) or "defaults")
def test_kernel_games_replay_through_the_checked_engine(options: dict[str, Any]) -> None:
    """40 games per option set (120 with the defaults), 2-5 players: 360 games in all."""
    games = 120 if not options else 40
    for seed in range(games):
        k = kernel_game(2 + seed % 4, seed=1000 * len(options) + seed, options=options)
        assert replay(k) is None, (seed, replay(k))


def test_the_conditions_and_winners_vary() -> None:
    seen = {kernel_game(2 + s % 4, seed=s).condition for s in range(80)}
    assert len(seen) >= 2, seen
    assert any(len(kernel_game(4, seed=s).winners) > 1 for s in range(200))


def test_the_benchmark_loop_finishes_its_games() -> None:
    assert kernel_games(4, games=50, seed=3) == 50
    assert kernel_games(5, games=20, seed=3, options={"deck": "75", "turn_limit": 30}) == 20


def test_unsupported_options_are_refused() -> None:
    with pytest.raises(ValueError, match="independent"):
        check_options({"activation_mode": "independent"})
    with pytest.raises(ValueError, match="independent"):
        kernel_game(3, options={"activation_mode": "independent"})
    with pytest.raises(ValueError, match="players"):
        kernel_games(6)


def _script(code: str, env: dict[str, str]) -> str:
    out = subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), str(ROOT / "tests")]), **env},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout.strip().splitlines()[-1]


_PLAIN = """
from dsa_widget.submarine import kernel
from dsa_widget.submarine.rules import SubmarineGame
import tests.submarine.test_kernel as t
bad = [s for s in range(60) if t.replay(kernel.kernel_game(2 + s % 4, seed=500 + s)) is not None]
print(kernel.COMPILED, bad, t.digest(20, 77))
"""


@pytest.mark.parametrize(
    ("prelude", "env"),
    [
        # one more process each: the fast tier runs the one without an importable numba
        pytest.param("", {"DSA_WIDGET_NO_NUMBA": "1"}, marks=pytest.mark.slow),
        ("import sys; sys.modules['numba'] = None\n", {"DSA_WIDGET_NO_NUMBA": ""}),
    ],
    ids=["env-switch", "numba-not-importable"],
)
def test_plain_python_plays_the_same_games(prelude: str, env: dict[str, str]) -> None:
    """The kernel's source as plain Python (numba switched off, or not importable): its games
    replay through the engine, and they are the compiled kernel's games, setup and action for
    action."""
    line = _script(prelude + _PLAIN, env)
    assert line == f"False [] {digest(20, 77)}"
