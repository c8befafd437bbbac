"""The lean playout loop (dsa_widget.submarine.fast) against the checked engine: the same seed
and the same random choices give the same actions, scores and winners, for every option set."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dsa_widget.submarine.fast import FastState, deal, playout, playout_games
from dsa_widget.submarine.rules import SubmarineGame

from .test_conformance import _OPTIONS


def _fields(s: FastState) -> tuple[Any, ...]:
    return (
        s.tiles,
        s.bj,
        s.ship,
        s.bath,
        [sorted(x) for x in s.slots],
        s.jokers,
        s.hand,
        s.pile,
        s.live,
        s.out,
        s.phase,
        s.active,
        s.turn,
        s.play_turns,
        s.condition,
        s.winners,
    )


# 60 whole games twice per option set: the fast tier plays the first set (the families below
# still run every set)
@pytest.mark.parametrize(
    "options", [o if i == 0 else pytest.param(o, marks=pytest.mark.slow) for i, o in enumerate(_OPTIONS)]
)
def test_the_fast_loop_plays_the_engines_random_games(options: dict[str, Any]) -> None:
    """60 games per option set (2-5 players): the fast loop and ``random_playout`` with the same
    seed make the same choices, action for action, and end alike."""
    for seed in range(60):
        n = 2 + seed % 4
        g = SubmarineGame(n, seed=seed, options=options)
        s = deal(n, seed=seed, options=options)
        assert _fields(s) == _fields(FastState.from_game(g))  # the setup is drawn alike
        engine_trace: list[str] = []
        fast_trace: list[str] = []
        g.random_playout(random.Random(seed), trace=engine_trace)
        playout(s, random.Random(seed), trace=fast_trace)
        assert fast_trace == engine_trace
        assert (s.scores, s.winners, s.condition, s.turn) == (g.scores, g.winners, g.result[0], g.turn_number)  # type: ignore[index]
        assert _fields(s) == _fields(FastState.from_game(g))


@pytest.mark.parametrize("options", _OPTIONS)
def test_fast_traces_replay_through_the_checked_apply(options: dict[str, Any]) -> None:
    """Every action the fast loop takes is legal for ``apply``, and replaying them ends the game
    with the same scores, winners and state."""
    for seed in range(6):
        n = 2 + (seed + 1) % 4
        s = deal(n, seed=seed, options=options)
        trace: list[str] = []
        playout(s, random.Random(100 + seed), trace=trace)
        g = SubmarineGame(n, seed=seed, options=options)
        for a in trace:
            g.apply(a)
        assert g.is_over and (g.scores, g.winners, g.result[0]) == (s.scores, s.winners, s.condition)  # type: ignore[index]
        assert _fields(FastState.from_game(g)) == _fields(s)


@pytest.mark.parametrize("options", _OPTIONS)
def test_playouts_from_the_middle_of_a_turn(options: dict[str, Any]) -> None:
    """From any position (also in the middle of a step, as a bot's candidate action leaves it),
    the fast loop plays only legal actions, to the same end as the checked replay."""
    rng = random.Random(7)
    for seed in range(10):
        n = 2 + seed % 4
        g = SubmarineGame(n, seed=seed, options=options)
        for _ in range(rng.randrange(20, 400)):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        s = FastState.from_game(g)
        trace: list[str] = []
        playout(s, random.Random(seed), trace=trace)
        for a in trace:
            g.apply(a)
        assert g.is_over
        assert _fields(FastState.from_game(g)) == _fields(s)


def test_a_cut_off_playout_and_a_finished_state() -> None:
    s = deal(3, seed=4)
    playout(s, random.Random(1), max_turns=40)
    assert s.condition is None and s.turn == 40
    done = s.copy()
    playout(done, random.Random(2))
    assert done.is_over and not s.is_over
    before = _fields(done)
    playout(done, random.Random(3))
    assert _fields(done) == before
    assert playout_games(2, games=5, seed=9) == 5


@pytest.mark.parametrize("options", _OPTIONS)
def test_a_first_action_then_random_play(options: dict[str, Any]) -> None:
    """``first`` applies a given legal action (a bot's candidate) as ``apply`` does, whatever
    the phase; the rest of the trace replays too."""
    rng = random.Random(11)
    for seed in range(4):
        n = 2 + seed % 4
        g = SubmarineGame(n, seed=seed, options=options)
        for _ in range(rng.randrange(0, 300)):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        base = FastState.from_game(g)
        for a in g.legal_actions():
            s = base.copy()
            trace: list[str] = []
            playout(s, random.Random(seed), trace=trace, first=a)
            assert trace[0] == a
            h = g.clone()
            for x in trace:
                h.apply(x)
            assert h.is_over and _fields(FastState.from_game(h)) == _fields(s)


@pytest.mark.parametrize("options", _OPTIONS)
def test_guided_playouts_replay_through_the_checked_apply(options: dict[str, Any]) -> None:
    """The guided policy (greedy's rules of thumb for every seat) takes only legal actions, from
    a fresh deal and from the middle of a turn after a candidate action, for every option set."""
    rng = random.Random(13)
    for seed in range(8):
        n = 2 + seed % 4
        g = SubmarineGame(n, seed=seed, options=options)
        for _ in range(rng.randrange(0, 200) if seed % 2 else 0):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        first = rng.choice(g.legal_actions())
        s = FastState.from_game(g)
        trace: list[str] = []
        playout(s, random.Random(seed), trace=trace, first=first, guided=True)
        assert trace[0] == first
        for a in trace:
            g.apply(a)
        assert g.is_over and _fields(FastState.from_game(g)) == _fields(s)


def _greedy_positions(players: int, seed: int) -> list[SubmarineGame]:
    from dsa_widget.submarine.bots import GreedyBot

    g = SubmarineGame(players, seed=seed)
    bot = GreedyBot(seed=1)
    out = []
    while not g.is_over:
        if g.phase in ("sail", "mode") and len(g.legal_actions()) > 1:
            out.append(g.clone())
        g.apply(bot(g.view(g.to_move), g.legal_actions()))
    return out


def test_guided_seats_sail_and_declare_as_greedy_does() -> None:
    """The guided policy is greedy's: where to sail (the column whose best collection, a new
    type 1, a duplicate 0.3, less a card 0.15 and 0.25 a payment to an opponent's bathyscaphe at
    or above the tile (SUBMARINE.md 6.5), is best, less 0.03 a column sailed; the end -0.5) and
    whether to collect (a collection worth more than nothing), in positions of greedy games."""
    from dsa_widget.submarine.bots import GreedyBot

    checked = 0
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        for g in _greedy_positions(players, seed):
            view, legal = g.view(g.to_move), g.legal_actions()
            _, info = GreedyBot().decide(view, legal)
            values = sorted(info["values"].values(), reverse=True)
            if values[0] - values[1] < 1e-9:
                continue  # a tie: either choice is greedy's
            s = FastState.from_game(g)
            trace: list[str] = []
            playout(s, random.Random(0), trace=trace, guided=True, max_turns=s.turn + 1)
            assert trace[0] == max(legal, key=lambda a: info["values"][a])
            checked += 1
    assert checked > 50


def test_a_redeal_keeps_what_the_seat_sees() -> None:
    """``redeal`` deals the cards a seat cannot see again: its own hand, the board, the cards out
    of play, every hand and pile size stay; no card is made or lost; other deals come up."""
    g = SubmarineGame(4, seed=8)
    rng = random.Random(3)
    for _ in range(150):
        g.apply(rng.choice(g.legal_actions()))
    base = FastState.from_game(g)
    seen = set()
    for i in range(20):
        s = base.copy()
        s.redeal(2, random.Random(i))
        assert s.hand[2] == base.hand[2] and s.tiles == base.tiles and s.out == base.out
        assert [sum(h) for h in s.hand] == [sum(h) for h in base.hand]
        assert [len(p) for p in s.pile] == [len(p) for p in base.pile]
        for k in range(5):
            held = sum(h[k] for h in s.hand) + sum(p.count(k) for p in s.pile)
            assert held == s.live[k] and held + s.out[k] <= 12
        seen.add(repr((s.hand, s.pile)))
    assert len(seen) > 10
