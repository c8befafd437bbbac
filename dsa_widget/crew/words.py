"""The Crew's actions in a player's words (the game's words in the registry): a bot's
explanation and the table say its choices so.  They read only the acting seat's view.

>>> card_words("P3"), card_words("S4")
('pink 3', 'submarine 4')
>>> choice_words("comm B7 top"), choice_words("take 17"), choice_words("no distress")
('communicate blue 7 as its highest blue', 'take task 17', 'do not ask for the distress signal')
"""

from __future__ import annotations

from typing import Any

__all__ = ["card_words", "choice_words"]

#: the suits' names (js/crew/cards.js shows the same names with a symbol)
SUIT_NAMES = {"P": "pink", "Y": "yellow", "B": "blue", "G": "green", "S": "submarine"}
#: what a communication token's position says of the card
_POSITION = {"top": "highest", "middle": "only", "bottom": "lowest"}
_PLAIN = {
    "timed": "play against the clock",
    "untimed": "play without the clock",
    "pass": "pass",
    "confirm": "confirm the proposal",
    "reject": "reject the proposal",
    "keep": "keep the tasks",
    "accept": "accept the tasks",
    "decline": "decline the tasks",
    "yes": "volunteer",
    "no": "do not volunteer",
    "no distress": "do not ask for the distress signal",
    "distress cw": "ask for the distress signal, passing cards clockwise",
    "distress ccw": "ask for the distress signal, passing cards counter-clockwise",
    "agree": "agree to the distress signal",
    "refuse": "refuse the distress signal",
    "unavoidable": "vote that the failure was unavoidable",
    "avoidable": "vote that the failure was avoidable",
    "timeout": "let the clock run out",
}


def card_words(card: str) -> str:
    """``"P3"`` -> ``"pink 3"``; anything else as it is."""
    suit = SUIT_NAMES.get(card[:1])
    return f"{suit} {card[1:]}" if suit and card[1:].isdigit() else card


def _seat(view: Any, text: str) -> str:
    players = getattr(view, "players", None) or ()
    q = int(text)
    return str(players[q]) if q < len(players) else f"seat {q}"


def choice_words(action: Any, view: Any = None) -> str:
    """An action of The Crew as the seat to move says it (a verb phrase)."""
    if not isinstance(action, str):
        return repr(action)
    if action in _PLAIN:
        return _PLAIN[action]
    verb, _, rest = action.partition(" ")
    parts = rest.split()
    if verb == "play" and parts:
        return f"play {card_words(parts[0])}"
    if verb == "comm" and parts:
        said = card_words(parts[0])
        where = _POSITION.get(parts[1]) if len(parts) > 1 else None
        return f"communicate {said} as its {where} {said.split()[0]}" if where else f"communicate {said}"
    if verb == "take" and rest.isdigit():
        return f"take task {rest}"
    if verb == "give" and rest.isdigit():
        return f"give the tasks to {_seat(view, rest)}"
    if verb == "give" and parts:
        return f"pass {card_words(parts[0])} on (distress)"
    if verb == "predict" and rest.isdigit():
        return f"predict {rest} trick" + ("" if rest == "1" else "s")
    if verb == "propose" and parts:
        deals = [p.partition(":") for p in parts]
        return "propose " + ", ".join(
            f"task {t} to {_seat(view, q)}" for t, _, q in deals if t.isdigit() and q.isdigit()
        )
    return repr(action)
