"""The Crew's fast path and bots: complete random 4-seat deals per CPU second, bot decision times.

    python benchmarks/bench_crew.py [--deals N] [--decisions N] [--samples S]

Figures (CPU time, ``time.process_time``: the machine may be shared):

* ``deals_per_s``: complete random 4-seat deals on masks with task evaluation
  (:func:`dsa_widget.crew.playouts.random_deal`: the shuffle, the captain, a random normal
  allocation, random legal cards, the engine's StatusTracker after every trick until success
  or failure).  The task sets are drawn to target 3 beforehand (a pool of 500, cycled), because
  the draw with its repair (``draw.draw_tasks``) is the engine's, not the fast path's; its own
  rate is ``draws_per_s`` and ``deals_with_draw_per_s`` counts both.
* ``engine_deals_per_s``: the same through ``CrewGame`` (construction, ``legal_actions`` +
  ``apply_unchecked``, every step), for comparison.
* ``greedy_deals_per_s``: deals played by the crewmate's card rule (the search bot's rollouts).
* ``crewmate_decision_s_*`` / ``search_decision_s_*``: median and 95th percentile of one card
  decision of the crewmate and search bots (default knobs) over 4-seat attempts at target 3.

The last line is one JSON object of every figure.
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

from dsa_widget.crew.bots import make_bot  # noqa: E402
from dsa_widget.crew.draw import draw_tasks  # noqa: E402
from dsa_widget.crew.options import resolve_options  # noqa: E402
from dsa_widget.crew.playouts import greedy_play, random_deal  # noqa: E402
from dsa_widget.crew.rules import CrewGame  # noqa: E402
from dsa_widget.crew.tasks import TASKS  # noqa: E402


def _pct(xs: list[float], q: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(q * len(s)))]


def deals(n: int, pool: list[tuple[int, ...]], *, greedy: bool = False) -> tuple[float, float]:
    rng = random.Random(7)
    ok = 0
    kw = {"policy": greedy_play} if greedy else {}
    t0 = time.process_time()
    for i in range(n):
        ok += random_deal(rng, seats=4, tasks=pool[i % len(pool)], **kw).result == "success"  # type: ignore[arg-type]
    return n / (time.process_time() - t0), ok / n


def draws(n: int) -> float:
    rng = random.Random(8)
    opts = resolve_options()
    t0 = time.process_time()
    for _ in range(n):
        draw_tasks(rng, seats=4, target=3, table=TASKS, options=opts)
    return n / (time.process_time() - t0)


def engine_deals(n: int) -> float:
    rng = random.Random(9)
    t0 = time.process_time()
    for _ in range(n):
        g = CrewGame(4, target=3, seed=rng.getrandbits(32))
        while not g.is_over:
            legal = g.legal_actions()
            g.apply_unchecked(legal[int(rng.random() * len(legal))])
    return n / (time.process_time() - t0)


def decisions(name: str, count: int, **knobs: int) -> list[float]:
    """CPU seconds of ``count`` card decisions (more than one legal card) of bot ``name``."""
    times: list[float] = []
    seed = 0
    while len(times) < count:
        g = CrewGame(4, target=3, seed=1000 + seed, timed=True)
        bots = [make_bot(name, seed=seed * 10 + s, **knobs) for s in range(4)]
        seed += 1
        while not g.is_over and len(times) < count:
            legal = g.legal_actions()
            view = g.view(g.to_move)
            t0 = time.process_time()
            a = bots[g.to_move](view, legal)
            dt = time.process_time() - t0
            if g.step == "play" and sum(x.startswith("play ") for x in legal) > 1:
                times.append(dt)
            g.apply(a)
    return times


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--deals", type=int, default=20_000)
    ap.add_argument("--decisions", type=int, default=60, help="card decisions timed per bot")
    ap.add_argument("--samples", type=int, default=None, help="search bot samples (default: its own)")
    args = ap.parse_args()
    rng = random.Random(1)
    opts = resolve_options()
    pool = [draw_tasks(rng, seats=4, target=3, table=TASKS, options=opts).tasks for _ in range(500)]
    out: dict[str, float] = {}
    runs = [deals(args.deals, pool) for _ in range(3)]
    out["deals_per_s"] = statistics.median(r[0] for r in runs)
    out["random_success_rate_target3"] = runs[0][1]
    out["draws_per_s"] = draws(max(500, args.deals // 10))
    out["deals_with_draw_per_s"] = 1.0 / (1.0 / out["deals_per_s"] + 1.0 / out["draws_per_s"])
    out["engine_deals_per_s"] = engine_deals(max(200, args.deals // 20))
    g_rate, g_ok = deals(max(200, args.deals // 20), pool, greedy=True)
    out["greedy_deals_per_s"] = g_rate
    out["greedy_success_rate_target3"] = g_ok
    print("The Crew, 4 seats, target-3 task sets, one core (CPU time)")
    print(f"  random deals on masks with task evaluation  {out['deals_per_s']:>9,.0f} deals/s")
    print(f"  task draws (draw_tasks, target 3)            {out['draws_per_s']:>9,.0f} draws/s")
    print(f"  deals including the draw                     {out['deals_with_draw_per_s']:>9,.0f} deals/s")
    print(f"  CrewGame, every step, apply_unchecked        {out['engine_deals_per_s']:>9,.0f} deals/s")
    print(f"  greedy (crewmate card rule) deals            {out['greedy_deals_per_s']:>9,.0f} deals/s")
    print(f"  success: random {out['random_success_rate_target3']:.1%}, greedy {g_ok:.1%}")
    knobs = {} if args.samples is None else {"samples": args.samples}
    for name, kw in (("crewmate", {}), ("search", knobs)):
        ts = decisions(name, args.decisions, **kw)
        out[f"{name}_decision_s_p50"] = statistics.median(ts)
        out[f"{name}_decision_s_p95"] = _pct(ts, 0.95)
        out[f"{name}_decision_s_max"] = max(ts)
        print(
            f"  {name:<9} card decision: median {out[f'{name}_decision_s_p50'] * 1000:.1f} ms, "
            f"p95 {out[f'{name}_decision_s_p95'] * 1000:.1f} ms, "
            f"max {out[f'{name}_decision_s_max'] * 1000:.1f} ms "
            f"({len(ts)} decisions)"
        )
    print(json.dumps({k: round(v, 6) for k, v in out.items()}))


if __name__ == "__main__":
    main()
