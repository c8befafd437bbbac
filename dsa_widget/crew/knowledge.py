"""What one viewer knows about the hidden cards, as data: the constraints every consistent deal
must satisfy (CREW.md section 15).  Built by :meth:`dsa_widget.crew.view.CrewView.knowledge`;
used by sampling (determinization for bots) and by the exact holding chances of the lab.

A consistent deal gives each seat ``s`` exactly ``slots[s]`` cards of ``pool``, each card to
a seat whose ``allowed`` mask holds it, and for every ``(s, masks)`` in ``alternatives`` at
least one mask of ``masks`` gets none of seat ``s``'s pool cards (a communication under
*currents*: the seat's other cards of the colour were all above the shown card, or all below),
and for every ``(s, mask)`` in ``forbids`` not every card of ``mask`` to seat ``s`` (the deal
exceptions of R-6.10: the engine redeals a deal in which one hand holds such a set, so no
dealt hand ever does).  Every consistent deal is taken as equally likely (the model of a
random deal that has passed the public checks, R-6.10's among them; players' choices carry
more information than this model uses).
"""

from __future__ import annotations

import random
import sys
from bisect import bisect_right
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import repeat
from operator import itemgetter, lshift, mul, or_
from typing import Any

from .cards import bits
from .errors import CrewError

__all__ = ["InconsistentKnowledge", "Knowledge", "count_deals", "sample_deal"]


@dataclass(frozen=True)
class Knowledge:
    """Public constraints on the hidden cards, from one viewer's seat (``None``: a spectator)."""

    seats: int
    viewer: int | None
    #: mask of the unplayed cards whose holder the viewer does not know
    pool: int
    #: per seat, how many cards of ``pool`` it holds (Tonoja's face-down cards count for it)
    slots: tuple[int, ...]
    #: per seat, mask of unplayed cards known to be in that hand (own hand, Tonoja's face-up
    #: cards, communicated cards not yet played, a card the viewer passed in distress)
    known: tuple[int, ...]
    #: per seat, mask of pool cards the seat may hold (revealed voids and communication bounds removed)
    allowed: tuple[int, ...]
    #: (seat, masks): the seat holds no pool card of at least one of the masks
    alternatives: tuple[tuple[int, tuple[int, ...]], ...] = ()
    #: (seat, mask): the seat holds at least one pool card of the mask (a card shown as the
    #: highest of its colour, not the only one, had a lower one beside it when it was shown)
    requires: tuple[tuple[int, int], ...] = ()
    #: (seat, mask of pool cards): the seat does not hold every card of the mask (R-6.10: a
    #: hand dealt a set that makes a drawn task impossible is redealt; the mask is what is left
    #: of such a set once the cards the seat has played or is known to hold are taken out)
    forbids: tuple[tuple[int, int], ...] = ()


# ---------------------------------------------------------------------------------------------
# Counting the consistent deals
#
# Inclusion-exclusion turns the alternatives into a signed sum of plain problems (each seat
# may hold the cards of a mask, holds so many).  In a plain problem the cards that the same
# seats may hold are interchangeable (a "type"), and the deals number the coefficient of
# prod_s z_s^slots[s] in prod_types (sum of z_s over the type's seats)^(cards of the type).
# The polynomial is homogeneous, so one seat (the "free" seat, the one with most slots) is set
# to 1; the other seats' exponents are truncated at their slots.  A polynomial is one int
# (Kronecker substitution): the coefficient of exponents e sits in the field of 64 or 128 bits
# at position sum(e_j * stride_j), each dimension one wider than the slots so that an exponent
# one too high lands in a spare field, cleared by a mask after every product by a linear form.
# ---------------------------------------------------------------------------------------------

_MAX_MASKS = 12  # per alternative (2**masks inclusion-exclusion terms)
_FACT = [1]
for _i in range(1, 41):
    _FACT.append(_FACT[-1] * _i)
