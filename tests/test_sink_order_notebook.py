"""examples/sink-order.ipynb runs top to bottom in a real kernel and is a lesson: learning goals,
a Predict cell for each question answered in the folded teacher's key, the open small version
(four results from 24 lay orders, counted by hand and by the engine), the exact solo comparison of
the four results, and the picture."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from helpers import notebook_svgs, run_notebook

#: a whole notebook: the slow tier
pytestmark = pytest.mark.slow

LESSON = Path(__file__).resolve().parent.parent / "examples" / "sink-order.ipynb"


@pytest.fixture(scope="module")
def lesson() -> tuple[Any, str]:
    return run_notebook(LESSON)


def test_the_lesson_runs_and_checks_what_it_says(lesson: tuple[Any, str]) -> None:
    nb, text = lesson
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert "### Learning goals" in md[0]
    key_at = [i for i, m in enumerate(md) if "## Teacher's key" in m]
    assert key_at == [len(md) - 1], "one teacher's key, in the last cell"
    body, key = "\n".join(md[:-1]), md[-1][md[-1].index("## Teacher's key") :]
    asked = sorted({int(n) for n in re.findall(r"\*\*Predict (\d+)\.\*\*", body)})
    answered = sorted({int(n) for n in re.findall(r"<summary><b>Predict (\d+)</b>", key)})
    assert asked == answered == [1, 2, 3]
    cells = nb.cells
    for i, c in enumerate(cells):
        if c.cell_type == "markdown" and re.search(r"\*\*Predict \d+\.\*\*", c.source):
            assert "my_guess" in cells[i + 1].source and "assert" in cells[i + 2].source
    # the engine's sink step and the counts the text and the key state
    assert "her choices now: ('lay all', 'lay 0', 'lay 1', 'lay 2', 'lay 3')" in text
    assert "4 different results" in text and "lay all: [[1, 2, 4], [3]]" in text
    assert text.count("= 27.83 points") == 4  # the order never changes the total
    for alone, value in ((4, "20.594"), (1, "18.042"), (3, "17.332"), (2, "16.507")):
        assert f"level {alone} alone at the bottom: a lone diver expects exactly {value} points" in text
    assert "round 2 starts with Ann" in text
    svgs = notebook_svgs(nb)
    assert len(svgs) == 1 and len(svgs[0].findall("{http://www.w3.org/2000/svg}rect")) == 8


def test_the_lesson_says_what_each_figure_is(lesson: tuple[Any, str]) -> None:
    """Issue 29 (a reviewer's reading): 18.04 is a lone diver's expected score, not what the stack
    of levels 2, 3, 4 holds (26.50, as the key says); and 4/3 for level 1 comes from the made-up
    path's own chip values (the standard pool would give 10/7), which the text states."""
    nb, text = lesson
    md = "\n".join(c.source for c in nb.cells if c.cell_type == "markdown")
    assert "holds less than if Ann had kept levels 2, 3 and 4 together (18.04)" not in md
    assert "holds only 14.83 points, against 26.50 if Ann had kept\nlevels 2, 3 and 4 together" in md
    assert "a lone diver expects 18.04" in md and "richest stack (26.50 points)" in md
    assert "its level-1 chips are worth 0, 1, 2 and 3" in md and "chip 13" in md
    assert "26.50 and 14.83 in the stacks above levels 1 and 4" in text and "22.33 in its stack" in text
