"""The package in the browser's Python (Pyodide, a JupyterLite site), simulated in a subprocess:
``sys.platform`` is ``"emscripten"`` and what Pyodide does not have cannot be imported (numba,
numpy, the compiled rules, worker processes, the seat server's packages, Ray).  Importing the
package and every game, playing, hints and the overlay work; what cannot run says so in one line.

The real thing runs in Chromium in ``tests/e2e/test_lite.py``.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from dsa_widget.core import browser
from dsa_widget.core.executors import default_workers, run_chunks

#: run first in the subprocess: the browser's platform, and no module Pyodide lacks
PRELUDE = """
import importlib.abc, sys
MISSING = ("numba", "numpy", "llvmlite", "_multiprocessing", "starlette", "uvicorn", "websockets",
           "ray", "cloudpickle", "mypy", "dsa_widget.deep_sea._rules_native")

class NotInPyodide(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if any(name == m or name.startswith(m + ".") for m in MISSING):
            raise ModuleNotFoundError(f"No module named {name!r} (not in Pyodide)", name=name)
        return None

sys.meta_path.insert(0, NotInPyodide())
sys.platform = "emscripten"
"""

BODY = """
import json
import dsa_widget
from dsa_widget import DeepSea, Game
from dsa_widget.core.browser import IN_BROWSER, NotInBrowserError
from dsa_widget.core.executors import run_chunks, _square_all
from dsa_widget.crew import Crew
from dsa_widget.deep_sea import kernel, native
from dsa_widget.deep_sea.analysis import home
from dsa_widget.deep_sea.analysis.overlay import overlay_for
from dsa_widget.pig import Pig
from dsa_widget.submarine.widget import Submarine

out = {"in_browser": IN_BROWSER, "numba": kernel.COMPILED or home.COMPILED, "mypyc": native.COMPILED}
w = DeepSea(players=["You", "Bot"], seats={1: "baseline"}, seed=3)
w.apply(w.game.legal_choices()[0])
out["overlay"] = sorted(overlay_for(Game(players=3, seed=1)))
out["boards"] = [type(b).__name__ for b in (w, Crew(players=3, seed=1), Submarine(seed=1), Pig(seed=1))]
out["process_pool"] = run_chunks(_square_all, 2, [[1], [2], [3]], executor="process", workers=2)
errors = {}
for name, call in [("serve", w.serve), ("ray", lambda: run_chunks(_square_all, 1, [[1]], executor="ray")),
                   ("server module", lambda: __import__("dsa_widget.server"))]:
    try:
        call()
    except NotInBrowserError as e:
        errors[name] = e._render_traceback_()
out["errors"] = errors
print(json.dumps(out))
"""


@pytest.fixture(scope="module")
def in_pyodide() -> dict:
    code = PRELUDE + textwrap.dedent(BODY)
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_package_imports_and_plays_on_plain_python(in_pyodide):
    assert in_pyodide["in_browser"] is True
    assert in_pyodide["numba"] is False and in_pyodide["mypyc"] is False
    assert in_pyodide["boards"] == ["DeepSea", "Crew", "Submarine", "Pig"]
    assert {"home", "landing", "air", "carry"} <= set(in_pyodide["overlay"])


def test_worker_processes_become_this_process(in_pyodide):
    assert in_pyodide["process_pool"] == [[2], [8], [18]]


@pytest.mark.parametrize("name", ["serve", "ray", "server module"])
def test_what_cannot_run_says_so_in_one_line(in_pyodide, name):
    (line,) = in_pyodide["errors"][name]
    assert line.startswith("NotInBrowserError: ") and "not the browser's (Pyodide, JupyterLite)" in line


def test_the_error_is_a_value_error_with_one_line(monkeypatch):
    monkeypatch.setattr(browser, "IN_BROWSER", True)
    with pytest.raises(ValueError, match="the seat server needs a real Python"):
        browser.require_real_python("the seat server")
    assert "\n" not in str(browser.NotInBrowserError("the seat server"))


def test_executors_in_the_browser(monkeypatch):
    import dsa_widget.core.executors as ex

    monkeypatch.setattr(ex, "IN_BROWSER", True)
    assert default_workers(None) == 1 and default_workers(4) == 4
    with pytest.raises(browser.NotInBrowserError, match="Ray"):
        run_chunks(ex._square_all, 1, [[1]], executor="ray")
