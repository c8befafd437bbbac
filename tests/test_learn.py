"""The learning tools (dsa_widget/adapters/learn.py): one seat against fixed bots, many games at
once, self-play, scaled observations and shaped rewards, on every game with bounds (Deep Sea
Adventure, Pig, Submarine and The Crew, whose cooperative rewards and two-player dummy seat
get tests of their own)."""

from __future__ import annotations

import random
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.adapters.learn import (
    SHAPINGS,
    ActionError,
    PolicyPlayer,
    SeatEnv,
    VectorEnv,
    normalizer,
    reward_modes,
    self_play,
)
from dsa_widget.adapters.pettingzoo import game_env
from dsa_widget.core.encoding import encoding_of, observation_bounds
from dsa_widget.core.errors import GameError
from dsa_widget.core.registry import game as game_spec

#: game, setup small enough for quick games
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("deep-sea", {"players": 3, "air": 12, "rounds": 2}),
    ("pig", {"players": 2, "goal": 60}),
    ("submarine", {"players": 2, "options": {"turn_limit": 12}}),
    ("crew", {"players": 3, "target": 2}),
]
IDS = [g for g, _ in GAMES]


def _random_action(mask: np.ndarray, rng: np.random.Generator) -> int:
    return int(rng.choice(np.flatnonzero(mask)))


def first_legal(view: Any, legal: tuple[Any, ...]) -> Any:
    """A fixed bot the reference loop can copy: always the first legal action."""
    return legal[0]


@pytest.mark.parametrize(("game", "setup"), GAMES, ids=IDS)
def test_the_learner_sees_what_the_pettingzoo_env_shows_its_seat(game: str, setup: dict[str, Any]) -> None:
    # Same seed, same moves: at every learner decision the seat env's observation and mask are
    # the plain PettingZoo environment's for that seat (raw with normalize=False, and scaled by
    # the declared bounds with normalize=True); the final reward is the environment's too.
    for seat in (0, 1):
        e = SeatEnv(game, seat=seat, opponents=first_legal, normalize=False, **setup)
        scaled = SeatEnv(game, seat=seat, opponents=first_legal, **setup)
        obs, info = e.reset(seed=11)
        obs2, _ = scaled.reset(seed=11)
        scale = normalizer(e.encoding)
        ref = game_env(game, **setup)
        ref.reset(seed=11)
        enc = ref.unwrapped.encoding
        me = f"player_{seat}"
        rng = np.random.default_rng(seat)
        decisions, reward = 0, 0.0
        for agent in ref.agent_iter():
            o, r, term, trunc, _ = ref.last()
            if term or trunc:
                if agent == me and decisions:
                    assert reward == r
                ref.step(None)
                continue
            if agent != me:
                ref.step(enc.index(first_legal(None, ref.unwrapped.game.legal_actions())))
                continue
            assert np.array_equal(o["observation"], obs)
            assert np.array_equal(o["action_mask"], info["action_mask"])
            assert np.allclose(scale(o["observation"]), obs2)
            a = _random_action(info["action_mask"], rng)
            obs, reward, *_, info = e.step(a)
            obs2, *_ = scaled.step(a)
            ref.step(a)
            decisions += 1
        # a game over before the learner's first decision is skipped (the next one is played)
        assert decisions > 0 or e.skipped >= 1


@pytest.mark.parametrize(("game", "setup"), GAMES, ids=IDS)
def test_the_mask_is_the_legal_actions_and_observations_are_the_learners_own_view(
    game: str, setup: dict[str, Any]
) -> None:
    e = SeatEnv(game, seat="random", opponents="random", normalize=False, **setup)
    rng = np.random.default_rng(5)
    obs, info = e.reset(seed=2)
    seen_seats = set()
    for _ in range(300):
        g = e.raw.game
        seat = info["seat"]
        seen_seats.add(seat)
        assert g.to_move == seat
        enc = encoding_of(g)
        # exactly the legal actions, and the seat's own view encoded (nothing else enters)
        assert info["action_mask"].tolist() == enc.mask(g.legal_actions())
        assert np.array_equal(obs, np.float32(enc.observe(g.view(seat))))
        obs, _, term, trunc, info = e.step(_random_action(info["action_mask"], rng))
        if term or trunc:
            assert not info["action_mask"].any()
            obs, info = e.reset()
    assert len(seen_seats) > 1


