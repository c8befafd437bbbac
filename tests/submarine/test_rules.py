"""Scenario tests of the default rules: one per rule of SUBMARINE.md §2-§7 and one per §8 edge case.

Each test quotes the section it checks.  Positions are made with ``common.position`` (a placed
game whose state dict is edited), seat 0 to move in a sailing turn, 2 players unless said.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from dsa_widget.core import TERMINAL
from dsa_widget.submarine import IllegalActionError, SetupError, SubmarineGame
from dsa_widget.submarine.rules import tile_name

from .common import placed, play_random, position

FILL = {"3.4": ["T12K5"], "5.4": ["T12K4"]}  # keeps columns 3 and 5 alive after a collection


def base(**kw: Any) -> SubmarineGame:
    """Seat 0: one bathyscaphe at 3.2, the rest at 1.4; seat 1 at 6.4.  3.2 holds T01K1 and T02K2."""
    args: dict[str, Any] = {
        "bathyscaphes": [["3.2", "1.4", "1.4", "1.4", "1.4"], ["6.4"] * 5],
        "hands": [["K1", "K2", "K3"], ["K4", "K4", "K4"]],
        "piles": [["K5"] * 5, ["K3"] * 5],
        "tiles": {"3.2": ["T01K1", "T02K2"], **FILL, **kw.pop("extra_tiles", {})},
    }
    args.update(kw)
    return position(2, **args)


def collect_step(g: SubmarineGame, col: int = 3) -> SubmarineGame:
    g.apply(f"sail {col}")
    g.apply("mode collect")
    return g


# ------------------------------------------------------------------ §2 and §4: components, setup


def test_board_has_60_tiles_one_to_four_per_space_by_depth() -> None:
    """§2.1/§2.2/§4.3: 6 x 4 spaces, 1 tile at depth 1 ... 4 at depth 4; each (type, colour) once."""
    g = SubmarineGame(3, seed=11)
    tiles = [t for c in range(1, 7) for d in range(1, 5) for t in g.tiles(f"{c}.{d}")]
    assert sorted(tiles) == sorted(tile_name(t) for t in range(60))
    for c in range(1, 7):
        assert [len(g.tiles(f"{c}.{d}")) for d in range(1, 5)] == [1, 2, 3, 4]


def test_layout_fill_order() -> None:
    """§4.3: "Fill order ... depth 1 to 4, and within a depth column 1 to 6, taking tiles from the
    front of the shuffled list"."""
    layout = [tile_name(t) for t in reversed(range(60))]
    g = SubmarineGame(2, seed=1, layout=layout)
    assert g.tiles("1.1") == (layout[0],) and g.tiles("6.1") == (layout[5],)
    assert g.tiles("1.2") == tuple(layout[6:8]) and g.tiles("6.4") == tuple(layout[56:60])


def test_piles_are_dealt_and_the_hand_is_the_top_three() -> None:
    """§4.5/§4.6: each seat's pile is its block of C(N) cards, first card on top; then the top 3
    cards go to the hand."""
    piles = [["K1", "K2", "K3"] + ["K4"] * 12, ["K5", "K5", "K1"] + ["K2"] * 11 + ["K3"]]
    g = SubmarineGame(2, seed=1, piles=piles)
    assert sorted(g.hand(0)) == ["K1", "K2", "K3"] and g.pile(0) == ("K4",) * 12
    assert sorted(g.hand(1)) == ["K1", "K5", "K5"] and len(g.pile(1)) == 12


def test_undealt_cards_leave_the_game() -> None:
    """§2.3: "Cards that are not dealt are removed from the game." (4 x 15 of a 75-card deck)."""
    g = SubmarineGame(4, seed=2, options={"deck": "75"})
    d = g.state_dict()
    assert len(d["undealt"]) == 15 and sum(len(p) + 3 for p in d["piles"]) == 60
    play_random(g, random.Random(0))
    assert g.state_dict()["undealt"] == d["undealt"]


