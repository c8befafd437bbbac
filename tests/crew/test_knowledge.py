"""Counting, sampling and exact holding chances from a :class:`Knowledge` (CREW.md section 15).

Every figure is checked against brute force: on small knowledges, every assignment of the pool
cards to the seats is enumerated with itertools and the consistent ones counted.  Sampling is
checked for exact uniformity on small instances (every consistent deal drawn, frequencies
within a generous binomial bound, deterministic with the fixed seed).  No timing assertions:
``benchmarks/bench_crew_chances.py`` measures speed.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from dataclasses import replace
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget.crew.analysis import chance, holding_chances, holding_distribution, void_chances
from dsa_widget.crew.cards import ALL, DECK, SUIT_MASK, SUITS, bits, card, mask_of
from dsa_widget.crew.errors import CrewError
from dsa_widget.crew.knowledge import InconsistentKnowledge, Knowledge, count_deals, sample_deal

# --------------------------------------------------------------------------------------------
# brute force
# --------------------------------------------------------------------------------------------


def brute_deals(k: Knowledge) -> list[tuple[int, ...]]:
    """Every consistent deal (per seat, the mask of pool cards), by enumerating all assignments."""
    cards = bits(k.pool)
    out = []
    for assign in itertools.product(range(k.seats), repeat=len(cards)):
        hands = [0] * k.seats
        if any(not k.allowed[s] >> c & 1 for c, s in zip(cards, assign, strict=True)):
            continue
        for c, s in zip(cards, assign, strict=True):
            hands[s] |= 1 << c
        if any(bin(hands[s]).count("1") != k.slots[s] for s in range(k.seats)):
            continue
        if any(all(hands[s] & m for m in masks) for s, masks in k.alternatives):
            continue
        if any(not hands[s] & m for s, m in getattr(k, "requires", ())):
            continue
        if any(hands[s] & m == m for s, m in getattr(k, "forbids", ())):
            continue
        out.append(tuple(hands))
    return out


def brute_holding(k: Knowledge, deals: list[tuple[int, ...]]) -> dict[str, list[Fraction]]:
    out = {}
    for c in range(40):
        if k.pool >> c & 1:
            out[DECK[c]] = [
                Fraction(sum(1 for d in deals if d[s] >> c & 1), len(deals)) for s in range(k.seats)
            ]
        for s, m in enumerate(k.known):
            if m >> c & 1:
                out[DECK[c]] = [Fraction(int(t == s)) for t in range(k.seats)]
    return out


def brute_void(k: Knowledge, deals: list[tuple[int, ...]]) -> list[dict[str, Fraction]]:
    return [
        {
            x: Fraction(sum(1 for d in deals if not (d[s] | k.known[s]) & SUIT_MASK[x]), len(deals))
            for x in SUITS
        }
        for s in range(k.seats)
    ]


def brute_distribution(k: Knowledge, deals: list[tuple[int, ...]], group: list[int], cm: int) -> Counter[int]:
    return Counter(sum(bin((d[s] | k.known[s]) & cm).count("1") for s in group) for d in deals)


def check_against_brute(k: Knowledge, rng: random.Random) -> None:
    deals = brute_deals(k)
    assert count_deals(k) == len(deals)
    if not deals:
        with pytest.raises(InconsistentKnowledge):
            sample_deal(k, rng)
        with pytest.raises(InconsistentKnowledge):
            holding_chances(k)
        with pytest.raises(InconsistentKnowledge):
            void_chances(k)
        return
    assert sample_deal(k, rng) in deals
    assert holding_chances(k) == brute_holding(k, deals)
    assert void_chances(k) == brute_void(k, deals)
    group = sorted(rng.sample(range(k.seats), rng.randint(1, k.seats)))
    unplayed = k.pool | sum(k.known)
    cm = sum(1 << c for c in range(40) if unplayed >> c & 1 and rng.random() < 0.5)
    dist = holding_distribution(k, group, bits(cm))
    counts = brute_distribution(k, deals, group, cm)
    assert len(dist) == max(counts) + 1
    assert dist == [Fraction(counts[j], len(deals)) for j in range(len(dist))]
    for at_least in range(len(dist) + 1):
        assert chance(k, group, bits(cm), at_least=at_least) == sum(dist[at_least:], Fraction(0))


def random_knowledge(rng: random.Random, max_pool: int = 7, max_seats: int = 4) -> Knowledge:
    """A small random knowledge: often consistent, sometimes not (slots that do not add up,
    cards nobody may hold, alternatives that cannot all hold)."""
    n = rng.randint(1, max_seats)
    npool = rng.randint(0, max_pool)
    cards = rng.sample(range(40), npool + 4)
    pool_cards = cards[:npool]
    pool = sum(1 << c for c in pool_cards)
    slots = [0] * n
    for _ in range(npool):
        slots[rng.randrange(n)] += 1
    if rng.random() < 0.05:
        slots[rng.randrange(n)] += 1
    viewer = rng.choice([None, *range(n)])
    known = [0] * n
    for c in cards[npool:]:
        if rng.random() < 0.6:
            known[rng.randrange(n)] |= 1 << c
    allowed = []
    for _ in range(n):
        a = sum(1 << c for c in pool_cards if rng.random() < 0.8)
        if rng.random() < 0.2:
            a |= rng.getrandbits(40)  # bits outside the pool are ignored
        allowed.append(a)
    alts = []
    for _ in range(rng.choice([0, 0, 1, 1, 2, 3])):
        masks = tuple(sum(1 << c for c in cards if rng.random() < 0.35) for _ in range(rng.randint(1, 3)))
        alts.append((rng.randrange(n), masks))
    return Knowledge(n, viewer, pool, tuple(slots), tuple(known), tuple(allowed), tuple(alts))


# --------------------------------------------------------------------------------------------
# examples
# --------------------------------------------------------------------------------------------


def ids(*cs: str) -> int:
    return mask_of(cs)


def currents(seat: int, shown: str, pool: int) -> tuple[int, tuple[int, int]]:
    """The alternative a communication under currents gives (R-11.9): the seat's other cards of
    the colour are all below the shown card, or all above."""
    c = card(shown)
    sm = SUIT_MASK[shown[0]]
    below = sum(1 << x for x in range(c) if sm >> x & 1) & pool
    above = sum(1 << x for x in range(c + 1, 40) if sm >> x & 1) & pool
    return (seat, (below, above))


def test_simple_counts() -> None:
    pool = ids("P1", "P2", "P3", "P4")
    k = Knowledge(3, 0, pool, (0, 2, 2), (ids("S4"), 0, 0), (0, pool, pool))
    assert count_deals(k) == 6
    hc = holding_chances(k)
    assert hc["P1"] == [0, Fraction(1, 2), Fraction(1, 2)]
    assert hc["S4"] == [1, 0, 0]
    assert list(hc) == ["P1", "P2", "P3", "P4", "S4"]  # deck order, played cards absent
    # seat 1 cannot hold P1: seat 2 has it
    k2 = Knowledge(3, 0, pool, (0, 2, 2), (0, 0, 0), (0, pool & ~ids("P1"), pool))
    assert count_deals(k2) == 3
    assert holding_chances(k2)["P1"] == [0, 0, 1]
    assert holding_chances(k2)["P2"] == [0, Fraction(2, 3), Fraction(1, 3)]


def test_empty_pool() -> None:
    k = Knowledge(3, 0, 0, (0, 0, 0), (ids("P1"), ids("P2"), 0), (0, 0, 0))
    assert count_deals(k) == 1
    assert sample_deal(k, random.Random(1)) == (0, 0, 0)
    assert holding_chances(k) == {"P1": [1, 0, 0], "P2": [0, 1, 0]}
    assert void_chances(k)[2] == dict.fromkeys(SUITS, Fraction(1))
    assert void_chances(k)[0]["P"] == 0
    assert holding_distribution(k, 0, ["P1", "P2"]) == [0, 1]


def test_currents_alternative_excludes_the_middle() -> None:
    # seat 1 showed B5 under currents and holds two more blues: both below or both above
    pool = ids("B2", "B3", "B7", "B8")
    alt = currents(1, "B5", pool)
    k = Knowledge(3, 0, pool, (0, 2, 2), (ids("P9"), ids("B5"), 0), (0, pool, pool), (alt,))
    deals = brute_deals(k)
    assert count_deals(k) == len(deals) == 2
    assert holding_chances(k)["B2"] == [0, Fraction(1, 2), Fraction(1, 2)]
    assert chance(k, 1, ["B2", "B3"], at_least=2) == Fraction(1, 2)
    assert chance(k, 1, ["B2", "B7"], at_least=2) == 0


def test_void_chances_know_shown_cards() -> None:
    pool = ids("P7", "P8", "S3")
    k = Knowledge(3, 0, pool, (0, 1, 2), (ids("S4"), ids("Y1"), 0), (0, pool, pool))
    v = void_chances(k)
    assert v[0]["S"] == 0 and v[0]["P"] == 1
    assert v[1]["Y"] == 0 and v[1]["S"] == Fraction(2, 3) and v[1]["B"] == 1
    assert v[2]["P"] == 0  # two slots, only one card that is not pink


def test_teaching_helpers() -> None:
    # the chance somebody other than me holds a submarine higher than my S2
    pool = ids("S3", "S4", "P1", "P2", "P3", "P4")
    k = Knowledge(4, 0, pool, (0, 2, 2, 2), (ids("S2", "G9"), 0, 0, 0), (0, pool, pool, pool))
    assert chance(k, [1, 2, 3], ["S3", "S4"]) == 1
    assert chance(k, 1, "S4") == Fraction(1, 3)
    assert chance(k, 1, ["S3", "S4"], at_least=2) == Fraction(1, 15)
    assert chance(k, 0, "S2") == 1
    assert chance(k, [0, 1], ["S2", "S3"], at_least=0) == 1
    with pytest.raises(ValueError):
        chance(k, 4, "S3")
    with pytest.raises(ValueError):
        chance(k, 1, "S3", at_least=-1)
    with pytest.raises(ValueError):
        chance(k, 1, "X3")


def test_inconsistent_knowledge_raises() -> None:
    pool = ids("P1", "P2", "P3")
    bad = [
        Knowledge(3, 0, pool, (0, 1, 1), (0, 0, 0), (0, pool, pool)),  # slots do not add up
        Knowledge(3, 0, pool, (0, 1, 2), (0, 0, 0), (0, ids("P2"), ids("P2", "P3"))),  # P1 nowhere
        Knowledge(3, 0, pool, (0, 1, 2), (0, 0, 0), (0, ids("P1"), ids("P1"))),  # seat 2 cannot fill
        # seat 2 holds two of P1 P2 P3, so it cannot avoid {P1, P2} nor {P2, P3}
        Knowledge(
            3, 0, pool, (0, 1, 2), (0, 0, 0), (0, pool, pool), ((2, (ids("P1", "P2"), ids("P2", "P3"))),)
        ),
    ]
    for k in bad:
        assert count_deals(k) == 0
        for f in (holding_chances, void_chances):
            with pytest.raises(InconsistentKnowledge):
                f(k)
        with pytest.raises(InconsistentKnowledge) as info:
            sample_deal(k, random.Random(0))
        assert isinstance(info.value, CrewError) and isinstance(info.value, ValueError)
        with pytest.raises(InconsistentKnowledge):
            holding_distribution(k, 1, "P1")


def test_malformed_knowledge_is_a_value_error() -> None:
    pool = ids("P1")
    bad = [
        Knowledge(3, 0, pool, (0, 1), (0, 0, 0), (0, pool, pool)),
        Knowledge(3, 5, pool, (0, 1, 0), (0, 0, 0), (0, pool, pool)),
        Knowledge(3, 0, pool, (0, 1, 0), (pool, 0, 0), (0, pool, pool)),  # known and in the pool
        Knowledge(3, 0, pool, (0, -1, 2), (0, 0, 0), (0, pool, pool)),
        Knowledge(3, 0, 1 << 40, (0, 1, 0), (0, 0, 0), (0, pool, pool)),
        Knowledge(3, 0, pool, (0, 1, 0), (0, 0, 0), (0, pool, pool), ((7, (pool,)),)),
        Knowledge(3, 0, pool, (0, 1, 0), (0, 0, 0), (0, pool, pool), ((1, ()),)),
    ]
    for k in bad:
        for f in (count_deals, holding_chances, void_chances):
            with pytest.raises(ValueError):
                f(k)
        with pytest.raises(ValueError):
            sample_deal(k, random.Random(0))


def test_random_small_knowledges_match_brute_force() -> None:
    rng = random.Random(20261201)
    consistent = 0
    for _ in range(400):
        k = random_knowledge(rng)
        check_against_brute(k, rng)
        consistent += count_deals(k) > 0
    assert consistent > 150  # the generator makes both kinds


def test_requirements_match_brute_force() -> None:
    rng = random.Random(77)
    for _ in range(250):
        k = random_knowledge(rng)
        req = tuple(
            (rng.randrange(k.seats), sum(1 << c for c in bits(k.pool) if rng.random() < 0.4))
            for _ in range(rng.randint(1, 2))
        )
        check_against_brute(replace(k, requires=req), rng)
    pool = ids("P1", "P2", "P3")
    k2 = Knowledge(3, 0, pool, (0, 1, 2), (0, 0, 0), (0, pool, pool), requires=((1, ids("P1")),))
    assert count_deals(k2) == 1 and holding_chances(k2)["P1"] == [0, 1, 0]
    with pytest.raises(ValueError):
        count_deals(Knowledge(3, 0, pool, (0, 1, 2), (0, 0, 0), (0, pool, pool), requires=((9, 1),)))


def test_five_seats_with_currents_match_brute_force() -> None:
    pool = ids("B1", "B2", "B3", "B7", "B8", "G2", "G6", "S1")
    alts = (currents(1, "B5", pool), currents(2, "G4", pool))
    allowed = (0, pool & ~SUIT_MASK["S"], pool, pool & ~SUIT_MASK["G"], pool)
    k = Knowledge(5, 0, pool, (0, 2, 2, 2, 2), (ids("P9"), ids("B5"), ids("G4"), 0, 0), allowed, alts)
    check_against_brute(k, random.Random(3))


# --------------------------------------------------------------------------------------------
# uniform sampling
# --------------------------------------------------------------------------------------------


def assert_uniform(k: Knowledge, draws: int, seed: int) -> None:
    deals = brute_deals(k)
    rng = random.Random(seed)
    freq = Counter(sample_deal(k, rng) for _ in range(draws))
    assert set(freq) == set(deals)  # every consistent deal appears, no other
    p = 1 / len(deals)
    sd = (draws * p * (1 - p)) ** 0.5
    for d in deals:
        assert abs(freq[d] - draws * p) < 6 * sd, (d, freq[d], draws * p)


def test_sample_deal_is_uniform_with_an_alternative() -> None:
    # 3 seats, 6 pool cards; seat 2 void in pink; seat 1 showed B5 under currents
    pool = ids("P1", "P2", "B2", "B7", "B8", "S1")
    alt = currents(1, "B5", pool)
    allowed = (0, pool, pool & ~SUIT_MASK["P"])
    k = Knowledge(3, 0, pool, (0, 3, 3), (ids("S4"), ids("B5"), 0), allowed, (alt,))
    assert count_deals(k) == len(brute_deals(k)) == 4
    assert_uniform(k, 4_000, seed=0)
    # 4 seats: seat 1 holds three of six, seat 2 (void in pink) two, seat 3 one
    pool = ids("P1", "B2", "B3", "B7", "B8", "S1")
    alt = currents(1, "B5", pool)
    allowed4 = (0, pool, pool & ~SUIT_MASK["P"], pool)
    k = Knowledge(4, 0, pool, (0, 3, 2, 1), (ids("S4"), ids("B5"), 0, 0), allowed4, (alt,))
    assert count_deals(k) == 20
    assert_uniform(k, 20_000, seed=1)


def test_sample_deal_is_uniform_without_alternatives() -> None:
    pool = ids("P1", "P2", "Y3", "Y4", "S1", "S2")
    allowed = (pool & ~SUIT_MASK["Y"], pool, pool & ~SUIT_MASK["S"], 0)
    k = Knowledge(4, 3, pool, (2, 2, 2, 0), (0, 0, 0, ids("G1")), allowed)
    assert 10 <= count_deals(k) <= 60
    assert_uniform(k, 20_000, seed=2)


def test_sample_deal_is_deterministic_and_uses_only_rng() -> None:
    pool = ALL & ~ids("S4")
    k = Knowledge(3, None, pool, (13, 13, 13), (ids("S4"), 0, 0), (pool, pool, pool))
    a = [sample_deal(k, random.Random(5)) for _ in range(3)]
    assert a[0] == a[1] == a[2]
    assert sample_deal(k, random.Random(6)) != a[0]
    assert [bin(m).count("1") for m in a[0]] == [13, 13, 13]
    assert a[0][0] | a[0][1] | a[0][2] == pool


# --------------------------------------------------------------------------------------------
# bigger knowledges: the chances against restricted counts (no enumeration possible)
# --------------------------------------------------------------------------------------------


def start_of_deal(seats: int, seed: int) -> Knowledge:
    """The start of a deal from seat 0's view, with made-up voids and currents alternatives."""
    rng = random.Random(seed)
    deck = list(range(40))
    rng.shuffle(deck)
    sizes = {3: [13, 14, 13], 4: [10] * 4, 5: [8] * 5}[seats]
    hands, pos = [], 0
    for z in sizes:
        hands.append(sum(1 << c for c in deck[pos : pos + z]))
        pos += z
    known = [hands[0]] + [0] * (seats - 1)
    alts = []
    for s in range(1, min(seats, 3)):  # seats 1 and 2 each show a coloured card under currents
        shown = next(c for c in bits(hands[s]) if DECK[c][0] != "S")
        known[s] = 1 << shown
    pool = ALL & ~sum(known)
    for s in range(1, min(seats, 3)):
        alts.append(currents(s, DECK[bits(known[s])[0]], pool))
    slots = tuple(0 if s == 0 else bin(hands[s] & pool).count("1") for s in range(seats))
    allowed = [0] + [pool] * (seats - 1)
    for s in range(1, seats):  # a void the hand really has
        for x in "PYBGS":
            if not hands[s] & SUIT_MASK[x]:
                allowed[s] &= ~SUIT_MASK[x]
                break
    return Knowledge(seats, 0, pool, slots, tuple(known), tuple(allowed), tuple(alts))


