"""The game protocol's conformance checks (tests/test_protocol_conformance.py) run on The Crew.

The shared module's tests iterate its own ``GAMES`` and assume what holds for Deep Sea Adventure
(a winner at every end, no hidden hand, ``to_record`` loadable as it is), so the checks are
written again here for :class:`CrewGame`, reusing its :class:`GameKind` and move-list player
``_play``: protocol shape, independent clones, illegal actions that change nothing, views that
hold no hidden card (re-drawing what a seat may not know leaves its view unchanged), samples
consistent with their view, ``legal_actions`` / ``apply`` agreement, returns at the end, and
records that replay to the same state, also through :class:`~dsa_widget.core.timeline.Timeline`.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from test_protocol_conformance import GameKind, _play, check_clones, check_no_chance

from dsa_widget.core import TERMINAL, GameState, GameView
from dsa_widget.core.errors import GameError
from dsa_widget.core.records import load as load_any
from dsa_widget.core.timeline import Timeline
from dsa_widget.crew.record import game_to_record, load_record, state_dict
from dsa_widget.crew.rules import CrewGame

_MISSIONS: list[dict[str, Any]] = [
    {"target": 2},
    {"target": 5},
    {"campaign": 6},
    {"campaign": 9},
    {"campaign": 10},
    {"campaign": 11},
    {"campaign": 12},
    {"campaign": 14},
    {"campaign": 17},
    {"campaign": 20},
    {"campaign": 26},
    {"campaign": 32},
]
_OPTIONS: list[dict[str, Any]] = [
    {},
    {"communication_window": "free"},
    {"token_position": "any_true", "prediction_timing": "on_take"},
    {"tonoja_seat_order": "H0-T-H1", "trick_history_visibility": "all"},
]


def _crew_new(seed: int) -> CrewGame:
    r = random.Random(seed)
    return CrewGame(r.randint(2, 5), seed=seed, options=r.choice(_OPTIONS), **r.choice(_MISSIONS))


def _crew_hide(g: CrewGame, rng: random.Random, seat: int | None = 0) -> CrewGame:
    """The same position with everything ``seat`` may not know re-drawn (a sample of its view)."""
    return g.view(seat).sample(rng)


CREW = GameKind("crew", _crew_new, _crew_hide)
moves = st.lists(st.integers(0, 1000), max_size=120)


def snapshot(g: CrewGame) -> tuple[Any, ...]:
    return (state_dict(g), g.actions, g.events, [g.view(s) for s in range(g.seats)])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_states_speak_the_protocol(seed: int, choices: list[int]) -> None:
    g = _play(CREW.new(seed), choices)
    assert isinstance(g, GameState)
    if g.to_move == TERMINAL:
        assert g.is_over and g.legal_actions() == ()
        ok = g.outcome is not None and g.outcome.result == "success"
        assert g.winners == (tuple(range(g.seats)) if ok else ())
        assert g.returns() == tuple([1.0 if ok else 0.0] * g.seats)
    else:
        assert not g.is_over and 0 <= g.to_move < g.seats and g.legal_actions()
        assert g.returns() == tuple([0.0] * g.seats)
    assert len(g.returns()) == len(g.players) == g.seats
    check_no_chance(g)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves, more=moves)
def test_clones_are_independent(seed: int, choices: list[int], more: list[int]) -> None:
    check_clones(_play(CREW.new(seed), choices), more, snapshot)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), choices=moves, shuffle=st.integers(0, 10**6))
def test_views_hold_no_hidden_information(seed: int, choices: list[int], shuffle: int) -> None:
    """Every seat's (and a spectator's) view is the same whatever the cards it may not see are:
    re-drawing them leaves the view unchanged, and the view's JSON holds no other seat's card
    that was not shown to the table."""
    g = _play(CREW.new(seed), choices)
    assume(g.step != "timing")  # sampling before the deal: see test_a_view_before_the_deal_samples
    rng = random.Random(shuffle)
    for seat in [None, *range(g.seats)]:
        v = g.view(seat)
        assert isinstance(v, GameView) and v.seat == seat
        for _ in range(2):
            other = CREW.hide(g, rng) if seat == 0 else _crew_hide(g, rng, seat)
            assert other.view(seat) == v and other.view(seat).to_dict() == v.to_dict()


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), choices=moves, sample=st.integers(0, 10**6))
def test_samples_are_consistent_with_their_view(seed: int, choices: list[int], sample: int) -> None:
    g = _play(CREW.new(seed), choices)
    assume(g.step != "timing")  # sampling before the deal: see test_a_view_before_the_deal_samples
    for seat in range(g.seats):
        v = g.view(seat)
        s = v.sample(random.Random(sample))
        assert s.view(seat) == v
        assert s.to_move == g.to_move and s.legal_actions_for(seat) == g.legal_actions_for(seat)


def test_a_view_before_the_deal_samples() -> None:
    g = CrewGame(4, seed=16, campaign=14)  # a timer with an untimed alternative: the crew chooses first
    assert g.step == "timing"
    for seat in (None, 0, 1):
        s = g.view(seat).sample(random.Random(0))
        assert s.view(seat) == g.view(seat)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_records_round_trip(seed: int, choices: list[int]) -> None:
    """A record replays to the same state (through the package's loader too), and a timeline
    built from it seeks every turn."""
    g = _play(CREW.new(seed), choices)
    rec = game_to_record(g)
    for again in (load_record(rec), load_any(rec)):
        assert state_dict(again) == state_dict(g)
        assert all(again.view(s) == g.view(s) for s in range(g.seats))
        assert game_to_record(again)["turns"] == rec["turns"]
    t = Timeline.from_record(rec)
    assert sorted(t.turn_frames()) == list(range(g.turn_number + 1))
    assert state_dict(t.current) == state_dict(g)
    t.seek_turn(0)
    assert t.current.turn_number == 0 and t.current.at_turn_boundary


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_illegal_actions_change_nothing(seed: int, choices: list[int]) -> None:
    g = _play(CREW.new(seed), choices)
    before = snapshot(g)
    for bad in ("no such action", None, 10**9, {"x": 1}, ("drop", -1), "play Q1", "take 999", "comm", ""):
        with pytest.raises(GameError):
            g.apply(bad)  # type: ignore[arg-type]
        assert snapshot(g) == before
    if not g.timer_started:
        with pytest.raises(GameError):
            g.apply("timeout")
        assert snapshot(g) == before
    for seat in (-1, g.seats, 10**9):  # a seat that does not exist, whatever the action
        for action in g.legal_actions()[:2]:
            with pytest.raises(GameError):
                g.apply(action, seat=seat)
            assert snapshot(g) == before


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_every_legal_action_applies(seed: int, choices: list[int]) -> None:
    """What ``legal_actions`` (and ``legal_actions_for`` another seat) lists, ``apply`` accepts,
    and the checked and unchecked paths reach the same state."""
    g = _play(CREW.new(seed), choices)
    for seat in range(g.seats):
        for action in g.legal_actions_for(seat)[:20]:
            a, b = g.clone(), g.clone()
            a.apply(action, seat=seat)
            b.apply_unchecked(action, seat=seat)
            assert a.turn_number == g.turn_number + 1
            assert state_dict(a) == state_dict(b)
    assert g.legal_actions() == g.legal_actions_for(g.to_move) or g.is_over


@pytest.mark.parametrize("seed", range(8))
def test_complete_games_end_with_returns(seed: int) -> None:
    r = random.Random(seed)  # random actions, then the first legal ones (a crew can decline forever)
    g = _play(CREW.new(seed), [r.randrange(1000) for _ in range(300)] + [0] * 2000)
    assert g.is_over and g.to_move == TERMINAL and g.outcome is not None
    assert set(g.returns()) == {1.0 if g.outcome.result == "success" else 0.0}
    assert state_dict(load_record(game_to_record(g)))["outcome"] == g.outcome.as_dict()


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_the_engine_record_pair_round_trips(seed: int, choices: list[int]) -> None:
    """The engine's own ``to_record`` / ``from_record`` pair (the protocol's) gives the state back."""
    g = _play(CREW.new(seed), choices)
    again = CrewGame.from_record(g.to_record())
    assert state_dict(again) == state_dict(g)
    assert all(again.view(s) == g.view(s) for s in range(g.seats))