def test_hidden_cards_of_other_seats_never_reach_the_learner() -> None:
    # Submarine: deal every card the learner cannot see afresh (view.sample): its observation
    # stays the same, so it holds no other seat's hand or pile
    e = SeatEnv("submarine", seat=1, opponents="random", normalize=False, players=3)
    rng = np.random.default_rng(1)
    obs, info = e.reset(seed=4)
    differs = 0
    for k in range(40):
        truth = e.raw.game
        twin = truth.view(1).sample(random.Random(k))
        differs += twin.state_dict()["hands"] != truth.state_dict()["hands"]
        assert np.array_equal(obs, np.float32(e.encoding.observe(twin.view(1))))
        obs, _, term, trunc, info = e.step(_random_action(info["action_mask"], rng))
        if term or trunc:
            obs, info = e.reset()
    assert differs > 0  # the check did swap hidden cards


def test_deep_sea_hidden_values_do_not_enter_the_learners_observation() -> None:
    # reveal "owner": other seats' banked values are private; values drawn afresh for every
    # chip the learner has not seen (view.sample) leave its observation the same
    e = SeatEnv(
        "deep-sea", seat=0, opponents="baseline", normalize=False, players=3, options={"reveal": "owner"}
    )
    rng = np.random.default_rng(3)
    obs, info = e.reset(seed=9)
    for k in range(120):
        twin = e.raw.game.view(0).sample(random.Random(k))
        assert np.array_equal(obs, np.float32(e.encoding.observe(twin.view(0))))
        obs, _, term, trunc, info = e.step(_random_action(info["action_mask"], rng))
        if term or trunc:
            obs, info = e.reset()


@pytest.mark.parametrize(("game", "setup"), GAMES, ids=IDS)
def test_bad_actions_raise_a_value_error_and_change_nothing(game: str, setup: dict[str, Any]) -> None:
    e = SeatEnv(game, opponents="random", **setup)
    obs, info = e.reset(seed=3)
    illegal = int(np.flatnonzero(info["action_mask"] == 0)[0])
    spec = game_spec(game)
    before = (spec.show(e.raw.game), e.raw.game.legal_actions())
    for bad in (illegal, -1, e.num_actions, 1.5, "take", None, True):
        with pytest.raises(ActionError) as caught:
            e.step(bad)
        assert isinstance(caught.value, ValueError) and isinstance(caught.value, GameError)
    after = (spec.show(e.raw.game), e.raw.game.legal_actions())
    assert before == after
    assert np.array_equal(
        e.step(int(np.flatnonzero(info["action_mask"])[0]))[4]["action_mask"].shape, (e.num_actions,)
    )


def test_a_vector_env_refuses_a_bad_action_in_any_slot_before_moving_any() -> None:
    v = VectorEnv.make("pig", 3, opponents="random", goal=20)
    obs, info = v.reset(seed=1)
    masks = info["action_mask"]
    good = np.array([int(np.flatnonzero(m)[0]) for m in masks])
    bad = good.copy()
    bad[2] = int(np.flatnonzero(masks[2] == 0)[0])  # hold before rolling
    states = [e.raw.game.state_dict() for e in v.envs]
    with pytest.raises(ActionError) as caught:
        v.step(bad)
    assert caught.value.env == 2
    for wrong in (good[:2], good.astype(float), [[0, 0, 0]]):
        with pytest.raises(ActionError):
            v.step(wrong)
    assert states == [e.raw.game.state_dict() for e in v.envs]
    v.step(good)


