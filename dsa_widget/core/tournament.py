"""Tournaments for any game: many seeded games between bots, seats rotated, ranked in a table.

Games come in *deals*: one deal (a seed for the game's shuffle and chance
outcomes) is played once per seat rotation, so every bot plays every seat on
the same deal.  Everything is derived from ``seed``: the same seed gives the
same results, whatever the number of worker processes.  A game takes part
through its :class:`Arena` (how to set up one game, and which extra figures
to count); ``dsa_widget.deep_sea.bots.tournament`` is Deep Sea Adventure's.
"""

from __future__ import annotations

import html
import random
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeAlias, TypedDict

from .bots import Bot, bot_name, play_bot_move, resolve_bot
from .errors import SetupError
from .executors import EXECUTORS, ExecutorError, chunk_sizes, default_workers, ray_cpus, run_chunks
from .progress import Progress, in_kernel
from .registry import check_setup_keys as registry_check_setup_keys
from .stats import Z95, wilson

__all__ = [
    "Arena",
    "Bots",
    "TournamentOptions",
    "TournamentResult",
    "check_setup_keys",
    "play_game",
    "tournament",
    "wilson_interval",
]

#: who plays a tournament: bot names, bots or functions, one per seat, or a mapping label → bot
Bots: TypeAlias = Sequence[Any] | Mapping[str, Any]


class TournamentOptions(TypedDict, total=False):
    """The keywords of :func:`tournament` besides the bots, the games and the game: what a game's
    own ``tournament`` passes on (``**options: Unpack[TournamentOptions]``).

    >>> sorted(TournamentOptions.__annotations__)
    ['address', 'executor', 'progress', 'seed', 'setups', 'workers']
    """

    setups: Iterable[Mapping[str, Any]] | None
    seed: int | str
    workers: int | None
    progress: bool
    executor: str
    address: str | None


