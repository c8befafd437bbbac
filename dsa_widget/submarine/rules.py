"""*Submarine* (Leo Colovini, 2004): the rules engine (spec: ``../shared/submarine/SUBMARINE.md``).

API
---

``SubmarineGame(players=4, *, seed=None, options=None, layout=None, piles=None, start=None)``

* ``players``: 2..5, or a list of 2..5 names.  ``options``: SUBMARINE.md §9, see
  :mod:`dsa_widget.submarine.options`.  ``seed``: the one :class:`random.Random` the setup draws
  from (tile layout, deck shuffle, start player).  ``layout`` (60 tile names in fill order,
  §4 step 3) and ``piles`` (per seat, the dealt colours top first, §4 step 5; the undealt rest is
  whatever the deck has left) and ``start`` (the start player) force the setup instead (what-if,
  tests, records).
* protocol: ``players``, ``to_move`` (a seat, or ``TERMINAL``; never ``CHANCE``, see below),
  ``is_over``, ``turn_number``, ``at_turn_boundary``, ``legal_actions()``, ``apply(a)`` (checked:
  :class:`IllegalActionError`, nothing changes), ``apply_unchecked(a)``, ``chance_outcomes()``
  (always ``()``), ``apply_chance`` / ``sample_chance`` (raise), ``view(seat)``, ``clone()``,
  ``to_record()`` / ``from_record(rec)``, ``play_record_turn(turn)``, ``scores``, ``winners``,
  ``returns()`` (the scores as floats once over, else zeros).
* facts: ``seats``, ``options``, ``phase``, ``ship(p)``, ``bathyscaphes(p)``, ``tiles(space)``,
  ``board_jokers``, ``slots(p)``, ``held_jokers(p)``, ``hand(p)`` / ``pile(p)`` (the truth, for
  engines and tests), ``out_of_play``, ``result`` (``None`` or ``(condition, winners)``),
  ``events``, ``history``, ``activated``, ``mode``, ``state_dict()`` (the whole truth as JSON),
  ``from_state_dict(d)`` (any position, e.g. to force a draw: no record), ``legal_actions_for(seat)``.
* fast path: ``random_playout(rng, trace=None)`` plays random legal actions to the end on the
  engine's own rule code without action strings (:mod:`dsa_widget.submarine.playouts`).

Names: colours ``K1..K5``; tiles ``T01K1..T12K5`` (type, rim colour) and shells ``SHK1..SHK5``;
spaces ``"c.d"`` (column 1..6, depth 1..4), e.g. ``"3.2"``; ship positions ``start``, ``1``..``6``,
``end``.

Steps and actions (``legal_actions()`` lists them in this order, each group sorted as shown)
---------------------------------------------------------------------------------------------

=========  ===================================  ===============================================
phase      action                               legal when (SUBMARINE.md)
=========  ===================================  ===============================================
place      ``place C`` (C = 1..6)               §4.8, by column
sail       ``sail C`` then ``sail end``         §5.1 A: C right of the ship with an own bathyscaphe
mode       ``mode collect``, ``mode move``      §6.2 uniform; ``collect`` only if one is legal
step       ``collect S TILE card``,             §6.4: S by column then depth, tiles in the
           ``collect S TILE joker JTILE``       space's order, ``card`` before jokers (held order)
step       ``move S S2``                        §6.3: from S (by column, depth) to S2 (same order)
step       ``end``                              §10 EndStep: the step's minimum is met
wait       ``exchange K``, then ``pass``        §5.2 (K by colour)
=========  ===================================  ===============================================

Automatic steps are done inside ``apply``: refill (§5.1 C), regroup (§5.3), end checks (§7).
A step also ends by itself when nothing but ``end`` is left (every activated bathyscaphe has
acted, or no collection remains under COLLECT).  One *turn* is a seat's whole turn (a placement
counts as one turn); a record holds one list of actions per turn.

What the code settles where the spec leaves room
------------------------------------------------

* Chance: all randomness is the setup (60! tile layouts, the deck shuffle, the start player),
  drawn at construction from one ``random.Random(seed)`` or forced with ``layout`` / ``piles`` /
  ``start`` (a what-if on a later draw: ``from_state_dict`` with the piles in the wanted order).
  During play nothing is random (piles have an order), so ``to_move`` is never ``CHANCE`` and
  ``chance_outcomes()`` is empty.  No seat knows any pile (§3), so
  :meth:`SubmarineView.sample` re-deals every card the seat cannot see, uniformly (but for the
  cards a seat tucked under its own pile, when the caller says it remembers them).
* Spent cards go out of play face up (the tile's colour shows them): ``out_of_play`` is public,
  per colour.  The undealt cards are unseen and never come back.
* Bathyscaphes of one player in one space are interchangeable: actions name spaces, and the
  engine moves / uses the lowest-numbered eligible one.  In ``independent`` mode a bathyscaphe
  that collected may collect again but not move; one that moved is done.
* ``payment_shortfall = "use_hand"``: the missing cards come from the hand, lowest colour first.
  ``"pay_what_you_can"``: owed cards past the pile's end are forgiven.
* Events (``events``: place, sail, mode, move, collect with ``paid`` recipients, exchange without
  the card, regroup, end) never name a hidden card.  The action history does (``exchange K2``):
  it is in records (the truth), never in views.
* The step groups: under ``independent`` the legal list is the collections, then the moves,
  then ``end``; the ``mode`` phase exists only under ``uniform``.
* E5 ``turn_limit`` counts turns after placement.  It is on (5,000 by default, and at most that):
  a game in which nobody collects has no other end (§8 #30), and a game must end for its
  record to be readable.  Returns are the scores (E1: the full board's 12 against the others'
  counts).
* Joker swaps: §6.6 sets no limit on jokers spent in a turn, and under ``board_jokers =
  "collectable"`` two held jokers could be swapped for each other on the board for ever.  The
  option ``joker_swaps_per_turn`` (3 by default) caps the board jokers a turn collects by
  paying with a held joker; a card still pays for one, and a joker for a treasure.
* Player names are text of 1..40 characters (a lone surrogate is refused: no screen shows it).

>>> g = SubmarineGame(3, seed=7)
>>> g.phase, g.to_move, g.legal_actions()[:2]
('place', 1, ('place 1', 'place 2'))
>>> while g.phase == "place":
...     g.apply("place 2")
>>> g.phase, g.to_move, g.legal_actions()
('sail', 1, ('sail 2', 'sail end'))
>>> g.apply("sail 2"); g.legal_actions()[-1]
'mode move'
>>> import random
>>> rng = random.Random(1)
>>> while not g.is_over:
...     g.apply_unchecked(rng.choice(g.legal_actions()))
>>> g.result[0], len(g.scores)
('E2', 3)
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any, ClassVar

from ..core.errors import is_int, short_repr
from ..core.protocol import TERMINAL
from .errors import IllegalActionError, RecordError, SetupError
from .options import resolve_options, table

if TYPE_CHECKING:
    from .view import SubmarineView

__all__ = [
    "COLOURS",
    "END",
    "START",
    "SubmarineGame",
    "space_name",
    "tile_name",
    "parse_tile",
    "parse_space",
]

COLOURS = ("K1", "K2", "K3", "K4", "K5")
START, END = 0, 7
NTILES = 60  # treasure tiles 0..59: type = id // 5, colour = id % 5; shells 60..64: colour = id - 60
NSPACES = 24  # space s = (c - 1) * 4 + (d - 1)
_COL = {c: i for i, c in enumerate(COLOURS)}
_FILL = [(c - 1) * 4 + (d - 1) for d in range(1, 5) for c in range(1, 7) for _ in range(d)]
#: spaces reachable by one move from each space (§6.3), in space order
_MOVES: list[tuple[int, ...]] = [
    tuple(t for t in range(NSPACES) if t != s and abs(t % 4 - s % 4) <= 1) for s in range(NSPACES)
]
_PHASES = ("place", "sail", "mode", "step", "wait", "over")


def space_name(s: int) -> str:
    """``"c.d"`` for space index ``s``.

    >>> space_name(0), space_name(23)
    ('1.1', '6.4')
    """
    return f"{s // 4 + 1}.{s % 4 + 1}"


def parse_space(text: str) -> int:
    """The space index of ``"c.d"``; ValueError if it is not a space."""
    c, _, d = text.partition(".")
    if not (len(c) == 1 and len(d) == 1 and c in "123456" and d in "1234"):
        raise ValueError(text)
    return (int(c) - 1) * 4 + int(d) - 1


def tile_name(t: int) -> str:
    """``T01K1`` .. ``T12K5`` for treasures, ``SHK1`` .. ``SHK5`` for shells.

    >>> tile_name(0), tile_name(59), tile_name(62)
    ('T01K1', 'T12K5', 'SHK3')
    """
    if t >= NTILES:
        return f"SH{COLOURS[t - NTILES]}"
    return f"T{t // 5 + 1:02d}{COLOURS[t % 5]}"


_TILE_IDS = {tile_name(t): t for t in range(NTILES + 5)}


def parse_tile(text: str) -> int:
    """The tile id of a tile name; ValueError if there is none."""
    return _TILE_IDS[text] if text in _TILE_IDS else _fail(text)


def _fail(text: str) -> int:
    raise ValueError(text)


def _pos_name(p: int) -> str:
    return "start" if p == START else "end" if p == END else str(p)


def _colour(t: int) -> int:
    return t - NTILES if t >= NTILES else t % 5


class SubmarineGame:
    """One game of Submarine: the state machine of SUBMARINE.md §4-§7 and the game protocol."""

    #: the word a chance step is reported with (the protocol's; the deal is drawn at setup)
    CHANCE_ACTION: ClassVar[str] = "deal"

    def __init__(
        self,
        players: int | Sequence[str] = 4,
        *,
        seed: int | None = None,
        options: Mapping[str, Any] | None = None,
        layout: Sequence[str] | None = None,
        piles: Sequence[Sequence[str]] | None = None,
        start: int | None = None,
    ) -> None:
        if isinstance(players, bool) or not isinstance(players, (int, list, tuple)):
            raise SetupError("players is a count 2..5 or a list of names", field="players")
        if isinstance(players, int):
            names = tuple(f"Player {i + 1}" for i in range(players)) if 2 <= players <= 5 else ()
        else:
            names = tuple(players)
            if not all(isinstance(x, str) and 0 < len(x) <= 40 for x in names):
                raise SetupError("player names are strings of 1..40 characters", field="players")
            for x in names:
                try:
                    x.encode("utf-8")
                except UnicodeEncodeError:  # a lone surrogate: no screen or file could show it
                    raise SetupError(
                        f"player name {short_repr(x)} is not text (it has a lone surrogate)", field="players"
                    ) from None
        n = len(names)
        if not 2 <= n <= 5:
            raise SetupError("Submarine is for 2 to 5 players", field="players")
        opts = resolve_options(options)
        if opts["start_player"] != "random" and opts["start_player"] >= n:
            raise SetupError(
                f"First player: a game of {n} has Player 1 to Player {n}, not Player"
                f" {opts['start_player'] + 1} (start_player must be a seat 0..{n - 1})",
                field="start_player",
            )
        per_colour = 12 if opts["deck"] == "60" else 15
        ncards = table(opts, "cards_per_player", n)
        if ncards * n > per_colour * 5:
            raise SetupError(
                f"{n} x {ncards} cards do not fit a deck of {per_colour * 5}", field="cards_per_player"
            )
        if seed is None:
            seed = random.randrange(2**63)
        if not is_int(seed):
            raise SetupError("seed is an int", field="seed")
        rng = random.Random(seed)
        self._names = names
        self._n = n
        self._opts = opts
        self._seed = seed
        self._nb = table(opts, "bathyscaphes_per_player", n)
        # §4.3: tiles
        if layout is None:
            order = list(range(NTILES))
            rng.shuffle(order)
        else:
            try:
                order = [parse_tile(x) for x in layout]
            except (ValueError, TypeError):
                raise SetupError("layout lists the 60 treasure tiles by name", field="layout") from None
            if sorted(order) != list(range(NTILES)):
                raise SetupError("layout lists each of the 60 treasure tiles once", field="layout")
        self._layout = order
        self._tiles: list[list[int]] = [[] for _ in range(NSPACES)]
        for s, t in zip(_FILL, order, strict=True):
            self._tiles[s].append(t)
        self._bj = [False] * (NTILES + 5)
        # §4.5: cards (colours 0..4)
        deck = [k for k in range(5) for _ in range(per_colour)]
        if piles is None:
            rng.shuffle(deck)
            dealt = [deck[i * ncards : (i + 1) * ncards] for i in range(n)]
            undealt = deck[n * ncards :]
        else:
            if not isinstance(piles, (list, tuple)) or len(piles) != n:
                raise SetupError(f"piles holds one list of {ncards} colours per seat", field="piles")
            dealt = []
            left = [per_colour] * 5
            for p in piles:
                if (
                    not isinstance(p, (list, tuple))
                    or len(p) != ncards
                    or any(not isinstance(c, str) or c not in _COL for c in p)
                ):
                    raise SetupError(f"piles holds one list of {ncards} colours per seat", field="piles")
                dealt.append([_COL[c] for c in p])
                for c in p:
                    left[_COL[c]] -= 1
            if min(left) < 0:
                raise SetupError(f"piles use more than {per_colour} cards of a colour", field="piles")
            undealt = [k for k in range(5) for _ in range(left[k])]
        self._dealt = [list(p) for p in dealt]
        self._undealt = undealt
        #: cards of each colour in hands and piles (they only ever leave, by collections)
        self._live = [per_colour - undealt.count(k) for k in range(5)]
        self._log = True
        # piles are stored bottom first (the top is the end of the list)
        self._pile: list[list[int]] = [list(reversed(p)) for p in dealt]
        self._hand: list[list[int]] = [[0] * 5 for _ in range(n)]
        for p in range(n):
            for _ in range(3):
                if self._pile[p]:
                    self._hand[p][self._pile[p].pop()] += 1
        self._out = [0] * 5
        # §4.2: pieces
        self._ship = [START] * n
        self._bath: list[list[int]] = [[-1] * self._nb for _ in range(n)]
        self._owned: list[list[bool]] = [[False] * 12 for _ in range(n)]
        self._slots: list[list[int]] = [[] for _ in range(n)]
        self._jokers: list[list[int]] = [[NTILES + i] for i in range(n)]
        # §4.7
        sp = opts["start_player"]
        if start is not None:
            if not is_int(start) or not 0 <= start < n:
                raise SetupError(f"start must be a seat 0..{n - 1}", field="start")
            if sp != "random" and sp != start:
                raise SetupError("start disagrees with the option start_player", field="start")
            sp = start
        self._start: int = rng.randrange(n) if sp == "random" else sp
        self._active = self._start
        self._phase = "place"
        self._placed = 0
        self._turn = 0
        self._play_turns = 0
        self._cur: list[str] = []
        self._history: list[tuple[int, list[str]]] = []
        self._events: list[dict[str, Any]] = []
        self._result: tuple[str, tuple[int, ...]] | None = None
        # the bathyscaphe step: activated ids -> 0 idle, 1 collecting, 2 done
        self._act: dict[int, int] = {}
        self._mode = ""
        self._did = 0
        #: board jokers collected with a held joker in this turn (option joker_swaps_per_turn)
        self._swaps = 0
        self._recordable = True

    # ------------------------------------------------------------------ facts

    @property
    def players(self) -> tuple[str, ...]:
        return self._names

    @property
    def seats(self) -> int:
        return self._n

    @property
    def options(self) -> dict[str, Any]:
        return resolve_options(self._opts)

    @property
    def seed(self) -> int:
        return self._seed

    @property
    def phase(self) -> str:
        """``place``, ``sail``, ``mode``, ``step``, ``wait`` or ``over``."""
        return self._phase

    @property
    def start_player(self) -> int:
        return self._start

    def ship(self, p: int) -> str:
        return _pos_name(self._ship[p])

    def bathyscaphes(self, p: int) -> tuple[str | None, ...]:
        """The spaces of seat ``p``'s bathyscaphes by number (``None``: not placed yet)."""
        return tuple(None if s < 0 else space_name(s) for s in self._bath[p])

    def tiles(self, space: str) -> tuple[str, ...]:
        return tuple(tile_name(t) for t in self._tiles[parse_space(space)])

    @property
    def board_jokers(self) -> tuple[str, ...]:
        return tuple(tile_name(t) for t in range(NTILES + 5) if self._bj[t])

    def slots(self, p: int) -> tuple[str, ...]:
        return tuple(tile_name(t) for t in sorted(self._slots[p]))

    def held_jokers(self, p: int) -> tuple[str, ...]:
        return tuple(tile_name(t) for t in self._jokers[p])

    def hand(self, p: int) -> tuple[str, ...]:
        """Seat ``p``'s hand, by colour (the truth: engines and tests only)."""
        return tuple(COLOURS[k] for k in range(5) for _ in range(self._hand[p][k]))

    def pile(self, p: int) -> tuple[str, ...]:
        """Seat ``p``'s pile, top first (the truth: engines and tests only)."""
        return tuple(COLOURS[k] for k in reversed(self._pile[p]))

    def public_facts(self) -> tuple[Any, ...]:
        """The public position as small ints, for the adapters' fast observation
        (:class:`~dsa_widget.submarine.encoding.SubmarineTracker`): phase, active seat, result,
        mode, step counters, activated bathyscaphes, tiles by space, board jokers, ships,
        bathyscaphes, slots, held jokers (tile ids), then hand sizes, pile sizes, undealt
        count and spent cards by colour.  Nothing hidden: no card of a hand or pile."""
        return (
            self._phase,
            self._active,
            self._result,
            self._mode,
            self._did,
            self._swaps,
            self._placed,
            self._play_turns,
            tuple(sorted(self._act.items())),
            tuple(map(tuple, self._tiles)),
            tuple(self._bj),
            tuple(self._ship),
            tuple(map(tuple, self._bath)),
            tuple(map(tuple, self._slots)),
            tuple(map(tuple, self._jokers)),
            tuple(map(sum, self._hand)),
            tuple(map(len, self._pile)),
            len(self._undealt),
            tuple(self._out),
        )

    def dead_position(self) -> bool:
        """Whether E4's test holds now (§7.1): no seat holds a joker, and no card of any
        collectable tile's colour is left in a hand or pile (the truth: it reads hidden cards).

        >>> SubmarineGame(2, seed=1).dead_position()
        False
        """
        return not any(self._jokers) and self._dead()

    def pile_sizes(self) -> tuple[int, ...]:
        """Every seat's pile size (public, §3)."""
        return tuple(map(len, self._pile))

    def hand_counts(self, p: int) -> tuple[int, ...]:
        """Seat ``p``'s hand as counts by colour K1..K5 (the truth: only ``p`` may see it)."""
        return tuple(self._hand[p])

    @property
    def out_of_play(self) -> dict[str, int]:
        return {COLOURS[k]: self._out[k] for k in range(5)}

    @property
    def result(self) -> tuple[str, tuple[int, ...]] | None:
        """``None`` while playing, else ``(condition, winners)`` with condition ``E1``..``E5``."""
        return self._result

    @property
    def events(self) -> list[dict[str, Any]]:
        return [dict(e) for e in self._events]

    @property
    def history(self) -> list[tuple[int, list[str]]]:
        """Completed turns as ``(seat, actions)``, then the turn in progress if any."""
        out = [(s, list(a)) for s, a in self._history]
        if self._cur:
            out.append((self._active, list(self._cur)))
        return out

    @property
    def activated(self) -> dict[int, str]:
        """During a step: activated bathyscaphe number -> ``idle``, ``collecting`` or ``done``."""
        return {b: ("idle", "collecting", "done")[v] for b, v in self._act.items()}

    @property
    def mode(self) -> str:
        """During a step: ``move``, ``collect``, ``independent`` (or ``""``)."""
        return self._mode

    # --------------------------------------------------------------- protocol

    @property
    def current_player(self) -> int | None:
        """The seat to move (``None`` once the game is over): what the bot runners report."""
        return None if self.is_over else self.to_move

    @property
    def to_move(self) -> int:
        return TERMINAL if self._result is not None else self._active

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def turn_number(self) -> int:
        return self._turn

    @property
    def at_turn_boundary(self) -> bool:
        return not self._cur

    @property
    def scores(self) -> tuple[int, ...]:
        return tuple(len(s) for s in self._slots)

    @property
    def winners(self) -> tuple[int, ...]:
        return () if self._result is None else self._result[1]

    def returns(self) -> tuple[float, ...]:
        if self._result is None:
            return tuple(0.0 for _ in range(self._n))
        return tuple(float(len(s)) for s in self._slots)

    def chance_outcomes(self) -> tuple[tuple[Any, Fraction], ...]:
        """Always empty: the only chance is the setup, drawn at construction (module docstring)."""
        return ()

    def apply_chance(self, outcome: Any) -> None:
        raise IllegalActionError("Submarine has no chance node after the setup")

    def sample_chance(self) -> None:
        raise IllegalActionError("Submarine has no chance node after the setup")

    def view(self, seat: int | None) -> SubmarineView:
        from .view import SubmarineView

        if seat is not None and (not is_int(seat) or not 0 <= seat < self._n):
            raise IllegalActionError(f"no seat {short_repr(seat)}")
        return SubmarineView.of(self, seat)

    def clone(self) -> SubmarineGame:
        g = SubmarineGame.__new__(SubmarineGame)
        g.__dict__.update(self.__dict__)
        g._tiles = [list(x) for x in self._tiles]
        g._bj = list(self._bj)
        g._pile = [list(x) for x in self._pile]
        g._hand = [list(x) for x in self._hand]
        g._out = list(self._out)
        g._live = list(self._live)
        g._undealt = list(self._undealt)
        g._ship = list(self._ship)
        g._bath = [list(x) for x in self._bath]
        g._owned = [list(x) for x in self._owned]
        g._slots = [list(x) for x in self._slots]
        g._jokers = [list(x) for x in self._jokers]
        g._cur = list(self._cur)
        g._history = [(s, list(a)) for s, a in self._history]
        g._events = list(self._events)
        g._act = dict(self._act)
        return g

    copy = clone

    def to_record(self) -> dict[str, Any]:
        from .record import game_to_record

        return game_to_record(self)

    def save(self, path: Any) -> None:
        """Write the game's record (``submarine/record@1``) as JSON to ``path``, as every game's
        ``save`` does; :meth:`from_record` and ``python -m dsa_widget replay`` read it back.

        >>> import os, tempfile
        >>> g = SubmarineGame(2, seed=1)
        >>> g.apply(g.legal_actions()[0])
        >>> path = os.path.join(tempfile.mkdtemp(), "game.json")
        >>> g.save(path)
        >>> SubmarineGame.from_record(path).history == g.history
        True
        """
        from .record import save

        save(self, path)

    @classmethod
    def from_record(cls, record: Any) -> SubmarineGame:
        from .record import load_record

        return load_record(record)

    def setup_facts(self) -> dict[str, Any]:
        """What a record's ``setup`` and ``chance`` keys hold (see docs/SUBMARINE_RECORD.md)."""
        if not self._recordable:
            raise RecordError("a state built from a view or a state dict has no record")
        return {
            "players": list(self._names),
            "seed": self._seed,
            "options": resolve_options(self._opts),
            "layout": [tile_name(t) for t in self._layout],
            "piles": [[COLOURS[k] for k in p] for p in self._dealt],
            "start_player": self._start,
        }

    def play_record_turn(self, turn: Any) -> None:
        """Play one whole turn, ``{"seat": s, "actions": [...]}`` or a list of actions, checked as a
        whole: the actions must be legal one after the other and make exactly one turn (or end
        the game); otherwise :class:`IllegalActionError` and nothing changes."""
        if isinstance(turn, Mapping):
            seat, actions = turn.get("seat"), turn.get("actions")
            if seat != self.to_move:
                raise IllegalActionError(f"it is seat {self.to_move}'s turn, not {short_repr(seat)}'s")
        else:
            actions = turn
        if not isinstance(actions, (list, tuple)) or not actions:
            raise IllegalActionError("a turn is a non-empty list of actions")
        if not self.at_turn_boundary or self.is_over:
            raise IllegalActionError("a record turn starts at a turn boundary of a running game")
        g = self.clone()
        start = g._turn
        for i, a in enumerate(actions):
            if g._turn != start or g.is_over:
                raise IllegalActionError(f"action {i + 1} of the turn comes after the turn ended")
            g.apply(a)
        if g._turn == start and not g.is_over:
            raise IllegalActionError("the turn's actions do not complete the turn")
        self.__dict__.update(g.__dict__)

    # ---------------------------------------------------------------- actions

    def legal_actions(self) -> tuple[str, ...]:
        ph = self._phase
        p = self._active
        if ph == "place":
            return ("place 1", "place 2", "place 3", "place 4", "place 5", "place 6")
        if ph == "sail":
            return tuple(self._sail_targets(p))
        if ph == "mode":
            out = ["mode collect"] if self._can_collect(p) else []
            out.append("mode move")
            return tuple(out)
        if ph == "step":
            return tuple(self._step_actions(p))
        if ph == "wait":
            out = []
            if self._pile[p]:
                out = [f"exchange {COLOURS[k]}" for k in range(5) if self._hand[p][k]]
            out.append("pass")
            return tuple(out)
        return ()

    def legal_actions_for(self, seat: int) -> tuple[str, ...]:
        return self.legal_actions() if seat == self.to_move else ()

    def apply(self, action: Any) -> None:
        if self._result is not None:
            raise IllegalActionError("the game is over")
        if not isinstance(action, str):
            raise IllegalActionError(f"an action is a string, not {short_repr(action)}", self.legal_actions())
        legal = self.legal_actions()
        if action not in legal:
            raise IllegalActionError(f"{short_repr(action)} is not legal now", legal)
        self.apply_unchecked(action)

    def apply_unchecked(self, action: str) -> None:
        p = self._active
        self._cur.append(action)
        parts = action.split()
        kind = parts[0]
        if kind == "place":
            self._place(p, int(parts[1]))
        elif kind == "sail":
            self._sail(p, END if parts[1] == "end" else int(parts[1]))
        elif kind == "mode":
            self._mode = parts[1]
            self._phase = "step"
            self._events.append({"type": "mode", "seat": p, "mode": parts[1]})
        elif kind == "move":
            self._move(p, parse_space(parts[1]), parse_space(parts[2]))
            self._after_step_action(p)
        elif kind == "collect":
            joker = parse_tile(parts[4]) if parts[3] == "joker" else -1
            self._collect(p, parse_space(parts[1]), parse_tile(parts[2]), joker)
            if self._result is None:
                self._after_step_action(p)
        elif kind == "end":
            self._end_turn(p)
        elif kind == "exchange":
            k = _COL[parts[1]]
            self._hand[p][k] -= 1
            self._pile[p].insert(0, k)
            self._hand[p][self._pile[p].pop()] += 1
            self._events.append({"type": "exchange", "seat": p})
            self._end_turn(p)
        else:  # pass
            self._end_turn(p)

    # ---------------------------------------------------------- rule helpers

    def _place(self, p: int, c: int) -> None:
        b = self._bath[p].index(-1)
        self._bath[p][b] = (c - 1) * 4
        self._placed += 1
        self._events.append({"type": "place", "seat": p, "space": f"{c}.1"})
        self._history.append((p, self._cur))
        self._cur = []
        self._turn += 1
        self._active = (p + 1) % self._n
        if self._placed == self._n * self._nb:
            self._phase = "sail"

    def _sail_targets(self, p: int) -> list[str]:
        pos = self._ship[p]
        cols = sorted({s // 4 + 1 for s in self._bath[p] if s // 4 + 1 > pos})
        out = [f"sail {c}" for c in cols]
        if self._opts["end_always_allowed"] or not cols:
            out.append("sail end")
        return out

    def _sail(self, p: int, t: int) -> None:
        self._ship[p] = t
        if self._log:
            self._events.append({"type": "sail", "seat": p, "to": _pos_name(t)})
        if t == END:
            if self._opts["exchange_on_arrival"]:
                self._phase = "wait"
            else:
                self._end_turn(p)
            return
        self._act = {b: 0 for b, s in enumerate(self._bath[p]) if s // 4 + 1 == t}
        self._did = 0
        self._swaps = 0
        if self._opts["activation_mode"] == "uniform":
            self._phase = "mode"
            self._mode = ""
        else:
            self._phase = "step"
            self._mode = "independent"

    def _owed(self, p: int, s: int) -> list[int]:
        """The recipients of the payments for a card collection at space ``s`` (§6.5), in order."""
        c0 = s - s % 4
        out: list[int] = []
        per_bathy = self._opts["payment_basis"] == "per_bathyscaphe"
        n = self._n
        for i in range(1, n):
            q = (p + i) % n
            k = 0
            for b in self._bath[q]:
                if c0 <= b <= s:
                    k += 1
            if k:
                out.extend([q] * (k if per_bathy else 1))
        return out

    def _can_pay_card(self, p: int, s: int, colour: int) -> bool:
        if not self._hand[p][colour]:
            return False
        rule = self._opts["payment_shortfall"]
        if rule == "pay_what_you_can":
            return True
        owed = len(self._owed(p, s))
        have = len(self._pile[p])
        if rule == "use_hand":
            have += sum(self._hand[p]) - 1
        return have >= owed

    def _collect_spaces(self, p: int) -> list[int]:
        """Spaces a collection may be made from now (sorted)."""
        if self._mode == "independent":
            return sorted({self._bath[p][b] for b, v in self._act.items() if v < 2})
        return sorted({self._bath[p][b] for b in self._act})

    def _can_collect(self, p: int) -> bool:
        """Whether any collection is legal now (the fast form of ``_collections(p, True)``)."""
        jokers = bool(self._jokers[p])
        hand = self._hand[p]
        if not jokers and not any(hand):
            return False
        collectable = self._opts["board_jokers"] == "collectable"
        swap = self._can_swap()
        bj = self._bj
        for s in self._collect_spaces(p):
            for t in self._tiles[s]:
                if bj[t] and not collectable:
                    continue
                if (jokers and (swap or not bj[t])) or self._can_pay_card(p, s, _colour(t)):
                    return True
        return False

    def _can_swap(self) -> bool:
        """May a board joker still be collected with a held joker in this turn?"""
        cap: int = self._opts["joker_swaps_per_turn"]
        return self._swaps < cap

    def _collections(self, p: int, any_only: bool = False) -> list[str]:
        out: list[str] = []
        collectable = self._opts["board_jokers"] == "collectable"
        jokers = self._jokers[p]
        swap = self._can_swap()
        for s in self._collect_spaces(p):
            sn = space_name(s)
            for t in self._tiles[s]:
                if self._bj[t] and not collectable:
                    continue
                tn = tile_name(t)
                if self._can_pay_card(p, s, _colour(t)):
                    out.append(f"collect {sn} {tn} card")
                    if any_only:
                        return out
                if self._bj[t] and not swap:
                    continue
                for j in jokers:
                    out.append(f"collect {sn} {tn} joker {tile_name(j)}")
                    if any_only:
                        return out
        return out

    def _moves(self, p: int) -> list[str]:
        out: list[str] = []
        froms = sorted({self._bath[p][b] for b, v in self._act.items() if v == 0})
        for s in froms:
            sn = space_name(s)
            out.extend(f"move {sn} {space_name(t)}" for t in _MOVES[s])
        return out

    def _step_actions(self, p: int) -> list[str]:
        mode = self._mode
        if mode == "collect":
            out = self._collections(p)
        elif mode == "move":
            out = self._moves(p)
            if self._did and not self._opts["uniform_move_all"]:
                out.append("end")
            return out
        else:
            out = self._collections(p) + self._moves(p)
        if self._did:
            out.append("end")
        return out

    def _after_step_action(self, p: int) -> None:
        """End the step when nothing but ``end`` is left."""
        mode = self._mode
        if mode == "move":
            if all(v for v in self._act.values()):
                self._end_turn(p)
        elif mode == "collect":
            if not self._can_collect(p):
                self._end_turn(p)
        elif not any(v == 0 for v in self._act.values()) and not self._can_collect(p):
            self._end_turn(p)

    def _move(self, p: int, s: int, t: int) -> None:
        bath = self._bath[p]
        for b in sorted(self._act):
            if self._act[b] == 0 and bath[b] == s:
                bath[b] = t
                self._act[b] = 2
                break
        self._did += 1
        if self._log:
            self._events.append({"type": "move", "seat": p, "from": space_name(s), "to": space_name(t)})

    def _collect(self, p: int, s: int, t: int, joker: int) -> None:
        if self._mode == "independent":  # the acting bathyscaphe: one collecting there, else idle
            here = [b for b in sorted(self._act) if self._bath[p][b] == s and self._act[b] < 2]
            use = next((b for b in here if self._act[b] == 1), here[0])
            self._act[use] = 1
        self._did += 1
        space = self._tiles[s]
        space.remove(t)
        if joker >= 0 and self._bj[t]:
            self._swaps += 1
        self._bj[t] = False
        ev: dict[str, Any] = {"type": "collect", "seat": p}
        if self._log:
            ev.update(space=space_name(s), tile=tile_name(t))
        if joker >= 0:
            self._jokers[p].remove(joker)
            space.append(joker)
            self._bj[joker] = True
            if self._log:
                ev["joker"] = tile_name(joker)
        else:
            k = _colour(t)
            hand = self._hand[p]
            hand[k] -= 1
            self._out[k] += 1
            self._live[k] -= 1
            pile = self._pile[p]
            top = self._opts["payment_destination"] == "top"
            paid: list[int] = []
            for q in self._owed(p, s):
                if pile:
                    card = pile.pop()
                elif self._opts["payment_shortfall"] == "use_hand" and sum(hand):
                    card = next(i for i in range(5) if hand[i])
                    hand[card] -= 1
                else:
                    break
                if top:
                    self._pile[q].append(card)
                else:
                    self._pile[q].insert(0, card)
                paid.append(q)
            ev["paid"] = paid
        if t < NTILES and not self._owned[p][t // 5]:
            self._owned[p][t // 5] = True
            self._slots[p].append(t)
            ev["to"] = "board"
        else:
            self._jokers[p].append(t)
            ev["to"] = "jokers"
        if self._log:
            self._events.append(ev)
        # §7.1: E1, E2, E3 after every collection
        if len(self._slots[p]) == 12:
            self._finish("E1", (p,))
            return
        c0 = s - s % 4
        bj = self._bj
        if not any(not bj[x] for sp in self._tiles[c0 : c0 + 4] for x in sp):
            self._finish("E2")
            return
        if self._no_cards():
            self._finish("E3")

    def _no_cards(self) -> bool:
        return not any(self._live)

    def _dead(self) -> bool:
        if any(self._jokers):
            return False
        have = self._live
        collectable = self._opts["board_jokers"] == "collectable"
        for sp in self._tiles:
            for t in sp:
                if (collectable or not self._bj[t]) and have[_colour(t)]:
                    return False
        return True

    def _end_turn(self, p: int) -> None:
        # §5.1 C: refill
        hand, pile = self._hand[p], self._pile[p]
        need = 3 - sum(hand)
        while need > 0 and pile:
            hand[pile.pop()] += 1
            need -= 1
        self._act = {}
        self._mode = ""
        self._swaps = 0
        # §5.3: regroup
        ships = self._ship
        if ships.count(END) == self._n:
            self._ship = ships = [START] * self._n
            self._events.append({"type": "regroup"})
        self._history.append((p, self._cur))
        self._cur = []
        self._turn += 1
        self._play_turns += 1
        nxt = (p + 1) % self._n
        self._active = nxt
        self._phase = "wait" if ships[nxt] == END else "sail"
        # §7.1: E3, E4, E5 at the end of every turn
        if not any(self._live):
            self._finish("E3")
        elif self._opts["dead_position_end"] and not any(self._jokers) and self._dead():
            self._finish("E4")
        else:
            limit = self._opts["turn_limit"]
            if limit is not None and self._play_turns >= limit:
                self._finish("E5")

    def _finish(self, cond: str, winners: tuple[int, ...] | None = None) -> None:
        if self._cur:
            self._history.append((self._active, self._cur))
            self._cur = []
            self._turn += 1
        if winners is None:
            winners = self._tie_winners()
        self._result = (cond, winners)
        self._phase = "over"
        self._act = {}
        self._mode = ""
        self._events.append({"type": "end", "condition": cond, "winners": list(winners)})

    def _tie_winners(self) -> tuple[int, ...]:
        sc = self.scores
        best = [p for p in range(self._n) if sc[p] == max(sc)]
        rule = self._opts["tie_rule"]
        if len(best) > 1 and rule != "shared":
            if rule == "most_held_jokers":
                key = [len(self._jokers[p]) for p in range(self._n)]
            else:
                key = [sum(self._hand[p]) + len(self._pile[p]) for p in range(self._n)]
            top = max(key[p] for p in best)
            best = [p for p in best if key[p] == top]
        return tuple(best)

    # --------------------------------------------------------------- playouts

    def random_playout(
        self, rng: random.Random, trace: list[str] | None = None, *, max_turns: int = 100_000
    ) -> None:
        """Play random legal actions to the end, fast (no action strings unless ``trace`` is a list,
        which then receives every action played: replaying them with :meth:`apply` reaches the same
        state).  From any state: a turn in progress (a declared mode, a step under way, a wait after
        arriving) is finished first.  The policy: sail to a uniform legal target; declare COLLECT
        with probability 1/2 when it is legal; move each idle activated bathyscaphe to a uniform
        target; collect uniformly among the legal collections and go on with probability 1/2;
        exchange a uniform hand colour with probability 1/2 when waiting.  Afterwards the game has
        no record (``to_record`` raises): replay ``trace`` on a copy taken before to get one.
        :func:`dsa_widget.submarine.fast.playout` makes the same random calls, from the same state,
        on plain lists."""
        self._recordable = False
        self._log = False
        rand = rng.random
        uniform = self._opts["activation_mode"] == "uniform"
        end_always = self._opts["end_always_allowed"]
        # a playout may start in the middle of a turn: finish the step in progress first
        if self._result is None and self._phase == "mode":
            self._random_declare(self._active, rng, trace)
        elif self._result is None and self._phase == "step":
            if uniform:
                self._random_uniform_step(self._active, rng, trace)
            else:
                self._random_independent_step(self._active, rng, trace)
        while self._result is None and self._turn < max_turns:
            p = self._active
            ph = self._phase
            if ph == "place":
                c = rng.randrange(6) + 1
                if trace is not None:
                    trace.append(f"place {c}")
                self._cur.append("")
                self._place(p, c)
                continue
            if ph == "wait":
                self._random_wait(p, rng, trace)
                continue
            pos = self._ship[p]
            cols = sorted({s // 4 + 1 for s in self._bath[p] if s // 4 + 1 > pos})
            if end_always or not cols:
                cols.append(END)
            t = cols[int(rand() * len(cols))]
            if trace is not None:
                trace.append(f"sail {_pos_name(t)}")
            self._cur.append("")
            self._sail(p, t)
            if t == END and self._active == p and self._phase == "wait":  # exchange_on_arrival
                self._random_wait(p, rng, trace)
                continue
            if self._phase == "mode":
                self._random_declare(p, rng, trace)
            elif self._phase == "step":
                self._random_independent_step(p, rng, trace)

    def _random_declare(self, p: int, rng: random.Random, trace: list[str] | None) -> None:
        """Declare the uniform step's mode at random, then play the step."""
        collect = bool(self._can_collect(p)) and rng.random() < 0.5
        self._mode = "collect" if collect else "move"
        self._phase = "step"
        self._cur.append("")
        if trace is not None:
            trace.append(f"mode {self._mode}")
        self._random_uniform_step(p, rng, trace)

    def _random_uniform_step(self, p: int, rng: random.Random, trace: list[str] | None) -> None:
        """Play the rest of a uniform step (the mode declared) and end it."""
        if self._mode == "collect":
            self._random_collections(p, rng, trace, None)
        else:
            moved = self._did
            move_all = self._opts["uniform_move_all"]
            for b in sorted(self._act):
                if self._phase != "step" or self._act.get(b) != 0:
                    continue
                if moved and not move_all and rng.random() < 0.5:
                    break
                self._random_move(p, b, rng, trace)
                moved += 1
        self._random_end_step(p, trace)

    def _random_independent_step(self, p: int, rng: random.Random, trace: list[str] | None) -> None:
        """Play the rest of an independent step and end it."""
        rand = rng.random
        used = self._did
        for b in sorted(self._act):
            if self._result is not None or self._phase != "step":
                break
            if self._act.get(b) != 0:
                continue
            s = self._bath[p][b]
            if rand() < 0.5 or not self._collections_at(p, s):
                if used and rand() < 0.3:
                    continue
                self._random_move(p, b, rng, trace)
            else:
                self._random_collections(p, rng, trace, s)
            used += 1
        self._random_end_step(p, trace)

    def _random_end_step(self, p: int, trace: list[str] | None) -> None:
        if self._result is None and self._phase == "step":
            if trace is not None:
                trace.append("end")
            self._cur.append("")
            self._end_turn(p)

    def _random_wait(self, p: int, rng: random.Random, trace: list[str] | None) -> None:
        hand = self._hand[p]
        if self._pile[p] and any(hand) and rng.random() < 0.5:
            ks = [k for k in range(5) if hand[k]]
            k = ks[int(rng.random() * len(ks))]
            a = f"exchange {COLOURS[k]}"
        else:
            a = "pass"
        if trace is not None:
            trace.append(a)
        self.apply_unchecked(a)

    def _random_move(self, p: int, b: int, rng: random.Random, trace: list[str] | None) -> None:
        s = self._bath[p][b]
        targets = _MOVES[s]
        t = targets[int(rng.random() * len(targets))]
        if trace is not None:
            trace.append(f"move {space_name(s)} {space_name(t)}")
        self._cur.append("")
        self._move(p, s, t)
        self._after_step_action(p)

    def _collections_at(self, p: int, s: int) -> list[tuple[int, int, int]]:
        """The legal collections at space ``s`` as ``(space, tile, joker or -1)``."""
        out: list[tuple[int, int, int]] = []
        collectable = self._opts["board_jokers"] == "collectable"
        swap = self._can_swap()
        bj = self._bj
        for t in self._tiles[s]:
            if bj[t] and not collectable:
                continue
            if self._can_pay_card(p, s, _colour(t)):
                out.append((s, t, -1))
            if bj[t] and not swap:
                continue
            for j in self._jokers[p]:
                out.append((s, t, j))
        return out

    def _random_collections(
        self, p: int, rng: random.Random, trace: list[str] | None, at: int | None
    ) -> None:
        """Collect (uniformly among the legal ones, only at ``at`` if given) until a coin says stop,
        nothing is left or the game ends; the step may end by itself."""
        while True:
            spaces = [at] if at is not None else self._collect_spaces(p)
            options = [x for s in spaces for x in self._collections_at(p, s)]
            if not options:
                return
            s, t, j = options[int(rng.random() * len(options))]
            if trace is not None:
                pay = "card" if j < 0 else f"joker {tile_name(j)}"
                trace.append(f"collect {space_name(s)} {tile_name(t)} {pay}")
            self._cur.append("")
            turn = self._turn
            self._collect(p, s, t, j)
            if self._result is not None:
                return
            self._after_step_action(p)
            if self._turn != turn:
                return
            if rng.random() < 0.5:
                return

    # ------------------------------------------------------------ state dicts

    def state_dict(self) -> dict[str, Any]:
        """The whole truth as JSON (hands, piles top first, undealt cards included)."""
        return {
            "players": list(self._names),
            "options": resolve_options(self._opts),
            "phase": self._phase,
            "to_move": self.to_move,
            "active": self._active,
            "start_player": self._start,
            "turn_number": self._turn,
            "play_turns": self._play_turns,
            "placed": self._placed,
            "tiles": {space_name(s): [tile_name(t) for t in self._tiles[s]] for s in range(NSPACES)},
            "board_jokers": list(self.board_jokers),
            "ships": [_pos_name(x) for x in self._ship],
            "bathyscaphes": [[None if s < 0 else space_name(s) for s in b] for b in self._bath],
            "slots": [[tile_name(t) for t in s] for s in self._slots],
            "held_jokers": [[tile_name(t) for t in j] for j in self._jokers],
            "out_of_play": self.out_of_play,
            "hands": [list(self.hand(p)) for p in range(self._n)],
            "piles": [list(self.pile(p)) for p in range(self._n)],
            "undealt": [COLOURS[k] for k in sorted(self._undealt)],
            "current_turn": list(self._cur),
            "step": {
                "mode": self._mode,
                "did": self._did,
                "swaps": self._swaps,
                "activated": {str(b): v for b, v in self.activated.items()},
            },
            "scores": list(self.scores),
            "result": None
            if self._result is None
            else {"condition": self._result[0], "winners": list(self._result[1])},
        }

    @classmethod
    def from_state_dict(cls, d: Mapping[str, Any]) -> SubmarineGame:
        """A game in the state ``d`` (as :meth:`state_dict` writes it; no history, no record)."""
        g = cls(d["players"], seed=0, options=d["options"])
        g._phase = d["phase"]
        g._active = d["active"]
        g._start = d["start_player"]
        g._turn = d["turn_number"]
        g._play_turns = d["play_turns"]
        g._placed = d["placed"]
        g._tiles = [[parse_tile(x) for x in d["tiles"][space_name(s)]] for s in range(NSPACES)]
        g._bj = [False] * (NTILES + 5)
        for x in d["board_jokers"]:
            g._bj[parse_tile(x)] = True
        g._ship = [START if x == "start" else END if x == "end" else int(x) for x in d["ships"]]
        g._bath = [[-1 if s is None else parse_space(s) for s in b] for b in d["bathyscaphes"]]
        g._slots = [[parse_tile(x) for x in s] for s in d["slots"]]
        g._owned = [[False] * 12 for _ in range(g._n)]
        for p, s in enumerate(g._slots):
            for t in s:
                g._owned[p][t // 5] = True
        g._jokers = [[parse_tile(x) for x in j] for j in d["held_jokers"]]
        g._out = [d["out_of_play"][c] for c in COLOURS]
        g._hand = [[0] * 5 for _ in range(g._n)]
        for p, h in enumerate(d["hands"]):
            for c in h:
                g._hand[p][_COL[c]] += 1
        g._pile = [[_COL[c] for c in reversed(p)] for p in d["piles"]]
        g._undealt = [_COL[c] for c in d["undealt"]]
        g._live = [sum(h.count(c) for h in d["hands"]) + sum(x.count(c) for x in d["piles"]) for c in COLOURS]
        g._cur = list(d["current_turn"])
        step = d["step"]
        g._mode = step["mode"]
        g._did = step["did"]
        g._swaps = step.get("swaps", 0)
        g._act = {int(b): ("idle", "collecting", "done").index(v) for b, v in step["activated"].items()}
        r = d["result"]
        g._result = None if r is None else (r["condition"], tuple(r["winners"]))
        g._history = []
        g._events = []
        g._recordable = False
        return g

    def __repr__(self) -> str:
        return f"SubmarineGame({list(self._names)!r}, phase={self._phase!r}, turn={self._turn})"
