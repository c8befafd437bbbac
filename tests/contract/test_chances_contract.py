"""Every game whose presenter shows chances (``shows_chances``, the board's "Chances" panel)
publishes figures computed from the screen's seat's view only.  Nothing here names a game: a
game joins by setting ``shows_chances`` on its presenter.

* the figures on a seat's screen (and a spectator's) are the same when everything that seat
  cannot see is drawn again (``view.sample``): they tell nothing hidden;
* each is a figure (:class:`dsa_widget.core.chances.Figure`'s dict: a label, a probability,
  a kind among exact / solved / estimate, with its words);
* with the board's hints off, and behind a hot seat's curtain, a screen carries none.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from helpers import random_step
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.core.chances import KINDS
from dsa_widget.core.registry import GameSpec, games
from dsa_widget.core.session import Session

SHOWING = [spec for spec in games() if spec.presenter and spec.presenter_class().shows_chances]
IDS = [spec.name for spec in SHOWING]


def test_a_game_shows_chances() -> None:
    # the platform's panel has games to show: Pig, Submarine (issue ux5), The Crew (issue ux6)
    assert {"pig", "submarine", "crew"} <= set(IDS)


def played(spec: GameSpec, seed: int, steps: int) -> Any:
    """A game of ``spec`` after up to ``steps`` random steps (chance at its own odds)."""
    rng = random.Random(seed)
    g = spec.new_game(players=spec.default_players, seed=seed)
    for _ in range(steps):
        if g.is_over:
            break
        random_step(g, rng)
    return g


def figures(spec: GameSpec, state: Any, viewer: int | None, **table: Any) -> Any:
    s = Session(state, viewer=viewer, presenter=spec.presenter_class()(), **table)
    s.hints = True
    return s.screen()["chances"]


@pytest.mark.parametrize("spec", SHOWING, ids=IDS)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 60), resample=st.integers(0, 2**16))
def test_figures_come_from_the_viewers_view_only(
    spec: GameSpec, seed: int, steps: int, resample: int
) -> None:
    g = played(spec, seed, steps)
    for viewer in [None, *range(len(g.players))]:
        shown = figures(spec, g, viewer)
        assert isinstance(shown, list)
        for f in shown:
            assert f["kind"] in KINDS and 0 <= f["value"] <= 1 and f["label"] and f["kind_words"]
        other = g.view(viewer).sample(random.Random(resample))  # what the seat cannot see, redrawn
        assert figures(spec, other, viewer) == shown


@pytest.mark.parametrize("spec", SHOWING, ids=IDS)
def test_no_figures_with_hints_off_nor_behind_a_curtain(spec: GameSpec) -> None:
    g = played(spec, 3, 5)
    s = Session(g, viewer="auto", presenter=spec.presenter_class()())
    assert s.screen()["chances"] is None  # a session's hints are off until a board turns them on
    curtained = Session(
        spec.new_game(players=spec.default_players, seed=3),
        hot_seat=True,
        presenter=spec.presenter_class()(),
    )
    curtained.hints = True
    assert curtained.curtain_seat() is not None
    assert curtained.screen()["chances"] is None


def test_a_game_without_chances_publishes_no_panel() -> None:
    for spec in games():
        if spec.presenter and not spec.presenter_class().shows_chances:
            s = Session(spec.name, players=spec.default_players, seed=1, presenter=spec.presenter_class()())
            s.hints = True
            assert "chances" not in s.screen(), spec.name
