"""The Crew's board shows its chances (issue ux6): figures from the seat's view only, exact
under the model of ``dsa_widget.crew.analysis`` (every deal that fits what the seat knows is
equally likely), each checked here against a count made by hand on a hand-made deal.

Rules relied on (CREW.md): R-13.3 ``win_cards`` ("capture every listed card": who holds the
card matters to its owner), R-10.1 (the winner of a trick leads the next), R-10.2 (each seat
MUST follow the led suit if it can, so a seat that does not is void in it, section 15: the
trick in progress is public), R-4.3 (the seat holding S4 is captain: S4 is known to all)."""

from __future__ import annotations

import random
import re
from math import comb

from hypothesis import example, given, settings
from hypothesis import strategies as st

from dsa_widget.crew import Crew
from dsa_widget.crew.analysis import holding_chances
from dsa_widget.crew.cards import DECK
from dsa_widget.crew.rules import CrewGame
from dsa_widget.crew.widget import DEALS, CrewPresenter
from dsa_widget.crew.words import card_words

from .test_rules import play, tonoja_deal
from .test_rules import to_play as up_to_a_card

NAMES = ["Ann", "Bob", "Cy", "Di"]
# Ann: S4 (captain, R-4.3) B1 P1-P8; Bob: B2-B7 Y1-Y4; Cy: B8 P9 Y5-Y9 S1-S3; Di: B9 G1-G9
HANDS = [
    ["S4", "B1", *(f"P{i}" for i in range(1, 9))],
    [*(f"B{i}" for i in range(2, 8)), *(f"Y{i}" for i in range(1, 5))],
    ["B8", "P9", *(f"Y{i}" for i in range(5, 10)), "S1", "S2", "S3"],
    ["B9", *(f"G{i}" for i in range(1, 10))],
]


def shown(g: CrewGame, seat: int | None) -> dict[str, float]:
    figures = CrewPresenter().chances(g.view(seat))
    assert all(f.kind == "exact" and f.given == DEALS for f in figures)
    return {f.label: f.value for f in figures}


def to_play(tasks: list[int], assignment: dict[int, int], plays: tuple[str, ...] = ()) -> CrewGame:
    """The hand-made deal, no distress, every communication passed, then ``plays``."""
    g = CrewGame(NAMES, deal=HANDS, tasks=tasks, assignment=assignment)
    todo = list(plays)
    while True:
        legal = g.legal_actions()
        if "no distress" in legal:
            g.apply("no distress")
        elif "pass" in legal:
            g.apply("pass")
        elif todo:
            g.apply(todo.pop(0))
        else:
            return g


def test_the_owner_holds_the_task_card_in_proportion_to_the_unseen_cards() -> None:
    # Bob sees his 10 cards and Ann's S4: 29 cards unseen, Cy holds 10 of them (R-13.3, task 4)
    g = to_play([4], {4: 2})
    assert shown(g, 1) == {"Task 4's green 6 is in its owner Cy's hand": 10 / 29}
    # a spectator sees only S4: 39 unseen, Cy holds 10
    assert shown(g, None) == {"Task 4's green 6 is in its owner Cy's hand": 10 / 39}
    # Di holds G6: nothing to tell her.  For her own task Ann is told who most likely holds the
    # card: here Bob, Cy and Di alike (10 unseen cards each of her 30)
    assert shown(g, 3) == {}
    g = to_play([4], {4: 0})
    assert shown(g, 0) == {
        "Task 4's green 6 (yours) is in Bob's hand (as likely as in 2 other hands)": 10 / 30
    }
    # once Ann has led B1 and Bob has followed, Bob (9 cards) is less likely than Cy and Di (10)
    g = to_play([4], {4: 0}, ("play B1", "play B2"))
    assert shown(g, 0) == {"Task 4's green 6 (yours) is in Cy's hand (as likely as in 1 other hand)": 10 / 29}


def test_a_task_card_someone_showed_or_captured_has_no_figure() -> None:
    g = to_play([6], {6: 1})  # capture B1, B2 and B3: Bob holds B2, B3; Ann B1 (not shown)
    assert shown(g, 2) == {
        "Task 6's blue 1 is in its owner Bob's hand": 10 / 29,
        "Task 6's blue 2 is in its owner Bob's hand": 10 / 29,
        "Task 6's blue 3 is in its owner Bob's hand": 10 / 29,
    }
    assert shown(g, 1) == {"Task 6's blue 1 (yours) is in Cy's hand (as likely as in 1 other hand)": 10 / 29}


def test_at_most_three_task_figures() -> None:
    g = to_play([15, 16], {15: 2, 16: 3})  # seven cards wanted, none of them Bob's
    assert len(shown(g, 1)) == 3


def test_following_and_the_highest_unseen_card_of_the_led_suit() -> None:
    # Ann leads B1; Bob (to play) sees B2-B7 in his hand: B8 and B9 unseen.  Cy and Di play
    # after him.  Ann holds 8 unseen cards, Cy 10, Di 10: 28.  Nobody after Bob can follow
    # only if Ann holds both: C(8, 2) / C(28, 2).  B9 is with Cy or Di: 20 / 28.
    g = to_play([4], {4: 2}, ("play B1",))
    assert g.to_move == 1
    assert shown(g, 1) == {
        "Task 4's green 6 is in its owner Cy's hand": 10 / 28,
        "Someone after you can still follow in blue": 1 - comb(8, 2) / comb(28, 2),
        "The highest blue you cannot see, the 9, is with someone after you": 20 / 28,
    }
    # Ann has played in this trick: no trick figures for her; a spectator has no "you"
    assert len(shown(g, 0)) == 1 and len(shown(g, None)) == 1


