"""Two plain bots for *The Crew*: ``random`` (any legal action) and ``crewmate`` (rules of thumb).

Both follow the package's bot protocol ``bot(view, legal) -> action``: they read only the
seat's :class:`~dsa_widget.crew.view.CrewView` and return one of ``legal``, at every step of an
attempt (timing, every allocation mode, predictions, distress, communication, play).

The crewmate:

* **tasks** — scores every task for its own hand (:func:`task_fit`: holds the card or high cards
  of its suit for "capture X", few high cards for "capture no pink" or "take no trick", a hand
  worth about n tricks for "exactly n", …) and takes the best; passes (where a pass is legal)
  when nothing suits it; proposes, volunteers, keeps or gives tasks the same way; confirms and
  accepts what the others propose (so a table of crewmates never deadlocks);
* **predictions** — a rough count of the tricks its hand takes;
* **distress** — never proposes it (knob ``distress=False``), agrees when a teammate does,
  passes a card the receiver's tasks want, else its cheapest card;
* **communication** — at most once: a card another seat must capture, else the highest card of
  a colour in which some task needs a card (a high card that helps), else nothing;
* **play** — :func:`dsa_widget.crew.playouts.greedy_play`: wins tricks holding cards its own
  tasks need, feeds needed cards to their owner when the owner takes the trick, keeps away from
  capturing cards others must take or must avoid, follows the trick-count tasks.

>>> from dsa_widget.crew.rules import CrewGame
>>> from dsa_widget.core.bots import play_bot_move
>>> g = CrewGame(4, seed=3, target=3)
>>> bot = CrewmateBot(seed=1)
>>> while not g.is_over:
...     _ = play_bot_move(g, bot)
>>> g.outcome.result in ("success", "failure")
True
>>> RandomBot(seed=1)(g.view(0), ("pass", "comm P3"))
'pass'
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ...core import bots as core_bots
from ...core.bots import Bot
from ..cards import DECK, NCARDS, SUIT_MASK, card
from ..playouts import PlayState, estimate_tricks, greedy_play
from ..tasks import Task, selector_mask, task_table
from ..view import CrewView
from ..words import card_words

__all__ = ["CrewmateBot", "RandomBot", "hand_mask", "task_fit"]

_SUITM = tuple(SUIT_MASK[s] for s in "PYBGS")
_RANK = tuple(int(DECK[c][1:]) for c in range(NCARDS))
_HIGH = sum(1 << c for c in range(36) if _RANK[c] >= 8)
_LOW = sum(1 << c for c in range(36) if _RANK[c] <= 4)


class RandomBot(core_bots.RandomBot):
    """Any legal action, uniformly at random (seeded)."""

    summary = "any legal choice at random: a yardstick"


def hand_mask(view: CrewView) -> int:
    """The viewer's own cards as a mask (0 for a spectator)."""
    m = 0
    for cid in view.hand or ():
        m |= 1 << card(cid)
    return m


def _strength(hand: int) -> float:
    """Roughly the tricks a hand can take by force: 9s, 8s and submarines."""
    x = 0.0
    for j in range(4):
        m = hand & _SUITM[j]
        if m:
            top = _RANK[m.bit_length() - 1]
            x += 1.0 if top == 9 else 0.5 if top == 8 else 0.0
    x += 0.8 * (hand & _SUITM[4]).bit_count()
    return x


def _card_fit(x: int, hand: int) -> float:
    """How well a hand can capture card ``x``."""
    if x >= 36:  # a submarine: hold it, or a higher one
        higher = hand & _SUITM[4] & ~((2 << x) - 1)
        return 1.0 if hand >> x & 1 and (x == 39 or higher) else 0.7 if higher or hand >> x & 1 else -0.6
    s = x // 9
    mine = hand & _SUITM[s]
    top = _RANK[mine.bit_length() - 1] if mine else 0
    if hand >> x & 1:
        # own card: it must win its own trick, or be kept until the suit is clear
        return 0.9 if _RANK[x] >= 8 else 0.4 if top >= 8 else 0.0
    if top == 9:
        return 1.0
    if top == 8:
        return 0.6
    if top == 7:
        return 0.2
    return -0.5 + 0.3 * min(2, (hand & _SUITM[4]).bit_count())


