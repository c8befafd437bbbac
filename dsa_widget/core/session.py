"""A table in plain Python, for any registered game: seats and bots, who is looking, hot seat,
history and what-if, one table of intents and one vocabulary of refusals.

The widget bridge (:mod:`dsa_widget.widget`) and the seat server (:mod:`dsa_widget.server`)
both hold a :class:`Session`; neither knows a game.  A game supplies only a
:class:`Presenter`: the screen built from one viewer's view, the words for an action in the
history, and any intents of its own.

>>> from dsa_widget.core.session import Session
>>> s = Session("submarine", players=["Ann", "Bob"], seats={1: "random"}, seed=1)
>>> s.viewer, s.seats
(0, ['human', 'random'])
>>> s.handle({"type": "intent", "seq": s.seq, "choice": "sail 99"}).kind
'illegal'
>>> s.handle({"type": "intent", "choice": "place 1"}).message     # no state number
'the click carried no state number; nothing changed'

Bots move only when asked (``bot_move``, ``play_bots``, or a ``bot_step`` intent, which the
front end sends after its delay).  A bot that fails (raises, or answers an illegal action)
changes nothing: the session pauses and says why in :attr:`Session.problem`, the same in a
notebook and at a served table.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, ClassVar, Protocol

from .bots import action_words, bot_name, draw_chance
from .chances import Figure
from .errors import GameError, is_int, short_repr
from .protocol import CHANCE
from .registry import GameSpec, game, game_of
from .timeline import Timeline

__all__ = ["HUMAN", "BasePresenter", "Presenter", "Refusal", "Session", "seat_list"]

HUMAN = "human"
#: the most steps ``play_bots`` (or a what-if play-out) takes in one call
MAX_AUTO = 5000
#: a screen carries the history's words for the last this many steps (``history.first`` says
#: where they start), so a long game's updates stay small; ``Session.labels`` has them all
LABELS_SENT = 60
#: the states whose Chances figures a session keeps (per viewer), for its screens and history
CHANCES_KEPT = 512
#: the action of a step made outside the session (the real game changed from a cell)
OUTSIDE = "(changed from a cell)"
#: what a screen shows of a bot's reasons where they may rest on what only its seat knows
HIDDEN_REASONS = "its reasons stay hidden (they may rest on what only it knows)"


@dataclass(frozen=True)
class ChanceOutcome:
    """A chance step of a game's past, with what chance gave (``Presenter.history_of``)."""

    outcome: Any


class Refusal(GameError):
    """Why an intent changed nothing, in words a player understands; ``kind`` is one of
    :data:`Session.KINDS` (for tests and styling, never shown alone)."""

    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message

    def to_dict(self, seq: int) -> dict[str, Any]:
        return {"kind": self.kind, "message": self.message[:300], "seq": seq}


class Presenter(Protocol):
    """What one game supplies to the platform's table (subclass :class:`BasePresenter`, which
    gives every hook but ``screen`` and ``label`` its usual meaning)."""

    #: resolve a chance step as soon as an action leads to it (Pig's die after "roll"); else a
    #: chance step waits for its player's click (Deep Sea Adventure's "Roll")
    auto_chance: bool
    #: every seat sees the whole game (Pig): a what-if's board does not say that what the
    #: viewer cannot see was drawn again (only its chance to come is fresh)
    hides_nothing: bool
    #: intents of the game's own: message type -> the presenter's method name, called as
    #: ``method(session, message, seat)`` (it raises :class:`Refusal` to refuse, and returns
    #: ``False`` when it quietly had nothing to do)
    INTENTS: ClassVar[Mapping[str, str]]
    #: how many of the history's last words a screen carries (``0``: the game's own log tells
    #: the steps, and the screen need not carry them twice)
    labels_sent: int
    #: the game supplies figures for the board's "Chances" panel (:meth:`chances`)
    shows_chances: bool

    def screen(self, session: Session, state: Any, viewer: int | None) -> dict[str, Any]:
        """The game's part of ``viewer``'s screen, built from ``state.view(viewer)`` only."""

    def past_screen(self, session: Session, state: Any, viewer: int | None) -> dict[str, Any]:
        """A step of the history as a page with no kernel scrubs it (the synced past): the
        screen, or a leaner one (what only the live game needs may go; the keys left out keep
        the live screen's values)."""

    def label(self, before: Any, after: Any, seat: int | None, action: Any, viewer: int | None) -> str:
        """The history's words for ``seat``'s ``action`` (``None``: a chance step), which led
        from ``before`` to ``after``, as ``viewer`` may read them."""

    def chances(self, view: Any) -> Sequence[Figure]:
        """The figures of the board's "Chances" panel (:class:`~dsa_widget.core.chances.Figure`),
        from one seat's view only (a spectator's: public knowledge), so that they tell nothing
        the screen's seat may not know; asked only when :attr:`shows_chances` and the board's
        hints are on; none (an empty sequence) where it has nothing to say."""

    def seat_kind(self, state: Any, seat: int) -> str | None:
        """The label of a seat nobody sits at (The Crew's Tonoja, played by the captain), else
        ``None``."""

    def legal_for(self, state: Any, seat: int) -> Sequence[Any]:
        """What ``seat`` may do now (also off its turn, where the game allows it)."""

    def act(self, state: Any, seat: int, action: Any) -> None:
        """``seat`` plays ``action`` on ``state`` (checked by the rules)."""

    def forced(self, state: Any, seat: int) -> Any:
        """The action played at once for the only human when it is all they may do (The Crew's
        "pass" in a window with nothing to show), else ``None``."""

    def compare_row(self, name: str, state: Any, viewer: int | None) -> dict[str, Any]:
        """One row of the what-if comparison, as ``viewer`` may know it."""

    def replay_setup(self, state: Any, setup: Mapping[str, Any]) -> dict[str, Any]:
        """Setup keywords for "play again" with ``state``'s settings (``setup``: the keywords
        the game was made with, when the session made it)."""

    def setup_values(self, state: Any, setup: Mapping[str, Any]) -> dict[str, Any]:
        """``state``'s settings under the setup form's own keys (and ``options``), so that the
        form starts from this game whatever it was made from (keywords, a game, a record)."""

    def outcome_of(self, before: Any, after: Any) -> Any:
        """The chance outcome that led from ``before`` to ``after`` (so that a served table
        can resume a turn under way with the same dice), ``None`` when the game cannot tell."""

    def reasons_public(self, session: Session) -> bool:
        """Whether every screen may show a bot's reasons: they may rest on what only its seat
        knows (its hand, its chips' values), so only where every seat knows the same."""

    def sample_for(self, state: Any, viewer: int | None, rng: random.Random) -> Any:
        """A what-if's first state: ``state`` with what ``viewer`` cannot see drawn again
        (``None``: a spectator, who knows what every player knows)."""

    def due(self, session: Session) -> tuple[float, Mapping[str, Any]] | None:
        """What the game does by itself after a while (a timed mission's clock running out):
        the seconds until then and the intent that does it (a served table sends it when
        the time comes); ``None``: nothing is due."""

    def history_of(self, state: Any) -> tuple[Any, Sequence[tuple[int, Any]]] | None:
        """For a game given with a past (a record loaded): the state it started from and its
        ``(seat, action)`` steps (a chance step's action: :class:`ChanceOutcome`), so that the
        history shows them; ``None``: it starts here."""


