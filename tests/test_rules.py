"""Scenario tests, one or more per sentence of ../shared/RULES.md (quoted in each docstring)."""

from __future__ import annotations

from fractions import Fraction

import pytest
from helpers import game, snapshot, turns

from dsa_widget import DICE_OUTCOMES, Game, IllegalActionError
from dsa_widget.deep_sea.setup import CHIP_VALUES, STANDARD_CHIPS, standard_path

# --------------------------------------------------------------------------- components


def test_dice_distribution():
    """'dice: 2, each with faces 1, 1, 2, 2, 3, 3 — the sum is 2..6 with probabilities
    1/9, 2/9, 3/9, 2/9, 1/9'"""
    dist: dict[int, Fraction] = {}
    for a, b in DICE_OUTCOMES:
        dist[a + b] = dist.get(a + b, Fraction(0)) + Fraction(1, 9)
    assert dist == {
        2: Fraction(1, 9),
        3: Fraction(2, 9),
        4: Fraction(3, 9),
        5: Fraction(2, 9),
        6: Fraction(1, 9),
    }


def test_standard_chips():
    """'treasure chips: 32: 4 levels × 8 chips; each value appears twice'"""
    assert len(STANDARD_CHIPS) == 32
    for values in CHIP_VALUES.values():
        assert sorted(set(values)) == sorted(values)[::2]  # four values, each twice
        assert all(values.count(v) == 2 for v in values)
    assert CHIP_VALUES[1] == (0, 0, 1, 1, 2, 2, 3, 3)
    assert CHIP_VALUES[4] == (12, 12, 13, 13, 14, 14, 15, 15)


def test_standard_path_levels_shuffled_each_on_its_own():
    """'the 8 level-1 chips nearest the submarine (each level shuffled on its own), then
    level 2, level 3, level 4' and 'a seed that makes the shuffle reproducible'"""
    p = standard_path(11)
    assert [c[0] for c in p] == [1] * 8 + [2] * 8 + [3] * 8 + [4] * 8
    assert sorted(p) == sorted(STANDARD_CHIPS)
    assert p == standard_path(11)
    assert len({standard_path(s) for s in range(20)}) > 1


def test_start_in_submarine_first_player_default_seat0():
    """'All divers start in the submarine (position 0; path spaces are 1..N). The first
    player is chosen at setup (default: seat 0).'"""
    g = Game(players=3, seed=1)
    assert g.current_player == 0
    assert all(d.position == 0 and d.heading == "down" and not d.returned for d in g.divers)
    assert Game(players=3, seed=1, first_player=2).current_player == 2
    assert g.air == 25 and g.round == 1 and g.setup.rounds == 3


# --------------------------------------------------------------------------- breathe


def test_breathe_lowers_air_by_items_carried():
    """'Breathe. Lower the air by the number of items the diver carries'"""
    g = turns(game(), ((1, 1), "take"), ((1, 1), "take"))  # Ann on 2 with 1, Bob on 3 with 1
    assert g.air == 25
    turns(g, ((1, 1), "none"))  # Ann breathes 1
    assert g.air == 24


def test_breathing_happens_when_the_turn_starts():
    """State between turns is 'after the last turn': the next diver has not breathed yet."""
    g = turns(game(), ((1, 1), "take"), ((1, 1), "take"))
    assert g.air == 25 and g.step == "turn_back"
    g.apply("continue")
    assert g.air == 24


