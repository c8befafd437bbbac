"""Search bots: determinized Monte Carlo and information-set MCTS.

Both see only a :class:`~dsa_widget.deep_sea.view.View`.  The hidden chip values are
handled by *determinization*: :meth:`View.sample` deals the unseen values of
each level at random to the chips nobody has seen, never using the true ones;
the dice are chance, rolled by the search's own seeded generator.  Playouts
use a heuristic *rollout policy* (by default the ``planner`` rule, the best
heuristic in our round robin) for every diver, which predicts play far better
than random moves.  With the ``planner`` or ``random`` rollout they run on the
compiled playout kernel (:mod:`dsa_widget.deep_sea.playouts`, knob
``engine="auto"``; the kernel's planner is checked choice for choice against
the Python rule), tens of times faster than the Python engine
(``engine="python"``, also the path for the other rollout policies).

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], seed=3)
>>> g.roll((3, 3))                 # Ann lands on a chip: take it or not?
>>> bot = MonteCarloBot(seed=1, playouts=16)
>>> bot(g.view(0), g.legal_choices()) in ("none", "take")
True
>>> sorted(bot.last_explanation["values"])
['none', 'take']
"""

from __future__ import annotations

import gc
import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from ...core.bots import Bot
from ...core.errors import is_int, is_number, short_repr
from ..playouts import COMPILED as PLAYOUTS_COMPILED
from ..playouts import Policy as KernelPolicy
from ..playouts import playout_from
from ..rules import OVER, ROLL_STEP, Game
from ..view import View
from .heuristics import (
    AirAwarePolicy,
    BaselinePolicy,
    DepthPolicy,
    PlannerPolicy,
    Policy,
    TakeNPolicy,
)

__all__ = ["ROLLOUT_POLICIES", "ISMCTSBot", "MonteCarloBot", "batch_rewards", "game_rewards", "rollout"]


class _RandomPolicy(Policy):
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def choose(self, s: Any, p: int, legal: tuple[str, ...], explain: bool = False) -> tuple[str, str | None]:
        return self.rng.choice(legal), None


#: ``planner`` with the knobs that beat it most often in 2-player games on the kernel (a grid
#: over carry, slack and up_slack, 12 setups x 6,000 games each: 61% against ``planner``): it
#: takes its first treasure much sooner (slack 22) and up to 4 on the way back, even with a
#: little less air than the rough estimate asks (up_slack -1)
EAGER: dict[str, Any] = {"carry": 4, "slack": 22.0, "up_slack": -1.0}

#: Rollout policies by name (each a factory taking the search's rng).
ROLLOUT_POLICIES: dict[str, Callable[[random.Random], Policy]] = {
    "air": lambda rng: AirAwarePolicy(),
    "baseline": lambda rng: BaselinePolicy(),
    "planner": lambda rng: PlannerPolicy(),
    "eager": lambda rng: PlannerPolicy(**EAGER),
    "take_n": lambda rng: TakeNPolicy(),
    "depth": lambda rng: DepthPolicy(),
    "random": _RandomPolicy,
}


#: How far a playout runs: to the end of the game, of the current round, or (``"auto"``) the
#: game with two players and the round with more (where a whole game's playouts cost too much
#: time a decision).
HORIZONS = ("game", "round", "auto")


class _SelfPolicy(Policy):
    """One policy for diver ``me``, another for everybody else."""

    def __init__(self, me: int, mine: Policy, others: Policy) -> None:
        self.me, self.mine, self.others = me, mine, others

    def choose(self, s: Any, p: int, legal: tuple[str, ...], explain: bool = False) -> tuple[str, str | None]:
        return (self.mine if p == self.me else self.others).choose(s, p, legal, explain)


def rollout(g: Game, policy: Policy, me: int = -1, stop_round: int = 0) -> bool:
    """Play ``g`` to the end with ``policy`` for every diver (fast path; the
    dice are the game's own), or only until round ``stop_round`` has ended
    when it is given.  Returns whether diver ``me`` got back to the
    submarine in the current round."""
    r0 = g.round
    home = me >= 0 and g.returned[me]
    if stop_round and r0 > stop_round:
        return home
    choose = policy.choose
    while True:
        step = g.step
        if step == ROLL_STEP:
            p = g.current_player
            r = g.round
            _, got_back = g.roll_unchecked()
            if p == me and got_back and r == r0:
                home = True
            if stop_round and g.round > stop_round:
                return home
        elif step == OVER:
            return home
        else:
            p = g.current_player
            g.apply_unchecked(choose(g, p, g.legal_choices())[0])  # type: ignore[arg-type]


