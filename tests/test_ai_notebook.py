"""The AI-research example (issue 11, item 5) runs top to bottom in a real kernel: the
PettingZoo environment, OpenSpiel's ISMCTS in our tournament, and a local Ray cluster."""

from __future__ import annotations

from pathlib import Path

import pytest
from helpers import run_notebook

#: whole notebooks: the slow tier
pytestmark = pytest.mark.slow

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "ai.ipynb"


def test_ai_notebook_executes(monkeypatch):
    # Ray gives its local node 30 s to start by default; a busy CI machine can take longer
    # (the kernel inherits this)
    monkeypatch.setenv("RAY_raylet_start_wait_time_s", "240")
    _, text = run_notebook(NOTEBOOK)
    assert "69 action numbers; (642,) floats" in text
    assert "Passed API test" in text  # PettingZoo's own suite
    assert "random_sim_test passed" in text  # OpenSpiel's own suite
    assert "openspiel ismcts" in text and "95% CI" in text  # ranked by our tournament
    assert "same table on Ray and on the local pool: True" in text
