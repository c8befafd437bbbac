"""Scenario tests of dsa_widget.crew.rules.CrewGame, each citing the CREW.md rule it checks.

Status-only rules (section 13) and most draw rules (6.2-6.8) are tested by the status and draw
modules' own tests; here they are checked at game level where the game takes part.
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget.core.protocol import TERMINAL, GameState
from dsa_widget.crew.cards import DECK
from dsa_widget.crew.errors import IllegalActionError, RecordError, SetupError
from dsa_widget.crew.mission import Mission
from dsa_widget.crew.rules import CrewGame
from dsa_widget.crew.tasks import TASKS

SIZES = {3: [14, 13, 13], 4: [10] * 4, 5: [8] * 5}


# ---------------------------------------------------------------------------------------------
# helpers


def fill(
    n: int,
    fixed: dict[int, Sequence[str]],
    seed: int = 0,
    sizes: Sequence[int] | None = None,
    pure: bool = True,
) -> list[list[str]]:
    """A deal for ``n`` seats with the given cards in the given hands and the rest at random;
    a seat with fixed cards gets no other card of those suits (so ``{1: ["B3", "B8"]}`` means
    seat 1's blues are exactly B3 and B8)."""
    sizes = list(sizes or SIZES[n])
    used = {c for h in fixed.values() for c in h}
    rest = [c for c in DECK if c not in used]
    random.Random(seed).shuffle(rest)
    hands: list[list[str]] = [list(fixed.get(s, [])) for s in range(n)]
    for s in sorted(range(n), key=lambda s: s not in fixed):
        avoid = {c[0] for c in fixed.get(s, [])} if pure else set()
        while len(hands[s]) < sizes[s]:
            pick = next(c for c in rest if c[0] not in avoid)
            rest.remove(pick)
            hands[s].append(pick)
    assert not rest
    return hands


def tonoja_deal(
    h0: Sequence[str] = (),
    h1: Sequence[str] = (),
    down: Sequence[str] = (),
    up: Sequence[str] = (),
    seed: int = 0,
) -> list[list[str]]:
    """Two humans (13 each, S4 with a human) and Tonoja (7 face-down then 7 face-up)."""
    used = set(h0) | set(h1) | set(down) | set(up)
    rest = [c for c in DECK if c not in used and c != "S4"]
    random.Random(seed).shuffle(rest)
    d, u = list(down), list(up)
    while len(d) < 7:
        d.append(rest.pop())
    while len(u) < 7:
        u.append(rest.pop())
    a, b = list(h0), list(h1)
    if "S4" not in used:
        a.append("S4")
    rest.sort()
    while len(a) < 13:
        a.append(rest.pop())
    while len(b) < 13:
        b.append(rest.pop())
    return [a, b, d + u]


def no_distress(g: CrewGame) -> None:
    while g.step in ("distress",):
        g.apply("no distress")


def to_play(g: CrewGame) -> None:
    """Decline distress, pass every communication turn: up to the next card to play."""
    no_distress(g)
    while g.step == "communicate":
        g.apply("pass")


def play(g: CrewGame, *cards: str) -> None:
    for c in cards:
        to_play(g)
        g.apply(f"play {c}")


def play_out(g: CrewGame, rng: random.Random, *, limit: int = 5000) -> None:
    for _ in range(limit):
        if g.is_over:
            return
        la = g.legal_actions()
        g.apply(rng.choice(la))
    raise AssertionError("the game did not end")


def game4(
    tasks: Sequence[int], owners: Sequence[int], fixed: dict[int, Sequence[str]], **kw: Any
) -> CrewGame:
    deal = fill(4, fixed, pure=kw.pop("pure", True))
    g = CrewGame(
        4,
        seed=kw.pop("seed", 0),
        deal=deal,
        tasks=list(tasks),
        assignment=dict(zip(tasks, owners, strict=True)),
        **kw,
    )
    return g


def snapshot(g: CrewGame) -> Any:
    return (
        json.dumps(g.to_record(), sort_keys=True),
        [json.dumps(g.view(s).to_dict(), sort_keys=True) for s in [None, *range(g.seats)]],
        g.events,
        g.turn_number,
    )


# ---------------------------------------------------------------------------------------------
# protocol


def test_protocol_conformance_and_chance():
    """The GameState protocol: no chance node after construction (the deal is made from the seed)."""
    g = CrewGame(4, seed=1)
    assert isinstance(g, GameState)
    assert g.chance_outcomes() == ()
    with pytest.raises(IllegalActionError):
        g.apply_chance(None)
    with pytest.raises(IllegalActionError):
        g.sample_chance()
    assert (
        g.at_turn_boundary
        and g.turn_number == 0
        and g.players == ("Player 1", "Player 2", "Player 3", "Player 4")
    )
    assert g.scores == (0, 0, 0, 0) and g.winners == () and g.returns() == (0.0,) * 4
    play_out(g, random.Random(1))
    assert g.to_move == TERMINAL and g.legal_actions() == () and g.turn_number == len(g.history)
    if g.outcome.result == "success":
        assert g.winners == (0, 1, 2, 3) and g.returns() == (1.0,) * 4
    else:
        assert g.winners == () and g.returns() == (0.0,) * 4


def test_legal_actions_are_in_a_stable_documented_order():
    g = CrewGame(4, seed=2, tasks=[1, 2, 3, 4, 5], mission={"target": 0})
    la = g.legal_actions()
    assert la == tuple(sorted(la, key=lambda a: int(a.split()[1])))  # "take ID" by id
    g2 = game4([70], [0], {})
    to_play(g2)
    plays = g2.legal_actions()
    assert list(plays) == sorted(plays, key=lambda a: DECK.index(a.split()[1]))  # deck order


# ---------------------------------------------------------------------------------------------
# section 3: player counts


def test_R_3_1_three_seats_one_extra_card_never_played():
    """R-3.1: with N = 3 one seat holds 14 cards and one card is never played."""
    g = CrewGame(3, seed=4, tasks=[73], assignment={73: 0}, mission={"target": 0, "communication": "none"})
    assert sorted(g.hand_counts) == [13, 13, 14]
    no_distress(g)
    rng = random.Random(0)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert len(g.tricks) == 13 and sum(g.hand_counts) == 1


def test_R_3_2_last_trick_is_trick_T():
    """R-3.2: the last trick of a deal is trick T (13 / 10 / 8)."""
    for n, t in ((3, 13), (4, 10), (5, 8)):
        g = CrewGame(
            n, seed=1, tasks=[73], assignment={73: 0}, mission={"target": 0, "communication": "none"}
        )
        assert g.tricks_total == t
        no_distress(g)
        play_out(g, random.Random(n))
        assert len(g.tricks) == t and g.outcome.trick == t  # task 73 is decided by trick T


# ---------------------------------------------------------------------------------------------
# section 4: setup and deal


def test_R_4_1_deal_all_cards_clockwise_from_the_extra_card_seat():
    """R-4.1: all 40 cards are dealt; with N = 3 the starting seat gets 14 (seat0 option: seat 0)."""
    g = CrewGame(3, seed=5, options={"extra_card_seat": "seat0"})
    assert g.hand_counts == (14, 13, 13)
    assert sorted(c for s in range(3) for c in g.hand(s)) == sorted(DECK)
    # random start seat: drawn from the seed, every seat possible
    starts = {CrewGame(3, seed=s).hand_counts.index(14) for s in range(30)}
    assert starts == {0, 1, 2}


def test_R_4_2_tokens_available_and_distress_unused():
    """R-4.2: every seat gets an available sonar token; the distress token is unused."""
    g = CrewGame(4, seed=1)
    assert g.tokens == ("available",) * 4
    assert not g.distress_used and g.view(0).to_dict()["distress"]["used"] is False
    no_distress(g) if g.step == "distress" else None
    while g.step == "assign":
        g.apply(g.legal_actions()[0])
    assert g.view(0).to_dict()["distress"]["available"] is True
    no_distress(g)
    assert g.view(0).to_dict()["distress"]["available"] is False


def test_R_4_3_holder_of_S4_is_captain():
    """R-4.3: the seat holding S4 becomes captain."""
    for seed in range(5):
        g = CrewGame(4, seed=seed)
        assert "S4" in g.hand(g.captain)


def test_R_4_4_every_attempt_redeals():
    """R-4.4: a new attempt reshuffles and redeals all 40 cards."""
    g = game4([70], [1], {0: ["S4"]}, seed=3, mission={"target": 0, "communication": "none"})
    no_distress(g)
    g.apply("play S4")  # seat 0 takes trick 1: task 70 of seat 1 fails
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    assert g.outcome.result == "failure"
    nxt = g.next_attempt("same")
    assert nxt.dealt != g.dealt and nxt.attempt == 2


def test_R_4_5_tonoja_seat_order():
    """R-4.5: two humans add Tonoja; tonoja_seat_order fixes where it sits."""
    g = CrewGame(["Ann", "Bob"], seed=1)
    assert g.players == ("Ann", "Bob", "Tonoja") and g.dummy == 2 and g.humans == (0, 1)
    g = CrewGame(["Ann", "Bob"], seed=1, options={"tonoja_seat_order": "H0-T-H1"})
    assert g.players == ("Ann", "Tonoja", "Bob") and g.dummy == 1 and g.humans == (0, 2)


def test_R_4_6_two_player_deal():
    """R-4.6: Tonoja gets 7 face-down + 7 face-up cards, never S4; the humans 13 each."""
    for seed in range(10):
        g = CrewGame(2, seed=seed)
        assert g.hand_counts == (13, 13, 14)
        cols = g.dummy_columns
        assert len(cols) == 7 and all(u is not None and d is not None for u, d in cols)
        assert "S4" not in g.hand(2) and g.captain in (0, 1)


def test_R_4_7_captain_decides_for_tonoja():
    """R-4.7 / R-5.4: the captain takes Tonoja's tasks and plays its cards."""
    g = CrewGame(2, seed=3, deal=tonoja_deal(h0=["S4"]), tasks=[1, 2, 3], mission={"target": 0})
    assert g.captain == 0
    g.apply("take 1")  # captain (seat 0)
    g.apply("take 2")  # seat 1
    assert g.to_move == 0 and g.acting_for == 2  # Tonoja's turn: the captain chooses
    g.apply("take 3")
    assert [t.owner for t in g.tasks] == [0, 1, 2]


def test_R_4_8_only_face_up_cards_playable_and_turned_after_the_trick():
    """R-4.8: Tonoja plays face-up cards only; the covered card turns up after the trick."""
    deal = tonoja_deal(h0=["S4", "P1"], down=["G5"], up=["P9"])
    g = CrewGame(
        2,
        seed=1,
        deal=deal,
        tasks=[],
        mission={"target": 0, "communication": "none"},
        options={"extra_card_seat": "seat0"},
    )
    # captain 0 leads P1, seat 1 follows, Tonoja (captain acting) plays P9 from column 0
    to_play(g)
    g.apply("play P1")
    h1_pink = [c for c in g.hand(1) if c[0] == "P"]
    g.apply(f"play {h1_pink[0]}" if h1_pink else g.legal_actions()[0])
    assert g.to_move == 0 and g.acting_for == 2
    legal = g.legal_actions()
    assert all(a.split()[1] in {u for u, _ in g.dummy_columns} for a in legal)
    assert "play G5" not in legal
    g.apply("play P9")
    assert g.dummy_columns[0] == ("G5", None)  # turned up after the trick
    assert {"type": "flip", "column": 0, "card": "G5"} in g.events


def test_R_4_9_tonoja_follows_suit_with_face_up_cards_only():
    """R-4.9 / edge case 32: a face-down card of the led suit creates no obligation."""
    up = ["Y1", "Y2", "Y3", "B1", "B2", "B3", "G1"]
    deal = tonoja_deal(h0=["S4", "P1"], down=["P9"], up=up)
    g = CrewGame(2, seed=1, deal=deal, tasks=[], mission={"target": 0, "communication": "none"})
    to_play(g)
    g.apply("play P1")
    g.apply(g.legal_actions()[0])
    legal = g.legal_actions()  # Tonoja: no face-up pink, so anything face up
    assert sorted(a.split()[1] for a in legal) == sorted(up)
    g.apply("play Y1")
    assert g.voids[2] == ()  # a dummy's discard reveals no void
    assert g.dummy_columns[0] == ("P9", None)


def test_R_4_10_tonoja_never_communicates_and_may_own_captain_tasks():
    """R-4.10: Tonoja has no token; it may own any task, 94-96 included."""
    g = CrewGame(2, seed=2, deal=tonoja_deal(h0=["S4"]), tasks=[94], assignment={94: 2})
    assert g.tokens[2] is None and g.tokens[0] == "available"
    assert g.tasks[0].owner == 2
    offered = []
    while g.step == "communicate":
        offered.append(g.to_move)
        g.apply("pass")
    assert offered == [0, 1]  # Tonoja (seat 2) is never offered a window


def test_R_4_11_tonoja_ends_with_one_card():
    """R-4.11: after 13 tricks Tonoja keeps one unplayed card."""
    g = CrewGame(2, seed=7, tasks=[73], assignment={73: 0}, mission={"target": 0, "communication": "none"})
    play_out(g, random.Random(2))
    assert len(g.tricks) == 13 and g.hand_counts[2] == 1 and len(g.hand(2)) == 1


def test_R_4_12_two_player_options():
    """R-4.12 / R-9.7 / R-11.11: two-player rapture tokens and distress are options."""
    m = {"target": 0, "communication": "rapture"}
    assert CrewGame(2, seed=1, mission=m, tasks=[]).shared_tokens == 1
    g = CrewGame(2, seed=1, mission=m, tasks=[], options={"two_player_rapture_tokens": "humans_only"})
    assert g.shared_tokens == 0
    g = CrewGame(2, seed=1, tasks=[])
    assert g.step in ("communicate", "play")  # distress off by default with two players
    g = CrewGame(2, seed=1, tasks=[], options={"two_player_distress": "humans_swap"})
    assert g.step == "distress" and g.legal_actions() == ("distress cw", "no distress")


# ---------------------------------------------------------------------------------------------
# section 5: the captain


def test_R_5_1_captain_recomputed_after_a_redeal():
    """R-5.1: the captain is recomputed after every (re)deal."""
    deal = fill(5, {4: ["S1", "S2", "S3"], 0: ["S4"]})
    g = CrewGame(5, seed=11, deal=deal, tasks=[34])
    assert any(e["type"] == "redeal" for e in g.events)
    assert "S4" in g.hand(g.captain)
    caps = [e["captain"] for e in g.events if e["type"] == "deal"]
    assert caps[-1] == g.captain


def test_R_5_2_captain_chooses_first_and_leads_trick_1():
    """R-5.2: the captain chooses first in the assignment and leads trick 1."""
    g = CrewGame(4, seed=3, tasks=[1, 2, 3, 4], mission={"target": 0})
    assert g.to_move == g.captain and g.step == "assign"
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    to_play(g)
    assert g.to_move == g.captain and g.leader == g.captain


def test_R_5_3_captain_never_owns_captain_comparison_tasks():
    """R-5.3 / R-7.12: the captain may not take 94, 95, 96 (in every mode)."""
    g = CrewGame(4, seed=3, tasks=[94, 1], mission={"target": 0})
    assert "take 94" not in g.legal_actions()
    with pytest.raises(SetupError):
        CrewGame(4, seed=3, tasks=[94], assignment={94: CrewGame(4, seed=3).captain})
    g = CrewGame(4, seed=3, tasks=[94, 1], mission={"target": 0, "allocation": "free"})
    cap = g.captain
    assert all(f"94:{cap}" not in a for a in g.legal_actions())
    with pytest.raises(IllegalActionError):
        g.apply(f"propose 94:{cap} 1:{cap}")


def test_R_5_6_captain_is_otherwise_ordinary():
    """R-5.6: the captain follows suit like everyone (no special play rule)."""
    g = game4([], [], {0: ["S4", "P1", "P2"], 1: ["P9"]})
    to_play(g)
    assert g.captain == 0
    g.apply("play P1")
    assert g.legal_actions() == ("play P9",)


# ---------------------------------------------------------------------------------------------
# section 6: missions and tasks


def test_R_6_1_random_mission_by_target():
    """R-6.1 / R-6.3: a random mission draws tasks whose difficulties add up to the target."""
    for n in (3, 4, 5):
        g = CrewGame(n, seed=n, target=7)
        assert sum(TASKS[t].difficulty_for(n) for t in g.task_ids) == 7


def test_R_6_7_and_R_6_8_drawn_tasks_are_possible_for_the_allocation():
    """R-6.7 / R-6.8: the game's draw is repaired until some assignment of the allocation mode
    passes the static checks (70 and 71 never reach two seats under normal allocation)."""
    from dsa_widget.crew.draw import possible

    for seed in range(15):
        for alloc in ("normal", "free", "skip_captain"):
            g = CrewGame(4, seed=seed, mission={"target": 6, "allocation": alloc})
            assert possible(g.task_ids, seats=4, allocation=alloc, table=TASKS, tricks_total=10)


def test_R_6_5_target_zero_no_tasks():
    """R-6.5: target 0 and no fixed tasks: no tasks, the outcome depends on constraints only."""
    g = CrewGame(4, seed=1, target=0)
    assert g.task_ids == () and g.step == "distress"


def test_fixed_tasks_are_used_in_order():
    """6.1: ``fixed_tasks`` replace the draw (never checked or repaired, R-6.8)."""
    g = CrewGame(4, seed=1, mission=Mission(fixed_tasks=(80, 89, 86, 74)))
    assert g.task_ids == (80, 89, 86, 74)


def test_R_6_9_retry_same_or_new_tasks():
    """R-6.9: after a failure, the same tasks (assigned again from scratch) or new ones."""
    g = CrewGame(4, seed=8, target=4)
    rng = random.Random(5)
    while True:
        play_out(g, rng)
        if g.outcome.result == "failure":
            break
        g = CrewGame(4, seed=rng.randrange(99), target=4)
    same = g.next_attempt("same")
    assert same.task_ids == g.task_ids and all(t.owner is None for t in same.tasks)
    new = g.next_attempt("new")
    assert sum(TASKS[t].difficulty_for(4) for t in new.task_ids) == 4 and new.attempt == 2
    with pytest.raises(IllegalActionError):
        g.next_attempt()  # retry_tasks=ask: the crew must say
    with pytest.raises(IllegalActionError):
        CrewGame(4, seed=1).next_attempt("same")  # no failure yet


def test_R_6_10_deal_exception_redeals_and_keeps_the_tasks():
    """R-6.10: a deal that makes a drawn task impossible is redealt; the tasks are kept."""
    deal = fill(4, {2: ["S2", "S3", "S4"]})
    g = CrewGame(4, seed=2, deal=deal, tasks=[31, 1])
    assert g.task_ids == (31, 1)
    assert g.events[2] == {"type": "redeal", "task": 31, "seat": 2}
    for s in range(4):
        assert not {"S2", "S3", "S4"} <= set(g.hand(s))


def test_R_6_11_phase_order():
    """R-6.11: timing, terrain, deal, tasks, exceptions, assignment, distress, predictions, timer,
    tricks, result - in this order."""
    m = Mission(target=3, communication="terrain", timer_seconds=60, untimed={"target": 3})
    g = CrewGame(4, seed=3, mission=m)
    assert g.step == "timing" and g.to_move == 0 and g.task_ids == ()
    g.apply("timed")
    kinds = [e["type"] for e in g.events]
    assert kinds[:4] == ["timing", "terrain", "deal", "tasks"]
    while g.step == "assign":
        g.apply(g.legal_actions()[0])
    assert g.step == "distress" and not g.timer_started
    no_distress(g)
    assert g.timer_started and g.step in ("communicate", "play")
    kinds = [e["type"] for e in g.events]
    assert kinds.index("assignment" if "assignment" in kinds else "take") < kinds.index("timer")


# ---------------------------------------------------------------------------------------------
# section 7: assignment


def test_R_7_1_captain_then_clockwise_one_task_per_turn():
    """R-7.1: the captain chooses first, then the seats clockwise, one task per turn."""
    g = CrewGame(4, seed=3, tasks=[1, 2, 3, 4, 5, 6], mission={"target": 0})
    cap = g.captain
    movers = []
    while g.step == "assign":
        movers.append(g.to_move)
        g.apply(g.legal_actions()[0])
    assert movers == [(cap + i) % 4 for i in range(6)]


def test_R_7_2_k_at_least_N_nobody_passes_and_counts():
    """R-7.2: k >= N: no pass; the seat at distance i ends with ceil((k - i) / N) tasks."""
    g = CrewGame(4, seed=3, tasks=[1, 2, 3, 4, 5, 6], mission={"target": 0})
    cap = g.captain
    while g.step == "assign":
        assert "pass" not in g.legal_actions()
        g.apply(g.legal_actions()[-1])
    counts = [sum(1 for t in g.tasks if t.owner == (cap + i) % 4) for i in range(4)]
    assert counts == [2, 2, 1, 1]


def test_R_7_3_and_edge_21_fewer_tasks_than_seats():
    """R-7.3 / edge case 21: k < N: one round, a pass refused when it would leave too few choosers."""
    g = CrewGame(4, seed=3, tasks=[1, 2], mission={"target": 0})
    assert "pass" in g.legal_actions()  # captain: 3 seats after it >= 2 tasks
    g.apply("pass")
    assert "pass" in g.legal_actions()  # 2 after >= 2
    g.apply("pass")
    assert "pass" not in g.legal_actions()  # 1 after < 2: must take
    g.apply("take 1")
    assert "pass" not in g.legal_actions()
    g.apply("take 2")
    owners = [t.owner for t in g.tasks]
    assert sorted(owners) == sorted([(g.captain + 2) % 4, (g.captain + 3) % 4])


def test_R_7_4_and_edge_20_captain_comparison_deadlock_prevent():
    """R-7.4 / edge case 20 (default prevent): a choice that would leave the captain too few tasks
    it may own is refused."""
    g = CrewGame(4, seed=3, tasks=[94, 95, 1, 2, 3], mission={"target": 0})
    g.apply("take 1")  # captain (quota 2)
    g.apply("take 2")
    legal = g.legal_actions()
    assert "take 3" not in legal and set(legal) == {"take 94", "take 95"}
    with pytest.raises(IllegalActionError):
        g.apply("take 3")


def test_R_7_4_captain_comparison_deadlock_fail_and_skip():
    """R-7.4: ``fail`` fails the attempt (counted); ``skip_turn`` passes the captain's turn."""
    g = CrewGame(
        4,
        seed=3,
        tasks=[94, 95, 1, 2, 3],
        mission={"target": 0},
        options={"captain_comparison_deadlock": "fail"},
    )
    for a in ("take 1", "take 2", "take 3", "take 94"):
        g.apply(a)
    assert g.is_over and g.outcome == ("failure", 0, "captain_comparison_deadlock")
    g = CrewGame(
        4,
        seed=3,
        tasks=[94, 95, 1, 2, 3],
        mission={"target": 0},
        options={"captain_comparison_deadlock": "skip_turn"},
    )
    cap = g.captain
    for a in ("take 1", "take 2", "take 3", "take 94"):
        g.apply(a)
    assert g.to_move == (cap + 1) % 4 and g.legal_actions() == ("take 95",)
    g.apply("take 95")
    assert sum(1 for t in g.tasks if t.owner == cap) == 1


def test_R_7_5_assignment_is_final():
    """R-7.5: once assigned, no take or pass is legal any more."""
    g = CrewGame(4, seed=3, tasks=[1], mission={"target": 0})
    g.apply("take 1")
    with pytest.raises(IllegalActionError):
        g.apply("take 1")
    assert g.tasks[0].owner == g.captain


def test_R_7_6_free_selection_proposal_and_confirmations():
    """R-7.6: a complete proposal, confirmed by every other human; a reject asks again."""
    g = CrewGame(4, seed=3, tasks=[1, 2], mission={"target": 0, "allocation": "free"})
    cap = g.captain
    assert g.step == "propose" and g.to_move == cap
    g.apply(f"propose 1:{cap} 2:{cap}")  # uneven is fine
    assert g.step == "confirm" and g.to_move == (cap + 1) % 4
    g.apply("reject")
    assert g.step == "propose" and g.to_move == (cap + 1) % 4
    o = (cap + 1) % 4
    g.apply(f"propose 1:{o} 2:{(cap + 2) % 4}")
    for _ in range(3):
        g.apply("confirm")
    assert [t.owner for t in g.tasks] == [o, (cap + 2) % 4]
    with pytest.raises(IllegalActionError):
        CrewGame(4, seed=3, tasks=[1, 2], mission={"target": 0, "allocation": "free"}).apply("propose 1:0")


def test_R_7_7_one_owner():
    """R-7.7: one seat takes every task (it must be allowed to own all of them)."""
    g = CrewGame(4, seed=3, tasks=[1, 94], mission={"target": 0, "allocation": "one_owner"})
    cap = g.captain
    legal = g.legal_actions()
    assert len(legal) == 3 and all(f":{cap}" not in a for a in legal)
    g.apply(legal[0])
    while g.step == "confirm":
        g.apply("confirm")
    assert len({t.owner for t in g.tasks}) == 1


def test_R_7_8_captain_decides_and_comm_until_trick_1():
    """R-7.8: the captain keeps every task or gives all to a seat that accepts; given away,
    communication is allowed only before trick 1."""
    g = CrewGame(4, seed=3, tasks=[1, 2], mission={"target": 0, "allocation": "captain_decides"})
    cap = g.captain
    assert g.legal_actions()[0] == "keep"
    other = (cap + 2) % 4
    g.apply(f"give {other}")
    assert g.step == "accept" and g.to_move == other
    g.apply("decline")
    assert g.step == "decide" and g.to_move == cap
    g.apply(f"give {other}")
    g.apply("accept")
    assert {t.owner for t in g.tasks} == {other} and g.comm_window == (1, 1)
    k = CrewGame(4, seed=3, tasks=[1, 2], mission={"target": 0, "allocation": "captain_decides"})
    k.apply("keep")
    assert k.comm_window == (1, 10)


def test_R_7_9_volunteers():
    """R-7.9: seats asked clockwise from the one after the captain, the captain last; the last
    seats are volunteers without being asked when they are as many as the missing ones."""
    g = CrewGame(4, seed=3, tasks=[1, 2], mission={"target": 0, "allocation": "volunteers"})
    cap = g.captain
    asked = []
    for _ in range(3):
        asked.append(g.to_move)
        g.apply("no")
    assert asked == [(cap + 1) % 4, (cap + 2) % 4, (cap + 3) % 4]
    assert {t.owner for t in g.tasks} == {cap}  # the captain, not asked
    g = CrewGame(4, seed=3, tasks=[1, 2], mission={"target": 0, "allocation": "volunteers", "volunteers": 2})
    g.apply("yes")
    g.apply("no")
    # two still to ask (seat cap+3 and the captain), one missing: seat cap+3 is asked
    assert g.step == "volunteer"
    g.apply("yes")
    assert g.step == "propose"
    vols = sorted({(cap + 1) % 4, (cap + 3) % 4})
    assert all(
        a.count(":") == 2 and {int(p.split(":")[1]) for p in a.split()[1:]} <= set(vols)
        for a in g.legal_actions()
    )
    g.apply(g.legal_actions()[-1])
    g.apply("confirm")
    assert {t.owner for t in g.tasks} <= set(vols)


def test_R_7_9_volunteers_never_force_a_forbidden_task_on_the_captain():
    """R-7.9 / R-7.12: with task 94 the captain cannot volunteer; the last other seat must say yes."""
    g = CrewGame(4, seed=3, tasks=[94, 1], mission={"target": 0, "allocation": "volunteers"})
    cap = g.captain
    g.apply("no")
    g.apply("no")
    assert g.to_move == (cap + 3) % 4 and g.legal_actions() == ("yes",)
    g.apply("yes")
    assert {t.owner for t in g.tasks} == {(cap + 3) % 4}


def test_R_7_10_captain_first_hardest():
    """R-7.10: the captain's first choice is the hardest task, the earliest drawn among equals."""
    g = CrewGame(
        4, seed=3, tasks=[1, 35, 16, 2], mission={"target": 0, "allocation": "captain_first_hardest"}
    )
    # d4: 1 -> 1, 35 -> 4, 16 -> 5, 2 -> 1
    assert g.legal_actions() == ("take 16",)
    g = CrewGame(4, seed=3, tasks=[15, 35, 1], mission={"target": 0, "allocation": "captain_first_hardest"})
    assert g.legal_actions() == ("take 15",)  # both 4: the earlier drawn


def test_R_7_11_skip_captain():
    """R-7.11: the captain has no turn and no task; counts over the other seats."""
    g = CrewGame(4, seed=3, tasks=[1, 2, 3, 4], mission={"target": 0, "allocation": "skip_captain"})
    cap = g.captain
    movers = []
    while g.step == "assign":
        movers.append(g.to_move)
        g.apply(g.legal_actions()[0])
    assert movers == [(cap + 1) % 4, (cap + 2) % 4, (cap + 3) % 4, (cap + 1) % 4]
    assert all(t.owner != cap for t in g.tasks)
    to_play(g)
    assert g.leader == cap


# ---------------------------------------------------------------------------------------------
# section 8: predictions


def test_R_8_1_prediction_before_play_and_on_take():
    """R-8.1: the owner fixes 0 <= X <= T, by default after distress; ``on_take`` at once."""
    g = CrewGame(4, seed=3, tasks=[84], assignment={84: 2})
    no_distress(g)
    assert g.step == "predict" and g.to_move == 2
    assert g.legal_actions() == tuple(f"predict {x}" for x in range(11))
    g.apply("predict 3")
    assert g.tasks[0].prediction == 3 and g.step in ("communicate", "play")
    g = CrewGame(4, seed=3, tasks=[84, 1], mission={"target": 0}, options={"prediction_timing": "on_take"})
    g.apply("take 84")
    assert g.step == "predict" and g.to_move == g.captain
    g.apply("predict 2")
    assert g.step == "assign"


def test_R_8_2_secret_prediction_hidden_until_resolved():
    """R-8.2: an open X is public; a secret X only for its owner until resolved or the end."""
    g = CrewGame(4, seed=3, tasks=[84, 85], assignment={84: 1, 85: 2})
    no_distress(g)
    g.apply("predict 4")
    g.apply("predict 0")
    for s in (None, 0, 1, 3):
        t = g.view(s).to_dict()["tasks"]
        assert t[0]["prediction"] == 4 and t[1]["prediction"] is None and t[1]["prediction_hidden"]
    assert g.view(2).to_dict()["tasks"][1]["prediction"] == 0
    assert all("value" not in e for e in g.events if e["type"] == "predict" and e["task"] == 85)
    play_out(g, random.Random(1))
    assert g.view(0).to_dict()["tasks"][1]["prediction"] == 0


def test_R_8_3_prediction_cannot_change():
    """R-8.3: X is fixed once."""
    g = CrewGame(4, seed=3, tasks=[84], assignment={84: 2})
    no_distress(g)
    g.apply("predict 3")
    with pytest.raises(IllegalActionError):
        g.apply("predict 4", seat=2)


def test_edge_31_prediction_above_T_refused():
    """Edge case 31: X > T is refused."""
    g = CrewGame(4, seed=3, tasks=[84], assignment={84: 2})
    no_distress(g)
    with pytest.raises(IllegalActionError):
        g.apply("predict 11")


def test_tonoja_prediction_by_the_captain_and_secret_to_the_captain():
    """R-4.7 / R-8.2: the captain predicts for Tonoja and alone sees a secret X."""
    g = CrewGame(2, seed=3, deal=tonoja_deal(h0=["S4"]), tasks=[85], assignment={85: 2})
    assert g.step == "predict" and g.to_move == 0
    g.apply("predict 5")
    assert g.view(0).to_dict()["tasks"][0]["prediction"] == 5
    assert g.view(1).to_dict()["tasks"][0]["prediction"] is None


# ---------------------------------------------------------------------------------------------
# section 9: distress


def test_R_9_1_distress_only_before_communication_and_play():
    """R-9.1 / edge case 25: distress after the deal and assignment, never once play has begun."""
    g = CrewGame(4, seed=3, tasks=[1], mission={"target": 0})
    assert "distress cw" not in g.legal_actions()  # assignment first
    g.apply("take 1")
    assert g.step == "distress"
    no_distress(g)
    g.apply(g.legal_actions()[0])  # a communication
    with pytest.raises(IllegalActionError):
        g.apply("distress cw")


def test_R_9_2_unanimous_and_any_human():
    """R-9.2: unanimous: every human agrees (one refusal ends it); any_human: at once."""
    g = game4([1], [0], {})
    g.apply("distress cw")
    assert g.step == "distress_vote"
    g.apply("agree")
    g.apply("refuse")
    assert not g.distress_this_attempt and g.step in ("communicate", "play")
    g = game4([1], [0], {}, options={"distress_activation": "any_human"})
    g.apply("distress ccw")
    assert g.step == "distress_give"


def test_R_9_3_and_example_18_8_distress_counterclockwise():
    """R-9.3 / 18.8: every seat chooses a card, hidden until all chose, then all pass at once
    (counterclockwise: seat 0 -> seat 3)."""
    fixed = {0: ["P9", "S4"], 1: ["G1"], 2: ["B5"], 3: ["Y2"]}
    g = game4([1], [1], fixed, pure=False)
    g.apply("distress ccw")
    for _ in range(3):
        g.apply("agree")
    gives = {0: "P9", 1: "G1", 2: "B5", 3: "Y2"}
    order = []
    while g.step == "distress_give":
        s = g.to_move
        order.append(s)
        g.apply(f"give {gives[s]}")
        if g.step == "distress_give":
            # hidden: no card has moved and other seats do not see the choice
            assert gives[s] in g.hand(s)
            other = (s + 1) % 4
            assert g.view(other).to_dict()["distress"]["given"] is None
            assert all(a != f"give {gives[s]}" for _, a in g.view(other).public_history if _ == s)
    assert order == [0, 1, 2, 3]
    assert "P9" in g.hand(3) and "G1" in g.hand(0) and "B5" in g.hand(1) and "Y2" in g.hand(2)
    d = g.view(0).to_dict()["distress"]
    assert d["given"] == "P9" and d["received"] == "G1" and d["direction"] == "ccw" and d["given_to"] == 3
    assert g.reported_attempts == 2 and g.captain == 0


def test_R_9_4_and_edge_24_no_submarine_passed():
    """R-9.4 / edge case 24: a submarine is never offered; the captain does not change."""
    fixed = {1: ["S1", "S2", "S3", "P1"], 0: ["S4"]}
    g = game4([1], [1], fixed, options={"distress_activation": "any_human"})
    g.apply("distress cw")
    while g.step == "distress_give":
        legal = g.legal_actions()
        assert legal and all(not a.endswith(("S1", "S2", "S3", "S4")) for a in legal)
        g.apply(legal[0])
    assert g.captain == 0 and "S4" in g.hand(0)


def test_R_9_5_distress_counted_once_per_mission():
    """R-9.5 / R-14.8: the attempt count is one higher; under persistence=mission once only."""
    g = game4(
        [70],
        [1],
        {0: ["S4"]},
        options={"distress_activation": "any_human"},
        mission={"target": 0, "communication": "none"},
    )
    g.apply("distress cw")
    while g.step == "distress_give":
        g.apply(g.legal_actions()[0])
    assert g.reported_attempts == 2
    play(g, "S4")
    play_out(g, random.Random(3))
    assert g.outcome.result == "failure"
    if g.outcome.result == "failure":
        n = g.next_attempt("same")
        assert n.distress_used and n.reported_attempts == 3  # 2 attempts + 1
        while n.step == "assign":
            n.apply(n.legal_actions()[0])
        assert n.step == "distress"  # passing may be repeated
        n.apply("distress cw")
        while n.step == "distress_give":
            n.apply(n.legal_actions()[0])
        assert n.reported_attempts == 3
    g2 = game4([1], [1], {}, options={"distress_persistence": "attempt"}, distress_used=1)
    assert g2.reported_attempts == 2


def test_R_9_6_attempt_goes_on_after_passing():
    """R-9.6: after passing, the attempt continues (nothing to abandon it)."""
    g = game4([1], [1], {}, options={"distress_activation": "any_human"})
    g.apply("distress cw")
    while g.step == "distress_give":
        g.apply(g.legal_actions()[0])
    assert g.step in ("communicate", "play") and not g.is_over


def test_R_9_7_two_player_humans_swap():
    """R-9.7: with two players and humans_swap the two humans swap one card each."""
    deal = tonoja_deal(h0=["S4", "P1"], h1=["G9"])
    g = CrewGame(
        2,
        seed=3,
        deal=deal,
        tasks=[1],
        assignment={1: 2},
        options={"two_player_distress": "humans_swap", "distress_activation": "any_human"},
    )
    g.apply("distress cw")
    g.apply("give P1")
    g.apply("give G9")
    assert "P1" in g.hand(1) and "G9" in g.hand(0) and g.hand_counts == (13, 13, 14)


# ---------------------------------------------------------------------------------------------
# section 10: tricks


def test_R_10_1_winner_leads_next():
    """R-10.1: the captain leads trick 1, the winner of each trick leads the next."""
    g = CrewGame(4, seed=3, tasks=[73], assignment={73: 0}, mission={"target": 0, "communication": "none"})
    no_distress(g)
    assert g.leader == g.captain
    rng = random.Random(3)
    for _ in range(4):
        g.apply(rng.choice(g.legal_actions()))
    assert g.leader == g.tricks[0].winner == g.to_move


def test_R_10_2_follow_suit_including_submarines():
    """R-10.2: follow the led suit if possible; a led submarine must be followed by a submarine;
    discarding a submarine on a colour is allowed only when void (never compulsory)."""
    g = game4(
        [],
        [],
        {0: ["S4", "P1"], 1: ["S1", "G1", "G2"], 2: ["P5", "S2"], 3: ["S3"]},
        mission={"target": 0, "communication": "none"},
    )
    # with tasks=[] the first trick decides; use the legality only
    no_distress(g)
    g.apply("play S4")
    assert g.legal_actions() == ("play S1",)
    g = game4(
        [],
        [],
        {0: ["S4", "P1"], 1: ["S1", "G1"], 2: ["P5", "S2"]},
        mission={"target": 0, "communication": "none"},
    )
    no_distress(g)
    g.apply("play P1")
    legal1 = set(g.legal_actions())
    pinks1 = {c for c in g.hand(1) if c[0] == "P"}
    if pinks1:
        assert legal1 == {f"play {c}" for c in pinks1}
    else:
        assert "play S1" in legal1 and "play G1" in legal1  # void: any card, a submarine allowed
    g.apply(sorted(legal1)[0])
    assert "play S2" not in g.legal_actions()  # seat 2 holds P5: must follow


def test_R_10_3_and_example_18_3_winner():
    """R-10.3 / 18.3: Y4, Y9, S1, Y2 - a submarine is present, seat 0 wins and leads next;
    with G9 instead of S1, seat 3 wins with Y9."""
    fixed = {2: ["S4", "Y4"], 3: ["Y9"], 0: ["S1", "G9"], 1: ["Y2"]}
    # seat 0 must be void in yellow, seat 1 and 3 hold their yellows
    rest_nonyellow = [c for c in DECK if c[0] != "Y" and c not in {x for h in fixed.values() for x in h}]
    yellows = [c for c in DECK if c[0] == "Y" and c not in ("Y4", "Y9", "Y2")]
    deal = [
        ["S1", "G9"] + rest_nonyellow[:8],
        ["Y2"] + yellows[:3] + rest_nonyellow[8:14],
        ["S4", "Y4"] + yellows[3:6] + rest_nonyellow[14:19],
        ["Y9"] + rest_nonyellow[19:28],
    ]
    assert sorted(c for h in deal for c in h) == sorted(DECK)
    for alt, winner in (("S1", 0), ("G9", 3)):
        g = CrewGame(4, seed=1, deal=deal, tasks=[], mission={"target": 0, "communication": "none"})
        no_distress(g)
        assert g.captain == 2
        play(g, "Y4", "Y9", alt, "Y2")
        assert g.tricks[0].winner == winner


def test_R_10_4_a_legal_card_that_fails_a_task_is_accepted():
    """R-10.4: a legal card is accepted even when it makes the mission fail."""
    fixed = {1: ["S4", "P3"], 0: ["P1"], 2: ["P9", "P2"], 3: ["P4", "P5", "P6", "P7", "P8"]}
    g = game4([1], [0], fixed, mission={"target": 0, "communication": "none"})
    no_distress(g)
    assert g.captain == 1
    play(g, "P3", "P9", "P8", "P1")  # seat 2 takes P3: task 1 of seat 0 fails, and that is legal
    assert g.outcome == ("failure", 1, "task 1 failed")


def test_R_10_5_communicated_card_is_played_as_usual():
    """R-10.5: a shown card stays in the hand and is played under the same rules."""
    g = game4([73], [0], {0: ["S4", "P1"]})
    no_distress(g)
    g.apply("comm P1")
    assert "P1" in g.hand(0)
    while g.step == "communicate":
        g.apply("pass")
    g.apply("play P1")
    assert g.view(1).to_dict()["communicated"][0]["played"] is True


def test_R_10_6_evaluation_after_every_trick_and_stop():
    """R-10.6 / R-14.1: statuses after every trick; play stops at failure."""
    g = game4([70], [1], {0: ["S4"]}, mission={"target": 0, "communication": "none"})
    no_distress(g)
    g.apply("play S4")
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    assert g.is_over and g.outcome == ("failure", 1, "task 70 failed")
    assert {"type": "status", "task": 70, "status": "failed"} in g.events


def test_R_10_7_play_is_sequential():
    """R-10.7: only the seat to play may play; nothing else happens inside a trick."""
    g = game4([73], [0], {0: ["S4"]})
    to_play(g)
    lead = g.legal_actions()[0]
    with pytest.raises(IllegalActionError):
        g.apply(lead, seat=1)
    g.apply(lead)
    assert g.legal_actions_for(2) == () and g.to_move == 1


# ---------------------------------------------------------------------------------------------
# section 11: communication


def test_R_11_1_once_per_attempt():
    """R-11.1: each seat with a token communicates once per attempt."""
    g = game4([73], [0], {0: ["S4"]})
    no_distress(g)
    g.apply(g.legal_actions()[0])
    assert g.tokens[0] == "used"
    assert g.to_move == 1  # its turn is over: the token is used
    while not g.is_over and g.trick_number < 3:
        if g.step == "communicate":
            assert g.to_move != 0
            g.apply("pass")
        else:
            g.apply(g.legal_actions()[0])


def test_R_11_2_and_edge_3_4_timing():
    """R-11.2 / edge cases 3, 4: never before assignment, during distress, or mid-trick."""
    g = CrewGame(4, seed=3, tasks=[1], mission={"target": 0}, options={"communication_window": "free"})
    assert all(not a.startswith("comm") for a in g.legal_actions())
    g.apply("take 1")
    assert g.step == "distress"
    for s in range(4):
        assert all(not a.startswith("comm") for a in g.legal_actions_for(s))
    no_distress(g)
    assert g.step == "play" and any(a.startswith("comm") for a in g.legal_actions_for((g.to_move + 1) % 4))
    g.apply(g.legal_actions()[0])  # the leader plays
    other = (g.to_move + 1) % 4
    assert g.legal_actions_for(other) == ()
    with pytest.raises(IllegalActionError):
        g.apply("comm " + g.hand(other)[0], seat=other)


def test_R_11_3_round_and_free_windows():
    """R-11.3: ``round`` offers the seats clockwise from the leader; ``free`` lets any seat
    communicate (apply(action, seat=s)) until the leader plays."""
    g = game4([73], [0], {2: ["S4"]})
    no_distress(g)
    seen = []
    while g.step == "communicate":
        seen.append(g.to_move)
        g.apply("pass")
    assert seen == [2, 3, 0, 1]
    g = game4([73], [0], {2: ["S4"]}, options={"communication_window": "free"})
    no_distress(g)
    assert g.step == "play" and g.to_move == 2
    a = g.legal_actions_for(0)[0]
    g.apply(a, seat=0)
    assert g.tokens[0] == "used" and g.to_move == 2 and g.history[-1] == {"seat": 0, "action": a}


def test_R_11_4_and_example_18_4_what_may_be_shown():
    """R-11.4 / 18.4 / edge case 2: highest, lowest or only of a colour; never a submarine."""
    fixed = {1: ["B3", "B4", "B8", "G6", "S2", "S4", "P1", "P2", "P3", "Y1"]}
    g = game4([73], [0], fixed)
    no_distress(g)
    assert g.to_move == 1
    legal = g.legal_actions()
    assert {"comm B3", "comm B8", "comm G6"} <= set(legal)
    assert "comm B4" not in legal and "comm S2" not in legal and "comm S4" not in legal
    with pytest.raises(IllegalActionError):
        g.apply("comm S2")
    g.apply("comm B8")
    assert g.communications[0].declared == "top"


def test_R_11_5_and_edge_1_forced_and_any_true():
    """R-11.5 / edge case 1: forced: a lone card is *middle*; any_true: a lone card may be called
    any of the three."""
    fixed = {1: ["B3", "B4", "B8", "G6", "S4"]}
    g = game4([73], [0], fixed)
    no_distress(g)
    g.apply("comm G6")
    assert g.communications[0].declared == "middle"
    g = game4([73], [0], fixed, options={"token_position": "any_true"})
    no_distress(g)
    legal = g.legal_actions()
    assert {"comm G6 top", "comm G6 middle", "comm G6 bottom", "comm B8 top", "comm B3 bottom"} <= set(legal)
    assert "comm B8 bottom" not in legal and "comm B8" not in legal
    g.apply("comm G6 top")
    assert g.communications[0].declared == "top"


def test_R_11_6_and_R_11_7_recorded_with_trick_never_updated():
    """R-11.6 / R-11.7 / edge case 6: recorded with the trick number; B3 stays *bottom* after the
    other blues are played."""
    fixed = {1: ["S4", "B3", "B4"], 0: ["B9", "B1"], 2: ["B8", "B2"], 3: ["B7", "B5", "B6"]}
    g = game4([73], [0], fixed, mission={"target": 0})
    no_distress(g)
    g.apply("comm B3")
    while g.step == "communicate":
        g.apply("pass")
    play(g, "B4")
    while len(g.tricks) < 1:
        play(g, next(a.split()[1] for a in g.legal_actions() if a.split()[1][0] == "B"))
    c = g.view(2).to_dict()["communicated"][0]
    assert c == {"seat": 1, "card": "B3", "position": "bottom", "trick": 1, "played": False}


def test_R_11_8_normal_mode_shows_the_position():
    """R-11.8: under normal communication every seat sees the declaration."""
    g = game4([73], [0], {1: ["S4", "B3", "B4"]})
    no_distress(g)
    g.apply("comm B3")
    assert all(g.view(s).to_dict()["communicated"][0]["position"] == "bottom" for s in (None, 0, 1, 2, 3))


def test_R_11_9_currents_position_hidden():
    """R-11.9 / 18.4: under currents the others learn the card only; the seat knows the truth."""
    fixed = {1: ["B3", "B4", "B8", "G6", "S2", "S4"]}
    g = game4([73], [0], fixed, mission={"target": 0, "communication": "currents"})
    no_distress(g)
    assert "comm B4" not in g.legal_actions()  # still checked
    g.apply("comm B8")
    assert g.view(1).to_dict()["communicated"][0]["position"] == "top"
    for s in (None, 0, 2, 3):
        assert g.view(s).to_dict()["communicated"][0]["position"] == "unknown"
    assert g.events[-1]["position"] == "middle"


def test_R_11_10_and_R_11_12_and_example_18_4_rapture():
    """R-11.10 / R-11.12 / 18.4 / edge case 5: N - 2 shared tokens (3 with five seats); seat 1 uses
    two before trick 1 (B8, then G6), seat 4 the last before trick 3; then nobody can communicate."""
    fixed = {1: ["S4", "B3", "B4", "B8", "G6", "S2"]}
    g = CrewGame(
        5,
        seed=1,
        deal=fill(5, fixed),
        tasks=[73],
        assignment={73: 0},
        mission={"target": 0, "communication": "rapture"},
    )
    assert g.shared_tokens == 3 and g.tokens == (None,) * 5
    no_distress(g)
    assert g.to_move == 1
    g.apply("comm B8")
    assert g.to_move == 1  # the same seat keeps its turn while the pool is not empty
    g.apply("comm G6")
    assert g.shared_tokens == 1
    rng = random.Random(1)
    while g.trick_number < 3:
        if g.step == "communicate":
            g.apply("pass")
        else:
            g.apply(rng.choice(g.legal_actions()))
    while g.to_move != 4:
        assert g.step == "communicate"
        g.apply("pass")
    g.apply(next(a for a in g.legal_actions() if a.startswith("comm")))
    assert g.shared_tokens == 0 and g.step == "play"
    for _ in range(5):
        g.apply(g.legal_actions()[0])
    assert g.trick_number == 4 and g.step == "play"  # no window any more
    assert [(c.seat, c.trick) for c in g.communications] == [(1, 1), (1, 1), (4, 3)]


def test_R_11_11_two_player_rapture_pool():
    """R-11.11: with two players the pool holds N - 2 = 1 token (count_tonoja)."""
    g = CrewGame(
        2,
        seed=1,
        deal=tonoja_deal(h0=["S4"]),
        tasks=[73],
        assignment={73: 0},
        mission={"target": 0, "communication": "rapture"},
    )
    assert g.step == "communicate" and g.to_move == 0
    g.apply(g.legal_actions()[0])
    assert g.shared_tokens == 0 and g.step == "play"


def test_R_11_13_and_edge_34_terrain():
    """R-11.13 / edge case 34: a coloured card drawn before the deal sets the mode (1-3 normal,
    4-6 currents, 7-9 rapture); public; a new card for every attempt."""
    for cid, mode in (("P2", "normal"), ("G5", "currents"), ("Y9", "rapture")):
        g = CrewGame(4, seed=1, tasks=[1], mission={"target": 0, "communication": "terrain"}, terrain=cid)
        assert g.communication == mode and g.terrain == cid
        assert g.view(0).to_dict()["terrain"] == cid and g.view(None).to_dict()["communication"] == mode
    cards = set()
    g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1}, mission={"target": 0, "communication": "terrain"})
    for _ in range(6):
        cards.add(g.terrain)
        while not g.is_over:
            to_play(g)
            if not g.is_over:
                g.apply(g.legal_actions()[0])
        if g.outcome.result == "success":
            break
        g = g.next_attempt("same")
    assert len(cards) >= 2 and all(c[0] in "PYBG" for c in cards)


