"""The pixel toolkit every game's picture for learning libraries is drawn with: a canvas of
fixed size, filled rectangles, outlines and a tiny bitmap font, colours from hex.

The pictures (``render_mode="rgb_array"`` of the PettingZoo environments, a game encoding's
``render_rgb``) are ``H x W x 3`` ``uint8`` arrays whose size depends on the setup only, so a
video encoder can take every frame of a game.  numpy is imported when the first canvas is made.

>>> c = Canvas(12, 20, rgb("#ffffff"))
>>> c.fill(1, 1, 4, 6, rgb("#1976d2"))
>>> c.outline(0, 0, 12, 20, (0, 0, 0))
>>> c.text(6, 8, "42", (0, 0, 0))
16
>>> c.pixels.shape, c.pixels.dtype.name, tuple(int(x) for x in c.pixels[2, 2])
((12, 20, 3), 'uint8', (25, 118, 210))
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from .errors import GameError

__all__ = [
    "GLYPH_HEIGHT",
    "GLYPH_WIDTH",
    "LIGHT",
    "Canvas",
    "Colour",
    "RasterError",
    "Theme",
    "blend",
    "rgb",
    "text_width",
]

#: an RGB colour, each part 0..255
Colour = tuple[int, int, int]

#: the size of a glyph of the built-in font at scale 1 (a column of space follows each)
GLYPH_WIDTH = 3
GLYPH_HEIGHT = 5

# The built-in font: 3 x 5 glyphs, one string of three "#"/"." per row, top row first.
_FONT_ROWS: dict[str, tuple[str, str, str, str, str]] = {
    "0": ("###", "#.#", "#.#", "#.#", "###"),
    "1": (".#.", "##.", ".#.", ".#.", "###"),
    "2": ("##.", "..#", ".#.", "#..", "###"),
    "3": ("##.", "..#", ".#.", "..#", "##."),
    "4": ("#.#", "#.#", "###", "..#", "..#"),
    "5": ("###", "#..", "##.", "..#", "##."),
    "6": (".##", "#..", "###", "#.#", "###"),
    "7": ("###", "..#", ".#.", ".#.", ".#."),
    "8": ("###", "#.#", ".#.", "#.#", "###"),
    "9": ("###", "#.#", "###", "..#", "##."),
    "A": (".#.", "#.#", "###", "#.#", "#.#"),
    "B": ("##.", "#.#", "##.", "#.#", "##."),
    "C": (".##", "#..", "#..", "#..", ".##"),
    "D": ("##.", "#.#", "#.#", "#.#", "##."),
    "E": ("###", "#..", "##.", "#..", "###"),
    "G": (".##", "#..", "#.#", "#.#", ".##"),
    "K": ("#.#", "#.#", "##.", "#.#", "#.#"),
    "M": ("#.#", "###", "###", "#.#", "#.#"),
    "O": (".#.", "#.#", "#.#", "#.#", ".#."),
    "P": ("##.", "#.#", "##.", "#..", "#.."),
    "R": ("##.", "#.#", "##.", "#.#", "#.#"),
    "S": (".##", "#..", ".#.", "..#", "##."),
    "T": ("###", ".#.", ".#.", ".#.", ".#."),
    "X": ("#.#", "#.#", ".#.", "#.#", "#.#"),
    "Y": ("#.#", "#.#", ".#.", ".#.", ".#."),
    "/": ("..#", "..#", ".#.", "#..", "#.."),
    "-": ("...", "...", "###", "...", "..."),
    "+": ("...", ".#.", "###", ".#.", "..."),
    "?": ("##.", "..#", ".#.", "...", ".#."),
    " ": ("...", "...", "...", "...", "..."),
}
#: per glyph, the (row, column) of each lit dot
_FONT: dict[str, tuple[tuple[int, int], ...]] = {
    ch: tuple((r, c) for r, row in enumerate(rows) for c, dot in enumerate(row) if dot == "#")
    for ch, rows in _FONT_ROWS.items()
}


class RasterError(GameError):
    """A colour or a text the toolkit cannot draw (nothing is drawn)."""


def rgb(hex_colour: str) -> Colour:
    """``"#rrggbb"`` (the leading ``#`` optional) as an ``(r, g, b)`` tuple.

    >>> rgb("#1976d2")
    (25, 118, 210)
    """
    h = hex_colour[1:] if hex_colour.startswith("#") else hex_colour
    if len(h) != 6 or any(ch not in "0123456789abcdefABCDEF" for ch in h):
        raise RasterError(f"a colour is '#rrggbb' in hex; got {hex_colour!r}")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


def blend(colour: Colour, background: Colour, amount: float) -> Colour:
    """``colour`` laid over ``background`` at opacity ``amount`` (0..1), as CSS draws a
    translucent fill.

    >>> blend((0, 0, 0), (255, 255, 255), 0.4)
    (153, 153, 153)
    """
    a = min(1.0, max(0.0, amount))
    mixed = (round(f * a + b * (1 - a)) for f, b in zip(colour, background, strict=True))
    r, g, b = mixed
    return r, g, b


@dataclass(frozen=True)
class Theme:
    """The boards' shared colours (``js/widget.css``'s ``--dsa-*`` variables), so that every
    game's picture is drawn in the widget's palette, written once."""

    bg: Colour
    bg2: Colour
    fg: Colour
    fg2: Colour
    border: Colour
    accent: Colour
    ok: Colour
    error: Colour


#: the light theme's colours, as a board without JupyterLab's own variables draws them
#: (``fg2`` is ``--dsa-fg2``: the text colour at 72% over the background, as it shows on white)
LIGHT = Theme(
    bg=rgb("#ffffff"),
    bg2=rgb("#eeeeee"),
    fg=rgb("#1f2328"),
    fg2=blend(rgb("#1f2328"), rgb("#ffffff"), 0.72),
    border=rgb("#bdbdbd"),
    accent=rgb("#1976d2"),
    ok=rgb("#2e7d32"),
    error=rgb("#d32f2f"),
)


def text_width(text: str, scale: int = 1) -> int:
    """The width in pixels of ``text`` drawn by :meth:`Canvas.text` (no trailing gap).

    >>> text_width("42"), text_width("42", scale=2), text_width("")
    (7, 14, 0)
    """
    return 0 if not text else (len(text) * (GLYPH_WIDTH + 1) - 1) * scale


class Canvas:
    """An image of fixed size filled with ``background``; :attr:`pixels` is the ``uint8``
    ``height x width x 3`` array the drawing calls paint.  Shapes are clipped to the canvas
    (a part outside it is not drawn).

    >>> c = Canvas(4, 5, (0, 0, 0))
    >>> c.fill(-2, 3, 4, 9, (255, 0, 0))   # clipped to rows 0-1, columns 3-4
    >>> c.pixels[:, :, 0].tolist()
    [[0, 0, 0, 255, 255], [0, 0, 0, 255, 255], [0, 0, 0, 0, 0], [0, 0, 0, 0, 0]]
    """

    def __init__(self, height: int, width: int, background: Colour) -> None:
        import numpy as np

        if height < 1 or width < 1:
            raise RasterError(f"a canvas needs a positive size; got {height} x {width}")
        self.height = height
        self.width = width
        self.pixels: Any = np.empty((height, width, 3), dtype=np.uint8)
        self.pixels[:, :] = background

    def fill(self, y: int, x: int, h: int, w: int, colour: Colour) -> None:
        """Paint the rectangle of ``h`` rows and ``w`` columns whose top left is ``(y, x)``."""
        self.pixels[max(0, y) : max(0, y + h), max(0, x) : max(0, x + w)] = colour

    def outline(self, y: int, x: int, h: int, w: int, colour: Colour, thickness: int = 1) -> None:
        """Paint the border (``thickness`` pixels, inside the rectangle) of the rectangle
        :meth:`fill` would paint."""
        t = max(0, min(thickness, h, w))
        self.fill(y, x, t, w, colour)
        self.fill(y + h - t, x, t, w, colour)
        self.fill(y, x, h, t, colour)
        self.fill(y, x + w - t, h, t, colour)

    def text(self, y: int, x: int, text: str, colour: Colour, scale: int = 1) -> int:
        """Draw ``text`` (digits, a few capitals ``ABCDEGKMOPRSTXY`` and ``/-+? ``) with its top
        left at ``(y, x)``, each dot ``scale`` pixels square; returns the column after it (the
        next glyph's start).  Raises :class:`RasterError` for a character the font lacks,
        before drawing anything."""
        missing = sorted({ch for ch in text if ch not in _FONT})
        if missing:
            raise RasterError(f"the built-in font has no glyph for {''.join(missing)!r}")
        mask = _text_mask(text, scale)
        h, w = mask.shape
        y0, x0, y1, x1 = max(0, y), max(0, x), min(self.height, y + h), min(self.width, x + w)
        if y0 < y1 and x0 < x1:
            self.pixels[y0:y1, x0:x1][mask[y0 - y : y1 - y, x0 - x : x1 - x]] = colour
        return x + len(text) * (GLYPH_WIDTH + 1) * scale


@functools.lru_cache(maxsize=1024)
def _text_mask(text: str, scale: int) -> Any:
    """The dots of ``text`` as a read-only boolean array (one paint per text instead of one per
    dot: the pictures' numbers are few and short, so they are kept)."""
    import numpy as np

    mask = np.zeros((GLYPH_HEIGHT, max(0, len(text) * (GLYPH_WIDTH + 1) - 1)), dtype=bool)
    for i, ch in enumerate(text):
        for r, c in _FONT[ch]:
            mask[r, i * (GLYPH_WIDTH + 1) + c] = True
    if scale > 1:
        mask = mask.repeat(scale, axis=0).repeat(scale, axis=1)
    mask.flags.writeable = False
    return mask
