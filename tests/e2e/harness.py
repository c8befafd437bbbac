"""Helpers to drive a real JupyterLab in a real Chromium with Playwright.

Everything here is plain functions and small classes; ``conftest.py`` wires
them into pytest fixtures (``jupyter_server``, ``browser``, ``page``).

Facts this relies on (see shared/RECIPES.md):

* the server is started on a free port with an empty token and
  ``expose_app_in_browser`` so ``window.jupyterapp`` exists;
* notebooks carry ``kernelspec`` metadata, else a "Select Kernel" dialog
  blocks (use :func:`write_notebook`);
* cells are run with the ``notebook:run-all-cells`` command from inside the
  page, not by clicking the toolbar.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import quote

import ports

REPO_ROOT = Path(__file__).resolve().parents[2]

#: Debian's chromium; Playwright's own browser download is not possible here.
CHROMIUM = os.environ.get("DSA_E2E_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
    "--no-sandbox",  # we run as root
    "--disable-gpu",
    "--disable-dev-shm-usage",
]

THEMES = {"dark": "JupyterLab Dark", "light": "JupyterLab Light"}

KERNELSPEC = {
    "name": "python3",
    "display_name": "Python 3 (ipykernel)",
    "language": "python",
}

_ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


class HarnessError(AssertionError):
    """The test environment itself is broken (not the code under test)."""


class CellError(AssertionError):
    """A notebook cell raised while it was run in JupyterLab."""


def strip_ansi(text: str) -> str:
    return _ANSI.sub("", text)


# --------------------------------------------------------------------------
# notebooks
# --------------------------------------------------------------------------


def new_notebook(cells: Sequence[Any]):
    """Build an nbformat v4 notebook with python3 kernelspec metadata.

    ``cells`` items are code sources (``str``) or ready-made nbformat cells
    (e.g. ``nbformat.v4.new_markdown_cell("# title")``).
    """
    import nbformat

    nb = nbformat.v4.new_notebook()
    for cell in cells:
        if isinstance(cell, str):
            cell = nbformat.v4.new_code_cell(cell)
        nb.cells.append(cell)
    nb.metadata["kernelspec"] = dict(KERNELSPEC)
    nb.metadata["language_info"] = {"name": "python"}
    return nb


def write_notebook(path: os.PathLike | str, cells: Sequence[Any]) -> Path:
    """Write a notebook made by :func:`new_notebook` to ``path``; return it."""
    import nbformat

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    nb = cells if hasattr(cells, "metadata") else new_notebook(cells)
    nbformat.validate(nb)
    nbformat.write(nb, str(path))
    return path


# --------------------------------------------------------------------------
# the Jupyter server
# --------------------------------------------------------------------------


#: how many times :meth:`JupyterServer.start` tries a fresh port when the one it chose was taken
_PORT_TRIES = 5
#: what jupyter_server logs when it cannot bind the port it was given (``--port-retries=0``)
_PORT_TAKEN = "the Jupyter server could not be started because"


def write_python_kernelspec(jupyter_path: Path) -> Path:
    """Write ``kernels/python3/kernel.json`` that runs *this* interpreter.

    Put first on ``JUPYTER_PATH`` it wins over any user-level python3 spec,
    so kernels always run in the venv that runs the tests.
    """
    kdir = jupyter_path / "kernels" / "python3"
    kdir.mkdir(parents=True, exist_ok=True)
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": KERNELSPEC["display_name"],
        "language": "python",
        "metadata": {"debugger": True},
    }
    (kdir / "kernel.json").write_text(json.dumps(spec, indent=1))
    return kdir


def isolated_jupyter_env(base: Path, extra_pythonpath: Iterable[os.PathLike | str] = ()) -> dict:
    """Environment for a Jupyter server/kernel isolated from ~/.jupyter etc."""
    env = dict(os.environ)
    jpath = base / "jupyter_path"
    write_python_kernelspec(jpath)
    for name, sub in [
        ("JUPYTER_CONFIG_DIR", "config"),
        ("JUPYTER_DATA_DIR", "data"),
        ("JUPYTER_RUNTIME_DIR", "runtime"),
        ("IPYTHONDIR", "ipython"),
    ]:
        (base / sub).mkdir(parents=True, exist_ok=True)
        env[name] = str(base / sub)
    env["JUPYTER_PATH"] = os.pathsep.join(
        [str(jpath)] + ([env["JUPYTER_PATH"]] if env.get("JUPYTER_PATH") else [])
    )
    env["JUPYTER_PLATFORM_DIRS"] = "1"
    extra = [str(p) for p in extra_pythonpath]
    if extra:
        env["PYTHONPATH"] = os.pathsep.join(extra + ([env["PYTHONPATH"]] if env.get("PYTHONPATH") else []))
    env.pop("JUPYTER_TOKEN", None)
    env["PYDEVD_DISABLE_FILE_VALIDATION"] = "1"
    return env


@dataclass(frozen=True)
class _LabDirs:
    """Where one server keeps its files, all under ``base`` (its log too)."""

    base: Path

    @property
    def root(self) -> Path:
        return self.base / "root"

    @property
    def workspaces(self) -> Path:
        return self.base / "workspaces"

    @property
    def settings(self) -> Path:
        return self.base / "user-settings"


@dataclass
class JupyterServer:
    """A ``jupyter lab`` process started by :meth:`start`.

    ``url`` ends with ``/``; ``root_dir`` is where tests put notebooks.
    """

    url: str
    port: int
    root_dir: Path
    base_dir: Path
    user_settings_dir: Path
    log_path: Path
    proc: subprocess.Popen
    startup_seconds: float = 0.0

    @classmethod
    def start(
        cls,
        base_dir: os.PathLike | str | None = None,
        *,
        startup_timeout: float = 90.0,
        extra_pythonpath: Iterable[os.PathLike | str] = (REPO_ROOT,),
        extra_args: Sequence[str] = (),
    ) -> JupyterServer:
        import importlib.util

        if importlib.util.find_spec("jupyterlab") is None:
            raise HarnessError(
                f"jupyterlab is not importable from {sys.executable}: run the tests "
                "with the project's venv python (.venv/bin/python -m pytest)."
            )
        base = Path(base_dir) if base_dir else Path(tempfile.mkdtemp(prefix="dsa-e2e-lab-"))
        dirs = _LabDirs(base)
        for d in (dirs.root, dirs.workspaces, dirs.settings):
            d.mkdir(parents=True, exist_ok=True)
        env = isolated_jupyter_env(base, extra_pythonpath)
        # the port is chosen here and bound by the server a moment later, so another process
        # (an xdist worker's server or kernel) can take it in between: the server then exits at
        # once saying so, and it is started again on a fresh port
        for _ in range(_PORT_TRIES):
            server = cls._launch(dirs, env, extra_args, startup_timeout)
            if server is not None:
                return server
        raise HarnessError(f"jupyter lab lost the race for a free port {_PORT_TRIES} times")

    @classmethod
    def _launch(
        cls, dirs: _LabDirs, env: dict, extra_args: Sequence[str], startup_timeout: float
    ) -> JupyterServer | None:
        """One start of ``jupyter lab`` on a port free a moment ago: the server once it answers,
        or None when it exited because that port was taken meanwhile."""
        base, root, workspaces, settings = dirs.base, dirs.root, dirs.workspaces, dirs.settings
        port = ports.free_port()
        # a base url of its own: should another server have taken the port before this one
        # binds it, that server's answer is a 404, not this one's status
        prefix = f"/lab-{uuid.uuid4().hex[:12]}/"
        cmd = [
            sys.executable,
            "-m",
            "jupyterlab",
            "--allow-root",
            "--no-browser",
            f"--port={port}",
            "--port-retries=0",
            f"--ServerApp.base_url={prefix}",
            "--ServerApp.ip=127.0.0.1",
            "--ServerApp.token=",
            "--ServerApp.password=",
            # test-only server on loopback: lets the harness DELETE sessions
            "--ServerApp.disable_check_xsrf=True",
            f"--ServerApp.root_dir={root}",
            f"--LabApp.workspaces_dir={workspaces}",
            f"--LabApp.user_settings_dir={settings}",
            "--LabApp.news_url=None",
            "--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate",
            "--LabApp.extension_manager=readonly",
            "--LabApp.expose_app_in_browser=True",
            # kernels on Unix sockets in this server's runtime dir: TCP ports can be taken by
            # another worker between being chosen and bound (helpers.ipc_kernel)
            "--KernelManager.transport=ipc",
            *extra_args,
        ]
        log_path = base / "server.log"
        t0 = time.monotonic()
        with open(log_path, "wb") as log:
            proc = subprocess.Popen(
                cmd,
                cwd=str(root),
                env=env,
                stdout=log,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
            )
        server = cls(
            url=f"http://127.0.0.1:{port}{prefix}",
            port=port,
            root_dir=root,
            base_dir=base,
            user_settings_dir=settings,
            log_path=log_path,
            proc=proc,
        )
        deadline = t0 + startup_timeout
        while True:
            if proc.poll() is not None:
                if _PORT_TAKEN in server.log_tail():
                    return None
                raise HarnessError(
                    f"jupyter lab exited with code {proc.returncode} before answering.\n"
                    f"command: {' '.join(cmd)}\n--- server log ---\n{server.log_tail()}"
                )
            try:
                with urllib.request.urlopen(server.url + "api/status", timeout=2) as r:
                    if r.status == 200:
                        break
            except (urllib.error.URLError, ConnectionError, OSError):
                pass
            if time.monotonic() > deadline:
                server.stop()
                raise HarnessError(
                    f"jupyter lab did not answer /api/status within {startup_timeout}s.\n"
                    f"--- server log ---\n{server.log_tail()}"
                )
            time.sleep(0.2)
        server.startup_seconds = time.monotonic() - t0
        return server

    # -- lifecycle ---------------------------------------------------------

    def stop(self, timeout: float = 15.0) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, signal.SIGKILL)  # kernels too
                self.proc.wait(5)

    def alive(self) -> bool:
        return self.proc.poll() is None

    def log_tail(self, lines: int = 60) -> str:
        try:
            text = self.log_path.read_text(errors="replace")
        except OSError:
            return "(no server log)"
        return "\n".join(text.splitlines()[-lines:])

    # -- REST --------------------------------------------------------------

    def api(self, method: str, path: str, body: Any = None, timeout: float = 10) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(
            self.url + path.lstrip("/"),
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(req, timeout=timeout) as r:
            raw = r.read()
        return json.loads(raw) if raw else None

    def sessions(self) -> list[dict]:
        return self.api("GET", "api/sessions")

    def shutdown_all_kernels(self) -> None:
        """Delete every session and kernel (between tests)."""
        for s in self.sessions():
            with contextlib.suppress(urllib.error.HTTPError):
                self.api("DELETE", f"api/sessions/{s['id']}")
        for k in self.api("GET", "api/kernels"):
            with contextlib.suppress(urllib.error.HTTPError):
                self.api("DELETE", f"api/kernels/{k['id']}")

    def reset_user_settings(self) -> None:
        """Forget settings changed through the UI (e.g. the theme)."""
        for child in self.user_settings_dir.iterdir():
            if child.is_dir():
                shutil.rmtree(child, ignore_errors=True)
            else:
                child.unlink(missing_ok=True)

    # -- notebooks ---------------------------------------------------------

    def write_notebook(self, name: str, cells: Sequence[Any]) -> Path:
        """Write a notebook under ``root_dir`` (``name`` relative to it)."""
        return write_notebook(self.root_dir / name, cells)

    def notebook_url(self, path: str) -> str:
        return f"{self.url}lab/tree/{quote(path)}?reset"


# --------------------------------------------------------------------------
# the browser
# --------------------------------------------------------------------------


def check_chromium() -> str:
    if not (os.path.isfile(CHROMIUM) and os.access(CHROMIUM, os.X_OK)):
        raise HarnessError(
            f"Chromium not found at {CHROMIUM}. Install Debian's chromium "
            "(apt-get update && apt-get install -y chromium) or set DSA_E2E_CHROMIUM; "
            "`npx playwright install` cannot download browsers here."
        )
    return CHROMIUM


def launch_browser(playwright, *, headless: bool = True, args: Sequence[str] = ()):
    return playwright.chromium.launch(
        executable_path=check_chromium(),
        headless=headless,
        args=[*CHROMIUM_ARGS, *args],
    )


@dataclass
class ConsoleEntry:
    type: str  # "error", "warning", "log", ..., or "pageerror"
    text: str
    url: str = ""

    def __str__(self) -> str:
        where = f" ({self.url})" if self.url else ""
        return f"[{self.type}] {self.text}{where}"


@dataclass
class ConsoleLog:
    """Collects a page's console messages, uncaught errors and failed requests."""

    entries: list[ConsoleEntry] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)
    #: urls the harness aborted on purpose (static export): their
    #: "Failed to load resource" messages are not counted as errors.
    expected_failures: set[str] = field(default_factory=set)

    def attach(self, page) -> ConsoleLog:
        def on_console(msg):
            loc = msg.location or {}
            self.entries.append(ConsoleEntry(msg.type, msg.text, loc.get("url", "")))

        def on_pageerror(err):
            text = getattr(err, "stack", None) or str(err)
            self.entries.append(ConsoleEntry("pageerror", text))

        def on_requestfailed(req):
            self.failed_requests.append(f"{req.method} {req.url}: {req.failure}")

        page.on("console", on_console)
        page.on("pageerror", on_pageerror)
        page.on("requestfailed", on_requestfailed)
        return self

    def errors(self, ignore: Iterable[str] = ()) -> list[ConsoleEntry]:
        """Console errors and uncaught exceptions, minus regexes in ``ignore``."""
        pats = [re.compile(p) for p in ignore]
        out = []
        for e in self.entries:
            if e.type not in ("error", "pageerror"):
                continue
            if e.url and e.url in self.expected_failures:
                continue
            if any(p.search(e.text) for p in pats):
                continue
            out.append(e)
        return out

    def assert_no_errors(self, ignore: Iterable[str] = ()) -> None:
        errs = self.errors(ignore)
        if errs:
            raise AssertionError("browser console errors:\n" + "\n".join(f"  {e}" for e in errs))

    def format(self, max_entries: int = 200) -> str:
        lines = [str(e) for e in self.entries[-max_entries:]]
        if self.failed_requests:
            lines.append("-- failed requests --")
            lines.extend(self.failed_requests[-50:])
        return "\n".join(lines) or "(empty)"

    def clear(self) -> None:
        self.entries.clear()
        self.failed_requests.clear()


