"""``DeepSea``: play Deep Sea Adventure in JupyterLab (an anywidget).

The Python :class:`~dsa_widget.deep_sea.rules.Game` is the single source of truth.
The browser draws the synced ``state`` trait (see :mod:`dsa_widget.deep_sea.state`)
and sends *intents*; Python checks each one against the legal choices,
applies it and publishes the new state.  A stale intent (its ``seq`` is not
the current state's), a malformed one or an illegal one changes nothing and
sets the ``error`` trait, which the board shows.

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

Messages from the front end (``model.send``):

=================================================== =============================
``{"type": "intent", "seq": n, "choice": "take"}``  apply a choice (human seats)
``{"type": "bot_step", "seq": n}``                   a bot seat plays one choice
``{"type": "new_game", "seq": n, "setup": {...}}``   start again (players, air, ...)
``{"type": "pause", "paused": true}``                stop / resume bot turns
``{"type": "what_if", "seq": n, "turn": k}``         branch from turn k (null: now)
``{"type": "roll", "seq": n, "dice": [1, 3]}``       chosen dice (what-if only)
``{"type": "undo"/"redo", "seq": n}``                in the what-if branch
``{"type": "keep", "seq": n}``                       keep the what-if's state for comparison
``{"type": "back_to_real", "seq": n}``               leave the what-if branch
``{"type": "show_seat", "seq": n}``                  hot-seat: lift the curtain
=================================================== =============================

Hot-seat (``DeepSea(..., hot_seat=True)``): one device passed round the table.  Between two
seats the board hides behind a curtain ("pass the device to Bob, then press Show") and the
browser holds public knowledge only; after Show it holds the view of the seat to move and of
no other.  That protects against glances, not against a second browser on the kernel (every
browser on a kernel receives the widget's messages): for that, serve the game
(:meth:`DeepSea.serve`, docs/SERVER.md), where each seat's browser gets only its own view.

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

Synced traits besides ``state``: ``history`` (frames of the completed
rounds) and ``history_tail`` (the current round's), compact deltas of levels
only unless values may be shown, so a saved page can be scrubbed with no
kernel; ``scrub`` (the turn shown, -1 live); ``hints`` and ``overlay`` (the
numbers for state ``seq``, computed after the state is published).
"""

from __future__ import annotations

import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import anywidget
import traitlets

from ..core.timeline import Timeline, TimelineError
from .analysis.overlay import overlay_for
from .compare import Comparison, compare
from .errors import IllegalActionError, SetupError
from .frames import HistoryBuilder
from .rules import Game
from .setup import Setup
from .state import (
    _visible_bank_seats,
    build_state,
    is_custom_path,
    known_values,
    mask_branch_event,
    mask_event,
    sentences,
    state_bytes,
)
from .summary import RoundBook

__all__ = ["DeepSea", "bot_names", "resolve_bot"]

_STATIC = Path(__file__).parent.parent / "static"  # one bundle for every game
_ESM = _STATIC / "widget.js"
_CSS = _STATIC / "widget.css"
_HMR = os.environ.get("ANYWIDGET_HMR", "") not in ("", "0")

_NOT_BUILT_ESM = """
export default { render({ el }) {
  const p = document.createElement("p");
  p.textContent = "dsa_widget: the front end is not built. " +
    "Run `npm install && npm run build` in the repository (or pip install it).";
  el.append(p);
} };
"""

HUMAN = "human"
_SETUP_KEYS = ("players", "air", "rounds", "first_player", "seed", "path", "options")
_MAX_CHOICE_LEN = 32

Bot = Callable[[Any, tuple[str, ...]], str]  # as bots.base.BotLike: (view, legal choices) -> choice


# ---------------------------------------------------------------------- bots


#: names kept working for seats saved by earlier versions
_ALIASES = {"heuristic": "baseline"}


def _bot_help() -> dict[str, str]:
    try:
        from .bots.registry import BOT_SUMMARIES
    except ImportError:  # pragma: no cover - the rules without the bots package
        return {}
    return dict(BOT_SUMMARIES)


