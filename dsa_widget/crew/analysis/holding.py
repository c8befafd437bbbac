"""Exact holding chances: who holds which hidden card, who is void in a suit, how many of some
cards a group of seats holds — from one viewer's :class:`~dsa_widget.crew.knowledge.Knowledge`.

The model: every deal consistent with the knowledge is equally likely (a random deal that has
passed the public checks: hand sizes, revealed voids, communicated cards and their bounds,
the *currents* alternatives, and the deal exceptions of R-6.10: the engine redeals a deal in
which one hand holds a set that makes a drawn task impossible, so no such hand is counted).
Players' choices of play carry more information than this model uses, so the figures are
what the cards alone say.  Every figure is an exact :class:`~fractions.Fraction` under this
model, computed by counting deals (no sampling).

>>> from dsa_widget.crew.cards import mask_of
>>> from dsa_widget.crew.knowledge import Knowledge
>>> pool = mask_of(["P7", "P8", "P9", "S3"])
>>> k = Knowledge(seats=3, viewer=0, pool=pool, slots=(0, 2, 2), known=(mask_of(["P1", "S4"]), 0, 0),
...               allowed=(0, pool & ~mask_of(["S3"]), pool))   # seat 1 showed it has no submarine
>>> holding_chances(k)["P9"]
[Fraction(0, 1), Fraction(2, 3), Fraction(1, 3)]
>>> holding_chances(k)["S4"]
[Fraction(1, 1), Fraction(0, 1), Fraction(0, 1)]
>>> void_chances(k)[2]["P"]
Fraction(0, 1)
>>> chance(k, 1, ["P8", "P9"], at_least=2)
Fraction(1, 3)
>>> holding_distribution(k, [1, 2], ["P8", "P9", "S3"])
[Fraction(0, 1), Fraction(0, 1), Fraction(0, 1), Fraction(1, 1)]
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction
from itertools import repeat
from operator import add, le, mul, sub
from typing import Any

from ..cards import DECK, SUIT_MASK, SUITS, card, suit_index
from ..knowledge import (
    InconsistentKnowledge,
    Knowledge,
    _check,
    _dot_index,
    _Poly,
    _popcount,
    _product,
    _Products,
    _split,
    _Type,
)

__all__ = ["chance", "holding_chances", "holding_distribution", "void_chances"]


#: one factor of the terms' own types: (coefficient, types) per distinct part of the terms
_Block = list[tuple[int, list[_Type]]]


def _chain(ring: _Poly, x: int, block: _Block) -> int:
    """x times the signed sum of a (checked, see :func:`_factor`) block's products."""
    return sum(coef * _product(ring, types, x) for coef, types in block)


def _signed_sums(parts: Iterable[tuple[int, list[int]]]) -> tuple[list[int], list[int]]:
    """The sums, coefficient by coefficient, of the lists with a positive and with a negative
    coefficient (times its size): their difference is the signed sum, exactly."""
    pos: list[int] = []
    neg: list[int] = []
    for coef, f in parts:
        g = f if abs(coef) == 1 else list(map(mul, f, repeat(abs(coef))))
        if coef > 0:
            pos = list(map(add, pos, g)) if pos else g
        else:
            neg = list(map(add, neg, g)) if neg else g
    n = max(len(pos), len(neg))
    return pos or [0] * n, neg or [0] * n


def _nonneg_block(ring: _Poly, block: _Block) -> _Block | None:
    """The block, its sign flipped if need be, when its signed sum of products has every
    coefficient from 0 to those of the same types with all the seats the block allows (a count
    of deals of its cards): then a product by it stays a count, fit for :meth:`_Poly.mul`.
    None if it does not."""
    # the coefficients as lists (each product alone is a count: it unpacks), summed by sign
    pos, neg = _signed_sums((coef, ring.unpack(_product(ring, types))) for coef, types in block)
    if all(map(le, pos, neg)):
        block = [(-coef, types) for coef, types in block]
        pos, neg = neg, pos
    union = [
        (cards, tuple(sorted({s for _coef, types in block for s in types[i][1]})), c)
        for i, (cards, _s, c) in enumerate(block[0][1])
    ]
    bound = ring.unpack(_product(ring, union))
    if all(map(le, neg, pos)) and all(map(le, map(sub, pos, neg), bound)):
        return block
    return None


