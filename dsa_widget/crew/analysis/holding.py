"""Exact holding chances: who holds which hidden card, who is void in a suit, how many of some
cards a group of seats holds — from one viewer's :class:`~dsa_widget.crew.knowledge.Knowledge`.

The model: every deal consistent with the knowledge is equally likely (a random deal that has
passed the public checks: hand sizes, revealed voids, communicated cards and their bounds,
the *currents* alternatives).  Players' choices of play carry more information than this
model uses, so the figures are what the cards alone say.  Every figure is an exact
:class:`~fractions.Fraction`, computed by counting deals (no sampling).

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
from operator import mul

from ..cards import DECK, SUIT_MASK, SUITS, card, suit_index
from ..knowledge import (
    InconsistentKnowledge,
    Knowledge,
    _check,
    _dot_index,
    _Poly,
    _popcount,
    _Products,
    _split,
)

__all__ = ["chance", "holding_chances", "holding_distribution", "void_chances"]


class _Tables:
    """The products behind the chances of one knowledge: the types common to every
    inclusion-exclusion term (grouped by suit), then per term its own types."""

    def __init__(self, k: Knowledge) -> None:
        _check(k)
        split = _split(k, k.allowed, key=suit_index) if sum(k.slots) == _popcount(k.pool) else None
        if split is None:
            raise InconsistentKnowledge("no deal is consistent with this knowledge")
        common, rest = split
        self.k = k
        self.ring = ring = _Poly(k.slots, _popcount(k.pool))
        self.rest = [(coef, _Products(ring, k.slots, types)) for coef, types in rest]
        tail = sum(coef * p.suf[0] for coef, p in self.rest)  # consistent completions: fields >= 0
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

    def one_card(self) -> dict[int, list[int]]:
        """Per pool card, per seat: the consistent deals that give the card to the seat."""
        num: dict[int, list[int]] = {}
        for i, (cards, _seats, _c) in enumerate(self.common.types):
            per = self.common.one_card(i)
            for c in cards:
                num[c] = per
        head = self.common.pre[-1]
        for coef, p in self.rest:
            p.set_head(head)
            for i, (cards, _seats, _c) in enumerate(p.types):
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
        y = common.without(common.pre[first], first, stop, seat)
        if y is None:
            return 0
        if not any(suit_index(t[0][0]) == x for _coef, p in self.rest for t in p.types):
            return common.dot(self.ring.unpack(y), common.suffix(stop))
        # the suit is also among the types of the terms: finish the common part, then each term
        y = common.without(y, stop, len(common.types), -1)
        assert y is not None
        tail = 0
        for coef, p in self.rest:
            z = 1
            for cards, seats, _c in p.types:
                ss = tuple(s for s in seats if s != seat) if suit_index(cards[0]) == x else seats
                if not ss:
                    z = 0
                    break
                z = self.ring.mul(z, self.ring.shifts(ss), len(cards))
            tail += coef * z
        return common.dot(self.ring.unpack(y), self.ring.unpack(tail))


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
