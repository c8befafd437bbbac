"""The PettingZoo adapter (dsa_widget.adapters.pettingzoo): PettingZoo's own API, seed and
render tests, whole games, hidden information, illegal actions, rewards, truncation and the
registry."""

from __future__ import annotations

import random

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, render_test, seed_test

from dsa_widget import Game, SetupError
from dsa_widget.adapters.pettingzoo import (
    ENV_NAME,
    REGISTRY_ID,
    IllegalActionError,
    env,
    game_env,
    make,
    raw_env,
)
from dsa_widget.core.encoding import encoding_of, render_modes

# PettingZoo's api_test warns about dict observations for every environment that is not one
# of its own classic games; those warnings say nothing about this one.
pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
]


def masked_choice(rng: random.Random, mask: np.ndarray) -> int:
    return rng.choice(np.flatnonzero(mask).tolist())


def play_out(e, rng: random.Random, *, check=None) -> list[tuple]:
    """Play ``e`` (already reset) to its end with random legal actions; returns the trail of
    (agent, action, reward, terminated, truncated)."""
    trail = []
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if check is not None:
            check(e, agent, obs)
        action = None if terminated or truncated else masked_choice(rng, obs["action_mask"])
        trail.append((agent, action, reward, terminated, truncated))
        e.step(action)
    return trail


# ---------------------------------------------------------------------- PettingZoo's own tests


@pytest.mark.parametrize("players", [2, 4, 6])
def test_pettingzoo_api_test(players):
    api_test(env(players=players), num_cycles=1000, verbose_progress=False)


def test_pettingzoo_api_test_on_a_short_custom_game():
    # a tiny path and little air: many games end inside api_test's cycles
    api_test(env(players=3, air=6, rounds=2, path=[(1, 0), (2, 5), (4, 15)]), num_cycles=200)


def test_pettingzoo_seed_test():
    seed_test(lambda: env(players=4), num_cycles=500)
    seed_test(lambda: env(players=2, options={"reveal": "owner"}), num_cycles=500)


def test_pettingzoo_render_test():
    size = {}

    def rgb_ok(img):
        size.setdefault("shape", img.shape)
        return img.shape == size["shape"] and img.max() > 0

    render_test(
        lambda render_mode=None: env(players=3, render_mode=render_mode),
        custom_tests={
            "ansi": lambda s: s.startswith("Deep Sea Adventure: round") and "Player 3" in s,
            "svg": lambda s: isinstance(s, str) and s.startswith("<svg"),
            "rgb_array": rgb_ok,
        },
    )
    assert size["shape"][2] == 3


def test_render_modes_are_the_encodings_picture_hooks():
    class Plain:
        pass

    class Pixels:
        def render_rgb(self, game):
            return None

    class Both(Pixels):
        def render_svg(self, game):
            return "<svg/>"

    assert render_modes(Plain()) == ["human", "ansi"]
    assert render_modes(Pixels()) == ["human", "ansi", "rgb_array"]
    assert render_modes(Both()) == ["human", "ansi", "rgb_array", "svg"]
    # Deep Sea's environment draws through its encoding's hooks, like every game's
    raw = env(players=2, render_mode="svg").unwrapped
    assert raw.metadata["render_modes"] == render_modes(raw.encoding) == ["human", "ansi", "rgb_array", "svg"]
    raw.reset(seed=1)
    assert raw.render() == raw.encoding.render_svg(raw.game)
    # a mode the game's encoding does not draw is refused, naming the ones it draws
    with pytest.raises(ValueError, match="one of human, ansi"):
        game_env("pig", render_mode="svg")


def test_metadata_and_spaces():
    e = env(players=5)
    raw = e.unwrapped
    assert isinstance(raw, raw_env) and isinstance(raw, pettingzoo.AECEnv)
    assert raw.metadata["name"] == ENV_NAME == "deep_sea_adventure_v0" == str(e)
    assert raw.metadata["is_parallelizable"] is False
    assert {"ansi", "rgb_array", "human"} <= set(raw.metadata["render_modes"])
    assert e.possible_agents == [f"player_{i}" for i in range(5)]
    enc = raw.encoding
    for a in e.possible_agents:
        assert e.action_space(a).n == enc.num_actions == 69
        space = e.observation_space(a)
        assert space["observation"].shape == (enc.observation_size,)
        assert space["observation"].dtype == np.float32
        assert space["action_mask"].shape == (69,) and space["action_mask"].dtype == np.int8
    assert e.action_space("player_0") is not e.action_space("player_1")


