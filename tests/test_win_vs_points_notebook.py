"""examples/win-vs-points.ipynb runs top to bottom in a real kernel and is a lesson: learning goals,
a Predict cell for each question answered in the folded teacher's key, the open small versions
(hold at 2 by hand, goal 2 by hand), the hold-boundary picture, the exact head-to-head figure inside
the engine games' Wilson interval, and the Deep Sea Adventure position's figures."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from helpers import notebook_svgs, run_notebook

#: a whole notebook: the slow tier
pytestmark = pytest.mark.slow

LESSON = Path(__file__).resolve().parent.parent / "examples" / "win-vs-points.ipynb"


def test_the_lesson_runs_and_checks_what_it_says() -> None:
    nb, text = run_notebook(LESSON)
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert "### Learning goals" in md[0]
    key = [i for i, m in enumerate(md) if "## Teacher's key" in m]
    assert key == [len(md) - 1], "one teacher's key, at the end"
    asked = sorted({int(n) for m in md[:-1] for n in re.findall(r"\*\*Predict (\d+)\.\*\*", m)})
    answered = sorted({int(n) for n in re.findall(r"<summary><b>Predict (\d+)</b>", md[-1])})
    assert asked == answered == list(range(1, 6))
    # every Predict is followed by a cell for the reader's guess, then a cell that checks
    cells = nb.cells
    for i, c in enumerate(cells):
        if c.cell_type == "markdown" and re.search(r"\*\*Predict \d+\.\*\*", c.source):
            assert "my_guess" in cells[i + 1].source and "assert" in cells[i + 2].source
    # the open small versions and the figures the text and the key quote
    assert "hold at 2: 10/3 points per turn" in text
    assert "goal 2, first player: 0.8571 = 6/7" in text
    assert "hold at 20: exact 8.1418 points per turn" in text and "best n: 20" in text
    # a reader's look: every figure says whether it is exact, solved or simulated
    assert "solo policy, expected points (solved, not simulated): turn back" in text
    assert "holds from a turn total of 21" in text
    assert "optimal moving first:  exact 57.15%" in text and "average of both seats: exact 53.99%" in text
    m = re.search(
        r"exact 53\.99%; simulated ([\d.]+)% \[([\d.]+)%, ([\d.]+)%\] \(95% interval, 600 games\)", text
    )
    assert m and float(m.group(2)) <= 53.99 <= float(m.group(3))
    assert "turn back 15.01, keep diving 15.27" in text
    assert "turn back exact 98.6%, dive one more turn exact 38.5%" in text
    # the picture: well-formed SVG with one curve per opponent score
    # (drawn as HTML; the position's board, also shown, is an image/svg+xml output)
    svgs = notebook_svgs(nb, kinds=("text/html",))
    assert len(svgs) == 1
    assert len(svgs[0].findall("{http://www.w3.org/2000/svg}polyline")) == 4
