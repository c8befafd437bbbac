"""The rules of *The Crew: Mission Deep Sea*: :class:`CrewGame`, one attempt of a mission (CREW.md
sections 4-14), the single source of truth; it implements the package's game protocol.

API in short
============

``CrewGame(players=4, *, target=3, mission=None, campaign=None, options=None, seed=None,
deal=None, tasks=None, assignment=None, attempt=1, distress_used=False, unavoidable_failures=0,
terrain=None, timed=None, deal_check=True)`` (every argument is checked here: SetupError naming it)

* ``players``: 2-5 or 2-5 names (two humans add the dummy seat ``"Tonoja"``, R-4.5);
  ``seed``: the one ``random.Random(seed)`` of Appendix C (``None``: a fresh random seed, kept
  in the record); ``deal``: explicit hands as lists of card ids (Tonoja: 7 face-down then 7
  face-up ids, column by column), still checked against the deal exceptions of R-6.10 unless
  ``deal_check=False`` (a deal that hits one is redealt from the seed); ``tasks``: explicit
  task ids in draw order (no draw, no repair); ``assignment``: ``{task id: seat}`` skips the
  assignment phase (tests); ``terrain``: the terrain card id (mode ``terrain``); ``timed``:
  ``None`` asks (action ``"timed"`` / ``"untimed"`` by seat 0, before the deal: the captain is
  not known yet) when the mission has a timer and an ``untimed`` alternative, ``True`` /
  ``False`` settle it.
* protocol: ``players``, ``to_move`` (a seat, the captain for Tonoja, ``TERMINAL`` at the end;
  never ``CHANCE``), ``current_player`` (the same, None at the end), ``is_over``,
  ``turn_number`` (actions applied), ``at_turn_boundary`` (always True: every action is a turn),
  ``legal_actions()``, ``legal_actions_for(seat)``, ``apply(action, seat=None)`` (checked:
  :class:`~dsa_widget.crew.errors.IllegalActionError` with ``legal``; nothing changes),
  ``apply_unchecked(action, seat=None)``, ``chance_outcomes()`` (empty), ``apply_chance`` /
  ``sample_chance`` (raise: no chance node after construction), ``view(seat)``
  (:class:`~dsa_widget.crew.view.CrewView`, ``None`` = spectator, else an int seat 0..N-1),
  ``scores``, ``winners``,
  ``returns()``, ``clone()``, ``to_record()`` / ``from_record(doc)`` / ``save(path)`` (the
  records of :mod:`dsa_widget.crew.record`), ``play_record_turn(turn)``,
  ``next_attempt(tasks="same"|"new")``, ``from_view(view, hands, rng)`` (what
  ``CrewView.sample`` uses: the deal rebuilt, the public history replayed).
* facts: ``seats``, ``humans``, ``dummy``, ``tricks_total``, ``captain``, ``step``, ``tasks``
  (``TaskState``), ``tricks``, ``current_trick``, ``leader``, ``outcome`` (``Outcome``),
  ``acting_for`` (the seat on turn: Tonoja's while the captain acts), ``hand(seat)`` (the
  truth), ``dealt``, ``dummy_columns``, ``mission``, ``options``, ``attempt``,
  ``reported_attempts``, ``distress_used``, ``communication``, ``terrain``, ``timed``,
  ``timer_started``, ``comm_window``, ``tokens``, ``shared_tokens``, ``communications``,
  ``voids``, ``played_by``, ``campaign``, ``deal_check``, ``seed_gives_deal``,
  ``timer_started_at``, ``pending_proposal``, ``unavoidable_failures``, ``failure_unavoidable``,
  ``pending_failure``, ``result()`` (R-14.7), ``events`` (small dicts: ``deal``,
  ``redeal``, ``tasks``, ``take``, ``assignment``, ``distress``, ``predict``, ``timer``,
  ``comm``, ``play``, ``trick``, ``flip``, ``status``, ``outcome``, …; the distress cards and
  secret predictions are never in them), ``history`` / ``actions`` (every action with its seat),
  ``public_history(seat)``.
* The contract's ``timed=True`` default is ``timed=None`` here (the crew is asked when the
  mission offers an untimed alternative); ``timed=True`` gives the contract's behaviour.

Steps and actions (``legal_actions()`` order in brackets)
=========================================================

============== ===================================================== =========================
step           actions                                               CREW.md
============== ===================================================== =========================
timing         ``timed``, ``untimed`` (seat 0)                       R-12.3
assign         ``take ID`` [by id], ``pass`` [last]                  R-7.1-R-7.4, R-7.10, R-7.11
propose        ``propose 17:0 23:1`` (every task, in draw order)      R-7.6, R-7.7, R-7.9 (v = 2)
confirm        ``confirm``, ``reject``                               R-7.6
decide         ``keep``, ``give S`` [by seat]                        R-7.8
accept         ``accept``, ``decline``                               R-7.8
volunteer      ``yes``, ``no``                                       R-7.9
predict        ``predict 0`` … ``predict T``                          R-8.1
distress       ``distress cw``, ``distress ccw``, ``no distress``    R-9.2
distress_vote  ``agree``, ``refuse``                                 R-9.2
distress_give  ``give P3`` [deck order; never a submarine]           R-9.3, R-9.4
communicate    ``comm P3`` (``comm P3 top|middle|bottom`` with       R-11.3-R-11.12
               ``token_position=any_true``) [deck order], ``pass``
play           ``play P3`` [deck order], then (free window, leader)   R-10.2, R-11.3
               ``comm …``
over           nothing                                               R-14.7
============== ===================================================== =========================

Settled here (CREW.md leaves them to the engine):

* The captain acts for Tonoja everywhere (R-4.7): when it is Tonoja's turn ``to_move`` is the
  captain, and the history records the captain's seat.
* ``free`` / ``one_owner``: the captain proposes first; the other humans confirm in clockwise
  order; a ``reject`` hands the next proposal to the seat that rejected.  ``legal_actions()``
  lists at most 256 proposals (lexicographic by seat, tasks in draw order); ``apply`` accepts
  every valid complete proposal.
* ``captain_decides``: a task set given to Tonoja is accepted at once (the captain decides for
  it).  ``volunteers`` with 2: the first volunteer proposes, the other confirms (if human).
* Distress: the humans are asked in clockwise order from the captain; each proposes a
  direction or declines; with ``unanimous`` the other humans then vote and one ``refuse`` ends
  the phase without distress.  The cards are chosen one seat after another (clockwise from the
  captain) and stay hidden (``give ?`` in other seats' views) until all have chosen.  With
  two players and ``two_player_distress=humans_swap`` only ``distress cw`` is offered (a swap).
* ``prediction_timing=on_take``: in the turn-based modes the owner predicts right after the
  take; in the proposal modes right after the assignment is complete (task order).
* ``round`` windows: every seat that holds a token (or, under rapture, every human while the
  pool is not empty) gets a turn, even one with nothing to show (then its only action is
  ``pass``): skipping it would tell the table about its hand.
* ``timeout`` is not listed by ``legal_actions()`` (it is not a player's choice) but
  ``apply("timeout")`` is accepted from any seat while the clock runs (after it started):
  the mission fails at once (R-12.2); the outcome's trick is the trick in progress.
* An attempt whose deal or tasks are explicit records them; ``from_record`` replays from them.
* R-14.3 with ``unavoidable_failure_vote=on``: a failure does not end the attempt at once; the
  step ``failure_vote`` asks every human (clockwise from the captain) ``unavoidable`` or
  ``avoidable``; the first ``avoidable`` (or the last ``unavoidable``) ends it.  A unanimous
  ``unavoidable`` is in the outcome event and ``result()["outcome"]["unavoidable"]``
  (:attr:`failure_unavoidable`) and is left out of ``reported_attempts``; ``next_attempt``
  carries the count (constructor ``unavoidable_failures``).
* R-7.4 under ``captain_comparison_deadlock=prevent``: when the captain may own fewer tasks
  than it must take, a mission's ``fixed_tasks`` are refused (SetupError ``fixed_tasks``);
  explicit or drawn tasks (``impossible_draw_check=off``) end the attempt as a failure before
  trick 1, cause ``captain_comparison_deadlock``.
* R-14.6: a mission without tasks and without constraints has nothing to secure: it still
  plays (R-14.1 evaluates after every trick) and succeeds after trick 1, cause
  ``every constraint secured``.
* Options this engine refuses (SetupError): ``failure_evaluation="diagnostic"`` (for solvers
  only; R-13.1 makes it a MAY).

>>> g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1})     # task 70 "take trick 1" for seat 1
>>> g.step, g.captain, g.to_move
('distress', 1, 1)
>>> for _ in range(4):
...     g.apply("no distress")
>>> g.step, g.legal_actions()[:4]
('communicate', ('comm P5', 'comm Y1', 'comm Y9', 'comm B2'))
>>> g.apply("comm Y1"); g.apply("pass"); g.apply("pass"); g.apply("pass")
>>> g.step, g.to_move
('play', 1)
>>> g.apply("play Y1"); g.legal_actions()                       # seat 2 must follow suit
('play Y3',)
>>> try:
...     g.apply("play P1")                                        # refused, nothing changes
... except IllegalActionError as e:
...     print(e)
'play P1' is not legal for seat 2 now: it is seat 2's turn, step 'play'; legal: 'play Y3'
"""

from __future__ import annotations

import itertools
import json
import logging
import random
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple, overload

from ..core.errors import is_int, short_repr
from ..core.protocol import TERMINAL
from ..core.protocol import random_playout as plain_playout
from ..core.records import name_problem
from .cards import DECK, NCARDS, SUIT_MASK, CardError, bits, card, name
from .draw import TRICKS, deal_exception, draw_tasks
from .errors import IllegalActionError, RecordError, SetupError  # noqa: F401 (RecordError: re-export)
from .mission import Mission, campaign_mission
from .options import resolve_options
from .record import FORMAT, game_to_record, load_record
from .record import save as _save_record
from .record import state_dict as _record_state_dict
from .status import FAILED, OPEN, StatusTracker, Trick
from .tasks import Task, task_table

if TYPE_CHECKING:
    from .view import CrewView, SeatView

__all__ = ["FORMAT", "CrewGame", "Outcome", "TaskState", "Communication", "TONOJA"]

TONOJA = "Tonoja"
_log = logging.getLogger(__name__)
#: a canonical ASCII decimal number (no sign, no leading zero)
_CANON = re.compile(r"0|[1-9][0-9]*")
#: option values this engine refuses (documented in options.py)
_REFUSED = {
    "failure_evaluation": (
        "diagnostic",
        "for solvers only: the table always evaluates from public information",
    ),
}

