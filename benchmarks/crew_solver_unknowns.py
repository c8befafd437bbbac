"""Why does the Crew solver leave a position unknown?  Not a test: it prints a table.

    python benchmarks/crew_solver_unknowns.py --seats 4 --seeds 202600017 202600042
    python benchmarks/crew_solver_unknowns.py --seats 5 --from-bench bench5.txt --big 1000000

The positions are the benchmark's (``bench_crew_solver.py``: the same seeds give the same
deal, mission, assignment).  ``--from-bench`` reads the seeds of the lines a benchmark run
printed as ``unknown``.  For each position: the seat count, the tasks (id, kind, owner), and
the answer and tricks evaluated of the ordered search and of the plain depth-first search
alone, each with the big budget ``--big``, then of ``solve`` at the default budget and at the
big one.  "-" is an answer the big budget did not reach.
"""

from __future__ import annotations

import argparse
import os
import re
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from bench_crew_solver import _position  # type: ignore[import-not-found]

from dsa_widget.crew.bots.solver import DEFAULT_NODE_LIMIT, _schedule, solve
from dsa_widget.crew.tasks import task_table


def _answer(w: bool | None) -> str:
    return "-" if w is None else "win" if w else "lost"


def _attempt(nodes: int, budget: int) -> str:
    """Which of the ordered search's attempts (``_Search.run``, its schedule ``_schedule``:
    restarts in tenths of at most RESTART_SCALE, the deepening attempt past it, then the
    shuffled attempts) found the win after ``nodes`` tricks, its move order, and how many
    tricks into it.

    >>> _attempt(7_000, 1_000_000)
    'attempt 1 (no slack), 2000 in'
    >>> _attempt(57_706, 1_000_000)
    'attempt 5 (deepen), 7706 in'
    >>> _attempt(74_803, 1_000_000)
    'attempt 8 (shuffle 3), 4803 in'
    """
    start = 0
    for i, (order, end) in enumerate(_schedule(budget)):
        if nodes <= end:
            return f"attempt {i} ({order}), {nodes - start} in"
        start = end
    return f"past the budget, {nodes - start} in"


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--seats", type=int, default=4, choices=(3, 4, 5))
    ap.add_argument("--seeds", type=int, nargs="*", default=[])
    ap.add_argument("--from-bench", default=None, help="a benchmark run's output: its unknown seeds")
    ap.add_argument("--big", type=int, default=1_000_000, help="the big budget (completed tricks)")
    ap.add_argument("--left", type=int, default=None)
    ap.add_argument(
        "--searches", default="ordered,plain,auto", help="which searches get the big budget (comma separated)"
    )
    args = ap.parse_args(argv)
    seeds = list(args.seeds)
    if args.from_bench:
        with open(args.from_bench, encoding="utf-8") as f:
            for line in f:
                m = re.match(r"seed (\d+): .* unknown ", line)
                if m:
                    seeds.append(int(m.group(1)))
    table = task_table()
    print(f"{'seed':>10} seats  tasks (id kind @owner)  |  search: answer tricks CPU s")
    for seed in seeds:
        g = _position(args.seats, seed, args.left)
        if g is None:
            print(f"{seed:>10}  (no position)")
            continue
        tasks = ", ".join(f"{t.id} {table[t.id].kind}@{t.owner}" for t in g.tasks)
        cells = []
        c0 = time.process_time()
        d = solve(g, node_limit=DEFAULT_NODE_LIMIT)
        cells.append(f"auto@default {_answer(d.winnable)} {d.nodes} {time.process_time() - c0:.1f}")
        for search in args.searches.split(","):
            c0 = time.process_time()
            s = solve(g, node_limit=args.big, search=search)
            cell = f"{search} {_answer(s.winnable)} {s.nodes} {time.process_time() - c0:.1f}"
            if search == "ordered" and s.winnable:
                cell += f" ({_attempt(s.nodes, args.big)})"
            cells.append(cell)
        print(f"{seed:>10} {g.seats:>5}  {tasks}  |  " + "  |  ".join(cells), flush=True)


if __name__ == "__main__":
    main()
