"""The AI-research example (issue 11, item 5) runs top to bottom in a real kernel: the
PettingZoo environment, OpenSpiel's ISMCTS in our tournament, and a local Ray cluster."""

from __future__ import annotations

import os
from pathlib import Path

import nbclient
import nbformat

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "ai.ipynb"


def test_ai_notebook_executes():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    root = str(NOTEBOOK.parent.parent)
    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = root + (os.pathsep + env_path if env_path else "")
    try:
        client = nbclient.NotebookClient(
            nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOK.parent)}}
        )
        client.execute()
    finally:
        if env_path:
            os.environ["PYTHONPATH"] = env_path
        else:
            os.environ.pop("PYTHONPATH", None)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", "")) for o in outputs)
    assert "69 action numbers; (642,) floats" in text
    assert "Passed API test" in text  # PettingZoo's own suite
    assert "random_sim_test passed" in text  # OpenSpiel's own suite
    assert "openspiel ismcts" in text and "95% CI" in text  # ranked by our tournament
    assert "same table on Ray and on the local pool: True" in text
