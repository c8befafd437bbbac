"""The seat server's plug-in for every game on the platform: a :class:`~dsa_widget.server.table.
TableGame` over a :class:`~dsa_widget.core.session.Session`.

A game gives the server nothing of its own beyond its presenter (its registry entry names
it): every screen is the session's screen for that viewer, built from the viewer's view only;
intents go through the session's one table of intents, with its refusals; a failing bot
pauses the table and every screen says why, instead of stalling it.

>>> from dsa_widget.submarine import Game
>>> t = SessionTable(Game(["Ann", "Bob", "Cy"], seed=1), seats=["human", "random", "random"])
>>> t.seats, t.players
(['human', 'random', 'random'], ('Ann', 'Bob', 'Cy'))
>>> ann = t.screen(0, seq=1)["state"]
>>> ann["seat"], ann["hand"] == list(t.game.hand(0)), "hands" in ann
(0, True, False)
>>> t.screen(None, seq=1)["state"]["hand"] is None     # a spectator: public knowledge only
True
"""

from __future__ import annotations

import json
import os
from collections.abc import Hashable, Mapping, Sequence
from pathlib import Path
from typing import Any

from ..core.records import read_document
from ..core.registry import game_of
from ..core.session import HUMAN, OUTSIDE, Session
from .table import IntentError, resume_point

__all__ = ["SessionTable"]


