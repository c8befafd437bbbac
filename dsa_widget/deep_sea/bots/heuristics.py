"""Simple bots: random-legal and rule-of-thumb heuristics people actually use.

Each heuristic is a *policy* (a small object with ``choose(state, seat,
legal, explain)``) that reads only public things — positions, headings,
carried items and their levels, the air, the path's chip levels — so it runs
both on a :class:`~dsa_widget.deep_sea.view.View` (as a bot) and inside search bots'
playouts on a fast :class:`~dsa_widget.deep_sea.rules.Game` copy.  None of them looks
at a chip's value: they judge items by level.

>>> from dsa_widget import Game
>>> from dsa_widget.deep_sea.bots import make_bot, play_until
>>> g = Game(players=["Ann", "Bob"], seed=4)
>>> _ = play_until(g, [make_bot("baseline"), make_bot("air", seed=1)], until="game")
>>> g.is_over
True
"""

from __future__ import annotations

import math
from typing import Any, ClassVar

from ...core.bots import Bot
from ..rules import LAY_ALL
from ..view import PublicState, View

__all__ = [
    "SPEED",
    "AirAwareBot",
    "BaselineBot",
    "DepthBot",
    "HeuristicBot",
    "RandomBot",
    "TakeNBot",
    "air_needed",
    "distance_home",
]

#: Expected spaces moved per turn while carrying k items: E[max(0, dice sum - k)].
SPEED: tuple[float, ...] = (4.0, 3.0, 2.0, 10 / 9, 4 / 9, 1 / 9) + (0.0,) * 60

_INF = math.inf


def distance_home(s: PublicState, p: int) -> int:
    """Steps diver ``p`` must roll to reach the submarine (other divers are jumped)."""
    pos = s.positions[p]
    if pos == 0:
        return 0
    occupied = 0
    for q, x in enumerate(s.positions):
        if q != p and 0 < x < pos:
            occupied += 1
    return pos - occupied


def _others_load(s: PublicState, p: int) -> int:
    """Items carried by the other divers still in the water (they breathe too)."""
    load = 0
    for q in range(len(s.positions)):
        if q != p and not s.returned[q] and s.positions[q] > 0:
            load += len(s.carrying[q])
    return load


def air_needed(s: PublicState, p: int, k: int, d: int | None = None) -> float:
    """Rough air the divers use while diver ``p``, carrying ``k`` items, swims home:
    (distance / expected speed) turns, each costing every carried item in the water."""
    if d is None:
        d = distance_home(s, p)
    if d == 0:
        return 0.0
    sp = SPEED[k] if k < len(SPEED) else 0.0
    if sp == 0.0:
        return _INF
    return d / sp * (k + _others_load(s, p))


_CHOICE_WORDS = {
    "roll": "roll the dice",
    "back": "turn back",
    "continue": "keep diving",
    "take": "take the chips here",
    "none": "do nothing",
    LAY_ALL: "lay the chips in the order picked up",
}


def choice_words(choice: str, view: Any = None) -> str:
    """A Deep Sea Adventure choice as a player says it (the game's words in the registry: the
    bots' explanations and the table use them; no choice needs the position to be said).

    >>> choice_words("none"), choice_words("drop 1"), choice_words("lay 0")
    ('do nothing', 'put down carried item 2', 'lay carried item 1 next')
    """
    if not isinstance(choice, str):
        return repr(choice)
    if choice in _CHOICE_WORDS:
        return _CHOICE_WORDS[choice]
    verb, _, index = choice.partition(" ")
    if index.isdigit() and verb in ("drop", "lay"):
        item = f"carried item {int(index) + 1}"
        return f"put down {item}" if verb == "drop" else f"lay {item} next"
    return repr(choice)


def _items(k: int) -> str:
    return f"{k} item" + ("" if k == 1 else "s")


def _item_weight(s: PublicState, item: tuple[int, ...]) -> int:
    return sum(s.levels[c] for c in item)


def _lightest(s: PublicState, carry: tuple[tuple[int, ...], ...]) -> int:
    best, bi = 10**9, 0
    for i, item in enumerate(carry):
        w = _item_weight(s, item)
        if w < best:
            best, bi = w, i
    return bi


# ---------------------------------------------------------------------- policies


