"""The platform's table (``dsa_widget/core/session.py``) on its own: undo and redo of the real
game from a cell, chosen chance outcomes, changes made outside the session, keep and compare,
a bot's step in a what-if, and a game's own intents.  Pig and Submarine stand in for any game."""

from __future__ import annotations

import re
from typing import Any, ClassVar

import pytest

from dsa_widget.core.session import BasePresenter, Refusal, Session
from dsa_widget.pig import Pig
from dsa_widget.submarine import Submarine


def pig(**kw: Any) -> Pig:
    return Pig(players=["Ann", "Bot"], seats={1: "hold_at_20"}, seed=3, **kw)


def test_a_cell_undoes_and_redoes_the_real_game_and_the_board_cannot():
    w = pig()
    for _ in range(3):
        w.apply("roll")
    n, after = w.state["history"]["n"], w.game.to_record()
    assert n >= 3
    w.handle_intent({"type": "undo", "seq": w.seq})  # the board's undo is the what-if's only
    assert w.error["kind"] == "whatif" and w.state["history"]["n"] == n
    w.undo(2)
    assert w.state["history"]["n"] == n - 2 and w.game.to_record() == w.game_after(n - 2).to_record()
    assert len(w.session.labels()) == n - 2
    w.redo(2)
    assert w.state["history"]["n"] == n and w.game.to_record() == after
    w.undo(1)
    g = w.game
    w.apply(g.CHANCE_ACTION if g.to_move < 0 else g.legal_actions()[-1])  # drops what could be redone
    with pytest.raises(Refusal, match="to redo"):
        w.redo(1)
    with pytest.raises(Refusal, match="steps to undo"):
        w.undo(10_000)


def test_a_chosen_chance_outcome_is_played_and_recorded():
    s = Session("pig", players=["Ann", "Bob"], seed=1)  # no presenter: chance waits for its click
    with pytest.raises(Refusal, match="no chance step"):
        s.chance(4)  # first the player rolls
    s.apply("roll")
    s.chance(4)
    assert s.game.turn_total == 4 and s.steps[-1] == (0, None)
    with pytest.raises(Refusal, match="no chance step"):
        s.chance(4)
    s.apply("roll")
    with pytest.raises(ValueError):
        s.chance(9)  # not a face of the die: the rules refuse it and nothing changes
    assert s.game.to_move < 0 and len(s.steps) == 3


def test_a_change_made_from_a_cell_joins_the_history():
    w = pig()
    n = w.state["history"]["n"]
    w.game.apply("roll")  # not through the board
    w.refresh()
    assert w.state["history"]["n"] == n + 1
    assert w.state["history"]["labels"][-1] == "the game was changed from a cell"
    w.refresh()  # nothing new: nothing added
    assert w.state["history"]["n"] == n + 1


def test_keep_holds_what_if_states_for_the_comparison():
    w = Submarine(players=["Ann", "Bob"], seats={1: "random"}, seed=2)
    w.branch()
    w.apply(w.branch_game.legal_actions()[0])
    assert w.keep() == "kept 1" and w.keep("mine") == "mine"
    rows = w.compare()
    assert [r["name"] for r in rows] == ["real", "kept 1", "mine", "what-if"]
    assert w.state["whatif"]["compare"] == rows and w.state["whatif"]["can_keep"]
    with pytest.raises(ValueError, match="already"):
        w.keep("mine")
    w.keep()
    w.keep()
    with pytest.raises(Refusal, match="kept already"):
        w.keep()
    w.back_to_real()
    with pytest.raises(Refusal, match="what-if"):
        w.keep()
    w.branch()
    assert [r["name"] for r in w.compare()] == ["real", "what-if"]  # a new what-if starts afresh


def test_a_bot_step_in_a_what_if_moves_the_seat_to_act_even_a_humans():
    w = pig()
    w.branch()
    assert w.state["actor"] == 0 and w.seats[0] == "human"
    w.handle_intent({"type": "bot_step", "seq": w.seq})
    assert w.error == {} and w.state["whatif"]["can_undo"]
    assert w.state["history"]["n"] == 0  # the real game did not move


class _Quiet(BasePresenter):
    INTENTS: ClassVar[dict[str, str]] = {"nudge": "nudge", "scrub": "scrub"}

    def screen(self, session: Session, state: Any, viewer: int | None) -> dict[str, Any]:
        return {}

    def label(self, before: Any, after: Any, seat: int | None, action: Any, viewer: int | None) -> str:
        return "step"

    def nudge(self, session: Session, msg: Any, who: int | None) -> bool:
        return msg.get("really") is True

    def scrub(self, session: Session, msg: Any, who: int | None) -> None:
        raise Refusal("history", "this game keeps no past")


def test_a_games_own_intents_come_first_and_may_quietly_do_nothing():
    s = Session("pig", players=["Ann", "Bob"], seed=1, presenter=_Quiet())
    seq = s.seq
    assert s.handle({"type": "nudge", "seq": seq}) is None and s.seq == seq  # nothing to do
    assert s.handle({"type": "nudge", "seq": seq, "really": True}) is None and s.seq == seq + 1
    r = s.handle({"type": "scrub", "seq": s.seq, "step": 0})  # the game's own, not the platform's
    assert r is not None and r.message == "this game keeps no past"


def test_a_what_ifs_log_tells_the_real_game_up_to_its_start_then_its_own_steps():
    # The board's log in a what-if: the steps that led to the state it shows.  It used to keep
    # showing the real game's steps (the what-if's moves never appeared in it).
    w = Pig(players=["Ann", "Bob"], seed=3)
    for _ in range(4):
        w.apply("roll")
    real = list(w.state["history"]["labels"])
    assert real[1] == "Ann rolled a 2"  # seed 3: the real game's first roll
    w.session.seek(2)  # a what-if from the past: the real game's words up to that step
    w.branch()
    assert w.state["mode"] == "whatif" and w.state["history"]["labels"] == real[:2]
    w.apply("roll")  # the roll and its die: two steps, the die's told
    told = w.state["history"]["labels"]
    assert told[:2] == real[:2] and len(told) == 4 and w.state["history"]["first"] == 0
    m = re.fullmatch(r"Ann rolled a (\d)( and lost the turn)?", told[3])
    assert m, told[3]
    assert w.session.shown.turn_total == (0 if m[1] == "1" else 2 + int(m[1]))
    w.undo(1)  # the undone step leaves the log; redo brings it back
    assert w.state["history"]["labels"] == told[:3]
    w.redo(1)
    assert w.state["history"]["labels"] == told
    w.undo(2)
    w.apply("hold")  # a new step replaces the undone ones
    assert w.state["history"]["labels"][:2] == real[:2] and len(w.state["history"]["labels"]) == 3
    assert w.session.branch_steps == [(0, "hold")]
    w.back_to_real()
    assert w.state["mode"] == "real" and w.state["history"]["labels"] == real