@pytest.mark.parametrize(("n", "cards", "bathys"), [(2, 15, 5), (3, 15, 5), (4, 15, 4), (5, 12, 3)])
def test_default_tables_per_player_count(n: int, cards: int, bathys: int) -> None:
    """§2.3 cards {2:15, 3:15, 4:15, 5:12}; §2.4 bathyscaphes {2:5, 3:5, 4:4, 5:3}."""
    g = SubmarineGame(n, seed=0)
    assert all(len(g.hand(p)) + len(g.pile(p)) == cards for p in range(n))
    assert all(len(g.bathyscaphes(p)) == bathys for p in range(n))


def test_each_seat_starts_with_its_shell_and_ship_at_start() -> None:
    """§4.2: seat i receives the shell of colour K(i+1) as its first held joker; §4.4 ships at START."""
    g = SubmarineGame(5, seed=0)
    assert [g.held_jokers(p) for p in range(5)] == [(f"SHK{p + 1}",) for p in range(5)]
    assert {g.ship(p) for p in range(5)} == {"start"}


@pytest.mark.parametrize("n", [0, 1, 6])
def test_two_to_five_players(n: int) -> None:
    """§2.5: 2 to 5 players."""
    with pytest.raises(SetupError):
        SubmarineGame(n)


def test_placement_in_turn_from_the_start_player_on_depth_one() -> None:
    """§4.7-§4.9: the start player places first, round in seat order, one at a time, on depth 1;
    spaces may be shared; the start player then takes the first turn."""
    g = SubmarineGame(3, seed=4)
    s = g.start_player
    seats = []
    while g.phase == "place":
        seats.append(g.to_move)
        g.apply("place 4")
    assert seats == [(s + i) % 3 for i in range(15)]
    assert all(b == "4.1" for p in range(3) for b in g.bathyscaphes(p))
    assert g.to_move == s and g.phase == "sail"


def test_start_player_is_drawn_from_the_seed() -> None:
    """§4.7 default "random" (from the seed)."""
    starts = {SubmarineGame(4, seed=k).start_player for k in range(40)}
    assert starts == {0, 1, 2, 3}
    assert SubmarineGame(4, seed=9).start_player == SubmarineGame(4, seed=9).start_player


# ----------------------------------------------------------------------------- §5 turn structure


def test_sail_targets() -> None:
    """§5.1 A: strictly right of the ship, any distance, only columns with an own bathyscaphe
    (any depth), and END."""
    g = base(ships=["1", "start"])
    assert g.legal_actions() == ("sail 3", "sail end")  # column 1 is not right of the ship; 6 is seat 1's


def test_other_ships_never_block() -> None:
    """§5.1 A: "Other ships never block a column"."""
    g = base(ships=["start", "3"])
    assert "sail 3" in g.legal_actions()


def test_sailing_to_a_column_starts_the_mandatory_step() -> None:
    """§5.1 B: if t is a column the bathyscaphe step is mandatory (no "end" before acting)."""
    g = base()
    g.apply("sail 3")
    assert g.phase == "mode" and "end" not in g.legal_actions() and g.to_move == 0


def test_sailing_to_end_ends_the_turn_with_a_refill() -> None:
    """§5.1 B/C: at END the ship waits, no step; the hand is refilled to 3 from the pile top."""
    g = base(hands=[["K1"], ["K4"]], piles=[["K2", "K3", "K4"], []])
    g.apply("sail end")
    assert g.ship(0) == "end" and g.to_move == 1 and sorted(g.hand(0)) == ["K1", "K2", "K3"]
    assert g.pile(0) == ("K4",)


def test_waiting_turn_allows_only_an_exchange_or_a_pass() -> None:
    """§5.2: no ship move, no bathyscaphe; one exchange or pass."""
    g = base(ships=["end", "start"])
    assert g.phase == "wait" and g.legal_actions() == ("exchange K1", "exchange K2", "exchange K3", "pass")