@pytest.mark.parametrize(("game", "setup"), GAMES, ids=IDS)
def test_vector_env_slots_are_seat_envs_with_consecutive_seeds_and_reset_on_their_own(
    game: str, setup: dict[str, Any]
) -> None:
    n = 3
    v = VectorEnv.make(game, n, opponents="random", **setup)
    singles = [SeatEnv(game, opponents="random", **setup) for _ in range(n)]
    obs, info = v.reset(seed=20)
    ref = [s.reset(seed=20 + i) for i, s in enumerate(singles)]
    assert obs.shape == (n, v.observation_size) and obs.dtype == np.float32
    assert info["action_mask"].shape == (n, v.num_actions) and info["action_mask"].dtype == np.int8
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(200 if game != "submarine" else 60):
        for i in range(n):
            assert np.array_equal(obs[i], ref[i][0])
            assert np.array_equal(info["action_mask"][i], ref[i][1]["action_mask"])
            assert info["action_mask"][i].any()  # auto-reset: every slot always has a decision
        actions = np.array([_random_action(m, rng) for m in info["action_mask"]])
        obs, rewards, term, trunc, info = v.step(actions)
        for i, s in enumerate(singles):
            o, r, t1, t2, inf = s.step(int(actions[i]))
            assert (rewards[i], term[i], trunc[i]) == (r, t1, t2)
            if t1 or t2:
                ended += 1
                assert np.array_equal(info["final_obs"][i], o) and info["win"][i] == inf["win"]
                ref[i] = s.reset()
            else:
                assert np.isnan(info["win"][i])
                ref[i] = (o, inf)
    assert ended > 0


def test_terminal_rewards_are_the_pettingzoo_ones_and_win_reward_sums_up() -> None:
    # reward="win": the learner's rewards over a game are its share of the win
    e = SeatEnv("deep-sea", opponents="take_n:n=2", reward="win", players=2, air=15)
    rng = np.random.default_rng(0)
    obs, info = e.reset(seed=1)
    total, games = 0.0, 0
    while games < 30:
        obs, r, term, trunc, info = e.step(_random_action(info["action_mask"], rng))
        total += r
        if term or trunc:
            assert total == info["win"]
            total, games = 0.0, games + 1
            obs, info = e.reset()


@pytest.mark.parametrize("game", ["deep-sea", "pig", "submarine", "crew"])
def test_shaped_rewards_add_the_named_potential_difference_and_keep_the_terminal_reward(game: str) -> None:
    setup = dict(GAMES[IDS.index(game)][1])
    name = next(iter(SHAPINGS[game]))
    potential = SHAPINGS[game][name][0]
    plain = SeatEnv(game, opponents="random", **setup)
    shaped = SeatEnv(game, opponents="random", shaping=name, shaping_weight=0.5, **setup)
    rng = np.random.default_rng(2)
    _, info = plain.reset(seed=6)
    shaped.reset(seed=6)
    moved = False
    for _ in range(400):
        phi0 = potential(shaped.raw.game, shaped.seat)
        a = _random_action(info["action_mask"], rng)
        _, r, term, trunc, info = plain.step(a)
        _, rs, *_ = shaped.step(a)
        delta = potential(shaped.raw.game, shaped.seat) - phi0
        moved = moved or delta != 0
        assert rs == pytest.approx(r + 0.5 * delta)
        if term or trunc:
            break
    assert moved or game in ("submarine", "crew")  # The Crew's: test_crew_task_shaping_rises...


def test_unknown_shaping_opponent_and_seat_are_refused_at_once() -> None:
    with pytest.raises(ValueError, match="no shaped reward"):
        SeatEnv("pig", shaping="tasks")
    with pytest.raises(GameError):
        SeatEnv("pig", opponents="no_such_bot")
    with pytest.raises(ValueError, match="seat"):
        SeatEnv("pig", seat=2)
    with pytest.raises(ValueError, match="one per other seat"):
        SeatEnv("pig", opponents=["random", "random"])
    e = SeatEnv("pig")
    with pytest.raises(ActionError, match="reset"):
        e.step(0)