_ALL40 = (1 << 40) - 1

#: a type of interchangeable cards: (cards, seats that may hold them, counted by a distribution)
_Type = tuple[list[int], tuple[int, ...], bool]


class InconsistentKnowledge(CrewError):
    """No deal is consistent with the knowledge (it contradicts itself)."""


def _popcount(mask: int) -> int:
    return bin(mask).count("1")


def _check(k: Knowledge) -> None:
    """Raise ``ValueError`` for a malformed :class:`Knowledge` (not for an inconsistent one)."""
    n = k.seats
    if not isinstance(n, int) or not 1 <= n <= 8:
        raise ValueError(f"Knowledge.seats must be an int from 1 to 8, not {n!r}")
    if k.viewer is not None and not (isinstance(k.viewer, int) and 0 <= k.viewer < n):
        raise ValueError(f"Knowledge.viewer must be a seat or None, not {k.viewer!r}")
    for fname in ("slots", "known", "allowed"):
        v = getattr(k, fname)
        if not isinstance(v, tuple) or len(v) != n or not all(isinstance(x, int) for x in v):
            raise ValueError(f"Knowledge.{fname} must be a tuple of {n} ints")
    if not all(0 <= x <= 40 for x in k.slots):
        raise ValueError(f"Knowledge.slots must be from 0 to 40: {k.slots}")
    if not (isinstance(k.pool, int) and 0 <= k.pool <= _ALL40):
        raise ValueError("Knowledge.pool must be a mask of cards 0-39")
    seen = k.pool
    for m in k.known:
        if not 0 <= m <= _ALL40 or m & seen:
            raise ValueError(
                "Knowledge.known masks must be cards 0-39, disjoint from each other and the pool"
            )
        seen |= m
    if not all(0 <= m <= _ALL40 for m in k.allowed):
        raise ValueError("Knowledge.allowed masks must be masks of cards 0-39")
    if not isinstance(k.alternatives, tuple):
        raise ValueError("Knowledge.alternatives must be a tuple of (seat, masks)")
    for alt in k.alternatives:
        if not (isinstance(alt, tuple) and len(alt) == 2 and isinstance(alt[0], int) and 0 <= alt[0] < n):
            raise ValueError(f"an alternative must be (seat, masks), not {alt!r}")
        if not isinstance(alt[1], tuple) or not 1 <= len(alt[1]) <= _MAX_MASKS:
            raise ValueError(f"an alternative needs 1 to {_MAX_MASKS} masks: {alt!r}")
        if not all(isinstance(m, int) and 0 <= m <= _ALL40 for m in alt[1]):
            raise ValueError(f"an alternative's masks must be masks of cards 0-39: {alt!r}")


def _forbids(k: Knowledge) -> tuple[tuple[int, int], ...]:
    """(seat, mask) pairs: the seat does not hold every card of the mask (the field
    :attr:`Knowledge.forbids`; each mask is a non-empty set of pool cards)."""
    fb = getattr(k, "forbids", ())
    if not isinstance(fb, tuple) or not all(
        isinstance(f, tuple)
        and len(f) == 2
        and all(isinstance(x, int) for x in f)
        and 0 <= f[0] < k.seats
        and 0 < f[1] <= _ALL40
        and not f[1] & ~k.pool
        for f in fb
    ):
        raise ValueError(
            f"Knowledge.forbids must be a tuple of (seat, non-empty mask of pool cards) pairs, not {fb!r}"
        )
    return fb


def _requires(k: Knowledge) -> tuple[tuple[int, int], ...]:
    """(seat, mask) pairs: the seat holds at least one pool card of the mask.

    Checked here (the field :attr:`Knowledge.requires`).  A declaration *top* or *bottom* under
    the default forced token position (R-11.5) says the seat held another card of the colour,
    below or above, at that moment; when the seat has not played one since, it still holds one
    of the unknown ones."""
    req = getattr(k, "requires", ())
    if not isinstance(req, tuple) or not all(
        isinstance(r, tuple)
        and len(r) == 2
        and all(isinstance(x, int) for x in r)
        and 0 <= r[0] < k.seats
        and 0 <= r[1] <= _ALL40
        for r in req
    ):
        raise ValueError(f"Knowledge.requires must be a tuple of (seat, mask) pairs, not {req!r}")
    return req