def test_R_11_14_no_communication():
    """R-11.14: mode none: no window at all."""
    g = game4([73], [0], {}, mission={"target": 0, "communication": "none"})
    no_distress(g)
    assert g.step == "play" and all(a.startswith("play") for a in g.legal_actions())
    assert g.tokens == (None,) * 4


def test_comm_window_from_and_until():
    """6.1: the window before trick i is open only if comm_from_trick <= i <= comm_until_trick."""
    g = game4([73], [0], {0: ["S4"]}, mission={"target": 0, "comm_from_trick": 2, "comm_until_trick": 2})
    no_distress(g)
    assert g.step == "play"
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    assert g.step == "communicate" and g.trick_number == 2
    while g.step == "communicate":
        g.apply("pass")
    for _ in range(4):
        g.apply(g.legal_actions()[0])
    assert g.step == "play" and g.trick_number == 3


# ---------------------------------------------------------------------------------------------
# section 12: real time


def test_R_12_1_clock_start():
    """R-12.1: the clock starts when the first window of trick 1 opens (play_phase), or right
    after the assignment; the start is recorded."""
    m = {"target": 0, "timer_seconds": 90}
    g = CrewGame(4, seed=1, tasks=[1], mission=m)
    with pytest.raises(IllegalActionError):
        g.apply("timeout")  # not started
    g.apply("take 1")
    assert not g.timer_started
    no_distress(g)
    assert g.timer_started and {"type": "timer", "started": True, "seconds": 90} in g.events
    assert g.view(0).to_dict()["timer"] == {
        "seconds": 90,
        "started": True,
        "started_at_action": g.timer_started_at,
        "timed": True,
    }
    g = CrewGame(4, seed=1, tasks=[1], mission=m, options={"timer_start": "after_assignment"})
    g.apply("take 1")
    assert g.timer_started and g.step == "distress"