class BasePresenter:
    """The usual answer to every hook of :class:`Presenter` but ``screen`` and ``label``: one
    seat acts at a time (the one to move), every seat is someone's, nothing is forced."""

    auto_chance = False
    hides_nothing = False
    INTENTS: ClassVar[Mapping[str, str]] = {}
    labels_sent = LABELS_SENT
    shows_chances = False

    def chances(self, view: Any) -> Sequence[Figure]:
        return ()

    def past_screen(self, session: Session, state: Any, viewer: int | None) -> dict[str, Any]:
        return dict(self.screen(session, state, viewer))  # type: ignore[attr-defined]

    def seat_kind(self, state: Any, seat: int) -> str | None:
        return None

    def legal_for(self, state: Any, seat: int) -> Sequence[Any]:
        if state.is_over or state.to_move == CHANCE or Session.actor(state) != seat:
            return ()
        return tuple(state.legal_actions())

    def act(self, state: Any, seat: int, action: Any) -> None:
        state.apply(action)

    def forced(self, state: Any, seat: int) -> Any:
        return None

    def compare_row(self, name: str, state: Any, viewer: int | None) -> dict[str, Any]:
        return {"name": name, "over": bool(state.is_over)}

    def replay_setup(self, state: Any, setup: Mapping[str, Any]) -> dict[str, Any]:
        return {**setup, "players": list(state.players)}

    def setup_values(self, state: Any, setup: Mapping[str, Any]) -> dict[str, Any]:
        return self.replay_setup(state, setup)

    def history_of(self, state: Any) -> tuple[Any, Sequence[tuple[int, Any]]] | None:
        return None

    def due(self, session: Session) -> tuple[float, Mapping[str, Any]] | None:
        return None

    def outcome_of(self, before: Any, after: Any) -> Any:
        return None

    def reasons_public(self, session: Session) -> bool:
        return bool(session.reveal)  # a table that reveals everything: a teacher's

    def sample_for(self, state: Any, viewer: int | None, rng: random.Random) -> Any:
        return state.view(viewer).sample(rng)


def seat_list(seats: Mapping[int, Any] | Sequence[Any] | None, n: int) -> list[Any]:
    """One seat spec per seat (``"human"`` where none is given) from a mapping seat -> spec or a
    sequence of ``n`` specs.

    >>> seat_list({1: "random"}, 3)
    ['human', 'random', 'human']
    >>> seat_list({3: "random"}, 3)
    Traceback (most recent call last):
    ...
    ValueError: seats: seat 3 is not 0..2
    """
    specs: list[Any] = [HUMAN] * n
    if isinstance(seats, Mapping):
        for q, spec in seats.items():
            if not is_int(q) or not 0 <= q < n:
                raise ValueError(f"seats: seat {short_repr(q)} is not 0..{n - 1}")
            specs[q] = spec
    elif seats is not None:
        if isinstance(seats, str) or len(seats) != n:
            raise ValueError(f"seats: one entry per seat ({n})")
        specs = list(seats)
    return specs


