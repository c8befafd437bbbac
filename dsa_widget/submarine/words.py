"""Submarine in people's words: actions, tiles, log lines, prompts, the end and the score.

The engine names things with codes (SUBMARINE.md §2.2 leaves the printed names unknown): colours
``K1..K5``, tiles ``T07K3`` (type 7, colour 3), shells ``SHK2``, spaces ``"5.3"`` (column 5,
depth 3), end conditions ``E1..E5``.  This module turns them into sentences for the board
(:class:`~dsa_widget.submarine.widget.SubmarinePresenter` puts them on the screen) and for a
notebook; it reads only public facts (a view's dict), so no sentence can name a hidden card.

>>> tile_words("T07K3"), tile_words("SHK2"), space_words("5.3")
('green treasure 7', 'yellow shell', 'column 5, depth 3')
>>> from dsa_widget.submarine.rules import SubmarineGame
>>> v = SubmarineGame(["Ann", "Bob"], seed=1, options={"start_player": 0}).view(0).to_dict()
>>> action_words("place 3", v)["say"]
'Place a bathyscaphe in column 3, depth 1'
>>> prompt(v)
'Your turn: place a bathyscaphe in the top row (depth 1). 10 still to place.'
>>> ending({"condition": "E2", "winners": [1]}, ["Ann", "Bob"], [3, 4], column=2)
'Game over: column 2 ran out of treasure. Bob won with 4 treasure types.'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = [
    "COLOUR_NAMES",
    "END_WORDS",
    "action_words",
    "board_text",
    "breakdown",
    "choice_words",
    "ending",
    "primer",
    "prompt",
    "space_words",
    "tile_words",
    "turn_words",
]

#: the colours' names (js/submarine/tiles.js draws the same names with a letter and a symbol)
COLOUR_NAMES: dict[str, str] = {"K1": "red", "K2": "yellow", "K3": "green", "K4": "blue", "K5": "purple"}

#: why a game ended (SUBMARINE.md §7.1), completing "Game over: ..."
END_WORDS: dict[str, str] = {
    "E1": "{who} filled all 12 slots of the collection board",
    "E2": "{column} ran out of treasure",
    "E3": "nobody has a search card left",
    "E4": "no treasure can ever be collected again (no card of a colour still on the board, and no jokers)",
    "E5": "the turn limit of {limit} turns was reached",
}


def colour_words(k: str) -> str:
    """``"K3"`` -> ``"green"``."""
    return COLOUR_NAMES.get(k, "unknown")


def tile_words(name: str) -> str:
    """``"T07K3"`` -> ``"green treasure 7"``; ``"SHK2"`` -> ``"yellow shell"``."""
    if name.startswith("SH"):
        return f"{colour_words(name[2:])} shell"
    return f"{colour_words(name[3:])} treasure {int(name[1:3])}"


def space_words(space: str) -> str:
    """``"5.3"`` -> ``"column 5, depth 3"``."""
    c, _, d = space.partition(".")
    return f"column {c}, depth {d}"


def _short_space(space: str) -> str:
    c, _, d = space.partition(".")
    return f"col {c}, depth {d}"


def _position(pos: str) -> str:
    if pos == "start":
        return "the start"
    if pos == "end":
        return "the end"
    return f"column {pos}"


def _owed(v: Mapping[str, Any], seat: int, space: str) -> list[int]:
    """Who is paid (one entry per card) when ``seat`` collects at ``space`` with a card: the
    other seats' bathyscaphes in that space or above it in the column (SUBMARINE.md §6.5), in
    seat order from the collector's left."""
    col, _, depth = space.partition(".")
    per_bath = v["options"]["payment_basis"] == "per_bathyscaphe"
    n = len(v["players"])
    out: list[int] = []
    for i in range(1, n):
        q = (seat + i) % n
        k = 0
        for b in v["bathyscaphes"][q]:
            if b is None:
                continue
            bc, _, bd = str(b).partition(".")
            if bc == col and int(bd) <= int(depth):
                k += 1
        if k:
            out.extend([q] * (k if per_bath else 1))
    return out


