"""The Crew's information state and observation tensors come from the tracker's per-seat lists
(``CrewTracker.observe_list``, patched where the position changed) with the play order's list
after them; they must be the numbers of the array path they replace (``CrewTracker.observe``, a
fresh float32 array per call, and the knowledge part worked out from the cards played) at every
step of random games, for 2-5 players, with seats asked often, rarely or not for many steps."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pyspiel
import pytest

import dsa_widget.adapters.crew_openspiel  # noqa: F401  (registers the game)
from dsa_widget.crew.encoding import CrewEncoding

ENC = CrewEncoding()


def _array_path(state: Any, player: int, recall: bool) -> list[float]:
    """The tensor as the array path made it: the tracker's array (a second tracker of the same
    engine, so no list is shared) then, for the information state, the order of the cards played
    (worked out afresh, no cache) and the deal's share (1)."""
    c = state.core
    seen = ENC.tracker(c.engine).observe(player)
    if not recall:
        return seen.tolist()  # type: ignore[no-any-return]
    known = c.cfg.knowledge_tensor(c.cfg.knowledge(c.engine, player))
    return np.concatenate([seen, np.float32(known), np.float32([1.0])]).tolist()  # type: ignore[no-any-return]


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_list_tensors_are_the_array_paths_numbers_at_every_step(players: int) -> None:
    game = pyspiel.load_game(
        "python_the_crew_deep_sea",
        {"players": players, "tasks": "", "seed": players, "communication": "normal"},
    )
    # seat k is asked with the chance odds[k] at a step: the last seats miss many positions
    # in a row (their lists catch up through the changes logged, or are rebuilt whole)
    odds = [1.0, 0.7, 0.2, 0.05, 0.5][:players]
    checked = 0
    for seed in range(4):
        rng = random.Random(100 * players + seed)
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(rng.choice(state.chance_outcomes())[0])
        while not state.is_terminal():
            for p in rng.sample(range(players), players):
                if rng.random() < odds[p]:
                    for recall in (True, False):
                        got = state.information_state_tensor(p) if recall else state.observation_tensor(p)
                        assert got == _array_path(state, p, recall), (
                            p,
                            recall,
                            state.core.engine.turn_number,
                        )
                        got.append(-1.0)  # a caller may change its list: the next one is fresh
                    checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
        for p in range(players):  # the end: the last plays are in the play order
            assert state.information_state_tensor(p) == _array_path(state, p, True)
    assert checked > 30
