"""The Crew's observation tensors, answered in Python and written in place, are the reference
numbers: ``CrewEncoding.observe(engine.view(seat))``, for every player at every player count.

The OpenSpiel tensors of every registered game, The Crew's included, are checked against the
reference and pyspiel's own C++ path by tests/contract/test_fast_observers.py, at 2, 4 and 5
seats; here its check runs on the seat count it leaves out (3: hands of 13, 13 and 14 cards)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from contract.test_fast_observers import check

import dsa_widget.adapters.crew_openspiel  # noqa: F401  (registers the game)
from dsa_widget.crew.encoding import CrewEncoding

ENC = CrewEncoding()


def test_the_openspiel_tensors_at_three_seats_are_the_reference_and_pyspiels_own() -> None:
    game = pyspiel.load_game("python_the_crew_deep_sea", {"players": 3})
    for seed in range(2):
        rng = random.Random(30 + seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                if rng.random() < 0.05:
                    check(state, 3, rng)
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                continue
            check(state, 3, rng)
            state.apply_action(rng.choice(state.legal_actions()))
        check(state, 3, rng)


@pytest.mark.parametrize("skip", [False, True], ids=["all", "skip_forced"])
@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_pettingzoo_observation_written_in_place_is_the_reference(players: int, skip: bool) -> None:
    from dsa_widget.adapters.crew_pettingzoo import crew_env

    e = crew_env(players=players, skip_forced=skip)
    raw = e.unwrapped
    rng = random.Random(players)
    for seed in range(2):
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _, terminated, truncated, _ = e.last()
            for other in raw.possible_agents:
                want = np.asarray(ENC.observe(raw.game.view(raw.seat_of[other])), np.float32)
                assert np.array_equal(raw.observe(other)["observation"], want)
            e.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
