"""Drawing tasks, the static check, repair, deal exceptions (CREW.md 6.2-6.4, Appendix A, C) and
missions (CREW.md 6.1, NOTES.md 5.1)."""

from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.crew import draw as draw_mod
from dsa_widget.crew.cards import mask_of
from dsa_widget.crew.draw import (
    TRICKS,
    DrawResult,
    check_assignment,
    deal_exception,
    draw_tasks,
    possible,
)
from dsa_widget.crew.errors import SetupError
from dsa_widget.crew.mission import CAMPAIGN, Mission, campaign_mission
from dsa_widget.crew.options import resolve_options
from dsa_widget.crew.tasks import TASKS, Task, task_table

OPTS = resolve_options()
ALLOCS = (
    "normal",
    "free",
    "one_owner",
    "captain_decides",
    "volunteers",
    "captain_first_hardest",
    "skip_captain",
)


def deck_starting(*top: int) -> list[int]:
    """A full task deck with ``top`` first, then the other ids in order."""
    return list(top) + [t for t in range(1, 97) if t not in top]


def draw(deck: list[int] | None = None, seed: int = 0, **kw: object) -> DrawResult:
    options = dict(OPTS)
    options.update(kw.pop("options", {}))  # type: ignore[call-overload]
    kw.setdefault("table", TASKS)
    return draw_tasks(random.Random(seed), options=options, deck=deck, **kw)  # type: ignore[arg-type]


def ok(ids: list[int], seats: int, allocation: str = "normal", **kw: object) -> bool:
    return possible(ids, seats=seats, allocation=allocation, table=TASKS, tricks_total=TRICKS[seats], **kw)  # type: ignore[arg-type]


def fails(assignment: dict[int, int], seats: int = 4, captain: int = 0) -> list[str]:
    return check_assignment(assignment, seats=seats, captain=captain, table=TASKS, tricks_total=TRICKS[seats])


def d(tids: tuple[int, ...] | list[int], seats: int) -> int:
    return sum(TASKS[t].difficulty_for(seats) for t in tids)


# ---------------------------------------------------------------------------------------------
# R-6.2 - R-6.4: the draw


def test_r6_3_scan_takes_what_fits_and_stops_at_zero() -> None:
    # 18.1 without the check: 70 taken, 75 set aside, 71 taken, 40 aside, 2 taken, stop
    r = draw(
        deck_starting(70, 75, 71, 40, 2, 27, 4), seats=4, target=3, options={"impossible_draw_check": "off"}
    )
    assert r == DrawResult((70, 71, 2), 0, 0)


def test_r6_3_difficulty_column_of_n() -> None:
    # task 83 is 2 / 3 / 5 for 3 / 4 / 5 seats
    deck = deck_starting(83, 1, 2, 3, 4, 5)
    assert draw(deck, seats=3, target=2).tasks == (83,)
    assert draw(deck, seats=4, target=3).tasks == (83,)
    assert draw(deck, seats=5, target=5).tasks == (83,)
    assert draw(deck, seats=5, target=4).tasks == (1, 2, 3, 4)


def test_r6_4_exhausted_deck_restarts() -> None:
    # a small table: 1 (3), 2 (2), 3 (2), 4 (3) with target 4: the deck 1, 4, 2, 3 runs out at needed 1
    table = {i: TASKS[t] for i, t in zip((1, 2, 3, 4), (75, 40, 41, 42), strict=True)}
    table = {i: Task(i, t.kind, t.params, t.difficulty, t.summary) for i, t in table.items()}
    assert [table[i].difficulty_for(4) for i in (1, 2, 3, 4)] == [3, 2, 2, 3]
    r = draw([1, 4, 2, 3], seats=4, target=4, table=table)
    assert r.restarts >= 1
    assert sorted(r.tasks) == [2, 3]


def test_r6_5_target_zero_draws_nothing() -> None:
    assert draw(seats=4, target=0) == DrawResult((), 0, 0)


def test_setup_errors() -> None:
    with pytest.raises(SetupError) as e:
        draw(seats=6, target=3)
    assert e.value.field == "seats"
    with pytest.raises(SetupError) as e:
        draw(seats=4, target=-1)
    assert e.value.field == "target"
    with pytest.raises(SetupError) as e:
        draw(seats=4, target=264)  # d4 of all 96 tasks add up to 263
    assert e.value.field == "target"
    with pytest.raises(SetupError) as e:
        draw(seats=4, target=3, allocation="auction")
    assert e.value.field == "allocation"
    with pytest.raises(SetupError) as e:
        draw([1, 2, 3], seats=4, target=3)
    assert e.value.field == "deck"


