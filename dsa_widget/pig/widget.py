"""``Pig``: play Pig in JupyterLab, on the platform's table (the session, the bridge and the
front end's shell come from the platform; this module is only Pig's screen and words).

>>> w = Pig(players=["You", "Bot"], seats={1: "hold_at_20"}, goal=20, seed=1)
>>> w.state["goal"], w.state["legal"]
(20, ['roll'])
>>> w.apply("roll"); w.state["history"]["labels"][-2:][0], w.state["history"]["labels"][-1][:10]
('', 'You rolled')
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from typing import Any, ClassVar

from ..bridge import GameWidget
from ..core.chances import Figure
from ..core.session import BasePresenter, Refusal, Session
from .analysis import ESTIMATE_HOLD, action_values, estimate_win
from .rules import ROLL
from .view import PigView

__all__ = ["CHANCES_GOAL", "Pig", "PigPresenter", "roll_with"]

#: the largest goal whose chances the board shows: its solved table is built once per Python in
#: about half a second at goal 100 (four seconds at 200, too long for a board to wait)
CHANCES_GOAL = 100
#: the condition the solved figures hold under, in the words the optimal bot's reasons use
OPTIMAL = "if both play the optimal policy"
#: the play the estimates assume after the move they are for
HOLDING = f"if everyone then holds at {ESTIMATE_HOLD}"


@functools.lru_cache(maxsize=1024)
def _estimate(
    scores: tuple[int, ...], me: int, k: int, goal: int, first: str, turns_done: int, max_turns: int | None
) -> tuple[float, int]:
    """:func:`~dsa_widget.pig.analysis.estimate_win` seeded by the position, so the same position
    draws the same sample (a redraw does not make the figures flicker) and is sampled once: the
    die in the air after a roll is the position before it, and a page's past steps are the live
    screens they were."""
    seed = (scores, me, k, turns_done, first)
    return estimate_win(
        scores, me, k, goal, first=first, turns_done=turns_done, max_turns=max_turns, seed=seed
    )


def roll_with(session: Session, face: Any) -> None:
    """The seat to act rolls, in the what-if when one is open, else in the real game, and the
    die shows ``face`` (the die is otherwise thrown at once: the roll holds its chance step
    for it).  Checked first on a copy: a roll that is not legal now, or a face the die does not
    have, raises the game's error and changes nothing."""
    trial = (session.branch_line or session.real).current.clone()
    trial.apply(ROLL)
    trial.apply_chance(face)
    with session.chance_held():
        session.apply(ROLL)
    session.chance(face)