def test_R_12_2_and_edge_33_timeout_mid_trick():
    """R-12.2 / edge case 33: the clock runs out in the middle of a trick: the mission fails at once."""
    g = game4([73], [0], {}, mission={"target": 0, "timer_seconds": 60})
    to_play(g)
    g.apply(g.legal_actions()[0])
    assert "timeout" not in g.legal_actions()
    g.apply("timeout", seat=3)
    assert g.is_over and g.outcome == ("failure", 1, "timeout") and len(g.current_trick) == 1


def test_R_12_3_untimed_choice():
    """R-12.3: the crew may play untimed: the mission's untimed fields replace the timer; the
    choice comes before the draw and is recorded."""
    m = Mission(target=2, timer_seconds=60, untimed={"communication": "none", "target": 5})
    g = CrewGame(4, seed=2, mission=m)
    assert g.step == "timing" and g.legal_actions() == ("timed", "untimed") and g.to_move == 0
    g.apply("untimed")
    assert g.communication == "none" and sum(TASKS[t].difficulty_for(4) for t in g.task_ids) == 5
    assert g.timed is False
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    assert g.result()["timed"] is False and g.view(0).to_dict()["timer"] is None
    t = CrewGame(4, seed=2, mission=m, timed=True)
    assert t.step != "timing" and t.communication == "normal"


