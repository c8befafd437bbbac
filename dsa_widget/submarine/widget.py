"""``Submarine``: play *Submarine* in JupyterLab (an anywidget).

The rules engine (:class:`~dsa_widget.submarine.rules.SubmarineGame`) is the single source of
truth.  The synced ``state`` trait is built only from ``game.view(seat).to_dict()`` for the seat
whose screen it is (or the spectator view, ``seat`` ``None``), plus what the screen needs
(history, what-if, curtain, seat kinds).  The browser draws it and sends *intents*; Python checks
each one (its ``seq``, when given, must be the current state's; the action must be legal for the
seat at the screen).  A stale, malformed, hostile or illegal message changes nothing and sets the
``error`` trait; no message ever raises out of the handler.

>>> w = Submarine(players=["You", "Bot"], bots={1: "random"}, seed=1)
>>> w.state["seat"], w.state["players"]
(0, ['You', 'Bot'])
>>> w.handle_intent({"type": "intent", "choice": "sail 9"})       # not legal: nothing changes
>>> w.error["kind"]
'illegal'
>>> _ = w.play_bots()
>>> w.is_bot_turn()
False

Messages from the front end (``model.send``):

=====================================================  ======================================
``{"type": "intent", "seq": n, "choice": "sail 3"}``    an action of the seat at the screen
``{"type": "bot_step", "seq": n}``                      a bot seat plays one action
``{"type": "pause", "paused": true}``                   stop / resume bot turns
``{"type": "show_seat", "seq": n}``                     hot-seat: lift the curtain
``{"type": "new_game", "seq": n, "setup": {...}}``      a new game (the setup panel)
``{"type": "play_again", "seq": n}``                    the same settings, a new seed
``{"type": "scrub", "seq": n, "step": k}``              the board after k actions (null: live)
``{"type": "what_if", "seq": n}``                       branch from the step shown (or now)
``{"type": "undo"/"redo", "seq": n}``                   in the what-if branch
``{"type": "play_out", "seq": n}``                      what-if: bots play until you are to act
``{"type": "back_to_real", "seq": n}``                  leave the what-if branch
=====================================================  ======================================

Hot seat (``hot_seat=True``): one device passed round; whenever a human seat other than the one
shown is to act, a curtain ("Pass the device to Bob, then press Show") hides the board and the
state holds the spectator's (public) view only, until Show; then it holds that seat's view.

What-if (:meth:`branch`): unless the game is over, every card the viewer cannot see (the other
hands, every pile, the undealt cards) is dealt again at random consistent with the viewer's view
(``view.sample``), so trying things never reveals the real hidden cards.

Rules-core note: ``view(seat).to_dict()["current_turn"]`` lists the actions of the turn in
progress, which may include another seat's ``exchange K`` (the card tucked under a pile is hidden
from everyone): the widget masks it to ``exchange ?`` for every other seat.
"""

from __future__ import annotations

import os
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, ClassVar, TypeGuard

import anywidget
import traitlets

from ..core.timeline import Timeline
from .errors import SetupError
from .options import CHOICES, DEFAULTS, NAMED_TABLES, resolve_options
from .rules import SubmarineGame

__all__ = ["Submarine", "bot_names", "resolve_bot"]

_STATIC = Path(__file__).parent.parent / "static"
_ESM = _STATIC / "submarine.js"
_CSS = _STATIC / "submarine.css"
_HMR = os.environ.get("ANYWIDGET_HMR", "") not in ("", "0")

_NOT_BUILT_ESM = """
export default { render({ el }) {
  const p = document.createElement("p");
  p.textContent = "dsa_widget: the Submarine front end is not built. " +
    "Run `npm install && npm run build` in the repository (or pip install it).";
  el.append(p);
} };
"""

HUMAN = "human"
_MAX_CHOICE_LEN = 120
_MAX_NAME_LEN = 40

Bot = Callable[[Any, tuple[str, ...]], Any]


# ---------------------------------------------------------------------- bots


