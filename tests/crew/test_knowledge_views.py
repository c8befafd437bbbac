"""The exact chances of real views (CREW.md section 15) against the deals the table could hold.

Late-game states of real games (3, 4 and 5 seats, Tonoja, normal and *currents*
communication, players' and spectators' views).  The oracle does not use
:class:`~dsa_widget.crew.knowledge.Knowledge`: every assignment of the hidden cards to the hands
(of the right sizes) is dealt into a new game together with the cards already played, the public
history is replayed with *checked* actions (a seat must follow suit, a communicated card must be
its highest, lowest or only one of the colour...), and the deal counts as consistent when the
replay succeeds and shows the viewer exactly the same view.  The chances of
``holding_chances(view.knowledge())`` must equal the frequencies over those deals, exactly.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from dsa_widget.crew.analysis import holding_chances, void_chances
from dsa_widget.crew.cards import DECK, SUIT_MASK, SUITS, bits, card
from dsa_widget.crew.errors import CrewError
from dsa_widget.crew.knowledge import Knowledge, count_deals, sample_deal
from dsa_widget.crew.mission import Mission
from dsa_widget.crew.rules import CrewGame

LAST_TRICK_TASK = 73  # "take the final trick": the mission stays open to the end
MAX_CANDIDATES = 1500


def drive(g: CrewGame, rng: random.Random, stop_trick: int, pcomm: float) -> None:
    """Random legal play (no distress signal) until ``stop_trick`` tricks are complete."""
    while not g.is_over:
        if g.step == "play" and len(g.tricks) >= stop_trick and not g.current_trick:
            return
        legal = list(g.legal_actions())
        if "no distress" in legal:
            a = "no distress"
        elif any(x.startswith("comm") for x in legal) and rng.random() < pcomm:
            a = rng.choice([x for x in legal if x.startswith("comm")])
        elif "pass" in legal:
            a = "pass"
        else:
            a = rng.choice([x for x in legal if x != "timeout"] or legal)
        g.apply(a)


def replay(view: Any, hands: list[int]) -> CrewGame | None:
    """The game dealt ``hands`` (now) plus the cards played, with the public history replayed
    by checked actions; None if some action is illegal with that deal."""
    deal = []
    for s in range(view.seats):
        held = hands[s] | view.played_by[s]
        if s == view.dummy:
            ups = [card(u) for u, _d in view.dummy_layout]
            downs_known = [None if d is None else card(d) for _u, d in view.dummy_layout]
            hidden = [c for c in bits(held) if c not in ups and c not in downs_known]
            downs = [d if d is not None else hidden.pop() for d in downs_known]
            deal.append([DECK[c] for c in downs + ups])
        else:
            deal.append([DECK[c] for c in bits(held)])
    g = CrewGame(
        [view.players[s] for s in view.humans],
        mission=view.mission,
        options=view.options,
        seed=0,
        deal=deal,
        tasks=list(view.task_ids),
        attempt=view.attempt,
        timed=view.timed_arg,
        deal_check=False,
        assignment=view.explicit_assignment,
    )
    try:
        for seat, action in view.public_history:
            g.apply(action, seat)
    except CrewError:
        return None
    return g


def consistent_deals(view: Any, k: Knowledge) -> list[tuple[int, ...]]:
    """Every deal of the hidden cards (hands of the sizes the view shows) that replays to the
    same view; per seat the whole hand (known cards included)."""
    ref = view.to_dict()
    cards = bits(k.pool)
    seats = [s for s in range(k.seats) if k.slots[s]]
    out = []
    for assign in itertools.product(seats, repeat=len(cards)):
        cnt = Counter(assign)
        if any(cnt[s] != k.slots[s] for s in seats):
            continue
        hands = list(k.known)
        for c, s in zip(cards, assign, strict=True):
            hands[s] |= 1 << c
        g = replay(view, hands)
        if g is not None and g.view(view.seat).to_dict() == ref:
            out.append(tuple(hands))
    return out


def candidates(k: Knowledge) -> int:
    n = bin(k.pool).count("1")
    return math.factorial(n) // math.prod(math.factorial(x) for x in k.slots)


def late_states() -> list[tuple[str, Any]]:
    """(label, view) for a spread of late-game states; deterministic."""
    out = []
    configs = [
        # humans, communication, tricks played, seeds
        (3, "normal", 10, range(3)),
        (3, "currents", 10, range(3)),
        (4, "normal", 7, range(4)),
        (4, "currents", 7, range(4)),
        (4, "rapture", 7, range(3)),
        (5, "normal", 6, range(2)),
        (5, "currents", 6, range(3)),
        (2, "normal", 10, range(3)),
        (2, "currents", 10, range(2)),
    ]
    for humans, comm, stop, seeds in configs:
        for seed in seeds:
            rng = random.Random(1000 * humans + seed)
            mission = Mission(target=None, fixed_tasks=(LAST_TRICK_TASK,), communication=comm)
            g = CrewGame(humans, seed=seed, tasks=[LAST_TRICK_TASK], mission=mission)
            drive(g, rng, stop, pcomm=0.5)
            if g.is_over:
                continue
            viewers: list[int | None] = [s for s in range(g.seats) if s != g.dummy]
            for viewer in [rng.choice(viewers), None]:
                view = g.view(viewer)
                k = view.knowledge()
                if candidates(k) <= MAX_CANDIDATES:
                    out.append((f"{humans}p-{comm}-{seed}-seat{viewer}", view))
    return out


STATES = late_states()
LABELS = [label for label, _v in STATES]


def requirements(view: Any, k: Knowledge) -> tuple[tuple[int, int], ...]:
    """A reference for ``Knowledge.requires``, written apart from view.py: under normal
    communication with the forced token position (R-11.5), *top* says the seat
    also held a lower card of the colour, *bottom* a higher one: unless the seat has played one
    since (or holds a known one), one of the unknown cards of that side is in its hand."""
    # rapture declares as normal communication does (R-11.10: under ); currents hides it
    if view.communication == "currents" or view.options["token_position"] != "forced":
        return ()
    out = []
    for cm in view.communicated:
        if cm.seat == view.seat or cm.position not in ("top", "bottom"):
            continue
        c = card(cm.card)
        colour = SUIT_MASK[cm.card[0]]
        side = colour & ((1 << c) - 1) if cm.position == "top" else colour & ~((2 << c) - 1)
        later = k.known[cm.seat]
        for t in view.all_tricks:
            if t.number >= cm.trick:
                later |= sum(1 << pc for ps, pc in t.plays if ps == cm.seat)
        later |= sum(1 << pc for ps, pc in view.current_trick if ps == cm.seat)
        if not later & side:
            out.append((cm.seat, side & k.pool))
    return tuple(out)


@functools.cache
def oracle(label: str) -> tuple[Any, Knowledge, tuple[tuple[int, int], ...], list[tuple[int, ...]]]:
    view = dict(STATES)[label]
    k = view.knowledge()
    return view, k, requirements(view, k), consistent_deals(view, k)


def test_enough_states() -> None:
    assert len(LABELS) >= 20
    assert any("currents" in x for x in LABELS) and any("seatNone" in x for x in LABELS)
    assert any(x.startswith("2p") for x in LABELS) and any(x.startswith("5p") for x in LABELS)
    assert any(oracle(x)[2] for x in LABELS)  # some states need the requirements


@pytest.mark.parametrize("label", LABELS)
def test_chances_of_real_views_match_the_consistent_deals(label: str) -> None:
    view, plain, req, deals = oracle(label)
    k = plain
    assert set(k.requires) == set(req), label  # the view states the requirements the reference finds
    assert deals, label  # the true deal is always among them
    assert count_deals(k) == len(deals)
    hc = holding_chances(k)
    for c in bits(k.pool | sum(k.known)):
        expected = [Fraction(sum(1 for d in deals if d[s] >> c & 1), len(deals)) for s in range(k.seats)]
        assert hc[DECK[c]] == expected, (label, DECK[c])
    vc = void_chances(k)
    for s in range(k.seats):
        for x in SUITS:
            expected_void = Fraction(sum(1 for d in deals if not d[s] & SUIT_MASK[x]), len(deals))
            assert vc[s][x] == expected_void, (label, s, x)
    rng = random.Random(7)
    for _ in range(5):
        drawn = sample_deal(k, rng)
        assert tuple(drawn[s] | k.known[s] for s in range(k.seats)) in deals


@pytest.mark.parametrize("label", LABELS)
def test_view_knowledge_is_sound_and_exact_without_forced_declarations(label: str) -> None:
    view, k, req, deals = oracle(label)
    for d in deals:  # every deal the table could hold is a consistent deal of the knowledge
        pool_part = [d[s] & ~k.known[s] for s in range(k.seats)]
        assert all(pool_part[s] & ~k.allowed[s] == 0 for s in range(k.seats))
        assert all(bin(pool_part[s]).count("1") == k.slots[s] for s in range(k.seats))
        assert all(any(not pool_part[s] & m for m in ms) for s, ms in k.alternatives)
    without = dataclasses.replace(k, requires=())
    if not req:
        assert count_deals(k) == len(deals)
        assert holding_chances(k) == holding_chances(without)
    else:  # without the requirements the knowledge would allow more deals than the table can hold
        assert count_deals(without) > len(deals)


def test_view_knowledge_is_exact_with_forced_declarations() -> None:
    needing = [x for x in LABELS if oracle(x)[2]]
    assert needing
    for label in needing:
        _view, k, _req, deals = oracle(label)
        assert count_deals(k) == len(deals), label