def _factor(ring: _Poly, rest: list[tuple[int, list[_Type]]]) -> list[_Block]:
    """The terms' own types split by suit into independent blocks when the signed sum of the
    terms is the product of the blocks' signed sums (the alternatives of different suits are
    independent: every term is one choice per block, its coefficient the product of theirs).
    A suit that does not split off stays in the last block; with one block, the terms as they
    are.  Every block is checked by :func:`_nonneg_block`; if one fails, no split."""
    if len(rest) < 2:
        return [rest]
    suits = [suit_index(cards[0]) for cards, _s, _c in rest[0][1]]
    left = list(range(len(suits)))  # the type indices not split off yet
    # the terms over those indices: per term, its seats per index, and its coefficient
    cur: dict[tuple[tuple[int, ...], ...], int] = {}
    for coef, types in rest:
        key = tuple(t[1] for t in types)
        cur[key] = cur.get(key, 0) + coef
    found: list[tuple[list[int], dict[tuple[tuple[int, ...], ...], int]]] = []
    for x in sorted(set(suits))[:-1]:
        pa = [j for j, i in enumerate(left) if suits[i] == x]
        pr = [j for j, i in enumerate(left) if suits[i] != x]
        pairs = {(tuple(sig[j] for j in pa), tuple(sig[j] for j in pr)): c for sig, c in cur.items()}
        parts_a = list(dict.fromkeys(a for a, _r in pairs))
        parts_r = list(dict.fromkeys(r for _a, r in pairs))
        if len(pairs) != len(parts_a) * len(parts_r):
            continue  # not every combination is a term
        a0, r0 = parts_a[0], parts_r[0]
        c00 = pairs[(a0, r0)]
        if abs(c00) != 1:
            continue
        ca = {a: pairs[(a, r0)] for a in parts_a}
        cr = {r: pairs[(a0, r)] * c00 for r in parts_r}  # c00 is 1 or -1: its own inverse
        if any(c != ca[a] * cr[r] for (a, r), c in pairs.items()):
            continue
        found.append(([left[j] for j in pa], {a: c for a, c in ca.items() if c}))
        left = [left[j] for j in pr]
        cur = {r: c for r, c in cr.items() if c}
    if not found:
        return [rest]
    found.append((left, cur))
    cards = [t[0] for t in rest[0][1]]
    counted = [t[2] for t in rest[0][1]]
    blocks = []
    sign = 1
    for idx, terms in found:
        block = [
            (c, [(cards[i], seats, counted[i]) for i, seats in zip(idx, sig, strict=True)])
            for sig, c in terms.items()
        ]
        checked = _nonneg_block(ring, block) if block else None
        if checked is None:
            return [rest]
        sign *= 1 if checked[0][0] == block[0][0] else -1
        blocks.append(checked)
    if sign < 0:  # an odd number of flips: not the same product
        return [rest]
    return blocks


