"""*Submarine* as a small pixel picture for learning libraries (the ``rgb_array`` picture of
its PettingZoo environment), drawn with the platform's raster toolkit
(:mod:`dsa_widget.core.raster`).

The picture reads the spectator's view (``game.view(None).to_dict()``) only: the ships, the
treasure and jokers in every space, the bathyscaphes, each player's collection, score and
counts of cards in hand, in the pile and of held jokers, the cards out of play; never a card in
a hand or a pile.  Its size depends on the number of players only.

>>> from dsa_widget.submarine.rules import SubmarineGame
>>> img = board_rgb(SubmarineGame(3, seed=1))
>>> img.shape, img.dtype.name
((190, 220, 3), 'uint8')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from ..core.raster import LIGHT, Canvas, Colour, blend, rgb, text_width

if TYPE_CHECKING:
    from .rules import SubmarineGame

__all__ = ["board_rgb", "image_size"]

# the board's palette (js/submarine/submarine.css on the shared light theme of js/widget.css)
_SEA = blend(LIGHT.accent, LIGHT.bg, 0.14)  # --dsa-sea
_BAND = blend(LIGHT.accent, LIGHT.bg, 0.45)  # --dsa-band: the surface lane
_COLOUR: dict[str, Colour] = {
    "K1": rgb("#d64545"),
    "K2": rgb("#b58900"),
    "K3": rgb("#2e9a55"),
    "K4": rgb("#2f6fd6"),
    "K5": rgb("#9b4dca"),
}
LETTERS = "ABCDE"

MARGIN = 4
END_W = 22  # the start and the end of the surface lane
CELL_W, CELL_H = 28, 32
LANE_H = 11
TILE_W, TILE_H = 11, 7
_HEAD = MARGIN + 9
_BOARD_X = MARGIN + END_W
WIDTH = 2 * MARGIN + 2 * END_W + 6 * CELL_W
ROW = 10
_SLOT_W = TILE_W + 1


def image_size(players: int) -> tuple[int, int]:
    """``(height, width)`` of :func:`board_rgb` for ``players`` players.

    >>> image_size(2), image_size(5)
    ((180, 220), (210, 220))
    """
    return _HEAD + LANE_H + 4 * CELL_H + 4 + players * ROW + MARGIN, WIDTH


def _tile(c: Canvas, y: int, x: int, name: str, joker: bool) -> None:
    """A tile: a treasure filled with its rim colour and its type in white; a shell (or any
    joker lying on the board) framed in the colour instead."""
    colour = _COLOUR.get(name[-2:], LIGHT.fg2)
    if name.startswith("SH") or joker:
        c.outline(y, x, TILE_H, TILE_W, colour)
        c.fill(y + 3, x + 5, 1, 1, colour)
        return
    c.fill(y, x, TILE_H, TILE_W, colour)
    kind = str(int(name[1:3]))
    c.text(y + 1, x + (TILE_W - text_width(kind)) // 2, kind, LIGHT.bg)


def _lane_x(position: str) -> tuple[int, int]:
    """The left edge and width of a ship's place on the surface lane."""
    if position == "start":
        return MARGIN, END_W
    if position == "end":
        return _BOARD_X + 6 * CELL_W, END_W
    return _BOARD_X + (int(position) - 1) * CELL_W, CELL_W