# ---------------------------------------------------------------------------------------------
# section 14: outcome


def test_R_14_1_and_edge_10_success_at_once():
    """R-14.1 / edge case 10: every task DONE before the last trick: success at once, the rest is
    not played."""
    g = game4([70], [0], {0: ["S4"]}, mission={"target": 0, "communication": "none"})
    no_distress(g)
    g.apply("play S4")
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    assert g.outcome == ("success", 1, "every task done") and g.hand_counts == (9, 9, 9, 9)
    assert g.legal_actions() == () and g.to_move == TERMINAL


def test_R_14_2_decided_by_the_last_trick():
    """R-14.2: after trick T the mission has succeeded or failed."""
    for seed in range(10):
        g = CrewGame(4, seed=seed, target=3)
        play_out(g, random.Random(seed))
        assert g.outcome.result in ("success", "failure")
        assert all(t.status != "open" for t in g.tasks) or g.outcome.result == "failure"


def test_R_14_3_player_failure_is_counted():
    """R-14.3: a failure caused by play counts as an attempt (unavoidable_failure_vote off)."""
    g = game4([70], [1], {0: ["S4"]}, mission={"target": 0, "communication": "none"})
    no_distress(g)
    g.apply("play S4")
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    assert g.outcome.result == "failure"
    assert g.next_attempt("same").reported_attempts == 2


