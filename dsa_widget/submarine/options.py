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

:data:`SCHEMA` describes the same options for a setup form, in the same order (a table by its
name):

>>> [o.key for o in SCHEMA] == list(DEFAULTS)
True
>>> o = SCHEMA[list(DEFAULTS).index("cards_per_player")]
>>> o.label, o.default, o.describe("default")
('Search cards per player', 'default', '15 cards each (12 with five players)')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.errors import is_int, short_repr
from ..core.registry import Option
from .errors import SetupError

__all__ = [
    "CHOICES",
    "DEFAULTS",
    "NAMED_TABLES",
    "SCHEMA",
    "WHOLE",
    "as_named",
    "resolve_options",
    "table",
]

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
#: option -> its allowed values, the default first (the tables, ``start_player`` and the
#: whole-number options of :data:`WHOLE` are checked separately)
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
    "joker_swaps_per_turn": 3,
    "dead_position_end": True,
    "turn_limit": 5_000,
    "tie_rule": "shared",
}
_LIMITS = {"cards_per_player": (0, 75), "bathyscaphes_per_player": (1, 5)}
#: the whole-number options and their ranges.  Both settle what SUBMARINE.md leaves open, so
#: that every step and every game ends, and a game's record stays well under the record size
#: limit (:data:`dsa_widget.core.records.MAX_BYTES`: a turn has at most 21 actions besides its
#: swaps, so at most 41 of about 40 bytes each, and 25 placements and 5,000 turns of play take
#: at most about 8.5 MB):
#: ``joker_swaps_per_turn`` bounds a turn (§6.6 sets no limit on jokers spent in a turn, and
#: under ``board_jokers="collectable"`` two held jokers can be swapped for each other on the
#: board for ever); ``turn_limit`` (E5, §7.1) bounds a game (§8 #30: a game in which nobody
#: collects has no other end).
WHOLE: dict[str, tuple[int, int]] = {"joker_swaps_per_turn": (0, 20), "turn_limit": (1, 5_000)}


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
        if not is_int(v) or not lo <= v <= hi:
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
            if value != "random" and not (is_int(value) and 0 <= value < 5):
                raise SetupError("option 'start_player' must be 'random' or a seat 0..4", field=name)
            out[name] = value
        else:  # WHOLE
            lo, hi = WHOLE[name]
            if not (is_int(value) and lo <= value <= hi):
                raise SetupError(f"option {name!r} must be a whole number {lo}..{hi}", field=name)
            out[name] = value
    return out


