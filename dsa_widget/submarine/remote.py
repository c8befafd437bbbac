"""*Submarine* at a served table (:mod:`dsa_widget.server`): one screen per seat, its own hand only.

:class:`SubmarineTable` is the game's side of :class:`dsa_widget.server.table.TableGame`.  Every
screen is built from ``game.view(viewer).to_dict()`` and nothing else (plus the table's own
facts: the seat kinds, the state number): a seat's socket only ever receives its own hand, a
spectator's public knowledge only; no socket ever receives a pile, the undealt cards or the
card a waiting player tucked under its pile (the view has none of them).  Intents are checked
against the rules (only the seat to move acts, with one of its legal actions); the bot seats
are played by the server.  A turn is several actions (sail, mode, the bathyscaphe step, end):
the record is written at each turn's end, the actions of the turn under way go to the table's
sidecar, and resuming replays them.

The served page draws the screen with the Submarine front end (``bundle = "submarine"``: the
server hands out ``static/submarine.js`` as the page's board).

>>> from dsa_widget.submarine.rules import SubmarineGame
>>> t = SubmarineTable(SubmarineGame(["Ann", "Bob", "Cy"], seed=1), seats=["human", "random", "random"])
>>> t.seats, t.players
(['human', 'random', 'random'], ('Ann', 'Bob', 'Cy'))
>>> ann, bob = t.screen(0, seq=1)["state"], t.screen(1, seq=1)["state"]
>>> ann["seat"], ann["hand"] == list(t.game.hand(0)), bob["hand"] == list(t.game.hand(1))
(0, True, True)
>>> "hands" in ann or "piles" in ann or "undealt" in ann
False
>>> t.screen(None, seq=1)["state"]["hand"] is None     # a spectator: public knowledge only
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError
from ..server.table import IntentError

if TYPE_CHECKING:
    from ..server.limits import Limits
    from ..server.runner import Server
    from ..server.table import Table
    from .rules import SubmarineGame

__all__ = ["SubmarineTable", "make_submarine_table", "serve_submarine"]

HUMAN = "human"
_MAX_CHOICE_LEN = 120

Bot = Callable[[Any, tuple[str, ...]], Any]


def bot_names() -> list[str]:
    """The bot names a served seat may take (``dsa_widget.submarine.bots.BOT_NAMES``)."""
    from .bots import BOT_NAMES

    return [str(n) for n in BOT_NAMES]


def _make_bot(spec: Any, seed: int | None) -> tuple[Bot | None, str]:
    """``(bot or None, label)`` for a seat: ``"human"``, a bot name or ``bot(view, legal)``."""
    if spec is None or spec == HUMAN:
        return None, HUMAN
    if callable(spec):
        label = getattr(spec, "name", None) or getattr(spec, "__name__", None) or type(spec).__name__
        return spec, str(label)
    names = bot_names()
    if not isinstance(spec, str) or spec not in names:
        raise ValueError(f"unknown bot {str(spec)[:40]!r}; bots: {', '.join(names)} (or 'human')")
    from .bots import make_bot

    bot: Bot = make_bot(spec, seed=seed)
    return bot, spec


def _bot_help() -> dict[str, str]:
    from .bots import BOT_SUMMARIES

    return {str(k): str(v) for k, v in BOT_SUMMARIES.items()}


class SubmarineTable:
    """A game of *Submarine* at a served table.

    ``game`` (a :class:`~dsa_widget.submarine.rules.SubmarineGame`) is shared, not copied;
    ``seats``: one ``"human"``, bot name or bot callable ``bot(view, legal) -> action`` per seat;
    ``bot_seed`` seeds the bots (seat ``q`` gets ``bot_seed + q``).
    """

    #: the front end the served page draws this game with (``static/submarine.js``, ``.css``)
    bundle = "submarine"

    def __init__(
        self,
        game: SubmarineGame,
        seats: Sequence[Any] | None = None,
        *,
        bot_seed: int | None = None,
        bot_delay_ms: int = 600,
    ) -> None:
        self.game = game
        self._bot_seed = bot_seed
        self.bot_delay_ms = int(bot_delay_ms)
        n = int(game.seats)
        specs = list(seats) if seats is not None else [HUMAN] * n
        if len(specs) != n:
            raise ValueError(f"seats: {len(specs)} given for {n} seats")
        self._bots: dict[int, Bot] = {}
        self._labels: list[str] = [HUMAN] * n
        for q, spec in enumerate(specs):
            self.set_seat(q, spec)
        self._first: set[int | None] = set()
        self._sent_delay: dict[int | None, int] = {}

    # ------------------------------------------------------------------ TableGame

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.game.players)

    @property
    def seats(self) -> list[str]:
        """Per seat ``"human"`` or the bot's label."""
        return list(self._labels)

    @property
    def bot_names(self) -> list[str]:
        """The bots a seat may be given (the lobby offers them)."""
        return bot_names()

    def set_seat(self, seat: int, spec: Any) -> None:
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(self._labels):
            raise ValueError(f"no seat {seat!r}")
        bot, label = _make_bot(spec, None if self._bot_seed is None else self._bot_seed + seat)
        if bot is None:
            self._bots.pop(seat, None)
        else:
            self._bots[seat] = bot
        self._labels[seat] = label

    def _actions_done(self) -> int:
        return sum(len(a) for _, a in self.game.history)

    def version(self) -> Hashable:
        return (id(self.game), self._actions_done(), self.game.is_over, tuple(self._labels))

    @property
    def is_over(self) -> bool:
        return bool(self.game.is_over)

    @property
    def to_move(self) -> int | None:
        """The seat whose choice it is, ``None`` at the end."""
        g = self.game
        t = g.to_move
        if g.is_over or isinstance(t, bool) or not isinstance(t, int) or t < 0:
            return None
        return t

    @property
    def turn_number(self) -> int:
        return int(self.game.turn_number)

    @property
    def at_turn_boundary(self) -> bool:
        return bool(self.game.at_turn_boundary)

    def pending(self) -> list[Any] | None:
        """The actions of the turn under way (the sidecar keeps them, to resume mid-turn)."""
        if self.game.at_turn_boundary:
            return []
        hist = self.game.history
        return list(hist[-1][1]) if hist else []

    def to_record(self) -> Mapping[str, Any]:
        return self.game.to_record()

    def apply_intent(self, seat: int, message: Mapping[str, Any]) -> None:
        choice = message.get("choice")
        if not isinstance(choice, str) or not 0 < len(choice) <= _MAX_CHOICE_LEN:
            raise IntentError("malformed", "choice must be a short string (an action such as 'sail 3')")
        g = self.game
        if g.is_over:
            raise IntentError("illegal", "the game is over")
        if seat != self.to_move:
            raise IntentError("seat", "it is not your turn")
        if seat in self._bots or self._labels[seat] != HUMAN:
            raise IntentError("seat", "a bot plays this seat")
        if choice not in g.legal_actions():
            raise IntentError("illegal", f"{choice[:40]!r} is not legal now")
        try:
            g.apply(choice)
        except GameError as exc:  # pragma: no cover - legal_actions() said it was legal
            raise IntentError("illegal", str(exc)) from None

    def bot_due(self) -> bool:
        t = self.to_move
        return t is not None and t in self._bots

    def bot_step(self) -> None:
        g = self.game
        seat = self.to_move
        if seat is None or seat not in self._bots:
            raise IntentError("seat", "no bot is to move")
        legal = tuple(g.legal_actions())
        try:
            choice = self._bots[seat](g.view(seat), legal)
        except Exception:  # noqa: BLE001 -- a failing bot must not stop the table
            choice = None
        if not isinstance(choice, str) or choice not in legal:
            # a bot's mistake must not stop the table: it plays the first legal action instead
            choice = legal[0]
        g.apply(choice)

    def screen(self, viewer: int | None, seq: int) -> dict[str, Any]:
        """``viewer``'s model: ``state`` is ``game.view(viewer).to_dict()`` and the table's facts
        (seat kinds, seq, who acts); the first call for a viewer adds the board's settings."""
        g = self.game
        human = viewer is not None and self._labels[viewer] == HUMAN
        st = dict(g.view(viewer).to_dict())
        legal = [str(a) for a in st.get("legal") or ()] if human and not g.is_over else []
        st.update(
            legal=legal,
            seq=seq,
            mode="real",
            kinds=list(self._labels),
            actor=self.to_move,
            can_act=bool(legal),
            over=bool(g.is_over),
            paused=False,
            curtain=None,
            history=None,  # no scrubbing on a served table (and no action log: it is the truth)
            clock=None,
        )
        out: dict[str, Any] = {"state": st}
        if viewer not in self._first:
            out.update(
                {
                    "bot_names": [],
                    "bot_help": _bot_help(),
                    "paused": False,
                    "setup": None,  # no setup panel: the host sets the game up
                }
            )
            self._first.add(viewer)
        if self._sent_delay.get(viewer) != self.bot_delay_ms:
            out["bot_delay"] = self._sent_delay[viewer] = self.bot_delay_ms
        return out

    # ------------------------------------------------------------------ resuming

    @classmethod
    def resume(
        cls, record: Any, seats: Sequence[Any], pending: Sequence[Any] | None = None, **kwargs: Any
    ) -> SubmarineTable:
        """The table of a record this server wrote (a path or the record), its seat labels and the
        actions of the turn under way (the sidecar's ``pending``, replayed checked); a seat a bot
        function played (its label is no bot name) comes back as a human's."""
        from .rules import SubmarineGame

        if isinstance(record, (str, os.PathLike)):
            record = json.loads(Path(record).read_text(encoding="utf-8"))
        g = SubmarineGame.from_record(record)
        for a in pending or ():
            if g.is_over or not isinstance(a, str) or a not in g.legal_actions():
                raise ValueError(f"the table file's turn under way does not fit the record ({str(a)[:40]!r})")
            g.apply(a)
        names = bot_names()
        specs = [s if s == HUMAN or s in names else HUMAN for s in seats]
        return cls(g, specs, **kwargs)


