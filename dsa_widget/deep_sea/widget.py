"""``DeepSea``: play Deep Sea Adventure in JupyterLab (an anywidget), on the platform's table.

The session (:class:`~dsa_widget.core.session.Session`) holds the game, the seats and bots,
the real game's steps (undo, redo), what-if and kept states, and checks every message; the
bridge (:class:`~dsa_widget.bridge.GameWidget`) syncs its screen; the game's part of the screen
is :class:`~dsa_widget.deep_sea.presenter.DeepSeaPresenter`'s.  What stays here is Deep Sea's
own: its board (``js/widget.js``) and the keys it reads, the turn frames of the history
(``history``/``history_tail``, scrubbable with no kernel), the probability overlays, what-if
from a *turn* with fresh dice, and the table rules of a shared screen.

>>> w = DeepSea(players=["Ann", "Bob"], seed=1, seats={1: "random"})
>>> w.state["current"], w.state["legal"], w.state["seats"]
(0, ['roll'], ['human', 'random'])
>>> w.roll((2, 3)); w.apply("take")          # Ann's turn, from Python
>>> w.state["divers"][0]["items"]            # a level-1 chip, value hidden
[[[1]]]
>>> w.handle_intent({"type": "intent", "seq": 1, "choice": "roll"})   # stale: nothing changes
>>> w.error["kind"], w.game.current_player
('stale', 1)
>>> n = w.play_bots(); w.game.current_player  # Bob (a bot) plays his turn
0

Messages from the front end (``model.send``) are the platform's (:class:`~dsa_widget.core.
session.Session`: intent, bot_step, pause, undo, redo, keep, back_to_real, show_seat, new_game,
play_again, hello) and Deep Sea's own: ``{"type": "what_if", "seq": n, "turn": k}`` (a branch
of turn ``k``, null: now) and ``{"type": "roll", "seq": n, "dice": [1, 3]}`` (chosen dice, in a
what-if only).  A shared screen (``viewer`` ``None``) plays for whichever human seat is to
move.  Hot-seat (``hot_seat=True``): between two seats a curtain, the browser holding public
knowledge only until the next player presses Show; to keep a seat's view from every other
browser, serve the game (:meth:`DeepSea.serve`, docs/SERVER.md).

What-if, history and hints (see :meth:`DeepSea.branch`)::

    w.branch()            # or w.what_if(turn=3): a branch of now / of turn 3
    w.roll((1, 1)); w.apply("take"); w.keep()   # keep this outcome for comparison
    w.undo(); w.undo(); w.roll((3, 3)); w.redo()
    w.compare()           # real, kept outcomes and the what-if side by side
    w.back_to_real()      # the real game was never touched
    w.show_turn(5)        # the board shows turn 5 of the history (w.show_turn(None): live)
    w.game_after(5)       # that state as a Game (exactly what a record of 5 turns replays to)
    w.hints = False       # no probability overlays
    w.undo()              # outside what-if: rewinds the real game in place (dice too)

Synced traits besides ``state``: ``history`` (frames of the completed rounds) and
``history_tail`` (the current round's), compact deltas of levels only unless values may be
shown, so a saved page can be scrubbed with no kernel; ``scrub`` (the turn shown, -1 live);
``hints`` and ``overlay`` (the numbers for state ``seq``, computed after the state).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, ClassVar

import traitlets

from ..bridge import GameWidget
from ..core.bots import bot_name
from ..core.errors import GameError
from ..core.protocol import CHANCE
from ..core.session import HUMAN, Refusal, Session, seat_list
from ..core.timeline import Timeline, TimelineError
from .analysis.overlay import overlay_for
from .compare import Comparison, compare
from .errors import IllegalActionError
from .frames import HistoryBuilder
from .presenter import DeepSeaPresenter
from .rules import Game
from .setup import Setup
from .state import state_bytes

__all__ = ["DeepSea", "bot_names", "resolve_bot"]

_SETUP_KEYS = ("players", "air", "rounds", "first_player", "seed", "path", "options")
_MAX_CHOICE_LEN = 32

Bot = Callable[[Any, tuple[str, ...]], str]  # as bots.base.BotLike: (view, legal choices) -> choice


def bot_names() -> list[str]:
    """The bot names a seat may take.

    >>> "random" in bot_names()
    True
    """
    from .bots import BOT_NAMES

    return list(BOT_NAMES)


def resolve_bot(spec: Any, seed: int | None = None) -> tuple[Bot | None, str]:
    """``(bot or None, label)`` for a seat spec: ``"human"``, a bot name or a callable.

    >>> resolve_bot("human")
    (None, 'human')
    >>> resolve_bot("random")[1]
    'random'
    """
    if spec is None or spec == HUMAN:
        return None, HUMAN
    if callable(spec):
        return spec, bot_name(spec)
    if not isinstance(spec, str):
        raise TypeError(f"a seat is 'human', a bot name or a bot callable, got {spec!r}")
    from .bots.registry import BOTS

    try:
        return BOTS.make_bot(spec, seed=seed), spec
    except GameError:
        raise ValueError(f"unknown bot {spec!r}; bots: {', '.join(bot_names())} (or 'human')") from None


class DeepSeaSession(Session):
    """Deep Sea's table: with ``viewer="auto"`` the screen is the only human seat's, else a
    shared screen (public knowledge); hot-seat shows a seat only while it is to move."""

    @property
    def viewer(self) -> int | None:
        if self.hot_seat:
            t = self.actor(self.real.current)
            ok = self.branch_line is None and t is not None and t not in self._bots
            return t if ok and t == self._curtain_open else None
        spec = self._viewer_spec
        if spec == "auto":
            humans = self.humans
            return humans[0] if len(humans) == 1 else None
        # a seat the current game does not have (a new game with fewer players): public
        return spec if isinstance(spec, int) and spec < len(self.real.current.players) else None


class DeepSea(GameWidget):
    """A playable Deep Sea Adventure board.

    Build it from setup keywords (as :class:`~dsa_widget.deep_sea.rules.Game`), or
    from a ``Game``, a ``Setup``, or a record (dict, JSON text or path)::

        DeepSea(players=["You", "Bot"], seats={1: "heuristic"}, seed=7)
        DeepSea(players=3, air=20, rounds=2, options={"reveal": "owner"})
        DeepSea(game)                       # wrap an existing game (shared, not copied)
        DeepSea.load("game.json", seats={1: "random"})

    ``seats`` maps a seat to ``"human"`` (default), a bot name (:func:`bot_names`) or a
    callable ``bot(view, legal) -> choice``; it may also be a list with one entry per seat.
    ``reveal_all=True`` sends every chip value to the browser (teaching); otherwise unbanked
    values never leave Python.  ``viewer`` is the seat whose private knowledge the screen
    shows (``"auto"``: the only human seat if there is exactly one, else a shared screen
    showing public knowledge only).  ``bot_delay`` is the pause in ms before each bot choice
    in the browser; ``bot_seed`` seeds the bots (seat ``q`` gets ``bot_seed + q``).
    ``hot_seat=True``: one device passed round, the board behind a curtain between seats and
    showing only the seat to move; :meth:`serve` gives each player a screen.

    >>> w = DeepSea(players=["Ann", "Bob"], hot_seat=True, seed=2)
    >>> w.state["curtain"], w.viewer
    ({'seat': 0, 'name': 'Ann', 'shown': False}, None)
    >>> w.show_seat(); w.viewer
    0
    """

    GAME = "deep-sea"
    PRESENTER = DeepSeaPresenter
    SESSION = DeepSeaSession
    #: the board's words for the platform's refusals (it styles "illegal" and "stale")
    KIND_ALIASES: ClassVar[Mapping[str, str]] = {
        k: "illegal" for k in ("whatif", "curtain", "not_your_turn", "over", "history")
    }

    bot_delay = traitlets.Int(600).tag(sync=True)
    #: the teaching switch: send every chip value (Python side only)
    reveal_all = traitlets.Bool(False)
    #: frames of the completed rounds (see :class:`~dsa_widget.deep_sea.frames.HistoryBuilder`)
    history = traitlets.Dict().tag(sync=True)
    #: frames of the round being played (small: it changes at every turn)
    history_tail = traitlets.Dict().tag(sync=True)  # type: ignore[assignment]
    #: the turn the board shows from the history (-1: the live game); the timeline slider sets it
    scrub = traitlets.Int(-1).tag(sync=True)
    #: probability overlays for the player to move (landing, getting home, air)
    hints = traitlets.Bool(True).tag(sync=True)
    #: the overlay numbers for state ``seq`` (empty when hints are off)
    overlay = traitlets.Dict().tag(sync=True)

    #: how many what-if states :meth:`keep` holds at once
    KEEP_MAX = Session.KEEP_MAX

    def __init__(
        self,
        source: Game | Setup | Mapping[str, Any] | str | os.PathLike[str] | None = None,
        /,
        *,
        seats: Mapping[int, Any] | Sequence[Any] | None = None,
        reveal: bool | None = None,
        reveal_all: bool = False,
        viewer: int | None | str = "auto",
        bot_delay: int = 600,
        bot_seed: int | None = None,
        hot_seat: bool = False,
        game: Game | None = None,
        **setup: Any,
    ) -> None:
        if game is not None:  # the platform's name for a board's game
            if source is not None:
                raise TypeError("give the game once")
            source = game
        game = self._make_game(source, setup)
        seats = seat_list(seats, len(game.players))  # (a bad seat raises before the board is made)
        self._ready = False
        self._server: Any = None
        self._bytes: list[int] = []
        self._history = HistoryBuilder()
        self._history_bytes: list[int] = []
        self._overlay_ms: list[float] = []
        self._branch_turn: int | None = None  # the turn the what-if started from (None: now)
        self._branch_seed: int | None = None  # dice of new branches (None: fresh randomness)
        reveal = bool(reveal) if reveal is not None else bool(reveal_all)
        super().__init__(
            game=game, seats=seats, viewer=viewer, hot_seat=hot_seat, reveal=reveal,
            bot_delay=bot_delay, bot_seed=bot_seed,
        )  # fmt: skip
        self._ready = True
        self.reveal_all = reveal
        self.session.changed()  # the first state is #1: a message quoting 0 is stale, as it always was

    @staticmethod
    def _make_game(source: Any, setup: Mapping[str, Any]) -> Game:
        if source is None:
            return Game(**setup)
        if setup:
            raise TypeError("give either a game/setup/record or setup keywords, not both")
        if isinstance(source, Game):
            return source
        if isinstance(source, Setup):
            return Game(source)
        return Game.from_record(source)

    # ------------------------------------------------------------------ reading

    @property
    def game(self) -> Game:
        """The game (the single source of truth).  After changing it directly,
        call :meth:`refresh` so the board follows."""
        g: Game = self.session.game
        return g

    @property
    def hot_seat(self) -> bool:
        """True when one device is passed round: the board shows only the seat to move."""
        return self.session.hot_seat

    @property
    def serving(self) -> bool:
        """True while :meth:`serve` serves this game (the board then shows public knowledge)."""
        return self._server is not None and not self._server.table.closed

    @property
    def server(self) -> Any:
        """The :class:`~dsa_widget.server.Server` of :meth:`serve` (``None`` when not served)."""
        return self._server

    @property
    def viewer(self) -> int | None:
        """The seat whose private knowledge the screen shows (``None``: a shared screen)."""
        return None if self.serving else self.session.viewer

    @property
    def reveal(self) -> bool:
        return bool(self.reveal_all)

    @reveal.setter
    def reveal(self, value: bool) -> None:
        self.reveal_all = bool(value)

    @property
    def log(self) -> list[str]:
        """The whole turn log in words (the board shows its tail)."""
        p = self.session.presenter
        assert isinstance(p, DeepSeaPresenter)
        return p.log_for(self.session, self.viewer)

    @property
    def update_bytes(self) -> list[int]:
        """JSON size of every state published so far (for benchmarks)."""
        return list(self._bytes)

    @property
    def history_bytes(self) -> list[int]:
        """JSON bytes sent for history at each turn (the tail, plus the completed rounds when they grew)."""
        return list(self._history_bytes)

    @property
    def overlay_ms(self) -> list[float]:
        """Milliseconds spent computing each overlay (after the state was published)."""
        return list(self._overlay_ms)

    @property
    def shown_game(self) -> Game:
        """The game on the board: the what-if branch's (a copy), or the real :attr:`game`."""
        g: Game = self.session.shown.copy() if self.in_what_if else self.game
        return g

    @property
    def timeline(self) -> Timeline[Game] | None:
        """The what-if branch's :class:`~dsa_widget.core.timeline.Timeline` (``None`` outside what-if)."""
        return self.session.branch_line

    @property
    def history_turns(self) -> int:
        """Completed turns in the real game's history (frames ``0..history_turns``)."""
        return self._history.n_turns

    # ------------------------------------------------------------------ acting (Python API)

    def _verb(self, fn: Callable[[], Any]) -> Any:
        """Run a session verb; its refusals read as the widget's errors always did."""
        try:
            return self._do(fn)
        except Refusal as r:
            raise TimelineError(r.message) from None

    def apply(self, choice: Any, seat: int | None = None) -> None:
        """Apply a legal choice for whoever is to play (in the what-if branch when one is
        open); raises :class:`~dsa_widget.deep_sea.errors.IllegalActionError` (and changes
        nothing) if illegal."""
        g = self.session.shown
        if g.to_move == CHANCE and choice != g.CHANCE_ACTION:
            g.copy().apply(choice)  # the game's own words for it
        super().apply(choice, seat)

    def roll(self, dice: Sequence[int] | None = None) -> None:
        """Roll (``dice=(d1, d2)`` forces the dice) and swim."""
        g = self.session.shown
        if g.is_over or g.to_move != CHANCE:
            g.copy().roll(dice)  # the game's own error
        self._do(self.session.chance, None if dice is None else tuple(dice))

    def bot_move(self, bot: Any = None) -> str:
        """Let a bot make one choice for the player to move; returns the choice.

        ``bot`` defaults to the seat's own bot, else a random-legal bot.  In a
        what-if branch the branch moves (the real game is untouched).
        """
        s = self.session
        g = s.shown
        if g.is_over:
            raise IllegalActionError("the game is over; no more turns", None, ())
        seat = g.current_player
        if bot is None and (s.in_what_if or seat in s.bots):
            return str(self._do(s.bot_move))
        if g.to_move == CHANCE:
            self._do(s.chance, None)
            return str(g.CHANCE_ACTION)
        from .bots import make_bot

        b = resolve_bot(bot)[0] if bot is not None else make_bot("random")
        assert b is not None
        choice = b(g.view(seat), g.legal_choices())
        self.apply(choice)
        return choice

    def play_bots(self, max_choices: int = 10_000) -> int:
        """Let bot seats play until a human is to move or the game ends; returns the choices made."""
        k = 0
        while not self.in_what_if and self.is_bot_turn() and k < max_choices and self.session.problem is None:
            self.bot_move()
            k += 1
        return k

    def new_game(self, *, seats: Any = None, **setup: Any) -> None:
        """Start a new game (setup keywords as :class:`Game`); ``seats`` as in the
        constructor (default: keep the seats when the player count is the same)."""
        g = Game(**{k: v for k, v in setup.items() if v is not None})
        n = len(g.players)
        if seats is None and len(self.seats) != n:
            seats = [HUMAN] * n
        specs = None if seats is None else seat_list(seats, n)
        for spec in specs or ():
            resolve_bot(spec)  # every seat checked before anything changes
        s = self.session
        if s.in_what_if:
            s.back_to_real()
        s.restart(g)
        for q, spec in enumerate(specs or ()):
            s.set_seat(q, spec)
        self.error = {}
        s.changed()

    def play_again(self) -> None:
        """A new game like this one (players, seats, air, rounds, options, a custom path), with a
        fresh shuffle and fresh dice: the game summary's Play-again button."""
        self.new_game(**self.session.hooks.replay_setup(self.game, {}))

    def show_seat(self) -> None:
        """Hot-seat: lift the curtain for the seat to move (the board's Show button)."""
        if self.session.curtain_seat() is None:
            raise IllegalActionError("there is no curtain to lift", None, ())
        self.session.handle({"type": "show_seat", "seq": self.seq})

    # ------------------------------------------------------------------ what-if, history

    def game_after(self, turn: int) -> Game:
        """A copy of the real game as it was after ``turn`` turns (what a record of that many turns
        replays to)."""
        self._history.update(self.game, viewer=self.viewer, reveal_all=self.reveal_all)
        return self._history.game_after(turn)

    def branch(self, turn: int | None = None) -> Timeline[Game]:  # type: ignore[override]
        """Open a what-if branch: of the state after ``turn`` turns, else of the turn
        the board is showing (:attr:`scrub`), else of the live game.

        In the branch every seat is played from here or the board (bots wait
        for their "bot move" button), dice may be chosen (``roll((1, 3))``)
        and :meth:`undo`/:meth:`redo` work; :meth:`compare` puts it beside the
        real game and :meth:`back_to_real` closes it.  The real game is never
        touched.  Returns the branch's timeline (read it; act through the widget).
        """
        if turn is None and self.scrub >= 0:
            turn = self.scrub
        if turn is None:
            start = self.game.copy()
        elif isinstance(turn, bool) or not isinstance(turn, int):
            raise TypeError(f"turn must be an int, got {turn!r}")
        else:
            start = self.game_after(turn)
        # fresh dice: a branch's random rolls must not foretell the real game's next ones
        fresh = random.SystemRandom().getrandbits(64) if self._branch_seed is None else self._branch_seed
        start.set_dice(fresh)
        self._branch_turn = turn
        self.session.branch(start=start, label=None if turn is None else f"real at turn {turn}")
        self.scrub = -1
        self.session.changed()
        line = self.session.branch_line
        assert line is not None
        return line

    what_if = branch

    def undo(self, n: int = 1) -> None:
        """Undo ``n`` choices or rolls: in the what-if branch, else in the real game (rewound in
        place, dice included: ``w.game`` stays the same object)."""
        self._verb(lambda: self.session.undo(n))

    def redo(self, n: int = 1) -> None:
        """Redo ``n`` undone choices or rolls (what-if branch, else the real game)."""
        self._verb(lambda: self.session.redo(n))

    def keep(self, name: str | None = None) -> str:
        """Keep the what-if's current state as a row of the comparison (see :meth:`compare`),
        so one outcome can stay in view while you undo and try another.  Returns its name
        (default ``"kept 1"``, ``"kept 2"``...).  At most :attr:`KEEP_MAX`; leaving the
        what-if forgets them.

        >>> w = DeepSea(players=["Ann", "Bob"], seed=1)
        >>> _ = w.branch(); w.roll((3, 3)); w.keep()
        'kept 1'
        >>> w.undo(); w.roll((1, 1)); [r["name"] for r in w.compare().rows]
        ['real', 'kept 1', 'what-if']
        """
        if name is not None and (not isinstance(name, str) or not name.strip() or len(name) > 24):
            raise TypeError(f"name must be a short non-empty string (at most 24 characters), got {name!r}")
        return str(self._verb(lambda: self.session.keep(name)))

    def compare(self) -> Comparison:  # type: ignore[override]
        """The real game, the states kept by :meth:`keep` and the what-if branch side by side
        (round, air, scores, positions, items).  Python sees true scores; the board's compare
        panel hides what the viewer may not know."""
        line = self.session.branch_line
        if line is None:
            raise TimelineError("no what-if branch is open: open one with w.branch()")
        games = {"real": self.game}
        if self._branch_turn is not None:
            games[f"real at turn {self._branch_turn}"] = next(iter(line.frames()))
        games.update(self.session.kept)
        games["what-if"] = line.current
        return compare(**games)

    def back_to_real(self) -> None:
        """Close the what-if branch; the board shows the real game (which never changed)."""
        if self.in_what_if:
            self._do(self.session.back_to_real)

    def show_turn(self, turn: int | None) -> None:
        """Show the board as it was after ``turn`` turns (``None``: the live game)."""
        if turn is None:
            self.scrub = -1
            return
        if isinstance(turn, bool) or not isinstance(turn, int) or not 0 <= turn <= self.history_turns:
            raise ValueError(f"turn must be 0..{self.history_turns}, got {turn!r}")
        self.scrub = turn

    def publish_history(self) -> int:
        """Sync the history frames now (they also sync at every turn); returns their JSON bytes."""
        self._sync_history(force=True)
        return self._history_bytes[-1] if self._history_bytes else 0

    def save(self, path: Any) -> None:
        """Write the game record (RECORD.md JSON) to ``path``."""
        self.game.save(path)

    @classmethod
    def load(cls, source: Any, **kwargs: Any) -> DeepSea:
        """A widget on a game replayed from a record (path, JSON text or dict)."""
        return cls(Game.from_record(source), **kwargs)  # its history syncs at once: scrubbable

    @traitlets.validate("scrub")
    def _valid_scrub(self, proposal: Any) -> int:
        v = int(proposal["value"])
        return -1 if v < 0 else min(v, self._history.n_turns)

    @traitlets.observe("hints")
    def _on_hints(self, change: Any) -> None:
        if self._ready:
            self._publish_overlay()

    @traitlets.observe("reveal_all")
    def _on_reveal(self, change: Any) -> None:
        if self._ready and bool(change["new"]) != self.session.reveal:
            self.session.set_reveal(bool(change["new"]))
            self.session.changed()

    # ------------------------------------------------------------------ intents (front end)

    def _seq_refusal(self, content: Mapping[str, Any]) -> Refusal | None:
        seq = content.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return Refusal("malformed", f"{content.get('type')} needs the state number seq (an integer)")
        if seq != self.seq:
            return Refusal(
                "stale",
                f"that click was for state #{seq} but the game has moved on to #{self.seq}; nothing changed",
            )
        return None

    def _handle(self, content: Any) -> Refusal | None:
        kind = content.get("type") if isinstance(content, Mapping) else None
        own = {"intent": self._choice_intent, "what_if": self._what_if_intent}.get(str(kind))
        if own is not None or (kind in ("new_game", "play_again") and self.in_what_if):
            refusal = self._seq_refusal(content)
            if refusal is not None:
                return refusal
            if own is None:
                return Refusal("illegal", "go back to the real game before starting a new one")
            return own(content)
        if kind == "bot_step" and self.serving and not self.in_what_if:
            return None  # the server's bots play
        return super()._handle(content)

    def _choice_intent(self, content: Mapping[str, Any]) -> Refusal | None:
        choice = content.get("choice")
        if not isinstance(choice, str) or len(choice) > _MAX_CHOICE_LEN:
            return Refusal("malformed", f"choice must be a short string, got {str(choice)[:40]!r}")
        s = self.session
        g = s.shown
        if not s.in_what_if:
            if self.serving:
                return Refusal(
                    "illegal",
                    "this game is served: each player plays from his own seat's link (see the lobby)",
                )
            if g.is_over:
                return Refusal("illegal", "the game is over; start a new game")
            seat = g.current_player
            if seat in s.bots:
                return Refusal("illegal", f"it is {g.players[seat]}'s turn, and a bot plays that seat")
        try:
            self.apply(choice)
        except GameError as exc:
            return Refusal("illegal", str(exc))
        return None

    def _what_if_intent(self, content: Mapping[str, Any]) -> Refusal | None:
        turn = content.get("turn")
        if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
            return Refusal("malformed", "what_if needs turn: a turn number or null")
        if turn is not None and not 0 <= turn <= self._history.n_turns:
            return Refusal("illegal", f"turn {turn} is not in the history (0..{self._history.n_turns})")
        if turn is None:  # a branch of the live state, whatever the board was showing
            self.scrub = -1
        self.branch(turn)
        return None

    def check_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The setup panel's object as :meth:`new_game` keywords."""
        own = ("path", "first_player", "seats")  # besides the platform's players, kinds, seed...
        unknown = sorted(str(k) for k in set(setup) - {*_SETUP_KEYS, *own, "kinds"})
        if unknown:
            raise TypeError(f"unknown setup key {unknown[0][:40]!r}")
        out = super().check_setup({k: v for k, v in setup.items() if k not in own})
        return {**out, **{k: setup[k] for k in own if setup.get(k) is not None}}

    # ------------------------------------------------------------------ serving (docs/SERVER.md)

    def serve(  # type: ignore[override]
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        record: str | os.PathLike[str] | None = None,
        resume: str | os.PathLike[str] | None = None,
        base_url: str | None = None,
        allowed_origins: Sequence[str] = (),
        fill: str | None = "planner",
        limits: Any = None,
    ) -> Any:
        """Serve this game (docs/SERVER.md): a link per seat, each seat's browser getting only
        its own view, and a spectator link.  While it serves, this board shows public knowledge
        and its clicks do not play; cells still drive the game.  ``record``: the file written
        after every turn; ``resume``: such a file, to go on after a kernel restart.

        >>> w = DeepSea(players=["Ann", "Bob"], seed=1)
        >>> srv = w.serve()
        >>> w.viewer, srv.seat_url(1).startswith("http://127.0.0.1:")
        (None, True)
        >>> srv.stop(); w.serving
        False
        """
        from ..server import Server, make_table

        if self.serving:
            raise RuntimeError("this board is served already: stop it first (srv.stop())")
        if self.in_what_if:
            self.session.back_to_real()
        delay = self.bot_delay / 1000
        if resume is not None:
            from ..server.session_table import SessionTable

            table = make_table(resume=resume, record=record, limits=limits, bot_delay=delay)
            assert isinstance(table.game, SessionTable)
            self.session = table.game.session  # the resumed table's session is this board's now
            self.session.on_change(self._publish)
        else:
            table = make_table(self, record=record, limits=limits, bot_delay=delay)
        srv = Server(table, host=host, port=port, base_url=base_url, allowed_origins=allowed_origins)
        srv.fill = fill
        table.on_change(self._on_table_change)
        self._server = srv.start()
        self.session.changed()
        return srv

    def _on_table_change(self) -> None:
        if self._server is not None and self._server.table.closed:
            self._server = None
            self._publish()  # the board is the notebook's again

    # ------------------------------------------------------------------ publishing

    def _publish(self) -> None:
        s = self.session
        viewer = self.viewer
        st = s.screen(viewer)
        g = s.shown
        st["legal"] = [] if g.is_over else list(g.legal_choices())
        st["seats"] = s.seats
        cur = self._curtain_seat()
        st["curtain"] = None if cur is None else {"seat": cur, "name": g.players[cur], "shown": viewer == cur}
        line = s.branch_line
        if line is not None and st.get("whatif") is not None:
            st["whatif"] = {
                "from_turn": self._branch_turn,
                "can_undo": line.can_undo,
                "can_redo": line.can_redo,
                "index": line.index,
                "frames": len(line),
                "compare": st["whatif"]["compare"],
                "can_keep": len(s.kept) < self.KEEP_MAX,
            }
        if self.serving:
            st["served"] = True
        self._bytes.append(state_bytes(st))
        self.paused = s.paused
        if s.hot_seat and viewer != self._history.viewer:
            # the screen changes hands: the last viewer's history and overlay go first
            self._sync_history()
            self.overlay = {}
        self.state = st  # the board first: it is what a click waits for
        self._sync_history()
        self._publish_overlay()
        if self.serving:
            self._server.notify()  # the seats' screens follow a cell's change

    def _curtain_seat(self) -> int | None:
        """Hot-seat: the human seat to move (the one the curtain is for), else ``None``."""
        s = self.session
        g = s.real.current
        if not s.hot_seat or s.in_what_if or g.is_over or self.serving:
            return None
        q = g.current_player
        return q if q is not None and q not in s.bots else None

    def _sync_history(self, force: bool = False) -> None:
        changed = self._history.update(self.game, viewer=self.viewer, reveal_all=self.reveal_all)
        if changed or force or not self.history:
            hist, tail = self._history.traits()
            nb = state_bytes(tail) + (state_bytes(hist) if hist != self.history else 0)
            self._history_bytes.append(nb)
            self.history = hist  # unchanged completed rounds are not sent again
            self.history_tail = tail
            if self.scrub > self._history.n_turns:
                self.scrub = -1

    def _publish_overlay(self) -> None:
        if not self.hints:
            if self.overlay:
                self.overlay = {}
            return
        t0 = time.perf_counter()
        ov = overlay_for(self.session.shown, self.game if self.in_what_if else None, self.viewer)
        ms = (time.perf_counter() - t0) * 1000
        self._overlay_ms.append(ms)
        ov["seq"] = self.seq
        ov["ms"] = round(ms, 1)
        self.overlay = ov

    def __repr__(self) -> str:
        return f"<DeepSea seats={self.seats} {self.game!r}>"
