"""Build the static JupyterLite site: the example notebooks, playable in the browser, no server.

Run through ``bash scripts/lite.sh`` (it uses the project's ``.venv``).  Every build starts from
nothing: the site folder (``lite-site/`` unless ``--out DIR``) is deleted first and the build
works in a fresh temporary folder (an incremental ``jupyter lite build`` once dropped the
``pyodideUrl`` setting and the kernel went to a CDN).  What goes in, all pinned together:

* JupyterLab and the Pyodide kernel's front end: ``jupyterlite-core`` and
  ``jupyterlite-pyodide-kernel`` (the ``lite`` extra in ``pyproject.toml``), with the front-end
  extensions of anywidget and ipywidgets installed in the build environment;
* the Pyodide runtime from the npm package ``pyodide`` (``package.json``; it must be the version
  the kernel names, checked below), served from the site's ``static/pyodide/``;
* the wheels the kernel loads at start (micropip, IPython and its dependencies, jedi ...) at the
  versions Pyodide's lock names, and this project's wheel with the widget libraries at the
  versions installed where the site is built (so the browser's Python and the front-end
  extensions match).  They are all entries of the site's own ``pyodide-lock.json`` and the
  kernel preloads ``dsa_widget`` from it: a notebook needs no install cell.

Nothing else is shipped: no numpy, numba or Ray (no notebook in the site uses them).

    python scripts/lite_build.py                 # -> lite-site/
    python scripts/lite_build.py --out /tmp/site  # elsewhere (the end-to-end test does this)
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.metadata
import json
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SITE = ROOT / "lite-site"
PYODIDE_NPM = ROOT / "node_modules" / "pyodide"

#: example notebooks that need what a browser cannot have (native libraries: PettingZoo with
#: numpy, OpenSpiel, Ray); they stay out of the site
NOT_IN_BROWSER = {"ai.ipynb": "PettingZoo, OpenSpiel and Ray are native libraries"}

#: the settings key of the Pyodide kernel in ``jupyter-lite.json``
KERNEL_PLUGIN = "@jupyterlite/pyodide-kernel-extension:kernel"

#: the kernel of the site's notebooks (the Pyodide kernel's own name)
PYODIDE_KERNELSPEC = {"name": "python", "display_name": "Python (Pyodide)", "language": "python"}

#: the Pyodide runtime's files (the rest of the npm package is typings, demos and source maps)
RUNTIME_FILES = ("pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip")

#: what the kernel installs at start (``micropip``, then ``ipython`` and ``jedi`` through it);
#: their dependencies follow from the lock
KERNEL_START = ("micropip", "packaging", "ipython", "jedi", "traitlets", "typing-extensions")

#: the project's run-time Python dependencies in the browser and what each one imports from the
#: others (jupyterlab_widgets and widgetsnbextension only carry front-end files: not needed in
#: the kernel); versions: those installed in the build environment
WIDGET_LIBS = {
    "comm": ["traitlets"],
    "psygnal": [],
    "ipywidgets": ["comm", "ipython", "traitlets"],
    "anywidget": ["ipywidgets", "psygnal", "typing-extensions"],
}


def norm(name: str) -> str:
    """A distribution name as lock files and indexes compare them (PEP 503).

    >>> norm("Typing_Extensions")
    'typing-extensions'
    """
    return re.sub(r"[-_.]+", "-", name).lower()


def run(cmd: list[str], **kw: object) -> None:
    print("   $", " ".join(str(c) for c in cmd), flush=True)
    subprocess.run(cmd, check=True, **kw)  # type: ignore[call-overload]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def closure(lock: dict, names: tuple[str, ...]) -> list[str]:
    """Lock keys of ``names`` and everything they depend on, in the lock's own spelling."""
    keys = {norm(k): k for k in lock["packages"]}
    seen: list[str] = []
    todo = [keys[norm(n)] for n in names]
    while todo:
        k = todo.pop()
        if k not in seen:
            seen.append(k)
            todo.extend(keys[norm(d)] for d in lock["packages"][k]["depends"])
    return sorted(seen)


def download(spec: str, dest: Path) -> Path:
    """One pure wheel (``name==version``) for Python 3.14 from the package index, into ``dest``."""
    before = set(dest.glob("*.whl"))
    run(
        [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--only-binary=:all:",
         "--platform", "any", "--python-version", "3.14", "--implementation", "py", "--abi", "none",
         "-d", str(dest), spec],
    )  # fmt: skip
    name = norm(spec.split("==")[0])
    found = [p for p in dest.glob("*.whl") if norm(p.name.split("-")[0]) == name]
    if not found:
        sys.exit(f"lite: pip downloaded no wheel for {spec} (new: {set(dest.glob('*.whl')) - before})")
    return found[0]


def lock_entry(wheel: Path, name: str, version: str, depends: list[str], imports: list[str]) -> dict:
    return {
        "name": name,
        "version": version,
        "file_name": wheel.name,
        "install_dir": "site",
        "sha256": sha256(wheel),
        "package_type": "package",
        "imports": imports,
        "depends": depends,
        "unvendored_tests": False,
    }