# ---------------------------------------------------------------------- serving


def _seat_list(seats: Mapping[int, Any] | Sequence[Any] | None, n: int) -> list[Any]:
    specs: list[Any] = [HUMAN] * n
    if seats is None:
        return specs
    if isinstance(seats, Mapping):
        for k, v in seats.items():
            if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < n:
                raise ValueError(f"seats: seat {k!r} is not 0..{n - 1}")
            specs[k] = v
        return specs
    if isinstance(seats, str) or len(seats) != n:
        raise ValueError(f"seats: one entry per seat ({n})")
    return list(seats)


def _game_of(source: Any, setup: Mapping[str, Any]) -> tuple[Any, list[Any] | None]:
    """The game to serve and, for a Submarine widget, its seats (labels)."""
    from .rules import SubmarineGame

    if source is None:
        return SubmarineGame(**setup), None
    if setup:
        raise TypeError("give either a game (or a Submarine widget, or a record) or setup keywords, not both")
    if isinstance(source, SubmarineGame):
        return source, None
    inner = getattr(source, "game", None)
    if isinstance(inner, SubmarineGame):  # a Submarine widget: (a copy of) its game and its seats
        labels = list(getattr(source, "seats", None) or [])
        return inner, labels or None
    if isinstance(source, Mapping):
        return SubmarineGame.from_record(source), None
    if isinstance(source, (str, os.PathLike)):
        return SubmarineGame.from_record(json.loads(Path(source).read_text(encoding="utf-8"))), None
    raise TypeError(
        f"cannot serve {type(source).__name__}: give a SubmarineGame, a Submarine widget or a record"
    )


