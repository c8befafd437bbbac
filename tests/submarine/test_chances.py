"""Submarine's board shows its chances (issue ux5): the colour of the next card the seat draws
from its own pile, from what the seat sees.  SUBMARINE.md, step C: "The player draws from the
top of their own pile until the hand holds 3 cards"; the pile is face down, so its top is one
of the cards the seat cannot see (``odds.unseen``: the deck less the cards out of play, public
by colour, less the seat's own hand)."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.submarine import Submarine, SubmarineGame
from dsa_widget.submarine.odds import unseen
from dsa_widget.submarine.widget import POOL, SubmarinePresenter


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 40))
def test_each_colour_is_its_share_of_the_unseen_cards(seed: int, steps: int) -> None:
    g = SubmarineGame(3, seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    for seat in range(3):
        v = g.view(seat)
        figures = SubmarinePresenter().chances(v)
        if g.is_over or not v.data["pile_sizes"][seat]:
            assert figures == ()
            continue
        pool = unseen(v)
        assert [f.value for f in figures] == [n / sum(pool.values()) for n in pool.values()]
        assert abs(sum(f.value for f in figures) - 1) < 1e-12
        assert {f.words() for f in figures} == {f"exact, {POOL}"}


def test_a_spectator_has_no_pile_and_no_figures() -> None:
    w = Submarine(players=["Ann", "Bob"], seats={1: "random"}, seed=1)
    assert len(w.state["chances"]) == 5 and w.state["chances"][0]["label"] == "Your pile's next card is red"
    assert SubmarinePresenter().chances(w.game.view(None)) == ()
    w.hints = False
    assert w.state["chances"] is None
