"""``Crew``: play *The Crew: Mission Deep Sea* in JupyterLab (an anywidget).

The rules engine (:class:`~dsa_widget.crew.rules.CrewGame`) is the single source of truth.
The synced ``state`` trait is built only from ``game.view(seat).to_dict()`` for the seat whose
screen it is (or the spectator view), plus what the screen needs (history labels, the what-if
bar); the browser draws it and sends *intents*.  Python checks each intent (its ``seq`` must be
the current state's, the action must be legal for the seat at the screen); a stale, malformed,
hostile or illegal one changes nothing and sets the ``error`` trait.

>>> w = Crew(players=["Ann", "Bob", "Cy", "Di"], seat=0, bots={1: "random", 2: "random", 3: "random"},
...          target=3, seed=1)
>>> w.state["seat"], w.state["players"]
(0, ['Ann', 'Bob', 'Cy', 'Di'])
>>> w.handle_intent({"type": "intent", "seq": w.seq - 1, "choice": "pass"})   # stale
>>> w.error["kind"]
'stale'
>>> _ = w.play_bots()                          # bots move until Ann is to act (or the end)
>>> w.is_bot_turn()
False

Messages from the front end (``model.send``):

======================================================  =====================================
``{"type": "intent", "seq": n, "choice": "play P3"}``     an action of the seat at the screen
``{"type": "bot_step", "seq": n}``                        a bot seat plays one action
``{"type": "pause", "paused": true}``                     stop / resume bot turns
``{"type": "show_seat", "seq": n}``                       hot-seat: lift the curtain
``{"type": "new_game", "seq": n, "setup": {...}}``        a new mission (the setup panel)
``{"type": "play_again", "seq": n}``                      the same settings, a fresh deal
``{"type": "next_attempt", "seq": n, "tasks": "same"}``   after a failure: "same" or "new" tasks
``{"type": "scrub", "seq": n, "step": k}``                show the table after k actions (null: live)
``{"type": "what_if", "seq": n}``                         branch from the step shown (or now)
``{"type": "undo"/"redo"/"keep", "seq": n}``              in the what-if branch
``{"type": "play_out", "seq": n}``                        what-if: bots play until you are to act
``{"type": "back_to_real", "seq": n}``                    leave the what-if branch
``{"type": "timeout", "seq": n}``                         a timed mission's clock ran out
======================================================  =====================================

Who sees what: ``seat=k`` (default ``"auto"``: the only human seat; with several humans the
screen follows the human who is to act).  ``hot_seat=True``: one device passed round the table;
between two humans a curtain ("Pass the device to Bob, then press Show") and the browser holds
public knowledge only until Show, then the view of that seat alone.  ``reveal="all"`` (teaching):
every seat's hand is added to the state, from each seat's own view (Tonoja's face-down cards
stay hidden: nobody's view holds them).

What-if: :meth:`branch` (the front end's W) starts a branch from the step shown.  Unless every
card is already known to the viewer (``reveal="all"``, or the attempt is over), the cards the
viewer cannot see are dealt again at random consistent with the viewer's view
(``view.sample``), so trying things never reveals the real hidden hands.
"""

from __future__ import annotations

import html
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, ClassVar, TypeGuard

import anywidget
import traitlets

from ..bridge import renamed_keyword
from ..core.errors import GameError
from ..core.timeline import Timeline, TimelineError
from .errors import IllegalActionError, SetupError
from .options import DEFAULTS, OPTIONS, SCHEMA, resolve_options

if TYPE_CHECKING:
    from .rules import CrewGame

__all__ = ["Crew", "bot_names", "resolve_bot"]

_STATIC = Path(__file__).parent.parent / "static"
_ESM = _STATIC / "crew.js"
_CSS = _STATIC / "crew.css"
_HMR = os.environ.get("ANYWIDGET_HMR", "") not in ("", "0")

_NOT_BUILT_ESM = """
export default { render({ el }) {
  const p = document.createElement("p");
  p.textContent = "dsa_widget: the Crew front end is not built. " +
    "Run `npm install && npm run build` in the repository (or pip install it).";
  el.append(p);
} };
"""

HUMAN = "human"
TONOJA = "tonoja"
_MAX_CHOICE_LEN = 120
_MAX_NAME_LEN = 40
_MAX_TARGET = 20
_TERMINAL = -4

Bot = Callable[[Any, tuple[Any, ...]], Any]

DRAW_RULE = (
    "Tasks are drawn from the shuffled deck: a task whose difficulty (for this number of seats) still "
    "fits is taken, a bigger one is set aside, until the difficulties add up exactly to the target. "
    "Draws no assignment could complete are repaired before play."
)


# ---------------------------------------------------------------------- bots


