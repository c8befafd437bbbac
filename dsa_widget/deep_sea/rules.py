"""The rules of Deep Sea Adventure: one :class:`Game` object, the single source of truth.

A game moves through *steps*.  At each step :meth:`Game.legal_choices` lists
what may be done, and :meth:`Game.apply` does one of them (or raises
:class:`~dsa_widget.deep_sea.errors.IllegalActionError` and changes nothing):

========== ===================================== ============================
step       legal choices                         RULES.md
========== ===================================== ============================
turn_back  ``"back"``, ``"continue"``            2. Turn back?
roll       ``"roll"`` (chance: see :meth:`roll`) 1. Breathe + 3. Roll and swim
search     ``"none"``, ``"take"``, ``"drop i"``  4. Search
sink       ``"lay i"``, ``"lay all"``            End of a round, step 2 (drowning)
over       nothing                               End of the game
========== ===================================== ============================

Breathing (step 1) happens when the turn's first choice is applied, so the
state between two turns is exactly "after the last turn" as a record replay
prints it.  Steps with no real choice are skipped: ``turn_back`` appears only
when the diver may choose (a forced turn back is applied by the rules), and
``search`` only when there is something to take or to put down.

>>> g = Game(players=["Ann", "Bob"], seed=1)
>>> g.current_player, g.step, g.legal_choices()
(0, 'roll', ('roll',))
>>> g.roll((2, 3))                      # Ann swims 5 spaces down
>>> g.step, g.legal_choices()
('search', ('none', 'take'))
>>> g.apply("take")
>>> g.current_player, g.divers[0].position, g.divers[0].carrying
(1, 5, (((1, '?'),),))
>>> g.apply("drop 0")
Traceback (most recent call last):
...
dsa_widget.deep_sea.errors.IllegalActionError: 'drop 0' is not legal now: it is Bob's turn, step 'roll'; legal: 'roll'
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterator, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar, Final, NamedTuple, overload

from ..core.errors import is_int
from ..core.errors import short_repr as _short
from ..core.protocol import CHANCE, TERMINAL
from ..core.protocol import random_playout as plain_playout
from .errors import IllegalActionError, SetupError
from .setup import Setup

if TYPE_CHECKING:
    from .view import View

#: An item on the path or carried: a tuple of chip ids (one chip, or a stack).
Item = tuple[int, ...]

__all__ = [
    "Game",
    "Diver",
    "BACK",
    "CONTINUE",
    "ROLL",
    "NONE",
    "TAKE",
    "drop",
    "lay",
    "LAY_ALL",
    "SINK_STEP",
    "swim",
    "has_free_deeper",
    "DICE_OUTCOMES",
    "TURN_BACK_STEP",
    "ROLL_STEP",
    "SEARCH_STEP",
    "OVER",
]

# Choices.  Plain strings: readable in a cell, JSON-friendly for the front end.
BACK: Final = "back"
CONTINUE: Final = "continue"
ROLL: Final = "roll"
NONE: Final = "none"
TAKE: Final = "take"
#: at the sink step: lay the remaining chips in the order they were picked up
LAY_ALL: Final = "lay all"

# Steps.
TURN_BACK_STEP: Final = "turn_back"
ROLL_STEP: Final = "roll"
SEARCH_STEP: Final = "search"
#: after a round's last turn, each drowning diver with two or more chips lays them in the order
#: he chooses (option ``sink_order="chosen"``, RULES.md, end of a round, step 2)
SINK_STEP: Final = "sink"
OVER: Final = "over"

_DROPS: Final[list[str]] = [f"drop {i}" for i in range(40)]
#: "drop i" -> i for every legal drop choice (what the search step reads back)
_DROP_INDEX: Final[dict[str, int]] = {s: i for i, s in enumerate(_DROPS)}
#: the largest item index a choice may name: anything past it is not a choice at all (so a
#: number of any size costs nothing to refuse)
_MAX_DROP_INDEX: Final = 999_999
_TURN_BACK_LEGAL: Final[tuple[str, ...]] = (BACK, CONTINUE)
_ROLL_LEGAL: Final[tuple[str, ...]] = (ROLL,)
_TAKE_LEGAL: Final[tuple[str, ...]] = (NONE, TAKE)
_SEARCH_DROP_LEGAL: Final[list[tuple[str, ...]]] = [(NONE,) + tuple(_DROPS[:k]) for k in range(41)]
_LAYS: Final[list[str]] = [f"lay {i}" for i in range(40)]
#: "lay i" -> i for every legal lay choice
_LAY_INDEX: Final[dict[str, int]] = {s: i for i, s in enumerate(_LAYS)}
#: the sink step's legal choices of a diver with ``k`` chips who has laid none yet
_LAY_LEGAL: Final[list[tuple[str, ...]]] = [(LAY_ALL,) + tuple(_LAYS[:k]) for k in range(41)]

#: The nine equally likely rolls of two dice with faces 1, 1, 2, 2, 3, 3.
DICE_OUTCOMES: Final[tuple[tuple[int, int], ...]] = tuple((a, b) for a in (1, 2, 3) for b in (1, 2, 3))
_CHANCE_OUTCOMES = tuple((d, Fraction(1, 9)) for d in DICE_OUTCOMES)
#: the setup keywords of Game(...) (those of Setup.create)
_SETUP_KEYWORDS = ("players", "air", "rounds", "first_player", "path", "seed", "options")


def drop(i: int) -> str:
    """The choice that puts down carried item ``i`` (0 = the first picked up).

    >>> drop(2)
    'drop 2'
    """
    return _DROPS[i] if 0 <= i < len(_DROPS) else f"drop {i}"


def lay(i: int) -> str:
    """At the sink step, the choice that lays chip ``i`` next (chips numbered in the order they
    were picked up, a stack broken into its chips, 0 first).

    >>> lay(1)
    'lay 1'
    """
    return _LAYS[i] if 0 <= i < len(_LAYS) else f"lay {i}"


def _n_chips(items: tuple[tuple[int, ...], ...]) -> int:
    """How many chips ``items`` hold (a stack holds several)."""
    k = 0
    for item in items:
        k += len(item)
    return k


def _ensure_drops(k: int) -> None:
    """Legal-choice tuples for divers carrying up to ``k`` items (grows with what the game
    deals, never with what a caller asks for)."""
    while len(_DROPS) < k:
        _DROP_INDEX[f"drop {len(_DROPS)}"] = len(_DROPS)
        _DROPS.append(f"drop {len(_DROPS)}")
    while len(_SEARCH_DROP_LEGAL) <= k:
        _SEARCH_DROP_LEGAL.append((NONE,) + tuple(_DROPS[: len(_SEARCH_DROP_LEGAL)]))


def _ensure_lays(k: int) -> None:
    """Legal-choice tuples of the sink step for divers with up to ``k`` chips (as above)."""
    while len(_LAYS) < k:
        _LAY_INDEX[f"lay {len(_LAYS)}"] = len(_LAYS)
        _LAYS.append(f"lay {len(_LAYS)}")
    while len(_LAY_LEGAL) <= k:
        _LAY_LEGAL.append((LAY_ALL,) + tuple(_LAYS[: len(_LAY_LEGAL)]))


def swim(pos: int, up: bool, steps: int, occ: Sequence[int]) -> int:
    """Where a diver on space ``pos`` ends after swimming ``steps`` spaces (RULES.md step 3):
    the one swim rule, used by the engine and by the probability lab (``Game._roll`` settles a
    swim that meets nobody without it, for speed; ``tests/test_step_log.py`` holds every swim
    of the engine to this function).

    ``occ[i] >= 0`` when space ``i`` is taken by another diver (``occ[0]`` is the submarine,
    ``len(occ) - 1`` the path's last space).  Taken spaces are jumped and not counted;
    heading down he stops on the deepest free space; heading up he is safe as soon as he
    reaches the submarine (leftover steps are lost), and 0 is returned.

    >>> free, taken = -1, 0
    >>> swim(3, False, 2, [free] * 4 + [taken] + [free] * 6)   # 4 is taken: lands on 6
    6
    >>> swim(8, False, 4, [free] * 10 + [taken])              # past the end: the deepest free, 9
    9
    >>> swim(2, True, 1, [free, taken, free])                 # jumps 1 and reaches the submarine
    0
    """
    if steps <= 0:
        return pos
    if up:
        i = pos
        while True:
            i -= 1
            if i == 0:
                return 0
            if occ[i] < 0:
                pos = i
                steps -= 1
                if steps == 0:
                    return pos
    end = len(occ) - 1
    i = pos
    while i < end:
        i += 1
        if occ[i] < 0:
            pos = i
            steps -= 1
            if steps == 0:
                break
    return pos


def has_free_deeper(pos: int, occ: Sequence[int]) -> bool:
    """True when some space deeper than ``pos`` is free (else a diver there must turn back)."""
    i = len(occ) - 1
    while i > pos and occ[i] >= 0:
        i -= 1
    return i > pos


def _swim_trace(start: int, to: int, up: bool, occ: Sequence[int]) -> tuple[list[int], list[int]]:
    """The spaces a swim from ``start`` to ``to`` counted and jumped, in order (for the event
    log; ``to == 0`` heading up is the submarine, which is counted last)."""
    visited: list[int] = []
    jumped: list[int] = []
    for i in range(start - 1, to - 1 if to else 0, -1) if up else range(start + 1, to + 1):
        (visited if occ[i] < 0 else jumped).append(i)
    if up and to == 0:
        visited.append(0)
    return visited, jumped


def _dice_by_bits_match_choice() -> bool:
    """True when ``rng.choice(DICE_OUTCOMES)`` is ``DICE_OUTCOMES[r]`` with ``r`` drawn as
    below (4 random bits, again while >= 9): what CPython's ``Random.choice`` does.  Checked
    once at import on a long run, so another Python's ``choice`` only loses the shortcut."""
    a, b = random.Random(20261201), random.Random(20261201)
    bits = b.getrandbits
    for _ in range(400):
        r = bits(4)
        while r >= 9:
            r = bits(4)
        if a.choice(DICE_OUTCOMES) != DICE_OUTCOMES[r]:
            return False
    return a.getstate() == b.getstate()


#: whether a game may draw its dice from a ``random.Random`` by ``getrandbits`` (see above):
#: the same dice, at half the cost of ``rng.choice``
_FAST_DICE = _dice_by_bits_match_choice()


def _fast_dice(rng: random.Random | None) -> Any:
    """``rng.getrandbits`` when dice may be drawn from it directly, else ``None`` (a subclass
    of ``Random`` may draw differently, so only ``Random`` itself)."""
    return rng.getrandbits if _FAST_DICE and type(rng) is random.Random else None


#: the chip tables of the setup the last game was built from: (setup, levels, values, path)
_SETUP_MEMO: Final[list[tuple[Any, ...]]] = [(None,)]

# The step log: what each step did, one tuple per step (round events are kept as their dicts).
#: (_ROLLED, seat, dice, items, from, to, up, the divers' positions before the swim (``()`` when
#: it met nobody), turn, round, air after breathing, 0 if the diver breathed at the turn-back
#: step, 1 if he breathes now, 2 and turns back forced)
_ROLLED: Final = 0
#: (_TURNED, seat, items, turned back?, turn, round, air after breathing)
_TURNED: Final = 1
#: (_TOOK, seat, space, item)
_TOOK: Final = 2
#: (_DROPPED, seat, space, index, item)
_DROPPED: Final = 3
#: (_SANK, the record's sink object): the orders the drowning divers chose (no event)
_SANK: Final = 4


def _spell(e: Any, lv: Sequence[int], out: list[dict[str, Any]]) -> None:
    """Append the event dicts of step-log entry ``e`` to ``out`` (see ``events.py``); ``lv``:
    the chips' levels.  These are the dicts the engine once built on every step."""
    if type(e) is dict:
        out.append(e)
        return
    code = e[0]
    if code == _ROLLED:
        _, p, dice, k, start, to, up, positions, turn, rnd, air, breath = e
        if breath:
            out.append({"type": "turn", "turn": turn, "round": rnd, "seat": p})
            out.append({"type": "breathe", "seat": p, "items": k, "air": air})
            if breath == 2:
                out.append({"type": "turn_back", "seat": p, "forced": True})
        steps = dice[0] + dice[1] - k
        out.append(
            {"type": "roll", "seat": p, "dice": [dice[0], dice[1]], "items": k, "steps": max(0, steps)}
        )
        occ = [-1] * (max(start, to, *positions) + 1)
        for q, x in enumerate(positions):
            if x:
                occ[x] = q
        visited, jumped = _swim_trace(start, to, up, occ)
        home = up and to == 0
        out.append(
            {
                "type": "move",
                "seat": p,
                "from": start,
                "to": to,
                "heading": "up" if up else "down",
                "spaces": visited,
                "jumped": jumped,
                "home": home,
            }
        )
    elif code == _TURNED:
        _, p, k, back, turn, rnd, air = e
        out.append({"type": "turn", "turn": turn, "round": rnd, "seat": p})
        out.append({"type": "breathe", "seat": p, "items": k, "air": air})
        if back:
            out.append({"type": "turn_back", "seat": p, "forced": False})
    elif code == _TOOK:
        out.append({"type": "take", "seat": e[1], "space": e[2], "item": [lv[c] for c in e[3]]})
    elif code == _DROPPED:
        out.append(
            {"type": "drop", "seat": e[1], "space": e[2], "index": e[3], "item": [lv[c] for c in e[4]]}
        )


class Diver(NamedTuple):
    """One diver as everybody sees him.  ``carrying`` holds items, each a
    tuple of ``(level, value)`` chips (one chip, or a stack); a value is
    ``'?'`` unless it is known to the viewer."""

    seat: int
    name: str
    position: int
    heading: str  # "down" | "up"
    returned: bool
    carrying: tuple[tuple[tuple[int, Any], ...], ...]


class _Log:
    """An append-only list whose copies share its full chunks: copying one costs a pointer per
    64 entries, so a game's copy stays cheap however long its step log grows.

    Full chunks are tuples of 64 (never changed once made, so copies may share them); after
    them comes a tail, a list of the log's own.  ``append`` is the tail's own ``list.append``
    (a C call: the engine logs every step), so the tail grows freely and is cut into chunks
    when the log is copied.  Indexing, slicing, iteration and ``len`` work as on a list.
    """

    __slots__ = ("_chunks", "_tail", "append")
    CHUNK = 64

    def __init__(self) -> None:
        self._chunks: list[tuple[Any, ...]] = []
        self._tail: list[Any] = []  # never replaced: ``append`` is bound to it
        self.append: Callable[[Any], None] = self._tail.append

    def __len__(self) -> int:
        return 64 * len(self._chunks) + len(self._tail)

    def __iter__(self) -> Iterator[Any]:
        for c in self._chunks:
            yield from c
        yield from self._tail

    def __reversed__(self) -> Iterator[Any]:
        yield from reversed(self._tail)
        chunks = self._chunks
        for j in range(len(chunks) - 1, -1, -1):
            yield from reversed(chunks[j])

    @overload
    def __getitem__(self, k: int) -> Any: ...
    @overload
    def __getitem__(self, k: slice) -> list[Any]: ...
    def __getitem__(self, k: int | slice) -> Any:
        chunks = self._chunks
        full = 64 * len(chunks)
        if isinstance(k, slice):
            start, stop, step = k.indices(len(self))
            if step != 1:
                return list(self)[k]
            if start >= full:
                return self._tail[start - full : stop - full]
            out: list[Any] = []
            i = start
            while i < stop and i < full:
                q, r = divmod(i, 64)
                take = min(stop - i, 64 - r)
                out.extend(chunks[q][r : r + take])
                i += take
            if i < stop:
                out.extend(self._tail[i - full : stop - full])
            return out
        n = len(self)
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError("log index out of range")
        if k >= full:
            return self._tail[k - full]
        q, r = divmod(k, 64)
        return chunks[q][r]

    def _fold(self) -> None:
        """Cut the tail's full chunks off into tuples (the same entries, now shareable)."""
        tail = self._tail
        if len(tail) >= 64:
            m = len(tail) // 64 * 64
            self._chunks.extend(tuple(tail[i : i + 64]) for i in range(0, m, 64))
            del tail[:m]

    def copy(self) -> _Log:
        if len(self._tail) >= 64:
            self._fold()
        g = _Log.__new__(_Log)
        g._chunks = self._chunks[:]
        g._tail = self._tail[:]
        g.append = g._tail.append
        return g

    def truncate(self, n: int) -> None:
        """Keep the first ``n`` entries (the shared chunks themselves are never changed)."""
        if n >= len(self):
            return
        full = 64 * len(self._chunks)
        if n >= full:
            del self._tail[n - full :]
            return
        q, r = divmod(n, 64)
        self._tail[:] = self._chunks[q][:r]
        del self._chunks[q:]


#: the Setup that builds an empty Game for copy() and from_view() to fill in (compiled by
#: mypyc, ``Game.__new__`` would run ``__init__`` on a fresh default setup first)
_BLANK: Setup = object.__new__(Setup)

_GAME_SLOTS = (
    "setup",
    "_lv",
    "_val",
    "_path",
    "_occ",
    "_pos",
    "_up",
    "_home",
    "_carry",
    "_banked",
    "_score",
    "_air",
    "_round",
    "_player",
    "_step",
    "_over",
    "_legal",
    "_breathed",
    "_forced",
    "_last",
    "_n_home",
    "_last_home",
    "_winners",
    "_nturns",
    "_log",
    "_ev_on",
    "_hist_on",
    "_evc",
    "_hc",
    "_ldice",
    "_rng",
    "_bits",
    "_dice",
    "_vcache",
    "_requires",
    "_n",
    "_sink_queue",
    "_sink_done",
    "_laying",
    "_drowned",
)


class Game:
    """A game of Deep Sea Adventure under the rules of RULES.md.

    Build it from a :class:`~dsa_widget.deep_sea.setup.Setup` or from the same
    keywords as :meth:`Setup.create`::

        Game(players=["Ann", "Bob", "Cy"], air=25, rounds=3, seed=42)
        Game(players=2, path=[(1, 0), (2, 5), (4, 15)], options={"reveal": "owner"})

    ``rng`` seeds the dice (an int, or a :class:`random.Random` to draw them
    from); by default they follow ``seed``, so a seeded game is reproducible.  ``events=False``
    turns the event log off, ``history=False`` the turn list.  Both are kept as one compact
    log of steps and spelled out as dicts when first read, so keeping them costs little.
    """

    __slots__ = _GAME_SLOTS

    #: the action name of a chance step (the runner rolls; bots are never asked)
    CHANCE_ACTION: ClassVar[str] = ROLL

    def __init__(
        self,
        setup: Setup | None = None,
        /,
        *,
        rng: Any = None,
        events: object = True,
        history: object = True,
        **setup_kwargs: Any,
    ) -> None:
        if setup is _BLANK:
            return  # copy() and from_view() set every field themselves
        if setup is None:
            unknown = sorted((k for k in setup_kwargs if k not in _SETUP_KEYWORDS), key=repr)
            if unknown:
                raise SetupError(
                    str(unknown[0])[:40], f"unknown setup keyword; they are {', '.join(_SETUP_KEYWORDS)}"
                )
            setup = Setup.create(**setup_kwargs)
        elif setup_kwargs:
            raise TypeError("give either a Setup or setup keywords, not both")
        elif not isinstance(setup, Setup):
            raise TypeError(f"expected a Setup, got {type(setup).__name__}")
        self.setup = setup
        n = len(setup.players)
        self._n = n
        memo = _SETUP_MEMO[0]
        if memo[0] is not setup:
            # the chip tables of a setup, kept for the next game: most callers (tournaments,
            # playouts, benchmarks) build many games from one Setup
            memo = _SETUP_MEMO[0] = (
                setup,
                tuple(c[0] for c in setup.path),
                tuple(c[1] for c in setup.path),
                (None,) + tuple((i,) for i in range(len(setup.path))),
            )
        self._lv: tuple[int, ...] = memo[1]
        self._val: tuple[int, ...] = memo[2]
        self._path: list[tuple[int, ...] | None] = list(memo[3])
        self._banked: list[tuple[int, ...]] = [()] * n
        self._score = [0] * n
        self._round = 1
        self._over = False
        self._winners: tuple[int, ...] = ()
        self._nturns = 0
        # What happened is recorded compactly (see _spell): one tuple per step in _log, shared
        # by the event log and the turn list, spelled out as dicts only when they are read.
        self._log: _Log | None = _Log() if events or history else None
        self._ev_on = bool(events)
        self._hist_on = bool(history)
        self._evc: list[Any] | None = None
        self._hc: list[Any] | None = None
        self._ldice: tuple[int, int] | None = None
        self._requires = setup.options.turn_back_requires_treasure
        self._vcache: dict[Any, Any] = {}
        # the sink step: seats still to lay their chips (the first is laying), the orders chosen
        # (chip indices in pickup order), and what the first has laid so far
        self._sink_queue: tuple[int, ...] = ()
        self._sink_done: dict[int, tuple[int, ...]] = {}
        self._laying: tuple[int, ...] = ()
        # the divers who drowned with chips when the last round ended (seat -> chips), for
        # checking a record's sink orders of divers who had only one chip (never asked)
        self._drowned: dict[int, int] | None = None
        if rng is None:
            rng = setup.seed
        # The dice: an external random.Random if one is given, else a 64-bit LCG whose whole
        # state is one int (so copying a game, which copies its dice, costs nothing).
        self._rng: random.Random | None = None
        self._bits: Any = None
        self._dice = 0
        self.set_dice(rng)
        self._start_round(setup.first_player)

    # ------------------------------------------------------------------ rounds

    def _start_round(self, first: int) -> None:
        n = self._n
        self._air = self.setup.air
        self._pos = [0] * n
        self._up = [False] * n
        self._home = [False] * n
        self._carry: list[tuple[tuple[int, ...], ...]] = [()] * n
        self._occ = [-1] * len(self._path)
        self._n_home = 0
        self._last_home = -1
        self._last = False
        self._player: int | None = first
        if self._ev_on:
            self._log.append(  # type: ignore[union-attr]
                {"type": "round_start", "round": self._round, "air": self._air, "first": first}
            )
        self._begin_turn()

    def _begin_turn(self) -> None:
        """Settle the step of the current player's turn before anything is done."""
        p: int = self._player  # type: ignore[assignment]
        self._breathed = False
        self._forced = False
        pos = self._pos[p]
        if pos == 0 or self._up[p]:
            self._step = ROLL_STEP
            self._legal = _ROLL_LEGAL
            return
        # has_free_deeper(pos, occ), inline (once per turn)
        occ = self._occ
        i = len(occ) - 1
        while i > pos and occ[i] >= 0:
            i -= 1
        if i <= pos:
            # "A diver on the path with no free space deeper than his own must turn back."
            self._forced = True
            self._step = ROLL_STEP
            self._legal = _ROLL_LEGAL
        elif self._carry[p] or not self._requires:
            self._step = TURN_BACK_STEP
            self._legal = _TURN_BACK_LEGAL
        else:
            self._step = ROLL_STEP
            self._legal = _ROLL_LEGAL

    def _close_turn(self) -> None:
        self._nturns += 1

    def _end_turn(self) -> None:
        if self._last or self._n_home == self._n:
            if self._start_sinking():
                return  # the turn goes on: the drowning divers lay their chips
            self._nturns += 1
            self._end_round()
            return
        self._nturns += 1
        n = self._n
        home = self._home
        q = self._player + 1  # type: ignore[operator]
        while True:
            if q == n:
                q = 0
            if not home[q]:
                break
            q += 1
        self._player = q
        self._begin_turn()

    def _drowning(self) -> list[int]:
        """The divers still in the water, in drop order (RULES.md, end of a round, step 2)."""
        home, pos = self._home, self._pos
        water = [q for q in range(self._n) if not home[q] and pos[q] > 0]
        if len(water) > 1:  # no two divers share a space: the order is strict
            water.sort(key=pos.__getitem__, reverse=self.setup.options.drop_order == "farthest_first")
        return water

    def _chips_of(self, q: int) -> list[int]:
        """Diver ``q``'s chips in pickup order, stacks broken into their chips."""
        return [c for item in self._carry[q] for c in item]

    def _start_sinking(self) -> bool:
        """Open the sink step if some drowning diver has two or more chips to lay in his order."""
        if self.setup.options.sink_order != "chosen":
            return False
        carry = self._carry
        queue = tuple(q for q in self._drowning() if _n_chips(carry[q]) >= 2)
        if not queue:
            return False
        self._sink_queue, self._sink_done, self._laying = queue, {}, ()
        self._step = SINK_STEP
        self._player = queue[0]
        self._legal = self._lay_legal()
        return True

    def _lay_legal(self) -> tuple[str, ...]:
        """The legal choices of the first diver in the sink queue, who has laid none yet."""
        k = _n_chips(self._carry[self._sink_queue[0]])
        if k >= len(_LAY_LEGAL):
            _ensure_lays(k + 1)
        return _LAY_LEGAL[k]

    def _lay(self, choice: str) -> None:
        # The legal choices are "lay all" and "lay i" for each chip i not yet laid, in order, so
        # they also say what is left: laying one chip removes its choice.
        q = self._sink_queue[0]
        legal = self._legal
        if choice != LAY_ALL:
            self._laying += (_LAY_INDEX[choice],)  # a legal "lay i" is canonical
            if len(legal) > 3:  # two or more chips left after this one: he goes on choosing
                i = legal.index(choice)
                self._legal = legal[:i] + legal[i + 1 :]
                return
        # the last chip (or the rest, in pickup order)
        rest = tuple(_LAY_INDEX[c] for c in legal[1:] if c != choice)
        self._sink_done[q] = self._laying + rest
        self._laying = ()
        queue = self._sink_queue = self._sink_queue[1:]
        if queue:
            self._player = queue[0]
            self._legal = self._lay_legal()
            return
        if self._log is not None:
            self._log.append((_SANK, {str(q): list(order) for q, order in self._sink_done.items()}))
        self._close_turn()
        self._end_round()

    def _end_round(self) -> None:
        n = self._n
        ev = self._log if self._ev_on else None
        val = self._val
        lv = self._lv
        if ev is not None:
            ev.append(
                {
                    "type": "round_end",
                    "round": self._round,
                    "air": max(0, self._air),
                    "air_ran_out": self._last,
                }
            )
        carry = self._carry
        home = self._home
        # 1. Divers in the submarine bank every item they carry.
        for q in range(n):
            if home[q] and carry[q]:
                chips = tuple(self._chips_of(q))
                self._banked[q] = self._banked[q] + chips
                gain = 0
                for c in chips:
                    gain += val[c]
                self._score[q] += gain
                if ev is not None:
                    ev.append({"type": "bank", "seat": q, "chips": [[lv[c], val[c]] for c in chips]})
        # 2. Divers still in the water drop everything, nearest (or farthest) first, each laying
        #    his chips in the order he chose (pickup order unless he chose).
        water = self._drowning()
        done = self._sink_done
        sunk: list[int] = []
        drowned: dict[int, int] = {}
        for q in water:
            if carry[q]:
                drowned[q] = _n_chips(carry[q])
        self._drowned = drowned
        for q in water:
            pickup = self._chips_of(q)
            laid = [pickup[i] for i in done[q]] if q in done else pickup
            sunk.extend(laid)
            if ev is not None and laid:
                ev.append({"type": "sink", "seat": q, "chips": [lv[c] for c in laid]})
        self._sink_done = {}
        # 3. Remove the blanks and close the gaps; the sunk chips lie past the end in stacks of 3.
        path: list[tuple[int, ...] | None] = [None]
        for item in self._path:
            if item is not None:  # items are non-empty tuples; blanks are None
                path.append(item)
        for i in range(0, len(sunk), 3):
            path.append(tuple(sunk[i : i + 3]))
        self._path = path
        # 4. The next first player: the deepest diver still in the water, else the last one back.
        if water:
            first = max(water, key=self._pos.__getitem__)
        elif self._last_home >= 0:
            first = self._last_home
        else:  # nobody left the submarine (only possible on a blocked path)
            first = self._player  # type: ignore[assignment]
        if self._round >= self.setup.rounds or len(path) == 1:
            self._finish()
            return
        self._round += 1
        self._start_round(first)

    def _finish(self) -> None:
        n = self._n
        self._player = None
        self._step = OVER
        self._over = True
        self._legal = ()
        self._pos = [0] * n
        self._up = [False] * n
        self._home = [False] * n
        self._carry = [()] * n
        self._occ = [-1] * len(self._path)
        best = max(self._score)
        tied = [q for q in range(n) if self._score[q] == best]
        if len(tied) > 1:
            keys = {q: self._tiebreak_key(q) for q in tied}
            top = max(keys.values())
            tied = [q for q in tied if keys[q] == top]
        self._winners = tuple(tied)
        if self._ev_on:
            self._log.append(  # type: ignore[union-attr]
                {"type": "game_over", "scores": list(self._score), "winners": list(tied)}
            )

    def _tiebreak_key(self, q: int) -> tuple[int, ...]:
        counts = [0, 0, 0, 0, 0]
        for c in self._banked[q]:
            counts[self._lv[c]] += 1
        if self.setup.options.tiebreak == "level4":
            return (counts[4],)
        return (counts[4], counts[3], counts[2], counts[1])

    # ------------------------------------------------------------------ steps
    # The hot path.  A random game is ~160 steps, so every attribute read and call here counts:
    # each step is one method (_roll, _search, _turn_back or _lay) that works on local names,
    # breathing, the dice and a swim that meets nobody are written out in _roll rather than
    # called, and what happened is logged as one tuple per step (spelled out as the event and
    # turn dicts when they are read: _spell, _built_events, _built_history).

    def _apply(self, choice: str) -> None:
        """Apply a choice known to be legal (the fast path)."""
        step = self._step
        if step == ROLL_STEP:
            self._roll(None)
        elif step == SEARCH_STEP:
            self._search(choice)
        elif step == TURN_BACK_STEP:
            self._turn_back(choice)
        else:
            self._lay(choice)

    def _next_dice(self) -> tuple[int, int]:
        bits = self._bits
        if bits is not None:  # rng.choice(DICE_OUTCOMES), written out (see _FAST_DICE)
            r: int = bits(4)
            while r >= 9:
                r = bits(4)
            return DICE_OUTCOMES[r]
        if self._rng is not None:
            return self._rng.choice(DICE_OUTCOMES)
        x = self._dice = (self._dice * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return DICE_OUTCOMES[(x >> 32) % 9]

    def _turn_back(self, choice: str) -> None:
        """Step 2 (the diver breathes first): ``"back"`` or ``"continue"``."""
        p: int = self._player  # type: ignore[assignment]
        k = len(self._carry[p])
        self._breathed = True
        if k:
            air = self._air = self._air - k
            if air <= 0:
                self._last = True
        back = choice == BACK
        if back:
            self._up[p] = True
        if self._log is not None:
            self._log.append((_TURNED, p, k, back, self._nturns, self._round, self._air))
        self._step = ROLL_STEP
        self._legal = _ROLL_LEGAL

    def _roll(self, dice: tuple[int, int] | None) -> tuple[int, bool]:
        """Breathe (unless the diver did at the turn-back step), roll ``dice`` (``None``: the
        game's own) and swim; return ``(space landed on, got back to the submarine)``."""
        p: int = self._player  # type: ignore[assignment]
        carry = self._carry[p]
        k = len(carry)
        breathed = self._breathed
        if not breathed:
            self._breathed = True
            if k:
                air = self._air = self._air - k
                if air <= 0:
                    self._last = True
        if dice is None:
            bits = self._bits
            if bits is not None:  # _next_dice, written out
                r: int = bits(4)
                while r >= 9:
                    r = bits(4)
                dice = DICE_OUTCOMES[r]
            else:
                dice = self._next_dice()
        self._ldice = dice
        pos_of = self._pos
        start = pos_of[p]
        forced = self._forced
        if forced:
            self._up[p] = up = True
        else:
            up = self._up[p]
        steps = dice[0] + dice[1] - k
        occ = self._occ
        # swim(start, up, steps, occ).  Most swims meet nobody on the way: one look at the
        # spaces in between (all free: their max is -1) settles those, in C; the others swim,
        # and keep where the divers were (``seen``) for the log, which tells the jumps from it.
        seen: tuple[int, ...] = ()
        if steps <= 0:
            pos = start
        else:
            # a swim that passes nobody lands ``steps`` away (or in the submarine); one that
            # passes a diver (or meets the path's end) swims, keeping where the divers were
            lo, hi = (start - steps if start > steps else 1, start) if up else (start + 1, start + steps + 1)
            clear = hi <= len(occ) and (start > 0 or not up)
            if clear:
                for i in range(lo, hi):
                    if occ[i] >= 0:
                        clear = False
                        break
            if clear:
                pos = (start - steps if start > steps else 0) if up else start + steps
            else:
                pos = swim(start, up, steps, occ)
                seen = tuple(pos_of)
        log = self._log
        if log is not None:
            # the turn, breathe, turn_back (forced), roll and move events in one tuple
            log.append(
                (
                    _ROLLED,
                    p,
                    dice,
                    k,
                    start,
                    pos,
                    up,
                    seen,
                    self._nturns,
                    self._round,
                    self._air,
                    0 if breathed else 2 if forced else 1,
                )
            )
        if start:
            occ[start] = -1
        if up and pos == 0:
            pos_of[p] = 0
            self._home[p] = True
            self._n_home += 1
            self._last_home = p
            self._end_turn()
            return 0, True
        pos_of[p] = pos
        if pos == 0:  # still in the submarine: "A diver in the submarine does not search."
            self._end_turn()
            return 0, False
        occ[pos] = p
        if self._path[pos] is not None:
            self._step = SEARCH_STEP
            self._legal = _TAKE_LEGAL
        elif k:
            if k >= len(_SEARCH_DROP_LEGAL) - 1:
                _ensure_drops(k + 1)
            self._step = SEARCH_STEP
            self._legal = _SEARCH_DROP_LEGAL[k]
        else:
            self._end_turn()
        return pos, False

    def _search(self, choice: str) -> None:
        p: int = self._player  # type: ignore[assignment]
        if choice == TAKE:
            pos = self._pos[p]
            path = self._path
            item = path[pos]
            assert item is not None  # TAKE is legal only on a space that holds an item
            path[pos] = None
            self._carry[p] = self._carry[p] + (item,)
            if self._log is not None:
                self._log.append((_TOOK, p, pos, item))
        elif choice != NONE:
            i = _DROP_INDEX[choice]  # a legal "drop i" is canonical
            pos = self._pos[p]
            carry = self._carry[p]
            item = carry[i]
            self._carry[p] = carry[:i] + carry[i + 1 :]
            self._path[pos] = item
            if self._log is not None:
                self._log.append((_DROPPED, p, pos, i, item))
        self._end_turn()

    # ------------------------------------------------------------------ the records, spelled out

    # The dicts spelled out so far are kept in a cache: [a _Log of dicts, how many steps of the
    # step log they cover, how many dicts, owned?].  A copy borrows its game's _Log of dicts
    # (owned: False) and takes a copy of it, cut to its count, only when it spells out more; a
    # _Log only ever grows, so a borrowed prefix stays right whatever its owner does next.

    @staticmethod
    def _own(cache: list[Any] | None) -> list[Any]:
        """``cache`` (see above) as one of this game's own, to read and extend."""
        if cache is None:
            return [_Log(), 0, 0, True]
        if cache[3]:
            return cache
        mine: _Log = cache[0].copy()
        mine.truncate(cache[2])
        return [mine, cache[1], cache[2], True]

    def _built_events(self) -> _Log:
        """The event dicts of every step logged so far (spelled out once, then kept)."""
        evc = self._evc
        if evc is None or not evc[3]:
            evc = self._evc = self._own(evc)
        built: _Log = evc[0]
        log: _Log = self._log  # type: ignore[assignment]
        n = len(log)
        if evc[1] < n:
            out: list[dict[str, Any]] = []
            lv = self._lv
            for e in log[evc[1] :]:
                _spell(e, lv, out)
            for d in out:
                built.append(d)
            evc[1] = n
            evc[2] += len(out)
        return built

    def _built_history(self) -> _Log:
        """The record turns of every closed turn (built once from the step log, then kept)."""
        hc = self._hc
        if hc is None or not hc[3]:
            hc = self._hc = self._own(hc)
        turns: _Log = hc[0]
        want = self._nturns - hc[2]
        if want > 0:
            log: _Log = self._log  # type: ignore[assignment]
            i0 = hc[1]
            found: list[tuple[int, dict[str, Any]]] = []  # (index of its first step, turn)
            for j, e in enumerate(log[i0:], i0):
                if type(e) is not tuple:
                    continue  # a round's events: no part of a turn
                code = e[0]
                if code == _TURNED or (code == _ROLLED and e[11]):  # the turn's breath
                    found.append((j, {"back": True} if code == _TURNED and e[3] else {}))
                t = found[-1][1]
                if code == _ROLLED:
                    t["dice"] = [e[2][0], e[2][1]]
                elif code == _TOOK:
                    t["search"] = TAKE
                elif code == _DROPPED:
                    t["search"] = {"drop": e[3]}
                elif code == _SANK:
                    t["sink"] = e[1]
            for _j, t in found[:want]:
                turns.append(t)
            hc[1] = found[want][0] if len(found) > want else len(log)
            hc[2] = self._nturns
        return turns

    # ------------------------------------------------------------------ the game protocol
    # (dsa_widget.core.protocol.GameState: what bots, timelines, tournaments and the widget use)

    @property
    def to_move(self) -> int:
        """The seat to decide, :data:`~dsa_widget.core.protocol.CHANCE` when the dice roll
        next, :data:`~dsa_widget.core.protocol.TERMINAL` once the game is over."""
        if self._step == ROLL_STEP:
            return CHANCE
        return TERMINAL if self._player is None else self._player

    def legal_actions(self) -> tuple[str, ...]:
        """The seat's legal choices; ``()`` at a roll (chance) and at the end."""
        return () if self._step == ROLL_STEP else self._legal

    def chance_outcomes(self) -> tuple[tuple[tuple[int, int], Fraction], ...]:
        """At a roll, the nine equally likely dice (``((d1, d2), 1/9)`` each); else ``()``."""
        return _CHANCE_OUTCOMES if self._step == ROLL_STEP else ()

    def apply_chance(self, outcome: Sequence[int]) -> None:
        """Roll these dice (checked): the same as :meth:`roll` with ``dice``."""
        self.roll(outcome)

    def sample_chance(self) -> None:
        """Roll the game's own dice (checked: it must be a roll)."""
        self.roll()

    def apply_unchecked(self, choice: str) -> None:
        """Apply a choice known to be legal (the fast path of playouts): no check at all.
        ``"roll"`` rolls the game's own dice."""
        self._apply(choice)

    def roll_unchecked(self, dice: tuple[int, int] | None = None) -> tuple[int, bool]:
        """Roll (the game's own dice, or ``dice``) with no check, for playouts that must know
        where the diver got to: returns ``(space landed on, got back to the submarine)``, also
        when the swim ends the round."""
        return self._roll(None if dice is None else (dice[0], dice[1]))

    def next_dice(self) -> tuple[int, int]:
        """Draw the next dice from the game's own generator without rolling them (a search
        that branches on the dice rolls them with :meth:`roll_unchecked`)."""
        return self._next_dice()

    def returns(self) -> tuple[float, ...]:
        """The points banked by seat, as floats (the game's result for search and learning)."""
        return tuple(float(x) for x in self._score)

    def clone(self) -> Game:
        """An independent copy, history and events included (see :meth:`copy`)."""
        return self.copy()

    @property
    def at_turn_boundary(self) -> bool:
        """True between two turns (nothing of the current turn done yet) and at the end."""
        return self._step == OVER or (not self._breathed and self._step != SEARCH_STEP)

    def random_playout(self, rng: random.Random, trace: list[Any] | None = None) -> None:
        """Play on to the end from here with uniformly random legal actions and dice at their odds,
        drawn from ``rng``; ``trace`` (a list) receives what was played
        (:func:`dsa_widget.core.protocol.random_playout`, the plain way)."""
        plain_playout(self, rng, trace)

    def play_record_turn(self, turn: Any) -> None:
        """Play one turn as a record writes it (``{"back": ..., "dice": ..., "search": ...}``),
        checked as a whole; a bad turn raises and changes nothing."""
        from .record import play_record_turn

        play_record_turn(self, turn)

    # ------------------------------------------------------------------ the fast read interface
    # The live state as read-only sequences, shared rather than copied, for heuristics and
    # playouts that read a state many times.  Never change them: act through apply().  A View
    # has the same names (positions, heading_up, returned, carrying, spaces, levels, air, ...),
    # so code written against them runs on a Game and on a View alike.

    @property
    def positions(self) -> Sequence[int]:
        """Each diver's space (0 = the submarine)."""
        return self._pos

    @property
    def heading_up(self) -> Sequence[bool]:
        return self._up

    @property
    def returned(self) -> Sequence[bool]:
        """Who is back in the submarine this round."""
        return self._home

    @property
    def carrying(self) -> Sequence[tuple[Item, ...]]:
        """Each diver's items, each a tuple of chip ids (see :meth:`chip`)."""
        return self._carry

    @property
    def spaces(self) -> Sequence[Item | None]:
        """``spaces[0]`` is the submarine (``None``); ``spaces[i]`` is space ``i``: ``None``
        for a blank, else the item's chip ids."""
        return self._path

    @property
    def levels(self) -> tuple[int, ...]:
        """Chip ``c``'s level is ``levels[c]`` (public: everybody sees levels)."""
        return self._lv

    @property
    def banked_chips(self) -> Sequence[tuple[int, ...]]:
        """The chip ids each seat has banked."""
        return self._banked

    @property
    def breathed(self) -> bool:
        """True once the current turn's diver has breathed (the turn is under way)."""
        return self._breathed

    @property
    def last_home(self) -> int:
        """The seat that last got back this round (-1: nobody yet)."""
        return self._last_home

    @property
    def history_length(self) -> int | None:
        """Turns in :attr:`history` (``None`` when the game keeps none)."""
        return self._nturns if self._hist_on else None  # the turn list starts with the game

    @property
    def last_dice(self) -> tuple[int, int] | None:
        """The dice of the latest roll (this turn's, else the latest recorded turn's), or
        ``None`` before the first roll (and in a game that keeps no history, between turns)."""
        if self._hist_on or self._step in (SEARCH_STEP, SINK_STEP, OVER):  # else: between turns
            return self._ldice
        return None

    def history_since(self, k: int) -> list[dict[str, Any]]:
        """The recorded turns after the first ``k`` (copies), without copying the whole list."""
        if not self._hist_on:
            raise ValueError("this game was created with history=False")
        return [dict(t) for t in self._built_history()[k:]]

    # ------------------------------------------------------------------ public API: acting

    def legal_choices(self) -> tuple[str, ...]:
        """The choices legal at this moment (empty once the game is over).

        >>> Game(players=2, seed=3).legal_choices()
        ('roll',)
        """
        return self._legal

    def apply(self, choice: str | Mapping[str, int] | Sequence[Any]) -> None:
        """Apply one legal choice; ``"roll"`` rolls the game's own dice.

        ``choice`` is a string from :meth:`legal_choices`; ``{"drop": i}`` and
        ``("drop", i)`` are accepted for ``"drop i"``.  An illegal or
        malformed choice raises :class:`IllegalActionError` saying why, and the
        game is unchanged.
        """
        legal = self._legal
        if type(choice) is not str or choice not in legal:  # a legal string is found at once
            norm = _normalize_choice(choice)
            if norm not in legal:
                raise IllegalActionError(self._why_illegal(choice, norm), choice, legal)
            choice = norm
        step = self._step  # _apply, written out (one call less on every step)
        if step == ROLL_STEP:
            self._roll(None)
        elif step == SEARCH_STEP:
            self._search(choice)
        elif step == TURN_BACK_STEP:
            self._turn_back(choice)
        else:
            self._lay(choice)

    def roll(self, dice: Sequence[int] | None = None) -> None:
        """Roll and swim (step 3).  ``dice=(d1, d2)``, each 1..3, forces the
        roll (what-if, teaching, replays); without it the game's dice roll.

        >>> g = Game(players=2, seed=0)
        >>> g.roll((4, 1))
        Traceback (most recent call last):
        ...
        dsa_widget.deep_sea.errors.IllegalActionError: dice must be two integers from 1 to 3, got (4, 1)
        >>> g.roll((3, 3)); g.divers[0].position
        6
        """
        if self._step != ROLL_STEP:
            raise IllegalActionError(self._why_illegal(ROLL, ROLL), ROLL, self._legal)
        self._roll(None if dice is None else _check_dice(dice))

    def play_turn(self, back: Any = False, dice: Any = None, search: Any = NONE, sink: Any = None) -> None:
        """Play a whole turn as a record states it (``back``, ``dice``, ``search`` and, on a turn
        that ends a round, ``sink``: ``{"seat": [chip indices, ...]}``, the order each drowning
        diver lays his chips; a diver not named lays them in pickup order).

        Checked as a whole: if any part is illegal, :class:`IllegalActionError`
        is raised and the game is left as it was before the turn.
        """
        # the step log only grows during a turn: keep its length rather than copying it (a copy
        # per turn made loading a long record quadratic)
        kept = (self._log, self._ev_on, self._hist_on, self._evc, self._hc)
        log = kept[0]
        nl = len(log) if log is not None else 0
        snapshot = self.copy(history=False, events=False)
        try:
            self._play_turn(back, dice, search, sink)
        except IllegalActionError:
            self._restore(snapshot)
            if log is not None:
                log.truncate(nl)
            self._log, self._ev_on, self._hist_on, self._evc, self._hc = kept
            for cache in (self._evc, self._hc):  # nothing reads them mid-turn, but be sure
                if cache is not None and cache[1] > nl:
                    self._evc = self._hc = None
            raise

    def _play_turn(self, back: Any, dice: Any, search: Any, sink: Any) -> None:
        if self._step == OVER:
            raise IllegalActionError("the game is over; no more turns", None, ())
        if self._step not in (TURN_BACK_STEP, ROLL_STEP) or self._breathed:
            raise IllegalActionError("a turn is already under way; finish it first", None, self._legal)
        if not isinstance(back, bool):
            raise IllegalActionError(f"back must be true or false, got {back!r}", back, ())
        if self._step == TURN_BACK_STEP:
            self._apply(BACK if back else CONTINUE)
        elif back and not self._forced:
            raise IllegalActionError(self._why_illegal(BACK, BACK), BACK, self._legal)
        if dice is None:
            raise IllegalActionError("a turn needs its dice", None, self._legal)
        seat = self._player
        turn_no = self.turn_number
        # cleared by a call, not an assignment: mypy would keep ``_drowned`` narrowed to None
        # past the turn's steps (which set it), and the compiled rules would check that type
        self._forget_drowned()
        self.roll(dice)
        norm = _normalize_choice(search)
        if self.turn_number == turn_no and self._player == seat and self._step == SEARCH_STEP:
            self.apply(norm if norm is not None else search)
        elif norm != NONE:  # the swim ended the turn (or its search): nothing could be searched
            raise IllegalActionError(self._why_no_search(seat, norm or _short(search)), search, (NONE,))  # type: ignore[arg-type]
        if self._step == SINK_STEP:
            self._play_sink(sink)
        elif sink is not None:
            # the round may have ended with drowning divers of one chip each (nobody was asked):
            # naming them with their one order is allowed, anything else is an error
            if self.setup.options.sink_order != "chosen" or self._drowned is None:
                raise IllegalActionError(
                    "sink is written only on a turn that ends a round, under sink_order 'chosen'", sink, ()
                )
            self._sink_orders(sink, self._drowned)

    def _forget_drowned(self) -> None:
        self._drowned = None

    def _play_sink(self, sink: Any) -> None:
        """The sink step as a record writes it: for each drowning diver named, the order of his
        chips; one not named lays them in pickup order."""
        chips = {q: _n_chips(self._carry[q]) for q in self._drowning() if self._carry[q]}
        orders = self._sink_orders({} if sink is None else sink, chips)
        while self._step == SINK_STEP:
            order = orders.get(self._sink_queue[0])
            if order is None:
                self._lay(LAY_ALL)
            else:
                for i in order[:-1]:
                    self._lay(lay(i))

    @staticmethod
    def _sink_orders(sink: Any, chips: Mapping[int, int]) -> dict[int, list[int]]:
        """A record's ``sink`` object checked against the drowning divers (seat -> chips)."""
        if not isinstance(sink, Mapping):
            raise IllegalActionError(
                f"sink must be an object seat -> chip order, got {_short(sink)}", sink, ()
            )
        orders: dict[int, list[int]] = {}
        for key, order in sink.items():
            if not (isinstance(key, str) and key.isascii() and key.isdigit() and key == str(int(key[:2]))):
                # one way to write each seat ("1", never "01"), so no seat can be named twice
                raise IllegalActionError(f"sink: {_short(key)} is not a seat number", sink, ())
            q = int(key)
            if q not in chips:
                raise IllegalActionError(
                    f"sink: seat {q} is not a diver drowning with chips this round", sink, ()
                )
            k = chips[q]
            if not (
                isinstance(order, list)
                and len(order) == k
                and all(type(i) is int for i in order)
                and sorted(order) == list(range(k))
            ):
                raise IllegalActionError(
                    f"sink: seat {q}'s order must list his chips 0..{k - 1} once each, got {_short(order)}",
                    sink,
                    (),
                )
            orders[q] = order
        return orders

    # ------------------------------------------------------------------ explanations

    def _why_illegal(self, choice: object, norm: str | None) -> str:
        legal = ", ".join(repr(c) for c in self._legal) or "nothing"
        if self._step == OVER:
            return f"{_short(choice)} is not legal: the game is over"
        if norm is None:
            return (
                f"{_short(choice)} is not a choice; choices are 'back', 'continue', 'roll', "
                f"'none', 'take', 'drop i', 'lay i' and 'lay all'; legal now: {legal}"
            )
        p = self._player
        name = self.setup.players[p]  # type: ignore[index]
        reason = ""
        if norm == BACK and self._step in (TURN_BACK_STEP, ROLL_STEP) and not self._breathed:
            if self._forced:
                reason = f" ({name} must turn back: no free space deeper; just roll)"
            elif self._up[p]:  # type: ignore[index]
                reason = f" ({name} is already heading up; a diver turns back once per round)"
            elif self._pos[p] == 0:  # type: ignore[index]
                reason = f" ({name} is in the submarine and cannot turn back there)"
            elif not self._carry[p]:  # type: ignore[index]
                reason = f" ({name} carries no treasure; option turn_back_requires_treasure)"
        elif norm == TAKE and self._step == SEARCH_STEP:
            reason = " (the space is blank: nothing to take)"
        elif norm.startswith("drop") and self._step == SEARCH_STEP:
            if self._legal is _TAKE_LEGAL:
                reason = " (an item can only be put down on a blank space)"
            else:
                reason = f" ({name} carries {len(self._carry[p])} item(s))"  # type: ignore[index]
        return f"{_short(choice)} is not legal now: it is {name}'s turn, step {self._step!r}{reason}; legal: {legal}"

    def _why_no_search(self, seat: int, choice: str) -> str:
        name = self.setup.players[seat]
        said = repr(choice) if choice in (TAKE, NONE) or choice.startswith("drop ") else choice
        if self._home[seat]:
            return f"{said}: {name} is back in the submarine and does not search"
        if self._pos[seat] == 0 and not self.is_over:
            return f"{said}: {name} is still in the submarine and does not search"
        if choice == TAKE:
            return f"{said}: {name} stands on a blank; nothing to take"
        return f"{said}: {name} carries nothing to put down"

    # ------------------------------------------------------------------ public API: reading

    @property
    def players(self) -> tuple[str, ...]:
        return self.setup.players

    @property
    def current_player(self) -> int | None:
        """The seat whose turn it is, ``None`` once the game is over."""
        return self._player

    @property
    def step(self) -> str:
        """``'turn_back'``, ``'roll'``, ``'search'``, ``'sink'`` or ``'over'``."""
        return self._step

    @property
    def is_over(self) -> bool:
        """True once the game is over (step ``'over'``)."""
        return self._over

    @property
    def is_chance(self) -> bool:
        """True when the next thing to happen is a dice roll."""
        return self._step == ROLL_STEP

    @property
    def round(self) -> int:
        return self._round

    @property
    def air(self) -> int:
        """The air left (never below 0)."""
        return self._air if self._air > 0 else 0

    @property
    def must_turn_back(self) -> bool:
        """True when the current diver is forced to turn back this turn."""
        return self._forced and not self._breathed

    @property
    def path_length(self) -> int:
        return len(self._path) - 1

    @property
    def scores(self) -> tuple[int, ...]:
        """Points banked so far, by seat (true values, whatever the reveal option)."""
        return tuple(self._score)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (several on a shared win), else ``()``."""
        return self._winners

    @property
    def turn_number(self) -> int:
        """Turns completed so far (the current turn is ``turn_number + 1``)."""
        return self._nturns

    @property
    def history(self) -> list[dict[str, Any]]:
        """The turns played, as a record's ``turns`` list."""
        if not self._hist_on:
            raise ValueError("this game was created with history=False")
        return [dict(t) for t in self._built_history()]

    @property
    def events(self) -> list[dict[str, Any]]:
        """Everything that happened, as a list of event dicts (see ``dsa_widget.deep_sea.events``).

        Bank events carry chip values; every other event carries levels only.
        """
        if not self._ev_on:
            return []
        return [dict(e) for e in self._built_events()]

    def events_since(self, k: int) -> list[dict[str, Any]]:
        """The events after the first ``k`` (copies), without copying the whole log.

        >>> g = Game(players=2, seed=1)
        >>> n = g.n_events; g.roll((1, 1)); [e["type"] for e in g.events_since(n)]
        ['turn', 'breathe', 'roll', 'move']
        """
        if not self._ev_on:
            return []
        return [dict(e) for e in self._built_events()[k:]]

    @property
    def n_events(self) -> int:
        return len(self._built_events()) if self._ev_on else 0

    @property
    def _events(self) -> _Log | None:
        """The event log itself (the dicts, not copies), ``None`` when events are off."""
        return self._built_events() if self._ev_on else None

    def chip(self, chip_id: int) -> tuple[int, int]:
        """The ``(level, value)`` of chip ``chip_id`` (its index in the setup path)."""
        return (self._lv[chip_id], self._val[chip_id])

    def _item_out(self, item: tuple[int, ...], known: Any = True) -> Any:
        lv, val = self._lv, self._val
        if len(item) == 1:
            c = item[0]
            return [lv[c], val[c] if known is True or known(c) else "?"]
        return [[lv[c], val[c] if known is True or known(c) else "?"] for c in item]

    @property
    def path(self) -> list[Any]:
        """Every space from the submarine outward: ``'blank'``, a chip
        ``[level, value]`` or a stack (a list of chips).  True values."""
        return ["blank" if x is None else self._item_out(x) for x in self._path[1:]]

    @property
    def divers(self) -> tuple[Diver, ...]:
        """Every diver, values of carried chips hidden (``'?'``): nobody knows them."""
        names = self.setup.players
        return tuple(
            Diver(
                q,
                names[q],
                self._pos[q],
                "up" if self._up[q] else "down",
                self._home[q],
                tuple(tuple((self._lv[c], "?") for c in item) for item in self._carry[q]),
            )
            for q in range(self._n)
        )

    def banked(self, seat: int) -> tuple[tuple[int, int], ...]:
        """The chips ``seat`` has banked, with their values."""
        return tuple((self._lv[c], self._val[c]) for c in self._banked[seat])

    def state_dict(self) -> dict[str, Any]:
        """The state as ``python -m dsa_widget replay`` prints it (RECORD.md)."""
        return {
            "finished": self._step == OVER,
            "round": self._round,
            "air": self._air if self._air > 0 else 0,
            "next_player": self._player,
            "path": self.path,
            "divers": [
                {
                    "position": self._pos[q],
                    "heading": "up" if self._up[q] else "down",
                    "returned": self._home[q],
                    "carrying": [self._item_out(it) for it in self._carry[q]],
                }
                for q in range(self._n)
            ],
            "scores": list(self._score),
            "winners": list(self._winners),
        }

    # ------------------------------------------------------------------ copying

    def copy(
        self, *, history: object = True, events: object = True, rng: random.Random | None = None
    ) -> Game:
        """An independent game in the same state (dice generator included).

        ``history=False`` / ``events=False`` leave the turn list / event log
        out of the copy, which makes it cheaper (playouts, what-if probes).
        ``rng`` gives the copy that generator for its dice instead of a copy
        of this game's (a search that rolls its own dice need not copy them).
        """
        g = Game(_BLANK)  # every field is set below
        g.setup = self.setup
        g._n = self._n
        g._lv = self._lv
        g._val = self._val
        g._path = self._path[:]
        g._occ = self._occ[:]
        g._pos = self._pos[:]
        g._up = self._up[:]
        g._home = self._home[:]
        g._carry = self._carry[:]
        g._banked = self._banked[:]
        g._score = self._score[:]
        g._air = self._air
        g._round = self._round
        g._player = self._player
        g._step = self._step
        g._over = self._over
        g._legal = self._legal
        g._breathed = self._breathed
        g._forced = self._forced
        g._last = self._last
        g._n_home = self._n_home
        g._last_home = self._last_home
        g._winners = self._winners
        g._nturns = self._nturns
        ev = g._ev_on = bool(events) and self._ev_on
        hist = g._hist_on = bool(history) and self._hist_on
        if ev or hist:
            log: _Log = self._log  # type: ignore[assignment]
            g._log = log.copy()
            # the copy borrows the dicts spelled out so far (see _own)
            evc, hc = self._evc, self._hc
            g._evc = None if evc is None or not ev else [evc[0], evc[1], evc[2], False]
            g._hc = None if hc is None or not hist else [hc[0], hc[1], hc[2], False]
        else:
            g._log = g._evc = g._hc = None
        g._ldice = self._ldice
        g._requires = self._requires
        g._dice = self._dice
        g._vcache = {}
        g._sink_queue = self._sink_queue
        g._sink_done = dict(self._sink_done)
        g._laying = self._laying
        g._drowned = None
        if rng is not None:
            g._rng = rng
            g._bits = _fast_dice(rng)
        elif self._rng is None:
            g._rng = g._bits = None
        else:
            rng = g._rng = random.Random()
            rng.setstate(self._rng.getstate())
            g._bits = rng.getrandbits if _FAST_DICE else None
        return g

    def _restore(self, other: Game) -> None:
        for name in _GAME_SLOTS:
            setattr(self, name, getattr(other, name))

    def restore(self, snapshot: object) -> None:
        """Become a copy of ``snapshot`` in place (an earlier copy of this game: undo in a
        widget keeps the same object).  ``snapshot`` is left as it is."""
        if not isinstance(snapshot, Game) or snapshot.setup != self.setup:
            raise ValueError("restore() takes a copy of this same game (same setup)")
        self._restore(snapshot.copy())

    def __copy__(self) -> Game:
        return self.copy()

    def __deepcopy__(self, memo: dict[int, Any]) -> Game:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (
            self.setup == other.setup
            and self.state_dict() == other.state_dict()
            and (
                self._step,
                self._breathed,
                self._forced,
                self._legal,
                tuple(self._banked),
                self._sink_done,
                self._laying,
            )
            == (
                other._step,
                other._breathed,
                other._forced,
                other._legal,
                tuple(other._banked),
                other._sink_done,
                other._laying,
            )
        )

    __hash__ = None  # type: ignore[assignment]

    # ------------------------------------------------------------------ records

    def to_record(self) -> dict[str, Any]:
        """The game as a RECORD.md document (setup with its path, every finished turn).

        A record holds whole turns (RECORD.md: a turn is its dice with the choices around them),
        so a turn in progress (dice rolled, the search not yet chosen; or a round's sink not yet
        laid) is not in it: the record, and :meth:`save`, stop at the last finished turn, and
        :meth:`from_record` gives the game as it stood then.
        """
        from .record import game_to_record

        return game_to_record(self)

    def save(self, file: Any) -> None:
        """Write :meth:`to_record` as JSON to a path or a text file object (a turn in progress
        is not written: see :meth:`to_record`)."""
        text = json.dumps(self.to_record(), indent=1)
        if hasattr(file, "write"):
            file.write(text)
        else:
            with open(file, "w", encoding="utf-8") as f:
                f.write(text + "\n")

    @classmethod
    def from_record(cls, record: Any, *, events: bool = True) -> Game:
        """Replay a record (dict, JSON text or path), checking every turn.

        Raises :class:`~dsa_widget.deep_sea.errors.RecordError` naming the turn or
        setup key at fault.
        """
        from .record import load_record

        return load_record(record, events=events)

    @classmethod
    def load(cls, record: Any, *, events: bool = True) -> Game:
        """The same as :meth:`from_record`."""
        return cls.from_record(record, events=events)

    # ------------------------------------------------------------------ views

    def view(self, seat: object, *, knower: object = "seat") -> View:
        """What ``seat`` may know: a :class:`~dsa_widget.deep_sea.view.View` (no hidden values).

        ``knower=None`` gives the knowledge of an onlooker instead (a shared screen): only what
        every player knows, even under ``reveal="owner"``.
        """
        from .view import View

        n = self._n
        if not is_int(seat) or not 0 <= seat < n:
            raise ValueError(f"seat must be 0..{n - 1}, got {seat!r}")
        if knower == "seat":
            knower = seat
        over = self._step == OVER
        # What a seat knows changes only when chips are banked (at a round's end), so it is
        # computed once per (knower, round) and kept with the game.
        key = (knower, self._round, over)
        hit = self._vcache.get(key)
        if hit is None:
            public = self.setup.options.reveal == "public" or over
            known: dict[int, int] = {}
            for q in range(n):
                if public or q == knower:
                    for c in self._banked[q]:
                        known[c] = self._val[c]
            pool: dict[int, list[int]] = {1: [], 2: [], 3: [], 4: []}
            for c, (lv, val) in enumerate(zip(self._lv, self._val, strict=False)):
                if c not in known:
                    pool[lv].append(val)
            scores = tuple(self._score[q] if (public or q == knower) else None for q in range(n))
            hit = (known, {lv: tuple(sorted(v)) for lv, v in pool.items()}, scores, tuple(self._banked))
            self._vcache[key] = hit
        known, unseen, scores, banked = hit
        # A frozen dataclass's __init__ sets each field through object.__setattr__; filling
        # __dict__ at once is the same object, built twice as fast (bots take many views).
        view = object.__new__(View)
        view.__dict__.update(
            seat=seat,
            players=self.setup.players,
            options=self.setup.options,
            rounds=self.setup.rounds,
            start_air=self.setup.air,
            round=self._round,
            air=self._air if self._air > 0 else 0,
            step=self._step,
            current_player=self._player,
            legal=self._legal,
            must_turn_back=self._forced and not self._breathed,
            path=tuple(self._path),
            levels=self._lv,
            positions=tuple(self._pos),
            heading_up=tuple(self._up),
            returned=tuple(self._home),
            carrying=tuple(self._carry),
            banked=banked,
            known=dict(known),
            scores=scores,
            unseen=dict(unseen),
            finished=over,
            winners=self._winners,
            breathed=self._breathed,
            last_home=self._last_home,
            turn_number=self._nturns,
            sink_queue=self._sink_queue,
            sink_done=tuple(self._sink_done.items()),
            laying=self._laying,
        )
        return view

    @classmethod
    def from_view(
        cls,
        view: View,
        values: Sequence[int],
        *,
        rng: Any = None,
        events: object = False,
    ) -> Game:
        """The full game in ``view``'s position in which chip ``c`` has value ``values[c]``.

        This is how a determinization is built (:meth:`View.sample` draws the values); it is
        also a way to set up a position by hand (``dataclasses.replace`` a view, then build
        the game).  Banked scores follow from ``values``; the game keeps no turn history (its
        start is unknown).  ``rng`` seeds its dice as in :class:`Game`.

        >>> g = Game(players=2, seed=3); g.roll((2, 2)); g.apply("take")
        >>> h = Game.from_view(g.view(0), [g.chip(c)[1] for c in range(len(g.levels))])
        >>> h.state_dict() == g.state_dict() and h.legal_choices() == g.legal_choices()
        True
        """
        levels = view.levels
        if len(values) != len(levels):
            raise ValueError(f"{len(values)} values given for {len(levels)} chips")
        setup = Setup(
            players=view.players,
            air=view.start_air,
            rounds=view.rounds,
            first_player=0,
            path=tuple(zip(levels, values, strict=False)),
            options=view.options,
            seed=None,
        )
        n = len(view.players)
        g = Game(_BLANK)  # every field is set below
        g.setup = setup
        g._n = n
        g._lv = levels
        g._val = tuple(values)
        g._path = list(view.path)
        occ = [-1] * len(view.path)
        for q in range(n):
            if view.positions[q]:
                occ[view.positions[q]] = q
        g._occ = occ
        g._pos = list(view.positions)
        g._up = list(view.heading_up)
        g._home = list(view.returned)
        g._carry = list(view.carrying)
        g._banked = list(view.banked)
        g._score = [sum(values[c] for c in b) for b in view.banked]
        g._air = view.air
        g._round = view.round
        g._player = view.current_player
        g._step = view.step
        g._over = view.step == OVER
        g._legal = view.legal
        g._breathed = view.breathed
        g._forced = view.must_turn_back
        g._last = view.breathed and view.current_player is not None and view.air <= 0
        g._n_home = sum(view.returned)
        g._last_home = view.last_home
        g._winners = view.winners
        g._nturns = view.turn_number
        g._log = _Log() if events else None
        g._ev_on = bool(events)
        g._hist_on = False
        g._evc = g._hc = None
        g._ldice = None
        g._requires = view.options.turn_back_requires_treasure
        g._vcache = {}
        g._sink_queue = view.sink_queue
        g._sink_done = dict(view.sink_done)
        g._laying = view.laying
        g._drowned = None
        g._rng = None
        g._bits = None
        g._dice = 0
        g.set_dice(rng)
        return g

    def set_dice(self, rng: Any) -> None:
        """Roll from now on with other dice: an int seeds the game's own generator (a one-int
        generator, free to copy), a :class:`random.Random` is drawn from, ``None`` is random."""
        if isinstance(rng, random.Random):
            self._rng = rng
        else:
            self._rng = None
            self._dice = random.Random(rng).getrandbits(64)
        self._bits = _fast_dice(self._rng)

    # ------------------------------------------------------------------ display

    def __repr__(self) -> str:
        if self.is_over:
            return f"<Game over: scores {list(self._score)}, winners {list(self._winners)}>"
        name = self.setup.players[self._player]  # type: ignore[index]
        return (
            f"<Game round {self._round}/{self.setup.rounds}, air {self.air}, "
            f"{name} to play, step {self._step!r}>"
        )

    def _repr_svg_(self) -> str:
        from .render import game_svg

        return game_svg(self)


def _drop_index(i: object) -> int | None:
    """``i`` as an item index if it is a plain int in range (bools and others are not)."""
    if type(i) is int and 0 <= i <= _MAX_DROP_INDEX:
        return i
    return None


def _normalize_choice(choice: object) -> str | None:
    """``'drop 1'``, ``{'drop': 1}``, ``('drop', 1)`` → ``'drop 1'``; other strings as they are;
    ``None`` for anything that is not a choice.  Only ASCII digits count, and an index past
    :data:`_MAX_DROP_INDEX` is no choice: the cost of refusing never depends on the number."""
    if isinstance(choice, str):
        if len(choice) > 64:
            return None
        s = " ".join(choice.strip().lower().split())
        for word, make in (("drop", drop), ("lay", lay)):
            if s.startswith(word) and s != LAY_ALL:
                rest = s[len(word) :].strip()
                if rest.isascii() and rest.isdigit() and len(rest) <= 6:
                    return make(int(rest))
                return None
        return s if s in (BACK, CONTINUE, ROLL, NONE, TAKE, LAY_ALL) else None
    if isinstance(choice, Mapping):
        if len(choice) == 1 and "drop" in choice:
            i = _drop_index(choice["drop"])
            return None if i is None else drop(i)
        return None
    if (
        isinstance(choice, (tuple, list))
        and len(choice) == 2
        and type(choice[0]) is str
        and choice[0] == "drop"
    ):
        i = _drop_index(choice[1])
        return None if i is None else drop(i)
    return None


def _check_dice(dice: object) -> tuple[int, int]:
    if (
        isinstance(dice, (tuple, list))
        and len(dice) == 2
        and all(type(d) is int and 1 <= d <= 3 for d in dice)
    ):
        return (dice[0], dice[1])
    raise IllegalActionError(f"dice must be two integers from 1 to 3, got {_short(dice)}", dice, ())


# ---------------------------------------------------------------------- the compiled twin
# (dsa_widget.deep_sea.native): a copy of this file compiled by mypyc, used in place of the
# definitions above when it was built from this very source.  Only the module named
# ``dsa_widget.deep_sea.rules`` looks for it; the copy itself (and any other import of this
# file under another name, such as the tests' plain-Python twin) keeps its own definitions.

#: True when this module's classes and functions are the compiled twin's
NATIVE = False
#: which engine runs, and why (see :func:`dsa_widget.deep_sea.native.status`)
NATIVE_STATUS = "plain Python"


def _use_native() -> None:
    global NATIVE, NATIVE_STATUS
    import importlib
    import os
    import warnings

    from . import native

    if os.environ.get("DSA_WIDGET_NO_COMPILED"):
        NATIVE_STATUS = "plain Python (DSA_WIDGET_NO_COMPILED is set)"
        return
    try:
        twin = importlib.import_module(f"{__package__}.{native.MODULE}")
    except ImportError:
        NATIVE_STATUS = "plain Python (no compiled build: python -m dsa_widget compile)"
        return
    if getattr(twin, "_SOURCE_HASH", None) != native.source_hash():
        NATIVE_STATUS = "plain Python (the compiled build is stale: python -m dsa_widget compile)"
        warnings.warn(
            "dsa_widget: the compiled rules were built from another version of rules.py and are "
            "not used; rebuild them with `python -m dsa_widget compile`",
            RuntimeWarning,
            stacklevel=2,
        )
        return
    space = globals()
    for name, value in vars(twin).items():
        if not name.startswith("__") and name not in ("NATIVE", "NATIVE_STATUS", "_use_native"):
            if getattr(value, "__module__", None) == twin.__name__:
                # its classes and functions are this module's (doctests, pickles, help())
                value.__module__ = __name__
            space[name] = value
    NATIVE = True
    NATIVE_STATUS = f"compiled by mypyc ({twin.__file__})"


if __name__ == "dsa_widget.deep_sea.rules":
    _use_native()
