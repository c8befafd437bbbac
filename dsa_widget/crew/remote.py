"""*The Crew* at a served table (:mod:`dsa_widget.server`): one screen per seat, its own hand only.

:class:`CrewTable` is the game's side of :class:`dsa_widget.server.table.TableGame`.  Every
screen is built from ``game.view(viewer).to_dict()`` and nothing else (plus the table's own
facts: the seat kinds, the state number): a seat's socket only ever receives its own hand, a
spectator's (and Tonoja's seat's) public knowledge only.  Intents are checked against the
rules (a seat plays only its own turn, the captain Tonoja's too); the bot seats are played by
the server; a seat whose only legal action is ``pass`` (a communication window with nothing to
say) passes at once, as in the notebook widget.

The served page draws the screen with the Crew front end (``bundle = "crew"``: the server
hands out ``static/crew.js`` as the page's board).

>>> from dsa_widget.crew.rules import CrewGame
>>> t = CrewTable(CrewGame(["Ann", "Bob", "Cy"], target=1, seed=1), seats=["human", "random", "random"])
>>> t.seats, t.players
(['human', 'random', 'random'], ('Ann', 'Bob', 'Cy'))
>>> ann, bob = t.screen(0, seq=1)["state"], t.screen(1, seq=1)["state"]
>>> ann["seat"], len(ann["hand"]) >= 13, set(ann["hand"]) & set(bob["hand"])   # each its own hand
(0, True, set())
>>> t.screen(None, seq=1)["state"]["hand"] is None     # a spectator: public knowledge only
True
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import GameError
from ..server.table import IntentError

if TYPE_CHECKING:
    from ..server.runner import Server
    from ..server.table import Table
    from .rules import CrewGame

__all__ = ["CrewTable", "make_crew_table", "serve_crew"]

HUMAN = "human"
TONOJA = "tonoja"
_MAX_CHOICE_LEN = 120
#: the most forced passes after one action (a window passes round the table at most once)
_MAX_AUTO = 64

Bot = Callable[[Any, tuple[str, ...]], Any]


class _RandomLegal:
    """The fallback bot (no bot package yet): a uniformly random legal action, seeded."""

    name = "random"

    def __init__(self, seed: int | None) -> None:
        self.rng = random.Random(seed)

    def __call__(self, view: Any, legal: tuple[str, ...]) -> str:
        return str(self.rng.choice(list(legal)))


def _bots_module() -> Any:
    try:
        from . import bots as mod
    except ImportError:  # pragma: no cover - the package is being written
        return None
    return mod


def bot_names() -> list[str]:
    """The bot names a served seat may take (``dsa_widget.crew.bots.BOT_NAMES``, and ``random``)."""
    mod = _bots_module()
    names = [str(n) for n in (getattr(mod, "BOT_NAMES", ()) or ())] if mod is not None else []
    if "random" not in names:
        names.append("random")
    return names


def _make_bot(spec: Any, seed: int | None) -> tuple[Bot | None, str]:
    """``(bot or None, label)`` for a seat: ``"human"``, a bot name or ``bot(view, legal)``."""
    if spec is None or spec == HUMAN:
        return None, HUMAN
    if callable(spec):
        label = getattr(spec, "name", None) or getattr(spec, "__name__", None) or type(spec).__name__
        return spec, str(label)
    names = bot_names()
    if not isinstance(spec, str) or spec not in names:
        raise ValueError(f"unknown bot {spec!r}; bots: {', '.join(names)} (or 'human')")
    mod = _bots_module()
    make = getattr(mod, "make_bot", None) if mod is not None else None
    if make is not None and spec in (getattr(mod, "BOT_NAMES", ()) or ()):
        return make(spec, seed=seed), spec
    return _RandomLegal(seed), spec


def _bot_help() -> dict[str, str]:
    mod = _bots_module()
    summaries = getattr(mod, "BOT_SUMMARIES", None) if mod is not None else None
    out = {str(k): str(v) for k, v in summaries.items()} if isinstance(summaries, Mapping) else {}
    out.setdefault("random", "plays a random legal action")
    return out


class CrewTable:
    """A game of *The Crew* at a served table.

    ``game`` (a :class:`~dsa_widget.crew.rules.CrewGame`) is shared, not copied; ``seats``: one
    ``"human"``, bot name or bot callable ``bot(view, legal) -> action`` per seat (Tonoja's seat,
    the dummy of the two-player game, is always the captain's: whatever is given for it);
    ``bot_seed`` seeds the bots (seat ``q`` gets ``bot_seed + q``).
    """

    #: the front end the served page draws this game with (``static/crew.js``, ``crew.css``)
    bundle = "crew"

    def __init__(
        self,
        game: CrewGame,
        seats: Sequence[Any] | None = None,
        *,
        bot_seed: int | None = None,
        bot_delay_ms: int = 600,
        auto_pass: bool = True,
    ) -> None:
        self.game = game
        self._bot_seed = bot_seed
        self.bot_delay_ms = int(bot_delay_ms)
        self.auto_pass = bool(auto_pass)
        n = int(game.seats)
        specs = list(seats) if seats is not None else [HUMAN] * n
        if len(specs) != n:
            raise ValueError(f"seats: {len(specs)} given for {n} seats")
        self._bots: dict[int, Bot] = {}
        self._labels: list[str] = [HUMAN] * n
        for q, spec in enumerate(specs):
            if q == game.dummy:
                self._labels[q] = TONOJA
            else:
                self.set_seat(q, spec)
        self._first: set[int | None] = set()
        self._sent_delay: dict[int | None, int] = {}
        self._auto()

    # ------------------------------------------------------------------ TableGame

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.game.players)

    @property
    def seats(self) -> list[str]:
        """Per seat ``"human"``, the bot's label or ``"tonoja"``."""
        return list(self._labels)

    @property
    def bot_names(self) -> list[str]:
        """The bots a seat may be given (the lobby offers them)."""
        return bot_names()

    def set_seat(self, seat: int, spec: Any) -> None:
        if not isinstance(seat, int) or not 0 <= seat < len(self._labels):
            raise ValueError(f"no seat {seat!r}")
        if seat == self.game.dummy:
            raise ValueError(f"seat {seat} is Tonoja's: the captain plays it")
        bot, label = _make_bot(spec, None if self._bot_seed is None else self._bot_seed + seat)
        if bot is None:
            self._bots.pop(seat, None)
        else:
            self._bots[seat] = bot
        self._labels[seat] = label

    def version(self) -> Hashable:
        return (id(self.game), self.game.turn_number, self.game.is_over, tuple(self._labels))

    @property
    def is_over(self) -> bool:
        return bool(self.game.is_over)

    @property
    def to_move(self) -> int | None:
        """The seat whose player acts (the captain while Tonoja is to play), None at the end."""
        g = self.game
        t = g.to_move
        if g.is_over or not isinstance(t, int) or t < 0:
            return None
        return int(g.captain) if g.dummy is not None and t == g.dummy else t

    @property
    def turn_number(self) -> int:
        return int(self.game.turn_number)

    @property
    def at_turn_boundary(self) -> bool:
        return True  # every action is one turn: the record is written after each

    def pending(self) -> list[Any] | None:
        return []

    def to_record(self) -> Mapping[str, Any]:
        return self.game.to_record()

    def may_act(self, seat: int) -> bool:
        """Off its turn a human seat may act only when the engine lets it (a communication in
        a ``communication_window="free"`` window)."""
        g = self.game
        if g.is_over or not 0 <= seat < len(self._labels) or self._labels[seat] != HUMAN:
            return False
        return bool(g.legal_actions_for(seat))

    def apply_intent(self, seat: int, message: Mapping[str, Any]) -> None:
        choice = message.get("choice")
        if not isinstance(choice, str) or not 0 < len(choice) <= _MAX_CHOICE_LEN:
            raise IntentError("malformed", "choice must be a short string (an action such as 'play P3')")
        g = self.game
        if g.is_over:
            raise IntentError("illegal", "the attempt is over")
        if seat != self.to_move and not self.may_act(seat):
            raise IntentError("seat", "it is not your turn")
        if seat in self._bots or self._labels[seat] != HUMAN:
            raise IntentError("seat", "a bot plays this seat")
        legal = tuple(str(a) for a in g.legal_actions_for(seat))
        proposing = seat == self.to_move and g.step == "propose" and choice.startswith("propose ")
        if choice not in legal and not proposing:
            raise IntentError("illegal", f"{choice[:40]!r} is not legal now")
        try:
            g.apply(choice, seat)
        except GameError as exc:
            raise IntentError("illegal", str(exc)) from None
        self._auto()

    def bot_due(self) -> bool:
        t = self.to_move
        return t is not None and t in self._bots

    def bot_step(self) -> None:
        g = self.game
        seat = self.to_move
        if seat is None or seat not in self._bots:
            raise IntentError("seat", "no bot is to move")
        legal = tuple(str(a) for a in g.legal_actions())
        choice = self._bots[seat](g.view(g.to_move), legal)
        if not isinstance(choice, str) or choice not in legal:
            # the table pauses and says so (dsa_widget.server.table), the same for every game
            raise IntentError("bot", "it answered an action that is not legal now")
        g.apply(choice)
        self._auto()

    def _auto(self) -> None:
        """Forced passes: a seat whose only legal action is ``pass`` passes at once."""
        if not self.auto_pass:
            return
        g = self.game
        for _ in range(_MAX_AUTO):
            if g.is_over or tuple(g.legal_actions()) != ("pass",):
                return
            g.apply("pass")

    def screen(self, viewer: int | None, seq: int) -> dict[str, Any]:
        """``viewer``'s model: ``state`` is ``game.view(viewer).to_dict()`` and the table's facts
        (seat kinds, seq, who acts); the first call for a viewer adds the board's settings."""
        g = self.game
        human = viewer is not None and self._labels[viewer] == HUMAN
        st = dict(g.view(viewer).to_dict())
        legal = [str(a) for a in st.get("legal") or ()] if human else []
        st.update(
            legal=legal,
            seq=seq,
            mode="real",
            kinds=list(self._labels),
            actor=self.to_move,
            can_act=bool(legal),
            fresh=viewer not in self._first,
            curtain=None,
            history=None,  # no scrubbing on a served table
            can_branch=False,  # no what-if either (the page sends intents only)
            clock=None,
            retry=[],
        )
        out: dict[str, Any] = {"state": st}
        if viewer not in self._first:
            out.update(
                {
                    "bot_names": [],
                    "bot_help": _bot_help(),
                    "paused": False,
                    "setup": None,  # no setup panel: the host sets the game up
                }
            )
            self._first.add(viewer)
        if self._sent_delay.get(viewer) != self.bot_delay_ms:
            out["bot_delay"] = self._sent_delay[viewer] = self.bot_delay_ms
        return out

    # ------------------------------------------------------------------ resuming

    @classmethod
    def resume(
        cls, record: Any, seats: Sequence[Any], pending: Sequence[Any] | None = None, **kwargs: Any
    ) -> CrewTable:
        """The table of a record this server wrote (a path or the record) and its seat labels;
        a seat a bot function played (its label is no bot name) comes back as a human's.
        ``pending`` is always empty: every action of The Crew is a turn of its record."""
        from .rules import CrewGame

        if isinstance(record, (str, os.PathLike)):
            record = json.loads(Path(record).read_text(encoding="utf-8"))
        if pending:
            raise ValueError("the table file holds a turn under way, which The Crew never has")
        g = CrewGame.from_record(record)
        names = bot_names()
        specs = [s if s == HUMAN or s in names else HUMAN for s in seats]
        return cls(g, specs, **kwargs)


# ---------------------------------------------------------------------- serving


def make_crew_table(source: Any = None, /, **kwargs: Any) -> Table:
    """:func:`dsa_widget.server.make_table` for Crew: a table from setup keywords (as
    ``CrewGame``), a ``CrewGame``, a ``Crew`` widget (its game and seats), a record, or
    ``resume=PATH``."""
    from ..server import make_table

    return make_table(source, game="crew", **kwargs)


def serve_crew(source: Any = None, /, **kwargs: Any) -> Server:
    """:func:`dsa_widget.server.serve` for Crew (``source`` may be a ``Crew`` widget).

    >>> srv = serve_crew(players=["Ann", "Bob", "Cy"], seats={2: "random"}, seed=1, target=1)
    >>> len(srv.seat_urls), srv.table.game.seats, srv.fill
    (3, ['human', 'human', 'random'], 'crewmate')
    >>> srv.stop()
    """
    from ..server import serve

    return serve(source, game="crew", **kwargs)
