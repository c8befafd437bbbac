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

import array
import struct
from collections.abc import Callable, Sequence
from itertools import chain, compress
from operator import ne
from typing import TYPE_CHECKING, Any

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

if TYPE_CHECKING:
    from .rules import Game

__all__ = ["Encoding", "ObservationTracker"]

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
        self._plans: dict[tuple[int, bool], _Plan] = {}  # for trackers, by seats and list buffers
        self._pieces: dict[Any, _Knowledge] = {}  # the trackers' shared encoded pieces
        self._limits = _limits(state)
        self._chip_levels = tuple(levels)

    def bounds(self) -> tuple[list[float], list[float]]:
        """Each feature's range in every state of the setup this encoding was built from (its
        players ``n``, air ``A``, rounds ``R``, ``C`` chips, ``count[l]`` chips and top value
        ``top[l]`` at level ``l``; ``V``, the sum of every chip's top value of its level, bounds
        any sum of values, known or expected).  The low is 0 for every feature; the high is 1
        for one-hots, flags and ``_frac`` fields, and else: ``round``, ``rounds`` R; ``air``,
        ``start_air`` A; ``turn_number`` R (A + 1 + n (C + 4)) (a turn either costs air or
        moves an empty-handed diver two spaces or more, down then up); ``path_length``,
        ``laying``, ``position``, ``items``, ``chips``, ``banked`` and a space's ``chips`` C;
        ``unseen_count`` and the ``level`` counts ``count[l]``; ``unseen_mean`` ``top[l]``;
        sums of values and ``score`` V."""
        n, air, rounds, count, top = self._limits
        c = self.chips
        total = float(sum(top[lv - 1] for lv in self._chip_levels))
        glob: dict[str, list[float]] = {
            "round": [rounds],
            "rounds": [rounds],
            "air": [air],
            "start_air": [air],
            "turn_number": [rounds * (air + 1 + n * (c + 4))],
            "path_length": [c],
            "unseen_count": list(count),
            "unseen_mean": list(top),
            "laying": [c],
        }
        diver = {"position": c, "items": c, "chips": c, "banked": c, "score": total}
        diver |= {f"level{lv}": count[lv - 1] for lv in (1, 2, 3, 4)}
        diver |= dict.fromkeys(
            ("carried_known", "carried_expected", "banked_known", "banked_expected"), total
        )
        space = {"chips": c, "known": total, "expected": total}
        space |= {f"level{lv}": count[lv - 1] for lv in (1, 2, 3, 4)}
        high: list[float] = []
        for f in self._layout:
            head, _, tail = f.name.partition(".")
            if not tail:
                high += [float(x) for x in glob.get(head, [1.0] * f.size)]
            else:
                high.append(float((diver if head.startswith("diver") else space).get(tail, 1.0)))
        return [0.0] * self._size, high

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

    def render_text(self, game: Game) -> str:
        """The adapters' ``ansi`` picture: the public board
        (:func:`~dsa_widget.deep_sea.picture.board_text`)."""
        from .picture import board_text

        return board_text(game)

    def render_rgb(self, game: Game) -> Any:
        """The adapters' ``rgb_array`` picture: the public board as pixels
        (:func:`~dsa_widget.deep_sea.picture.board_rgb`)."""
        from .picture import board_rgb

        return board_rgb(game)

    def render_svg(self, game: Game) -> str:
        """The adapters' ``svg`` picture: the public board
        (:func:`~dsa_widget.deep_sea.render.game_svg`)."""
        from .render import game_svg

        return game_svg(game)

    def tracker(self, game: Game, new_buffer: Callable[[int], Any] | None = None) -> ObservationTracker:
        """An :class:`ObservationTracker` of ``game``: every seat's :meth:`observe` kept up to
        date as the game goes on, rewriting only what changed (``new_buffer(size)`` makes each
        seat's float32 buffer; an ``array.array("f")`` by default)."""
        n = len(game.players)
        return ObservationTracker(
            self, game, new_buffer, self._plan(n, False), self._plan(n, True), self._pieces
        )

    def _plan(self, n: int, lists: bool) -> _Plan:
        """The trackers' shared :class:`_Plan` for ``n`` seats (``lists``: for list buffers)."""
        plan = self._plans.get((n, lists))
        if plan is None:
            plan = self._plans[n, lists] = _Plan(n, self.chips, lists)
        return plan

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