def _lead(sc: Sequence[int], q: int) -> float:
    """Seat ``q``'s lead over the best other score / 40, clamped to ±1."""
    best_other = max(x for i, x in enumerate(sc) if i != q)
    m = (sc[q] - best_other) / 40.0
    return 1.0 if m > 1.0 else max(m, -1.0)


def game_rewards(g: Game, margin_weight: float) -> list[float]:
    """Each seat's reward at the end of a game: its share of the win (1/k on
    a k-way shared win) plus ``margin_weight`` × its lead over the best other
    score / 40 (clamped to ±1), which breaks ties between equally winning
    lines in favour of bigger leads."""
    sc = g.scores
    w = g.winners
    share = 1.0 / len(w) if w else 0.0
    return [(share if q in w else 0.0) + margin_weight * _lead(sc, q) for q in range(len(sc))]


def round_rewards(g: Game, margin_weight: float) -> list[float]:
    """Rewards when a playout stops at the end of a round: the exact ones
    (:func:`game_rewards`) if the game is over, else each seat's chance of
    winning estimated from the scores so far, a softmax over scores with a
    temperature of 8 points × √(rounds left), plus the lead bonus."""
    if g.is_over:
        return game_rewards(g, margin_weight)
    sc = g.scores
    t = 8.0 * math.sqrt(g.setup.rounds - g.round + 1)
    top = max(sc)
    e = [math.exp((x - top) / t) for x in sc]
    z = sum(e)
    return [e[q] / z + margin_weight * _lead(sc, q) for q in range(len(sc))]