def test_r_c2_same_seed_same_draw() -> None:
    for seed in range(20):
        a = draw_tasks(random.Random(seed), seats=4, target=12, table=TASKS, options=OPTS)
        b = draw_tasks(random.Random(seed), seats=4, target=12, table=TASKS, options=OPTS)
        assert a == b
    draws = {
        draw_tasks(random.Random(s), seats=4, target=12, table=TASKS, options=OPTS).tasks for s in range(20)
    }
    assert len(draws) > 15


def test_r_c1_the_deck_is_a_shuffle_of_1_to_96() -> None:
    for seed in range(10):
        rng = random.Random(seed)
        deck = list(range(1, 97))
        rng.shuffle(deck)
        injected = draw_tasks(rng, seats=4, target=9, table=TASKS, options=OPTS, deck=deck)
        assert draw_tasks(random.Random(seed), seats=4, target=9, table=TASKS, options=OPTS) == injected


def test_edge_27_no_task_twice() -> None:
    for seed in range(30):
        r = draw(seed=seed, seats=3, target=18, allocation="free")
        assert len(set(r.tasks)) == len(r.tasks)


def test_edge_28_target_not_reachable_from_the_rest_restarts() -> None:
    # 33 tasks of difficulty 1 for four seats add up to 13: target 13 ends on the very last one
    # only if no bigger card ever fits; a deck that puts 92 (4) first and leaves needed 1 with
    # no 1 left runs out
    ones = [t for t in range(1, 97) if TASKS[t].difficulty_for(4) == 1]
    others = [t for t in range(1, 97) if TASKS[t].difficulty_for(4) > 1]
    r = draw(ones + others, seats=4, target=len(ones) + 1, options={"impossible_draw_check": "off"})
    assert r.restarts >= 1
    assert d(r.tasks, 4) == len(ones) + 1


# ---------------------------------------------------------------------------------------------
# impossible draws and their repair


def test_18_1_drawing_to_a_target_with_repair() -> None:
    r = draw(deck_starting(70, 75, 71, 40, 2, 27, 4), seats=4, target=3)
    assert r == DrawResult((70, 4, 2), 1, 0)


def test_r6_8_resume_draw() -> None:
    # 71 removed; its difficulty 1 is drawn again from the deck position after 2: 27 (3) no, 4 yes
    r = draw(
        deck_starting(70, 75, 71, 40, 2, 27, 4),
        seats=4,
        target=3,
        options={"replacement_rule": "resume_draw"},
    )
    assert r == DrawResult((70, 2, 4), 1, 0)


def test_r6_8_resume_draw_may_take_several_cards() -> None:
    # N = 3, 18 (2) and 16 (4): 16 removed, needed 4 drawn again as 1 + 1 + 2
    r = draw(deck_starting(18, 16, 1, 2, 39), seats=3, target=6, options={"replacement_rule": "resume_draw"})
    assert r.tasks == (18, 1, 2, 39) and r.repairs == 1


def test_18_2_owner_independent_contradiction() -> None:
    for alloc in ALLOCS:
        assert not ok([18, 16], 3, alloc), alloc
    # 16 (d3 = 4) replaced by the next difficulty-4 card further down: 1 (1) and 15 (3) are skipped
    r = draw(deck_starting(18, 16, 1, 15, 28), seats=3, target=6)
    assert r == DrawResult((18, 28), 1, 0)


def test_r6_8_impossible_draw_check_off_keeps_the_draw() -> None:
    r = draw(deck_starting(18, 16), seats=3, target=6, options={"impossible_draw_check": "off"})
    assert r == DrawResult((18, 16), 0, 0)


def test_r6_8_set_aside_cards_come_back_when_the_deck_runs_out() -> None:
    # captain_first_hardest: 94 (the hardest) would have to go to the captain: the prefix
    # [94] is impossible; the deck is empty, so the set-aside 39 (2) and 94 come back and 39 fits
    table = {t: TASKS[t] for t in (94, 39, 1)}
    r = draw([94, 39, 1], seats=4, target=3, table=table, allocation="captain_first_hardest")
    assert r.tasks == (39, 1) and r.repairs == 1 and r.restarts == 0


