"""Submarine's part of the OpenSpiel game ``python_submarine`` (the generic game is
:mod:`dsa_widget.adapters.openspiel`; this module imports no OpenSpiel).

Parameters: ``players`` (2..5) and every rule option of :mod:`dsa_widget.submarine.options` but
``start_player`` (the two per-player-count tables by their names, ``deck`` a number: 60 or 75);
``turn_limit`` (E5) bounds a
game's length.  Actions are :class:`~dsa_widget.submarine.encoding.SubmarineEncoding`'s numbers.

**Chance, exact.**  All of Submarine's chance is its setup, dealt as chance nodes before play:
60 nodes lay the tiles in fill order (outcome: a tile id still left, each equally likely), one
node per card of every pile, top first, seat by seat (outcome: a colour, with probability the
share of that colour among the cards still in the box), then one node picks the start player
(``1/n`` each).  Play has no chance.

**What a seat knows.**  Beyond the public position, a seat sees its own hand change (what it
draws) and knows which colour it exchanged.  The public history hides every exchange's colour
(:meth:`SubmarineConfig.public_action`); the information state string adds the seat's own
hands and exchanges, action by action: perfect recall.  The information state tensor is the
observation (no knowledge part).

**Resampling** (``resample_from_infostate(p)``, what OpenSpiel's ISMCTS draws its worlds
with): the engine is ``p``'s view dealt afresh (:meth:`SubmarineView.sample`), with the cards
``p`` tucked under its own pile kept where they are, and no world E4 would already have ended;
the state keeps the public history and ``p``'s own log, so ``p``'s information state string and
tensor and its observation are the original's, and it plays on by the rules.  It is **not** the
exact posterior: every card ``p`` cannot see is dealt uniformly, but the history says more about
the other hands than the position does (a card collection needs that colour in hand, a collect
step that ended by itself says no further collection was possible, an ``end`` that one was),
and that is not used.  The other seats' logs start again at the resampled point (their past
hands are not drawn), its ``history()`` is empty (the true deal is not the drawn world's), and
nothing is read from the true hidden cards.  During the deal, a fresh deal prefix.

>>> cfg = RULES.configure({"players": 2})
>>> cfg.deal_length, cfg.num_actions, cfg.max_chance_outcomes
(91, 4648, 60)
>>> cfg.deal_string(0, 7), cfg.deal_string(60, 2), cfg.deal_string(90, 1)
('space 1.1 gets T02K3', "seat 0's pile card 1 is K3", 'seat 1 starts')
"""

from __future__ import annotations

import functools
import json
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from ..adapters.spiel_defaults import OpenGameConfig
from ..core.encoding import Encoding
from .encoding import SubmarineEncoding
from .options import CHOICES, DEFAULTS, NAMED_TABLES, resolve_options, table
from .rules import COLOURS, NTILES, SubmarineGame, space_name, tile_name
from .view import SubmarineView

__all__ = ["RULES", "SpielSubmarine", "SubmarineConfig", "SubmarineRules"]

#: the space each of the 60 fill positions lays its tile in (SUBMARINE.md 4, step 3)
_FILL = [(c - 1) * 4 + (d - 1) for d in range(1, 5) for c in range(1, 7) for _ in range(d)]
_EXCHANGES = {SubmarineEncoding().index(f"exchange {k}"): k for k in COLOURS}


def _parameters() -> dict[str, int | float | bool | str]:
    out: dict[str, int | float | bool | str] = {"players": 3}
    for key, value in DEFAULTS.items():
        if key == "start_player":
            continue
        out[key] = "default" if key in NAMED_TABLES else value
    out["deck"] = 60  # an int: OpenSpiel reads "60" in a game string back as one
    return out


