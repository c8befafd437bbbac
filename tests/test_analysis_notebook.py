"""The probability lesson runs top to bottom in a real kernel."""

from __future__ import annotations

from pathlib import Path

from helpers import run_notebook

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "probability.ipynb"


def test_probability_notebook_executes():
    nb, text = run_notebook(NOTEBOOK)
    assert "22/27" in text  # the hand-worked chance to get home
    assert "1/9" in text and "10/9" in text  # dice and movement worked numbers
    assert "95%" in text  # estimates carry their intervals
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    svg = [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert svg, "the heat map is drawn as SVG"
