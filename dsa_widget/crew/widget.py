"""``Crew``: play *The Crew: Mission Deep Sea* in JupyterLab, on the platform's table.

The session (:class:`~dsa_widget.core.session.Session`) holds the game, the seats and bots,
history and what-if, and checks every message; the bridge (:class:`~dsa_widget.bridge.
GameWidget`) syncs its screen and the shell (``js/shell.js``) draws it with this game's
renderer (``js/crew/``).  What is The Crew's own is the :class:`CrewPresenter`: the screen
built from ``game.view(viewer).to_dict()`` for the seat whose screen it is, the words of the
history (another seat's secret prediction or distress card stays unnamed), Tonoja's seat
(played by the captain, R-4.7), a communication off one's turn (a ``free`` window, R-11.3),
the forced "pass" of a lone human, the mission clock and the next attempt after a failure.

>>> w = Crew(players=["Ann", "Bob", "Cy", "Di"], viewer=0,
...          seats={1: "random", 2: "random", 3: "random"}, target=3, seed=1)
>>> w.state["seat"], w.state["players"]
(0, ['Ann', 'Bob', 'Cy', 'Di'])
>>> w.handle_intent({"type": "intent", "seq": w.seq - 1, "choice": "pass"})   # stale
>>> w.error["kind"]
'stale'
>>> _ = w.play_bots()                          # bots move until Ann is to act (or the end)
>>> w.is_bot_turn()
False

Messages of its own, besides the platform's (:class:`~dsa_widget.core.session.Session`):
``{"type": "next_attempt", "seq": n, "tasks": "same" | "new"}`` after a failed attempt, and
``{"type": "timeout", "seq": n}`` when a timed mission's clock has run out.

``reveal=True`` (a teacher's table): every seat's hand is added to the screen, from each
seat's own view (Tonoja's face-down cards stay hidden: nobody's view holds them), with what
each bot said of its last choice.
"""

from __future__ import annotations

import html
import time
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from ..bridge import GameWidget
from ..core.chances import Figure
from ..core.errors import is_int
from ..core.session import BasePresenter, Refusal, Session
from .analysis.holding import chance, holding_chances
from .cards import DECK, SUIT_MASK, card
from .errors import IllegalActionError
from .knowledge import InconsistentKnowledge
from .tasks import task_table
from .words import SUIT_NAMES, card_words

__all__ = ["Crew", "CrewPresenter", "ending_words", "prompt_words"]

TONOJA = "tonoja"
_DIRECTION_WORDS = {"cw": "clockwise, to the next player", "ccw": "counterclockwise, to the previous player"}
#: the model the figures of the Chances panel are exact under (:mod:`dsa_widget.crew.analysis`)
DEALS = "if every deal that fits what you know is equally likely"
#: at most so many task figures, so that the panel stays short (two more for the trick)
_TASK_FIGURES = 3


def _name(st: Mapping[str, Any], seat: Any) -> str:
    players = st.get("players") or []
    return str(players[seat]) if is_int(seat) and 0 <= seat < len(players) else "?"


def _name_of(view: Any, seat: int) -> str:
    """A seat's player name, from a view, cut to 24 characters (a figure's label is short)."""
    name = str(view.players[seat])
    return name if len(name) <= 24 else name[:23] + "…"


def _dummy_words(st: Mapping[str, Any]) -> str:
    """The captain plays the dummy seat's card (R-4.7, R-4.8): where that card is."""
    d = _name(st, st.get("acting_for"))
    return (
        f"You play for {d}, the dummy seat (the captain decides for it): choose one of {d}'s "
        f"highlighted face-up cards in {d}'s panel. Your own hand waits for your own turn."
    )


def _follow_words(st: Mapping[str, Any], cards: list[str], who: str = "You lead") -> str:
    """R-10.2 in a sentence: the suit led, and whether ``cards`` must follow it."""
    plays = (st.get("trick") or {}).get("plays") or []
    if not plays:
        return f" {who} this trick: any card may go."
    led = str(plays[0]["card"])[0]
    suit = SUIT_NAMES.get(led, led)
    if any(c.startswith(led) for c in cards):
        return f" {suit.capitalize()} was led: follow suit with a {suit} card."
    return f" {suit.capitalize()} was led and there is none to follow with: any card may go."


