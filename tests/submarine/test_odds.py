"""The exact card chances of ``dsa_widget.submarine.odds``: small cases against brute-force
enumeration, properties every probability must have, and checks against the engine's own deals
and payments (the engine shuffles; the helper counts — neither uses the other's code)."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.core.stats import wilson
from dsa_widget.submarine import COLOURS, SubmarineGame, odds
from dsa_widget.submarine.odds import (
    OddsError,
    at_least,
    chance_lacks,
    chance_lacks_any,
    draw_chance,
    exactly,
    payment_cost,
    payments_owed,
    unseen,
)

Z = 3.29  # 99.9%: a deterministic sample (fixed seeds) that must not sit on the edge

# ---------------------------------------------------------------- against enumeration


def _deck(counts: dict[str, int]) -> list[str]:
    return [c for c, n in counts.items() for _ in range(n)]


@pytest.mark.parametrize(
    "counts", [{"K1": 2, "K2": 3}, {"K1": 3, "K2": 1, "K3": 2}, {"K1": 4, "K2": 0, "K3": 3}]
)
def test_tails_and_voids_match_every_hand_counted_one_by_one(counts):
    deck = _deck(counts)
    for draws in range(len(deck) + 1):
        hands = list(combinations(range(len(deck)), draws))
        for colour, marked in counts.items():
            for k in range(draws + 2):
                hits = sum(1 for h in hands if sum(deck[i] == colour for i in h) >= k)
                assert at_least(k, marked=marked, population=len(deck), draws=draws) == Fraction(
                    hits, len(hands)
                )
            void = sum(1 for h in hands if all(deck[i] != colour for i in h))
            assert chance_lacks(marked, len(deck), draws) == Fraction(void, len(hands))
        present = {c for c, n in counts.items() if n}
        missing = sum(1 for h in hands if {deck[i] for i in h} != present)
        assert chance_lacks_any(counts, draws) == Fraction(missing, len(hands))


def test_a_payment_costs_what_counting_every_possible_pile_top_gives():
    """§6.5: each payment is the collector's top pile card, unseen.  A 2-player deal with a tiny
    deck: enumerate every arrangement of the unseen cards and average the colours paid."""
    g = SubmarineGame(2, seed=3, start=0)
    for a in ["place 2", "place 2", "place 2", "place 3"]:
        g.apply(a)
    v = g.view(1)
    cost = payment_cost(v, "2.1", "K1")  # seat 1 owes 2 (seat 0 has two bathyscaphes at 2.1)
    pool = _deck(unseen(v))
    pairs = list(combinations(range(len(pool)), cost.from_pile))  # the top cards, as a set
    for c in COLOURS:
        lost = Fraction(sum(sum(pool[i] == c for i in p) for p in pairs), len(pairs))
        assert cost.expected[c] == lost + (1 if c == "K1" else 0)
        kept = Fraction(sum(1 for p in pairs if all(pool[i] != c for i in p)), len(pairs))
        assert cost.chance_keeps[c] == kept
    assert cost.cards == 3 and cost.owed == 2 and cost.from_hand == ("K1",)


# ---------------------------------------------------------------- properties

counts3 = st.tuples(st.integers(0, 15), st.integers(0, 15), st.integers(0, 15))


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 30), st.integers(0, 30), st.integers(0, 30), st.integers(-1, 31))
def test_tails_are_probabilities_that_fall_as_k_rises_and_complement_the_lower_part(a, b, c, k):
    population = a + b + c
    marked, draws = min(a, population), min(b, population)
    p = at_least(k, marked=marked, population=population, draws=draws)
    assert 0 <= p <= 1
    assert at_least(k + 1, marked=marked, population=population, draws=draws) <= p
    below = sum(
        (exactly(j, marked=marked, population=population, draws=draws) for j in range(k)), Fraction(0)
    )
    assert p + below == 1
    if draws < population:  # one card more can only help
        assert at_least(k, marked=marked, population=population, draws=draws + 1) >= p


@settings(max_examples=100, deadline=None)
@given(counts3, st.integers(0, 45))
def test_missing_some_colour_is_at_least_as_likely_as_missing_any_one(t, draws):
    counts = dict(zip(("K1", "K2", "K3"), t, strict=True))
    draws = min(draws, sum(t))
    any_void = chance_lacks_any(counts, draws)
    assert 0 <= any_void <= 1
    for n in t:
        if n:
            assert chance_lacks(n, sum(t), draws) <= any_void


@pytest.mark.parametrize(
    "call",
    [
        lambda: at_least(1, marked=5, population=4, draws=1),
        lambda: at_least(1, marked=1, population=4, draws=5),
        lambda: exactly(0, marked=-1, population=4, draws=1),
        lambda: chance_lacks_any({"K1": -1, "K2": 3}, 1),
        lambda: draw_chance(SubmarineGame(2, seed=1).view(None), "K1"),
        lambda: draw_chance(SubmarineGame(2, seed=1).view(0), "red"),
        lambda: draw_chance(SubmarineGame(2, seed=1).view(0), "K1", draws=13),
        lambda: payments_owed(SubmarineGame(2, seed=1).view(0), "7.1"),
        lambda: at_least(1.5, marked=1, population=4, draws=1),
    ],
)
def test_bad_questions_raise_a_value_error_that_says_why(call):
    with pytest.raises(OddsError) as e:
        call()
    assert isinstance(e.value, ValueError) and str(e.value)


def _short_pile(shortfall: str) -> SubmarineGame:
    """Seat 0 (hand K3 K4 K5) sails to column 2, where a K3 tile lies at 2.1 under one of seat 1's
    bathyscaphes, with an empty pile (its cards set aside with the undealt ones)."""
    g = SubmarineGame(2, seed=3, start=0, options={"payment_shortfall": shortfall})
    for a in ["place 2", "place 2", "place 2", "place 3", "place 5", "place 5", "place 5", "place 5"]:
        g.apply(a)
    for a in ["place 6", "place 6"]:
        g.apply(a)
    d = g.state_dict()
    d["undealt"] = sorted(d["undealt"] + d["piles"][0])
    d["piles"][0] = []
    g = SubmarineGame.from_state_dict(d)
    g.apply("sail 2")
    return g


def test_a_card_collection_without_the_card_or_with_too_short_a_pile_is_refused_as_the_engine_does():
    g = SubmarineGame(2, seed=3, start=0)
    for a in ["place 2", "place 2", "place 2", "place 3"]:
        g.apply(a)
    with pytest.raises(OddsError, match="no K3 card"):
        payment_cost(g.view(1), "2.1", "K3")  # seat 1 holds K1 K2 K5
    # §6.4 with payment_shortfall "forbid" (the default): one payment owed, an empty pile
    g = _short_pile("forbid")
    g.apply("mode collect")  # legal: the starting shell joker can pay
    assert g.hand(0) == ("K3", "K4", "K5") and payments_owed(g.view(0), "2.1") == 1
    assert not any(a.startswith("collect 2.1") and a.endswith("card") for a in g.legal_actions())
    assert any(a.startswith("collect 2.1 T04K3 joker") for a in g.legal_actions())  # the tile is there
    with pytest.raises(OddsError, match="illegal"):
        payment_cost(g.view(0), "2.1", "K3")


def test_under_use_hand_the_shortfall_leaves_the_hand_lowest_colour_first_as_in_the_engine():
    g = _short_pile("use_hand")
    g.apply("mode collect")
    cost = payment_cost(g.view(0), "2.1", "K3")
    assert cost.from_hand == ("K3", "K4") and cost.from_pile == 0 and cost.cards == 2
    assert cost.expected["K4"] == 1 and cost.chance_keeps["K4"] == 1
    g.apply("collect 2.1 T04K3 card")
    assert g.hand(0) == ("K5",)  # the engine took K3 for the tile and K4 for the payment


def test_a_view_uses_nothing_its_seat_cannot_see():
    """Two games alike in everything public and in seat 0's hand, but with the hidden cards dealt
    differently, give seat 0 the same figures."""
    g = SubmarineGame(3, seed=5)
    d = g.state_dict()
    hidden = [c for p in d["piles"] for c in p] + [c for h in d["hands"][1:] for c in h] + d["undealt"]
    random.Random(1).shuffle(hidden)
    for p in range(3):
        n = len(d["piles"][p])
        d["piles"][p], hidden = hidden[:n], hidden[n:]
    for p in (1, 2):
        d["hands"][p], hidden = sorted(hidden[:3]), hidden[3:]
    d["undealt"] = sorted(hidden)
    other = SubmarineGame.from_state_dict(d)
    assert other.view(0) == g.view(0)
    for c in COLOURS:
        assert draw_chance(other.view(0), c, 2) == draw_chance(g.view(0), c, 2)


# ---------------------------------------------------------------- against the engine's real deals


def _within(hits: int, n: int, p: Fraction) -> bool:
    lo, hi = wilson(hits, n, z=Z)
    return lo <= float(p) <= hi


def test_opening_hands_and_deals_come_out_as_often_as_the_formulas_say():
    """§2.3, §4 steps 5-6: 60 cards, 12 of each colour, 15 dealt to each of 3 seats, the top 3
    into the hand.  2,000 seeded games; each frequency is inside its 99.9% Wilson interval."""
    n = 2000
    hand_void = hand_two = deal_void = 0
    for seed in range(n):
        g = SubmarineGame(3, seed=seed)
        d = g.state_dict()
        hand = d["hands"][0]
        hand_void += "K1" not in hand
        hand_two += hand.count("K2") >= 2
        deal_void += len(set(hand) | set(d["piles"][0])) < 5
    assert _within(hand_void, n, chance_lacks(12, 60, 3))
    assert _within(hand_two, n, at_least(2, marked=12, population=60, draws=3))
    assert _within(deal_void, n, chance_lacks_any(dict.fromkeys(COLOURS, 12), 15))


def test_a_seats_view_predicts_its_own_pile_in_real_deals():
    """The chance a seat gives, from its view, that its next 3 draws hold a K4, summed over 2,000
    real deals, against how many of those piles really held one (a sum of unequal chances: the
    spread is the square root of the summed p(1 - p))."""
    predicted = variance = Fraction(0)
    hits = 0
    for seed in range(2000):
        g = SubmarineGame(4, seed=seed)
        p = draw_chance(g.view(1), "K4", 1, draws=3)
        predicted += p
        variance += p * (1 - p)
        hits += "K4" in g.pile(1)[:3]
    assert abs(hits - predicted) <= Z * math.sqrt(variance), (hits, float(predicted))


def test_payments_in_real_play_match_the_count_and_the_expected_colours():
    """§6.5 in play: random legal moves; before every card collection the collector's view gives
    the number owed (the engine's ``paid`` list must have that length) and the expected colours of
    the cards paid (compared, summed, with the colours really on top of the pile)."""
    rng = random.Random(7)
    expected = dict.fromkeys(COLOURS, Fraction(0))
    variance = dict.fromkeys(COLOURS, Fraction(0))
    seen = dict.fromkeys(COLOURS, 0)
    collections = 0
    for seed in range(20):
        g = SubmarineGame(3, seed=seed)
        while not g.is_over:
            a = rng.choice(g.legal_actions())
            if a.startswith("collect") and a.endswith(" card"):
                _, space, tile, _ = a.split()
                p = g.to_move
                cost = payment_cost(g.view(p), space, tile[-2:])
                pool = unseen(g.view(p))
                top = g.pile(p)[: cost.from_pile]
                g.apply(a)
                event = next(e for e in reversed(g.events) if e["type"] == "collect")  # an end may follow
                assert len(event["paid"]) == cost.owed == cost.from_pile
                size, m = sum(pool.values()), cost.from_pile
                for c in COLOURS if m else ():
                    mean = cost.expected[c] - cost.from_hand.count(c)  # the pile's part
                    assert mean == Fraction(m * pool[c], size)
                    expected[c] += mean
                    # the hypergeometric variance of the count of c among m cards drawn
                    variance[c] += mean * (1 - Fraction(pool[c], size)) * Fraction(size - m, max(size - 1, 1))
                    seen[c] += top.count(c)
                collections += 1
            else:
                g.apply(a)
    paid = sum(seen.values())
    assert collections > 100 and paid > 100, (collections, paid)
    for c in COLOURS:
        assert abs(seen[c] - expected[c]) <= Z * math.sqrt(variance[c]), (c, seen, expected)


def test_the_module_is_exported_from_the_package():
    assert odds.payment_cost is payment_cost


def test_payments_owed_and_payment_cost_name_a_bad_seat_or_space() -> None:
    """A seat the game has not is refused (payments_owed(view, '4.1', seat=7) answered 0), and
    payment_cost names a bad space before it looks at the hand (it said 'no K1 card in the hand'
    for the space '9.9')."""
    g = SubmarineGame(3, seed=4)
    view = g.view(0)
    for seat in (7, -1, 1.0):
        with pytest.raises(odds.OddsError, match="seat must be a seat of the game, 0 to 2"):
            odds.payments_owed(view, "4.1", seat=seat)  # type: ignore[arg-type]
    assert odds.payments_owed(view, "4.1", seat=2) == 0  # nobody has sailed yet
    with pytest.raises(odds.OddsError, match="no space '9.9'"):
        odds.payment_cost(view, "9.9", "K1")