def test_stack_counts_as_one_item():
    """'a stack of chips counts as one item' / 'A stack is one item from then on: picked up,
    carried, weighed, put down and dropped as one; banking it scores all its chips.'"""
    # Round 1: Ann and Bob each take a chip and the air runs out: their chips sink as one stack.
    g = game(players=2, path=[(1, 1), (1, 2), (2, 5), (3, 9)], air=2, rounds=2)
    turns(g, ((1, 1), "take"), ((1, 1), "take"))  # Ann 2 takes (1,2); Bob 3 takes (2,5)
    turns(g, ((1, 1), "none"), ((1, 1), "none"))  # Ann: air 1, 1 step -> 4; Bob: air 0, forced? no: 4 taken
    assert g.round == 2
    path = g.state_dict()["path"]
    assert path == [[1, 1], [3, 9], [[2, 5], [1, 2]]]  # Bob (nearer, on 3) sinks first
    # Round 2: Ann (deepest in the water) starts and picks up the stack: one item.
    assert g.current_player == 0
    turns(g, ((3, 3), "take"))  # 6 steps: stops on the deepest free space, 3 (the stack)
    assert g.divers[0].position == 3
    assert len(g.divers[0].carrying) == 1 and len(g.divers[0].carrying[0]) == 2
    turns(g, ((1, 1), "none"))  # Bob to 2
    assert g.must_turn_back  # on the last space: no free space deeper
    g.roll((1, 1))  # 2 - 1 = 1 step up: 2 is Bob's -> 1
    assert g.air == 1  # the stack weighed as one item
    assert g.divers[0].position == 1
    assert g.legal_choices() == ("none", "take")  # (1,1) lies there; no drop on a chip
    g.apply("none")
    turns(g, ((1, 1), "none"))  # Bob breathes 0 (carries nothing): air stays 1; forced? 3 is free
    g.play_turn(dice=(3, 3))  # Ann home with the stack: banks both chips
    assert g.divers[0].returned or g.round > 2 or g.is_over
    assert g.scores[0] == 7


def test_banked_chips_weigh_nothing():
    """'chips banked in earlier rounds count for nothing'"""
    g = game(path=[(1, 3), (1, 2), (2, 5), (3, 9)], rounds=2)
    turns(g, ((1, 1), "none"), ((1, 1), "take"))  # Ann on 2; Bob jumps to 3, takes (2,5)
    # Bob must get home: Ann turns back? She carries nothing: continue down.
    while g.round == 1:
        seat = g.current_player
        if seat == 1 and g.step == "turn_back":
            g.play_turn(back=True, dice=(3, 3))
        else:
            g.play_turn(dice=(3, 3))
    assert g.scores[1] == 5
    # round 2: Bob carries nothing, so breathing costs nothing
    air = g.air
    while g.current_player != 1:
        g.play_turn(dice=(1, 1))
    g.roll((1, 1))
    assert g.air == air


def test_air_runs_out_last_turn_completes_steps_2_to_4():
    """'If the air is now 0 or less, this is the last turn of the round: the diver still
    completes steps 2–4, then the round ends.'"""
    g = game(path=[(1, 1), (1, 2), (2, 5), (3, 9), (4, 15)], air=1, rounds=2)
    turns(g, ((1, 1), "take"))  # Ann takes (1,2) on 2
    turns(g, ((1, 1), "none"))  # Bob lands on 3
    # Ann breathes 1 -> air 0: last turn, she may still turn back, roll and search
    g.apply("continue")
    assert g.air == 0 and g.round == 1
    g.roll((2, 2))  # 4 - 1 = 3 steps: 3 occupied (jump), 4, 5, 6? path has 5 spaces: 4,5 -> stops on 5
    assert g.step == "search"
    assert g.divers[0].position == 5
    g.apply("take")
    # then the round ends: Ann in the water drops both chips, in the order she chooses
    # ("Each diver chooses the order in which his own chips are laid")
    assert g.step == "sink" and g.current_player == 0 and g.legal_choices() == ("lay all", "lay 0", "lay 1")
    g.apply("lay all")
    assert g.round == 2
    assert g.scores == (0, 0)
    assert g.air == 1


def test_air_shown_never_below_zero_but_last_turn():
    g = game(path=[(1, 1), (1, 2), (2, 5)], air=1, rounds=1)
    turns(g, ((1, 1), "take"), ((1, 1), "take"))
    turns(g, ((1, 1), "none"))  # Ann breathes: air 0, last turn
    assert g.is_over
    assert g.state_dict()["air"] == 0


# --------------------------------------------------------------------------- turn back