def test_self_play_fills_the_other_seats_with_the_policy_from_their_own_view() -> None:
    calls: list[tuple[int, int]] = []

    def policy(obs: np.ndarray, mask: np.ndarray) -> int:
        assert obs.shape == (20,) and ((obs >= 0) & (obs <= 1)).all()
        calls.append((int(obs[12:18].argmax()), int(mask.sum())))  # to_move slot: 0, it is their turn
        return int(np.flatnonzero(mask)[-1])

    v = self_play("pig", policy, num_envs=2, goal=15)
    obs, info = v.reset(seed=3)
    for _ in range(50):
        obs, *_, info = v.step(np.array([int(np.flatnonzero(m)[0]) for m in info["action_mask"]]))
    assert calls and all(slot == 0 for slot, _ in calls)
    snapshot = PolicyPlayer(lambda o, m: int(np.flatnonzero(m)[0]))
    v.set_opponents(snapshot)
    assert all(e.opponents == (snapshot,) for e in v.envs)


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31), seat=st.sampled_from([0, 1, "random"]), players=st.integers(2, 4))
def test_property_masks_always_match_the_legal_actions(seed: int, seat: Any, players: int) -> None:
    e = SeatEnv("deep-sea", seat=seat, opponents="baseline", players=players, air=10, rounds=1)
    rng = np.random.default_rng(seed)
    obs, info = e.reset(seed=seed)
    while True:
        g = e.raw.game
        assert info["action_mask"].tolist() == encoding_of(g).mask(g.legal_actions())
        assert ((obs >= 0) & (obs <= 1)).all()
        obs, _, term, trunc, info = e.step(_random_action(info["action_mask"], rng))
        if term or trunc:
            break


# ---------------------------------------------------------------------- The Crew


def test_crew_rewards_are_its_own_and_others_are_refused_naming_them() -> None:
    # a cooperative game has no score difference or winner between seats: the learner gets The
    # Crew's own reward (default "success": 1 when the mission succeeds, else 0; "signed": 1/-1)
    for wrong in ("score_diff", "win", "tricks"):
        with pytest.raises(ValueError, match="its rewards: success, signed"):
            SeatEnv("crew", reward=wrong)
    assert reward_modes("crew") == ("success", "signed") and reward_modes("pig") == ("score_diff", "win")
    rng = np.random.default_rng(4)
    for mode, fail in ((None, 0.0), ("signed", -1.0)):
        e = SeatEnv("crew", opponents="crewmate", reward=mode, players=3, target=1)
        _, info = e.reset(seed=8)
        outcomes = set()
        for _ in range(12):
            total, done = 0.0, False
            while not done:
                _, r, term, trunc, info = e.step(_random_action(info["action_mask"], rng))
                total += r
                done = term or trunc
            success = e.raw.game.outcome.result == "success"
            assert total == (1.0 if success else fail)
            # the win is shared among the agents: every seat of the crew wins together
            assert info["win"] == (1 / 3 if success else 0.0)
            outcomes.add(success)
            _, info = e.reset()
        assert outcomes == {True, False}


def test_crew_two_players_the_dummy_is_played_by_the_captain_and_is_no_learner_seat() -> None:
    # CREW.md: two humans add Tonoja, whom the captain plays; the learner's seats are
    # the two human ones, and on Tonoja's turns the captain (learner or bot) decides
    e = SeatEnv("crew", seat="random", opponents="crewmate", normalize=False, players=2, target=2)
    obs, info = e.reset(seed=1)
    humans = set(e.raw.game.humans)
    assert len(e.agents) == 2 and e.raw.game.dummy not in humans
    rng = np.random.default_rng(1)
    seats, acted_for_dummy = set(), False
    for _ in range(400):
        g = e.raw.game
        assert info["seat"] in humans and g.to_move == info["seat"]
        acted_for_dummy |= g.acting_for == g.dummy
        assert info["action_mask"].tolist() == e.encoding.mask(g.legal_actions())
        seats.add(info["seat"])
        obs, _, term, trunc, info = e.step(_random_action(info["action_mask"], rng))
        if term or trunc:
            obs, info = e.reset()
    assert seats == humans and acted_for_dummy
    with pytest.raises(ValueError, match="seat"):
        SeatEnv("crew", seat=2, players=2)