# --------------------------------------------------------------------------
# JupyterLab in the page
# --------------------------------------------------------------------------

# Finds the notebook panel the harness opened last (falls back to the current
# widget) -- shared by the snippets below.
_PANEL_JS = """
const __panel = () => {
  const app = window.jupyterapp;
  const p = window.__dsaE2EPanel;
  if (p && !p.isDisposed) return p;
  return app.shell.currentWidget;
};
"""

_STATE_JS = (
    _PANEL_JS
    + """
const panel = __panel();
const cells = panel.content.model.cells;
let pending = 0, total = 0;
const errors = [];
for (let i = 0; i < cells.length; i++) {
  const c = cells.get(i);
  if (c.type !== 'code') continue;
  total++;
  const src = c.sharedModel.getSource();
  if (src.trim() && (c.executionCount == null || c.executionState === 'running')) pending++;
  for (let j = 0; j < c.outputs.length; j++) {
    const o = c.outputs.get(j).toJSON();
    if (o.output_type === 'error') errors.push({cell: i, source: src, ename: o.ename,
      evalue: o.evalue, traceback: (o.traceback || []).join('\\n')});
  }
}
const k = panel.sessionContext.session && panel.sessionContext.session.kernel;
return {pending, total, errors, kernel: k ? k.status : 'none',
        connection: k ? k.connectionStatus : 'none'};
"""
)


