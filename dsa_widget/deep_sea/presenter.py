"""Deep Sea Adventure on the platform's table: :class:`DeepSeaPresenter`, the game's part of a
:class:`~dsa_widget.core.session.Session`'s screen.

Each viewer's ``state`` holds the keys the Deep Sea front end (``js/widget.js``) draws, the
same as a served seat's screen was before the platform (``tests/deep_sea_served_reference.py``
checks it step by step): the board of
:func:`~dsa_widget.deep_sea.state.build_state`, the turn log and the round summaries masked
for that viewer, the events of the last step (for the animation) and what each bot said of its
choice (only the choice under ``reveal="owner"``: the reasons may rest on its own values).  The
log and the round book are kept per viewer and grow step by step, so a long game stays cheap;
they start afresh with a new game or an undo in the real game (``session.generation``).

The roll is the player's click (Deep Sea's chance word is ``"roll"``): the session waits for
it, and the acting seat's ``legal`` holds ``"roll"``.

>>> from dsa_widget.core.session import Session
>>> s = Session("deep_sea", presenter=DeepSeaPresenter(), seats={1: "random"},
...             players=["Ann", "Bob"], seed=1, options={"reveal": "owner"})
>>> st = s.screen(0)
>>> st["step"], st["legal"], st["chance"], st["seats"]
('roll', ['roll'], 'roll', ['human', 'random'])
>>> s.apply("roll"); s.screen(0)["events"][-1]["type"], s.labels(0)[-1].startswith("Ann rolls")
('move', True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from itertools import islice
from typing import Any, ClassVar
from weakref import ref

from ..core.errors import is_int
from ..core.protocol import CHANCE
from ..core.session import BasePresenter, ChanceOutcome, Refusal, Session
from .events import describe
from .rules import LAY_ALL
from .state import (
    LOG_TAIL,
    _visible_bank_seats,
    build_state,
    is_custom_path,
    known_values,
    mask_branch_event,
    mask_event,
    sentences,
    setup_summary,
)
from .summary import RoundBook

__all__ = ["DeepSeaPresenter"]

#: the log lines a step of the synced history carries (its screens stay small)
PAST_LOG_LINES = 3
#: what only the live game's screen needs
_LIVE_ONLY = ("summary", "seq")


class _ViewerLog:
    """One viewer's turn log, round book and latest summary of the real game, masked for that
    viewer and grown event by event."""

    __slots__ = ("at", "book", "log", "sent", "setup", "summary")

    def __init__(self, game: Any, viewer: int | None, reveal: bool) -> None:
        self.setup = game.setup
        self.log: list[str] = []
        #: ``at[k]``: the sentences told by the first ``k`` events (a past step's log)
        self.at: list[int] = [0]
        self.book = RoundBook()
        vis = _visible_bank_seats(game, viewer, reveal)
        masked = [mask_event(e, vis) for e in game.events]
        self._tell(masked, game.players)
        s = self._add(game, masked)
        self.summary: dict[str, Any] | None = s if s is not None and s["over"] else None
        self.sent = game.n_events

    def _tell(self, events: Sequence[Mapping[str, Any]], players: Sequence[str]) -> None:
        log, at = self.log, self.at
        for e in events:
            s = describe(e, players)
            if s:
                log.append(s)
            at.append(len(log))

    def _add(self, game: Any, events: list[dict[str, Any]]) -> dict[str, Any] | None:
        return self.book.add(
            events, game.players, path_length=game.path_length, tiebreak=game.setup.options.tiebreak
        )

    def catch_up(self, game: Any, viewer: int | None, reveal: bool, seq: int) -> None:
        """Take in the events since the last call (masked as the viewer may know them now)."""
        if game.n_events <= self.sent:
            return
        vis = _visible_bank_seats(game, viewer, reveal)
        new = [mask_event(e, vis) for e in game.events_since(self.sent)]
        self.sent = game.n_events
        self._tell(new, game.players)
        s = self._add(game, new)
        if s is not None:
            s["id"] = f"{s['id']}@{seq}"  # unique: a view shows each summary once
            self.summary = s

    def upto(self, n_events: int) -> list[str]:
        """The log as it was after the first ``n_events`` events."""
        return self.log[: self.at[min(n_events, len(self.at) - 1)]]

    def tail(self, n_events: int, k: int) -> tuple[list[str], int]:
        """The last ``k`` lines of :meth:`upto` and how many lines it has (a screen's log,
        without copying the whole log for every screen)."""
        n = self.at[min(n_events, len(self.at) - 1)]
        return self.log[max(0, n - k) : n], n


class _CountingMemo(dict[Any, Any]):
    """A memo of boards that counts the boards stored in it (built) on its presenter."""

    def __init__(self, owner: DeepSeaPresenter) -> None:
        super().__init__()
        self._owner = owner

    def __setitem__(self, key: Any, value: Any) -> None:
        self._owner.boards_built += 1
        super().__setitem__(key, value)


def _frame(line: Any, i: int) -> Any:
    """Frame ``i`` of a timeline (without copying the list of frames)."""
    return next(islice(line.frames(), i, None))


class DeepSeaPresenter(BasePresenter):
    """Deep Sea Adventure's screens, history words, comparison rows and "play again"."""

    #: the roll waits for its player's click (the session's ``chance`` is then ``"roll"``)
    auto_chance = False
    #: the screen's own log (``state.log``) tells the steps: the history's words stay in Python
    labels_sent = 0
    #: ``{"type": "roll", "seq": n, "dice": [1, 3]}``: chosen dice, in a what-if only
    INTENTS: ClassVar[Mapping[str, str]] = {"roll": "roll_dice"}

    def __init__(self) -> None:
        #: per viewer, or "all" when one log serves every viewer (see :meth:`_log_for`)
        self._logs: dict[int | str | None, _ViewerLog] = {}
        #: what the logs were built for: the real game object, the session's generation, reveal
        self._for: tuple[Any, int, bool] | None = None
        #: the session of the last screen (the comparison's rows mask by its real game)
        self._session: ref[Session] | None = None
        #: the boards of one state by the values shown (:func:`build_state`'s ``boards``): the
        #: screens of one change for several viewers build each distinct board once
        self._boards: tuple[Any, int, dict[Any, Any]] | None = None
        #: boards built (counted: a served table's viewers who know the same share one)
        self.boards_built = 0

    # ------------------------------------------------------------------ the table's rules

    def legal_for(self, state: Any, seat: int) -> tuple[str, ...]:
        """The seat to act's choices, ``("roll",)`` at a roll: the board's buttons."""
        if state.is_over or Session.actor(state) != seat:
            return ()
        return tuple(state.legal_choices())

    def replay_setup(self, state: Any, setup: Mapping[str, Any]) -> dict[str, Any]:
        """Play again: the same players, air, rounds, first player, options and a custom path;
        a fresh shuffle and fresh dice (no seed)."""
        s = state.setup
        return {
            "players": list(s.players),
            "air": s.air,
            "rounds": s.rounds,
            "first_player": s.first_player,
            "options": s.options.to_dict(),
            "path": [list(c) for c in s.path] if is_custom_path(s.path) else None,
        }

    def history_of(self, state: Any) -> tuple[Any, list[tuple[int, Any]]] | None:
        """A game loaded from a record: its start and every step of its turns (the rolls with
        their dice), so that its history can be scrubbed and branched from; ``None`` when it
        has no turns (or, never expected, when the steps do not give the record back)."""
        try:
            rec = state.to_record()
        except ValueError:  # a game made without its past (a what-if's draw, a bot's sample)
            return None
        turns = rec["turns"]
        if not turns:
            return None
        start = type(state).from_record({**rec, "turns": []})
        g = start.copy()
        steps: list[tuple[int, Any]] = []
        for turn in turns:
            n = g.turn_number
            while not g.is_over and g.turn_number == n:
                q = int(g.current_player)
                step = g.step
                if step == "roll":
                    dice = tuple(int(d) for d in turn["dice"])
                    g.apply_chance(dice)
                    steps.append((q, ChanceOutcome(dice)))
                    continue
                if step == "turn_back":
                    choice = "back" if turn.get("back") else "continue"
                elif step == "search":
                    s = turn.get("search", "none")
                    choice = f"drop {s['drop']}" if isinstance(s, Mapping) else str(s)
                else:  # sink: this seat's chips in the order the record names, else as picked up
                    order = turn.get("sink", {}).get(str(q))
                    laid = len(g.view(q).laying)
                    rest = None if order is None else list(order[laid:])
                    choice = LAY_ALL if not rest or rest == sorted(rest) else f"lay {rest[0]}"
                g.apply(choice)
                steps.append((q, choice))
        return (start, steps) if g.to_record() == rec else None

    def sample_for(self, state: Any, viewer: int | None, rng: random.Random) -> Any:
        """A what-if's first state: the values ``viewer`` does not know drawn again (a
        spectator: an onlooker's knowledge), fresh dice, and its events kept (the what-if's
        log and animations tell them)."""
        view = state.view(0, knower=None) if viewer is None else state.view(viewer)
        return view.sample(rng, events=True)

    def outcome_of(self, before: Any, after: Any) -> Any:
        """The dice of a roll (a served table resumes a turn under way with them)."""
        dice = after.last_dice
        return None if dice is None else (int(dice[0]), int(dice[1]))

    # ------------------------------------------------------------------ intents of its own

    def roll_dice(self, session: Session, msg: Mapping[str, Any], who: int | None) -> None:
        """What-if: roll chosen dice (``dice`` absent or null: the what-if's own draw)."""
        if not session.in_what_if:
            raise Refusal("illegal", "chosen dice are for trying things: open a what-if first")
        dice = msg.get("dice")
        if dice is not None and not (
            isinstance(dice, (list, tuple)) and len(dice) == 2 and all(is_int(d) for d in dice)
        ):
            raise Refusal("malformed", "dice must be two numbers, e.g. [1, 3]")
        g = session.shown
        if g.is_over or g.to_move != CHANCE:
            raise Refusal("illegal", "there is nothing to roll now")
        session.chance(None if dice is None else (int(dice[0]), int(dice[1])))

    # ------------------------------------------------------------------ words

    def label(self, before: Any, after: Any, seat: int | None, action: Any, viewer: int | None) -> str:
        """The step in the log's words, masked as the log is for ``viewer`` (a roll with its
        dice, a choice with what came of it)."""
        vis = _visible_bank_seats(after, viewer, False)
        said = sentences([mask_event(e, vis) for e in after.events_since(before.n_events)], after.players)
        if said:
            return "; ".join(s.rstrip(".") for s in said)
        q = before.current_player if seat is None else seat
        name = "" if q is None else str(before.players[q])
        return f"{name} rolled" if action is None else f"{name} chose {action}"

    def compare_row(self, name: str, state: Any, viewer: int | None) -> dict[str, Any]:
        """One row of the what-if comparison: round, air, scores (``None`` where a value is
        hidden: what the real game lets ``viewer`` know), banked chips and divers."""
        session = None if self._session is None else self._session()
        if session is not None and session.reveal:
            known = known_values(state, viewer, True)
        elif session is not None:
            known = known_values(session.real.current, viewer, False)
        else:
            known = known_values(state, viewer, False)
        v = state.view(0)
        n = len(v.players)
        return {
            "name": name,
            "round": v.round,
            "air": v.air,
            "over": v.finished,
            "scores": [state.scores[q] if all(c in known for c in v.banked[q]) else None for q in range(n)],
            "banked": [len(b) for b in v.banked],
            "divers": [
                {
                    "pos": v.positions[q],
                    "up": v.heading_up[q],
                    "home": v.returned[q],
                    "items": len(v.carrying[q]),
                }
                for q in range(n)
            ],
        }

    # ------------------------------------------------------------------ the screen

    def _log_for(self, session: Session, viewer: int | None) -> _ViewerLog:
        """``viewer``'s log of the real game, up to date (afresh for a new game or an undo)."""
        key = (session.live, session.generation, session.reveal)
        if self._for is None or key[0] is not self._for[0] or key[1:] != self._for[1:]:
            self._logs.clear()
            self._for = key
        real = session.real.current
        # the live game spells its events out now: the next step's frame (a copy of it)
        # borrows them and spells out only its own, instead of the whole game's every time
        _ = session.live.n_events
        # every viewer reads the same log when no value is masked in it, ever (the teacher's
        # switch, or values public by the setup's option): one log then serves them all
        shared = session.reveal or real.setup.options.reveal == "public"
        who: int | None | str = "all" if shared else viewer
        book = self._logs.get(who)
        if book is None or real.n_events < book.sent or real.setup is not book.setup:
            book = self._logs[who] = _ViewerLog(real, viewer, session.reveal)
        else:
            book.catch_up(real, viewer, session.reveal, session.seq)
        return book

    def log_for(self, session: Session, viewer: int | None) -> list[str]:
        """The whole turn log of the real game in words, as ``viewer`` may read it."""
        return list(self._log_for(session, viewer).log)

    def reasons_public(self, session: Session) -> bool:
        """A bot's reasons may rest on its own chips' values: shown when every seat knows them
        (``reveal="public"``), or at a teacher's table."""
        return bool(session.reveal or session.real.current.setup.options.reveal == "public")

    def screen(self, session: Session, state: Any, viewer: int | None) -> dict[str, Any]:
        """``viewer``'s board: :func:`build_state` of the state shown, with the log, the events
        of the last step, the summary and what the bots said (what the served page drew)."""
        self._session = ref(session)
        reveal = session.reveal
        book = self._log_for(session, viewer)
        mode = session.mode
        known: Mapping[int, int] | None = None
        summary: dict[str, Any] | None = None
        if mode == "whatif" and session.branch_line is not None and state is session.branch_line.current:
            line = session.branch_line
            # values only as the *real* game lets the viewer know them (a teacher's table: all)
            real = session.real.current
            known = known_values(state, viewer, True) if reveal else known_values(real, viewer)
            start = _frame(line, 0)
            at = line.index
            new = (
                [mask_branch_event(e, reveal) for e in state.events_since(_frame(line, at - 1).n_events)]
                if at > 0
                else []
            )
            origin = session.branch_from
            where = "now" if origin is None or origin == len(session.steps) else f"step {origin}"
            log = [f"What-if from {where}: the real game is untouched."] + sentences(
                [mask_branch_event(e, reveal) for e in state.events_since(start.n_events)], state.players
            )
            total = len(log)
        else:
            # the real game now, or a step of its past (the history's frames and scrubbing):
            # the events of that step, and the log as it stood then
            mode = mode if state is session.shown else "real"
            frames = session.frames()
            at = next((i for i in range(len(frames) - 1, -1, -1) if frames[i] is state), len(frames) - 1)
            vis = _visible_bank_seats(state, viewer, reveal)
            new = [mask_event(e, vis) for e in state.events_since(frames[at - 1].n_events)] if at > 0 else []
            log, total = book.tail(state.n_events, LOG_TAIL)
        st = build_state(
            state,
            seats=session.seats,
            seq=session.seq,
            reveal_all=reveal,
            viewer=viewer,
            new_events=new,
            log=log[-LOG_TAIL:],
            log_total=total,
            known=known,
            boards=self._boards_of(session, state),
        )
        if mode == "real" and state is session.real.current and book.summary is not None:
            summary = dict(book.summary)
            if summary["over"]:
                summary.update(
                    book.book.game_table(
                        state.players, st["scores"], st["winners"], state.setup.options.tiebreak
                    )
                )
        if mode == "whatif":  # a sampled what-if's own setup is made up: the real game's
            st["setup"] = setup_summary(session.real.current, reveal_all=reveal)
        st["mode"] = mode
        st["summary"] = summary
        return st

    def _boards_of(self, session: Session, state: Any) -> dict[Any, Any]:
        """The memo of ``state``'s boards (see :attr:`_boards`): kept while the screens show
        this very state at this state number, a new one for any other."""
        memo = self._boards
        if memo is None or memo[0] is not state or memo[1] != session.seq:
            memo = self._boards = (state, session.seq, _CountingMemo(self))
        return memo[2]

    def past_screen(self, session: Session, state: Any, viewer: int | None) -> dict[str, Any]:
        """A step of the history for a page with no kernel: the board with the last lines of
        the log (the whole log stays in Python: :meth:`log_for`)."""
        st = self.screen(session, state, viewer)
        for key in _LIVE_ONLY:
            st.pop(key, None)
        st["log"] = st["log"][-PAST_LOG_LINES:]
        return st