def test_R_14_4_mission_constraints_evaluated():
    """R-14.4: mission constraints are evaluated after every trick (lead_ban here)."""
    m = {"target": 0, "communication": "none", "constraints": [{"kind": "lead_ban", "suits": ["P"]}]}
    g = game4([], [], {0: ["S4", "P1"]}, mission=m)
    no_distress(g)
    g.apply("play P1")
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    assert g.outcome == ("failure", 1, "constraint 0 (lead_ban) broken")


def test_R_14_5_and_edge_36_lead_ban_illegal():
    """R-14.5 / edge case 36: with mission_lead_ban=illegal a banned card may not be led, unless
    the leader holds only banned cards; then it must lead one and the mission fails."""
    m = {"target": 0, "communication": "none", "constraints": [{"kind": "lead_ban", "suits": ["P"]}]}
    g = game4([], [], {0: ["S4", "P1"]}, mission=m, options={"mission_lead_ban": "illegal"})
    no_distress(g)
    assert "play P1" not in g.legal_actions() and "play S4" in g.legal_actions()
    pinks = [c for c in DECK if c[0] == "P"]
    deal = fill(4, {0: pinks[:9] + ["S4"]})
    m = {"target": 0, "communication": "none", "constraints": [{"kind": "lead_ban", "suits": ["P", "S"]}]}
    g = CrewGame(4, seed=1, deal=deal, tasks=[], mission=m, options={"mission_lead_ban": "illegal"})
    no_distress(g)
    assert g.legal_actions() == tuple(f"play {c}" for c in [*pinks, "S4"])
    g.apply("play P1")
    for _ in range(3):
        g.apply(g.legal_actions()[0])
    assert g.outcome.result == "failure" and "lead_ban" in g.outcome.cause


