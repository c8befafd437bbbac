"""Setups a notebook user can tweak, the game API, views and the event log."""

from __future__ import annotations

import random

import pytest
from helpers import game, random_game, snapshot, turns

from dsa_widget import (
    DeepSeaError,
    Game,
    IllegalActionError,
    Options,
    RecordError,
    Setup,
    SetupError,
    describe,
    narrate,
)


@pytest.mark.parametrize(
    "kwargs, field",
    [
        ({"players": 7}, "players"),
        ({"players": 1}, "players"),
        ({"players": ["A"] * 7}, "players"),
        ({"players": "Ann,Bob"}, "players"),
        ({"players": ["Ann", 3]}, "players"),
        ({"players": 2, "air": 0}, "air"),
        ({"players": 2, "air": -3}, "air"),
        ({"players": 2, "air": 2.5}, "air"),
        ({"players": 2, "rounds": 0}, "rounds"),
        ({"players": 2, "first_player": 2}, "first_player"),
        ({"players": 2, "first_player": -1}, "first_player"),
        ({"players": 2, "path": [(5, 1)]}, "path"),
        ({"players": 2, "path": [(0, 1)]}, "path"),
        ({"players": 2, "path": [(1, -1)]}, "path"),
        ({"players": 2, "path": []}, "path"),
        ({"players": 2, "path": "1,2"}, "path"),
        ({"players": 2, "options": {"gravity": True}}, "options"),
        ({"players": 2, "options": {"drop_order": "random"}}, "options.drop_order"),
        (
            {"players": 2, "options": {"turn_back_requires_treasure": "yes"}},
            "options.turn_back_requires_treasure",
        ),
        ({"players": 2, "options": ["reveal"]}, "options"),
        ({"players": 2, "seed": "abc"}, "seed"),
    ],
)
def test_invalid_setups_name_the_field(kwargs, field):
    """Issue 2: 'Invalid setups (7 players, air 0, a chip of level 5, an unknown option, an empty
    path) raise a clear exception naming the field; nothing is created.'"""
    with pytest.raises(SetupError) as e:
        Game(**kwargs)
    assert e.value.field == field
    assert str(e.value).startswith(f"setup key {field!r}")
    assert isinstance(e.value, ValueError) and isinstance(e.value, DeepSeaError)


def test_setup_variants():
    g = Game(
        players=["Ann", "Bob", "Cy"],
        air=10,
        rounds=2,
        first_player=1,
        seed=4,
        options={"reveal": "owner", "tiebreak": "levels_desc"},
    )
    assert g.players == ("Ann", "Bob", "Cy") and g.air == 10 and g.setup.rounds == 2
    assert g.current_player == 1
    assert g.setup.options == Options(reveal="owner", tiebreak="levels_desc")
    assert Game(players=6, seed=1).players[5] == "Player 6"
    custom = Game(players=2, path=[(4, 15), (1, 0)])
    assert custom.path == [[4, 15], [1, 0]]
    assert Setup.create(players=2, seed=3) == Setup.create(players=2, seed=3)


def test_errors_are_value_errors():
    for cls in (SetupError, IllegalActionError, RecordError):
        assert issubclass(cls, DeepSeaError) and issubclass(cls, ValueError)


def test_illegal_choices_at_every_step_change_nothing():
    """Issue 2: 'An illegal choice raises a clear exception ... and leaves the game exactly as it was.'"""
    universe = ["back", "continue", "roll", "none", "take", "drop 0", "drop 3", "jump", {"drop": 9}, 17, None]
    for seed in range(30):
        rng = random.Random(seed)
        g = Game(players=3, seed=seed)
        seen_steps = set()
        while not g.is_over:
            seen_steps.add(g.step)
            for bad in universe:
                if bad in g.legal_choices():
                    continue
                before = snapshot(g)
                with pytest.raises(IllegalActionError) as e:
                    g.apply(bad)  # type: ignore[arg-type]
                assert "legal" in str(e.value)
                assert snapshot(g) == before
            g.apply(rng.choice(g.legal_choices()))
        assert {"roll", "search", "turn_back"} <= seen_steps
        before = snapshot(g)
        with pytest.raises(IllegalActionError, match="game is over"):
            g.apply("roll")
        with pytest.raises(IllegalActionError):
            g.roll((1, 1))
        assert snapshot(g) == before


def test_roll_only_at_roll_step_and_dice_checked():
    g = game()
    before = snapshot(g)
    for bad in [(0, 1), (1, 4), (1,), (1, 1, 1), ("1", "2"), (True, 1), 5]:
        with pytest.raises(IllegalActionError):
            g.roll(bad)  # type: ignore[arg-type]
        assert snapshot(g) == before
    g.roll((1, 1))
    with pytest.raises(IllegalActionError, match="step 'search'"):
        g.roll((1, 1))


