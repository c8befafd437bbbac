"""The ASGI app of a table (Starlette): the seat page, its bundle, and one WebSocket per screen.

Wire protocol (docs/SERVER.md has the whole of it).  The page opens ``ws`` beside itself and
sends ``{"type": "join", "token": T}`` first (the token travels in the page's URL fragment,
which no server log or Referer header ever sees).  The server answers::

    {"t": "welcome", "seat": 0 | null, "name": "Ann" | null, "limits": {...}}
    {"t": "model", "seq": n, "data": {"state": {...}, "history": {...}, ...}}   # changed keys only
    {"t": "error", "kind": "stale" | "seat" | "illegal" | "malformed" | "too_big" | "rate" | ...,
     "message": "...", "seq": n}
    {"t": "applied", "seq": n}      # this connection's intent was applied: state n follows

and the client sends intents only: ``{"type": "intent", "seq": n, "choice": "take"}``.
"""

from __future__ import annotations

import asyncio
import contextlib
import html
import ipaddress
import json
import logging
import types
from collections.abc import Coroutine, Generator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Route, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect, WebSocketState

from ..core import registry
from .limits import RateLimit
from .seats import NOBODY
from .table import Screen, Table

__all__ = ["PAGE_HTML", "bundles", "make_app", "parse_frame"]

_log = logging.getLogger(__name__)

#: the answer to a join beyond its link's rate (Limits.join_rate, join_burst)
_JOIN_REFUSED = {
    "t": "error",
    "kind": "rate",
    "message": "this link reconnected too often: try again in a few seconds",
}

#: the deepest nesting of arrays and objects a client frame may have (an intent has 1)
MAX_DEPTH = 16

STATIC = Path(__file__).resolve().parent.parent / "static"
#: the only files the server hands out, and their types
_FILES = {
    "widget.js": "text/javascript; charset=utf-8",
    "widget.css": "text/css; charset=utf-8",
    "page.js": "text/javascript; charset=utf-8",
    "page.css": "text/css; charset=utf-8",
}


def bundles() -> dict[str, str]:
    """The front ends the registered games name (their ``bundle``), with the games' titles: the
    page loads ``static/widget.js`` and ``static/widget.css``, served from
    ``static/<bundle>.js`` and ``.css``, so one page script draws every game."""
    return {spec.bundle: spec.title for spec in registry.games() if spec.bundle}


PAGE_HTML = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>Deep Sea Adventure</title>
<link rel="stylesheet" href="static/widget.css">
<link rel="stylesheet" href="static/page.css">
</head>
<body>
<main id="dsa-page" data-conn="connecting"><p class="dsa-page-note">Connecting…</p></main>
<script type="module" src="static/page.js"></script>
</body>
</html>
"""

INDEX_HTML = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Deep Sea Adventure table</title></head>
<body><p>A Deep Sea Adventure table. Open the link of your seat (the host has them).</p></body></html>
"""

_SECURITY_HEADERS = {
    # the page loads its own script and styles only, and talks to its own server only
    "Content-Security-Policy": (
        "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; "
        "frame-ancestors 'self'"
    ),
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "no-store",
}


def _bundle_of(table: Table) -> str:
    """The front end ``table``'s game draws with (its registry entry's ``bundle``)."""
    spec = registry.game_of(table.game.game)
    if not spec.bundle:
        raise ValueError(f"{spec.title} has no front end to serve")
    return spec.bundle


def _origin_ok(origin: str | None, host: str | None, allowed: frozenset[str]) -> bool:
    """A browser's WebSocket must come from this server's own page (or an allowed origin).

    A client that sends no Origin is not a browser page (no other site can make a browser
    leave it out), so it passes; it still needs a token.
    """
    if origin is None:
        return True
    if origin in allowed or "*" in allowed:
        return True
    if host is None:
        return False
    parts = urlsplit(origin)
    return parts.scheme in ("http", "https") and parts.netloc.lower() == host.lower()


