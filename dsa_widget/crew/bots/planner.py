"""The ``planner`` bot for *The Crew*: it plans the attempt from its own view, tasks included.

It reads only its seat's :class:`~dsa_widget.crew.view.CrewView` and draws complete games
consistent with it (:meth:`CrewView.sample`: the hidden cards exact uniform over the deals
that fit the public facts — voids shown, cards communicated, the captain's S4).  Then:

* **tasks** (normal allocation, ``take``/``pass``): every candidate (the crewmate's best few by
  :func:`~dsa_widget.crew.bots.crewmate.task_fit`, and ``pass`` where legal) is tried on the
  same ``task_samples`` drawn deals (48; with 12 the candidates barely differed at target
  6; 144, 4 seats, target 6, 309/400 against 296, not clearly better): the rest of the
  assignment is finished by the crewmate's rules for every seat, and the attempt played out
  with the playout card rule (below) on the drawn hands; it takes the candidate with the most
  successful playouts (ties: the better fit).  ``takes`` (4) bounds the tasks tried; with
  ``task_survival`` > 0 a failed playout counts that share of a success, scaled by the tricks
  it lasted (as ``survival`` does for cards), so that when every candidate's playouts fail
  the one whose attempts last longer wins.  One plain playout a drawn deal and candidate:
  judging a deal made when one of 16 noisy playouts after any first lead made it (as the card
  choice's ``best_of`` does; commit ``b6b476c``, reverted) chose tasks that were more often
  winnable but not more often won: the five-seat table on the same deals, targets 1-6,
  395/388/378/360/348/324 of 400 against 400/392/379/366/336/319, the bound at target 6
  392 against 383, so the gap there 17.0 points against 16.0.
* **cards**: every legal card is tried on ``samples`` drawn deals (96; against 32 it played
  fewer losing cards in the middle game and won a little more at targets 5 and 6; 192 no
  better, 220/300 against 222 at target 6: ``benchmarks/crew_why.py``), followed by ``rollouts``
  playouts of the rest of the attempt (the playout card rule for every seat; on the compiled
  kernel, :func:`~dsa_widget.crew.kernel.kernel_rollouts`, where it can play the position,
  else in Python).  The playout card rule (``policy``) is by default the crewmate's rule
  reading the drawn hands (:func:`~dsa_widget.crew.playouts.sighted_play`): a seat fears only
  the cards the seats after it in the trick can play, and a trick one of them can overtake is
  valued as the seat with the highest such card would take it.  With the crewmate's own rule
  (``policy="greedy"``, which fears every card still out) the playouts behind a card threw
  tasks away that the drawn hands could keep; sighted, 4 seats, seed 2026: target 3 180/200
  against 181, target 4 168/200 against 152, target 5 159/200 against 151, target 6 204/300
  against 188.
  A failed playout is worth ``survival`` (0.1) x the tricks complete when it failed / the
  tricks of the attempt, so that when hardly any playout succeeds (target 6) the cards after
  which the mission lasts longer still rank higher: a card that loses a task in this very
  trick then ranks below one that keeps it alive.
  When at most ``endgame`` tricks are left (or, with ``doubt`` > 0, when no
  card's value reaches ``doubt``) the bot plays perfect-information Monte Carlo: on the
  first ``solver_samples`` deals the double-dummy solver
  (:func:`~dsa_widget.crew.bots.solver.solve`, on the *drawn* games, never the real one) says
  whether the drawn hands can still make the mission after each card, and that verdict is the
  card's value on that deal (the playouts' where the solver's ``node_limit`` runs out); a
  card's value is the weighted mean over the deals, ties going to the playouts' value.  The
  deals are **weighted by what the partners did**: the bot replays the attempt's tricks on
  each drawn deal and asks what the crewmate's card rule would have played in each
  partner's place; every partner's card that the rule would not have played there
  multiplies the deal's weight by ``trust`` (so deals where the partners' cards look like
  sensible play count more; ``trust=1`` weighs every deal the same, as ``search`` does).
  Any legal partner can be read this way: the weights only rank deals, none is ruled out.
  With ``comm_trust`` < 1 (off by default) the partners' communications weigh the deals too:
  each is replayed at its moment on the drawn deal (the partner's drawn hand then, the cards
  gone, the tasks' needs then) through the ``comm="resolve"`` rule, and a card shown that the
  rule would not show there, or a pass where it would show one, multiplies the deal's weight
  by ``comm_trust`` (a planner's communications, passes included, are the rule's exactly:
  ``tests/crew/test_planner.py``; at target 6 a pass often rules out most drawn deals).  On
  the table's target-6 attempts it changed few cards (5 of 66 choices in the first seven
  tricks of attempts 0-2, with 0.3 or 0.1): 4 seats, ``comm_trust=0.3``, attempts 0-299 226
  against 222 (17 won that were lost, 13 lost that were won), 5 seats 0-199 141 against 143
  (10 / 12): not the default.  A partner model closer to the planner's own play, a partner's
  card counted odd unless the sighted rule would play it on the drawn deal, lost: attempts
  0-193 137 against 144 (7 won that were lost, 14 lost that were won;
  ``benchmarks/crew_why.py``).
  From ``early`` tricks left (off by default) the solver checks the same deals before the
  endgame, its verdict counting ``early_weight``: a card that loses the drawn deal is worth 0
  there, one that keeps it winnable ``early_weight`` + (1 - ``early_weight``) x its playouts'
  share (the cooperative double-dummy solver is too hopeful in the middle game to decide
  alone: its verdicts tie).  Before the endgame a drawn deal whose position the solver's
  ``node_limit`` does not settle keeps its playouts' values without its cards being solved
  one by one (they too mostly ran out of budget, at most of the CPU): ``early=10,
  early_weight=1`` on the benchmark's target-6 attempts 0-6 spent 33.5 s of CPU against
  63.4 s.  The solver earlier does not win at target 6 (4 seats, paired with the table's
  attempts, ``benchmarks/crew_why.py``): ``early=8, early_weight=1`` (before this
  short cut) 88/115 against 89 (4 attempts won that were lost, 5 lost that were won),
  ``early=10, early_weight=1`` 100/133 against 101 (7 / 8), with ``solver_samples=24``
  113/150 against 112 (11 / 10; max 1.7 s of CPU a decision): on the few of the drawn
  deals it settles its verdicts seldom part the cards.
* **communication**: by default (``comm="resolve"``) the bot shows the card that settles most
  about who holds the cards the open tasks turn on (:meth:`PlannerBot._resolve_comm`: the task
  cards, and the higher cards of their colours that could take them), and passes when no card
  settles one such card; ``comm="crewmate"`` is the crewmate's rule (show a card a teammate's
  task needs, else its highest card of a colour a task needs), ``comm="silent"`` never shows
  a card (a yardstick: what communication is worth).  Paired with the benchmark's attempts
  (seed 2026, target 6; ``benchmarks/crew_why.py``'s docstring has the commands), against the
  crewmate's rule: 4 seats 280/400 against 267 (50 attempts won that were lost, 37 lost that
  were won), 3 seats 151/197 against 145 (22 / 16); ``comm="silent"`` 127/200 against 134.
  ``task_samples=160, task_survival=0.1`` (graded task playouts) 144/200 against 134 at
  target 6, 161 against 159 at target 5: not clearly better, not the default.
* **distress, predictions, other allocation modes**: the crewmate's rules (no distress
  signal).

It never looks at the game, only at the view and the deals it draws from it, so its choices
do not change when the cards it cannot know are reshuffled (``tests/crew/test_bots.py``).
Each choice comes with one line saying what it found (:meth:`~dsa_widget.core.bots.Bot.explain`).
Where its gap to the double-dummy bound goes (target 6; ``benchmarks/crew_why.py
--open-hands``, a cheating diagnostic whose planner draws the true deal every time): with 4
seats 14.5 of 18.5 points are lost even knowing every hand and 4.0 to the hidden hands; with 5
seats 11.9 and 11.9.
Playouts with real variation (``noise=0.25, best_of=32``, the default; ``branch`` off): on the
true deal a card's value was one line of the sighted rule, so more deals repeated the same line.
In a playout a seat with a choice now plays another legal card one time in four, and a drawn
deal counts as made after a card when one of 32 playouts makes it (the crew is
cooperative: it needs one line that works; the playouts stop at the first success, so the
extra ones cost CPU only where the deal is hard).  More variation, 5 seats, target 6, the
table's 400 attempts (``crew_why.py --no-why --seats 5``): ``noise=0.1, best_of=4`` (the
default before) 303, ``0.15, 8`` 310, ``0.2, 16`` 319 (CPU a decision median 50 ms, p95 183,
max 810), ``0.25, 32`` 323 (against 319: 31 won that were lost, 27 lost that were won, p =
0.69, each step alone within the noise, the four a steady rise; median 61 ms, p95 225, max
957); with ``task_samples=144`` as well, ``0.15, 8`` 317 (and 307 with 0.1, 4).  The solver
from more tricks left (``endgame=7``) changed no attempt's result in the first 38 (0 won
that were lost, 0 lost that were won) at up to 1.5 s of CPU a decision: stopped there.
Knowing every hand (``benchmarks/crew_why.py --open-hands``) ``noise=0.05, best_of=3`` closed
half the open-hand planner's gap, 172/200 against 157; drawing from its view,
``noise=0.1, best_of=4`` at target 6 won 104 attempts that were lost and lost 47 that were won
over 3-5 seats, and at target 5 4 seats 177/200 against 163 (``crew_why.py``'s docstring has
the runs, the README the tables).  Milder ``noise=0.05, best_of=3`` and ``0.02, 2`` were not
clearly better; ``branch`` (open hands, 69/84 against 70) and the mean of noisy playouts
(``noise=0.05, rollouts=3``, 57/67 against 57) did not help even knowing the hands.

>>> from dsa_widget.crew.rules import CrewGame
>>> from dsa_widget.core.bots import play_bot_move
>>> g = CrewGame(4, seed=5, target=2, mission={"target": 2})
>>> bot = PlannerBot(seed=1, samples=4, task_samples=3)
>>> while not g.is_over:
...     _ = play_bot_move(g, bot)
>>> g.outcome.result in ("success", "failure")
True
>>> bot.explain().startswith("planner: ")
True
"""