def _terms(
    slots: tuple[int, ...],
    pool: int,
    allowed: tuple[int, ...],
    alternatives: Sequence[tuple[int, tuple[int, ...]]],
    requires: Sequence[tuple[int, int]] = (),
    forbids: Sequence[tuple[int, int]] = (),
) -> list[tuple[int, tuple[int, ...]]]:
    """The inclusion-exclusion over the alternatives (and the requirements, see
    :func:`_requires`, and the forbidden sets, see :func:`_forbids`): (coefficient, allowed
    masks) pairs such that the consistent deals number sum(coefficient * deals allowed by the
    masks alone)."""
    al = [a & pool if slots[s] else 0 for s, a in enumerate(allowed)]
    alts: list[tuple[int, list[int]]] = []
    for s, masks in alternatives:
        ms = sorted({m & al[s] for m in masks})
        if not slots[s] or not ms or ms[0] == 0:
            continue  # always satisfied: the seat holds no pool card, or a mask it cannot hold
        # avoiding a mask avoids its subsets: keep only the minimal masks
        ms = [m for m in ms if not any(o != m and o & m == o for o in ms)]
        if len(ms) == 1:
            al[s] &= ~ms[0]
        else:
            alts.append((s, ms))
    needs = []
    for s, m in requires:
        if not slots[s] or not m & al[s]:
            return []  # the seat must hold a card of the mask and cannot
        needs.append((s, m & al[s]))
    # a forbidden set: all deals, less those that give the seat every card of the set (the
    # other seats may hold none of it).  A set with a card the seat may not hold is no
    # constraint; one card alone is a card the seat may not hold; a set holding another of
    # the same seat's sets adds nothing.
    sets = sorted({(s, m & pool) for s, m in forbids}, key=lambda f: _popcount(f[1]))
    bans: list[tuple[int, int]] = []
    for s, m in sets:
        if not slots[s] or m & ~al[s] or any(t == s and o & m == o for t, o in bans):
            continue
        bans.append((s, m))
    for s, m in bans:
        if _popcount(m) == 1:
            al[s] &= ~m
    bans = [(s, m) for s, m in bans if _popcount(m) > 1]
    terms: dict[tuple[int, ...], int] = {tuple(al): 1}
    for s, m in bans:
        new_terms = dict(terms)
        for t, c in terms.items():
            t2 = tuple(a if o == s else a & ~m for o, a in enumerate(t))
            new_terms[t2] = new_terms.get(t2, 0) - c
        terms = {t: c for t, c in new_terms.items() if c}
    for s, m in needs:  # all deals, less those in which the seat has none of the mask
        new_terms = dict(terms)
        for t, c in terms.items():
            t2 = t[:s] + (t[s] & ~m,) + t[s + 1 :]
            new_terms[t2] = new_terms.get(t2, 0) - c
        terms = {t: c for t, c in new_terms.items() if c}
    for s, ms in alts:
        new: dict[tuple[int, ...], int] = {}
        for sub in range(1, 1 << len(ms)):
            u = 0
            for j, m in enumerate(ms):
                if sub >> j & 1:
                    u |= m
            sign = 1 if _popcount(sub) % 2 else -1
            for t, c in terms.items():
                t2 = t[:s] + (t[s] & ~u,) + t[s + 1 :]
                new[t2] = new.get(t2, 0) + sign * c
        terms = {t: c for t, c in new.items() if c}
    return [(c, t) for t, c in terms.items()]


