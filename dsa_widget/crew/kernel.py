"""A compiled kernel for *The Crew*: whole random deals (the deal, a random normal allocation,
predictions, random legal cards, every task's status after every trick, the outcome) on flat
arrays of integers.

The functions here use nothing but integers and 1-D indexing, so the same source runs

* compiled by numba (``numba.njit(cache=True, nogil=True)``, compiled on first use and cached in
  ``__pycache__``; ``python -m dsa_widget warm`` does it at set-up) when numba is importable
  (the ``fast`` extra), on numpy ``int64`` arrays; or
* as plain Python, on lists, when numba is absent or the environment variable
  ``DSA_WIDGET_NO_NUMBA`` is set (to anything but ``""`` or ``"0"``).

Both give the same deals for the same seed: card masks use 40 bits and the random numbers are
32-bit xorshift128 words, so no arithmetic leaves 64 signed bits.  :data:`COMPILED` says which
one this process runs.

A deal is what :func:`~dsa_widget.crew.playouts.random_deal` plays with :func:`random_play`
(no Tonoja, 3-5 seats): the shuffle (3 seats: a random seat gets the first card), the captain
(the holder of S4, R-5.1), the tasks given out in turn from the captain in a random order,
never a captain-comparison task on the captain (R-5.3), each predicted task's X uniform in
0..T, then uniformly random legal cards (R-10.2) until the mission succeeds or fails (R-14.1).
The kernel draws its own random numbers, so a kernel deal is not the deal ``random_deal``
plays from the same seed; it is checked instead by replaying its trace (:func:`kernel_deal`)
through the checked :class:`~dsa_widget.crew.rules.CrewGame` (``tests/crew/test_kernel.py``).

Every one of the 96 task cards is supported, under the default rule options only (the options
``parity_with_submarines``, ``sum_with_submarines`` and ``exact_run_meaning`` change how tasks
are judged and are not taken); mission constraints and the two-player variant are not either.
More than :data:`KMAX` tasks in one deal raise :class:`ValueError`.

**Playouts from a position.**  :func:`encode_position` takes a play-phase
:class:`~dsa_widget.crew.playouts.PlayState` with every hand known (hands, the trick so far,
tasks with owners, predictions and statuses, who leads); :func:`kernel_playout` plays it to the
end of the attempt, every seat with the crewmate's card rule (``policy="greedy"``: the exact
scores of :func:`~dsa_widget.crew.playouts.greedy_scores`, equal top scores drawn from the
kernel's numbers), the same rule reading the known hands of the seats still to play in the
trick (``"sighted"``, :func:`~dsa_widget.crew.playouts.sighted_play`) or uniform legal cards
(``"random"``), and returns the result and the cards;
:func:`kernel_rollouts` plays, for many samples of the hidden hands at once, each candidate card
of the mover followed by a playout and counts the successes per card (the search bot's
rollouts).  ``tests/crew/test_kernel_playout.py`` replays playouts from random 3-5 seat
positions through :class:`CrewGame`, each greedy (sighted) card checked against
:func:`~dsa_widget.crew.playouts.greedy_best`.

>>> from dsa_widget.crew.playouts import PlayState
>>> from dsa_widget.crew.tasks import TASKS
>>> hands = [sum(1 << c for c in range(40) if c % 4 == q) for q in range(4)]
>>> st = PlayState(hands, [(TASKS[1], 0)], captain=3)   # seat 3 holds S4 and leads
>>> p = kernel_playout(encode_position(st), seed=2)
>>> p.result in ("success", "failure"), len(p.plays) % 4
(True, 0)
>>> len(kernel_rollouts(encode_position(st), [3, 7], [(hands, [None])] * 5, seed=1))
2

>>> d = kernel_deal(5, seats=4, tasks=[1, 70, 84])
>>> d.result in ("success", "failure"), len(d.hands)
(True, 4)
>>> "S4" in d.hands[d.captain]
True
>>> len(d.plays) == 4 * d.trick and len(d.statuses) == d.trick
True
>>> succ, n = kernel_deals(100, seats=4, task_sets=[[1], [70, 2]], seed=1)
>>> n, 0 <= succ <= 100
(100, True)
>>> kernel_deals(1, seats=2, tasks=[1])
Traceback (most recent call last):
...
ValueError: the Crew kernel plays 3, 4 or 5 seats, not 2
"""

from __future__ import annotations

from collections.abc import Mapping, MutableSequence, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..core.errors import is_int, is_number
from ..core.jit import COMPILED as _COMPILED
from ..core.jit import jit as _jit
from ..core.jit import np as _np
from ..core.xorshift import below as _below
from ..core.xorshift import seed as _seed
from ..core.xorshift import shuffle as _shuffle
from .cards import DECK, SUIT_MASK
from .draw import TRICKS
from .options import resolve_options
from .status import _OPTION_KEYS
from .tasks import TASKS, Task, selector_mask

if TYPE_CHECKING:
    from .playouts import PlayState

__all__ = [
    "game_position",
    "game_sample",
    "COMPILED",
    "KMAX",
    "KernelDeal",
    "KernelPlayout",
    "KernelPosition",
    "encode_position",
    "encode_task",
    "kernel_deal",
    "kernel_deals",
    "kernel_playout",
    "kernel_rollout_stats",
    "kernel_rollouts",
    "warm_up",
]

Buf = MutableSequence[int]


#: True when the kernel runs compiled by numba in this process (numba loaded by core.jit)
COMPILED: bool = _COMPILED


# --------------------------------------------------------------------------- layout

ALL = (1 << 40) - 1
SUBS = 0xF << 36
#: the most tasks one deal may hold
KMAX = 24
#: one task: kind, captain-comparison flag, predicted flag, then the kind's parameters
W = 16
(PK_KIND, PK_VSCAP, PK_PRED, PK_P) = (0, 1, 2, 3)
# task kinds (codes of the kernel's own)
(
    T_WIN_CARDS,
    T_IN_TRICK,
    T_AVOID,
    T_COUNT,
    T_ALL_OF,
    T_MORE,
    T_SAME,
    T_WITH_CARD,
    T_WITH_PAIR,
    T_MATCH,
    T_NO_LEAD,
    T_POS,
    T_TRICKS,
    T_RUN_AT_LEAST,
    T_RUN_NEVER,
    T_RUN_EXACT,
    T_GT_EACH,
    T_LT_EACH,
    T_GT_ALL,
    T_GT_CAP,
    T_LT_CAP,
    T_EQ_CAP,
) = range(1, 23)
# trick_matching tests
M_SUBSET, M_SUM_GT, M_SUM_LT, M_SUM_IN, M_EQUAL = range(1, 6)

# the state buffer
RNG = 0
HANDS = 4
WON = 9
KW = 14
POS = 19
LED = 24
(PLAYED, LIVE, R, RUN_SEAT, RUN_LEN, LAST_W, LAST_M, LAST_WC, NDONE, NFAIL, CAPTAIN, START) = range(29, 41)
DECKB = 41
ST = DECKB + 40
OWN = ST + KMAX
PRED = OWN + KMAX
ORDER = PRED + KMAX
# the trick in progress: its leader, cards so far (and their mask), led suit, best card, its seat
(LEADER, NCUR, CURM, LEDSUIT, BEST, BSEAT, NTASK, NPLAYED) = range(ORDER + KMAX, ORDER + KMAX + 8)
# what the open tasks ask of the trick (the crewmate's card rule), for trick NEED_R + 1
NEED_R = NPLAYED + 1
MUST = NEED_R + 1
WANT = MUST + 5
NEVER = WANT + 5
PREF = NEVER + 5
NOLEAD = PREF + 5
(HOLD, ALLMUST) = range(NOLEAD + 5, NOLEAD + 7)
(NSEATS, NTRICKS) = range(ALLMUST + 1, ALLMUST + 3)
SIZE = NTRICKS + 1
#: the play policies of :func:`kernel_playout` (as codes)
RANDOM, GREEDY, SIGHTED = 0, 1, 2
# the trace of the last deal played (for checking): captain, first seat dealt, deck order,
# owners, predictions, the cards in play order, statuses after each trick, result, last trick
TR_CAP = 0
TR_START = 1
TR_DECK = 2
TR_OWN = TR_DECK + 40
TR_PRED = TR_OWN + KMAX
TR_PLAYS = TR_PRED + KMAX
TR_STAT = TR_PLAYS + 40
TR_RES = TR_STAT + 13 * KMAX
TR_TRICK = TR_RES + 1
TR_SIZE = TR_TRICK + 1


