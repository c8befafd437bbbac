"""The Crew's OpenSpiel observation tensors, answered in Python and written in place, are the
reference numbers: ``CrewEncoding.observe(engine.view(seat), origin=seat)`` (the cards dealt so
far while dealing) and pyspiel's own C++ path, for every player at every player count."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest

import dsa_widget.adapters.crew_openspiel  # noqa: F401  (registers the game)
from dsa_widget.crew.encoding import CrewEncoding

ENC = CrewEncoding()


def reference(state: pyspiel.State, player: int) -> np.ndarray:
    c = state.core
    cfg = c.cfg
    seat = cfg.humans[player]
    if c.engine is None:
        obs = ENC.observe_deal(cfg.seats, cfg.dummy, seat, cfg.seen_cards(cfg.deal(c.dealt), seat))
    else:
        obs = ENC.observe(c.engine.view(seat), origin=seat)
    return np.asarray(obs, np.float32)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_python_observation_tensor_is_the_reference(players: int) -> None:
    game = pyspiel.load_game("python_the_crew_deep_sea", {"players": players})
    for seed in range(2):
        rng = random.Random(10 * players + seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
                if rng.random() > 0.05:
                    continue
            # the other calls answered in Python: as pyspiel's own
            assert state.is_chance_node() is pyspiel.State.is_chance_node(state)
            assert state.rewards() == pyspiel.State.rewards(state)
            assert state.legal_actions() == pyspiel.State.legal_actions(state)
            for p in range(players + 1):
                assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
            order = list(range(players))
            rng.shuffle(order)
            for p in order:
                got = state.observation_tensor(p)
                assert np.array_equal(np.asarray(got, np.float32), reference(state, p))
                assert got == pyspiel.State.observation_tensor(state, p)
            if not state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
        for p in range(players):
            assert state.observation_tensor(p) == pyspiel.State.observation_tensor(state, p)


def test_a_bad_player_gets_pyspiels_own_error() -> None:
    state = pyspiel.load_game("python_the_crew_deep_sea", {"players": 3}).new_initial_state()
    with pytest.raises(pyspiel.SpielError):
        state.observation_tensor(3)


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
