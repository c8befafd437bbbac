"""Submarine as fixed-size numbers for the adapters: an action numbering and an observation
built from a :class:`~dsa_widget.submarine.view.SubmarineView` only.

**Actions** (:data:`NUM_ACTIONS` numbers, the same for every setup):

=============  ========================================  ===========================
numbers        action                                    phase
=============  ========================================  ===========================
0-5            ``place C`` (C = 1..6)                    place
6-11, 12       ``sail C``, ``sail end``                  sail
13, 14         ``mode collect``, ``mode move``           mode
15             ``end``                                   step
16             ``pass``                                  wait
17-21          ``exchange K1`` .. ``exchange K5``        wait
22-357         ``move S S2`` (the 336 one-move pairs,    step
               by S then S2, column then depth)
358-422        ``collect S T card`` (T: tile id 0..64)   step
423-4647       ``collect S T joker J``: 423 + 65 T + J   step
=============  ========================================  ===========================

A tile lies in exactly one space, so a collection is numbered by its tile and its payment,
not by the space its string names: :meth:`SubmarineEncoding.index` is a function of the action
string and never gives two legal actions of one state the same number, and
:meth:`SubmarineEncoding.action` gives, for a collection, a label without the space
(``"collect T03K2 card"``).  The adapters turn a number into the legal action with that number
(:func:`dsa_widget.core.encoding.legal_action`).  Tile ids: ``T01K1`` .. ``T12K5`` are
``5 (type - 1) + colour`` (0..59), shells ``SHK1`` .. ``SHK5`` 60..64.

**Observation**: :data:`SIZE` floats, every one in ``[0, 1]`` (counts are divided by their
maximum, named in each field's meaning).  Seats are *relative* to the observer (slot 0 is the
observer, slot k the seat k places after it; a spectator observes as seat 0 without a hand),
padded to five.  Nothing hidden enters: piles, other hands and the undealt cards only as their
sizes, and the view's ``legal`` list is not read.

>>> from dsa_widget.submarine import SubmarineGame
>>> enc = SubmarineEncoding()
>>> enc.num_actions, enc.index("sail end"), enc.index("collect 3.2 T03K2 card"), enc.action(369)
(4648, 12, 369, 'collect T03K2 card')
>>> g = SubmarineGame(3, seed=1)
>>> len(enc.observe(g.view(0))) == enc.observation_size, sum(enc.mask(g.legal_actions()))
(True, 6)
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ..core.encoding import EncodingError, Field
from ..core.errors import is_int, short_repr
from .rules import COLOURS, NSPACES, NTILES, space_name, tile_name
from .view import SubmarineView

if TYPE_CHECKING:
    from .rules import SubmarineGame

__all__ = ["NUM_ACTIONS", "SIZE", "SubmarineEncoding", "SubmarineTracker"]

_SEATS = 5
_TILES = NTILES + 5  # 60 treasures, 5 shells
_PHASES = ("place", "sail", "mode", "step", "wait", "over")
_MODES = ("move", "collect", "independent")
_SHIP = ("start", "1", "2", "3", "4", "5", "6", "end")
_ACT = ("idle", "collecting", "done")
#: the spaces one move reaches from each space (SUBMARINE.md 6.3: any column, depth +-1)
_MOVES = [[t for t in range(NSPACES) if t != s and abs(t % 4 - s % 4) <= 1] for s in range(NSPACES)]

_FIXED = (
    *(f"place {c}" for c in range(1, 7)),
    *(f"sail {c}" for c in range(1, 7)),
    "sail end",
    "mode collect",
    "mode move",
    "end",
    "pass",
    *(f"exchange {k}" for k in COLOURS),
)
_MOVE_BASE = len(_FIXED)
_MOVE_LIST = tuple(f"move {space_name(s)} {space_name(t)}" for s in range(NSPACES) for t in _MOVES[s])
_CARD_BASE = _MOVE_BASE + len(_MOVE_LIST)
_JOKER_BASE = _CARD_BASE + _TILES
NUM_ACTIONS = _JOKER_BASE + _TILES * _TILES
_PLAIN = {a: i for i, a in enumerate(_FIXED + _MOVE_LIST)}

_FIELDS: tuple[tuple[str, int, str], ...] = (
    ("seat", _SEATS, "one-hot: the observer's own seat (absolute; seat 0 for a spectator)"),
    ("players", _SEATS, "1 for each relative slot the game has a seat for"),
    ("phase", len(_PHASES), "one-hot: place, sail, mode, step, wait, over"),
    ("to_move", _SEATS, "one-hot, relative slot of the seat to act (all 0 once over)"),
    ("my_turn", 1, "1 when the observer is to act"),
    ("mode", len(_MODES), "one-hot during a step: move, collect, independent"),
    ("acted", 1, "1 once the step in progress has moved or collected (``end`` may follow)"),
    ("swaps", 1, "board jokers collected with a held joker this turn / 20"),
    ("placed", 1, "bathyscaphes placed / all to place"),
    ("turns", 1, "turns played after the placement / the turn limit"),
    (
        "activated",
        3 * NSPACES,
        "by space: the acting seat's activated bathyscaphes idle, collecting, done / 5",
    ),
    ("ships", _SEATS * len(_SHIP), "per relative slot, one-hot: its ship at start, 1..6, end"),
    ("bathyscaphes", _SEATS * NSPACES, "per relative slot, by space: its bathyscaphes there / 5"),
    ("unplaced", _SEATS, "per relative slot: bathyscaphes not placed yet / 5"),
    ("board", NSPACES * _TILES, "per space, by tile id: 1 if the tile lies there"),
    ("board_jokers", _TILES, "by tile id: 1 for a joker spent on the board"),
    ("slots", _SEATS * 12, "per relative slot, by treasure type 1..12: 1 if its board holds one"),
    ("scores", _SEATS, "per relative slot: treasures on its board / 12"),
    ("held_jokers", _SEATS * _TILES, "per relative slot, by tile id: 1 for a joker it holds"),
    ("hand", len(COLOURS), "the observer's hand by colour K1..K5 / 3"),
    ("hand_counts", _SEATS, "per relative slot: cards in hand / 3"),
    ("pile_sizes", _SEATS, "per relative slot: cards in its pile / the cards in the box"),
    ("undealt", 1, "undealt cards / the cards in the box"),
    ("out_of_play", len(COLOURS), "spent cards by colour K1..K5 / the cards of a colour"),
    ("winners", _SEATS, "per relative slot: 1 for a winner once the game is over"),
    (
        "options",
        19,
        "the rule options: deck 75, independent, move all, per opponent, to the bottom, "
        "shortfall forbid / pay what you can / use hand, jokers collectable, end always allowed, "
        "exchange on arrival, dead position end, tie shared / most jokers / most cards, "
        "joker swaps / 20, turn limit / 5000, bathyscaphes / 5, cards per player / 75",
    ),
)
_OFFSETS = [sum(size for _, size, _ in _FIELDS[:i]) for i in range(len(_FIELDS) + 1)]
_AT = {name: _OFFSETS[i] for i, (name, _, _) in enumerate(_FIELDS)}
SIZE = _OFFSETS[-1]
_COL = {c: i for i, c in enumerate(COLOURS)}
_SPACE = {space_name(s): s for s in range(NSPACES)}
_TILE = {tile_name(t): t for t in range(_TILES)}


class SubmarineEncoding:
    """Submarine's numbers: one numbering and one layout for every setup (seats padded to five)."""

    num_actions = NUM_ACTIONS
    observation_size = SIZE
    layout = tuple(Field(n, o, s, m) for (n, s, m), o in zip(_FIELDS, _OFFSETS, strict=False))

    def __init__(self, state: Any = None) -> None:
        """``state`` (a game or view) is accepted for the registry's sake: no size depends on it."""

    def bounds(self) -> tuple[list[float], list[float]]:
        """Each feature's range: ``[0, 1]`` for every one (the fields are divided by their maxima)."""
        return [0.0] * SIZE, [1.0] * SIZE

    def action(self, index: int) -> str:
        """The action with this number; for a collection a label without its space."""
        if not is_int(index) or not 0 <= index < NUM_ACTIONS:
            raise EncodingError(
                f"Submarine's action numbers are 0..{NUM_ACTIONS - 1}, got {short_repr(index)}"
            )
        if index < _CARD_BASE:
            return (_FIXED + _MOVE_LIST)[index]
        if index < _JOKER_BASE:
            return f"collect {tile_name(index - _CARD_BASE)} card"
        t, j = divmod(index - _JOKER_BASE, _TILES)
        return f"collect {tile_name(t)} joker {tile_name(j)}"

    def index(self, action: Any) -> int:
        """The number of an action string (a collection's space is not part of its number)."""
        if isinstance(action, str):
            hit = _PLAIN.get(action)
            if hit is not None:
                return hit
            parts = action.split(" ")
            if parts[0] == "collect" and len(parts) in (4, 5) and parts[1] in _SPACE and parts[2] in _TILE:
                t = _TILE[parts[2]]
                if len(parts) == 4 and parts[3] == "card":
                    return _CARD_BASE + t
                if len(parts) == 5 and parts[3] == "joker" and parts[4] in _TILE:
                    return _JOKER_BASE + _TILES * t + _TILE[parts[4]]
        raise EncodingError(f"not a Submarine action: {short_repr(action)}")

    def mask(self, legal: Sequence[Any]) -> list[int]:
        out = [0] * NUM_ACTIONS
        for a in legal:
            out[self.index(a)] = 1
        return out

    def render_text(self, game: Any) -> str:
        """The adapters' ``ansi`` picture: the public sea (:func:`~dsa_widget.submarine.words.board_text`)."""
        from .words import board_text

        return board_text(game.view(None).to_dict())

    def render_rgb(self, game: Any) -> Any:
        """The adapters' ``rgb_array`` picture: the public sea as pixels
        (:func:`~dsa_widget.submarine.picture.board_rgb`)."""
        from .picture import board_rgb

        return board_rgb(game)

    def observe(self, view: SubmarineView) -> list[float]:
        """The observation of a seat's view (see the module docstring and :attr:`layout`)."""
        d = view.data
        n = len(d["players"])
        me = view.seat or 0
        opts = d["options"]
        per_colour = 12 if opts["deck"] == "60" else 15
        box = 5 * per_colour
        out = [0.0] * SIZE
        at = _AT

        def rel(q: int) -> int:
            return (q - me) % n

        out[at["seat"] + me] = 1.0
        for r in range(n):
            out[at["players"] + r] = 1.0
        phase = d["phase"]
        out[at["phase"] + _PHASES.index(phase)] = 1.0
        active = d["active"]
        over = phase == "over"
        if not over:
            out[at["to_move"] + rel(active)] = 1.0
            out[at["my_turn"]] = float(view.seat is not None and active == view.seat)
        step = d["step"]
        if step["mode"]:
            out[at["mode"] + _MODES.index(step["mode"])] = 1.0
        out[at["acted"]] = float(step["did"] > 0)
        out[at["swaps"]] = step.get("swaps", 0) / 20
        nb = int(opts["bathyscaphes_per_player"][str(n)])
        out[at["placed"]] = d["placed"] / (n * nb)
        out[at["turns"]] = min(d["play_turns"], opts["turn_limit"]) / opts["turn_limit"]
        baths = d["bathyscaphes"]
        for b, state in step["activated"].items():
            s = baths[active][int(b)]
            if s is not None:
                out[at["activated"] + 3 * _SPACE[s] + _ACT.index(state)] += 0.2
        for q in range(n):
            r = rel(q)
            out[at["ships"] + len(_SHIP) * r + _SHIP.index(d["ships"][q])] = 1.0
            for s in baths[q]:
                if s is None:
                    out[at["unplaced"] + r] += 0.2
                else:
                    out[at["bathyscaphes"] + NSPACES * r + _SPACE[s]] += 0.2
            for x in d["slots"][q]:
                out[at["slots"] + 12 * r + _TILE[x] // 5] = 1.0
            out[at["scores"] + r] = len(d["slots"][q]) / 12
            for x in d["held_jokers"][q]:
                out[at["held_jokers"] + _TILES * r + _TILE[x]] = 1.0
            out[at["hand_counts"] + r] = d["hand_counts"][q] / 3
            out[at["pile_sizes"] + r] = d["pile_sizes"][q] / box
        for name, tiles in d["tiles"].items():
            base = at["board"] + _TILES * _SPACE[name]
            for x in tiles:
                out[base + _TILE[x]] = 1.0
        for x in d["board_jokers"]:
            out[at["board_jokers"] + _TILE[x]] = 1.0
        for c in d["hand"] or ():
            out[at["hand"] + _COL[c]] += 1 / 3
        out[at["undealt"]] = d["undealt_count"] / box
        for c, k in d["out_of_play"].items():
            out[at["out_of_play"] + _COL[c]] = k / per_colour
        if d["result"] is not None:
            for q in d["result"]["winners"]:
                out[at["winners"] + rel(q)] = 1.0
        out[at["options"] : at["options"] + _NOPTIONS] = _options_block(opts, n)
        return out

    def tracker(
        self, game: SubmarineGame, new_buffer: Callable[[int], Any] | None = None
    ) -> SubmarineTracker:
        """A :class:`SubmarineTracker` of ``game``: every seat's :meth:`observe` from the game's
        public facts, the seat-independent part built once per position (``new_buffer`` is
        accepted for the adapters' sake: the tracker's buffers are numpy float32 arrays)."""
        return SubmarineTracker(game)


_NOPTIONS = 19


def _options_block(opts: Mapping[str, Any], n: int) -> list[float]:
    """The ``options`` field of a game of ``n`` seats with these (resolved) options."""
    nb = int(opts["bathyscaphes_per_player"][str(n)])
    out = [0.0] * _NOPTIONS
    flags = (
        opts["deck"] == "75",
        opts["activation_mode"] == "independent",
        opts["uniform_move_all"],
        opts["payment_basis"] == "per_opponent",
        opts["payment_destination"] == "bottom",
        opts["payment_shortfall"] == "forbid",
        opts["payment_shortfall"] == "pay_what_you_can",
        opts["payment_shortfall"] == "use_hand",
        opts["board_jokers"] == "collectable",
        opts["end_always_allowed"],
        opts["exchange_on_arrival"],
        opts["dead_position_end"],
        opts["tie_rule"] == "shared",
        opts["tie_rule"] == "most_held_jokers",
        opts["tie_rule"] == "most_cards",
    )
    for i, f in enumerate(flags):
        out[i] = float(f)
    out[15] = opts["joker_swaps_per_turn"] / 20
    out[16] = opts["turn_limit"] / 5000
    out[17] = nb / 5
    out[18] = int(opts["cards_per_player"][str(n)]) / 75
    return out


#: ``k`` added ``k`` times, as the reference observation accumulates counts (0.2 per
#: bathyscaphe, 1/3 per card), so that both give the same floats
_FIFTHS = [0.0]
_THIRDS = [0.0]
for _ in range(40):
    _FIFTHS.append(_FIFTHS[-1] + 0.2)
    _THIRDS.append(_THIRDS[-1] + 1 / 3)
#: the per-slot fields (name, width of a slot): a seat's observation is the seat-independent
#: one with these rotated (slot ``r`` of seat ``me`` is seat ``(me + r) % n``)
_PER_SLOT = (
    ("players", 1),
    ("to_move", 1),
    ("ships", len(_SHIP)),
    ("bathyscaphes", NSPACES),
    ("unplaced", 1),
    ("slots", 12),
    ("scores", 1),
    ("held_jokers", _TILES),
    ("hand_counts", 1),
    ("pile_sizes", 1),
    ("winners", 1),
)


@functools.lru_cache(maxsize=32)
def _rotation(n: int, me: int) -> Any:
    """The index array taking the seat-independent observation (slots by absolute seat) to seat
    ``me``'s (slots relative to it); shared, read only."""
    import numpy as np

    perm = np.arange(SIZE)
    for name, width in _PER_SLOT:
        base = _AT[name]
        for r in range(n):
            q = (me + r) % n
            perm[base + width * r : base + width * (r + 1)] = range(base + width * q, base + width * (q + 1))
    return perm


class SubmarineTracker:
    """Every seat's :meth:`SubmarineEncoding.observe` of one live game, fast: the same numbers.

    The game's :meth:`~dsa_widget.submarine.rules.SubmarineGame.public_facts` (public only:
    hand and pile *sizes*) are read at each call; when they changed, the seat-independent
    observation (every per-slot field by absolute seat, the board's tiles kept by their layout)
    is written once; a seat's observation is then that one with its slots rotated to the seat,
    plus its own fields: its seat, whether it is to act, and its own hand (the only hidden
    value it reads, :meth:`~dsa_widget.submarine.rules.SubmarineGame.hand_counts` of that seat).

    >>> import numpy as np
    >>> from dsa_widget.submarine import SubmarineGame
    >>> g = SubmarineGame(3, seed=1)
    >>> enc = SubmarineEncoding()
    >>> t = enc.tracker(g)
    >>> g.apply(g.legal_actions()[0])
    >>> all(np.array_equal(t.observe(s), np.float32(enc.observe(g.view(s)))) for s in range(3))
    True
    """

    def __init__(self, game: SubmarineGame) -> None:
        import numpy as np

        self.game = game
        n = game.seats
        self._n = n
        opts = game.options
        self._nb = int(opts["bathyscaphes_per_player"][str(n)])
        self._box = 5 * (12 if opts["deck"] == "60" else 15)
        self._per_colour = 12 if opts["deck"] == "60" else 15
        self._limit = opts["turn_limit"]
        self._base = np.zeros(SIZE, np.float32)
        self._base[_AT["options"] : _AT["options"] + _NOPTIONS] = _options_block(opts, n)
        for r in range(n):
            self._base[_AT["players"] + r] = 1.0
        self._rot = [_rotation(n, me) for me in range(n)]
        self._facts: Any = None
        self._common = self._base.copy()
        self._boards: dict[Any, Any] = {}

    def observe(self, seat: int) -> Any:
        """``encoding.observe(game.view(seat))`` as a fresh float32 array."""
        g = self.game
        facts = g.public_facts()
        if facts != self._facts:
            self._write(facts)
            self._facts = facts
        out = self._common[self._rot[seat]]
        out[_AT["seat"] + seat] = 1.0
        if facts[0] != "over" and facts[1] == seat:
            out[_AT["my_turn"]] = 1.0
        h = _AT["hand"]
        for c, k in enumerate(g.hand_counts(seat)):
            if k:
                out[h + c] = _THIRDS[k]
        return out

    def _write(self, facts: tuple[Any, ...]) -> None:
        import numpy as np

        (phase, active, result, mode, did, swaps, placed, play_turns, act, tiles, bj, ships, baths,
         slots, jokers, hand_sizes, pile_sizes, undealt, spent) = facts  # fmt: skip
        n = self._n
        at = _AT
        a = self._common
        a[:] = self._base
        board = self._boards.get(tiles)
        if board is None:
            board = np.zeros(NSPACES * _TILES, np.float32)
            for s, ts in enumerate(tiles):
                for t in ts:
                    board[_TILES * s + t] = 1.0
            if len(self._boards) > 64:
                self._boards.clear()
            self._boards[tiles] = board
        a[at["board"] : at["board"] + NSPACES * _TILES] = board
        idx: list[int] = []
        val: list[float] = []
        idx.append(at["phase"] + _PHASES.index(phase))
        val.append(1.0)
        if phase != "over":
            idx.append(at["to_move"] + active)
            val.append(1.0)
        if mode:
            idx.append(at["mode"] + _MODES.index(mode))
            val.append(1.0)
        idx += (at["acted"], at["swaps"], at["placed"], at["turns"], at["undealt"])
        val += (
            float(did > 0),
            swaps / 20,
            placed / (n * self._nb),
            min(play_turns, self._limit) / self._limit,
            undealt / self._box,
        )
        cells: dict[int, int] = {}
        for b, state in act:
            s = baths[active][b]
            if s >= 0:
                i = at["activated"] + 3 * s + state
                cells[i] = cells.get(i, 0) + 1
        for q in range(n):
            idx.append(at["ships"] + len(_SHIP) * q + ships[q])
            val.append(1.0)
            unplaced = 0
            for s in baths[q]:
                if s < 0:
                    unplaced += 1
                else:
                    i = at["bathyscaphes"] + NSPACES * q + s
                    cells[i] = cells.get(i, 0) + 1
            if unplaced:
                idx.append(at["unplaced"] + q)
                val.append(_FIFTHS[unplaced])
            for t in slots[q]:
                idx.append(at["slots"] + 12 * q + t // 5)
                val.append(1.0)
            idx.append(at["scores"] + q)
            val.append(len(slots[q]) / 12)
            for t in jokers[q]:
                idx.append(at["held_jokers"] + _TILES * q + t)
                val.append(1.0)
            idx += (at["hand_counts"] + q, at["pile_sizes"] + q)
            val += (hand_sizes[q] / 3, pile_sizes[q] / self._box)
        for i, k in cells.items():
            idx.append(i)
            val.append(_FIFTHS[k])
        for t, on in enumerate(bj):
            if on:
                idx.append(at["board_jokers"] + t)
                val.append(1.0)
        for c, k in enumerate(spent):
            idx.append(at["out_of_play"] + c)
            val.append(k / self._per_colour)
        if result is not None:
            for q in result[1]:
                idx.append(at["winners"] + q)
                val.append(1.0)
        a[idx] = val