def _compositions(seats: tuple[int, ...], n: int, bound: Sequence[int]) -> list[tuple[int, ...]]:
    """Every way to give n cards to ``seats``, seat s at most bound[s]: tuples parallel to seats."""
    out: list[tuple[int, ...]] = []
    m = len(seats)
    caps = [bound[s] for s in seats]
    rest = [0] * (m + 1)
    for j in range(m - 1, -1, -1):
        rest[j] = rest[j + 1] + caps[j]

    def rec(j: int, left: int, acc: tuple[int, ...]) -> None:
        if j == m - 1:
            out.append((*acc, left))
            return
        for x in range(max(0, left - rest[j + 1]), min(left, caps[j]) + 1):
            rec(j + 1, left - x, (*acc, x))

    if m and n <= rest[0]:
        rec(0, n, ())
    elif not m and n == 0:
        out.append(())
    return out


@lru_cache(maxsize=256)
def _mask_int(dims: tuple[int, ...], limits: tuple[int, ...], width: int) -> int:
    """Ones in the fields (``width`` bytes each) whose exponents are within ``limits``."""
    size = 1
    for d in dims:
        size *= d
    buf = bytearray(size * width)
    full = b"\xff" * width
    for pos in range(size):
        rest = pos
        for d, lim in zip(dims, limits, strict=True):
            if rest % d > lim:
                break
            rest //= d
        else:
            buf[pos * width : (pos + 1) * width] = full
    return int.from_bytes(bytes(buf), "little")


@lru_cache(maxsize=256)
def _dot_index(
    dims: tuple[int, ...], target: tuple[int, ...]
) -> tuple[Callable[[Sequence[int]], tuple[int, ...]], Callable[[Sequence[int]], tuple[int, ...]]]:
    """Getters of the positions u and target - u, for every u within target in each exponent."""
    size = 1
    strides = []
    for d in dims:
        strides.append(size)
        size *= d
    tp = sum(t * s for t, s in zip(target, strides, strict=True))
    us = []
    for pos in range(size):
        rest = pos
        for d, t in zip(dims, target, strict=True):
            if rest % d > t:
                break
            rest //= d
        else:
            us.append(pos)
    vs = [tp - u for u in us]
    if len(us) == 1:  # itemgetter of one index returns the item, not a tuple: pair it with a zero
        us.append(0)
        vs.append(size)
    return itemgetter(*us), itemgetter(*vs)


