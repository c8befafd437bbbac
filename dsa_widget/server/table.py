"""The authoritative table: one game, its seats, its screens, its record.  Game-agnostic.

A :class:`Table` holds a game through a :class:`TableGame` (every game's is
:class:`dsa_widget.server.session_table.SessionTable`), which knows the game's rules, its bots
and how to build the *screen* of one viewer: the model the bundled front end draws, built from
that viewer's view only.  The table numbers the game's states (``seq``), checks who may send
what, runs the bots, writes the record after every turn and tells its connections (and the
notebook's lobby) when something changed.  It never touches a socket: :mod:`.app` does.

Every method runs on the server's event loop (in a notebook: the kernel's own loop, so a
cell and the server never run at the same time).

>>> from dsa_widget.server.session_table import SessionTable
>>> from dsa_widget import Game
>>> t = Table(SessionTable(Game(players=["Ann", "Bob"], seed=1), seats=["human", "random"]))
>>> t.handle(0, {"type": "intent", "seq": t.seq, "choice": "roll"})["kind"]   # not started yet
'waiting'
>>> t.start(); t.handle(1, {"type": "intent", "seq": t.seq, "choice": "roll"})["kind"]
'seat'
>>> t.handle(0, {"type": "intent", "seq": t.seq, "choice": "roll"}) is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import tempfile
import time
from collections import deque
from collections.abc import Awaitable, Callable, Hashable, Mapping
from pathlib import Path
from typing import Any, Protocol

from ..core.errors import is_int
from .limits import Limits, RateLimit
from .seats import SeatKeys

__all__ = ["IntentError", "Table", "TableGame", "read_sidecar", "resume_point", "sidecar_path"]

#: seconds after a game's deadline before the table acts (its clock then agrees it has passed)
DEADLINE_SLACK = 0.05


class IntentError(ValueError):
    """A frame the table refuses: ``kind`` says why (``stale``, ``seat``, ``illegal``, ...)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind


class TableGame(Protocol):
    """What a game gives the server: rules, seats and bots, screens per viewer, its record.

    Optional: ``may_act(seat)``, true when ``seat`` may send an intent although another seat is to move
    (absent: only the seat to move may); ``deadline()`` (seconds until the game acts by itself,
    ``None``: never) with ``on_deadline()`` (it acts: a timed mission's clock runs out)."""

    @property
    def game(self) -> Any:
        """The game served (a state of a registered game: the single source of truth)."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def bot_names(self) -> list[str]:
        """The bots a seat may be given (the lobby offers them)."""

    @property
    def seats(self) -> list[str]:
        """``"human"`` or the bot's name, per seat."""

    def set_seat(self, seat: int, spec: Any) -> None:
        """Make ``seat`` a human's (``"human"``) or a bot's (a bot name)."""

    def version(self) -> Hashable:
        """Changes whenever the game (or a seat) changes."""

    @property
    def is_over(self) -> bool: ...

    @property
    def to_move(self) -> int | None:
        """The seat whose choice it is (``None`` when the game is over)."""

    def apply_intent(self, seat: int, message: Mapping[str, Any]) -> None:
        """Apply ``seat``'s intent, checked; raise :class:`IntentError` and change nothing."""

    def bot_due(self) -> bool:
        """True when a bot seat is to move."""

    def bot_step(self) -> None:
        """Let the bot to move make one choice."""

    def screen(self, viewer: int | None, seq: int) -> dict[str, Any]:
        """The model ``viewer`` (a seat, ``None``: a spectator) draws: only what it may know.
        The first call for a viewer gives every key; a later one may give only those that
        changed since the previous call for that viewer (the table keeps the rest)."""

    def to_record(self) -> Mapping[str, Any]: ...

    @property
    def turn_number(self) -> int: ...

    @property
    def at_turn_boundary(self) -> bool: ...

    def pending(self) -> list[Any] | None:
        """The actions of the turn under way (to resume mid-turn), ``None`` when unknown."""