class SessionTable:
    """A registered game at a served table.  ``game`` is shared, not copied; ``seats``: one
    ``"human"``, bot name or bot function per seat; ``bot_seed`` seeds the bots (seat ``q``
    gets ``bot_seed + q``); ``pending``: the actions of the turn under way when resuming."""

    def __init__(
        self,
        game: Any,
        seats: Sequence[Any] | None = None,
        *,
        bot_seed: int | None = None,
        bot_delay_ms: int = 600,
        pending: Sequence[Any] | None = None,
        session: Session | None = None,
    ) -> None:
        """``session``: serve a notebook board's own session (its game, seats and history):
        the board then shows what a spectator sees, and redraws as the table plays."""
        if session is not None:
            self.spec, self.session = session.spec, session
            session.serving()
        else:
            self.spec = game_of(game)
            presenter = self.spec.presenter_class()
            self.session = Session(
                game,
                seats=seats,
                viewer=None,
                bot_seed=bot_seed,
                presenter=None if presenter is None else presenter(),
            )
        with self.session.chance_held():  # the turn under way comes with its own outcomes
            for a in pending or ():
                self._replay(a)
        self.bot_delay_ms = int(bot_delay_ms)
        self._first: set[int | None] = set()

    def _replay(self, entry: Any) -> None:
        """One step of the turn under way, as :meth:`pending` wrote it: an action, or a chance
        outcome (``["roll", 3, 1]``: the chance word, then the outcome)."""
        g = self.session.game
        if isinstance(entry, list) and entry and entry[0] == g.CHANCE_ACTION and len(entry) >= 2:
            self.session.chance(entry[1] if len(entry) == 2 else tuple(entry[1:]))
        else:
            self.session.apply(entry)

    @property
    def bots(self) -> dict[int, Any]:
        """The bot of each bot seat (a copy of the mapping)."""
        return self.session.bots

    def attach(
        self, game: Any, seats: Sequence[Any] | None = None, bots: Mapping[int, Any] | None = None
    ) -> None:
        """A notebook's board hands the table its game: a new game (played from now on, the
        seats kept unless given) or the one served, changed from a cell (the change joins the
        history); ``seats``: the labels, with ``bots`` (seat -> bot) for the bot seats."""
        s = self.session
        if game is not s.live:
            s.restart(game)
        else:
            s.refresh()
        for q, label in enumerate(seats or ()):
            if bots is not None and q in bots:
                s.set_seat(q, bots[q], label=str(label))
            elif label == HUMAN or q not in s.bots or s.seats[q] != label:
                s.set_seat(q, label)

    # ------------------------------------------------------------------ TableGame

    @property
    def game(self) -> Any:
        return self.session.game

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.session.game.players)

    @property
    def bot_names(self) -> list[str]:
        return list(self.spec.bot_registry().names)

    @property
    def seats(self) -> list[str]:
        return self.session.seats

    def set_seat(self, seat: int, spec: Any) -> None:
        self.session.set_seat(seat, spec)
        if spec == HUMAN:
            self.session.resume()

    def version(self) -> Hashable:
        s = self.session
        # the board's hints switch too: its seats' screens carry the Chances panel or not
        return (s.generation, id(s.real), len(s.steps), s.paused, tuple(s.seats), s.hints)

    @property
    def is_over(self) -> bool:
        return bool(self.session.game.is_over)

    @property
    def to_move(self) -> int | None:
        return self.session.actor(self.session.game)

    @property
    def turn_number(self) -> int:
        return int(self.session.game.turn_number)

    @property
    def at_turn_boundary(self) -> bool:
        return bool(self.session.game.at_turn_boundary)

    def pending(self) -> list[Any] | None:
        """The actions of the turn under way (the sidecar keeps them, to resume mid-turn)."""
        g = self.session.game
        if g.at_turn_boundary:
            return []
        done: list[Any] = []
        frames = self.session.frames()
        before, after = frames[:-1], frames[1:]  # the state before and after each step
        steps = zip(reversed(self.session.steps), reversed(before), reversed(after), strict=False)
        for (_q, a), state, nxt in steps:
            if a is OUTSIDE:
                return None  # changed from a cell mid-turn: the turn under way is not known
            if a is None:
                outcome = self.session.hooks.outcome_of(state, nxt)
                if outcome is None:
                    return None  # the game cannot say what chance gave: the turn is not kept
                rest = list(outcome) if isinstance(outcome, (tuple, list)) else [outcome]
                done.append([g.CHANCE_ACTION, *rest])
            else:
                done.append(a)
            if state.at_turn_boundary:
                return list(reversed(done))
        return None

    def to_record(self) -> Mapping[str, Any]:
        return dict(self.session.game.to_record())

    def may_act(self, seat: int) -> bool:
        """Off its turn a human's seat may act where the game lets it (The Crew's communication
        in a ``free`` window)."""
        s = self.session
        if s.game.is_over or seat in s.bots or seat in s.fixed_seats:
            return False
        return bool(s.hooks.legal_for(s.game, seat))

    def apply_intent(self, seat: int, message: Mapping[str, Any]) -> None:
        if seat in self.session.bots:
            raise IntentError("seat", "a bot plays this seat")
        msg = {"type": "intent", "seq": self.session.seq, "choice": message.get("choice")}
        refusal = self.session.handle(msg, seat=seat)
        if refusal is not None:
            raise IntentError(refusal.kind, refusal.message)

    def deadline(self) -> float | None:
        """Seconds until the game acts by itself (a timed mission's clock), ``None``: never."""
        due = self.session.hooks.due(self.session)
        return None if due is None else max(0.0, float(due[0]))

    def on_deadline(self) -> None:
        """The time came: the game's own intent for it (a refusal, such as a clock that has
        not quite run out, changes nothing: the table asks again)."""
        due = self.session.hooks.due(self.session)
        if due is not None:
            self.session.handle({**due[1], "seq": self.session.seq}, seat=None)

    def bot_due(self) -> bool:
        return not self.session.paused and self.session.is_bot_turn()

    def bot_step(self) -> None:
        """One bot step; a failing bot changes nothing and the table pauses (its problem in
        words, the same for every game)."""
        self.session.bot_move()
        problem = self.session.problem
        if problem is not None:
            self.session.resume()  # the table holds the pause now, and lifts it
            raise IntentError("bot", str(problem["why"]))
        self.session.changed()

    def screen(self, viewer: int | None, seq: int) -> dict[str, Any]:
        """``viewer``'s model: the session's screen for that viewer (its view only), with the
        table's state number; the first call for a viewer adds the board's settings."""
        st = self.session.screen(viewer)
        if viewer is None or viewer in self.session.bots:
            st["legal"], st["can_act"], st["chance"] = [], False, None
        st["seq"] = seq
        out: dict[str, Any] = {"state": st, "paused": self.session.paused, "bot_delay": self.bot_delay_ms}
        first = viewer not in self._first
        if first:
            reg = self.spec.bot_registry()
            out.update(bot_names=[], bot_help=dict(reg.summaries), setup=None)
            self._first.add(viewer)
        return out

    # ------------------------------------------------------------------ resuming

    @classmethod
    def resume(
        cls,
        record: Any,
        seats: Sequence[Any],
        pending: Sequence[Any] | None = None,
        *,
        side: Mapping[str, Any] | None = None,
        **kwargs: Any,
    ) -> SessionTable:
        """The table of a record this server wrote (a path or the record), its seat labels and
        the actions of the turn under way (checked as they are replayed); a seat a bot function
        played (its label is no bot name) comes back as a human's.  ``side``: the sidecar the
        seats and actions come from; its ``turns`` is checked against the record's
        (:func:`~dsa_widget.server.table.resume_point`: a crash between the record's write and
        the sidecar's replays nothing twice)."""
        if isinstance(record, (str, os.PathLike)):
            record = json.loads(Path(record).read_text(encoding="utf-8"))
        doc = read_document(record)
        from ..core.records import formats

        spec = formats().get(str(doc.get("format")))
        if spec is None:
            raise ValueError("not a record of a registered game")
        g = spec.from_record(doc)
        if side is not None:
            pending = resume_point(side, int(g.turn_number))
        names = set(spec.bot_registry().names)
        specs = [s if s == HUMAN or s in names else HUMAN for s in seats]
        try:
            return cls(g, specs, pending=pending, **kwargs)
        except (ValueError, TypeError) as exc:
            raise ValueError(f"the table file's turn under way does not fit the record: {exc}") from None
