"""What one seat may know of a game of *The Crew* (CREW.md section 15): :class:`CrewView`.

A view is built by :meth:`dsa_widget.crew.rules.CrewGame.view` from public accessors only.  It
holds the seat's own hand, the hand sizes, Tonoja's face-up cards, the tasks with their owners
and statuses, the communications (under *currents* the true position only for the seat that
communicated; ``"unknown"`` for the others), the trick in progress, the revealed voids, the
distress cards only of the seat concerned, secret predictions only for their owner (the captain
for Tonoja) until resolved.  ``to_dict()`` is what screens draw (docs/CREW_ENGINE.md).

The view object also keeps the *public* record a perfect-memory player has: every completed
trick (``all_tricks``; ``to_dict()`` shows them per ``trick_history_visibility``) and the
public actions (``public_history``: another seat's distress card is ``"give ?"``, a hidden
prediction ``"predict ?"``).  :meth:`CrewView.knowledge` turns this into the constraints on the
hidden cards and :meth:`CrewView.sample` draws a full game consistent with them.

>>> from dsa_widget.crew.rules import CrewGame
>>> g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1})
>>> v = g.view(0)
>>> v.hand[:3], v.hand_counts, v.to_dict()["hand"] == list(v.hand)
(('P1', 'P6', 'P8'), (10, 10, 10, 10), True)
>>> k = v.knowledge()            # 40 cards - seat 0's 10 - S4 (the captain's, seat 1)
>>> bin(k.pool).count("1"), k.slots
(29, (0, 9, 10, 10))
>>> g.view(None).hand is None
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .cards import ALL, DECK, NCARDS, SUIT_MASK, card
from .knowledge import Knowledge
from .mission import Mission
from .status import Trick

if TYPE_CHECKING:
    from .rules import CrewGame

__all__ = ["FORMAT", "CommView", "CrewView", "SeatView", "build_view", "sample_hands"]

FORMAT = "the-crew-deep-sea/view@1"
_SUITS = "PYBGS"
_COLOUR_OF = tuple(SUIT_MASK[DECK[c][0]] for c in range(NCARDS))


@dataclass(frozen=True)
class CommView:
    """A communication as the viewer sees it: ``position`` ``top`` / ``middle`` / ``bottom``, or
    ``unknown`` (currents, another seat's card); ``trick`` the window's trick; ``turn`` the
    index of the action in the history."""

    seat: int
    card: str
    position: str
    trick: int
    played: bool
    turn: int


@dataclass(frozen=True)
class CrewView:
    """What ``seat`` (None: a spectator) may know of a game at one moment."""

    seat: int | None
    players: tuple[str, ...]
    humans: tuple[int, ...]
    dummy: int | None
    seats: int
    tricks_total: int
    captain: int | None
    step: str
    to_move: int | None
    #: the seat whose turn it is (Tonoja's seat while the captain acts for it)
    acting_for: int | None
    legal: tuple[str, ...]
    hand: tuple[str, ...] | None
    hand_counts: tuple[int, ...]
    #: Tonoja's columns: (face-up card or None, number of face-down cards 0/1)
    dummy_columns: tuple[tuple[str | None, int], ...] | None
    #: (id, owner, status, prediction as the viewer may see it, progress card ids or None,
    #: True when a prediction is fixed but hidden from the viewer)
    tasks: tuple[tuple[int, int | None, str, int | None, tuple[str, ...] | None, bool], ...]
    task_ids: tuple[int, ...]
    tokens: tuple[str | None, ...]
    shared_tokens: int | None
    communication: str
    terrain: str | None
    communicated: tuple[CommView, ...]
    trick_number: int
    leader: int | None
    current_trick: tuple[tuple[int, int], ...]
    all_tricks: tuple[Trick, ...]
    tricks_won: tuple[int, ...]
    voids: tuple[tuple[str, ...], ...]
    #: per seat, the mask of the cards it played (public)
    played_by: tuple[int, ...]
    distress: Mapping[str, Any]
    distress_passed: bool
    distress_before: int
    timer: Mapping[str, Any] | None
    outcome: Mapping[str, Any] | None
    attempt: int
    reported_attempts: int
    mission: Mission
    options: Mapping[str, Any]
    public_history: tuple[tuple[int, str], ...]
    #: Tonoja's columns as dealt: (first face-up card, face-down card once turned up, else None)
    dummy_layout: tuple[tuple[str, str | None], ...]
    timed_arg: bool | None
    explicit_assignment: Mapping[int, int] | None
    comm_window: tuple[int, int]
    turn_number: int
    #: the task summaries and difficulties (public: the faces of the drawn task cards)
    task_faces: tuple[tuple[str, int], ...]
    #: at the end of a three-seat deal played to trick 13: the unplayed cards by seat (R-3.1,
    #: section 15 "unplayed three-seat card: no, until the end")
    unplayed: tuple[tuple[int, str], ...] = ()
    #: the proposal waiting for confirmations (step ``confirm``): task id -> seat, else None
    pending_proposal: Mapping[int, int] | None = None
    #: failed attempts of the mission declared unavoidable before this one (R-14.3)
    unavoidable_before: int = 0
    #: whether the deal was checked against the exceptions of R-6.10 (redealt until none applies).
    #: A setting, not something seen at the table, so views compare equal without it: a game
    #: rebuilt by ``CrewGame.from_view`` (whose deal is given, drawn with R-6.10 already
    #: applied) says False and looks the same to every seat.
    deal_check: bool = field(default=True, compare=False)

    # ------------------------------------------------------------------ JSON

    def to_dict(self) -> dict[str, Any]:
        """The JSON of docs/CREW_ENGINE.md.  Keys beyond the contract: ``acting_for`` (the seat on
        turn: Tonoja's while the captain acts for it), ``turn_number``, ``reported_attempts``,
        ``comm_window`` ([first, last] trick with a communication window), ``tasks[].prediction_hidden``
        (a secret prediction is fixed but not shown to this seat), ``distress.active`` (passed in
        this attempt), ``distress.given_to``, ``unplayed`` (after trick 13 of a three-seat
        deal: the card(s) left in hand, now public), ``pending_proposal`` (``{"task id": seat}``
        waiting for confirmations, else null) and ``timer.started_at_action`` (the number of
        actions applied when the clock started, null before)."""
        vis_all = self.options.get("trick_history_visibility") == "all"
        last = self.all_tricks[-1] if self.all_tricks else None
        trick = None
        if self.trick_number and self.outcome is None or self.current_trick:
            trick = {
                "number": self.trick_number,
                "leader": self.leader,
                "plays": [{"seat": s, "card": DECK[c]} for s, c in self.current_trick],
            }
        opts = {k: (list(v) if isinstance(v, tuple) else v) for k, v in self.options.items()}
        return {
            "format": FORMAT,
            "seat": self.seat,
            "players": list(self.players),
            "humans": list(self.humans),
            "dummy": self.dummy,
            "seats": self.seats,
            "tricks_total": self.tricks_total,
            "captain": self.captain,
            "step": self.step,
            "to_move": self.to_move,
            "acting_for": self.acting_for,
            "legal": list(self.legal),
            "hand": None if self.hand is None else list(self.hand),
            "hand_counts": list(self.hand_counts),
            "dummy_columns": (
                None if self.dummy_columns is None else [{"up": u, "down": d} for u, d in self.dummy_columns]
            ),
            "tasks": [
                {
                    "id": tid,
                    "summary": self.task_faces[i][0],
                    "difficulty": self.task_faces[i][1],
                    "owner": owner,
                    "status": status,
                    "prediction": pred,
                    "prediction_hidden": hidden,
                    "progress": None if prog is None else list(prog),
                }
                for i, (tid, owner, status, pred, prog, hidden) in enumerate(self.tasks)
            ],
            "tokens": list(self.tokens),
            "shared_tokens": self.shared_tokens,
            "communication": self.communication,
            "terrain": self.terrain,
            "communicated": [
                {"seat": c.seat, "card": c.card, "position": c.position, "trick": c.trick, "played": c.played}
                for c in self.communicated
            ],
            "trick": trick,
            "last_trick": None if last is None else _trick_dict(last),
            "tricks": [_trick_dict(t) for t in self.all_tricks] if vis_all else [],
            "tricks_won": list(self.tricks_won),
            "voids": [list(v) for v in self.voids],
            "distress": dict(self.distress),
            "timer": None if self.timer is None else dict(self.timer),
            "outcome": None if self.outcome is None else dict(self.outcome),
            "attempt": self.attempt,
            "reported_attempts": self.reported_attempts,
            "mission": self.mission.to_dict(),
            "options": opts,
            "comm_window": list(self.comm_window),
            "turn_number": self.turn_number,
            "unplayed": [{"seat": s, "card": c} for s, c in self.unplayed],
            "pending_proposal": (
                None
                if self.pending_proposal is None
                else {str(t): s for t, s in self.pending_proposal.items()}
            ),
        }

    # ------------------------------------------------------------------ knowledge

    def knowledge(self) -> Knowledge:
        """The public constraints on the hidden cards from this seat (CREW.md section 15):
        the pool of cards whose holder is unknown, each seat's number of pool cards, the cards
        known per seat (own hand, Tonoja's face-up cards, S4 with the captain until played,
        communicated cards not yet played, the card this seat passed in distress), the allowed
        masks (revealed voids; under normal communication: a *top* card means no unknown
        higher card of that colour in that hand, *bottom* no lower one, *middle* no other one),
        under currents the alternatives "no higher" or "no lower" (narrowed to one when the
        seat's later plays or known cards rule the other out), and with the forced token
        position the requirements (a *top* card had a lower one beside it: unless the seat has
        played or shown one since, it holds one of the unknown lower cards; *bottom* likewise),
        and the deal exceptions of R-6.10 as forbidden sets (no hand was dealt a set that makes
        a drawn task impossible: the engine redeals such a deal).  After a distress pass the
        hands are no longer the dealt ones and cards moved by the players' choice; R-6.10 is
        then left out (as are the choices themselves, here and everywhere in the model)."""
        n = self.seats
        if self.step == "timing":  # nothing is dealt yet: nothing to know
            zero = (0,) * n
            return Knowledge(seats=n, viewer=self.seat, pool=0, slots=zero, known=zero, allowed=zero)
        played = 0
        for m in self.played_by:
            played |= m
        unplayed = ALL & ~played
        me = self.seat if self.seat is not None and self.seat != self.dummy else None
        known = [0] * n
        if me is not None and self.hand is not None:
            for cid in self.hand:
                known[me] |= 1 << card(cid)
        if self.dummy is not None and self.dummy_columns is not None:
            for u, _ in self.dummy_columns:
                if u is not None:
                    known[self.dummy] |= 1 << card(u)
        s4 = card("S4")
        if self.captain is not None and unplayed >> s4 & 1:
            known[self.captain] |= 1 << s4
        for cm in self.communicated:
            if not cm.played:
                known[cm.seat] |= 1 << card(cm.card)
        given_to = self.distress.get("given_to")
        given = self.distress.get("given")
        if me is not None and given is not None and given_to is not None and self.distress_passed:
            g = card(given)
            if unplayed >> g & 1:
                known[given_to] |= 1 << g
        allk = 0
        for m in known:
            allk |= m
        pool = unplayed & ~allk
        slots = tuple(max(0, self.hand_counts[s] - bin(known[s]).count("1")) for s in range(n))
        allowed = [pool if slots[s] else 0 for s in range(n)]
        for s in range(n):
            if s == self.dummy:
                continue
            for su in _SUITS:
                if su in self.voids[s]:
                    allowed[s] &= ~SUIT_MASK[su]
        alternatives: list[tuple[int, tuple[int, ...]]] = []
        requires: list[tuple[int, int]] = []
        currents = self.communication == "currents"
        forced = self.options.get("token_position", "forced") == "forced"
        for cm in self.communicated:
            s = cm.seat
            if s == me:
                continue
            c = card(cm.card)
            colour = _COLOUR_OF[c]
            above = colour & ~((2 << c) - 1)
            below = colour & ((1 << c) - 1)
            pos = cm.position
            # what the seat held of the colour at the time beyond the pool: later plays, known cards
            later = 0
            for t in self.all_tricks:
                if t.number >= cm.trick:
                    for ps, pc in t.plays:
                        if ps == s:
                            later |= 1 << pc
            for ps, pc in self.current_trick:
                if ps == s:
                    later |= 1 << pc
            seen = (later | known[s]) & colour & ~(1 << c)
            if forced and not currents and pos in ("top", "bottom"):
                # forced: *top* is not *middle*, so the seat held a lower card then (and
                # still holds one, unless it has played or shown one since); *bottom*: a higher one
                side = below if pos == "top" else above
                if not seen & side:
                    requires.append((s, side & pool))
            if pos == "unknown" or currents:
                if seen & above:
                    allowed[s] &= ~below
                elif seen & below:
                    allowed[s] &= ~above
                else:
                    alternatives.append((s, (above & pool, below & pool)))
            elif pos == "top":
                allowed[s] &= ~above
            elif pos == "bottom":
                allowed[s] &= ~below
            else:
                allowed[s] &= ~(above | below)
        return Knowledge(
            seats=n,
            viewer=self.seat,
            pool=pool,
            slots=slots,
            known=tuple(known),
            allowed=tuple(allowed),
            alternatives=tuple(alternatives),
            requires=tuple(requires),
            forbids=self._forbids(known, pool),
        )

    def _forbids(self, known: list[int], pool: int) -> tuple[tuple[int, int], ...]:
        """R-6.10 as constraints on the pool: per seat and per set of a drawn task's row, the
        pool cards of the set the seat would also need to have been dealt the whole set (none
        when a card of the set is played or known elsewhere: it was never the seat's)."""
        if not self.deal_check or self.distress_passed:
            return ()
        from .draw import DEAL_EXCEPTIONS

        out: list[tuple[int, int]] = []
        for tid in dict.fromkeys(self.task_ids):
            for m in DEAL_EXCEPTIONS.get(tid, ()):
                for s in range(self.seats):
                    mine = self.played_by[s] | known[s]
                    rest = m & ~mine
                    if rest & ~pool or not rest:
                        continue  # a card elsewhere (or, in a state the engine never deals, none left)
                    out.append((s, rest))
        return tuple(dict.fromkeys(out))

    # ------------------------------------------------------------------ sampling

    def sample(self, rng: random.Random) -> CrewGame:
        """A full game consistent with this view (a determinization), drawn with ``rng`` only:
        the hidden cards from :func:`dsa_widget.crew.knowledge.sample_deal` when it exists (exact
        uniform), else from :func:`sample_hands` (rejection with backtracking-free restarts),
        then :meth:`CrewGame.from_view` rebuilds the deal and replays the public history."""
        from . import knowledge as kmod
        from .rules import CrewGame

        k = self.knowledge()
        sampler = getattr(kmod, "sample_deal", None)
        extra = sampler(k, rng) if sampler is not None else sample_hands(k, rng)
        hands = [k.known[s] | int(extra[s]) for s in range(self.seats)]
        return CrewGame.from_view(self, hands, rng)


@dataclass(frozen=True)
class SeatView(CrewView):
    """A :class:`CrewView` of a seat (not a spectator): ``seat`` is an int, as the package's
    :class:`~dsa_widget.core.protocol.GameView` has it."""

    seat: int


def _trick_dict(t: Trick) -> dict[str, Any]:
    return {
        "number": t.number,
        "leader": t.leader,
        "plays": [{"seat": s, "card": DECK[c]} for s, c in t.plays],
        "winner": t.winner,
    }


def sample_hands(k: Knowledge, rng: random.Random, *, tries: int = 100_000) -> tuple[int, ...]:
    """A deal of the pool consistent with ``k`` (per seat, the mask of its pool cards): cards in
    order of fewest possible seats, each to a seat drawn with weight = its free slots; a dead end,
    a broken alternative, an unmet requirement or a forbidden set restarts.  Close to uniform,
    not exactly (the exact sampler is ``knowledge.sample_deal``).  Raises ValueError when no
    consistent deal is found."""
    n = k.seats
    cards = [c for c in range(NCARDS) if k.pool >> c & 1]
    choices = {c: [s for s in range(n) if k.allowed[s] >> c & 1] for c in cards}
    for _ in range(tries):
        order = sorted(cards, key=lambda c: (len(choices[c]), rng.random()))
        left = list(k.slots)
        out = [0] * n
        ok = True
        for c in order:
            seats = [s for s in choices[c] if left[s] > 0]
            if not seats:
                ok = False
                break
            s = seats[0] if len(seats) == 1 else rng.choices(seats, weights=[left[s] for s in seats])[0]
            out[s] |= 1 << c
            left[s] -= 1
        if not ok or any(left):
            continue
        if (
            all(any(not (out[s] & m) for m in masks) for s, masks in k.alternatives)
            and all(out[s] & m for s, m in k.requires)
            and not any(out[s] & m == m for s, m in k.forbids)
        ):
            return tuple(out)
    raise ValueError("no deal consistent with the knowledge was found")


def build_view(game: CrewGame, seat: int | None) -> CrewView:
    """The view of ``seat`` (None: a spectator; a seat's view is a :class:`SeatView`); see
    :class:`CrewView`."""
    n = game.seats
    me = seat if seat is not None and seat != game.dummy else None
    dealt = game.step != "timing"
    over = game.is_over
    tasks = _task_rows(game, seat, game.options["show_task_progress"] == "on")
    comms = _comm_rows(game, me)
    dcols = _dummy_columns(game, dealt)
    distress = _distress(game, me)
    m = game.mission
    timer = _timer(game)
    out = game.outcome
    to_move = None if over else game.to_move
    legal = game.legal_actions_for(seat) if seat is not None and not over else ()
    table = game.table
    faces = tuple((table[t].summary, table[t].difficulty_for(n)) for t in game.task_ids)
    unplayed: tuple[tuple[int, str], ...] = ()
    if over and len(game.tricks) == game.tricks_total and n == 3:
        unplayed = tuple((s, c) for s in range(n) for c in game.hand(s))
    cls = CrewView if seat is None else SeatView
    return cls(
        seat=seat,  # type: ignore[arg-type]
        players=game.players,
        humans=game.humans,
        dummy=game.dummy,
        seats=n,
        tricks_total=game.tricks_total,
        captain=game.captain if dealt else None,
        step=game.step,
        to_move=to_move,
        acting_for=game.acting_for,
        legal=legal,
        hand=tuple(game.hand(me)) if me is not None and dealt and game.dummy != me else None,
        hand_counts=game.hand_counts,
        dummy_columns=dcols,
        tasks=tuple(tasks),
        task_ids=game.task_ids,
        tokens=game.tokens,
        shared_tokens=game.shared_tokens,
        communication=game.communication,
        terrain=game.terrain,
        communicated=comms,
        trick_number=game.trick_number,
        leader=game.leader if game.trick_number else None,
        current_trick=game.current_trick,
        all_tricks=game.tricks,
        tricks_won=game.tricks_won,
        voids=game.voids,
        played_by=game.played_by,
        distress=distress,
        distress_passed=game.distress_this_attempt,
        distress_before=game.distress_before,
        timer=timer,
        outcome=None if out is None else out.as_dict(),
        attempt=game.attempt,
        reported_attempts=game.reported_attempts,
        mission=m,
        options=game.options,
        public_history=game.public_history(seat),
        dummy_layout=game.dummy_layout if dealt else (),
        timed_arg=game.timed_arg,
        explicit_assignment=game.explicit_assignment,
        comm_window=game.comm_window,
        turn_number=game.turn_number,
        task_faces=faces,
        unplayed=unplayed,
        pending_proposal=game.pending_proposal,
        unavoidable_before=game.unavoidable_before,
        deal_check=game.deal_check,
    )


# The parts of a view that :func:`build_view` and :func:`encoding_view` both build (one way)


def _task_rows(game: CrewGame, seat: int | None, progress: bool) -> tuple[Any, ...]:
    rows = []
    for i, ts in enumerate(game.tasks):
        # a task with no prediction shows none and hides none: its visibility is not asked
        vis = ts.prediction is None or game.secret_prediction_visible(i, seat)
        pred = ts.prediction if vis else None
        prog = tuple(game.progress(i)) if progress else None
        rows.append((ts.id, ts.owner, ts.status, pred, prog, ts.prediction is not None and not vis))
    return tuple(rows)


def _comm_rows(game: CrewGame, me: int | None) -> tuple[CommView, ...]:
    comms = game.communications
    if not comms:
        return ()
    currents = game.communication == "currents"
    played_all = 0
    for pm in game.played_by:
        played_all |= pm
    return tuple(
        _comm_view(
            c.seat,
            c.card,
            (c.position if c.seat == me else "unknown") if currents else c.declared,
            c.trick,
            bool(played_all >> c.card & 1),
            c.turn,
        )
        for c in comms
    )


#: the CommView of each row made so far, by its values (a frozen CommView costs about 2 us to
#: make, and a communication's row stays the same from one position to the next); bounded
_COMM_VIEWS: dict[tuple[int, int, str, int, bool, int], CommView] = {}


def _comm_view(seat: int, c: int, position: str, trick: int, played: bool, turn: int) -> CommView:
    key = (seat, c, position, trick, played, turn)
    row = _COMM_VIEWS.get(key)
    if row is None:
        if len(_COMM_VIEWS) > 4096:
            _COMM_VIEWS.clear()
        row = _COMM_VIEWS[key] = CommView(seat, DECK[c], position, trick, played, turn)
    return row


def _dummy_columns(game: CrewGame, dealt: bool) -> Any:
    if game.dummy is not None and dealt:
        return tuple((u, 0 if d is None else 1) for u, d in game.dummy_columns)
    return None


def _distress(game: CrewGame, me: int | None) -> dict[str, Any]:
    given, received = game.distress_cards(me) if me is not None else (None, None)
    given_to = game.distress_receiver(me) if me is not None and given is not None else None
    return {
        "available": game.distress_open,
        "used": game.distress_used,
        "active": game.distress_this_attempt,
        "direction": game.distress_direction,
        "given": given,
        "given_to": given_to,
        "received": received,
    }


def _timer(game: CrewGame) -> dict[str, Any] | None:
    m = game.mission
    if m.timer_seconds is not None and game.timed is not False:
        return {
            "seconds": m.timer_seconds,
            "started": game.timer_started,
            "started_at_action": game.timer_started_at,
            "timed": game.timed,
        }
    return None


@dataclass(slots=True)
class EncodingView:
    """The spectator's view reduced to what :meth:`CrewEncoding.observe_into` reads (see
    :func:`encoding_view`): the same values as :func:`build_view`'s for those fields (made
    once per position and not kept, so not frozen: a frozen dataclass's ``__init__`` sets each
    of these 28 fields through ``object.__setattr__``, which cost half its time)."""

    seat: None
    seats: int
    dummy: int | None
    captain: int | None
    step: str
    to_move: int | None
    acting_for: int | None
    tricks_total: int
    trick_number: int
    turn_number: int
    hand: None
    hand_counts: Any
    dummy_columns: Any
    played_by: Any
    current_trick: Any
    leader: int | None
    tricks_won: Any
    voids: Any
    tokens: Any
    shared_tokens: int | None
    communication: str
    comm_window: Any
    communicated: tuple[CommView, ...]
    tasks: tuple[Any, ...]
    distress: Mapping[str, Any]
    attempt: int
    timer: Mapping[str, Any] | None
    outcome: Mapping[str, Any] | None


def encoding_view(game: CrewGame) -> EncodingView:
    """A spectator's view with only the fields the encoding reads (no task progress, public
    history, task faces, legal actions...): what The Crew's observation tracker encodes once
    per position, at about a third of :func:`build_view`'s cost."""
    dealt = game.step != "timing"
    out = game.outcome
    # positional, in the class's field order (28 keywords cost four times as much)
    return EncodingView(
        None,  # seat
        game.seats,
        game.dummy,
        game.captain if dealt else None,  # captain
        game.step,
        None if game.is_over else game.to_move,  # to_move
        game.acting_for,
        game.tricks_total,
        game.trick_number,
        game.turn_number,
        None,  # hand
        game.hand_counts,
        _dummy_columns(game, dealt),
        game.played_by,
        game.current_trick,
        game.leader if game.trick_number else None,  # leader
        game.tricks_won,
        game.voids,
        game.tokens,
        game.shared_tokens,
        game.communication,
        game.comm_window,
        _comm_rows(game, None),  # communicated
        _task_rows(game, None, False),  # tasks
        _distress(game, None),
        game.attempt,
        _timer(game),
        None if out is None else out.as_dict(),  # outcome
    )
