"""Adapter speed, every game with adapters: the engine, the PettingZoo environment and
OpenSpiel's ``rl_environment`` playing complete random-legal games, one core.

    python benchmarks/bench_adapters.py [--scale S] [--players P] [--repeat R] [--only NAME ...]
                                        [--before REV]

For each registered game with an action numbering (Deep Sea Adventure, The Crew, Submarine,
Pig) three lines (Pig two more), each counting *agent steps* (a seat's decision; dice and deals are chance,
not counted), so the lines of one game compare directly:

* engine: the game's own state from the registry (``new_game(seed=k, players=P)``),
  ``legal_actions()`` + ``apply()`` (checked) with a random legal action, chance drawn by the
  game (``sample_chance``);
* PettingZoo: the usual AEC loop, ``env.last()`` (the acting agent's observation and action
  mask) then ``env.step(a)`` with a random masked action, through the wrapped environment
  (Deep Sea Adventure's ``env()`` on its default backend, The Crew's ``crew_env()``, the
  others' ``game_env(name)``);
* OpenSpiel: ``rl_environment.Environment(game)`` with its defaults, ``env.step([a])`` with a
  random legal action of the player to act: every step it reads every player's information
  state tensor (the observation tensor for a game without one), every player's legal actions
  and the rewards, and draws the chance nodes with its own sampler;
* for a game OpenSpiel also has in C++ (Pig: its ``pig``, goal 100 as ours, a 505-float
  observation tensor and no information state tensor), the same loop on OpenSpiel's own game
  (its tensors cost it most: a 505-float list per seat, about 4 µs each);
* for Pig, the same loop on a stand-in Python game with Pig's turns that answers every call
  with a constant: what ``rl_environment`` and pyspiel's plumbing of a Python game cost by
  themselves (the chance sampler alone, ``np.random.choice`` with probabilities, takes about
  10 µs a roll), the floor of any Python game's line.

Printed: steps per second, µs per step and the cost relative to the game's engine line; each
the median of ``--repeat`` timed runs, the lines of every game taking turns (a shared machine's
slow spells then fall on every line alike), timed in CPU time (``time.process_time``: the runs
are one thread, and the time other processes take the core is not counted).  ``--games`` is
scaled per game (``GAMES``) so each line runs about as long; give ``--scale`` to shrink or
grow every game count.

``--before REV`` also times the OpenSpiel line of every game at commit ``REV``, in the same run:
``git worktree add`` checks ``REV`` out into a temporary directory (removed at the end), and this
file runs again there as a subprocess of the same interpreter with ``PYTHONPATH`` and
``sys.path[0]`` that tree (it prints the ``dsa_widget`` it imported and stops if that is not the
tree's), timing the line when asked, right after this tree's run of it each time; the ratio is
its µs a step over this tree's (how many times the steps/s).  The old tree gets this tree's mypyc
build of a checked ``rules.py`` (Deep Sea Adventure's) only where its ``rules.py`` is the same
file, as its own checkout's ``setup.sh`` would have built it; the output says what it runs.  A
game the old tree cannot load reads "n/a".

Issue 30's anchor is ``ANCHOR`` = ``2d33a51`` ("bench_adapters.py measures every game with
adapters in one run"): the commit just before the first of the issue's fast-observer work
(``3502dae``, OpenSpiel tensors written in Python from the encoding's tracker), where the issue's
"before" figures were measured with ``--scale 0.5 --repeat 3`` (Deep Sea Adventure 1,940 steps/s,
The Crew 924, Submarine 494, Pig 4,678).  Submarine's OpenSpiel game (``f96ee29``, issue 30 item
1) is older than it, so at the anchor every game loads, Submarine included.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

#: this repository
ROOT = Path(__file__).resolve().parents[1]
#: set in the subprocess of ``--before``: the old tree, whose ``dsa_widget`` that process imports
TREE_ENV = "DSA_BENCH_TREE"
#: the anchor of issue 30's OpenSpiel figures (see the module docstring)
ANCHOR = "2d33a51"

sys.path.insert(0, os.environ.get(TREE_ENV) or str(ROOT))

from dsa_widget.core.protocol import CHANCE
from dsa_widget.core.registry import game, games

#: games per timed run at ``--scale 1`` (a run is a fraction of a second per line)
GAMES = {"deep-sea": 60, "crew": 60, "submarine": 4, "pig": 60}


def _players(name: str, wanted: int) -> int:
    lo, hi = game(name).seats
    return max(lo, min(hi, wanted))


def engine(name: str, games_: int, players: int) -> int:
    spec = game(name)
    rng = random.Random(12345)
    steps = 0
    for k in range(games_):
        g = spec.new_game(seed=k, players=players)
        while not g.is_over:
            if g.to_move == CHANCE:
                g.sample_chance()
                continue
            g.apply(rng.choice(g.legal_actions()))
            steps += 1
    return steps


def _pettingzoo_env(name: str, players: int) -> Any:
    spec = game(name)
    if name == "deep-sea":
        from dsa_widget.adapters.pettingzoo import env

        return env(players=players)
    if spec.encoding is not None:
        from dsa_widget.adapters.pettingzoo import game_env

        return game_env(name, players=players)
    from dsa_widget.adapters.crew_pettingzoo import crew_env

    return crew_env(players=players)


def pettingzoo(name: str, games_: int, players: int) -> int:
    import numpy as np

    rng = random.Random(12345)
    e = _pettingzoo_env(name, players)
    steps = 0
    for k in range(games_):
        e.reset(seed=k)
        for _agent in e.agent_iter():
            obs, _reward, terminated, truncated, _info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            steps += 1
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    return steps


def spiel_game(name: str, players: int) -> Any:
    """The OpenSpiel game of a registered game, for ``players`` players."""
    import pyspiel

    import dsa_widget.adapters.openspiel  # noqa: F401 - registers the generic games

    rules = game(name).openspiel_rules()
    if rules is None:  # The Crew's own OpenSpiel game
        from dsa_widget.adapters import crew_openspiel  # noqa: F401 - registers it
        from dsa_widget.crew.openspiel import RULES as rules
    return pyspiel.load_game(rules.short_name, {"players": players})


#: OpenSpiel's own C++ game of a registered game, with our default setup's parameters
NATIVE: dict[str, tuple[str, dict[str, Any]]] = {"pig": ("pig", {"winscore": 100})}


def openspiel(name: str, games_: int, players: int) -> int:
    return _rl_loop(spiel_game(name, players), games_)


def openspiel_native(name: str, games_: int, players: int) -> int:
    import pyspiel

    short, params = NATIVE[name]
    return _rl_loop(pyspiel.load_game(short, {**params, "players": players}), games_)


def openspiel_stand_in(name: str, games_: int, players: int) -> int:
    return _rl_loop(_stand_in_game(players), games_)


def _stand_in_game(players: int) -> Any:
    """A Python OpenSpiel game with Pig's turns (a turn's first decision is to roll, then roll or
    hold; a roll is a chance node of six outcomes, a 1 ends the turn; 100 turns a game) whose
    every answer is a constant or a counter: what ``rl_environment`` and pyspiel's Python-game
    plumbing cost a step by themselves, with as many rolls a decision as Pig's random games (0.70
    a decision, counted over 30 games of each)."""
    import pyspiel

    tensor = [0.0] * 22
    first, later = [0], [0, 1]
    outcomes = [(i, 1 / 6) for i in range(6)]
    zeros = [0.0] * players

    class StandInState(pyspiel.State):  # type: ignore[misc]
        def __init__(self, game: Any) -> None:
            super().__init__(game)
            self.turn, self.rolled, self.rolling = 0, False, False

        def current_player(self) -> int:
            if self.turn >= 100:
                return int(pyspiel.PlayerId.TERMINAL)
            return int(pyspiel.PlayerId.CHANCE) if self.rolling else self.turn % players

        def is_chance_node(self) -> bool:
            return self.rolling

        def is_terminal(self) -> bool:
            return self.turn >= 100

        def legal_actions(self, *player: Any) -> list[int]:
            if self.rolling or self.turn >= 100 or (player and player[0] != self.turn % players):
                return []
            return (later if self.rolled else first)[:]

        def _legal_actions(self, player: int) -> list[int]:
            return self.legal_actions(player)

        def chance_outcomes(self) -> list[tuple[int, float]]:
            return outcomes[:]

        def _apply_action(self, action: int) -> None:
            if self.rolling:  # a 1 (outcome 0) ends the turn
                self.rolling, self.rolled = False, action != 0
                self.turn += action == 0
            elif action == 0:
                self.rolling = True
            else:
                self.turn, self.rolled = self.turn + 1, False

        def rewards(self) -> list[float]:
            return zeros[:]

        def returns(self) -> list[float]:
            return zeros[:]

        def information_state_tensor(self, *player: Any) -> list[float]:
            return tensor[:]

        def observation_tensor(self, *player: Any) -> list[float]:
            return tensor[:]

        def _action_to_string(self, player: int, action: int) -> str:
            return str(action)

        def __str__(self) -> str:
            return f"turn {self.turn}"

    base = type(spiel_game("pig", players))

    class StandIn(base):  # type: ignore[misc, valid-type]
        def new_initial_state(self) -> Any:
            return StandInState(self)

    return StandIn({"players": players})


def _rl_loop(game: Any, games_: int) -> int:
    from open_spiel.python import rl_environment

    rng = random.Random(12345)
    env = rl_environment.Environment(game)
    env.seed(12345)
    steps = 0
    for _ in range(games_):
        ts = env.reset()
        while not ts.last():
            obs = ts.observations
            ts = env.step([rng.choice(obs["legal_actions"][obs["current_player"]])])
            steps += 1
    return steps


# ---------------------------------------------------------------------- --before: an older tree

#: the prefix of the old tree's answers on its stdout (anything else it prints is passed over)
_REPLY = "@bench@ "


def _git(*args: str) -> str:
    return subprocess.run(["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True).stdout


def _sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def _copy_compiled(tree: Path) -> list[str]:
    """Give ``tree`` this tree's mypyc builds of its checked rules (``_rules_native*.so``, made by
    ``python -m dsa_widget compile``, which a checkout of that commit would have built too) where
    its ``rules.py`` is the very file they were built from; say what each tree runs."""
    notes: dict[Path, str] = {}
    for so in sorted(ROOT.glob("dsa_widget/**/_rules_native*.so")):  # the module and its mypyc runtime
        rel = so.parent.relative_to(ROOT)
        mine, theirs = so.parent / "rules.py", tree / rel / "rules.py"
        if theirs.is_file() and _sha256(mine) == _sha256(theirs):
            shutil.copy2(so, tree / rel / so.name)
            notes[rel] = f"{rel}: its rules.py is this tree's, so this tree's compiled build is copied in"
        else:
            notes[rel] = f"{rel}: its rules.py differs from this tree's: it runs them as plain Python"
    return list(notes.values())


class OldTree:
    """The OpenSpiel ``rl_environment`` line of commit ``rev``, timed in a subprocess (this file
    run again with the same interpreter, ``PYTHONPATH`` and ``sys.path[0]`` the commit's tree,
    checked out by ``git worktree add`` into a temporary directory, removed by :meth:`close`)."""

    def __init__(self, rev: str) -> None:
        self.rev = _git("rev-parse", "--verify", f"{rev}^{{commit}}").strip()
        self.tmp = Path(tempfile.mkdtemp(prefix="dsa-bench-before-"))
        self.tree = self.tmp / "tree"
        self.proc: subprocess.Popen[str] | None = None
        _git("worktree", "add", "--detach", "--quiet", str(self.tree), self.rev)
        self.notes = _copy_compiled(self.tree)
        env = {**os.environ, TREE_ENV: str(self.tree), "PYTHONPATH": str(self.tree)}
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__).resolve())],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env=env,
            cwd=self.tree,
        )
        hello = self._answer()
        if not hello["ours"]:
            self.close()
            raise SystemExit(f"--before: the subprocess imported {hello['file']}, not the tree of {rev}")
        self.file, self.native = hello["file"], hello["native"]

    def _answer(self) -> dict[str, Any]:
        assert self.proc is not None and self.proc.stdout is not None
        for line in self.proc.stdout:
            if line.startswith(_REPLY):
                answer: dict[str, Any] = json.loads(line[len(_REPLY) :])
                return answer
        raise SystemExit(f"--before: the subprocess for {self.rev[:10]} ended (exit {self.proc.wait()})")

    def run(self, name: str, games_: int, players: int) -> tuple[int, float] | str:
        """``(agent steps, CPU seconds)`` of the old tree's line, or why it cannot run it."""
        assert self.proc is not None and self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"name": name, "games": games_, "players": players}) + "\n")
        self.proc.stdin.flush()
        a = self._answer()
        return str(a["error"]) if "error" in a else (int(a["steps"]), float(a["cpu"]))

    def close(self) -> None:
        if self.proc is not None:
            if self.proc.stdin is not None:
                self.proc.stdin.close()
            self.proc.wait()
            self.proc = None
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(self.tree)], check=False)
        shutil.rmtree(self.tmp, ignore_errors=True)
        subprocess.run(["git", "-C", str(ROOT), "worktree", "prune"], check=False)