def test_exchange_tucks_under_the_pile_and_draws_the_top() -> None:
    """§5.2: "put it face down at the bottom of the player's own pile, then move the top card of that
    pile into the hand"."""
    g = base(ships=["end", "start"], piles=[["K4", "K5"], []])
    g.apply("exchange K1")
    assert sorted(g.hand(0)) == ["K2", "K3", "K4"] and g.pile(0) == ("K5", "K1") and g.to_move == 1


def test_regroup_when_every_ship_is_at_end() -> None:
    """§5.3: at the end of a turn with every ship at END all go back to START; the next seat moves."""
    g = base(ships=["start", "end"])
    g.apply("sail end")
    assert (g.ship(0), g.ship(1), g.to_move, g.phase) == ("start", "start", 1, "sail")


# ------------------------------------------------------------------------ §6 the bathyscaphe step


def test_activation_is_the_own_bathyscaphes_of_the_column() -> None:
    """§6.1: every bathyscaphe of the active player in the ship's column, any depth."""
    g = base(bathyscaphes=[["3.2", "3.4", "1.4", "3.1", "2.1"], ["3.3"] * 5])
    g.apply("sail 3")
    assert sorted(g.activated) == [0, 1, 3]


def test_the_activated_set_is_fixed() -> None:
    """§6.1: a bathyscaphe that moved has finished acting; the set does not change in the step."""
    g = base(bathyscaphes=[["3.2", "3.4", "1.4", "1.4", "1.4"], ["6.4"] * 5])
    g.apply("sail 3")
    g.apply("mode move")
    g.apply("move 3.2 3.3")
    assert {a.split()[1] for a in g.legal_actions()} == {"3.4"}  # not the one that moved to 3.3


def test_uniform_move_moves_every_activated_bathyscaphe() -> None:
    """§6.2 uniform MOVE with uniform_move_all: every activated bathyscaphe makes exactly one move;
    the step ends when all have moved."""
    g = base(bathyscaphes=[["3.2", "3.4", "1.4", "1.4", "1.4"], ["6.4"] * 5])
    g.apply("sail 3")
    g.apply("mode move")
    g.apply("move 3.4 2.4")
    assert g.to_move == 0 and "end" not in g.legal_actions()
    g.apply("move 3.2 1.1")
    assert g.to_move == 1 and g.bathyscaphes(0)[:2] == ("1.1", "2.4")


def test_collect_may_be_declared_only_when_a_collection_is_legal() -> None:
    """§6.2: "COLLECT may only be declared when at least one collection is legal"."""
    g = base(held_jokers=[[], []], hands=[["K5"], []])
    g.apply("sail 3")
    assert g.legal_actions() == ("mode move",)


def test_collect_mode_moves_nothing_and_may_stop_after_any_collection() -> None:
    """§6.2 COLLECT: no bathyscaphe moves; one or more collections; may stop after any."""
    g = collect_step(base())
    assert not any(a.startswith("move") for a in g.legal_actions()) and "end" not in g.legal_actions()
    g.apply("collect 3.2 T01K1 card")
    assert "end" in g.legal_actions()
    g.apply("end")
    assert g.to_move == 1


@pytest.mark.parametrize(("frm", "count"), [("3.1", 11), ("3.2", 17), ("3.4", 11)])
def test_moves_go_one_depth_up_or_down_to_any_column(frm: str, count: int) -> None:
    """§6.3: depth d-1, d or d+1 within 1..4, any column, not the starting space."""
    g = base(bathyscaphes=[[frm, "1.4", "1.4", "1.4", "1.4"], ["6.4"] * 5])
    g.apply("sail 3")
    g.apply("mode move")
    targets = [a.split()[2] for a in g.legal_actions()]
    d = int(frm[2])
    assert len(targets) == count and frm not in targets
    assert all(abs(int(t[2]) - d) <= 1 for t in targets)


