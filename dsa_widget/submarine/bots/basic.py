"""Submarine's simple bots: ``random`` (a uniform legal action) and ``greedy`` (a rule-of-thumb
collector).  Both read only their seat's :class:`~dsa_widget.submarine.view.SubmarineView`.

``greedy`` values a collection by the scoring rules: a treasure of a type it does not own
yet scores a point, a duplicate (or a shell) only becomes a joker.  A card collection costs the
card plus one card to each opponent bathyscaphe at or above the space (SUBMARINE.md §6.5),
a joker collection costs a joker.  It collects while the value is positive, sails to the
column with the best collection its hand can pay for, moves bathyscaphes to spaces holding
new treasures of its hand's colours with few opponents above, and exchanges a card of a
colour nothing useful is left in.

>>> from dsa_widget.submarine.rules import SubmarineGame
>>> from dsa_widget.core.bots import play_bot_move
>>> g = SubmarineGame(3, seed=4)
>>> bots = [GreedyBot(seed=1), RandomBot(seed=2), GreedyBot(seed=3)]
>>> while not g.is_over:
...     _ = play_bot_move(g, bots[g.to_move])
>>> g.result[0] in ("E1", "E2", "E3", "E4")
True
>>> bots[0].explain().startswith("greedy: ")
True
"""

from __future__ import annotations

from collections import Counter
from typing import Any, ClassVar

from ...core import bots as core_bots
from ...core.bots import Bot
from ...core.errors import is_number

__all__ = ["GreedyBot", "RandomBot", "ViewFacts"]


class RandomBot(core_bots.RandomBot):
    """A uniformly random legal action (seeded): the yardstick."""


def _colour(tile: str) -> str:
    return tile[-2:]


def _depth(space: str) -> int:
    return int(space[2])


def _column(space: str) -> int:
    return int(space[0])


class ViewFacts:
    """What the greedy rules need from a view, parsed once."""

    def __init__(self, view: Any) -> None:
        d = view.data
        self.seat: int = view.seat
        self.n = len(d["players"])
        self.options: dict[str, Any] = d["options"]
        self.hand = Counter(d["hand"] or [])
        self.pile = d["pile_sizes"][self.seat]
        self.owned = {t[:3] for t in d["slots"][self.seat]}
        self.jokers: list[str] = list(d["held_jokers"][self.seat])
        self.board_jokers = set(d["board_jokers"])
        self.tiles: dict[str, list[str]] = d["tiles"]
        self.baths: list[list[str | None]] = d["bathyscaphes"]
        self.ship: str = d["ships"][self.seat]
        self.collectable = self.options["board_jokers"] == "collectable"

    def gain(self, tile: str, dup_value: float) -> float:
        """A new treasure type scores 1; a duplicate or a shell becomes a joker."""
        if tile.startswith("T") and tile[:3] not in self.owned:
            return 1.0
        return dup_value

    def payments(self, space: str) -> int:
        """Cards a card collection at ``space`` pays to opponents (§6.5)."""
        col, depth = _column(space), _depth(space)
        per_bathy = self.options["payment_basis"] == "per_bathyscaphe"
        total = 0
        for q, baths in enumerate(self.baths):
            if q == self.seat:
                continue
            k = sum(1 for b in baths if b is not None and _column(b) == col and _depth(b) <= depth)
            total += k if per_bathy else min(k, 1)
        return total

    def tiles_at(self, space: str) -> list[str]:
        return [t for t in self.tiles[space] if self.collectable or t not in self.board_jokers]

    def own_spaces(self, column: int) -> list[str]:
        return sorted({b for b in self.baths[self.seat] if b is not None and _column(b) == column})


class GreedyBot(Bot):
    """Collects what its hand can pay for, by the scoring rules; avoids paying opponents."""

    name = "greedy"
    summary = "collects the new treasures its hand can pay for, avoids paying opponents where it can"
    KNOBS: ClassVar[dict[str, Any]] = {
        "dup_value": 0.3,
        "card_cost": 0.15,
        "pay_cost": 0.25,
        "joker_cost": 0.55,
    }
    dup_value: float
    card_cost: float
    pay_cost: float
    joker_cost: float

    def _check_knobs(self) -> None:
        for k in self.KNOBS:
            v = self.knobs[k]
            if not is_number(v):
                raise ValueError(f"greedy: {k} must be a number, got {v!r}")

    # ------------------------------------------------------------ valuations

    def card_value(self, f: ViewFacts, space: str, tile: str) -> float:
        return f.gain(tile, self.dup_value) - self.card_cost - self.pay_cost * f.payments(space)

    def joker_value(self, f: ViewFacts, tile: str) -> float:
        return f.gain(tile, self.dup_value) - self.joker_cost

    def best_collection(self, f: ViewFacts, spaces: list[str]) -> float:
        """The best value of one collection from ``spaces`` (``-inf`` if none is possible)."""
        best = float("-inf")
        for sp in spaces:
            owed = f.payments(sp)
            for t in f.tiles_at(sp):
                if f.hand[_colour(t)] and (f.options["payment_shortfall"] != "forbid" or f.pile >= owed):
                    best = max(best, self.card_value(f, sp, t))
                if f.jokers:
                    best = max(best, self.joker_value(f, t))
        return best

    def potential(self, f: ViewFacts, space: str) -> float:
        """How good a place ``space`` is to collect from later."""
        best = 0.0
        for t in f.tiles_at(space):
            g = f.gain(t, self.dup_value)
            best = max(best, g if f.hand[_colour(t)] else 0.6 * g)
        return best - self.pay_cost * f.payments(space) + 0.02 * len(f.tiles[space])

    # -------------------------------------------------------------- decisions

    def decide(self, view: Any, legal: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
        if len(legal) == 1:
            return legal[0], {"reason": "the only legal action"}
        f = ViewFacts(view)
        values = {a: self.value(f, view, a) for a in legal}
        best = max(values.values())
        choice = next(a for a in legal if values[a] == best)
        return choice, {"reason": "the best rule-of-thumb value", "values": values}

    def value(self, f: ViewFacts, view: Any, action: str) -> float:
        parts = action.split()
        kind = parts[0]
        if kind == "collect":
            sp, tile = parts[1], parts[2]
            return self.card_value(f, sp, tile) if parts[3] == "card" else self.joker_value(f, tile)
        if kind == "end":
            return 0.0
        if kind == "move":
            return self.potential(f, parts[2]) - self.potential(f, parts[1])
        if kind == "mode":
            if parts[1] == "move":
                return 0.0
            step = view.data["step"]["activated"]
            own = f.baths[f.seat]
            return self.best_collection(f, sorted({x for b in step if (x := own[int(b)]) is not None}))
        if kind == "sail":
            if parts[1] == "end":
                return -0.5
            col = int(parts[1])
            here = self.best_collection(f, f.own_spaces(col))
            pos = 0 if f.ship == "start" else int(f.ship)
            return max(here, 0.0) - 0.03 * (col - pos)
        if kind == "place":
            col = int(parts[1])
            mine = sum(1 for b in f.baths[f.seat] if b is not None and _column(b) == col)
            return max(self.potential(f, f"{col}.1"), self.potential(f, f"{col}.2")) - 0.4 * mine
        if kind == "exchange":
            colour = parts[1]
            useful = sum(
                1
                for sp in f.tiles
                for t in f.tiles_at(sp)
                if _colour(t) == colour and f.gain(t, self.dup_value) >= 1.0
            )
            return 0.1 if useful == 0 else -0.1 * useful
        return 0.0  # pass
