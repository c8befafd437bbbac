"""The exact probability functions checked against the engine itself.

Two kinds of check:

* exhaustive: drive copies of a real Game through every dice outcome (9 per
  roll) and add up the chances — this is the engine's own exact answer;
* sampled: play the engine with random dice many times; the exact answer
  must lie within 4 standard errors of the observed frequency.
"""

from __future__ import annotations

import math
import random
from fractions import Fraction

import pytest
from helpers import random_state

from dsa_widget import Game
from dsa_widget.deep_sea.analysis import (
    AnalysisError,
    Exact,
    carried_value,
    carried_value_distribution,
    chip_mean,
    dice_sum_distribution,
    home_chance,
    home_chances,
    landing_distribution,
    landing_distributions,
    steps_distribution,
)
from dsa_widget.deep_sea.rules import DICE_OUTCOMES

# ---------------------------------------------------------------- random states


def states(n: int, start: int = 0, want=lambda g: not g.is_over):
    out = []
    seed = start
    while len(out) < n:
        g = random_state(seed)
        seed += 1
        if want(g):
            out.append(g)
    return out


def within_4se(p: Fraction, hits: int, n: int) -> bool:
    freq = hits / n
    pf = float(p)
    se = math.sqrt(pf * (1 - pf) / n)
    return abs(freq - pf) <= 4 * se + 1e-12


# ---------------------------------------------------------------- dice (RULES.md worked numbers)


def test_dice_sum_worked_numbers():
    d = dice_sum_distribution()
    assert dict(d) == {
        2: Fraction(1, 9),
        3: Fraction(2, 9),
        4: Fraction(3, 9),
        5: Fraction(2, 9),
        6: Fraction(1, 9),
    }
    assert d.mean == 4 and d.total == 1
    assert isinstance(d[2], Exact) and d.floats()[4] == pytest.approx(1 / 3)


def test_steps_worked_numbers():
    assert dict(steps_distribution(2)) == {
        0: Fraction(1, 9),
        1: Fraction(2, 9),
        2: Fraction(3, 9),
        3: Fraction(2, 9),
        4: Fraction(1, 9),
    }
    assert steps_distribution(2).mean == 2
    assert dict(steps_distribution(3)) == {
        0: Fraction(3, 9),
        1: Fraction(3, 9),
        2: Fraction(2, 9),
        3: Fraction(1, 9),
    }
    assert steps_distribution(3).mean == Fraction(10, 9)
    assert dict(steps_distribution(0)) == dict(dice_sum_distribution())
    assert dict(steps_distribution(9)) == {0: 1}


def test_steps_against_dice_outcomes():
    for k in range(8):
        counts: dict[int, int] = {}
        for a, b in DICE_OUTCOMES:
            s = max(0, a + b - k)
            counts[s] = counts.get(s, 0) + 1
        assert dict(steps_distribution(k)) == {s: Fraction(c, 9) for s, c in counts.items()}


def test_steps_bad_input():
    for bad in (-1, 1.5, "2", True):
        with pytest.raises(AnalysisError):
            steps_distribution(bad)
    assert issubclass(AnalysisError, ValueError)


# ---------------------------------------------------------------- landing


def engine_landing(g: Game, choice: str, dice: tuple[int, int]) -> int:
    """Where the engine puts the current diver after ``choice`` and ``dice``."""
    h = g.copy(history=False, events=True)
    p = h.current_player
    start = len(h._events)
    if choice in ("back", "continue"):
        h.apply(choice)
    h.roll(dice)
    moves = [e for e in h._events[start:] if e["type"] == "move" and e["seat"] == p]
    assert len(moves) == 1
    return moves[0]["to"]


def test_landing_exhaustive_against_engine():
    """Every dice outcome forced on a real Game: the distribution is exactly right."""
    checked = jumps = ends = homes = stacks = later = 0
    for g in states(400, want=lambda g: g.step in ("turn_back", "roll")):
        stacks += any(len(it) > 1 for c in g._carry for it in c) or any(x and len(x) > 1 for x in g._path)
        later += g.round > 1
        dists = landing_distributions(g)
        assert set(dists) == set(g.legal_choices())
        for choice, dist in dists.items():
            counts: dict[int, int] = {}
            for dice in DICE_OUTCOMES:
                to = engine_landing(g, choice, dice)
                counts[to] = counts.get(to, 0) + 1
            assert dict(dist) == {k: Fraction(c, 9) for k, c in counts.items()}, (g.state_dict(), choice)
            assert dist.total == 1
            checked += 1
            p = g.current_player
            occ = {x for q, x in enumerate(g._pos) if q != p and x > 0}
            if occ:
                jumps += 1
            if g.path_length in dist or (
                dist and max(dist) == max(set(range(1, g.path_length + 1)) - occ, default=0)
            ):
                ends += 1
            if 0 in dist and (choice == "back" or g._up[p]):
                homes += 1
    assert checked > 400 and jumps > 100 and ends > 50 and homes > 50 and stacks > 50 and later > 100


