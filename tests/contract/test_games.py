"""The contract every registered game keeps, run once per game of the game registry.

Nothing here names a game: a game joins these tests by registering
(``dsa_widget/<folder>/registration.py``).  Setups are drawn from the game's own schema (its
seat range, its setup keywords and its rule options), move lists by hypothesis, so a failure
shrinks to a short game.

* the registry entry resolves, and every bot it names plays a legal move;
* states speak the protocol (:mod:`dsa_widget.core.protocol`): who moves, legal actions,
  chance outcomes that sum to exactly 1, clones independent of their originals;
* a view holds no hidden information: a state drawn from seat ``q``'s view shows seat ``q``
  the very same view;
* an illegal action raises the core :class:`~dsa_widget.core.errors.IllegalActionError` (a
  ``ValueError``) and changes nothing;
* records round-trip through JSON at every turn boundary, and a hostile record is refused
  with a :class:`~dsa_widget.core.errors.GameError`, never another exception.
"""

from __future__ import annotations

import copy
import json
import pickle
import random
import subprocess
import sys
from fractions import Fraction
from typing import Any

import pytest
from helpers import play_choices, random_step
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from dsa_widget.core import CHANCE, TERMINAL, GameState, GameView, errors
from dsa_widget.core.errors import GameError, IllegalActionError
from dsa_widget.core.records import formats, replay
from dsa_widget.core.registry import GameSpec, games

GAMES = games()
IDS = [g.name for g in GAMES]
#: at most this many actions a drawn game plays (some games run long under random play)
MAX_STEPS = 150


def new_game(spec: GameSpec, seed: int) -> Any:
    """A game of ``spec`` from a setup drawn with ``seed``: seats in range, setup keywords near
    their defaults, each rule option drawn from its choices.  Draws the rules refuse (a
    combination of options no table uses) are skipped."""
    r = random.Random(seed)
    lo, hi = spec.seats
    setup: dict[str, Any] = {"players": r.randint(lo, min(hi, lo + 3)), "seed": seed}
    for opt in spec.setup_schema():
        if opt.choices:
            setup[opt.key] = r.choice(opt.choices)[0] if r.random() < 0.3 else opt.default
        elif opt.default is not None:
            lo_v = opt.minimum if opt.minimum is not None else opt.default
            setup[opt.key] = r.randint(max(lo_v, 1), max(opt.default, 1)) if r.random() < 0.5 else opt.default
    options = {o.key: r.choice(o.choices)[0] for o in spec.option_schema() if o.choices and r.random() < 0.3}
    if options:
        setup["options"] = options
    try:
        return spec.new_game(**setup)
    except GameError:
        assume(False)


def play(g: Any, moves: list[int]) -> Any:
    """Play the drawn move list (each an index into the legal actions or chance outcomes)."""
    return play_choices(g, moves, MAX_STEPS)


def snapshot(g: Any) -> str:
    """Everything public about a state, and its record: equal snapshots, equal states."""
    views = [g.view(q).to_dict() for q in range(len(g.players))]
    return json.dumps([views, g.to_move, g.turn_number, g.to_record()], sort_keys=True, default=str)


moves = st.lists(st.integers(0, 1000), max_size=MAX_STEPS)
seeds = st.integers(0, 10**6)
SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])


# ---------------------------------------------------------------------- the registry entry


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_the_registry_entry_resolves(spec: GameSpec) -> None:
    assert spec.state_class() is not None and spec.view_class() is not None
    assert formats()[spec.record_format] is spec
    bots = spec.bot_registry()
    assert spec.default_bot in bots.names and set(bots.summaries) == set(bots.names)
    lo, hi = spec.seats
    assert 1 <= lo <= spec.default_players <= hi
    for opt in (*spec.setup_schema(), *spec.option_schema()):
        assert opt.label and opt.label[0].isupper(), opt  # words for people, not identifiers
        json.dumps(opt.to_dict())
        if opt.choices:
            assert opt.default in [v for v, _ in opt.choices], opt
    g = spec.new_game(players=spec.default_players, seed=1)
    state: GameState = g
    view: GameView = g.view(0)
    assert isinstance(state, GameState) and isinstance(view, GameView)


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_the_bot_registry_is_the_games_and_refuses_unknown_bots_and_knobs(spec: GameSpec) -> None:
    from dsa_widget.core.bots import UnknownBotError
    from dsa_widget.core.registry import game_of

    reg = spec.bot_registry()
    assert game_of(spec.state_class()).bot_registry() is reg  # through the game class
    with pytest.raises(UnknownBotError):
        reg.make_bot("captain_nemo")
    for name in reg.names:
        with pytest.raises(UnknownBotError):
            reg.make_bot(name, bravery=3)