class RandomLegalBot:
    """The fallback bot: a uniformly random legal action (seeded)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, view: Any, legal: tuple[str, ...]) -> str:
        return str(self.rng.choice(list(legal)))


def _bots_module() -> Any:
    try:
        from . import bots as mod  # type: ignore[attr-defined,unused-ignore]
    except ImportError:
        return None
    return mod


def bot_names() -> list[str]:
    """The bot names a seat may take: ``dsa_widget.submarine.bots.BOT_NAMES`` (or ``BOTS``) when
    the module exists, always with ``"random"`` (the random-legal fallback)."""
    mod = _bots_module()
    names: list[str] = []
    if mod is not None:
        reg = getattr(mod, "BOT_NAMES", None) or getattr(mod, "BOTS", None) or ()
        names = [str(n) for n in reg]
    for n in ("random", "greedy", "mc"):
        if n not in names and (n == "random" or mod is None or not names):
            names.append(n)
    return names


def resolve_bot(spec: Any, seed: int | None = None) -> tuple[Bot | None, str]:
    """``(bot or None, label)`` for a seat spec: ``"human"``, a bot name or a callable
    ``bot(view, legal) -> action``.  A name the bots module does not (yet) provide plays
    random legal actions."""
    if spec is None or spec == HUMAN:
        return None, HUMAN
    if callable(spec):
        label = getattr(spec, "name", None) or getattr(spec, "__name__", None) or type(spec).__name__
        return spec, str(label)
    if not isinstance(spec, str) or spec not in bot_names():
        raise ValueError(f"unknown bot {str(spec)[:40]!r}; bots: {', '.join(bot_names())} (or 'human')")
    mod = _bots_module()
    make = getattr(mod, "make_bot", None) if mod is not None else None
    if make is not None:
        try:
            try:
                return make(spec, seed=seed), spec
            except TypeError:
                return make(spec), spec
        except (KeyError, ValueError, TypeError):
            pass
    return RandomLegalBot(seed), spec


def _call_bot(bot: Any, g: SubmarineGame, seat: int) -> str:
    """One bot action for ``seat`` (only the bot's own view is passed); an illegal or failing
    answer falls back to the first legal action."""
    legal = tuple(g.legal_actions())
    view = g.view(seat)
    calls: list[Callable[[], Any]] = [
        lambda: bot(view, legal),
        lambda: bot.act(view),
        lambda: bot.choose(view, legal),
    ]
    for call in calls:
        try:
            a = call()
        except (AttributeError, TypeError):
            continue
        if isinstance(a, str) and a in legal:
            return a
        break
    return legal[0]


def _is_int(x: object) -> TypeGuard[int]:
    return isinstance(x, int) and not isinstance(x, bool)


def _to_move(g: SubmarineGame) -> int | None:
    t = g.to_move
    if g.is_over or not _is_int(t) or t < 0:
        return None
    return int(t)


def _jsonable(v: Any) -> Any:
    if isinstance(v, tuple):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    return v


class _Reject(Exception):
    def __init__(self, kind: str, message: str) -> None:
        super().__init__(message)
        self.kind = kind
        self.message = message


# ---------------------------------------------------------------------- the widget


class Submarine(anywidget.AnyWidget):
    """A playable table of *Submarine*.

    ``Submarine(players=["You", "Bot 1", "Bot 2", "Bot 3"], bots={1: "greedy", 2: "greedy",
    3: "mc"}, seed=1, options={...})``, or ``Submarine(game=SubmarineGame(...), bots=...)``.
    ``bots`` maps a seat to ``"human"``, a bot name (:func:`bot_names`) or a callable
    ``bot(view, legal) -> action``; other seats are human.  ``seat``: whose screen it is
    (``"auto"``: the only human seat, or with several humans the human who acted last /
    is to act; ``None``: a spectator).  ``hot_seat``: one device passed round with a curtain.
    ``bot_delay``: ms before each bot action in the browser; ``bot_seed`` seeds the bots.
    """

    _esm = (_ESM if _HMR else _ESM.read_text(encoding="utf-8")) if _ESM.is_file() else _NOT_BUILT_ESM
    _css = (_CSS if _HMR else _CSS.read_text(encoding="utf-8")) if _CSS.is_file() else ""

    state = traitlets.Dict().tag(sync=True)
    error = traitlets.Dict().tag(sync=True)
    paused = traitlets.Bool(False).tag(sync=True)
    bot_delay = traitlets.Int(400).tag(sync=True)
    bot_names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    setup = traitlets.Dict().tag(sync=True)

    MAX_AUTO = 5000

    def __init__(
        self,
        *,
        players: Any = None,
        bots: Mapping[int, Any] | None = None,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        game: SubmarineGame | None = None,
        seat: int | None | str = "auto",
        hot_seat: bool = False,
        bot_delay: int = 400,
        bot_seed: int | None = None,
    ) -> None:
        super().__init__(bot_delay=bot_delay, bot_names=bot_names())
        if seat != "auto" and seat is not None and not (_is_int(seat) and 0 <= seat < 5):
            raise ValueError(f"seat must be 'auto', None or a seat number, got {seat!r}")
        self._seat_spec = seat
        self._hot_seat = bool(hot_seat)
        self._bot_seed = bot_seed
        self._seq = 0
        self._n_errors = 0
        self._curtain_open: int | None = None
        self._follow: int | None = None
        self._scrub: int | None = None
        self._branch: Timeline[Any] | None = None
        self._branch_from: int | None = None
        self._branch_sampled = False
        self._rng = random.Random(bot_seed)
        #: the last unexpected error of a handler or a bot (kept here, never sent)
        self.last_exception: BaseException | None = None
        if game is not None and (players is not None or seed is not None or options is not None):
            raise TypeError("give either a game or players/seed/options, not both")
        if game is None:
            if players is None:
                players = ["You", "Bot 1", "Bot 2", "Bot 3"]
                if bots is None:
                    bots = {1: "greedy", 2: "greedy", 3: "mc"}
            game = SubmarineGame(players, seed=seed, options=options)
        self._seed = seed
        self._set_game(game, bots or {})
        self.on_msg(self._on_msg)
        self._publish()

    # ------------------------------------------------------------------ construction

    def _set_game(self, game: SubmarineGame, bots: Mapping[int, Any]) -> None:
        n = int(game.seats)
        specs: list[Any] = [HUMAN] * n
        for q, spec in dict(bots).items():
            if not _is_int(q) or not 0 <= q < n:
                raise ValueError(f"bot seat {q!r} is not a seat 0..{n - 1}")
            specs[q] = spec
        out: dict[int, Any] = {}
        labels: list[str] = []
        for q, spec in enumerate(specs):
            bot, label = resolve_bot(spec, None if self._bot_seed is None else self._bot_seed + q)
            if bot is not None:
                out[q] = bot
            labels.append(label)
        if _is_int(self._seat_spec) and self._seat_spec >= n:
            raise ValueError(f"seat {self._seat_spec} is not a seat of this {n}-player game")
        self._bots, self._labels = out, labels
        self._tl: Timeline[Any] = Timeline(game)
        self._actions: list[tuple[int, str]] = []
        self._scrub = None
        self._branch = None
        self._curtain_open = None
        self._follow = None

    # ------------------------------------------------------------------ reading

    @property
    def game(self) -> SubmarineGame:
        """A copy of the real game (act through the widget: :meth:`apply`, :meth:`bot_move`)."""
        g: SubmarineGame = self._tl.game
        return g

    @property
    def seq(self) -> int:
        return self._seq

    @property
    def seats(self) -> list[str]:
        """Per seat: ``"human"`` or the bot's label."""
        return list(self._labels)

    @property
    def actions(self) -> list[tuple[int, str]]:
        """``(seat, action)`` of every action of the real game (the truth: names exchanges)."""
        return list(self._actions)

    @property
    def humans(self) -> list[int]:
        return [q for q in range(len(self._labels)) if q not in self._bots]

    def _real(self) -> SubmarineGame:
        g: SubmarineGame = self._tl.current
        return g

    def _shown(self) -> SubmarineGame:
        if self._branch is not None:
            g: SubmarineGame = self._branch.current
            return g
        if self._scrub is not None:
            return self.game_after(self._scrub)
        return self._real()

    def game_after(self, k: int) -> SubmarineGame:
        """The real game after its first ``k`` actions (a copy)."""
        frames = list(self._tl.frames())
        g: SubmarineGame = frames[max(0, min(k, len(frames) - 1))].clone()
        return g

    def _curtain_seat(self) -> int | None:
        """Hot seat: the human seat waiting behind the curtain (or None)."""
        if not self._hot_seat or self._branch is not None:
            return None
        t = _to_move(self._real())
        if t is None or t in self._bots or t == self._curtain_open:
            return None
        return t

    @property
    def viewer(self) -> int | None:
        """The seat whose view the screen shows (``None``: the spectator's, public only)."""
        if self._hot_seat:
            if self._curtain_seat() is not None:
                return None
            return self._curtain_open
        if self._seat_spec != "auto":
            return self._seat_spec if _is_int(self._seat_spec) else None
        humans = self.humans
        if len(humans) == 1:
            return humans[0]
        if not humans:
            return None
        t = _to_move(self._real())
        if t is not None and t not in self._bots:
            return t
        return self._follow if self._follow is not None else humans[0]

    def is_bot_turn(self) -> bool:
        t = _to_move(self._real())
        return t is not None and t in self._bots

    # ------------------------------------------------------------------ acting (Python API)

    def apply(self, action: str) -> None:
        """The real game's seat to move plays ``action`` (checked by the engine)."""
        g = self._real()
        seat = _to_move(g)
        if seat is None:
            raise SetupError("the game is over")
        self._tl.apply(action)
        self._actions.append((seat, str(action)))
        if seat not in self._bots:
            self._follow = seat

    def bot_move(self) -> str | None:
        """The bot to move plays one action (None: no bot is to move)."""
        g = self._real()
        t = _to_move(g)
        if t is None or t not in self._bots:
            return None
        try:
            a = _call_bot(self._bots[t], g, t)
        except Exception as exc:  # noqa: BLE001 -- a failing bot must not stop the table
            self.last_exception = exc
            a = str(g.legal_actions()[0])
        self.apply(a)
        return a

    def play_bots(self) -> int:
        """Bots move until a human is to act or the game ends; returns how many actions."""
        n = 0
        while self.is_bot_turn() and n < self.MAX_AUTO:
            self.bot_move()
            n += 1
        if n:
            self._publish()
        return n

    def new_game(self, setup: Mapping[str, Any]) -> None:
        """A new game from the setup panel's object (checked: :class:`SetupError`)."""
        players, kinds, seed, options = self._check_setup(setup)
        game = SubmarineGame(players, seed=seed, options=options)
        self._seed = seed
        self._seat_spec = "auto"
        self._set_game(game, {q: k for q, k in enumerate(kinds) if k != HUMAN})
        self._publish()

    def branch(self) -> None:
        """A what-if branch from the step shown (hidden cards dealt again unless over)."""
        real_now = self._scrub is None
        base = self._shown()
        viewer = self.viewer
        if base.is_over:
            g = base.clone()
            sampled = False
        else:
            g = base.view(viewer).sample(self._rng)
            sampled = True
        self._branch = Timeline(g)
        self._branch_from = len(self._actions) if real_now else self._scrub
        self._branch_sampled = sampled
        self._scrub = None

    # ------------------------------------------------------------------ messages

    def _on_msg(self, _widget: Any, content: Any, buffers: Any = None) -> None:
        self.handle_intent(content)

    _INTENTS: ClassVar[dict[str, str]] = {
        "intent": "_choice_intent",
        "bot_step": "_bot_step_intent",
        "pause": "_pause_intent",
        "show_seat": "_show_seat_intent",
        "new_game": "_new_game_intent",
        "play_again": "_play_again_intent",
        "scrub": "_scrub_intent",
        "what_if": "_what_if_intent",
        "undo": "_undo_intent",
        "redo": "_redo_intent",
        "play_out": "_play_out_intent",
        "back_to_real": "_back_intent",
    }

    def handle_intent(self, content: Any) -> None:
        """Handle one message from the front end.  Never raises: a rejected message sets
        :attr:`error` and changes nothing."""
        try:
            self._handle(content)
        except _Reject as r:
            self._reject(r.kind, r.message)
        except Exception as exc:  # noqa: BLE001 -- a bug must not kill the board
            self.last_exception = exc
            self._reject("internal", f"an internal error ({type(exc).__name__}): see w.last_exception")

    def _reject(self, kind: str, message: str) -> None:
        self._n_errors += 1
        self.error = {"kind": kind, "message": message[:300], "seq": self._seq, "n": self._n_errors}

    def _handle(self, content: Any) -> None:
        if not isinstance(content, Mapping):
            raise _Reject("malformed", f"a message is an object, got {type(content).__name__}")
        kind = content.get("type")
        handler = self._INTENTS.get(kind) if isinstance(kind, str) else None
        if handler is None:
            raise _Reject("malformed", f"unknown message type {str(kind)[:40]!r}")
        if "seq" in content or kind not in ("intent", "pause"):
            seq = content.get("seq")
            if not _is_int(seq):
                raise _Reject("malformed", f"{kind} needs the state number seq (an integer)")
            if seq != self._seq:
                if kind == "bot_step":
                    return
                raise _Reject("stale", f"that was for state #{seq}, the board is at #{self._seq}")
        getattr(self, handler)(content)
        if self.error:
            self.error = {}

    def _choice_intent(self, content: Mapping[str, Any]) -> None:
        choice = content.get("choice")
        if not isinstance(choice, str) or not choice or len(choice) > _MAX_CHOICE_LEN:
            raise _Reject("malformed", "choice must be a short string")
        viewer = self.viewer
        if self._scrub is not None:
            raise _Reject("history", "the board shows the past: go back to live play first")
        if self._branch is not None:
            g = self._branch.current
            if viewer is None or _to_move(g) != viewer or choice not in g.legal_actions():
                raise _Reject("illegal", f"{choice[:40]!r} is not a legal action for you now")
            self._branch.apply(choice)
            self._publish()
            return
        g = self._real()
        t = _to_move(g)
        if self._curtain_seat() is not None:
            raise _Reject("curtain", "press Show first")
        if t is None or viewer is None or t != viewer or t in self._bots:
            raise _Reject("not_your_turn", "it is not your turn")
        if choice not in g.legal_actions():
            raise _Reject("illegal", f"{choice[:40]!r} is not a legal action now")
        self.apply(choice)
        self._publish()

    def _bot_step_intent(self, content: Mapping[str, Any]) -> None:
        if self.paused or self._branch is not None or self._scrub is not None:
            return
        if self.bot_move() is not None:
            self._publish()

    def _pause_intent(self, content: Mapping[str, Any]) -> None:
        p = content.get("paused")
        if not isinstance(p, bool):
            raise _Reject("malformed", "paused must be true or false")
        self.paused = p

    def _show_seat_intent(self, content: Mapping[str, Any]) -> None:
        cur = self._curtain_seat()
        if cur is None:
            raise _Reject("curtain", "no curtain to lift")
        self._curtain_open = cur
        self._publish()

    def _new_game_intent(self, content: Mapping[str, Any]) -> None:
        setup = content.get("setup")
        if not isinstance(setup, Mapping):
            raise _Reject("setup", "setup must be an object")
        try:
            self.new_game(setup)
        except (SetupError, ValueError, TypeError) as exc:
            raise _Reject("setup", str(exc)) from None

    def _play_again_intent(self, content: Mapping[str, Any]) -> None:
        g = self._real()
        seed = None if self._seed is None else self._seed + 1
        bots = {q: self._labels[q] for q in self._bots if self._labels[q] in bot_names()}
        bots.update({q: self._bots[q] for q in self._bots if q not in bots})
        self._seed = seed
        self._set_game(SubmarineGame(list(g.players), seed=seed, options=g.options), bots)
        self._publish()

    def _scrub_intent(self, content: Mapping[str, Any]) -> None:
        k = content.get("step")
        if self._branch is not None:
            raise _Reject("whatif", "leave the what-if branch first")
        if k is None or k == len(self._actions):
            self._scrub = None
        elif _is_int(k) and 0 <= k < len(self._actions):
            self._scrub = k
        else:
            raise _Reject("malformed", f"step must be null or 0..{len(self._actions)}")
        self._publish()

    def _what_if_intent(self, content: Mapping[str, Any]) -> None:
        if self._branch is not None:
            raise _Reject("whatif", "already in a what-if branch")
        if self._curtain_seat() is not None:
            raise _Reject("curtain", "press Show first")
        self.branch()
        self._publish()

    def _undo_intent(self, content: Mapping[str, Any]) -> None:
        if self._branch is None or not self._branch.can_undo:
            raise _Reject("whatif", "nothing to undo")
        self._branch.undo()
        self._publish()

    def _redo_intent(self, content: Mapping[str, Any]) -> None:
        if self._branch is None or not self._branch.can_redo:
            raise _Reject("whatif", "nothing to redo")
        self._branch.redo()
        self._publish()

    def _play_out_intent(self, content: Mapping[str, Any]) -> None:
        br = self._branch
        if br is None:
            raise _Reject("whatif", "not in a what-if branch")
        viewer = self.viewer
        n = 0
        while n < self.MAX_AUTO:
            g: SubmarineGame = br.current
            t = _to_move(g)
            if t is None or t == viewer:
                break
            bot = self._bots.get(t) or RandomLegalBot(self._rng.randrange(2**31))
            br.apply(_call_bot(bot, g, t))
            n += 1
        self._publish()

    def _back_intent(self, content: Mapping[str, Any]) -> None:
        if self._branch is None:
            raise _Reject("whatif", "not in a what-if branch")
        self._branch = None
        self._branch_from = None
        self._publish()

    # ------------------------------------------------------------------ setup

    _SETUP_KEYS = frozenset({"players", "kinds", "seed", "options"})

    def _check_setup(
        self, setup: Mapping[str, Any]
    ) -> tuple[list[str], list[str], int | None, dict[str, Any]]:
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
        seed = setup.get("seed")
        if seed is not None and not (_is_int(seed) and 0 <= seed < 2**63):
            raise SetupError("seed must be empty or a non-negative integer")
        options = setup.get("options") or {}
        if not isinstance(options, Mapping):
            raise SetupError("options must be an object")
        opts = resolve_options(options)
        sp = opts["start_player"]
        if _is_int(sp) and sp >= len(players):
            raise SetupError("start_player must be 'random' or one of the seats")
        return [p.strip() for p in players], list(kinds), seed, opts

    def _setup_data(self) -> dict[str, Any]:
        g = self._real()
        return {
            "players": list(g.players),
            "kinds": list(self._labels),
            "seed": self._seed,
            "options": _jsonable(dict(g.options)),
            "defaults": _jsonable(dict(DEFAULTS)),
            "choices": _jsonable(dict(CHOICES)),
            "tables": _jsonable(NAMED_TABLES),
            "bot_names": bot_names(),
        }

    # ------------------------------------------------------------------ publishing

    def _label(self, seat: int, action: str, viewer: int | None) -> str:
        g = self._real()
        name = str(g.players[seat])
        verb, _, rest = action.partition(" ")
        if verb == "place":
            return f"{name} placed a bathyscaphe in column {rest}"
        if verb == "sail":
            return f"{name} sailed to {rest}"
        if verb == "mode":
            return f"{name} chose to {rest}"
        if verb == "collect":
            parts = rest.split()
            return f"{name} collected {parts[1]} at {parts[0]}" if len(parts) > 1 else f"{name} collected"
        if verb == "move":
            return f"{name} moved {rest.replace(' ', ' to ')}"
        if verb == "exchange":
            return f"{name} exchanged {rest}" if seat == viewer else f"{name} exchanged a card"
        if verb == "pass":
            return f"{name} passed"
        if verb == "end":
            return f"{name} ended the step"
        return f"{name}: {verb}"

    def build_state(self) -> dict[str, Any]:
        """The ``state`` trait's content for the current screen."""
        viewer = self.viewer
        g = self._shown()
        mode = "whatif" if self._branch is not None else "history" if self._scrub is not None else "real"
        st = dict(g.view(viewer).to_dict())
        t = _to_move(g)
        if t is not None and t != viewer:
            st["current_turn"] = [
                "exchange ?" if str(a).startswith("exchange ") else a for a in st.get("current_turn") or []
            ]
        legal: list[str] = []
        if (
            viewer is not None
            and t == viewer
            and mode != "history"
            and (mode == "whatif" or viewer not in self._bots)
        ):
            legal = [str(a) for a in g.legal_actions()]
        st["legal"] = legal
        st["seq"] = self._seq
        st["mode"] = mode
        st["kinds"] = list(self._labels)
        st["actor"] = t
        st["can_act"] = bool(legal)
        st["over"] = g.is_over
        st["paused"] = self.paused
        cur = self._curtain_seat()
        real = self._real()
        st["curtain"] = None if cur is None else {"seat": cur, "name": str(real.players[cur])}
        st["history"] = {
            "n": len(self._actions),
            "at": self._scrub,
            "labels": [self._label(q, a, viewer) for q, a in self._actions],
        }
        if self._branch is not None:
            br = self._branch
            st["whatif"] = {
                "from_step": self._branch_from,
                "sampled": self._branch_sampled,
                "can_undo": br.can_undo,
                "can_redo": br.can_redo,
            }
        return st

    def _publish(self) -> None:
        self._seq += 1
        self.setup = self._setup_data()
        self.state = self.build_state()

    def serve(self, **kwargs: Any) -> Any:
        """Serve (a copy of) this game to a screen per player (``docs/SERVER.md``): each seat gets
        its own link, its page receives that seat's view only.  Keywords as
        :func:`dsa_widget.submarine.remote.serve_submarine`.  Needs the ``server`` extra."""
        from .remote import serve_submarine

        return serve_submarine(self, **kwargs)

    def __repr__(self) -> str:
        return f"<Submarine seats={self._labels} seq={self._seq}>"
