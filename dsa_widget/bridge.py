"""The widget bridge: one thin anywidget class for every game that stands on the platform.

:class:`GameWidget` declares the synced traits and forwards the browser's messages to a plain
:class:`~dsa_widget.core.session.Session`; the session checks and applies them, and every
change (a click, a bot, a call from a cell) republishes the screen.  A game's widget is a
subclass naming its game, its presenter and its front end:

>>> from dsa_widget.submarine import Submarine
>>> w = Submarine(players=["You", "Bot"], seats={1: "random"}, seed=1)
>>> w.state["players"], w.state["kinds"]
(['You', 'Bot'], ['human', 'random'])
>>> w.handle_intent({"type": "intent", "seq": w.state["seq"], "choice": "sail 99"})
>>> w.error["kind"], w.state["seq"]            # refused: the reason, and nothing changed
('illegal', 0)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, ClassVar

import anywidget
import traitlets

from .core.browser import from_browser, require_real_python
from .core.errors import GameError, is_int
from .core.records import read_document
from .core.registry import GameSpec, Option, game
from .core.session import Presenter, Refusal, Session

__all__ = ["GameWidget"]

_STATIC = Path(__file__).parent / "static"
_HMR = os.environ.get("ANYWIDGET_HMR", "") not in ("", "0")


def _asset(name: str, missing: str) -> Any:
    path = _STATIC / name
    if not path.is_file():
        return missing
    return path if _HMR else path.read_text(encoding="utf-8")


def renamed_keyword(old: str, new: str) -> None:
    """Warn that a board's keyword ``old`` is now ``new`` (kept for one release)."""
    import warnings

    warnings.warn(
        f"{old}= is now {new}=, the name every game's board uses; {old}= goes in the next release",
        DeprecationWarning,
        stacklevel=4,
    )


def _not_built(title: str) -> str:
    return (
        "export default { render({ el }) { const p = document.createElement('p'); p.textContent = "
        f"'dsa_widget: the {title} front end is not built. Run npm install && npm run build in the "
        "repository (or pip install the package).'; el.append(p); } };"
    )


