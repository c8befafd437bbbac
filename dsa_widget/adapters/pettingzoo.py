"""PettingZoo (AEC) environments for the package's games; Deep Sea Adventure is the first.

:class:`GameEnv` is written once against the game protocol
(:class:`~dsa_widget.core.protocol.GameState`) and the game's fixed-size numbers
(:func:`~dsa_widget.core.encoding.encoding_of`), so another game of the package needs only a
small subclass (a factory of seeded games and its pictures).  :class:`raw_env` is Deep Sea
Adventure's; :func:`env` wraps it the PettingZoo way.

>>> from dsa_widget.adapters.pettingzoo import env
>>> e = env(players=2, air=20)
>>> e.reset(seed=7)
>>> e.possible_agents, e.agent_selection
(['player_0', 'player_1'], 'player_0')
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].nonzero()[0].tolist()
((642,), [2, 3])
>>> e.unwrapped.encoding.action(3)
'take'
>>> e.step(3)
>>> e.agent_selection, bool(e.observe("player_0")["action_mask"].any())
('player_1', False)

A whole game with random legal actions:

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     if terminated or truncated:
...         action = None
...     else:
...         action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
...     e.step(action)
>>> e.agents, e.unwrapped.game.is_over
([], True)

**Agents** are ``"player_0"`` .. ``"player_{n-1}"``, by seat (whatever the players' names).

**Actions** are the numbers ``0 .. num_actions - 1`` of the game's
:class:`~dsa_widget.core.encoding.Encoding` (``env.unwrapped.encoding``), a fixed
``gymnasium.spaces.Discrete(num_actions)`` for every agent: for Deep Sea Adventure with ``C``
chips, ``0`` back, ``1`` continue, ``2`` none, ``3`` take, ``4 + i`` drop i, ``4 + C + i`` lay
i, ``4 + 2C`` lay all (69 numbers on the standard board; see
:mod:`dsa_widget.deep_sea.encoding`).

**Observations** are ``{"observation": float32[observation_size], "action_mask":
int8[num_actions]}``.  ``observation`` is ``encoding.observe(game.view(seat))``: the agent's
own view, so it never holds a value that seat may not know; its fields are listed, with
their offsets and meanings, by ``env.unwrapped.encoding.layout`` (seats relative to the
observer).  The mask has a ``1`` at each legal action of the agent to act and is all zeros
for every other agent (and for everyone once the game is over).  Observations are computed
only when asked (``observe(agent)``, which ``last()`` calls), and are fresh arrays each time.
They are not built from scratch, though: the encoding's
:class:`~dsa_widget.deep_sea.encoding.ObservationTracker` keeps each agent's observation of
the game and rewrites only the fields that changed since that agent last looked (the result
is the same numbers; ``encoding.observe(game.view(seat))`` stays the reference, and is used
instead if ``encoding.observe`` is replaced on the instance).

**Where the game runs**: with numba in use (the ``fast`` extra, and ``DSA_WIDGET_NO_NUMBA``
unset) the game runs on the compiled playout kernel's flat state
(:mod:`dsa_widget.deep_sea.kernel`, its ``env_*`` functions: one call per step, one per
observation, written from scratch and equal to ``encoding.observe(game.view(seat))``);
``env.unwrapped.backend`` is then ``"kernel"``.  ``env.unwrapped.game`` is still the true
checked :class:`~dsa_widget.deep_sea.rules.Game`: the actions and dice applied are logged, and
reading ``game`` replays the new ones into it (checked: its own dice must be the kernel's).
Without numba, or with ``backend="game"``, the environment steps a ``Game`` and keeps the
observations with the tracker above (``backend`` ``"game"``).  Both play the same games and give
the same observations, masks and rewards.  ``env.unwrapped.action_mask()`` is the acting
agent's mask without its observation.

**Chance** (Deep Sea Adventure's dice) is never an agent: after an agent's action, ``step``
rolls the game's own dice (``sample_chance``) until the next decision or the end.
``reset(seed=s)`` starts ``Game(seed=s, ...)``, whose seed shuffles the deal (unless a
``path`` is given) and seeds the dice, so a seed fixes the whole game given the actions;
``reset()`` without a seed starts the next game of a generator seeded by the last seed given
(or by the system on the first reset).

**Rewards** are given once, when the game ends (zero before): with ``reward="score_diff"``
(the default) each seat gets its final score minus the mean of the other seats' final
scores (``returns()``; the rewards sum to zero); with ``reward="win"`` each of the ``k``
winners gets ``1 / k`` (a shared win is split) and the others ``0``.  Every agent is then
terminated and must be stepped with ``None``, the PettingZoo way, before it leaves
``agents``.

**Forced decisions**: ``skip_forced=True`` applies a decision with exactly one legal action at
once, without asking its agent (``env.unwrapped.skipped`` counts them since the last reset);
off by default.  **Centralised state**: ``env.unwrapped.state()`` (space ``state_space``) is
every agent's observation side by side, or the encoding's ``full_state``: hidden information,
for a centralised critic in training only, never for an acting agent.

**Every registered game** with an encoding is served by :func:`game_env` (The Crew's
``crew_env`` and Pig's ``pig_env`` are it under their own names); what only one game needs
(its agents, its rewards, its picture) comes from its encoding's optional hooks
(:mod:`dsa_widget.core.encoding`).

**Truncation**: ``max_cycles=m`` truncates every agent once ``m`` cycles of decisions have
been made (a cycle is as many decisions as there are agents; the seats do not decide equally
often in this game), with zero rewards; without it (the default) a game always runs to its
end.  PettingZoo's ``max_cycles_test`` does not apply: it needs a ``parallel_env``, and a
turn-based game with dice is not parallelizable (``metadata["is_parallelizable"]`` is
False).

**Illegal actions**: a masked action, a number out of range or a non-integer raises
:class:`IllegalActionError` (a ``ValueError``) and changes nothing (``env`` also keeps
PettingZoo's ``AssertOutOfBoundsWrapper``, which raises ``AssertionError`` for a number out of
the action space first; its ``OrderEnforcingWrapper`` and that wrapper are subclasses that
pass ``last``, ``step`` and ``agent_iter`` straight to the environment, with the same checks and
errors).  ``env(..., illegal_reward=-1)`` instead adds PettingZoo's
``TerminateIllegalWrapper``, the classic environments' rule: an illegal move ends the game
and gives its author that reward.

**Registration**: PettingZoo 1.27 has a registry.  Importing this module registers
``"dsa_widget/deep_sea_adventure_v0"``, so ``pettingzoo.make("aec",
"dsa_widget/deep_sea_adventure_v0", players=4)`` works, and :func:`make` here does the same
with the short name.  Nothing is registered with Gymnasium: its registry builds
single-agent ``gymnasium.Env`` objects, which a multi-agent AEC environment is not.
"""

