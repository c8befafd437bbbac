"""The game protocol's conformance checks (tests/test_protocol_conformance.py) run on Submarine.

Reused: :class:`GameKind` and the move-list player ``_play``.  Written again here because the
shared tests assume what holds for Deep Sea Adventure (chance nodes, ``legal_actions`` equal in
every seat's sample): protocol shape, independent clones, illegal actions that change nothing,
views that hold no hidden card (re-dealing what a seat may not know leaves its view unchanged),
samples consistent with their view, checked and unchecked paths agreeing, records that replay,
also through :class:`~dsa_widget.core.timeline.Timeline`, and random play that always ends.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_protocol_conformance import GameKind, _play, check_clones, check_no_chance

from dsa_widget.core import TERMINAL, GameState, GameView
from dsa_widget.core.errors import GameError
from dsa_widget.core.records import load as load_any
from dsa_widget.core.timeline import Timeline
from dsa_widget.submarine.record import game_to_record, load_record
from dsa_widget.submarine.rules import SubmarineGame

_OPTIONS: list[dict[str, Any]] = [
    {},
    {"activation_mode": "independent", "board_jokers": "collectable"},
    {"uniform_move_all": False, "payment_basis": "per_opponent", "payment_destination": "bottom"},
    {"payment_shortfall": "use_hand", "exchange_on_arrival": True, "tie_rule": "most_cards"},
    {"payment_shortfall": "pay_what_you_can", "end_always_allowed": False, "deck": "75"},
    {"bathyscaphes_per_player": "always5", "cards_per_player": "linear", "start_player": 1},
]


def _new(seed: int) -> SubmarineGame:
    r = random.Random(seed)
    return SubmarineGame(r.randint(2, 5), seed=seed, options=r.choice(_OPTIONS))


def _hide(g: SubmarineGame, rng: random.Random, seat: int | None = 0) -> SubmarineGame:
    return g.view(seat).sample(rng)


SUB = GameKind("submarine", _new, _hide)
moves = st.lists(st.integers(0, 1000), max_size=150)


def snapshot(g: SubmarineGame) -> tuple[Any, ...]:
    return (g.state_dict(), g.history, g.events, [g.view(s) for s in range(g.seats)])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_states_speak_the_protocol(seed: int, choices: list[int]) -> None:
    g = _play(SUB.new(seed), choices)
    as_object: object = g
    assert isinstance(as_object, GameState)
    if g.to_move == TERMINAL:
        assert g.is_over and g.legal_actions() == () and g.winners
        assert g.returns() == tuple(float(s) for s in g.scores)
    else:
        assert not g.is_over and 0 <= g.to_move < g.seats and g.legal_actions()
        assert g.returns() == (0.0,) * g.seats and g.winners == ()
    assert len(g.legal_actions()) == len(set(g.legal_actions()))
    check_no_chance(g)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves, more=moves)
def test_clones_are_independent(seed: int, choices: list[int], more: list[int]) -> None:
    check_clones(_play(SUB.new(seed), choices), more, snapshot)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), choices=moves, shuffle=st.integers(0, 10**6))
def test_views_hold_no_hidden_information(seed: int, choices: list[int], shuffle: int) -> None:
    """SUBMARINE.md §3 visibility: re-dealing every card a seat may not see (other hands, all piles,
    the undealt rest) leaves its view, and its JSON, unchanged; the JSON holds only the own hand."""
    g = _play(SUB.new(seed), choices)
    rng = random.Random(shuffle)
    for seat in [None, *range(g.seats)]:
        v = g.view(seat)
        as_object: object = v
        assert isinstance(as_object, GameView) and v.seat == seat
        d = v.to_dict()
        assert not {"hands", "piles", "undealt"} & set(d)
        assert d["hand"] == (None if seat is None else list(g.hand(seat)))
        for _ in range(2):
            other = _hide(g, rng, seat)
            assert other.view(seat) == v and other.view(seat).to_dict() == d


def test_a_reshuffled_truth_gives_the_same_views() -> None:
    """Views never leak: permute the piles' contents and the other hands by hand (not via sample)."""
    g = _play(SUB.new(5), [random.Random(1).randrange(1000) for _ in range(200)])
    d = g.state_dict()
    cards = [c for p in d["piles"] for c in p] + [c for h in d["hands"][1:] for c in h] + d["undealt"]
    random.Random(2).shuffle(cards)
    for p in range(1, g.seats):
        k = len(d["hands"][p])
        d["hands"][p], cards = sorted(cards[:k]), cards[k:]
    for p in range(g.seats):
        k = len(d["piles"][p])
        d["piles"][p], cards = cards[:k], cards[k:]
    d["undealt"] = sorted(cards)
    other = SubmarineGame.from_state_dict(d)
    assert other.view(0).to_dict() == g.view(0).to_dict()
    assert other.view(None) == g.view(None)


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10**6), choices=moves, sample=st.integers(0, 10**6))
def test_samples_are_consistent_with_their_view(seed: int, choices: list[int], sample: int) -> None:
    g = _play(SUB.new(seed), choices)
    for seat in range(g.seats):
        v = g.view(seat)
        s = v.sample(random.Random(sample))
        assert s.view(seat) == v and s.to_move == g.to_move
        assert s.legal_actions_for(seat) == g.legal_actions_for(seat)
        if not s.is_over:  # a sample plays on
            s.apply(s.legal_actions()[0])


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_records_round_trip(seed: int, choices: list[int]) -> None:
    """A record replays to the same state (through the package's loader too), and a timeline built
    from it seeks every turn."""
    g = _play(SUB.new(seed), choices)
    while not g.at_turn_boundary:
        g.apply(g.legal_actions()[0])
    rec = game_to_record(g)
    for again in (load_record(rec), load_any(rec), SubmarineGame.from_record(g.to_record())):
        assert again.state_dict() == g.state_dict()
        assert all(again.view(s) == g.view(s) for s in range(g.seats))
        assert game_to_record(again) == rec
    t = Timeline.from_record(rec)
    assert sorted(t.turn_frames()) == list(range(g.turn_number + 1))
    assert t.current.state_dict() == g.state_dict()
    t.seek_turn(0)
    assert t.current.turn_number == 0 and t.current.at_turn_boundary


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_a_record_of_a_turn_in_progress_replays(seed: int, choices: list[int]) -> None:
    g = _play(SUB.new(seed), choices)
    assert load_record(game_to_record(g)).state_dict() == g.state_dict()


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_illegal_actions_change_nothing(seed: int, choices: list[int]) -> None:
    g = _play(SUB.new(seed), choices)
    before = snapshot(g)
    bad: list[Any] = [
        "no such action",
        None,
        10**9,
        {"x": 1},
        ("drop", -1),
        "",
        "sail 9",
        "move 1.1 1.0",
        "collect 1.1 T99K1 card",
        "exchange K9",
        "place 7",
        "mode swim",
        "end now",
    ]
    for a in bad:
        with pytest.raises(GameError):
            g.apply(a)
        assert snapshot(g) == before


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), choices=moves)
def test_checked_and_unchecked_agree(seed: int, choices: list[int]) -> None:
    g = _play(SUB.new(seed), choices)
    for action in g.legal_actions()[:25]:
        a, b = g.clone(), g.clone()
        a.apply(action)
        b.apply_unchecked(action)
        assert a.state_dict() == b.state_dict()


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 10**6), n=st.integers(2, 5), options=st.sampled_from(_OPTIONS))
def test_random_play_always_ends_with_scores(seed: int, n: int, options: dict[str, Any]) -> None:
    """Random legal play terminates (E1-E4, long before the turn limit of 5,000 turns; the
    longest of these option sets needs 300 to 2,500) with scores, and never raises."""
    g = SubmarineGame(n, seed=seed, options=options)
    rng = random.Random(seed)
    for _ in range(50_000):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    assert g.is_over and g.result is not None and g.result[0] in ("E1", "E2", "E3", "E4")
    assert len(g.scores) == n and set(g.winners) <= set(range(n)) and g.winners
    assert max(g.scores) == 12 if g.result[0] == "E1" else max(g.scores) <= 11


