"""Shared by the server tests (unit, load and browser): a WebSocket client of a table, a
simple player, a game whose chip values are markers, and the check that no frame a screen
received holds a value that screen may not know; and, for every game's served-table tests, the
``served`` fixture's body, a loop that plays a served game to its end from the seats' own
screens, the refusals check, broken tables that leak, the page's bundle and the command line."""

from __future__ import annotations

import itertools
import json
import re
import subprocess
import sys
import urllib.request
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import ClientConnection, connect

from dsa_widget import Game
from dsa_widget.server import Server

ROOT = Path(__file__).resolve().parents[1]

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
    for text, frame, state in model_states(frames):
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


def strings_in(obj: Any, path: str = "") -> Iterable[tuple[str, str]]:
    """Every text of a JSON value, keys too, with where it stands (``.data.state.hand[0]``)."""
    if isinstance(obj, str):
        yield path, obj
    elif isinstance(obj, dict):
        for k, v in obj.items():
            yield f"{path}.{k}", str(k)
            yield from strings_in(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from strings_in(v, f"{path}[{i}]")


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
    for _, frame, state in model_states(frames):
        if state is not None:
            k = int(state["turn_number"])
        kn = know[min(k, len(know) - 1)]
        own = kn["hands"][seat] if seat is not None and seat < len(kn["hands"]) else set()
        if seat is not None and seat == _dummy_of(record):
            own = set()  # Tonoja's seat: nobody sees its face-down cards
        allowed = own | kn["public"] | kn["unplayed"] | (kn["knows"][seat] if seat is not None else set())
        hidden = set().union(*kn["hands"]) - allowed
        for where, s in strings_in(frame):
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


# ---------------------------------------------------------------------- any game's served table


def serving(serve: Callable[..., Server], **defaults: Any) -> Iterator[Callable[..., Server]]:
    """The body of a game's ``served`` fixture: yields ``make(**kw)``, which serves a table with
    ``defaults`` updated by ``kw``; every server made is stopped after the test."""
    servers: list[Server] = []

    def make(**kw: Any) -> Server:
        srv = serve(**{**defaults, **kw})
        servers.append(srv)
        return srv

    yield make
    for s in servers:
        s.stop()


#: what a game's served test table has unless told otherwise: three players, started, its bots
#: seeded and moving at once
SERVED = {"players": ["Ann", "Bob", "Cy"], "bot_delay": 0.0, "bot_seed": 3, "started": True}


def served_fixture(serve: Callable[..., Server], **defaults: Any) -> Any:
    """A game's ``served`` fixture (assign it to ``served``): its ``make(**kw)`` serves a table
    with :data:`SERVED` updated by ``defaults``, then by ``kw`` (see :func:`serving`)."""

    def served() -> Iterator[Callable[..., Server]]:
        """A started table, its bots moving at once, served on a free loopback port: ``make(**kw)``
        serves one (the game's defaults updated by ``kw``)."""
        yield from serving(serve, **{**SERVED, **defaults})

    return pytest.fixture(served)


def table_facts(srv: Server, cls: type, snapshot: Callable[[Any], Any]) -> Any:
    """Everything an intent could change: the table's ``seq`` and ``snapshot`` of the game of
    its plug-in (a ``cls``), as sorted JSON."""
    return srv.call(lambda: (srv.table.seq, json.dumps(snapshot(table_game(srv, cls).game), sort_keys=True)))


def join(srv: Server, *seats: int | None) -> list[Client]:
    """A client of ``srv``'s table for each of ``seats`` (``None``: a spectator), joined."""
    keys = srv.table.keys
    return [Client(srv.base_url, keys.spectator_token if q is None else keys.seat_token(q)) for q in seats]


def model_states(frames: Iterable[str]) -> Iterator[tuple[str, dict[str, Any], dict[str, Any] | None]]:
    """Each frame one socket received: its text, the frame and its model's state (``None`` in a
    frame that carries none)."""
    for text in frames:
        frame = json.loads(text)
        yield text, frame, frame.get("data", {}).get("state") if frame.get("t") == "model" else None


def hostile_intent(table: Any, seat: int, choice: Any, snapshot: Callable[[], Any]) -> bool:
    """Hands ``choice`` to ``table`` (a :class:`~dsa_widget.server.Table`) as ``seat``'s intent:
    whether it was applied; a refused one must leave ``snapshot()`` (as JSON) as it was."""
    before = json.dumps(snapshot())
    if table.handle(seat, {"type": "intent", "seq": table.seq, "choice": choice}) is not None:
        assert json.dumps(snapshot()) == before, choice
        return False
    return True


def play_through_hostile_intents(
    table: Any,
    game: Any,
    snapshot: Callable[[], Any],
    tries: int,
    hostile: Callable[[], str],
    good: Callable[[int], str],
) -> None:
    """Plays ``game`` at ``table`` (a :class:`~dsa_widget.server.Table`) to its end: before each
    move the seat to move sends ``tries`` choices ``hostile()``, each refused one changing
    nothing of ``snapshot()`` (:func:`hostile_intent`), then ``good(seat)``, which is applied."""
    while not game.is_over:
        q = table.game.to_move
        assert q is not None
        for _ in range(tries):
            if hostile_intent(table, q, hostile(), snapshot) and game.is_over:
                break
        if game.is_over:
            break
        q = table.game.to_move
        assert table.handle(q, {"type": "intent", "seq": table.seq, "choice": good(q)}) is None


def human_step(
    srv: Server, clients: dict[int, Client], choose: Callable[[dict[str, Any]], str]
) -> dict[str, Any] | None:
    """One step of a served game: if a seat of ``clients`` is to move, it sends
    ``choose(state)`` from its screen and the answer (applied or error) is returned; else the
    table's bots move and ``None`` is returned."""
    seq, actor = srv.call(lambda: (srv.table.seq, srv.table.game.to_move))
    if actor not in clients:
        srv.call(lambda: srv.table.run_bots())
        return None
    c = clients[actor]
    st = state_at_least(c, seq)
    c.send({"type": "intent", "seq": seq, "choice": choose(st)})
    return c.until(lambda f: f["t"] in ("applied", "error"))


def table_game(srv: Server, cls: type) -> Any:
    """The served table's game plug-in, checked to be a ``cls``."""
    g = srv.table.game
    assert isinstance(g, cls)
    return g


def state_at_least(c: Client, seq: int, timeout: float = 30) -> dict[str, Any]:
    """Read until ``c``'s screen holds a state numbered ``seq`` or later."""
    while c.state is None or c.state["seq"] < seq:
        c.recv(timeout)
    return c.state


def play_served_to_end(
    srv: Server,
    clients: dict[int, Client],
    watchers: Iterable[Client],
    choose: Callable[[dict[str, Any]], str],
    *,
    most: int,
    what: str,
) -> int:
    """Each human seat of ``clients`` plays ``choose(state)`` from its own screen until the
    ``what`` (game, attempt) ends, within ``most`` rounds of the loop; the watchers read along.
    Returns the intents sent."""
    sent = 0
    for _ in range(most):
        seq, actor, over = srv.call(lambda: (srv.table.seq, srv.table.game.to_move, srv.table.game.is_over))
        if over:
            break
        if actor not in clients:  # the server's bot moves (no delay): wait for the next state
            state_at_least(next(iter(clients.values())), seq + 1)
            continue
        c = clients[actor]
        st = state_at_least(c, seq)
        if st["seq"] != seq:
            continue
        assert st["can_act"] and st["legal"] and st["seat"] == actor, st
        c.send({"type": "intent", "seq": seq, "choice": choose(st)})
        f = c.until(lambda f: f["t"] in ("error", "applied"))
        assert f["t"] == "applied" or f["kind"] == "stale", f
        sent += 1
    else:
        pytest.fail(f"the {what} did not end")
    final = srv.call(lambda: srv.table.seq)
    for c in [*clients.values(), *watchers]:
        state_at_least(c, final)
    return sent


def check_refusals(
    cases: Iterable[tuple[Client, Any, str | None]],
    facts: Callable[[], Any],
    me: Client,
    seq: int,
    good: str,
) -> None:
    """Each ``(client, message, kind)`` of ``cases`` is answered by an error of that kind and
    changes none of ``facts()``; then ``me``'s ``bot_step`` is ignored (the server moves its bots
    itself) and its ``good`` intent at ``seq`` is applied: the connection still works."""
    before = facts()
    for client, msg, kind in cases:
        client.send(msg)
        err = client.until(lambda f: f["t"] == "error")
        assert err["kind"] == kind, (msg, err)
        assert facts() == before, msg
    me.send({"type": "bot_step", "seq": seq})  # ignored: the server moves its bots itself
    me.send({"type": "intent", "seq": seq, "choice": good})  # and the connection still works
    f = me.until(lambda f: f["t"] in ("applied", "error"))
    assert f["t"] == "applied", f
    assert facts() != before


class ShowsTheSpectatorASeat:
    """Mixed into a table plug-in, a broken server: the spectator is sent seat ``SEAT``'s
    screen."""

    SEAT = 1

    def screen(self, viewer: int | None, seq: int) -> dict[str, Any]:
        out: dict[str, Any] = super().screen(self.SEAT if viewer is None else viewer, seq)  # type: ignore[misc]
        return out


class ShowsTheNextHand:
    """Mixed into a table plug-in of a game with hands, a broken server: every screen carries
    the next seat's hand in a debug text."""

    def screen(self, viewer: int | None, seq: int) -> dict[str, Any]:
        out: dict[str, Any] = super().screen(viewer, seq)  # type: ignore[misc]
        game: Any = self.game  # type: ignore[attr-defined]
        nxt = 0 if viewer is None else (viewer + 1) % game.seats
        out["state"]["debug"] = f"next seat holds {' '.join(game.hand(nxt))}"
        return out


def leaky_tables(table: type) -> tuple[type, type]:
    """Two broken subclasses of a game's table plug-in ``table``, for showing that a knowledge
    check catches a leak: :class:`ShowsTheNextHand` and :class:`ShowsTheSpectatorASeat` (seat 1)."""
    name = table.__name__
    return (
        type(f"{name}ShowingTheNextHand", (ShowsTheNextHand, table), {}),
        type(f"{name}ShowingSeat1", (ShowsTheSpectatorASeat, table), {}),
    )


def check_page(srv: Server, title: str, bundle: str) -> None:
    """The table's page carries ``title`` and loads the page script and the game's ``bundle``
    (its ``.js`` and ``.css``) under the names every page uses."""
    with urllib.request.urlopen(srv.base_url + "play") as r:
        html = r.read().decode()
    assert f"<title>{title}</title>" in html and 'src="static/page.js"' in html
    with urllib.request.urlopen(srv.base_url + "static/widget.js") as r:
        assert r.read() == (ROOT / "dsa_widget" / "static" / f"{bundle}.js").read_bytes()
    with urllib.request.urlopen(srv.base_url + "static/widget.css") as r:
        assert r.read() == (ROOT / "dsa_widget" / "static" / f"{bundle}.css").read_bytes()
    with urllib.request.urlopen(srv.base_url + "static/page.js") as r:
        assert r.read() == (ROOT / "dsa_widget" / "static" / "page.js").read_bytes()


def dsa_widget_cli(run: Callable[..., Any], *args: str, **kwargs: Any) -> Any:
    """``python -m dsa_widget ARGS`` from the repository, as text, by ``run``
    (``subprocess.run`` or ``subprocess.Popen``)."""
    return run([sys.executable, "-m", "dsa_widget", *args], text=True, cwd=ROOT, **kwargs)


def serve_cli(args: list[str]) -> tuple[subprocess.Popen[str], dict[str, Any]]:
    """``python -m dsa_widget serve --json ARGS`` started; with the first line it printed."""
    p = dsa_widget_cli(
        subprocess.Popen, "serve", "--json", *args, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert p.stdout is not None
    line = p.stdout.readline()
    assert line, p.stderr.read() if p.stderr else "no output"
    return p, json.loads(line)


def check_cli_table(args: list[str], title: str, kinds: list[str]) -> dict[str, Any]:
    """Serves ``args`` (Ann, Bob and Cy) from the command line: a link per seat, a page that
    names ``title``, and seat 0's first screen (returned) its own, with its hand and the seats'
    ``kinds``.  The server is stopped after."""
    proc, info = serve_cli(args)
    try:
        assert len(info["seats"]) == 3
        base = info["seats"][0].split("play#")[0]
        with urllib.request.urlopen(base + "play") as r:
            assert title in r.read().decode()
        ann = Client(base, info["seats"][0].split("#t=")[1])
        st = state_at_least(ann, 1)
        assert st["players"] == ["Ann", "Bob", "Cy"] and st["kinds"] == kinds
        assert st["seat"] == 0 and st["hand"]
        ann.close()
    finally:
        proc.terminate()
        proc.wait(30)
    return st


def serve_cli_refuses(args: list[str], message: str) -> None:
    """``python -m dsa_widget serve ARGS`` exits with 2 and says ``message``."""
    bad = dsa_widget_cli(subprocess.run, "serve", *args, capture_output=True, timeout=120)
    assert bad.returncode == 2 and message in bad.stderr
