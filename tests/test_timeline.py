"""What-if: branches, undo/redo and scrubbing (issue 5, items 1-2)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget import Game, IllegalChoiceError, load_record
from dsa_widget.timeline import Timeline, TimelineError, compare
from helpers import random_game, snapshot


def _advance(t: Timeline, rng: random.Random, n: int) -> None:
    for _ in range(n):
        if t.game.is_over:
            return
        if t.game.step == "roll" and rng.random() < 0.5:
            t.roll((rng.randint(1, 3), rng.randint(1, 3)))
        else:
            t.apply(rng.choice(t.game.legal_choices()))


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6), k=st.integers(0, 150), m=st.integers(1, 80))
def test_branching_never_changes_the_original(seed, players, k, m):
    rng = random.Random(seed)
    t = Timeline(Game(players=players, seed=seed))
    _advance(t, rng, k)
    before = snapshot(t.game)
    index, length = t.index, len(t)
    b = t.branch()
    _advance(b, random.Random(seed + 1), m)
    if b.can_undo:
        b.undo()
    assert snapshot(t.game) == before
    assert (t.index, len(t)) == (index, length)


@settings(max_examples=100, deadline=None)
@given(seed=st.integers(0, 10**6), k=st.integers(1, 120))
def test_undo_redo_round_trip(seed, k):
    rng = random.Random(seed)
    t = Timeline(Game(players=3, seed=seed))
    states = [snapshot(t.game)]
    for _ in range(k):
        if t.game.is_over:
            break
        t.apply(rng.choice(t.game.legal_choices()))
        states.append(snapshot(t.game))
    n = t.index
    for i in range(n, 0, -1):
        assert snapshot(t.game) == states[i]
        t.undo()
    assert snapshot(t.game) == states[0] and not t.can_undo
    t.redo(n)
    assert snapshot(t.game) == states[-1] and not t.can_redo


def test_acting_after_undo_drops_the_redo_frames():
    t = Timeline(Game(players=2, seed=1))
    t.roll((1, 1))
    t.undo()
    t.roll((3, 3))
    assert not t.can_redo and t.game.divers[0].position == 6


def test_illegal_choice_in_timeline_changes_nothing():
    t = Timeline(Game(players=2, seed=1))
    with pytest.raises(IllegalChoiceError):
        t.apply("take")
    assert len(t) == 1 and t.index == 0
    with pytest.raises(TimelineError):
        t.undo()
    with pytest.raises(TimelineError):
        t.redo()
    with pytest.raises(TimelineError):
        t.seek_turn(5)


@pytest.mark.parametrize("seed", range(12))
def test_scrubbing_shows_exactly_the_recorded_state_of_each_turn(seed):
    g = random_game(seed, players=2 + seed % 5)
    rec = g.to_record()
    t = Timeline.from_record(rec)
    assert t.game.state_dict() == g.state_dict()
    frames = t.turn_frames()
    assert len(frames) == len(rec["turns"]) + 1
    for k in range(len(frames)):
        t.seek_turn(k)
        expected = load_record({**rec, "turns": rec["turns"][:k]})
        assert t.game.state_dict() == expected.state_dict()


def test_turn_frames_of_a_live_timeline():
    rng = random.Random(4)
    t = Timeline(Game(players=2, seed=4))
    while t.game.turn_number < 10:
        t.apply(rng.choice(t.game.legal_choices()))
    rec = t.game.to_record()
    for k, i in enumerate(t.turn_frames()):
        t.seek(i)
        assert t.game.state_dict() == load_record({**rec, "turns": rec["turns"][:k]}).state_dict()


def test_compare_table():
    a = Game(players=["Ann", "Bob"], seed=2)
    b = a.copy()
    b.roll((3, 3))
    b.apply("take")
    c = compare(real=a, what_if=b)
    assert [r["name"] for r in c.rows] == ["real", "what_if"]
    assert c.rows[1]["divers"][0] == {"position": 6, "returned": False, "items": 1, "heading": "down"}
    html = c._repr_html_()
    assert "<table>" in html and "what_if" in html
    evil = Game(players=["<b>x</b>", "Bob"], seed=1)
    assert "<b>x</b>" not in compare(x=evil)._repr_html_()
    with pytest.raises(ValueError):
        compare()
