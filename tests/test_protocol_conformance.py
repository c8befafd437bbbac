"""The game protocol's conformance test: every game of the package runs it.

It checks what :mod:`dsa_widget.core.protocol` promises, whatever the game:
random legal play to the end, chance outcomes summing to exactly 1, clones
independent of their originals, views that never hold a hidden value (the
same view whatever the hidden truth), samples consistent with their view,
and records that replay to the same state.  Hypothesis draws the games and
the move lists, so a failure shrinks to a short game.

A new game joins by adding its factory to ``GAMES`` (and a ``hide`` that
re-draws its hidden information keeping everything public).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import pytest
from helpers import play_choices
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget import Game
from dsa_widget.core import CHANCE, TERMINAL, GameState, GameView
from dsa_widget.core.errors import GameError
from dsa_widget.core.records import load as load_record
from dsa_widget.core.timeline import Timeline


@dataclass(frozen=True)
class GameKind:
    name: str
    #: a fresh game from a seed (the setup varies with it)
    new: Callable[[int], Any]
    #: the same position with its hidden information re-drawn from rng (public facts kept)
    hide: Callable[[Any, random.Random], Any]


def _dsa_new(seed: int) -> Game:
    r = random.Random(seed)
    return Game(
        players=r.randint(2, 6),
        air=r.randint(3, 25),
        rounds=r.randint(1, 3),
        seed=seed,
        options={
            "reveal": r.choice(["public", "owner"]),
            "drop_order": r.choice(["nearest_first", "farthest_first"]),
        },
    )


def _dsa_hide(g: Game, rng: random.Random) -> Game:
    """The same position with the values of unbanked chips shuffled within each level (what no
    seat may know)."""
    banked = {c for b in g.banked_chips for c in b}
    values = [g.chip(c)[1] for c in range(len(g.levels))]
    for level in (1, 2, 3, 4):
        ids = [c for c, lv in enumerate(g.levels) if lv == level and c not in banked]
        vals = [values[c] for c in ids]
        rng.shuffle(vals)
        for c, v in zip(ids, vals, strict=True):
            values[c] = v
    return Game.from_view(g.view(0), values)


GAMES = [GameKind("deep_sea", _dsa_new, _dsa_hide)]


_play = play_choices


moves = st.lists(st.integers(0, 1000), max_size=120)


def check_no_chance(g: Any) -> None:
    """``g``, a state of a game without chance, has no chance step: no outcomes, and applying
    or drawing one raises a :class:`~dsa_widget.core.errors.GameError`."""
    assert g.to_move != CHANCE and g.chance_outcomes() == ()
    for bad in (g.apply_chance, lambda _: g.sample_chance()):
        with pytest.raises(GameError):
            bad(None)


def check_clones(g: Any, more: list[int], snapshot: Callable[[Any], Any]) -> None:
    """A clone of ``g`` played on by ``more`` leaves ``g`` as it was (by ``snapshot``), and a
    second clone played alike ends alike: same moves, same game."""
    before = snapshot(g)
    c = _play(g.clone(), more)
    assert snapshot(g) == before  # the original did not move
    assert snapshot(_play(g.clone(), more)) == snapshot(c)  # same moves, same game


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_states_speak_the_protocol(seed: int, choices: list[int]) -> None:
    for kind in GAMES:
        g = _play(kind.new(seed), choices)
        assert isinstance(g, GameState)
        if g.to_move == CHANCE:
            outcomes = g.chance_outcomes()
            assert outcomes and sum(p for _, p in outcomes) == Fraction(1)
            assert all(p > 0 for _, p in outcomes) and g.legal_actions() == ()
        elif g.to_move == TERMINAL:
            assert g.is_over and g.legal_actions() == () and g.winners
        else:
            assert 0 <= g.to_move < len(g.players) and g.legal_actions()
            assert g.chance_outcomes() == ()
        assert len(g.returns()) == len(g.players)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves, more=moves)
def test_clones_are_independent(seed: int, choices: list[int], more: list[int]) -> None:
    for kind in GAMES:
        check_clones(_play(kind.new(seed), choices), more, Game.to_record)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves, shuffle=st.integers(0, 10**6))
def test_views_hold_no_hidden_information(seed: int, choices: list[int], shuffle: int) -> None:
    """A seat's view is the same whatever the hidden truth: re-drawing everything no seat may
    know leaves every view unchanged."""
    for kind in GAMES:
        g = _play(kind.new(seed), choices)
        other = kind.hide(g, random.Random(shuffle))
        for seat in range(len(g.players)):
            v = g.view(seat)
            assert isinstance(v, GameView) and v.seat == seat
            assert v == other.view(seat)


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves, sample=st.integers(0, 10**6))
def test_samples_are_consistent_with_their_view(seed: int, choices: list[int], sample: int) -> None:
    for kind in GAMES:
        g = _play(kind.new(seed), choices)
        for seat in range(len(g.players)):
            v = g.view(seat)
            s = v.sample(random.Random(sample))
            assert s.view(seat) == v
            assert s.to_move == g.to_move and s.legal_actions() == g.legal_actions()


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_records_round_trip(seed: int, choices: list[int]) -> None:
    """A record replays to the same state (at a turn boundary, which is what a record holds),
    and a timeline built from it seeks every turn."""
    for kind in GAMES:
        g = _play(kind.new(seed), choices)
        while not g.at_turn_boundary:
            if g.to_move == CHANCE:
                g.sample_chance()
            else:
                g.apply(g.legal_actions()[0])
        again = load_record(g.to_record())
        assert again.to_record() == g.to_record() and again.view(0) == g.view(0)
        t = Timeline.from_record(g.to_record())
        assert sorted(t.turn_frames()) == list(range(g.turn_number + 1))
        t.seek_turn(0)
        assert t.current.turn_number == 0 and t.current.at_turn_boundary


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_illegal_actions_change_nothing(seed: int, choices: list[int]) -> None:
    for kind in GAMES:
        g = _play(kind.new(seed), choices)
        before = g.to_record()
        for bad in ("no such action", None, 10**9, {"x": 1}, ("drop", -1)):
            try:
                g.apply(bad)
            except ValueError:
                pass
            else:
                raise AssertionError(f"{bad!r} was accepted")
            assert g.to_record() == before
