"""Helpers for the Submarine tests: games in a chosen position, random play."""

from __future__ import annotations

import random
from typing import Any

from dsa_widget.submarine.rules import SubmarineGame

EMPTY: dict[str, list[str]] = {f"{c}.{d}": [] for c in range(1, 7) for d in range(1, 5)}


def placed(n: int = 2, options: dict[str, Any] | None = None, seed: int = 0, col: int = 1) -> SubmarineGame:
    """A game just after the placement, every bathyscaphe at ``col``.1."""
    g = SubmarineGame(n, seed=seed, options=options)
    while g.phase == "place":
        g.apply(f"place {col}")
    return g


def position(
    n: int = 2,
    options: dict[str, Any] | None = None,
    *,
    tiles: dict[str, list[str]] | None = None,
    keep_tiles: bool = False,
    **changes: Any,
) -> SubmarineGame:
    """A game in a made-up position: start from a placed game and change parts of its state dict.

    ``tiles`` replaces the board (spaces not named are empty unless ``keep_tiles``); the other
    keyword arguments replace state-dict keys (``bathyscaphes``, ``hands``, ``piles``, ``ships``,
    ``active``, ``phase``, ``held_jokers``, ``slots``...).  Seat 0 is to move in a sailing turn
    unless said otherwise.
    """
    g = placed(n, options)
    d = g.state_dict()
    d["active"] = 0
    d["phase"] = "sail"
    if tiles is not None:
        board = dict(d["tiles"]) if keep_tiles else {k: list(v) for k, v in EMPTY.items()}
        board.update(tiles)
        d["tiles"] = board
    d.update(changes)
    if "phase" not in changes and d["ships"][d["active"]] == "end":
        d["phase"] = "wait"
    return SubmarineGame.from_state_dict(d)


def play_random(g: SubmarineGame, rng: random.Random, limit: int = 20_000) -> SubmarineGame:
    k = 0
    while not g.is_over and k < limit:
        g.apply(rng.choice(g.legal_actions()))
        k += 1
    return g
