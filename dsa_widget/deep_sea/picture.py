"""Small pictures of a game for terminals and learning libraries: a text board and a pixel image.

Both show what every player may see (an onlooker's view, ``game.view(0, knower=None)``):
levels, never an unbanked chip's value; banked values and scores only when the ``reveal``
option makes them public, or once the game is over.  :func:`board_text` is plain ASCII;
:func:`board_rgb` is an ``H x W x 3`` ``uint8`` array drawn with the platform's raster toolkit
(:mod:`dsa_widget.core.raster`, numpy imported on first use), the same size all game long for
one setup.

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], seed=1)
>>> g.roll((2, 3))
>>> print(board_text(g))
Deep Sea Adventure: round 1 of 3, air 25 of 25, turn 0; Ann (A) to act: search
submarine: B
spaces  1-8      1    1    1    1    1A   1    1    1
spaces  9-16     2    2    2    2    2    2    2    2
spaces 17-24     3    3    3    3    3    3    3    3
spaces 25-32     4    4    4    4    4    4    4    4
A Ann         space 5, heading down; carrying nothing; banked 0 chips, score 0
B Bob         in the submarine; carrying nothing; banked 0 chips, score 0
(1-4: a chip's level, *k: a stack of k chips, .: a blank; A-F: divers, lowercase heading up)
>>> img = board_rgb(g)
>>> img.shape, img.dtype.name
((110, 152, 3), 'uint8')
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

from ..core.raster import rgb
from .render import LEVEL_COLORS, PLAYER_COLORS

if TYPE_CHECKING:
    from .rules import Game
    from .view import View

__all__ = ["board_rgb", "board_text"]

LETTERS = "ABCDEF"
_LEGEND = "(1-4: a chip's level, *k: a stack of k chips, .: a blank; A-F: divers, lowercase heading up)"
COLS = 8


def _public(game: Game) -> View:
    return game.view(0, knower=None)


def _item_token(item: tuple[int, ...] | None, levels: tuple[int, ...]) -> str:
    if item is None:
        return "."
    if len(item) == 1:
        return str(levels[item[0]])
    return f"*{len(item)}"


def board_text(game: Game) -> str:
    """The board as lines of ASCII: a header (round, air, turn, who acts), the path in rows of
    eight spaces with the divers on them, then one line per diver."""
    v = _public(game)
    names = v.players
    n = len(names)
    over = v.finished
    if over:
        who = "the game is over; winners: " + ", ".join(f"{names[q]} ({LETTERS[q]})" for q in v.winners)
    elif v.current_player is None:
        who = "nobody to act"
    else:
        who = f"{names[v.current_player]} ({LETTERS[v.current_player]}) to act: {v.step}"
    lines = [
        f"Deep Sea Adventure: round {v.round} of {v.rounds}, air {v.air} of {v.start_air}, "
        f"turn {v.turn_number}; {who}"
    ]
    on_space: dict[int, int] = {}
    in_sub: list[str] = []
    for q in range(n):
        p = v.positions[q]
        if p == 0 or v.returned[q]:
            in_sub.append(LETTERS[q])
        else:
            on_space[p] = q
    lines.append("submarine: " + (" ".join(in_sub) if in_sub else "-"))
    length = len(v.path) - 1
    for start in range(1, length + 1, COLS):
        stop = min(start + COLS - 1, length)
        cells = []
        for i in range(start, stop + 1):
            q = on_space.get(i, -1)
            mark = "" if q < 0 else (LETTERS[q].lower() if v.heading_up[q] else LETTERS[q])
            cells.append(f"{_item_token(v.path[i], v.levels):>4}{mark:1}")
        label = f"spaces {start:>2}-{stop:<2}"
        lines.append(f"{label}  " + "".join(cells).rstrip())
    width = max(len(s) for s in names)
    for q in range(n):
        p = v.positions[q]
        if v.returned[q]:
            where = "back in the submarine"
        elif p == 0:
            where = "in the submarine"
        else:
            where = f"space {p}, heading {'up' if v.heading_up[q] else 'down'}"
        items = v.carrying[q]
        if items:
            carried = "carrying " + ", ".join(_item_token(it, v.levels) for it in items)
        else:
            carried = "carrying nothing"
        score = v.scores[q]
        won = " (winner)" if over and q in v.winners else ""
        k = len(v.banked[q])
        lines.append(
            f"{LETTERS[q]} {names[q]:<{max(width, 10)}}  {where}; {carried}; "
            f"banked {k} chip{'' if k == 1 else 's'}, score {'?' if score is None else score}{won}"
        )
    lines.append(_LEGEND)
    return "\n".join(lines)


# ---------------------------------------------------------------------- pixels

CELL = 16
MARGIN = 4
_BOARD_TOP = MARGIN + 6 + 2 + 6 + 4
_SEAT_ROW = 8
_BACKGROUND = (12, 30, 60)
_GRID = (30, 55, 95)
_BLANK = (95, 100, 115)
_SUBMARINE = (235, 200, 60)
_AIR = (90, 200, 230)
_AIR_EMPTY = (40, 60, 90)
_WHITE = (255, 255, 255)
_DARK = (20, 20, 20)


_PLAYER_RGB = tuple(rgb(c) for c in PLAYER_COLORS)
_LEVEL_RGB = {lv: rgb(c) for lv, c in LEVEL_COLORS.items()}


def image_size(chips: int, players: int) -> tuple[int, int]:
    """``(height, width)`` of :func:`board_rgb` for a setup of ``chips`` chips and ``players`` seats.

    >>> image_size(32, 2)
    (110, 152)
    """
    rows = max(1, math.ceil(chips / COLS))
    height = _BOARD_TOP + rows * CELL + 4 + players * _SEAT_ROW + MARGIN
    width = 2 * MARGIN + (COLS + 1) * CELL
    return height, width


def board_rgb(game: Game) -> Any:
    """The board as a small ``uint8`` image (``H x W x 3``), drawn on a
    :class:`~dsa_widget.core.raster.Canvas`.

    Top: the air left (a cyan bar), a square in the colour of the seat to act and one pip per
    round (white up to the round being played).  Then the path in rows of eight cells after
    the submarine (yellow): each cell coloured by its chip's level (yellow, orange, red,
    purple), grey for a blank, a stack framed in black; a diver is a square in the seat's
    colour (with a white top edge once heading up); divers in the submarine are small squares
    in it.  At the bottom, one row per seat: its colour, then a tick per carried chip and,
    after a gap, a tick per banked chip, coloured by level.
    """
    from ..core.raster import Canvas

    v = _public(game)
    n = len(v.players)
    height, width = image_size(len(v.levels), n)
    canvas = Canvas(height, width, _BACKGROUND)
    box = canvas.fill

    # header: air, who acts, rounds
    bar_w = width - 2 * MARGIN
    box(MARGIN, MARGIN, 6, bar_w, _AIR_EMPTY)
    box(MARGIN, MARGIN, 6, round(bar_w * max(0, v.air) / v.start_air), _AIR)
    y = MARGIN + 8
    if v.current_player is not None and not v.finished:
        box(y, MARGIN, 6, 6, _PLAYER_RGB[v.current_player])
    for r in range(min(v.rounds, (bar_w - 10) // 6)):
        box(y + 1, MARGIN + 10 + 6 * r, 4, 4, _WHITE if r < v.round else _GRID)
    # the path
    rows = max(1, math.ceil(len(v.levels) / COLS))
    box(_BOARD_TOP, MARGIN, rows * CELL, (COLS + 1) * CELL, _GRID)
    box(_BOARD_TOP + 1, MARGIN + 1, CELL - 2, CELL - 2, _SUBMARINE)

    def cell(i: int) -> tuple[int, int]:
        row, col = divmod(i - 1, COLS)
        return _BOARD_TOP + row * CELL, MARGIN + (col + 1) * CELL

    for i, item in enumerate(v.path[1:], start=1):
        cy, cx = cell(i)
        if item is None:
            box(cy + 1, cx + 1, CELL - 2, CELL - 2, _BLANK)
            continue
        colour = _LEVEL_RGB[max(v.levels[c] for c in item)]
        if len(item) > 1:
            box(cy + 1, cx + 1, CELL - 2, CELL - 2, _DARK)
            box(cy + 3, cx + 3, CELL - 6, CELL - 6, colour)
        else:
            box(cy + 1, cx + 1, CELL - 2, CELL - 2, colour)
    for q in range(n):
        p = v.positions[q]
        colour = _PLAYER_RGB[q]
        if p == 0 or v.returned[q]:
            box(_BOARD_TOP + 3 + (q // 3) * 5, MARGIN + 2 + (q % 3) * 4, 3, 3, colour)
            continue
        cy, cx = cell(p)
        box(cy + 4, cx + 4, CELL - 8, CELL - 8, colour)
        if v.heading_up[q]:
            box(cy + 4, cx + 4, 2, CELL - 8, _WHITE)
    # one row per seat: colour, carried chips, banked chips
    y0 = _BOARD_TOP + rows * CELL + 4
    for q in range(n):
        y = y0 + q * _SEAT_ROW
        box(y, MARGIN, 6, 6, _PLAYER_RGB[q])
        x = MARGIN + 10
        for it in v.carrying[q]:
            for c in it:
                if x + 2 <= width - MARGIN:
                    box(y, x, 6, 2, _LEVEL_RGB[v.levels[c]])
                x += 3
        x = max(x + 6, MARGIN + 10 + (width - 2 * MARGIN - 10) // 2)
        for c in v.banked[q]:
            if x + 2 <= width - MARGIN:
                box(y, x, 6, 2, _LEVEL_RGB[v.levels[c]])
            x += 3
    return canvas.pixels