class _SearchBot(Bot):
    playouts: int
    max_time: float | None
    rollout: str
    margin_weight: float
    horizon: str
    self_rollout: str | None
    policy: Policy
    engine: str
    use_kernel: bool
    self_names: list[str]
    #: whether engine="auto" runs the playouts on the kernel
    AUTO_KERNEL: ClassVar[bool] = True
    #: whether ``self_rollout`` may name several policies (``"eager+planner"``)
    SEVERAL_SELF: ClassVar[bool] = False

    def _check_knobs(self) -> None:
        if self.rollout not in ROLLOUT_POLICIES:
            raise ValueError(
                f"{self.name}: rollout must be one of {', '.join(ROLLOUT_POLICIES)}, got {self.rollout!r}"
            )
        if not is_int(self.playouts) or self.playouts < 1:
            raise ValueError(f"{self.name}: playouts must be a positive int, got {self.playouts!r}")
        for key in ("margin_weight", "c"):  # weights in the search's arithmetic
            x = self.knobs.get(key, 0.0)
            if not (is_number(x) and math.isfinite(x)):
                raise ValueError(f"{self.name}: {key} must be a number, got {short_repr(x)}")
        if self.max_time is not None and not (is_number(self.max_time) and self.max_time > 0):
            raise ValueError(f"{self.name}: max_time must be a positive number of seconds or None")
        self.self_names = self._self_names()
        if self.horizon not in HORIZONS:
            raise ValueError(
                f"{self.name}: horizon must be one of {', '.join(map(repr, HORIZONS))}, got {self.horizon!r}"
            )
        self.policy = ROLLOUT_POLICIES[self.rollout](self.rng)
        if self.engine not in ("auto", "kernel", "python"):
            raise ValueError(f"{self.name}: engine must be 'auto', 'kernel' or 'python', got {self.engine!r}")
        fast = self.rollout in KERNEL_POLICIES and all(x in KERNEL_POLICIES for x in self.self_names)
        if self.engine == "kernel" and not fast:
            raise ValueError(
                f"{self.name}: the kernel plays the rollout policies {', '.join(KERNEL_POLICIES)} only, "
                f"not {self.rollout!r} / {self.self_rollout!r}: use engine='python'"
            )
        self.use_kernel = fast and (self.engine == "kernel" or self.engine == "auto" and self._auto_kernel())

    def _self_names(self) -> list[str]:
        """The policies of this diver's own moves in playouts (``self_rollout``; several, joined by
        ``+``, where :attr:`SEVERAL_SELF` allows it); raises ValueError for a bad value."""
        sr = self.self_rollout
        if sr is None:
            return [self.rollout]
        names = sr.split("+") if isinstance(sr, str) and self.SEVERAL_SELF else [sr]
        if any(x not in ROLLOUT_POLICIES for x in names) or len(set(names)) < len(names):
            several = " (or several of them joined by '+', each once)" if self.SEVERAL_SELF else ""
            raise ValueError(
                f"{self.name}: self_rollout must be None or one of {', '.join(ROLLOUT_POLICIES)}"
                f"{several}, got {sr!r}"
            )
        return names

    def _auto_kernel(self) -> bool:
        """Whether ``engine="auto"`` runs the playouts on the kernel (when it plays the policies)."""
        return self.AUTO_KERNEL

    def _kernel_seats(self, me: int, n: int, mine_name: str | None = None) -> list[KernelPolicy]:
        """The kernel's policy for each seat: ``mine_name`` (default: the first of
        ``self_rollout``) for ``me``, ``rollout`` for the others."""
        mine = KERNEL_POLICIES[mine_name or self.self_names[0]]
        others = KERNEL_POLICIES[self.rollout]
        return [mine if q == me else others for q in range(n)]

    def _playout_policy(self, me: int, mine_name: str | None = None) -> Policy:
        """The playouts' policy: ``mine_name`` (default: the first of ``self_rollout``) for
        ``me``, ``rollout`` for the others."""
        name = mine_name or self.self_names[0]
        if name == self.rollout:
            return self.policy
        return _SelfPolicy(me, ROLLOUT_POLICIES[name](self.rng), self.policy)

    def _to_round_end(self, players: int) -> bool:
        """Whether playouts stop at the end of the round (``horizon``; ``"auto"``: unless the
        game has two players)."""
        return self.horizon == "round" or self.horizon == "auto" and players > 2

    def _finish(self, g: Game, me: int, round0: int, policy: Policy) -> tuple[bool, list[float]]:
        """Run the playout; return (back home this round, rewards)."""
        to_round_end = self._to_round_end(len(g.players))
        if self.use_kernel:
            stop = round0 if to_round_end else 0
            if g.is_over or stop and g.round > stop:
                return bool(g.returned[me]), round_rewards(g, self.margin_weight)
            seats = self._kernel_seats(me, len(g.players))
            r = playout_from(g, 1, seed=self.rng.getrandbits(63), policy=seats, stop_round=stop)
            t = 8.0 * math.sqrt(max(1, g.setup.rounds - g.round))
            return bool(r.homes[0] >> me & 1), kernel_rewards(
                r.scores, r.winners[0], r.ended[0], t, self.margin_weight
            )
        if to_round_end:
            home = rollout(g, policy, me, round0)
            return home, round_rewards(g, self.margin_weight)
        home = rollout(g, policy, me)
        return home, game_rewards(g, self.margin_weight)

    def decide(self, view: View, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        """The search (``_decide``) with Python's cyclic garbage collector paused: a search
        allocates so much that a full collection of the whole process (tens of ms, more the
        bigger the heap) would otherwise often fall inside a decision.  The collector is
        switched back on afterwards, so that work is only deferred, never skipped."""
        if not gc.isenabled():
            return self._decide(view, legal)
        gc.disable()
        try:
            return self._decide(view, legal)
        finally:
            gc.enable()

    def _decide(self, view: View, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        raise NotImplementedError

    def _sample(self, view: View) -> Game:
        g = view.sample(self.rng)
        g.set_dice(random.Random(self.rng.getrandbits(64)))
        return g


class MonteCarloBot(_SearchBot):
    """Flat determinized Monte Carlo: for each legal choice, play ``playouts``
    games to the end from states sampled from what this player knows (unseen
    values dealt at random to unseen chips, dice rolled at random), every
    diver following the rollout policy; pick the choice with the best average
    result (wins, a shared win counting 1/k, plus a small bonus for the score
    lead).  Every choice is tried on the same sampled deals and dice (common
    random numbers), so the comparison is sharp with few playouts.

    Knobs: ``playouts`` per choice (strength), ``max_time`` (seconds per
    decision, optional; makes play depend on the clock), ``max_turns`` (the most diver turns
    the playouts of one decision may play, all choices together, checked after each batch of
    playouts: a count, so the same seed makes the same choice on any machine; ``None``: no
    cap), ``rollout`` (the policy all divers follow in playouts), ``self_rollout`` (the
    policy for this diver's own moves in playouts; ``None``: ``rollout``; or several joined by
    ``+``, default ``"eager+planner"``: each choice is played out once per policy, on the same
    seeds, and is worth the best of those averages, *parallel rollouts*, at least as good as
    the better policy alone; the batches are as much smaller), ``margin_weight``,
    ``horizon``: ``"round"`` plays each playout to the end of this round only and scores it by
    the chance of winning estimated from the scores (cheaper and less noisy; blind to later
    rounds, except in the last round where it is exact), ``"game"`` plays on to the end of the
    game, ``"auto"`` (default) the game with two players and the round with more (where whole
    games cost too much time a decision); ``engine``: ``"auto"`` (the kernel when it plays the
    rollout policy), ``"kernel"`` or ``"python"``.  On the kernel a decision samples the hidden
    values once, then every playout deals the unseen ones anew.

    ``playouts=None`` (the default): 8,000 on the compiled kernel (the rewards of a batch of
    kernel playouts are summed with numpy, :func:`batch_rewards`), 200 otherwise, within
    ``max_turns=1_000_000`` (split between the own policies).  On the kernel, CPU a decision
    with a real choice (150 states of heuristic games each, ``bench_bots.py --only speed``, a
    quiet machine): 2 players median 63 ms, p95 69, max 76 ms; 4 players median 51 ms, p95 73,
    max 79 ms (work that took 48 / 56 / 58 ms here took 82 / 114 / 141 ms on a loaded day).

    Strength against the best heuristic, ``planner``, 2-player games, seats rotated, seed 2026
    (95% Wilson intervals; ``benchmarks/bench_bots.py``): the default won 802 of 1,000 games,
    80.2% (77.6-82.6%); with ``max_turns=700_000``, 79.95% (77.4-82.3%).  One own policy,
    ``eager`` (the default before, with 700,000 turns): 79.2% (76.6-81.6%); that with 30,000
    playouts a choice: 77.3%; without the cap: 79.5%; with the round horizon: 75.4%
    (72.7-78.0%); three own policies (``eager``, ``planner`` and one halfway between) at
    700,000 turns: 79.8%.  These differ by less than their intervals: past a few thousand
    playouts the rollout model, not the sampling noise, limits it.
    """

    #: playouts a choice by default, on the compiled kernel and otherwise
    DEFAULT_PLAYOUTS: ClassVar[tuple[int, int]] = (8000, 200)
    max_turns: int | None

    def _check_knobs(self) -> None:
        auto = self.playouts is None
        if auto:
            self.playouts = 1  # (checked below)
        mt = self.max_turns
        if mt is not None and (type(mt) is not int or mt < 1):
            raise ValueError(f"mc: max_turns must be None or a positive int (diver turns), got {mt!r}")
        super()._check_knobs()
        if auto:
            self.playouts = self.DEFAULT_PLAYOUTS[0 if self.use_kernel and PLAYOUTS_COMPILED else 1]

    name = "mc"
    summary = "Monte Carlo: plays each choice out many times from what it may know"
    SEVERAL_SELF = True
    KNOBS: ClassVar[dict[str, Any]] = {
        "playouts": None,
        "max_time": None,
        "max_turns": 1_000_000,
        "rollout": "planner",
        "self_rollout": "eager+planner",
        "margin_weight": 0.2,
        "horizon": "auto",
        "engine": "auto",
    }

    def _decide(self, view: View, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        if len(legal) == 1:
            return legal[0], {"reason": "the only legal choice"}
        if self.use_kernel:
            return self._decide_kernel(view, legal)
        me = view.seat
        r0 = view.round
        policies = [self._playout_policy(me, x) for x in self.self_names]
        k = len(policies)
        total = {c: [0.0] * k for c in legal}
        home = {c: [0] * k for c in legal}
        deadline = None if self.max_time is None else time.perf_counter() + self.max_time
        n = 0
        work = 0  # diver turns the playouts have played
        for _ in range(self.playouts):
            g0 = self._sample(view)
            for c in legal:
                for j, policy in enumerate(policies):
                    g = g0.copy(history=False, events=False)
                    g.apply_unchecked(c)
                    t0 = g.turn_number
                    got_home, r = self._finish(g, me, r0, policy)
                    work += g.turn_number - t0
                    home[c][j] += got_home
                    total[c][j] += r[me]
            n += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
            if self.max_turns is not None and work >= self.max_turns:
                break
        return self._verdict(legal, total, home, n, work, self._to_round_end(len(view.players)))

    def _verdict(
        self,
        legal: tuple[str, ...],
        total: dict[str, list[float]],
        home: dict[str, list[int]],
        n: int,
        work: int,
        to_round_end: bool,
    ) -> tuple[str, dict[str, Any]]:
        """The best choice and the explanation from the sums of the playouts' rewards and
        homecomings, per choice and per own policy (a choice is worth its best policy's average)."""
        names = self.self_names
        pick = {c: max(range(len(names)), key=lambda j: (total[c][j], -j)) for c in legal}
        values = {c: total[c][pick[c]] / n for c in legal}
        p_home = {c: home[c][pick[c]] / n for c in legal}
        best = max(legal, key=lambda c: (values[c], -legal.index(c)))
        out: dict[str, Any] = {
            "reason": f"best average over {n} sampled games per choice "
            f"(back home this round {p_home[best]:.0%})",
            "values": values,
            "p_home": p_home,
            "playouts": n,
            "turns": work,
            "horizon": "round" if to_round_end else "game",
        }
        if len(names) > 1:
            out["self_rollout"] = {c: names[pick[c]] for c in legal}
        return best, out

    def _decide_kernel(self, view: View, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        """The same search on the playout kernel: one sampled game, then for each choice
        ``playouts`` playouts, each dealing the unseen values anew (a fresh determinization),
        with the same seed for every choice (common random numbers)."""
        me = view.seat
        n = len(view.players)
        g0 = self._sample(view)
        redeal = _unseen_in_play(view)
        seatings = [self._kernel_seats(me, n, x) for x in self.self_names]
        k = len(seatings)
        stop = view.round if self._to_round_end(n) else 0
        rounds = view.rounds
        t_round = 8.0 * math.sqrt(max(1, rounds - view.round))  # round_rewards' temperature then
        after: dict[str, tuple[Game, list[int]]] = {}
        for c in legal:
            g = g0.copy(history=False, events=False)
            g.apply_unchecked(c)
            if g.round != view.round or g.is_over:  # the choice ended the round: chips banked
                banked = {x for chips in g.banked_chips for x in chips}
                after[c] = (g, [x for x in redeal if x not in banked])
            else:
                after[c] = (g, redeal)
        total = {c: [0.0] * k for c in legal}
        home = {c: [0] * k for c in legal}
        deadline = None if self.max_time is None else time.perf_counter() + self.max_time
        done = 0
        work = 0  # diver turns the playouts have played (all choices)
        while done < self.playouts:
            # (with several own policies, smaller batches: as much work between two checks)
            batch = min(_KERNEL_BATCH // k, self.playouts - done)
            seed = self.rng.getrandbits(63)  # one seed for every choice: common random numbers
            for c in legal:
                g, deal = after[c]
                if stop and g.round > stop or g.is_over:  # nothing left to play in the horizon
                    r_now = batch * round_rewards(g, self.margin_weight)[me]
                    total[c] = [x + r_now for x in total[c]]
                    continue
                for j, seats in enumerate(seatings):
                    r = playout_from(g, batch, seed=seed, policy=seats, stop_round=stop, redeal=deal)
                    total[c][j] += batch_rewards(
                        r.scores, r.winners, r.ended, n, t_round, self.margin_weight
                    )[me]
                    home[c][j] += sum(1 for h in r.homes if h >> me & 1)
                    work += sum(r.turns) - batch * g.turn_number
            done += batch
            if deadline is not None and time.perf_counter() > deadline:
                break
            if self.max_turns is not None and work >= self.max_turns:
                break
        return self._verdict(legal, total, home, done, work, bool(stop))


#: playouts per choice in one call of the kernel (the clock is read between calls)
_KERNEL_BATCH = 1000

#: the rollout policies the playout kernel plays (the others run in Python)
KERNEL_POLICIES: dict[str, KernelPolicy] = {
    "planner": KernelPolicy("planner"),
    "eager": KernelPolicy("planner", **{k: int(v) for k, v in EAGER.items()}),
    "random": KernelPolicy("uniform"),
}


def _unseen_in_play(view: View) -> list[int]:
    """The chips whose values ``view`` does not know and no score holds yet: what a playout
    may deal anew."""
    banked = {x for chips in view.banked for x in chips}
    return [c for c in range(len(view.levels)) if c not in view.known and c not in banked]


def kernel_rewards(
    sc: Sequence[int], winners: int, ended: bool, t: float, margin_weight: float
) -> list[float]:
    """:func:`game_rewards` (the game ended) or :func:`round_rewards` (stopped at a round's end,
    ``t`` the temperature it would use) from a kernel playout's scores and winners (a bit mask)."""
    n = len(sc)
    if ended:
        share = 1.0 / bin(winners).count("1") if winners else 0.0
        return [(share if winners >> q & 1 else 0.0) + margin_weight * _lead(sc, q) for q in range(n)]
    top = max(sc)
    e = [math.exp((x - top) / t) for x in sc]
    z = sum(e)
    return [e[q] / z + margin_weight * _lead(sc, q) for q in range(n)]


def batch_rewards(
    scores: Sequence[int],
    winners: Sequence[int],
    ended: Sequence[bool],
    n: int,
    t: float,
    margin_weight: float,
    vectorized: bool | None = None,
) -> list[float]:
    """The sums over a batch of kernel playouts (``scores`` flat, ``n`` a game) of each seat's
    :func:`kernel_rewards`.  With numpy (``vectorized``, by default when the kernel is compiled,
    which needs numpy) in a few array operations, else playout by playout.

    >>> sc, w, e = [10, 4, 0, 0], [1, 3], [True, False]
    >>> a = batch_rewards(sc, w, e, 2, 8.0, 0.2)  # numpy if the kernel is compiled
    >>> b = batch_rewards(sc, w, e, 2, 8.0, 0.2, vectorized=False)
    >>> max(abs(x - y) for x, y in zip(a, b)) < 1e-12, round(a[0], 4)
    (True, 1.53)
    """
    k = len(winners)
    if vectorized is None:
        vectorized = PLAYOUTS_COMPILED
    if not vectorized or n < 2:
        tot = [0.0] * n
        for j in range(k):
            r = kernel_rewards(scores[j * n : (j + 1) * n], winners[j], ended[j], t, margin_weight)
            for q in range(n):
                tot[q] += r[q]
        return tot
    import numpy as np

    sc = np.asarray(scores, dtype=np.float64).reshape(k, n)
    srt = np.sort(sc, axis=1)
    top, second = srt[:, -1:], srt[:, -2:-1]
    best_other = np.where(sc == top, second, top)  # a tie for the top: the other top score
    lead = np.clip((sc - best_other) / 40.0, -1.0, 1.0)
    bits = (np.asarray(winners, dtype=np.int64)[:, None] >> np.arange(n)) & 1
    share = bits / np.maximum(bits.sum(axis=1, keepdims=True), 1)
    e = np.exp((sc - top) / t)
    soft = e / e.sum(axis=1, keepdims=True)
    r = np.where(np.asarray(ended, dtype=bool)[:, None], share, soft) + margin_weight * lead
    return [float(x) for x in r.sum(axis=0)]


class _Node:
    __slots__ = ("children", "n", "w")

    def __init__(self, seats: int) -> None:
        self.n = 0
        self.w = [0.0] * seats
        self.children: dict[Any, _Node] = {}


class ISMCTSBot(_SearchBot):
    """Information-set Monte Carlo tree search (Cowling, Powley & Whitehouse
    2012, single-observer).  One tree over what everybody sees; each of the
    ``playouts`` iterations samples a fresh determinization of the hidden
    values (never the true ones), walks down the tree choosing moves by UCB1
    (each diver maximizing his own result; the dice are chance nodes, sampled),
    adds one node, finishes the game with the rollout policy and backs the
    result up.  In this game nobody knows more than anybody else about chip
    values, so the shared public tree is exactly the information-set tree.

    Knobs: ``playouts`` (iterations), ``leaf_playouts`` (rollouts that value each new leaf,
    averaged: a less noisy value per iteration; on the kernel, one call plays them all, each
    dealing the unseen values anew), ``max_time``, ``rollout``, ``c`` (exploration),
    ``margin_weight``, ``horizon``, ``self_rollout`` and ``engine`` (as for ``mc``;
    ``engine="auto"`` is the kernel when ``leaf_playouts`` > 1, Python for a single rollout,
    which costs less in Python than a call of the kernel), ``opponents``: ``"search"`` (the
    other divers choose by UCB1 on their own results) or ``"model"`` (they follow the rollout
    policy in the tree too, so every iteration refines this diver's own plan against that
    model).

    Defaults (``playouts=None``, ``leaf_playouts=None``): 150 iterations of 16 rollouts each
    on the compiled kernel (200 of one rollout otherwise), opponents modelled by the rollout
    policy ``planner``, this diver's own rollout moves by ``eager``.  The old default
    (200 single Python rollouts, ``opponents="search"``, ``self_rollout=None``) won 68.9% of
    400 2-player games against ``planner``; the new one won 73.7% of 600 (95% Wilson interval
    70.0-77.0%, seed 2026), at about 50-70 ms of CPU a decision (``benchmarks/bench_bots.py``).
    """

    name = "ismcts"
    summary = "tree search over what it may know (information-set MCTS)"
    # a single rollout per iteration: the kernel's cost per call (building its arrays) is more
    # than the Python rollout of a round's rest, so "auto" stays in Python (see _auto_kernel)
    AUTO_KERNEL = False
    KNOBS: ClassVar[dict[str, Any]] = {
        "playouts": None,
        "max_time": None,
        "rollout": "planner",
        "self_rollout": "eager",
        "margin_weight": 0.2,
        "horizon": "round",
        "engine": "auto",
        "c": 0.7,
        "opponents": "model",
        "leaf_playouts": None,
    }
    c: float
    opponents: str
    leaf_playouts: int
    #: (iterations, rollouts a leaf) by default: on the compiled kernel, and otherwise
    DEFAULTS: ClassVar[tuple[tuple[int, int], tuple[int, int]]] = ((150, 16), (200, 1))

    def _auto_kernel(self) -> bool:
        # one kernel call per iteration pays off once it plays several rollouts
        return self.leaf_playouts > 1

    def _check_knobs(self) -> None:
        auto_n, auto_leaf = self.playouts is None, self.leaf_playouts is None
        fast = PLAYOUTS_COMPILED and self.engine != "python"
        if auto_n:
            self.playouts = 1  # (checked below)
        if auto_leaf:
            self.leaf_playouts = self.DEFAULTS[0][1] if fast else 1
        lp = self.leaf_playouts
        if type(lp) is not int or lp < 1:
            raise ValueError(f"ismcts: leaf_playouts must be None or a positive int, got {lp!r}")
        super()._check_knobs()
        if auto_leaf and not self.use_kernel:  # a rollout policy only Python plays
            self.leaf_playouts = 1
        if auto_n:
            self.playouts = self.DEFAULTS[0 if self.use_kernel and self.leaf_playouts > 1 else 1][0]
        if self.opponents not in ("search", "model"):
            raise ValueError(
                f"ismcts: opponents must be 'search' (each diver maximizes his own result "
                f"in the tree) or 'model' (they follow the rollout policy), got {self.opponents!r}"
            )

    def _leaf(
        self, g: Game, me: int, round0: int, policy: Policy, redeal: list[int]
    ) -> tuple[float, list[float]]:
        """Finish the iteration from the leaf ``g`` with ``leaf_playouts`` rollouts (on the
        kernel each deals the values of ``redeal``'s chips anew); return (the share of them
        in which this diver got back home this round, the mean rewards)."""
        k = self.leaf_playouts
        if k == 1:
            home, r = self._finish(g, me, round0, policy)
            return float(home), r
        stop = round0 if self._to_round_end(len(g.players)) else 0
        if g.is_over or stop and g.round > stop:
            return float(g.returned[me]), round_rewards(g, self.margin_weight)
        n = len(g.players)
        mean = [0.0] * n
        homes = 0
        if self.use_kernel:
            banked = {x for chips in g.banked_chips for x in chips}
            deal = [x for x in redeal if x not in banked] if banked else redeal
            seats = self._kernel_seats(me, n)
            res = playout_from(
                g, k, seed=self.rng.getrandbits(63), policy=seats, stop_round=stop, redeal=deal
            )
            t = 8.0 * math.sqrt(max(1, g.setup.rounds - g.round))
            mean = batch_rewards(res.scores, res.winners, res.ended, n, t, self.margin_weight)
            homes = sum(1 for h in res.homes if h >> me & 1)
        else:
            for j in range(k):
                gj = g if j == k - 1 else g.copy(history=False, events=False)
                if j < k - 1:
                    gj.set_dice(random.Random(self.rng.getrandbits(64)))
                home, rj = self._finish(gj, me, round0, policy)
                homes += home
                for q in range(n):
                    mean[q] += rj[q]
        return homes / k, [x / k for x in mean]

    def _decide(self, view: View, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        if len(legal) == 1:
            return legal[0], {"reason": "the only legal choice"}
        me = view.seat
        seats = len(view.players)
        root = _Node(seats)
        policy = self.policy
        playout_policy = self._playout_policy(me)
        cexp = self.c
        rng = self.rng
        log = math.log
        sqrt = math.sqrt
        home = dict.fromkeys(legal, 0.0)
        redeal = _unseen_in_play(view)
        model = self.opponents == "model"
        choose = policy.choose
        deadline = None if self.max_time is None else time.perf_counter() + self.max_time
        it = 0
        for _ in range(self.playouts):
            it += 1
            g = self._sample(view)
            node = root
            visited = [root]
            first: str | None = None
            expanded = False
            while g.step != OVER and not expanded:
                if g.step == ROLL_STEP:
                    d = g.next_dice()
                    g.roll_unchecked(d)
                    key: Any = d[0] + d[1]
                else:
                    p: int = g.current_player  # type: ignore[assignment]
                    lg = g.legal_choices()
                    kids = node.children
                    if model and p != me:
                        key = choose(g, p, lg)[0]
                        g.apply_unchecked(key)
                        child = kids.get(key)
                        if child is None:
                            child = kids[key] = _Node(seats)
                        node = child
                        visited.append(node)
                        continue
                    untried = [c for c in lg if c not in kids]
                    if untried:
                        key = untried[0] if len(untried) == 1 else rng.choice(untried)
                        expanded = True
                    else:
                        ln = log(node.n)
                        best_u = -1e9
                        key = lg[0]
                        for c in lg:
                            ch = kids[c]
                            u = ch.w[p] / ch.n + cexp * sqrt(ln / ch.n)
                            if u > best_u:
                                best_u, key = u, c
                    if first is None:
                        first = key
                    g.apply_unchecked(key)
                child = node.children.get(key)
                if child is None:
                    child = node.children[key] = _Node(seats)
                node = child
                visited.append(node)
            got_home, r = self._leaf(g, me, view.round, playout_policy, redeal)
            if got_home and first is not None:
                home[first] += got_home
            for nd in visited:
                nd.n += 1
                w = nd.w
                for q in range(seats):
                    w[q] += r[q]
            if deadline is not None and time.perf_counter() > deadline:
                break
        kids = root.children
        visits = {c: kids[c].n if c in kids else 0 for c in legal}
        values = {c: (kids[c].w[me] / kids[c].n if visits[c] else 0.0) for c in legal}
        best = max(legal, key=lambda c: (visits[c], values[c], -legal.index(c)))
        p_home = {c: home[c] / visits[c] for c in legal if visits[c]}
        return best, {
            "reason": f"most visited after {it} iterations",
            "values": values,
            "visits": visits,
            "p_home": p_home,
            "playouts": it,
        }
