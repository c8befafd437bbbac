"""Drawing tasks to a difficulty target (CREW.md 6.2), the static impossibility check (Appendix A),
the repair of impossible draws (R-6.8) and the deal exceptions (R-6.10).

Every random choice comes from the ``random.Random`` passed in, in the order of Appendix C: the
task deck is ``rng.shuffle`` of the ids 1-96 in order; every reshuffle afterwards (R-6.4, the
set-aside cards in R-6.8, a restart) draws from the same generator.

>>> import random
>>> from dsa_widget.crew.tasks import TASKS
>>> from dsa_widget.crew.options import resolve_options
>>> r = draw_tasks(random.Random(7), seats=4, target=6, table=TASKS, options=resolve_options())
>>> sum(TASKS[t].difficulty_for(4) for t in r.tasks)
6
>>> possible([70, 71], seats=4, allocation="normal", table=TASKS, tricks_total=10)   # two seats need trick 1
False
>>> possible([70, 71], seats=4, allocation="free", table=TASKS, tricks_total=10)     # one seat may take both
True
>>> check_assignment({91: 1, 92: 2}, seats=4, captain=0, table=TASKS, tricks_total=10)
['A-9', 'A-11']
>>> from dsa_widget.crew.cards import mask_of
>>> deal_exception([mask_of(["S1", "S2", "S3"]), 0, 0, 0, 0], [12, 34])
(34, 0)
"""

from __future__ import annotations

import logging
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core.errors import is_int, short_repr
from .cards import COLOURED, DECK, SUIT_MASK, mask_of
from .errors import SetupError
from .mission import ALLOCATIONS
from .tasks import Task, selector_mask

__all__ = [
    "CHECKS",
    "DrawResult",
    "TRICKS",
    "DEAL_EXCEPTIONS",
    "check_assignment",
    "deal_exception",
    "draw_tasks",
    "find_assignment",
    "possible",
]

log = logging.getLogger(__name__)

#: tricks per deal by number of seats N (CREW.md section 3)
TRICKS = {3: 13, 4: 10, 5: 8}
#: the names of the static checks of Appendix A.4
CHECKS = tuple(f"A-{i}" for i in range(1, 13))
#: R-6.8: failed repairs before the whole draw restarts
_MAX_REPAIRS = 100
#: R-C.3: a warning after this many restarts; a SetupError (the target) after _MAX_RESTARTS
_WARN_RESTARTS = 1000
_MAX_RESTARTS = 10000


@dataclass(frozen=True)
class DrawResult:
    """A finished draw: the task ids in draw order, the repairs made (R-6.8) and the restarts of
    the whole draw (R-6.4, or R-6.8 after 100 failed repairs)."""

    tasks: tuple[int, ...]
    repairs: int
    restarts: int


# ---------------------------------------------------------------------------------------------
# A.1 / A.2: task profiles


@dataclass(frozen=True)
class _Profile:
    win: int  # bit t = trick t the owner must take
    avoid: int  # bit t = trick t the owner must not take
    must: int  # card mask
    never: int  # card mask
    lower: tuple[tuple[int, int], ...]  # (card mask, n): at least n of them
    upper: tuple[tuple[int, int], ...]  # (card mask, u): at most u of them
    lo: int
    hi: int
    rel: str | None  # A-11 relation: gt_each, lt_each, gt_cap, lt_cap, eq_cap
    vs_captain: bool
    any_suit: tuple[int, ...] | None  # all_of_a_suit: the colour masks allowed


