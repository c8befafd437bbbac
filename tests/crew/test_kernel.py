"""The Crew's compiled kernel (dsa_widget/crew/kernel.py) against the checked engine: each kernel
deal's trace replayed through :class:`CrewGame` card by card (every card legal, R-10.2), the
statuses equal after every trick (CREW.md section 13, R-13.2), the same outcome at the same trick
(R-14.1); the same deals compiled and as plain Python."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.crew import kernel
from dsa_widget.crew.kernel import KMAX, kernel_deal, kernel_deals
from dsa_widget.crew.rules import CrewGame
from dsa_widget.crew.tasks import TASKS


def _replay(d: kernel.KernelDeal) -> None:
    n = len(d.hands)
    g = CrewGame(
        n,
        deal=[list(h) for h in d.hands],
        tasks=list(d.tasks),
        assignment=dict(zip(d.tasks, d.owners, strict=True)),
        mission={"target": 1, "communication": "none"},
        deal_check=False,
    )
    # the captain holds S4
    assert g.captain == d.captain
    preds = {t: x for t, x in zip(d.tasks, d.predictions, strict=True) if x is not None}
    while g.step != "play":
        if g.step == "distress":
            g.apply("no distress")
        elif g.step == "predict":
            g.apply(f"predict {preds[g.tasks[_pending(g)].id]}")
        else:
            raise AssertionError(f"unexpected step {g.step!r}")
    for j, c in enumerate(d.plays):
        assert f"play {c}" in g.legal_actions(), (d, j)
        g.apply(f"play {c}")  # checked: an illegal card raises
        if (j + 1) % n == 0:
            t = (j + 1) // n
            assert tuple(ts.status for ts in g.tasks) == d.statuses[t - 1], (d, t)
    assert g.is_over and g.outcome is not None
    assert (g.outcome.result, g.outcome.trick) == (d.result, d.trick)


def _pending(g: CrewGame) -> int:
    """The index of the predicted task the mover owns and has not predicted yet."""
    for i, ts in enumerate(g.tasks):
        if ts.owner == g.to_move and ts.prediction is None and TASKS[ts.id].params.get("n") == "predicted":
            return i
    raise AssertionError("no prediction pending")


def _task_set(rng: random.Random, size: int) -> list[int]:
    ids = rng.sample(range(1, 97), size)
    # at most one captain-comparison task (94-96), as a real draw gives
    cap = [t for t in ids if TASKS[t].vs_captain]
    return [t for t in ids if t not in cap[1:]]


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_kernel_deals_replay_through_the_engine(seats: int) -> None:
    """Hundreds of seeded deals over random task sets: every card legal in the engine, the same
    statuses after every trick, the same outcome (R-10.2, R-13.2, R-14.1)."""
    rng = random.Random(seats)
    for seed in range(150):
        _replay(kernel_deal(seed, seats=seats, tasks=_task_set(rng, 1 + seed % 6)))


def test_every_task_card_is_judged_like_the_engine() -> None:
    """Each of the 96 tasks on its own (so the deal runs until it is settled), in 4 deals each,
    and at 3 and 5 seats (the seat-dependent sums of tasks 63-64 and trick counts)."""
    for tid in range(1, 97):
        for seed in range(4):
            _replay(kernel_deal(1000 * tid + seed, seats=3 + seed % 3, tasks=[tid]))


@settings(max_examples=60, deadline=None)
@given(
    seed=st.integers(0, 2**40),
    seats=st.sampled_from([3, 4, 5]),
    tasks=st.lists(st.integers(1, 93), min_size=0, max_size=KMAX, unique=True),
)
def test_any_deal_replays(seed: int, seats: int, tasks: list[int]) -> None:
    _replay(kernel_deal(seed, seats=seats, tasks=tasks))


def test_the_outcome_counts_are_the_traced_deals() -> None:
    """kernel_deals runs the deals kernel_deal traces: 40 deals in one run, one by one."""
    # kernel_deals draws all deals from one stream; with one deal per call they are the same
    for seed in range(20):
        ok, n = kernel_deals(1, seats=4, tasks=[1, 70], seed=seed)
        assert (ok, n) == (int(kernel_deal(seed, seats=4, tasks=[1, 70]).result == "success"), 1)


def test_success_rate_is_plausible_against_random_deal() -> None:
    """Same tasks, same policy (uniform legal cards): the kernel's success rate and
    random_deal's agree within sampling error (task 1 alone: capture P3)."""
    from dsa_widget.crew.playouts import random_deal

    ok_k, n_k = kernel_deals(4000, seats=4, tasks=[1], seed=3)
    rng = random.Random(3)
    ok_p = sum(random_deal(rng, seats=4, tasks=[1]).result == "success" for _ in range(4000))
    pk, pp = ok_k / n_k, ok_p / 4000
    # two binomials of 4000 near 0.25: 5 standard errors of the difference is about 0.05
    assert abs(pk - pp) < 0.05, (pk, pp)