def test_play_record_turn_is_checked_as_a_whole() -> None:
    g = SubmarineGame(2, seed=3)
    while g.phase == "place":
        g.play_record_turn({"seat": g.to_move, "actions": ["place 2"]})
    before = g.state_dict()
    with pytest.raises(GameError):
        g.play_record_turn({"seat": g.to_move, "actions": ["sail 2"]})  # the step is missing
    with pytest.raises(GameError):
        g.play_record_turn({"seat": 1 - g.to_move, "actions": ["sail end"]})
    with pytest.raises(GameError):
        g.play_record_turn({"seat": g.to_move, "actions": ["sail end", "pass"]})
    assert g.state_dict() == before
    g.play_record_turn(["sail end"])
    assert g.turn_number == 11


def test_the_card_a_waiting_player_tucks_is_named_to_nobody_else() -> None:
    """SUBMARINE.md 5.2: the card put under one's own pile goes face down; the other seats (and
    a spectator) see that an exchange happened, never the card."""
    g = SubmarineGame(3, seed=2)
    d = g.state_dict()
    active = d["active"]
    d["current_turn"] = ["exchange K2"]
    h = SubmarineGame.from_state_dict(d)
    assert h.view(active).to_dict()["current_turn"] == ["exchange K2"]
    for seat in [s for s in range(3) if s != active] + [None]:
        assert h.view(seat).to_dict()["current_turn"] == ["exchange ?"]