def test_r6_8_no_replacement_restarts_and_the_loop_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    # from {70, 71, 75} with four seats, target 2 is always 70 + 71 on two seats: never possible
    monkeypatch.setattr(draw_mod, "_MAX_RESTARTS", 5)
    table = {t: TASKS[t] for t in (70, 71, 75)}
    for rule in ("same_difficulty", "resume_draw"):
        with pytest.raises(SetupError) as e:
            draw(seats=4, target=2, table=table, options={"replacement_rule": rule})
        assert e.value.field == "target"


def test_r6_8_a_hundred_failed_repairs_restart() -> None:
    table = {t: TASKS[t] for t in (70, 71, 75)}
    diff = {t: TASKS[t].difficulty_for(4) for t in table}

    def is_possible(prefix: object, full: object) -> bool:
        return draw_mod._possible(prefix, 4, "normal", 1, table, 10, len(full), None)  # type: ignore[arg-type]

    drawer = draw_mod._Drawer(random.Random(1), sorted(table), diff, 2, True, False, is_possible)
    assert drawer.attempt([70, 71, 75]) is None
    assert drawer.repairs == draw_mod._MAX_REPAIRS == 100


def test_edge_29_impossible_only_for_some_assignments_is_not_repaired() -> None:
    # N = 3, four tasks: the captain takes two, so 70 and 71 can share the captain
    r = draw(deck_starting(70, 71, 2, 3), seats=3, target=4)
    assert r == DrawResult((70, 71, 2, 3), 0, 0)


def test_edge_35_tasks_91_and_92() -> None:
    assert fails({91: 1, 92: 2}) == ["A-9", "A-11"]
    assert fails({91: 1, 92: 1}) == []
    assert not ok([91, 92], 4, "normal")  # k < N: different owners
    assert ok([91, 92], 4, "free")
    r = draw(deck_starting(91, 92, 1, 2, 3, 4), seats=4, target=7)
    assert r.repairs >= 1 and not {91, 92} <= set(r.tasks)
    assert draw(deck_starting(91, 92), seats=4, target=7, allocation="free") == DrawResult((91, 92), 0, 0)


# ---------------------------------------------------------------------------------------------
# A.3: reachable assignments (R-7.2, R-7.3, R-7.7 - R-7.11)


def test_r7_2_counts_by_distance() -> None:
    assert draw_mod._shape("normal", 1, 4, 10)[0] == [3, 3, 2, 2]
    assert draw_mod._shape("normal", 1, 3, 4)[0] == [2, 1, 1]
    assert draw_mod._shape("normal", 1, 5, 5)[0] == [1, 1, 1, 1, 1]
    # over the other seats, from the seat after the captain
    assert draw_mod._shape("skip_captain", 1, 4, 4)[0] == [0, 2, 1, 1]


def test_r7_2_the_captain_may_hold_two_tasks() -> None:
    assert not ok([70, 71, 2, 3], 4)  # k = N: one task each
    assert ok([70, 71, 2, 3, 4], 4)  # k = 5: the captain holds two
    assert not ok([70, 71, 72, 3, 4], 4)  # three tasks need trick 1, only one seat holds two


def test_r7_3_fewer_tasks_than_seats_one_each() -> None:
    assert not ok([70, 71], 5)
    assert ok([70, 1], 5)


def test_r7_4_captain_comparison_tasks() -> None:
    assert not ok([94, 95, 96], 3)  # one each: the captain would own one
    assert ok([94, 95, 96], 4)  # the captain passes
    assert not ok([94, 95, 96, 1], 3)  # counts 2, 1, 1: the captain needs two it may own
    assert ok([94, 95, 96, 5, 1], 4)  # counts 2, 1, 1, 1: the captain takes 5 and 1


def test_a3_prefix_rule_with_full_count() -> None:
    assert not ok([70, 71], 4, full_count=4)
    assert ok([70, 71], 4, full_count=5)
    with pytest.raises(SetupError):
        ok([70, 71], 4, full_count=1)


def test_a3_other_allocation_modes() -> None:
    for alloc in ("one_owner", "captain_decides", "volunteers"):
        assert ok([70, 71], 4, alloc), alloc  # one seat takes both
        assert not ok([80, 70], 4, alloc), alloc  # one seat takes both: A-1
    assert ok([70, 71], 4, "free")
    assert ok([80, 70], 4, "free")  # two seats
    assert ok([80, 70], 4, "volunteers", volunteers=2)
    assert not ok([70, 71], 4, "skip_captain")  # three seats, one each
    assert ok([70, 71, 2, 3], 4, "skip_captain")  # counts 2, 1, 1 over the others
    # the hardest task goes to the captain
    assert not ok([94], 4, "captain_first_hardest")
    assert not ok([94, 96], 4, "captain_first_hardest")  # 96 (3) is the hardest
    assert ok([94, 72], 4, "captain_first_hardest")  # 72 (3) is the hardest


