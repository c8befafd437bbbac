"""A bounded load test on loopback (issue 12): 6 seats and 30 spectators for a full game.

The figures (intent -> all screens updated, frames per turn, bytes per frame) are printed, not
asserted: speed lives in ``benchmarks/bench_server.py``.  What is asserted is that every one
of the 36 screens followed the whole game to its end, with no error frame."""

from __future__ import annotations

import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import bench_server  # noqa: E402


def test_six_seats_and_thirty_spectators_follow_a_full_game():
    out = bench_server.run(players=6, spectators=30, air=10, rounds=1, seed=2, extra=["--reveal", "owner"])
    screens = out.pop("_screens")
    print("\nload (6 seats + 30 spectators, loopback):", json.dumps(out))
    assert out["screens"] == 36 and out["errors"] == 0
    assert out["turns"] > 6 and out["changes"] >= out["turns"]
    finals = [s.state for s in screens]  # (the goodbyes after the end may follow the last state)
    assert all(st is not None and st["over"] and st["seq"] >= out["final_seq"] for st in finals)
    # every screen got the same game: the same final board, each from its own viewpoint
    assert len({json.dumps(st["divers"]) for st in finals}) == 1
    assert {st["viewer"] for st in finals} == {None, 0, 1, 2, 3, 4, 5}
    # at most one state frame per screen per change (a slow screen may get fewer: the latest)
    assert out["frames_per_change"] <= 37


def test_spectators_share_one_encoded_frame_per_state():
    """Issue 32, item 4: a state is built once per viewer and each frame encoded once per
    viewer, however many sockets watch: eight spectators cost what one does (counted, not
    timed).  Each seat still gets its own frame, from its own view only."""
    from server_helpers import join, simple_choice

    from dsa_widget.server import serve

    srv = serve(players=["Ann", "Bob"], seed=3, started=True)
    try:
        ann, bob, *watchers = join(srv, 0, 1, *[None] * 8)
        everyone = {"connected": [True, True], "spectators": 8}
        for c in (ann, bob, *watchers):
            c.until(lambda f, c=c: all(c.data.get("table", {}).get(k) == v for k, v in everyone.items()))
        before = srv.call(lambda: (srv.table.seq, srv.table.screens_built, srv.table.frames_built))
        for c in (ann, bob, *watchers):
            del c.frames[:]
        after_state = ann.play(0, simple_choice)["seq"]
        for c in (bob, *watchers):
            c.state_at_least(after_state)
        seq, screens, frames = srv.call(
            lambda: (srv.table.seq, srv.table.screens_built, srv.table.frames_built)
        )
        assert seq == after_state == before[0] + 1
        # three viewers (Ann, Bob, the spectators): three screens built, three frames encoded
        assert (screens - before[1], frames - before[2]) == (3, 3)
        sent = [[f for f in c.frames if f.startswith('{"t":"model"')] for c in (ann, bob, *watchers)]
        assert all(len(s) == 1 for s in sent)
        assert len({s[0] for s in sent[2:]}) == 1  # the same text to every spectator
        views = [json.loads(s[0])["data"]["state"]["viewer"] for s in sent[:3]]
        assert views == [0, 1, None]  # a seat's frame is its own
    finally:
        srv.stop()


def test_a_slow_socket_holds_up_no_other_and_gets_every_frame_in_order():
    """Frames go out at once on every socket that takes them (no task switch per socket); a
    socket that does not (a client that stopped reading) gets a task of its own, holds up no
    other, and is sent what came meanwhile, in order, when it takes frames again."""
    import asyncio

    from dsa_widget.server import make_table
    from dsa_widget.server.app import _Conn

    async def scenario() -> None:
        table = make_table(game="pig", players=["Ann", "Bob"], seed=1)
        gate = asyncio.Event()

        class Socket:
            def __init__(self, slow: bool) -> None:
                self.slow, self.got = slow, []

            async def send_text(self, text: str) -> None:
                if self.slow:
                    await gate.wait()
                self.got.append(text)

        fast, slow = Socket(False), Socket(True)
        a, b = _Conn(fast, table, None), _Conn(slow, table, None)  # type: ignore[arg-type]
        a.push()
        b.push()
        assert len(fast.got) == 1 and slow.got == [] and b.slow is not None
        table.start()  # a new state while the slow socket still holds its first frame
        a.push()
        b.push()
        assert len(fast.got) == 2 and slow.got == []
        gate.set()
        while b.slow is not None:
            await asyncio.sleep(0)
        assert slow.got == fast.got  # every frame, in order, the same text

    # on a thread of its own: a running loop in this one (the browser tests' Playwright, when the
    # whole suite runs) would make asyncio.run refuse
    import threading

    failure: list[BaseException] = []

    def run() -> None:
        try:
            asyncio.run(scenario())
        except BaseException as e:  # noqa: BLE001 - reported below
            failure.append(e)

    t = threading.Thread(target=run)
    t.start()
    t.join(120)
    assert not t.is_alive(), "the scenario did not finish"
    if failure:
        raise failure[0]
