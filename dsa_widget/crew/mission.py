"""Missions of *The Crew: Mission Deep Sea* (CREW.md 6.1) and the logbook campaign as data.

A :class:`Mission` is plain data: a difficulty ``target`` (or ``fixed_tasks``), an allocation
mode (section 7), a communication mode (section 11), an optional communication window, mission
constraints (R-14.4), an optional timer with its untimed alternative (section 12).  It is
validated when it is made; a bad field raises :class:`~dsa_widget.crew.errors.SetupError`
whose ``field`` names it.  ``to_dict()`` / ``from_dict()`` round-trip through JSON.

:data:`CAMPAIGN` (missions 1-32) and :func:`campaign_mission` are data only, taken from public
secondary sources (NOTES.md 5.1) and **unverified against the printed logbook**; no story text.

>>> m = Mission(target=5, allocation="free", constraints=({"kind": "lead_ban", "suits": ["P", "S"]},))
>>> Mission.from_dict(m.to_dict()) == m
True
>>> CAMPAIGN[8].constraints
({'kind': 'balance', 'select': {'ranks': [9]}, 'max_gap': 1},)
>>> campaign_mission(40).target, campaign_mission(40).allocation
(25, 'free')
>>> Mission(target=-1)
Traceback (most recent call last):
...
dsa_widget.crew.errors.SetupError: target must be an integer >= 0 (a sum of task difficulties), not -1
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..core.errors import is_int, short_repr
from .cards import DECK, SUITS
from .errors import SetupError

__all__ = [
    "ALLOCATIONS",
    "CAMPAIGN",
    "COMMUNICATIONS",
    "CONSTRAINT_KINDS",
    "Mission",
    "campaign_mission",
    "validate_constraint",
]

#: the allocation modes of CREW.md section 7
ALLOCATIONS = (
    "normal",
    "free",
    "one_owner",
    "captain_decides",
    "volunteers",
    "captain_first_hardest",
    "skip_captain",
)
#: the communication modes of CREW.md section 11
COMMUNICATIONS = ("normal", "currents", "rapture", "terrain", "none")
#: the mission constraints of R-14.4 and their parameters
CONSTRAINT_KINDS: dict[str, tuple[str, ...]] = {
    "lead_ban": ("suits",),
    "balance": ("select", "max_gap"),
    "first_winner_leads": (),
    "final_card": ("card",),
}
_MAX_TRICKS = 13  # the most tricks a deal can have (N = 3)


def _check_selector(sel: object, where: str) -> dict[str, list[Any]]:
    """A selector of CREW.md 13.2, checked and copied to plain JSON data."""
    if not isinstance(sel, Mapping) or len(sel) != 1:
        raise SetupError(
            f"{where} must be a selector with one key 'cards', 'suits' or 'ranks', not {short_repr(sel)}",
            where,
        )
    ((key, value),) = sel.items()
    if (
        key not in ("cards", "suits", "ranks")
        or isinstance(value, (str, bytes))
        or not isinstance(value, Sequence)
    ):
        raise SetupError(f"{where} must be {{'cards'|'suits'|'ranks': [...]}}, not {short_repr(sel)}", where)
    items = list(value)
    if not items or len(set(map(repr, items))) != len(items):
        raise SetupError(
            f"{where}: the {key} list must be non-empty and without repeats, not {short_repr(items)}", where
        )
    if key == "cards" and not all(isinstance(c, str) and c in DECK for c in items):
        raise SetupError(f"{where}: {short_repr(items)} are not all card ids like 'P3'", where)
    if key == "suits" and not all(isinstance(s, str) and s in SUITS for s in items):
        raise SetupError(f"{where}: suits must be among {', '.join(SUITS)}, not {short_repr(items)}", where)
    if key == "ranks" and not all(is_int(r) and 1 <= r <= 9 for r in items):
        raise SetupError(f"{where}: ranks must be integers 1-9, not {short_repr(items)}", where)
    return {key: items}


def validate_constraint(c: object, index: int = 0) -> dict[str, Any]:
    """One mission constraint of R-14.4, checked; returns a plain-data copy.

    >>> validate_constraint({"kind": "final_card", "card": "Y5"})
    {'kind': 'final_card', 'card': 'Y5'}
    >>> validate_constraint({"kind": "balance", "select": {"ranks": [9]}})
    Traceback (most recent call last):
    ...
    dsa_widget.crew.errors.SetupError: constraints[0]: 'balance' needs select, max_gap; got kind, select
    """
    where = f"constraints[{index}]"
    if not isinstance(c, Mapping) or c.get("kind") not in CONSTRAINT_KINDS:
        raise SetupError(
            f"{where} must be a mapping with 'kind' in {', '.join(CONSTRAINT_KINDS)}, not {short_repr(c)}",
            where,
        )
    kind = c["kind"]
    wanted = CONSTRAINT_KINDS[kind]
    if set(c) != {"kind", *wanted}:
        raise SetupError(
            f"{where}: {kind!r} needs {', '.join(wanted) or 'no parameter'}; got {', '.join(map(str, c))}",
            where,
        )
    out: dict[str, Any] = {"kind": kind}
    if kind == "lead_ban":
        out["suits"] = _check_selector({"suits": c["suits"]}, f"{where}.suits")["suits"]
    elif kind == "balance":
        out["select"] = _check_selector(c["select"], f"{where}.select")
        gap = c["max_gap"]
        if not is_int(gap) or gap < 0:
            raise SetupError(
                f"{where}.max_gap must be an integer >= 0, not {short_repr(gap)}", f"{where}.max_gap"
            )
        out["max_gap"] = gap
    elif kind == "final_card":
        card = c["card"]
        if not isinstance(card, str) or card not in DECK:
            raise SetupError(
                f"{where}.card must be a card id like 'Y5', not {short_repr(card)}", f"{where}.card"
            )
        out["card"] = card
    return out


@dataclass(frozen=True)
class Mission:
    """One mission (CREW.md 6.1): what is drawn, how it is assigned, how the crew may talk.

    ``target`` is required unless ``fixed_tasks`` is given (and not allowed with it);
    ``comm_until_trick = None`` means the last trick T.  ``untimed`` (only with a timer) holds
    what replaces the timer when the crew plays untimed (R-12.3): ``communication`` and/or
    ``target``.
    """

    target: int | None = None
    fixed_tasks: tuple[int, ...] | None = None
    allocation: str = "normal"
    volunteers: int = 1
    communication: str = "normal"
    comm_from_trick: int = 1
    comm_until_trick: int | None = None
    constraints: tuple[Mapping[str, Any], ...] = field(default=(), hash=False)
    timer_seconds: int | None = None
    untimed: Mapping[str, Any] | None = field(default=None, hash=False)

    def __post_init__(self) -> None:
        # target / fixed tasks
        if self.fixed_tasks is not None:
            ft = self.fixed_tasks
            if isinstance(ft, (str, bytes)) or not isinstance(ft, Sequence):
                raise SetupError(
                    f"fixed_tasks must be a list of task ids, not {short_repr(ft)}", "fixed_tasks"
                )
            ids = tuple(ft)
            if not all(is_int(t) and 1 <= t <= 96 for t in ids):
                raise SetupError(
                    f"fixed_tasks must hold task ids 1-96, not {short_repr(list(ids))}", "fixed_tasks"
                )
            if len(set(ids)) != len(ids):
                raise SetupError(f"fixed_tasks names a task twice: {short_repr(list(ids))}", "fixed_tasks")
            object.__setattr__(self, "fixed_tasks", ids)
            if self.target is not None:
                raise SetupError("give either target or fixed_tasks, not both", "target")
        elif self.target is None:
            raise SetupError("a mission needs a target (or fixed_tasks)", "target")
        elif not is_int(self.target) or self.target < 0:
            raise SetupError(
                f"target must be an integer >= 0 (a sum of task difficulties), not {short_repr(self.target)}",
                "target",
            )
        # allocation
        if self.allocation not in ALLOCATIONS:
            raise SetupError(
                f"allocation must be one of {', '.join(ALLOCATIONS)}, not {short_repr(self.allocation)}",
                "allocation",
            )
        if not is_int(self.volunteers) or self.volunteers not in (1, 2):
            raise SetupError(f"volunteers must be 1 or 2, not {short_repr(self.volunteers)}", "volunteers")
        # communication
        if self.communication not in COMMUNICATIONS:
            raise SetupError(
                f"communication must be one of {', '.join(COMMUNICATIONS)}, "
                f"not {short_repr(self.communication)}",
                "communication",
            )
        if not is_int(self.comm_from_trick) or not 1 <= self.comm_from_trick <= _MAX_TRICKS:
            raise SetupError(
                f"comm_from_trick must be a trick number 1-{_MAX_TRICKS}, "
                f"not {short_repr(self.comm_from_trick)}",
                "comm_from_trick",
            )
        cu = self.comm_until_trick
        if cu is not None and (not is_int(cu) or not self.comm_from_trick <= cu <= _MAX_TRICKS):
            raise SetupError(
                f"comm_until_trick must be None (= the last trick) or a trick number from comm_from_trick "
                f"({self.comm_from_trick}) to {_MAX_TRICKS}, not {short_repr(cu)}",
                "comm_until_trick",
            )
        # constraints
        cs = self.constraints
        if isinstance(cs, (str, bytes, Mapping)) or not isinstance(cs, Sequence):
            raise SetupError(
                f"constraints must be a list of mission constraints, not {short_repr(cs)}", "constraints"
            )
        object.__setattr__(self, "constraints", tuple(validate_constraint(c, i) for i, c in enumerate(cs)))
        # timer
        ts = self.timer_seconds
        if ts is not None and (not is_int(ts) or ts <= 0):
            raise SetupError(
                f"timer_seconds must be None or an integer > 0, not {short_repr(ts)}", "timer_seconds"
            )
        if self.untimed is not None:
            u = self.untimed
            if ts is None:
                raise SetupError("untimed is only meaningful for a mission with timer_seconds", "untimed")
            if not isinstance(u, Mapping) or not u or not set(u) <= {"communication", "target"}:
                raise SetupError(
                    f"untimed must be a mapping with 'communication' and/or 'target', not {short_repr(u)}",
                    "untimed",
                )
            if "communication" in u and u["communication"] not in COMMUNICATIONS:
                raise SetupError(
                    f"untimed.communication must be one of {', '.join(COMMUNICATIONS)}, "
                    f"not {short_repr(u['communication'])}",
                    "untimed.communication",
                )
            if "target" in u and (not is_int(u["target"]) or u["target"] < 0):
                raise SetupError(
                    f"untimed.target must be an integer >= 0, not {short_repr(u['target'])}", "untimed.target"
                )
            if "target" in u and self.fixed_tasks is not None:
                raise SetupError("untimed.target cannot replace fixed_tasks", "untimed.target")
            object.__setattr__(self, "untimed", dict(u))

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON data; :meth:`from_dict` gives the mission back."""
        return {
            "target": self.target,
            "fixed_tasks": None if self.fixed_tasks is None else list(self.fixed_tasks),
            "allocation": self.allocation,
            "volunteers": self.volunteers,
            "communication": self.communication,
            "comm_from_trick": self.comm_from_trick,
            "comm_until_trick": self.comm_until_trick,
            "constraints": [copy.deepcopy(dict(c)) for c in self.constraints],
            "timer_seconds": self.timer_seconds,
            "untimed": None if self.untimed is None else dict(self.untimed),
        }

    @classmethod
    def from_dict(cls, d: Mapping[str, Any]) -> Mission:
        """The mission of :meth:`to_dict` data (missing keys take their defaults)."""
        if not isinstance(d, Mapping):
            raise SetupError(f"a mission must be a mapping, not {short_repr(d)}", "mission")
        known = set(cls.__dataclass_fields__)
        for key in d:
            if key not in known:
                raise SetupError(
                    f"unknown mission field {short_repr(key)}; known: {', '.join(sorted(known))}", str(key)
                )
        kw = dict(d)
        if kw.get("fixed_tasks") is not None:
            ft = kw["fixed_tasks"]
            if isinstance(ft, (str, bytes)) or not isinstance(ft, Sequence):
                raise SetupError(
                    f"fixed_tasks must be a list of task ids, not {short_repr(ft)}", "fixed_tasks"
                )
            kw["fixed_tasks"] = tuple(ft)
        if "constraints" in kw:
            cs = kw["constraints"]
            if isinstance(cs, (str, bytes, Mapping)) or not isinstance(cs, Sequence):
                raise SetupError(f"constraints must be a list, not {short_repr(cs)}", "constraints")
            kw["constraints"] = tuple(cs)
        return cls(**kw)


