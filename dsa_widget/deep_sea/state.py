"""The JSON state the widget syncs to the browser, built from a :class:`~dsa_widget.deep_sea.rules.Game`.

Pure functions, no widget or kernel needed, so the exact bytes that leave
Python can be tested.  The front end draws *only* from this dict.

Hidden information: a chip's value is sent only when the viewer may know it
(a banked chip under ``reveal="public"``, the viewer's own banked chips
under ``reveal="owner"``, everything once the game is over) or when
``reveal_all=True`` (the teaching switch).  Otherwise a chip is ``[level]``.

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], seed=1)
>>> s = build_state(g, seats=["human", "random"], seq=1)
>>> s["step"], s["current"], s["legal"], s["path"][:3]
('roll', 0, ['roll'], [[[1]], [[1]], [[1]]])
>>> g.roll((2, 3)); g.apply("take")
>>> s = build_state(g, seats=["human", "random"], seq=2)
>>> s["divers"][0]["items"], s["path"][4]        # carried and blank: no values
([[[1]]], 0)
>>> build_state(g, seats=["human", "random"], seq=3, reveal_all=True)["divers"][0]["items"][0][0][0] == 1
True
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from .events import narrate

if TYPE_CHECKING:
    from .rules import Game

__all__ = [
    "EVENT_TAIL",
    "LOG_TAIL",
    "build_state",
    "known_values",
    "mask_event",
    "setup_summary",
    "state_bytes",
]

#: how many sentences of the turn log travel with each state
LOG_TAIL = 40
#: at most this many new events travel with one state (for animation)
EVENT_TAIL = 40

SCHEMA = 1


def known_values(game: Game, viewer: int | None, reveal_all: bool = False) -> dict[int, int]:
    """The chip ids (index in the setup path) whose value the screen may show.

    ``viewer`` is the seat looking at the screen (``None``: a shared
    screen, which sees only what every player may see).

    >>> from dsa_widget import Game
    >>> g = Game(players=2, path=[(1, 0), (2, 5)], rounds=2)
    >>> known_values(g, None), len(known_values(g, None, reveal_all=True))
    ({}, 2)
    """
    if reveal_all:
        return {c: game.chip(c)[1] for c in range(len(game.setup.path))}
    if viewer is not None:
        return dict(game.view(viewer).known)
    public = game.setup.options.reveal == "public" or game.is_over
    if not public:
        return {}
    out: dict[int, int] = {}
    for chips in game.view(0).banked:
        for c in chips:
            out[c] = game.chip(c)[1]
    return out


def _chip(c: int, levels: Sequence[int], known: Mapping[int, int]) -> list[int]:
    v = known.get(c)
    return [levels[c]] if v is None else [levels[c], v]


def _item(item: Iterable[int], levels: Sequence[int], known: Mapping[int, int]) -> list[list[int]]:
    return [_chip(c, levels, known) for c in item]


def mask_event(event: Mapping[str, Any], visible_seats: set[int] | None) -> dict[str, Any]:
    """A copy of ``event`` safe to send: a ``bank`` event keeps its values only
    for seats in ``visible_seats`` (``None``: all)."""
    e = dict(event)
    if e.get("type") == "bank" and visible_seats is not None and e["seat"] not in visible_seats:
        e["chips"] = [[c[0], "?"] for c in e["chips"]]
    return e


def mask_branch_event(event: Mapping[str, Any], reveal_all: bool) -> dict[str, Any]:
    """A what-if branch's event, safe to send: the branch plays on with the real
    game's hidden values, so what it banks (and its final scores) stay hidden
    unless ``reveal_all``."""
    e = dict(event)
    if reveal_all:
        return e
    if e.get("type") == "bank":
        e["chips"] = [[c[0], "?"] for c in e["chips"]]
    elif e.get("type") == "game_over" and "scores" in e:
        e["scores"] = ["?" for _ in e["scores"]]
        e["winners"] = []  # the winner follows from the hidden values
    return e


def _visible_bank_seats(game: Game, viewer: int | None, reveal_all: bool) -> set[int] | None:
    if reveal_all or game.setup.options.reveal == "public" or game.is_over:
        return None
    return set() if viewer is None else {viewer}


def setup_summary(game: Game, *, reveal_all: bool = False) -> dict[str, Any]:
    """The setup as the setup panel pre-fills it, without chip values.

    The seed is sent only when every value may be shown (``reveal_all``): it rebuilds the
    shuffled path and the dice, so it would give every hidden value away, even after the game
    ends (chips never banked stay hidden then).

    >>> from dsa_widget import Game
    >>> g = Game(players=2, seed=42)
    >>> setup_summary(g)["seed"], setup_summary(g)["seeded"], setup_summary(g, reveal_all=True)["seed"]
    (None, True, 42)
    """
    s = game.setup
    hit = _SUMMARIES.get((id(s), reveal_all))
    if hit is None or hit[0] is not s:
        if len(_SUMMARIES) >= 64:
            _SUMMARIES.clear()
        summary = {
            "players": list(s.players),
            "air": s.air,
            "rounds": s.rounds,
            "first_player": s.first_player,
            "seed": s.seed if reveal_all else None,
            "seeded": s.seed is not None,
            "custom_path": is_custom_path(s.path),
            "path_levels": "".join(str(c[0]) for c in s.path),
            "options": s.options.to_dict(),
        }
        hit = _SUMMARIES[(id(s), reveal_all)] = (s, summary)
    # a copy the caller may change (its lists and options too): the cached one stays as built
    out = dict(hit[1])
    out["players"] = list(out["players"])
    out["options"] = dict(out["options"])
    return out


#: ``(id(setup), reveal_all)`` -> ``(setup, summary)``: a setup never changes, and every screen
#: of a game (every viewer, every change) carries its summary; the setup is held, so its id
#: names it while it is here (a few games at once: cleared when it grows past 64)
_SUMMARIES: dict[tuple[int, bool], tuple[Any, dict[str, Any]]] = {}


def is_custom_path(path: Sequence[Sequence[int]]) -> bool:
    """True unless ``path`` is the 32 standard chips, each level shuffled on its own."""
    from .setup import STANDARD_CHIPS

    if len(path) != len(STANDARD_CHIPS):
        return True
    return any(a[0] != b[0] for a, b in zip(path, STANDARD_CHIPS, strict=False)) or sorted(
        map(tuple, path)
    ) != sorted(STANDARD_CHIPS)


def _board(game: Game, v: Any, known: Mapping[int, int]) -> tuple[list[Any], ...]:
    """The board of ``game`` (its public view ``v``) showing the chip values of ``known``:
    path, divers, banked chips, scores (``None`` where a banked value is hidden)."""
    levels = v.levels
    path: list[Any] = []
    for x in v.path[1:]:
        path.append(0 if x is None else _item(x, levels, known))
    n = len(v.players)
    divers = []
    for q in range(n):
        divers.append(
            {
                "pos": v.positions[q],
                "up": v.heading_up[q],
                "home": v.returned[q],
                "items": [_item(it, levels, known) for it in v.carrying[q]],
            }
        )
    banked = [[_chip(c, levels, known) for c in v.banked[q]] for q in range(n)]
    scores: list[int | None] = []
    true_scores = game.scores
    for q in range(n):
        scores.append(true_scores[q] if all(c in known for c in v.banked[q]) else None)
    return path, divers, banked, scores


def build_state(
    game: Game,
    *,
    seats: Sequence[str],
    seq: int,
    reveal_all: bool = False,
    viewer: int | None = None,
    new_events: Sequence[Mapping[str, Any]] = (),
    log: Sequence[str] = (),
    log_total: int | None = None,
    paused: bool = False,
    bot_delay: int = 600,
    known: Mapping[int, int] | None = None,
    boards: dict[Any, Any] | None = None,
) -> dict[str, Any]:
    """The synced ``state`` dict of the widget (see the module docstring).

    Keys: ``v`` schema, ``seq``, ``players``, ``seats`` ("human" or a bot
    name per seat), ``round``/``rounds``, ``air``/``start_air``, ``breath`` (what the diver to move
    breathes as his turn starts, when he has not yet), ``step``,
    ``current`` (seat or ``None``), ``legal``, ``must_turn_back``,
    ``laying`` and ``sinking`` (the sink step: chips laid so far, seats still to lay),
    ``turn`` (turns completed), ``path`` (per space: ``0`` blank, else a
    list of chips ``[level]`` or ``[level, value]``), ``divers`` (``pos``,
    ``up``, ``home``, ``items``), ``banked`` (chips per seat), ``scores``
    (``None`` where unknown), ``winners``, ``over``, ``events`` (new events
    since the previous state, for animation), ``last_dice`` (the latest roll, ``[d1, d2]``, or
    ``None``), ``log`` (the last sentences
    of the turn log) and ``log_total``, ``reveal_all``, ``setup``,
    ``paused``, ``bot_delay``.  ``known`` overrides which chip values may be
    shown (what-if branches show only what the real game lets the viewer know).
    ``boards``: a memo of the board (path, divers, banked chips, scores) of this very ``game``
    by the chip values shown, for the screens of several viewers of one state (a served
    table's): viewers who may know the same values share one board, built once; the caller
    gives a new memo for another state, and nobody changes a screen's board in place.
    """
    if known is None:
        known = known_values(game, viewer, reveal_all)
    v = game.view(0)
    board = None
    if boards is not None:
        mark = tuple(sorted(known.items()))
        board = boards.get(mark)
    if board is None:
        board = _board(game, v, known)
        if boards is not None:
            boards[mark] = board
    path, divers, banked, scores = board
    vis = _visible_bank_seats(game, viewer, reveal_all)
    last_dice = game.last_dice
    events = [mask_event(e, vis) for e in list(new_events)[-EVENT_TAIL:]]
    return {
        "v": SCHEMA,
        "seq": seq,
        "players": list(v.players),
        "seats": list(seats),
        "round": v.round,
        "rounds": v.rounds,
        "air": v.air,
        # the air the diver to move breathes as his turn starts (RULES.md, step 1), not yet
        # taken off ``air`` before his first choice: the board shows the air after it
        "breath": len(v.carrying[v.current_player])
        if v.current_player is not None and not v.breathed and v.step in ("turn_back", "roll")
        else 0,
        "start_air": v.start_air,
        "step": v.step,
        "current": v.current_player,
        "legal": list(v.legal),
        "must_turn_back": v.must_turn_back,
        # the sink step: the chips the current diver laid so far (indices in pickup order, stacks
        # broken) and who else must still lay his
        "laying": list(v.laying),
        "sinking": list(v.sink_queue),
        "turn": game.turn_number,
        "path": path,
        "divers": divers,
        "banked": banked,
        "scores": scores,
        # who won follows from the values: shown only when every score may be
        "winners": list(v.winners) if None not in scores else [],
        "over": v.finished,
        "events": events,
        # the dice the header shows: this game's latest roll (the branch's in what-if)
        "last_dice": None if last_dice is None else list(last_dice),
        "log": list(log)[-LOG_TAIL:],
        "log_total": len(log) if log_total is None else log_total,
        "reveal_all": bool(reveal_all),
        "viewer": viewer,
        "setup": setup_summary(game, reveal_all=reveal_all),
        "paused": bool(paused),
        "bot_delay": int(bot_delay),
    }


def sentences(events: Iterable[Mapping[str, Any]], players: Sequence[str]) -> list[str]:
    """The turn log in words for (already masked) events."""
    return narrate(list(events), players)


def state_bytes(state: Any) -> int:
    """Size of ``state`` (a screen, or a list of them) as JSON (what one update costs on the wire, roughly).

    >>> state_bytes({"a": [1, 2]})
    11
    """
    return len(json.dumps(state, separators=(",", ":")).encode())


# ---------------------------------------------------------------------- history frames
