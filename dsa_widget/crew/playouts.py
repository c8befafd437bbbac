"""The fast path of *The Crew*: the play phase on bit masks, random and policy playouts, whole
random deals with task evaluation (benchmarks, the search bot, tournaments).

:class:`PlayState` is the play phase of one attempt and nothing else: the hands as card masks
(Tonoja: the face-up cards, the covered ones turning up after each trick, R-4.8), the trick in
progress, and the engine's own :class:`~dsa_widget.crew.status.StatusTracker` fed one
completed trick at a time, so statuses and the outcome are exactly the engine's (R-10.6,
R-14.1; ``tests/crew/test_playouts.py`` plays the same choices through :class:`CrewGame` and
compares).  Communication and distress do not move cards; a state is made at a trick boundary
or in the middle of a trick, from a game (:meth:`PlayState.from_game`, which reads the hands:
for engines, tests and determinized samples only) or from a seat's view
(:meth:`PlayState.from_view`: the viewer's hand, nobody else's).

Two play policies, both ``policy(state, rng) -> card``: :func:`random_play` (uniform over the
legal cards in deck order: ``legal[int(rng.random() * len(legal))]``) and :func:`greedy_play`,
the crewmate's rule of thumb (:mod:`dsa_widget.crew.bots`) that looks only at the mover's own
hand and public facts.  :func:`random_deal` plays a whole attempt from a shuffle: the deal, the
captain, a random normal-allocation assignment, predictions, the tricks.

>>> import random
>>> from dsa_widget.crew.rules import CrewGame
>>> g = CrewGame(4, seed=3, tasks=[70], assignment={70: 1}, mission={"target": 1, "communication": "none"})
>>> for _ in range(4):
...     g.apply("no distress")
>>> st = PlayState.from_game(g)
>>> st.to_move, st.trick_no, bin(st.legal()).count("1")
(1, 1, 10)
>>> st.play_out(random_play, random.Random(1)) in ("success", "failure")
True
>>> random_deal(random.Random(2), seats=4, tasks=[70, 1]).result in ("success", "failure")
True
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import DECK, NCARDS, SUIT_MASK, card
from .draw import TRICKS, draw_tasks
from .options import resolve_options
from .status import DONE, OPEN, StatusTracker, Trick
from .tasks import TASKS, Task, selector_mask, task_table

if TYPE_CHECKING:
    from .rules import CrewGame
    from .view import CrewView

__all__ = [
    "DealResult",
    "Needs",
    "PlayState",
    "Policy",
    "greedy_best",
    "greedy_play",
    "greedy_scores",
    "needs",
    "random_deal",
    "random_deals",
    "random_play",
    "sighted_play",
]

_S4 = 39
_SUB = SUIT_MASK["S"]
_SUITM = tuple(SUIT_MASK[s] for s in "PYBGS")
_SUIT = tuple(c // 9 if c < 36 else 4 for c in range(NCARDS))
_RANK = tuple(int(DECK[c][1:]) for c in range(NCARDS))
#: per card, the mask of the cards of its suit above it (a submarine: the higher submarines)
_ABOVE = tuple(_SUITM[_SUIT[c]] & ~((2 << c) - 1) for c in range(NCARDS))
_BITS_CACHE: dict[int, tuple[int, ...]] = {}
_DEFAULT_OPTIONS = resolve_options()
#: the most tasks a deal of the compiled kernel holds (dsa_widget.crew.kernel.KMAX, which is
#: imported only when a kernel run is asked for: importing numba takes a while)
_KMAX = 24


def _bits(mask: int) -> tuple[int, ...]:
    t = _BITS_CACHE.get(mask)
    if t is None:
        out = []
        m = mask
        while m:
            low = m & -m
            out.append(low.bit_length() - 1)
            m ^= low
        t = tuple(out)
        if len(_BITS_CACHE) > 300_000:
            _BITS_CACHE.clear()
        _BITS_CACHE[mask] = t
    return t


def _beats(c: int, best: int, led: int) -> bool:
    """Does card ``c`` beat the trick's best card ``best`` (led suit ``led``, R-10.3)?"""
    if c >= 36:
        return best < 36 or c > best
    return best < 36 and _SUIT[c] == led and c > best


#: a play policy: the card the mover plays
Policy = Callable[["PlayState", random.Random], int]


