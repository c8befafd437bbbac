"""Submarine's fast path: complete random games per CPU second.

    python benchmarks/bench_submarine.py [--games N] [--players P]

Figures (CPU time, ``time.process_time``: the machine may be shared):

* ``games_per_s``: complete random games (default 4 players, default options) through
  :func:`dsa_widget.submarine.playouts.random_game` (setup included: the tile and deck shuffles).
* ``turns_per_game``: their mean length in turns (placement included).
* ``playout_games_per_s``: the same games through the lean loop of :mod:`dsa_widget.submarine.fast`
  (:func:`~dsa_widget.submarine.fast.deal` + :func:`~dsa_widget.submarine.fast.playout`, setup
  included; the same random choices as the fast path, game for game).
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
    figures = {
        "players": args.players,
        "games": args.games,
        "games_per_s": round(gps, 1),
        "turns_per_game": round(tpg, 1),
        "playout_games_per_s": round(lean(args.games, args.players), 1),
        "engine_games_per_s": round(engine(small, args.players, False), 1),
        "checked_games_per_s": round(engine(small, args.players, True), 1),
    }
    print(f"Submarine, {args.players} players, random play, CPU time:")
    print(
        f"  fast path (random_playout):     {figures['games_per_s']:>8} games/s "
        f"({figures['turns_per_game']} turns a game)"
    )
    print(f"  lean loop (fast.playout):        {figures['playout_games_per_s']:>8} games/s")
    print(f"  legal_actions + apply_unchecked: {figures['engine_games_per_s']:>8} games/s")
    print(f"  legal_actions + apply (checked): {figures['checked_games_per_s']:>8} games/s")
    print(json.dumps(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main())
