"""The Crew's inference lesson (examples/crew-inference.ipynb) runs top to bottom in a real kernel and
is a lesson: learning goals, every Predict answered in the key, a checking cell with asserts after each
statement it makes, the hand-worked figures (1/3, 1/5, 0, 1/21) printed by the library, and the
calibration pictures as SVG built from real engine games."""

from __future__ import annotations

import re
import time
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from helpers import run_notebook

#: a whole notebook: the slow tier
pytestmark = pytest.mark.slow

LESSON = Path(__file__).resolve().parent.parent.parent / "examples" / "crew-inference.ipynb"
SVG = "{http://www.w3.org/2000/svg}"


@pytest.fixture(scope="module")
def lesson() -> tuple[Any, str, float]:
    t0 = time.perf_counter()
    nb, text = run_notebook(LESSON)
    return nb, text, time.perf_counter() - t0


def test_goals_predictions_and_key(lesson):
    nb, _, _ = lesson
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "### Learning goals" in md and "## Teacher's key" in md
    asked = sorted(set(re.findall(r"\*\*Predict (\d+)\.\*\*", md)))
    answered = sorted(set(re.findall(r"<summary><b>Predict (\d+)</b>", md)))
    assert len(asked) >= 5 and asked == answered
    # every "Your own version" (paper) cell is followed by a code cell that computes it
    for i, c in enumerate(nb.cells):
        if c.cell_type == "markdown" and "**Your own version.**" in c.source:
            assert nb.cells[i + 1].cell_type == "code"


def test_every_statement_is_checked_by_the_next_cell(lesson):
    """A markdown cell that states figures after an output is followed by a cell of asserts."""
    nb, _, _ = lesson
    cells = nb.cells
    checks = [
        i
        for i, c in enumerate(cells)
        if c.cell_type == "code"
        and c.source.strip()
        and all(
            line.startswith(("assert", "    ", "for ", "last_")) for line in c.source.strip().splitlines()
        )
    ]
    assert len(checks) >= 6
    for i in checks:
        assert cells[i - 1].cell_type == "markdown"  # the statement it checks
        assert cells[i - 2].cell_type == "code" and cells[i - 2].outputs  # the figures it is about


def test_the_hand_worked_figures(lesson):
    _, text, _ = lesson
    assert "Bob holds B4, every fitting deal alike: 1/3 ≈ 33.3%" in text
    assert "Bob holds B4, by hand:      1/5 ≈ 20.0%" in text
    assert "Bob holds B4, library:      1/5 ≈ 20.0%" in text
    assert "Bob holds B3, lowest card, no slips:    0 ≈ 0.0%" in text
    assert "Bob holds B3, lowest card, ε = 1/5:     1/21 ≈ 4.8%" in text
    assert len(re.findall(r"^Bob keeps \w+, Cy keeps \w+ \w+$", text, re.M)) == 3


def test_calibration_pictures_and_scores(lesson):
    nb, text, _ = lesson
    html = []
    for c in nb.cells:
        for o in c.get("outputs", []) if c.cell_type == "code" else []:
            h = o.get("data", {}).get("text/html", "")
            html.append("".join(h) if isinstance(h, list) else h)
    svgs = [ET.fromstring(h) for h in html if h.lstrip().startswith("<svg")]
    assert len(svgs) == 3
    for svg in svgs:
        assert len(list(svg.iter(SVG + "polyline"))) == 2  # uniform and behaviour
        assert svg.get("fill") == "currentColor"
    (u, b), (wu, wb) = (
        (float(x) for x in pair)
        for pair in re.findall(r"Brier score, uniform:\s+([\d.]+)\nBrier score, behaviour:\s+([\d.]+)", text)
    )
    assert b < u  # the model the bots play by beats the uniform answer ...
    assert wb > wu  # ... and loses to it when the bots play otherwise
    m = re.search(r"really held\s+([\d.]+)%  \(95% interval ([\d.]+)% to ([\d.]+)%\)", text)
    said = re.search(r"uniform says on average\s+([\d.]+)%", text)
    assert m and said and float(m.group(3)) < float(said.group(1))
    assert "games" in text  # the progress bar of the 40 engine games


def test_lesson_is_quick(lesson):
    *_, seconds = lesson
    assert seconds < 120, f"the lesson took {seconds:.0f} s (budget about 60 s)"


def test_the_sampled_column_is_labelled_an_estimate(lesson):
    """The README's promise for the lessons: every figure says whether it is exact or an estimate.
    The trick-by-trick table sets the exact uniform chances beside behaviour_chances drawn from
    1,000 weighted deals, and its header said only 'uniform' and 'behaviour'."""
    _, text, _ = lesson
    assert "uniform (exact)    behaviour (estimate, 1,000 weighted deals)" in text
