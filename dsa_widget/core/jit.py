"""numba for the compiled kernels, loaded once: each game's kernel module takes ``jit``,
``COMPILED`` and ``np`` from here instead of repeating the loading.

numba (with numpy) is used when it is importable (the ``fast`` extra) and the environment
variable ``DSA_WIDGET_NO_NUMBA`` is unset, ``""`` or ``"0"``; otherwise ``jit`` returns the
function unchanged and the kernels run as plain Python on lists.
"""

from __future__ import annotations

import importlib
import os
import types
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["COMPILED", "jit", "np", "numba", "plain_copy"]

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


def jit(f: _F, /, **options: Any) -> _F:
    """``numba.njit(cache=True, nogil=True, **options)`` when numba is in use, else ``f`` itself.

    ``options`` are numba's own (``error_model="numpy"``, ``inline="always"``): a kernel whose
    functions take some calls ``jit(f, **options)`` from its own decorator.
    """
    if numba is None:
        return f
    return numba.njit(cache=True, nogil=True, **options)(f)  # type: ignore[no-any-return]


def plain_copy(namespace: dict[str, Any], names: list[str], **overrides: Any) -> dict[str, Any]:
    """A copy of a kernel module's globals in which the functions ``names`` run as plain Python,
    whatever :data:`COMPILED` says, and ``overrides`` replace globals of this copy only (the
    tests give a kernel a wrong rule to check that it is caught).  An unknown override raises
    ``KeyError``.

    >>> def twice(x):
    ...     return 2 * x
    >>> ns = plain_copy({"twice": twice, "k": 2}, ["twice"], k=3)
    >>> ns["twice"](4), ns["twice"] is not twice, ns["k"]
    (8, True, 3)
    """
    ns = dict(namespace)
    for name in names:
        f = ns[name]
        code = getattr(f, "py_func", f).__code__
        ns[name] = types.FunctionType(code, ns, name)
    for key, value in overrides.items():
        if key not in ns:
            raise KeyError(key)
        ns[key] = value
    return ns
