"""Tournaments: many seeded games between bots, seats rotated, ranked in a table.

>>> res = tournament(["baseline", "take_n"], games=8, seed=1, workers=1, progress=False)
>>> [row["bot"] for row in res.rows]   # ranked by wins
['baseline', 'take_n']
>>> sum(row["wins"] for row in res.rows)
8.0
>>> print(res)                                     # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
Tournament: 8 games, 2 seats, seed 1 ...
bot ...

Games come in *deals*: one path shuffle and dice seed played once per seat
rotation, so every bot plays every seat on the same deal.  Everything is
derived from ``seed``: the same seed gives the same results, whatever the
number of worker processes.
"""

from __future__ import annotations

import html
import os
import pickle
import random
import sys
import time
import warnings
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from ..deep_sea.rules import OVER, ROLL_STEP, TURN_BACK_STEP, Game
from .progress import Progress, in_kernel
from .stats import Z95, wilson
from .bots import Bot, bot_name, play_bot_move
from ..deep_sea.bots.registry import parse_bot_spec

__all__ = ["TournamentResult", "play_game", "tournament", "wilson_interval"]


def wilson_interval(wins: float, n: float, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval (95% by default) for a win rate of ``wins`` out of ``n``
    (shared wins count fractionally); ``(0, 1)`` when no game was played.

    >>> lo, hi = wilson_interval(70, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.604, 0.781)
    """
    return (0.0, 1.0) if n <= 0 else wilson(wins, n, z)


# ---------------------------------------------------------------------- one game


def _instantiate(spec: Any, seed: int) -> Any:
    if isinstance(spec, str):
        return parse_bot_spec(spec, seed=seed)
    if isinstance(spec, Bot):
        return spec.spawn(seed)
    return spec  # a plain callable keeps its own randomness


def _derive(*parts: Any) -> int:
    return random.Random("/".join(map(str, parts))).getrandbits(32)


def play_game(
    specs: Sequence[Any],
    labels: Sequence[str],
    setup: Mapping[str, Any],
    game_seed: int,
    bot_seeds: Sequence[int],
) -> dict[str, Any]:
    """Play one game, seat ``i`` played by ``specs[i]``; return its summary."""
    n = len(specs)
    bots = [_instantiate(s, bs) for s, bs in zip(specs, bot_seeds)]
    g = Game(players=list(labels), seed=game_seed, events=False, **setup)
    depths: list[list[int]] = [[] for _ in range(n)]
    dives_banked = [0] * n
    while g._step != OVER:
        p: int = g._player  # type: ignore[assignment]
        step = g._step
        pos = g._pos[p]
        # A round can end after any step (a roll, a search, ...): count banking around each.
        before = [len(b) for b in g._banked]
        if step == ROLL_STEP:
            if g._forced and not g._breathed:
                depths[p].append(pos)
            g.apply("roll")
        else:
            choice = play_bot_move(g, bots[p])
            if step == TURN_BACK_STEP and choice == "back":
                depths[p].append(pos)
        for q in range(n):
            if len(g._banked[q]) > before[q]:
                dives_banked[q] += 1
    return {
        "scores": list(g._score),
        "winners": list(g._winners),
        "banked_chips": [len(b) for b in g._banked],
        "turn_back_depths": depths,
        "dives_banked": dives_banked,
        "rounds": g._round,
        "turns": g.turn_number,
    }


def _run_chunk(args: tuple[Any, ...]) -> list[tuple[int, dict[str, Any]]]:
    specs, labels, setups, seed, indices = args
    n = len(specs)
    out = []
    for i in indices:
        out.append((i, _one(specs, labels, setups, seed, i, n)))
    return out


def _one(specs: Sequence[Any], labels: Sequence[str], setups: Sequence[Mapping[str, Any]], seed: Any,
         i: int, n: int) -> dict[str, Any]:
    deal, rot = divmod(i, n)
    setup_index = deal % len(setups)
    entries = [(s + rot) % n for s in range(n)]  # seat -> entry
    game_seed = _derive(seed, "deal", deal)
    res = play_game(
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


_COLUMNS = [
    ("bot", "bot", "{}"),
    ("games", "games", "{}"),
    ("wins", "wins", "{:g}"),
    ("win_rate", "win %", "{:.1%}"),
    ("win_ci", "95% CI", None),
    ("mean_score", "score", "{:.2f}"),
    ("mean_banked_chips", "chips banked", "{:.2f}"),
    ("mean_turn_back_depth", "turn-back depth", "{:.2f}"),
    ("bank_rate", "dives banked", "{:.0%}"),
]


class TournamentResult:
    """The outcome of :func:`tournament`: ``rows`` (one dict per bot, ranked by
    wins) and ``games`` (one dict per game), plain data; ``to_pandas()`` when
    pandas is installed.  Shared wins count 1/k to each of the k winners."""

    def __init__(self, rows: list[dict[str, Any]], games: list[dict[str, Any]], settings: dict[str, Any],
                 elapsed: float) -> None:
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
        return {"settings": dict(self.settings), "rows": [dict(r) for r in self.rows],
                "games": [dict(g) for g in self.games]}

    def to_pandas(self) -> Any:
        """The table as a pandas DataFrame (needs pandas, which dsa_widget does not require)."""
        try:
            import pandas as pd  # type: ignore[import-not-found,import-untyped,unused-ignore]
        except ImportError as e:
            raise ImportError("to_pandas() needs pandas (pip install pandas); "
                              "the table is also available as plain data in .rows") from e
        rows = []
        for r in self.rows:
            r = dict(r)
            r["win_ci_low"], r["win_ci_high"] = r.pop("win_ci")
            rows.append(r)
        return pd.DataFrame(rows).set_index("bot")

    def _cells(self, r: dict[str, Any]) -> list[str]:
        out = []
        for key, _, fmt in _COLUMNS:
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
        return (f"Tournament: {s['games']} games, {s['seats']} seats, seed {s['seed']} "
                f"({self.elapsed:.1f} s, {self.games_per_second:.1f} games/s); shared wins count 1/k")

    def __repr__(self) -> str:
        head = [h for _, h, _ in _COLUMNS]
        body = [self._cells(r) for r in self.rows]
        widths = [max(len(x) for x in col) for col in zip(head, *body)]
        lines = [self._title(), "  ".join(h.ljust(w) for h, w in zip(head, widths))]
        for cells in body:
            lines.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                   for i, (c, w) in enumerate(zip(cells, widths))))
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        e = html.escape
        head = "".join(f"<th>{e(h)}</th>" for _, h, _ in _COLUMNS)
        body = "".join("<tr>" + "".join(f"<td>{e(c)}</td>" for c in self._cells(r)) + "</tr>"
                       for r in self.rows)
        return (f"<div><p>{e(self._title())}</p><table><thead><tr>{head}</tr></thead>"
                f"<tbody>{body}</tbody></table></div>")


def _aggregate(labels: Sequence[str], games: list[dict[str, Any]]) -> list[dict[str, Any]]:
    n = len(labels)
    stats: list[dict[str, Any]] = [{"games": 0, "wins": 0.0, "score": 0, "chips": 0, "depth_sum": 0, "depth_n": 0,
              "banked_dives": 0, "dives": 0} for _ in range(n)]
    for gm in games:
        winners = gm["winners"]
        for seat, e in enumerate(gm["seats"]):
            st = stats[e]
            st["games"] += 1
            if seat in winners:
                st["wins"] += 1.0 / len(winners)
            st["score"] += gm["scores"][seat]
            st["chips"] += gm["banked_chips"][seat]
            st["depth_sum"] += sum(gm["turn_back_depths"][seat])
            st["depth_n"] += len(gm["turn_back_depths"][seat])
            st["banked_dives"] += gm["dives_banked"][seat]
            st["dives"] += gm["rounds"]
    rows: list[dict[str, Any]] = []
    for label, st in zip(labels, stats):
        k = st["games"]
        wins = round(st["wins"], 6)
        rows.append({
            "bot": label,
            "games": k,
            "wins": wins,
            "win_rate": wins / k if k else 0.0,
            "win_ci": wilson_interval(wins, k),
            "mean_score": st["score"] / k if k else 0.0,
            "mean_banked_chips": st["chips"] / k if k else 0.0,
            "mean_turn_back_depth": st["depth_sum"] / st["depth_n"] if st["depth_n"] else None,
            "bank_rate": st["banked_dives"] / st["dives"] if st["dives"] else 0.0,
        })
    rows.sort(key=lambda r: (-r["wins"], -r["mean_score"]))
    return rows


def _labels(bots: Any) -> tuple[list[Any], list[str]]:
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
            parse_bot_spec(b)  # fail early on unknown names / knobs
        elif not callable(b):
            raise TypeError(f"a bot must be callable as bot(view, legal) or a bot name, got {b!r}")
    if not 2 <= len(specs) <= 6:
        raise ValueError(f"a tournament seats 2 to 6 bots (one per seat), got {len(specs)}")
    return specs, labels


def tournament(
    bots: Sequence[Any] | Mapping[str, Any],
    games: int = 100,
    *,
    setups: Iterable[Mapping[str, Any]] | None = None,
    seed: int | str = 0,
    workers: int | None = 2,
    progress: bool = True,
) -> TournamentResult:
    """Play ``games`` games between ``bots`` (one per seat) and rank them.

    ``bots``: bot names (``"mc"``, ``"take_n:n=3"``), :class:`Bot` objects
    (a fresh copy with a derived seed plays each game) or plain functions;
    or a mapping label → bot.  Seats rotate game by game over each deal.
    ``setups``: Setup keywords other than ``players`` (``{"air": 20}``,
    ``{"options": {"reveal": "owner"}}``), cycled deal by deal.
    ``workers``: processes (``None`` = all cores); bots that cannot be
    pickled (lambdas) make it play in this process, with a warning.
    ``progress``: a notebook progress bar in Jupyter, a text one on stderr
    elsewhere.  Shared wins count 1/k for each of the k winners.
    """
    specs, labels = _labels(bots)
    if not isinstance(games, int) or games < 1:
        raise ValueError(f"games must be a positive int, got {games!r}")
    setups = [dict(s) for s in (setups if setups is not None else [{}])]
    if not setups:
        raise ValueError("setups must list at least one setup")
    for s in setups:
        if "players" in s:
            raise ValueError("setups must not give players: the bots are the players")
        Game(players=len(specs), **s)  # raises SetupError naming the key at fault
    n = len(specs)
    workers = (os.cpu_count() or 1) if workers is None else max(1, int(workers))
    workers = min(workers, games)
    if workers > 1:
        try:
            pickle.dumps(specs)
        except Exception:  # noqa: BLE001
            warnings.warn("some bots cannot be pickled (e.g. lambdas); playing in this process only",
                          RuntimeWarning, stacklevel=2)
            workers = 1
    bar = _Progress(games, progress)
    results: dict[int, dict[str, Any]] = {}
    t0 = time.perf_counter()
    if workers == 1:
        for i in range(games):
            results[i] = _one(specs, labels, setups, seed, i, n)
            bar.update(len(results))
    else:
        import concurrent.futures as cf
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() and sys.platform != "darwin" \
            else mp.get_context()
        size = max(1, min(25, games // (workers * 8)))
        chunks = [list(range(a, min(games, a + size))) for a in range(0, games, size)]
        with cf.ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as ex:
            futs = [ex.submit(_run_chunk, (specs, labels, setups, seed, c)) for c in chunks]
            try:
                for f in cf.as_completed(futs):
                    for i, r in f.result():
                        results[i] = r
                    bar.update(len(results))
            except BaseException:
                for f in futs:
                    f.cancel()
                raise
    elapsed = time.perf_counter() - t0
    bar.update(games)
    ordered = [results[i] for i in range(games)]
    settings = {"bots": labels, "games": games, "seats": n, "seed": seed, "setups": setups}
    return TournamentResult(_aggregate(labels, ordered), ordered, settings, elapsed)
