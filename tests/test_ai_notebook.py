"""The AI-research example (issue 11, item 5; issue 30, item 4) runs top to bottom in a real
kernel: the PettingZoo environment, OpenSpiel's ISMCTS in our tournament, a local Ray cluster,
and the numpy REINFORCE agent whose win rate against the built-in bots rises."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import nbformat
import pytest
from helpers import RAY_PATIENT_ENV, notebook_svgs, run_notebook

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "ai.ipynb"


def _training_cells() -> list[str]:
    """The code cells of the notebook's training section (from its "## 4." heading on)."""
    nb = nbformat.read(NOTEBOOK, as_version=4)
    start = next(
        i for i, c in enumerate(nb.cells) if c.cell_type == "markdown" and c.source.startswith("## 4.")
    )
    return [c.source for c in nb.cells[start:] if c.cell_type == "code"]


def _curve_rows(text: str, title: str) -> list[tuple[int, float, float, float]]:
    """The rows of the learning-curve table printed under ``title``."""
    block = text.split(title, 1)[1]
    rows = re.findall(r"^\s*(\d+)\s+([\d.]+)\s+\[([\d.]+), ([\d.]+)\]", block, flags=re.M)
    out, last = [], -1
    for n, w, lo, hi in rows:
        if int(n) <= last:  # the next table begins
            break
        out.append((int(n), float(w), float(lo), float(hi)))
        last = int(n)
    return out


@pytest.mark.slow
@pytest.mark.xdist_group("ray")  # its kernel starts Ray: with the other Ray tests (conftest.py)
def test_ai_notebook_executes(monkeypatch):
    # Ray's start-up waits lengthened for a busy CI machine (the kernel inherits them, see
    # helpers.RAY_PATIENT_ENV); DSA_AI_QUICK=1: the short training run
    for k, v in RAY_PATIENT_ENV.items():
        monkeypatch.setenv(k, v)
    monkeypatch.setenv("DSA_AI_QUICK", "1")
    nb, text = run_notebook(NOTEBOOK)
    assert "69 action numbers; (642,) floats" in text
    assert "Passed API test" in text  # PettingZoo's own suite
    assert "random_sim_test passed" in text  # OpenSpiel's own suite
    assert "openspiel ismcts" in text and "95% CI" in text  # ranked by our tournament
    assert "same table on Ray and on the local pool: True" in text
    # the learning curves: a checkpoint every quarter, and (seeded) the trained policy's Wilson
    # interval lies above the untrained one's against the same bot
    for title in ("Deep Sea Adventure: REINFORCE against take_n", "Pig: REINFORCE against hold_at_20"):
        rows = _curve_rows(text, title)
        assert len(rows) == 5 and rows[0][0] == 0, rows
        (_, before, _, hi0), (_, after, lo1, _) = rows[0], rows[-1]
        assert lo1 > hi0 and after > before + 0.15, rows
    assert text.count("intervals apart: True") == 2
    # each curve is also drawn: a chart (core/chart.py) with its band of intervals
    charts = [s for s in notebook_svgs(nb) if "REINFORCE" in "".join(s.itertext())]
    assert len(charts) == 2
    assert all(c.find("{http://www.w3.org/2000/svg}polygon") is not None for c in charts)


def test_the_training_example_learns_pig(monkeypatch, capsys):
    # The notebook's own training code (its cells, run here without a kernel) on its short
    # Pig run: against hold_at_20 the trained policy's win rate beats the untrained policy's
    # (uniform over the legal actions) by a clear margin, the intervals apart.
    monkeypatch.setenv("DSA_AI_QUICK", "1")
    cells = _training_cells()
    namespace: dict[str, Any] = {}
    for source in cells:
        if "deep_sea_curve" in source and "train(" in source or "for name, curve in" in source:
            continue  # Deep Sea Adventure's run: the whole-notebook test (slow tier) has it
        exec(compile(source, str(NOTEBOOK), "exec"), namespace)
    out = capsys.readouterr().out
    rows = _curve_rows(out, "Pig: REINFORCE against hold_at_20")
    assert out.count("<svg") == 1  # the curve's chart (printed as text outside a notebook)
    assert [n for n, *_ in rows] == [0, 150, 300, 450, 600]
    (_, before, _, hi0), (_, after, lo1, _) = rows[0], rows[-1]
    assert before < 0.2 and lo1 > hi0 and after > before + 0.15, rows