def test_R_14_6_mission_without_tasks():
    """R-14.6: a mission without tasks succeeds when its constraints are secured."""
    g = CrewGame(4, seed=1, target=0, mission=None)
    no_distress(g)
    while not g.is_over:
        g.apply(g.legal_actions()[-1])
    assert g.outcome.result == "success" and g.outcome.cause == "every constraint secured"


def test_R_14_7_result_records_everything():
    """R-14.7: mission, N, seed, tasks with owners and statuses, trick and cause, communication,
    distress, timed."""
    g = CrewGame(4, seed=5, target=3)
    play_out(g, random.Random(5))
    r = g.result()
    assert set(r) >= {
        "mission",
        "seats",
        "seed",
        "tasks",
        "outcome",
        "communication",
        "distress_used",
        "timed",
    }
    assert r["seats"] == 4 and r["seed"] == 5 and r["outcome"]["cause"]
    assert all(set(t) == {"id", "owner", "status"} for t in r["tasks"])


def test_R_14_8_reported_attempt_count():
    """R-14.8: attempts played + 1 if the distress signal was used."""
    g = CrewGame(4, seed=5, target=3, attempt=3, distress_used=True)
    assert g.reported_attempts == 4


# ---------------------------------------------------------------------------------------------
# section 17: edge cases at game level (1, 2, 3, 4, 5, 6, 10, 20, 21, 24, 25, 31, 33, 34, 36 are above)


def test_edge_26_deal_exception_after_a_redeal():
    """Edge case 26: a redeal that hits an exception again is redealt again; the captain each time."""
    found = False
    for seed in range(200):
        g = CrewGame(3, seed=seed, tasks=[31, 33, 34])
        redeals = [e for e in g.events if e["type"] == "redeal"]
        if len(redeals) >= 2:
            found = True
            deals = [e for e in g.events if e["type"] == "deal"]
            assert len(deals) == len(redeals) + 1
            break
    assert found
    from dsa_widget.crew.cards import mask_of
    from dsa_widget.crew.draw import deal_exception

    assert deal_exception([mask_of(g.hand(s)) for s in range(3)], g.task_ids) is None
    assert "S4" in g.hand(g.captain)


def test_edge_32_tonoja_covered_card_turned_after_the_trick():
    """Edge case 32: Tonoja's covered card of the led colour is not an obligation and turns up
    only after the trick."""
    up = ["Y1", "Y2", "Y3", "B1", "B2", "B3", "G1"]
    g = CrewGame(
        2,
        seed=1,
        deal=tonoja_deal(h0=["S4", "P1"], down=["P9"], up=up),
        tasks=[],
        mission={"target": 0, "communication": "none"},
    )
    to_play(g)
    g.apply("play P1")
    g.apply(g.legal_actions()[0])
    assert g.dummy_columns[0] == ("Y1", "P9")
    g.apply("play Y1")
    assert g.dummy_columns[0] == ("P9", None)
    assert g.view(1).to_dict()["dummy_columns"][0] == {"up": "P9", "down": 0}


def test_example_18_9_deal_exception_five_seats():
    """18.9: N = 5, task 34 drawn, seat 4 holds S1 S2 S3: redeal, recompute the captain, check again."""
    deal = fill(5, {4: ["S1", "S2", "S3"], 1: ["S4"]})
    g = CrewGame(5, seed=7, deal=deal, tasks=[34, 1])
    assert g.events[2]["type"] == "redeal" and g.events[2] == {"type": "redeal", "task": 34, "seat": 4}
    assert "S4" in g.hand(g.captain)
    assert not any({"S1", "S2", "S3"} <= set(g.hand(s)) or {"S2", "S4"} <= set(g.hand(s)) for s in range(5))


