"""Fast playouts: whole games played to the end by the compiled rules kernel.

:func:`random_playouts` plays games from a setup's start, :func:`playout_from` from any
position of a :class:`~dsa_widget.deep_sea.rules.Game` (read through its public properties
only), and :func:`trace_playout` plays one game recording every roll and choice and the state at
every turn boundary, so that the checked ``Game`` can replay it and must agree.

The kernel (:mod:`dsa_widget.deep_sea.kernel`) is compiled by numba when the ``fast`` extra is
installed (``pip install dsa_widget[fast]``) and runs the same code as plain Python otherwise
(no numpy needed then; about a hundred times slower).  ``DSA_WIDGET_NO_NUMBA=1`` forces plain
Python.  The same seed gives the same games either way.

Choices are made by a :class:`Policy` per seat: uniformly at random among the legal choices (the
default, the benchmark's policy), or by simple thresholds.  The dice are the kernel's own
generator (xoshiro128+), not the Game's: a playout from a Game does not reproduce the dice that
Game would roll.  A ``Game`` knows every chip's value, so a playout from it scores with the true
values; a bot that may not know them should first draw them (``Game.from_view(view,
view.sample(...))``) and play out from that.

>>> from dsa_widget import Game, Setup
>>> r = random_playouts(Setup.create(players=4, seed=1), games=2000, seed=7)
>>> r.games, r.players, round(sum(r.win_rates()), 9)
(2000, 4, 1.0)
>>> r == random_playouts(Setup.create(players=4, seed=1), games=2000, seed=7)
True
>>> g = Game(players=3, seed=5); g.roll((3, 3)); g.apply("take")
>>> p = playout_from(g, 500, seed=1)
>>> p.games, min(p.turns) > g.turn_number, g.step       # g itself is left as it was
(500, True, 'roll')
"""

from __future__ import annotations

import dataclasses
import random
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from . import kernel as K
from .rules import BACK, CONTINUE, DICE_OUTCOMES, LAY_ALL, NONE, TAKE, Game, drop, lay
from .setup import Setup

__all__ = [
    "COMPILED",
    "Policy",
    "Playouts",
    "Trace",
    "random_playouts",
    "playout_from",
    "trace_playout",
    "warm_up",
]

#: True when playouts run compiled by numba in this process
COMPILED = K.COMPILED

Backend = Literal["auto", "python"]
#: a roll ``(d1, d2)`` or a choice string, as ``Game.apply_chance`` / ``Game.apply`` take them
Action = tuple[int, int] | str


@dataclass(frozen=True)
class Policy:
    """How a seat chooses in a playout.

    ``kind="uniform"``: uniformly among the legal choices (turn back or not, take or not, put
    down which item or nothing, which chip to sink next).  ``kind="threshold"``: take a treasure
    while carrying fewer than ``take_below`` items; turn back (when free to choose) once
    carrying ``back_at`` items or more, or when the air before breathing is below
    ``back_air``; never put anything down; sink in pickup order.  ``kind="planner"``: the
    ``planner`` bot's rule of thumb (:class:`~dsa_widget.deep_sea.bots.heuristics.PlannerPolicy`
    with ``slack``, ``carry`` and ``up_slack``, its ``middle`` fixed at one half), choice for
    choice the same (``tests/test_kernel.py`` checks it): turn back once carrying something;
    heading down take the first treasure when the air left over after the rough air needed to
    get back with it falls under ``slack`` or past the path's middle; heading up take while
    carrying fewer than ``carry`` and the air left over exceeds ``up_slack``; put the lightest
    item down when the air is short of what the load needs; sink in pickup order.
    ``kind="simple"``: the estimates' default policy
    (:func:`~dsa_widget.deep_sea.analysis.estimate.simple_bot`), choice for choice.

    >>> Policy("threshold", take_below=3, back_at=2, back_air=12)
    Policy(kind='threshold', take_below=3, back_at=2, back_air=12, carry=2, slack=4, up_slack=2)
    """

    kind: Literal["uniform", "threshold", "planner", "simple"] = "uniform"
    take_below: int = 2
    back_at: int = 2
    back_air: int = 0
    carry: int = 2
    slack: int = 4
    up_slack: int = 2

    def __post_init__(self) -> None:
        if self.kind not in ("uniform", "threshold", "planner", "simple"):
            raise ValueError(
                f"policy kind must be 'uniform', 'threshold', 'planner' or 'simple', got {self.kind!r}"
            )
        for name in ("take_below", "back_at", "back_air", "carry", "slack", "up_slack"):
            v = getattr(self, name)
            if type(v) is not int or not -(2**31) < v < 2**31:
                raise ValueError(f"{name} must be an int, got {v!r}")


