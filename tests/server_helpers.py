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


# ---------------------------------------------------------------------- The Crew

#: a card id standing alone in a text ("play P3", "Bob played P3", "P3")
CREW_CARD = re.compile(r"(?<![A-Za-z0-9])(?:[PYBG][1-9]|S[1-4])(?![A-Za-z0-9])")


def crew_knowledge(record: dict[str, Any]) -> list[dict[str, Any]]:
    """Replayed independently from a Crew record: ``out[k]`` after ``k`` actions, with ``hands``
    (each seat's cards, Tonoja's face-down ones too), ``public`` (every card played,
    communicated or face up at Tonoja's by then), ``knows`` (per seat the cards of others it
    may know: the one it passed in a distress signal), ``over`` and, at the end of a deal
    whose every trick was played, ``unplayed`` (the three-seat spare card, shown at the end)."""
    from dsa_widget.crew.cards import DECK
    from dsa_widget.crew.rules import CrewGame

    start = dict(record, turns=[])
    g = CrewGame.from_record(start)
    n = g.seats
    public: set[str] = {"S4"}  # the captain is the holder of S4: everyone knows where it is
    out: list[dict[str, Any]] = []

    def snap() -> None:
        for m in g.played_by:
            public.update(DECK[c] for c in range(len(DECK)) if m >> c & 1)
        public.update(DECK[c.card] for c in g.communications)
        if g.dummy is not None:
            public.update(u for u, _ in g.dummy_columns if u is not None)
        hands = [set(g.hand(q)) for q in range(n)]
        knows = []
        for q in range(n):
            gave, got = g.distress_cards(q)
            knows.append({c for c in (gave, got) if c is not None})
        full = g.is_over and len(g.tricks) == g.tricks_total
        out.append(
            {
                "hands": hands,
                "public": set(public),
                "knows": knows,
                "over": g.is_over,
                "unplayed": set().union(*hands) if full else set(),
            }
        )

    snap()
    for a in record["turns"]:
        g.play_record_turn(a)
        snap()
    return out


def _strings(obj: Any, path: str = "") -> Iterable[tuple[str, str]]:
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield f"{path}.{k}", str(k)
            yield from _strings(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _strings(v, f"{path}[{i}]")


def crew_public_texts(record: dict[str, Any]) -> set[str]:
    """Texts a screen may hold whatever their card ids: the faces of the drawn tasks and the
    rule options' values (e.g. ``"Y9+B7"``), the same for every seat."""
    from dsa_widget.crew.options import OPTIONS
    from dsa_widget.crew.rules import CrewGame

    g = CrewGame.from_record(dict(record, turns=[]))
    texts = {g.table[t].summary for t in g.task_ids}
    for values in OPTIONS.values():
        for v in values:
            for x in v if isinstance(v, (list, tuple)) else (v,):
                if isinstance(x, str):
                    texts.add(x)
    return texts


def crew_leaks(frames: Iterable[str], seat: int | None, record: dict[str, Any]) -> list[str]:
    """What ``frames`` (the texts one socket received, in order) show of The Crew that ``seat``
    (``None``: a spectator) may not know: a card id of another seat's hand (anywhere: a value,
    a key, inside a text) unless that card was public by then (played, communicated, face up at
    Tonoja's), or this seat passed it on in a distress signal; at the end of a full deal the
    unplayed spare card is public.  A frame's moment is its state's ``turn_number`` (the
    actions applied); a frame without a state (an error) is checked at the last one."""
    know = crew_knowledge(record)
    texts = crew_public_texts(record)
    found: list[str] = []
    k = 0
    for text in frames:
        frame = json.loads(text)
        state = frame.get("data", {}).get("state") if frame.get("t") == "model" else None
        if state is not None:
            k = int(state["turn_number"])
        kn = know[min(k, len(know) - 1)]
        own = kn["hands"][seat] if seat is not None and seat < len(kn["hands"]) else set()
        if seat is not None and seat == _dummy_of(record):
            own = set()  # Tonoja's seat: nobody sees its face-down cards
        allowed = own | kn["public"] | kn["unplayed"] | (kn["knows"][seat] if seat is not None else set())
        hidden = set().union(*kn["hands"]) - allowed
        for where, s in _strings(frame):
            if s in texts:
                continue
            bad = set(CREW_CARD.findall(s)) & hidden
            if bad:
                found.append(
                    f"after {k} actions: {sorted(bad)} at {where or '.'} of a {frame.get('t')} frame"
                )
    return found


def _dummy_of(record: dict[str, Any]) -> int | None:
    """Tonoja's seat in a two-player record, else ``None``."""
    from dsa_widget.crew.rules import CrewGame

    dummy: int | None = CrewGame.from_record(dict(record, turns=[])).dummy
    return dummy


def crew_choice(state: dict[str, Any]) -> str:
    """A plain policy from what a Crew screen shows: the first legal action that is not a
    communication (so a mission moves on by plays), else the first."""
    legal = state["legal"]
    for a in legal:
        if not a.startswith("comm "):
            return str(a)
    return str(legal[0])