def test_random_deals_runs_on_the_kernel() -> None:
    """playouts.random_deals with random cards is the kernel seeded from the caller's rng; the
    task sets, when drawn, are drawn from it first; other policies keep random_deal."""
    from dsa_widget.crew import playouts
    from dsa_widget.crew.draw import draw_tasks
    from dsa_widget.crew.options import resolve_options

    assert playouts._KMAX == KMAX
    ok, n = playouts.random_deals(500, random.Random(5), seats=3, tasks=[1, 84])
    assert (ok, n) == kernel_deals(500, seats=3, tasks=[1, 84], seed=random.Random(5).getrandbits(63))
    rng = random.Random(6)
    sets = [
        tuple(draw_tasks(rng, seats=5, target=4, table=TASKS, options=resolve_options()).tasks)
        for _ in range(50)
    ]
    want = kernel_deals(50, seats=5, task_sets=sets, seed=rng.getrandbits(63))
    assert playouts.random_deals(50, random.Random(6), seats=5, target=4) == want
    with pytest.raises(ValueError):
        playouts.random_deals(5, random.Random(1), seats=2, tasks=[1])


def test_bad_input_is_refused() -> None:
    with pytest.raises(ValueError, match="3, 4 or 5 seats"):
        kernel_deals(1, seats=6, tasks=[1])
    with pytest.raises(ValueError, match="at most"):
        kernel_deals(1, tasks=list(range(1, KMAX + 2)))
    with pytest.raises(ValueError, match="no task 97"):
        kernel_deals(1, tasks=[97])
    with pytest.raises(ValueError, match="twice"):
        kernel_deals(1, tasks=[1, 1])
    with pytest.raises(ValueError, match="tasks="):
        kernel_deals(1)
    with pytest.raises(ValueError, match="count"):
        kernel_deals(-1, tasks=[1])


def test_refused_task_names_the_task() -> None:
    from dsa_widget.crew.tasks import Task

    odd = Task(59, "trick_matching", {"test": "prime_sum"}, (1, 1, 1), "")
    with pytest.raises(ValueError, match="task 59 .*prime_sum"):
        kernel.encode_task(odd, 4)


@pytest.mark.skipif(not kernel.COMPILED, reason="numba is not installed: only the plain kernel runs")
def test_plain_python_plays_the_same_deals() -> None:
    """The same source without numba (DSA_WIDGET_NO_NUMBA=1) gives the same deals and counts."""
    code = (
        "from dsa_widget.crew.kernel import COMPILED, kernel_deal, kernel_deals\n"
        "assert not COMPILED\n"
        "print(kernel_deals(300, seats=4, task_sets=[[1, 70], [84, 94], [59, 66, 88]], seed=11))\n"
        "print([kernel_deal(s, seats=3 + s % 3, tasks=[65, 85, 91]) for s in range(5)])\n"
    )
    env = dict(os.environ, DSA_WIDGET_NO_NUMBA="1")
    plain = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True)
    here = (
        f"{kernel_deals(300, seats=4, task_sets=[[1, 70], [84, 94], [59, 66, 88]], seed=11)}\n"
        f"{[kernel_deal(s, seats=3 + s % 3, tasks=[65, 85, 91]) for s in range(5)]}\n"
    )
    assert plain.stdout == here


def test_warm_up_is_registered() -> None:
    """``python -m dsa_widget warm`` compiles the kernel at set-up: the registry names it."""
    from dsa_widget.core.registry import _resolve, game

    warm = _resolve(game("crew").warm)  # type: ignore[arg-type]
    assert warm is kernel.warm_up
    warm()