def _serve(tree: str) -> None:
    """The old tree's side of :class:`OldTree`: say which ``dsa_widget`` is imported, then time
    the OpenSpiel line for each request on stdin (JSON lines), answering on stdout."""
    import dsa_widget

    def reply(**answer: Any) -> None:
        print(_REPLY + json.dumps(answer), flush=True)

    here = Path(dsa_widget.__file__).resolve()
    try:
        from dsa_widget.deep_sea import native

        compiled = native.status()
    except Exception as e:  # an older tree without it
        compiled = f"unknown ({type(e).__name__}: {e})"
    reply(file=str(here), ours=here.is_relative_to(Path(tree).resolve()), native=compiled)
    for line in sys.stdin:
        req = json.loads(line)
        try:
            t0 = time.process_time()
            steps = openspiel(req["name"], req["games"], req["players"])
            reply(steps=steps, cpu=time.process_time() - t0)
        except Exception as e:  # a game the old tree cannot load or play
            reply(error=f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")


LINES: tuple[tuple[str, Callable[[str, int, int], int]], ...] = (
    ("engine: legal_actions + apply", engine),
    ("PettingZoo: last() + step", pettingzoo),
    ("OpenSpiel rl_environment: step", openspiel),
)


def main() -> None:
    tree = os.environ.get(TREE_ENV)
    if tree:
        _serve(tree)
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=4, help="seats (clipped to each game's range)")
    ap.add_argument("--scale", type=float, default=1.0, help="multiplies every game count (GAMES)")
    ap.add_argument(
        "--repeat",
        type=int,
        default=3,
        help="timed runs per line, interleaved (line 1, line 2, ..., line 1, ...); the median is shown",
    )
    ap.add_argument("--only", nargs="*", default=None, help="registry names of the games to run")
    ap.add_argument(
        "--before",
        metavar="REV",
        default=None,
        help=f"also time the OpenSpiel line at commit REV (issue 30's anchor: {ANCHOR}), interleaved",
    )
    args = ap.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {0})  # one core
    names = [g.name for g in games() if g.name in GAMES and (not args.only or g.name in args.only)]
    runs: list[tuple[str, str, int, int, Callable[[str, int, int], int]]] = []
    for name in names:
        players = _players(name, args.players)
        count = max(1, round(GAMES[name] * args.scale))
        for label, fn in LINES:
            runs.append((name, label, players, count, fn))
        if name in NATIVE:
            runs.append(
                (name, f"OpenSpiel's C++ '{NATIVE[name][0]}': same", players, count, openspiel_native)
            )
        if name == "pig":
            runs.append((name, "stand-in, constant answers: same", players, count, openspiel_stand_in))
    print(
        f"random-legal games, one core, median of {args.repeat} interleaved runs (CPU time); "
        "agent steps (decisions) per second"
    )
    old = OldTree(args.before) if args.before else None
    try:
        per_step, before = _time_runs(runs, args.repeat, old)
    finally:
        if old is not None:
            old.close()
    base: float = 1.0
    for times, (name, label, players, count, fn) in zip(per_step, runs, strict=True):
        dt = statistics.median(times)
        if fn is engine:
            base = dt
            print(f"{game(name).title}, {players} players, {count} games a run")
        print(f"  {label:34s} {1 / dt:9.0f} steps/s {1e6 * dt:8.1f} µs/step  {dt / base:6.2f}x the engine")
    if old is not None:
        _print_before(old, runs, per_step, before)


