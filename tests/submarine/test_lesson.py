"""The Submarine lesson (examples/submarine.ipynb) runs top to bottom in a real kernel in under a
minute: the widget cell does not block, the exact chances are printed as fractions, and the
simulation agrees with them inside the Wilson intervals for most colours."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from helpers import run_notebook  # noqa: E402

#: whole notebooks: the slow tier
pytestmark = pytest.mark.slow

LESSON = Path(__file__).resolve().parents[2] / "examples" / "submarine.ipynb"


def test_the_lesson_runs_top_to_bottom_and_agrees_with_itself() -> None:
    t0 = time.perf_counter()
    nb, text = run_notebook(LESSON)
    seconds = time.perf_counter() - t0
    assert seconds < 60, f"the lesson took {seconds:.0f} s"
    md = [c.source for c in nb.cells if c.cell_type == "markdown"]
    assert "### Learning goals" in md[0]
    widget_out = [
        o for o in nb.cells[1].outputs if "application/vnd.jupyter.widget-view+json" in o.get("data", {})
    ]
    assert widget_out, "the widget cell shows the widget"
    fractions = re.findall(r"K\d: (\d+/\d+)  = 0\.\d{4}", text)
    assert len(fractions) == 5, text
    m = re.search(r"inside the interval for (\d) of 5 colours", text)
    assert m and int(m.group(1)) >= 4, text
