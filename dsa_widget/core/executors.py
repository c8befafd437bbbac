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

import contextlib
import os
import pickle
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from .browser import IN_BROWSER, NotInBrowserError
from .errors import GameError, is_int

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


#: seconds to wait for a TCP answer from a cluster's address before Ray is asked to join it
CONNECT_TIMEOUT = 5.0

#: Ray's wait for a cluster that answers but will not let this process in (a wrong token, say),
#: in seconds; Ray's own default is about 20 (``RAY_gcs_server_port_wait_time_s`` overrides it)
_JOIN_WAIT_S = "5"
_JOIN_WAIT_VAR = "RAY_gcs_server_port_wait_time_s"  # Ray's spelling

#: the addresses this process joined, as given, with the cluster each named (``host:port``)
_JOINED: dict[str, str] = {}

_AUTH_HELP = (
    "set RAY_AUTH_MODE=token and RAY_AUTH_TOKEN=<the cluster's token> (or RAY_AUTH_TOKEN_PATH=<a file "
    "holding it>; 'ray get-auth-token' prints it on the head) in the environment before the first "
    "Ray call"
)


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0].strip() if text else type(e).__name__


def _split(address: str) -> tuple[str, int]:
    """``"host:port"`` as its two parts, or a clear error (a Ray address names the head's port)."""
    host, colon, port = address.rpartition(":")
    host = host.strip("[]")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ExecutorError(
            f"a Ray address is 'auto', 'local' or host:port (the head's port, 6379 unless "
            f"'ray start --head --port' chose another), got {address!r}"
        )
    return host, int(port)


def _probe(address: str) -> None:
    """Raise :class:`ExecutorError` in at most :data:`CONNECT_TIMEOUT` seconds when nothing
    listens at ``address`` (Ray itself would retry for minutes)."""
    import socket

    host, port = _split(address)
    try:
        with socket.create_connection((host, port), timeout=CONNECT_TIMEOUT) as conn:
            speaks = _speaks_grpc(conn)
    except OSError as e:
        why = (
            f"no answer in {CONNECT_TIMEOUT:g} s"
            if isinstance(e, TimeoutError)
            else (e.strerror or type(e).__name__).lower()
        )
        raise ExecutorError(
            f"no Ray cluster answers at {address} ({why}); "
            f"start one with 'ray start --head --port={port}' or give the head's host:port"
        ) from None
    if not speaks:
        raise ExecutorError(
            f"something listens at {address} but it is not a Ray cluster's head (no gRPC answer "
            f"in {CONNECT_TIMEOUT:g} s); give the head's host:port (6379 unless "
            "'ray start --head --port' chose another)"
        )


#: what an HTTP/2 client sends first: the preface, then an empty SETTINGS frame
_H2_HELLO = b"PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n" + bytes([0, 0, 0, 4, 0, 0, 0, 0, 0])


def _speaks_grpc(conn: Any) -> bool:
    """Whether the server on ``conn`` (a connected socket) answers an HTTP/2 hello with a
    SETTINGS frame, as Ray's GCS (a gRPC server) does; Ray would retry anything else for
    minutes."""
    try:
        conn.sendall(_H2_HELLO)
        head = b""
        while len(head) < 9:
            part = conn.recv(9 - len(head))
            if not part:
                return False
            head += part
    except OSError:
        return False
    return head[3] == 4  # the frame's type: SETTINGS


def _resolve(host: str) -> set[str]:
    import socket

    try:
        return {str(a[4][0]) for a in socket.getaddrinfo(host, None)}
    except OSError:
        return {host}


def _same_cluster(ray: Any, address: str, current: str) -> bool:
    """Whether ``address`` (as a user gives it) names the cluster Ray calls ``current``."""
    if _JOINED.get(address) == current or address == current:
        return True
    host, port = _split(address)
    here, here_port = _split(current)
    if port != here_port:
        return False
    ips, here_ips = _resolve(host), _resolve(here)
    if ips & here_ips:
        return True
    # a cluster on this machine: Ray names it by the machine's address, the user by loopback
    try:
        node_ip = str(ray.util.get_node_ip_address())
    except Exception:  # noqa: BLE001 - a Ray that cannot say: not the same
        return False
    return node_ip in here_ips and any(ip.startswith("127.") or ip == "::1" for ip in ips)


def _target(address: str | None) -> str | None:
    """The ``host:port`` to join for ``address``, or ``None`` to start a local cluster."""
    env = os.environ.get("RAY_ADDRESS", "").strip()
    if address in (None, "local") and env:
        address = env  # Ray itself would join it: check it the same way
    if address in (None, "local"):
        return None
    assert address is not None
    if address.startswith("ray://"):
        raise ExecutorError(
            f"{address}: the Ray Client (ray://) is not supported; run on a node of the cluster "
            "with address='auto' or the head's host:port (or submit the script with 'ray job submit')"
        )
    if address == "auto":
        from ray._private.services import canonicalize_bootstrap_address_or_die

        try:
            return str(canonicalize_bootstrap_address_or_die("auto"))
        except (ConnectionError, ValueError) as e:
            raise ExecutorError(
                f"address='auto' found no running Ray cluster on this machine ({_first_line(e)}); "
                "start one with 'ray start --head' or give the head's host:port"
            ) from None
    _split(address)
    return address