def _host_name(host: str) -> str:
    """The name in a Host header, without its port (``[::1]:80`` -> ``::1``)."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1:].split("]", 1)[0]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def _host_ok(host: str | None, allowed: frozenset[str]) -> bool:
    """The Host a request names must be this server's: a loopback name, an address (no DNS
    name can be rebound to it), or one of ``allowed`` (the links' host, the machine's name).
    Against DNS rebinding: a foreign name resolved to this machine passes the Origin check
    (Origin and Host agree), not this one.

    >>> ok = frozenset({"hub.example.org"})
    >>> [_host_ok(h, ok) for h in ("127.0.0.1:8765", "[::1]:80", "localhost:1", "HUB.example.org")]
    [True, True, True, True]
    >>> [_host_ok(h, ok) for h in ("evil.example:8765", "", None)]
    [False, False, False]
    """
    if not host:
        return False
    name = _host_name(host)
    if name == "localhost" or name.endswith(".localhost") or name in allowed:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class _HostCheck:
    """Refuses every request whose Host header is not this server's (see :func:`_host_ok`):
    HTTP with 400, a WebSocket at the handshake (403)."""

    def __init__(self, app: ASGIApp, allowed: frozenset[str]) -> None:
        self.app = app
        self.allowed = allowed

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and "*" not in self.allowed:
            host = next((v.decode("latin-1") for k, v in scope["headers"] if k == b"host"), None)
            if not _host_ok(host, self.allowed):
                if scope["type"] == "http":
                    await PlainTextResponse("unknown host", status_code=400)(scope, receive, send)
                else:
                    await send({"type": "websocket.close", "code": 1008})
                return
        await self.app(scope, receive, send)


def _depth_ok(value: Any, limit: int = MAX_DEPTH) -> bool:
    """Whether ``value`` nests arrays and objects at most ``limit`` deep (no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        v, d = stack.pop()
        if isinstance(v, dict):
            v = list(v.values())
        if isinstance(v, list):
            if d > limit:
                return False
            stack.extend((x, d + 1) for x in v)
    return True


def parse_frame(text: str) -> Any:
    """A client frame's JSON; :class:`ValueError` when it is not JSON or nests deeper than
    :data:`MAX_DEPTH` (a deeply nested array within the size limit would otherwise exhaust
    the parser's recursion).

    >>> parse_frame('{"type": "intent", "seq": 3, "choice": "roll"}')["seq"]
    3
    >>> parse_frame("[" * 3000 + "]" * 3000)
    Traceback (most recent call last):
    ...
    ValueError: a frame nests arrays and objects at most 16 deep
    """
    try:
        data = json.loads(text)
    except RecursionError:
        data = None
        deep = True
    else:
        deep = not _depth_ok(data)
    if deep:
        raise ValueError(f"a frame nests arrays and objects at most {MAX_DEPTH} deep")
    return data


def _start(coro: Coroutine[Any, Any, None]) -> asyncio.Task[None] | None:
    """Run ``coro`` (a send) at once, up to its first wait: ``None`` when it finished then (a
    socket that takes the frame: nearly always), else a task that finishes it.  A frame sent
    to a hundred spectators costs no task switch per socket, and a slow socket still holds up
    no other."""
    try:
        waited = coro.send(None)
    except StopIteration:
        return None
    except BaseException:
        coro.close()
        raise
    return asyncio.ensure_future(_finish(coro, waited))


@types.coroutine
def _finish_steps(coro: Coroutine[Any, Any, None], waited: Any) -> Generator[Any, Any, None]:
    # the rest of a coroutine :func:`_start` began: what it waits for goes to the task running
    # this, and the task's answers (a result, a cancellation) back to it
    while True:
        try:
            answer = yield waited
        except BaseException as exc:  # noqa: BLE001 -- handed on to the coroutine
            try:
                waited = coro.throw(exc)
            except StopIteration:
                return
        else:
            try:
                waited = coro.send(answer)
            except StopIteration:
                return


async def _finish(coro: Coroutine[Any, Any, None], waited: Any) -> None:
    await _finish_steps(coro, waited)


class _Conn:
    """One open WebSocket: its role, its rate limit, and what it was last sent."""

    def __init__(self, ws: WebSocket, table: Table, role: int | None) -> None:
        self.ws = ws
        self.table = table
        self.role = role
        lim = table.limits
        self.rate = RateLimit(lim.rate, lim.burst)
        self.dropped = 0
        #: the screen this connection was sent last (``None``: none yet)
        self.sent: Screen | None = None
        self.outbox: list[str] = []
        #: a send waiting for a slow socket: the task that finishes it, then sends what is due
        self.slow: asyncio.Task[None] | None = None
        self.gone = False

    def model_frame(self) -> str | None:
        """The frame that brings this screen up to date (shared with every connection of the
        same viewer that was sent the same screen before), ``None`` when it is."""
        screen = self.table.screen(self.role)
        before = self.sent
        if screen is before:
            return None
        self.sent = screen
        return screen.frame_from(before, self.table)

    def due(self) -> list[str]:
        """The frames to send now: what was queued, then the screen's changes."""
        frames, self.outbox = self.outbox, []
        m = self.model_frame()
        if m is not None:
            frames.append(m)
        return frames

    def _sent(self, text: str) -> None:
        self.table.frames_sent += 1
        self.table.bytes_sent += len(text)

    def push(self) -> None:
        """Send what is due, at once while the socket takes it; a socket that does not (a slow
        client) gets a task of its own, which sends what came meanwhile too."""
        if self.slow is not None or self.gone:
            return
        frames = self.due()
        for i, text in enumerate(frames):
            try:
                waiting = _start(self.ws.send_text(text))
            except Exception:  # noqa: BLE001 -- the socket went: its reader ends it
                self.gone = True
                return
            self._sent(text)
            if waiting is not None:
                self.slow = asyncio.ensure_future(self._slow(waiting, frames[i + 1 :]))
                return

    async def _slow(self, waiting: asyncio.Task[None], rest: list[str]) -> None:
        try:
            await waiting
            while True:
                for text in rest:
                    await self.ws.send_text(text)
                    self._sent(text)
                rest = self.due()  # what came while the socket was slow
                if not rest:
                    break
        except Exception:  # noqa: BLE001 -- the socket went: its reader ends it
            self.gone = True
        finally:
            self.slow = None

    def schedule(self) -> None:
        asyncio.get_running_loop().call_soon(self.push)

    async def flush(self) -> None:
        """Send what is waiting now, the screen's last changes too (the connection is about to
        close: a closed table's page learns it was closed)."""
        if self.slow is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(self.slow), timeout=5)
        with contextlib.suppress(Exception):
            for text in self.due():
                await self.ws.send_text(text)

    def stop(self) -> None:
        self.gone = True
        if self.slow is not None:
            self.slow.cancel()

    def error(self, frame: dict[str, Any]) -> None:
        """Queue a frame for this connection only (an error, an acknowledgement)."""
        self.outbox.append(json.dumps(frame))
        self.schedule()