def _payees(owed: Sequence[int], players: Sequence[str]) -> str:
    counts: dict[int, int] = {}
    for q in owed:
        counts[q] = counts.get(q, 0) + 1
    parts = [f"{n} to {players[q]}" for q, n in counts.items()]
    return ", ".join(parts)


def _cards(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def action_words(action: str, v: Mapping[str, Any]) -> dict[str, str]:
    """A legal action of the seat to move in the view ``v``: ``say`` (a sentence, for a screen
    reader and a tooltip), ``short`` (a button's text) and ``group`` (the heading its button
    goes under)."""
    p = action.split()
    seat = int(v["active"])
    players = list(v["players"])
    kind = p[0]
    if kind == "place":
        return {"say": f"Place a bathyscaphe in column {p[1]}, depth 1", "short": "Place", "group": "Place"}
    if kind == "sail":
        here = _position(str(v["ships"][seat]))
        if p[1] == "end":
            return {
                "say": f"Move your submarine from {here} off the board to the end, where it waits",
                "short": "Sail to the end",
                "group": "Sail",
            }
        return {
            "say": f"Move your submarine from {here} to column {p[1]}",
            "short": f"Sail to column {p[1]}",
            "group": "Sail",
        }
    if kind == "mode":
        if p[1] == "move":
            return {
                "say": "Move the bathyscaphes under your submarine this turn",
                "short": "Move them",
                "group": "This turn",
            }
        return {
            "say": "Collect treasure with the bathyscaphes under your submarine this turn",
            "short": "Collect",
            "group": "This turn",
        }
    if kind == "collect":
        space, tile = p[1], p[2]
        where = space_words(space)
        if p[3] == "joker":
            joker = tile_words(p[4])
            return {
                "say": f"Collect the {tile_words(tile)} at {where}, paying with your {joker} as a joker",
                "short": f"{tile_words(tile)}, joker: {joker}",
                "group": f"Collect at {where}",
            }
        colour = colour_words(tile[3:])
        owed = _owed(v, seat, space)
        extra = f", and {_cards(len(owed))} from your pile ({_payees(owed, players)})" if owed else ""
        short_extra = f" + {_payees(owed, players)}" if owed else ""
        return {
            "say": f"Collect the {tile_words(tile)} at {where}, paying a {colour} card{extra}",
            "short": f"{tile_words(tile)}, pay a {colour} card{short_extra}",
            "group": f"Collect at {where}",
        }
    if kind == "move":
        return {
            "say": f"Move your bathyscaphe from {space_words(p[1])} to {space_words(p[2])}",
            "short": f"to {_short_space(p[2])}",
            "group": f"Move the bathyscaphe at {space_words(p[1])}",
        }
    if kind == "exchange":
        colour = colour_words(p[1])
        return {
            "say": f"Put a {colour} card from your hand under your pile and take the pile's top card",
            "short": f"Swap a {colour} card",
            "group": "While you wait",
        }
    if kind == "pass":
        return {"say": "Pass: keep your hand as it is", "short": "Pass", "group": "While you wait"}
    if kind == "end":
        step = (v.get("step") or {}).get("mode")
        if step == "collect":
            return {"say": "Stop collecting and end your turn", "short": "Stop collecting", "group": "Done"}
        return {
            "say": "End your turn (the bathyscaphes that have not acted stay where they are)",
            "short": "End the turn",
            "group": "Done",
        }
    return {"say": action, "short": action, "group": "Other"}


def choice_words(action: Any, view: Any) -> str:
    """A legal action as the seat to move says it, from its view (the game's words in the
    registry: a bot's explanation and the table say its choices so).

    >>> from dsa_widget.submarine.rules import SubmarineGame
    >>> g = SubmarineGame(["Ann", "Bob"], seed=1, options={"start_player": 0})
    >>> choice_words("place 3", g.view(0))
    'place a bathyscaphe in column 3, depth 1'
    """
    if not isinstance(action, str):
        return repr(action)
    say = action_words(action, view.to_dict())["say"]
    return say[:1].lower() + say[1:]


def _to_place(v: Mapping[str, Any]) -> int:
    return sum(b is None for bs in v["bathyscaphes"] for b in bs)


def turn_words(v: Mapping[str, Any]) -> str:
    """The turn under way as a player counts it: the placement of the bathyscaphes is not a
    turn of play (the prompt says how many are still to place), so the first turn of play is
    turn 1; ``""`` while placing and at the end.

    >>> turn_words({"phase": "place", "play_turns": 0}), turn_words({"phase": "sail", "play_turns": 0})
    ('', 'turn 1')
    """
    if v.get("result") or v["phase"] == "place":
        return ""
    return f"turn {int(v['play_turns']) + 1}"


def prompt(v: Mapping[str, Any]) -> str:
    """What the seat to move is doing, in words (from the view ``v``; "Your turn" when it is
    the view's own seat)."""
    players = list(v["players"])
    if v.get("result"):
        return "The game is over."
    actor = int(v["active"])
    mine = v.get("seat") == actor
    who = "Your turn" if mine or players[actor] == "You" else f"{players[actor]}'s turn"
    your = "your" if mine else "their"
    phase = v["phase"]
    if phase == "place":
        n = _to_place(v)
        return f"{who}: place a bathyscaphe in the top row (depth 1). {n} still to place."
    if phase == "sail":
        return (
            f"{who}: move {your} submarine to the right, above a column holding one of {your} "
            "bathyscaphes, or to the end."
        )
    col = str(v["ships"][actor])
    if phase == "mode":
        return f"{who}: the bathyscaphes under column {col} either all move or collect treasure."
    if phase == "step":
        mode = (v.get("step") or {}).get("mode")
        if mode == "move":
            return (
                f"{who}: move each bathyscaphe under column {col} one row up, down or across, to any column."
            )
        if mode == "collect":
            return (
                f"{who}: collect treasure from the spaces of {your} bathyscaphes under column {col}, or stop."
            )
        return f"{who}: each bathyscaphe under column {col} may move, collect or rest."
    if phase == "wait":
        return f"{who}: {your} submarine waits at the end; swap one card with {your} pile, or pass."
    return f"{who}."


def _and(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " and " + names[-1]


def _or(names: Sequence[str]) -> str:
    names = list(names)
    if len(names) <= 1:
        return "".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def _types(n: int) -> str:
    return f"{n} treasure type" if n == 1 else f"{n} treasure types"


def ending(
    result: Mapping[str, Any],
    players: Sequence[str],
    scores: Sequence[int],
    *,
    column: int | None = None,
    limit: int | None = None,
) -> str:
    """ "Game over: <why>. <who> won with <n> treasure types." (``column``: the column that
    emptied, for E2; ``limit``: the turn limit, for E5)."""
    cond = str(result["condition"])
    winners = [int(q) for q in result["winners"]]
    first = players[winners[0]] if winners else "a player"
    why = END_WORDS.get(cond, "the game ended").format(
        who=first, column=f"column {column}" if column else "a column", limit=limit
    )
    names = _and([players[q] for q in winners])
    best = scores[winners[0]] if winners else 0
    if len(winners) > 1:
        won = f"{names} share the win with {_types(best)} each."
    else:
        won = f"{names} won with {_types(best)}."
    return f"Game over: {why}. {won}"


def breakdown(v: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per player, what scored how much (SUBMARINE.md §7.2): each distinct treasure type on the
    player's board scores 1; held jokers (shells and duplicates) score nothing."""
    players = list(v["players"])
    winners = set((v.get("result") or {}).get("winners") or [])
    out = []
    for q, name in enumerate(players):
        slots = sorted(v["slots"][q], key=lambda t: int(t[1:3]))
        jokers = list(v["held_jokers"][q])
        lines = [f"{tile_words(t)}: 1" for t in slots]
        if jokers:
            lines.append(f"{_and([tile_words(t) for t in jokers])} held as jokers: 0")
        out.append(
            {
                "seat": q,
                "name": name,
                "score": int(v["scores"][q]),
                "winner": q in winners,
                "lines": lines,
                "text": f"{name}: {_types(len(slots))}, {len(slots)} points"
                + (f" ({', '.join(lines)})" if lines else ""),
            }
        )
    return out


def primer(options: Mapping[str, Any], players: int) -> list[list[str]]:
    """The rules on one screen, as ``[heading, text]`` pairs, for the rule options in force and
    ``players`` players (SUBMARINE.md, in short)."""
    n = str(players)
    per_colour = 12 if options["deck"] == "60" else 15
    cards = options["cards_per_player"][n]
    baths = options["bathyscaphes_per_player"][n]
    start = (
        "a player picked at random"
        if options["start_player"] == "random"
        else f"player {int(options['start_player']) + 1}"
    )
    end_rule = (
        "You may always sail off the right edge instead."
        if options["end_always_allowed"]
        else "You sail off the right edge only when no column ahead holds one of yours."
    )
    if options["activation_mode"] == "uniform":
        step = (
            "Then the bathyscaphes right under your submarine act, all the same way: either "
            + (
                "every one of them moves"
                if options["uniform_move_all"]
                else "at least one of them moves (the others may stay)"
            )
            + " (one row up or down or the same row, to any column, never staying put), or they "
            "collect treasure from their spaces, one tile after another."
        )
    else:
        step = (
            "Then each bathyscaphe right under your submarine either moves (one row up or down or "
            "the same row, to any column, never staying put), or collects treasure from its "
            "space, or rests; at least one must act."
        )
    pay = (
        "one card for each opponent bathyscaphe"
        if options["payment_basis"] == "per_bathyscaphe"
        else "one card for each opponent with a bathyscaphe"
    )
    where = "on top of" if options["payment_destination"] == "top" else "under"
    short = {
        "forbid": "If your pile cannot cover the payment, you cannot collect that tile with a card.",
        "pay_what_you_can": "If your pile runs short, you pay what it holds and the rest is let off.",
        "use_hand": "If your pile runs short, the rest is paid from your hand.",
    }[options["payment_shortfall"]]
    joker_tiles = (
        "A spent joker stays on the board and can be collected like a treasure of its colour."
        if options["board_jokers"] == "collectable"
        else "A spent joker stays on the board and cannot be collected."
    )
    wait = "From the turn it arrives" if options["exchange_on_arrival"] else "From the next turn on"
    ends = [
        "someone fills all 12 slots (they win at once)",
        "a column has no treasure left",
        "no search card is left anywhere",
    ]
    if options["dead_position_end"]:
        ends.append("nobody can ever collect again")
    if options["turn_limit"]:
        ends.append(f"{options['turn_limit']} turns have been played")
    tie = {
        "shared": "Tied players share the win.",
        "most_held_jokers": "A tie goes to the most jokers still held, else it is shared.",
        "most_cards": "A tie goes to the most cards left in hand and pile, else it is shared.",
    }[options["tie_rule"]]
    return [
        [
            "Goal",
            "Collect as many different treasure types as you can: there are 12 types, each in 5 "
            "colours, lying face up in a sea of 6 columns and 4 depths. Each different type on "
            "your collection board scores 1 point.",
        ],
        [
            "Set-up",
            f"Each player gets {baths} bathyscaphes, a shell (a joker) and a face-down pile of "
            f"{cards} search cards from a deck of {per_colour * 5} ({per_colour} of each colour); "
            f"you hold the top 3 in your hand. Nobody, you included, sees the order of any pile. "
            f"Starting with {start}, players take turns placing bathyscaphes in the top row.",
        ],
        [
            "Your turn",
            f"Move your submarine right along the surface, to a column with one of your "
            f"bathyscaphes below it. {end_rule} {step}",
        ],
        [
            "Collecting",
            f"Pay for a treasure with a card of its colour from your hand (it leaves the game), "
            f"and pay {pay} in that space or above it in the column: those cards come from the top "
            f"of your pile, unseen, and go {where} their owners' piles. {short} Or pay with a "
            f"joker instead, at no further cost. {joker_tiles} A type you already have becomes "
            f"a joker instead of scoring. At the end of your turn you draw back up to 3 cards.",
        ],
        [
            "Waiting",
            f"A submarine that sailed off the right edge waits. {wait}, its owner may swap one "
            "card from the hand for the top of their pile (the card goes under the pile), or "
            "pass. When every submarine waits, all go back to the start.",
        ],
        ["The end", f"The game ends when {_or(ends)}. Most treasure types wins. {tie}"],
    ]


#: a colour's letter in :func:`board_text`: its name's first (R, Y, G, B, P)
_LETTER = {k: name[0].upper() for k, name in COLOUR_NAMES.items()}


def _tile_code(name: str) -> str:
    """``"T07K3"`` -> ``"7G"``; a shell ``"SHK2"`` -> ``"sY"``."""
    if name.startswith("SH"):
        return "s" + _LETTER.get(name[2:], "?")
    return f"{int(name[1:3])}{_LETTER.get(name[3:], '?')}"


def board_text(v: Mapping[str, Any]) -> str:
    """The sea as lines of text, from a view's dict (what that view's seat may know; the public
    view, ``view(None)``, is what the adapters' ``ansi`` picture shows): who is to move, the
    ships, every space's treasure and bathyscaphes by depth and column, then a line per player.

    >>> from dsa_widget.submarine.rules import SubmarineGame
    >>> g = SubmarineGame(["Ann", "Bob"], seed=1, options={"start_player": 0})
    >>> g.apply("place 3")
    >>> print(board_text(g.view(None).to_dict()).splitlines()[0])
    Submarine: Bob's turn: place a bathyscaphe in the top row (depth 1). 9 still to place.
    """
    players = [str(p) for p in v["players"]]
    result = v.get("result")
    if result:
        head = ending(result, players, list(v["scores"]))
    else:
        head = prompt(v) + (f" ({turn_words(v)})" if turn_words(v) else "")
    where: dict[str, list[str]] = {}
    for q, spaces in enumerate(v["bathyscaphes"]):
        for space in spaces:
            if space is not None:
                where.setdefault(str(space), []).append("ABCDE"[q])
    tiles = v["tiles"]
    cells = {
        (c, d): " ".join(
            [_tile_code(t) for t in tiles.get(f"{c}.{d}", [])] + ["".join(where.get(f"{c}.{d}", []))]
        ).strip()
        or "."
        for c in range(1, 7)
        for d in range(1, 5)
    }
    width = max(len(x) for x in cells.values()) + 2
    ships = ", ".join(f"{'ABCDE'[q]} {_position(str(pos))}" for q, pos in enumerate(v["ships"]))
    lines = [
        f"Submarine: {head}",
        f"ships: {ships}",
        "column  " + "".join(f"{c:<{width}}" for c in range(1, 7)).rstrip(),
    ]
    for d in range(1, 5):
        lines.append(f"depth {d} " + "".join(f"{cells[c, d]:<{width}}" for c in range(1, 7)).rstrip())
    for q, name in enumerate(players):
        held = len(v["held_jokers"][q])
        lines.append(
            f"{'ABCDE'[q]} {name}: score {v['scores'][q]}, {v['hand_counts'][q]} cards in hand, "
            f"{v['pile_sizes'][q]} in the pile, {held} joker{'s' * (held != 1)} held, collected "
            + (" ".join(_tile_code(t) for t in v["slots"][q]) or "nothing")
        )
    lines.append("(7G: the green treasure 7, sY: a yellow shell; A-E: a player's bathyscaphes)")
    return "\n".join(lines)
