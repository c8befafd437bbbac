"""What-if: branches, undo/redo and scrubbing (issue 5, items 1-2)."""

from __future__ import annotations

import random

import pytest
from helpers import random_game, snapshot
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget import Game, IllegalActionError, load_record
from dsa_widget.core.timeline import Timeline, TimelineError
from dsa_widget.deep_sea.compare import compare


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
    with pytest.raises(IllegalActionError):
        t.apply("take")
    assert len(t) == 1 and t.index == 0
    with pytest.raises(TimelineError):
        t.undo()
    with pytest.raises(TimelineError):
        t.redo()
    with pytest.raises(TimelineError, match=r"turn 5 is not in this timeline \(turns 0\.\.0\)"):
        t.seek_turn(5)


@pytest.mark.parametrize("seed", range(12))
def test_scrubbing_shows_exactly_the_recorded_state_of_each_turn(seed):
    g = random_game(seed, players=2 + seed % 5)
    rec = g.to_record()
    t = Timeline.from_record(rec)
    assert t.game.state_dict() == g.state_dict()
    frames = t.turn_frames()
    assert sorted(frames) == list(range(len(rec["turns"]) + 1))
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
    frames = t.turn_frames()
    assert sorted(frames) == list(range(11))
    for k, i in frames.items():
        t.seek(i)
        assert t.game.state_dict() == load_record({**rec, "turns": rec["turns"][:k]}).state_dict()


@pytest.mark.parametrize("seed", range(6))
def test_scrubbing_a_timeline_started_mid_game_and_its_branches(seed):
    """Turns are the game's: a timeline (or a branch) started after k turns scrubs turns k, k+1, ..."""
    rng = random.Random(seed)
    g = random_game(seed, players=2 + seed % 4)
    rec = g.to_record()
    k0 = rng.randrange(1, len(rec["turns"]) - 3)
    start = load_record({**rec, "turns": rec["turns"][:k0]})
    if seed % 2:  # start in the middle of a turn: that turn's start is not in the timeline
        start.apply(start.legal_choices()[0])
    t = Timeline(start)
    while not t.game.is_over and t.game.turn_number < k0 + 3:
        t.apply(rng.choice(t.game.legal_choices()))
    first = k0 + seed % 2
    frames = t.turn_frames()
    assert sorted(frames) == list(range(first, t.game.turn_number + 1))
    played = t.game.to_record()
    for k in frames:
        t.seek_turn(k)
        assert t.game.state_dict() == load_record({**played, "turns": played["turns"][:k]}).state_dict()
    with pytest.raises(TimelineError, match=f"turns {first}\\.\\."):
        t.seek_turn(first - 1)
    b = t.branch()  # a branch from turn `last` knows its own turn number
    last = max(frames)
    assert b.turn_frames() == {last: 0}
    b.seek_turn(last)


def test_timeline_game_is_a_copy():
    """Acting on t.game by mistake leaves the timeline as it was."""
    t = Timeline(Game(players=2, seed=1))
    g = t.game
    g.roll((3, 3))
    assert t.game.step == "roll" and len(t) == 1 and not t.can_undo


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
