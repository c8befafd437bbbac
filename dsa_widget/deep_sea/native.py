"""The checked engine compiled to C by mypyc: how it is built, found and checked.

:mod:`dsa_widget.deep_sea.rules` is plain Python and stays the one source of the rules.  A
compiled twin is built from *a copy of that very file*, named ``_rules_native``, by mypyc (the
compiler that ships with mypy); :mod:`.rules` then puts the compiled classes and functions in
place of its own, so ``from dsa_widget import Game`` gives the compiled ``Game`` with nothing
else changed: the same choices, dice, events, history, records and errors, about three times
as fast.

The twin is used only when it was built from the rules file as it is now: the copy carries the
SHA-256 of the source it came from, and :mod:`.rules` compares it with its own file at import;
a stale build (the rules were edited since) is ignored with a warning, never run.  Set
``DSA_WIDGET_NO_COMPILED=1`` to use the plain Python engine even when a build is there.

Build it with ``python -m dsa_widget compile`` (needs the ``compile`` extra, mypy, and a C
compiler); ``scripts/setup.sh`` does it for a development checkout.  :data:`COMPILED` tells
which engine runs:

>>> from dsa_widget.deep_sea import native
>>> native.COMPILED in (True, False)
True
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

__all__ = ["COMPILED", "MODULE", "build", "built_hash", "source_hash", "status", "up_to_date"]

#: the compiled twin's module name, in this package
MODULE = "_rules_native"

_HERE = Path(__file__).resolve().parent
_RULES = _HERE / "rules.py"
#: the line the build appends to its copy of the rules (the source's hash)
_HASH_LINE = "_SOURCE_HASH = "


def source_hash(text: bytes | None = None) -> str:
    """SHA-256 of the rules source (``text``, else ``rules.py`` as it is now on disk)."""
    return hashlib.sha256(_RULES.read_bytes() if text is None else text).hexdigest()


def status() -> str:
    """One line: which engine :mod:`.rules` runs, and why."""
    from . import rules

    return rules.NATIVE_STATUS


def build(*, quiet: bool = True) -> list[Path]:
    """Compile ``rules.py`` with mypyc into this package; return the extension files written.

    The copy is type-checked in a scratch tree whose package ``__init__`` files are empty, so
    mypy reads only what the rules import (seconds, not minutes).  Raises
    :class:`RuntimeError` with mypyc's output when the compiler fails.
    """
    try:
        import mypyc  # noqa: F401
    except ImportError as e:  # pragma: no cover - the compile extra is installed in CI
        raise RuntimeError("the compiled engine needs mypy (pip install 'dsa_widget[compile]')") from e
    source = _RULES.read_bytes()
    digest = source_hash(source)
    package_root = _HERE.parent  # .../dsa_widget
    with tempfile.TemporaryDirectory(prefix="dsa-native-") as tmp:
        root = Path(tmp)
        tree = root / "dsa_widget"
        shutil.copytree(
            package_root,
            tree,
            ignore=shutil.ignore_patterns("__pycache__", "*.so", "static", "*.nbi", "*.nbc"),
        )
        for init in tree.rglob("__init__.py"):
            init.write_text("")
        copy = tree / "deep_sea" / f"{MODULE}.py"
        copy.write_bytes(source + f"\n{_HASH_LINE}{digest!r}\n".encode())
        # the other modules name ``rules.Game``: in the scratch tree ``rules`` re-exports the
        # copy, so that both are one type to mypy
        (tree / "deep_sea" / "rules.py").write_text(
            "".join(f"from .{MODULE} import {n} as {n}\n" for n in _top_level_names(source))
        )
        (root / "docs.json").write_text(json.dumps(_docstrings(source)))
        (root / "build_native.py").write_text(_DRIVER.format(module=MODULE))
        proc = subprocess.run(
            [sys.executable, "build_native.py"],
            cwd=root,
            capture_output=True,
            text=True,
        )
        if proc.returncode != 0:
            raise RuntimeError(f"mypyc failed:\n{proc.stdout[-4000:]}\n{proc.stderr[-4000:]}")
        if not quiet:
            print(proc.stdout[-2000:])
        written: list[Path] = []
        for old in _HERE.glob(f"{MODULE}*.so"):
            old.unlink()
        for so in (tree / "deep_sea").glob(f"{MODULE}*.so"):
            dest = _HERE / so.name
            shutil.copy2(so, dest)
            written.append(dest)
        if not written:
            raise RuntimeError(f"mypyc wrote no extension module:\n{proc.stdout[-4000:]}")
        return written


def _docstrings(source: bytes) -> dict[str, dict[str, str]]:
    """Every docstring of the rules source: ``{class name or "": {function name: text}}``, the
    class's own under ``"__doc__"`` (mypyc keeps only signatures; the build puts these back)."""
    import ast

    out: dict[str, dict[str, str]] = {"": {}}
    for node in ast.parse(source).body:
        if isinstance(node, ast.FunctionDef):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                out[""][node.name] = doc
        elif isinstance(node, ast.ClassDef):
            mine = out.setdefault(node.name, {})
            doc = ast.get_docstring(node, clean=False)
            if doc:
                mine["__doc__"] = doc
            for item in node.body:
                if isinstance(item, ast.FunctionDef):
                    doc = ast.get_docstring(item, clean=False)
                    if doc and item.name not in mine:  # a property's getter comes first
                        mine[item.name] = doc
    return out


