"""Pig as a small pixel picture for learning libraries (the ``rgb_array`` picture of its
PettingZoo environment), drawn with the platform's raster toolkit (:mod:`dsa_widget.core.raster`).

Nothing in Pig is hidden; the picture reads the spectator's view all the same, as every game's
does.  It keeps one size for a number of seats, all game long.

>>> from dsa_widget.pig import PigGame
>>> g = PigGame(2, goal=20, seed=1)
>>> g.apply("roll"); g.apply_chance(5)
>>> img = board_rgb(g)
>>> img.shape, img.dtype.name, last_die(g.view(None))
((51, 160, 3), 'uint8', 5)
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.raster import GLYPH_HEIGHT, LIGHT, Canvas, blend, rgb, text_width

if TYPE_CHECKING:
    from .rules import PigGame
    from .view import PigView

__all__ = ["board_rgb", "image_size", "last_die"]

# the widget's palette (js/pig/pig.css on the shared light theme of js/widget.css)
_TURN = blend(LIGHT.accent, LIGHT.bg, 0.4)  # .pig-turn: the accent at 40 % opacity
_WINNER = rgb("#e6a000")

WIDTH = 160
MARGIN = 4
DIE = 15
ROW = 12
_HEAD = MARGIN + DIE + 4
_SCORE_W = text_width("0000")
_BAR_X = MARGIN + 8
_BAR_W = WIDTH - _BAR_X - MARGIN - _SCORE_W - 4

# the pips of each face on a 3 x 3 grid (row, column)
_PIPS = {
    1: ((1, 1),),
    2: ((0, 2), (2, 0)),
    3: ((0, 2), (1, 1), (2, 0)),
    4: ((0, 0), (0, 2), (2, 0), (2, 2)),
    5: ((0, 0), (0, 2), (1, 1), (2, 0), (2, 2)),
    6: ((0, 0), (0, 2), (1, 0), (1, 2), (2, 0), (2, 2)),
}


def image_size(players: int) -> tuple[int, int]:
    """``(height, width)`` of :func:`board_rgb` for ``players`` seats.

    >>> image_size(2), image_size(6)
    ((51, 160), (99, 160))
    """
    return _HEAD + players * ROW + MARGIN, WIDTH


def last_die(v: PigView) -> int | None:
    """The face the die last showed (in the turn under way, else the turn before), or None
    before the first roll.

    >>> from dsa_widget.pig import PigGame
    >>> g = PigGame(2, goal=20, seed=1)
    >>> g.apply("roll"); g.apply_chance(4); g.apply("hold")
    >>> last_die(g.view(None)), last_die(PigGame(2, seed=1).view(None))
    (4, None)
    """
    turns = [v.moves, *(m for _, m in reversed(v.history))]
    for moves in turns[:2]:
        for m in reversed(moves):
            if isinstance(m, int):
                return m
    return None


def board_rgb(game: PigGame) -> Any:
    """The table as a small ``uint8`` image (``H x W x 3``) on a white ground.

    Top: the die's last face (pips; an empty grey square before the first roll) and, beside it,
    the turn total in large blue digits, the goal in grey at the right.  Then one row per seat:
    its number (1-based), a bar of the way to the goal (banked points in blue, the turn total
    of the seat to move after them in light blue), its banked score; the seat to move has a
    blue mark at the left, a winner a gold frame.
    """
    v = game.view(None)
    n = len(v.players)
    height, width = image_size(n)
    c = Canvas(height, width, LIGHT.bg)
    # the die and the turn total
    face = last_die(v)
    c.fill(MARGIN, MARGIN, DIE, DIE, LIGHT.bg)
    c.outline(MARGIN, MARGIN, DIE, DIE, LIGHT.fg if face is not None else LIGHT.border)
    for r, q in _PIPS.get(face or 0, ()):
        c.fill(MARGIN + 2 + 4 * r, MARGIN + 2 + 4 * q, 3, 3, LIGHT.fg)
    over = bool(v.winners)
    if not over:
        c.text(MARGIN + 2, MARGIN + DIE + 6, f"+{v.turn_total}", LIGHT.accent, scale=2)
    goal = str(v.goal)
    c.text(MARGIN, width - MARGIN - text_width(goal), goal, LIGHT.fg2)
    # one row per seat
    for q in range(n):
        y = _HEAD + q * ROW
        if q in v.winners:
            c.outline(y - 2, MARGIN - 2, ROW, width - 2 * MARGIN + 4, _WINNER)
        if not over and q == v.current:
            c.fill(y, MARGIN - 2, GLYPH_HEIGHT + 3, 2, LIGHT.accent)
        c.text(y + 1, MARGIN + 1, str(q + 1), LIGHT.fg)
        c.outline(y, _BAR_X, 8, _BAR_W, LIGHT.fg2)
        inner = _BAR_W - 2
        bank = min(inner, inner * v.scores[q] // v.goal)
        c.fill(y + 1, _BAR_X + 1, 6, bank, LIGHT.accent)
        if not over and q == v.current:
            turn = min(inner, inner * (v.scores[q] + v.turn_total) // v.goal) - bank
            c.fill(y + 1, _BAR_X + 1 + bank, 6, turn, _TURN)
        score = str(v.scores[q])
        c.text(y + 1, width - MARGIN - text_width(score), score, LIGHT.fg)
    return c.pixels