# --------------------------------------------------------------------------- masks


@_jit
def _pop(m: int) -> int:
    """The set bits of ``m`` (0 <= m < 2**40)."""
    m = m - ((m >> 1) & 0x5555555555)
    m = (m & 0x3333333333) + ((m >> 2) & 0x3333333333)
    m = (m + (m >> 4)) & 0x0F0F0F0F0F
    m = m + (m >> 8)
    m = m + (m >> 16)
    m = m + (m >> 32)
    return m & 0x7F


@_jit
def _low(m: int) -> int:
    """The index of the lowest set bit of ``m`` (> 0)."""
    i = 0
    while not (m >> i) & 1:
        i += 1
    return i


@_jit
def _bitlen(m: int) -> int:
    i = 0
    while m:
        m >>= 1
        i += 1
    return i


@_jit
def _rank_sum(m: int) -> int:
    t = 0
    while m:
        c = _low(m)
        m &= m - 1
        t += c % 9 + 1 if c < 36 else c - 35
    return t


# --------------------------------------------------------------------------- task statuses


@_jit
def _eval(s: Buf, tk: Buf, b: int, i: int, n: int, T: int) -> int:
    """Task ``i`` (row at ``b``) after the last trick: 0 open, 1 done, 2 failed (FAILED first
    wherever both hold, R-13.2), the rules of :mod:`dsa_widget.crew.status` on the buffer."""
    kind = tk[b + PK_KIND]
    p = b + PK_P
    o = s[OWN + i]
    w = s[WON + o]
    live = s[LIVE]
    r = s[R]
    if kind == T_WIN_CARDS:
        need = tk[p]
        if need & ~w & ~live & ALL:
            return 2
        return 1 if w & need == need else 0
    if kind == T_IN_TRICK:
        bit = tk[p]
        if r == tk[p + 1] and s[LAST_W] == o and s[LAST_M] & bit:
            return 1
        return 0 if live & bit else 2
    if kind == T_AVOID:
        m = tk[p]
        if w & m:
            return 2
        return 0 if live & m else 1
    if kind == T_COUNT:
        secured = True
        for j in range(tk[p]):
            m = tk[p + 1 + 3 * j]
            eq = tk[p + 2 + 3 * j] & 1
            want = tk[p + 3 + 3 * j]
            c = _pop(w & m)
            lv = _pop(live & m)
            if c + lv < want or (eq and c > want):
                return 2
            if eq:
                if not (c == want and lv == 0):
                    secured = False
            elif c < want:
                secured = False
        return 1 if secured else 0
    if kind == T_ALL_OF:
        gone = ~w & ~live & ALL
        possible = False
        for j in range(tk[p]):
            m = tk[p + 1 + j]
            if w & m == m:
                return 1
            if not (m & gone):
                possible = True
        return 0 if possible else 2
    if kind == T_MORE:
        ca = _pop(w & tk[p])
        cb = _pop(w & tk[p + 1])
        if ca + _pop(live & tk[p]) <= cb:
            return 2
        return 1 if ca > cb + _pop(live & tk[p + 1]) else 0
    if kind == T_SAME:
        am = tk[p]
        bm = tk[p + 1]
        ca = _pop(w & am)
        cb = _pop(w & bm)
        la = _pop(live & am)
        lb = _pop(live & bm)
        lo = tk[p + 2]
        if ca > cb + lb or cb > ca + la or ca + la < lo or cb + lb < lo:
            return 2
        return 1 if la == 0 and lb == 0 and ca == cb and ca >= lo else 0
    if kind == T_WITH_CARD:
        pm = tk[p]
        if s[LAST_W] == o and s[LAST_WC] & pm:
            return 1
        return 0 if live & pm else 2
    if kind == T_WITH_PAIR:
        pm = tk[p]
        cm = tk[p + 1]
        wc = s[LAST_WC]
        if s[LAST_W] == o and wc & pm and s[LAST_M] & ~wc & cm:
            return 1
        lp = live & pm
        lc = live & cm
        if not lp or not lc or (lp == lc and not lp & (lp - 1)):
            return 2
        return 0
    if kind == T_MATCH:
        if s[LAST_W] == o:
            m = s[LAST_M]
            test = tk[p]
            ok = False
            if not (m & tk[p + 1]):  # the excluded cards (submarines) disqualify
                if test == M_SUBSET:
                    ok = not (m & ~tk[p + 2])
                elif test == M_EQUAL:
                    ca = _pop(m & tk[p + 2])
                    ok = ca >= tk[p + 4] and ca == _pop(m & tk[p + 3])
                else:
                    t = _rank_sum(m)
                    if test == M_SUM_GT:
                        ok = t > tk[p + 2]
                    elif test == M_SUM_LT:
                        ok = t < tk[p + 2]
                    else:
                        ok = t < 63 and (tk[p + 2] >> t) & 1 == 1
            if ok:
                return 1
        return 2 if r == T else 0
    if kind == T_NO_LEAD:
        m = tk[p]
        if s[LED + o] & m:
            return 2
        return 0 if live & m else 1
    if kind == T_POS:
        wm = tk[p]
        sm = tk[p + 1]
        mine = s[POS + o]
        done = (1 << r) - 1
        if (wm & done & ~mine) or (sm & mine):
            return 2
        return 0 if (wm | sm) & ~done else 1
    k = s[KW + o]
    rest = T - r
    if kind == T_TRICKS:
        x = s[PRED + i] if tk[b + PK_PRED] else tk[p]
        if k > x or k + rest < x:
            return 2
        return 1 if rest == 0 and k == x else 0
    if kind == T_RUN_AT_LEAST:
        x = tk[p]
        cur = s[RUN_LEN] if s[RUN_SEAT] == o else 0
        if cur >= x:
            return 1
        return 2 if cur + rest < x else 0
    if kind == T_RUN_NEVER:
        if s[RUN_SEAT] == o and s[RUN_LEN] >= tk[p]:
            return 2
        return 1 if rest == 0 else 0
    if kind == T_RUN_EXACT:
        x = tk[p]
        pos = s[POS + o]
        one_block = True
        if pos:
            q = pos >> _low(pos)
            one_block = q & (q + 1) == 0
        if k > x or not one_block or (1 <= k < x and _bitlen(pos) < r) or k + rest < x:
            return 2
        return 1 if rest == 0 and k == x else 0
    if kind == T_GT_EACH:
        mo = 0
        for q in range(n):
            if q != o and s[KW + q] > mo:
                mo = s[KW + q]
        if k + rest <= mo:
            return 2
        return 1 if k > mo + rest else 0
    if kind == T_LT_EACH:
        need = 0
        lo = 40
        for q in range(n):
            if q != o:
                kq = s[KW + q]
                if kq <= k:
                    need += k - kq + 1
                if kq < lo:
                    lo = kq
        if need > rest:
            return 2
        return 1 if k + rest < lo else 0
    if kind == T_GT_ALL:
        others = r - k
        if k + rest <= others:
            return 2
        return 1 if k > others + rest else 0
    kc = s[KW + s[CAPTAIN]]
    if kind == T_GT_CAP:
        if k + rest <= kc:
            return 2
        return 1 if k > kc + rest else 0
    if kind == T_LT_CAP:
        if k >= kc + rest:
            return 2
        return 1 if k + rest < kc else 0
    # T_EQ_CAP
    if abs(k - kc) > rest:
        return 2
    return 1 if rest == 0 and k == kc else 0