# ---------------------------------------------------------------------- whole games


@pytest.mark.parametrize(
    "players", [2, pytest.param(4, marks=pytest.mark.slow), pytest.param(6, marks=pytest.mark.slow)]
)
def test_whole_games_with_random_masked_actions(players):
    e = env(players=players)
    rng = random.Random(players)
    for seed in range(3):
        e.reset(seed=seed)
        raw = e.unwrapped
        enc = raw.encoding
        decisions = 0

        def check(e, agent, obs, raw=raw, enc=enc):
            nonlocal decisions
            g = raw.game
            seat = int(agent.split("_")[1])
            assert e.observation_space(agent).contains(obs)
            # the observation is exactly the encoded view of this seat
            assert obs["observation"].tolist() == pytest.approx(enc.observe(g.view(seat)), rel=1e-6)
            if not e.terminations[agent] and not e.truncations[agent]:
                decisions += 1
                assert g.to_move == seat
                assert obs["action_mask"].tolist() == enc.mask(g.legal_actions())
                for other in e.agents:
                    if other != agent:
                        assert not e.observe(other)["action_mask"].any()
            else:
                assert g.is_over and not obs["action_mask"].any()

        trail = play_out(e, rng, check=check)
        g = raw.game
        assert g.is_over and e.agents == [] and decisions > 10
        # the terminal rewards: score minus the mean of the others' scores, zero before
        finals = {a: r for a, act, r, term, _ in trail if term}
        assert set(finals) == set(e.possible_agents)
        scores = g.scores
        for q, a in enumerate(e.possible_agents):
            others = [s for k, s in enumerate(scores) if k != q]
            assert finals[a] == pytest.approx(scores[q] - sum(others) / len(others))
        assert sum(finals.values()) == pytest.approx(0.0, abs=1e-9)
        assert all(r == 0 for a, act, r, term, _ in trail if not term)
        assert not any(trunc for *_, trunc in trail)


def test_reward_win_shares_the_win():
    e = env(players=4, reward="win")
    rng = random.Random(5)
    shared = False
    for seed in range(12):
        e.reset(seed=seed)
        trail = play_out(e, rng)
        winners = e.unwrapped.game.winners
        finals = {a: r for a, act, r, term, _ in trail if term}
        for q, a in enumerate(e.possible_agents):
            assert finals[a] == pytest.approx(1 / len(winners) if q in winners else 0.0)
        assert sum(finals.values()) == pytest.approx(1.0)
        shared = shared or len(winners) > 1
    # a shared win (everybody at 0 points, say) happens in random play; with seeds 0..11 it does
    assert shared


def test_a_game_that_ends_on_the_dice_still_terminates_everyone():
    # one chip, one air, two rounds: rounds end on the dice right after a single decision
    e = env(players=2, air=1, rounds=1, path=[(1, 3)])
    for seed in range(5):
        e.reset(seed=seed)
        trail = play_out(e, random.Random(seed))
        assert e.agents == [] and e.unwrapped.game.is_over
        assert sorted(a for a, act, r, term, _ in trail if term) == ["player_0", "player_1"]


# ---------------------------------------------------------------------- hidden information


def permuted_path(seed: int) -> tuple[list, list]:
    """A standard path and the same path with the values permuted within each level."""
    path = list(Game(players=2, seed=seed).setup.path)
    by_level: dict[int, list[int]] = {}
    for lv, v in path:
        by_level.setdefault(lv, []).append(v)
    rng = random.Random(seed)
    for vs in by_level.values():
        rng.shuffle(vs)
    permuted = [(lv, by_level[lv].pop()) for lv, _ in path]
    assert permuted != path
    return path, permuted


def first_difference(envs, seed: int) -> str | None:
    """Play both environments with the same random legal actions until something is banked (the
    end of round 1); the first observation that differs between them, or None."""
    rng = random.Random(seed)
    for e in envs:
        e.reset(seed=seed)
    compared = 0
    while envs[0].unwrapped.game.round == 1 and envs[0].agents:
        assert envs[0].agent_selection == envs[1].agent_selection
        for agent in envs[0].possible_agents:
            a, b = (e.observe(agent) for e in envs)
            compared += 1
            for key in ("observation", "action_mask"):
                if not np.array_equal(a[key], b[key]):
                    return f"{agent}'s {key} after {compared} observations"
        obs, *_ = envs[0].last()
        action = masked_choice(rng, obs["action_mask"])
        for e in envs:
            e.step(action)
    assert compared > 20
    return None


