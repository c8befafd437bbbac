"""The Crew's pixel picture (:mod:`dsa_widget.crew.picture`): the public table only (CREW.md
R-13.1: what is shown comes from public information), at the places its docstring gives."""

from __future__ import annotations

from typing import Any

import numpy as np
from helpers import pixel_at, play_randomly
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.core.raster import LIGHT, Canvas
from dsa_widget.crew import picture as pic
from dsa_widget.crew.cards import DECK
from dsa_widget.crew.picture import board_rgb, image_size
from dsa_widget.crew.rules import CrewGame


def played(players: int, seed: int, steps: int) -> CrewGame:
    return play_randomly(CrewGame(players, seed=seed, target=3), seed, steps)


def text_pixels(text: str, ink: tuple[int, int, int], ground: tuple[int, int, int]) -> Any:
    c = Canvas(5, 4 * len(text) - 1, ground)
    c.text(0, 0, text, ink)
    return c.pixels


def task_box(v: Any, i: int) -> tuple[int, int]:
    """The top left of task ``i``'s box."""
    y = pic._TOP + pic._SEAT_H + (pic._DUMMY_H if v.dummy_columns is not None else 0) + 2
    row, col = divmod(i, pic._TASK_COLS)
    return y + row * (pic.TASK_H + 2), pic.MARGIN + col * (pic.TASK_W + 2)


def test_the_captain_is_gold_and_chooses_the_first_task() -> None:
    # the captain chooses first; the task it takes is then marked with its seat
    g = CrewGame(3, seed=3, target=3)
    v = g.view(None)
    assert v.step == "assign" and v.to_move == v.captain
    img = board_rgb(g)
    for s in range(3):
        x = pic.MARGIN + s * pic.COL
        assert pixel_at(img, pic._TOP + 1, x + 4) == (pic._CAPTAIN if s == v.captain else LIGHT.bg2)
        framed = pixel_at(img, pic._TOP - 2, x + 5) == LIGHT.accent
        assert framed == (s == v.captain)
    y, x = task_box(v, 0)
    unknown = text_pixels("?", LIGHT.fg, LIGHT.bg)
    owner_at = (slice(y + 9, y + 14), slice(x + (pic.TASK_W - 3) // 2, x + (pic.TASK_W - 3) // 2 + 3))
    assert np.array_equal(img[owner_at], unknown)
    take = next(a for a in g.legal_actions() if a.startswith("take"))
    g.apply(take)
    v = g.view(None)
    taken = [i for i, t in enumerate(v.tasks) if t[1] is not None]
    y, x = task_box(v, taken[0])
    owner_at = (slice(y + 9, y + 14), slice(x + (pic.TASK_W - 3) // 2, x + (pic.TASK_W - 3) // 2 + 3))
    assert np.array_equal(board_rgb(g)[owner_at], text_pixels(str(v.captain + 1), LIGHT.fg, LIGHT.bg))


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**16), steps=st.integers(0, 60))
def test_the_trick_the_tasks_and_the_communications_are_drawn_where_they_belong(
    players: int, seed: int, steps: int
) -> None:
    g = played(players, seed, steps)
    v = g.view(None)
    img = board_rgb(g)
    assert img.shape == (*image_size(v.dummy_columns is not None), 3)
    # each seat's card on the trick under way, in its suit's colour, under the seat
    trick = dict(v.current_trick)
    for s in range(v.seats):
        cx = pic.MARGIN + s * pic.COL + (pic.COL - 1 - pic.CARD_W) // 2
        cy = pic._TOP + 11 + 8 + pic.CARD_H + 3
        # (the card's corner: a submarine's inner frame is white, an empty slot is framed)
        want = pic._SUIT[DECK[trick[s]][0]] if s in trick else LIGHT.border
        assert pixel_at(img, cy, cx) == want
    # a task's box is green once done, red once failed, white while open
    for i, (_tid, _owner, status, *_rest) in enumerate(v.tasks[: pic.TASK_BOXES]):
        y, x = task_box(v, i)
        assert pixel_at(img, y + 1, x + 1) == {"done": LIGHT.ok, "failed": LIGHT.error}.get(status, LIGHT.bg)
    # a seat's communicated card, faded once it has been played
    latest = {c.seat: c for c in v.communicated}
    for s, comm in latest.items():
        x, y = pic.MARGIN + s * pic.COL + 3, pic._TOP + 19
        colour = pic._SUIT[comm.card[0]]
        assert pixel_at(img, y, x) == (pic.blend(colour, LIGHT.bg, 0.35) if comm.played else colour)


def test_crew_env_records_these_frames() -> None:
    from dsa_widget.adapters.crew_pettingzoo import crew_env

    e = crew_env(players=2, render_mode="rgb_array")
    e.reset(seed=2)
    assert np.array_equal(e.render(), board_rgb(e.unwrapped.game))
    assert e.render().shape == (*image_size(True), 3)