class Policy:
    """A heuristic on a game-like state; ``choose`` returns ``(choice, reason)``
    (``reason`` is ``None`` unless ``explain``).  Subclasses write :meth:`move`, the rule of
    thumb for a diver's own turn; the sink step is settled here, once for all of them."""

    def choose(
        self, s: PublicState, p: int, legal: tuple[str, ...], explain: bool = False
    ) -> tuple[str, str | None]:
        if legal[0] == LAY_ALL:
            # drowning: the chips' values are unknown to him as to everybody, and no rule of
            # thumb here prefers one stacking of levels to another, so they sink as picked up
            return LAY_ALL, ("my chips sink in the order I picked them up" if explain else None)
        return self.move(s, p, legal, explain)

    def move(
        self, s: PublicState, p: int, legal: tuple[str, ...], explain: bool = False
    ) -> tuple[str, str | None]:
        raise NotImplementedError


class TakeNPolicy(Policy):
    def __init__(self, n: int = 2, min_level: int = 1) -> None:
        self.n, self.min_level = n, min_level

    def move(
        self, s: PublicState, p: int, legal: tuple[str, ...], explain: bool = False
    ) -> tuple[str, str | None]:
        k = len(s.carrying[p])
        if legal[0] == "back":
            if k >= self.n:
                return "back", (f"carrying {k} ≥ {self.n}: turn back" if explain else None)
            return "continue", (f"carrying {k} < {self.n}: keep diving" if explain else None)
        if legal[1] == "take" and not s.heading_up[p] and k < self.n:
            item = s.spaces[s.positions[p]]
            assert item is not None  # "take" is legal only on a space that holds an item
            if max(s.levels[c] for c in item) >= self.min_level:
                return "take", (f"treasure #{k + 1} of {self.n}" if explain else None)
        return "none", ("nothing to do by my rule" if explain else None)


class DepthPolicy(Policy):
    def __init__(self, depth: int = 12, carry: int = 3) -> None:
        self.depth, self.carry = depth, carry

    def move(
        self, s: PublicState, p: int, legal: tuple[str, ...], explain: bool = False
    ) -> tuple[str, str | None]:
        k = len(s.carrying[p])
        pos = s.positions[p]
        deep = pos >= min(self.depth, len(s.spaces) - 1)
        if legal[0] == "back":
            if deep:
                return "back", (f"at depth {pos} ≥ {self.depth}: head up" if explain else None)
            return "continue", (f"depth {pos} < {self.depth}: keep diving" if explain else None)
        if legal[1] == "take":
            if s.heading_up[p] and k < self.carry:
                return "take", (f"collecting on the way up ({k + 1}/{self.carry})" if explain else None)
            if not s.heading_up[p] and deep and k == 0:
                return "take", (f"reached depth {pos}: take one and turn back" if explain else None)
        return "none", ("nothing to do by my rule" if explain else None)


class AirAwarePolicy(Policy):
    def __init__(self, margin: float = 2.0, carry: int = 3, min_level: int = 2) -> None:
        self.margin, self.carry, self.min_level = margin, carry, min_level

    def move(
        self, s: PublicState, p: int, legal: tuple[str, ...], explain: bool = False
    ) -> tuple[str, str | None]:
        carry = s.carrying[p]
        k = len(carry)
        air = s.air
        d = distance_home(s, p)
        if legal[0] == "back":
            # air is counted before this turn's breath
            need = air_needed(s, p, k, d) + k
            if k >= self.carry:
                return "back", (f"carrying {_items(k)}, my most: turn back" if explain else None)
            if need + self.margin >= air:
                return "back", (
                    f"air {air}, ≈{need:.1f} needed to get home with {_items(k)}: turn back"
                    if explain
                    else None
                )
            return "continue", (
                f"air {air} comfortably above ≈{need:.1f} needed: keep diving" if explain else None
            )
        if legal[1] == "take":
            if k >= self.carry:
                return "none", (f"already carrying {k}" if explain else None)
            item = s.spaces[s.positions[p]]
            assert item is not None  # "take" is legal only on a space that holds an item
            lvl = max(s.levels[c] for c in item)
            # late in the air supply any treasure will do
            if lvl < self.min_level and not s.heading_up[p] and air > 12:
                return "none", (f"level {lvl} too shallow to slow down for" if explain else None)
            need = air_needed(s, p, k + 1, d)
            if need + self.margin < air:
                return "take", (f"air {air} > ≈{need:.1f} needed with {_items(k + 1)}" if explain else None)
            return "none", (f"taking it would need ≈{need:.1f} air of {air}" if explain else None)
        # on a blank carrying items: put down the lightest one if we cannot make it home
        if s.heading_up[p] and k > 0:
            need = air_needed(s, p, k, d)
            if need > air:
                i = _lightest(s, carry)
                return f"drop {i}", (
                    f"need ≈{need:.1f} air of {air}: drop the lightest item" if explain else None
                )
        return "none", ("keep what I carry" if explain else None)