# ---------------------------------------------------------------------- incremental observations


def _limits(state: Any) -> tuple[int, int, int, list[int], list[int]]:
    """What the bounds of an observation depend on: players, air, rounds, chips by level and
    each level's top value (from a Game's setup, or from a View: every value is known to it
    or among its unseen ones)."""
    levels: tuple[int, ...] = tuple(state.levels)
    count = [levels.count(lv) for lv in (1, 2, 3, 4)]
    top = [0, 0, 0, 0]
    setup = getattr(state, "setup", None)
    if setup is not None and hasattr(setup, "path"):
        pairs: list[tuple[int, int]] = [(lv, v) for lv, v in setup.path]
        air, rounds = setup.air, setup.rounds
    else:
        pairs = [(levels[c], v) for c, v in state.known.items()]
        pairs += [(lv, v) for lv, vals in state.unseen.items() for v in vals]
        air, rounds = state.start_air, state.rounds
    for lv, v in pairs:
        top[lv - 1] = max(top[lv - 1], v)
    return len(state.players), int(air), int(rounds), count, top


def _global_offsets() -> dict[str, int]:
    out: dict[str, int] = {}
    off = 0
    for name, size, _ in _GLOBAL:
        out[name] = off
        off += size
    return out


_AT = _global_offsets()
_O_ROUND = _AT["round"]
_O_ROUNDS = _AT["rounds"]
_O_AIR = _AT["air"]
_O_AIR_FRAC = _AT["air_frac"]
_O_START_AIR = _AT["start_air"]
_O_STEP = _AT["step"]
_O_TO_MOVE = _AT["to_move"]
_O_MY_TURN = _AT["my_turn"]
_O_MUST = _AT["must_turn_back"]
_O_BREATHED = _AT["breathed"]
_O_TURN = _AT["turn_number"]
_O_PATH_LENGTH = _AT["path_length"]
_O_UNSEEN_COUNT = _AT["unseen_count"]
_O_UNSEEN_MEAN = _AT["unseen_mean"]
_O_LAYING = _AT["laying"]
_DIVER_WIDTH = len(_DIVER)
_SPACE_WIDTH = len(_SPACE)
_DIVER_OFF = sum(size for _, size, _ in _GLOBAL)
_SPACE_OFF = _DIVER_OFF + MAX_SEATS * _DIVER_WIDTH
_STEP_AT = {s: _O_STEP + i for i, s in enumerate(_STEPS)}
#: a snapshot value equal to nothing the game holds: the field is written at the next update
_UNSET: Any = object()
_PACK_SPACE = struct.Struct(f"{_SPACE_WIDTH}f").pack
_PACK_DIVER = struct.Struct(f"{_DIVER_WIDTH}f").pack
_PACK_CARRIED = struct.Struct("8f").pack  # a diver's items, chips, levels 1..4, known, expected


def _float_array(size: int) -> Any:
    return array.array("f", bytes(4 * size))


def _floats(packed: bytes) -> list[float]:
    """Packed float32 numbers as Python floats (each the float32's exact value)."""
    return array.array("f", packed).tolist()


def _form(know: _Knowledge, packed: bytes) -> Any:
    """An encoded piece as the seat writes it: its bytes, or its floats for a list buffer."""
    return _floats(packed) if know.lists else packed


def _join(know: _Knowledge, pieces: list[Any]) -> Any:
    """Encoded pieces one after the other, in ``know``'s form."""
    return list(chain.from_iterable(pieces)) if know.lists else b"".join(pieces)


class _Knowledge:
    """What one seat knows during one round (its view's ``known``, unseen counts and means,
    and scores), with the encoded pieces that depend on nothing else."""

    __slots__ = (
        "known",
        "mean",
        "counts",
        "scores",
        "items",
        "singles",
        "carried",
        "regions",
        "divers",
        "middle",
        "lists",
    )

    def __init__(
        self,
        known: dict[int, int],
        mean: list[float],
        counts: list[int],
        scores: tuple[int | None, ...],
        lists: bool = False,
        like: _Knowledge | None = None,
    ) -> None:
        self.lists = lists  # the pieces below are lists of floats (else bytes): a list buffer's
        self.known = known
        self.mean = mean  # by level (index 0 unused)
        self.counts = counts  # by level (index 0 unused)
        self.scores = scores
        # the pieces that depend on the chips' levels, the values known and the unseen ones'
        # means only: shared with ``like``, a knowledge of the same (another seat's, or another
        # game's of the same chips)
        self.items: dict[Item | None, Any] = {} if like is None else like.items  # a space's fields
        self.singles: list[Any] = [None] * 5 if like is None else like.singles  # a lone unknown chip's
        self.carried: dict[tuple[Item, ...], Any] = {} if like is None else like.carried
        self.regions: dict[tuple[Item | None, ...], Any] = {} if like is None else like.regions
        self.divers: dict[int, Any] = {}  # a seat's diver fields that depend on this only
        self.middle: Any = None  # the global fields that depend on the knowledge only


