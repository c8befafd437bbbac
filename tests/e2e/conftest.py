"""pytest fixtures for end-to-end tests in real JupyterLab / Chromium.

Session scope: ``jupyter_server`` (one ``jupyter lab``), ``browser`` (one
Chromium). Function scope: ``page`` (fresh browser context, console
captured), ``console``, ``lab`` (write + open notebooks), ``static_export``
(execute + export + open a notebook as static HTML).

On a failing test the report gets the browser console, a screenshot path,
the Jupyter server log tail and, for static pages, what was served/aborted.
Nothing here skips: a missing Chromium or node_modules is a failure.

Usage (see test_harness_smoke.py)::

    from playwright.sync_api import expect
    from .harness import set_theme, css_var

    def test_board(lab, page, console):
        nb = lab.open("board.ipynb", ["from dsa_widget import DeepSea", "w = DeepSea()\nw"])
        nb.run_all()                              # raises CellError with traceback
        expect(nb.output(1).locator("button")).to_be_visible()
        assert nb.eval("w.some_trait") == "3"     # ask the same kernel
        set_theme(page, "dark")
        console.assert_no_errors()

    def test_published(static_export, page, console):
        site = static_export.render(["from dsa_widget import DeepSea", "DeepSea()"])
        expect(page.locator(".my-board")).to_be_visible()
        console.assert_no_errors()
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

from . import static as static_mod
from .harness import (
    ConsoleLog,
    HarnessError,
    JupyterServer,
    LabNotebook,
    check_chromium,
    launch_browser,
    open_notebook,
)

E2E_DIR = Path(__file__).resolve().parent

# Playwright's `expect` waits 5 s by default: too short for a kernel round
# trip on a loaded 2-core machine.
EXPECT_TIMEOUT_MS = int(os.environ.get("DSA_E2E_EXPECT_TIMEOUT_MS", "20000"))

#: name -> list of seconds, printed in the terminal summary
TIMINGS: dict[str, list[float]] = {}


def record_timing(name: str, seconds: float) -> None:
    TIMINGS.setdefault(name, []).append(seconds)


def pytest_configure(config):
    config.addinivalue_line(
        "markers",
        "e2e: end-to-end test in real JupyterLab/Chromium (needs /usr/bin/chromium "
        "and `npm ci`; select with -m e2e, skip with -m 'not e2e')",
    )


def pytest_collection_modifyitems(config, items):
    for item in items:
        if E2E_DIR in Path(str(item.path)).resolve().parents:
            item.add_marker(pytest.mark.e2e)


def pytest_terminal_summary(terminalreporter):
    if not TIMINGS:
        return
    terminalreporter.section("e2e timings")
    for name, vals in TIMINGS.items():
        shown = ", ".join(f"{v:.2f}s" for v in vals)
        terminalreporter.write_line(f"{name:<28} {shown}")


# --------------------------------------------------------------------------
# failure reporting
# --------------------------------------------------------------------------


@dataclass
class _E2EState:
    page: Any = None
    console: ConsoleLog | None = None
    server: JupyterServer | None = None
    sites: list = field(default_factory=list)
    artifacts: Path | None = None


def _state(item) -> _E2EState:
    st = getattr(item, "_dsa_e2e", None)
    if st is None:
        st = item._dsa_e2e = _E2EState()
    return st


def _artifacts_dir(config) -> Path:
    cache = getattr(config, "cache", None)  # None with -p no:cacheprovider
    if cache is not None:
        return Path(cache.mkdir("e2e-artifacts"))
    import tempfile

    return Path(tempfile.mkdtemp(prefix="dsa-e2e-artifacts-"))


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    rep = outcome.get_result()
    st = getattr(item, "_dsa_e2e", None)
    if st is None or not rep.failed or rep.when == "teardown":
        return
    if st.page is not None:
        from playwright.sync_api import Error as PlaywrightError

        try:
            shot = _artifacts_dir(item.config) / (item.nodeid.replace("/", "_").replace("::", "__") + ".png")
            st.page.screenshot(path=str(shot), timeout=5000)
            rep.sections.append(("e2e screenshot", str(shot)))
        except (PlaywrightError, OSError) as exc:  # page may be gone
            rep.sections.append(("e2e screenshot", f"(could not take one: {exc})"))
    if st.console is not None:
        rep.sections.append(("browser console", st.console.format()))
    for site in st.sites:
        rep.sections.append(("static page requests", site.summary()))
    if st.server is not None:
        alive = "alive" if st.server.alive() else f"EXITED {st.server.proc.returncode}"
        rep.sections.append(
            (f"jupyter server log tail ({alive}, {st.server.log_path})", st.server.log_tail())
        )


# --------------------------------------------------------------------------
# session fixtures
# --------------------------------------------------------------------------


@pytest.fixture(scope="session")
def jupyter_server(tmp_path_factory):
    """One ``jupyter lab`` for the session: ``.url``, ``.root_dir`` ..."""
    try:
        server = JupyterServer.start(tmp_path_factory.mktemp("jupyter"))
    except HarnessError as exc:
        pytest.fail(str(exc), pytrace=False)
    record_timing("server startup", server.startup_seconds)
    yield server
    t0 = time.monotonic()
    server.stop()
    record_timing("server shutdown", time.monotonic() - t0)


@pytest.fixture(scope="session")
def playwright_instance():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        pytest.fail(f"playwright is not installed in this python: {exc}", pytrace=False)
    pw = sync_playwright().start()
    yield pw
    pw.stop()


@pytest.fixture(scope="session")
def browser(playwright_instance):
    """One headless Debian Chromium for the session (Playwright sync API)."""
    from playwright.sync_api import expect

    expect.set_options(timeout=EXPECT_TIMEOUT_MS)
    try:
        check_chromium()
    except HarnessError as exc:
        pytest.fail(str(exc), pytrace=False)
    t0 = time.monotonic()
    b = launch_browser(playwright_instance)
    record_timing("browser launch", time.monotonic() - t0)
    yield b
    b.close()


# --------------------------------------------------------------------------
# per-test fixtures
# --------------------------------------------------------------------------


@pytest.fixture
def page(browser, request):
    """A fresh page in a fresh context; its console is captured (``console``).

    If the test also used ``jupyter_server``, the teardown shuts down every
    kernel and forgets settings changed through the UI (e.g. the theme).
    """
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    context.set_default_timeout(30_000)
    pg = context.new_page()
    st = _state(request.node)
    st.page = pg
    st.console = ConsoleLog().attach(pg)
    pg.console_log = st.console
    yield pg
    try:
        context.close()
    finally:
        if "jupyter_server" in request.fixturenames:
            server = request.getfixturevalue("jupyter_server")
            if server.alive():
                server.shutdown_all_kernels()
                server.reset_user_settings()


@pytest.fixture
def console(page) -> ConsoleLog:
    """The :class:`ConsoleLog` of ``page``: ``.errors()``, ``.assert_no_errors()``."""
    return page.console_log


class Lab:
    """Write notebooks into the server root and open them in ``page``."""

    def __init__(self, server: JupyterServer, page, console: ConsoleLog):
        self.server, self.page, self.console = server, page, console

    def open(self, name: str, cells: Sequence[Any] | None = None, **kw) -> LabNotebook:
        """Write ``cells`` (if given) to ``name`` and open it; see open_notebook."""
        if cells is not None:
            self.server.write_notebook(name, cells)
        nb = open_notebook(self.page, self.server, name, **kw)
        record_timing("open notebook", nb.open_seconds)
        return nb


@pytest.fixture
def lab(jupyter_server, page, request) -> Lab:
    """``lab.open("x.ipynb", ["code", ...])`` -> LabNotebook, in ``page``."""
    _state(request.node).server = jupyter_server
    return Lab(jupyter_server, page, page.console_log)


class StaticExport:
    def __init__(self, page, out_dir: Path, st: _E2EState):
        self.page, self.out_dir, self._st = page, out_dir, st

    def render(self, cells_or_nb: Any, name: str = "export") -> static_mod.StaticSite:
        """Execute (nbclient), export (nbconvert) and open the HTML offline."""
        t0 = time.monotonic()
        nb = static_mod.execute_notebook(cells_or_nb, cwd=self.out_dir)
        t1 = time.monotonic()
        html_path = self.out_dir / f"{name}.html"
        static_mod.export_html(nb, html_path)
        t2 = time.monotonic()
        site = self.open(html_path)
        record_timing("static execute", t1 - t0)
        record_timing("static export", t2 - t1)
        record_timing("static open", time.monotonic() - t2)
        return site

    def open(self, html_path: Path) -> static_mod.StaticSite:
        site = static_mod.open_static_html(self.page, html_path, console=self.page.console_log)
        self._st.sites.append(site)
        return site


@pytest.fixture
def static_export(page, tmp_path, request) -> StaticExport:
    """``static_export.render(["code", ...])`` -> StaticSite, page shows it."""
    try:
        static_mod.check_node_modules()
    except HarnessError as exc:
        pytest.fail(str(exc), pytrace=False)
    return StaticExport(page, tmp_path, _state(request.node))
