"""Mission success rates of *The Crew* bots, per seat count and difficulty target.

The Crew is cooperative: one bot plays every seat (a fresh copy per seat, each with its own
derived seed) and the figure is the share of attempts whose mission succeeds, with a 95%
Wilson interval (:func:`dsa_widget.core.stats.wilson`).  Every bot plays the *same* attempts:
game ``i`` at ``(seats, target)`` has a seed derived from ``seed`` only, so the comparison is
paired and the same seed gives the same table on every backend (the work runs through
:func:`dsa_widget.core.executors.run_chunks`; a progress bar shows long runs).

``seats=2`` plays the two-player variant (two humans and Tonoja, the captain acting for it).

>>> t = success_rates({"random": "random"}, seats=(4,), targets=(1, 2), games=3, seed=1, progress=False)
>>> [(r.seats, r.target, r.games) for r in t.rows]
[(4, 1, 3), (4, 2, 3)]
>>> r = t.row("random", 4, 1)
>>> 0.0 <= r.low <= r.rate <= r.high <= 1.0
True
>>> print(t)                                        # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
Mission success rates: 3 attempts per cell, seed 1 ...
bot     seats  target  successes  games  rate  95% CI
random  4      1 ...
"""

from __future__ import annotations

import html
import random
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...core.bots import Bot, bot_name, play_bot_move, resolve_bot
from ...core.executors import chunk_sizes, default_workers, run_chunks
from ...core.progress import Progress
from ...core.stats import wilson
from ..playouts import PlayState
from ..rules import CrewGame
from .crewmate import CrewmateBot, RandomBot

__all__ = ["SuccessRow", "SuccessTable", "attempt_table", "play_attempt", "success_rates"]


def _derive(*parts: Any) -> int:
    return random.Random("/".join(map(str, parts))).getrandbits(32)


def _instantiate(spec: Any, seed: int) -> Any:
    if isinstance(spec, str):
        return resolve_bot(spec, CrewGame, seed=seed)
    if isinstance(spec, Bot):
        return spec.spawn(seed)
    return spec  # a plain callable keeps its own randomness


def play_attempt(
    bot: Any,
    players: int,
    target: int,
    seed: int,
    *,
    bot_seed: int = 0,
    mission: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
) -> CrewGame:
    """One attempt at ``target`` with ``players`` (2: Tonoja joins), every seat played by a copy
    of ``bot`` (a name, a :class:`~dsa_widget.core.bots.Bot` or a callable); the finished game.

    >>> play_attempt("crewmate", 4, 1, seed=3).is_over
    True
    """
    m = {"target": target, **(mission or {})}
    game = CrewGame(players, mission=m, options=options, seed=seed, timed=True)
    bots = [_instantiate(bot, _derive(bot_seed, "seat", s)) for s in range(game.seats)]
    while not game.is_over:
        play_bot_move(game, bots[game.to_move])
    return game


def attempt_table(
    spec: Any, label: str, seats: int, target: int, i: int, seed: int
) -> tuple[CrewGame, list[Any]]:
    """Attempt ``i`` at (``seats``, ``target``) of :func:`success_rates` with master ``seed``,
    before its first move, and the bots of ``spec`` at every seat, seeded as that function
    seeds the bot named ``label``: the benchmarks replay the same deals and bot seeds with it.

    >>> g, bots = attempt_table("crewmate", "crewmate", 4, 1, 0, 2026)
    >>> g.seats == len(bots) == 4 and not g.is_over
    True
    """
    game = CrewGame(
        seats, mission={"target": target}, seed=_derive(seed, "attempt", seats, target, i), timed=True
    )
    bot_seed = _derive(seed, "bot", label, seats, target, i)
    return game, [_instantiate(spec, _derive(bot_seed, "seat", s)) for s in range(game.seats)]


@dataclass(frozen=True)
class SuccessRow:
    """One cell: ``successes`` of ``games`` attempts, the 95% Wilson interval ``low``-``high``."""

    bot: str
    seats: int
    target: int
    successes: int
    games: int
    low: float
    high: float

    @property
    def rate(self) -> float:
        return self.successes / self.games if self.games else 0.0

    def as_dict(self) -> dict[str, Any]:
        return {
            "bot": self.bot,
            "seats": self.seats,
            "target": self.target,
            "successes": self.successes,
            "games": self.games,
            "rate": self.rate,
            "low": self.low,
            "high": self.high,
        }


