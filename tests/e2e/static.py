"""Static-HTML export harness: a notebook as a published page, no kernel.

1. :func:`execute_notebook` runs a notebook with nbclient and
   ``store_widget_state=True`` (``_esm``/``_css`` travel in the state);
2. :func:`export_html` converts it with nbconvert's ``HTMLExporter``;
3. :func:`open_static_html` opens the page in Chromium and answers its CDN
   requests (require.js, ``@jupyter-widgets/html-manager``, ``anywidget``,
   and their fonts/chunks) from ``<repo>/node_modules`` through
   ``page.route``, stubs MathJax, and aborts every other outside request.

The npm packages come from the repo's root ``package.json``: ``npm ci``.
"""

from __future__ import annotations

import concurrent.futures
import json
import mimetypes
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from helpers import ipc_kernel

from .harness import REPO_ROOT, HarnessError, isolated_jupyter_env, new_notebook

NODE_MODULES = Path(os.environ.get("DSA_E2E_NODE_MODULES", REPO_ROOT / "node_modules"))

#: npm packages the exported page may ask a CDN for -> served from node_modules
SERVED_PACKAGES = ("@jupyter-widgets/html-manager", "anywidget", "requirejs")

REQUIRED_FILES = (
    "requirejs/require.js",
    "@jupyter-widgets/html-manager/dist/embed-amd.js",
    "anywidget/dist/index.js",
)

#: the fake origin the exported page itself is served from
STATIC_ORIGIN = "https://static-export.invalid"

_CDN_NPM = re.compile(
    r"^https?://(?:unpkg\.com|cdn\.jsdelivr\.net/npm)/"
    r"(?P<pkg>(?:@[^/@]+/)?[^/@]+)(?:@(?P<ver>[^/]*))?/(?P<rest>.*)$"
)
_CDN_REQUIREJS = re.compile(
    r"^https?://cdnjs\.cloudflare\.com/ajax/libs/require\.js/[^/]+/require(\.min)?\.js$"
)
_CDN_MATHJAX = re.compile(r"^https?://cdnjs\.cloudflare\.com/ajax/libs/mathjax/")


def check_node_modules() -> Path:
    missing = [f for f in REQUIRED_FILES if not (NODE_MODULES / f).is_file()]
    if missing:
        raise HarnessError(
            f"missing npm files under {NODE_MODULES}: {', '.join(missing)}.\n"
            f"Run `npm ci` in {REPO_ROOT} (root package.json / package-lock.json)."
        )
    return NODE_MODULES


def installed_npm_version(pkg: str) -> str:
    return json.loads((NODE_MODULES / pkg / "package.json").read_text())["version"]


# --------------------------------------------------------------------------
# execute + export
# --------------------------------------------------------------------------


def execute_notebook(
    nb_or_cells: Any,
    *,
    cwd: os.PathLike | str | None = None,
    timeout: int = 120,
    extra_pythonpath: Sequence[os.PathLike | str] = (REPO_ROOT,),
    allow_errors: bool = False,
):
    """Execute a notebook (NotebookNode, path, or list of cell sources) with
    nbclient, storing widget state. Returns the executed NotebookNode.

    Runs in a worker thread so it never clashes with Playwright's sync API
    (which owns an event loop on the main thread).
    """
    import nbclient
    import nbformat

    if isinstance(nb_or_cells, (str, os.PathLike)) and Path(nb_or_cells).suffix == ".ipynb":
        nb = nbformat.read(str(nb_or_cells), as_version=4)
        cwd = cwd or Path(nb_or_cells).parent
    elif hasattr(nb_or_cells, "metadata"):
        nb = nb_or_cells
    else:
        nb = new_notebook(nb_or_cells)
    nb.metadata.setdefault("kernelspec", new_notebook([]).metadata["kernelspec"])

    import tempfile

    base = Path(tempfile.mkdtemp(prefix="dsa-e2e-nbclient-"))
    env = isolated_jupyter_env(base, extra_pythonpath)
    cwd = str(cwd or base)

    def run():
        from jupyter_client.kernelspec import KernelSpecManager
        from jupyter_client.manager import AsyncKernelManager

        ksm = KernelSpecManager(kernel_dirs=[str(base / "jupyter_path" / "kernels")])
        km = AsyncKernelManager(kernel_name="python3", kernel_spec_manager=ksm, **ipc_kernel(base))
        client = nbclient.NotebookClient(
            nb,
            km=km,
            timeout=timeout,
            kernel_name="python3",
            store_widget_state=True,
            allow_errors=allow_errors,
            resources={"metadata": {"path": cwd}},
        )
        client.execute(env=env, cwd=cwd)
        return nb

    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(run).result()


def export_html(nb, out_path: os.PathLike | str | None = None, **exporter_kw) -> str:
    """nbconvert ``HTMLExporter`` (lab template) of an executed notebook.
    Writes ``out_path`` if given; returns the HTML."""
    from nbconvert import HTMLExporter

    body, _ = HTMLExporter(**exporter_kw).from_notebook_node(nb)
    if "application/vnd.jupyter.widget-state+json" not in body:
        raise HarnessError(
            "exported HTML has no widget state: was the notebook executed with "
            "store_widget_state=True (use execute_notebook)?"
        )
    if out_path is not None:
        Path(out_path).write_text(body, encoding="utf-8")
    return body


# --------------------------------------------------------------------------
# serving it offline
# --------------------------------------------------------------------------


