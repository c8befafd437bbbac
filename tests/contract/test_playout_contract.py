"""The playout contract, run once per registered game: ``random_playout`` from any state.

:meth:`GameState.random_playout <dsa_widget.core.protocol.GameState.random_playout>` plays a
state to the end with random legal actions (chance at its exact odds) and writes what it played
into a trace; :func:`~dsa_widget.core.protocol.play_trace` replays that trace, checked, from a
copy taken before.  Hypothesis draws the setup and a number of random steps first, so the
playout starts anywhere: at the start, between turns, or in the middle of a turn (a roll
pending, a step under way, a trick half played).  Nothing here names a game.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_games import IDS, new_game

from dsa_widget.core.protocol import CHANCE, draw_chance, play_trace
from dsa_widget.core.registry import GameSpec, games

GAMES = games()
SETTINGS = settings(max_examples=30, deadline=None)


def walk(g: Any, steps: int, rng: random.Random) -> None:
    """``steps`` random steps (legal actions, chance at its odds), fewer if the game ends."""
    for _ in range(steps):
        if g.is_over:
            return
        if g.to_move == CHANCE:
            g.apply_chance(draw_chance(g.chance_outcomes(), rng))
        else:
            g.apply(rng.choice(g.legal_actions()))


def outcome(g: Any) -> str:
    """Everything public about a finished state (every seat's view, the spectator's, the
    result): equal outcomes, the same end."""
    views = [g.view(q).to_dict() for q in range(len(g.players))]
    return json.dumps(
        [views, g.view(None).to_dict() if _has_spectator(g) else None, g.scores, g.winners, g.returns()],
        sort_keys=True,
        default=str,
    )


def _has_spectator(g: Any) -> bool:
    try:
        g.view(None)
    except (TypeError, ValueError):
        return False
    return True


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
@SETTINGS
@given(seed=st.integers(0, 10**6), steps=st.integers(0, 120), play_seed=st.integers(0, 2**32))
def test_a_playout_from_any_state_replays_through_the_checked_apply(
    spec: GameSpec, seed: int, steps: int, play_seed: int
) -> None:
    """The trace of a playout from a random state replays, every item through the checked
    ``apply`` (or ``apply_chance`` at a chance node), from a copy of that state to the same end;
    and the same generator plays the same game again."""
    g = new_game(spec, seed)
    walk(g, steps, random.Random(seed))
    start = g.clone()
    trace: list[Any] = []
    g.random_playout(random.Random(play_seed), trace)
    assert g.is_over
    again = start.clone()
    play_trace(again, trace)
    assert again.is_over and outcome(again) == outcome(g)
    twice: list[Any] = []
    start.clone().random_playout(random.Random(play_seed), twice)
    assert twice == trace


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_a_playout_of_a_finished_game_plays_nothing(spec: GameSpec) -> None:
    g = spec.new_game(players=spec.default_players, seed=3)
    g.random_playout(random.Random(1))
    assert g.is_over
    before = outcome(g)
    trace: list[Any] = []
    g.random_playout(random.Random(2), trace)
    assert trace == [] and outcome(g) == before