class SuccessTable:
    """The result of :func:`success_rates`: ``rows`` (bot, seats, target order), ``settings``,
    ``elapsed`` seconds; a text table (``print``) and an HTML one in notebooks."""

    def __init__(self, rows: list[SuccessRow], settings: dict[str, Any], elapsed: float) -> None:
        self.rows = rows
        self.settings = settings
        self.elapsed = elapsed

    def row(self, bot: str, seats: int, target: int) -> SuccessRow:
        """The cell of one bot, seat count and target."""
        for r in self.rows:
            if (r.bot, r.seats, r.target) == (bot, seats, target):
                return r
        raise KeyError(f"no cell ({bot!r}, {seats}, {target}) in this table")

    def to_dict(self) -> dict[str, Any]:
        """Plain data (timing left out, so it is reproducible)."""
        return {"settings": dict(self.settings), "rows": [r.as_dict() for r in self.rows]}

    _HEAD = ("bot", "seats", "target", "successes", "games", "rate", "95% CI")

    def _cells(self, r: SuccessRow) -> list[str]:
        return [
            r.bot,
            str(r.seats),
            str(r.target),
            str(r.successes),
            str(r.games),
            f"{r.rate:.1%}",
            f"{r.low:.1%} – {r.high:.1%}",
        ]

    def _title(self) -> str:
        s = self.settings
        return (
            f"Mission success rates: {s['games']} attempts per cell, seed {s['seed']} ({self.elapsed:.1f} s)"
        )

    def __repr__(self) -> str:
        body = [self._cells(r) for r in self.rows]
        widths = [max(len(x) for x in col) for col in zip(self._HEAD, *body, strict=False)]

        def line(cells: Sequence[str]) -> str:  # the bot's name to the left, figures to the right
            return "  ".join(
                c.ljust(w) if i == 0 else c.rjust(w)
                for i, (c, w) in enumerate(zip(cells, widths, strict=True))
            ).rstrip()

        return "\n".join([self._title(), line(self._HEAD), *map(line, body)])

    def _repr_html_(self) -> str:
        e = html.escape
        head = "".join(f"<th>{e(h)}</th>" for h in self._HEAD)
        body = "".join(
            "<tr>" + "".join(f"<td>{e(c)}</td>" for c in self._cells(r)) + "</tr>" for r in self.rows
        )
        return (
            f"<div><p>{e(self._title())}</p><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table></div>"
        )


_Job = tuple[int, int, int, int]  # (bot index, seats, target, game number)


def _kernel_policy(spec: Any) -> str | None:
    """The kernel policy that plays the cards as ``spec`` does at every seat: ``"random"``
    (uniform legal cards: the random bot, whose other actions move no card in the play
    phase), ``"greedy"`` (the crewmate's card rule), else None."""
    if spec == "random" or type(spec) is RandomBot:
        return "random"
    if spec == "crewmate" or type(spec) is CrewmateBot:
        return "greedy"
    return None


def _succeeds(
    spec: Any,
    players: int,
    target: int,
    seed: int,
    bot_seed: int,
    mission: Mapping[str, Any],
    options: Mapping[str, Any] | None,
    kernel: bool,
) -> bool:
    """One attempt of :func:`play_attempt`: did the mission succeed?  With ``kernel``, a table
    of random bots or crewmates plays until its first card, then the compiled kernel plays
    the cards to the end with the same card rule (its own random numbers: the same
    distribution of results, not the same games), where the kernel can play the position."""
    policy = _kernel_policy(spec) if kernel else None
    if policy is None:
        g = play_attempt(spec, players, target, seed, bot_seed=bot_seed, mission=mission, options=options)
        return g.outcome is not None and g.outcome.result == "success"
    from ..kernel import encode_position, kernel_playout  # numba loads on first use

    m = {"target": target, **(mission or {})}
    game = CrewGame(players, mission=m, options=options, seed=seed, timed=True)
    bots = [_instantiate(spec, _derive(bot_seed, "seat", s)) for s in range(game.seats)]
    while not game.is_over:
        if policy is not None and game.step in ("communicate", "play"):
            pos = None
            # the crewmate reads predictions from its view: hand over only when all are public
            public = policy == "random" or all(
                game.secret_prediction_visible(i, s)
                for i in range(len(game.tasks))
                for s in range(game.seats)
            )
            if public:
                try:
                    st = PlayState.from_game(game)
                    pos = encode_position(st, options=game.options, constraints=game.mission.constraints)
                except ValueError:
                    pos = None
            if pos is not None:
                res = kernel_playout(pos, policy=policy, seed=_derive(bot_seed, "kernel"))
                return res.result == "success"
            policy = None
        play_bot_move(game, bots[game.to_move])
    return game.outcome is not None and game.outcome.result == "success"


