"""The Crew through the generic AI adapters (its registry entry names its encoding and its
OpenSpiel rules): the PettingZoo environment (``crew_env`` = ``game_env("crew", ...)``) and the
OpenSpiel game ``python_the_crew_deep_sea``:
the libraries' own tests, random episodes step by step against CrewGame, illegal actions,
observations that never depend on hidden cards, exact chance, perfect-recall information
states, resampling, serialisation, and docs/AI.md held to the code."""

from __future__ import annotations

import random
import re
from fractions import Fraction
from math import factorial
from pathlib import Path
from typing import Any

import numpy as np
import pettingzoo
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from open_spiel.python.observation import make_observation
from pettingzoo.test import api_test

from dsa_widget.adapters import crew_openspiel as cos
from dsa_widget.adapters.crew_pettingzoo import CREW_REGISTRY_ID, crew_env
from dsa_widget.adapters.openspiel import register
from dsa_widget.crew.encoding import ACTIONS, LAYOUT, NUM_ACTIONS, OBSERVATION_SIZE, CrewEncoding
from dsa_widget.crew.knowledge import sample_deal
from dsa_widget.crew.rules import CrewGame
from dsa_widget.crew.tasks import task_table

pytestmark = [
    pytest.mark.filterwarnings("ignore:Observation is not a NumPy array"),
    pytest.mark.filterwarnings("ignore:Observation space for each agent probably should be"),
]

ENC = CrewEncoding()
NAME = "python_the_crew_deep_sea"
DOC = Path(__file__).resolve().parents[2] / "docs" / "AI.md"

SETUPS = [
    {"players": 4},
    {"players": 2, "options": {"two_player_distress": "humans_swap"}},
    {"players": 3, "mission": {"target": 3, "allocation": "captain_decides", "communication": "currents"}},
    {
        "players": 5,
        "mission": {"target": 4, "allocation": "one_owner"},
        "options": {"token_position": "any_true"},
    },
    {
        "players": 4,
        "mission": {"target": 2, "allocation": "volunteers"},
        "options": {"prediction_timing": "on_take"},
    },
]


def legal_numbers(game: CrewGame) -> list[int]:
    return sorted(ENC.index(a) for a in game.legal_actions())


# ============================================================================ PettingZoo


@pytest.mark.parametrize("skip", [False, True], ids=["every-decision", "skip_forced"])
@pytest.mark.parametrize("setup", SETUPS[:4], ids=lambda s: str(s["players"]))
def test_pettingzoo_api_test(setup, skip):
    api_test(crew_env(**setup, skip_forced=skip), num_cycles=200, verbose_progress=False)


def test_skip_forced_leaves_the_agents_only_real_choices():
    # docs/AI.md: about one Crew decision in six has one legal action (mostly a play with one
    # legal card); skip_forced=True applies them for the agents
    e = crew_env(players=4, skip_forced=True)
    rng = random.Random(2)
    asked = 0
    for seed in range(3):
        e.reset(seed=seed)
        for _agent in e.agent_iter():
            obs, _r, terminated, truncated, _ = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"]).tolist()
            assert len(legal) >= 2
            asked += 1
            e.step(rng.choice(legal))
    assert asked > 0 and e.unwrapped.skipped > 0


@pytest.mark.parametrize("setup", SETUPS, ids=lambda s: f"{s['players']}-{sorted(s)}")
def test_random_episodes_agree_with_the_engine_step_by_step(setup):
    rng = random.Random(1)
    e = crew_env(**setup)
    raw = e.unwrapped
    outcomes = set()
    for seed in range(4):
        e.reset(seed=seed)
        shadow = CrewGame(seed=seed, **setup)
        final = {}
        for agent in e.agent_iter():
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                assert shadow.is_over
                final[agent] = reward
                e.step(None)
                continue
            assert raw.seat_of[agent] == shadow.to_move
            assert np.flatnonzero(obs["action_mask"]).tolist() == legal_numbers(shadow)
            assert obs["observation"].dtype == np.float32 and obs["observation"].shape == (OBSERVATION_SIZE,)
            for other in raw.possible_agents:  # every other agent's mask is empty
                if other != agent:
                    assert not raw.action_mask(other).any()
            a = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            e.step(a)
            shadow.apply(ENC.decode(a, shadow.task_ids))
        won = shadow.outcome.result == "success"
        outcomes.add(won)
        assert final == dict.fromkeys(raw.possible_agents, 1.0 if won else 0.0)
        assert raw.game.history == shadow.history


