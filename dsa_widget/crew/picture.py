"""*The Crew: Mission Deep Sea* as a small pixel picture for learning libraries (the
``rgb_array`` picture of its PettingZoo environment), drawn with the platform's raster toolkit
(:mod:`dsa_widget.core.raster`).

The picture reads the spectator's view (``game.view(None)``) only, so it shows what every
player may see and never a card in a hand: per seat the cards left, the tricks won, the
captain, the communicated card and its token, the card it put on the trick under way; Tonoja's
face-up cards; the tasks with their owners and done / failed marks; the trick count and, once
the mission is decided, its outcome.  Its size is the same for every table but for a row
more when Tonoja plays.

>>> from dsa_widget.crew.rules import CrewGame
>>> img = board_rgb(CrewGame(3, seed=3, target=3))
>>> img.shape, img.dtype.name
((118, 158, 3), 'uint8')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.raster import LIGHT, Canvas, Colour, blend, rgb, text_width
from .cards import DECK

if TYPE_CHECKING:
    from .rules import CrewGame

__all__ = ["TASK_BOXES", "board_rgb", "image_size"]

# the widget's palette (js/crew/crew.css, light theme, on js/widget.css's variables)
_CAPTAIN = rgb("#e3b72a")
_SUIT: dict[str, Colour] = {
    "P": rgb("#b8306f"),
    "Y": rgb("#8a6500"),
    "B": rgb("#2a64c4"),
    "G": rgb("#1d7440"),
    "S": LIGHT.fg,
}

MARGIN = 4
COL = 30  # a seat's column
SEATS = 5  # the most seats: every setup's picture is as wide
WIDTH = 2 * MARGIN + SEATS * COL
CARD_W, CARD_H = 11, 15
_TOP = MARGIN + 12  # under the outcome strip and the trick count
_SEAT_H = 60
_DUMMY_H = CARD_H + 6
TASK_W, TASK_H = 18, 16
_TASK_COLS = (WIDTH - 2 * MARGIN + 2) // (TASK_W + 2)
_TASK_ROWS = 2
#: how many tasks the picture has a box for (a mission with more shows ``+k`` in the last one)
TASK_BOXES = _TASK_COLS * _TASK_ROWS


def image_size(dummy: bool) -> tuple[int, int]:
    """``(height, width)`` of :func:`board_rgb`: one size for every table, and a row more for
    Tonoja's face-up cards when she plays (two players).

    >>> image_size(False), image_size(True)
    ((118, 158), (139, 158))
    >>> from dsa_widget.crew.rules import CrewGame
    >>> board_rgb(CrewGame(2, seed=1, target=3)).shape[:2]
    (139, 158)
    """
    return _TOP + _SEAT_H + (_DUMMY_H if dummy else 0) + _TASK_ROWS * (TASK_H + 2) + MARGIN + 2, WIDTH


def _card(c: Canvas, y: int, x: int, cid: str, faded: bool = False) -> None:
    """A card: its suit's colour, its rank in white (faded: a card already played)."""
    colour = _SUIT[cid[0]]
    ink = LIGHT.bg
    if faded:
        colour, ink = blend(colour, LIGHT.bg, 0.35), blend(LIGHT.bg, colour, 0.6)
    c.fill(y, x, CARD_H, CARD_W, colour)
    if cid[0] == "S":  # a submarine: the widget frames it twice
        c.outline(y + 1, x + 1, CARD_H - 2, CARD_W - 2, ink)
    c.text(y + 5, x + 4, cid[1:], ink)


def _slot(c: Canvas, y: int, x: int) -> None:
    c.outline(y, x, CARD_H, CARD_W, LIGHT.border)


