"""The platform's SVG line chart (dsa_widget.core.chart): well-formed pictures, escaped text,
bands where intervals are given, clear errors for points it cannot draw."""

from __future__ import annotations

import math
import xml.etree.ElementTree as ET

import pytest
from hypothesis import given
from hypothesis import strategies as st

from dsa_widget.core.chart import ChartError, line_chart

NS = "{http://www.w3.org/2000/svg}"


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def test_a_curve_with_intervals_draws_its_band_line_and_points() -> None:
    root = parse(line_chart({"win": [(0, 0.1, 0.05, 0.2), (10, 0.5, 0.4, 0.6)]}, y_range=(0, 1)).svg)
    assert len(root.findall(f"{NS}polygon")) == 1  # the band
    assert len(root.findall(f"{NS}polyline")) == 1
    assert len(root.findall(f"{NS}circle")) == 2


def test_points_without_intervals_draw_no_band_and_two_lines_get_a_legend() -> None:
    root = parse(line_chart({"a": [(0, 1), (1, 2)], "b": [(0, 2), (1, 1)]}).svg)
    assert root.findall(f"{NS}polygon") == []
    texts = [t.text for t in root.iter(f"{NS}text")]
    assert "a" in texts and "b" in texts


def test_names_and_labels_are_text_never_markup() -> None:
    evil = "<script>alert(1)</script>"
    svg = line_chart({evil: [(0, 0)]}, title=evil, x_label=evil, y_label=evil).svg
    assert "<script>" not in svg
    root = parse(svg)
    assert root.find(f".//{NS}script") is None
    assert any(t.text == evil for t in root.iter(f"{NS}text"))


@pytest.mark.parametrize(
    ("lines", "words"),
    [
        ({}, "at least one line"),
        ({"a": []}, "at least one line"),
        ({"a": [(0, 1, 2)]}, "(x, y) or (x, y, low, high)"),
        ({"a": [(0, math.nan)]}, "finite"),
        ({"a": [(math.inf, 0)]}, "finite"),
    ],
)
def test_points_it_cannot_draw_raise_a_value_error_that_says_why(lines: dict, words: str) -> None:
    with pytest.raises(ValueError, match=words.replace("(", r"\(").replace(")", r"\)")):
        line_chart(lines)
    assert issubclass(ChartError, ValueError)


@given(
    st.lists(
        st.tuples(st.floats(-1e6, 1e6), st.floats(-1e6, 1e6)),
        min_size=1,
        max_size=20,
    )
)
def test_every_point_lands_inside_the_picture(points: list[tuple[float, float]]) -> None:
    root = parse(line_chart({"a": points}, width=300, height=200).svg)
    for c in root.iter(f"{NS}circle"):
        assert 0 <= float(c.get("cx", "-1")) <= 300
        assert 0 <= float(c.get("cy", "-1")) <= 200


def test_a_fixed_range_clamps_values_outside_it_to_the_axis() -> None:
    inside = parse(line_chart({"a": [(0, 1.0), (1, 0.0)]}, y_range=(0, 1)).svg)
    outside = parse(line_chart({"a": [(0, 7.0), (1, -3.0)]}, y_range=(0, 1)).svg)
    ys = [[c.get("cy") for c in r.iter(f"{NS}circle")] for r in (inside, outside)]
    assert ys[0] == ys[1]


def test_a_notebook_gets_the_chart_inline_so_it_takes_the_pages_colour() -> None:
    """JupyterLab draws an image/svg+xml output inside an <img>: there currentColor is black, so
    in the dark theme the axes, ticks and words were black on a dark page.  Inline HTML puts the
    same SVG in the page, where currentColor is the theme's text colour; the SVG stays for tools
    that read it."""
    c = line_chart({"win rate": [(0, 0.2, 0.1, 0.3), (10, 0.6, 0.5, 0.7)]}, title="t", y_range=(0, 1))
    html = c._repr_html_()
    assert c.svg in html and 'fill="currentColor"' in c.svg
    assert not html.lstrip().startswith("<img") and "data:image" not in html
    assert c._repr_svg_() == c.svg