def bot_names() -> list[str]:
    """The bot names a seat may take (``dsa_widget.deep_sea.bots.BOT_NAMES`` when it exists).

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
        return spec, str(
            getattr(spec, "name", None) or getattr(spec, "__name__", None) or type(spec).__name__
        )
    if not isinstance(spec, str):
        raise TypeError(f"a seat is 'human', a bot name or a bot callable, got {spec!r}")
    from .bots import BOT_NAMES, make_bot

    name = spec if spec in BOT_NAMES else _ALIASES.get(spec, spec)
    if name in BOT_NAMES:
        return make_bot(name, seed=seed), spec
    raise ValueError(f"unknown bot {spec!r}; bots: {', '.join(bot_names())} (or 'human')")


# ---------------------------------------------------------------------- the widget


class DeepSea(anywidget.AnyWidget):
    """A playable Deep Sea Adventure board.

    Build it from setup keywords (as :class:`~dsa_widget.deep_sea.rules.Game`), or
    from a ``Game``, a ``Setup``, or a record (dict, JSON text or path)::

        DeepSea(players=["You", "Bot"], seats={1: "heuristic"}, seed=7)
        DeepSea(players=3, air=20, rounds=2, options={"reveal": "owner"})
        DeepSea(game)                       # wrap an existing game (shared, not copied)
        DeepSea.load("game.json", seats={1: "random"})

    ``seats`` maps a seat to ``"human"`` (default), a bot name
    (:func:`bot_names`) or a callable ``bot(view, legal) -> choice``; it may
    also be a list with one entry per seat.  ``reveal_all=True`` sends every
    chip value to the browser (teaching); otherwise unbanked values never
    leave Python.  ``viewer`` is the seat whose private knowledge the screen
    shows (``"auto"``: the only human seat if there is exactly one, else a
    shared screen showing public knowledge only).  ``bot_delay`` is the pause
    in ms before each bot choice in the browser; ``bot_seed`` seeds the bots
    (seat ``q`` gets ``bot_seed + q``) for reproducible games.  ``hot_seat=True``: one
    device passed round, the board behind a curtain between seats and showing only the
    seat to move (see the module docstring); :meth:`serve` gives each player a screen.

    >>> w = DeepSea(players=["Ann", "Bob"], hot_seat=True, seed=2)
    >>> w.state["curtain"], w.viewer
    ({'seat': 0, 'name': 'Ann', 'shown': False}, None)
    >>> w.show_seat(); w.viewer
    0
    """

    # The bundle's text, not its path: for a path anywidget connects every instance to a
    # class-wide file watcher, which keeps every widget ever made (and all its history) alive.
    # ANYWIDGET_HMR=1 (front-end work: reload on rebuild) passes the paths instead.
    _esm = (_ESM if _HMR else _ESM.read_text(encoding="utf-8")) if _ESM.is_file() else _NOT_BUILT_ESM
    _css = (_CSS if _HMR else _CSS.read_text(encoding="utf-8")) if _CSS.is_file() else ""

    #: the board, as :func:`dsa_widget.deep_sea.state.build_state` builds it
    state = traitlets.Dict().tag(sync=True)
    #: why the last intent was rejected: ``{kind, message, seq, n}`` (``{}`` when fine)
    error = traitlets.Dict().tag(sync=True)
    #: bot turns wait while paused (the front end's pause button)
    paused = traitlets.Bool(False).tag(sync=True)
    #: ms between two bot choices in the browser
    bot_delay = traitlets.Int(600).tag(sync=True)
    #: names the setup panel offers for seats (besides "human")
    bot_names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: the answer to a view's "hello" (its number): a kernel is there (a saved page has none)
    hello = traitlets.Int(-1).tag(sync=True)
    #: one line per bot name, shown beside it in the setup panel and on the player cards
    bot_help = traitlets.Dict().tag(sync=True)
    #: the teaching switch: send every chip value (Python side only)
    reveal_all = traitlets.Bool(False)
    #: frames of the completed rounds (see :class:`~dsa_widget.deep_sea.frames.HistoryBuilder`)
    history = traitlets.Dict().tag(sync=True)
    #: frames of the round being played (small: it changes at every turn)
    history_tail = traitlets.Dict().tag(sync=True)
    #: the turn the board shows from the history (-1: the live game); the timeline slider sets it
    scrub = traitlets.Int(-1).tag(sync=True)
    #: probability overlays for the player to move (landing, getting home, air)
    hints = traitlets.Bool(True).tag(sync=True)
    #: the overlay numbers for state ``seq`` (empty when hints are off)
    overlay = traitlets.Dict().tag(sync=True)

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
        **setup: Any,
    ) -> None:
        super().__init__(bot_delay=bot_delay, bot_names=bot_names(), bot_help=_bot_help())
        self._hot_seat = bool(hot_seat)
        self._curtain_open: int | None = None  # hot-seat: the seat that pressed Show
        self._server: Any = None  # the Server of serve(), while it runs
        self._table_game: Any = None  # its SessionTable
        self._table_version: Any = None
        self._log_viewer: int | None | str = "unset"  # the viewer the log was masked for
        #: seat -> why its bot made its last choice (shown on its card), see :meth:`bot_move`
        self._bot_said: dict[int, str] = {}
        self._seq = 0
        self._n_errors = 0
        self._ev_sent = 0
        self._log: list[str] = []
        self._bots: dict[int, Bot] = {}
        self._labels: list[str] = []
        if viewer != "auto" and viewer is not None and not (isinstance(viewer, int) and 0 <= viewer < 6):
            raise ValueError(f"viewer must be 'auto', None or a seat, got {viewer!r}")
        self._viewer_spec = viewer
        self._bot_seed = bot_seed
        self._bytes: list[int] = []
        self._build_ms: list[float] = []
        self._history = HistoryBuilder()
        self._history_bytes: list[int] = []
        self._overlay_ms: list[float] = []
        self._overlay_bytes: list[int] = []
        self._branch: Timeline[Game] | None = None
        self._kept: list[tuple[str, Game]] = []  # what-if states kept for comparison (this branch)
        self._branch_from: int | None = None  # turn the branch started from (None: the live state)
        self._branch_seed: int | None = None  # dice of new branches (None: fresh randomness; tests set it)
        self._branch_base = 0  # events of the branch's first frame
        self._branch_sent = 0
        self.on_msg(self._on_msg)
        self._game = self._make_game(source, setup)
        # the real game after each published change: its undo and redo (w.game stays the live object)
        self._real: Timeline[Game] = Timeline(self._game)
        # reveal=True (every game's board's name for a teacher's table) is the trait reveal_all
        self.reveal_all = bool(reveal) if reveal is not None else reveal_all  # before the seats
        self._set_seats(seats)
        self._reset_log()
        self._publish()

    # ------------------------------------------------------------------ construction

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

    def _set_seats(self, seats: Any) -> None:
        n = len(self._game.players)
        specs: list[Any] = [HUMAN] * n
        if seats is None:
            pass
        elif isinstance(seats, Mapping):
            for k, spec in seats.items():
                if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < n:
                    raise ValueError(f"seats: seat {k!r} is not 0..{n - 1}")
                specs[k] = spec
        elif isinstance(seats, Sequence) and not isinstance(seats, str):
            if len(seats) != n:
                raise ValueError(f"seats: {len(seats)} given for {n} players")
            specs = list(seats)
        else:
            raise ValueError(f"seats must be a mapping seat -> 'human'/bot or a list, got {seats!r}")
        bots: dict[int, Bot] = {}
        labels = []
        for q, spec in enumerate(specs):
            seed = None if self._bot_seed is None else self._bot_seed + q
            bot, label = resolve_bot(spec, seed)
            if bot is not None:
                bots[q] = bot
            labels.append(label)
        self._bots, self._labels = bots, labels

    def _reset_log(self, upto: int | None = None) -> None:
        """Rebuild the log and the summaries, masked for the viewer, from the first ``upto``
        events (all by default; the rest then go out with the next state)."""
        if upto is None:
            self._bot_said = {}
        events = self._game.events if upto is None else self._game.events[:upto]
        self._log_viewer = self.viewer
        vis = self._vis()
        masked = [mask_event(e, vis) for e in events]
        self._log = sentences(masked, self._game.players)
        # the round summaries, rebuilt; only a finished game's is shown again
        self._book = RoundBook()
        s = self._book_add(masked)
        self._summary = s if s is not None and s["over"] else None
        if self._summary is not None:
            self._summary["id"] = f"game@{self._seq}"
        self._ev_sent = len(events)

    # ------------------------------------------------------------------ reading

    @property
    def game(self) -> Game:
        """The game (the single source of truth).  After changing it directly,
        call :meth:`refresh` so the board follows."""
        return self._game

    @property
    def seats(self) -> list[str]:
        """``"human"`` or the bot's name, per seat."""
        return list(self._labels)

    @property
    def seq(self) -> int:
        """The number of the state on the board (an intent must quote it)."""
        return self._seq

    @property
    def hot_seat(self) -> bool:
        """True when one device is passed round: the board shows only the seat to move."""
        return self._hot_seat

    @property
    def serving(self) -> bool:
        """True while :meth:`serve` serves this game (the board then shows public knowledge)."""
        return self._server is not None and not self._server.table.closed

    def _curtain_seat(self) -> int | None:
        """Hot-seat: the human seat to move (the one the curtain is for), else ``None``."""
        g = self._game
        if not self._hot_seat or self._branch is not None or g.is_over or self.serving:
            return None
        q = g.current_player
        return q if q is not None and q not in self._bots else None

    @property
    def viewer(self) -> int | None:
        """The seat whose private knowledge the screen shows (``None``: a shared screen)."""
        if self.serving:
            return None  # every browser on the kernel sees the notebook's board
        if self._hot_seat:
            q = self._curtain_seat()
            return q if q is not None and self._curtain_open == q else None
        if self._viewer_spec == "auto":
            humans = [q for q, lab in enumerate(self._labels) if lab == HUMAN]
            return humans[0] if len(humans) == 1 else None
        seat = self._viewer_spec
        # a seat the current game does not have (a new game with fewer players): the screen
        # shows public knowledge only
        return seat if isinstance(seat, int) and seat < len(self._game.players) else None

    @property
    def log(self) -> list[str]:
        """The whole turn log in words (the board shows its tail)."""
        return list(self._log)

    @property
    def update_bytes(self) -> list[int]:
        """JSON size of every state published so far (for benchmarks)."""
        return list(self._bytes)

    def is_bot_turn(self) -> bool:
        p = self._game.current_player
        return p is not None and p in self._bots

    # ------------------------------------------------------------------ acting (Python API)

    def apply(self, choice: Any) -> None:
        """Apply a legal choice for whoever is to play (in the what-if branch when
        one is open); raises :class:`~dsa_widget.deep_sea.errors.IllegalActionError` (and
        changes nothing) if illegal."""
        if self._branch is not None:
            self._branch.apply(choice)
        else:
            self._game.apply(choice)
        self._publish()

    def roll(self, dice: Sequence[int] | None = None) -> None:
        """Roll (``dice=(d1, d2)`` forces the dice) and swim."""
        if self._branch is not None:
            self._branch.roll(dice)
        else:
            self._game.roll(dice)
        self._publish()

    def bot_move(self, bot: Any = None) -> str:
        """Let a bot make one choice for the player to move; returns the choice.

        ``bot`` defaults to the seat's own bot, else a random-legal bot.  In a
        what-if branch the branch moves (the real game is untouched).
        """
        g = self._shown()
        if g.is_over:
            raise IllegalActionError("the game is over; no more turns", None, ())
        seat = g.current_player
        from .bots import make_bot, play_bot_move

        b = resolve_bot(bot)[0] if bot is not None else self._bots.get(seat) or make_bot("random")  # type: ignore[arg-type]
        if self._branch is not None:
            if g.step == "roll":
                choice = "roll"
                self._branch.roll(None)
            else:
                choice = b(g.view(seat), g.legal_choices())  # type: ignore[misc]
                self._branch.apply(choice)
            self._publish()
            return choice
        # rolls itself at a roll step; checks the bot's answer (a Deep Sea choice is a string)
        step = g.step
        played: str = play_bot_move(g, b)
        if step != "roll":
            self._bot_said[seat] = self._why(b, played)  # type: ignore[index]
        self._publish()
        return played

    def _book_add(self, events: list[dict[str, Any]]) -> dict[str, Any] | None:
        g = self._game
        return self._book.add(events, g.players, path_length=g.path_length, tiebreak=g.setup.options.tiebreak)

    def _summary_for(self, state: Mapping[str, Any]) -> dict[str, Any] | None:
        """The latest round's summary as the board shows it; at the game's end with the score
        table by round and the winner explained (from the state's scores: only what the viewer
        may know)."""
        s = self._summary
        if s is None:
            return None
        out = dict(s)
        if s["over"]:
            out.update(
                self._book.game_table(
                    self._game.players, state["scores"], state["winners"], self._game.setup.options.tiebreak
                )
            )
        return out

    def _why(self, bot: Any, played: str) -> str:
        """What the board may say about a bot's choice: its explanation when every seat knows
        what the bot knows (``reveal="public"``, or a teacher's ``reveal_all``); under
        ``reveal="owner"`` the reason could rest on the bot's own banked values, so only the
        choice is said."""
        if not (self.reveal_all or self._game.setup.options.reveal == "public"):
            return f"chose {played!r} (its reasons may rest on what only it knows)"
        text = bot.explain() if callable(getattr(bot, "explain", None)) else ""
        return text or f"chose {played!r}"

    def play_bots(self, max_choices: int = 10_000) -> int:
        """Let bot seats play until a human is to move or the game ends; returns the choices made."""
        k = 0
        while self._branch is None and self.is_bot_turn() and k < max_choices:
            self.bot_move()
            k += 1
        return k

    def new_game(self, *, seats: Any = None, **setup: Any) -> None:
        """Start a new game (setup keywords as :class:`Game`); ``seats`` as in the
        constructor (default: keep the seats when the player count is the same)."""
        g = Game(**setup)
        old = self._labels
        self._leave_branch()
        self._game = g
        self._real = Timeline(g)
        if seats is None and len(old) == len(g.players):
            specs: Any = [self._bots.get(q, HUMAN) for q in range(len(old))]
            self._set_seats(specs)
            self._labels = old[:]
        else:
            self._set_seats(seats)
        self._reset_log()
        self.error = {}
        self._publish()

    # ------------------------------------------------------------------ what-if, history

    @property
    def in_what_if(self) -> bool:
        """True while a what-if branch is on the board."""
        return self._branch is not None

    @property
    def shown_game(self) -> Game:
        """The game on the board: the what-if branch's (a copy), or the real :attr:`game`."""
        return self._branch.game if self._branch is not None else self._game

    def _shown(self) -> Game:
        """:attr:`shown_game` without copying the branch's frame (read it, never act on it)."""
        return self._branch.current if self._branch is not None else self._game

    @property
    def branch_game(self) -> Game | None:
        """The what-if branch's current game (``None`` outside what-if).  Read it;
        act through the widget (:meth:`apply`, :meth:`roll`, :meth:`undo`...)."""
        return self._branch.game if self._branch is not None else None

    @property
    def timeline(self) -> Timeline[Game] | None:
        """The what-if branch's :class:`~dsa_widget.core.timeline.Timeline` (``None`` outside what-if)."""
        return self._branch

    @property
    def history_turns(self) -> int:
        """Completed turns in the real game's history (frames ``0..history_turns``)."""
        return self._history.n_turns

    def game_after(self, turn: int) -> Game:
        """A copy of the real game as it was after ``turn`` turns (what a record of that many turns
        replays to)."""
        self._history.update(self._game, viewer=self.viewer, reveal_all=self.reveal_all)
        return self._history.game_after(turn)

    def branch(self, turn: int | None = None) -> Timeline[Game]:
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
            start = self._game.copy()
        else:
            if isinstance(turn, bool) or not isinstance(turn, int):
                raise TypeError(f"turn must be an int, got {turn!r}")
            start = self.game_after(turn)
        # fresh dice: a branch's random rolls must not foretell the real game's next ones
        fresh = random.SystemRandom().getrandbits(64) if self._branch_seed is None else self._branch_seed
        start.set_dice(fresh)
        self._branch = Timeline(start)
        self._kept = []  # what was kept belongs to the branch it came from
        self._branch_from = turn
        self._branch_base = self._branch.current.n_events
        self._branch_sent = self._branch_base
        self.scrub = -1
        self._publish()
        return self._branch

    what_if = branch

    def undo(self, n: int = 1) -> None:
        """Undo ``n`` choices or rolls: in the what-if branch, else in the real game.

        The real game is rewound in place (``w.game`` stays the same object),
        dice included: undoing a roll and rolling again gives the same dice.
        The board has no undo button for the real game (the what-if branch is
        the place to try things); this is for teachers and mis-clicks.
        """
        if self._branch is not None:
            self._branch.undo(n)
        else:
            self._record_real()
            self._real.undo(n)
            self._restore_real()
        self._publish()

    def redo(self, n: int = 1) -> None:
        """Redo ``n`` undone choices or rolls (what-if branch, else the real game)."""
        if self._branch is not None:
            self._branch.redo(n)
        else:
            self._record_real()
            self._real.redo(n)
            self._restore_real()
        self._publish()

    @staticmethod
    def _key(g: Game) -> tuple[Any, ...]:
        return (g.setup, g.n_events, g.turn_number, g.step, g.current_player, g.air, g.breathed)

    def _record_real(self) -> None:
        """Keep a copy of the real game whenever it changed since the last one (an undo point)."""
        g = self._game
        last = self._real.current
        if self._key(last) == self._key(g):
            return
        if last.setup != g.setup:
            self._real = Timeline(g)
        else:
            self._real.record(g)

    def _restore_real(self) -> None:
        self._game.restore(self._real.current)
        self._reset_log()

    def back_to_real(self) -> None:
        """Close the what-if branch; the board shows the real game (which never changed)."""
        if self._branch is None:
            return
        self._leave_branch()
        self._ev_sent = self._game.n_events
        self._publish()

    def _leave_branch(self) -> None:
        self._branch = None
        self._branch_from = None
        self._kept = []

    #: how many what-if states :meth:`keep` holds at once
    KEEP_MAX = 4

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
        if self._branch is None:
            raise TimelineError("keep() keeps a what-if state: open a what-if first (w.branch())")
        if len(self._kept) >= self.KEEP_MAX:
            raise TimelineError(
                f"{self.KEEP_MAX} states are kept already: go back to the real game to start afresh"
            )
        taken = {n for n, _ in self._kept}
        if name is None:
            i = len(self._kept) + 1
            while f"kept {i}" in taken:
                i += 1
            name = f"kept {i}"
        if not isinstance(name, str) or not name.strip() or len(name) > 24:
            raise TypeError(f"name must be a short non-empty string (at most 24 characters), got {name!r}")
        if name in ("real", "what-if") or name in taken or name.startswith("real at turn"):
            raise ValueError(f"the comparison already has a row named {name!r}")
        self._kept.append((name, self._branch.current))  # frames never change: no copy needed
        self._publish()
        return name

    def compare(self) -> Comparison:
        """The real game, the states kept by :meth:`keep` and the what-if branch side by side
        (round, air, scores, positions, items).

        Python sees true scores; the board's compare panel hides what the
        viewer may not know.
        """
        if self._branch is None:
            raise TimelineError("no what-if branch is open: open one with w.branch()")
        games = {"real": self._game}
        if self._branch_from is not None:
            games[f"real at turn {self._branch_from}"] = self._branch.frames().__next__()
        games.update(self._kept)
        games["what-if"] = self._branch.current
        return compare(**games)

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

    @traitlets.validate("scrub")
    def _valid_scrub(self, proposal: Any) -> int:
        v = proposal["value"]
        return -1 if v < 0 else min(v, self._history.n_turns)

    @traitlets.observe("hints")
    def _on_hints(self, change: Any) -> None:
        if self._labels:
            self._publish_overlay()

    def save(self, path: Any) -> None:
        """Write the game record (RECORD.md JSON) to ``path``."""
        self._game.save(path)

    @classmethod
    def load(cls, record: Any, **kwargs: Any) -> DeepSea:
        """A widget on a game replayed from a record (path, JSON text or dict)."""
        return cls(Game.from_record(record), **kwargs)  # its history syncs at once: scrubbable

    def refresh(self) -> None:
        """Publish the state again (after changing :attr:`game` directly)."""
        self._publish()

    # ------------------------------------------------------------------ publishing

    def _vis(self) -> set[int] | None:
        return _visible_bank_seats(self._game, self.viewer, self.reveal_all)

    @traitlets.observe("reveal_all")
    def _on_reveal(self, change: Any) -> None:
        if self._labels:
            self._reset_log()
            self._publish()

    def _publish(self) -> None:
        t0 = time.perf_counter()
        self._seq += 1
        if self._branch is not None:
            state = self._branch_state()
        else:
            g = self._game
            self._record_real()
            if self.viewer != self._log_viewer:
                # hot-seat: the screen changes hands; its log is masked for the new viewer
                self._reset_log(upto=min(self._ev_sent, g.n_events))
            new: list[dict[str, Any]] = []
            if g.n_events > self._ev_sent:
                new = g.events_since(self._ev_sent)
                self._ev_sent = g.n_events
            vis = self._vis()
            new = [mask_event(e, vis) for e in new]
            self._log.extend(sentences(new, g.players))
            s = self._book_add(new)
            if s is not None:
                s["id"] = f"{s['id']}@{self._seq}"  # unique: a view shows each summary once
                self._summary = s
            state = build_state(
                g,
                seats=self._labels,
                seq=self._seq,
                reveal_all=self.reveal_all,
                viewer=self.viewer,
                new_events=new,
                log=self._log,
            )
            state["mode"] = "real"
            state["bot_said"] = {str(q): t for q, t in self._bot_said.items()}
            state["summary"] = self._summary_for(state)
            cur = self._curtain_seat()
            state["curtain"] = (
                None
                if cur is None
                else {"seat": cur, "name": g.players[cur], "shown": self._curtain_open == cur}
            )
            if self.serving:
                state["served"] = True
        self._build_ms.append((time.perf_counter() - t0) * 1000)
        self._bytes.append(state_bytes(state))
        if self._hot_seat and self.viewer != self._history.viewer:
            # the screen changes hands: the last viewer's history and overlay go first
            self._sync_history()
            self.overlay = {}
        self.state = state  # the board first: it is what a click waits for
        self._sync_history()
        self._publish_overlay()
        if self.serving:
            tg, game, labels, bots = self._table_game, self._game, list(self._labels), dict(self._bots)

            def hand_over() -> None:  # on the server's loop
                tg.attach(game, labels, bots=bots)
                self._table_version = tg.version()

            self._server.notify(hand_over)

    def _branch_state(self) -> dict[str, Any]:
        """The what-if branch as the board draws it: values only as the *real* game lets the viewer know."""
        br = self._branch
        assert br is not None
        g = br.current
        reveal = self.reveal_all
        known = known_values(self._game, self.viewer, reveal)
        if reveal:
            known = known_values(g, self.viewer, True)
        n_ev = g.n_events
        new = g.events_since(self._branch_sent) if n_ev > self._branch_sent else []
        self._branch_sent = n_ev
        masked_all = [mask_branch_event(e, reveal) for e in g.events_since(self._branch_base)]
        origin = "now" if self._branch_from is None else f"turn {self._branch_from}"
        log = [f"What-if from {origin}: the real game is untouched."] + sentences(masked_all, g.players)
        state = build_state(
            g,
            seats=self._labels,
            seq=self._seq,
            reveal_all=reveal,
            viewer=self.viewer,
            new_events=[mask_branch_event(e, reveal) for e in new],
            log=log,
            known=known,
        )
        rows = [self._compare_row("real", self._game, known)]
        if self._branch_from is not None:
            rows.append(self._compare_row(f"real at turn {self._branch_from}", next(br.frames()), known))
        rows.extend(self._compare_row(name, kg, known) for name, kg in self._kept)
        rows.append(self._compare_row("what-if", g, known))
        state["mode"] = "whatif"
        state["whatif"] = {
            "from_turn": self._branch_from,
            "can_undo": br.can_undo,
            "can_redo": br.can_redo,
            "index": br.index,
            "frames": len(br),
            "compare": rows,
            "can_keep": len(self._kept) < self.KEEP_MAX,
        }
        return state

    @staticmethod
    def _compare_row(name: str, g: Game, known: Mapping[int, int]) -> dict[str, Any]:
        v = g.view(0)
        scores = [
            g.scores[q] if all(c in known for c in v.banked[q]) else None for q in range(len(v.players))
        ]
        return {
            "name": name,
            "round": v.round,
            "air": v.air,
            "over": v.finished,
            "scores": scores,
            "banked": [len(b) for b in v.banked],
            "divers": [
                {
                    "pos": v.positions[q],
                    "up": v.heading_up[q],
                    "home": v.returned[q],
                    "items": len(v.carrying[q]),
                }
                for q in range(len(v.players))
            ],
        }

    def _sync_history(self, force: bool = False) -> None:
        changed = self._history.update(self._game, viewer=self.viewer, reveal_all=self.reveal_all)
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
        ov = overlay_for(self._shown(), self._game if self._branch is not None else None, self.viewer)
        ms = (time.perf_counter() - t0) * 1000
        self._overlay_ms.append(ms)
        ov["seq"] = self._seq
        ov["ms"] = round(ms, 1)
        self._overlay_bytes.append(state_bytes(ov))
        self.overlay = ov

    @property
    def history_bytes(self) -> list[int]:
        """JSON bytes sent for history at each turn (the tail, plus the completed rounds when they grew)."""
        return list(self._history_bytes)

    @property
    def overlay_ms(self) -> list[float]:
        """Milliseconds spent computing each overlay (after the state was published)."""
        return list(self._overlay_ms)

    # ------------------------------------------------------------------ intents (front end)

    def _reject(self, kind: str, message: str) -> None:
        self._n_errors += 1
        self.error = {"kind": kind, "message": message, "seq": self._seq, "n": self._n_errors}

    def _ok(self) -> None:
        if self.error:
            self.error = {}

    def _on_msg(self, _widget: Any, content: Any, buffers: Any = None) -> None:
        self.handle_intent(content)

    #: every message the front end may send: its handler, and what its ``seq`` must be:
    #: ``"current"`` (a stale one is rejected and the board says so), ``"quiet"`` (a stale one is
    #: ignored: several views may ask for the same bot step) or ``None`` (no seq)
    _INTENTS: ClassVar[dict[str, tuple[str, str | None]]] = {
        "intent": ("_choice_intent", "current"),
        "bot_step": ("_bot_step_intent", "quiet"),
        "pause": ("_pause_intent", None),
        "new_game": ("_new_game_intent", "current"),
        "what_if": ("_what_if_intent", "current"),
        "roll": ("_roll_intent", "current"),
        "undo": ("_undo_intent", "current"),
        "redo": ("_redo_intent", "current"),
        "keep": ("_keep_intent", "current"),
        "back_to_real": ("_back_intent", "current"),
        # a view's "is a kernel there?" probe when it appears: nothing to do
        "hello": ("_hello_intent", None),
        "play_again": ("_play_again_intent", "current"),
        "show_seat": ("_show_seat_intent", "current"),
    }

    def handle_intent(self, content: Any) -> None:
        """Handle one message from the front end (also callable from Python/tests).

        Never raises for bad input: a rejected message sets :attr:`error`.
        """
        if not isinstance(content, Mapping):
            return self._reject("malformed", f"a message is an object, got {type(content).__name__}")
        kind = content.get("type")
        entry = self._INTENTS.get(kind) if isinstance(kind, str) else None
        if entry is None:
            return self._reject("malformed", f"unknown message type {str(kind)[:40]!r}")
        handler, seq_rule = entry
        if seq_rule is not None:
            seq = content.get("seq")
            if not isinstance(seq, int) or isinstance(seq, bool):
                return self._reject("malformed", f"{kind} needs the state number seq (an integer)")
            if seq != self._seq:
                if seq_rule == "quiet":
                    return None
                return self._reject(
                    "stale",
                    f"that click was for state #{seq} but the game has moved on to #{self._seq}; "
                    "nothing changed",
                )
        getattr(self, handler)(content)
        return None

    def _show_seat_intent(self, content: Mapping[str, Any]) -> None:
        q = self._curtain_seat()
        if q is None:
            return self._reject(
                "illegal", "there is no curtain to lift (hot-seat is off, or a bot is to move)"
            )
        self._ok()
        self.show_seat()
        return None

    def show_seat(self) -> None:
        """Hot-seat: lift the curtain for the seat to move (the board's Show button)."""
        q = self._curtain_seat()
        if q is None:
            raise IllegalActionError("there is no curtain to lift", None, ())
        self._curtain_open = q
        self._publish()

    def _play_again_intent(self, content: Mapping[str, Any]) -> None:
        if self._branch is not None:
            return self._reject("illegal", "go back to the real game before starting a new one")
        self.play_again()
        return None

    def play_again(self) -> None:
        """A new game like this one (players, seats, air, rounds, options, a custom path), with a
        fresh shuffle and fresh dice: the game summary's Play-again button."""
        s = self._game.setup
        path = [list(c) for c in s.path] if is_custom_path(s.path) else None
        self.new_game(
            players=list(s.players),
            air=s.air,
            rounds=s.rounds,
            first_player=s.first_player,
            options=s.options.to_dict(),
            path=path,
        )

    def _hello_intent(self, content: Mapping[str, Any]) -> None:
        n = content.get("n")
        if not isinstance(n, int) or isinstance(n, bool) or not 0 <= n < 2**31:
            return self._reject("malformed", "hello needs n, an integer from 0 to 2**31 - 1")
        self.hello = n  # the answer: a kernel runs this board
        return None

    def _pause_intent(self, content: Mapping[str, Any]) -> None:
        paused = content.get("paused")
        if not isinstance(paused, bool):
            return self._reject("malformed", "pause needs paused: true or false")
        self.paused = paused
        return None

    def _bot_step_intent(self, content: Mapping[str, Any]) -> None:
        if self._branch is not None:
            if self._shown().is_over:
                return self._reject("illegal", "the what-if game is over; undo or go back to the real game")
            self.bot_move()
            self._ok()
            return None
        if not self.is_bot_turn() or self.serving:
            return None  # a human's seat now (a late ask from another view), or the server's bots
        try:
            self.bot_move()
        except Exception as exc:  # noqa: BLE001 -- a bot's bug must not kill the board
            self.paused = True
            return self._reject("bot", f"the bot failed: {exc}")
        self._ok()
        return None

    def _choice_intent(self, content: Mapping[str, Any]) -> None:
        choice = content.get("choice")
        if not isinstance(choice, str) or len(choice) > _MAX_CHOICE_LEN:
            return self._reject("malformed", f"choice must be a short string, got {str(choice)[:40]!r}")
        if self._branch is not None:
            try:
                self._branch.apply(choice)
            except IllegalActionError as exc:
                return self._reject("illegal", str(exc))
            self._ok()
            self._publish()
            return None
        g = self._game
        if self.serving:
            return self._reject(
                "illegal", "this game is served: each player plays from his own seat's link (see the lobby)"
            )
        if g.is_over:
            return self._reject("illegal", "the game is over; start a new game")
        seat = g.current_player
        if seat in self._bots:
            return self._reject("illegal", f"it is {g.players[seat]}'s turn, and a bot plays that seat")
        try:
            g.apply(choice)
        except IllegalActionError as exc:
            return self._reject("illegal", str(exc))
        self._ok()
        self._publish()
        return None

    def _what_if_intent(self, content: Mapping[str, Any]) -> None:
        turn = content.get("turn")
        if turn is not None and (isinstance(turn, bool) or not isinstance(turn, int)):
            return self._reject("malformed", "what_if needs turn: a turn number or null")
        if turn is not None and not 0 <= turn <= self._history.n_turns:
            return self._reject("illegal", f"turn {turn} is not in the history (0..{self._history.n_turns})")
        self._ok()
        if turn is None:
            self._branch_now()
        else:
            self.branch(turn)
        return None

    def _open_branch(self, kind: str) -> Timeline[Game] | None:
        """The what-if branch, or ``None`` after rejecting ``kind`` (it needs one)."""
        if self._branch is None:
            self._reject("illegal", f"{kind.replace('_', ' ')} works in a what-if branch; open one first")
        return self._branch

    def _back_intent(self, content: Mapping[str, Any]) -> None:
        if self._open_branch("back_to_real") is not None:
            self._ok()
            self.back_to_real()

    def _keep_intent(self, content: Mapping[str, Any]) -> None:
        if self._open_branch("keep") is None:
            return None
        if len(self._kept) >= self.KEEP_MAX:
            return self._reject(
                "illegal",
                f"{self.KEEP_MAX} states are kept already: go back to the real game to start afresh",
            )
        self._ok()
        self.keep()  # the default name is always free, so this cannot fail
        return None

    def _undo_intent(self, content: Mapping[str, Any]) -> None:
        br = self._open_branch("undo")
        if br is None:
            return None
        if not br.can_undo:
            return self._reject("illegal", "nothing to undo in this what-if")
        self._ok()
        self.undo()
        return None

    def _redo_intent(self, content: Mapping[str, Any]) -> None:
        br = self._open_branch("redo")
        if br is None:
            return None
        if not br.can_redo:
            return self._reject("illegal", "nothing to redo in this what-if")
        self._ok()
        self.redo()
        return None

    def _roll_intent(self, content: Mapping[str, Any]) -> None:
        """Roll chosen dice (what-if only)."""
        br = self._open_branch("roll")
        if br is None:
            return None
        dice = content.get("dice")
        if dice is not None and not (
            isinstance(dice, (list, tuple))
            and len(dice) == 2
            and all(isinstance(d, int) and not isinstance(d, bool) for d in dice)
        ):
            return self._reject("malformed", "dice must be two numbers, e.g. [1, 3]")
        try:
            br.roll(dice)
        except (IllegalActionError, ValueError) as exc:
            return self._reject("illegal", str(exc))
        self._ok()
        self._publish()
        return None

    def _branch_now(self) -> None:
        """A branch of the live state (what the what-if button does when the board shows the live game)."""
        scrub = self.scrub
        self.scrub = -1
        try:
            self.branch()
        finally:
            if self._branch is None:
                self.scrub = scrub

    def _new_game_intent(self, content: Mapping[str, Any]) -> None:
        if self._branch is not None:
            return self._reject("illegal", "go back to the real game before starting a new one")
        setup = content.get("setup")
        if not isinstance(setup, Mapping):
            return self._reject("malformed", "new_game needs a setup object")
        unknown = sorted(set(setup) - set(_SETUP_KEYS) - {"seats"})
        if unknown:
            return self._reject("setup", f"unknown setup key {str(unknown[0])[:40]!r}")
        kwargs = {k: setup[k] for k in _SETUP_KEYS if k in setup and setup[k] is not None}
        seats = setup.get("seats")
        before = self._game
        try:
            self._game = Game(**kwargs)
            self._set_seats(seats)  # changes the seats only when all are valid
        except (SetupError, ValueError, TypeError) as exc:
            self._game = before
            return self._reject("setup", str(exc))
        self._real = Timeline(self._game)
        self._reset_log()
        self._ok()
        self._publish()
        return None

    # ------------------------------------------------------------------ serving (docs/SERVER.md)

    def serve(
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
        """Serve this game: one link per seat, each seat's browser getting only its own view,
        and a spectator link (public knowledge only).  Returns the running
        :class:`~dsa_widget.server.Server`; show ``srv.lobby`` (links, QR codes, who is
        connected, Start with bots for empty seats, Stop).  While it serves, this board shows
        public knowledge only and its clicks do not play (the seats' pages do); cells still
        drive the game (``w.game``, ``w.apply``, ``w.bot_move()``, ``w.branch()``).

        ``record``: a file the record is written to after every turn; ``resume``: such a file,
        to go on with its game after a kernel restart (same seats, same links).  Binds to
        ``host`` 127.0.0.1 by default (this machine only); needs the ``server`` extra.
        See docs/SERVER.md.

        >>> w = DeepSea(players=["Ann", "Bob"], seed=1)
        >>> srv = w.serve()
        >>> w.viewer, srv.seat_url(1).startswith("http://127.0.0.1:")
        (None, True)
        >>> srv.stop(); w.serving
        False
        """
        from ..server import Server, Table, make_table
        from ..server.session_table import SessionTable

        if self.serving:
            raise RuntimeError("this board is served already: stop it first (srv.stop())")
        self._leave_branch()
        delay = self.bot_delay / 1000
        if resume is not None:
            table = make_table(resume=resume, record=record, limits=limits, bot_delay=delay)
            tg = table.game
            assert isinstance(tg, SessionTable)
            self._game = tg.game
            self._real = Timeline(self._game)
            self._bots, self._labels = tg.bots, tg.seats
        else:
            # the table's session shares this board's game; the board hands it over after
            # every change (a cell's move, a new game): see _publish
            new = SessionTable(self._game, [HUMAN] * len(self._labels), bot_delay_ms=self.bot_delay)
            new.attach(self._game, self._labels, bots=self._bots)
            table = Table(new, record=record, bot_delay=delay, limits=limits)
            tg = new
        srv = Server(table, host=host, port=port, base_url=base_url, allowed_origins=allowed_origins)
        srv.fill = fill
        self._table_game = tg
        self._table_version = tg.version()
        table.on_change(self._on_table_change)
        self._server = srv.start()
        self._reset_log()
        self._publish()
        return srv

    @property
    def server(self) -> Any:
        """The :class:`~dsa_widget.server.Server` of :meth:`serve` (``None`` when not served)."""
        return self._server

    def _on_table_change(self) -> None:
        tg = self._table_game
        if tg is None:
            return
        if self._server is not None and self._server.table.closed:
            self._server = None
            self._table_game = None
            self._publish()  # the board is the notebook's again
            return
        self._bots, self._labels = tg.bots, tg.seats
        v = tg.version()
        if v != self._table_version:
            self._table_version = v
            self._publish()

    def __repr__(self) -> str:
        return f"<DeepSea seats={self._labels} {self._game!r}>"