def _js_fn(body: str, args: str = "") -> str:
    return f"async ({args}) => {{ {body} }}"


def open_notebook(page, server: JupyterServer, path: str, *, timeout: float = 60_000):
    """Open ``path`` (relative to ``server.root_dir``) in JupyterLab.

    Navigates to ``/lab/tree/PATH?reset``, waits for ``window.jupyterapp``,
    for the notebook panel, its ``context.ready`` and ``sessionContext.ready``
    and for a connected, idle kernel. Returns a :class:`LabNotebook`.
    """
    if not (server.root_dir / path).exists():
        raise HarnessError(f"{path} does not exist under {server.root_dir}")
    t0 = time.monotonic()
    page.goto(server.notebook_url(path), wait_until="domcontentloaded", timeout=timeout)
    page.wait_for_function("() => !!window.jupyterapp", timeout=timeout)
    page.wait_for_function(
        """(path) => {
          const app = window.jupyterapp;
          for (const w of app.shell.widgets('main')) {
            if (w.context && w.context.path === path && w.sessionContext) {
              window.__dsaE2EPanel = w; return true; }
          }
          return false;
        }""",
        arg=path,
        timeout=timeout,
    )
    page.evaluate(
        _js_fn(
            _PANEL_JS
            + """
          const app = window.jupyterapp;
          await app.restored;
          const panel = __panel();
          app.shell.activateById(panel.id);
          await panel.context.ready;
          await panel.sessionContext.ready;
          await panel.revealed;
          return true;
        """
        ),
    )
    page.wait_for_function(
        _js_fn(
            _PANEL_JS
            + """
          const k = __panel().sessionContext.session && __panel().sessionContext.session.kernel;
          return !!k && k.connectionStatus === 'connected' && k.status === 'idle';
        """
        ),
        timeout=timeout,
    )
    panel_id = page.evaluate("() => window.__dsaE2EPanel.id")
    return LabNotebook(page=page, path=path, panel_id=panel_id, open_seconds=time.monotonic() - t0)