@pytest.mark.parametrize("options", [{}, {"reveal": "owner"}])
def test_observations_never_hold_a_hidden_value(options):
    for seed in (3, 12):
        path, permuted = permuted_path(seed)
        envs = [env(players=3, path=path, options=options), env(players=3, path=permuted, options=options)]
        assert first_difference(envs, seed) is None


def test_the_hidden_value_check_catches_a_leaking_encoding():
    path, permuted = permuted_path(3)
    envs = [env(players=3, path=path), env(players=3, path=permuted)]
    assert first_difference(envs, 3) is None
    for e in envs:
        raw = e.unwrapped
        honest = raw.encoding.observe
        field = next(f for f in raw.encoding.layout if f.name == "space1.expected")

        def leaky(view, raw=raw, honest=honest, offset=field.offset):
            out = honest(view)
            item = raw.game.spaces[1]  # reads the true state: what an encoding must never do
            if item is not None:
                out[offset] = float(sum(raw.game.chip(c)[1] for c in item))
            return out

        raw.encoding.observe = leaky
    assert first_difference(envs, 3) is not None


# ---------------------------------------------------------------------- illegal actions


def state_of(e):
    raw = e.unwrapped
    g = raw.game
    return (
        g.state_dict(),
        g.legal_actions(),
        g.turn_number,
        e.agent_selection,
        dict(e.rewards),
        dict(e._cumulative_rewards),
        dict(e.terminations),
        dict(e.truncations),
        g.copy().next_dice(),
    )


def test_a_masked_action_raises_and_changes_nothing():
    e = env(players=3)
    e.reset(seed=4)
    obs, *_ = e.last()
    illegal = np.flatnonzero(obs["action_mask"] == 0).tolist()
    assert illegal
    before = state_of(e)
    for action in illegal[:5] + [np.int64(illegal[-1])]:
        with pytest.raises(IllegalActionError, match=r"is not legal for player_0 now; legal: ") as info:
            e.step(action)
        assert isinstance(info.value, ValueError)
        assert info.value.agent == "player_0"
        assert list(info.value.legal) == np.flatnonzero(obs["action_mask"]).tolist()
        assert state_of(e) == before
    e.step(masked_choice(random.Random(0), obs["action_mask"]))  # the env still plays on
    assert state_of(e) != before


def test_bad_action_values():
    raw = raw_env(players=2)
    raw.reset(seed=1)
    before = state_of(raw)
    for bad, pattern in [
        (69, "out of range 0..68"),
        (-1, "out of range"),
        (None, "None is only for an agent that is terminated"),
        (True, "an action number"),
        (2.0, "an action number"),
        ("take", "an action number"),
    ]:
        with pytest.raises(IllegalActionError, match=pattern):
            raw.step(bad)
        assert state_of(raw) == before
    # the wrapped env asserts the action space first, as PettingZoo's wrapper does
    e = env(players=2)
    e.reset(seed=1)
    with pytest.raises(AssertionError, match="action is not in action space"):
        e.step(69)


def test_illegal_reward_option_terminates_like_the_classic_envs(caplog):
    e = env(players=3, illegal_reward=-1)
    e.reset(seed=4)
    obs, *_ = e.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    e.step(illegal)  # PettingZoo logs "Illegal move made" and ends the game
    assert "Illegal move" in caplog.text
    assert all(e.terminations.values())
    assert e.rewards["player_0"] == -1 and e.rewards["player_1"] == 0


def test_dead_agents_must_step_none():
    e = env(players=2, air=1, rounds=1, path=[(1, 3)])
    e.reset(seed=0)
    while not e.terminations[e.agent_selection]:
        obs, *_ = e.last()
        e.step(masked_choice(random.Random(0), obs["action_mask"]))
    with pytest.raises(ValueError, match="only valid action is None"):
        e.step(0)
    e.step(None)
    e.step(None)
    assert e.agents == []


# ---------------------------------------------------------------------- seeds, truncation, setup


def trajectory(e, seed, actions_seed=0):
    if seed is not False:
        e.reset(seed=seed)
    trail = play_out(e, random.Random(actions_seed))
    return trail, e.unwrapped.game.state_dict()