def task_fit(task: Task, hand: int, seats: int, *, captain: bool = False) -> float:
    """How well ``hand`` suits ``task`` (about -2 … 2; higher is better): a rule of thumb."""
    p = task.params
    kind = task.kind
    st = _strength(hand)
    if kind == "win_cards":
        cards = [card(c) for c in p["cards"]]
        return sum(_card_fit(x, hand) for x in cards) / len(cards) - 0.15 * (len(cards) - 1)
    if kind == "win_card_in_trick":
        return _card_fit(card(p["card"]), hand) - 0.6
    if kind in ("card_count", "avoid_cards"):
        cons = (
            [(p["select"], "eq", 0)]
            if kind == "avoid_cards"
            else [(c["select"], c["op"], int(c["n"])) for c in p["constraints"]]
        )
        total = 0.0
        for sel, _op, n in cons:
            m = selector_mask(sel)
            if n == 0:
                total += 0.6 - 0.5 * (hand & m & _HIGH).bit_count() - 0.3 * (hand & m & _SUITM[4]).bit_count()
                total += 0.2 * (hand & m & _LOW).bit_count() - 0.15 * st
            elif "cards" in sel and n == len(sel["cards"]):
                total += sum(_card_fit(x, hand) for x in (card(c) for c in sel["cards"])) / n
            else:
                total += (st - 1.5) / 3.0 + 0.15 * (hand & m).bit_count()
        return total / len(cons)
    if kind == "all_of_a_suit":
        return max((hand & _SUITM[j]).bit_count() for j in range(4)) / 3.0 - 1.5 + 0.2 * st
    if kind == "compare_suits":
        a, b = SUIT_MASK[p["a"]], SUIT_MASK[p["b"]]
        return 0.3 + 0.2 * ((hand & a & _HIGH).bit_count() - (hand & b & _HIGH).bit_count())
    if kind == "win_trick_with":
        pm = selector_mask(p["play"])
        cands = hand & pm
        if not cands:
            return -1.0
        best = max(_RANK[c] if c < 36 else 9 for c in range(NCARDS) if cands >> c & 1)
        return -0.4 + 0.12 * best + 0.1 * cands.bit_count()
    if kind == "trick_matching":
        return -0.2 + 0.1 * st
    if kind == "no_lead":
        m = 0
        for s in p["suits"]:
            m |= SUIT_MASK[s]
        return 0.8 - 0.15 * (hand & m).bit_count()
    if kind == "trick_positions":
        win = p["win"]
        avoid = p["avoid"]
        v = 0.0
        if win:
            v += (st - 1.5) / 2.0 + (0.4 if captain and 1 in win else 0.0)
        if avoid:
            v += (2.0 - st) / 2.0 - (0.5 if captain and 1 in (avoid if avoid != "rest" else []) else 0.0)
        return v
    if kind == "trick_count":
        if p["n"] == "predicted":
            return 0.5
        return 1.0 - abs(estimate_tricks(hand, seats) - int(p["n"])) / 1.5
    if kind == "trick_run":
        if p["mode"] == "never":
            return (3.0 - st) / 2.0
        return (st - 2.5) / 2.0
    if kind == "trick_count_relative":
        if p["op"] == "gt":
            return (st - 2.5 - (1.0 if p["vs"] == "others_combined" else 0.0)) / 1.5
        if p["op"] == "lt":
            return (2.0 - st) / 1.5
        return 0.2
    return 0.0  # pragma: no cover - every kind is listed above


