"""The kernel's playouts from a mid-game position (:func:`dsa_widget.crew.kernel.kernel_playout`),
checked move for move against :class:`CrewGame` and the Python card rule.

Positions: random games of 3, 4 and 5 seats (random allocation, distress, communication),
stopped after a random number of cards, mid-trick or at a trick boundary.  From each, the
kernel plays out the attempt; every card it plays is replayed through the checked engine, and
with the greedy and sighted policies each must be one of the top-scored cards of
:func:`~dsa_widget.crew.playouts.greedy_best` (``sighted=``) on the engine's position at that moment (R-10.2:
the engine refuses an illegal card).  The mission result must be the engine's (R-14.1).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from dsa_widget.crew.cards import card
from dsa_widget.crew.draw import TRICKS
from dsa_widget.crew.kernel import (
    COMPILED,
    encode_position,
    kernel_playout,
    kernel_rollout_stats,
    kernel_rollouts,
)
from dsa_widget.crew.playouts import PlayState, greedy_best
from dsa_widget.crew.rules import CrewGame


def _position(seats: int, seed: int) -> CrewGame | None:
    """A random game stopped in its play phase after a random number of cards (None: the
    attempt ended before)."""
    rng = random.Random(seed)
    g = CrewGame(seats, seed=seed, target=rng.randint(1, 9), timed=True)
    stop = rng.randrange(seats * TRICKS[seats] - 1)
    cards = 0
    while not g.is_over:
        if g.step in ("communicate", "play") and cards >= stop:
            return g
        legal = g.legal_actions()
        a = rng.choice(legal)
        cards += a.startswith("play ")
        g.apply(a)
    return None


def _undecided_positions(seats: int, seeds: range, base: int) -> Iterator[tuple[int, CrewGame, Any]]:
    """Positions in play with ``seats`` seats whose mission is not decided yet, one a seed of
    ``seeds`` at most (game seed ``base * seats + seed``): the seed, the game and the encoded
    position (the mission's constraints included)."""
    for seed in seeds:
        g = _position(seats, base * seats + seed)
        if g is None:
            continue
        st = PlayState.from_game(g)
        if st.result is not None:
            continue
        yield seed, g, encode_position(st, options=g.options, constraints=g.mission.constraints)


def _open_positions(seeds: range) -> Iterator[tuple[int, CrewGame, PlayState, Any, list[int]]]:
    """4-seat positions in play with tasks still open and nothing decided yet, one a seed of
    ``seeds`` at most: the seed, the game, its play state, the encoded position and the cards
    the player to move may play."""
    for seed in seeds:
        g = _position(4, seed)
        if g is None:
            continue
        st = PlayState.from_game(g)
        if not st.tasks or st.result is not None:
            continue
        pos = encode_position(st, options=g.options)
        yield seed, g, st, pos, [c for c in range(40) if st.legal() >> c & 1]


def _replay(g: CrewGame, plays: tuple[str, ...], *, greedy: bool, sighted: bool = False) -> None:
    for cid in plays:
        while f"play {cid}" not in g.legal_actions():
            # communication and its windows move no card
            legal = g.legal_actions()
            assert g.step in ("communicate", "play"), g.step
            assert any(a == "pass" for a in legal), (cid, legal)
            g.apply("pass")
        if greedy:
            assert card(cid) in greedy_best(PlayState.from_game(g), sighted=sighted), (cid, g.step)
        g.apply(f"play {cid}")


@pytest.mark.parametrize("seats", [3, 4, 5])
@pytest.mark.parametrize("policy", ["greedy", "sighted", "random"])
def test_playout_is_the_engines_game(seats: int, policy: str) -> None:
    used = 0
    for seed, g, pos in _undecided_positions(seats, range(30 if policy == "random" else 60), 1000):
        kp = kernel_playout(pos, policy=policy, seed=seed)
        _replay(g, kp.plays, greedy=policy != "random", sighted=policy == "sighted")
        assert g.is_over and g.outcome is not None
        assert g.outcome.result == kp.result, (seed, kp)
        used += 1
    assert used >= 10


def test_rollouts_count_successes_per_card() -> None:
    g = None
    seed = 0
    while g is None or len(PlayState.from_game(g).tasks) == 0:
        seed += 1
        g = _position(4, seed)
    st = PlayState.from_game(g)
    pos = encode_position(st, options=g.options)
    legal = [c for c in range(40) if st.legal() >> c & 1]
    sample = (st.hands, list(st.preds))
    wins = kernel_rollouts(pos, legal, [sample] * 7, seed=3)
    assert len(wins) == len(legal) and all(0 <= w <= 7 for w in wins)
    assert wins == kernel_rollouts(pos, legal, [sample] * 7, seed=3)  # seeded
    # the random policy over many samples: about the playout's success rate
    r = kernel_rollouts(pos, legal[:1], [sample] * 200, policy="random", seed=5)[0]
    assert 0 <= r <= 200
    with pytest.raises(ValueError, match="holds"):
        kernel_rollouts(pos, legal, [([0] * 4, list(st.preds))])
    with pytest.raises(ValueError, match="policy"):
        kernel_rollouts(pos, legal, [sample], policy="best")


def test_rollout_stats_say_how_long_the_failures_lasted() -> None:
    """A failed playout is decided at the end of a trick (R-14.1), no earlier than the trick
    in progress and no later than the last: the summed tricks of the failures lie between
    those bounds; the successes are :func:`kernel_rollouts`' for the same seed."""
    checked = 0
    for seed, g, st, pos, legal in _open_positions(range(1, 30)):
        samples = [(st.hands, list(st.preds))] * 6
        wins, lasted = kernel_rollout_stats(pos, legal, samples, policy="random", seed=seed)
        assert wins == kernel_rollouts(pos, legal, samples, policy="random", seed=seed)
        now = len(g.tricks) + 1
        for w, t in zip(wins, lasted, strict=True):
            assert (6 - w) * now <= t <= (6 - w) * TRICKS[4]
        checked += 1
    assert checked >= 5


def test_positions_the_kernel_cannot_play_are_refused() -> None:
    g = next(x for x in (_position(4, s) for s in range(7, 40)) if x is not None)
    with pytest.raises(ValueError, match="every hand"):
        encode_position(PlayState.from_view(g.view(0)))
    with pytest.raises(ValueError, match="default"):
        encode_position(PlayState.from_game(g), options={"sum_with_submarines": "face_value"})
    two = CrewGame(2, seed=1, target=1, timed=True)
    rng = random.Random(1)
    while two.step not in ("communicate", "play"):
        two.apply(rng.choice(two.legal_actions()))
    with pytest.raises(ValueError, match="Tonoja"):
        encode_position(PlayState.from_game(two))


@pytest.mark.parametrize("seats", [3, 4, 5])
def test_noisy_playouts_play_other_legal_cards(seats: int) -> None:
    """``noise``: every card is still legal (the engine replays it, R-10.2) and the result is
    the engine's (R-14.1); with ``noise=1`` a seat with a choice never plays the rule's card
    where the rule has one best card; ``noise=0`` is the plain playout, card for card."""
    off_rule = 0
    for seed, g, pos in _undecided_positions(seats, range(25), 7000):
        kp = kernel_playout(pos, policy="sighted", seed=seed, noise=1.0)
        for cid in kp.plays:
            while f"play {cid}" not in g.legal_actions():
                assert "pass" in g.legal_actions(), (cid, g.step)
                g.apply("pass")
            here = PlayState.from_game(g)
            top = greedy_best(here, sighted=True)
            if here.legal().bit_count() > 1 and len(top) == 1:
                assert card(cid) not in top, (seed, cid)
                off_rule += 1
            g.apply(f"play {cid}")
        assert g.is_over and g.outcome is not None and g.outcome.result == kp.result
    assert off_rule >= 20
    with pytest.raises(ValueError, match="noise"):
        kernel_playout(pos, noise=1.5)


def test_best_of_counts_a_deal_made_when_one_playout_succeeds() -> None:
    """``best_of=k`` on one sample and card plays the same playouts as ``k`` samples of one
    playout each (the same numbers, in turn) up to the first success: the sample counts as a
    success exactly when one of those did, else with the most tricks one of them lasted (no
    fewer than the trick in progress, no more than the attempt's).  ``best_of=1`` is the
    plain count."""
    checked = made = 0
    for seed, g, st, pos, legal in _open_positions(range(1, 40)):
        sample = (st.hands, list(st.preds))
        for c in legal[:3]:
            for k in (1, 3):
                each = kernel_rollouts(pos, [c], [sample] * k, policy="sighted", seed=seed, noise=0.2)
                wins, lasted = kernel_rollout_stats(
                    pos, [c], [sample], policy="sighted", seed=seed, noise=0.2, best_of=k
                )
                assert wins == [1 if each[0] else 0]
                assert (lasted == [0]) if wins[0] else (len(g.tricks) + 1 <= lasted[0] <= TRICKS[4])
                made += wins[0]
            checked += 1
    assert checked >= 10 and made >= 1
    with pytest.raises(ValueError, match="best_of"):
        kernel_rollouts(pos, [c], [sample], best_of=0)
    with pytest.raises(ValueError, match="noise"):
        kernel_rollouts(pos, [c], [sample], noise=-0.1)


@pytest.mark.skipif(not COMPILED, reason="numba is not installed: only the plain kernel runs")
def test_plain_python_plays_the_same_noisy_rollouts() -> None:
    """The same source without numba (DSA_WIDGET_NO_NUMBA=1) plays the same noisy best-of
    rollouts (one position with ``branch``): the same successes and tricks per card."""
    code = (
        "from tests.crew.test_kernel_playout import _noisy_stats\n"
        "from dsa_widget.crew.kernel import COMPILED\n"
        "assert not COMPILED\n"
        "print(_noisy_stats())\n"
    )
    env = dict(os.environ, DSA_WIDGET_NO_NUMBA="1")
    root = Path(__file__).resolve().parents[2]
    plain = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True, cwd=root
    )
    assert plain.stdout == f"{_noisy_stats()}\n"


