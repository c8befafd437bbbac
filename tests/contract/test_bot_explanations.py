"""Every registered bot of every registered game says why it chose (issue 33, item 4), and no
screen shows what only the bot knew.  Nothing here names a game or a bot: both join these tests
by registering.

* each decision has an explanation whose first line is ``"<bot>: <the choice in the game's
  words> — <its reason>"``, with no action code in it (``'none'``, ``P3``, ``T07K3``, ``4.1``);
* the choice and the explanation are the same when what the bot's seat cannot see is drawn again
  (``view.sample``): a bot's words rest on its view only;
* a table shows a bot's reasons only where its presenter says every seat knows what the bot knew
  (and then a state drawn from any seat's view shows every other seat the same view); elsewhere
  a screen carries the bot's name and that its reasons stay hidden, and none of its words.
"""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

from dsa_widget.core import CHANCE
from dsa_widget.core.bots import action_words, bot_name
from dsa_widget.core.registry import GameSpec, games
from dsa_widget.core.session import HIDDEN_REASONS, Session

GAMES = games()
CASES = [
    pytest.param(
        spec,
        name,
        id=f"{spec.name}-{name}",
    )
    for spec in GAMES
    for name in spec.bot_registry().names
]
#: decisions asked of each bot (searching bots take up to a second each)
POSITIONS = 3
#: an action's token that is a code, not a word: letters and digits mixed (P3, T07K3, SHK2) or
#: numbers joined by a dot or a colon (a space 4.1, a task given to a seat 17:0)
CODE = re.compile(r"(?=\w*\d)(?=\w*[A-Za-z])\w+|\d+[.:]\d+")


def decisions(spec: GameSpec, seed: int) -> list[Any]:
    """States of a game of ``spec`` played at random where a seat has a real choice."""
    rng = random.Random(seed)
    g = spec.new_game(players=spec.default_players, seed=seed)
    out: list[Any] = []
    for _ in range(2000):
        if g.is_over or len(out) == POSITIONS:
            break
        if g.to_move == CHANCE:
            g.sample_chance()
            continue
        legal = g.legal_actions()
        if len(legal) > 1 and rng.random() < 0.25:
            out.append(g.clone())
        g.apply(rng.choice(legal))
    return out


def codes(action: Any) -> list[str]:
    return [tok for tok in str(action).split() if CODE.fullmatch(tok)]


@pytest.mark.parametrize(("spec", "name"), CASES)
def test_every_decision_is_explained_in_words_from_the_view_only(spec: GameSpec, name: str) -> None:
    reg = spec.bot_registry()
    for k, g in enumerate(decisions(spec, seed=7 + len(name))):
        t, legal = g.to_move, g.legal_actions()
        bot = reg.make_bot(name, seed=k)
        choice = bot(g.view(t), legal)
        said = bot.explain()
        first = said.splitlines()[0] if said else ""
        words = action_words(g.view(t), choice)
        assert first.startswith(f"{bot_name(bot)}: {words} — "), (first, choice)
        assert first.partition(" — ")[2].strip(), first  # a reason, not only the choice
        for a in legal:
            assert repr(a) not in said, (a, said)
            for code in codes(a):
                assert not re.search(rf"(?<![\w.:]){re.escape(code)}(?![\w.:])", said), (code, said)
        # what its seat cannot see drawn again: the same choice, the same words
        drawn = g.view(t).sample(random.Random(100 + k))
        twin = reg.make_bot(name, seed=k)
        assert twin(drawn.view(t), drawn.legal_actions()) == choice
        assert twin.explain() == said


def _no_secrets(g: Any) -> bool:
    """Whether every seat knows what every other seat knows: a state drawn from any seat's view
    shows each other seat the very same view."""
    n = len(g.players)
    for q in range(n):
        drawn = g.view(q).sample(random.Random(q))
        if any(drawn.view(o).to_dict() != g.view(o).to_dict() for o in range(n)):
            return False
    return True


@pytest.mark.parametrize(
    "spec", [s for s in GAMES if s.presenter], ids=[s.name for s in GAMES if s.presenter]
)
@pytest.mark.parametrize("option", range(3))
def test_a_screen_shows_a_bots_reasons_only_where_every_seat_knew_them(spec: GameSpec, option: int) -> None:
    """Seat 0 is a person, the others the game's default bot; every rule option's choices are
    tried in turn (Deep Sea Adventure's ``reveal``)."""
    options = {o.key: o.choices[option % len(o.choices)][0] for o in spec.option_schema() if o.choices}
    n = spec.default_players
    seats = [None] + [spec.default_bot] * (n - 1)
    try:
        s = Session(spec, presenter=spec.presenter_class()(), seats=seats, players=n, seed=5, options=options)
    except ValueError:
        pytest.skip("a combination of options the rules refuse")
    rng = random.Random(option)
    for _ in range(400):
        if s.game.is_over or s.bot_said:
            break
        if s.bot_move() is None:
            g = s.game
            if g.to_move == CHANCE:
                s.chance()
            else:
                s.apply(rng.choice(list(g.legal_actions())))
    assert s.bot_said, "a bot played"
    public = s.hooks.reasons_public(s)
    for viewer in (0, None):
        screen = s.screen(viewer)
        if public:
            assert _no_secrets(s.game)
            assert screen["bot_said"] == {str(q): t for q, t in s.bot_said.items()}
            continue
        assert set(screen["bot_said"]) == {str(q) for q in s.bot_said}
        assert all(t.endswith(f": {HIDDEN_REASONS}") for t in screen["bot_said"].values())
        page = json.dumps(screen)
        for said in s.bot_said.values():
            reason = said.splitlines()[0].partition(" — ")[2]
            assert not reason or reason not in page, reason