def test_collection_with_a_card() -> None:
    """§6.4 way 1: discard a card of the tile's colour (out of play for good); the tile goes to the
    player board."""
    g = collect_step(base())
    g.apply("collect 3.2 T02K2 card")
    assert "K2" not in g.hand(0) and g.out_of_play["K2"] == 1
    assert g.slots(0) == ("T02K2",) and g.tiles("3.2") == ("T01K1",)


def test_collection_with_a_joker() -> None:
    """§6.4 way 2 / §6.6: no card and no payment; the joker goes into the tile's space as a board
    joker."""
    g = collect_step(base(bathyscaphes=[["3.2", "1.4", "1.4", "1.4", "1.4"], ["3.1"] * 5]))
    g.apply("collect 3.2 T01K1 joker SHK1")
    assert g.held_jokers(0) == () and sorted(g.hand(0)) == ["K1", "K2", "K3"]
    assert g.tiles("3.2") == ("T02K2", "SHK1") and g.board_jokers == ("SHK1",)
    assert len(g.pile(0)) == 5 and len(g.pile(1)) == 5  # no payment


def test_duplicates_become_held_jokers() -> None:
    """§6.4/§6.6: a collected tile whose type the player owns goes to the end of the held jokers."""
    g = collect_step(base(slots=[["T01K3"], []], extra_tiles={"3.2": ["T01K1", "T02K2"]}))
    g.apply("collect 3.2 T01K1 card")
    assert g.held_jokers(0) == ("SHK1", "T01K1") and g.slots(0) == ("T01K3",)
    assert g.scores == (1, 0)


def test_several_collections_in_one_step() -> None:
    """§6.4: several collections, from one space or several, one card each."""
    g = collect_step(
        base(bathyscaphes=[["3.2", "3.3", "1.4", "1.4", "1.4"], ["6.4"] * 5], extra_tiles={"3.3": ["T05K3"]})
    )
    g.apply("collect 3.2 T01K1 card")
    g.apply("collect 3.3 T05K3 card")
    g.apply("collect 3.2 T02K2 card")  # the last card: nothing is left, the step ends itself
    assert g.scores == (3, 0) and g.to_move == 1


def test_payments_per_opponent_bathyscaphe_in_the_space_or_above() -> None:
    """§6.5: every opponent bathyscaphe at (c, d') with d' <= d demands one card, from the top of the
    collector's pile, put on top of the recipient's pile; own bathyscaphes demand nothing."""
    g = base(
        bathyscaphes=[["3.2", "3.1", "1.4", "1.4", "1.4"], ["3.1", "3.2", "3.3", "6.4", "6.4"]],
        piles=[["K4", "K5", "K1"], ["K2"]],
    )
    collect_step(g)
    g.apply("collect 3.2 T01K1 card")
    assert g.pile(0) == ("K1",) and g.pile(1) == ("K5", "K4", "K2")


def test_payments_are_made_per_collection() -> None:
    """§6.5: "collecting two tiles under one opponent bathyscaphe costs two cards"."""
    g = base(bathyscaphes=[["3.2", "1.4", "1.4", "1.4", "1.4"], ["3.1", "6.4", "6.4", "6.4", "6.4"]])
    collect_step(g)
    g.apply("collect 3.2 T01K1 card")
    g.apply("collect 3.2 T02K2 card")
    assert len(g.pile(1)) == 7


def test_board_jokers_are_inert() -> None:
    """§6.6 default "inert": a board joker can never be collected."""
    g = collect_step(base(extra_tiles={"3.2": ["T01K1", "SHK2"]}, board_jokers=["SHK2"]))
    assert not any("SHK2" in a.split()[2] for a in g.legal_actions() if a.startswith("collect"))


# ------------------------------------------------------------------------------- §7 end, scoring


