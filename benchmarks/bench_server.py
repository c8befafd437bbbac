"""The seat server under load, on loopback, against a bare broadcast of the same frames.

    python benchmarks/bench_server.py [--spectators 30] [--air 25] [--rounds 3] [--repeat 3]
                                      [--record] [--json] [--profile FILE]

The server runs as ``python -m dsa_widget serve`` in its own process; this process holds every
client (one asyncio loop, 6 seats and N spectators on WebSockets).  Each seat plays a plain
policy from its own screen.  For every intent it measures the time from sending it to the
moment *every* screen holds the state it led to (p50/p95/max), the frames and bytes each change
and each turn cost, and the CPU seconds of the server.

Then the *bare baseline*, in the same run: a bare Starlette app on the same uvicorn settings
that knows nothing of the game, only the frames the real server sent; it sends each client,
for each intent it receives, exactly the frames the real server sent that client for that
intent (the acknowledgement included), one ``send_text`` each, to the same clients driven by
the same code.  Real and bare alternate (``--repeat`` pairs, the same game each time); the
figures are the medians over the pairs, and the ratios real / bare say what the server costs
beyond moving the bytes.  ``--record``: the real server writes the record and its sidecar
(fsync'd) after every change, as a served game with ``record=`` does.  ``--profile FILE``:
the real server runs under cProfile, counting CPU time from the first intent to the end, and
its statistics go to FILE (the first pair only; ``python -m pstats FILE`` reads them).
The latency includes this process reading every socket one after another, so it is an upper
bound for what one player waits.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from bisect import bisect_left
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

from server_helpers import simple_choice  # noqa: E402
from websockets.asyncio.client import connect  # noqa: E402

_MODEL = re.compile(r'\{"t":"model","seq":(\d+),"data":\{"state":')

#: the real server under cProfile (CPU time), from SIGUSR1 (the game begins) to SIGTERM
_PROFILED = """
import cProfile, signal, sys
from dsa_widget.cli import main
out = sys.argv.pop(1)
prof = cProfile.Profile(__import__("time").process_time)
def stop(*_):
    prof.disable(); prof.dump_stats(out); raise SystemExit(0)
