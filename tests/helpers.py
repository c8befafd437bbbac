"""Shared helpers for the engine tests."""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from ports import free_port

from dsa_widget import Game, Setup
from dsa_widget.core.protocol import CHANCE

ROOT = Path(__file__).resolve().parents[1]


def random_step(g: Any, rng: random.Random) -> None:
    """One step of any registered game at random: at a chance step an outcome drawn at its own
    odds (the game's generator), else a legal action drawn uniformly with ``rng``."""
    if g.to_move == CHANCE:
        g.sample_chance()
    else:
        legal = g.legal_actions()
        g.apply(legal[rng.randrange(len(legal))])


def play_randomly(g: Any, seed: int, steps: int) -> Any:
    """``g`` after up to ``steps`` uniformly random legal actions (drawn with ``Random(seed)``),
    chance steps drawn at their own odds in between; it stops early when the game is over."""
    rng = random.Random(seed)
    for _ in range(steps):
        while g.to_move < 0 and not g.is_over:
            g.sample_chance()
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_actions()))
    return g


def pixel_at(img: Any, y: int, x: int) -> tuple[int, ...]:
    """An ``H x W x 3`` picture's colour at row ``y``, column ``x``, as a tuple of ints."""
    return tuple(int(c) for c in img[y, x])


def run_python(
    *args: str, env: dict[str, str] | None = None, timeout: float = 300
) -> subprocess.CompletedProcess[str]:
    """``python *args`` in a subprocess at the repository root, with ``env`` added to this
    process's environment; its output captured as text."""
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**os.environ, **(env or {})},
        capture_output=True,
        text=True,
        timeout=timeout,
    )