def as_named(options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` (as :func:`resolve_options` gives them) with each per-player-count table
    that has a name in :data:`NAMED_TABLES` given by that name, as the setup form offers it (a
    table of the user's own stays a table).

    >>> as_named(resolve_options({"cards_per_player": "linear"}))["cards_per_player"]
    'linear'
    >>> as_named(resolve_options({"cards_per_player": {2: 9}}))["cards_per_player"]["2"]
    9
    """
    out = dict(options)
    for name, named in NAMED_TABLES.items():
        given = out.get(name)
        if isinstance(given, Mapping):
            given = {str(k): v for k, v in given.items()}
        out[name] = next((word for word, t in named.items() if t == given), out.get(name))
    return out


def table(options: Mapping[str, Any], name: str, players: int) -> int:
    """The value of the per-player-count table ``name`` for ``players`` players; a count the
    tables have no row for (Submarine is for 2 to 5) raises :class:`SetupError`.

    >>> table(resolve_options(None), "cards_per_player", 4)
    15
    >>> table(resolve_options(None), "cards_per_player", 9)
    Traceback (most recent call last):
    ...
    dsa_widget.submarine.errors.SetupError: Submarine is for 2 to 5 players, not 9
    """
    row = options[name]
    if not is_int(players) or str(players) not in row:
        raise SetupError(f"Submarine is for 2 to 5 players, not {short_repr(players)}", field="players")
    value: int = row[str(players)]
    return value


#: the options as a setup form shows them (:class:`~dsa_widget.core.registry.Option`), in the
#: order of :data:`DEFAULTS`; the two per-player-count tables are offered by their names in
#: :data:`NAMED_TABLES` (``resolve_options`` accepts a name), so their default is ``"default"``
SCHEMA: tuple[Option, ...] = (
    Option(
        "deck",
        "Search cards in the box",
        "60",
        choices=(("60", "60 cards, 12 of each colour"), ("75", "75 cards, 15 of each colour")),
        help="the search cards shuffled before the deal; the sources disagree (SUBMARINE.md 2.3)",
    ),
    Option(
        "cards_per_player",
        "Search cards per player",
        "default",
        choices=(
            ("default", "15 cards each (12 with five players)"),
            ("linear", "15, 14, 13 or 12 cards with 2, 3, 4 or 5 players"),
        ),
        help="the cards dealt to each player's own pile; the rest leave the game (SUBMARINE.md 2.3)",
    ),
    Option(
        "bathyscaphes_per_player",
        "Bathyscaphes per player",
        "default",
        choices=(
            ("default", "5 each with two or three players, 4 with four, 3 with five"),
            ("always5", "5 each, whatever the number of players"),
            ("fewer", "5 each with two players, 4 with three, 3 with four or five"),
        ),
        help="how many of their five bathyscaphes each player puts in the sea (SUBMARINE.md 2.4)",
    ),
    Option(
        "start_player",
        "First player",
        "random",
        choices=(
            ("random", "picked at random"),
            (0, "Player 1"),
            (1, "Player 2"),
            (2, "Player 3"),
            (3, "Player 4"),
            (4, "Player 5"),
        ),
        help="who places the first bathyscaphe and takes the first turn; it must be one of the players",
    ),
    Option(
        "end_always_allowed",
        "Sailing straight to the end",
        True,
        choices=(
            (True, "a ship may always sail off to the right and wait"),
            (False, "only when no column ahead holds one of its bathyscaphes"),
        ),
        help="whether a ship may leave the board while it could still stop above its own (SUBMARINE.md 5.1)",
    ),
    Option(
        "exchange_on_arrival",
        "Exchange a card on reaching the end",
        False,
        choices=(
            (False, "no: exchanging starts with the next turn"),
            (True, "yes, in the turn the ship arrives"),
        ),
        help="whether the turn a ship sails off the board already allows a card exchange (SUBMARINE.md 5.1)",
    ),
    Option(
        "activation_mode",
        "What the bathyscaphes below the ship do",
        "uniform",
        choices=(
            ("uniform", "all of them move, or they collect"),
            ("independent", "each one moves, collects or rests"),
        ),
        help="whether the bathyscaphes under the ship must all do the same in a turn (SUBMARINE.md 6.2)",
    ),
    Option(
        "uniform_move_all",
        "Moving the bathyscaphes below the ship",
        True,
        choices=(
            (True, "every one of them must move"),
            (False, "at least one moves, the others may stay"),
        ),
        help="whether a turn spent moving moves every bathyscaphe under the ship (SUBMARINE.md 6.2)",
    ),
    Option(
        "payment_basis",
        "Paying opponents above a treasure",
        "per_bathyscaphe",
        choices=(
            ("per_bathyscaphe", "one card for each of their bathyscaphes there or above"),
            ("per_opponent", "one card for each opponent with a bathyscaphe there or above"),
        ),
        help="what collecting with a card costs when opponents are in that space or above (SUBMARINE.md 6.5)",
    ),
    Option(
        "payment_destination",
        "Where a paid card goes",
        "top",
        choices=(("top", "on top of the receiver's pile"), ("bottom", "under the receiver's pile")),
        help="cards paid to an opponent come from the top of the payer's pile, unseen (SUBMARINE.md 6.5)",
    ),
    Option(
        "payment_shortfall",
        "Too few cards in the pile to pay",
        "forbid",
        choices=(
            ("forbid", "the treasure cannot be collected with a card"),
            ("pay_what_you_can", "pay what the pile holds; the rest is let off"),
            ("use_hand", "the rest is paid from the hand"),
        ),
        help="what happens when a player's pile cannot cover every payment (SUBMARINE.md 6.4)",
    ),
    Option(
        "board_jokers",
        "Spent jokers on the board",
        "inert",
        choices=(
            ("inert", "they stay where they were put"),
            ("collectable", "they can be collected like a treasure of their colour"),
        ),
        help="a joker spent on a treasure is left in that treasure's space (SUBMARINE.md 6.6)",
    ),
    Option(
        "joker_swaps_per_turn",
        "Joker swaps per turn",
        3,
        help=(
            "when spent jokers can be collected: how many of them a player may take in one turn by "
            "paying with a held joker (the rules set no limit, and a turn must end; SUBMARINE.md 6.6)"
        ),
        minimum=WHOLE["joker_swaps_per_turn"][0],
        maximum=WHOLE["joker_swaps_per_turn"][1],
    ),
    Option(
        "dead_position_end",
        "End a game nobody can score in",
        True,
        choices=(
            (True, "the game ends when no treasure can ever be collected again"),
            (False, "play goes on (only a turn limit ends it)"),
        ),
        help="when no player has a joker or a card that could still collect a treasure (SUBMARINE.md 7.1)",
    ),
    Option(
        "turn_limit",
        "Turn limit",
        5_000,
        help=(
            "the game ends after this many turns after the bathyscaphes are placed, so that a game in "
            "which nobody collects ends too (random players need 300 to 2,500; SUBMARINE.md 7.1, 8 #30)"
        ),
        minimum=WHOLE["turn_limit"][0],
        maximum=WHOLE["turn_limit"][1],
    ),
    Option(
        "tie_rule",
        "Breaking a tie",
        "shared",
        choices=(
            ("shared", "all tied players win"),
            ("most_held_jokers", "the most jokers still held; if still tied, all win"),
            ("most_cards", "the most cards left in hand and pile; if still tied, all win"),
        ),
        help="who wins when the best scores are equal (SUBMARINE.md 7.2)",
    ),
)
