"""Pig's pixel picture (:mod:`dsa_widget.pig.picture`): the scores against the goal, the turn
total and the last die, as an onlooker sees them."""

from __future__ import annotations

import random

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.core.raster import LIGHT
from dsa_widget.pig import PigGame
from dsa_widget.pig import picture as pic
from dsa_widget.pig.picture import board_rgb, image_size, last_die


def row_fill(img: np.ndarray, seat: int, colour: tuple[int, int, int]) -> int:
    """How many pixels of ``colour`` the middle line of ``seat``'s bar holds."""
    y = pic._HEAD + seat * pic.ROW + 4
    line = img[y, pic._BAR_X : pic._BAR_X + pic._BAR_W]
    return int((line == colour).all(axis=1).sum())


def test_banked_points_and_the_turn_total_fill_the_bar_in_proportion_to_the_goal() -> None:
    # "hold banks the turn total and passes the turn" (Pig's rules): 9 of 20 banked for seat 0
    g = PigGame(["Ann", "Bob"], goal=20, seed=1)
    g.apply("roll"), g.apply_chance(5), g.apply("roll"), g.apply_chance(4), g.apply("hold")
    g.apply("roll"), g.apply_chance(6)  # Bob's turn total: 6
    img = board_rgb(g)
    inner = pic._BAR_W - 2
    assert row_fill(img, 0, LIGHT.accent) == inner * 9 // 20
    assert row_fill(img, 1, LIGHT.accent) == 0 and row_fill(img, 1, pic._TURN) == inner * 6 // 20
    assert row_fill(img, 0, pic._TURN) == 0  # only the seat to move has a turn total


def test_a_one_loses_the_turn_total_and_the_die_shows_it() -> None:
    # "a 1 ends the turn and loses the turn total"
    g = PigGame(2, goal=20, seed=1)
    g.apply("roll"), g.apply_chance(6)
    before = board_rgb(g)
    g.apply("roll"), g.apply_chance(1)
    img = board_rgb(g)
    assert last_die(g.view(None)) == 1 and g.view(None).current == 1
    m = pic.MARGIN
    die = img[m : m + pic.DIE, m : m + pic.DIE]
    pips = (die == LIGHT.fg).all(axis=2)
    # the die's frame and one pip in its middle: the frame's 56 pixels and 9 of the pip
    assert pips.sum() == 4 * (pic.DIE - 1) + 9 and pips[pic.DIE // 2, pic.DIE // 2]
    assert row_fill(before, 0, pic._TURN) > 0 and row_fill(img, 0, pic._TURN) == 0
    # the mark of the seat to move went from seat 0's row to seat 1's
    mark = [tuple(img[pic._HEAD + q * pic.ROW + 2, m - 1]) for q in range(2)]
    assert mark == [LIGHT.bg, LIGHT.accent]


def test_the_winner_is_framed_in_gold_and_nobody_is_to_move() -> None:
    g = PigGame(2, goal=5, seed=1)
    g.apply("roll"), g.apply_chance(6), g.apply("hold")
    assert g.is_over and g.winners == (0,)
    img = board_rgb(g)
    assert tuple(img[pic._HEAD - 2, pic.WIDTH // 2]) == pic._WINNER
    assert not (img[:, : pic.MARGIN] == LIGHT.accent).all(axis=2).any()


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 6), goal=st.integers(1, 1000), seed=st.integers(0, 2**16), steps=st.integers(0, 80)
)
def test_one_size_for_a_number_of_seats_and_the_die_is_the_last_roll(
    players: int, goal: int, seed: int, steps: int
) -> None:
    g = PigGame(players, goal=goal, seed=seed)
    rng = random.Random(seed)
    rolled = None
    for _ in range(steps):
        if g.is_over:
            break
        if g.to_move < 0:
            before = len(g.history)
            g.sample_chance()
            v = g.view(None)
            rolled = v.moves[-1] if len(v.history) == before else v.history[-1][1][-1]
        else:
            g.apply(rng.choice(g.legal_actions()))
    img = board_rgb(g)
    assert img.shape == (*image_size(players), 3) and img.dtype == np.uint8
    assert last_die(g.view(None)) == rolled


def test_pig_env_records_these_frames() -> None:
    from dsa_widget.pig.encoding import pig_env

    e = pig_env(3, goal=30, render_mode="rgb_array")
    e.reset(seed=2)
    e.step(0)  # roll
    assert np.array_equal(e.render(), board_rgb(e.unwrapped.game))
    assert e.render().shape == (*image_size(3), 3)
