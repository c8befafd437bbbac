"""One progress bar for long work: a notebook bar in a running kernel, text on stderr elsewhere.

>>> bar = Progress(3, enabled=False, unit="games")
>>> for i in (1, 2, 3): bar.update(i)
>>> bar.close()
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from typing import Any, cast

from .browser import IN_BROWSER

__all__ = ["Progress", "in_kernel"]


def in_kernel() -> bool:
    """True inside a running Jupyter kernel (not merely when IPython is importable)."""
    try:
        from IPython import get_ipython
    except Exception:  # noqa: BLE001
        return False
    ip = get_ipython()
    if ip is None:
        return False
    # the browser's Python (a JupyterLite notebook) is a kernel with widgets too
    return IN_BROWSER or "IPKernelApp" in getattr(ip, "config", {})


class Progress:
    """``total`` steps of ``unit``; ``update(done)`` as work completes (throttled to 4 a second)."""

    def __init__(self, total: int, enabled: bool = True, unit: str = "games") -> None:
        self.total = total
        self.enabled = enabled
        self.unit = unit
        self.start = time.perf_counter()
        self.last = 0.0
        self.widget: Any = None
        if not enabled:
            return
        if in_kernel():
            try:
                import ipywidgets as w
                from IPython.display import display as _display

                # IPython's display() carries no annotations; it takes any objects
                display = cast("Callable[..., None]", _display)

                self.bar = w.IntProgress(value=0, min=0, max=total, description=unit)
                self.label = w.Label(f"0 of {total}")
                self.widget = w.HBox([self.bar, self.label])
                display(self.widget)
            except Exception:  # noqa: BLE001 - fall back to text
                self.widget = None

    def _eta(self, done: int) -> str:
        dt = time.perf_counter() - self.start
        rate = done / dt if dt > 0 else 0.0
        if done >= self.total:
            return f"{rate:.1f} {self.unit} a second, {dt:.1f} s"
        eta = (self.total - done) / rate if rate > 0 else float("nan")
        return f"{rate:.1f} {self.unit} a second, about {eta:.0f} s left"

    def update(self, done: int) -> None:
        if not self.enabled or self.last < 0:
            return
        now = time.perf_counter()
        if done < self.total and now - self.last < 0.25:
            return
        self.last = now
        if self.widget is not None:
            self.bar.value = done
            self.label.value = f"{done} of {self.total} ({self._eta(done)})"
            if done >= self.total:
                self.last = -1.0
            return
        width = 30
        filled = int(width * done / self.total) if self.total else width
        sys.stderr.write(
            # "x of y", never "x/y": JupyterLab takes a slash in an output for a file path to link
            f"\r[{'#' * filled}{'.' * (width - filled)}] {done} of {self.total} {self.unit} "
            f"({self._eta(done)})   "
        )
        if done >= self.total:
            sys.stderr.write("\n")
            self.last = -1.0  # finished: no more output
        sys.stderr.flush()

    def close(self) -> None:
        """Nothing to do for text; a notebook bar stays as a record of the run."""
