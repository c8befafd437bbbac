"""Learning-environment speed: learner decisions per CPU second through
``dsa_widget.adapters.learn`` (random legal learner actions, the other seats played by a bot
inside ``step``), one core.

    python benchmarks/bench_learn.py [--decisions N] [--envs N]

For every game with bounds, two lines: one :class:`SeatEnv` (``reset``/``step``, observations
scaled to [0, 1]) and a :class:`VectorEnv` of ``--envs`` slots (stacked arrays, auto-reset).
Submarine and The Crew (four players, crewmates ``crewmate``) play a tenth of
``--decisions``.  A line counts the learner's decisions only (the bots' moves and the dice happen inside
``step``), so it is what a training loop sees.  Timed in CPU time (``time.process_time``), a
fixed number of decisions per line.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsa_widget.adapters.learn import SeatEnv, VectorEnv  # noqa: E402

#: game, opponent bot, setup
GAMES = (
    ("deep-sea", "baseline", {"players": 3}),
    ("pig", "hold_at_20", {"players": 2}),
    ("submarine", "greedy", {"players": 3}),
    ("crew", "crewmate", {"players": 4}),  # cooperative: the other three are its crewmates
)


def seat_line(game: str, bot: str, setup: dict[str, object], decisions: int) -> float:
    env = SeatEnv(game, opponents=bot, **setup)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=1)
    start = time.process_time()
    for _ in range(decisions):
        _, _, term, trunc, info = env.step(int(rng.choice(np.flatnonzero(info["action_mask"]))))
        if term or trunc:
            _, info = env.reset()
    return decisions / (time.process_time() - start)


def vector_line(game: str, bot: str, setup: dict[str, object], decisions: int, n: int) -> float:
    env = VectorEnv.make(game, n, opponents=bot, **setup)
    rng = np.random.default_rng(0)
    _, info = env.reset(seed=1)
    start = time.process_time()
    for _ in range(max(1, decisions // n)):
        masks = info["action_mask"]
        p = masks / masks.sum(axis=1, keepdims=True)
        actions = (p.cumsum(axis=1) < rng.random((n, 1))).sum(axis=1)
        _, _, _, _, info = env.step(np.minimum(actions, env.num_actions - 1))
    return max(1, decisions // n) * n / (time.process_time() - start)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--decisions", type=int, default=20_000, help="learner decisions per line")
    ap.add_argument("--envs", type=int, default=16, help="slots of the VectorEnv")
    args = ap.parse_args()
    print(f"{'game':<10} {'opponents':<11} {'SeatEnv':>16} {'VectorEnv x' + str(args.envs):>18}")
    for game, bot, setup in GAMES:
        budget = args.decisions if game in ("deep-sea", "pig") else max(1, args.decisions // 10)
        one = seat_line(game, bot, setup, budget)
        many = vector_line(game, bot, setup, budget, args.envs)
        print(f"{game:<10} {bot:<11} {one:>10,.0f} dec/s {many:>12,.0f} dec/s", flush=True)


if __name__ == "__main__":
    main()
