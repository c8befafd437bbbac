"""Task statuses (CREW.md section 13) and mission constraints (R-14.4), kept incrementally.

A :class:`StatusTracker` is fed one completed :class:`Trick` at a time and keeps every task's
status (``"open"``, ``"done"``, ``"failed"``) from public information only (R-13.1): the
tricks, the captain, N, T and the predictions.  Each task is compiled once, at construction,
into a small closure over bit masks (and the closures are cached), and only tasks still OPEN
are looked at after a trick, so a trick costs a few microseconds.  :func:`final_truth` is an
independent end-of-deal judgement of a task written from its plain meaning; the tests use it to
cross-check the incremental rules.

Mission constraints are mappings with a ``"kind"`` key, as :mod:`dsa_widget.crew.mission` writes
them (``"type"`` is accepted too): ``{"kind": "lead_ban", "suits": ["P", "S"]}``,
``{"kind": "balance", "select": {"ranks": [9]}, "max_gap": 1}``, ``{"kind": "first_winner_leads"}``,
``{"kind": "final_card", "card": "Y5"}``; their states are ``"open"``, ``"secured"``, ``"broken"``.

Worked example 18.5 (task 91, N = 3): seat 1 leads the table 5 tricks to 2 and 2 after trick 9;
taking trick 10 makes the task DONE (6 > 2 + 3) and, as it is the only task, the mission succeeds.

>>> from dsa_widget.crew.tasks import TASKS
>>> tr = StatusTracker([(TASKS[91], 1)], seats=3, tricks_total=13, captain=0, options={})
>>> leader = 0
>>> for i, w in enumerate([0, 0, 1, 1, 1, 1, 1, 2, 2], 1):  # w plays the highest of three cards
...     hand = {w: 3 * i - 1, (w + 1) % 3: 3 * i - 3, (w + 2) % 3: 3 * i - 2}
...     plays = tuple((s % 3, hand[s % 3]) for s in range(leader, leader + 3))
...     _ = tr.add_trick(Trick(i, leader, plays, trick_winner(plays)))
...     leader = w
>>> tr.tricks_won, tr.statuses, tr.mission_state()
([2, 5, 2], ['open'], 'open')
>>> tr.add_trick(Trick(10, 2, ((2, card("G1")), (0, card("G2")), (1, card("S1"))), 1))
[(0, 'done')]
>>> tr.mission_state()
'success'
>>> trick_winner([(2, card("Y4")), (3, card("Y9")), (0, card("S1")), (1, card("Y2"))])  # 18.3
0
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import is_int
from .cards import ALL, DECK, NCARDS, SUBMARINES, SUIT_MASK, bits, card
from .errors import IllegalActionError, SetupError
from .tasks import Task, selector_mask

__all__ = [
    "BROKEN",
    "DONE",
    "FAILED",
    "OPEN",
    "SECURED",
    "StatusTracker",
    "Trick",
    "final_truth",
    "trick_winner",
]

OPEN, DONE, FAILED = "open", "done", "failed"
#: the states of a mission constraint besides OPEN (R-14.4)
SECURED, BROKEN = "secured", "broken"

# per-card tables (index = card int)
_RANK = tuple(int(c[1:]) for c in DECK)
_IS_SUB = tuple(c[0] == "S" for c in DECK)
_COLOURED_RANK_MASK = {
    r: sum(1 << i for i, c in enumerate(DECK) if c[0] != "S" and _RANK[i] == r) for r in range(10)
}


@dataclass(frozen=True, slots=True)
class Trick:
    """One completed trick, public information: ``plays`` are ``(seat, card int)`` in play order."""

    number: int
    leader: int
    plays: tuple[tuple[int, int], ...]
    winner: int


def trick_winner(plays: Sequence[tuple[int, int]]) -> int:
    """The seat that wins a trick (R-10.3): the highest submarine if any, else the highest card of
    the led colour.  ``plays`` are ``(seat, card int)`` in play order, the leader first."""
    best_seat, best = plays[0]
    lead_suit = best // 9 if best < 36 else 4
    for seat, c in plays[1:]:
        if c >= 36:
            if best < 36 or c > best:
                best_seat, best = seat, c
        elif best < 36 and c // 9 == lead_suit and c > best:
            best_seat, best = seat, c
    return best_seat


_SELECTOR_CACHE: dict[tuple[str, tuple[Any, ...]], int] = {}


def _sel(select: Mapping[str, Any]) -> int:
    """:func:`~dsa_widget.crew.tasks.selector_mask`, memoised."""
    ((k, v),) = select.items()
    key = (k, tuple(v))
    m = _SELECTOR_CACHE.get(key)
    if m is None:
        m = _SELECTOR_CACHE[key] = selector_mask(select)
    return m


def _positions(values: Any, tricks_total: int) -> list[int]:
    return [tricks_total if p == "last" else int(p) for p in values]


def _pos_mask(positions: Sequence[int]) -> int:
    m = 0
    for p in positions:
        m |= 1 << (p - 1)
    return m


def _consecutive(p: int) -> bool:
    """True when the set bits of ``p`` form one block (no bit at all counts as one block)."""
    if not p:
        return True
    m = p >> ((p & -p).bit_length() - 1)
    return m & (m + 1) == 0


def _runs(p: int) -> list[int]:
    """The lengths of the maximal blocks of set bits of ``p``."""
    out = []
    n = 0
    while p:
        if p & 1:
            n += 1
        elif n:
            out.append(n)
            n = 0
        p >>= 1
    if n:
        out.append(n)
    return out


# ----------------------------------------------------------------------------------------------
# trick_matching tests, as a predicate on the card mask of one trick


def _matching_test(
    params: Mapping[str, Any], seats: int, options: Mapping[str, Any]
) -> Callable[[int], bool]:
    test = params["test"]
    no_sub = bool(params.get("no_submarine", False))
    if test == "all_ranks":
        v = int(params["value"])
        ranks = range(1, v) if params["cmp"] == "lt" else range(v + 1, 10)
        q = 0
        for r in ranks:
            q |= _COLOURED_RANK_MASK[r]
        return lambda m: not (m & ~q)
    if test == "all_parity":
        want = 0 if params["parity"] == "even" else 1
        face = options.get("parity_with_submarines") == "face_value"
        q = 0
        for i in range(NCARDS):
            if _RANK[i] % 2 == want and (face or not _IS_SUB[i]):
                q |= 1 << i
        return lambda m: not (m & ~q)
    if test == "rank_sum":
        cmp = params["cmp"]
        values: frozenset[int] = frozenset()
        value = 0
        if cmp == "in":
            if options.get("sum_with_submarines") == "face_value":
                no_sub = False
            values = frozenset(int(x) for x in params["values"])
        else:
            value = int(params["value_by_players"][str(seats)])
        excl = SUBMARINES if no_sub else 0

        def rank_sum(m: int) -> bool:
            if m & excl:
                return False
            s = 0
            while m:
                low = m & -m
                s += _RANK[low.bit_length() - 1]
                m ^= low
            if cmp == "gt":
                return s > value
            if cmp == "lt":
                return s < value
            return s in values

        return rank_sum
    if test == "equal_suit_count":
        a, b = (SUIT_MASK[s] for s in params["suits"])
        lo = int(params["min_each"])
        excl = SUBMARINES if no_sub else 0

        def equal(m: int) -> bool:
            if m & excl:
                return False
            ca = (m & a).bit_count()
            return ca >= lo and ca == (m & b).bit_count()

        return equal
    raise SetupError(f"unknown trick_matching test {test!r}", "test")


# ----------------------------------------------------------------------------------------------
# compiling a task: a closure tracker -> 0 (open), 1 (done), 2 (failed); FAILED is tested first
# wherever both could be met

_Eval = Callable[["StatusTracker"], int]


def _compile(
    task: Task, o: int, index: int, seats: int, T: int, captain: int, options: Mapping[str, Any]
) -> _Eval:
    kind = task.kind
    p = task.params

    if kind == "win_cards":
        need = 0
        for cid in p["cards"]:
            need |= 1 << card(cid)

        def win_cards(tr: StatusTracker) -> int:
            w = tr._won[o]
            if need & ~w & ~tr._live:
                return 2
            return 1 if w & need == need else 0

        return win_cards

    if kind == "win_card_in_trick":
        b = 1 << card(p["card"])
        at = _positions([p["trick"]], T)[0]

        def in_trick(tr: StatusTracker) -> int:
            if tr._r == at and tr._last_winner == o and tr._last_mask & b:
                return 1
            return 0 if tr._live & b else 2

        return in_trick

    if kind in ("card_count", "avoid_cards"):
        if kind == "avoid_cards":
            cons = [(_sel(p["select"]), True, 0)]
        else:
            cons = [(_sel(c["select"]), c["op"] == "eq", int(c["n"])) for c in p["constraints"]]
        if len(cons) == 1 and cons[0][1] and cons[0][2] == 0:
            s0 = cons[0][0]

            def avoid(tr: StatusTracker) -> int:
                if tr._won[o] & s0:
                    return 2
                return 0 if tr._live & s0 else 1

            return avoid

        def card_count(tr: StatusTracker) -> int:
            w = tr._won[o]
            live = tr._live
            secured = True
            for s, eq, n in cons:
                c = (w & s).bit_count()
                lv = (live & s).bit_count()
                if c + lv < n or (eq and c > n):
                    return 2
                if secured and not (c == n and lv == 0 if eq else c >= n):
                    secured = False
            return 1 if secured else 0

        return card_count

    if kind == "all_of_a_suit":
        suits = [SUIT_MASK[s] for s in p["of_any"]]

        def all_of(tr: StatusTracker) -> int:
            w = tr._won[o]
            gone = ~w & ~tr._live
            possible = False
            for m in suits:
                if w & m == m:
                    return 1
                if not (m & gone):
                    possible = True
            return 0 if possible else 2

        return all_of

    if kind == "compare_suits":
        am, bm = SUIT_MASK[p["a"]], SUIT_MASK[p["b"]]
        if p["op"] == "gt":

            def more(tr: StatusTracker) -> int:
                w = tr._won[o]
                live = tr._live
                ca, cb = (w & am).bit_count(), (w & bm).bit_count()
                if ca + (live & am).bit_count() <= cb:
                    return 2
                return 1 if ca > cb + (live & bm).bit_count() else 0

            return more
        lo = int(p["min_each"])

        def same(tr: StatusTracker) -> int:
            w = tr._won[o]
            live = tr._live
            ca, cb = (w & am).bit_count(), (w & bm).bit_count()
            la, lb = (live & am).bit_count(), (live & bm).bit_count()
            if ca > cb + lb or cb > ca + la or ca + la < lo or cb + lb < lo:
                return 2
            return 1 if la == 0 and lb == 0 and ca == cb >= lo else 0

        return same

    if kind == "win_trick_with":
        pm = _sel(p["play"])
        if p.get("capture") is None:

            def with_card(tr: StatusTracker) -> int:
                if tr._last_winner == o and tr._last_wcard & pm:
                    return 1
                return 0 if tr._live & pm else 2

            return with_card
        cm = _sel(p["capture"])

        def with_pair(tr: StatusTracker) -> int:
            wc = tr._last_wcard
            if tr._last_winner == o and wc & pm and tr._last_mask & ~wc & cm:
                return 1
            # FAILED: no live card matching play together with a different live card matching capture
            lp = tr._live & pm
            lc = tr._live & cm
            if not lp or not lc or (lp == lc and not lp & (lp - 1)):
                return 2
            return 0

        return with_pair

    if kind == "trick_matching":
        test = _matching_test(p, seats, options)

        def matching(tr: StatusTracker) -> int:
            if tr._last_winner == o and test(tr._last_mask):
                return 1
            return 2 if tr._r == T else 0

        return matching

    if kind == "no_lead":
        lm = 0
        for s in p["suits"]:
            lm |= SUIT_MASK[s]

        def no_lead(tr: StatusTracker) -> int:
            if tr._led[o] & lm:
                return 2
            return 0 if tr._live & lm else 1

        return no_lead

    if kind == "trick_positions":
        win = _positions(p["win"], T)
        if p["avoid"] == "rest":
            shun = [q for q in range(1, T + 1) if q not in win]
        else:
            shun = _positions(p["avoid"], T)
        wm, sm = _pos_mask(win), _pos_mask(shun)
        allm = wm | sm

        def positions(tr: StatusTracker) -> int:
            mine = tr._pos[o]
            done = (1 << tr._r) - 1
            if (wm & done & ~mine) or (sm & mine):
                return 2
            return 0 if allm & ~done else 1

        return positions

    if kind == "trick_count":
        fixed = None if p["n"] == "predicted" else int(p["n"])

        def count(tr: StatusTracker) -> int:
            n = fixed if fixed is not None else tr._pred[index]
            if n is None:
                return 0
            c = tr._k[o]
            if c > n or c + T - tr._r < n:
                return 2
            return 1 if tr._r == T and c == n else 0

        return count

    if kind == "trick_run":
        mode = p["mode"]
        n = int(p["n"])
        if mode == "at_least":

            def at_least(tr: StatusTracker) -> int:
                cur = tr._run_len if tr._run_seat == o else 0
                if cur >= n:
                    return 1
                return 2 if cur + T - tr._r < n else 0

            return at_least
        if mode == "never":

            def never(tr: StatusTracker) -> int:
                if tr._run_seat == o and tr._run_len >= n:
                    return 2
                return 1 if tr._r == T else 0

            return never
        if mode != "exactly_all":
            raise SetupError(f"unknown trick_run mode {mode!r}", "mode")
        if options.get("exact_run_meaning") == "one_run_of_exactly_n":

            def one_run(tr: StatusTracker) -> int:
                if tr._r < T:
                    return 0
                return 1 if n in _runs(tr._pos[o]) else 2

            return one_run

        def exactly_all(tr: StatusTracker) -> int:
            k = tr._k[o]
            pos = tr._pos[o]
            r = tr._r
            if k > n or not _consecutive(pos) or (1 <= k < n and pos.bit_length() < r) or k + T - r < n:
                return 2
            return 1 if r == T and k == n else 0

        return exactly_all

    if kind == "trick_count_relative":
        op, vs = p["op"], p["vs"]
        others = tuple(s for s in range(seats) if s != o)
        if vs == "each_other" and op == "gt":

            def gt_each(tr: StatusTracker) -> int:
                ks = tr._k
                c, rest = ks[o], T - tr._r
                mo = max([ks[s] for s in others])
                if c + rest <= mo:
                    return 2
                return 1 if c > mo + rest else 0

            return gt_each
        if vs == "each_other" and op == "lt":

            def lt_each(tr: StatusTracker) -> int:
                ks = tr._k
                c, rest = ks[o], T - tr._r
                need = 0
                lo = NCARDS
                for s in others:
                    ksv = ks[s]
                    if ksv <= c:
                        need += c - ksv + 1
                    if ksv < lo:
                        lo = ksv
                if need > rest:
                    return 2
                return 1 if c + rest < lo else 0

            return lt_each
        if vs == "others_combined" and op == "gt":

            def gt_all(tr: StatusTracker) -> int:
                c, rest = tr._k[o], T - tr._r
                s = tr._r - c
                if c + rest <= s:
                    return 2
                return 1 if c > s + rest else 0

            return gt_all
        if vs == "captain" and op == "gt":

            def gt_cap(tr: StatusTracker) -> int:
                c, kc, rest = tr._k[o], tr._k[captain], T - tr._r
                if c + rest <= kc:
                    return 2
                return 1 if c > kc + rest else 0

            return gt_cap
        if vs == "captain" and op == "lt":

            def lt_cap(tr: StatusTracker) -> int:
                c, kc, rest = tr._k[o], tr._k[captain], T - tr._r
                if c >= kc + rest:
                    return 2
                return 1 if c + rest < kc else 0

            return lt_cap
        if vs == "captain" and op == "eq":

            def eq_cap(tr: StatusTracker) -> int:
                c, kc, rest = tr._k[o], tr._k[captain], T - tr._r
                if abs(c - kc) > rest:
                    return 2
                return 1 if rest == 0 and c == kc else 0

            return eq_cap
        raise SetupError(f"unknown trick_count_relative comparison {op!r} {vs!r}", "vs")

    raise SetupError(f"unknown task kind {kind!r}", "kind")


# compiled tasks, keyed by the identity of the task's params (kept in the value, so that the
# identity cannot be reused) and everything the closure depends on
_COMPILED: dict[tuple[Any, ...], tuple[Mapping[str, Any], _Eval]] = {}
_OPTION_KEYS = ("parity_with_submarines", "sum_with_submarines", "exact_run_meaning")


def _compiled(
    task: Task, o: int, index: int, seats: int, T: int, captain: int, options: Mapping[str, Any], okey: Any
) -> _Eval:
    predicted = task.kind == "trick_count" and task.params.get("n") == "predicted"
    key = (id(task.params), task.kind, o, index if predicted else -1, seats, T, captain, okey)
    hit = _COMPILED.get(key)
    if hit is not None and hit[0] is task.params:
        return hit[1]
    f = _compile(task, o, index, seats, T, captain, options)
    if len(_COMPILED) > 20000:
        _COMPILED.clear()
    _COMPILED[key] = (task.params, f)
    return f


def _compile_constraint(con: Mapping[str, Any], seats: int, T: int) -> _Eval:
    """A mission constraint (R-14.4) as a closure tracker -> 0 (open), 1 (secured), 2 (broken)."""
    kind = con.get("kind", con.get("type"))
    if kind == "lead_ban":
        bm = 0
        for s in con["suits"]:
            bm |= SUIT_MASK[s]

        def lead_ban(tr: StatusTracker) -> int:
            if tr._led_all & bm:
                return 2
            return 0 if tr._live & bm else 1

        return lead_ban
    if kind == "balance":
        sm = _sel(con["select"])
        gap = int(con["max_gap"])

        def balance(tr: StatusTracker) -> int:
            counts = [(w & sm).bit_count() for w in tr._won]
            if max(counts) - min(counts) > gap:
                return 2
            return 0 if tr._live & sm else 1

        return balance
    if kind == "first_winner_leads":

        def first_leads(tr: StatusTracker) -> int:
            ks = tr._k
            w1 = tr._first_winner
            kw = ks[w1]
            for s in range(seats):
                if s != w1 and ks[s] >= kw:
                    return 2
            return 1 if tr._r == T else 0

        return first_leads
    if kind == "final_card":
        c = card(con["card"])
        b = 1 << c

        def final(tr: StatusTracker) -> int:
            if tr._r == T and tr._last_card == c:
                return 1
            return 2 if tr._played & b or tr._r == T else 0

        return final
    raise SetupError(
        f"unknown mission constraint {kind!r}: lead_ban, balance, first_winner_leads, final_card",
        "constraints",
    )


class StatusTracker:
    """The statuses of the assigned tasks and of the mission constraints, updated trick by trick.

    ``assigned`` lists ``(task, owner seat)``; ``predictions`` maps a task id to X for the
    ``n = "predicted"`` tasks (:meth:`set_prediction` sets one by index; a predicted task whose
    X is not set stays OPEN).  ``statuses`` and ``constraint_states`` are read-only lists.
    """

    __slots__ = (
        "_tasks",
        "_owners",
        "_evals",
        "_cevals",
        "_seats",
        "_T",
        "_captain",
        "statuses",
        "constraint_states",
        "_open",
        "_copen",
        "_n_done",
        "_n_failed",
        "_n_secured",
        "_n_broken",
        "_done_at",
        "_pred",
        "_tricks",
        "_r",
        "_played",
        "_live",
        "_won",
        "_k",
        "_pos",
        "_led",
        "_led_all",
        "_run_seat",
        "_run_len",
        "_first_winner",
        "_last_winner",
        "_last_mask",
        "_last_wcard",
        "_last_card",
    )

    def __init__(
        self,
        assigned: Sequence[tuple[Task, int]],
        *,
        seats: int,
        tricks_total: int,
        captain: int,
        options: Mapping[str, Any],
        predictions: Mapping[int, int] | None = None,
        constraints: Sequence[Mapping[str, Any]] = (),
    ) -> None:
        if not 2 <= seats <= 5 or not 1 <= tricks_total <= NCARDS // seats:
            raise SetupError(f"bad table: {seats} seats and {tricks_total} tricks", "seats")
        if not 0 <= captain < seats:
            raise SetupError(f"the captain must be a seat 0-{seats - 1}, not {captain!r}", "captain")
        self._seats = seats
        self._T = tricks_total
        self._captain = captain
        tasks = []
        owners = []
        evals = []
        okey = tuple(options.get(k) for k in _OPTION_KEYS)
        for i, (t, o) in enumerate(assigned):
            if not 0 <= o < seats:
                raise SetupError(f"an owner must be a seat 0-{seats - 1}, not {o!r}", "owner")
            tasks.append(t)
            owners.append(o)
            evals.append(_compiled(t, o, i, seats, tricks_total, captain, options, okey))
        self._tasks = tuple(tasks)
        self._owners = tuple(owners)
        self._evals = tuple(evals)
        self._cevals = tuple(_compile_constraint(c, seats, tricks_total) for c in constraints)
        n = len(tasks)
        self.statuses: list[str] = [OPEN] * n
        self.constraint_states: list[str] = [OPEN] * len(self._cevals)
        self._open = list(range(n))
        self._copen = list(range(len(self._cevals)))
        self._n_done = self._n_failed = self._n_secured = self._n_broken = 0
        self._done_at = [0] * n
        self._pred: list[int | None] = [None] * n
        self._tricks: list[Trick] = []
        self._r = 0
        self._played = 0
        self._live = ALL
        self._won = [0] * seats
        self._k = [0] * seats
        self._pos = [0] * seats
        self._led = [0] * seats
        self._led_all = 0
        self._run_seat = -1
        self._run_len = 0
        self._first_winner = -1
        self._last_winner = -1
        self._last_mask = 0
        self._last_wcard = 0
        self._last_card = -1
        if predictions:
            for i, t in enumerate(tasks):
                if t.id in predictions and t.kind == "trick_count" and t.params.get("n") == "predicted":
                    self.set_prediction(i, predictions[t.id])

    # -- reading ---------------------------------------------------------------------------------

    @property
    def tricks(self) -> tuple[Trick, ...]:
        """The completed tricks, in order."""
        return tuple(self._tricks)

    @property
    def tricks_won(self) -> list[int]:
        """The number of tricks each seat has taken."""
        return list(self._k)

    def prediction(self, index: int) -> int | None:
        """The prediction X of task ``index`` (None if not set, or not a predicted task)."""
        return self._pred[index]

    def mission_state(self) -> str:
        """``"failure"`` if a task is FAILED or a constraint broken, ``"success"`` if every task is
        DONE and every constraint secured (R-14.1, R-14.6), otherwise ``"open"``."""
        if self._n_failed or self._n_broken:
            return "failure"
        if self._n_done == len(self._tasks) and self._n_secured == len(self._cevals):
            return "success"
        return OPEN

    def progress(self, index: int) -> list[int]:
        """The cards that count towards task ``index``, to show beside it (deck order).

        The owner's captured cards that the task counts (for ``avoid_cards``: the ones that broke
        it); the cards of the trick that fulfilled a one-trick task; the cards of the listed
        colours the owner led (``no_lead``); nothing for the tasks about tricks, not cards.
        """
        task, o = self._tasks[index], self._owners[index]
        kind, p = task.kind, task.params
        w = self._won[o]
        m = 0
        if kind == "win_cards":
            for cid in p["cards"]:
                m |= 1 << card(cid)
        elif kind == "card_count":
            for c in p["constraints"]:
                m |= _sel(c["select"])
        elif kind == "avoid_cards":
            m = _sel(p["select"])
        elif kind == "all_of_a_suit":
            for s in p["of_any"]:
                m |= SUIT_MASK[s]
        elif kind == "compare_suits":
            m = SUIT_MASK[p["a"]] | SUIT_MASK[p["b"]]
        elif kind in ("win_card_in_trick", "win_trick_with", "trick_matching"):
            at = self._done_at[index]
            if not at:
                return []
            if kind == "win_card_in_trick":
                return [card(p["card"])]
            return sorted(c for _, c in self._tricks[at - 1].plays)
        elif kind == "no_lead":
            for s in p["suits"]:
                m |= SUIT_MASK[s]
            w = self._led[o]
        else:
            return []
        return bits(w & m)

    # -- changing --------------------------------------------------------------------------------

    def set_prediction(self, index: int, x: int) -> None:
        """Fix the prediction X (0 <= X <= T) of the predicted task ``index`` (R-8.1, R-8.3);
        :class:`~dsa_widget.crew.errors.IllegalActionError` if it is not allowed."""
        task = self._tasks[index]
        if task.kind != "trick_count" or task.params.get("n") != "predicted":
            raise IllegalActionError(f"task {task.id} takes no prediction")
        if self._pred[index] is not None:
            raise IllegalActionError(f"the prediction of task {task.id} is fixed already (R-8.3)")
        if not is_int(x) or not 0 <= x <= self._T:
            raise IllegalActionError(f"a prediction is a number of tricks from 0 to {self._T}, not {x!r}")
        self._pred[index] = x
        if self.statuses[index] == OPEN:
            v = self._evals[index](self)
            if v:
                self._open.remove(index)
                self._mark(index, v)

    def add_trick(self, trick: Trick) -> list[tuple[int, str]]:
        """Record one completed trick; return (index into assigned, new status) for every task
        whose status changed (a DONE or FAILED status never changes again)."""
        return self.push_trick(trick)[0]

    def push_trick(self, trick: Trick) -> tuple[list[tuple[int, str]], tuple[Any, ...]]:
        """:meth:`add_trick`, and a token that :meth:`pop_trick` takes to take the trick back
        (a search applies and takes back tricks instead of copying the tracker)."""
        winner = trick.winner
        leader = trick.leader
        token = (
            winner,
            leader,
            self._played,
            self._live,
            self._won[winner],
            self._pos[winner],
            self._led[leader],
            self._led_all,
            self._run_seat,
            self._run_len,
            self._first_winner,
            self._last_winner,
            self._last_mask,
            self._last_wcard,
            self._last_card,
            self._open,
            self._copen,
            self._n_done,
            self._n_failed,
            self._n_secured,
            self._n_broken,
        )
        changed = self._add(trick)
        return changed, token

    def pop_trick(self, token: tuple[Any, ...], changed: Sequence[tuple[int, str]]) -> None:
        """Take back the last trick: ``token`` and ``changed`` are what :meth:`push_trick` gave
        for it (tricks are taken back last first)."""
        (
            winner,
            leader,
            self._played,
            self._live,
            self._won[winner],
            self._pos[winner],
            self._led[leader],
            self._led_all,
            self._run_seat,
            self._run_len,
            self._first_winner,
            self._last_winner,
            self._last_mask,
            self._last_wcard,
            self._last_card,
            self._open,
            copen,
            self._n_done,
            self._n_failed,
            self._n_secured,
            self._n_broken,
        ) = token
        self._tricks.pop()
        self._r -= 1
        self._k[winner] -= 1
        statuses = self.statuses
        for i, _ in changed:
            statuses[i] = OPEN
            self._done_at[i] = 0
        if len(copen) != len(self._copen):
            states = self.constraint_states
            for j in copen:
                states[j] = OPEN
        self._copen = copen

    def _add(self, trick: Trick) -> list[tuple[int, str]]:
        r = self._r + 1
        winner = trick.winner
        plays = trick.plays
        mask = wcard = 0
        for seat, c in plays:
            b = 1 << c
            mask |= b
            if seat == winner:
                wcard = b
        played = self._played
        if trick.number != r or r > self._T or mask & played or not wcard:
            raise IllegalActionError(
                f"not a next trick: expected trick {r} of {self._T} with new cards, the winner among "
                f"the players; got trick {trick.number}"
            )
        played |= mask
        self._tricks.append(trick)
        self._r = r
        self._played = played
        self._live = ALL & ~played if r < self._T else 0
        self._won[winner] |= mask
        self._k[winner] += 1
        self._pos[winner] |= 1 << (r - 1)
        lead = 1 << plays[0][1]
        self._led[trick.leader] |= lead
        self._led_all |= lead
        if self._run_seat == winner:
            self._run_len += 1
        else:
            self._run_seat = winner
            self._run_len = 1
            if r == 1:
                self._first_winner = winner
        self._last_winner = winner
        self._last_mask = mask
        self._last_wcard = wcard
        self._last_card = plays[-1][1]

        changed: list[tuple[int, str]] = []
        if self._open:
            evals = self._evals
            still = []
            for i in self._open:
                v = evals[i](self)
                if v:
                    changed.append((i, self._mark(i, v)))
                else:
                    still.append(i)
            if changed:
                self._open = still
        if self._copen:
            cevals = self._cevals
            states = self.constraint_states
            still = []
            for j in self._copen:
                v = cevals[j](self)
                if v == 1:
                    states[j] = SECURED
                    self._n_secured += 1
                elif v == 2:
                    states[j] = BROKEN
                    self._n_broken += 1
                else:
                    still.append(j)
            self._copen = still
        return changed

    def _mark(self, i: int, v: int) -> str:
        if v == 1:
            self.statuses[i] = DONE
            self._n_done += 1
            self._done_at[i] = self._r
            return DONE
        self.statuses[i] = FAILED
        self._n_failed += 1
        return FAILED

    def copy(self) -> StatusTracker:
        """An independent copy (the compiled tasks are shared: they hold no state)."""
        new = StatusTracker.__new__(StatusTracker)
        for name in _SHARED:
            setattr(new, name, getattr(self, name))
        for name in _LISTS:
            setattr(new, name, getattr(self, name).copy())
        return new


#: the slots copy() duplicates; every other slot is immutable and shared
_LISTS = (
    "statuses",
    "constraint_states",
    "_open",
    "_copen",
    "_done_at",
    "_pred",
    "_tricks",
    "_won",
    "_k",
    "_pos",
    "_led",
)
_SHARED = tuple(n for n in StatusTracker.__slots__ if n not in _LISTS)


# ----------------------------------------------------------------------------------------------
# the independent end-of-deal judgement: sets and card ids, no masks, no incremental state


def _rank_of(c: int) -> int:
    return int(DECK[c][1:])


def _suit_of(c: int) -> str:
    return DECK[c][0]


_SELECTED: dict[tuple[str, tuple[Any, ...]], frozenset[int]] = {}


def _selected(select: Mapping[str, Any]) -> frozenset[int]:
    """The cards a selector names (CREW.md 13.2), read from the card ids (memoised)."""
    ((key, value),) = select.items()
    memo = (key, tuple(value))
    out = _SELECTED.get(memo)
    if out is None:
        if key == "cards":
            out = frozenset(i for i, cid in enumerate(DECK) if cid in value)
        elif key == "suits":
            out = frozenset(i for i, cid in enumerate(DECK) if cid[0] in value)
        else:
            out = frozenset(i for i, cid in enumerate(DECK) if cid[0] != "S" and int(cid[1:]) in value)
        _SELECTED[memo] = out
    return out


def _trick_passes(
    params: Mapping[str, Any], cards: list[int], seats: int, options: Mapping[str, Any]
) -> bool:
    test = params["test"]
    has_sub = any(_suit_of(c) == "S" for c in cards)
    ranks = [_rank_of(c) for c in cards]
    if test == "all_ranks":
        if has_sub:
            return False
        v = params["value"]
        return all(x < v for x in ranks) if params["cmp"] == "lt" else all(x > v for x in ranks)
    if test == "all_parity":
        if has_sub and options.get("parity_with_submarines") != "face_value":
            return False
        want = 0 if params["parity"] == "even" else 1
        return all(x % 2 == want for x in ranks)
    if test == "rank_sum":
        total = sum(ranks)
        if params["cmp"] == "in":
            if has_sub and params.get("no_submarine") and options.get("sum_with_submarines") != "face_value":
                return False
            return total in params["values"]
        if has_sub and params.get("no_submarine"):
            return False
        value = params["value_by_players"][str(seats)]
        return bool(total > value if params["cmp"] == "gt" else total < value)
    if test == "equal_suit_count":
        if has_sub and params.get("no_submarine"):
            return False
        a, b = params["suits"]
        na = sum(1 for c in cards if _suit_of(c) == a)
        nb = sum(1 for c in cards if _suit_of(c) == b)
        return bool(na == nb and na >= params["min_each"])
    raise SetupError(f"unknown trick_matching test {test!r}", "test")


_CARD_KINDS = frozenset(("win_cards", "card_count", "avoid_cards", "all_of_a_suit", "compare_suits"))


def final_truth(
    task: Task,
    owner: int,
    tricks: Sequence[Trick],
    *,
    seats: int,
    tricks_total: int,
    captain: int,
    options: Mapping[str, Any],
    prediction: int | None = None,
) -> bool:
    """The end-of-deal judgement, written independently of the incremental rules (tests).

    Whether the owner's condition holds once all ``tricks_total`` tricks are played, read from
    the task's plain meaning: which cards the owner captured, which tricks it took and led.
    """
    if len(tricks) != tricks_total:
        raise ValueError(f"final_truth needs all {tricks_total} tricks, got {len(tricks)}")
    p = task.params
    kind = task.kind
    mine = [t for t in tricks if t.winner == owner]
    c = len(mine)
    won = {x for t in mine for _, x in t.plays} if kind in _CARD_KINDS else set()

    def cnt(select: Mapping[str, Any]) -> int:
        return len(won & _selected(select))

    def runs() -> list[int]:
        out: list[int] = []
        prev = -1
        for t in mine:
            if t.number == prev + 1 and out:
                out[-1] += 1
            else:
                out.append(1)
            prev = t.number
        return out

    if kind == "win_cards":
        return all(card(x) in won for x in p["cards"])
    if kind == "win_card_in_trick":
        at = tricks_total if p["trick"] == "last" else int(p["trick"])
        t = tricks[at - 1]
        return t.winner == owner and any(x == card(p["card"]) for _, x in t.plays)
    if kind == "card_count":
        for con in p["constraints"]:
            n = cnt(con["select"])
            if not (n == con["n"] if con["op"] == "eq" else n >= con["n"]):
                return False
        return True
    if kind == "avoid_cards":
        return cnt(p["select"]) == 0
    if kind == "all_of_a_suit":
        return any(sum(1 for x in won if _suit_of(x) == s) == 9 for s in p["of_any"])
    if kind == "compare_suits":
        na = sum(1 for x in won if _suit_of(x) == p["a"])
        nb = sum(1 for x in won if _suit_of(x) == p["b"])
        return na > nb if p["op"] == "gt" else na == nb and na >= int(p["min_each"])
    if kind == "win_trick_with":
        for t in mine:
            own = [x for s, x in t.plays if s == owner][0]
            if own not in _selected(p["play"]):
                continue
            if p.get("capture") is None:
                return True
            capture = _selected(p["capture"])
            if any(x in capture for s, x in t.plays if s != owner):
                return True
        return False
    if kind == "trick_matching":
        return any(_trick_passes(p, [x for _, x in t.plays], seats, options) for t in mine)
    if kind == "no_lead":
        return not any(t.leader == owner and _suit_of(t.plays[0][1]) in p["suits"] for t in tricks)
    taken = {t.number for t in mine}
    if kind == "trick_positions":
        win = {tricks_total if q == "last" else int(q) for q in p["win"]}
        if p["avoid"] == "rest":
            return taken == win
        avoid = {tricks_total if q == "last" else int(q) for q in p["avoid"]}
        return win <= taken and not (avoid & taken)
    if kind == "trick_count":
        want = prediction if p["n"] == "predicted" else int(p["n"])
        return c == want
    if kind == "trick_run":
        n = int(p["n"])
        lengths = runs()
        if p["mode"] == "at_least":
            return max(lengths, default=0) >= n
        if p["mode"] == "never":
            return max(lengths, default=0) < n
        if options.get("exact_run_meaning") == "one_run_of_exactly_n":
            return n in lengths
        return c == n and len(lengths) == 1
    if kind == "trick_count_relative":
        counts = [0] * seats
        for t in tricks:
            counts[t.winner] += 1
        others = [counts[s] for s in range(seats) if s != owner]
        op, vs = p["op"], p["vs"]
        if vs == "each_other":
            return all(c > x for x in others) if op == "gt" else all(c < x for x in others)
        if vs == "others_combined":
            return c > sum(others)
        kc = counts[captain]
        return c > kc if op == "gt" else c < kc if op == "lt" else c == kc
    raise SetupError(f"unknown task kind {kind!r}", "kind")
