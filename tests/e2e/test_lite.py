"""The published site (``bash scripts/lite.sh``): JupyterLite with Python in the browser, no server.

The site is built once for the session into a temporary folder, served on loopback by a thread,
and opened in Chromium with every request that is not for that server aborted (the kernel's web
worker included).  A notebook of each game is run to its end in the Pyodide kernel and one move
is played by a click (the board draws a newer state); one lesson runs to its end; nothing was
fetched from outside, and the browser console holds no error.
"""

from __future__ import annotations

import functools
import http.server
import subprocess
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from playwright.sync_api import expect

from .conftest import record_timing
from .harness import _PANEL_JS, REPO_ROOT, _js_fn, run_all_cells
from .test_crew import CLICK_JS as CREW_CLICK_JS

#: the first enabled choice button on a board (Deep Sea Adventure, Submarine, Pig)
CLICK_JS = """(root) => {
  const b = root.querySelector('button[data-choice]:not([disabled])');
  if (b) { b.click(); return b.dataset.choice; }
  return null;
}"""

#: the board drew a newer state than ``seq``
MOVED_JS = "([root, seq]) => Number(root.dataset.seq) > seq"

#: notebook -> (the board's root, which output of the notebook holds the board to click, clicker)
GAMES = {
    "play.ipynb": (".dsa-root", 0, CLICK_JS),
    "crew-play.ipynb": (".crew-root", -1, CREW_CLICK_JS),  # its last cell: a fresh hot-seat table
    "submarine.ipynb": (".sub-root", 0, CLICK_JS),
    "pig.ipynb": (".pig-root", 0, CLICK_JS),
}

#: a kernel start (Pyodide and its wheels, then IPython) on two busy cores: tens of seconds
KERNEL_TIMEOUT_MS = 240_000


class _Quiet(http.server.SimpleHTTPRequestHandler):
    extensions_map = {**http.server.SimpleHTTPRequestHandler.extensions_map, ".wasm": "application/wasm"}

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture(scope="session")
def lite_site(tmp_path_factory):
    """The site, built once by ``scripts/lite.sh --out``, served on 127.0.0.1: yields its url."""
    site = tmp_path_factory.mktemp("lite") / "site"
    t0 = time.monotonic()
    done = subprocess.run(
        ["bash", str(REPO_ROOT / "scripts" / "lite.sh"), "--out", str(site)],
        capture_output=True,
        text=True,
    )
    if done.returncode:
        pytest.fail(f"scripts/lite.sh failed:\n{done.stdout[-4000:]}\n{done.stderr[-4000:]}", pytrace=False)
    record_timing("lite site build", time.monotonic() - t0)
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(site)))
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/"
    server.shutdown()
    server.server_close()


@pytest.fixture
def offline(page, lite_site) -> list[str]:
    """Abort every request not for the site's server; the list of what was aborted."""
    host = urlsplit(lite_site).netloc
    aborted: list[str] = []

    def route(r):
        if urlsplit(r.request.url).netloc == host:
            r.continue_()
        else:
            aborted.append(r.request.url)
            r.abort()

    page.context.route("**/*", route)
    return aborted


def open_lite(page, site: str, path: str) -> float:
    """Open ``path`` in the site's JupyterLab and wait for an idle Pyodide kernel; the seconds."""
    t0 = time.monotonic()
    page.goto(f"{site}lab/index.html?path={path}", wait_until="domcontentloaded")
    page.wait_for_function("() => !!window.jupyterapp", timeout=60_000)
    page.wait_for_function(
        """(path) => {
          for (const w of window.jupyterapp.shell.widgets('main')) {
            if (w.context && w.context.path === path && w.sessionContext) {
              window.__dsaE2EPanel = w; return true; }
          }
          return false;
        }""",
        arg=path,
        timeout=60_000,
    )
    page.evaluate(
        _js_fn(
            _PANEL_JS
            + """
          await window.jupyterapp.restored;
          const panel = __panel();
          await panel.context.ready;
          await panel.sessionContext.ready;
          return true;"""
        )
    )
    page.wait_for_function(
        _js_fn(
            _PANEL_JS
            + """
          const k = __panel().sessionContext.session && __panel().sessionContext.session.kernel;
          return !!k && k.status === 'idle';"""
        ),
        timeout=KERNEL_TIMEOUT_MS,
        polling=250,
    )
    return time.monotonic() - t0


@pytest.mark.parametrize("notebook", list(GAMES))
def test_each_game_runs_in_the_browser_and_plays_by_click(notebook, lite_site, offline, page, console):
    selector, which, click_js = GAMES[notebook]
    t0 = time.monotonic()
    open_seconds = open_lite(page, lite_site, notebook)
    run_all_cells(page, timeout=KERNEL_TIMEOUT_MS)
    panel = page.locator(f"#{page.evaluate('() => window.__dsaE2EPanel.id')}")
    root = panel.locator(f".jp-OutputArea-output {selector}").nth(which)
    expect(root).to_be_visible()
    record_timing("lite open to playable", time.monotonic() - t0)
    record_timing("lite kernel ready", open_seconds)
    handle = root.element_handle()
    seq = int(root.get_attribute("data-seq") or -1)
    clicked = page.evaluate(click_js, handle)
    assert clicked, f"{notebook}: nothing to click on the board"
    page.wait_for_function(MOVED_JS, arg=[handle, seq], timeout=60_000)
    assert not root.get_attribute("data-error"), root.locator(".dsa-error").all_text_contents()
    if notebook != "crew-play.ipynb":  # (its hot-seat curtain may be down after the move)
        # a step back and Live again: Pyodide hands the board's null (step: null) over as
        # its jsnull, and Live was refused there until the widget read it as None
        root.locator('button[data-action="prev"]').click()
        expect(root).to_have_attribute("data-mode", "history", timeout=60_000)
        root.locator('button[data-action="live"]').click()
        expect(root).to_have_attribute("data-mode", "real", timeout=60_000)
        assert not root.get_attribute("data-error"), root.locator(".dsa-error").all_text_contents()
    assert offline == [], f"requests that left the site: {offline}"
    console.assert_no_errors()


def test_a_lesson_runs_to_its_end_in_the_browser(lite_site, offline, page, console):
    t0 = time.monotonic()
    open_lite(page, lite_site, "what-if.ipynb")
    state = run_all_cells(page, timeout=KERNEL_TIMEOUT_MS)
    record_timing("lite lesson what-if", time.monotonic() - t0)
    assert state["total"] > 10 and state["pending"] == 0, state
    assert offline == [], f"requests that left the site: {offline}"
    console.assert_no_errors()


def test_the_site_holds_what_the_notebooks_use_and_no_more(lite_site):
    """Every notebook but the AI one (native libraries) is there; no compiled numerics shipped."""
    from urllib.request import urlopen

    with urlopen(f"{lite_site}api/contents/all.json") as r:
        import json

        names = {c["name"] for c in json.load(r)["content"]}
    examples = {p.name for p in (REPO_ROOT / "examples").glob("*.ipynb")}
    assert names == examples - {"ai.ipynb"}
    with urlopen(f"{lite_site}static/pyodide/pyodide-lock.json") as r:
        shipped = set(json.load(r)["packages"])
    assert "dsa-widget" in shipped and "anywidget" in shipped
    assert not shipped & {"numpy", "numba", "ray", "llvmlite"}, shipped


def test_site_folder_name_is_ignored_by_git():
    out = subprocess.run(
        ["git", "check-ignore", "-q", "lite-site/index.html"], cwd=Path(REPO_ROOT), capture_output=True
    )
    assert out.returncode == 0, "lite-site/ must be git-ignored"
