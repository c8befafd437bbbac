"""Shared helpers for the engine tests."""

from __future__ import annotations

import random
from typing import Any

from dsa_widget import Game


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
    return (g.state_dict(), g.step, g.legal_choices(), g.history, g.n_events, g._breathed, g._forced,
            g._dice, g._rng.getstate() if g._rng else None)