@dataclass(frozen=True)
class Playouts:
    """The results of ``games`` playouts of ``players`` seats.

    ``scores`` is flat, game by game (game ``g``'s scores are ``scores[g * players:(g + 1) *
    players]``); ``winners[g]`` is a bit mask of game ``g``'s winning seats (several on a shared
    win); ``turns[g]`` is ``Game.turn_number`` at its end.
    """

    players: int
    games: int
    scores: list[int]
    winners: list[int]
    turns: list[int]
    #: per game, the divers back in the submarine when the first round to end ended (a bit mask)
    homes: list[int] = dataclasses.field(default_factory=list, compare=False)
    #: per game, whether the game ended (rather than stopped at ``stop_round``'s end)
    ended: list[bool] = dataclasses.field(default_factory=list, compare=False)

    def scores_of(self, game: int) -> tuple[int, ...]:
        """Game ``game``'s scores by seat."""
        n = self.players
        return tuple(self.scores[game * n : (game + 1) * n])

    def winners_of(self, game: int) -> tuple[int, ...]:
        """Game ``game``'s winning seats (as ``Game.winners``)."""
        m = self.winners[game]
        return tuple(q for q in range(self.players) if m >> q & 1)

    def mean_scores(self) -> tuple[float, ...]:
        """Each seat's mean score."""
        n, g = self.players, max(1, self.games)
        return tuple(sum(self.scores[q::n]) / g for q in range(n))

    def win_rates(self) -> tuple[float, ...]:
        """Each seat's share of the wins, a shared win split equally (they sum to 1)."""
        n = self.players
        share = [1.0 / bin(m).count("1") if m else 0.0 for m in range(1 << n)]
        wins = [0.0] * n
        for m in self.winners:
            s = share[m]
            for q in range(n):
                if m >> q & 1:
                    wins[q] += s
        g = max(1, self.games)
        return tuple(w / g for w in wins)


@dataclass(frozen=True)
class Trace:
    """One playout recorded for checking (``tests/test_kernel.py`` replays it in a ``Game``).

    ``actions``: every roll and choice in order as ``(seat, action, number of legal
    choices)``; a roll's action is its dice (the seat is the diver who rolls; 9 outcomes), a
    choice's is the string ``Game.apply`` takes.  ``snapshots``: after every turn, at the turn
    boundary (the next turn settled, a new round started, or the game over), the tuple
    ``(turn_number, round, air, current player or -1, path_length, then for each seat:
    position, heading up 0/1, returned 0/1, items carried, score; then a digest of the path's
    and the carried items)``.  ``result``: the game's scores, winners and turns.
    """

    actions: tuple[tuple[int, Action, int], ...]
    snapshots: tuple[tuple[int, ...], ...]
    result: Playouts


# --------------------------------------------------------------------------- state from a Game


def _cfg(game: Game, games: int, trace: bool) -> list[int]:
    setup = game.setup
    opts = setup.options
    cfg = [0] * K.NCFG
    cfg[K.C_N] = len(setup.players)
    cfg[K.C_AIR] = setup.air
    cfg[K.C_ROUNDS] = setup.rounds
    cfg[K.C_REQUIRES] = int(opts.turn_back_requires_treasure)
    cfg[K.C_FARTHEST] = int(opts.drop_order == "farthest_first")
    cfg[K.C_LEVELS_DESC] = int(opts.tiebreak == "levels_desc")
    cfg[K.C_SINK_CHOSEN] = int(opts.sink_order == "chosen")
    cfg[K.C_CHIPS] = len(setup.path)
    cfg[K.C_GAMES] = games
    cfg[K.C_TRACE] = int(trace)
    cfg[K.C_POS : K.C_SORD + 1] = K.offsets(cfg[K.C_N], cfg[K.C_CHIPS])[:-1]
    return cfg


