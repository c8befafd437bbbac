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

import random

import pytest

from dsa_widget.crew.cards import card
from dsa_widget.crew.draw import TRICKS
from dsa_widget.crew.kernel import encode_position, kernel_playout, kernel_rollout_stats, kernel_rollouts
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
    for seed in range(30 if policy == "random" else 60):
        g = _position(seats, 1000 * seats + seed)
        if g is None:
            continue
        st = PlayState.from_game(g)
        if st.result is not None:
            continue
        pos = encode_position(st, options=g.options, constraints=g.mission.constraints)
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
    for seed in range(1, 30):
        g = _position(4, seed)
        if g is None:
            continue
        st = PlayState.from_game(g)
        if not st.tasks:
            continue
        pos = encode_position(st, options=g.options)
        legal = [c for c in range(40) if st.legal() >> c & 1]
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
