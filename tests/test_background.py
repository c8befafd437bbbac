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
        """Wait for every warm-up thread to end, then run all that they handed back."""
        for t in threading.enumerate():
            if t.name == "dsa-hints-warm-up":
                t.join(120)
        calls, self.calls = self.calls, []
        self.arrived.clear()
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
    from dsa_widget.deep_sea import widget as deep_sea_widget
    from dsa_widget.deep_sea.widget import WARMING_NOTE, DeepSea

    monkeypatch.setattr(deep_sea_widget, "kernel_loop", lambda: loop)
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

    monkeypatch.setattr(deep_sea_widget, "kernel_loop", lambda: loop)
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
