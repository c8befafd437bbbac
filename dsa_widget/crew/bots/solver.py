"""Double-dummy solver for *The Crew* (teaching and analysis mode: every hand shown).

**This module reads the true hands** (``game.hand(seat)``, Tonoja's face-down cards included).
It is for the teaching screen that shows every hand, for analysis and for tests — it is
**never** used by a bot that plays, and nothing it returns may reach a seat's screen in a
normal game.

The Crew is cooperative, so "double dummy" here is not a min-max search: every seat plays for
the team, and the question is whether *some* sequence of legal plays from the current
position makes the mission succeed (CREW.md R-14.1).  :func:`solve` answers it exactly (or
says that its node budget ran out: ``winnable=None``, ``exact=False``, never a guess) and
gives a winning line, the plays ``(seat, "play P3")`` up to the trick at which the mission
succeeds.

Rules used: follow suit R-10.2 (submarines are a suit), the winner R-10.3, Tonoja R-4.8 /
R-4.9 (only face-up cards are played and followed; the card under a played face-up card
turns up after the trick — the solver knows it, since every hand is shown).  The task
statuses after every trick are the engine's own :class:`~dsa_widget.crew.status.StatusTracker`
(one tracker, each trick pushed and taken back; a branch stops at failure and the search
returns at success).
Communication and the distress signal do not change the cards: the solver ignores them and
plays from the current hands (a line never contains ``comm`` or ``pass``).

Two exact searches run side by side (:func:`solve`'s ``search="auto"``), and the first to
finish answers: a plain depth-first search (every trick, ordered by what the seats' tasks
want, searched as soon as it is evaluated; it finds an easy win in a few dozen tricks) dives
first, alone, for :data:`PLAIN_START` tricks; only if that does not settle the position is the
ordered search built (its set-up is paid only then), and the plain search goes on with
:data:`PLAIN_PACE` tricks for each trick of the ordered one (about the CPU time of the
ordered one's first thousands: a position costs about twice the faster of the two at most), up to
:data:`PLAIN_SHARE` of the budget (at most :data:`PLAIN_CAP` tricks); the ordered search settles
the rest.

The ordered search: depth first over whole tricks.  Cards of one hand that are interchangeable for the
trick winners and for every open task (adjacent in a suit among the cards still in play, same
membership in every set an open task or constraint names) are tried once; every completed
trick is evaluated with the tracker (and the necessary conditions below) before any
is searched: the ones that complete tasks go first, then the ones that leave the most tricks
to spare, then the ones where a seat takes the cards its tasks want.  After a share of the
budget the search restarts with the "room to spare" key left out, and back (the time to find
a win is heavy-tailed in the order), keeping the lost positions found so far: attempts of
1, 1, 2, 2 and 4 tenths of the budget, the budget taken as at most :data:`RESTART_SCALE` (a
larger budget only adds attempts after these: one of :data:`DEEPEN_TRICKS` tricks that deepens
the trick the mission must succeed by: 1, 2, ... tricks from now, which finds early wins the
move order ranks late; then attempts of :data:`SHUFFLE_TRICKS` tricks times Luby's sequence 1,
1, 2, 1, 1, 2, 4, ..., each breaking the ties of the order by a new fixed pseudo-random
permutation, which finds the wins the order's own tie-break ranks late).  A
transposition table keeps the lost positions at trick boundaries, keyed on the cards up to a
renaming that keeps suits, order within a suit, holders and task sets, Tonoja's columns, the
leader, the statuses, and what the open tasks still count of the captured cards and tricks
(of the tricks, only the counts, runs or positions an open task reads: the owner's count for an
exact count, the owner's and the captain's for a comparison with the captain).
Cheap necessary conditions prune (each also follows from the rules): the tricks each seat must
still take add up to at most the tricks left; a card one seat must capture and another must
not, or two seats must capture, is lost; a submarine a seat must capture from another hand
needs a higher one of its own that it may capture (no card-count or win task can count on one
it cannot); the highest submarines, when one seat holds them, are that seat's captures (tasks
that count submarines); in the tricks that must be played before the mission can succeed, a
seat wins a trick with each of its submarines that no higher one of another hand can be paired
with, less the cards it may keep unplayed (a trick-count lower bound; before the last trick it
keeps none of the cards an open task needs played, and a seat that must capture no submarine of
its own loses at the first such sure win), and "fewer tricks than
each other seat" cannot be DONE before its owner has played the cards that make those wins too
many for it (CREW.md 13.3); a seat cannot win more tricks than it holds cards able to win one
(a card never wins when another hand holds only submarines and higher cards of its suit);
"fewer tricks than each other seat / the captain", "as many as the captain" and "N in a row"
add the tricks they still need to the sum; "more than each other seat" needs at least (T + N -
1) / N of the T tricks, "more than the others combined" floor(T / 2) + 1, and "fewer than each
other seat" allows at most floor((T - N + 1) / N) and is not DONE before the last that many
tricks (CREW.md 13.3, Appendix A.2);
a task that needs every card of a set played cannot be DONE before the hand holding most of
them has played them; ``win_trick_with`` needs a matching card in the owner's hand; a
``trick_matching`` trick takes a card from every hand, so every hand must hold one that
passes the test (or ranks that can reach the sum); with an exact trick count open, every
remaining trick needs a seat allowed to take it; a card a seat must capture from its own hand,
the lowest of its suit still in play, wins only a trick that seat leads with it, under a card of
neither its suit nor the submarines from every other hand, so every other hand keeps such a card
until then, the owner takes that trick and the one before, no other seat may lead a card that
would make it fail (the last such card, that suit when the owner has no other card of it), and a
seat wins at most as many tricks as it holds cards it may lead or win with, one less once it
leads (it leads after each trick it wins, and its last lead loses) (R-10.1-10.3; "more than ..."
then counts the others' tricks to come).  A trick that gives a seat a card it must not
capture (or a card another seat must capture), or that a seat must not take (an exact count
reached, a trick position), is not evaluated at all.

Limits: pure Python, about 20 µs of CPU per completed trick evaluated by the ordered search
(about 7 µs by the plain one).  Most full 4-seat deals need a few hundred of them; some missions
(exact counts, "as many pink as yellow", the last trick, rank sums) need tens of thousands,
and a position may need more than the budget (:data:`DEFAULT_NODE_LIMIT`, about 4.5 s of
CPU) to settle: then the answer is ``None``.  ``benchmarks/bench_crew_solver.py`` measures the
distribution.  Memory: the table of lost positions and the remembered card classes grow with
the nodes (about 30 MB at most at the default budget).

>>> from dsa_widget.crew.rules import CrewGame
>>> g = CrewGame(4, seed=3, tasks=[70, 4], assignment={70: 1, 4: 2})  # 70: seat 1 takes trick 1
>>> while g.step != "play":                                             # 4: seat 2 captures G6
...     g.apply("no distress" if g.step == "distress" else "pass")
>>> sol = solve(g)
>>> sol.winnable, sol.exact, sol.line[:4]
(True, True, ((1, 'play P5'), (2, 'play P3'), (3, 'play P2'), (0, 'play P1')))
>>> best_play(g)
'play P5'

Seat 1 is the captain, so it holds S4, which wins every trick it is played in: seat 1 cannot
take no trick at all (task 80), and no search is needed to see it.

>>> g = CrewGame(4, seed=3, tasks=[80], assignment={80: 1})
>>> while g.step != "play":
...     g.apply("no distress" if g.step == "distress" else "pass")
>>> solve(g)
Solution(winnable=False, line=(), nodes=0, exact=True)
>>> from dsa_widget.crew.cards import card, name
>>> name(trick_winner_card([card("Y4"), card("Y9"), card("S1"), card("Y2")]))   # CREW.md 18.3
'S1'
"""

from __future__ import annotations

from collections.abc import Generator, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ..cards import ALL, DECK, NCARDS, SUIT_MASK, SUITS, bits, card, mask_of, rank, suit_index
from ..errors import CrewError
from ..status import OPEN, StatusTracker, Trick
from ..tasks import Task, selector_mask, task_table

if TYPE_CHECKING:
    from ..rules import CrewGame

__all__ = [
    "DEEPEN_TRICKS",
    "DEFAULT_NODE_LIMIT",
    "PLAIN_PACE",
    "PLAIN_CAP",
    "PLAIN_SHARE",
    "RESTART_SCALE",
    "SHUFFLE_TRICKS",
    "Solution",
    "best_play",
    "solve",
    "trick_winner_card",
    "winnable_now",
]

#: the steps :func:`solve` accepts: trick play, communication, and the distress decision (the
#: solver plays from the current hands, as if no distress were called)
_STEPS = ("play", "communicate", "distress", "distress_vote")

#: the default budget of :func:`solve`: completed tricks evaluated with the status tracker (the
#: ordered search's 190,000 and the plain search's share, :data:`PLAIN_CAP`).  Raised from
#: 60,000 in issue 31: of the full deals the benchmark left unknown (200 of 4 and of 5 seats,
#: seed 2026: 6 and 17), 11 are wins found in 67,733-186,481 tricks (``benchmarks/
#: bench_crew_solver.py``, ``crew_solver_unknowns.py``); a position settled within 60,000 is
#: searched in the same tricks as before (:data:`RESTART_SCALE`, :data:`PLAIN_CAP`), one left
#: unknown costs 3.3x the CPU it did.  Callers that need an answer fast pass their own budget
#: (the planner bot 500, ``feasibility`` 20,000: both unchanged)
DEFAULT_NODE_LIMIT = 200_000

