"""*The Crew: Mission Deep Sea* as a PettingZoo AEC environment (cooperative).

>>> from dsa_widget.adapters.crew_pettingzoo import crew_env
>>> e = crew_env(players=4, target=3)
>>> e.reset(seed=3)
>>> e.possible_agents, e.agent_selection
(['player_0', 'player_1', 'player_2', 'player_3'], 'player_1')
>>> obs, reward, terminated, truncated, info = e.last()
>>> obs["observation"].shape, obs["action_mask"].shape
((2239,), (371,))
>>> [e.unwrapped.encoding.action(int(a)) for a in obs["action_mask"].nonzero()[0]][:3]
['pass', 'take 26']

A whole game with random legal actions; every agent gets the same reward at the end:

>>> import numpy as np
>>> rng = np.random.default_rng(0)
>>> for agent in e.agent_iter():
...     obs, reward, terminated, truncated, info = e.last()
...     action = None if terminated or truncated else int(rng.choice(np.flatnonzero(obs["action_mask"])))
...     e.step(action)
>>> e.agents, e.unwrapped.game.is_over, e.unwrapped.game.outcome.result
([], True, 'failure')

**Agents** are ``"player_0"`` .. ``"player_{h-1}"``, one per *human* seat in seat order
(``env.unwrapped.seat_of[agent]``): with two players Tonoja's seat is not an agent (the captain
plays for it, R-4.7), otherwise agent ``player_i`` is seat ``i``.

**Actions**: the fixed numbering of :mod:`dsa_widget.adapters.crew_encoding`
(``Discrete(371)`` for every agent; ``env.unwrapped.encoding``).  Allocations with free
proposals (``free``; ``volunteers`` with 2 volunteers) have no fixed numbering and are refused
with a ``ValueError`` when the environment is made.  With ``communication_window="free"`` only
the seat to act can communicate (the environment is turn-based: it offers that seat's
``legal_actions()``).

**Observations**: ``{"observation": float32[2239], "action_mask": int8[371]}``; the observation is
``encoding.observe(game.view(seat))`` (the seat's own view only, seats relative to it; the
fields are in ``encoding.layout`` and docs/AI.md), the mask is 1 at each legal action of the
agent to act and all zeros for everyone else.

**Rewards**, once at the end: ``reward="success"`` (default) gives every agent 1 on success and 0
on failure; ``reward="signed"`` gives +1 / -1.  **Seeds**: ``reset(seed=s)`` starts
``CrewGame(seed=s, ...)`` (deal and task draw); ``reset()`` the next game of a generator seeded
by the last seed.  ``max_cycles=m`` truncates after ``m * len(agents)`` decisions.
**Illegal actions** raise :class:`~dsa_widget.adapters.pettingzoo.IllegalActionError` (a
``ValueError``) and change nothing.  Importing the module registers
``"dsa_widget/the_crew_deep_sea_v0"`` with PettingZoo's registry.
"""

from __future__ import annotations

import random
import struct
from collections.abc import Mapping, Sequence
from typing import Any

import gymnasium
import numpy as np
import pettingzoo
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from ..core.errors import short_repr
from ..core.protocol import TERMINAL
from ..crew.mission import Mission, campaign_mission
from ..crew.rules import CrewGame
from .crew_encoding import NUM_ACTIONS, OBSERVATION_SIZE, CrewEncoding, check_supported, crew_text
from .pettingzoo import IllegalActionError, _AssertOutOfBounds, _OrderEnforcing

__all__ = ["CREW_ENV_NAME", "CREW_REGISTRY_ID", "CREW_REWARDS", "CrewEnv", "crew_env", "crew_text"]

#: the versioned environment name (``metadata["name"]``)
CREW_ENV_NAME = "the_crew_deep_sea_v0"
CREW_REGISTRY_ID = f"dsa_widget/{CREW_ENV_NAME}"
CREW_REWARDS = ("success", "signed")
_F32_MAX = float(np.finfo(np.float32).max)
#: packing the floats into a fresh float32 array (faster than np.asarray of the list)
_PACK = struct.Struct(f"{OBSERVATION_SIZE}f").pack_into