def _m(target: int | None = None, **kw: Any) -> Mission:
    return Mission(target=target, **kw)


_TERRAIN = {"communication": "terrain"}

#: The logbook campaign, missions 1-32, as data only (NOTES.md 5.1; no story text).
#:
#: From public secondary sources (NOTES.md S4, S5, S6, S11), **unverified against the printed
#: logbook**.  Rows where the sources differ take the defaults of NOTES.md D-19: mission 3
#: target 3; mission 16 untimed = no communication; mission 26 target 10 timed, 12 untimed;
#: mission 29 target 15; mission 32 four fixed tasks (80, 89, 86, 74).  Mission 25's "the
#: captain takes no task" has a single source (S6/L) and is kept (``skip_captain``, R-7.11).
#: Owners of the book may edit any row.
CAMPAIGN: dict[int, Mission] = {
    1: _m(1),
    2: _m(2),
    3: _m(3),
    4: _m(4),
    5: _m(5),
    6: _m(5, allocation="one_owner"),
    7: _m(6),
    8: _m(0, constraints=({"kind": "balance", "select": {"ranks": [9]}, "max_gap": 1},)),
    9: _m(7, communication="currents"),
    10: _m(4, allocation="captain_decides"),
    11: _m(8, communication="rapture"),
    12: _m(0, constraints=({"kind": "lead_ban", "suits": ["P", "S"]},)),
    13: _m(5, allocation="captain_decides"),
    14: _m(6, allocation="volunteers", timer_seconds=210, untimed={"communication": "currents", "target": 6}),
    15: _m(6, allocation="volunteers", timer_seconds=180, untimed={"communication": "rapture", "target": 6}),
    16: _m(6, allocation="volunteers", timer_seconds=150, untimed={"communication": "none", "target": 6}),
    17: _m(9, allocation="free"),
    18: _m(9),
    19: _m(9, allocation="captain_first_hardest"),
    20: _m(10, **_TERRAIN),
    21: _m(0, **_TERRAIN, constraints=({"kind": "balance", "select": {"ranks": [1]}, "max_gap": 1},)),
    22: _m(11, **_TERRAIN),
    23: _m(0, **_TERRAIN, comm_from_trick=2, constraints=({"kind": "first_winner_leads"},)),
    24: _m(12, **_TERRAIN),
    25: _m(12, **_TERRAIN, allocation="skip_captain"),
    26: _m(10, **_TERRAIN, allocation="volunteers", volunteers=2, timer_seconds=300, untimed={"target": 12}),
    27: _m(0, **_TERRAIN, constraints=({"kind": "final_card", "card": "Y5"},)),
    28: _m(14, allocation="free"),
    29: _m(15, allocation="free"),
    30: _m(16, allocation="free"),
    31: _m(17, allocation="free"),
    32: Mission(fixed_tasks=(80, 89, 86, 74)),
}


