"""The static SVG of a bare Game (``Game._repr_svg_``)."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from dsa_widget import Game
from dsa_widget.deep_sea.render import game_svg

NS = "{http://www.w3.org/2000/svg}"
HOSTILE = "<img src=x onerror=alert(1)>"


def values_drawn(svg: str) -> list[str]:
    """The numbers written on chips (chip values are drawn as <text> inside a chip polygon)."""
    root = ET.fromstring(svg)
    return [t.text for t in root.iter(f"{NS}text") if t.get("font-size") == "11" and t.text is not None]


def play(g: Game, n: int, seed: int = 0) -> Game:
    rng = random.Random(seed)
    for _ in range(n):
        if g.is_over:
            break
        g.apply(rng.choice(g.legal_choices()))
    return g


def test_svg_is_well_formed_and_shows_the_board():
    g = Game(players=["Ann", "Bob", "Cy"], seed=1)
    svg = g._repr_svg_()
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    # one space group per path space: 32 background circles of radius 19
    assert sum(1 for c in root.iter(f"{NS}circle") if c.get("r") == "19") == 32
    assert "Round 1/3" in svg and "Ann: roll the dice" in svg and "air 25 / 25" in svg
    # the space numbers the hints and the log speak of (issue 29: the picture is the board's look)
    numbers = {t.text for t in root.iter(f"{NS}text") if t.get("font-size") == "8"}
    assert {str(i) for i in range(1, 33)} <= numbers


def test_no_unbanked_value_is_drawn():
    g = Game(players=2, path=[(4, 15), (4, 14), (3, 11)], seed=1)
    g.roll((1, 1))
    g.apply("take")
    svg = game_svg(g)
    assert values_drawn(svg) == []
    assert sorted(values_drawn(game_svg(g, reveal_all=True))) == [
        "11",
        "15",
    ]  # the path's chips (14 is carried)


def test_scores_follow_the_reveal_option():
    checked = 0
    for seed in range(40):
        for reveal in ("public", "owner"):
            g = Game(players=["Ann", "Bob"], seed=seed, options={"reveal": reveal})
            rng = random.Random(seed)
            while not g.is_over and g.round == 1:
                g.apply(rng.choice(g.legal_choices()))
            if g.is_over or not g.banked(0):
                continue
            svg = game_svg(g)
            line = f"Ann: {g.scores[0]} points" if reveal == "public" else "Ann: ? points"
            assert line in svg, (reveal, svg)
            checked += 1
    assert checked > 5


def test_names_are_escaped():
    g = Game(players=[HOSTILE, 'A & "B"'], seed=1)
    svg = g._repr_svg_()
    ET.fromstring(svg)  # still well-formed XML
    assert HOSTILE not in svg and "<img" not in svg
    assert "&lt;img src=x onerror=alert(1)&gt;" in svg and "A &amp; " in svg


def test_game_over_picture():
    g = play(Game(players=["Ann", "Bob"], seed=3), 10_000, 3)
    svg = game_svg(g)
    ET.fromstring(svg)
    assert "Game over" in svg and "points" in svg
