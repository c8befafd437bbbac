"""Per-player views: exactly what one player may know (hidden information).

A chip's value is hidden from everybody, its carrier included, until the chip
is banked (RULES.md); with ``reveal="owner"`` a banked chip is known only to
its owner until the game ends.  A :class:`View` holds the board with chip
*identities* (a chip's id is its index in the starting path, which everybody
saw) and levels, the values that the player knows, and the multiset of values
still unseen for each level.  Bots and the widget are given views, never the
:class:`~dsa_widget.deep_sea.rules.Game`.

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], seed=5)
>>> v = g.view(0)
>>> v.known, v.unseen[1]
({}, (0, 0, 1, 1, 2, 2, 3, 3))
>>> v.expected_value(v.path[1])   # an unseen level-1 chip
1.5
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from .setup import Options

if TYPE_CHECKING:
    from .rules import Game

__all__ = ["PublicState", "View"]

Item = tuple[int, ...]


class PublicState(Protocol):
    """What every seat sees of a position, by the names both a
    :class:`~dsa_widget.deep_sea.rules.Game` and a :class:`View` use: heuristics written
    against it run on either (on a game copy inside playouts, on a view as a bot)."""

    @property
    def positions(self) -> Sequence[int]: ...
    @property
    def heading_up(self) -> Sequence[bool]: ...
    @property
    def returned(self) -> Sequence[bool]: ...
    @property
    def carrying(self) -> Sequence[tuple[Item, ...]]: ...
    @property
    def spaces(self) -> Sequence[Item | None]: ...
    @property
    def levels(self) -> Sequence[int]: ...
    @property
    def air(self) -> int: ...
    @property
    def breathed(self) -> bool: ...
    @property
    def round(self) -> int: ...


@dataclass(frozen=True)
class View:
    """What player ``seat`` may know of a game at one moment.

    ``path[0]`` is the submarine (always ``None``); ``path[i]`` is space
    ``i``: ``None`` for a blank, else an item (a tuple of chip ids; one id is
    a single chip, more a stack).  ``levels[c]`` is chip ``c``'s level;
    ``known`` maps the ids whose value this player knows to that value.
    """

    seat: int
    players: tuple[str, ...]
    options: Options
    rounds: int
    start_air: int
    round: int
    air: int
    step: str
    current_player: int | None
    legal: tuple[str, ...]
    must_turn_back: bool
    path: tuple[Item | None, ...]
    levels: tuple[int, ...]
    positions: tuple[int, ...]
    heading_up: tuple[bool, ...]
    returned: tuple[bool, ...]
    carrying: tuple[tuple[Item, ...], ...]
    banked: tuple[tuple[int, ...], ...]
    known: Mapping[int, int]
    scores: tuple[int | None, ...]
    unseen: Mapping[int, tuple[int, ...]]
    finished: bool
    winners: tuple[int, ...]
    breathed: bool
    last_home: int
    turn_number: int
    #: the sink step (``step == "sink"``): the seats still to lay their chips, the first laying now;
    #: the orders chosen so far ``((seat, chip indices), ...)``; what the first has laid so far.
    #: Chips are numbered in pickup order, stacks broken into their chips (levels are public).
    sink_queue: tuple[int, ...] = ()
    sink_done: tuple[tuple[int, tuple[int, ...]], ...] = ()
    laying: tuple[int, ...] = ()

    @classmethod
    def of(cls, game: Game, seat: int, *, knower: int | None | str = "seat") -> View:
        """The view of ``seat`` (the same as ``game.view(seat)``).  ``knower=None`` gives the
        knowledge of an onlooker instead (a shared screen): only what every player knows, even
        under ``reveal="owner"``."""
        return game.view(seat, knower=knower)

    # ---------------------------------------------------------------- helpers

    @property
    def n_players(self) -> int:
        return len(self.players)

    @property
    def my_position(self) -> int:
        return self.positions[self.seat]

    @property
    def my_items(self) -> tuple[Item, ...]:
        return self.carrying[self.seat]

    @property
    def path_length(self) -> int:
        return len(self.path) - 1

    @property
    def spaces(self) -> tuple[Item | None, ...]:
        """The same as :attr:`path` (the name a :class:`~dsa_widget.deep_sea.rules.Game` uses)."""
        return self.path

    def mean_unseen(self, level: int) -> float:
        """The expected value of an unseen chip of ``level`` given what is known."""
        vals = self.unseen.get(level, ())
        return sum(vals) / len(vals) if vals else 0.0

    def expected_value(self, item: Item | None) -> float:
        """The expected value of an item (chip or stack) given what this player knows."""
        if item is None:
            return 0.0
        return sum(self.known[c] if c in self.known else self.mean_unseen(self.levels[c]) for c in item)

    def item_levels(self, item: Item) -> list[int]:
        return [self.levels[c] for c in item]

    def to_dict(self) -> dict[str, Any]:
        """A JSON-friendly form: items as lists of ``[level, value or "?"]``."""

        def item(it: Item | None) -> Any:
            if it is None:
                return "blank"
            return [[self.levels[c], self.known.get(c, "?")] for c in it]

        return {
            "seat": self.seat,
            "players": list(self.players),
            "round": self.round,
            "rounds": self.rounds,
            "air": self.air,
            "start_air": self.start_air,
            "step": self.step,
            "current_player": self.current_player,
            "legal": list(self.legal),
            "path": [item(x) for x in self.path[1:]],
            "divers": [
                {
                    "position": self.positions[q],
                    "heading": "up" if self.heading_up[q] else "down",
                    "returned": self.returned[q],
                    "carrying": [item(it) for it in self.carrying[q]],
                }
                for q in range(self.n_players)
            ],
            "scores": list(self.scores),
            "unseen": {str(k): list(v) for k, v in self.unseen.items()},
            "finished": self.finished,
            "winners": list(self.winners),
        }

    # ---------------------------------------------------------------- determinization

    def sample(self, rng: random.Random, *, events: bool = False) -> Game:
        """A full game consistent with this view: each unknown chip gets a value
        drawn from the unseen values of its level (a *determinization*).

        The result never depends on the true hidden values, only on this view
        and ``rng``; its dice are seeded from ``rng`` too (and copies of the
        sample roll the same dice, which makes comparing choices fair).
        """
        from .rules import Game

        values = [0] * len(self.levels)
        by_level: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
        for c, lv in enumerate(self.levels):
            if c in self.known:
                values[c] = self.known[c]
            else:
                by_level[lv].append(c)
        for lv, ids in by_level.items():
            vals = list(self.unseen[lv])
            rng.shuffle(vals)
            for c, v in zip(ids, vals, strict=False):
                values[c] = v
        # its own dice, seeded from rng: copies of the sample roll the same dice for free
        return Game.from_view(self, values, rng=rng.getrandbits(64), events=events)