def board_rgb(game: SubmarineGame) -> Any:
    """The sea as a small ``uint8`` image (``H x W x 3``).

    At the top, the letter of the player to move (blue) with the action chosen for its
    bathyscaphes this turn (``M`` move, ``C`` collect), the cards out of play by colour and the
    cards never dealt.
    The surface lane (start, columns 1-6, end) holds the ships (the players' letters).  Under
    it four rows of six spaces: up to four tiles each (a treasure in its colour with its type
    number, a shell or board joker framed), then the letters of the bathyscaphes in it (``+``
    when more than twelve).  At the bottom, a row per player: its letter, its twelve slots
    (the collected treasure, in colour), its score, and its cards in hand (a light card), in
    its pile (a dark card) and its held jokers (a framed one).
    """
    v: Mapping[str, Any] = game.view(None).to_dict()
    players = len(v["players"])
    height, width = image_size(players)
    c = Canvas(height, width, _SEA)
    over = bool(v.get("result"))
    # the header: who is to move, the cards out of play
    to_move = v["to_move"]
    if not over and isinstance(to_move, int) and 0 <= to_move < players:
        c.fill(MARGIN - 1, MARGIN - 1, 7, 5, LIGHT.accent)
        c.text(MARGIN, MARGIN, LETTERS[to_move], LIGHT.bg)
        mode = {"move": "M", "collect": "C"}.get(v["step"].get("mode", ""))
        if mode is not None:  # the action its bathyscaphes take this turn
            c.text(MARGIN, MARGIN + 6, mode, LIGHT.accent)
    x = MARGIN + 14
    for key, colour in _COLOUR.items():
        n = str(v["out_of_play"].get(key, 0))
        c.fill(MARGIN - 1, x, 7, text_width(n) + 4, colour)
        c.text(MARGIN, x + 2, n, LIGHT.bg)
        x += text_width(n) + 7
    undealt = str(v["undealt_count"])
    c.fill(MARGIN, width - MARGIN - text_width(undealt) - 6, 5, 3, LIGHT.fg2)
    c.text(MARGIN, width - MARGIN - text_width(undealt), undealt, LIGHT.fg)
    # the surface lane and the ships
    y = _HEAD
    c.fill(y, MARGIN, LANE_H, width - 2 * MARGIN, _BAND)
    for i in range(7):
        c.fill(y, _BOARD_X + i * CELL_W - 1, LANE_H, 1, LIGHT.bg)
    at: dict[str, list[int]] = {}
    for q, pos in enumerate(v["ships"]):
        at.setdefault(str(pos), []).append(q)
    for pos, seats in at.items():
        left, w = _lane_x(pos)
        for i, q in enumerate(seats):
            c.text(y + 3, left + 2 + 4 * i, LETTERS[q], LIGHT.fg)
    # the spaces
    jokers = set(v["board_jokers"])
    baths: dict[str, list[int]] = {}
    for q, spaces in enumerate(v["bathyscaphes"]):
        for space in spaces:
            if space is not None:
                baths.setdefault(str(space), []).append(q)
    y0 = _HEAD + LANE_H + 2
    for col in range(1, 7):
        for depth in range(1, 5):
            sy, sx = y0 + (depth - 1) * CELL_H, _BOARD_X + (col - 1) * CELL_W
            c.fill(sy, sx, CELL_H - 2, CELL_W - 2, LIGHT.bg)
            c.outline(sy, sx, CELL_H - 2, CELL_W - 2, LIGHT.border)
            space = f"{col}.{depth}"
            for i, t in enumerate(v["tiles"].get(space, [])[:4]):
                row, at_x = divmod(i, 2)
                _tile(c, sy + 2 + row * (TILE_H + 1), sx + 2 + at_x * (TILE_W + 1), t, t in jokers)
            here = sorted(baths.get(space, []))
            for i, q in enumerate(here[:12]):
                row, at_x = divmod(i, 6)
                mark = "+" if i == 11 and len(here) > 12 else LETTERS[q]
                c.text(sy + 18 + row * 6, sx + 2 + 4 * at_x, mark, LIGHT.fg)
    # the players
    y = y0 + 4 * CELL_H + 2
    for q in range(players):
        ry = y + q * ROW
        winner = over and q in (v["result"] or {}).get("winners", ())
        c.text(ry + 1, MARGIN, LETTERS[q], LIGHT.accent if winner else LIGHT.fg)
        x = MARGIN + 6
        slots = v["slots"][q]
        for i in range(12):
            sx = x + i * _SLOT_W
            if i < len(slots):
                _tile(c, ry, sx, slots[i], False)
            else:
                c.outline(ry, sx, TILE_H, _SLOT_W - 1, LIGHT.border)
        x += 12 * _SLOT_W + 2
        c.text(ry + 1, x, str(v["scores"][q]), LIGHT.accent if winner else LIGHT.fg)
        x += 10
        for icon, n in ((LIGHT.border, v["hand_counts"][q]), (LIGHT.fg2, v["pile_sizes"][q])):
            c.fill(ry + 1, x, 5, 3, icon)
            c.text(ry + 1, x + 4, str(n), LIGHT.fg)
            x += 4 + text_width(str(n)) + 4
        c.outline(ry + 1, x, 5, 5, LIGHT.fg2)  # a held joker: a framed tile, as on the board
        c.fill(ry + 3, x + 2, 1, 1, LIGHT.fg2)
        c.text(ry + 1, x + 6, str(len(v["held_jokers"][q])), LIGHT.fg)
    return c.pixels
