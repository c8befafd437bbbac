"""The Crew's ``planner`` bot: registered, checked knobs, one readable line a choice, deals
weighed by the partners' cards, legal and seeded.  (Its no-cheat and every-mode tests are the
bot-parameterised ones in test_bots.py; its strength is the benchmark's:
``benchmarks/bench_bots.py --game crew``.)"""

from __future__ import annotations

import re
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget.core.bots import action_words, play_bot_move
from dsa_widget.crew.bots import BOT_SUMMARIES, CrewmateBot, make_bot, parse_bot_spec
from dsa_widget.crew.bots.planner import PlannerBot
from dsa_widget.crew.rules import CrewGame

_SMALL: dict[str, Any] = {"samples": 3, "task_samples": 2, "solver_samples": 2}
# the playouts without variation (one line of the playout rule a drawn deal and card): where a
# test is about what else decides the card, not about the playouts' own noise
_PLAIN: dict[str, Any] = {"noise": 0.0, "best_of": 1}


def test_registered_with_a_summary() -> None:
    assert isinstance(make_bot("planner", seed=1), PlannerBot)
    assert "planner" in BOT_SUMMARIES and BOT_SUMMARIES["planner"]


@pytest.mark.parametrize(
    "knobs",
    [
        {"samples": 0},
        {"task_samples": True},
        {"endgame": -1},
        {"node_limit": 1.5},
        {"trust": 0},
        {"trust": 1.5},
        {"trust": "high"},
        {"doubt": 2},
        {"survival": 1},
        {"survival": -0.1},
        {"policy": "clairvoyant"},
        {"early": -2},
        {"early": 7.0},
        {"early_weight": 1.5},
        {"early_weight": True},
        {"task_survival": 1.0},
        {"task_survival": "long"},
        {"takes": 0},
        {"comm": "loud"},
        {"comm_trust": 0},
        {"comm_trust": 1.5},
        {"comm_trust": "some"},
        {"noise": -0.1},
        {"noise": 1.5},
        {"noise": "some"},
        {"best_of": 0},
        {"best_of": 2.5},
        {"branch": 1},
    ],
)
def test_bad_knobs_are_refused(knobs: dict[str, Any]) -> None:
    with pytest.raises(ValueError):
        PlannerBot(seed=1, **knobs)


def _mid_game(seed: int, tricks: int) -> CrewGame | None:
    """A 4-seat attempt played by crewmates until ``tricks`` tricks are complete and a seat with
    a choice of cards is to play (None: the attempt ended first)."""
    g = CrewGame(4, mission={"target": 3, "communication": "none"}, seed=seed, timed=True)
    mates = [CrewmateBot(seed=s) for s in range(4)]
    while not g.is_over:
        if (
            g.step == "play"
            and len(g.tricks) >= tricks
            and sum(a.startswith("play ") for a in g.legal_actions()) > 1
        ):
            return g
        play_bot_move(g, mates[g.to_move])
    return None


def _playouts_alone() -> tuple[CrewGame, dict[str, float], str, str]:
    """A 3-seat game two tricks in, the card values the planner's playouts alone give there
    (no solver), the card they rate lowest, and the card they choose."""
    g = _mid_game(3, 2)
    assert g is not None
    rolled = PlannerBot(seed=4, samples=6, node_limit=0, **_PLAIN)
    rolled(g.view(g.to_move), g.legal_actions())
    e = rolled.last_explanation
    assert e is not None
    values = e["values"]
    return g, values, min(values, key=lambda a: (values[a], a)), e["choice"]