def prompt_words(st: Mapping[str, Any], legal: Sequence[str]) -> str | None:
    """What the screen's seat is asked to do now, in a newcomer's words (the board's prompt):
    whose cards to play from (the dummy's, R-4.7), the distress signal explained when it is
    offered (R-9), a communication (R-11), a task to take, from ``st`` (the seat's screen) and
    ``legal`` (its legal actions).  ``None`` when nothing is asked."""
    legal = [str(a) for a in legal]
    verbs = {a.split(" ")[0] for a in legal}
    seat = st.get("seat")
    if "play" in verbs:
        acting = st.get("acting_for")
        if acting is not None and acting != seat:
            cards = [str(c.get("up")) for c in st.get("dummy_columns") or [] if c.get("up")]
            return _dummy_words(st) + _follow_words(st, cards, f"{_name(st, acting)} leads")
        hand = [str(c) for c in st.get("hand") or []]
        return "Your play: click a highlighted card of your hand (or ←/→ then Enter)." + _follow_words(
            st, hand
        )
    if "distress" in verbs:
        return (
            "Distress signal (optional): if your cards look hopeless, the crew may ask for it now, "
            "before anyone communicates or plays. Then every player passes one card of their hand "
            "(never a submarine) to a neighbour, all at the same time: clockwise (to the next "
            "player) or counterclockwise. The mission's record counts it as one more attempt. "
            "Choose a direction, or No distress (N)."
        )
    if verbs & {"agree", "refuse"}:
        way = _DIRECTION_WORDS.get(str((st.get("distress") or {}).get("direction")), "")
        return (
            f"A distress signal is proposed{f' ({way})' if way else ''}: every player would pass "
            "one card of their hand (never a submarine) to a neighbour, all at the same time. It "
            "goes ahead only if the crew agrees: Agree (A) or Refuse (R)."
        )
    if "give" in verbs and any(not a.split(" ")[1].isdigit() for a in legal if a.startswith("give ")):
        d = st.get("distress") or {}
        n = len(st.get("players") or []) or 1
        step = 1 if d.get("direction") == "cw" else -1
        to, frm = _name(st, (int(seat or 0) + step) % n), _name(st, (int(seat or 0) - step) % n)
        return (
            f"Distress signal: choose one card of your hand to pass to {to} (never a submarine); "
            f"you receive one from {frm}. Everyone passes at the same time."
        )
    if "comm" in verbs:
        return (
            "Before the trick you may communicate one card, once in this attempt: it is shown "
            "face up, with a token saying whether it is your highest, your only or your lowest "
            "card of its colour (submarines never). Click its Show button (or C on the focused "
            "card), or Pass (P)."
        )
    if "take" in verbs:
        return "Choose a task: its Take button (or its number key)" + (
            ", or Pass (P)." if "pass" in verbs else "."
        )
    if "predict" in verbs:
        return "Predict how many tricks you will win: press its button (or the number key)."
    return None


def ending_words(st: Mapping[str, Any]) -> str | None:
    """Once, why the attempt ended and at which trick (``None`` while it goes on)."""
    out = st.get("outcome")
    if not isinstance(out, Mapping):
        return None
    trick, total = out.get("trick") or 0, st.get("tricks_total") or 0
    cause = str(out.get("cause") or "")
    head = "Mission accomplished" if out.get("result") == "success" else "Mission failed"
    at = f" at trick {trick} of {total}" if trick else " before the first trick"
    verb, _, rest = cause.partition(" ")
    task = next((t for t in st.get("tasks") or [] if str(t.get("id")) == rest.split(" ")[0]), None)
    if verb == "task" and rest.endswith("failed") and task is not None:
        why = f"task #{task['id']} can no longer be done ({str(task.get('summary')).rstrip('.')})"
    elif cause == "every task done":
        why = "every task is done"
    elif cause == "timeout":
        why = "the clock ran out"
    else:
        why = cause.replace("_", " ") or "the attempt is over"
    left = total - trick if trick and total else 0
    rest_words = (
        " The last trick is not played."
        if left == 1
        else f" The other {left} tricks are not played."
        if left
        else ""
    )
    return f"{head}{at}: {why}.{rest_words}"