def notebook_state(page) -> dict:
    """{pending, total, errors, kernel, connection} of the opened notebook."""
    return page.evaluate(_js_fn(_STATE_JS))


def _raise_cell_errors(errors: list[dict]) -> None:
    if errors:
        parts = []
        for e in errors:
            parts.append(
                f"cell {e['cell']} raised {e['ename']}: {e['evalue']}\n"
                f"--- source ---\n{e['source']}\n--- traceback ---\n"
                f"{strip_ansi(e['traceback'])}"
            )
        raise CellError("\n\n".join(parts))


def wait_until_idle(page, *, timeout: float = 120_000, raise_on_error: bool = True) -> dict:
    """Poll until every non-empty code cell has run (or one raised) and the
    kernel is idle. Returns :func:`notebook_state`."""
    deadline = time.monotonic() + timeout / 1000
    state: dict = {}
    while time.monotonic() < deadline:
        state = notebook_state(page)
        settled = state["pending"] == 0 or state["errors"]
        if settled and state["kernel"] == "idle":
            break
        if state["kernel"] in ("dead", "unknown", "none") and state["connection"] != "connecting":
            raise HarnessError(f"kernel is {state['kernel']} while running cells: {state}")
        time.sleep(0.1)
    else:
        raise TimeoutError(f"cells still running after {timeout} ms: {state}")
    if raise_on_error:
        _raise_cell_errors(state["errors"])
    return state


