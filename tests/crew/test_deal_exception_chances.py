"""The exact chances know R-6.10: "after the deal and the draw, and again after every redeal,
the engine MUST check the table below over every hand ... If any row applies to a drawn task,
redeal the playing cards".  A hand the engine redeals is never a hand in play, so the chances
count only the deals that pass the table.

Checked three ways: against brute force on small knowledges with forbidden sets (every
assignment of the pool enumerated); against the conditional probability worked out by hand
for task 30; and against the engine itself: the frequencies of its real deals (``CrewGame``
from many seeds, shuffle and redeal-until-valid included), among the deals that show the
viewer the same public facts, with a 99.9% Wilson interval.  The last check does not use the
model's sampler, so it is not circular: it would fail if the chances ignored the redeals.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import replace
from fractions import Fraction
from math import comb

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget.core.stats import wilson
from dsa_widget.crew.analysis import chance, holding_chances
from dsa_widget.crew.cards import bits, mask_of
from dsa_widget.crew.knowledge import Knowledge, count_deals
from dsa_widget.crew.rules import CrewGame

from .test_knowledge import brute_deals, check_against_brute, random_knowledge

Z999 = 3.29  # the 99.9% two-sided normal quantile


def with_forbids(k: Knowledge, rng: random.Random) -> Knowledge:
    """``k`` with one to three random forbidden sets (non-empty sets of pool cards)."""
    pool = bits(k.pool)
    if not pool:
        return k
    fb = []
    for _ in range(rng.randint(1, 3)):
        m = sum(1 << c for c in rng.sample(pool, rng.randint(1, min(4, len(pool)))))
        fb.append((rng.randrange(k.seats), m))
    return replace(k, forbids=tuple(fb))


def test_forbidden_sets_match_brute_force() -> None:
    rng = random.Random(6_10)
    consistent = 0
    for _ in range(300):
        k = with_forbids(random_knowledge(rng), rng)
        check_against_brute(k, rng)
        consistent += count_deals(k) > 0
    assert consistent > 100


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(0, 2**32 - 1))
def test_property_forbidden_sets_remove_exactly_the_deals_holding_them(seed: int) -> None:
    rng = random.Random(seed)
    k = with_forbids(random_knowledge(rng, max_pool=6), rng)
    plain = brute_deals(replace(k, forbids=()))
    kept = [d for d in plain if not any(d[s] & m == m for s, m in k.forbids)]
    assert count_deals(k) == len(kept)


def test_a_malformed_forbidden_set_is_a_value_error() -> None:
    pool = mask_of(["P1", "P2", "P3"])
    base = Knowledge(3, 0, pool, (0, 1, 2), (0, 0, 0), (0, pool, pool))
    for bad in (((1, 0),), ((5, pool),), ((1, mask_of(["G9"])),), ((1,),)):
        with pytest.raises(ValueError):
            count_deals(replace(base, forbids=bad))  # type: ignore[arg-type]


def test_task_30_worked_by_hand() -> None:
    """Task 30 ("exactly one submarine"): no hand holds S1-S4.  Ann (seat 0) holds no
    submarine; the captain holds S4 and 9 cards Ann cannot see, among 29.  The captain holds
    S1 with chance 9/29 over all deals, and S1, S2 and S3 together with chance
    C(26, 6) / C(29, 9); the engine redeals the second kind, so the chance is
    (9/29 - that) / (1 - that)."""
    g = next(
        g
        for g in (CrewGame(4, seed=s, tasks=[30]) for s in range(100))
        if not any(c[0] == "S" for c in g.dealt[0])
    )
    k = g.view(0).knowledge()
    assert k.slots[g.captain] == 9 and sum(k.slots) == 29
    all_three = Fraction(comb(26, 6), comb(29, 9))
    expect = (Fraction(9, 29) - all_three) / (1 - all_three)
    assert chance(k, g.captain, "S1") == expect
    assert expect == Fraction(5, 17)  # the figure the issue quotes
    # without the rule it would be the plain count of places, which the engine never deals
    assert chance(replace(k, forbids=()), g.captain, "S1") == Fraction(9, 29)


@pytest.mark.parametrize(
    ("players", "task", "target", "seeds", "separates"),
    [
        (4, 31, "S2", 6000, True),  # no hand holds S2, S3 and S4: the captain rarely S2 and S3
        (3, 31, "S3", 8000, True),
        (4, 33, "S2", 4000, False),  # S1 never with the captain (S1 and S4 in one hand)
        (5, 32, "S1", 1500, False),
    ],
)
def test_chances_match_the_engines_real_deals(
    players: int, task: int, target: str, seeds: int, separates: bool
) -> None:
    """Among the engine's deals in which seat 0 holds no submarine (its public facts at the
    start: its own hand, the captain, the task), how often the captain holds ``target``,
    against the chance the library gives seat 0, per figure (the captain's hand size may
    differ with three players)."""
    hits: dict[Fraction, list[int]] = defaultdict(lambda: [0, 0])
    old: dict[Fraction, Fraction] = {}
    for seed in range(seeds):
        g = CrewGame(players, seed=seed, tasks=[task])
        if any(c[0] == "S" for c in g.dealt[0]):
            continue
        k = g.view(0).knowledge()
        f = chance(k, g.captain, target)
        old[f] = chance(replace(k, forbids=()), g.captain, target)
        h = hits[f]
        h[0] += target in g.dealt[g.captain]
        h[1] += 1
    for f, (h, n) in hits.items():
        lo, hi = wilson(h, n, z=Z999)
        assert n >= 300
        assert lo <= f <= hi, (f, h, n, lo, hi)
        if separates:  # the plain count (no redeals) is refuted by the same deals
            assert not lo <= old[f] <= hi, (old[f], h, n, lo, hi)


def test_the_chances_follow_the_cards_played() -> None:
    """Once a card of a forbidden set is played or shown by another seat, that set no longer
    constrains anyone; what is left of a set is in the pool, and the rest of it is the seat's
    (played or known).  At every step of a whole game the knowledge stays consistent."""
    g = CrewGame(4, seed=0, tasks=[31], assignment={31: 1})
    s234 = mask_of(["S2", "S3", "S4"])
    assert g.view(0).knowledge().forbids == ((g.captain, s234 & ~mask_of(["S4"])),)
    seen_fewer = False
    while not g.is_over:
        k = g.view(0).knowledge()
        for s, m in k.forbids:
            assert m & ~k.pool == 0 and m & ~s234 == 0
            assert (s234 & ~m) & ~(g.played_by[s] | k.known[s]) == 0
        seen_fewer |= not k.forbids
        if k.pool:
            assert count_deals(k) > 0 and holding_chances(k)
        g.apply(g.legal_actions()[0])
    assert seen_fewer  # once the captain's S4 or one of S2, S3 is out of the pool elsewhere