@contextlib.contextmanager
def _stderr_held() -> Iterator[None]:
    """Standard error (file descriptor 2) held in a temporary file meanwhile: written out if the
    block succeeds, dropped if it raises.  Ray's C++ client prints a warning line for each retry
    of a join that fails; the failure is then reported as one line by the caller instead."""
    sys.stderr.flush()
    try:
        saved = os.dup(2)
    except OSError:  # no descriptor 2 (a detached process): nothing to hold
        yield
        return
    with tempfile.TemporaryFile() as held:
        os.dup2(held.fileno(), 2)
        ok = False
        try:
            yield
            ok = True
        finally:
            sys.stderr.flush()
            os.dup2(saved, 2)
            os.close(saved)
            if ok:
                held.seek(0)
                text = held.read().decode(errors="replace")
                if text:
                    sys.stderr.write(text)


def _join(ray: Any, address: str, target: str) -> None:
    """``ray.init`` at ``target``, its failures as one-line :class:`ExecutorError`."""
    _probe(target)
    waited = os.environ.get(_JOIN_WAIT_VAR)
    if waited is None:
        os.environ[_JOIN_WAIT_VAR] = _JOIN_WAIT_S
    try:
        with _stderr_held():
            ray.init(address=target, log_to_driver=False, configure_logging=False)
    except Exception as e:  # noqa: BLE001 - Ray raises ConnectionError, RuntimeError, its own kinds
        chain: list[str] = []
        c: BaseException | None = e
        while c is not None and len(chain) < 5:
            chain.append(f"{type(c).__name__}: {c}")
            c = c.__cause__ or c.__context__
        text = " ".join(chain)
        if "auth" in text.lower() and ("token" in text.lower() or "unauthenticated" in text.lower()):
            raise ExecutorError(
                f"the Ray cluster at {target} requires token authentication and did not accept "
                f"this process's token (RAY_AUTH_MODE={os.environ.get('RAY_AUTH_MODE', 'unset')}): "
                + _AUTH_HELP
            ) from None
        raise ExecutorError(f"could not join the Ray cluster at {target}: {_first_line(e)}") from None
    finally:
        if waited is None:
            os.environ.pop(_JOIN_WAIT_VAR, None)
    _JOINED[address] = _JOINED[target] = str(ray.get_runtime_context().gcs_address)


def connect_ray(address: str | None = None) -> Any:
    """The ``ray`` module, connected to the cluster at ``address``: ``"host:port"`` (the head's
    port), ``"auto"`` (the cluster ``ray start`` started on this machine, or ``RAY_ADDRESS``),
    or ``None`` / ``"local"`` (a local cluster started on this machine, or ``RAY_ADDRESS`` when
    it is set).  When Ray is already initialised in this process, ``None``, ``"local"`` and
    ``"auto"`` use that connection, the same cluster's address reuses it, and another address
    raises :class:`ExecutorError` naming both (a process joins one cluster).

    Nothing listening at the address fails in seconds (:data:`CONNECT_TIMEOUT`), a cluster
    that refuses this process's token names the variables to set, and ``ray://`` (the Ray
    Client, which the ``ray`` extra does not install) is refused: every failure is an
    :class:`ExecutorError` of one line."""
    if IN_BROWSER:
        raise NotInBrowserError("executor='ray' (a Ray cluster)")
    try:
        import ray
    except ImportError as e:
        raise ExecutorError(
            "executor='ray' needs Ray: pip install dsa_widget[ray] (or pip install ray)"
        ) from e
    if address is not None and not isinstance(address, str):
        raise ExecutorError(f"a Ray address is a str ('auto', 'local' or host:port), got {address!r}")
    if ray.is_initialized():
        if address in (None, "local", "auto"):
            return ray
        if address.startswith("ray://"):
            _target(address)  # raises
        current = str(ray.get_runtime_context().gcs_address)
        if not _same_cluster(ray, address, current):
            raise ExecutorError(
                f"Ray in this process is connected to the cluster at {current}, not {address}: "
                f"pass address={current!r} (or None), or call ray.shutdown() first to join {address}"
            )
        return ray
    target = _target(address)
    if target is None:
        # a local cluster on this machine, quiet; it stays up for the next run
        try:
            ray.init(include_dashboard=False, log_to_driver=False, configure_logging=False)
        except Exception as e:  # noqa: BLE001 - Ray raises RuntimeError, ConnectionError, its own kinds
            raise ExecutorError(f"could not start a local Ray cluster: {_first_line(e)}") from e
    else:
        _join(ray, address or target, target)
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
    except BaseException as e:
        for r in pending:
            ray.cancel(r, force=True)
        cause = getattr(e, "cause", None)
        if isinstance(e, ray.exceptions.RayTaskError) and isinstance(cause, Exception):
            # the worker's own error (a bot's BotError, say), its message one line as here
            raise cause from e
        if isinstance(e, ray.exceptions.RayError):
            # the cluster failed under the run (a node lost, the head gone): one line
            raise ExecutorError(f"the Ray cluster failed during the run: {_first_line(e)}") from e
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
    """``None`` → every core (one in the browser, which has no worker processes); else at least one.

    >>> default_workers(3), default_workers(0)
    (3, 1)
    >>> default_workers("2")
    Traceback (most recent call last):
    ...
    ValueError: workers must be None (every core) or a whole number of processes, got '2'
    """
    if workers is None:
        return 1 if IN_BROWSER else (os.cpu_count() or 1)
    if not is_int(workers):
        raise ValueError(f"workers must be None (every core) or a whole number of processes, got {workers!r}")
    return max(1, workers)
