"""Work that must not hold up a board (issue 29, item 3: no silent waits; issue 31, item 4: a
fast first start): the first hints of a fresh Python are computed beside the kernel while the
board is already drawn and says it is warming up; ``python -m dsa_widget warm`` builds the
compiled caches ahead, at set-up."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from dsa_widget.core import background
from dsa_widget.core.background import in_background


class FakeKernelLoop:
    """A kernel's event loop as ``kernel.io_loop``: callbacks from any thread, run on ours."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, tuple[Any, ...]]] = []
        self.arrived = threading.Event()

    def add_callback(self, fn: Any, *args: Any) -> None:
        self.calls.append((fn, args))
        self.arrived.set()

    def drain(self) -> None:
        """Wait for every hints thread to end and run what they handed back, until none is left
        (a result may start the next computation)."""
        while True:
            for t in threading.enumerate():
                if t.name.startswith("dsa-hints"):
                    t.join(120)
            calls, self.calls = self.calls, []
            self.arrived.clear()
            if not calls:
                return
            for fn, args in calls:
                fn(*args)

    def run_pending(self) -> None:
        assert self.arrived.wait(120), "the background work never finished"
        calls, self.calls = self.calls, []
        self.arrived.clear()
        for fn, args in calls:
            fn(*args)


@pytest.fixture
def compiling(monkeypatch: pytest.MonkeyPatch) -> threading.Event:
    """The hints' first figures in a fresh Python: they take as long as the test says (they
    end when the returned event is set), so the board surely stops waiting for them first."""
    from dsa_widget.deep_sea import widget as deep_sea_widget

    go = threading.Event()
    real = deep_sea_widget.overlay_for

    def slow(*args: Any, **kwargs: Any) -> Any:
        if threading.current_thread() is not threading.main_thread():
            assert go.wait(60)
        return real(*args, **kwargs)

    monkeypatch.setattr(deep_sea_widget, "overlay_for", slow)
    monkeypatch.setattr(deep_sea_widget, "_WARM", [])
    monkeypatch.setattr(deep_sea_widget, "WARM_WAIT", 0.01)
    return go


@pytest.fixture
def loop(monkeypatch: pytest.MonkeyPatch) -> FakeKernelLoop:
    fake = FakeKernelLoop()
    monkeypatch.setattr(background, "kernel_loop", lambda: fake)
    return fake


def test_without_a_kernel_the_work_runs_at_once():
    got: list[int] = []
    assert in_background(lambda: 6 * 7, got.append) is False
    assert got == [42]


def test_quick_work_is_delivered_before_returning(loop):
    got: list[int] = []
    assert in_background(lambda: 42, got.append, wait=60.0) is False  # done long before 60 s
    assert got == [42] and loop.calls == []


def test_an_error_in_the_work_is_raised_on_the_kernel_thread(loop):
    def work() -> int:
        raise ZeroDivisionError("boom")

    got: list[int] = []
    with pytest.raises(ZeroDivisionError, match="boom"):
        in_background(work, got.append, wait=60.0)
    assert got == []


def test_in_a_kernel_the_work_runs_in_a_thread_and_its_result_comes_back_on_the_loop(loop):
    threads: list[str] = []
    got: list[int] = []
    go = threading.Event()

    def work() -> int:
        assert go.wait(60)  # a long compile: it ends after the caller has stopped waiting
        threads.append(threading.current_thread().name)
        return 42

    assert in_background(work, got.append, name="dsa-test", wait=0.01) is True
    assert got == []
    go.set()
    loop.run_pending()
    assert threads == ["dsa-test"] and got == [42]  # computed off the caller's thread, delivered on it


def test_the_first_hints_of_a_fresh_python_do_not_hold_up_the_board(loop, compiling, monkeypatch):
    from dsa_widget.deep_sea.widget import WARMING_NOTE, DeepSea

    w = DeepSea(players=["Ann", "Bob"], seed=3)
    # the board is published, and the hints panel says what is going on instead of nothing
    assert w.state["players"] == ["Ann", "Bob"]
    assert w.overlay == {"seq": w.seq, "warming": WARMING_NOTE}
    compiling.set()
    loop.drain()
    assert w.overlay["seq"] == w.seq and "home" in w.overlay and "warming" not in w.overlay
    # warm now: the next figures come with the state, as before
    w.roll((1, 2))
    assert w.overlay["seq"] == w.seq and "home" in w.overlay and loop.calls == []


