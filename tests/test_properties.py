"""Property-based tests over thousands of random legal games (hypothesis)."""

from __future__ import annotations

import json
import random

import pytest
from helpers import snapshot
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget import Game, IllegalActionError, load_record
from dsa_widget.deep_sea.rules import _normalize_choice

ALL_CHOICES = (
    "back",
    "continue",
    "roll",
    "none",
    "take",
    "drop 0",
    "drop 1",
    "drop 5",
    "drop 40",
    "swim",
    "",
    {"drop": -1},
    ("drop", 1),
    None,
    3,
)

options = st.fixed_dictionaries(
    {
        "turn_back_requires_treasure": st.booleans(),
        "drop_order": st.sampled_from(["nearest_first", "farthest_first"]),
        "tiebreak": st.sampled_from(["level4", "levels_desc"]),
        "reveal": st.sampled_from(["public", "owner"]),
    }
)
chips = st.tuples(st.integers(1, 4), st.integers(0, 20))
setups = st.fixed_dictionaries(
    {
        "players": st.integers(2, 6),
        "air": st.integers(1, 30),
        "rounds": st.integers(1, 4),
        "seed": st.integers(0, 2**31),
        "options": options,
    },
    optional={"path": st.lists(chips, min_size=1, max_size=40)},
).map(lambda d: {**d, "first_player": d["seed"] % d["players"]})


# Turn budget: at most (path + 2) * players turns a round would already be generous; air also bounds it.
def _turn_bound(g: Game) -> int:
    return g.setup.rounds * (len(g.setup.path) + 8) * g.setup.n_players * 4


def _all_chip_ids(g: Game) -> list[int]:
    ids = [c for item in g._path if item is not None for c in item]
    ids += [c for items in g._carry for item in items for c in item]
    ids += [c for b in g._banked for c in b]
    return sorted(ids)


def _check_invariants(g: Game, prev_air: int, prev_round: int) -> None:
    # Chips are never created or lost: path + carried + banked (+ sunk, which lie on the path) = setup.
    assert _all_chip_ids(g) == list(range(len(g.setup.path)))
    # No two divers share a path space, and the occupancy table agrees.
    on_path = [p for p in g._pos if p > 0]
    assert len(on_path) == len(set(on_path))
    for q, p in enumerate(g._pos):
        if p:
            assert g._occ[p] == q
    assert sum(1 for o in g._occ if o >= 0) == len(on_path)
    # Air never rises within a round.
    if g.round == prev_round and not g.is_over:
        assert g._air <= prev_air
    # Returned divers are in the submarine; scores are what was banked.
    for q in range(g._n):
        if g._home[q]:
            assert g._pos[q] == 0
        assert g._score[q] == sum(g._val[c] for c in g._banked[q])
    # The legal choices are consistent with the step.
    if g.is_over:
        assert g.legal_choices() == () and g.current_player is None
    else:
        assert g.legal_choices()


#: a drawn move list: each entry picks one of the legal choices (the dice are the game's own),
#: so a failing game shrinks to a short list of moves
moves = st.lists(st.integers(0, 40), max_size=300)


def _play_prefix(setup: dict, choices: list[int]) -> Game:
    """A game after the drawn ``choices`` (or at its end, if sooner)."""
    g = Game(**setup)
    for k in choices:
        if g.is_over:
            break
        legal = g.legal_choices()
        g.apply(legal[k % len(legal)])
    return g


def _play_random(g: Game, rng: random.Random, check_illegal: bool = False) -> int:
    steps = 0
    bound = _turn_bound(g)
    while not g.is_over:
        prev_air, prev_round = g.air, g.round
        if check_illegal and rng.random() < 0.2:
            bad = rng.choice(ALL_CHOICES)
            if _normalize_choice(bad) not in g.legal_choices():
                before = snapshot(g)
                try:
                    g.apply(bad)  # type: ignore[arg-type]
                except IllegalActionError:
                    pass
                else:
                    raise AssertionError(f"{bad!r} accepted at step {g.step}")
                assert snapshot(g) == before
        g.apply(rng.choice(g.legal_choices()))
        steps += 1
        _check_invariants(g, prev_air, prev_round)
        assert g.turn_number <= bound, "game did not end within the turn bound"
    return steps


@pytest.mark.slow
@settings(max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=setups, play_seed=st.integers(0, 2**31))
def test_random_games_keep_invariants_and_replay(setup, play_seed):
    g = Game(**setup)
    rng = random.Random(play_seed)
    _play_random(g, rng, check_illegal=True)
    assert g.winners and all(g.scores[w] == max(g.scores) for w in g.winners)
    # Replaying the saved record gives the identical state.
    rec = json.loads(json.dumps(g.to_record()))
    again = load_record(rec)
    assert again.state_dict() == g.state_dict()
    assert again.history == g.history


@settings(max_examples=300, deadline=None)
@given(setup=setups, choices=moves)
def test_views_never_hold_unbanked_values(setup, choices):
    g = _play_prefix(setup, choices)
    # mid-game records (completed turns) replay to the same state too
    if g.is_over or (g.step in ("turn_back", "roll") and not g._breathed):
        assert load_record(g.to_record()).state_dict() == g.state_dict()
    banked_by = {c: q for q, b in enumerate(g._banked) for c in b}
    for seat in range(g._n):
        v = g.view(seat)
        public = g.setup.options.reveal == "public" or g.is_over
        for c in v.known:
            assert c in banked_by
            assert public or banked_by[c] == seat
        text = json.dumps(v.to_dict())
        d = v.to_dict()
        for item in d["path"] + [it for dv in d["divers"] for it in dv["carrying"]]:
            if item != "blank":
                assert all(chip[1] == "?" for chip in item), text
        # the unseen pool has exactly one value per unknown chip, by level
        for level in (1, 2, 3, 4):
            unknown = [c for c in range(len(g._lv)) if g._lv[c] == level and c not in v.known]
            assert sorted(g._val[c] for c in unknown) == list(v.unseen[level])


@settings(max_examples=150, deadline=None)
@given(setup=setups, choices=moves, play_seed=st.integers(0, 2**31))
def test_copies_are_independent(setup, choices, play_seed):
    g = _play_prefix(setup, choices)
    before = snapshot(g)
    c = g.copy()
    assert snapshot(c) == before
    _play_random(c, random.Random(play_seed + 1))
    assert snapshot(g) == before
    # the copy rolls the same dice as the original would
    c2 = g.copy()
    for _ in range(30):
        if g.is_over:
            break
        choice = g.legal_choices()[0]
        g.apply(choice)
        c2.apply(choice)
        assert g.state_dict() == c2.state_dict()


@settings(max_examples=150, deadline=None)
@given(setup=setups, choices=moves)
def test_determinization_agrees_with_the_view(setup, choices):
    g = _play_prefix(setup, choices)
    if g.is_over:
        return
    seat = g.current_player
    v = g.view(seat)
    s = v.sample(random.Random(1))
    # the sample is a game in the same public state
    assert s.view(seat) == v
    assert s.legal_choices() == g.legal_choices()
    # and it plays on to the end under the rules
    _play_random(s, random.Random(2))
