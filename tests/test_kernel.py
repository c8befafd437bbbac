"""The playout kernel agrees with the checked Game, turn by turn (a differential test).

The kernel records every roll and choice of a playout (``trace_playout``); the checked ``Game``
replays them from the same position with ``apply_chance`` / ``apply`` and must agree on whose
move each one is, how many choices were legal, the state at every turn boundary (positions,
headings, who is back, items carried, scores, air, round, path, every item's chips), the
scores, the winners and the number of turns.  This runs compiled (numba) in this process, as
plain Python in this process (``plain_kernel``), and in subprocesses where numba is switched
off (``DSA_WIDGET_NO_NUMBA=1``) or cannot be imported at all.  Deliberately wrong kernels
(a rule changed through ``plain_kernel``'s overrides) must be caught.

Run as a script (``python tests/test_kernel.py GAMES``), it runs the differential test on
``GAMES`` games with whatever kernel this process has and prints ``ok <compiled> <games>``.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path
from typing import Any

import pytest
from helpers import OPTION_CHOICES, random_setup, run_python
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget import Game, Setup
from dsa_widget.core.protocol import CHANCE
from dsa_widget.deep_sea import kernel
from dsa_widget.deep_sea.playouts import (
    COMPILED,
    Playouts,
    Policy,
    Trace,
    playout_from,
    random_playouts,
    trace_playout,
)

# --------------------------------------------------------------------------- the checked side


def _pack(item: tuple[int, ...]) -> int:
    return sum((c + 1) << (11 * j) for j, c in enumerate(item))


def expected_snapshot(g: Game) -> tuple[int, ...]:
    """A turn boundary as the kernel writes it (Trace.snapshots), read from the checked Game."""
    n = len(g.players)
    row: list[int] = [
        g.turn_number,
        g.round,
        g.air,
        -1 if g.current_player is None else g.current_player,
        g.path_length,
    ]
    for q in range(n):
        row += [
            g.positions[q],
            int(g.heading_up[q]),
            int(g.returned[q]),
            len(g.carrying[q]),
            g.scores[q],
        ]
    h = 0
    m = 2147483647
    for x in g.spaces[1:]:
        h = (h * 1000003 + (0 if x is None else _pack(x))) % m
    for q in range(n):
        h = (h * 1000003 + 7777777) % m
        for item in g.carrying[q]:
            h = (h * 1000003 + _pack(item)) % m
    row.append(h)
    return tuple(row)


def mismatch(trace: Trace, start: Game) -> str | None:
    """Replay ``trace`` in a copy of ``start``; the first disagreement, or None."""
    g = start.copy()
    snaps = list(trace.snapshots)
    t0 = g.turn_number
    for k, (seat, action, nlegal) in enumerate(trace.actions):
        where = f"action {k} {action!r} of seat {seat}, turn {g.turn_number + 1}"
        if g.is_over:
            return f"{where}: the checked game is over"
        if isinstance(action, tuple):
            if g.to_move != CHANCE or g.current_player != seat or nlegal != 9:
                return f"{where}: checked step {g.step!r}, player {g.current_player}"
            g.apply_chance(action)
        else:
            if g.to_move != seat:
                return f"{where}: checked to move {g.to_move}, step {g.step!r}"
            if len(g.legal_actions()) != nlegal:
                return f"{where}: checked legal {g.legal_actions()}, kernel counted {nlegal}"
            g.apply(action)  # raises if illegal
        done = g.turn_number - t0
        if done > len(snaps):
            return f"{where}: the kernel recorded {len(snaps)} turns only"
        if done and g.at_turn_boundary and expected_snapshot(g) != snaps[done - 1]:
            return f"{where}: state {expected_snapshot(g)} != kernel {snaps[done - 1]}"
    r = trace.result
    if not g.is_over:
        return f"the trace ends but the checked game is not over (step {g.step!r})"
    if g.turn_number - t0 != len(snaps) or g.turn_number != r.turns[0]:
        return f"turns: checked {g.turn_number}, kernel {r.turns[0]} ({len(snaps)} snapshots)"
    if g.scores != r.scores_of(0) or g.winners != r.winners_of(0):
        return f"result: checked {g.scores} {g.winners}, kernel {r.scores_of(0)} {r.winners_of(0)}"
    return None


# --------------------------------------------------------------------------- games to check


def _random_moves(g: Game, rng: random.Random, limit: int) -> list[str]:
    """Play up to ``limit`` random moves (rolls with the game's dice); the step before each."""
    steps = []
    while not g.is_over and len(steps) < limit:
        steps.append(g.step)
        if g.is_chance:
            g.sample_chance()
        else:
            g.apply(rng.choice(g.legal_actions()))
    return steps


def random_start(rng: random.Random) -> Game:
    """A setup's start, or a position reached by random play: any step, a sink step often."""
    setup, dice, choices = random_setup(rng), rng.randrange(2**31), rng.randrange(2**31)
    if rng.random() < 0.3:
        return Game(setup, rng=dice)
    steps = _random_moves(Game(setup, rng=dice), random.Random(choices), 10**6)
    sinks = [i for i, step in enumerate(steps) if step == "sink"]
    stop = rng.choice(sinks) if sinks and rng.random() < 0.3 else rng.randrange(len(steps) + 1)
    g = Game(setup, rng=dice)
    _random_moves(g, random.Random(choices), stop)
    return g


def random_policy(rng: random.Random, n: int) -> list[Policy] | None:
    if rng.random() < 0.5:
        return None  # uniform
    out = []
    for _ in range(n):
        x = rng.random()
        if x < 0.25:
            out.append(Policy("uniform"))
        elif x < 0.6:
            out.append(
                Policy(
                    "threshold",
                    take_below=rng.randint(0, 5),
                    back_at=rng.randint(0, 5),
                    back_air=rng.randint(0, 30),
                )
            )
        elif x < 0.85:
            out.append(
                Policy(
                    "planner", carry=rng.randint(0, 4), slack=rng.randint(-2, 8), up_slack=rng.randint(-2, 6)
                )
            )
        else:
            out.append(Policy("simple"))
    return out


def differential(games: int, seed: int, *, kernel_run: Any = None) -> list[str]:
    """Check ``games`` random playouts; the disagreements found."""
    rng = random.Random(seed)
    bad = []
    for k in range(games):
        start = random_start(rng)
        policy = random_policy(rng, len(start.players))
        try:
            trace = trace_playout(start, seed=rng.randrange(2**31), policy=policy, kernel=kernel_run)
            why = mismatch(trace, start)
        except Exception as e:  # a broken kernel may crash or not end: that is a disagreement too
            why = f"{type(e).__name__}: {e}"
        if why is not None:
            bad.append(f"game {k} ({start.setup.to_dict()}, step {start.step!r}): {why}")
    return bad


# --------------------------------------------------------------------------- the tests


def test_this_process_compiles_with_numba() -> None:
    # the test environment has the fast extra: the compiled kernel is what these tests check
    assert COMPILED and kernel.COMPILED


# the fast tier checks the first 300 of the 3,000 games (the same ones: one random stream)
@pytest.mark.parametrize("games", [300, pytest.param(3000, marks=pytest.mark.slow)])
def test_differential_compiled(games: int) -> None:
    assert differential(games, seed=1) == []


def test_differential_plain_python_in_process() -> None:
    assert differential(300, seed=2, kernel_run=kernel.plain_kernel()) == []


def _script(games: int, env: dict[str, str], prelude: str = "") -> str:
    code = (
        prelude
        + "import runpy, sys; sys.argv = ['test_kernel', '%d']; sys.path.insert(0, %r);"
        + "runpy.run_path(%r, run_name='__main__')"
    ) % (games, str(Path(__file__).parent), str(Path(__file__)))
    out = run_python("-c", code, env=env, timeout=900)
    assert out.returncode == 0, out.stdout + out.stderr
    return out.stdout.strip().splitlines()[-1]


# second processes: the fast tier checks the plain kernel in this process (above)
@pytest.mark.slow
def test_differential_without_numba_env_var() -> None:
    assert _script(300, {"DSA_WIDGET_NO_NUMBA": "1"}) == "ok False 300 numba-absent"


@pytest.mark.slow
def test_differential_with_numba_not_importable() -> None:
    blocked = "import sys; sys.modules['numba'] = None;"
    assert _script(150, {"DSA_WIDGET_NO_NUMBA": ""}, blocked) == "ok False 150 numba-absent"


def _wrong_swim(s: Any, occ: int, pos: int, up: int, steps: int) -> int:
    """A swim that does not jump other divers (counts taken spaces too)."""
    if steps <= 0:
        return pos
    if up:
        return max(0, pos - steps)
    return min(s[kernel.PLEN], pos + steps)


def _wrong_winners(s: Any, cfg: Any) -> int:
    """Winners without the tie-break."""
    sc = [s[cfg[kernel.C_SCORE] + q] for q in range(cfg[kernel.C_N])]
    return sum(1 << q for q, x in enumerate(sc) if x == max(sc))


MUTANTS: dict[str, dict[str, Any]] = {
    "stacks of 2": {"STACK": 2},
    "no jumping": {"_swim": _wrong_swim},
    "never forced back": {"_free_deeper": lambda s, occ, pos: True},
    "no tie-break": {"_winners": _wrong_winners},
    "drop order ignored": {"C_FARTHEST": kernel.C_GAMES},  # reads a field that is never 0 here
    "air reset to the rounds": {"C_AIR": kernel.C_ROUNDS},
}


@pytest.mark.slow
def test_wrong_kernels_are_caught() -> None:
    for name, overrides in MUTANTS.items():
        mutant = kernel.plain_kernel(MAX_TURNS=3000, **overrides)
        found = differential(300, seed=3, kernel_run=mutant)
        assert found, f"the differential test did not catch the mutant {name!r}"
    # and the unchanged plain kernel passes the same games
    assert differential(300, seed=3, kernel_run=kernel.plain_kernel()) == []


def test_a_wrong_trace_is_caught() -> None:
    start = Game(Setup.create(players=3, seed=4))
    t = trace_playout(start, seed=5)
    assert mismatch(t, start) is None
    seat, dice, n = t.actions[0]
    other = (1, 1) if dice != (1, 1) else (3, 3)
    wrong = Trace(((seat, other, n), *t.actions[1:]), t.snapshots, t.result)
    assert mismatch(wrong, start) is not None
    short = Trace(t.actions, t.snapshots[:-1], t.result)
    assert mismatch(short, start) is not None


_setups = st.builds(
    lambda n, air, rounds, first, path, opts: Setup.create(
        players=n, air=air, rounds=rounds, first_player=first % n, path=path, options=opts
    ),
    st.integers(2, 6),
    st.integers(1, 30),
    st.integers(1, 4),
    st.integers(0, 5),
    st.lists(st.tuples(st.integers(1, 4), st.integers(0, 15)), min_size=1, max_size=16),
    st.fixed_dictionaries({k: st.sampled_from(v) for k, v in OPTION_CHOICES.items()}),
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=_setups, seed=st.integers(0, 2**32), moves=st.integers(0, 120))
def test_differential_property(setup: Setup, seed: int, moves: int) -> None:
    rng = random.Random(seed)
    g = Game(setup, rng=seed)
    for _ in range(moves):
        if g.is_over:
            break
        if g.is_chance:
            g.sample_chance()
        else:
            g.apply(rng.choice(g.legal_actions()))
    before = g.state_dict(), g.step, g.legal_choices(), g.turn_number
    assert mismatch(trace_playout(g, seed=seed), g) is None
    assert (g.state_dict(), g.step, g.legal_choices(), g.turn_number) == before  # g untouched


@settings(max_examples=100, deadline=None)
@given(setup=_setups, seed=st.integers(0, 2**32), games=st.integers(1, 40))
def test_compiled_and_plain_give_the_same_games(setup: Setup, seed: int, games: int) -> None:
    policy = random_policy(random.Random(seed), len(setup.players))
    a = random_playouts(setup, games, seed, policy=policy)
    b = random_playouts(setup, games, seed, policy=policy, backend="python")
    assert a == b
    assert a.games == games and len(a.scores) == games * len(setup.players)
    total = sum(v for _, v in setup.path)
    for k in range(games):
        sc = a.scores_of(k)
        assert sum(sc) <= total and min(sc) >= 0
        assert a.winners_of(k) and all(sc[q] == max(sc) for q in a.winners_of(k))
    assert abs(sum(a.win_rates()) - 1) < 1e-9


@given(st.lists(st.integers(0, kernel.MAX_CHIP_ID), min_size=1, max_size=3))
def test_items_pack_and_unpack(chips: list[int]) -> None:
    assert kernel.item_chips(kernel.pack_item(chips)) == tuple(chips)


def test_items_of_four_chips_or_huge_ids_are_refused() -> None:
    for bad in [(), (1, 2, 3, 4), (kernel.MAX_CHIP_ID + 1,), (-1,)]:
        try:
            kernel.pack_item(bad)
        except ValueError:
            continue
        raise AssertionError(f"{bad} was packed")


def test_the_largest_path_a_setup_allows() -> None:
    rng = random.Random(9)
    path = [(1 + i * 4 // 1000, rng.randint(0, 2**53 - 1)) for i in range(1000)]
    for opts in ({}, {"sink_order": "pickup", "drop_order": "farthest_first"}):
        setup = Setup.create(players=6, path=path, air=60, rounds=4, options=opts)
        start = Game(setup)
        for seed in range(3):
            assert mismatch(trace_playout(start, seed=seed), start) is None


def test_uniform_play_has_the_checked_engines_distribution() -> None:
    # the benchmark's policy: rng.choice(g.legal_choices()) in the checked Game; compare the mean
    # turns and the mean score of seat 0 (different dice, so statistically: within 5 sigma)
    setup = Setup.create(players=4, seed=1)
    rng = random.Random(8)
    turns, score0 = [], []
    for _ in range(600):
        g = Game(setup, rng=rng, events=False, history=False)
        while not g.is_over:
            g.apply(rng.choice(g.legal_choices()))
        turns.append(g.turn_number)
        score0.append(g.scores[0])
    r = random_playouts(setup, 60000, seed=8)
    for checked, fast in ((turns, r.turns), (score0, r.scores[0::4])):
        m = sum(checked) / len(checked)
        var = sum((x - m) ** 2 for x in checked) / (len(checked) - 1)
        fm = sum(fast) / len(fast)
        assert abs(m - fm) < 5 * (var / len(checked)) ** 0.5, (m, fm)


def test_threshold_policy_does_what_it_says() -> None:
    setup = Setup.create(players=3, seed=2)
    # take nothing: nobody ever scores
    r = random_playouts(setup, 200, seed=1, policy=Policy("threshold", take_below=0))
    assert set(r.scores) == {0}
    # take one and turn back at once: everybody home with at most one chip per round
    t = trace_playout(setup, seed=3, policy=Policy("threshold", take_below=1, back_at=1))
    for _, action, _ in t.actions:
        assert action in ("none", "take", "back") or isinstance(action, tuple)
    assert "continue" not in [a for _, a, _ in t.actions]


def test_planner_policy_is_the_planner_bots_rule() -> None:
    """Policy("planner") chooses exactly what the ``planner`` bot's rule of thumb
    (heuristics.PlannerPolicy) chooses on the checked Game, choice for choice, with its knobs."""
    from dsa_widget.deep_sea.bots.heuristics import PlannerPolicy
    from dsa_widget.deep_sea.bots.search import EAGER

    # the search bots' own rollout rule, as the kernel takes its knobs (ints)
    eager = {k: int(v) for k, v in EAGER.items()}
    rng = random.Random(11)
    checked = 0
    for _ in range(250):
        start = random_start(rng)
        knobs = {"carry": rng.randint(0, 4), "slack": rng.randint(-2, 8), "up_slack": rng.randint(-2, 6)}
        if rng.random() < 0.5:
            # the bot's defaults, or the search bots' own rollout rule (eager)
            knobs = rng.choice([{"carry": 2, "slack": 4, "up_slack": 2}, eager])
        rule = PlannerPolicy(
            slack=float(knobs["slack"]), carry=knobs["carry"], up_slack=float(knobs["up_slack"])
        )
        trace = trace_playout(start, seed=rng.randrange(2**31), policy=Policy("planner", **knobs))
        assert mismatch(trace, start) is None
        g = start.copy()
        for seat, action, _ in trace.actions:
            if isinstance(action, tuple):
                g.apply_chance(action)
                continue
            assert rule.choose(g, seat, g.legal_choices())[0] == action, (
                start.setup.to_dict(),
                g.state_dict(),
            )
            checked += 1
            g.apply(action)
    assert checked > 2000


def test_simple_policy_is_the_estimates_default_rule() -> None:
    """Policy("simple") chooses exactly what analysis.estimate.simple_bot chooses."""
    from dsa_widget.deep_sea.analysis.estimate import simple_bot

    rng = random.Random(12)
    checked = 0
    for _ in range(200):
        start = random_start(rng)
        trace = trace_playout(start, seed=rng.randrange(2**31), policy=Policy("simple"))
        assert mismatch(trace, start) is None
        g = start.copy()
        for seat, action, _ in trace.actions:
            if isinstance(action, tuple):
                g.apply_chance(action)
                continue
            assert simple_bot(g.view(seat), g.legal_choices()) == action, (
                start.setup.to_dict(),
                g.state_dict(),
            )
            checked += 1
            g.apply(action)
    assert checked > 1500


def _homes_in_round(start: Game, g: Game, r: int) -> int:
    """Who was back in the submarine when round ``r`` ended, from the checked game's events."""
    mask = sum(1 << q for q in range(len(start.players)) if start.returned[q] and start.round == r)
    rnd = start.round
    for e in g.events[len(start.events) :]:
        if e["type"] == "round_start":
            rnd = e["round"]
        elif e["type"] == "move" and e["home"] and rnd == r:
            mask |= 1 << e["seat"]
    return mask


def test_stopping_at_the_end_of_a_round() -> None:
    """stop_round=r plays the same dice and choices as a full playout until round r ends,
    then stops with the scores banked so far; homes says who was back when it ended."""
    rng = random.Random(5)
    for _ in range(150):
        start = random_start(rng)
        if start.is_over:
            continue
        seed = rng.randrange(2**31)
        policy = random_policy(rng, len(start.players))
        full = trace_playout(start, seed=seed, policy=policy)
        stopped = playout_from(start, 1, seed=seed, policy=policy, stop_round=start.round)
        g = start.copy()
        for _, action, _ in full.actions:
            if g.round > start.round or g.is_over:
                break
            g.apply_chance(action) if isinstance(action, tuple) else g.apply(action)
        assert g.round > start.round or g.is_over
        assert stopped.scores_of(0) == g.scores, start.setup.to_dict()
        assert stopped.ended[0] == g.is_over
        assert stopped.homes[0] == _homes_in_round(start, g, start.round)
        assert full.result.homes[0] == stopped.homes[0] and full.result.ended == [True]


def test_redealing_unseen_values() -> None:
    """redeal: the listed chips' values are dealt anew among themselves, level by level, before
    each playout (a fresh determinization each time); nothing else changes."""
    g = Game(players=["Ann", "Bob"], path=[(1, 0), (1, 3), (2, 7), (2, 9)], air=20, seed=1)
    g.roll((1, 1))
    g.apply("take")  # Ann (2 spaces) takes chip 1, the level-1 chip worth 3
    assert g.carrying[0] == ((1,),)
    policy = Policy("planner")
    plain = playout_from(g, 400, seed=3, policy=policy, stop_round=1)
    assert plain == playout_from(g, 400, seed=3, policy=policy, stop_round=1, redeal=[])
    # one chip of each level: nothing to deal among, the same games
    assert plain == playout_from(g, 400, seed=3, policy=policy, stop_round=1, redeal=[0, 2])
    # Ann turns back at once, two spaces from home with 20 air: she always banks her chip, and
    # whatever else she picks up on the way is level 1 (chip 0, worth 0) or nothing
    assert set(plain.scores[0::2]) == {3}
    # chips 0 and 1 dealt anew: Ann's chip is worth 0 about half the time
    mixed = playout_from(g, 400, seed=3, policy=policy, stop_round=1, redeal=[1, 0])
    ann = mixed.scores[0::2]
    assert set(ann) == {0, 3} and 100 < ann.count(0) < 300
    for bad in ([4], [-1], ["0"], [True]):
        try:
            playout_from(g, 1, redeal=bad)  # type: ignore[list-item]
        except ValueError:
            continue
        raise AssertionError(bad)


def test_compiled_and_plain_agree_with_every_knob() -> None:
    """Planner policies, stopping at a round's end and redealing: the same games compiled and as
    plain Python."""
    rng = random.Random(8)
    for _ in range(60):
        start = random_start(rng)
        policy = random_policy(rng, len(start.players))
        known = start.view(0).known
        banked = {x for chips in start.banked_chips for x in chips}
        redeal = [c for c in range(len(start.setup.path)) if c not in known and c not in banked]
        kw: dict[str, Any] = {"policy": policy, "stop_round": rng.choice([0, start.round]), "redeal": redeal}
        seed = rng.randrange(2**31)
        a = playout_from(start, 30, seed=seed, **kw)
        b = playout_from(start, 30, seed=seed, backend="python", **kw)
        assert a == b and a.homes == b.homes and a.ended == b.ended


def test_playout_from_every_step_and_the_end() -> None:
    rng = random.Random(4)
    steps = set()
    for _ in range(400):
        g = random_start(rng)
        steps.add(g.step)
        r = playout_from(g, 20, seed=rng.randrange(100))
        assert r.games == 20 and min(r.turns) >= g.turn_number
        if g.is_over:
            assert all(r.scores_of(k) == g.scores and r.winners_of(k) == g.winners for k in range(20))
    assert steps == {"turn_back", "roll", "search", "sink", "over"}


def test_results_and_reproducibility() -> None:
    setup = Setup.create(players=4, seed=1)
    a = random_playouts(setup, 1000, seed=5)
    assert a == random_playouts(setup, 1000, seed=5)
    assert a != random_playouts(setup, 1000, seed=6)
    assert len(a.mean_scores()) == 4 and 5 < sum(a.mean_scores()) / 4 < 12
    assert random_playouts(setup, 0, seed=1) == Playouts(4, 0, [], [], [])
    seats = [Policy()] * 3 + [Policy("threshold", take_below=2, back_at=2, back_air=10)]
    assert random_playouts(setup, 10, seed=1, policy=seats).games == 10


def test_bad_arguments() -> None:
    setup = Setup.create(players=2)
    for call in (
        lambda: random_playouts(setup, -1),
        lambda: random_playouts(setup, 1, backend="gpu"),  # type: ignore[arg-type]
        lambda: random_playouts(setup, 1, policy=[Policy()]),
        lambda: Policy("clever"),  # type: ignore[arg-type]
        lambda: Policy(take_below=1.5),  # type: ignore[arg-type]
    ):
        try:
            call()
        except ValueError:
            continue
        raise AssertionError("accepted")
    for call in (lambda: random_playouts(Game(setup), 1), lambda: playout_from(setup, 1)):  # type: ignore[arg-type]
        try:
            call()
        except TypeError:
            continue
        raise AssertionError("accepted")


if __name__ == "__main__":
    games = int(sys.argv[1])
    found = differential(games, seed=7)
    for line in found[:5]:
        print(line)
    absent = "numba-absent" if "numba" not in sys.modules or sys.modules["numba"] is None else "numba-loaded"
    print("ok" if not found else "FAILED", kernel.COMPILED, games, absent)
    sys.exit(1 if found else 0)


# --------------------------------------------------------------------------- the environment's dice


def test_the_environment_dice_are_the_games():
    """The kernel's copy of the Game's 64-bit LCG (``_dice``, in 32-bit halves) draws the Game's
    own dice, compiled and as plain Python."""
    from dsa_widget.deep_sea import kernel as K
    from dsa_widget.deep_sea.rules import DICE_OUTCOMES

    plain = getattr(K._dice, "py_func", K._dice)
    for seed in (0, 1, -5, 2**63 - 1, -(2**63), 123456789):
        x = random.Random(seed).getrandbits(64)
        g = Game(players=2, seed=seed)
        want = [g.next_dice() for _ in range(500)]
        for dice in (K._dice, plain):
            state = [0] * K.NENV
            state[K.E_DHI], state[K.E_DLO] = x >> 32, x & 0xFFFFFFFF
            if K.COMPILED and dice is K._dice:
                import numpy as np

                s: Any = np.array(state, dtype=np.int64)
            else:
                s = state
            assert [DICE_OUTCOMES[dice(s, 0)] for _ in range(500)] == want, (seed, dice)
