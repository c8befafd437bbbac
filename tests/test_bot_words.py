"""What Deep Sea's bots say of their choices (issue 29, item 4): only the reason that applied,
so every comparison an explanation states holds, and the choices in words, never as engine codes
('none', 'lay all', 'drop 0')."""

from __future__ import annotations

import random
import re

from dsa_widget import Game
from dsa_widget.deep_sea.bots import BOT_NAMES, make_bot

CHEAP = {"mc": {"playouts": 3}, "ismcts": {"playouts": 8}}
#: "air 25 < 23", "carrying 3 ≥ 3", "air 12 > ≈9.6": a number, a comparison, a number (not the
#: first factor of a product such as "2 × distance home 5")
COMPARISON = re.compile(r"(\d+(?:\.\d+)?) ([<>≤≥]) ≈?(\d+(?:\.\d+)?)(?! ×)")
HOLDS = {"<": float.__lt__, ">": float.__gt__, "≤": float.__le__, "≥": float.__ge__}
CODES = r"(?:none|take|back|continue|roll|lay all|lay \d+|drop \d+)"
CODE = re.compile(rf"'{CODES}'")


def _explanations(seed: int) -> list[str]:
    """Every explanation of every bot in a game where each seat's choices are the bot's own
    (chips laid in a chosen order at the sink step, so the lay choices are explained too)."""
    rng = random.Random(seed)
    names = [n for n in BOT_NAMES if n != "random"] + ["random"]
    seats = rng.sample(names, 3)
    bots = [make_bot(n, seed=seed, **CHEAP.get(n, {})) for n in seats]
    g = Game(players=3, seed=seed, options={"sink_order": "chosen"})
    said = []
    while not g.is_over:
        legal = g.legal_choices()
        if legal == ("roll",):
            g.apply("roll")
            continue
        bot = bots[g.current_player]
        g.apply(bot(g.view(g.current_player), legal))
        said.append(bot.explain())
    return said


def test_an_explanation_states_only_comparisons_that_hold_and_no_choice_codes() -> None:
    seen = 0
    for seed in range(8):
        for text in _explanations(seed):
            seen += 1
            for a, op, b in COMPARISON.findall(text):
                assert HOLDS[op](float(a), float(b)), text
            assert not CODE.search(text), text
            first, *values = text.split("\n")
            said = [first.split(": ", 1)[1].split(" — ")[0]] + [v.split(" value ")[0].strip() for v in values]
            assert not any(re.fullmatch(CODES, c) for c in said), text
    assert seen > 100


def test_the_baseline_says_which_of_its_two_reasons_made_it_take() -> None:
    """The baseline takes its first chip when the air is under 23 *or* it is past the middle of
    the path: a take with the air at 25 gives the middle as its reason, not "25 < 23"."""
    g = Game(players=2, seed=1, air=25)
    g.roll((3, 3))
    g.apply("continue") if "continue" in g.legal_choices() else None
    bot = make_bot("baseline", middle=0.0)
    choice = bot(g.view(0), g.legal_choices())
    assert choice == "take"
    assert bot.explain() == "baseline: take the chips here — past the middle of the path: take one"