class Session:
    """One game at one table.  ``game``: a registered game's name or a state of one; then the
    game's setup keywords (``players``, ``seed``, ``options``, ...).  ``seats`` maps a seat to
    ``"human"``, a bot name or a callable ``bot(view, legal)``; ``viewer``: whose screen it is
    (``"auto"``: the human to act, else the only or the last human; ``None``: a spectator);
    ``hot_seat``: one device passed round, a curtain between human seats; ``reveal``: a
    teaching table where the screen shows everything (what-if then keeps the hidden truth);
    ``auto_pass``: the only human's forced actions (:meth:`Presenter.forced`) play at once."""

    KINDS = (
        "malformed",
        "stale",
        "not_your_turn",
        "illegal",
        "history",
        "whatif",
        "curtain",
        "setup",
        "over",
        "bot",
        "internal",
    )

    def __init__(
        self,
        game_or_name: Any,
        /,
        *,
        seats: Mapping[int, Any] | Sequence[Any] | None = None,
        viewer: int | None | str = "auto",
        hot_seat: bool = False,
        reveal: bool = False,
        bot_seed: int | None = None,
        presenter: Presenter | None = None,
        auto_pass: bool = True,
        **setup: Any,
    ) -> None:
        if isinstance(game_or_name, (str, GameSpec)):
            self.spec = game_or_name if isinstance(game_or_name, GameSpec) else game(game_or_name)
            state = self.spec.new_game(**setup)
        else:
            if setup:
                raise TypeError("give either a game or setup keywords, not both")
            self.spec, state = game_of(game_or_name), game_or_name
        self.presenter = presenter
        #: the game's hooks (the usual ones when there is no presenter)
        self.hooks: Presenter = presenter if presenter is not None else BasePresenter()  # type: ignore[assignment]
        #: the only human is not asked when one action is all they may do (``Presenter.forced``)
        self.auto_pass = bool(auto_pass)
        #: chance steps wait for :meth:`chance` even where the presenter resolves them at once
        #: (a served table replaying a turn under way whose outcomes it knows; see
        #: :meth:`chance_held`)
        self.hold_chance = False
        self.hot_seat = bool(hot_seat)
        self.reveal = bool(reveal)
        #: the screens carry the game's chances (:meth:`Presenter.chances`): a board's ``hints``
        #: switch sets it (off by default, so a table served on its own shows none)
        self.hints = False
        self.bot_seed = bot_seed
        self.setup = dict(setup)
        self._rng = random.Random(bot_seed)
        self._listeners: list[Callable[[], None]] = []
        self.seq = 0
        #: grows when the history shrinks or starts afresh (undo in the real game, a new game)
        self.generation = 0
        #: while served: whose screen it was before (see :meth:`serving`)
        self._before_serving: tuple[Any, bool] | None = None
        self._start(state, seats, viewer)

    # ------------------------------------------------------------------ the game and its seats

    def _start(self, state: Any, seats: Mapping[int, Any] | Sequence[Any] | None, viewer: Any) -> None:
        n = len(state.players)
        if viewer != "auto" and viewer is not None and not (is_int(viewer) and 0 <= viewer < n):
            raise ValueError(f"viewer must be 'auto', None or a seat 0..{n - 1}, got {short_repr(viewer)}")
        #: seats nobody sits at (The Crew's Tonoja): seat -> its label
        self._fixed: dict[int, str] = {}
        for q in range(n):
            kind = self.hooks.seat_kind(state, q)
            if kind is not None:
                self._fixed[q] = str(kind)
        open_seats = [q for q in range(n) if q not in self._fixed]
        if (
            self._fixed
            and isinstance(seats, Sequence)
            and not isinstance(seats, str)
            and len(seats) == len(open_seats)
        ):
            seats = dict(zip(open_seats, seats, strict=True))  # one spec per seat someone sits at
        if isinstance(seats, Mapping):
            seats = {q: v for q, v in seats.items() if not (q in self._fixed and v in (None, HUMAN))}
        specs = seat_list(seats, n)
        #: the real game itself (shared with whoever gave it: not copied) ...
        self.live = state
        #: ... and a frozen copy of it after every step (history)
        self.real: Timeline[Any] = Timeline(state)
        #: ``(seat, action)`` of every step of the real game (``action`` ``None``: chance)
        self.steps: list[tuple[int | None, Any]] = []
        past = self.hooks.history_of(state)
        if past is not None:  # a game with a past: its steps replayed, one frame each
            start, steps = past
            self.real = Timeline(start)
            for q, a in steps:
                nxt = self.real.current.clone()
                if isinstance(a, ChanceOutcome):
                    nxt.apply_chance(a.outcome)
                else:
                    self.hooks.act(nxt, q, a)
                self.real.record(nxt)
                self.steps.append((q, None if isinstance(a, ChanceOutcome) else a))
            if self.real.current.view(0).to_dict() != state.view(0).to_dict():
                # the steps do not reach the game as given (stopped within a turn its record
                # does not hold yet): its history starts here
                self.real, self.steps = Timeline(state), []
        #: the steps undone in the real game (:meth:`undo` outside what-if), for :meth:`redo`
        self._undone: list[tuple[int | None, Any]] = []
        self._label_cache: dict[int | None, list[str]] = {}
        #: seat -> why its bot made its last choice (the bot's ``explain()``; shown only at a
        #: table that reveals everything: the reason may rest on the bot's own cards)
        self.bot_said: dict[int, str] = {}
        #: the same for the bots' choices in the what-if open (forgotten when it closes): a
        #: what-if showed the real game's reasons, and the real game then showed the what-if's
        self._branch_said: dict[int, str] = {}
        self._viewer_spec = viewer
        self._bots: dict[int, Any] = {}
        self._labels = [self._fixed.get(q, HUMAN) for q in range(n)]
        for q, spec in enumerate(specs):
            if q not in self._fixed or spec not in (None, HUMAN):
                self.set_seat(q, spec)  # (a bot given for a seat nobody sits at: refused)
        self.paused = False
        self.problem: dict[str, Any] | None = None
        #: the exception of the last bot that failed (for the notebook's user; never sent)
        self.last_bot_error: BaseException | None = None
        #: why the game's Chances figures last failed (the panel then shows none), else None
        self.chances_error: BaseException | None = None
        self._chances_seen: dict[tuple[int, int | None], tuple[Any, list[dict[str, Any]]]] = {}
        self.branch_line: Timeline[Any] | None = None
        self.branch_from: int | None = None
        #: the comparison's name of a branch's first state given by the caller (``branch(start=)``)
        self.branch_origin: str | None = None
        self.branch_sampled = False
        #: ``(seat, action)`` of every step of the what-if's timeline, as :attr:`steps` for the
        #: real game (those past its current frame can be redone), and their words per viewer
        self.branch_steps: list[tuple[int | None, Any]] = []
        self._branch_words: dict[int | None, list[str]] = {}
        #: what-if states kept for the comparison: ``(name, state)``
        self.kept: list[tuple[str, Any]] = []
        self.scrub: int | None = None
        self._curtain_open: int | None = None
        self._follow: int | None = None

    def set_seat(self, seat: int, spec: Any, label: str | None = None) -> None:
        """Make ``seat`` a human's (``"human"``), a built-in bot's (its name or spec) or a bot
        function's (``label``: the name it goes by, else its own)."""
        if not is_int(seat) or not 0 <= seat < len(self._labels):
            raise ValueError(f"no seat {short_repr(seat)}")
        if seat in self._fixed:
            name = self.real.current.players[seat]
            raise ValueError(f"seat {seat} is {name}'s, and nobody sits there: the game plays it")
        if spec is None or spec == HUMAN:
            self._bots.pop(seat, None)
            self._labels[seat] = HUMAN
            return
        if isinstance(spec, str):
            seed = None if self.bot_seed is None else self.bot_seed + seat
            bot = self.spec.bot_registry().parse_bot_spec(spec, seed=seed)
            label = spec
        elif callable(spec):
            bot, label = spec, label or bot_name(spec)
        else:
            raise ValueError(f"a seat takes 'human', a bot name or a bot function, not {short_repr(spec)}")
        self._bots[seat] = bot
        self._labels[seat] = label

    @property
    def seats(self) -> list[str]:
        """Per seat ``"human"`` or the bot's label."""
        return list(self._labels)

    @property
    def bots(self) -> dict[int, Any]:
        return dict(self._bots)

    @property
    def humans(self) -> list[int]:
        return [q for q in range(len(self._labels)) if q not in self._bots and q not in self._fixed]

    @property
    def game(self) -> Any:
        """The real game now: the state itself, shared (read it; act through the session, so
        that the history and the screens follow)."""
        return self.live

    @property
    def shown(self) -> Any:
        """The state the screen shows: the what-if branch, a past step, or the real game."""
        if self.branch_line is not None:
            return self.branch_line.current
        if self.scrub is not None:
            return self.frames()[self.scrub]
        return self.real.current

    def frames(self) -> list[Any]:
        """The real game after each of its steps (frame 0: as it started)."""
        return list(self.real.frames())[: self.real.index + 1]

    @property
    def fixed_seats(self) -> dict[int, str]:
        """Seats nobody sits at, with their labels (The Crew's Tonoja)."""
        return dict(self._fixed)

    @property
    def in_what_if(self) -> bool:
        return self.branch_line is not None

    @property
    def branch_game(self) -> Any:
        """A copy of the what-if's state now (``None`` outside what-if)."""
        return None if self.branch_line is None else self.branch_line.game

    @property
    def mode(self) -> str:
        return "whatif" if self.branch_line is not None else "history" if self.scrub is not None else "real"

    @staticmethod
    def actor(state: Any) -> int | None:
        """The seat that acts next in ``state`` (at a chance step: the seat whose turn it is)."""
        if state.is_over:
            return None
        t = state.to_move
        return int(state.current_player) if t == CHANCE and state.current_player is not None else int(t)

    # ------------------------------------------------------------------ who is looking

    def serving(self, on: bool = True) -> None:
        """The game is now played at a served table: this screen becomes a spectator's (no
        curtain, no what-if or past step on the shared game); ``on=False``: the table closed,
        the screen is whose it was before."""
        if on:
            self._before_serving = (self._viewer_spec, self.hot_seat)
            self._viewer_spec, self.hot_seat = None, False
            self.branch_line = self.branch_from = self.scrub = None
            self._forget_branch_steps()
        elif self._before_serving is not None:
            (self._viewer_spec, self.hot_seat), self._before_serving = self._before_serving, None
        self.changed()

    def curtain_seat(self) -> int | None:
        """Hot seat: the human seat waiting behind the curtain (``None``: no curtain)."""
        if not self.hot_seat or self.branch_line is not None:
            return None
        t = self.actor(self.real.current)
        if t is None or t in self._bots or t == self._curtain_open:
            return None
        return t

    @property
    def viewer(self) -> int | None:
        """The seat whose view the screen shows (``None``: a spectator's, public knowledge)."""
        if self.hot_seat:
            return None if self.curtain_seat() is not None else self._curtain_open
        if self._viewer_spec != "auto":
            return self._viewer_spec if is_int(self._viewer_spec) else None
        humans = self.humans
        if len(humans) <= 1:
            return humans[0] if humans else None
        t = self.actor(self.real.current)
        if t is not None and t not in self._bots:
            return t
        return self._follow if self._follow is not None else humans[0]

    # ------------------------------------------------------------------ changes

    def on_change(self, fn: Callable[[], None]) -> None:
        """``fn()`` after every change (the widget publishes, the server sends screens)."""
        self._listeners.append(fn)

    def changed(self) -> None:
        self.seq += 1
        for fn in list(self._listeners):
            fn()

    def _move(self, line: Timeline[Any], seat: int | None, action: Any) -> None:
        """One step on ``line``: ``seat``'s action, or (``action`` ``None``) a chance outcome
        drawn (in the real game from its own generator, so its record replays; in a what-if
        from the session's).  An illegal action raises and changes nothing."""
        if line is self.real:
            if action is None:
                self.live.sample_chance()
            else:
                self.hooks.act(self.live, int(seat), action)  # type: ignore[arg-type]
            self._record_step(seat, action)
        elif action is None:
            line.apply_chance(draw_chance(line.current.chance_outcomes(), self._rng))
            self._branch_step(seat)
        else:
            nxt = line.current.clone()
            self.hooks.act(nxt, int(seat), action)  # type: ignore[arg-type]
            line.record(nxt)
            self._branch_step(seat, action)

    def _branch_step(self, seat: int | None, action: Any = None) -> None:
        """The what-if's timeline gained a frame (``seat``'s ``action``; ``None``: chance): its
        step joins :attr:`branch_steps`, replacing the steps that were undone."""
        assert self.branch_line is not None
        kept = self.branch_line.index - 1
        del self.branch_steps[kept:]
        for words in self._branch_words.values():
            del words[kept:]
        self.branch_steps.append((seat, action))

    def _record_step(self, seat: int | None, action: Any) -> None:
        """The real game changed (``seat``'s ``action``; ``None``: chance): a frame of it joins
        the history, and nothing undone can be redone any more."""
        self.real.record(self.live)
        self.steps.append((seat, action))
        self._undone = []

    def _step(self, line: Timeline[Any], seat: int | None, action: Any) -> None:
        """:meth:`_move`, then the chance steps it leads to (when the presenter says so) and the
        only human's forced actions (when :attr:`auto_pass`)."""
        self._move(line, seat, action)
        self._settle(line)

    def _settle(self, line: Timeline[Any]) -> None:
        """The steps that follow by themselves: chance (when the presenter says so) and the
        only human's forced actions (when :attr:`auto_pass`)."""
        for _ in range(MAX_AUTO):
            g = line.current
            if g.is_over:
                return
            if g.to_move == CHANCE:
                if self.hold_chance or not (self.presenter is not None and self.presenter.auto_chance):
                    return
                self._move(line, g.current_player, None)
                continue
            humans = self.humans
            t = self.actor(g)
            if not self.auto_pass or len(humans) != 1 or t != humans[0]:
                return
            forced = self.hooks.forced(g, t)
            if forced is None:
                return
            self._move(line, t, forced)

    def _line(self) -> Timeline[Any]:
        """Where the Python verbs act: the what-if when one is open, else the real game."""
        return self.branch_line if self.branch_line is not None else self.real

    # ------------------------------------------------------------------ the Python verbs

    def apply(self, action: Any, seat: int | None = None) -> None:
        """``seat`` (default: the seat to act) plays ``action``, in the what-if when one is
        open, else in the real game (the game's checks and errors: an illegal action raises
        and changes nothing).  At a chance step, the game's chance word (``"roll"``) draws the
        outcome."""
        line = self._line()
        g = line.current
        t = self.actor(g)
        if t is None:
            raise Refusal("over", "the game is over")
        if line is self.real:
            self.scrub = None
        if g.to_move == CHANCE:
            if action != g.CHANCE_ACTION:
                raise Refusal("illegal", f"now comes chance: {g.CHANCE_ACTION}")
            self._step(line, t, None)
            return
        who = t if seat is None else seat
        self._step(line, who, action)
        if line is self.real and who not in self._bots:
            self._follow = who

    @contextmanager
    def chance_held(self) -> Iterator[None]:
        """Within it, chance steps wait for :meth:`chance` even where the presenter resolves
        them at once: for a caller that knows the outcomes (a served table replaying a turn
        under way, Pig's chosen face)."""
        self.hold_chance = True
        try:
            yield
        finally:
            self.hold_chance = False

    def chance(self, outcome: Any = None) -> None:
        """At a chance step: ``outcome`` (one of ``chance_outcomes()``: chosen dice, to try
        things or to teach), or the game's own draw (``None``); in the what-if when one is
        open, else in the real game (whose record then holds the outcome chosen)."""
        line = self._line()
        g = line.current
        if g.is_over or g.to_move != CHANCE:
            raise Refusal("illegal", "there is no chance step now")
        if outcome is None:
            self._step(line, g.current_player, None)
            return
        if line is self.real:
            self.live.apply_chance(outcome)  # a wrong outcome raises here and changes nothing
            self._record_step(g.current_player, None)
            self.scrub = None
        else:
            line.apply_chance(outcome)
            self._branch_step(g.current_player)
        self._settle(line)

    @property
    def _said(self) -> dict[int, str]:
        """What the bots said of their last choices on the line the verbs act on: the real
        game's (:attr:`bot_said`) or the open what-if's."""
        return self.bot_said if self.branch_line is None else self._branch_said

    def _bot_choice(self, g: Any, t: int, bot: Any) -> tuple[Any, str | None]:
        """``bot``'s answer for seat ``t`` in ``g``, or ``(None, why it failed)``; what it said
        of its choice is kept for the line it plays on (:attr:`_said`)."""
        legal = tuple(g.legal_actions())
        view = g.view(t)
        try:
            choice = bot(view, legal)
        except Exception as exc:  # noqa: BLE001 -- a bot's bug must not stop the table
            # the exception itself stays in Python (its text could name what only the bot knows)
            self.last_bot_error = exc
            return None, f"it raised {type(exc).__name__}"
        if choice not in legal:
            self.last_bot_error = Refusal("illegal", f"the bot answered {short_repr(choice, 40)}")
            return None, "it answered an action that is not legal now"
        explain = getattr(bot, "explain", None)
        said = explain() if callable(explain) else None
        self._said[t] = str(said or f"{bot_name(bot)}: {action_words(view, choice)}")[:300]
        return choice, None

    def bot_words(self, reasons: bool) -> dict[str, str]:
        """What each bot's seat shows of its last choice: its explanation when ``reasons`` (every
        seat may know what the bot knew: :meth:`Presenter.reasons_public`), else its name and
        that its reasons stay hidden (the history says what it chose, as each viewer may read
        it)."""
        said = self._said
        if reasons:
            return {str(q): text for q, text in said.items()}
        return {str(q): f"{text.partition(':')[0]}: {HIDDEN_REASONS}" for q, text in said.items()}

    def bot_move(self) -> Any:
        """The bot to act plays one step (in the what-if when one is open: there a human's seat
        gets a random legal action); ``None`` when no bot is to act.  A failing bot changes
        nothing: the session pauses and :attr:`problem` says why."""
        line = self._line()
        g = line.current
        t = self.actor(g)
        in_real = line is self.real
        if t is None or (in_real and t not in self._bots):
            return None
        if g.to_move == CHANCE:
            self._step(line, t, None)
            return g.CHANCE_ACTION
        bot = self._bots.get(t)
        if bot is None:  # a what-if: a human's seat plays at random
            choice: Any = self._rng.choice(tuple(g.legal_actions()))
        else:
            choice, why = self._bot_choice(g, t, bot)
            if why is not None:
                if in_real:
                    return self._bot_failed(t, why)
                choice = g.legal_actions()[0]  # a what-if never stalls on a bot
        self._step(line, t, choice)
        return choice

    def _bot_failed(self, seat: int, why: str) -> None:
        name = self.real.current.players[seat]
        self.paused = True
        self.problem = {
            "seat": seat,
            "bot": self._labels[seat],
            "why": why,
            "message": f"{name}'s bot ({self._labels[seat]}) could not move: {why}. "
            "The game is paused: give the seat another bot or a human, then resume.",
        }
        return None

    def play_bots(self, max_steps: int = MAX_AUTO, *, even_paused: bool = False) -> int:
        """Bots move in the real game until a human is to act, the game ends or a bot fails
        (or, unless ``even_paused``, the game is paused); how many steps."""
        n = 0
        if self.branch_line is not None:
            return 0
        while n < max_steps and (even_paused or not self.paused) and self.problem is None:
            if self.bot_move() is None:
                break
            n += 1
        return n

    def set_reveal(self, reveal: bool) -> None:
        """Make this a teacher's table (everything shown), or not; the history's words follow."""
        self.reveal = bool(reveal)
        self._label_cache.clear()

    def resume(self) -> None:
        self.paused = False
        self.problem = None

    def branch(self, step: int | None = None, *, start: Any = None, label: str | None = None) -> None:
        """A what-if branch from the real game after ``step`` steps (default: the step shown).
        Unless the game is over (or the table reveals everything), what the viewer cannot see
        is drawn again (``view.sample``), its chance to come too, so trying things never shows
        the hidden truth nor the real game's next dice.

        ``start``: the branch's first state as the caller made it (a game whose screens hide
        what the real game hides; it replaces a branch already open), with ``label``, the
        comparison's name for it (``None``: no row of its own)."""
        if start is not None:
            self.branch_line, self.branch_sampled, self.scrub = Timeline(start), False, None
            self.branch_from, self.branch_origin, self.kept = None, label, []
            self._forget_branch_steps()
            return
        if self.branch_line is not None:
            raise Refusal("whatif", "you are trying things already: go back to the real game first")
        if step is not None:
            self.seek(step)
        base = self.shown
        viewer = self.viewer
        if base.is_over or self.reveal:
            state, sampled = base.clone(), False
        else:  # what the screen's seat cannot see is drawn again (a spectator: all that is hidden),
            # the chance to come included (a what-if must not foretell the real game's dice);
            # a game that hides nothing only gets fresh chance, which the board need not announce
            state = self.hooks.sample_for(base, viewer, self._rng)
            sampled = not (self.presenter is not None and self.presenter.hides_nothing)
        self.branch_from = len(self.steps) if self.scrub is None else self.scrub
        self.branch_line, self.branch_sampled, self.scrub = Timeline(state), sampled, None
        self.branch_origin, self.kept = None, []
        self._forget_branch_steps()

    def _forget_branch_steps(self) -> None:
        self.branch_steps = []
        self._branch_words = {}
        self._branch_said = {}

    def undo(self, n: int = 1) -> None:
        """Undo ``n`` steps: in the what-if, else in the real game (for a teacher or a
        mis-click from a cell: the board's undo works in what-if only)."""
        if not is_int(n) or n < 0:
            raise ValueError(f"n is a whole number, got {short_repr(n)}")
        if self.branch_line is not None:
            if self.branch_line.index < n:
                raise Refusal("whatif", "nothing to undo: that is where this what-if started")
            self.branch_line.undo(n)
            return
        if len(self.steps) < n:
            raise Refusal("history", f"the game has {len(self.steps)} steps to undo")
        if n == 0:
            return
        self.real.undo(n)
        self._undone = self.steps[len(self.steps) - n :] + self._undone
        del self.steps[len(self.steps) - n :]
        self._restore_live()

    def redo(self, n: int = 1) -> None:
        """Redo ``n`` undone steps (in the what-if, else in the real game)."""
        if not is_int(n) or n < 0:
            raise ValueError(f"n is a whole number, got {short_repr(n)}")
        if self.branch_line is not None:
            if len(self.branch_line) - 1 - self.branch_line.index < n:
                raise Refusal("whatif", "nothing to redo")
            self.branch_line.redo(n)
            return
        if len(self._undone) < n:
            raise Refusal("history", f"{len(self._undone)} steps to redo")
        self.real.redo(n)
        self.steps.extend(self._undone[:n])
        del self._undone[:n]
        self._restore_live()

    def _restore_live(self) -> None:
        """The real game is now its timeline's current frame: restored in place where the game
        can (whoever holds it keeps the same object), else a fresh copy (frames never change)."""
        restore = getattr(self.live, "restore", None)
        if callable(restore):
            restore(self.real.current)
        else:
            self.live = self.real.current.clone()
        for done in self._label_cache.values():
            del done[len(self.steps) :]
        self.scrub = None
        self.generation += 1

    def back_to_real(self) -> None:
        if self.branch_line is None:
            raise Refusal("whatif", "you are in the real game already")
        self.branch_line = self.branch_from = self.branch_origin = None
        self.kept = []
        self._forget_branch_steps()

    #: how many what-if states :meth:`keep` holds at once
    KEEP_MAX = 4

    def keep(self, name: str | None = None) -> str:
        """Keep the what-if's state now as a row of the comparison (:meth:`compare`); its name
        (default ``"kept 1"``, ...).  Leaving the what-if forgets them."""
        if self.branch_line is None:
            raise Refusal("whatif", "keep holds a what-if's state: try things first (what-if)")
        if len(self.kept) >= self.KEEP_MAX:
            raise Refusal("whatif", f"{self.KEEP_MAX} states are kept already")
        taken = {k for k, _ in self.kept}
        if name is None:
            i = len(self.kept) + 1
            while f"kept {i}" in taken:
                i += 1
            name = f"kept {i}"
        if not isinstance(name, str) or not name.strip() or len(name) > 24:
            raise ValueError(f"a kept state's name is 1 to 24 characters, got {short_repr(name)}")
        if name in ("real", "what-if") or name in taken or name.startswith("real at"):
            raise ValueError(f"the comparison has a row named {name!r} already")
        self.kept.append((name, self.branch_line.current))  # frames never change: no copy
        return name

    def compare(self, viewer: int | None | str = "screen") -> list[dict[str, Any]]:
        """The real game, where the what-if started, the kept states and the what-if side by
        side: one row each (the presenter's :meth:`~Presenter.compare_row`), as ``viewer`` may
        know them."""
        line = self.branch_line
        if line is None:
            raise Refusal("whatif", "no what-if is open: the comparison is the what-if's")
        who = self.viewer if viewer == "screen" else viewer
        row = self.hooks.compare_row
        rows = [row("real", self.real.current, who)]  # type: ignore[arg-type]
        if self.branch_origin is not None:
            rows.append(row(self.branch_origin, next(iter(line.frames())), who))  # type: ignore[arg-type]
        elif self.branch_from is not None and self.branch_from != len(self.steps):
            rows.append(row(f"real at step {self.branch_from}", self.frames()[self.branch_from], who))  # type: ignore[arg-type]
        rows.extend(row(k, st, who) for k, st in self.kept)  # type: ignore[arg-type]
        rows.append(row("what-if", line.current, who))  # type: ignore[arg-type]
        return rows

    def seek(self, step: int | None) -> None:
        """Show the real game after its first ``step`` steps (``None``: now)."""
        if self.branch_line is not None:
            raise Refusal("whatif", "leave the what-if first (back to the real game)")
        if step is None or step == len(self.steps):
            self.scrub = None
        elif is_int(step) and 0 <= step < len(self.steps):
            self.scrub = step
        else:
            raise Refusal("malformed", f"the history has steps 0 to {len(self.steps)}")

    def play_out(self) -> int:
        """What-if: the bots (a random player for a human seat) play until the viewer acts."""
        line = self.branch_line
        if line is None:
            raise Refusal("whatif", "play-out is for trying things (what-if)")
        viewer, n = self.viewer, 0
        while n < MAX_AUTO:
            t = self.actor(line.current)
            if t is None or t == viewer:
                break
            self.bot_move()
            n += 1
        return n

    def restart(self, state: Any) -> None:
        """Play ``state`` from here (a new game, the next attempt): the seats stay, the
        history and any what-if start afresh."""
        bots, labels = dict(self._bots), list(self._labels)
        self._start(state, None, self._viewer_spec)
        for q, bot in bots.items():  # the same bots (and their names) where the seat still is
            if q < len(self._labels) and q not in self._fixed:
                self._bots[q], self._labels[q] = bot, labels[q]
        self.generation += 1

    def new_game(self, **setup: Any) -> None:
        """A new game of the same kind (the game's setup keywords; ``seats`` as the session
        takes them); the seats stay as they are unless given."""
        seats = setup.pop("seats", None)
        state = self.spec.new_game(**setup)
        if seats is None:
            self.restart(state)
        else:
            before = dict(vars(self))
            try:
                self._start(state, seats, self._viewer_spec)
            except Exception:  # a bad seat: the table stays as it was
                vars(self).clear()
                vars(self).update(before)
                raise
            self.generation += 1
        self.setup = dict(setup)

    def refresh(self) -> None:
        """After the real game was changed directly (not through the session): its new state
        becomes the history's next step (its words: "changed from a cell")."""
        before = self.real.current
        if before.to_record() == self.live.to_record() and (
            before.view(0).to_dict() == self.live.view(0).to_dict()  # a step within a turn
        ):
            return
        self._record_step(None, OUTSIDE)
        self.scrub = None

    # ------------------------------------------------------------------ intents

    def handle(self, message: Any, *, seat: int | None | str = "screen") -> Refusal | None:
        """Handle one intent from a screen (``seat``: the sender's seat at a served table;
        ``"screen"``: the notebook's screen, whose seat is :attr:`viewer`).  Returns ``None``
        when it changed the table, else the :class:`Refusal` (the table is unchanged)."""
        try:
            self._handle(message, seat)
        except Refusal as r:
            return r
        except GameError as exc:  # a rules error the checks above did not foresee
            return Refusal("illegal", str(exc)[:300])
        return None

    INTENTS: dict[str, str] = {
        "intent": "_choice",
        "bot_step": "_bot_step",
        "pause": "_pause",
        "show_seat": "_show_seat",
        "scrub": "_scrub",
        "what_if": "_what_if",
        "undo": "_undo",
        "redo": "_redo",
        "play_out": "_play_out",
        "back_to_real": "_back",
        "keep": "_keep",
    }

    def _handle(self, msg: Any, sender: int | None | str) -> None:
        if not isinstance(msg, Mapping):
            raise Refusal("malformed", "a message is an object")
        kind = msg.get("type")
        own = self.hooks.INTENTS.get(kind) if isinstance(kind, str) else None
        handler = self.INTENTS.get(kind) if isinstance(kind, str) and own is None else None
        if handler is None and own is None:
            raise Refusal("malformed", f"unknown message type {short_repr(kind, 40)}")
        seq = msg.get("seq")
        if seq is None and kind == "pause":
            seq = self.seq  # pausing is the same whenever it is asked: no state number needed
        if seq is None:
            raise Refusal("malformed", "the click carried no state number; nothing changed")
        if not is_int(seq):
            raise Refusal("malformed", "the state number (seq) is an integer")
        if kind == "bot_step" and self.branch_line is None and (seq != self.seq or not self._bot_due()):
            return  # the browser's timer fired late: quietly nothing to do
        if seq != self.seq and kind != "pause":  # pausing is the same whenever it is asked
            raise Refusal(
                "stale", f"that click was for state #{seq}, the board is at #{self.seq}; nothing changed"
            )
        who = self.viewer if sender == "screen" else sender
        if own is not None:
            if getattr(self.hooks, own)(self, msg, who) is False:
                return  # the game's intent found nothing to do (a late timer): quietly nothing
        else:
            getattr(self, str(handler))(msg, who)
        self.changed()

    def _choice(self, msg: Mapping[str, Any], who: int | None) -> None:
        choice = msg.get("choice")
        if not isinstance(choice, str) or not choice or len(choice) > 120:
            raise Refusal("malformed", "the choice is a short text, such as an action's name")
        if self.scrub is not None:
            raise Refusal("history", "the board shows the past: go back to live play first")
        line = self.branch_line if self.branch_line is not None else self.real
        g = line.current
        if line is self.real and self.curtain_seat() is not None:
            raise Refusal("curtain", "press Show first: the board is behind the curtain")
        t = self.actor(g)
        if t is None:
            raise Refusal("over", "the game is over: start a new one")
        if who is not None and line is self.real and who in self._bots:
            raise Refusal("not_your_turn", "a bot plays that seat; nothing changed")
        legal = () if who is None else self.hooks.legal_for(g, who)
        if who is None or (t != who and not legal):
            name = g.players[t]
            raise Refusal("not_your_turn", f"it is {name}'s turn, not yours; nothing changed")
        if g.to_move == CHANCE and t == who:
            if choice != g.CHANCE_ACTION:
                raise Refusal("illegal", f"first {g.CHANCE_ACTION}: that is the only thing to do now")
            self._step(line, t, None)
            return
        if choice not in legal:  # the rules may accept what no list spells out (a proposal)
            try:
                self.hooks.act(g.clone(), who, choice)
            except GameError as exc:
                raise Refusal("illegal", str(exc)[:300]) from None
        self._step(line, who, choice)
        if line is self.real:
            self._follow = who

    def _bot_due(self) -> bool:
        """A bot is to act in the real game shown live (paused or not: a step asked while
        paused is a person's S key; the bot clock sends none then)."""
        if self.branch_line is not None or self.scrub is not None:
            return False
        return self.actor(self.real.current) in self._bots

    def is_bot_turn(self) -> bool:
        """True when a bot is to act in the real game."""
        return self.actor(self.real.current) in self._bots

    def _bot_step(self, msg: Mapping[str, Any], who: int | None) -> None:
        """The bot clock's step in the real game; in a what-if, a click: the seat to act (a
        bot, or a random player for a human's seat) plays one step."""
        if self.branch_line is not None and self.actor(self.branch_line.current) is None:
            raise Refusal("over", "this what-if is over: undo, or go back to the real game")
        self.bot_move()

    def _pause(self, msg: Mapping[str, Any], who: int | None) -> None:
        p = msg.get("paused")
        if not isinstance(p, bool):
            raise Refusal("malformed", "paused is true or false")
        if p:
            self.paused = True
        else:
            self.resume()

    def _show_seat(self, msg: Mapping[str, Any], who: int | None) -> None:
        cur = self.curtain_seat()
        if cur is None:
            raise Refusal("curtain", "there is no curtain to lift")
        self._curtain_open = cur

    def _scrub(self, msg: Mapping[str, Any], who: int | None) -> None:
        self.seek(msg.get("step"))

    def _what_if(self, msg: Mapping[str, Any], who: int | None) -> None:
        if self.curtain_seat() is not None:
            raise Refusal("curtain", "press Show first: the board is behind the curtain")
        self.branch()

    def _undo(self, msg: Mapping[str, Any], who: int | None) -> None:
        if self.branch_line is None:  # a board undoes only what-if steps: the real game is shared
            raise Refusal("whatif", "nothing to undo: undo works while you try things (what-if)")
        self.undo()

    def _redo(self, msg: Mapping[str, Any], who: int | None) -> None:
        if self.branch_line is None:
            raise Refusal("whatif", "nothing to redo")
        self.redo()

    def _keep(self, msg: Mapping[str, Any], who: int | None) -> None:
        self.keep()

    def _play_out(self, msg: Mapping[str, Any], who: int | None) -> None:
        self.play_out()

    def _back(self, msg: Mapping[str, Any], who: int | None) -> None:
        self.back_to_real()

    # ------------------------------------------------------------------ the screen

    def labels(self, viewer: int | None | str = "screen") -> list[str]:
        """The history's words for every step of the real game, as ``viewer`` may read them."""
        who = self.viewer if viewer == "screen" else viewer
        if isinstance(who, str):
            raise ValueError(f"viewer must be a seat, None or 'screen', got {short_repr(who)}")
        return self._labels_for(who)

    def _labels_for(self, who: int | None) -> list[str]:
        """The history's words as ``who`` may read them (kept: the real game's steps only grow)."""
        if self.presenter is None:
            return []
        done = self._label_cache.setdefault(who, [])
        self._word_steps(done, self.steps, len(self.steps), self.frames, who)
        return list(done)

    def _word_steps(
        self,
        done: list[str],
        steps: list[tuple[int | None, Any]],
        upto: int,
        frames: Callable[[], list[Any]],
        who: int | None,
    ) -> None:
        """Extend ``done``, the words of the first steps of a line as ``who`` may read them, to
        its first ``upto`` ``steps`` (``frames()``: the line's states, read only when a step
        is still to be worded)."""
        assert self.presenter is not None
        if len(done) >= upto:
            return
        shown = frames()
        for i in range(len(done), upto):
            q, a = steps[i]
            if a is OUTSIDE:
                done.append("the game was changed from a cell")
            else:
                done.append(self.presenter.label(shown[i], shown[i + 1], q, a, who))

    def _whatif_labels_for(self, who: int | None) -> list[str]:
        """The words of the steps that led to the what-if's current state, as ``who`` may read
        them: the real game's up to where the what-if began, then the what-if's own."""
        line = self.branch_line
        assert line is not None
        real = self._labels_for(who)[: self.branch_from or 0]
        if self.presenter is None:
            return real
        words = self._branch_words.setdefault(who, [])
        self._word_steps(words, self.branch_steps, line.index, lambda: list(line.frames()), who)
        return real + words[: line.index]

    def chances(self, state: Any, viewer: int | None) -> list[dict[str, Any]] | None:
        """The figures of the board's "Chances" panel for ``state`` as ``viewer`` may know it
        (:meth:`Presenter.chances`, given ``state.view(viewer)`` and nothing else); ``None``
        while the hints are off or the game has none."""
        if not (self.hints and self.hooks.shows_chances):
            return None
        # a stored frame never changes (Timeline.current), so its figures for a viewer are
        # worked out once: the live screen and its history frame are one state, and H rebuilds
        # every past frame (the entry keeps the state, so its id is not reused meanwhile)
        key = (id(state), viewer)
        seen = self._chances_seen.get(key)
        if seen is not None and seen[0] is state:
            return list(seen[1])
        try:
            figures = [f.to_dict() for f in self.hooks.chances(state.view(viewer))]
        except Exception as exc:  # noqa: BLE001 - the figures are optional: the board goes on
            self.chances_error = exc  # kept for whoever debugs the game's figures
            return None
        if len(self._chances_seen) >= CHANCES_KEPT:
            self._chances_seen.clear()
        self._chances_seen[key] = (state, figures)
        return list(figures)

    def screen(self, viewer: int | None | str = "screen") -> dict[str, Any]:
        """What ``viewer``'s screen draws: the game's part (its presenter's, from that
        viewer's view only) and the table's (seq, mode, seats, who acts, curtain, history,
        what-if, pause and a failing bot's problem)."""
        if viewer == "screen":
            who = self.viewer
        elif viewer is None or is_int(viewer):
            who = viewer
        else:
            raise ValueError(f"viewer must be a seat or None, got {short_repr(viewer)}")
        state = self.shown
        cur = self.curtain_seat()
        out = {} if self.presenter is None else dict(self.presenter.screen(self, state, who))
        t = self.actor(state)
        mode = self.mode
        seat_ok = (
            who is not None
            and mode != "history"
            and cur is None
            and (mode == "whatif" or who not in self._bots)
        )
        legal = list(self.hooks.legal_for(state, who)) if seat_ok and who is not None else []
        can_act = seat_ok and (t == who or bool(legal))
        sent = max(0, int(self.hooks.labels_sent))
        # the words of the steps that led to the state shown (in a what-if: the real game's
        # before it began, then its own); none at all when none are sent (not even worded)
        told = [] if not sent else self._whatif_labels_for(who) if mode == "whatif" else self._labels_for(who)
        labels = told[-sent:]  # (none sent: told is empty)
        if self.hooks.shows_chances:  # none behind a curtain
            out["chances"] = self.chances(state, who) if cur is None else None
        out.update(
            seq=self.seq,
            mode=mode,
            kinds=list(self._labels),
            bot_seats=sorted(self._bots),
            actor=t,
            viewer=who,
            can_act=bool(can_act),
            legal=[str(a) for a in legal],
            chance=state.CHANCE_ACTION if can_act and t == who and state.to_move == CHANCE else None,
            over=bool(state.is_over),
            paused=self.paused,
            problem=self.problem,
            # what the bots said of their last choices: the live game's (a past step has none)
            bot_said=self.bot_words(self.hooks.reasons_public(self)) if mode != "history" else {},
            curtain=None if cur is None else {"seat": cur, "name": str(self.real.current.players[cur])},
            history={
                "n": len(self.steps),
                "at": self.scrub,
                "labels": labels,  # the last ``labels_sent`` of them, numbered from first
                "first": len(told) - len(labels),
            },
            whatif=None
            if self.branch_line is None
            else {
                "from_step": self.branch_from,
                "sampled": self.branch_sampled,
                "can_undo": self.branch_line.can_undo,
                "can_redo": self.branch_line.can_redo,
                "can_keep": len(self.kept) < self.KEEP_MAX,
                "compare": self.compare(who),
            },
        )
        return out