def test_reset_seed_reproducibility():
    a, b = env(players=4), env(players=4)
    assert trajectory(a, 11) == trajectory(b, 11)
    assert trajectory(a, 11) != trajectory(a, 12)
    # the seed is the game's: the same deal and dice as Game(seed=...)
    a.reset(seed=11)
    assert a.unwrapped.game.setup.path == Game(players=4, seed=11).setup.path
    g = Game(players=4, seed=11)
    g.sample_chance()  # reset rolls the first dice
    assert a.unwrapped.game.state_dict() == g.state_dict()
    assert a.unwrapped.game.copy().next_dice() == g.next_dice()
    # reset() without a seed continues a seeded sequence of games, the same for both
    a.reset(seed=5)
    b.reset(seed=5)
    assert trajectory(a, None) == trajectory(b, None)
    assert trajectory(a, None) != trajectory(a, 5)


def test_max_cycles_truncates():
    # the AEC half of PettingZoo's max_cycles_test (the other half needs a parallel_env)
    for players, m in [(2, 4), (4, 3), (6, 5)]:
        e = make(ENV_NAME, players=players, max_cycles=m)
        e.reset(seed=players)
        decisions = 0
        trail = []
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            live = not (terminated or truncated)
            decisions += live
            trail.append((agent, reward, terminated, truncated))
            e.step(masked_choice(random.Random(decisions), obs["action_mask"]) if live else None)
        assert decisions == m * players
        dead = trail[-players:]
        assert sorted(a for a, *_ in dead) == e.possible_agents
        assert all(trunc and not term and r == 0 for _, r, term, trunc in dead)
        assert not e.unwrapped.game.is_over


def test_make_and_the_registry():
    for e in (
        make(ENV_NAME, players=4),
        make(REGISTRY_ID, players=4),
        pettingzoo.make("aec", REGISTRY_ID, players=4),
    ):
        assert str(e) == ENV_NAME and e.unwrapped.possible_agents[-1] == "player_3"
        e.reset(seed=1)
        assert e.agents == e.possible_agents
    assert make(players=2, air=10).unwrapped.setup["air"] == 10


def test_bad_setups_and_options_fail_at_construction():
    with pytest.raises(SetupError, match="players"):
        env(players=7)
    with pytest.raises(SetupError, match="air"):
        env(players=2, air=0)
    with pytest.raises(SetupError, match="options"):
        env(players=2, options={"colour": "blue"})
    with pytest.raises(ValueError, match="reward must be one of"):
        env(players=2, reward="points")
    with pytest.raises(ValueError, match="render_mode"):
        env(players=2, render_mode="window")
    with pytest.raises(ValueError, match="max_cycles"):
        env(players=2, max_cycles=0)


def test_names_and_custom_paths_keep_the_encoding():
    e = env(players=["Ann", "Bob", "Cy"], path=[(1, 0), (2, 5), (3, 9), (4, 15)])
    e.reset(seed=2)
    assert e.possible_agents == ["player_0", "player_1", "player_2"]
    assert e.unwrapped.game.players == ("Ann", "Bob", "Cy")
    enc = encoding_of(e.unwrapped.game)
    assert e.action_space("player_0").n == enc.num_actions == 2 * 4 + 5
    assert e.observation_space("player_0")["observation"].shape == (enc.observation_size,)


def test_render_pictures_show_no_hidden_value():
    path, permuted = permuted_path(8)
    pictures = []
    for p in (path, permuted):
        shots = []
        for mode in ("ansi", "rgb_array", "svg"):
            e = env(players=3, path=p, render_mode=mode)
            e.reset(seed=8)
            rng = random.Random(8)
            shot = e.render()
            for _ in range(25):
                obs, *_ = e.last()
                e.step(masked_choice(rng, obs["action_mask"]))
                if e.unwrapped.game.round > 1:  # banked values are public from then on
                    break
                shot = e.render()
            shots.append(shot.tobytes() if mode == "rgb_array" else shot)
            e.close()
        pictures.append(shots)
    assert pictures[0] == pictures[1]


# ---------------------------------------------------------------------- observations, kept up to date