class _Plan:
    """What the trackers of games of ``n`` seats and ``chips`` chips share: where each seat's
    fields are in each seat's observation, and the pieces that never change."""

    def __init__(self, n: int, chips: int, lists: bool = False) -> None:
        self.n = n
        #: the pieces and offsets are for seats whose buffers are lists of floats (else bytes)
        self.lists = lists
        u = 1 if lists else 4  # the size of a float in the buffer's slices
        form: Callable[[bytes], Any] = _floats if lists else bytes
        self.seat_range = range(n)
        # each seat's first fields (its seat, the seats there are) and the absent seats' blocks
        self.heads = []
        for me in range(n):
            head = [0.0] * 2 * MAX_SEATS
            head[me] = 1.0
            head[MAX_SEATS : MAX_SEATS + n] = [1.0] * n
            self.heads.append(form(struct.pack(f"{2 * MAX_SEATS}f", *head)))
        self.absent = form(bytes(4 * _DIVER_WIDTH * (MAX_SEATS - n)))
        self.tail = [form(bytes(4 * _SPACE_WIDTH * k)) for k in range(chips + 1)]
        self.pos_bytes = [form(struct.pack("2f", float(p), p / chips)) for p in range(chips + 1)]
        self.space_at = [u * (_SPACE_OFF + (i - 1) * _SPACE_WIDTH) for i in range(chips + 1)]
        #: by observer: slot -> seat, seat -> slot, and by seat where its fields are (the
        #: bytes of position and position_frac, home, up, the bytes of items ..
        #: carried_expected, sinking, and by space its diver field there: -1 for space 0)
        self.seats: list[
            tuple[
                list[int], list[int], list[int], list[int], list[int], list[int], list[int], list[list[int]]
            ]
        ] = []
        for me in range(n):
            rel = [(me + k) % n for k in range(n)]
            slot = [(s - me) % n for s in range(n)]
            block = [_DIVER_OFF + k * _DIVER_WIDTH for k in slot]
            occ_at = [
                [-1] + [_SPACE_OFF + (p - 1) * _SPACE_WIDTH + 9 + k for p in range(1, chips + 1)]
                for k in slot
            ]
            self.seats.append(
                (
                    rel,
                    slot,
                    [u * (b + 1) for b in block],
                    [b + 4 for b in block],
                    [b + 3 for b in block],
                    [u * (b + 5) for b in block],
                    [b + 19 for b in block],
                    occ_at,
                )
            )


class _Seat:
    """One seat's buffer, where each seat's fields are in it, and the state it was last
    written from (lists by seat)."""

    __slots__ = (
        "buf",
        "plan",
        "unit",
        "mv",
        "out",
        "rel",
        "slot",
        "pos_at",
        "home_at",
        "up_at",
        "carry_at",
        "sink_at",
        "occ_at",
        "key",
        "know",
        "air",
        "step",
        "cur",
        "cur_at",
        "must",
        "breathed",
        "turn",
        "queue",
        "laid",
        "path",
        "pos",
        "up",
        "home",
        "carry",
        "occ",
    )

    def __init__(self, buf: Any, plan: _Plan, me: int) -> None:
        self.buf = buf
        self.plan = plan
        if plan.lists:  # a list of floats: pieces are written as floats, slices count floats
            self.unit = 1
            self.mv = self.out = buf
        else:
            self.unit = 4
            self.mv = memoryview(buf).cast("B")  # its bytes, for writing encoded pieces
            self.out = self.mv.cast("f")  # its floats (a memoryview writes one faster than numpy)
        (
            self.rel,
            self.slot,
            self.pos_at,
            self.home_at,
            self.up_at,
            self.carry_at,
            self.sink_at,
            self.occ_at,
        ) = plan.seats[me]
        self.key: tuple[int, bool] | None = None  # (round, over) of the knowledge written
        self.know: _Knowledge | None = None
        self.forget(plan.n)

    def forget(self, n: int) -> None:
        """Every field that changes within a round is to be written at the next update."""
        self.air = self.step = self.cur = self.must = self.breathed = self.turn = _UNSET
        self.cur_at = -1  # the to_move field set, or -1
        self.queue: tuple[int, ...] = ()  # the sink step's queue written
        self.laid = 0
        self.path: Sequence[Any] = []
        self.pos: Sequence[Any] = [_UNSET] * n
        self.up: Sequence[Any] = [_UNSET] * n
        self.home: Sequence[Any] = [_UNSET] * n
        self.carry: Sequence[Any] = [_UNSET] * n
        self.occ = [-1] * n  # by seat: its diver field set on the path, or -1