class PlayState:
    """The play phase of one attempt on masks (see the module docstring).

    ``hands[s]``: the cards seat ``s`` may play (Tonoja: face-up only; with
    :meth:`from_view` the other seats' hands are 0); ``down``: Tonoja's covered cards by column
    (-1: none); ``won[s]``: cards captured; ``k[s]``: tricks taken; ``result``: None while
    open, else ``"success"`` / ``"failure"``.
    """

    __slots__ = (
        "seats",
        "tricks_total",
        "captain",
        "dummy",
        "hands",
        "up",
        "down",
        "leader",
        "trick_no",
        "cur",
        "led",
        "best",
        "best_seat",
        "played",
        "won",
        "k",
        "tracker",
        "tasks",
        "owners",
        "preds",
        "lead_banned",
        "result",
        "_needs",
    )

    seats: int
    tricks_total: int
    captain: int
    dummy: int | None
    hands: list[int]
    up: list[int]
    down: list[int]
    leader: int
    trick_no: int
    cur: list[tuple[int, int]]
    led: int
    best: int
    best_seat: int
    played: int
    won: list[int]
    k: list[int]
    tracker: StatusTracker
    tasks: tuple[Task, ...]
    owners: tuple[int, ...]
    preds: tuple[int | None, ...]
    lead_banned: int
    result: str | None
    _needs: tuple[int, Needs] | None

    # ------------------------------------------------------------------ making

    def __init__(
        self,
        hands: Sequence[int],
        assigned: Sequence[tuple[Task, int]],
        *,
        captain: int,
        options: Mapping[str, Any] | None = None,
        predictions: Sequence[int | None] | None = None,
        constraints: Sequence[Mapping[str, Any]] = (),
        dummy: int | None = None,
        columns: Sequence[tuple[int, int]] = (),
        lead_banned: int = 0,
        tricks: Sequence[Trick] = (),
        current: Sequence[tuple[int, int]] = (),
        leader: int | None = None,
    ) -> None:
        """``hands`` by seat (Tonoja's from ``columns``: (face-up, face-down) card ints, -1 for
        none), the tasks with their owners and predictions; before trick 1 (the captain leads,
        R-10.1) unless ``tricks`` (completed, replayed into the tracker), ``current`` (the
        trick in progress, its cards already out of ``hands``) and ``leader`` say otherwise."""
        n = len(hands)
        opts = _DEFAULT_OPTIONS if options is None else options
        self.seats = n
        self.tricks_total = TRICKS[n]
        self.captain = captain
        self.dummy = dummy
        self.up = [u for u, _ in columns]
        self.down = [d for _, d in columns]
        self.tasks = tuple(t for t, _ in assigned)
        self.owners = tuple(o for _, o in assigned)
        preds = tuple(predictions) if predictions is not None else (None,) * len(self.tasks)
        self.preds = preds
        pmap = {t.id: p for t, p in zip(self.tasks, preds, strict=True) if p is not None}
        self.tracker = StatusTracker(
            list(assigned),
            seats=n,
            tricks_total=self.tricks_total,
            captain=captain,
            options=opts,
            predictions=pmap,
            constraints=constraints,
        )
        self.played = 0
        self.won = [0] * n
        self.k = [0] * n
        for t in tricks:
            self._record(t)
        self.hands = list(hands)
        if dummy is not None:
            m = 0
            for u in self.up:
                if u >= 0:
                    m |= 1 << u
            self.hands[dummy] = m
        self.leader = captain if leader is None else leader
        self.trick_no = len(tricks) + 1
        self.lead_banned = lead_banned
        state = self.tracker.mission_state() if tricks else OPEN
        self.result = None if state == OPEN else state
        self._needs = None
        self.cur = []
        self.led = -1
        self.best = -1
        self.best_seat = -1
        for s, c in current:
            self.cur.append((s, c))
            self.played |= 1 << c
            if self.led < 0:
                self.led = _SUIT[c]
                self.best, self.best_seat = c, s
            elif _beats(c, self.best, self.led):
                self.best, self.best_seat = c, s

    @classmethod
    def from_game(cls, game: CrewGame) -> PlayState:
        """The play phase of ``game`` now (step ``communicate`` or ``play``): the true hands.
        For the engine's own tests and for determinized samples (a game drawn from a view)."""
        if game.step not in ("communicate", "play"):
            raise ValueError(f"a PlayState starts in the play phase, not at step {game.step!r}")
        n = game.seats
        dummy = game.dummy
        hands = [0 if s == dummy else game.hand_mask(s) for s in range(n)]
        columns: list[tuple[int, int]] = []
        if dummy is not None:
            for u, d in game.dummy_columns:
                columns.append((-1 if u is None else card(u), -1 if d is None else card(d)))
        return cls(
            hands,
            [(game.table[ts.id], ts.owner) for ts in game.tasks],  # type: ignore[misc]
            predictions=[ts.prediction for ts in game.tasks],
            captain=game.captain,
            options=game.options,
            constraints=game.mission.constraints,
            dummy=dummy,
            columns=columns,
            tricks=game.tricks,
            current=game.current_trick,
            leader=game.leader,
            lead_banned=_lead_ban_mask(game.options, game.mission.constraints),
        )

    @classmethod
    def from_view(cls, view: CrewView) -> PlayState:
        """The play phase as ``view``'s seat knows it: its own hand (and Tonoja's face-up cards),
        every other hand 0; statuses from the public tricks and the predictions it may see."""
        if view.step not in ("communicate", "play"):
            raise ValueError(f"a PlayState starts in the play phase, not at step {view.step!r}")
        n = view.seats
        dummy = view.dummy
        hands = [0] * n
        if view.seat is not None and view.hand is not None and view.seat != dummy:
            for cid in view.hand:
                hands[view.seat] |= 1 << card(cid)
        columns: list[tuple[int, int]] = []
        if dummy is not None and view.dummy_columns is not None:
            for u, _ in view.dummy_columns:
                columns.append((-1 if u is None else card(u), -1))
        table = task_table(view.options)
        return cls(
            hands,
            [(table[tid], owner) for tid, owner, _, _, _, _ in view.tasks],  # type: ignore[misc]
            predictions=[pred for _, _, _, pred, _, _ in view.tasks],
            captain=view.captain if view.captain is not None else 0,
            options=view.options,
            constraints=view.mission.constraints,
            dummy=dummy,
            columns=columns,
            tricks=view.all_tricks,
            current=view.current_trick,
            leader=view.leader if view.leader is not None else 0,
            lead_banned=_lead_ban_mask(view.options, view.mission.constraints),
        )

    def _record(self, t: Trick) -> None:
        mask = 0
        for _, c in t.plays:
            mask |= 1 << c
        self.played |= mask
        self.won[t.winner] |= mask
        self.k[t.winner] += 1
        self.tracker.add_trick(t)

    def copy(self) -> PlayState:
        """An independent copy (the tracker copied, the tasks shared)."""
        new = object.__new__(PlayState)
        for name in PlayState.__slots__:
            setattr(new, name, getattr(self, name))
        new.hands = self.hands.copy()
        new.up = self.up.copy()
        new.down = self.down.copy()
        new.cur = self.cur.copy()
        new.won = self.won.copy()
        new.k = self.k.copy()
        new.tracker = self.tracker.copy()
        return new

    # ------------------------------------------------------------------ playing

    @property
    def to_move(self) -> int:
        """The seat whose card is next (Tonoja's seat for Tonoja: the captain chooses it)."""
        return (self.leader + len(self.cur)) % self.seats

    @property
    def statuses(self) -> list[str]:
        """The task statuses (the tracker's)."""
        return list(self.tracker.statuses)

    def legal(self) -> int:
        """The mask of the cards the mover may play (R-10.2, R-4.9; R-14.5 with ``illegal``)."""
        hand = self.hands[(self.leader + len(self.cur)) % self.seats]
        if self.led >= 0:
            f = hand & _SUITM[self.led]
            return f if f else hand
        if self.lead_banned:
            ok = hand & ~self.lead_banned
            return ok if ok else hand
        return hand

    def play(self, c: int) -> None:
        """The mover plays card ``c`` (known to be legal); a full trick is evaluated at once."""
        n = self.seats
        cur = self.cur
        seat = (self.leader + len(cur)) % n
        b = 1 << c
        self.hands[seat] &= ~b
        self.played |= b
        if seat == self.dummy:
            self.up[self.up.index(c)] = -1
        if self.led < 0:
            self.led = _SUIT[c]
            self.best, self.best_seat = c, seat
        elif _beats(c, self.best, self.led):
            self.best, self.best_seat = c, seat
        cur.append((seat, c))
        if len(cur) == n:
            self._finish()

    def _finish(self) -> None:
        winner = self.best_seat
        plays = tuple(self.cur)
        mask = 0
        for _, c in plays:
            mask |= 1 << c
        self.won[winner] |= mask
        self.k[winner] += 1
        trick = Trick(self.trick_no, self.leader, plays, winner)
        self.cur = []
        self.led = -1
        d = self.dummy
        if d is not None:
            up, down = self.up, self.down
            for col in range(len(up)):
                if up[col] < 0 and down[col] >= 0:
                    up[col] = down[col]
                    down[col] = -1
                    self.hands[d] |= 1 << up[col]
        tr = self.tracker
        tr.add_trick(trick)
        state = tr.mission_state()
        if state != OPEN:
            self.result = state
        elif self.trick_no >= self.tricks_total:  # cannot happen
            self.result = "failure"
        else:
            self.trick_no += 1
            self.leader = winner

    def play_out(self, policy: Policy, rng: random.Random) -> str:
        """Play to the end with ``policy`` for every seat; the result.  With
        :func:`random_play` an inlined loop makes the same choices faster."""
        if policy is random_play and self.dummy is None:
            return self._random_out(rng)
        while self.result is None:
            self.play(policy(self, rng))
        return self.result

    def _random_out(self, rng: random.Random) -> str:
        """:func:`random_play` for every seat, inlined (no Tonoja)."""
        n = self.seats
        hands = self.hands
        suitm = _SUITM
        suit = _SUIT
        rand = rng.random
        cache = _BITS_CACHE
        bits = _bits
        banned = self.lead_banned
        while self.result is None:
            cur = self.cur
            seat = (self.leader + len(cur)) % n
            hand = hands[seat]
            led = self.led
            if led >= 0:
                f = hand & suitm[led]
                m = f if f else hand
            elif banned and hand & ~banned:
                m = hand & ~banned
            else:
                m = hand
            legal = cache.get(m) or bits(m)
            c = legal[int(rand() * len(legal))]
            hands[seat] = hand & ~(1 << c)
            self.played |= 1 << c
            if led < 0:
                self.led = suit[c]
                self.best, self.best_seat = c, seat
            else:
                best = self.best
                if (best < 36 or c > best) if c >= 36 else (best < 36 and suit[c] == led and c > best):
                    self.best, self.best_seat = c, seat
            cur.append((seat, c))
            if len(cur) == n:
                self._finish()
        return self.result

    # ------------------------------------------------------------------ reading for policies

    def needs(self) -> Needs:
        """What every seat's open tasks ask of the next trick (cached per trick)."""
        r = self.trick_no
        cached = self._needs
        if cached is not None and cached[0] == r:
            return cached[1]
        nd = needs(self)
        self._needs = (r, nd)
        return nd


