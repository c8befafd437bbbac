"""Numbers shown as what they are (issue 16, item 2): probabilities as percentages beside
their fraction, points as points, steps as steps; a value is never printed as a percentage."""

from __future__ import annotations

import pickle
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dsa_widget import Game
from dsa_widget.deep_sea.analysis import (
    Chance,
    Exact,
    Points,
    Steps,
    carried_value,
    carried_value_distribution,
    chip_mean,
    dice_sum_distribution,
    expected_steps,
    home_chance,
    home_chances,
    item_value,
    landing_distributions,
    solo_policy,
    steps_distribution,
)


def shown(x) -> list[str]:
    return [repr(x), x._repr_html_()]


def carrying_game() -> Game:
    g = Game(players=["Ann", "Bob"], seed=3)
    g.roll((2, 2))
    g.apply("take")
    return g


def test_values_are_never_percentages():
    g = carrying_game()
    v = g.view(0)
    values = [
        chip_mean(v, 1),
        chip_mean(v, 4),
        item_value(v, v.carrying[0][0]),
        carried_value(v, 0),
        carried_value_distribution(v, 0).mean,
        solo_policy().exact_value,
    ]
    for x in values:
        assert isinstance(x, Points)
        for text in shown(x):
            assert "%" not in text and "points" in text, text
    for k in range(6):
        x = expected_steps(k)
        assert isinstance(x, Steps) and x == steps_distribution(k).mean
        for text in shown(x):
            assert "%" not in text and "steps" in text, text


def test_probabilities_are_percentages_beside_their_fraction():
    g = carrying_game()
    g.roll((1, 1))
    probs = [
        home_chance(g.view(g.current_player)),
        *home_chances(g.view(g.current_player)).values(),
        *dice_sum_distribution().values(),
        *[p for d in landing_distributions(g).values() for p in d.values()],
    ]
    for p in probs:
        assert isinstance(p, Chance)
        for text in shown(p):
            assert "%" in text and "points" not in text, text
    assert repr(Chance(2, 9)) == "2/9 ≈ 22.22%" and repr(Chance(1)) == "1 (100%)"


def test_examples_from_the_issue():
    """The four figures the issue saw as percentages."""
    assert repr(Points(3, 2)) == "3/2 ≈ 1.50 points"
    assert "≈ 20.87 points" in repr(solo_policy().exact_value)
    assert repr(chip_mean(Game(players=2, seed=1).view(0), 2)) == "11/2 ≈ 5.50 points"
    assert repr(expected_steps(3)) == "10/9 ≈ 1.11 steps"


@given(st.fractions(min_value=0, max_value=1000), st.sampled_from([Exact, Chance, Points, Steps]))
def test_exact_numbers_are_fractions_that_keep_their_kind(f, kind):
    x = kind(f)
    assert x == f and isinstance(x, Fraction) and type(x) is kind
    assert type(pickle.loads(pickle.dumps(x))) is kind
    assert type(x + Fraction(1, 2)) is Fraction  # arithmetic gives plain fractions
    text = repr(x)
    assert ("%" in text) == (kind is Chance)
    if x.denominator != 1:
        assert text.startswith(f"{x.numerator}/{x.denominator} ≈ ")


@pytest.mark.parametrize("kind,unit", [(Points, "points"), (Steps, "steps")])
def test_whole_values_print_plainly_with_their_unit(kind, unit):
    assert repr(kind(4)) == f"4 {unit}" and kind(4)._repr_html_() == f"<code>4 {unit}</code>"
