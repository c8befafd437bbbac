"""The event log in words.

Every :class:`~dsa_widget.deep_sea.rules.Game` keeps a list of events (``game.events``),
each a small JSON-friendly dict with a ``type``:

============ ===============================================================
type         keys
============ ===============================================================
round_start  round, air, first
turn         turn (0-based count of turns before it), round, seat
breathe      seat, items, air (after breathing; may be <= 0)
turn_back    seat, forced
roll         seat, dice, items, steps (spaces to move, before jumps)
move         seat, from, to, heading, spaces (each space landed on, in order;
             0 = the submarine), jumped (spaces skipped over another diver), home
take         seat, space, item (levels of the chips taken)
drop         seat, space, index, item (levels)
round_end    round, air, air_ran_out
bank         seat, chips ([level, value] each: banking reveals them)
sink         seat, chips (levels)
game_over    scores, winners
============ ===============================================================

>>> describe({"type": "roll", "seat": 0, "dice": [2, 3], "items": 1, "steps": 4}, ["Ann", "Bob"])
'Ann rolls 2 + 3 = 5, carries 1 item: 4 spaces'
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

__all__ = ["describe", "narrate"]

_LEVEL_NAMES = {1: "level-1", 2: "level-2", 3: "level-3", 4: "level-4"}


def _item(levels: Sequence[int]) -> str:
    if len(levels) == 1:
        return f"a {_LEVEL_NAMES.get(levels[0], 'level-?')} chip"
    return "a stack of " + "+".join(str(x) for x in levels)


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


# A player called "You" (the example notebooks' human seat) gets the second person.
_SECOND_PERSON = {
    "breathes": "breathe",
    "must": "must",
    "turns": "turn",
    "rolls": "roll",
    "carries": "carry",
    "cannot": "cannot",
    "swims": "swim",
    "picks": "pick",
    "puts": "put",
    "banks": "bank",
    "drops": "drop",
}


def _you(sentence: str, who: str) -> str:
    if who.strip().lower() != "you" or not sentence.startswith(who + " "):
        return sentence
    words = sentence.split(" ")
    words[1] = _SECOND_PERSON.get(words[1], words[1])
    return " ".join(w if w != "carries" else "carry" for w in words)


def describe(event: Mapping[str, Any], players: Sequence[str]) -> str | None:
    """One event as a sentence (``None`` for bookkeeping events).

    >>> describe({"type": "take", "seat": 0, "space": 3, "item": [2]}, ["You", "Bot"])
    'You pick up a level-2 chip on space 3'
    >>> describe({"type": "round_start", "round": 1, "air": 25, "first": 0}, ["You", "Bot"])
    'Round 1 starts with 25 air; You go first.'
    """
    who = players[event["seat"]] if "seat" in event else ""
    s = _describe(event, players, who)
    return _you(s, who) if s and who else s


def _describe(event: Mapping[str, Any], players: Sequence[str], who: str) -> str | None:
    t = event["type"]
    if t == "round_start":
        first = players[event["first"]]
        go = "go" if first.strip().lower() == "you" else "goes"
        return f"Round {event['round']} starts with {event['air']} air; {first} {go} first."
    if t == "turn":
        return None
    if t == "breathe":
        if not event["items"]:
            return None
        return f"{who} breathes {event['items']} air (air now {max(0, event['air'])})" + (
            " — the air has run out: last turn of the round" if event["air"] <= 0 else ""
        )
    if t == "turn_back":
        return f"{who} must turn back: no free space deeper" if event["forced"] else f"{who} turns back"
    if t == "roll":
        d1, d2 = event["dice"]
        load = f", carries {_plural(event['items'], 'item')}" if event["items"] else ""
        return f"{who} rolls {d1} + {d2} = {d1 + d2}{load}: {_plural(event['steps'], 'space')}"
    if t == "move":
        if event["from"] == event["to"]:
            return f"{who} cannot move"
        jumps = f", jumping over {_plural(len(event['jumped']), 'diver')}" if event["jumped"] else ""
        if event["home"]:
            return f"{who} swims back to the submarine{jumps} — safe"
        start = event["from"] or "the submarine"
        return f"{who} swims {event['heading']} from {start} to space {event['to']}{jumps}"
    if t == "take":
        return f"{who} picks up {_item(event['item'])} on space {event['space']}"
    if t == "drop":
        return f"{who} puts down {_item(event['item'])} on space {event['space']}"
    if t == "round_end":
        why = "the air ran out" if event["air_ran_out"] else "every diver is back"
        return f"Round {event['round']} ends: {why}."
    if t == "bank":
        chips = event["chips"]
        if any(len(c) < 2 or c[1] == "?" for c in chips):
            return f"{who} banks {_plural(len(chips), 'chip')} (values hidden)"
        vals = ", ".join(str(c[1]) for c in chips)
        return f"{who} banks {_plural(len(chips), 'chip')}: {vals} = {sum(c[1] for c in chips)} points"
    if t == "sink":
        return f"{who} drops {_plural(len(event['chips']), 'chip')} to the bottom of the sea"
    if t == "game_over":
        scores = ", ".join(f"{players[i]} {s}" for i, s in enumerate(event["scores"]))
        if not event["winners"]:
            return f"Game over. Scores {scores}."
        names = " and ".join(players[s] for s in event["winners"])
        return f"Game over. Scores {scores}. {names} win{'s' if len(event['winners']) == 1 else ''}."
    return None


def narrate(events: Sequence[Mapping[str, Any]], players: Sequence[str]) -> list[str]:
    """The sentences of :func:`describe` for a list of events, skipping bookkeeping."""
    out = []
    for e in events:
        s = describe(e, players)
        if s:
            out.append(s)
    return out
