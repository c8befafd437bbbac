"""The static check decides every draw (CREW.md R-6.7, R-6.8, R-14.3; issue 32, item 6).

R-6.7: "A draw is impossible when no assignment that the mission's allocation mode could produce
passes the static checks of Appendix A."  R-6.8: "Repeat until the full draw is possible."
R-14.3: "Impossibilities the players could not influence are handled before the attempt starts
(R-6.7, R-6.10) and are never counted."  So no drawn mission may be one that every assignment
fails, at any target and in any campaign mission, and deciding it prints nothing.

The witness of :func:`find_assignment` is checked here by the engine's own
:func:`check_assignment`, so a search that answered "possible" wrongly would fail these tests.
"""

from __future__ import annotations

import itertools
import json
import logging
import random
from collections import Counter
from pathlib import Path

import pytest
from helpers import replay_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.crew.draw import TRICKS, check_assignment, draw_tasks, find_assignment, possible
from dsa_widget.crew.mission import campaign_mission
from dsa_widget.crew.options import resolve_options
from dsa_widget.crew.rules import CrewGame
from dsa_widget.crew.tasks import TASKS

OPTS = resolve_options()
#: issue 32: the draw of CrewGame(4, seed=380204168, mission={"target": 19, "allocation": "free"})
#: before the check was exact; it was dealt although every assignment fails
ISSUE_SEED = 380204168
ISSUE_DRAW = [36, 82, 45, 83, 54, 64, 96, 89, 2]