def test_signed_rewards_and_the_registry():
    e = pettingzoo.make("aec", CREW_REGISTRY_ID, players=3, reward="signed")
    e.reset(seed=2)
    rewards = []
    for _agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        rewards.append(reward)
        e.step(None if terminated or truncated else int(np.flatnonzero(obs["action_mask"])[0]))
    ok = e.unwrapped.game.outcome.result == "success"
    assert rewards[-1] == (1.0 if ok else -1.0)
    with pytest.raises(ValueError):
        crew_env(reward="win")


def test_masked_actions_raise_a_value_error_and_change_nothing():
    e = crew_env(players=4)
    raw = e.unwrapped
    rng = random.Random(5)
    e.reset(seed=4)
    checked = 0
    for _ in range(12):
        agent = raw.agent_selection
        if raw.terminations[agent]:
            break
        mask = raw.observe(agent)["action_mask"]
        before = (raw.game.to_record(), raw.observe(agent)["observation"].tolist(), agent)
        bad = [i for i in range(NUM_ACTIONS) if not mask[i]]
        for a in (rng.choice(bad), rng.choice(bad), "play P1", 1.5, None, -1, NUM_ACTIONS):
            with pytest.raises(ValueError):
                raw.step(a)
            checked += 1
        with pytest.raises(ValueError):  # through the wrappers too (inside the action space)
            e.step(int(rng.choice(bad)))
        assert (
            raw.game.to_record(),
            raw.observe(agent)["observation"].tolist(),
            raw.agent_selection,
        ) == before
        e.step(int(rng.choice(np.flatnonzero(mask).tolist())))
    assert checked >= 7


def test_allocations_with_free_proposals_are_refused():
    with pytest.raises(ValueError, match="free proposals"):
        crew_env(mission={"target": 3, "allocation": "free"})
    with pytest.raises(ValueError, match="free proposals"):
        crew_env(mission={"target": 3, "allocation": "volunteers", "volunteers": 2})
    with pytest.raises(ValueError, match="free proposals"):
        pyspiel.load_game(NAME, {"allocation": "free"})


def test_ansi_render_shows_the_public_table():
    e = crew_env(players=2, render_mode="ansi")
    e.reset(seed=1)
    text = e.render()
    assert text.startswith("The Crew: Mission Deep Sea") and "Tonoja" in text
    assert all(c not in text for c in e.unwrapped.game.hand(0))  # no hand is shown


def shuffled_world(game: CrewGame, seat: int, rng: random.Random) -> CrewGame:
    """The game with every card ``seat`` cannot know dealt afresh (consistently with the public
    record: the seat's own knowledge, ``sample_deal``), the public history replayed."""
    view = game.view(seat)
    k = view.knowledge()
    extra = sample_deal(k, rng)
    return CrewGame.from_view(view, [k.known[s] | extra[s] for s in range(view.seats)], rng)


@pytest.mark.parametrize("setup", SETUPS[:4], ids=lambda s: str(s["players"]))
def test_observations_never_depend_on_hidden_cards(setup):
    rng = random.Random(7)
    e = crew_env(**setup)
    raw = e.unwrapped
    compared = changed = 0
    for seed in range(3):
        e.reset(seed=seed)
        for k, _agent in enumerate(e.agent_iter()):
            obs, reward, terminated, truncated, info = e.last()
            if terminated or truncated:
                e.step(None)
                continue
            if k % 3:
                e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
                continue
            g = raw.game
            for other, seat in raw.seat_of.items():
                world = shuffled_world(g, seat, rng)
                changed += any(world.hand(s) != g.hand(s) for s in range(g.seats) if s != seat)
                assert ENC.observe(world.view(seat)) == raw.observe(other)["observation"].tolist()
                compared += 1
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
    assert compared > 15 and changed > compared // 2