from __future__ import annotations

import math
import random
from typing import Any, ClassVar

from ...core.bots import Bot
from ...core.errors import is_int, is_number
from ..cards import COLOURS, DECK, NCARDS, SUIT_MASK, card, suit
from ..errors import CrewError
from ..playouts import Needs, PlayState, Policy, greedy_play, greedy_scores, sighted_play
from ..rules import CrewGame
from ..tasks import task_table
from ..view import CrewView
from ..words import card_words
from .crewmate import CrewmateBot, hand_mask, task_fit
from .solver import solve

__all__ = ["PlannerBot"]

#: the playout policies of the ``policy`` knob: the crewmate's card rule, or the same rule
#: reading the drawn hands of the seats still to play in a trick (the kernel's names)
_POLICIES = {"greedy": greedy_play, "sighted": sighted_play}
#: the communication rules of the ``comm`` knob (see :meth:`PlannerBot._resolve_comm`)
_COMMS = ("crewmate", "resolve", "silent")
#: the least a communication must resolve (in cards whose holder it settles) to be worth a token
_RESOLVE_MIN = 1.0
#: the most playouts a drawn deal and card in Python (``best_of``), where the kernel cannot play
#: the position (the dummy seat, mission constraints): 4 seats, target 6, first and fourth
#: tricks, 24 positions on a quiet machine, a decision took median / p95 / max 162 / 353 / 483 ms
#: with one playout, 278 / 680 / 816 with two, 468 / 1,301 / 1,345 with four, and 1.4 / 3.4 /
#: 4.9 s with the kernel's sixteen under load
_PY_BEST_OF = 2


