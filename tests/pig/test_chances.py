"""Pig's board shows its chances (issue ux5): the chance that the player to move wins, rolling
now and holding now, from the solved game (Neller & Presser), in the platform's "Chances" panel,
while the board's hints are on; where nothing is solved (three players or more, a turn limit, a
goal above the board's solved ones) an estimate from sampled games, with its interval and
sample size.  No kernel: the widget's own traits."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.core.chances import Figure, FigureError
from dsa_widget.core.stats import wilson
from dsa_widget.pig import Pig, PigGame
from dsa_widget.pig.analysis import (
    ESTIMATE_HOLD,
    action_values,
    estimate_win,
    head_to_head,
    hold_at,
    hold_at_turn,
    turn_points,
)
from dsa_widget.pig.widget import CHANCES_GOAL, HOLDING, OPTIMAL, PigPresenter, _estimate


def board(**kw: object) -> Pig:
    return Pig(players=["You", "Bot"], seats={1: "hold_at_20"}, goal=30, seed=1, **kw)  # type: ignore[arg-type]


def values(w: Pig) -> list[float]:
    return [f["value"] for f in w.state["chances"]]


def test_hints_on_by_default_off_and_on_again() -> None:
    w = board()
    assert w.hints is True  # as Deep Sea Adventure's board
    assert [f["kind"] for f in w.state["chances"]] == ["solved"]
    assert w.state["chances"][0]["kind_words"] == f"solved, {OPTIMAL}"
    seq = w.seq
    w.hints = False  # the board's H
    assert w.state["chances"] is None and w.seq == seq  # a view setting: the game did not move
    w.hints = True
    assert w.state["chances"][0]["label"] == "Win chance for You, rolling now"


@settings(max_examples=20, deadline=None)
@given(faces=st.lists(st.integers(2, 6), min_size=1, max_size=4))
def test_the_figures_are_the_solved_games_roll_and_hold(faces: list[int]) -> None:
    # Pig's rules: a roll of 2-6 adds its face to the turn total; the player may then hold
    # (bank it) or roll on.  The panel gives both choices' chances to win, under optimal play
    w = board()
    for face in faces:
        if w.game.current_player != 0 or 30 - w.game.turn_total <= 6:
            break
        w.roll(face)
    g = w.game
    i, j, k = g.scores[0], g.scores[1], g.turn_total
    roll, hold = action_values(i, j, k, 30)
    assert values(w) == [roll, hold]
    assert w.state["chances"][1]["label"] == f"Win chance for You, holding {k} now"


def test_holding_nothing_is_not_a_figure_and_a_sure_win_is_exact() -> None:
    p = PigPresenter()
    # at a turn's start only a roll is allowed ("holding nothing is not allowed"): one figure
    g = PigGame(["Ann", "Bob"], goal=20, seed=1)
    assert [f.label for f in p.chances(g.view(0))] == ["Win chance for Ann, rolling now"]
    # a turn total reaching the goal: holding wins for sure, an exact figure
    w = Pig(players=["Ann", "Bob"], goal=20, seed=1)
    for face in (6, 6, 6, 2):
        w.roll(face)
    assert w.state["chances"] == [Figure("Win chance for Ann, holding 20 now", 1.0, "exact").to_dict()]


@pytest.mark.parametrize(
    "setup",
    [
        {"players": 3, "goal": 20},
        {"players": 2, "goal": 20, "max_turns": 10},
        {"players": 2, "goal": CHANCES_GOAL + 1},
    ],
    ids=["three players", "a turn limit", "a goal above the solved boards'"],
)
def test_where_nothing_is_solved_the_figures_are_estimates_that_say_so(setup: dict[str, int]) -> None:
    g = PigGame(seed=1, **setup)  # type: ignore[arg-type]
    g.apply("roll")
    g.apply_chance(5)  # 5 on the turn: rolling on and holding now are both allowed
    figures = PigPresenter().chances(g.view(0))
    assert [f.label for f in figures] == [
        "Win chance for Player 1, rolling now",
        "Win chance for Player 1, holding 5 now",
    ]
    for f in figures:
        assert f.kind == "estimate" and f.given == HOLDING and f.n is not None and f.n > 100
        assert (f.low, f.high) == pytest.approx(wilson(f.value * f.n, f.n))
        assert f.words().startswith("estimate ") and f"n = {f.n}" in f.words() and f.words().endswith(HOLDING)
    # the same position draws the same sample: a redraw does not make the figures flicker (the
    # cache emptied first, so it is the seed that gives it, not a stored answer)
    _estimate.cache_clear()
    assert PigPresenter().chances(g.view(0)) == figures
    # the die in the air: rolling on is the roll just made, the same sample as before it
    g.apply("roll")
    _estimate.cache_clear()
    (flying,) = PigPresenter().chances(g.view(0))
    assert flying.label == "Win chance for Player 1, rolling on" and flying.value == figures[0].value


def test_holding_at_20_turns_law_is_exact() -> None:
    # a roll of 1 loses the turn total; 2-6 add to it; "hold at n" rolls while it is below n
    for n in (1, 2, 7, ESTIMATE_HOLD, 57):
        points, p = hold_at_turn(n)
        assert sum(p) == 1 and points[0] == 0 and set(points[1:]) <= set(range(n, n + 6))
        assert sum(x * q for x, q in zip(points, p, strict=True)) == turn_points(n)
    with pytest.raises(ValueError, match="n must be"):
        hold_at_turn(0)


@pytest.mark.parametrize("goal", [10, 30, 100])
def test_the_estimate_agrees_with_the_exact_chance_of_two_players_holding_at_20(goal: int) -> None:
    # two players both holding at 20 from the start: head_to_head solves it exactly; a large
    # sample's 99.9% interval holds it (the sample is seeded: the same on every run)
    exact = head_to_head(hold_at(ESTIMATE_HOLD), hold_at(ESTIMATE_HOLD), goal)
    wins, n = estimate_win((0, 0), 0, 0, goal, first="roll", budget=400_000, seed=goal)
    low, high = wilson(wins, n, z=3.29)
    assert low <= exact <= high and high - low < 0.03


def test_a_turn_limits_last_turn_ends_the_game_on_the_best_scores() -> None:
    # Pig's max_turns: after that many turns the best scores share the win
    assert estimate_win((10, 14), 0, 5, 100, first="hold", max_turns=3, turns_done=2, budget=7) == (7.0, 7)
    wins, n = estimate_win((10, 14), 0, 4, 100, first="hold", max_turns=3, turns_done=2)
    assert wins / n == 0.5  # 14 all: shared
    wins, n = estimate_win((10, 14, 14), 0, 4, 100, first="hold", max_turns=1, budget=9)
    assert (wins, n) == (3.0, 9)  # three ways


@pytest.mark.parametrize(
    ("args", "why"),
    [
        (((0, 0), 0, 0, 100, "hold"), "holding needs"),
        (((0, 0), 0, 0, 100, "pass"), "first is"),
        (((0,), 0, 0, 100, "roll"), "scores are"),
        (((0, 100), 0, 0, 100, "roll"), "scores are"),
        (((0, 0), 2, 0, 100, "roll"), "current is"),
        (((95, 0), 0, 5, 100, "roll"), "turn total"),
        (((0, 0), 0, 0, 1001, "roll"), "goal must be"),
        (((0, 0), True, 0, 100, "roll"), "current is"),
        (((0, 0), 0, "5", 100, "hold"), "turn total"),
        (("00", 0, 0, 100, "roll"), "scores are"),
    ],
)
def test_a_position_that_cannot_be_is_refused_in_words(args: tuple, why: str) -> None:
    scores, current, k, goal, first = args
    with pytest.raises(ValueError, match=why):
        estimate_win(scores, current, k, goal, first=first)
    with pytest.raises(ValueError, match="budget"):
        estimate_win((0, 0), 0, 0, 100, first="roll", budget=0)


@pytest.mark.parametrize(
    ("kw", "why"),
    [
        ({"turns_done": -1}, "turns_done"),
        ({"turns_done": 1.0}, "turns_done"),
        ({"max_turns": "x"}, "max_turns"),
        ({"max_turns": 0}, "max_turns"),
        ({"max_turns": 3, "turns_done": 3}, "max_turns"),  # the game would be over already
    ],
)
def test_a_turn_count_that_cannot_be_is_refused_in_words(kw: dict[str, object], why: str) -> None:
    with pytest.raises(ValueError, match=why):
        estimate_win((0, 0), 0, 0, 100, first="roll", **kw)  # type: ignore[arg-type]


def test_a_scrub_shows_the_figures_of_the_step_shown() -> None:
    w = board()
    w.roll(5)
    w.roll(4)
    live = values(w)
    w.seek(0)  # the game as it began: the turn total 0, only a roll
    assert w.state["mode"] == "history"
    assert values(w) == [action_values(0, 0, 0, 30)[0]] != live
    w.seek(None)
    assert values(w) == live


def test_a_what_if_shows_its_own_figures() -> None:
    w = board()
    w.branch()
    w.roll(6)
    assert values(w) == list(action_values(0, 0, 6, 30))
    w.back_to_real()
    assert values(w) == [action_values(0, 0, 0, 30)[0]]


@pytest.mark.parametrize(
    ("kw", "why"),
    [
        ({"value": -0.1}, "probability"),
        ({"kind": "guess"}, "kind"),
        ({"kind": "estimate"}, "interval"),
        ({"kind": "estimate", "low": 0.5, "high": 0.6, "n": 10}, "hold its value"),
        ({"kind": "estimate", "low": 0.3, "high": 0.6, "n": 0}, "sample size"),
        ({"low": 0.3}, "only an estimate"),
        ({"label": " "}, "label"),
    ],
)
def test_a_bad_figure_is_refused_in_words(kw: dict[str, object], why: str) -> None:
    args: dict[str, object] = {"label": "a 6", "value": 0.4, "kind": "exact", **kw}
    with pytest.raises(FigureError, match=why):
        Figure(**args)  # type: ignore[arg-type]
    assert issubclass(FigureError, ValueError)


@pytest.mark.parametrize(("successes", "n"), [(3, 0), (5, 4), (-1, 4), ("2", 4), (2, 4.0), (True, 4)])
def test_an_estimate_from_a_sample_that_cannot_be_is_refused(successes: object, n: object) -> None:
    with pytest.raises(FigureError, match="estimate's"):
        Figure.estimate("a 6", successes, n)  # type: ignore[arg-type]


def test_an_estimate_says_its_interval_and_sample() -> None:
    f = Figure("Bob makes it home", 0.44, "estimate", low=0.41, high=0.47, n=400)
    assert f.to_dict()["kind_words"] == "estimate 41–47%, 95%, n = 400"
    assert (
        Figure("x", 0.001, "estimate", low=0.0, high=0.004, n=1000).words()
        == "estimate 0.0–0.4%, 95%, n = 1000"
    )


def test_a_served_boards_hints_switch_reaches_its_seats_at_once() -> None:
    # the host presses H on a notebook board it serves: the seats' screens carry the figures or
    # not from that moment (the table's version counts the switch), not from the next move
    from dsa_widget.server.session_table import SessionTable
    from dsa_widget.server.table import Table

    w = board()
    table = Table(SessionTable(w.game, session=w.session), bot_delay=0.0)
    assert w.session.hints and json.loads(table.screen(0).parts["state"])["chances"]
    w.hints = False
    table.changed()
    assert json.loads(table.screen(0).parts["state"])["chances"] is None
    w.hints = True
    table.changed()
    assert json.loads(table.screen(0).parts["state"])["chances"]


def test_a_failing_figure_leaves_the_board_playable() -> None:
    # the figures are optional: a game's chances() that raises gives no panel, and the error is
    # kept for whoever debugs it, while the screen, its moves and its history go on
    w = board()

    def broken(view: object) -> tuple[Figure, ...]:
        raise RuntimeError("a bug in the figures")

    w.session.hooks.chances = broken  # type: ignore[method-assign]
    before = w.seq
    w.apply("roll")
    assert w.state["chances"] is None and w.seq > before and w.state["history"]["labels"]
    assert isinstance(w.session.chances_error, RuntimeError)


def test_each_states_figures_are_worked_out_once_per_viewer() -> None:
    # a move's screen and its history frame are one stored state (frames never change), and H
    # rebuilds every past frame: the figures come from the game once per state and viewer
    w = board()
    asked: list[object] = []
    real = w.session.hooks.chances

    def counting(view: object) -> object:
        asked.append(view)
        return real(view)

    w.session.hooks.chances = counting  # type: ignore[method-assign]
    before = w.session.real.index
    w.apply("roll")
    once = len(asked)
    assert once == w.session.real.index - before >= 1  # each new frame once, the live one too
    w.hints = False
    w.hints = True
    assert len(asked) == once and w.state["chances"]  # the past frames' figures were kept
    w.seek(0)
    assert len(asked) == once and values(w) == [action_values(0, 0, 0, 30)[0]]