def random_setup(rng: random.Random) -> dict:
    """A random setup: 2-6 players, random options (both reveal rules, both sink orders), often a
    short custom path and little air (rounds end by drowning, divers sink with chips)."""
    setup: dict = {
        "players": rng.randint(2, 6),
        "options": {
            "reveal": rng.choice(["public", "owner"]),
            "sink_order": rng.choice(["chosen", "chosen", "pickup"]),
            "drop_order": rng.choice(["nearest_first", "farthest_first"]),
            "turn_back_requires_treasure": rng.choice([True, False]),
            "tiebreak": rng.choice(["level4", "levels_desc"]),
        },
    }
    if rng.random() < 0.6:
        setup["path"] = [(rng.randint(1, 4), rng.randint(0, 15)) for _ in range(rng.randint(1, 12))]
        setup["air"] = rng.randint(1, 20)
        setup["rounds"] = rng.randint(1, 3)
    return setup


def test_every_observation_is_the_encoded_view_computed_afresh():
    """The environment keeps each agent's observation up to date field by field
    (ObservationTracker); at every step of many random games, every agent's observation is
    exactly ``encoding.observe(game.view(seat))`` computed from scratch."""
    rng = random.Random(2024)
    seen = {"sink": 0, "owner": 0, "short": 0, "players": set(), "over": 0}
    for k in range(60):
        setup = random_setup(rng)
        e = env(**setup)
        e.reset(seed=k)
        raw = e.unwrapped
        enc = raw.encoding
        seen["owner"] += setup["options"]["reveal"] == "owner"
        seen["short"] += "path" in setup
        seen["players"].add(setup["players"])
        for _agent in e.agent_iter():
            g = raw.game
            seen["sink"] += g.step == "sink"
            seen["over"] += g.is_over
            for other in rng.sample(e.agents, len(e.agents)):
                got = e.observe(other)["observation"]
                want = np.asarray(enc.observe(g.view(raw.possible_agents.index(other))), dtype=np.float32)
                assert got.dtype == np.float32 and got.shape == want.shape
                assert np.array_equal(got, want), (k, other, g.turn_number, g.step)
            obs, reward, terminated, truncated, info = e.last()
            e.step(None if terminated or truncated else masked_choice(rng, obs["action_mask"]))
    assert seen["sink"] > 20 and seen["owner"] > 10 and seen["short"] > 10 and seen["over"] > 50
    assert seen["players"] == {2, 3, 4, 5, 6}


def test_observations_are_fresh_arrays():
    e = env(players=3)
    e.reset(seed=1)
    a = e.observe("player_0")
    b = e.observe("player_0")
    assert a["observation"] is not b["observation"] and np.array_equal(a["observation"], b["observation"])
    a["observation"][:] = 7.0  # changing a returned observation changes nothing else
    a["action_mask"][:] = 1
    c = e.observe("player_0")
    assert np.array_equal(b["observation"], c["observation"])
    assert np.array_equal(b["action_mask"], c["action_mask"])