signal.signal(signal.SIGUSR1, lambda *_: prof.enable())
signal.signal(signal.SIGTERM, stop)
main(sys.argv[1:])
"""


def _pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))] if s else float("nan")


class _Screen:
    def __init__(self, role: int | None, token: str) -> None:
        self.role = role
        self.token = token
        self.frames: list[str] = []
        #: how many frames came before the game was played (the joins and their presence)
        self.mark = 0
        self.times: list[tuple[int, float]] = []  # (state seq, when it arrived)
        self._state: dict[str, Any] | None = None
        self._state_text: str | None = None
        #: parse every frame (False: spectators during the game read only the state's number)
        self.full = True
        self.applied: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.errors: list[dict[str, Any]] = []
        self.new = asyncio.Event()
        self.table: dict[str, Any] = {}

    async def run(self, url: str, ready: asyncio.Event) -> None:
        async with connect(url, max_size=2**24, open_timeout=60) as ws:
            self.ws = ws
            await ws.send(json.dumps({"type": "join", "token": self.token}))
            ready.set()
            async for text in ws:
                assert isinstance(text, str)
                now = time.perf_counter()
                self.frames.append(text)
                m = _MODEL.match(text)
                if m is not None and not self.full:
                    # a spectator during the game: read the number only (parse the rest on demand)
                    self._state, self._state_text = None, text
                    self.times.append((int(m.group(1)), now))
                    self.new.set()
                    continue
                f = json.loads(text)
                if f["t"] == "model" and "table" in f["data"]:
                    self.table = f["data"]["table"]  # presence comes alone, at the same seq
                    self.new.set()
                if f["t"] == "model" and "state" in f["data"]:
                    self._state, self._state_text = f["data"]["state"], None
                    self.times.append((f["seq"], now))
                    self.new.set()
                elif f["t"] == "applied":
                    self.applied.put_nowait(f)
                elif f["t"] == "error":
                    self.errors.append(f)
                    self.applied.put_nowait(f)

    @property
    def state(self) -> dict[str, Any] | None:
        """The latest state this screen received."""
        if self._state is None and self._state_text is not None:
            self._state = json.loads(self._state_text)["data"]["state"]
            self._state_text = None
        return self._state

    def seq(self) -> int:
        return self.times[-1][0] if self.times else 0

    def seen(self, seq: int) -> float | None:
        """When this screen first held a state numbered ``seq`` or later."""
        i = bisect_left(self.times, (seq, -1.0))
        return self.times[i][1] if i < len(self.times) else None

    async def wait_seq(self, seq: int) -> None:
        while self.seq() < seq:
            self.new.clear()
            await asyncio.wait_for(self.new.wait(), 60)


async def _drive(
    url: str, seat_tokens: list[str], watch_tokens: list[str], cpu: Any, begin: Any
) -> dict[str, Any]:
    seats = [_Screen(q, t) for q, t in enumerate(seat_tokens)]
    watchers = [_Screen(None, t) for t in watch_tokens]
    screens = seats + watchers
    tasks = []
    for s in screens:
        ready = asyncio.Event()
        tasks.append(asyncio.create_task(s.run(url, ready)))
        await ready.wait()
    # every screen has joined (and each screen knows it): from now on only intents change the game
    everyone = {"connected": [True] * len(seats), "spectators": len(watchers)}
    for s in screens:
        while any(s.table.get(k) != v for k, v in everyone.items()):
            s.new.clear()
            await asyncio.wait_for(s.new.wait(), 60)
    last = max(s.state["seq"] for s in screens if s.state)
    start_seq = last
    for s in screens:
        s.mark = len(s.frames)
    for s in watchers:
        s.full = False
    begin()
    cpu0 = cpu()
    latencies: list[float] = []
    acks: list[int] = []
    t_game = time.perf_counter()
    while True:
        st = seats[0].state
        assert st is not None
        if st["over"]:
            break
        mover = seats[st["current"]]
        assert mover.state is not None and mover.state["seq"] == st["seq"]
        t0 = time.perf_counter()
        await mover.ws.send(
            json.dumps({"type": "intent", "seq": st["seq"], "choice": simple_choice(mover.state)})
        )
        ack = await asyncio.wait_for(mover.applied.get(), 60)
        assert ack["t"] == "applied", ack
        for s in screens:
            await s.wait_seq(ack["seq"])
        done = [s.seen(ack["seq"]) for s in screens]
        latencies.append(max(t for t in done if t is not None) - t0)
        acks.append(ack["seq"])
        last = ack["seq"]
    wall = time.perf_counter() - t_game
    server_cpu = cpu() - cpu0
    for s in screens:
        await s.ws.close()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    changes = len(acks)
    # the game's frames: the states after the last join up to the end (the goodbyes after it
    # are not the game's), and the acknowledgements of the intents
    start = start_seq

    def in_game(text: str) -> bool:
        f = json.loads(text)
        # (presence, a model frame with "table" alone, is no game frame: the goodbyes send it)
        return f["t"] == "applied" or (
            f["t"] == "model" and start < f["seq"] <= last and "state" in f["data"]
        )

    per_screen = {id(s): [f for f in s.frames[s.mark :] if in_game(f)] for s in screens}
    game_frames = [f for fs in per_screen.values() for f in fs]
    model = [len(f) for f in game_frames if f.startswith('{"t":"model"')]
    seat_bytes = [len(f) for s in seats for f in per_screen[id(s)] if f.startswith('{"t":"model"')]
    watch_bytes = [len(f) for s in watchers for f in per_screen[id(s)] if f.startswith('{"t":"model"')]
    turns = seats[0].state["turn"] if seats[0].state else 0
    # what each screen was sent before the game and for each intent: the bare baseline's script
    steps: list[list[list[str]]] = [[[] for _ in screens] for _ in acks]
    for c, s in enumerate(screens):
        for f in per_screen[id(s)]:
            n = int(json.loads(f)["seq"])
            steps[min(bisect_left(acks, n), changes - 1)][c].append(f)
    return {
        "screens": len(screens),
        "changes": changes,
        "turns": turns,
        "final_seq": last,
        "game_wall_s": round(wall, 2),
        "latency_ms": {
            "p50": round(1000 * statistics.median(latencies), 2),
            "p95": round(1000 * _pct(latencies, 95), 2),
            "max": round(1000 * max(latencies), 2),
        },
        "frames_per_change": round(len(game_frames) / max(changes, 1), 2),
        "frames_per_turn": round(len(game_frames) / max(turns, 1), 2),
        "bytes_per_turn": round(sum(len(f) for f in game_frames) / max(turns, 1)),
        "bytes_per_model_frame": {
            "mean": round(statistics.mean(model)),
            "p95": round(_pct([float(x) for x in model], 95)),
            "max": max(model),
            "seat_mean": round(statistics.mean(seat_bytes)),
            "spectator_mean": round(statistics.mean(watch_bytes)) if watch_bytes else None,
        },
        "errors": sum(len(s.errors) for s in screens),
        "server_cpu_s": round(server_cpu, 3),
        "server_cpu_ms_per_intent": round(1000 * server_cpu / max(changes, 1), 3),
        "_screens": screens,
        "_script": {"pre": [s.frames[: s.mark] for s in screens], "steps": steps},
    }


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _play(
    proc: subprocess.Popen[str], seat_tokens: list[str], watch_tokens: list[str], profiled: bool = False
) -> dict[str, Any]:
    """Drive the server ``proc`` (it printed its links as a JSON line) with one client per token;
    ``profiled``: tell it (SIGUSR1) when the game begins."""
    assert proc.stdout is not None
    info = json.loads(proc.stdout.readline())
    url = info["base_url"].replace("http://", "ws://", 1) + "ws"
    if not seat_tokens:
        seat_tokens = [u.split("#t=")[1] for u in info["seats"]]
        watch_tokens = [info["spectator"].split("#t=")[1]] * len(watch_tokens)
    c0 = time.process_time()
    # a loop of its own in a thread of its own: the caller's thread may have one running
    # (a test session with Playwright's sync API open), and asyncio.run refuses that
    with ThreadPoolExecutor(1) as pool:
        cpu = lambda: _cpu_seconds(proc.pid)  # noqa: E731
        begin = (lambda: proc.send_signal(signal.SIGUSR1)) if profiled else (lambda: None)
        out = pool.submit(asyncio.run, _drive(url, seat_tokens, watch_tokens, cpu, begin)).result()
    out["client_cpu_s"] = round(time.process_time() - c0, 2)
    return out


def run(
    *,
    players: int = 6,
    spectators: int = 30,
    air: int = 25,
    rounds: int = 3,
    seed: int = 1,
    extra: list[str] | None = None,
    record: bool = False,
    profile: str | None = None,
) -> dict[str, Any]:
    """Serve a game of ``players`` human seats in a subprocess and play it with ``spectators``
    watching; the figures (and, under ``_screens``, every screen with its frames; under
    ``_script``, what each screen was sent, for :func:`run_bare`)."""
    head = [sys.executable, "-m", "dsa_widget"]
    if profile is not None:
        head = [sys.executable, "-c", _PROFILED, profile]
    cmd = [*head, "serve", "--players", str(players), "--json", "--start"]
    cmd += ["--air", str(air), "--rounds", str(rounds), "--seed", str(seed), *(extra or [])]
    with tempfile.TemporaryDirectory() as tmp:
        if record:
            cmd += ["--record", str(Path(tmp) / "game.json")]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            out = _play(proc, [], [""] * spectators, profiled=profile is not None)
        finally:
            proc.terminate()
            proc.wait(30)
    out["setup"] = {
        "players": players,
        "spectators": spectators,
        "air": air,
        "rounds": rounds,
        "seed": seed,
        "record": record,
    }
    return out


def run_bare(script: dict[str, Any], players: int) -> dict[str, Any]:
    """The bare baseline: :func:`bare_server` sends ``script`` (what :func:`run` recorded) to
    the same clients, driven the same way."""
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "script.json"
        path.write_text(json.dumps(script))
        cmd = [sys.executable, str(Path(__file__).resolve()), "--bare-server", str(path)]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)
        try:
            n = len(script["pre"])
            out = _play(proc, [f"c{c}" for c in range(players)], [f"c{c}" for c in range(players, n)])
        finally:
            proc.terminate()
            proc.wait(30)
    return out


def bare_server(script_path: str) -> None:
    """Serve the frames of ``script_path`` and nothing else: a client joins with the token
    ``c<i>`` and is sent what screen ``i`` was sent before the game; the ``k``-th intent any
    client sends makes every client be sent what its screen was sent for intent ``k``.  The
    same uvicorn settings and socket options as the real server (runner.Server)."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    script = json.loads(Path(script_path).read_text())
    pre: list[list[str]] = script["pre"]
    steps: list[list[list[str]]] = script["steps"]
    clients: dict[int, WebSocket] = {}
    step = [0]

    async def endpoint(ws: WebSocket) -> None:
        await ws.accept()
        c = int(json.loads(await ws.receive_text())["token"][1:])
        clients[c] = ws
        for text in pre[c]:
            await ws.send_text(text)
        try:
            while True:
                json.loads(await ws.receive_text())
                k = step[0]
                step[0] += 1
                for j, frames in enumerate(steps[k]):
                    for text in frames:
                        await clients[j].send_text(text)
        except WebSocketDisconnect:
            clients.pop(c, None)

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    sock.bind(("127.0.0.1", 0))
    sock.listen(128)
    port = sock.getsockname()[1]
    app = Starlette(routes=[WebSocketRoute("/ws", endpoint)])
    config = uvicorn.Config(
        app,
        log_level="warning",
        access_log=False,
        lifespan="off",
        ws="websockets-sansio",
        ws_max_size=65536,
        ws_per_message_deflate=False,
        ws_ping_interval=20.0,
        ws_ping_timeout=20.0,
    )
    print(json.dumps({"base_url": f"http://127.0.0.1:{port}/"}), flush=True)
    uvicorn.Server(config).run(sockets=[sock])


