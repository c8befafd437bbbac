"""Adapter speed: complete random-legal 4-player games through the learning-library adapters,
against the engine's own random playouts, one core.

    python benchmarks/bench_adapters.py [--games N] [--players P] [--repeat R]

Every line plays the same kind of game (standard setup, random legal choices, the dice
rolled by the game's own generator) and counts *decisions* (a seat's choice; the dice are
not decisions), so the lines compare directly:

* engine: ``Game(events=False)``, ``legal_choices()`` + ``apply()`` (the checked API);
* PettingZoo, the usual AEC loop: ``env.last()`` (the acting agent's observation and action
  mask) then ``env.step(a)`` with a random masked action, through ``env()``'s wrappers: on the
  compiled kernel (the default when numba is installed; these lines are left out without it)
  and on a checked ``Game`` (``backend="game"``, the environment without numba);
* PettingZoo, the same without observations: the action drawn from the legal actions
  (``env.unwrapped.action_mask()`` on the kernel, the game's ``legal_actions()`` on a Game), so
  the line shows what the environment's bookkeeping costs on its own;

and prints decisions/s, µs per decision and the cost relative to the engine: the median of
``--repeat`` timed runs per line, the lines taking turns (a shared machine's slow spells then
fall on every line alike), timed in CPU time (``time.process_time``: the runs are one thread,
and the time other processes take the core is not counted).
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsa_widget import Game  # noqa: E402


def engine(games: int, players: int) -> int:
    rng = random.Random(12345)
    decisions = 0
    for k in range(games):
        g = Game(players=players, seed=k, events=False)
        while not g.is_over:
            legal = g.legal_choices()
            if g.to_move >= 0:
                decisions += 1
            g.apply(rng.choice(legal))
    return decisions


def pettingzoo_observed(games: int, players: int, backend: str = "auto") -> int:
    import numpy as np

    from dsa_widget.adapters.pettingzoo import env

    rng = random.Random(12345)
    e = env(players=players, backend=backend)
    decisions = 0
    for k in range(games):
        e.reset(seed=k)
        for _agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            decisions += 1
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return decisions


def pettingzoo_kernel_unobserved(games: int, players: int) -> int:
    import numpy as np

    from dsa_widget.adapters.pettingzoo import env

    rng = random.Random(12345)
    e = env(players=players)
    raw = e.unwrapped
    decisions = 0
    for k in range(games):
        e.reset(seed=k)
        for _agent in e.agent_iter():
            _, _, terminated, truncated, _ = e.last(observe=False)
            if terminated or truncated:
                e.step(None)
                continue
            decisions += 1
            e.step(rng.choice(np.flatnonzero(raw.action_mask()).tolist()))
    return decisions


def pettingzoo_game_observed(games: int, players: int) -> int:
    return pettingzoo_observed(games, players, backend="game")


def pettingzoo_unobserved(games: int, players: int) -> int:
    from dsa_widget.adapters.pettingzoo import env

    rng = random.Random(12345)
    e = env(players=players, backend="game")
    raw = e.unwrapped
    index = raw.encoding.index
    decisions = 0
    for k in range(games):
        e.reset(seed=k)
        for _agent in e.agent_iter():
            _, _, terminated, truncated, _ = e.last(observe=False)
            if terminated or truncated:
                e.step(None)
                continue
            decisions += 1
            e.step(index(rng.choice(raw.game.legal_actions())))
    return decisions


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=300)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument(
        "--repeat",
        type=int,
        default=5,
        help="timed runs per line, interleaved (line 1, line 2, ..., line 1, ...); the median is shown",
    )
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})  # one core
    from dsa_widget.adapters.pettingzoo import env

    kernel = env(players=args.players).unwrapped.backend == "kernel"
    runners: list[tuple[str, Callable[[int, int], int]]] = [
        ("engine: Game(events=False), legal_choices + apply", engine),
    ]
    if kernel:
        runners += [
            ("PettingZoo env() on the kernel: last() + step", pettingzoo_observed),
            ("PettingZoo env() on the kernel: step only", pettingzoo_kernel_unobserved),
        ]
    runners += [
        ("PettingZoo env(backend='game'): last() + step", pettingzoo_game_observed),
        ("PettingZoo env(backend='game'): step only", pettingzoo_unobserved),
        # OpenSpiel: add ("OpenSpiel: ...", runner) here; a runner plays `games` games of
        # `players` seats with random legal actions and returns the decisions it made.
    ]
    print(
        f"standard setup, {args.players} players, {args.games} games of random-legal play per line, "
        f"one core, median of {args.repeat} interleaved runs (CPU time)"
    )
    for _label, run in runners:
        run(max(1, args.games // 10), args.players)  # warm up (imports, caches)
    # The lines take turns, so that a machine's slow spell falls on all of them alike.
    per_decision: list[list[float]] = [[] for _ in runners]
    for _ in range(max(1, args.repeat)):
        for times, (_label, run) in zip(per_decision, runners, strict=True):
            t0 = time.process_time()
            decisions = run(args.games, args.players)
            times.append((time.process_time() - t0) / decisions)
    base: float | None = None
    for times, (label, _run) in zip(per_decision, runners, strict=True):
        dt = statistics.median(times)
        if base is None:
            base = dt
        print(
            f"  {label:50s} {1 / dt:9.0f} decisions/s  {1e6 * dt:6.1f} µs/decision",
            f"{dt / base:5.2f}x the engine",
        )


if __name__ == "__main__":
    main()