def test_e1_full_board_wins_at_once() -> None:
    """§7.1 E1: a player owning all 12 types wins outright; the turn stops (no refill)."""
    owned = [f"T{k:02d}K1" for k in range(2, 13)]
    g = collect_step(base(slots=[owned, ["T02K2"]], hands=[["K1"], []]))
    g.apply("collect 3.2 T01K1 card")
    assert g.result == ("E1", (0,)) and g.to_move == TERMINAL and g.scores == (12, 1)
    assert g.hand(0) == ()  # no refill
    assert g.returns() == (12.0, 1.0)


def test_e2_exhausted_column_and_the_most_types_win() -> None:
    """§7.1 E2 / §7.2: the collection left its column without a treasure; most types wins."""
    g = collect_step(base(tiles={"3.2": ["T01K1"], "5.4": ["T12K4"]}, slots=[["T05K1"], []]))
    g.apply("collect 3.2 T01K1 card")
    assert g.result == ("E2", (0,)) and g.scores == (2, 0)


def test_e3_no_cards_left() -> None:
    """§7.1 E3: no player holds a search card in hand or pile (checked after a collection too)."""
    g = collect_step(base(hands=[["K1"], []], piles=[[], []]))
    g.apply("collect 3.2 T01K1 card")
    assert g.result is not None and g.result[0] == "E3"


def test_e4_dead_position() -> None:
    """§7.1 E4: no joker anywhere and no card of any collectable tile's colour: the game ends at the
    end of the turn."""
    g = base(held_jokers=[[], []], hands=[["K3"], ["K3"]], piles=[[], ["K3"]])
    g.apply("sail end")
    assert g.result is not None and g.result[0] == "E4" and g.winners == (0, 1)


def test_scores_count_distinct_types_only() -> None:
    """§7.2: the number of distinct types on the player board; held jokers count nothing."""
    g = base(slots=[["T01K1", "T02K1"], ["T03K1"]], held_jokers=[["SHK1", "T01K2", "T02K3"], []])
    assert g.scores == (2, 1)


# ---------------------------------------------------------------------------- §8 the edge cases


def test_edge_01_no_column_to_the_right_means_end() -> None:
    """§8.1: "The ship must go to END (always legal). The turn has no bathyscaphe step."."""
    g = base(ships=["3", "start"])
    assert g.legal_actions() == ("sail end",)


def test_edge_02_end_straight_from_start() -> None:
    """§8.2: choosing END from START is legal under end_always_allowed = true."""
    g = base()
    g.apply("sail end")
    assert g.ship(0) == "end" and g.to_move == 1


def test_edge_03_above_column_six_only_end() -> None:
    """§8.3: "Ship above column 6. Next turn its only legal target is END"."""
    g = base(ships=["6", "start"], bathyscaphes=[["6.2"] * 5, ["6.4"] * 5])
    assert g.legal_actions() == ("sail end",)


def test_edge_04_a_player_without_cards_still_plays() -> None:
    """§8.4: moves ship and bathyscaphes; may collect only with jokers; no E3 while others hold cards."""
    g = base(hands=[[], ["K4"]], piles=[[], []])
    g.apply("sail 3")
    assert g.legal_actions() == ("mode collect", "mode move")
    g.apply("mode collect")
    assert all("joker" in a for a in g.legal_actions())
    g.apply(g.legal_actions()[0])
    assert not g.is_over


def test_edge_05_pile_shorter_than_the_payment() -> None:
    """§8.5: a card collection needing more payments than the pile holds is illegal; no partial pay."""
    g = base(
        bathyscaphes=[["3.2", "1.4", "1.4", "1.4", "1.4"], ["3.1", "3.2", "6.4", "6.4", "6.4"]],
        piles=[["K5"], []],
        extra_tiles={"3.3": []},
    )
    collect_step(g)
    assert [a for a in g.legal_actions() if a.endswith("card")] == []
    assert "collect 3.2 T01K1 joker SHK1" in g.legal_actions()