def _run_chunk(payload: tuple[Any, ...], jobs: Sequence[_Job]) -> list[tuple[_Job, bool]]:
    specs, labels, mission, options, seed, kernel = payload
    out = []
    for job in jobs:
        b, seats, target, i = job
        ok = _succeeds(
            specs[b],
            seats,
            target,
            _derive(seed, "attempt", seats, target, i),
            _derive(seed, "bot", labels[b], seats, target, i),
            mission,
            options,
            kernel,
        )
        out.append((job, ok))
    return out


def success_rates(
    bots: Mapping[str, Any] | Sequence[Any],
    *,
    seats: Iterable[int] = (3, 4, 5),
    targets: Iterable[int] = range(1, 9),
    games: int = 200,
    seed: int | str = 1,
    mission: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    workers: int | None = 1,
    executor: str = "process",
    address: str | None = None,
    progress: bool = True,
    kernel: bool = True,
) -> SuccessTable:
    """Mission success rates of ``bots`` (a mapping label → bot, or a list of bots / names) for
    every seat count of ``seats`` (2-5; 2 = the two-player variant) and every difficulty target
    of ``targets``, ``games`` attempts per cell, the same attempts for every bot.

    ``mission``: further mission fields (``{"allocation": "free"}``, ``{"communication":
    "none"}``); ``options``: rule options.  ``workers``: processes (1: this process; ``None``:
    every core); ``executor``: ``"process"``, ``"local"`` or ``"ray"`` (a Ray cluster at
    ``address``, as for tournaments: ``None`` starts one on this machine, ``"auto"`` joins the
    running one, ``"host:port"`` the head there).

    ``kernel``: a bot given as ``"random"`` or ``"crewmate"`` (or a plain instance of either)
    plays each attempt until its first card, then the compiled kernel plays the cards with the
    same rule (:func:`dsa_widget.crew.kernel.kernel_playout`) — the same distribution of
    results, much faster — wherever the kernel can play the position (3-5 seats, no Tonoja,
    no mission constraints, the default judging options, for the crewmate every prediction
    public); ``False`` plays every card through the engine.  Other bots (``search``, your own)
    always play every card themselves: their choices are not the kernel's.
    """
    if isinstance(bots, Mapping):
        specs = list(bots.values())
        labels = [str(k) for k in bots]
    else:
        specs = list(bots)
        labels = [b if isinstance(b, str) else bot_name(b) for b in specs]
    if not specs:
        raise ValueError("give at least one bot")
    for s in specs:
        if isinstance(s, str):
            resolve_bot(s, CrewGame)  # unknown names fail before anything is played
        elif not callable(s):
            raise TypeError(f"a bot must be callable as bot(view, legal) or a bot name, got {s!r}")
    seat_list = list(seats)
    target_list = list(targets)
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    for n in seat_list:
        if n not in (2, 3, 4, 5):
            raise ValueError(f"seats must be 2-5, not {n!r}")
    for t in target_list:
        CrewGame(
            seat_list[0] if seat_list else 4,
            mission={"target": t, **(mission or {})},
            options=options,
            seed=0,
        )
    jobs: list[_Job] = [
        (b, n, t, i) for b in range(len(specs)) for n in seat_list for t in target_list for i in range(games)
    ]
    w = default_workers(workers)
    size = chunk_sizes(len(jobs), w, largest=50)
    chunks = [jobs[a : a + size] for a in range(0, len(jobs), size)]
    bar = Progress(len(jobs), progress, unit="attempts")
    done = [0]
    counts: dict[tuple[int, int, int], int] = {}

    def chunk_done(_: int, part: list[tuple[_Job, bool]]) -> None:
        done[0] += len(part)
        bar.update(done[0])

    t0 = time.perf_counter()
    results = run_chunks(
        _run_chunk,
        (specs, labels, dict(mission or {}), dict(options or {}) or None, seed, kernel),
        chunks,
        executor=executor,
        workers=w,
        address=address,
        on_chunk=chunk_done,
        what="a bot of this run",
    )
    elapsed = time.perf_counter() - t0
    bar.update(len(jobs))
    bar.close()
    for part in results:
        for (b, n, t, _i), ok in part:
            counts[(b, n, t)] = counts.get((b, n, t), 0) + (1 if ok else 0)
    rows = []
    for b, label in enumerate(labels):
        for n in seat_list:
            for t in target_list:
                k = counts.get((b, n, t), 0)
                lo, hi = wilson(k, games)
                rows.append(SuccessRow(label, n, t, k, games, lo, hi))
    settings = {
        "bots": labels,
        "seats": seat_list,
        "targets": target_list,
        "games": games,
        "seed": seed,
        "mission": dict(mission or {}),
        "options": dict(options or {}),
        "kernel": kernel,
    }
    return SuccessTable(rows, settings, elapsed)