# ---------------------------------------------------------------------------------------------
# A.4: every check fails once and passes once


@pytest.mark.parametrize(
    ("assignment", "seats", "failing", "passing"),
    [
        # win and avoid the same trick (80 + 70 on one seat)
        ({80: 1, 70: 1}, 4, "A-1", {77: 1, 73: 1}),
        # must capture P3 but no pink
        ({39: 1, 1: 1}, 4, "A-2", {39: 1, 2: 1}),
        # four 9s against at most two (18.2, same owner); at least 5 pink against exactly one
        ({18: 1, 16: 1}, 3, "A-3", {18: 1, 1: 1}),
        ({23: 2, 26: 2}, 4, "A-3", {23: 2, 26: 1}),
        # 16's owner takes every 9, 18's owner can capture none (18.2, different owners)
        ({18: 1, 16: 2}, 3, "A-4", {18: 1, 15: 2}),
        # exactly 4 tricks and more than half of 8
        ({83: 1, 92: 1}, 5, "A-5", {83: 1, 91: 1}),
        # 94 on the captain
        ({94: 0}, 4, "A-6", {94: 1}),
        # trick 1 for two seats
        ({70: 0, 71: 1}, 4, "A-7", {70: 0, 71: 0}),
        # P3 for two seats
        ({1: 0, 15: 1}, 4, "A-8", {1: 0, 15: 0}),
        # lo sums 6 + 4 + 1 > 10; hi sum 0 < 10
        ({92: 0, 83: 1, 70: 2}, 4, "A-9", {92: 0, 83: 1}),
        ({80: 0, 75: 1, 76: 2}, 3, "A-9", {80: 0, 75: 1}),
        # at least 3 and exactly 2 of the four 9s on different seats
        ({22: 0, 18: 1}, 4, "A-10", {22: 0, 21: 1}),
        # 93 must end below a seat that takes no trick; 91 + 92 on different seats
        ({93: 1, 80: 2}, 4, "A-11", {93: 1, 82: 2}),
        ({91: 1, 92: 2}, 4, "A-11", {91: 2, 92: 2}),
        # all of a colour, with pink, blue, yellow and green excluded
        ({35: 0, 42: 0, 43: 0}, 4, "A-12", {35: 0, 42: 0}),
        ({35: 0, 42: 0, 4: 1, 2: 2}, 4, "A-12", {35: 0, 42: 0, 2: 1}),
    ],
)
def test_a4_checks(assignment: dict[int, int], seats: int, failing: str, passing: dict[int, int]) -> None:
    assert failing in fails(assignment, seats)
    assert fails(passing, seats) == []


def test_a4_check_names_and_errors() -> None:
    assert fails({}) == []
    assert fails({70: 0, 71: 1, 94: 0}) == ["A-6", "A-7"]
    with pytest.raises(SetupError):
        fails({70: 4})
    with pytest.raises(SetupError):
        fails({97: 0})


def test_a11_captain_relations() -> None:
    # 96 (as many as the captain) and 80 on the captain: 96's owner must take none; 70 needs one
    assert "A-11" in fails({80: 0, 96: 1, 70: 1})
    assert fails({80: 0, 96: 1}) == []
    # 94 (more than the captain) on a seat that takes none
    assert "A-11" in fails({94: 1, 80: 1})
    # 95 (fewer than the captain) when the captain takes none
    assert "A-11" in fails({80: 0, 95: 1})


def test_a2_profiles_of_submarine_tasks() -> None:
    # 33: S1 and no other submarine; 5: capture S3
    assert "A-2" in fails({33: 1, 5: 1})
    assert "A-2" in fails({33: 1, 49: 1})  # S1 but no submarine
    assert fails({33: 1, 34: 2}) == []
    assert fails({33: 1, 5: 2}) == []  # S3 for another seat


# ---------------------------------------------------------------------------------------------
# NOTES.md section 6: the known impossible cases