def test_landing_sampled_against_engine():
    rng = random.Random(7)
    for g in states(15, start=1000, want=lambda g: g.step in ("turn_back", "roll")):
        for choice, dist in landing_distributions(g).items():
            n = 1500
            counts: dict[int, int] = {}
            for _ in range(n):
                to = engine_landing(g, choice, rng.choice(DICE_OUTCOMES))
                counts[to] = counts.get(to, 0) + 1
            assert set(counts) <= set(dist)
            for k, p in dist.items():
                assert within_4se(p, counts.get(k, 0), n), (k, p, counts)


def test_landing_from_view_equals_game():
    for g in states(40, start=2000, want=lambda g: g.step in ("turn_back", "roll")):
        for seat in range(g.setup.n_players):
            assert landing_distributions(g.view(seat)) == landing_distributions(g)


def test_landing_hand_worked():
    # Ann on space 5 with one item, Bob on space 2: turning back she jumps Bob.
    g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 10, seed=1)
    g.play_turn(dice=(2, 3), search="take")
    g.play_turn(dice=(1, 1), search="none")
    d = landing_distributions(g)
    assert dict(d["back"]) == {4: Fraction(1, 9), 3: Fraction(2, 9), 1: Fraction(3, 9), 0: Fraction(3, 9)}
    assert dict(d["continue"]) == {
        6: Fraction(1, 9),
        7: Fraction(2, 9),
        8: Fraction(3, 9),
        9: Fraction(2, 9),
        10: Fraction(1, 9),
    }
    # the path's end: 3 spaces, a diver on space 3 -> the deepest free space is 2
    g = Game(players=2, path=[(1, 0)] * 3, seed=0)
    g.play_turn(dice=(3, 3), search="none")
    assert dict(landing_distribution(g)) == {2: 1}


def test_landing_errors_and_empty():
    g = Game(players=2, seed=0)
    g.roll((1, 1))
    assert g.step == "search"
    assert landing_distributions(g) == {}
    with pytest.raises(AnalysisError, match="no swim"):
        landing_distribution(g)
    with pytest.raises(AnalysisError):
        landing_distributions("not a game")


# ---------------------------------------------------------------- chance to get home


def policy_choice(g: Game, d: int, others, me: str) -> str:
    q = g.current_player
    if g.step == "turn_back":
        pol = me if q == d else (others.get(q, "home") if isinstance(others, dict) else others)
        return "back" if pol == "home" else "continue"
    if g.step == "search":
        return "none"
    if g.step == "sink":
        return "lay all"
    return "roll"


def run_round(g0: Game, d: int, dice_source, others="home", me="home", choice=None) -> bool:
    """Play the rest of the round in the engine under the stated policies; is d back at the end?"""
    if g0._home[d]:
        return True
    g = g0.copy(history=False, events=True)
    start = len(g._events)
    r = g.round
    first = True
    while True:
        c = choice if (first and choice is not None) else policy_choice(g, d, others, me)
        first = False
        if g.step == "roll":
            g.roll(dice_source())
        else:
            g.apply(c)
        if g.round != r or g.is_over:
            break
    final = g0._pos[d]
    for e in g._events[start:]:
        if e["type"] == "move" and e["seat"] == d:
            final = e["to"]
    return final == 0


def engine_exact(g0: Game, d: int, others="home", me="home", choice=None, limit=3000) -> Fraction | None:
    """The engine's own exact answer: branch on all 9 dice outcomes at every roll (None if too big)."""
    if g0._home[d]:
        return Fraction(1)
    try:
        return rec_tracked(g0, d, others, me, choice, limit)
    except OverflowError:
        return None


def rec_tracked(g0: Game, d: int, others, me, choice, limit: int) -> Fraction:
    nodes = [0]

    def rec(g: Game, pos_d: int, first: bool) -> Fraction:
        nodes[0] += 1
        if nodes[0] > limit:
            raise OverflowError
        r = g.round
        if g.step != "roll":
            c = choice if (first and choice is not None) else policy_choice(g, d, others, me)
            g.apply(c)
            if g.round != r or g.is_over:
                return Fraction(int(pos_d == 0))
            return rec(g, pos_d, False)
        total = Fraction(0)
        for dice in DICE_OUTCOMES:
            h = g.copy(history=False, events=True)
            ev0 = len(h._events)
            h.roll(dice)
            pd = pos_d
            for e in h._events[ev0:]:
                if e["type"] == "move" and e["seat"] == d:
                    pd = e["to"]
            if h.round != r or h.is_over or (h._home[d]):
                total += Fraction(int(pd == 0), 9)
            else:
                total += rec(h, pd, False) / 9
        return total

    return rec(g0.copy(history=False, events=True), g0._pos[d], True)


