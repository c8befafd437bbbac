"""``benchmarks/crew_why.py --open-hands``: a cheating diagnostic (the planner's drawn deals all
the true deal) that must draw exactly the true hands, refuse anything but planners, and leave
the default path (the honest planner replaying the benchmark's attempt) as it was."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from dsa_widget.core.bots import play_bot_move
from dsa_widget.crew.bots.arena import attempt_table
from dsa_widget.crew.bots.planner import PlannerBot

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))

import crew_why  # noqa: E402

_SPEC = "planner:samples=3,task_samples=2,solver_samples=2"


def _to_a_card_choice(game: Any, bots: list[Any]) -> None:
    """Play on until the seat to move chooses among at least two cards (after a trick or two, so
    that the view's hidden cards are not the deal's only unknown)."""
    while not (game.step == "play" and len(game.tricks) >= 1 and len(game.legal_actions()) > 1):
        play_bot_move(game, bots[game.to_move])


def test_open_hands_draws_the_true_hands_and_the_honest_planner_does_not() -> None:
    game, bots = attempt_table(_SPEC, "planner", 4, 3, 0, 2026)
    cheats = crew_why.open_hands(bots, game)
    _to_a_card_choice(game, cheats)
    seat = game.to_move
    true = [game.hand_mask(s) for s in range(game.seats)]
    view = game.view(seat)
    drawn = cheats[seat]._draw(view, 3)
    assert len(drawn) == 3
    assert all([g.hand_mask(s) for s in range(g.seats)] == true for g in drawn)
    # the planner a player gets draws from its view: with dozens of hidden cards, three uniform
    # draws are (all but surely) not all the true deal
    honest = bots[seat]._draw(view, 3)
    assert type(bots[seat]) is PlannerBot
    assert any([g.hand_mask(s) for s in range(g.seats)] != true for g in honest)


def test_open_hands_refuses_a_bot_that_is_not_a_planner() -> None:
    game, bots = attempt_table("crewmate", "crewmate", 3, 1, 0, 2026)
    with pytest.raises(ValueError, match="planner"):
        crew_why.open_hands(bots, game)


def test_the_default_path_replays_the_attempt_and_the_diagnostic_finishes_it() -> None:
    game, bots = attempt_table(_SPEC, "planner", 3, 1, 0, 2026)
    while not game.is_over:
        play_bot_move(game, bots[game.to_move])
    rec = crew_why.run_attempt(_SPEC, "planner", 3, 1, 0, 2026, 1000, why=False)
    assert rec["success"] == (game.outcome.result == "success")
    assert (rec["cause"], rec["trick"]) == (game.outcome.cause, game.outcome.trick)
    cheat = crew_why.run_attempt(_SPEC, "planner", 3, 1, 0, 2026, 1000, why=False, cheat=True)
    assert isinstance(cheat["success"], bool) and cheat["cpu"]