def test_cannot_turn_back_on_first_turn():
    """'On his first turn of a round a diver cannot turn back (he is in the submarine and
    carries nothing).'"""
    g = game(options={"turn_back_requires_treasure": False})
    assert g.step == "roll"
    with pytest.raises(IllegalActionError, match="in the submarine"):
        g.play_turn(back=True, dice=(1, 1))


def test_turn_back_requires_treasure_by_default():
    """'and only while carrying at least one item (option turn_back_requires_treasure,
    default on; the French text has no such condition)'"""
    g = turns(game(), ((1, 1), "none"), ((1, 1), "none"))
    assert g.step == "roll"  # Ann carries nothing: no turn-back choice
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="carries no treasure"):
        g.play_turn(back=True, dice=(1, 1))
    assert snapshot(g) == before
    g2 = turns(game(options={"turn_back_requires_treasure": False}), ((1, 1), "none"), ((1, 1), "none"))
    assert g2.legal_choices() == ("back", "continue")


def test_turn_back_once_per_round_and_only_before_rolling():
    """'He may do so only once per round, only before rolling'"""
    g = turns(game(players=2), ((1, 1), "take"), ((1, 1), "take"))
    assert g.legal_choices() == ("back", "continue")
    g.apply("continue")
    with pytest.raises(IllegalActionError):
        g.apply("back")  # after declaring 'continue' the roll comes
    g.roll((1, 1))  # Ann: 2 - 1 = 1 step, 3 is Bob's -> jumps to 4
    assert g.divers[0].position == 4
    g.apply("none")
    turns(g, (True, (1, 1), "none"))  # Bob turns back: 1 step up from 3 -> 2 (blank)
    assert g.divers[1].heading == "up" and g.divers[1].position == 2
    # Bob heading up cannot turn back again
    g.play_turn(dice=(1, 1))  # Ann
    assert g.current_player == 1 and g.step == "roll"
    with pytest.raises(IllegalActionError, match="already heading up"):
        g.play_turn(back=True, dice=(1, 1))


def test_forced_turn_back_without_treasure():
    """'A diver on the path with no free space deeper than his own must turn back, with or
    without treasure.'"""
    g = game(players=2, path=[(1, 1), (1, 2)])
    turns(g, ((3, 3), "none"))  # Ann to the end (2)
    turns(g, ((1, 1), "none"))  # Bob to 1
    assert g.must_turn_back and g.step == "roll"  # Ann: no free space deeper
    g.roll((1, 1))  # 2 steps up: 1 occupied -> submarine
    assert g.divers[0].returned


def test_forced_turn_back_whatever_the_record_says():
    """RECORD.md: 'where the rules force the turn, the turn happens whatever this says'"""
    g = game(players=2, path=[(1, 1), (1, 2), (1, 3)])
    turns(g, ((3, 3), "take"), ((1, 1), "none"))
    g.play_turn(back=False, dice=(1, 1))
    assert g.divers[0].heading == "up"
    g2 = game(players=2, path=[(1, 1), (1, 2), (1, 3)])
    turns(g2, ((3, 3), "take"), ((1, 1), "none"))
    g2.play_turn(back=True, dice=(1, 1))
    assert g2.state_dict() == g.state_dict()


def test_forced_turn_back_blocked_by_a_deeper_diver():
    """A deeper space held by another diver is not free."""
    g = game(players=2, path=[(1, 1), (1, 2), (1, 3)])
    turns(g, ((1, 1), "none"), ((1, 2), "none"))  # Ann on 2, Bob jumps to 3
    assert g.must_turn_back  # Ann: 3 is Bob's, nothing deeper
    g.roll((1, 1))
    assert g.divers[0].returned


# --------------------------------------------------------------------------- roll and swim


