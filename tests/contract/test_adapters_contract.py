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
  reads the true state; in OpenSpiel, a state resampled from ``q``'s information state (the
  hidden values dealt afresh from what ``q`` knows) gives ``q`` the same observation tensor and
  string and information state tensor and string;
* PettingZoo's ``api_test``, ``seed_test`` and ``render_test`` on
  :func:`~dsa_widget.adapters.pettingzoo.game_env`, with and without ``skip_forced``;
* OpenSpiel's ``random_sim_test`` with serialisation, with and without ``skip_forced``;
* ``skip_forced``: no agent is asked a decision with one legal action, and the game played is
  the one played without the option (the forced actions are applied for the agents);
* the centralised ``state()`` has its space's shape, on both adapters.
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
from pettingzoo.test import api_test, render_test, seed_test

from dsa_widget.adapters.openspiel import load_game
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


def spiel_leak(spec: GameSpec, rng: random.Random) -> tuple[str | None, int]:
    """Where a player's OpenSpiel observation or information state changes in a state
    resampled from its information state (``resample_from_infostate``: what it cannot know
    dealt afresh), or None; and how many resampled states differed from the true one."""
    rules = spec.openspiel_rules()
    changed = 0
    for players in seat_counts(spec):
        game = load_game(rules.short_name, {"players": players})
        for g in range(2):
            s = game.new_initial_state()
            k = 0
            while not s.is_terminal() and k < 300:
                k += 1
                if s.is_chance_node():
                    actions, probs = zip(*s.chance_outcomes(), strict=True)
                    s.apply_action(rng.choices(actions, probs)[0])
                    continue
                if k % 7 == 0:
                    for q in range(game.num_players()):
                        try:
                            twin = s.resample_from_infostate(q, random.Random(k).random)
                        except NotImplementedError as e:  # a game OpenSpiel cannot resample
                            pytest.skip(str(e))
                        changed += str(twin) != str(s)
                        for seen in (
                            lambda st, q=q: st.observation_tensor(q),
                            lambda st, q=q: st.observation_string(q),
                            lambda st, q=q: st.information_state_tensor(q),
                            lambda st, q=q: st.information_state_string(q),
                        ):
                            if seen(twin) != seen(s):
                                return f"{players} players, game {g}, node {k}, player {q}", changed
                s.apply_action(rng.choice(s.legal_actions()))
    return None, changed


@pytest.mark.parametrize("spec", SPIEL, ids=[g.name for g in SPIEL])
def test_no_openspiel_observation_or_information_state_changes_when_the_hidden_information_is_dealt_afresh(
    spec: GameSpec,
) -> None:
    leak, changed = spiel_leak(spec, random.Random(11))
    assert leak is None
    g = spec.new_game(players=spec.seats[0], seed=1)
    if snapshot(g.view(0).sample(random.Random(3))) != snapshot(g):  # a game that hides something
        assert changed > 0, "no resampled state differed: the check proves nothing"


def snapshot(state: Any) -> str:
    """Everything in a state, hidden values included (the registry's ``show``), as text."""
    return json.dumps(game_of(state).show(state), sort_keys=True, default=str)


def _reads_the_truth(enc: Encoding, view: Any, truth: Any) -> list[float]:
    digest = snapshot(truth)
    return [*enc.observe(view), float(hash(digest) % 1000)]


#: games whose every seat knows the whole state at the start (nothing to leak there)
HIDES_NOTHING = {"pig"}
#: games whose engine never asks a decision with one legal action (Deep Sea Adventure's: a turn
#: back a diver may not take is never offered)
NEVER_FORCED = {"deep-sea"}


@pytest.mark.parametrize("spec", ENCODED, ids=[g.name for g in ENCODED])
def test_the_hidden_information_check_catches_an_observation_that_reads_the_truth(spec: GameSpec) -> None:
    g = spec.new_game(players=spec.seats[0], seed=1)
    twin = g.view(0).sample(random.Random(3))
    # a game that hides nothing has no truth to read: its sampled twin is the game itself
    assert (snapshot(twin) == snapshot(g)) == (spec.name in HIDES_NOTHING)
    if spec.name not in HIDES_NOTHING:
        assert first_leak(spec, _reads_the_truth, seeds=(1,)) is not None


# ---------------------------------------------------------------------- PettingZoo


@pytest.mark.parametrize("skip", [False, True], ids=["every-decision", "skip_forced"])
@pytest.mark.parametrize("spec", ENCODED, ids=[g.name for g in ENCODED])
def test_pettingzoo_api_seed_and_render_tests(spec: GameSpec, skip: bool) -> None:
    for players in seat_counts(spec):
        api_test(
            game_env(spec.name, players=players, skip_forced=skip), num_cycles=200, verbose_progress=False
        )
    seed_test(lambda: game_env(spec.name, players=spec.seats[0], skip_forced=skip), num_cycles=200)
    render_test(lambda render_mode=None: game_env(spec.name, render_mode=render_mode, skip_forced=skip))