@pytest.mark.slow
def test_home_chance_exhaustive_against_engine():
    """Small states (little air): the engine's own exact answer, branch by branch."""
    compared = 0
    seed = 5000
    while compared < 50:
        g = random_state(seed)
        seed += 1
        if g.is_over or g._air > 7:
            continue
        d = random.Random(seed).randrange(g.setup.n_players)
        for others in ("home", "keep"):
            want = engine_exact(g, d, others=others)
            if want is None:
                continue
            assert home_chance(g, d, others=others) == want, (g.state_dict(), d, others)
            compared += 1
    assert compared >= 50


@pytest.mark.slow
def test_home_chance_mixed_policies_exhaustive_against_engine():
    """``me="keep"`` and per-seat ``others`` dicts, the engine's own exact answer branch by branch."""
    compared = 0
    seed = 9000
    while compared < 40:
        g = random_state(seed)
        rng = random.Random(seed)
        seed += 1
        if g.is_over or g._air > 7:
            continue
        n = g.setup.n_players
        d = rng.randrange(n)
        others = {q: rng.choice(("home", "keep")) for q in range(n) if q != d and rng.random() < 0.8}
        me = rng.choice(("home", "keep"))
        want = engine_exact(g, d, others=others, me=me)
        if want is None:
            continue
        assert home_chance(g, d, others=others, me=me) == want, (g.state_dict(), d, others, me)
        compared += 1
    assert compared == 40


# the engine's exhaustive walks take seconds: the fast tier checks the first 10 of the 30 choices
@pytest.mark.parametrize("choices", [10, pytest.param(30, marks=pytest.mark.slow)])
def test_home_chances_per_choice_exhaustive(choices):
    compared = 0
    seed = 7000
    while compared < choices:
        g = random_state(seed)
        seed += 1
        if g.is_over or g._air > 6 or len(g.legal_choices()) < 2:
            continue
        d = g.current_player
        try:
            got = home_chances(g, max_states=50_000)
        except AnalysisError:
            continue
        for c in g.legal_choices():
            want = engine_exact(g, d, choice=c)
            if want is None:
                continue
            assert got[c] == want, (g.state_dict(), c)
            compared += 1
    assert compared >= choices


@pytest.mark.slow
def test_home_chance_sampled_against_engine():
    """Bigger states: random dice in the engine, within 4 standard errors."""
    rng = random.Random(11)
    compared = 0
    seed = 9000
    while compared < 30:
        g = random_state(seed)
        seed += 1
        if g.is_over:
            continue
        d = random.Random(seed).randrange(g.setup.n_players)
        others = "home" if seed % 3 else "keep"
        try:
            p = home_chance(g, d, others=others, max_states=50_000)
        except AnalysisError:
            continue
        n = 2000
        hits = sum(run_round(g, d, lambda: rng.choice(DICE_OUTCOMES), others=others) for _ in range(n))
        assert within_4se(p, hits, n), (g.state_dict(), d, others, float(p), hits / n)
        compared += 1


def test_home_chance_view_equals_game_and_hides_nothing():
    for g in states(20, start=3000):
        if g._air > 10:
            continue
        d = g.current_player
        try:
            want = home_chance(g, d)
        except AnalysisError:
            continue
        for seat in range(g.setup.n_players):
            assert home_chance(g.view(seat), d) == want


def test_home_chance_hand_worked():
    # Ann on space 3 heading up with 2 items, Bob already back, 4 air: she breathes 2 a turn,
    # so she has two swims (the second on the last turn: 4 -> 2 -> 0).  Each swim is
    # max(0, sum - 2) = 0..4 spaces with chances 1, 2, 3, 2, 1 (/9).  She needs 3 spaces in
    # total; the two swims fall short in 1 + 2+2 + 3+3 + 4 = 15 of 81 cases: 66/81 = 22/27.
    g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 8, air=6, seed=0)
    g.play_turn(dice=(2, 2), search="take")  # Ann: space 4, 1 item
    g.play_turn(dice=(1, 1), search="take")  # Bob: space 2, 1 item
    g.play_turn(back=True, dice=(1, 1), search="take")  # Ann: up to space 3, 2 items
    g.play_turn(back=True, dice=(3, 3))  # Bob: home
    assert (g.current_player, g.air, g.divers[0].position) == (0, 4, 3)
    assert home_chance(g) == Fraction(22, 27)
    assert home_chance(g) == engine_exact(g, 0)
    # a choice that costs a turn (put an item down? not on a chip space) - roll is the only choice
    assert home_chances(g) == {"roll": Fraction(22, 27)}


def test_home_chance_errors():
    g = Game(players=2, seed=0)
    with pytest.raises(AnalysisError):
        home_chance(g, seat=5)
    with pytest.raises(AnalysisError):
        home_chance(g, others="swim")
    with pytest.raises(AnalysisError):
        home_chance(g, choice="take")