class SubmarineRules:
    """The names and parameters OpenSpiel's registry needs (the adapter adds ``returns``)."""

    short_name = "python_submarine"
    long_name = "Python Submarine"
    min_players, max_players = 2, 5
    parameters: Mapping[str, int | float | bool | str] = _parameters()

    def configure(self, params: Mapping[str, Any]) -> SubmarineConfig:
        """The game for these parameters; a bad one raises :class:`~dsa_widget.submarine.SetupError`."""
        unknown = sorted(k for k in params if k not in self.parameters)
        if unknown:
            raise ValueError(f"unknown parameter {unknown[0]!r}; they are {', '.join(self.parameters)}")
        return _configure(tuple(sorted({**self.parameters, **params}.items())))

    def params_of(self, game: SubmarineGame | SubmarineView) -> dict[str, Any]:
        """The parameters of a game's (or a view's) setup (tables the named ones only)."""
        d = game.to_dict() if isinstance(game, SubmarineView) else game.view(None).to_dict()
        out: dict[str, Any] = {"players": len(d["players"])}
        for key in self.parameters:
            if key in NAMED_TABLES:
                named = NAMED_TABLES[key]
                out[key] = next((k for k, v in named.items() if v == d["options"][key]), "default")
            elif key == "deck":
                out[key] = int(d["options"][key])
            elif key != "players":
                out[key] = d["options"][key]
        return out

    def __reduce__(self) -> str:
        return "RULES"


@functools.lru_cache(maxsize=64)
def _configure(items: tuple[tuple[str, Any], ...]) -> SubmarineConfig:
    return SubmarineConfig(dict(items))


class SpielSubmarine(SubmarineGame):
    """A :class:`~dsa_widget.submarine.rules.SubmarineGame` as the adapter keeps it: ``copy``
    takes the adapter's keywords, ``view(seat, knower=None)`` gives the public knowledge seen
    from ``seat``, :attr:`seen` logs what each seat saw of its own hand and exchanges, and
    :meth:`known_pile` is what each seat remembers of its own pile (the cards it tucked)."""

    def start_log(self) -> None:
        """Begin the log: every seat's dealt hand, before any action."""
        self._applied = 0
        self._seen: tuple[tuple[tuple[int, int], ...], ...] = tuple(
            ((0, 8 * self._hand_code(q)),) for q in range(self.seats)
        )
        # per seat, its pile bottom first as the seat knows it: a colour index, or -1 (unseen)
        self._mine: tuple[tuple[int, ...], ...] = tuple((-1,) * n for n in self.pile_sizes())
        self._top = self.options["payment_destination"] == "top"

    def _hand_code(self, q: int) -> int:
        a, b, c, d, e = self.hand_counts(q)
        return a + 4 * b + 16 * c + 64 * d + 256 * e

    @property
    def seen(self) -> tuple[tuple[tuple[int, int], ...], ...]:
        """Per seat: ``(actions applied, 8 * hand code + exchanged colour + 1 or 0)`` each time its
        hand changed or it exchanged (the hand code counts K1..K5 in base 4)."""
        return self._seen

    @property
    def applied(self) -> int:
        """The actions applied since the deal."""
        return self._applied

    @property
    def pile_memory(self) -> tuple[tuple[int, ...], ...]:
        """Per seat, its pile bottom first as the seat knows it: a colour's index, or -1 (unseen);
        :meth:`known_pile` in colours, top first."""
        return self._mine

    def known_pile(self, q: int) -> tuple[str | None, ...]:
        """Seat ``q``'s pile, top first, as ``q`` knows it: the colour of a card it tucked under
        it (§5.2) while that card is still there, else ``None`` (dealt or paid cards are unseen)."""
        return tuple(None if k < 0 else COLOURS[k] for k in reversed(self._mine[q]))

    def apply_unchecked(self, action: str) -> None:
        actor = self.to_move
        before = [self._hand_code(q) for q in range(self.seats)]
        sizes = self.pile_sizes()
        super().apply_unchecked(action)
        self._applied += 1
        seen = list(self._seen)
        for q in range(self.seats):
            code = self._hand_code(q)
            x = COLOURS.index(action[9:]) + 1 if q == actor and action.startswith("exchange ") else 0
            if code != before[q] or x:
                seen[q] = (*seen[q], (self._applied, 8 * code + x))
        self._seen = tuple(seen)
        # the piles as their owners know them: an exchange tucks a known card under the pile; then
        # the actor's pile only loses cards from the top (payments, draws) and the others' only
        # gain unseen ones (payments, on top or at the bottom as the rule option says)
        tuck = COLOURS.index(action[9:]) if action.startswith("exchange ") else -1
        now = self.pile_sizes()
        if tuck < 0 and now == sizes:
            return
        mine = self._mine
        top = self._top
        for q, m in enumerate(mine):
            size = now[q]
            if q == actor and tuck >= 0:
                m = (tuck, *m)
            if len(m) > size:
                m = m[:size]
            elif len(m) < size:
                new = (-1,) * (size - len(m))
                m = m + new if top else new + m
            if m is not mine[q]:
                self._mine = mine = (*mine[:q], m, *mine[q + 1 :])

    def resample(self, seat: int, rng: random.Random) -> SpielSubmarine:
        """A state ``seat`` cannot tell from this one: its view dealt afresh
        (:meth:`SubmarineView.sample` with what it remembers of its pile), carrying ``seat``'s own
        log; every other seat's log starts again here, with its sampled hand (its past hands
        are not drawn)."""
        world: Any = self.view(seat).sample(rng, pile=self.known_pile(seat))
        world.__class__ = SpielSubmarine
        out: SpielSubmarine = world
        out.adopt(self, seat)
        return out

    def adopt(self, other: SpielSubmarine, seat: int) -> None:
        """Take ``other``'s action count and ``seat``'s log and pile memory (the others' start now)."""
        self._applied = other.applied
        self._top = self.options["payment_destination"] == "top"
        self._seen = tuple(
            other.seen[q] if q == seat else ((self._applied, 8 * self._hand_code(q)),)
            for q in range(self.seats)
        )
        self._mine = tuple(
            other.pile_memory[q] if q == seat else (-1,) * self.pile_sizes()[q] for q in range(self.seats)
        )

    def clone(self) -> SpielSubmarine:
        g: Any = super().clone()
        g.__class__ = SpielSubmarine  # the rules' clone makes a SubmarineGame: keep this class
        out: SpielSubmarine = g
        return out

    def copy(self, **_: bool) -> SpielSubmarine:
        """A clone (the adapter's ``history`` and ``events`` keywords change nothing here)."""
        return self.clone()

    def view(self, seat: int | None, knower: Any = "seat") -> SubmarineView:
        if knower is not None:
            return super().view(seat)
        public = super().view(None)
        return SubmarineView(seat, (), {**public.data, "seat": seat})


