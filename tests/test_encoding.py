"""The fixed-size numbers of Deep Sea Adventure (issue 11): a stable action numbering, an
observation layout that covers the vector exactly and is documented, and observations made
of a seat's knowledge only."""

from __future__ import annotations

import random
import re
from array import array
from pathlib import Path

import pytest
from helpers import random_step
from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget import Game
from dsa_widget.core.encoding import Encoding as EncodingProtocol
from dsa_widget.core.encoding import EncodingError, encoding_of
from dsa_widget.core.protocol import CHANCE
from dsa_widget.deep_sea.encoding import Encoding

DOC = Path(__file__).resolve().parent.parent / "docs" / "AI.md"


def random_game(seed: int, players: int, turns: int) -> Game:
    rng = random.Random(seed)
    g = Game(players=players, seed=seed)
    while not g.is_over and g.turn_number < turns:
        random_step(g, rng)
    return g


def test_the_numbering_is_stable_and_the_documented_one():
    """docs/AI.md: 0 back, 1 continue, 2 none, 3 take, 4+i drop i, 4+C+i lay i, 4+2C lay all."""
    enc = encoding_of(Game(players=4, seed=1))
    assert isinstance(enc, EncodingProtocol)
    c = 32
    assert enc.num_actions == 2 * c + 5
    assert [enc.action(i) for i in range(4)] == ["back", "continue", "none", "take"]
    assert enc.action(4 + 7) == "drop 7" and enc.action(4 + c + 3) == "lay 3"
    assert enc.action(4 + 2 * c) == "lay all"
    for i in range(enc.num_actions):
        assert enc.index(enc.action(i)) == i
    short = Encoding(Game(players=2, path=[(1, 0), (2, 5), (4, 9)], seed=0))
    assert short.num_actions == 11 and short.action(10) == "lay all"


@pytest.mark.parametrize("bad", [-1, 69, 10**9, "3", 2.0, None])
def test_a_number_outside_the_range_is_refused(bad):
    enc = encoding_of(Game(players=4, seed=1))
    with pytest.raises(EncodingError):
        enc.action(bad)


@pytest.mark.parametrize("bad", ["roll", "drop 32", "lay 99", "fly", 3, None, ("drop", 1)])
def test_an_unknown_action_is_refused(bad):
    enc = encoding_of(Game(players=4, seed=1))
    with pytest.raises(EncodingError):
        enc.index(bad)


def test_the_layout_covers_the_observation_exactly():
    enc = encoding_of(Game(players=6, seed=2))
    offset = 0
    for f in enc.layout:
        assert f.offset == offset and f.size >= 1 and f.meaning
        offset += f.size
    assert offset == enc.observation_size
    assert len({f.name for f in enc.layout}) == len(enc.layout)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 6), st.integers(0, 120))
def test_every_observation_has_the_size_and_every_mask_the_legal_actions(seed, players, turns):
    g = random_game(seed, players, turns)
    enc = encoding_of(g)
    for s in range(players):
        obs = enc.observe(g.view(s))
        assert len(obs) == enc.observation_size and all(isinstance(x, float) for x in obs)
        assert obs[s] == 1.0 and sum(obs[:6]) == 1.0  # the observer's seat, one-hot
    mask = enc.mask(g.legal_actions())
    assert [enc.action(i) for i, m in enumerate(mask) if m] == sorted(g.legal_actions(), key=enc.index)


def _shuffled_twin(seed: int) -> tuple[Game, Game]:
    path = list(Game(players=3, seed=seed).setup.path)
    by_level: dict[int, list[int]] = {}
    for lv, v in path:
        by_level.setdefault(lv, []).append(v)
    rng = random.Random(seed + 1)
    for vs in by_level.values():
        rng.shuffle(vs)
    permuted = [(lv, by_level[lv].pop()) for lv, _ in path]
    assert permuted != path
    return Game(players=3, path=path, rng=5), Game(players=3, path=permuted, rng=5)


