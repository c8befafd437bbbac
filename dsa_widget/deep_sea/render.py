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
        f'<text x="{cx + r:.1f}" y="{cy + r + 2:.1f}" font-size="10" text-anchor="end" fill="{FG}">'
        f"×{len(chips)}</text>"
    )
    return "".join(parts)


def _short(name: str, n: int = 16) -> str:
    return name if len(name) <= n else name[: n - 1] + "…"


#: the widget's light theme (js/widget.css), so a bare Game looks like the board people play on
FG, FG2, BORDER = "#1f2328", "#57606a", "#bdbdbd"
SEA, BAND, SUB = "#dfecf9", "#97c1ea", "#f4d35e"
AIR, AIR_LOW, AIR_TRACK = "#4fb3e8", "#d32f2f", "#eeeeee"
#: the words of each step, as the board's header says them (js/model.js)
STEP_WORDS = {
    "turn_back": "turn back or keep diving?",
    "roll": "roll the dice",
    "search": "search the space",
    "sink": "choose the order your chips sink in",
}
#: how far right of its space's centre a diver stands (clear of the space's number)
DIVER_DX = 5


def _you(name: str) -> bool:
    return name.strip().lower() == "you"


def _header(st: dict[str, Any]) -> str:
    players = st["players"]
    if st["over"]:
        won = [players[w] for w in st["winners"]]
        if not won:
            return "Game over"
        verb = "win" if len(won) > 1 or _you(won[0]) else "wins"
        return "Game over: " + escape(" and ".join(_short(w) for w in won)) + f" {verb}"
    who = escape(_short(players[st["current"]]))
    step = STEP_WORDS.get(st["step"], str(st["step"]).replace("_", " "))
    return f"Round {st['round']}/{st['rounds']} · {who}: {escape(step)}"


def _air(st: dict[str, Any], width: int) -> str:
    """The air gauge: the game's air, and the slice the coming breath takes, hatched."""
    gx, gw, start = width - MARGIN - 120, 120, max(1, st["start_air"])
    air = max(0, st["air"])
    breath = min(air, st.get("breath") or 0)
    after = air - breath
    low = after <= max(3, st["start_air"] / 5)
    scale = gw / start
    out = [
        f'<rect x="{gx}" y="12" width="{gw}" height="15" rx="7" fill="{AIR_TRACK}" stroke="{BORDER}"/>',
        f'<rect x="{gx}" y="12" width="{min(gw, after * scale):.1f}" height="15" rx="7" '
        f'fill="{AIR_LOW if low else AIR}"/>',
    ]
    if breath:
        out.append(
            f'<rect x="{gx + after * scale:.1f}" y="12" width="{breath * scale:.1f}" height="15" '
            f'fill="{AIR}" fill-opacity="0.35" stroke="{AIR}" stroke-dasharray="2 2"/>'
        )
    label = f"air {air} / {st['start_air']}" + (f" (−{breath})" if breath else "")
    out.append(
        f'<text x="{gx + gw / 2}" y="23.5" font-size="10" font-weight="600" text-anchor="middle" '
        f'fill="{FG}">{label}</text>'
    )
    return "".join(out)


def _submarine(st: dict[str, Any]) -> str:
    x, y = MARGIN, HEADER + 8
    out = [
        f'<rect x="{x}" y="{y + 6}" width="{SUB_W - 12}" height="36" rx="16" fill="{SUB}" stroke="{FG}"/>',
        f'<rect x="{x + 14}" y="{y - 2}" width="14" height="9" rx="3" fill="{SUB}" stroke="{FG}"/>',
    ]
    out += [
        f'<circle cx="{x + 12 + 13 * k}" cy="{y + 16}" r="3.5" fill="{SEA}" stroke="{FG}"/>' for k in range(3)
    ]
    return "".join(out)


