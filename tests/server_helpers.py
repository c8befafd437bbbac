"""Shared by the server tests (unit, load and browser): a WebSocket client of a table, a
simple player, a game whose chip values are markers, and the check that no frame a screen
received holds a value that screen may not know."""

from __future__ import annotations

import itertools
import json
import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any

from websockets.sync.client import ClientConnection, connect

from dsa_widget import Game

#: chip values no other number on a screen can equal (seq, turns, air, positions and scores
#: stay far below them; a score is a sum of several markers, and markers are 9001..9999)
MARKER_BASE = 9001


def marker_path(levels: Sequence[int] = (1, 1, 1, 2, 2, 2, 3, 3, 4, 4)) -> list[list[int]]:
    """A custom path whose every value is a distinct marker (RECORD.md allows any value).

    No mean of two or more values of one level equals a marker, so an expected value the hints
    show (public: the mean of a level's values still unknown) is never taken for a marker."""
    chosen: dict[int, list[int]] = {}
    markers: set[int] = set()
    means: set[int] = set()  # whole-number means of two or more values of one level
    out = []
    v = MARKER_BASE
    for lv in levels:
        same = chosen.setdefault(lv, [])
        while True:
            new = {
                (v + sum(sub)) // (k + 1)
                for k in range(1, len(same) + 1)
                for sub in itertools.combinations(same, k)
                if (v + sum(sub)) % (k + 1) == 0
            }
            if v not in means and not new & (markers | {v}):
                break
            v += 1
        same.append(v)
        markers.add(v)
        means |= new
        out.append([lv, v])
        v += 1
    return out


_NUMBER = re.compile(r"(?<![\d.])\d{4}(?![\d.])")


def markers_in(text: str) -> set[int]:
    """Every marker value written in ``text``."""
    return {int(m) for m in _NUMBER.findall(text) if MARKER_BASE <= int(m) < MARKER_BASE + 1000}


def banked_after_each_turn(record: dict[str, Any]) -> list[list[set[int]]]:
    """``out[k][q]``: the values seat ``q`` had banked after ``k`` turns (replayed independently
    from the record's turns)."""
    g = Game.from_record({"format": record["format"], "setup": record["setup"], "turns": []})
    out = [[{g.chip(c)[1] for c in b} for b in g.banked_chips]]
    for t in record["turns"]:
        g.play_record_turn(t)
        out.append([{g.chip(c)[1] for c in b} for b in g.banked_chips])
    return out


def leaks(frames: Iterable[str], seat: int | None, record: dict[str, Any]) -> list[str]:
    """What ``frames`` (the texts one socket received, in order) show that ``seat`` (``None``:
    a spectator) may not know, under ``reveal="owner"``: before the game ends, a seat may know
    the values it banked itself (by the end of the turn under way), a spectator none; at the
    end, every banked value.  Also every other seat's score must be unknown before the end."""
    banked = banked_after_each_turn(record)
    every_banked = set().union(*banked[-1])
    found: list[str] = []
    turn, over = 0, False
    for text in frames:
        frame = json.loads(text)
        state = frame.get("data", {}).get("state") if frame.get("t") == "model" else None
        if state is not None:
            turn, over = state["turn"], state["over"]
            if not over:
                for q, score in enumerate(state["scores"]):
                    if q != seat and score is not None and state["banked"][q]:
                        found.append(f"turn {turn}: the score of seat {q} ({score})")
        if over:
            allowed = every_banked
        elif seat is None:
            allowed = set()
        else:
            allowed = banked[min(turn + 1, len(banked) - 1)][seat]
        bad = markers_in(text) - allowed
        if bad:
            found.append(f"turn {turn}: values {sorted(bad)} in a {frame.get('t')} frame")
    return found


def simple_choice(state: dict[str, Any]) -> str:
    """A plain policy from what a screen shows: take up to two chips, then go home."""
    legal = state["legal"]
    me = state["divers"][state["current"]]
    carried = len(me["items"])
    if "back" in legal:
        return "back" if carried >= 1 else "continue"
    if "take" in legal and carried < 2:
        return "take"
    if "lay all" in legal:
        return "lay all"
    return "none" if "none" in legal else legal[0]


class Client:
    """A synchronous WebSocket client of a served table (one screen)."""

    def __init__(self, base_url: str, token: str, *, origin: str | None = None, join: bool = True) -> None:
        url = base_url.replace("http://", "ws://", 1) + "ws"
        headers = {"Origin": origin} if origin else None
        self.ws: ClientConnection = connect(
            url, additional_headers=headers, open_timeout=20, max_size=2**24
        ).__enter__()  # closed by close() (or when the server closes it)
        self.frames: list[str] = []
        self.data: dict[str, Any] = {}
        self.welcome: dict[str, Any] | None = None
        if join:
            self.send({"type": "join", "token": token})
            self.welcome = self.recv()

    def send(self, msg: Any) -> None:
        self.ws.send(msg if isinstance(msg, (str, bytes)) else json.dumps(msg))

    def recv(self, timeout: float = 20) -> dict[str, Any]:
        text = self.ws.recv(timeout=timeout)
        assert isinstance(text, str)
        self.frames.append(text)
        frame: dict[str, Any] = json.loads(text)
        if frame.get("t") == "model":
            self.data.update(frame["data"])
        return frame

    def until(self, pred: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        while True:
            f = self.recv(timeout)
            if pred(f):
                return f

    def state_at_least(self, seq: int, timeout: float = 20) -> dict[str, Any]:
        """Read until this screen holds a state numbered ``seq`` or later."""
        while self.state is None or self.state["seq"] < seq:
            self.recv(timeout)
        return self.state

    def play(self, seat: int, choose: Callable[[dict[str, Any]], str] | str) -> dict[str, Any]:
        """Wait for ``seat``'s turn, send ``choose(state)``, return the state it led to.  A state
        this screen had not yet received when it sent is answered "stale": then again."""
        st = self.state_at_least(1)
        while True:
            while st["current"] != seat or st["over"]:
                assert not st["over"], "the game is over"
                st = self.state_at_least(st["seq"] + 1)
            choice = choose if isinstance(choose, str) else choose(st)
            self.send({"type": "intent", "seq": st["seq"], "choice": choice})
            f = self.until(lambda f: f["t"] in ("error", "applied"))
            if f["t"] == "applied":
                return self.state_at_least(f["seq"])
            assert f["kind"] == "stale", f
            st = self.state_at_least(f["seq"])

    @property
    def state(self) -> dict[str, Any] | None:
        return self.data.get("state")

    def close(self) -> None:
        self.ws.close()