# ---------------------------------------------------------------------------------------------
# determinism, records, illegal actions


def test_R_C_2_determinism():
    """R-C.2: the same seed, options, mission and actions give identical states."""
    for seed in range(5):
        a = CrewGame(4, seed=seed, target=4, mission=None)
        b = CrewGame(4, seed=seed, target=4, mission=None)
        rng = random.Random(seed)
        while not a.is_over:
            act = rng.choice(a.legal_actions())
            a.apply(act)
            b.apply(act)
        assert a.to_record() == b.to_record() and a.events == b.events
    m = Mission(target=5, communication="terrain")
    assert CrewGame(3, seed=9, mission=m).to_record() == CrewGame(3, seed=9, mission=m).to_record()


def test_R_C_1_generator_order():
    """R-C.1: terrain card, extra card seat, card shuffle, task shuffle, from one Random(seed)."""
    import dsa_widget.crew.draw as draw
    from dsa_widget.crew.options import resolve_options

    seed = 12
    r = random.Random(seed)
    terrain = r.randrange(36)
    start = r.randrange(3)
    deck = list(range(40))
    r.shuffle(deck)
    tasks = draw.draw_tasks(r, seats=3, target=4, table=TASKS, options=resolve_options()).tasks
    g = CrewGame(3, seed=seed, mission=Mission(target=4, communication="terrain"))
    assert g.terrain == DECK[terrain]
    want: list[list[int]] = [[] for _ in range(3)]
    for i, c in enumerate(deck):
        want[(start + i) % 3].append(c)
    assert not any(e["type"] == "redeal" for e in g.events)
    assert [sorted(DECK.index(c) for c in g.hand(s)) for s in range(3)] == [sorted(h) for h in want]
    assert g.task_ids == tasks


def test_record_round_trip():
    for seed, players in ((1, 4), (2, 2), (3, 3), (4, 5)):
        g = CrewGame(players, seed=seed, target=4)
        play_out(g, random.Random(seed))
        doc = json.loads(json.dumps(g.to_record()))
        assert doc["format"] == "the-crew-deep-sea/record@1" and doc["turns"][0].keys() == {
            "seat",
            "action",
        }
        h = CrewGame.from_record(doc)
        assert h.to_record() == g.to_record() and h.events == g.events
    nxt = g.next_attempt("new") if g.outcome.result == "failure" else None
    if nxt is not None:
        play_out(nxt, random.Random(0))
        assert CrewGame.from_record(nxt.to_record()).to_record() == nxt.to_record()


def test_record_errors_name_key_and_turn():
    g = CrewGame(4, seed=1, target=3)
    play_out(g, random.Random(1))
    doc = g.to_record()
    bad = dict(doc, turns=[*doc["turns"][:2], {"seat": 0, "action": "play Q7"}])
    with pytest.raises(RecordError) as e:
        CrewGame.from_record(bad)
    assert e.value.turn == 3
    with pytest.raises(RecordError) as e:
        CrewGame.from_record(dict(doc, format="x"))
    assert e.value.key == "format"
    with pytest.raises(RecordError) as e:
        CrewGame.from_record(
            dict(doc, chance={}, setup={k: v for k, v in doc["setup"].items() if k != "seed"})
        )
    assert e.value.key == "setup.seed"
    with pytest.raises(RecordError):
        CrewGame.from_record(dict(doc, setup=dict(doc["setup"], seed=doc["setup"]["seed"] + 1)))


def test_play_record_turn():
    g = CrewGame(4, seed=1, target=3)
    h = CrewGame(4, seed=1, target=3)
    play_out(g, random.Random(1))
    for t in g.to_record()["turns"]:
        h.play_record_turn(t)
    assert h.to_record() == g.to_record()


def test_illegal_actions_change_nothing():
    """Illegal actions raise IllegalActionError (with the legal list) and change nothing."""
    rng = random.Random(7)
    junk = [
        "",
        "play",
        "play P0",
        "take 999",
        "comm S1",
        "predict -1",
        "predict 99",
        "give S4",
        "propose 1:9",
        "distress up",
        "timeout",
        "keep",
        17,
        None,
        "pass pass",
    ]
    for seed in range(12):
        mode = rng.choice(["normal", "free", "captain_decides", "volunteers"])
        g = CrewGame(
            rng.choice([2, 3, 4, 5]),
            seed=seed,
            mission={"target": 3, "allocation": mode},
            options={"communication_window": rng.choice(["round", "free"])},
        )
        while not g.is_over:
            legal = g.legal_actions()
            before = snapshot(g)
            wrong = [a for a in junk if a not in legal]
            wrong += rng.sample([x for x in _all_like() if x not in legal], 8)
            for a in wrong:
                with pytest.raises(IllegalActionError) as e:
                    g.apply(a)  # type: ignore[arg-type]
                assert isinstance(e.value.legal, tuple)
            other = (g.to_move + 1) % g.seats
            if legal[0] not in g.legal_actions_for(other):
                with pytest.raises(IllegalActionError):
                    g.apply(legal[0], seat=other)  # not that seat's turn
            assert snapshot(g) == before
            g.apply(rng.choice(legal))


def _all_like() -> list[str]:
    out = []
    for c in DECK:
        out += [f"play {c}", f"comm {c}", f"give {c}"]
    out += [f"take {i}" for i in range(1, 97)] + [f"predict {x}" for x in range(15)]
    return out


def test_clone_is_independent():
    g = CrewGame(4, seed=3, target=3)
    c = g.clone()
    play_out(c, random.Random(0))
    assert g.turn_number == 0 and c.is_over
    m = Mission(target=3, timer_seconds=30, untimed={"target": 2})
    t = CrewGame(4, seed=3, mission=m)
    t2 = t.clone()
    t.apply("untimed")
    t2.apply("untimed")
    assert t.to_record() == t2.to_record()


def test_explicit_setup_checks():
    with pytest.raises(SetupError):
        CrewGame(4, deal=[["P1"]])
    with pytest.raises(SetupError):
        CrewGame(4, tasks=[0])
    with pytest.raises(SetupError):
        CrewGame(1)
    with pytest.raises(SetupError):
        CrewGame(2, deal=[[*fill(3, {})[0]][:13], fill(3, {})[1], fill(3, {})[2]])
    with pytest.raises(SetupError):
        CrewGame(4, seed=1, tasks=[1], assignment={2: 0})
    with pytest.raises(SetupError):
        CrewGame(4, terrain="S1", mission={"target": 0, "communication": "terrain"})


# ---------------------------------------------------------------------------------------------
# properties


def _random_mission(data: Any) -> tuple[int, dict[str, Any], dict[str, Any]]:
    players = data.draw(st.sampled_from([2, 3, 4, 5]))
    alloc = data.draw(
        st.sampled_from(
            [
                "normal",
                "free",
                "one_owner",
                "captain_decides",
                "volunteers",
                "captain_first_hardest",
                "skip_captain",
            ]
        )
    )
    comm = data.draw(st.sampled_from(["normal", "currents", "rapture", "terrain", "none"]))
    target = data.draw(st.integers(0, 6))
    opts = {
        "communication_window": data.draw(st.sampled_from(["round", "free"])),
        "token_position": data.draw(st.sampled_from(["forced", "any_true"])),
        "prediction_timing": data.draw(st.sampled_from(["before_play", "on_take"])),
        "distress_activation": data.draw(st.sampled_from(["unanimous", "any_human"])),
    }
    return players, {"target": target, "allocation": alloc, "communication": comm}, opts


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data(), st.integers(0, 2**32))
def test_random_legal_play_always_ends_and_statuses_never_revert(data, seed):
    """Random legal play ends with success or failure, never raises, statuses never revert."""
    players, m, opts = _random_mission(data)
    try:
        g = CrewGame(players, seed=seed, mission=m, options=opts)
    except SetupError:
        return
    rng = random.Random(seed)
    final: dict[int, str] = {}
    for _ in range(3000):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
        for i, t in enumerate(g.tasks):
            if i in final:
                assert t.status == final[i]
            elif t.status != "open":
                final[i] = t.status
    assert g.is_over and g.outcome.result in ("success", "failure")
    if g.outcome.result == "success":
        assert all(t.status == "done" for t in g.tasks)
    elif g.outcome.cause.startswith("task"):
        assert any(t.status == "failed" for t in g.tasks)


# ---------------------------------------------------------------------------------------------
# review fixes: checks before changes, bounded loops, options honoured


def _running_clock() -> CrewGame:
    g = CrewGame(4, seed=1, tasks=[1], mission={"target": 0, "timer_seconds": 90})
    g.apply("take 1")
    no_distress(g)
    assert g.timer_started
    return g


def _state(g: CrewGame) -> Any:
    return (g.actions, g.events, g.step, g.to_move, g.tasks, g.outcome, [g.hand(s) for s in range(g.seats)])


@pytest.mark.parametrize("seat", ["nobody", 10**50, True, -1, 4, 1.0])
def test_R_12_2_timeout_checks_the_seat_first(seat: Any) -> None:
    """R-12.2: a timeout fails the mission, but only a seat may send it: anything else is refused
    before the timeout is looked at, and nothing changes."""
    g = _running_clock()
    before = _state(g)
    with pytest.raises(IllegalActionError):
        g.apply("timeout", seat=seat)
    assert _state(g) == before
    g.apply("timeout", seat=2)
    assert g.outcome == ("failure", 1, "timeout") and g.actions[-1] == (2, "timeout")


