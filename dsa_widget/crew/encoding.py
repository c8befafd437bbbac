"""*The Crew: Mission Deep Sea* as fixed-size numbers: one stable action numbering and one
observation vector of a seat's view.  The game registry names :class:`CrewEncoding`, so the
generic adapters serve The Crew as they serve every game (the PettingZoo environment
:func:`dsa_widget.adapters.pettingzoo.game_env` and the OpenSpiel game of
:mod:`dsa_widget.adapters.openspiel`); what only The Crew needs (its rewards, the seats that
are agents, its text and pixel pictures) it gives through the encoding's optional hooks
(:mod:`dsa_widget.core.encoding`).  Plain Python: it imports neither library.

**Actions** (``NUM_ACTIONS`` = 371 numbers, the same for every setup; ``c`` is a card int 0-39 in
deck order ``P1..P9 Y1..Y9 B1..B9 G1..G9 S1..S4``):

=========== ============================================ ==================================
numbers     action                                       step
=========== ============================================ ==================================
0 + c       ``play <card>``                              play
40 + c      ``comm <card>`` (the position is forced)     communicate / play (free window)
80 + 3c + p ``comm <card> top|middle|bottom`` (p 0/1/2)  ``token_position=any_true``
200         ``pass``                                     assign, communicate
200 + id    ``take <id>`` (task ids 1-96)                assign
297 + x     ``predict <x>`` (x 0-13)                     predict
311 - 315   ``distress cw``, ``distress ccw``,           distress, distress_vote
            ``no distress``, ``agree``, ``refuse``
316 + c     ``give <card>`` (coloured cards, c < 36)     distress_give
352, 353    ``timed``, ``untimed``                       timing
354         ``keep``                                     decide (captain_decides)
355 + s     ``give <s>`` (seat 0-4)                      decide
360, 361    ``accept``, ``decline``                      accept
362, 363    ``yes``, ``no``                              volunteer
364, 365    ``confirm``, ``reject``                      confirm
366 + s     ``propose`` every task to seat ``s``         propose (``one_owner`` only)
=========== ============================================ ==================================

A free proposal (allocation ``free``, or ``volunteers`` with two volunteers) names an owner for
every task: there are up to N^k of them, too many for a fixed numbering, so these allocations
are refused (:func:`check_supported`).  ``timeout`` is not a player's choice and has no number.

**Observation**: :meth:`CrewEncoding.observe` turns a :class:`~dsa_widget.crew.view.CrewView`
into ``OBSERVATION_SIZE`` floats (all >= 0), field by field as :data:`LAYOUT` says.  Seats are
*relative*: slot 0 is the observer, slot k the seat k places clockwise after it; slots of seats
the game does not have are zeros.  Only the view is read, so nothing the seat may not know can
enter it.  :func:`crew_text` draws the public table as text (the adapters' ``ansi`` picture),
:func:`dsa_widget.crew.picture.board_rgb` as pixels (``rgb_array``).

>>> from dsa_widget.crew.rules import CrewGame
>>> enc = CrewEncoding()
>>> enc.num_actions, enc.index("play P3"), enc.index("take 17"), enc.index("pass")
(371, 2, 217, 200)
>>> g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1})
>>> enc.decode(enc.index("distress cw"), g.task_ids)
'distress cw'
>>> obs = enc.observe(g.view(1))
>>> len(obs) == enc.observation_size, obs[enc.offset("my_turn")]
(True, 1.0)
>>> sum(obs[enc.offset("hand") : enc.offset("hand") + 40])        # seat 1's ten cards
10.0
"""

from __future__ import annotations

import functools
from collections.abc import MutableSequence, Sequence
from typing import Any

from ..core.encoding import EncodingError, Field
from ..crew.cards import DECK, NCARDS, card
from ..crew.view import encoding_view

__all__ = [
    "LAYOUT",
    "NUM_ACTIONS",
    "OBSERVATION_SIZE",
    "STEPS",
    "UNSUPPORTED_ALLOCATIONS",
    "CrewEncoding",
    "check_supported",
    "crew_text",
]

MAX_SEATS = 5
MAX_TRICKS = 13
_POS = ("top", "middle", "bottom")

PLAY0, COMM0, COMMPOS0, PASS, TAKE0 = 0, 40, 80, 200, 200
PREDICT0 = 297
DISTRESS_CW, DISTRESS_CCW, NO_DISTRESS, AGREE, REFUSE = 311, 312, 313, 314, 315
GIVECARD0 = 316
TIMED, UNTIMED, KEEP, GIVESEAT0, ACCEPT, DECLINE = 352, 353, 354, 355, 360, 361
YES, NO, CONFIRM, REJECT, PROPOSE0 = 362, 363, 364, 365, 366
NUM_ACTIONS = 371

#: allocations whose proposals have no fixed numbering (``volunteers`` only with 2 volunteers)
UNSUPPORTED_ALLOCATIONS = ("free",)