def test_steps_are_dice_minus_items():
    """'Steps = dice sum − items carried; at 0 or less the diver does not move.'"""
    g = game(players=2, path=[(1, 1)] * 10)
    turns(g, ((1, 1), "take"), ((1, 1), "none"))  # Ann 2 (1 item), Bob 3
    g.apply("continue")
    g.roll((1, 1))  # 2 - 1 = 1 step: 3 occupied -> 4
    assert g.divers[0].position == 4
    g.apply("take")  # 2 items
    g.play_turn(dice=(1, 1))  # Bob 3 -> 5
    g.apply("continue")
    g.roll((1, 1))  # 2 - 2 = 0: no move
    assert g.divers[0].position == 4


def test_zero_steps_may_still_search():
    """'A diver with no free space in his direction, or 0 steps, stays where he is and may
    still search.'"""
    g = game(players=2, path=[(1, 1)] * 6)
    turns(g, ((1, 1), "take"), ((3, 3), "none"))
    g.apply("continue")
    g.roll((1, 1))  # 1 step -> 3
    g.apply("take")  # carries 2
    g.play_turn(dice=(1, 1))  # Bob
    g.apply("continue")
    g.roll((1, 1))  # 0 steps
    assert g.divers[0].position == 3
    assert g.legal_choices() == ("none", "drop 0", "drop 1")  # stands on a blank he made


def test_jumped_spaces_are_not_counted():
    """'A space holding another diver is jumped over and not counted.'"""
    g = game(players=3, path=[(1, 1)] * 10)
    turns(g, ((1, 1), "none"), ((1, 2), "none"))  # A on 2, B: 1,(2),3,4 -> 4? 3 steps: 1,3,4
    assert g.divers[1].position == 4
    turns(g, ((2, 2), "none"))  # C: 4 steps: 1,(2),3,(4),5,6 -> 6
    assert g.divers[2].position == 6
    ev = [e for e in g.events if e["type"] == "move"][-1]
    assert ev["jumped"] == [2, 4] and ev["spaces"] == [1, 3, 5, 6]


def test_heading_down_stops_on_deepest_free_space():
    """'Heading down, a diver who would pass the deepest free space stops on the deepest
    free space.'"""
    g = game(players=2, path=[(1, 1), (1, 2), (1, 3)])
    turns(g, ((1, 2), "none"))  # Ann to 3 (the end)
    turns(g, ((3, 3), "none"))  # Bob: 1, 2, (3) -> stops on 2
    assert g.divers[1].position == 2


def test_blocked_in_the_submarine_stays_and_is_not_back():
    """'A diver still in the submarine heading down (he has not left yet) is not "back"'"""
    g = game(players=3, path=[(1, 1), (1, 2)])
    turns(g, ((1, 1), "none"), ((1, 1), "none"))  # A on 2, B on 1
    turns(g, ((3, 3), "none"))  # C: nowhere free
    d = g.divers[2]
    assert d.position == 0 and not d.returned and d.heading == "down"
    assert g.current_player == 0  # C's turn is over, he searched nothing


def test_reaching_the_submarine_is_safe_leftover_lost():
    """'Heading up, a diver who reaches the submarine is safe: leftover steps are lost, he
    takes no further turns this round and breathes no more air.'"""
    g = game(players=2, path=[(1, 1)] * 8, air=25)
    turns(g, ((1, 1), "take"), ((3, 3), "take"))  # Ann 2, Bob 6
    turns(g, (True, (3, 3), "none"))  # Ann up: 5 steps, reaches the submarine
    assert g.divers[0].returned and g.divers[0].position == 0
    # Bob plays on alone; Ann breathes no more
    for _ in range(3):
        assert g.current_player == 1
        air = g.air
        g.play_turn(dice=(1, 1))
        if g.round > 1:
            break
        assert g.air == air - 1


def test_seat_order_skips_divers_back():
    """'Divers play in seat order, skipping divers who are back in the submarine.'"""
    g = game(players=3, path=[(1, 1)] * 10)
    turns(g, ((1, 1), "take"), ((2, 2), "none"), ((3, 3), "none"))
    turns(g, (True, (3, 3), "none"))  # A home
    assert g.current_player == 1
    turns(g, ((1, 1), "none"))
    assert g.current_player == 2
    turns(g, ((1, 1), "none"))
    assert g.current_player == 1