class _Pusher:
    """Every connection of a table, and one call a change that brings them all up to date."""

    def __init__(self) -> None:
        self.conns: set[_Conn] = set()
        self.planned = False

    def wake(self) -> None:
        if not self.planned and self.conns:
            self.planned = True
            asyncio.get_running_loop().call_soon(self.run)

    def run(self) -> None:
        self.planned = False
        for conn in list(self.conns):
            conn.push()


def make_app(
    table: Table, *, allowed_origins: tuple[str, ...] = (), allowed_hosts: tuple[str, ...] = ()
) -> Starlette:
    """The Starlette app serving ``table``.  ``allowed_hosts``: the names (beside loopback
    names and addresses) a request's Host header may give: the links' host, say."""
    allowed = frozenset(allowed_origins)
    hosts = frozenset(h.lower() for h in allowed_hosts) | frozenset(
        (urlsplit(o).hostname or o) for o in allowed_origins
    )
    table.sockets = 0
    lim = table.limits
    pusher = _Pusher()
    table.add_waker(pusher.wake)
    bundle = _bundle_of(table)
    title = html.escape(registry.game_of(table.game.game).title)
    page_html = PAGE_HTML.replace("<title>Deep Sea Adventure</title>", f"<title>{title}</title>")
    index_html = INDEX_HTML.replace("Deep Sea Adventure", title)
    # the page's board: the game's own bundle under the page's one name for it
    files = {"widget.js": f"{bundle}.js", "widget.css": f"{bundle}.css"}

    async def page(request: Request) -> Response:
        return HTMLResponse(page_html, headers=_SECURITY_HEADERS)

    async def index(request: Request) -> Response:
        return HTMLResponse(index_html, headers=_SECURITY_HEADERS)

    async def static(request: Request) -> Response:
        name = request.path_params["name"]
        kind = _FILES.get(name)
        path = STATIC / files.get(name, name)
        if kind is None or not path.is_file():
            return PlainTextResponse("not found", status_code=404)
        return Response(path.read_bytes(), media_type=kind, headers={"X-Content-Type-Options": "nosniff"})

    async def favicon(request: Request) -> Response:
        return Response(status_code=204)

    async def health(request: Request) -> Response:
        return JSONResponse({"ok": True, "seq": table.seq})

    async def socket(ws: WebSocket) -> None:
        if not _origin_ok(ws.headers.get("origin"), ws.headers.get("host"), allowed):
            await ws.close(code=1008)  # before accept: the handshake is refused (403)
            return
        # every socket counts from its handshake, joined or not
        if table.sockets >= lim.max_connections:
            await ws.close(code=1013)
            return
        table.sockets += 1
        try:
            await _serve_socket(ws)
        finally:
            table.sockets -= 1

    async def _serve_socket(ws: WebSocket) -> None:
        await ws.accept()
        role = await _join(ws, table)
        if role == NOBODY:
            return
        if not table.may_join(role):
            # no presence, no state: the link only learns to come back later
            with contextlib.suppress(Exception):
                await ws.send_text(json.dumps(_JOIN_REFUSED))
            await _close(ws, 1013)
            return
        conn = _Conn(ws, table, role)
        table.connected[role] = table.connected.get(role, 0) + 1
        table.add_drainer(conn.flush)
        table.connections_changed()  # before the welcome: a client that has it sees the new seq
        try:
            welcome = {
                "t": "welcome",
                "seat": role,
                "name": None if role is None else table.players[role],
                "limits": {"max_frame_bytes": lim.max_frame_bytes, "rate": lim.rate, "burst": lim.burst},
            }
            await ws.send_text(json.dumps(welcome))
            pusher.conns.add(conn)
            conn.push()  # the first screen at once
            await _read(ws, conn)
        except WebSocketDisconnect:
            pass
        finally:
            pusher.conns.discard(conn)
            conn.stop()
            table.remove_drainer(conn.flush)
            table.connected[role] -= 1
            table.connections_changed()

    return Starlette(
        middleware=[Middleware(_HostCheck, allowed=hosts)],
        routes=[
            Route("/", index),
            Route("/play", page),
            Route("/health", health),
            Route("/favicon.ico", favicon),
            Route("/static/{name}", static),
            WebSocketRoute("/ws", socket),
        ],
    )