def _action_table() -> tuple[str, ...]:
    out = [""] * NUM_ACTIONS
    for c in range(NCARDS):
        out[PLAY0 + c] = f"play {DECK[c]}"
        out[COMM0 + c] = f"comm {DECK[c]}"
        for p, pos in enumerate(_POS):
            out[COMMPOS0 + 3 * c + p] = f"comm {DECK[c]} {pos}"
    out[PASS] = "pass"
    for tid in range(1, 97):
        out[TAKE0 + tid] = f"take {tid}"
    for x in range(MAX_TRICKS + 1):
        out[PREDICT0 + x] = f"predict {x}"
    fixed = {
        DISTRESS_CW: "distress cw",
        DISTRESS_CCW: "distress ccw",
        NO_DISTRESS: "no distress",
        AGREE: "agree",
        REFUSE: "refuse",
        TIMED: "timed",
        UNTIMED: "untimed",
        KEEP: "keep",
        ACCEPT: "accept",
        DECLINE: "decline",
        YES: "yes",
        NO: "no",
        CONFIRM: "confirm",
        REJECT: "reject",
    }
    for i, a in fixed.items():
        out[i] = a
    for c in range(36):
        out[GIVECARD0 + c] = f"give {DECK[c]}"
    for s in range(MAX_SEATS):
        out[GIVESEAT0 + s] = f"give {s}"
        out[PROPOSE0 + s] = f"propose all:{s}"
    assert all(out), "every number has an action"
    return tuple(out)


#: the action of every number (proposals as ``"propose all:<seat>"``; :meth:`CrewEncoding.decode`
#: spells them out for a game's tasks)
ACTIONS = _action_table()
_INDEX = {a: i for i, a in enumerate(ACTIONS)}

#: the step one-hot's order (``deal`` only in the OpenSpiel game, while the cards are dealt)
STEPS = (
    "deal",
    "timing",
    "assign",
    "propose",
    "confirm",
    "decide",
    "accept",
    "volunteer",
    "predict",
    "distress",
    "distress_vote",
    "distress_give",
    "communicate",
    "play",
    "over",
)
_COMM_MODES = ("normal", "currents", "rapture", "none")
_SUITS = "PYBGS"
_TASK_W = 12


def _layout() -> tuple[Field, ...]:
    k = MAX_SEATS
    rows: list[tuple[str, int, str]] = [
        ("seat", k, "one-hot: the observer's own seat (absolute; all 0 for a spectator)"),
        ("players", k, "1 for each relative slot the game has a seat for"),
        ("dummy", k, "1 at Tonoja's relative slot (two players)"),
        ("captain", k, "one-hot, relative slot of the captain (all 0 before the deal)"),
        ("step", len(STEPS), "one-hot: " + ", ".join(STEPS)),
        ("to_move", k, "one-hot, relative slot of the seat to act (the captain for Tonoja; 0 at the end)"),
        ("acting_for", k, "one-hot, relative slot whose turn it is (Tonoja's while the captain acts)"),
        ("my_turn", 1, "1 when the observer is to act"),
        ("tricks_total", 1, "tricks in the game, T"),
        ("trick_number", 1, "the trick in progress or about to start (0 before play)"),
        ("turn_number", 1, "actions applied so far"),
        ("hand", NCARDS, "1 for each card in the observer's hand (by card int)"),
        ("hand_counts", k, "cards in hand, by relative slot (Tonoja: face-up and face-down)"),
        ("dummy_up", NCARDS, "1 for each of Tonoja's face-up cards now"),
        ("dummy_down", 1, "Tonoja's face-down cards left"),
    ]
    rows += [(f"played.slot{j}", NCARDS, f"1 for each card relative slot {j} has played") for j in range(k)]
    rows += [
        (f"trick.slot{j}", NCARDS, f"one-hot: the card slot {j} played in the trick in progress")
        for j in range(k)
    ]
    rows += [
        ("leader", k, "one-hot, relative slot leading the trick in progress or about to start"),
        ("led_suit", 5, "one-hot P, Y, B, G, S: the suit led in the trick in progress"),
        ("tricks_won", k, "tricks won, by relative slot"),
    ]
    rows += [
        (f"void.slot{j}", 5, f"1 for each suit P, Y, B, G, S slot {j} showed it is void in") for j in range(k)
    ]
    rows += [
        ("token_available", k, "1 for a personal sonar token still available, by relative slot"),
        ("token_used", k, "1 for a personal sonar token used, by relative slot"),
        ("shared_tokens", 1, "shared tokens left in the pool (rapture of the deep)"),
        ("communication", len(_COMM_MODES), "one-hot: " + ", ".join(_COMM_MODES) + " (after terrain)"),
        ("comm_window", 2, "first and last trick before which communication is allowed"),
    ]
    rows += [
        (f"comm.slot{j}", NCARDS, f"1 for each card relative slot {j} has communicated") for j in range(k)
    ]
    rows += [
        ("comm_top", NCARDS, "1 for each communicated card shown as top"),
        ("comm_middle", NCARDS, "1 for each communicated card shown as middle (only card)"),
        ("comm_bottom", NCARDS, "1 for each communicated card shown as bottom"),
        ("comm_unknown", NCARDS, "1 for each communicated card whose position the observer does not know"),
        ("comm_trick", NCARDS, "the trick of the window each card was communicated in (0: not)"),
        (
            "tasks",
            96 * _TASK_W,
            f"{_TASK_W} floats per task id 1-96 (block id-1): drawn, owner slot 0-4 one-hot, done, "
            "failed, draw order (1-based), prediction known, prediction value, prediction fixed but hidden",
        ),
        ("distress_available", 1, "1 when the distress signal can be used in this attempt"),
        ("distress_used", 1, "1 once the distress signal was used in the mission"),
        ("distress_active", 1, "1 once the cards were passed in this attempt"),
        ("distress_direction", 2, "one-hot cw, ccw: the direction once set"),
        ("distress_given", NCARDS, "one-hot: the card the observer gave"),
        ("distress_received", NCARDS, "one-hot: the card the observer received"),
        ("distress_given_to", k, "one-hot, relative slot the observer's card went to"),
        ("attempt", 1, "the attempt number (1-based)"),
        ("timed", 1, "1 when the attempt is played with the timer"),
        ("timer_started", 1, "1 once the timer runs"),
        ("outcome", 2, "one-hot success, failure once the attempt is over"),
    ]
    out: list[Field] = []
    at = 0
    for name, size, meaning in rows:
        out.append(Field(name, at, size, meaning))
        at += size
    return tuple(out)


