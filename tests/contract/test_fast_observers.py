"""The fast observation paths give exactly the reference numbers, for every registered game
with OpenSpiel rules (nothing here names a game); the other calls the adapter answers in Python
(``legal_actions``, ``is_chance_node``, ``rewards``) give what pyspiel's own path gives.

The OpenSpiel adapter answers ``information_state_tensor`` / ``observation_tensor`` in Python
(from the encoding's tracker where it has one, and reusing each player's last list of floats),
where pyspiel's own path writes the tensor with the game's observer from C++.  The numbers must
be the same as

* the reference: ``Encoding.observe(engine.view(p))`` for the observation, then (information
  state) the config's ``knowledge_tensor`` of what ``p`` knows and the share of the deal done;
* pyspiel's own C++ path (``pyspiel.State.information_state_tensor(state, p)``),

at every state of random games (deal nodes included), for every player, at every player count,
on the state played on, on clones and on deserialised states, asked in any order, with and
without ``skip_forced``.  A game's own deal observation (The Crew: a seat sees its cards arrive)
is the reference while the deal goes on, and its knowledge tensor (The Crew: the order of the
cards played, so the information state tensor is observation + play order + deal share).
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest

import dsa_widget.adapters.openspiel  # noqa: F401  (registers every game's OpenSpiel rules)
from dsa_widget.core.protocol import CHANCE
from dsa_widget.core.registry import GameSpec, games

SPIEL = [g for g in games() if g.openspiel is not None]


def reference(state: Any, player: int, recall: bool) -> np.ndarray:
    """The tensor built the plain way, from the seat's view."""
    c = state.core
    cfg = c.cfg
    dealing = c.engine is None
    engine = cfg.placeholder if dealing else c.engine
    own_deal = getattr(cfg, "deal_observation", None) if dealing else None
    if own_deal is not None:  # what the seat observes of the deal (The Crew: its own cards)
        parts = [np.asarray(own_deal(c.dealt, player), np.float32)]
    else:
        parts = [np.asarray(cfg.encoding.observe(engine.view(player)), np.float32)]
    if recall:
        known = {} if dealing else cfg.knowledge(engine, player)
        parts.append(np.asarray(cfg.knowledge_tensor(known), np.float32))
        parts.append(np.asarray([len(c.dealt) / cfg.deal_length if dealing else 1.0], np.float32))
    return np.concatenate(parts)


def check(state: Any, players: int, rng: random.Random) -> None:
    # the other calls answered in Python: as pyspiel's own
    assert state.is_chance_node() is pyspiel.State.is_chance_node(state)
    assert state.rewards() == pyspiel.State.rewards(state)
    assert state.legal_actions() == pyspiel.State.legal_actions(state)
    for p in range(players + 1):
        assert state.legal_actions(p) == pyspiel.State.legal_actions(state, p)
    order = list(range(players))
    rng.shuffle(order)
    for p in order:
        for recall, fast, slow in (
            (True, state.information_state_tensor, pyspiel.State.information_state_tensor),
            (False, state.observation_tensor, pyspiel.State.observation_tensor),
        ):
            got = fast(p)
            assert type(got) is list and all(type(x) is float for x in got[:3])
            want = reference(state, p, recall)
            assert np.array_equal(np.asarray(got, np.float32), want), (p, recall, str(state)[:200])
            assert got == slow(state, p)


def seat_counts(spec: GameSpec) -> list[int]:
    lo, hi = spec.seats
    return sorted({lo, min(hi, lo + 2), hi})


@pytest.mark.parametrize("skip", [False, True], ids=["all", "skip_forced"])
@pytest.mark.parametrize("spec", SPIEL, ids=[g.name for g in SPIEL])
def test_the_python_tensors_equal_the_reference_and_pyspiels_own(spec: GameSpec, skip: bool) -> None:
    rules = spec.openspiel_rules()
    for players in seat_counts(spec):
        game = pyspiel.load_game(rules.short_name, {"players": players, "skip_forced": skip})
        for seed in range(2):
            rng = random.Random(1000 * players + seed)
            state = game.new_initial_state()
            k = 0
            while not state.is_terminal() and k < 200:
                k += 1
                if state.is_chance_node():
                    if rng.random() < 0.03:
                        check(state, players, rng)
                    actions, probs = zip(*state.chance_outcomes(), strict=True)
                    state.apply_action(rng.choices(actions, probs)[0])
                    continue
                if rng.random() < 0.5:
                    check(state, players, rng)
                if rng.random() < 0.05:  # a clone, and a state read back, observed from scratch
                    check(state.clone(), players, rng)
                    check(
                        pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))[1],
                        players,
                        rng,
                    )
                state.apply_action(rng.choice(state.legal_actions()))
            check(state, players, rng)


@pytest.mark.parametrize("spec", SPIEL, ids=[g.name for g in SPIEL])
def test_a_bad_player_gets_pyspiels_own_error(spec: GameSpec) -> None:
    game = pyspiel.load_game(spec.openspiel_rules().short_name)
    state = game.new_initial_state()
    for bad in (-1, game.num_players()):
        with pytest.raises(pyspiel.SpielError):
            state.information_state_tensor(bad)
        with pytest.raises(pyspiel.SpielError):
            state.observation_tensor(bad)
    with pytest.raises(TypeError):
        state.observation_tensor("0")