class CrewmateBot(Bot):
    """The rule-based crewmate (see the module docstring).  Knobs: ``communicate`` (show a
    useful card once), ``distress`` (propose the distress signal: never by default)."""

    name = "crewmate"
    summary = "rules of thumb: takes tasks its hand suits, plays for everyone's tasks, shows one card"
    KNOBS: ClassVar[dict[str, Any]] = {"communicate": True, "distress": False}

    def _check_knobs(self) -> None:
        self._check_knob_kinds()  # communicate='x' or distress=1 would pass for a truth value

    # ------------------------------------------------------------------ dispatch

    def decide(self, view: Any, legal: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
        if len(legal) == 1:
            return legal[0], {"reason": "the only legal action"}
        step = view.step
        handler = getattr(self, "_" + step, None)
        if handler is not None:
            out = handler(view, legal)
            if out is not None and out[0] in legal:
                return out  # type: ignore[no-any-return]
        return legal[0], {"reason": "the first legal action"}

    # ------------------------------------------------------------------ helpers

    def _table(self, view: CrewView) -> Mapping[int, Task]:
        return task_table(view.options)

    def _my_hand(self, view: CrewView) -> int:
        """The hand the bot decides for: its own, or Tonoja's face-up cards when acting for it."""
        if view.dummy is not None and view.acting_for == view.dummy and view.dummy_columns is not None:
            m = 0
            for u, _ in view.dummy_columns:
                if u is not None:
                    m |= 1 << card(u)
            return m
        return hand_mask(view)

    def _fit(self, view: CrewView, tid: int, seat: int | None = None) -> float:
        seat = view.acting_for if seat is None else seat
        hand = self._my_hand(view)
        return task_fit(self._table(view)[tid], hand, view.seats, captain=seat == view.captain)

    # ------------------------------------------------------------------ assignment

    def _timing(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        return ("timed" if "timed" in legal else legal[0]), {"reason": "a bot does not need more time"}

    def _assign(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        takes = [a for a in legal if a.startswith("take ")]
        scored = sorted(((self._fit(view, int(a[5:])), a) for a in takes), key=lambda x: -x[0])
        if "pass" in legal and (not scored or scored[0][0] < -0.3):
            return "pass", {"reason": "no task suits this hand"}
        fit, a = scored[0]
        return a, {"reason": f"the task that suits this hand best (fit {fit:.2f})"}

    def _propose(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        me = view.acting_for if view.acting_for is not None else view.seat
        best: tuple[float, str] | None = None
        for a in legal:
            owners: dict[int, int] = {}
            value = 0.0
            for part in a.split()[1:]:
                t, _, s = part.partition(":")
                seat = int(s)
                owners[seat] = owners.get(seat, 0) + 1
                value += self._fit(view, int(t), seat) if seat == me else 0.0
            value -= 0.35 * sum(x * x for x in owners.values())
            if best is None or value > best[0]:
                best = (value, a)
        assert best is not None
        return best[1], {"reason": "tasks that suit this hand to this seat, the rest spread out"}

    def _confirm(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        return "confirm", {"reason": "a crewmate goes along with the proposal"}

    def _accept(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        return "accept", {"reason": "a crewmate accepts the tasks"}

    def _decide(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        fit = sum(self._fit(view, t) for t in view.task_ids)
        if "keep" in legal and fit >= -0.5 * len(view.task_ids):
            return "keep", {"reason": f"the tasks suit the captain's hand (fit {fit:.2f})"}
        gives = [a for a in legal if a.startswith("give ")]
        cap = view.captain or 0
        gives.sort(key=lambda a: (int(a[5:]) - cap) % view.seats)
        return gives[0], {"reason": "the captain's hand does not suit the tasks"}

    def _volunteer(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        fit = sum(self._fit(view, t) for t in view.task_ids)
        ans = "yes" if fit >= -0.25 * len(view.task_ids) else "no"
        return ans, {"reason": f"fit of the tasks with this hand {fit:.2f}"}

    def _predict(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        hand = self._my_hand(view)
        x = estimate_tricks(hand, view.seats)
        if view.dummy is not None and view.acting_for == view.dummy:
            x = min(view.tricks_total, 2 * x)  # half of Tonoja's cards are still covered
        a = f"predict {x}"
        return (a if a in legal else legal[0]), {"reason": f"this hand looks worth about {x} tricks"}

    # ------------------------------------------------------------------ distress

    def _distress(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        if self.knobs["distress"]:
            for a in legal:
                if a != "no distress":
                    return a, {"reason": "knob distress=True"}
        return "no distress", {"reason": "the distress signal costs an attempt"}

    def _distress_vote(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        return "agree", {"reason": "a teammate asked for it"}

    def _distress_give(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        seat = view.seat if view.seat is not None else 0
        n = view.seats
        if view.dummy is not None:
            others = [s for s in view.humans if s != seat]
            receiver = others[0] if others else seat
        else:
            receiver = (seat + 1) % n if view.distress.get("direction") == "cw" else (seat - 1) % n
        table = self._table(view)
        mine_need = 0
        their_need = 0
        for tid, owner, _status, _p, _pr, _h in view.tasks:
            t = table[tid]
            m = _task_cards(t)
            if owner == seat:
                mine_need |= m
            elif owner == receiver:
                their_need |= m
        best: tuple[float, str] | None = None
        for a in legal:
            c = card(a.split()[1])
            v = -_RANK[c] * 0.1
            if their_need >> c & 1:
                v += 2.0
            if mine_need >> c & 1:
                v -= 2.0
            if best is None or v > best[0]:
                best = (v, a)
        assert best is not None
        return best[1], {"reason": "a card the receiver's tasks want, else a cheap one"}

    # ------------------------------------------------------------------ communication and play

    def _comm_choice(self, view: CrewView, legal: Sequence[str]) -> tuple[str, str] | None:
        """The communication worth making (action, reason), or None."""
        if not self.knobs["communicate"]:
            return None
        comms = [a for a in legal if a.startswith("comm ")]
        if not comms or any(c.seat == view.seat for c in view.communicated):
            return None
        try:
            st = PlayState.from_view(view)
        except ValueError:
            return None
        nd = st.needs()
        me = view.seat if view.seat is not None else -1
        hand = hand_mask(view)
        others_must = 0
        for s in range(view.seats):
            if s != me:
                others_must |= nd.must[s] | nd.want[s]
        wanted_suits = 0
        for s in range(view.seats):
            for j in range(4):
                if (nd.must[s] | nd.want[s]) & _SUITM[j]:
                    wanted_suits |= 1 << j
        best: tuple[float, str, str] | None = None
        seen: set[int] = set()
        for a in comms:
            c = card(a.split()[1])
            if c in seen:
                continue
            seen.add(c)
            v = 0.0
            why = ""
            if others_must >> c & 1:
                v, why = 3.0, f"{card_words(DECK[c])} is a card a teammate's task needs"
            elif c < 36 and wanted_suits >> (c // 9) & 1:
                top = (hand & _SUITM[c // 9]).bit_length() - 1
                if top == c and _RANK[c] >= 7:
                    v, why = 2.0, f"{card_words(DECK[c])} is my highest card of a colour a task needs"
            if v >= 2.0 and (best is None or v > best[0]):
                best = (v, a, why)
        if best is None:
            return None
        return best[1], best[2]

    def _communicate(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        got = self._comm_choice(view, legal)
        if got is not None:
            return got[0], {"reason": got[1]}
        return "pass", {"reason": "nothing worth showing"}

    def _play(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]]:
        if any(a.startswith("comm ") for a in legal):  # a free window: the leader may show first
            got = self._comm_choice(view, legal)
            if got is not None:
                return got[0], {"reason": got[1]}
        plays = [a for a in legal if a.startswith("play ")]
        if len(plays) == 1:
            return plays[0], {"reason": "the only card it may play"}
        st = PlayState.from_view(view)
        c = greedy_play(st, random.Random(self.rng.getrandbits(32)))
        a = f"play {DECK[c]}"
        if a not in legal:  # pragma: no cover - the state's legal cards are the game's
            a = plays[0]
        return a, {"reason": "the card that serves the tasks best"}


def _task_cards(t: Task) -> int:
    """The cards a task asks its owner to capture (positive selectors)."""
    p = t.params
    if t.kind == "win_cards":
        m = 0
        for c in p["cards"]:
            m |= 1 << card(c)
        return m
    if t.kind == "win_card_in_trick":
        return 1 << card(p["card"])
    if t.kind == "card_count":
        m = 0
        for c in p["constraints"]:
            if int(c["n"]) > 0:
                m |= selector_mask(c["select"])
        return m
    return 0