def _time_runs(
    runs: list[tuple[str, str, int, int, Callable[[str, int, int], int]]], repeat: int, old: OldTree | None
) -> tuple[list[list[float]], dict[str, list[float] | str]]:
    """CPU seconds per agent step of each run, ``repeat`` times, interleaved; with ``old``, the old
    tree's OpenSpiel line of each game right after this tree's (or why it cannot run)."""
    before: dict[str, list[float] | str] = {}
    for name, _label, players, count, fn in runs:
        fn(name, max(1, count // 10), players)  # warm up (imports, caches, compilation)
        if old is not None and fn is openspiel:
            got = old.run(name, max(1, count // 10), players)
            before[name] = got if isinstance(got, str) else []
    per_step: list[list[float]] = [[] for _ in runs]
    for _ in range(max(1, repeat)):
        for times, (name, _label, players, count, fn) in zip(per_step, runs, strict=True):
            t0 = time.process_time()
            steps = fn(name, count, players)
            times.append((time.process_time() - t0) / steps)
            mine = before.get(name)
            if old is not None and fn is openspiel and isinstance(mine, list):
                got = old.run(name, count, players)
                if isinstance(got, str):
                    before[name] = got
                else:
                    mine.append(got[1] / got[0])
    return per_step, before


def _print_before(
    old: OldTree,
    runs: list[tuple[str, str, int, int, Callable[[str, int, int], int]]],
    per_step: list[list[float]],
    before: dict[str, list[float] | str],
) -> None:
    print(
        f"\nOpenSpiel rl_environment at {old.rev[:10]} (before) and now, in this run, interleaved "
        f"(median of each):\n  the old tree's dsa_widget: {old.file}\n  its checked rules: {old.native}"
    )
    for note in old.notes:
        print(f"  compiled rules, {note}")
    for times, (name, _label, players, _count, fn) in zip(per_step, runs, strict=True):
        if fn is not openspiel:
            continue
        now = statistics.median(times)
        was = before[name]
        head = f"  {game(name).title + f', {players} players':36s}"
        if isinstance(was, str):
            print(f"{head} before      n/a ({was})   now {1e6 * now:7.1f} µs/step")
            continue
        b = statistics.median(was)
        print(
            f"{head} before {1e6 * b:7.1f} µs/step   now {1e6 * now:7.1f} µs/step   "
            f"{b / now:5.2f}x the steps/s"
        )


if __name__ == "__main__":
    main()
