"""The probability lesson runs top to bottom in a real kernel."""

from __future__ import annotations

import os
from pathlib import Path

import nbclient
import nbformat

NOTEBOOK = Path(__file__).resolve().parent.parent / "examples" / "probability.ipynb"


def test_probability_notebook_executes():
    nb = nbformat.read(NOTEBOOK, as_version=4)
    assert nb.metadata["kernelspec"]["name"] == "python3"
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
    assert "22/27" in text  # the hand-worked chance to get home
    assert "1/9" in text and "10/9" in text  # dice and movement worked numbers
    assert "95%" in text  # estimates carry their intervals
    svg = [o for o in outputs if "image/svg+xml" in o.get("data", {})]
    assert svg, "the heat map is drawn as SVG"