@pytest.mark.parametrize(("seats", "seed"), [(3, 1), (4, 2), (5, 3), (5, 4)])
def test_start_of_deal_chances_agree_with_restricted_counts(seats: int, seed: int) -> None:
    k = start_of_deal(seats, seed)
    total = count_deals(k)
    assert total > 0
    hc = holding_chances(k)
    for cid, per in hc.items():
        assert sum(per) == 1, cid
    for s in range(seats):
        assert sum(per[s] for per in hc.values()) == k.slots[s] + bin(k.known[s]).count("1")
    rng = random.Random(seed)
    for c in rng.sample(bits(k.pool), 4):
        s = rng.randrange(1, seats)
        forced = tuple(a if t == s else a & ~(1 << c) for t, a in enumerate(k.allowed))
        assert hc[DECK[c]][s] == Fraction(count_deals(replace(k, allowed=forced)), total)
    vc = void_chances(k)
    for s in range(1, seats):
        for x in SUITS:
            restricted = tuple(a & ~SUIT_MASK[x] if t == s else a for t, a in enumerate(k.allowed))
            n = count_deals(replace(k, allowed=restricted))
            expect = 0 if k.known[s] & SUIT_MASK[x] else Fraction(n, total)
            assert vc[s][x] == expect, (s, x)
    dist = holding_distribution(k, [1, 2], bits(SUIT_MASK["S"]))
    assert sum(dist) == 1
    # the expected number of submarines seats 1 and 2 hold, two ways
    assert sum(j * p for j, p in enumerate(dist)) == sum(hc[f"S{r}"][1] + hc[f"S{r}"][2] for r in range(1, 5))
    deal = sample_deal(k, random.Random(seed))
    for s in range(seats):
        assert bin(deal[s]).count("1") == k.slots[s]
        assert deal[s] & ~k.allowed[s] == 0
    for s, masks in k.alternatives:
        assert any(not deal[s] & m for m in masks)