def stock_env(**setup):
    """env() with PettingZoo's own wrappers, as env() wrapped before."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(raw_env(**setup)))


@pytest.mark.parametrize("make_env", [env, stock_env], ids=["env", "pettingzoo-wrappers"])
def test_the_fast_wrappers_behave_as_pettingzoos(make_env, caplog):
    from pettingzoo.utils.wrappers import AssertOutOfBoundsWrapper, OrderEnforcingWrapper

    e = make_env(players=2)
    assert isinstance(e, OrderEnforcingWrapper) and isinstance(e.env, AssertOutOfBoundsWrapper)
    assert str(e) == ENV_NAME
    # before reset: PettingZoo's errors
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        e.last()
    with pytest.raises(AttributeError, match="cannot be accessed before reset"):
        _ = e.agent_selection
    with pytest.raises(AssertionError, match="reset"):
        e.step(0)
    with pytest.raises(AssertionError, match="reset"):
        e.agent_iter()
    e.reset(seed=3)
    # a loop over agent_iter must step
    it = iter(e.agent_iter())
    assert next(it) == "player_0"
    with pytest.raises(AssertionError, match="need to call step"):
        next(it)
    e.reset(seed=3)
    agents = []
    for agent in e.agent_iter(max_iter=3):
        agents.append(agent)
        obs, *_ = e.last()
        e.step(masked_choice(random.Random(0), obs["action_mask"]))
    assert len(agents) == 3
    # out-of-space actions (numpy ones too) fail PettingZoo's assertion; numpy ints in it play
    e.reset(seed=3)
    for bad in (-1, 69, np.int64(69), 3.0):
        with pytest.raises(AssertionError, match="action is not in action space"):
            e.step(bad)
    obs, *_ = e.last()
    e.step(np.int64(masked_choice(random.Random(0), obs["action_mask"])))
    # a step after the end only warns
    rng = random.Random(1)
    while e.agents:
        obs, reward, term, trunc, info = e.last()
        e.step(None if term or trunc else masked_choice(rng, obs["action_mask"]))
    e.step(None)
    assert "step() called after all agents are terminated" in caplog.text


def test_the_fast_wrappers_play_as_pettingzoos():
    """The same seeds and actions give the same trail through env() as through PettingZoo's own
    wrappers, and the same observations."""
    for players, seed in [(2, 1), (4, 2), (6, 3)]:
        trails = []
        for make_env in (env, stock_env):
            e = make_env(players=players, options={"reveal": "owner"})
            e.reset(seed=seed)
            seen: list = []
            trail = play_out(e, random.Random(seed), check=lambda e, a, obs, seen=seen: seen.append(obs))
            trails.append((trail, seen))
        (ta, oa), (tb, ob) = trails
        assert ta == tb and len(oa) == len(ob)
        for x, y in zip(oa, ob, strict=True):
            assert np.array_equal(x["observation"], y["observation"])
            assert np.array_equal(x["action_mask"], y["action_mask"])


# ---------------------------------------------------------------------- the kernel-backed environment


def kernel_difference(setups, *, games_per_setup=1, wrong=None) -> tuple[str | None, dict]:
    """Play each setup on the kernel-backed environment and on the Game-backed one with the same
    seeds and random legal actions; at every step, for every agent, the kernel's observation
    and mask must be ``encoding.observe(shadow.view(seat))`` and the shadow Game's mask, and the
    rewards and terminations those of the Game-backed environment.  ``wrong(run)`` may replace
    the kernel's functions first.  Returns the first difference (or None) and what was seen."""
    seen = {"steps": 0, "sink": 0, "owner_banked": 0, "over": 0, "players": set()}
    for k, setup in enumerate(setups):
        for g in range(games_per_setup):
            seed = 1000 * k + g
            a, b = env(**setup), env(**setup, backend="game")
            ra, rb = a.unwrapped, b.unwrapped
            assert ra.backend == "kernel" and rb.backend == "game"
            if wrong is not None:
                wrong(ra._run)
            a.reset(seed=seed)
            b.reset(seed=seed)
            enc = ra.encoding
            rng = random.Random(seed)
            seen["players"].add(len(ra.possible_agents))
            for agent in a.agent_iter():
                if agent != b.agent_selection:
                    return f"setup {k}: agent {agent} vs {b.agent_selection}", seen
                shadow = ra.game
                seen["steps"] += 1
                seen["sink"] += shadow.step == "sink"
                seen["over"] += shadow.is_over
                seen["owner_banked"] += setup["options"]["reveal"] == "owner" and shadow.round > 1
                for other in a.agents:
                    seat = ra.possible_agents.index(other)
                    got = a.observe(other)
                    want = np.asarray(enc.observe(shadow.view(seat)), dtype=np.float32)
                    if got["observation"].dtype != np.float32 or not np.array_equal(got["observation"], want):
                        bad = np.flatnonzero(got["observation"] != want)[:3]
                        names = [enc.layout[i].name for i in bad]
                        return f"setup {k}, turn {shadow.turn_number}: {other}'s observation {names}", seen
                    acting = other == a.agent_selection and not (
                        a.terminations[other] or a.truncations[other]
                    )
                    mask = enc.mask(shadow.legal_actions()) if acting else [0] * enc.num_actions
                    if got["action_mask"].dtype != np.int8 or got["action_mask"].tolist() != mask:
                        return f"setup {k}, turn {shadow.turn_number}: {other}'s mask", seen
                    if not np.array_equal(got["action_mask"], b.observe(other)["action_mask"]):
                        return f"setup {k}: {other}'s mask differs from the Game-backed env's", seen
                obs, reward, terminated, truncated, _ = a.last()
                if (reward, terminated, truncated) != b.last(observe=False)[1:4]:
                    return f"setup {k}: {agent}'s reward or termination", seen
                if dict(a.rewards) != dict(b.rewards) or dict(a.terminations) != dict(b.terminations):
                    return f"setup {k}: rewards or terminations", seen
                action = None if terminated or truncated else masked_choice(rng, obs["action_mask"])
                a.step(action)
                b.step(action)
            if ra.game.state_dict() != rb.game.state_dict() or a.agents or b.agents:
                return f"setup {k}: the games end differently", seen
    return None, seen