class PigPresenter(BasePresenter):
    """Pig's screen (everything is public) and the history's words; a roll's die is thrown as
    soon as the player rolls."""

    auto_chance = True
    hides_nothing = True  # a what-if draws nothing again but its die
    INTENTS: ClassVar[Mapping[str, str]] = {"roll_face": "roll_face"}

    def roll_face(self, session: Session, msg: Mapping[str, Any], who: int | None) -> None:
        """The board's face buttons in a what-if: roll, and the die shows ``msg["face"]`` (from
        a cell, :meth:`Pig.roll` does the same, in the real game too)."""
        if not session.in_what_if:
            raise Refusal("whatif", "a chosen face is for trying things: open a what-if first (W)")
        g = session.branch_line.current  # type: ignore[union-attr]
        t = session.actor(g)
        # whose roll it is, as for a click on Roll (Session._choice)
        if who is None or (t != who and not session.hooks.legal_for(g, who)):
            raise Refusal("not_your_turn", "it is not your turn to roll; nothing changed")
        roll_with(session, msg.get("face"))

    shows_chances = True

    def chances(self, view: PigView) -> tuple[Figure, ...]:
        """The chance that the player to move wins, rolling now and holding now: from the
        solved game (:func:`dsa_widget.pig.analysis.action_values`) with two players, goal up
        to :data:`CHANCES_GOAL` and no turn limit (the solved game has none); else estimated
        from sampled games in which everyone then holds at 20
        (:func:`dsa_widget.pig.analysis.estimate_win`), with its interval.

        >>> from dsa_widget.pig import PigGame
        >>> g = PigGame(["Ann", "Bob"], goal=50, seed=1)
        >>> [(f.label, round(f.value, 4), f.words()) for f in PigPresenter().chances(g.view(None))]
        [('Win chance for Ann, rolling now', 0.5462, 'solved, if both play the optimal policy')]
        >>> g = PigGame(["Ann", "Bob", "Cy"], seed=1)
        >>> [(f.label, f.kind, f.given) for f in PigPresenter().chances(g.view(None))]
        [('Win chance for Ann, rolling now', 'estimate', 'if everyone then holds at 20')]
        """
        if view.winners:
            return ()
        me, k = view.current, view.turn_total
        name = view.players[me]
        labels = {"roll": f"Win chance for {name}, rolling {'on' if view.rolling else 'now'}"}
        if k and not view.rolling:  # holding nothing is not allowed
            labels["hold"] = f"Win chance for {name}, holding {k} now"
        if "hold" in labels and view.scores[me] + k >= view.goal:  # holding reaches the goal: a sure win
            return (Figure(labels["hold"], 1.0, "exact"),)
        if len(view.players) == 2 and view.max_turns is None and view.goal <= CHANCES_GOAL:
            roll, hold = action_values(view.scores[me], view.scores[1 - me], k, view.goal)
            solved = {"roll": roll, "hold": hold}
            return tuple(
                Figure(label, solved[first], "solved", given=OPTIMAL) for first, label in labels.items()
            )
        out = []
        for first, label in labels.items():
            wins, n = _estimate(view.scores, me, k, view.goal, first, len(view.history), view.max_turns)
            out.append(Figure.estimate(label, wins, n, given=HOLDING))
        return tuple(out)

    def reasons_public(self, session: Session) -> bool:
        return True  # Pig hides nothing: every seat knows what a bot knew when it chose

    def screen(self, session: Session, state: Any, viewer: int | None) -> dict[str, Any]:
        v = state.view(viewer)
        return {
            "seat": viewer,
            "players": list(v.players),
            "goal": v.goal,
            "scores": list(v.scores),
            "turn_total": v.turn_total,
            "current": v.current,
            "moves": list(v.moves),
            "winners": list(v.winners),
        }

    def replay_setup(self, state: Any, setup: Mapping[str, Any]) -> dict[str, Any]:
        """Play again: the same players and goal (the game's, however it was made)."""
        return {**super().replay_setup(state, setup), "goal": state.goal}

    def compare_row(self, name: str, state: Any, viewer: int | None) -> dict[str, Any]:
        return {"name": name, "scores": list(state.scores), "turn total": state.turn_total}

    def outcome_of(self, before: Any, after: Any) -> Any:
        """The die of a roll within the turn (a served table resumes the turn with it)."""
        moves = after.view(None).moves
        return moves[-1] if moves and isinstance(moves[-1], int) else None

    def label(self, before: Any, after: Any, seat: int | None, action: Any, viewer: int | None) -> str:
        """One line per roll: the die's step says what was rolled and the choice to roll says
        nothing (``""``: the log leaves it out); the past tense serves every seat, "You" too."""
        name = before.players[before.current_player if seat is None else seat]
        if action == "hold":
            return f"{name} held {before.view(None).turn_total}: {after.scores[seat]} banked"
        if action is None:
            face = after.view(None).moves[-1] if after.current_player == before.current_player else 1
            rolled = f"{name} rolled a {face}"
            return f"{rolled} and lost the turn" if face == 1 else rolled
        return ""


class Pig(GameWidget):
    """A playable table of Pig: ``Pig(players=["You", "Bot"], seats={1: "optimal"}, goal=50)``;
    ``Pig()`` seats you against the optimal bot.  Keywords as :class:`~dsa_widget.bridge.GameWidget`."""

    GAME: ClassVar[str] = "pig"
    PRESENTER = PigPresenter

    def roll(self, face: int | None = None) -> None:
        """The seat to act rolls, in the what-if when one is open, else in the real game;
        ``face`` (1 to 6) chooses what the die shows, to try things or to teach (the die is
        otherwise thrown at once, so no chance step waits for :meth:`chance`).  A roll that is
        not legal now or a face the die does not have raises and changes nothing.

        >>> w = Pig(players=["You", "Bot"], seats={1: "hold_at_20"}, seed=1)
        >>> w.branch(); w.roll(6); w.roll(1)   # what if the second roll were a 1?
        >>> w.game.turn_total, w.branch_game.scores, w.branch_game.current_player
        (0, (0, 0), 1)
        """
        if face is None:
            self.apply(ROLL)
            return
        self._do(roll_with, self.session, face)
