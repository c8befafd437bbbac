"""Pig's fast observation (:class:`~dsa_widget.pig.encoding.PigTracker`) gives exactly the
reference ``PigEncoding.observe(game.view(seat))`` for every seat, at every moment of a game
(rolling, after a one, at the end)."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.pig import encoding as pig_encoding
from dsa_widget.pig.encoding import PigEncoding, PigTracker
from dsa_widget.pig.rules import PigGame

ENC = PigEncoding()


def _walk(players: int, goal: int, seed: int) -> None:
    game = PigGame(players, goal=goal, seed=seed)
    tracker = ENC.tracker(game)
    rng = random.Random(seed)
    while True:
        for seat in range(players):
            want = np.asarray(ENC.observe(game.view(seat)), np.float32)
            assert np.array_equal(tracker.observe(seat), want)
            # the list the OpenSpiel adapter reads: the float32 numbers as Python floats
            assert tracker.observe_list(seat) == want.tolist()
        if game.is_over:
            return
        if game.chance_outcomes():
            game.sample_chance()
        else:
            game.apply(rng.choice(game.legal_actions()))


@settings(max_examples=30, deadline=None)
@given(players=st.integers(2, 6), goal=st.integers(1, 40), seed=st.integers(0, 2**32))
def test_the_tracker_equals_the_reference(players: int, goal: int, seed: int) -> None:
    _walk(players, goal, seed)


def test_a_wrong_tracker_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a tracker that forgets to rotate the scores to the seat differs."""
    real = pig_encoding._observe
    monkeypatch.setattr(pig_encoding, "_observe", lambda me, *a: real(0, *a))
    monkeypatch.setattr(
        PigEncoding,
        "observe",
        lambda self, v: real(v.seat or 0, v.goal, v.scores, None if v.winners else v.current, v.turn_total),
    )
    with pytest.raises(AssertionError):
        _walk(3, 30, 1)


def test_a_wrong_list_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The list check can fail too: a list made from the float64 fractions, not float32's, differs
    (1/3 of the goal is no float32)."""
    monkeypatch.setattr(pig_encoding, "_float32", lambda x: x)
    pig_encoding._float32_fractions.cache_clear()
    try:
        with pytest.raises(AssertionError):
            _walk(3, 30, 1)
    finally:
        pig_encoding._float32_fractions.cache_clear()


def test_scores_beyond_play_are_listed_too() -> None:
    """A game loaded from a view may hold a score past any a game reaches in play (goal + 5):
    its list is still the array's."""
    game = PigGame(3, goal=20, seed=1)
    view = game.view(None)
    odd = PigGame.from_view(type(view)(**{**view.__dict__, "scores": (0, 97, 25), "turn_total": 41}))
    tracker = PigTracker(odd)
    for seat in range(3):
        assert tracker.observe_list(seat) == tracker.observe(seat).tolist()
