"""The rule options of SUBMARINE.md §9: where the sources disagree or are silent.

Every option has a default; :func:`resolve_options` checks a user's mapping and fills in the
defaults, so a game always carries the complete set (and a record saves it, as JSON: the
per-player-count tables are written with string keys).

>>> o = resolve_options({"deck": "75"})
>>> o["deck"], o["cards_per_player"], o["payment_basis"]
('75', {'2': 15, '3': 15, '4': 15, '5': 12}, 'per_bathyscaphe')
>>> table(o, "bathyscaphes_per_player", 4), table(resolve_options({"cards_per_player": "linear"}),
...                                               "cards_per_player", 3)
(4, 14)
>>> resolve_options({"deck": "52"})
Traceback (most recent call last):
...
dsa_widget.submarine.errors.SetupError: option 'deck' must be one of '60', '75', not '52'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import short_repr
from .errors import SetupError

__all__ = ["CHOICES", "DEFAULTS", "NAMED_TABLES", "resolve_options", "table"]

#: the per-player-count tables that have names (SUBMARINE.md §2.3, §2.4)
NAMED_TABLES: dict[str, dict[str, dict[str, int]]] = {
    "cards_per_player": {
        "default": {"2": 15, "3": 15, "4": 15, "5": 12},
        "linear": {"2": 15, "3": 14, "4": 13, "5": 12},
    },
    "bathyscaphes_per_player": {
        "default": {"2": 5, "3": 5, "4": 4, "5": 3},
        "always5": {"2": 5, "3": 5, "4": 5, "5": 5},
        "fewer": {"2": 5, "3": 4, "4": 3, "5": 3},
    },
}
#: option -> its allowed values, the default first (the tables and ``start_player`` /
#: ``turn_limit`` are checked separately)
CHOICES: dict[str, tuple[Any, ...]] = {
    "deck": ("60", "75"),
    "end_always_allowed": (True, False),
    "exchange_on_arrival": (False, True),
    "activation_mode": ("uniform", "independent"),
    "uniform_move_all": (True, False),
    "payment_basis": ("per_bathyscaphe", "per_opponent"),
    "payment_destination": ("top", "bottom"),
    "payment_shortfall": ("forbid", "pay_what_you_can", "use_hand"),
    "board_jokers": ("inert", "collectable"),
    "dead_position_end": (True, False),
    "tie_rule": ("shared", "most_held_jokers", "most_cards"),
}
DEFAULTS: dict[str, Any] = {
    "deck": "60",
    "cards_per_player": dict(NAMED_TABLES["cards_per_player"]["default"]),
    "bathyscaphes_per_player": dict(NAMED_TABLES["bathyscaphes_per_player"]["default"]),
    "start_player": "random",
    "end_always_allowed": True,
    "exchange_on_arrival": False,
    "activation_mode": "uniform",
    "uniform_move_all": True,
    "payment_basis": "per_bathyscaphe",
    "payment_destination": "top",
    "payment_shortfall": "forbid",
    "board_jokers": "inert",
    "dead_position_end": True,
    "turn_limit": None,
    "tie_rule": "shared",
}
_LIMITS = {"cards_per_player": (0, 75), "bathyscaphes_per_player": (1, 5)}


def _is_int(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _table(name: str, value: Any) -> dict[str, int]:
    named = NAMED_TABLES[name]
    if isinstance(value, str):
        if value not in named:
            raise SetupError(f"option {name!r}: no table named {short_repr(value)}", field=name)
        return dict(named[value])
    if not isinstance(value, Mapping):
        raise SetupError(f"option {name!r} must be a table name or a mapping of player counts", field=name)
    lo, hi = _LIMITS[name]
    out = dict(named["default"])
    for k, v in value.items():
        key = str(k)
        if key not in out:
            raise SetupError(f"option {name!r}: {short_repr(k)} is not a player count 2..5", field=name)
        if not _is_int(v) or not lo <= v <= hi:
            raise SetupError(f"option {name!r}: {key} players needs an int {lo}..{hi}", field=name)
        out[key] = v
    return out


def resolve_options(options: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """Every option, the given ones checked (unknown names and values raise :class:`SetupError`)."""
    out = {k: (dict(v) if isinstance(v, dict) else v) for k, v in DEFAULTS.items()}
    if options is None:
        return out
    if not isinstance(options, Mapping):
        raise SetupError("options must be a mapping", field="options")
    for name, value in options.items():
        if name not in DEFAULTS:
            raise SetupError(f"unknown option {short_repr(name)}", field=str(name)[:40])
        if name in CHOICES:
            allowed = CHOICES[name]
            if not any(value == a and type(value) is type(a) for a in allowed):
                listed = ", ".join(repr(a) for a in allowed)
                raise SetupError(
                    f"option {name!r} must be one of {listed}, not {short_repr(value)}", field=name
                )
            out[name] = value
        elif name in NAMED_TABLES:
            out[name] = _table(name, value)
        elif name == "start_player":
            if value != "random" and not (_is_int(value) and 0 <= value < 5):
                raise SetupError("option 'start_player' must be 'random' or a seat 0..4", field=name)
            out[name] = value
        else:  # turn_limit
            if value is not None and not (_is_int(value) and 1 <= value <= 1_000_000):
                raise SetupError("option 'turn_limit' must be null or an int 1..1000000", field=name)
            out[name] = value
    return out


def table(options: Mapping[str, Any], name: str, players: int) -> int:
    """The value of the per-player-count table ``name`` for ``players`` players."""
    value: int = options[name][str(players)]
    return value