def test_notes_6_known_impossible_cases() -> None:
    assert "A-7" in fails({70: 1, 71: 2})
    assert fails({18: 0, 16: 0}) and fails({18: 0, 16: 1})
    assert fails({91: 0, 92: 1}) and fails({91: 1, 92: 0})
    assert fails({39: 1, 26: 1})
    assert fails({80: 2, 70: 2})
    assert fails({83: 1, 92: 1}, 5) and fails({83: 1, 92: 2}, 5)
    assert fails({94: 0}) == ["A-6"]
    for alloc in ALLOCS:
        assert not ok([83, 92], 5, alloc), alloc
        assert not ok([18, 16], 4, alloc), alloc


# ---------------------------------------------------------------------------------------------
# deal exceptions


@pytest.mark.parametrize(
    ("task", "hand", "near_miss"),
    [
        (30, ["S1", "S2", "S3", "S4"], ["S1", "S2", "S3"]),
        (31, ["S2", "S3", "S4"], ["S1", "S3", "S4"]),
        (32, ["S1", "S2", "S3", "S4"], ["S2", "S3", "S4"]),
        (33, ["S1", "S4"], ["S1", "S2"]),
        (33, ["S1", "S2", "S3"], ["S1", "S3"]),
        (34, ["S2", "S4"], ["S2", "S3"]),
        (34, ["S1", "S2", "S3"], ["S2", "S3"]),
        (57, ["P7", "S1", "S2", "S3", "S4"], ["S1", "S2", "S3", "S4"]),
        (58, ["G9", "S1", "S2", "S3", "S4"], ["G9", "S1", "S2", "S3"]),
    ],
)
def test_r6_10_rows(task: int, hand: list[str], near_miss: list[str]) -> None:
    extra = mask_of(["P1", "Y2"])
    assert deal_exception([extra, mask_of(hand) | extra, 0, 0], [1, task]) == (task, 1)
    assert deal_exception([extra, mask_of(near_miss) | extra, 0, 0], [1, task]) is None
    assert deal_exception([0, mask_of(hand), 0, 0], [1, 2]) is None  # the task is not drawn


def test_18_9_deal_exception() -> None:
    hands = [0] * 5
    hands[4] = mask_of(["S1", "S2", "S3", "B5", "G1"])
    hands[0] = mask_of(["S4", "P9"])
    assert deal_exception(hands, [12, 34, 70]) == (34, 4)
    # the first row of the table that applies wins
    assert deal_exception(hands, [34, 33]) == (33, 4)


# ---------------------------------------------------------------------------------------------
# properties, repair rate, options tables


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    seats=st.sampled_from([3, 4, 5]),
    target=st.integers(0, 18),
    allocation=st.sampled_from(ALLOCS),
    rule=st.sampled_from(["same_difficulty", "resume_draw"]),
)
def test_property_draws_hit_the_target_and_are_possible(
    seed: int, seats: int, target: int, allocation: str, rule: str
) -> None:
    r = draw(seed=seed, seats=seats, target=target, allocation=allocation, options={"replacement_rule": rule})
    assert d(r.tasks, seats) == target
    assert len(set(r.tasks)) == len(r.tasks)
    assert ok(list(r.tasks), seats, allocation)


def test_repair_rate_is_small() -> None:
    rng = random.Random(2026)
    n = repaired = 0
    for target in range(3, 19):
        for _ in range(30):
            r = draw_tasks(rng, seats=4, target=target, table=TASKS, options=OPTS)
            n += 1
            repaired += r.repairs > 0
    rate = repaired / n
    assert 0 < rate < 0.15  # NOTES.md section 6: 0-8 %


def test_option_tables() -> None:
    t = task_table({"task13_cards": "Y7+B7"})
    # 7 (B6 Y7) and 13 (Y7 B7) need the same yellow 7 only with the option
    assert check_assignment({7: 0, 13: 1}, seats=4, captain=0, table=t, tricks_total=10) == ["A-8"]
    assert fails({7: 0, 13: 1}) == []


# ---------------------------------------------------------------------------------------------
# missions


def test_mission_json_round_trip() -> None:
    for n in list(CAMPAIGN) + [33, 40]:
        m = campaign_mission(n)
        assert Mission.from_dict(json.loads(json.dumps(m.to_dict()))) == m
    m = Mission(
        target=6,
        allocation="volunteers",
        volunteers=2,
        communication="currents",
        comm_from_trick=2,
        comm_until_trick=5,
        constraints=[{"kind": "first_winner_leads"}, {"kind": "final_card", "card": "Y5"}],  # type: ignore[arg-type]
        timer_seconds=120,
        untimed={"communication": "none"},
    )
    assert Mission.from_dict(json.loads(json.dumps(m.to_dict()))) == m
    assert isinstance(m.constraints, tuple)


