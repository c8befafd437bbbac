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
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Mapping

from .setup import Options

if TYPE_CHECKING:
    from .rules import Game

__all__ = ["View"]

Item = tuple[int, ...]


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

    @classmethod
    def of(cls, game: "Game", seat: int, *, knower: int | None | str = "seat") -> "View":
        """The view of ``seat``.  ``knower=None`` gives the knowledge of an onlooker instead
        (a shared screen): only what every player knows, even under ``reveal="owner"``."""
        n = game._n
        if not isinstance(seat, int) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat!r}")
        if knower == "seat":
            knower = seat
        over = game.is_over
        # What a seat knows changes only when chips are banked (at a round's end), so it is
        # computed once per (knower, round) and kept on the game.
        key = (knower, game._round, over)
        cache = game._vcache
        hit = cache.get(key)
        if hit is None:
            public = game.setup.options.reveal == "public" or over
            known: dict[int, int] = {}
            for q in range(n):
                if public or q == knower:
                    for c in game._banked[q]:
                        known[c] = game._val[c]
            pool: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
            for c, (lv, val) in enumerate(zip(game._lv, game._val)):
                if c not in known:
                    pool[lv].append(val)
            scores = tuple(game._score[q] if (public or q == knower) else None for q in range(n))
            hit = (known, {lv: tuple(sorted(v)) for lv, v in pool.items()}, scores, tuple(game._banked))
            cache[key] = hit
        known, unseen, scores, banked = hit
        # A frozen dataclass's __init__ sets each field through object.__setattr__; filling
        # __dict__ at once is the same object, built twice as fast (bots take many views).
        view = object.__new__(cls)
        view.__dict__.update(
            seat=seat,
            players=game.setup.players,
            options=game.setup.options,
            rounds=game.setup.rounds,
            start_air=game.setup.air,
            round=game._round,
            air=game._air,
            step=game._step,
            current_player=game._player,
            legal=game._legal,
            must_turn_back=game.must_turn_back,
            path=tuple(game._path),
            levels=game._lv,
            positions=tuple(game._pos),
            heading_up=tuple(game._up),
            returned=tuple(game._home),
            carrying=tuple(game._carry),
            banked=banked,
            known=dict(known),
            scores=scores,
            unseen=dict(unseen),
            finished=over,
            winners=game._winners,
            breathed=game._breathed,
            last_home=game._last_home,
            turn_number=game._nturns,
        )
        return view

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
            "air": max(0, self.air),
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

    def sample(self, rng: random.Random, *, events: bool = False) -> "Game":
        """A full game consistent with this view: each unknown chip gets a value
        drawn from the unseen values of its level (a *determinization*).

        The result never depends on the true hidden values, only on this view
        and ``rng``; its dice are seeded from ``rng`` too (and copies of the
        sample roll the same dice, which makes comparing choices fair).
        """
        from .rules import Game
        from .setup import Setup

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
            for c, v in zip(ids, vals):
                values[c] = v
        setup = Setup(
            players=self.players,
            air=self.start_air,
            rounds=self.rounds,
            first_player=0,
            path=tuple(zip(self.levels, values)),
            options=self.options,
            seed=None,
        )
        g = Game.__new__(Game)
        n = len(self.players)
        g.setup = setup
        g._n = n
        g._lv = self.levels
        g._val = tuple(values)
        g._path = list(self.path)
        occ = [-1] * len(self.path)
        for q in range(n):
            if self.positions[q]:
                occ[self.positions[q]] = q
        g._occ = occ
        g._pos = list(self.positions)
        g._up = list(self.heading_up)
        g._home = list(self.returned)
        g._carry = list(self.carrying)
        g._banked = list(self.banked)
        g._score = [sum(values[c] for c in b) for b in self.banked]
        g._air = self.air
        g._round = self.round
        g._player = self.current_player
        g._step = self.step
        g._legal = self.legal
        g._breathed = self.breathed
        g._forced = self.must_turn_back
        g._last = self.breathed and self.current_player is not None and self.air <= 0
        g._n_home = sum(self.returned)
        g._last_home = self.last_home
        g._winners = self.winners
        g._turns = None
        g._nturns = self.turn_number
        g._turn = {}
        g._events = [] if events else None
        g._requires = self.options.turn_back_requires_treasure
        g._rng = None
        g._dice = rng.getrandbits(64)  # its own dice, seeded from rng: copies share them for free
        g._vcache = {}
        return g
