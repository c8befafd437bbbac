"""The Crew's compiled kernel against the fast path: complete random 4-seat deals with task
evaluation per CPU second, both in one run, interleaved.

    python benchmarks/bench_crew_kernel.py [--deals N] [--rounds R] [--seats S]

Both play the same work per deal: the shuffle, the captain, a random normal allocation of a task
set, a prediction where a task asks for one, uniformly random legal cards, every open task's
status after every trick until the mission succeeds or fails.  The task sets are a pool of 500
drawn to target 3 beforehand (the draw is the engine's, not either path's), cycled; the kernel
takes the same pool.

* ``kernel_deals_per_s``: :func:`dsa_widget.crew.kernel.kernel_deals` (numba with the ``fast``
  extra, else plain Python: the line says which; the compile is done before timing);
* ``random_deal_per_s``: :func:`dsa_widget.crew.playouts.random_deal` (the engine's
  StatusTracker on masks).

Each figure is the median of ``--rounds`` interleaved rounds of CPU time
(``time.process_time``: the machine may be shared).  The success rates of the two are printed
too: they play the same policy on the same task sets, so they agree within sampling error.  The
last line is one JSON object of every figure.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsa_widget.crew import kernel  # noqa: E402
from dsa_widget.crew.draw import draw_tasks  # noqa: E402
from dsa_widget.crew.options import resolve_options  # noqa: E402
from dsa_widget.crew.playouts import random_deal  # noqa: E402
from dsa_widget.crew.tasks import TASKS  # noqa: E402


def run_kernel(n: int, pool: list[tuple[int, ...]], seats: int, seed: int) -> tuple[float, float]:
    t0 = time.process_time()
    ok, _ = kernel.kernel_deals(n, seats=seats, task_sets=pool, seed=seed)
    return n / (time.process_time() - t0), ok / n


def run_fast_path(n: int, pool: list[tuple[int, ...]], seats: int, seed: int) -> tuple[float, float]:
    rng = random.Random(seed)
    ok = 0
    t0 = time.process_time()
    for i in range(n):
        ok += random_deal(rng, seats=seats, tasks=pool[i % len(pool)]).result == "success"
    return n / (time.process_time() - t0), ok / n


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=20_000, help="random_deal deals a round")
    ap.add_argument("--kernel-deals", type=int, default=400_000, help="kernel deals a round")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seats", type=int, default=4)
    args = ap.parse_args()
    rng = random.Random(1)
    opts = resolve_options()
    pool = [
        tuple(draw_tasks(rng, seats=args.seats, target=3, table=TASKS, options=opts).tasks)
        for _ in range(500)
    ]
    kernel.warm_up()  # the compile (or the cache load) is not timed
    kd = args.kernel_deals if kernel.COMPILED else args.deals
    k_runs, p_runs = [], []
    for r in range(args.rounds):
        k_runs.append(run_kernel(kd, pool, args.seats, seed=100 + r))
        p_runs.append(run_fast_path(args.deals, pool, args.seats, seed=200 + r))
    out = {
        "kernel_deals_per_s": statistics.median(x[0] for x in k_runs),
        "random_deal_per_s": statistics.median(x[0] for x in p_runs),
        "kernel_success_rate": statistics.mean(x[1] for x in k_runs),
        "random_deal_success_rate": statistics.mean(x[1] for x in p_runs),
    }
    out["ratio"] = out["kernel_deals_per_s"] / out["random_deal_per_s"]
    how = "compiled by numba" if kernel.COMPILED else "plain Python (no numba)"
    print(f"The Crew, {args.seats} seats, target-3 task sets, random legal cards, one core (CPU time)")
    print(f"  kernel ({how:<24})  {out['kernel_deals_per_s']:>12,.0f} deals/s")
    print(f"  random_deal (masks, StatusTracker)  {out['random_deal_per_s']:>12,.0f} deals/s")
    print(f"  ratio {out['ratio']:.1f}x; target >= 80,000 deals/s (the Rust solver's own loop)")
    k_ok, p_ok = out["kernel_success_rate"], out["random_deal_success_rate"]
    print(f"  success: kernel {k_ok:.2%}, random_deal {p_ok:.2%}")
    print(json.dumps({k: round(v, 6) for k, v in out.items()}))


if __name__ == "__main__":
    main()
