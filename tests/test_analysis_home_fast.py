"""The fast exact DP of home_chance against the straightforward reference DP, exact equality.

``_home_reference.reference_chance`` is the original algorithm (a plain recursion over tuples,
no cache);
``home_chance`` must give the very same fractions, cold and warm, for every step, choice,
seat and policy.
"""

from __future__ import annotations

import random

import helpers
import pytest
from home_reference import reference_chance

from dsa_widget import Game
from dsa_widget.deep_sea.analysis import AnalysisError, home_chance, home_chances
from dsa_widget.deep_sea.analysis import home as home_mod


def random_state(seed: int) -> Game:
    """A game stopped at a random moment (any step), often crowded, any round."""
    return helpers.random_state(seed, max_steps=300, stop=0.03, events=False, history=False)


def policies(rng: random.Random, n: int):
    k = rng.random()
    if k < 0.5:
        others = "home"
    elif k < 0.75:
        others = "keep"
    else:
        others = {q: rng.choice(["home", "keep"]) for q in range(n) if rng.random() < 0.7}
    me = "home" if rng.random() < 0.75 else "keep"
    return others, me


@pytest.mark.slow
def test_fast_equals_reference_on_random_states():
    compared = 0
    seed = 0
    while compared < 400:
        seed += 1
        g = random_state(seed)
        if g.is_over:
            continue
        rng = random.Random(seed)
        n = g.setup.n_players
        d = rng.randrange(n)
        others, me = policies(rng, n)
        for choice in (None, *g.legal_choices()):
            try:
                want = reference_chance(g, d, others=others, me=me, choice=choice, max_states=20_000)
            except AnalysisError:
                continue
            if rng.random() < 0.5:
                home_mod.clear_cache()
            got = home_chance(g, d, others=others, me=me, choice=choice, max_states=None)
            assert got == want, (seed, d, others, me, choice)
            compared += 1


@pytest.mark.slow
def test_fast_equals_reference_on_realistic_states():
    """Mid-round positions like the benchmark's (default policies, every legal choice)."""
    compared = 0
    seed = 100_000
    while compared < 150:
        seed += 1
        rng = random.Random(seed)
        g = Game(players=rng.randint(2, 6), seed=seed, events=False, history=False)
        for _ in range(rng.randint(1, 120)):
            if g.is_over:
                break
            q = g.current_player
            k = len(g._carry[q])
            if g.step == "search":
                g.apply(
                    "take"
                    if "take" in g.legal_choices() and not g._up[q] and k < rng.choice([1, 2, 3])
                    else "none"
                )
            elif g.step == "turn_back":
                g.apply("back" if k >= 2 or g.air < g._pos[q] or rng.random() < 0.2 else "continue")
            else:
                g.apply(g.legal_choices()[0])  # roll, or lay the chips as picked up
        if g.is_over:
            continue
        d = rng.randrange(g.setup.n_players)
        try:
            want = {c: reference_chance(g, d, choice=c, max_states=30_000) for c in g.legal_choices()}
        except AnalysisError:
            continue
        home_mod.clear_cache()
        assert home_chances(g, d) == want, seed
        compared += 1


def crowded(players: int = 4, seed: int = 1) -> Game:
    """Every diver dives, takes his first chip and keeps diving until 20 air are left
    (four of them: about 0.15 s exact; six: past the default state budget)."""
    g = Game(players=players, seed=seed, events=False, history=False)
    while g.round == 1 and g.air > 20 and not g.is_over:
        q = g.current_player
        if g.step == "search":
            g.apply("take" if "take" in g.legal_choices() and not g._carry[q] else "none")
        elif g.step == "turn_back":
            g.apply("continue")
        else:
            g.apply(g.legal_choices()[0])  # roll, or lay the chips as picked up
    return g


def test_fast_budget_and_cache():
    """The state budget still raises, and answers stay the same after a failed call."""
    g = crowded(players=6, seed=3)
    home_mod.clear_cache()
    with pytest.raises(AnalysisError, match="game states"):
        home_chance(g, max_states=10)
    small = Game(players=["Ann", "Bob"], path=[(1, 0)] * 8, air=6, seed=0)
    small.play_turn(dice=(2, 2), search="take")
    small.play_turn(dice=(1, 1), search="take")
    small.play_turn(back=True, dice=(1, 1), search="take")
    small.play_turn(back=True, dice=(3, 3))
    assert home_chance(small) == reference_chance(small) == home_chance(small)


@pytest.mark.slow
def test_fast_equals_reference_with_heavy_loads():
    """Divers carrying many items (6 or more cannot move at all) and tiny or long paths."""
    compared = 0
    heavy = 0
    for seed in range(60):
        rng = random.Random(seed)
        n = rng.randint(2, 4)
        length = rng.choice([4, 8, 12, 20])
        air = rng.randint(8, 60)
        g = Game(players=n, path=[(1, 0)] * length, air=air, seed=seed, events=False, history=False)
        while not g.is_over and g.round == 1:
            q = g.current_player
            if g.step in ("turn_back", "roll") and rng.random() < 0.3:
                if rng.random() < 0.3:  # load a diver in the water heavily (a what-if)
                    w = rng.randrange(n)
                    if g._pos[w] > 0:
                        c = list(g._carry)
                        c[w] = tuple(c[w]) + ((0,),) * rng.randint(3, 6)
                        g._carry = type(g._carry)(c)
                d = rng.randrange(n)
                others = rng.choice(["home", "keep"])
                try:
                    want = reference_chance(g, d, others=others, max_states=20_000)
                except AnalysisError:
                    want = None
                if want is not None:
                    home_mod.clear_cache()
                    assert home_chance(g, d, others=others, max_states=None) == want, (seed, d, others)
                    compared += 1
                    heavy += max(len(c) for c in g._carry) >= 6
            if g.step == "search":
                g.apply("take" if "take" in g.legal_choices() else "none")
            elif g.step == "turn_back":
                g.apply("back" if len(g._carry[q]) >= rng.choice([3, 6, 8, 99]) else "continue")
            else:
                g.apply(g.legal_choices()[0])  # roll, or lay the chips as picked up
    assert compared > 100 and heavy > 5, (compared, heavy)


def test_max_seconds_gives_up_cleanly_and_keeps_what_was_solved():
    """A time limit raises AnalysisError saying so; the next call (no limit) still gets the exact
    answer, the same as a cold solver's (a partly solved state is never remembered)."""
    g = crowded()
    home_mod.clear_cache()
    with pytest.raises(AnalysisError, match=r"more than 0\.001 s"):
        home_chance(g, max_states=None, max_seconds=0.001)
    warm = home_chance(g, max_states=None)
    home_mod.clear_cache()
    assert home_chance(g, max_states=None) == warm
    with pytest.raises(AnalysisError, match="max_seconds"):
        home_chance(g, max_seconds=-1)
