"""Game setup: players, air, rounds, the path and the rule options.

A :class:`Setup` is immutable and always valid: :meth:`Setup.create` checks
every field and raises :class:`~dsa_widget.deep_sea.errors.SetupError` naming the
field at fault, so a game is never built from a bad setup.

>>> s = Setup.create(players=["Ann", "Bob"], air=20, seed=1)
>>> s.players, s.air, s.rounds, len(s.path)
(('Ann', 'Bob'), 20, 3, 32)
>>> Setup.create(players=3, options={"drop_order": "farthest_first"}).options.drop_order
'farthest_first'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any, Literal

from ..core.errors import is_int, short_repr
from ..core.records import name_problem
from .errors import SetupError

__all__ = [
    "Options",
    "Setup",
    "STANDARD_CHIPS",
    "standard_path",
    "CHIP_VALUES",
    "MIN_PLAYERS",
    "MAX_PLAYERS",
]

MIN_PLAYERS = 2
MAX_PLAYERS = 6
#: bounds of a setup (RECORD.md, "What a valid record is, exactly")
MAX_AIR = 1000
MAX_ROUNDS = 100
MAX_CHIPS = 1000
MAX_VALUE = 2**53 - 1  # exact in a browser's numbers
MAX_NAME = 64
SEED_RANGE = (-(2**63), 2**63 - 1)

#: The values of the 8 chips of each level in the standard game (RULES.md, Components).
CHIP_VALUES: dict[int, tuple[int, ...]] = {
    1: (0, 0, 1, 1, 2, 2, 3, 3),
    2: (4, 4, 5, 5, 6, 6, 7, 7),
    3: (8, 8, 9, 9, 10, 10, 11, 11),
    4: (12, 12, 13, 13, 14, 14, 15, 15),
}

#: The 32 standard chips as ``(level, value)``, level 1 first, unshuffled.
STANDARD_CHIPS: tuple[tuple[int, int], ...] = tuple(
    (level, value) for level in (1, 2, 3, 4) for value in CHIP_VALUES[level]
)

DropOrder = Literal["nearest_first", "farthest_first"]
Tiebreak = Literal["level4", "levels_desc"]
Reveal = Literal["public", "owner"]
SinkOrder = Literal["chosen", "pickup"]

_OPTION_CHOICES: dict[str, tuple[Any, ...]] = {
    "turn_back_requires_treasure": (True, False),
    "drop_order": ("nearest_first", "farthest_first"),
    "tiebreak": ("level4", "levels_desc"),
    "reveal": ("public", "owner"),
    "sink_order": ("chosen", "pickup"),
}

#: One line per option, for help texts and the widget's setup panel.
OPTION_HELP: dict[str, str] = {
    "turn_back_requires_treasure": "A diver may turn back only while carrying a treasure "
    "(off: as the French text, turning back needs no treasure).",
    "drop_order": "When the air runs out, whose chips sink first: the diver nearest the "
    "submarine (French, Vietnamese) or the farthest (Dutch).",
    "tiebreak": "A tie is won by most level-4 chips (level4), or by comparing level-4, "
    "then 3, 2, 1 counts (levels_desc).",
    "reveal": "Banked chips are shown to everyone (public) or only to their owner until "
    "the game ends (owner, French text).",
    "sink_order": "A drowning diver chooses the order his chips sink in, and so which share a "
    "stack (chosen, all three rule texts), or they sink in pickup order (pickup).",
}


@dataclass(frozen=True)
class Options:
    """The rule options of RULES.md, each defaulting to the marked default.

    >>> Options().to_dict()  # doctest: +NORMALIZE_WHITESPACE
    {'turn_back_requires_treasure': True, 'drop_order': 'nearest_first', 'tiebreak': 'level4',
     'reveal': 'public', 'sink_order': 'chosen'}
    """

    turn_back_requires_treasure: bool = True
    drop_order: DropOrder = "nearest_first"
    tiebreak: Tiebreak = "level4"
    reveal: Reveal = "public"
    sink_order: SinkOrder = "chosen"

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            allowed = _OPTION_CHOICES[f.name]
            if type(value) is not type(allowed[0]) or value not in allowed:
                raise SetupError(
                    f"options.{f.name}",
                    f"{short_repr(value)} is not one of {', '.join(map(repr, allowed))}",
                )

    @classmethod
    def create(cls, options: Options | Mapping[str, Any] | None = None) -> Options:
        """Options from a mapping; unknown names raise :class:`SetupError`."""
        if options is None:
            return cls()
        if isinstance(options, Options):
            return options
        if not isinstance(options, Mapping):
            raise SetupError("options", f"expected an object of rule options, got {type(options).__name__}")
        unknown = sorted((k for k in options if k not in _OPTION_CHOICES), key=repr)
        if unknown:
            raise SetupError(
                "options",
                f"unknown option {short_repr(unknown[0])}; the options are {', '.join(_OPTION_CHOICES)}",
            )
        return cls(**dict(options))

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


def standard_path(seed: int | str | None = None) -> tuple[tuple[int, int], ...]:
    """The 32 standard chips, each level shuffled on its own (RULES.md, Setup).

    The same seed always gives the same path.

    >>> p = standard_path(7)
    >>> [lvl for lvl, _ in p] == [1] * 8 + [2] * 8 + [3] * 8 + [4] * 8
    True
    >>> p == standard_path(7)
    True
    """
    rng = random.Random(seed)
    path: list[tuple[int, int]] = []
    for level in (1, 2, 3, 4):
        values = list(CHIP_VALUES[level])
        rng.shuffle(values)
        path.extend((level, v) for v in values)
    return tuple(path)


def _check_name(i: int, name: object) -> None:
    if not isinstance(name, str) or not name.strip():
        raise SetupError(
            "players", f"player {i + 1}'s name must be a non-empty string, got {short_repr(name)}"
        )
    if len(name) > MAX_NAME:
        raise SetupError("players", f"player {i + 1}'s name is longer than {MAX_NAME} characters")
    problem = name_problem(name, MAX_NAME)  # the check every game's names pass (a lone surrogate)
    if problem:
        raise SetupError("players", f"player {i + 1}'s name {problem}")
    if not name.isprintable():
        raise SetupError("players", f"player {i + 1}'s name holds a control character")


@dataclass(frozen=True)
class Setup:
    """A complete, valid game setup.  Build one with :meth:`create`."""

    players: tuple[str, ...]
    air: int = 25
    rounds: int = 3
    first_player: int = 0
    path: tuple[tuple[int, int], ...] = field(default=STANDARD_CHIPS)
    options: Options = field(default_factory=Options)
    seed: int | None = None

    def __post_init__(self) -> None:
        # however it is built (create() or directly), a Setup is valid
        if not isinstance(self.players, tuple) or not MIN_PLAYERS <= len(self.players) <= MAX_PLAYERS:
            raise SetupError("players", "a tuple of 2 to 6 names")
        for i, name in enumerate(self.players):
            _check_name(i, name)
        for key, value, top in (("air", self.air, MAX_AIR), ("rounds", self.rounds, MAX_ROUNDS)):
            if not is_int(value) or not 1 <= value <= top:
                raise SetupError(key, f"must be an integer from 1 to {top}, got {short_repr(value)}")
        if not is_int(self.first_player) or not 0 <= self.first_player < len(self.players):
            raise SetupError(
                "first_player",
                f"must be a seat index from 0 to {len(self.players) - 1}, "
                f"got {short_repr(self.first_player)}",
            )
        if self.seed is not None and (
            not is_int(self.seed) or not SEED_RANGE[0] <= self.seed <= SEED_RANGE[1]
        ):
            raise SetupError(
                "seed", f"must be an integer from -2**63 to 2**63 - 1, got {short_repr(self.seed)}"
            )
        if not isinstance(self.path, tuple) or not 1 <= len(self.path) <= MAX_CHIPS:
            raise SetupError("path", f"a tuple of 1 to {MAX_CHIPS} chips")
        for i, chip in enumerate(self.path, start=1):
            if not (
                type(chip) is tuple
                and len(chip) == 2
                and type(chip[0]) is int
                and 1 <= chip[0] <= 4
                and type(chip[1]) is int
                and 0 <= chip[1] <= MAX_VALUE
            ):
                raise SetupError(
                    "path", f"chip {i} is {short_repr(chip)}; a chip is (level 1..4, value 0..2**53-1)"
                )
        if not isinstance(self.options, Options):
            raise SetupError("options", f"expected Options, got {type(self.options).__name__}")

    @classmethod
    def create(
        cls,
        players: int | Sequence[str] = 4,
        *,
        air: int = 25,
        rounds: int = 3,
        first_player: int = 0,
        path: Sequence[Sequence[int]] | None = None,
        seed: int | None = None,
        options: Options | Mapping[str, Any] | None = None,
    ) -> Setup:
        """Check every field and build a setup.

        ``players`` is a count (2..6, default names) or a list of names.
        ``path`` is a custom list of chips ``(level, value)``; without it the
        standard 32 chips are shuffled level by level with ``seed``.

        >>> Setup.create(players=2, air=0)
        Traceback (most recent call last):
        ...
        dsa_widget.deep_sea.errors.SetupError: setup key 'air': must be an integer from 1 to 1000, got 0
        >>> Setup.create(players=2, path=[(5, 1)])
        Traceback (most recent call last):
        ...
        dsa_widget.deep_sea.errors.SetupError: setup key 'path': chip 1 has level 5; levels are 1 to 4
        """
        names = cls._check_players(players)
        for key, value, top in (("air", air, MAX_AIR), ("rounds", rounds, MAX_ROUNDS)):
            if not is_int(value) or not 1 <= value <= top:
                raise SetupError(key, f"must be an integer from 1 to {top}, got {short_repr(value)}")
        if not is_int(first_player) or not 0 <= first_player < len(names):
            raise SetupError(
                "first_player",
                f"must be a seat index from 0 to {len(names) - 1}, got {short_repr(first_player)}",
            )
        if seed is not None and (not is_int(seed) or not SEED_RANGE[0] <= seed <= SEED_RANGE[1]):
            raise SetupError("seed", f"must be an integer from -2**63 to 2**63 - 1, got {short_repr(seed)}")
        chips = standard_path(seed) if path is None else cls._check_path(path)
        return cls(
            players=names,
            air=air,
            rounds=rounds,
            first_player=first_player,
            path=chips,
            options=Options.create(options),
            seed=seed,
        )

    @staticmethod
    def _check_players(players: object) -> tuple[str, ...]:
        if is_int(players):
            n = int(players)
            if not MIN_PLAYERS <= n <= MAX_PLAYERS:
                raise SetupError("players", f"{short_repr(n)} players given; the game takes 2 to 6")
            return tuple(f"Player {i + 1}" for i in range(n))
        if isinstance(players, (str, bytes)) or not isinstance(players, Sequence):
            raise SetupError(
                "players", f"expected a count 2..6 or a list of names, got {short_repr(players)}"
            )
        names = tuple(players)
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise SetupError("players", f"{len(names)} players given; the game takes 2 to 6")
        for i, name in enumerate(names):
            _check_name(i, name)
        return names

    @staticmethod
    def _check_path(path: object) -> tuple[tuple[int, int], ...]:
        if isinstance(path, (str, bytes)) or not isinstance(path, Sequence):
            raise SetupError("path", f"expected a list of chips [level, value], got {short_repr(path)}")
        if len(path) == 0:
            raise SetupError("path", "is empty; a game needs at least one chip")
        if len(path) > MAX_CHIPS:
            raise SetupError("path", f"holds {len(path)} chips; at most {MAX_CHIPS}")
        chips = []
        for i, chip in enumerate(path, start=1):
            if isinstance(chip, (str, bytes)) or not isinstance(chip, Sequence) or len(chip) != 2:
                raise SetupError("path", f"chip {i} is {short_repr(chip)}; a chip is [level, value]")
            level, value = chip
            if not is_int(level) or not 1 <= level <= 4:
                raise SetupError("path", f"chip {i} has level {short_repr(level)}; levels are 1 to 4")
            if not is_int(value) or not 0 <= value <= MAX_VALUE:
                raise SetupError(
                    "path", f"chip {i} has value {short_repr(value)}; a value is an integer 0..2**53-1"
                )
            chips.append((int(level), int(value)))
        return tuple(chips)

    def to_dict(self) -> dict[str, Any]:
        """The setup as a record's ``setup`` object (the path always written)."""
        return {
            "players": list(self.players),
            "air": self.air,
            "rounds": self.rounds,
            "first_player": self.first_player,
            "path": [list(c) for c in self.path],
            "options": self.options.to_dict(),
        }

    @property
    def n_players(self) -> int:
        return len(self.players)
