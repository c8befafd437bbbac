"""Submarine's pixel picture (:mod:`dsa_widget.submarine.picture`): the public sea, at the
places its docstring gives (SUBMARINE.md sections quoted where a test checks a rule)."""

from __future__ import annotations

from typing import Any

import numpy as np
from helpers import pixel_at, play_randomly
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.core.raster import LIGHT, Canvas
from dsa_widget.submarine import picture as pic
from dsa_widget.submarine.picture import board_rgb, image_size
from dsa_widget.submarine.rules import SubmarineGame


def played(players: int, seed: int, steps: int) -> SubmarineGame:
    return play_randomly(SubmarineGame(players, seed=seed), seed, steps)


def space_xy(col: int, depth: int) -> tuple[int, int]:
    return pic._HEAD + pic.LANE_H + 2 + (depth - 1) * pic.CELL_H, pic._BOARD_X + (col - 1) * pic.CELL_W


def letters(img: Any, y: int, x: int, text: str, ink: tuple[int, int, int]) -> bool:
    """Whether ``text`` is drawn at ``(y, x)`` in ``ink`` (over a white space)."""
    c = Canvas(5, 4 * len(text) - 1, LIGHT.bg)
    c.text(0, 0, text, ink)
    return bool(np.array_equal(img[y : y + 5, x : x + 4 * len(text) - 1], c.pixels))


def test_the_tiles_lie_face_up_one_to_four_by_depth() -> None:
    # SUBMARINE.md §4.3: "1 tile in each depth-1 space, 2 in each depth-2 space, 3 ..., 4 ..."
    g = SubmarineGame(3, seed=1)
    img = board_rgb(g)
    tiles = g.view(None).to_dict()["tiles"]
    for col in range(1, 7):
        for depth in range(1, 5):
            y, x = space_xy(col, depth)
            names = tiles[f"{col}.{depth}"]
            assert len(names) == depth
            for i in range(4):
                row, k = divmod(i, 2)
                ty, tx = y + 2 + row * (pic.TILE_H + 1), x + 2 + k * (pic.TILE_W + 1)
                want = pic._COLOUR[names[i][-2:]] if i < depth else LIGHT.bg
                assert pixel_at(img, ty, tx) == want


def test_a_placed_bathyscaphe_shows_its_players_letter_in_its_space() -> None:
    # §4.8: each player places one of their bathyscaphes in any depth-1 space
    g = SubmarineGame(["Ann", "Bob"], seed=1, options={"start_player": 0})
    y, x = space_xy(3, 1)
    assert not letters(board_rgb(g), y + 18, x + 2, "A", LIGHT.fg)
    g.apply("place 3")
    assert letters(board_rgb(g), y + 18, x + 2, "A", LIGHT.fg)
    g.apply("place 3")
    assert letters(board_rgb(g), y + 18, x + 2, "AB", LIGHT.fg)


@settings(max_examples=12, deadline=None)
@given(players=st.integers(2, 5), seed=st.integers(0, 2**16), steps=st.integers(0, 150))
def test_ships_collections_and_tiles_are_drawn_where_they_belong(players: int, seed: int, steps: int) -> None:
    g = played(players, seed, steps)
    v = g.view(None).to_dict()
    img = board_rgb(g)
    assert img.shape == (*image_size(players), 3) and img.dtype == np.uint8
    # the ships on the surface lane, each player's letter at its place (§5.1)
    where: dict[str, list[int]] = {}
    for q, pos in enumerate(v["ships"]):
        where.setdefault(str(pos), []).append(q)
    for pos, seats in where.items():
        left, _w = pic._lane_x(pos)
        c = Canvas(5, 4 * len(seats) - 1, pic._BAND)
        c.text(0, 0, "".join(pic.LETTERS[q] for q in seats), LIGHT.fg)
        y, x = pic._HEAD + 3, left + 2
        assert np.array_equal(img[y : y + 5, x : x + 4 * len(seats) - 1], c.pixels)
    # each space's first tile in its colour (filled: a treasure; framed: a shell or board joker)
    jokers = set(v["board_jokers"])
    for space, names in v["tiles"].items():
        col, depth = (int(p) for p in space.split("."))
        y, x = space_xy(col, depth)
        if names:
            colour = pic._COLOUR[names[0][-2:]]
            framed = names[0].startswith("SH") or names[0] in jokers
            assert pixel_at(img, y + 2, x + 2) == colour
            assert pixel_at(img, y + 3, x + 3) == (LIGHT.bg if framed else colour)
    # each player's collection: slot i holds the i-th collected treasure's colour (§2.4, §7.2)
    top = pic._HEAD + pic.LANE_H + 2 + 4 * pic.CELL_H + 2
    for q, slots in enumerate(v["slots"]):
        for i in range(12):
            colour = pixel_at(img, top + q * pic.ROW, pic.MARGIN + 6 + i * pic._SLOT_W)
            assert colour == (pic._COLOUR[slots[i][-2:]] if i < len(slots) else LIGHT.border)
