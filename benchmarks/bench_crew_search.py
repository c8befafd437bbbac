"""The Crew's search bot, its rollouts in Python against the compiled kernel, side by side.

    python benchmarks/bench_crew_search.py [--decisions N] [--games N] [--targets 3,6] [--seed S]
                                           [--paths python,kernel]

Figures (CPU time, ``time.process_time``: the machine may be shared):

* CPU time of one card decision (more than one legal card), median and 95th percentile, over
  the same 4-seat attempts at target 3 (the game and bot seeds fixed), for each path:
  ``python`` (``SearchBot(kernel=False)``: the rollouts on :class:`PlayState`, one sample
  and card at a time) and ``kernel`` (the default: every sample and card in one call of
  :func:`dsa_widget.crew.kernel.kernel_rollouts`).  The kernel is compiled (or loaded from its
  cache) before the clock starts.
* strength: the mission success rate of each path at every target of ``--targets``, 4 seats,
  ``--games`` attempts per target, the same attempts for both (paired seeds, through
  :func:`dsa_widget.crew.bots.success_rates`), with 95% Wilson intervals.  The attempts are the
  expensive part: ``--games 0`` skips them.

The last line is one JSON object of every figure.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_crew  # noqa: E402

from dsa_widget.crew.bots import SearchBot, success_rates  # noqa: E402
from dsa_widget.crew.kernel import COMPILED, warm_up  # noqa: E402

PATHS = {"python": False, "kernel": True}


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def decisions(kernel: bool, count: int) -> list[float]:
    """CPU seconds of ``count`` card decisions (more than one legal card) of the search bot,
    timed as ``bench_crew.py`` times every Crew bot."""
    return bench_crew.decisions("search", count, kernel=kernel)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--decisions", type=int, default=200, help="card decisions timed per path")
    ap.add_argument(
        "--games", type=int, default=200, help="attempts per target and path (0: no strength run)"
    )
    ap.add_argument("--targets", default="3,6")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--paths", default="python,kernel", help="which rollout paths to run")
    args = ap.parse_args()
    paths = {name: PATHS[name] for name in args.paths.split(",")}
    warm_up()
    out: dict[str, float] = {}
    print(
        f"The Crew search bot (16 samples, greedy rollouts), 4 seats, one core, CPU time; numba: {COMPILED}"
    )
    for name, kernel in paths.items():
        if args.decisions <= 0:
            break
        ts = decisions(kernel, args.decisions)
        out[f"{name}_decision_s_p50"] = statistics.median(ts)
        out[f"{name}_decision_s_p95"] = _pct(ts, 0.95)
        print(
            f"  {name:<7} card decision: median {statistics.median(ts) * 1000:7.1f} ms, "
            f"p95 {_pct(ts, 0.95) * 1000:7.1f} ms ({len(ts)} decisions)"
        )
    if "python_decision_s_p50" in out and "kernel_decision_s_p50" in out:
        out["speedup_p50"] = out["python_decision_s_p50"] / out["kernel_decision_s_p50"]
        print(f"  kernel / python: {out['speedup_p50']:.2f}x faster (median)")
    if args.games > 0:
        targets = tuple(int(x) for x in args.targets.split(","))
        bots = {name: SearchBot(kernel=kernel) for name, kernel in paths.items()}
        for name, bot in bots.items():
            t0 = time.process_time()
            table = success_rates({name: bot}, seats=(4,), targets=targets, games=args.games, seed=args.seed)
            out[f"{name}_strength_cpu_s"] = time.process_time() - t0
            for r in table.rows:
                out[f"{name}_t{r.target}_rate"] = r.rate
                out[f"{name}_t{r.target}_low"] = r.low
                out[f"{name}_t{r.target}_high"] = r.high
        head = f"{args.games} paired attempts per target (seed {args.seed})"
        print(f"  success rate, {head}, 95% Wilson interval:")
        for t in targets:
            cells = "   ".join(
                f"{name} {out[f'{name}_t{t}_rate']:6.1%} "
                f"[{out[f'{name}_t{t}_low']:.1%}, {out[f'{name}_t{t}_high']:.1%}]"
                for name in paths
            )
            print(f"    target {t}: {cells}")
    print(json.dumps({k: round(v, 6) for k, v in out.items()}))


if __name__ == "__main__":
    main()
