"""Probability tools for Deep Sea Adventure: exact where possible, estimated with intervals elsewhere.

Exact (results are :class:`Exact` fractions or :class:`Distribution` objects):

* :func:`dice_sum_distribution`, :func:`steps_distribution`, :func:`expected_steps` — the dice and
  how far a diver carrying ``k`` items swims;
* :func:`landing_distributions` / :func:`landing_distribution` — where the current diver lands for
  each legal choice (jumps and the path's end included);
* :func:`home_chance` / :func:`home_chances` — the chance to be back in the submarine when the
  round ends, under a stated assumption about the other divers;
* :func:`carried_value`, :func:`carried_value_distribution`, :func:`chip_mean`, :func:`item_value`
  — what carried treasure is worth given what a player knows.

Estimated (playouts, 95% Wilson intervals): :func:`win_chances`, :func:`estimate_home_chance`.

The optimal solo policy (dynamic programming): :func:`solo_policy` (table, heat map, bot),
:func:`solo_bot`, :func:`solo_game`.

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], seed=1)
>>> landing_distribution(g)
{2: 1/9, 3: 2/9, 4: 1/3, 5: 2/9, 6: 1/9}
"""

from ._common import AnalysisError, Chance, Distribution, Exact, Points, Steps
from .dice import dice_sum_distribution, expected_steps, steps_distribution
from .estimate import (
    HomeEstimate,
    WinEstimate,
    estimate_home_chance,
    simple_bot,
    wilson_interval,
    win_chances,
)
from .home import clear_cache as clear_home_cache
from .home import home_chance, home_chances
from .landing import landing_distribution, landing_distributions
from .solo import STANDARD_LEVELS, AdviceTable, HeatMap, SoloPolicy, solo_bot, solo_game, solo_policy
from .values import carried_value, carried_value_distribution, chip_mean, item_value

__all__ = [
    "STANDARD_LEVELS",
    "AdviceTable",
    "AnalysisError",
    "Distribution",
    "Exact",
    "Chance",
    "Points",
    "Steps",
    "HeatMap",
    "HomeEstimate",
    "SoloPolicy",
    "WinEstimate",
    "carried_value",
    "carried_value_distribution",
    "chip_mean",
    "clear_home_cache",
    "dice_sum_distribution",
    "estimate_home_chance",
    "expected_steps",
    "home_chance",
    "home_chances",
    "item_value",
    "landing_distribution",
    "landing_distributions",
    "simple_bot",
    "solo_bot",
    "solo_game",
    "solo_policy",
    "steps_distribution",
    "wilson_interval",
    "win_chances",
]