_S4 = card("S4")
_SUB_MASK = SUIT_MASK["S"]
_COLOUR_MASKS = tuple(SUIT_MASK[s] for s in "PYBG")
_SUIT_MASKS = tuple(SUIT_MASK[s] for s in "PYBGS")
_SUIT_OF = tuple(c // 9 if c < 36 else 4 for c in range(NCARDS))
_PLAY = tuple(f"play {c}" for c in DECK)
_PLAY_CARD = {a: i for i, a in enumerate(_PLAY)}
_COMM = tuple(f"comm {c}" for c in DECK)
_GIVE = tuple(f"give {c}" for c in DECK)
_POSITIONS = ("top", "middle", "bottom")
_MAX_PROPOSALS = 256
#: legal-play tuples by card mask (bounded; shared by every game)
_PLAYS_CACHE: dict[int, tuple[str, ...]] = {}
#: a void mask (bit i: suit i of "PYBGS") as the suits' letters, for every mask
_VOID_SUITS = tuple(tuple(s for i, s in enumerate("PYBGS") if v >> i & 1) for v in range(32))

# steps
TIMING, ASSIGN, PROPOSE, CONFIRM, DECIDE, ACCEPT, VOLUNTEER = (
    "timing",
    "assign",
    "propose",
    "confirm",
    "decide",
    "accept",
    "volunteer",
)
PREDICT, DISTRESS, DISTRESS_VOTE, DISTRESS_GIVE = "predict", "distress", "distress_vote", "distress_give"
COMMUNICATE, PLAY, OVER = "communicate", "play", "over"
#: R-14.3 with unavoidable_failure_vote=on: after a failure, before the end
FAILURE_VOTE = "failure_vote"


class TaskState(NamedTuple):
    """A drawn task as the table sees it (``prediction`` is the truth: views hide secret ones)."""

    id: int
    owner: int | None
    status: str
    prediction: int | None


class Outcome(NamedTuple):
    """The result of the attempt (R-14.7): ``"success"`` / ``"failure"``, the trick at which it was
    decided (0 before play), and the cause (``"task 17 failed"``, ``"every task done"``, …)."""

    result: str
    trick: int
    cause: str

    def as_dict(self) -> dict[str, Any]:
        """``{"result", "trick", "cause"}``."""
        return {"result": self.result, "trick": self.trick, "cause": self.cause}


@dataclass(frozen=True)
class Communication:
    """One communication (R-11.6): ``position`` is the true one (``top`` / ``middle`` /
    ``bottom``), ``declared`` what the token shows (``middle`` under currents), ``trick`` the
    trick whose window it was made in, ``turn`` the index in the history."""

    seat: int
    card: int
    position: str
    declared: str
    trick: int
    turn: int


#: the attributes of a CrewGame that change in place (lists, dicts): copied by ``clone``
_MUTABLE = (
    "_history",
    "_events",
    "_hands",
    "_counts",
    "_up",
    "_down",
    "_owners",
    "_preds",
    "_order",
    "_quota",
    "_taken",
    "_proposal",
    "_confirm_queue",
    "_volunteers",
    "_ask",
    "_pred_queue",
    "_pred_turn",
    "_dist_queue",
    "_dist_givers",
    "_dist_choice",
    "_dist_gave",
    "_dist_got",
    "_tokens",
    "_comms",
    "_comm_queue",
    "_cur",
    "_tricks",
    "_won",
    "_voids",
    "_played_by",
    "_tasks",
    "_vote_queue",
)


def _is_predicted(t: Task) -> bool:
    return t.kind == "trick_count" and t.params.get("n") == "predicted"


class CrewGame:
    """One attempt of a mission of *The Crew: Mission Deep Sea* (see the module docstring)."""

    #: the word a chance step is reported with (the protocol's; the deal is drawn at setup)
    CHANCE_ACTION: ClassVar[str] = "deal"

    def __init__(
        self,
        players: int | Sequence[str] = 4,
        *,
        target: int | None = 3,
        mission: Mission | Mapping[str, Any] | None = None,
        campaign: int | None = None,
        options: Mapping[str, Any] | None = None,
        seed: int | None = None,
        deal: Sequence[Sequence[str]] | None = None,
        tasks: Sequence[int] | None = None,
        assignment: Mapping[int, int] | None = None,
        attempt: int = 1,
        distress_used: bool | int = False,
        unavoidable_failures: int = 0,
        terrain: str | None = None,
        timed: bool | None = None,
        deal_check: bool = True,
        _rng: random.Random | None = None,
        _used: Sequence[int] = (),
    ) -> None:
        # ---- players and seats
        if is_int(players):
            n_h = int(players)
            if not 2 <= n_h <= 5:
                raise SetupError(f"players must be 2-5 or 2-5 names, not {short_repr(players)}", "players")
            human_names = [f"Player {i + 1}" for i in range(n_h)]
        elif isinstance(players, Sequence) and not isinstance(players, (str, bytes)):
            human_names = list(players)
            if not 2 <= len(human_names) <= 5 or not all(isinstance(p, str) and p for p in human_names):
                raise SetupError(f"players must be 2-5 or 2-5 names, not {short_repr(players)}", "players")
            for k, who in enumerate(human_names):  # the names a record can hold (CREW_RECORD.md)
                problem = name_problem(who)
                if problem:
                    raise SetupError(f"name {k + 1} of the players {problem}", "players")
        else:
            raise SetupError(f"players must be 2-5 or 2-5 names, not {short_repr(players)}", "players")
        self._options = resolve_options(options)
        for key, (value, why) in _REFUSED.items():
            if self._options[key] == value:
                raise SetupError(f"option {key!r}={value!r} is not offered by this engine ({why})", key)
        if len(human_names) == 2:
            if self._options["tonoja_seat_order"] == "H0-H1-T":
                names, dummy = [human_names[0], human_names[1], TONOJA], 2
            else:
                names, dummy = [human_names[0], TONOJA, human_names[1]], 1
            self._dummy: int | None = dummy
        else:
            names, self._dummy = human_names, None
        self._names = tuple(names)
        self._n = len(names)
        self._humans = tuple(s for s in range(self._n) if s != self._dummy)
        self._T = TRICKS[self._n]
        self._table = task_table(self._options)
        # ---- the mission
        if mission is not None and campaign is not None:
            raise SetupError("give a mission or a campaign number, not both", "mission")
        if campaign is not None:
            if not is_int(campaign):
                raise SetupError(f"campaign must be a mission number, not {short_repr(campaign)}", "campaign")
            m = campaign_mission(campaign)
        elif isinstance(mission, Mission):
            m = mission
        elif isinstance(mission, Mapping):
            m = Mission.from_dict(mission)
        elif mission is None:
            if target is None and tasks is None:
                raise SetupError("give a target, a mission, a campaign number or tasks", "target")
            if target is not None and (not is_int(target) or target < 0):
                raise SetupError(f"target must be an integer >= 0, not {short_repr(target)}", "target")
            m = Mission(target=target if target is not None else 0)
        else:
            raise SetupError(f"mission must be a Mission or its dict, not {short_repr(mission)}", "mission")
        self._mission = m
        self._campaign = campaign
        # ---- seed and generator (Appendix C)
        if seed is None:
            seed = random.SystemRandom().randrange(2**63)
        if not is_int(seed):
            raise SetupError(f"seed must be an integer, not {short_repr(seed)}", "seed")
        self._seed = seed
        self._rng_fresh = _rng is None
        self._rng = _rng if _rng is not None else random.Random(seed)
        if not is_int(attempt) or attempt < 1:
            raise SetupError(f"attempt must be an integer >= 1, not {short_repr(attempt)}", "attempt")
        self._attempt = attempt
        if not isinstance(distress_used, (bool, int)) or distress_used < 0:
            raise SetupError(
                f"distress_used must be True, False or a count >= 0, not {short_repr(distress_used)}",
                "distress_used",
            )
        self._distress_before = int(distress_used)
        if not is_int(unavoidable_failures) or not 0 <= unavoidable_failures < attempt:
            raise SetupError(
                f"unavoidable_failures must be a count 0-{attempt - 1} (earlier attempts), "
                f"not {short_repr(unavoidable_failures)}",
                "unavoidable_failures",
            )
        self._unavoidable_before = unavoidable_failures
        self._distress_this = False
        if not isinstance(deal_check, bool):
            raise SetupError(f"deal_check must be True or False, not {short_repr(deal_check)}", "deal_check")
        self._deal_check = deal_check
        self._used = tuple(_used)
        # ---- explicit parts (checked now, used when the deal happens)
        self._explicit_deal = self._check_deal(deal) if deal is not None else None
        if tasks is not None:
            if not isinstance(tasks, Sequence) or isinstance(tasks, (str, bytes)):
                raise SetupError(f"tasks must be a list of task ids, not {short_repr(tasks)}", "tasks")
            ids = list(tasks)
            if not all(is_int(t) and t in self._table for t in ids) or len(set(ids)) != len(ids):
                raise SetupError(f"tasks must be distinct task ids 1-96, not {short_repr(ids)}", "tasks")
            self._explicit_tasks: tuple[int, ...] | None = tuple(ids)
        else:
            self._explicit_tasks = None
        if terrain is not None:
            if not isinstance(terrain, str):
                raise SetupError(f"terrain must be a coloured card id, not {short_repr(terrain)}", "terrain")
            try:
                tc = card(terrain)
            except CardError:
                raise SetupError(
                    f"terrain must be a coloured card id, not {short_repr(terrain)}", "terrain"
                ) from None
            if tc >= 36:
                raise SetupError(f"terrain must be a coloured card id, not {short_repr(terrain)}", "terrain")
            self._explicit_terrain: int | None = tc
        else:
            self._explicit_terrain = None
        if assignment is not None and (
            not isinstance(assignment, Mapping)
            or not all(is_int(t) and is_int(s) and 0 <= s < self._n for t, s in assignment.items())
        ):
            raise SetupError(
                f"assignment must map task ids to seats 0-{self._n - 1}, not {short_repr(assignment)}",
                "assignment",
            )
        self._explicit_assignment = dict(assignment) if assignment is not None else None
        if timed is not None and not isinstance(timed, bool):
            raise SetupError(f"timed must be True, False or None, not {short_repr(timed)}", "timed")
        self._timed_arg = timed
        # ---- the state
        self._history: list[tuple[int, str]] = []
        self._events: list[dict[str, Any]] = []
        self._outcome: Outcome | None = None
        self._timed: bool | None = None
        self._comm_mode = m.communication
        self._terrain: int | None = None
        self._target: int | None = m.target
        self._hands = [0] * self._n
        self._counts = [0] * self._n
        self._up = [-1] * 7
        self._down = [-1] * 7
        self._layout_up = [-1] * 7
        self._layout_down = [-1] * 7
        self._dealt: list[int] = [0] * self._n
        self._captain = 0
        self._tasks: list[int] = []
        self._owners: list[int | None] = []
        self._preds: list[int | None] = []
        self._step = TIMING
        self._to_move = 0
        self._chooser = 0
        # assignment
        self._order: list[int] = []
        self._apos = 0
        self._quota: list[int] = []
        self._taken: list[int] = []
        self._single_round = False
        self._proposal: dict[int, int] | None = None
        self._confirm_queue: list[int] = []
        self._proposal_seats: tuple[int, ...] = ()
        self._volunteers: list[int] = []
        self._ask: list[int] = []
        self._assign_resume: str | None = None
        self._pred_queue: list[int] = []
        self._pred_turn: dict[int, int] = {}
        # distress
        self._dist_queue: list[int] = []
        self._dist_dir: str | None = None
        self._dist_proposer = -1
        self._dist_givers: list[int] = []
        self._dist_choice: dict[int, int] = {}
        self._dist_gave: list[int] = [-1] * self._n
        self._dist_got: list[int] = [-1] * self._n
        self._distress_over = False
        # communication
        self._tokens: list[int | None] = [None] * self._n
        self._shared: int | None = None
        self._comms: list[Communication] = []
        self._comm_done = 0
        self._comm_from = m.comm_from_trick
        self._comm_until = m.comm_until_trick if m.comm_until_trick is not None else self._T
        self._comm_queue: list[int] = []
        self._free_window = self._options["communication_window"] == "free"
        #: R-14.5 with mission_lead_ban=illegal: the suits no seat may lead (unless it must)
        self._lead_banned = 0
        if self._options["mission_lead_ban"] == "illegal":
            for con in m.constraints:
                if con.get("kind", con.get("type")) == "lead_ban":
                    for su in con["suits"]:
                        self._lead_banned |= SUIT_MASK[su]
        # timer
        self._timer_started = False
        self._timer_at: int | None = None
        # vote (unavoidable_failure_vote=on)
        self._voting = False
        self._pending_outcome: Outcome | None = None
        self._vote_queue: list[int] = []
        self._unavoidable_this = False
        # play
        self._trick_no = 0
        self._leader = 0
        self._cur: list[tuple[int, int]] = []
        self._led = -1
        self._tricks: list[Trick] = []
        self._won = [0] * self._n
        self._voids = [0] * self._n
        self._played_by = [0] * self._n
        self._tracker: StatusTracker | None = None
        # ---- phase 1: timed / untimed
        if m.timer_seconds is None or m.untimed is None:
            self._set_timing(True, record=False)
        elif timed is not None:
            self._set_timing(timed, record=False)
        else:
            self._step = TIMING
            self._to_move = 0
            # both choices must set up (tasks, assignment, ...): apply never fails midway
            for choice in (True, False):
                self.clone()._set_timing(choice, record=True)

    # =========================================================================== setup phases

    def _check_deal(self, deal: Sequence[Sequence[str]]) -> list[list[int]]:
        try:
            hands = [[card(c) for c in h] for h in deal]
        except (CardError, TypeError):
            raise SetupError("deal must be a list of hands, each a list of card ids", "deal") from None
        flat = [c for h in hands for c in h]
        if len(hands) != self._n or sorted(flat) != list(range(NCARDS)):
            raise SetupError(f"deal must give all 40 cards, each once, to the {self._n} seats", "deal")
        sizes = sorted(len(h) for h in hands)
        want = {3: [13, 13, 14], 4: [10] * 4, 5: [8] * 5}[self._n]
        if sizes != want:
            raise SetupError(
                f"deal: hand sizes must be {want} (any order), not {[len(h) for h in hands]}", "deal"
            )
        if self._dummy is not None:
            if len(hands[self._dummy]) != 14:
                raise SetupError("deal: Tonoja's hand is 7 face-down then 7 face-up cards", "deal")
            if _S4 in hands[self._dummy]:
                raise SetupError(
                    "deal: S4 is always a human's card in the two-player variant (R-4.6)", "deal"
                )
        return hands

    def _set_timing(self, timed: bool, *, record: bool) -> None:
        """Phase 1 done: the effective communication mode and target, then phases 2-6."""
        m = self._mission
        self._timed = timed
        if not timed and m.untimed is not None:
            self._comm_mode = m.untimed.get("communication", m.communication)
            if "target" in m.untimed:
                self._target = m.untimed["target"]
        if record:
            self._events.append({"type": "timing", "timed": timed})
        self._setup_attempt()

    def _setup_attempt(self) -> None:
        rng = self._rng
        # phase 2: terrain
        if self._comm_mode == "terrain":
            tc = self._explicit_terrain if self._explicit_terrain is not None else rng.randrange(36)
            self._terrain = tc
            r = tc % 9 + 1
            self._comm_mode = "normal" if r <= 3 else "currents" if r <= 6 else "rapture"
            self._events.append({"type": "terrain", "card": name(tc), "mode": self._comm_mode})
        # phase 3: deal and captain
        if self._explicit_deal is not None:
            self._deal_from(self._explicit_deal)
        else:
            self._deal_random()
        # phase 4: tasks
        if self._explicit_tasks is not None:
            self._tasks = list(self._explicit_tasks)
        elif self._mission.fixed_tasks is not None:
            self._tasks = list(self._mission.fixed_tasks)
        else:
            res = draw_tasks(
                rng,
                seats=self._n,
                target=self._target or 0,
                allocation=self._mission.allocation,
                table=self._draw_table(),
                options=self._options,
                volunteers=self._mission.volunteers,
            )
            self._tasks = list(res.tasks)
        self._events.append({"type": "tasks", "tasks": list(self._tasks)})
        # phase 5: deal exceptions
        if self._deal_check:
            loops = 0
            while True:
                hit = deal_exception(self._dealt, self._tasks)
                if hit is None:
                    break
                loops += 1
                self._events.append({"type": "redeal", "task": hit[0], "seat": hit[1]})
                self._deal_random()
                if loops == 1000:  # R-C.3: keep going, the same generator
                    self._events.append({"type": "warning", "message": "1000 redeals"})
                    _log.warning("The Crew: 1000 redeals (R-6.10) for tasks %s; still redealing", self._tasks)
        k = len(self._tasks)
        self._owners = [None] * k
        self._preds = [None] * k
        # tokens
        mode = self._comm_mode
        if mode in ("normal", "currents"):
            self._tokens = [None if s == self._dummy else 1 for s in range(self._n)]
        else:
            self._tokens = [None] * self._n
        if mode == "rapture":
            if self._dummy is not None and self._options["two_player_rapture_tokens"] == "humans_only":
                self._shared = 0
            else:
                self._shared = self._n - 2
        # phase 6: assignment
        if self._explicit_assignment is not None:
            self._set_assignment(self._explicit_assignment)
            self._after_assignment()
        else:
            self._start_assignment()

    def _draw_table(self) -> Mapping[int, Task]:
        """R-6.2 / D-13 with ``task_deck_between_missions=used_pile``: the task cards of the
        earlier attempts' draws are set aside until the deck runs low (its difficulties, column
        d_N, add up to less than twice the target): then every card is shuffled back."""
        if self._options["task_deck_between_missions"] != "used_pile" or not self._used:
            return self._table
        used = set(self._used)
        rest = {t: task for t, task in self._table.items() if t not in used}
        target = self._target or 0
        if sum(task.difficulty_for(self._n) for task in rest.values()) < 2 * target:
            self._used = ()
            self._events.append({"type": "task_deck", "reshuffled": True})
            return self._table
        return rest

    def _deal_random(self) -> None:
        rng = self._rng
        n = self._n
        if self._dummy is None:
            start = 0
            if n == 3 and self._options["extra_card_seat"] == "random":
                start = rng.randrange(3)
            deck = list(range(NCARDS))
            rng.shuffle(deck)
            hands: list[list[int]] = [[] for _ in range(n)]
            for i, c in enumerate(deck):
                hands[(start + i) % n].append(c)
            self._deal_from(hands, record=True)
        else:
            deck = [c for c in range(NCARDS) if c != _S4]
            rng.shuffle(deck)
            tonoja = deck[:14]
            rest = deck[14:] + [_S4]
            rng.shuffle(rest)
            hands = [[] for _ in range(n)]
            h0, h1 = self._humans
            for i, c in enumerate(rest):
                hands[h0 if i % 2 == 0 else h1].append(c)
            hands[self._dummy] = tonoja
            self._deal_from(hands, record=True)

    def _deal_from(self, hands: Sequence[Sequence[int]], *, record: bool = True) -> None:
        n = self._n
        self._hands = [0] * n
        self._counts = [0] * n
        for s, h in enumerate(hands):
            m = 0
            for c in h:
                m |= 1 << c
            self._hands[s] = m
            self._counts[s] = len(h)
        self._dealt = list(self._hands)
        if self._dummy is not None:
            t = list(hands[self._dummy])
            self._down = t[:7]
            self._up = t[7:14]
            self._layout_down = list(self._down)
            self._layout_up = list(self._up)
            up = 0
            for c in self._up:
                up |= 1 << c
            self._hands[self._dummy] = up  # only the face-up cards are playable
        self._captain = next(s for s in range(n) if self._dealt[s] >> _S4 & 1)
        if record:
            self._events.append({"type": "deal", "captain": self._captain})

    # ---------------------------------------------------------------------------- assignment

    def _may_own(self, seat: int, tid: int) -> bool:
        return not (seat == self._captain and self._table[tid].vs_captain)

    def _set_assignment(self, assignment: Mapping[int, int]) -> None:
        for tid, seat in assignment.items():
            if tid not in self._tasks:
                raise SetupError(f"assignment names task {short_repr(tid)}, which is not drawn", "assignment")
            if not is_int(seat) or not 0 <= seat < self._n:
                raise SetupError(f"assignment: {short_repr(seat)} is not a seat", "assignment")
            if not self._may_own(seat, tid):
                raise SetupError(f"assignment: the captain may not own task {tid} (R-5.3)", "assignment")
        if set(assignment) != set(self._tasks):
            raise SetupError("assignment must give every drawn task an owner", "assignment")
        for i, tid in enumerate(self._tasks):
            self._owners[i] = assignment[tid]
        self._events.append({"type": "assignment", "owners": {str(t): s for t, s in assignment.items()}})

    def _start_assignment(self) -> None:
        alloc = self._mission.allocation
        k = len(self._tasks)
        n = self._n
        cap = self._captain
        if k == 0:
            self._after_assignment()
            return
        if alloc in ("normal", "captain_first_hardest", "skip_captain"):
            order = [(cap + i) % n for i in range(n)]
            if alloc == "skip_captain":
                order = order[1:]
            self._order = order
            mm = len(order)
            self._single_round = k < mm
            self._quota = [0] * n
            for i, s in enumerate(order):
                self._quota[s] = 1 if self._single_round else -(-(k - i) // mm)
            self._taken = [0] * n
            self._apos = 0
            self._step = ASSIGN
            self._chooser = order[0]
            self._to_move = self._actor(order[0])
            if self._captain_short():
                return
            self._assign_turn_check()
        elif alloc in ("free", "one_owner"):
            self._proposal_seats = tuple(range(n))
            self._begin_proposal(cap)
        elif alloc == "captain_decides":
            self._step = DECIDE
            self._to_move = cap
        elif alloc == "volunteers":
            self._ask = [(cap + i) % n for i in range(1, n)] + [cap]
            self._volunteers = []
            self._step = VOLUNTEER
            self._next_volunteer()
        else:  # pragma: no cover - Mission validates the allocation
            raise SetupError(f"unknown allocation {alloc!r}", "allocation")

    def _actor(self, seat: int) -> int:
        """Who acts for ``seat``: the captain for Tonoja (R-4.7)."""
        return self._captain if seat == self._dummy else seat

    def _assign_choices(self) -> tuple[list[int], bool]:
        """(task indices the chooser may take, pass allowed) in the ``assign`` step."""
        c = self._chooser
        cap = self._captain
        remaining = [i for i, o in enumerate(self._owners) if o is None]
        cands = [i for i in remaining if self._may_own(c, self._tasks[i])]
        alloc = self._mission.allocation
        if alloc == "captain_first_hardest" and c == cap and self._taken[cap] == 0 and cands:
            # the earliest drawn task of the highest difficulty (among those it may own);
            # a choice, not a pass, also with k < N (as the draw's possibility check assumes)
            d = [self._table[self._tasks[i]].difficulty_for(self._n) for i in cands]
            best = max(d)
            return [cands[d.index(best)]], False
        if self._single_round:
            after = len(self._order) - 1 - self._apos
            may_pass = after >= len(remaining) or not cands
            return cands, may_pass
        if c != cap and cap in self._order and self._options["captain_comparison_deadlock"] == "prevent":
            need = self._quota[cap] - self._taken[cap]
            if need > 0:
                cap_ok = sum(1 for i in remaining if self._may_own(cap, self._tasks[i]))
                cands = [
                    i for i in cands if cap_ok - (1 if self._may_own(cap, self._tasks[i]) else 0) >= need
                ]
        return cands, False

    def _captain_short(self) -> bool:
        """R-7.4 under ``prevent``: when the captain may own fewer of the tasks than its quota
        (fixed or explicit tasks, or ``impossible_draw_check=off``), no complete assignment
        exists.  A mission's ``fixed_tasks`` that do this are refused (SetupError); other tasks
        end the attempt as a failure before trick 1 (cause ``captain_comparison_deadlock``), as
        an impossibility of the setup.  True when the attempt ended."""
        cap = self._captain
        if (
            self._options["captain_comparison_deadlock"] != "prevent"
            or self._single_round
            or cap not in self._order
        ):
            return False
        can = sum(1 for t in self._tasks if self._may_own(cap, t))
        if can >= self._quota[cap]:
            return False
        why = (
            f"the captain must take {self._quota[cap]} of the {len(self._tasks)} tasks but may own only "
            f"{can} of them (R-5.3, R-7.4)"
        )
        if self._explicit_tasks is None and self._mission.fixed_tasks is not None:
            raise SetupError(f"fixed_tasks {list(self._tasks)}: {why}", "fixed_tasks")
        self._events.append({"type": "deadlock", "message": why})
        self._finish("failure", 0, "captain_comparison_deadlock")
        return True

    def _assign_turn_check(self) -> None:
        """At a k >= N turn with nothing to take (only the captain can meet it): R-7.4 options.
        Iterative and bounded: at most one full round of skips, then the attempt fails."""
        skips = 0
        while not self._single_round and self._step == ASSIGN:
            cands, _ = self._assign_choices()
            if cands:
                return
            rule = self._options["captain_comparison_deadlock"]
            if rule != "skip_turn" or skips >= len(self._order):
                # fail, or (cannot happen: see _captain_short) no seat has anything to take
                self._finish("failure", 0, "captain_comparison_deadlock")
                return
            skips += 1
            self._events.append({"type": "skip", "seat": self._chooser})
            if self._next_chooser():
                return

    def _next_chooser(self) -> bool:
        """Hand the assignment turn on; True when the assignment is complete (and handed on)."""
        if all(o is not None for o in self._owners):
            self._after_assignment()
            return True
        if self._single_round:
            self._apos += 1
            if self._apos >= len(self._order):  # cannot happen: the pass rule keeps enough choosers
                self._after_assignment()
                return True
        else:
            self._apos = (self._apos + 1) % len(self._order)
        self._chooser = self._order[self._apos]
        self._step = ASSIGN
        self._to_move = self._actor(self._chooser)
        return False

    def _advance_assign(self) -> None:
        if not self._next_chooser():
            self._assign_turn_check()

    def _take(self, i: int) -> None:
        seat = self._chooser
        self._owners[i] = seat
        self._taken[seat] += 1
        tid = self._tasks[i]
        self._events.append({"type": "take", "task": tid, "seat": seat})
        if self._options["prediction_timing"] == "on_take" and _is_predicted(self._table[tid]):
            self._pred_queue = [i]
            self._assign_resume = ASSIGN
            self._step = PREDICT
            self._to_move = self._actor(seat)
            return
        self._advance_assign()

    def _begin_proposal(self, proposer: int) -> None:
        self._step = PROPOSE
        self._proposal = None
        self._to_move = self._actor(proposer)
        self._chooser = proposer

    def _proposal_ok(self, prop: Mapping[int, int]) -> bool:
        if set(prop) != set(self._tasks):
            return False
        seats = set(prop.values())
        if not seats <= set(self._proposal_seats):
            return False
        alloc = self._mission.allocation
        if alloc in ("one_owner",) and len(seats) != 1:
            return False
        return all(self._may_own(s, t) for t, s in prop.items())

    def _proposals(self) -> list[str]:
        allowed = [[s for s in self._proposal_seats if self._may_own(s, t)] for t in self._tasks]
        out: list[str] = []
        if self._mission.allocation == "one_owner":
            for s in self._proposal_seats:
                if all(s in a for a in allowed):
                    out.append("propose " + " ".join(f"{t}:{s}" for t in self._tasks))
            return out
        for combo in itertools.product(*allowed):
            out.append("propose " + " ".join(f"{t}:{s}" for t, s in zip(self._tasks, combo, strict=True)))
            if len(out) >= _MAX_PROPOSALS:
                break
        return out

    def _parse_proposal(self, action: str) -> dict[int, int] | None:
        parts = action.split()
        if not parts or parts[0] != "propose":
            return None
        prop: dict[int, int] = {}
        for p in parts[1:]:
            a, sep, b = p.partition(":")
            # canonical ASCII numbers only ("070", "١" and "²" are not task ids or seats)
            if not sep or len(a) > 2 or len(b) > 1 or not _CANON.fullmatch(a) or not _CANON.fullmatch(b):
                return None
            t, s = int(a), int(b)
            if t in prop:
                return None
            prop[t] = s
        return prop if self._proposal_ok(prop) else None

    def _propose(self, prop: dict[int, int]) -> None:
        self._proposal = prop
        proposer = self._chooser
        self._events.append(
            {"type": "proposal", "seat": proposer, "owners": {str(t): s for t, s in prop.items()}}
        )
        if self._mission.allocation == "volunteers":
            others = [s for s in self._volunteers if s != proposer and s != self._dummy]
        else:
            others = [(proposer + i) % self._n for i in range(1, self._n)]
            others = [s for s in others if s != self._dummy]
        self._confirm_queue = others
        self._next_confirm()

    def _next_confirm(self) -> None:
        if not self._confirm_queue:
            assert self._proposal is not None
            for i, t in enumerate(self._tasks):
                self._owners[i] = self._proposal[t]
            self._events.append(
                {"type": "assignment", "owners": {str(t): s for t, s in self._proposal.items()}}
            )
            self._after_assignment()
            return
        self._step = CONFIRM
        self._to_move = self._confirm_queue[0]

    def _next_volunteer(self) -> None:
        v = self._mission.volunteers
        while len(self._volunteers) < v and self._ask and len(self._ask) <= v - len(self._volunteers):
            # the seats still to ask are exactly as many as the missing volunteers
            self._volunteers.append(self._ask.pop(0))
        if len(self._volunteers) >= v or not self._ask:
            vols = self._volunteers
            self._events.append({"type": "volunteers", "seats": list(vols)})
            if v == 1 or len(vols) == 1:
                s = vols[0]
                for i in range(len(self._tasks)):
                    self._owners[i] = s
                self._events.append({"type": "assignment", "owners": {str(t): s for t in self._tasks}})
                self._after_assignment()
            else:
                self._proposal_seats = tuple(sorted(vols))
                self._begin_proposal(vols[0] if vols[0] != self._dummy else vols[1])
            return
        self._step = VOLUNTEER
        self._chooser = self._ask[0]
        self._to_move = self._actor(self._ask[0])

    def _give_all(self, seat: int) -> None:
        for i in range(len(self._tasks)):
            self._owners[i] = seat
        self._events.append({"type": "assignment", "owners": {str(t): seat for t in self._tasks}})
        if seat != self._captain:
            # given away: communication only before trick 1
            self._comm_until = 1
        self._after_assignment()

    # ---------------------------------------------------- after assignment: timer, distress, predictions

    def _after_assignment(self) -> None:
        if self._outcome is not None:
            return
        # prediction_timing=on_take in proposal modes: right after the assignment
        if self._options["prediction_timing"] == "on_take":
            q = [
                i
                for i, t in enumerate(self._tasks)
                if _is_predicted(self._table[t]) and self._preds[i] is None
            ]
            if q:
                self._pred_queue = q
                self._assign_resume = "after"
                self._step = PREDICT
                self._to_move = self._actor(self._owners[q[0]])  # type: ignore[arg-type]
                return
        if self._options["timer_start"] == "after_assignment":
            self._start_timer()
        self._start_distress()

    def _start_timer(self) -> None:
        if self._timed and self._mission.timer_seconds is not None and not self._timer_started:
            self._timer_started = True
            self._timer_at = len(self._history)
            self._events.append({"type": "timer", "started": True, "seconds": self._mission.timer_seconds})

    def _distress_possible(self) -> bool:
        if self._dummy is not None:
            return bool(self._options["two_player_distress"] == "humans_swap")
        return True

    def _start_distress(self) -> None:
        if not self._distress_possible():
            self._start_predictions()
            return
        cap = self._captain
        self._dist_queue = [s for s in ((cap + i) % self._n for i in range(self._n)) if s != self._dummy]
        self._step = DISTRESS
        self._to_move = self._dist_queue[0]

    def _activate_distress(self) -> None:
        cap = self._captain
        self._dist_givers = [s for s in ((cap + i) % self._n for i in range(self._n)) if s != self._dummy]
        self._dist_choice = {}
        self._events.append({"type": "distress", "direction": self._dist_dir})
        self._step = DISTRESS_GIVE
        self._to_move = self._dist_givers[0]

    def _receiver(self, seat: int) -> int:
        if self._dummy is not None:
            h0, h1 = self._humans
            return h1 if seat == h0 else h0
        return (seat + 1) % self._n if self._dist_dir == "cw" else (seat - 1) % self._n

    def _pass_cards(self) -> None:
        """R-9.3: every chosen card moves to its neighbour at once."""
        for s, c in self._dist_choice.items():
            self._hands[s] &= ~(1 << c)
        for s, c in self._dist_choice.items():
            r = self._receiver(s)
            self._hands[r] |= 1 << c
            self._dist_gave[s] = c
            self._dist_got[r] = c
        self._distress_this = True
        self._events.append({"type": "distress_passed", "direction": self._dist_dir})
        self._start_predictions()

    def _start_predictions(self) -> None:
        self._distress_over = True
        q = [i for i, t in enumerate(self._tasks) if _is_predicted(self._table[t]) and self._preds[i] is None]
        if q:
            self._pred_queue = q
            self._assign_resume = "play"
            self._step = PREDICT
            self._to_move = self._actor(self._owners[q[0]])  # type: ignore[arg-type]
            return
        self._start_play()

    def _predict(self, x: int) -> None:
        i = self._pred_queue.pop(0)
        self._preds[i] = x
        self._pred_turn[i] = len(self._history) - 1
        tid = self._tasks[i]
        ev: dict[str, Any] = {"type": "predict", "task": tid, "seat": self._owners[i]}
        if self._table[tid].params.get("reveal") == "open":
            ev["value"] = x
        self._events.append(ev)
        if self._pred_queue:
            self._to_move = self._actor(self._owners[self._pred_queue[0]])  # type: ignore[arg-type]
            return
        resume = self._assign_resume
        self._assign_resume = None
        if resume == ASSIGN:
            self._advance_assign()
        elif resume == "after":
            if self._options["timer_start"] == "after_assignment":
                self._start_timer()
            self._start_distress()
        else:
            self._start_play()

    # ---------------------------------------------------------------------------- play

    def _start_play(self) -> None:
        self._start_timer()  # phase 9 (no-op when it started after the assignment)
        assigned = [(self._table[t], o) for t, o in zip(self._tasks, self._owners, strict=True)]
        preds = {t: p for t, p in zip(self._tasks, self._preds, strict=True) if p is not None}
        self._tracker = StatusTracker(
            assigned,  # type: ignore[arg-type]
            seats=self._n,
            tricks_total=self._T,
            captain=self._captain,
            options=self._options,
            predictions=preds,
            constraints=self._mission.constraints,
        )
        self._trick_no = 1
        self._leader = self._captain
        self._open_window()

    def _window_open(self) -> bool:
        return self._comm_mode != "none" and self._comm_from <= self._trick_no <= self._comm_until

    def _has_token(self, seat: int) -> bool:
        if seat == self._dummy:
            return False
        if self._shared is not None:
            return self._shared > 0
        return bool(self._tokens[seat])

    def _open_window(self) -> None:
        self._cur = []
        self._led = -1
        if self._window_open() and self._options["communication_window"] == "round":
            n = self._n
            self._comm_queue = [(self._leader + i) % n for i in range(n)]
            self._next_comm_seat()
            return
        self._step = PLAY
        self._to_move = self._actor(self._leader)

    def _next_comm_seat(self) -> None:
        q = self._comm_queue
        while q and not self._has_token(q[0]):
            q.pop(0)
        if q:
            self._step = COMMUNICATE
            self._to_move = q[0]
        else:
            self._step = PLAY
            self._to_move = self._actor(self._leader)

    def _comm_options(self, seat: int) -> list[tuple[int, str, tuple[str, ...]]]:
        """R-11.4: (card, true position, positions the seat may declare) for every card it may show."""
        hand = self._hands[seat]
        done = self._comm_done
        out: list[tuple[int, str, tuple[str, ...]]] = []
        any_true = self._options["token_position"] == "any_true" and self._comm_mode != "currents"
        for cm in _COLOUR_MASKS:
            m = hand & cm
            if not m:
                continue
            low = (m & -m).bit_length() - 1
            high = m.bit_length() - 1
            if low == high:
                if not done >> low & 1:
                    out.append((low, "middle", _POSITIONS if any_true else ("middle",)))
                continue
            if not done >> low & 1:
                out.append((low, "bottom", ("bottom",)))
            if not done >> high & 1:
                out.append((high, "top", ("top",)))
        out.sort()
        return out

    def _comm_actions(self, seat: int) -> list[str]:
        if not self._has_token(seat):
            return []
        opts = self._comm_options(seat)
        if self._options["token_position"] == "any_true" and self._comm_mode != "currents":
            return [f"comm {name(c)} {p}" for c, _, ps in opts for p in ps]
        return [_COMM[c] for c, _, _ in opts]

    def _communicate(self, seat: int, c: int, declared: str | None, *, forced: bool = False) -> None:
        if forced and declared is not None:
            true_pos = declared
        else:
            true_pos = next(p for cc, p, _ in self._comm_options(seat) if cc == c)
        shown = (
            "middle" if self._comm_mode == "currents" else (declared if declared is not None else true_pos)
        )
        if self._shared is not None:
            self._shared -= 1
        else:
            self._tokens[seat] = 0
        self._comm_done |= 1 << c
        self._comms.append(Communication(seat, c, true_pos, shown, self._trick_no, len(self._history) - 1))
        self._events.append({"type": "comm", "seat": seat, "card": name(c), "position": shown})
        # under rapture a seat may use more than one token on its turn
        if self._step == COMMUNICATE and not (
            self._shared is not None and self._shared > 0 and self._comm_actions(seat)
        ):
            self._comm_queue.pop(0)
            self._next_comm_seat()

    def _legal_plays(self, seat: int) -> int:
        hand = self._hands[seat]
        if self._led >= 0:
            follow = hand & _SUIT_MASKS[self._led]
            return follow if follow else hand
        if self._lead_banned:
            ok = hand & ~self._lead_banned
            return ok if ok else hand
        return hand

    def _seat_to_play(self) -> int:
        return (self._leader + len(self._cur)) % self._n

    def _play(self, c: int) -> None:
        cur = self._cur
        n = self._n
        seat = (self._leader + len(cur)) % n
        b = 1 << c
        self._hands[seat] &= ~b
        self._counts[seat] -= 1
        self._played_by[seat] |= b
        su = _SUIT_OF[c]
        if seat == self._dummy:
            self._up[self._up.index(c)] = -1
            if self._led < 0:
                self._led = su
        elif self._led < 0:
            self._led = su
        elif su != self._led:
            self._voids[seat] |= 1 << self._led
        cur.append((seat, c))
        self._events.append({"type": "play", "seat": seat, "card": DECK[c]})
        if len(cur) == n:
            self._finish_trick()
        else:
            nxt = (seat + 1) % n
            self._to_move = self._captain if nxt == self._dummy else nxt

    def _finish_trick(self) -> None:
        plays = tuple(self._cur)
        best_seat, best = plays[0]
        lead = self._led
        for s, c in plays[1:]:
            if c >= 36:
                if best < 36 or c > best:
                    best_seat, best = s, c
            elif best < 36 and c // 9 == lead and c > best:
                best_seat, best = s, c
        trick = Trick(self._trick_no, self._leader, plays, best_seat)
        self._cur = []
        self._led = -1
        self._tricks.append(trick)
        self._won[best_seat] += 1
        self._events.append({"type": "trick", "number": self._trick_no, "winner": best_seat})
        if self._dummy is not None:  # the covered cards turn up after the trick
            for col in range(7):
                if self._up[col] < 0 and self._down[col] >= 0:
                    c = self._down[col]
                    self._up[col] = c
                    self._down[col] = -1
                    self._hands[self._dummy] |= 1 << c
                    self._events.append({"type": "flip", "column": col, "card": DECK[c]})
        tracker = self._tracker
        assert tracker is not None
        for i, st in tracker.add_trick(trick):
            self._events.append({"type": "status", "task": self._tasks[i], "status": st})
        state = tracker.mission_state()
        if state != OPEN:
            if state == "failure":
                cause = self._failure_cause()
            else:
                cause = "every task done" if self._tasks else "every constraint secured"
            self._finish(state, self._trick_no, cause)
            return
        if self._trick_no >= self._T:  # cannot happen; never leave a game hanging
            self._finish("failure", self._trick_no, "open at the end")
            return
        self._trick_no += 1
        self._leader = best_seat
        self._open_window()

    def _failure_cause(self) -> str:
        tracker = self._tracker
        assert tracker is not None
        for i, st in enumerate(tracker.statuses):
            if st == FAILED:
                return f"task {self._tasks[i]} failed"
        for j, st in enumerate(tracker.constraint_states):
            if st == "broken":
                kind = self._mission.constraints[j].get("kind", "constraint")
                return f"constraint {j} ({kind}) broken"
        return "failure"

    def _finish(self, result: str, trick: int, cause: str) -> None:
        if result == "failure" and self._options["unavoidable_failure_vote"] == "on" and not self._voting:
            # the humans may declare, unanimously, that the failure was unavoidable
            self._voting = True
            self._pending_outcome = Outcome(result, trick, cause)
            self._vote_queue = [
                s for s in ((self._captain + i) % self._n for i in range(self._n)) if s != self._dummy
            ]
            self._events.append({"type": "failure", "trick": trick, "cause": cause})
            self._step = FAILURE_VOTE
            self._to_move = self._vote_queue[0]
            return
        self._outcome = Outcome(result, trick, cause)
        self._step = OVER
        self._to_move = TERMINAL
        ev: dict[str, Any] = {"type": "outcome", "result": result, "trick": trick, "cause": cause}
        if self._voting:
            ev["unavoidable"] = self._unavoidable_this
        self._events.append(ev)

    # =========================================================================== actions

    def legal_actions(self) -> tuple[str, ...]:
        """The actions of the seat to move, in the order of the module docstring's table."""
        step = self._step
        if step == PLAY and (self._cur or not self._free_window):
            # the fast path of playouts: legal plays from the masks, the tuples cached by mask
            cur = self._cur
            hand = self._hands[(self._leader + len(cur)) % self._n]
            if cur:
                follow = hand & _SUIT_MASKS[self._led]
                m = follow if follow else hand
            elif self._lead_banned:
                m = self._legal_plays((self._leader + len(cur)) % self._n)
            else:
                m = hand
            t = _PLAYS_CACHE.get(m)
            if t is None:
                if len(_PLAYS_CACHE) > 200_000:
                    _PLAYS_CACHE.clear()
                t = _PLAYS_CACHE[m] = tuple(_PLAY[c] for c in bits(m))
            return t
        if step == OVER:
            return ()
        return self.legal_actions_for(self._to_move)

    def legal_actions_for(self, seat: int) -> tuple[str, ...]:
        """The actions ``seat`` may take now: those of :meth:`legal_actions` for the seat to move;
        for another seat, the communications it may make in an open ``free`` window (R-11.3)."""
        step = self._step
        if step == OVER or not is_int(seat):
            return ()
        if seat != self._to_move:
            if (
                step == PLAY
                and not self._cur
                and self._free_window
                and self._window_open()
                and 0 <= seat < self._n
            ):
                return tuple(self._comm_actions(seat))
            return ()
        if step == PLAY:
            ps = self._seat_to_play()
            out = [_PLAY[c] for c in bits(self._legal_plays(ps))]
            if not self._cur and self._free_window and self._window_open():
                out.extend(self._comm_actions(seat))
            return tuple(out)
        if step == COMMUNICATE:
            return (*self._comm_actions(seat), "pass")
        if step == TIMING:
            return ("timed", "untimed")
        if step == ASSIGN:
            cands, may_pass = self._assign_choices()
            acts = [f"take {t}" for t in sorted(self._tasks[i] for i in cands)]
            if may_pass:
                acts.append("pass")
            return tuple(acts)
        if step == PROPOSE:
            return tuple(self._proposals())
        if step == CONFIRM:
            return ("confirm", "reject")
        if step == DECIDE:
            acts = []
            if all(self._may_own(self._captain, t) for t in self._tasks):
                acts.append("keep")
            for s in range(self._n):
                if s != self._captain:
                    acts.append(f"give {s}")
            return tuple(acts)
        if step == ACCEPT:
            return ("accept", "decline")
        if step == FAILURE_VOTE:
            return ("unavoidable", "avoidable")
        if step == VOLUNTEER:
            if not all(self._may_own(self._captain, t) for t in self._tasks):
                # the captain may not own them; as under captain_comparison_deadlock
                # "prevent", a "no" that would force the captain to volunteer is refused
                if self._chooser == self._captain:
                    return ("no",)
                missing = self._mission.volunteers - len(self._volunteers)
                others_after = sum(1 for x in self._ask[1:] if x != self._captain)
                if others_after < missing:
                    return ("yes",)
            return ("yes", "no")
        if step == PREDICT:
            return tuple(f"predict {x}" for x in range(self._T + 1))
        if step == DISTRESS:
            if self._dummy is not None:
                return ("distress cw", "no distress")
            return ("distress cw", "distress ccw", "no distress")
        if step == DISTRESS_VOTE:
            return ("agree", "refuse")
        if step == DISTRESS_GIVE:
            return tuple(_GIVE[c] for c in bits(self._hands[seat] & ~_SUB_MASK))
        return ()  # pragma: no cover

    def apply(self, action: str, seat: int | None = None) -> None:
        """Apply one action of ``seat`` (default: the seat to move), checked: an action that is not
        legal raises :class:`IllegalActionError` (its ``legal`` lists what is) and changes nothing.
        ``seat`` other than :attr:`to_move` is only for communication in a ``free`` window."""
        if seat is not None and (not is_int(seat) or not 0 <= seat < self._n):
            raise IllegalActionError(f"{short_repr(seat)} is not a seat", ())
        who = self._to_move if seat is None else seat
        if action == "timeout":
            if not self._timer_started or self._step in (OVER, FAILURE_VOTE):
                raise IllegalActionError(
                    "'timeout' is legal only while the clock of a real-time mission runs",
                    self.legal_actions(),
                )
            self._history.append((who, action))
            self._apply(action, who)
            return
        if not isinstance(action, str):
            raise IllegalActionError(f"an action is a string, not {short_repr(action)}", self.legal_actions())
        if self._step == PROPOSE and who == self._to_move:
            # checked directly: listing up to 256 proposals on every apply costs milliseconds
            ok = self._parse_proposal(action) is not None
            legal: tuple[str, ...] = () if ok else self.legal_actions_for(who)
        else:
            legal = self.legal_actions_for(who)
            ok = action in legal
        if not ok:
            shown = ", ".join(repr(a) for a in legal[:12])
            if len(legal) > 12 or len(shown) > 200:  # a sentence: the first few, then "…"
                shown = shown[:200].rsplit(", ", 1)[0] + ", …"
            why = (
                f"it is seat {self._to_move}'s turn, step {self._step!r}"
                if self._step != OVER
                else "the game is over"
            )
            raise IllegalActionError(
                f"{short_repr(action)} is not legal for seat {who} now: {why}; legal: {shown or 'nothing'}",
                legal,
            )
        if self._step == PLAY:  # the hot path: a legal play or communication cannot fail midway
            self._history.append((who, action))
            self._apply(action, who)
            return
        # setup steps: all or nothing (restore the state if anything raises)
        before = self.clone()
        try:
            self._history.append((who, action))
            self._apply(action, who)
        except BaseException:
            self.__dict__.clear()
            self.__dict__.update(before.__dict__)
            raise

    def apply_unchecked(self, action: str, seat: int | None = None) -> None:
        """Apply an action known to be legal (playouts): no check, no explanation."""
        who = self._to_move if seat is None else seat
        self._history.append((who, action))
        c = _PLAY_CARD.get(action)
        if c is not None and self._step == PLAY:
            self._play(c)
            return
        self._apply(action, who)

    def _apply(self, action: str, seat: int) -> None:
        step = self._step
        if action == "timeout":
            trick = min(self._trick_no, self._T) if self._trick_no else 0
            self._finish("failure", trick, "timeout")
            return
        word, _, rest = action.partition(" ")
        if step == PLAY:
            if word == "play":
                self._play(card(rest))
            else:
                self._apply_comm(seat, rest)
        elif step == COMMUNICATE:
            if word == "pass":
                self._comm_queue.pop(0)
                self._next_comm_seat()
            else:
                self._apply_comm(seat, rest)
        elif step == TIMING:
            self._set_timing(action == "timed", record=True)
        elif step == ASSIGN:
            if word == "pass":
                self._events.append({"type": "pass", "seat": self._chooser})
                self._advance_assign()
            else:
                self._take(self._tasks.index(int(rest)))
        elif step == PROPOSE:
            prop = self._parse_proposal(action)
            assert prop is not None
            self._propose(prop)
        elif step == CONFIRM:
            if word == "confirm":
                self._confirm_queue.pop(0)
                self._next_confirm()
            else:
                self._events.append({"type": "reject", "seat": seat})
                self._begin_proposal(seat)
        elif step == DECIDE:
            if word == "keep":
                self._give_all(self._captain)
            else:
                s = int(rest)
                self._events.append({"type": "offer", "seat": s})
                if s == self._dummy:
                    self._give_all(s)
                else:
                    self._chooser = s
                    self._step = ACCEPT
                    self._to_move = s
        elif step == ACCEPT:
            if word == "accept":
                self._give_all(self._chooser)
            else:
                self._events.append({"type": "decline", "seat": seat})
                self._step = DECIDE
                self._to_move = self._captain
        elif step == FAILURE_VOTE:
            self._events.append({"type": "failure_vote", "seat": seat, "vote": word})
            self._vote_queue.pop(0)
            if word == "unavoidable" and self._vote_queue:
                self._to_move = self._vote_queue[0]
            else:
                po = self._pending_outcome
                assert po is not None
                self._unavoidable_this = word == "unavoidable"
                self._finish(po.result, po.trick, po.cause)
        elif step == VOLUNTEER:
            asked = self._ask.pop(0)
            if word == "yes":
                self._volunteers.append(asked)
            self._events.append({"type": "volunteer", "seat": asked, "answer": word})
            self._next_volunteer()
        elif step == PREDICT:
            self._predict(int(rest))
        elif step == DISTRESS:
            if action == "no distress":
                self._dist_queue.pop(0)
                if self._dist_queue:
                    self._to_move = self._dist_queue[0]
                else:
                    self._start_predictions()
            else:
                self._dist_dir = rest
                self._dist_proposer = seat
                if self._options["distress_activation"] == "any_human":
                    self._activate_distress()
                else:
                    voters = [(seat + i) % self._n for i in range(1, self._n)]
                    self._dist_queue = [s for s in voters if s != self._dummy]
                    if self._dist_queue:
                        self._step = DISTRESS_VOTE
                        self._to_move = self._dist_queue[0]
                    else:
                        self._activate_distress()
        elif step == DISTRESS_VOTE:
            if word == "agree":
                self._dist_queue.pop(0)
                if self._dist_queue:
                    self._to_move = self._dist_queue[0]
                else:
                    self._activate_distress()
            else:
                self._events.append({"type": "distress_refused", "seat": seat})
                self._dist_dir = None
                self._start_predictions()
        elif step == DISTRESS_GIVE:
            self._dist_choice[seat] = card(rest)
            self._dist_givers.pop(0)
            if self._dist_givers:
                self._to_move = self._dist_givers[0]
            else:
                self._pass_cards()
        else:  # pragma: no cover
            raise IllegalActionError(f"no action is legal at step {step!r}")

    def _apply_comm(self, seat: int, rest: str) -> None:
        cid, _, pos = rest.partition(" ")
        self._communicate(seat, card(cid), pos or None)

    # =========================================================================== protocol

    @property
    def players(self) -> tuple[str, ...]:
        """The seats' names (Tonoja included)."""
        return self._names

    @property
    def to_move(self) -> int:
        """The seat to act (the captain for Tonoja), or ``TERMINAL``."""
        return self._to_move

    @property
    def is_over(self) -> bool:
        return self._outcome is not None

    @property
    def current_player(self) -> int | None:
        """The seat to act (the captain for Tonoja), None at the end (the bot runners' name)."""
        return None if self._outcome is not None else self._to_move

    @property
    def turn_number(self) -> int:
        """The number of actions applied."""
        return len(self._history)

    @property
    def at_turn_boundary(self) -> bool:
        """Always True: every action is one turn."""
        return True

    def chance_outcomes(self) -> Sequence[tuple[Any, Fraction]]:
        """Empty: the deal is made from the seed at construction; nothing random follows."""
        return ()

    def apply_chance(self, outcome: Any) -> None:
        raise IllegalActionError("The Crew has no chance node after the deal (it is made from the seed)")

    def sample_chance(self) -> None:
        raise IllegalActionError("The Crew has no chance node after the deal (it is made from the seed)")

    @property
    def scores(self) -> tuple[int, ...]:
        """1 for every seat when the mission succeeded, else 0 (a cooperative game)."""
        ok = self._outcome is not None and self._outcome.result == "success"
        return tuple(1 if ok else 0 for _ in range(self._n))

    @property
    def winners(self) -> tuple[int, ...]:
        """Every seat on success, else ``()``."""
        if self._outcome is not None and self._outcome.result == "success":
            return tuple(range(self._n))
        return ()

    def returns(self) -> tuple[float, ...]:
        """1.0 for every seat on success, 0.0 otherwise."""
        return tuple(float(s) for s in self.scores)

    def clone(self) -> CrewGame:
        """An independent copy.  The generator is copied while the deal is still to be made (the
        ``timing`` step); afterwards nothing in the attempt draws from it (``next_attempt`` copies
        its state without consuming it), so copies share it."""
        new = object.__new__(CrewGame)
        d = new.__dict__
        d.update(self.__dict__)
        for k in _MUTABLE:
            v = d[k]
            if v is not None:
                d[k] = v.copy()
        if self._step == TIMING:
            r = random.Random()
            r.setstate(self._rng.getstate())
            new._rng = r
        if self._tracker is not None:
            new._tracker = self._tracker.copy()
        return new

    @overload
    def view(self, seat: int) -> SeatView: ...
    @overload
    def view(self, seat: None) -> CrewView: ...
    def view(self, seat: int | None) -> CrewView:
        """What ``seat`` may know (CREW.md section 15); ``None``: a spectator.  Tonoja's seat gets
        a spectator's knowledge (nobody sees its face-down cards)."""
        from .view import build_view

        if seat is not None and (not is_int(seat) or not 0 <= seat < self._n):
            raise IllegalActionError(f"a view is of a seat 0-{self._n - 1} or None, not {short_repr(seat)}")
        return build_view(self, seat)

    # =========================================================================== facts

    @property
    def seats(self) -> int:
        return self._n

    @property
    def humans(self) -> tuple[int, ...]:
        return self._humans

    @property
    def dummy(self) -> int | None:
        """Tonoja's seat (two players), else None."""
        return self._dummy

    @property
    def tricks_total(self) -> int:
        return self._T

    @property
    def captain(self) -> int:
        return self._captain

    @property
    def step(self) -> str:
        return self._step

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def mission(self) -> Mission:
        return self._mission

    @property
    def options(self) -> dict[str, Any]:
        return dict(self._options)

    @property
    def table(self) -> Mapping[int, Task]:
        """The task table under the options."""
        return self._table

    @property
    def attempt(self) -> int:
        return self._attempt

    @property
    def distress_used(self) -> bool:
        """True once the distress signal was used in this mission (this attempt or before)."""
        return self._distress_this or self._distress_before > 0

    @property
    def distress_this_attempt(self) -> bool:
        return self._distress_this

    @property
    def distress_uses(self) -> int:
        """Distress uses counted for the mission (R-9.5: once under ``distress_persistence=mission``)."""
        total = self._distress_before + (1 if self._distress_this else 0)
        if self._options["distress_persistence"] == "mission":
            return min(total, 1)
        return total

    @property
    def reported_attempts(self) -> int:
        """R-14.8: attempts played so far (this one included) + the distress penalty; failed
        attempts the humans declared unavoidable (R-14.3, ``unavoidable_failure_vote=on``) are
        not counted."""
        return self._attempt + self.distress_uses - self.unavoidable_failures

    @property
    def unavoidable_failures(self) -> int:
        """Failed attempts of the mission declared unavoidable (R-14.3), this one included."""
        return self._unavoidable_before + (1 if self._unavoidable_this else 0)

    @property
    def unavoidable_before(self) -> int:
        """Failed attempts declared unavoidable before this attempt (the constructor's
        ``unavoidable_failures``)."""
        return self._unavoidable_before

    @property
    def failure_unavoidable(self) -> bool | None:
        """After the R-14.3 vote: True when the humans declared this failure unavoidable, False
        when one did not; None without a vote."""
        return self._unavoidable_this if self._voting and self._outcome is not None else None

    @property
    def pending_failure(self) -> Outcome | None:
        """During the R-14.3 vote (step ``failure_vote``): the failure voted on."""
        return self._pending_outcome if self._step == FAILURE_VOTE else None

    @property
    def communication(self) -> str:
        """This attempt's communication mode (after terrain: normal, currents or rapture)."""
        return self._comm_mode

    @property
    def terrain(self) -> str | None:
        return None if self._terrain is None else name(self._terrain)

    @property
    def timed(self) -> bool | None:
        return self._timed

    @property
    def timer_started(self) -> bool:
        return self._timer_started

    @property
    def timer_started_at(self) -> int | None:
        """The number of actions applied when the clock started (0: at construction; the action
        ``history[n - 1]`` started it), or None while it has not started."""
        return self._timer_at

    @property
    def pending_proposal(self) -> dict[int, int] | None:
        """The proposal ``{task id: seat}`` waiting for confirmations (step ``confirm``), else None."""
        if self._step != CONFIRM or self._proposal is None:
            return None
        return dict(self._proposal)

    @property
    def comm_window(self) -> tuple[int, int]:
        """(first, last) trick before which communication is allowed in this attempt."""
        return self._comm_from, self._comm_until

    @property
    def tasks(self) -> list[TaskState]:
        tr = self._tracker
        return [
            TaskState(t, self._owners[i], tr.statuses[i] if tr is not None else OPEN, self._preds[i])
            for i, t in enumerate(self._tasks)
        ]

    @property
    def task_ids(self) -> tuple[int, ...]:
        """The tasks in draw order."""
        return tuple(self._tasks)

    def progress(self, index: int) -> list[str]:
        """The cards counting towards task ``index`` (shown beside it)."""
        if self._tracker is None:
            return []
        return [name(c) for c in self._tracker.progress(index)]

    @property
    def tricks(self) -> tuple[Trick, ...]:
        return tuple(self._tricks)

    @property
    def current_trick(self) -> tuple[tuple[int, int], ...]:
        """The trick in progress: ``(seat, card int)`` in play order."""
        return tuple(self._cur)

    @property
    def trick_number(self) -> int:
        """The number of the trick in progress or about to start (0 before play)."""
        return self._trick_no

    @property
    def leader(self) -> int:
        return self._leader

    @property
    def acting_for(self) -> int | None:
        """The seat whose turn it is (Tonoja's seat when the captain acts for it); None at the end."""
        step = self._step
        if step == OVER:
            return None
        if step == PLAY:
            return self._seat_to_play()
        if step in (ASSIGN, VOLUNTEER, PROPOSE):
            return self._chooser
        if step == PREDICT:
            return self._owners[self._pred_queue[0]]
        return self._to_move

    @property
    def tricks_won(self) -> tuple[int, ...]:
        return tuple(self._won)

    @property
    def outcome(self) -> Outcome | None:
        return self._outcome

    def hand(self, seat: int) -> list[str]:
        """The truth: every card ``seat`` holds (Tonoja: face-up and face-down).  For engines and
        tests only; bots and screens get :meth:`view`."""
        m = self._hands[seat]
        if seat == self._dummy:
            for c in self._down:
                if c >= 0:
                    m |= 1 << c
        return [DECK[c] for c in bits(m)]

    def hand_mask(self, seat: int) -> int:
        """:meth:`hand` as a card mask."""
        m = self._hands[seat]
        if seat == self._dummy:
            for c in self._down:
                if c >= 0:
                    m |= 1 << c
        return m

    @property
    def hand_counts(self) -> tuple[int, ...]:
        return tuple(self._counts)

    @property
    def dummy_columns(self) -> tuple[tuple[str | None, str | None], ...]:
        """Tonoja's 7 columns as (face-up card, face-down card) (the truth), or ``()``."""
        if self._dummy is None:
            return ()
        return tuple(
            (None if u < 0 else DECK[u], None if d < 0 else DECK[d])
            for u, d in zip(self._up, self._down, strict=True)
        )

    @property
    def dummy_layout(self) -> tuple[tuple[str, str | None], ...]:
        """Tonoja's columns as dealt: (first face-up card, face-down card once it turned up, else
        None): public information."""
        if self._dummy is None:
            return ()
        out = []
        for col in range(7):
            hidden = self._down[col] >= 0
            out.append((DECK[self._layout_up[col]], None if hidden else DECK[self._layout_down[col]]))
        return tuple(out)

    @property
    def dealt(self) -> tuple[tuple[str, ...], ...]:
        """The deal as dealt (after any redeal, before distress), by seat; Tonoja 7 down + 7 up."""
        out = []
        for s in range(self._n):
            if s == self._dummy:
                out.append(tuple(DECK[c] for c in self._layout_down + self._layout_up))
            else:
                out.append(tuple(DECK[c] for c in bits(self._dealt[s])))
        return tuple(out)

    @property
    def tokens(self) -> tuple[str | None, ...]:
        """Per seat ``"available"`` / ``"used"`` / ``None`` (no personal token: Tonoja, rapture, none)."""
        return tuple(None if t is None else ("available" if t else "used") for t in self._tokens)

    @property
    def shared_tokens(self) -> int | None:
        return self._shared

    @property
    def communications(self) -> tuple[Communication, ...]:
        return tuple(self._comms)

    @property
    def voids(self) -> tuple[tuple[str, ...], ...]:
        """Per seat the suits it showed to be void in (it did not follow suit; Tonoja: none)."""
        return tuple(map(_VOID_SUITS.__getitem__, self._voids))

    @property
    def played_by(self) -> tuple[int, ...]:
        """Per seat the mask of the cards it played."""
        return tuple(self._played_by)

    @property
    def distress_direction(self) -> str | None:
        return self._dist_dir if self._distress_this or self._step == DISTRESS_GIVE else None

    def distress_cards(self, seat: int) -> tuple[str | None, str | None]:
        """(card ``seat`` gave, card it received) in the distress phase (private to the seat)."""
        g, r = self._dist_gave[seat], self._dist_got[seat]
        pending = self._dist_choice.get(seat) if not self._distress_this else None
        if g < 0 and pending is not None:
            g = pending
        return (None if g < 0 else DECK[g], None if r < 0 else DECK[r])

    def secret_prediction_visible(self, index: int, seat: int | None) -> bool:
        """R-8.2: may ``seat`` see the prediction of task ``index``?"""
        tid = self._tasks[index]
        if self._table[tid].params.get("reveal") != "secret":
            return True
        if self._outcome is not None:
            return True
        if self._tracker is not None and self._tracker.statuses[index] != OPEN:
            return True
        owner = self._owners[index]
        return seat is not None and seat == self._actor(owner) if owner is not None else False

    def public_history(self, seat: int | None) -> tuple[tuple[int, str], ...]:
        """The actions as ``seat`` knows them: another seat's distress card is ``"give ?"`` and a
        secret prediction it may not see ``"predict ?"``."""
        hidden = {k for i, k in self._pred_turn.items() if not self.secret_prediction_visible(i, seat)}
        out = []
        for k, (s, a) in enumerate(self._history):
            if s != seat and a.startswith("give ") and a[5:6].isalpha():
                a = "give ?"
            elif k in hidden:
                a = "predict ?"
            out.append((s, a))
        return tuple(out)

    @property
    def timed_arg(self) -> bool | None:
        """The ``timed`` the game was made with (None: the crew chooses by action)."""
        return self._timed_arg

    @property
    def distress_before(self) -> int:
        """Distress uses of the mission before this attempt."""
        return self._distress_before

    @property
    def explicit_assignment(self) -> dict[int, int] | None:
        """The ``assignment=`` the game was made with, if any."""
        return None if self._explicit_assignment is None else dict(self._explicit_assignment)

    @property
    def distress_possible(self) -> bool:
        """Can the distress signal be used in this attempt's variant (R-9.7 for two players)?"""
        return self._distress_possible()

    @property
    def distress_open(self) -> bool:
        """True until the distress phase of this attempt is over (R-9.1)."""
        return (
            self._distress_possible()
            and not self._distress_over
            and self._outcome is None
            and self._step != FAILURE_VOTE
        )

    def distress_receiver(self, seat: int) -> int | None:
        """The seat that receives ``seat``'s distress card (once a direction is set)."""
        if self._dist_dir is None:
            return None
        return self._receiver(seat)

    @property
    def history(self) -> list[dict[str, Any]]:
        """Every action in order: ``{"seat": s, "action": a}``."""
        return [{"seat": s, "action": a} for s, a in self._history]

    @property
    def actions(self) -> tuple[tuple[int, str], ...]:
        return tuple(self._history)

    @property
    def events(self) -> list[dict[str, Any]]:
        """What happened, in order (the truth: the distress cards are not in it)."""
        return [dict(e) for e in self._events]

    # =========================================================================== records

    def to_record(self) -> dict[str, Any]:
        """The attempt as a record (docs/CREW_RECORD.md, format ``the-crew-deep-sea/record@1``):
        :func:`dsa_widget.crew.record.game_to_record`."""
        return game_to_record(self)

    def save(self, path: Any) -> None:
        """Write :meth:`to_record` as JSON to a path or a text file object."""
        _save_record(self, path)

    def __repr__(self) -> str:
        """The attempt in one line, as a cell shows it (the same for a state and its clone, which
        OpenSpiel's state strings rely on).

        >>> CrewGame(["Ann", "Bob", "Cy"], target=2, seed=1)
        CrewGame(['Ann', 'Bob', 'Cy'], step='assign', trick 0 of 13, tasks [77, 46])
        """
        return (
            f"CrewGame({list(self.players)!r}, step={self.step!r}, "
            f"trick {len(self.tricks)} of {self.tricks_total}, tasks {list(self.task_ids)})"
        )

    def state_dict(self) -> dict[str, Any]:
        """The whole attempt as JSON data, hidden cards included: what ``python -m dsa_widget
        replay`` prints (:func:`dsa_widget.crew.record.state_dict`), as every game's
        ``state_dict`` is.

        >>> g = CrewGame(3, target=2, seed=1)
        >>> CrewGame.from_record(g.to_record()).state_dict() == g.state_dict()
        True
        """
        return _record_state_dict(self)

    @property
    def campaign(self) -> int | None:
        """The campaign mission number the game was made with, or None."""
        return self._campaign

    @property
    def deal_check(self) -> bool:
        """Whether deals are checked against the exceptions of R-6.10 (the ``deal_check`` argument)."""
        return self._deal_check

    @property
    def seed_gives_deal(self) -> bool:
        """True when the seed alone gives this attempt's chance outcomes: the generator came
        straight from the seed (not continued from an earlier attempt) and no deal, tasks or
        terrain were explicit."""
        return self._rng_fresh and (
            self._explicit_deal is None and self._explicit_tasks is None and self._explicit_terrain is None
        )

    def result(self) -> dict[str, Any]:
        """R-14.7: what the attempt's result records."""
        tr = self._tracker
        return {
            "mission": self._mission.to_dict(),
            "seats": self._n,
            "seed": self._seed,
            "attempt": self._attempt,
            "reported_attempts": self.reported_attempts,
            "tasks": [
                {"id": t, "owner": self._owners[i], "status": tr.statuses[i] if tr is not None else OPEN}
                for i, t in enumerate(self._tasks)
            ],
            "outcome": self._result_outcome(),
            "communication": [
                {"seat": c.seat, "card": DECK[c.card], "position": c.declared, "trick": c.trick}
                for c in self._comms
            ],
            "distress_used": self._distress_this,
            "timed": self._timed,
        }

    def _result_outcome(self) -> dict[str, Any] | None:
        if self._outcome is None:
            return None
        d = self._outcome.as_dict()
        if self.failure_unavoidable is not None:
            d["unavoidable"] = self.failure_unavoidable
        return d

    @classmethod
    def from_record(cls, doc: Any) -> CrewGame:
        """The game a record describes (:func:`dsa_widget.crew.record.load_record`: a dict, JSON
        text or bytes, a path or a file object), rebuilt by replaying its turns (checked); a bad
        record raises :class:`RecordError` naming the key (and the turn).  For older callers a
        dict may give its turns as ``actions`` (they replace ``turns``; ``outcome`` and
        ``result`` keys are ignored)."""
        if isinstance(doc, Mapping) and "setup" in doc and "actions" in doc:
            turns = doc["actions"]
            doc = {k: v for k, v in doc.items() if k not in ("actions", "outcome", "result")}
            doc["turns"] = turns
        return load_record(doc)

    def random_playout(self, rng: random.Random, trace: list[Any] | None = None) -> None:
        """Play on to the end from here with uniformly random legal actions drawn from
        ``rng``; ``trace`` (a list) receives what was played
        (:func:`dsa_widget.core.protocol.random_playout`, the plain way)."""
        plain_playout(self, rng, trace)

    def play_record_turn(self, turn: Any) -> None:
        """Play one turn as a record writes it: ``{"seat": s, "action": a}`` (or just the action)."""
        if isinstance(turn, Mapping):
            self.apply(turn.get("action"), seat=turn.get("seat"))  # type: ignore[arg-type]
        else:
            self.apply(turn)

    # =========================================================================== attempts

    def next_attempt(self, tasks: str | None = None) -> CrewGame:
        """The next attempt after a failure (R-6.9): ``tasks="same"`` redeals and assigns the same
        task cards again, ``"new"`` draws again from the target.  The generator continues (a new
        terrain card, a new deal), the attempt and distress counters carry over (R-9.5, R-14.8).
        The timed / untimed choice is asked again (R-6.11 step 1: every attempt runs it) unless
        the constructor fixed ``timed``.  Under ``task_deck_between_missions=used_pile`` a new
        draw leaves out the tasks drawn so far until the deck runs low (R-6.2, D-13)."""
        if self._outcome is None or self._outcome.result != "failure":
            raise IllegalActionError("a next attempt follows a failed attempt")
        rule = self._options["retry_tasks"]
        if tasks is None:
            if rule == "ask":
                raise IllegalActionError("say tasks='same' or tasks='new' (option retry_tasks='ask')")
            tasks = rule
        if tasks not in ("same", "new") or (rule != "ask" and tasks != rule):
            raise IllegalActionError(
                f"tasks must be 'same' or 'new' (retry_tasks={rule!r}), not {short_repr(tasks)}"
            )
        r = random.Random()
        r.setstate(self._rng.getstate())
        humans = [self._names[s] for s in self._humans]
        return CrewGame(
            humans,
            mission=self._mission,
            options=self._options,
            seed=self._seed,
            tasks=list(self._tasks) if tasks == "same" else None,
            attempt=self._attempt + 1,
            distress_used=self._distress_before + (1 if self._distress_this else 0),
            unavoidable_failures=self.unavoidable_failures,
            timed=self._timed_arg,
            deal_check=self._deal_check,
            _rng=r,
            _used=(*self._used, *self._tasks) if tasks == "new" else self._used,
        )

    # =========================================================================== sampling

    @classmethod
    def from_view(cls, view: CrewView, hands: Sequence[int], rng: random.Random) -> CrewGame:
        """A full game consistent with ``view`` whose current hands are ``hands`` (card masks by
        seat; Tonoja's face-up and face-down cards together): the deal is rebuilt (cards played
        go back to their players, the distress cards are chosen with ``rng`` when the view does
        not know them), then the view's public history is replayed.  Secret predictions the view
        does not know are drawn from the values still consistent with the statuses."""
        n = view.seats
        if view.step == TIMING:  # nothing dealt yet: the same setup, a fresh seed for the deal
            humans = [view.players[s] for s in view.humans]
            return cls(
                humans,
                mission=view.mission,
                options=view.options,
                seed=rng.getrandbits(63),
                attempt=view.attempt,
                distress_used=view.distress_before,
                unavoidable_failures=view.unavoidable_before,
                timed=view.timed_arg,
                assignment=view.explicit_assignment,
            )
        final = [hands[s] | view.played_by[s] for s in range(n)]
        # distress: received cards
        hist = list(view.public_history)
        dist_dir = view.distress["direction"]
        gives: dict[int, int] = {}
        if view.distress_passed:
            givers = [s for s in range(n) if s != view.dummy]

            def receiver(s: int) -> int:
                if view.dummy is not None:
                    a, b = givers
                    return b if s == a else a
                return (s + 1) % n if dist_dir == "cw" else (s - 1) % n

            src = {receiver(s): s for s in givers}
            got: dict[int, int] = {}
            me = view.seat
            if me is not None and me in src:
                mine = view.distress
                if mine["received"] is not None:
                    got[me] = card(mine["received"])
                if mine["given"] is not None:
                    got[receiver(me)] = card(mine["given"])
            for j in sorted(src):
                if j not in got:
                    pool = [c for c in bits(final[j] & ~_SUB_MASK) if c not in got.values()]
                    got[j] = rng.choice(pool)
            original = list(final)
            for j, c in got.items():
                original[j] &= ~(1 << c)
                original[src[j]] |= 1 << c
                gives[src[j]] = c
        else:
            original = list(final)
            for seat, action in hist:  # cards chosen but not passed yet
                if action == "give ?":
                    gives[seat] = rng.choice(bits(final[seat] & ~_SUB_MASK))
        deal: list[list[str]] = []
        for s in range(n):
            if s == view.dummy:
                layout = view.dummy_layout
                known_down = {card(d) for _, d in layout if d is not None}
                ups = [card(u) for u, _ in layout]
                hidden = [c for c in bits(original[s]) if c not in known_down and c not in ups]
                rng.shuffle(hidden)
                downs = []
                for _, d in layout:
                    downs.append(card(d) if d is not None else hidden.pop())
                deal.append([DECK[c] for c in downs + ups])
            else:
                deal.append([DECK[c] for c in bits(original[s])])
        humans = [view.players[s] for s in view.humans]
        game = cls(
            humans,
            mission=view.mission,
            options=view.options,
            seed=rng.getrandbits(63),
            deal=deal,
            tasks=list(view.task_ids),
            terrain=view.terrain,
            attempt=view.attempt,
            distress_used=view.distress_before,
            unavoidable_failures=view.unavoidable_before,
            timed=view.timed_arg,
            deal_check=False,
            assignment=view.explicit_assignment,
        )
        declared = {c.turn: c.position for c in view.communicated if c.position != "unknown"}
        for turn, (seat, action) in enumerate(hist):
            if action.startswith("comm ") and turn in declared:
                # the declaration as the table saw it, whatever the sampled hand says
                game._history.append((seat, action))
                game._communicate(seat, card(action.split()[1]), declared[turn], forced=True)
                continue
            if action == "give ?":
                action = _GIVE[gives[seat]]
            elif action == "predict ?":
                i = game._pred_queue[0]
                owner = game._owners[i]
                assert owner is not None
                won = view.tricks_won[owner]
                left = view.tricks_total - len(view.all_tricks)
                action = f"predict {rng.randint(won, won + left)}"
            game.apply_unchecked(action, seat)
        return game


def _dumps(x: Any) -> str:  # pragma: no cover - debugging aid
    return json.dumps(x, sort_keys=True)
