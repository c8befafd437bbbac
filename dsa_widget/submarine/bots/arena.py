"""Submarine in tournaments: :data:`ARENA` for :func:`dsa_widget.core.tournament.tournament`
and :func:`tournament`, the same with ``game=ARENA`` filled in.

Submarine is competitive: the table ranks bots by wins (shared wins count 1/k), with 95% Wilson
intervals (``win_ci``) and the mean score.  The games are plain
:class:`~dsa_widget.submarine.rules.SubmarineGame` states (:class:`ArenaGame` only adds the
``current_player`` the core runner asks for).  ``setups`` take ``SubmarineGame`` keywords,
e.g. ``{"options": {"activation_mode": "independent"}}``.

>>> res = tournament(["greedy", "random", "random"], games=3, seed=2, workers=1, progress=False)
>>> [r["games"] for r in res.rows], sum(r["wins"] for r in res.rows) >= 3
([3, 3, 3], True)
>>> lo, hi = res.row("greedy")["win_ci"]
>>> 0.0 <= lo <= res.row("greedy")["win_rate"] <= hi <= 1.0
True
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...core.tournament import Arena, Bots, TournamentOptions, TournamentResult
from ...core.tournament import tournament as _tournament
from ..rules import SubmarineGame

if TYPE_CHECKING:
    from typing_extensions import Unpack

__all__ = ["ARENA", "ArenaGame", "tournament"]


class ArenaGame(SubmarineGame):
    """A :class:`SubmarineGame` with ``current_player`` (the seat to move, ``None`` at the end)."""

    @property
    def current_player(self) -> int | None:
        return None if self.is_over else self.to_move


def _new_game(labels: Sequence[str], seed: int, setup: Mapping[str, Any]) -> ArenaGame:
    return ArenaGame(list(labels), seed=seed, **setup)


def _check_setup(n: int, setup: Mapping[str, Any]) -> None:
    SubmarineGame(n, seed=0, **setup)  # raises SetupError naming the key at fault


#: how a tournament plays one game of Submarine
ARENA = Arena(game_type=SubmarineGame, new_game=_new_game, check_setup=_check_setup)


def tournament(bots: Bots, games: int = 100, **options: Unpack[TournamentOptions]) -> TournamentResult:
    """:func:`dsa_widget.core.tournament.tournament` for Submarine (2 to 5 seats), its keywords
    (``setups``, ``seed``, ``workers``, ``progress``, ``executor``, ``address``) as there."""
    n = len(bots)
    if not 2 <= n <= 5:
        raise ValueError(f"Submarine seats 2 to 5 bots, got {n}")
    return _tournament(bots, games, game=ARENA, **options)