def test_crew_hidden_hands_reshuffled_leave_the_learners_observation_unchanged() -> None:
    # the other seats' cards dealt afresh consistently with the learner's view (view.sample):
    # its observation is the same, so no other hand reaches it
    e = SeatEnv("crew", seat=1, opponents="crewmate", normalize=False, players=4, target=3)
    rng = np.random.default_rng(2)
    obs, info = e.reset(seed=5)
    differs = 0
    for k in range(40):
        truth = e.raw.game
        twin = truth.view(1).sample(random.Random(k))
        differs += any(twin.hand(s) != truth.hand(s) for s in range(4))
        assert np.array_equal(obs, np.float32(e.encoding.observe(twin.view(1))))
        obs, _, term, trunc, info = e.step(_random_action(info["action_mask"], rng))
        if term or trunc:
            obs, info = e.reset()
    assert differs > 0


@pytest.mark.parametrize("communication", ["normal", "currents", "rapture", "terrain", "none"])
def test_crew_bounds_hold_in_every_communication_mode_at_every_player_count(communication: str) -> None:
    # scaled observations stay in [0, 1] (raw ones within the declared bounds) whatever the
    # talk rules (CREW.md 11), for 2 to 5 players, with the search bot as a crewmate
    for players in range(2, 6):
        e = SeatEnv(
            "crew",
            seat="random",
            opponents="crewmate",
            normalize=False,
            players=players,
            communication=communication,
        )
        low, high = (np.array(b, dtype=np.float32) for b in observation_bounds(e.encoding))
        rng = np.random.default_rng(players)
        obs, info = e.reset(seed=players)
        for _ in range(120):
            bad = np.flatnonzero((obs < low) | (obs > high))
            assert not bad.size, [
                f.name for f in e.encoding.layout for i in bad if f.offset <= i < f.offset + f.size
            ]
            obs, _, term, trunc, info = e.step(_random_action(info["action_mask"], rng))
            if term or trunc:
                obs, info = e.reset()


def test_crew_task_shaping_rises_when_a_task_is_done() -> None:
    # shaping="tasks": the potential is the number of tasks done, so a step in which a task is
    # completed gives +weight more than the plain reward, and no step takes it back
    e = SeatEnv("crew", opponents="crewmate", shaping="tasks", shaping_weight=0.25, players=3, target=4)
    rng = np.random.default_rng(0)
    _, info = e.reset(seed=3)
    rises = 0
    for _ in range(600):
        done_before = sum(t.status == "done" for t in e.raw.game.tasks)
        _, r, term, trunc, info = e.step(_random_action(info["action_mask"], rng))
        done_after = sum(t.status == "done" for t in e.raw.game.tasks)
        terminal = e.raw.rewards.get(f"player_{e.seat}", 0.0) if term or trunc else 0.0
        assert r == pytest.approx(terminal + 0.25 * (done_after - done_before))
        rises += done_after > done_before
        if term or trunc:
            _, info = e.reset()
    assert rises > 0


def test_crew_vector_env_and_self_play_with_the_search_bot() -> None:
    v = VectorEnv.make("crew", 2, opponents=["search", "crewmate"], players=3, target=1)
    obs, info = v.reset(seed=4)
    assert obs.shape == (2, v.observation_size) and ((obs >= 0) & (obs <= 1)).all()
    rng = np.random.default_rng(0)
    for _ in range(30):
        obs, rewards, term, trunc, info = v.step(
            np.array([_random_action(m, rng) for m in info["action_mask"]])
        )
        assert ((obs >= 0) & (obs <= 1)).all() and set(rewards.tolist()) <= {0.0, 1.0}
    seen: list[int] = []

    def policy(o: np.ndarray, mask: np.ndarray) -> int:
        seen.append(int(mask.sum()))
        return int(np.flatnonzero(mask)[0])

    sp = self_play("crew", policy, num_envs=2, players=4, target=2)
    _, info = sp.reset(seed=1)
    for _ in range(20):
        _, *_, info = sp.step(np.array([int(np.flatnonzero(m)[0]) for m in info["action_mask"]]))
    assert seen and min(seen) >= 1