def test_each_choice_is_one_readable_line() -> None:
    """Tasks, cards, and the crewmate's steps: ``explain()`` starts with one line naming the
    choice and why; a card choice values only legal cards."""
    g = CrewGame(4, mission={"target": 3}, seed=4, timed=True)
    bot = PlannerBot(seed=2, **_SMALL)
    kinds: set[str] = set()
    while not g.is_over:
        legal = g.legal_actions()
        a = play_bot_move(g, bot)
        e = bot.last_explanation
        assert e is not None and e["choice"] == a
        line = bot.explain().splitlines()[0]
        # the choice in the game's words, as every bot of every game says it
        said = action_words(bot.last_view, a)
        assert line.startswith(f"planner: {said} — ") and len(line) < 200
        # ... once: the reason does not say the choice again ("take task 26 — takes task 26")
        reason = line.split(" — ", 1)[1]
        assert not reason.startswith(("takes task", "passes", "plays ")), line
        if a.startswith("take"):
            assert re.match(r"\d+ of \d+ drawn deals succeed with it(; next best, .+: \d+ of \d+)?$", reason)
        if "values" in e:
            assert set(e["values"]) <= set(legal)
            kinds.add(a.split()[0])
    assert {"take", "play"} <= kinds  # both searched choices were seen


def test_partners_cards_weigh_the_deals() -> None:
    """With ``trust`` < 1 the deals on which partners' cards are not what the crewmate's rule
    would play count less (the explanation says how many); with ``trust=1`` every deal counts
    the same and nothing is weighed down."""
    weighed = differ = checked = 0
    for seed in range(8):
        g = _mid_game(seed, 3)
        if g is None:
            continue
        checked += 1
        view, legal = g.view(g.to_move), g.legal_actions()
        low = PlannerBot(seed=7, samples=8, trust=0.2)
        flat = PlannerBot(seed=7, samples=8, trust=1.0)
        low(view, legal)
        flat(view, legal)
        assert low.last_explanation is not None and flat.last_explanation is not None
        assert "weighed down" not in flat.last_explanation["reason"]
        weighed += "weighed down" in low.last_explanation["reason"]
        differ += low.last_explanation["values"] != flat.last_explanation["values"]
    assert checked >= 4 and weighed >= 1 and differ >= 1


def _after_comms(seed: int, seats: int) -> CrewGame | None:
    """An attempt of planners (few deals) at target 6 after the first trick's communications,
    before the first card (None: nobody showed a card, or it ended)."""
    g = CrewGame(seats, mission={"target": 6}, seed=seed, timed=True)
    bots = [PlannerBot(seed=s, samples=2, task_samples=2, node_limit=0) for s in range(seats)]
    while not g.is_over and not (g.step == "play" and g.view(g.to_move).communicated):
        play_bot_move(g, bots[g.to_move])
    return None if g.is_over else g


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), seats=st.sampled_from([3, 4, 5]))
def test_partners_communications_fit_the_real_deal(seed: int, seats: int) -> None:
    """Every card a planner showed (``comm="resolve"``) is the one its rule would show on the
    real deal, and every pass one it would make: replayed at its moment on the real hands, no
    communication is odd."""
    g = _after_comms(seed, seats)
    if g is None:
        return
    bot = PlannerBot(seed=1, comm_trust=0.5)
    for seat in range(seats):
        assert bot._comm_odd(g.view(seat), g, -1) == 0


def test_partners_communications_weigh_the_deals() -> None:
    """With ``comm_trust`` < 1, drawn deals on which a partner's shown card (or pass) is not
    what the resolve rule would do there count less: on some drawn deals some communication is
    odd, at most one a partner's communication window."""
    odd = checked = 0
    for seed in range(6):
        g = _after_comms(seed, 4)
        if g is None:
            continue
        me = g.to_move
        view = g.view(me)
        bot = PlannerBot(seed=3, comm_trust=0.5)
        for d in bot._draw(view, 20):
            checked += 1
            k = bot._comm_odd(view, d, me)
            windows = sum(s != me and (a == "pass" or a.startswith("comm ")) for s, a in view.public_history)
            assert 0 <= k <= windows
            odd += k > 0
            w, n_odd = bot._weight(view, d, me)
            assert n_odd >= k and w <= 0.5**k + 1e-12
    assert checked >= 40 and 0 < odd < checked


@settings(max_examples=3, deadline=None)
@given(seed=st.integers(0, 10_000), target=st.integers(1, 4), seats=st.sampled_from([2, 3, 4, 5]))
def test_legal_and_seeded(seed: int, target: int, seats: int) -> None:
    """Every action is legal (play_bot_move raises on an illegal one), and the same seeds replay
    the same attempt."""

    def run() -> list[Any]:
        g = CrewGame(seats, mission={"target": target}, seed=seed, timed=True)
        bots = [
            PlannerBot(seed=seed + s, samples=2, task_samples=1, solver_samples=1) for s in range(g.seats)
        ]
        while not g.is_over:
            play_bot_move(g, bots[g.to_move])
        return [a["action"] for a in g.history]

    assert run() == run()