class SubmarineConfig(OpenGameConfig):
    """Submarine for one parameter set: what the generic adapter asks (shared and immutable)."""

    max_chance_outcomes = NTILES
    min_score = 0.0
    max_score = 12.0

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.params = dict(params)
        n = int(params["players"])
        options = {k: v for k, v in params.items() if k not in ("players", "deck")}
        if params["deck"] not in (60, 75):
            raise ValueError(f"deck is 60 or 75 cards, not {params['deck']!r}")
        self.options = resolve_options({**options, "deck": str(params["deck"])})
        self.num_players = n
        self._per_colour = 12 if self.options["deck"] == "60" else 15
        self._cards = table(self.options, "cards_per_player", n)
        self.deal_length = NTILES + n * self._cards + 1
        first = [c for c in range(5) for _ in range(self._per_colour)][: n * self._cards]
        self.placeholder: SpielSubmarine = self.start([*range(NTILES), *first, 0])  # checks the setup
        self.encoding: Encoding = SubmarineEncoding()
        self.num_actions = self.encoding.num_actions
        # a turn has at most 41 actions (options.WHOLE), and placing is one action a bathyscaphe
        baths = table(self.options, "bathyscaphes_per_player", n)
        self.max_game_length = self.deal_length + n * baths + 41 * int(self.options["turn_limit"])

    def __reduce__(self) -> Any:
        return (RULES.configure, (self.params,))

    # ---------------------------------------------------------------- the deal

    def deal_outcomes(self, dealt: Sequence[int]) -> tuple[tuple[int, Fraction], ...]:
        i = len(dealt)
        if i < NTILES:
            left = sorted(set(range(NTILES)) - set(dealt))
            return tuple((t, Fraction(1, len(left))) for t in left)
        if i < self.deal_length - 1:
            counts = [self._per_colour - dealt[NTILES:].count(k) for k in range(5)]
            total = sum(counts)
            return tuple((k, Fraction(m, total)) for k, m in enumerate(counts) if m)
        n = self.num_players
        return tuple((s, Fraction(1, n)) for s in range(n))

    def deal_string(self, i: int, k: int) -> str:
        if i < NTILES:
            return f"space {space_name(_FILL[i])} gets {tile_name(k)}"
        if i < self.deal_length - 1:
            p, pos = divmod(i - NTILES, self._cards)
            return f"seat {p}'s pile card {pos + 1} is {COLOURS[k]}"
        return f"seat {k} starts"

    def deal_of(self, game: Any) -> tuple[int, ...]:
        raise NotImplementedError("Submarine's states are resampled by resample, not through a deal")

    def resample(self, state: Any, player: int, rng: random.Random) -> Any:
        """``state.resample_from_infostate(player)``: ``player``'s view dealt afresh
        (:meth:`SpielSubmarine.resample`) in a state with ``state``'s public history, so that
        ``player``'s information state string and tensor are ``state``'s.  During the deal
        (nothing seen yet) a fresh deal prefix."""
        from ..adapters.openspiel import deal_prefix, state_with_engine

        c = state.core
        if c.engine is None:
            return deal_prefix(state.get_game(), len(c.dealt), rng)
        return state_with_engine(state, c.engine.resample(player, rng))

    def rebase(self, root: Any, like: Any) -> Any:
        raise NotImplementedError("Submarine's states are resampled by resample, not rebased")

    def engine_from_view(self, view: SubmarineView, rng: random.Random) -> SpielSubmarine:
        """The engine of a state built from ``view`` (``state_from_view``, what ``IsmctsBot``
        searches from): the view dealt afresh, every seat's log starting there."""
        world: Any = view.sample(rng)
        world.__class__ = SpielSubmarine
        out: SpielSubmarine = world
        out.start_log()
        return out

    def start(self, dealt: Sequence[int]) -> SpielSubmarine:
        n, k = self.num_players, self._cards
        cards = dealt[NTILES:-1]
        g = SpielSubmarine(
            n,
            seed=0,
            options=self.options,
            layout=[tile_name(t) for t in dealt[:NTILES]],
            piles=[[COLOURS[c] for c in cards[p * k : (p + 1) * k]] for p in range(n)],
            start=dealt[-1],
        )
        g.start_log()
        return g

    # ---------------------------------------------------------------- knowledge

    def public_action(self, action: int) -> str:
        """What every seat sees of an action: its number, but an exchange's colour (``x``)."""
        return "x" if action in _EXCHANGES else str(action)

    def knowledge_epoch(self, game: Any) -> Any:
        return game.seen

    def knowledge(self, game: Any, seat: int, public: bool = False) -> Mapping[int, int]:
        """What ``seat`` saw of its own hand and exchanges, by the number of actions applied."""
        return {} if public else dict(game.seen[seat])

    def knowledge_string(self, known: Mapping[int, int]) -> str:
        return ",".join(f"{i}={v}" for i, v in sorted(known.items()))

    def observation_string(self, view: SubmarineView) -> str:
        """The view as compact JSON (without its options and the legal actions)."""
        d = {k: v for k, v in view.data.items() if k not in ("options", "legal", "format")}
        return json.dumps(d, sort_keys=True, separators=(",", ":"))

    def chance_string(self, outcome: Any) -> str:  # pragma: no cover - play has no chance
        return str(outcome)


assert set(CHOICES) <= set(_parameters())

#: Submarine's OpenSpiel rules (the game registry names them)
RULES = SubmarineRules()
