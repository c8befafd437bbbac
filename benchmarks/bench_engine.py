"""Rules-engine speed: complete random-legal 4-player games on the standard setup, one core.

    python benchmarks/bench_engine.py [--games N] [--repeat R] [--json]

Prints games per CPU second (``time.process_time``: the machine may be shared), turns/s and
µs per turn for (a) the public checked API (``legal_choices()`` + ``apply()``), with the
event log and history on (the defaults), (a') the same with each choice drawn by
``rng.choice`` (its Python frames are the loop's cost, not the engine's: (a) draws
``legal[int(rng.random() * k)]``, a lone legal choice without a draw), (b) the same with
events off, (c) the fast path used by playouts (``legal_choices`` + ``apply_unchecked``, no
events, no history); each is run ``R`` times and the median is given.  The rules run
compiled when ``python -m dsa_widget compile`` built them (the first line says which); then
(a) is also measured on the plain Python rules, in a subprocess.  Then the cost of
``Game.copy()`` early, in the middle and late in a game (it should not grow with the game).

Then the playout kernel (``dsa_widget.deep_sea.playouts``): complete games per CPU second
(``time.process_time``), compiled by numba and as plain Python; numba's compile time (or cache
load) is measured apart and not counted.  ``--json`` adds one JSON object on the last line
(``checked_games_per_s``: the checked API with events and history on; ``checked_compiled``:
whether the rules ran compiled; ``checked_plain_games_per_s``; ``events_off_games_per_s``,
``fast_path_games_per_s``; ``copy_us_early`` / ``copy_us_mid`` / ``copy_us_late``;
``playout_games_per_s``: the kernel's, compiled when numba is installed; and the other figures).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from dsa_widget import Game, Setup  # noqa: E402
from dsa_widget.deep_sea import native  # noqa: E402


def play(
    n: int, setup: Setup, *, checked: bool, events: bool, history: bool, pick: str = "random"
) -> tuple[float, int]:
    """Play ``n`` complete games choosing uniformly at random among the legal choices; return
    (CPU seconds, turns).  ``pick="random"`` draws the choice as ``legal[int(random() * k)]``
    (one C call; a lone legal choice is taken without a draw), ``pick="choice"`` with
    ``random.Random.choice``, whose Python-level frames cost this loop more than a step of the
    compiled rules does: the loop's own cost, not the engine's."""
    rng = random.Random(12345)
    rand = rng.random
    choice = rng.choice
    turns = 0
    t0 = time.process_time()
    for _ in range(n):
        g = Game(setup, rng=rng, events=events, history=True if checked else history)
        act = g.apply if checked else g.apply_unchecked
        legal_choices = g.legal_choices
        if pick == "choice":
            while not g.is_over:
                act(choice(legal_choices()))
        else:
            while not g.is_over:
                legal = legal_choices()
                act(legal[0] if len(legal) == 1 else legal[int(rand() * len(legal))])
        turns += g.turn_number if g.turn_number >= 0 else 0
    return time.process_time() - t0, turns


def plain_checked(n: int, repeat: int) -> float | None:
    """The checked API's games/s on the plain Python rules, in a subprocess (when the compiled
    rules run here): both engines in one run."""
    env = {**os.environ, "DSA_WIDGET_NO_COMPILED": "1"}
    cmd = [sys.executable, __file__, "--games", str(n), "--repeat", str(repeat), "--checked-only", "--json"]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True, timeout=3600)
    if out.returncode != 0:
        print(out.stderr[-2000:], file=sys.stderr)
        return None
    found = json.loads(out.stdout.strip().splitlines()[-1])
    return float(found["checked_games_per_s"])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=3000)
    ap.add_argument("--repeat", type=int, default=3, help="runs of each engine figure (the median is given)")
    ap.add_argument("--playout-games", type=int, default=200_000, help="games for the playout kernel")
    ap.add_argument("--json", action="store_true", help="end with one JSON object of the figures")
    ap.add_argument("--checked-only", action="store_true", help="the checked API's figure only")
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})  # one core
    setup = Setup.create(players=4, seed=1)
    n = args.games
    # turns per game, measured with history on
    _, turns = play(500, setup, checked=False, events=False, history=True)
    per_game = turns / 500
    figures: dict[str, object] = {"turns_per_game": round(per_game, 2), "checked_compiled": native.COMPILED}
    print(
        f"standard setup, 4 players, random-legal play, one core; {per_game:.1f} turns per game on average; "
        f"games per CPU second, median of {args.repeat} runs of {n} games"
    )
    print(f"rules: {native.status()}")
    rows: list[tuple[str, str, dict[str, Any]]] = [
        (
            "checked",
            "checked API, events + history (defaults)",
            dict(checked=True, events=True, history=True),
        )
    ]
    if not args.checked_only:
        rows += [
            (
                "checked_rng_choice",
                "the same, each choice by rng.choice",
                dict(checked=True, events=True, history=True, pick="choice"),
            ),
            ("events_off", "checked API, events off", dict(checked=True, events=False, history=True)),
            (
                "fast_path",
                "fast path (apply_unchecked), no events/history",
                dict(checked=False, events=False, history=False),
            ),
        ]
    for key, label, kw in rows:
        runs = [n / play(n, setup, **kw)[0] for _ in range(max(1, args.repeat))]
        gps = statistics.median(runs)
        figures[f"{key}_games_per_s"] = round(gps, 1)
        tps = gps * per_game
        spread = f"(runs {min(runs):.0f}..{max(runs):.0f})"
        print(f"  {label:45s} {gps:8.0f} games/s  {tps:9.0f} turns/s  {1e6 / tps:5.2f} µs/turn  {spread}")
    if args.checked_only:
        print(json.dumps(figures))
        return
    if native.COMPILED:
        plain = plain_checked(n, args.repeat)
        if plain is not None:
            figures["checked_plain_games_per_s"] = round(plain, 1)
            tps = plain * per_game
            label = "checked API on the plain Python rules"
            print(
                f"  {label:45s} {plain:8.0f} games/s  {tps:9.0f} turns/s  "
                f"{1e6 / tps:5.2f} µs/turn  (subprocess)"
            )
    # copy cost early, mid-game and late (a long game, with its events read once, as a widget does)
    g = Game(setup, rng=3)
    rng = random.Random(3)
    for when, steps in (("early", 10), ("mid", 60), ("late", 70)):  # steps played before each
        for _ in range(steps):
            if not g.is_over:
                g.apply(rng.choice(g.legal_choices()))
        _ = g.events, g.history  # read (a copy then takes the records spelled out so far)
        for label, records in [
            ("copy() with history + events", True),
            ("copy(history=False, events=False)", False),
        ]:
            reps = 20000
            t0 = time.process_time()
            for _ in range(reps):
                g.copy(history=records, events=records)
            dt = (time.process_time() - t0) / reps
            if records:
                figures[f"copy_us_{when}"] = round(dt * 1e6, 2)
            print(f"  {label:45s} {dt * 1e6:6.2f} µs per copy ({when}: after {g.turn_number} turns)")
    playout_section(setup, args.playout_games, figures)
    if args.json:
        print(json.dumps(figures))


def playout_section(setup: Setup, games: int, figures: dict[str, object]) -> None:
    """The playout kernel: complete random-legal games per CPU second, with and without numba."""
    from dsa_widget.deep_sea import playouts

    t0 = time.process_time()
    playouts.warm_up()  # numba compiles here (or loads its cache): not part of the figures below
    compile_s = time.process_time() - t0
    rows = [("python", max(200, games // 100))]
    if playouts.COMPILED:
        rows.insert(0, ("auto", games))
        print(f"playout kernel (numba), first call {compile_s:.2f} CPU s (compile or cache load, not timed)")
    else:
        print("playout kernel: numba is not installed (or DSA_WIDGET_NO_NUMBA is set): plain Python only")
    for backend, k in rows:
        t0 = time.process_time()
        r = playouts.random_playouts(setup, k, seed=1, backend=backend)  # type: ignore[arg-type]
        dt = time.process_time() - t0
        gps = k / dt
        tpg = sum(r.turns) / k
        label = "compiled (numba)" if backend == "auto" else "plain Python"
        print(f"  kernel, {label:37s} {gps:8.0f} games/CPU s  {gps * tpg:9.0f} turns/s  ({k} games)")
        key = "compiled" if backend == "auto" else "python"
        figures[f"playout_{key}_games_per_s"] = round(gps, 1)
    figures["playout_compiled"] = playouts.COMPILED
    best = "compiled" if playouts.COMPILED else "python"
    figures["playout_games_per_s"] = figures[f"playout_{best}_games_per_s"]
    figures["numba_first_call_cpu_s"] = round(compile_s, 3)


if __name__ == "__main__":
    main()