@pytest.mark.slow  # 70 whole games: the fast tier compares the 24 below (the same check)
def test_the_kernel_backed_env_plays_exactly_the_game():
    """Many random games (2-6 players, random options, short custom paths, the sink step), the
    kernel-backed environment against the Game-backed one and against the encoded views of its
    own shadow Game, agent by agent, step by step."""
    rng = random.Random(77)
    setups = [random_setup(rng) for _ in range(70)]
    found, seen = kernel_difference(setups)
    assert found is None, found
    assert seen["players"] == {2, 3, 4, 5, 6}
    assert seen["sink"] > 20 and seen["owner_banked"] > 20 and seen["over"] > 50 and seen["steps"] > 3000


def test_the_kernel_backed_env_with_max_cycles_and_win_rewards():
    rng = random.Random(5)
    setups = []
    for _ in range(12):
        setup = random_setup(rng)
        setups.append({**setup, "reward": "win"})
        setups.append({**setup, "max_cycles": rng.randint(1, 6)})
        setups.append({**setup, "skip_forced": True})  # the kernel's skipping loop, too
    found, seen = kernel_difference(setups)
    assert found is None, found


def test_skip_forced_passes_the_api_test_on_the_kernel_and_on_a_game():
    api_test(env(players=3, skip_forced=True), num_cycles=300, verbose_progress=False)
    api_test(env(players=3, skip_forced=True, backend="game"), num_cycles=300, verbose_progress=False)
    with pytest.raises(ValueError, match="skip_forced"):
        env(skip_forced="yes")


def test_a_wrong_kernel_is_caught():
    """The differential check fails on a kernel whose observation reveals banked values under
    reveal="owner" (as if they were public), and on one whose masks allow one action too many."""
    from dsa_widget.deep_sea import kernel as K

    rng = random.Random(9)
    setups = []
    while len(setups) < 6:
        setup = random_setup(rng)
        setup["options"]["reveal"] = "owner"
        setups.append(setup)
    assert kernel_difference(setups)[0] is None

    def public_banks(run):
        honest = run.observe

        def observe(s, cfg, me, out, mask, live):
            cfg = cfg.copy()
            cfg[K.C_OWNER] = 0
            honest(s, cfg, me, out, mask, live)

        run.observe = observe

    found, _ = kernel_difference(setups, wrong=public_banks)
    assert found is not None and "observation" in found

    def loose_masks(run):
        honest = run.observe

        def observe(s, cfg, me, out, mask, live):
            honest(s, cfg, me, out, mask, live)
            if mask.any():
                mask[2] = 1  # "none" always allowed

        run.observe = observe

    found, _ = kernel_difference(setups, wrong=loose_masks)
    assert found is not None and "mask" in found