def pyodide_folder(dest: Path) -> None:
    """The runtime, the wheels and a lock that names only them, in ``dest``."""
    from jupyterlite_pyodide_kernel.constants import PYODIDE_VERSION

    npm_version = json.loads((PYODIDE_NPM / "package.json").read_text())["version"]
    if npm_version != PYODIDE_VERSION:
        sys.exit(
            f"lite: the npm package pyodide is {npm_version}, the kernel expects {PYODIDE_VERSION}: "
            "change package.json's devDependencies or the lite extra so that they match"
        )
    dest.mkdir(parents=True)
    for f in RUNTIME_FILES:
        shutil.copy2(PYODIDE_NPM / f, dest / f)
    lock = json.loads((PYODIDE_NPM / "pyodide-lock.json").read_text())
    packages = {}
    for key in closure(lock, KERNEL_START):
        entry = dict(lock["packages"][key])
        wheel = download(f"{entry['name']}=={entry['version']}", dest)
        # the same release as Pyodide's build of it, as published on the package index (other hash)
        entry.update(file_name=wheel.name, sha256=sha256(wheel))
        packages[key] = entry
    for name, depends in WIDGET_LIBS.items():
        version = importlib.metadata.version(name)
        wheel = download(f"{name}=={version}", dest)
        packages[name] = lock_entry(wheel, name, version, depends, [name])
    run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(dest), str(ROOT)])
    (wheel,) = dest.glob("dsa_widget-*.whl")
    version = importlib.metadata.version("dsa_widget")
    needs = ["anywidget", "ipywidgets", "traitlets"]
    packages["dsa-widget"] = lock_entry(wheel, "dsa-widget", version, needs, ["dsa_widget"])
    lock["packages"] = packages
    (dest / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))


def for_the_browser(notebook: str) -> str:
    """A notebook's text with the Pyodide kernel named in its metadata: a notebook saved with
    another kernel (``"Python 3"``) would open on a "Select Kernel" dialog in the site.

    >>> nb = json.loads(for_the_browser('{"cells": [], "metadata": {"kernelspec": {"name": "python3"}}}'))
    >>> nb["metadata"]["kernelspec"]["name"]
    'python'
    """
    nb = json.loads(notebook)
    nb["metadata"]["kernelspec"] = dict(PYODIDE_KERNELSPEC)
    return json.dumps(nb, indent=1, ensure_ascii=False) + "\n"


def lite_config() -> dict:
    """``jupyter-lite.json``: the local Pyodide, no PyPI, the project preloaded."""
    return {
        "jupyter-lite-schema-version": 0,
        "jupyter-config-data": {
            "appName": "dsa_widget: play in the browser",
            "exposeAppInBrowser": True,
            "litePluginSettings": {
                KERNEL_PLUGIN: {
                    "pyodideUrl": "./static/pyodide/pyodide.mjs",
                    "disablePyPIFallback": True,
                    "loadPyodideOptions": {"packages": ["dsa-widget"]},
                }
            },
        },
    }


def build(site: Path) -> float:
    """Build the site into ``site`` (deleted first); return the seconds it took."""
    t0 = time.monotonic()
    if site.exists():
        shutil.rmtree(site)
    with tempfile.TemporaryDirectory(prefix="dsa-lite-") as tmp:
        work = Path(tmp)
        print("==> the Pyodide runtime and the wheels it loads (static/pyodide)", flush=True)
        pyodide_folder(work / "static" / "pyodide")
        (work / "jupyter-lite.json").write_text(json.dumps(lite_config(), indent=1))
        files = work / "files"
        files.mkdir()
        for nb in sorted((ROOT / "examples").glob("*.ipynb")):
            if nb.name not in NOT_IN_BROWSER:
                (files / nb.name).write_text(for_the_browser(nb.read_text()))
        print("==> jupyter lite build", flush=True)
        run(
            [sys.executable, "-m", "jupyter", "lite", "build", "--no-sourcemaps", "--contents", "files",
             "--output-dir", str(site)],
            cwd=work,
        )  # fmt: skip
    # a browser asks every site for /favicon.ico: JupyterLite has one, but not there
    shutil.copy2(site / "static" / "favicons" / "favicon.ico", site / "favicon.ico")
    settings = json.loads((site / "jupyter-lite.json").read_text())
    kernel = settings["jupyter-config-data"]["litePluginSettings"][KERNEL_PLUGIN]
    if kernel.get("pyodideUrl") != "./static/pyodide/pyodide.mjs":
        sys.exit(f"lite: the built site lost its local pyodideUrl: {kernel}")
    return time.monotonic() - t0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", type=Path, default=SITE, help="the site's folder (default: lite-site/)")
    site = parser.parse_args(argv).out.resolve()
    seconds = build(site)
    size = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    left_out = ", ".join(f"{k} ({v})" for k, v in NOT_IN_BROWSER.items())
    shown = site.relative_to(Path.cwd()) if site.is_relative_to(Path.cwd()) else site
    print(f"\n==> built in {seconds:.0f} s: {site} ({size / 1e6:.0f} MB)")
    print(f"    left out: {left_out}")
    print(f"    serve it: python -m http.server -d {shown} 8000")
    print("    then open http://127.0.0.1:8000/lab/index.html?path=play.ipynb")


if __name__ == "__main__":
    main()