def make_submarine_table(
    source: Any = None,
    /,
    *,
    seats: Mapping[int, Any] | Sequence[Any] | None = None,
    record: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | None = None,
    limits: Limits | None = None,
    bot_delay: float = 0.6,
    bot_seed: int | None = None,
    started: bool = False,
    **setup: Any,
) -> Table:
    """A Submarine table: from setup keywords (as ``SubmarineGame``: ``players``, ``seed``,
    ``options``), a ``SubmarineGame``, a ``Submarine`` widget (a copy of its game, its seats), a
    record, or ``resume=PATH`` (a record this server wrote, with its sidecar: the same seats, the
    same links, the turn under way).  ``record``: where the record is written after every turn
    (the sidecar after every action)."""
    from ..server.seats import SeatKeys
    from ..server.table import Table, read_sidecar

    delay_ms = int(bot_delay * 1000)
    if resume is not None:
        if source is not None or setup or seats is not None:
            raise TypeError("resume=PATH takes the game, its seats and links from the files")
        side = read_sidecar(resume)
        game = SubmarineTable.resume(
            resume, side["seats"], side.get("pending"), bot_seed=bot_seed, bot_delay_ms=delay_ms
        )
        return Table(
            game,
            keys=SeatKeys.from_dict(side["keys"]),
            limits=limits,
            record=record or resume,
            bot_delay=bot_delay,
            started=bool(side.get("started")),
        )
    g, labels = _game_of(source, setup)
    n = int(g.seats)
    if seats is None and labels is not None:
        names = bot_names()
        specs = [s if s in names else HUMAN for s in labels]
    else:
        specs = _seat_list(seats, n)
    return Table(
        SubmarineTable(g, specs, bot_seed=bot_seed, bot_delay_ms=delay_ms),
        limits=limits,
        record=record,
        bot_delay=bot_delay,
        started=started,
    )


def serve_submarine(
    source: Any = None,
    /,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    base_url: str | None = None,
    allowed_origins: Sequence[str] = (),
    fill: str | None = None,
    **kwargs: Any,
) -> Server:
    """Serve a Submarine table (keywords as :func:`make_submarine_table`; ``source`` may be a
    ``Submarine`` widget) and return the running :class:`~dsa_widget.server.Server`:
    ``srv.seat_urls``, ``srv.spectator_url``, ``srv.table.start(fill="greedy")``, ``srv.lobby``
    in a notebook.  ``fill``: the bot the lobby's Start button offers for the seats nobody holds.

    >>> srv = serve_submarine(players=["Ann", "Bob", "Cy"], seats={2: "random"}, seed=1)
    >>> len(srv.seat_urls), srv.table.game.seats
    (3, ['human', 'human', 'random'])
    >>> srv.stop()
    """
    from ..server.runner import Server

    table = make_submarine_table(source, **kwargs)
    srv = Server(table, host=host, port=port, base_url=base_url, allowed_origins=allowed_origins)
    names = bot_names()
    srv.fill = fill if fill is not None else ("greedy" if "greedy" in names else names[0])
    return srv.start()