def _comm_worth(nd: Needs, gone: int, seats: int) -> list[float]:
    """Per card, what knowing its holder is worth to ``comm="resolve"``: 1 for a card a task asks
    some seat to capture or to avoid, 1/2 for a higher card of its colour that could take it
    (none of the cards ``gone``: played, or their holder already known)."""
    key = 0
    for s in range(seats):
        key |= nd.must[s] | nd.want[s] | nd.never[s]
    key &= ~gone
    worth = [0.0] * NCARDS
    for x in range(NCARDS):
        if key >> x & 1:
            worth[x] = 1.0
    for su in COLOURS:
        k = key & SUIT_MASK[su]
        if k:
            low = (k & -k).bit_length() - 1
            for x in range(low + 1, SUIT_MASK[su].bit_length()):
                if not gone >> x & 1 and worth[x] == 0.0:
                    worth[x] = 0.5
    return worth


def _comm_cards(hand: int) -> list[int]:
    """The cards of ``hand`` it may show (R-11.4: the highest, lowest or only card of a colour;
    never a submarine), each once."""
    out: list[int] = []
    for su in COLOURS:
        col = hand & SUIT_MASK[su]
        if col:
            lo, hi = (col & -col).bit_length() - 1, col.bit_length() - 1
            out += [lo] if lo == hi else [lo, hi]
    return out


def _comm_value(
    c: int, hand: int, gone: int, worth: list[float], seats: int, currents: bool
) -> tuple[float, str]:
    """What showing card ``c`` of ``hand`` settles (``comm="resolve"``) and its position: the
    card's worth, and a share of the worth of the cards of its colour its position says are not
    in the hand (none under currents: the partners learn only "no higher" or "no lower")."""
    mask = SUIT_MASK[suit(c)]
    colour = hand & mask
    pos = "middle" if colour == 1 << c else "top" if colour >> c == 1 else "bottom"
    k_seats = max(2, seats - 1)  # the seats a partner does not know the card's holder among
    share = 1.0 - math.log(k_seats - 1) / math.log(k_seats)
    settled = [x for x in range(NCARDS) if mask >> x & 1 and x != c and not (hand | gone) >> x & 1]
    if currents:
        settled = []
    elif pos == "top":
        settled = [x for x in settled if x > c]
    elif pos == "bottom":
        settled = [x for x in settled if x < c]
    return worth[c] + share * sum(worth[x] for x in settled), pos


