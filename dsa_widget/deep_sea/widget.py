"""``DeepSea``: play Deep Sea Adventure in JupyterLab (an anywidget), on the platform's table.

The session (:class:`~dsa_widget.core.session.Session`) holds the game, the seats and bots,
the real game's steps (history, undo, redo), what-if and kept states, and checks every
message; the bridge (:class:`~dsa_widget.bridge.GameWidget`) syncs its screen and history; the
game's part of the screen is :class:`~dsa_widget.deep_sea.presenter.DeepSeaPresenter`'s, drawn
by ``js/widget.js`` on the platform's shell.  What stays here is Deep Sea's own: building a
board from a game, a setup or a record, chosen dice, the probability overlays, turns as a way
to name a step of the history, and the comparison as a table of numbers.

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
session.Session`) and Deep Sea's own ``{"type": "roll", "seq": n, "dice": [1, 3]}`` (chosen
dice, in a what-if only).  Hot-seat (``hot_seat=True``): between two seats a curtain, the
browser holding public knowledge only until the next player presses Show; to keep a seat's
view from every other browser, serve the game (:meth:`DeepSea.serve`, docs/SERVER.md).

What-if, history and hints (see :meth:`DeepSea.branch`)::

    w.branch()            # or w.branch(turn=3): a branch of now / of the game after turn 3
    w.roll((1, 1)); w.apply("take"); w.keep()   # keep this outcome for comparison
    w.undo(); w.undo(); w.roll((3, 3)); w.redo()
    w.compare()           # real, kept outcomes and the what-if side by side
    w.back_to_real()      # the real game was never touched
    w.show_turn(5)        # the board shows the game after turn 5 (w.show_turn(None): live)
    w.game_after(turn=5)  # that state as a Game (exactly what a record of 5 turns replays to)
    w.hints = False       # no probability overlays
    DeepSea(g, exact_later=False)  # past the live budget, keep the estimate (no exact figure later)
    w.undo()              # outside what-if: rewinds the real game in place (dice too)

Synced traits besides the platform's: ``hints`` and ``overlay`` (the numbers for state
``seq``, computed after the state; none while the game is served).
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import traitlets

from ..bridge import GameWidget
from ..core import background
from ..core.bots import bot_name
from ..core.errors import GameError, is_int
from ..core.protocol import CHANCE
from ..core.session import HUMAN, Refusal, Session, seat_list
from ..core.timeline import Timeline, TimelineError
from .analysis.home import COMPILED
from .analysis.overlay import exact_later, needs_exact, overlay_for, with_exact
from .compare import Comparison, compare
from .errors import IllegalActionError, SetupError
from .presenter import DeepSeaPresenter
from .rules import Game
from .setup import Setup
from .state import state_bytes

__all__ = ["DeepSea", "bot_names", "resolve_bot"]

#: set once the hints' figures have been computed in this Python (their numba code compiled)
_WARM: list[bool] = []
#: how long a first board waits for its figures before it says they are warming up (seconds:
#: loading numba's cache takes about one; compiling, many)
WARM_WAIT = 2.0
WARMING_NOTE = (
    "Warming up: the hints' compiled code is being built (the first time after installing it "
    "takes a while; `python -m dsa_widget warm` does it ahead). The board is ready: play on."
)

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
    shows (``"auto"``: the human seat to move, else the only or the last human to move, as
    for every game; ``None``: a spectator's screen, public knowledge only).  ``bot_delay``
    is the pause in ms before each bot choice in the browser; ``bot_seed`` seeds the bots
    (seat ``q`` gets ``bot_seed + q``).
    ``hot_seat=True``: one device passed round, the board behind a curtain between seats and
    showing only the seat to move; :meth:`serve` gives each player a screen.

    >>> w = DeepSea(players=["Ann", "Bob"], hot_seat=True, seed=2)
    >>> w.state["curtain"], w.viewer
    ({'seat': 0, 'name': 'Ann'}, None)
    >>> w.show_seat(); w.viewer
    0
    """

    GAME = "deep-sea"
    PRESENTER = DeepSeaPresenter

    bot_delay = traitlets.Int(600).tag(sync=True)
    #: the teaching switch: send every chip value (Python side only)
    reveal_all = traitlets.Bool(False)
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
        exact_later: bool = True,
        **setup: Any,
    ) -> None:
        #: past the live budget, compute the exact chance beside the kernel and show it when it
        #: is ready (in a live kernel, with the fast extra); False keeps the estimate or float
        self.exact_later = bool(exact_later)
        if game is not None:  # the platform's name for a board's game
            if source is not None:
                raise TypeError("give the game once")
            source = game
        game = self._make_game(source, setup)
        seats = seat_list(seats, len(game.players))  # (a bad seat raises before the board is made)
        self._ready = False
        self._bytes: list[int] = []
        self._history_bytes: list[int] = []
        self._overlay_ms: list[float] = []
        #: the exact figures wanted next in the background: (seq, a copy of the game, choices)
        self._refine_next: tuple[int, Game, list[str]] | None = None
        self._refining = False
        if reveal is None:
            reveal = reveal_all
        if not isinstance(reveal, bool):
            # bool("owner") is True: a table meant to hide chip values would show them all
            raise SetupError(
                "reveal",
                f"True (a teacher's table: every chip value shown) or False, not {reveal!r};"
                ' who sees a chip\'s value is a rule: options={"reveal": "owner"}',
            )
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

    # ------------------------------------------------------------------ what-if, history

    def turn_step(self, turn: int) -> int:
        """The history's step at which the real game had completed ``turn`` turns (what
        :meth:`seek`, :meth:`branch` and :meth:`game_after` take).

        >>> w = DeepSea(players=["Ann", "Bob"], seed=1)
        >>> w.roll((1, 1)); w.apply("take"); w.roll((2, 2)); w.apply("none")
        >>> w.turn_step(0), w.turn_step(1), w.turn_step(2)
        (0, 2, 4)
        """
        n = self.history_turns
        if not is_int(turn) or not 0 <= turn <= n:
            raise ValueError(f"turn must be 0..{n}, got {turn!r}")
        frames = self.session.frames()
        return next(i for i, g in enumerate(frames) if g.turn_number >= turn)

    @property
    def history_turns(self) -> int:
        """Completed turns in the real game (``turn_step`` takes ``0..history_turns``)."""
        return int(self.game.turn_number)

    def game_after(self, step: int | None = None, *, turn: int | None = None) -> Game:
        """A copy of the real game after ``step`` steps of its history, or after ``turn``
        completed turns (what a record of that many turns replays to)."""
        if (step is None) == (turn is None):
            raise TypeError("give step or turn")
        g: Game = super().game_after(self.turn_step(turn) if turn is not None else int(step or 0))
        return g

    def branch(self, step: int | None = None, *, turn: int | None = None) -> Timeline[Game]:  # type: ignore[override]
        """Open a what-if branch: of the real game after ``step`` steps (or ``turn`` turns),
        else of the step the board shows, else of the live game.

        In the branch the seats play from here or the board (a bot's seat, or another
        person's, by its "bot move" key), dice may be chosen (``roll((1, 3))``), and
        :meth:`undo`/:meth:`redo` work; :meth:`compare` puts it beside the real game and
        :meth:`back_to_real` closes it.  The real game is never touched, and the branch
        knows only what the screen's seat knows: the values it cannot see are drawn again,
        and the dice are fresh.  Returns the branch's timeline (read it; act through the
        widget).
        """
        if turn is not None:
            step = self.turn_step(turn)
        self._verb(lambda: self.session.branch(step))
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
        (round, air, scores, positions, items).  Python sees the branch's scores (its drawn
        values); the board's comparison hides what the viewer may not know."""
        line = self.session.branch_line
        if line is None:
            raise TimelineError("no what-if branch is open: open one with w.branch()")
        games = {"real": self.game}
        origin = self.session.branch_from
        if origin is not None and origin != len(self.session.steps):
            games[f"real at step {origin}"] = self.session.frames()[origin]
        games.update(self.session.kept)
        games["what-if"] = line.current
        return compare(**games)

    def back_to_real(self) -> None:
        """Close the what-if branch; the board shows the real game (which never changed)."""
        if self.in_what_if:
            self._do(self.session.back_to_real)

    def show_turn(self, turn: int | None) -> None:
        """Show the board as it was after ``turn`` completed turns (``None``: the live game)."""
        self.seek(None if turn is None else self.turn_step(turn))

    @classmethod
    def load(cls, source: Any, **kwargs: Any) -> DeepSea:
        """A widget on a game replayed from a record (path, JSON text or dict)."""
        return cls(Game.from_record(source), **kwargs)

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

    def check_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The setup panel's object as :meth:`new_game` keywords."""
        own = ("path", "first_player", "seats")  # besides the platform's players, kinds, seed...
        unknown = sorted(str(k) for k in set(setup) - {*_SETUP_KEYS, *own, "kinds"})
        if unknown:
            raise TypeError(f"unknown setup key {unknown[0][:40]!r}")
        out = super().check_setup({k: v for k, v in setup.items() if k not in own})
        return {**out, **{k: setup[k] for k in own if setup.get(k) is not None}}

    # ------------------------------------------------------------------ publishing

    def _publish(self) -> None:
        chunks = len(self.history_chunks)
        super()._publish()  # the board first: it is what a click waits for
        self._bytes.append(state_bytes(self.state))
        sent = state_bytes(self.history_tail)
        if len(self.history_chunks) != chunks and self.history_chunks:
            sent += state_bytes(self.history_chunks[-1])
        self._history_bytes.append(sent)
        self._publish_overlay()

    def _publish_overlay(self) -> None:
        """The hints' numbers for the board's state.  Off while the game is served: the board
        shows a spectator's screen then, and a change may come from a seat's intent on the
        server's loop, which must never wait for the analysis (nor for its first compile);
        they come back when the table closes."""
        if not self.hints or self.serving:
            if self.overlay:
                self.overlay = {}
            return
        shown = self.session.shown
        real = self.game if self.in_what_if else None
        # another seat's load is valued from what every player knows, not from the screen's
        # own banked chips (which could pin a carried chip down: the hint would tell it)
        knower = self.viewer if self.viewer == shown.current_player else None
        seq = self.seq
        cold = not _WARM and background.kernel_loop() is not None
        if cold:  # the work below may run in another thread: it gets copies of its own
            shown, real = shown.copy(), (real.copy() if real is not None else None)

        def work() -> dict[str, Any]:
            t0 = time.perf_counter()
            ov = overlay_for(shown, real, knower)
            ov["ms"] = round((time.perf_counter() - t0) * 1000, 1)
            return ov

        def done(ov: dict[str, Any]) -> None:
            _WARM.append(True)
            if seq != self.seq or not self.hints or self.serving:
                self._publish_overlay()  # the board moved on meanwhile: its own figures
                return
            self._overlay_ms.append(ov["ms"])
            ov["seq"] = seq
            later = (
                needs_exact(ov)
                if self.exact_later and COMPILED and background.kernel_loop() is not None
                else []
            )
            if later:
                # past the live budget: the estimate (or float) now, the exact figure when a
                # thread beside the kernel has computed it (issue 31, item 3)
                ov["refining"] = True
                self._refine_next = (seq, (shown if cold else shown.copy()), later)
            self.overlay = ov
            if later:
                self._refine()

        if not cold:
            done(work())
        elif background.in_background(work, done, name="dsa-hints-warm-up", wait=WARM_WAIT):
            # The first figures in this Python compile the hints' numba code (many seconds
            # after a fresh install, before `python -m dsa_widget warm` has run): the board is
            # already drawn, the panel says so, and the figures follow when they are ready.
            self.overlay = {"seq": seq, "warming": WARMING_NOTE}

    def _refine(self) -> None:
        """Compute the exact figures the overlay lacks, beside the kernel, one position at a
        time: a position the board has left is dropped when its turn comes (a computation
        under way runs to its end, a few seconds at most, and is not shown)."""
        if self._refining or self._refine_next is None:
            return
        seq, game, choices = self._refine_next
        self._refine_next = None
        if seq != self.seq:
            return
        self._refining = True

        def done(found: dict[str, Any]) -> None:
            self._refining = False
            if seq == self.seq and self.overlay.get("seq") == seq and self.overlay.get("refining"):
                self.overlay = with_exact(self.overlay, found)
            self._refine()

        background.in_background(lambda: exact_later(game, choices), done, name="dsa-hints-exact")

    def __repr__(self) -> str:
        return f"<DeepSea seats={self.seats} {self.game!r}>"
