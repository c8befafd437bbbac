"""The fast path (dsa_widget.submarine.playouts): complete games, the same rules as ``apply``."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dsa_widget.submarine import RecordError, SubmarineGame
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