class ObservationTracker:
    """Every seat's observation of one live :class:`~dsa_widget.deep_sea.rules.Game`, kept up
    to date: ``observe(seat)`` is exactly ``encoding.observe(game.view(seat))`` (in float32),
    written into that seat's own buffer, which it returns (copy it to keep it).

    Each seat's buffer holds the observation last written, with the state it was written
    from; the next ``observe`` rewrites only the fields whose part of the state changed (a
    diver's position, the air, a space's item, ...), reading the game's public properties,
    where :meth:`Encoding.observe` builds a whole view and vector.  What the seat knows (its
    view's known values, the unseen values and the scores) changes only when chips are
    banked, at the end of a round; it is found then as
    :meth:`~dsa_widget.deep_sea.rules.Game.view` finds it (the values of the chips banked by
    the seat, or by everybody when banked chips are public or the game is over), and the
    observation is rewritten.  The sink step's queue, which a game does not publish, is read
    from the seat's view.

    >>> from dsa_widget import Game
    >>> g = Game(players=3, seed=2)
    >>> enc = Encoding(g)
    >>> tracker = enc.tracker(g)
    >>> g.sample_chance(); g.apply(g.legal_actions()[-1]); g.sample_chance()
    >>> from array import array
    >>> all(tracker.observe(s) == array("f", enc.observe(g.view(s))) for s in range(3))
    True
    """

    def __init__(
        self,
        encoding: Encoding,
        game: Game,
        new_buffer: Callable[[int], Any] | None = None,
        plan: _Plan | None = None,
        list_plan: _Plan | None = None,
        pieces: dict[Any, _Knowledge] | None = None,
    ) -> None:
        levels = game.levels
        if len(levels) != encoding.chips:
            raise EncodingError(
                f"this encoding is for setups of {encoding.chips} chips; the game's has {len(levels)}"
            )
        self.encoding = encoding
        self.game = game
        size = encoding.observation_size
        n = len(game.players)
        self._n = n
        self._levels = levels
        self._chips = encoding.chips
        self._start_air = game.setup.air
        self._rounds = game.setup.rounds
        self._public = game.setup.options.reveal == "public"
        # every value of each level: the unseen values are what the known ones leave of them
        self._level_sums = [0] * 5
        self._level_counts = [0] * 5
        for c, lv in enumerate(levels):
            self._level_sums[lv] += game.chip(c)[1]
            self._level_counts[lv] += 1
        self._knowledge: dict[tuple[int, int, bool, bool], _Knowledge] = {}
        #: the encoded pieces of a knowledge, by the chips' levels and values and what is known
        #: (the encoding's, shared by its trackers)
        self._pieces: dict[Any, _Knowledge] = {} if pieces is None else pieces
        if plan is None or plan.n != n or len(plan.pos_bytes) != self._chips + 1:
            plan = _Plan(n, self._chips)
        self._plan = plan
        if list_plan is None or list_plan.n != n or len(list_plan.pos_bytes) != self._chips + 1:
            list_plan = _Plan(n, self._chips, True)
        self._list_plan = list_plan
        self._seat_range = plan.seat_range
        self._size = size
        make = _float_array if new_buffer is None else new_buffer
        self._seats = [_Seat(make(size), plan, me) for me in range(n)]
        # the seats of observe_list (buffers that are lists of floats), made when first asked
        self._list_seats: list[_Seat] | None = None
        # air / start air by air left, in float32: a list buffer is written the float32 value
        fracs = [a / self._start_air for a in range(self._start_air + 1)]
        self._air_frac = _floats(struct.pack(f"{len(fracs)}f", *fracs))

    def observe(self, seat: int) -> Any:
        """``encoding.observe(game.view(seat))`` in ``seat``'s buffer (returned, not a copy)."""
        st = self._seats[seat]
        self._bring_up(seat, st)
        return st.buf

    def _bring_up(self, seat: int, st: _Seat) -> None:
        """Bring ``seat``'s kept observation ``st`` (a buffer or a list) up to this position."""
        g = self.game
        step = g.step
        key = (g.round, step == OVER)
        if key != st.key:
            self._rebuild(seat, st, key)
        self._update(seat, st, step)

    def observe_list(self, seat: int) -> list[float]:
        """:meth:`observe` as a fresh list of floats (the float32 values), kept up to date in a
        list of the seat's own, without a buffer to convert (what OpenSpiel's Python tensors are).

        >>> from dsa_widget import Game
        >>> g = Game(players=2, seed=4)
        >>> tracker = Encoding(g).tracker(g)
        >>> g.sample_chance()
        >>> tracker.observe_list(1) == tracker.observe(1).tolist()
        True
        """
        seats = self._list_seats
        if seats is None:
            plan = self._list_plan
            seats = self._list_seats = [_Seat([0.0] * self._size, plan, me) for me in range(self._n)]
        st = seats[seat]
        self._bring_up(seat, st)
        return st.buf[:]  # type: ignore[no-any-return]

    # ---------------------------------------------------------------- what is known

    def _knowledge_of(self, me: int, key: tuple[int, bool], lists: bool) -> _Knowledge:
        """What ``me`` knows in round ``key[0]`` (over: ``key[1]``), as its view has it, with
        its pieces for list buffers (``lists``) or bytes ones."""
        public = self._public or key[1]
        kkey = (-1 if public else me, key[0], key[1], lists)
        know = self._knowledge.get(kkey)
        if know is None:
            g = self.game
            n = self._n
            levels = self._levels
            banked = g.banked_chips
            known: dict[int, int] = {}
            for q in range(n):
                if public or q == me:
                    for c in banked[q]:
                        known[c] = g.chip(c)[1]
            sums = self._level_sums[:]
            counts = self._level_counts[:]
            for c, v in known.items():
                sums[levels[c]] -= v
                counts[levels[c]] -= 1
            mean = [sums[lv] / counts[lv] if counts[lv] else 0.0 for lv in range(5)]
            every = g.scores
            scores = tuple(every[q] if public or q == me else None for q in range(n))
            # what another seat or game with the same chips and values known has made is shared
            pkey = (lists, levels, tuple(self._level_sums), tuple(sorted(known.items())))
            like = self._pieces.get(pkey)
            know = self._knowledge[kkey] = _Knowledge(known, mean, counts, scores, lists, like)
            if like is None:
                if len(self._pieces) >= 512:
                    self._pieces.clear()
                self._pieces[pkey] = know
        return know

    def _value(self, know: _Knowledge, c: int) -> tuple[float, float]:
        v = know.known.get(c)
        if v is not None:
            return float(v), float(v)
        return 0.0, know.mean[self._levels[c]]

    # ---------------------------------------------------------------- encoded pieces

    def _item_block(self, know: _Knowledge, item: Item | None) -> Any:
        """A space's fields (its divers' fields 0)."""
        block = know.items.get(item)
        if block is None and item is not None and len(item) == 1 and item[0] not in know.known:
            # one chip whose value is unknown (every chip on the path, in practice)
            lv = self._levels[item[0]]
            block = know.singles[lv]
            if block is None:
                out = [0.0] * _SPACE_WIDTH
                out[0] = out[2] = out[2 + lv] = 1.0
                out[8] = 0.0 + know.mean[lv]
                block = know.singles[lv] = _form(know, _PACK_SPACE(*out))
            know.items[item] = block
        if block is None:
            out = [0.0] * _SPACE_WIDTH
            out[0] = 1.0
            if item is None:
                out[1] = 1.0
            else:
                levels = self._levels
                kn = ex = 0.0
                for c in item:
                    out[2] += 1.0
                    out[2 + levels[c]] += 1.0
                    a, e = self._value(know, c)
                    kn += a
                    ex += e
                out[7] = kn
                out[8] = ex
            block = know.items[item] = _form(know, _PACK_SPACE(*out))
        return block

    def _region(self, know: _Knowledge, path: tuple[Item | None, ...]) -> Any:
        """Every space's fields for ``path`` (the divers' fields 0)."""
        region = know.regions.get(path)
        if region is None:
            found = list(map(know.items.get, path[1:]))
            blocks = [self._item_block(know, item) for item in path[1:]] if None in found else found
            plan = self._list_plan if know.lists else self._plan
            blocks.append(plan.tail[self._chips - len(path) + 1])
            region = know.regions[path] = _join(know, blocks)
        return region

    def _carried_block(self, know: _Knowledge, items: tuple[Item, ...]) -> Any:
        """A diver's fields ``items`` .. ``carried_expected``."""
        block = know.carried.get(items)
        if block is None:
            out = [0.0] * 8
            out[0] = float(len(items))
            levels = self._levels
            kn = ex = 0.0
            for it in items:
                for c in it:
                    out[1] += 1.0
                    out[1 + levels[c]] += 1.0
                    a, e = self._value(know, c)
                    kn += a
                    ex += e
            out[6] = kn
            out[7] = ex
            block = know.carried[items] = _form(know, _PACK_CARRIED(*out))
        return block

    def _middle(self, know: _Knowledge, key: tuple[int, bool]) -> Any:
        """The global fields from ``round`` on, those that depend on what is known only
        written (the round, the unseen values), the others 0 (:meth:`_update` writes them)."""
        if know.middle is None:
            out = [0.0] * (_DIVER_OFF - _O_ROUND)
            out[_O_ROUND - _O_ROUND] = float(key[0])
            out[_O_ROUNDS - _O_ROUND] = float(self._rounds)
            out[_O_START_AIR - _O_ROUND] = float(self._start_air)
            for lv in (1, 2, 3, 4):
                out[_O_UNSEEN_COUNT - _O_ROUND + lv - 1] = float(know.counts[lv])
                out[_O_UNSEEN_MEAN - _O_ROUND + lv - 1] = know.mean[lv] if know.counts[lv] else 0.0
            know.middle = _form(know, struct.pack(f"{len(out)}f", *out))
        return know.middle

    def _diver_block(self, know: _Knowledge, s: int, over: bool) -> Any:
        """Seat ``s``'s diver fields that depend on what is known only (its banked chips,
        score, winner), the others 0 (:meth:`_update` writes them)."""
        block = know.divers.get(s)
        if block is None:
            g = self.game
            out = [0.0] * _DIVER_WIDTH
            out[0] = 1.0
            mine = g.banked_chips[s]
            out[13] = float(len(mine))
            kn = ex = 0.0
            for c in mine:
                a, e = self._value(know, c)
                kn += a
                ex += e
            out[14] = kn
            out[15] = ex
            score = know.scores[s]
            if score is not None:
                out[16] = 1.0
                out[17] = float(score)
            out[18] = 1.0 if over and s in g.winners else 0.0
            block = know.divers[s] = _form(know, _PACK_DIVER(*out))
        return block

    # ---------------------------------------------------------------- writing

    def _rebuild(self, me: int, st: _Seat, key: tuple[int, bool]) -> None:
        """Write the fields that depend on what ``me`` knows (it changed: a new round, or the
        end), the spaces' items, 0 for the rest; :meth:`_update` writes the rest next."""
        g = self.game
        know = self._knowledge_of(me, key, st.plan.lists)
        over = key[1]
        path = tuple(g.spaces)
        block = self._diver_block
        plan = st.plan
        parts = [plan.heads[me], self._middle(know, key)]
        parts.extend(block(know, s, over) for s in st.rel)
        parts.append(plan.absent)
        parts.append(self._region(know, path))
        st.mv[:] = _join(know, parts)
        st.out[_O_PATH_LENGTH] = float(len(path) - 1)
        st.forget(self._n)
        st.path = list(path)
        st.know = know
        st.key = key

    def _update(self, me: int, st: _Seat, step: str) -> None:
        """Rewrite the fields whose part of the state changed since ``st`` was written."""
        g = self.game
        out = st.out
        air = g.air
        if air != st.air:
            out[_O_AIR] = float(air)
            fracs = self._air_frac
            out[_O_AIR_FRAC] = (
                fracs[air] if air < len(fracs) else _floats(struct.pack("f", air / self._start_air))[0]
            )
            st.air = air
        if step != st.step:
            if st.step is not _UNSET:
                out[_STEP_AT[st.step]] = 0.0
            out[_STEP_AT[step]] = 1.0
            st.step = step
        cur = g.current_player
        if cur != st.cur:
            if st.cur_at >= 0:
                out[st.cur_at] = 0.0
            if cur is not None and step != OVER:
                st.cur_at = _O_TO_MOVE + st.slot[cur]
                out[st.cur_at] = 1.0
                out[_O_MY_TURN] = 1.0 if cur == me else 0.0
            else:
                st.cur_at = -1
                out[_O_MY_TURN] = 0.0
            st.cur = cur
        flag = g.must_turn_back
        if flag != st.must:
            out[_O_MUST] = 1.0 if flag else 0.0
            st.must = flag
        flag = g.breathed
        if flag != st.breathed:
            out[_O_BREATHED] = 1.0 if flag else 0.0
            st.breathed = flag
        turn = g.turn_number
        if turn != st.turn:
            out[_O_TURN] = float(turn)
            st.turn = turn
        # the sink step: who is still to lay his chips, and how many the first has laid
        if step == SINK_STEP or st.queue:
            if step == SINK_STEP:
                view = g.view(me)
                queue, laid = view.sink_queue, len(view.laying)
            else:
                queue, laid = (), 0
            if queue != st.queue:
                for s in st.queue:
                    out[st.sink_at[s]] = 0.0
                for s in queue:
                    out[st.sink_at[s]] = 1.0
                st.queue = queue
            if laid != st.laid:
                out[_O_LAYING] = float(laid)
                st.laid = laid
        # the spaces' items (a take or a drop changes one)
        spaces = g.spaces
        rewritten = spaces != st.path
        if rewritten:
            know: Any = st.know
            mv = st.mv
            old = st.path
            if len(spaces) != len(old):  # not within a round: for safety only
                a = st.unit * _SPACE_OFF
                mv[a : a + st.unit * _SPACE_WIDTH * self._chips] = self._region(know, tuple(spaces))
                out[_O_PATH_LENGTH] = float(len(spaces) - 1)
            else:
                get = know.items.get
                space_at = st.plan.space_at
                width = st.unit * _SPACE_WIDTH
                for i in compress(range(len(spaces)), map(ne, spaces, old)):
                    item = spaces[i]
                    a = space_at[i]
                    mv[a : a + width] = get(item) or self._item_block(know, item)
            st.path = spaces[:]
        # the divers: where they are (and their fields on the path), back in the submarine
        pos = g.positions
        home = g.returned
        occ = st.occ
        if pos != st.pos:
            mv = st.mv
            pos_at, occ_at, pos_bytes = st.pos_at, st.occ_at, st.plan.pos_bytes
            width = 2 * st.unit
            for s in compress(self._seat_range, map(ne, pos, st.pos)):
                p = pos[s]
                a = pos_at[s]
                mv[a : a + width] = pos_bytes[p]
                at = -1 if home[s] else occ_at[s][p]
                was = occ[s]
                if was != at:
                    if was >= 0:
                        out[was] = 0.0
                    if at >= 0:
                        out[at] = 1.0
                    occ[s] = at
            st.pos = pos[:]
        if home != st.home:
            home_at, occ_at = st.home_at, st.occ_at
            for s in compress(self._seat_range, map(ne, home, st.home)):
                if home[s]:
                    out[home_at[s]] = 1.0
                    at = -1
                else:
                    out[home_at[s]] = 0.0
                    at = occ_at[s][pos[s]]
                was = occ[s]
                if was != at:
                    if was >= 0:
                        out[was] = 0.0
                    if at >= 0:
                        out[at] = 1.0
                    occ[s] = at
            st.home = home[:]
        if rewritten:  # the rewritten spaces lost their divers' fields
            for at in occ:
                if at >= 0:
                    out[at] = 1.0
        up = g.heading_up
        if up != st.up:
            up_at = st.up_at
            for s in compress(self._seat_range, map(ne, up, st.up)):
                out[up_at[s]] = 1.0 if up[s] else 0.0
            st.up = up[:]
        carry = g.carrying
        if carry != st.carry:
            know = st.know
            mv = st.mv
            get = know.carried.get
            carry_at = st.carry_at
            width = 8 * st.unit
            for s in compress(self._seat_range, map(ne, carry, st.carry)):
                a = carry_at[s]
                mv[a : a + width] = get(carry[s]) or self._carried_block(know, carry[s])
            st.carry = carry[:]
