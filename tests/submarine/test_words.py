"""Submarine speaks people's words (issue 29, item 1): every prompt, action, log line, end and
score shown is a sentence, never an engine code (``T07K3``, ``K2``, ``E1``, ``5.3``, ``sail
end``), the words of a legal action tell the same payment the engine then makes, the primer
follows the rule options in force, and the words read public facts only."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from dsa_widget.submarine.rules import SubmarineGame
from dsa_widget.submarine.widget import Submarine, SubmarinePresenter
from dsa_widget.submarine.words import COLOUR_NAMES, breakdown, ending, primer

#: what an engine code looks like in a text: a tile, a shell, a colour, an end condition, a
#: space, a raw action, an option's identifier
CODE = re.compile(
    r"T\d\dK\d|SHK\d|\bK[1-5]\b|\bE[1-5]\b|\b[1-6]\.[1-4]\b|\bsail (end|\d)|\bmode (move|collect)|_"
)

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"activation_mode": "independent", "board_jokers": "collectable"},
    {"uniform_move_all": False, "payment_basis": "per_opponent", "exchange_on_arrival": True},
    {"payment_shortfall": "use_hand", "turn_limit": 30, "tie_rule": "most_cards"},
]


def texts(words: dict[str, Any], *, primer: bool = True) -> list[str]:
    out = [words["prompt"]]
    for a in words["legal"]:
        out += [a["say"], a["short"], a["group"]]
    for head, text in words["primer"] if primer else ():
        out += [head, text]
    if words["ending"]:
        out.append(words["ending"])
    for row in words["scores"] or []:
        out += [row["name"], row["text"], *row["lines"]]
    return out


def play(seed: int, players: int, options: dict[str, Any]) -> tuple[SubmarineGame, list[str]]:
    """A whole game by random choices: the words of the screen of the seat to move (and of a
    spectator) checked at every step; returns the game and its history in words."""
    g = SubmarineGame(players, seed=seed, options=options)
    rng = random.Random(seed)
    pr = SubmarinePresenter()
    labels: list[str] = []
    while True:
        viewer = g.to_move if not g.is_over else None  # the seat to move; a spectator at the end
        for t in texts(pr.words(g, g.view(viewer).to_dict()), primer=not labels or g.is_over):
            assert not CODE.search(t), t
        if g.is_over:
            return g, labels
        before, seat = g.clone(), g.to_move
        a = rng.choice(g.legal_actions())
        g.apply(a)
        labels.append(pr.label(before, g, seat, a, 0))


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5), which=st.integers(0, len(OPTION_SETS) - 1))
def test_no_engine_code_in_any_text_shown_over_random_games(seed: int, players: int, which: int) -> None:
    g, labels = play(seed, players, OPTION_SETS[which])
    for line in labels:
        assert not CODE.search(line), line
    # the end is told in words, with what scored how much
    words = SubmarinePresenter.words(g, g.view(0).to_dict())
    assert words["ending"].startswith("Game over: ")
    assert labels[-1].endswith(words["ending"])
    assert [r["score"] for r in words["scores"]] == list(g.scores)


def test_a_tables_screen_and_log_are_in_words() -> None:
    """The same on a table: the screen the board draws and the log lines it shows."""
    w = Submarine(
        players=["Ann", "Bob"], seats={0: "random", 1: "random"}, seed=5, options={"turn_limit": 25}
    )
    w.play_bots()
    assert w.game.is_over
    for t in texts(w.state["words"]) + list(w.session.labels(0)):
        assert not CODE.search(t), t
    assert w.state["words"]["scores"][0]["name"] == "Ann"


def test_every_legal_action_says_something_different_and_in_words() -> None:
    """Two buttons never read the same: each legal action's sentence names what it does."""
    for seed in range(6):
        g = SubmarineGame(3, seed=seed, options=OPTION_SETS[seed % len(OPTION_SETS)])
        rng = random.Random(seed)
        while not g.is_over:
            v = g.view(g.to_move).to_dict()
            said = SubmarinePresenter.words(g, v)["legal"]
            assert len(said) == len(g.legal_actions())
            says = [a["say"] for a in said]
            assert len(set(says)) == len(says), says
            g.apply(rng.choice(g.legal_actions()))


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10_000), players=st.integers(2, 5))
def test_a_collections_words_tell_the_payment_the_engine_makes(seed: int, players: int) -> None:
    """SUBMARINE.md §6.5: "one card per qualifying bathyscaphe", from the top of the pile, to the
    opponents in that space or above it.  The button's sentence counts those cards before the
    click; the engine's event after it pays exactly that many, to those players."""
    g = SubmarineGame(players, seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not g.is_over:
        legal = g.legal_actions()
        cards = [a for a in legal if a.startswith("collect ") and a.endswith(" card")]
        a = rng.choice(cards) if cards and rng.random() < 0.8 else rng.choice(legal)
        if a in cards:
            v = g.view(g.to_move).to_dict()
            say = SubmarinePresenter.words(g, v)["legal"][legal.index(a)]["say"]
            m = re.search(r"and (\d+) cards? from your pile \((.*)\)$", say)
            n = len(g.events)
            g.apply(a)
            paid = next(e for e in g.events[n:] if e["type"] == "collect")["paid"]
            assert (int(m.group(1)) if m else 0) == len(paid), (say, paid)
            for q in set(paid):
                assert f"{paid.count(q)} to {g.players[q]}" in say, (say, paid)
            checked += 1
        else:
            g.apply(a)
    assert checked or not any(e["type"] == "collect" for e in g.events)


def test_the_words_read_public_facts_only() -> None:
    """Hidden cards never leak (SUBMARINE.md §3): a state redealt from seat 0's view (every card
    it cannot see dealt again) gives seat 0 the same words."""
    for seed in range(5):
        g = SubmarineGame(3, seed=seed)
        rng = random.Random(seed)
        for _ in range(40):
            if g.is_over:
                break
            g.apply(rng.choice(g.legal_actions()))
        if g.is_over:
            continue
        v = g.view(0)
        other = v.sample(random.Random(seed + 99))
        assert other.pile(1) != g.pile(1) or other.hand(1) != g.hand(1)
        ours = SubmarinePresenter.words(g, v.to_dict())
        theirs = SubmarinePresenter.words(other, other.view(0).to_dict())
        assert ours == theirs


def test_the_end_conditions_in_words() -> None:
    """SUBMARINE.md §7.1: E1 all 12 types (an immediate win), E2 a column emptied, E3 no cards
    left, E4 nobody can collect again, E5 the turn limit."""
    names, scores = ["Ann", "Bob"], [12, 5]
    assert ending({"condition": "E1", "winners": [0]}, names, scores) == (
        "Game over: Ann filled all 12 slots of the collection board. Ann won with 12 treasure types."
    )
    assert ending({"condition": "E2", "winners": [1]}, names, [3, 4], column=4).startswith(
        "Game over: column 4 ran out of treasure."
    )
    assert "nobody has a search card left" in ending({"condition": "E3", "winners": [0]}, names, scores)
    assert "no treasure can ever be collected again" in ending(
        {"condition": "E4", "winners": [0]}, names, scores
    )
    assert ending({"condition": "E5", "winners": [0, 1]}, names, [4, 4], limit=8) == (
        "Game over: the turn limit of 8 turns was reached. "
        "Ann and Bob share the win with 4 treasure types each."
    )
    # a real game stopped by its turn limit says so
    w = Submarine(players=["Ann", "Bob"], seats={0: "random", 1: "random"}, seed=3, options={"turn_limit": 6})
    w.play_bots()
    assert w.game.result is not None and w.game.result[0] == "E5"
    assert "the turn limit of 6 turns was reached" in w.state["words"]["ending"]


def test_the_score_breakdown_says_what_scored_how_much() -> None:
    """SUBMARINE.md §7.2: one point per distinct treasure type; held jokers score nothing."""
    g = SubmarineGame(["Ann", "Bob", "Cy"], seed=11)
    rng = random.Random(11)
    while not g.is_over:
        g.apply(rng.choice(g.legal_actions()))
    v = g.view(None).to_dict()
    rows = breakdown(v)
    for q, row in enumerate(rows):
        points = [ln for ln in row["lines"] if ln.endswith(": 1")]
        assert len(points) == row["score"] == g.scores[q] == len(g.slots(q))
        if g.held_jokers(q):
            assert row["lines"][-1].endswith("held as jokers: 0")
        assert row["winner"] == (q in g.winners)


def test_the_primer_follows_the_options_in_force() -> None:
    base = dict(SubmarineGame(2, seed=1).options)
    text = " ".join(t for _h, t in primer(base, 5))
    assert "12 search cards" in text and "3 bathyscaphes" in text and "deck of 60" in text
    assert "one card for each opponent bathyscaphe" in text and "all the same way" in text
    other = dict(
        SubmarineGame(
            2,
            seed=1,
            options={
                "deck": "75",
                "payment_basis": "per_opponent",
                "activation_mode": "independent",
                "turn_limit": 40,
                "end_always_allowed": False,
            },
        ).options
    )
    text = " ".join(t for _h, t in primer(other, 2))
    assert "deck of 75 (15 of each colour)" in text and "15 search cards" in text
    assert "one card for each opponent with a bathyscaphe" in text
    assert "each bathyscaphe right under your submarine either moves" in text
    assert "40 turns have been played" in text and "only when no column ahead" in text
    assert len(primer(base, 3)) <= 8  # one screen


def test_the_board_names_colours_as_the_words_do() -> None:
    """js/submarine/tiles.js draws each colour's name; it is the one words.py says."""
    js = (Path(__file__).resolve().parents[2] / "js" / "submarine" / "tiles.js").read_text()
    for code, name in COLOUR_NAMES.items():
        assert re.search(rf'{code}: \{{ name: "{name}"', js), (code, name)


def test_the_first_turn_of_play_is_turn_1_whatever_the_placement_took() -> None:
    """Three players place 15 bathyscaphes first (SUBMARINE.md §4.8); the status counted those
    placements and said "(turn 15)" at the first real move.  Placing is not numbered; the first
    sail is turn 1, the next seat's turn 2."""
    w = Submarine(players=["Ann", "Bob", "Cid"], seed=1, options={"start_player": 0})
    assert w.state["words"]["turn"] == ""
    while w.state["phase"] == "place":
        w.apply(w.state["legal"][0])
    assert w.state["words"]["turn"] == "turn 1"
    first = w.state["active"]
    while w.state["active"] == first and not w.state["result"]:
        w.apply(w.state["legal"][-1])
    assert w.state["words"]["turn"] == "turn 2"


def test_the_adapters_ansi_picture_is_the_public_sea():
    # the PettingZoo environment's ansi picture of Submarine was the game's repr, one line
    # naming the phase and the turn: now the sea (every tile of every space, the bathyscaphes),
    # the ships and each player's counts, the same whatever the hidden cards are
    from dsa_widget.adapters.pettingzoo import game_env

    e = game_env("submarine", players=3, render_mode="ansi")
    e.reset(seed=2)
    g = e.unwrapped.game
    rng = random.Random(2)
    for _ in range(50):
        g.apply(rng.choice(g.legal_actions()))
    text = e.render()
    v = g.view(None).to_dict()
    rows = text.splitlines()[3:7]
    codes = [w for row in rows for w in row.split()[2:] if re.fullmatch(r"\d+[RYGBP]|s[RYGBP]", w)]
    assert len(codes) == sum(len(t) for t in v["tiles"].values())
    letters = "".join(w for row in rows for w in row.split()[2:] if re.fullmatch(r"[A-C]+", w))
    assert sorted(letters) == sorted("ABC"[q] for q, bs in enumerate(v["bathyscaphes"]) for b in bs if b)
    for q in range(3):  # what a seat cannot see, dealt afresh, changes nothing in the picture
        twin = g.view(q).sample(random.Random(q))
        assert e.unwrapped.render_text(twin) == text