def test_campaign_table() -> None:
    assert sorted(CAMPAIGN) == list(range(1, 33))
    assert CAMPAIGN[3].target == 3 and CAMPAIGN[29].target == 15
    assert (
        CAMPAIGN[26].target == 10 and CAMPAIGN[26].untimed == {"target": 12} and CAMPAIGN[26].volunteers == 2
    )
    assert CAMPAIGN[16].untimed == {"communication": "none", "target": 6}
    assert CAMPAIGN[32].fixed_tasks == (80, 89, 86, 74) and CAMPAIGN[32].target is None
    assert CAMPAIGN[12].constraints == ({"kind": "lead_ban", "suits": ["P", "S"]},)
    assert CAMPAIGN[23].comm_from_trick == 2
    assert CAMPAIGN[27].constraints == ({"kind": "final_card", "card": "Y5"},)
    assert campaign_mission(33) == Mission(target=18, allocation="free")
    with pytest.raises(SetupError) as e:
        campaign_mission(0)
    assert e.value.field == "mission"


@pytest.mark.parametrize(
    ("kw", "field"),
    [
        ({}, "target"),
        ({"target": -1}, "target"),
        ({"target": True}, "target"),
        ({"target": 3, "fixed_tasks": [1]}, "target"),
        ({"fixed_tasks": [1, 1]}, "fixed_tasks"),
        ({"fixed_tasks": [0]}, "fixed_tasks"),
        ({"fixed_tasks": "12"}, "fixed_tasks"),
        ({"target": 3, "allocation": "auction"}, "allocation"),
        ({"target": 3, "volunteers": 3}, "volunteers"),
        ({"target": 3, "communication": "shout"}, "communication"),
        ({"target": 3, "comm_from_trick": 0}, "comm_from_trick"),
        ({"target": 3, "comm_from_trick": 3, "comm_until_trick": 2}, "comm_until_trick"),
        ({"target": 3, "constraints": [{"kind": "nope"}]}, "constraints[0]"),
        ({"target": 3, "constraints": [{"kind": "lead_ban", "suits": ["X"]}]}, "constraints[0].suits"),
        ({"target": 3, "constraints": [{"kind": "lead_ban", "suits": []}]}, "constraints[0].suits"),
        (
            {"target": 3, "constraints": [{"kind": "balance", "select": {"ranks": [10]}, "max_gap": 1}]},
            "constraints[0].select",
        ),
        (
            {"target": 3, "constraints": [{"kind": "balance", "select": {"ranks": [9]}, "max_gap": -1}]},
            "constraints[0].max_gap",
        ),
        (
            {
                "target": 3,
                "constraints": [{"kind": "balance", "select": {"ranks": [9], "suits": ["P"]}, "max_gap": 1}],
            },
            "constraints[0].select",
        ),
        ({"target": 3, "constraints": [{"kind": "final_card", "card": "Y0"}]}, "constraints[0].card"),
        ({"target": 3, "constraints": [{"kind": "first_winner_leads", "x": 1}]}, "constraints[0]"),
        ({"target": 3, "constraints": {"kind": "first_winner_leads"}}, "constraints"),
        ({"target": 3, "timer_seconds": 0}, "timer_seconds"),
        ({"target": 3, "untimed": {"target": 4}}, "untimed"),
        ({"target": 3, "timer_seconds": 60, "untimed": {"rules": 4}}, "untimed"),
        ({"target": 3, "timer_seconds": 60, "untimed": {"communication": "x"}}, "untimed.communication"),
        ({"target": 3, "timer_seconds": 60, "untimed": {"target": -2}}, "untimed.target"),
    ],
)
def test_mission_validation(kw: dict[str, object], field: str) -> None:
    with pytest.raises(SetupError) as e:
        Mission(**kw)  # type: ignore[arg-type]
    assert e.value.field == field


def test_mission_from_dict_errors() -> None:
    with pytest.raises(SetupError) as e:
        Mission.from_dict({"target": 3, "colour": "P"})
    assert e.value.field == "colour"
    with pytest.raises(SetupError) as e:
        Mission.from_dict([])  # type: ignore[arg-type]
    assert e.value.field == "mission"
    assert Mission.from_dict({"target": 2}) == Mission(target=2)


def test_bad_options() -> None:
    for key in ("impossible_draw_check", "replacement_rule"):
        with pytest.raises(SetupError) as e:
            draw(seats=4, target=3, options={key: "maybe"})
        assert e.value.field == key