class BaselinePolicy(Policy):
    def __init__(
        self, air_start: int = 23, middle: float = 0.5, carry: int = 2, up_factor: float = 2.0
    ) -> None:
        self.air_start, self.middle, self.carry, self.up_factor = air_start, middle, carry, up_factor

    def move(
        self, s: PublicState, p: int, legal: tuple[str, ...], explain: bool = False
    ) -> tuple[str, str | None]:
        carry = s.carrying[p]
        k = len(carry)
        air = s.air
        if legal[0] == "back":
            # it turns back at once after its first treasure
            return (
                ("back", "have a treasure: turn back at once" if explain else None)
                if k
                else ("continue", "keep diving" if explain else None)
            )
        pos = s.positions[p]
        if legal[1] == "take":
            if not s.heading_up[p]:
                if k == 0 and air < self.air_start:
                    return "take", (f"air {air} < {self.air_start}: take one" if explain else None)
                if k == 0 and pos > self.middle * (len(s.spaces) - 1):
                    return "take", ("past the middle of the path: take one" if explain else None)
                return "none", ("dive on without taking" if explain else None)
            d = distance_home(s, p)
            if k >= self.carry:
                return "none", (f"already carrying {_items(k)}, my most" if explain else None)
            if air > self.up_factor * d:
                return "take", (
                    f"air {air} > {self.up_factor:g} × distance home {d}: one more" if explain else None
                )
            return "none", (
                f"air {air} ≤ {self.up_factor:g} × distance home {d}: not safe to take more"
                if explain
                else None
            )
        if k and air < distance_home(s, p):
            i = _lightest(s, carry)
            return f"drop {i}", (f"air {air} < distance home: drop an item" if explain else None)
        return "none", ("keep what I carry" if explain else None)


class PlannerPolicy(Policy):
    """The baseline's plan with the air-aware estimate in place of its fixed numbers."""

    def __init__(
        self, slack: float = 4.0, middle: float = 0.5, carry: int = 2, up_slack: float = 2.0
    ) -> None:
        self.slack, self.middle, self.carry, self.up_slack = slack, middle, carry, up_slack

    def move(
        self, s: PublicState, p: int, legal: tuple[str, ...], explain: bool = False
    ) -> tuple[str, str | None]:
        carry = s.carrying[p]
        k = len(carry)
        air = s.air
        if legal[0] == "back":
            return (
                ("back", "have a treasure: turn back" if explain else None)
                if k
                else ("continue", "keep diving" if explain else None)
            )
        pos = s.positions[p]
        d = distance_home(s, p)
        if legal[1] == "take":
            need = air_needed(s, p, k + 1, d)
            if not s.heading_up[p]:
                if k == 0 and air - need < self.slack:
                    return "take", (
                        f"air {air} nears ≈{need:.1f} needed to get back with it: take it"
                        if explain
                        else None
                    )
                if k == 0 and pos > self.middle * (len(s.spaces) - 1):
                    return "take", ("past the middle of the path: take it" if explain else None)
                if k:
                    return "none", (f"carrying {_items(k)} on the way down: dive on" if explain else None)
                return "none", (
                    f"air {air} leaves ≥{self.slack:g} over ≈{need:.1f} needed: dive on" if explain else None
                )
            if k >= self.carry:
                return "none", (f"already carrying {_items(k)}, my most" if explain else None)
            if air - need > self.up_slack:
                return "take", (f"air {air} > ≈{need:.1f} needed with one more" if explain else None)
            return "none", (f"≈{need:.1f} air needed with one more, of {air}: too close" if explain else None)
        if k and air < air_needed(s, p, k, d):
            i = _lightest(s, carry)
            return f"drop {i}", (
                f"air {air} too short for {_items(k)}: drop the lightest" if explain else None
            )
        return "none", ("keep what I carry" if explain else None)


# ---------------------------------------------------------------------- bots


