"""How often does a Crew bot throw away a winnable mission with one card?  A paired, per-decision
measure of card play (issue 33): a change shows in the decisions it changes, where in whole
attempts any change flips about a fifth of them both ways (crew_why.py).

Usage::

    python benchmarks/crew_blunders.py collect --targets 6 --games 80 --out pos6.json
    python benchmarks/crew_blunders.py score pos6.json planner:samples=32 planner --reps 2

``collect`` replays the benchmark's attempts (crew_why.py's deals and bot seeds, ``--spec``
default ``planner``) and keeps every card decision with a real choice from
``--left`` tricks left (default 6-10, the middle game) at which the double-dummy solver
(every hand known: analysis only, never shown to a bot; ``--node-limit`` 5,000 a position)
says the mission is still winnable and at least one legal card makes it lost.  Each position
is stored as its attempt, the actions that led to it and the solver's verdict after each card.
``score`` asks each bot spec for its card at every position (the bot sees only the seat's
view; its seed derived from the position and the repetition, the same for every spec) and
counts *blunders*: cards after which the true deal is lost.  The first spec is the reference:
a position a spec fixes (the reference blundered, it did not) or newly loses, and the
two-sided sign test over those.  The CPU time of each decision (median, p95, max).

It measures what a decision can know only in part: a card the solver condemns on the true
deal may have been the best guess from the seat's view.  Checked against known game-level
orderings (4 seats, target 6, the 218 middle-game positions of the first 80 attempts): the
crewmate's own rule in the playouts, worse in whole attempts (188 against 204 of 300),
blunders 22 times against the default's 14.

Measured (4 seats, target 6, seed 2026; 332 middle-game positions of the first 140 attempts,
``collect --games 80`` and ``--start 80 --games 60``; ``score ... --reps 2``, 664 decisions a
spec): the planner with 32 deals a card (the default then; 96 since) blunders 47 times, with
64 deals 43 (fixed 19, new 15), 96 deals 40 (18 / 10), 128 deals 37 (21 / 12; CPU median 65
ms, p95 131, max 163).  On
top of 96 deals, one repetition: 18 blunders; the solver's verdict from 8 tricks left
(``early=8``) counting fully 17 (3 / 1), counting half 16 (3 / 0), at p95 530 ms, max 0.9 s a
decision.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def collect(args: argparse.Namespace) -> None:
    """Play the attempts and keep the positions where a card can lose the winnable true deal."""
    from dsa_widget.core.bots import play_bot_move
    from dsa_widget.crew.bots.arena import attempt_table
    from dsa_widget.crew.bots.solver import solve

    lo, hi = (int(x) for x in args.left.split("-"))
    out: list[dict[str, Any]] = []
    c0 = time.process_time()
    for target in (int(x) for x in args.targets.split(",")):
        for i in range(args.start, args.start + args.games):
            game, bots = attempt_table(args.spec, args.label, args.seats, target, i, args.seed)
            snaps = []
            while not game.is_over:
                if game.step == "play":
                    left = game.tricks_total - len(game.tricks)
                    if lo <= left <= hi and sum(a.startswith("play ") for a in game.legal_actions()) > 1:
                        snaps.append((game.clone(), game.to_move))
                play_bot_move(game, bots[game.to_move])
            for g, seat in snaps:
                if solve(g, node_limit=args.node_limit).winnable is not True:
                    continue
                after = {}
                for a in (a for a in g.legal_actions() if a.startswith("play ")):
                    g2 = g.clone()
                    g2.apply(a)
                    after[a] = solve(g2, node_limit=args.node_limit).winnable
                if False in after.values():
                    out.append(
                        {
                            "seats": args.seats,
                            "target": target,
                            "i": i,
                            "seed": args.seed,
                            "seat": seat,
                            "history": [[h["action"], h["seat"]] for h in g.history],
                            "after": after,
                        }
                    )
            print(
                f"\r  target {target}: {i + 1 - args.start}/{args.games}, {len(out)} positions, "
                f"{time.process_time() - c0:.0f} s CPU",
                end="",
                file=sys.stderr,
                flush=True,
            )
        print(file=sys.stderr)
    Path(args.out).write_text(json.dumps(out))
    print(f"{len(out)} positions in {args.out}")


def score(args: argparse.Namespace) -> None:
    """Each spec's card at every position: blunders, paired against the first spec, CPU."""
    from dsa_widget.crew.bots.arena import _instantiate, attempt_table

    positions = [p for f in args.positions.split(",") for p in json.loads(Path(f).read_text())]
    got: dict[str, list[bool | None]] = {s: [] for s in args.specs}
    cpu: dict[str, list[float]] = {s: [] for s in args.specs}
    for k, p in enumerate(positions):
        g, _ = attempt_table("random", "", p["seats"], p["target"], p["i"], p["seed"])  # the deal only
        for a, s in p["history"]:
            g.apply(a, seat=s)
        view, legal = g.view(p["seat"]), g.legal_actions()
        for spec in args.specs:
            for r in range(args.reps):
                bot = _instantiate(spec, 1000 * p["i"] + k + 7919 * r)
                c0 = time.process_time()
                a = bot(view, legal)
                cpu[spec].append(time.process_time() - c0)
                got[spec].append(p["after"].get(a))
        print(f"\r  {k + 1}/{len(positions)}", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    ref = got[args.specs[0]]
    for spec in args.specs:
        v = got[spec]
        fixed = sum(x is False and y is True for x, y in zip(ref, v, strict=True))
        new = sum(x is True and y is False for x, y in zip(ref, v, strict=True))
        n = fixed + new
        p_sign = min(1.0, 2 * sum(math.comb(n, j) for j in range(min(fixed, new) + 1)) / 2**n) if n else 1.0
        c = sorted(cpu[spec])
        med, p95, top = (1000 * c[int(q * (len(c) - 1))] for q in (0.5, 0.95, 1.0))
        print(
            f"{spec}: blunders {sum(x is False for x in v)} of {len(v)} decisions "
            f"({len(positions)} positions x {args.reps}; unknown {sum(x is None for x in v)}); "
            f"against {args.specs[0]}: fixed {fixed}, new {new} (sign test p={p_sign:.3f}); "
            f"CPU ms median {med:.0f}, p95 {p95:.0f}, max {top:.0f}"
        )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    c = sub.add_parser("collect", help="play the attempts and store the positions")
    c.add_argument("--spec", default="planner")
    c.add_argument("--label", default="planner", help="the bots' seeds are derived from this name")
    c.add_argument("--seats", type=int, default=4)
    c.add_argument("--targets", default="6")
    c.add_argument("--games", type=int, default=80)
    c.add_argument("--start", type=int, default=0, help="first attempt index")
    c.add_argument("--seed", type=int, default=2026)
    c.add_argument("--left", default="6-10", help="tricks left, as lo-hi")
    c.add_argument("--node-limit", type=int, default=5000)
    c.add_argument("--out", required=True)
    s = sub.add_parser("score", help="each spec's card at the stored positions")
    s.add_argument("positions", help="files written by collect, comma-separated")
    s.add_argument("specs", nargs="+", help="bot specs; the first is the reference")
    s.add_argument("--reps", type=int, default=1, help="decisions a position and spec (bot seeds)")
    args = ap.parse_args()
    collect(args) if args.cmd == "collect" else score(args)


if __name__ == "__main__":
    main()