class CrewEnv(AECEnv):  # type: ignore[misc]
    """The Crew as an unwrapped PettingZoo AEC environment (see the module docstring).

    Setup keywords are :class:`~dsa_widget.crew.rules.CrewGame`'s (``players``, ``target``,
    ``mission``, ``campaign``, ``options``, ``tasks``); the seed comes from ``reset``.  A bad
    setup raises :class:`~dsa_widget.crew.errors.SetupError` here."""

    metadata: dict[str, Any] = {
        "name": CREW_ENV_NAME,
        "render_modes": ["human", "ansi"],
        "is_parallelizable": False,
        "render_fps": 2,
    }

    def __init__(
        self,
        players: int | Sequence[str] = 4,
        *,
        target: int | None = 3,
        mission: Mission | Mapping[str, Any] | None = None,
        campaign: int | None = None,
        options: Mapping[str, Any] | None = None,
        tasks: Sequence[int] | None = None,
        reward: str = "success",
        render_mode: str | None = None,
        max_cycles: int | None = None,
    ) -> None:
        super().__init__()
        if reward not in CREW_REWARDS:
            raise ValueError(f"reward must be one of {', '.join(CREW_REWARDS)}; got {short_repr(reward)}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None, 'human' or 'ansi'; got {render_mode!r}")
        if max_cycles is not None and (
            not isinstance(max_cycles, int) or isinstance(max_cycles, bool) or max_cycles < 1
        ):
            raise ValueError(f"max_cycles must be None or a positive int; got {short_repr(max_cycles)}")
        self.setup: dict[str, Any] = {
            "players": players if isinstance(players, int) else list(players),
            "target": target,
            "mission": mission,
            "campaign": campaign,
            "options": None if options is None else dict(options),
            "tasks": None if tasks is None else list(tasks),
        }
        probe = CrewGame(seed=0, **self.setup)  # a bad setup fails now
        m = campaign_mission(campaign) if campaign is not None else probe.mission
        check_supported(m.allocation, m.volunteers)
        self.encoding = CrewEncoding()
        self.reward = reward
        self.render_mode = render_mode
        self.max_cycles = max_cycles
        self.possible_agents: list[str] = [f"player_{i}" for i in range(len(probe.humans))]
        #: agent -> its seat in the game
        self.seat_of: dict[str, int] = dict(zip(self.possible_agents, probe.humans, strict=True))
        self._agent_at = {s: a for a, s in self.seat_of.items()}
        self._max_steps = None if max_cycles is None else max_cycles * len(self.possible_agents)
        self.action_spaces = {a: spaces.Discrete(NUM_ACTIONS) for a in self.possible_agents}
        self.observation_spaces = {
            a: spaces.Dict(
                {
                    "observation": spaces.Box(0.0, _F32_MAX, shape=(OBSERVATION_SIZE,), dtype=np.float32),
                    "action_mask": spaces.Box(0, 1, shape=(NUM_ACTIONS,), dtype=np.int8),
                }
            )
            for a in self.possible_agents
        }
        self._game: CrewGame | None = None
        self._seeder: random.Random | None = None
        self._steps = 0

    def observation_space(self, agent: str) -> Any:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> Any:
        return self.action_spaces[agent]

    @property
    def game(self) -> CrewGame:
        """The game being played: the truth, hidden cards included (never give it to an agent)."""
        if self._game is None:
            raise RuntimeError("call reset() before using the environment")
        return self._game

    def reset(self, seed: int | None = None, options: Mapping[str, Any] | None = None) -> None:
        """Start ``CrewGame(seed=seed, ...)`` (``options`` are accepted and ignored)."""
        if seed is not None:
            seed = int(seed)
            self._seeder = random.Random(seed)
        else:
            if self._seeder is None:
                self._seeder = random.Random()
            seed = self._seeder.getrandbits(63)
        self._game = CrewGame(seed=seed, **self.setup)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._steps = 0
        self._skip_agent_selection = None
        self.agent_selection = self.agents[0]
        self._after()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def action_mask(self, agent: str | None = None) -> np.ndarray:
        """The mask of ``agent`` (default: the agent to act) without its observation."""
        agent = self.agent_selection if agent is None else agent
        mask = np.zeros(NUM_ACTIONS, dtype=np.int8)
        g = self.game
        if (
            agent == self.agent_selection
            and not g.is_over
            and g.to_move == self.seat_of[agent]
            and not self.terminations.get(agent, True)
            and not self.truncations.get(agent, True)
        ):
            mask[[self.encoding.index(a) for a in g.legal_actions()]] = 1
        return mask

    def observe(self, agent: str) -> dict[str, Any]:
        """``agent``'s own view encoded, and its action mask."""
        seat = self.seat_of[agent]
        obs = np.empty(OBSERVATION_SIZE, dtype=np.float32)
        _PACK(obs.data, 0, *self.encoding.observe(self.game.view(seat)))
        return {"observation": obs, "action_mask": self.action_mask(agent)}

    def step(self, action: Any) -> None:
        """Apply the action number of the agent to act (``None`` for a terminated agent)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        g = self.game
        choice = self._decode(agent, action, g)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        g.apply(choice)
        self._steps += 1
        self._after()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _decode(self, agent: str, action: Any, g: CrewGame) -> str:
        legal = g.legal_actions()
        if isinstance(action, (int, np.integer)) and not isinstance(action, (bool, np.bool_)):
            i = int(action)
            if 0 <= i < NUM_ACTIONS:
                choice = self.encoding.decode(i, g.task_ids)
                if choice in legal:
                    return choice
                why = f"action {i} ({choice!r}) is not legal for {agent} now"
            else:
                why = f"action {i} is out of range 0..{NUM_ACTIONS - 1}"
        elif action is None:
            why = f"{agent} is to act: None is only for an agent that is terminated or truncated"
        else:
            why = f"an action is an action number (an int), got {short_repr(action)}"
        numbers = tuple(self.encoding.index(a) for a in legal)
        shown = ", ".join(f"{k} ({a})" for k, a in zip(numbers, legal, strict=True))
        raise IllegalActionError(f"{why}; legal: {shown}", agent, action, numbers)

    def _after(self) -> None:
        g = self.game
        if g.to_move == TERMINAL or g.is_over:
            ok = g.outcome is not None and g.outcome.result == "success"
            r = 1.0 if ok else (-1.0 if self.reward == "signed" else 0.0)
            for a in self.agents:
                self.rewards[a] = r
            self.terminations = dict.fromkeys(self.agents, True)
            self._deads_step_first()
            return
        self.agent_selection = self._agent_at[g.to_move]
        if self._max_steps is not None and self._steps >= self._max_steps:
            self.truncations = dict.fromkeys(self.agents, True)

    def render(self) -> Any:
        """``"ansi"``: the public table as text; ``"human"`` prints it."""
        if self.render_mode is None:
            gymnasium.logger.warn("render() called without a render_mode; give one to the environment")
            return None
        text = crew_text(self.game)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        """Nothing to release."""


def crew_env(
    players: int | Sequence[str] = 4,
    *,
    target: int | None = 3,
    mission: Mission | Mapping[str, Any] | None = None,
    campaign: int | None = None,
    options: Mapping[str, Any] | None = None,
    tasks: Sequence[int] | None = None,
    reward: str = "success",
    render_mode: str | None = None,
    max_cycles: int | None = None,
    illegal_reward: float | None = None,
) -> Any:
    """:class:`CrewEnv` wrapped the PettingZoo way (``OrderEnforcingWrapper`` over
    ``AssertOutOfBoundsWrapper``; with ``illegal_reward``, ``TerminateIllegalWrapper`` too)."""
    e: Any = CrewEnv(
        players,
        target=target,
        mission=mission,
        campaign=campaign,
        options=options,
        tasks=tasks,
        reward=reward,
        render_mode=render_mode,
        max_cycles=max_cycles,
    )
    if illegal_reward is not None:
        e = wrappers.TerminateIllegalWrapper(e, illegal_reward=float(illegal_reward))
    e = _AssertOutOfBounds(e)
    return _OrderEnforcing(e)


def _register() -> None:
    normalized = CREW_REGISTRY_ID.replace("_v0", "-v0")
    if normalized not in pettingzoo.aec_registry:
        pettingzoo.register("aec", CREW_REGISTRY_ID, entry_point=f"{__name__}:crew_env")


_register()
