"""Where long, seeded work runs: in this process, on the local process pool, or on a Ray cluster.

Tournaments and win estimates split their work into *chunks* (lists of game or block
numbers).  Every random number of a chunk is derived from the run's seed and the numbers in
it, never from the worker that plays it, so the same seed gives the same results on every
backend: ``"local"`` (this process), ``"process"`` (the local process pool, the default)
and ``"ray"`` (a Ray cluster; ``pip install dsa_widget[ray]``).

The work is shipped once per run: with :mod:`pickle` when it can be, else with
`cloudpickle <https://github.com/cloudpipe/cloudpickle>`_ (which Ray uses too) when it is
installed, so a lambda or a notebook-defined bot plays on every core.  Work that neither can
ship raises :class:`ExecutorError` naming the fix.

In the browser's Python (Pyodide, a JupyterLite site) there are no worker processes:
``"process"`` runs in this process (the same results: the seed decides them, not the
backend), and ``"ray"`` raises :class:`~dsa_widget.core.browser.NotInBrowserError`.

>>> run_chunks(_square_all, 10, [[1, 2], [3]], executor="local")
[[10, 40], [90]]
"""

from __future__ import annotations

import os
import pickle
import sys
from collections.abc import Callable, Sequence
from typing import Any

from .browser import IN_BROWSER, NotInBrowserError
from .errors import GameError

__all__ = [
    "EXECUTORS",
    "ExecutorError",
    "chunk_sizes",
    "connect_ray",
    "default_workers",
    "ray_cpus",
    "run_chunks",
]

#: the backends :func:`run_chunks` knows
EXECUTORS = ("local", "process", "ray")


class ExecutorError(GameError):
    """A backend that cannot run this work (unknown name, Ray missing, work that cannot be shipped)."""


def _square_all(k: int, chunk: Sequence[int]) -> list[int]:
    """(the doctest's work: ``k`` times each number squared)"""
    return [k * i * i for i in chunk]


