"""Every option of SUBMARINE.md §9, both (all) values: a test each showing the behaviour differs as
the spec says, plus option validation."""

from __future__ import annotations

from typing import Any

import pytest

from dsa_widget.submarine import SetupError, SubmarineGame, resolve_options

from .common import position
from .test_rules import FILL

BATHS = [["3.2", "1.4", "1.4", "1.4", "1.4"], ["3.1", "3.2", "6.4", "6.4", "6.4"]]


def game(options: dict[str, Any] | None = None, **kw: Any) -> SubmarineGame:
    args: dict[str, Any] = {
        "bathyscaphes": BATHS,
        "hands": [["K1", "K2", "K3"], ["K4"]],
        "piles": [["K2", "K3", "K4", "K5"], ["K5"]],
        "tiles": {"3.2": ["T01K1", "T02K2"], **FILL},
    }
    args.update(kw)
    return position(2, options, **args)


def collect(g: SubmarineGame, action: str = "collect 3.2 T01K1 card") -> SubmarineGame:
    g.apply("sail 3")
    if g.phase == "mode":
        g.apply("mode collect")
    g.apply(action)
    return g


@pytest.mark.parametrize(("deck", "undealt"), [("60", 0), ("75", 15)])
def test_deck(deck: str, undealt: int) -> None:
    """§2.3 deck "60" (12 per colour) / "75" (15 per colour); at 4 x 15 cards the rest is undealt."""
    g = SubmarineGame(4, seed=3, options={"deck": deck})
    d = g.state_dict()
    assert len(d["undealt"]) == undealt
    every = d["undealt"] + [c for h in d["hands"] for c in h] + [c for p in d["piles"] for c in p]
    assert {every.count(k) for k in ("K1", "K2", "K3", "K4", "K5")} == {int(deck) // 5}


@pytest.mark.parametrize(("value", "cards"), [(None, [15, 15, 15, 12]), ("linear", [15, 14, 13, 12])])
def test_cards_per_player(value: str | None, cards: list[int]) -> None:
    """§2.3 default {2:15, 3:15, 4:15, 5:12}; "linear" {2:15, 3:14, 4:13, 5:12}."""
    opts = {} if value is None else {"cards_per_player": value}
    for n, c in zip(range(2, 6), cards, strict=True):
        g = SubmarineGame(n, seed=1, options=opts)
        assert len(g.hand(0)) + len(g.pile(0)) == c


@pytest.mark.parametrize(
    ("value", "counts"),
    [(None, [5, 5, 4, 3]), ("always5", [5, 5, 5, 5]), ({"2": 5, "3": 4, "4": 3, "5": 3}, [5, 4, 3, 3])],
)
def test_bathyscaphes_per_player(value: Any, counts: list[int]) -> None:
    """§2.4 default {2:5, 3:5, 4:4, 5:3}; "always5"; {2:5, 3:4, 4:3, 5:3}."""
    opts = {} if value is None else {"bathyscaphes_per_player": value}
    assert [len(SubmarineGame(n, seed=0, options=opts).bathyscaphes(0)) for n in range(2, 6)] == counts


def test_start_player() -> None:
    """§4.7 "random" (from the seed) or a fixed seat."""
    assert {SubmarineGame(3, seed=k).start_player for k in range(30)} == {0, 1, 2}
    assert {SubmarineGame(3, seed=k, options={"start_player": 2}).start_player for k in range(30)} == {2}
    with pytest.raises(SetupError):
        SubmarineGame(3, options={"start_player": 3})


def test_end_always_allowed() -> None:
    """§5.1 A: true, END is always legal; false, only when no column to the right qualifies."""
    assert game().legal_actions() == ("sail 1", "sail 3", "sail end")
    assert game({"end_always_allowed": False}).legal_actions() == ("sail 1", "sail 3")
    assert game({"end_always_allowed": False}, ships=["3", "start"]).legal_actions() == ("sail end",)


def test_exchange_on_arrival() -> None:
    """§5.1 B: false, no exchange on the arriving turn; true, the arriving player may exchange."""
    g = game()
    g.apply("sail end")
    assert g.to_move == 1
    g = game({"exchange_on_arrival": True})
    g.apply("sail end")
    assert g.to_move == 0 and g.phase == "wait" and "exchange K1" in g.legal_actions()
    g.apply("exchange K1")
    assert g.to_move == 1 and g.pile(0)[-1] == "K1"


def test_activation_mode() -> None:
    """§6.2 "uniform": one mode for the whole step; "independent": each activated bathyscaphe moves,
    collects from its own space, or does nothing, at least one used."""
    baths = [["3.2", "3.3", "1.4", "1.4", "1.4"], ["6.4"] * 5]
    g = game(bathyscaphes=baths)
    g.apply("sail 3")
    assert g.legal_actions() == ("mode collect", "mode move")
    g = game({"activation_mode": "independent"}, bathyscaphes=baths)
    g.apply("sail 3")
    legal = g.legal_actions()
    assert "collect 3.2 T01K1 card" in legal and "move 3.3 1.3" in legal and "end" not in legal
    g.apply("collect 3.2 T01K1 card")  # the 3.2 bathyscaphe collects ...
    assert "move 3.2 1.2" not in g.legal_actions() and "end" in g.legal_actions()
    g.apply("move 3.3 1.3")  # ... the 3.3 one moves in the same step
    assert g.bathyscaphes(0)[:2] == ("3.2", "1.3") and g.slots(0) == ("T01K1",)
    g.apply("end")
    assert g.to_move == 1


def test_uniform_move_all() -> None:
    """§6.2 MOVE: true, every activated bathyscaphe moves; false, at least one, the rest may stay."""
    baths = [["3.2", "3.3", "1.4", "1.4", "1.4"], ["6.4"] * 5]
    for value, after in ((True, False), (False, True)):
        g = game({"uniform_move_all": value}, bathyscaphes=baths)
        g.apply("sail 3")
        g.apply("mode move")
        assert "end" not in g.legal_actions()
        g.apply("move 3.2 1.2")
        assert ("end" in g.legal_actions()) is after and g.to_move == 0


@pytest.mark.parametrize(("value", "paid"), [("per_bathyscaphe", 2), ("per_opponent", 1)])
def test_payment_basis(value: str, paid: int) -> None:
    """§6.5: one card per qualifying opponent bathyscaphe, or one per opponent with any."""
    g = collect(game({"payment_basis": value}))
    assert len(g.pile(1)) == 1 + paid


@pytest.mark.parametrize(("value", "pile"), [("top", ("K3", "K2", "K5")), ("bottom", ("K5", "K2", "K3"))])
def test_payment_destination(value: str, pile: tuple[str, ...]) -> None:
    """§6.5: each paid card goes onto the top (default) or the bottom of the recipient's pile."""
    g = collect(game({"payment_destination": value}))
    assert g.pile(1) == pile


def test_payment_shortfall() -> None:
    """§6.4/§9: "forbid": no card collection unless the pile covers every payment;
    "pay_what_you_can": pay what the pile holds; "use_hand": the hand makes up the rest."""
    short: dict[str, Any] = {"piles": [["K5"], []], "hands": [["K1", "K4"], []]}
    g = game(**short)
    g.apply("sail 3")
    g.apply("mode collect")
    assert "collect 3.2 T01K1 card" not in g.legal_actions()
    g = collect(game({"payment_shortfall": "pay_what_you_can"}, **short))
    assert g.pile(1) == ("K5",) and g.slots(0) == ("T01K1",)
    g = collect(game({"payment_shortfall": "use_hand"}, **short))
    assert sorted(g.pile(1)) == ["K4", "K5"] and g.hand(0) == ()
    g = game({"payment_shortfall": "use_hand"}, piles=[[], []], hands=[["K1", "K4"], []])
    g.apply("sail 3")
    g.apply("mode collect")
    assert "collect 3.2 T01K1 card" not in g.legal_actions()  # pile 0 + hand 1 < 2 owed


def test_board_jokers() -> None:
    """§6.6: "inert", never collectable; "collectable", like a treasure of its rim colour (a shell
    becomes a held joker); ignored by E2 either way."""
    tiles = {"3.2": ["T01K1", "SHK2"], **FILL}
    g = game(tiles=tiles, board_jokers=["SHK2"])
    g.apply("sail 3")
    g.apply("mode collect")
    assert not any("SHK2" in a for a in g.legal_actions())
    g = collect(
        game({"board_jokers": "collectable"}, tiles=tiles, board_jokers=["SHK2"]), "collect 3.2 SHK2 card"
    )
    assert g.held_jokers(0) == ("SHK1", "SHK2") and g.board_jokers == () and g.hand(0).count("K2") == 0
    g = collect(
        game(
            {"board_jokers": "collectable"},
            tiles={"3.2": ["T01K1", "SHK2"], "5.4": ["T12K4"]},
            board_jokers=["SHK2"],
        )
    )
    assert g.result is not None and g.result[0] == "E2"  # the board joker left does not count


@pytest.mark.parametrize("cap", [0, 1, 3, 20])
def test_joker_swaps_per_turn(cap: int) -> None:
    """§6.6 sets no limit on jokers spent in a turn; under "collectable" two held jokers could
    be swapped for each other on the board for ever, so a turn takes at most ``cap`` board
    jokers by paying with a held joker.  A card still pays for one, and a joker for a treasure."""
    g = game(
        {"board_jokers": "collectable", "joker_swaps_per_turn": cap},
        tiles={"3.2": ["T01K1", "SHK2"], **FILL},
        board_jokers=["SHK2"],
        held_jokers=[["SHK1", "SHK3"], []],
    )
    g.apply("sail 3")
    g.apply("mode collect")
    swaps = 0
    while swaps < 100:
        swap = [a for a in g.legal_actions() if " SH" in a.split(" joker")[0] and " joker " in a]
        if not swap:
            break
        g.apply(swap[0])
        swaps += 1
    assert swaps == cap
    legal = g.legal_actions()
    (board,) = g.board_jokers
    assert f"collect 3.2 {board} card" in legal
    assert any(a.startswith("collect 3.2 T01K1 joker ") for a in legal)
    assert g.state_dict()["step"]["swaps"] == cap
    again = SubmarineGame.from_state_dict(g.state_dict())
    assert again.legal_actions() == legal


@pytest.mark.parametrize(("value", "over"), [(True, True), (False, False)])
def test_dead_position_end(value: bool, over: bool) -> None:
    """§7.1 E4 on (default) or off."""
    g = game({"dead_position_end": value}, held_jokers=[[], []], hands=[["K3"], ["K3"]], piles=[[], []])
    g.apply("sail end")
    assert g.is_over is over


@pytest.mark.parametrize(("value", "over"), [(5_000, False), (1, True)])
def test_turn_limit(value: int, over: bool) -> None:
    """§7.1 E5: the game ends after that many turns of play (5,000 by default)."""
    g = game({"turn_limit": value})
    g.apply("sail end")
    assert g.is_over is over and (not over or g.result == ("E5", (0, 1)))


def test_the_defaults_settle_what_the_rules_leave_open() -> None:
    """§9, SUBMARINE.md leaves a game (§8 #30) and a step (§6.6) without an end: E5 is on at
    5,000 turns of play and a turn swaps at most 3 board jokers for held jokers, and neither
    can be switched off or raised past what a record holds (10 MB)."""
    o = resolve_options()
    assert (o["turn_limit"], o["joker_swaps_per_turn"]) == (5_000, 3)
    for bad in (
        {"turn_limit": None},
        {"turn_limit": 5_001},
        {"joker_swaps_per_turn": -1},
        {"joker_swaps_per_turn": 21},
        {"joker_swaps_per_turn": 1.0},
    ):
        with pytest.raises(SetupError, match=next(iter(bad))):
            resolve_options(bad)


@pytest.mark.parametrize(
    ("rule", "winners"), [("shared", (0, 1)), ("most_held_jokers", (1,)), ("most_cards", (0,))]
)
def test_tie_rule(rule: str, winners: tuple[int, ...]) -> None:
    """§7.2 ties: shared; most held jokers; most cards (hand plus pile); each falling back to shared."""
    g = game(
        {"tie_rule": rule},
        tiles={"3.2": ["T01K1"], "5.4": ["T12K4"]},
        slots=[[], ["T05K5"]],
        held_jokers=[["SHK1"], ["SHK2", "T05K1"]],
        bathyscaphes=[BATHS[0], ["6.4"] * 5],
        hands=[["K1", "K2", "K2"], []],
        piles=[["K2"], []],
    )
    collect(g)
    assert g.result == ("E2", winners)


def test_tie_rule_falls_back_to_shared() -> None:
    """§7.2: "each falling back to shared if still tied"."""
    g = game(
        {"tie_rule": "most_held_jokers"},
        tiles={"3.2": ["T01K1"], "5.4": ["T12K4"]},
        slots=[[], ["T05K5"]],
        bathyscaphes=[BATHS[0], ["6.4"] * 5],
    )
    collect(g)
    assert g.result == ("E2", (0, 1))


@pytest.mark.parametrize(
    "bad",
    [
        {"nope": 1},
        {"deck": 60},
        {"activation_mode": "mixed"},
        {"end_always_allowed": 1},
        {"cards_per_player": "square"},
        {"cards_per_player": {"6": 10}},
        {"bathyscaphes_per_player": {"4": 6}},
        {"turn_limit": 0},
        {"turn_limit": True},
        {"start_player": "first"},
        {"tie_rule": None},
    ],
)
def test_bad_options_raise_setup_error(bad: dict[str, Any]) -> None:
    with pytest.raises(SetupError):
        resolve_options(bad)


def test_a_table_too_big_for_the_deck() -> None:
    with pytest.raises(SetupError):
        SubmarineGame(5, options={"cards_per_player": {"5": 15}})
    assert len(SubmarineGame(5, options={"cards_per_player": {"5": 15}, "deck": "75"}).pile(0)) == 12