#: the observation's fields in order (name, offset, size, meaning), covering it exactly
LAYOUT = _layout()
OBSERVATION_SIZE = LAYOUT[-1].offset + LAYOUT[-1].size
_AT = {f.name: f.offset for f in LAYOUT}
# the offsets :meth:`CrewEncoding.observe_into` looks up per relative slot, suit and step
_PLAYED_AT = tuple(_AT[f"played.slot{j}"] for j in range(MAX_SEATS))
_TRICK_AT = tuple(_AT[f"trick.slot{j}"] for j in range(MAX_SEATS))
_VOID_AT = tuple(_AT[f"void.slot{j}"] for j in range(MAX_SEATS))
_COMM_AT = tuple(_AT[f"comm.slot{j}"] for j in range(MAX_SEATS))
_SUIT_INDEX = {su: i for i, su in enumerate(_SUITS)}
_STEP_INDEX = {st: i for i, st in enumerate(STEPS)}
_SEAT, _PLAYERS, _DUMMY, _CAPTAIN, _STEP = (_AT[k] for k in ("seat", "players", "dummy", "captain", "step"))
_TO_MOVE, _ACTING_FOR, _MY_TURN = _AT["to_move"], _AT["acting_for"], _AT["my_turn"]
_TRICKS_TOTAL, _TRICK_NUMBER, _TURN_NUMBER = _AT["tricks_total"], _AT["trick_number"], _AT["turn_number"]
_HAND, _HAND_COUNTS, _DUMMY_UP, _DUMMY_DOWN = (
    _AT["hand"],
    _AT["hand_counts"],
    _AT["dummy_up"],
    _AT["dummy_down"],
)
_LEADER, _LED_SUIT, _TRICKS_WON = _AT["leader"], _AT["led_suit"], _AT["tricks_won"]
_TOKEN_AVAILABLE, _TOKEN_USED, _COMM_WINDOW = _AT["token_available"], _AT["token_used"], _AT["comm_window"]
_COMM_UNKNOWN, _COMM_TRICK, _TASKS = _AT["comm_unknown"], _AT["comm_trick"], _AT["tasks"]
_COMM_POSITION_AT = {p: _AT[f"comm_{p}"] for p in _POS}
_DISTRESS_AVAILABLE, _ATTEMPT = _AT["distress_available"], _AT["attempt"]
assert _AT["distress_used"] == _DISTRESS_AVAILABLE + 1 and _AT["distress_active"] == _DISTRESS_AVAILABLE + 2
assert _AT["timed"] == _ATTEMPT + 1 and _AT["timer_started"] == _ATTEMPT + 2


def check_supported(allocation: str, volunteers: int = 1) -> None:
    """Raise ``ValueError`` for the allocations whose proposals the numbering cannot hold:
    ``free`` and ``volunteers`` with two volunteers (both make free proposals)."""
    if allocation in UNSUPPORTED_ALLOCATIONS or (allocation == "volunteers" and volunteers > 1):
        raise ValueError(
            f"allocation {allocation!r}"
            + (f" with {volunteers} volunteers" if allocation == "volunteers" else "")
            + " makes free proposals (an owner for every task), which have no fixed action numbering;"
            " the adapters support normal, captain_first_hardest, skip_captain, one_owner,"
            " captain_decides and volunteers with 1 volunteer"
        )


#: the PettingZoo environment's rewards, the default first: every agent gets the same
REWARDS = ("success", "signed")