def _lead_ban_mask(options: Mapping[str, Any], constraints: Sequence[Mapping[str, Any]]) -> int:
    if options.get("mission_lead_ban") != "illegal":
        return 0
    m = 0
    for con in constraints:
        if con.get("kind", con.get("type")) == "lead_ban":
            for su in con["suits"]:
                m |= SUIT_MASK[su]
    return m


# ---------------------------------------------------------------------------- what tasks ask


@dataclass(frozen=True, slots=True)
class Needs:
    """Per seat, what its OPEN tasks ask (public information only).

    ``must``: cards the seat must capture (another seat capturing one fails a task); ``want``:
    cards it would like to capture; ``never``: cards it must not capture; ``pref``: the wish
    about taking the next trick (+2 must, +1 would like, 0 neutral, -1 would rather not, -2
    must not); ``no_lead``: suits it must not lead; ``win_with``: (play mask, capture mask or
    0) pairs — take a trick with an own card of the first set (holding one of the second);
    ``hold``: cards that must not be captured before the last trick (task 17).
    """

    must: tuple[int, ...]
    want: tuple[int, ...]
    never: tuple[int, ...]
    pref: tuple[int, ...]
    no_lead: tuple[int, ...]
    win_with: tuple[tuple[tuple[int, int], ...], ...]
    hold: int

    @property
    def all_must(self) -> int:
        m = 0
        for x in self.must:
            m |= x
        return m


