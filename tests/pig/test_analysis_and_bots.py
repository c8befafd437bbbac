"""The solved game (dsa_widget.pig.analysis) against Neller & Presser's figures and an independent
brute force, and the bots: explanations, knobs, and optimal beating hold_at_20."""

from __future__ import annotations

import pytest

from dsa_widget.core.bots import BotError, UnknownBotError, action_words, play_bot_move, play_until
from dsa_widget.core.tournament import tournament
from dsa_widget.pig import PigGame
from dsa_widget.pig.analysis import action_values, optimal_policy, win_probability
from dsa_widget.pig.bots import BOTS


def brute_force(goal: int) -> dict[tuple[int, int, int], float]:
    """Plain value iteration (Gauss-Seidel sweeps until nothing moves) over every state, written
    from the equations alone: P(i, j, k) = max(roll, hold), a win at i + k >= goal."""
    p = {(i, j, k): 0.0 for i in range(goal) for j in range(goal) for k in range(goal - i)}

    def at(i: int, j: int, k: int) -> float:
        return 1.0 if i + k >= goal else p[i, j, k]

    while True:
        change = 0.0
        for i, j, k in p:
            roll = (1 - p[j, i, 0] + sum(at(i, j, k + r) for r in range(2, 7))) / 6
            best = max(roll, 1 - p[j, i + k, 0]) if k else roll
            change = max(change, abs(best - p[i, j, k]))
            p[i, j, k] = best
        if change < 1e-13:
            return p


@pytest.mark.parametrize("goal", [1, 2, 7, 10, 16])
def test_the_table_is_the_brute_force_value_iteration(goal: int) -> None:
    table = win_probability(goal)
    for (i, j, k), v in brute_force(goal).items():
        assert table[i][j][k] == pytest.approx(v, abs=1e-10)


def test_neller_presser_figures_for_goal_100() -> None:
    p = win_probability(100)
    # "the first player has a 53.06% chance of winning" under optimal play by both
    assert p[0][0][0] == pytest.approx(0.5306, abs=5e-5)
    policy = optimal_policy(100)
    assert policy[0][0][0]  # at (0, 0, 0) optimal rolls (holding nothing is not even allowed)
    assert 20 <= policy[0][0].index(False) <= 25  # at 0-0 it holds near the points-optimal 20
    assert all(policy[0][99])  # with the opponent one point short, roll until the goal
    # more banked is better, for the player to move and against the opponent
    eps = 1e-12  # ties (at 98, say) differ by rounding only
    for i in range(99):
        for j in range(99):
            assert p[i][j][0] <= p[i + 1][j][0] + eps and p[i][j + 1][0] <= p[i][j][0] + eps


def test_action_values_hold_is_the_opponents_loss() -> None:
    p = win_probability(50)
    roll, hold = action_values(10, 20, 15, 50)
    assert hold == pytest.approx(1 - p[20][25][0]) and max(roll, hold) == pytest.approx(p[10][20][15])
    with pytest.raises(ValueError, match="solved goals are 1 to 200"):
        win_probability(201)


def test_the_bots_explain_in_one_line() -> None:
    g = PigGame(["Ann", "Bob", "Cy"], goal=60, seed=3)
    for m in ("roll", 6, "hold", "roll", 5, "roll", 4, "hold", "roll", 6, "roll", 6):
        g.apply(m) if isinstance(m, str) else g.apply_chance(m)
    opt, h20 = BOTS.make_bot("optimal"), BOTS.make_bot("hold_at_20", n=12)
    roll, hold = action_values(0, 9, 12, 60)  # Cy plays against the leader, Bob with 9
    choice = "roll" if roll > hold else "hold"
    assert play_bot_move(g.clone(), opt) == choice
    said = action_words(g.view(2), choice)
    assert opt.explain().splitlines()[0] == (
        f"optimal: {said} — holding banks 12 for a score of 12; the chance to win is {hold:.1%} holding,"
        f" {roll:.1%} rolling (solved)"
    )
    assert play_bot_move(g.clone(), h20) == "hold"
    assert (
        h20.explain() == "hold_at_20: hold (bank the turn total) — holding banks 12 for a score of 12;"
        " the turn total reached 12"
    )
    assert BOTS.make_bot("hold_at_20")(g.view(2), g.legal_actions()) == "roll"
    assert BOTS.make_bot("random", seed=1)(g.view(2), g.legal_actions()) in ("roll", "hold")
    g = PigGame(2, goal=10)
    for m in ("roll", 6, "roll", 5):
        g.apply(m) if isinstance(m, str) else g.apply_chance(m)
    assert play_bot_move(g, h20) == "hold"  # the only legal action: holding wins
    assert (
        h20.explain()
        == "hold_at_20: hold (bank the turn total) — holding banks 11 for a score of 11 (goal 10):"
        " holding wins"
    )


def test_bot_knobs_and_limits() -> None:
    with pytest.raises(ValueError, match="n must be a positive int"):
        BOTS.make_bot("hold_at_20", n=0)
    with pytest.raises(UnknownBotError):
        BOTS.parse_bot_spec("optimal:n=3")
    assert BOTS.parse_bot_spec("hold_at_20:n=25").n == 25
    g = PigGame(2, goal=500)
    assert play_bot_move(g, "optimal") == "roll"  # the turn's first roll is forced: no table needed
    g.apply_chance(5)
    with pytest.raises(BotError, match="solved goals are 1 to 200"):
        play_bot_move(g, "optimal")  # a real choice needs the table, and goal 500 is not solved
    assert g.turn_total == 5 and g.to_move == 0


def test_whole_games_between_every_bot() -> None:
    for players in (2, 4, 6):
        g = PigGame(players, goal=40, seed=players)
        play_until(g, [BOTS.names[k % 3] for k in range(players)], until="game")
        assert g.is_over and len(g.winners) == 1 and max(g.scores) >= 40


def test_optimal_beats_hold_at_20() -> None:
    # Neller & Presser: optimal play wins more than half its games against "hold at 20"; seeded,
    # so the figures are the same on every run (the margin only guards against a weak policy)
    res = tournament(
        ["optimal", "hold_at_20"],
        game=PigGame,
        games=600,
        setups=[{"goal": 50}],
        seed=1,
        workers=1,
        progress=False,
    )
    row = res.row("optimal")
    assert row["games"] == 600 and row["win_rate"] > 0.53 and row["win_ci"][0] > 0.5


@pytest.mark.parametrize(
    "position",
    [(-1, 0, 0), (0, -1, 0), (0, 0, -1), (50, 0, 0), (0, 50, 0), (10, 0, 40), (0.5, 0, 0), (True, 0, 0)],
)
def test_action_values_refuses_a_position_outside_the_goal(position) -> None:
    """A position is two banked scores below the goal and a turn total that does not reach it:
    anything else is refused by a ValueError naming the value (a negative score or turn total
    was read from the far end of the table, a silently wrong chance; a large one raised
    IndexError)."""
    with pytest.raises(ValueError, match=r"must be a whole number from 0 to \d+"):
        action_values(*position, goal=50)


def test_optimal_policy_checks_its_goal() -> None:
    with pytest.raises(ValueError, match="solved goals"):
        optimal_policy(0)  # was an empty table