@pytest.mark.parametrize("spec", SPIEL, ids=[g.name for g in SPIEL])
def test_get_type_is_pyspiels_own(spec: GameSpec) -> None:
    """``game.get_type()``, answered in Python (one shared read-only object, asked twice a step
    by ``rl_environment``), is the type pyspiel's own call copies, for every player count and
    ``returns`` mode; it cannot be changed through the shared object."""
    lo, hi = spec.seats
    for players in (lo, hi):
        for mode in ("score", "win"):
            game = pyspiel.load_game(spec.openspiel_rules().short_name, {"players": players, "returns": mode})
            mine = game.get_type()
            assert mine == pyspiel.Game.get_type(game) and mine.short_name == game.get_type().short_name
            with pytest.raises(AttributeError):
                mine.short_name = "changed"


TRACKED = [
    g for g in games() if g.encoding is not None and callable(getattr(g.encoding_class(), "tracker", None))
]


@pytest.mark.parametrize("spec", TRACKED, ids=[g.name for g in TRACKED])
def test_an_encodings_tracker_equals_its_observe_for_every_seat(spec: GameSpec) -> None:
    """``encoding.tracker(game).observe(seat)`` is ``encoding.observe(game.view(seat))``, as
    float32, at every decision of random games, every seat, every player count, the seats
    asked in a random order and not at every state (a tracker catches up over several steps)."""
    for players in range(spec.seats[0], spec.seats[1] + 1):
        for seed in range(2):
            rng = random.Random(100 * players + seed)
            game = spec.new_game(players=players, seed=seed)
            enc = spec.encoding_class()(game)
            tracker = enc.tracker(game, lambda size: np.zeros(size, np.float32))
            for _ in range(150):
                while game.to_move == CHANCE:
                    game.sample_chance()
                if rng.random() < 0.6:
                    seats = list(range(players))
                    rng.shuffle(seats)
                    for seat in seats:
                        want = np.asarray(enc.observe(game.view(seat)), np.float32)
                        assert np.array_equal(np.asarray(tracker.observe(seat)), want), (players, seat)
                if game.is_over:
                    break
                game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("spec", SPIEL, ids=[g.name for g in SPIEL])
def test_clones_that_play_on_differently_keep_their_own_knowledge(spec: GameSpec) -> None:
    """A seat's information state is what it has seen in *its* game: clones of one state that
    play on differently (in Deep Sea Adventure they bank different chips, so a seat comes to
    know different values) each give the information state of a fresh copy of themselves.
    Sharing what was learnt after the clone failed this (and gave a seat values it never saw)."""
    game = pyspiel.load_game(spec.openspiel_rules().short_name, {"players": spec.seats[0]})
    for seed in range(6):
        rng = random.Random(seed)
        state = game.new_initial_state()
        for _ in range(rng.randrange(30)):
            if state.is_terminal():
                break
            if state.is_chance_node():
                state.apply_action(rng.choice(state.chance_outcomes())[0])
            else:
                state.apply_action(rng.choice(state.legal_actions()))
        for branch in [state.clone() for _ in range(3)]:
            for _ in range(200):
                if branch.is_terminal():
                    break
                if branch.is_chance_node():
                    branch.apply_action(rng.choice(branch.chance_outcomes())[0])
                else:
                    branch.apply_action(rng.choice(branch.legal_actions()))
            fresh = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, branch))[1]
            for p in range(game.num_players()):
                assert branch.information_state_string(p) == fresh.information_state_string(p)
                assert branch.information_state_tensor(p) == fresh.information_state_tensor(p)


def _played(state: Any, rng: random.Random, decisions: int) -> Any:
    """``state`` after ``decisions`` random decisions (and the chance nodes between)."""
    while decisions and not state.is_terminal():
        if state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
            continue
        state.apply_action(rng.choice(state.legal_actions()))
        decisions -= 1
    return state


@pytest.mark.parametrize("spec", SPIEL, ids=[g.name for g in SPIEL])
def test_a_players_list_follows_whichever_state_is_asked(spec: GameSpec) -> None:
    """Each player's last list is reused for the next call, whatever state it is asked of: a
    state in the deal, two states that differ in what the seats know, and the first again, in
    turn, each give the reference tensor.  (The knowledge part is not compared when it is the
    same array as last time: a tensor written another way in between must not be trusted.)"""
    game = pyspiel.load_game(spec.openspiel_rules().short_name, {"players": spec.seats[0]})
    rng = random.Random(7)
    first = _played(game.new_initial_state(), rng, 12)
    later = _played(first.clone(), rng, 12)
    dealing = game.new_initial_state()
    if dealing.is_chance_node():
        dealing.apply_action(dealing.chance_outcomes()[0][0])
    for state in [first, dealing, first, later, first, dealing, later, later, first]:
        for p in range(game.num_players()):
            for recall, fast in ((True, state.information_state_tensor), (False, state.observation_tensor)):
                want = reference(state, p, recall)
                assert np.array_equal(np.asarray(fast(p), np.float32), want), (p, recall, str(state)[:100])