_SEL: dict[tuple[str, tuple[Any, ...]], int] = {}


def _sel(select: Mapping[str, Any]) -> int:
    ((k, v),) = select.items()
    key = (k, tuple(v))
    m = _SEL.get(key)
    if m is None:
        m = _SEL[key] = selector_mask(select)
    return m


def needs(st: PlayState) -> Needs:
    """:class:`Needs` of the state's open tasks before its next trick (see :meth:`PlayState.needs`)."""
    n = st.seats
    T = st.tricks_total
    r = st.trick_no - 1  # completed tricks
    left = T - r
    # cards not in a completed trick (the ones of the trick in progress can still be captured)
    cur = 0
    for _, c in st.cur:
        cur |= 1 << c
    live = ~(st.played & ~cur) & ((1 << NCARDS) - 1)
    must = [0] * n
    want = [0] * n
    never = [0] * n
    pref = [0] * n
    nolead = [0] * n
    win_with: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    hold = 0
    k = st.k
    last_winner = st.tracker.tricks[-1].winner if r else -1
    statuses = st.tracker.statuses
    for i, t in enumerate(st.tasks):
        if statuses[i] != OPEN:
            continue
        o = st.owners[i]
        p = t.params
        kind = t.kind
        w = st.won[o]
        if kind == "win_cards":
            for cid in p["cards"]:
                must[o] |= (1 << card(cid)) & ~w
        elif kind == "win_card_in_trick":
            b = 1 << card(p["card"])
            if left == 1:
                must[o] |= b
                pref[o] = max(pref[o], 2)
            else:
                hold |= b
        elif kind in ("card_count", "avoid_cards"):
            cons = (
                [(p["select"], "eq", 0)]
                if kind == "avoid_cards"
                else [(c["select"], c["op"], int(c["n"])) for c in p["constraints"]]
            )
            for sel, op, cnt in cons:
                m = _sel(sel)
                have = (w & m).bit_count()
                if cnt == 0 or (op == "eq" and have >= cnt):
                    never[o] |= m & live
                elif "cards" in sel and cnt == len(sel["cards"]):
                    must[o] |= m & ~w
                else:
                    want[o] |= m & live
        elif kind == "all_of_a_suit":
            # the colour it has most of, or any when it has none yet
            best = max(range(4), key=lambda j: (w & _SUITM[j]).bit_count())
            if w & _SUITM[best]:
                must[o] |= _SUITM[best] & live
        elif kind == "compare_suits":
            a, b2 = SUIT_MASK[p["a"]], SUIT_MASK[p["b"]]
            if p["op"] == "gt":
                want[o] |= a & live
                if (w & a).bit_count() <= (w & b2).bit_count() + 1:
                    never[o] |= b2 & live
            else:
                ca, cb = (w & a).bit_count(), (w & b2).bit_count()
                if ca <= cb:
                    want[o] |= a & live
                if cb <= ca:
                    want[o] |= b2 & live
        elif kind == "win_trick_with":
            pm = _sel(p["play"])
            cap = p.get("capture")
            cm = _sel(cap) if cap is not None else 0
            win_with[o].append((pm, cm))
            if cap is not None and "cards" in cap:
                want[o] |= cm & live
        elif kind == "trick_matching":
            pref[o] = max(pref[o], 1) if pref[o] >= 0 else pref[o]
        elif kind == "no_lead":
            for su in p["suits"]:
                nolead[o] |= SUIT_MASK[su]
        elif kind == "trick_positions":
            nxt = r + 1
            winp = [T if x == "last" else int(x) for x in p["win"]]
            if p["avoid"] == "rest":
                shun = [x for x in range(1, T + 1) if x not in winp]
            else:
                shun = [T if x == "last" else int(x) for x in p["avoid"]]
            if nxt in winp:
                pref[o] = 2
            elif nxt in shun:
                pref[o] = -2
        elif kind == "trick_count":
            x = p["n"] if p["n"] != "predicted" else st.preds[i]
            if x is None:
                continue
            x = int(x)
            if k[o] >= x:
                pref[o] = -2
            elif k[o] + left <= x:
                pref[o] = 2
            elif pref[o] == 0:
                pref[o] = 1 if x - k[o] > left / n else -1
        elif kind == "trick_run":
            mode, cnt = p["mode"], int(p["n"])
            if mode == "at_least":
                pref[o] = max(pref[o], 2 if last_winner == o else 1)
            elif mode == "never":
                if last_winner == o:
                    pref[o] = -2
            else:
                if k[o] >= cnt:
                    pref[o] = -2
                elif (k[o] and last_winner == o) or (k[o] == 0 and left <= cnt):
                    pref[o] = 2
        elif kind == "trick_count_relative":
            op, vs = p["op"], p["vs"]
            if vs == "captain" and op == "eq":
                kc = k[st.captain]
                if k[o] < kc:
                    pref[o] = max(pref[o], 1)
                    pref[st.captain] = (
                        min(pref[st.captain], -1) if pref[st.captain] <= 0 else pref[st.captain]
                    )
                elif k[o] > kc:
                    pref[o] = -1 if pref[o] <= 0 else pref[o]
            elif op == "gt":
                pref[o] = max(pref[o], 1)
                if vs == "captain" and st.captain != o:
                    pref[st.captain] = -1 if pref[st.captain] <= 0 else pref[st.captain]
            else:
                pref[o] = -1 if pref[o] <= 0 else pref[o]
                if vs == "captain" and st.captain != o:
                    pref[st.captain] = max(pref[st.captain], 1)
    return Needs(
        tuple(must),
        tuple(want),
        tuple(never),
        tuple(pref),
        tuple(nolead),
        tuple(tuple(x) for x in win_with),
        hold,
    )


