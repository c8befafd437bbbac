"""The search bot rolls out on the compiled kernel where it can play the position and in
Python elsewhere (Tonoja), and its knob ``kernel`` is checked."""

from __future__ import annotations

from typing import Any

import pytest

from dsa_widget.core.bots import play_bot_move
from dsa_widget.crew import kernel
from dsa_widget.crew.bots import SearchBot
from dsa_widget.crew.rules import CrewGame


def _calls(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = kernel.kernel_rollouts

    def counting(position: Any, cards: Any, samples: Any, **kw: Any) -> list[int]:
        calls.append(len(samples))
        return real(position, cards, samples, **kw)

    monkeypatch.setattr(kernel, "kernel_rollouts", counting)
    return calls


@pytest.mark.parametrize(("players", "use"), [(4, True), (2, False)])
def test_search_rolls_out_on_the_kernel_where_it_can(
    monkeypatch: pytest.MonkeyPatch, players: int, use: bool
) -> None:
    calls = _calls(monkeypatch)
    g = CrewGame(players, mission={"target": 2, "communication": "none"}, seed=4, timed=True)
    bot = SearchBot(seed=1, samples=3)
    searched = 0
    while not g.is_over:
        legal = g.legal_actions()
        play_bot_move(g, bot)
        if g.step == "play" and sum(a.startswith("play ") for a in legal) > 1:
            e = bot.last_explanation
            assert e is not None
            searched += "values" in e
    assert searched > 0
    assert (len(calls) > 0) == use, calls
    assert all(n == 3 for n in calls)  # every sample in one call


def test_kernel_knob(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _calls(monkeypatch)
    g = CrewGame(4, mission={"target": 2, "communication": "none"}, seed=4, timed=True)
    bot = SearchBot(seed=1, samples=2, kernel=False)
    while not g.is_over:
        play_bot_move(g, bot)
    assert calls == []
    with pytest.raises(ValueError, match="kernel"):
        SearchBot(kernel="yes")
