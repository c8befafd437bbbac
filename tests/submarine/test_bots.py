"""Submarine's bots (dsa_widget.submarine.bots): legal play, no cheating, strength, tournaments."""

from __future__ import annotations

import random
from typing import Any

import pytest

from dsa_widget.core.bots import BotError, play_bot_move, resolve_bot
from dsa_widget.core.tournament import tournament as core_tournament
from dsa_widget.submarine.bots import (
    ARENA,
    BOT_NAMES,
    ArenaGame,
    GreedyBot,
    MonteCarloBot,
    RandomBot,
    SearchBot,
    make_bot,
    parse_bot_spec,
    tournament,
)
from dsa_widget.submarine.rules import SubmarineGame

from .test_conformance import _OPTIONS

#: a small budget: the tests play many games on a shared machine
FAST_MC = {"samples": 2, "horizon": 12}


def _bot(name: str, seed: int) -> Any:
    return make_bot(name, seed=seed, **(FAST_MC if name in ("mc", "search") else {}))


def test_the_registry() -> None:
    """Unknown names and knobs: tests/contract (every game's registry)."""
    assert BOT_NAMES == ("random", "greedy", "mc", "search")
    assert isinstance(resolve_bot("mc", SubmarineGame), MonteCarloBot)
    assert isinstance(resolve_bot("search", SubmarineGame), SearchBot)
    assert isinstance(parse_bot_spec("greedy:pay_cost=0.5"), GreedyBot)
    assert isinstance(make_bot("random", seed=1), RandomBot)
    with pytest.raises(ValueError):
        make_bot("mc", samples=0)
    with pytest.raises(ValueError):
        make_bot("search", horizon=0)
    with pytest.raises(ValueError):
        make_bot("search", prior="yes")
    with pytest.raises(ValueError):
        make_bot("greedy", pay_cost="high")


@pytest.mark.parametrize("index", range(len(_OPTIONS)))
def test_every_bot_plays_complete_games(index: int) -> None:
    """2-5 players over the option sets, every seat a built-in bot; ``play_bot_move`` checks
    every action with the checked ``apply`` (an illegal one raises :class:`BotError`)."""
    options = _OPTIONS[index]
    for n in (2 + index % 4, 2 + (index + 2) % 4):
        names = ["mc", "search", "greedy", "random", "greedy"][:n] if n > 2 else ["search", "mc"]
        if index % 2:
            names.reverse()
        g = SubmarineGame(n, seed=index * 10 + n, options=options)
        bots = [_bot(name, seed) for seed, name in enumerate(names)]
        while not g.is_over:
            play_bot_move(g, bots[g.to_move])
        assert g.result is not None and g.winners
        assert all(b.explain() for b in bots)


def test_an_illegal_choice_is_caught() -> None:
    # ArenaGame: SubmarineGame has no ``current_player``, which BotError's message asks for
    g = ArenaGame(2, seed=1)
    with pytest.raises(BotError):
        play_bot_move(g, lambda view, legal: "dive")


def _positions() -> list[SubmarineGame]:
    """Games stopped at decisions of every phase (also mid-step), for several option sets."""
    out = []
    rng = random.Random(5)
    for i, options in enumerate(_OPTIONS):
        g = SubmarineGame(2 + i % 4, seed=i, options=options)
        wanted = {"place", "sail", "mode", "step", "wait"}
        while not g.is_over and wanted:
            legal = g.legal_actions()
            if g.phase in wanted and len(legal) > 1 and rng.random() < 0.3:
                wanted.discard(g.phase)
                out.append(g.clone())
            g.apply(rng.choice(legal))
    return out


