"""Speed of The Crew's exact chances and deal sampling: python benchmarks/bench_crew_chances.py

Targets (docs/CREW_ENGINE.md, analysis/ and bots/):

* holding_chances, void_chances  < 50 ms for any 3/4/5-seat knowledge of a player
* sample_deal                    well under 1 ms per deal mid-game (4 seats), a few ms for the
                                 first deal from a new knowledge (its tables are built then)

Knowledges (made up from random deals, no rules engine needed): the worst cases, the start of
a deal from a player's seat with voids and one or two *currents* alternatives (3 seats: 27
unknown cards, 2 other seats; 5 seats: 32 unknown cards, 4 other seats), and mid-game
knowledges (some tricks played, revealed voids, sometimes a currents alternative).  A
spectator's view (every hand hidden) is timed too, but it is not a target: the lab shows a
player's chances.  Times are CPU times (``time.process_time``), the best of ``--repeat`` runs
per knowledge, then the median and the maximum over the knowledges; the last line is JSON.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from dsa_widget.crew.analysis import chance, holding_chances, void_chances
from dsa_widget.crew.cards import DECK, SUIT_MASK, bits
from dsa_widget.crew.knowledge import Knowledge, _sampler, count_deals, sample_deal

SIZES = {3: [13, 14, 13], 4: [10] * 4, 5: [8] * 5}


def _currents(seat: int, shown: int, pool: int) -> tuple[int, tuple[int, int]]:
    sm = SUIT_MASK[DECK[shown][0]]
    below = sum(1 << x for x in range(shown) if sm >> x & 1) & pool
    above = sum(1 << x for x in range(shown + 1, 40) if sm >> x & 1) & pool
    return (seat, (below, above))


def knowledge(
    seats: int,
    rng: random.Random,
    *,
    played: int = 0,
    currents: int = 1,
    voids: int = 1,
    spectator: bool = False,
) -> Knowledge:
    """Seat 0's knowledge (or a spectator's) after ``played`` cards left every hand, with up to
    ``voids`` true voids revealed per other seat and ``currents`` seats having shown a card."""
    deck = list(range(40))
    rng.shuffle(deck)
    hands, pos = [], 0
    for z in SIZES[seats]:
        hand = deck[pos : pos + z]
        pos += z
        rng.shuffle(hand)
        hands.append(sum(1 << c for c in hand[played:]))
    viewer = None if spectator else 0
    known = [0] * seats
    if viewer is not None:
        known[0] = hands[0]
    showing = [s for s in range(seats) if s != viewer][:currents]
    for s in showing:
        coloured = [c for c in bits(hands[s]) if DECK[c][0] != "S"]
        if coloured:
            known[s] |= 1 << rng.choice(coloured)
    pool = sum(hands) & ~sum(known)
    slots = tuple(0 if s == viewer else bin(hands[s] & pool).count("1") for s in range(seats))
    allowed = [pool if slots[s] else 0 for s in range(seats)]
    for s in range(seats):
        if s == viewer:
            continue
        missing = [x for x in "PYBGS" if not hands[s] & SUIT_MASK[x]]
        for x in rng.sample(missing, min(voids, len(missing))):
            allowed[s] &= ~SUIT_MASK[x]
    alts = tuple(_currents(s, bits(known[s])[0], pool) for s in showing if known[s])
    return Knowledge(seats, viewer, pool, slots, tuple(known), tuple(allowed), alts)


def best_ms(f: Callable[[], Any], repeat: int) -> float:
    best = float("inf")
    for _ in range(repeat):
        t = time.process_time()
        f()
        best = min(best, time.process_time() - t)
    return 1000 * best


def run(name: str, ks: list[Knowledge], repeat: int, draws: int) -> dict[str, Any]:
    rows: dict[str, list[float]] = {
        "holding_chances": [],
        "void_chances": [],
        "chance": [],
        "count_deals": [],
    }
    rows["sample_first"] = []
    rows["sample_next"] = []
    for k in ks:
        others = [s for s in range(k.seats) if s != k.viewer]
        rows["count_deals"].append(best_ms(partial(count_deals, k), repeat))
        rows["holding_chances"].append(best_ms(partial(holding_chances, k), repeat))
        rows["void_chances"].append(best_ms(partial(void_chances, k), repeat))
        rows["chance"].append(best_ms(partial(chance, k, others, ["S3", "S4"]), repeat))

        def first(k: Knowledge = k) -> None:
            _sampler.cache_clear()
            sample_deal(k, random.Random(0))

        rows["sample_first"].append(best_ms(first, repeat))

        def more(k: Knowledge = k) -> None:
            rng = random.Random(1)
            for _ in range(draws):
                sample_deal(k, rng)

        rows["sample_next"].append(best_ms(more, 1) / draws)
    pools = [bin(k.pool).count("1") for k in ks]
    out: dict[str, Any] = {"knowledges": len(ks), "unknown_cards": [min(pools), max(pools)]}
    print(f"\n{name}: {len(ks)} knowledges, {min(pools)}-{max(pools)} unknown cards")
    for key, vals in rows.items():
        med, top = statistics.median(vals), max(vals)
        out[key] = {"median_ms": round(med, 3), "max_ms": round(top, 3)}
        print(f"  {key:16s} median {med:8.3f} ms   max {top:8.3f} ms")
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--count", type=int, default=12, help="knowledges per set")
    ap.add_argument("--repeat", type=int, default=3, help="runs per knowledge (the best is kept)")
    ap.add_argument("--draws", type=int, default=200, help="deals drawn to time sample_deal after the first")
    ap.add_argument(
        "--no-spectator", action="store_true", help="skip the (slow, not a target) spectator sets"
    )
    args = ap.parse_args()
    rng = random.Random(2026)
    n = args.count
    sets: dict[str, list[Knowledge]] = {
        "3 seats, start, voids (27 unknown, 2 other seats)": [
            knowledge(3, rng, currents=0) for _ in range(n)
        ],
        "3 seats, start, voids + 1 currents": [knowledge(3, rng) for _ in range(n)],
        "4 seats, start, voids + 1 currents": [knowledge(4, rng) for _ in range(n)],
        "5 seats, start, voids (32 unknown, 4 other seats)": [
            knowledge(5, rng, currents=0, voids=2) for _ in range(n)
        ],
        "5 seats, start, voids + 1 currents": [knowledge(5, rng) for _ in range(n)],
        "5 seats, start, 2 voids each + 2 currents": [
            knowledge(5, rng, voids=2, currents=2) for _ in range(n)
        ],
        "4 seats, mid-game (3-6 tricks), voids": [
            knowledge(4, rng, played=rng.randint(3, 6), voids=2, currents=rng.randint(0, 1)) for _ in range(n)
        ],
        "5 seats, mid-game (2-5 tricks), voids": [
            knowledge(5, rng, played=rng.randint(2, 5), voids=2, currents=rng.randint(0, 2)) for _ in range(n)
        ],
    }
    if not args.no_spectator:
        sets["spectator, 4 seats, start, voids + 1 currents"] = [
            knowledge(4, rng, spectator=True) for _ in range(max(3, n // 3))
        ]
        sets["spectator, 5 seats, start, voids + 2 currents"] = [
            knowledge(5, rng, spectator=True, currents=2) for _ in range(max(3, n // 3))
        ]
    # the start of a deal as it really is: no voids, no communication yet
    sets["5 seats, start, nothing revealed"] = [knowledge(5, rng, voids=0, currents=0) for _ in range(n)]
    for ks in sets.values():  # warm the per-shape caches (masks, dot indexes) once
        for k in ks[:1]:
            holding_chances(k)
            void_chances(k)
    results = {name: run(name, ks, args.repeat, args.draws) for name, ks in sets.items()}
    print(json.dumps({"benchmark": "crew_chances", "unit": "ms (CPU)", "sets": results}))


if __name__ == "__main__":
    main()