# --------------------------------------------------------------------------- search


def test_take_leaves_a_blank_and_no_limit():
    """'if he stands on a treasure (a chip or a stack), pick it up; a blank takes its place
    (no limit on how many items a diver carries)'"""
    g = game(players=2, path=[(1, 1)] * 30, air=200)
    for _ in range(8):
        seat = g.current_player
        if g.step == "turn_back":
            g.apply("continue")
        g.roll((3, 3))
        if g.step == "search" and "take" in g.legal_choices():
            g.apply("take")
        elif g.step == "search":
            g.apply("none")
        if seat == 0:
            pos = g.divers[0].position
            assert g.path[pos - 1] == "blank"
    assert len(g.divers[0].carrying) >= 3


def test_drop_on_blank_only_when_carrying():
    """'if he stands on a blank and carries an item, put one carried item (his choice) down
    there; it replaces the blank.'"""
    g = game(players=2, path=[(1, 1), (2, 5), (3, 9), (4, 13), (4, 14), (4, 15)] * 2)
    turns(g, ((1, 1), "take"), ((1, 1), "take"))  # Ann has (2,5) from 2, Bob (3,9) from 3
    g.apply("continue")
    g.roll((2, 1))  # Ann 2 steps: 3 is Bob -> 4, 5
    g.apply("take")  # (4,14)
    g.play_turn(dice=(1, 1))  # Bob 3 -> 4
    g.apply("continue")
    g.roll((1, 1))  # Ann carries 2: 0 steps, on blank 5
    assert g.legal_choices() == ("none", "drop 0", "drop 1")
    g.apply({"drop": 0})
    assert g.path[4] == [2, 5]
    assert [c[0][0] for c in g.divers[0].carrying] == [4]


def test_cannot_take_a_blank_or_drop_on_a_chip():
    g = game(players=2)
    turns(g, ((1, 1), "take"))
    g.play_turn(dice=(1, 1))  # Bob on 3
    g.apply("continue")
    g.roll((1, 2))  # Ann 2 steps: (3) 4, 5
    assert g.legal_choices() == ("none", "take")
    before = snapshot(g)
    with pytest.raises(IllegalActionError, match="only be put down on a blank"):
        g.apply("drop 0")
    assert snapshot(g) == before


def test_no_search_in_the_submarine():
    """'A diver in the submarine does not search.'"""
    g = game(players=2)
    turns(g, ((1, 1), "take"), ((1, 1), "none"))
    g.apply("back")
    before_turns = g.turn_number
    g.roll((3, 3))
    assert g.divers[0].returned and g.turn_number == before_turns + 1
    g2 = game(players=2)
    turns(g2, ((1, 1), "take"), ((1, 1), "none"))
    with pytest.raises(IllegalActionError, match="does not search"):
        g2.play_turn(back=True, dice=(3, 3), search="take")


# --------------------------------------------------------------------------- end of round


def _air_out_game(drop_order: str = "nearest_first"):
    # 3 players, air 3. Each takes chips; the air runs out with 2 in the water.
    g = game(
        players=3,
        path=[(1, 0), (1, 1), (1, 2), (1, 3), (2, 4), (2, 5), (3, 8), (3, 9), (4, 12)],
        air=3,
        rounds=2,
        options={"drop_order": drop_order},
    )
    turns(g, ((1, 1), "take"), ((1, 1), "take"), ((1, 1), "take"))  # A 2 (1,1); B 3 (1,2); C 4 (1,3)
    turns(g, (False, (3, 3), "take"))  # A breathes 1 (air 2); 5 steps: 5,6,7,8,9 -> 9 (4,12)
    turns(g, (False, (3, 3), "take"))  # B breathes 1 (air 1); 5 steps: (4) 5 6 7 8 (9): stops on 8, (3,9)
    turns(g, (False, (1, 1), "none"))  # C breathes 1 (air 0): last turn; 1 step to 5
    return g