class _Poly:
    """The polynomials of one problem (its slots and number of cards), optionally with a counter
    variable ``y`` (degree up to ``cmax``) marking the counted cards the seats ``group`` get."""

    __slots__ = (
        "bits",
        "cmax",
        "cshift",
        "dims",
        "field",
        "free",
        "group",
        "mask",
        "shift",
        "size",
        "stride",
        "target",
        "tracked",
        "width",
    )

    def __init__(
        self, slots: tuple[int, ...], ncards: int, group: Sequence[int] = (), cmax: int = -1
    ) -> None:
        act = [s for s in range(len(slots)) if slots[s]]
        self.free = max(act, key=lambda s: slots[s]) if act else -1
        self.tracked = [s for s in act if s != self.free]
        dims = [slots[s] + 2 for s in self.tracked]
        limits = [slots[s] for s in self.tracked]
        if cmax >= 0:
            dims.append(cmax + 2)
            limits.append(cmax + 1)
        # a field holds any coefficient (at most len(act) ** ncards assignments); 8 or 16 bytes,
        # so that a polynomial unpacks as a memoryview of 64-bit words
        self.width = 8 if (max(len(act), 2) ** ncards).bit_length() <= 64 else 16
        self.bits = 8 * self.width
        self.field = (1 << self.bits) - 1
        self.dims = tuple(dims)
        self.size = 1
        self.shift: dict[int, int] = {}
        self.stride: dict[int, int] = {}
        target = 0
        for s, d in zip(self.tracked, dims, strict=False):
            self.stride[s] = self.size
            self.shift[s] = self.size * self.bits
            target += slots[s] * self.size
            self.size *= d
        if self.free >= 0:
            self.shift[self.free] = 0
            self.stride[self.free] = 0
        self.cshift = 0
        if cmax >= 0:
            self.cshift = self.size * self.bits
            self.size *= dims[-1]
        self.target = target
        self.mask = _mask_int(self.dims, tuple(limits), self.width)
        self.group = frozenset(group)
        self.cmax = cmax

    def shifts(self, seats: Sequence[int], counted: bool = False) -> tuple[int, ...]:
        return tuple(self.shift[s] + (self.cshift if counted and s in self.group else 0) for s in seats)

    def mul(self, x: int, shifts: tuple[int, ...], times: int = 1) -> int:
        """x times (the linear form of ``shifts``) ** times, truncated."""
        mask = self.mask
        for _ in range(times):
            y = 0
            for sh in shifts:
                y += x << sh if sh else x
            x = y & mask
        return x

    def coef(self, x: int, offset: int = 0) -> int:
        """The coefficient at the slots, ``offset`` bits further on (a counter value)."""
        return (x >> (self.target * self.bits + offset)) & self.field

    def unpack(self, x: int) -> list[int]:
        """The coefficients by position (and one spare zero at the end)."""
        n = self.size + 1
        if self.width == 8:
            return memoryview(x.to_bytes(8 * n, sys.byteorder)).cast("Q").tolist()
        q = memoryview(x.to_bytes(16 * n, "little")).cast("Q").tolist()
        if sys.byteorder != "little":
            q = [int.from_bytes(w.to_bytes(8, "big"), "little") for w in q]
        # lo | hi << 64 per field, with map (in C) rather than a comprehension: this is hot
        return list(map(or_, q[0::2], map(lshift, q[1::2], repeat(64))))


class _Products:
    """Prefix and suffix products of a run of types (between a ``head`` and a ``tail``
    polynomial): the deals with one card of a type at a seat, and with a seat void in a run.

    ``memo`` may be shared by the products of several inclusion-exclusion terms with the same
    ``tail`` and the same ``head``: their types are aligned (type i holds the same cards in
    every term, only its seats differ), so a prefix or suffix product depends only on the seats
    of the types it covers, and terms that agree on them compute it once."""

    def __init__(
        self,
        ring: _Poly,
        slots: tuple[int, ...],
        types: Sequence[_Type],
        tail: int = 1,
        memo: dict[tuple[str, tuple[tuple[int, ...], ...]], Any] | None = None,
    ) -> None:
        self.ring = ring
        self.slots = slots
        self.types = list(types)
        self.memo = {} if memo is None else memo
        self.seats = tuple(seats for _cards, seats, _c in self.types)
        self.sh = [ring.shifts(seats) for seats in self.seats]
        n = len(self.types)
        suf = [tail] * (n + 1)
        for i in range(n - 1, -1, -1):
            key = ("suf", self.seats[i:])
            got = self.memo.get(key)
            if got is None:
                got = self.memo[key] = ring.mul(suf[i + 1], self.sh[i], len(self.types[i][0]))
            suf[i] = got
        self.suf = suf
        self.pre: list[int] = []
        #: pre[i] times type i's linear form to one fewer than its cards (see one_card)
        self.almost: list[int] = []

    def set_head(self, head: int) -> None:
        pre = [head]
        almost = []
        for i, (cards, _s, _c) in enumerate(self.types):
            key = ("pre", self.seats[: i + 1])
            got = self.memo.get(key)
            if got is None:
                a = self.ring.mul(pre[-1], self.sh[i], len(cards) - 1)
                got = self.memo[key] = (a, self.ring.mul(a, self.sh[i]))
            almost.append(got[0])
            pre.append(got[1])
        self.pre = pre
        self.almost = almost

    def suffix(self, i: int) -> list[int]:
        key = ("unpacked suf", self.seats[i:])
        got = self.memo.get(key)
        if got is None:
            got = self.memo[key] = self.ring.unpack(self.suf[i])
        return got

    def dot(self, a: list[int], b: list[int], seat: int = -1) -> int:
        """The coefficient of a * b at the slots, less one card for ``seat`` (-1: none)."""
        target = tuple(self.slots[s] - (s == seat) for s in self.ring.tracked)
        if min(target, default=0) < 0:
            return 0
        ga, gb = _dot_index(self.ring.dims, target)
        return sum(map(mul, ga(a), gb(b)))

    def one_card(self, i: int) -> list[int]:
        """Per seat: the deals in which one given card of type i goes to the seat (needs
        :meth:`set_head`)."""
        _cards, seats, _c = self.types[i]
        a = self.ring.unpack(self.almost[i])
        b = self.suffix(i + 1)
        out = [0] * len(self.slots)
        for s in seats:
            out[s] = self.dot(a, b, -1 if s == self.ring.free else s)
        return out

    def without(self, x: int, first: int, stop: int, seat: int) -> int | None:
        """x times the types first .. stop - 1 with ``seat`` holding none of them (None: impossible)."""
        for i in range(first, stop):
            cards, seats, _c = self.types[i]
            rest = tuple(s for s in seats if s != seat)
            if not rest:
                return None
            x = self.ring.mul(x, self.ring.shifts(rest), len(cards))
        return x