from __future__ import annotations

import functools
import random
import struct
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable

from ..core.encoding import Encoding, encoding_of, legal_action, observation_bounds, render_modes
from ..core.errors import GameError, is_int, short_repr
from ..core.protocol import CHANCE, TERMINAL, GameState

__all__ = [
    "ENV_NAME",
    "REGISTRY_ID",
    "REWARDS",
    "GameEnv",
    "IllegalActionError",
    "env",
    "game_env",
    "make",
    "raw_env",
]

#: the versioned name of the Deep Sea Adventure environment (``metadata["name"]``)
ENV_NAME = "deep_sea_adventure_v0"
#: its id in PettingZoo's registry (``pettingzoo.make("aec", REGISTRY_ID)``)
REGISTRY_ID = f"dsa_widget/{ENV_NAME}"
#: the reward options
REWARDS = ("score_diff", "win")

_F32_MAX = float(np.finfo(np.float32).max)
#: where a Deep Sea Adventure game runs: "auto" on the compiled kernel when numba is in use
#: (else a checked Game), "game" always on a checked Game
BACKENDS = ("auto", "game")
#: the kernel's step results besides a seat (``dsa_widget.deep_sea.kernel.R_*``)
_R_OVER, _R_ILLEGAL, _R_FULL, _R_PENDING = -1, -2, -3, -4


class IllegalActionError(GameError):
    """An action the agent to act may not take now (masked, out of range or not a number).

    ``agent`` is the agent that tried, ``action`` what it gave and ``legal`` the legal action
    numbers; the environment is unchanged.
    """

    def __init__(self, message: str, agent: str, action: object, legal: tuple[int, ...]) -> None:
        self.agent = agent
        self.action = action
        self.legal = legal
        super().__init__(message)