def test_play_turn_is_atomic():
    """A failed turn leaves no trace, not even in the turn list or the event log (which
    play_turn truncates back rather than copies)."""
    g = turns(game(), ((1, 1), "take"), ((1, 1), "take"))
    before = snapshot(g), list(g.events), g.to_record()
    with pytest.raises(IllegalActionError):
        # Ann: up 2 steps to the submarine; the turn has ended (logged) before the search fails
        g.play_turn(back=True, dice=(1, 2), search="take")
    assert (snapshot(g), list(g.events), g.to_record()) == before
    with pytest.raises(IllegalActionError):
        g.play_turn(dice=(1, 1), search={"drop": 4})
    assert (snapshot(g), list(g.events), g.to_record()) == before
    g.play_turn(back=True, dice=(1, 2))  # the same turn, legal this time, is logged once
    assert len(g.history) == len(before[2]["turns"]) + 1


def test_choice_spellings():
    g = turns(game(players=2, path=[(1, 1)] * 8), ((1, 1), "take"), ((3, 3), "none"))
    g.apply("continue")
    g.roll((1, 1))
    g.apply("take")
    g.play_turn(dice=(1, 1))
    g.apply(" CONTINUE ")
    g.roll((1, 1))  # 0 steps on the blank he made
    assert g.legal_choices() == ("none", "drop 0", "drop 1")
    h = g.copy()
    g.apply(("drop", 1))
    h.apply({"drop": 1})
    assert g.state_dict() == h.state_dict()


def test_seeded_games_are_reproducible():
    a = random_game(5)
    b = random_game(5)
    assert a.state_dict() == b.state_dict() and a.history == b.history


def test_copy_cost_and_independence():
    g = random_game(2)
    c = g.copy()
    assert c == g and c is not g
    assert c._path is not g._path and c._carry is not g._carry


def test_view_reveal_public_and_owner():
    """'the chips' values are revealed (option reveal: public, the default ...; or owner, as in the
    French text, where only the owner sees them until the game ends)'"""
    for reveal in ("public", "owner"):
        g = game(players=2, path=[(1, 2), (2, 6), (3, 9), (4, 13)], rounds=2, options={"reveal": reveal})
        turns(g, ((1, 1), "take"), ((1, 1), "take"), (True, (3, 3), "none"), (True, (3, 3), "none"))
        assert g.round == 2
        v0, v1 = g.view(0), g.view(1)
        assert v0.known == {1: 6} | ({2: 9} if reveal == "public" else {})
        assert v0.scores == (6, 9 if reveal == "public" else None)
        assert v1.scores == (6 if reveal == "public" else None, 9)
        # the unseen pool excludes what the seat knows
        assert v0.unseen[2] == () and v0.unseen[3] == ((9,) if reveal == "owner" else ())
        assert v0.mean_unseen(4) == 13


def test_view_has_no_unbanked_values_and_carrier_does_not_know():
    """'Its value (its face) is hidden until the chip is banked: nobody, its carrier included,
    knows it before.'"""
    g = turns(game(), ((1, 1), "take"))
    v = g.view(0)
    assert v.known == {}
    assert v.to_dict()["divers"][0]["carrying"] == [[[1, "?"]]]
    assert v.to_dict()["path"] == [[[1, "?"]], "blank", [[2, "?"]], [[3, "?"]], [[4, "?"]]]
    assert "?" in str(g.divers[0].carrying)


def test_expected_value_of_unseen_chips():
    """RULES.md worked numbers: 'Expected value of an unseen chip of level L before any is banked:
    1.5, 5.5, 9.5, 13.5.'"""
    v = Game(players=2, seed=1).view(0)
    assert [v.mean_unseen(level) for level in (1, 2, 3, 4)] == [1.5, 5.5, 9.5, 13.5]


def test_event_log_and_narration():
    """Issue 2: 'An event log of what happened in each turn (air breathed, turned back, dice, path
    moved along with the jumps, chip taken or dropped, round ended, chips sunk, chips banked)'"""
    g = random_game(8, players=3)
    kinds = {e["type"] for e in g.events}
    assert {"round_start", "turn", "breathe", "roll", "move", "take", "round_end", "game_over"} <= kinds
    assert {"turn_back", "bank"} & kinds
    # non-bank events never carry values (levels only)
    for e in g.events:
        if e["type"] in ("take", "drop"):
            assert all(1 <= lv <= 4 for lv in e["item"])
    lines = narrate(g.events, g.players)
    assert lines[0].startswith("Round 1 starts")
    assert lines[-1].startswith("Game over")
    assert (
        describe({"type": "turn_back", "seat": 1, "forced": True}, g.players)
        == "Player 2 must turn back: no free space deeper"
    )
    turns_seen = [e for e in g.events if e["type"] == "turn"]
    assert len(turns_seen) == g.turn_number


def test_events_can_be_turned_off():
    g = Game(players=2, seed=1, events=False)
    g.apply("roll")
    assert g.events == []


def test_repr():
    g = Game(players=["Ann", "Bob"], seed=1)
    assert repr(g) == "<Game round 1/3, air 25, Ann to play, step 'roll'>"
