"""The Crew through the AI adapters: complete random-legal games, decisions per second, one core.

    python benchmarks/bench_crew_adapters.py [--games N] [--players P] [--repeat R]

Lines (each counts decisions, the seats' choices; the deal is not a decision):

* engine: ``CrewGame(seed=k)``, ``legal_actions()`` + ``apply()`` (checked);
* PettingZoo: the AEC loop ``env.last()`` (observation and mask of the acting agent) then
  ``env.step(a)`` with a random masked action, through ``crew_env()``'s wrappers;
* OpenSpiel: ``state.legal_actions()`` + ``apply_action`` from a random deal (40 chance nodes,
  not counted), then the same with ``observation_tensor`` and ``information_state_string`` of
  the player to act at every decision.

The median of ``--repeat`` runs per line, in CPU time (``time.process_time``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsa_widget.crew.rules import CrewGame  # noqa: E402


def engine(games: int, players: int) -> int:
    rng = random.Random(12345)
    decisions = 0
    for k in range(games):
        g = CrewGame(players, seed=k)
        while not g.is_over:
            g.apply(rng.choice(g.legal_actions()))
            decisions += 1
    return decisions


def pettingzoo(games: int, players: int) -> int:
    import numpy as np

    from dsa_widget.adapters.crew_pettingzoo import crew_env

    rng = random.Random(12345)
    e = crew_env(players=players)
    decisions = 0
    for k in range(games):
        e.reset(seed=k)
        for _agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            decisions += 1
    return decisions


def openspiel(games: int, players: int, observe: bool = False) -> int:
    import pyspiel

    import dsa_widget.adapters.crew_openspiel  # noqa: F401 - registers the game

    rng = random.Random(12345)
    game = pyspiel.load_game("python_the_crew_deep_sea", {"players": players})
    decisions = 0
    for _ in range(games):
        s = game.new_initial_state()
        while not s.is_terminal():
            if s.is_chance_node():
                outcomes = s.chance_outcomes()
                s.apply_action(rng.choices([a for a, _ in outcomes], [p for _, p in outcomes])[0])
                continue
            if observe:
                p = s.current_player()
                s.observation_tensor(p)
                s.information_state_string(p)
            s.apply_action(rng.choice(s.legal_actions()))
            decisions += 1
    return decisions


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    lines: list[tuple[str, Callable[[], int]]] = [
        ("engine (CrewGame, checked)", lambda: engine(args.games, args.players)),
        ("PettingZoo crew_env, last + step", lambda: pettingzoo(args.games, args.players)),
        ("OpenSpiel, legal + apply", lambda: openspiel(args.games, args.players)),
        ("OpenSpiel, + observation, infostate", lambda: openspiel(args.games, args.players, True)),
    ]
    times: dict[str, list[float]] = {name: [] for name, _ in lines}
    counts: dict[str, int] = {}
    for _ in range(args.repeat):
        for name, fn in lines:  # the lines take turns
            t = time.process_time()
            counts[name] = fn()
            times[name].append(time.process_time() - t)
    base = None
    print(f"{args.games} random games, {args.players} players (median of {args.repeat})")
    for name, _ in lines:
        t = statistics.median(times[name])
        rate = counts[name] / t
        us = 1e6 / rate
        base = base or us
        print(f"{name:40s} {rate:10.0f} decisions/s {us:8.1f} µs/decision  x{us / base:5.1f}")


if __name__ == "__main__":
    main()
