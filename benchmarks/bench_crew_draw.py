"""The Crew's static check (CREW.md R-6.7, Appendix A) inside task draws: CPU time per draw.

    python benchmarks/bench_crew_draw.py [--draws N] [--seed S]

``--draws`` random draws (``draw.draw_tasks`` with its repair, R-6.8) for each of: 4 seats with
free selection at every target 12-30, 4 seats with normal allocation at targets 12, 15, ... 30,
3 and 5 seats with free selection at target 20, and campaign missions 45 and 50 (4 seats).  The
seeds are ``S + 100003 * config + i``.

Figures (CPU time, ``time.process_time``: the machine may be shared):

* ``check_ms_median`` / ``check_ms_p99`` / ``check_ms_max``: the time spent in the static check
  (every call of ``draw._possible``: the full draw, the prefixes of a repair, the replacement
  candidates) during one draw;
* ``draw_ms_median`` / ``draw_ms_max``: the whole ``draw_tasks`` call;
* ``a4_median`` / ``a4_p99`` / ``a4_max``: how many times one draw evaluated the checks of A.4
  on a (partial) assignment (calls of ``draw._failures``): the same on every machine;
* ``repaired``: draws with at least one repair; ``worst``: the configuration and seed of the
  slowest check.

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
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsa_widget.crew import draw  # noqa: E402
from dsa_widget.crew.mission import campaign_mission  # noqa: E402
from dsa_widget.crew.options import resolve_options  # noqa: E402
from dsa_widget.crew.tasks import TASKS  # noqa: E402


def _configs() -> list[tuple[int, int, str]]:
    out = [(4, t, "free") for t in range(12, 31)]
    out += [(4, t, "normal") for t in range(12, 31, 3)]
    out += [(3, 20, "free"), (5, 20, "free")]
    for number in (45, 50):
        m = campaign_mission(number)
        assert m.target is not None
        out.append((4, m.target, m.allocation))
    return out


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--draws", type=int, default=150, help="draws per configuration")
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    opts = resolve_options()
    spent = [0.0]
    plain = draw._possible

    def timed(*a: Any) -> bool:
        t0 = time.process_time()
        try:
            return plain(*a)
        finally:
            spent[0] += time.process_time() - t0

    evaluated = [0]
    failures = draw._failures

    def counted(*a: Any, **kw: Any) -> list[str]:
        evaluated[0] += 1
        return failures(*a, **kw)

    draw._possible = timed  # type: ignore[assignment]
    draw._failures = counted  # type: ignore[assignment]
    counts: list[int] = []
    checks: list[float] = []
    whole: list[float] = []
    repaired = 0
    worst: tuple[float, Any] = (-1.0, None)
    for ci, (seats, target, allocation) in enumerate(_configs()):
        for i in range(args.draws):
            seed = args.seed + 100003 * ci + i
            spent[0] = 0.0
            evaluated[0] = 0
            t0 = time.process_time()
            res = draw.draw_tasks(
                random.Random(seed),
                seats=seats,
                target=target,
                allocation=allocation,
                table=TASKS,
                options=opts,
            )
            whole.append(time.process_time() - t0)
            checks.append(spent[0])
            counts.append(evaluated[0])
            repaired += res.repairs > 0
            if spent[0] > worst[0]:
                worst = (spent[0], [seats, target, allocation, seed])
    checks.sort()
    counts.sort()
    out = {
        "draws": len(checks),
        "check_ms_median": round(statistics.median(checks) * 1e3, 3),
        "check_ms_p99": round(checks[int(0.99 * len(checks))] * 1e3, 3),
        "check_ms_max": round(checks[-1] * 1e3, 3),
        "draw_ms_median": round(statistics.median(whole) * 1e3, 3),
        "draw_ms_max": round(max(whole) * 1e3, 3),
        "a4_median": statistics.median(counts),
        "a4_p99": counts[int(0.99 * len(counts))],
        "a4_max": counts[-1],
        "repaired": repaired,
        "worst": worst[1],
    }
    print(json.dumps(out))


if __name__ == "__main__":
    main()
