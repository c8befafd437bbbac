"""*The Crew: Mission Deep Sea* as a PettingZoo AEC environment (cooperative): the generic
environment of :mod:`dsa_widget.adapters.pettingzoo` (``game_env("crew", ...)``), under the
name it has always had.

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
plays for it, R-4.7).  **Actions**: the numbering of :mod:`dsa_widget.crew.encoding`
(``Discrete(371)``); allocations with free proposals are refused with a ``ValueError``.
**Rewards**, once at the end: ``reward="success"`` (default) gives every agent 1 on success and
0 on failure; ``reward="signed"`` +1 / -1.  Everything else (seeds, ``max_cycles``,
``skip_forced``, ``state()``, illegal actions) is the generic environment's.  Importing the
module registers ``"dsa_widget/the_crew_deep_sea_v0"`` with PettingZoo's registry.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pettingzoo

from ..crew.encoding import REWARDS, crew_text
from ..crew.mission import Mission
from .pettingzoo import game_env

__all__ = ["CREW_ENV_NAME", "CREW_REGISTRY_ID", "CREW_REWARDS", "crew_env", "crew_text"]

#: the versioned environment name (``metadata["name"]``)
CREW_ENV_NAME = "the_crew_deep_sea_v0"
CREW_REGISTRY_ID = f"dsa_widget/{CREW_ENV_NAME}"
CREW_REWARDS = REWARDS


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
    skip_forced: bool = False,
) -> Any:
    """``game_env("crew", ...)`` with :class:`~dsa_widget.crew.rules.CrewGame`'s setup keywords
    (``players``, ``target``, ``mission``, ``campaign``, ``options``, ``tasks``); the seed comes
    from ``reset``.  A bad setup raises :class:`~dsa_widget.crew.errors.SetupError` here."""
    setup: dict[str, Any] = {
        "players": players if isinstance(players, int) else list(players),
        "target": target,
        "mission": mission,
        "campaign": campaign,
        "options": None if options is None else dict(options),
        "tasks": None if tasks is None else list(tasks),
    }
    e = game_env(
        "crew",
        reward=reward,
        render_mode=render_mode,
        max_cycles=max_cycles,
        skip_forced=skip_forced,
        illegal_reward=illegal_reward,
        **{k: v for k, v in setup.items() if v is not None or k == "target"},
    )
    e.unwrapped.metadata = {**e.unwrapped.metadata, "name": CREW_ENV_NAME}
    return e


def _register() -> None:
    normalized = CREW_REGISTRY_ID.replace("_v0", "-v0")
    if normalized not in pettingzoo.aec_registry:
        pettingzoo.register("aec", CREW_REGISTRY_ID, entry_point=f"{__name__}:crew_env")


_register()