def _walk_round_one(a: Game, b: Game, check) -> int:
    """Play the twins' first round with the same random choices, calling ``check()`` before
    every step; the steps taken."""
    rng = random.Random(3)
    steps = 0
    while a.round == 1 and not a.is_over:
        check()
        if a.to_move == CHANCE:
            a.sample_chance()
            b.sample_chance()
        else:
            act = rng.choice(a.legal_actions())
            a.apply(act)
            b.apply(act)
        steps += 1
    return steps


def test_observations_hold_no_hidden_value():
    """Two games identical but for the hidden values: every seat observes the same numbers
    until a chip is banked (RULES.md: a value is hidden until its chip is banked)."""
    a, b = _shuffled_twin(7)
    enc = encoding_of(a)

    def same() -> None:
        for s in range(3):
            assert enc.observe(a.view(s)) == enc.observe(b.view(s))

    assert _walk_round_one(a, b, same) > 10


def test_the_hidden_value_check_can_fail():
    """An encoding that reads the true values (through the game) is caught by the check."""
    a, b = _shuffled_twin(7)
    enc = encoding_of(a)

    def leaky(game: Game, seat: int) -> list[float]:
        return enc.observe(game.view(seat)) + [float(sum(game.setup.path[i][1] * i for i in range(32)))]

    assert leaky(a, 0) != leaky(b, 0)


def test_a_view_of_another_setup_is_refused():
    enc = encoding_of(Game(players=2, seed=1))
    other = Game(players=2, path=[(1, 1)] * 5, seed=1)
    with pytest.raises(EncodingError, match="32 chips"):
        enc.observe(other.view(0))


def test_the_guide_documents_the_layout_the_code_has():
    """docs/AI.md's table of the observation's first fields is the code's layout."""
    full = DOC.read_text(encoding="utf-8")
    first, divers = full.index("The first fields:"), full.index("Then six diver blocks")
    spaces = full.index("space blocks of")
    row = r"^\| (\d+)(?:–(\d+))? \| `([a-z_0-9]+)` \|"
    rows = re.findall(row, full[first:divers], flags=re.M)
    enc = encoding_of(Game(players=4, seed=1))
    glob = [f for f in enc.layout if "." not in f.name]
    assert [(int(a), int(b or a), n) for a, b, n in rows] == [
        (f.offset, f.offset + f.size - 1, f.name) for f in glob
    ]
    end = full.index("\n## ", spaces)  # the next section: another game's numbers follow
    for text, prefix in ((full[divers:spaces], "diver0."), (full[spaces:end], "space1.")):
        block = [f for f in enc.layout if f.name.startswith(prefix)]
        got = [(int(a), n) for a, _, n in re.findall(row, text, flags=re.M)]
        assert got == [(f.offset - block[0].offset, f.name[len(prefix) :]) for f in block]


# ---------------------------------------------------------------------- observations kept up to date


@settings(max_examples=30, deadline=None)
@given(
    st.integers(0, 10**6),
    st.integers(2, 6),
    st.sampled_from(["public", "owner"]),
    st.sampled_from(["chosen", "pickup"]),
    st.booleans(),
)
def test_a_tracker_observes_what_the_encoding_does(seed, players, reveal, sink_order, short):
    """ObservationTracker.observe(seat) is exactly encode(view(seat)), whenever it is asked
    (every step, or after many steps: it rewrites what changed in between)."""
    rng = random.Random(seed)
    extra = {}
    if short:
        extra = {
            "path": [(rng.randint(1, 4), rng.randint(0, 15)) for _ in range(rng.randint(1, 10))],
            "air": 6,
        }
    g = Game(players=players, seed=seed, options={"reveal": reveal, "sink_order": sink_order}, **extra)
    enc = encoding_of(g)
    tracker = enc.tracker(g)  # array.array("f") buffers (float32), no numpy
    while True:
        for s in range(players):
            if rng.random() < 0.4:  # some seats look rarely: many changes at once
                assert tracker.observe(s) == array("f", enc.observe(g.view(s)))
            if rng.random() < 0.4:  # observe_list keeps lists of its own, asked at other times
                assert tracker.observe_list(s) == array("f", enc.observe(g.view(s))).tolist()
        if g.is_over:
            break
        random_step(g, rng)
    for s in range(players):
        assert tracker.observe(s) == array("f", enc.observe(g.view(s)))
        assert tracker.observe_list(s) == array("f", enc.observe(g.view(s))).tolist()


