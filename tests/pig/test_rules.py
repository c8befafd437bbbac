"""Pig's rules: scenarios quoting the rule each checks, setup errors, and properties over random
games (hypothesis): scores never fall, banked points are the held turn totals, records and views
round-trip at any point, clones are independent."""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.core import CHANCE, TERMINAL, GameState, GameView
from dsa_widget.core.errors import GameError
from dsa_widget.core.records import load as load_any
from dsa_widget.core.timeline import Timeline
from dsa_widget.pig import Game, IllegalActionError, PigGame, SetupError


def play(g: PigGame, *moves: Any) -> PigGame:
    """Apply moves: "roll"/"hold" as actions, ints as the die."""
    for m in moves:
        g.apply(m) if isinstance(m, str) else g.apply_chance(m)
    return g


def test_a_1_ends_the_turn_and_loses_the_turn_total() -> None:
    # "a 1 ends your turn and you lose this turn's total"
    g = play(PigGame(2, goal=50), "roll", 6, "roll", 5, "roll", 1)
    assert g.scores == (0, 0) and g.turn_total == 0 and g.to_move == 1
    assert g.history == ((0, (6, 5, 1)),)


def test_hold_banks_the_turn_total_and_passes_the_turn() -> None:
    # "hold banks the turn total into your score and passes the turn"
    g = play(PigGame(3, goal=50), "roll", 6, "roll", 5, "hold")
    assert g.scores == (11, 0, 0) and g.turn_total == 0 and g.to_move == 1
    play(g, "roll", 2, "hold", "roll", 3, "hold", "roll", 4, "hold")
    assert g.scores == (15, 2, 3) and g.to_move == 1


def test_reaching_the_goal_by_holding_wins_at_once() -> None:
    # "the first player to reach the goal wins immediately when they hold"
    g = play(PigGame(["Ann", "Bob"], goal=10), "roll", 6, "roll", 4)
    assert g.legal_actions() == ("hold",) and not g.is_over  # reaching it is not yet winning
    play(g, "hold")
    assert g.is_over and g.winners == (0,) and g.to_move == TERMINAL and g.current_player is None
    assert g.legal_actions() == () and g.scores == (10, 0)


def test_a_turn_starts_with_a_roll_and_the_die_is_chance() -> None:
    g = PigGame(2, seed=1)
    assert g.legal_actions() == ("roll",)  # nothing to hold yet
    g.apply("roll")
    assert g.to_move == CHANCE and g.current_player == 0 and g.legal_actions() == ()
    assert g.chance_outcomes() == tuple((f, Fraction(1, 6)) for f in range(1, 7))
    g.sample_chance()
    assert g.to_move in (0, 1) and g.chance_outcomes() == ()


@pytest.mark.parametrize(
    ("moves", "bad", "words"),
    [
        ((), "hold", "needs a turn total above 0"),
        (("roll", 6, "roll", 4), "roll", "hold to win"),
        (("roll",), "hold", "the die is rolling"),
        (("roll", 6, "roll", 4, "hold"), "roll", "the game is over"),
        ((), "pass", "an action is 'roll' or 'hold'"),
        ((), None, "an action is 'roll' or 'hold'"),
        ((), {"x": 1}, "an action is 'roll' or 'hold'"),
    ],
)
def test_an_illegal_action_raises_in_words_and_changes_nothing(
    moves: tuple[Any, ...], bad: Any, words: str
) -> None:
    # "illegal actions raise IllegalActionError naming the problem in words and change nothing"
    g = play(PigGame(2, goal=10, seed=3), *moves)
    before = (g.to_record(), g.view(0))
    with pytest.raises(IllegalActionError, match=words) as e:
        g.apply(bad)
    assert isinstance(e.value, GameError) and isinstance(e.value, ValueError)
    assert (g.to_record(), g.view(0)) == before


@pytest.mark.parametrize("face", [0, 7, True, 2.0, "3", None, 10**100])
def test_a_die_shows_1_to_6(face: Any) -> None:
    g = play(PigGame(2), "roll")
    with pytest.raises(IllegalActionError, match="a die shows 1 to 6"):
        g.apply_chance(face)
    assert g.to_move == CHANCE and g.view(None).moves == ()
    with pytest.raises(IllegalActionError, match="no die is rolling"):
        PigGame(2).apply_chance(3)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"players": 1}, "players"),
        ({"players": 7}, "players"),
        ({"players": True}, "players"),
        ({"players": ["A", "A"]}, "players"),
        ({"players": ["A", 3]}, "players"),
        ({"goal": 0}, "goal"),
        ({"goal": 1001}, "goal"),
        ({"goal": 50.0}, "goal"),
        ({"goal": 10**5000}, "goal"),
        ({"seed": "x"}, "seed"),
        ({"first_player": 2}, "first_player"),
        ({"max_turns": 0}, "max_turns"),
        ({"options": {"variant": 1}}, "options"),
    ],
)
def test_a_bad_setup_names_its_field(kwargs: dict[str, Any], field: str) -> None:
    with pytest.raises(SetupError) as e:
        PigGame(**kwargs)
    assert e.value.field == field and field in str(e.value)