def test_the_solvers_verdict_decides_the_card(monkeypatch: pytest.MonkeyPatch) -> None:
    """Perfect-information Monte Carlo: on each drawn deal the solver says whether the mission
    can still succeed after each card, and that verdict is the card's value there.  A stand-in
    solver that keeps the drawn deals winnable only after the card the playouts rate lowest
    makes the bot play that card (the verdict once went unused: the playouts alone chose)."""
    import dsa_widget.crew.bots.planner as planner_mod
    from dsa_widget.crew.bots.solver import Solution

    g, values, worst, choice = _playouts_alone()
    view, legal = g.view(g.to_move), g.legal_actions()
    assert choice != worst  # the playouts alone would not play it
    before = len(g.history)

    def stand_in(game: CrewGame, *, node_limit: int) -> Solution:
        if len(game.history) == before:  # the position itself: winnable, no line to follow
            return Solution(True, (), 1, True)
        return Solution(game.history[before]["action"] == worst, (), 1, True)

    monkeypatch.setattr(planner_mod, "solve", stand_in)
    bot = PlannerBot(seed=4, samples=6, solver_samples=6, endgame=10, **_PLAIN)
    assert bot(view, legal) == worst
    assert bot.last_explanation is not None
    assert bot.last_explanation["values"][worst] == 1.0
    assert "the solver checked 6" in bot.last_explanation["reason"]


@pytest.mark.parametrize("weight", [0.0, 0.5, 1.0])
def test_early_verdict_counts_by_early_weight(monkeypatch: pytest.MonkeyPatch, weight: float) -> None:
    """From ``early`` tricks left the solver's verdict on a drawn deal counts ``early_weight``:
    a card after which the drawn hands are lost is worth 0 there (whatever its playouts' share
    and survival), one after which they can still succeed ``early_weight`` + (1 -
    ``early_weight``) x its playouts' share; ``early_weight=1`` is the endgame's verdict.  A
    stand-in solver keeps every deal winnable only after the card the playouts rate lowest."""
    import dsa_widget.crew.bots.planner as planner_mod
    from dsa_widget.crew.bots.solver import Solution

    g, r, worst, _ = _playouts_alone()
    view, legal = g.view(g.to_move), g.legal_actions()
    before = len(g.history)
    calls = 0

    def stand_in(game: CrewGame, *, node_limit: int) -> Solution:
        nonlocal calls
        calls += 1
        if len(game.history) == before:
            return Solution(True, (), 1, True)
        return Solution(game.history[before]["action"] == worst, (), 1, True)

    monkeypatch.setattr(planner_mod, "solve", stand_in)
    # not yet `early` tricks left: the solver is not asked and the playouts decide
    left = g.tricks_total - len(g.tricks)
    off = PlannerBot(
        seed=4, samples=6, solver_samples=6, endgame=0, early=left - 1, early_weight=weight, **_PLAIN
    )
    off(view, legal)
    assert calls == 0 and off.last_explanation is not None and off.last_explanation["values"] == r
    bot = PlannerBot(
        seed=4, samples=6, solver_samples=6, endgame=0, early=left, early_weight=weight, **_PLAIN
    )
    choice = bot(view, legal)
    assert calls > 0 and bot.last_explanation is not None
    v = bot.last_explanation["values"]
    for a in v:
        want = weight + (1.0 - weight) * r[a] if a == worst else 0.0
        assert v[a] == pytest.approx(want)
    if weight > 0:
        assert choice == worst


