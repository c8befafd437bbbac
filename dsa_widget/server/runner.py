"""Run a table's app with uvicorn: on the notebook kernel's own event loop, or in a thread.

In a notebook (a running event loop in this thread) the server is a task on that loop, so the
server and the cells never run at the same time and the game needs no lock; a long cell holds
the server up until it ends.  With no running loop (a script) the server gets a thread and a
loop of its own; then act on the game through :meth:`Server.call` (``srv.call(lambda:
w.apply("take"))``), so that the server's thread and yours never change it at once.  From a
shell, ``python -m dsa_widget serve`` runs it in the foreground.
"""

from __future__ import annotations

import asyncio
import contextlib
import socket
import sys
import threading
from collections.abc import Callable, Generator, Sequence
from typing import Any, TypeVar
from urllib.parse import urlsplit

import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol

from ..core import registry
from .app import make_app
from .table import Table

__all__ = ["Server"]

T = TypeVar("T")


class _QuietServer(uvicorn.Server):
    """uvicorn that leaves the signal handlers alone (a kernel's Ctrl-C is the kernel's)."""

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        yield


def _timed_http(timeout: float) -> type[H11Protocol]:
    """uvicorn's HTTP/1.1 protocol with a deadline for each request head: a connection that
    has not sent a whole request (a page, the WebSocket's handshake) within ``timeout``
    seconds of opening, or of its previous response, is closed.  uvicorn's own keep-alive
    timer stops at the first byte, so a request sent a byte at a time would hold its socket
    (and a file descriptor) for ever."""

    class TimedH11(H11Protocol):
        _head_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
            self._head_timer = self.loop.call_later(timeout, self._head_due)

        def _head_due(self) -> None:
            self._head_timer = None
            transport = self.transport
            if transport.is_closing() or transport.get_protocol() is not self:
                return  # closed, or a WebSocket now (its own timers run)
            if self.cycle is None or self.cycle.response_complete:
                transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if not self.transport.is_closing():
                self._arm()

        def _disarm(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def handle_websocket_upgrade(self, event: Any) -> None:
            self._disarm()  # a WebSocket now: its timer would keep this object alive
            super().handle_websocket_upgrade(event)

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return TimedH11


def _kernel_loop() -> asyncio.AbstractEventLoop | None:
    """The running event loop of this thread when this is a Jupyter (IPython) kernel's, else
    None."""
    try:
        loop = asyncio.get_running_loop()
    except RuntimeError:
        return None
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return loop if getattr(shell, "kernel", None) is not None else None


def _public_host(host: str) -> str:
    if host in ("0.0.0.0", "::", ""):
        return socket.gethostname()
    return f"[{host}]" if ":" in host else host


class Server:
    """A table served over HTTP and WebSockets.

    ``host`` defaults to 127.0.0.1 (this machine only); ``port=0`` picks a free port.
    ``base_url`` is what the links start with when the players reach the server some other
    way, e.g. through jupyter-server-proxy: ``"https://hub.example.org/user/me/proxy/8765/"``.
    ``allowed_origins``: pages of other origins that may open the WebSocket (none by default:
    only the server's own page).
    """

    def __init__(
        self,
        table: Table,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        base_url: str | None = None,
        allowed_origins: Sequence[str] = (),
    ) -> None:
        self.table = table
        self.host = host
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        # proto=IPPROTO_TCP: asyncio then turns Nagle's algorithm off on each accepted socket
        # (with proto 0 it does not, and a state frame right after a small one waits ~40 ms)
        self._sock = socket.socket(family, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self._sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self._sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self._sock.bind((host, port))
        self._sock.listen(128)
        self.port: int = self._sock.getsockname()[1]
        self.base_url = base_url or f"http://{_public_host(host)}:{self.port}/"
        if not self.base_url.endswith("/"):
            self.base_url += "/"
        # the Host a request may name: loopback names and addresses, the links' host, this
        # machine's name (against DNS rebinding; see app._host_ok)
        hosts = {urlsplit(self.base_url).hostname or "", host, socket.gethostname()}
        self.app = make_app(
            table,
            allowed_origins=tuple(allowed_origins),
            allowed_hosts=tuple(sorted(h.lower() for h in hosts if h)),
        )
        lim = table.limits
        config = uvicorn.Config(
            self.app,
            http=_timed_http(lim.request_timeout),
            timeout_keep_alive=max(1, int(lim.request_timeout)),
            # sockets beyond these get 503 at once (the WebSockets' own limit is lower)
            limit_concurrency=lim.max_connections + 64,
            log_level="warning",
            access_log=False,  # no URL in any log (the tokens are in the fragment anyway)
            lifespan="off",
            ws="websockets-sansio",
            ws_max_size=table.limits.transport_max_bytes,
            ws_per_message_deflate=False,
            ws_ping_interval=20.0,
            ws_ping_timeout=20.0,
        )
        self._uv: uvicorn.Server = _QuietServer(config)
        self.loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._task: asyncio.Task[None] | None = None
        #: the bot the lobby's Start button offers for the seats nobody holds
        self.fill: str | None = registry.game_of(table.game.game).default_bot
        self._lobby: Any = None

    # ------------------------------------------------------------------ links

    def seat_url(self, seat: int) -> str:
        """The link of ``seat``: whoever opens it plays that seat (keep it to its player)."""
        return f"{self.base_url}play#t={self.table.keys.seat_token(seat)}"

    @property
    def seat_urls(self) -> list[str]:
        return [self.seat_url(q) for q in range(len(self.table.players))]

    @property
    def spectator_url(self) -> str:
        """The link that shows public knowledge only (share it freely)."""
        return f"{self.base_url}play#t={self.table.keys.spectator_token}"

    @property
    def urls(self) -> dict[str, str]:
        """``{player name or "spectator": link}``."""
        out = {f"{q}: {name}": self.seat_url(q) for q, name in enumerate(self.table.players)}
        out["spectator"] = self.spectator_url
        return out

    @property
    def lobby(self) -> Any:
        """The notebook's lobby (a small widget): links, QR codes, who is connected, start/stop."""
        if self._lobby is None:
            from .lobby import Lobby

            self._lobby = Lobby(self, fill=self.fill)
        return self._lobby

    def _repr_mimebundle_(self, **kwargs: Any) -> Any:
        return self.lobby._repr_mimebundle_(**kwargs)

    # ------------------------------------------------------------------ running

    def start(self) -> Server:
        """Serve: on the running loop of a Jupyter kernel (a notebook), else in a thread of its
        own.  Only a kernel's loop is borrowed: another library's loop running in this thread
        (Playwright's sync API keeps one for as long as it is open) may never be given back
        to while this thread works, and the server would not answer."""
        loop = _kernel_loop()
        if loop is not None:
            self.loop = loop
            self.table.attach_loop(loop)
            self._task = loop.create_task(self._uv.serve(sockets=[self._sock]))
            self._task.add_done_callback(lambda _t: self._sock.close())
            return self
        ready = threading.Event()

        def run() -> None:
            loop = asyncio.new_event_loop()
            asyncio.set_event_loop(loop)
            self.loop = loop
            self.table.attach_loop(loop)
            ready.set()
            loop.run_until_complete(self._uv.serve(sockets=[self._sock]))
            loop.close()

        self._thread = threading.Thread(target=run, name=f"dsa-table-{self.port}", daemon=True)
        self._thread.start()
        ready.wait()
        return self

    def run_forever(self) -> None:
        """Serve in the foreground until interrupted (the command line)."""
        uv = uvicorn.Server(self._uv.config)
        self._uv = uv

        async def main() -> None:
            self.loop = asyncio.get_running_loop()
            self.table.attach_loop(self.loop)
            await uv.serve(sockets=[self._sock])

        asyncio.run(main())

    @property
    def running(self) -> bool:
        return self.loop is not None and not self._uv.should_exit

    def call(self, fn: Callable[[], T]) -> T:
        """Run ``fn`` on the server's loop and return its result (from any thread)."""
        loop = self.loop
        if loop is None:
            return fn()
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is loop:
            return fn()

        async def wrap() -> T:
            return fn()

        return asyncio.run_coroutine_threadsafe(wrap(), loop).result(timeout=30)

    def notify(self, before: Callable[[], Any] | None = None) -> None:
        """The game may have changed (a cell acted on it): the screens follow.  ``before()``
        runs first, on the server's loop (a new game handed to the table, ...)."""

        def run() -> None:
            if before is not None:
                before()
            self.table.changed()

        loop = self.loop
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if loop is None or here is loop:
            run()
        else:
            loop.call_soon_threadsafe(run)

    def stop(self) -> None:
        """Close the table and stop serving (the links stop working)."""
        if self.loop is None:
            self._sock.close()
            return
        uv = self._uv

        async def close_then_exit() -> None:
            # every page gets its last frames (the table closed) before the sockets close
            if not self.table.closed:
                self.table.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self.table.drain(), timeout=5)
            uv.should_exit = True

        loop = self.loop
        try:
            here = asyncio.get_running_loop()
        except RuntimeError:
            here = None
        if here is loop:  # on the kernel's own loop (the lobby's Stop): finish there
            if not self.table.closed:
                self.table.close()
            loop.create_task(close_then_exit())
            return
        if self._thread is None or self._thread.is_alive():
            with contextlib.suppress(Exception):
                asyncio.run_coroutine_threadsafe(close_then_exit(), loop).result(timeout=10)
        uv.should_exit = True
        if self._thread is not None:
            self._thread.join(timeout=15)
            self._sock.close()

    def __enter__(self) -> Server:
        return self.start()

    def __exit__(self, *exc: Any) -> None:
        self.stop()

    def __repr__(self) -> str:
        return f"<Server {self.base_url} seats={len(self.table.players)} seq={self.table.seq}>"
