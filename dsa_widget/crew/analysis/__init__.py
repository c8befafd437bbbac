"""The probability lab of *The Crew*: exact chances from what one seat may know.

* :func:`holding_chances` — per hidden card, the chance each seat holds it;
* :func:`void_chances` — per seat and suit, the chance the seat has none of the suit;
* :func:`holding_distribution`, :func:`chance` — how many of some cards a seat (or a group of
  seats) holds, and the chance of at least so many;
* :func:`feasibility_of`, :func:`feasibility` — can a mission still succeed with every hand known
  (the solver's exact verdict for one game; an estimate with its Wilson interval over deals);
* :func:`behaviour_chances` — the holding chances when each fitting deal is weighted by how
  likely a play model makes the cards played (module :mod:`.inference`: play models,
  calibration against engine games).

Model: every deal consistent with the public knowledge (:class:`~dsa_widget.crew.knowledge.Knowledge`)
is equally likely, the deals the engine redeals (R-6.10) left out; the figures are exact
fractions under that model.  What it leaves out: the information in the players' choices (which
card a player chose, whom a task went to, a distress pass); :func:`behaviour_chances` adds the
first of these under a stated model of how the players choose.

>>> from dsa_widget.crew.cards import mask_of
>>> from dsa_widget.crew.knowledge import Knowledge
>>> pool = mask_of(["S1", "S2", "S3"])
>>> k = Knowledge(seats=4, viewer=0, pool=pool, slots=(0, 1, 1, 1), known=(mask_of(["S4"]), 0, 0, 0),
...               allowed=(0, pool, pool, pool))
>>> holding_chances(k)["S3"]
[Fraction(0, 1), Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)]
>>> chance(k, [1, 2], "S3")
Fraction(2, 3)
"""

from .feasibility import Estimate, Verdict, feasibility, feasibility_of
from .holding import chance, holding_chances, holding_distribution, void_chances
from .inference import behaviour_chances

__all__ = [
    "Estimate",
    "Verdict",
    "behaviour_chances",
    "chance",
    "feasibility",
    "feasibility_of",
    "holding_chances",
    "holding_distribution",
    "void_chances",
]
