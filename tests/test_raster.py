"""The platform's pixel toolkit (:mod:`dsa_widget.core.raster`) and Deep Sea Adventure's picture
drawn with it."""

from __future__ import annotations

import random

import numpy as np
import pytest
from helpers import random_step
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget import Game
from dsa_widget.core.raster import GLYPH_HEIGHT, Canvas, RasterError, blend, rgb, text_width
from dsa_widget.deep_sea import picture
from dsa_widget.deep_sea.picture import CELL, COLS, MARGIN, board_rgb, image_size

WHITE, BLACK, RED = (255, 255, 255), (0, 0, 0), (255, 0, 0)


def lit(c: Canvas, colour: tuple[int, int, int]) -> set[tuple[int, int]]:
    return {(int(y), int(x)) for y, x in zip(*np.nonzero((c.pixels == colour).all(axis=2)), strict=True)}


@settings(max_examples=60, deadline=None)
@given(y=st.integers(-12, 12), x=st.integers(-12, 12), h=st.integers(0, 12), w=st.integers(0, 12))
def test_fill_paints_exactly_the_part_of_the_rectangle_inside_the_canvas(
    y: int, x: int, h: int, w: int
) -> None:
    c = Canvas(8, 10, WHITE)
    c.fill(y, x, h, w, RED)
    want = {(r, q) for r in range(y, y + h) for q in range(x, x + w) if 0 <= r < 8 and 0 <= q < 10}
    assert lit(c, RED) == want
    assert c.pixels.dtype == np.uint8 and c.pixels.shape == (8, 10, 3)


@settings(max_examples=40, deadline=None)
@given(h=st.integers(1, 9), w=st.integers(1, 9), t=st.integers(1, 3))
def test_an_outline_is_the_rectangle_less_its_inside(h: int, w: int, t: int) -> None:
    c = Canvas(10, 10, WHITE)
    c.outline(0, 0, h, w, RED, thickness=t)
    box = {(r, q) for r in range(h) for q in range(w)}
    inside = {(r, q) for r in range(t, h - t) for q in range(t, w - t)}
    assert lit(c, RED) == box - inside


def test_text_draws_each_glyph_in_its_own_cell_and_says_where_the_next_starts() -> None:
    c = Canvas(GLYPH_HEIGHT, 40, WHITE)
    end = c.text(0, 0, "10", BLACK)
    assert end == 8 == text_width("10") + 1
    # "1" and "0" differ, and nothing is drawn in the gap column between them
    assert not lit(c, BLACK) & {(r, 3) for r in range(GLYPH_HEIGHT)}
    left = {(r, q) for r, q in lit(c, BLACK) if q < 3}
    right = {(r, q - 4) for r, q in lit(c, BLACK) if 4 <= q < 7}
    assert left and right and left != right
    big = Canvas(2 * GLYPH_HEIGHT, 20, WHITE)
    big.text(0, 0, "1", BLACK, scale=2)
    assert len(lit(big, BLACK)) == 4 * len(left)


@settings(max_examples=60, deadline=None)
@given(
    text=st.text(alphabet="0123456789ABCDEGKMOPRSTXY/-+? ", max_size=6),
    y=st.integers(-8, 12),
    x=st.integers(-20, 30),
    scale=st.integers(1, 3),
)
def test_text_is_its_glyphs_dots_each_scale_pixels_square_clipped_to_the_canvas(
    text: str, y: int, x: int, scale: int
) -> None:
    from dsa_widget.core.raster import _FONT

    c = Canvas(12, 30, WHITE)
    end = c.text(y, x, text, RED, scale=scale)
    assert end == x + len(text) * 4 * scale
    want = Canvas(12, 30, WHITE)  # the definition: one filled square per lit dot
    for i, ch in enumerate(text):
        for r, q in _FONT[ch]:
            want.fill(y + r * scale, x + (4 * i + q) * scale, scale, scale, RED)
    assert np.array_equal(c.pixels, want.pixels)


def test_bad_colours_and_unknown_glyphs_raise_and_draw_nothing() -> None:
    with pytest.raises(RasterError, match="rrggbb"):
        rgb("#12345")
    with pytest.raises(ValueError, match="rrggbb"):
        rgb("zz0000")
    c = Canvas(5, 20, WHITE)
    with pytest.raises(RasterError, match="'Q'"):
        c.text(0, 0, "1Q", BLACK)
    assert not lit(c, BLACK)
    with pytest.raises(RasterError):
        Canvas(0, 3, WHITE)


def test_colours() -> None:
    assert rgb("#1976d2") == rgb("1976D2") == (25, 118, 210)
    assert blend(RED, WHITE, 1.0) == RED and blend(RED, WHITE, 0.0) == WHITE
    assert blend(RED, BLACK, 0.5) == (128, 0, 0)


# ---------------------------------------------------------------------- Deep Sea's picture


def played(seed: int, players: int, steps: int) -> Game:
    rng = random.Random(seed)
    g = Game(players=players, seed=seed, air=12 + seed % 14)
    for _ in range(steps):
        if g.is_over:
            break
        random_step(g, rng)
    return g


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 2**16), players=st.integers(2, 6), steps=st.integers(0, 400))
def test_deep_sea_picture_shows_the_air_the_path_and_the_divers(seed: int, players: int, steps: int) -> None:
    # (the toolkit drew the same array as the hand-written numpy code it replaced: checked over
    # random games when it moved, the test of commit 71737ab)
    g = played(seed, players, steps)
    img = board_rgb(g)
    v = g.view(0, knower=None)
    assert img.dtype == np.uint8 and img.shape == (*image_size(len(v.levels), players), 3)
    width = img.shape[1]
    air = int((img[MARGIN, MARGIN : width - MARGIN] == picture._AIR).all(axis=1).sum())
    assert air == round((width - 2 * MARGIN) * max(0, v.air) / v.start_air)
    top = picture._BOARD_TOP
    assert tuple(img[top + 1, MARGIN + 1]) == picture._SUBMARINE
    for q in range(players):
        p = v.positions[q]
        if p == 0 or v.returned[q]:
            continue
        row, col = divmod(p - 1, COLS)
        cy, cx = top + row * CELL, MARGIN + (col + 1) * CELL
        # divers never share a space: the cell's middle is the diver's colour, its top edge
        # white once it heads up
        assert tuple(img[cy + CELL // 2, cx + CELL // 2]) == picture._PLAYER_RGB[q]
        edge = picture._WHITE if v.heading_up[q] else picture._PLAYER_RGB[q]
        assert tuple(img[cy + 4, cx + CELL // 2]) == edge
    for i, item in enumerate(v.path[1:], start=1):
        row, col = divmod(i - 1, COLS)
        corner = tuple(img[top + row * CELL + 1, MARGIN + (col + 1) * CELL + 1])
        if item is None:
            assert corner == picture._BLANK
        elif len(item) > 1:
            assert corner == picture._DARK
        else:
            assert corner == picture._LEVEL_RGB[v.levels[item[0]]]