_FIGURES = ("p50", "p95", "cpu")


def _figures(out: dict[str, Any]) -> dict[str, float]:
    lat = out["latency_ms"]
    return {"p50": lat["p50"], "p95": lat["p95"], "cpu": out["server_cpu_ms_per_intent"]}


def compare(*, repeat: int = 3, profile: str | None = None, **kwargs: Any) -> dict[str, Any]:
    """``repeat`` pairs of the real server and the bare baseline, alternating, on the same game:
    the medians of p50, p95 (ms) and server CPU per intent (ms), and their ratios."""
    reals: list[dict[str, float]] = []
    bares: list[dict[str, float]] = []
    first: dict[str, Any] = {}
    for r in range(repeat):
        real = run(profile=profile if r == 0 else None, **kwargs)
        real.pop("_screens")
        script = real.pop("_script")
        bare = run_bare(script, kwargs.get("players", 6))
        bare.pop("_screens")
        bare.pop("_script")
        if bare["changes"] != real["changes"] or bare["errors"]:
            raise RuntimeError("the bare baseline did not replay the same game")
        reals.append(_figures(real))
        bares.append(_figures(bare))
        first = first or real
    med_real = {k: round(statistics.median(x[k] for x in reals), 2) for k in _FIGURES}
    med_bare = {k: round(statistics.median(x[k] for x in bares), 2) for k in _FIGURES}
    return {
        **first,
        "real": med_real,
        "bare": med_bare,
        "ratio": {k: round(med_real[k] / med_bare[k], 2) if med_bare[k] else None for k in _FIGURES},
        "pairs": [{"real": a, "bare": b} for a, b in zip(reals, bares, strict=True)],
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--spectators", type=int, default=30)
    ap.add_argument("--air", type=int, default=25)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--repeat", type=int, default=3, help="pairs of real and bare runs (default 3)")
    ap.add_argument("--record", action="store_true", help="the real server writes the record")
    ap.add_argument("--profile", metavar="FILE", help="cProfile the real server (first pair) into FILE")
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--bare-server", metavar="SCRIPT", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.bare_server:
        bare_server(args.bare_server)
        return
    out = compare(
        repeat=args.repeat,
        profile=args.profile,
        players=args.players,
        spectators=args.spectators,
        air=args.air,
        rounds=args.rounds,
        seed=args.seed,
        record=args.record,
    )
    if args.json:
        print(json.dumps(out, indent=1))
        return
    b = out["bytes_per_model_frame"]
    setup = out["setup"]
    rec = ", the record written" if setup["record"] else ""
    print(f"{setup['players']} seats + {setup['spectators']} spectators, loopback, one full game{rec}")
    print(f"  {out['turns']} turns, {out['changes']} intents, {out['game_wall_s']} s wall (first run)")
    print(
        f"  frames per intent {out['frames_per_change']}, per turn {out['frames_per_turn']}"
        f" ({out['bytes_per_turn']} bytes per turn, all screens together)"
    )
    print(
        f"  bytes per model frame: mean {b['mean']} (seats {b['seat_mean']},"
        f" spectators {b['spectator_mean']}), p95 {b['p95']}, max {b['max']}"
    )
    print(f"  medians of {len(out['pairs'])} pairs        server    bare    ratio")
    names = {
        "p50": "intent -> all screens p50 ms",
        "p95": "intent -> all screens p95 ms",
        "cpu": "server CPU ms per intent   ",
    }
    for k, label in names.items():
        print(f"  {label} {out['real'][k]:8.2f} {out['bare'][k]:7.2f} {out['ratio'][k]:7.2f}x")


if __name__ == "__main__":
    main()