def board_rgb(game: CrewGame) -> Any:
    """The table as a small ``uint8`` image (``H x W x 3``) on a white ground.

    At the top, a strip green on success, red on failure, and the trick count (``9/13``).  One
    column per seat (left to right; the seat to move framed in blue): a header with its number
    (``T`` for Tonoja) on gold for the captain; the cards left in hand and the tricks won (a
    light and a dark little card before each); its latest communicated card (faded once
    played) with a mark at the top, middle or bottom for its position, and its token (blue while
    it can still communicate, hollow once used); the card it played to the trick under way,
    underlined for the leader.  For two players a row of Tonoja's face-up cards (a dot under a
    column that still hides a card).  Then a box per task: its number, its owner's seat
    number (``?`` before it is given), white while open, green once done, red once failed.
    """
    v = game.view(None)
    height, width = image_size(v.dummy_columns is not None)
    c = Canvas(height, width, LIGHT.bg)
    outcome = v.outcome
    if outcome is not None:
        c.fill(0, 0, 3, width, LIGHT.ok if outcome["result"] == "success" else LIGHT.error)
    c.text(MARGIN + 2, MARGIN, f"{v.trick_number}/{v.tricks_total}", LIGHT.fg2)
    latest = {comm.seat: comm for comm in v.communicated}
    trick = dict(v.current_trick)
    leader = v.current_trick[0][0] if v.current_trick else None
    for s in range(v.seats):
        x, y = MARGIN + s * COL, _TOP
        if outcome is None and s == v.acting_for:
            c.outline(y - 2, x, _SEAT_H, COL - 1, LIGHT.accent, thickness=2)
        c.fill(y, x + 3, 9, COL - 7, _CAPTAIN if s == v.captain else LIGHT.bg2)
        label = "T" if s == v.dummy else str(s + 1)
        c.text(y + 2, x + 3 + (COL - 7 - text_width(label)) // 2, label, LIGHT.fg)
        y += 11
        c.fill(y, x + 3, 5, 3, LIGHT.border)
        c.text(y, x + 7, str(v.hand_counts[s]), LIGHT.fg)
        c.fill(y, x + 16, 5, 3, LIGHT.fg2)
        c.text(y, x + 20, str(v.tricks_won[s]), LIGHT.fg)
        y += 8
        comm = latest.get(s)
        if comm is not None:
            _card(c, y, x + 3, comm.card, faded=comm.played)
            mark = {"top": 0, "middle": 6, "bottom": 12}.get(comm.position)
            if mark is not None:
                c.fill(y + mark, x + 15, 3, 2, LIGHT.fg)
        token = v.tokens[s]
        if token == "available":
            c.fill(y + 1, x + 20, 5, 5, LIGHT.accent)
        elif token == "used":
            c.outline(y + 1, x + 20, 5, 5, LIGHT.border)
        y += CARD_H + 3
        played = trick.get(s)
        cx = x + (COL - 1 - CARD_W) // 2
        if played is None:
            _slot(c, y, cx)
        else:
            _card(c, y, cx, DECK[played])
        if s == leader:
            c.fill(y + CARD_H + 1, cx, 2, CARD_W, LIGHT.accent)
    y = _TOP + _SEAT_H
    if v.dummy_columns is not None:
        c.text(y + 5, MARGIN, "T", LIGHT.fg)
        for i, (up, down) in enumerate(v.dummy_columns):
            x = MARGIN + 8 + i * (CARD_W + 2)
            if up is None:
                _slot(c, y, x)
            else:
                _card(c, y, x, up)
            if down:
                c.fill(y + CARD_H + 1, x + CARD_W // 2 - 1, 2, 3, LIGHT.fg2)
        y += _DUMMY_H
    y += 2
    tasks = v.tasks
    for i, (tid, owner, status, _pred, _progress, _hidden) in enumerate(tasks[:TASK_BOXES]):
        row, col = divmod(i, _TASK_COLS)
        ty, tx = y + row * (TASK_H + 2), MARGIN + col * (TASK_W + 2)
        fill = {"done": LIGHT.ok, "failed": LIGHT.error}.get(status)
        if fill is None:
            c.outline(ty, tx, TASK_H, TASK_W, LIGHT.fg2)
            ink = LIGHT.fg
        else:
            c.fill(ty, tx, TASK_H, TASK_W, fill)
            ink = LIGHT.bg
        if i == TASK_BOXES - 1 and len(tasks) > TASK_BOXES:
            more = f"+{len(tasks) - TASK_BOXES + 1}"
            c.text(ty + 5, tx + (TASK_W - text_width(more)) // 2, more, ink)
            break
        c.text(ty + 2, tx + (TASK_W - text_width(str(tid))) // 2, str(tid), ink)
        who = "?" if owner is None else str(owner + 1)
        c.text(ty + 9, tx + (TASK_W - text_width(who)) // 2, who, ink)
    return c.pixels
