"""What Python in a web browser (Pyodide, in a JupyterLite site) cannot do, said in one line.

A published site (``bash scripts/lite.sh``) runs the package in the browser's Python: the games,
bots, hints, the probability overlay, what-if and the lessons all run there as plain Python (no
numba, no mypyc: both are optional here too).  What needs an operating system the browser does
not give (a server with sockets, worker processes, a Ray cluster) stops with
:class:`NotInBrowserError` naming what to do instead; work that is merely faster on several
processes runs in the kernel's own process instead.

>>> IN_BROWSER  # (this doctest runs in a real Python)
False
>>> require_real_python("the seat server")  # nothing happens outside the browser
>>> print(NotInBrowserError("the seat server"))
the seat server needs a real Python (a Jupyter server or a shell), not the browser's (Pyodide, JupyterLite)
"""

from __future__ import annotations

import sys
from typing import Any

from .errors import GameError

__all__ = ["IN_BROWSER", "NotInBrowserError", "from_browser", "require_real_python"]

#: True in the browser's Python (Pyodide: ``sys.platform == "emscripten"``)
IN_BROWSER: bool = sys.platform == "emscripten"


def _js_null() -> object:
    """Pyodide's stand-in for JavaScript's ``null`` (``pyodide.ffi.jsnull``), or None elsewhere."""
    if not IN_BROWSER:
        return None
    try:
        from pyodide.ffi import jsnull  # type: ignore[import-not-found]
    except ImportError:  # an older Pyodide hands null over as None
        return None
    return jsnull


#: what a board's JSON ``null`` arrives as in this Python (None but in Pyodide)
JS_NULL: object = _js_null()


def from_browser(content: Any, null: object = None) -> Any:
    """A message from a board as plain Python: Pyodide (JupyterLite) hands a JSON ``null`` over
    as ``pyodide.ffi.jsnull``, not None, so a message such as "show the live game" (a scrub to
    step ``null``) was refused there as malformed; this gives None back, in dicts and lists at
    any depth.  ``null``: the stand-in to replace (by default this Python's, :data:`JS_NULL`);
    outside Pyodide there is none and the message is returned as it is.

    >>> from_browser({"type": "scrub", "step": None})
    {'type': 'scrub', 'step': None}
    >>> NULL = object()  # as Pyodide's jsnull
    >>> from_browser({"step": NULL, "seats": [1, NULL]}, null=NULL)
    {'step': None, 'seats': [1, None]}
    """
    null = JS_NULL if null is None else null
    return content if null is None else _without(content, null)


def _without(content: Any, null: object) -> Any:
    if content is null:
        return None
    if isinstance(content, dict):
        return {k: _without(v, null) for k, v in content.items()}
    if isinstance(content, list):
        return [_without(v, null) for v in content]
    return content


class NotInBrowserError(GameError):
    """``what`` cannot run in the browser's Python; a notebook shows this one line, no traceback.

    >>> NotInBrowserError("Ray")._render_traceback_()[0][:48]
    'NotInBrowserError: Ray needs a real Python (a Ju'
    """

    def __init__(self, what: str) -> None:
        where = "a real Python (a Jupyter server or a shell), not the browser's (Pyodide, JupyterLite)"
        super().__init__(f"{what} needs {where}")

    def _render_traceback_(self) -> list[str]:
        # IPython shows what this returns instead of the traceback: the one line is the news
        return [f"{type(self).__name__}: {self}"]


def require_real_python(what: str) -> None:
    """Raise :class:`NotInBrowserError` for ``what`` when running in the browser's Python."""
    if IN_BROWSER:
        raise NotInBrowserError(what)
