"""Submarine's ``search`` bot: it explains its choice in one line of what it believed, the
line rests on its view only, a seat's screen never shows it, and its budget is a number of
playouts (the same seed, the same choice).  Legality over whole games and the no-cheat test
run for every bot in ``test_bots.py``."""

from __future__ import annotations

import json
import random

import pytest

from dsa_widget.core.bots import play_bot_move
from dsa_widget.core.session import HIDDEN_REASONS
from dsa_widget.submarine.bots import SearchBot, make_bot
from dsa_widget.submarine.rules import SubmarineGame
from dsa_widget.submarine.widget import Submarine
from dsa_widget.submarine.words import choice_words

SMALL = {"samples": 3, "horizon": 12}


def _decision(seed: int) -> SubmarineGame:
    """A game stopped at a collection step with a real choice (greedy plays up to it)."""
    g = SubmarineGame(3, seed=seed)
    greedy = make_bot("greedy", seed=1)
    while not g.is_over:
        legal = g.legal_actions()
        if g.phase == "step" and len(legal) > 2 and any(a.startswith("collect ") for a in legal):
            return g
        play_bot_move(g, greedy)
    raise AssertionError("no collection step")


def test_the_explanation_says_what_it_believed_in_one_line() -> None:
    g = _decision(4)
    bot = SearchBot(seed=2, **SMALL)
    a = bot(g.view(g.to_move), g.legal_actions())
    first = bot.explain().splitlines()[0]
    said = choice_words(a, g.view(g.to_move))  # in words, not its code
    assert first.startswith(f"search: {said} — ") and "3 deals drawn from its view" in first
    # the choice's believed win share and margin, and the runner-up it beat
    assert f"{said} wins " in first and "mean margin" in first and "next best" in first
    assert repr(a) not in first
    e = bot.last_explanation
    assert e is not None and set(e["values"]) == set(g.legal_actions())
    assert e["values"][a] == max(e["values"].values())


def test_a_lone_action_costs_no_search() -> None:
    g = SubmarineGame(2, seed=1)
    bot = SearchBot(seed=1, **SMALL)
    assert bot(g.view(g.to_move), ("place 1",)) == "place 1"
    assert "the only legal action" in bot.explain()


def test_the_budget_is_playouts_not_time() -> None:
    """The same seed gives the same choices and the same words (no clock in the decision)."""
    g = _decision(7)
    runs = []
    for _ in range(2):
        bot = SearchBot(seed=5, **SMALL)
        runs.append((bot(g.view(g.to_move), g.legal_actions()), bot.explain()))
    assert runs[0] == runs[1]


def test_illegal_knobs_raise() -> None:
    bad_knobs = (
        {"samples": 0},
        {"samples": True},
        {"horizon": -1},
        {"win_weight": "x"},
        {"rollout": "smart"},
    )
    for bad in bad_knobs:
        with pytest.raises(ValueError):
            SearchBot(**bad)  # type: ignore[arg-type]


def test_a_seats_screen_never_shows_what_the_bot_said() -> None:
    """Under the default table (each screen shows its own seat's view, reveal off) the bot's
    reasons, which rest on its own hand, reach no screen; the session keeps them."""
    w = Submarine(players=["You", "Bot"], seats={1: "search:samples=2,horizon=8"}, seed=3)
    rng = random.Random(1)
    for _ in range(12):
        if w.game.is_over:
            break
        if w.game.to_move == 0:
            w.apply(rng.choice(w.game.legal_actions()))
        else:
            w.play_bots()
    said = w.session.bot_said.get(1)
    assert said and said.startswith("search: ")
    assert said not in json.dumps(w.state) and w.state["bot_said"] == {"1": f"search: {HIDDEN_REASONS}"}