class _Tables:
    """The products behind the chances of one knowledge: the types common to every
    inclusion-exclusion term (grouped by suit), then the terms' own types, factored into
    independent blocks by suit where they can be (see :func:`_factor`)."""

    def __init__(self, k: Knowledge) -> None:
        _check(k)
        split = _split(k, k.allowed, key=suit_index) if sum(k.slots) == _popcount(k.pool) else None
        if split is None:
            raise InconsistentKnowledge("no deal is consistent with this knowledge")
        common, rest = split
        self.k = k
        self.ring = ring = _Poly(k.slots, _popcount(k.pool))
        self.blocks = _factor(ring, rest) if rest else []
        tail = 1  # consistent completions: fields >= 0
        for block in self.blocks:
            tail = _chain(ring, tail, block)
        self.common = _Products(ring, k.slots, common, tail)
        self.common.set_head(1)
        self.total = ring.coef(self.common.suf[0])
        if self.total <= 0:
            raise InconsistentKnowledge("no deal is consistent with this knowledge")
        self.runs: dict[int, tuple[int, int]] = {}
        for i, (cards, _s, _c) in enumerate(common):
            x = suit_index(cards[0])
            first, _stop = self.runs.get(x, (i, i))
            self.runs[x] = (first, i + 1)
        #: per suit among the terms' own types, its block (each suit is in one block)
        self.block_of = {suit_index(t[0][0]): b for b, block in enumerate(self.blocks) for t in block[0][1]}
        self._others: dict[int, int] = {}
        self._rest_others: dict[tuple[int, tuple[tuple[int, ...], ...]], int] = {}

    def one_card(self) -> dict[int, list[int]]:
        """Per pool card, per seat: the consistent deals that give the card to the seat."""
        num: dict[int, list[int]] = {}
        for i, (cards, _seats, _c) in enumerate(self.common.types):
            per = self.common.one_card(i)
            for c in cards:
                num[c] = per
        for b, block in enumerate(self.blocks):
            # the head: the common types and the other blocks; then the block's terms
            head = self.common.pre[-1]
            for other in self.blocks[:b] + self.blocks[b + 1 :]:
                head = _chain(self.ring, head, other)
            memo: dict[tuple[str, tuple[tuple[int, ...], ...]], Any] = {}  # same head and tail
            for coef, types in block:
                p = _Products(self.ring, self.k.slots, types, memo=memo)
                p.set_head(head)
                for i, (cards, _seats, _c) in enumerate(types):
                    per = p.one_card(i)
                    for c in cards:
                        acc = num.setdefault(c, [0] * self.k.seats)
                        for s, x in enumerate(per):
                            acc[s] += coef * x
        return num

    def void(self, seat: int, x: int) -> int:
        """The consistent deals that give ``seat`` no pool card of suit ``x`` (an index)."""
        common = self.common
        first, stop = self.runs.get(x, (0, 0))
        b = self.block_of.get(x)
        if b is None:  # the prefix, the suit's run without the seat, the suffix
            y = common.without(common.pre[first], first, stop, seat)
            if y is None:
                return 0
            return common.dot(self.ring.unpack(y), common.suffix(stop))
        # the suit is also among the types of the terms: the common types of other suits and
        # the other blocks (kept per suit) times the suit's run without the seat, against each
        # of the block's terms with the seat removed from its types of the suit
        y = common.without(self._others_of(x), first, stop, seat)
        if y is None:
            return 0
        pos, neg = _signed_sums((coef, self.ring.unpack(z)) for coef, z in self._block_void(b, seat, x))
        if not pos:
            return 0
        a = self.ring.unpack(y)
        return common.dot(a, pos) - common.dot(a, neg)

    def _others_of(self, x: int) -> int:
        """The product of the common types not of suit ``x`` and of the blocks without it."""
        got = self._others.get(x)
        if got is None:
            first, stop = self.runs.get(x, (0, 0))
            types = self.common.types
            got = _product(self.ring, types[:first] + types[stop:])
            for b, block in enumerate(self.blocks):
                if b != self.block_of[x]:
                    got = _chain(self.ring, got, block)
            self._others[x] = got
        return got

    def _block_void(self, b: int, seat: int, x: int) -> list[tuple[int, int]]:
        """(coefficient, product) for the terms of block b, ``seat`` holding none of suit ``x``.

        The products are kept apart (not summed): each is a count, fit for unpacking."""
        block = self.blocks[b]
        types = block[0][1]  # the terms' types are aligned: same cards, other seats
        in_suit = [suit_index(cards[0]) == x for cards, _s, _c in types]
        # terms that agree once the seat is removed are one product: add their coefficients
        coefs: dict[tuple[tuple[int, ...], ...], int] = {}
        for coef, ts in block:
            sig = tuple(
                tuple(s for s in t[1] if s != seat) if m else t[1] for t, m in zip(ts, in_suit, strict=True)
            )
            if all(sig):
                coefs[sig] = coefs.get(sig, 0) + coef
        ring = self.ring
        out = []
        for sig, coef in coefs.items():
            if not coef:
                continue
            # the product of the types of other suits depends only on their seats: kept
            key = (x, tuple(ss for ss, m in zip(sig, in_suit, strict=True) if not m))
            z = self._rest_others.get(key)
            if z is None:
                z = self._rest_others[key] = _product(
                    ring, [(t[0], ss, t[2]) for t, ss, m in zip(types, sig, in_suit, strict=True) if not m]
                )
            for t, ss, m in zip(types, sig, in_suit, strict=True):
                if m:
                    z = ring.mul(z, ring.shifts(ss), len(t[0]))
            out.append((coef, z))
        return out