def _ceil(a: int, b: int) -> int:
    return -(-a // b)


def _pos_mask(positions: Sequence[Any], tricks: int) -> int:
    m = 0
    for p in positions:
        m |= 1 << (tricks if p == "last" else int(p))
    return m


def _build_profile(task: Task, seats: int, tricks: int) -> _Profile:
    p = task.params
    kind = task.kind
    all_pos = ((1 << (tricks + 1)) - 1) & ~1
    win = avoid = must = never = 0
    lower: list[tuple[int, int]] = []
    upper: list[tuple[int, int]] = []
    lo, hi = 0, tricks
    rel: str | None = None
    any_suit: tuple[int, ...] | None = None
    if kind == "win_cards":
        must = mask_of(p["cards"])
        lo = 1
    elif kind == "win_card_in_trick":
        must = mask_of([p["card"]])
        win = _pos_mask([p["trick"]], tricks)
        lo = 1
    elif kind in ("card_count", "avoid_cards"):
        cons = p["constraints"] if kind == "card_count" else [{"select": p["select"], "op": "eq", "n": 0}]
        for c in cons:
            s = selector_mask(c["select"])
            n = int(c["n"])
            if "cards" in c["select"] and n == len(c["select"]["cards"]) and n > 0:
                must |= s
            if n == 0:
                never |= s
            else:
                lower.append((s, n))
            if c["op"] == "eq":
                upper.append((s, n))
    elif kind == "all_of_a_suit":
        any_suit = tuple(SUIT_MASK[c] for c in p["of_any"])
        lo = _ceil(9, seats)
    elif kind == "compare_suits":
        a, b = SUIT_MASK[p["a"]], SUIT_MASK[p["b"]]
        if p["op"] == "gt":
            lower.append((a, 1))
        else:
            m = int(p["min_each"])
            if m > 0:
                lower += [(a, m), (b, m)]
    elif kind == "win_trick_with":
        play = selector_mask(p["play"])
        cap = p["capture"]
        if cap is None:
            lower.append((play, 1))
        else:
            capm = selector_mask(cap)
            if capm == play:
                lower.append((play, 2))
            else:
                lower += [(play, 1), (capm, 1)]
            if "cards" in cap:
                must |= capm
    elif kind == "trick_matching":
        test = p["test"]
        if test in ("all_ranks", "all_parity"):
            ok = 0
            for i, cid in enumerate(DECK):
                if not (COLOURED >> i) & 1:
                    continue
                r = int(cid[1:])
                if test == "all_ranks":
                    good = r < p["value"] if p["cmp"] == "lt" else r > p["value"]
                else:
                    good = r % 2 == (0 if p["parity"] == "even" else 1)
                if good:
                    ok |= 1 << i
            lower.append((ok, seats))
        elif test == "rank_sum":
            if p.get("no_submarine"):
                lower.append((COLOURED, seats))
        elif test == "equal_suit_count":
            a, b = (SUIT_MASK[s] for s in p["suits"])
            lower += [(a, 1), (b, 1)]
    elif kind == "trick_positions":
        win = _pos_mask(p["win"], tricks)
        avoid = all_pos & ~win if p["avoid"] == "rest" else _pos_mask(p["avoid"], tricks)
        lo = win.bit_count()
        hi = tricks - avoid.bit_count()
    elif kind == "trick_count":
        if p["n"] != "predicted":
            lo = hi = int(p["n"])
            if lo == 0:
                avoid = all_pos
    elif kind == "trick_run":
        n = int(p["n"])
        if p["mode"] == "at_least":
            lo = n
        elif p["mode"] == "exactly_all":
            lo = hi = n
        else:  # never n in a row (only n = 2 occurs)
            hi = _ceil(tricks, 2)
    elif kind == "trick_count_relative":
        op, vs = p["op"], p["vs"]
        if vs == "each_other":
            if op == "gt":
                lo, rel = 1, "gt_each"
            else:
                hi, rel = (tricks - seats + 1) // seats, "lt_each"
        elif vs == "others_combined":
            lo = tricks // 2 + 1
        else:
            rel = f"{op}_cap"
    if lower:
        lo = max(lo, _ceil(sum(n for _, n in lower), seats))
    return _Profile(
        win, avoid, must, never, tuple(lower), tuple(upper), lo, hi, rel, task.vs_captain, any_suit
    )


_PROFILES: dict[tuple[int, int, int], tuple[Task, _Profile]] = {}


def _profile(task: Task, seats: int, tricks: int) -> _Profile:
    """The memoised profile of one task (keyed by the Task object: option tables differ)."""
    key = (id(task), seats, tricks)
    hit = _PROFILES.get(key)
    if hit is not None and hit[0] is task:
        return hit[1]
    prof = _build_profile(task, seats, tricks)
    if len(_PROFILES) > 20_000:  # option tables build new Task objects: keep the memo bounded
        _PROFILES.clear()
    _PROFILES[key] = (task, prof)
    return prof


# ---------------------------------------------------------------------------------------------
# per-seat aggregates and the checks of A.4


@dataclass(frozen=True)
class _Seat:
    win: int = 0
    avoid: int = 0
    must: int = 0
    never: int = 0
    lower: tuple[tuple[int, int], ...] = ()
    upper: tuple[tuple[int, int], ...] = ()
    lo_t: int = 0
    hi_t: int = 99
    rels: tuple[str, ...] = ()
    vs_captain: bool = False
    any_suit: tuple[tuple[int, ...], ...] = ()

    def add(self, pr: _Profile) -> _Seat:
        return _Seat(
            self.win | pr.win,
            self.avoid | pr.avoid,
            self.must | pr.must,
            self.never | pr.never,
            self.lower + pr.lower,
            self.upper + pr.upper,
            max(self.lo_t, pr.lo),
            min(self.hi_t, pr.hi),
            self.rels + ((pr.rel,) if pr.rel else ()),
            self.vs_captain or pr.vs_captain,
            self.any_suit + ((pr.any_suit,) if pr.any_suit is not None else ()),
        )


_EMPTY = _Seat()


def _failures(seats: Sequence[_Seat], captain: int, tricks: int, first: bool) -> list[str]:
    """The failed checks A-1 … A-12 of an assignment given as per-seat aggregates (``first``:
    stop at the first failure)."""
    out: list[str] = []
    n = len(seats)
    lo = [0] * n
    hi = [0] * n
    musts = [s.must for s in seats]
    acc_win = acc_must = 0
    a7 = a8 = False
    for p, s in enumerate(seats):
        if s.win & acc_win:
            a7 = True
        acc_win |= s.win
        if s.must & acc_must:
            a8 = True
        acc_must |= s.must
        lo[p] = max(s.win.bit_count(), s.lo_t)
        hi[p] = min(tricks - s.avoid.bit_count(), s.hi_t)

    def fail(name: str) -> bool:
        if name not in out:
            out.append(name)
        return first

    a5 = False
    for p, s in enumerate(seats):
        if s is _EMPTY:
            continue
        if s.win & s.avoid and fail("A-1"):
            return out
        if s.must & s.never and fail("A-2"):
            return out
        for sm, u in s.upper:
            if (s.must & sm).bit_count() > u or any(sl == sm and k > u for sl, k in s.lower):
                if fail("A-3"):
                    return out
                break
        if s.lower:
            other_must = 0
            for q in range(n):
                if q != p:
                    other_must |= musts[q]
            free = ~s.never & ~other_must
            for sm, k in s.lower:
                if (sm & free).bit_count() < k:
                    if fail("A-4"):
                        return out
                    break
        if lo[p] > hi[p]:
            a5 = True
            if fail("A-5"):
                return out
        if p == captain and s.vs_captain and fail("A-6"):
            return out
    if a7 and fail("A-7"):
        return out
    if a8 and fail("A-8"):
        return out
    #
    need: dict[int, int] = {}
    for s in seats:
        best: dict[int, int] = {}
        for sm, k in s.lower:
            if k > best.get(sm, 0):
                best[sm] = k
        for sm, k in best.items():
            need[sm] = need.get(sm, 0) + k
    for sm, k in need.items():
        if k > sm.bit_count():
            if fail("A-10"):
                return out
            break
    #
    for p, s in enumerate(seats):
        for colours in s.any_suit:
            other_must = 0
            for q in range(n):
                if q != p:
                    other_must |= musts[q]
            ok = any(
                not (c & s.never)
                and not (c & other_must)
                and all((c & sm).bit_count() + (s.must & sm & ~c).bit_count() <= u for sm, u in s.upper)
                for c in colours
            )
            if not ok and fail("A-12"):
                return out
    # A-9 and the propagation of A-11
    if sum(lo) > tricks or sum(hi) < tricks:
        fail("A-9")
    elif not a5 and not _propagate(seats, lo, hi, captain, tricks):
        fail("A-9")
        fail("A-11")
    out.sort(key=lambda c: int(c[2:]))
    return out


def _propagate(seats: Sequence[_Seat], lo: list[int], hi: list[int], captain: int, tricks: int) -> bool:
    """A-11 on the bounds ``lo``/``hi`` (changed in place); False on a contradiction."""
    n = len(seats)
    rels = [(p, r) for p, s in enumerate(seats) for r in s.rels]
    changed = True
    while changed:
        changed = False
        for p in range(n):
            slo = sum(lo) - lo[p]
            if tricks - slo < hi[p]:
                hi[p] = tricks - slo
                changed = True
            shi = sum(hi) - hi[p]
            if tricks - shi > lo[p]:
                lo[p] = tricks - shi
                changed = True
        for p, r in rels:
            if r == "gt_each" or r == "lt_each":
                others = [q for q in range(n) if q != p]
            elif p == captain:
                continue  # A-6 already fails
            else:
                others = [captain]
            for q in others:
                if r in ("gt_each", "gt_cap"):
                    if lo[q] + 1 > lo[p]:
                        lo[p] = lo[q] + 1
                        changed = True
                    if hi[p] - 1 < hi[q]:
                        hi[q] = hi[p] - 1
                        changed = True
                elif r in ("lt_each", "lt_cap"):
                    if hi[q] - 1 < hi[p]:
                        hi[p] = hi[q] - 1
                        changed = True
                    if lo[p] + 1 > lo[q]:
                        lo[q] = lo[p] + 1
                        changed = True
                else:  # eq_cap: both ranges become their intersection
                    a, b = max(lo[p], lo[q]), min(hi[p], hi[q])
                    if (lo[p], hi[p], lo[q], hi[q]) != (a, b, a, b):
                        lo[p] = lo[q] = a
                        hi[p] = hi[q] = b
                        changed = True
        if any(lo[p] > hi[p] for p in range(n)):
            return False
    return True


def check_assignment(
    assignment: Mapping[int, int], *, seats: int, captain: int, table: Mapping[int, Task], tricks_total: int
) -> list[str]:
    """The checks of Appendix A.4 that the assignment (task id → seat) fails, e.g. ``["A-7"]``;
    an empty list when it passes all of them (which does not make it winnable: the checks are
    sound but incomplete, R-6.7).

    ``"A-9"`` is reported when the trick-count sums fail, before or after the propagation of A-11;
    ``"A-11"`` as well when only the propagation finds the contradiction.
    """
    _check_seats(seats)
    if not isinstance(captain, int) or not 0 <= captain < seats:
        raise SetupError(f"captain must be a seat 0-{seats - 1}, not {short_repr(captain)}", "captain")
    agg = [_EMPTY] * seats
    for tid, seat in assignment.items():
        if not isinstance(seat, int) or not 0 <= seat < seats:
            raise SetupError(
                f"task {tid} is assigned to {short_repr(seat)}, not a seat 0-{seats - 1}", "assignment"
            )
        agg[seat] = agg[seat].add(_profile(_task(table, tid), seats, tricks_total))
    return _failures(agg, captain, tricks_total, first=False)


# ---------------------------------------------------------------------------------------------
# A.3: reachable assignments, searched by backtracking in draw order


def _check_seats(seats: object) -> None:
    if not isinstance(seats, int) or seats not in TRICKS:
        raise SetupError(f"seats must be 3, 4 or 5 (card-holding seats), not {short_repr(seats)}", "seats")


def _task(table: Mapping[int, Task], tid: int) -> Task:
    try:
        return table[tid]
    except (KeyError, TypeError):
        raise SetupError(f"{short_repr(tid)} is not a task id of the table", "tasks") from None


def _shape(allocation: str, volunteers: int, seats: int, k: int) -> tuple[list[int], int]:
    """Per-seat task capacities (seat 0 = captain) and the most seats that may hold tasks."""
    if allocation in ("normal", "captain_first_hardest"):
        if k >= seats:
            return [_ceil(k - i, seats) for i in range(seats)], seats
        return [1] * seats, seats
    if allocation == "skip_captain":
        m = seats - 1
        if k >= m:
            return [0] + [_ceil(k - i, m) for i in range(m)], m
        return [0] + [1] * m, m
    if allocation == "free":
        return [k] * seats, seats
    if allocation in ("one_owner", "captain_decides"):
        return [k] * seats, 1
    if allocation == "volunteers":
        return [k] * seats, volunteers
    raise SetupError(
        f"allocation must be one of {', '.join(ALLOCATIONS)}, not {short_repr(allocation)}", "allocation"
    )


def _hardest(diffs: Sequence[int]) -> int:
    """R-7.10: the index of the earliest task of the highest difficulty."""
    return max(range(len(diffs)), key=lambda i: (diffs[i], -i))


#: nodes of the plain search (keeps typical checks cheap); past it :func:`_exhaustive` decides
_FIRST_BUDGET = 30
#: partial assignments :func:`_exhaustive` may visit; past it the draw counts as impossible
_EXHAUSTIVE_CAP = 50_000


class _Cut(Exception):
    """A search went past its budget of partial assignments."""


def _too_many_tricks(
    agg: Sequence[_Seat], load: Sequence[int], caps: Sequence[int], tricks: int, zeros: int, min_pos: int
) -> bool:
    """A look-ahead on A-9 when every free slot will be filled (exact counts: normal allocation,
    full draw): Σ lo over seats, counting that a seat with free slots and no bound yet can stay
    at 0 only if its slots are all filled with tasks of lo 0.  ``zeros``: the tasks still to
    place with lo 0; ``min_pos``: the smallest positive lo among them (above ``tricks``: none)."""
    total = 0
    waiting: list[int] = []
    for q, a in enumerate(agg):
        lo_q = max(a.win.bit_count(), a.lo_t)
        total += lo_q
        if lo_q == 0 and load[q] < caps[q]:
            waiting.append(caps[q] - load[q])
    if not waiting or min_pos > tricks:
        return total > tricks
    forced = len(waiting)
    for r in sorted(waiting):
        if r > zeros:
            break
        zeros -= r
        forced -= 1
    return total + forced * min_pos > tricks


def _search(
    profiles: Sequence[_Profile],
    caps: Sequence[int],
    max_used: int,
    tricks: int,
    captain_task: int | None,
    budget: int,
) -> list[int] | None:
    """An assignment of the profiles (in order) to seats within ``caps`` using at most
    ``max_used`` seats (seat 0 the captain, ``captain_task`` forced onto it) passing A-1 … A-12,
    as the seat of each task; None when there is none.  Every check only gets stricter as tasks
    are added, so a failing partial assignment is cut.  Raises :class:`_Cut` when more than
    ``budget`` partial assignments were checked."""
    n = len(caps)
    k = len(profiles)
    agg = [_EMPTY] * n
    load = [0] * n
    masks = [0] * n
    dead: set[tuple[Any, ...]] = set()
    nodes = 0
    # exact counts (normal allocation, full draw): every free slot will be filled, which bounds
    # the tricks the seats still without a trick bound must take (a look-ahead on A-9)
    exact = sum(caps) == k
    zeros = [0] * (k + 1)  # tasks i.. with lo 0
    min_pos = [tricks + 1] * (k + 1)  # the smallest positive lo among tasks i..
    for i in range(k - 1, -1, -1):
        lo_i = max(profiles[i].win.bit_count(), profiles[i].lo)
        zeros[i] = zeros[i + 1] + (lo_i == 0)
        min_pos[i] = min(min_pos[i + 1], lo_i) if lo_i > 0 else min_pos[i + 1]

    def hopeless(i: int) -> bool:
        return _too_many_tricks(agg, load, caps, tricks, zeros[i], min_pos[i])

    def key(i: int) -> tuple[Any, ...]:
        others = sorted((caps[q] - load[q], masks[q]) for q in range(1, n))
        return (i, masks[0], tuple(others))

    def rec(i: int) -> bool:
        nonlocal nodes
        if i == k:
            return True
        kk = key(i)
        if kk in dead:
            return False
        used = sum(1 for q in range(n) if load[q])
        seen_empty: set[int] = set()
        choices = (0,) if i == captain_task else range(n)
        for p in choices:
            if load[p] >= caps[p]:
                continue
            if load[p] == 0:
                if used >= max_used:
                    continue
                if p != 0:  # empty non-captain seats with the same capacity are interchangeable
                    if caps[p] in seen_empty:
                        continue
                    seen_empty.add(caps[p])
            nodes += 1
            if nodes > budget:
                raise _Cut
            old = agg[p]
            agg[p] = old.add(profiles[i])
            if not _failures(agg, 0, tricks, first=True):
                load[p] += 1
                masks[p] |= 1 << i
                ok = not (exact and hopeless(i + 1)) and rec(i + 1)
                load[p] -= 1
                masks[p] &= ~(1 << i)
                if ok:
                    seat_of[i] = p
                    agg[p] = old
                    return True
            agg[p] = old
        dead.add(kk)
        return False

    seat_of = [0] * k
    return seat_of if rec(0) else None


def _exhaustive(
    profiles: Sequence[_Profile],
    caps: Sequence[int],
    max_used: int,
    tricks: int,
    captain_task: int | None,
) -> list[int] | None:
    """The same answer as :func:`_search`, found for the draws the plain search finds
    hard (a task that fits nowhere only once several others are placed, e.g. the example of
    issue 32: 82, 83 and 89 fix three trick counts, 96 needs one of them equal to the captain's).

    Constraint search with forward checking: every task not yet placed keeps the seats it still
    fits (the checks only get stricter as tasks are added, so a seat that fails stays failed);
    a task with no seat left, or seats whose free slots cannot all be filled (a bipartite
    matching of the remaining tasks to the free slots), cuts the branch at once.  The task placed
    next is the one with the fewest seats left for its weight: one, plus the tasks it clashes
    with alone, plus the branches where it was left without a seat (so the tasks that made
    earlier branches fail are placed early in the next ones).  Raises :class:`_Cut` past
    ``_EXHAUSTIVE_CAP`` partial assignments."""
    n = len(caps)
    k = len(profiles)
    agg = [_EMPTY] * n
    load = [0] * n
    masks = [0] * n
    dead: set[tuple[Any, ...]] = set()
    exact = sum(caps) == k
    lo_of = [max(pr.win.bit_count(), pr.lo) for pr in profiles]
    weight = [1 + c for c in _clashes(profiles, n, tricks)]
    full = (1 << k) - 1
    nodes = 0

    def hopeless(assigned: int) -> bool:
        rest = [lo_of[i] for i in range(k) if not (assigned >> i) & 1]
        pos = [x for x in rest if x > 0]
        return _too_many_tricks(agg, load, caps, tricks, len(rest) - len(pos), min(pos, default=tricks + 1))

    def rec(assigned: int, doms: list[tuple[int, ...]]) -> bool:
        nonlocal nodes
        if assigned == full:
            return True
        key = (masks[0], tuple(sorted((caps[q] - load[q], masks[q]) for q in range(1, n))))
        if key in dead:
            return False
        nodes += 1
        if nodes > _EXHAUSTIVE_CAP:
            raise _Cut
        used = sum(1 for q in range(n) if load[q])
        new = list(doms)
        best = -1
        for r in range(k):
            if (assigned >> r) & 1:
                continue
            fit = []
            for p in doms[r]:
                if load[p] >= caps[p] or (load[p] == 0 and used >= max_used):
                    continue
                old = agg[p]
                agg[p] = old.add(profiles[r])
                if not _failures(agg, 0, tricks, first=True):
                    fit.append(p)
                agg[p] = old
            if not fit:
                weight[r] += 1
                dead.add(key)
                return False
            new[r] = tuple(fit)
            if best < 0 or len(fit) * weight[best] < len(new[best]) * weight[r]:
                best = r
        rest = [r for r in range(k) if not (assigned >> r) & 1]
        if not _slots_fill(rest, new, [caps[q] - load[q] for q in range(n)], exact):
            dead.add(key)
            return False
        seen_empty: set[int] = set()
        for p in new[best]:
            if load[p] == 0 and p != 0:  # empty non-captain seats of one capacity are alike
                if caps[p] in seen_empty:
                    continue
                seen_empty.add(caps[p])
            old = agg[p]
            agg[p] = old.add(profiles[best])
            load[p] += 1
            masks[p] |= 1 << best
            now = assigned | 1 << best
            ok = not (exact and hopeless(now)) and rec(now, new)
            agg[p] = old
            load[p] -= 1
            masks[p] &= ~(1 << best)
            if ok:
                seat_of[best] = p
                return True
        dead.add(key)
        return False

    seat_of = [0] * k
    first = [(0,) if i == captain_task else tuple(p for p in range(n) if caps[p]) for i in range(k)]
    return seat_of if rec(0, first) else None


def _clashes(profiles: Sequence[_Profile], n: int, tricks: int) -> list[int]:
    """For each task, how many other tasks it fails with, on one non-captain seat or on two."""
    k = len(profiles)
    out = [0] * k
    for i in range(k):
        for j in range(i + 1, k):
            same = [_EMPTY] * n
            same[1] = _EMPTY.add(profiles[i]).add(profiles[j])
            apart = [_EMPTY] * n
            apart[1] = _EMPTY.add(profiles[i])
            apart[2] = _EMPTY.add(profiles[j])
            if _failures(same, 0, tricks, first=True) or _failures(apart, 0, tricks, first=True):
                out[i] += 1
                out[j] += 1
    return out


def _slots_fill(rest: Sequence[int], doms: Sequence[Sequence[int]], room: Sequence[int], exact: bool) -> bool:
    """Can every task of ``rest`` get a seat of its domain with at most ``room[p]`` tasks on seat
    p (with ``exact``, ``room`` adds up to ``len(rest)``, so every free slot is then filled)?
    Augmenting paths (Kuhn)."""
    if not exact and all(r >= len(rest) for r in room):
        return True
    holder: list[list[int]] = [[] for _ in room]  # seat -> tasks matched to it

    def place(t: int, seen: set[int]) -> bool:
        for p in doms[t]:
            if p in seen:
                continue
            seen.add(p)
            if len(holder[p]) < room[p]:
                holder[p].append(t)
                return True
            for u in holder[p]:
                if place(u, seen):
                    holder[p].remove(u)
                    holder[p].append(t)
                    return True
        return False

    return all(place(t, set()) for t in rest)


def _assignment(
    task_ids: Sequence[int],
    seats: int,
    allocation: str,
    volunteers: int,
    table: Mapping[int, Task],
    tricks: int,
    full_count: int,
    captain_task: int | None,
) -> list[int] | None:
    """The seat (0 = captain) of each task in an assignment passing A-1 … A-12, or None.

    The plain search answers typical draws within ``_FIRST_BUDGET`` partial assignments; the
    others go to :func:`_exhaustive`, which decides them all (``benchmarks/bench_crew_draw.py``
    measures it).  Should it ever go past ``_EXHAUSTIVE_CAP``, the draw counts as impossible and
    is repaired (R-6.8): a possible draw replaced is still a draw of the target, while an
    impossible one let through is a failure the players cannot avoid (R-14.3)."""
    caps, max_used = _shape(allocation, volunteers, seats, full_count)
    profiles = [_profile(_task(table, t), seats, tricks) for t in task_ids]
    try:
        return _search(profiles, caps, max_used, tricks, captain_task, _FIRST_BUDGET)
    except _Cut:
        pass
    try:
        return _exhaustive(profiles, caps, max_used, tricks, captain_task)
    except _Cut:
        return None


def _possible(
    task_ids: Sequence[int],
    seats: int,
    allocation: str,
    volunteers: int,
    table: Mapping[int, Task],
    tricks: int,
    full_count: int,
    captain_task: int | None,
) -> bool:
    res = _assignment(task_ids, seats, allocation, volunteers, table, tricks, full_count, captain_task)
    return res is not None


def find_assignment(
    task_ids: Sequence[int],
    *,
    seats: int,
    allocation: str,
    table: Mapping[int, Task],
    tricks_total: int,
    full_count: int | None = None,
    volunteers: int = 1,
) -> dict[int, int] | None:
    """An assignment (task id → seat, seat 0 the captain) that the mission's allocation mode
    could produce and that passes every check of Appendix A.4, or None when there is none: the
    draw is impossible (R-6.7).  The arguments are those of :func:`possible`.

    >>> from dsa_widget.crew.tasks import TASKS
    >>> find_assignment([70, 71], seats=4, allocation="free", table=TASKS, tricks_total=10)
    {70: 0, 71: 0}
    """
    _check_seats(seats)
    k = len(task_ids)
    if full_count is None:
        full_count = k
    if not isinstance(full_count, int) or full_count < k:
        raise SetupError(
            f"full_count must be at least the number of tasks ({k}), not {full_count!r}", "full_count"
        )
    if volunteers not in (1, 2):
        raise SetupError(f"volunteers must be 1 or 2, not {short_repr(volunteers)}", "volunteers")
    captain_task = None
    if allocation == "captain_first_hardest" and k and full_count == k:
        captain_task = _hardest([_task(table, t).difficulty_for(seats) for t in task_ids])
    res = _assignment(task_ids, seats, allocation, volunteers, table, tricks_total, full_count, captain_task)
    return None if res is None else dict(zip(task_ids, res, strict=True))


def possible(
    task_ids: Sequence[int],
    *,
    seats: int,
    allocation: str,
    table: Mapping[int, Task],
    tricks_total: int,
    full_count: int | None = None,
    volunteers: int = 1,
) -> bool:
    """R-6.7: can the mission's allocation mode produce an assignment of these tasks (in draw
    order) that passes every check of Appendix A.4?  The check is exact: it decides every draw
    (see :func:`_assignment`).

    ``full_count`` (for a prefix of a draw, Appendix A.3): the number of tasks of the full draw,
    whose per-seat counts the prefix must fit.  ``volunteers`` (1 or 2) is used with
    ``allocation="volunteers"``.  Only distances from the captain matter, so seat 0 is the
    captain here.  With ``captain_first_hardest`` the captain holds the earliest drawn task of the
    highest difficulty (R-7.10); for a prefix that task is not known, so it is not forced.
    """
    found = find_assignment(
        task_ids,
        seats=seats,
        allocation=allocation,
        table=table,
        tricks_total=tricks_total,
        full_count=full_count,
        volunteers=volunteers,
    )
    return found is not None


# ---------------------------------------------------------------------------------------------
# 6.2: the draw, with repair


def draw_tasks(
    rng: random.Random,
    *,
    seats: int,
    target: int,
    allocation: str = "normal",
    table: Mapping[int, Task],
    options: Mapping[str, Any],
    volunteers: int = 1,
    deck: Sequence[int] | None = None,
) -> DrawResult:
    """Draw tasks whose difficulties (column d_N) add up to ``target`` exactly (R-6.2 - R-6.4),
    then repair an impossible draw (R-6.7, R-6.8) unless ``options["impossible_draw_check"]`` is
    ``"off"``; ``options["replacement_rule"]`` is ``"same_difficulty"`` (default) or
    ``"resume_draw"``.

    ``deck`` (tests): the order of the first task deck, top first, instead of ``rng.shuffle``
    of 1-96 (a permutation of the table's ids); every later reshuffle uses ``rng``.
    """
    _check_seats(seats)
    if not is_int(target) or target < 0:
        raise SetupError(f"target must be an integer >= 0, not {short_repr(target)}", "target")
    _shape(allocation, volunteers, seats, 0)  # checks the allocation
    if volunteers not in (1, 2):
        raise SetupError(f"volunteers must be 1 or 2, not {short_repr(volunteers)}", "volunteers")
    ids = sorted(table)
    total = sum(table[t].difficulty_for(seats) for t in ids)
    if target > total:
        raise SetupError(
            f"target {target} is more than the difficulty of every task together ({total})", "target"
        )
    check = options.get("impossible_draw_check", "static")
    rule = options.get("replacement_rule", "same_difficulty")
    if check not in ("static", "off"):
        raise SetupError(
            f"impossible_draw_check must be 'static' or 'off', not {short_repr(check)}",
            "impossible_draw_check",
        )
    if rule not in ("same_difficulty", "resume_draw"):
        raise SetupError(
            f"replacement_rule must be 'same_difficulty' or 'resume_draw', not {short_repr(rule)}",
            "replacement_rule",
        )
    first: list[int] | None = None
    if deck is not None:
        first = list(deck)
        if sorted(first) != ids:
            raise SetupError("deck must be a permutation of the table's task ids", "deck")
    tricks = TRICKS[seats]
    diff = {t: table[t].difficulty_for(seats) for t in ids}

    def is_possible(prefix: Sequence[int], full: Sequence[int]) -> bool:
        cap_task = None
        if allocation == "captain_first_hardest" and full:
            h = _hardest([diff[t] for t in full])
            cap_task = h if h < len(prefix) else None
        return _possible(prefix, seats, allocation, volunteers, table, tricks, len(full), cap_task)

    drawer = _Drawer(rng, ids, diff, target, check == "static", rule == "same_difficulty", is_possible)
    return drawer.run(first)


class _Drawer:
    """The state of one draw: the deck and its position, the set-aside cards, the counters."""

    def __init__(
        self,
        rng: random.Random,
        ids: list[int],
        diff: Mapping[int, int],
        target: int,
        repair: bool,
        same_difficulty: bool,
        is_possible: Callable[[Sequence[int], Sequence[int]], bool],
    ) -> None:
        self.rng = rng
        self.ids = ids
        self.diff = diff
        self.target = target
        self.repair = repair
        self.same_difficulty = same_difficulty
        self.is_possible = is_possible
        self.deck: list[int] = []
        self.pos = 0
        self.aside: list[int] = []
        self.repairs = 0
        self.restarts = 0

    def fresh(self) -> list[int]:
        """R-6.2 / Appendix C: ``rng.shuffle`` of the task ids in order."""
        d = list(self.ids)
        self.rng.shuffle(d)
        return d

    def run(self, first: list[int] | None) -> DrawResult:
        deck = first if first is not None else self.fresh()
        while True:
            drawn = self.attempt(deck)
            if drawn is not None:
                return DrawResult(tuple(drawn), self.repairs, self.restarts)
            self.restarts += 1
            if self.restarts == _WARN_RESTARTS:
                log.warning("task draw: %d restarts for target %d", self.restarts, self.target)
            if self.restarts >= _MAX_RESTARTS:
                raise SetupError(
                    f"no possible draw found for target {self.target} after {self.restarts} restarts",
                    "target",
                )
            deck = self.fresh()

    def attempt(self, deck: list[int]) -> list[int] | None:
        """One draw from ``deck`` (R-6.3) and its repair (R-6.8); None: restart (R-6.4, or 100
        failed repairs, or no card of the deck can replace a removed one)."""
        self.deck, self.pos, self.aside = deck, 0, []
        drawn: list[int] = []
        if not self.fill(drawn, self.target, reshuffle=False):
            return None  # the deck ran out
        if not self.repair or not drawn:
            return drawn
        done = 0
        while True:
            j = self.first_impossible(drawn)
            if j is None:
                return drawn
            if done >= _MAX_REPAIRS:
                return None  # every one of them left the draw impossible
            done += 1
            self.repairs += 1
            removed = drawn.pop(j)
            self.aside.append(removed)
            if self.same_difficulty:
                found = self.replacement(drawn, j, self.diff[removed])
                if found is None:
                    return None
                drawn.insert(j, found)
            elif not self.fill(drawn, self.diff[removed], reshuffle=True):  # pragma: no cover
                return None  # cannot happen: the removed card itself is among the set-aside cards

    def fill(self, drawn: list[int], needed: int, *, reshuffle: bool) -> bool:
        """R-6.3 from the current deck position; False if the deck ran out (without ``reshuffle``)."""
        diff = self.diff
        while needed > 0:
            if self.pos >= len(self.deck):
                if not reshuffle or not self.aside:
                    return False
                self.reshuffle_aside()
                continue
            t = self.deck[self.pos]
            self.pos += 1
            if diff[t] <= needed:
                drawn.append(t)
                needed -= diff[t]
            else:
                self.aside.append(t)
        return True

    def reshuffle_aside(self) -> None:
        """R-6.8: the set-aside cards, shuffled, become the rest of the deck."""
        rest = self.aside
        self.aside = []
        self.rng.shuffle(rest)
        self.deck, self.pos = rest, 0

    def first_impossible(self, drawn: list[int]) -> int | None:
        """The index of the last card of the shortest impossible prefix (None: the draw is
        possible).  Impossibility of a prefix carries over to every longer prefix, so the
        shortest one is found by bisection."""
        if self.is_possible(drawn, drawn):
            return None
        lo, hi = 0, len(drawn) - 1  # the prefix drawn[: hi + 1] is impossible
        while lo < hi:
            mid = (lo + hi) // 2
            if self.is_possible(drawn[: mid + 1], drawn):
                lo = mid + 1
            else:
                hi = mid
        return hi

    def replacement(self, drawn: list[int], j: int, d: int) -> int | None:
        """R-6.8, ``same_difficulty``: the first card further down the deck of difficulty ``d``
        that leaves the prefix ``drawn[:j] + [card]`` possible; the cards passed over are set
        aside.  None when every card not in the draw has been looked at."""
        prefix = drawn[:j]
        wrapped = False
        while True:
            if self.pos >= len(self.deck):
                if wrapped or not self.aside:
                    return None
                self.reshuffle_aside()
                wrapped = True
                continue
            t = self.deck[self.pos]
            self.pos += 1
            if self.diff[t] == d:
                full = drawn[:j] + [t] + drawn[j:]
                if self.is_possible(prefix + [t], full):
                    return t
            self.aside.append(t)


# ---------------------------------------------------------------------------------------------
# deals that make a drawn task impossible

#: task id -> the card sets that, all in one hand, make the task impossible (R-6.10, in table order)
DEAL_EXCEPTIONS: dict[int, tuple[int, ...]] = {
    30: (mask_of(["S1", "S2", "S3", "S4"]),),
    31: (mask_of(["S2", "S3", "S4"]),),
    32: (mask_of(["S1", "S2", "S3", "S4"]),),
    33: (mask_of(["S1", "S4"]), mask_of(["S1", "S2", "S3"])),
    34: (mask_of(["S2", "S4"]), mask_of(["S1", "S2", "S3"])),
    57: (mask_of(["P7", "S1", "S2", "S3", "S4"]),),
    58: (mask_of(["G9", "S1", "S2", "S3", "S4"]),),
}


def deal_exception(hands: Sequence[int], task_ids: Sequence[int]) -> tuple[int, int] | None:
    """R-6.10: ``(task id, seat)`` of the first row of the table (in its order, then by seat)
    that applies to a drawn task, or None when the deal may be played.  ``hands`` are card
    masks per seat (Tonoja's 14 cards, face-down ones included, are one hand)."""
    drawn = set(task_ids)
    for tid, sets in DEAL_EXCEPTIONS.items():
        if tid not in drawn:
            continue
        for seat, hand in enumerate(hands):
            if any(hand & m == m for m in sets):
                return tid, seat
    return None
