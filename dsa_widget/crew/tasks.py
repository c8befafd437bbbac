"""The 96 task cards (CREW.md R-2.2, section 13), read from the package's copy of ``tasks.json``.

The summaries are the project's own words (never the publisher's card texts).  Two options
change the table (CREW.md section 16): ``task13_cards`` and ``task11_difficulty``.

>>> t = TASKS[17]
>>> t.kind, t.params["card"], t.difficulty, t.difficulty_for(4)
('win_card_in_trick', 'G2', (3, 4, 5), 4)
>>> t13 = task_table({"task13_cards": "Y7+B7"})[13]
>>> t13.params["cards"], t13.summary
(['Y7', 'B7'], 'Capture yellow 7 and blue 7.')
>>> len(TASKS), sorted({t.kind for t in TASKS.values()})[:3]
(96, ['all_of_a_suit', 'avoid_cards', 'card_count'])
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from .cards import DECK, SUBMARINES, SUIT_MASK
from .words import card_words

__all__ = ["KINDS", "TASKS", "Task", "selector_mask", "task_table"]

#: the thirteen kinds of CREW.md 13.3
KINDS = (
    "win_cards",
    "win_card_in_trick",
    "card_count",
    "avoid_cards",
    "all_of_a_suit",
    "compare_suits",
    "win_trick_with",
    "trick_matching",
    "no_lead",
    "trick_positions",
    "trick_count",
    "trick_run",
    "trick_count_relative",
)


@dataclass(frozen=True)
class Task:
    """One task card: its id, kind and parameters, difficulty ``[d3, d4, d5]``, our summary."""

    id: int
    kind: str
    params: Mapping[str, Any] = field(hash=False, compare=False)
    difficulty: tuple[int, int, int]
    summary: str

    def difficulty_for(self, seats: int) -> int:
        """The difficulty with ``seats`` card-holding seats (3, 4 or 5; CREW.md section 1)."""
        return self.difficulty[seats - 3]

    @property
    def vs_captain(self) -> bool:
        """Tasks 94–96: the captain may never own them (R-5.3)."""
        return self.kind == "trick_count_relative" and self.params.get("vs") == "captain"


def selector_mask(select: Mapping[str, Any]) -> int:
    """The card set a selector names (CREW.md 13.2): ``cards``, ``suits`` or ``ranks``.

    >>> from dsa_widget.crew.cards import names
    >>> names(selector_mask({"ranks": [1]}))      # submarine 1 is not "a 1"
    ['P1', 'Y1', 'B1', 'G1']
    >>> names(selector_mask({"suits": ["S"]}))
    ['S1', 'S2', 'S3', 'S4']
    """
    ((key, value),) = select.items()
    if key == "cards":
        return sum(1 << DECK.index(c) for c in value)
    if key == "suits":
        m = 0
        for s in value:
            m |= SUIT_MASK[s]
        return m
    if key == "ranks":
        return sum(1 << i for i, c in enumerate(DECK) if c[0] != "S" and int(c[1:]) in value) & ~SUBMARINES
    raise ValueError(f"unknown selector {key!r}")


def _load() -> list[dict[str, Any]]:
    text = resources.files("dsa_widget.crew").joinpath("data/tasks.json").read_text(encoding="utf-8")
    data: list[dict[str, Any]] = json.loads(text)
    return data


def _build(rows: list[dict[str, Any]]) -> dict[int, Task]:
    table = {
        r["id"]: Task(r["id"], r["kind"], r["params"], tuple(r["difficulty"]), r["summary"]) for r in rows
    }
    # the start-up checks
    assert len(DECK) == 40 and len(set(DECK)) == 40
    assert sorted(table) == list(range(1, 97)), "the task table has ids 1-96"
    assert all(t.kind in KINDS for t in table.values())
    assert all(len(t.difficulty) == 3 and all(1 <= d <= 6 for d in t.difficulty) for t in table.values())
    return table


_ROWS = _load()
#: the task table with every option at its default
TASKS: dict[int, Task] = _build(_ROWS)


def task_table(options: Mapping[str, Any] | None = None) -> dict[int, Task]:
    """The task table under the options ``task13_cards`` (``"Y9+B7"`` or ``"Y7+B7"``) and
    ``task11_difficulty`` (``[2, 2, 3]`` or ``[2, 3, 3]``); the defaults give :data:`TASKS`."""
    options = options or {}
    t13 = options.get("task13_cards", "Y9+B7")
    t11 = list(options.get("task11_difficulty", [2, 2, 3]))
    if t13 == "Y9+B7" and t11 == [2, 2, 3]:
        return TASKS
    rows = copy.deepcopy(_ROWS)
    for r in rows:
        if r["id"] == 13:  # its cards, and the words a player reads on it
            cards = t13.split("+")
            r["params"]["cards"] = cards
            r["summary"] = "Capture " + " and ".join(card_words(c) for c in cards) + "."
        if r["id"] == 11:
            r["difficulty"] = t11
    return _build(rows)