class GameWidget(anywidget.AnyWidget):
    """A playable table in a notebook.  Subclasses set ``GAME`` (a registered game's name) and
    ``PRESENTER``; the front end is the game's bundle (its registry entry's ``bundle``).

    ``players``, ``seed``, ``options`` and the game's other setup keywords make the game (or
    ``game=`` gives one); ``seats`` maps a seat to ``"human"``, a bot name or a bot function;
    ``viewer`` is whose screen it is (``"auto"``, a seat, or ``None`` for a spectator);
    ``hot_seat`` puts a curtain between human seats on one shared device; ``reveal`` shows
    everything (a teacher's table); ``bot_delay`` is the browser's pause before a bot moves
    (ms).
    """

    GAME: ClassVar[str] = ""
    PRESENTER: ClassVar[type[Presenter] | None] = None

    state = traitlets.Dict().tag(sync=True)
    error = traitlets.Dict().tag(sync=True)
    paused = traitlets.Bool(False).tag(sync=True)
    bot_delay = traitlets.Int(400).tag(sync=True)
    bot_names = traitlets.List(traitlets.Unicode()).tag(sync=True)
    bot_help = traitlets.Dict().tag(sync=True)
    setup = traitlets.Dict().tag(sync=True)
    #: the past for a page with no kernel (a static export scrubs it on its own): the screen
    #: after each step of the real game, as the changes from the step before, in chunks of
    #: :data:`CHUNK` (a chunk is sent once, when it is full) and the steps since the last chunk
    history_chunks = traitlets.List(traitlets.List(traitlets.Dict())).tag(sync=True)
    history_tail = traitlets.List(traitlets.Dict()).tag(sync=True)
    #: the answer to a view's "hello" (its number): a kernel is there (a saved page has none)
    hello = traitlets.Int(-1).tag(sync=True)
    #: the board shows its game's chances (the "Chances" panel; key H), where the game has any
    hints = traitlets.Bool(True).tag(sync=True)

    CHUNK: ClassVar[int] = 32

    def __init_subclass__(cls, **kwargs: Any) -> None:
        if cls.__dict__.get("GAME"):
            spec = game(cls.GAME)
            bundle = spec.bundle or "widget"
            cls._esm = _asset(f"{bundle}.js", _not_built(spec.title))
            cls._css = _asset(f"{bundle}.css", "")
        super().__init_subclass__(**kwargs)  # anywidget reads _esm and _css from here

    def __init__(
        self,
        *,
        players: Any = None,
        seats: Mapping[int, Any] | Sequence[Any] | None = None,
        viewer: int | None | str = "auto",
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        hot_seat: bool = False,
        reveal: bool = False,
        bot_delay: int = 400,
        bot_seed: int | None = None,
        auto_pass: bool = True,
        game: Any = None,
        bots: Mapping[int, Any] | None = None,
        seat: int | None | str = "auto",
        **setup: Any,
    ) -> None:
        if not isinstance(reveal, bool):
            raise ValueError(f"reveal is True (a teacher's table: everything shown) or False, not {reveal!r}")
        if bots is not None:  # the names some games' boards used before the platform
            renamed_keyword("bots", "seats")
            if seats is not None and not isinstance(seats, Mapping):
                seats = dict(enumerate(seats))
            seats = bots if seats is None else {**bots, **seats}
        if seat != "auto":
            renamed_keyword("seat", "viewer")
            viewer = seat
        if game is None and players is None and seats is None:
            # a table for one: you, and the game's usual bot in every other seat
            n = self.spec.default_players
            players = ["You", *(f"Bot {q}" for q in range(1, n))]
            seats = {q: self.spec.default_bot for q in range(1, n)}
        reg = self.spec.bot_registry()
        self._server: Any = None  # the Server of serve(), while it serves
        super().__init__(bot_delay=bot_delay, bot_names=list(reg.names), bot_help=dict(reg.summaries))
        presenter = self.PRESENTER() if self.PRESENTER is not None else None
        if game is not None:
            if players is not None or seed is not None or options is not None or setup:
                raise TypeError("give either a game or its setup (players, seed, options...), not both")
            source: Any = game
        else:
            source = self.spec
            setup["players"] = self.spec.default_players if players is None else players
            if seed is not None:
                setup["seed"] = seed
            if options is not None:
                setup["options"] = options
        self.session = Session(
            source,
            seats=seats,
            viewer=viewer,
            hot_seat=hot_seat,
            reveal=reveal,
            bot_seed=bot_seed,
            auto_pass=auto_pass,
            presenter=presenter,
            **setup,
        )
        self.session.hints = bool(self.hints)
        self.session.on_change(self._publish)
        #: the history's screens as changes, per viewer (with the last full one), for a generation
        self._frames_generation: tuple[int, bool, bool] = (-1, False, False)
        self._frames_by_viewer: dict[int | None, tuple[list[dict[str, Any]], dict[str, Any]]] = {}
        #: the setup form's settings of the game now, for a generation (see _current_settings)
        self._settings_key = -1
        self._settings: dict[str, dict[str, Any]] = {}
        self._n_errors = 0
        #: the last unexpected error of a message handler (kept here, never sent to a browser)
        self.last_exception: BaseException | None = None
        self.on_msg(self._on_msg)
        self._publish()

    @property
    def spec(self) -> GameSpec:
        """This widget's game in the registry."""
        return game(self.GAME)

    # ------------------------------------------------------------------ reading

    @property
    def game(self) -> Any:
        """The real game, as it is now: the session's own state (read it; act through the
        widget's verbs, which redraw the board)."""
        return self.session.game

    @property
    def seats(self) -> list[str]:
        return self.session.seats

    @property
    def viewer(self) -> int | None:
        return self.session.viewer

    @property
    def reveal(self) -> bool:
        """A teacher's table: the screen shows everything (set it to switch)."""
        return self.session.reveal

    @reveal.setter
    def reveal(self, value: bool) -> None:
        if not isinstance(value, bool):
            raise ValueError(f"reveal is True or False, not {value!r}")
        self.session.set_reveal(value)
        self.session.changed()

    @property
    def seq(self) -> int:
        return self.session.seq

    def game_after(self, step: int) -> Any:
        """A copy of the real game after its first ``step`` steps (0: as it started)."""
        frames = self.session.frames()
        if not is_int(step) or not 0 <= step < len(frames):
            raise ValueError(f"the game has steps 0 to {len(frames) - 1}")
        return frames[step].clone()

    def is_bot_turn(self) -> bool:
        """True when a bot is to act in the real game."""
        return self.session.is_bot_turn()

    # ------------------------------------------------------------------ the verbs (each redraws)

    def _do(self, fn: Any, *args: Any) -> Any:
        out = fn(*args)
        self.session.changed()
        return out

    def apply(self, action: Any, seat: int | None = None) -> None:
        """``seat`` (default: the seat to act) plays ``action``, in the what-if when one is
        open, else in the real game (checked: an illegal one raises and changes nothing)."""
        self._do(self.session.apply, action, seat)

    def bot_move(self) -> Any:
        """The bot to act plays one step, in the what-if when one is open (``None``: no bot
        is to act)."""
        return self._do(self.session.bot_move)

    def play_bots(self) -> int:
        """Bots move until a human is to act, the game ends or a bot fails (asked from a cell,
        they move even while the board's bots are paused)."""
        return int(self._do(lambda: self.session.play_bots(even_paused=True)))

    def branch(self, step: int | None = None) -> None:
        """Try things from the real game after ``step`` steps (default: the step shown), away
        from the real game (what-if)."""
        self._do(self.session.branch, step)

    def undo(self, n: int = 1) -> None:
        """Undo ``n`` steps: in the what-if, else in the real game (the board's undo works in
        what-if only; this is for a teacher or a mis-click)."""
        self._do(self.session.undo, n)

    def redo(self, n: int = 1) -> None:
        """Redo ``n`` undone steps (the what-if's, else the real game's)."""
        self._do(self.session.redo, n)

    def keep(self, name: str | None = None) -> str:
        """Keep the what-if's state now as a row of :meth:`compare`; its name."""
        return str(self._do(self.session.keep, name))

    def compare(self) -> list[dict[str, Any]]:
        """The real game, the kept states and the what-if side by side, as the screen's seat
        may know them (one row each)."""
        return self.session.compare()

    @property
    def in_what_if(self) -> bool:
        return self.session.in_what_if

    @property
    def branch_game(self) -> Any:
        """A copy of the what-if's state now (``None`` outside what-if)."""
        return self.session.branch_game

    def refresh(self) -> None:
        """Redraw after the real game was changed directly (the change joins the history)."""
        self._do(self.session.refresh)

    def chance(self, outcome: Any = None) -> None:
        """At a chance step: ``outcome`` (chosen, e.g. dice to try or to teach), or the game's
        own draw; in the what-if when one is open, else in the real game."""
        self._do(self.session.chance, outcome)

    def show_seat(self) -> None:
        """Hot seat: lift the curtain for the seat to act (the board's Show button)."""
        refusal = self.session.handle({"type": "show_seat", "seq": self.seq})
        if refusal is not None:
            raise refusal

    def play_out(self) -> int:
        """What-if: the bots (a random player for a human's seat) play until the screen's seat
        is to act; how many steps."""
        return int(self._do(self.session.play_out))

    def back_to_real(self) -> None:
        self._do(self.session.back_to_real)

    def seek(self, step: int | None) -> None:
        """Show the real game after ``step`` steps (``None``: now)."""
        self._do(self.session.seek, step)

    def new_game(self, **setup: Any) -> None:
        """A new game (the game's setup keywords, and ``seats``)."""
        self._do(lambda: self.session.new_game(**setup))

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the real game's record (its format's document) to ``path``."""
        import json

        Path(path).write_text(json.dumps(self.game.to_record(), indent=1) + "\n", encoding="utf-8")

    @classmethod
    def load(cls, source: Any, **kwargs: Any) -> GameWidget:
        """A board for the game a record (a path, JSON text or a dict) describes."""
        spec = game(cls.GAME)
        return cls(game=spec.from_record(read_document(source)), **kwargs)

    @property
    def serving(self) -> bool:
        """True while :meth:`serve` serves this game (the board then shows public knowledge)."""
        return self._server is not None and not self._server.table.closed

    @property
    def server(self) -> Any:
        """The :class:`~dsa_widget.server.Server` of :meth:`serve` (``None`` when not served)."""
        return self._server

    def serve(
        self,
        *,
        host: str = "127.0.0.1",
        port: int = 0,
        record: str | os.PathLike[str] | None = None,
        resume: str | os.PathLike[str] | None = None,
        base_url: str | None = None,
        allowed_origins: Sequence[str] = (),
        fill: str | None = None,
        limits: Any = None,
        bot_delay: float | None = None,
    ) -> Any:
        """Serve this game (``docs/SERVER.md``; the ``server`` extra): a link per seat, each
        seat's browser getting only its own view, and a spectator's link.  While it serves,
        this board shows public knowledge and its clicks do not play; cells still drive the
        game, and the seats' screens follow.  ``record``: the file written after every turn;
        ``resume``: such a file, to go on after a kernel restart; ``fill``: the bot the
        lobby's Start offers for empty seats (the game's usual one); ``bot_delay``: the
        server's pause before a bot moves, in seconds (the board's own, by default).  When the
        table closes the board is the notebook's again.

        >>> from dsa_widget.pig import Pig
        >>> w = Pig(players=["Ann", "Bob"], seed=1)
        >>> srv = w.serve()
        >>> w.serving, w.state["viewer"], srv.seat_url(1).startswith("http://127.0.0.1:")
        (True, None, True)
        >>> srv.stop(); w.serving, w.state["viewer"]
        (False, 0)
        """
        require_real_python("the seat server (serve())")
        from .server import Server, make_table
        from .server.session_table import SessionTable

        if self.serving:
            raise RuntimeError("this board is served already: stop it first (srv.stop())")
        if self.in_what_if:
            self.session.back_to_real()
        delay = self.bot_delay / 1000 if bot_delay is None else float(bot_delay)
        if resume is not None:
            table = make_table(resume=resume, record=record, limits=limits, bot_delay=delay)
            served = table.game
            if not isinstance(served, SessionTable) or served.spec.name != self.spec.name:
                raise ValueError(f"{os.fspath(resume)} is not a record of a {self.spec.title} table")
            self.session = served.session  # the resumed table's session is this board's now
            self.session.hints = bool(self.hints)
            self.session.on_change(self._publish)
        else:
            table = make_table(self, record=record, limits=limits, bot_delay=delay)
        srv = Server(table, host=host, port=port, base_url=base_url, allowed_origins=allowed_origins)
        srv.fill = fill if fill is not None else self.spec.default_bot
        table.on_change(self._on_table_change)
        self._server = srv.start()
        self.session.changed()
        return srv

    def _on_table_change(self) -> None:
        if self._server is not None and self._server.table.closed:
            self._server = None
            self.session.serving(False)  # the board is the notebook's again

    # ------------------------------------------------------------------ messages

    def _on_msg(self, _widget: Any, content: Any, buffers: Any = None) -> None:
        self.handle_intent(from_browser(content))  # JupyterLite's null is None again

    def handle_intent(self, content: Any) -> None:
        """Handle one message as if the board sent it.  Never raises: a refusal sets
        :attr:`error` (its reason in words) and changes nothing."""
        try:
            refusal = self._handle(content)
        except Exception as exc:  # noqa: BLE001 -- a bug must not kill the board
            self.last_exception = exc
            refusal = Refusal("internal", f"an internal error ({type(exc).__name__}): see w.last_exception")
        if refusal is None and self.session.problem is not None:
            refusal = Refusal("bot", self.session.problem["message"])
            self.last_exception = self.session.last_bot_error
        if refusal is None:
            if self.error:
                self.error = {}
            return
        self._n_errors += 1
        error = refusal.to_dict(self.session.seq)
        self.error = {**error, "n": self._n_errors}

    def _handle(self, content: Any) -> Refusal | None:
        if isinstance(content, Mapping) and content.get("type") == "hello":
            n = content.get("n")
            if not is_int(n) or not 0 <= n < 2**31:
                return Refusal("malformed", "hello carries n, a whole number below 2**31")
            self.hello = n
            return None
        if isinstance(content, Mapping) and content.get("type") in ("new_game", "play_again"):
            return self._setup_intent(content)
        served = self.serving and not self.in_what_if  # the seats play from their own links
        if served and isinstance(content, Mapping) and content.get("type") == "intent":
            return Refusal(
                "not_your_turn",
                "this game is served: each player plays from his own seat's link (see the lobby)",
            )
        return self.session.handle(content)

    def _setup_intent(self, content: Mapping[str, Any]) -> Refusal | None:
        if content.get("seq") != self.session.seq:
            return Refusal("stale", "the board changed before the new game was asked for; nothing changed")
        if content.get("type") == "play_again":
            setup = self.session.hooks.replay_setup(self.game, self.session.setup)
            if isinstance(setup.get("seed"), int):
                setup["seed"] += 1
            else:
                setup.pop("seed", None)
            try:
                self.new_game(**setup)
            except GameError as exc:
                return Refusal("setup", str(exc))
            return None
        asked = content.get("setup")
        if not isinstance(asked, Mapping):
            return Refusal("setup", "the new game's settings are an object")
        try:
            self.new_game(**self.check_setup(asked))
        except (GameError, TypeError, ValueError) as exc:
            return Refusal("setup", str(exc)[:300])
        return None

    def check_setup(self, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The setup form's object as setup keywords (the game's own checks follow)."""
        allowed = {"players", "kinds", "seed", "options", *(o.key for o in self.spec.setup_schema())}
        unknown = sorted(str(k) for k in set(setup) - allowed)
        if unknown:
            raise TypeError(f"unknown setting {unknown[0][:40]!r}")
        out = {k: v for k, v in setup.items() if k != "kinds" and v is not None}
        for o in self.spec.setup_schema():  # the form's own fields, as its schema allows
            if o.key in setup:
                o.check(setup[o.key])
        options = setup.get("options")
        if isinstance(options, Mapping):  # the rule options too, refused in the form's words
            schema = {o.key: o for o in self.spec.option_schema()}
            for key, value in options.items():
                if key in schema:  # (an unknown one: the game names the options it has)
                    schema[key].check(tuple(value) if isinstance(value, list) else value)  # JSON: no tuples
        seed = out.get("seed")
        if seed is not None and not (is_int(seed) and 0 <= seed < 2**63):
            raise TypeError("the seed is empty (a new shuffle) or a whole number from 0")
        names = out.get("players")
        if isinstance(names, list) and not all(
            isinstance(p, str) and 0 < len(p.strip()) <= 40 for p in names
        ):
            raise TypeError("each player's name has 1 to 40 characters")
        kinds = setup.get("kinds")
        if kinds is not None:
            names = set(self.spec.bot_registry().names)
            if not isinstance(kinds, list) or not all(k == "human" or k in names for k in kinds):
                raise TypeError(f"each seat is 'human' or a bot: {', '.join(sorted(names))}")
            out["seats"] = list(kinds)  # one per seat someone sits at
        return out

    # ------------------------------------------------------------------ publishing

    def setup_data(self) -> dict[str, Any]:
        """What the setup form shows: the game's settings now and its schema, in words."""
        g = self.game
        fixed = self.session.fixed_seats
        return {
            "players": [p for q, p in enumerate(g.players) if q not in fixed],
            "kinds": [k for q, k in enumerate(self.seats) if q not in fixed],
            "seed": self.session.setup.get("seed"),
            # the game's settings now, so that the form starts from this game: "Start" with
            # nothing changed makes the same kind of game (as "play again" does)
            **self._current_settings(),
            "seats": list(self.spec.seats),
            "schema": [o.to_dict() for o in self.spec.option_schema()],
            "setup_schema": [o.to_dict() for o in self.spec.setup_schema()],
            "bot_names": list(self.spec.bot_registry().names),
        }

    def _current_settings(self) -> dict[str, dict[str, Any]]:
        """``values`` (the setup form's own fields) and ``options`` (the rule options) of the
        game now, each as its schema takes it: what "play again" keeps (the game's
        ``replay_setup``), else the keywords the game was made with."""
        made = self.session.setup
        key = self.session.generation  # a game's settings change only with a new game
        if self._settings_key == key:
            return self._settings
        try:
            again = self.session.hooks.setup_values(self.game, made)
        except Exception:  # a game that cannot say: the form shows the keywords it was made with
            again = {}

        def current(schema: tuple[Option, ...], source: Mapping[str, Any]) -> dict[str, Any]:
            out = {}
            for o in schema:
                if o.key in source:
                    try:
                        out[o.key] = o.check(source[o.key])
                    except ValueError:
                        continue  # a value the form cannot show: it shows the usual one
            return out

        options = again.get("options", made.get("options"))
        self._settings_key, self._settings = (
            key,
            {
                "values": current(self.spec.setup_schema(), {**made, **again}),
                "options": current(
                    self.spec.option_schema(), options if isinstance(options, Mapping) else {}
                ),
            },
        )
        return self._settings

    def _frames(self) -> tuple[list[list[dict[str, Any]]], list[dict[str, Any]]]:
        """The real game's screens after each step, for the viewer now, as changes (kept per
        viewer: the real game's steps only grow, and a hot seat's device goes round; a new game
        or an undo starts them afresh)."""
        s = self.session
        who = s.viewer
        if self._frames_generation != (s.generation, s.reveal, s.hints):
            self._frames_generation, self._frames_by_viewer = (s.generation, s.reveal, s.hints), {}
        kept = self._frames_by_viewer.setdefault(who, ([], {}))
        done, last = kept
        if s.presenter is not None:
            frames = s.frames()
            for i in range(len(done), len(frames)):
                # the session's own keys of a step of the past, as a scrub with a kernel shows
                # them (Session.screen): who was to act then, and no bot's words (they are the
                # live game's); without them a saved page kept the live game's for every step
                full = {
                    **s.presenter.past_screen(s, frames[i], who),
                    "actor": s.actor(frames[i]),
                    "bot_said": {},
                }
                if s.hooks.shows_chances:  # the step's own figures, as a kernel's scrub shows
                    full["chances"] = s.chances(frames[i], who)
                done.append({k: v for k, v in full.items() if k not in last or last[k] != v})
                last.clear()
                last.update(full)
        n = len(done) - len(done) % self.CHUNK
        return [done[i : i + self.CHUNK] for i in range(0, n, self.CHUNK)], done[n:]

    def _publish(self) -> None:
        self.paused = self.session.paused
        self.setup = self.setup_data()
        self.state = self.session.screen()  # first: the board is what a click waits for
        chunks, tail = self._frames()  # then the past, for a page that replays it with no kernel
        self.history_chunks = chunks  # sent only when it changed: once a chunk is full
        self.history_tail = tail
        if self.serving:
            self._server.notify()  # the seats' screens follow a cell's change

    @traitlets.observe("hints")
    def _on_hints(self, change: Any) -> None:
        """The board's H (or ``w.hints = False``): the screens carry the game's chances, or not
        (each seat's computed from its own view, at a served table too)."""
        session = getattr(self, "session", None)
        if session is None:  # set before the table is made: it reads the trait then
            return
        session.hints = bool(change["new"])
        if session.hooks.shows_chances:
            self._publish()  # a view setting: the game did not move, so its state number stays

    @traitlets.observe("paused")
    def _paused_changed(self, change: Any) -> None:
        if bool(change["new"]) != self.session.paused:
            if change["new"]:
                self.session.paused = True
            else:
                self.session.resume()
            self.session.changed()

    def __repr__(self) -> str:
        return f"<{type(self).__name__} seats={self.seats} seq={self.seq}>"
