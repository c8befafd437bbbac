"""Submarine as the OpenSpiel game ``python_submarine`` (dsa_widget.submarine.openspiel through
the generic dsa_widget.adapters.openspiel): random_sim_test, the exact deal, and what a seat
knows (SUBMARINE.md 3: a seat sees its own hand; nobody sees a pile, another hand or the
card a waiting player tucks under its pile, 5.2)."""

from __future__ import annotations

import math
from fractions import Fraction

import pyspiel
import pytest

import dsa_widget.adapters.openspiel  # noqa: F401  (registers python_submarine)
from dsa_widget.submarine.openspiel import RULES

SHORT = {"turn_limit": 30}


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2},
        {"players": 5, "activation_mode": "independent", "board_jokers": "collectable"},
        {"players": 3, "exchange_on_arrival": True, "deck": 75, "payment_shortfall": "use_hand"},
    ],
)
def test_random_sim_test_with_serialisation(params):
    game = pyspiel.load_game("python_submarine", {**params, **SHORT})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_parameters_reach_the_engine_and_bad_ones_are_refused():
    game = pyspiel.load_game("python_submarine", {"players": 4, "tie_rule": "most_cards", **SHORT})
    assert (game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()) == (4, 4648, 60)
    assert game.max_utility() == 12 and game.max_game_length() == 60 + 4 * 15 + 1 + 4 * 4 + 41 * 30
    with pytest.raises(ValueError, match="deck is 60 or 75"):
        pyspiel.load_game("python_submarine", {"deck": 52})
    with pytest.raises(ValueError, match="tie_rule"):
        pyspiel.load_game("python_submarine", {"tie_rule": "coin"})
    assert RULES.params_of(RULES.configure({"players": 2}).placeholder)["players"] == 2


def deal(state, outcomes=None):
    """Play the deal: ``outcomes[i]`` where given, else the first outcome of each node."""
    outcomes = outcomes or {}
    probability = Fraction(1)
    while state.is_chance_node():
        i = len(state.history())
        exact = dict(state.chance_outcomes_exact())
        assert sum(exact.values()) == 1
        a = outcomes.get(i, min(exact))
        probability *= exact[a]
        state.apply_action(a)
    return probability


def test_the_deal_is_exact_tiles_then_piles_then_the_start_player():
    game = pyspiel.load_game("python_submarine", {"players": 2, **SHORT})
    state = game.new_initial_state()
    p = deal(state)
    # 60 tiles in some order (1/60!), 30 cards from a box of 12 per colour dealt in colour order,
    # then the start player (1/2)
    cards = Fraction(1)
    left = [12] * 5
    for k in [0] * 12 + [1] * 12 + [2] * 6:
        cards *= Fraction(left[k], sum(left))
        left[k] -= 1
    assert p == Fraction(1, math.factorial(60)) * cards / 2
    engine = state.core.engine
    assert engine.tiles("1.1") == ("T01K1",) and engine.tiles("6.4") == tuple(engine.tiles("6.4"))
    assert engine.hand(0) == ("K1", "K1", "K1") and engine.pile(1)[-3:] == ("K3", "K3", "K3")
    assert state.current_player() == 0 and state.legal_actions() == list(range(6))


def play_to_a_wait(state):
    """Place, then seat 0 sails straight to the end (12: "sail end") and seat 1 plays its first
    legal actions, until seat 0 waits there with cards to exchange."""
    while state.core.engine.phase != "wait":
        legal = state.legal_actions()
        state.apply_action(12 if state.current_player() == 0 and 12 in legal else legal[0])
    return state


def test_another_seats_exchange_is_hidden_and_ones_own_remembered():
    game = pyspiel.load_game("python_submarine", {"players": 2, **SHORT})
    state = game.new_initial_state()
    deal(state, {60: 2, 61: 3, 62: 4})  # seat 0 starts with K3, K4, K5
    play_to_a_wait(state)
    actor = state.current_player()
    other = 1 - actor
    exchanges = [a for a in state.legal_actions() if state.action_to_string(actor, a).startswith("exchange")]
    assert len(exchanges) >= 2
    after = []
    for a in exchanges[:2]:
        s = state.clone()
        s.apply_action(a)
        after.append(s)
    a, b = after
    # the other seat cannot tell the two exchanges apart: not from its observation, nor its
    # information state (the public history shows "an exchange")
    assert a.information_state_string(other) == b.information_state_string(other)
    assert a.observation_tensor(other) == b.observation_tensor(other)
    assert a.observation_string(other) == b.observation_string(other)
    # the exchanging seat remembers which card it tucked away
    assert a.information_state_string(actor) != b.information_state_string(actor)


def test_a_seat_cannot_tell_deals_apart_that_differ_in_what_it_cannot_see():
    """Two deals alike but for seat 1's pile: seat 0 sees the same until cards change hands."""
    game = pyspiel.load_game("python_submarine", {"players": 2, **SHORT})
    a, b = game.new_initial_state(), game.new_initial_state()
    deal(a)
    deal(b, {75 + i: 4 - i % 4 for i in range(15)} | {90: 0})
    assert a.core.engine.hand(1) != b.core.engine.hand(1)
    public_observer = game.make_py_observer(
        pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    steps = 0
    while a.core.engine.phase in ("place", "sail") and steps < 40:
        assert a.information_state_string(0) == b.information_state_string(0)
        assert a.observation_tensor(0) == b.observation_tensor(0)
        for seat in (0, 1):
            public_observer.set_from(a, seat)
            ta = public_observer.tensor.copy()
            public_observer.set_from(b, seat)
            assert (ta == public_observer.tensor).all()
        assert a.information_state_string(1) != b.information_state_string(1)
        legal = a.legal_actions()
        assert legal == b.legal_actions()
        a.apply_action(legal[-1])
        b.apply_action(legal[-1])
        steps += 1
    assert steps > 10
