"""The turn list and event log of a Game share their full chunks between copies, so a copy
costs the same early and late in a game (issue 10, item 3); they must still behave exactly
as lists, and a copy must never see another's changes."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from dsa_widget import Game
from dsa_widget.core.protocol import CHANCE
from dsa_widget.deep_sea.rules import _Log

ops = st.lists(
    st.tuples(st.sampled_from(["append", "copy", "truncate", "switch"]), st.integers(0, 400)),
    max_size=120,
)


@settings(max_examples=200, deadline=None)
@given(ops)
def test_the_log_is_a_list_whose_copies_are_independent(program):
    logs, models = [_Log()], [[]]
    cur = 0
    counter = 0
    for op, k in program:
        log, model = logs[cur], models[cur]
        if op == "append":
            for _ in range(k % 70 + 1):  # cross chunk boundaries often
                counter += 1
                log.append(counter)
                model.append(counter)
        elif op == "copy":
            logs.append(log.copy())
            models.append(list(model))
        elif op == "truncate":
            n = k % (len(model) + 1)
            log.truncate(n)
            del model[n:]
        else:
            cur = k % len(logs)
        for lg, m in zip(logs, models, strict=True):  # nobody else's log moved
            assert len(lg) == len(m) and list(lg) == m and list(reversed(lg)) == m[::-1]
        if model:
            i = k % len(model)
            assert log[i] == model[i] and log[-1] == model[-1]
            assert (
                log[i:] == model[i:]
                and log[: i + 1] == model[: i + 1]
                and log[i : i + 65] == model[i : i + 65]
            )
            assert log[::2] == model[::2]


def test_a_copy_late_in_a_game_holds_the_same_turns_and_events_and_goes_its_own_way():
    rng = random.Random(5)
    g = Game(players=4, seed=5)
    copies = []
    while not g.is_over:
        if g.to_move == CHANCE:
            g.sample_chance()
        else:
            g.apply(rng.choice(g.legal_actions()))
        if g.turn_number % 37 == 0 and g.at_turn_boundary:
            copies.append((g.copy(), g.history, g.events))
    assert len(g.events) > 200  # several chunks of 64
    for c, history, events in copies:
        assert c.history == history and c.events == events  # unchanged by the original's play
        n = c.n_events
        if not c.is_over:
            c.apply(c.legal_actions()[0]) if c.to_move != CHANCE else c.sample_chance()
            assert c.n_events > n and c.events[:n] == events
