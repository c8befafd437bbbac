"""Submarine's fast observation (:class:`~dsa_widget.submarine.encoding.SubmarineTracker`) gives
exactly the reference ``SubmarineEncoding.observe(game.view(seat))`` under every rule option."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.submarine import SubmarineGame
from dsa_widget.submarine.encoding import SubmarineEncoding
from dsa_widget.submarine.errors import SetupError
from dsa_widget.submarine.options import CHOICES

OPTIONS = st.fixed_dictionaries({k: st.sampled_from(v) for k, v in CHOICES.items() if k != "start_player"})


@settings(max_examples=15, deadline=None)
@given(options=OPTIONS, players=st.integers(2, 5), seed=st.integers(0, 2**32))
def test_the_tracker_equals_the_reference_under_any_options(options: dict, players: int, seed: int) -> None:
    try:
        game = SubmarineGame(players, seed=seed, options=options)
    except SetupError:  # a deck too small for this many cards a player
        return
    enc = SubmarineEncoding()
    tracker = enc.tracker(game)
    rng = random.Random(seed)
    for _ in range(120):
        for seat in rng.sample(range(players), players):
            want = np.asarray(enc.observe(game.view(seat)), np.float32)
            assert np.array_equal(tracker.observe(seat), want)
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))


def test_the_tracker_gives_a_seat_the_same_observation_whatever_it_cannot_see() -> None:
    """SUBMARINE.md 5: a seat sees its own hand, and of the other hands and the piles only their
    sizes.  Worlds drawn from the seat's view (every card it cannot see dealt afresh) give it the
    same fast observation as the true game."""
    enc = SubmarineEncoding()
    rng = random.Random(4)
    game = SubmarineGame(4, seed=9)
    for _ in range(60):
        game.apply(rng.choice(game.legal_actions()))
    hidden = [[game.hand(q), game.pile(q)] for q in range(4)]
    redealt = 0
    for seat in range(4):
        mine = enc.tracker(game).observe(seat)
        for _ in range(5):
            world = game.view(seat).sample(rng)
            redealt += [[world.hand(q), world.pile(q)] for q in range(4)] != hidden
            assert np.array_equal(enc.tracker(world).observe(seat), mine)
    assert redealt  # the check saw other cards than the true ones