def test_a_revealed_void_counts() -> None:
    # trick 1: B1 B2 B8 B9, Di wins and leads G1; Ann plays P1, so she has no green
    # .  Bob is to play; only Cy is after him.  Unseen by Bob: Ann 7 cards (not green),
    # Cy 9, Di 8; the 8 greens G2-G9 are all with Cy or Di: of the C(17, 8) ways to split
    # what Ann does not hold, one gives Di every green and Cy none.
    g = to_play([4], {4: 2}, ("play B1", "play B2", "play B8", "play B9", "play G1", "play P1"))
    assert g.to_move == 1
    assert shown(g, 1) == {
        "Task 4's green 6 is in its owner Cy's hand": 9 / 17,
        "Cy can still follow in green": 1 - 1 / comb(17, 8),
        "The highest green you cannot see, the 9, is with Cy": 9 / 17,
    }


TASK = re.compile(r"^Task \d+'s (\w+ \d) .*(?:in|among) (?:its owner )?(\w+)'s (?:hand|face-down cards)$")
CARD_OF = {card_words(c): c for c in DECK}


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**16), steps=st.integers(0, 50), players=st.integers(2, 5))
@example(seed=13961, steps=18, players=4)  # the voids shown leave one hand for a task's card: 100%
@example(seed=6, steps=24, players=2)  # Tonoja follows with a face-up card; a task card face down
@example(seed=9, steps=6, players=2)  # submarine led, Tonoja has no face-up submarine: 0
def test_task_figures_are_the_holding_chances(seed: int, steps: int, players: int) -> None:
    g = CrewGame(["Ann", "Bob", "Cy", "Di", "Ed"][:players], seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    for seat in [None, *range(len(g.players))]:
        v = g.view(seat)
        figures = CrewPresenter().chances(v)
        if g.is_over:
            assert figures == ()
            continue
        assert len(figures) <= 5
        if seat is not None and seat == g.dummy:  # Tonoja's link: nobody's hand, no trick of its own
            assert not any("yours" in f.label or "follow" in f.label for f in figures)
        k = v.knowledge()
        held = holding_chances(k) if figures else {}
        for f in figures:
            m = TASK.match(f.label)
            if m:
                chances = held[CARD_OF[m[1]]]
                assert f.value == float(chances[v.players.index(m[2])])
                if "owner" not in f.label:  # the seat named is one of the likeliest
                    assert f.value == float(max(chances)) and ("likeliest" in f.label) == (
                        chances.count(max(chances)) == 1
                    )
                assert k.pool >> DECK.index(CARD_OF[m[1]]) & 1  # a card nobody showed (may be deduced)
            if f.label.startswith("Tonoja can still follow"):
                assert f.label.endswith(
                    ("with a face-up card", "with a face-up submarine")
                )  # its face-up cards only
                led = DECK[v.current_trick[0][1]][0]
                assert f.value == any(u and u[0] == led for u, _d in v.dummy_columns or ())


def test_the_board_publishes_them_and_hints_hide_them() -> None:
    w = Crew(players=NAMES, viewer=1, seats={0: "random", 2: "random", 3: "random"}, seed=1, target=3)
    assert isinstance(w.state["chances"], list)
    w.hints = False
    assert w.state["chances"] is None


def test_long_names_keep_the_labels_short() -> None:
    # a player's name may have 64 characters; a figure's label at most 120 (core.chances)
    names = [c * 64 for c in "ABCD"]
    g = CrewGame(names, deal=HANDS, tasks=[4], assignment={4: 0})
    while "play B1" not in g.legal_actions():
        g.apply("no distress" if "no distress" in g.legal_actions() else "pass")
    g.apply("play B1")
    labels = [f.label for f in CrewPresenter().chances(g.view(1))]
    assert len(labels) == 3 and all(len(x) <= 120 for x in labels)
    assert labels[0] == f"Task 4's green 6 is in its owner {'A' * 23}…'s hand"


def tonoja_to_play(down: list[str], up: list[str]) -> CrewGame:
    """Two players (R-4.5: Ann, Bob, then Tonoja, the dummy), Ann (S4, captain) leads P1, Bob
    is to play and only Tonoja plays after him.  Task 4 (capture G6) is Tonoja's."""
    deal = tonoja_deal(h0=["S4", "P1"], h1=["P2"], down=down, up=up)
    g = CrewGame(["Ann", "Bob"], deal=deal, tasks=[4], assignment={4: 2})
    play(g, "P1")
    up_to_a_card(g)
    assert g.players[2] == "Tonoja" and g.dummy == 2 and g.to_move == 1
    return g


def test_tonoja_follows_only_with_its_face_up_cards() -> None:
    # Tonoja plays and follows only with its face-up cards, which all see; its
    # face-down P9 cannot be played in this trick, so Tonoja cannot follow in pink (0), and no
    # card Bob cannot see can win the trick for a seat after him (no highest-card figure).
    # Task 4's G6 is face down with Tonoja: Bob sees his 13 cards, Tonoja's 7 face-up ones, S4
    # and P1: of the 18 unseen, Ann holds 11 and Tonoja's face-down pile 7.
    up = ["Y1", "Y2", "Y3", "B1", "B2", "B3", "G1"]
    g = tonoja_to_play(down=["P9", "G6"], up=up)
    assert shown(g, 1) == {
        "Task 4's green 6 is among its owner Tonoja's face-down cards": 7 / 18,
        "Tonoja can still follow in pink with a face-up card": 0.0,
    }
    # a face-up pink must be played: Tonoja follows for sure
    g = tonoja_to_play(down=["P8", "G6"], up=["P9", *up[1:]])
    assert shown(g, 1)["Tonoja can still follow in pink with a face-up card"] == 1.0
    assert len(shown(g, 1)) == 2
