"""The compiled checked engine against the plain Python one (issue 10, item 1).

``dsa_widget.deep_sea.rules`` runs the mypyc-compiled twin of itself when a build of the
current source is there (:mod:`dsa_widget.deep_sea.native`).  These tests load ``rules.py``
a second time as plain Python, under another module name, and replay the same choices and
dice in both on thousands of random games: every step's legal choices, every error (type and
message, and the game left as it was), every copy, view, event, history entry, record, score
and winner must be the same.  The development setup (``scripts/setup.sh``) builds the twin,
so these tests expect it; ``DSA_WIDGET_NO_COMPILED=1`` runs the suite on plain Python, which
the last test does for the rules' own test files.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import random
import sys
from functools import partial
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from helpers import random_setup, run_python

from dsa_widget.deep_sea import native, rules

RULES_FILE = Path(rules.__file__ or "").resolve()

#: choices no state accepts, or only some: each must fail (or pass) alike in both engines
ODD_CHOICES: tuple[Any, ...] = (
    "take",
    "back",
    "continue",
    "roll",
    "none",
    "drop 0",
    "drop 99",
    "lay 0",
    "lay 1",
    "",
    "ROLL",
    None,
    5,
    True,
    2.5,
    ("roll",),
    {"choice": "roll"},
    [3, 2],
)


def _plain_rules() -> ModuleType:
    """``rules.py`` loaded anew as plain Python (under another name, so it keeps its own code)."""
    name = "dsa_widget.deep_sea._rules_plain_for_tests"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, RULES_FILE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _compiled_rules() -> ModuleType:
    twin = importlib.import_module(f"dsa_widget.deep_sea.{native.MODULE}")
    return twin


def _outcome(call: Any) -> tuple[str, str]:
    try:
        call()
    except Exception as e:  # the type's name and message must be the same in both engines
        return type(e).__name__, str(e)
    return "ok", ""


def _observed(g: Any) -> tuple[Any, ...]:
    return (
        g.step,
        g.current_player,
        g.legal_choices(),
        g.is_over,
        g.is_chance,
        g.round,
        g.air,
        g.scores,
        g.winners,
        g.turn_number,
        g.state_dict(),
        g.n_events,
    )


def _compare_game(a_mod: ModuleType, b_mod: ModuleType, seed: int) -> str | None:
    """Play one random game in both engines; the first difference, or None."""
    rng = random.Random(seed)
    setup = random_setup(rng)
    a, b = a_mod.Game(setup), b_mod.Game(setup)
    steps = 0
    while True:
        oa, ob = _observed(a), _observed(b)
        if oa != ob:
            return f"seed {seed}, step {steps}: {oa} != {ob}"
        if a.is_over:
            break
        if rng.random() < 0.15:  # an odd choice: the same error (or the same success) in both
            odd = rng.choice(ODD_CHOICES)
            ra, rb = _outcome(partial(a.apply, odd)), _outcome(partial(b.apply, odd))
            if ra != rb:
                return f"seed {seed}, step {steps}, apply({odd!r}): {ra} != {rb}"
            if ra[0] == "ok":
                steps += 1
                continue
            if _observed(a) != oa or _observed(b) != ob:
                return f"seed {seed}, step {steps}: a refused {odd!r} changed the game"
        if rng.random() < 0.05:
            ca, cb = a.copy(), b.copy()
            if _observed(ca) != oa or _observed(cb) != ob or ca.history != cb.history:
                return f"seed {seed}, step {steps}: a copy differs"
            seat = rng.randrange(setup.n_players)
            if a.view(seat) != b.view(seat):
                return f"seed {seed}, step {steps}: view({seat}) differs"
        c = rng.choice(oa[2])
        a.apply(c)
        b.apply(c)
        steps += 1
    if a.history != b.history or a.events != b.events:
        return f"seed {seed}: history or events differ"
    ra, rb = a.to_record(), b.to_record()
    if ra != rb:
        return f"seed {seed}: records differ"
    la, lb = a_mod.Game.load(ra), b_mod.Game.load(rb)
    if la.history != a.history or lb.history != b.history or la.scores != lb.scores:
        return f"seed {seed}: a loaded record differs"
    return None


def differential(games: int, seed: int) -> list[str]:
    plain, compiled = _plain_rules(), _compiled_rules()
    found = []
    for k in range(games):
        why = _compare_game(compiled, plain, seed * 1_000_003 + k)
        if why is not None:
            found.append(why)
            if len(found) >= 5:
                break
    return found


# --------------------------------------------------------------------------- the tests


def test_the_compiled_engine_is_in_use() -> None:
    """The development setup builds the twin of the current rules, and ``rules`` runs it."""
    if os.environ.get("DSA_WIDGET_NO_COMPILED"):
        assert not rules.NATIVE and "DSA_WIDGET_NO_COMPILED" in rules.NATIVE_STATUS
        return
    assert rules.NATIVE, f"{rules.NATIVE_STATUS}: run `python -m dsa_widget compile`"
    assert native.COMPILED
    assert type(rules.Game.apply).__name__ != "function"  # a compiled method, not Python's
    assert rules.Game.__module__ == "dsa_widget.deep_sea.rules"
    twin = _compiled_rules()
    assert native.source_hash() == twin._SOURCE_HASH


def test_the_plain_copy_is_plain_python() -> None:
    plain = _plain_rules()
    assert type(plain.Game.apply).__name__ == "function"
    assert not plain.NATIVE


@pytest.mark.slow
def test_differential_thousands_of_games() -> None:
    """Same setups, choices and dice: the same game, step for step (3,000 random games)."""
    assert differential(3000, seed=1) == []


def test_a_deliberately_different_engine_is_caught() -> None:
    """The comparison can fail: an engine that lists its legal choices in another order is told
    apart."""
    plain = _plain_rules()

    skewed = ModuleType("skewed")
    original = plain.Game

    class SkewedGame(original):  # type: ignore[misc, valid-type]
        def legal_choices(self) -> tuple[str, ...]:
            legal = super().legal_choices()
            return legal[::-1] if len(legal) > 2 else legal

    skewed.Game = SkewedGame  # type: ignore[attr-defined]
    found = [why for k in range(40) if (why := _compare_game(skewed, plain, k)) is not None]
    assert found and "step" in found[0]


def test_errors_and_docs_survive_compilation() -> None:
    """Typed arguments give the rules' own errors, not the compiler's TypeError; help() works."""
    g = rules.Game(players=2)
    with pytest.raises(rules.IllegalActionError):
        g.play_turn(back=1, dice=(1, 1), search="none")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        g.view("0")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        g.apply(3)  # type: ignore[arg-type]
    assert rules.Game.apply.__doc__ and "choice" in rules.Game.apply.__doc__
    assert rules.Game.__doc__ and rules.Game.legal_choices.__doc__


@pytest.mark.slow
def test_the_rules_tests_pass_on_plain_python() -> None:
    """The rules' own test files, run on the plain Python engine in a subprocess."""
    files = ["tests/test_rules.py", "tests/test_records.py", "tests/test_sink.py", "tests/test_step_log.py"]
    pytest = ["-m", "pytest", "-q", "-p", "no:cacheprovider", "-x", *files]
    out = run_python(*pytest, env={"DSA_WIDGET_NO_COMPILED": "1"}, timeout=1200)
    assert out.returncode == 0, out.stdout[-3000:] + out.stderr[-3000:]
    assert " passed" in out.stdout and "failed" not in out.stdout


