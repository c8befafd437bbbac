"""*Submarine* at a served table (:mod:`dsa_widget.server`): the platform's
:class:`~dsa_widget.server.session_table.SessionTable` with this game's presenter (its registry
entry names both), so each seat's screen is built from that seat's view only.  The names here
are kept for the code that used them before the platform.

>>> srv = serve_submarine(players=["Ann", "Bob", "Cy"], seats={2: "random"}, seed=1)
>>> len(srv.seat_urls), srv.table.game.seats, srv.fill
(3, ['human', 'human', 'random'], 'greedy')
>>> srv.stop()
"""

from __future__ import annotations

from ..server import for_game
from ..server.session_table import SessionTable as SubmarineTable

__all__ = ["SubmarineTable", "make_submarine_table", "serve_submarine"]

#: :func:`dsa_widget.server.make_table` and :func:`dsa_widget.server.serve` with
#: ``game="submarine"``
make_submarine_table, serve_submarine = for_game("submarine")
