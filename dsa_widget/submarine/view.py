"""What one seat may know in Submarine (SUBMARINE.md §3, "Information visibility").

Public: the board (every tile, board jokers), ships and bathyscaphes, player boards, held jokers,
the size of every hand and pile, the cards out of play (by colour: a card is spent face up on a
tile of its colour), the number of undealt cards, the step in progress.  Private to its owner:
the own hand.  Hidden from everyone, owner included: every pile's order and content, the undealt
cards, and any card passed as a payment or tucked under a pile.  ``to_dict()`` is the JSON a
screen draws; ``sample(rng)`` deals every card the seat cannot see again, at random (``pile``:
what a seat with perfect recall remembers of its own pile, the cards it tucked, kept in place).

>>> import random
>>> from dsa_widget.submarine.rules import SubmarineGame
>>> g = SubmarineGame(2, seed=3)
>>> v = g.view(0)
>>> v.to_dict()["hand"] == list(g.hand(0)), v.to_dict()["hand_counts"], v.to_dict()["pile_sizes"]
(True, [3, 3], [12, 12])
>>> s = v.sample(random.Random(5))
>>> s.view(0) == v, s.hand(0) == g.hand(0)
(True, True)
>>> g.view(None).to_dict()["hand"] is None
True
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .rules import COLOURS

if TYPE_CHECKING:
    from .rules import SubmarineGame

__all__ = ["FORMAT", "SubmarineView"]

FORMAT = "submarine/view@1"
_HIDDEN = ("hands", "piles", "undealt")


@dataclass(frozen=True, eq=True)
class SubmarineView:
    """One seat's knowledge (``seat`` ``None``: a spectator's); compare views with ``==``."""

    seat: int | None
    legal: tuple[str, ...]
    data: dict[str, Any]

    @classmethod
    def of(cls, game: SubmarineGame, seat: int | None) -> SubmarineView:
        d = game.state_dict()
        hands, piles, undealt = (d.pop(k) for k in _HIDDEN)
        legal = game.legal_actions() if seat is not None and seat == game.to_move else ()
        d["hand_counts"] = [len(h) for h in hands]
        d["pile_sizes"] = [len(p) for p in piles]
        d["undealt_count"] = len(undealt)
        d["hand"] = None if seat is None else list(hands[seat])
        if seat != d["active"]:
            # the card a waiting player tucks under its pile is face down (SUBMARINE.md 5.2): the
            # other seats see that an exchange happened, not the card
            d["current_turn"] = ["exchange ?" if a.startswith("exchange ") else a for a in d["current_turn"]]
        d["seat"] = seat
        d["legal"] = list(legal)
        d["format"] = FORMAT
        return cls(seat, legal, d)

    def to_dict(self) -> dict[str, Any]:
        """The view as JSON (a fresh copy)."""
        return copy.deepcopy(self.data)

    def sample(self, rng: random.Random, pile: Sequence[str | None] | None = None) -> SubmarineGame:
        """A full state consistent with this view: every card the seat cannot see is dealt again
        at random (into other hands, every pile, the undealt rest), uniformly among the deals
        that agree with the view.  ``pile`` is what the seat remembers of its own pile (top
        first, a colour or ``None`` per card: the cards it tucked under it, §5.2, that are still
        there); those cards keep their places.  A deal in which E4 (§7.1, dead position) would
        already have ended the game at the last turn's end is never drawn: the game going on
        says some card of a collectable tile's colour is still in play (or a joker is held).

        >>> from dsa_widget.submarine.rules import SubmarineGame
        >>> v = SubmarineGame(2, seed=3).view(0)
        >>> w = v.sample(random.Random(1), pile=[None] * 11 + ["K2"])
        >>> w.pile(0)[-1], w.view(0) == v
        ('K2', True)
        """
        from .rules import SubmarineGame

        d = self.to_dict()
        per_colour = 12 if d["options"]["deck"] == "60" else 15
        left = {c: per_colour - d["out_of_play"][c] for c in COLOURS}
        own = d["hand"] or []
        for c in own:
            left[c] -= 1
        mine = list(pile) if pile is not None else None
        if mine is not None:
            if self.seat is None or len(mine) != d["pile_sizes"][self.seat]:
                raise ValueError("pile: one colour or None per card of the seat's own pile")
            for c in mine:
                if c is not None:
                    if c not in left:
                        raise ValueError(f"pile: {c!r} is not a colour")
                    left[c] -= 1
            if min(left.values()) < 0:
                raise ValueError("pile: more cards of a colour than the view leaves unseen")
        cards = [c for c in COLOURS for _ in range(left[c])]
        full = {k: v for k, v in d.items() if k not in ("hand_counts", "pile_sizes", "undealt_count", "hand")}
        # E4 is tested at every turn's end: if the game went on after one (play_turns) and this
        # turn collected nothing since, the position's cards were not dead then, and still are not
        check_e4 = (
            d["options"]["dead_position_end"]
            and d["play_turns"] > 0
            and d["result"] is None
            and not any(a.startswith("collect ") for a in d["current_turn"])
        )
        for _ in range(100_000):
            pool = cards[:]
            rng.shuffle(pool)
            hands: list[list[str]] = []
            for p, k in enumerate(d["hand_counts"]):
                if p == self.seat:
                    hands.append(list(own))
                else:
                    hands.append(sorted(pool[:k]))
                    del pool[:k]
            piles: list[list[str]] = []
            for p, k in enumerate(d["pile_sizes"]):
                if p == self.seat and mine is not None:
                    piles.append([c if c is not None else pool.pop() for c in mine])
                    continue
                piles.append(pool[:k])
                del pool[:k]
            full.update(hands=hands, piles=piles, undealt=sorted(pool))
            world = SubmarineGame.from_state_dict(full)
            if not (check_e4 and world.dead_position()):
                return world
        raise RuntimeError("no deal agrees with the view")  # pragma: no cover - the truth does
