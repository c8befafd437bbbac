"""The Crew's part of its OpenSpiel game: parameters, the fixed tasks, the deal as explicit chance
nodes with exact probabilities, and what a seat observes of them.  The registry names
:data:`RULES`; the generic game of :mod:`dsa_widget.adapters.openspiel` serves it, asking
:class:`CrewConfig` its optional hooks for what only The Crew needs (what a seat sees of the
deal, its information state string, the bound on rejections, resampling, serialisation, the
centralised state).  This module imports no OpenSpiel.

**Chance nodes**, all before the first decision, in this order:

1. ``communication="terrain"`` only: the terrain card, outcome ``c`` (a coloured card, 0-35),
   1/36 each (R-11.13); public.
2. three seats with ``extra_card_seat="random"`` only: the seat dealt the 14th card, outcome
   the seat, 1/3 each; public (hand sizes are).
3. one node per card, in :attr:`CrewConfig.order` (the cards the deal exceptions of R-6.10 and
   the two-player rule R-4.6 constrain first, then the others in deck order).  The outcome is
   where the card goes: a seat (3-5 players); with two players ``0..13`` is Tonoja's position
   (``0-6`` face down in columns 1-7, ``7-13`` face up) and ``14 + i`` the ``i``-th human.  The
   probability of an outcome is the share of the *valid* complete deals that extend it: every
   valid deal (the right hand sizes, S4 with a human, no hand holding a set of R-6.10 for a
   drawn task) is equally likely, exactly as the engine's shuffle and redeal-until-valid make
   it.  Counting is exact (:func:`count_completions`, integers), the probabilities are
   :class:`~fractions.Fraction` objects.  The receiving seat observes its card; Tonoja's
   face-up cards are public; nobody observes a face-down card (until it turns up in play).

**Tasks** are not drawn by chance nodes: the parameter ``tasks`` (``"17 23"``: ids separated by
spaces; commas are accepted but break OpenSpiel's game strings) fixes them, or,
when it is empty, they are drawn once when the game is made, with
:func:`~dsa_widget.crew.draw.draw_tasks` and ``random.Random(seed)`` (parameter ``seed``), so one
loaded game always has the same tasks (public, known to every seat from the start).

>>> cfg = RULES.configure({"players": 4, "tasks": "30"})     # task 30: redeal when S1-S4 meet
>>> cfg.order[:4], len(cfg.order), cfg.max_chance_outcomes
(('S1', 'S2', 'S3', 'S4'), 40, 4)
>>> cfg.card_outcomes({"cards": [0, 0, 0]})                  # S1, S2, S3 with seat 0: not S4
((1, Fraction(1, 3)), (2, Fraction(1, 3)), (3, Fraction(1, 3)))
>>> cfg2 = RULES.configure({"players": 2})
>>> cfg2.seats, cfg2.humans, cfg2.order[0], dict(cfg2.card_outcomes({"cards": []}))[14]
(3, (0, 1), 'S4', Fraction(1, 2))
"""

from __future__ import annotations

import functools
import json
import operator
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import factorial
from typing import Any

from ..core.encoding import Encoding
from ..core.protocol import GameState
from .cards import DECK, NCARDS, card
from .draw import DEAL_EXCEPTIONS, TRICKS, deal_exception, draw_tasks
from .encoding import ACCEPT, DECLINE, NUM_ACTIONS, OBSERVATION_SIZE, REJECT, CrewEncoding
from .knowledge import sample_deal
from .mission import Mission
from .options import DEFAULTS, OPTIONS, resolve_options
from .rules import CrewGame
from .tasks import task_table

__all__ = ["RULES", "CrewConfig", "CrewSpielRules", "count_completions"]

_S4 = card("S4")


def _option_param(v: Any) -> Any:
    return " ".join(str(x) for x in v) if isinstance(v, tuple) else v