def test_edge_06_no_matching_colour() -> None:
    """§8.6: card collections impossible; COLLECT still possible with a joker; otherwise MOVE."""
    g = base(hands=[["K5"], []])
    g.apply("sail 3")
    assert g.legal_actions() == ("mode collect", "mode move")
    g2 = base(hands=[["K5"], []], held_jokers=[[], []])
    g2.apply("sail 3")
    assert g2.legal_actions() == ("mode move",)


def test_edge_07_useless_cards_can_be_exchanged_while_waiting() -> None:
    """§8.7: three cards of colours with no tile left: nothing special; exchange while waiting."""
    g = base(hands=[["K4", "K4", "K4"], []], ships=["end", "start"])
    assert g.legal_actions() == ("exchange K4", "pass")


def test_edge_08_two_own_bathyscaphes_in_one_space() -> None:
    """§8.8: both activated; both must move under MOVE; payment depends only on the space's depth."""
    g = base(bathyscaphes=[["3.2", "3.2", "1.4", "1.4", "1.4"], ["6.4"] * 5])
    g.apply("sail 3")
    assert sorted(g.activated) == [0, 1]
    g.apply("mode move")
    g.apply("move 3.2 4.2")
    assert g.to_move == 0
    g.apply("move 3.2 5.2")
    assert g.to_move == 1


def test_edge_09_deeper_opponents_demand_nothing() -> None:
    """§8.9: an opponent's bathyscaphe deeper than the collecting space demands nothing."""
    g = base(bathyscaphes=[["3.2", "1.4", "1.4", "1.4", "1.4"], ["3.3", "3.4", "6.4", "6.4", "6.4"]])
    collect_step(g)
    g.apply("collect 3.2 T01K1 card")
    assert len(g.pile(0)) == 5 and len(g.pile(1)) == 5


def test_edge_10_waiting_opponents_still_demand() -> None:
    """§8.10: an opponent waiting at END still demands payment and receives cards."""
    g = base(
        bathyscaphes=[["3.2", "1.4", "1.4", "1.4", "1.4"], ["3.1", "6.4", "6.4", "6.4", "6.4"]],
        ships=["start", "end"],
    )
    collect_step(g)
    g.apply("collect 3.2 T01K1 card")
    assert len(g.pile(1)) == 6


def test_edge_11_each_collection_is_resolved_before_the_next() -> None:
    """§8.11: one at a time, each fully resolved (payment, placement, E1/E2/E3) before the next:
    E2 after the first collection stops the step."""
    g = collect_step(
        base(
            tiles={"3.2": ["T01K1"], "3.3": ["T02K2"], **{"5.4": ["T12K4"]}},
            bathyscaphes=[["3.2", "3.3", "1.4", "1.4", "1.4"], ["6.4"] * 5],
        )
    )
    g.apply("collect 3.2 T01K1 card")
    assert not g.is_over
    g.apply("collect 3.3 T02K2 card")
    assert g.result is not None and g.result[0] == "E2"


def test_edge_12_received_cards_are_drawn_at_the_own_refill() -> None:
    """§8.12: received cards go on top of the recipient's pile and are drawn at their next refill."""
    g = base(
        bathyscaphes=[["3.2", "1.4", "1.4", "1.4", "1.4"], ["3.1", "6.4", "6.4", "6.4", "6.4"]],
        piles=[["K1"] * 5, ["K3"] * 5],
        hands=[["K1", "K2", "K3"], ["K4", "K4"]],
    )
    collect_step(g)
    g.apply("collect 3.2 T01K1 card")
    g.apply("end")
    assert g.pile(1)[0] == "K1" and g.to_move == 1
    g.apply("sail end")
    assert sorted(g.hand(1)) == ["K1", "K4", "K4"]


