"""A static SVG picture of a game (``Game._repr_svg_``), as python-chess draws boards.

It shows what every player may see: levels, never an unbanked chip's value;
banked values only when the ``reveal`` option makes them public (or the game
is over).  Names are XML-escaped.

>>> from dsa_widget import Game
>>> svg = game_svg(Game(players=["Ann", "<b>Bob</b>"], seed=1))
>>> svg.startswith("<svg") and "&lt;b&gt;Bob&lt;/b&gt;" in svg and "<b>" not in svg
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any
from xml.sax.saxutils import escape

from .state import build_state

if TYPE_CHECKING:
    from .rules import Game

__all__ = ["PLAYER_COLORS", "game_svg", "layout", "polygon_points"]

#: diver colours by seat (the same palette as the widget's js/board.js)
PLAYER_COLORS = ("#e0523f", "#3f7fd9", "#2fa86b", "#e6a000", "#9b59b6", "#16a5a5")
#: chip fill per level (lighter to darker, like the real chips' backs)
LEVEL_COLORS = {1: "#f2c14e", 2: "#f08a4b", 3: "#c4455a", 4: "#6a3d9a"}

COLS = 8
CELL = 46
MARGIN = 12
HEADER = 40
SUB_W = 64


def polygon_points(level: int, cx: float, cy: float, r: float) -> str:
    """Points of the chip shape of ``level``: triangle, square, pentagon, hexagon.

    >>> polygon_points(2, 0, 0, 1)
    '-0.71,-0.71 0.71,-0.71 0.71,0.71 -0.71,0.71'
    """
    n = level + 2
    start = -math.pi / 2 - (math.pi / n if n % 2 == 0 else 0)
    pts = []
    for k in range(n):
        a = start + 2 * math.pi * k / n
        pts.append(f"{cx + r * math.cos(a):.2f},{cy + r * math.sin(a):.2f}".replace("-0.00", "0.00"))
    return " ".join(pts)


def layout(index: int) -> tuple[float, float]:
    """Centre of path space ``index`` (1-based): rows of 8, snaking down like the real board.

    >>> layout(1), layout(8), layout(9)
    ((99.0, 63.0), (421.0, 63.0), (421.0, 109.0))
    """
    i = index - 1
    row, col = divmod(i, COLS)
    if row % 2:
        col = COLS - 1 - col
    x = MARGIN + SUB_W + col * CELL + CELL / 2
    y = HEADER + row * CELL + CELL / 2
    return x, y


def _dots(level: int, cx: float, cy: float) -> str:
    out = []
    for k in range(level):
        dx = (k - (level - 1) / 2) * 5
        out.append(f'<circle cx="{cx + dx:.1f}" cy="{cy:.1f}" r="1.6" fill="#fff"/>')
    return "".join(out)


def _chip(level: int, cx: float, cy: float, r: float, value: Any = None) -> str:
    s = (
        f'<polygon points="{polygon_points(level, cx, cy, r)}" fill="{LEVEL_COLORS.get(level, "#888")}" '
        f'stroke="#333" stroke-width="1"/>'
    )
    if value is None:
        return s + _dots(level, cx, cy + (2 if level == 1 else 0))
    return (
        s
        + f'<text x="{cx:.1f}" y="{cy + 4:.1f}" font-size="11" text-anchor="middle" fill="#fff">'
        + f"{int(value)}</text>"
    )


def _item(chips: Sequence[Sequence[int]], cx: float, cy: float, r: float) -> str:
    if len(chips) == 1:
        c = chips[0]
        return _chip(c[0], cx, cy, r, c[1] if len(c) > 1 else None)
    parts = []
    for k, c in enumerate(chips[:3]):
        off = (k - (min(3, len(chips)) - 1) / 2) * 4
        parts.append(_chip(c[0], cx + off, cy - off, r * 0.8, None))
    parts.append(
        f'<text x="{cx + r:.1f}" y="{cy + r + 2:.1f}" font-size="10" text-anchor="end" fill="#333">'
        f"×{len(chips)}</text>"
    )
    return "".join(parts)


def _short(name: str, n: int = 16) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"


def game_svg(game: Game, *, reveal_all: bool = False) -> str:
    """The board as an SVG string: header (round, air, whose turn), path,
    divers (colour, heading arrow, items carried) and each player's score."""
    st = build_state(game, seats=["human"] * len(game.players), seq=0, reveal_all=reveal_all)
    players = st["players"]
    n_spaces = len(st["path"])
    rows = max(1, math.ceil(n_spaces / COLS))
    width = MARGIN * 2 + SUB_W + COLS * CELL
    score_h = 20 * len(players) + 10
    height = HEADER + rows * CELL + 8 + score_h
    out: list[str] = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" '
            f'aria-label="Deep Sea Adventure board">'
        ),
        f'<rect width="{width}" height="{height}" fill="#0d3b66" rx="8"/>',
    ]
    if st["over"]:
        head = (
            "Game over — "
            + ", ".join(escape(players[w]) for w in st["winners"])
            + " win"
            + ("s" if len(st["winners"]) == 1 else "")
        )
    else:
        who = escape(_short(players[st["current"]]))
        head = f"Round {st['round']}/{st['rounds']} · {who} to play ({st['step'].replace('_', ' ')})"
    out.append(f'<text x="{MARGIN}" y="24" font-size="14" fill="#fff">{head}</text>')
    # the air gauge
    frac = st["air"] / max(1, st["start_air"])
    gx, gw = width - MARGIN - 110, 110
    out.append(f'<rect x="{gx}" y="12" width="{gw}" height="14" rx="7" fill="#08243f" stroke="#9cc"/>')
    out.append(f'<rect x="{gx}" y="12" width="{gw * frac:.1f}" height="14" rx="7" fill="#5bc0eb"/>')
    out.append(
        f'<text x="{gx + gw / 2}" y="23" font-size="10" text-anchor="middle" fill="#fff">'
        f"air {st['air']}</text>"
    )
    # the submarine
    out.append(
        f'<rect x="{MARGIN}" y="{HEADER + 8}" width="{SUB_W - 12}" height="30" rx="14" '
        f'fill="#f4d35e" stroke="#333"/>'
        f'<text x="{MARGIN + (SUB_W - 12) / 2}" y="{HEADER + 27}" font-size="10" '
        f'text-anchor="middle">sub</text>'
    )
    # the path
    for i, space in enumerate(st["path"], start=1):
        x, y = layout(i)
        out.append(f'<circle cx="{x}" cy="{y}" r="19" fill="#134e7c" opacity="0.6"/>')
        if space == 0:
            out.append(
                f'<circle cx="{x}" cy="{y}" r="8" fill="none" stroke="#7fa7c9" stroke-dasharray="3 2"/>'
            )
        else:
            out.append(_item(space, x, y, 13))
    # divers
    for q, d in enumerate(st["divers"]):
        color = PLAYER_COLORS[q % len(PLAYER_COLORS)]
        if d["pos"] == 0:
            x, y = MARGIN + 8 + q * 9, HEADER + 52
            r = 5
        else:
            x, y = layout(d["pos"])
            y -= 12
            r = 8
        arrow = "▲" if d["up"] else "▼"
        label = escape(players[q][:1].upper())
        out.append(
            f"<g><title>{escape(players[q])}: {'heading up' if d['up'] else 'heading down'}, "
            f"{len(d['items'])} item(s)</title>"
            f'<circle cx="{x}" cy="{y}" r="{r}" fill="{color}" stroke="#fff" stroke-width="1.5"/>'
        )
        if d["pos"]:
            out.append(
                f'<text x="{x}" y="{y + 3.5}" font-size="9" text-anchor="middle" fill="#fff">{label}</text>'
                f'<text x="{x + 11}" y="{y + 3}" font-size="8" fill="#fff">'
                f"{arrow}{len(d['items']) or ''}</text>"
            )
        out.append("</g>")
    # scores
    y0 = HEADER + rows * CELL + 18
    for q, name in enumerate(players):
        y = y0 + 20 * q
        color = PLAYER_COLORS[q % len(PLAYER_COLORS)]
        sc = st["scores"][q]
        d = st["divers"][q]
        carried = len(d["items"])
        mark = "▶ " if st["current"] == q else ""
        out.append(f'<circle cx="{MARGIN + 6}" cy="{y - 4}" r="6" fill="{color}"/>')
        out.append(
            f'<text x="{MARGIN + 18}" y="{y}" font-size="12" fill="#fff">{mark}{escape(name)}: '
            f"{'?' if sc is None else sc} points, {len(st['banked'][q])} chip(s) banked"
            f"{f', carrying {carried}' if carried else ''}</text>"
        )
    out.append("</svg>")
    return "".join(out)
