"""Widget, Python side: time to build + publish one synced state, and its size.

    python benchmarks/bench_widget.py [--games N] [--players P]

Also (issue 5): the bytes of the history traits synced per turn (the round's
tail, plus the completed rounds when a round ends), the milliseconds of the
live probability overlay (landing distributions + exact home chance +
air forecast), computed after the state is published, and the landing /
home-chance costs on their own.

Plays complete games through ``DeepSea.handle_intent`` (what a click does in
the kernel, minus the websocket) with every seat a random bot, and prints per
update: the milliseconds from intent to published state (p50/p95/max), the
milliseconds of ``build_state`` alone, and the JSON bytes of each update
(mean/max; the target is < 16 KB), for the default hidden-values state and
for ``reveal_all=True``.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsa_widget.deep_sea.state import build_state, state_bytes
from dsa_widget.deep_sea.widget import DeepSea


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run(games: int, players: int, reveal_all: bool) -> dict:
    step_ms: list[float] = []
    build_ms: list[float] = []
    sizes: list[int] = []
    hist: list[int] = []
    ov_ms: list[float] = []
    for seed in range(games):
        w = DeepSea(
            players=[f"Player {i + 1}" for i in range(players)],
            seed=seed,
            bot_seed=seed,
            seats=["random"] * players,
            reveal_all=reveal_all,
        )
        while not w.game.is_over:
            t0 = time.perf_counter()
            w.handle_intent({"type": "bot_step", "seq": w.seq})
            step_ms.append((time.perf_counter() - t0) * 1000)
        sizes += w.update_bytes
        hist += w.history_bytes
        ov_ms += w.overlay_ms
        g = w.game
        t0 = time.perf_counter()
        for _ in range(50):
            build_state(g, seats=w.seats, seq=1, reveal_all=reveal_all, log=w.log)
        build_ms.append((time.perf_counter() - t0) * 1000 / 50)
        w.close()  # ipywidgets keeps every open widget alive; a notebook has a few, not 20 finished games
    return {
        "updates": len(sizes),
        "step_ms_p50": pct(step_ms, 0.5),
        "step_ms_p95": pct(step_ms, 0.95),
        "step_ms_max": max(step_ms),
        "build_ms_mean": statistics.mean(build_ms),
        "bytes_mean": statistics.mean(sizes),
        "bytes_max": max(sizes),
        "history_bytes_mean": statistics.mean(hist),
        "history_bytes_max": max(hist),
        "overlay_ms_p50": pct(ov_ms, 0.5),
        "overlay_ms_p95": pct(ov_ms, 0.95),
        "overlay_ms_max": max(ov_ms),
    }


def analysis_costs(games: int, players: int) -> dict:
    """Landing distributions and the exact home chance alone, on every state of random games."""
    import random

    from dsa_widget import Game
    from dsa_widget.deep_sea.analysis import AnalysisError, home_chance, landing_distributions
    from dsa_widget.deep_sea.analysis.overlay import OVERLAY_MAX_STATES

    land: list[float] = []
    home: list[float] = []
    gave_up = 0
    for seed in range(games):
        g = Game(players=players, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            v = g.view(g.current_player)
            t0 = time.perf_counter()
            landing_distributions(v)
            land.append((time.perf_counter() - t0) * 1000)
            t0 = time.perf_counter()
            try:
                home_chance(v, max_states=OVERLAY_MAX_STATES)
            except AnalysisError:
                gave_up += 1
            home.append((time.perf_counter() - t0) * 1000)
            g.apply(rng.choice(g.legal_choices()))
    return {
        "landing_ms_p95": pct(land, 0.95),
        "landing_ms_max": max(land),
        "home_ms_p50": pct(home, 0.5),
        "home_ms_p95": pct(home, 0.95),
        "home_ms_max": max(home),
        "home_gave_up": gave_up,
        "states": len(home),
    }


def _summary(ms: list[float], sizes: list[int]) -> dict[str, float]:
    """Milliseconds from intent to published state, and bytes of each update."""
    return {
        "updates": len(ms),
        "step_ms_p50": pct(ms, 0.5),
        "step_ms_p95": pct(ms, 0.95),
        "step_ms_max": max(ms),
        "bytes_mean": statistics.mean(sizes),
        "bytes_max": max(sizes),
    }


def platform_games(games: int) -> dict[str, dict]:
    """Every registered game whose board stands on the platform (the bridge and the session):
    random-bot games played through ``handle_intent`` (a click's path in the kernel, minus the
    websocket), milliseconds from intent to published state and the bytes of each state."""
    from dsa_widget.bridge import GameWidget
    from dsa_widget.core.registry import games as registered

    out: dict[str, dict] = {}
    for spec in registered():
        cls = spec.widget_class()
        if cls is None or not issubclass(cls, GameWidget):
            continue
        lo, _hi = spec.seats
        ms: list[float] = []
        sizes: list[int] = []
        for seed in range(games):
            w = cls(players=lo + 1, seats=["random"] * (lo + 1), seed=seed, bot_seed=seed)
            while not w.game.is_over:
                t0 = time.perf_counter()
                w.handle_intent({"type": "bot_step", "seq": w.seq})
                ms.append((time.perf_counter() - t0) * 1000)
                sizes.append(len(json.dumps(w.state)))
            w.close()
        out[spec.name] = _summary(ms, sizes)
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=20)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--json", action="store_true", help="print JSON only")
    a = ap.parse_args(argv)
    res = {}
    for reveal in (False, True):
        res["reveal_all" if reveal else "hidden"] = run(a.games, a.players, reveal)
    res["analysis"] = analysis_costs(a.games, a.players)
    res["platform"] = platform_games(max(1, a.games // 4))
    if a.json:
        print(json.dumps(res, indent=1))
        return
    print(f"{a.games} games, {a.players} players, every choice one published state")
    an = res.pop("analysis")
    plat = res.pop("platform")
    for name, r in res.items():
        print(
            f"  {name:<10} {r['updates']} updates | intent->published p50 {r['step_ms_p50']:.2f} ms, "
            f"p95 {r['step_ms_p95']:.2f} ms, max {r['step_ms_max']:.2f} ms"
            f" | build_state {r['build_ms_mean']:.2f} ms"
            f" | bytes/update mean {r['bytes_mean']:.0f}, max {r['bytes_max']} (target < 16000)"
        )
        print(
            f"  {'':<10} history bytes/turn mean {r['history_bytes_mean']:.0f}, max {r['history_bytes_max']}"
            f" | overlay (after the state) p50 {r['overlay_ms_p50']:.1f} ms,"
            f" p95 {r['overlay_ms_p95']:.1f} ms,"
            f" max {r['overlay_ms_max']:.1f} ms"
        )
    print(
        f"  analysis on {an['states']} states: landing p95 {an['landing_ms_p95']:.2f} ms"
        f" (max {an['landing_ms_max']:.2f}; target < 10)"
        f" | home chance p50 {an['home_ms_p50']:.1f} ms, p95 {an['home_ms_p95']:.1f} ms, max"
        f" {an['home_ms_max']:.1f} ms (target < 100),"
        f" gave up (too many states for a live figure) {an['home_gave_up']}"
    )
    for name, r in plat.items():
        print(
            f"  {name:<10} (on the platform)"
            f" {r['updates']} updates | intent->published"
            f" p50 {r['step_ms_p50']:.2f} ms, p95 {r['step_ms_p95']:.2f} ms, max {r['step_ms_max']:.2f} ms"
            f" | bytes/update mean {r['bytes_mean']:.0f}, max {r['bytes_max']}"
        )
    # one state as it travels, for the curious
    w = DeepSea(players=2, seed=1)
    print(f"  an opening state: {state_bytes(w.state)} bytes")


if __name__ == "__main__":
    main()