def test_a_plain_shuffle_of_the_other_hands_leaves_the_first_observation_alone():
    rng = random.Random(3)
    for n in (3, 4, 5):
        g = CrewGame(n, seed=11)
        cap = g.captain
        for seat in range(n):
            pool = [c for s in range(n) if s != seat for c in g.hand(s) if c != "S4"]
            rng.shuffle(pool)
            hands = []
            for s in range(n):
                if s == seat:
                    hands.append(g.hand(s))
                else:
                    k = len(g.hand(s)) - (1 if s == cap and s != seat else 0)
                    hands.append(pool[:k] + (["S4"] if s == cap and s != seat else []))
                    pool = pool[k:]
            other = CrewGame(n, seed=11, deal=hands, tasks=list(g.task_ids), deal_check=False)
            assert ENC.observe(other.view(seat)) == ENC.observe(g.view(seat))


def test_the_doc_lists_every_observation_field_and_the_action_numbering():
    text = DOC.read_text(encoding="utf-8")
    section = text[text.index("## The Crew: Mission Deep Sea") :]
    actions = section[section.index("### Actions") : section.index("### Observation")]
    observation = section[section.index("### Observation") : section.index("### PettingZoo")]
    rows = re.findall(r"^\| (\d+)(?:–(\d+))? \| `([^`]+)` \| (\d+) \| (.+?) \|$", observation, re.M)
    documented = [
        (f, int(a), int(b or a) - int(a) + 1, int(size), meaning) for a, b, f, size, meaning in rows
    ]
    assert [(f.name, f.offset, f.size, f.size, f.meaning) for f in LAYOUT] == documented
    assert f"{OBSERVATION_SIZE} floats" in observation and f"{NUM_ACTIONS} numbers" in actions
    shapes = {"<card>": "[PYBGS][1-9]", "<pos>": "(top|middle|bottom)", "<id>": "[0-9]+", "<x>": "[0-9]+"}
    shapes["<s>"] = "[0-4]"
    covered = []
    for a, b, action in re.findall(r"^\| (\d+)(?:–(\d+))? \| `([^`]+)` \| [a-z]", actions, re.M):
        pattern = re.escape(action)
        for k, v in shapes.items():
            pattern = pattern.replace(re.escape(k), v)
        for i in range(int(a), int(b or a) + 1):
            assert re.fullmatch(pattern, ACTIONS[i]), (i, ACTIONS[i], action)
            covered.append(i)
    assert covered == list(range(NUM_ACTIONS))


def test_action_numbering_round_trips():
    g = CrewGame(4, seed=1, tasks=[17, 23], mission={"target": 3, "allocation": "one_owner"})
    for i in range(NUM_ACTIONS):
        a = ENC.decode(i, g.task_ids)
        assert ENC.index(a) == i
    assert ENC.decode(ENC.index("propose 17:2 23:2"), g.task_ids) == "propose 17:2 23:2"
    with pytest.raises(ValueError):
        ENC.index("propose 17:1 23:2")


# ============================================================================ OpenSpiel

OS_PARAMS = [
    {"players": 4},
    {"players": 2, "two_player_distress": "humans_swap", "tasks": "31 58"},
    {"players": 3, "communication": "terrain", "allocation": "captain_decides"},
    {"players": 5, "allocation": "one_owner", "tasks": "30 57 3", "token_position": "any_true"},
]


def random_step(s, rng):
    if s.is_chance_node():
        actions, probs = zip(*s.chance_outcomes(), strict=True)
        s.apply_action(int(rng.choice(actions, p=probs)))
    else:
        s.apply_action(int(rng.choice(s.legal_actions())))