# ---------------------------------------------------------------------------- policies


def random_play(st: PlayState, rng: random.Random) -> int:
    """A uniformly random legal card: ``legal[int(rng.random() * len(legal))]``, deck order."""
    legal = _bits(st.legal())
    return legal[int(rng.random() * len(legal))]


#: the score of a trick wish (hundredths: every score of the card rule is a whole number of them)
_PREF_VALUE = {2: 600, 1: 150, 0: 0, -1: -200, -2: -1200}


def _value(nd: Needs, w: int, m: int, c_w: int, trick_last: bool) -> int:
    """How good it is for the crew that seat ``w`` takes a trick holding the cards ``m``, its
    own card ``c_w`` winning (-1: unknown), in hundredths."""
    v = 0
    mine = m & nd.must[w]
    if mine:
        v += 400 * mine.bit_count()
    others = m & nd.all_must & ~nd.must[w]
    if others:
        v -= 1200 * others.bit_count()
    bad = m & nd.never[w]
    if bad:
        v -= 1200 * bad.bit_count()
    good = m & nd.want[w]
    if good:
        v += 100 * good.bit_count()
    if m & nd.hold and not trick_last:
        v -= 1200
    v += _PREF_VALUE[nd.pref[w]]
    if c_w >= 0:
        for pm, cm in nd.win_with[w]:
            if pm >> c_w & 1 and (not cm or m & ~(1 << c_w) & cm):
                v += 500
    return v


