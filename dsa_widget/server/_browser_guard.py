"""Imported first by :mod:`dsa_widget.server`: in the browser's Python (Pyodide) the seat server
cannot run (no sockets to listen on), and this says so in one line instead of an ImportError of
Starlette or uvicorn."""

from __future__ import annotations

from ..core.browser import require_real_python

require_real_python("the seat server (dsa_widget.server)")
