"""Pig's board tries a chosen die in a what-if, as Deep Sea Adventure's tries chosen dice.

Found trying what-if in every game as a teacher would: Pig's die is thrown as soon as a player
rolls (no chance step waits), so neither the board nor ``w.chance(face)`` could show "what if
this roll were a 1?".  ``w.roll(face)`` does, in the what-if when one is open."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.pig import Pig


def board() -> Pig:
    return Pig(players=["You", "Bot"], seats={1: "hold_at_20"}, seed=1)


@settings(max_examples=30, deadline=None)
@given(faces=st.lists(st.integers(1, 6), min_size=1, max_size=8))
def test_a_chosen_face_follows_the_rules_and_leaves_the_real_game_alone(faces: list[int]) -> None:
    # the rules of Pig: a roll of 2-6 adds its face to the turn's total; a 1 loses the turn's
    # points and passes the die
    w = board()
    real = json.dumps(w.game.to_record())
    w.branch()
    for face in faces:
        g = w.branch_game
        if g.is_over or g.current_player != 0:
            break
        total = g.turn_total
        w.roll(face)
        after = w.branch_game
        if face == 1:
            assert after.turn_total == 0 and after.current_player == 1 and after.scores == g.scores
        else:
            assert after.turn_total == total + face and after.current_player == 0
        assert w.state["history"]["labels"][-1] == (
            "You rolled a 1 and lost the turn" if face == 1 else f"You rolled a {face}"
        )
    assert json.dumps(w.game.to_record()) == real
    w.back_to_real()
    assert json.dumps(w.game.to_record()) == real


@pytest.mark.parametrize("face", [0, 7, "3", 2.0, True, None])
def test_a_face_the_die_does_not_have_is_refused_and_changes_nothing(face: object) -> None:
    w = board()
    w.branch()
    before = json.dumps(w.state, sort_keys=True)
    if face is None:  # no face: the die is thrown as usual
        w.roll()
        assert w.branch_game.turn_total > 0 or w.branch_game.current_player == 1
        return
    with pytest.raises(ValueError):
        w.roll(face)  # type: ignore[arg-type]
    assert json.dumps(w.state, sort_keys=True) == before


def test_a_roll_that_is_not_legal_now_is_refused_and_changes_nothing() -> None:
    w = Pig(players=["You", "Bot"], seats={}, goal=5, seed=1)
    w.roll(6)  # the real game: You bank 6 at the next hold, and win
    w.apply("hold")
    assert w.game.is_over
    before = json.dumps(w.state, sort_keys=True)
    with pytest.raises(ValueError):
        w.roll(3)
    assert json.dumps(w.state, sort_keys=True) == before


def faces(g: object, n: int = 12) -> list[int]:
    """The next ``n`` faces ``g``'s own die shows (rolling, and holding when it must)."""
    out: list[int] = []
    g = g.clone()  # type: ignore[attr-defined]
    while len(out) < n and not g.is_over:
        if "roll" in g.legal_actions():
            g.apply("roll")
            g.sample_chance()
            out.append(g.view(None).moves[-1] if g.view(None).moves else 1)
        else:
            g.apply("hold")
    return out


def test_a_what_if_of_a_game_that_hides_nothing_does_not_say_it_drew_anything_again() -> None:
    # found trying a what-if on Pig's board in JupyterLab: it said "What-if (what you cannot see
    # is drawn again)", where every player sees everything. The position is the game's own; only
    # its die is fresh, so that a what-if never foretells the real game's next rolls
    w = board()
    w.roll(4)
    w.branch()
    assert w.state["whatif"]["sampled"] is False
    assert w.branch_game.view(0).to_dict() == w.game.view(0).to_dict()
    assert faces(w.branch_game) != faces(w.game)


def test_the_boards_face_buttons_roll_a_chosen_face_in_a_what_if_only() -> None:
    # the board's "Roll a chosen face" (a what-if's buttons 1-6) sends roll_face: the same
    # roll as w.roll(face); in the real game it is refused in words and changes nothing
    w = board()
    before = json.dumps(w.state, sort_keys=True)
    w.handle_intent({"type": "roll_face", "seq": w.seq, "face": 1})
    assert w.error["kind"] == "whatif" and "open a what-if first" in w.error["message"]
    assert json.dumps(w.state, sort_keys=True) == before
    w.branch()
    w.handle_intent({"type": "roll_face", "seq": w.seq, "face": 5})
    assert not w.error and w.branch_game.turn_total == 5
    assert w.state["history"]["labels"][-1] == "You rolled a 5"
    shown = json.dumps(w.state, sort_keys=True)
    for bad in (0, 7, "5", None):
        w.handle_intent({"type": "roll_face", "seq": w.seq, "face": bad})
        assert w.error["kind"] == "illegal" and "a die shows 1 to 6" in w.error["message"]
        assert json.dumps(w.state, sort_keys=True) == shown


def test_a_chosen_face_is_refused_from_a_seat_whose_roll_it_is_not() -> None:
    # a raw roll_face from a seat that is not to act (the bot's turn in a what-if, a spectator)
    # is refused as a click on Roll would be, and changes nothing
    w = board()
    w.branch()
    s = w.session
    shown = json.dumps(w.state, sort_keys=True)
    for who in (1, None):
        with pytest.raises(Exception, match="not your turn"):
            s.hooks.roll_face(s, {"face": 3}, who)
        assert json.dumps(w.state, sort_keys=True) == shown
    s.hooks.roll_face(s, {"face": 3}, 0)
    assert w.branch_game.turn_total == 3