class CrewPresenter(BasePresenter):
    """The Crew's screens, history words and rules of the table (no chance after the deal)."""

    INTENTS: ClassVar[Mapping[str, str]] = {"next_attempt": "next_attempt", "timeout": "timeout"}

    shows_chances = True

    def chances(self, view: Any) -> tuple[Figure, ...]:
        """The figures of the board's Chances panel, from ``view`` alone (the seat's knowledge,
        :meth:`~dsa_widget.crew.view.CrewView.knowledge`; a spectator's is the public one), exact
        under the model of :mod:`dsa_widget.crew.analysis` (every deal that fits it is equally
        likely; the players' choices are not read):

        * for up to three open tasks that need a card captured (R-13.3 ``win_cards``,
          ``win_card_in_trick``) whose card nobody has shown: the chance the task's owner holds
          it, or, for the viewer's own task or one not taken yet, who most likely holds it
          (a hidden card of Tonoja's is among its face-down cards: not playable yet, R-4.8);
        * while a trick is under way and the viewer has still to play in it: the chance that a
          seat after the viewer can follow the led suit (R-10.2), and that the highest card of
          that suit the viewer cannot see is with a seat after the viewer.  Tonoja (two
          players) counts with its face-up cards only, which everyone sees (R-4.8, R-4.9).

        None during the deal's timing, for a game over, or when no deal fits the knowledge.

        >>> from dsa_widget.crew.rules import CrewGame
        >>> g = CrewGame(["Ann", "Bob", "Cy", "Di"], seed=3, tasks=[4], assignment={4: 1})
        >>> [(f.label, f"{f.value:.3f}") for f in CrewPresenter().chances(g.view(0))]
        [("Task 4's green 6 is in its owner Bob's hand", '0.310')]
        """
        if view.outcome is not None or view.step == "timing":
            return ()
        try:
            k = view.knowledge()
            out = list(self._task_figures(view, k))
            out += self._trick_figures(view, k)
        except InconsistentKnowledge:  # no deal fits: nothing to say (the model has no case)
            return ()
        return tuple(out)

    @staticmethod
    def _task_figures(view: Any, k: Any) -> list[Figure]:
        """Who holds the cards the open capture tasks need (R-13.3), for cards nobody showed."""
        table = task_table(view.options)
        wanted: list[tuple[int, int | None, str]] = []
        for tid, owner, status, _pred, _prog, _hidden in view.tasks:
            t = table[tid]
            if status != "open" or t.kind not in ("win_cards", "win_card_in_trick"):
                continue
            cards = t.params["cards"] if t.kind == "win_cards" else [t.params["card"]]
            wanted += [(tid, owner, c) for c in cards if k.pool >> card(c) & 1]
        if not wanted:
            return []
        held = holding_chances(k)
        out = []

        def hand(s: int, owner: str = "") -> str:
            """Where the card would be: a hidden card of Tonoja's is face down, so it cannot be
            played before its column's face-up card is (R-4.8)."""
            if s == view.dummy:
                return f"among {owner}{_name_of(view, s)}'s face-down cards"
            return f"in {owner}{_name_of(view, s)}'s hand"

        for tid, owner, c in wanted[:_TASK_FIGURES]:
            per = held[c]
            # Tonoja's own link is nobody's seat: its tasks are the captain's to play
            if owner is not None and (owner != view.seat or owner == view.dummy):
                who = owner
                label = f"Task {tid}'s {card_words(c)} is {hand(who, 'its owner ')}"
            else:  # the viewer's own task, or nobody's yet: the likeliest holder
                who = max(range(len(per)), key=lambda s: (per[s], -s))
                whose = "yours" if owner is not None else "not taken yet"
                alike = sum(x == per[who] for x in per) - 1  # other hands just as likely
                where = hand(who)
                if alike:
                    where += f" (as likely as in {alike} other hand{'s' if alike > 1 else ''})"
                else:
                    where = "likeliest " + where
                label = f"Task {tid}'s {card_words(c)} ({whose}) is {where}"
            out.append(Figure(label, float(per[who]), "exact", given=DEALS))
        return out

    @staticmethod
    def _trick_figures(view: Any, k: Any) -> list[Figure]:
        """While the trick is under way and the viewer still plays in it: can a seat after the
        viewer follow the led suit (R-10.2), and is the highest card of that suit the viewer
        cannot see with one of them.  Tonoja (the dummy) plays and follows with its face-up
        cards only (R-4.8, R-4.9), which everyone sees: it follows for sure if one is of the
        led suit, never with a face-down card, and holds no card the viewer cannot see that it
        may play now."""
        me, trick, n = view.seat, view.current_trick, view.seats
        if me is None or me == view.dummy or not trick or view.leader is None or view.step != "play":
            return []
        position = (me - view.leader) % n
        if len(trick) > position:  # the viewer has played in this trick already
            return []
        after = [(view.leader + j) % n for j in range(position + 1, n)]
        if not after:
            return []
        led = DECK[trick[0][1]][0]
        mine = k.known[me] if me < len(k.known) else 0
        unseen = [c for c in range(len(DECK)) if SUIT_MASK[led] >> c & 1 and k.pool >> c & 1]
        others = [c for c in range(len(DECK)) if SUIT_MASK[led] >> c & 1 and not mine >> c & 1]
        suit = SUIT_NAMES[led]
        follow = "with a submarine" if led == "S" else f"in {suit}"
        dummy = view.dummy if view.dummy in after else None
        players = [s for s in after if s != dummy]  # the seats that play from a hidden hand
        if dummy is None:
            who = "Someone after you" if len(players) > 1 else _name_of(view, players[0])
        elif not players:
            who = _name_of(view, dummy)
            follow = "with a face-up submarine" if led == "S" else f"{follow} with a face-up card"
        else:
            d = _name_of(view, dummy)
            ppl = "someone else after you" if len(players) > 1 else _name_of(view, players[0])
            who = f"{ppl[0].upper()}{ppl[1:]}, or {d} with a face-up card,"
        up = [u for u, _down in view.dummy_columns or ()] if dummy is not None else []
        if any(u is not None and u[0] == led for u in up):
            can = 1.0  # Tonoja must follow with it: certain, whatever the others hold
        else:
            can = float(chance(k, players, others)) if players and others else 0.0
        out = [Figure(f"{who} can still follow {follow}", can, "exact", given=DEALS)]
        if unseen and players:  # Tonoja's face-down cards cannot be played in this trick
            top = DECK[max(unseen, key=lambda c: int(DECK[c][1:]))]
            later = "someone after you" if len(players) > 1 else _name_of(view, players[0])
            out.append(
                Figure(
                    f"The highest {suit} you cannot see, the {top[1:]}, is with {later}",
                    float(chance(k, players, top)),
                    "exact",
                    given=DEALS,
                )
            )
        return out

    def __init__(self) -> None:
        #: when the real game's clock started (``time.monotonic``), and its length
        self._clock_start: float | None = None
        self._clock_seconds: int | None = None

    # ------------------------------------------------------------------ the table's rules

    def seat_kind(self, state: Any, seat: int) -> str | None:
        return TONOJA if state.dummy is not None and seat == state.dummy else None

    def legal_for(self, state: Any, seat: int) -> tuple[str, ...]:
        return tuple(str(a) for a in state.legal_actions_for(seat))

    def act(self, state: Any, seat: int, action: Any) -> None:
        """``seat`` plays ``action``; a card that cannot go is refused in a player's words."""
        try:
            state.apply(action, seat)
        except IllegalActionError as exc:
            why = self._why_not(state, seat, str(action))
            if why is None:
                raise
            raise IllegalActionError(why, exc.legal) from None

    @staticmethod
    def _why_not(state: Any, seat: int, action: str) -> str | None:
        """Why a card cannot be played or passed on now (R-10.2 follow suit, R-4.7 Tonoja's
        turn), or ``None`` (the rules' own words then)."""
        verb, _, card = action.partition(" ")
        if verb not in ("play", "give") or state.to_move != seat or state.is_over:
            return None
        v = state.view(seat).to_dict()
        hand = list(v.get("hand") or [])
        if verb == "give":
            if card.startswith("S") and card in hand:
                return "A submarine card is never passed on: choose a coloured card."
            return None
        if v.get("acting_for") not in (None, seat):
            return "Now you play for Tonoja: choose one of Tonoja's face-up cards."
        if card not in hand:
            return f"{card} is not in your hand."
        plays = (v.get("trick") or {}).get("plays") or []
        led = str(plays[0]["card"])[0] if plays else None
        if led is not None and card[0] != led and any(c[0] == led for c in hand):
            suit = SUIT_NAMES[led]
            return f"Follow suit: {suit} was led and you hold {suit}, so play one of those."
        return None

    def forced(self, state: Any, seat: int) -> Any:
        """A window with nothing to show: "pass" is all the seat may do."""
        return "pass" if state.to_move == seat and self.legal_for(state, seat) == ("pass",) else None

    def replay_setup(self, state: Any, setup: Mapping[str, Any]) -> dict[str, Any]:
        humans = [str(state.players[q]) for q in state.humans]
        return {
            "players": humans,
            "options": dict(state.options),
            "mission": state.mission,
            "seed": setup.get("seed"),
        }

    def setup_values(self, state: Any, setup: Mapping[str, Any]) -> dict[str, Any]:
        """The form's fields from the game's mission (however the game was made), besides what
        play again keeps."""
        m = state.mission
        return {
            **self.replay_setup(state, setup),
            "target": m.target,
            "communication": m.communication,
            "allocation": m.allocation,
            "timer_seconds": m.timer_seconds,
        }

    def history_of(self, state: Any) -> tuple[Any, list[tuple[int, Any]]] | None:
        """A game with actions already (a record loaded): its deal, and its actions."""
        if not state.actions:
            return None
        rec = dict(state.to_record())
        rec.update(actions=[], outcome=None, result=None)
        return type(state).from_record(rec), [(int(q), str(a)) for q, a in state.actions]

    # ------------------------------------------------------------------ words

    def label(self, before: Any, after: Any, seat: int | None, action: Any, viewer: int | None) -> str:
        """One history line as ``viewer`` may read it: the engine's public history masks
        another seat's distress card and a secret prediction."""
        if seat is None:
            return "chance"
        name = str(before.players[seat])
        masked = after.public_history(viewer)
        n = len(before.actions)
        text = str(masked[n][1]) if n < len(masked) else str(action)
        verb, _, rest = text.partition(" ")
        if verb == "play":
            return f"{name} played {rest}"
        if verb == "comm":
            return f"{name} communicated {rest.split(' ')[0]}"
        if verb == "take":
            return f"{name} took task {rest}"
        if verb == "pass":
            step = str(getattr(before, "step", ""))
            words = {"assign": "took no task this time", "communicate": "did not communicate"}
            return f"{name} {words.get(step, 'passed')}"
        if verb == "distress":
            return f"{name} asked for the distress signal ({_DIRECTION_WORDS.get(rest, rest)})"
        if text == "no distress":
            return f"{name} did not ask for the distress signal"
        if verb == "agree":
            return f"{name} agreed to the distress signal"
        if verb == "refuse":
            return f"{name} refused the distress signal"
        if verb == "predict":
            return f"{name} fixed a secret prediction" if rest == "?" else f"{name} predicted {rest}"
        if verb == "give" and not rest.isdigit():
            return f"{name} chose a card to pass on" if rest == "?" else f"{name} passed {rest} on"
        if verb == "give":
            q = int(rest)
            return f"{name} gave the tasks to {before.players[q]}" if q < len(before.players) else name
        if verb == "timeout":
            return "the clock ran out"
        return f"{name}: {text}"

    # ------------------------------------------------------------------ the screen

    def screen(self, session: Session, state: Any, viewer: int | None) -> dict[str, Any]:
        st = dict(state.view(viewer).to_dict())
        live = state is session.shown and session.mode != "history"
        if session.reveal:
            st["reveal_hands"] = {
                str(q): list(state.view(q).to_dict().get("hand") or [])
                for q in range(int(state.seats))
                if state.dummy is None or q != state.dummy
            }
        st["can_branch"] = viewer is not None or session.reveal or bool(state.is_over)
        st["proposal"] = self._proposal(state, viewer) if st.get("step") == "confirm" else None
        st["clock"] = self._clock(state, st) if live else None
        out = state.outcome
        failed = out is not None and out.result != "success"
        st["retry"] = ["same", "new"] if failed and live and session.mode == "real" else []
        st["winners"] = []  # a cooperative game: the outcome says how the crew did
        asked = viewer is not None and live and session.curtain_seat() is None
        st["prompt"] = (
            prompt_words(st, self.legal_for(state, viewer)) if asked and viewer is not None else None
        )
        st["ending"] = ending_words(st)
        return st

    def compare_row(self, name: str, state: Any, viewer: int | None) -> dict[str, Any]:
        v = state.view(viewer).to_dict()
        tasks = v.get("tasks") or []
        outcome = v.get("outcome")
        return {
            "name": name,
            "trick": (v.get("last_trick") or {}).get("number", 0),
            "done": sum(t.get("status") == "done" for t in tasks),
            "failed": sum(t.get("status") == "failed" for t in tasks),
            "open": sum(t.get("status") == "open" for t in tasks),
            "outcome": outcome.get("result") if isinstance(outcome, Mapping) else None,
            "tricks_won": list(v.get("tricks_won") or []),
        }

    @staticmethod
    def _proposal(g: Any, viewer: int | None) -> dict[str, Any] | None:
        """The proposal being confirmed (free selection): ``{"seat": proposer, "owners": {task
        id: seat}}``, from the public actions (the view has no field for it)."""
        for q, a in reversed(g.public_history(viewer)):
            if str(a).startswith("propose "):
                owners: dict[str, int] = {}
                for pair in str(a).split()[1:]:
                    t, _, seat = pair.partition(":")
                    if t.isdigit() and seat.isdigit():
                        owners[t] = int(seat)
                return {"seat": int(q), "owners": owners}
        return None

    # ------------------------------------------------------------------ the clock

    def clock_left(self) -> float | None:
        if self._clock_start is None or self._clock_seconds is None:
            return None
        return max(0.0, self._clock_seconds - (time.monotonic() - self._clock_start))

    def _clock(self, g: Any, view: Mapping[str, Any]) -> dict[str, Any] | None:
        """The real-time clock: the engine's ``timer`` field, timed here from when it started."""
        timer = view.get("timer")
        if not timer:
            self._clock_start = None
            return None
        seconds = timer.get("seconds") if isinstance(timer, Mapping) else timer
        if not is_int(seconds):
            return None
        running = (
            bool(timer.get("running", timer.get("started", True))) if isinstance(timer, Mapping) else True
        )
        self._clock_seconds = int(seconds)
        if running and self._clock_start is None:
            self._clock_start = time.monotonic()
        left = self.clock_left()
        return {
            "seconds": int(seconds),
            "remaining": float(seconds) if left is None else round(left, 1),
            "running": running and not g.is_over,
        }

    def due(self, session: Session) -> tuple[float, Mapping[str, Any]] | None:
        """A timed mission's clock (R-12): the seconds it has left, and the timeout to send
        when it runs out (a served table's pages send intents only: the table sends it)."""
        g = session.game
        left = self.clock_left()
        if g.is_over or not g.timer_started or left is None:
            return None
        return left, {"type": "timeout"}

    # ------------------------------------------------------------------ intents of its own

    def next_attempt(self, session: Session, msg: Mapping[str, Any], who: int | None) -> None:
        """After a failed attempt: deal again with the same tasks or draw new ones (R-6.9)."""
        tasks = msg.get("tasks", "same")
        if tasks not in ("same", "new"):
            raise Refusal("malformed", "the next attempt keeps the tasks ('same') or draws new ones ('new')")
        if session.in_what_if:
            raise Refusal("whatif", "go back to the real game first")
        out = session.game.outcome
        if out is None or out.result == "success":
            raise Refusal("over", "a new attempt follows a failed one")
        session.restart(session.game.next_attempt(tasks=tasks))
        self._clock_start = None

    def timeout(self, session: Session, msg: Mapping[str, Any], who: int | None) -> bool:
        """The browser's clock ran out: the mission fails (R-12), if Python's clock agrees."""
        g = session.shown
        if g.is_over or not g.timer_started or session.mode == "history":
            return False  # a late tick: nothing to do
        left = self.clock_left()
        if left is None or left > 1.0:
            raise Refusal("illegal", "the clock has not run out")
        session.apply("timeout", g.to_move)
        return True


