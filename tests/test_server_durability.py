"""Issue 32, item 1: a crash at any instant of a served table's writes resumes the game it had
written, in every game.

The table writes the record, then its sidecar (two atomic renames).  These tests play a game
with bots, keep a copy of both files after every single write (a crash right after write k
leaves exactly those files), and resume from each copy: the game resumed must be the one
written, never the pending actions of a finished turn played a second time.
"""

from __future__ import annotations

import json
import shutil
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import dsa_widget.server.table as table_module
from dsa_widget.server import make_table, sidecar_path
from dsa_widget.server.table import Table

GAMES: dict[str, dict[str, Any]] = {
    "deep-sea": {"players": ["Ann", "Bob", "Cy"], "seed": 3},
    "crew": {"players": ["Ann", "Bob", "Cy"], "seed": 3, "target": 3},
    "submarine": {"players": ["Ann", "Bob", "Cy"], "seed": 3},
    "pig": {"players": ["Ann", "Bob"], "seed": 3},
}


@pytest.fixture(autouse=True)
def no_sync(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests crash by copying the files: they need no sync to the disk (which costs
    milliseconds a write); the order of the syncs has its own test below."""
    monkeypatch.setattr(table_module, "_fsync", lambda fd: None)


def signature(table: Table) -> tuple[str, str]:
    """The game as the files can hold it: its record and the actions of the turn under way."""
    g = table.game
    pending = [] if g.at_turn_boundary else (g.pending() or [])
    return json.dumps(g.to_record(), sort_keys=True), json.dumps(pending)


def crash_points(tmp: Path, game: str, steps: int) -> Iterator[tuple[int, Path, str, tuple[str, str]]]:
    """Play ``steps`` bot steps of ``game`` with a record; yield, for every write k, a folder
    holding the files as a crash right after write k leaves them, which file write k was, and
    the game those files are meant to hold."""
    live = tmp / "live"
    live.mkdir()
    record = live / "game.json"
    writes: list[tuple[str, Path]] = []
    real = table_module._write_atomic

    def counting(path: Path, text: str, mode: int = 0o644) -> None:
        real(path, text, mode)
        k = len(writes) + 1
        snap = tmp / f"crash{k}"
        snap.mkdir()
        for f in (record, sidecar_path(record)):
            if f.exists():
                shutil.copy2(f, snap / f.name)
        writes.append(("record" if path == record else "sidecar", snap))

    seen: list[tuple[int, tuple[str, str], tuple[str, str]]] = []  # (writes so far, record-only, whole)
    table_module._write_atomic = counting
    try:
        n = len(GAMES[game]["players"])
        t = make_table(
            game=game,
            seats=dict.fromkeys(range(n), "random"),
            bot_seed=1,
            started=True,
            record=record,
            **GAMES[game],
        )
        seen.append((len(writes), (signature(t)[0], "[]"), signature(t)))
        for _ in range(steps):
            if not t.game.bot_due():
                break
            t.run_bots(1)
            seen.append((len(writes), (signature(t)[0], "[]"), signature(t)))
    finally:
        table_module._write_atomic = real
    for k, (which, snap) in enumerate(writes, start=1):
        # the change whose persist made write k: the first one whose count of writes reached k
        _, record_only, whole = next(s for s in seen if s[0] >= k)
        yield k, snap, which, record_only if which == "record" else whole


@pytest.mark.parametrize("game", sorted(GAMES))
def test_a_crash_after_any_write_resumes_the_game_written(tmp_path: Path, game: str) -> None:
    points = list(crash_points(tmp_path, game, steps=80))
    assert len(points) > 60
    between = 0
    for k, snap, which, expected in points:
        record = snap / "game.json"
        if not sidecar_path(record).exists():  # the very first record, before any sidecar
            with pytest.raises(ValueError, match="no table file"):
                make_table(resume=record)
            continue
        t = make_table(resume=record)
        assert signature(t) == expected, f"{game}: crash after write {k} ({which})"
        between += which == "record"
    assert between > 5  # crashes between a record and its sidecar were among them


def test_a_sidecar_that_runs_ahead_of_its_record_is_refused(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    t = make_table(game="pig", players=["Ann", "Bob"], seats={1: "random"}, seed=3, record=record)
    before = record.read_text()
    side = json.loads(sidecar_path(record).read_text())
    side["turns"] += 2
    sidecar_path(record).write_text(json.dumps(side))
    with pytest.raises(ValueError, match="do not belong together"):
        make_table(resume=record)
    assert record.read_text() == before
    assert t.game.turn_number == 0


def test_a_sidecar_without_turns_still_resumes(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    t = make_table(game="deep-sea", players=["Ann", "Bob"], seats={1: "random"}, seed=3, record=record)
    t.start()
    t.handle(0, {"type": "intent", "seq": t.seq, "choice": "roll"})
    side = json.loads(sidecar_path(record).read_text())
    assert side["pending"]
    del side["turns"]
    sidecar_path(record).write_text(json.dumps(side))
    assert signature(make_table(resume=record)) == signature(t)


def test_the_record_and_its_sidecar_are_the_owners_only(tmp_path: Path) -> None:
    record = tmp_path / "game.json"
    make_table(game="pig", players=["Ann", "Bob"], seed=3, record=record)
    assert record.stat().st_mode & 0o777 == 0o600
    assert sidecar_path(record).stat().st_mode & 0o777 == 0o600


def test_laying_a_chip_at_the_sink_step_is_a_new_state_and_is_saved(tmp_path: Path) -> None:
    """Issue 32, bug 3 (found before every game moved onto SessionTable): after ``lay i`` no
    new state was sent and the sidecar did not keep it.  Random games, every ``lay i``."""
    import random

    rng = random.Random(1)
    lays = 0
    for seed in range(12):
        record = tmp_path / f"game{seed}.json"
        t = make_table(game="deep-sea", players=["Ann", "Bob", "Cy"], seed=seed, record=record, started=True)
        session = t.game.session
        while not session.game.is_over:
            q = t.game.to_move
            choice = rng.choice(list(session.hooks.legal_for(session.game, q)))
            seq = t.seq
            assert t.handle(q, {"type": "intent", "seq": seq, "choice": choice}) is None
            if choice.startswith("lay ") and choice != "lay all":
                lays += 1
                assert t.seq == seq + 1
                side = json.loads(sidecar_path(record).read_text())
                assert session.game.at_turn_boundary or side["pending"][-1] == choice
    assert lays > 20


def test_each_write_is_synced_then_renamed_then_its_folder_synced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against a power loss: a file renamed into place survives only once its data and then
    its folder's entry are on the disk.  Every write of the record and of its sidecar syncs the
    new file before the rename and the folder after it, and the record before the sidecar."""
    import os

    events: list[tuple[str, str]] = []
    real_replace = os.replace

    def fsync(fd: int) -> None:
        events.append(("sync", os.readlink(f"/proc/self/fd/{fd}")))

    def replace(src: Any, dst: Any) -> None:
        real_replace(src, dst)
        events.append(("rename", str(dst)))

    monkeypatch.setattr(table_module, "_fsync", fsync)
    monkeypatch.setattr(table_module.os, "replace", replace)
    record = tmp_path / "game.json"
    t = make_table(game="pig", players=["Ann", "Bob"], seats={1: "random"}, seed=3, record=record)
    t.start()
    folder, side = str(tmp_path), str(sidecar_path(record))
    for f in (str(record), side):
        i = events.index(("rename", f))
        assert events[i - 1][0] == "sync" and events[i - 1][1].startswith(str(tmp_path / ".")), events
        assert events[i + 1] == ("sync", folder), events
    assert events.index(("rename", str(record))) < events.index(("rename", side))
    assert events.count(("sync", folder)) == events.count(("rename", side)) + 1  # + the record


#: what a spectator's board shows of the game itself (not of the table, the log or the clock)
BOARD = ("round", "air", "turn", "step", "current", "divers", "path", "banked", "last_dice", "over")


def _resumed(record: Path) -> tuple[list[Any], list[dict[str, Any]]]:
    """What a copy of ``record`` and its sidecar resume to: the record's turns, and the
    public board after each step of the game from its start (the session's history)."""
    from dsa_widget.deep_sea.state import build_state

    copy = record.parent / "check" / record.name
    copy.parent.mkdir(exist_ok=True)
    for f in (record, sidecar_path(record)):
        shutil.copy2(f, copy.parent / f.name)
    t = make_table(resume=copy)  # raises when the two files do not belong together
    boards = []
    for state in t.game.session.frames():
        st = build_state(state, seats=t.game.seats, seq=0)
        boards.append({k: st[k] for k in BOARD})
    return json.loads(copy.read_text())["turns"], boards


@pytest.mark.slow
def test_a_server_killed_at_random_moments_resumes_every_time_what_it_had_shown(tmp_path: Path) -> None:
    """Issue 32, item 1, for real: ``python -m dsa_widget serve`` plays a bot game with a
    record, a spectator watching, and is killed (SIGKILL) at random moments (seeded), then
    restarted with ``--resume``, five times.  Every resume must be a game the server had
    reached, with nothing the spectator was shown lost: the board the spectator last held is
    one of the resumed game's states, the record's turns of each resume start those of the
    next.  What is asserted does not depend on where the kills fall."""
    import random
    import signal
    import subprocess
    import sys
    import threading

    from websockets.sync.client import connect

    rng = random.Random(20261204)
    record = tmp_path / "game.json"
    bots = [a for q in range(3) for a in ("--seat", f"{q}=random")]
    first = ["--game", "deep-sea", "--players", "Ann", "Bob", "Cy", *bots, "--seed", "5", "--record"]
    resumed: list[list[Any]] = []
    shown_at: list[int] = []
    for kill in range(6):
        args = [*first, str(record)] if kill == 0 else ["--resume", str(record)]
        cmd = [sys.executable, "-m", "dsa_widget", "serve", *args, "--start", "--bot-delay", "0.05", "--json"]
        proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, text=True)
        seen: dict[str, Any] = {}
        try:
            assert proc.stdout is not None
            info = json.loads(proc.stdout.readline())
            url = info["base_url"].replace("http://", "ws://", 1) + "ws"
            ws = connect(url, open_timeout=30, max_size=2**24).__enter__()  # the kill closes it
            ws.send(json.dumps({"type": "join", "token": info["spectator"].split("#t=")[1]}))
            first_state = threading.Event()

            def watch(
                ws: Any = ws, seen: dict[str, Any] = seen, ready: threading.Event = first_state
            ) -> None:
                try:
                    for text in ws:
                        f = json.loads(text)
                        if f["t"] == "model" and "state" in f["data"]:
                            seen["state"] = f["data"]["state"]
                            ready.set()
                except Exception:  # noqa: BLE001 -- the server was killed: the socket drops
                    pass

            reader = threading.Thread(target=watch, daemon=True)
            reader.start()
            assert first_state.wait(30)
            if kill < 5:
                time.sleep(rng.uniform(0.2, 1.2))
        finally:
            proc.send_signal(signal.SIGKILL)
            proc.wait(30)
        reader.join(30)
        turns, boards = _resumed(record)
        # the spectator's last board is a state of the game resumed (at its end, or before it
        # when the server had gone on without the spectator seeing it yet): nothing shown is lost
        shown = {k: seen["state"][k] for k in BOARD}
        assert shown in boards, f"resume {kill}: the board last shown is not in the game resumed"
        if resumed:  # and nothing written before is rewritten
            assert turns[: len(resumed[-1])] == resumed[-1], f"resume {kill} rewrote the record"
            assert len(boards) >= shown_at[-1]
        resumed.append(turns)
        shown_at.append(boards.index(shown) + 1)
    assert shown_at[-1] > shown_at[0]  # the game went on across the kills
