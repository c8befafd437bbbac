"""numba for the compiled kernels, loaded once: each game's kernel module takes ``jit``,
``COMPILED`` and ``np`` from here instead of repeating the loading.

numba (with numpy) is used when it is importable (the ``fast`` extra) and the environment
variable ``DSA_WIDGET_NO_NUMBA`` is unset, ``""`` or ``"0"``; otherwise ``jit`` returns the
function unchanged and the kernels run as plain Python on lists.
"""

from __future__ import annotations

import importlib
import os
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["COMPILED", "jit", "np", "numba"]

_F = TypeVar("_F", bound=Callable[..., Any])

numba: Any = None
np: Any = None
if os.environ.get("DSA_WIDGET_NO_NUMBA", "") in ("", "0"):
    try:
        numba = importlib.import_module("numba")
        np = importlib.import_module("numpy")
    except ImportError:  # the fast extra is not installed: plain Python
        numba = None

#: True when the kernels run compiled by numba in this process
COMPILED: bool = numba is not None


def jit(f: _F) -> _F:
    """``numba.njit(cache=True, nogil=True)`` when numba is in use, else ``f`` itself."""
    if numba is None:
        return f
    return numba.njit(cache=True, nogil=True)(f)  # type: ignore[no-any-return]