def test_the_kernel_backed_env_logs_past_its_first_log():
    """A log with no room left makes the kernel stop (before an action, or after it, before the
    next roll); the environment grows the log and plays the same games."""
    stops = {"before": 0, "after": 0}
    for setup_seed in range(8):
        setup = random_setup(random.Random(setup_seed))
        e, f = env(**setup), env(**setup, backend="game")
        run = e.unwrapped._run
        run.log = np.zeros(1, dtype=np.int64)  # no room for the first roll
        e.reset(seed=setup_seed)
        f.reset(seed=setup_seed)
        rng = random.Random(setup_seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, _ = e.last()
            assert (agent, reward, term, trunc) == (f.agent_selection, *f.last(observe=False)[1:4])
            assert np.array_equal(obs["observation"], f.observe(agent)["observation"])
            action = None if term or trunc else masked_choice(rng, obs["action_mask"])
            if action is not None:  # room for nothing, or for the action only
                m = int(run.log[0])
                room = rng.choice([1, 2])
                log = np.zeros(m + room, dtype=np.int64)
                log[: m + 1] = run.log[: m + 1]
                run.log = log
                stops["before" if room == 1 else "after"] += 1
            e.step(action)
            f.step(action)
        assert e.unwrapped.game.state_dict() == f.unwrapped.game.state_dict()
    assert stops["before"] > 20 and stops["after"] > 20


@pytest.mark.parametrize("options", [{}, {"reveal": "owner"}])
def test_the_kernel_backed_env_never_shows_a_hidden_value(options):
    for seed in (3, 12, 21):
        path, permuted = permuted_path(seed)
        envs = [env(players=4, path=p, options=options) for p in (path, permuted)]
        assert all(e.unwrapped.backend == "kernel" for e in envs)
        assert first_difference(envs, seed) is None


def test_the_hidden_value_check_catches_a_leaking_kernel():
    from dsa_widget.deep_sea import kernel as K

    path, permuted = permuted_path(3)
    envs = [env(players=3, path=path), env(players=3, path=permuted)]
    assert first_difference(envs, 3) is None
    field = next(f for f in envs[0].unwrapped.encoding.layout if f.name == "space1.expected")
    for e in envs:
        run = e.unwrapped._run
        honest = run.observe

        def leaky(s, cfg, me, out, mask, live, honest=honest, offset=field.offset):
            honest(s, cfg, me, out, mask, live)
            item = int(s[cfg[K.C_PATH] + 1])  # the true values of space 1's chips
            out[offset] = sum(int(s[cfg[K.C_VAL] + c]) for c in K.item_chips(item))

        run.observe = leaky
    assert first_difference(envs, 3) is not None


@pytest.mark.slow  # two more processes: the kernel-backed env is checked against the Game above
def test_without_numba_the_env_runs_on_a_game():
    """DSA_WIDGET_NO_NUMBA=1: the Game-backed environment, with the same observations and the
    same games as the kernel-backed one here."""
    import json
    import os
    import subprocess
    import sys

    script = r"""
import json, random, sys
import numpy as np
from dsa_widget.adapters.pettingzoo import env
from dsa_widget.deep_sea import kernel
out = {"compiled": kernel.COMPILED, "games": []}
for k, setup in enumerate(json.loads(sys.argv[1])):
    e = env(**setup)
    raw = e.unwrapped
    out["backend"] = raw.backend
    e.reset(seed=k)
    rng = random.Random(k)
    trail = []
    for agent in e.agent_iter():
        g = raw.game
        for other in e.agents:
            want = np.asarray(raw.encoding.observe(g.view(raw.possible_agents.index(other))), np.float32)
            assert np.array_equal(e.observe(other)["observation"], want)
        obs, reward, term, trunc, _ = e.last()
        action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        trail.append([agent, action, reward, obs["observation"].tolist()])
        e.step(action)
    out["games"].append(trail)
print(json.dumps(out))
"""
    rng = random.Random(3)
    setups = [random_setup(rng) for _ in range(4)]
    for setup in setups:
        setup.setdefault("path", None)

    def run(no_numba: bool) -> dict:
        environ = dict(os.environ)
        environ.pop("DSA_WIDGET_NO_NUMBA", None)
        if no_numba:
            environ["DSA_WIDGET_NO_NUMBA"] = "1"
        done = subprocess.run(
            [sys.executable, "-c", script, json.dumps(setups)],
            capture_output=True,
            text=True,
            env=environ,
            timeout=600,
            check=True,
        )
        return json.loads(done.stdout)

    plain = run(True)
    assert plain["compiled"] is False and plain["backend"] == "game"
    compiled = run(False)
    assert compiled["compiled"] is True and compiled["backend"] == "kernel"
    assert plain["games"] == compiled["games"]
    assert sum(len(t) for t in plain["games"]) > 50


def test_the_backend_option():
    assert env(players=2).unwrapped.backend == "kernel"
    assert env(players=2, backend="game").unwrapped.backend == "game"
    with pytest.raises(ValueError, match="backend must be one of"):
        env(players=2, backend="gpu")
    # action_mask() is the acting agent's mask, on either backend
    for backend in ("auto", "game"):
        e = env(players=3, backend=backend)
        e.reset(seed=2)
        raw = e.unwrapped
        assert np.array_equal(raw.action_mask(), e.last()[0]["action_mask"])
        assert not raw.action_mask("player_2").any()


def test_the_generic_environment_draws_deep_sea_as_its_own_does():
    # game_env("deep-sea", render_mode="ansi") drew the game's repr, one line, where env()
    # draws the board: the text picture is now the game's encoding's, for both
    from dsa_widget.adapters.pettingzoo import game_env

    mine, generic = env(players=3, render_mode="ansi"), game_env("deep-sea", players=3, render_mode="ansi")
    mine.reset(seed=4)
    generic.reset(seed=4)
    assert generic.render() == mine.render() and "spaces  1-8" in mine.render()
