"""Why does a Crew bot fail its missions?  Plays one bot spec on the benchmark's deals and,
for every failed attempt, finds where the mission was lost (issue 33's diagnostic).

Usage::

    python benchmarks/crew_why.py --targets 6 --games 100            # the default planner
    python benchmarks/crew_why.py --spec planner:endgame=7 --targets 3,6 --json why.lines
    python benchmarks/crew_why.py --no-why --targets 6 --open-hands   # CHEATS: a diagnostic
    python benchmarks/crew_why.py --no-why --seats 5 --spec planner:best_of=8 \
        --against benchmarks/results/crew_5seats.jsonl.gz               # paired with the table

The deals are :func:`bench_bots.crew_attempt`'s (seed 2026, the arena's derivation); the bots'
seeds are derived from ``--label`` (default ``planner``), so the default spec replays the
benchmark's planner attempts exactly and any other spec plays the same deals with the same
bot seeds. ``--against LOG`` pairs the run with a table's log (``bench_bots.py --resume``, plain
or ``.jsonl.gz``) or another run's ``--json`` lines: the attempts won that were lost, lost that
were won, and the two-sided sign test. For a failed attempt the double-dummy solver (every hand
known: analysis only, never shown to a bot) is asked whether the mission was winnable at the
first card (no: the tasks as assigned could not be made, an *assignment* failure; unknown: the
budget ran out); if it was, a bisection over the cards played (once lost, lost) finds the card after
which it no longer was: the trick, the tricks left then, and whether the seat that played it
owned the task that failed.  Figures: successes with the Wilson interval, the classes, and
the CPU time of the bot's decisions with a real choice (median, p95, max).

Measured (the default planner then: the solver from 5 tricks left; seed 2026, 4 seats,
target 6, 100 deals, the benchmark's 66/100): of the 34 failures, 3 were lost at the
assignment (the tasks as taken could not be made), 3 unknown at the first card, and 28 lost
in play: with 10 tricks left 5, 9: 3, 8: 7, 7: 2, 6: 4, 5: 4, 4: 2, 3: 1, so 21 of the 28
before the solver's endgame; 15 of them at a card of the very trick in which the task
failed, 18 by a seat that did not own it.  At target 6 the crewmate's playouts the planner
values cards with succeed a few times in a hundred, so its values barely separate the cards.

Since then the planner's playouts read the drawn hands (``policy="sighted"``, the default:
target 6 on the first 100 deals 72 against 69, on 300 deals 204 against 188).  Tried on top
of it and not kept (target 6, the first 100 deals, against its 72): deals weighed by the
sighted rule instead of the crewmate's (a planner-like partner; the code was not kept) 68,
``trust=1.0`` (no weighing) 68, ``samples=48`` 71, ``survival=0.2`` 73, and, in the sighted
rule, counting a later seat's only card of the led suit into the trick (not kept either) 67,
though its playouts alone succeed more often (355 against 331 of 800 full deals after the
crewmate's assignment at target 3, 137 against 129 at target 6).

Card play in the middle game (issue 33a), paired on the benchmark's attempts with
``--no-why --spec planner:samples=96`` (96 deals a card, not 32): target 6 218/300 against
204 (38 attempts won that were lost, 24 lost that were won; sign test p = 0.10), target 5
246/300 against 241 (23 / 18, p = 0.53), together p = 0.08; target 3 91/100 against 92
(5 / 6); CPU a decision at target 6 median 38 ms, p95 150, max 691 (32 deals: 14 / 132 /
671).  benchmarks/crew_blunders.py agrees (more deals, fewer losing cards in the middle game)
but not clearly on its own (the default since: 96, with ``comm=resolve``, below; the
earlier default is ``--spec planner:samples=32,comm=crewmate``).  Not kept: the solver's
verdict before the endgame (the planner's ``early`` knob; ``endgame=7``: 35/48 against 36/48,
stopped; on the middle-game positions hardly fewer losing cards at p95 530 ms a decision).

Issue 33's task choice and communication (measured with the knobs off by default; 4 seats, target 6, paired
with the benchmark's own attempts, the table's log: flips fail->success /
success->fail, two-sided sign test), ``--no-why --targets 6 --games 200 --spec SPEC``:
``planner:task_samples=160,task_survival=0.1`` (more and graded task playouts) attempts
0-199: 144 against 134 (36/26, p=0.25); ``planner:comm=resolve`` (show the card that
settles most about who holds the tasks' cards) 0-199: 140 against 134 (26/20, p=0.46),
200-399: 140 against 133 (24/17), so on all 400: 280 against 267 (50/37, p=0.20);
both together, attempts 200-399 (``--start 200``): 138 against 133 (38/33, p=0.64).
At target 5 (``--targets 5``, attempts 0-199, against 159): ``comm=resolve`` 160 (13/12),
``task_samples=160,task_survival=0.1`` 161 (21/19).
None is a clear win alone; ``comm=resolve`` leaned the same way in both halves and with 3
seats (target 6, attempts 0-196: 151 against 145, 22/16), and is the default since, with 96
deals a card.  The yardstick ``planner:comm=silent`` (never
shows a card), 0-199: 127 against 134 (13/20, p=0.30): everything communication now brings
the planner at target 6 is about 3 points, so a better choice of card can gain little
there; the 28-point gap to the bound is in the card play.

The solver earlier (issue 33c; 4 seats, target 6, paired with the table's log
``crew4.jsonl``, ``--no-why --targets 6 --games 200 --spec SPEC``, stopped early when the
flips stayed even): ``planner:early=8,early_weight=1`` attempts 0-114: 88 against 89
(4/5); ``planner:early=10,early_weight=1`` (a deal the solver does not settle left to its
playouts, the cheaper ``early`` since) 0-132: 100 against 101 (7/8), CPU a decision on
attempts 0-29 median 62 ms, p95 211, max 859 (the default there: 30, 125, 487);
``planner:early=10,early_weight=1,solver_samples=24`` (three times the solved deals, the
endgame's too) 0-149: 113 against 112 (11/10), CPU a decision median 76 ms, p95 525, max
1725; the solver's verdict as a veto only (a card's playouts' value times the share of the
solved deals that part the cards on which it keeps the mission winnable; the code was not
kept) 0-88: 65 against 69 (1/5); ``planner:endgame=6`` 0-99: 79 against 79 (1/1), CPU a
decision median 35 ms, p95 159, max 612.  Not a win at any CPU: the solver's verdicts from 8 to 10
tricks left change few of the cards played, and those few both ways.

Better information (issue 33, item 1; 4 seats, target 6, paired with the table's log, the same
command): a partner model closer to the planner's own play (a partner's card odd unless the
sighted rule would play it on the drawn deal, instead of the crewmate's rule; the code was not
kept) attempts 0-193: 137 against 144 (7/14); the partners' communications weighing the deals
(``planner:comm_trust=0.3``, off by default: a card shown or a pass that the ``resolve`` rule
would not make on the drawn deal) 0-299: 226 against 222 (17/13, p=0.59), CPU a decision
median 66 ms, p95 198, max 778; 5 seats (``--seats 5``, against ``crew5_46.jsonl``) 0-199: 141
against 143 (10/12), CPU a decision median 55 ms, p95 223, max 860.  A stronger playout rule,
the sighted rule dropping a card after which the mission fails in this very trick (Python and
kernel, card for card; the code was not kept), 0-399: 304 against 296 (61/53, p=0.51; 0-299
236 against 222, 300-399 68 against 74), CPU a decision median 58 ms, p95 286, max 788,
although its playouts alone succeed more often (150 deals after the crewmate's assignment, 2
playouts each: target 6 65 against 44, target 3 151 against 139).  None is a win: each changes
few of the cards played (the partners' communications 5 of 66 choices in the first seven
tricks of attempts 0-2), and those few both ways.

Where the gap to the bound is (issue 33, item 1): ``--open-hands`` is a CHEATING DIAGNOSTIC,
never a bot a player can use (:func:`open_hands`: the same planner, seed and knobs, whose
drawn deals are all the true deal; its playouts, task choice, communication and endgame solver
unchanged; the planner in ``dsa_widget`` still draws from its view and its no-cheat tests
stand).  Its successes split the gap between the bound (the solver's "winnable" at the first
card, the table's log) and the planner on the same attempts: bound - open hands is what the
planner's playouts and search lose even knowing every hand, open hands - planner what hidden
information costs it.  ``--no-why --targets 6 --open-hands`` (``--seats 5`` for five), paired
with the table's logs: 4 seats, attempts 0-199, bound 186, open hands 157, planner 149 (30
won that were lost, 22 lost that were won; p = 0.33): of the 18.5 points, 14.5 are lost even
with every hand known, 4.0 (not significant) to hidden information; 5 seats, attempts 0-159,
bound 153, open hands 134, planner 115 (30 / 11, p = 0.004): of 23.8 points, 11.9 and 11.9.
CPU a decision (open hands) median 36 ms, p95 129, max 749 (4 seats); 25, 139, 803 (5 seats).
So at 4 seats the points are in the search: on the true deal a card's value is one line of
the sighted rule after it (its only draws break ties), and the lines it misses are most of the
gap; at 5 seats the hidden hands cost as much again.

The levers the split points to, more work a decision (4 seats, target 6, paired with the
table's log, ``--no-why --targets 6 --spec SPEC``; CPU a decision median / p95 / max):
``planner:samples=192`` attempts 0-299 220 against 222 (32/34, p = 0.90), 85 / 218 / 755 ms;
``planner:rollouts=2`` 0-199 150 against 149 (14/13), 48 / 150 / 776 ms (the sighted rule
draws only to break ties, so a second playout of a deal seldom differs: ``rollouts=4`` and
``samples=384`` were not run); ``planner:task_samples=144`` (three times the deals a task
choice) 0-399 309 against 296 (58/45, p = 0.24; 0-199 155 against 149, 200-399 154
against 147), 43 / 276 / 786 ms, leaning the same way as ``task_samples=160`` above but not
clearly (target 5, ``--targets 5``, 0-99: 80 against 80, 9/9).  The same knob at 3 and 5
seats (``--seats 3`` against ``crew3_56.jsonl``, ``--seats 5`` against ``crew5_46.jsonl``):
3 seats target 5 0-399 319 against 309 (39/29), target 6 0-399 313 against 315 (36/38); 5
seats target 5 0-199 160 against 153 (21/14), target 6 0-199 150 against 143 (28/21).  All
six runs together, 1,800 paired attempts: 191 won that were lost, 156 lost that were won (p =
0.07), about 2 points, leaning up in four, even in two.  None is a clear win: more
of the same playouts do not find the lines the solver finds.  At 5 seats, where the hidden
hands cost half the gap, the partners' cards weighing the deals harder (``--seats 5 --spec
planner:trust=0.25``: a deal a quarter as likely for each card the crewmate's rule would not
play) changed little: 0-99 70 against 69 (4/3), 32 / 178 / 758 ms.

A better card evaluator (issue 33f; the planner's ``noise``, ``best_of`` and ``branch`` knobs,
measured while they were off by default, against the playouts without them; ``noise=0.1,
best_of=4`` is the default since; CPU a decision median / p95 / max).  With open hands first (``--no-why
--targets 6 --open-hands --spec SPEC``, 4 seats, paired with the open-hand planner's 157/200):
``planner:noise=0.05,best_of=3`` (in the playouts a seat with a choice plays another legal
card, uniform, with chance 0.05; a deal counts as made after a card when one of 3 playouts
makes it) attempts 0-199: 172 against 157 (19/4, p = 0.003), 43 / 132 / 774 ms: of the 29
points between open hands and the bound (186), 15 closed.  ``planner:branch=True`` (the seats
still to play in the trick try the sighted rule's card and its second choice, the best
combination counts) 0-83: 69 against 70 (1/2), stopped, 41 / 131 / 704 ms.  The mean of noisy
playouts instead of the best (``planner:noise=0.05,rollouts=3``) 0-66: 57 against 57 (1/1;
best-of-3 59 on the same attempts), stopped, 50 / 139 / 668 ms.  On the real planner
(hidden hands; ``--no-why --targets 6 --spec planner:noise=0.05,best_of=3``, paired with the
table's log): 4 seats attempts 0-199 154 against 149 (22/17), 200-399 (``--start 200``) 151
against 147 (22/18), all 400: 305 against 296 (44/35, p = 0.37), 55 / 162 / 673 ms; 5 seats
(``--seats 5``, against ``crew5_46.jsonl``) 0-151: 110 against 110 (13/13), stopped, 45 / 188 /
779 ms; 3 seats (``--seats 3``, against ``crew3_56.jsonl``) 0-199: 163 against 157 (17/11,
p = 0.35), 69 / 162 / 651 ms; the three together 74/59 (p = 0.22).  Milder,
``planner:noise=0.02,best_of=2``, 4 seats 0-199: 147 against 149 (17/19), 47 / 150 / 720 ms.
Stronger, ``planner:noise=0.1,best_of=4``, 4 seats 0-199: 160 against 149 (24/13, p = 0.10),
53 / 152 / 734 ms; 5 seats 0-199: 158 against 143 (30/15, p = 0.036), 44 / 184 / 792 ms;
the two together 54/28 (p = 0.005).  The open-hand gain carries over only in part (4 seats,
0-199, ``noise=0.05,best_of=3``: open hands 172, planner 154, so the hidden hands cost 18
points where they cost 8); more variation (``noise=0.1,best_of=4``) leaned further up and
milder (0.02, 2) not at all.  At target 5 (``--targets 5``, against the same logs): 4 seats
0-199 177 against 163 (21/7, p = 0.013), 5 seats 0-199 162 against 153 (20/11), 3 seats
0-83 76 against 68 (9/1); with target 6, 104 won that were lost and 47 lost that were won.
So it became the default, and the README's tables were run again on the same deals and bot
seeds (``bench_bots.py --game crew --alone --games 400``): 4 seats, targets 1-6, 397 / 389 /
375 / 357 / 349 / 317 of 400 against 396 / 382 / 367 / 338 / 330 / 296 (156 won that were
lost, 81 lost that were won); the gap to the bound at target 6 from 20.8 to 15.8 points;
3 seats 148 won that were lost and 56 lost that were won (targets 5 and 6: 341 and 343 against
309 and 315), 5 seats 175 and 94 (324 and 303 against 299 and 283).  The table's log is now
the baseline for paired runs.

More variation still (5 seats, target 6, the table's 400 attempts, ``--no-why --seats 5
--games 400 --spec SPEC``; the table's log was lost with the machine, so each run is compared
with the table's 303/400 unpaired, and paired with the others: won that the other lost / lost
that it won, sign test; CPU a decision median / p95 / max): A ``planner:task_samples=144`` 307
(41 / 315 / 849 ms: three times the deals a task choice brings the assignment near 1 s); B
``planner:task_samples=144,best_of=8,noise=0.15`` 317 (against A 38 / 28, p = 0.27; 46 / 323 /
956 ms); C ``planner:best_of=8,noise=0.15`` 310 (against A 53 / 50, p = 0.84; 45 / 179 / 908
ms); D ``planner:best_of=16,noise=0.2`` 319 (against A 50 / 38, p = 0.24; against C 40 / 31,
p = 0.34; 50 / 183 / 810 ms).  No pair is significant on its own; they lean the same way (more
variation, more attempts made, about the same CPU on the kernel: the playouts stop at the first
success) and D made 16 more than the table, so D is the default since, and the tables are run
again with it: the five-seat table's log is committed beside its printout
(``benchmarks/results/crew_5seats.jsonl.gz``), and ``--against`` pairs a run with it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))


def open_hands(bots: list[Any], game: Any) -> list[Any]:
    """A CHEATING DIAGNOSTIC (``--open-hands``; never a bot a player can use): each planner of
    ``bots`` replaced by the same planner (its seed and knobs) whose drawn deals are all the
    true deal of ``game``, read at every decision: everything else (its playouts, task choice,
    communication, endgame solver) unchanged.  Raises ValueError for a bot that is not a planner.

    >>> from dsa_widget.crew.bots.arena import attempt_table
    >>> game, bots = attempt_table("planner:samples=2", "planner", 3, 1, 0, 2026)
    >>> [type(b).__name__ for b in open_hands(bots, game)]
    ['OpenHandPlanner', 'OpenHandPlanner', 'OpenHandPlanner']
    """
    from dsa_widget.crew.bots.planner import PlannerBot
    from dsa_widget.crew.rules import CrewGame
    from dsa_widget.crew.view import CrewView

    class OpenHandPlanner(PlannerBot):
        """The planner drawing the true deal (the game it is handed, as it stands) every time."""

        def _draw(self, view: CrewView, count: int) -> list[CrewGame]:
            hands = [game.hand_mask(s) for s in range(game.seats)]
            return [CrewGame.from_view(view, hands, self.rng) for _ in range(count)]

    out = []
    for b in bots:
        if type(b) is not PlannerBot:
            raise ValueError(f"--open-hands needs planner bots, not {type(b).__name__}")
        out.append(OpenHandPlanner(seed=b.seed, **b.knobs))
    return out


def logged_results(
    path: str, seats: int, label: str = "planner", seed: int = 2026
) -> dict[tuple[int, int], bool]:
    """The successes a log holds for ``label``'s bots at ``seats`` seats on the benchmark's
    deals of ``seed``, by (target, attempt): a ``bench_bots.py --resume`` log (``.jsonl`` or
    ``.jsonl.gz``, such as a README table's in ``benchmarks/results/``; whatever code it ran
    on) or this script's ``--json`` lines.  ``--against`` pairs a run with it.

    >>> import json, tempfile, os
    >>> d = tempfile.mkdtemp()
    >>> p = os.path.join(d, "t.jsonl")
    >>> rec = {"match": "crew/planner=planner/4 seats/target 6/seed 2026/bound 60000", "chunk": 3,
    ...        "success": True, "bound": True, "cpu": 1.0, "sources": {}}
    >>> mine = {"target": 6, "i": 4, "success": False, "seats": 4, "label": "planner", "seed": 2026}
    >>> with open(p, "w") as f:
    ...     _ = f.write(json.dumps(rec) + "\\n" + json.dumps(mine) + "\\n")
    >>> sorted(logged_results(p, 4).items()), logged_results(p, 5)
    ([((6, 3), True), ((6, 4), False)], {})
    """
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_bots import crew_match_parts, open_log

    out: dict[tuple[int, int], bool] = {}
    runs: dict[tuple[int, int], tuple[Any, Any]] = {}  # the --json lines' run of each attempt
    with open_log(path) as f:
        for line in f:
            if not line.strip():
                continue
            rec = json.loads(line)
            if "match" in rec:
                parts = crew_match_parts(rec["match"])
                if parts is None or parts[0] != label or parts[1] != seats or parts[3] != seed:
                    continue
                out[(parts[2], int(rec["chunk"]))] = bool(rec["success"])
            elif (rec.get("seats"), rec.get("label", "planner"), rec.get("seed", 2026)) == (
                seats,
                label,
                seed,
            ):
                key = (int(rec["target"]), int(rec["i"]))
                run = (rec.get("spec"), rec.get("open_hands", False))
                if runs.setdefault(key, run) != run:
                    raise ValueError(
                        f"{path} holds attempt {key[1]} at target {key[0]} of two runs ({runs[key]} "
                        f"and {run}): pair with the lines of one run"
                    )
                out[key] = bool(rec["success"])
    return out


def paired_words(mine: dict[int, bool], theirs: dict[int, bool]) -> str:
    """How a run's successes by attempt compare with another's on the attempts both played: the
    tallies, the attempts won that the other lost and lost that it won, and the sign test.

    >>> paired_words({0: True, 1: True, 2: False}, {0: False, 1: True, 2: False, 3: True})
    '3 attempts paired: 2 against 1; 1 won that were lost, 0 lost that were won (sign test p = 1)'
    """
    from dsa_widget.core.stats import sign_test

    both = sorted(set(mine) & set(theirs))
    if not both:
        return "no attempt paired: the log has none of these (check --seats, --label and --seed)"
    won = sum(mine[i] and not theirs[i] for i in both)
    lost = sum(theirs[i] and not mine[i] for i in both)
    return (
        f"{len(both)} attempts paired: {sum(mine[i] for i in both)} against {sum(theirs[i] for i in both)}; "
        f"{won} won that were lost, {lost} lost that were won (sign test p = {sign_test(won, lost):.2g})"
    )


def run_attempt(
    spec: str,
    label: str,
    seats: int,
    target: int,
    i: int,
    seed: int,
    limit: int,
    why: bool = True,
    cheat: bool = False,
) -> dict[str, Any]:
    """One attempt of ``spec`` and, when it fails, where it was lost (see the module docstring);
    with ``cheat`` the planners see every hand (:func:`open_hands`, a diagnostic)."""
    from dsa_widget.core.bots import play_bot_move
    from dsa_widget.crew.bots.arena import attempt_table
    from dsa_widget.crew.bots.solver import solve

    game, bots = attempt_table(spec, label, seats, target, i, seed)
    if cheat:
        bots = open_hands(bots, game)
    first = None
    snaps: list[tuple[Any, int, int, str]] = []  # (game before the card, trick, seat, action)
    cpu: list[float] = []
    before = None
    while not game.is_over:
        if (
            first is None
            and game.step in ("communicate", "play")
            and not game.tricks
            and not game.current_trick
        ):
            first = game.clone()
        legal = game.legal_actions()
        if game.step == "play":
            act_seat = game.to_move
            before = game.clone()
        c0 = time.process_time()
        act = play_bot_move(game, bots[game.to_move])
        if len(legal) > 1:
            cpu.append(time.process_time() - c0)
        if before is not None and isinstance(act, str) and act.startswith("play "):
            snaps.append((before, len(before.tricks) + 1, act_seat, act))
        before = None
    out = game.outcome
    rec: dict[str, Any] = {
        "target": target,
        "i": i,
        "success": out is not None and out.result == "success",
        "cause": out.cause if out is not None else "",
        "trick": out.trick if out is not None else 0,
        "cpu": cpu,
    }
    if rec["success"] or first is None or not why:
        return rec
    bound = solve(first, node_limit=limit).winnable
    rec["bound"] = bound
    if bound is not True:
        rec["class"] = "assignment" if bound is False else "unknown at the first card"
        return rec
    # bisection: snaps[lo] is winnable before its card (lo = 0 is the first card's position),
    # the end is lost; find the first card after which the mission is lost
    lo, hi = 0, len(snaps)
    unknown = False
    while hi - lo > 1:
        mid = (lo + hi) // 2
        w = solve(snaps[mid][0], node_limit=limit).winnable
        if w is None:
            unknown = True
            w = True  # count it as still winnable: the blame may land late
        if w:
            lo = mid
        else:
            hi = mid
    g, trick, seat, act = snaps[lo]
    failed = rec["cause"].split()[1] if rec["cause"].startswith("task ") else None
    owner = next((t.owner for t in g.tasks if str(t.id) == failed), None)
    left = g.tricks_total - trick + 1
    rec.update(
        {
            "class": "play",
            "lost_trick": trick,
            "lost_left": left,
            "lost_seat": seat,
            "lost_card": act,
            "lost_by_owner": owner == seat if owner is not None else None,
            "bisect_unknown": unknown,
        }
    )
    return rec


def main() -> None:
    from dsa_widget.core.stats import wilson

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--spec", default="planner")
    ap.add_argument("--label", default="planner", help="the bots' seeds are derived from this name")
    ap.add_argument("--seats", type=int, default=4)
    ap.add_argument("--targets", default="6")
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--start", type=int, default=0, help="first attempt index")
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--node-limit", type=int, default=60_000)
    ap.add_argument("--no-why", action="store_true", help="only the successes and the CPU (faster)")
    ap.add_argument("--json", help="append one JSON line an attempt to this file")
    ap.add_argument(
        "--against",
        help="pair the run with a log: a bench_bots.py --resume log (.jsonl or .jsonl.gz, e.g. a "
        "README table's in benchmarks/results/) or another run's --json lines",
    )
    ap.add_argument(
        "--open-hands",
        action="store_true",
        help="CHEATING DIAGNOSTIC: every planner's drawn deals are the true deal (it sees every "
        "hand); what the planner loses to hidden information (see the docstring)",
    )
    args = ap.parse_args()
    base = logged_results(args.against, args.seats, args.label, args.seed) if args.against else {}
    for target in (int(x) for x in args.targets.split(",")):
        recs = []
        c0 = time.process_time()
        for i in range(args.start, args.start + args.games):
            r = run_attempt(
                args.spec,
                args.label,
                args.seats,
                target,
                i,
                args.seed,
                args.node_limit,
                not args.no_why,
                args.open_hands,
            )
            recs.append(r)
            if args.json:
                with open(args.json, "a") as f:
                    f.write(
                        json.dumps(
                            dict(
                                r,
                                spec=args.spec,
                                seats=args.seats,
                                label=args.label,
                                seed=args.seed,
                                open_hands=args.open_hands,
                                cpu=sum(r["cpu"]),
                                cpu_ms=[round(1000 * c, 1) for c in r["cpu"]],
                            )
                        )
                        + "\n"
                    )
            print(f"\r  target {target}: {len(recs)}/{args.games}", end="", file=sys.stderr, flush=True)
        print(file=sys.stderr)
        ok = sum(r["success"] for r in recs)
        lo, hi = wilson(ok, len(recs))
        cpu = sorted(c for r in recs for c in r["cpu"])
        med, p95, top = (1000 * cpu[int(q * (len(cpu) - 1))] for q in (0.5, 0.95, 1.0)) if cpu else (0, 0, 0)
        print(
            f"{'OPEN HANDS (cheating) ' if args.open_hands else ''}"
            f"{args.spec} {args.seats} seats target {target}: {ok}/{len(recs)} ({lo:.0%}-{hi:.0%}); "
            f"CPU a decision ms median {med:.0f}, p95 {p95:.0f}, max {top:.0f}; "
            f"{time.process_time() - c0:.0f} s CPU"
        )
        if args.against:
            theirs = {i: ok for (t, i), ok in base.items() if t == target}
            mine = {r["i"]: r["success"] for r in recs}
            print(f"  against {args.against}: {paired_words(mine, theirs)}")
        fails = [r for r in recs if not r["success"]]
        classes = Counter(r.get("class", "?") for r in fails)
        print("  failures:", dict(classes))
        play = [r for r in fails if r.get("class") == "play"]
        if play:
            print("  lost with tricks left:", dict(sorted(Counter(r["lost_left"] for r in play).items())))
            print("  lost by the failed task's owner:", dict(Counter(str(r["lost_by_owner"]) for r in play)))
            print(
                "  lost at the card before the trick that failed:",
                sum(r["lost_trick"] == r["trick"] for r in play),
            )


if __name__ == "__main__":
    main()
