"""Submarine's fast path: complete random games per CPU second.

    python benchmarks/bench_submarine.py [--games N] [--players P]

Figures (CPU time, ``time.process_time``: the machine may be shared):

* ``games_per_s``: complete random games (default 4 players, default options) through
  :func:`dsa_widget.submarine.playouts.random_game` (setup included: the tile and deck shuffles).
* ``turns_per_game``: their mean length in turns (placement included).
* ``playout_games_per_s``: the same games through the lean loop of :mod:`dsa_widget.submarine.fast`
  (:func:`~dsa_widget.submarine.fast.deal` + :func:`~dsa_widget.submarine.fast.playout`, setup
  included; the same random choices as the fast path, game for game).
* ``kernel_games_per_s``: complete random games (setup included) in the compiled kernel of
  :mod:`dsa_widget.submarine.kernel` (numba; plain Python when numba is absent, see
  ``kernel_compiled``), measured after a warm-up: ``kernel_compile_s`` is the wall time of that
  warm-up (compiling, or loading the cached compiled code).  Its games are drawn from the kernel's
  own generator, so they are not the games above, but the same random policy.
* ``engine_games_per_s``: the same number of games through ``legal_actions`` + ``apply_unchecked``
  with uniform choices (a tenth as many games), for comparison.
* ``checked_games_per_s``: the same with the checked ``apply``.

The last line is one JSON object of every figure.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsa_widget.submarine import kernel  # noqa: E402
from dsa_widget.submarine.fast import playout_games  # noqa: E402
from dsa_widget.submarine.playouts import random_game  # noqa: E402
from dsa_widget.submarine.rules import SubmarineGame  # noqa: E402


def fast(n: int, players: int) -> tuple[float, float]:
    turns = 0
    t0 = time.process_time()
    for seed in range(n):
        turns += random_game(players, seed=seed).turn_number
    return n / (time.process_time() - t0), turns / n


def lean(n: int, players: int) -> float:
    t0 = time.process_time()
    playout_games(players, games=n, seed=0)
    return n / (time.process_time() - t0)


def compiled(n: int, players: int) -> tuple[float, float]:
    t0 = time.perf_counter()
    kernel.warm_up()
    compile_s = time.perf_counter() - t0
    t0 = time.process_time()
    kernel.kernel_games(players, games=n, seed=0)
    return n / (time.process_time() - t0), compile_s


def engine(n: int, players: int, checked: bool) -> float:
    t0 = time.process_time()
    for seed in range(n):
        g = SubmarineGame(players, seed=seed)
        rng = random.Random(seed)
        step = g.apply if checked else g.apply_unchecked
        while not g.is_over:
            step(rng.choice(g.legal_actions()))
    return n / (time.process_time() - t0)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=4)
    args = ap.parse_args(argv)
    gps, tpg = fast(args.games, args.players)
    small = max(1, args.games // 10)
    kgps, compile_s = compiled(args.games * (10 if kernel.COMPILED else 1), args.players)
    figures = {
        "players": args.players,
        "games": args.games,
        "games_per_s": round(gps, 1),
        "turns_per_game": round(tpg, 1),
        "playout_games_per_s": round(lean(args.games, args.players), 1),
        "kernel_games_per_s": round(kgps, 1),
        "kernel_compile_s": round(compile_s, 2),
        "kernel_compiled": kernel.COMPILED,
        "engine_games_per_s": round(engine(small, args.players, False), 1),
        "checked_games_per_s": round(engine(small, args.players, True), 1),
    }
    print(f"Submarine, {args.players} players, random play, CPU time:")
    print(
        f"  fast path (random_playout):     {figures['games_per_s']:>8} games/s "
        f"({figures['turns_per_game']} turns a game)"
    )
    print(f"  lean loop (fast.playout):        {figures['playout_games_per_s']:>8} games/s")
    how = "numba" if kernel.COMPILED else "plain Python, no numba"
    print(
        f"  kernel (kernel.kernel_games):    {figures['kernel_games_per_s']:>8} games/s "
        f"({how}; warm-up {figures['kernel_compile_s']} s, excluded)"
    )
    print(f"  legal_actions + apply_unchecked: {figures['engine_games_per_s']:>8} games/s")
    print(f"  legal_actions + apply (checked): {figures['checked_games_per_s']:>8} games/s")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
