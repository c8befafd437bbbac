"""The Crew's fast observation (:class:`~dsa_widget.crew.encoding.CrewTracker`) gives exactly
the reference ``CrewEncoding.observe(game.view(seat))`` for every seat, at 2-5 players, in every
step, under the communication modes, secret predictions and the distress signal; and it keeps
each seat to what it may know (CREW.md section 15)."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.crew import encoding as crew_encoding
from dsa_widget.crew import view as crew_view
from dsa_widget.crew.encoding import CrewEncoding
from dsa_widget.crew.errors import SetupError
from dsa_widget.crew.rules import CrewGame
from dsa_widget.crew.view import EncodingView, encoding_view

ENC = CrewEncoding()
SECRET_TASK = 85  # "trick_count" with a secret prediction


def _game(
    players: int, comm: str, allocation: str, options: dict[str, Any], secret: bool, seed: int
) -> CrewGame:
    mission: dict[str, Any] = {"target": 3, "allocation": allocation, "communication": comm}
    if secret:
        mission = {**mission, "target": None, "fixed_tasks": [SECRET_TASK, 1]}
    return CrewGame(players, mission=mission, options=options, seed=seed)


def _check_every_seat(game: CrewGame, tracker: Any, rng: random.Random) -> None:
    for seat in rng.sample(range(game.seats), game.seats):
        want = np.asarray(ENC.observe(game.view(seat)), np.float32)
        assert np.array_equal(tracker.observe(seat), want), (seat, game.step, game.turn_number)


@settings(max_examples=25, deadline=None)
@given(
    players=st.integers(2, 5),
    comm=st.sampled_from(["normal", "currents", "rapture", "none"]),
    allocation=st.sampled_from(["normal", "captain_decides", "one_owner", "skip_captain"]),
    token_position=st.sampled_from(["forced", "any_true"]),
    two_player_distress=st.sampled_from(["off", "humans_swap"]),
    prediction_timing=st.sampled_from(["before_play", "on_take"]),
    secret=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_the_tracker_equals_the_reference_for_every_seat(
    players: int,
    comm: str,
    allocation: str,
    token_position: str,
    two_player_distress: str,
    prediction_timing: str,
    secret: bool,
    seed: int,
) -> None:
    options = {
        "token_position": token_position,
        "two_player_distress": two_player_distress,
        "prediction_timing": prediction_timing,
    }
    try:
        game = _game(players, comm, allocation, options, secret, seed)
    except SetupError:
        return
    tracker = ENC.tracker(game)
    rng = random.Random(seed)
    for _ in range(200):
        _check_every_seat(game, tracker, rng)
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_tracker_covers_currents_secret_predictions_and_distress(players: int) -> None:
    """Walk games until each seat-private feature was observed: a communication under currents
    (R-11: only its author knows its position), a secret prediction (R-8.2: only its owner
    sees it until resolved) and a card passed in distress (R-9: only giver and receiver)."""
    seen = {"currents": False, "secret": False, "distress": False}
    for seed in range(40):
        options = {"two_player_distress": "humans_swap", "prediction_timing": "on_take"}
        game = _game(players, "currents", "normal", options, True, seed)
        tracker = ENC.tracker(game)
        rng = random.Random(seed)
        while not game.is_over and game.turn_number < 200:
            _check_every_seat(game, tracker, rng)
            v = game.view(None)
            seen["currents"] |= any(c.position == "unknown" for c in v.communicated)
            seen["secret"] |= any(hidden for *_, hidden in v.tasks)
            seen["distress"] |= bool(v.distress.get("active"))
            legal = game.legal_actions()
            pick = [a for a in legal if a.startswith(("comm", "distress cw", "agree"))]
            game.apply(rng.choice(pick if pick and rng.random() < 0.7 else legal))
        _check_every_seat(game, tracker, rng)
        if all(seen.values()):
            break
    assert all(seen.values()), seen


def test_a_wrong_seat_patch_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    """The check above can fail: a tracker that forgets a seat's own hand differs."""
    real = crew_encoding.CrewTracker.observe

    def forgetful(self: Any, seat: int) -> Any:
        out = real(self, seat)
        h = crew_encoding._AT["hand"]
        out[h : h + 40] = 0.0
        return out

    monkeypatch.setattr(crew_encoding.CrewTracker, "observe", forgetful)
    game = CrewGame(4, seed=5)
    while game.step == "timing":
        game.apply(game.legal_actions()[0])
    with pytest.raises(AssertionError):
        _check_every_seat(game, ENC.tracker(game), random.Random(0))


def test_the_tracker_gives_a_seat_the_same_observation_whatever_it_cannot_see() -> None:
    """CREW.md section 15: a seat sees its own hand and the public table.  Games rebuilt from
    the seat's view with the unseen cards dealt afresh give it the same fast observation."""
    rng = random.Random(2)
    game = CrewGame(4, seed=11)
    while game.trick_number < 2 and not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    hands = [game.hand(q) for q in range(4)]
    redealt = 0
    for seat in range(4):
        mine = ENC.tracker(game).observe(seat)
        for _ in range(4):
            world = game.view(seat).sample(rng)
            redealt += [world.hand(q) for q in range(4)] != hands
            assert np.array_equal(ENC.tracker(world).observe(seat), mine)
    assert redealt


@settings(max_examples=15, deadline=None)
@given(
    players=st.integers(2, 5),
    comm=st.sampled_from(["normal", "currents", "rapture"]),
    secret=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_the_lean_public_view_equals_the_spectator_view_in_what_it_holds(
    players: int, comm: str, secret: bool, seed: int
) -> None:
    """The tracker encodes ``encoding_view`` (the spectator's view without what the encoding
    does not read): every field it has equals the spectator's view's, but the task progress it
    leaves out, in every position (CREW.md section 15: the spectator sees the public table)."""
    options = {"two_player_distress": "humans_swap", "prediction_timing": "on_take"}
    try:
        game = _game(players, comm, "normal", options, secret, seed)
    except SetupError:
        return
    rng = random.Random(seed)
    for _ in range(200):
        lean, full = encoding_view(game), game.view(None)
        for name in (f.name for f in dataclasses.fields(EncodingView)):
            mine, theirs = getattr(lean, name), getattr(full, name)
            if name == "tasks":
                mine = [row[:4] + row[5:] for row in mine]
                theirs = [row[:4] + row[5:] for row in theirs]
            assert mine == theirs, (name, game.turn_number)
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))


@settings(max_examples=10, deadline=None)
@given(
    players=st.integers(3, 5),
    comm=st.sampled_from(["normal", "currents", "rapture"]),
    seed=st.integers(0, 2**32),
)
def test_communication_rows_kept_by_value_are_the_rows_made_afresh(
    players: int, comm: str, seed: int
) -> None:
    """A view's communication rows are kept by their values (``crew.view._COMM_VIEWS``) from one
    position to the next: every seat's and the spectator's rows, the card's ``played`` flag and
    the position a seat may see included, equal rows made with nothing kept."""
    options = {"communication_window": "free"}
    game = _game(players, comm, "normal", options, False, seed)
    rng = random.Random(seed)
    for _ in range(200):
        for seat in (None, *range(game.seats)):
            warm = game.view(seat).communicated
            crew_view._COMM_VIEWS.clear()
            assert game.view(seat).communicated == warm, (seat, game.turn_number)
        if game.is_over:
            break
        game.apply(rng.choice(game.legal_actions()))