class CrewSpielRules:
    """The names and parameters OpenSpiel's registry needs (each rule option of CREW.md §16 is
    a parameter, ``task11_difficulty`` as ``"2 2 3"``)."""

    short_name = "python_the_crew_deep_sea"
    long_name = "Python The Crew: Mission Deep Sea"
    #: every player gets the same return (OpenSpiel's ``Utility.IDENTICAL``)
    utility = "IDENTICAL"
    min_players = 2
    max_players = 5
    parameters: Mapping[str, int | float | bool | str] = {
        "players": 4,
        "target": 3,
        "tasks": "",
        "seed": 0,
        "allocation": "normal",
        "volunteers": 1,
        "communication": "normal",
        "deal_check": True,
        "max_rejections": 8,
        **{k: _option_param(v) for k, v in DEFAULTS.items()},
    }

    def configure(self, params: Mapping[str, Any]) -> CrewConfig:
        """The game for these parameters (missing ones take their defaults)."""
        unknown = sorted(k for k in params if k not in self.parameters)
        if unknown:
            raise ValueError(f"unknown parameter {unknown[0]!r}; they are {', '.join(self.parameters)}")
        return _configure(tuple(sorted({**self.parameters, **params}.items())))

    def params_of(self, game: Any) -> dict[str, Any]:
        """The parameters of a game's (or a view's) mission: its players, tasks and options."""
        g = game if isinstance(game, CrewGame) else game.sample(random.Random(0))
        m = g.mission
        opts = {k: _option_param(v) for k, v in g.options.items() if k in DEFAULTS}
        return {
            "players": len(g.humans),
            "target": m.target if m.target is not None and g.task_ids else 0,
            "tasks": " ".join(str(t) for t in g.task_ids),
            "allocation": m.allocation,
            "volunteers": m.volunteers,
            "communication": m.communication,
            **opts,
        }

    def __reduce__(self) -> str:
        return "RULES"


@functools.lru_cache(maxsize=64)
def _configure(items: tuple[tuple[str, Any], ...]) -> CrewConfig:
    return CrewConfig(dict(items))


@functools.lru_cache(maxsize=100_000)
def count_completions(
    specials: tuple[int, ...],
    hands: tuple[int, ...],
    caps: tuple[int, ...],
    ordinary: int,
    rules: tuple[Any, ...],
) -> int:
    """The number of ways to deal the rest: the ``specials`` (card ints) one by one to seats with
    room, then ``ordinary`` interchangeable cards into the room left (``caps`` per seat), such
    that no seat's ``hands`` mask (its special cards so far) ends up holding a forbidden set.
    ``rules`` is ``(forbidden masks, no_s4_seat or -1, tonoja seat or -1)``; a Tonoja seat's
    cards are also ordered over its free positions (its factor ``caps[t]!``)."""
    forbidden, no_s4, tonoja = rules
    if not specials:
        if any(h & m == m for h in hands for m in forbidden) or (no_s4 >= 0 and hands[no_s4] >> _S4 & 1):
            return 0
        denom = 1
        for r in caps:
            denom *= factorial(r)
        out = factorial(ordinary) // denom
        if tonoja >= 0:
            out *= factorial(caps[tonoja])
        return out
    c, rest = specials[0], specials[1:]
    total = 0
    for s, r in enumerate(caps):
        if r == 0 or (c == _S4 and s == no_s4):
            continue
        h = hands[s] | 1 << c
        if any(h & m == m for m in forbidden):
            continue
        new_caps = caps[:s] + (r - 1,) + caps[s + 1 :]
        new_hands = hands[:s] + (h,) + hands[s + 1 :]
        # Tonoja's special card is put in one of its free positions: the factor r, and the
        # recursion's factorial covers the rest of its positions
        w = count_completions(rest, new_hands, new_caps, ordinary, rules)
        total += w * (r if s == tonoja else 1)
    return total


