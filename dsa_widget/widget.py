"""``DeepSea``: play Deep Sea Adventure in JupyterLab (an anywidget).

The Python :class:`~dsa_widget.game.Game` is the single source of truth.
The browser draws the synced ``state`` trait (see :mod:`dsa_widget.sync`)
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
=================================================== =============================
"""

from __future__ import annotations

import importlib.util
import os
import random
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

import anywidget
import traitlets

from .errors import IllegalChoiceError, SetupError
from .game import Game
from .setup import Setup
from .sync import _visible_bank_seats, build_state, mask_event, sentences, state_bytes

__all__ = ["DeepSea", "bot_names", "resolve_bot"]

_STATIC = Path(__file__).parent / "static"
_ESM = _STATIC / "widget.js"
_CSS = _STATIC / "widget.css"

_NOT_BUILT_ESM = """
export default { render({ el }) {
  const p = document.createElement("p");
  p.textContent = "dsa_widget: the front end is not built. Run `npm install && npm run build` in the repository (or pip install it).";
  el.append(p);
} };
"""

HUMAN = "human"
_SETUP_KEYS = ("players", "air", "rounds", "first_player", "seed", "path", "options")
_MAX_CHOICE_LEN = 32

Bot = Callable[[Any, Sequence[str]], str]


# ---------------------------------------------------------------------- bots


def _bots_module() -> Any:
    """``dsa_widget.bots`` if it exists (imported lazily), else ``None``."""
    if importlib.util.find_spec(f"{__package__}.bots") is None:
        return None
    return importlib.import_module(f"{__package__}.bots")


class _RandomBot:
    """Picks a legal choice at random (the fallback when ``dsa_widget.bots`` is absent)."""

    name = "random"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def __call__(self, view: Any, legal: Sequence[str]) -> str:
        return self._rng.choice(list(legal))


class _HeuristicBot:
    """Turns back with two items or when the air is short; takes while light."""

    name = "heuristic"

    def __init__(self, seed: int | None = None) -> None:
        self._rng = random.Random(seed)

    def __call__(self, view: Any, legal: Sequence[str]) -> str:
        items = len(view.my_items)
        if "back" in legal:
            need = view.my_position / max(1.0, 4.0 - items) * (items + 1) * len(view.players)
            return "back" if items >= 2 or view.air <= need else "continue"
        if "take" in legal:
            return "take" if items < 3 else "none"
        return "none" if "none" in legal else legal[0]


#: names kept working whichever bots module is installed
_ALIASES = {"heuristic": "baseline"}

_FALLBACK_BOTS: dict[str, Callable[[int | None], Bot]] = {"random": _RandomBot, "heuristic": _HeuristicBot}


def bot_names() -> list[str]:
    """The bot names a seat may take (``dsa_widget.bots.BOT_NAMES`` when it exists).

    >>> "random" in bot_names()
    True
    """
    mod = _bots_module()
    if mod is not None:
        return list(getattr(mod, "BOT_NAMES", ())) or list(_FALLBACK_BOTS)
    return list(_FALLBACK_BOTS)


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
        return spec, str(getattr(spec, "name", None) or getattr(spec, "__name__", None) or type(spec).__name__)
    if not isinstance(spec, str):
        raise TypeError(f"a seat is 'human', a bot name or a bot callable, got {spec!r}")
    mod = _bots_module()
    if mod is not None:
        names = getattr(mod, "BOT_NAMES", ())
        name = _ALIASES.get(spec, spec) if spec not in names else spec
        if name in names:
            return mod.make_bot(name, seed=seed), spec
    if spec in _FALLBACK_BOTS:
        return _FALLBACK_BOTS[spec](seed), spec
    raise ValueError(f"unknown bot {spec!r}; bots: {', '.join(bot_names())} (or 'human')")


# ---------------------------------------------------------------------- the widget