def sidecar_path(record: str | os.PathLike[str]) -> Path:
    """Where the table keeps its seats, links and the turn under way, beside ``record``.

    >>> sidecar_path("game.json").name
    'game.json.table'
    """
    p = Path(record)
    return p.with_name(p.name + ".table")


#: compact JSON from the C encoder, no check for cycles (screens and records are trees)
_compact = json.JSONEncoder(separators=(",", ":"), check_circular=False).encode


def _record_text(record: Mapping[str, Any]) -> str:
    """A record as JSON a person can read (a key a line, a turn a line) from the C encoder:
    ``json.dumps(indent=...)`` runs in pure Python and costs a served table several times more.

    >>> print(_record_text({"format": "x@1", "turns": [[1, 2], [3]], "setup": {"seed": 1}}), end="")
    {
     "format": "x@1",
     "turns": [
      [1,2],
      [3]
     ],
     "setup": {"seed":1}
    }
    """
    lines = []
    for key, value in record.items():
        if isinstance(value, list) and value:
            text = "[\n  " + ",\n  ".join(_compact(v) for v in value) + "\n ]"
        else:
            text = _compact(value)
        lines.append(f" {_compact(key)}: {text}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


#: how a file (or a folder) is made durable: the tests that simulate crashes by copying the
#: files set a no-op here (they need no power loss, and a sync costs milliseconds)
_fsync = os.fsync


def _sync_folder(folder: Path) -> None:
    """Make the names in ``folder`` durable (a file created or renamed there survives a power
    loss only once its folder is synced too); a system that cannot sync a folder is left be."""
    try:
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return
    try:
        _fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_atomic(path: Path, text: str, mode: int = 0o644) -> None:
    """Replace ``path`` by ``text`` at once: a crash (or a power loss) leaves the old file or the
    new one, never a part of either.  The new file is written and synced under a temporary
    name with ``mode``, renamed over ``path``, and the folder is synced."""
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        os.fchmod(fd, mode)
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
            f.flush()
            _fsync(f.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise
    _sync_folder(path.parent)


class Screen:
    """One viewer's model at one ``seq`` and one state of who is connected, as JSON text per
    key (built once per viewer, whoever watches), and the frames that bring a screen there:
    every socket that saw the same earlier screen (all the spectators, a seat's windows) is
    sent the same text, encoded once.  Never changed once built: a change makes a new one."""

    __slots__ = ("_frames", "parts", "presence", "seq", "serial")

    def __init__(self, seq: int, presence: int, parts: dict[str, str], serial: int) -> None:
        self.seq = seq
        self.presence = presence
        self.parts = parts
        self.serial = serial
        self._frames: dict[int, str | None] = {}

    def frame_from(self, before: Screen | None, table: Table) -> str | None:
        """The model frame that takes a screen showing ``before`` (``None``: nothing yet) to
        this one: the keys that changed only; ``None`` when none did."""
        key = -1 if before is None else before.serial
        try:
            return self._frames[key]
        except KeyError:
            pass
        if before is None:
            diff = self.parts
        else:
            old = before.parts
            diff = {k: v for k, v in self.parts.items() if old.get(k) != v}
        text = None
        if diff:
            body = ",".join(f"{json.dumps(k)}:{v}" for k, v in diff.items())
            text = f'{{"t":"model","seq":{self.seq},"data":{{{body}}}}}'
        table.frames_built += 1
        self._frames[key] = text
        return text


class Table:
    """One served game.  ``record``: a path the record is written to after every turn (and
    its sidecar, :func:`sidecar_path`, after every change)."""

    def __init__(
        self,
        game: TableGame,
        *,
        keys: SeatKeys | None = None,
        limits: Limits | None = None,
        record: str | os.PathLike[str] | None = None,
        bot_delay: float = 0.6,
        started: bool = False,
    ) -> None:
        self.game = game
        self.keys = keys if keys is not None else SeatKeys(len(game.players))
        if self.keys.n_seats != len(game.players):
            raise ValueError(f"{self.keys.n_seats} seat keys for {len(game.players)} seats")
        self.limits = limits if limits is not None else Limits()
        self.record_path = None if record is None else Path(record)
        self.bot_delay = float(bot_delay)
        self.started = started
        self.paused = False
        self.closed = False
        #: why the bots stopped: a bot that failed (raised, or answered an illegal action) pauses
        #: the table instead of stalling it, and every screen says so (``None``: no problem)
        self.problem: str | None = None
        #: start on its own once every human seat has connected (the command line)
        self.autostart = False
        self.seq = 1
        #: counts the changes of who is connected (not game state: no new ``seq``)
        self.presence = 0
        self._table_part: tuple[int, int, str] | None = None
        self._version = game.version()
        self._screens: dict[int | None, Screen] = {}
        self._written_turns = -1
        #: connections per role (seat or None), kept by the app
        self.connected: dict[int | None, int] = {}
        #: WebSockets open now, joined or not (the app counts them from the handshake)
        self.sockets = 0
        self._joins: dict[int | None, RateLimit] = {}
        self._wakers: set[Callable[[], None]] = set()
        self._drainers: set[Callable[[], Awaitable[None]]] = set()
        self._listeners: list[Callable[[], None]] = []
        self._bot_timer: asyncio.TimerHandle | None = None
        self._deadline_timer: asyncio.TimerHandle | None = None
        self.loop: asyncio.AbstractEventLoop | None = None
        #: (seq, perf_counter) of the latest changes (bounded), for the load benchmark
        self.changes: deque[tuple[int, float]] = deque(maxlen=10_000)
        self.frames_sent = 0
        self.bytes_sent = 0
        #: model frames encoded (one per viewer and earlier screen, however many sockets)
        self.frames_built = 0
        #: screens built (one per viewer that is watched, per change)
        self.screens_built = 0
        self._serial = 0
        self._persist()

    # ------------------------------------------------------------------ reading

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    def screen(self, viewer: int | None) -> Screen:
        """``viewer``'s model now (cached: the game builds it once per viewer per change; the
        ``table`` part, once per change of the table or of who is connected)."""
        s = self._screens.get(viewer)
        if s is not None and s.seq == self.seq and s.presence == self.presence:
            return s
        parts = dict(s.parts) if s is not None else {}
        if s is None or s.seq != self.seq:
            model = self.game.screen(viewer, self.seq)
            self.screens_built += 1
            self._hold(model)
            parts.update((k, _compact(v)) for k, v in model.items())
        parts["table"] = self._table_json()
        self._serial += 1
        s = Screen(self.seq, self.presence, parts, self._serial)
        self._screens[viewer] = s
        return s

    def _hold(self, model: dict[str, Any]) -> None:
        """Before the host starts the game, and once the table is closed, no screen offers a
        choice (a click would only be refused): the board says why instead (``state.waiting``)."""
        st = model.get("state")
        if (self.started and not self.closed) or not isinstance(st, dict):
            return
        st["legal"], st["can_act"], st["chance"] = [], False, None
        closed, waiting = "The host closed the table.", "Waiting for the host to start the game."
        st["waiting"] = closed if self.closed else waiting

    def _table_json(self) -> str:
        cached = self._table_part
        if cached is None or cached[:2] != (self.seq, self.presence):
            cached = (self.seq, self.presence, _compact(self.table_info()))
            self._table_part = cached
        return cached[2]

    def table_info(self) -> dict[str, Any]:
        """What every screen may know about the table itself (no token, ever)."""
        return {
            "started": self.started,
            "paused": self.paused,
            "problem": self.problem,
            "closed": self.closed,
            "connected": [self.connected.get(q, 0) > 0 for q in range(len(self.players))],
            "spectators": self.connected.get(None, 0),
        }

    def may_join(self, role: int | None) -> bool:
        """Whether ``role``'s link (a seat, ``None``: the spectator link) may join now: each
        link has its bucket of joins (:class:`Limits` ``join_rate``, ``join_burst``; the
        spectator link, shared by every spectator, ``max_connections`` at once), so a client
        that reconnects over and over is refused without touching any other link."""
        bucket = self._joins.get(role)
        if bucket is None:
            lim = self.limits
            burst = lim.max_connections if role is None else lim.join_burst
            bucket = self._joins[role] = RateLimit(lim.join_rate, burst)
        return bucket.allow()

    # ------------------------------------------------------------------ listeners

    def add_waker(self, wake: Callable[[], None]) -> None:
        """``wake()`` is called after every change (a connection sends its screen then)."""
        self._wakers.add(wake)

    def remove_waker(self, wake: Callable[[], None]) -> None:
        self._wakers.discard(wake)

    def add_drainer(self, drain: Callable[[], Awaitable[None]]) -> None:
        """``await drain()`` sends a connection's last frames (the server awaits every one after
        closing the table, before the sockets close: each page learns it was closed)."""
        self._drainers.add(drain)

    def remove_drainer(self, drain: Callable[[], Awaitable[None]]) -> None:
        self._drainers.discard(drain)

    async def drain(self) -> None:
        """Every connection's last frames out (see :meth:`add_drainer`)."""
        for drain in list(self._drainers):
            await drain()

    def on_change(self, fn: Callable[[], None]) -> None:
        """``fn()`` after every change of the game or of the table (the lobby, the widget)."""
        self._listeners.append(fn)

    def _notify(self) -> None:
        for wake in list(self._wakers):
            wake()
        for fn in list(self._listeners):
            fn()

    # ------------------------------------------------------------------ changes

    def changed(self, force: bool = False) -> bool:
        """Call after the game may have changed (from a cell, a bot, an intent): a new ``seq``,
        the record, the screens and the bots follow.  Returns whether anything changed."""
        v = self.game.version()
        if v == self._version and not force:
            return False
        self._version = v
        self.seq += 1
        self.changes.append((self.seq, time.perf_counter()))
        self._persist()
        self._notify()
        self._schedule_bot()
        self._schedule_deadline()
        return True

    def connections_changed(self) -> None:
        """A connection came or went: screens show who is there.  Presence is not game state:
        no new ``seq`` (a click in flight stays good), the bots' timer runs on, nothing is
        written; only the screens' ``table`` part changes.  (The command line's table that
        starts once every human seat is held does change then: that is a change.)"""
        if self.autostart and not self.started and not self.closed:
            humans = [q for q, kind in enumerate(self.game.seats) if kind == "human"]
            if all(self.connected.get(q, 0) > 0 for q in humans):
                self.started = True
                self.changed(force=True)
                return
        self.presence += 1
        self._notify()

    def _persist(self) -> None:
        """Write the record (when a turn ended since the last one) and then the sidecar.

        Two atomic writes, and a crash may fall between them: the sidecar names the turns
        of the record it goes with (``turns``) and holds only the actions after them
        (``pending``), so :func:`resume_point` can tell a record that went one write ahead
        (its pending actions are in it already) from one that belongs to the sidecar.  A
        record is written whenever its turn count changed, also when the change ended past a
        turn's end (an intent that let a bot or a forced step go on)."""
        if self.record_path is None:
            return
        g = self.game
        if g.turn_number != self._written_turns:
            # mode 0600 like the sidecar: the record holds every hidden value of the game
            _write_atomic(self.record_path, _record_text(g.to_record()), mode=0o600)
            self._written_turns = g.turn_number
        side = {
            "format": "dsa_widget/table@1",
            "keys": self.keys.to_dict(),
            "seats": list(g.seats),
            "started": self.started,
            "turns": self._written_turns,
            "pending": [] if g.at_turn_boundary else g.pending(),
        }
        # the links open the seats: only the owner may read them
        _write_atomic(sidecar_path(self.record_path), json.dumps(side) + "\n", mode=0o600)

    # ------------------------------------------------------------------ intents

    def handle(self, role: int | None, message: Any) -> dict[str, Any] | None:
        """Handle one frame from a client of ``role`` (a seat, ``None``: a spectator).

        Returns ``None`` when applied, else the error frame to send back; a refused frame
        changes nothing.
        """
        try:
            self._handle(role, message)
        except IntentError as exc:
            return {"t": "error", "kind": exc.kind, "message": str(exc)[:300], "seq": self.seq}
        return None

    def _handle(self, role: int | None, message: Any) -> None:
        if not isinstance(message, Mapping):
            raise IntentError("malformed", "a frame is a JSON object")
        kind = message.get("type")
        if kind == "bot_step":
            return  # the server moves its bots itself
        if kind != "intent":
            raise IntentError("malformed", f"unknown frame type {str(kind)[:40]!r}")
        if role is None:
            raise IntentError("seat", "a spectator watches: it cannot play")
        seq = message.get("seq")
        if not is_int(seq):
            raise IntentError("malformed", "an intent needs seq, the state number (an integer)")
        if self.closed:
            raise IntentError("closed", "the table is closed")
        if not self.started:
            raise IntentError("waiting", "the game has not started yet: the host starts it")
        if seq != self.seq:
            raise IntentError(
                "stale", f"that click was for state #{seq} but the game is at #{self.seq}; nothing changed"
            )
        to_move = self.game.to_move
        may_act = getattr(self.game, "may_act", None)  # optional: a seat may act off its turn
        if to_move != role and not (may_act is not None and may_act(role)):
            who = "nobody" if to_move is None else self.players[to_move]
            raise IntentError("seat", f"it is {who}'s turn, not yours; nothing changed")
        self.game.apply_intent(role, message)
        self.changed()

    # ------------------------------------------------------------------ the host

    def start(self, fill: str | None = None) -> None:
        """Start the game.  ``fill``: a bot name given to every human seat nobody holds now."""
        if fill is not None:
            for q, kind in enumerate(self.game.seats):
                if kind == "human" and not self.connected.get(q):
                    self.game.set_seat(q, fill)
        self.started = True
        self.changed(force=True)

    def pause(self, paused: bool = True) -> None:
        """Stop (or let go on) the bots; letting them go on clears a failed bot's problem."""
        self.paused = bool(paused)
        if not self.paused:
            self.problem = None
        self.changed(force=True)

    def close(self) -> None:
        """No more intents; the screens say the table is closed."""
        self.closed = True
        for timer in (self._bot_timer, self._deadline_timer):
            if timer is not None:
                timer.cancel()
        self.changed(force=True)

    # ------------------------------------------------------------------ bots

    def _schedule_bot(self) -> None:
        if self._bot_timer is not None:
            self._bot_timer.cancel()
            self._bot_timer = None
        if self.loop is None or not self.started or self.paused or self.closed or not self.game.bot_due():
            return
        self._bot_timer = self.loop.call_later(self.bot_delay, self._bot_tick, self.seq)

    def _schedule_deadline(self) -> None:
        """A game that acts by itself after a while (a timed mission's clock): the table's
        timer sends its intent when the time comes (the pages send only their seats' moves)."""
        if self._deadline_timer is not None:
            self._deadline_timer.cancel()
            self._deadline_timer = None
        deadline = getattr(self.game, "deadline", None)
        left = deadline() if deadline is not None and self.started and not self.closed else None
        if self.loop is None or left is None:
            return
        self._deadline_timer = self.loop.call_later(left + DEADLINE_SLACK, self._deadline_tick)

    def _deadline_tick(self) -> None:
        self._deadline_timer = None
        if self.closed or not self.started:
            return
        act = getattr(self.game, "on_deadline", None)
        if act is not None:
            act()
        if not self.changed():
            self._schedule_deadline()  # not quite yet: ask again

    def _bot_tick(self, seq: int) -> None:
        self._bot_timer = None
        if seq != self.seq or not self.started or self.paused or self.closed or not self.game.bot_due():
            return
        if self._bot_step():
            self.changed()

    def _bot_step(self) -> bool:
        """One bot step; a bot that fails pauses the table (and says why) instead of stalling it
        with an error on the loop.  Returns whether the bot moved."""
        seat = self.game.to_move
        try:
            self.game.bot_step()
        except Exception as exc:  # noqa: BLE001 -- a bot's bug must not stop the table
            name = self.players[seat] if seat is not None and 0 <= seat < len(self.players) else "a bot"
            kind = self.game.seats[seat] if seat is not None and 0 <= seat < len(self.players) else "bot"
            # the exception's text could name what only the bot knows: its type is enough here
            # (a plug-in's own "bot" refusal is in words it chose to show)
            why = str(exc) if isinstance(exc, IntentError) and exc.kind == "bot" else type(exc).__name__
            self.problem = (
                f"{name}'s bot ({kind}) could not move ({why}). The game is paused: "
                "the host can give the seat another bot or a person, then resume."
            )
            self.paused = True
            self.changed(force=True)
            return False
        return True

    def run_bots(self, max_choices: int = 10_000) -> int:
        """Play bot turns now, with no delay, until a human is to move (tests, a busy host)."""
        k = 0
        while not self.paused and self.game.bot_due() and k < max_choices:
            if not self._bot_step():
                break
            k += 1
            self.changed()
        return k

    def attach_loop(self, loop: asyncio.AbstractEventLoop) -> None:
        """The loop the bots' and the clock's timers run on (the server's)."""
        self.loop = loop
        self._schedule_bot()
        self._schedule_deadline()

    def status(self) -> dict[str, Any]:
        """Seats, who holds them and the game's progress (what the lobby shows)."""
        return {
            "seq": self.seq,
            "players": list(self.players),
            "seats": list(self.game.seats),
            **self.table_info(),
            "turn": self.game.turn_number,
            "over": self.game.is_over,
        }


def read_sidecar(record: str | os.PathLike[str]) -> dict[str, Any]:
    """The sidecar of ``record`` (see :func:`sidecar_path`), checked."""
    path = sidecar_path(record)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ValueError(f"no table file {path} beside the record: it cannot be resumed as served") from None
    except json.JSONDecodeError as exc:
        raise ValueError(f"{path}: not JSON ({exc})") from None
    if not isinstance(data, dict) or data.get("format") != "dsa_widget/table@1":
        raise ValueError(f"{path}: not a dsa_widget table file")
    seats = data.get("seats")
    if not isinstance(seats, list) or not all(isinstance(s, str) for s in seats):
        raise ValueError(f"{path}: 'seats' must be a list of names")
    pending = data.get("pending")
    if pending is not None and not isinstance(pending, list):
        raise ValueError(f"{path}: 'pending' must be a list")
    return data


def resume_point(side: Mapping[str, Any], record_turns: int) -> list[Any] | None:
    """The actions to replay on a record of ``record_turns`` turns, from its sidecar ``side``.

    The table writes the record, then the sidecar; a crash between the two leaves a record
    whose turns run past the sidecar's ``turns``: the sidecar's ``pending`` actions are then
    the start of a turn the record holds whole, and nothing is replayed.  A record with
    fewer turns than its sidecar says is not the sidecar's (a file restored from elsewhere):
    :class:`ValueError`.  A sidecar without ``turns`` (none was ever written without it, but
    a hand-made one) replays its ``pending`` as it is.

    >>> resume_point({"turns": 4, "pending": [["roll", 2, 3]]}, 4)
    [['roll', 2, 3]]
    >>> resume_point({"turns": 4, "pending": [["roll", 2, 3]]}, 5)   # crashed between the writes
    []
    >>> resume_point({"turns": 6, "pending": []}, 5)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: the record has 5 turns but its table file was written after turn 6: ...
    """
    pending = side.get("pending")
    turns = side.get("turns")
    if turns is None:
        return None if pending is None else list(pending)
    if not is_int(turns) or turns < -1:
        raise ValueError("the table file's 'turns' must be a whole number")
    if record_turns < turns:
        raise ValueError(
            f"the record has {record_turns} turns but its table file was written after turn {turns}: "
            "they do not belong together"
        )
    if record_turns > turns:
        return []
    return None if pending is None else list(pending)