def test_trackers_of_one_encoding_share_pieces_only_where_they_agree():
    """The trackers of one encoding share the encoded pieces of what a seat knows, by the chips
    and the values known: games played side by side (other deals, other banked chips, some seats
    knowing nothing) still each observe exactly encode(view) at every step, lists and buffers."""
    enc = encoding_of(Game(players=3, seed=0))
    games = [Game(players=3, seed=seed) for seed in (11, 12, 13)]
    trackers = [enc.tracker(g) for g in games]
    rng = random.Random(5)
    while not all(g.is_over for g in games):
        for g, t in zip(games, trackers, strict=True):
            if g.is_over:
                continue
            random_step(g, rng)
            for s in range(3):
                want = array("f", enc.observe(g.view(s)))
                assert t.observe_list(s) == want.tolist() and t.observe(s) == want


def test_a_tracker_holds_no_hidden_value():
    """The twin games (the same but for the hidden values) give the same tracked observations
    until a chip is banked."""
    a, b = _shuffled_twin(7)
    enc = encoding_of(a)
    ta, tb = enc.tracker(a), enc.tracker(b)

    def same() -> None:
        for s in range(3):
            assert ta.observe(s) == tb.observe(s)
            assert ta.observe_list(s) == tb.observe_list(s)

    assert _walk_round_one(a, b, same) > 10


def test_a_tracker_is_for_its_setup():
    enc = encoding_of(Game(players=2, seed=1))
    with pytest.raises(EncodingError, match="32 chips"):
        enc.tracker(Game(players=2, path=[(1, 1)] * 5, seed=1))


# ---------------------------------------------------------------------- Submarine's numbers


def test_submarines_numbering_is_the_documented_one():
    from dsa_widget.submarine.encoding import NUM_ACTIONS, SubmarineEncoding

    enc = SubmarineEncoding()
    assert enc.num_actions == NUM_ACTIONS == 4648
    documented = {
        "place 1": 0,
        "place 6": 5,
        "sail 1": 6,
        "sail end": 12,
        "mode collect": 13,
        "mode move": 14,
        "end": 15,
        "pass": 16,
        "exchange K1": 17,
        "exchange K5": 21,
        "move 1.1 1.2": 22,  # SUBMARINE.md 6.3: a move goes one depth at most, to any column
        "move 6.4 6.3": 357,
        "collect 1.1 T01K1 card": 358,
        "collect 4.2 SHK5 card": 422,
        "collect 2.3 T01K1 joker T01K1": 423,
        "collect 6.4 T12K5 joker SHK3": 423 + 65 * 59 + 62,
        "collect 6.4 SHK5 joker SHK5": 4647,
    }
    assert {a: enc.index(a) for a in documented} == documented
    assert [enc.action(k) for k in (0, 12, 22, 357)] == [
        "place 1",
        "sail end",
        "move 1.1 1.2",
        "move 6.4 6.3",
    ]
    assert enc.action(358) == "collect T01K1 card" and enc.action(4647) == "collect SHK5 joker SHK5"
    # a collection's number is its tile and payment: the space its string names is the tile's own
    assert enc.index("collect 1.1 T03K2 card") == enc.index("collect 5.4 T03K2 card")


@pytest.mark.parametrize("bad", [-1, 4648, True, "3", 2.0, None])
def test_submarine_refuses_a_number_outside_the_range(bad):
    from dsa_widget.submarine.encoding import SubmarineEncoding

    with pytest.raises(EncodingError):
        SubmarineEncoding().action(bad)


