"""The AI adapters' contract, run for every registered game that names an encoding (and an
OpenSpiel game for every one that names OpenSpiel rules).  Nothing here names a game: a game
joins by its registry entry (``encoding=``, ``openspiel=``).

* the numbering: every legal action of a played state has a number in range, no two legal
  actions of one state share one, the number leads back to the action
  (:func:`~dsa_widget.core.encoding.legal_action`), and the mask marks exactly them;
* the observation has the layout's size, its fields cover it exactly, every float is finite
  and at least 0;
* hidden information: a state drawn from seat ``q``'s view (everything ``q`` cannot know dealt
  afresh) gives ``q`` the same observation — and the check fails for an observation that
  reads the true state;
* PettingZoo's ``api_test`` and ``seed_test`` on :func:`~dsa_widget.adapters.pettingzoo.game_env`;
* OpenSpiel's ``random_sim_test`` with serialisation.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test, seed_test

import dsa_widget.adapters.openspiel  # noqa: F401  (registers every game's OpenSpiel rules)
from dsa_widget.adapters.pettingzoo import IllegalActionError, game_env
from dsa_widget.core.encoding import Encoding, encoding_of, legal_action
from dsa_widget.core.protocol import CHANCE
from dsa_widget.core.registry import GameSpec, game_of, games

ENCODED = [g for g in games() if g.encoding is not None]
SPIEL = [g for g in games() if g.openspiel is not None]

pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
]


def walk(spec: GameSpec, seed: int, players: int, steps: int) -> Any:
    """States of one game of ``spec`` played at random (``steps`` decisions at most), yielded
    at every decision."""
    rng = random.Random(seed)
    g = spec.new_game(players=players, seed=seed)
    for _ in range(steps):
        while g.to_move == CHANCE:
            g.sample_chance()
        if g.is_over:
            return
        yield g
        g.apply(rng.choice(g.legal_actions()))


def seat_counts(spec: GameSpec) -> list[int]:
    lo, hi = spec.seats
    return sorted({lo, hi})


@pytest.mark.parametrize("spec", ENCODED, ids=[g.name for g in ENCODED])
def test_every_legal_action_has_its_own_number_and_the_mask_marks_them(spec: GameSpec) -> None:
    checked = 0
    for players in seat_counts(spec):
        for seed in (1, 2):
            enc = None
            for g in walk(spec, seed, players, 400):
                enc = enc or encoding_of(g)
                legal = g.legal_actions()
                numbers = [enc.index(a) for a in legal]
                assert len(set(numbers)) == len(legal), legal
                assert all(0 <= k < enc.num_actions for k in numbers)
                assert [legal_action(enc, k, legal) for k in numbers] == list(legal)
                mask = enc.mask(legal)
                assert len(mask) == enc.num_actions and sum(mask) == len(legal)
                assert all(mask[k] == 1 for k in numbers)
                checked += 1
    assert checked > 100


@pytest.mark.parametrize("spec", ENCODED, ids=[g.name for g in ENCODED])
def test_observations_fill_the_layout_with_finite_non_negative_floats(spec: GameSpec) -> None:
    g = spec.new_game(players=spec.seats[1], seed=4)
    enc: Encoding = encoding_of(g)
    assert isinstance(enc, Encoding)
    cells = [c for f in enc.layout for c in range(f.offset, f.offset + f.size)]
    assert cells == list(range(enc.observation_size))
    for g in walk(spec, 4, spec.seats[1], 300):
        for q in range(len(g.players)):
            obs = enc.observe(g.view(q))
            assert len(obs) == enc.observation_size
            assert all(math.isfinite(x) and x >= 0 for x in obs)


# ---------------------------------------------------------------------- hidden information

Observe = Callable[[Encoding, Any, Any], list[float]]


def honest(enc: Encoding, view: Any, truth: Any) -> list[float]:
    return enc.observe(view)


def first_leak(spec: GameSpec, observe: Observe, seeds: tuple[int, ...] = (1, 2)) -> str | None:
    """Where a seat's observation changes when everything it cannot know is dealt afresh
    (``view.sample``), or None.  ``observe(enc, view, truth)`` is the observation under test;
    ``truth`` the state the view is of (an honest observation never reads it)."""
    rng = random.Random(7)
    for players in seat_counts(spec):
        for seed in seeds:
            enc = None
            for i, g in enumerate(walk(spec, seed, players, 300)):
                if i % 5:
                    continue
                enc = enc or encoding_of(g)
                for q in range(len(g.players)):
                    view = g.view(q)
                    twin = view.sample(rng)
                    if observe(enc, twin.view(q), twin) != observe(enc, view, g):
                        return f"{players} players, seed {seed}, decision {i}, seat {q}"
    return None


@pytest.mark.parametrize("spec", ENCODED, ids=[g.name for g in ENCODED])
def test_no_observation_changes_when_the_hidden_information_is_dealt_afresh(spec: GameSpec) -> None:
    assert first_leak(spec, honest) is None


def snapshot(state: Any) -> str:
    """Everything in a state, hidden values included (the registry's ``show``), as text."""
    return json.dumps(game_of(state).show(state), sort_keys=True, default=str)


def _reads_the_truth(enc: Encoding, view: Any, truth: Any) -> list[float]:
    digest = snapshot(truth)
    return [*enc.observe(view), float(hash(digest) % 1000)]


@pytest.mark.parametrize("spec", ENCODED, ids=[g.name for g in ENCODED])
def test_the_hidden_information_check_catches_an_observation_that_reads_the_truth(spec: GameSpec) -> None:
    g = spec.new_game(players=spec.seats[0], seed=1)
    twin = g.view(0).sample(random.Random(3))
    if snapshot(twin) == snapshot(g):
        pytest.skip(f"{spec.title} hides nothing at the start")
    assert first_leak(spec, _reads_the_truth, seeds=(1,)) is not None


# ---------------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("spec", ENCODED, ids=[g.name for g in ENCODED])
def test_pettingzoo_api_and_seed_tests(spec: GameSpec) -> None:
    for players in seat_counts(spec):
        api_test(game_env(spec.name, players=players), num_cycles=200, verbose_progress=False)
    seed_test(lambda: game_env(spec.name, players=spec.seats[0]), num_cycles=200)


@pytest.mark.parametrize("spec", ENCODED, ids=[g.name for g in ENCODED])
def test_pettingzoo_plays_whole_games_and_refuses_an_illegal_action(spec: GameSpec) -> None:
    # "win" where the game offers it (1 shared among the winners), else the game's own rewards
    modes = game_env(spec.name, players=spec.seats[0]).unwrapped.reward_modes
    e = game_env(spec.name, players=spec.seats[0], reward="win" if "win" in modes else None)
    e.reset(seed=2)
    obs = e.last()[0]
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = snapshot(e.unwrapped.game)
    with pytest.raises(IllegalActionError, match="is not legal"):
        e.step(illegal)
    assert snapshot(e.unwrapped.game) == before
    rng = random.Random(5)
    total: dict[str, float] = {}
    for agent in e.agent_iter(max_iter=20_000):
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] = total.get(agent, 0.0) + reward
        action = None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        e.step(action)
    game = e.unwrapped.game
    assert game.is_over
    if "win" in modes:
        assert math.isclose(sum(total.values()), 1.0)
    else:  # the game's own rewards: what its encoding gives for the final state
        assert [total[a] for a in e.unwrapped.possible_agents] == e.unwrapped.encoding.final_rewards(
            game, e.unwrapped.reward
        )


def test_a_game_without_an_encoding_is_refused() -> None:
    bare = [g for g in games() if g.encoding is None]
    for spec in bare:
        with pytest.raises(TypeError, match="no action numbering"):
            game_env(spec.name)


# ---------------------------------------------------------------------- OpenSpiel


@pytest.mark.parametrize("spec", SPIEL, ids=[g.name for g in SPIEL])
def test_openspiel_random_sim_test_with_serialisation(spec: GameSpec) -> None:
    # the fewest seats, and a game-length bound where the game has one (a game's own tests run
    # more seats, modes and lengths)
    rules = spec.openspiel_rules()
    short = {k: v for k, v in (("turn_limit", 40), ("max_turns", 40)) if k in rules.parameters}
    game = pyspiel.load_game(rules.short_name, {"players": spec.seats[0], **short})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


def test_every_game_with_an_encoding_has_an_openspiel_game() -> None:
    assert [g.name for g in ENCODED] == [g.name for g in SPIEL]
