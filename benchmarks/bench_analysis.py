"""Speed of the analysis tools (issue 5 targets): python benchmarks/bench_analysis.py

Options: ``--home-only`` stops after the chance-to-get-home figures; ``--home-reference`` also
times the straightforward reference DP of home_chance on the same states.

* landing distribution            < 10 ms
* chance to get home (exact DP)   < 100 ms
* solo-policy table, once         < 30 s (then cached)
* 2,000-playout win estimate      < 3 s
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))  # the reference DP is a test oracle

import contextlib

from home_reference import reference_chance  # noqa: E402

from dsa_widget import Game  # noqa: E402
from dsa_widget.deep_sea.analysis import AnalysisError, home_chances, landing_distributions, win_chances  # noqa: E402
from dsa_widget.deep_sea.analysis import home as home_mod  # noqa: E402
from dsa_widget.deep_sea.analysis import solo as solo_mod  # noqa: E402


def realistic_states(count: int, seed: int = 0) -> list[Game]:
    """Mid-round positions of 2-6 player games played by a sensible policy."""
    out = []
    s = seed
    while len(out) < count:
        rng = random.Random(s)
        g = Game(players=rng.randint(2, 6), seed=s, events=False, history=False)
        for _ in range(rng.randint(1, 120)):
            if g.is_over:
                break
            q = g.current_player
            k = len(g.carrying[q])
            if g.step == "search":
                g.apply(
                    "take"
                    if "take" in g.legal_choices() and not g.heading_up[q] and k < rng.choice([1, 2, 3])
                    else "none"
                )
            elif g.step == "turn_back":
                g.apply("back" if k >= 2 or g.air < g.positions[q] or rng.random() < 0.2 else "continue")
            else:
                g.apply("roll")
        s += 1
        if not g.is_over and g.step in ("turn_back", "roll"):
            out.append(g)
    return out


def ms(x: float) -> str:
    return f"{1000 * x:.2f} ms"


def main() -> None:
    states = realistic_states(200)

    times = []
    for g in states:
        t = time.perf_counter()
        landing_distributions(g)
        times.append(time.perf_counter() - t)
    times.sort()
    print(
        f"landing distribution (all choices), {len(times)} states: median {ms(statistics.median(times))}, "
        f"max {ms(times[-1])}   [target < 10 ms]"
    )

    times = []
    too_big = 0
    by_wet: dict[bool, list[float]] = {False: [], True: []}  # more than 3 divers in the water?
    for g in states:
        home_mod.clear_cache()  # cold: nothing remembered from earlier calls
        t = time.perf_counter()
        try:
            home_chances(g)
        except AnalysisError:
            too_big += 1
        times.append(time.perf_counter() - t)
        by_wet[sum(p > 0 for p in g.positions) > 3].append(times[-1])
    times.sort()
    under = sum(t < 0.1 for t in times)
    print(
        f"chance to get home (exact, all choices), {len(times)} states: "
        f"median {ms(statistics.median(times))}, "
        f"p75 {ms(times[3 * len(times) // 4])}, p90 {ms(times[9 * len(times) // 10])}, "
        f"max {ms(times[-1])}; "
        f"{under}/{len(times)} under 100 ms; {too_big} over the state budget   [target < 100 ms]"
    )
    for crowded, ts in sorted(by_wet.items()):
        ts.sort()
        print(
            f"  {'4 to 6' if crowded else '0 to 3'} divers in the water: {len(ts)} states, "
            f"{sum(t < 0.1 for t in ts)} under 100 ms, median {ms(statistics.median(ts))}, max {ms(ts[-1])}"
        )
    if "--home-reference" in sys.argv:
        # the straightforward DP kept for the tests (tests/home_reference.py), same states and budget
        times = []
        too_big = 0
        for g in states:
            t = time.perf_counter()
            try:
                for c in g.legal_choices():
                    reference_chance(g, choice=c, max_states=home_mod.MAX_STATES)
            except AnalysisError:
                too_big += 1
            times.append(time.perf_counter() - t)
        times.sort()
        print(
            f"  reference DP, same states: median {ms(statistics.median(times))}, "
            f"p90 {ms(times[9 * len(times) // 10])}, max {ms(times[-1])}; "
            f"{sum(t < 0.1 for t in times)}/{len(times)} under 100 ms; {too_big} over the state budget"
        )

    # warm: the overlay case - ask again after every turn of the same games
    times = []
    for seed in range(20):
        home_mod.clear_cache()
        rng = random.Random(seed)
        g = Game(players=4, seed=seed)
        while not g.is_over and g.round == 1:
            if g.step in ("turn_back", "roll"):
                t = time.perf_counter()
                with contextlib.suppress(AnalysisError):
                    home_chances(g)
                times.append(time.perf_counter() - t)
            q = g.current_player
            k = len(g.carrying[q])
            if g.step == "search":
                g.apply("take" if "take" in g.legal_choices() and not g.heading_up[q] and k < 2 else "none")
            elif g.step == "turn_back":
                g.apply("back" if k >= 2 or rng.random() < 0.3 else "continue")
            else:
                g.apply("roll")
    times.sort()
    print(
        f"chance to get home, asked at every turn of 20 four-player rounds ({len(times)} calls): "
        f"median {ms(statistics.median(times))}, p90 {ms(times[9 * len(times) // 10])}, "
        f"{sum(t < 0.1 for t in times)}/{len(times)} under 100 ms"
    )
    if "--home-only" in sys.argv:
        return

    solo_mod._model.cache_clear()
    t = time.perf_counter()
    pol = solo_mod.solo_policy()
    t_solve = time.perf_counter() - t
    n_states = pol.states
    t = time.perf_counter()
    pol.heatmap()._repr_svg_()
    t_map = time.perf_counter() - t
    t = time.perf_counter()
    solo_mod.solo_policy()
    t_cached = time.perf_counter() - t
    print(
        f"solo policy: solve {t_solve:.2f} s ({n_states:,} states), heat map +{t_map:.2f} s, "
        f"cached call {ms(t_cached)}   [target < 30 s once]"
    )

    try:
        import dsa_widget.deep_sea.bots  # noqa: F401
    except ImportError:
        runs = [("built-in policy", None)]  # the rules core alone: no named bots
    else:
        runs = [("built-in policy", None), ("planner bots", "planner")]
    for label, bots in runs:
        for n in (2, 4, 6):
            time_win_estimate(f"{n} players from the start, {label}", Game(players=n, seed=1), bots)
    if len(runs) > 1:
        time_win_estimate(
            "4 players, bots baseline/air/depth/take_n",
            Game(players=4, seed=1),
            ["baseline", "air", "depth", "take_n"],
        )


def time_win_estimate(label: str, g: Game, bots: Any) -> None:
    """Print how long a 2,000-playout win estimate for seat 0 takes."""
    t = time.perf_counter()
    est = win_chances(g.view(0), bots, seat=0, playouts=2000, seed=1)
    dt = time.perf_counter() - t
    print(f"win estimate, {label}, {est.playouts:,} playouts: {dt:.2f} s   [target < 3 s]")


if __name__ == "__main__":
    main()
