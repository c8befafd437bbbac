"""Deep Sea Adventure in tournaments: how one game is set up and watched, and its figures.

>>> res = tournament(["baseline", "take_n"], games=8, seed=1, workers=1, progress=False)
>>> [row["bot"] for row in res.rows]   # ranked by wins
['baseline', 'take_n']
>>> sum(row["wins"] for row in res.rows)
8.0
>>> print(res)                                     # doctest: +ELLIPSIS, +NORMALIZE_WHITESPACE
Tournament: 8 games, 2 seats, seed 1 ...
bot ...
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...core.tournament import Arena, Bots, TournamentOptions, TournamentResult
from ...core.tournament import tournament as _tournament
from ..errors import SetupError
from ..rules import ROLL_STEP, TURN_BACK_STEP, Game

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ARENA", "tournament"]


def _new_game(labels: Sequence[str], seed: int, setup: Mapping[str, Any]) -> Game:
    return Game(players=list(labels), seed=seed, events=False, **setup)


def _check_setup(n: int, setup: Mapping[str, Any]) -> None:
    if "events" in setup:  # the tournament's games keep no event log (they would only slow it)
        raise SetupError("events", "the tournament sets it (its games keep no event log)")
    Game(players=n, **setup)  # raises SetupError naming the key at fault


def _watch(g: Game, move: Callable[[Game], Any]) -> dict[str, list[tuple[float, float]]]:
    """Play ``g`` out with ``move``, counting chips banked, turn-back depths and banked dives."""
    n = len(g.players)
    depth_sum = [0] * n
    depth_n = [0] * n
    dives_banked = [0] * n
    banked = g.banked_chips
    while not g.is_over:
        p: int = g.current_player  # type: ignore[assignment]
        step = g.step
        pos = g.positions[p]
        # A round can end after any step (a roll, a search, ...): count banking around each.
        before = [len(b) for b in banked]
        if step == ROLL_STEP:
            if g.must_turn_back:
                depth_sum[p] += pos
                depth_n[p] += 1
            g.apply("roll")
        else:
            choice = move(g)
            if step == TURN_BACK_STEP and choice == "back":
                depth_sum[p] += pos
                depth_n[p] += 1
        for q in range(n):
            if len(banked[q]) > before[q]:
                dives_banked[q] += 1
    rounds = g.round
    return {
        "mean_banked_chips": [(len(banked[q]), 1) for q in range(n)],
        "mean_turn_back_depth": [(depth_sum[q], depth_n[q]) for q in range(n)],
        "bank_rate": [(dives_banked[q], rounds) for q in range(n)],
    }


#: Deep Sea Adventure's arena: the figures a tournament table shows beside wins and scores
ARENA = Arena(
    game_type=Game,
    new_game=_new_game,
    check_setup=_check_setup,
    watch=_watch,
    columns=(
        ("mean_banked_chips", "chips banked", "{:.2f}"),
        ("mean_turn_back_depth", "turn-back depth", "{:.2f}"),
        ("bank_rate", "dives banked", "{:.0%}"),
    ),
)


def tournament(bots: Bots, games: int = 100, **options: Unpack[TournamentOptions]) -> TournamentResult:
    """Play ``games`` games of Deep Sea Adventure between ``bots`` (one per seat) and rank them.

    ``bots``: bot names (``"mc"``, ``"take_n:n=3"``), :class:`~dsa_widget.core.bots.Bot`
    objects (a fresh copy with a derived seed plays each game) or plain functions; or a
    mapping label → bot.  Seats rotate game by game over each deal.  ``setups``: setup
    keywords other than ``players`` (``{"air": 20}``, ``{"options": {"reveal": "owner"}}``),
    cycled deal by deal.  ``workers``: processes of the local pool (default 2; ``None`` = all
    cores, 1 = this process).  ``executor="ray"`` plays on a Ray cluster instead (``address``: ``None``
    starts a local one, ``"auto"`` joins the running one, ``"host:port"`` the head there); the same
    seed gives the same table on every backend.  Bots travel with pickle, else cloudpickle
    (lambdas, notebook functions), else a clear error.  ``progress``: a notebook
    progress bar in Jupyter, a text one on stderr elsewhere.  Shared wins count 1/k for each
    of the k winners.  Besides wins and scores the table shows the chips banked per game, the
    mean depth of turning back and the share of dives that were banked.
    """
    return _tournament(bots, games, game=ARENA, **options)
