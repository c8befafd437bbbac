"""The Crew's part of its OpenSpiel game: parameters, the fixed tasks, the deal as explicit chance
nodes with exact probabilities, and what a seat observes of them.  The pyspiel game, state and
observer are in :mod:`dsa_widget.adapters.crew_openspiel`; this module imports no OpenSpiel.

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
import random
from collections.abc import Mapping, Sequence
from fractions import Fraction
from math import factorial
from typing import Any

from .cards import DECK, NCARDS, card
from .draw import DEAL_EXCEPTIONS, TRICKS, draw_tasks
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
        CrewGame(players, mission=self.mission, options=self.options, seed=0, tasks=list(self.tasks))  # check
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

    def apply_chance(self, deal: dict[str, Any], o: int) -> None:
        """Record outcome ``o`` of the next chance node in ``deal`` (checked: ValueError)."""
        if o not in dict(self.chance_outcomes(deal)):
            raise ValueError(f"{o} is not an outcome of chance node {self.dealt_count(deal)}")
        self.record_chance(deal, o)

    def record_chance(self, deal: dict[str, Any], o: int) -> None:
        """Record outcome ``o`` of the next chance node in ``deal`` (not checked)."""
        if self.terrain_node and "terrain" not in deal:
            deal["terrain"] = o
        elif self.extra_node and "extra" not in deal:
            deal["extra"] = o
        else:
            deal["cards"].append(o)

    def dealt_count(self, deal: Mapping[str, Any]) -> int:
        return int("terrain" in deal) + int("extra" in deal) + len(deal["cards"])

    def chance_string(self, deal: Mapping[str, Any], o: int) -> str:
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

    def deal_string(self, deal: Mapping[str, Any], seat: int | None) -> str:
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

    def start(self, deal: Mapping[str, Any]) -> CrewGame:
        """The engine once every card is dealt."""
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

    def deal_of(self, game: CrewGame, terrain: int | None, extra: int | None) -> dict[str, Any]:
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


#: The Crew's OpenSpiel rules
RULES = CrewSpielRules()
