"""The exact chance to get home on flat integer arrays: the compiled form of the DP of
:mod:`~dsa_widget.deep_sea.analysis.home`.

The same source runs compiled by numba (:func:`dsa_widget.core.jit.jit`) when the
playout kernel is (:data:`dsa_widget.core.jit.COMPILED`: the ``fast`` extra is installed
and ``DSA_WIDGET_NO_NUMBA`` is not set), or as plain Python on lists.  Use
:func:`dsa_widget.deep_sea.analysis.home_chance`: it calls :func:`solve` here when
:data:`COMPILED` is true and the position fits (see :func:`fits`).

Same rules, same shortcuts, same answers as ``home._Solver``
------------------------------------------------------------
A state is the start of diver ``q``'s turn, before he breathes: (q, air, every position,
every heading), packed in one int as ``home._Solver.pack`` does.  A state's expansion is
``home._Solver.start`` line for line, with the same shortcuts (``safe``, ``sure``,
``hopeless``: each settles a state whose chance is exactly 1 or 0).  The DP runs *forward*, a
turn at a time: layer ``t`` holds every state reachable in ``t`` turns with the number of
weighted dice sequences that lead there (out of ``9**t``); a state the shortcuts settle, or a
swim that ends the question, adds its count to the successes of its layer.  So only two layers
are in memory at a time (open-addressing hash tables: an array of keys, probed alone, and one of
counts beside it), and the states expanded are the
states ``home._Solver`` expands from a cold start (a state that can be reached in two different
numbers of turns, possible only while nobody in the water breathes, is expanded once per
number).  The live overlay may also cap one layer's states (``cfg[7]``): a position whose DP
is going to need far more states than its budget is then given up after a small part of it.

Exact numbers in 64 bits
------------------------
A count in layer ``t`` is at most ``9**(t + 1)``: it is held exactly in ``K`` limbs of 59 bits
(a limb times 9 plus a carry stays below ``2**63``).  The successes are summed by Horner's
rule, scaled by 9 at each layer, so the answer is ``N / 9**E`` with ``N`` in ``K`` limbs and
``E`` the last layer.  When ``K`` limbs would overflow, :func:`solve` says so and gives ``E``,
and the caller asks again with enough (:func:`limbs_for`).  No floating point and no
division is involved: compiled and plain Python give the same integers.

>>> limbs_for(36), limbs_for(37), limbs_for(100)
(2, 3, 6)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

from ...core.jit import COMPILED, jit, plain_copy
from ...core.jit import np as _np
from ..kernel import Buf, FBuf  # flat buffers: numpy arrays (int64, float64) or lists

__all__ = [
    "COMPILED",
    "LIMB",
    "MAX_LENGTH",
    "MAX_AIR",
    "OK",
    "OVER_BUDGET",
    "OVERFLOW",
    "limbs_for",
    "fits",
    "solve",
    "solve_float",
    "sample",
    "plain_solve",
    "warm_up",
]

_F = TypeVar("_F", bound=Callable[..., Any])

#: a table's values: counts or chances
_V = TypeVar("_V", Buf, FBuf)

#: the kernel's functions (copied as plain Python by :func:`plain_solve`)
_KERNEL: list[str] = []


def _jit(f: _F) -> _F:
    """Compile ``f`` (inlined into its callers: a state's work is many small steps) when numba is
    in use (:func:`dsa_widget.core.jit.jit`, with numpy's error model)."""
    _KERNEL.append(f.__name__)
    inline = "never" if f.__name__ in ("solve", "solve_float", "sample") else "always"
    return jit(f, error_model="numpy", inline=inline)


#: bits per limb of an exact count
LIMB = 59
_LMASK = (1 << LIMB) - 1

#: the longest path the packed states hold (the occupied spaces are bits of one int64)
MAX_LENGTH = 61
#: the most air the packed states hold
MAX_AIR = 4095

#: bits per diver's space in a key (enough for MAX_LENGTH)
_PB = 6


def limbs_for(e: int) -> int:
    """The limbs that hold every count of a DP whose last layer is ``e`` (at most ``9**(e + 1)``)."""
    most: int = 9 ** (e + 1)
    return -(-most.bit_length() // LIMB)


def fits(n: int, length: int, air: int) -> bool:
    """Whether a round of ``n`` divers on a path of ``length`` spaces with ``air`` fits the kernel."""
    return 1 <= n <= 6 and 1 <= length <= MAX_LENGTH and air <= MAX_AIR


# --------------------------------------------------------------------------- allocation


if COMPILED:
    _np_zeros = _np.zeros
    _np_int64 = _np.int64

    @jit
    def _alloc(size: int) -> Buf:
        return _np_zeros(size, _np_int64)  # type: ignore[no-any-return]

    @jit
    def _alloc_f(size: int) -> FBuf:
        return _np_zeros(size, _np.float64)  # type: ignore[no-any-return]

else:

    def _alloc(size: int) -> Buf:
        return [0] * size

    def _alloc_f(size: int) -> FBuf:
        return [0.0] * size


#: the status codes of :func:`solve`: done; more states than the budget; more than K limbs
OK, OVER_BUDGET, OVERFLOW = 0, -1, -2


@_jit
def _heading(q: int, p: int, upq: int, occo: int, length: int, pol: Buf, loads: Buf, req: int) -> int:
    """``home._Solver.heading`` without a choice: 1 for up."""
    if upq:
        return 1
    if p == 0:
        return 0
    deeper = ((1 << (length + 1)) - 1) ^ ((1 << (p + 1)) - 1)
    if occo & deeper == deeper:
        return 1  # forced
    if pol[q] and (loads[q] > 0 or not req):
        return 1
    return 0


@_jit
def _safe(air: int, fr: Buf, po: int, upm: int, hm: int, n: int, length: int, loads: Buf, pol: Buf) -> bool:
    """``home._Solver.safe`` (positions at ``fr[po:po + n]``)."""
    total = 0
    for i in range(n):
        k = loads[i]
        if k == 0 or (hm >> i) & 1:
            continue
        if k >= 2:
            return False
        p = fr[po + i]
        if (upm >> i) & 1 or (p > 0 and pol[i]):
            total += p
        else:
            total += 2 * length - p + 1
        if total >= air:
            return False
    return True


@_jit
def _sure(
    q: int, air: int, fr: Buf, po: int, upm: int, hm: int, n: int, d: int, req: int, loads: Buf, pol: Buf
) -> bool:
    """``home._Solver.sure``."""
    kd = loads[d]
    if kd > 1:
        return False
    need = fr[po + d]
    if not ((upm >> d) & 1 or (need > 0 and pol[d] and (kd > 0 or not req))):
        return False
    used = kd * (need - 1)
    ahead = d - q if d >= q else d - q + n
    for i in range(n):
        k = loads[i]
        if k == 0 or i == d or (hm >> i) & 1:
            continue
        t = need if (i - q if i >= q else i - q + n) < ahead else need - 1
        if k == 1:
            pi = fr[po + i]
            if ((upm >> i) & 1 or (pi > 0 and pol[i])) and pi < t:
                t = pi
        used += k * t
        if used >= air:
            return False
    return used < air


@_jit
def _hopeless(
    q: int, air: int, fr: Buf, po: int, hm: int, n: int, d: int, loads: Buf, breath: int, out: int, left: Buf
) -> bool:
    """``home._Solver.hopeless`` (``breath``, ``out``: for the home mask ``hm``; ``left``: scratch)."""
    kd = loads[d]
    if kd == 0:
        return False
    need = fr[po + d]
    if need <= 0:
        return False
    if kd >= 6:
        return True
    if air > ((need + 5 - kd) // (6 - kd)) * breath:
        return False
    gain = 5 - kd + out
    ahead = d - q if d >= q else d - q + n
    j1 = 0
    for i in range(n):
        if i != d and not (hm >> i) & 1:
            pi = fr[po + i]
            if (pi > 0 and pi < need) or (i - q if i >= q else i - q + n) < ahead:
                j1 += 1
    gain1 = 6 - kd + j1
    least = 1 if need <= gain1 else 1 + (need - gain1 + gain - 1) // gain
    if air > least * breath:
        return False
    for i in range(n):
        if i == d or (hm >> i) & 1 or loads[i] == 0:
            left[i] = 0
        else:
            g = 6 - loads[i] + (n - 1)
            if g > 0:
                c = (fr[po + i] + g - 1) // g
                left[i] = c if c > 1 else 1
            else:
                left[i] = 1000000
    turns = 0
    i = q
    while True:
        if i == d:
            air -= kd
            turns += 1
            if turns >= least:
                return False
            if air <= 0:
                return True
        elif left[i]:
            left[i] -= 1
            air -= loads[i]
            if air <= 0:
                return True
        i = i + 1 if i + 1 < n else 0


@_jit
def _decided(
    q: int,
    air: int,
    fr: Buf,
    po: int,
    upm: int,
    hm: int,
    n: int,
    length: int,
    d: int,
    req: int,
    loads: Buf,
    pol: Buf,
    light: Buf,
    breath: Buf,
    outs: Buf,
    left: Buf,
) -> int:
    """1 or 0 when the shortcuts of ``home._Solver.start`` settle the state, else -1."""
    kd = loads[d]
    if light[hm] and _safe(air, fr, po, upm, hm, n, length, loads, pol):
        return 1
    if kd <= 1 and _sure(q, air, fr, po, upm, hm, n, d, req, loads, pol):
        return 1
    if kd:
        need = fr[po + d]
        if (
            need > 0
            and (kd >= 6 or air <= ((need + 5 - kd) // (6 - kd)) * breath[hm])
            and _hopeless(q, air, fr, po, hm, n, d, loads, breath[hm], outs[hm], left)
        ):
            return 0
    return -1


@_jit
def _swims(p: int, up: int, most: int, occ: int, length: int, dest: Buf) -> None:
    """``dest[j]`` = ``rules.swim`` of ``j`` steps from ``p`` (``1 <= j <= most``) on a bit mask of
    taken spaces: one walk for every roll of a turn."""
    j = 1
    if up:
        i = p
        while j <= most:
            i -= 1
            if i == 0:
                while j <= most:
                    dest[j] = 0
                    j += 1
                return
            if not (occ >> i) & 1:
                dest[j] = i
                j += 1
        return
    i = p
    while j <= most and i < length:
        i += 1
        if not (occ >> i) & 1:
            p = i
            dest[j] = i
            j += 1
    while j <= most:  # past the deepest free space: he stops on it
        dest[j] = p
        j += 1


@_jit
def _too_wide(count: int, layer: int) -> bool:
    """Whether a layer of ``count`` states is past the cap ``layer`` (-1: no cap)."""
    return layer >= 0 and count > layer


@_jit
def _find(keys: Buf, mask: int, key: int, n: int) -> int:
    """The slot of ``key`` in a table of keys (0: empty), or of the empty slot where it would go.

    The probe starts at a hash of the key without the position of the diver seated before the
    next to play (the one who has just played, unless someone between is back), plus that
    position: the states one turn leads to differ in that position only, so they land a few
    slots apart, in a cache line or two, instead of anywhere in the table.  Which slot a key
    takes changes nothing else: a layer is walked in the order its states were first reached.
    """
    nq = key & 7
    sh = 3 + n + (nq - 1 if nq > 0 else n - 1) * _PB
    f = (key >> sh) & ((1 << _PB) - 1)
    rest = key ^ (f << sh)
    h = (rest ^ (rest >> 17)) * 0x5851F42D4C957F2D
    i = ((h ^ (h >> 31)) + f) & mask
    while True:
        k = keys[i]
        if k == key or k == 0:
            return i
        i = (i + 1) & mask


@_jit
def _muladd(vals: Buf, b: int, w: int, src: Buf, so: int, kk: int) -> int:
    """``vals[b:b + kk] += w * src[so:so + kk]`` (limbs, ``w <= 9``); the carry out of the top limb."""
    if kk == 2:  # the usual width (up to 36 turns): unrolled
        v = vals[b] + w * src[so]
        vals[b] = v & _LMASK
        v = vals[b + 1] + w * src[so + 1] + (v >> LIMB)
        vals[b + 1] = v & _LMASK
        return v >> LIMB
    carry = 0
    for j in range(kk):
        v = vals[b + j] + w * src[so + j] + carry
        vals[b + j] = v & _LMASK
        carry = v >> LIMB
    return carry


@_jit
def _add(
    keys: Buf, vals: Buf, used: Buf, count: int, mask: int, kk: int, key: int, w: int, mass: Buf, n: int
) -> int:
    """Add ``w * mass`` to ``key``'s count in a layer's table (keys, and ``kk`` limbs a slot in
    ``vals``; a new entry if need be); returns the number of entries, or minus one more than it
    if the top limb overflowed."""
    i = _find(keys, mask, key, n)
    b = i * kk
    if keys[i] == 0:
        keys[i] = key
        used[count] = i
        count += 1
        for j in range(kk):
            vals[b + j] = 0
    if _muladd(vals, b, w, mass, 0, kk):
        return -count - 1
    return count


@_jit
def _tables(n: int, loads: Buf, nxt: Buf, breath: Buf, outs: Buf, light: Buf) -> None:
    """Per home mask ``hm`` (the divers back in the submarine): ``nxt[q * 2**n + hm]``, the next
    diver to play after q; ``breath``, what one round of turns breathes; ``outs``, the divers
    out; ``light``, 1 when nobody out carries 2 items or more."""
    full = 1 << n
    for hm in range(full):
        b = 0
        o = 0
        lt = 1
        for i in range(n):
            if not (hm >> i) & 1:
                b += loads[i]
                o += 1
                if loads[i] >= 2:
                    lt = 0
        breath[hm] = b
        outs[hm] = o
        light[hm] = lt
        for q in range(n):
            nq = q
            for _ in range(n):
                nq = nq + 1 if nq + 1 < n else 0
                if not (hm >> nq) & 1:
                    break
            nxt[q * full + hm] = nq


@_jit
def _scratch(n: int, loads: Buf) -> tuple[Buf, Buf, Buf, Buf, Buf, Buf, Buf, Buf, Buf, Buf]:
    """What both DPs allocate first: :func:`_tables` (``nxt``, ``breath``, ``outs``, ``light``),
    then :func:`_expand`'s scratch (``left``, ``ps``, ``dest``: ``dest[1..6]``, the most steps
    is 6, carrying nothing; ``tos``, ``wts``, ``nks``: at most 5 outcomes of a roll)."""
    full = 1 << n
    nxt = _alloc(n * full)
    breath = _alloc(full)
    outs = _alloc(full)
    light = _alloc(full)
    _tables(n, loads, nxt, breath, outs, light)
    return nxt, breath, outs, light, _alloc(n), _alloc(n), _alloc(7), _alloc(5), _alloc(5), _alloc(5)


@_jit
def _root_key(roots: Buf, row: int, n: int) -> int:
    """The packed key of the root at ``roots[row:row + 4 + n]`` (its weight is ``roots[row]``)."""
    key = roots[row + 1] | roots[row + 3] << 3 | roots[row + 2] << (3 + n + n * _PB)
    for i in range(n):
        key |= roots[row + 4 + i] << (3 + n + i * _PB)
    return key


#: what :func:`_expand` puts for a roll that settles the question: our diver back, or not
_WIN, _LOSS = -1, -2


@_jit
def _expand(
    key: int,
    n: int,
    length: int,
    d: int,
    req: int,
    loads: Buf,
    pol: Buf,
    nxt: Buf,
    breath: Buf,
    outs: Buf,
    light: Buf,
    left: Buf,
    ps: Buf,
    dest: Buf,
    tos: Buf,
    wts: Buf,
    nkeys: Buf,
) -> int:
    """One state's turn (``home._Solver.start``): :data:`_WIN` or :data:`_LOSS` when the
    shortcuts settle the state, else the number ``k`` of distinct outcomes of the roll, each with
    its weight ``wts[c]`` (out of 9) and ``nkeys[c]``: the key of the state it leads to, or
    :data:`_WIN` / :data:`_LOSS` when it settles the question.  ``nxt``, ``breath``, ``outs``,
    ``light``: :func:`_tables`; ``left``, ``ps``, ``dest``, ``tos``: scratch."""
    full = 1 << n
    top = 3 + n + n * _PB
    low = (1 << top) - 1
    pmask = (1 << _PB) - 1
    q = key & 7
    upm = (key >> 3) & (full - 1)
    air = key >> top
    hm = 0
    occ = 0
    for i in range(n):
        p = (key >> (3 + n + i * _PB)) & pmask
        ps[i] = p
        if p > 0:
            occ |= 1 << p
        elif (upm >> i) & 1:
            hm |= 1 << i
    v = _decided(q, air, ps, 0, upm, hm, n, length, d, req, loads, pol, light, breath, outs, left)
    if v == 1:
        return _WIN
    if v == 0:
        return _LOSS
    # q breathes, turns back if he does, and swims: the same for every roll but the sum
    air2 = air - loads[q]
    last = air2 <= 0
    p = ps[q]
    upq = (upm >> q) & 1
    occo = occ & ~(1 << p) if p else occ
    hd = _heading(q, p, upq, occo, length, pol, loads, req)
    if hd and not upq:
        upm |= 1 << q
    nq = nxt[q * full + hm]
    base = (key & low & ~((1 << (3 + n)) - 1)) | upm << 3 | air2 << top | nq
    sh = 3 + n + q * _PB
    k = loads[q]
    most = 6 - k  # the most steps a roll gives him
    if most > 0:
        _swims(p, hd, most, occo, length, dest)
    nd = 0
    for sm in range(2, 7):
        w = 3 - abs(sm - 4)  # the weights of a sum of two 3-sided dice: 1, 2, 3, 2, 1
        to = dest[sm - k] if sm > k else p
        j = 0
        while j < nd and tos[j] != to:
            j += 1
        if j == nd:
            tos[j] = to
            wts[j] = w
            nd += 1
        else:
            wts[j] += w
    pd = ps[d]
    for c in range(nd):
        to = tos[c]
        v = -1
        if to == 0 and hd:
            if q == d:
                v = 1
            elif last:
                v = 1 if pd == 0 else 0
        elif last:  # the round ends: our diver is back only if he is in the submarine
            v = (1 if pd == 0 else 0) if q != d else (1 if to == 0 else 0)
        if v == 1:
            nkeys[c] = _WIN
        elif v == 0:
            nkeys[c] = _LOSS
        else:
            nkeys[c] = base - (p << sh) + (to << sh)
    return nd


@_jit
def _grown(keys: Buf, vals: _V, used: Buf, count: int, kk: int, gvals: _V, n: int) -> tuple[Buf, _V, Buf]:
    """A layer's table (keys, ``kk`` values a slot, the used slots) at twice the size, its
    values in ``gvals`` (``2 * kk * len(keys)`` of them, zero: ints or floats)."""
    gcap = 2 * len(keys)
    gmask = gcap - 1
    gkeys = _alloc(gcap)
    gused = _alloc(gcap)
    for u in range(count):
        i1 = used[u]
        i2 = _find(gkeys, gmask, keys[i1], n)
        gkeys[i2] = keys[i1]
        gused[u] = i2
        for j in range(kk):
            gvals[i2 * kk + j] = vals[i1 * kk + j]
    return gkeys, gvals, gused


@_jit
def solve(
    cfg: Buf,
    loads: Buf,
    pol: Buf,
    roots: Buf,
    res: Buf,
    stats: Buf,
) -> int:
    """``N`` for ``N / 9**E`` = the sum of ``w * chance(root)`` over the roots; :data:`OK`,
    :data:`OVER_BUDGET` or :data:`OVERFLOW`.

    ``cfg = [n, length, d, requires_treasure, budget (-1: none), K, m]``, optionally followed by
    ``layer`` (-1: none): also :data:`OVER_BUDGET` as soon as one turn's layer holds more than
    that many states (the live overlay gives up early on a position that is going to need
    far more than its budget); ``loads``, ``pol``
    (1: policy "home") per diver; ``K``: the limbs of a count; ``roots``:
    ``m`` rows of ``4 + n`` ints ``(w, q, air, up-mask, positions...)``, each a state at the
    start of ``q``'s turn with ``air >= 1`` and our diver ``d`` in the water, and its weight
    ``w`` (the roots' weights sum to at most 9).  Writes ``N``'s limbs to ``res[0:K]`` (least
    significant first); ``stats[0]``: the states expanded, ``stats[1]``: ``E`` (also after an
    overflow: then ask again with :func:`limbs_for` ``(E)`` limbs).

    The DP runs forward, one turn at a time (see the module text).
    """
    n = cfg[0]
    length = cfg[1]
    d = cfg[2]
    req = cfg[3]
    budget = cfg[4]
    kk = cfg[5]
    m = cfg[6]
    layer = cfg[7] if len(cfg) > 7 else -1
    nxt, breath, outs, light, left, ps, dest, tos, wts, nks = _scratch(n, loads)
    mass = _alloc(kk)
    rsum = _alloc(kk)  # the successes so far, scaled to the current layer
    tcur = _alloc(kk)  # the successes of the current layer
    tnext = _alloc(kk)  # ... and of the next
    # the two layers: open-addressing tables of keys (0: empty slot) and of their counts
    # (kk limbs a slot), and the list of used slots
    cap = 1 << 10
    mask = cap - 1
    ckeys = _alloc(cap)
    cvals = _alloc(cap * kk)
    cused = _alloc(cap)
    ccount = 0
    nkeys = _alloc(cap)
    nvals = _alloc(cap * kk)
    nused = _alloc(cap)
    ncount = 0
    for r in range(m):
        row = r * (4 + n)
        mass[0] = 1
        ccount = _add(ckeys, cvals, cused, ccount, mask, kk, _root_key(roots, row, n), roots[row], mass, n)
    fresh = 0
    t = 0
    arrived = 0
    over = 0
    while True:
        nmask = len(nkeys) - 1
        for u in range(ccount):
            i0 = cused[u]
            key = ckeys[i0]
            ckeys[i0] = 0  # the table is empty again once the layer is done
            b = i0 * kk
            for j in range(kk):
                mass[j] = cvals[b + j]
            nd = _expand(
                key, n, length, d, req, loads, pol, nxt, breath, outs, light, left, ps, dest, tos, wts, nks
            )
            if nd == _WIN:
                over |= _muladd(tcur, 0, 1, mass, 0, kk)
                continue
            if nd == _LOSS:
                continue
            fresh += 1
            if budget >= 0 and fresh > budget:
                stats[0] = fresh
                return OVER_BUDGET
            for c in range(nd):
                nk = nks[c]
                if nk == _WIN:
                    arrived = 1
                    over |= _muladd(tnext, 0, wts[c], mass, 0, kk)
                    continue
                if nk == _LOSS:
                    continue
                if 2 * (ncount + 1) > len(nkeys):  # grow the next layer's table (keep it at most half full)
                    nkeys, nvals, nused = _grown(
                        nkeys, nvals, nused, ncount, kk, _alloc(2 * len(nkeys) * kk), n
                    )
                    nmask = len(nkeys) - 1
                ncount = _add(nkeys, nvals, nused, ncount, nmask, kk, nk, wts[c], mass, n)
                if ncount < 0:
                    over = 1
                    ncount = -ncount - 1
                if _too_wide(ncount, layer):
                    stats[0] = fresh
                    return OVER_BUDGET
        # the layer is done: scale the successes so far by 9 and add this layer's
        over |= _muladd(tcur, 0, 9, rsum, 0, kk)
        for j in range(kk):
            rsum[j] = tcur[j]
        if ncount == 0 and not arrived:
            break
        for j in range(kk):
            tcur[j] = tnext[j]
            tnext[j] = 0
        arrived = 0
        # swap the layers
        ckeys, nkeys = nkeys, ckeys
        cvals, nvals = nvals, cvals
        cused, nused = nused, cused
        ccount = ncount
        ncount = 0
        t += 1
    for j in range(kk):
        res[j] = rsum[j]
    stats[0] = fresh
    stats[1] = t
    return OVERFLOW if over else OK


@_jit
def solve_float(cfg: Buf, loads: Buf, pol: Buf, roots: Buf, out: FBuf, stats: Buf) -> int:
    """:func:`solve` in double precision: the same states expanded in the same order, each
    holding the probability of reaching it (a float) instead of an exact count, so about
    1.5 times as fast; :data:`OK` or :data:`OVER_BUDGET` (``cfg``'s ``K`` is not used).

    ``out[0]``: the sum of ``w / 9 * chance(root)`` over the roots (note the ``/ 9``: the
    roots' weights are out of 9); ``stats`` as for :func:`solve`.  Every step is an IEEE
    double operation in a fixed order (no fast-math), so the float is the same on every
    machine; its rounding error is far below the last digit the overlay shows.
    """
    n = cfg[0]
    length = cfg[1]
    d = cfg[2]
    req = cfg[3]
    budget = cfg[4]
    m = cfg[6]
    layer = cfg[7] if len(cfg) > 7 else -1
    nxt, breath, outs, light, left, ps, dest, tos, wts, nks = _scratch(n, loads)
    ninth = 1.0 / 9.0
    cap = 1 << 10
    ckeys = _alloc(cap)
    cvals = _alloc_f(cap)
    cused = _alloc(cap)
    ccount = 0
    nkeys = _alloc(cap)
    nvals = _alloc_f(cap)
    nused = _alloc(cap)
    ncount = 0
    for r in range(m):
        key = _root_key(roots, r * (4 + n), n)
        i = _find(ckeys, cap - 1, key, n)
        if ckeys[i] == 0:
            ckeys[i] = key
            cused[ccount] = i
            ccount += 1
            cvals[i] = 0.0
        cvals[i] += roots[r * (4 + n)] * ninth
    fresh = 0
    t = 0
    won = 0.0
    while ccount:
        nmask = len(nkeys) - 1
        for u in range(ccount):
            i0 = cused[u]
            key = ckeys[i0]
            ckeys[i0] = 0
            mass = cvals[i0]
            nd = _expand(
                key, n, length, d, req, loads, pol, nxt, breath, outs, light, left, ps, dest, tos, wts, nks
            )
            if nd == _WIN:
                won += mass
                continue
            if nd == _LOSS:
                continue
            fresh += 1
            if budget >= 0 and fresh > budget:
                stats[0] = fresh
                return OVER_BUDGET
            for c in range(nd):
                nk = nks[c]
                if nk == _LOSS:
                    continue
                share = mass * wts[c] * ninth
                if nk == _WIN:
                    won += share
                    continue
                if 2 * (ncount + 1) > len(nkeys):
                    nkeys, nvals, nused = _grown(nkeys, nvals, nused, ncount, 1, _alloc_f(2 * len(nkeys)), n)
                    nmask = len(nkeys) - 1
                i = _find(nkeys, nmask, nk, n)
                if nkeys[i] == 0:
                    nkeys[i] = nk
                    nused[ncount] = i
                    ncount += 1
                    nvals[i] = 0.0
                nvals[i] += share
                if _too_wide(ncount, layer):
                    stats[0] = fresh
                    return OVER_BUDGET
        ckeys, nkeys = nkeys, ckeys
        cvals, nvals = nvals, cvals
        cused, nused = nused, cused
        ccount = ncount
        ncount = 0
        t += 1
    out[0] = won
    stats[0] = fresh
    stats[1] = t
    return OK


#: the multiplier and modulus of :func:`sample`'s random numbers (the "minimal standard"
#: Lehmer generator: products stay below 2**62, so numba and plain Python draw the same)
_LEHMER_A, _LEHMER_M = 48271, 2147483647


@_jit
def sample(
    cfg: Buf, loads: Buf, pol: Buf, roots: Buf, total: int, sure: int, playouts: int, seed: int
) -> int:
    """The DP that :func:`solve` sums, simulated: how many of ``playouts`` random descents
    end with our diver back.

    ``cfg``, ``loads``, ``pol``, ``roots``: as for :func:`solve` (its budgets are not used).
    A descent draws its first step out of ``total`` (9 when the first step is a roll, else 1):
    the first ``sure`` of them are settled for him, then each root takes its weight, and what
    is left is settled against him.  From a root it follows one roll a turn, drawn with the
    weights 1, 2, 3, 2, 1 out of 9, through the same turns and shortcuts as the DP, so it
    estimates exactly the chance :func:`solve` computes.  The random numbers come from a
    Lehmer generator started at ``seed``: the same hits compiled or not, on every machine.
    """
    n = cfg[0]
    length = cfg[1]
    d = cfg[2]
    req = cfg[3]
    m = cfg[6]
    nxt, breath, outs, light, left, ps, dest, tos, wts, nks = _scratch(n, loads)
    x = seed % (_LEHMER_M - 1) + 1
    hits = 0
    for _ in range(playouts):
        x = x * _LEHMER_A % _LEHMER_M
        u = x % total
        if u < sure:
            hits += 1
            continue
        u -= sure
        key = 0
        for r in range(m):
            w = roots[r * (4 + n)]
            if u < w:
                key = _root_key(roots, r * (4 + n), n)
                break
            u -= w
        while key > 0:  # a root's key is never 0: its air is at least 1
            nd = _expand(
                key, n, length, d, req, loads, pol, nxt, breath, outs, light, left, ps, dest, tos, wts, nks
            )
            if nd == _WIN:
                hits += 1
                break
            if nd == _LOSS:
                break
            x = x * _LEHMER_A % _LEHMER_M
            u = x % 9
            c = 0
            while u >= wts[c]:
                u -= wts[c]
                c += 1
            key = nks[c]
            if key == _WIN:
                hits += 1
    return hits


def warm_up() -> float:
    """Compile :func:`solve`, :func:`solve_float` and :func:`sample` now (numba compiles on first
    use, some seconds of CPU each, or loads them from its cache in ``__pycache__``, under a
    second) and return the seconds it took; 0.0-ish without numba."""
    import time

    t0 = time.perf_counter()
    cfg = [2, 4, 0, 1, -1, 2, 1]
    bufs: list[Any] = [cfg, [1, 1], [1, 1], [9, 0, 5, 0, 2, 1], [0, 0], [0, 0]]
    fout: Any = [0.0]
    if COMPILED:
        bufs = [_np.array(b, dtype=_np.int64) for b in bufs]
        fout = _np.zeros(1)
    solve(*bufs)
    cfg_, loads, pol, roots = bufs[:4]
    solve_float(cfg_, loads, pol, roots, fout, bufs[5])
    sample(cfg_, loads, pol, roots, 9, 0, 1, 0)
    return time.perf_counter() - t0


def plain_solve(which: str = "solve", **overrides: Any) -> Callable[..., int]:
    """:func:`solve` (or ``which="solve_float"`` or ``"sample"``: :func:`solve_float`,
    :func:`sample`) as plain Python on lists, whatever :data:`COMPILED` says (for the tests).

    ``overrides`` replace the kernel's globals in this copy only (a test gives a wrong rule to
    check that it is caught).

    >>> plain_solve() is not plain_solve()
    True
    """
    if which not in ("solve", "solve_float", "sample"):
        raise KeyError(which)
    plain = {"_alloc": _alloc_list, "_alloc_f": _alloc_float_list, **overrides}
    return plain_copy(globals(), _KERNEL, **plain)[which]  # type: ignore[no-any-return]


def _alloc_list(size: int) -> Buf:
    return [0] * size


def _alloc_float_list(size: int) -> FBuf:
    return [0.0] * size
