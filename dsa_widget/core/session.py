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
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Protocol

from .bots import bot_name, draw_chance
from .errors import GameError, short_repr
from .protocol import CHANCE
from .registry import GameSpec, game, game_of
from .timeline import Timeline

__all__ = ["HUMAN", "Presenter", "Refusal", "Session", "seat_list"]

HUMAN = "human"
#: the most steps ``play_bots`` (or a what-if play-out) takes in one call
MAX_AUTO = 5000
#: a screen carries the history's words for the last this many steps (``history.first`` says
#: where they start), so a long game's updates stay small; ``Session.labels`` has them all
LABELS_SENT = 60


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
    """What one game supplies to the platform's table."""

    #: resolve a chance step as soon as an action leads to it (Pig's die after "roll"); else a
    #: chance step waits for its player's click (Deep Sea Adventure's "Roll")
    auto_chance: bool

    def screen(self, session: Session, state: Any, viewer: int | None) -> dict[str, Any]:
        """The game's part of ``viewer``'s screen, built from ``state.view(viewer)`` only."""

    def label(self, before: Any, after: Any, seat: int | None, action: Any, viewer: int | None) -> str:
        """The history's words for ``seat``'s ``action`` (``None``: a chance step), which led
        from ``before`` to ``after``, as ``viewer`` may read them."""


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


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
            if not _is_int(q) or not 0 <= q < n:
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
    teaching table where the screen shows everything (what-if then keeps the hidden truth)."""

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
        self.hot_seat = bool(hot_seat)
        self.reveal = bool(reveal)
        self.bot_seed = bot_seed
        self.setup = dict(setup)
        self._rng = random.Random(bot_seed)
        self._listeners: list[Callable[[], None]] = []
        self.seq = 0
        self._start(state, seats, viewer)

    # ------------------------------------------------------------------ the game and its seats

    def _start(self, state: Any, seats: Mapping[int, Any] | Sequence[Any] | None, viewer: Any) -> None:
        n = len(state.players)
        if viewer != "auto" and viewer is not None and not (_is_int(viewer) and 0 <= viewer < n):
            raise ValueError(f"viewer must be 'auto', None or a seat 0..{n - 1}, got {short_repr(viewer)}")
        specs = seat_list(seats, n)
        #: the real game itself (shared with whoever gave it: not copied) ...
        self.live = state
        #: ... and a frozen copy of it after every step (history)
        self.real: Timeline[Any] = Timeline(state)
        #: ``(seat, action)`` of every step of the real game (``action`` ``None``: chance)
        self.steps: list[tuple[int | None, Any]] = []
        self._label_cache: dict[int | None, list[str]] = {}
        self._viewer_spec = viewer
        self._bots: dict[int, Any] = {}
        self._labels = [HUMAN] * n
        for q, spec in enumerate(specs):
            self.set_seat(q, spec)
        self.paused = False
        self.problem: dict[str, Any] | None = None
        #: the exception of the last bot that failed (for the notebook's user; never sent)
        self.last_bot_error: BaseException | None = None
        self.branch_line: Timeline[Any] | None = None
        self.branch_from: int | None = None
        self.branch_sampled = False
        self.scrub: int | None = None
        self._curtain_open: int | None = None
        self._follow: int | None = None

    def set_seat(self, seat: int, spec: Any) -> None:
        """Make ``seat`` a human's (``"human"``), a built-in bot's (its name or spec) or a bot
        function's."""
        if not _is_int(seat) or not 0 <= seat < len(self._labels):
            raise ValueError(f"no seat {short_repr(seat)}")
        if spec is None or spec == HUMAN:
            self._bots.pop(seat, None)
            self._labels[seat] = HUMAN
            return
        if isinstance(spec, str):
            seed = None if self.bot_seed is None else self.bot_seed + seat
            bot = self.spec.bot_registry().parse_bot_spec(spec, seed=seed)
            label = spec
        elif callable(spec):
            bot, label = spec, bot_name(spec)
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
        return [q for q in range(len(self._labels)) if q not in self._bots]

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
            return list(self.real.frames())[self.scrub]
        return self.real.current

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

    def serving(self) -> None:
        """The game is now played at a served table: this screen becomes a spectator's (no
        curtain, no what-if or past step on the shared game)."""
        self._viewer_spec, self.hot_seat = None, False
        self.branch_line = self.branch_from = self.scrub = None
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
            return self._viewer_spec if _is_int(self._viewer_spec) else None
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
        """One step on ``line``: an action, or (``action`` ``None``) a chance outcome drawn (in
        the real game from its own generator, so its record replays; in a what-if from the
        session's)."""
        if line is self.real:
            if action is None:
                self.live.sample_chance()
            else:
                self.live.apply(action)  # an illegal action raises here and changes nothing
            self.real.record(self.live)
            self.steps.append((seat, action))
        elif action is None:
            line.apply_chance(draw_chance(line.current.chance_outcomes(), self._rng))
        else:
            line.apply(action)

    def _step(self, line: Timeline[Any], seat: int | None, action: Any) -> None:
        """:meth:`_move`, then (when the presenter says so) the chance steps it leads to."""
        self._move(line, seat, action)
        if self.presenter is not None and self.presenter.auto_chance:
            while line.current.to_move == CHANCE and not line.current.is_over:
                self._move(line, line.current.current_player, None)

    # ------------------------------------------------------------------ the Python verbs

    def apply(self, action: Any) -> None:
        """The seat to act in the real game plays ``action`` (the game's checks and errors);
        at a chance step, the game's chance word (``"roll"``) draws the outcome."""
        g = self.real.current
        seat = self.actor(g)
        if seat is None:
            raise Refusal("over", "the game is over")
        if g.to_move == CHANCE:
            if action != g.CHANCE_ACTION:
                raise Refusal("illegal", f"now comes chance: {g.CHANCE_ACTION}")
            self._step(self.real, seat, None)
        else:
            self._step(self.real, seat, action)
        if seat not in self._bots:
            self._follow = seat

    def bot_move(self) -> Any:
        """The bot to act plays one step; ``None`` when no bot is to act.  A failing bot
        changes nothing: the session pauses and :attr:`problem` says why."""
        g = self.real.current
        t = self.actor(g)
        if t is None or t not in self._bots:
            return None
        if g.to_move == CHANCE:
            self._step(self.real, t, None)
            return g.CHANCE_ACTION
        bot = self._bots[t]
        legal = tuple(g.legal_actions())
        try:
            choice = bot(g.view(t), legal)
        except Exception as exc:  # noqa: BLE001 -- a bot's bug must not stop the table
            # the exception itself stays in Python (its text could name what only the bot knows)
            self.last_bot_error = exc
            return self._bot_failed(t, f"it raised {type(exc).__name__}")
        if choice not in legal:
            self.last_bot_error = Refusal("illegal", f"the bot answered {short_repr(choice, 40)}")
            return self._bot_failed(t, "it answered an action that is not legal now")
        self._step(self.real, t, choice)
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
        """Bots move until a human is to act, the game ends or a bot fails (or, unless
        ``even_paused``, the game is paused); how many steps."""
        n = 0
        while n < max_steps and (even_paused or not self.paused) and self.problem is None:
            if self.bot_move() is None:
                break
            n += 1
        return n

    def resume(self) -> None:
        self.paused = False
        self.problem = None

    def branch(self) -> None:
        """A what-if branch from the step shown.  Unless the game is over (or the table reveals
        everything), what the viewer cannot see is drawn again (``view.sample``), so trying
        things never shows the hidden truth."""
        if self.branch_line is not None:
            raise Refusal("whatif", "you are trying things already: go back to the real game first")
        base = self.shown
        viewer = self.viewer
        if base.is_over or self.reveal:
            state, sampled = base.clone(), False
        elif viewer is None:
            raise Refusal("whatif", "a spectator cannot try things: only a player (or a teacher's table) can")
        else:
            state, sampled = base.view(viewer).sample(self._rng), True
        self.branch_from = len(self.steps) if self.scrub is None else self.scrub
        self.branch_line, self.branch_sampled, self.scrub = Timeline(state), sampled, None

    def undo(self) -> None:
        if self.branch_line is None or not self.branch_line.can_undo:
            raise Refusal("whatif", "nothing to undo: undo works while you try things (what-if)")
        self.branch_line.undo()

    def redo(self) -> None:
        if self.branch_line is None or not self.branch_line.can_redo:
            raise Refusal("whatif", "nothing to redo")
        self.branch_line.redo()

    def back_to_real(self) -> None:
        if self.branch_line is None:
            raise Refusal("whatif", "you are in the real game already")
        self.branch_line = self.branch_from = None

    def seek(self, step: int | None) -> None:
        """Show the real game after its first ``step`` steps (``None``: now)."""
        if self.branch_line is not None:
            raise Refusal("whatif", "leave the what-if first (back to the real game)")
        if step is None or step == len(self.steps):
            self.scrub = None
        elif _is_int(step) and 0 <= step < len(self.steps):
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
            g = line.current
            t = self.actor(g)
            if t is None or t == viewer:
                break
            if g.to_move == CHANCE:
                self._step(line, t, None)
            else:
                legal = tuple(g.legal_actions())
                bot = self._bots.get(t)
                try:
                    choice = bot(g.view(t), legal) if bot is not None else self._rng.choice(legal)
                except Exception:  # noqa: BLE001 -- a what-if never stalls on a bot
                    choice = legal[0]
                self._step(line, t, choice if choice in legal else legal[0])
            n += 1
        return n

    def new_game(self, **setup: Any) -> None:
        """A new game of the same kind (the game's setup keywords; ``seats`` as the session
        takes them); the seats stay as they are unless given."""
        seats = setup.pop("seats", None)
        if seats is None:
            seats = {q: self._bots[q] for q in self._bots}
        state = self.spec.new_game(**setup)
        self.setup = dict(setup)
        self._start(state, seats, "auto" if self._viewer_spec == "auto" else self._viewer_spec)

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
    }

    def _handle(self, msg: Any, sender: int | None | str) -> None:
        if not isinstance(msg, Mapping):
            raise Refusal("malformed", "a message is an object")
        kind = msg.get("type")
        handler = self.INTENTS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise Refusal("malformed", f"unknown message type {short_repr(kind, 40)}")
        seq = msg.get("seq")
        if seq is None:
            raise Refusal("malformed", "the click carried no state number; nothing changed")
        if not _is_int(seq):
            raise Refusal("malformed", "the state number (seq) is an integer")
        if kind == "bot_step" and (seq != self.seq or not self._bot_due()):
            return  # the browser's timer fired late: quietly nothing to do
        if seq != self.seq and kind != "pause":  # pausing is the same whenever it is asked
            raise Refusal(
                "stale", f"that click was for state #{seq}, the board is at #{self.seq}; nothing changed"
            )
        getattr(self, handler)(msg, self.viewer if sender == "screen" else sender)
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
        if who is None or t != who or (line is self.real and t in self._bots):
            name = g.players[t]
            raise Refusal("not_your_turn", f"it is {name}'s turn, not yours; nothing changed")
        if g.to_move == CHANCE:
            if choice != g.CHANCE_ACTION:
                raise Refusal("illegal", f"first {g.CHANCE_ACTION}: that is the only thing to do now")
            self._step(line, t, None)
            return
        legal = g.legal_actions()
        if choice not in legal:
            raise Refusal("illegal", self._why_illegal(g, choice, legal))
        self._step(line, t, choice)
        if line is self.real:
            self._follow = t

    def _why_illegal(self, g: Any, choice: str, legal: Sequence[Any]) -> str:
        try:
            g.clone().apply(choice)
        except GameError as exc:
            return str(exc)[:300]
        return f"{short_repr(choice, 40)} is not allowed now"  # pragma: no cover - legal said no

    def _bot_due(self) -> bool:
        if self.paused or self.branch_line is not None or self.scrub is not None:
            return False
        return self.actor(self.real.current) in self._bots

    def is_bot_turn(self) -> bool:
        """True when a bot is to act in the real game."""
        return self.actor(self.real.current) in self._bots

    def _bot_step(self, msg: Mapping[str, Any], who: int | None) -> None:
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
        self.undo()

    def _redo(self, msg: Mapping[str, Any], who: int | None) -> None:
        self.redo()

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
        if len(done) < len(self.steps):
            frames = list(self.real.frames())
            for i in range(len(done), len(self.steps)):
                q, a = self.steps[i]
                done.append(self.presenter.label(frames[i], frames[i + 1], q, a, who))
        return list(done)

    def screen(self, viewer: int | None | str = "screen") -> dict[str, Any]:
        """What ``viewer``'s screen draws: the game's part (its presenter's, from that
        viewer's view only) and the table's (seq, mode, seats, who acts, curtain, history,
        what-if, pause and a failing bot's problem)."""
        if viewer == "screen":
            who = self.viewer
        elif viewer is None or isinstance(viewer, int):
            who = viewer
        else:
            raise ValueError(f"viewer must be a seat or None, got {short_repr(viewer)}")
        state = self.shown
        cur = self.curtain_seat()
        out = {} if self.presenter is None else dict(self.presenter.screen(self, state, who))
        t = self.actor(state)
        mode = self.mode
        can_act = (
            who is not None
            and t == who
            and mode != "history"
            and cur is None
            and (mode == "whatif" or who not in self._bots)
        )
        labels = self._labels_for(who)
        out.update(
            seq=self.seq,
            mode=mode,
            kinds=list(self._labels),
            actor=t,
            viewer=who,
            can_act=bool(can_act),
            legal=[str(a) for a in state.legal_actions()] if can_act and state.to_move != CHANCE else [],
            chance=state.CHANCE_ACTION if can_act and state.to_move == CHANCE else None,
            over=bool(state.is_over),
            paused=self.paused,
            problem=self.problem,
            curtain=None if cur is None else {"seat": cur, "name": str(self.real.current.players[cur])},
            history={
                "n": len(self.steps),
                "at": self.scrub,
                "labels": labels[-LABELS_SENT:],
                "first": max(0, len(labels) - LABELS_SENT),
            },
            whatif=None
            if self.branch_line is None
            else {
                "from_step": self.branch_from,
                "sampled": self.branch_sampled,
                "can_undo": self.branch_line.can_undo,
                "can_redo": self.branch_line.can_redo,
            },
        )
        return out
