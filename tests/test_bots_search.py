"""The search bots' knobs added for strength (issue 10): batched rewards and ISMCTS leaf playouts."""

from __future__ import annotations

import random

import pytest

from dsa_widget import Game
from dsa_widget.deep_sea.bots import make_bot
from dsa_widget.deep_sea.bots.search import batch_rewards, kernel_rewards

pytest.importorskip("numpy")


def _decision(players: int, seed: int) -> Game:
    g = Game(players=players, seed=seed)
    g.roll((3, 3))
    return g


@pytest.mark.parametrize("n", [2, 3, 4, 6])
def test_batch_rewards_vectorized_matches_playout_by_playout(n):
    """The numpy sums are the sums of :func:`kernel_rewards`, ties for the top included."""
    rng = random.Random(n)
    for _ in range(30):
        k = rng.randint(1, 40)
        scores = [rng.choice([0, 0, 5, 12, 12, 30, 61]) for _ in range(k * n)]
        winners = [rng.randrange(1, 1 << n) if rng.random() < 0.9 else 0 for _ in range(k)]
        ended = [rng.random() < 0.5 for _ in range(k)]
        t, mw = rng.choice([8.0, 11.3]), rng.choice([0.0, 0.2, 1.0])
        fast = batch_rewards(scores, winners, ended, n, t, mw, vectorized=True)
        slow = batch_rewards(scores, winners, ended, n, t, mw, vectorized=False)
        ref = [
            sum(kernel_rewards(scores[j * n : (j + 1) * n], winners[j], ended[j], t, mw)[q] for j in range(k))
            for q in range(n)
        ]
        assert fast == pytest.approx(ref, abs=1e-9)
        assert slow == pytest.approx(ref, abs=1e-9)


def test_leaf_playouts_knob_checked_and_picks_the_engine():
    for bad in (0, -3, 2.5, "8"):
        with pytest.raises(ValueError, match="leaf_playouts"):
            make_bot("ismcts", leaf_playouts=bad)
    assert make_bot("ismcts", leaf_playouts=4).use_kernel  # several rollouts a call: the kernel
    assert not make_bot("ismcts", leaf_playouts=1).use_kernel
    assert not make_bot("ismcts", leaf_playouts=4, engine="python").use_kernel


@pytest.mark.parametrize("engine", ["kernel", "python"])
def test_leaf_playouts_average_several_rollouts(engine):
    """Each leaf is valued by ``leaf_playouts`` rollouts: the share of them getting home is a
    multiple of 1/k, not only 0 or 1, and the mean rewards lie in the rewards' range."""
    g = _decision(3, 8)
    view = g.view(0)
    bot = make_bot("ismcts", seed=2, leaf_playouts=8, engine=engine)
    shares = set()
    for c in g.legal_choices():
        for _ in range(6):
            leaf = bot._sample(view)
            leaf.apply_unchecked(c)
            home, r = bot._leaf(leaf, 0, view.round, bot._playout_policy(0), [])
            assert (home * 8) == int(home * 8) and 0 <= home <= 1
            assert len(r) == 3 and all(-0.2 - 1e-9 <= x <= 1.2 + 1e-9 for x in r)
            shares.add(home)
    assert shares - {0.0, 1.0}, shares  # some leaves were home in some rollouts only


def test_leaf_playouts_play_legal_seeded_games():
    """With several rollouts a leaf, on either engine, the bot plays whole games legally and the
    same seed replays the same game."""
    for engine in ("kernel", "python"):
        moves = []
        for _ in range(2):
            g = Game(players=3, seed=4)
            bot = make_bot("ismcts", seed=9, playouts=10, leaf_playouts=3, engine=engine)
            seq = []
            while not g.is_over:
                if g.step == "roll":
                    g.apply("roll")
                    continue
                lg = g.legal_choices()
                c = bot(g.view(g.current_player), lg)
                assert c in lg
                seq.append(c)
                g.apply(c)
            moves.append(seq)
        assert moves[0] == moves[1]


@pytest.mark.parametrize("name", ["mc", "ismcts"])
def test_search_pauses_the_garbage_collector_only_during_a_decision(name, monkeypatch):
    """The cyclic collector is off while the search runs and back on after it (also when the
    search raises); a collector the caller had switched off stays off."""
    import gc

    g = _decision(2, 3)
    bot = make_bot(name, seed=1, playouts=4)
    seen = []
    search = bot._decide

    def spy(view, legal):
        seen.append(gc.isenabled())
        return search(view, legal)

    monkeypatch.setattr(bot, "_decide", spy)
    assert gc.isenabled()
    assert bot(g.view(0), g.legal_choices()) in g.legal_choices()
    assert seen == [False] and gc.isenabled()

    def boom(view, legal):
        raise RuntimeError("boom")

    monkeypatch.setattr(bot, "_decide", boom)
    with pytest.raises(Exception, match="boom"):
        bot(g.view(0), g.legal_choices())
    assert gc.isenabled()
    monkeypatch.setattr(bot, "_decide", spy)
    gc.disable()
    try:
        bot(g.view(0), g.legal_choices())
        assert seen[-1] is False and not gc.isenabled()
    finally:
        gc.enable()