def _split(
    k: Knowledge, allowed: tuple[int, ...], key: Callable[[int], int] | None = None
) -> tuple[list[_Type], list[tuple[int, list[_Type]]]] | None:
    """The inclusion-exclusion terms with their common part taken out: the types alike in every
    term (cards the same seats may hold in each), and per term (coefficient, its other types).
    Types are grouped by ``key`` (then by their seats).  None if no term has a deal."""
    cards = bits(k.pool)
    nseats = k.seats
    slots = k.slots

    def seatset(al: tuple[int, ...], c: int) -> tuple[int, ...]:
        return tuple(s for s in range(nseats) if slots[s] and al[s] >> c & 1)

    terms = [
        (coef, al)
        for coef, al in _terms(slots, k.pool, allowed, k.alternatives, _requires(k), _forbids(k))
        if all(seatset(al, c) for c in cards)
    ]
    if not terms:
        return None
    shared: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    other: dict[tuple[int, tuple[tuple[int, ...], ...]], list[int]] = {}
    for c in cards:
        sig = tuple(seatset(al, c) for _coef, al in terms)
        kk = 0 if key is None else key(c)
        if all(x == sig[0] for x in sig):
            shared.setdefault((kk, sig[0]), []).append(c)
        else:
            other.setdefault((kk, sig), []).append(c)
    common = [
        (cs, seats, bool(kk))
        for (kk, seats), cs in sorted(shared.items(), key=lambda t: (t[0][0], len(t[1])))
    ]
    ordered = sorted(other.items(), key=lambda t: (t[0][0], len(t[1])))
    rest = [
        (coef, [(cs, sig[j], bool(kk)) for (kk, sig), cs in ordered]) for j, (coef, _al) in enumerate(terms)
    ]
    return common, rest


def _product(ring: _Poly, types: Sequence[_Type], x: int = 1) -> int:
    for cards, seats, _c in types:
        x = ring.mul(x, ring.shifts(seats), len(cards))
    return x


def _count(k: Knowledge) -> int:
    split = _split(k, k.allowed) if sum(k.slots) == _popcount(k.pool) else None
    if split is None:
        return 0
    common, rest = split
    ring = _Poly(k.slots, _popcount(k.pool))
    # the terms' own types first (their signed sum has no negative coefficient), then the rest
    tail = sum(coef * _product(ring, types) for coef, types in rest)
    return ring.coef(_product(ring, common, tail))