#: packed items by their chip ids (a Game's items are always packable: at most 3 chips, ids under
#: a Setup's 1000); bounded by the number of distinct items ever seen
_PACKED: dict[tuple[int, ...], int] = {}


def _pack(item: tuple[int, ...]) -> int:
    code = _PACKED.get(item)
    if code is None:
        code = K.pack_item(item)
        if len(_PACKED) < 1 << 16:
            _PACKED[item] = code
    return code


def _state(game: Game) -> list[int]:
    """The kernel state of ``game`` (public properties only)."""
    n = len(game.setup.players)
    c = len(game.setup.path)
    pos0, up0, home0, ncar0, score0, lvc0, path0, occ0, carry0, sq0, solen0, sord0, size = K.offsets(n, c)
    s = [0] * size
    step = game.step
    s[K.STEP] = {
        "turn_back": K.S_BEGIN,
        "roll": K.S_ROLL if game.breathed else K.S_BEGIN,
        "search": K.S_SEARCH,
        "sink": K.S_SINK,
        "over": K.S_OVER,
    }[step]
    s[K.AIR] = game.air
    s[K.ROUND] = game.round
    player = game.current_player
    s[K.PLAYER] = -1 if player is None else player
    s[K.NTURNS] = game.turn_number
    s[K.LASTHOME] = game.last_home
    s[K.LAST] = int(game.breathed and game.air == 0)
    s[K.PLEN] = game.path_length
    for i in range(c + 1):
        s[occ0 + i] = -1
    levels = game.levels
    positions, up, home, carrying = game.positions, game.heading_up, game.returned, game.carrying
    for q in range(n):
        s[pos0 + q] = positions[q]
        if positions[q]:
            s[occ0 + positions[q]] = q
        s[up0 + q] = int(up[q])
        s[home0 + q] = int(home[q])
        items = carrying[q]
        s[ncar0 + q] = len(items)
        for j, item in enumerate(items):
            s[carry0 + q * c + j] = _pack(item)
        s[score0 + q] = game.scores[q]
        for chip in game.banked_chips[q]:
            s[lvc0 + 5 * q + levels[chip]] += 1
    s[K.NHOME] = sum(1 for q in range(n) if home[q])
    for i, x in enumerate(game.spaces):
        if i:
            s[path0 + i] = 0 if x is None else _pack(x)
    if step == "sink":
        view = game.view(0)
        queue = view.sink_queue
        s[K.SQLEN] = len(queue)
        for j, q in enumerate(queue):
            s[sq0 + j] = q
        for q, order in (*view.sink_done, (queue[0], view.laying)):
            s[solen0 + q] = len(order)
            for j, i in enumerate(order):
                s[sord0 + q * c + j] = i
    return s


# --------------------------------------------------------------------------- running the kernel

_PLAIN: list[Any] = []


def _kernel(backend: Backend) -> tuple[Any, bool]:
    """The kernel's run function and whether it takes numpy arrays."""
    if backend == "auto" and K.COMPILED:
        return K.run, True
    if backend not in ("auto", "python"):
        raise ValueError(f"backend must be 'auto' or 'python', got {backend!r}")
    if not _PLAIN:
        _PLAIN.append(K.run if not K.COMPILED else K.plain_kernel())
    return _PLAIN[0], False


def _seed_words(seed: int | None) -> list[int]:
    rng = random.Random(seed) if seed is not None else random.SystemRandom()
    words = [rng.getrandbits(32) for _ in range(4)]
    if not any(words):
        words[0] = 1
    return words


def _policies(policy: Policy | Sequence[Policy] | None, n: int) -> list[int]:
    if policy is None:
        policy = Policy()
    if isinstance(policy, Policy):
        seats: Sequence[Policy] = [policy] * n
    else:
        seats = list(policy)
        if len(seats) != n or not all(isinstance(p, Policy) for p in seats):
            raise ValueError(f"give one Policy, or one per seat ({n})")
    out: list[int] = []
    for p in seats:
        if p.kind == "planner":
            out += [K.PLANNER, p.carry, p.slack, p.up_slack]
        elif p.kind == "simple":
            out += [K.SIMPLE, 0, 0, 0]
        else:
            out += [K.UNIFORM if p.kind == "uniform" else K.THRESHOLD, p.take_below, p.back_at, p.back_air]
    return out


