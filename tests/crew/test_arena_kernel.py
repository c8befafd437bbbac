"""success_rates hands the cards of a random or crewmate table to the compiled kernel
(:func:`dsa_widget.crew.kernel.kernel_playout`) and the rates stay those of the engine-played
attempts; other bots, Tonoja's table and mission constraints keep playing every card."""

from __future__ import annotations

from typing import Any

import pytest

from dsa_widget.crew import kernel
from dsa_widget.crew.bots import CrewmateBot, SearchBot, success_rates


@pytest.fixture
def playouts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = kernel.kernel_playout

    def counting(position: Any, **kw: Any) -> Any:
        calls.append(kw["policy"])
        return real(position, **kw)

    monkeypatch.setattr(kernel, "kernel_playout", counting)
    return calls


def test_kernel_plays_the_cards_of_random_and_crewmate_tables(playouts: list[str]) -> None:
    success_rates(["random", CrewmateBot()], seats=(4,), targets=(2,), games=4, seed=3, progress=False)
    assert playouts.count("random") == 4 and playouts.count("greedy") == 4
    playouts.clear()
    success_rates(["crewmate"], seats=(2,), targets=(1,), games=2, seed=3, progress=False)  # Tonoja
    success_rates([SearchBot(samples=1)], seats=(3,), targets=(1,), games=1, seed=3, progress=False)
    success_rates(["crewmate"], seats=(4,), targets=(1,), games=2, seed=3, progress=False, kernel=False)
    assert playouts == []


@pytest.mark.parametrize("bot", ["random", "crewmate"])
def test_kernel_rates_are_the_engines(bot: str) -> None:
    """The same 150 attempts (the same deals, tasks and owners; the cards drawn afresh) at
    target 2 with and without the kernel: R-14.1 judges both, the rates must agree within
    their 95% Wilson intervals."""
    kw: dict[str, Any] = {"seats": (4,), "targets": (2,), "games": 150, "seed": 5, "progress": False}
    fast = success_rates([bot], **kw).row(bot, 4, 2)
    slow = success_rates([bot], kernel=False, **kw).row(bot, 4, 2)
    assert fast.low <= slow.high and slow.low <= fast.high, (fast, slow)
    assert abs(fast.successes - slow.successes) <= 25, (fast, slow)