def run_all_cells(page, *, timeout: float = 120_000, raise_on_error: bool = True) -> dict:
    """Run every cell with ``notebook:run-all-cells`` and wait until done.

    Raises :class:`CellError` (with the traceback) if a cell raised, unless
    ``raise_on_error`` is false. Returns :func:`notebook_state`.
    """
    page.evaluate(
        _js_fn(
            _PANEL_JS
            + """
          const app = window.jupyterapp;
          app.shell.activateById(__panel().id);
          await app.commands.execute('notebook:run-all-cells');
          return true;
        """
        ),
    )
    return wait_until_idle(page, timeout=timeout, raise_on_error=raise_on_error)


def append_and_run_cell(page, source: str, *, timeout: float = 60_000, raise_on_error: bool = True) -> dict:
    """Append a code cell to the opened notebook and run it through the UI.

    Returns ``{"index": i, "outputs": [nbformat output dicts], "text": str}``
    where ``text`` joins stream text and ``text/plain`` results.
    """
    index = page.evaluate(
        _js_fn(
            _PANEL_JS
            + """
          const app = window.jupyterapp;
          const panel = __panel();
          app.shell.activateById(panel.id);
          const nb = panel.content;
          const idx = nb.model.cells.length;
          nb.model.sharedModel.insertCell(idx, {cell_type: 'code', source: src});
          nb.deselectAll();
          nb.activeCellIndex = idx;
          await app.commands.execute('notebook:run-cell');
          return idx;
        """,
            "src",
        ),
        source,
    )
    wait_until_idle(page, timeout=timeout, raise_on_error=raise_on_error)
    outputs = page.evaluate(
        _js_fn(
            _PANEL_JS
            + """
          const c = __panel().content.model.cells.get(i);
          const out = [];
          for (let j = 0; j < c.outputs.length; j++) out.push(c.outputs.get(j).toJSON());
          return out;
        """,
            "i",
        ),
        index,
    )
    return {"index": index, "outputs": outputs, "text": outputs_text(outputs)}


