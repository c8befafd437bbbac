"""Small line charts as SVG, for notebooks without a plotting library.

A learning curve, a win rate against the number of games, a chance as a pile grows: lines
through points, each point with an optional interval drawn as a shaded band.  The picture is
plain SVG, given to a notebook inline in HTML as well (it shows in JupyterLab, in a static export
and in JupyterLite, light or dark: text and axes take the page's colour; the bare SVG, which
JupyterLab would draw as an image, keeps black), and every label is escaped, so a name never
becomes markup.

>>> c = line_chart(
...     {"win rate": [(0, 0.1, 0.07, 0.13), (1000, 0.45, 0.4, 0.5), (2000, 0.8, 0.76, 0.84)]},
...     title="Learning", x_label="episodes", y_label="win rate",
... )
>>> c.svg.startswith("<svg") and "Learning" in c.svg
True
>>> line_chart({})
Traceback (most recent call last):
  ...
dsa_widget.core.chart.ChartError: a chart needs at least one line with at least one point
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from html import escape

from .errors import GameError

__all__ = ["Chart", "ChartError", "line_chart"]

#: line colours, told apart by people with the common colour-vision deficiencies
PALETTE = ("#1f77b4", "#e6550d", "#2ca02c", "#9467bd", "#8c564b", "#d62728")


class ChartError(GameError):
    """Points a chart cannot draw (none, a wrong shape, or not a finite number)."""


@dataclass(frozen=True)
class Chart:
    """An SVG picture; a notebook shows it, ``str()`` gives its text."""

    svg: str

    def _repr_svg_(self) -> str:
        return self.svg

    def _repr_html_(self) -> str:
        # JupyterLab draws image/svg+xml in an <img>, where currentColor is black whatever the
        # theme (black axes and words on a dark page); inline in the page it takes the page's colour
        return f'<div class="dsa-chart">{self.svg}</div>'

    def __str__(self) -> str:
        return self.svg


Point = tuple[float, float] | tuple[float, float, float, float]


def _ticks(lo: float, hi: float, count: int = 5) -> list[float]:
    """Round numbers between ``lo`` and ``hi`` (about ``count`` of them)."""
    if hi <= lo:
        return [lo]
    raw = (hi - lo) / count
    step = 10 ** math.floor(math.log10(raw))
    for m in (1, 2, 2.5, 5, 10):
        if raw <= m * step:
            step *= m
            break
    first = math.ceil(lo / step - 1e-9) * step
    return [first + k * step for k in range(int((hi - first) / step + 1e-9) + 1)]


def _label(v: float) -> str:
    return f"{v:,.0f}" if abs(v) >= 100 or v == int(v) else f"{v:.2g}"


def _check(name: str, points: Sequence[Sequence[float]]) -> list[tuple[float, ...]]:
    out: list[tuple[float, ...]] = []
    for p in points:
        if len(p) not in (2, 4):
            raise ChartError(f"line {name!r}: a point is (x, y) or (x, y, low, high), got {tuple(p)!r}")
        q = tuple(float(v) for v in p)
        if not all(math.isfinite(v) for v in q):
            raise ChartError(f"line {name!r}: every coordinate must be a finite number, got {q!r}")
        out.append(q)
    return sorted(out)


def line_chart(
    lines: Mapping[str, Sequence[Point]],
    *,
    title: str = "",
    x_label: str = "",
    y_label: str = "",
    y_range: tuple[float, float] | None = None,
    width: int = 480,
    height: int = 260,
) -> Chart:
    """Draw ``lines`` (name → points) on one pair of axes.

    A point is ``(x, y)`` or ``(x, y, low, high)``; the lows and highs of a line make a band
    behind it (an interval).  ``y_range`` fixes the vertical axis (``(0, 1)`` for a rate);
    without it the axis spans the data.  Raises :class:`ChartError` (a ``ValueError``) for
    no points, a point of the wrong shape or a coordinate that is not a finite number.
    """
    checked = {str(name): _check(str(name), pts) for name, pts in lines.items()}
    checked = {k: v for k, v in checked.items() if v}
    if not checked:
        raise ChartError("a chart needs at least one line with at least one point")
    xs = [p[0] for pts in checked.values() for p in pts]
    ys = [v for pts in checked.values() for p in pts for v in p[1:]]
    x0, x1 = min(xs), max(xs)
    y0, y1 = y_range if y_range is not None else (min(ys), max(ys))
    if x1 == x0:
        x0, x1 = x0 - 1, x1 + 1
    if y1 <= y0:
        y0, y1 = y0 - 1, y0 + 1
    left, right, top, bottom = 56, 12 + (110 if len(checked) > 1 else 0), 28 if title else 12, 40
    pw, ph = width - left - right, height - top - bottom

    def sx(x: float) -> float:
        return left + pw * (x - x0) / (x1 - x0)

    def sy(y: float) -> float:
        return top + ph * (1 - (min(max(y, y0), y1) - y0) / (y1 - y0))

    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif" font-size="11" fill="currentColor">'
    ]
    if title:
        parts.append(
            f'<text x="{left + pw / 2:.1f}" y="16" text-anchor="middle" font-size="13">{escape(title)}</text>'
        )
    for t in _ticks(y0, y1):
        y = sy(t)
        parts.append(
            f'<line x1="{left}" x2="{left + pw}" y1="{y:.1f}" y2="{y:.1f}" '
            'stroke="currentColor" stroke-opacity="0.15"/>'
            f'<text x="{left - 6}" y="{y + 4:.1f}" text-anchor="end">{_label(t)}</text>'
        )
    for t in _ticks(x0, x1):
        x = sx(t)
        parts.append(
            f'<line x1="{x:.1f}" x2="{x:.1f}" y1="{top + ph}" y2="{top + ph + 4}" stroke="currentColor"/>'
            f'<text x="{x:.1f}" y="{top + ph + 16}" text-anchor="middle">{_label(t)}</text>'
        )
    parts.append(
        f'<path d="M{left},{top}V{top + ph}H{left + pw}" fill="none" '
        'stroke="currentColor" stroke-opacity="0.6"/>'
    )
    if x_label:
        parts.append(
            f'<text x="{left + pw / 2:.1f}" y="{height - 6}" text-anchor="middle">{escape(x_label)}</text>'
        )
    if y_label:
        parts.append(
            f'<text transform="translate(14 {top + ph / 2:.1f}) rotate(-90)" text-anchor="middle">'
            f"{escape(y_label)}</text>"
        )
    for k, (name, pts) in enumerate(checked.items()):
        colour = PALETTE[k % len(PALETTE)]
        band = [p for p in pts if len(p) == 4]
        if band:
            edge = [f"{sx(p[0]):.1f},{sy(p[3]):.1f}" for p in band]
            edge += [f"{sx(p[0]):.1f},{sy(p[2]):.1f}" for p in reversed(band)]
            parts.append(
                f'<polygon points="{" ".join(edge)}" fill="{colour}" fill-opacity="0.2" stroke="none"/>'
            )
        line = " ".join(f"{sx(p[0]):.1f},{sy(p[1]):.1f}" for p in pts)
        parts.append(f'<polyline points="{line}" fill="none" stroke="{colour}" stroke-width="2"/>')
        for p in pts:
            parts.append(
                f'<circle cx="{sx(p[0]):.1f}" cy="{sy(p[1]):.1f}" r="3" fill="{colour}">'
                f"<title>{escape(name)}: {_label(p[0])}, {p[1]:.3g}</title></circle>"
            )
        if len(checked) > 1:
            ly = top + 8 + 16 * k
            parts.append(
                f'<line x1="{left + pw + 10}" x2="{left + pw + 26}" y1="{ly}" y2="{ly}" stroke="{colour}" '
                f'stroke-width="2"/><text x="{left + pw + 30}" y="{ly + 4}">{escape(name)}</text>'
            )
    parts.append("</svg>")
    return Chart("".join(parts))