def test_the_command_line_lists_every_game() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "dsa_widget", "games"], capture_output=True, text=True, check=True
    ).stdout.splitlines()
    assert [line.split()[0] for line in out] == IDS
    assert all(spec.record_format in line for spec, line in zip(GAMES, out, strict=True))


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_every_bot_plays_a_legal_move(spec: GameSpec) -> None:
    from dsa_widget.core.bots import play_bot_move

    reg = spec.bot_registry()
    for k, name in enumerate(reg.names):
        g = spec.new_game(players=spec.default_players, seed=k)
        rng = random.Random(k)
        while g.to_move == CHANCE:
            g.sample_chance()
        if g.is_over:
            continue
        legal = g.legal_actions()
        bot = reg.make_bot(name, seed=k)
        choice = bot(g.view(g.to_move), legal)
        assert choice in legal, (name, choice)
        play_bot_move(g, name, rng=rng)  # by name, through the registry


# ---------------------------------------------------------------------- the protocol


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
@SETTINGS
@given(seed=seeds, choices=moves)
def test_states_speak_the_protocol(spec: GameSpec, seed: int, choices: list[int]) -> None:
    g = new_game(spec, seed)
    n = len(g.players)
    for k in choices[:MAX_STEPS]:
        t = g.to_move
        assert g.is_over == (t == TERMINAL)
        if t == TERMINAL:
            assert g.legal_actions() == () and g.current_player is None
            assert set(g.winners) <= set(range(n)) and len(g.returns()) == n
            break
        if t == CHANCE:
            outcomes = g.chance_outcomes()
            assert outcomes and sum((p for _, p in outcomes), Fraction(0)) == 1
            assert all(p > 0 for _, p in outcomes)
            g.apply_chance(outcomes[k % len(outcomes)][0])
            continue
        assert 0 <= t < n and g.current_player == t
        legal = g.legal_actions()
        assert legal and tuple(g.view(t).legal) == tuple(legal)
        g.apply(legal[k % len(legal)])
    assert len(g.scores) == n


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
@SETTINGS
@given(seed=seeds, choices=moves, more=moves)
def test_clones_are_independent(spec: GameSpec, seed: int, choices: list[int], more: list[int]) -> None:
    g = play(new_game(spec, seed), choices)
    before = snapshot(g)
    c = g.clone()
    assert snapshot(c) == before
    play(c, more)
    assert snapshot(g) == before


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
@SETTINGS
@given(seed=seeds, choices=moves, sample=st.integers(0, 2**32))
def test_views_hold_no_hidden_information(spec: GameSpec, seed: int, choices: list[int], sample: int) -> None:
    """A state drawn from what seat ``q`` knows (its hidden information re-drawn) shows ``q``
    the same view: so the view depends on nothing ``q`` may not know."""
    g = play(new_game(spec, seed), choices)
    for q in range(len(g.players)):
        view = g.view(q)
        drawn = view.sample(random.Random(sample + q))
        assert drawn.view(q).to_dict() == view.to_dict()
        assert drawn.to_move == g.to_move
        if q == g.to_move:  # another seat's legal actions may depend on its hidden hand
            assert drawn.legal_actions() == g.legal_actions()


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
@SETTINGS
@given(seed=seeds, choices=moves)
def test_illegal_actions_change_nothing(spec: GameSpec, seed: int, choices: list[int]) -> None:
    g = play(new_game(spec, seed), choices)
    if g.to_move < 0:
        return
    before = snapshot(g)
    legal = g.legal_actions()
    for junk in ("fly away", "", "x" * 10_000, 7, None, True, 2.5, ["roll"], {"a": 1}):
        if junk in legal:
            continue
        with pytest.raises(IllegalActionError) as caught:
            g.apply(junk)
        assert isinstance(caught.value, ValueError) and str(caught.value)
        assert len(str(caught.value)) < 400  # a sentence, not the input echoed back
        assert snapshot(g) == before