def _noisy(policy: Policy, noise: float) -> Policy:
    """``policy`` playing, with probability ``noise``, one of the mover's other legal cards
    (uniform) when it has a choice: the planner's ``noise`` where the kernel cannot play the
    position (``policy`` itself when ``noise`` is 0)."""
    if noise <= 0.0:
        return policy

    def play(st: PlayState, rng: random.Random) -> int:
        c = policy(st, rng)
        legal = st.legal()
        if legal & (legal - 1) and rng.random() < noise:
            other = [x for x in range(NCARDS) if legal >> x & 1 and x != c]
            c = rng.choice(other)
        return c

    return play


def _branch_trick(
    st: PlayState, combo: int, nb: int, rule: Policy, sighted: bool, rng: random.Random
) -> bool:
    """The ``branch`` knob in Python: the next ``nb`` seats of the trick in progress (no further
    than its end) play ``rule``'s card, or where bit ``q`` of ``combo`` is set its second
    choice (the top :func:`~dsa_widget.crew.playouts.greedy_scores` score among the other legal
    cards, ties drawn with ``rng``).  False when a seat told to play a second choice has
    only one legal card (that combination repeats another)."""
    for q in range(nb):
        if st.result is not None or not st.cur:
            break
        c = rule(st, rng)
        if combo >> q & 1:
            scores = [x for x in greedy_scores(st, sighted=sighted) if x[0] != c]
            if not scores:
                return False
            c, bn, bd, bu = -1, 0, 1, -1.0
            for x, num, den in scores:
                u = rng.random()
                d = num * bd - bn * den
                if c < 0 or d > 0 or (d == 0 and u > bu):
                    c, bn, bd, bu = x, num, den, u
        st.play(c)
    return True