@pytest.mark.parametrize("name", BOT_NAMES)
def test_no_cheating(name: str) -> None:
    """The same view gives the same action and the same explanation (same seed) whatever the
    hidden cards are: the real game and a state re-dealt from the seat's view (other hands, every
    pile, the undealt rest)."""
    rng = random.Random(3)
    hidden_differed = 0
    for g in _positions():
        seat = g.to_move
        other = g.view(seat).sample(rng)  # the hidden information reshuffled
        hidden_differed += other.state_dict() != g.state_dict()
        v1, v2 = g.view(seat), other.view(seat)
        assert v1.to_dict() == v2.to_dict()
        b1, b2 = _bot(name, 42), _bot(name, 42)
        a1 = b1(v1, g.legal_actions())
        a2 = b2(v2, other.legal_actions())
        assert a1 == a2 and a1 in g.legal_actions()
        assert b1.explain() == b2.explain()  # its reasons rest on the view only, too
    assert hidden_differed > 5


def _lower_bound(res: Any, bot: str) -> float:
    lo: float = res.row(bot)["win_ci"][0]
    return lo


@pytest.mark.slow
def test_greedy_beats_random() -> None:
    """Seeded, seats rotated: the 95% Wilson lower bound of greedy's win rate is above the fair
    share, in 2- and 4-player games."""
    res = tournament(["greedy", "random"], games=30, seed=1, workers=1, progress=False)
    assert _lower_bound(res, "greedy") > 0.5
    res = tournament(["greedy", "random", "random", "random"], games=12, seed=2, workers=1, progress=False)
    assert _lower_bound(res, "greedy") > 0.25


@pytest.mark.slow
def test_mc_beats_random() -> None:
    res = tournament([MonteCarloBot(**FAST_MC), "random"], games=12, seed=4, workers=1, progress=False)
    assert _lower_bound(res, "mc") > 0.5


def test_a_tiny_tournament() -> None:
    """The core runner with Submarine's arena: structure, seat rotation and Wilson bounds."""
    bots = [MonteCarloBot(samples=1, horizon=6), "greedy", "random", "random"]
    res = core_tournament(bots, games=4, game=ARENA, seed=7, workers=1, progress=False)
    assert sorted(r["bot"] for r in res.rows) == ["greedy", "mc", "random", "random#2"]
    assert len(res.games) == 4 and all(r["games"] == 4 for r in res.rows)
    assert sum(r["wins"] for r in res.rows) == pytest.approx(4)
    for r in res.rows:
        lo, hi = r["win_ci"]
        assert 0.0 <= lo <= r["win_rate"] <= hi <= 1.0
        assert r["win_rate"] == pytest.approx(r["wins"] / r["games"])
    for gm in res.games:
        assert sorted(gm["seats"]) == [0, 1, 2, 3] and len(gm["scores"]) == 4 and gm["winners"]
    again = core_tournament(bots, games=4, game=ARENA, seed=7, workers=1, progress=False)
    assert again.to_dict() == res.to_dict()
    with pytest.raises(ValueError):
        tournament(["random"] * 6, games=1, progress=False)
    with pytest.raises(Exception, match="deck"):
        tournament(["random", "random"], games=1, setups=[{"options": {"deck": "52"}}], progress=False)


@pytest.mark.slow
def test_search_beats_greedy() -> None:
    """Issue 33: ``search`` (rollouts with every seat on greedy's rules) is clearly stronger than
    ``greedy``: seeded, seats rotated, the 95% Wilson lower bound of its two-player win rate is
    above 1/2 at its default budget."""
    res = tournament(["search", "greedy"], games=20, seed=5, workers=1, progress=False)
    assert _lower_bound(res, "search") > 0.5


def test_mc_refuses_a_time_limit_that_is_not_a_number() -> None:
    """``mc:time_limit=x`` failed with a TypeError ('>' between str and int) instead of naming
    the knob."""
    from dsa_widget.submarine.bots import make_bot

    with pytest.raises(ValueError, match="time_limit"):
        make_bot("mc", time_limit="x")
    assert make_bot("mc", time_limit=0.5).time_limit == 0.5


def test_mc_refuses_weights_and_a_horizon_of_the_wrong_kind() -> None:
    """win_weight='x' or prior=None failed mid-playout; horizon=True passed for a horizon of 1."""
    from dsa_widget.submarine.bots import make_bot

    for knob, bad in (("win_weight", "x"), ("prior", None), ("horizon", True)):
        with pytest.raises(ValueError, match=knob):
            make_bot("mc", **{knob: bad})