def _shuffle(game: Game, redeal: Sequence[int] | None) -> list[int]:
    """The kernel's ``shuf`` buffer: the chips to deal anew, grouped by level."""
    if not redeal:
        return [0]
    c = len(game.setup.path)
    levels = game.levels
    ids = (
        sorted(set(redeal), key=lambda x: (levels[x], x))
        if all(type(x) is int and 0 <= x < c for x in redeal)
        else None
    )
    if ids is None:
        raise ValueError(f"redeal must list chip ids 0..{c - 1}")
    banked = {x for chips in game.banked_chips for x in chips}
    if banked.intersection(ids):
        raise ValueError("redeal may not list banked chips (their values are in the scores)")
    return [len(ids), *ids]


def _play(
    game: Game,
    games: int,
    seed: int | None,
    policy: Policy | Sequence[Policy] | None,
    run: Any,
    numpy: bool,
    trace: bool = False,
    stop_round: int = 0,
    redeal: Sequence[int] | None = None,
) -> tuple[Playouts, list[int], list[int]]:
    """Run the kernel ``games`` times from ``game``; with ``trace``, also return the raw trace and
    snapshot buffers."""
    if type(games) is not int or games < 0:
        raise ValueError(f"games must be an int >= 0, got {games!r}")
    n = len(game.setup.players)
    c = len(game.setup.path)
    s0 = _state(game)
    if type(stop_round) is not int or stop_round < 0:
        raise ValueError(f"stop_round must be an int >= 0, got {stop_round!r}")
    cfg0 = _cfg(game, games, trace)
    cfg0[K.C_STOP] = stop_round
    fixed = [
        cfg0,
        [lv for lv, _ in game.setup.path],
        [v for _, v in game.setup.path],
        _policies(policy, n),
        _shuffle(game, redeal),
    ]
    words = _seed_words(seed)
    tcap, scap = (2 * 1024 + 2, (6 + 5 * n) * 256 + 2) if trace else (2, 2)
    while True:
        if numpy:
            import numpy as np

            def buf(values: list[int]) -> Any:
                return np.array(values, dtype=np.int64)

            def zeros(k: int) -> Any:
                return np.zeros(k, dtype=np.int64)

        else:

            def buf(values: list[int]) -> Any:
                return list(values)

            def zeros(k: int) -> Any:
                return [0] * k

        cfg, lv, val, pol, shuf = (buf(x) for x in fixed)
        tr, sn = zeros(tcap), zeros(scap)
        scores, winners, turns, homes = zeros(games * n), zeros(games), zeros(games), zeros(games)
        run(
            buf(s0),
            cfg,
            lv,
            val,
            pol,
            shuf,
            buf(words),
            zeros(len(s0)),
            zeros(3 * c),
            tr,
            sn,
            scores,
            winners,
            turns,
            homes,
        )
        if not (tr[1] or sn[1]):
            break
        tcap, scap = 2 * tcap, 2 * scap  # a long game: again, with the same dice, in more room

    def out(a: Any) -> list[int]:
        return a.tolist() if numpy else list(a)

    hm = out(homes)
    result = Playouts(
        n, games, out(scores), out(winners), out(turns), [x & 0xFFFF for x in hm], [x >> 16 == 1 for x in hm]
    )
    if games and min(result.turns) < 0:
        raise RuntimeError("the playout kernel stopped a game that would not end (a kernel bug)")
    return result, out(tr), out(sn)


def random_playouts(
    setup: Setup,
    games: int,
    seed: int | None = None,
    *,
    policy: Policy | Sequence[Policy] | None = None,
    backend: Backend = "auto",
) -> Playouts:
    """Play ``games`` complete games from ``setup``'s start (uniformly random legal choices
    unless ``policy`` says otherwise; one :class:`Policy`, or one per seat).

    ``seed`` makes the games reproducible (``None``: fresh randomness).  ``backend="python"``
    runs the plain Python kernel even when numba is available (same results, far slower).

    >>> r = random_playouts(Setup.create(players=2, seed=3), games=3, seed=11)
    >>> r == random_playouts(Setup.create(players=2, seed=3), games=3, seed=11, backend="python")
    True
    """
    if not isinstance(setup, Setup):
        raise TypeError(f"expected a Setup, got {type(setup).__name__}")
    run, numpy = _kernel(backend)
    return _play(Game(setup, events=False, history=False), games, seed, policy, run, numpy)[0]


