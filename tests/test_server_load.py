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
