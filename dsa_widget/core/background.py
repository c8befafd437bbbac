"""Work that must not hold up a board: run it beside the kernel, deliver its result on the kernel.

A board publishes its state first and its slow extras after (the hints' figures, whose first
computation in a fresh install compiles numba code for many seconds). :func:`in_background`
runs such work in a daemon thread when a live Jupyter kernel can take the result back on its
own event loop (``kernel.io_loop``, whose ``add_callback`` is safe from any thread); the
result then reaches ``done`` on the kernel's thread, where widget traits may be set. Anywhere
else (a script, the tests without a kernel, the browser's Python, which has no threads) the
work runs at once and ``done`` is called before :func:`in_background` returns, so what a board
shows never depends on which of the two happened, only on when.

>>> got = []
>>> in_background(lambda: 6 * 7, got.append)  # no kernel here: at once
False
>>> got
[42]
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any, TypeVar

from .browser import IN_BROWSER

__all__ = ["in_background", "kernel_loop"]

T = TypeVar("T")


def kernel_loop() -> Any:
    """The running Jupyter kernel's event loop (a tornado ``IOLoop``), or ``None`` outside one."""
    if IN_BROWSER:
        return None
    try:
        from IPython import get_ipython
    except Exception:  # noqa: BLE001 - no IPython: no kernel
        return None
    kernel = getattr(get_ipython(), "kernel", None)
    loop = getattr(kernel, "io_loop", None)
    return loop if callable(getattr(loop, "add_callback", None)) else None


def in_background(
    work: Callable[[], T], done: Callable[[T], None], *, name: str = "dsa-background", wait: float = 0.0
) -> bool:
    """Run ``work()`` and hand its result to ``done``; True when that was deferred.

    In a live kernel ``work`` runs in a daemon thread; if it finishes within ``wait`` seconds,
    ``done`` is called here, before returning False (so quick work changes nothing for the
    caller), else later on the kernel's loop, and True is returned. ``done`` always runs on the
    kernel's (or the caller's) thread. An exception in ``work`` is raised again on that thread
    (``done`` is not called)."""
    loop = kernel_loop()
    if loop is None:
        done(work())
        return False
    lock = threading.Lock()
    result: list[Any] = []
    given_up = [False]  # the caller stopped waiting: the thread hands the result to the loop
    ready = threading.Event()

    def run() -> None:
        try:
            out: Any = (True, work())
        except BaseException as e:  # noqa: BLE001 - raised again on the kernel's thread
            out = (False, e)
        with lock:
            result.append(out)
            if given_up[0]:
                loop.add_callback(_deliver, done, out)
        ready.set()

    threading.Thread(target=run, name=name, daemon=True).start()
    ready.wait(wait)
    with lock:
        if not result:
            given_up[0] = True
            return True
    _deliver(done, result[0])
    return False


def _deliver(done: Callable[[Any], None], out: tuple[bool, Any]) -> None:
    ok, value = out
    if not ok:
        raise value
    done(value)