def test_setup_arguments_are_checked_at_construction() -> None:
    """An assignment naming a task the timed (or untimed) setup does not draw is refused by the
    constructor, so that ``apply("timed")`` never fails with the action already in the history."""
    with pytest.raises(SetupError) as e:
        CrewGame(4, seed=1, campaign=14, assignment={5: 0})
    assert e.value.field == "assignment"
    with pytest.raises(SetupError) as e:
        CrewGame(4, seed=1, campaign=14, assignment={5: "x"})  # type: ignore[dict-item]
    assert e.value.field == "assignment"
    g = CrewGame(4, seed=1, campaign=14)
    g.apply("timed")
    assert g.step != "timing" and g.actions == ((0, "timed"),)


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({"distress_used": -5}, "distress_used"),
        ({"distress_used": "yes"}, "distress_used"),
        ({"tasks": 70}, "tasks"),
        ({"tasks": "70"}, "tasks"),
        ({"terrain": 5}, "terrain"),
        ({"deal_check": "no"}, "deal_check"),
        ({"target": -1}, "target"),
        ({"target": "3"}, "target"),
        ({"unavoidable_failures": 1}, "unavoidable_failures"),
        ({"options": {"failure_evaluation": "diagnostic"}}, "failure_evaluation"),
    ],
)
def test_constructor_refuses_bad_values_naming_the_field(kw: dict[str, Any], field: str) -> None:
    with pytest.raises(SetupError) as e:
        CrewGame(4, seed=1, **kw)
    assert e.value.field == field


def test_apply_is_all_or_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """Changing nothing on error: an exception in the middle of a setup action restores the state."""
    g = CrewGame(4, seed=3, tasks=[1, 2], mission={"target": 0, "allocation": "free"})
    cap = g.captain
    g.apply(f"propose 1:{cap} 2:{cap}")
    g.apply("confirm")
    g.apply("confirm")
    before = _state(g)

    def boom(self: CrewGame) -> None:
        raise RuntimeError("midway")

    monkeypatch.setattr(CrewGame, "_after_assignment", boom)
    with pytest.raises(RuntimeError):
        g.apply("confirm")
    assert _state(g) == before and g.step == "confirm"
    monkeypatch.undo()
    g.apply("confirm")
    assert g.step == "distress"


def test_R_7_4_captain_who_cannot_meet_its_quota() -> None:
    """R-7.4 / §17 case 20 (prevent): with 4 tasks for 3 seats the captain must take 2, but it may
    own only task 1 (94-96 are against the captain, R-5.3).  A mission's fixed_tasks doing this
    are refused; explicit tasks end the attempt before trick 1; never an endless loop."""
    with pytest.raises(SetupError) as e:
        CrewGame(3, seed=2, mission={"fixed_tasks": [94, 95, 96, 1]})
    assert e.value.field == "fixed_tasks"
    g = CrewGame(3, seed=2, tasks=[94, 95, 96, 1])
    assert g.is_over and g.outcome == ("failure", 0, "captain_comparison_deadlock")
    with pytest.raises(IllegalActionError):
        g.apply("take 1")
    # skip_turn: the skips are bounded, the assignment completes
    g = CrewGame(3, seed=2, tasks=[94, 95, 96, 1], options={"captain_comparison_deadlock": "skip_turn"})
    rng = random.Random(0)
    while g.step == "assign":
        g.apply(rng.choice(g.legal_actions()))
    assert all(t.owner is not None for t in g.tasks) and g.step == "distress"


@pytest.mark.parametrize(
    "bad", ["propose 70:0 1:\u0661", "propose 070:0 1:00", "propose 70:0 1:\u00b2", "propose 70:0 01:0"]
)
def test_R_7_6_proposals_are_canonical_ascii(bad: str) -> None:
    """R-7.6: a proposal names task ids and seats in canonical ASCII decimal; anything else is an
    IllegalActionError (never a plain ValueError) and changes nothing."""
    g = CrewGame(4, seed=3, tasks=[70, 1], mission={"target": 0, "allocation": "free"})
    before = _state(g)
    with pytest.raises(IllegalActionError):
        g.apply(bad)
    assert _state(g) == before
    g.apply("propose 70:0 1:0")
    assert g.actions == ((g.captain, "propose 70:0 1:0"),)


def test_R_7_6_a_proposal_is_checked_without_listing_them(monkeypatch: pytest.MonkeyPatch) -> None:
    """Applying a proposal does not build the list of legal proposals (it costs milliseconds)."""
    g = CrewGame(4, seed=3, tasks=[70, 1, 2, 3, 4, 5, 6, 7], mission={"target": 0, "allocation": "free"})

    def listing(self: CrewGame) -> list[str]:
        raise AssertionError("listed")

    monkeypatch.setattr(CrewGame, "_proposals", listing)
    g.apply("propose " + " ".join(f"{t}:1" for t in g.task_ids))
    assert g.step == "confirm"


def _failed(**kw: Any) -> CrewGame:
    for seed in range(50):
        g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1}, **kw)
        play_out_until_vote(g, random.Random(seed))
        if g.step == "failure_vote" or (g.is_over and g.outcome.result == "failure"):
            return g
    raise AssertionError("no failure found")


def play_out_until_vote(g: CrewGame, rng: random.Random) -> None:
    while not g.is_over and g.step != "failure_vote":
        g.apply(rng.choice(g.legal_actions()))


def test_R_14_3_unavoidable_failure_vote() -> None:
    """R-14.3: with unavoidable_failure_vote=on the humans may declare, unanimously, that a
    failure was unavoidable so that it is not counted (R-14.8 reported attempts)."""
    g = _failed(options={"unavoidable_failure_vote": "on", "retry_tasks": "same"})
    assert g.step == "failure_vote" and not g.is_over and g.outcome is None
    assert g.pending_failure is not None and g.pending_failure.result == "failure"
    assert g.legal_actions() == ("unavoidable", "avoidable") and g.to_move == g.captain
    with pytest.raises(IllegalActionError):
        g.apply("timeout")
    one = g.clone()
    one.apply("avoidable")  # one "avoidable" ends the vote: counted
    assert one.is_over and one.failure_unavoidable is False and one.reported_attempts == 1
    for _ in range(4):
        g.apply("unavoidable")
    assert g.is_over and g.failure_unavoidable is True and g.reported_attempts == 0
    assert g.result()["outcome"]["unavoidable"] is True
    assert g.events[-1]["type"] == "outcome" and g.events[-1]["unavoidable"] is True
    nxt = g.next_attempt()
    assert nxt.attempt == 2 and nxt.unavoidable_failures == 1 and nxt.reported_attempts == 1
    # off (the default): no vote, counted
    g = _failed()
    assert g.is_over and g.failure_unavoidable is None and g.reported_attempts == 1
    assert "unavoidable" not in g.result()["outcome"]


def lose(g: CrewGame, seed: int = 0) -> CrewGame:
    """Play ``g`` out at random until a failed attempt (the next attempts when it succeeds)."""
    rng = random.Random(seed)
    play_out(g, rng)
    assert g.outcome is not None and g.outcome.result == "failure", "pick another seed"
    return g


def test_R_6_2_used_pile_between_attempts() -> None:
    """R-6.2 / D-13, task_deck_between_missions=used_pile: a new draw leaves out the tasks drawn
    before, until the deck runs low (then all 96 are shuffled back)."""
    opts = {"task_deck_between_missions": "used_pile", "retry_tasks": "new"}
    g = CrewGame(4, seed=5, target=25, options=opts)
    used: set[int] = set()
    reshuffled = False
    for k in range(12):  # 263 difficulty points in all (column d_4): low after 9 draws of 25
        used |= set(g.task_ids)
        g = lose(g, k).next_attempt()
        if any(e["type"] == "task_deck" for e in g.events):
            reshuffled = True
            break
        assert not set(g.task_ids) & used
    assert reshuffled
    # the default draws from every task card again
    g = CrewGame(4, seed=5, target=12, options={"retry_tasks": "new"})
    seen = [set(g.task_ids)]
    for k in range(12):
        g = lose(g, k).next_attempt()
        seen.append(set(g.task_ids))
    assert any(a & b for i, a in enumerate(seen) for b in seen[:i])


def test_R_C_3_a_thousand_redeals_are_logged(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """R-C.3: after 1000 redeals the engine warns (an event and a logging warning) and goes on."""
    import dsa_widget.crew.rules as rules

    calls = {"n": 0}
    real = rules.deal_exception

    def often(dealt: Any, tasks: Any) -> Any:
        calls["n"] += 1
        return (tasks[0], 0) if calls["n"] <= 1001 else real(dealt, tasks)

    monkeypatch.setattr(rules, "deal_exception", often)
    with caplog.at_level("WARNING", logger="dsa_widget.crew.rules"):
        g = CrewGame(4, seed=1, tasks=[1])
    assert any("1000 redeals" in r.getMessage() for r in caplog.records)
    assert {"type": "warning", "message": "1000 redeals"} in g.events


def test_R_14_6_a_mission_without_tasks_or_constraints() -> None:
    """R-14.6 with R-14.1 (evaluated after every trick): nothing to secure, the mission
    succeeds after trick 1 (documented in rules.py)."""
    g = CrewGame(4, seed=1, target=0)
    assert g.task_ids == () and not g.is_over
    rng = random.Random(0)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    assert g.outcome == ("success", 1, "every constraint secured") and len(g.tricks) == 1


def test_R_6_11_every_attempt_asks_timed_or_untimed() -> None:
    """R-6.11 step 1: every attempt runs the timed / untimed choice first (unless ``timed`` was
    given to the constructor)."""
    g = CrewGame(4, seed=1, campaign=14, options={"retry_tasks": "same"})
    assert g.step == "timing"
    nxt = lose(g).next_attempt()
    assert g.timed is not None and nxt.step == "timing" and nxt.timed is None
    g = CrewGame(4, seed=1, campaign=14, timed=False, options={"retry_tasks": "same"})
    assert lose(g).next_attempt().timed is False


def test_record_facts_are_public() -> None:
    g = CrewGame(4, seed=1, campaign=3)
    assert g.campaign == 3 and g.deal_check is True and g.seed_gives_deal is True
    h = CrewGame(4, seed=1, tasks=[1], deal_check=False)
    assert h.campaign is None and h.deal_check is False and h.seed_gives_deal is False
    g = CrewGame(4, seed=1, target=6, options={"retry_tasks": "same"})
    assert lose(g).next_attempt().seed_gives_deal is False  # the generator continued


def test_crew_game_is_a_game_state() -> None:
    """CrewGame is a dsa_widget.core.protocol.GameState (mypy: ``x: GameState = CrewGame(4)``)."""
    x: GameState = CrewGame(4, seed=1)
    assert isinstance(x, GameState) and isinstance(x.clone(), GameState)
    assert x.view(0).seat == 0