def _capacity(allocation: str, seats: int, k: int) -> list[int]:
    """Per-seat task counts the allocation allows (A.3), seat 0 the captain, written from
    R-7.2 / R-7.3 / R-7.6 independently of the engine's search."""
    if allocation == "normal":
        return [-(-(k - i) // seats) for i in range(seats)] if k >= seats else [1] * seats
    return [k] * seats  # free: any distribution


def assert_assignable(tasks: tuple[int, ...], seats: int, allocation: str, captain: int = 0) -> None:
    """Some assignment the allocation could produce passes every check of Appendix A.4: the one
    :func:`find_assignment` gives (seat = distance from the captain), judged by
    :func:`check_assignment` at the real captain's seat."""
    found = find_assignment(
        tasks, seats=seats, allocation=allocation, table=TASKS, tricks_total=TRICKS[seats]
    )
    assert found is not None, f"no assignment for {tasks}"
    assert sorted(found) == sorted(tasks)
    counts = Counter(found.values())
    cap = _capacity(allocation, seats, len(tasks))
    if allocation == "normal" and len(tasks) >= seats:
        assert all(counts[d] == cap[d] for d in range(seats)), (found, cap)  # exactly
    assert all(counts[d] <= cap[d] for d in counts), (found, cap)
    real = {t: (captain + d) % seats for t, d in found.items()}
    assert check_assignment(real, seats=seats, captain=captain, table=TASKS, tricks_total=TRICKS[seats]) == []


# ---------------------------------------------------------------------------------------------
# the example of the issue


def test_r6_7_issue_draw_is_impossible() -> None:
    """82 (exactly 2 tricks), 83 (exactly 4) and 89 (exactly 3, in a row) cannot share a seat
    (A-5), so three seats take 2, 4 and 3 tricks and the fourth takes 1 (A-9, A-11): the four
    counts differ, and 96 ("as many tricks as the captain", never the captain's, A-6) cannot
    be met.  Every assignment of those four tasks fails the engine's checks, so every
    assignment of the whole draw does (adding tasks only adds conditions)."""
    key = [82, 83, 89, 96]
    for seats_of in itertools.product(range(4), repeat=len(key)):
        failed = check_assignment(
            dict(zip(key, seats_of, strict=True)), seats=4, captain=0, table=TASKS, tricks_total=10
        )
        assert failed, seats_of
    assert not possible(ISSUE_DRAW, seats=4, allocation="free", table=TASKS, tricks_total=10)
    assert find_assignment(ISSUE_DRAW, seats=4, allocation="free", table=TASKS, tricks_total=10) is None
    # the prefix before 89 is possible: 89 is the card removes
    assert possible(ISSUE_DRAW[:7], seats=4, allocation="free", table=TASKS, tricks_total=10, full_count=9)


def test_r6_8_issue_seed_is_repaired_silently(caplog: pytest.LogCaptureFixture) -> None:
    """R-6.8: the shortest impossible prefix ends with 89; it is set aside and replaced by a card
    of the same difficulty further down the deck; the rest of the draw stays as drawn."""
    with caplog.at_level(logging.DEBUG, logger="dsa_widget"):
        g = CrewGame(4, seed=ISSUE_SEED, mission={"target": 19, "allocation": "free"})
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []
    drawn = list(g.task_ids)
    j = ISSUE_DRAW.index(89)
    assert drawn[:j] == ISSUE_DRAW[:j] and drawn[j + 1 :] == ISSUE_DRAW[j + 1 :]
    assert drawn[j] != 89 and TASKS[drawn[j]].difficulty_for(4) == TASKS[89].difficulty_for(4)
    assert sum(TASKS[t].difficulty_for(4) for t in drawn) == 19
    assert_assignable(g.task_ids, 4, "free", captain=g.captain)


# ---------------------------------------------------------------------------------------------
# every draw, high targets and the hard campaign missions


@settings(max_examples=300, deadline=None)
@given(
    seed=st.integers(0, 2**32 - 1),
    target=st.integers(12, 30),
    allocation=st.sampled_from(["free", "normal"]),
)
def test_property_every_draw_at_high_targets_has_an_assignment(
    seed: int, target: int, allocation: str
) -> None:
    r = draw_tasks(
        random.Random(seed), seats=4, target=target, allocation=allocation, table=TASKS, options=OPTS
    )
    assert sum(TASKS[t].difficulty_for(4) for t in r.tasks) == target
    assert_assignable(r.tasks, 4, allocation)


@settings(max_examples=120, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), number=st.sampled_from([45, 50]))
def test_property_campaign_45_and_50_missions_have_an_assignment(seed: int, number: int) -> None:
    g = CrewGame(4, campaign=number, seed=seed)
    m = campaign_mission(number)
    assert sum(TASKS[t].difficulty_for(4) for t in g.task_ids) == m.target
    assert_assignable(g.task_ids, 4, m.allocation, captain=g.captain)


# seeds of the sweep below where the check used to stop after 5,000 nodes and let an impossible
# draw through (found with benchmarks/bench_crew_draw.py's configurations)
CUT_BEFORE = [
    (4, 24, "free", 1200081),
    (4, 27, "free", 1500124),
    (4, 30, "free", 1800178),
    (4, 30, "normal", 2500129),
    (4, 30, "normal", 2500207),
    (4, 35, "free", 2900232),
]


@pytest.mark.parametrize(("seats", "target", "allocation", "seed"), CUT_BEFORE)
def test_draws_that_were_let_through_are_possible(
    seats: int, target: int, allocation: str, seed: int
) -> None:
    r = draw_tasks(
        random.Random(seed), seats=seats, target=target, allocation=allocation, table=TASKS, options=OPTS
    )
    assert r.repairs > 0
    assert_assignable(r.tasks, seats, allocation)


@pytest.mark.slow
def test_sweep_every_draw_has_an_assignment() -> None:
    """A wider sweep: 3-5 seats, targets 12-30, free and normal allocation, missions 45 and 50."""
    configs = [(4, t, a) for t in range(12, 31) for a in ("free", "normal")]
    configs += [(3, 20, "free"), (5, 20, "free"), (3, 30, "normal"), (5, 30, "normal")]
    for m in (45, 50):
        mission = campaign_mission(m)
        assert mission.target is not None
        configs.append((4, mission.target, mission.allocation))
    for ci, (seats, target, allocation) in enumerate(configs):
        for i in range(60):
            rng = random.Random(7_000_000 + 1000 * ci + i)
            r = draw_tasks(rng, seats=seats, target=target, allocation=allocation, table=TASKS, options=OPTS)
            assert_assignable(r.tasks, seats, allocation)


@settings(max_examples=100, deadline=None)
@given(
    tasks=st.lists(st.sampled_from(sorted(TASKS)), min_size=1, max_size=8, unique=True),
    data=st.data(),
)
def test_property_a_failing_assignment_keeps_failing_with_more_tasks(
    tasks: list[int], data: st.DataObject
) -> None:
    """What the search relies on to cut a branch: every check of A.4 only gets stricter when a
    task is added to a seat."""
    seats = data.draw(st.sampled_from([3, 4, 5]))
    owner = {t: data.draw(st.integers(0, seats - 1)) for t in tasks}
    extra = data.draw(st.sampled_from([t for t in sorted(TASKS) if t not in owner]))
    kw = {"seats": seats, "captain": 0, "table": TASKS, "tricks_total": TRICKS[seats]}
    if check_assignment(owner, **kw):  # type: ignore[arg-type]
        more = dict(owner)
        more[extra] = data.draw(st.integers(0, seats - 1))
        assert check_assignment(more, **kw)  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# replay: nothing on standard error for a valid record, one line for a bad one


def test_replay_of_the_issue_seed_writes_nothing_on_stderr(tmp_path: Path) -> None:
    """CREW_RECORD.md: a valid record prints the state and exits 0; a bad one writes one line."""
    g = CrewGame(4, seed=ISSUE_SEED, mission={"target": 19, "allocation": "free"})
    g.apply(g.legal_actions()[0])
    rec = g.to_record()
    f = tmp_path / "good.json"
    f.write_text(json.dumps(rec))
    out = replay_cli(str(f))
    assert out.returncode == 0 and out.stderr == "", out.stderr
    assert json.loads(out.stdout)["tasks"]
    rec["turns"][-1]["action"] = "play Q9"  # not a card of the game
    f.write_text(json.dumps(rec))
    out = replay_cli(str(f))
    assert out.returncode == 2 and out.stdout == ""
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), out.stderr