# --------------------------------------------------------------------------- whole deals


@_jit
def _deal(s: Buf, tk: Buf, tn: Buf, si: int, n: int, T: int, tr: Buf, trace: bool) -> int:
    """One whole deal with task set ``si`` of the pool: 1 success, 0 failure."""
    for c in range(40):
        s[DECKB + c] = c
    _shuffle(s, RNG, DECKB, 40)
    start = _below(s, RNG, n) if n == 3 else 0
    for q in range(5):
        s[HANDS + q] = 0
        s[WON + q] = 0
        s[KW + q] = 0
        s[POS + q] = 0
        s[LED + q] = 0
    for i in range(40):
        q = (start + i) % n
        s[HANDS + q] |= 1 << s[DECKB + i]
    cap = 0
    for q in range(n):
        if s[HANDS + q] >> 39 & 1:
            cap = q
    s[CAPTAIN] = cap
    s[START] = start
    # the normal allocation (R-7.1-R-7.3): seats in turn from the captain, tasks in random order
    k = tn[si]
    base = si * KMAX * W
    ok = False
    for _ in range(100):
        for i in range(k):
            s[ORDER + i] = i
        _shuffle(s, RNG, ORDER, k)
        ok = True
        for j in range(k):
            t = s[ORDER + j]
            q = (cap + j) % n
            s[OWN + t] = q
            if q == cap and tk[base + W * t + PK_VSCAP]:
                ok = False
        if ok:
            break
    if not ok:  # only captain-comparison tasks could go to the captain: the seat after it
        for i in range(k):
            if s[OWN + i] == cap and tk[base + W * i + PK_VSCAP]:
                s[OWN + i] = (cap + 1) % n
    for i in range(k):
        s[ST + i] = 0
        s[PRED + i] = _below(s, RNG, T + 1) if tk[base + W * i + PK_PRED] else -1
    if trace:
        tr[TR_CAP] = cap
        tr[TR_START] = start
        for i in range(40):
            tr[TR_DECK + i] = s[DECKB + i]
        for i in range(k):
            tr[TR_OWN + i] = s[OWN + i]
            tr[TR_PRED + i] = s[PRED + i]
    s[PLAYED] = 0
    s[LIVE] = ALL
    s[R] = 0
    s[RUN_SEAT] = -1
    s[RUN_LEN] = 0
    s[NDONE] = 0
    s[NFAIL] = 0
    s[LEADER] = cap
    s[NCUR] = 0
    s[CURM] = 0
    s[NPLAYED] = 0
    s[NTASK] = k
    s[NEED_R] = -1
    return _play_out(s, tk, base, n, T, RANDOM, 0, tr, trace)


# --------------------------------------------------------------------------- playing


@_jit
def _settle(s: Buf, tk: Buf, base: int, n: int, T: int, tr: Buf, trace: bool) -> int:
    """The trick in progress is complete: its winner takes it, every open task is judged
    (R-13.2); -1 while the mission is open, 1 success, 0 failure (R-14.1)."""
    k = s[NTASK]
    mask = s[CURM]
    bseat = s[BSEAT]
    r = s[R] + 1
    played = s[PLAYED] | mask
    s[PLAYED] = played
    s[R] = r
    s[LIVE] = ALL & ~played if r < T else 0
    s[WON + bseat] |= mask
    s[KW + bseat] += 1
    s[POS + bseat] |= 1 << (r - 1)
    if s[RUN_SEAT] == bseat:
        s[RUN_LEN] += 1
    else:
        s[RUN_SEAT] = bseat
        s[RUN_LEN] = 1
    s[LAST_W] = bseat
    s[LAST_M] = mask
    s[LAST_WC] = 1 << s[BEST]
    for i in range(k):
        if s[ST + i] == 0:
            v = _eval(s, tk, base + W * i, i, n, T)
            if v:
                s[ST + i] = v
                if v == 1:
                    s[NDONE] += 1
                else:
                    s[NFAIL] += 1
    if trace:
        for i in range(k):
            tr[TR_STAT + KMAX * (r - 1) + i] = s[ST + i]
        tr[TR_TRICK] = r
    s[LEADER] = bseat
    s[NCUR] = 0
    s[CURM] = 0
    res = -1
    if s[NFAIL]:
        res = 0
    elif s[NDONE] == k:
        res = 1
    elif r == T:  # cannot happen: every task is settled by the last trick
        res = 0
    if trace and res >= 0:
        tr[TR_RES] = res
    return res


@_jit
def _put(s: Buf, tk: Buf, base: int, n: int, T: int, c: int, tr: Buf, trace: bool) -> int:
    """The mover plays card ``c`` (legal); a complete trick is settled: as :func:`_settle`."""
    q = (s[LEADER] + s[NCUR]) % n
    s[HANDS + q] &= ~(1 << c)
    if trace:
        tr[TR_PLAYS + s[NPLAYED]] = c
    s[NPLAYED] += 1
    if s[NCUR] == 0:
        s[LEDSUIT] = c // 9 if c < 36 else 4
        s[BEST] = c
        s[BSEAT] = q
        s[LED + q] |= 1 << c
    elif c >= 36:
        if s[BEST] < 36 or c > s[BEST]:
            s[BEST] = c
            s[BSEAT] = q
    elif s[BEST] < 36 and c // 9 == s[LEDSUIT] and c > s[BEST]:
        s[BEST] = c
        s[BSEAT] = q
    s[CURM] |= 1 << c
    s[NCUR] += 1
    if s[NCUR] < n:
        return -1
    return _settle(s, tk, base, n, T, tr, trace)


@_jit
def _legal(s: Buf, n: int) -> int:
    """The mover's legal cards (R-10.2): the led suit when it holds one, else any."""
    hand = s[HANDS + (s[LEADER] + s[NCUR]) % n]
    if s[NCUR]:
        led = s[LEDSUIT]
        f = hand & (SUBS if led == 4 else 0x1FF << (9 * led))
        if f:
            return f
    return hand


@_jit
def _nth(m: int, i: int) -> int:
    """The ``i``-th card (from 0, deck order) of the mask ``m``."""
    c = _low(m)
    m >>= c
    for _ in range(i):
        m >>= 1
        c += 1
        while not m & 1:
            m >>= 1
            c += 1
    return c


@_jit
def _play_out(
    s: Buf, tk: Buf, base: int, n: int, T: int, policy: int, noise: int, tr: Buf, trace: bool
) -> int:
    """Play to the end with ``policy`` for every seat: 1 success, 0 failure (-2: a seat to
    move holds no card, a broken position).  ``noise`` (greedy and sighted policies; in
    ten-thousandths): a seat with a choice plays, with that probability, one of its other legal
    cards (uniform) instead of the rule's; 0 draws no extra number."""
    while True:
        legal = _legal(s, n)
        if not legal:
            return -2
        if policy != RANDOM:
            c = _greedy(s, tk, base, n, T, legal, policy == SIGHTED)
            if noise and legal & (legal - 1) and _below(s, RNG, 10000) < noise:
                other = legal & ~(1 << c)
                c = _nth(other, _below(s, RNG, _pop(other)))
        else:
            c = _nth(legal, _below(s, RNG, _pop(legal)))
        v = _put(s, tk, base, n, T, c, tr, trace)
        if v >= 0:
            return v


# --------------------------------------------------------------------------- the card rule


