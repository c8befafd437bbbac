"""Fixed Pig policies against each other (dsa_widget.pig.analysis.head_to_head, hold_at, optimal)
and the expected points of a turn (turn_points): against an independent value iteration written
from the rules alone, hand-computed small goals, and real games played by the engine's bots."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.core.bots import play_until
from dsa_widget.core.stats import wilson
from dsa_widget.pig import PigGame
from dsa_widget.pig.analysis import (
    Policy,
    head_to_head,
    hold_at,
    optimal,
    turn_points,
    win_probability,
)


def sweep(first: Policy, second: Policy, goal: int) -> float:
    """Plain Gauss-Seidel value iteration over (player to move, i, j, k) until nothing moves: the
    rules' equations, no ordering trick.  The chance that `first`, moving first, wins."""
    pol = (first, second)
    w = {(m, i, j, k): 0.0 for m in (0, 1) for i in range(goal) for j in range(goal) for k in range(goal - i)}

    def at(m: int, i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= goal else w[m, i, j, k]

    while True:
        change = 0.0
        for m, i, j, k in w:
            if k and not pol[m](i, j, k):
                new = 1 - at(1 - m, j, i + k, 0)
            else:
                new = (1 - w[1 - m, j, i, 0] + sum(at(m, i, j, k + r) for r in range(2, 7))) / 6
            change = max(change, abs(new - w[m, i, j, k]))
            w[m, i, j, k] = new
        if change < 1e-13:
            return w[0, 0, 0, 0]


@pytest.mark.parametrize("goal", [1, 2, 5, 9, 14])
@pytest.mark.parametrize("pair", [(2, 3), (4, 4), (1, 9)])
def test_head_to_head_is_the_plain_value_iteration(goal: int, pair: tuple[int, int]) -> None:
    a, b = hold_at(pair[0]), hold_at(pair[1])
    assert head_to_head(a, b, goal) == pytest.approx(sweep(a, b, goal), abs=1e-10)
    assert head_to_head(optimal(goal), b, goal) == pytest.approx(sweep(optimal(goal), b, goal), abs=1e-10)


def test_small_goals_by_hand() -> None:
    # goal 2: any roll but a 1 wins at once, so the first player wins 5/6 + (1/6)^2 * 5/6 + ...
    # = (5/6) / (1 - 1/36) = 6/7 whatever either policy is
    for a in (hold_at(1), hold_at(5), optimal(2)):
        assert head_to_head(a, hold_at(3), 2) == pytest.approx(6 / 7, abs=1e-12)
    # goal 1: the first roll that is not a 1 wins; the same 6/7
    assert head_to_head(hold_at(1), hold_at(1), 1) == pytest.approx(6 / 7, abs=1e-12)


def test_optimal_against_itself_is_the_solved_table() -> None:
    for goal in (10, 50):
        assert head_to_head(optimal(goal), optimal(goal), goal) == pytest.approx(
            win_probability(goal)[0][0][0], abs=1e-12
        )


@settings(max_examples=25, deadline=None)
@given(st.integers(1, 30), st.integers(2, 25))
def test_optimal_guarantees_the_value_of_the_game(n: int, goal: int) -> None:
    # Pig is a zero-sum game and the optimal policy is its minimax policy: against any other
    # policy it wins at least its value from either seat (it is not a best response: against a
    # weak policy another one can exploit more)
    opt, value = optimal(goal), win_probability(goal)[0][0][0]
    assert head_to_head(opt, hold_at(n), goal) >= value - 1e-12
    assert head_to_head(hold_at(n), opt, goal) <= value + 1e-12


def test_the_exact_figure_matches_real_games() -> None:
    # the engine's own games between the bots "optimal" and "hold_at_20", goal 30, optimal first
    goal, n = 30, 1500
    exact = head_to_head(optimal(goal), hold_at(20), goal)
    wins = 0
    for seed in range(n):
        g = PigGame(["opt", "h20"], goal=goal, seed=seed)
        play_until(g, ["optimal", "hold_at_20"], until="game")
        wins += g.winners == (0,)
    lo, hi = wilson(wins, n, z=3.29)  # 99.9%: seeded, so the same games every run
    assert lo <= exact <= hi, (wins, exact)


def test_turn_points() -> None:
    # hold at 2: one roll; a 1 scores 0, else the face: (2 + 3 + 4 + 5 + 6) / 6
    assert turn_points(2) == Fraction(10, 3)
    # rolling at turn total k gains (4 * 5 - k) / 6 on average: worth it below 20, a tie at 20
    best = max(range(1, 40), key=turn_points)
    assert best == 20 and turn_points(20) == turn_points(21) > turn_points(19)
    assert turn_points(22) < turn_points(21)
    with pytest.raises(ValueError, match="positive int"):
        hold_at(0)
    with pytest.raises(ValueError, match="1 to 1000"):
        turn_points(True)
    with pytest.raises(ValueError, match="solved goals"):
        head_to_head(hold_at(20), hold_at(20), 0)