def test_early_leaves_an_unsettled_position_to_the_playouts(monkeypatch: pytest.MonkeyPatch) -> None:
    """Before the endgame (``early``) a drawn deal whose position the solver's budget does not
    settle keeps its playouts' values, and its cards are not solved one by one (they mostly
    run out of budget too, at most of the CPU); in the endgame the cards are still solved."""
    import dsa_widget.crew.bots.planner as planner_mod
    from dsa_widget.crew.bots.solver import Solution

    g, r, worst, _ = _playouts_alone()
    view, legal = g.view(g.to_move), g.legal_actions()
    before = len(g.history)
    asked: list[int] = []

    def stand_in(game: CrewGame, *, node_limit: int) -> Solution:
        asked.append(len(game.history) - before)
        if len(game.history) == before:  # the position: the budget runs out
            return Solution(None, (), node_limit, False)
        return Solution(game.history[before]["action"] == worst, (), 1, True)

    monkeypatch.setattr(planner_mod, "solve", stand_in)
    left = g.tricks_total - len(g.tricks)
    bot = PlannerBot(seed=4, samples=6, solver_samples=6, endgame=0, early=left, early_weight=1.0, **_PLAIN)
    bot(view, legal)
    assert asked == [0] * 6  # the position of each of the 6 deals, no card
    assert bot.last_explanation is not None and bot.last_explanation["values"] == r
    asked.clear()
    end = PlannerBot(seed=4, samples=6, solver_samples=6, endgame=left)
    assert end(view, legal) == worst  # the endgame: each card solved, only `worst` keeps it
    assert asked.count(1) == 6 * len([a for a in legal if a.startswith("play ")])


def _paired_values(
    seeds: range, tricks: int, samples: int, *knobs: dict[str, Any]
) -> list[tuple[tuple[str, ...], list[dict[str, float]]]]:
    """For each mid-game position of ``seeds`` (:func:`_mid_game` after ``tricks`` tricks), the
    legal actions and the card values of one planner per ``knobs`` (the same seed, ``samples``
    deals, no solver), each bot's choice checked legal: the same deals for every bot, so the
    values differ only by what the knobs change."""
    out = []
    for seed in seeds:
        g = _mid_game(seed, tricks)
        if g is None:
            continue
        view, legal = g.view(g.to_move), g.legal_actions()
        values = []
        for k in knobs:
            bot = PlannerBot(seed=3, samples=samples, node_limit=0, **k)
            assert bot(view, legal) in legal
            assert bot.last_explanation is not None
            values.append(bot.last_explanation["values"])
            assert set(values[-1]) == set(values[0])
        out.append((legal, values))
    assert out, "no position was reached"
    return out


def test_survival_ranks_cards_whose_playouts_all_fail() -> None:
    """``survival``: a failed playout is worth ``survival`` x (tricks complete when it failed)
    / (tricks of the attempt), so a card's value rises above its success share by less than
    ``survival``, and by more where its playouts fail later; the same seed plays the same
    playouts, so only that part differs."""
    rose = 0
    for _, (v0, v1) in _paired_values(range(6), 2, 6, {"survival": 0.0}, {"survival": 0.2}):
        for a in v0:
            assert 0.0 <= v1[a] - v0[a] < 0.2 + 1e-9
            rose += v1[a] > v0[a]
    assert rose >= 1


def test_sighted_policy_reaches_the_rollouts() -> None:
    """``policy="sighted"``: the same deals (same seed), the playouts with the card rule that
    reads the drawn hands, so the values differ from the crewmate's rule's somewhere; each is a
    share of playouts plus the survival part, so within [0, 1]."""
    assert PlannerBot.KNOBS["policy"] == "sighted"  # the default
    differ = 0
    for _, (v0, v1) in _paired_values(range(6), 1, 6, {"policy": "greedy"}, {}):
        assert all(0.0 <= v <= 1.0 for v in v1.values())
        differ += v0 != v1
    assert differ >= 1


def test_best_of_keeps_a_deal_made_when_one_noisy_playout_makes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """``best_of``: a drawn deal counts as made after a card when one of its playouts makes
    it.  In Python (a position the kernel cannot play) the first playout of a deal and card is
    the one ``best_of=1`` plays with the same ``noise`` (the same deals, the same numbers), so
    no card's value falls and some rise."""
    from dsa_widget.crew import kernel

    monkeypatch.setattr(kernel, "game_position", lambda game: None)
    rose = 0
    for _, (v0, v1) in _paired_values(
        range(4), 1, 4, {"noise": 0.1, "best_of": 1}, {"noise": 0.1, "best_of": 3}
    ):
        for a in v0:
            assert v0[a] - 1e-9 <= v1[a] <= 1.0
            rose += v1[a] > v0[a] + 1e-9
    assert rose >= 1