def outputs_text(outputs: list[dict]) -> str:
    parts = []
    for o in outputs:
        if o.get("output_type") == "stream":
            t = o.get("text", "")
            parts.append("".join(t) if isinstance(t, list) else t)
        elif o.get("output_type") in ("execute_result", "display_data"):
            t = o.get("data", {}).get("text/plain", "")
            parts.append("".join(t) if isinstance(t, list) else t)
    return "".join(parts)


@dataclass
class ExecResult:
    status: str
    stdout: str
    result: str | None  # text/plain of the last expression, if any
    error: str | None  # "Ename: evalue\ntraceback" if it raised


def kernel_execute(page, code: str, *, timeout: float = 30_000, check: bool = True) -> ExecResult:
    """Run ``code`` in the opened notebook's kernel, without adding a cell.

    Same kernel and namespace as the notebook: use it to ask Python about the
    state after UI interactions (``kernel_execute(page, "w.value").result``).
    """
    r = page.evaluate(
        _js_fn(
            _PANEL_JS
            + """
          const k = __panel().sessionContext.session.kernel;
          const future = k.requestExecute({code: a.code, store_history: false});
          let stdout = '', result = null, error = null;
          future.onIOPub = (msg) => {
            const t = msg.header.msg_type, c = msg.content;
            if (t === 'stream') stdout += c.text;
            else if (t === 'execute_result') result = c.data['text/plain'];
            else if (t === 'error') error = c.ename + ': ' + c.evalue + '\\n' + c.traceback.join('\\n');
          };
          const timer = new Promise((_, rej) => setTimeout(
              () => rej(new Error('kernel_execute timed out')), a.timeout));
          const reply = await Promise.race([future.done, timer]);
          return {status: reply.content.status, stdout, result, error};
        """,
            "a",
        ),
        {"code": code, "timeout": timeout},
    )
    res = ExecResult(r["status"], r["stdout"], r["result"], strip_ansi(r["error"]) if r["error"] else None)
    if check and res.status != "ok":
        raise CellError(f"kernel_execute failed for:\n{code}\n{res.error}")
    return res


def set_theme(page, theme: str, *, timeout: float = 30_000) -> None:
    """Switch JupyterLab's theme: "dark", "light" or a full theme name."""
    name = THEMES.get(theme, theme)
    page.evaluate(
        "async (name) => { await window.jupyterapp.commands.execute("
        "'apputils:change-theme', {theme: name}); }",
        name,
    )
    page.wait_for_function(
        "(name) => document.body.dataset.jpThemeName === name",
        arg=name,
        timeout=timeout,
    )
    # JupyterLab covers the page with its splash while the theme loads and removes it 200 ms
    # after it fades; a second change inside that window schedules a second removal of the same
    # node, which throws in JupyterLab's own code ("removeChild ... not a child of this node",
    # a page error that failed a loaded run).  So a change ends when the splash is gone.
    page.wait_for_selector("#jupyterlab-splash", state="detached", timeout=timeout)
    # let the new stylesheet apply
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def css_var(page, name: str, selector: str = "body") -> str:
    """Computed value of CSS custom property ``name`` on ``selector``."""
    return page.evaluate(
        "([sel, name]) => getComputedStyle(document.querySelector(sel)).getPropertyValue(name).trim()",
        [selector, name],
    )


@dataclass
class LabNotebook:
    """Handle returned by :func:`open_notebook` (methods wrap the helpers)."""

    page: Any
    path: str
    panel_id: str
    open_seconds: float = 0.0

    @property
    def panel(self):
        return self.page.locator(f"#{self.panel_id}")

    def cell(self, index: int):
        return self.panel.locator(".jp-Notebook .jp-Cell").nth(index)

    def output(self, index: int):
        """Locator of cell ``index``'s output area."""
        return self.cell(index).locator(".jp-OutputArea")

    def run_all(self, **kw) -> dict:
        return run_all_cells(self.page, **kw)

    def run_cell(self, source: str, **kw) -> dict:
        return append_and_run_cell(self.page, source, **kw)

    def execute(self, code: str, **kw) -> ExecResult:
        return kernel_execute(self.page, code, **kw)

    def eval(self, expr: str, **kw) -> str | None:
        """repr of a Python expression evaluated in the notebook's kernel."""
        return kernel_execute(self.page, expr, **kw).result
