"""*The Crew: Mission Deep Sea* as an OpenSpiel game, ``python_the_crew_deep_sea``: the generic
game of :mod:`dsa_widget.adapters.openspiel` with The Crew's rules
(:mod:`dsa_widget.crew.openspiel`, named by its registry entry).  Importing this module (or
the generic one) registers it; the names here stay for old imports.

>>> import pyspiel
>>> game = pyspiel.load_game("python_the_crew_deep_sea", {"players": 4, "tasks": "70"})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(4, 371, 4)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()            # P1 goes to seat 0, 1, 2 or 3
(True, [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)])
>>> for i in range(40):                                       # seat i % 4 gets the i-th card
...     state.apply_action(i % 4)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()][:2]
(3, ['pass', 'take 70'])
>>> state.information_state_string(0)[:23]
'0|P1>0,P2?,P3?,P4?,P5>0'
"""

from __future__ import annotations

from ..crew.openspiel import RULES as RULES
from .openspiel import SpielGame, SpielObserver, SpielState, register

__all__ = ["CrewSpielGame", "CrewSpielObserver", "CrewSpielState"]

#: the registered game class (``pyspiel.load_game("python_the_crew_deep_sea", {...})`` makes one)
CrewSpielGame: type[SpielGame] = register(RULES)
CrewSpielState = SpielState
CrewSpielObserver = SpielObserver