class CrewEncoding:
    """The Crew's numbers (the same for every setup): see the module docstring.

    Built for a game (``CrewEncoding(game)``, as the registry's adapters do), it refuses the
    allocations whose proposals have no number (:func:`check_supported`) and knows the game's
    agents: its human seats (Tonoja, the dummy seat of a two-player game, is played by the
    captain and is no agent)."""

    num_actions = NUM_ACTIONS
    observation_size = OBSERVATION_SIZE
    layout = LAYOUT
    actions = ACTIONS
    reward_modes = REWARDS

    def __init__(self, state: Any = None) -> None:
        #: the seats that decide, in order (agent ``i`` is seat ``agent_seats[i]``); None: every seat
        self.agent_seats: tuple[int, ...] | None = None
        #: seats, tricks T and attempt number of the setup (for :meth:`bounds`; the largest
        #: setup's without a game)
        self._limits: tuple[int, int, int] = (3, MAX_TRICKS, 1)
        if state is not None:
            self._limits = (state.seats, state.tricks_total, state.attempt)
            mission = state.mission
            check_supported(mission.allocation, mission.volunteers)
            if state.options.get("unavoidable_failure_vote") == "on":
                raise ValueError(
                    "unavoidable_failure_vote='on' adds a step (failure_vote) that has no action"
                    " numbers or observation slot; the adapters support it 'off'"
                )
            self.agent_seats = tuple(state.humans)
            #: floats of :meth:`full_state`
            self.state_size = OBSERVATION_SIZE * len(self.agent_seats) + NCARDS

    def full_state(self, game: Any) -> list[float]:
        """The centralised training state: every agent's observation side by side, then 1 for
        each card in Tonoja's hand (face down too; all 0 without Tonoja), so every card's place.
        Hidden information: never an acting agent's input."""
        assert self.agent_seats is not None, "CrewEncoding(game) knows the agents"
        out: list[float] = []
        for q in self.agent_seats:
            out += self.observe(game.view(q))
        dummy = [0.0] * NCARDS
        if game.dummy is not None:
            for c in game.hand(game.dummy):
                dummy[card(c)] = 1.0
        return out + dummy

    def bounds(self) -> tuple[list[float], list[float]]:
        """Each feature's range in every state of the setup this encoding was built from (``S``
        seats, Tonoja's included, ``T`` tricks): every feature is ``>= 0``; one-hots and flags
        are at most 1; ``tricks_total``, ``trick_number``, ``tricks_won``, ``comm_window``,
        ``comm_trick`` and a task's prediction value at most ``T``; ``hand_counts`` and
        ``dummy_down`` at most ``ceil(40 / S)`` (the deal's largest hand; a distress pass gives
        one card for one); ``shared_tokens`` at most ``S - 2`` (the rapture pool); a task's
        draw order at most 96 (the task table); ``attempt`` the setup's attempt number.
        ``turn_number`` (actions applied) has no maximum: a proposal may be rejected again and
        again, so its high is ``inf`` (a learner's scaled feature is then 0).  Without a game:
        the largest setup (three seats, 13 tricks, attempt 1)."""
        seats, tricks, attempt = self._limits
        hand = -(-NCARDS // seats)
        high = [1.0] * OBSERVATION_SIZE

        def put(name: str, value: float, size: int | None = None) -> None:
            at = _AT[name]
            n = next(f.size for f in LAYOUT if f.name == name) if size is None else size
            high[at : at + n] = [float(value)] * n

        for name in ("tricks_total", "trick_number", "tricks_won", "comm_window", "comm_trick"):
            put(name, tricks)
        put("turn_number", float("inf"))
        put("hand_counts", hand)
        put("dummy_down", hand)
        put("shared_tokens", max(seats - 2, 0))
        put("attempt", attempt)
        for task in range(96):
            b = _AT["tasks"] + task * _TASK_W
            high[b + 8] = 96.0
            high[b + 10] = float(tricks)
        return [0.0] * OBSERVATION_SIZE, high

    def final_rewards(self, game: Any, mode: str) -> list[float]:
        """Every agent's reward once ``game`` is over: 1 on success; on failure 0
        (``"success"``) or -1 (``"signed"``)."""
        ok = game.outcome is not None and game.outcome.result == "success"
        r = 1.0 if ok else (-1.0 if mode == "signed" else 0.0)
        return [r] * len(game.humans)

    def render_text(self, game: Any) -> str:
        """The adapters' ``ansi`` picture: the public table (:func:`crew_text`)."""
        return crew_text(game)

    def render_rgb(self, game: Any) -> Any:
        """The adapters' ``rgb_array`` picture: the public table as pixels
        (:func:`~dsa_widget.crew.picture.board_rgb`)."""
        from .picture import board_rgb

        return board_rgb(game)

    def action(self, index: int) -> str:
        """The action with this number (a proposal as ``"propose all:<seat>"``)."""
        if not isinstance(index, int) or not 0 <= index < NUM_ACTIONS:
            raise EncodingError(f"action number {index!r} is out of range 0..{NUM_ACTIONS - 1}")
        return ACTIONS[index]

    def decode(self, index: int, task_ids: Sequence[int]) -> str:
        """The game action with this number for a game whose tasks are ``task_ids`` (draw order)."""
        a = self.action(index)
        if index >= PROPOSE0:
            s = index - PROPOSE0
            return "propose " + " ".join(f"{t}:{s}" for t in task_ids)
        return a

    def index(self, action: str) -> int:
        """The number of a game action (a proposal must give every task to one seat)."""
        i = _INDEX.get(action)
        if i is not None and i < PROPOSE0:
            return i
        if isinstance(action, str) and action.startswith("propose "):
            seats = {p.partition(":")[2] for p in action.split()[1:]}
            if len(seats) == 1:
                s = seats.pop()
                if s.isdigit() and int(s) < MAX_SEATS:
                    return PROPOSE0 + int(s)
            raise EncodingError(f"{action!r}: only proposals of every task to one seat have a number")
        raise EncodingError(f"{action!r} is not an action of The Crew")

    def mask(self, legal: Sequence[str]) -> list[int]:
        out = [0] * NUM_ACTIONS
        for a in legal:
            out[self.index(a)] = 1
        return out

    def offset(self, name: str) -> int:
        """Where field ``name`` starts."""
        return _AT[name]

    def tracker(self, game: Any, new_buffer: Any = None) -> CrewTracker:
        """A :class:`CrewTracker` of ``game``: every seat's :meth:`observe` with the
        seat-independent part built once per position (``new_buffer`` is accepted for the
        adapters' sake: the tracker's buffers are numpy float32 arrays)."""
        return CrewTracker(game)

    def observe(self, view: Any, origin: int | None = None) -> list[float]:
        """The observation of ``view`` (a :class:`~dsa_widget.crew.view.CrewView`), seats
        relative to ``origin`` (default: the view's seat; 0 for a spectator)."""
        buf = [0.0] * OBSERVATION_SIZE
        self.observe_into(view, buf, origin)
        return buf

    def observe_deal(
        self, seats: int, dummy: int | None, seat: int | None, cards: Sequence[int]
    ) -> list[float]:
        """The observation while the cards are being dealt (the OpenSpiel game's chance nodes):
        the seat slots, ``step`` = deal and the cards ``seat`` has received so far."""
        buf = [0.0] * OBSERVATION_SIZE
        me = 0 if seat is None else seat
        if seat is not None:
            buf[_AT["seat"] + seat] = 1.0
        for s in range(seats):
            buf[_AT["players"] + (s - me) % seats] = 1.0
        if dummy is not None:
            buf[_AT["dummy"] + (dummy - me) % seats] = 1.0
        buf[_AT["step"]] = 1.0
        for c in cards:
            buf[_AT["hand"] + c] = 1.0
        return buf

    def observe_into(self, view: Any, buf: MutableSequence[float], origin: int | None = None) -> None:
        """Write the observation of ``view`` into ``buf`` (which must be all zeros)."""
        n: int = view.seats
        seat = view.seat
        me: int = origin if origin is not None else (seat if seat is not None else 0)
        # a field's offset is a local (the tracker writes the shared part once per position)
        at = _AT
        if seat is not None:
            buf[_SEAT + seat] = 1.0
        for r in range(n):  # every seat's relative slot
            buf[_PLAYERS + r] = 1.0
        if view.dummy is not None:
            buf[_DUMMY + (view.dummy - me) % n] = 1.0
        if view.captain is not None:
            buf[_CAPTAIN + (view.captain - me) % n] = 1.0
        buf[_STEP + _STEP_INDEX[view.step]] = 1.0
        to_move = view.to_move
        if to_move is not None and 0 <= to_move < n:
            buf[_TO_MOVE + (to_move - me) % n] = 1.0
            if seat is not None and to_move == seat:
                buf[_MY_TURN] = 1.0
        if view.acting_for is not None:
            buf[_ACTING_FOR + (view.acting_for - me) % n] = 1.0
        buf[_TRICKS_TOTAL] = float(view.tricks_total)
        buf[_TRICK_NUMBER] = float(view.trick_number)
        buf[_TURN_NUMBER] = float(view.turn_number)
        if view.hand is not None:
            for cid in view.hand:
                buf[_HAND + card(cid)] = 1.0
        for s, k in enumerate(view.hand_counts):
            buf[_HAND_COUNTS + (s - me) % n] = float(k)
        if view.dummy_columns is not None:
            down = 0
            for u, d in view.dummy_columns:
                if u is not None:
                    buf[_DUMMY_UP + card(u)] = 1.0
                down += d
            buf[_DUMMY_DOWN] = float(down)
        for s, m in enumerate(view.played_by):
            b = _PLAYED_AT[(s - me) % n]
            while m:
                low = m & -m
                buf[b + low.bit_length() - 1] = 1.0
                m ^= low
        trick = view.current_trick
        for s, c in trick:
            buf[_TRICK_AT[(s - me) % n] + c] = 1.0
        if view.leader is not None:
            buf[_LEADER + (view.leader - me) % n] = 1.0
        if trick:
            c0 = trick[0][1]
            buf[_LED_SUIT + (c0 // 9 if c0 < 36 else 4)] = 1.0
        for s, k in enumerate(view.tricks_won):
            buf[_TRICKS_WON + (s - me) % n] = float(k)
        for s, vs in enumerate(view.voids):
            if vs:
                b = _VOID_AT[(s - me) % n]
                for su in vs:
                    buf[b + _SUIT_INDEX[su]] = 1.0
        for s, t in enumerate(view.tokens):
            if t == "available":
                buf[_TOKEN_AVAILABLE + (s - me) % n] = 1.0
            elif t == "used":
                buf[_TOKEN_USED + (s - me) % n] = 1.0
        if view.shared_tokens is not None:
            buf[at["shared_tokens"]] = float(view.shared_tokens)
        if view.communication in _COMM_MODES:
            buf[at["communication"] + _COMM_MODES.index(view.communication)] = 1.0
        first, last = view.comm_window
        buf[_COMM_WINDOW] = float(first)
        buf[_COMM_WINDOW + 1] = float(last)
        for cm in view.communicated:
            c = card(cm.card)
            buf[_COMM_AT[(cm.seat - me) % n] + c] = 1.0
            buf[_COMM_POSITION_AT.get(cm.position, _COMM_UNKNOWN) + c] = 1.0
            buf[_COMM_TRICK + c] = float(cm.trick)
        for order, (tid, owner, status, pred, _prog, hidden) in enumerate(view.tasks, start=1):
            b = _TASKS + (tid - 1) * _TASK_W
            buf[b] = 1.0
            if owner is not None:
                buf[b + 1 + (owner - me) % n] = 1.0
            if status == "done":
                buf[b + 6] = 1.0
            elif status == "failed":
                buf[b + 7] = 1.0
            buf[b + 8] = float(order)
            if pred is not None:
                buf[b + 9] = 1.0
                buf[b + 10] = float(pred)
            if hidden:
                buf[b + 11] = 1.0
        d = view.distress
        buf[_DISTRESS_AVAILABLE] = 1.0 if d.get("available") else 0.0
        buf[_DISTRESS_AVAILABLE + 1] = 1.0 if d.get("used") else 0.0
        buf[_DISTRESS_AVAILABLE + 2] = 1.0 if d.get("active") else 0.0
        if d.get("direction") in ("cw", "ccw"):
            buf[at["distress_direction"] + (0 if d["direction"] == "cw" else 1)] = 1.0
        if d.get("given") is not None:
            buf[at["distress_given"] + card(d["given"])] = 1.0
        if d.get("received") is not None:
            buf[at["distress_received"] + card(d["received"])] = 1.0
        if d.get("given_to") is not None:
            buf[at["distress_given_to"] + (d["given_to"] - me) % n] = 1.0
        buf[_ATTEMPT] = float(view.attempt)
        if view.timer is not None:
            buf[_ATTEMPT + 1] = 1.0 if view.timer.get("timed") else 0.0
            buf[_ATTEMPT + 2] = 1.0 if view.timer.get("started") else 0.0
        if view.outcome is not None:
            buf[at["outcome"] + (0 if view.outcome["result"] == "success" else 1)] = 1.0


def crew_text(game: Any) -> str:
    """The table as every player may see it (the spectator's view), as a few lines of text."""
    v = game.view(None)
    lines = [
        f"The Crew: Mission Deep Sea: step {v.step}, trick {v.trick_number}/{v.tricks_total}, "
        f"captain {v.captain}, to move {v.to_move}"
    ]
    for s in range(v.seats):
        tok = v.tokens[s]
        lines.append(
            f"  seat {s} {v.players[s]}: {v.hand_counts[s]} cards, {v.tricks_won[s]} tricks"
            + (f", token {tok}" if tok else "")
            + (f", void {''.join(v.voids[s])}" if v.voids[s] else "")
        )
    for tid, owner, status, pred, _prog, _hidden in v.tasks:
        p = "" if pred is None else f" (predicted {pred})"
        lines.append(f"  task {tid}: owner {owner}, {status}{p}")
    if v.communicated:
        lines.append(
            "  communicated: " + ", ".join(f"{c.seat}:{c.card} {c.position}" for c in v.communicated)
        )
    if v.dummy_columns is not None:
        lines.append("  Tonoja: " + " ".join(u or "--" for u, _ in v.dummy_columns))
    if v.current_trick:
        lines.append("  trick: " + " ".join(f"{s}:{DECK[c]}" for s, c in v.current_trick))
    if v.outcome is not None:
        lines.append(f"  outcome: {v.outcome['result']} ({v.outcome['cause']})")
    return "\n".join(lines)


#: the per-slot fields (name of slot 0, width of a slot): a seat's observation is the
#: seat-independent one (slots by absolute seat) with these rotated to the seat
_PER_SLOT = (
    ("players", 1),
    ("dummy", 1),
    ("captain", 1),
    ("to_move", 1),
    ("acting_for", 1),
    ("hand_counts", 1),
    ("played.slot0", NCARDS),
    ("trick.slot0", NCARDS),
    ("leader", 1),
    ("tricks_won", 1),
    ("void.slot0", 5),
    ("token_available", 1),
    ("token_used", 1),
    ("comm.slot0", NCARDS),
)


@functools.lru_cache(maxsize=32)
def _rotation(n: int, me: int) -> Any:
    """The index array taking the seat-independent observation (slots by absolute seat) to seat
    ``me``'s (slots relative to it); shared, read only."""
    import numpy as np

    perm = np.arange(OBSERVATION_SIZE)
    bases = [(_AT[name], width) for name, width in _PER_SLOT]
    bases += [(_AT["tasks"] + t * _TASK_W + 1, 1) for t in range(96)]  # each task's owner slots
    for base, width in bases:
        for r in range(n):
            q = (me + r) % n
            perm[base + width * r : base + width * (r + 1)] = range(base + width * q, base + width * (q + 1))
    return perm


@functools.lru_cache(maxsize=32)
def _rotation_lists(n: int, me: int) -> tuple[list[int], list[int]]:
    """:func:`_rotation` as a list, and its inverse (where each seat-independent entry goes in
    seat ``me``'s observation); shared, read only."""
    perm = _rotation(n, me)
    inv = perm.copy()
    inv[perm] = range(len(perm))
    return perm.tolist(), inv.tolist()


class CrewTracker:
    """Every seat's :meth:`CrewEncoding.observe` of one live game, fast: the same numbers.

    Once per position (a new action applied), the spectator's view (public only, the lean
    :func:`~dsa_widget.crew.view.encoding_view`) is encoded
    with slots by absolute seat; a seat's observation is that one with its slots rotated to the
    seat, plus what only that seat may know, read from the game for that seat alone: its seat
    and turn, its own hand, the secret predictions it may see, under *currents* the true
    positions of its own communications, and its distress cards.

    >>> import numpy as np
    >>> from dsa_widget.crew.rules import CrewGame
    >>> g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1})
    >>> enc = CrewEncoding()
    >>> t = enc.tracker(g)
    >>> all(np.array_equal(t.observe(s), np.float32(enc.observe(g.view(s)))) for s in range(4))
    True
    """

    def __init__(self, game: Any) -> None:
        import numpy as np

        self.game = game
        self._n: int = game.seats
        self._rot = [_rotation(self._n, me) for me in range(self._n)]
        self._common = np.zeros(OBSERVATION_SIZE, np.float32)
        self._floats: Any = memoryview(self._common.data)
        self._key: Any = None
        # the indices of the tasks whose prediction may be secret
        table = game.table
        self._secret = [i for i, t in enumerate(game.task_ids) if table[t].params.get("reveal") == "secret"]
        # per seat: (its hand's card mask, the hand's slots as an index array)
        self._hands: list[tuple[int, Any]] = [(-1, None)] * self._n
        self._slots = functools.partial(np.fromiter, dtype=np.intp)
        # for observe_list: the seat-independent observation as a list too, its version (one per
        # position it was worked out in) and the entries each new version changed (the last few)
        self._clist: list[float] | None = None
        self._version = 0
        self._log: dict[int, list[int]] = {}
        # per seat: (the version its list was brought to, the list, its own entries written over
        # the rotated seat-independent ones: index -> value); and each seat's rotation as ints
        self._lists: list[tuple[int, list[float], dict[int, float]] | None] = [None] * self._n
        # observe_list was asked (from then on each new position's changes are noted)
        self._listing = False

    def _refresh(self, key: Any) -> None:
        """Work out the seat-independent observation of this position (``key``); with lists kept,
        note which of its entries changed (a new version)."""
        old = self._common.copy() if self._listing else None
        self._common[:] = 0.0
        CrewEncoding().observe_into(encoding_view(self.game), self._floats, 0)
        self._key = key
        if old is not None:
            clist = self._clist
            if clist is None:  # made at the second position asked (a clone asked once needs none)
                clist = self._clist = old.tolist()
            now = self._common
            changed = (now != old).nonzero()[0]
            idx: list[int] = changed.tolist()
            for i, x in zip(idx, now[changed].tolist(), strict=True):
                clist[i] = x
            self._version += 1
            log = self._log
            log[self._version] = idx
            log.pop(self._version - _LOG, None)

    def observe(self, seat: int) -> Any:
        """``encoding.observe(game.view(seat))`` as a fresh float32 array."""
        g = self.game
        key = (g.turn_number, g.step, g.attempt)
        if key != self._key:
            self._refresh(key)
        # seat 0's slots are the absolute ones: a plain copy costs less than the gather
        out = self._common[self._rot[seat]] if seat else self._common.copy()
        for i, v in _own_head(g, seat, self._secret):
            out[i] = v
        if seat == g.dummy:
            return out
        if g.step != "timing":
            # the hand's slots as an index array, kept per seat while its hand is the same (one
            # seat's hand changes at a time): one numpy write instead of a Python loop per card
            m = g.hand_mask(seat)
            kept = self._hands[seat]
            if kept[0] != m:
                kept = self._hands[seat] = (m, self._slots(_bit_slots(m, _HAND)))
            out[kept[1]] = 1.0
        for i, v in _own_extras(g, seat, self._n):
            out[i] = v
        return out

    def observe_list(self, seat: int) -> list[float]:
        """:meth:`observe` as a fresh list of floats (the float32 values: every number is a small
        integer), what OpenSpiel's Python tensors are.  Each seat's list is kept and brought up
        to date where the position changed it: the seat-independent entries that changed since
        (rotated to the seat), then the seat's own entries (its hand, turn, secrets) written
        anew over them, with no array to compare or convert.

        >>> from dsa_widget.crew.rules import CrewGame
        >>> g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1})
        >>> t = CrewEncoding().tracker(g)
        >>> t.observe_list(2) == t.observe(2).tolist()
        True
        """
        g = self.game
        key = (g.turn_number, g.step, g.attempt)
        if key != self._key:
            self._refresh(key)
        self._listing = True
        mine = self._private(seat)
        kept = self._lists[seat]
        version = self._version
        out: list[float]
        if kept is None or version - kept[0] >= _LOG:
            out = self._common[self._rot[seat]].tolist() if seat else self._common.tolist()
            for j, x in mine.items():
                out[j] = x
        else:
            clist = self._clist
            if clist is None:  # the same position asked again, before any other
                clist = self._clist = self._common.tolist()
            rot, inv = _rotation_lists(self._n, seat)
            out = kept[1]
            if kept[0] != version:  # the shared entries changed since, unless the seat's own
                log = self._log
                get = mine.get
                for v in range(kept[0] + 1, version + 1):
                    for i in log[v]:
                        j = inv[i]
                        out[j] = get(j, clist[i])
            old = kept[2]
            if old != mine:
                for j in old:  # the seat's own entries of last time, back to the shared ones
                    if j not in mine:
                        out[j] = clist[rot[j]]
                for j, x in mine.items():
                    out[j] = x
        self._lists[seat] = (version, out, mine)
        return out[:]

    def _private(self, seat: int) -> dict[int, float]:
        """The entries of ``seat``'s observation written over the rotated seat-independent one
        (index -> value), in :meth:`observe`'s order: what only that seat may know."""
        g = self.game
        out: dict[int, float] = dict(_own_head(g, seat, self._secret))
        if seat == g.dummy:
            return out
        if g.step != "timing":
            m = g.hand_mask(seat)
            hand = _HAND_ENTRIES.get(m)
            if hand is None:
                if len(_HAND_ENTRIES) > 4096:
                    _HAND_ENTRIES.clear()
                hand = _HAND_ENTRIES[m] = dict.fromkeys(_bit_slots(m, _HAND), 1.0)
            out.update(hand)
        for i, v in _own_extras(g, seat, self._n):
            out[i] = v
        return out


def _own_head(g: Any, seat: int, secret: Any) -> list[tuple[int, float]]:
    """The entries that say which seat ``seat`` is, whether it is to move, and the secret
    predictions (of the tasks ``secret``) it may see and an onlooker may not, as (index, value)."""
    out = [(_SEAT + seat, 1.0)]
    if g.to_move == seat and not g.is_over:
        out.append((_MY_TURN, 1.0))
    for i in secret:
        if g.secret_prediction_visible(i, seat) and not g.secret_prediction_visible(i, None):
            ts = g.tasks[i]
            if ts.prediction is not None:
                b = _TASKS + (ts.id - 1) * _TASK_W
                out += ((b + 9, 1.0), (b + 10, float(ts.prediction)), (b + 11, 0.0))
    return out


def _own_extras(g: Any, seat: int, n: int) -> list[tuple[int, float]]:
    """The entries only ``seat`` sees of its own communications (their true positions, under
    the currents rule) and of the distress cards it gave and received, as (index, value)."""
    out: list[tuple[int, float]] = []
    if g.communication == "currents":
        for cm in g.communications:
            if cm.seat == seat and cm.position in _POS:
                out += ((_COMM_UNKNOWN + cm.card, 0.0), (_AT[f"comm_{cm.position}"] + cm.card, 1.0))
    given, received = g.distress_cards(seat)
    if given is not None:
        out.append((_AT["distress_given"] + card(given), 1.0))
        to = g.distress_receiver(seat)
        if to is not None:
            out.append((_AT["distress_given_to"] + (to - seat) % n, 1.0))
    if received is not None:
        out.append((_AT["distress_received"] + card(received), 1.0))
    return out


def _bit_slots(mask: int, base: int) -> Any:
    """``base + c`` for every card ``c`` of ``mask``, in order."""
    while mask:
        low = mask & -mask
        yield base + low.bit_length() - 1
        mask ^= low


#: the versions of the seat-independent observation whose changes a tracker keeps
#: (:meth:`CrewTracker.observe_list`: a seat that missed more is rebuilt whole)
_LOG = 8
#: a hand's entries (``hand`` slot -> 1.0) by its card mask, shared by the trackers (read only)
_HAND_ENTRIES: dict[int, dict[int, float]] = {}