#: plain depth-first tricks evaluated per ordered-search trick when both run side by side (a
#: plain trick costs about 7 us, an ordered one 20 us on average but 40-50 us in the first
#: thousands, where the race is decided: its root's tricks, the card classes, the conditions
#: of every child; at 3 a win the plain search finds cost 1.9-2.4x the plain search alone, at 4
#: 1.7-2.2x, at 6 (about equal CPU early) under 2x on the benchmark's positions (worst 1.91x); the
#: ordered search's own wins pay the plain share, 6 tricks per trick, up to PLAIN_CAP)
PLAIN_PACE = 6

#: the plain search's first dive, alone, before the ordered search is built (see _head_start)
PLAIN_START = 200

#: the share of :func:`solve`'s budget the plain search may spend beside the ordered one
PLAIN_SHARE = 1 / 6

#: the ordered search's restarts (see _Search.run) take tenths of its budget, but of at most
#: this many tricks (its budget at the default of 60,000 before it was raised): a larger budget
#: adds attempts after these, the two move orders in turn, so a position settled within this
#: many tricks is searched in the same order whatever the budget
RESTART_SCALE = 50_000

#: the tricks of the ordered search's deepening attempt (see _Search._deepen), run once when
#: the budget goes past :data:`RESTART_SCALE` (after the attempts within it, so a position
#: settled within them is searched as before; the later attempts are moved by this many)
DEEPEN_TRICKS = 10_000

#: the unit of the ordered search's shuffled attempts, the ones after the deepening attempt
#: (see _schedule): the move order with its ties broken by a new pseudo-random permutation
#: each time, attempt k taking this many tricks times the k-th term of Luby's sequence.  The
#: time to a win is heavy-tailed in the order, and on the deals the benchmark left unknown the
#: order's own tie-break (the rank of ``_tricks``' score) was the wrong one: shuffled, 6 of 8
#: are wins found within 175,000 tricks (issue 31, seventh round,
#: ``benchmarks/bench_crew_solver.py``: flat attempts of 5,000 settled 6, of 10,000 or 20,000
#: 5, of 5,000 doubling every second attempt 5; Luby's lengths keep the 6 and, unlike flat
#: ones, always come to an attempt long enough to prove a position lost)
SHUFFLE_TRICKS = 5_000

#: the plain search's share of the budget, at most (its share at the default of 60,000 before
#: it was raised; a larger budget goes to the ordered search)
PLAIN_CAP = 10_000

_SUB = 4  # suit index of the submarines
_SUIT = tuple(suit_index(c) for c in range(NCARDS))
_SUITM = tuple(SUIT_MASK[s] for s in SUITS)
_NAME = DECK
_RANK = tuple(rank(c) for c in range(NCARDS))
_FIRST = tuple(c == 0 or _SUIT[c] != _SUIT[c - 1] for c in range(NCARDS))  # the lowest card of a suit


@dataclass(frozen=True)
class Solution:
    """The answer of :func:`solve`.

    ``winnable``: True / False when the search was exact, None when the node limit was hit
    (then ``exact`` is False and nothing is claimed).  ``line``: a winning line, the plays
    ``(seat, "play P3")`` in order up to the trick at which the mission succeeds (empty when
    not winnable, or when the mission has already succeeded).  The seat is the seat whose card
    it is (Tonoja's seat for Tonoja's cards; the captain sends those).  ``nodes``: completed
    tricks evaluated.
    """

    winnable: bool | None
    line: tuple[tuple[int, str], ...]
    nodes: int
    exact: bool


def _beats(c: int, best: int) -> bool:
    """Whether card ``c`` beats the trick's current winning card ``best`` (R-10.3)."""
    sc = _SUIT[c]
    sb = _SUIT[best]
    if sc == sb:
        return c > best
    return sc == _SUB


def trick_winner_card(cards: Sequence[int]) -> int:
    """The winning card of a (complete or partial) trick, cards in play order (R-10.3): the
    highest submarine, else the highest card of the led suit."""
    best = cards[0]
    for c in cards[1:]:
        if _beats(c, best):
            best = c
    return best


def _min_tricks(k: int, counts: Iterable[int]) -> int:
    """Fewest tricks that can gather ``k`` cards when the holders hold ``counts`` of them (a
    trick holds at most one card of each hand); a large number when they cannot."""
    cs = [c for c in counts if c]
    if sum(cs) < k:
        return 1000
    t = -(-k // len(cs)) if k > 0 else 0  # (a trick takes at most one card of each hand)
    while sum(min(c, t) for c in cs) < k:
        t += 1
    return t


def _score_of(item: tuple[int, Any, int, int]) -> int:
    return item[0]


def _shuffled(salt: int, i: int) -> int:
    """A pseudo-random number for the ``i``-th trick in the move order of a shuffled attempt
    numbered ``salt``: the same on every run and machine (a 64-bit mixing function), so a
    shuffled attempt is a fixed permutation of the ties.

    >>> _shuffled(1, 0) == _shuffled(1, 0), _shuffled(1, 0) == _shuffled(2, 0)
    (True, False)
    """
    z = (salt * 0x9E3779B97F4A7C15 + i * 0xBF58476D1CE4E5B9 + 1) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ z >> 30) * 0xBF58476D1CE4E5B9) & 0xFFFFFFFFFFFFFFFF
    z = ((z ^ z >> 27) * 0x94D049BB133111EB) & 0xFFFFFFFFFFFFFFFF
    return z ^ z >> 31


class _Limit(Exception):
    """The node budget ran out."""


#: a search run step by step: it yields once per completed trick evaluated and returns a
#: winning line (the tricks) or None when the position is lost
_Steps = Generator[None, None, "list[tuple[tuple[int, int], ...]] | None"]


def _finish(steps: _Steps) -> list[tuple[tuple[int, int], ...]] | None:
    """Run a search to its end."""
    while True:
        try:
            next(steps)
        except StopIteration as stop:
            result: list[tuple[tuple[int, int], ...]] | None = stop.value
            return result


def _race(ordered: _Steps, plain: _Steps | None) -> list[tuple[tuple[int, int], ...]] | None:
    """Run the ordered search and the plain one side by side (:data:`PLAIN_PACE` plain tricks
    per ordered one, about equal CPU time): the first to finish gives the answer (both are
    exact).  The plain one stops at its budget; the ordered one's budget is the answer's."""
    while True:
        try:
            next(ordered)
        except StopIteration as stop:
            result: list[tuple[tuple[int, int], ...]] | None = stop.value
            return result
        if plain is not None:
            try:
                for _ in range(PLAIN_PACE):
                    next(plain)
            except StopIteration as stop:
                result = stop.value
                return result
            except _Limit:
                plain = None


def _head_start(plain: _Steps) -> tuple[list[tuple[tuple[int, int], ...]] | None, bool, bool]:
    """The plain search's first :data:`PLAIN_START` tricks, alone (a plain search finds an easy
    win in a few dozen tricks, fewer than the ordered search evaluates at its first node, and
    costs no set-up): its answer, whether it settled the position, and whether it may go on
    (False once its budget ran out: a generator that raised must not be stepped again, it
    would read as lost)."""
    try:
        for _ in range(PLAIN_START):
            next(plain)
    except StopIteration as stop:
        first: list[tuple[tuple[int, int], ...]] | None = stop.value
        return first, True, False
    except _Limit:
        return None, False, False
    return None, False, True


def _schedule(node_limit: int) -> Generator[tuple[str, int], None, None]:
    """The ordered search's attempts (:meth:`_Search.run`): each one's move order (``"slack"``:
    the tricks that leave the most room to spare first, ``"no slack"``: that key left out,
    ``"deepen"``: :meth:`_Search._deepen`, ``"shuffle k"``: the slack order with its ties
    broken by a pseudo-random permutation numbered k, :func:`_shuffled`) and the node count it
    ends at, the last one's the budget.  Attempt i (from 0) takes 2 ** (i // 2) tenths of the
    budget, or of :data:`RESTART_SCALE` when the budget is larger: five attempts, the fifth
    ending at the scale.  Past it the deepening attempt takes :data:`DEEPEN_TRICKS`, then
    shuffled attempts of :data:`SHUFFLE_TRICKS` times :func:`_luby`, a new permutation each
    time.

    >>> [end for _, end in _schedule(200_000)][:8]
    [5000, 10000, 20000, 30000, 50000, 60000, 65000, 70000]
    >>> [order for order, _ in _schedule(200_000)][4:8]
    ['slack', 'deepen', 'shuffle 1', 'shuffle 2']
    >>> [end for _, end in _schedule(40_000)]
    [4000, 8000, 16000, 24000, 40000]
    """
    scale = min(node_limit, RESTART_SCALE)
    tenths = 0  # where the attempt ends: tenths of the scale, cumulated
    attempt = 0
    while tenths < 10:
        tenths += 1 << attempt // 2
        end = scale * tenths // 10
        yield ("slack" if attempt % 2 == 0 else "no slack"), end
        attempt += 1
    if end >= node_limit:
        return
    # past RESTART_SCALE: the budget is larger
    end = min(node_limit, end + DEEPEN_TRICKS)
    yield "deepen", end
    salt = 0
    while end < node_limit:
        salt += 1
        end = min(node_limit, end + SHUFFLE_TRICKS * _luby(salt))
        yield f"shuffle {salt}", end