class Crew(GameWidget):
    """A playable table of *The Crew: Mission Deep Sea*: ``Crew(players=["Ann", "Bob", "Cy",
    "Di"], seats={1: "crewmate", 2: "crewmate", 3: "crewmate"}, target=4, seed=1)``, or
    ``Crew(game=CrewGame(...))``; ``Crew()`` seats you with two crewmate bots.  Keywords as
    :class:`~dsa_widget.bridge.GameWidget`; the game's own (``target``, ``communication``,
    ``allocation``, ``timer_seconds``, ``campaign``, ``mission``, ``deal``, ``tasks``...) as
    :func:`~dsa_widget.crew.mission.new_mission_game`.  Tonoja, the dummy seat of a
    two-player game, is played by the captain; ``seats`` may then list the humans' seats only.
    """

    GAME: ClassVar[str] = "crew"
    PRESENTER = CrewPresenter

    def __init__(self, game: Any = None, /, **kwargs: Any) -> None:
        if game is not None:
            kwargs["game"] = game
        if kwargs.get("reveal") in ("all", "seat"):  # the words this board took before
            kwargs["reveal"] = kwargs["reveal"] == "all"
        super().__init__(**kwargs)

    @property
    def actions(self) -> list[tuple[int, str]]:
        """``(seat, action)`` of every action of the real game (this attempt; the truth)."""
        return [(int(q), str(a)) for q, a in self.game.actions]

    def next_attempt(self, tasks: str = "same") -> None:
        """After a failed attempt: deal again (``tasks="same"``) or draw new tasks (``"new"``)."""
        refusal = self.session.handle({"type": "next_attempt", "seq": self.seq, "tasks": tasks})
        if refusal is not None:
            raise refusal

    def _repr_svg_(self) -> str:
        """A still picture of the screen's view (where no widget can be shown): the status, the
        tasks, the trick and the seat's hand; only what :attr:`state` holds."""
        st = self.state
        esc = html.escape
        colours = {"P": "#d6478f", "Y": "#b08600", "B": "#2f6fd6", "G": "#2e9a55", "S": "#333333"}
        symbols = {"open": "○", "done": "✓", "failed": "✗"}
        lines: list[str] = []
        y = 22
        players = st.get("players") or []

        def text(x: int, yy: int, t: str, size: int = 13, weight: str = "normal", fill: str = "#222") -> None:
            font = f'font-size="{size}" font-weight="{weight}" fill="{fill}"'
            lines.append(f'<text x="{x}" y="{yy}" {font}>{esc(t)}</text>')

        def card(x: int, yy: int, cid: str) -> None:
            c = colours.get(cid[:1], "#555")
            box = f'width="30" height="40" rx="4" fill="#fff" stroke="{c}" stroke-width="2"'
            lines.append(f'<rect x="{x}" y="{yy}" {box}/>')
            text(x + 5, yy + 25, cid, 13, "bold", c)

        out = st.get("outcome")
        if out:
            won = out.get("result") == "success"
            head = f"{'Mission accomplished' if won else 'Mission failed'}: {out.get('cause')}"
        else:
            a = st.get("actor")
            who = players[a] if isinstance(a, int) and 0 <= a < len(players) else ""
            head = f"{who} to act ({st.get('step')})" if who else str(st.get("step"))
        text(10, y, f"The Crew: {head}", 15, "bold")
        y += 24
        for t in st.get("tasks") or []:
            owner = t.get("owner")
            name = players[owner] if isinstance(owner, int) and 0 <= owner < len(players) else "nobody yet"
            status = str(t.get("status"))
            text(10, y, f"{symbols.get(status, '?')} {status} #{t.get('id')} {t.get('summary')} ({name})", 12)
            y += 18
        trick = st.get("trick") or st.get("last_trick")
        if trick and trick.get("plays"):
            y += 6
            text(10, y, f"Trick {trick.get('number')}:", 12, "bold")
            x = 80
            for p in trick["plays"]:
                card(x, y - 16, str(p.get("card")))
                x += 36
            y += 34
        hand = st.get("hand") or []
        if hand:
            y += 8
            text(10, y, "Hand:", 12, "bold")
            x = 80
            for cid in hand:
                card(x, y - 16, str(cid))
                x += 36
            y += 34
        width = max(520, 90 + 36 * max(len(hand), 1))
        body = "".join(lines)
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{y + 10}" '
            f'font-family="sans-serif" role="img" aria-label="The Crew table">{body}</svg>'
        )
