"""*The Crew* at a served table (:mod:`dsa_widget.server`): the platform's
:class:`~dsa_widget.server.session_table.SessionTable` with this game's presenter (its registry
entry names both), so each seat's screen is built from that seat's view only: its own hand,
a spectator's (and Tonoja's seat's) public knowledge.  The names here are kept for the code
that used them before the platform.

>>> from dsa_widget.crew.rules import CrewGame
>>> t = CrewTable(CrewGame(["Ann", "Bob", "Cy"], target=1, seed=1), seats=["human", "random", "random"])
>>> ann, bob = t.screen(0, seq=1)["state"], t.screen(1, seq=1)["state"]
>>> ann["seat"], len(ann["hand"]) >= 13, set(ann["hand"]) & set(bob["hand"])   # each its own hand
(0, True, set())
>>> t.screen(None, seq=1)["state"]["hand"] is None     # a spectator: public knowledge only
True
>>> srv = serve_crew(players=["Ann", "Bob", "Cy"], seats={2: "random"}, seed=1, target=1)
>>> len(srv.seat_urls), srv.table.game.seats, srv.fill
(3, ['human', 'human', 'random'], 'crewmate')
>>> srv.stop()
"""

from __future__ import annotations

from ..server import for_game
from ..server.session_table import SessionTable as CrewTable

__all__ = ["CrewTable", "make_crew_table", "serve_crew"]

#: :func:`dsa_widget.server.make_table` and :func:`dsa_widget.server.serve` with ``game="crew"``
make_crew_table, serve_crew = for_game("crew")