def greedy_scores(st: PlayState, *, sighted: bool = False) -> list[tuple[int, int, int]]:
    """The crewmate's score of every legal card of the mover, ``(card, num, den)``: the score
    is the fraction ``num / den`` in hundredths, exact (``den`` > 0), so equal scores are equal
    and the compiled kernel (:func:`dsa_widget.crew.kernel.kernel_playout`) reaches the same
    ones.  See :func:`greedy_play` for what is scored; ``sighted``: :func:`sighted_play`'s
    scores (the threats to the trick's winner read from the hands of the seats still to play
    in it)."""
    legal = _bits(st.legal())
    n = st.seats
    seat = (st.leader + len(st.cur)) % n
    nd = st.needs()
    hand = st.hands[seat]
    unknown = ~(st.played | hand) & ((1 << NCARDS) - 1)  # cards some other seat may hold
    cur = st.cur
    m0 = 0
    for _, c in cur:
        m0 |= 1 << c
    last = len(cur) == n - 1
    trick_last = st.trick_no == st.tricks_total
    out = []
    for c in legal:
        b = 1 << c
        m = m0 | b
        if not cur or _beats(c, st.best, st.led):
            w, wc = seat, c
        else:
            w, wc = st.best_seat, st.best
        # the fixed part: keep strong cards (a small cost for high cards and submarines)
        fixed = -8 * _RANK[c] - (60 if c >= 36 else 0)
        if b & nd.must[seat] and w != seat:
            fixed -= 600
        if b & nd.hold and not trick_last:
            fixed -= 600
        if last:
            num, den = _exact(st, c, seat, w, m, trick_last, nd) + fixed, 1
        else:
            # how sure is the provisional winner: h = the cards still out that could beat its
            # card, submarines counting half (over a coloured card); it keeps the trick with
            # chance p = 1 / (1 + 1.5 h) = 4 / (4 + 3 h2), h2 = 2 h
            if sighted:
                lm = _SUITM[st.led if cur else _SUIT[c]]
                beat = _ABOVE[wc] | (_SUB if wc < 36 else 0)
                threats = 0
                top_seat = -1
                for j in range(len(cur) + 1, n):
                    q = (st.leader + j) % n
                    h = st.hands[q]
                    t = (h & lm if h & lm else h) & beat
                    if t.bit_length() > threats.bit_length():
                        top_seat = q
                    threats |= t
                h2 = 2 * threats.bit_count()
            else:
                threats = _ABOVE[wc] & unknown
                if wc < 36:
                    threats &= ~_SUB
                    subs_out = _SUB & unknown
                else:
                    subs_out = 0
                h2 = 2 * threats.bit_count() + subs_out.bit_count()
            v_w = _value(nd, w, m, wc if w == seat else -1, trick_last)
            if sighted and h2:  # the trick as the seat with the highest threat would take it
                v_other = _value(nd, top_seat, m, -1, trick_last)
            else:
                v_other = -800 * (m & (nd.all_must | nd.hold)).bit_count() if h2 else 0
            if not cur and nd.no_lead[seat] & b:
                fixed -= 1200
            den = 4 + 3 * h2
            num = 4 * v_w + 3 * h2 * v_other + den * fixed
        out.append((c, num, den))
    return out


