"""The fast path: complete random games for benchmarks and bots (SUBMARINE.md rules, any options).

:func:`random_game` plays a whole game with :meth:`SubmarineGame.random_playout`: the engine's
own rule code, without building, listing or parsing action strings.  With ``trace`` the actions
are written out as strings, and replaying them with the checked ``apply`` reaches the same state
(the tests check this for every option set).

>>> import random
>>> g = random_game(4, seed=3)
>>> g.is_over, g.result[0] in ("E1", "E2", "E3", "E4"), len(g.scores)
(True, True, 4)
>>> trace: list[str] = []
>>> h = random_game(2, seed=8, trace=trace)
>>> from dsa_widget.submarine.rules import SubmarineGame
>>> again = SubmarineGame(2, seed=8)
>>> for a in trace:
...     again.apply(a)
>>> again.state_dict() == h.state_dict()
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from .rules import SubmarineGame

__all__ = ["random_game"]


def random_game(
    players: int = 4,
    *,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    rng: random.Random | None = None,
    trace: list[str] | None = None,
) -> SubmarineGame:
    """A complete game between random players: the setup from ``seed``, the choices from ``rng``
    (default ``random.Random(seed)``)."""
    g = SubmarineGame(players, seed=seed, options=options)
    g.random_playout(rng if rng is not None else random.Random(seed), trace=trace)
    return g