@_jit
def _needs(s: Buf, tk: Buf, base: int, n: int, T: int) -> None:
    """What every seat's open tasks ask of the next trick, the crewmate's reading
    (:func:`dsa_widget.crew.playouts.needs`): MUST, WANT, NEVER, PREF, NOLEAD, HOLD, ALLMUST."""
    r = s[R]
    left = T - r
    live = s[LIVE]
    for q in range(5):
        s[MUST + q] = 0
        s[WANT + q] = 0
        s[NEVER + q] = 0
        s[PREF + q] = 0
        s[NOLEAD + q] = 0
    hold = 0
    lastw = s[LAST_W] if r > 0 else -1
    cap = s[CAPTAIN]
    for i in range(s[NTASK]):
        if s[ST + i] != 0:
            continue
        b = base + W * i
        kind = tk[b + PK_KIND]
        p = b + PK_P
        o = s[OWN + i]
        w = s[WON + o]
        ko = s[KW + o]
        if kind == T_WIN_CARDS:
            s[MUST + o] |= tk[p] & ~w
        elif kind == T_IN_TRICK:
            if left == 1:
                s[MUST + o] |= tk[p]
                s[PREF + o] = 2
            else:
                hold |= tk[p]
        elif kind == T_AVOID:
            s[NEVER + o] |= tk[p] & live
        elif kind == T_COUNT:
            for j in range(tk[p]):
                m = tk[p + 1 + 3 * j]
                fl = tk[p + 2 + 3 * j]
                cnt = tk[p + 3 + 3 * j]
                if cnt == 0 or (fl & 1 and _pop(w & m) >= cnt):
                    s[NEVER + o] |= m & live
                elif fl & 2:
                    s[MUST + o] |= m & ~w
                else:
                    s[WANT + o] |= m & live
        elif kind == T_ALL_OF:
            bj = 0
            bc = -1
            for j in range(4):
                x = _pop(w & (0x1FF << (9 * j)))
                if x > bc:
                    bc = x
                    bj = j
            sm = 0x1FF << (9 * bj)
            if w & sm:
                s[MUST + o] |= sm & live
        elif kind == T_MORE:
            am = tk[p]
            bm = tk[p + 1]
            s[WANT + o] |= am & live
            if _pop(w & am) <= _pop(w & bm) + 1:
                s[NEVER + o] |= bm & live
        elif kind == T_SAME:
            am = tk[p]
            bm = tk[p + 1]
            ca = _pop(w & am)
            cb = _pop(w & bm)
            if ca <= cb:
                s[WANT + o] |= am & live
            if cb <= ca:
                s[WANT + o] |= bm & live
        elif kind == T_WITH_PAIR:
            if tk[p + 2]:
                s[WANT + o] |= tk[p + 1] & live
        elif kind == T_MATCH:
            if s[PREF + o] == 0:
                s[PREF + o] = 1
        elif kind == T_NO_LEAD:
            s[NOLEAD + o] |= tk[p]
        elif kind == T_POS:
            if tk[p] >> r & 1:
                s[PREF + o] = 2
            elif tk[p + 1] >> r & 1:
                s[PREF + o] = -2
        elif kind == T_TRICKS:
            x = s[PRED + i] if tk[b + PK_PRED] else tk[p]
            if x >= 0:
                if ko >= x:
                    s[PREF + o] = -2
                elif ko + left <= x:
                    s[PREF + o] = 2
                elif s[PREF + o] == 0:
                    s[PREF + o] = 1 if n * (x - ko) > left else -1
        elif kind == T_RUN_AT_LEAST:
            v = 2 if lastw == o else 1
            if s[PREF + o] < v:
                s[PREF + o] = v
        elif kind == T_RUN_NEVER:
            if lastw == o:
                s[PREF + o] = -2
        elif kind == T_RUN_EXACT:
            if ko >= tk[p]:
                s[PREF + o] = -2
            elif (ko and lastw == o) or (ko == 0 and left <= tk[p]):
                s[PREF + o] = 2
        elif kind == T_EQ_CAP:
            kc = s[KW + cap]
            if ko < kc:
                if s[PREF + o] < 1:
                    s[PREF + o] = 1
                if s[PREF + cap] == 0:
                    s[PREF + cap] = -1
            elif ko > kc and s[PREF + o] <= 0:
                s[PREF + o] = -1
        elif kind in (T_GT_EACH, T_GT_ALL, T_GT_CAP):
            if s[PREF + o] < 1:
                s[PREF + o] = 1
            if kind == T_GT_CAP and cap != o and s[PREF + cap] <= 0:
                s[PREF + cap] = -1
        elif kind in (T_LT_EACH, T_LT_CAP):
            if s[PREF + o] <= 0:
                s[PREF + o] = -1
            if kind == T_LT_CAP and cap != o and s[PREF + cap] < 1:
                s[PREF + cap] = 1
    s[HOLD] = hold
    allm = 0
    for q in range(n):
        allm |= s[MUST + q]
    s[ALLMUST] = allm
    s[NEED_R] = r


@_jit
def _prefv(x: int) -> int:
    """The score of a trick wish, hundredths (``playouts._PREF_VALUE``)."""
    if x == 2:
        return 600
    if x == 1:
        return 150
    if x == -1:
        return -200
    if x == -2:
        return -1200
    return 0


@_jit
def _value(s: Buf, tk: Buf, base: int, w: int, m: int, cw: int, tlast: bool) -> int:
    """Seat ``w`` takes a trick holding ``m``, its card ``cw`` winning (-1: unknown):
    ``playouts._value``, hundredths."""
    mw = s[MUST + w]
    v = 400 * _pop(m & mw) - 1200 * _pop(m & s[ALLMUST] & ~mw)
    v += 100 * _pop(m & s[WANT + w]) - 1200 * _pop(m & s[NEVER + w])
    if m & s[HOLD] and not tlast:
        v -= 1200
    v += _prefv(s[PREF + w])
    if cw >= 0:
        for i in range(s[NTASK]):
            if s[ST + i] == 0 and s[OWN + i] == w:
                b = base + W * i
                kind = tk[b + PK_KIND]
                if kind in (T_WITH_CARD, T_WITH_PAIR):
                    cm = tk[b + PK_P + 1] if kind == T_WITH_PAIR else 0
                    if tk[b + PK_P] >> cw & 1 and (cm == 0 or m & ~(1 << cw) & cm):
                        v += 500
    return v


@_jit
def _exact(s: Buf, tk: Buf, base: int, n: int, T: int, w: int, wc: int, m: int, cw: int, tlast: bool) -> int:
    """The last card of a trick: the statuses after it, judged and undone
    (``playouts._exact``, hundredths)."""
    played = s[PLAYED]
    live = s[LIVE]
    r = s[R]
    won = s[WON + w]
    kw = s[KW + w]
    pos = s[POS + w]
    rs = s[RUN_SEAT]
    rl = s[RUN_LEN]
    lw = s[LAST_W]
    lm = s[LAST_M]
    lwc = s[LAST_WC]
    s[PLAYED] = played | m
    s[R] = r + 1
    s[LIVE] = ALL & ~(played | m) if r + 1 < T else 0
    s[WON + w] = won | m
    s[KW + w] = kw + 1
    s[POS + w] = pos | 1 << r
    if rs == w:
        s[RUN_LEN] = rl + 1
    else:
        s[RUN_SEAT] = w
        s[RUN_LEN] = 1
    s[LAST_W] = w
    s[LAST_M] = m
    s[LAST_WC] = 1 << wc
    newdone = 0
    fail = False
    for i in range(s[NTASK]):
        if s[ST + i] == 0:
            v = _eval(s, tk, base + W * i, i, n, T)
            if v == 2:
                fail = True
            elif v == 1:
                newdone += 1
    s[PLAYED] = played
    s[R] = r
    s[LIVE] = live
    s[WON + w] = won
    s[KW + w] = kw
    s[POS + w] = pos
    s[RUN_SEAT] = rs
    s[RUN_LEN] = rl
    s[LAST_W] = lw
    s[LAST_M] = lm
    s[LAST_WC] = lwc
    if fail:
        return -10000
    if s[NDONE] + newdone == s[NTASK]:
        return 10000
    pw = s[PREF + w]
    v = 1000 * newdone + _value(s, tk, base, w, m, cw, tlast) - _prefv(pw)
    if pw == 2:
        v += 300
    elif pw == 1:
        v += 100
    return v


