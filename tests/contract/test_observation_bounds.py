"""Every encoding's declared observation bounds hold, for every registered game that declares
them, at every player count, under random setups and rule options: each raw feature of every
seat's observation lies in ``[low, high]`` (in the states of random games, the final one
included), the scaled one (``dsa_widget.adapters.learn.normalizer``) in ``[0, 1]``, and the
PettingZoo environment's ``observation_space`` is those bounds.  Nothing here names a game."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest

from dsa_widget.adapters.learn import normalizer
from dsa_widget.adapters.pettingzoo import game_env
from dsa_widget.core.encoding import encoding_of, observation_bounds
from dsa_widget.core.protocol import CHANCE
from dsa_widget.core.registry import GameSpec, Option, games

#: every game with an encoding: each must declare its bounds (a game without is a failure here)
BOUNDED = [g for g in games() if g.encoding is not None]


@pytest.mark.parametrize("spec", BOUNDED, ids=[g.name for g in BOUNDED])
def test_every_encoding_declares_its_bounds(spec: GameSpec) -> None:
    assert callable(getattr(spec.encoding_class(), "bounds", None)), f"{spec.title} declares no bounds()"


def _pick(option: Option, rng: random.Random) -> Any:
    if option.choices:
        return rng.choice(option.choices)[0]
    lo = option.minimum if option.minimum is not None else 0
    # the default too, None included (an option that is off unless set, e.g. a campaign mission)
    return rng.choice([lo, lo + 1, option.default, rng.randint(lo, lo + 30)])


def random_game(spec: GameSpec, players: int, seed: int) -> Any:
    """A new game of ``spec`` with random setup keywords and rule options (the defaults where a
    draw is refused, by the game, e.g. a start player it has no seat for, or by its encoding,
    e.g. The Crew's free proposals, which have no action numbers)."""
    rng = random.Random(seed * 10 + players)  # other draws at each player count
    setup = {o.key: _pick(o, rng) for o in spec.setup_schema()}
    options = {o.key: _pick(o, rng) for o in spec.option_schema()}
    for attempt in ({**setup, "options": options}, setup, {}):
        if spec.option_schema() == () and "options" in attempt:
            continue
        try:
            g = spec.new_game(players=players, seed=seed, **attempt)
            encoding_of(g)
            return g
        except ValueError:
            continue
    raise AssertionError("no setup was accepted")


@pytest.mark.parametrize("spec", BOUNDED, ids=[g.name for g in BOUNDED])
def test_every_feature_lies_within_its_declared_bounds(spec: GameSpec) -> None:
    lo_seats, hi_seats = spec.seats
    checked = 0
    for players in range(lo_seats, hi_seats + 1):
        for seed in range(4):
            g = random_game(spec, players, seed)
            enc = encoding_of(g)
            low, high = (np.array(b) for b in observation_bounds(enc))
            assert (low <= high).all()
            scale = normalizer(enc)
            rng = random.Random(seed)
            step = 0
            while True:
                while g.to_move == CHANCE:
                    g.sample_chance()
                if step % 7 == 0 or g.is_over:  # every seat's observation, now and then
                    for seat in range(players):
                        x = np.array(enc.observe(g.view(seat)), dtype=np.float64)
                        bad = np.flatnonzero((x < low) | (x > high))
                        names = {f.name for f in enc.layout for i in bad if f.offset <= i < f.offset + f.size}
                        assert not bad.size, (players, seed, step, sorted(names), x[bad], high[bad])
                        y = scale(x.astype(np.float32))
                        assert ((y >= 0) & (y <= 1)).all()
                        checked += 1
                if g.is_over or step >= 600:
                    break
                g.apply(rng.choice(g.legal_actions()))
                step += 1
    assert checked > 20


@pytest.mark.parametrize("spec", BOUNDED, ids=[g.name for g in BOUNDED])
def test_the_pettingzoo_observation_space_is_the_declared_bounds(spec: GameSpec) -> None:
    e = game_env(spec.name, players=spec.default_players)
    e.reset(seed=3)
    box = e.observation_space(e.agent_selection)["observation"]
    low, high = observation_bounds(e.unwrapped.encoding)
    assert box.low.tolist() == np.float32(low).tolist() and box.high.tolist() == np.float32(high).tolist()
    assert box.contains(e.last()[0]["observation"])
