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

import math
import random
import time
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from ...core.bots import Bot
from ..playouts import COMPILED as PLAYOUTS_COMPILED
from ..playouts import Policy as KernelPolicy
from ..playouts import playout_from
from ..rules import OVER, ROLL_STEP, Game
from ..view import View
from .heuristics import AirAwarePolicy, BaselinePolicy, DepthPolicy, PlannerPolicy, Policy, TakeNPolicy

__all__ = ["ROLLOUT_POLICIES", "ISMCTSBot", "MonteCarloBot", "game_rewards", "rollout"]


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
    #: whether engine="auto" runs the playouts on the kernel
    AUTO_KERNEL: ClassVar[bool] = True

    def _check_knobs(self) -> None:
        if self.rollout not in ROLLOUT_POLICIES:
            raise ValueError(
                f"{self.name}: rollout must be one of {', '.join(ROLLOUT_POLICIES)}, got {self.rollout!r}"
            )
        if not isinstance(self.playouts, int) or self.playouts < 1:
            raise ValueError(f"{self.name}: playouts must be a positive int, got {self.playouts!r}")
        if self.max_time is not None and not self.max_time > 0:
            raise ValueError(f"{self.name}: max_time must be a positive number of seconds or None")
        if self.self_rollout is not None and self.self_rollout not in ROLLOUT_POLICIES:
            raise ValueError(
                f"{self.name}: self_rollout must be None or one of {', '.join(ROLLOUT_POLICIES)}, "
                f"got {self.self_rollout!r}"
            )
        if self.horizon not in ("game", "round"):
            raise ValueError(f"{self.name}: horizon must be 'game' or 'round', got {self.horizon!r}")
        self.policy = ROLLOUT_POLICIES[self.rollout](self.rng)
        if self.engine not in ("auto", "kernel", "python"):
            raise ValueError(f"{self.name}: engine must be 'auto', 'kernel' or 'python', got {self.engine!r}")
        fast = self.rollout in KERNEL_POLICIES and (self.self_rollout or self.rollout) in KERNEL_POLICIES
        if self.engine == "kernel" and not fast:
            raise ValueError(
                f"{self.name}: the kernel plays the rollout policies {', '.join(KERNEL_POLICIES)} only, "
                f"not {self.rollout!r} / {self.self_rollout!r}: use engine='python'"
            )
        self.use_kernel = fast and (self.engine == "kernel" or self.engine == "auto" and self.AUTO_KERNEL)

    def _kernel_seats(self, me: int, n: int) -> list[KernelPolicy]:
        mine = KERNEL_POLICIES[self.self_rollout or self.rollout]
        others = KERNEL_POLICIES[self.rollout]
        return [mine if q == me else others for q in range(n)]

    def _playout_policy(self, me: int) -> Policy:
        if self.self_rollout is None or self.self_rollout == self.rollout:
            return self.policy
        return _SelfPolicy(me, ROLLOUT_POLICIES[self.self_rollout](self.rng), self.policy)

    def _finish(self, g: Game, me: int, round0: int, policy: Policy) -> tuple[bool, list[float]]:
        """Run the playout; return (back home this round, rewards)."""
        if self.use_kernel:
            stop = round0 if self.horizon == "round" else 0
            if g.is_over or stop and g.round > stop:
                return bool(g.returned[me]), round_rewards(g, self.margin_weight)
            seats = self._kernel_seats(me, len(g.players))
            r = playout_from(g, 1, seed=self.rng.getrandbits(63), policy=seats, stop_round=stop)
            t = 8.0 * math.sqrt(max(1, g.setup.rounds - g.round))
            return bool(r.homes[0] >> me & 1), kernel_rewards(
                r.scores, r.winners[0], r.ended[0], t, self.margin_weight
            )
        if self.horizon == "round":
            home = rollout(g, policy, me, round0)
            return home, round_rewards(g, self.margin_weight)
        home = rollout(g, policy, me)
        return home, game_rewards(g, self.margin_weight)

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
    decision, optional; makes play depend on the clock), ``rollout`` (the
    policy all divers follow in playouts), ``self_rollout`` (another policy
    for this diver's own moves in playouts; ``None``: the same), ``margin_weight``, ``horizon``:
    ``"round"`` (default) plays each playout to the end of this round only and
    scores it by the chance of winning estimated from the scores (cheaper and
    less noisy; blind to later rounds, except in the last round where it is
    exact), ``"game"`` plays on to the end of the game; ``engine``: ``"auto"`` (the
    kernel when it plays the rollout policy), ``"kernel"`` or ``"python"``.  On the kernel a
    decision samples the hidden values once, then every playout deals the unseen ones anew.

    ``playouts=None`` (the default): 2,000 on the compiled kernel, 200 otherwise (each about
    20–80 ms a decision).  The default (2,000 playouts a choice on the kernel, its own moves
    in playouts by the ``eager`` rule) won 79.0% of 200 2-player games against the best
    heuristic, ``planner`` (95% interval 72.8–84.1%; with 200 Python playouts and
    ``planner`` rollouts it had won 75.6% of 1,000); see ``benchmarks/bench_bots.py``.
    """

    #: playouts a choice by default, on the compiled kernel and otherwise
    DEFAULT_PLAYOUTS: ClassVar[tuple[int, int]] = (2000, 200)

    def _check_knobs(self) -> None:
        auto = self.playouts is None
        if auto:
            self.playouts = 1  # (checked below)
        super()._check_knobs()
        if auto:
            self.playouts = self.DEFAULT_PLAYOUTS[0 if self.use_kernel and PLAYOUTS_COMPILED else 1]

    name = "mc"
    KNOBS: ClassVar[dict[str, Any]] = {
        "playouts": None,
        "max_time": None,
        "rollout": "planner",
        "self_rollout": "eager",
        "margin_weight": 0.2,
        "horizon": "round",
        "engine": "auto",
    }

    def decide(self, view: View, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        if len(legal) == 1:
            return legal[0], {"reason": "the only legal choice"}
        if self.use_kernel:
            return self._decide_kernel(view, legal)
        me = view.seat
        r0 = view.round
        policy = self._playout_policy(me)
        total = {c: 0.0 for c in legal}
        home = {c: 0 for c in legal}
        deadline = None if self.max_time is None else time.perf_counter() + self.max_time
        n = 0
        for _ in range(self.playouts):
            g0 = self._sample(view)
            for c in legal:
                g = g0.copy(history=False, events=False)
                g.apply_unchecked(c)
                got_home, r = self._finish(g, me, r0, policy)
                home[c] += got_home
                total[c] += r[me]
            n += 1
            if deadline is not None and time.perf_counter() > deadline:
                break
        values = {c: total[c] / n for c in legal}
        best = max(legal, key=lambda c: (values[c], -legal.index(c)))
        p_home = {c: home[c] / n for c in legal}
        return best, {
            "reason": f"best average over {n} sampled games per choice "
            f"(back home this round {p_home[best]:.0%})",
            "values": values,
            "p_home": p_home,
            "playouts": n,
        }

    def _decide_kernel(self, view: View, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        """The same search on the playout kernel: one sampled game, then for each choice
        ``playouts`` playouts, each dealing the unseen values anew (a fresh determinization),
        with the same seed for every choice (common random numbers)."""
        me = view.seat
        n = len(view.players)
        g0 = self._sample(view)
        redeal = _unseen_in_play(view)
        seats = self._kernel_seats(me, n)
        stop = view.round if self.horizon == "round" else 0
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
        total = dict.fromkeys(legal, 0.0)
        home = dict.fromkeys(legal, 0)
        deadline = None if self.max_time is None else time.perf_counter() + self.max_time
        done = 0
        while done < self.playouts:
            batch = min(_KERNEL_BATCH, self.playouts - done)
            seed = self.rng.getrandbits(63)  # one seed for every choice: common random numbers
            for c in legal:
                g, deal = after[c]
                if stop and g.round > stop or g.is_over:  # nothing left to play in the horizon
                    total[c] += batch * round_rewards(g, self.margin_weight)[me]
                    continue
                r = playout_from(g, batch, seed=seed, policy=seats, stop_round=stop, redeal=deal)
                for k in range(batch):
                    sc = r.scores[k * n : (k + 1) * n]
                    total[c] += kernel_rewards(sc, r.winners[k], r.ended[k], t_round, self.margin_weight)[me]
                home[c] += sum(1 for h in r.homes if h >> me & 1)
            done += batch
            if deadline is not None and time.perf_counter() > deadline:
                break
        values = {c: total[c] / done for c in legal}
        p_home = {c: home[c] / done for c in legal}
        best = max(legal, key=lambda c: (values[c], -legal.index(c)))
        return best, {
            "reason": f"best average over {done} sampled games per choice "
            f"(back home this round {p_home[best]:.0%})",
            "values": values,
            "p_home": p_home,
            "playouts": done,
        }


#: playouts per choice in one call of the kernel (the clock is read between calls)
_KERNEL_BATCH = 250

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

    Knobs: ``playouts`` (iterations), ``max_time``, ``rollout``, ``c``
    (exploration), ``margin_weight``, ``horizon``, ``self_rollout`` and ``engine`` (as
    for ``mc``; ``engine="auto"`` is Python here: each iteration's single rollout costs less
    in Python than a call of the kernel), ``opponents``: ``"search"`` (the other divers choose by
    UCB1 on their own results) or ``"model"`` (they follow
    the rollout policy in the tree too, so every iteration refines this
    diver's own plan against that model).
    """

    name = "ismcts"
    # one rollout per iteration: the kernel's cost per call (building its arrays, ~60 µs) is
    # more than the Python rollout of a round's rest, so "auto" stays in Python
    AUTO_KERNEL = False
    KNOBS: ClassVar[dict[str, Any]] = {
        "playouts": 200,
        "max_time": None,
        "rollout": "planner",
        "self_rollout": None,
        "margin_weight": 0.2,
        "horizon": "round",
        "engine": "auto",
        "c": 0.7,
        "opponents": "search",
    }
    c: float
    opponents: str

    def _check_knobs(self) -> None:
        super()._check_knobs()
        if self.opponents not in ("search", "model"):
            raise ValueError(
                f"ismcts: opponents must be 'search' (each diver maximizes his own result "
                f"in the tree) or 'model' (they follow the rollout policy), got {self.opponents!r}"
            )

    def decide(self, view: View, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
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
        home = {c: 0 for c in legal}
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
            got_home, r = self._finish(g, me, view.round, playout_policy)
            if got_home and first is not None:
                home[first] += 1
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