def test_a_stale_build_is_never_run() -> None:
    """When rules.py no longer hashes to what the build came from, the plain rules run, with a
    warning saying how to rebuild (here the hash is made to differ in a subprocess)."""
    code = (
        "import hashlib, warnings\n"
        "real = hashlib.sha256\n"
        "hashlib.sha256 = lambda data=b'': real(data + b'# edited')\n"
        "with warnings.catch_warnings(record=True) as w:\n"
        "    warnings.simplefilter('always')\n"
        "    from dsa_widget.deep_sea import rules\n"
        "print(rules.NATIVE, type(rules.Game.apply).__name__, [str(x.message) for x in w])\n"
    )
    out = run_python("-c", code, env={"DSA_WIDGET_NO_COMPILED": ""})
    assert out.returncode == 0, out.stderr
    native_flag, kind, warned = out.stdout.split(" ", 2)
    assert (native_flag, kind) == ("False", "function")
    assert "python -m dsa_widget compile" in warned


def test_the_switch_turns_the_build_off() -> None:
    out = run_python(
        "-c",
        "from dsa_widget.deep_sea import rules; print(rules.NATIVE, rules.NATIVE_STATUS)",
        env={"DSA_WIDGET_NO_COMPILED": "1"},
    )
    assert out.stdout.startswith("False plain Python (DSA_WIDGET_NO_COMPILED is set)"), out.stderr


def test_compile_command_skips_an_up_to_date_build() -> None:
    """``python -m dsa_widget compile --if-stale`` (what scripts/setup.sh runs) rebuilds only
    when rules.py changed; here the build is current."""
    out = run_python("-m", "dsa_widget", "compile", "--if-stale", env={"DSA_WIDGET_NO_COMPILED": "1"})
    assert out.returncode == 0, out.stderr
    assert "up to date" in out.stdout
    assert native.up_to_date() and native.built_hash() == native.source_hash()