def test_end_of_round_drops_nearest_first_in_stacks_of_three():
    """'Divers still in the water ... drop everything they carry. Taking these divers one at
    a time — nearest the submarine first ... their chips ... are laid past the end of the path
    in stacks of at most 3'"""
    g = _air_out_game()
    assert g.round == 2
    path = g.state_dict()["path"]
    # nearest first: C on 5 (1,3); B on 8 (1,2),(3,9); A on 9 (1,1),(4,12); blanks closed up
    assert path == [[1, 0], [2, 4], [2, 5], [3, 8], [[1, 3], [1, 2], [3, 9]], [[1, 1], [4, 12]]]


def test_end_of_round_blanks_removed_divers_reset_air_reset():
    """'Remove every blank from the path and close the gaps.' / 'The air is reset; every diver
    starts again in the submarine, heading down, carrying nothing, free to turn back once more.'"""
    g = _air_out_game()
    s = g.state_dict()
    assert "blank" not in s["path"]
    assert s["air"] == 3
    assert all(
        d == {"position": 0, "heading": "down", "returned": False, "carrying": []} for d in s["divers"]
    )


def test_drop_order_farthest_first():
    """option drop_order: 'farthest_first', Dutch text"""
    far = _air_out_game("farthest_first").state_dict()["path"]
    # A (on 9) first, then B (8), then C (5)
    assert far == [[1, 0], [2, 4], [2, 5], [3, 8], [[1, 1], [4, 12], [1, 2]], [[3, 9], [1, 3]]]


def test_single_sunk_chip_is_a_chip_not_a_stack():
    """Worked record air-runs-out: one dropped chip lies as a chip."""
    g = game(players=2, path=[(1, 3), (2, 4), (4, 15)], air=2, rounds=2)
    turns(g, ((1, 1), "take"), ((1, 1), "take"), ((1, 1), "none"), ((3, 3), "none"))
    assert g.state_dict()["path"] == [[1, 3], [2, 4]]


def test_sunk_chips_in_pickup_order_and_stacks_broken():
    """'their chips (stacks broken into chips, each diver's in the order he picked them up)'"""
    g = Game(players=2, path=[(1, 0), (1, 1), (2, 5), (3, 9)], air=2, rounds=2)
    g._path = [None, (0, 1), (2,), (3,)]  # space 1 holds a stack of (1,0)+(1,1)
    g._occ = [-1] * 4
    turns(g, ((1, 1), "take"))  # Ann to 2, takes (2,5)
    turns(g, ((1, 1), "take"))  # Bob: 1, (2), 3: takes (3,9)
    turns(g, ((1, 1), "take"))  # Ann air 1, forced back (3 is Bob's): 1 step up to 1, takes the stack
    assert g.divers[0].heading == "up" and len(g.divers[0].carrying) == 2
    turns(g, ((1, 1), "none"))  # Bob air 0, forced back: 1 step to 2 (a blank); the round ends
    # Ann (nearer) sinks first: (2,5), then the stack broken into (1,0), (1,1); then Bob's (3,9)
    assert g.state_dict()["path"] == [[[2, 5], [1, 0], [1, 1]], [3, 9]]
    assert g.current_player == 1  # the deepest diver in the water starts round 2


def test_first_player_next_round_is_deepest_in_water():
    """'The first player of the next round is the deepest diver still in the water when the
    round ended'"""
    g = _air_out_game()
    # deepest in the water at the end of round 1 is A (seat 0) on 9
    assert g.current_player == 0


def test_first_player_next_round_last_back_when_none_in_water():
    """'if none is, the diver who reached the submarine last.'"""
    g = game(players=3, path=[(1, 1)] * 10, rounds=2)
    turns(g, ((1, 1), "take"), ((1, 1), "take"), ((1, 1), "take"))  # 2, 3, 4
    turns(g, (True, (3, 3), "none"))  # A home
    turns(g, (True, (3, 3), "none"))  # B home
    turns(g, (True, (3, 3), "none"))  # C home last
    assert g.round == 2 and g.current_player == 2