# --------------------------------------------------------------------------------------------
# properties
# --------------------------------------------------------------------------------------------


@st.composite
def knowledges(draw: st.DrawFn) -> Knowledge:
    seed = draw(st.integers(0, 2**32 - 1))
    max_pool = draw(st.integers(0, 7))
    return random_knowledge(random.Random(seed), max_pool=max_pool)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(knowledges())
def test_property_counts_equal_brute_force(k: Knowledge) -> None:
    assert count_deals(k) == len(brute_deals(k))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(knowledges(), st.integers(0, 2**32 - 1))
def test_property_chances_are_distributions(k: Knowledge, seed: int) -> None:
    if count_deals(k) == 0:
        with pytest.raises(InconsistentKnowledge):
            holding_chances(k)
        return
    hc = holding_chances(k)
    for per in hc.values():
        assert sum(per) == 1
        assert all(0 <= p <= 1 for p in per)
    for s in range(k.seats):  # the expected number of pool cards a seat holds is its slots
        assert sum(hc[DECK[c]][s] for c in bits(k.pool)) == k.slots[s]
    deal = sample_deal(k, random.Random(seed))
    assert hc == brute_holding(k, brute_deals(k))
    assert all(hc[DECK[c]][s] > 0 for s in range(k.seats) for c in bits(deal[s]))
