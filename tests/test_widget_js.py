"""The front end's pure modules (js/model.js, board.js geometry, setup-panel parsing) under
``node --test``, and the bundle: ``npm run build`` output is what the widget ships."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def test_js_unit_tests_pass():
    node = shutil.which("node")
    if node is None:
        pytest.fail("node is required (Node.js 20+): see scripts/setup.sh")
    r = subprocess.run(
        [node, "--test", "js/tests/"], check=False, cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert "# fail 0" in r.stdout


def test_the_widget_ships_the_bundle():
    from dsa_widget.deep_sea.widget import DeepSea

    esm = ROOT / "dsa_widget" / "static" / "widget.js"
    assert esm.is_file(), "run `npm run build`"
    text = esm.read_text()
    assert str(DeepSea._esm) == text  # anywidget sends the file's contents
    # one self-contained module: no relative imports left (they do not resolve from a Blob URL)
    assert 'from"./' not in text.replace(" ", "") and 'import("./' not in text.replace(" ", "")
    # user text is never parsed as HTML
    assert "innerHTML" not in text and "insertAdjacentHTML" not in text and "outerHTML" not in text