async def _close(ws: WebSocket, code: int) -> None:
    if ws.client_state == WebSocketState.CONNECTED:
        with contextlib.suppress(Exception):
            await ws.close(code=code)


async def _join(ws: WebSocket, table: Table) -> int | None:
    """Read the first frame, ``{"type": "join", "token": T}``: the role T opens, or NOBODY."""
    lim = table.limits
    try:
        msg = await asyncio.wait_for(ws.receive(), timeout=lim.join_timeout)
    except (asyncio.TimeoutError, WebSocketDisconnect):
        await _close(ws, 1008)
        return NOBODY
    text = msg.get("text")
    data: Any = None
    if isinstance(text, str) and len(text.encode()) <= lim.max_frame_bytes:
        with contextlib.suppress(ValueError):
            data = parse_frame(text)
    token = data.get("token") if isinstance(data, dict) and data.get("type") == "join" else None
    role = table.keys.role(token)
    if role == NOBODY:
        with contextlib.suppress(Exception):
            await ws.send_text(
                json.dumps({"t": "error", "kind": "token", "message": "this link opens no seat"})
            )
        await _close(ws, 1008)
    return role


async def _read(ws: WebSocket, conn: _Conn) -> None:
    table = conn.table
    lim = table.limits
    while True:
        msg = await ws.receive()
        if msg["type"] == "websocket.disconnect":
            return
        if not conn.rate.allow():
            conn.dropped += 1
            if conn.dropped == 1 or conn.dropped % 50 == 0:
                conn.error(
                    {"t": "error", "kind": "rate", "message": "too many frames: slow down", "seq": table.seq}
                )
            if conn.dropped >= lim.max_dropped:
                conn.error(
                    {
                        "t": "error",
                        "kind": "rate",
                        "message": "too many frames: disconnected",
                        "seq": table.seq,
                    }
                )
                await conn.flush()
                await _close(ws, 1008)
                return
            continue
        text = msg.get("text")
        if text is None:
            conn.error({"t": "error", "kind": "malformed", "message": "text frames only", "seq": table.seq})
            continue
        if len(text) > lim.max_frame_bytes or len(text.encode()) > lim.max_frame_bytes:
            conn.error(
                {
                    "t": "error",
                    "kind": "too_big",
                    "message": f"a frame is at most {lim.max_frame_bytes} bytes",
                    "seq": table.seq,
                }
            )
            continue
        try:
            data = parse_frame(text)
        except ValueError as exc:
            why = str(exc) if "nests" in str(exc) else "a frame is JSON"
            conn.error({"t": "error", "kind": "malformed", "message": why, "seq": table.seq})
            continue
        try:
            err = table.handle(conn.role, data)
        except Exception as exc:  # noqa: BLE001 -- no frame may drop the socket or flood the log
            _log.warning("a frame raised %s (refused)", type(exc).__name__)
            err = {"t": "error", "kind": "internal", "message": type(exc).__name__, "seq": table.seq}
        if err is not None:
            conn.error(err)
        elif isinstance(data, dict) and data.get("type") == "intent":
            conn.error({"t": "applied", "seq": table.seq})  # before the new state, in one wake
        await asyncio.sleep(0)  # let this connection's sender (and the others) run
