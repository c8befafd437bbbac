"""The seat server under load, on loopback: 6 seats and 30 spectators for a full game.

    python benchmarks/bench_server.py [--spectators 30] [--air 25] [--rounds 3] [--json]

The server runs as ``python -m dsa_widget serve`` in its own process; this process holds every
client (one asyncio loop, 36 WebSockets).  Each seat plays a plain policy from its own screen.
For every intent it prints the time from sending it to the moment *every* screen holds the
state it led to (p50/p95/max), the frames and bytes each change and each turn cost, and the
CPU seconds of the server and of the clients.  The latency includes this process reading 36
sockets one after another, so it is an upper bound for what one player waits.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import statistics
import subprocess
import sys
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


def _pct(xs: list[float], p: float) -> float:
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100 * (len(s) - 1))))] if s else float("nan")


class _Screen:
    def __init__(self, role: int | None, token: str) -> None:
        self.role = role
        self.token = token
        self.frames: list[str] = []
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


async def _drive(info: dict[str, Any], spectators: int, cpu: Any) -> dict[str, Any]:
    url = info["base_url"].replace("http://", "ws://", 1) + "ws"
    seats = [_Screen(q, u.split("#t=")[1]) for q, u in enumerate(info["seats"])]
    watchers = [_Screen(None, info["spectator"].split("#t=")[1]) for _ in range(spectators)]
    screens = seats + watchers
    tasks = []
    for s in screens:
        ready = asyncio.Event()
        tasks.append(asyncio.create_task(s.run(url, ready)))
        await ready.wait()
    # every screen has joined (and each screen knows it): from now on only intents change the game
    everyone = {"connected": [True] * len(seats), "spectators": spectators}
    for s in screens:
        while any(s.table.get(k) != v for k, v in everyone.items()):
            s.new.clear()
            await asyncio.wait_for(s.new.wait(), 60)
    last = max(s.state["seq"] for s in screens if s.state)
    start_seq = last
    for s in watchers:
        s.full = False
    cpu0 = cpu()
    latencies: list[float] = []
    changes = 0
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
        changes += 1
        last = ack["seq"]
    wall = time.perf_counter() - t_game
    server_cpu = cpu() - cpu0
    for s in screens:
        await s.ws.close()
    for t in tasks:
        t.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    # the game's frames: the states after the last join up to the end (the goodbyes after it
    # are not the game's), and the acknowledgements of the intents
    start = start_seq

    def in_game(text: str) -> bool:
        f = json.loads(text)
        # (presence, a model frame with "table" alone, is no game frame: the goodbyes send it)
        return f["t"] == "applied" or (
            f["t"] == "model" and start < f["seq"] <= last and "state" in f["data"]
        )

    per_screen = {id(s): [f for f in s.frames if in_game(f)] for s in screens}
    game_frames = [f for fs in per_screen.values() for f in fs]
    model = [len(f) for f in game_frames if f.startswith('{"t":"model"')]
    seat_bytes = [len(f) for s in seats for f in per_screen[id(s)] if f.startswith('{"t":"model"')]
    watch_bytes = [len(f) for s in watchers for f in per_screen[id(s)] if f.startswith('{"t":"model"')]
    turns = seats[0].state["turn"] if seats[0].state else 0
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
        "server_cpu_s": round(server_cpu, 2),
        "server_cpu_ms_per_intent": round(1000 * server_cpu / max(changes, 1), 2),
        "_screens": screens,
    }


def _cpu_seconds(pid: int) -> float:
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def run(
    *,
    players: int = 6,
    spectators: int = 30,
    air: int = 25,
    rounds: int = 3,
    seed: int = 1,
    extra: list[str] | None = None,
) -> dict[str, Any]:
    """Serve a game of ``players`` human seats in a subprocess and play it with ``spectators``
    watching; the figures (and, under ``_screens``, every screen with its frames)."""
    cmd = [sys.executable, "-m", "dsa_widget", "serve", "--players", str(players), "--json", "--start"]
    cmd += ["--air", str(air), "--rounds", str(rounds), "--seed", str(seed), *(extra or [])]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True, cwd=ROOT)
    try:
        assert proc.stdout is not None
        info = json.loads(proc.stdout.readline())
        c0 = time.process_time()
        # a loop of its own in a thread of its own: the caller's thread may have one running
        # (a test session with Playwright's sync API open), and asyncio.run refuses that
        with ThreadPoolExecutor(1) as pool:
            out = pool.submit(asyncio.run, _drive(info, spectators, lambda: _cpu_seconds(proc.pid))).result()
        out["client_cpu_s"] = round(time.process_time() - c0, 2)
        out["setup"] = {
            "players": players,
            "spectators": spectators,
            "air": air,
            "rounds": rounds,
            "seed": seed,
        }
        return out
    finally:
        proc.terminate()
        proc.wait(30)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, default=6)
    ap.add_argument("--spectators", type=int, default=30)
    ap.add_argument("--air", type=int, default=25)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    out = run(
        players=args.players, spectators=args.spectators, air=args.air, rounds=args.rounds, seed=args.seed
    )
    out.pop("_screens")
    if args.json:
        print(json.dumps(out, indent=1))
        return
    lat = out["latency_ms"]
    b = out["bytes_per_model_frame"]
    print(
        f"{out['setup']['players']} seats + {out['setup']['spectators']} spectators, loopback, one full game"
    )
    print(f"  {out['turns']} turns, {out['changes']} intents, {out['game_wall_s']} s wall")
    print(
        f"  intent -> all {out['screens']} screens updated: p50 {lat['p50']} ms,"
        f" p95 {lat['p95']} ms, max {lat['max']} ms"
    )
    print(
        f"  frames per intent {out['frames_per_change']}, per turn {out['frames_per_turn']}"
        f" ({out['bytes_per_turn']} bytes per turn, all screens together)"
    )
    print(
        f"  bytes per model frame: mean {b['mean']} (seats {b['seat_mean']},"
        f" spectators {b['spectator_mean']}), p95 {b['p95']}, max {b['max']}"
    )
    print(
        f"  CPU during the game: server {out['server_cpu_s']} s"
        f" ({out['server_cpu_ms_per_intent']} ms per intent),"
        f" clients {out['client_cpu_s']} s (joining included); error frames {out['errors']}"
    )


if __name__ == "__main__":
    main()
