"""Exact card chances for Submarine, as :class:`~fractions.Fraction` (SUBMARINE.md §2.3, §6.4, §6.5).

Two kinds of input:

* **plain counts** — a population of cards, how many of them are "marked" (one colour, say), and
  how many are drawn: :func:`exactly`, :func:`at_least`, :func:`chance_lacks`,
  :func:`chance_lacks_any`;
* **a seat's view** (:class:`~dsa_widget.submarine.view.SubmarineView`) — what that seat may know
  and nothing more: :func:`unseen`, :func:`draw_chance`, :func:`payments_owed`,
  :func:`payment_cost`.

>>> from dsa_widget.submarine import SubmarineGame
>>> from dsa_widget.submarine.odds import at_least, chance_lacks, unseen
>>> chance_lacks(12, 60, 3)  # an opening hand of 3 from the 60-card deck has no card of colour K1
Fraction(4324, 8555)
>>> at_least(2, marked=12, population=60, draws=3)
Fraction(847, 8555)
>>> v = SubmarineGame(3, seed=1).view(0)
>>> v.to_dict()["hand"], sum(unseen(v).values())
(['K2', 'K2', 'K5'], 57)

**The model and its assumptions.**

1. Every card a seat cannot see — the other hands, every pile (its own included) and the undealt
   rest — is treated as one well-shuffled pool: each set of places is equally likely to hold any
   set of the unseen cards.  At the deal this is exactly true (the engine shuffles the whole
   deck).  Later it is an approximation in one respect: the other players' hands were shaped by
   their choices (a player who did not collect a green tile perhaps has no green), and the model
   does not read those choices.  The piles and the undealt cards were never seen by anybody and
   never steered a choice.
2. A card a seat tucked under its own pile while waiting (§5.2) is known to that seat; the view
   does not keep it, so the model forgets it.  This matters only for the last card of the pile.
3. Spent cards are public by colour (they go out of play on a tile of their colour); cards passed
   as payments are never seen (§6.5), so they stay in the unseen pool.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from ..core.errors import is_int, short_repr
from .errors import SubmarineError
from .rules import COLOURS

if TYPE_CHECKING:
    from .view import SubmarineView

__all__ = [
    "OddsError",
    "PaymentCost",
    "at_least",
    "chance_lacks",
    "chance_lacks_any",
    "draw_chance",
    "exactly",
    "payment_cost",
    "payments_owed",
    "unseen",
]


class OddsError(SubmarineError):
    """A question the odds helpers cannot answer (counts out of range, a spectator's hand...)."""


def _check_counts(marked: int, population: int, draws: int) -> None:
    for name, value in (("marked", marked), ("population", population), ("draws", draws)):
        if not is_int(value) or value < 0:
            raise OddsError(f"{name} must be a whole number 0 or more, not {value!r}")
    if marked > population:
        raise OddsError(f"marked ({marked}) cannot exceed the population ({population})")
    if draws > population:
        raise OddsError(f"cannot draw {draws} cards from {population}")


def _check_k(k: int) -> None:
    if not is_int(k):
        raise OddsError(f"the number of cards asked for must be a whole number, not {k!r}")


def exactly(k: int, *, marked: int, population: int, draws: int) -> Fraction:
    """The chance that ``draws`` cards taken at random from ``population`` hold exactly ``k`` of
    the ``marked`` ones (the hypergeometric distribution).

    >>> exactly(1, marked=1, population=4, draws=2)  # one ace among four cards, two drawn
    Fraction(1, 2)
    >>> sum(exactly(k, marked=12, population=60, draws=15) for k in range(16))
    Fraction(1, 1)
    """
    _check_counts(marked, population, draws)
    _check_k(k)
    if k < 0 or k > draws or k > marked or draws - k > population - marked:
        return Fraction(0)
    return Fraction(comb(marked, k) * comb(population - marked, draws - k), comb(population, draws))


def at_least(k: int, *, marked: int, population: int, draws: int) -> Fraction:
    """The chance that ``draws`` random cards from ``population`` hold ``k`` or more of the
    ``marked`` ones (a hypergeometric tail).  ``k <= 0`` is certain.

    >>> at_least(1, marked=12, population=60, draws=3)  # a hand of 3 holds some K1
    Fraction(4231, 8555)
    >>> at_least(0, marked=0, population=5, draws=2), at_least(4, marked=3, population=5, draws=5)
    (Fraction(1, 1), Fraction(0, 1))
    """
    _check_counts(marked, population, draws)
    _check_k(k)
    if k <= 0:
        return Fraction(1)
    return sum(
        (exactly(j, marked=marked, population=population, draws=draws) for j in range(k, draws + 1)),
        Fraction(0),
    )


def chance_lacks(marked: int, population: int, draws: int) -> Fraction:
    """The chance that ``draws`` random cards hold none of the ``marked`` ones:
    C(population - marked, draws) / C(population, draws).

    >>> chance_lacks(12, 60, 15)  # a 15-card deal without a single K1
    Fraction(65231, 3173905)
    """
    return exactly(0, marked=marked, population=population, draws=draws)


def chance_lacks_any(counts: Mapping[str, int], draws: int) -> Fraction:
    """The chance that ``draws`` random cards from a pool with ``counts`` cards of each colour miss
    at least one colour that the pool holds (inclusion–exclusion over the sets of colours missed).

    >>> chance_lacks_any({"K1": 1, "K2": 1}, 1)  # one card of two: the other colour is missing
    Fraction(1, 1)
    >>> chance_lacks_any(dict.fromkeys(("K1", "K2", "K3", "K4", "K5"), 12), 15)
    Fraction(172974247, 1700578299)
    """
    present = [n for n in counts.values() if n]
    population = sum(counts.values())
    _check_counts(0, population, draws)
    if any(n < 0 for n in counts.values()):
        raise OddsError(f"colour counts must be 0 or more: {dict(counts)}")
    total = Fraction(0)
    for size in range(1, len(present) + 1):
        sign = 1 if size % 2 else -1
        for missed in combinations(present, size):
            total += sign * Fraction(comb(population - sum(missed), draws), comb(population, draws))
    return total


# ---------------------------------------------------------------- from a seat's view


def unseen(view: SubmarineView) -> dict[str, int]:
    """The cards ``view``'s seat cannot see, by colour: the deck, less the cards out of play (public
    by colour), less the seat's own hand.  A spectator's view (seat ``None``) sees no hand.

    >>> from dsa_widget.submarine import SubmarineGame
    >>> unseen(SubmarineGame(2, seed=3).view(0))
    {'K1': 12, 'K2': 12, 'K3': 11, 'K4': 11, 'K5': 11}
    """
    d = view.data
    per_colour = 12 if d["options"]["deck"] == "60" else 15
    left = {c: per_colour - int(d["out_of_play"][c]) for c in COLOURS}
    for c in d["hand"] or []:
        left[c] -= 1
    return left


def _seat(view: SubmarineView) -> int:
    if view.seat is None:
        raise OddsError("a spectator's view has no hand and no pile of its own: ask from a seat's view")
    return view.seat


def _colour(colour: str) -> str:
    if colour not in COLOURS:
        raise OddsError(f"unknown colour {colour!r}: one of {', '.join(COLOURS)}")
    return colour


def draw_chance(view: SubmarineView, colour: str, k: int = 1, draws: int | None = None) -> Fraction:
    """The chance that the top ``draws`` cards of the seat's own pile (all of it by default) hold
    at least ``k`` cards of ``colour``, given what the seat sees (assumptions: module docstring).

    >>> from dsa_widget.submarine import SubmarineGame
    >>> v = SubmarineGame(2, seed=3).view(0)  # hand K3 K4 K5, a pile of 12
    >>> draw_chance(v, "K4", 1, draws=3)  # the next three cards hold a K4
    Fraction(64, 133)
    """
    seat = _seat(view)
    pool = unseen(view)
    pile = int(view.data["pile_sizes"][seat])
    n = pile if draws is None else draws
    if n > pile:
        raise OddsError(f"the pile holds {pile} cards, not {n}")
    return at_least(k, marked=pool[_colour(colour)], population=sum(pool.values()), draws=n)


def _space(space: str) -> tuple[int, int]:
    try:
        c, d = (int(x) for x in space.split("."))
    except (AttributeError, ValueError):
        raise OddsError(f"a space is written 'column.depth', like '3.2', not {space!r}") from None
    if not (1 <= c <= 6 and 1 <= d <= 4):
        raise OddsError(f"no space {space!r}: columns 1-6, depths 1-4")
    return c, d


def payments_owed(view: SubmarineView, space: str, seat: int | None = None) -> int:
    """How many cards ``seat`` (the view's seat by default) hands to opponents when it collects a
    tile at ``space`` with a card (§6.5): one per opponent bathyscaphe in that space or above it in
    the column, or one per such opponent under ``payment_basis = "per_opponent"``.  Public
    information only.  This is the number owed; see :func:`payment_cost` for what is actually paid.

    >>> from dsa_widget.submarine import SubmarineGame
    >>> g = SubmarineGame(2, seed=3, start=0)
    >>> for a in ["place 2", "place 2", "place 2", "place 3"]:
    ...     g.apply(a)
    >>> payments_owed(g.view(0), "2.1"), payments_owed(g.view(0), "2.3"), payments_owed(g.view(1), "2.1")
    (1, 1, 2)
    """
    c, d = _space(space)
    who = _seat(view) if seat is None else seat
    seats = len(view.data["bathyscaphes"])
    if not is_int(who) or not 0 <= who < seats:
        raise OddsError(f"seat must be a seat of the game, 0 to {seats - 1}, not {short_repr(who)}")
    per_bathy = view.data["options"]["payment_basis"] == "per_bathyscaphe"
    owed = 0
    for q, spaces in enumerate(view.data["bathyscaphes"]):
        if q == who:
            continue
        above = sum(1 for s in spaces if s is not None and _space(s)[0] == c and _space(s)[1] <= d)
        owed += above if per_bathy else min(above, 1)
    return owed


@dataclass(frozen=True)
class PaymentCost:
    """What collecting one tile with a card costs the collector (§6.4, §6.5).

    ``from_hand``: the cards that leave the hand, all known (the tile's colour, and under
    ``payment_shortfall = "use_hand"`` the shortfall, lowest colour first); ``from_pile``: how
    many cards leave the top of the pile, unseen; ``expected``: the expected number of cards of each
    colour that leave the collector, hand and pile together; ``chance_keeps``: per colour, the
    chance that no card of it leaves the pile."""

    owed: int
    from_hand: tuple[str, ...]
    from_pile: int
    expected: dict[str, Fraction]
    chance_keeps: dict[str, Fraction]

    @property
    def cards(self) -> int:
        """Every card the collection takes away from the collector."""
        return len(self.from_hand) + self.from_pile


def payment_cost(view: SubmarineView, space: str, colour: str) -> PaymentCost:
    """The cost to the view's seat of collecting a ``colour`` tile at ``space`` with a card.

    The matching card leaves the hand (out of play); each payment takes the current top card of the
    seat's own pile, which the seat has never seen, so under the module's model the paid cards are
    a random set of ``from_pile`` cards from the unseen pool.  The shortfall option decides a pile
    too short: ``"forbid"`` raises (the collection is illegal), ``"pay_what_you_can"`` forgives the
    rest, ``"use_hand"`` takes it from the hand, lowest colour first
    (and raises when the hand is short too, as the engine refuses it).

    >>> from dsa_widget.submarine import SubmarineGame
    >>> g = SubmarineGame(2, seed=3, start=0)
    >>> for a in ["place 2", "place 2", "place 2", "place 3"]:
    ...     g.apply(a)
    >>> cost = payment_cost(g.view(1), "2.1", "K1")
    >>> g.hand(1), cost.cards, cost.expected["K1"], cost.chance_keeps["K1"]
    (('K1', 'K2', 'K5'), 3, Fraction(79, 57), Fraction(345, 532))
    """
    seat = _seat(view)
    colour = _colour(colour)
    _space(space)  # a bad space is named before the hand is looked at
    hand = list(view.data["hand"] or [])
    if colour not in hand:
        raise OddsError(
            f"no {colour} card in the hand ({' '.join(hand) or 'empty'}): a card collection needs one"
        )
    owed = payments_owed(view, space)
    pile = int(view.data["pile_sizes"][seat])
    rule = view.data["options"]["payment_shortfall"]
    hand.remove(colour)
    from_hand = [colour]
    from_pile = min(owed, pile)
    if owed > pile:
        if rule == "forbid":
            raise OddsError(f"{owed} payments owed but the pile holds {pile}: the collection is illegal")
        if rule == "use_hand":
            if pile + len(hand) < owed:
                raise OddsError(
                    f"{owed} payments owed but the pile and the rest of the hand hold {pile + len(hand)}: "
                    "the collection is illegal"
                )
            from_hand += sorted(hand, key=COLOURS.index)[: owed - pile]
    pool = unseen(view)
    population = sum(pool.values())
    expected = {c: Fraction(from_hand.count(c)) for c in COLOURS}
    keeps = {}
    for c in COLOURS:
        if population:
            expected[c] += Fraction(from_pile * pool[c], population)
        keeps[c] = chance_lacks(pool[c], population, from_pile)
    return PaymentCost(owed, tuple(from_hand), from_pile, expected, keeps)
