"""The fast path (dsa_widget.submarine.playouts): complete games, the same rules as ``apply``."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from dsa_widget.submarine import RecordError, SubmarineGame
from dsa_widget.submarine.fast import FastState, playout
from dsa_widget.submarine.playouts import random_game

from .test_conformance import _OPTIONS


@pytest.mark.parametrize("options", _OPTIONS)
def test_playouts_follow_the_checked_rules(options: dict[str, Any]) -> None:
    """Every action the fast path takes is legal for the checked ``apply``, and replaying them
    reaches the same state, for every option set and player count."""
    for seed in range(8):
        n = 2 + seed % 4
        trace: list[str] = []
        g = random_game(n, seed=seed, options=options, trace=trace)
        assert g.is_over and g.result is not None
        again = SubmarineGame(n, seed=seed, options=options)
        for a in trace:
            again.apply(a)
        assert again.state_dict() == g.state_dict()


def test_a_playout_leaves_no_record() -> None:
    g = random_game(3, seed=1)
    with pytest.raises(RecordError):
        g.to_record()


def test_a_playout_from_the_middle_of_a_game() -> None:
    g = SubmarineGame(4, seed=2)
    rng = random.Random(3)
    for _ in range(60):
        g.apply(rng.choice(g.legal_actions()))
    c = g.clone()
    c.random_playout(random.Random(4))
    assert c.is_over and not g.is_over


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(1, 300), options=st.sampled_from(_OPTIONS))
def test_a_playout_started_in_the_middle_of_a_turn_finishes_that_turn(
    seed: int, steps: int, options: dict[str, Any]
) -> None:
    """A turn is a seat's whole turn (module docstring of rules.py): a playout started after
    some of its actions plays the rest of *that* turn, so its trace replays through the checked
    ``apply`` to the playout's own end, and the lean loop (fast.py) makes the same choices."""
    rng = random.Random(seed)
    g = SubmarineGame(2 + seed % 4, seed=seed, options=options)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    while not g.is_over and g.at_turn_boundary:  # land inside a turn
        g.apply(rng.choice(g.legal_actions()))
    assume(not g.is_over)
    played = g.clone()
    trace: list[str] = []
    played.random_playout(random.Random(seed), trace=trace)
    replayed = g.clone()
    for a in trace:
        replayed.apply(a)
    assert played.is_over and replayed.state_dict() == played.state_dict()
    fast_trace: list[str] = []
    playout(FastState.from_game(g), random.Random(seed), trace=fast_trace)
    assert fast_trace == trace