class PlannerBot(Bot):
    """Plans tasks and cards on drawn deals weighted by the partners' play (see the module
    docstring).  Knobs: ``samples`` (deals a card choice), ``rollouts`` (playouts a deal and
    card), ``task_samples`` (deals a task choice), ``endgame`` (tricks left from which the
    solver checks drawn deals), ``doubt`` (also call the solver when no card reaches this
    value; 0: only in the endgame; its "no better at 4x the CPU" was measured when the
    solver's verdict went unused), ``solver_samples`` (deals the solver checks; its verdict
    is a card's value there), ``node_limit`` (its budget a position; 0: no solver), ``trust``
    (a deal's weight is multiplied by it for each partner card the crewmate's rule would not
    have played on it: 1 = no weighting), ``survival`` (what a failed playout is worth per
    trick it lasted, as a share of a success over the whole attempt; 0: nothing), ``policy``
    (the card rule of every seat in its playouts: ``"sighted"``, the crewmate's rule reading
    the drawn hands of the seats still to play in the trick,
    :func:`~dsa_widget.crew.playouts.sighted_play`, or ``"greedy"``, the crewmate's own),
    ``early`` (tricks left from which the solver also checks the drawn deals before the
    endgame; 0: never) and ``early_weight`` (there, what its "still winnable" verdict on a deal
    counts against the playouts' share: a card after which the drawn hands are lost is worth
    0 on that deal, one after which they are not ``early_weight`` + (1 - ``early_weight``) x
    its playouts' share; 1 is the endgame's verdict, 0 only vetoes the lost cards; ``early``
    at or below ``endgame``, or ``node_limit=0``, changes nothing),
    ``task_survival`` (``survival`` for the task choice's playouts), ``takes`` (the most
    tasks tried at one ``take``), ``comm`` (``"crewmate"``, ``"resolve"`` or ``"silent"``: which
    rule chooses the card to show), ``comm_trust`` (a deal's weight is multiplied by it for
    each partner communication, a pass included, that the ``"resolve"`` rule would not have
    made on it: 1 = not weighed), ``noise`` (in the card choice's playouts, the chance that a
    seat with a choice plays one of its other legal cards, uniform, instead of the rule's; 0:
    the rule's card always) and ``best_of`` (up to this many playouts a drawn deal and card,
    stopping at the first success: the deal counts as made after the card when one of them
    succeeds, else with the longest failure's ``survival``; ``rollouts`` such values are
    averaged; at most 2 where the kernel cannot play the position, so that a decision in
    Python stays under a second; ``noise=0, best_of=1`` plays exactly the planner's playouts without them) and
    ``branch`` (a small cooperative search per drawn deal and card: each seat still to play in
    the trick after it plays the playout rule's card or its second choice, every combination
    played out, ``best_of`` times each, until one makes the deal)."""

    name = "planner"
    summary = (
        "plans the whole attempt: tries each task and card on deals drawn from what it knows, "
        "trusting most the deals where its partners' cards make sense"
    )
    KNOBS: ClassVar[dict[str, Any]] = {
        "samples": 96,
        "task_samples": 48,
        "endgame": 5,
        "doubt": 0.0,
        "solver_samples": 8,
        "node_limit": 500,
        "trust": 0.5,
        "rollouts": 1,
        "survival": 0.1,
        "policy": "sighted",
        "early": 0,
        "early_weight": 0.0,
        "task_survival": 0.0,
        "takes": 4,
        "comm": "resolve",
        "comm_trust": 1.0,
        "noise": 0.25,
        "best_of": 32,
        "branch": False,
    }

    def _check_knobs(self) -> None:
        for k in ("samples", "task_samples", "rollouts", "takes", "best_of"):
            v = self.knobs[k]
            if not is_int(v) or v < 1:
                raise ValueError(f"{k} must be an int >= 1, not {v!r}")
        for k in ("endgame", "node_limit", "solver_samples", "early"):
            v = self.knobs[k]
            if not is_int(v) or v < 0:
                raise ValueError(f"{k} must be an int >= 0, not {v!r}")
        d = self.knobs["doubt"]
        if not is_number(d) or not 0.0 <= d <= 1.0:
            raise ValueError(f"doubt must be a number in [0, 1], not {d!r}")
        v = self.knobs["early_weight"]
        if not is_number(v) or not 0.0 <= v <= 1.0:
            raise ValueError(f"early_weight must be a number in [0, 1], not {v!r}")
        if not isinstance(self.knobs["branch"], bool):
            raise ValueError(f"branch must be True or False, not {self.knobs['branch']!r}")
        v = self.knobs["noise"]
        if not is_number(v) or not 0.0 <= v <= 1.0:
            raise ValueError(f"noise must be a number in [0, 1], not {v!r}")
        for k in ("survival", "task_survival"):
            v = self.knobs[k]
            if not is_number(v) or not 0.0 <= v < 1.0:
                raise ValueError(f"{k} must be a number in [0, 1), not {v!r}")
        if self.knobs["comm"] not in _COMMS:
            raise ValueError(f"comm must be one of {sorted(_COMMS)}, not {self.knobs['comm']!r}")
        if self.knobs["policy"] not in _POLICIES:
            raise ValueError(f"policy must be one of {sorted(_POLICIES)}, not {self.knobs['policy']!r}")
        t = self.knobs["comm_trust"]
        if not is_number(t) or not 0.0 < t <= 1.0:
            raise ValueError(f"comm_trust must be a number in (0, 1], not {t!r}")
        t = self.knobs["trust"]
        if not is_number(t) or not 0.0 < t <= 1.0:
            raise ValueError(f"trust must be a number in (0, 1], not {t!r}")
        self._crewmate = CrewmateBot(seed=self.seed)
        self._crewmate.rng = self.rng  # one generator: the same view and seed give the same choice

    def spawn(self, seed: int | None) -> PlannerBot:
        return PlannerBot(seed=seed, **self.knobs)

    # ------------------------------------------------------------------ dispatch

    def decide(self, view: Any, legal: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
        if len(legal) > 1 and view.step == "assign":
            got = self._assign(view, legal)
            if got is not None:
                return got
        if self.knobs["comm"] != "crewmate" and any(a.startswith("comm ") for a in legal):
            got = self._resolve_comm(view, legal) if self.knobs["comm"] == "resolve" else None
            if got is not None:
                return got
            if view.step == "communicate" and "pass" in legal:
                note = (
                    "no card settles enough about the tasks' cards"
                    if self.knobs["comm"] == "resolve"
                    else "comm=silent"
                )
                return "pass", {"reason": note}
            rest = tuple(a for a in legal if not a.startswith("comm "))  # a free window: play
            legal = rest or legal
        if len(legal) > 1 and view.step == "play":
            base, why = self._crewmate.decide(view, legal)
            if not base.startswith("play "):  # the crewmate shows a card first (a free window)
                return base, dict(why, reason=f"shows a card: {why.get('reason', '')}")
            got = self._play(view, legal, base)
            if got is not None:
                return got
            return base, dict(
                why, reason=f"no deal could be drawn; the crewmate's card: {why.get('reason', '')}"
            )
        base, why = self._crewmate.decide(view, legal)
        return base, dict(why, reason=f"by the crewmate's rule: {why.get('reason', '')}")

    # ------------------------------------------------------------------ communication

    def _resolve_comm(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]] | None:
        """``comm="resolve"``: the communication that settles most about who holds the cards the
        open tasks turn on (None: none settles ``_RESOLVE_MIN``).  The cards that matter are the
        ones a task asks some seat to capture or to avoid (worth 1) and, in their colours, the
        higher cards that could take them (worth 1/2), none played yet.  Showing a card tells the
        partners it is in this hand (the whole of its worth) and, by its position (top, bottom,
        only), that the cards of its colour above, below or besides it are not (a share of their
        worth: for a partner one seat fewer could hold each).  Only this seat's hand and the
        public facts are read."""
        try:
            st = PlayState.from_view(view)
        except ValueError:
            return None
        hand = hand_mask(view)
        gone = 0
        for m in view.played_by:
            gone |= m
        for cm in view.communicated:
            gone |= 1 << card(cm.card)  # its holder is already known
        worth = _comm_worth(st.needs(), gone, view.seats)
        currents = view.communication == "currents"
        best: tuple[float, str] | None = None
        for a in legal:
            if not a.startswith("comm "):
                continue
            parts = a.split()
            c = card(parts[1])
            v, pos = _comm_value(c, hand, gone, worth, view.seats, currents)
            if len(parts) > 2 and parts[2] != pos:
                continue  # declare the true position only
            if best is None or v > best[0]:
                best = (v, a)
        if best is None or best[0] < _RESOLVE_MIN:
            return None
        c = card(best[1].split()[1])
        return best[1], {
            "reason": f"shows {card_words(DECK[c])}: it settles {best[0]:.1f} of the cards the tasks turn on",
        }

    # ------------------------------------------------------------------ drawing deals

    def _draw(self, view: CrewView, count: int) -> list[CrewGame]:
        out = []
        for _ in range(count):
            try:
                out.append(view.sample(self.rng))
            except (ValueError, CrewError):
                continue
        return out

    @staticmethod
    def _start(view: CrewView, game: CrewGame) -> PlayState:
        """The drawn game's play phase at its first card (the cards played since given back)."""
        hands = [game.hand_mask(s) for s in range(game.seats)]
        for s, c in [p for t in view.all_tricks for p in t.plays] + list(view.current_trick):
            hands[s] |= 1 << c
        now = PlayState.from_game(game)
        return PlayState(
            hands,
            list(zip(now.tasks, now.owners, strict=True)),
            captain=game.captain,
            options=game.options,
            predictions=now.preds,
            constraints=game.mission.constraints,
            lead_banned=now.lead_banned,
        )

    def _comm_odd(self, view: CrewView, game: CrewGame, me: int) -> int:
        """How many partners' communications ``comm="resolve"`` would not have made on the drawn
        deal: each replayed at its moment (the cards played before it, the tasks' needs then,
        the partner's drawn hand then).  A card shown is odd when it settles less than
        ``_RESOLVE_MIN`` there or another card the partner could show settles more; a pass at a
        communication (once every task is taken, by a seat that has not shown a card) is odd
        when a card it could show settles ``_RESOLVE_MIN``."""
        if game.dummy is not None:
            return 0
        n = game.seats
        st = self._start(view, game)
        hands = list(st.hands)
        currents = view.communication == "currents"
        comms = iter(view.communicated)
        shown: set[int] = set()
        gone = 0
        odd = 0
        takes = 0
        setup = True  # still in the tasks' allocation: its passes say nothing about the cards
        for s, a in view.public_history:
            if setup:
                takes += a.startswith("take ")
                if takes >= len(view.task_ids) or not (a.startswith("take ") or a == "pass"):
                    setup = False
                continue
            if a == "pass":
                if s != me and s not in shown:
                    hand = hands[s]
                    worth = _comm_worth(st.needs(), gone, n)
                    odd += any(
                        _comm_value(y, hand, gone, worth, n, currents)[0] >= _RESOLVE_MIN
                        for y in _comm_cards(hand)
                    )
            elif a.startswith("play "):
                c = card(a[5:])
                st.play(c)
                hands[s] &= ~(1 << c)
                gone |= 1 << c
            elif a.startswith("comm "):
                cm = next(comms, None)
                if cm is None:
                    break
                x = card(cm.card)
                if cm.seat != me:
                    worth = _comm_worth(st.needs(), gone, n)
                    hand = hands[cm.seat]
                    vx = _comm_value(x, hand, gone, worth, n, currents)[0]
                    better = any(
                        _comm_value(y, hand, gone, worth, n, currents)[0] > vx + 1e-9
                        for y in _comm_cards(hand)
                        if y != x
                    )
                    odd += better or vx < _RESOLVE_MIN
                shown.add(cm.seat)
                gone |= 1 << x
        return odd

    def _weight(self, view: CrewView, game: CrewGame, me: int) -> tuple[float, int]:
        """The weight of a drawn deal and how many partner cards (``comm_trust`` < 1: and
        communications) the planner's rules would not have played on it."""
        w, odd = self._weight_cards(view, game, me)
        ct = float(self.knobs["comm_trust"])
        if ct < 1.0:
            k = self._comm_odd(view, game, me)
            w *= ct**k
            odd += k
        return w, odd

    def _weight_cards(self, view: CrewView, game: CrewGame, me: int) -> tuple[float, int]:
        """The weight of a drawn deal and how many partner cards the crewmate's rule would not
        have played on it: the attempt's tricks replayed from the first card."""
        trust = float(self.knobs["trust"])
        if trust >= 1.0 or game.dummy is not None or not (view.all_tricks or view.current_trick):
            return 1.0, 0
        plays = [p for t in view.all_tricks for p in t.plays] + list(view.current_trick)
        st = self._start(view, game)
        odd = 0
        tie = random.Random(0)
        for s, c in plays:
            if s != me and st.legal().bit_count() > 1 and greedy_play(st, tie) != c:
                odd += 1
            st.play(c)
        return trust**odd, odd

    # ------------------------------------------------------------------ tasks

    def _assign(self, view: CrewView, legal: tuple[str, ...]) -> tuple[str, dict[str, Any]] | None:
        takes = [a for a in legal if a.startswith("take ")]
        table = task_table(view.options)
        hand = hand_mask(view)
        me = view.acting_for if view.acting_for is not None else view.seat
        cap = me == view.captain
        fit = {a: task_fit(table[int(a[5:])], hand, view.seats, captain=cap) for a in takes}
        cands = sorted(takes, key=lambda a: -fit[a])[: self.knobs["takes"]]
        if "pass" in legal:
            cands.append("pass")
            fit["pass"] = -0.3
        if len(cands) < 2:
            return None
        deals = self._draw(view, self.knobs["task_samples"])
        if not deals:
            return None
        wins = dict.fromkeys(cands, 0)
        score = dict.fromkeys(cands, 0.0)
        lasting = float(self.knobs["task_survival"]) / view.tricks_total
        for g0 in deals:
            seed = self.rng.getrandbits(32)
            for a in cands:
                g = g0.clone()
                g.apply(a)
                result, lasted = self._finish_assignment(g, seed)
                if result == "success":
                    wins[a] += 1
                    score[a] += 1.0
                else:
                    score[a] += lasting * lasted
        best = max(cands, key=lambda a: (round(score[a], 9), fit[a]))
        others = sorted((a for a in cands if a != best), key=lambda a: -score[a])
        n = len(deals)
        nxt = f"; next best, {others[0]!r}: {wins[others[0]]} of {n}" if others else ""
        return best, {
            # the first line says the choice already ("planner: take task 26 — ...")
            "reason": f"{wins[best]} of {n} drawn deals succeed with it{nxt}",
            "values": {a: score[a] / len(deals) for a in cands},
            "samples": len(deals),
        }

    def _finish_assignment(self, g: CrewGame, seed: int) -> tuple[str, int]:
        """The rest of the attempt on a drawn game: the crewmate's choices until the first card,
        then the playouts' card rule (``policy``) for every seat; the result and the tricks
        complete when it was decided."""
        mate = CrewmateBot(seed=seed, communicate=False)
        while not g.is_over and g.step not in ("communicate", "play"):
            g.apply(mate(g.view(g.to_move), g.legal_actions()))
        if g.is_over:
            return (g.outcome.result if g.outcome is not None else "failure"), 0
        st = PlayState.from_game(g)
        result = st.play_out(_POLICIES[self.knobs["policy"]], random.Random(seed))
        return result, st.trick_no

    # ------------------------------------------------------------------ cards

    def _rollouts(self, deals: list[CrewGame], plays: list[str]) -> list[list[float]]:
        """Per drawn deal, per card of ``plays``: the share of ``rollouts`` playouts after that
        card that succeed, every seat with the ``policy`` card rule.  On the compiled kernel
        when it can play the position (:func:`~dsa_widget.crew.kernel.kernel_rollouts`), else in
        Python (:func:`~dsa_widget.crew.playouts.sighted_play` or ``greedy_play``: Tonoja,
        mission constraints), with at most ``_PY_BEST_OF`` (2) of ``best_of``'s playouts."""
        reps = self.knobs["rollouts"]
        best_of = self.knobs["best_of"]
        noise = float(self.knobs["noise"])
        lasting = float(self.knobs["survival"]) / deals[0].tricks_total
        cards = [card(a[5:]) for a in plays]
        from ..kernel import game_position, game_sample, kernel_rollout_stats  # numba loads on first use

        pos = game_position(deals[0])
        rule = _POLICIES[self.knobs["policy"]]
        policy = _noisy(rule, noise)
        branch = bool(self.knobs["branch"])
        if pos is None:
            sighted = rule is sighted_play
            best_of = min(best_of, _PY_BEST_OF)  # a decision in Python stays under a second
            out = []
            for g in deals:
                st0 = PlayState.from_game(g)
                nb = st0.seats - 1 - len(st0.cur) if branch else 0
                seed = self.rng.getrandbits(32)
                row = []
                for c in cards:
                    v = 0.0
                    for r in range(reps):
                        rng = random.Random(seed + r)
                        far = 0
                        for combo in range(1 << nb):
                            for _ in range(best_of):
                                st = st0.copy()
                                st.play(c)
                                if not _branch_trick(st, combo, nb, rule, sighted, rng):
                                    break  # a seat told to play its second choice has none
                                if st.play_out(policy, rng) == "success":
                                    far = -1
                                    break
                                far = max(far, st.trick_no)
                            if far < 0:
                                break
                        v += 1.0 if far < 0 else lasting * far
                    row.append(v / reps)
                out.append(row)
            return out
        out = []
        for g in deals:
            wins, lasted = kernel_rollout_stats(
                pos,
                cards,
                [game_sample(g)] * reps,
                policy=self.knobs["policy"],
                seed=self.rng.getrandbits(63),
                noise=noise,
                best_of=best_of,
                branch=branch,
            )
            out.append([(k + lasting * t) / reps for k, t in zip(wins, lasted, strict=True)])
        return out

    def _solved(self, g: CrewGame, plays: list[str], skip_unsettled: bool = False) -> list[bool | None]:
        """Per card of ``plays``: can the drawn hands of ``g`` still make the mission after it
        (double dummy on the drawn game, never the real one; None: the node budget ran out).
        One solve of the position first: lost now is lost after every card, and the first card
        of a winning line keeps it winnable.  With ``skip_unsettled`` a position the budget does not
        settle is left to the playouts (every card None) without solving the cards."""
        limit = self.knobs["node_limit"]
        now = solve(g, node_limit=limit)
        if now.winnable is False:
            return [False] * len(plays)
        if now.winnable is None and skip_unsettled:
            return [None] * len(plays)
        first = now.line[0][1] if now.line else None
        out: list[bool | None] = []
        for a in plays:
            if a == first:
                out.append(True)
                continue
            g2 = g.clone()
            g2.apply(a)
            out.append(solve(g2, node_limit=limit).winnable)
        return out

    def _play(self, view: CrewView, legal: tuple[str, ...], base: str) -> tuple[str, dict[str, Any]] | None:
        plays = [a for a in legal if a.startswith("play ")]
        if len(plays) < 2:
            return None
        deals = self._draw(view, self.knobs["samples"])
        if not deals:
            return None
        me = view.seat if view.seat is not None else -1
        weights = []
        odd_deals = 0
        for g in deals:
            w, odd = self._weight(view, g, me)
            weights.append(w)
            odd_deals += odd > 0
        total = sum(weights)
        roll = self._rollouts(deals, plays)
        rolled = {
            a: sum(w * r[i] for w, r in zip(weights, roll, strict=True)) / total for i, a in enumerate(plays)
        }
        left = view.tricks_total - len(view.all_tricks)
        solved = 0
        values = dict(rolled)
        # how much a deal's "still winnable" verdict counts against its playouts' value: all of
        # it in the endgame (or in doubt), early_weight from `early` tricks left
        sure: float | None = None
        early = False
        if self.knobs["node_limit"] and self.knobs["solver_samples"]:
            if left <= self.knobs["endgame"] or max(rolled.values()) < self.knobs["doubt"]:
                sure = 1.0
            elif left <= self.knobs["early"]:
                sure = float(self.knobs["early_weight"])
                early = True
        if sure is not None:
            # perfect-information Monte Carlo: on the first solver_samples drawn deals, a card's
            # value is whether the drawn hands can still make it after the card (lost: 0;
            # winnable: `sure` + (1 - `sure`) x the playouts' share; the playouts' share where
            # the solver's budget runs out); the other deals keep their rollouts
            part = min(len(deals), self.knobs["solver_samples"])
            score = dict.fromkeys(plays, 0.0)
            for j, (g, w, r) in enumerate(zip(deals, weights, roll, strict=True)):
                dd = self._solved(g, plays, early) if j < part else [None] * len(plays)
                for i, a in enumerate(plays):
                    v = dd[i]
                    x = r[i] if v is None else (sure + (1.0 - sure) * r[i] if v else 0.0)
                    score[a] += w * x
            solved = part
            values = {a: score[a] / total for a in plays}
        best = max(plays, key=lambda a: (round(values[a], 9), round(rolled[a], 9), a == base))
        trust = f", {odd_deals} weighed down by partners' cards that do not fit them" if odd_deals else ""
        dd_words = f"; the solver checked {solved} of them" if solved else ""
        return best, {
            "reason": f"worth {values[best]:.0%} on {len(deals)} drawn deals (weighted{trust}){dd_words}",
            "values": values,
            "samples": len(deals),
        }