class CrewConfig:
    """The Crew for one parameter set (shared, immutable): the fixed tasks, the deal's chance
    nodes and bounds."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.params = dict(params)
        opts: dict[str, Any] = {}
        for k in OPTIONS:
            v = params[k]
            if k == "task11_difficulty" and isinstance(v, str):
                v = tuple(int(x) for x in v.replace(",", " ").split())
            opts[k] = v
        self.options = resolve_options(opts)
        players = int(params["players"])
        alloc = str(params["allocation"])
        vol = int(params["volunteers"])
        comm = str(params["communication"])
        target = int(params["target"])
        self.mission = Mission(target=target, allocation=alloc, volunteers=vol, communication=comm)
        probe = CrewGame(players, mission=self.mission, options=self.options, seed=0, tasks=[])
        self.num_players = players
        self.seats = probe.seats
        self.humans = probe.humans
        self.dummy = probe.dummy
        self.tricks_total = TRICKS[self.seats]
        if str(params["tasks"]).strip():
            self.tasks = tuple(int(t) for t in str(params["tasks"]).replace(",", " ").split())
        else:
            self.tasks = draw_tasks(
                random.Random(int(params["seed"])),
                seats=self.seats,
                target=target,
                allocation=alloc,
                table=task_table(self.options),
                options=self.options,
                volunteers=vol,
            ).tasks
        full = CrewGame(players, mission=self.mission, options=self.options, seed=0, tasks=list(self.tasks))
        #: the numbering (it refuses an allocation with free proposals), for every game of these
        #: parameters; an engine before play, for the adapter's sake
        self.numbers = CrewEncoding(full)
        self.encoding: Encoding = self.numbers
        self.placeholder: GameState = full
        self.num_actions = NUM_ACTIONS
        self.min_score, self.max_score = 0.0, 1.0
        #: the information state tensor's extra: the order of every card's play (see ``knowledge``)
        self.knowledge_size = NCARDS
        #: the knowledge (the order of play) is public: every seat's is the same
        self.knowledge_shared = True
        self.state_size = OBSERVATION_SIZE * len(self.humans) + NCARDS
        self.deal_check = bool(params["deal_check"])
        self.max_rejections = int(params["max_rejections"])
        forbidden: list[int] = []
        if self.deal_check:
            for t in self.tasks:
                forbidden.extend(DEAL_EXCEPTIONS.get(t, ()))
        self.forbidden = tuple(sorted(set(forbidden)))
        special = 0
        for m in self.forbidden:
            special |= m
        if self.dummy is not None:
            special |= 1 << _S4
        first = [c for c in range(NCARDS) if special >> c & 1]
        self._order = tuple(first + [c for c in range(NCARDS) if not special >> c & 1])
        self.order = tuple(DECK[c] for c in self._order)
        self._special = frozenset(first)
        self.terrain_node = comm == "terrain"
        self.extra_node = (
            self.seats == 3 and self.dummy is None and self.options["extra_card_seat"] == "random"
        )
        self.prefix = int(self.terrain_node) + int(self.extra_node)
        #: the outcomes of an unconstrained card node, by the room left per seat (``deal_outcomes``)
        self._plain: dict[tuple[int, ...], tuple[tuple[int, Fraction], ...]] = {}
        #: the last deal asked of :meth:`deal_outcomes` (a tuple) and its answer
        self._last: tuple[Any, tuple[tuple[int, Fraction], ...]] = (None, ())
        self.deal_length = self.prefix + NCARDS
        outs = [self.seats if self.dummy is None else 16]
        if self.terrain_node:
            outs.append(36)
        self.max_chance_outcomes = max(outs)
        n, nt, t = self.seats, len(self.tasks), self.tricks_total
        r = self.max_rejections
        # decisions: timing, assignment (turns, proposals and confirmations, decisions),
        # predictions, distress (proposals, votes, cards), communication turns and the plays
        self.max_game_length = (
            1 + (2 * nt + n) + (r + 1) * n + 2 * (r + 1) + n + nt + 3 * n + (t + 2) * n + NCARDS
        )

    def __deepcopy__(self, memo: dict[int, Any]) -> CrewConfig:
        return self

    def __reduce__(self) -> Any:
        return (RULES.configure, (self.params,))

    # ---------------------------------------------------------------- the deal

    def _caps(self, extra: int | None) -> list[int]:
        n = self.seats
        if self.dummy is not None:
            return [14 if s == self.dummy else 13 for s in range(n)]
        if n == 3:
            big = extra if extra is not None else 0
            return [14 if s == big else 13 for s in range(n)]
        return [NCARDS // n] * n

    def seat_of_outcome(self, o: int) -> int:
        """The seat a card outcome gives the card to."""
        if self.dummy is None:
            return o
        assert self.dummy is not None
        return self.dummy if o < 14 else self.humans[o - 14]

    def _weight(self, hands: Sequence[int], caps: Sequence[int], i: int) -> int:
        """Valid completions once cards ``order[:i]`` are dealt (``hands``: the special cards
        per seat, ``caps``: the room left per seat)."""
        left = self._order[i:]
        specials = tuple(c for c in left if c in self._special)
        rules = (
            self.forbidden,
            -1 if self.dummy is None else self.dummy,
            -1 if self.dummy is None else self.dummy,
        )
        return count_completions(specials, tuple(hands), tuple(caps), len(left) - len(specials), rules)

    def _deal_state(self, deal: Mapping[str, Any]) -> tuple[list[int], list[int], set[int]]:
        caps = self._caps(deal.get("extra"))
        hands = [0] * self.seats
        used: set[int] = set()
        for i, o in enumerate(deal["cards"]):
            s = self.seat_of_outcome(o)
            caps[s] -= 1
            c = self._order[i]
            if c in self._special:
                hands[s] |= 1 << c
            if self.dummy is not None and o < 14:
                used.add(o)
        return hands, caps, used

    def card_outcomes(self, deal: Mapping[str, Any]) -> tuple[tuple[int, Fraction], ...]:
        """The next card node's outcomes with their exact probabilities (they sum to 1), given
        the deal so far (``{"terrain": c, "extra": s, "cards": [outcome, ...]}``)."""
        i = len(deal["cards"])
        hands, caps, used = self._deal_state(deal)
        c = self._order[i]
        if c not in self._special:
            # no constrained card is left (they come first): every completion is valid, so a
            # seat's chance is its room over the cards left (a Tonoja position: one each)
            left = NCARDS - i
            if self.dummy is None:
                return tuple((s, Fraction(r, left)) for s, r in enumerate(caps) if r)
            tonoja = tuple((p, Fraction(1, left)) for p in range(14) if p not in used)
            return tonoja + tuple(
                (14 + j, Fraction(caps[h], left)) for j, h in enumerate(self.humans) if caps[h]
            )
        total = self._weight(hands, caps, i)
        out: list[tuple[int, Fraction]] = []
        cand: list[int]
        if self.dummy is None:
            cand = list(range(self.seats))
        else:
            cand = [p for p in range(14) if p not in used] + [14 + j for j in range(len(self.humans))]
        for o in cand:
            s = self.seat_of_outcome(o)
            if caps[s] == 0:
                continue
            h2 = list(hands)
            if c in self._special:
                h2[s] |= 1 << c
            c2 = list(caps)
            c2[s] -= 1
            w = self._weight(h2, c2, i + 1)  # Tonoja: this one position (the rest ordered within)
            if w:
                out.append((o, Fraction(w, total)))
        return tuple(out)

    def chance_outcomes(self, deal: Mapping[str, Any]) -> tuple[tuple[int, Fraction], ...]:
        """The outcomes of the next chance node of the deal."""
        if self.terrain_node and "terrain" not in deal:
            return tuple((c, Fraction(1, 36)) for c in range(36))
        if self.extra_node and "extra" not in deal:
            return tuple((s, Fraction(1, 3)) for s in range(3))
        return self.card_outcomes(deal)

    def node_string(self, deal: Mapping[str, Any], o: int) -> str:
        """Outcome ``o`` of the next chance node of ``deal``, in words."""
        if self.terrain_node and "terrain" not in deal:
            return f"terrain {DECK[o]}"
        if self.extra_node and "extra" not in deal:
            return f"seat {o} gets 14 cards"
        c = DECK[self._order[len(deal["cards"])]]
        if self.dummy is not None and o < 14:
            return f"{c} to Tonoja {'face down' if o < 7 else 'face up'}, column {o % 7 + 1}"
        return f"{c} to seat {self.seat_of_outcome(o)}"

    def visible(self, o: int, seat: int | None) -> bool:
        """Does ``seat`` (None: everybody) see a card outcome ``o``?"""
        if self.dummy is not None and 7 <= o < 14:
            return True
        return seat is not None and self.seat_of_outcome(o) == seat

    def seen_string(self, deal: Mapping[str, Any], seat: int | None) -> str:
        """The deal as ``seat`` observed it (None: the public), node by node."""
        parts = []
        if "terrain" in deal:
            parts.append(f"t{DECK[deal['terrain']]}")
        if "extra" in deal:
            parts.append(f"x{deal['extra']}")
        for i, o in enumerate(deal["cards"]):
            c = DECK[self._order[i]]
            parts.append(f"{c}>{o}" if self.visible(o, seat) else f"{c}?")
        return ",".join(parts)

    def seen_cards(self, deal: Mapping[str, Any], seat: int | None) -> list[int]:
        """The cards ``seat`` received so far."""
        return [
            self._order[i]
            for i, o in enumerate(deal["cards"])
            if seat is not None and self.seat_of_outcome(o) == seat
        ]

    def start_deal(self, deal: Mapping[str, Any]) -> CrewGame:
        """The engine once every card of ``deal`` is dealt."""
        hands: list[list[str]] = [[] for _ in range(self.seats)]
        tonoja: list[str] = [""] * 14
        for i, o in enumerate(deal["cards"]):
            c = DECK[self._order[i]]
            if self.dummy is not None and o < 14:
                tonoja[o] = c
            else:
                hands[self.seat_of_outcome(o)].append(c)
        if self.dummy is not None:
            hands[self.dummy] = tonoja
        return CrewGame(
            self.num_players,
            mission=self.mission,
            options=self.options,
            seed=0,
            deal=hands,
            tasks=list(self.tasks),
            terrain=DECK[deal["terrain"]] if "terrain" in deal else None,
            deal_check=False,
        )

    def deal_dict_of(self, game: CrewGame, terrain: int | None, extra: int | None) -> dict[str, Any]:
        """The chance outcomes that deal ``game``'s cards (``game.dealt``)."""
        where: dict[int, int] = {}
        for s, h in enumerate(game.dealt):
            for pos, cid in enumerate(h):
                c = card(cid)
                if s == self.dummy:
                    where[c] = pos
                else:
                    where[c] = s if self.dummy is None else 14 + self.humans.index(s)
        deal: dict[str, Any] = {"cards": [where[c] for c in self._order]}
        if terrain is not None:
            deal["terrain"] = terrain
        if extra is not None:
            deal["extra"] = extra
        return deal

    def valid(self, hands: Sequence[int]) -> bool:
        """Does a complete deal (card masks per seat) pass R-6.10 and R-4.6?"""
        if self.dummy is not None and hands[self.dummy] >> _S4 & 1:
            return False
        return not any(h & m == m for h in hands for m in self.forbidden)

    def outcome_for(self, seat: int) -> int:
        """The card outcome that gives a card to human ``seat``."""
        return seat if self.dummy is None else 14 + self.humans.index(seat)

    def resample_deal(self, deal: Mapping[str, Any], seat: int | None, rng: random.Random) -> dict[str, Any]:
        """A deal prefix drawn from those ``seat`` cannot tell from ``deal``, exactly: a uniform
        valid complete deal that agrees with what ``seat`` saw, cut to the same length.  (The
        seat's remaining room and Tonoja's face-up positions not seen yet can only be filled by
        cards still to come; every other slot by any card it did not see; then rejection for
        R-4.6 and R-6.10.)"""
        n_done = len(deal["cards"])
        caps = self._caps(deal.get("extra"))
        seen: dict[int, int] = {}
        hidden: list[int] = []
        for i, o in enumerate(deal["cards"]):
            if self.visible(o, seat):
                seen[i] = o
            else:
                hidden.append(i)
        for _ in range(100_000):
            out = dict(seen)
            room = list(caps)
            free_t = set(range(14)) if self.dummy is not None else set()
            for o in seen.values():
                room[self.seat_of_outcome(o)] -= 1
                free_t.discard(o)
            future = list(range(n_done, NCARDS))
            rng.shuffle(future)
            if seat is not None:
                for _k in range(room[seat]):
                    out[future.pop()] = self.outcome_for(seat)
                room[seat] = 0
            if self.dummy is not None:
                for p in sorted(q for q in free_t if q >= 7):
                    out[future.pop()] = p
                    free_t.discard(p)
            rest = hidden + future
            rng.shuffle(rest)
            slots: list[int] = []
            for s in range(self.seats):
                if s == self.dummy:
                    slots.extend(sorted(free_t))
                elif s != seat:
                    slots.extend([self.outcome_for(s)] * room[s])
            for i, o in zip(rest, slots, strict=True):
                out[i] = o
            masks = [0] * self.seats
            for i, o in out.items():
                masks[self.seat_of_outcome(o)] |= 1 << self._order[i]
            if self.valid(masks):
                res: dict[str, Any] = {k: v for k, v in deal.items() if k != "cards"}
                res["cards"] = [out[i] for i in range(n_done)]
                return res
        raise RuntimeError("no valid deal agrees with what the seat saw")  # pragma: no cover

    # ---------------------------------------------------------------- the generic adapter's
    # (dsa_widget.adapters.openspiel): the deal as a tuple of outcomes, node by node

    def deal(self, dealt: Sequence[int]) -> dict[str, Any]:
        """The deal dict (``{"terrain": c, "extra": s, "cards": [...]}``) of outcomes in node order."""
        out: dict[str, Any] = {"cards": list(dealt[self.prefix :])}
        i = 0
        if self.terrain_node and len(dealt) > i:
            out["terrain"] = dealt[i]
            i += 1
        if self.extra_node and len(dealt) > i:
            out["extra"] = dealt[i]
        return out

    @staticmethod
    def outcomes(deal: Mapping[str, Any]) -> tuple[int, ...]:
        """The chance outcomes of a deal dict, in node order."""
        head = [deal[k] for k in ("terrain", "extra") if k in deal]
        return (*head, *deal["cards"])

    def deal_outcomes(self, dealt: Sequence[int]) -> tuple[tuple[int, Fraction], ...]:
        # the generic adapter asks twice a node for the same tuple (the outcomes, then the check
        # of the one drawn): the last answer is kept with the tuple it was for (a tuple: its
        # identity says it is the same deal)
        last = self._last
        if last[0] is dealt:
            return last[1]
        out = self._deal_outcomes(tuple(dealt))
        if type(dealt) is tuple:
            self._last = (dealt, out)
        return out

    def _deal_outcomes(self, dealt: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
        i = len(dealt) - self.prefix  # the card node's number (terrain and extra first)
        if self.dummy is None and 0 <= i < NCARDS and self._order[i] not in self._special:
            # an unconstrained card (:meth:`card_outcomes`): a seat's chance is its room over the
            # cards left, so the outcomes depend on the room alone; the same tuple for the same
            # room (OpenSpiel's float copy of it is then kept too)
            caps = self._caps(dealt[self.prefix - 1] if self.extra_node else None)
            cards = dealt[self.prefix :]
            room = tuple(map(operator.sub, caps, map(cards.count, range(self.seats))))
            hit = self._plain.get(room)
            if hit is None:
                left = NCARDS - i
                hit = self._plain[room] = tuple((s, Fraction(r, left)) for s, r in enumerate(room) if r)
            return hit
        return _deal_outcomes(self, dealt)

    def deal_string(self, i: int, k: int) -> str:
        """Outcome ``k`` of chance node ``i`` in words (a node's meaning depends only on ``i``)."""
        deal: dict[str, Any] = {"cards": [0] * max(0, i - self.prefix)}
        if self.terrain_node and i > 0:
            deal["terrain"] = 0
        if self.extra_node and i > int(self.terrain_node):
            deal["extra"] = 0
        return self.node_string(deal, k)

    def deal_of(self, game: CrewGame) -> tuple[int, ...]:
        """The chance outcomes that deal ``game``'s cards, terrain card and 14th card."""
        terrain = DECK.index(game.terrain) if self.terrain_node and game.terrain is not None else None
        extra = None
        if self.extra_node:
            extra = next(s for s, h in enumerate(game.dealt) if len(h) == 14)
        return self.outcomes(self.deal_dict_of(game, terrain, extra))

    def start(self, dealt: Sequence[int]) -> CrewGame:
        return self.start_deal(self.deal(dealt))

    def rebase(self, root: Any, like: Any) -> Any:
        return like

    def chance_string(self, outcome: Any) -> str:  # pragma: no cover - no chance after the deal
        return str(outcome)

    def observation_string(self, view: Any) -> str:
        """The view's JSON (``CrewView.to_dict()``) without the mission and options."""
        d = view.to_dict()
        d.pop("mission", None)
        d.pop("options", None)
        return json.dumps(d, sort_keys=True, separators=(",", ":"))

    def deal_observation(self, dealt: Sequence[int], seat: int | None) -> list[float]:
        """The observation while the cards are dealt: the seats and the cards ``seat`` has got."""
        seen = self.seen_cards(self.deal(dealt), seat)
        return self.numbers.observe_deal(self.seats, self.dummy, seat, seen)

    def deal_observation_string(self, dealt: Sequence[int], seat: int | None) -> str:
        return f"deal {len(dealt)}/{self.deal_length} {self.seen_string(self.deal(dealt), seat)}"

    def information_string(self, dealt: Sequence[int], engine: CrewGame | None, seat: int | None) -> str:
        """``<the deal as the seat saw it>|<public history as it knows it>|<what it knows now>``."""
        head = self.seen_string(self.deal(dealt), seat)
        if engine is None:
            return head
        if not dealt and seat is not None:  # a state built from an engine: the hand it was dealt
            head = "h" + ",".join(DECK[card(x)] for x in engine.dealt[seat])
        view = engine.view(seat)
        hist = " ".join(f"{s}:{a}" for s, a in view.public_history)
        return f"{head}|{hist}|{_revealed(view)}"

    def public_view(self, engine: CrewGame, seat: int) -> Any:
        return engine.view(None)

    def narrow_legal(self, numbers: list[int], public: str) -> list[int]:
        """After ``max_rejections`` rejections (``reject``, ``decline``) they are no longer offered,
        so that ``max_game_length`` bounds every game."""
        if REJECT not in numbers and DECLINE not in numbers:
            return numbers
        done = sum(1 for a in public.split() if a in _REJECTIONS)
        if done < self.max_rejections:
            return numbers
        return [a for a in numbers if a not in (REJECT, DECLINE)] or [ACCEPT]

    # the information state tensor's extra (the generic adapter's "knowledge"): the order cards
    # were played in, public, so the whole trick history

    def knowledge_epoch(self, game: CrewGame) -> tuple[int, ...]:
        """The cards played so far, in order (what the knowledge is a function of)."""
        return (*(c for t in game.tricks for _, c in t.plays), *(c for _, c in game.current_trick))

    def knowledge(self, game: CrewGame, seat: int, public: bool = False) -> Mapping[int, int]:
        """Card -> the number of its play (1 for the first card played in the attempt)."""
        return {c: k + 1 for k, c in enumerate(self.knowledge_epoch(game))}

    def knowledge_string(self, known: Mapping[int, int]) -> str:
        return ""

    def knowledge_tensor(self, known: Mapping[int, int]) -> list[float]:
        out = [0.0] * NCARDS
        for c, k in known.items():
            out[c] = float(k)
        return out

    def pack_engine(self, engine: CrewGame) -> tuple[tuple[int, str], ...]:
        """What serialises an engine (which does not pickle): its actions, replayed on the deal."""
        return engine.actions

    def unpack_engine(self, packed: Sequence[tuple[int, str]], dealt: Sequence[int]) -> CrewGame:
        engine = self.start(dealt)
        for seat, action in packed:
            engine.apply_unchecked(action, seat)
        return engine

    def full_state(self, engine: CrewGame | None, dealt: Sequence[int]) -> list[float]:
        """The centralised training state: every player's observation, then Tonoja's cards
        (every card's place: hidden information)."""
        if engine is None:
            obs = [x for q in self.humans for x in self.deal_observation(dealt, q)]
            return obs + [0.0] * NCARDS
        return self.numbers.full_state(engine)

    def resample(self, state: Any, player: int, rng: random.Random) -> Any:
        """A state drawn from those ``player`` cannot tell from ``state``: the hidden cards from
        its view (:func:`~dsa_widget.crew.knowledge.sample_deal`, exactly uniform among consistent
        deals), the deal rebuilt (``CrewGame.from_view``), the actions replayed (the hidden ones,
        distress cards and predictions, as sampled); a draw is kept only when the new state has
        ``player``'s information state string (rejection: deals R-6.10 excludes, and anything the
        knowledge does not model)."""
        c = state.core
        seat = self.humans[player]
        game = state.get_game()
        if c.engine is None:
            return _replayed(game, self.outcomes(self.resample_deal(self.deal(c.dealt), seat, rng)), [])
        target = state.information_state_string(player)
        view = c.engine.view(seat)
        k = view.knowledge()
        deal_now = self.deal(c.dealt)
        enc = self.encoding
        for _ in range(1000):
            extra = sample_deal(k, rng)
            world = CrewGame.from_view(view, [k.known[s] | int(extra[s]) for s in range(view.seats)], rng)
            masks = [sum(1 << card(x) for x in h) for h in world.dealt]
            if not self.valid(masks) or (self.deal_check and deal_exception(masks, self.tasks)):
                continue
            dealt = self.outcomes(self.deal_dict_of(world, deal_now.get("terrain"), deal_now.get("extra")))
            try:  # the public actions, the hidden ones (distress cards, predictions) as sampled
                st = _replayed(game, dealt, [enc.index(h["action"]) for h in world.history])
            except Exception:  # noqa: BLE001 - pyspiel wraps the ValueError of an illegal action
                continue
            if st.information_state_string(player) == target:
                return st
        raise RuntimeError("no state consistent with the information state was found")


_REJECTIONS = (str(REJECT), str(DECLINE))


@functools.lru_cache(maxsize=4096)
def _deal_outcomes(cfg: CrewConfig, dealt: tuple[int, ...]) -> tuple[tuple[int, Fraction], ...]:
    return cfg.chance_outcomes(cfg.deal(dealt))


def _replayed(game: Any, dealt: Sequence[int], actions: Sequence[int]) -> Any:
    """A new state of ``game``: the deal's outcomes, then the engine's ``actions`` (those a
    ``skip_forced`` game applied by itself are passed over)."""
    st = game.new_initial_state()
    for o in dealt:
        st.apply_action(o)
    for i, a in enumerate(actions):
        if st.core.engine.turn_number <= i:
            st.apply_action(a)
    return st


def _revealed(view: Any) -> str:
    """What a view knows beyond its history: the captain, Tonoja's turned-up cards, the distress
    cards, the predictions and statuses, the communications as shown to it."""
    layout = ",".join(d or "?" for _, d in view.dummy_layout)
    d = view.distress
    dist = f"{d.get('given') or '-'}>{d.get('given_to')}<{d.get('received') or '-'}"
    tasks = ",".join(f"{t}:{o}:{st}:{'?' if h else p}" for t, o, st, p, _pr, h in view.tasks)
    comms = ",".join(f"{cm.seat}{cm.card}{cm.position[0]}" for cm in view.communicated)
    return f"cap{view.captain}|{layout}|{dist}|{tasks}|{comms}"


#: The Crew's OpenSpiel rules
RULES = CrewSpielRules()