class RandomBot(Bot):
    """Random-legal: picks any legal choice with equal chance.  A yardstick,
    not an opponent.

    >>> from dsa_widget import Game
    >>> g = Game(players=2, seed=1); g.apply("roll")
    >>> RandomBot(seed=1)(g.view(0), g.legal_choices())
    'none'
    """

    name = "random"
    summary = "picks any legal choice at random: a yardstick"

    def decide(self, view: View, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        c = self.rng.choice(legal)
        return c, {"reason": f"picked at random among {len(legal)}"}


class HeuristicBot(Bot):
    """A bot that follows a fixed rule of thumb (see the subclasses)."""

    def _policy(self) -> Policy:
        raise NotImplementedError

    def _check_knobs(self) -> None:
        self._check_knob_kinds()  # every rule of thumb's knob is a number
        self.policy = self._policy()

    def decide(self, view: View, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        p = view.seat
        choice, reason = self.policy.choose(view, p, legal, True)
        k = len(view.carrying[p])
        return choice, {
            "reason": reason,
            "air": view.air,
            "distance_home": distance_home(view, p),
            "air_needed": round(air_needed(view, p, k), 2),
        }


class TakeNBot(HeuristicBot):
    """Take the first ``n`` treasures met on the way down (of level ≥
    ``min_level``), then turn back and swim home taking nothing more.
    Ignores the air: bold when ``n`` is large."""

    name = "take_n"
    summary = "takes the first few treasures on the way down, then heads home"
    KNOBS: ClassVar[dict[str, Any]] = {"n": 2, "min_level": 1}
    n: int
    min_level: int

    def _policy(self) -> Policy:
        if self.n < 1:
            raise ValueError(f"take_n: n must be at least 1, got {self.n!r}")
        return TakeNPolicy(self.n, self.min_level)


class DepthBot(HeuristicBot):
    """Dive to depth ``depth`` without taking anything, take one treasure there
    and turn back, then collect treasures on the way up until carrying
    ``carry`` items.  Ignores the air."""

    name = "depth"
    summary = "dives to a set depth, takes one treasure there, heads home"
    KNOBS: ClassVar[dict[str, Any]] = {"depth": 12, "carry": 3}
    depth: int
    carry: int

    def _policy(self) -> Policy:
        return DepthPolicy(self.depth, self.carry)


class AirAwareBot(HeuristicBot):
    """Watch the air: keep diving (skipping chips below ``min_level`` while
    the air is plentiful) and take a treasure only if the air the divers will
    breathe on the way home with it stays ``margin`` below what is left; turn
    back when that estimate nears the air left or when carrying ``carry``
    items; on the way up, put down the lightest item when home is out of
    reach.  The estimate: distance home / expected speed turns, each costing
    every item carried in the water."""

    name = "air"
    summary = "keeps an eye on the air and turns back while it can still get home"
    KNOBS: ClassVar[dict[str, Any]] = {"margin": 2.0, "carry": 3, "min_level": 2}
    margin: float
    carry: int
    min_level: int

    def _policy(self) -> Policy:
        return AirAwarePolicy(self.margin, self.carry, self.min_level)


class BaselineBot(HeuristicBot):
    """The baseline of a published C++ MCTS study of this game: dive without
    taking anything until the air drops below 23 or the diver is past the
    middle of the path; take one treasure and turn back at once; on the way up
    take at most one more while the air exceeds twice the distance home; put
    an item down when the air left is less than the distance home.  The knobs
    (``air_start``, ``middle``: fraction of the path, ``carry``: most items,
    ``up_factor``) default to the study's values."""

    name = "baseline"
    summary = "the published C++ study's baseline: fixed rules for taking and turning back"
    KNOBS: ClassVar[dict[str, Any]] = {"air_start": 23, "middle": 0.5, "carry": 2, "up_factor": 2.0}
    air_start: int
    middle: float
    carry: int
    up_factor: float

    def _policy(self) -> Policy:
        return BaselinePolicy(self.air_start, self.middle, self.carry, self.up_factor)


class PlannerBot(HeuristicBot):
    """The baseline's plan with the air counted properly: dive without taking
    until the air the divers will breathe on the way home with one treasure
    (distance / expected speed turns, each costing every carried item in the
    water) comes within ``slack`` of the air left, or past the middle of the
    path; take one and turn back at once; on the way up take more (up to
    ``carry``) while the estimate stays ``up_slack`` under the air left; put
    the lightest item down when home is out of reach."""

    name = "planner"
    summary = "the baseline's plan with the air counted properly (the best rule of thumb here)"
    KNOBS: ClassVar[dict[str, Any]] = {"slack": 4.0, "middle": 0.5, "carry": 2, "up_slack": 2.0}
    slack: float
    middle: float
    carry: int
    up_slack: float

    def _policy(self) -> Policy:
        return PlannerPolicy(self.slack, self.middle, self.carry, self.up_slack)
