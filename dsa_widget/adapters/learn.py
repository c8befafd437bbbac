"""Tools for learning agents, for every registered game with an encoding: one seat against fixed
bots (:class:`SeatEnv`), many games stepped at once (:class:`VectorEnv`), self-play
(:class:`PolicyPlayer`, :func:`self_play`), observations scaled to ``[0, 1]`` by each encoding's
declared bounds, and optional shaped rewards (:data:`SHAPINGS`).

A :class:`SeatEnv` is Gymnasium-style: ``reset()`` gives ``(obs, info)``, ``step(action)`` gives
``(obs, reward, terminated, truncated, info)``; ``info["action_mask"]`` is the learner's mask
(``int8``, a 1 at each legal action number).  The other seats are played inside ``step`` by fixed
bots of the game's bot registry (a spec such as ``"greedy"`` or ``"take_n:n=2"``, a bot, any
callable ``bot(view, legal)``) or by a policy over observations (:class:`PolicyPlayer`); chance
is drawn inside too.  Underneath is the game's PettingZoo environment
(:mod:`dsa_widget.adapters.pettingzoo`: Deep Sea Adventure's compiled one, else the generic
:class:`~dsa_widget.adapters.pettingzoo.GameEnv`), so a seed plays the same game, and the
learner gets the same observation, as that environment's ``reset(seed=...)``:

>>> import numpy as np
>>> e = SeatEnv("pig", opponents="hold_at_20", goal=30)
>>> obs, info = e.reset(seed=1)
>>> obs.shape, info["action_mask"].tolist(), info["seat"]
((20,), [1, 0], 0)
>>> rng = np.random.default_rng(0)
>>> done = False
>>> while not done:
...     action = int(rng.choice(np.flatnonzero(info["action_mask"])))
...     obs, reward, terminated, truncated, info = e.step(action)
...     done = terminated or truncated
>>> reward in (-30.0, *range(-35, 36)), info["win"] in (0.0, 1.0)
(True, True)

A :class:`VectorEnv` steps ``num_envs`` such games at once, stacking observations ``(N,
obs_size)`` and masks ``(N, num_actions)``, and starts a new game in a slot whose game ended (the
returned row is then the new game's first observation; the last one is in
``info["final_obs"]``):

>>> v = VectorEnv.make("pig", 4, opponents="random", goal=20)
>>> obs, info = v.reset(seed=7)
>>> obs.shape, info["action_mask"].shape
((4, 20), (4, 2))
>>> obs, rewards, terminated, truncated, info = v.step(np.zeros(4, dtype=np.int64))
>>> rewards.shape, terminated.dtype
((4,), dtype('bool'))

**Observations** are the encoding's (never rescaled in the encoding: the PettingZoo and OpenSpiel
adapters give them raw), and with ``normalize=True`` (the default here) each feature is mapped
to ``[0, 1]`` by ``(x - low) / (high - low)`` with the encoding's declared bounds
(:func:`~dsa_widget.core.encoding.observation_bounds`; a feature whose bounds are equal, or
whose high is ``inf`` as The Crew's ``turn_number``, is 0).
They are the learner's own view only: the hidden cards and values of other seats never enter.

**Rewards** are the PettingZoo environment's terminal ones (:func:`reward_modes`:
``reward="score_diff"`` or ``"win"``; in The Crew, a cooperative game, its own ``"success"``
(1 on success, else 0) or ``"signed"`` (1 or -1), the same for every seat), given to the
learner on the step its game ends (also when it ends on another seat's move);
``info["win"]`` is the learner's share of the win among the agents (1/k for each of The Crew's
k agents on success).  With ``shaping=NAME`` (one of ``SHAPINGS[game]``; off by default) each step adds
``shaping_weight * (phi(after) - phi(before))``, ``phi`` the named potential of the learner's
position read from its own view; the terminal rewards are unchanged.

**Errors**: an action that is not legal, not an int, or a step after the end raises a
:class:`~dsa_widget.core.errors.GameError` (a ``ValueError``) and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import numpy as np

from ..core.encoding import observation_bounds
from ..core.errors import GameError, is_int, short_repr

__all__ = [
    "SHAPINGS",
    "ActionError",
    "PolicyPlayer",
    "SeatEnv",
    "VectorEnv",
    "normalizer",
    "reward_modes",
    "self_play",
]


class ActionError(GameError):
    """An action a learning environment refuses (not legal, not an int, or after the end); the
    environment is unchanged.  ``env`` is the slot of a :class:`VectorEnv` (``None`` for one
    :class:`SeatEnv`), ``legal`` the legal action numbers."""

    def __init__(self, message: str, env: int | None = None, legal: tuple[int, ...] = ()) -> None:
        self.env = env
        self.legal = legal
        super().__init__(message)


# ---------------------------------------------------------------------- shaped rewards


def _deep_sea_points(game: Any, seat: int) -> float:
    score = game.view(seat).scores[seat]  # a seat always knows its own score
    return float(score or 0)


def _banked(game: Any, seat: int) -> float:
    return float(game.scores[seat])  # public in Pig and in Submarine


def _crew_tasks(game: Any, seat: int) -> float:
    return float(sum(1 for task in game.view(seat).tasks if task[2] == "done"))


#: the shaped rewards by game: ``name: (potential(game, seat), what it is)``; a shaped step adds
#: ``shaping_weight * (potential after - potential before)`` (see docs/AI.md)
SHAPINGS: dict[str, dict[str, tuple[Callable[[Any, int], float], str]]] = {
    "deep-sea": {"points": (_deep_sea_points, "the learner's banked points (its score so far)")},
    "submarine": {"treasures": (_banked, "treasures on the learner's board (its score so far)")},
    "pig": {"points": (_banked, "the learner's banked points")},
    "crew": {"tasks": (_crew_tasks, "tasks completed (shared by every seat)")},
}


# ---------------------------------------------------------------------- observations


def normalizer(encoding: Any) -> Callable[[np.ndarray], np.ndarray]:
    """The function scaling raw observations (an array ``(..., obs_size)``) of ``encoding`` to
    ``[0, 1]`` by its declared bounds (``float32``; a feature with equal bounds is 0)."""
    low, high = (np.asarray(b, dtype=np.float64) for b in observation_bounds(encoding))
    span = high - low
    inv = np.divide(1.0, span, out=np.zeros_like(span), where=span > 0)
    low32, inv32 = low.astype(np.float32), inv.astype(np.float32)

    def scale(obs: np.ndarray) -> np.ndarray:
        out: np.ndarray = (obs - low32) * inv32
        np.minimum(out, np.float32(1.0), out=out)  # float32 rounding alone can pass 1
        return out

    return scale


class PolicyPlayer:
    """A seat played by a policy over observations, as the learner sees them:
    ``policy(obs, mask) -> action number`` with ``obs`` the seat's own observation (scaled if the
    environment scales) and ``mask`` its action mask.  Give the learner's live policy, or a
    frozen copy of it (a snapshot), for self-play."""

    def __init__(self, policy: Callable[[np.ndarray, np.ndarray], Any]) -> None:
        if not callable(policy):
            raise TypeError(f"a policy is callable as policy(obs, mask), got {short_repr(policy)}")
        self.policy = policy

    def __repr__(self) -> str:
        return f"PolicyPlayer({self.policy!r})"


def reward_modes(game: str) -> tuple[str, ...]:
    """The rewards a registered game's learning environments give, the default first: its
    encoding's own (``reward_modes``: The Crew's ``success``, ``signed``, the same for every
    seat of a cooperative game), else ``score_diff`` and ``win``."""
    from ..core.registry import game as game_spec
    from .pettingzoo import REWARDS

    return tuple(getattr(game_spec(game).encoding_class(), "reward_modes", REWARDS))


def _raw_env(name: str, reward: str | None, max_cycles: int | None, setup: Mapping[str, Any]) -> Any:
    """The unwrapped PettingZoo environment of a registered game, with its ``reward`` (the
    game's default for None; a ValueError naming the game's rewards for one it has not)."""
    from ..core.registry import game
    from .pettingzoo import game_env, raw_env

    spec = game(name)
    modes = reward_modes(spec.name)
    if reward is None:
        reward = modes[0]
    elif reward not in modes:
        raise ValueError(
            f"{spec.title} has no reward {short_repr(reward)}; its rewards: {', '.join(modes)}"
            f" (default {modes[0]})"
        )
    if spec.name == "deep-sea":
        return raw_env(**setup, reward=reward, max_cycles=max_cycles)
    return game_env(spec.name, reward=reward, max_cycles=max_cycles, **setup).unwrapped


# ---------------------------------------------------------------------- one seat


class SeatEnv:
    """One seat of a registered game learns; the others are fixed players.

    ``game`` is a registered game's name; ``setup`` its setup keywords (``players=3``,
    ``air=20``, ``goal=50``, ``options={...}``).  ``seat`` is the learner's agent number, or
    ``"random"`` for a new one each game: the seat itself, except where a seat is no agent (as
    Tonoja, The Crew's two-player dummy seat, played by the captain); ``info["seat"]`` and
    :attr:`seat` are the game seat.  ``opponents`` plays every other seat: one player for all
    (a bot spec of the game's registry, a bot or callable ``bot(view, legal)``, a
    :class:`PolicyPlayer`), or a sequence of them, one per other seat in turn order after the
    learner.  ``reward`` (one of :func:`reward_modes`, the game's default for None; another
    raises a ValueError naming them) and ``max_cycles`` are the PettingZoo environment's;
    ``shaping``, ``shaping_weight`` and ``normalize`` are described in the module's docstring.
    A game that ends before the learner's first decision is replaced by the
    next one (counted in ``skipped``).
    """

    def __init__(
        self,
        game: str = "deep-sea",
        *,
        seat: int | str = 0,
        opponents: Any = "random",
        reward: str | None = None,
        shaping: str | None = None,
        shaping_weight: float = 1.0,
        normalize: bool = True,
        max_cycles: int | None = None,
        **setup: Any,
    ) -> None:
        from ..core.registry import game as game_spec

        spec = game_spec(game)
        self.game_name = spec.name
        self.raw = _raw_env(spec.name, reward, max_cycles, setup)
        self.encoding = self.raw.encoding
        self.agents: list[str] = list(self.raw.possible_agents)
        #: agent -> its seat in the game (The Crew's dummy seat is no agent)
        self._seats: list[int] = [self.raw.seat_of[a] for a in self.agents]
        n = len(self.agents)
        if seat != "random" and (not is_int(seat) or not 0 <= seat < n):
            raise ValueError(f"seat must be 0..{n - 1} or 'random'; got {short_repr(seat)}")
        self._fixed_seat = seat if isinstance(seat, int) else None
        if shaping is None:
            self._potential: Callable[[Any, int], float] | None = None
        else:
            named = SHAPINGS.get(spec.name, {})
            if shaping not in named:
                have = ", ".join(named) or "none"
                raise ValueError(f"{spec.title} has no shaped reward {short_repr(shaping)}; it has: {have}")
            self._potential = named[shaping][0]
        self.shaping = shaping
        self.shaping_weight = float(shaping_weight)
        self.normalize = normalize
        self._scale = normalizer(self.encoding) if normalize else None
        self._bots = spec.bot_registry()
        self._opponents = self._check_opponents(opponents, n)
        self.observation_size: int = self.encoding.observation_size
        self.num_actions: int = self.encoding.num_actions
        self._me = 0 if self._fixed_seat is None else self._fixed_seat  # the learner's agent
        #: the learner's seat in the game
        self.seat = self._seats[self._me]
        self._rng = random.Random()
        self._players: list[Any] = []
        self._done = True
        self._phi = 0.0
        #: games replaced because they ended before the learner's first decision
        self.skipped = 0

    def _check_opponents(self, opponents: Any, n: int) -> list[Any]:
        many = isinstance(opponents, Sequence) and not isinstance(opponents, str)
        listed = list(opponents) if many else [opponents] * (n - 1)
        if len(listed) != n - 1:
            raise ValueError(f"give one opponent, or {n - 1} (one per other seat); got {len(listed)}")
        for o in listed:
            if isinstance(o, str):
                self._bots.parse_bot_spec(o)  # an unknown name fails now
            elif not callable(o) and not isinstance(o, PolicyPlayer):
                raise TypeError(f"an opponent is a bot spec, a bot(view, legal) or a PolicyPlayer; got {o!r}")
        return listed

    @property
    def opponents(self) -> tuple[Any, ...]:
        """Who plays the other seats, in turn order after the learner."""
        return tuple(self._opponents)

    def set_opponents(self, opponents: Any) -> None:
        """Play the other seats with these from the next game on (a new snapshot, other bots)."""
        self._opponents = self._check_opponents(opponents, len(self.agents))
        self._players = []

    # ------------------------------------------------------------------ Gymnasium-style API

    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start a game: with ``seed`` the PettingZoo environment's ``reset(seed=seed)`` (the same
        game), the learner's seat (when random) and the bots' seeds drawn from it; without, the
        next game of those generators.  ``options`` are accepted and ignored."""
        if seed is not None:
            self._rng = random.Random(int(seed))
            self._players = []
        while True:
            if self._fixed_seat is None:
                self._me = self._rng.randrange(len(self.agents))
                self.seat = self._seats[self._me]
            if not self._players or self._fixed_seat is None:
                self._players = self._make_players()
            self.raw.reset(seed=seed)
            seed = None
            self._done = False
            self._play_others()
            if not self._done:
                break
            self.skipped += 1
        self._phi = self._potential_now()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        """The learner's action number; then the other seats and chance, until the learner is to
        act again or the game is over."""
        if self._done:
            raise ActionError("the game is over: call reset() first")
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise ActionError(
                f"an action is an action number (an int), got {short_repr(action)}", None, self._legal()
            )
        a = int(action)
        mask = self.raw.action_mask(self.agents[self._me])
        if not 0 <= a < self.num_actions or not mask[a]:
            raise ActionError(
                f"action {a} is not legal now; legal: {list(self._legal())}", None, self._legal()
            )
        self.raw.step(a)
        self._play_others()
        reward = 0.0
        agent = self.agents[self._me]
        if self._done:
            reward = float(self.raw.rewards.get(agent, 0.0))
        if self._potential is not None:
            phi = self._potential_now()
            reward += self.shaping_weight * (phi - self._phi)
            self._phi = phi
        terminated = self._done and bool(self.raw.terminations.get(agent, False))
        truncated = self._done and not terminated
        return self._observation(), reward, terminated, truncated, self._info()

    def close(self) -> None:
        self.raw.close()

    # ------------------------------------------------------------------ internals

    def _make_players(self) -> list[Any]:
        """Seat -> player (None for the learner), bots seeded from the environment's generator."""
        n = len(self.agents)
        players: list[Any] = [None] * n
        for k, o in enumerate(self._opponents, start=1):
            seed = self._rng.getrandbits(63)
            if isinstance(o, str):
                o = self._bots.parse_bot_spec(o, seed=seed)
            elif hasattr(o, "spawn") and hasattr(o, "knobs"):  # a built-in bot: a fresh one, seeded
                o = o.spawn(seed)
            players[(self._me + k) % n] = o
        return players

    def _play_others(self) -> None:
        raw = self.raw
        me = self.agents[self._me]
        while True:
            if raw.terminations.get(me, True) or raw.truncations.get(me, False):
                self._done = True
                return
            agent = raw.agent_selection
            if agent == me:
                return
            i = self.agents.index(agent)
            player = self._players[i]
            if isinstance(player, PolicyPlayer):
                o = raw.observe(agent)
                x = o["observation"] if self._scale is None else self._scale(o["observation"])
                raw.step(int(player.policy(x, o["action_mask"])))
            else:
                game = raw.game
                choice = player(game.view(self._seats[i]), game.legal_actions())
                raw.step(self.encoding.index(choice))

    def _observation(self) -> Any:
        obs = self.raw.observe(self.agents[self._me])["observation"]
        return obs if self._scale is None else self._scale(obs)

    def _legal(self) -> tuple[int, ...]:
        if self._done:
            return ()
        return tuple(int(i) for i in np.flatnonzero(self.raw.action_mask(self.agents[self._me])))

    def _info(self) -> dict[str, Any]:
        info: dict[str, Any] = {"seat": self.seat}
        if self._done:
            info["action_mask"] = np.zeros(self.num_actions, dtype=np.int8)
            winners = [q for q in self.raw.game.winners if q in self._seats]  # agents only
            info["win"] = 1.0 / len(winners) if self.seat in winners else 0.0
        else:
            info["action_mask"] = self.raw.action_mask(self.agents[self._me])
        return info

    def _potential_now(self) -> float:
        return 0.0 if self._potential is None else self._potential(self.raw.game, self.seat)


# ---------------------------------------------------------------------- many games at once


class VectorEnv:
    """``num_envs`` :class:`SeatEnv` stepped together: stacked numpy observations ``(N,
    obs_size)`` (``float32``), masks ``(N, num_actions)`` (``int8``), rewards ``(N,)``,
    ``terminated`` and ``truncated`` ``(N,)`` (``bool``).  A slot whose game ended is reset at
    once (same-step auto-reset): its row of ``obs`` and of ``info["action_mask"]`` belong to the
    new game, ``info["final_obs"]`` holds the ended game's last observation and ``info["win"]``
    the learner's share of the win (``nan`` in a slot whose game goes on).
    ``reset(seed=s)`` resets slot ``i`` with seed ``s + i``."""

    def __init__(self, envs: Sequence[SeatEnv]) -> None:
        if not envs:
            raise ValueError("a VectorEnv needs at least one environment")
        sizes = {(e.observation_size, e.num_actions) for e in envs}
        if len(sizes) != 1:
            raise ValueError("every environment of a VectorEnv must have the same sizes")
        self.envs = list(envs)
        self.num_envs = len(self.envs)
        self.observation_size, self.num_actions = sizes.pop()
        self._masks = np.zeros((self.num_envs, self.num_actions), dtype=np.int8)
        self._ready = False

    @classmethod
    def make(cls, game: str, num_envs: int, **kwargs: Any) -> VectorEnv:
        """``num_envs`` copies of ``SeatEnv(game, **kwargs)``."""
        if not is_int(num_envs) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive int; got {short_repr(num_envs)}")
        return cls([SeatEnv(game, **kwargs) for _ in range(num_envs)])

    def set_opponents(self, opponents: Any) -> None:
        """:meth:`SeatEnv.set_opponents` in every slot (from each slot's next game on)."""
        for e in self.envs:
            e.set_opponents(opponents)

    def reset(self, seed: int | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        obs = np.empty((self.num_envs, self.observation_size), dtype=np.float32)
        seats = np.empty(self.num_envs, dtype=np.int64)
        for i, e in enumerate(self.envs):
            o, info = e.reset(seed=None if seed is None else int(seed) + i)
            obs[i] = o
            self._masks[i] = info["action_mask"]
            seats[i] = info["seat"]
        self._ready = True
        return obs, {"action_mask": self._masks.copy(), "seat": seats}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """One action number per slot.  Every action is checked against its slot's mask before
        any slot moves: a bad one raises :class:`ActionError` (naming the slot) and changes
        nothing."""
        if not self._ready:
            raise ActionError("call reset() before step()")
        a = np.asarray(actions)
        if a.shape != (self.num_envs,) or not np.issubdtype(a.dtype, np.integer):
            raise ActionError(
                f"actions must be {self.num_envs} ints (shape ({self.num_envs},)); got {short_repr(actions)}"
            )
        for i, x in enumerate(a.tolist()):
            if not 0 <= x < self.num_actions or not self._masks[i, x]:
                legal = tuple(int(k) for k in np.flatnonzero(self._masks[i]))
                raise ActionError(f"slot {i}: action {x} is not legal now; legal: {list(legal)}", i, legal)
        n = self.num_envs
        obs = np.empty((n, self.observation_size), dtype=np.float32)
        final = np.zeros((n, self.observation_size), dtype=np.float32)
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=bool)
        truncated = np.zeros(n, dtype=bool)
        win = np.full(n, np.nan)
        seats = np.empty(n, dtype=np.int64)
        for i, (e, x) in enumerate(zip(self.envs, a.tolist(), strict=True)):
            o, r, term, trunc, info = e.step(x)
            rewards[i], terminated[i], truncated[i] = r, term, trunc
            if term or trunc:
                final[i] = o
                win[i] = info["win"]
                o, info = e.reset()
            obs[i] = o
            self._masks[i] = info["action_mask"]
            seats[i] = info["seat"]
        info_out = {"action_mask": self._masks.copy(), "seat": seats, "final_obs": final, "win": win}
        return obs, rewards, terminated, truncated, info_out

    def close(self) -> None:
        for e in self.envs:
            e.close()


def self_play(
    game: str, policy: Callable[[np.ndarray, np.ndarray], Any], num_envs: int = 8, **kwargs: Any
) -> VectorEnv:
    """A :class:`VectorEnv` in which ``policy(obs, mask) -> action`` plays every other seat, each
    from its own view (``seat="random"`` unless given).  Pass the learner's live policy to play
    against itself, or a frozen copy and later :meth:`VectorEnv.set_opponents` with
    ``PolicyPlayer(newer_copy)`` to play against snapshots."""
    kwargs.setdefault("seat", "random")
    return VectorEnv.make(game, num_envs, opponents=PolicyPlayer(policy), **kwargs)