def campaign_mission(n: int) -> Mission:
    """Campaign mission ``n``: the table for 1-32, then the open-ended continuation (NOTES.md 5.1,
    D-18): target ``n - 15`` with free selection.  From public secondary sources, unverified
    against the printed logbook."""
    if not is_int(n) or n < 1:
        raise SetupError(f"a campaign mission number is an integer >= 1, not {short_repr(n)}", "mission")
    if n in CAMPAIGN:
        return CAMPAIGN[n]
    return Mission(target=n - 15, allocation="free")


def new_mission_game(
    players: Any = 3,
    *,
    target: int | None = None,
    communication: str = "normal",
    allocation: str = "normal",
    timer_seconds: int | None = None,
    campaign: int | None = None,
    **kwargs: Any,
) -> Any:
    """A :class:`~dsa_widget.crew.rules.CrewGame` from a setup form's settings: a campaign
    mission by its number, else a mission of ``target`` difficulty with the communication,
    allocation and timer chosen (the game's own keywords, such as ``mission``, pass through).

    >>> g = new_mission_game(["Ann", "Bob", "Cy"], target=2, communication="none", seed=1)
    >>> g.mission.target, g.mission.communication
    (2, 'none')
    """
    from .rules import CrewGame

    if campaign is not None:
        return CrewGame(players, campaign=campaign, target=None, **kwargs)
    plain = communication == "normal" and allocation == "normal" and timer_seconds is None
    if plain or "mission" in kwargs:
        return CrewGame(players, target=3 if target is None else target, **kwargs)
    mission = Mission(
        target=3 if target is None else target,
        communication=communication,
        allocation=allocation,
        timer_seconds=timer_seconds,
    )
    return CrewGame(players, mission=mission, **kwargs)