def test_figures_that_arrive_after_the_board_moved_on_are_not_shown_for_the_new_state(
    loop, compiling, monkeypatch
):
    from dsa_widget.deep_sea import widget as deep_sea_widget
    from dsa_widget.deep_sea.widget import DeepSea

    w = DeepSea(players=["Ann", "Bob"], seed=3)
    first_seq = w.seq
    w.roll((3, 3))  # still warming: the new state waits for figures of its own
    assert w.seq != first_seq and "warming" in w.overlay
    compiling.set()
    loop.drain()  # the first figures arrive: stale, so the board computes its own now
    assert w.overlay["seq"] == w.seq and "landing" in w.overlay
    assert w.overlay["seq"] == w.seq and "landing" in w.overlay
    want = deep_sea_widget.overlay_for(w.session.shown, None, None)
    assert w.overlay["landing"] == want["landing"] and w.overlay["home"] == want["home"]


def test_warm_compiles_every_game_that_has_compiled_code(capsys, monkeypatch):
    from dsa_widget.cli import main
    from dsa_widget.core.registry import GameSpec, games

    ran: list[str] = []
    monkeypatch.setattr(GameSpec, "warm_up", lambda self: ran.append(self.name) or self.warm is not None)
    assert main(["warm"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [ln.split(":")[0] for ln in lines] == [g.title.split(":")[0] for g in games()]
    assert ran == [g.name for g in games()]
    assert any("ready in" in ln for ln in lines) and any("nothing to compile" in ln for ln in lines)


@pytest.mark.parametrize("name", ["deep-sea", "submarine"])
def test_each_warm_reference_resolves(name):
    from dsa_widget.core.registry import _resolve, game

    assert callable(_resolve(game(name).warm))


def _crowded(players: int, seed: int, air: int):
    """Divers deep, each with a chip: past the live budget of exact fractions."""
    from dsa_widget import Game

    g = Game(players=players, seed=seed)
    while g.air > air:
        q = g.current_player
        if g.step == "search":
            g.apply("take" if "take" in g.legal_choices() and not g.carrying[q] else "none")
        else:
            g.apply("continue" if g.step == "turn_back" else g.legal_choices()[0])
    return g


def test_past_the_live_budget_the_exact_figure_arrives_by_itself(loop, monkeypatch):
    """Issue 31, item 3: the board shows the estimate (or the float) at once, then the exact
    figure replaces it when a thread beside the kernel has computed it, marked as such; it is
    home_chance()'s fraction."""
    from dsa_widget.deep_sea import widget as deep_sea_widget
    from dsa_widget.deep_sea.analysis import home_chance
    from dsa_widget.deep_sea.analysis.home import COMPILED
    from dsa_widget.deep_sea.widget import DeepSea

    if not COMPILED:
        pytest.fail("the fast extra (numba) is part of the test set-up")
    monkeypatch.setattr(deep_sea_widget, "_WARM", [True])
    g = _crowded(4, 2, 18)
    w = DeepSea(g)
    first = dict(w.overlay)
    assert first["refining"] is True and ("home_float" in first or "home_est" in first)
    pending = [c for c, v in first["home"].items() if v is None]
    assert pending
    loop.drain()
    now = w.overlay
    assert now["seq"] == w.seq and "refining" not in now and now["home_later"] == pending
    view = w.game.view(w.game.current_player)
    for c in pending:
        f = home_chance(view, choice=c)
        assert [int(x) for x in now["home"][c]] == [f.numerator, f.denominator]  # big ones as text
    assert "home_float" not in now and "home_est" not in now


def test_the_exact_figure_of_a_position_the_board_left_is_not_shown(loop, monkeypatch):
    from dsa_widget.deep_sea import widget as deep_sea_widget
    from dsa_widget.deep_sea.widget import DeepSea

    monkeypatch.setattr(deep_sea_widget, "_WARM", [True])
    w = DeepSea(_crowded(4, 2, 18))
    assert w.overlay.get("refining")
    w.hints = False  # the board moves on before the figure arrives: nothing is shown for it
    loop.drain()
    assert w.overlay == {}
    w.hints = True
    loop.drain()  # the board's own position is refined instead
    assert w.overlay["seq"] == w.seq and "refining" not in w.overlay and w.overlay["home_later"]


def test_without_a_kernel_the_overlay_is_as_it_always_was():
    from dsa_widget.deep_sea.widget import DeepSea

    w = DeepSea(_crowded(4, 2, 18))
    assert "refining" not in w.overlay and "home_later" not in w.overlay
    assert any(v is None for v in w.overlay["home"].values())