class DeepSea(anywidget.AnyWidget):
    """A playable Deep Sea Adventure board.

    Build it from setup keywords (as :class:`~dsa_widget.game.Game`), or
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
    (seat ``q`` gets ``bot_seed + q``) for reproducible games.
    """

    _esm = _ESM if _ESM.is_file() else _NOT_BUILT_ESM
    _css = _CSS if _CSS.is_file() else ""

    #: the board, as :func:`dsa_widget.sync.build_state` builds it
    state = traitlets.Dict().tag(sync=True)
    #: why the last intent was rejected: ``{kind, message, seq, n}`` (``{}`` when fine)
    error = traitlets.Dict().tag(sync=True)
    #: bot turns wait while paused (the front end's pause button)
    paused = traitlets.Bool(False).tag(sync=True)
    #: ms between two bot choices in the browser
    bot_delay = traitlets.Int(600).tag(sync=True)
    #: names the setup panel offers for seats (besides "human")
    bot_names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    #: the teaching switch: send every chip value (Python side only)
    reveal_all = traitlets.Bool(False)

    def __init__(
        self,
        source: Game | Setup | Mapping[str, Any] | str | os.PathLike | None = None,
        /,
        *,
        seats: Mapping[int, Any] | Sequence[Any] | None = None,
        reveal_all: bool = False,
        viewer: int | None | str = "auto",
        bot_delay: int = 600,
        bot_seed: int | None = None,
        **setup: Any,
    ) -> None:
        super().__init__(bot_delay=bot_delay, bot_names=bot_names())
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
        self._last_bytes = 0
        self._bytes: list[int] = []
        self._build_ms: list[float] = []
        self._publishing = False
        self.on_msg(self._on_msg)
        self._game = self._make_game(source, setup)
        self.reveal_all = reveal_all  # before the seats: no publish yet
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

    def _reset_log(self) -> None:
        events = self._game.events
        vis = self._vis()
        self._log = sentences((mask_event(e, vis) for e in events), self._game.players)
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
    def viewer(self) -> int | None:
        if self._viewer_spec == "auto":
            humans = [q for q, lab in enumerate(self._labels) if lab == HUMAN]
            return humans[0] if len(humans) == 1 else None
        return self._viewer_spec  # type: ignore[return-value]

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
        """Apply a legal choice for whoever is to play; raises
        :class:`~dsa_widget.errors.IllegalChoiceError` (and changes nothing) if illegal."""
        self._game.apply(choice)
        self._publish()

    def roll(self, dice: Sequence[int] | None = None) -> None:
        """Roll (``dice=(d1, d2)`` forces the dice) and swim."""
        self._game.roll(dice)
        self._publish()

    def bot_move(self, bot: Any = None) -> str:
        """Let a bot make one choice for the player to move; returns the choice.

        ``bot`` defaults to the seat's own bot, else a random-legal bot.
        """
        g = self._game
        if g.is_over:
            raise IllegalChoiceError("the game is over; no more turns", None, ())
        seat = g.current_player
        b = resolve_bot(bot)[0] if bot is not None else self._bots.get(seat) or _RandomBot()  # type: ignore[arg-type]
        mod = _bots_module()
        if mod is not None and hasattr(mod, "play_bot_move"):
            choice = mod.play_bot_move(g, b)  # rolls itself at a roll step; checks the bot's answer
        elif g.step == "roll":
            choice = "roll"
            g.apply(choice)
        else:
            choice = b(g.view(seat), g.legal_choices())  # type: ignore[misc, arg-type]
            g.apply(choice)
        self._publish()
        return choice

    def play_bots(self, max_choices: int = 10_000) -> int:
        """Let bot seats play until a human is to move or the game ends; returns the choices made."""
        k = 0
        while self.is_bot_turn() and k < max_choices:
            self.bot_move()
            k += 1
        return k

    def new_game(self, *, seats: Any = None, **setup: Any) -> None:
        """Start a new game (setup keywords as :class:`Game`); ``seats`` as in the
        constructor (default: keep the seats when the player count is the same)."""
        g = Game(**setup)
        old = self._labels
        self._game = g
        if seats is None and len(old) == len(g.players):
            specs: Any = [self._bots.get(q, HUMAN) for q in range(len(old))]
            self._set_seats(specs)
            self._labels = old[:]
        else:
            self._set_seats(seats)
        self._reset_log()
        self.error = {}
        self._publish()

    def save(self, path: Any) -> None:
        """Write the game record (RECORD.md JSON) to ``path``."""
        self._game.save(path)

    @classmethod
    def load(cls, record: Any, **kwargs: Any) -> DeepSea:
        """A widget on a game replayed from a record (path, JSON text or dict)."""
        return cls(Game.from_record(record), **kwargs)

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
        g = self._game
        new: list[dict[str, Any]] = []
        if g.n_events > self._ev_sent:
            new = g.events_since(self._ev_sent)
            self._ev_sent = g.n_events
        vis = self._vis()
        new = [mask_event(e, vis) for e in new]
        self._log.extend(sentences(new, g.players))
        self._seq += 1
        state = build_state(
            g,
            seats=self._labels,
            seq=self._seq,
            reveal_all=self.reveal_all,
            viewer=self.viewer,
            new_events=new,
            log=self._log,
        )
        self._build_ms.append((time.perf_counter() - t0) * 1000)
        self._last_bytes = state_bytes(state)
        self._bytes.append(self._last_bytes)
        self.state = state

    # ------------------------------------------------------------------ intents (front end)

    def _reject(self, kind: str, message: str) -> None:
        self._n_errors += 1
        self.error = {"kind": kind, "message": message, "seq": self._seq, "n": self._n_errors}

    def _ok(self) -> None:
        if self.error:
            self.error = {}

    def _on_msg(self, _widget: Any, content: Any, buffers: Any = None) -> None:
        self.handle_intent(content)

    def handle_intent(self, content: Any) -> None:
        """Handle one message from the front end (also callable from Python/tests).

        Never raises for bad input: a rejected message sets :attr:`error`.
        """
        if not isinstance(content, Mapping):
            return self._reject("malformed", f"a message is an object, got {type(content).__name__}")
        kind = content.get("type")
        if kind == "pause":
            paused = content.get("paused")
            if not isinstance(paused, bool):
                return self._reject("malformed", "pause needs paused: true or false")
            self.paused = paused
            return None
        if kind not in ("intent", "bot_step", "new_game"):
            return self._reject("malformed", f"unknown message type {str(kind)[:40]!r}")
        seq = content.get("seq")
        if not isinstance(seq, int) or isinstance(seq, bool):
            return self._reject("malformed", f"{kind} needs the state number seq (an integer)")
        if kind == "bot_step":
            # Several views may ask for the same bot step: a stale one is quietly ignored.
            if seq != self._seq or not self.is_bot_turn():
                return None
            try:
                self.bot_move()
            except Exception as exc:  # noqa: BLE001 -- a bot's bug must not kill the board
                self.paused = True
                return self._reject("bot", f"the bot failed: {exc}")
            self._ok()
            return None
        if seq != self._seq:
            return self._reject(
                "stale",
                f"that click was for state #{seq} but the game has moved on to #{self._seq}; nothing changed",
            )
        if kind == "new_game":
            return self._new_game_intent(content.get("setup"))
        choice = content.get("choice")
        if not isinstance(choice, str) or len(choice) > _MAX_CHOICE_LEN:
            return self._reject("malformed", f"choice must be a short string, got {str(choice)[:40]!r}")
        g = self._game
        if g.is_over:
            return self._reject("illegal", "the game is over; start a new game")
        seat = g.current_player
        if seat in self._bots:
            return self._reject("illegal", f"it is {g.players[seat]}'s turn, and a bot plays that seat")  # type: ignore[index]
        try:
            g.apply(choice)
        except IllegalChoiceError as exc:
            return self._reject("illegal", str(exc))
        self._ok()
        self._publish()
        return None

    def _new_game_intent(self, setup: Any) -> None:
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
        self._reset_log()
        self._ok()
        self._publish()
        return None

    def __repr__(self) -> str:
        return f"<DeepSea seats={self._labels} {self._game!r}>"
