"""A big heuristic tournament on a local Ray cluster against the local process pool (issue 11).
Not a test: it prints numbers.

    python benchmarks/bench_ray.py                     # 100,000 games on each backend
    python benchmarks/bench_ray.py --games 20000 --json
    python benchmarks/bench_ray.py --address 10.0.0.5:6379   # a running cluster's head

For each backend: the start-up cost (the pool's first chunk of work; Ray's ``ray.init`` of a
local cluster with ``--cpus`` CPUs), then the games per second of the tournament itself and
its wall time.  Ray's overhead is ``1 - ray_rate / pool_rate`` (the issue's target: at most
20% at 100,000 games).  Both backends must give the same table (checked: the script fails
otherwise).  The machine is shared, so the figures are noisy; the backends run one after the
other, the pool first.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from dsa_widget.deep_sea.bots import tournament

BOTS = ["planner", "baseline", "take_n:n=2", "air"]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=100_000)
    ap.add_argument("--cpus", type=int, default=os.cpu_count() or 2, help="pool workers and Ray CPUs")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--json", action="store_true", help="also print one JSON object on the last line")
    ap.add_argument(
        "--address",
        default=None,
        help="join the Ray cluster at this host:port (or 'auto') instead of starting a local one "
        "(token authentication: set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN first)",
    )
    a = ap.parse_args()
    print(f"{a.games:,} games, 4 seats ({', '.join(BOTS)}), {a.cpus} CPUs, seed {a.seed}")

    t = time.perf_counter()
    tournament(BOTS, games=a.cpus, seed=a.seed, workers=a.cpus, progress=False)
    pool_start = time.perf_counter() - t
    t = time.perf_counter()
    pool = tournament(BOTS, games=a.games, seed=a.seed, workers=a.cpus, progress=False)
    pool_s = time.perf_counter() - t
    print(f"  local pool: start-up {pool_start:6.2f} s; {a.games / pool_s:8.1f} games/s ({pool_s:.1f} s)")

    import ray

    from dsa_widget.core.executors import connect_ray

    t = time.perf_counter()
    if a.address is None:
        ray.init(num_cpus=a.cpus, include_dashboard=False, log_to_driver=False, configure_logging=False)
    else:
        try:
            connect_ray(a.address)
        except ValueError as e:  # ExecutorError: one line that says what is wrong
            raise SystemExit(f"error: {e}") from None
    run = {"executor": "ray", "address": a.address, "progress": False}
    tournament(BOTS, games=a.cpus, seed=a.seed, **run)  # workers warm
    ray_start = time.perf_counter() - t
    t = time.perf_counter()
    on_ray = tournament(BOTS, games=a.games, seed=a.seed, **run)
    ray_s = time.perf_counter() - t
    ray.shutdown()
    print(f"  Ray:        start-up {ray_start:6.2f} s; {a.games / ray_s:8.1f} games/s ({ray_s:.1f} s)")
    overhead = 1 - (a.games / ray_s) / (a.games / pool_s)
    print(f"  Ray's overhead against the pool: {overhead:+.1%} (target: at most +20%)")
    same = on_ray.to_dict() == pool.to_dict()
    print(f"  same table on both backends: {same}")
    print(pool)
    if a.json:
        print(
            json.dumps(
                {
                    "games": a.games,
                    "cpus": a.cpus,
                    "pool_games_per_s": a.games / pool_s,
                    "ray_games_per_s": a.games / ray_s,
                    "pool_startup_s": pool_start,
                    "ray_startup_s": ray_start,
                    "ray_overhead": overhead,
                    "same_table": same,
                }
            )
        )
    if not same:
        raise SystemExit("the backends disagree")


if __name__ == "__main__":
    main()