class GameEnv(AECEnv):  # type: ignore[misc]
    """A PettingZoo AEC environment for any game of the protocol.

    ``new_game(seed)`` builds the game a ``reset(seed=seed)`` starts (a
    :class:`~dsa_widget.core.protocol.GameState` whose class names an ``ENCODING``); every
    game it builds must have the same seats and sizes.  The pictures are the encoding's
    optional hooks (:mod:`dsa_widget.core.encoding`): ``render_text`` for ``"ansi"`` and
    ``"human"`` (``repr(game)`` without it), ``render_rgb`` for ``"rgb_array"`` and
    ``render_svg`` for ``"svg"``; ``metadata["render_modes"]`` lists ``"rgb_array"`` and
    ``"svg"`` exactly when the encoding has the hook.
    """

    metadata: dict[str, Any] = {
        "name": "dsa_widget_game_v0",
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        new_game: Callable[[int], GameState],
        *,
        reward: str | None = None,
        render_mode: str | None = None,
        max_cycles: int | None = None,
        skip_forced: bool = False,
    ) -> None:
        super().__init__()
        if max_cycles is not None and (not is_int(max_cycles) or max_cycles < 1):
            raise ValueError(f"max_cycles must be None or a positive int; got {short_repr(max_cycles)}")
        if not isinstance(skip_forced, bool):
            raise ValueError(f"skip_forced must be True or False; got {short_repr(skip_forced)}")
        self._new_game = new_game
        probe = new_game(0)
        self.encoding: Encoding = encoding_of(probe)
        modes = render_modes(self.encoding)
        if render_mode is not None and render_mode not in modes:
            raise ValueError(f"render_mode must be None or one of {', '.join(modes)}; got {render_mode!r}")
        self.metadata = {**self.metadata, "render_modes": modes}
        #: the reward options of this game (its encoding's ``reward_modes``, else :data:`REWARDS`)
        self.reward_modes: tuple[str, ...] = tuple(getattr(self.encoding, "reward_modes", REWARDS))
        if reward is None:
            reward = self.reward_modes[0]
        if reward not in self.reward_modes:
            raise ValueError(
                f"reward must be one of {', '.join(self.reward_modes)}; got {short_repr(reward)}"
            )
        self.reward = reward
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        #: apply a decision with exactly one legal action at once, never asking its agent
        self.skip_forced = skip_forced
        #: decisions applied for their agents (``skip_forced``) since the last reset
        self.skipped = 0
        seats = getattr(self.encoding, "agent_seats", None)
        seats = tuple(range(len(probe.players))) if seats is None else tuple(seats)
        n = len(seats)
        self.possible_agents: list[str] = [f"player_{i}" for i in range(n)]
        #: agent -> its seat in the game (agent ``player_i`` is seat ``i`` unless the encoding
        #: names the seats that decide: The Crew's dummy seat is no agent)
        self.seat_of: dict[str, int] = dict(zip(self.possible_agents, seats, strict=True))
        self._seat_of = self.seat_of
        self._agent_at = {q: a for a, q in self.seat_of.items()}
        k = self.encoding.num_actions
        size = self.encoding.observation_size
        self._num_actions = k
        self._size = size
        # packing the floats into a fresh float32 array: twice as fast as np.array(list)
        self._pack_into = struct.Struct(f"{size}f").pack_into
        self._max_steps = None if max_cycles is None else max_cycles * n
        # one space object per agent: seeding one agent's space must not move another's
        self.action_spaces = {a: spaces.Discrete(k) for a in self.possible_agents}
        # the encoding's declared bounds of every feature, where it declares them
        try:
            low, high = (np.array(b, dtype=np.float32) for b in observation_bounds(self.encoding))
        except TypeError:
            low, high = np.zeros(size, np.float32), np.full(size, _F32_MAX, np.float32)
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(low=low, high=high, shape=(size,), dtype=np.float32),
                    "action_mask": spaces.Box(low=0, high=1, shape=(k,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self.state_space = spaces.Box(
            low=0.0, high=_F32_MAX, shape=(self._state_size(probe),), dtype=np.float32
        )
        self._mask_index: dict[tuple[Any, ...], list[int]] = {}
        self._masks: dict[tuple[Any, ...], np.ndarray] = {}
        self._actions = tuple(self.encoding.action(i) for i in range(k))
        # An encoding may keep every seat's observation of a live game up to date
        # (``encoding.tracker(game, new_buffer)``, whose ``observe(seat)`` is
        # ``encoding.observe(game.view(seat))`` in that seat's buffer): then observations cost
        # a few writes.  It stands in for ``encoding.observe`` only while that is the
        # encoding's own method (see :meth:`observe`).
        self._tracks = callable(getattr(self.encoding, "tracker", None))
        # without a tracker, an encoding may write an observation into a zeroed buffer
        # (``observe_into(view, buf)``, The Crew's), equal to ``encoding.observe(view)``
        self._into = callable(getattr(self.encoding, "observe_into", None))
        self._tracker: Any = None
        self._tracked: Any = None  # the encoding the tracker is of
        self._clean_rewards: dict[str, Any] | None = None  # ``rewards`` while it is all 0
        self._game: GameState | None = None
        self._seeder: random.Random | None = None
        self._steps = 0

    # ------------------------------------------------------------------ spaces

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    @property
    def game(self) -> GameState:
        """The game being played: the true state, hidden values included (never give it to an
        agent; give it ``observe(agent)``)."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    # ------------------------------------------------------------------ the AEC API

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Start a new game: ``Game(seed=seed)`` when a seed is given, else the next game of the
        environment's generator.  ``options`` are accepted and ignored."""
        self._game = self._new_game(self._game_seed(seed))
        self._tracked = self._tracker = None
        if self._tracks:
            self._tracked = self.encoding
            self._tracker = self.encoding.tracker(self._game, _float32_buffer)  # type: ignore[attr-defined]
        self._clean_rewards = None
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._steps = 0
        self.skipped = 0
        self.agent_selection = self.agents[0]
        self._advance()
        if self.render_mode == "human":
            self.render()

    def _game_seed(self, seed: int | None) -> int:
        """The seed of the game a ``reset(seed=seed)`` starts."""
        if seed is not None:
            seed = int(seed)
            self._seeder = random.Random(seed)
            return seed
        if self._seeder is None:
            self._seeder = random.Random()
        return self._seeder.getrandbits(63)

    def state(self) -> np.ndarray:
        """The **centralised** state, for a centralised critic or value function in training
        (PettingZoo's ``state()``; its space is ``state_space``): the encoding's
        ``full_state(game)`` where it has one (The Crew: every seat's observation and Tonoja's
        hand, so every card), else every agent's observation side by side.  It holds hidden
        information (every seat's private knowledge): never feed it to an agent that acts on
        its own observation."""
        game = self.game
        full = getattr(self.encoding, "full_state", None)
        if full is not None:
            values = full(game)
        else:
            observe = self.encoding.observe
            values = [x for q in self.seat_of.values() for x in observe(game.view(q))]
        return np.asarray(values, dtype=np.float32)

    def _state_size(self, probe: GameState) -> int:
        full = getattr(self.encoding, "state_size", None)
        return self._size * len(self.possible_agents) if full is None else int(full)

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The action mask of ``agent`` (the agent to act by default) without its observation:
        ``observe(agent)["action_mask"]``."""
        return self.observe(self.agent_selection if agent is None else agent)["action_mask"]  # type: ignore[no-any-return]

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: its own view encoded, and its action mask (all zeros unless
        it is the agent to act)."""
        seat = self._seat_of[agent]
        game = self.game
        encoding = self.encoding
        own = "observe" in getattr(encoding, "__dict__", ())
        if self._tracked is encoding and not own:
            obs = self._tracker.observe(seat).copy()
        elif self._into and not own:  # written in place (The Crew): no list of floats to convert
            obs = np.zeros(self._size, dtype=np.float32)
            encoding.observe_into(game.view(seat), memoryview(obs.data))  # type: ignore[attr-defined]
        else:  # no tracker, or encoding.observe replaced on the instance: honour it
            obs = np.empty(self._size, dtype=np.float32)
            self._pack_into(obs.data, 0, *encoding.observe(game.view(seat)))
        if (
            agent == self.agent_selection
            and game.to_move == seat
            and not self.terminations.get(agent, True)
            and not self.truncations.get(agent, True)
        ):
            legal = game.legal_actions()
            template = self._masks.get(legal)
            if template is None:
                template = np.zeros(self._num_actions, dtype=np.int8)
                template[self._legal_numbers(legal)] = 1
                if len(self._masks) > 4096:
                    self._masks.clear()
                self._masks[legal] = template
            mask = template.copy()
        else:
            mask = np.zeros(self._num_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: Any) -> None:
        """Apply the action number of the agent to act, then roll the dice until the next
        decision or the end.  A terminated or truncated agent must be given ``None``."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        game = self.game
        # the usual case first: a plain int naming a legal action
        if type(action) is int and 0 <= action < self._num_actions:
            choice = self._actions[action]
            if choice not in game.legal_actions():
                choice = self._decode(agent, action, game)
        else:
            choice = self._decode(agent, action, game)
        self._cumulative_rewards[agent] = 0.0
        # Rewards are 0 until the game ends: clearing an all-zero ``rewards`` (and adding it to
        # the cumulative rewards) is done once, then skipped while the dict stays the same.
        if self.rewards is not self._clean_rewards:
            self._clear_rewards()
            self._clean_rewards = self.rewards
        game.apply_unchecked(choice)
        self._steps += 1
        self._advance()
        if self.render_mode == "human":
            self.render()

    def render(self) -> Any:
        """The picture ``render_mode`` names: ``"ansi"`` a string, ``"rgb_array"`` a ``uint8``
        ``H x W x 3`` array, ``"svg"`` an SVG string; ``"human"`` prints the text (and returns
        None)."""
        mode = self.render_mode
        if mode is None:
            gymnasium.logger.warn("render() called without a render_mode; give one to the environment")
            return None
        game = self.game
        if mode == "ansi":
            return self.render_text(game)
        if mode == "human":
            print(self.render_text(game))
            return None
        if mode == "rgb_array":
            return self.render_rgb(game)
        return self.render_svg(game)

    def close(self) -> None:
        """Nothing to release (no window, no process)."""

    # ------------------------------------------------------------------ pictures (the encoding's)

    def render_text(self, game: GameState) -> str:
        own = getattr(self.encoding, "render_text", None)
        return repr(game) if own is None else str(own(game))

    def render_rgb(self, game: GameState) -> Any:
        return self.encoding.render_rgb(game)  # type: ignore[attr-defined]

    def render_svg(self, game: GameState) -> str:
        return str(self.encoding.render_svg(game))  # type: ignore[attr-defined]

    # ------------------------------------------------------------------ internals

    def _legal_numbers(self, legal: tuple[Any, ...]) -> list[int]:
        numbers = self._mask_index.get(legal)
        if numbers is None:
            index = self.encoding.index
            numbers = [index(a) for a in legal]
            if len(self._mask_index) > 4096:
                self._mask_index.clear()
            self._mask_index[legal] = numbers
        return numbers

    def _decode(self, agent: str, action: Any, game: GameState) -> Any:
        legal = game.legal_actions()
        if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
            i = int(action)
            if 0 <= i < self._num_actions:
                choice = legal_action(self.encoding, i, legal)
                if choice is not None:
                    return choice
                why = f"action {i} ({short_repr(self.encoding.action(i))}) is not legal for {agent} now"
            else:
                why = f"action {i} is out of range 0..{self._num_actions - 1}"
        elif action is None:
            why = f"{agent} is to act: None is only for an agent that is terminated or truncated"
        else:
            why = f"an action is an action number (an int), got {short_repr(action)}"
        numbers = tuple(self._legal_numbers(legal))
        shown = ", ".join(f"{k} ({a})" for k, a in zip(numbers, legal, strict=False))
        raise IllegalActionError(f"{why}; legal: {shown}", agent, action, numbers)

    def _advance(self) -> None:
        """Roll the dice until a seat decides or the game ends; set the next agent, and the
        rewards and terminations at the end."""
        game = self.game
        while True:
            while game.to_move == CHANCE:
                game.sample_chance()
            seat = game.to_move
            if seat == TERMINAL or not self.skip_forced:
                break
            legal = game.legal_actions()
            if len(legal) != 1:
                break
            game.apply_unchecked(legal[0])  # a forced decision: nobody is asked
            self.skipped += 1
        if seat == TERMINAL:
            for agent, r in zip(self.possible_agents, self._final_rewards(game), strict=False):
                if agent in self.rewards:
                    self.rewards[agent] = r
            self.terminations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
            self._clean_rewards = None
        else:
            self.agent_selection = self._agent_at[seat]
            if self._max_steps is not None and self._steps >= self._max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
        if self.rewards is not self._clean_rewards:
            self._accumulate_rewards()

    def _final_rewards(self, game: GameState) -> list[float]:
        own = getattr(self.encoding, "final_rewards", None)
        if own is not None:  # a game's own rewards (The Crew's: the same for every agent)
            return list(own(game, self.reward))
        return self._rewards_of(game.returns(), game.winners if self.reward == "win" else ())

    def _rewards_of(self, results: Sequence[float], winners: Sequence[int]) -> list[float]:
        """The final rewards of a game with these ``returns()`` and ``winners``."""
        n = len(self.possible_agents)
        if self.reward == "win":
            share = 1.0 / len(winners) if winners else 0.0
            return [share if q in winners else 0.0 for q in range(n)]
        total = sum(results)
        return [r - (total - r) / (n - 1) for r in results]


def _float32_buffer(size: int) -> np.ndarray:
    return np.zeros(size, dtype=np.float32)


# ---------------------------------------------------------------------- Deep Sea Adventure


def _deep_sea_game(seed: int, setup: Mapping[str, Any]) -> GameState:
    from ..deep_sea.rules import Game

    return Game(seed=seed, events=False, **setup)


def _checked_game(setup: Any) -> GameState:
    """``Game(seed=s, events=False, **keywords)`` from the Setup those keywords create."""
    from ..deep_sea.rules import Game

    return Game(setup, events=False)


class _KernelRun:
    """A Deep Sea Adventure game on the compiled kernel (:mod:`dsa_widget.deep_sea.kernel`,
    its ``env_*`` functions): the state array ``s``, its ``cfg``, and the ``log`` of the actions
    and dice applied (for replaying them into a Game)."""

    def __init__(self, setup: Any, actions: tuple[str, ...]) -> None:
        from ..deep_sea import kernel as K

        assert (K.R_OVER, K.R_ILLEGAL, K.R_FULL, K.R_PENDING) == (_R_OVER, _R_ILLEGAL, _R_FULL, _R_PENDING)
        self.actions = actions
        self.player = K.PLAYER

        n = len(setup.players)
        c = len(setup.path)
        opts = setup.options
        self.n = n
        self.c = c
        off = K.offsets(n, c)
        env = K.env_offsets(n, c)
        cfg = [0] * K.NCFG_ENV
        cfg[K.C_N] = n
        cfg[K.C_AIR] = setup.air
        cfg[K.C_ROUNDS] = setup.rounds
        cfg[K.C_REQUIRES] = int(opts.turn_back_requires_treasure)
        cfg[K.C_FARTHEST] = int(opts.drop_order == "farthest_first")
        cfg[K.C_LEVELS_DESC] = int(opts.tiebreak == "levels_desc")
        cfg[K.C_SINK_CHOSEN] = int(opts.sink_order == "chosen")
        cfg[K.C_CHIPS] = c
        cfg[K.C_POS : K.C_SORD + 1] = off[:-1]
        cfg[K.C_ENV : K.C_KN + 1] = env[:-1]
        cfg[K.C_OWNER] = int(opts.reveal == "owner")
        self.cfg = np.array(cfg, dtype=np.int64)
        # the state at a game's start, but for the chips' values and levels and the dice
        s = np.zeros(env[-1], dtype=np.int64)
        s[K.AIR] = setup.air
        s[K.ROUND] = 1
        s[K.LASTHOME] = -1
        s[K.PLEN] = c
        s[K.STEP] = K.S_BEGIN
        pos0, path0, occ0 = off[0], off[6], off[7]
        s[path0 + 1 : path0 + c + 1] = np.arange(1, c + 1)  # space i holds chip i - 1
        s[occ0 : occ0 + c + 1] = -1
        self.start_state = s
        self.s = s.copy()
        self.log = np.zeros(4096, dtype=np.int64)
        self.setup: Any = None
        self._score = off[4]
        self._env = env[0]
        self._lv = env[3]
        self._val = env[4]
        assert pos0 == K.NSCAL
        self.step: Any = K.env_step
        self.advance_once: Any = K.env_advance
        self.observe: Any = K.env_observe
        self.legal: Any = K.env_legal

    @classmethod
    def of(cls, setup: Any, encoding: Any) -> _KernelRun | None:
        """The kernel run of games of ``setup``, or None when the kernel is not compiled in this
        process or ``encoding``'s layout is not the one the kernel writes."""
        from ..deep_sea import kernel as K

        if not K.COMPILED:
            return None
        at = {f.name: f.offset for f in encoding.layout}
        c = len(setup.path)
        layout = (
            at.get("step"),
            at.get("to_move"),
            at.get("my_turn"),
            at.get("must_turn_back"),
            at.get("unseen_count"),
            at.get("laying"),
            at.get("diver0.present"),
            at.get("diver1.present"),
            at.get("space1.exists"),
            at.get("space2.exists", K.O_SPACES + K.SPACE_W),
            encoding.observation_size,
            encoding.num_actions,
        )
        expected = (
            K.O_STEP,
            K.O_TO_MOVE,
            K.O_MY_TURN,
            K.O_MUST,
            K.O_UNSEEN,
            K.O_LAYING,
            K.O_DIVERS,
            K.O_DIVERS + K.DIVER_W,
            K.O_SPACES,
            K.O_SPACES + K.SPACE_W,
            K.O_SPACES + K.SPACE_W * c,
            2 * c + 5,
        )
        if layout != expected or c > K.MAX_CHIP_ID:
            return None
        return cls(setup, encoding.actions)

    def start(self, setup: Any) -> None:
        """The start of the game of ``setup`` (its chips and its seed's dice, as ``Game(setup)``)."""
        from ..deep_sea import kernel as K

        s = self.s
        s[:] = self.start_state
        c = self.c
        s[self._lv : self._lv + c] = [lv for lv, _ in setup.path]
        s[self._val : self._val + c] = [v for _, v in setup.path]
        x = random.Random(setup.seed).getrandbits(64)  # what Game.set_dice does with the seed
        s[self._env + K.E_DHI] = x >> 32
        s[self._env + K.E_DLO] = x & 0xFFFFFFFF
        s[K.PLAYER] = setup.first_player
        self.log[0] = 0
        self.setup = setup

    def grow(self) -> None:
        log = np.zeros(2 * len(self.log), dtype=np.int64)
        log[: len(self.log)] = self.log
        self.log = log

    def advance(self) -> int:
        """Roll until a seat decides (growing the log as needed): that seat, or -1 at the end."""
        while True:
            r = int(self.advance_once(self.s, self.cfg, self.log))
            if r != _R_FULL:
                return r
            self.grow()

    def result(self) -> tuple[list[float], tuple[int, ...]]:
        """The final scores (as floats, ``returns()``) and the winners."""
        from ..deep_sea import kernel as K

        s = self.s
        scores = [float(x) for x in s[self._score : self._score + self.n].tolist()]
        mask = int(s[self._env + K.E_WINNERS])
        return scores, tuple(q for q in range(self.n) if mask >> q & 1)

    def replay(self, game: Any, entries: list[int]) -> None:
        """Apply logged entries to ``game`` (checked): a roll must draw the dice the kernel drew."""
        from ..deep_sea.rules import DICE_OUTCOMES

        actions = self.actions
        for x in entries:
            if x < 0:
                dice = game.next_dice()
                if dice != DICE_OUTCOMES[-1 - x]:
                    raise RuntimeError(f"the kernel rolled {DICE_OUTCOMES[-1 - x]}, the Game {dice}")
                game.roll(dice)
            else:
                game.apply(actions[x])


class raw_env(GameEnv):  # noqa: N801 - PettingZoo's name for the unwrapped environment
    """Deep Sea Adventure as an unwrapped PettingZoo AEC environment.

    The setup keywords are :class:`~dsa_widget.deep_sea.rules.Game`'s (``players``: a count
    2..6 or names; ``air``, ``rounds``, ``first_player``, ``path``, ``options``); the seed
    comes from ``reset(seed=...)``.  A bad setup raises
    :class:`~dsa_widget.deep_sea.errors.SetupError` here, not at the first reset.
    ``reward``, ``render_mode``, ``max_cycles``, ``skip_forced`` and ``backend`` (``"auto"``:
    the compiled kernel when numba is in use; ``"game"``: a checked Game) are described in the
    module's docstring.
    """

    metadata: dict[str, Any] = {
        "name": ENV_NAME,
        "render_modes": ["human", "ansi", "rgb_array", "svg"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        players: int | Sequence[str] = 4,
        *,
        air: int = 25,
        rounds: int = 3,
        first_player: int = 0,
        path: Sequence[Sequence[int]] | None = None,
        options: Mapping[str, Any] | None = None,
        reward: str = "score_diff",
        render_mode: str | None = None,
        max_cycles: int | None = None,
        backend: str = "auto",
        skip_forced: bool = False,
    ) -> None:
        from ..deep_sea.setup import Setup

        setup: dict[str, Any] = {
            "players": players if isinstance(players, int) else list(players),
            "air": air,
            "rounds": rounds,
            "first_player": first_player,
            "path": None if path is None else [tuple(c) for c in path],
            "options": None if options is None else dict(options),
        }
        if backend not in BACKENDS:
            raise ValueError(f"backend must be one of {', '.join(BACKENDS)}; got {short_repr(backend)}")
        probe = Setup.create(**setup)  # a bad setup fails now, naming its key
        self.setup = setup
        super().__init__(
            functools.partial(_deep_sea_game, setup=setup),
            reward=reward,
            render_mode=render_mode,
            max_cycles=max_cycles,
            skip_forced=skip_forced,
        )
        self._run: _KernelRun | None = None
        if backend == "auto":
            self._run = _KernelRun.of(probe, self.encoding)
        #: ``"kernel"`` when the game runs on the compiled kernel, ``"game"`` on a checked Game
        self.backend = "game" if self._run is None else "kernel"
        self._shadow: GameState | None = None  # the kernel's game as a Game, caught up when read
        self._replayed = 0  # log entries applied to it
        self._live = 0  # 1 while the kernel's game goes on (not over, not truncated)

    # ------------------------------------------------------------------ the kernel's game
    # With the kernel (``backend == "kernel"``) the game's state is a flat int array; the actions
    # and dice applied are logged, and ``game`` replays them into a checked Game when read.

    @property
    def game(self) -> GameState:
        """The game being played: the true state, hidden values included (never give it to an
        agent; give it ``observe(agent)``).  On the kernel, a checked Game brought up to date
        (replaying the actions and dice applied since it was last read) each time it is read."""
        run = self._run
        if run is None:
            return super().game
        if run.setup is None:
            raise RuntimeError("call reset() before using the environment")
        shadow = self._shadow
        if shadow is None:
            shadow = self._shadow = _checked_game(run.setup)
            self._replayed = 0
        log = run.log
        m = int(log[0])
        if self._replayed < m:
            run.replay(shadow, log[1 + self._replayed : 1 + m].tolist())
            self._replayed = m
        return shadow

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Start a new game: ``Game(seed=seed)`` when a seed is given, else the next game of the
        environment's generator.  ``options`` are accepted and ignored."""
        run = self._run
        if run is None:
            super().reset(seed, options)
            return
        from ..deep_sea.setup import Setup

        run.start(Setup.create(seed=self._game_seed(seed), **self.setup))
        self._shadow = None
        self._replayed = 0
        self._live = 1
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._skip_agent_selection = None
        self._steps = 0
        self.skipped = 0
        self.agent_selection = self.agents[0]
        self._after(self._skip(run.advance()))
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s observation: its own view encoded, and its action mask (all zeros unless
        it is the agent to act)."""
        run = self._run
        if run is None or "observe" in getattr(self.encoding, "__dict__", ()):
            return super().observe(agent)  # encoding.observe replaced on the instance: honour it
        obs = np.empty(self._size, dtype=np.float32)
        mask = np.empty(self._num_actions, dtype=np.int8)
        run.observe(run.s, run.cfg, self._seat_of[agent], obs, mask, self._live)
        return {"observation": obs, "action_mask": mask}

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        run = self._run
        if run is None:
            return super().action_mask(agent)
        mask = np.zeros(self._num_actions, dtype=np.int8)
        seat = self._seat_of[self.agent_selection if agent is None else agent]
        if self._live and seat == run.s[run.player]:
            run.legal(run.s, run.cfg, mask)
        return mask

    def step(self, action: Any) -> None:
        """Apply the action number of the agent to act, then roll the dice until the next
        decision or the end.  A terminated or truncated agent must be given ``None``."""
        run = self._run
        if run is None:
            super().step(action)
            return
        if self._live and type(action) is int and 0 <= action < self._num_actions:  # the usual case
            r = run.step(run.s, run.cfg, run.log, action)
            if r >= 0 and not self.skip_forced:
                self.agent_selection = self.possible_agents[r]
                self._steps += 1
                if self._max_steps is not None and self._steps >= self._max_steps:
                    self.truncations = dict.fromkeys(self.agents, True)
                    self._live = 0
                if self.render_mode == "human":
                    self.render()
                return
            number = action
        else:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            # not an int: raises IllegalActionError as the Game-backed environment does
            number = self.encoding.index(self._decode(agent, action, self.game))
            r = run.step(run.s, run.cfg, run.log, number)
        while r == _R_FULL:  # no room to log the action: nothing was done
            run.grow()
            r = run.step(run.s, run.cfg, run.log, number)
        if r == _R_ILLEGAL:
            self._decode(self.agent_selection, action, self.game)  # raises IllegalActionError
            raise RuntimeError(f"the kernel refused action {number}, which the Game allows")
        self._steps += 1
        self._after(self._skip(r if r != _R_PENDING else run.advance()))
        if self.render_mode == "human":
            self.render()

    def _skip(self, r: int) -> int:
        """With ``skip_forced``, apply on the kernel every decision with one legal action from
        seat ``r`` on: the seat then to decide, or the end (-1)."""
        run = self._run
        if not self.skip_forced or run is None:
            return r
        mask = np.zeros(self._num_actions, dtype=np.int8)
        while r >= 0:
            mask[:] = 0
            run.legal(run.s, run.cfg, mask)
            legal = np.flatnonzero(mask)
            if len(legal) != 1:
                return r
            number = int(legal[0])
            r = run.step(run.s, run.cfg, run.log, number)
            while r == _R_FULL:
                run.grow()
                r = run.step(run.s, run.cfg, run.log, number)
            if r == _R_PENDING:
                r = run.advance()
            self.skipped += 1
        return r

    def _after(self, r: int) -> None:
        """After a step or a reset: the next agent, or the rewards and terminations at the end."""
        if r >= 0:
            self.agent_selection = self.possible_agents[r]
            if self._max_steps is not None and self._steps >= self._max_steps:
                self.truncations = dict.fromkeys(self.agents, True)
                self._live = 0
            return
        run = self._run
        assert run is not None
        self._live = 0
        scores, winners = run.result()
        for agent, x in zip(self.possible_agents, self._rewards_of(scores, winners), strict=False):
            if agent in self.rewards:
                self.rewards[agent] = x
        self.terminations = dict.fromkeys(self.agents, True)
        self._deads_step_first()
        self._accumulate_rewards()


def env(
    players: int | Sequence[str] = 4,
    *,
    air: int = 25,
    rounds: int = 3,
    first_player: int = 0,
    path: Sequence[Sequence[int]] | None = None,
    options: Mapping[str, Any] | None = None,
    reward: str = "score_diff",
    render_mode: str | None = None,
    max_cycles: int | None = None,
    illegal_reward: float | None = None,
    backend: str = "auto",
    skip_forced: bool = False,
) -> Any:
    """Deep Sea Adventure as a PettingZoo AEC environment, wrapped the standard way.

    The :class:`raw_env` inside ``OrderEnforcingWrapper(AssertOutOfBoundsWrapper(...))`` (their
    fast subclasses: the same behaviour, with the calls of each step going straight through); with
    ``illegal_reward`` a number, ``TerminateIllegalWrapper`` too (an illegal action ends the
    game with that reward for its author, instead of raising :class:`IllegalActionError`).
    """
    e: Any = raw_env(
        players,
        air=air,
        rounds=rounds,
        first_player=first_player,
        path=path,
        options=options,
        reward=reward,
        render_mode=render_mode,
        max_cycles=max_cycles,
        backend=backend,
        skip_forced=skip_forced,
    )
    if illegal_reward is not None:
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=float(illegal_reward))
    e = _AssertOutOfBounds(e)
    return _OrderEnforcing(e)


# PettingZoo's wrappers reach the environment's attributes through ``__getattr__`` (a few
# Python calls per attribute and per wrapper), which costs more than a step of the game.  These
# two are the same wrappers, with the calls of every step (``last``, ``step``, the iteration)
# going straight to the environment within; everything else is PettingZoo's own code.


def _in_every_space(raw: Any) -> int:
    """``n`` when every agent's action space is ``Discrete(n)`` from 0 (then an int
    ``0 <= a < n`` is in each of them), else 0."""
    found = [raw.action_space(a) for a in raw.possible_agents]
    if all(type(sp) is spaces.Discrete and sp.start == 0 and sp.n == found[0].n for sp in found):
        return int(found[0].n)
    return 0


class _AssertOutOfBounds(wrappers.AssertOutOfBoundsWrapper):  # type: ignore[misc]
    """PettingZoo's ``AssertOutOfBoundsWrapper``: an action outside the action space fails an
    assertion (an int inside it, the usual case, is checked without the space)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        self._n = _in_every_space(env.unwrapped)

    def step(self, action: Any) -> None:
        if type(action) is int and 0 <= action < self._n:
            self.env.step(action)
        else:
            super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        return self.env.last(observe)  # type: ignore[no-any-return]


class _OrderEnforcing(wrappers.OrderEnforcingWrapper):  # type: ignore[misc]
    """PettingZoo's ``OrderEnforcingWrapper`` (the same errors before ``reset``, the same
    warning for a step after the end, the same check that a loop over ``agent_iter`` steps)."""

    def __init__(self, env: Any) -> None:
        super().__init__(env)
        raw = self._raw = env.unwrapped
        # Right over an _AssertOutOfBounds over the environment, an int action that wrapper
        # lets through (0 <= action < n) goes straight to the environment, as it would.
        direct = type(env) is _AssertOutOfBounds and env.env is raw
        self._direct = _in_every_space(raw) if direct else 0
        self._last = raw.last if direct else env.last

    def step(self, action: Any) -> None:
        if self._has_reset and self._raw.agents:
            self._has_updated = True
            if type(action) is int and 0 <= action < self._direct:
                self._raw.step(action)
            else:
                self.env.step(action)
        else:
            super().step(action)

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            return super().last(observe)  # type: ignore[no-any-return]
        return self._last(observe)  # type: ignore[no-any-return]

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter, self._agents_until)

    def _agents_until(self, max_iter: int) -> Iterator[str]:
        """What ``AECOrderEnforcingIterator`` yields: the agent to act, ``max_iter`` times at
        most, while there are agents, asserting that each was stepped."""
        raw = self._raw
        left = max_iter
        while raw.agents and left > 0:
            left -= 1
            agent = raw.agent_selection
            assert self._has_updated, "need to call step() or reset() in a loop over `agent_iter`"
            self._has_updated = False
            yield agent

    def __str__(self) -> str:
        return str(self.env) if hasattr(self, "metadata") else repr(self)


class _AgentIterable(AECOrderEnforcingIterable):  # type: ignore[misc]
    def __init__(self, env: Any, max_iter: int, agents: Callable[[int], Iterator[str]]) -> None:
        super().__init__(env, max_iter)
        self.agents = agents

    def __iter__(self) -> Iterator[str]:
        return self.agents(self.max_iter)


def _registry_game(seed: int, name: str, setup: Mapping[str, Any]) -> GameState:
    from ..core.registry import game

    state: GameState = game(name).new_game(seed=seed, **setup)
    return state


def game_env(
    name: str,
    *,
    reward: str | None = None,
    render_mode: str | None = None,
    max_cycles: int | None = None,
    skip_forced: bool = False,
    illegal_reward: float | None = None,
    **setup: Any,
) -> Any:
    """Any registered game that names an encoding as a PettingZoo AEC environment: the generic
    :class:`GameEnv` over ``game(name).new_game(seed=seed, **setup)``, wrapped as :func:`env`
    wraps Deep Sea Adventure's (``reward``: one of the game's ``reward_modes``, its first by
    default; ``render_mode`` ``"ansi"`` / ``"human"``, ``max_cycles``, ``skip_forced`` and
    ``illegal_reward`` as there).  A bad setup raises the game's own error here; a game with no
    encoding a ``TypeError``.

    >>> e = game_env("submarine", players=3, options={"start_player": 0})
    >>> e.reset(seed=1)
    >>> e.agent_selection, int(e.last()[0]["action_mask"].sum()), e.unwrapped.metadata["name"]
    ('player_0', 6, 'submarine_v0')
    """
    from ..core.registry import game

    spec = game(name)
    if spec.encoding is None:
        raise TypeError(f"{spec.title} has no action numbering for the adapters")
    spec.new_game(seed=0, **setup)  # a bad setup fails now
    e: Any = GameEnv(
        functools.partial(_registry_game, name=spec.name, setup=dict(setup)),
        reward=reward,
        render_mode=render_mode,
        max_cycles=max_cycles,
        skip_forced=skip_forced,
    )
    e.metadata = {**e.metadata, "name": f"{spec.name.replace('-', '_')}_v0"}
    if illegal_reward is not None:
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=float(illegal_reward))
    return _OrderEnforcing(_AssertOutOfBounds(e))


def make(name: str = ENV_NAME, **kwargs: Any) -> Any:
    """An environment from PettingZoo's registry by name: ``make("deep_sea_adventure_v0",
    players=4)`` is ``pettingzoo.make("aec", "dsa_widget/deep_sea_adventure_v0", players=4)``
    (a name without a ``namespace/`` is looked up under ``dsa_widget/``).

    >>> make("deep_sea_adventure_v0", players=3).unwrapped.possible_agents
    ['player_0', 'player_1', 'player_2']
    """
    qualified = name if "/" in name else f"dsa_widget/{name}"
    return pettingzoo.make("aec", qualified, **kwargs)


def _register() -> None:
    normalized = REGISTRY_ID.replace("_v0", "-v0")  # the registry's own spelling of the id
    if normalized not in pettingzoo.aec_registry:
        pettingzoo.register("aec", REGISTRY_ID, entry_point=f"{__name__}:env")


_register()