@pytest.mark.parametrize("skip", [False, True], ids=["every-decision", "skip_forced"])
@pytest.mark.parametrize("params", OS_PARAMS, ids=lambda p: str(p["players"]))
def test_random_sim_test(params, skip):
    game = pyspiel.load_game(NAME, {**params, "skip_forced": skip})
    pyspiel.random_sim_test(game, num_sims=1, serialize=True, verbose=False)


def test_the_information_state_tensor_is_the_observation_then_the_play_order():
    game = pyspiel.load_game(NAME, {"players": 3, "tasks": "70"})
    assert game.get_type().provides_information_state_tensor
    s = game.new_initial_state()
    rng = np.random.RandomState(9)
    while not s.is_terminal() and len(s.core.engine.tricks if s.core.engine else ()) < 2:
        random_step(s, rng)
    info = s.information_state_tensor(1)
    assert len(info) == game.information_state_tensor_size() == OBSERVATION_SIZE + 40 + 1
    assert info[:OBSERVATION_SIZE] == s.observation_tensor(1)
    plays = [c for t in s.core.engine.tricks for _, c in t.plays]
    order = info[OBSERVATION_SIZE : OBSERVATION_SIZE + 40]
    assert sorted((k, c) for c, k in enumerate(order) if k) == [
        (k + 1.0, c) for k, c in sorted(enumerate(plays), key=lambda x: x[0])
    ]
    assert info[-1] == 1.0  # the deal is done


def test_the_centralised_state_holds_every_card():
    game = pyspiel.load_game(NAME, {"players": 2, "tasks": "70"})
    s = game.new_initial_state()
    rng = np.random.RandomState(4)
    while s.is_chance_node():
        random_step(s, rng)
    full = s.state_tensor()
    assert len(full) == 2 * OBSERVATION_SIZE + 40
    eng = s.core.engine
    hand = ENC.offset("hand")
    held = [full[p * OBSERVATION_SIZE + hand : p * OBSERVATION_SIZE + hand + 40] for p in range(2)]
    dummy = full[-40:]
    assert [sum(x) for x in (*held, dummy)] == [len(eng.hand(0)), len(eng.hand(1)), len(eng.hand(2))]
    assert all(sum(col) == 1 for col in zip(*held, dummy, strict=True))  # every card once


def test_parameters_and_registration():
    assert NAME in pyspiel.registered_names()
    assert register(cos.RULES) is cos.CrewSpielGame  # again: harmless, the same class
    g = pyspiel.load_game(NAME, {"players": 2, "tasks": "70"})
    assert (g.num_players(), g.num_distinct_actions(), g.max_chance_outcomes()) == (2, NUM_ACTIONS, 16)
    assert g.config.tasks == (70,)
    drawn = pyspiel.load_game(NAME, {"seed": 5, "target": 4}).config  # drawn once, from the seed
    table = task_table(drawn.options)
    assert sum(table[t].difficulty_for(4) for t in drawn.tasks) == 4
    assert g.get_type().utility == pyspiel.GameType.Utility.IDENTICAL


def deal_probability(game, rng):
    """Play the deal at random; the product of the chance probabilities taken."""
    s = game.new_initial_state()
    p = Fraction(1)
    while s.is_chance_node():
        outcomes = s.chance_outcomes_exact()
        assert sum(q for _, q in outcomes) == 1 and all(q > 0 for _, q in outcomes)
        a, q = rng.choice(outcomes)
        p *= q
        s.apply_action(a)
    return p, s


