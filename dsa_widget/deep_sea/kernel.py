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

import importlib
import os
import types
from collections.abc import Callable, MutableSequence, Sequence
from typing import Any, TypeVar

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


def _no_numba() -> bool:
    return os.environ.get("DSA_WIDGET_NO_NUMBA", "") not in ("", "0")


_numba: Any = None
if not _no_numba():
    try:
        _numba = importlib.import_module("numba")
    except ImportError:  # the fast extra is not installed: plain Python
        _numba = None

#: True when the kernel runs compiled by numba in this process
COMPILED: bool = _numba is not None

#: the names of the kernel's functions (compiled together; copied for :func:`plain_kernel`)
_KERNEL: list[str] = []


def _jit(f: _F) -> _F:
    """``numba.njit(cache=True, nogil=True, error_model="numpy")`` when numba is in use, else ``f`` itself."""
    _KERNEL.append(f.__name__)
    if _numba is None:
        return f
    return _numba.njit(cache=True, nogil=True, error_model="numpy")(f)  # type: ignore[no-any-return]


# --------------------------------------------------------------------------- layout

#: scalar fields of the state
AIR, ROUND, PLAYER, NHOME, LASTHOME, NTURNS, STEP, LAST, PLEN, SQLEN, SQI = range(11)
NSCAL = 16
#: steps
S_BEGIN, S_ROLL, S_SEARCH, S_SINK, S_OVER = range(5)
#: policy kinds
UNIFORM, THRESHOLD = 0, 1
#: cfg fields
(C_N, C_AIR, C_ROUNDS, C_REQUIRES, C_FARTHEST, C_LEVELS_DESC, C_SINK_CHOSEN, C_CHIPS, C_GAMES, C_TRACE) = (
    range(10)
)
#: cfg fields: the offsets of the state's arrays (see :func:`offsets`)
C_POS, C_UP, C_HOME, C_NCAR, C_SCORE, C_LVC, C_PATH, C_OCC, C_CARRY, C_SQ, C_SOLEN, C_SORD = range(10, 22)
NCFG = 22

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
    rng: Buf,
    s: Buf,
    w: Buf,
    tr: Buf,
    sn: Buf,
    scores: Buf,
    winners: Buf,
    turns: Buf,
) -> None:
    """Play ``cfg[C_GAMES]`` games to their end, each from the state ``s0`` (``s`` is the working
    copy, ``w`` scratch of ``3 * chips`` ints): game ``g``'s scores go to ``scores[g * n:(g +
    1) * n]``, its winners (a bit mask) to ``winners[g]``, its turn count to ``turns[g]``.
    ``rng`` advances.  With ``cfg[C_TRACE]`` set, every roll and choice is recorded to ``tr``
    (see :func:`_record`) and the state at every turn boundary to ``sn`` (:func:`_snapshot`)."""
    n = cfg[C_N]
    c = cfg[C_CHIPS]
    requires = cfg[C_REQUIRES]
    tracing = cfg[C_TRACE]
    pos0, up0, home0, ncar0, score0 = cfg[C_POS], cfg[C_UP], cfg[C_HOME], cfg[C_NCAR], cfg[C_SCORE]
    path0, occ0, carry0, sq0 = cfg[C_PATH], cfg[C_OCC], cfg[C_CARRY], cfg[C_SQ]
    size = len(s0)
    for g in range(cfg[C_GAMES]):
        for i in range(size):  # (a loop: numba compiles s[:] = s0 much more slowly)
            s[i] = s0[i]
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
                    take = (_rand(rng) * 2) >> 32 == 1 if uniform else k < pol[pk + 1]
                    if tracing:
                        _record(tr, p, ((K_TAKE if take else K_NONE) * KSHIFT) << NBITS | 2)
                    if take:
                        s[path0 + pos] = 0
                        s[cq + k] = item
                        s[ncar0 + p] = k + 1
                else:  # legal: none, drop 0 .. drop k-1
                    j = (_rand(rng) * (k + 1)) >> 32 if uniform else 0
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
                        s[NTURNS] += 1
                        first = _end_round(s, cfg, lv, val, w)
                        if first >= 0:
                            _new_round(s, cfg, first)
                            step = S_BEGIN
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
                s[NTURNS] += 1
                first = _end_round(s, cfg, lv, val, w)
                step = S_OVER
                if first >= 0:
                    _new_round(s, cfg, first)
                    step = S_BEGIN
                if tracing:
                    _snapshot(s, cfg, sn)
        s[STEP] = S_OVER
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
    ns: dict[str, Any] = dict(globals())
    for name in _KERNEL:
        f = ns[name]
        code = getattr(f, "py_func", f).__code__
        ns[name] = types.FunctionType(code, ns, name)
    for key, value in overrides.items():
        if key not in ns:
            raise KeyError(key)
        ns[key] = value
    return ns["run"]  # type: ignore[no-any-return]