# ---------------------------------------------------------------------- records


def to_boundary(g: Any, rng: random.Random) -> Any:
    """Play on until the state is at a turn boundary (what a record replays to)."""
    for _ in range(10 * MAX_STEPS):
        if g.at_turn_boundary or g.is_over:
            return g
        random_step(g, rng)
    pytest.fail("no turn boundary within the bound")


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
@SETTINGS
@given(seed=seeds, choices=moves)
def test_records_round_trip(spec: GameSpec, seed: int, choices: list[int]) -> None:
    g = to_boundary(play(new_game(spec, seed), choices), random.Random(seed))
    record = json.loads(json.dumps(g.to_record()))
    assert record["format"] == spec.record_format
    back = spec.from_record(record)
    assert snapshot(back) == snapshot(g)
    assert replay(record) == json.loads(json.dumps(spec.show(g)))


def _mutations(record: Any, rng: random.Random) -> Any:
    """``record`` with one part replaced by something of the wrong kind, or removed."""
    doc = copy.deepcopy(record)
    paths: list[tuple[Any, Any]] = []

    def walk(x: Any) -> None:
        if isinstance(x, dict):
            for k, v in x.items():
                paths.append((x, k))
                walk(v)
        elif isinstance(x, list):
            for i, v in enumerate(x):
                paths.append((x, i))
                walk(v)

    walk(doc)
    where, key = rng.choice(paths)
    junk = rng.choice([None, True, -1, 2**70, 1.5, "", "zz" * 50, [], {}, [[[[]]]], {"x": None}, "NaN"])
    if isinstance(where, dict) and rng.random() < 0.3:
        del where[key]
    else:
        where[key] = junk
    return doc


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(seed=seeds, choices=moves, mutation=st.integers(0, 2**32))
def test_hostile_records_are_refused_cleanly(
    spec: GameSpec, seed: int, choices: list[int], mutation: int
) -> None:
    g = to_boundary(play(new_game(spec, seed), choices), random.Random(seed))
    doc = _mutations(json.loads(json.dumps(g.to_record())), random.Random(mutation))
    try:
        replay(doc)
    except GameError as e:
        assert str(e) and len(str(e)) < 600
    text = json.dumps(doc)
    for cut in (len(text) // 2, len(text) - 1):
        with pytest.raises(GameError):
            replay(text[:cut])


def test_the_old_name_of_an_illegal_action_warns() -> None:
    import dsa_widget
    import dsa_widget.deep_sea as ds

    with pytest.warns(DeprecationWarning, match="IllegalActionError"):
        old = dsa_widget.IllegalChoiceError
    with pytest.warns(DeprecationWarning):
        assert ds.IllegalChoiceError is old is ds.IllegalActionError
    assert issubclass(old, IllegalActionError)


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_every_package_exports_the_same_names(spec: GameSpec) -> None:
    import importlib

    pkg = importlib.import_module(f"dsa_widget.{spec.folder}")
    assert pkg.Game is spec.state_class() and pkg.View is spec.view_class()
    assert issubclass(pkg.IllegalActionError, IllegalActionError)
    # one family of errors with the same fields in every game: the platform reads them once
    assert issubclass(pkg.SetupError, errors.SetupError) and issubclass(pkg.RecordError, errors.RecordError)
    if spec.widget is not None:
        assert getattr(pkg, spec.widget_class().__name__) is spec.widget_class()


# ---------------------------------------------------------------------- the served table


def _raising_bot(view: Any, legal: tuple[Any, ...]) -> Any:
    raise RuntimeError("the hidden card is QZX-SECRET")  # its text must never reach a screen


def _illegal_bot(view: Any, legal: tuple[Any, ...]) -> Any:
    return "fly away"


@pytest.mark.parametrize("spec", [g for g in GAMES if g.table is not None], ids=lambda g: g.name)
@pytest.mark.parametrize("bot", [_raising_bot, _illegal_bot], ids=["raises", "illegal"])
def test_a_failing_bot_pauses_the_served_table_and_every_screen_says_why(spec: GameSpec, bot: Any) -> None:
    """One policy for every game: the table pauses, nothing is played for the bot, every screen
    says why (never the bot's own words), and a person given the seat lets the game go on."""
    from dsa_widget.server import make_table

    lo, _ = spec.seats
    table = make_table(game=spec, players=lo, seed=2, seats=dict.fromkeys(range(lo), bot), started=True)
    before = json.dumps(table.game.to_record(), sort_keys=True, default=str)
    table.run_bots(max_choices=20)  # never raises, never loops
    assert table.paused and table.problem and "could not move" in table.problem
    shown = json.dumps(table.screen(None).parts)
    assert "could not move" in shown or table.game.game.is_over
    assert "QZX-SECRET" not in shown and "fly away" not in shown
    # nothing was played for the failing bot (a game whose first step is chance may have drawn it)
    if spec.name != "pig":
        assert json.dumps(table.game.to_record(), sort_keys=True, default=str) == before
    table.game.set_seat(table.game.to_move, "human")  # the host gives the seat to a person
    table.pause(False)
    assert table.problem is None and not table.paused and not table.game.bot_due()


@pytest.mark.parametrize("spec", [g for g in GAMES if g.table is not None], ids=lambda g: g.name)
@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_a_served_table_resumes_where_it_stood_even_mid_turn(
    spec: GameSpec, seed: int, tmp_path: Any
) -> None:
    """What the server writes after every step (the record of the finished turns, and the turn
    under way beside it, chance outcomes included) gives back the very same game: every seat
    sees what it saw, mid-turn too."""
    from dsa_widget.server import make_table

    lo, _ = spec.seats
    path = tmp_path / "table.json"
    table = make_table(game=spec, players=lo, seed=seed, seats=["random"] * lo, started=True, record=path)
    steps = random.Random(seed).randint(3, 40)
    table.run_bots(max_choices=steps)
    for _ in range(3 if seed % 2 else 0):  # half the cases: stop within a turn, where a game has one
        if table.game.at_turn_boundary and not table.game.is_over:
            table.run_bots(max_choices=1)
    before = [table.game.game.view(q).to_dict() for q in range(len(table.players))]
    mid_turn = not table.game.at_turn_boundary
    again = make_table(resume=path)
    assert [again.game.game.view(q).to_dict() for q in range(len(again.players))] == before, mid_turn


@pytest.mark.parametrize("spec", GAMES, ids=IDS)
def test_a_setup_key_the_game_does_not_take_is_a_game_error_naming_the_keys(spec: GameSpec) -> None:
    """``spec.new_game(**setup)`` (what a served table, a board's New game, ``game_env`` and a
    tournament build games with) refuses an unknown key with a ``GameError`` naming it and the
    keys there are: The Crew, Submarine and Pig raised Python's ``TypeError`` ('unexpected keyword
    argument'), Deep Sea its own SetupError.  It is the platform's ``SetupError`` with the key as
    its ``field``, as each game's own setup errors are."""
    with pytest.raises(errors.SetupError, match=r"setup key 'nonsense': unknown.*\bseed\b") as e:
        spec.new_game(players=spec.seats[0], nonsense=1)
    assert e.value.field == "nonsense"
    with pytest.raises(errors.SetupError) as e:
        spec.new_game(players=spec.seats[1] + 1)
    assert e.value.field == "players", (type(e.value), e.value)
    # a tournament's worker process sends its errors back pickled: each comes back whole
    back = pickle.loads(pickle.dumps(e.value))
    assert (type(back), str(back), back.field) == (type(e.value), str(e.value), "players")
    assert spec.new_game(players=spec.seats[0], seed=1) is not None


def test_a_game_without_a_presenter_is_not_served_as_a_blank_page():
    """``GameSpec.table`` defaults to the platform's SessionTable, which draws a game through
    its presenter: a game half added (no presenter yet) has no seat server, and serving it says
    so instead of handing out pages with no board."""
    import dataclasses

    from dsa_widget.core import registry as reg
    from dsa_widget.server import make_table

    spec = dataclasses.replace(reg.game("pig"), presenter=None)
    assert spec.table_class() is None
    assert reg.game("pig").table_class() is not None
    with pytest.raises(ValueError, match="cannot be served yet"):
        make_table(game=spec)