def playout_from(
    game: Game,
    playouts: int = 1,
    seed: int | None = None,
    *,
    policy: Policy | Sequence[Policy] | None = None,
    backend: Backend = "auto",
    stop_round: int = 0,
    redeal: Sequence[int] | None = None,
) -> Playouts:
    """Play ``game`` out to the end ``playouts`` times, each from its present position (any
    step: a turn under way, a search, a sink step, or the end).  ``game`` is not changed.

    ``stop_round=r``: stop each playout when round ``r`` ends (its ``scores`` are then those
    banked so far, ``ended`` says which games ended instead).  ``redeal``: chip ids (not banked)
    whose values are dealt anew among themselves, level by level, before each playout — the
    chips a player has not seen, so that each playout is a fresh determinization of his view.

    >>> g = Game(players=2, path=[(1, 1), (4, 15)], air=5, seed=0)
    >>> r = playout_from(g, 100, seed=2)
    >>> sorted(set(r.scores)) <= [0, 1, 15, 16]
    True
    >>> r = playout_from(g, 100, seed=2, stop_round=1)
    >>> r.ended.count(True) < 100 and len(r.homes) == 100
    True
    """
    if not isinstance(game, Game):
        raise TypeError(f"expected a Game, got {type(game).__name__}")
    run, numpy = _kernel(backend)
    return _play(game, playouts, seed, policy, run, numpy, stop_round=stop_round, redeal=redeal)[0]


def _action(code: int) -> Action:
    kind, arg = divmod(code >> K.NBITS, K.KSHIFT)
    if kind == K.K_DICE:
        return DICE_OUTCOMES[arg]
    if kind == K.K_DROP:
        return drop(arg)
    if kind == K.K_LAY:
        return lay(arg)
    return {K.K_BACK: BACK, K.K_CONTINUE: CONTINUE, K.K_NONE: NONE, K.K_TAKE: TAKE, K.K_LAY_ALL: LAY_ALL}[
        kind
    ]


def trace_playout(
    start: Game | Setup,
    seed: int | None = None,
    *,
    policy: Policy | Sequence[Policy] | None = None,
    backend: Backend = "auto",
    kernel: Any = None,
) -> Trace:
    """One playout from ``start`` (a Game's position or a Setup's start) with everything it did
    recorded: see :class:`Trace`.  ``kernel``: another kernel run function to trace (such as
    :func:`~dsa_widget.deep_sea.kernel.plain_kernel`'s; it runs on lists).

    >>> t = trace_playout(Setup.create(players=2, seed=1), seed=4)
    >>> g = Game(Setup.create(players=2, seed=1))
    >>> for seat, action, _ in t.actions:
    ...     g.apply_chance(action) if isinstance(action, tuple) else g.apply(action)
    >>> g.scores == t.result.scores_of(0) and g.turn_number == len(t.snapshots)
    True
    """
    game = start if isinstance(start, Game) else Game(start, events=False, history=False)
    if kernel is None:
        run, numpy = _kernel(backend)
    else:
        run, numpy = kernel, False
    result, tr, sn = _play(game, 1, seed, policy, run, numpy, trace=True)
    mask = (1 << K.NBITS) - 1
    actions = tuple((tr[i], _action(tr[i + 1]), tr[i + 1] & mask) for i in range(2, 2 + 2 * tr[0], 2))
    width = 6 + 5 * result.players
    snaps = tuple(tuple(sn[i : i + width]) for i in range(2, 2 + sn[0], width))
    return Trace(actions, snaps, result)


def warm_up() -> float:
    """Compile the kernel now (numba compiles on first use, or loads its cache) and return the
    seconds it took; 0.0-ish without numba."""
    t0 = time.perf_counter()
    random_playouts(Setup.create(players=2, seed=0), 1, seed=0)
    return time.perf_counter() - t0
