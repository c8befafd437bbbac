"""The generic OpenSpiel adapter works out a position's knowledge epoch, legal action numbers
and whose turn it is once and reuses them for every read: a state that moves on, or a clone
that plays on, must not reuse those of the position it left (the information state tensor
would keep the old trick history, the legal actions the old offer)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel

from dsa_widget.adapters import crew_openspiel  # noqa: F401 - registers The Crew's game

NAME = "python_the_crew_deep_sea"


def _fresh(game: pyspiel.Game, state: pyspiel.State) -> pyspiel.State:
    """The same position with nothing cached (serialised and read back)."""
    return game.deserialize_state(state.serialize())


def test_every_read_after_a_move_equals_a_fresh_state() -> None:
    game = pyspiel.load_game(NAME, {"players": 3})
    rng = random.Random(7)
    for _ in range(3):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            for p in range(game.num_players()):  # reads every seat: caches this position's epoch
                state.information_state_tensor(p)
                state.legal_actions(p)
            clone = state.clone()
            state.apply_action(rng.choice(state.legal_actions()))
            # the clone plays on differently where it can
            if not clone.is_terminal() and not clone.is_chance_node():
                clone.apply_action(rng.choice(clone.legal_actions()))
            for s in (state, clone):
                ref = _fresh(game, s)
                assert (s.current_player(), s.is_terminal()) == (ref.current_player(), ref.is_terminal())
                if s.is_terminal() or s.is_chance_node():
                    continue
                assert s.legal_actions() == ref.legal_actions()
                for p in range(game.num_players()):
                    assert np.array_equal(s.information_state_tensor(p), ref.information_state_tensor(p))