def _noisy_stats() -> list[tuple[list[int], list[int]]]:
    out = []
    for seed, _, st, pos, legal in _open_positions(range(1, 40)):
        if len(out) == 3:
            break
        out.append(
            kernel_rollout_stats(
                pos,
                legal,
                [(st.hands, list(st.preds))] * 3,
                policy="sighted",
                seed=seed,
                noise=0.1,
                best_of=2,
                branch=len(out) == 1,
            )
        )
    return out


def test_branch_tries_the_second_choices_of_the_trick() -> None:
    """``branch``: the first combination (every seat after the mover plays the rule's card) is
    the plain playout, number for number, so a sample made without it is made with it, and
    some are made only by a second choice of a seat still to play in the trick; a position
    at the trick's last card has nothing to branch."""
    rose = 0
    for seed, _, st, pos, legal in _open_positions(range(1, 60)):
        sample = [(st.hands, list(st.preds))]
        for c in legal:
            plain = kernel_rollout_stats(pos, [c], sample, policy="sighted", seed=seed)
            wide = kernel_rollout_stats(pos, [c], sample, policy="sighted", seed=seed, branch=True)
            assert wide[0][0] >= plain[0][0]
            if len(st.cur) == 3:
                assert wide == plain
            rose += wide[0][0] > plain[0][0]
    assert rose >= 1