def test_banking_reveals_and_scores():
    """'Divers in the submarine bank every item they carry: the chips' values are revealed'"""
    g = game(players=2, path=[(1, 2), (2, 6), (3, 9)], rounds=1)
    turns(g, ((1, 1), "take"), ((1, 1), "take"))
    turns(g, (True, (3, 3), "none"), (True, (3, 3), "none"))
    assert g.is_over and g.scores == (6, 9)
    assert g.banked(1) == ((3, 9),)
    bank = [e for e in g.events if e["type"] == "bank"]
    assert bank[0]["chips"] == [[2, 6]]


# --------------------------------------------------------------------------- end of game


def test_highest_score_wins():
    """'After the last round, each player's score is the sum of the values of every chip he
    banked. Highest score wins.'"""
    g = game(players=2, path=[(1, 2), (2, 6), (3, 9)], rounds=1)
    turns(g, ((1, 1), "take"), ((1, 1), "take"), (True, (3, 3), "none"), (True, (3, 3), "none"))
    assert g.winners == (1,)
    assert g.state_dict()["next_player"] is None


def _tie_game(tiebreak: str, path):
    g = game(players=2, path=path, rounds=1, options={"tiebreak": tiebreak})
    turns(g, ((1, 1), "take"), ((1, 1), "take"), (True, (3, 3), "none"), (True, (3, 3), "none"))
    return g


def test_tie_level4_wins():
    """'Ties: the tied player with the most level-4 chips wins (option tiebreak: level4)'"""
    g = _tie_game("level4", [(1, 5), (2, 12), (4, 12)])
    # Ann: (2,12) = 12; Bob: (4,12) = 12
    assert g.scores == (12, 12) and g.winners == (1,)


def test_tie_shared_win():
    """'if still tied, the tied players share the win.'"""
    g = _tie_game("level4", [(1, 5), (2, 7), (3, 7)])
    assert g.scores == (7, 7) and g.winners == (0, 1)


def test_tie_levels_desc():
    """'or levels_desc, which compares level-4 counts, then level 3, 2, 1'"""
    path = [(1, 5), (2, 7), (3, 7)]
    assert _tie_game("level4", path).winners == (0, 1)
    assert _tie_game("levels_desc", path).winners == (1,)


# --------------------------------------------------------------------------- edge cases


def test_empty_path_ends_the_game_at_once():
    """'When a round ends with an empty path (every chip banked), the game ends at once'"""
    g = game(players=2, path=[(1, 2), (2, 6)], rounds=3)
    turns(g, ((1, 1), "take"), ((1, 1), "take"), (True, (3, 3), "none"), (True, (3, 3), "none"))
    assert g.is_over and g.round == 1 and g.state_dict()["path"] == []


def test_short_paths_never_run_off():
    """'The path may be short in later rounds ...; no index may run off it.'"""
    for dice in DICE_OUTCOMES:
        g = game(players=6, path=[(1, 1)])
        seen = set()
        for _ in range(12):
            if g.is_over:
                break
            if g.step == "turn_back":
                g.apply("continue")
            g.roll(dice)
            if g.step == "search":
                g.apply(g.legal_choices()[-1])
            in_water = [p for p in g.positions if p > 0]
            assert all(p <= g.path_length for p in in_water)  # nobody swims past the end
            assert len(in_water) == len(set(in_water))  # nor shares a space
            seen.update(in_water)
        assert seen and max(seen) <= 1  # a one-space path: the only space anybody reaches is 1


def test_every_round_ends():
    """'Turn back is forced on a diver on the path with no free space deeper than his own, so
    every round ends: every diver is back, or the air runs out.'  With nobody ever taking a
    chip, the air never falls; the round must still end."""
    g = game(players=6, path=[(1, 1)] * 4, rounds=1)
    for _ in range(200):
        if g.is_over:
            break
        g.apply("continue" if g.step == "turn_back" else ("none" if g.step == "search" else "roll"))
    assert g.is_over
