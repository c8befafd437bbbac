"""Deep Sea Adventure as fixed-size numbers: a stable action numbering and an observation
layout, for the PettingZoo environment and the OpenSpiel game (``dsa_widget.adapters``).

**Actions.**  With ``C`` chips in the setup's path (32 in the standard game), the numbers
are::

    0          "back"          turn back toward the submarine
    1          "continue"      keep heading down
    2          "none"          search: do nothing
    3          "take"          search: pick up the item here
    4 + i      "drop i"        search: put carried item i down (i < C)
    4 + C + i  "lay i"         sink step: lay chip i next, in pickup order (i < C)
    4 + 2C     "lay all"       sink step: lay the rest in pickup order

so ``2C + 5`` numbers (69 in the standard game).  Rolling the dice is a chance event, never
a seat's action.

**Observations.**  :attr:`Encoding.layout` lists every field; seats are written *relative*
to the observer (slot 0 is the observer, slot 1 the next seat in turn order, ...), and
slots of seats the game does not have are zeros.  Values are plain numbers (points, spaces,
air), not scaled, except the fields whose name ends in ``_frac``.  Everything comes from
the seat's :class:`~dsa_widget.deep_sea.view.View`: an unknown chip value enters only as the
mean of the values still unseen at its level.

>>> from dsa_widget import Game
>>> enc = Encoding(Game(players=3, seed=2))
>>> enc.num_actions, enc.observation_size
(69, 642)
>>> [(f.name, f.offset, f.size) for f in enc.layout][:3]
[('seat', 0, 6), ('players', 6, 6), ('round', 12, 1)]
>>> enc.action(4 + 32), enc.index("lay all")
('lay 0', 68)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..core.encoding import EncodingError, Field
from ..core.errors import short_repr
from .rules import (
    BACK,
    CONTINUE,
    LAY_ALL,
    NONE,
    OVER,
    ROLL_STEP,
    SEARCH_STEP,
    SINK_STEP,
    TAKE,
    TURN_BACK_STEP,
)
from .view import Item, View

__all__ = ["Encoding"]

MAX_SEATS = 6
_STEPS = (TURN_BACK_STEP, ROLL_STEP, SEARCH_STEP, SINK_STEP, OVER)

_GLOBAL: tuple[tuple[str, int, str], ...] = (
    ("seat", MAX_SEATS, "one-hot: the observer's own seat"),
    ("players", MAX_SEATS, "1 for each relative slot the game has a seat for"),
    ("round", 1, "the round being played (1-based)"),
    ("rounds", 1, "rounds in the game"),
    ("air", 1, "air left in the submarine (never below 0)"),
    ("air_frac", 1, "air left / starting air"),
    ("start_air", 1, "air at the start of each round"),
    ("step", len(_STEPS), "one-hot: turn_back, roll, search, sink, over"),
    ("to_move", MAX_SEATS, "one-hot, relative slot of the seat to act (all 0 at the end)"),
    ("my_turn", 1, "1 when the observer is to act"),
    ("must_turn_back", 1, "1 when the diver to move is forced to turn back"),
    ("breathed", 1, "1 once the diver to move has breathed this turn"),
    ("turn_number", 1, "turns completed so far"),
    ("path_length", 1, "spaces on the path now"),
    ("unseen_count", 4, "by level 1..4: chips whose value the observer has not seen"),
    ("unseen_mean", 4, "by level 1..4: mean of those unseen values (0 when none)"),
    ("laying", 1, "sink step: chips the drowning diver has laid so far"),
)
_DIVER: tuple[tuple[str, str], ...] = (
    ("present", "1 if this slot is a seat"),
    ("position", "space (0 = submarine)"),
    ("position_frac", "space / chips in the setup"),
    ("heading_up", "1 once turned back"),
    ("returned", "1 when back in the submarine this round"),
    ("items", "items carried (a stack counts once)"),
    ("chips", "chips carried"),
    ("level1", "level-1 chips carried"),
    ("level2", "level-2 chips carried"),
    ("level3", "level-3 chips carried"),
    ("level4", "level-4 chips carried"),
    ("carried_known", "sum of the carried values the observer knows"),
    ("carried_expected", "expected value carried, given the observer's knowledge"),
    ("banked", "chips banked"),
    ("banked_known", "sum of the banked values the observer knows"),
    ("banked_expected", "expected banked value, given the observer's knowledge"),
    ("score_known", "1 when the observer knows this seat's score"),
    ("score", "that score (0 when unknown)"),
    ("winner", "1 for a winner once the game is over"),
    ("sinking", "1 while this seat waits to lay, or lays, its chips at the sink step"),
)
_SPACE: tuple[tuple[str, str], ...] = (
    ("exists", "1 if the path has this space now"),
    ("blank", "1 for a blank"),
    ("chips", "chips on it (a stack has several)"),
    ("level1", "its level-1 chips"),
    ("level2", "its level-2 chips"),
    ("level3", "its level-3 chips"),
    ("level4", "its level-4 chips"),
    ("known", "sum of its values the observer knows"),
    ("expected", "its expected value, given the observer's knowledge"),
    *((f"diver{k}", f"1 if the seat in relative slot {k} stands here") for k in range(MAX_SEATS)),
)


class Encoding:
    """Deep Sea Adventure's numbers for the setup of ``state`` (a Game or a View).

    The sizes depend on the number of chips in the setup's path only (seats are padded to
    six), so games with the same path length share one layout.
    """

    def __init__(self, state: Any) -> None:
        levels = getattr(state, "levels", None)
        if levels is None:
            raise TypeError(f"expected a Deep Sea Adventure Game or View, got {type(state).__name__}")
        self.chips = len(levels)
        c = self.chips
        self._actions: tuple[str, ...] = (
            (BACK, CONTINUE, NONE, TAKE)
            + tuple(f"drop {i}" for i in range(c))
            + tuple(f"lay {i}" for i in range(c))
            + (LAY_ALL,)
        )
        self._index = {a: i for i, a in enumerate(self._actions)}
        fields: list[Field] = []
        off = 0
        for name, size, meaning in _GLOBAL:
            fields.append(Field(name, off, size, meaning))
            off += size
        for k in range(MAX_SEATS):
            for name, meaning in _DIVER:
                fields.append(Field(f"diver{k}.{name}", off, 1, f"relative slot {k}: {meaning}"))
                off += 1
        for s in range(1, c + 1):
            for name, meaning in _SPACE:
                fields.append(Field(f"space{s}.{name}", off, 1, f"space {s}: {meaning}"))
                off += 1
        self._layout = tuple(fields)
        self._size = off
        self._diver_off = sum(size for _, size, _ in _GLOBAL)
        self._space_off = self._diver_off + MAX_SEATS * len(_DIVER)
        self._spaces_cache: dict[tuple[Any, ...], list[float]] = {}

    # ---------------------------------------------------------------- actions

    @property
    def num_actions(self) -> int:
        return len(self._actions)

    @property
    def actions(self) -> tuple[str, ...]:
        """Every action, by number."""
        return self._actions

    def action(self, index: int) -> str:
        if type(index) is not int and not hasattr(index, "__index__"):
            raise EncodingError(f"an action number is an int, got {short_repr(index)}")
        i = int(index)
        if not 0 <= i < len(self._actions):
            raise EncodingError(f"action number {i} is out of range 0..{len(self._actions) - 1}")
        return self._actions[i]

    def index(self, action: Any) -> int:
        try:
            return self._index[action]
        except (KeyError, TypeError):
            raise EncodingError(f"{short_repr(action)} is not an action of this setup") from None

    def mask(self, legal: Sequence[Any]) -> list[int]:
        out = [0] * len(self._actions)
        for a in legal:
            out[self.index(a)] = 1
        return out

    # ---------------------------------------------------------------- observations

    @property
    def observation_size(self) -> int:
        return self._size

    @property
    def layout(self) -> tuple[Field, ...]:
        return self._layout

    def observe(self, view: View) -> list[float]:
        """The observation of ``view`` (a seat's knowledge), as :attr:`layout` describes."""
        if len(view.levels) != self.chips:
            raise EncodingError(
                f"this encoding is for setups of {self.chips} chips; the view's has {len(view.levels)}"
            )
        out = [0.0] * self._size
        n = len(view.players)
        me = view.seat
        rel = [(me + k) % n for k in range(n)]  # slot -> seat
        slot = {s: k for k, s in enumerate(rel)}
        known = view.known
        levels = view.levels
        mean = {lv: view.mean_unseen(lv) for lv in (1, 2, 3, 4)}

        def value(c: int) -> tuple[float, float]:
            if c in known:
                v = float(known[c])
                return v, v
            return 0.0, mean[levels[c]]

        out[me] = 1.0
        for k in range(n):
            out[MAX_SEATS + k] = 1.0
        o = 2 * MAX_SEATS
        out[o] = float(view.round)
        out[o + 1] = float(view.rounds)
        out[o + 2] = float(max(0, view.air))
        out[o + 3] = max(0, view.air) / view.start_air
        out[o + 4] = float(view.start_air)
        o += 5
        out[o + _STEPS.index(view.step)] = 1.0
        o += len(_STEPS)
        cur = view.current_player
        if cur is not None and not view.finished:
            out[o + slot[cur]] = 1.0
            out[o + MAX_SEATS] = 1.0 if cur == me else 0.0
        o += MAX_SEATS + 1
        out[o] = 1.0 if view.must_turn_back else 0.0
        out[o + 1] = 1.0 if view.breathed else 0.0
        out[o + 2] = float(view.turn_number)
        out[o + 3] = float(len(view.path) - 1)
        o += 4
        for lv in (1, 2, 3, 4):
            vals = view.unseen.get(lv, ())
            out[o + lv - 1] = float(len(vals))
            out[o + 4 + lv - 1] = mean[lv] if vals else 0.0
        o += 8
        out[o] = float(len(view.laying))
        sinking = set(view.sink_queue)
        width = len(_DIVER)
        for k, s in enumerate(rel):
            b = self._diver_off + k * width
            out[b] = 1.0
            out[b + 1] = float(view.positions[s])
            out[b + 2] = view.positions[s] / self.chips
            out[b + 3] = 1.0 if view.heading_up[s] else 0.0
            out[b + 4] = 1.0 if view.returned[s] else 0.0
            items = view.carrying[s]
            out[b + 5] = float(len(items))
            kn = ex = 0.0
            for it in items:
                for c in it:
                    out[b + 6] += 1.0
                    out[b + 6 + levels[c]] += 1.0
                    a, e = value(c)
                    kn += a
                    ex += e
            out[b + 11] = kn
            out[b + 12] = ex
            banked = view.banked[s]
            out[b + 13] = float(len(banked))
            kn = ex = 0.0
            for c in banked:
                a, e = value(c)
                kn += a
                ex += e
            out[b + 14] = kn
            out[b + 15] = ex
            score = view.scores[s]
            if score is not None:
                out[b + 16] = 1.0
                out[b + 17] = float(score)
            out[b + 18] = 1.0 if view.finished and s in view.winners else 0.0
            out[b + 19] = 1.0 if s in sinking else 0.0
        # The spaces' items depend on the path and on what the observer knows only, which
        # change far less often than the divers move: their part is computed once and kept.
        key = (view.path, levels, tuple(known.items()), mean[1], mean[2], mean[3], mean[4])
        block = self._spaces_cache.get(key)
        if block is None:
            block = self._spaces(view.path, levels, value)
            if len(self._spaces_cache) >= 256:
                self._spaces_cache.clear()
            self._spaces_cache[key] = block
        so = self._space_off
        out[so : so + len(block)] = block
        width = len(_SPACE)
        for s in range(n):
            p = view.positions[s]
            if p > 0 and not view.returned[s]:
                out[so + (p - 1) * width + 9 + slot[s]] = 1.0
        return out

    def _spaces(
        self,
        path: tuple[Item | None, ...],
        levels: tuple[int, ...],
        value: Callable[[int], tuple[float, float]],
    ) -> list[float]:
        """The spaces' part of an observation, its divers' fields left at 0."""
        width = len(_SPACE)
        out = [0.0] * (self.chips * width)
        for i, item in enumerate(path[1:]):
            b = i * width
            out[b] = 1.0
            if item is None:
                out[b + 1] = 1.0
                continue
            kn = ex = 0.0
            for c in item:
                out[b + 2] += 1.0
                out[b + 2 + levels[c]] += 1.0
                a, e = value(c)
                kn += a
                ex += e
            out[b + 7] = kn
            out[b + 8] = ex
        return out
