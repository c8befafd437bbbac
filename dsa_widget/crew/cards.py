"""The 40 playing cards of *The Crew: Mission Deep Sea* (CREW.md R-2.1), as small integers.

A card is an ``int`` from 0 to 39 in the canonical deck order ``P1…P9, Y1…Y9, B1…B9, G1…G9,
S1…S4``; its public name is the card id (``"P3"``, ``"S4"``).  Sets of cards are bit masks
(``1 << card``), so that the rules, the task statuses and the playouts share one fast
representation.

>>> card("P3"), card("S4"), name(0), name(39)
(2, 39, 'P1', 'S4')
>>> suit(card("G9")), rank(card("G9")), is_coloured(card("S1"))
('G', 9, False)
>>> names(mask_of(["Y1", "P3"]))
['P3', 'Y1']
>>> card("P0")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
dsa_widget.crew.cards.CardError: 'P0' is not a card: a suit P, Y, B, G (ranks 1-9) or S ...
"""

from __future__ import annotations

from collections.abc import Iterable

from ..core.errors import GameError, is_int, short_repr

__all__ = [
    "ALL",
    "COLOURS",
    "COLOURED",
    "DECK",
    "NCARDS",
    "SUBMARINES",
    "SUITS",
    "SUIT_MASK",
    "CardError",
    "bits",
    "card",
    "cards_of",
    "is_coloured",
    "mask_of",
    "name",
    "names",
    "rank",
    "suit",
    "suit_index",
]

#: suits in deck order; ``S`` is the submarines
SUITS = ("P", "Y", "B", "G", "S")
#: the four colours (submarines are not a colour)
COLOURS = ("P", "Y", "B", "G")
NCARDS = 40
#: every card id in canonical order (R-2.1)
DECK: tuple[str, ...] = tuple(f"{s}{r}" for s in COLOURS for r in range(1, 10)) + tuple(
    f"S{r}" for r in range(1, 5)
)
_INDEX = {c: i for i, c in enumerate(DECK)}
ALL = (1 << NCARDS) - 1
#: bit mask of each suit's cards, by suit letter
SUIT_MASK: dict[str, int] = {s: sum(1 << _INDEX[c] for c in DECK if c[0] == s) for s in SUITS}
COLOURED = ALL & ~SUIT_MASK["S"]
SUBMARINES = SUIT_MASK["S"]

# per-card tables (index = card)
_SUIT = tuple(c[0] for c in DECK)
_SUIT_INDEX = tuple(SUITS.index(c[0]) for c in DECK)
_RANK = tuple(int(c[1:]) for c in DECK)


class CardError(GameError):
    """A card id that names no card."""


def card(cid: object) -> int:
    """The card with id ``cid`` (``"P3"``); an ``int`` 0–39 is returned as it is."""
    if is_int(cid) and 0 <= cid < NCARDS:
        return cid
    if isinstance(cid, str) and cid in _INDEX:
        return _INDEX[cid]
    raise CardError(
        f"{short_repr(cid)} is not a card: a suit P, Y, B, G (ranks 1-9) or S (ranks 1-4) "
        "and a rank, like 'P3' or 'S4'"
    )


def name(c: int) -> str:
    """The id of card ``c``."""
    return DECK[c]


def suit(c: int) -> str:
    """``"P"``, ``"Y"``, ``"B"``, ``"G"`` or ``"S"``."""
    return _SUIT[c]


def suit_index(c: int) -> int:
    """0–4 in the order of :data:`SUITS`."""
    return _SUIT_INDEX[c]


def rank(c: int) -> int:
    """1–9 (1–4 for a submarine)."""
    return _RANK[c]


def is_coloured(c: int) -> bool:
    """True for P, Y, B, G cards; False for submarines."""
    return _SUIT[c] != "S"


def mask_of(cards: Iterable[object]) -> int:
    """The bit mask of some cards (ids or ints)."""
    m = 0
    for c in cards:
        m |= 1 << card(c)
    return m


def bits(mask: int) -> list[int]:
    """The cards of a mask, in deck order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def names(mask: int) -> list[str]:
    """The ids of the cards of a mask, in deck order."""
    return [DECK[c] for c in bits(mask)]


def cards_of(suit_letter: str) -> list[int]:
    """The cards of one suit, low to high."""
    return bits(SUIT_MASK[suit_letter])
