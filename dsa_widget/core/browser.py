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

from .errors import GameError

__all__ = ["IN_BROWSER", "NotInBrowserError", "require_real_python"]

#: True in the browser's Python (Pyodide: ``sys.platform == "emscripten"``)
IN_BROWSER: bool = sys.platform == "emscripten"


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