def _luby(i: int) -> int:
    """The i-th term (from 1) of Luby's restart sequence 1, 1, 2, 1, 1, 2, 4, 1, 1, 2, ...: mostly
    short attempts, and every length doubled again and again, so that an attempt long enough
    to settle a lost position always comes (an attempt cut short keeps the positions it proved
    lost, but a position is proved lost only when one attempt searches its whole subtree).

    >>> [_luby(i) for i in range(1, 16)]
    [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
    """
    k = 1
    while (1 << k) - 1 < i:
        k += 1
    while (1 << k) - 1 != i:
        i -= (1 << (k - 1)) - 1
        k = 1
        while (1 << k) - 1 < i:
            k += 1
    return 1 << (k - 1)


# --- what the tasks care about ----------------------------------------------------------------


class _Plan:
    """Facts about the assigned tasks used for card equivalence, the transposition key, move
    ordering and the necessary conditions.  Everything here is conservative: an unknown task
    kind or constraint makes every card distinct and every captured card relevant."""

    def __init__(
        self,
        assigned: Sequence[tuple[Task, int, int | None]],
        constraints: Sequence[Mapping[str, Any]],
        *,
        seats: int,
        tricks_total: int,
        captain: int,
        options: Mapping[str, Any],
    ) -> None:
        self.seats = seats
        self.tricks_total = tricks_total
        self.captain = captain
        # (task or -1 - constraint, a card set whose membership an equivalence must keep)
        sets: list[tuple[int, int]] = []
        distinct: list[int] = []  # tasks (constraints) for which every card is its own class
        # (task, owner or -1 for every seat, captured cards that matter while the task is open,
        # whether only their number matters)
        self.rel: list[tuple[int, int, int, bool]] = []
        self.positions = False  # every seat's trick positions matter for the future
        # what the open trick-count tasks still read of the tricks taken (the transposition
        # key): (task, "k" the owner's count / "all" every count / "cap" the owner's and the
        # captain's / "run" the owner's run ending at the last trick / "pos" its positions, owner)
        self.count_key: list[tuple[int, str, int]] = []
        self.want = [0] * seats  # cards each seat would like to capture (ordering)
        self.avoid = [0] * seats  # cards each seat must not capture (ordering)
        self.fewer = [False] * seats  # the seat would rather not take tricks (ordering)
        # per assigned task: the necessary-condition data
        self.need: list[tuple[str, int, Any]] = []
        # (task index or -1 - constraint index, cards that must all be played first, or the
        # trick number before which the task cannot be DONE)
        self.finish: list[tuple[int, int, int]] = []
        self.forbid: list[tuple[int, int, int]] = []  # (task index, owner, cards it must never capture)
        # (task index, owner, cards, n): the owner ends with exactly n of the cards, all of them played
        self.eqs: list[tuple[int, int, int, int]] = []
        end = tricks_total
        for index, (task, owner, prediction) in enumerate(assigned):
            p = task.params
            kind = task.kind
            if kind == "win_cards":
                m = mask_of(p["cards"])
                sets.append((index, m))  # (no captured cards in the key: while the task is
                self.want[owner] |= m  # open, its cards gone from the hands are the owner's)
                self.need.append(("cards", index, (owner, m)))
            elif kind == "win_card_in_trick":
                m = mask_of([p["card"]])
                sets.append((index, m))
                self.want[owner] |= m
                self.need.append(("cards_last", index, (owner, m)))
                self.finish.append((index, 0, end))
            elif kind in ("card_count", "avoid_cards"):
                rows = (
                    p["constraints"]
                    if kind == "card_count"
                    else [{"select": p["select"], "op": "eq", "n": 0}]
                )
                for row in rows:
                    m = selector_mask(row["select"])
                    sets.append((index, m))
                    self.rel.append((index, owner, m, True))
                    if row["op"] == "eq":
                        self.finish.append((index, m, 0))
                        self.eqs.append((index, owner, m, int(row["n"])))
                    if row["n"] == 0:
                        self.avoid[owner] |= m
                        self.forbid.append((index, owner, m))
                    else:
                        self.want[owner] |= m
                        self.need.append(("ge", index, (owner, m, int(row["n"]))))
            elif kind == "all_of_a_suit":
                ms = [SUIT_MASK[s] for s in p["of_any"]]
                sets.extend((index, m) for m in ms)
                for m in ms:
                    self.rel.append((index, owner, m, False))
                    self.want[owner] |= m
                self.need.append(("any_suit", index, (owner, ms)))
            elif kind == "compare_suits":
                a, b = SUIT_MASK[p["a"]], SUIT_MASK[p["b"]]
                sets += [(index, a), (index, b)]
                self.rel += [(index, owner, a, True), (index, owner, b, True)]
                self.want[owner] |= a
                if p["op"] == "gt":
                    self.avoid[owner] |= b
                else:
                    self.finish.append((index, a | b, 0))
                least = int(p.get("min_each", 0))
                self.need.append(("compare", index, (owner, a, b, p["op"] == "gt", least)))
            elif kind == "win_trick_with":
                play = selector_mask(p["play"])
                capture = selector_mask(p["capture"]) if p.get("capture") is not None else 0
                sets.append((index, play))
                if capture:
                    sets.append((index, capture))
                    self.want[owner] |= capture
                self.need.append(("with", index, (owner, play, capture)))
            elif kind == "trick_matching":
                test = p.get("test")
                self._matching(index, owner, p, seats, options)
                if test == "all_ranks":
                    v = int(p["value"])
                    cmp_lt = p["cmp"] == "lt"
                    sets.append(
                        (index, sum(1 << c for c in range(36) if (rank(c) < v if cmp_lt else rank(c) > v)))
                    )
                elif test == "all_parity":
                    par = 0 if p["parity"] == "even" else 1
                    sets.append((index, sum(1 << c for c in range(NCARDS) if rank(c) % 2 == par)))
                elif test == "equal_suit_count":
                    pass  # suits only: an equivalence never changes a card's suit
                else:
                    distinct.append(index)  # rank sums: every rank matters
                self.need.append(("one", index, owner))
            elif kind == "no_lead":
                self.finish.append((index, sum(SUIT_MASK[x] for x in p["suits"]), 0))
            elif kind == "trick_positions":
                t = tricks_total
                win = {t if x == "last" else int(x) for x in p.get("win", [])}
                avoid = p.get("avoid", [])
                banned = None if avoid == "rest" else {t if x == "last" else int(x) for x in avoid}
                self.need.append(("positions", index, (owner, frozenset(win), banned)))
                if avoid == "rest":  # (while open: no trick taken but the listed ones)
                    self.need.append(("exact", index, (owner, len(win))))
                    self.finish.append((index, 0, end))
                else:
                    last = max([*win, *(t if x == "last" else int(x) for x in avoid)], default=0)
                    self.finish.append((index, 0, last))
            elif kind == "trick_count":
                n = p["n"]
                if n == "predicted":
                    n = prediction
                self.count_key.append((index, "k", owner))
                if n is not None:
                    self.need.append(("exact", index, (owner, int(n))))
                    if int(n) == 0:
                        self.fewer[owner] = True
                self.finish.append((index, 0, end))
            elif kind == "trick_run":
                mode = p.get("mode")
                if mode in ("at_least", "never"):
                    self.count_key.append((index, "run", owner))
                elif options.get("exact_run_meaning") == "one_run_of_exactly_n":
                    self.count_key.append((index, "pos", owner))
                else:  # (while open, a count short of n ends at the last trick: the count says it all)
                    self.count_key.append((index, "k", owner))
                if mode == "at_least":  # (DONE as soon as the run is there)
                    self.need.append(("run", index, (owner, int(p["n"]))))
                else:
                    self.finish.append((index, 0, end))
                    if mode == "exactly_all" and options.get("exact_run_meaning") != "one_run_of_exactly_n":
                        self.need.append(("exact", index, (owner, int(p["n"]))))
            elif kind == "trick_count_relative":
                op, vs = p["op"], p["vs"]
                # (the others' combined count is the tricks played less the owner's)
                code = "all" if vs == "each_other" else "cap" if vs == "captain" else "k"
                self.count_key.append((index, code, owner))
                if op == "gt":
                    self.need.append(("more", index, (owner, vs)))
                elif op == "lt":
                    self.fewer[owner] = True
                    self.need.append(("less", index, (owner, vs)))
                    if vs == "each_other":
                        # DONE with R tricks left needs the n - 1 others at c + R + 1 or more
                        # each (CREW.md 13.3), so R <= (T - n + 1) // n: not before that trick
                        self.finish.append((index, 0, tricks_total - (tricks_total - seats + 1) // seats))
                else:
                    self.finish.append((index, 0, end))
                    self.need.append(("same", index, owner))
            else:  # an unknown kind: keep everything
                distinct.append(index)
                self.rel.append((index, -1, ALL, False))
                self.positions = True
                self.finish.append((index, 0, end))
        for j, con in enumerate(constraints):
            ck = con.get("kind", con.get("type"))
            if ck == "lead_ban":
                self.finish.append((-1 - j, sum(SUIT_MASK[x] for x in con["suits"]), 0))
            elif ck == "balance":
                m = selector_mask(con["select"])
                sets.append((-1 - j, m))
                self.rel.append((-1 - j, -1, m, True))
                self.finish.append((-1 - j, m, 0))
            else:
                if ck == "final_card":
                    sets.append((-1 - j, mask_of([con["card"]])))
                else:
                    if ck != "first_winner_leads":
                        distinct.append(-1 - j)
                        self.rel.append((-1 - j, -1, ALL, False))
                self.positions = True
                self.finish.append((-1 - j, 0, end))
        # per seat, the cards other seats want and it does not (ordering)
        self.others_want = [0] * seats
        for w in range(seats):
            for o in range(seats):
                if o != w:
                    self.others_want[w] |= self.want[o]
            self.others_want[w] &= ~self.want[w]
        self.sets = sets
        self.distinct = distinct
        self._sigs: dict[tuple[str, ...], list[int]] = {}

    def _matching(
        self, index: int, owner: int, p: Mapping[str, Any], seats: int, options: Mapping[str, Any]
    ) -> None:
        """The necessary condition of a ``trick_matching`` task: every seat plays a card into the
        trick, so every hand must still hold a card that can be part of it (``"seats"``), or the
        ranks the hands can add up must reach the target (``"sum"``)."""
        test = p.get("test")
        coloured = sum(1 << c for c in range(36))
        if test == "all_ranks":
            v = int(p["value"])
            m = sum(1 << c for c in range(36) if (rank(c) < v if p["cmp"] == "lt" else rank(c) > v))
            self.need.append(("seats", index, m))
        elif test == "all_parity":
            par = 0 if p["parity"] == "even" else 1
            pool = ALL if options.get("parity_with_submarines") == "face_value" else coloured
            self.need.append(
                ("seats", index, sum(1 << c for c in range(NCARDS) if rank(c) % 2 == par) & pool)
            )
        elif test == "rank_sum":
            subs_count = p.get("cmp") == "in" and options.get("sum_with_submarines") == "face_value"
            pool = coloured if p.get("no_submarine") and not subs_count else ALL
            if p["cmp"] == "in":
                lo, hi = min(p["values"]), max(p["values"])
            elif p["cmp"] == "gt":
                lo, hi = int(p["value_by_players"][str(seats)]) + 1, 1000
            else:
                lo, hi = -1000, int(p["value_by_players"][str(seats)]) - 1
            self.need.append(("sum", index, (pool, lo, hi)))
        elif p.get("no_submarine"):
            self.need.append(("seats", index, coloured))

    def sig_ids(self, statuses: Sequence[str], cstates: Sequence[str]) -> list[int]:
        """Per card, a small number: cards with equal numbers are in the same sets of every task
        and constraint still open (for the others, nothing about a card matters any more)."""
        key = (*statuses, "|", *cstates)
        hit = self._sigs.get(key)
        if hit is not None:
            return hit

        def is_open(i: int) -> bool:
            return (statuses[i] if i >= 0 else cstates[-1 - i]) == OPEN

        live_sets = [m for i, m in self.sets if is_open(i)]
        distinct = any(is_open(i) for i in self.distinct)
        ids: dict[int, int] = {}
        out = []
        for c in range(NCARDS):
            s = 0
            for k, m in enumerate(live_sets):
                if m >> c & 1:
                    s |= 1 << k
            out.append(ids.setdefault(s << 6 | c if distinct else s, len(ids)))
        self._sigs[key] = out
        return out


# --- the search -------------------------------------------------------------------------------


class _Search:
    """Depth-first search over whole tricks on card masks, with the engine's status tracker."""

    def __init__(
        self,
        *,
        plan: _Plan,
        hands: list[int],
        hidden: int,
        under: Mapping[int, int],
        dummy: int | None,
        done: int,
        leader: int,
        prefix: Sequence[tuple[int, int]],
        won: list[int],
        pos: list[int],
        node_limit: int,
        lead_banned: int = 0,
    ) -> None:
        self.plan = plan
        self.lead_banned = lead_banned  # option mission_lead_ban = illegal
        self.n = plan.seats
        self.t = plan.tricks_total
        self.hands = hands
        self.hidden = hidden
        self.under = dict(under)
        self.dummy = dummy
        self.done = done
        self.leader = leader
        self.prefix = tuple(prefix)
        self.won = won
        self.count = [p.bit_count() for p in pos]
        self.pos = pos
        self.node_limit = node_limit
        self.nodes = 0
        self.lost: dict[tuple[Any, ...], int] = {}  # position -> the highest cap at which it is lost
        self.slack_first = True  # move order: tricks that leave the most room to spare first
        self.salt = 0  # a shuffled attempt's number (its ties broken by _shuffled), else 0
        self.sub_limit = node_limit  # the budget of the current attempt (see run)
        # _scan's answers (the card lists in plan.sig_ids stay alive, so their ids are stable)
        self._scans: dict[tuple[int, ...], tuple[list[int], tuple[int, ...]]] = {}

    # classes of interchangeable cards, and the position's key
    def _scan(self, blockers: int, sig: list[int]) -> tuple[list[int], tuple[int, ...]]:
        """``rep[c]``: the representative of card c's class of interchangeable cards; and the
        position's cards up to a renaming that keeps suits, the order within a suit, holders
        and every task's sets (the key of the transposition table).  Remembered per hands and
        card classes: the same hands come back in many orders of the same tricks."""
        memo = (blockers, self.hidden, id(sig), *self.hands)
        hit = self._scans.get(memo)
        if hit is not None:
            return hit
        owner = [-1] * NCARDS
        live = blockers | self.hidden
        for s, h in enumerate(self.hands):
            live |= h
            while h:
                low = h & -h
                owner[low.bit_length() - 1] = s
                h ^= low
        if self.dummy is not None:
            for c, d in self.under.items():
                if self.hidden >> d & 1 and owner[c] == self.dummy:
                    owner[c] = -2 - c  # a face-up card with a covered card under it: alone
        rep = list(range(NCARDS))
        key: list[int] = []
        block_owner = -1
        firsts: dict[int, int] = {}
        for c in range(NCARDS):
            if _FIRST[c]:
                key.append(-1)
                block_owner = -1
            if not live >> c & 1:
                continue
            o = owner[c]
            g = sig[c]
            key.append((o + 64) << 16 | g)
            if o < 0:
                block_owner = -1
                continue
            if o != block_owner:
                block_owner = o
                firsts = {g: c}
            else:
                rep[c] = firsts.setdefault(g, c)
        found = rep, tuple(key)
        self._scans[memo] = found
        return found

    def _tricks(
        self, leader: int, prefix: tuple[tuple[int, int], ...], rep: list[int], hungry: list[bool] | None
    ) -> list[tuple[int, tuple[tuple[int, int], ...], int, int]]:
        """Every completion of the trick (one card per class): its move-ordering score, plays,
        winner and the mask of its cards, best first (equal scores in the order generated)."""
        n = self.n
        order = [(leader + i) % n for i in range(n)]
        hands = self.hands
        plan = self.plan
        want = plan.want
        avoid = plan.avoid
        others = plan.others_want
        bonus = [
            (-12 if plan.fewer[w] else 0) + (6 if hungry is not None and hungry[w] else 0)  # (6: must
            for w in range(n)  # still take tricks)
        ]
        banned = self.lead_banned
        out: list[tuple[int, tuple[tuple[int, int], ...], int, int]] = []

        def rec(
            i: int, plays: tuple[tuple[int, int], ...], m: int, led: int, best: int, best_seat: int
        ) -> None:
            if i == n:
                w = best_seat
                v = (
                    8 * (m & want[w]).bit_count()
                    - 16 * (m & avoid[w]).bit_count()
                    - 4 * (m & others[w]).bit_count()
                    + bonus[w]
                )
                out.append((v, plays, w, m))
                return
            s = order[i]
            h = hands[s]
            legal = (h & _SUITM[led] or h) if i else (h & ~banned or h)
            seen = 0
            sb = _SUIT[best]
            while legal:
                low = legal & -legal
                legal ^= low
                c = low.bit_length() - 1
                r = rep[c]
                if seen >> r & 1:
                    continue
                seen |= 1 << r
                if i == 0:
                    rec(1, ((s, c),), low, _SUIT[c], c, s)
                else:
                    sc = _SUIT[c]
                    if (c > best) if sc == sb else sc == _SUB:  # c beats the trick so far
                        rec(i + 1, (*plays, (s, c)), m | low, led, c, s)
                    else:
                        rec(i + 1, (*plays, (s, c)), m | low, led, best, best_seat)

        if prefix:
            led = _SUIT[prefix[0][1]]
            best = trick_winner_card([c for _, c in prefix])
            best_seat = next(s for s, c in prefix if c == best)
            m = 0
            for _, c in prefix:
                m |= 1 << c
            rec(len(prefix), prefix, m, led, best, best_seat)
        else:
            rec(0, (), 0, 0, 0, 0)
        out.sort(key=_score_of, reverse=True)
        return out

    # the necessary conditions
    def _possible(
        self, tracker: StatusTracker, cap: int, leader: int
    ) -> tuple[list[int], int, list[bool], int] | None:
        """None when the mission cannot succeed by trick ``cap`` (cheap necessary conditions).
        Otherwise: per seat, the cards whose capture by that seat in the next trick fails a task
        at once; the mask of seats that may take the next trick without failing a task at once
        (the tracker would say FAILED: other tricks are not evaluated); per seat, whether it must
        still take a number of tricks (move ordering)."""
        plan = self.plan
        n = self.n
        done = self.done
        left = cap - done
        statuses = tracker.statuses
        holding = list(self.hands)
        if self.dummy is not None:
            holding[self.dummy] |= self.hidden
        unplayed = 0
        for h in holding:
            unplayed |= h
        # the tricks until every task can be DONE
        depth = 0
        cstates = getattr(tracker, "constraint_states", ())
        must = 0  # cards that must all be played before the mission can succeed before the end
        for index, m, at in plan.finish:
            if (statuses[index] if index >= 0 else cstates[-1 - index]) != OPEN:
                continue
            if at:
                depth = max(depth, at - done)
            elif m & unplayed:
                must |= m
                depth = max(depth, min(self.t - done, max([(m & h).bit_count() for h in holding])))
        if depth > left:
            return None
        forbidden = [0] * n
        for index, owner, m in plan.forbid:
            if statuses[index] == OPEN:
                forbidden[owner] |= m
        bad = list(forbidden)
        # cards a seat can never capture: the ones it must not, and the submarines of other
        # hands above its own highest submarine that it may capture (a trick holding a
        # submarine goes to its highest submarine, R-10.3, which its player then captures)
        barred = list(forbidden)
        subs_left = unplayed & _SUITM[_SUB]
        if subs_left:
            for s in range(n):
                mine = holding[s] & _SUITM[_SUB] & ~forbidden[s]
                below = (1 << (mine.bit_length() - 1)) - 1 if mine else 0
                barred[s] |= subs_left & ~holding[s] & ~below
        allowed = (1 << n) - 1
        hungry = [False] * n  # seats that must still take a number of tricks (move ordering)
        lower = [0] * n
        upper: list[int] = [self.t - done] * n
        claimed = 0  # cards some seat must capture
        claim = [0] * n  # by seat
        exact_open = False
        fewest: list[int] = []  # owners of an open "fewer tricks than each other seat"
        beyond: list[tuple[int, str]] = []  # open "more tricks than ...": (owner, vs)
        for kind, index, data in plan.need:
            if statuses[index] != OPEN:
                continue
            if kind == "cards" or kind == "cards_last":
                owner, m = data
                missing = m & ~self.won[owner]
                if not missing:
                    continue
                if missing & (barred[owner] | claimed & ~claim[owner]):
                    return None  # a card to capture that the owner cannot, or that two seats need
                claimed |= missing
                claim[owner] |= missing
                for s in range(n):
                    if s != owner or (kind == "cards_last" and done + 1 < self.t):
                        bad[s] |= missing
                lb = max([(missing & h).bit_count() for h in holding]) or 1
                lower[owner] = max(lower[owner], lb)
                if kind == "cards" and self.dummy is None:  # (Tonoja's hand plays no card it must)
                    lowest = self._own_lowest(holding, unplayed, owner, missing, leader, self.t - done)
                    if lowest is None:
                        return None
                    keep, wins, own = lowest
                    if wins is not None:
                        if own > lower[owner]:
                            lower[owner] = own
                        for s, w in enumerate(wins):
                            if w < upper[s]:
                                upper[s] = w
                        if keep:
                            for s in range(n):
                                if s != owner:
                                    bad[s] |= keep
            elif kind == "ge":
                owner, m, k = data
                k -= (m & self.won[owner]).bit_count()
                if k > 0:
                    m &= ~barred[owner]
                    lower[owner] = max(lower[owner], _min_tricks(k, [(m & h).bit_count() for h in holding]))
            elif kind == "any_suit":
                owner, ms = data
                best = 1000
                for m in ms:
                    k = (m & ~self.won[owner]).bit_count()
                    if m & barred[owner] & ~self.won[owner]:
                        continue
                    best = min(best, _min_tricks(k, [(m & h).bit_count() for h in holding]))
                lower[owner] = max(lower[owner], best)
            elif kind == "one":  # an open task that is DONE by the trick that fulfils it
                owner = data
                lower[owner] = max(lower[owner], 1)
            elif kind == "run":  # n tricks in a row: the run so far ends at the last trick
                owner, k = data
                lower[owner] = max(lower[owner], k - self._run(owner))
            elif kind == "seats":  # a trick_matching task: every hand plays into the trick
                if any(not h & data for h in holding):
                    return None
            elif kind == "sum":
                pool, lo, hi = data
                least = most = 0
                for h in holding:
                    ranks = [_RANK[c] for c in bits(h & pool)]
                    if not ranks:
                        return None
                    least += min(ranks)
                    most += max(ranks)
                if most < lo or least > hi:
                    return None
            elif kind == "compare":
                owner, a, b, gt, least = data
                ca = (self.won[owner] & a).bit_count()
                cb = (self.won[owner] & b).bit_count()
                if (ca <= cb) if gt else (ca != cb or ca < least):
                    lower[owner] = max(lower[owner], 1)  # it needs more cards of a (or b)
            elif kind == "with":
                owner, play, capture = data
                # the owner wins with a card of its own hand, another hand adds the capture
                if not holding[owner] & play & ~forbidden[owner] or (
                    capture and not unplayed & capture & ~holding[owner] & ~barred[owner]
                ):
                    return None
                lower[owner] = max(lower[owner], 1)
            elif kind == "positions":
                owner, win, banned = data
                lower[owner] = max(lower[owner], sum(1 for x in win if x > done))
                if any(done < x > cap for x in win):
                    return None
                if done + 1 in win:
                    allowed &= 1 << owner
                elif banned is None or done + 1 in banned:
                    allowed &= ~(1 << owner)
            elif kind == "exact":
                owner, k = data
                k -= self.count[owner]
                lower[owner] = max(lower[owner], k)
                if k > 0:
                    hungry[owner] = True
                upper[owner] = min(upper[owner], k)
                exact_open = True
            elif kind == "more":
                owner, vs = data
                c = self.count[owner]
                others = [self.count[s] for s in range(n) if s != owner]
                if vs == "each_other":
                    # DONE needs c > max(others) + R (CREW.md 13.3), and the others hold at
                    # most n - 1 times max(others): so c >= (T + n - 1) / n when it is DONE
                    k = max(max(others) + 1, -(-(self.t + n - 1) // n)) - c
                elif vs == "others_combined":
                    # more than half of the T tricks (CREW.md 13.3, Appendix A.2 lo)
                    k = max(sum(others) + 1, self.t // 2 + 1) - c
                else:
                    k = self.count[plan.captain] - c + 1
                lower[owner] = max(lower[owner], k)
                if k > 0:
                    hungry[owner] = True
                beyond.append((owner, vs))
            elif kind == "less":  # every seat compared ends with more than the owner, who has c
                owner, vs = data
                c = self.count[owner]
                for s in range(n) if vs == "each_other" else (plan.captain,):
                    if s != owner:
                        lower[s] = max(lower[s], c + 1 - self.count[s])
                if vs == "each_other":
                    # DONE needs c + R < min(others) (CREW.md 13.3): the n - 1 others then hold
                    # at least (n - 1)(c + R + 1) of the T tricks, so the owner's count never
                    # goes past (T - n + 1) // n (Appendix A.2 hi), and it only grows
                    upper[owner] = min(upper[owner], (self.t - n + 1) // n - c)
                    fewest.append(owner)
            elif kind == "same":  # the owner and the captain end level
                owner = data
                c, kc = self.count[owner], self.count[plan.captain]
                lower[owner] = max(lower[owner], kc - c)
                lower[plan.captain] = max(lower[plan.captain], c - kc)
        # the highest submarines still to be played, when one seat holds them: each wins the
        # trick it is played in, so that seat captures it
        subs = unplayed & _SUITM[_SUB]
        if subs:
            top = subs.bit_length() - 1
            s = next(i for i, h in enumerate(holding) if h >> top & 1)
            forced = 0
            while subs and holding[s] >> (subs.bit_length() - 1) & 1:
                forced |= 1 << (subs.bit_length() - 1)
                subs &= ~(1 << (subs.bit_length() - 1))
            if holding[s].bit_count() <= self.t - done:  # (else a card may stay unplayed, R-3.1)
                # tasks that need every card of their set played: the forced captures count
                for index, owner, m, k in plan.eqs:
                    if (
                        statuses[index] == OPEN
                        and owner == s
                        and (m & self.won[s]).bit_count() + (m & forced).bit_count() > k
                    ):
                        return None
        if unplayed & _SUITM[_SUB]:
            free = self._unbeaten(holding, unplayed)
            for owner in fewest:
                first = self._fewest_done(holding[owner].bit_count(), free[owner], self.count[owner], depth)
                if first is None:
                    return None
                depth = first
            if depth > left:
                return None
            # the mission cannot succeed before `depth` more tricks: each seat plays `depth`
            # cards, and keeps at most the rest of its hand unplayed; before the last trick
            # none of the cards an open task needs played (`must`), at the end only the cards
            # no trick takes
            for s, u in enumerate(free):
                if not u:
                    continue
                held = holding[s].bit_count()
                kept = max(
                    min(max(0, held - depth), (holding[s] & subs_left & ~must).bit_count()),
                    held - (self.t - done),
                )
                u -= kept
                lower[s] = max(lower[s], u)
                if u > 0 and not holding[s] & subs_left & ~forbidden[s]:
                    return None  # it wins a trick with a submarine of its own, which it must not capture
        # "more than ...": the owner ends above the others' final counts, each at least its
        # count plus the tricks it must still take (CREW.md 13.3)
        for owner, vs in beyond:
            count = self.count
            if vs == "each_other":
                top = max(count[s] + lower[s] for s in range(n) if s != owner)
            elif vs == "others_combined":
                top = sum(count[s] + lower[s] for s in range(n) if s != owner)
            else:
                top = count[plan.captain] + lower[plan.captain]
            lower[owner] = max(lower[owner], top + 1 - count[owner])
        for s, lo in enumerate(lower):
            if lo > 1:  # (a seat that needs one trick: the hands that beat all its cards are rare)
                upper[s] = min(upper[s], self._most_wins(holding, s))
        if sum(lower) > left or any(lo > up for lo, up in zip(lower, upper, strict=True)):
            return None
        if any(lower) and self._short_of_winners(holding, lower):
            return None
        # with an exact trick count open, play goes on to the last trick: every trick must go
        # to a seat allowed to take it
        if exact_open and sum(max(u, 0) for u in upper) < self.t - done:
            return None
        for s, up in enumerate(upper):
            if up <= 0:
                allowed &= ~(1 << s)  # an exact count reached: one more trick fails it
        return bad, allowed, hungry, left - sum(lower)

    @staticmethod
    def _own_lowest(
        holding: list[int], unplayed: int, owner: int, missing: int, leader: int, left: int = 1000
    ) -> tuple[int, list[int] | None, int] | None:
        """What a card the owner must capture from its own hand, the lowest of its suit still
        to be played, asks of the other hands; None when the mission is lost.  Otherwise: the
        cards no seat but the owner may take in the next trick, per seat the most tricks it
        can still win (1000: no limit; None: no such card), and the tricks the owner must still
        take.

        Such a card c (not a submarine) is captured in a trick the owner wins, so with c
        (R-10.3: its own card in that trick).  A card of another suit never wins and a led card
        of c's suit x would be higher, so the owner leads c, and each other hand plays into that
        trick a card neither of suit x (every one is higher; a hand holding one must follow,
        R-10.2) nor a submarine: a "safe" card.  So, with e the trick c is led in:

        - every other hand holds a safe card now and keeps one until e (cards only leave a
          hand), and has played its cards of suit x before e: a hand's one safe card is taken
          only by the owner (in trick e) before that;
        - the owner holds c until e and must follow every trick led in x before it with
          another card of x: at most its other cards of x ("spare") tricks are led in x
          before e; the owner leads e, so it takes trick e - 1 too, unless e is the next trick;
        - a seat q wins a trick with a card of x only in a trick led in x, so before e; after
          each trick it wins before e it leads the next one (R-10.1), also before e, and its
          last lead before e loses.  So its leads and wins before e take at least one card
          more than those wins once it wins one or leads now, and its wins after e take other
          cards, all of them among its safe cards but the one it plays in e, its submarines
          and its cards of x in at most ``spare`` tricks: it wins at most that many tricks less
          one, unless it leads no trick now and wins only after e: then at most its safe cards
          but one and its submarines, and no more than the tricks after e (each other hand
          plays its cards of x before e, one a trick; ``left``: the tricks left);
        - a seat leading now whose only leads are the last safe card, cards of x when c is the
          owner's one card of x (the owner would follow with c, which loses) and submarines
          above every other hand's (they win, and it leads again) must in the end lead one of
          the first two: lost.

        Seat 0 must capture B1 and B3 and holds B1, the lowest blue; seat 1 leads.  Holding P3
        B3 S3, it cannot lead P3 (its last safe card), B3 (seat 0 would follow with B1) or S3
        (it wins, and seat 1 leads again):

        >>> hands = [mask_of(["B1", "G2", "G3"]), mask_of(["P3", "B3", "S3"]), mask_of(["Y2", "B5", "S1"])]
        >>> everything = hands[0] | hands[1] | hands[2]
        >>> _Search._own_lowest(hands, everything, 0, mask_of(["B1", "B3"]), 1) is None
        True

        Holding P3 B3 P4, it leads P3 or P4 and wins no trick (it keeps the other for B1's trick
        and B3 wins only a trick led in blue); seat 2 keeps Y2, wins with S1 at most; seat 0
        takes two tricks at least:

        >>> hands[1] = mask_of(["P3", "B3", "P4"])
        >>> everything = hands[0] | hands[1] | hands[2]
        >>> keep, most, own = _Search._own_lowest(hands, everything, 0, mask_of(["B1", "B3"]), 1)
        >>> keep == mask_of(["Y2"]), most, own
        (True, [1000, 0, 1], 2)

        With two tricks left B1's trick is the last (B3 and B5 go first), so seat 2, which
        leads no trick before it, would win with S1 after it: there is no trick after it.

        >>> _Search._own_lowest(hands, everything, 0, mask_of(["B1", "B3"]), 1, left=2)[1]
        [1000, 0, 0]
        >>> _Search._own_lowest(hands, everything, 0, mask_of(["B3"]), 1)  # (B3 is seat 1's)
        (0, None, 0)
        """
        subs = _SUITM[_SUB]
        mine = missing & holding[owner] & ~subs
        if not mine:
            return 0, None, 0
        keep = 0
        most: list[int] | None = None
        own = 0
        n = len(holding)
        while mine:
            low = mine & -mine
            mine ^= low
            x = _SUITM[_SUIT[low.bit_length() - 1]]
            if unplayed & x & (low - 1):
                continue  # (a lower card of its suit still to be played: not this case)
            if most is None:
                most = [1000] * n
            safe = ~(x | subs)
            spare = (holding[owner] & x).bit_count() - 1
            shed = 0 if leader == owner else 1  # the most cards of x a hand must play before c's trick
            late = 0  # seats that may win only after c's trick: no card of x to win with
            for q in range(n):
                h = holding[q]
                if q == owner or not h:
                    continue
                ok = h & safe
                if not ok:
                    return None  # nothing to play under c
                k = ok.bit_count()
                if k == 1:
                    keep |= ok
                xs = (h & x).bit_count()
                if xs > shed:
                    shed = xs
                if q != leader and (not xs or not spare):
                    late |= 1 << q
                    continue
                wins = (h & subs).bit_count() + k - 2 + (xs if xs < spare else spare)
                if wins < most[q]:
                    most[q] = wins
            if late:
                after = left - 1 - shed  # the tricks after c's, at most
                for q in range(n):
                    if late >> q & 1:
                        h = holding[q]
                        free = (h & subs).bit_count() + (h & safe).bit_count() - 1  # its cards but x
                        wins = free if after >= free else free - 1
                        if wins < most[q]:
                            most[q] = wins
            if leader == owner:
                own = max(own, 1 if not unplayed & x & ~holding[owner] else 2)
                continue
            own = 2
            h = holding[leader]
            beaten = (1 << (unplayed & subs & ~h).bit_length()) - 1  # up to the others' highest submarine
            escape = h & subs & beaten  # a submarine another hand's may beat: it may lose the lead
            if spare:
                escape |= h & x  # the owner follows with another card of x
            if not escape and (h & safe).bit_count() <= 1:
                return None
        return keep, most, own

    def _unbeaten(self, holding: list[int], unplayed: int) -> list[int]:
        """Per seat, how many of its submarines win their trick for sure if it plays them all: a
        submarine wins its trick unless another hand plays a higher one into it (R-10.3), and
        each card is played once, so those that cannot each be paired with a higher submarine
        of another hand win a trick each.  (The highest submarine is the case with no higher
        one at all.)  A seat that keeps k of its cards unplayed wins with k fewer at least."""
        subs = unplayed & _SUITM[_SUB]
        out = [0] * self.n
        for s, h in enumerate(holding):
            mine = h & subs
            if not mine:
                continue
            # the most of this seat's submarines the others' higher ones can beat: pair the
            # others' submarines, lowest first, each with the lowest unpaired one below it
            ours = bits(mine)
            paired = 0
            for c in bits(subs & ~mine):
                if paired < len(ours) and ours[paired] < c:
                    paired += 1
            out[s] = len(ours) - paired
        return out

    def _most_wins(self, holding: list[int], s: int) -> int:
        """The most tricks seat ``s`` can still win, counted on the other hands.  Every seat
        plays one card into every trick (R-10.2), and a trick ``s`` wins is won by the card
        ``s`` plays (R-10.3), which no card of the trick beats; so each other hand plays into
        each trick ``s`` wins a card that does not beat ``s``'s.  A submarine above ``s``'s
        highest (every submarine when ``s`` holds none) beats every card ``s`` can play, and
        when ``s`` holds one coloured suit and no submarine, so does a card of that suit above
        ``s``'s highest (``s`` wins only tricks led in its suit).  ``s`` wins at most as many
        tricks as any other hand holds cards that are neither."""
        h = holding[s]
        mine = h & _SUITM[_SUB]
        beats = _SUITM[_SUB] & ~((1 << mine.bit_length()) - 1)  # the submarines above its highest
        coloured = h & ~_SUITM[_SUB]
        if coloured and not mine:
            x = _SUIT[coloured.bit_length() - 1]
            if not coloured & ~_SUITM[x]:
                beats |= _SUITM[x] & ~((1 << coloured.bit_length()) - 1)
        most = self.t - self.done
        for o, g in enumerate(holding):
            if o != s and g.bit_count() >= self.t - self.done:  # (it plays into every trick left)
                most = min(most, (g & ~beats).bit_count())
        return most

    def _fewest_done(self, held: int, free: int, c: int, depth: int) -> int | None:
        """The fewest tricks from now after which "fewer tricks than each other seat" can be
        DONE for an owner with ``c`` tricks, ``held`` cards and ``free`` sure submarine wins
        (:meth:`_unbeaten`), at least ``depth``; None when it never can.  DONE with R tricks
        left needs c + R < min(others) (CREW.md 13.3): the n - 1 others then hold at least
        (n - 1)(c + R + 1) of the T - R tricks played, so n * R <= T - n * c - n + 1; and by
        then the owner has played the cards of every trick until that one, all but R of its
        hand at most kept, so it has won with ``free`` less the kept cards at least."""
        n, t = self.n, self.t
        for d in range(depth, t - self.done + 1):
            k = c + max(0, free - max(0, held - d))
            if n * (t - self.done - d) <= t - n * k - n + 1:
                return d
        return None

    def _short_of_winners(self, holding: list[int], lower: list[int]) -> bool:
        """Whether a seat must win more tricks than it holds cards that can still win one.  A
        trick a seat wins is won by the card it plays (R-10.3), one card a trick.  Card c can
        never win when another hand holds only cards that beat it whenever both are in a
        trick: submarines and, if c is not one, cards of c's suit above c (that hand follows
        c's suit with one of them, or has nothing but submarines; its cards only leave it)."""
        left = self.t - self.done
        subs = _SUITM[_SUB]
        losers = [0] * self.n  # per seat: its cards that cannot win, for another hand's sake
        for t, h in enumerate(holding):
            if not h or h.bit_count() < left:  # (it must have a card for every trick left)
                continue
            coloured = h & ~subs
            if coloured:
                x = _SUIT[coloured.bit_length() - 1]
                if coloured & ~_SUITM[x]:
                    continue  # two coloured suits: it may discard the other one
                low = coloured & -coloured
                beaten = _SUITM[x] & (low - 1)  # the cards of suit x below its lowest
            else:
                low = h & -h
                beaten = ALL & ~subs | low - 1 & subs  # every coloured card, the lower submarines
            for s in range(self.n):
                if s != t:
                    losers[s] |= beaten
        return any(
            lo > (h & ~losers[s]).bit_count() for s, (lo, h) in enumerate(zip(lower, holding, strict=True))
        )

    def _key(self, leader: int, tracker: StatusTracker, cards: tuple[int, ...]) -> tuple[Any, ...]:
        """The transposition key of a trick boundary: what the future depends on."""
        plan = self.plan
        statuses = tracker.statuses
        cstates = tuple(getattr(tracker, "constraint_states", ()))
        captured: list[int] = []  # what the open tasks still count of the captured cards
        won = self.won
        for index, owner, m, by_count in plan.rel:
            if (statuses[index] if index >= 0 else cstates[-1 - index]) == OPEN:
                for s in range(self.n) if owner < 0 else (owner,):
                    captured.append((won[s] & m).bit_count() if by_count else won[s] & m)
        return (
            cards,
            (self.hands[self.dummy], self.hidden) if self.dummy is not None else None,
            leader,
            tuple(statuses),
            cstates,
            tuple(captured),
            tuple(self.pos) if plan.positions else self._counted(statuses) if plan.count_key else None,
        )

    def _run(self, seat: int) -> int:
        """The tricks in a row ``seat`` has taken, ending at the last trick (0 if not its)."""
        p = self.pos[seat]
        t = self.done
        while t and p >> t & 1:
            t -= 1
        return self.done - t

    def _counted(self, statuses: Sequence[str]) -> tuple[int, ...]:
        """What the open trick-count tasks still read of the tricks taken so far (only theirs:
        two positions whose other seats took different numbers of tricks share a key)."""
        out: list[int] = []
        count = self.count
        for index, code, owner in self.plan.count_key:
            if statuses[index] != OPEN:
                continue
            if code == "k":
                out.append(count[owner])
            elif code == "cap":
                out += (count[owner], count[self.plan.captain])
            elif code == "all":
                out += count
            elif code == "pos":
                out.append(self.pos[owner])
            else:
                out.append(self._run(owner))
        return tuple(out)

    def _apply(self, plays: tuple[tuple[int, int], ...], winner: int, number: int) -> tuple[Any, ...]:
        undo = (tuple(self.hands), self.hidden, self.won[winner], self.pos[winner])
        m = 0
        for s, c in plays:
            b = 1 << c
            m |= b
            self.hands[s] &= ~b
            if s == self.dummy and c in self.under:
                d = self.under[c]
                if self.hidden >> d & 1:
                    self.hidden &= ~(1 << d)
                    self.hands[s] |= 1 << d
        self.won[winner] |= m
        self.pos[winner] |= 1 << number
        self.count[winner] += 1
        self.done += 1
        return undo

    def _undo(self, undo: tuple[Any, ...], winner: int) -> None:
        hands, self.hidden, self.won[winner], self.pos[winner] = undo
        self.hands[:] = hands
        self.count[winner] -= 1
        self.done -= 1

    def run(self, tracker: StatusTracker) -> _Steps:
        """The ordered search, one step per completed trick evaluated; it returns a winning line
        (the tricks, the first one completing the prefix), or None when lost.

        The search restarts with the other move order after a share of the budget (the times
        to find a win are heavy-tailed in the order); the lost positions found so far are kept,
        since a lost position is lost whatever the order.  Attempt i (from 0) gets 2 ** (i // 2)
        tenths of the budget, or of :data:`RESTART_SCALE` when the budget is larger, and the
        attempt the budget runs out in is the last: within ``RESTART_SCALE`` that is the one of
        4 tenths, the fifth, as before the scale was capped.  Past the scale come the deepening
        attempt and the shuffled ones (:func:`_schedule`).  (With only the fifth attempt going
        on past the scale, in one order, a win of the benchmark's deals was not found in
        300,000 tricks; with the orders in turn, in 148,106; with the shuffled attempts, in
        70,423.)"""
        for order, end in _schedule(self.node_limit):
            self.sub_limit = end
            self.slack_first = order != "no slack"
            self.salt = int(order.split()[1]) if order.startswith("shuffle") else 0
            try:
                if order == "deepen":
                    return (yield from self._deepen(tracker))
                return (yield from self._node(self.leader, tracker, self.prefix, self.t))
            except _Limit:
                if end >= self.node_limit:
                    raise
        raise AssertionError("the schedule ends at the budget")  # pragma: no cover

    def _deepen(self, tracker: StatusTracker) -> _Steps:
        """Iterative deepening on the trick the mission succeeds by: the ordered search with a
        cap of 1, 2, ... tricks from now (the necessary conditions count only the tricks up to
        the cap, and a position lost by one cap is lost by every lower one, so the lost
        positions of the full search serve every cap).  A win that comes early in the deal
        but after a trick the move order ranks low (trick 1 drawing out the suit a run is made
        of) is found in a few thousand tricks.  Exact: the last cap is the last trick."""
        for cap in range(self.done + 1, self.t + 1):
            found = yield from self._node(self.leader, tracker, self.prefix, cap)
            if found is not None:
                return found
        return None

    def seen_lost(self, tracker: StatusTracker) -> bool:
        """Whether the necessary conditions alone see the position lost (at a trick boundary)."""
        return not self.prefix and self._possible(tracker, self.t, self.leader) is None

    def run_plain(self, tracker: StatusTracker) -> _Steps:
        """The plain depth-first search, one step per completed trick evaluated."""
        self.sub_limit = self.node_limit
        return (yield from self._dive(self.leader, tracker, self.prefix, list(range(NCARDS))))

    def _dive(
        self, leader: int, tracker: StatusTracker, prefix: tuple[tuple[int, int], ...], ident: list[int]
    ) -> _Steps:
        """The plain depth-first search: every trick (no classes of cards, no table, no
        necessary conditions) in the order of :meth:`_tricks`, searched as soon as it is
        evaluated.  Exhaustive when the budget holds (None: lost)."""
        number = self.done + 1
        for _, plays, winner, _ in self._tricks(leader, prefix, ident, None):
            if self.nodes >= self.sub_limit:
                raise _Limit
            self.nodes += 1
            yield
            changed, token = tracker.push_trick(Trick(number, leader, plays, winner))
            try:
                state = tracker.mission_state()
                if state == "success":
                    return [plays]
                if state == "failure" or number >= self.t:
                    continue
                undo = self._apply(plays, winner, number)
                try:
                    sub = yield from self._dive(winner, tracker, (), ident)
                finally:
                    self._undo(undo, winner)
            finally:
                tracker.pop_trick(token, changed)
            if sub is not None:
                return [plays, *sub]
        return None

    def _node(
        self,
        leader: int,
        tracker: StatusTracker,
        prefix: tuple[tuple[int, int], ...],
        cap: int,
        pre: tuple[list[int], int, list[bool], int] | None = None,
    ) -> _Steps:
        key = None
        blockers = 0
        bad: list[int] | None = None
        allowed = -1
        hungry: list[bool] | None = None
        if prefix:  # (the necessary conditions count the cards in hands: not mid-trick)
            for _, c in prefix:
                blockers |= 1 << c
        else:
            found = pre or self._possible(tracker, cap, leader)
            if found is None:
                return None
            bad, allowed, hungry, _ = found
        rep, cards = self._scan(blockers, self.plan.sig_ids(tracker.statuses, tracker.constraint_states))
        if not prefix:
            key = self._key(leader, tracker, cards)
            if self.lost.get(key, -1) >= cap:
                return None
        number = self.done + 1
        # every trick is evaluated first: a win ends the search, and the tricks that complete
        # tasks are searched first (after them, the order of _tricks)
        children: list[tuple[int, int, int, tuple[tuple[int, int], ...], int, Trick, Any]] = []
        for i, (_, plays, winner, m) in enumerate(self._tricks(leader, prefix, rep, hungry)):
            if not allowed >> winner & 1:
                continue  # a task fails at once
            if bad is not None and m & bad[winner]:
                continue  # a task fails at once
            if self.nodes >= self.sub_limit:
                raise _Limit
            self.nodes += 1
            yield
            trick = Trick(number, leader, plays, winner)
            changed, token = tracker.push_trick(trick)
            try:
                state = tracker.mission_state()
                if state == "failure":
                    continue
                if state == "success":
                    return [plays]
                if number >= cap:
                    continue  # (after trick T the mission is over, R-13.3: never counted as a win)
                undo = self._apply(plays, winner, number)
                found = self._possible(tracker, cap, winner)
                self._undo(undo, winner)
            finally:
                tracker.pop_trick(token, changed)
            if found is None:
                continue
            children.append(
                (-len(changed), -found[3] if self.slack_first else 0, i, plays, winner, trick, found)
            )
        if self.salt:
            salt = self.salt
            children.sort(key=lambda x: (x[0], x[1], _shuffled(salt, x[2])))
        else:
            children.sort(key=lambda x: (x[0], x[1], x[2]))
        for _, _, _, plays, winner, trick, found in children:
            changed, token = tracker.push_trick(trick)
            undo = self._apply(plays, winner, number)
            try:
                sub = yield from self._node(winner, tracker, (), cap, found)
            finally:
                self._undo(undo, winner)
                tracker.pop_trick(token, changed)
            if sub is not None:
                return [plays, *sub]
        if key is not None:
            self.lost[key] = cap
        return None


# --- the public functions ---------------------------------------------------------------------


def _position(game: CrewGame, node_limit: int) -> tuple[_Search, StatusTracker] | Solution:
    """The search for ``game``'s position, or the Solution at once (the game is over)."""
    outcome = game.outcome
    if outcome is not None or game.is_over:
        return Solution(outcome is not None and outcome.result == "success", (), 0, True)
    if game.step not in _STEPS:
        raise CrewError(
            f"the solver needs the tasks assigned and the hands settled (steps {', '.join(_STEPS)}), "
            f"not step {game.step!r}"
        )
    n = game.seats
    table = task_table(game.options)
    states = game.tasks
    assigned: list[tuple[Task, int, int | None]] = []
    for t in states:
        if t.owner is None:
            raise CrewError(f"task {t.id} has no owner yet: the solver needs the trick-play phase")
        assigned.append((table[t.id], t.owner, t.prediction))
    mission = game.mission
    constraints: Sequence[Mapping[str, Any]] = tuple(mission.constraints) if mission is not None else ()
    predictions = {t.id: t.prediction for t in states if t.prediction is not None}
    tracker = StatusTracker(
        [(t, o) for t, o, _ in assigned],
        seats=n,
        tricks_total=game.tricks_total,
        captain=game.captain,
        options=game.options,
        predictions=predictions,
        constraints=constraints,
    )
    won = [0] * n
    pos = [0] * n
    for trick in game.tricks:
        tracker.add_trick(trick)
        for _, c in trick.plays:
            won[trick.winner] |= 1 << c
        pos[trick.winner] |= 1 << trick.number
    dummy = game.dummy
    hands = [0 if s == dummy else mask_of(game.hand(s)) for s in range(n)]
    prefix = tuple(game.current_trick)
    hidden = 0
    under: dict[int, int] = {}
    if dummy is not None:
        played_now = [c for s, c in prefix if s == dummy]
        for up, down in game.dummy_columns:
            if up is not None:
                hands[dummy] |= 1 << card(up)
            if down is not None:
                d = card(down)
                hidden |= 1 << d
                if up is not None:
                    under[card(up)] = d
                elif played_now:  # the column Tonoja played from in this trick: it turns up after it
                    under[played_now[0]] = d
    banned = 0
    if game.options.get("mission_lead_ban") == "illegal":
        for con in constraints:
            if con.get("kind", con.get("type")) == "lead_ban":
                for su in con["suits"]:
                    banned |= SUIT_MASK[su]
    plan = _Plan(
        assigned,
        constraints,
        seats=n,
        tricks_total=game.tricks_total,
        captain=game.captain,
        options=game.options,
    )
    search = _Search(
        plan=plan,
        hands=hands,
        hidden=hidden,
        under=under,
        dummy=dummy,
        done=len(game.tricks),
        leader=game.leader if game.tricks or prefix else game.captain,
        prefix=prefix,
        won=won,
        pos=pos,
        node_limit=node_limit,
        lead_banned=banned,
    )
    return search, tracker


def solve(game: CrewGame, *, node_limit: int = DEFAULT_NODE_LIMIT, search: str = "auto") -> Solution:
    """Can the mission of ``game`` still succeed, every seat cooperating and **every hand known**?

    Teaching / analysis mode only: this reads the true hands (``game.hand``, Tonoja's covered
    cards), so it must never be used by a bot that plays.  ``game`` is in the trick-play phase:
    step ``"play"``, a communication window, or the distress decision before trick 1 (a
    finished game gives its outcome); it is not changed.  Communication and distress are
    ignored: the solver plays from the current hands.  ``node_limit`` bounds the completed
    tricks evaluated; when it is hit the answer is ``winnable=None``, ``exact=False`` (no
    guess).

    Raises :class:`~dsa_widget.crew.errors.CrewError` in another step (assignment, predictions,
    the cards of a distress being passed).

    ``search``: ``"auto"`` runs the ordered search and a plain depth-first search (every
    trick in the order of the move-ordering score, no classes of cards, no table, no pruning)
    side by side (the plain one first alone for :data:`PLAIN_START` tricks, the ordered one
    built only if that settles nothing), :data:`PLAIN_PACE` plain tricks per ordered one, and
    takes the first answer:
    the plain search finds easy wins in a few dozen tricks, the ordered one settles the hard
    positions; the plain search may spend :data:`PLAIN_SHARE` of ``node_limit`` (at most
    :data:`PLAIN_CAP`), the ordered one
    the rest (``nodes`` counts both).  ``"ordered"``
    runs only the ordered search, ``"plain"`` only the plain one (the baseline of the
    benchmark).  Every exact answer is the same.
    """
    if search not in ("auto", "ordered", "plain"):
        raise CrewError(f"search is 'auto', 'ordered' or 'plain', not {search!r}")
    pos = _position(game, node_limit)
    if isinstance(pos, Solution):
        return pos
    finder, tracker = pos
    searches = [finder]  # nodes counts every search run
    try:
        if search == "plain":
            tricks = _finish(finder.run_plain(tracker))
        elif search == "ordered":
            tricks = _finish(finder.run(tracker))
        else:
            # the first dive: the plain search alone, before the ordered one is even built
            share = min(int(node_limit * PLAIN_SHARE), PLAIN_CAP)
            finder.node_limit = share
            plain: _Steps | None = None
            if finder.seen_lost(tracker):  # the necessary conditions see it lost: no search
                tricks, settled = None, True
            elif share:
                plain = finder.run_plain(tracker)
                tricks, settled, alive = _head_start(plain)
                if not alive:
                    plain = None
            else:
                tricks, settled = None, False
            if not settled:
                again = _position(game, node_limit - share)
                assert not isinstance(again, Solution)
                finder, tracker = again
                searches.append(finder)
                tricks = _race(finder.run(tracker), plain)
    except _Limit:
        return Solution(None, (), sum(s.nodes for s in searches), False)
    nodes = sum(s.nodes for s in searches)
    if tricks is None:
        return Solution(False, (), nodes, True)
    skip = len(finder.prefix)
    line: list[tuple[int, str]] = []
    for i, plays in enumerate(tricks):
        for seat, c in plays[skip if i == 0 else 0 :]:
            line.append((seat, "play " + _NAME[c]))
    return Solution(True, tuple(line), nodes, True)


def winnable_now(game: CrewGame, *, node_limit: int = DEFAULT_NODE_LIMIT) -> bool | None:
    """:func:`solve`'s ``winnable``: True, False, or None when the node limit was hit."""
    return solve(game, node_limit=node_limit).winnable


def best_play(game: CrewGame, *, node_limit: int = DEFAULT_NODE_LIMIT) -> str | None:
    """The first play of a winning line (``"play P3"``), or None when there is none (lost, the
    node limit hit, or the game over).  Teaching mode only (it reads every hand)."""
    sol = solve(game, node_limit=node_limit)
    return sol.line[0][1] if sol.line else None