def count_deals(k: Knowledge) -> int:
    """The exact number of deals consistent with ``k`` (0 if none): the ways to give every
    pool card to a seat allowed to hold it, seat ``s`` getting ``slots[s]`` of them, with every
    alternative satisfied.

    >>> from dsa_widget.crew.cards import mask_of
    >>> pool = mask_of(["P1", "P2", "P3", "P4"])
    >>> k = Knowledge(seats=3, viewer=0, pool=pool, slots=(0, 2, 2), known=(mask_of(["S4"]), 0, 0),
    ...               allowed=(0, pool, pool))
    >>> count_deals(k)
    6
    >>> count_deals(Knowledge(3, 0, pool, (0, 2, 2), (0, 0, 0), (0, pool & ~mask_of(["P1", "P2"]), pool)))
    1
    >>> count_deals(Knowledge(3, 0, pool, (0, 2, 2), (0, 0, 0), (0, pool, pool),
    ...                       alternatives=((1, (mask_of(["P1"]), mask_of(["P4"]))),)))
    5
    """
    _check(k)
    return _count(k)


# ---------------------------------------------------------------------------------------------
# Sampling: type by type, a spread of the type's cards over its seats is drawn with probability
# proportional to its multinomial times the number of consistent completions (the suffix
# products of every inclusion-exclusion term still compatible with the spreads drawn so far).
# ---------------------------------------------------------------------------------------------

_Choice = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]


class _Sampler:
    """The tables for drawing deals uniformly from one knowledge (cached per knowledge): the
    types common to every inclusion-exclusion term first (their completions are the signed sum
    over the terms, one polynomial), then the terms' own types (a term drops out once a spread
    it forbids is drawn)."""

    def __init__(self, k: Knowledge) -> None:
        _check(k)
        self.seats = k.seats
        self.slots = k.slots
        self.count = 0
        self.types: list[tuple[list[int], tuple[int, ...]]] = []
        self.ncommon = 0
        self.common_suf: list[int] = []
        self.terms: list[tuple[int, list[tuple[int, ...]], list[int]]] = []  # coef, seats per type, suffixes
        self.cache: dict[tuple[int, tuple[int, ...], tuple[int, ...]], tuple[list[int], list[_Choice]]] = {}
        self.lists: dict[tuple[int, int], list[int]] = {}
        ring = self.ring = _Poly(k.slots, _popcount(k.pool))
        split = _split(k, k.allowed) if sum(k.slots) == _popcount(k.pool) else None
        if split is None:
            return
        common, rest = split
        for coef, types in rest:
            suf = [1] * (len(types) + 1)
            for i in range(len(types) - 1, -1, -1):
                suf[i] = ring.mul(suf[i + 1], ring.shifts(types[i][1]), len(types[i][0]))
            self.terms.append((coef, [t[1] for t in types], suf))
        tail = sum(coef * suf[0] for coef, _ts, suf in self.terms)
        csuf = [tail] * (len(common) + 1)
        for i in range(len(common) - 1, -1, -1):
            csuf[i] = ring.mul(csuf[i + 1], ring.shifts(common[i][1]), len(common[i][0]))
        self.common_suf = csuf
        self.ncommon = len(common)
        self.count = ring.coef(csuf[0])
        self.types = [(cs, seats) for cs, seats, _c in common]
        if rest:
            for r, (cs, _seats, _c) in enumerate(rest[0][1]):
                self.types.append((cs, tuple(sorted({s for _coef, types in rest for s in types[r][1]}))))

    def coefficients(self, j: int, i: int) -> list[int]:
        """The coefficients of the completions after type i: j = -1 for the common types."""
        got = self.lists.get((j, i))
        if got is None:
            x = self.common_suf[i] if j < 0 else self.terms[j][2][i - self.ncommon]
            got = self.lists[(j, i)] = self.ring.unpack(x)
        return got

    def choices(
        self, i: int, rem: tuple[int, ...], alive: tuple[int, ...]
    ) -> tuple[list[int], list[_Choice]]:
        """Cumulative weights of the spreads of type i, and per spread (the slots left after it,
        the spread, the terms still alive)."""
        key = (i, rem, alive)
        got = self.cache.get(key)
        if got is not None:
            return got
        cards, seats = self.types[i]
        n = len(cards)
        stride = self.ring.stride
        base = sum(x * stride.get(s, 0) for s, x in enumerate(rem))
        common = i < self.ncommon
        cum: list[int] = []
        opts: list[_Choice] = []
        tot = 0
        for comp in _compositions(seats, n, rem):
            pos = base
            w = _FACT[n]
            for s, x in zip(seats, comp, strict=True):
                pos -= x * stride[s]
                w //= _FACT[x]
            if common:
                weight = self.coefficients(-1, i + 1)[pos]
                still = alive
            else:
                weight = 0
                keep = []
                for j in alive:
                    coef, tseats, _suf = self.terms[j]
                    ts = tseats[i - self.ncommon]
                    if any(x and s not in ts for s, x in zip(seats, comp, strict=True)):
                        continue
                    b = self.coefficients(j, i + 1)[pos]
                    if b:
                        weight += coef * b
                        keep.append(j)
                still = tuple(keep)
            if weight > 0:
                tot += w * weight
                cum.append(tot)
                left = list(rem)
                for s, x in zip(seats, comp, strict=True):
                    left[s] -= x
                opts.append((tuple(left), comp, still))
        got = (cum, opts)
        self.cache[key] = got
        return got

    def sample(self, rng: random.Random) -> tuple[int, ...]:
        if self.count <= 0:
            raise InconsistentKnowledge("no deal is consistent with this knowledge")
        hands = [0] * self.seats
        rem = self.slots
        alive = tuple(range(len(self.terms)))
        for i, (cards, seats) in enumerate(self.types):
            cum, opts = self.choices(i, rem, alive)
            rem, comp, alive = opts[bisect_right(cum, rng.randrange(cum[-1]))]
            if len(seats) == 1:
                for c in cards:
                    hands[seats[0]] |= 1 << c
                continue
            order = rng.sample(cards, len(cards))
            pos = 0
            for s, x in zip(seats, comp, strict=True):
                for c in order[pos : pos + x]:
                    hands[s] |= 1 << c
                pos += x
        return tuple(hands)