def test_edge_13_refill_from_a_short_pile() -> None:
    """§8.13: draw what is there; the hand may stay below 3."""
    g = base(hands=[["K1"], ["K4"]], piles=[["K2"], []])
    g.apply("sail end")
    assert sorted(g.hand(0)) == ["K1", "K2"] and g.pile(0) == ()


def test_edge_14_waiting_with_an_empty_pile_or_hand() -> None:
    """§8.14: no exchange is possible; the turn is a pass."""
    assert base(ships=["end", "start"], piles=[[], []]).legal_actions() == ("pass",)
    assert base(ships=["end", "start"], hands=[[], []]).legal_actions() == ("pass",)


def test_edge_15_no_exchange_on_arrival() -> None:
    """§8.15: the ship reaches END: no bathyscaphe step and no exchange this turn."""
    g = base()
    g.apply("sail end")
    assert g.to_move == 1 and g.phase == "sail"


def test_edge_16_the_last_ship_to_end_regroups() -> None:
    """§8.16: at the end of that turn all ships go back to START; the next seat moves next."""
    g = position(3, bathyscaphes=[["1.1"] * 5] * 3, ships=["end", "start", "end"], active=1)
    g.apply("sail end")
    assert [g.ship(p) for p in range(3)] == ["start"] * 3 and g.to_move == 2


def test_edge_17_a_move_must_leave_the_space() -> None:
    """§8.17: a move that leaves the bathyscaphe where it is, is illegal."""
    g = base()
    g.apply("sail 3")
    g.apply("mode move")
    assert "move 3.2 3.2" not in g.legal_actions()
    with pytest.raises(IllegalActionError):
        g.apply("move 3.2 3.2")


def test_edge_18_no_surface_from_depth_one() -> None:
    """§8.18: from depth 1 only depths 1 and 2 are reachable; row 0 never is."""
    g = base(bathyscaphes=[["3.1", "1.4", "1.4", "1.4", "1.4"], ["6.4"] * 5])
    g.apply("sail 3")
    g.apply("mode move")
    assert {a.split()[2][2] for a in g.legal_actions()} == {"1", "2"}
    with pytest.raises(IllegalActionError):
        g.apply("move 3.1 3.0")


def test_edge_19_moving_out_of_the_column() -> None:
    """§8.19: allowed; the bathyscaphe has finished acting."""
    g = base()
    g.apply("sail 3")
    g.apply("mode move")
    g.apply("move 3.2 6.3")
    assert g.bathyscaphes(0)[0] == "6.3" and g.to_move == 1


def test_edge_20_the_last_tile_taken_with_a_joker() -> None:
    """§8.20: E2 fires: the joker placed there does not keep the column alive."""
    g = collect_step(base(tiles={"3.2": ["T01K1"], "5.4": ["T12K4"]}))
    g.apply("collect 3.2 T01K1 joker SHK1")
    assert g.result is not None and g.result[0] == "E2" and g.tiles("3.2") == ("SHK1",)


def test_edge_21_full_board_beats_exhausted_column() -> None:
    """§8.21: one collection completes 12 types and exhausts a column: E1 wins."""
    owned = [f"T{k:02d}K1" for k in range(2, 13)]
    g = collect_step(base(tiles={"3.2": ["T01K1"], "5.4": ["T12K4"]}, slots=[owned, []]))
    g.apply("collect 3.2 T01K1 card")
    assert g.result == ("E1", (0,))


def test_edge_22_a_column_of_board_jokers_only_is_exhausted() -> None:
    """§8.22: a column holding only board jokers is exhausted (E2 fired when it happened)."""
    g = collect_step(base(tiles={"3.2": ["T01K1", "SHK2"], "5.4": ["T12K4"]}, board_jokers=["SHK2"]))
    g.apply("collect 3.2 T01K1 card")
    assert g.result is not None and g.result[0] == "E2"


