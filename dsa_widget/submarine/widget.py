"""``Submarine``: play *Submarine* in JupyterLab, on the platform's table.

The session (:class:`~dsa_widget.core.session.Session`) holds the game, the seats and bots,
history and what-if, and checks every message; the bridge
(:class:`~dsa_widget.bridge.GameWidget`) syncs its screen.  What is this game's own is the
:class:`SubmarinePresenter`: the screen built from ``game.view(viewer).to_dict()`` for the seat
whose screen it is (the spectator view, ``None``, behind a curtain), and the words of the
history.

>>> w = Submarine(players=["You", "Bot"], seats={1: "random"}, seed=1)
>>> w.state["seat"], w.state["players"]
(0, ['You', 'Bot'])
>>> w.handle_intent({"type": "intent", "seq": w.seq, "choice": "sail 9"})   # not legal: nothing changes
>>> w.error["kind"]
'illegal'
>>> w.apply(w.game.legal_actions()[0]); w.state["seq"]                    # a cell's move redraws
1
>>> _ = w.play_bots()
>>> w.game.to_move == 0 or w.game.is_over
True

Rules-core note: ``view(seat).to_dict()["current_turn"]`` lists the actions of the turn in
progress, which may include another seat's ``exchange K`` (the card tucked under a pile is hidden
from everyone): the presenter masks it to ``exchange ?`` for every other seat.
"""

from __future__ import annotations

from typing import Any, ClassVar

from ..bridge import GameWidget
from ..core.session import BasePresenter, Session

__all__ = ["Submarine", "SubmarinePresenter"]


class SubmarinePresenter(BasePresenter):
    """Submarine's screens and history words (no chance steps after the deal)."""

    auto_chance = False

    def screen(self, session: Session, state: Any, viewer: int | None) -> dict[str, Any]:
        st = dict(state.view(viewer).to_dict())
        t = session.actor(state)
        if t is not None and t != viewer:  # another seat's tucked card stays hidden
            st["current_turn"] = [
                "exchange ?" if str(a).startswith("exchange ") else a for a in st.get("current_turn") or []
            ]
        return st

    def compare_row(self, name: str, state: Any, viewer: int | None) -> dict[str, Any]:
        v = state.view(viewer).to_dict()
        return {"name": name, "scores": list(v["scores"]), "turn": v["turn_number"]}

    def label(self, before: Any, after: Any, seat: int | None, action: Any, viewer: int | None) -> str:
        name = "chance" if seat is None else str(before.players[seat])
        verb, _, rest = str(action).partition(" ")
        if verb == "place":
            return f"{name} placed a bathyscaphe in column {rest}"
        if verb == "sail":
            return f"{name} sailed to {rest}"
        if verb == "mode":
            return f"{name} chose to {rest}"
        if verb == "collect":
            parts = rest.split()
            return f"{name} collected {parts[1]} at {parts[0]}" if len(parts) > 1 else f"{name} collected"
        if verb == "move":
            return f"{name} moved {rest.replace(' ', ' to ')}"
        if verb == "exchange":  # the tucked card goes under a pile, where nobody may see it
            return f"{name} exchanged a card"
        if verb == "pass":
            return f"{name} passed"
        if verb == "end":
            return f"{name} ended the step"
        return f"{name}: {verb}"


class Submarine(GameWidget):
    """A playable table of *Submarine*: ``Submarine(players=["You", "Bot 1", "Bot 2"],
    seats={1: "greedy", 2: "mc"}, seed=1, options={...})``, or ``Submarine(game=...)``;
    ``Submarine()`` seats you against the game's usual bot.  Keywords as
    :class:`~dsa_widget.bridge.GameWidget`."""

    GAME: ClassVar[str] = "submarine"
    PRESENTER = SubmarinePresenter

    @property
    def actions(self) -> list[tuple[int, str]]:
        """``(seat, action)`` of every action of the real game (the truth: names exchanges)."""
        return [(int(q), str(a)) for q, a in self.session.steps if q is not None and a is not None]