def holding_chances(k: Knowledge) -> dict[str, list[Fraction]]:
    """For every unplayed card (the pool and the known cards), in deck order: per seat, the
    exact chance that the seat holds it (1 and 0 for a known card).  Each card's chances add up
    to 1 over the seats.  Raises :class:`~dsa_widget.crew.knowledge.InconsistentKnowledge`
    when no deal is consistent with ``k``."""
    tables = _Tables(k)
    total = tables.total
    out: dict[int, list[Fraction]] = {
        c: [Fraction(x, total) for x in v] for c, v in tables.one_card().items()
    }
    for s, m in enumerate(k.known):
        for c in range(len(DECK)):
            if m >> c & 1:
                out[c] = [Fraction(int(t == s)) for t in range(k.seats)]
    return {DECK[c]: out[c] for c in sorted(out)}


def void_chances(k: Knowledge) -> list[dict[str, Fraction]]:
    """Per seat, per suit (``P Y B G S``): the exact chance that the seat holds no unplayed card
    of the suit (known cards included: a seat showing a card of the suit is void with chance 0).
    """
    tables = _Tables(k)
    out: list[dict[str, Fraction]] = []
    for s in range(k.seats):
        row: dict[str, Fraction] = {}
        for x, letter in enumerate(SUITS):
            sm = SUIT_MASK[letter]
            if k.known[s] & sm:
                row[letter] = Fraction(0)
            elif not k.slots[s] or not (k.pool & k.allowed[s] & sm):
                row[letter] = Fraction(1)
            else:
                row[letter] = Fraction(tables.void(s, x), tables.total)
        out.append(row)
    return out


def _seats(k: Knowledge, seats: int | Iterable[int]) -> list[int]:
    group = [seats] if isinstance(seats, int) else list(seats)
    for s in group:
        if not (isinstance(s, int) and 0 <= s < k.seats):
            raise ValueError(f"{s!r} is not a seat of this knowledge (0 to {k.seats - 1})")
    return sorted(set(group))


def _mask(cards: str | int | Iterable[str | int]) -> int:
    if isinstance(cards, (str, int)):
        cards = [cards]
    m = 0
    for c in cards:
        m |= 1 << card(c)
    return m


def holding_distribution(
    k: Knowledge, seats: int | Iterable[int], cards: str | int | Iterable[str | int]
) -> list[Fraction]:
    """The exact distribution of how many of ``cards`` (ids, or card ints) the seat or group of
    seats ``seats`` holds between them: element ``j`` is the chance of exactly ``j`` (played
    cards count for nobody).  The list runs up to the most the group can hold."""
    _check(k)
    group = _seats(k, seats)
    cm = _mask(cards)
    offset = sum(_popcount(k.known[s] & cm) for s in group)
    split = _split(k, k.allowed, key=lambda c: cm >> c & 1) if sum(k.slots) == _popcount(k.pool) else None
    if split is None:
        raise InconsistentKnowledge("no deal is consistent with this knowledge")
    common, rest = split
    cmax = _popcount(cm & k.pool)
    ring = _Poly(k.slots, _popcount(k.pool), group, cmax)

    def product(types: list[tuple[list[int], tuple[int, ...], bool]]) -> int:
        x = 1
        for cs, ss, counted in types:
            x = ring.mul(x, ring.shifts(ss, counted), len(cs))
        return x

    head = ring.unpack(product(common))
    tail = ring.unpack(sum(coef * product(types) for coef, types in rest))
    slots = tuple(k.slots[s] for s in ring.tracked)
    counts: dict[int, int] = {}
    for j in range(cmax + 1):
        ga, gb = _dot_index(ring.dims, (*slots, j))
        counts[j] = sum(map(mul, ga(head), gb(tail)))
    total = sum(counts.values())
    if total <= 0:
        raise InconsistentKnowledge("no deal is consistent with this knowledge")
    top = offset + max((j for j, c in counts.items() if c), default=0)
    return [Fraction(counts.get(j - offset, 0), total) for j in range(top + 1)]


def chance(
    k: Knowledge, seats: int | Iterable[int], cards: str | int | Iterable[str | int], at_least: int = 1
) -> Fraction:
    """The exact chance that the seat (or the group of seats) ``seats`` holds at least
    ``at_least`` of ``cards`` between them.

    For teaching: ``chance(k, 1, "P9")`` is the chance Bob (seat 1) holds ``P9``;
    ``chance(k, others, ["S3", "S4"])`` with ``others`` every seat but the viewer is the chance
    that somebody else holds a submarine higher than the viewer's ``S2``.
    """
    if not isinstance(at_least, int) or at_least < 0:
        raise ValueError(f"at_least must be an int >= 0, not {at_least!r}")
    dist = holding_distribution(k, seats, cards)
    return sum(dist[at_least:], Fraction(0))
