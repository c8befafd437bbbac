"""Pig through the platform only: the game registry, the encoding, PettingZoo's generic GameEnv
(api_test, seed_test) and the generic OpenSpiel game (random_sim_test)."""

from __future__ import annotations

import random

import numpy as np
import pyspiel
import pytest
from pettingzoo.test import api_test, seed_test

import dsa_widget.adapters.openspiel  # noqa: F401  (registers python_pig)
from dsa_widget.adapters.pettingzoo import IllegalActionError as EnvIllegal
from dsa_widget.core.encoding import Encoding, EncodingError, encoding_of
from dsa_widget.core.registry import game, game_of
from dsa_widget.pig import PigGame, PigView
from dsa_widget.pig.encoding import SIZE, pig_env

pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
]


def test_the_registry_finds_pig() -> None:
    spec = game("pig")
    assert (spec.title, spec.record_format, spec.seats, spec.default_players) == (
        "Pig",
        "pig/record@1",
        (2, 6),
        2,
    )
    assert spec.state_class() is PigGame and spec.view_class() is PigView and game_of(PigGame(3)) is spec
    assert [o.key for o in spec.setup_schema()] == ["goal"] and spec.option_schema() == ()
    assert spec.bot_registry().names == ("random", "hold_at_20", "optimal") and spec.default_bot == "optimal"
    assert spec.new_game(players=3, goal=12).goal == 12


def test_the_encoding_numbers_actions_and_covers_the_observation_exactly() -> None:
    enc = encoding_of(PigGame(4, goal=40))
    assert isinstance(enc, Encoding) and enc.num_actions == 2 and enc.observation_size == SIZE == 20
    assert [enc.action(i) for i in range(2)] == ["roll", "hold"] and enc.index("hold") == 1
    cells = [c for f in enc.layout for c in range(f.offset, f.offset + f.size)]
    assert cells == list(range(enc.observation_size))
    for bad in (2, -1, True, "0"):
        with pytest.raises(EncodingError):
            enc.action(bad)  # type: ignore[arg-type]
    with pytest.raises(EncodingError):
        enc.index("pass")
    g = PigGame(4, goal=40, first_player=1)
    for m in ("roll", 6, "roll", 6):
        g.apply(m) if isinstance(m, str) else g.apply_chance(m)
    obs = enc.observe(g.view(0))
    assert obs[:6] == [1, 1, 1, 1, 0, 0] and obs[12:18] == [0, 1, 0, 0, 0, 0]  # seat 1 is the next
    assert obs[18:] == [12 / 40, 40 / 1000] and enc.observe(g.view(1))[12] == 1.0
    assert enc.mask(g.legal_actions()) == [1, 1] and enc.mask(()) == [0, 0]


@pytest.mark.parametrize(("players", "goal"), [(2, 100), (3, 20), (6, 8)])
def test_pettingzoo_api_test(players: int, goal: int) -> None:
    api_test(pig_env(players=players, goal=goal), num_cycles=400, verbose_progress=False)


def test_pettingzoo_seed_test_and_whole_games() -> None:
    seed_test(lambda: pig_env(players=3, goal=25), num_cycles=300)
    e = pig_env(players=2, goal=30, reward="win", render_mode="ansi")
    e.reset(seed=5)
    assert e.unwrapped.metadata["name"] == "pig_v0" and e.render().startswith("Pig to 30:")
    rng = random.Random(1)
    total = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, _ = e.last()
        total[agent] = total.get(agent, 0.0) + reward
        e.step(None if terminated or truncated else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert sorted(total.values()) == [0.0, 1.0]


def test_pettingzoo_refuses_a_bad_setup_and_an_illegal_action() -> None:
    e = pig_env(goal=20)
    e.reset(seed=1)
    with pytest.raises(EnvIllegal, match="action 1 .'hold'. is not legal"):
        e.step(1)  # hold with nothing on the turn
    assert e.unwrapped.game.turn_total == 0 and e.agent_selection == "player_0"
    with pytest.raises(ValueError, match="goal must be"):
        pig_env(goal=0)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2, "goal": 100},
        {"players": 3, "goal": 20, "max_turns": 40},
        {"players": 6, "goal": 5, "returns": "win"},
    ],
)
def test_openspiel_random_sim_test(params: dict[str, object]) -> None:
    pyspiel.random_sim_test(
        pyspiel.load_game("python_pig", params), num_sims=3, serialize=True, verbose=False
    )


def test_openspiel_game_plays_pig() -> None:
    g = pyspiel.load_game("python_pig", {"players": 2, "goal": 100})
    assert (g.num_players(), g.num_distinct_actions(), g.max_chance_outcomes()) == (2, 2, 6)
    assert g.max_game_length() == 1000 * 2 * 52 and g.max_utility() == 105
    s = g.new_initial_state()
    assert s.current_player() == 0 and s.legal_actions() == [0]
    s.apply_action(0)
    assert s.is_chance_node() and s.chance_outcomes() == [(i, 1 / 6) for i in range(6)]
    assert s.action_to_string(pyspiel.PlayerId.CHANCE, 4) == "roll 5"
    s.apply_action(4)
    assert s.legal_actions() == [0, 1] and s.observation_string(1) == "goal 100 | 0 0 | seat 0 turn 5"
    s.apply_action(1)
    assert s.current_player() == 1 and s.observation_tensor(1)[6:8] == pytest.approx([0.0, 0.05])
    with pytest.raises(ValueError, match="not legal"):
        s.apply_action(1)  # nothing to hold
    with pytest.raises(ValueError, match="goal must be"):
        pyspiel.load_game("python_pig", {"goal": 0})


def test_openspiel_refuses_an_illegal_action_after_asking_legal_actions() -> None:
    """An action not offered is refused and changes nothing, also once the position's legal
    numbers are worked out (``play`` then checks against them): a turn's first decision is to
    roll (R: "on your turn you must roll at least once"), so hold is refused."""
    s = pyspiel.load_game("python_pig", {"players": 3}).new_initial_state()
    assert s.legal_actions(0) == [0] and s.legal_actions(1) == []
    before = (s.history(), s.information_state_tensor(0), s.legal_actions())
    with pytest.raises(ValueError, match="action 1 .'hold'. is not legal"):
        s.apply_action(1)
    with pytest.raises(ValueError):
        s.apply_action(7)  # no action number at all
    assert (s.history(), s.information_state_tensor(0), s.legal_actions()) == before
    s.apply_action(0)
    assert s.is_chance_node() and s.current_player() == pyspiel.PlayerId.CHANCE


def test_openspiel_honours_a_replaced_observe(monkeypatch: pytest.MonkeyPatch) -> None:
    """A tensor asked after the encoding's ``observe`` is replaced comes from the replacement, not
    from the tracker the state already has (the fast path reads the tracker only while
    ``observe`` is the encoding's own)."""
    g = pyspiel.load_game("python_pig", {"players": 2})
    s = g.new_initial_state()
    s.apply_action(0)
    s.apply_action(3)
    plain = s.information_state_tensor(1)
    assert plain[18] == pytest.approx(0.04)  # turn total 4 of goal 100
    enc = s.core.cfg.encoding
    monkeypatch.setattr(enc, "observe", lambda view: [0.5] * SIZE, raising=False)
    assert s.information_state_tensor(1) == [0.5] * SIZE + [1.0]
    assert s.observation_tensor(0) == [0.5] * SIZE
    monkeypatch.undo()
    assert s.information_state_tensor(1) == plain
