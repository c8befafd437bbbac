"""Inference from how a card was played (dsa_widget.crew.analysis.inference).

Tiny cases are worked by hand and checked exactly; the weighted chances are checked against a
brute force written here with itertools (every assignment of the pool cards, each weighted by
the play model's likelihood); hypothesis checks the invariants on random small knowledges:
each card's chances add up to 1, a model that tells nothing gives exactly
:func:`holding_chances`, and the weighted sample agrees with the exact answer.  The engine
check plays a few real games (no timing assertions)."""

from __future__ import annotations

import itertools
import random
import xml.etree.ElementTree as ET
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget.crew.analysis import holding_chances
from dsa_widget.crew.analysis.inference import (
    InferenceError,
    Play,
    any_card,
    behaviour_chances,
    calibration_bins,
    calibration_points,
    calibration_svg,
    deals,
    legal_cards,
    lowest_card,
    observed_plays,
    random_card,
)
from dsa_widget.crew.cards import DECK, bits, card, mask_of
from dsa_widget.crew.knowledge import Knowledge, count_deals
from dsa_widget.crew.rules import CrewGame


def _toy() -> tuple[Knowledge, list[Play]]:
    """Ann (seat 0, the viewer) led B1; Bob followed with B3.  Unseen: B4, G1, G2; Bob has one
    card left, Cy two."""
    pool = mask_of(["B4", "G1", "G2"])
    k = Knowledge(3, 0, pool, (0, 1, 2), (mask_of(["P9"]), 0, 0), (0, pool, pool))
    plays = [Play(0, card("B1"), None), Play(1, card("B3"), card("B1"))]
    return k, plays


# ------------------------------------------------------------------ worked by hand


def test_restricted_choice_by_hand():
    # R-10.2 (follow the led colour when you can): with B3+B4 Bob had a choice of two blue
    # cards, with B3+G1 or B3+G2 none.  Random play: weights 1/2, 1, 1 -> B4 is 1/2 / (5/2).
    k, plays = _toy()
    assert holding_chances(k)["B4"][1] == Fraction(1, 3)
    ch = behaviour_chances(k, plays, random_card())
    assert ch["B4"] == [0, Fraction(1, 5), Fraction(4, 5)]
    assert ch["G1"] == [0, Fraction(2, 5), Fraction(3, 5)]


def test_lowest_card_model_by_hand():
    # "plays the lowest card that follows": B3 is Bob's lowest blue in every fitting deal, so
    # the play tells nothing here (1/3 stays) ...
    k, plays = _toy()
    assert behaviour_chances(k, plays, lowest_card())["B4"][1] == Fraction(1, 3)
    # ... but had Bob followed with B4 (B3 unseen), he cannot hold B3: he would have played it.
    pool = mask_of(["B3", "G1", "G2"])
    k2 = Knowledge(3, 0, pool, (0, 1, 2), (mask_of(["P9"]), 0, 0), (0, pool, pool))
    plays2 = [Play(0, card("B1"), None), Play(1, card("B4"), card("B1"))]
    assert behaviour_chances(k2, plays2, lowest_card())["B3"] == [0, 0, 1]
    # with a slip of 1/5 (any legal card at random): weights 1/10 (B3 with him), 1, 1
    assert behaviour_chances(k2, plays2, lowest_card(Fraction(1, 5)))["B3"][1] == Fraction(1, 21)


def test_legal_cards_follow_the_colour():
    assert legal_cards(mask_of(["B3", "B7", "G2"]), card("B1")) == mask_of(["B3", "B7"])
    assert legal_cards(mask_of(["G2", "S1"]), card("B1")) == mask_of(["G2", "S1"])
    assert legal_cards(mask_of(["S1", "S3", "B2"]), card("S2")) == mask_of(["S1", "S3"])
    assert legal_cards(mask_of(["B2", "S1"]), None) == mask_of(["B2", "S1"])


def test_bad_input_raises_value_errors():
    k, plays = _toy()
    with pytest.raises(ValueError, match="unplayed"):
        behaviour_chances(k, [Play(0, card("G1"), None)], any_card())
    with pytest.raises(ValueError, match="epsilon"):
        lowest_card(2)
    with pytest.raises(ValueError, match="samples"):
        behaviour_chances(k, plays, any_card(), samples=0)
    # Bob followed with B4 while holding B3 in every fitting deal: impossible under "lowest"
    pool = mask_of(["B3"])
    k3 = Knowledge(3, 0, pool, (0, 1, 0), (mask_of(["P9"]), 0, 0), (0, pool, 0))
    with pytest.raises(InferenceError, match="no fitting deal"):
        behaviour_chances(k3, [Play(0, card("B1"), None), Play(1, card("B4"), card("B1"))], lowest_card())
    with pytest.raises(ValueError, match="which"):
        calibration_bins([], "both")


# ------------------------------------------------------------------ brute force and invariants