def test_max_turns_ends_the_game_and_the_best_scores_share_it() -> None:
    g = play(PigGame(2, goal=50, max_turns=3), "roll", 4, "hold", "roll", 4, "hold", "roll", 1)
    assert g.is_over and g.winners == (0, 1) and g.turn_number == 3


def test_the_view_is_everything_and_a_spectator_sees_it_too() -> None:
    g = play(PigGame(["Ann", "Bob"], goal=30, seed=2), "roll", 5)
    v = g.view(0)
    assert isinstance(g, GameState) and isinstance(v, GameView)
    assert v.legal == ("roll", "hold") and g.view(1).legal == () and g.view(None).legal == ()
    assert v.to_dict()["scores"] == [0, 0] and v.to_dict()["moves"] == [5]
    assert g.view(None).to_dict() == {**v.to_dict(), "seat": None, "legal": []}
    with pytest.raises(GameError, match="no seat"):
        g.view(2)


def test_the_game_is_game() -> None:
    assert Game is PigGame and repr(PigGame(["A", "B"], goal=5)) == "Pig to 5: A 0, B 0; A has 0 on the turn"


# ---------------------------------------------------------------------- properties


def random_game(seed: int, steps: int) -> tuple[PigGame, list[PigGame]]:
    """A game of 2..6 players played ``steps`` steps at random; every state along the way."""
    r = random.Random(seed)
    g = PigGame(r.randint(2, 6), goal=r.choice([5, 20, 60]), seed=seed, first_player=0)
    states = [g.clone()]
    for _ in range(steps):
        if g.is_over:
            break
        if g.to_move == CHANCE:
            g.apply_chance(r.randint(1, 6)) if r.random() < 0.5 else g.sample_chance()
        else:
            g.apply(r.choice(g.legal_actions()))
        states.append(g.clone())
    return g, states


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 300))
def test_scores_never_fall_and_banked_points_are_the_held_turn_totals(seed: int, steps: int) -> None:
    g, states = random_game(seed, steps)
    for a, b in zip(states, states[1:], strict=False):
        assert all(y >= x for x, y in zip(a.scores, b.scores, strict=True))
    held = [0] * len(g.players)
    for seat, moves in g.history:
        assert all(isinstance(m, int) and 2 <= m <= 6 for m in moves[:-1])
        if moves[-1] == "hold":
            held[seat] += sum(moves[:-1])
        else:
            assert moves[-1] == 1
    assert tuple(held) == g.scores


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 300))
def test_records_round_trip_at_any_point(seed: int, steps: int) -> None:
    g, _ = random_game(seed, steps)
    again = load_any(g.to_record())  # through the registry, by the record's format
    assert isinstance(again, PigGame)
    assert again.to_record() == g.to_record() and again.view(0) == g.view(0)
    assert again.state_dict() == g.state_dict()
    for _ in range(30):  # the die rolls on alike: the generator draws once per roll
        if g.is_over:
            break
        for x in (g, again):
            x.sample_chance() if x.to_move == CHANCE else x.apply(x.legal_actions()[-1])
        assert again.to_record() == g.to_record()
    if g.at_turn_boundary:
        t = Timeline.from_record(g.to_record())
        assert sorted(t.turn_frames()) == list(range(g.turn_number + 1))


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 200), draw=st.integers(0, 10**6))
def test_clones_and_samples_are_the_same_state(seed: int, steps: int, draw: int) -> None:
    g, _ = random_game(seed, steps)
    before = g.to_record()
    c = g.clone()
    for _ in range(20):
        if c.is_over:
            break
        c.sample_chance() if c.to_move == CHANCE else c.apply(c.legal_actions()[0])
    assert g.to_record() == before
    for seat in range(len(g.players)):
        s = g.view(seat).sample(random.Random(draw))
        assert s.view(seat) == g.view(seat) and s.legal_actions() == g.legal_actions()
    assert g.returns() == tuple(float(x) for x in g.scores)
    assert g.at_turn_boundary == (not g.view(None).moves and g.to_move != CHANCE)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 300))
def test_every_state_is_the_one_dataclasses_replace_would_make(seed: int, steps: int) -> None:
    """The engine makes each new state with a fast copy of the last one's fields
    (``rules._replace``): every state reached holds exactly the view's fields, and rebuilding it
    through ``dataclasses.replace`` (the dataclass's own constructor) gives an equal state."""
    from dataclasses import fields, replace

    _, states = random_game(seed, steps)
    names = {f.name for f in fields(states[0]._s)}
    for g in states:
        for s in (g._s, g.view(0), g.view(None)):
            assert set(vars(s)) == names
            assert replace(s) == s and hash(replace(s)) == hash(s)