def chunk_sizes(total: int, workers: int, *, per_worker: int = 8, largest: int = 1000) -> int:
    """A chunk size for ``total`` items on ``workers``: about ``per_worker`` chunks each (so the
    progress bar moves and the load balances), at most ``largest`` items in one.

    >>> chunk_sizes(100_000, 2), chunk_sizes(10, 2)
    (1000, 1)
    """
    return max(1, min(largest, total // (max(1, workers) * per_worker)))


def _ship(payload: Any, what: str) -> tuple[str, bytes]:
    """The payload as bytes for another process: pickle, else cloudpickle, else a clear error."""
    try:
        return "pickle", pickle.dumps(payload)
    except Exception as e:  # noqa: BLE001 - pickle raises many kinds (PicklingError, TypeError, ...)
        first = e
    try:
        import cloudpickle
    except ImportError:
        raise ExecutorError(
            f"{what} cannot be sent to worker processes ({type(first).__name__}: {first}); "
            "a lambda or a function defined in a notebook needs cloudpickle "
            "(pip install cloudpickle, or dsa_widget[ray]), or define it in a module, "
            "or pass workers=1 to play in this process"
        ) from first
    try:
        return "cloudpickle", bytes(cloudpickle.dumps(payload))
    except Exception as e:  # noqa: BLE001
        raise ExecutorError(
            f"{what} cannot be sent to worker processes, even with cloudpickle "
            f"({type(e).__name__}: {e}); pass workers=1 to play in this process"
        ) from e


_LOADED: dict[bytes, Any] = {}


def _unship(kind: str, blob: bytes) -> Any:
    # a worker process keeps the last payload it loaded: each chunk of a run reuses it
    hit = _LOADED.get(blob)
    if hit is not None:
        return hit
    payload = pickle.loads(blob)  # cloudpickle's output loads with plain pickle
    _LOADED.clear()
    _LOADED[blob] = payload
    return payload


def _run_shipped(args: tuple[Callable[[Any, Any], Any], str, bytes, Any]) -> Any:
    fn, kind, blob, chunk = args
    return fn(_unship(kind, blob), chunk)


def _process_pool(
    fn: Callable[[Any, Any], Any],
    shipped: tuple[str, bytes],
    chunks: Sequence[Any],
    workers: int,
    done: Callable[[int, Any], None],
) -> None:
    import concurrent.futures as cf
    import multiprocessing as mp

    ctx = (
        mp.get_context("fork")
        if "fork" in mp.get_all_start_methods() and sys.platform != "darwin"
        else mp.get_context()
    )
    with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as ex:
        futs = {ex.submit(_run_shipped, (fn, *shipped, c)): i for i, c in enumerate(chunks)}
        try:
            for f in cf.as_completed(futs):
                done(futs[f], f.result())
        except BaseException:
            for f in futs:
                f.cancel()
            raise


def connect_ray(address: str | None = None) -> Any:
    """The ``ray`` module, connected: to the cluster at ``address`` (``"auto"``: the running
    one), or to a local cluster started on this machine (``None`` / ``"local"``) unless Ray
    is already initialised in this process."""
    if IN_BROWSER:
        raise NotInBrowserError("executor='ray' (a Ray cluster)")
    try:
        import ray
    except ImportError as e:
        raise ExecutorError(
            "executor='ray' needs Ray: pip install dsa_widget[ray] (or pip install ray)"
        ) from e
    if not ray.is_initialized():
        if address in (None, "local"):
            # a local cluster on this machine, quiet; it stays up for the next run
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
        else:
            ray.init(address=address, log_to_driver=False, configure_logging=False)
    return ray


def ray_cpus(address: str | None = None) -> int:
    """The CPUs of the Ray cluster (connecting first), at least one."""
    ray = connect_ray(address)
    try:
        return max(1, int(ray.cluster_resources().get("CPU", 1)))
    except Exception:  # noqa: BLE001 - a cluster that cannot say: assume two
        return 2


def _ray(
    fn: Callable[[Any, Any], Any],
    payload: Any,
    chunks: Sequence[Any],
    address: str | None,
    done: Callable[[int, Any], None],
    what: str,
) -> None:
    ray = connect_ray(address)
    try:
        ref = ray.put(payload)
    except Exception as e:  # noqa: BLE001 - Ray wraps cloudpickle's errors in its own types
        raise ExecutorError(f"{what} cannot be sent to the Ray cluster ({type(e).__name__}: {e})") from e
    remote = ray.remote(_ray_task).options(max_retries=0)
    pending = {remote.remote(fn, ref, c): i for i, c in enumerate(chunks)}
    try:
        while pending:
            ready, _ = ray.wait(list(pending), num_returns=1)
            for r in ready:
                done(pending.pop(r), ray.get(r))
    except BaseException:
        for r in pending:
            ray.cancel(r, force=True)
        raise


def _ray_task(fn: Callable[[Any, Any], Any], payload: Any, chunk: Any) -> Any:
    # Ray resolves the object-store reference before the call: ``payload`` is the value
    return fn(payload, chunk)


def run_chunks(
    fn: Callable[[Any, Any], Any],
    payload: Any,
    chunks: Sequence[Any],
    *,
    executor: str = "process",
    workers: int = 2,
    address: str | None = None,
    on_chunk: Callable[[int, Any], None] | None = None,
    what: str = "the work",
) -> list[Any]:
    """``[fn(payload, chunk) for chunk in chunks]``, run on ``executor``.

    ``fn`` must be a module-level function (it is sent by reference); ``payload`` is shipped
    once (pickle, else cloudpickle).  ``workers`` processes for ``"process"`` (one means this
    process); ``address`` a Ray address for ``"ray"`` (``None`` or ``"local"``: start a local
    cluster unless one is running; ``"auto"``: join the running one).  ``on_chunk(i, result)``
    is called as each chunk finishes, in completion order (for a progress bar); the results
    come back in chunk order.  ``what`` names the work in error messages.
    """
    if executor not in EXECUTORS:
        raise ExecutorError(f"executor must be one of {', '.join(map(repr, EXECUTORS))}, got {executor!r}")
    results: list[Any] = [None] * len(chunks)

    def done(i: int, r: Any) -> None:
        results[i] = r
        if on_chunk is not None:
            on_chunk(i, r)

    if executor == "ray":
        _ray(fn, payload, chunks, address, done, what)
    elif executor == "process" and workers > 1 and len(chunks) > 1 and not IN_BROWSER:
        shipped = _ship(payload, what)
        _process_pool(fn, shipped, chunks, min(workers, len(chunks)), done)
    else:
        for i, c in enumerate(chunks):
            done(i, fn(payload, c))
    return results


def default_workers(workers: int | None) -> int:
    """``None`` → every core (one in the browser, which has no worker processes); else at least one."""
    if workers is None:
        return 1 if IN_BROWSER else (os.cpu_count() or 1)
    return max(1, int(workers))