def test_chance_is_exact_every_valid_deal_equally_likely():
    rng = random.Random(2)
    # four seats, no exception: 40! / 10!^4 deals
    plain = factorial(40) // factorial(10) ** 4
    for _ in range(3):
        p, _s = deal_probability(pyspiel.load_game(NAME, {"players": 4, "tasks": "70"}), rng)
        assert p == Fraction(1, plain)
    # task 30: no hand may hold S1-S4: the deals where one does are left out
    one_holds = factorial(36) // (factorial(6) * factorial(10) ** 3)
    for _ in range(3):
        p, s = deal_probability(pyspiel.load_game(NAME, {"players": 4, "tasks": "30"}), rng)
        assert p == Fraction(1, plain - 4 * one_holds)
        assert all(not {"S1", "S2", "S3", "S4"} <= set(s.core.engine.hand(q)) for q in range(4))
    # two players: S4 with a human, Tonoja's 14 positions ordered
    two = 2 * factorial(39) // (factorial(12) * factorial(13))
    for _ in range(3):
        p, s = deal_probability(pyspiel.load_game(NAME, {"players": 2, "tasks": "70"}), rng)
        assert p == Fraction(1, two)
        assert "S4" not in s.core.engine.hand(s.core.engine.dummy)


def test_information_state_strings_are_equal_for_indistinguishable_states():
    rng = np.random.RandomState(3)
    prng = random.Random(3)
    compared = skipped = 0
    for params in OS_PARAMS:
        game = pyspiel.load_game(NAME, params)
        for _ in range(2):
            s = game.new_initial_state()
            k = 0
            while not s.is_terminal():
                random_step(s, rng)
                k += 1
                if s.is_chance_node() or k % 2:
                    continue
                for p in (k // 2 % game.num_players(),):  # one seat per state, in turn
                    seat = game.config.humans[p]
                    world = shuffled_world(s.core.engine, seat, prng)
                    deal = game.config.deal(s.core.dealt)
                    deal = game.config.deal_dict_of(world, deal.get("terrain"), deal.get("extra"))
                    twin = game.new_initial_state()
                    try:  # a sample excludes fails in the deal
                        for o in game.config.outcomes(deal):
                            twin.apply_action(o)
                        for h in world.history:
                            twin.apply_action(ENC.index(h["action"]))
                    except Exception:  # noqa: BLE001 - not a legal world (the knowledge's limits)
                        continue
                    if public(twin) != public(s):  # not a state the seat cannot tell apart
                        skipped += 1
                        continue
                    assert twin.information_state_string(p) == s.information_state_string(p)
                    assert twin.observation_tensor(p) == s.observation_tensor(p)
                    assert twin.observation_string(p) == s.observation_string(p)
                    assert twin.information_state_tensor(p) == s.information_state_tensor(p)
                    compared += 1
    assert compared > 20 and skipped < compared


def public(state):
    """The public record of a state (what a spectator sees), for telling states apart."""
    d = state.core.engine.view(None).to_dict()
    return d, state.core.engine.view(None).public_history


def test_information_state_strings_differ_when_the_seat_can_tell():
    game = pyspiel.load_game(NAME, {"players": 4, "tasks": "70"})
    a, b = game.new_initial_state(), game.new_initial_state()
    for i in range(40):
        a.apply_action(i % 4)
        b.apply_action({0: 1, 1: 0}.get(i, i % 4))  # P1 and P2 swap seats 0 and 1
    assert a.information_state_string(0) != b.information_state_string(0)
    assert a.information_state_string(3) == b.information_state_string(3)  # saw neither card
    assert a.information_state_string(0).startswith("0|P1>0,P2?")


def test_resample_from_infostate_keeps_the_information_state():
    rng = np.random.RandomState(4)
    done = 0
    for params in OS_PARAMS[:3]:
        game = pyspiel.load_game(NAME, params)
        s = game.new_initial_state()
        k = 0
        while not s.is_terminal():
            random_step(s, rng)
            k += 1
            if k % 5:
                continue
            p = s.current_player() if s.current_player() >= 0 else 0
            r = s.resample_from_infostate(p, random.Random(k).random)
            assert r.information_state_string(p) == s.information_state_string(p)
            assert r.history_str() != "" and len(r.history()) == len(s.history())
            if not s.is_chance_node():
                assert r.legal_actions() == s.legal_actions()
            done += 1
    assert done > 10


def test_serialise_mid_game_and_play_on_alike():
    rng = np.random.RandomState(5)
    game = pyspiel.load_game(NAME, {"players": 3})
    s = game.new_initial_state()
    for _ in range(50):
        random_step(s, rng)
    text = pyspiel.serialize_game_and_state(game, s)
    g2, s2 = pyspiel.deserialize_game_and_state(text)
    assert s2.history() == s.history() and str(s2) == str(s)
    assert s2.information_state_string(0) == s.information_state_string(0)
    c = s.clone()
    while not c.is_terminal():
        random_step(c, rng)
    assert not s.is_terminal() and s.history() == s2.history()  # the clone is independent


def test_openspiel_agrees_with_the_engine_step_by_step():
    rng = random.Random(6)
    for params, setup in [
        ({"players": 4, "tasks": "70 3"}, {"players": 4, "tasks": [70, 3]}),
        (
            {"players": 2, "tasks": "12", "two_player_distress": "humans_swap"},
            {"players": 2, "tasks": [12], "options": {"two_player_distress": "humans_swap"}},
        ),
    ]:
        game = pyspiel.load_game(NAME, params)
        for seed in range(4):
            eng = CrewGame(seed=seed, **setup)
            s = game.new_initial_state()
            for o in game.config.deal_of(eng):
                s.apply_action(o)
            while not eng.is_over:
                assert game.config.humans[s.current_player()] == eng.to_move
                assert s.legal_actions() == legal_numbers(eng)
                a = rng.choice(eng.legal_actions())
                s.apply_action(ENC.index(a))
                eng.apply(a)
            assert s.is_terminal() and s.returns() == [eng.returns()[0]] * game.num_players()
            assert len(s.history()) - 40 <= game.max_game_length()


def test_max_game_length_bounds_long_games():
    rng = np.random.RandomState(8)
    game = pyspiel.load_game(NAME, {"players": 3, "allocation": "captain_decides", "max_rejections": 3})
    longest = 0
    for _ in range(20):
        s = game.new_initial_state()
        while not s.is_terminal():
            random_step(s, rng)
        longest = max(longest, len(s.history()) - game.config.deal_length)
    assert longest <= game.max_game_length()


def test_success_gives_every_agent_one():
    e = crew_env(players=3, tasks=[])  # no task: the mission succeeds after the first trick
    e.reset(seed=1)
    final = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        if terminated:
            final[agent] = reward
        e.step(None if terminated else int(np.flatnonzero(obs["action_mask"])[0]))
    assert final == {"player_0": 1.0, "player_1": 1.0, "player_2": 1.0}
    game = pyspiel.load_game(NAME, {"players": 3, "tasks": "", "target": 0})
    s = game.new_initial_state()
    rng = np.random.RandomState(1)
    while not s.is_terminal():
        random_step(s, rng)
    assert s.returns() == [1.0, 1.0, 1.0]
    # returns="win" shares the win among the players: Tonoja (two players) is no player
    two = pyspiel.load_game(NAME, {"players": 2, "tasks": "", "target": 0, "returns": "win"})
    s = two.new_initial_state()
    while not s.is_terminal():
        random_step(s, rng)
    assert s.returns() == [0.5, 0.5]


def test_the_public_observer_knows_no_hand():
    game = pyspiel.load_game(NAME, {"players": 4, "tasks": "70"})
    public = pyspiel.IIGObservationType(perfect_recall=True, private_info=pyspiel.PrivateInfoType.NONE)
    obs = make_observation(game, public)
    a, b = game.new_initial_state(), game.new_initial_state()
    for i in range(40):
        a.apply_action(i % 4)
        b.apply_action({0: 1, 1: 0}.get(i, i % 4))
    strings = set()
    for s in (a, b):
        for p in range(4):
            strings.add(obs.string_from(s, p).partition("|")[2])
    assert len(strings) == 1 and "P1>" not in strings.pop()
    flat = make_observation(
        game, pyspiel.IIGObservationType(perfect_recall=False, private_info=pyspiel.PrivateInfoType.NONE)
    )
    flat.set_from(a, 0)
    hand = ENC.offset("hand")
    assert not np.asarray(flat.tensor)[hand : hand + 40].any()


def test_openspiel_ismcts_plays_the_crew_from_a_seat_view():
    """IsmctsBot searches from a view (state_from_view: the unknown cards drawn afresh each
    simulation); the information state string of such a state names the seat's dealt hand, so
    two different hands are two information states (ISMCTS keys its nodes on them)."""
    from dsa_widget.adapters.openspiel import IsmctsBot

    params = cos.RULES.params_of(CrewGame(3, seed=2, tasks=[70, 3]))
    assert pyspiel.load_game(NAME, params).config.tasks == (70, 3)
    for players in (2, 3):
        g = CrewGame(players, seed=2, tasks=[70])
        bot = IsmctsBot(seed=1, simulations=6)
        while not g.is_over:
            legal = g.legal_actions()
            choice = bot(g.view(g.to_move), legal)
            assert choice in legal
            g.apply(choice)


@pytest.mark.parametrize(
    "params",
    [
        {"players": 2},
        {"players": 3},
        {"players": 4, "tasks": "70 71"},
        {"players": 5, "communication": "terrain"},
    ],
    ids=["2p-tonoja", "3p-extra", "4p-deal-check", "5p-terrain"],
)
def test_deal_node_outcomes_are_the_plain_computation_at_every_node(params: dict[str, Any]) -> None:
    """A deal node's outcomes (which ``deal_outcomes`` gives from a table by the room left per
    seat for a card no deal rule constrains) are exactly :meth:`CrewConfig.chance_outcomes` of the
    deal so far, the plain computation (R-6.10's constrained cards first), Fractions included."""
    cfg = cos.RULES.configure(params)
    rng = random.Random(len(params) * 10 + int(params["players"]))
    for _ in range(8):
        dealt: tuple[int, ...] = ()
        while len(dealt) < cfg.deal_length:
            want = cfg.chance_outcomes(cfg.deal(dealt))
            got = cfg.deal_outcomes(dealt)
            assert got == want and all(type(p) is Fraction for _, p in got), dealt
            assert sum(p for _, p in got) == 1
            dealt += (rng.choices([a for a, _ in want], [p for _, p in want])[0],)


@settings(max_examples=30, deadline=None)
@given(
    players=st.integers(3, 5),
    asks=st.lists(st.tuples(st.integers(0, 40), st.booleans(), st.booleans()), min_size=1, max_size=12),
    seed=st.integers(0, 2**16),
)
def test_deal_outcomes_keeps_only_the_answer_for_the_same_tuple(
    players: int, asks: list[tuple[int, bool, bool]], seed: int
) -> None:
    """``deal_outcomes`` keeps its last answer with the tuple asked (the generic adapter asks
    twice a node for the same one): asked in any order, for prefixes of two deals, as tuples
    (the same object again or an equal copy) or lists, every answer is still the plain one."""
    cfg = cos.RULES.configure({"players": players})
    rng = random.Random(seed)
    deals = []
    for _ in range(2):
        dealt: tuple[int, ...] = ()
        while len(dealt) < cfg.deal_length:
            out = cfg.chance_outcomes(cfg.deal(dealt))
            dealt += (rng.choices([a for a, _ in out], [p for _, p in out])[0],)
        deals.append(dealt)
    for n, second, as_list in asks:
        prefix = deals[second][: min(n, cfg.deal_length - 1)]
        asked: Any = list(prefix) if as_list else prefix
        want = cfg.chance_outcomes(cfg.deal(prefix))
        assert cfg.deal_outcomes(asked) == want, (n, second)
        assert cfg.deal_outcomes(asked) == want  # asked again: the kept answer
        assert cfg.deal_outcomes(tuple(asked)) == want