def _diver(st: dict[str, Any], q: int) -> str:
    d = st["divers"][q]
    name = st["players"][q]
    color = PLAYER_COLORS[q % len(PLAYER_COLORS)]
    letter = "ABCDEF"[q % 6]
    current = st["current"] == q and not st["over"]
    x: float
    y: float
    r: float
    if d["pos"] == 0:
        x, y, r = MARGIN + 10 + (q % 3) * 16, HEADER + 38 + (q // 3) * 14, 6.5
    else:
        cx, cy = layout(d["pos"])
        x, y, r = cx + DIVER_DX, cy - 13, 9
    where = f"space {d['pos']}" if d["pos"] else "the submarine"
    out = [
        f"<g><title>{letter} {escape(name)}: {where}, heading {'up' if d['up'] else 'down'}, "
        f"carrying {len(d['items'])}</title>"
    ]
    if current:
        out.append(
            f'<circle cx="{x}" cy="{y}" r="{r + 3.5}" fill="none" stroke="{FG}" stroke-dasharray="3 2"/>'
        )
    out.append(f'<circle cx="{x}" cy="{y}" r="{r}" fill="{color}" stroke="#fff" stroke-width="1.5"/>')
    out.append(
        f'<text x="{x}" y="{y + r * 0.42:.1f}" font-size="{9 if d["pos"] else 7}" font-weight="700" '
        f'text-anchor="middle" fill="#fff">{letter}</text>'
    )
    if d["pos"]:
        e = r + 1
        pts = f"{x - 3.5},{y - e} {x},{y - e - 4} {x + 3.5},{y - e}"
        if not d["up"]:
            pts = f"{x - 3.5},{y + e} {x},{y + e + 4} {x + 3.5},{y + e}"
        out.append(f'<polyline points="{pts}" fill="none" stroke="{FG}" stroke-width="1.5"/>')
        if d["items"]:
            out.append(
                f'<circle cx="{x + r + 2}" cy="{y - r + 1}" r="6" fill="{FG}"/>'
                f'<text x="{x + r + 2}" y="{y - r + 4}" font-size="8" text-anchor="middle" fill="#fff">'
                f"{len(d['items'])}</text>"
            )
    out.append("</g>")
    return "".join(out)


def game_svg(game: Game, *, reveal_all: bool = False) -> str:
    """The board as an SVG string, in the widget's light look: the header (round, whose turn and
    what they do), the air gauge, the numbered path, the divers (seat letter, heading, how many
    items they carry) and each player's score."""
    st = build_state(game, seats=["human"] * len(game.players), seq=0, reveal_all=reveal_all)
    players = st["players"]
    n_spaces = len(st["path"])
    rows = max(1, math.ceil(n_spaces / COLS))
    width = MARGIN * 2 + SUB_W + COLS * CELL
    # at least the submarine's height, however short a custom path is
    board_h = max(rows * CELL, 64)
    score_h = 20 * len(players) + 10
    height = HEADER + board_h + 8 + score_h
    out: list[str] = [
        (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="sans-serif" role="img" '
            f'aria-label="Deep Sea Adventure board">'
        ),
        f'<rect width="{width}" height="{height}" fill="{SEA}" stroke="{BORDER}" rx="8"/>',
    ]
    for r in range(rows):
        out.append(
            f'<rect x="{MARGIN + SUB_W - 4}" y="{HEADER + r * CELL + 2}" width="{COLS * CELL + 8}" '
            f'height="{CELL - 4}" rx="8" fill="{BAND}" opacity="{0.25 + 0.18 * min(r, 4):.2f}"/>'
        )
    out.append(f'<text x="{MARGIN}" y="24" font-size="14" font-weight="600" fill="{FG}">{_header(st)}</text>')
    out.append(_air(st, width))
    out.append(_submarine(st))
    for i, space in enumerate(st["path"], start=1):
        x, y = layout(i)
        out.append(f'<circle cx="{x}" cy="{y}" r="19" fill="#fff" stroke="{BORDER}" stroke-width="0.8"/>')
        if space == 0:
            out.append(f'<circle cx="{x}" cy="{y}" r="7" fill="none" stroke="{FG2}" stroke-dasharray="3 2"/>')
        else:
            out.append(_item(space, x, y + 2, 12))
        # the number the hints and the log speak of ("space 8")
        out.append(f'<text x="{x - 18}" y="{y - 12}" font-size="8" fill="{FG2}">{i}</text>')
    for q in range(len(players)):
        out.append(_diver(st, q))
    y0 = HEADER + board_h + 22
    for q, name in enumerate(players):
        y = y0 + 20 * q
        color = PLAYER_COLORS[q % len(PLAYER_COLORS)]
        sc = st["scores"][q]
        d = st["divers"][q]
        carried = len(d["items"])
        banked = len(st["banked"][q])
        mark = "▶ " if st["current"] == q and not st["over"] else ""
        out.append(f'<circle cx="{MARGIN + 7}" cy="{y - 4}" r="7" fill="{color}"/>')
        out.append(
            f'<text x="{MARGIN + 7}" y="{y - 1}" font-size="8" font-weight="700" text-anchor="middle" '
            f'fill="#fff">{"ABCDEF"[q % 6]}</text>'
        )
        out.append(
            f'<text x="{MARGIN + 20}" y="{y}" font-size="12" fill="{FG}">{mark}{escape(name)}: '
            f"{'?' if sc is None else sc} points, {banked} chip{'' if banked == 1 else 's'} banked"
            f"{f', carrying {carried}' if carried else ''}</text>"
        )
    out.append("</svg>")
    return "".join(out)