def greedy_best(st: PlayState, *, sighted: bool = False) -> tuple[int, ...]:
    """The legal cards with the crewmate's top score (deck order): :func:`greedy_play` plays
    one of them, uniformly at random (``sighted``: :func:`sighted_play`'s top score)."""
    scores = greedy_scores(st, sighted=sighted)
    bn, bd = scores[0][1], scores[0][2]
    for _, num, den in scores:
        if num * bd > bn * den:
            bn, bd = num, den
    return tuple(c for c, num, den in scores if num * bd == bn * den)


def greedy_play(st: PlayState, rng: random.Random) -> int:
    """The crewmate's card (see :mod:`dsa_widget.crew.bots.crewmate`): every legal card scored
    by who would take the trick and what it would hold — the owner capturing the cards its tasks
    need, nobody capturing cards another seat must take or cards it must avoid, the trick
    wishes of the tasks (take trick 1, take exactly two tricks, …), the cheapest card when
    nothing is at stake.  The last card of a trick is checked exactly with the status tracker.
    Uses only the mover's hand and public facts; the scores are exact (:func:`greedy_scores`)
    and equal top scores are broken with ``rng`` (one draw per legal card, uniform)."""
    return _top(st, rng, False)


def sighted_play(st: PlayState, rng: random.Random) -> int:
    """The crewmate's card rule for a deal whose hands are all known (a drawn deal in a
    bot's rollouts, never a seat's own choice at the table): :func:`greedy_play`, except that
    the trick's provisional winner is threatened only by the cards the seats still to play
    in the trick can play (their led-suit cards when they hold one, else their hand), each
    counting fully, instead of by every card still out.  A card that nobody after the mover
    can beat is sure to take the trick, so the owner of a task takes its card when it can
    and the others do not throw a task's card under a winner that cannot hold.  The
    compiled kernel's ``policy="sighted"`` makes the same choices.

    >>> from dsa_widget.crew.tasks import TASKS
    >>> hands = [sum(1 << c for c in range(40) if c % 4 == q) for q in range(4)]
    >>> st = PlayState(hands, [(TASKS[1], 0)], captain=3)
    >>> st.play_out(sighted_play, random.Random(1)) in ("success", "failure")
    True
    """
    return _top(st, rng, True)


def _top(st: PlayState, rng: random.Random, sighted: bool) -> int:
    """A card of the top score (:func:`greedy_scores`), ties broken with one draw per legal card."""
    legal = _bits(st.legal())
    if len(legal) == 1:
        return legal[0]
    choice, bn, bd, bu = -1, 0, 1, -1.0
    for c, num, den in greedy_scores(st, sighted=sighted):
        u = rng.random()
        x = num * bd - bn * den
        if choice < 0 or x > 0 or (x == 0 and u > bu):
            choice, bn, bd, bu = c, num, den, u
    return choice


def _exact(st: PlayState, c: int, seat: int, w: int, m: int, trick_last: bool, nd: Needs) -> int:
    """The last card of a trick: the engine's statuses after it (copied tracker), hundredths."""
    tr = st.tracker.copy()
    plays = (*st.cur, (seat, c))
    changed = tr.add_trick(Trick(st.trick_no, st.leader, plays, w))
    state = tr.mission_state()
    if state == "failure":
        return -10000
    if state == "success":
        return 10000
    v = 1000 * sum(1 for _, s in changed if s == DONE)
    # progress that is not yet a status: the mask heuristic, without the trick wish (now exact)
    v += _value(nd, w, m, c if w == seat else -1, trick_last) - _PREF_VALUE[nd.pref[w]]
    if nd.pref[w] == 2:
        v += 300
    elif nd.pref[w] == 1:
        v += 100
    return v


# ---------------------------------------------------------------------------- whole deals


@dataclass(frozen=True)
class DealResult:
    """One complete random deal: ``result`` ``"success"`` / ``"failure"``, the trick it was
    decided at, the task ids, their owners and final statuses, the captain."""

    result: str
    trick: int
    tasks: tuple[int, ...]
    owners: tuple[int, ...]
    statuses: tuple[str, ...]
    captain: int


def _assign_normal(rng: random.Random, task_list: Sequence[Task], n: int, captain: int) -> list[int]:
    """A random normal allocation (R-7.1-R-7.3): the seats in turn from the captain take a
    random task each (k < N: the first k seats take one each), never a captain-comparison task
    on the captain (R-5.3)."""
    k = len(task_list)
    for _ in range(100):
        order = list(range(k))
        rng.shuffle(order)
        owners = [0] * k
        ok = True
        for j, i in enumerate(order):
            s = (captain + j) % n
            owners[i] = s
            if s == captain and task_list[i].vs_captain:
                ok = False
        if ok:
            return owners
    # only captain-comparison tasks could go to the captain: give them to the seat after it
    return [
        (captain + 1) % n if t.vs_captain and o == captain else o
        for t, o in zip(task_list, owners, strict=True)
    ]


