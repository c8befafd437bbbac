"""The playout kernel: the complete rules of RULES.md on one flat array of integers.

This module is the compiled core of :mod:`dsa_widget.deep_sea.playouts` (use that module: it
builds the arrays from a :class:`~dsa_widget.deep_sea.rules.Game` and reads the results).  The
functions here use nothing but integers and 1-D indexing, so the same source runs

* compiled by numba (``numba.njit(cache=True, nogil=True, error_model="numpy")``, compiled on
  first use and cached in ``__pycache__``) when numba is importable (the
  ``fast`` extra), on numpy ``int64`` arrays; or
* as plain Python, on lists, when numba is absent or the environment variable
  ``DSA_WIDGET_NO_NUMBA`` is set (to anything but ``""`` or ``"0"``).  numpy is not needed then.

Both give the same results for the same seed: no arithmetic here leaves 64 signed bits.
:data:`COMPILED` says which one this process runs.  :func:`plain_kernel` always returns the plain
Python functions (for tests and for comparing the two).

The checked :class:`~dsa_widget.deep_sea.rules.Game` is the single source of truth: this kernel
is checked against it turn by turn (``tests/test_kernel.py``).

Data layout
-----------
An *item* (a chip, or a stack of up to 3 chips) is one int: chip ids plus one in 11-bit fields,
``(c0 + 1) | (c1 + 1) << 11 | (c2 + 1) << 22``; 0 is a blank.  Chip ids go up to 2046, so every
path a :class:`~dsa_widget.deep_sea.setup.Setup` allows (1000 chips) fits.

>>> pack_item((4,)), pack_item((0, 1, 2)), item_chips(pack_item((7, 30)))
(5, 12587009, (7, 30))

A game's state is one int array ``s`` of :func:`state_size` ints; with ``n`` players and ``c``
chips the fields start at the offsets :func:`offsets` returns::

    s[0..15]          scalars: AIR ROUND PLAYER NHOME LASTHOME NTURNS STEP LAST PLEN SQLEN SQI
    s[POS + q]        diver q's space (0 = the submarine)          q < n
    s[UP + q]         1 when heading up
    s[HOME + q]       1 when back in the submarine this round
    s[NCAR + q]       items carried
    s[SCORE + q]      points banked
    s[LVC + 5q + l]   chips of level l banked (the tie-break)
    s[PATH + i]       the item on space i (1..PLEN; 0 = blank)
    s[OCC + i]        the seat on space i, -1 when free
    s[CARRY + qc + j] diver q's j-th carried item, in pickup order
    s[SQ + j]         the sink queue: drowning divers with 2+ chips, in drop order
    s[SOLEN + q]      chips whose sink order diver q has chosen so far
    s[SORD + qc + j]  diver q's sink order (indices of his chips in pickup order)

``STEP`` is one of :data:`S_BEGIN` (a turn not yet begun: the ``turn_back`` step, or ``roll``
before breathing), :data:`S_ROLL` (``roll`` after breathing), :data:`S_SEARCH`, :data:`S_SINK`,
:data:`S_OVER`.  ``cfg`` holds the setup, the number of games and the offsets above: see the
``C_*`` indices.  Everything a Game can hold fits: up to 1000 chips (a Setup's limit), stacks
of up to 3 chips (the only stacks the rules make), any number of items carried.

A trace entry (``cfg[C_TRACE]`` on) is two ints, the seat and
``(kind * KSHIFT + argument) << NBITS | number of legal choices``, ``kind`` one of the ``K_*``
codes (a roll's argument is the index of its dice in ``DICE_OUTCOMES``, with 9 outcomes).

A policy is 4 ints per seat, ``pol[4q:4q+4] = (kind, take_below, back_at, back_air)``: kind
:data:`UNIFORM` picks uniformly among the legal choices (what ``rng.choice(g.legal_choices())``
does); kind :data:`THRESHOLD` takes a treasure while carrying fewer than ``take_below`` items,
turns back (when he may choose) once carrying ``back_at`` items or more or with less than
``back_air`` air before breathing, never puts anything down, and sinks his chips in pickup
order.

The random numbers are xoshiro128+ (four 32-bit words in ``rng[0:4]``); a choice among ``k``
is ``(r * k) >> 32`` of a 32-bit draw ``r``, and the dice are one choice among the 9 outcomes
in the order of :data:`~dsa_widget.deep_sea.rules.DICE_OUTCOMES`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, MutableSequence, Sequence
from typing import Any, TypeVar

from ..core.jit import COMPILED as _COMPILED
from ..core.jit import jit as _core_jit
from ..core.jit import plain_copy

__all__ = [
    "COMPILED",
    "MAX_CHIP_ID",
    "S_BEGIN",
    "S_ROLL",
    "S_SEARCH",
    "S_SINK",
    "S_OVER",
    "UNIFORM",
    "THRESHOLD",
    "PLANNER",
    "SIMPLE",
    "offsets",
    "state_size",
    "pack_item",
    "item_chips",
    "run",
    "plain_kernel",
]

_F = TypeVar("_F", bound=Callable[..., Any])

#: a flat int buffer: a numpy int64 array (compiled) or a list (plain Python)
Buf = MutableSequence[int]
#: a flat float buffer (an observation: a numpy float32 array)
FBuf = MutableSequence[float]


#: True when the kernel runs compiled by numba in this process (numba loaded by core.jit)
COMPILED: bool = _COMPILED

#: the names of the kernel's functions (compiled together; copied for :func:`plain_kernel`)
_KERNEL: list[str] = []


def _jit(f: _F) -> _F:
    """:func:`dsa_widget.core.jit.jit` with numpy's error model (a division by zero gives inf,
    not an exception), noting ``f`` for :func:`plain_kernel`."""
    _KERNEL.append(f.__name__)
    return _core_jit(f, error_model="numpy")


# --------------------------------------------------------------------------- layout

#: scalar fields of the state
AIR, ROUND, PLAYER, NHOME, LASTHOME, NTURNS, STEP, LAST, PLEN, SQLEN, SQI = range(11)
NSCAL = 16
#: steps
S_BEGIN, S_ROLL, S_SEARCH, S_SINK, S_OVER = range(5)
#: policy kinds
UNIFORM, THRESHOLD, PLANNER, SIMPLE = 0, 1, 2, 3
#: cfg fields
(C_N, C_AIR, C_ROUNDS, C_REQUIRES, C_FARTHEST, C_LEVELS_DESC, C_SINK_CHOSEN, C_CHIPS, C_GAMES, C_TRACE) = (
    range(10)
)
#: cfg fields: the offsets of the state's arrays (see :func:`offsets`)
C_POS, C_UP, C_HOME, C_NCAR, C_SCORE, C_LVC, C_PATH, C_OCC, C_CARRY, C_SQ, C_SOLEN, C_SORD = range(10, 22)
#: cfg field: stop each playout when round ``cfg[C_STOP]`` has ended (0: play to the game's end)
C_STOP = 22
NCFG = 23

#: expected spaces moved a turn carrying k items (``heuristics.SPEED``; 0 from 6 items on)
SPEED = (4.0, 3.0, 2.0, 10 / 9, 4 / 9, 1 / 9)

#: trace codes: ``(kind * KSHIFT + argument) << NBITS | number of legal choices`` (a roll's
#: argument is the index of its outcome in DICE_OUTCOMES, with 9 "legal choices")
K_DICE, K_BACK, K_CONTINUE, K_NONE, K_TAKE, K_DROP, K_LAY, K_LAY_ALL = range(8)
KSHIFT = 4096
NBITS = 11

#: chips in a sunk stack (RULES.md, end of a round, step 2)
STACK = 3
#: a safety net: a game still going after this many turns is stopped, its turns set to -1 (the
#: rules end every game long before: this only catches a broken kernel)
MAX_TURNS = 10_000_000
#: bits per chip in an item
CBITS = 11
CMASK = (1 << CBITS) - 1
#: the largest chip id an item can hold
MAX_CHIP_ID = CMASK - 1
M32 = 0xFFFFFFFF
#: the digest's modulus (a prime below 2**31: every step stays inside 64 bits)
HMOD = 2147483647


def offsets(n: int, c: int) -> tuple[int, int, int, int, int, int, int, int, int, int, int, int, int]:
    """``(POS, UP, HOME, NCAR, SCORE, LVC, PATH, OCC, CARRY, SQ, SOLEN, SORD, SIZE)`` for ``n``
    players and ``c`` chips.

    >>> offsets(4, 32)[-1] == state_size(4, 32)
    True
    """
    pos = NSCAL
    up = pos + n
    home = up + n
    ncar = home + n
    score = ncar + n
    lvc = score + n
    path = lvc + 5 * n
    occ = path + c + 1
    carry = occ + c + 1
    sq = carry + n * c
    solen = sq + n
    sord = solen + n
    size = sord + n * c
    return (pos, up, home, ncar, score, lvc, path, occ, carry, sq, solen, sord, size)


def state_size(n: int, c: int) -> int:
    """The length of a state array for ``n`` players and ``c`` chips."""
    return offsets(n, c)[-1]


def pack_item(chips: Sequence[int]) -> int:
    """One item (1 to 3 chip ids, in stack order) as an int."""
    if not 1 <= len(chips) <= STACK or not all(0 <= x <= MAX_CHIP_ID for x in chips):
        raise ValueError(f"the kernel holds items of 1 to 3 chips with ids 0..{MAX_CHIP_ID}, got {chips!r}")
    code = 0
    for j, x in enumerate(chips):
        code |= (x + 1) << (CBITS * j)
    return code


def item_chips(code: int) -> tuple[int, ...]:
    """The chip ids of an item (the inverse of :func:`pack_item`)."""
    out = []
    while code:
        out.append((code & CMASK) - 1)
        code >>= CBITS
    return tuple(out)


# --------------------------------------------------------------------------- the kernel
# Every function below is compiled by numba (or runs as it is).  The call tree is kept shallow
# (run -> helpers -> leaves): numba re-optimizes a callee inside each caller, so depth costs
# compile time.


@_jit
def _rand(rng: Buf) -> int:
    """32 random bits (xoshiro128+)."""
    s0 = rng[0]
    s1 = rng[1]
    s2 = rng[2]
    s3 = rng[3]
    r = (s0 + s3) & M32
    t = (s1 << 9) & M32
    s2 ^= s0
    s3 ^= s1
    s1 ^= s2
    s0 ^= s3
    s2 ^= t
    s3 = ((s3 << 11) & M32) | (s3 >> 21)
    rng[0] = s0
    rng[1] = s1
    rng[2] = s2
    rng[3] = s3
    return r


@_jit
def _record(tr: Buf, seat: int, code: int) -> None:
    """Append ``(seat, code)`` to the trace ``tr`` (``tr[0]`` entries so far, ``tr[1]`` set on
    overflow)."""
    m = tr[0]
    i = 2 + 2 * m
    if i + 2 > len(tr):
        tr[1] = 1
        return
    tr[i] = seat
    tr[i + 1] = code
    tr[0] = m + 1


@_jit
def _snapshot(s: Buf, cfg: Buf, sn: Buf) -> None:
    """Append the state at a turn boundary to ``sn`` (``sn[0]`` ints so far, ``sn[1]`` set on
    overflow): turns, round, air (at least 0), the player (-1 at the end), the path's length,
    then for each seat position, heading up, returned, items carried, score, and last a digest
    of the path's items and of every diver's carried items, in order."""
    n = cfg[C_N]
    c = cfg[C_CHIPS]
    m = sn[0]
    i = 2 + m
    width = 6 + 5 * n
    if i + width > len(sn):
        sn[1] = 1
        return
    sn[i] = s[NTURNS]
    sn[i + 1] = s[ROUND]
    sn[i + 2] = s[AIR] if s[AIR] > 0 else 0
    sn[i + 3] = s[PLAYER]
    sn[i + 4] = s[PLEN]
    j = i + 5
    for q in range(n):
        sn[j] = s[cfg[C_POS] + q]
        sn[j + 1] = s[cfg[C_UP] + q]
        sn[j + 2] = s[cfg[C_HOME] + q]
        sn[j + 3] = s[cfg[C_NCAR] + q]
        sn[j + 4] = s[cfg[C_SCORE] + q]
        j += 5
    h = 0
    for x in range(1, s[PLEN] + 1):
        h = (h * 1000003 + s[cfg[C_PATH] + x]) % HMOD
    for q in range(n):
        h = (h * 1000003 + 7777777) % HMOD
        for x in range(s[cfg[C_NCAR] + q]):
            h = (h * 1000003 + s[cfg[C_CARRY] + q * c + x]) % HMOD
    sn[j] = h
    sn[0] = m + width


@_jit
def _free_deeper(s: Buf, occ: int, pos: int) -> bool:
    """True when some space deeper than ``pos`` is free (``rules.has_free_deeper``)."""
    i = s[PLEN]
    while i > pos and s[occ + i] >= 0:
        i -= 1
    return i > pos


@_jit
def _swim(s: Buf, occ: int, pos: int, up: int, steps: int) -> int:
    """Where a diver on ``pos`` ends after ``steps`` spaces (``rules.swim``): taken spaces are
    jumped, heading down he stops on the deepest free space, heading up 0 is the submarine."""
    if steps <= 0:
        return pos
    i = pos
    if up:
        while True:
            i -= 1
            if i == 0:
                return 0
            if s[occ + i] < 0:
                pos = i
                steps -= 1
                if steps == 0:
                    return pos
    end = s[PLEN]
    while i < end:
        i += 1
        if s[occ + i] < 0:
            pos = i
            steps -= 1
            if steps == 0:
                break
    return pos


@_jit
def _air_needed(s: Buf, cfg: Buf, p: int, k: int) -> float:
    """``heuristics.air_needed(s, p, k)``, the same floating-point operations in the same order:
    the air every diver in the water uses while diver ``p``, carrying ``k`` items, swims home
    (distance / expected speed turns, each costing every carried item); infinite when ``k``
    items make him stuck on average."""
    n = cfg[C_N]
    pos0, home0, ncar0 = cfg[C_POS], cfg[C_HOME], cfg[C_NCAR]
    pos = s[pos0 + p]
    if pos == 0:
        return 0.0
    d = pos
    load = 0
    for q in range(n):
        if q != p:
            x = s[pos0 + q]
            if 0 < x < pos:
                d -= 1
            if s[home0 + q] == 0 and x > 0:
                load += s[ncar0 + q]
    if k >= len(SPEED):
        return math.inf
    return d / SPEED[k] * (k + load)


@_jit
def _lightest(s: Buf, lv: Buf, carry: int, k: int) -> int:
    """The index of the carried item with the smallest sum of levels (the first of equals)."""
    best = 1 << 40
    bi = 0
    for j in range(k):
        x = s[carry + j]
        w = 0
        while x:
            w += lv[(x & CMASK) - 1]
            x >>= CBITS
        if w < best:
            best = w
            bi = j
    return bi


@_jit
def _nchips(s: Buf, carry: int, k: int) -> int:
    """How many chips the ``k`` items from ``s[carry]`` hold."""
    m = 0
    for j in range(k):
        x = s[carry + j]
        while x:
            m += 1
            x >>= CBITS
    return m


@_jit
def _new_round(s: Buf, cfg: Buf, first: int) -> None:
    """RULES.md, end of a round, step 5: air reset, everybody in the submarine, heading down."""
    n = cfg[C_N]
    s[AIR] = cfg[C_AIR]
    for q in range(n):
        s[cfg[C_POS] + q] = 0
        s[cfg[C_UP] + q] = 0
        s[cfg[C_HOME] + q] = 0
        s[cfg[C_NCAR] + q] = 0
        s[cfg[C_SOLEN] + q] = 0
    occ = cfg[C_OCC]
    for i in range(s[PLEN] + 1):
        s[occ + i] = -1
    s[NHOME] = 0
    s[LASTHOME] = -1
    s[LAST] = 0
    s[SQLEN] = 0
    s[SQI] = 0
    s[PLAYER] = first
    s[STEP] = S_BEGIN


@_jit
def _end_round(s: Buf, cfg: Buf, lv: Buf, val: Buf, w: Buf) -> int:
    """RULES.md, end of a round, steps 1-4: bank, sink, close the gaps; return the next
    round's first player, or -1 when the game is over (the divers then cleared, the player -1,
    the step over)."""
    n = cfg[C_N]
    c = cfg[C_CHIPS]
    pos0, home0, ncar0, score0, lvc0 = cfg[C_POS], cfg[C_HOME], cfg[C_NCAR], cfg[C_SCORE], cfg[C_LVC]
    path0, occ0, carry0, solen0, sord0 = cfg[C_PATH], cfg[C_OCC], cfg[C_CARRY], cfg[C_SOLEN], cfg[C_SORD]
    plen = s[PLEN]
    # 1. the divers in the submarine bank what they carry
    for q in range(n):
        if s[home0 + q]:
            for j in range(s[ncar0 + q]):
                x = s[carry0 + q * c + j]
                while x:
                    chip = (x & CMASK) - 1
                    s[score0 + q] += val[chip]
                    s[lvc0 + 5 * q + lv[chip]] += 1
                    x >>= CBITS
    # 2. the divers in the water (the ones on the path) drop their chips, in drop order, each
    #    in the order he chose (pickup order unless he chose): w[0:m] gets them, w[c:] is
    #    scratch for one diver's chips
    m = 0
    deepest = -1
    for t in range(1, plen + 1):
        i = plen + 1 - t if cfg[C_FARTHEST] else t
        q = s[occ0 + i]
        if q < 0:
            continue
        if deepest < 0 or s[pos0 + q] > s[pos0 + deepest]:
            deepest = q
        k = 0
        for j in range(s[ncar0 + q]):
            x = s[carry0 + q * c + j]
            while x:
                w[c + k] = (x & CMASK) - 1
                k += 1
                x >>= CBITS
        if k >= 2 and s[solen0 + q] == k:
            for j in range(k):
                w[m + j] = w[c + s[sord0 + q * c + j]]
        else:
            for j in range(k):
                w[m + j] = w[c + j]
        m += k
    # 3. blanks removed, gaps closed; the dropped chips past the end in stacks
    np_ = 0
    for i in range(1, plen + 1):
        x = s[path0 + i]
        if x:
            np_ += 1
            s[path0 + np_] = x
    for i in range(0, m, STACK):
        x = 0
        for j in range(STACK):
            if i + j < m:
                x |= (w[i + j] + 1) << (CBITS * j)
        np_ += 1
        s[path0 + np_] = x
    s[PLEN] = np_
    # 4. the next first player: the deepest diver in the water, else the last one back
    if deepest >= 0:
        first = deepest
    elif s[LASTHOME] >= 0:
        first = s[LASTHOME]
    else:
        first = s[PLAYER]
    if s[ROUND] < cfg[C_ROUNDS] and np_ > 0:
        s[ROUND] += 1
        return first
    for q in range(n):  # the end of the game
        s[pos0 + q] = 0
        s[cfg[C_UP] + q] = 0
        s[home0 + q] = 0
        s[ncar0 + q] = 0
    s[PLAYER] = -1
    s[STEP] = S_OVER
    return -1


@_jit
def _sink(s: Buf, cfg: Buf, pol: Buf, rng: Buf, w: Buf, tr: Buf) -> None:
    """The sink step: each diver of the queue chooses the order of his chips, one at a time
    (legal: ``lay all``, then ``lay i`` for each chip ``i`` not laid yet, in order)."""
    c = cfg[C_CHIPS]
    ncar0, carry0, sq0, solen0, sord0 = cfg[C_NCAR], cfg[C_CARRY], cfg[C_SQ], cfg[C_SOLEN], cfg[C_SORD]
    tracing = cfg[C_TRACE]
    mark = 2 * c
    while s[SQI] < s[SQLEN]:
        q = s[sq0 + s[SQI]]
        s[PLAYER] = q
        so = sord0 + q * c
        k = _nchips(s, carry0 + q * c, s[ncar0 + q])
        for i in range(k):
            w[mark + i] = 0
        m = s[solen0 + q]
        for j in range(m):
            w[mark + s[so + j]] = 1
        while m < k:
            r = k - m
            j = (_rand(rng) * (r + 1)) >> 32 if pol[4 * q] == UNIFORM else 0
            if j == 0:  # "lay all": the rest in pickup order
                if tracing:
                    _record(tr, q, (K_LAY_ALL * KSHIFT) << NBITS | (r + 1))
                for i in range(k):
                    if w[mark + i] == 0:
                        s[so + m] = i
                        m += 1
                break
            i = 0
            while True:  # the j-th chip not laid yet
                if w[mark + i] == 0:
                    j -= 1
                    if j == 0:
                        break
                i += 1
            if tracing:
                _record(tr, q, (K_LAY * KSHIFT + i) << NBITS | (r + 1))
            w[mark + i] = 1
            s[so + m] = i
            m += 1
            if k - m == 1:  # the last chip goes last
                for i in range(k):
                    if w[mark + i] == 0:
                        s[so + m] = i
                        m += 1
                        break
        s[solen0 + q] = m
        s[SQI] += 1


@_jit
def _close_round(s: Buf, cfg: Buf, lv: Buf, val: Buf, w: Buf, homes: Buf, g: int) -> int:
    """The round's last turn is over: end the round (:func:`_end_round`) and begin the next
    (:func:`_new_round`) unless the game ends or stops here (``cfg[C_STOP]``); return the next
    step.  ``homes[g]`` gets the divers back (a bit mask) at the first round's end, and
    ``1 << 16`` when the game ends."""
    if homes[g] < 0:
        m = 0
        for q in range(cfg[C_N]):
            if s[cfg[C_HOME] + q]:
                m |= 1 << q
        homes[g] = m
    r = s[ROUND]
    s[NTURNS] += 1
    first = _end_round(s, cfg, lv, val, w)
    if first < 0:
        homes[g] |= 1 << 16
        return S_OVER
    if cfg[C_STOP] and r >= cfg[C_STOP]:
        return S_OVER
    _new_round(s, cfg, first)
    return S_BEGIN


@_jit
def _winners(s: Buf, cfg: Buf) -> int:
    """The winning seats as a bit mask (RULES.md, end of the game, with the tie-break)."""
    n = cfg[C_N]
    score0, lvc0 = cfg[C_SCORE], cfg[C_LVC]
    best = s[score0]
    for q in range(1, n):
        if s[score0 + q] > best:
            best = s[score0 + q]
    mask = 0
    top = -1
    for q in range(n):
        if s[score0 + q] == best:
            b = lvc0 + 5 * q
            key = s[b + 4]
            if cfg[C_LEVELS_DESC]:
                key = (((key << 10) | s[b + 3]) << 10 | s[b + 2]) << 10 | s[b + 1]
            if key > top:
                top = key
                mask = 0
            if key == top:
                mask |= 1 << q
    return mask


@_jit
def run(
    s0: Buf,
    cfg: Buf,
    lv: Buf,
    val: Buf,
    pol: Buf,
    shuf: Buf,
    rng: Buf,
    s: Buf,
    w: Buf,
    tr: Buf,
    sn: Buf,
    scores: Buf,
    winners: Buf,
    turns: Buf,
    homes: Buf,
) -> None:
    """Play ``cfg[C_GAMES]`` games to their end, each from the state ``s0`` (``s`` is the working
    copy, ``w`` scratch of ``3 * chips`` ints): game ``g``'s scores go to ``scores[g * n:(g +
    1) * n]``, its winners (a bit mask) to ``winners[g]``, its turn count to ``turns[g]``.
    ``rng`` advances.  With ``cfg[C_TRACE]`` set, every roll and choice is recorded to ``tr``
    (see :func:`_record`) and the state at every turn boundary to ``sn`` (:func:`_snapshot`).

    ``shuf`` (``shuf[0]`` ids, then the ids) lists chips whose values are dealt anew before each
    game: the values of the listed chips of one level are shuffled among them (the ids must come
    grouped by level).  With ``cfg[C_STOP]`` = r > 0 a game stops when round r ends (its scores
    then are those banked so far).  ``homes[g]`` gets the divers back in the submarine when the
    first round to end in game ``g`` ended (a bit mask), plus ``1 << 16`` when the game ended
    (rather than stopped)."""
    n = cfg[C_N]
    c = cfg[C_CHIPS]
    requires = cfg[C_REQUIRES]
    tracing = cfg[C_TRACE]
    pos0, up0, home0, ncar0, score0 = cfg[C_POS], cfg[C_UP], cfg[C_HOME], cfg[C_NCAR], cfg[C_SCORE]
    path0, occ0, carry0, sq0 = cfg[C_PATH], cfg[C_OCC], cfg[C_CARRY], cfg[C_SQ]
    size = len(s0)
    nshuf = shuf[0]
    for g in range(cfg[C_GAMES]):
        for i in range(size):  # (a loop: numba compiles s[:] = s0 much more slowly)
            s[i] = s0[i]
        i = 1
        while i <= nshuf:  # deal the unseen values anew, level by level (Fisher-Yates)
            j = i
            while j < nshuf and lv[shuf[j + 1]] == lv[shuf[i]]:
                j += 1
            for t in range(j, i, -1):
                u = i + ((_rand(rng) * (t - i + 1)) >> 32)
                a = shuf[t]
                b = shuf[u]
                x = val[a]
                val[a] = val[b]
                val[b] = x
            i = j + 1
        homes[g] = -1
        step = s[STEP]
        while step != S_OVER:
            if s[NTURNS] >= MAX_TURNS:
                s[NTURNS] = -1
                break
            p = s[PLAYER]
            pk = 4 * p
            uniform = pol[pk] == UNIFORM
            end_turn = False
            if step == S_BEGIN:  # 1. breathe, 2. turn back?
                pos = s[pos0 + p]
                k = s[ncar0 + p]
                back = False
                if s[up0 + p] == 0 and pos != 0:
                    if not _free_deeper(s, occ0, pos):
                        back = True  # forced: no free space deeper
                    elif k > 0 or requires == 0:
                        if uniform:  # legal: back, continue
                            back = (_rand(rng) * 2) >> 32 == 0
                        elif pol[pk] == PLANNER:  # back as soon as carrying something
                            back = k > 0
                        elif pol[pk] == SIMPLE:  # analysis.estimate.simple_bot
                            back = k >= 2 or s[AIR] <= 2 * pos
                        else:
                            back = k >= pol[pk + 2] or s[AIR] < pol[pk + 3]
                        if tracing:
                            _record(tr, p, ((K_BACK if back else K_CONTINUE) * KSHIFT) << NBITS | 2)
                if k:
                    s[AIR] -= k
                    if s[AIR] <= 0:
                        s[LAST] = 1
                if back:
                    s[up0 + p] = 1
                step = S_ROLL
            if step == S_ROLL:  # 3. roll and swim
                j = (_rand(rng) * 9) >> 32
                if tracing:
                    _record(tr, p, (K_DICE * KSHIFT + j) << NBITS | 9)
                k = s[ncar0 + p]
                start = s[pos0 + p]
                up = s[up0 + p]
                pos = _swim(s, occ0, start, up, j // 3 + j % 3 + 2 - k)
                if start:
                    s[occ0 + start] = -1
                end_turn = True
                if up and pos == 0:  # safe in the submarine
                    s[pos0 + p] = 0
                    s[home0 + p] = 1
                    s[NHOME] += 1
                    s[LASTHOME] = p
                else:
                    s[pos0 + p] = pos
                    if pos:
                        s[occ0 + pos] = p
                        if s[path0 + pos] != 0 or k:
                            step = S_SEARCH
                            end_turn = False
            if step == S_SEARCH:  # 4. search
                pos = s[pos0 + p]
                k = s[ncar0 + p]
                item = s[path0 + pos]
                cq = carry0 + p * c
                if item != 0:  # legal: none, take
                    if uniform:
                        take = (_rand(rng) * 2) >> 32 == 1
                    elif pol[pk] == SIMPLE:
                        take = k == 0 or (s[up0 + p] == 0 and k < 2)
                    elif pol[pk] == PLANNER:  # heuristics.PlannerPolicy.move
                        need = _air_needed(s, cfg, p, k + 1)
                        if s[up0 + p] == 0:
                            take = k == 0 and (s[AIR] - need < pol[pk + 2] or 2 * pos > s[PLEN])
                        else:
                            take = k < pol[pk + 1] and s[AIR] - need > pol[pk + 3]
                    else:
                        take = k < pol[pk + 1]
                    if tracing:
                        _record(tr, p, ((K_TAKE if take else K_NONE) * KSHIFT) << NBITS | 2)
                    if take:
                        s[path0 + pos] = 0
                        s[cq + k] = item
                        s[ncar0 + p] = k + 1
                else:  # legal: none, drop 0 .. drop k-1
                    if uniform:
                        j = (_rand(rng) * (k + 1)) >> 32
                    elif pol[pk] == PLANNER and k and s[AIR] < _air_needed(s, cfg, p, k):
                        j = 1 + _lightest(s, lv, cq, k)  # too heavy to get back: the lightest
                    else:
                        j = 0
                    if tracing:
                        code = K_NONE * KSHIFT if j == 0 else K_DROP * KSHIFT + j - 1
                        _record(tr, p, code << NBITS | (k + 1))
                    if j:
                        s[path0 + pos] = s[cq + j - 1]
                        for i in range(j - 1, k - 1):
                            s[cq + i] = s[cq + i + 1]
                        s[ncar0 + p] = k - 1
                end_turn = True
            if end_turn:
                if s[LAST] or s[NHOME] == n:  # the round ends
                    step = S_OVER
                    if cfg[C_SINK_CHOSEN]:  # the sink queue: the drowning with 2+ chips
                        m = 0
                        plen = s[PLEN]
                        for t in range(1, plen + 1):
                            i = plen + 1 - t if cfg[C_FARTHEST] else t
                            q = s[occ0 + i]
                            if q >= 0 and _nchips(s, carry0 + q * c, s[ncar0 + q]) >= 2:
                                s[sq0 + m] = q
                                m += 1
                        if m:
                            s[SQLEN] = m
                            s[SQI] = 0
                            s[PLAYER] = s[sq0]
                            step = S_SINK
                    if step == S_OVER:
                        step = _close_round(s, cfg, lv, val, w, homes, g)
                        if tracing:
                            _snapshot(s, cfg, sn)
                else:  # the next diver not back
                    s[NTURNS] += 1
                    q = p + 1
                    while True:
                        if q == n:
                            q = 0
                        if s[home0 + q] == 0:
                            break
                        q += 1
                    s[PLAYER] = q
                    step = S_BEGIN
                    if tracing:
                        _snapshot(s, cfg, sn)
            if step == S_SINK:
                _sink(s, cfg, pol, rng, w, tr)
                step = _close_round(s, cfg, lv, val, w, homes, g)
                if tracing:
                    _snapshot(s, cfg, sn)
        s[STEP] = S_OVER
        if homes[g] < 0:  # no round ended: the game was over from the start
            homes[g] = 1 << 16
        for q in range(n):
            scores[g * n + q] = s[score0 + q]
        winners[g] = _winners(s, cfg)
        turns[g] = s[NTURNS]


def plain_kernel(**overrides: Any) -> Callable[..., None]:
    """The kernel's :func:`run` as plain Python, whatever :data:`COMPILED` says.

    ``overrides`` replace the kernel's globals in this copy only (a rule constant such as
    ``STACK``, or one of its functions): the tests use this to check that a wrong kernel is
    caught.

    >>> plain_kernel(STACK=2) is not plain_kernel()
    True
    """
    return plain_copy(globals(), _KERNEL, **overrides)["run"]  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- one decision at a time
# The PettingZoo environment (``dsa_widget.adapters.pettingzoo``) runs a game on this kernel's
# state one decision at a time: :func:`env_step` applies a seat's action (a number of
# :class:`~dsa_widget.deep_sea.encoding.Encoding`), rolls the game's own dice until the next
# decision (:func:`env_advance`), and :func:`env_observe` writes a seat's observation, exactly
# ``Encoding.observe(game.view(seat))``.  ``run`` above is not used (and not changed) by them.
#
# An environment's state is a playout state followed by the fields a view needs and a playout
# does not keep (:func:`env_offsets`):
#
#     s[ENV + E_DHI], s[ENV + E_DLO]   the Game's dice: its 64-bit LCG, in two 32-bit halves
#     s[ENV + E_WINNERS]              the winners (a bit mask) once the game is over
#     s[NBANK + q]                    chips diver q has banked
#     s[BANK + qc + j]                his j-th banked chip, in the order the Game banks them
#     s[LV + i], s[VAL + i]           chip i's level and value
#     s[W .. W + 3c]                  scratch for the end of a round
#     s[KN .. KN + c]                 scratch for an observation (the chips the observer knows)
#
# and ``cfg`` is a playout's cfg followed by :data:`C_ENV` .. :data:`C_OWNER`.  A log ``log``
# records what was applied: ``log[0]`` entries, then action numbers (>= 0) and rolls
# (``-1 - j``, ``j`` the index of the dice in ``DICE_OUTCOMES``), for replaying into a Game.

#: cfg fields of an environment (after a playout's): its offsets, and 1 under reveal="owner"
C_ENV, C_NBANK, C_BANK, C_LV, C_VAL, C_W, C_KN, C_OWNER = range(NCFG, NCFG + 8)
NCFG_ENV = NCFG + 8
#: the environment's scalars, from ``s[cfg[C_ENV]]``
E_DHI, E_DLO, E_WINNERS = range(3)
NENV = 4
#: :func:`env_step` / :func:`env_advance` results besides a seat (the next to decide): the game
#: is over; the action is illegal (nothing done); the log is full (nothing done: grow it and
#: call again); the action was applied but the log filled up before the next decision (grow
#: it and call :func:`env_advance`)
R_OVER, R_ILLEGAL, R_FULL, R_PENDING = -1, -2, -3, -4
#: the Game's dice generator: x -> x * LCG_A + LCG_C mod 2**64, the dice DICE_OUTCOMES[(x >> 32) % 9]
LCG_A = 6364136223846793005
LCG_C = 1442695040888963407
A_HI, A_LO = LCG_A >> 32, LCG_A & M32
LC_HI, LC_LO = LCG_C >> 32, LCG_C & M32
#: the observation's layout (checked against the Encoding's by the environment): the global
#: fields' offsets, the divers' and the spaces' blocks and their widths
O_SEAT, O_PLAYERS, O_ROUND, O_STEP, O_TO_MOVE, O_MY_TURN, O_MUST = 0, 6, 12, 17, 22, 28, 29
O_UNSEEN, O_LAYING, O_DIVERS, DIVER_W, SPACE_W, MAX_SEATS = 33, 41, 42, 20, 15, 6
O_SPACES = O_DIVERS + MAX_SEATS * DIVER_W


def env_offsets(n: int, c: int) -> tuple[int, int, int, int, int, int, int, int]:
    """``(ENV, NBANK, BANK, LV, VAL, W, KN, SIZE)`` of an environment's state for ``n`` players
    and ``c`` chips (the playout state comes first).

    >>> env_offsets(2, 3)[0] == state_size(2, 3)
    True
    """
    env = state_size(n, c)
    nbank = env + NENV
    bank = nbank + n
    lv = bank + n * c
    val = lv + c
    w = val + c
    kn = w + 3 * c
    return (env, nbank, bank, lv, val, w, kn, kn + c)


@_jit
def _mul32(a: int, b: int) -> int:
    """``a * b mod 2**32`` for 32-bit ``a`` and ``b``, with no product above 48 bits."""
    return ((a & 0xFFFF) * b + ((((a >> 16) * b) & 0xFFFF) << 16)) & M32


@_jit
def _dice(s: Buf, e: int) -> int:
    """Advance the Game's LCG (in ``s[e + E_DHI]``, ``s[e + E_DLO]``) and return the index of its
    dice in DICE_OUTCOMES: ``(x >> 32) % 9`` of the new ``x``.  In 32-bit halves, every
    intermediate below 2**50, so numba's int64 and Python's ints agree."""
    hi = s[e + E_DHI]
    lo = s[e + E_DLO]
    p0 = (lo & 0xFFFF) * A_LO
    p1 = (lo >> 16) * A_LO
    low = p0 + ((p1 & 0xFFFF) << 16)  # lo * A_LO = low + (p1 >> 16) << 32
    h = (low >> 32) + (p1 >> 16) + _mul32(hi, A_LO) + _mul32(lo, A_HI)
    low = (low & M32) + LC_LO
    h = (h + LC_HI + (low >> 32)) & M32
    s[e + E_DHI] = h
    s[e + E_DLO] = low & M32
    return h % 9


@_jit
def _env_close_round(s: Buf, cfg: Buf) -> None:
    """The round is over (and its sink step done): bank (recording the banked chips in order),
    sink, and start the next round or end the game."""
    n = cfg[C_N]
    c = cfg[C_CHIPS]
    home0, ncar0, carry0 = cfg[C_HOME], cfg[C_NCAR], cfg[C_CARRY]
    nbank0, bank0 = cfg[C_NBANK], cfg[C_BANK]
    for q in range(n):
        if s[home0 + q]:
            m = s[nbank0 + q]
            for j in range(s[ncar0 + q]):
                x = s[carry0 + q * c + j]
                while x:
                    s[bank0 + q * c + m] = (x & CMASK) - 1
                    m += 1
                    x >>= CBITS
            s[nbank0 + q] = m
    s[NTURNS] += 1
    lv0, val0, w0 = cfg[C_LV], cfg[C_VAL], cfg[C_W]
    first = _end_round(s, cfg, s[lv0 : lv0 + c], s[val0 : val0 + c], s[w0 : w0 + 3 * c])
    if first >= 0:
        _new_round(s, cfg, first)
    else:
        s[cfg[C_ENV] + E_WINNERS] = _winners(s, cfg)


@_jit
def _env_end_turn(s: Buf, cfg: Buf) -> None:
    """The current turn is over: the next diver's turn, the sink step, or the round's end."""
    n = cfg[C_N]
    c = cfg[C_CHIPS]
    if s[LAST] or s[NHOME] == n:
        if cfg[C_SINK_CHOSEN]:  # the sink queue: the drowning with 2+ chips, in drop order
            occ0, ncar0, carry0, sq0 = cfg[C_OCC], cfg[C_NCAR], cfg[C_CARRY], cfg[C_SQ]
            m = 0
            plen = s[PLEN]
            for t in range(1, plen + 1):
                i = plen + 1 - t if cfg[C_FARTHEST] else t
                q = s[occ0 + i]
                if q >= 0 and _nchips(s, carry0 + q * c, s[ncar0 + q]) >= 2:
                    s[sq0 + m] = q
                    m += 1
            if m:
                s[SQLEN] = m
                s[SQI] = 0
                s[PLAYER] = s[sq0]
                s[STEP] = S_SINK
                return
        _env_close_round(s, cfg)
        return
    s[NTURNS] += 1
    home0 = cfg[C_HOME]
    q = s[PLAYER] + 1
    while True:
        if q == n:
            q = 0
        if s[home0 + q] == 0:
            break
        q += 1
    s[PLAYER] = q
    s[STEP] = S_BEGIN


@_jit
def env_advance(s: Buf, cfg: Buf, log: Buf) -> int:
    """Roll the dice (the Game's generator) until a seat decides: return that seat, or
    :data:`R_OVER` at the end, or :data:`R_FULL` when ``log`` has no room for the next roll (the
    state is then between two steps: grow the log and call again)."""
    pos0, up0, home0, ncar0 = cfg[C_POS], cfg[C_UP], cfg[C_HOME], cfg[C_NCAR]
    path0, occ0 = cfg[C_PATH], cfg[C_OCC]
    e = cfg[C_ENV]
    while True:
        step = s[STEP]
        if step == S_OVER:
            return R_OVER
        p = s[PLAYER]
        if step in (S_SEARCH, S_SINK):
            return p
        if step == S_BEGIN:  # 1. breathe, 2. turn back? (a decision unless forced or impossible)
            pos = s[pos0 + p]
            k = s[ncar0 + p]
            forced = False
            if s[up0 + p] == 0 and pos != 0:
                if not _free_deeper(s, occ0, pos):
                    forced = True
                elif k > 0 or cfg[C_REQUIRES] == 0:
                    return p
            if k:
                s[AIR] -= k
                if s[AIR] <= 0:
                    s[LAST] = 1
            if forced:
                s[up0 + p] = 1
            s[STEP] = S_ROLL
        # 3. roll and swim
        m = log[0]
        if m + 2 > len(log):
            return R_FULL
        j = _dice(s, e)
        log[m + 1] = -1 - j
        log[0] = m + 1
        k = s[ncar0 + p]
        start = s[pos0 + p]
        up = s[up0 + p]
        pos = _swim(s, occ0, start, up, j // 3 + j % 3 + 2 - k)
        if start:
            s[occ0 + start] = -1
        if up and pos == 0:  # safe in the submarine
            s[pos0 + p] = 0
            s[home0 + p] = 1
            s[NHOME] += 1
            s[LASTHOME] = p
        else:
            s[pos0 + p] = pos
            if pos:
                s[occ0 + pos] = p
                if s[path0 + pos] != 0 or k:
                    s[STEP] = S_SEARCH
                    return p
        _env_end_turn(s, cfg)


@_jit
def env_step(s: Buf, cfg: Buf, log: Buf, action: int) -> int:
    """Apply action number ``action`` of the seat to decide, then :func:`env_advance`: the
    next seat to decide, :data:`R_OVER`, or :data:`R_PENDING`.  An illegal action returns
    :data:`R_ILLEGAL` and changes nothing; so does a full ``log`` (:data:`R_FULL`)."""
    m = log[0]
    if m + 2 > len(log):
        return R_FULL
    c = cfg[C_CHIPS]
    step = s[STEP]
    p = s[PLAYER]
    pos0, up0, ncar0, path0, carry0 = cfg[C_POS], cfg[C_UP], cfg[C_NCAR], cfg[C_PATH], cfg[C_CARRY]
    if step == S_BEGIN:  # the turn-back decision: 0 back, 1 continue
        if action != 0 and action != 1:
            return R_ILLEGAL
        k = s[ncar0 + p]
        if k:
            s[AIR] -= k
            if s[AIR] <= 0:
                s[LAST] = 1
        if action == 0:
            s[up0 + p] = 1
        s[STEP] = S_ROLL
    elif step == S_SEARCH:  # 2 none, 3 take, 4 + i drop i
        pos = s[pos0 + p]
        k = s[ncar0 + p]
        item = s[path0 + pos]
        cq = carry0 + p * c
        if action == 3 and item != 0:
            s[path0 + pos] = 0
            s[cq + k] = item
            s[ncar0 + p] = k + 1
        elif action >= 4 and action < 4 + k and item == 0:
            i = action - 4
            s[path0 + pos] = s[cq + i]
            for t in range(i, k - 1):
                s[cq + t] = s[cq + t + 1]
            s[ncar0 + p] = k - 1
        elif action != 2:
            return R_ILLEGAL
        _env_end_turn(s, cfg)
    elif step == S_SINK:  # 4 + c + i lay chip i, 4 + 2c lay the rest in pickup order
        solen0 = cfg[C_SOLEN]
        so = cfg[C_SORD] + p * c
        k = _nchips(s, carry0 + p * c, s[ncar0 + p])
        laid = s[solen0 + p]
        i = action - 4 - c
        if action == 4 + 2 * c:
            i = -1
        elif i < 0 or i >= k:
            return R_ILLEGAL
        else:
            for t in range(laid):
                if s[so + t] == i:
                    return R_ILLEGAL
            s[so + laid] = i
            laid += 1
        if i < 0 or k - laid == 1:  # the rest (the last chip) in pickup order
            for x in range(k):
                free = True
                for t in range(laid):
                    if s[so + t] == x:
                        free = False
                        break
                if free:
                    s[so + laid] = x
                    laid += 1
        s[solen0 + p] = laid
        if laid == k:
            s[SQI] += 1
            if s[SQI] < s[SQLEN]:
                s[PLAYER] = s[cfg[C_SQ] + s[SQI]]
            else:
                _env_close_round(s, cfg)
    else:
        return R_ILLEGAL
    log[m + 1] = action
    log[0] = m + 1
    r = env_advance(s, cfg, log)
    return R_PENDING if r == R_FULL else r


@_jit
def env_legal(s: Buf, cfg: Buf, mask: Buf) -> None:
    """``mask[a] = 1`` for each legal action number of the seat to decide, 0 elsewhere (all 0 at
    the end)."""
    c = cfg[C_CHIPS]
    for a in range(len(mask)):
        mask[a] = 0
    step = s[STEP]
    p = s[PLAYER]
    if step == S_BEGIN:
        mask[0] = 1
        mask[1] = 1
    elif step == S_SEARCH:
        mask[2] = 1
        if s[cfg[C_PATH] + s[cfg[C_POS] + p]] != 0:
            mask[3] = 1
        else:
            for i in range(s[cfg[C_NCAR] + p]):
                mask[4 + i] = 1
    elif step == S_SINK:
        so = cfg[C_SORD] + p * c
        laid = s[cfg[C_SOLEN] + p]
        mask[4 + 2 * c] = 1
        for i in range(_nchips(s, cfg[C_CARRY] + p * c, s[cfg[C_NCAR] + p])):
            free = True
            for t in range(laid):
                if s[so + t] == i:
                    free = False
                    break
            if free:
                mask[4 + c + i] = 1


@_jit
def _unseen_mean(s: Buf, cfg: Buf, level: int) -> float:
    """The mean of the values of ``level`` the observer has not seen (``s[KN + i]`` 1 for the
    chips he has), 0.0 when none; the count is ``_unseen_count``."""
    c = cfg[C_CHIPS]
    lv0, val0, kn0 = cfg[C_LV], cfg[C_VAL], cfg[C_KN]
    total = 0
    count = 0
    for i in range(c):
        if s[lv0 + i] == level and s[kn0 + i] == 0:
            total += s[val0 + i]
            count += 1
    if count == 0:
        return 0.0
    return total / count


@_jit
def env_observe(s: Buf, cfg: Buf, me: int, out: FBuf, mask: Buf, live: int) -> None:
    """``Encoding.observe(game.view(me))`` into the float32 array ``out`` and, when ``live``,
    the legal actions of ``me`` into ``mask`` if he is to decide (all 0 otherwise)."""
    n = cfg[C_N]
    c = cfg[C_CHIPS]
    pos0, up0, home0, ncar0, score0 = cfg[C_POS], cfg[C_UP], cfg[C_HOME], cfg[C_NCAR], cfg[C_SCORE]
    path0, carry0, sq0, solen0 = cfg[C_PATH], cfg[C_CARRY], cfg[C_SQ], cfg[C_SOLEN]
    nbank0, bank0, lv0, val0, kn0 = cfg[C_NBANK], cfg[C_BANK], cfg[C_LV], cfg[C_VAL], cfg[C_KN]
    step = s[STEP]
    over = step == S_OVER
    p = s[PLAYER]
    if live and not over and p == me:
        env_legal(s, cfg, mask)
    else:
        for a in range(len(mask)):
            mask[a] = 0
    for i in range(len(out)):
        out[i] = 0.0
    # what the observer knows: the banked values (everybody's when public or at the end)
    public = cfg[C_OWNER] == 0 or over
    for i in range(c):
        s[kn0 + i] = 0
    for q in range(n):
        if public or q == me:
            for j in range(s[nbank0 + q]):
                s[kn0 + s[bank0 + q * c + j]] = 1
    m1 = _unseen_mean(s, cfg, 1)
    m2 = _unseen_mean(s, cfg, 2)
    m3 = _unseen_mean(s, cfg, 3)
    m4 = _unseen_mean(s, cfg, 4)
    for i in range(c):
        if s[kn0 + i] == 0:
            out[O_UNSEEN + s[lv0 + i] - 1] += 1.0
    out[O_UNSEEN + 4] = m1
    out[O_UNSEEN + 5] = m2
    out[O_UNSEEN + 6] = m3
    out[O_UNSEEN + 7] = m4
    # the global fields
    out[O_SEAT + me] = 1.0
    for k in range(n):
        out[O_PLAYERS + k] = 1.0
    air = s[AIR] if s[AIR] > 0 else 0
    out[O_ROUND] = s[ROUND]
    out[O_ROUND + 1] = cfg[C_ROUNDS]
    out[O_ROUND + 2] = air
    out[O_ROUND + 3] = air / cfg[C_AIR]
    out[O_ROUND + 4] = cfg[C_AIR]
    if step == S_BEGIN:
        out[O_STEP] = 1.0  # turn_back (a turn is observed at its start only when it is a decision)
    elif step == S_ROLL:
        out[O_STEP + 1] = 1.0
    elif step == S_SEARCH:
        out[O_STEP + 2] = 1.0
    elif step == S_SINK:
        out[O_STEP + 3] = 1.0
    else:
        out[O_STEP + 4] = 1.0
    if not over:
        out[O_TO_MOVE + (p - me + n) % n] = 1.0
        out[O_MY_TURN] = 1.0 if p == me else 0.0
    # must_turn_back (O_MUST) is 0: a forced turn back is rolled at once, never observed
    out[O_MUST + 1] = 0.0 if step == S_BEGIN else 1.0  # breathed
    out[O_MUST + 2] = s[NTURNS]
    out[O_MUST + 3] = s[PLEN]
    if step == S_SINK:
        out[O_LAYING] = s[solen0 + s[sq0 + s[SQI]]]
    # the divers, by slot relative to the observer
    for k in range(n):
        q = (me + k) % n
        b = O_DIVERS + k * DIVER_W
        out[b] = 1.0
        pos = s[pos0 + q]
        out[b + 1] = pos
        out[b + 2] = pos / c
        out[b + 3] = s[up0 + q]
        out[b + 4] = s[home0 + q]
        out[b + 5] = s[ncar0 + q]
        kn = 0.0
        ex = 0.0
        for j in range(s[ncar0 + q]):
            x = s[carry0 + q * c + j]
            while x:
                chip = (x & CMASK) - 1
                lv = s[lv0 + chip]
                out[b + 6] += 1.0
                out[b + 6 + lv] += 1.0
                if s[kn0 + chip]:
                    kn += s[val0 + chip]
                    ex += s[val0 + chip]
                else:
                    ex += m1 if lv == 1 else m2 if lv == 2 else m3 if lv == 3 else m4
                x >>= CBITS
        out[b + 11] = kn
        out[b + 12] = ex
        out[b + 13] = s[nbank0 + q]
        kn = 0.0
        ex = 0.0
        for j in range(s[nbank0 + q]):
            chip = s[bank0 + q * c + j]
            if s[kn0 + chip]:
                kn += s[val0 + chip]
                ex += s[val0 + chip]
            else:
                lv = s[lv0 + chip]
                ex += m1 if lv == 1 else m2 if lv == 2 else m3 if lv == 3 else m4
        out[b + 14] = kn
        out[b + 15] = ex
        if public or q == me:
            out[b + 16] = 1.0
            out[b + 17] = s[score0 + q]
        if over and (s[cfg[C_ENV] + E_WINNERS] >> q) & 1:
            out[b + 18] = 1.0
        if step == S_SINK:
            for t in range(s[SQI], s[SQLEN]):
                if s[sq0 + t] == q:
                    out[b + 19] = 1.0
    # the spaces, and the divers on them
    for i in range(1, s[PLEN] + 1):
        b = O_SPACES + (i - 1) * SPACE_W
        out[b] = 1.0
        x = s[path0 + i]
        if x == 0:
            out[b + 1] = 1.0
            continue
        kn = 0.0
        ex = 0.0
        while x:
            chip = (x & CMASK) - 1
            lv = s[lv0 + chip]
            out[b + 2] += 1.0
            out[b + 2 + lv] += 1.0
            if s[kn0 + chip]:
                kn += s[val0 + chip]
                ex += s[val0 + chip]
            else:
                ex += m1 if lv == 1 else m2 if lv == 2 else m3 if lv == 3 else m4
            x >>= CBITS
        out[b + 7] = kn
        out[b + 8] = ex
    for q in range(n):
        pos = s[pos0 + q]
        if pos > 0 and s[home0 + q] == 0:
            out[O_SPACES + (pos - 1) * SPACE_W + 9 + (q - me + n) % n] = 1.0
