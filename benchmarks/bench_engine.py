"""Rules-engine speed: complete random-legal 4-player games on the standard setup, one core.

    python benchmarks/bench_engine.py [--games N]

Prints games/s, turns/s and µs per turn for (a) the public checked API
(``legal_choices()`` + ``apply()``), with the event log and history on (the
defaults), (b) the same with events off, (c) the fast path used by playouts
(``legal_choices`` + ``apply_unchecked``, no events, no history), and the cost of
``Game.copy()`` at several points of a game.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsa_widget import Game, Setup  # noqa: E402


def play(n: int, setup: Setup, *, checked: bool, events: bool, history: bool) -> tuple[float, int]:
    rng = random.Random(12345)
    choice = rng.choice
    turns = 0
    t0 = time.perf_counter()
    for _ in range(n):
        g = Game(setup, rng=rng, events=events, history=True if checked else history)
        if checked:
            while not g.is_over:
                g.apply(choice(g.legal_choices()))
        else:
            while not g.is_over:
                g.apply_unchecked(choice(g.legal_choices()))
        turns += g.turn_number if g.turn_number >= 0 else 0
    return time.perf_counter() - t0, turns


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=5000)
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})  # one core
    setup = Setup.create(players=4, seed=1)
    n = args.games
    # turns per game, measured with history on
    _, turns = play(500, setup, checked=False, events=False, history=True)
    per_game = turns / 500
    print(f"standard setup, 4 players, random-legal play, one core; {per_game:.1f} turns per game on average")
    for label, kw in [
        ("checked API, events + history (defaults)", dict(checked=True, events=True, history=True)),
        ("checked API, events off", dict(checked=True, events=False, history=True)),
        ("fast path (apply_unchecked), no events/history", dict(checked=False, events=False, history=False)),
    ]:
        dt, _ = play(n, setup, **kw)
        gps = n / dt
        tps = gps * per_game
        print(f"  {label:45s} {gps:8.0f} games/s  {tps:9.0f} turns/s  {1e6 / tps:5.2f} µs/turn")
    g = Game(setup, rng=3)
    rng = random.Random(3)
    for _k in range(40):
        g.apply(rng.choice(g.legal_choices()))
    for label, kw in [
        ("copy() with history + events", {}),
        ("copy(history=False, events=False)", dict(history=False, events=False)),
    ]:
        reps = 20000
        t0 = time.perf_counter()
        for _ in range(reps):
            g.copy(**kw)
        dt = (time.perf_counter() - t0) / reps
        print(f"  {label:45s} {dt * 1e6:6.2f} µs per copy (mid-game)")


if __name__ == "__main__":
    main()