def replay_cli(arg: str, stdin: str | None = None, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    """``python -m dsa_widget replay ARG`` (any game's record; ``-``: the record on ``stdin``) at
    the repository root, in a bare environment (this checkout on the path, nothing else); its
    output captured as text."""
    return subprocess.run(
        [sys.executable, "-m", "dsa_widget", "replay", arg],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=ROOT,
        env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"},
        timeout=timeout,
    )


def game(players: Any = 2, path: Any = None, **kw: Any) -> Game:
    """A small game on a custom path: by default five level-1..3 chips."""
    if path is None:
        path = [(1, 0), (1, 1), (2, 5), (3, 9), (4, 15)]
    return Game(players=players, path=path, **kw)


def turns(g: Game, *spec: Any) -> Game:
    """Play turns given as (dice, search) or (back, dice, search) tuples or dicts."""
    for t in spec:
        if isinstance(t, dict):
            g.play_turn(**t)
        elif len(t) == 2:
            g.play_turn(dice=t[0], search=t[1])
        else:
            g.play_turn(back=t[0], dice=t[1], search=t[2])
    return g


def random_game(seed: int, players: int = 4, **kw: Any) -> Game:
    """A complete game of random-legal play."""
    rng = random.Random(seed)
    g = Game(players=players, seed=seed, **kw)
    while not g.is_over:
        g.apply(rng.choice(g.legal_choices()))
    return g


def snapshot(g: Game) -> tuple:
    """Everything observable about a game, for 'nothing changed' checks."""
    return (
        g.state_dict(),
        g.step,
        g.legal_choices(),
        g.history,
        g.n_events,
        g._breathed,
        g._forced,
        g._dice,
        g._rng.getstate() if g._rng else None,
    )


def random_state(
    seed: int, *, max_round: int = 3, max_steps: int = 400, stop: float = 0.02, **kw: Any
) -> Game:
    """A game stopped at a random moment, often crowded, often near the path's end,
    sometimes in a later round (stacks of sunk chips at the end of the path); any step.
    ``stop``: the chance to stop after each choice; ``kw`` go to :class:`Game`."""
    rng = random.Random(seed)
    n = rng.randint(2, 6)
    length = rng.choice([3, 5, 8, 12, 20, 32])
    path = [(min(4, 1 + i * 4 // length), rng.randint(0, 15)) for i in range(length)]
    air = rng.randint(3, 25)
    opts = {"turn_back_requires_treasure": rng.random() < 0.8}
    g = Game(players=n, path=path, air=air, seed=seed, rounds=max_round, options=opts, **kw)
    target_round = rng.randint(1, max_round)
    p_take = rng.choice([0.3, 0.7, 1.0])
    p_back = rng.choice([0.1, 0.3, 0.6])
    for _ in range(rng.randint(0, max_steps)):
        if g.is_over:
            break
        if g.round > target_round and rng.random() < 0.5:
            break
        lg = g.legal_choices()
        if g.step == "search":
            if "take" in lg:
                c = "take" if rng.random() < p_take else "none"
            else:
                c = rng.choice(lg) if rng.random() < 0.3 else "none"
        elif g.step == "turn_back":
            c = "back" if rng.random() < p_back else "continue"
        elif g.step == "sink":
            c = rng.choice(lg)  # drowning: lay the chips in some order
        else:
            c = "roll"
        g.apply(c)
        if rng.random() < stop:
            break
    return g


def ipc_kernel(directory: Path | str) -> dict[str, str]:
    """Keyword arguments for a jupyter_client kernel manager that talks to its kernel over
    Unix sockets in ``directory`` instead of TCP ports on localhost.

    A TCP kernel is given five free ports that it binds a moment later; under ``pytest -n``
    another worker's kernel (or JupyterLab's) can take one in between, and the kernel dies
    with "Address already in use" (it failed CI once that way). Socket files in a directory
    of the test's own cannot collide.
    """
    return {"transport": "ipc", "ip": str(Path(directory) / "kernel")}


def run_notebook(path: Path) -> tuple[Any, str]:
    """Execute a notebook top to bottom in a real kernel (the repository on its path); the
    executed notebook and all its text outputs, after checking that no cell failed."""
    import nbclient
    import nbformat
    from jupyter_client.manager import KernelManager

    nb = nbformat.read(path, as_version=4)
    assert nb.metadata["kernelspec"]["name"] == "python3"
    root = str(path.resolve().parent.parent)
    env_path = os.environ.get("PYTHONPATH", "")
    os.environ["PYTHONPATH"] = root + (os.pathsep + env_path if env_path else "")
    try:
        with tempfile.TemporaryDirectory(prefix="dsa-kernel-") as sockets:
            client = nbclient.NotebookClient(
                nb,
                km=KernelManager(kernel_name="python3", **ipc_kernel(sockets)),
                timeout=600,
                kernel_name="python3",
                resources={"metadata": {"path": str(path.parent)}},
            )
            client.execute()
    finally:
        if env_path:
            os.environ["PYTHONPATH"] = env_path
        else:
            os.environ.pop("PYTHONPATH", None)
    outputs = [o for c in nb.cells if c.cell_type == "code" for o in c.get("outputs", [])]
    assert not [o for o in outputs if o.get("output_type") == "error"]
    text = "".join(str(o.get("text", "")) + str(o.get("data", {}).get("text/plain", "")) for o in outputs)
    return nb, text


def notebook_svgs(nb: Any, kinds: tuple[str, ...] = ("text/html", "image/svg+xml")) -> list[ET.Element]:
    """The pictures an executed notebook drew: every output of ``kinds`` (HTML, SVG) that is an
    SVG, parsed (so a picture that is not well-formed XML fails here)."""
    out = []
    for c in nb.cells:
        for o in c.get("outputs", []) if c.cell_type == "code" else []:
            data = o.get("data", {})
            for kind in kinds:
                text = data.get(kind, "")
                text = "".join(text) if isinstance(text, list) else text
                if text.lstrip().startswith("<svg"):
                    out.append(ET.fromstring(text))
                    break
    return out


#: every rule option with the values it takes
OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "turn_back_requires_treasure": (True, False),
    "drop_order": ("nearest_first", "farthest_first"),
    "tiebreak": ("level4", "levels_desc"),
    "reveal": ("public", "owner"),
    "sink_order": ("chosen", "pickup"),
}


def random_setup(rng: random.Random) -> Setup:
    """A random setup: 2-6 players, any options, the standard path or a short, crowded one
    or a long one with big values, little or much air, 1-5 rounds."""
    n = rng.randint(2, 6)
    options = {k: rng.choice(v) for k, v in OPTION_CHOICES.items()}
    kind = rng.random()
    path: list[tuple[int, int]] | None
    if kind < 0.3:
        path = None  # the standard 32 chips
    elif kind < 0.9:  # short paths: crowded, blocked, emptied, stacks soon
        length = rng.randint(1, 14)
        path = [(rng.randint(1, 4), rng.randint(0, 16)) for _ in range(length)]
    else:  # long paths, big values
        length = rng.randint(20, 80)
        path = [(rng.randint(1, 4), rng.randint(0, 2**40)) for _ in range(length)]
    return Setup.create(
        players=n,
        air=rng.choice([1, 2, 3, 5, 8, 12, 25, 40]),
        rounds=rng.randint(1, 5),
        first_player=rng.randrange(n),
        path=path,
        seed=rng.randrange(2**31),
        options=options,
    )


def play_choices(g: Any, choices: list[int], limit: int | None = None) -> Any:
    """Play a drawn move list on ``g`` (each an index into the legal actions, or into the chance
    outcomes at a chance step), at most ``limit`` of them; returns ``g``."""
    from dsa_widget.core.protocol import CHANCE

    for k in choices[:limit]:
        if g.is_over:
            break
        if g.to_move == CHANCE:
            outcomes = g.chance_outcomes()
            g.apply_chance(outcomes[k % len(outcomes)][0])
        else:
            legal = g.legal_actions()
            g.apply(legal[k % len(legal)])
    return g


#: Ray's own start-up waits, lengthened for a loaded CI machine: its raylet gives the dashboard
#: agent a few seconds to write its port file and then aborts ("Timed out waiting for file
#: .../metrics_agent_port_0"), which a machine busy with other tests can miss; every process
#: Ray starts reads these from its environment
RAY_PATIENT_ENV = {"RAY_raylet_start_wait_time_s": "240", "RAY_agent_register_timeout_ms": "240000"}


def env_without_ray(**extra: str) -> dict[str, str]:
    """This process's environment without its ``RAY_`` variables, with ``extra``: what a Ray
    process (a head, a client) started by a test sees, whatever Ray the test run itself set."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("RAY_")}
    env.update(extra)
    return env


def _kill_group(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):  # the group may be gone already
        os.killpg(pid, sig)


@contextlib.contextmanager
def ray_head(num_cpus: int = 1, attempts: int = 3, **env: str) -> Iterator[str]:
    """A Ray head started here with ``ray start --head --block`` in its own process group, its
    own temporary directory and its own free ports (so no other Ray on the machine, nor one a
    failed start left behind, is in its way), with :data:`RAY_PATIENT_ENV` and ``env`` added
    to an environment without this process's ``RAY_`` variables; yields its ``host:port``.
    A start that fails or takes over 240 s is killed with all it started and tried again (a
    loaded machine can make Ray's own start-up waits run out); the exit kills the group."""
    import tempfile

    ray = Path(sys.executable).with_name("ray")
    failures: list[str] = []
    for _ in range(attempts):
        port = free_port()
        temp = Path(tempfile.mkdtemp(prefix="dsa-ray-"))  # short: Ray's socket paths must fit in 107 bytes
        log_path = temp / "head.log"
        with log_path.open("w") as log:
            proc = subprocess.Popen(
                [str(ray), "start", "--head", f"--port={port}", f"--num-cpus={num_cpus}"]
                + ["--include-dashboard=false", f"--dashboard-port={free_port()}"]
                + ["--disable-usage-stats", f"--temp-dir={temp}", "--block"],
                env=env_without_ray(**RAY_PATIENT_ENV, **env),
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: the exit kills it and nothing else
            )
        try:
            deadline = time.monotonic() + 240  # generous: the machine is shared
            while "will now block forever" not in log_path.read_text():
                if proc.poll() is not None or time.monotonic() > deadline:
                    failures.append(log_path.read_text()[-1500:])
                    break
                time.sleep(0.5)
            else:
                yield f"127.0.0.1:{port}"
                return
        finally:
            _kill_group(proc.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(30)
            _kill_group(proc.pid, signal.SIGKILL)  # what the head started and left behind
            proc.wait()
            shutil.rmtree(temp, ignore_errors=True)
    raise AssertionError(f"the Ray head did not start in {attempts} attempts; the last said:\n{failures[-1]}")


def _children() -> set[int]:
    """The ids of this process's child processes (Linux: read from /proc)."""
    out: set[int] = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            if int(stat.read_text().rsplit(")", 1)[1].split()[1]) == os.getpid():
                out.add(int(stat.parent.name))
    return out


def start_local_ray(attempts: int = 3, **init: Any) -> Any:
    """``ray.init(**init)`` for a test's local cluster, with :data:`RAY_PATIENT_ENV` in the
    environment while it starts (the processes Ray starts read it), tried again when Ray gives
    up on its own node (the driver allows the node 30 s to register, a wait no setting
    changes): the processes the failed start left running, children of this one, are killed
    first.  Returns the ``ray`` module."""
    import ray

    saved = {k: os.environ.get(k) for k in RAY_PATIENT_ENV}
    os.environ.update(RAY_PATIENT_ENV)
    try:
        for attempt in range(attempts):
            before = _children()
            try:
                ray.init(**init)
                return ray
            except Exception as e:  # Ray raises a bare Exception for this
                for pid in _children() - before:
                    with contextlib.suppress(ProcessLookupError):
                        os.kill(pid, signal.SIGKILL)
                ray.shutdown()
                if "timed out during startup" not in str(e) or attempt == attempts - 1:
                    raise
        raise AssertionError("unreachable")
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
