"""The pixel pictures (``render_mode="rgb_array"``) of every registered game with a PettingZoo
environment.  Nothing here names a game: a game joins by its registry entry (``encoding=``)
and its encoding's ``render_rgb`` hook (:mod:`dsa_widget.core.encoding`).

* every such game draws one: ``"rgb_array"`` is among its environment's ``render_modes``;
* a video encoder can take every frame of a game: each is a ``uint8`` ``H x W x 3`` array, of
  one shape all game long, not blank (more than one colour), and the frames follow the game
  (at least four steps in five change the frame);
* a picture shows only what an onlooker may see: with everything an onlooker cannot see drawn
  again (the presenter's ``sample_for(state, None, rng)``, as the what-if of a spectator's
  screen does) the frame is the same array, and the check catches a picture that draws a hand;
* docs/AI.md's table of render modes by game is what the environments list.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

from dsa_widget.adapters.pettingzoo import game_env
from dsa_widget.core.encoding import encoding_of, render_modes
from dsa_widget.core.protocol import CHANCE
from dsa_widget.core.registry import GameSpec, games

ENCODED = [g for g in games() if g.encoding is not None]
IDS = [g.name for g in ENCODED]


def seat_counts(spec: GameSpec) -> list[int]:
    lo, hi = spec.seats
    return sorted({lo, hi})


def frames(spec: GameSpec, players: int, seed: int, limit: int = 150) -> list[Any]:
    """The frames of a seeded game of ``spec`` played with random legal actions through its
    environment: one after the reset and one after every step, at most ``limit`` steps."""
    e = game_env(spec.name, players=players, render_mode="rgb_array")
    e.reset(seed=seed)
    rng = np.random.default_rng(seed)
    shots = [e.render()]
    for _agent in e.agent_iter(max_iter=limit):
        obs, _reward, terminated, truncated, _ = e.last()
        action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
        e.step(action)
        if action is not None:
            shots.append(e.render())
    return shots


@pytest.mark.parametrize("spec", ENCODED, ids=IDS)
def test_every_game_with_an_environment_draws_pixels(spec: GameSpec) -> None:
    e = game_env(spec.name, players=spec.seats[0])
    assert "rgb_array" in e.unwrapped.metadata["render_modes"]
    assert render_modes(e.unwrapped.encoding) == e.unwrapped.metadata["render_modes"]


@pytest.mark.parametrize("spec", ENCODED, ids=IDS)
def test_frames_are_video_frames_that_follow_the_game(spec: GameSpec) -> None:
    for players in seat_counts(spec):
        shots = frames(spec, players, seed=players)
        shape = shots[0].shape
        assert len(shape) == 3 and shape[2] == 3, shape
        for img in shots:
            assert isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.shape == shape
            assert (img != img[0, 0]).any()  # not blank: more than one colour
        # nearly every step the agents take changes what an onlooker sees (a card played, a
        # chip taken, a turn passed...), and so the frame: at least 4 steps in 5 (Deep Sea's
        # picture leaves out the choices of where drowned chips sink, about 1 step in 10 there)
        changed = sum(not np.array_equal(a, b) for a, b in zip(shots, shots[1:], strict=False))
        assert changed >= 0.8 * (len(shots) - 1), (changed, len(shots) - 1)


def walk(spec: GameSpec, seed: int, players: int, steps: int) -> Any:
    """The states of one game of ``spec`` played at random, at every decision."""
    rng = random.Random(seed)
    g = spec.new_game(players=players, seed=seed)
    for _ in range(steps):
        while g.to_move == CHANCE:
            g.sample_chance()
        yield g
        if g.is_over:
            return
        g.apply(rng.choice(g.legal_actions()))


Picture = Callable[[Any], Any]


def first_leak(spec: GameSpec, picture: Picture | None = None) -> str | None:
    """Where a game's frame changes when everything an onlooker cannot see is drawn again,
    or None.  ``picture(state)`` is the picture under test (the encoding's by default)."""
    rng = random.Random(11)
    presenter = spec.presenter_class()()
    for players in seat_counts(spec):
        draw = picture
        for i, g in enumerate(walk(spec, players, players, 200)):
            if i % 4:
                continue
            draw = draw or encoding_of(g).render_rgb  # type: ignore[attr-defined]
            twin = presenter.sample_for(g, None, rng)
            if not np.array_equal(draw(twin), draw(g)):
                return f"{players} players, decision {i}"
    return None


@pytest.mark.parametrize("spec", ENCODED, ids=IDS)
def test_no_frame_changes_when_what_an_onlooker_cannot_see_is_drawn_again(spec: GameSpec) -> None:
    assert first_leak(spec) is None


def _draws_seat_0s_view(g: Any) -> Any:
    """A picture that also puts seat 0's own knowledge (its hand, its chips' values) into its
    pixels: what an onlooker's picture must never do."""
    honest = encoding_of(g).render_rgb(g)  # type: ignore[attr-defined]
    secret = repr(sorted(g.view(0).to_dict().items(), key=str)).encode()
    return np.frombuffer(honest.tobytes() + secret, dtype=np.uint8)


def _seat_0_knows_more(spec: GameSpec) -> bool:
    """Whether at the start seat 0 knows something an onlooker does not (The Crew's and
    Submarine's hands; not Pig, which hides nothing, nor Deep Sea Adventure by default, where
    no seat knows an unbanked chip's value and banked ones are public)."""
    g = spec.new_game(players=spec.seats[0], seed=1)
    twin = spec.presenter_class()().sample_for(g, None, random.Random(3))
    return bool(twin.view(0).to_dict() != g.view(0).to_dict())


#: the games where a picture could leak a seat's knowledge, so the check can be shown to catch it
HIDING = [spec for spec in ENCODED if _seat_0_knows_more(spec)]


def test_some_game_has_a_seat_that_knows_more_than_an_onlooker() -> None:
    assert {spec.name for spec in HIDING} >= {"crew", "submarine"}


@pytest.mark.parametrize("spec", HIDING, ids=[spec.name for spec in HIDING])
def test_the_no_leak_check_catches_a_picture_that_draws_a_hand(spec: GameSpec) -> None:
    assert first_leak(spec, _draws_seat_0s_view) is not None


def test_docs_table_of_render_modes_is_the_code() -> None:
    # docs/AI.md, "Render modes by game": one row per game, "—" where it has no such picture
    from pathlib import Path

    doc = (Path(__file__).resolve().parents[2] / "docs" / "AI.md").read_text()
    after = doc.split("**Render modes by game.**", 1)[1].split("| Game", 1)[1].splitlines()[2:]
    lines = after[: next(i for i, line in enumerate(after) if not line.startswith("|"))]
    rows = {
        cells[0]: cells[1:] for line in lines for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    assert set(rows) == {spec.title.split(":")[0] for spec in ENCODED}
    for spec in ENCODED:
        modes = game_env(spec.name, players=spec.seats[0]).unwrapped.metadata["render_modes"]
        text, pixels, svg = rows[spec.title.split(":")[0]]
        assert ("rgb_array" in modes) == (pixels != "—") and ("svg" in modes) == (svg != "—")