@lru_cache(maxsize=16)
def _sampler(k: Knowledge) -> _Sampler:
    return _Sampler(k)


def sample_deal(k: Knowledge, rng: random.Random) -> tuple[int, ...]:
    """One deal consistent with ``k``, every consistent deal equally likely: per seat, the mask
    of the pool cards it gets (add ``k.known[s]`` for the whole hand).  Only ``rng`` is used,
    so a seeded ``rng`` gives the same deal every time.  The tables are built once per
    knowledge (kept for the last 16), so drawing many deals from one knowledge is cheap.
    Raises :class:`InconsistentKnowledge` when no deal is consistent.

    >>> from dsa_widget.crew.cards import mask_of, names
    >>> pool = mask_of(["P1", "P2", "P3", "P4"])
    >>> k = Knowledge(3, 0, pool, (0, 2, 2), (mask_of(["S4"]), 0, 0), (0, pool & ~mask_of(["P1"]), pool))
    >>> deal = sample_deal(k, random.Random(7))
    >>> [len(names(m)) for m in deal], "P1" in names(deal[2])
    ([0, 2, 2], True)
    >>> sample_deal(Knowledge(3, 0, pool, (0, 2, 2), (0, 0, 0), (0, 0, pool)), random.Random(1))
    Traceback (most recent call last):
    ...
    dsa_widget.crew.knowledge.InconsistentKnowledge: no deal is consistent with this knowledge
    """
    return _sampler(k).sample(rng)
