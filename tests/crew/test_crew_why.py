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


def test_against_pairs_a_run_with_a_table_log_and_its_own_lines(tmp_path: Path) -> None:
    """``--against``: the table's attempts are read from a ``bench_bots.py --resume`` log
    (gzip-compressed or not) or from this script's ``--json`` lines, only for the seats, bot
    and seed asked; the pairing counts the attempts won that the other lost and the reverse."""
    import gzip
    import json

    def table(seats: int, t: int, i: int, ok: bool, bot: str = "planner", seed: int = 2026) -> dict:
        m = f"crew/{bot}={bot}/{seats} seats/target {t}/seed {seed}/bound 60000"
        return {"match": m, "chunk": i, "success": ok, "bound": True, "cpu": 1.0, "sources": {}}

    recs = [
        table(5, 6, 0, True),
        {
            **table(5, 6, 7, True),
            "match": "crew/planner:noise=0=planner:noise=0/5 seats/target 6/seed 2026/b",
        },
        table(5, 6, 1, False),
        table(5, 5, 1, True),
        table(4, 6, 2, True),  # another seat count
        table(5, 6, 3, True, bot="search"),  # another bot
        table(5, 6, 4, True, seed=7),  # other deals
    ]
    path = tmp_path / "crew5.jsonl.gz"
    with gzip.open(path, "wt") as f:
        f.writelines(json.dumps(r) + "\n" for r in recs)
    got = crew_why.logged_results(str(path), 5)
    assert got == {(6, 0): True, (6, 1): False, (5, 1): True}
    assert crew_why.logged_results(str(path), 5, label="planner:noise=0") == {(6, 7): True}  # a spec's "="
    lines = tmp_path / "run.jsonl"
    lines.write_text(
        json.dumps({"target": 6, "i": 9, "success": True, "seats": 5, "label": "planner"}) + "\n"
    )
    assert crew_why.logged_results(str(lines), 5) == {(6, 9): True}
    assert crew_why.logged_results(str(lines), 4) == {}
    words = crew_why.paired_words(
        {0: False, 1: True, 5: True}, {i: ok for (t, i), ok in got.items() if t == 6}
    )
    assert words.startswith("2 attempts paired: 1 against 1; 1 won that were lost, 1 lost that were won")
    assert crew_why.paired_words({0: True}, {1: True}).startswith("no attempt paired")
    # two runs' lines in one file (--json appends): refused, not merged
    with lines.open("a") as f:
        f.write(
            json.dumps({"target": 6, "i": 9, "success": False, "seats": 5, "spec": "planner:noise=0"}) + "\n"
        )
    with pytest.raises(ValueError, match="two runs"):
        crew_why.logged_results(str(lines), 5)
