"""Issue 32, item 2: connections are not game state, and nothing a socket sends (or leaves
half-sent) hangs the server.  Real servers on loopback, real WebSockets."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from server_helpers import Client, join, simple_choice, state_at_least
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect

from dsa_widget.server import Limits, Server, serve, sidecar_path


@pytest.fixture
def served() -> Iterator[Any]:
    servers: list[Server] = []

    def make(**kw: Any) -> Server:
        opts: dict[str, Any] = {
            "game": "deep-sea",
            "players": ["Ann", "Bob", "Cy"],
            "rounds": 1,
            "seed": 11,
            "seats": {1: "random", 2: "random"},
            "bot_seed": 5,
            "bot_delay": 0.02,
            "started": True,
        }
        srv = serve(**{k: v for k, v in {**opts, **kw}.items() if v is not None})  # None: left out
        servers.append(srv)
        return srv

    yield make
    for s in servers:
        s.stop()


def raw_request(srv: Server, head: str) -> bytes:
    """Send ``head`` on a plain TCP socket; what the server answers until it closes."""
    with socket.create_connection(("127.0.0.1", srv.port), timeout=20) as s:
        s.sendall(head.encode())
        out = b""
        while chunk := s.recv(4096):
            out += chunk
            if b"\r\n\r\n" in out:
                break
        return out


def quiet_spectator(srv: Server) -> ClientConnection:
    """A spectator's socket, joined, that never reads (its frames queue up unbounded, so that
    closing it does not wait behind them)."""
    url = srv.base_url.replace("http://", "ws://", 1) + "ws"
    ws = connect(url, max_queue=None, open_timeout=20).__enter__()  # closed by the test
    ws.send(json.dumps({"type": "join", "token": srv.table.keys.spectator_token}))
    return ws


def upgrade(host: str, origin: str) -> str:
    return (
        f"GET /ws HTTP/1.1\r\nHost: {host}\r\nOrigin: {origin}\r\nUpgrade: websocket\r\n"
        "Connection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        "Sec-WebSocket-Version: 13\r\n\r\n"
    )


def test_spectators_coming_and_going_never_stale_a_click_nor_stall_the_bots(served, tmp_path):
    """A spectator reconnects over and over while Ann plays a whole game against two bots:
    none of her intents is refused as stale, and the bots finish the game.  (Joins are not
    rate-limited here: that limit has its own test.)"""
    srv = served(record=tmp_path / "game.json", limits=Limits(join_rate=1e6))
    ann = Client(srv.base_url, srv.table.keys.seat_token(0))
    cycles = 0
    moved = threading.Condition()
    stop = threading.Event()
    failures: list[BaseException] = []

    def churn() -> None:
        nonlocal cycles
        try:
            while not stop.is_set():
                (watcher,) = join(srv, None)
                watcher.recv()  # its first model
                watcher.close()
                with moved:
                    cycles += 1
                    moved.notify_all()
        except BaseException as exc:  # noqa: BLE001 -- reported by the test below
            failures.append(exc)
            with moved:
                moved.notify_all()

    thread = threading.Thread(target=churn, daemon=True)
    thread.start()
    applied = stale = 0
    try:
        st = ann.state_at_least(1)
        while not st["over"]:
            if st["current"] != 0:
                st = ann.state_at_least(st["seq"] + 1, timeout=30)
                continue
            with moved:  # a few spectators come and go between any two of Ann's clicks
                target = cycles + 3
                assert moved.wait_for(lambda t=target: cycles >= t or bool(failures), timeout=30)
            assert not failures, failures
            ann.send({"type": "intent", "seq": st["seq"], "choice": simple_choice(st)})
            f = ann.until(lambda f: f["t"] in ("applied", "error"), timeout=30)
            if f["t"] == "applied":
                applied += 1
            else:
                assert f["kind"] == "stale", f
                stale += 1
            st = ann.state_at_least(f["seq"], timeout=30)
    finally:
        stop.set()
        thread.join(30)
    assert not failures, failures
    assert stale == 0 and applied >= 3 and cycles >= 3 * applied
    assert srv.call(lambda: srv.table.game.is_over)


def test_a_link_that_reconnects_too_often_is_refused_and_the_others_play_on(served):
    """Reconnects are limited per link, not per address (players behind jupyter-server-proxy
    share one): the spectator link, shared, may open ``max_connections`` at once; past its
    bucket a join gets an error frame and close code 1013, and changes nothing: no presence,
    no state.  The seats' links have buckets of their own: Ann joins and plays on unharmed.
    (A bucket refilled once in 1000 s: what is asserted holds however slow the machine.)"""
    srv = served(limits=Limits(max_connections=6, join_rate=0.001, join_burst=2))
    for _ in range(6):
        (watcher,) = join(srv, None)
        assert watcher.welcome is not None and watcher.welcome["seat"] is None
        watcher.close()
    presence = srv.call(lambda: (srv.table.seq, srv.table.presence))
    refused = Client(srv.base_url, srv.table.keys.spectator_token)
    assert refused.welcome is not None
    assert (refused.welcome["t"], refused.welcome["kind"]) == ("error", "rate")
    assert "too often" in refused.welcome["message"]
    with pytest.raises(ConnectionClosed) as closed:
        refused.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1013
    assert srv.call(lambda: (srv.table.seq, srv.table.presence)) == presence  # nothing happened
    ann = Client(srv.base_url, srv.table.keys.seat_token(0))
    assert ann.welcome is not None and ann.welcome["seat"] == 0
    st = ann.state_at_least(1)
    ann.send({"type": "intent", "seq": st["seq"], "choice": simple_choice(st)})
    assert ann.until(lambda f: f["t"] in ("applied", "error"))["t"] == "applied"
    ann.close()
    again = Client(srv.base_url, srv.table.keys.seat_token(0))  # her second join: in her bucket
    assert again.welcome is not None and again.welcome["seat"] == 0
    again.close()
    third = Client(srv.base_url, srv.table.keys.seat_token(0))  # her third: past it
    assert third.welcome is not None and third.welcome["kind"] == "rate"


def test_presence_is_sent_without_a_new_state_a_write_or_a_bot_restart(served, tmp_path):
    record = tmp_path / "game.json"
    srv = served(record=record)
    ann = Client(srv.base_url, srv.table.keys.seat_token(0))
    st = ann.state_at_least(1)
    assert st["current"] == 0  # Ann's turn: nothing moves until she does
    seq, side = srv.table.seq, sidecar_path(record).stat().st_ino
    changes = len(srv.table.changes)
    n_frames = len(ann.frames)
    watchers = [quiet_spectator(srv) for _ in range(20)]
    ann.until(lambda f: f["t"] == "model" and f["data"].get("table", {}).get("spectators") == 20)
    for w in watchers:
        w.close()
    ann.until(lambda f: f["t"] == "model" and f["data"].get("table", {}).get("spectators") == 0)
    presence = [json.loads(t) for t in ann.frames[n_frames:]]
    assert presence and all(f["seq"] == seq and set(f["data"]) == {"table"} for f in presence)
    assert srv.table.seq == seq and len(srv.table.changes) == changes  # no new state, none kept
    assert sidecar_path(record).stat().st_ino == side  # not rewritten
    ann.send({"type": "intent", "seq": seq, "choice": "roll"})  # the click of before: still good
    assert ann.until(lambda f: f["t"] in ("applied", "error"))["t"] == "applied"


def test_sockets_count_from_the_handshake_not_from_the_join(served):
    srv = served(limits=Limits(max_connections=3))
    token = srv.table.keys.spectator_token
    idle = [Client(srv.base_url, token, join=False) for _ in range(3)]  # never join
    with pytest.raises(InvalidStatus):
        Client(srv.base_url, token)
    idle.pop().close()
    deadline = time.monotonic() + 20
    while srv.call(lambda: srv.table.sockets) > 2:  # the server sees the close
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert Client(srv.base_url, token).welcome is not None


def test_a_half_sent_request_is_closed_after_the_request_timeout(served):
    srv = served(limits=Limits(request_timeout=0.3))
    # the head never ends: the server closes the socket (recv gives b"") instead of waiting
    assert raw_request(srv, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n") == b""
    assert raw_request(srv, "GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").startswith(b"HTTP/1.1 200")


@pytest.mark.parametrize(
    "frame",
    [
        "[" * 2000 + "]" * 2000,
        '{"a":' * 650 + "1" + "}" * 650,
        '{"type": "intent", "seq": 1, "choice": ' + "[" * 40 + "]" * 40 + "}",
    ],
)
def test_deeply_nested_json_gets_an_error_frame_and_the_socket_stays(served, frame):
    srv = served()
    ann = Client(srv.base_url, srv.table.keys.seat_token(0))
    seq = ann.state_at_least(1)["seq"]
    assert len(frame.encode()) <= 4096
    ann.send(frame)
    f = ann.until(lambda f: f["t"] == "error")
    assert f["kind"] == "malformed" and "deep" in f["message"]
    ann.send({"type": "intent", "seq": seq, "choice": "roll"})
    assert ann.until(lambda f: f["t"] in ("applied", "error"))["t"] == "applied"
    assert state_at_least(ann, seq + 1)["step"] == "search"


def test_a_nested_join_frame_is_a_wrong_token(served):
    srv = served()
    c = Client(srv.base_url, "", join=False)
    c.send('{"type": "join", "token": ' + "[" * 3000 + "]" * 3000 + "}")
    assert c.recv()["kind"] == "token"


def test_a_foreign_host_is_refused_even_when_the_origin_agrees(served):
    """DNS rebinding: a foreign name resolved to this machine sends Host and Origin alike."""
    srv = served()
    evil = f"evil.example:{srv.port}"
    assert raw_request(srv, upgrade(evil, f"http://{evil}")).startswith(b"HTTP/1.1 403")
    assert raw_request(srv, f"GET /health HTTP/1.1\r\nHost: {evil}\r\n\r\n").startswith(b"HTTP/1.1 400")
    here = f"127.0.0.1:{srv.port}"
    assert raw_request(srv, upgrade(here, f"http://{here}")).startswith(b"HTTP/1.1 101")
    assert raw_request(srv, f"GET /health HTTP/1.1\r\nHost: localhost:{srv.port}\r\n\r\n").startswith(
        b"HTTP/1.1 200"
    )


def test_the_links_host_is_allowed(served):
    srv = served(base_url="http://games.example.org:9999/")
    head = "GET /health HTTP/1.1\r\nHost: games.example.org:9999\r\n\r\n"
    assert raw_request(srv, head).startswith(b"HTTP/1.1 200")


def test_connecting_and_leaving_keeps_no_memory(served):
    """Every connect and disconnect kept a note on the table (and, for the request timeout's
    sake, an HTTP protocol object for 10 s): 228 bytes a cycle on this test before, ~2 now."""
    import gc
    import tracemalloc

    srv = served(game="pig", players=["Ann", "Bob"], seats=None, rounds=None, limits=Limits(join_rate=1e6))
    url = srv.base_url.replace("http://", "ws://", 1) + "ws"
    join_frame = json.dumps({"type": "join", "token": srv.table.keys.spectator_token})

    def cycles(n: int) -> None:
        for _ in range(n):
            with connect(url, open_timeout=20) as ws:
                ws.send(join_frame)
                ws.recv(timeout=20)  # welcome
                ws.recv(timeout=20)  # the first model: the server is done with the join

    def traced() -> int:
        srv.call(gc.collect)
        snap = tracemalloc.take_snapshot().filter_traces(
            [tracemalloc.Filter(True, f"*{name}*") for name in ("dsa_widget", "starlette", "uvicorn")]
        )
        return sum(s.size for s in snap.statistics("filename"))

    cycles(30)  # caches warm
    tracemalloc.start()
    try:
        before = traced()
        cycles(200)
        grown = traced() - before
    finally:
        tracemalloc.stop()
    assert grown / 200 < 50, f"{grown / 200:.0f} bytes kept per connection"
