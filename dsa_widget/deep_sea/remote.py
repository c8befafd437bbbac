"""Deep Sea Adventure at a served table (:mod:`dsa_widget.server`): the platform's
:class:`~dsa_widget.server.session_table.SessionTable` with this game's presenter
(:class:`~dsa_widget.deep_sea.presenter.DeepSeaPresenter`; its registry entry names both), so
each viewer's screen is built from what that viewer may know and nothing else: a seat its own
knowledge (under ``reveal="owner"`` its own banked values only), a spectator what every player
knows.  The name here is kept for the code that used it before the platform.

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], seed=3, options={"reveal": "owner"})
>>> t = DeepSeaTable(g, seats=["human", "random"])
>>> t.to_move, t.seats
(0, ['human', 'random'])
>>> t.apply_intent(0, {"type": "intent", "choice": "roll"}); g.step
'search'
>>> t.pending()[0][0]            # the roll and its dice: kept so that a restart loses nothing
'roll'
>>> screen = t.screen(None, seq=7)
>>> screen["state"]["viewer"], screen["state"]["seq"], sorted(screen)[:3]
(None, 7, ['bot_delay', 'bot_help', 'bot_names'])
"""

from __future__ import annotations

from ..server.session_table import SessionTable as DeepSeaTable

__all__ = ["DeepSeaTable"]