class RandomLegalBot:
    """The fallback bot: a uniformly random legal action (seeded)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, view: Any, legal: tuple[Any, ...]) -> Any:
        return self.rng.choice(list(legal))


def _bots_module() -> Any:
    try:
        from . import bots as mod
    except ImportError:
        return None
    return mod


def bot_names() -> list[str]:
    """The bot names a seat may take: ``dsa_widget.crew.bots.BOT_NAMES`` when it exists, else
    ``["random"]`` (the random-legal fallback)."""
    mod = _bots_module()
    names = list(getattr(mod, "BOT_NAMES", ()) or ()) if mod is not None else []
    if "random" not in names:
        names.append("random")
    return [str(n) for n in names]


def _bot_help() -> dict[str, str]:
    mod = _bots_module()
    summaries = getattr(mod, "BOT_SUMMARIES", None) if mod is not None else None
    out = dict(summaries) if isinstance(summaries, Mapping) else {}
    out.setdefault("random", "plays a random legal action")
    return {str(k): str(v) for k, v in out.items()}


def resolve_bot(spec: Any, seed: int | None = None) -> tuple[Bot | None, str]:
    """``(bot or None, label)`` for a seat spec: ``"human"``, a bot name or a callable
    ``bot(view, legal) -> action``."""
    if spec is None or spec == HUMAN:
        return None, HUMAN
    if callable(spec):
        label = getattr(spec, "name", None) or getattr(spec, "__name__", None) or type(spec).__name__
        return spec, str(label)
    if not isinstance(spec, str):
        raise TypeError(f"a seat is 'human', a bot name or a bot callable, got {spec!r}")
    mod = _bots_module()
    names = bot_names()
    parse = getattr(mod, "parse_bot_spec", None) if mod is not None else None
    if spec not in names and ":" in spec and parse is not None:  # "crewmate:communicate=false"
        try:
            return parse(spec, seed=seed), spec
        except (GameError, KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"bad bot spec {spec!r}: {exc}") from None
    if spec not in names:
        raise ValueError(f"unknown bot {spec!r}; bots: {', '.join(names)} (or 'human')")
    make = getattr(mod, "make_bot", None) if mod is not None else None
    if make is not None and spec in (getattr(mod, "BOT_NAMES", ()) or ()):
        try:
            return make(spec, seed=seed), spec
        except TypeError:  # a registry whose make_bot takes no seed
            return make(spec), spec
    return RandomLegalBot(seed), spec


# ---------------------------------------------------------------------- reading the engine


def _view_dict(g: Any, seat: int | None) -> dict[str, Any]:
    """``g.view(seat).to_dict()`` (``seat`` None: the spectator view), as a fresh dict."""
    return dict(g.view(seat).to_dict())


def _to_move(g: Any) -> int | None:
    t = g.to_move
    if g.is_over or not isinstance(t, int) or t < 0:
        return None
    return t


def _actor(g: Any) -> int | None:
    """The seat whose player acts now: the captain plays for Tonoja (R-4.7)."""
    t = _to_move(g)
    if t is None:
        return None
    if g.dummy is not None and t == g.dummy:
        return int(g.captain)
    return t


def _legal(g: Any) -> list[str]:
    return [str(a) for a in g.legal_actions()]


def _jsonable_option(d: dict[str, Any]) -> dict[str, Any]:
    """An option of the schema as JSON (tuple values, such as task 11's, as lists)."""

    def conv(v: Any) -> Any:
        return list(v) if isinstance(v, tuple) else v

    out = dict(d, default=conv(d["default"]))
    if "choices" in out:
        out["choices"] = [{"value": conv(c["value"]), "label": c["label"]} for c in out["choices"]]
    return out


def _is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


# ---------------------------------------------------------------------- the widget


class Crew(anywidget.AnyWidget):
    """A playable table of *The Crew: Mission Deep Sea*.

    ``Crew(players=["Ann", "Bob", "Cy", "Di"], seat=0, bots={1: "crewmate", 2: "crewmate",
    3: "crewmate"}, target=4, options={...}, seed=1)``: the keywords other than the widget's own
    go to :class:`~dsa_widget.crew.rules.CrewGame` (``target``, ``mission``, ``campaign``,
    ``options``, ``seed``, ``deal``, ``tasks``...).  ``Crew(game=CrewGame(...))`` wraps a game.

    ``bots`` maps a seat to ``"human"``, a bot name (:func:`bot_names`) or a callable
    ``bot(view, legal) -> action`` (or is a list with one entry per human seat); Tonoja (the
    dummy seat of the two-player game) is played by the captain.  ``seat``: whose screen it is
    (``"auto"``, a seat, or ``None`` for a spectator screen).  ``hot_seat``: one device passed
    round, a curtain between two humans.  ``reveal``: ``"seat"`` (default) or ``"all"``
    (teaching: every hand shown).  ``bot_delay``: ms before each bot action in the browser;
    ``bot_seed``: seeds the bots (seat ``q`` gets ``bot_seed + q``).  ``auto_pass``: the
    only human at the table is not asked when ``"pass"`` is all it may do (a communication
    window with nothing to show).
    """

    _esm = (_ESM if _HMR else _ESM.read_text(encoding="utf-8")) if _ESM.is_file() else _NOT_BUILT_ESM
    _css = (_CSS if _HMR else _CSS.read_text(encoding="utf-8")) if _CSS.is_file() else ""

    #: the table as the screen's seat may know it (see the module docstring)
    state = traitlets.Dict().tag(sync=True)
    #: why the last message was rejected: ``{kind, message, seq, n}`` (``{}`` when fine)
    error = traitlets.Dict().tag(sync=True)
    #: bot turns wait while paused
    paused = traitlets.Bool(False).tag(sync=True)
    #: ms between two bot actions in the browser
    bot_delay = traitlets.Int(400).tag(sync=True)
    #: names the setup panel offers (besides "human")
    bot_names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: one line per bot name
    bot_help = traitlets.Dict().tag(sync=True)
    #: the answer to a view's "hello": a kernel is there
    hello = traitlets.Int(-1).tag(sync=True)
    #: the setup panel's data: the current settings, every rule option with its values and default
    setup = traitlets.Dict().tag(sync=True)
    #: "seat" or "all" (teaching: every hand shown); Python side only
    reveal = traitlets.Unicode("seat")

    #: how many what-if states :meth:`keep` holds at once
    KEEP_MAX = 4
    #: the most actions :meth:`play_bots` / play-out make in one call
    MAX_AUTO = 2000

    def __init__(
        self,
        game: Any = None,
        /,
        *,
        players: Any = None,
        seats: Mapping[int, Any] | Sequence[Any] | None = None,
        viewer: int | None | str = "auto",
        seat: int | None | str = "auto",
        bots: Mapping[int, Any] | Sequence[Any] | None = None,
        hot_seat: bool = False,
        reveal: bool | str = False,
        bot_delay: int = 400,
        bot_seed: int | None = None,
        auto_pass: bool = True,
        **setup: Any,
    ) -> None:
        super().__init__(bot_delay=bot_delay, bot_names=bot_names(), bot_help=_bot_help())
        # one constructor shape for every game's board: seats=, viewer=, reveal=True/False
        if bots is not None:
            renamed_keyword("bots", "seats")
        if seat != "auto":
            renamed_keyword("seat", "viewer")
        bots = seats if seats is not None else bots
        seat = viewer if viewer != "auto" else seat
        if isinstance(reveal, bool):
            reveal = "all" if reveal else "seat"
        if reveal not in ("seat", "all"):
            raise ValueError(f"reveal must be 'seat' or 'all', got {reveal!r}")
        if seat != "auto" and seat is not None and not (_is_int(seat) and 0 <= int(seat) < 6):
            raise ValueError(f"seat must be 'auto', None or a seat number, got {seat!r}")
        self._seat_spec = seat
        self._hot_seat = bool(hot_seat)
        self._auto_pass = bool(auto_pass)
        self._bot_seed = bot_seed
        self._curtain_open: int | None = None
        self._follow: int | None = None  # "auto" with several humans: the last human who acted
        self._seq = 0
        self._n_errors = 0
        self._bots: dict[int, Bot] = {}
        self._labels: list[str] = []
        self._bytes: list[int] = []
        self._fresh = True
        self._branch: Timeline[Any] | None = None  # CrewGame: not a GameState for mypy (yet)
        self._branch_from: int | None = None
        self._branch_sampled = False
        self._kept: list[tuple[str, Any]] = []
        self._scrub: int | None = None
        self._clock_start: float | None = None
        self._clock_seconds: int | None = None
        #: the last unexpected error of a message handler or a bot (kept here, never sent)
        self.last_exception: BaseException | None = None
        #: seat -> why its bot made its last choice (shown only with reveal="all": the reason
        #: may rest on the bot's own cards)
        self._bot_said: dict[int, str] = {}
        self.on_msg(self._on_msg)
        if game is None and "game" in setup:
            game = setup.pop("game")
        if game is not None and (setup or players is not None):
            raise TypeError("give either a game or setup keywords (players, target, ...), not both")
        if game is None:
            if players is None:
                players = ["You", "Crewmate 1", "Crewmate 2", "Crewmate 3"]
                if bots is None:
                    default = "crewmate" if "crewmate" in self.bot_names else "random"
                    bots = {1: default, 2: default, 3: default}
            game = self._new_crew_game(players=players, **setup)
        self._game: CrewGame = game
        self._start: CrewGame = self._initial(game)
        self._redo_stack: list[tuple[int, str]] = []
        self.reveal = reveal
        self._set_seats(bots)
        self._auto()
        self._publish()

    # ------------------------------------------------------------------ construction

    @staticmethod
    def _new_crew_game(**kwargs: Any) -> CrewGame:
        from .rules import CrewGame

        return CrewGame(**kwargs)

    def _set_seats(self, bots: Any) -> None:
        g = self._game
        n = int(g.seats)
        specs: list[Any] = [HUMAN] * n
        humans = [int(q) for q in g.humans]
        if bots is None:
            pass
        elif isinstance(bots, Mapping):
            for k, spec in bots.items():
                if not _is_int(k) or not 0 <= k < n:
                    raise ValueError(f"bots: seat {k!r} is not 0..{n - 1}")
                if g.dummy is not None and k == g.dummy:
                    if spec in (None, HUMAN):
                        continue
                    raise ValueError(f"bots: seat {k} is Tonoja, the dummy seat: the captain plays it")
                specs[k] = spec
        elif isinstance(bots, Sequence) and not isinstance(bots, str):
            if len(bots) != len(humans):
                raise ValueError(f"bots: {len(bots)} given for {len(humans)} players")
            for q, spec in zip(humans, bots, strict=True):
                specs[q] = spec
        else:
            raise ValueError(f"bots must be a mapping seat -> 'human'/bot or a list, got {bots!r}")
        out: dict[int, Bot] = {}
        labels: list[str] = []
        for q in range(n):
            if g.dummy is not None and q == g.dummy:
                labels.append(TONOJA)
                continue
            seed = None if self._bot_seed is None else self._bot_seed + q
            bot, label = resolve_bot(specs[q], seed)
            if bot is not None:
                out[q] = bot
            labels.append(label)
        self._bots, self._labels = out, labels

    def _reset_game(self, game: CrewGame) -> None:
        """A new game on the board (new mission, next attempt): history, branch and curtain reset."""
        self._leave_branch()
        self._game = game
        self._start = self._initial(game)
        self._redo_stack = []
        self._scrub = None
        self._curtain_open = None
        self._follow = None
        self._clock_start = None
        self._bot_said = {}
        self._fresh = True

    @staticmethod
    def _initial(game: CrewGame) -> CrewGame:
        """The game before its first action (the history replays from it)."""
        n = len(game.actions)
        if n == 0:
            return game.clone()
        rec = dict(game.to_record())
        rec.update(actions=[], outcome=None, result=None)
        return type(game).from_record(rec)

    # ------------------------------------------------------------------ reading

    @property
    def game(self) -> CrewGame:
        """The real game (the single source of truth).  Act through the widget (:meth:`apply`,
        :meth:`bot_move`) so the history follows; after changing it directly call
        :meth:`refresh`."""
        return self._game

    @property
    def seats(self) -> list[str]:
        """Per seat: ``"human"``, the bot's label, or ``"tonoja"``."""
        return list(self._labels)

    @property
    def seq(self) -> int:
        """The number of the state on the board (an intent must quote it)."""
        return self._seq

    @property
    def hot_seat(self) -> bool:
        return self._hot_seat

    @property
    def actions(self) -> list[tuple[int, str]]:
        """``(seat, action)`` of every action of the real game so far (this attempt)."""
        return list(self._actions)

    @property
    def update_bytes(self) -> list[int]:
        """JSON size of every state published so far."""
        return list(self._bytes)

    def _humans(self) -> list[int]:
        return [q for q, lab in enumerate(self._labels) if lab == HUMAN]

    @staticmethod
    def _legal_for(g: Any, seat: int) -> list[str]:
        """What ``seat`` may do now: the seat to move's actions, or communications in a free window."""
        if g.is_over:
            return []
        return [str(x) for x in g.legal_actions_for(seat)]

    def is_bot_turn(self, g: Any = None) -> bool:
        a = _actor(self._game if g is None else g)
        return a is not None and a in self._bots

    def _curtain_seat(self) -> int | None:
        """Hot-seat: the human seat that must act now (the curtain is for it), else ``None``."""
        if not self._hot_seat or self._branch is not None:
            return None
        a = _actor(self._game)
        return a if a is not None and a not in self._bots else None

    @property
    def viewer(self) -> int | None:
        """The seat whose view the screen shows (``None``: public knowledge only)."""
        if self._hot_seat:
            q = self._curtain_seat()
            if q is not None and q != self._curtain_open:
                return None  # the curtain is down: public knowledge only
            return self._curtain_open
        spec = self._seat_spec
        if spec == "auto":
            humans = self._humans()
            if len(humans) == 1:
                return humans[0]
            a = _actor(self._shown())
            if a is not None and a in humans:
                self._follow = a
            return self._follow if self._follow is not None else (humans[0] if humans else None)
        if spec is None:
            return None
        q = int(spec)
        return q if q < int(self._game.seats) and self._labels[q] != TONOJA else None

    # ------------------------------------------------------------------ acting (Python API)

    def _shown(self) -> Any:
        return self._branch.current if self._branch is not None else self._game

    @property
    def _actions(self) -> list[tuple[int, str]]:
        """The real game's actions so far (the engine's record: also those applied to
        :attr:`game` directly)."""
        return [(int(q), str(a)) for q, a in self._game.actions]

    def _apply_real(self, action: str, *, seat: int | None = None, redoing: bool = False) -> None:
        self._game.apply(action, seat)
        if not redoing:
            self._redo_stack = []

    def _auto(self, g: Any = None) -> None:
        """Forced passes: the only human at the table is not asked in a communication window
        where "pass" is all it can do.  Nobody else is passed automatically: with several
        humans at one screen (or a bot's instant pass) the skipped turn would tell the others
        that the seat had nothing to show (the engine gives it the turn for that reason)."""
        humans = self._humans()
        if not self._auto_pass or len(humans) != 1:
            return
        for _ in range(self.MAX_AUTO):
            cur = self._shown() if g is None else g
            if cur.is_over or _to_move(cur) != humans[0] or _legal(cur) != ["pass"]:
                return
            if self._branch is not None:
                self._branch.apply("pass")
            else:
                self._apply_real("pass")

    def apply(self, action: str) -> None:
        """Apply a legal action for whoever is to move (in the what-if branch when one is open);
        raises :class:`~dsa_widget.crew.errors.IllegalActionError` (nothing changes) if illegal."""
        if self._branch is not None:
            self._branch.apply(action)
        else:
            self._apply_real(action)
        self._auto()
        self._publish()

    def bot_move(self, bot: Any = None) -> str:
        """Let a bot make one action for the seat to move (its own bot, else ``bot``, else a
        random-legal one); returns the action.  In a what-if branch the branch moves."""
        g = self._shown()
        t = _to_move(g)
        if t is None:
            raise IllegalActionError("the attempt is over; no more actions")
        a = _actor(g)
        b = resolve_bot(bot)[0] if bot is not None else None
        if b is None:
            b = self._bots.get(a) if a is not None else None
        if b is None:
            b = RandomLegalBot(None if self._bot_seed is None else self._bot_seed + len(self._actions))
        legal = tuple(_legal(g))
        choice = b(g.view(t), legal)
        if not isinstance(choice, str):
            raise IllegalActionError(f"the bot returned {choice!r}, not an action string", legal)
        explain = getattr(b, "explain", None)
        said = explain() if callable(explain) else ""
        self._bot_said[t] = str(said or f"chose {choice!r}")[:300]
        if self._branch is not None:
            self._branch.apply(choice)
        else:
            self._apply_real(choice)
        self._auto()
        self._publish()
        return choice

    def play_bots(self, max_actions: int | None = None) -> int:
        """Let bot seats act until a human is to act or the attempt ends; returns the actions made."""
        k = 0
        limit = self.MAX_AUTO if max_actions is None else max_actions
        while self._branch is None and self.is_bot_turn() and k < limit:
            self.bot_move()
            k += 1
        return k

    def new_game(self, *, bots: Any = None, **setup: Any) -> None:
        """Start a new mission (keywords as :class:`CrewGame`); ``bots`` as in the constructor
        (default: keep the seats when the number of seats is the same)."""
        g = self._new_crew_game(**setup)
        old_bots, old_labels = dict(self._bots), list(self._labels)
        self._reset_game(g)
        if (
            bots is None
            and len(old_labels) == int(g.seats)
            and (g.dummy is None) == (TONOJA not in old_labels)
        ):
            self._bots, self._labels = old_bots, old_labels
        else:
            self._set_seats(bots)
        self.error = {}
        self._auto()
        self._publish()

    def next_attempt(self, tasks: str = "same") -> None:
        """After a failed attempt: deal again (``tasks="same"``) or draw new tasks (``"new"``)."""
        if tasks not in ("same", "new"):
            raise ValueError(f"tasks must be 'same' or 'new', got {tasks!r}")
        g = self._game.next_attempt(tasks=tasks)
        bots, labels = dict(self._bots), list(self._labels)
        self._reset_game(g)
        self._bots, self._labels = bots, labels
        self._auto()
        self._publish()

    def show_seat(self) -> None:
        """Hot-seat: lift the curtain for the seat to act (the Show button)."""
        q = self._curtain_seat()
        if q is None:
            raise IllegalActionError("there is no curtain to lift (hot-seat is off, or a bot is to move)")
        self._curtain_open = q
        self._publish()

    def refresh(self) -> None:
        """Publish the state again (after changing :attr:`game` directly)."""
        self._publish()

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the real game's record (``docs/CREW_RECORD.md``) to ``path``."""
        self._game.save(path)

    @classmethod
    def load(cls, source: Any, **kwargs: Any) -> Crew:
        """A board for the mission a record (a path, JSON text or a dict) describes."""
        from .record import load_record

        return cls(load_record(source), **kwargs)

    def serve(self, **kwargs: Any) -> Any:
        """Serve this game to a screen per player (the seat server, ``docs/SERVER.md``): each
        seat gets its own link, its page receives that seat's view only.  Keywords as
        :func:`dsa_widget.crew.remote.serve_crew` (``host``, ``port``, ``record``, ``fill``...).
        Needs the ``server`` extra.  Don't play on this widget while the game is served."""
        from .remote import serve_crew

        return serve_crew(self, **kwargs)

    # ------------------------------------------------------------------ history and what-if

    def game_after(self, step: int) -> CrewGame:
        """A copy of the real game after its first ``step`` actions (replayed from the deal)."""
        if not _is_int(step) or not 0 <= step <= len(self._actions):
            raise ValueError(f"step must be 0..{len(self._actions)}, got {step!r}")
        g = self._start.clone()
        for q, a in self._actions[:step]:
            g.apply(a, q)
        return g

    def show_step(self, step: int | None) -> None:
        """Show the table as it was after ``step`` actions (``None``: the live game)."""
        if step is not None and (not _is_int(step) or not 0 <= step <= len(self._actions)):
            raise ValueError(f"step must be 0..{len(self._actions)} or None, got {step!r}")
        self._scrub = None if step is None or step == len(self._actions) else step
        self._publish()

    @property
    def in_what_if(self) -> bool:
        return self._branch is not None

    @property
    def branch_game(self) -> Any:
        """The what-if branch's current game (a copy), or ``None``."""
        return self._branch.game if self._branch is not None else None

    def branch(self, step: int | None = None, *, seed: int | None = None) -> Timeline[Any]:
        """Open a what-if branch from the real game after ``step`` actions (default: the step
        shown, else now).  Hidden cards are dealt again consistently with the viewer's view
        unless the viewer may know every card (``reveal="all"``, or the attempt is over)."""
        if step is None:
            step = self._scrub
        start = self._game.clone() if step is None else self.game_after(step)
        viewer = self.viewer
        sampled = False
        if not (self.reveal == "all" or start.is_over):
            view = start.view(viewer)
            sample = getattr(view, "sample", None)
            if sample is None:
                raise TimelineError("this view cannot deal the hidden cards again (no view.sample)")
            rng = random.Random(seed if seed is not None else random.SystemRandom().getrandbits(64))
            start = sample(rng)
            sampled = True
        self._branch = Timeline(start)
        self._branch_from = step
        self._branch_sampled = sampled
        self._kept = []
        self._scrub = None
        self._publish()
        return self._branch

    what_if = branch

    def undo(self, n: int = 1) -> None:
        """Undo ``n`` actions: in the what-if branch, else in the real game (replayed from the
        deal: :attr:`game` becomes a new object)."""
        if self._branch is not None:
            self._branch.undo(n)
        else:
            if not _is_int(n) or not 0 <= n <= len(self._actions):
                raise TimelineError(f"cannot undo {n} action(s): {len(self._actions)} so far")
            keep = len(self._actions) - n
            undone = self._actions[keep:]
            self._game = self.game_after(keep)
            self._redo_stack = undone + self._redo_stack
            self._scrub = None
        self._publish()

    def redo(self, n: int = 1) -> None:
        """Redo ``n`` undone actions (what-if branch, else the real game)."""
        if self._branch is not None:
            self._branch.redo(n)
        else:
            stack = self._redo_stack
            if not _is_int(n) or not 0 <= n <= len(stack):
                raise TimelineError(f"cannot redo {n} action(s): {len(stack)} to redo")
            for q, a in stack[:n]:
                self._apply_real(a, seat=q, redoing=True)
            self._redo_stack = stack[n:]
        self._publish()

    def keep(self, name: str | None = None) -> str:
        """Keep the what-if's current state as a row of the comparison; returns its name."""
        if self._branch is None:
            raise TimelineError("keep() keeps a what-if state: open a what-if first (w.branch())")
        if len(self._kept) >= self.KEEP_MAX:
            raise TimelineError(f"{self.KEEP_MAX} states are kept already")
        taken = {k for k, _ in self._kept}
        if name is None:
            i = len(self._kept) + 1
            while f"kept {i}" in taken:
                i += 1
            name = f"kept {i}"
        if not isinstance(name, str) or not name.strip() or len(name) > 24:
            raise TypeError(f"name must be a short non-empty string, got {name!r}")
        if name in ("real", "what-if") or name in taken or name.startswith("real at"):
            raise ValueError(f"the comparison already has a row named {name!r}")
        self._kept.append((name, self._branch.current))
        self._publish()
        return name

    def play_out(self) -> int:
        """What-if: bots (or random-legal) play every seat but the screen's until it must act."""
        if self._branch is None:
            raise TimelineError("play_out works in a what-if branch")
        k = 0
        viewer = self.viewer
        while k < self.MAX_AUTO:
            g = self._branch.current
            a = _actor(g)
            if a is None or a == viewer:
                break
            self.bot_move()
            k += 1
        return k

    def compare(self) -> list[dict[str, Any]]:
        """The real game, the kept states and the what-if side by side (as the screen shows them)."""
        if self._branch is None:
            raise TimelineError("no what-if branch is open: open one with w.branch()")
        return self._compare_rows()

    def back_to_real(self) -> None:
        """Close the what-if branch; the board shows the real game (which never changed)."""
        if self._branch is None:
            return
        self._leave_branch()
        self._publish()

    def _leave_branch(self) -> None:
        self._branch = None
        self._branch_from = None
        self._kept = []

    # ------------------------------------------------------------------ intents (front end)

    def _reject(self, kind: str, message: str) -> None:
        self._n_errors += 1
        self.error = {"kind": kind, "message": message[:300], "seq": self._seq, "n": self._n_errors}

    def _ok(self) -> None:
        if self.error:
            self.error = {}

    def _on_msg(self, _widget: Any, content: Any, buffers: Any = None) -> None:
        self.handle_intent(content)

    _INTENTS: ClassVar[dict[str, tuple[str, str | None]]] = {
        "intent": ("_choice_intent", "current"),
        "bot_step": ("_bot_step_intent", "quiet"),
        "pause": ("_pause_intent", None),
        "hello": ("_hello_intent", None),
        "show_seat": ("_show_seat_intent", "current"),
        "new_game": ("_new_game_intent", "current"),
        "play_again": ("_play_again_intent", "current"),
        "next_attempt": ("_next_attempt_intent", "current"),
        "scrub": ("_scrub_intent", "current"),
        "what_if": ("_what_if_intent", "current"),
        "undo": ("_undo_intent", "current"),
        "redo": ("_redo_intent", "current"),
        "keep": ("_keep_intent", "current"),
        "play_out": ("_play_out_intent", "current"),
        "back_to_real": ("_back_intent", "current"),
        "timeout": ("_timeout_intent", "quiet"),
    }

    def handle_intent(self, content: Any) -> None:
        """Handle one message from the front end (also callable from Python and tests).

        Never raises for bad input: a rejected message sets :attr:`error` and changes nothing.
        """
        try:
            self._handle(content)
        except Exception as exc:  # noqa: BLE001 -- a bug must not kill the board
            # the text of an unexpected error could name hidden cards: Python keeps it
            self.last_exception = exc
            self._reject("internal", f"an internal error ({type(exc).__name__}): see w.last_exception")

    def _handle(self, content: Any) -> None:
        if not isinstance(content, Mapping):
            return self._reject("malformed", f"a message is an object, got {type(content).__name__}")
        kind = content.get("type")
        entry = self._INTENTS.get(kind) if isinstance(kind, str) else None
        if entry is None:
            return self._reject("malformed", f"unknown message type {str(kind)[:40]!r}")
        handler, seq_rule = entry
        if seq_rule is not None:
            seq = content.get("seq")
            if not _is_int(seq):
                return self._reject("malformed", f"{kind} needs the state number seq (an integer)")
            if seq != self._seq:
                if seq_rule == "quiet":
                    return None
                return self._reject(
                    "stale",
                    f"that click was for state #{seq} but the table has moved on to #{self._seq}; "
                    "nothing changed",
                )
        getattr(self, handler)(content)
        return None

    def _choice_intent(self, content: Mapping[str, Any]) -> None:
        choice = content.get("choice")
        if not isinstance(choice, str) or not choice or len(choice) > _MAX_CHOICE_LEN:
            return self._reject("malformed", f"choice must be a short string, got {str(choice)[:40]!r}")
        if self._scrub is not None:
            return self._reject("illegal", "the table shows the history: go back to the live game to play")
        g = self._shown()
        a = _actor(g)
        if a is None:
            return self._reject("illegal", "the attempt is over")
        viewer = self.viewer
        if self._branch is None and a in self._bots and viewer != a:
            return self._reject("illegal", f"it is {g.players[a]}'s turn, and a bot plays that seat")
        if viewer is None:
            if self._hot_seat and self._branch is None:
                return self._reject("illegal", f"pass the device to {g.players[a]} and press Show first")
            return self._reject("illegal", "this screen shows public knowledge only: it plays no seat")
        legal = self._legal_for(g, viewer)
        proposing = viewer == a and g.step == "propose" and choice.startswith("propose ")
        if choice not in legal and not proposing:
            if not legal:
                return self._reject("illegal", f"it is {g.players[a]}'s turn, not this screen's seat's")
            return self._reject("illegal", f"{choice[:40]!r} is not legal now")
        try:
            if self._branch is not None:
                nxt = self._branch.current.clone()
                nxt.apply(choice, viewer)
                self._branch.record(nxt)
            else:
                self._apply_real(choice, seat=viewer)
        except GameError as exc:
            return self._reject("illegal", str(exc))
        self._ok()
        self._auto()
        self._publish()
        return None

    def _bot_step_intent(self, content: Mapping[str, Any]) -> None:
        if self._branch is not None:
            if _actor(self._branch.current) is None:
                return self._reject("illegal", "the what-if attempt is over; undo or go back")
        elif not self.is_bot_turn() or self._scrub is not None:
            return None  # a human's turn now (a late ask from another view)
        try:
            self.bot_move()
        except Exception as exc:  # noqa: BLE001 -- a bot's bug must not kill the board
            self.paused = True
            self.last_exception = exc  # its text may name the bot's cards: not for the screen
            return self._reject("bot", f"the bot failed ({type(exc).__name__}); bots are paused")
        self._ok()
        return None

    def _pause_intent(self, content: Mapping[str, Any]) -> None:
        paused = content.get("paused")
        if not isinstance(paused, bool):
            return self._reject("malformed", "pause needs paused: true or false")
        self.paused = paused
        return None

    def _hello_intent(self, content: Mapping[str, Any]) -> None:
        n = content.get("n")
        if not _is_int(n) or not 0 <= n < 2**31:
            return self._reject("malformed", "hello needs n, an integer from 0 to 2**31 - 1")
        self.hello = n
        return None

    def _show_seat_intent(self, content: Mapping[str, Any]) -> None:
        if self._curtain_seat() is None:
            return self._reject(
                "illegal", "there is no curtain to lift (hot-seat is off, or a bot is to move)"
            )
        self._ok()
        self.show_seat()
        return None

    def _scrub_intent(self, content: Mapping[str, Any]) -> None:
        step = content.get("step")
        if self._branch is not None:
            return self._reject("illegal", "the history is the real game's: leave the what-if first")
        if step is not None and (not _is_int(step) or not 0 <= step <= len(self._actions)):
            return self._reject("malformed", f"step must be 0..{len(self._actions)} or null")
        self._ok()
        self.show_step(step)
        return None

    def _what_if_intent(self, content: Mapping[str, Any]) -> None:
        if self._branch is not None:
            return self._reject("illegal", "a what-if is open already")
        if self.viewer is None and self.reveal != "all" and not self._game.is_over:
            return self._reject("illegal", "a what-if needs a seat's view (press Show first)")
        try:
            self.branch()
        except (GameError, ValueError) as exc:
            return self._reject("illegal", f"cannot branch here: {exc}")
        self._ok()
        return None

    def _open_branch(self, kind: str) -> Timeline[Any] | None:
        if self._branch is None:
            self._reject("illegal", f"{kind.replace('_', ' ')} works in a what-if branch; open one first")
        return self._branch

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

    def _keep_intent(self, content: Mapping[str, Any]) -> None:
        if self._open_branch("keep") is None:
            return None
        if len(self._kept) >= self.KEEP_MAX:
            return self._reject("illegal", f"{self.KEEP_MAX} states are kept already")
        self._ok()
        self.keep()
        return None

    def _play_out_intent(self, content: Mapping[str, Any]) -> None:
        if self._open_branch("play_out") is None:
            return None
        self._ok()
        self.play_out()
        self._publish()
        return None

    def _back_intent(self, content: Mapping[str, Any]) -> None:
        if self._open_branch("back_to_real") is not None:
            self._ok()
            self.back_to_real()

    def _timeout_intent(self, content: Mapping[str, Any]) -> None:
        g = self._shown()
        if g.is_over or not getattr(g, "timer_started", False):
            return None
        left = self._clock_left()
        if left is None or left > 1.0:
            return self._reject("illegal", "the clock has not run out")
        try:
            if self._branch is not None:
                self._branch.apply("timeout")
            else:
                self._apply_real("timeout", seat=_to_move(g))
        except GameError as exc:
            return self._reject("illegal", str(exc))
        self._ok()
        self._publish()
        return None

    def _play_again_intent(self, content: Mapping[str, Any]) -> None:
        if self._branch is not None:
            return self._reject("illegal", "go back to the real game before starting a new one")
        try:
            self.play_again()
        except (GameError, ValueError, TypeError) as exc:
            return self._reject("setup", str(exc))
        return None

    def play_again(self) -> None:
        """A new mission with this one's settings (players, seats, mission, options), a fresh deal."""
        g = self._game
        kwargs: dict[str, Any] = {"players": self._human_names(), "options": dict(g.options)}
        mission = getattr(g, "mission", None)
        if mission is not None:
            kwargs["mission"] = mission
        self.new_game(**kwargs)

    def _human_names(self) -> list[str]:
        g = self._game
        return [str(g.players[q]) for q in g.humans]

    def _next_attempt_intent(self, content: Mapping[str, Any]) -> None:
        tasks = content.get("tasks", "same")
        if tasks not in ("same", "new"):
            return self._reject("malformed", "next_attempt needs tasks: 'same' or 'new'")
        if self._branch is not None:
            return self._reject("illegal", "go back to the real game first")
        out = getattr(self._game, "outcome", None)
        if out is None or getattr(out, "result", None) == "success":
            return self._reject("illegal", "a new attempt follows a failed one")
        try:
            self.next_attempt(tasks)
        except GameError as exc:
            return self._reject("illegal", str(exc))
        self._ok()
        return None

    def _new_game_intent(self, content: Mapping[str, Any]) -> None:
        if self._branch is not None:
            return self._reject("illegal", "go back to the real game before starting a new one")
        setup = content.get("setup")
        if not isinstance(setup, Mapping):
            return self._reject("malformed", "new_game needs a setup object")
        try:
            kwargs, kinds = self._parse_setup(setup)
            g = self._new_crew_game(**kwargs)
            humans = [int(q) for q in g.humans]
            specs = {q: kinds[i] for i, q in enumerate(humans)}
            before = (self._game, dict(self._bots), list(self._labels))
            self._game = g
            try:
                self._set_seats(specs)
            except Exception:
                self._game, self._bots, self._labels = before
                raise
        except (GameError, ValueError, TypeError) as exc:
            return self._reject("setup", str(exc))
        self._reset_game(g)
        self._ok()
        self._auto()
        self._publish()
        return None

    _SETUP_KEYS = frozenset(
        (
            "players",
            "kinds",
            "target",
            "communication",
            "allocation",
            "timer_seconds",
            "campaign",
            "seed",
            "options",
        )
    )

    def _parse_setup(self, setup: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
        """The setup panel's object, checked: CrewGame keywords and each human's kind."""
        from .mission import COMMUNICATIONS, Mission

        unknown = sorted(str(k) for k in set(setup) - self._SETUP_KEYS)
        if unknown:
            raise SetupError(f"unknown setup key {unknown[0][:40]!r}")
        players = setup.get("players")
        if (
            not isinstance(players, list)
            or not 2 <= len(players) <= 5
            or not all(isinstance(p, str) and p.strip() and len(p) <= _MAX_NAME_LEN for p in players)
        ):
            raise SetupError(f"players must be 2 to 5 names of 1-{_MAX_NAME_LEN} characters")
        kinds = setup.get("kinds", [HUMAN] * len(players))
        names = bot_names()
        if (
            not isinstance(kinds, list)
            or len(kinds) != len(players)
            or not all(isinstance(k, str) and (k == HUMAN or k in names) for k in kinds)
        ):
            raise SetupError(f"kinds must give 'human' or a bot ({', '.join(names)}) for each player")
        options = setup.get("options") or {}
        if not isinstance(options, Mapping):
            raise SetupError("options must be an object")
        opts = resolve_options(options)
        seed = setup.get("seed")
        if seed is not None and not (_is_int(seed) and 0 <= seed < 2**63):
            raise SetupError("seed must be empty or a non-negative integer")
        kwargs: dict[str, Any] = {"players": [p.strip() for p in players], "options": opts, "seed": seed}
        campaign = setup.get("campaign")
        if campaign is not None:
            if not _is_int(campaign) or not 1 <= campaign <= 99:
                raise SetupError("campaign must be empty or a mission number 1-99")
            kwargs["campaign"] = campaign
            return kwargs, list(kinds)
        target = setup.get("target", 3)
        if not _is_int(target) or not 1 <= target <= _MAX_TARGET:
            raise SetupError(f"target must be 1 to {_MAX_TARGET}")
        comm = setup.get("communication", "normal")
        if comm not in COMMUNICATIONS:
            raise SetupError(f"communication must be one of {', '.join(COMMUNICATIONS)}")
        alloc = setup.get("allocation", "normal")
        if alloc not in ("normal", "free"):
            raise SetupError("allocation must be 'normal' or 'free'")
        timer = setup.get("timer_seconds")
        if timer is not None and (not _is_int(timer) or not 10 <= timer <= 3600):
            raise SetupError("timer_seconds must be empty or 10 to 3600")
        kwargs["mission"] = Mission(target=target, communication=comm, allocation=alloc, timer_seconds=timer)
        return kwargs, list(kinds)

    # ------------------------------------------------------------------ publishing

    @traitlets.observe("reveal")
    def _on_reveal(self, change: Any) -> None:
        if change["new"] not in ("seat", "all"):
            self.reveal = change["old"]
            raise ValueError("reveal must be 'seat' or 'all'")
        if self._labels:
            self._publish()

    def _label(self, seat: int, action: str, viewer: int | None) -> str:
        """One history line, masked for the viewer (a distress card or a secret prediction of
        another seat is not named)."""
        g = self._game
        name = str(g.players[seat]) if 0 <= seat < len(g.players) else "?"
        verb, _, rest = action.partition(" ")
        own = (
            self.reveal == "all"
            or viewer is not None
            and (seat == viewer or g.dummy is not None and seat == g.dummy and viewer == g.captain)
        )
        if verb == "play":
            return f"{name} played {rest}"
        if verb == "comm":
            return f"{name} communicated {rest.split(' ')[0]}"
        if verb == "take":
            return f"{name} took task {rest}"
        if verb == "pass":
            return f"{name} passed"
        if verb == "predict":
            return f"{name} fixed a secret prediction" if rest == "?" else f"{name} predicted {rest}"
        if verb == "give" and not rest.isdigit():
            return f"{name} chose a card to pass on" if rest == "?" or not own else f"{name} passed {rest} on"
        if verb == "give":
            return f"{name} gave the tasks to {g.players[int(rest)]}" if int(rest) < len(g.players) else name
        return f"{name}: {action}"

    @staticmethod
    def _proposal(g: Any, viewer: int | None) -> dict[str, Any] | None:
        """The proposal being confirmed (free selection): ``{"seat": proposer, "owners": {task id:
        seat}}``, from the public actions (the view has no field for it)."""
        for q, a in reversed(g.public_history(viewer)):
            if str(a).startswith("propose "):
                owners: dict[str, int] = {}
                for pair in str(a).split()[1:]:
                    t, _, seat = pair.partition(":")
                    if t.isdigit() and seat.isdigit():
                        owners[t] = int(seat)
                return {"seat": int(q), "owners": owners}
        return None

    def _public_actions(self, viewer: int | None) -> list[tuple[int, str]]:
        """The real game's actions as ``viewer`` may know them (the engine masks another seat's
        distress card and a secret prediction; ``reveal="all"`` shows them)."""
        g = self._game
        if self.reveal == "all":
            return self._actions
        return [(int(q), str(a)) for q, a in g.public_history(viewer)]

    def _clock_left(self) -> float | None:
        if self._clock_start is None or self._clock_seconds is None:
            return None
        return max(0.0, self._clock_seconds - (time.monotonic() - self._clock_start))

    def _clock(self, g: Any, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """The real-time clock: the engine's ``timer`` field, timed here from when it started."""
        timer = view.get("timer")
        if not timer:
            self._clock_start = None
            return None
        seconds = timer.get("seconds") if isinstance(timer, Mapping) else timer
        if not _is_int(seconds):
            return None
        running = (
            bool(timer.get("running", timer.get("started", True))) if isinstance(timer, Mapping) else True
        )
        self._clock_seconds = int(seconds)
        if running and self._clock_start is None:
            self._clock_start = time.monotonic()
        left = self._clock_left()
        return {
            "seconds": int(seconds),
            "remaining": float(seconds) if left is None else round(left, 1),
            "running": running and not g.is_over,
        }

    def _compare_row(self, name: str, g: Any, viewer: int | None) -> dict[str, Any]:
        v = _view_dict(g, viewer)
        tasks = v.get("tasks") or []
        outcome = v.get("outcome")
        return {
            "name": name,
            "trick": len(v.get("tricks") or [])
            if v.get("tricks")
            else (v.get("last_trick") or {}).get("number", 0),
            "done": sum(t.get("status") == "done" for t in tasks),
            "failed": sum(t.get("status") == "failed" for t in tasks),
            "open": sum(t.get("status") == "open" for t in tasks),
            "outcome": outcome.get("result") if isinstance(outcome, Mapping) else None,
            "tricks_won": list(v.get("tricks_won") or []),
        }

    def _compare_rows(self) -> list[dict[str, Any]]:
        br = self._branch
        assert br is not None
        viewer = self.viewer
        rows = [self._compare_row("real", self._game, viewer)]
        if self._branch_from is not None:
            rows.append(
                self._compare_row(
                    f"real at step {self._branch_from}", self.game_after(self._branch_from), viewer
                )
            )
        rows.extend(self._compare_row(n, kg, viewer) for n, kg in self._kept)
        rows.append(self._compare_row("what-if", br.current, viewer))
        return rows

    def build_state(self) -> dict[str, Any]:
        """The ``state`` trait's content for the current screen (also what tests inspect)."""
        viewer = self.viewer
        real = self._game
        if self._branch is not None:
            g = self._branch.current
            mode = "whatif"
        elif self._scrub is not None:
            g = self.game_after(self._scrub)
            mode = "history"
        else:
            g = real
            mode = "real"
        st = _view_dict(g, viewer)
        actor = _actor(g)
        legal: list[str] = []
        if mode != "history" and viewer is not None and (mode == "whatif" or viewer not in self._bots):
            legal = self._legal_for(g, viewer)
        can_act = bool(legal)
        st["legal"] = legal
        st["seq"] = self._seq
        st["mode"] = mode
        st["kinds"] = list(self._labels)
        st["actor"] = actor
        st["can_act"] = can_act
        st["fresh"] = self._fresh
        cur = self._curtain_seat()
        st["curtain"] = (
            None
            if cur is None
            else {"seat": cur, "name": str(real.players[cur]), "shown": self._curtain_open == cur}
        )
        if self.reveal == "all":
            st["bot_said"] = {str(q): t for q, t in self._bot_said.items()}
            st["reveal_hands"] = {
                str(q): list(_view_dict(g, q).get("hand") or [])
                for q in range(int(g.seats))
                if g.dummy is None or q != g.dummy
            }
        st["history"] = {
            "n": len(self._actions),
            "at": self._scrub,
            "labels": [self._label(int(q), str(a), viewer) for q, a in self._public_actions(viewer)],
        }
        st["can_branch"] = viewer is not None or self.reveal == "all" or real.is_over
        if self._branch is not None:
            br = self._branch
            st["whatif"] = {
                "from_step": self._branch_from,
                "sampled": self._branch_sampled,
                "can_undo": br.can_undo,
                "can_redo": br.can_redo,
                "can_keep": len(self._kept) < self.KEEP_MAX,
                "compare": self._compare_rows(),
            }
        st["proposal"] = self._proposal(g, viewer) if st.get("step") == "confirm" else None
        st["clock"] = self._clock(g, st) if mode != "history" else None
        out = getattr(real, "outcome", None)
        st["retry"] = (
            ["same", "new"]
            if mode == "real" and out is not None and getattr(out, "result", None) != "success"
            else []
        )
        return st

    def _publish(self) -> None:
        self._seq += 1
        state = self.build_state()
        self._fresh = False
        import json

        self._bytes.append(len(json.dumps(state, separators=(",", ":"))))
        self.setup = self._setup_data()
        self.state = state

    def _setup_data(self) -> dict[str, Any]:
        from .mission import COMMUNICATIONS

        g = self._game
        mission = getattr(g, "mission", None)
        md = mission.to_dict() if mission is not None and hasattr(mission, "to_dict") else {}
        humans = [int(q) for q in g.humans]
        return {
            "players": self._human_names(),
            "kinds": [self._labels[q] for q in humans] if self._labels else [HUMAN] * len(humans),
            "target": md.get("target") or 3,
            "communication": md.get("communication", "normal"),
            "allocation": md.get("allocation", "normal"),
            "timer_seconds": md.get("timer_seconds"),
            "campaign": getattr(g, "campaign", None) if _is_int(getattr(g, "campaign", None)) else None,
            "options": {k: list(v) if isinstance(v, tuple) else v for k, v in dict(g.options).items()},
            "option_values": {
                k: [list(x) if isinstance(x, tuple) else x for x in v] for k, v in OPTIONS.items()
            },
            "defaults": {k: list(v) if isinstance(v, tuple) else v for k, v in DEFAULTS.items()},
            "schema": [_jsonable_option(o.to_dict()) for o in SCHEMA],
            "communications": list(COMMUNICATIONS),
            "draw_rule": DRAW_RULE,
            "max_target": _MAX_TARGET,
        }

    def _repr_svg_(self) -> str:
        """A still picture of the screen's view (where no widget can be shown): the status, the
        tasks, the trick and the seat's hand; only what :attr:`state` holds."""
        st = self.state
        esc = html.escape
        colours = {"P": "#d6478f", "Y": "#b08600", "B": "#2f6fd6", "G": "#2e9a55", "S": "#333333"}
        symbols = {"open": "○", "done": "✓", "failed": "✗"}
        lines: list[str] = []
        y = 22
        players = st.get("players") or []

        def text(x: int, yy: int, t: str, size: int = 13, weight: str = "normal", fill: str = "#222") -> None:
            font = f'font-size="{size}" font-weight="{weight}" fill="{fill}"'
            lines.append(f'<text x="{x}" y="{yy}" {font}>{esc(t)}</text>')

        def card(x: int, yy: int, cid: str) -> None:
            c = colours.get(cid[:1], "#555")
            box = f'width="30" height="40" rx="4" fill="#fff" stroke="{c}" stroke-width="2"'
            lines.append(f'<rect x="{x}" y="{yy}" {box}/>')
            text(x + 5, yy + 25, cid, 13, "bold", c)

        out = st.get("outcome")
        if out:
            won = out.get("result") == "success"
            head = f"{'Mission accomplished' if won else 'Mission failed'}: {out.get('cause')}"
        else:
            a = st.get("actor")
            who = players[a] if isinstance(a, int) and 0 <= a < len(players) else ""
            head = f"{who} to act ({st.get('step')})" if who else str(st.get("step"))
        text(10, y, f"The Crew: {head}", 15, "bold")
        y += 24
        for t in st.get("tasks") or []:
            owner = t.get("owner")
            name = players[owner] if isinstance(owner, int) and 0 <= owner < len(players) else "nobody yet"
            status = str(t.get("status"))
            text(10, y, f"{symbols.get(status, '?')} {status} #{t.get('id')} {t.get('summary')} ({name})", 12)
            y += 18
        trick = st.get("trick") or st.get("last_trick")
        if trick and trick.get("plays"):
            y += 6
            text(10, y, f"Trick {trick.get('number')}:", 12, "bold")
            x = 80
            for p in trick["plays"]:
                card(x, y - 16, str(p.get("card")))
                x += 36
            y += 34
        hand = st.get("hand") or []
        if hand:
            y += 8
            text(10, y, "Hand:", 12, "bold")
            x = 80
            for cid in hand:
                card(x, y - 16, str(cid))
                x += 36
            y += 34
        width = max(520, 90 + 36 * max(len(hand), 1))
        body = "".join(lines)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y + 10}" '
            f'font-family="sans-serif" role="img" aria-label="The Crew table">{body}</svg>'
        )

    def __repr__(self) -> str:
        return f"<Crew seats={self._labels} seq={self._seq}>"