@_jit
def _greedy(s: Buf, tk: Buf, base: int, n: int, T: int, legal: int, sighted: bool) -> int:
    """The crewmate's card (:func:`dsa_widget.crew.playouts.greedy_scores`, the same exact
    scores in hundredths as fractions ``num / den``), equal top scores drawn uniformly;
    ``sighted``: the threats to the trick's winner are the cards the seats still to play
    in it can play (their hands are known: a drawn deal), not every card still out."""
    if not legal & (legal - 1):
        return _low(legal)
    if s[NEED_R] != s[R]:
        _needs(s, tk, base, n, T)
    seat = (s[LEADER] + s[NCUR]) % n
    hand = s[HANDS + seat]
    m0 = s[CURM]
    ncur = s[NCUR]
    unknown = ALL & ~(s[PLAYED] | m0 | hand)
    last = ncur == n - 1
    tlast = s[R] + 1 == T
    bn = 0
    bd = 1
    ties = 0
    choice = -1
    rest = legal
    while rest:
        c = _low(rest)
        rest &= rest - 1
        b = 1 << c
        m = m0 | b
        w = seat
        wc = c
        if ncur:
            best = s[BEST]
            beats = (best < 36 or c > best) if c >= 36 else (best < 36 and c // 9 == s[LEDSUIT] and c > best)
            if not beats:
                w = s[BSEAT]
                wc = best
        fixed = -8 * (c % 9 + 1) if c < 36 else -8 * (c - 35) - 60
        if b & s[MUST + seat] and w != seat:
            fixed -= 600
        if b & s[HOLD] and not tlast:
            fixed -= 600
        if last:
            num = _exact(s, tk, base, n, T, w, wc, m, c if w == seat else -1, tlast) + fixed
            den = 1
        else:
            if sighted:
                ls = s[LEDSUIT] if ncur else (c // 9 if c < 36 else 4)
                lm = SUBS if ls == 4 else 0x1FF << (9 * ls)
                beat = SUBS & ~((2 << wc) - 1)
                if wc < 36:
                    beat = SUBS | ((0x1FF << (9 * (wc // 9))) & ~((2 << wc) - 1))
                threats = 0
                top = 0
                for j in range(ncur + 1, n):
                    q = (s[LEADER] + j) % n
                    h = s[HANDS + q]
                    if h & lm:
                        h &= lm
                    t = h & beat
                    if _bitlen(t) > _bitlen(threats):
                        top = q
                    threats |= t
                h2 = 2 * _pop(threats)
            elif wc < 36:
                threats = (0x1FF << (9 * (wc // 9))) & ~((2 << wc) - 1) & unknown & ~SUBS
                h2 = 2 * _pop(threats) + _pop(SUBS & unknown)
            else:
                h2 = 2 * _pop(SUBS & ~((2 << wc) - 1) & unknown)
            vw = _value(s, tk, base, w, m, wc if w == seat else -1, tlast)
            vo = -800 * _pop(m & (s[ALLMUST] | s[HOLD])) if h2 else 0
            if sighted and h2:  # the trick as the seat with the highest threat would take it
                vo = _value(s, tk, base, top, m, -1, tlast)
            if ncur == 0 and s[NOLEAD + seat] & b:
                fixed -= 1200
            den = 4 + 3 * h2
            num = 4 * vw + 3 * h2 * vo + den * fixed
        if choice < 0:
            choice = c
            bn = num
            bd = den
            ties = 1
        else:
            x = num * bd - bn * den
            if x > 0:
                choice = c
                bn = num
                bd = den
                ties = 1
            elif x == 0:
                ties += 1
                if _below(s, RNG, ties) == 0:
                    choice = c
    return choice


@_jit
def _run(tk: Buf, tn: Buf, nsets: int, n: int, T: int, count: int, seed: int, tr: Buf, trace: bool) -> int:
    """``count`` deals, deal ``d`` with task set ``d % nsets``: the successes."""
    s = tr[TR_SIZE : TR_SIZE + SIZE]
    _seed(s, RNG, seed)
    ok = 0
    for d in range(count):
        ok += _deal(s, tk, tn, d % nsets, n, T, tr, trace)
    return ok


@_jit
def _rollouts(
    tk: Buf,
    base_s: Buf,
    hs: Buf,
    ps: Buf,
    nsamp: int,
    cards: Buf,
    ncards: int,
    policy: int,
    seed: int,
    out: Buf,
    noise: int,
    best: int,
    branch: bool,
) -> int:
    """For every sample ``j`` (its hands ``hs[j * 5 + q]``, predictions ``ps[j * KMAX + i]``)
    and every card ``cards[a]`` of the mover: play the card, then play out from the position
    ``base_s`` with ``policy`` (and ``noise``, see :func:`_play_out`), up to ``best`` times
    until one playout succeeds; with ``branch`` (greedy and sighted policies) each seat still
    to play in the trick after the mover plays either the rule's card or the rule's card
    among the others (its second choice), every combination tried in turn (``best`` times
    each) until one succeeds.  ``out[a]`` counts the samples on which a playout succeeded and
    ``out[ncards + a]`` adds up, over the others, the most tricks complete when a failure of
    theirs was decided.  Returns 0, or -2 for a broken position."""
    n = base_s[NSEATS]
    T = base_s[NTRICKS]
    k = base_s[NTASK]
    s = out[2 * ncards : 2 * ncards + SIZE]
    _seed(s, RNG, seed)
    for a in range(2 * ncards):
        out[a] = 0
    nb = n - 1 - base_s[NCUR] if branch and policy != RANDOM else 0
    for j in range(nsamp):
        for a in range(ncards):
            won = 0
            far = 0
            for combo in range(1 << nb):
                for _ in range(best):
                    for x in range(RNG + 4, SIZE):
                        s[x] = base_s[x]
                    for q in range(n):
                        s[HANDS + q] = hs[j * 5 + q]
                    for i in range(k):
                        s[PRED + i] = ps[j * KMAX + i]
                    v = _put(s, tk, 0, n, T, cards[a], out, False)
                    same = False  # a seat told to play its second choice has none
                    for q in range(nb):
                        if v >= 0:
                            break
                        legal = _legal(s, n)
                        if not legal:
                            return -2
                        c = _greedy(s, tk, 0, n, T, legal, policy == SIGHTED)
                        if combo >> q & 1:
                            if not legal & ~(1 << c):
                                same = True
                                break
                            c = _greedy(s, tk, 0, n, T, legal & ~(1 << c), policy == SIGHTED)
                        v = _put(s, tk, 0, n, T, c, out, False)
                    if same:
                        break
                    if v < 0:
                        v = _play_out(s, tk, 0, n, T, policy, noise, out, False)
                    if v == -2:
                        return -2
                    if v == 1:
                        won = 1
                        break
                    if s[R] > far:
                        far = s[R]
                if won:
                    break
            out[a] += won
            if not won:
                out[ncards + a] += far
    return 0


@_jit
def _playout(tk: Buf, tr: Buf, policy: int, seed: int, noise: int) -> int:
    """One playout from the position in ``tr[TR_SIZE:]`` (its trace in ``tr``)."""
    s = tr[TR_SIZE : TR_SIZE + SIZE]
    _seed(s, RNG, seed)
    s[NPLAYED] = 0
    return _play_out(s, tk, 0, s[NSEATS], s[NTRICKS], policy, noise, tr, True)


# --------------------------------------------------------------------------- the Python side


def _sel(select: Any) -> int:
    return selector_mask(select)


def _at(x: Any, T: int) -> int:
    return T if x == "last" else int(x)


def encode_task(task: Task, seats: int) -> list[int]:
    """The kernel's row (``W`` integers) for ``task`` with ``seats`` seats; ValueError naming
    the task when the kernel cannot judge it."""
    T = TRICKS[seats]
    kind, p = task.kind, task.params
    row = [0] * W
    row[PK_VSCAP] = int(task.vs_captain)
    args: list[int] = []

    def refuse(why: str) -> ValueError:
        return ValueError(f"the Crew kernel cannot judge task {task.id} ({kind}): {why}")

    if kind == "win_cards":
        code, args = T_WIN_CARDS, [sum(1 << DECK.index(c) for c in p["cards"])]
    elif kind == "win_card_in_trick":
        code, args = T_IN_TRICK, [1 << DECK.index(p["card"]), _at(p["trick"], T)]
    elif kind == "avoid_cards":
        code, args = T_AVOID, [_sel(p["select"])]
    elif kind == "card_count":
        cons = p["constraints"]
        if len(cons) > 4:
            raise refuse("more than 4 constraints")
        code, args = T_COUNT, [len(cons)]
        for c in cons:
            # the flags: 1 = "exactly n", 2 = n is every card the selector names (the card rule
            # then asks its owner to capture them)
            every = int("cards" in c["select"] and int(c["n"]) == len(c["select"]["cards"]))
            args += [_sel(c["select"]), int(c["op"] == "eq") | 2 * every, int(c["n"])]
    elif kind == "all_of_a_suit":
        code, args = T_ALL_OF, [len(p["of_any"])] + [SUIT_MASK[x] for x in p["of_any"]]
    elif kind == "compare_suits":
        am, bm = SUIT_MASK[p["a"]], SUIT_MASK[p["b"]]
        if p["op"] == "gt":
            code, args = T_MORE, [am, bm]
        else:
            code, args = T_SAME, [am, bm, int(p["min_each"])]
    elif kind == "win_trick_with":
        if p.get("capture") is None:
            code, args = T_WITH_CARD, [_sel(p["play"])]
        else:
            named = int("cards" in p["capture"])  # the card rule wants named cards captured
            code, args = T_WITH_PAIR, [_sel(p["play"]), _sel(p["capture"]), named]
    elif kind == "trick_matching":
        code = T_MATCH
        excl = SUBS if p.get("no_submarine") else 0
        test = p["test"]
        if test == "all_ranks":
            v = int(p["value"])
            ranks = range(1, v) if p["cmp"] == "lt" else range(v + 1, 10)
            q = sum(1 << c for c in range(36) if c % 9 + 1 in ranks)
            args = [M_SUBSET, excl, q]
        elif test == "all_parity":
            want = 0 if p["parity"] == "even" else 1
            args = [M_SUBSET, excl, sum(1 << c for c in range(36) if (c % 9 + 1) % 2 == want)]
        elif test == "rank_sum" and p["cmp"] in ("gt", "lt"):
            args = [M_SUM_GT if p["cmp"] == "gt" else M_SUM_LT, excl, int(p["value_by_players"][str(seats)])]
        elif test == "rank_sum" and p["cmp"] == "in":
            args = [M_SUM_IN, excl, sum(1 << int(x) for x in p["values"])]
        elif test == "equal_suit_count":
            a, b = (SUIT_MASK[x] for x in p["suits"])
            args = [M_EQUAL, excl, a, b, int(p["min_each"])]
        else:
            raise refuse(f"unknown test {test!r}")
    elif kind == "no_lead":
        code, args = T_NO_LEAD, [sum(SUIT_MASK[x] for x in p["suits"])]
    elif kind == "trick_positions":
        win = [_at(x, T) for x in p["win"]]
        shun = (
            [x for x in range(1, T + 1) if x not in win]
            if p["avoid"] == "rest"
            else [_at(x, T) for x in p["avoid"]]
        )
        code, args = T_POS, [sum(1 << (x - 1) for x in set(win)), sum(1 << (x - 1) for x in set(shun))]
    elif kind == "trick_count":
        code = T_TRICKS
        if p["n"] == "predicted":
            row[PK_PRED] = 1
            args = [0]
        else:
            args = [int(p["n"])]
    elif kind == "trick_run":
        mode = p["mode"]
        codes = {"at_least": T_RUN_AT_LEAST, "never": T_RUN_NEVER, "exactly_all": T_RUN_EXACT}
        if mode not in codes:
            raise refuse(f"unknown mode {mode!r}")
        code, args = codes[mode], [int(p["n"])]
    elif kind == "trick_count_relative":
        rel = {
            ("gt", "each_other"): T_GT_EACH,
            ("lt", "each_other"): T_LT_EACH,
            ("gt", "others_combined"): T_GT_ALL,
            ("gt", "captain"): T_GT_CAP,
            ("lt", "captain"): T_LT_CAP,
            ("eq", "captain"): T_EQ_CAP,
        }
        key = (p["op"], p["vs"])
        if key not in rel:
            raise refuse(f"unknown comparison {key!r}")
        code = rel[key]
    else:
        raise refuse("unknown kind")
    row[PK_KIND] = code
    row[PK_P : PK_P + len(args)] = args
    return row


def _seats(seats: int) -> int:
    if not is_int(seats) or seats not in TRICKS:
        raise ValueError(f"the Crew kernel plays 3, 4 or 5 seats, not {seats!r}")
    return seats


def _pool(task_sets: Sequence[Sequence[int]], seats: int) -> tuple[Buf, Buf]:
    if not task_sets:
        raise ValueError("the Crew kernel needs at least one task set")
    tk: list[int] = []
    tn: list[int] = []
    for ts in task_sets:
        ids = list(ts)
        if len(ids) > KMAX:
            raise ValueError(f"the Crew kernel takes at most {KMAX} tasks a deal, not {len(ids)}")
        if len(set(ids)) != len(ids):
            raise ValueError(f"a task set names a task twice: {ids}")
        rows = [0] * (KMAX * W)
        for i, tid in enumerate(ids):
            if tid not in TASKS:
                raise ValueError(f"no task {tid!r}: the tasks are 1-96")
            rows[W * i : W * (i + 1)] = encode_task(TASKS[tid], seats)
        tk += rows
        tn.append(len(ids))
    if _np is not None:
        return _np.array(tk, dtype=_np.int64), _np.array(tn, dtype=_np.int64)
    return tk, tn


def _buf() -> Buf:
    if _np is not None:
        return _np.zeros(TR_SIZE + SIZE, dtype=_np.int64)  # type: ignore[no-any-return]
    return [0] * (TR_SIZE + SIZE)


def kernel_deals(
    count: int,
    *,
    seats: int = 4,
    tasks: Sequence[int] | None = None,
    task_sets: Sequence[Sequence[int]] | None = None,
    seed: int = 0,
) -> tuple[int, int]:
    """``count`` whole random deals: (successes, deals).  The tasks are ``tasks`` for every
    deal, or deal ``d`` takes ``task_sets[d % len(task_sets)]``."""
    n = _seats(seats)
    if (tasks is None) == (task_sets is None):
        raise ValueError("give the tasks of every deal (tasks=) or a pool of task sets (task_sets=)")
    if not is_int(count) or count < 0:
        raise ValueError(f"count must be a whole number >= 0, not {count!r}")
    sets = [tasks] if tasks is not None else task_sets
    assert sets is not None
    tk, tn = _pool(sets, n)
    ok = _run(tk, tn, len(sets), n, TRICKS[n], count, seed & ((1 << 63) - 1), _buf(), False)
    return int(ok), count


@dataclass(frozen=True)
class KernelDeal:
    """One kernel deal with its trace: the hands dealt (card ids, deck order), the captain, the
    owners and predictions (None: not a predicted task) of ``tasks``, the cards in play order,
    the task statuses after each trick, the result and the trick it was decided at."""

    tasks: tuple[int, ...]
    hands: tuple[tuple[str, ...], ...]
    captain: int
    owners: tuple[int, ...]
    predictions: tuple[int | None, ...]
    plays: tuple[str, ...]
    statuses: tuple[tuple[str, ...], ...]
    result: str
    trick: int


_STATUS = ("open", "done", "failed")


def kernel_deal(seed: int, *, seats: int = 4, tasks: Sequence[int] = ()) -> KernelDeal:
    """One kernel deal with its trace (for checking it against the engine)."""
    n = _seats(seats)
    ids = tuple(tasks)
    tk, tn = _pool([ids], n)
    tr = _buf()
    _run(tk, tn, 1, n, TRICKS[n], 1, seed & ((1 << 63) - 1), tr, True)
    k = len(ids)
    start = int(tr[TR_START])
    hands: list[list[int]] = [[] for _ in range(n)]
    for i in range(40):
        hands[(start + i) % n].append(int(tr[TR_DECK + i]))
    trick = int(tr[TR_TRICK])
    return KernelDeal(
        tasks=ids,
        hands=tuple(tuple(DECK[c] for c in sorted(h)) for h in hands),
        captain=int(tr[TR_CAP]),
        owners=tuple(int(tr[TR_OWN + i]) for i in range(k)),
        predictions=tuple(None if tr[TR_PRED + i] < 0 else int(tr[TR_PRED + i]) for i in range(k)),
        plays=tuple(DECK[int(tr[TR_PLAYS + j])] for j in range(n * trick)),
        statuses=tuple(
            tuple(_STATUS[int(tr[TR_STAT + KMAX * r + i])] for i in range(k)) for r in range(trick)
        ),
        result="success" if tr[TR_RES] else "failure",
        trick=trick,
    )


# --------------------------------------------------------------------------- playouts from a position

_POLICIES = {"random": RANDOM, "greedy": GREEDY, "sighted": SIGHTED}
_STATUS_CODE = {"open": 0, "done": 1, "failed": 2}


class KernelPosition:
    """A play-phase position of The Crew encoded for the kernel (:func:`encode_position`):
    ``tk`` the task rows, ``state`` the buffer (hands, the trick so far, tasks with owners,
    predictions and statuses, who leads); ``seats``, ``tasks`` (ids), ``mover`` (the seat to
    play), ``sizes`` (the cards each seat holds)."""

    __slots__ = ("mover", "seats", "sizes", "state", "tasks", "tk")

    def __init__(
        self, tk: Buf, state: Buf, seats: int, tasks: tuple[int, ...], mover: int, sizes: tuple[int, ...]
    ):
        self.tk = tk
        self.state = state
        self.seats = seats
        self.tasks = tasks
        self.mover = mover
        self.sizes = sizes


def encode_position(
    st: PlayState, *, options: Mapping[str, Any] | None = None, constraints: Sequence[Mapping[str, Any]] = ()
) -> KernelPosition:
    """The position of ``st`` (a :class:`~dsa_widget.crew.playouts.PlayState` holding every
    hand, e.g. :meth:`PlayState.from_game`) for :func:`kernel_playout` and
    :func:`kernel_rollouts`.  ``options`` / ``constraints``: the game's rule options and
    mission constraints.  ValueError when the kernel cannot play it: Tonoja, a lead ban,
    mission constraints, options that change how tasks are judged, more than :data:`KMAX`
    tasks, a task it cannot judge, a finished mission, or hands that are not all known."""
    n = st.seats
    if st.dummy is not None or n not in TRICKS:
        raise ValueError("the Crew kernel plays 3-5 seats without Tonoja")
    if st.lead_banned or constraints:
        raise ValueError("the Crew kernel plays no mission constraints")
    opts = resolve_options(options)
    default = resolve_options()
    for key in _OPTION_KEYS:
        if opts.get(key) != default.get(key):
            raise ValueError(f"the Crew kernel judges tasks under the default {key!r} only")
    if st.result is not None:
        raise ValueError(f"the mission is over ({st.result})")
    k = len(st.tasks)
    if k > KMAX:
        raise ValueError(f"the Crew kernel takes at most {KMAX} tasks a deal, not {k}")
    T = TRICKS[n]
    rows = [0] * (KMAX * W)
    for i, t in enumerate(st.tasks):
        rows[W * i : W * (i + 1)] = encode_task(t, n)
    s = [0] * SIZE
    tricks = st.tracker.tricks
    r = len(tricks)
    played = 0
    s[RUN_SEAT] = -1
    s[LAST_W] = -1
    for trk in tricks:
        m = 0
        for _, c in trk.plays:
            m |= 1 << c
        played |= m
        s[WON + trk.winner] |= m
        s[KW + trk.winner] += 1
        s[POS + trk.winner] |= 1 << (trk.number - 1)
        s[LED + trk.leader] |= 1 << trk.plays[0][1]
        if s[RUN_SEAT] == trk.winner:
            s[RUN_LEN] += 1
        else:
            s[RUN_SEAT] = trk.winner
            s[RUN_LEN] = 1
        s[LAST_W] = trk.winner
        s[LAST_M] = m
        best = max((c for _, c in trk.plays if c >= 36), default=-1)
        if best < 0:
            led = trk.plays[0][1] // 9
            best = max(c for _, c in trk.plays if c < 36 and c // 9 == led)
        s[LAST_WC] = 1 << best
    s[PLAYED] = played
    s[R] = r
    s[LIVE] = ALL & ~played if r < T else 0
    s[LEADER] = st.leader
    s[NCUR] = len(st.cur)
    for _, c in st.cur:
        s[CURM] |= 1 << c
    if st.cur:
        s[LED + st.leader] |= 1 << st.cur[0][1]
        s[LEDSUIT] = st.led
        s[BEST] = st.best
        s[BSEAT] = st.best_seat
    out = {q for q, _ in st.cur}
    for q in range(n):
        need = T - r - (1 if q in out else 0)  # 3 seats: one seat holds a card more
        if st.hands[q].bit_count() < need:
            raise ValueError(
                f"seat {q} holds {st.hands[q].bit_count()} cards, fewer than {need}: every hand must be known"
            )
        s[HANDS + q] = st.hands[q]
    for i, status in enumerate(st.tracker.statuses):
        s[ST + i] = _STATUS_CODE[status]
        s[OWN + i] = st.owners[i]
        pred = st.preds[i]
        s[PRED + i] = -1 if pred is None else int(pred)
    s[NDONE] = sum(1 for x in st.tracker.statuses if x == "done")
    s[NFAIL] = sum(1 for x in st.tracker.statuses if x == "failed")
    s[CAPTAIN] = st.captain
    s[NTASK] = k
    s[NEED_R] = -1
    s[NSEATS] = n
    s[NTRICKS] = T
    mover = (st.leader + len(st.cur)) % n
    sizes = tuple(h.bit_count() for h in st.hands)
    if _np is not None:
        return KernelPosition(
            _np.array(rows, dtype=_np.int64),
            _np.array(s, dtype=_np.int64),
            n,
            tuple(t.id for t in st.tasks),
            mover,
            sizes,
        )
    return KernelPosition(rows, s, n, tuple(t.id for t in st.tasks), mover, sizes)


def _policy(policy: str) -> int:
    if policy not in _POLICIES:
        raise ValueError(f"policy must be 'greedy', 'sighted' or 'random', not {policy!r}")
    return _POLICIES[policy]


def _noise(noise: float) -> int:
    """``noise`` (0 to 1) in the kernel's ten-thousandths."""
    if not is_number(noise) or not 0.0 <= noise <= 1.0:
        raise ValueError(f"noise must be a number in [0, 1], not {noise!r}")
    return round(10000 * float(noise))


@dataclass(frozen=True)
class KernelPlayout:
    """One playout from a position: ``result`` (``"success"`` / ``"failure"``) and the cards
    played, in order (card ids)."""

    result: str
    plays: tuple[str, ...]


def kernel_playout(
    position: KernelPosition, *, policy: str = "greedy", seed: int = 0, noise: float = 0.0
) -> KernelPlayout:
    """Play ``position`` to the end of the attempt, every seat with ``policy``: ``"greedy"``
    (the crewmate's card rule, :func:`dsa_widget.crew.playouts.greedy_play`, equal top
    scores drawn from the kernel's random numbers), ``"sighted"`` (the same rule reading the
    hands of the seats still to play in the trick,
    :func:`dsa_widget.crew.playouts.sighted_play`) or ``"random"`` (uniform legal cards);
    ``noise``: as :func:`kernel_rollout_stats`'s."""
    code = _policy(policy)
    eps = _noise(noise)
    tr = _buf()
    tr[TR_SIZE : TR_SIZE + SIZE] = position.state
    res = _playout(position.tk, tr, code, seed & ((1 << 63) - 1), eps)
    if res < 0:  # pragma: no cover - encode_position checks the hands
        raise ValueError("a seat to move holds no card")
    # the cards put down: to the end of the trick the mission was decided at
    st = position.state
    m = int(tr[TR_TRICK]) * position.seats - int(st[R]) * position.seats - int(st[NCUR])
    return KernelPlayout(
        "success" if res == 1 else "failure", tuple(DECK[int(tr[TR_PLAYS + j])] for j in range(m))
    )


def game_position(game: Any) -> KernelPosition | None:
    """``game``'s position for :func:`kernel_rollouts` (its options and mission constraints
    included), or None where the kernel cannot play it (Tonoja, constraints, options that
    change judging): the caller then plays its rollouts in Python."""
    from .errors import CrewError
    from .playouts import PlayState

    try:
        return encode_position(
            PlayState.from_game(game), options=game.options, constraints=game.mission.constraints
        )
    except (ValueError, CrewError):
        return None


def game_sample(game: Any) -> tuple[list[int], list[int | None]]:
    """One sample for :func:`kernel_rollouts` from a (drawn) game: its hands by seat as card
    masks and its tasks' predictions."""
    return [game.hand_mask(s) for s in range(game.seats)], [ts.prediction for ts in game.tasks]


def kernel_rollouts(
    position: KernelPosition,
    cards: Sequence[int],
    samples: Sequence[tuple[Sequence[int], Sequence[int | None]]],
    *,
    policy: str = "greedy",
    seed: int = 0,
    noise: float = 0.0,
    best_of: int = 1,
    branch: bool = False,
) -> list[int]:
    """The search bot's rollouts in one call: for every sample (the hands by seat as card
    masks, the predictions by task, None where the task predicts nothing) and every card of
    ``cards`` (card ints the mover may play), that card then a playout with ``policy``; the
    successes per card (``noise``, ``best_of``: see :func:`kernel_rollout_stats`)."""
    return kernel_rollout_stats(
        position, cards, samples, policy=policy, seed=seed, noise=noise, best_of=best_of, branch=branch
    )[0]


def kernel_rollout_stats(
    position: KernelPosition,
    cards: Sequence[int],
    samples: Sequence[tuple[Sequence[int], Sequence[int | None]]],
    *,
    policy: str = "greedy",
    seed: int = 0,
    noise: float = 0.0,
    best_of: int = 1,
    branch: bool = False,
) -> tuple[list[int], list[int]]:
    """:func:`kernel_rollouts` (the same playouts for the same seed) with, per card, the sum
    over its failed playouts of the tricks complete when the failure was decided: how long the
    mission lasted where it was lost (the planner's tie-break when hardly any playout succeeds).

    ``noise`` (0 to 1, greedy and sighted policies): in the playouts a seat with a choice
    plays, with this probability, one of its other legal cards (uniform) instead of the
    rule's, so that playouts of one deal differ by more than the rule's tie-breaks.
    ``best_of``: up to this many playouts a sample and card, stopping at the first success;
    a sample counts as a success when one of them succeeded (a cooperative team needs one
    line that works), else with the most tricks any of them lasted.  ``branch`` (greedy and
    sighted policies): a small cooperative search of the trick in progress, each seat still to
    play in it after the mover playing the rule's card or its second choice (the rule's card
    among the others), every combination (``best_of`` playouts each) tried until one
    succeeds.  ``noise=0, best_of=1, branch=False`` plays exactly the playouts it played
    without them.

    >>> from dsa_widget.crew.playouts import PlayState
    >>> from dsa_widget.crew.tasks import TASKS
    >>> hands = [sum(1 << c for c in range(40) if c % 4 == q) for q in range(4)]
    >>> pos = encode_position(PlayState(hands, [(TASKS[1], 0)], captain=3))
    >>> wins, lasted = kernel_rollout_stats(pos, [3], [(hands, [None])] * 5, seed=1)
    >>> wins == kernel_rollouts(pos, [3], [(hands, [None])] * 5, seed=1) and len(lasted) == 1
    True
    """
    code = _policy(policy)
    eps = _noise(noise)
    if not is_int(best_of) or best_of < 1:
        raise ValueError(f"best_of must be an int >= 1, not {best_of!r}")
    n = position.seats
    k = len(position.tasks)
    ns = len(samples)
    hs = [0] * (5 * ns)
    ps = [-1] * (KMAX * ns)
    for j, (hands, preds) in enumerate(samples):
        if len(hands) != n or len(preds) != k:
            raise ValueError(
                f"a sample gives {len(hands)} hands and {len(preds)} predictions, not {n} and {k}"
            )
        for q in range(n):
            if int(hands[q]).bit_count() != position.sizes[q]:
                raise ValueError(
                    f"sample {j}: seat {q} holds {int(hands[q]).bit_count()} cards, not {position.sizes[q]}"
                )
            hs[5 * j + q] = int(hands[q])
        for i in range(k):
            pr = preds[i]
            ps[KMAX * j + i] = -1 if pr is None else int(pr)
    cs = [int(c) for c in cards]
    if not cs:
        return [], []
    out: Buf
    args: tuple[Buf, Buf, Buf]
    if _np is not None:  # the compiled kernel reads int64 arrays, the plain one lists
        args = (
            _np.array(hs, dtype=_np.int64),
            _np.array(ps, dtype=_np.int64),
            _np.array(cs, dtype=_np.int64),
        )
        out = _np.zeros(2 * len(cs) + SIZE, dtype=_np.int64)
    else:
        args, out = (hs, ps, cs), [0] * (2 * len(cs) + SIZE)
    hs_b, ps_b, cs_b = args
    res = _rollouts(
        position.tk,
        position.state,
        hs_b,
        ps_b,
        ns,
        cs_b,
        len(cs),
        code,
        seed & ((1 << 63) - 1),
        out,
        eps,
        int(best_of),
        bool(branch),
    )
    if res < 0:  # pragma: no cover - the sizes are checked above
        raise ValueError("a seat to move holds no card")
    m = len(cs)
    return [int(out[a]) for a in range(m)], [int(out[m + a]) for a in range(m)]


def warm_up() -> None:
    """Compile (or load from the cache) the kernel: one tiny run of each entry."""
    kernel_deals(1, seats=4, tasks=[1])
    from .playouts import PlayState

    hands = [0, 0, 0, 0]
    for c in range(40):
        hands[c % 4] |= 1 << c
    st = PlayState(hands, [(TASKS[1], 0)], captain=3)  # seat 3 holds S4
    pos = encode_position(st)
    kernel_playout(pos, seed=1)
    kernel_rollouts(pos, [_low(hands[3])], [(hands, [None])], seed=1)