@dataclass
class StaticSite:
    """What :func:`open_static_html` served, stubbed and aborted."""

    url: str
    served: list[tuple[str, str]] = field(default_factory=list)  # (url, local file)
    stubbed: list[str] = field(default_factory=list)
    aborted: list[str] = field(default_factory=list)
    #: same-origin 404s; ``<origin>/<module>.js`` is html-manager's normal
    #: local-first probe for a widget module before it falls back to the CDN
    missing: list[str] = field(default_factory=list)
    version_notes: list[str] = field(default_factory=list)

    def served_packages(self) -> set[str]:
        pk = set()
        for _, local in self.served:
            if NODE_MODULES.resolve() not in Path(local).parents:
                continue
            rel = Path(local).relative_to(NODE_MODULES.resolve()).parts
            pk.add("/".join(rel[:2]) if rel[0].startswith("@") else rel[0])
        return pk

    def summary(self) -> str:
        lines = [f"page: {self.url}"]
        lines += [f"served  {u} -> {p}" for u, p in self.served]
        lines += [f"stubbed {u}" for u in self.stubbed]
        lines += [f"404     {u}" for u in self.missing]
        lines += [f"ABORTED {u}" for u in self.aborted]
        lines += [f"version {n}" for n in self.version_notes]
        return "\n".join(lines)


def widget_modules(html: str) -> set[str]:
    """model/view module names in an exported page's widget state."""
    return set(re.findall(r'"(?:model|view)_module":\s*"([^"]+)"', html.replace("\\/", "/")))


def _range_ok(requested: str, installed: str) -> bool:
    """Loose semver check: compare the leading numbers the range pins."""
    req = requested.lstrip("~^=v")
    if req in ("", "*", "latest"):
        return True
    want = []
    for part in req.split("."):
        if not part.isdigit():
            break
        want.append(part)
    have = installed.split(".")
    if not want:
        return True
    # ^X / ~X.Y pin the major (and minor for 0.x or ~)
    n = 1 if want[0] != "0" and not requested.startswith("~") else min(2, len(want))
    return have[:n] == want[:n]


def _content_type(path: Path) -> str:
    if path.suffix in (".js", ".mjs"):
        return "application/javascript; charset=utf-8"
    return mimetypes.guess_type(path.name)[0] or "application/octet-stream"


def open_static_html(page, html: os.PathLike | str, *, console=None, timeout: float = 60_000) -> StaticSite:
    """Open an exported HTML file at a fake https origin, serving CDN files
    from node_modules and aborting any other outside request.

    ``html`` is a path to the file (its folder is served at the same origin
    for relative links). Pass the page's :class:`~.harness.ConsoleLog` as
    ``console`` so aborted requests do not count as console errors.
    """
    check_node_modules()
    html = Path(html)
    folder = html.parent.resolve()
    site = StaticSite(url=f"{STATIC_ORIGIN}/{html.name}")
    probes = {f"{STATIC_ORIGIN}/{m}.js" for m in widget_modules(html.read_text(encoding="utf-8"))}

    def handler(route):
        url = route.request.url
        if url.startswith(STATIC_ORIGIN + "/"):
            rel = unquote(urlsplit(url).path).lstrip("/")
            target = (folder / rel).resolve()
            if target.is_file() and folder in target.parents:
                site.served.append((url, str(target)))
                return route.fulfill(path=str(target), content_type=_content_type(target))
            site.missing.append(url)
            if console is not None and url in probes:
                console.expected_failures.add(url)
            return route.fulfill(status=404, body="not found")
        m = _CDN_NPM.match(url)
        if m and m.group("pkg") in SERVED_PACKAGES:
            pkg, ver = m.group("pkg"), m.group("ver") or "*"
            rest = unquote(m.group("rest").split("?", 1)[0].split("#", 1)[0])
            target = (NODE_MODULES / pkg / rest).resolve()
            if target.is_file() and (NODE_MODULES / pkg).resolve() in target.parents:
                installed = installed_npm_version(pkg)
                if not _range_ok(unquote(ver), installed):
                    site.version_notes.append(
                        f"{pkg}: page asks {unquote(ver)}, node_modules has {installed}"
                    )
                site.served.append((url, str(target)))
                return route.fulfill(path=str(target), content_type=_content_type(target))
        if _CDN_REQUIREJS.match(url):
            target = NODE_MODULES / "requirejs" / "require.js"
            site.served.append((url, str(target)))
            return route.fulfill(path=str(target), content_type=_content_type(target))
        if _CDN_MATHJAX.match(url):
            site.stubbed.append(url)
            return route.fulfill(
                status=200,
                body="/* MathJax stubbed offline by the e2e harness */",
                content_type="application/javascript",
            )
        site.aborted.append(url)
        if console is not None:
            console.expected_failures.add(url)
        return route.abort()

    page.route(re.compile(r"^(https?|wss?)://.*"), handler)
    page.goto(site.url, wait_until="load", timeout=timeout)
    return site


def render_static(
    page,
    cells_or_nb: Any,
    out_dir: os.PathLike | str,
    *,
    name: str = "export",
    console=None,
    timeout: float = 60_000,
):
    """Execute + export + open in one call. Returns ``(site, html_path)``."""
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    nb = execute_notebook(cells_or_nb, cwd=out_dir)
    html_path = out_dir / f"{name}.html"
    export_html(nb, html_path)
    site = open_static_html(page, html_path, console=console, timeout=timeout)
    return site, html_path


def wait_for_widgets_rendered(page, *, count: int = 1, timeout: float = 30_000) -> None:
    """Wait until the html-manager has attached ``count`` widget views.

    anywidget's ``render`` may still be running (its ESM loads async): wait
    on your own selectors for content."""
    page.wait_for_function(
        "(n) => document.querySelectorAll('.widget-subarea > .lm-Widget').length >= n",
        arg=count,
        timeout=timeout,
    )