# The build, run in the scratch tree: mypycify writes the C, the docstrings are put into its
# method, property and type tables (mypyc writes only each signature there), then setuptools
# compiles it.
_DRIVER = r"""
import json, re, sys
from pathlib import Path
from setuptools import setup
from mypyc.build import mypycify
from mypyc.codegen.cstring import c_string_initializer

exts = mypycify(["dsa_widget/deep_sea/{module}.py"], opt_level="3", debug_level="0")
docs = json.loads(Path("docs.json").read_text())
LIT = r'((?:"(?:[^"\\]|\\.)*"\s*)+)'

def text(lit):
    parts = re.findall(r'"((?:[^"\\]|\\.)*)"', lit)
    return "".join(parts).encode("latin-1").decode("unicode_escape")

def with_doc(lit, doc):
    return c_string_initializer((text(lit) + doc).encode("utf-8"))

def patch_table(match):
    owner, body = match.group(1), match.group(2)
    table = docs.get("" if owner == "module" else owner, {{}})
    def one(m):
        doc = table.get(m.group(1))
        return m.group(0) if not doc else m.group(0).replace(m.group(2), with_doc(m.group(2), doc))
    return match.group(0).replace(body, re.sub(r'\{{"(\w+)",[^{{}}]*?PyDoc_STR\(' + LIT + r'\)', one, body))

def patch_getset(match):
    owner, body = match.group(1), match.group(2)
    table = docs.get(owner, {{}})
    def one(m):
        doc = table.get(m.group(1))
        if not doc:
            return m.group(0)
        return m.group(0)[: -len("NULL, NULL}}")] + c_string_initializer(doc.encode("utf-8")) + ", NULL}}"
    entry = r'\{{"(\w+)",\s*\(getter\)\w+,\s*(?:NULL|\(setter\)\w+),\s*NULL, NULL\}}'
    return match.group(0).replace(body, re.sub(entry, one, body))

def patch_type(m):
    name = m.group(2).strip()[1:].split("(")[0]
    doc = docs.get(name, {{}}).get("__doc__")
    return m.group(0) if not doc else m.group(1) + with_doc(m.group(2), doc) + ")"

for c in Path("build").rglob("*.c"):
    src = c.read_text()
    src = re.sub(r'static PyMethodDef (\w+?)_methods\[\] = \{{(.*?)\n\}};', patch_table, src, flags=re.S)
    src = re.sub(r'static PyGetSetDef (\w+?)_getseters\[\] = \{{(.*?)\n\}};', patch_getset, src, flags=re.S)
    src = re.sub(r'(\.tp_doc = PyDoc_STR\()' + LIT + r'\)', patch_type, src)
    c.write_text(src)

setup(name="dsa_widget_native", ext_modules=exts, script_args=["build_ext", "--inplace"])
"""


def _top_level_names(source: bytes) -> list[str]:
    """The names a module's top level binds (classes, functions, assignments, imports)."""
    import ast

    names: list[str] = []
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.append(node.name)
        elif isinstance(node, ast.Assign):
            names += [t.id for t in node.targets if isinstance(t, ast.Name)]
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
    return [n for n in dict.fromkeys(names) if n != "__all__"]


def built_hash() -> str | None:
    """The source hash the compiled twin was built from (``None``: no build), read without
    importing :mod:`.rules` (so a build can tell whether it is needed)."""
    import importlib

    try:
        twin = importlib.import_module(f"{__package__}.{MODULE}")
    except ImportError:
        return None
    found = getattr(twin, "_SOURCE_HASH", None)
    return found if isinstance(found, str) else None


def up_to_date() -> bool:
    """Whether a compiled twin of ``rules.py`` as it is now is there."""
    return built_hash() == source_hash()


def __getattr__(name: str) -> bool:
    # COMPILED is read lazily: importing this module (to build) must not import the rules
    if name == "COMPILED":
        from . import rules

        return bool(rules.NATIVE)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


#: True when the rules run compiled (a fresh build of the current rules was found and loaded)
COMPILED: bool