def _brute(k: Knowledge, plays: list[Play], model) -> dict[str, list[Fraction]]:
    cards = bits(k.pool)
    mass = {c: [Fraction(0)] * k.seats for c in cards}
    total = Fraction(0)
    for assign in itertools.product(range(k.seats), repeat=len(cards)):
        hands = [0] * k.seats
        for c, s in zip(cards, assign, strict=True):
            hands[s] |= 1 << c
        if any(not k.allowed[s] >> c & 1 for c, s in zip(cards, assign, strict=True)):
            continue
        if [h.bit_count() for h in hands] != list(k.slots):
            continue
        # the likelihood, play by play from the first: hand then = hand now + cards played since
        w = Fraction(1)
        for i, p in enumerate(plays):
            later = sum(1 << q.card for q in plays[i:] if q.seat == p.seat)
            hand = hands[p.seat] | k.known[p.seat] | later
            w *= Fraction(model(hand, legal_cards(hand, p.lead), p.card))
        total += w
        for c, s in zip(cards, assign, strict=True):
            mass[c][s] += w
    return {DECK[c]: [m / total for m in mass[c]] for c in cards}


@st.composite
def small_cases(draw):
    """Three seats; 2-3 blue cards led and followed, then a few unseen cards dealt to Bob and Cy."""
    seats = 3
    unseen = draw(
        st.lists(
            st.sampled_from(["B2", "B5", "B6", "B8", "G1", "G3", "P4", "S2"]),
            min_size=2,
            max_size=6,
            unique=True,
        )
    )
    bob = draw(st.integers(min_value=0, max_value=len(unseen)))
    pool = mask_of(unseen)
    slots = (0, bob, len(unseen) - bob)
    follow_bob = draw(st.sampled_from(["B7", "B9", "G5"]))
    follow_cy = draw(st.sampled_from(["B3", "G7", "S1"]))
    plays = [
        Play(0, card("B1"), None),
        Play(1, card(follow_bob), card("B1")),
        Play(2, card(follow_cy), card("B1")),
    ]
    # a seat that did not follow blue has no blue (what the view would record as a void)
    allowed = [0, pool, pool]
    for s, c in ((1, follow_bob), (2, follow_cy)):
        if not c.startswith("B"):
            allowed[s] &= ~mask_of([x for x in unseen if x.startswith("B")])
    k = Knowledge(seats, 0, pool, slots, (mask_of(["P9"]), 0, 0), tuple(allowed))
    return k, plays


def _model(name: str):
    return {"random": random_card(), "lowest": lowest_card(Fraction(1, 4)), "any": any_card()}[name]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cases(), st.sampled_from(["random", "lowest", "any"]))
def test_matches_brute_force_and_sums_to_one(case, which):
    k, plays = case
    if count_deals(k) == 0:
        return
    got = behaviour_chances(k, plays, _model(which))
    want = _brute(k, plays, _model(which))
    for name, row in want.items():
        assert got[name] == row
        assert sum(got[name]) == 1
    assert len(list(deals(k))) == count_deals(k)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cases())
def test_a_likelihood_of_one_gives_the_uniform_answer(case):
    k, plays = case
    if count_deals(k) == 0:
        return
    assert behaviour_chances(k, plays, any_card()) == holding_chances(k)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_cases(), st.integers(min_value=0, max_value=10**6))
def test_the_weighted_sample_agrees_with_the_exact_answer(case, seed):
    k, plays = case
    if count_deals(k) == 0:
        return
    exact = behaviour_chances(k, plays, random_card())
    est = behaviour_chances(k, plays, random_card(), samples=4000, seed=seed)
    for name, row in exact.items():
        assert abs(sum(est[name]) - 1) < 1e-9
        for a, b in zip(row, est[name], strict=True):
            assert abs(float(a) - b) < 0.06  # 4,000 draws: a standard error under 0.01


# ------------------------------------------------------------------ the engine


def test_observed_plays_are_the_views_tricks_in_order():
    g = CrewGame(4, tasks=[73], assignment={73: 0}, seed=5)
    rng = random.Random(2)
    while len(g.view(0).all_tricks) < 2 or not g.view(0).current_trick:
        legal = g.legal_actions()
        quiet = [a for a in legal if a in ("no distress", "pass")]
        g.apply(quiet[0] if quiet else rng.choice(legal))
    v = g.view(1)
    plays = observed_plays(v)
    assert len(plays) == 8 + len(v.current_trick)
    t = v.all_tricks[1]
    assert [(p.seat, p.card) for p in plays[4:8]] == list(t.plays)
    assert plays[4].lead is None and all(p.lead == t.plays[0][1] for p in plays[5:8])
    # the same for every viewer: plays are public
    assert observed_plays(g.view(0)) == plays


def test_calibration_on_engine_games_is_deterministic_and_drawn():
    a = calibration_points(2, samples=60, seed=4, progress=False, after=(3,))
    b = calibration_points(2, samples=60, seed=4, progress=False, after=(3,))
    assert a == b and a
    other = calibration_points(2, samples=60, seed=4, progress=False, after=(3,), play_epsilon=1.0)
    assert [p.held for p in other] != [p.held for p in a]  # other players, other games
    for p in a:
        assert 0 <= p.uniform <= 1 and 0 <= p.behaviour <= 1 and p.seat in (1, 2, 3)
    # per game, per card, the truth is one seat among the three others
    by_card: dict[tuple[int, str], int] = {}
    for p in a:
        by_card[(p.game, p.card)] = by_card.get((p.game, p.card), 0) + p.held
    assert set(by_card.values()) == {1}
    bins = calibration_bins(a, "uniform")
    assert sum(x.n for x in bins) == len(a)
    svg = ET.fromstring(calibration_svg([("uniform", bins), ("behaviour", calibration_bins(a, "behaviour"))]))
    assert len(list(svg.iter("{http://www.w3.org/2000/svg}polyline"))) == 2
