"""The fast path (dsa_widget/crew/playouts.py) against the engine: the same choices through
:class:`CrewGame` and through :class:`PlayState` give the same tricks, statuses and outcome."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dsa_widget.crew.playouts import (
    PlayState,
    greedy_best,
    greedy_play,
    random_deal,
    random_deals,
    random_play,
    sighted_play,
)
from dsa_widget.crew.rules import CrewGame


def _to_play(game: CrewGame, rng: random.Random) -> None:
    """Random choices up to the play phase; every communication passed."""
    while not game.is_over and game.step not in ("play",):
        legal = game.legal_actions()
        if game.step == "communicate":
            game.apply("pass")
        else:
            game.apply(legal[rng.randrange(len(legal))])


def _same(game: CrewGame, st: PlayState) -> None:
    assert game.outcome is not None and st.result is not None
    assert st.result == game.outcome.result
    assert st.trick_no == game.outcome.trick
    assert st.statuses == [t.status for t in game.tasks]
    assert st.k == list(game.tricks_won)
    assert tuple(t.plays for t in st.tracker.tricks) == tuple(t.plays for t in game.tricks)


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_random_playouts_match_the_engine(players: int) -> None:
    for seed in range(12):
        g = CrewGame(
            players, mission={"target": 1 + seed % 6, "communication": "none"}, seed=seed, timed=True
        )
        _to_play(g, random.Random(seed))
        if g.is_over:
            continue
        st = PlayState.from_game(g)
        r1, r2 = random.Random(100 + seed), random.Random(100 + seed)
        st.play_out(random_play, r1)
        while not g.is_over:
            legal = g.legal_actions()
            g.apply(legal[int(r2.random() * len(legal))])
        _same(g, st)


@pytest.mark.parametrize("policy", [greedy_play, sighted_play])
@pytest.mark.parametrize("players", [2, 4, 5])
def test_policy_playouts_match_the_engine_from_mid_trick(players: int, policy: Any) -> None:
    """Greedy (or sighted) cards chosen on a copy, applied to the game; the state made in the
    middle of a trick."""
    for seed in range(6):
        g = CrewGame(players, mission={"target": 3, "communication": "none"}, seed=seed, timed=True)
        rng = random.Random(seed)
        _to_play(g, rng)
        for _ in range(5):  # a few random cards first: some tricks done, one in progress
            if g.is_over:
                break
            legal = g.legal_actions()
            g.apply(legal[rng.randrange(len(legal))])
        if g.is_over:
            continue
        st = PlayState.from_game(g)
        assert st.to_move == (g.acting_for if g.acting_for is not None else -1)
        r = random.Random(seed)
        while st.result is None:
            c = policy(st, r)
            st.play(c)
            from dsa_widget.crew.cards import name

            g.apply(f"play {name(c)}")
        _same(g, st)


def test_random_deals_are_complete_and_seeded() -> None:
    a = [random_deal(random.Random(s), seats=4, target=3) for s in range(20)]
    b = [random_deal(random.Random(s), seats=4, target=3) for s in range(20)]
    assert a == b
    assert all(
        r.result in ("success", "failure") and set(r.statuses) <= {"open", "done", "failed"} for r in a
    )
    assert all(r.result == "failure" or set(r.statuses) == {"done"} for r in a)
    ok, n = random_deals(30, random.Random(1), seats=5, target=2, policy=greedy_play)
    assert n == 30 and 0 <= ok <= 30
    with pytest.raises(ValueError):
        random_deal(random.Random(1), seats=2)


def test_from_view_holds_only_the_viewers_cards() -> None:
    g = CrewGame(4, mission={"target": 3, "communication": "none"}, seed=4, timed=True)
    _to_play(g, random.Random(4))
    seat = g.to_move
    st = PlayState.from_view(g.view(seat))
    assert st.hands[seat] == g.hand_mask(seat)
    assert all(st.hands[s] == 0 for s in range(4) if s != seat)
    with pytest.raises(ValueError):
        PlayState.from_game(CrewGame(4, seed=1))


def _mask(cards: list[int]) -> int:
    return sum(1 << c for c in cards)


def test_sighted_rule_leads_a_task_card_nobody_can_beat() -> None:
    """Seat 0 must win G6 (task 4) and holds G6-G9 and S4; each other seat holds a green, so
    it must follow green (R-10.2: follow the led colour when able) and its submarines cannot
    take the trick.  The crewmate's rule fears the submarines it cannot place and leads
    something else; the sighted rule reads the drawn hands, sees no threat and leads G6."""
    from dsa_widget.crew.tasks import TASKS

    hands = [
        _mask([32, 33, 34, 35, 39, 6, 7, 8, 16, 17]),  # G6-G9, S4, P7-P9, Y8-Y9
        _mask([27, 0, 1, 2, 3, 4, 5, 9, 10, 11]),  # G1, P1-P6, Y1-Y3
        _mask([28, 29, 12, 13, 14, 15, 18, 19, 20, 21]),  # G2-G3, Y4-Y7, B1-B4
        _mask([30, 31, 22, 23, 24, 25, 26, 36, 37, 38]),  # G4-G5, B5-B9, S1-S3
    ]
    st = PlayState(hands, [(TASKS[4], 0)], captain=0)
    assert 32 not in greedy_best(st)
    assert greedy_best(st, sighted=True) == (32,)
    assert sighted_play(st, random.Random(1)) == 32
    st.play(32)
    for _ in range(3):
        st.play(sighted_play(st, random.Random(2)))
    assert st.statuses == ["done"]
