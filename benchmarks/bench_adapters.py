"""Adapter speed, every game with adapters: the engine, the PettingZoo environment and
OpenSpiel's ``rl_environment`` playing complete random-legal games, one core.

    python benchmarks/bench_adapters.py [--games N] [--players P] [--repeat R] [--only NAME ...]

For each registered game with an action numbering (Deep Sea Adventure, The Crew, Submarine,
Pig) three lines (Pig a fourth), each counting *agent steps* (a seat's decision; dice and deals are chance,
not counted), so the lines of one game compare directly:

* engine: the game's own state from the registry (``new_game(seed=k, players=P)``),
  ``legal_actions()`` + ``apply()`` (checked) with a random legal action, chance drawn by the
  game (``sample_chance``);
* PettingZoo: the usual AEC loop, ``env.last()`` (the acting agent's observation and action
  mask) then ``env.step(a)`` with a random masked action, through the wrapped environment
  (Deep Sea Adventure's ``env()`` on its default backend, The Crew's ``crew_env()``, the
  others' ``game_env(name)``);
* OpenSpiel: ``rl_environment.Environment(game)`` with its defaults, ``env.step([a])`` with a
  random legal action of the player to act: every step it reads every player's information
  state tensor (the observation tensor for a game without one), every player's legal actions
  and the rewards, and draws the chance nodes with its own sampler;
* for a game OpenSpiel also has in C++ (Pig: its ``pig``, goal 100 as ours, a 505-float
  observation tensor and no information state tensor), the same loop on OpenSpiel's own game:
  what ``rl_environment`` costs when the game costs almost nothing (its chance sampler alone,
  ``np.random.choice`` with probabilities, takes about 10 µs a roll).

Printed: steps per second, µs per step and the cost relative to the game's engine line; each
the median of ``--repeat`` timed runs, the lines of every game taking turns (a shared machine's
slow spells then fall on every line alike), timed in CPU time (``time.process_time``: the runs
are one thread, and the time other processes take the core is not counted).  ``--games`` is
scaled per game (``GAMES``) so each line runs about as long; give ``--scale`` to shrink or
grow every game count.
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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsa_widget.core.protocol import CHANCE  # noqa: E402
from dsa_widget.core.registry import game, games  # noqa: E402

#: games per timed run at ``--scale 1`` (a run is a fraction of a second per line)
GAMES = {"deep-sea": 60, "crew": 60, "submarine": 4, "pig": 60}


def _players(name: str, wanted: int) -> int:
    lo, hi = game(name).seats
    return max(lo, min(hi, wanted))


def engine(name: str, games_: int, players: int) -> int:
    spec = game(name)
    rng = random.Random(12345)
    steps = 0
    for k in range(games_):
        g = spec.new_game(seed=k, players=players)
        while not g.is_over:
            if g.to_move == CHANCE:
                g.sample_chance()
                continue
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
    return steps


def _pettingzoo_env(name: str, players: int) -> Any:
    spec = game(name)
    if name == "deep-sea":
        from dsa_widget.adapters.pettingzoo import env

        return env(players=players)
    if spec.encoding is not None:
        from dsa_widget.adapters.pettingzoo import game_env

        return game_env(name, players=players)
    from dsa_widget.adapters.crew_pettingzoo import crew_env

    return crew_env(players=players)


def pettingzoo(name: str, games_: int, players: int) -> int:
    import numpy as np

    rng = random.Random(12345)
    e = _pettingzoo_env(name, players)
    steps = 0
    for k in range(games_):
        e.reset(seed=k)
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            steps += 1
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return steps


def spiel_game(name: str, players: int) -> Any:
    """The OpenSpiel game of a registered game, for ``players`` players."""
    import pyspiel

    import dsa_widget.adapters.openspiel  # noqa: F401 - registers the generic games

    rules = game(name).openspiel_rules()
    if rules is None:  # The Crew's own OpenSpiel game
        from dsa_widget.adapters import crew_openspiel  # noqa: F401 - registers it
        from dsa_widget.crew.openspiel import RULES as rules
    return pyspiel.load_game(rules.short_name, {"players": players})


#: OpenSpiel's own C++ game of a registered game, with our default setup's parameters
NATIVE: dict[str, tuple[str, dict[str, Any]]] = {"pig": ("pig", {"winscore": 100})}


def openspiel(name: str, games_: int, players: int) -> int:
    return _rl_loop(spiel_game(name, players), games_)


def openspiel_native(name: str, games_: int, players: int) -> int:
    import pyspiel

    short, params = NATIVE[name]
    return _rl_loop(pyspiel.load_game(short, {**params, "players": players}), games_)


def _rl_loop(game: Any, games_: int) -> int:
    from open_spiel.python import rl_environment

    rng = random.Random(12345)
    env = rl_environment.Environment(game)
    env.seed(12345)
    steps = 0
    for _ in range(games_):
        ts = env.reset()
        while not ts.last():
            obs = ts.observations
            ts = env.step([rng.choice(obs["legal_actions"][obs["current_player"]])])
            steps += 1
    return steps


LINES: tuple[tuple[str, Callable[[str, int, int], int]], ...] = (
    ("engine: legal_actions + apply", engine),
    ("PettingZoo: last() + step", pettingzoo),
    ("OpenSpiel rl_environment: step", openspiel),
)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4, help="seats (clipped to each game's range)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every game count (GAMES)")
    ap.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="timed runs per line, interleaved (line 1, line 2, ..., line 1, ...); the median is shown",
    )
    ap.add_argument("--only", nargs="*", default=None, help="registry names of the games to run")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})  # one core
    names = [g.name for g in games() if g.name in GAMES and (not args.only or g.name in args.only)]
    runs: list[tuple[str, str, int, int, Callable[[str, int, int], int]]] = []
    for name in names:
        players = _players(name, args.players)
        count = max(1, round(GAMES[name] * args.scale))
        for label, fn in LINES:
            runs.append((name, label, players, count, fn))
        if name in NATIVE:
            runs.append(
                (name, f"OpenSpiel's C++ '{NATIVE[name][0]}': same", players, count, openspiel_native)
            )
    print(
        f"random-legal games, one core, median of {args.repeat} interleaved runs (CPU time); "
        "agent steps (decisions) per second"
    )
    for name, _label, players, count, fn in runs:
        fn(name, max(1, count // 10), players)  # warm up (imports, caches, compilation)
    per_step: list[list[float]] = [[] for _ in runs]
    for _ in range(max(1, args.repeat)):
        for times, (name, _label, players, count, fn) in zip(per_step, runs, strict=True):
            t0 = time.process_time()
            steps = fn(name, count, players)
            times.append((time.process_time() - t0) / steps)
    base: float = 1.0
    for times, (name, label, players, count, fn) in zip(per_step, runs, strict=True):
        dt = statistics.median(times)
        if fn is engine:
            base = dt
            print(f"{game(name).title}, {players} players, {count} games a run")
        print(f"  {label:34s} {1 / dt:9.0f} steps/s {1e6 * dt:8.1f} µs/step  {dt / base:6.2f}x the engine")


if __name__ == "__main__":
    main()