def test_edge_23_collecting_an_owned_type() -> None:
    """§8.23: the tile becomes a held joker; score unchanged."""
    g = collect_step(base(slots=[["T02K5"], []]))
    g.apply("collect 3.2 T02K2 card")
    assert g.scores == (1, 0) and g.held_jokers(0)[-1] == "T02K2"


def test_edge_24_the_player_chooses_the_joker() -> None:
    """§8.24: the player chooses which held joker; the chosen tile is the one put on the board."""
    g = collect_step(base(held_jokers=[["SHK1", "T07K3"], []]))
    assert {"collect 3.2 T01K1 joker SHK1", "collect 3.2 T01K1 joker T07K3"} <= set(g.legal_actions())
    g.apply("collect 3.2 T01K1 joker T07K3")
    assert g.held_jokers(0) == ("SHK1",) and "T07K3" in g.tiles("3.2")


def test_edge_25_any_tile_of_the_space() -> None:
    """§8.25: the player chooses any collectable tile in the space."""
    g = collect_step(base())
    cards = [a for a in g.legal_actions() if a.endswith("card")]
    assert cards == ["collect 3.2 T01K1 card", "collect 3.2 T02K2 card"]


def test_edge_26_payment_order() -> None:
    """§8.26: seat order from the collector's left, one card per qualifying bathyscaphe, always the
    collector's current top card."""
    g = position(
        3,
        bathyscaphes=[["3.2"] + ["1.4"] * 4, ["3.1", "3.2", "6.4", "6.4", "6.4"], ["3.1"] + ["6.4"] * 4],
        hands=[["K1"], [], []],
        piles=[["K2", "K3", "K4", "K5"], [], []],
        tiles={"3.2": ["T01K1"], **FILL},
    )
    collect_step(g)
    g.apply("collect 3.2 T01K1 card")
    assert g.hand(0) == ("K5",) and g.pile(1) == ("K3", "K2") and g.pile(2) == ("K4",)  # K5 refilled


def test_edge_27_ties_are_shared() -> None:
    """§8.27: score ties after E2-E5: shared win under the default."""
    g = collect_step(base(tiles={"3.2": ["T01K1"], "5.4": ["T12K4"]}, slots=[[], ["T04K4"]]))
    g.apply("collect 3.2 T01K1 card")
    assert g.result == ("E2", (0, 1))


def test_edge_28_the_game_ends_in_the_middle_of_a_turn() -> None:
    """§8.28: remaining actions are cancelled; no refill; the state at that moment is scored."""
    g = collect_step(base(tiles={"3.2": ["T01K1", "T02K2"], "5.4": ["T12K4"]}, hands=[["K1", "K2"], []]))
    g.apply("collect 3.2 T01K1 card")
    g.apply("collect 3.2 T02K2 card")
    assert g.is_over and g.hand(0) == () and len(g.pile(0)) == 5 and g.legal_actions() == ()
    with pytest.raises(IllegalActionError):
        g.apply("end")


def test_edge_29_nobody_can_collect_again() -> None:
    """§8.29: E4 ends the game (default on)."""
    g = base(held_jokers=[[], []], hands=[["K3"], ["K3"]], piles=[[], []])
    g.apply("sail end")
    assert g.result is not None and g.result[0] == "E4"


def test_edge_30_only_a_turn_limit_ends_a_game_without_collections() -> None:
    """§8.30: players who never collect: the rules do not end the game; only E5 does."""
    g = placed(2)
    for _ in range(400):
        a = g.legal_actions()
        g.apply("mode move" if "mode move" in a else next(x for x in a if not x.startswith("collect")))
    assert not g.is_over
    g = placed(2, options={"turn_limit": 30})
    while not g.is_over:
        a = g.legal_actions()
        g.apply("mode move" if "mode move" in a else next(x for x in a if not x.startswith("collect")))
    assert g.result is not None and g.result[0] == "E5" and g.turn_number == 10 + 30