# ---------------------------------------------------------------- expected values


def test_chip_means_worked_numbers():
    v = Game(players=3, seed=2).view(1)
    assert [chip_mean(v, lv) for lv in (1, 2, 3, 4)] == [
        Fraction(3, 2),
        Fraction(11, 2),
        Fraction(19, 2),
        Fraction(27, 2),
    ]


def _replay_with_path(g: Game, path) -> Game:
    h = Game(
        players=g.players,
        path=path,
        air=g.setup.air,
        rounds=g.setup.rounds,
        options=g.setup.options.to_dict(),
        events=False,
    )
    for t in g.history:
        h.play_turn(back=t.get("back", False), dice=t["dice"], search=t.get("search", "none"))
    return h


def test_carried_value_is_the_posterior_mean():
    """Re-deal the chips the viewer has not seen (keeping the seen ones) and replay the very
    same turns in the engine: the true carried value averages to the computed expectation."""
    rng = random.Random(3)
    checked = 0
    for seed in range(200):
        if checked >= 15:
            break
        g = Game(players=rng.randint(2, 4), seed=seed, rounds=3)
        r = random.Random(seed)
        for _ in range(r.randint(20, 220)):
            if g.is_over:
                break
            lg = g.legal_choices()
            if g.step == "search":
                g.apply("take" if "take" in lg and r.random() < 0.7 else "none")
            elif g.step == "turn_back":
                g.apply("back" if r.random() < 0.3 else "continue")
            else:
                g.apply(g.legal_choices()[0])  # roll, or lay the chips as picked up
        if g.is_over or not g.history or g.step != "roll" or g._breathed:
            continue
        viewer = r.randrange(g.setup.n_players)
        seat = r.randrange(g.setup.n_players)
        v = g.view(viewer)
        if not v.carrying[seat]:
            continue
        ev = carried_value(v, seat)
        dist = carried_value_distribution(v, seat)
        assert dist.mean == ev
        # re-deal: known chips keep their values, unknown ones are shuffled within their level
        ids_by_level = {
            lv: [c for c in range(len(v.levels)) if v.levels[c] == lv and c not in v.known]
            for lv in (1, 2, 3, 4)
        }
        n = 400
        total = 0.0
        sq = 0.0
        counts: dict[int, int] = {}
        for _ in range(n):
            vals = [g.chip(c)[1] for c in range(len(v.levels))]
            for ids in ids_by_level.values():
                pool = [vals[c] for c in ids]
                rng.shuffle(pool)
                for c, x in zip(ids, pool, strict=False):
                    vals[c] = x
            h = _replay_with_path(g, list(zip(v.levels, vals, strict=False)))
            assert h.view(viewer).known == v.known
            true = sum(h._val[c] for item in h._carry[seat] for c in item)
            total += true
            sq += true * true
            counts[true] = counts.get(true, 0) + 1
        mean = total / n
        var = max(sq / n - mean * mean, 0.0)
        assert abs(mean - float(ev)) <= 4 * math.sqrt(var / n) + 1e-9, (seed, mean, float(ev))
        for val, p in dist.items():
            assert within_4se(p, counts.get(val, 0), n)
        checked += 1
    assert checked >= 15


def test_carried_value_unbiased_over_games():
    """Law of total expectation: over many games, true value minus expectation averages 0."""
    diffs = []
    for seed in range(600):
        g = random_state(seed)
        if g.is_over:
            continue
        seat = seed % g.setup.n_players
        if not g._carry[seat]:
            continue
        true = sum(g._val[c] for item in g._carry[seat] for c in item)
        diffs.append(true - float(carried_value(g, seat, viewer=seat)))
    n = len(diffs)
    mean = sum(diffs) / n
    sd = math.sqrt(sum((x - mean) ** 2 for x in diffs) / (n - 1))
    assert n > 150 and abs(mean) <= 4 * sd / math.sqrt(n)


def test_carried_value_needs_a_viewer():
    g = Game(players=2, seed=0)
    with pytest.raises(AnalysisError, match="viewer"):
        carried_value(g)
    with pytest.raises(AnalysisError):
        carried_value(g.view(0), seat=9)
    assert carried_value(g, viewer=1) == 0


def test_remembered_states_give_the_same_answers():
    """Answers after many cached calls equal answers computed from scratch."""
    from dsa_widget.deep_sea.analysis import home as home_mod

    games = states(40, start=12000)
    warm = []
    for g in games:
        try:
            warm.append(home_chances(g, max_states=30_000))
        except AnalysisError:
            warm.append(None)
    for g, w in zip(games, warm, strict=False):
        if w is None:
            continue
        home_mod.clear_cache()
        assert home_chances(g, max_states=None) == w