def random_deal(
    rng: random.Random,
    *,
    seats: int = 4,
    tasks: Sequence[int] | None = None,
    target: int = 3,
    policy: Policy = random_play,
    options: Mapping[str, Any] | None = None,
) -> DealResult:
    """One complete attempt from a shuffle (no Tonoja; 3-5 seats): the deal (R-4.1), the
    captain, ``tasks`` (else a draw to ``target`` with the engine's :func:`draw_tasks`), a
    random normal allocation, predictions (uniform 0..T with :func:`random_play`, else the
    policy's estimate), the tricks with ``policy``, the statuses after every trick."""
    n = seats
    if n not in TRICKS:
        raise ValueError(f"seats must be 3, 4 or 5, not {seats!r}")
    opts = _DEFAULT_OPTIONS if options is None else resolve_options(options)
    table = TASKS if options is None else task_table(opts)
    deck = list(range(NCARDS))
    rng.shuffle(deck)
    start = rng.randrange(n) if n == 3 else 0
    hands = [0] * n
    for i, c in enumerate(deck):
        hands[(start + i) % n] |= 1 << c
    captain = next(s for s in range(n) if hands[s] >> _S4 & 1)
    if tasks is None:
        tasks = draw_tasks(rng, seats=n, target=target, table=table, options=opts).tasks
    task_list = [table[t] for t in tasks]
    owners = _assign_normal(rng, task_list, n, captain)
    T = TRICKS[n]
    preds: list[int | None] = []
    for t, o in zip(task_list, owners, strict=True):
        if t.kind == "trick_count" and t.params.get("n") == "predicted":
            preds.append(rng.randint(0, T) if policy is random_play else estimate_tricks(hands[o], n))
        else:
            preds.append(None)
    st = PlayState(
        hands, list(zip(task_list, owners, strict=True)), captain=captain, options=opts, predictions=preds
    )
    res = st.play_out(policy, rng)
    return DealResult(res, st.trick_no, tuple(tasks), tuple(owners), tuple(st.tracker.statuses), captain)


def random_deals(
    count: int,
    rng: random.Random,
    *,
    seats: int = 4,
    tasks: Sequence[int] | None = None,
    target: int = 3,
    policy: Policy = random_play,
) -> tuple[int, int]:
    """``count`` deals of :func:`random_deal`: (successes, deals).

    With :func:`random_play` (3-5 seats, the default rule options, at most
    :data:`~dsa_widget.crew.kernel.KMAX` tasks) the deals are played by the compiled kernel
    (:func:`~dsa_widget.crew.kernel.kernel_deals`, seeded from ``rng``; the task sets, when
    drawn, drawn from ``rng`` first): the same kind of deal, checked against the engine, about
    60 times faster with numba.  Other policies play :func:`random_deal` one deal at a time."""
    if policy is random_play and seats in TRICKS and (tasks is None or len(tasks) <= _KMAX):
        from .kernel import kernel_deals

        if tasks is not None:
            sets = [tuple(tasks)]
        else:
            sets = [
                tuple(
                    draw_tasks(rng, seats=seats, target=target, table=TASKS, options=_DEFAULT_OPTIONS).tasks
                )
                for _ in range(max(1, count))
            ]
        return kernel_deals(count, seats=seats, task_sets=sets, seed=rng.getrandbits(63))
    ok = 0
    for _ in range(count):
        if random_deal(rng, seats=seats, tasks=tasks, target=target, policy=policy).result == "success":
            ok += 1
    return ok, count


def estimate_tricks(hand: int, seats: int) -> int:
    """A rough count of the tricks a hand takes (for predictions): submarines, high cards of
    each colour, long colours; at least 0, at most T."""
    x = 0.0
    for s in range(36, 40):
        if hand >> s & 1:
            x += (0.6, 0.75, 0.9, 1.0)[s - 36]
    for j in range(4):
        m = hand & _SUITM[j]
        if not m:
            continue
        top = m.bit_length() - 1
        r = _RANK[top]
        x += 0.85 if r == 9 else 0.45 if r == 8 else 0.15 if r == 7 else 0.0
        if m.bit_count() >= 4:
            x += 0.3 * (m.bit_count() - 3)
    return max(0, min(TRICKS[seats], round(x)))