def wilson_interval(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a win rate of ``wins`` out of ``n``
    (shared wins count fractionally); ``(0, 1)`` when no game was played.

    >>> lo, hi = wilson_interval(70, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.604, 0.781)
    """
    return (0.0, 1.0) if n <= 0 else wilson(wins, n, z)


# ---------------------------------------------------------------------- one game


@dataclass(frozen=True)
class Arena:
    """How a tournament plays one game of a kind (every function module-level, so that an
    arena pickles to worker processes).

    ``new_game(labels, seed, setup)`` builds a game for the seated labels; ``check_setup(n,
    setup)`` raises on a bad setup before anything is played; ``watch`` (optional) follows a
    game move by move and returns extra per-seat figures; ``columns`` lists those extra
    figures as ``(key, header, format)``, each shown as the sum of its numerators over the
    sum of its denominators (``None`` when no denominator).
    """

    game_type: type
    new_game: Callable[[Sequence[str], int, Mapping[str, Any]], Any]
    check_setup: Callable[[int, Mapping[str, Any]], None]
    watch: Callable[[Any, Callable[[Any], Any]], dict[str, list[tuple[float, float]]]] | None = None
    columns: tuple[tuple[str, str, str], ...] = ()


def check_setup_keys(game_type: type, setup: Mapping[str, Any]) -> None:
    """Raise a :class:`~dsa_widget.core.errors.SetupError` (a ``ValueError``) naming a key of a
    tournament's ``setup`` that the tournament gives itself (``players``, ``seed``) or that
    ``game_type`` takes no keyword for (:func:`~dsa_widget.core.registry.check_setup_keys`): a
    tournament's setups are data, and a game built from them would otherwise fail with Python's
    ``TypeError`` in the middle of the run.

    >>> from dsa_widget.pig import Game
    >>> check_setup_keys(Game, {"goal": 50})
    >>> check_setup_keys(Game, {"seed": 50})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dsa_widget.core.errors.SetupError: setup key 'seed': the tournament gives it (bots are the players, ...)
    """
    for key in ("players", "seed"):
        if key in setup:
            raise SetupError(
                f"setup key {key!r}: the tournament gives it (bots are the players, seed= seeds the games)",
                key,
            )
    registry_check_setup_keys(game_type, setup, shown_without=("players", "seed"))


def arena_of(game: Any) -> Arena:
    """The :class:`Arena` of a game class (the game registry names it)."""
    if isinstance(game, Arena):
        return game
    from .registry import game_of

    spec = game_of(game)
    arena = spec.arena_of()
    if not isinstance(arena, Arena):
        raise TypeError(f"{spec.title} has no tournament arena")
    return arena


def _instantiate(spec: Any, seed: int, game_type: type) -> Any:
    if isinstance(spec, str):
        return resolve_bot(spec, game_type, seed=seed)
    if isinstance(spec, Bot):
        return spec.spawn(seed)
    return spec  # a plain callable keeps its own randomness


def _derive(*parts: Any) -> int:
    return random.Random("/".join(map(str, parts))).getrandbits(32)


def play_game(
    arena: Arena,
    specs: Sequence[Any],
    labels: Sequence[str],
    setup: Mapping[str, Any],
    game_seed: int,
    bot_seeds: Sequence[int],
) -> dict[str, Any]:
    """Play one game, seat ``i`` played by ``specs[i]``; return its summary (scores, winners,
    turns and the arena's extra figures)."""
    bots = [_instantiate(s, bs, arena.game_type) for s, bs in zip(specs, bot_seeds, strict=True)]
    g = arena.new_game(list(labels), game_seed, setup)

    def move(game: Any) -> Any:
        return play_bot_move(game, bots[game.current_player])

    extra: dict[str, list[tuple[float, float]]] = {}
    if arena.watch is not None:
        extra = arena.watch(g, move)
    else:
        while not g.is_over:
            move(g)
    return {"scores": list(g.scores), "winners": list(g.winners), "turns": g.turn_number, "extra": extra}


def _run_chunk(payload: tuple[Any, ...], indices: Sequence[int]) -> list[tuple[int, dict[str, Any]]]:
    arena, specs, labels, setups, seed = payload
    n = len(specs)
    return [(i, _one(arena, specs, labels, setups, seed, i, n)) for i in indices]


def _one(
    arena: Arena,
    specs: Sequence[Any],
    labels: Sequence[str],
    setups: Sequence[Mapping[str, Any]],
    seed: Any,
    i: int,
    n: int,
) -> dict[str, Any]:
    deal, rot = divmod(i, n)
    setup_index = deal % len(setups)
    entries = [(s + rot) % n for s in range(n)]  # seat -> entry
    game_seed = _derive(seed, "deal", deal)
    res = play_game(
        arena,
        [specs[e] for e in entries],
        [labels[e] for e in entries],
        setups[setup_index],
        game_seed,
        [_derive(seed, "game", i, "entry", e) for e in entries],
    )
    res.update({"game": i, "deal": deal, "setup": setup_index, "seats": entries, "seed": game_seed})
    return res


# ---------------------------------------------------------------------- progress


def _in_kernel() -> bool:
    return in_kernel()


def _Progress(total: int, enabled: bool) -> Progress:  # noqa: N802 - kept for callers and tests
    return Progress(total, enabled, unit="games")


# ---------------------------------------------------------------------- results


_COLUMNS: tuple[tuple[str, str, str | None], ...] = (
    ("bot", "bot", "{}"),
    ("games", "games", "{}"),
    ("wins", "wins", "{:g}"),
    ("win_rate", "win %", "{:.1%}"),
    ("win_ci", "95% CI", None),
    ("mean_score", "score", "{:.2f}"),
)


class TournamentResult:
    """The outcome of :func:`tournament`: ``rows`` (one dict per bot, ranked by
    wins) and ``games`` (one dict per game), plain data; ``to_pandas()`` when
    pandas is installed.  Shared wins count 1/k to each of the k winners."""

    def __init__(
        self,
        rows: list[dict[str, Any]],
        games: list[dict[str, Any]],
        settings: dict[str, Any],
        elapsed: float,
        columns: Sequence[tuple[str, str, str | None]] = _COLUMNS,
    ) -> None:
        self.columns = tuple(columns)
        self.rows = rows
        self.games = games
        self.settings = settings
        self.elapsed = elapsed

    @property
    def games_per_second(self) -> float:
        return len(self.games) / self.elapsed if self.elapsed > 0 else float("inf")

    def row(self, bot: str) -> dict[str, Any]:
        """The row of one bot by its label."""
        for r in self.rows:
            if r["bot"] == bot:
                return r
        raise KeyError(f"no bot {bot!r} in this tournament; bots: {', '.join(r['bot'] for r in self.rows)}")

    def to_dict(self) -> dict[str, Any]:
        """Everything as JSON-friendly data (timing left out, so it is reproducible)."""
        return {
            "settings": dict(self.settings),
            "rows": [dict(r) for r in self.rows],
            "games": [dict(g) for g in self.games],
        }

    def to_pandas(self) -> Any:
        """The table as a pandas DataFrame (needs pandas, which dsa_widget does not require)."""
        try:
            import pandas as pd  # type: ignore[import-not-found,import-untyped,unused-ignore]
        except ImportError as e:
            raise ImportError(
                "to_pandas() needs pandas (pip install pandas); "
                "the table is also available as plain data in .rows"
            ) from e
        rows = []
        for r in self.rows:
            r = dict(r)
            r["win_ci_low"], r["win_ci_high"] = r.pop("win_ci")
            rows.append(r)
        return pd.DataFrame(rows).set_index("bot")

    def _cells(self, r: dict[str, Any]) -> list[str]:
        out = []
        for key, _, fmt in self.columns:
            v = r[key]
            if key == "win_ci":
                out.append(f"{v[0]:.1%} – {v[1]:.1%}")
            elif v is None:
                out.append("–")
            else:
                out.append(fmt.format(v))  # type: ignore[union-attr]
        return out

    def _title(self) -> str:
        s = self.settings
        return (
            f"Tournament: {s['games']} games, {s['seats']} seats, seed {s['seed']} "
            f"({self.elapsed:.1f} s, {self.games_per_second:.1f} games/s); shared wins count 1/k"
        )

    def __repr__(self) -> str:
        head = [h for _, h, _ in self.columns]
        body = [self._cells(r) for r in self.rows]
        widths = [max(len(x) for x in col) for col in zip(head, *body, strict=False)]
        lines = [self._title(), "  ".join(h.ljust(w) for h, w in zip(head, widths, strict=False))]
        for cells in body:
            lines.append(
                "  ".join(
                    c.ljust(w) if i == 0 else c.rjust(w)
                    for i, (c, w) in enumerate(zip(cells, widths, strict=False))
                )
            )
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        e = html.escape
        head = "".join(f"<th>{e(h)}</th>" for _, h, _ in self.columns)
        body = "".join(
            "<tr>" + "".join(f"<td>{e(c)}</td>" for c in self._cells(r)) + "</tr>" for r in self.rows
        )
        return (
            f"<div><p>{e(self._title())}</p><table><thead><tr>{head}</tr></thead>"
            f"<tbody>{body}</tbody></table></div>"
        )


def _aggregate(
    labels: Sequence[str], games: list[dict[str, Any]], extra: Sequence[str]
) -> list[dict[str, Any]]:
    n = len(labels)
    stats: list[dict[str, Any]] = [
        {"games": 0, "wins": 0.0, "score": 0, **{k: [0.0, 0.0] for k in extra}} for _ in range(n)
    ]
    for gm in games:
        winners = gm["winners"]
        for seat, e in enumerate(gm["seats"]):
            st = stats[e]
            st["games"] += 1
            if seat in winners:
                st["wins"] += 1.0 / len(winners)
            st["score"] += gm["scores"][seat]
            for k in extra:
                num, den = gm["extra"][k][seat]
                st[k][0] += num
                st[k][1] += den
    rows: list[dict[str, Any]] = []
    for label, st in zip(labels, stats, strict=True):
        k = st["games"]
        wins = round(st["wins"], 6)
        row = {
            "bot": label,
            "games": k,
            "wins": wins,
            "win_rate": wins / k if k else 0.0,
            "win_ci": wilson_interval(wins, k),
            "mean_score": st["score"] / k if k else 0.0,
        }
        for key in extra:
            num, den = st[key]
            row[key] = num / den if den else None
        rows.append(row)
    rows.sort(key=lambda r: (-r["wins"], -r["mean_score"]))
    return rows


def _labels(bots: Any, game_type: type) -> tuple[list[Any], list[str]]:
    if isinstance(bots, Mapping):
        specs = list(bots.values())
        labels = [str(k) for k in bots]
    else:
        specs = list(bots)
        labels = []
        seen: dict[str, int] = {}
        for b in specs:
            base = b if isinstance(b, str) else bot_name(b)
            seen[base] = seen.get(base, 0) + 1
            labels.append(base if seen[base] == 1 else f"{base}#{seen[base]}")
    for b in specs:
        if isinstance(b, str):
            resolve_bot(b, game_type)  # fail early on unknown names / knobs
        elif not callable(b):
            raise TypeError(f"a bot must be callable as bot(view, legal) or a bot name, got {b!r}")
    if not 2 <= len(specs) <= 6:
        raise ValueError(f"a tournament seats 2 to 6 bots (one per seat), got {len(specs)}")
    return specs, labels


def tournament(
    bots: Bots,
    games: int = 100,
    *,
    setups: Iterable[Mapping[str, Any]] | None = None,
    seed: int | str = 0,
    workers: int | None = 2,
    progress: bool = True,
    executor: str = "process",
    address: str | None = None,
    game: Any,
) -> TournamentResult:
    """Play ``games`` games between ``bots`` (one per seat) and rank them.

    ``bots``: bot names (``"mc"``, ``"take_n:n=3"``), :class:`Bot` objects
    (a fresh copy with a derived seed plays each game) or plain functions;
    or a mapping label → bot.  Seats rotate game by game over each deal.
    ``setups``: Setup keywords other than ``players`` (``{"air": 20}``,
    ``{"options": {"reveal": "owner"}}``), cycled deal by deal.
    ``executor``: ``"process"`` (the local process pool of ``workers``
    processes, ``None`` = all cores, 1 = this process), ``"local"`` (this
    process) or ``"ray"`` (a Ray cluster at ``address``: ``None``/``"local"``
    starts one on this machine, ``"auto"`` joins the running one, ``"host:port"``
    the head there; see :func:`~dsa_widget.core.executors.connect_ray`).  The same
    seed gives the same table on every backend.  Bots are shipped to the
    workers with pickle, else cloudpickle (lambdas, notebook functions);
    one neither can ship raises :class:`~dsa_widget.core.executors.ExecutorError`.
    ``progress``: a notebook progress bar in Jupyter, a text one on stderr
    elsewhere.  Shared wins count 1/k for each of the k winners.
    ``game``: the game class (or its :class:`Arena`) to play.
    """
    arena = arena_of(game)
    specs, labels = _labels(bots, arena.game_type)
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    setups = [dict(s) for s in (setups if setups is not None else [{}])]
    if not setups:
        raise ValueError("setups must list at least one setup")
    for s in setups:
        check_setup_keys(arena.game_type, s)
        arena.check_setup(len(specs), s)  # raises the game's SetupError naming the key at fault
    n = len(specs)
    if executor not in EXECUTORS:
        raise ExecutorError(f"executor must be one of {', '.join(map(repr, EXECUTORS))}, got {executor!r}")
    workers = min(default_workers(workers), games)
    if executor == "ray":
        size = chunk_sizes(games, ray_cpus(address), largest=2000)
    elif executor == "process" and workers > 1:
        size = chunk_sizes(games, workers, largest=500)
    else:
        size = chunk_sizes(games, 1, largest=50)  # in this process: small chunks for the bar
    chunks = [list(range(a, min(games, a + size))) for a in range(0, games, size)]
    bar = _Progress(games, progress)
    results: dict[int, dict[str, Any]] = {}

    def chunk_done(_: int, part: list[tuple[int, dict[str, Any]]]) -> None:
        for i, r in part:
            results[i] = r
        bar.update(len(results))

    t0 = time.perf_counter()
    run_chunks(
        _run_chunk,
        (arena, specs, labels, setups, seed),
        chunks,
        executor=executor,
        workers=workers,
        address=address,
        on_chunk=chunk_done,
        what="a bot of this tournament",
    )
    elapsed = time.perf_counter() - t0
    bar.update(games)
    bar.close()
    ordered = [results[i] for i in range(games)]
    settings = {"bots": labels, "games": games, "seats": n, "seed": seed, "setups": setups}
    extra = [k for k, _, _ in arena.columns]
    return TournamentResult(
        _aggregate(labels, ordered, extra), ordered, settings, elapsed, _COLUMNS + arena.columns
    )