def play_choosing_only_when_there_is_a_choice(e: Any, seed: int) -> tuple[str, int]:
    """A game of ``e`` from ``reset(seed)``, a random legal action wherever there are two or more
    (a one-action decision draws nothing): the whole final state, and the forced decisions the
    agents were asked."""
    rng = random.Random(seed)
    e.reset(seed=seed)
    forced = 0
    for _agent in e.agent_iter(max_iter=20_000):
        obs, _reward, terminated, truncated, _ = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"]).tolist()
        forced += len(legal) == 1
        e.step(legal[0] if len(legal) == 1 else rng.choice(legal))
    return snapshot(e.unwrapped.game), forced


@pytest.mark.parametrize("spec", ENCODED, ids=[g.name for g in ENCODED])
def test_skip_forced_applies_the_one_action_decisions_and_plays_the_same_game(spec: GameSpec) -> None:
    # docs/AI.md, skip_forced=True: "a decision with exactly one legal action is applied at once;
    # its agent is not asked"
    plain = game_env(spec.name, players=spec.seats[0])
    skipping = game_env(spec.name, players=spec.seats[0], skip_forced=True)
    forced_total = 0
    for seed in range(4):
        final, forced = play_choosing_only_when_there_is_a_choice(plain, seed)
        assert plain.unwrapped.skipped == 0
        same, asked = play_choosing_only_when_there_is_a_choice(skipping, seed)
        assert asked == 0 and skipping.unwrapped.skipped == forced
        assert same == final
        forced_total += forced
    # the games that can ask a one-action decision did, so skipping them was exercised
    assert (forced_total == 0) == (spec.name in NEVER_FORCED), forced_total


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


@pytest.mark.parametrize("skip", [False, True], ids=["every-decision", "skip_forced"])
@pytest.mark.parametrize("spec", SPIEL, ids=[g.name for g in SPIEL])
def test_openspiel_random_sim_test_with_serialisation(spec: GameSpec, skip: bool) -> None:
    # the fewest seats, and a game-length bound where the game has one (a game's own tests run
    # more seats, modes and lengths)
    rules = spec.openspiel_rules()
    short = {k: v for k, v in (("turn_limit", 40), ("max_turns", 40)) if k in rules.parameters}
    game = pyspiel.load_game(rules.short_name, {"players": spec.seats[0], "skip_forced": skip, **short})
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("spec", SPIEL, ids=[g.name for g in SPIEL])
def test_openspiel_skip_forced_offers_no_one_action_decision(spec: GameSpec) -> None:
    rules = spec.openspiel_rules()
    rng = random.Random(3)
    counts = {}
    for skip in (False, True):
        game = pyspiel.load_game(rules.short_name, {"players": spec.seats[0], "skip_forced": skip})
        forced = 0
        for _ in range(3):
            s = game.new_initial_state()
            while not s.is_terminal():
                if s.is_chance_node():
                    actions, probs = zip(*s.chance_outcomes(), strict=True)
                    s.apply_action(rng.choices(actions, probs)[0])
                    continue
                legal = s.legal_actions()
                forced += len(legal) == 1
                s.apply_action(rng.choice(legal))
        counts[skip] = forced
    assert counts[True] == 0
    assert (counts[False] == 0) == (spec.name in NEVER_FORCED), counts


@pytest.mark.parametrize("spec", SPIEL, ids=[g.name for g in SPIEL])
def test_the_centralised_state_has_its_space_shape_on_both_adapters(spec: GameSpec) -> None:
    e = game_env(spec.name, players=spec.seats[0])
    e.reset(seed=1)
    raw = e.unwrapped
    state = raw.state()
    assert state.shape == raw.state_space.shape and state.dtype == np.float32
    assert raw.state_space.contains(state)
    rules = spec.openspiel_rules()
    game = load_game(rules.short_name, {"players": spec.seats[0]})
    s = game.new_initial_state()
    rng = random.Random(2)
    sizes = set()
    for _ in range(200):
        sizes.add(len(s.state_tensor()))
        if s.is_terminal():
            break
        if s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(actions, probs)[0])
        else:
            s.apply_action(rng.choice(s.legal_actions()))
    assert sizes == {raw.state_space.shape[0]}


def test_every_game_with_an_encoding_has_an_openspiel_game() -> None:
    assert [g.name for g in ENCODED] == [g.name for g in SPIEL]


@pytest.mark.parametrize("spec", SPIEL, ids=lambda s: s.name)
def test_openspiel_refuses_a_seat_count_outside_the_game_with_a_value_error(spec: GameSpec) -> None:
    """``pyspiel.load_game(name, {"players": n})`` for an ``n`` the game does not seat raises the
    game's ``ValueError`` naming the players, in every game (Submarine raised ``KeyError: '9'``
    from its per-player-count tables)."""
    rules = spec.openspiel_rules()
    lo, hi = spec.seats
    for n in (lo - 1, hi + 1, 99):
        with pytest.raises(ValueError, match="players") as err:
            pyspiel.load_game(rules.short_name, {"players": n})
        assert not isinstance(err.value, KeyError)
