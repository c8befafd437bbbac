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

from collections.abc import Mapping
from typing import Any, ClassVar

from ..bridge import GameWidget
from ..core.chances import Figure
from ..core.session import BasePresenter, Session
from . import words
from .odds import draw_chance
from .options import as_named
from .rules import COLOURS

__all__ = ["Submarine", "SubmarinePresenter"]

#: the model the card figures are exact under (:mod:`dsa_widget.submarine.odds`, its first
#: assumption: exactly true at the deal, later the other hands' choices are not read)
POOL = "if every card you cannot see is as likely as any other to be next"


class SubmarinePresenter(BasePresenter):
    """Submarine's screens and history words (no chance steps after the deal).

    The screen is the seat's view plus ``words`` (:mod:`~dsa_widget.submarine.words`): the
    prompt, each legal action's sentence, button text and group (``words["legal"][i]`` is
    ``legal[i]``'s), the rules primer for the
    options in force, and at the end why the game ended and what scored how much."""

    auto_chance = False
    shows_chances = True

    def chances(self, view: Any) -> tuple[Figure, ...]:
        """The colour of the next card the seat draws from its own pile (its refill and its
        exchange draw from the top), each colour's chance from what the seat sees
        (:func:`dsa_widget.submarine.odds.draw_chance`: the unseen cards as one shuffled pool);
        none for a spectator (no pile of its own), an empty pile or a game over.

        >>> from dsa_widget.submarine import SubmarineGame
        >>> figures = SubmarinePresenter().chances(SubmarineGame(2, seed=3).view(0))
        >>> [f"{f.label}: {f.value:.3f}" for f in figures][:2]
        ["Your pile's next card is red: 0.211", "Your pile's next card is yellow: 0.211"]
        """
        d = view.data
        if view.seat is None or d["result"] is not None or not d["pile_sizes"][view.seat]:
            return ()
        return tuple(
            Figure(
                f"Your pile's next card is {words.colour_words(c)}",
                float(draw_chance(view, c, 1, draws=1)),
                "exact",
                given=POOL,
            )
            for c in COLOURS
        )

    def screen(self, session: Session, state: Any, viewer: int | None) -> dict[str, Any]:
        st = dict(state.view(viewer).to_dict())
        t = session.actor(state)
        if t is not None and t != viewer:  # another seat's tucked card stays hidden
            st["current_turn"] = [
                "exchange ?" if str(a).startswith("exchange ") else a for a in st.get("current_turn") or []
            ]
        st["words"] = self.words(state, st)
        return st

    @staticmethod
    def words(state: Any, v: dict[str, Any]) -> dict[str, Any]:
        """The screen's words, from the view ``v`` (public facts and the seat's own hand only)."""
        out: dict[str, Any] = {
            "prompt": words.prompt(v),
            "turn": words.turn_words(v),
            # one entry per legal action, in the same order (the action itself is not repeated:
            # an exchange names a card of the own hand, which stays in ``legal`` alone)
            "legal": [words.action_words(a, v) for a in v.get("legal") or []],
            "primer": words.primer(v["options"], len(v["players"])),
            "ending": None,
            "scores": None,
        }
        result = v.get("result")
        if result:
            out["ending"] = words.ending(
                result,
                v["players"],
                v["scores"],
                column=_emptied_column(state),
                limit=v["options"].get("turn_limit"),
            )
            out["scores"] = words.breakdown(v)
        return out

    def replay_setup(self, state: Any, setup: Mapping[str, Any]) -> dict[str, Any]:
        """Play again: the same players and rule options (the game's, however it was made)."""
        return {**super().replay_setup(state, setup), "options": dict(state.options)}

    def setup_values(self, state: Any, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The form's settings: the per-player-count tables by the names the form offers (the
        game holds them as tables, which the form cannot show: it showed the usual table, and
        Start with nothing changed went back to it)."""
        out = self.replay_setup(state, setup)
        return {**out, "options": as_named(out["options"])}

    def compare_row(self, name: str, state: Any, viewer: int | None) -> dict[str, Any]:
        v = state.view(viewer).to_dict()
        return {"name": name, "scores": list(v["scores"]), "turn": v["turn_number"]}

    def label(self, before: Any, after: Any, seat: int | None, action: Any, viewer: int | None) -> str:
        if seat is None:
            return "The cards and tiles were dealt"
        players = [str(x) for x in before.players]
        name = players[seat]
        p = str(action).split()
        verb = p[0] if p else ""
        new = list(after.events)[len(before.events) :]
        if verb == "place":
            text = f"{name} placed a bathyscaphe in column {p[1]}, depth 1"
        elif verb == "sail":
            there = "off the board to the end" if p[1] == "end" else f"to column {p[1]}"
            text = f"{_owner(name)} submarine sailed from {_where(before.ship(seat))} {there}"
        elif verb == "mode":
            text = (
                f"{name} chose to move the bathyscaphes under the submarine"
                if p[1] == "move"
                else f"{name} chose to collect treasure"
            )
        elif verb == "collect":
            text = f"{name} collected the {words.tile_words(p[2])} at {words.space_words(p[1])}"
            ev: dict[str, Any] = next((e for e in new if e.get("type") == "collect"), {})
            if p[3] == "joker":
                text += f" with the {words.tile_words(p[4])} as a joker"
            else:
                text += f", paying a {words.colour_words(p[2][3:])} card"
                paid = [int(q) for q in ev.get("paid") or []]
                if paid:
                    n = len(paid)
                    text += f" and {n} card{'s' if n > 1 else ''} from the pile ({_paid_to(paid, players)})"
            if ev.get("to") == "jokers":
                text += " (a type already owned: it becomes a joker)"
        elif verb == "move":
            text = f"{name} moved a bathyscaphe from {words.space_words(p[1])} to {words.space_words(p[2])}"
        elif verb == "exchange":  # the tucked card goes under a pile, where nobody may see it
            text = f"{name} swapped a card with the top of the pile"
        elif verb == "pass":
            text = f"{name} passed"
        elif verb == "end":
            text = f"{name} ended the turn"
        else:
            text = f"{name} played {action}"
        if any(e.get("type") == "regroup" for e in new):
            text += "; every submarine was back at the start"
        if after.is_over and not before.is_over:
            v = after.view(viewer).to_dict()
            text += ". " + words.ending(
                v["result"],
                players,
                v["scores"],
                column=_emptied_column(after),
                limit=v["options"].get("turn_limit"),
            )
        return text


def _owner(name: str) -> str:
    """ "Ann's", and "Your" for a player called "You"."""
    return "Your" if name == "You" else f"{name}'s"


def _where(pos: str) -> str:
    return "the start" if pos == "start" else f"column {pos}"


def _paid_to(paid: list[int], players: list[str]) -> str:
    counts: dict[int, int] = {}
    for q in paid:
        counts[q] = counts.get(q, 0) + 1
    return ", ".join(f"{n} to {players[q]}" for q, n in counts.items())


def _emptied_column(state: Any) -> int | None:
    """The column the last collection was made in (the one that emptied, when a game ended by
    SUBMARINE.md §7.1 E2)."""
    for e in reversed(list(state.events)):
        if e.get("type") == "collect" and e.get("space"):
            return int(str(e["space"]).split(".")[0])
    return None


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