@pytest.mark.parametrize(
    "bad",
    [
        "sail 7",
        "move 1.1 1.3",
        "move 1.1 1.1",
        "collect 7.1 T01K1 card",
        "collect 1.1 T13K1 card",
        "collect 1.1 T01K1 joker",
        "collect 1.1 T01K1 cards",
        "exchange K6",
        "place",
        3,
        None,
    ],
)
def test_submarine_refuses_an_unknown_action(bad):
    from dsa_widget.submarine.encoding import SubmarineEncoding

    with pytest.raises(EncodingError, match="not a Submarine action"):
        SubmarineEncoding().index(bad)


SUBMARINE_OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "deck": st.sampled_from(["60", "75"]),
        "activation_mode": st.sampled_from(["uniform", "independent"]),
        "uniform_move_all": st.booleans(),
        "exchange_on_arrival": st.booleans(),
        "end_always_allowed": st.booleans(),
        "payment_shortfall": st.sampled_from(["forbid", "pay_what_you_can", "use_hand"]),
        "payment_basis": st.sampled_from(["per_bathyscaphe", "per_opponent"]),
        "board_jokers": st.sampled_from(["inert", "collectable"]),
        "tie_rule": st.sampled_from(["shared", "most_held_jokers", "most_cards"]),
        "bathyscaphes_per_player": st.sampled_from(["default", "always5", "fewer"]),
        "turn_limit": st.integers(1, 5000),
    },
)


@settings(max_examples=15, deadline=None)
@given(st.integers(0, 10**6), st.integers(2, 5), SUBMARINE_OPTIONS)
def test_submarine_numbers_every_legal_action_and_observes_within_zero_and_one(seed, players, options):
    """Under any rule options: each legal action has its own number, the number leads back to
    it, and every observation float lies in [0, 1] (the documented bounds)."""
    from dsa_widget.core.encoding import legal_action
    from dsa_widget.submarine import SubmarineGame

    g = SubmarineGame(players, seed=seed, options=options)
    enc = encoding_of(g)
    rng = random.Random(seed)
    for step in range(400):
        legal = g.legal_actions()
        numbers = [enc.index(a) for a in legal]
        assert len(set(numbers)) == len(legal)
        assert [legal_action(enc, k, legal) for k in numbers] == list(legal)
        if step % 7 == 0 or g.is_over:
            for q in (None, *range(players)):
                obs = enc.observe(g.view(q))
                assert len(obs) == enc.observation_size and all(0.0 <= x <= 1.0 for x in obs)
        if g.is_over:
            break
        g.apply(rng.choice(legal))


def test_submarine_observation_is_seat_relative():
    from dsa_widget.submarine import SubmarineGame

    g = SubmarineGame(3, seed=5, options={"start_player": 1})
    enc = encoding_of(g)
    at = {f.name: f for f in enc.layout}
    g.apply("place 4")  # seat 1 places under column 4: space 4.1
    slot = at["bathyscaphes"].offset
    for seat, rel in ((1, 0), (2, 2), (0, 1)):  # seat 1 is slot 0 for itself, slot 1 for seat 0
        obs = enc.observe(g.view(seat))
        assert obs[slot + 24 * rel + 12] == pytest.approx(0.2)  # space 4.1 is index 12
        assert obs[at["seat"].offset + seat] == 1.0
        hand = obs[at["hand"].offset : at["hand"].offset + 5]
        assert sum(hand) == pytest.approx(1.0)  # three cards, each 1/3
    spectator = enc.observe(g.view(None))
    assert spectator[at["hand"].offset : at["hand"].offset + 5] == [0.0] * 5


def test_the_guide_documents_submarines_layout():
    from dsa_widget.submarine.encoding import SubmarineEncoding

    full = DOC.read_text(encoding="utf-8")
    start = full.index("### Observation", full.index("## Submarine's numbers"))
    end = full.find("\n## ", start)
    part = full[start : end if end > 0 else len(full)]
    rows = re.findall(r"^\| (\d+)(?:–(\d+))? \| `([a-z_]+)` \|", part, flags=re.M)
    assert [(int(a), int(b or a), n) for a, b, n in rows] == [
        (f.offset, f.offset + f.size - 1, f.name) for f in SubmarineEncoding().layout
    ]
