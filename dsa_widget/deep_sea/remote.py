"""Deep Sea Adventure at a served table (:mod:`dsa_widget.server`): one screen per viewer.

:class:`DeepSeaTable` is the game's side of :class:`dsa_widget.server.table.TableGame`: it
checks a seat's intents against the rules, plays the bot seats and builds each viewer's
screen, the model the bundled front end draws (``state``, ``history``, ``history_tail`` and
the board's settings), from what that viewer may know and nothing else.  A seat sees its own
knowledge (:meth:`Game.view` of that seat: under ``reveal="owner"`` its own banked values
only); a spectator sees what every player knows.  No widget and no server is needed here.

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], seed=3, options={"reveal": "owner"})
>>> t = DeepSeaTable(g, seats=["human", "random"])
>>> t.to_move, t.seats
(0, ['human', 'random'])
>>> t.apply_intent(0, {"type": "intent", "choice": "roll"}); g.step
'search'
>>> t.pending()[0][0]            # the roll and its dice: kept so that a restart loses nothing
'roll'
>>> screen = t.screen(None, seq=7)
>>> screen["state"]["viewer"], screen["state"]["seq"], sorted(screen)[:3]
(None, 7, ['bot_delay', 'bot_help', 'bot_names'])
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Mapping, Sequence
from typing import Any

from ..server.table import IntentError
from .errors import IllegalActionError
from .frames import HistoryBuilder
from .rules import Game
from .state import _visible_bank_seats, build_state, mask_event, sentences
from .summary import RoundBook

__all__ = ["DeepSeaTable", "SeatScreen"]

HUMAN = "human"
_MAX_CHOICE_LEN = 32
Bot = Callable[[Any, tuple[str, ...]], str]


def _make_bot(spec: Any, seed: int | None) -> tuple[Bot | None, str]:
    if spec is None or spec == HUMAN:
        return None, HUMAN
    if callable(spec):
        return spec, str(getattr(spec, "name", None) or getattr(spec, "__name__", None) or "bot")
    from .bots import BOT_NAMES, make_bot

    if not isinstance(spec, str) or spec not in BOT_NAMES:
        raise ValueError(f"unknown bot {spec!r}; bots: {', '.join(BOT_NAMES)} (or 'human')")
    return make_bot(spec, seed=seed), spec


class SeatScreen:
    """One viewer's screen, kept up to date turn by turn: the log, the round summaries and the
    history frames masked for that viewer, and the state built for it."""

    def __init__(self, viewer: int | None) -> None:
        self.viewer = viewer
        self._game: Game | None = None
        self._ev_sent = 0
        self._log: list[str] = []
        self._book = RoundBook()
        self._summary: dict[str, Any] | None = None
        self._history = HistoryBuilder(viewer=viewer)
        self._first = True  # the first model holds every key; later ones what changed
        self._sent_history: dict[str, Any] | None = None
        self._sent_delay: int | None = None

    def _reset(self, game: Game) -> None:
        self._game = game
        vis = _visible_bank_seats(game, self.viewer, False)
        masked = [mask_event(e, vis) for e in game.events]
        self._log = sentences(masked, game.players)
        self._book = RoundBook()
        s = self._book_add(game, masked)
        self._summary = s if s is not None and s["over"] else None
        self._ev_sent = game.n_events

    def _book_add(self, game: Game, events: list[dict[str, Any]]) -> dict[str, Any] | None:
        return self._book.add(
            events, game.players, path_length=game.path_length, tiebreak=game.setup.options.tiebreak
        )

    def build(
        self, game: Game, *, seats: Sequence[str], seq: int, bot_said: Mapping[int, str], bot_delay: int
    ) -> dict[str, Any]:
        """The model for this viewer at ``seq``: every key the first time, then ``state`` and the
        keys that changed since the previous call (the history when a turn ended, ...)."""
        new: list[dict[str, Any]] = []
        if game is not self._game or game.n_events < self._ev_sent:
            self._reset(game)
        elif game.n_events > self._ev_sent:
            vis = _visible_bank_seats(game, self.viewer, False)
            new = [mask_event(e, vis) for e in game.events_since(self._ev_sent)]
            self._ev_sent = game.n_events
            self._log.extend(sentences(new, game.players))
            s = self._book_add(game, new)
            if s is not None:
                s["id"] = f"{s['id']}@{seq}"
                self._summary = s
        state = build_state(game, seats=seats, seq=seq, viewer=self.viewer, new_events=new, log=self._log)
        state["mode"] = "real"
        state["bot_said"] = {str(q): t for q, t in bot_said.items()}
        summary = None
        if self._summary is not None:
            summary = dict(self._summary)
            if summary["over"]:
                summary.update(
                    self._book.game_table(
                        game.players, state["scores"], state["winners"], game.setup.options.tiebreak
                    )
                )
        state["summary"] = summary
        out: dict[str, Any] = {"state": state}
        if self._history.update(game, viewer=self.viewer) or self._first:
            history, tail = self._history.traits()
            if history != self._sent_history:
                out["history"] = self._sent_history = history
            out["history_tail"] = tail
        if self._first or bot_delay != self._sent_delay:
            out["bot_delay"] = self._sent_delay = bot_delay
        if self._first:
            # the board's settings on a served page: no setup panel, no hints, bots on the server
            out.update(
                {"bot_names": [], "bot_help": _bot_help(), "hints": False, "overlay": {}, "paused": False}
            )
            self._first = False
        return out


def _bot_help() -> dict[str, str]:
    from .bots.registry import BOT_SUMMARIES

    return dict(BOT_SUMMARIES)


class DeepSeaTable:
    """A Deep Sea Adventure game at a served table.

    ``game`` is shared, not copied (a notebook keeps driving it from cells); ``seats`` is one
    ``"human"``, bot name or bot callable per seat; ``bot_seed`` seeds the bots (seat ``q``
    gets ``bot_seed + q``); ``pending``: the actions of the turn under way already played on
    ``game`` (a resumed table).
    """

    def __init__(
        self,
        game: Game,
        seats: Sequence[Any] | None = None,
        *,
        bot_seed: int | None = None,
        bot_delay_ms: int = 600,
        pending: Sequence[Any] | None = None,
    ) -> None:
        self._bot_seed = bot_seed
        self.bot_delay_ms = int(bot_delay_ms)
        self._screens: dict[int | None, SeatScreen] = {}
        self._bot_said: dict[int, str] = {}
        self._pending: list[Any] | None = []
        self._bots: dict[int, Bot] = {}
        self._labels: list[str] = []
        self.attach(game, seats)
        if pending is not None:  # resumed mid-turn: these actions were replayed already
            self._pending = list(pending)

    def attach(
        self, game: Game, seats: Sequence[Any] | None = None, bots: Mapping[int, Bot] | None = None
    ) -> None:
        """Play ``game`` from now on (a notebook's new game); ``seats`` as in the constructor,
        or ``bots`` (seat -> bot) with ``seats`` the labels."""
        n = len(game.players)
        specs = list(seats) if seats is not None else [HUMAN] * n
        if len(specs) != n:
            raise ValueError(f"seats: {len(specs)} given for {n} players")
        if bots is not None:
            self._bots = dict(bots)
            self._labels = [str(s) for s in specs]
        else:
            made = [
                _make_bot(s, None if self._bot_seed is None else self._bot_seed + q)
                for q, s in enumerate(specs)
            ]
            self._bots = {q: b for q, (b, _) in enumerate(made) if b is not None}
            self._labels = [label for _, label in made]
        if game is not getattr(self, "game", None):
            self._pending = [] if game.at_turn_boundary else None
            self._bot_said = {}
        self.game = game
        self._last_version = self.version()

    # ------------------------------------------------------------------ TableGame

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.players

    @property
    def seats(self) -> list[str]:
        return list(self._labels)

    @property
    def bot_names(self) -> list[str]:
        """The bots a seat may be given (the lobby offers them)."""
        from .bots import BOT_NAMES

        return list(BOT_NAMES)

    @property
    def bots(self) -> dict[int, Bot]:
        """The bot of each bot seat (a copy of the mapping)."""
        return dict(self._bots)

    def set_seat(self, seat: int, spec: Any) -> None:
        if not 0 <= seat < len(self._labels):
            raise ValueError(f"no seat {seat}")
        bot, label = _make_bot(spec, None if self._bot_seed is None else self._bot_seed + seat)
        if bot is None:
            self._bots.pop(seat, None)
        else:
            self._bots[seat] = bot
        self._labels[seat] = label

    def version(self) -> Hashable:
        g = self.game
        return (
            id(g),
            g.n_events,
            g.turn_number,
            g.step,
            g.current_player,
            g.air,
            g.breathed,
            tuple(self._labels),
        )

    @property
    def is_over(self) -> bool:
        return self.game.is_over

    @property
    def to_move(self) -> int | None:
        return None if self.game.is_over else self.game.current_player

    @property
    def turn_number(self) -> int:
        return self.game.turn_number

    @property
    def at_turn_boundary(self) -> bool:
        return self.game.at_turn_boundary

    def _track(self, action: Any) -> None:
        """Keep the actions of the turn under way (the dice with a roll)."""
        if self.game.at_turn_boundary:
            self._pending = []
        elif self._pending is not None:
            self._pending.append(action)

    def _in_sync(self, before: Hashable) -> None:
        # a change made elsewhere (a cell) mid-turn: the turn under way is no longer known
        if before != self._last_version:
            self._pending = [] if self.game.at_turn_boundary else None

    _last_version: Hashable = None

    def _act(self, do: Callable[[], Any]) -> Any:
        self._in_sync(self.version())
        out = do()
        self._last_version = self.version()
        return out

    def apply_intent(self, seat: int, message: Mapping[str, Any]) -> None:
        choice = message.get("choice")
        if not isinstance(choice, str) or not 0 < len(choice) <= _MAX_CHOICE_LEN:
            raise IntentError("malformed", "choice must be a short string")
        g = self.game
        if g.is_over:
            raise IntentError("illegal", "the game is over")
        if seat != g.current_player:
            raise IntentError("seat", "it is not your turn")
        if seat in self._bots:
            raise IntentError("seat", "a bot plays this seat")

        def do() -> None:
            try:
                g.apply(choice)
            except IllegalActionError as exc:
                raise IntentError("illegal", str(exc)) from None
            self._track(["roll", *g.last_dice] if choice == "roll" and g.last_dice else choice)

        self._act(do)

    def bot_due(self) -> bool:
        g = self.game
        return not g.is_over and g.current_player in self._bots

    def bot_step(self) -> None:
        from .bots import play_bot_move

        g = self.game
        seat = g.current_player
        if seat is None or seat not in self._bots:
            raise IntentError("seat", "no bot is to move")
        bot = self._bots[seat]
        step = g.step

        def do() -> None:
            played = play_bot_move(g, bot)
            self._track(["roll", *g.last_dice] if step == "roll" and g.last_dice else played)
            if step != "roll":
                self._bot_said[seat] = self._why(bot, played)

        self._act(do)

    def _why(self, bot: Any, played: str) -> str:
        # under reveal="owner" a bot's reasons may rest on its own banked values: say the choice only
        if self.game.setup.options.reveal != "public":
            return f"chose {played!r} (its reasons may rest on what only it knows)"
        text = bot.explain() if callable(getattr(bot, "explain", None)) else ""
        return str(text) or f"chose {played!r}"

    def screen(self, viewer: int | None, seq: int) -> dict[str, Any]:
        s = self._screens.get(viewer)
        if s is None:
            s = self._screens[viewer] = SeatScreen(viewer)
        return s.build(
            self.game, seats=self._labels, seq=seq, bot_said=self._bot_said, bot_delay=self.bot_delay_ms
        )

    def to_record(self) -> Mapping[str, Any]:
        return self.game.to_record()

    def pending(self) -> list[Any] | None:
        self._in_sync(self.version())
        self._last_version = self.version()
        return None if self._pending is None else list(self._pending)

    # ------------------------------------------------------------------ resuming

    @classmethod
    def resume(
        cls, record: Any, seats: Sequence[Any], pending: Sequence[Any] | None, **kwargs: Any
    ) -> DeepSeaTable:
        """The table of a record (its complete turns) and the turn under way (``pending``, as
        :meth:`pending` gave it), replayed with the same dice.  A seat played by a bot
        function (not a bot name) comes back as a human seat: give it its bot again with
        :meth:`set_seat`."""
        g = Game.from_record(record)
        for a in pending or ():
            if isinstance(a, list) and len(a) == 3 and a[0] == "roll":
                g.roll((int(a[1]), int(a[2])))
            elif isinstance(a, str):
                g.apply(a)
            else:
                raise ValueError(f"the turn under way holds an unknown action {a!r}")
        from .bots import BOT_NAMES

        # a seat a bot function played (its label is no bot name) comes back as a human's
        specs = [q if q == HUMAN or q in BOT_NAMES else HUMAN for q in seats]
        return cls(g, specs, pending=list(pending or []), **kwargs)