def test_python_playouts_cap_best_of(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where the kernel cannot play the position (the dummy seat, mission constraints) the
    playouts run in Python, at most ``_PY_BEST_OF`` (2) a drawn deal and card, so that a
    decision there stays under a second: the default's sixteen give the values two give."""
    from dsa_widget.crew import kernel
    from dsa_widget.crew.bots import planner

    monkeypatch.setattr(kernel, "game_position", lambda game: None)
    assert planner._PY_BEST_OF == 2 and PlannerBot.KNOBS["best_of"] > 2
    for _, (v16, v2) in _paired_values(range(3), 1, 4, {}, {"best_of": 2}):
        assert v16 == v2


def test_branch_keeps_a_deal_made_when_a_second_choice_makes_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """``branch``: each seat after the planner in the trick may play its second choice; the
    first combination is the plain playout (the same numbers), so on the kernel and in Python
    (a position the kernel cannot play) no card's value falls, and the planner still plays a
    legal card."""
    from dsa_widget.crew import kernel

    # on the kernel its numbers run on across the cards: only legal choices are checked there
    _paired_values(range(3), 1, 4, _PLAIN, {"branch": True, **_PLAIN})
    monkeypatch.setattr(kernel, "game_position", lambda game: None)
    for _, (v0, v1) in _paired_values(range(3), 1, 4, _PLAIN, {"branch": True, **_PLAIN}):
        for a in v0:
            assert v0[a] - 1e-9 <= v1[a] <= 1.0


def _at_first_take(seed: int, target: int = 6) -> CrewGame:
    """A 4-seat attempt (target 6 unless said) at its first ``take`` (the captain's)."""
    g = CrewGame(4, mission={"target": target}, seed=seed, timed=True)
    mate = CrewmateBot(seed=1)
    while g.step != "assign":
        play_bot_move(g, mate)
    return g


def test_task_survival_ranks_tasks_whose_playouts_fail() -> None:
    """``task_survival``: in the task choice a failed playout is worth ``task_survival`` x the
    tricks it lasted / the tricks of the attempt, so each candidate's value rises above its
    share of successes by less than ``task_survival`` (the same seed plays the same playouts),
    and a candidate that never succeeds can still outrank another."""
    rose = 0
    for seed in range(3):
        g = _at_first_take(seed)
        view, legal = g.view(g.to_move), g.legal_actions()
        plain = PlannerBot(seed=3, task_samples=6)
        graded = PlannerBot(seed=3, task_samples=6, task_survival=0.5)
        plain(view, legal)
        graded(view, legal)
        assert plain.last_explanation is not None and graded.last_explanation is not None
        v0, v1 = plain.last_explanation["values"], graded.last_explanation["values"]
        assert set(v0) == set(v1) and len(v0) >= 2
        for a in v0:
            assert 0.0 <= v1[a] - v0[a] < 0.5 + 1e-9
            rose += v1[a] > v0[a]
        assert graded.last_explanation["choice"] == max(v1, key=lambda a: v1[a])
    assert rose >= 1


def test_takes_bounds_the_candidates() -> None:
    """``takes``: the task choice tries at most that many tasks (and ``pass`` where legal); a
    target-18 mission puts 8 tasks on the table, so the default 4 and 6 bind too."""
    g = _at_first_take(0, target=18)
    view, legal = g.view(g.to_move), g.legal_actions()
    assert len([a for a in legal if a.startswith("take ")]) == 8
    assert "pass" not in legal
    for k in (2, 4, 6):
        bot = PlannerBot(seed=3, task_samples=2, takes=k)
        bot(view, legal)
        e = bot.last_explanation
        assert e is not None and "values" in e
        assert len([a for a in e["values"] if a.startswith("take ")]) == k
    # one candidate and no pass: nothing to compare, the crewmate's best fit is taken untried
    one = PlannerBot(seed=3, task_samples=2, takes=1)
    choice = one(view, legal)
    assert one.last_explanation is not None and "values" not in one.last_explanation
    assert choice == CrewmateBot(seed=3)(view, legal)


_DEAL = [
    ["P9", "P8", "S4", "S1", "Y1", "Y2", "Y3", "B1", "B2", "B3"],
    ["Y4", "Y5", "Y6", "Y7", "B4", "B5", "B6", "G1", "G2", "G3"],
    ["P3", "Y8", "Y9", "B7", "B8", "B9", "G4", "G5", "G6", "S2"],
    ["P1", "P2", "P4", "P5", "P6", "P7", "G7", "G8", "G9", "S3"],
]


@pytest.mark.parametrize("options", [{}, {"token_position": "any_true"}])
def test_resolve_shows_the_card_that_settles_a_task(options: dict[str, Any]) -> None:
    """``comm="resolve"``: task 1 asks the captain (seat 0, holding S4) to win pink 3, which seat 2
    holds alone.  Showing it (R-11.4: its only card of the colour, the token in the middle)
    tells every partner who holds the task's card: seat 2 shows it, the true position only.
    Seat 1 holds no pink card, so nothing it could show settles anything about the task: it
    passes.  Seat 0 shows P8, its lowest pink (the token at the bottom: it holds none of P4-P7,
    the cards that could take P3), not P9 (the top: nothing above it to settle), which the
    crewmate's rule would show; seat 3, whose top pink P7 would settle only P9 once P8 is
    shown, passes where the crewmate's rule shows P7."""
    g = CrewGame(4, mission={"fixed_tasks": [1]}, deal=_DEAL, deal_check=False, options=options, timed=True)
    mate = CrewmateBot(seed=1, communicate=False)
    while g.step != "communicate":
        play_bot_move(g, mate)
    assert g.tasks[0].owner == 0
    chosen = {}
    while g.step == "communicate" and len(chosen) < 4:
        s = g.to_move
        bot = PlannerBot(seed=2, comm="resolve", samples=2, task_samples=2)
        chosen[s] = bot(g.view(s), g.legal_actions())
        play_bot_move(g, mate)
    assert chosen[2] in ("comm P3", "comm P3 middle")
    assert chosen[1] == "pass"
    assert chosen[0] in ("comm P8", "comm P8 bottom")
    assert chosen[3] == "pass"


def test_resolve_under_currents_counts_only_the_card_shown() -> None:
    """Under currents the token tells partners only "no higher" or "no lower" (R-11.9), not
    which: seat 0's P8 no longer settles P4-P7, and worth half a card alone (a card that could
    take P3) it is not shown; seat 2's P3, the task's own card, still is."""
    mission = {"fixed_tasks": [1], "communication": "currents"}
    g = CrewGame(4, mission=mission, deal=_DEAL, deal_check=False, timed=True)
    mate = CrewmateBot(seed=1, communicate=False)
    while g.step != "communicate":
        play_bot_move(g, mate)
    chosen = {}
    while g.step == "communicate" and len(chosen) < 4:
        s = g.to_move
        chosen[s] = PlannerBot(seed=2, comm="resolve", samples=2, task_samples=2)(
            g.view(s), g.legal_actions()
        )
        play_bot_move(g, mate)
    assert chosen == {0: "pass", 1: "pass", 2: "comm P3", 3: "pass"}


def test_comm_silent_never_shows_a_card() -> None:
    """``comm="silent"`` (a yardstick): the seat that could show the task's card passes too."""
    g = CrewGame(4, mission={"fixed_tasks": [1]}, deal=_DEAL, deal_check=False, timed=True)
    mate = CrewmateBot(seed=1, communicate=False)
    while not (g.step == "communicate" and g.to_move == 2):
        play_bot_move(g, mate)
    assert "comm P3" in g.legal_actions()
    # as a spec string too (the benchmarks' form; a value "none" would be read as None)
    silent = parse_bot_spec("planner:comm=silent,samples=2", seed=2)
    assert silent(g.view(2), g.legal_actions()) == "pass"
    assert CrewmateBot(seed=2)(g.view(2), g.legal_actions()) == "comm P3"
