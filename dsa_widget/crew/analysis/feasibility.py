"""Can the mission still succeed?  The double-dummy view of *The Crew*, for teaching.

Two questions, both answered with **every hand known** (the solver of
:mod:`dsa_widget.crew.bots.solver` reads the true hands, so this is a teacher's tool, never a
player's):

* :func:`feasibility_of` — for one given game: ``"yes"`` (with a winning line), ``"no"``, or
  ``"unknown"`` when the solver's node limit ran out.  Exact, never a guess.
* :func:`feasibility` — for a kind of mission (seats and a difficulty target, or any
  :class:`~dsa_widget.crew.mission.Mission`): the share of random deals on which the drawn
  mission can be won, an **estimate** over ``deals`` deals with its 95% Wilson interval.

How the tasks are assigned (the choice is the caller's, and every result says which):

* ``assign="best"`` (default): the deal counts as winnable when **some** assignment the
  mission's allocation mode could produce (CREW.md Appendix A.3, R-5.3 included) wins.  The
  crewmate bots' own assignment is tried first, then the others; one that fails the static
  checks of Appendix A.4 is lost without a search (those checks are sound).  With a predicted
  trick count (tasks 84, 85) every prediction is tried too.  This is the question "could a crew
  that sees everything win this draw?".
* ``assign="crewmate"``: the tasks go where the crewmate bots put them (and they make the
  predictions); one search per deal.  Cheaper, and it answers "was the bots' choice winnable?".

In both the cards are played from the deal as dealt: no distress signal (it would change the
hands) and no communication (it does not change what can be played).  A real-time mission's
clock is ignored.

A deal the solver cannot settle within ``node_limit`` completed tricks (shared by every
assignment tried for that deal) is counted as **unsettled**: never as a win nor as a loss.  The
point estimate and the Wilson interval are over the settled deals; :attr:`Estimate.bounds`
widens them to what the unsettled deals could make of them.  Read the settled rate with care:
a win is settled by one line, a loss only by the whole search, so the unsettled deals are likely
to hold a larger share of losses and the rate over the settled deals probably leans high; the
bounds are the safe statement (a larger ``node_limit`` narrows them).

>>> from dsa_widget.crew.rules import CrewGame
>>> g = CrewGame(4, seed=3, tasks=[70, 4], assignment={70: 1, 4: 2})   # seat 1 takes trick 1,
>>> v = feasibility_of(g)                                             # seat 2 captures G6
>>> v.verdict, v.line[:2]
('yes', ((1, 'play P5'), (2, 'play P3')))
>>> feasibility_of(CrewGame(4, seed=3, tasks=[80], assignment={80: 1})).verdict  # the captain holds S4
'no'
>>> e = feasibility(4, target=1, deals=4, seed=1, progress=False)
>>> e.deals, e.wins + e.losses + e.unsettled
(4, 4)
>>> e.low <= e.rate <= e.high
True
>>> print(e)                                                          # doctest: +ELLIPSIS
feasibility of 4 seats, target 1 (best assignment): ... 95% Wilson interval, n = ...
"""

from __future__ import annotations

import html
import itertools
import random
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.bots import play_bot_move
from ...core.progress import Progress
from ...core.stats import wilson
from ..bots.crewmate import CrewmateBot
from ..bots.solver import Solution, solve
from ..draw import check_assignment
from ..errors import CrewError
from ..mission import Mission
from ..rules import CrewGame
from ..tasks import Task

__all__ = [
    "ASSIGN_MODES",
    "DEFAULT_NODE_LIMIT",
    "DealResult",
    "Estimate",
    "Verdict",
    "feasibility",
    "feasibility_of",
]

#: completed tricks the solver may evaluate per deal (all assignments tried for it together)
DEFAULT_NODE_LIMIT = 20_000

#: the ways :func:`feasibility` assigns the drawn tasks
ASSIGN_MODES = ("best", "crewmate")

_PLAY = ("play", "communicate")


def _derive(*parts: Any) -> int:
    return random.Random("/".join(map(str, parts))).getrandbits(32)


# --------------------------------------------------------------------------- one game


@dataclass(frozen=True)
class Verdict:
    """The answer of :func:`feasibility_of` for one game.

    ``verdict``: ``"yes"`` (a winning line exists), ``"no"`` (proved: none exists) or
    ``"unknown"`` (the node limit ran out first; nothing is claimed).  ``line``: a winning line,
    the plays ``(seat, "play P3")`` up to the trick at which the mission succeeds.
    ``assignment``: task id → seat, the assignment the verdict is about (the game's own, or for
    a game still before its assignment, the winning one found).  ``predictions``: task id → the
    trick count predicted.  ``nodes``: completed tricks the solver evaluated.
    """

    verdict: str
    line: tuple[tuple[int, str], ...]
    assignment: Mapping[int, int]
    predictions: Mapping[int, int]
    nodes: int
    tried: int = 1
    #: for display: the seats' names, the plays already made in the trick the line starts in,
    #: and that trick's number
    players: tuple[str, ...] = ()
    in_trick: int = 0
    first_trick: int = 1

    def tricks(self) -> list[tuple[tuple[int, str], ...]]:
        """The winning line cut into tricks (the first one may be the rest of a trick in progress)."""
        n = len(self.players) or 1
        out = []
        i = 0
        size = n - self.in_trick
        while i < len(self.line):
            out.append(self.line[i : i + size])
            i += size
            size = n
        return out

    @property
    def winnable(self) -> bool | None:
        """True / False, or None for ``"unknown"``."""
        return {"yes": True, "no": False}.get(self.verdict)

    def __repr__(self) -> str:
        shown = " ".join(f"{s}:{a[5:]}" for s, a in self.line[:8])
        more = " …" if len(self.line) > 8 else ""
        tail = f"; winning line {shown}{more}" if self.line else ""
        return (
            f"Verdict({self.verdict!r}, exact solver answer, every hand known; assignment "
            f"{dict(self.assignment)}, {self.nodes:,} tricks searched{tail})"
        )

    def _repr_html_(self) -> str:
        e = html.escape
        colour = {"yes": "#15803d", "no": "#b91c1c"}.get(self.verdict, "#a16207")
        words = {
            "yes": "yes — the mission can still succeed",
            "no": "no — no sequence of plays wins it",
            "unknown": "unknown — the solver's node limit ran out",
        }[self.verdict]
        line = ""
        if self.line:

            def who(s: int) -> str:
                return e(self.players[s]) if s < len(self.players) else f"seat {s}"

            rows = "".join(
                "<li>" + ", ".join(f"{who(s)} {e(a[5:])}" for s, a in trick) + "</li>"
                for trick in self.tricks()
            )
            line = f"<p>A winning line, trick by trick:</p><ol start='{self.first_trick}'>{rows}</ol>"
        return (
            f"<div><p><b style='color:{colour}'>{e(words)}</b> (exact solver answer with every hand "
            f"known; assignment {e(str(dict(self.assignment)))}; {self.nodes:,} tricks searched)</p>"
            f"{line}</div>"
        )


def _is_predicted(task: Task) -> bool:
    return task.kind == "trick_count" and task.params.get("n") == "predicted"


def _closest_first(tricks: int, guess: int) -> list[int]:
    """The predictions 0 … ``tricks``, nearest to ``guess`` first."""
    return sorted(range(tricks + 1), key=lambda x: (abs(x - guess), x))


def _drive_to_play(game: CrewGame, predictions: Sequence[int]) -> None:
    """Play the setup phases after the assignment: no distress, the given predictions (in task
    order, the engine's order of asking)."""
    queue = list(predictions)
    while game.step not in _PLAY and not game.is_over:
        step = game.step
        if step == "distress":
            game.apply("no distress")
        elif step == "distress_vote":
            game.apply("refuse")
        elif step == "predict":
            game.apply(f"predict {queue.pop(0)}")
        elif step == "timing":
            game.apply("timed")
        else:
            raise CrewError(f"feasibility: cannot get from step {step!r} to the trick play")


def _reachable(game: CrewGame) -> Iterator[dict[int, int]]:
    """Every assignment (task id → seat) the mission's allocation mode could produce for this
    deal (CREW.md Appendix A.3), R-5.3 (no captain-comparison task on the captain) included."""
    n = game.seats
    cap = game.captain
    ids = list(game.task_ids)
    k = len(ids)
    table = game.table
    mission = game.mission
    alloc = mission.allocation
    seats = list(range(n))
    dist = [(s - cap) % n for s in seats]
    caps: list[int] | None = None  # exact per-seat counts; None: only a bound per seat
    bound = [k] * n
    most_used = n
    if alloc in ("normal", "captain_first_hardest"):
        if k >= n:
            caps = [-(-(k - dist[s]) // n) for s in seats]
        else:
            bound = [1] * n
    elif alloc == "skip_captain":
        m = n - 1
        if k >= m:
            caps = [0 if s == cap else -(-(k - (dist[s] - 1)) // m) for s in seats]
        else:
            bound = [0 if s == cap else 1 for s in seats]
    elif alloc in ("one_owner", "captain_decides"):
        most_used = 1
    elif alloc == "volunteers":
        most_used = mission.volunteers
    hardest = None
    if alloc == "captain_first_hardest" and k:
        diffs = [table[t].difficulty_for(n) for t in ids]
        hardest = max(range(k), key=lambda i: (diffs[i], -i))
    limit = caps if caps is not None else bound
    used = [0] * n
    owners = [0] * k

    def rec(i: int) -> Iterator[dict[int, int]]:
        if i == k:
            if caps is None or used == caps:
                yield dict(zip(ids, owners, strict=True))
            return
        vs_captain = table[ids[i]].vs_captain
        for s in seats:
            if used[s] >= limit[s] or (vs_captain and s == cap) or (i == hardest and s != cap):
                continue
            if not used[s] and sum(1 for x in used if x) >= most_used:
                continue
            used[s] += 1
            owners[i] = s
            yield from rec(i + 1)
            used[s] -= 1

    yield from rec(0)


def _crewmate_setup(game: CrewGame, bot_seed: int) -> CrewGame:
    """A clone of ``game`` after the crewmate bots' assignment and predictions (no distress)."""
    g = game.clone()
    bots = [CrewmateBot(seed=_derive(bot_seed, "seat", s)) for s in range(g.seats)]
    while g.step not in _PLAY and not g.is_over:
        if g.step == "distress":
            g.apply("no distress")
        else:
            play_bot_move(g, bots[g.to_move])
    return g


def _owners(game: CrewGame) -> tuple[dict[int, int], dict[int, int]]:
    own = {t.id: t.owner for t in game.tasks if t.owner is not None}
    pred = {t.id: t.prediction for t in game.tasks if t.prediction is not None}
    return own, pred


def _verdict(sol: Solution, game: CrewGame, tried: int = 1, nodes: int | None = None) -> Verdict:
    own, pred = _owners(game)
    word = {True: "yes", False: "no", None: "unknown"}[sol.winnable]
    return Verdict(
        word,
        sol.line,
        own,
        pred,
        sol.nodes if nodes is None else nodes,
        tried,
        tuple(game.players),
        len(game.current_trick),
        len(game.tricks) + 1,
    )


def _best(game: CrewGame, node_limit: int, *, bot_seed: int) -> Verdict:
    """Search the reachable assignments of a game before its assignment (see the module)."""
    n = game.seats
    table = game.table
    ids = list(game.task_ids)
    predicted = [t for t in ids if _is_predicted(table[t])]
    tt = game.tricks_total
    first = _crewmate_setup(game, bot_seed)
    own0, pred0 = _owners(first)
    budget = node_limit
    spent = 0
    tried = 0
    unsettled = False
    candidates = itertools.chain([own0], (a for a in _reachable(game) if a != own0))
    for assignment in candidates:
        if check_assignment(assignment, seats=n, captain=game.captain, table=table, tricks_total=tt):
            continue  # lost whatever the cards (the checks of Appendix A.4 are sound)
        guesses: Iterator[tuple[int, ...]]
        if predicted:
            start = tuple(pred0.get(t, tt // n) if assignment == own0 else tt // n for t in predicted)
            orders = [_closest_first(tt, c) for c in start]
            guesses = itertools.product(*orders)
        else:
            guesses = iter([()])
        for guess in guesses:
            g = CrewGame(
                list(game.players) if game.dummy is None else list(game.players[s] for s in game.humans),
                mission=game.mission,
                options=game.options,
                seed=game.seed,
                deal=game.dealt,
                tasks=ids,
                assignment=assignment,
                deal_check=False,
                timed=True,
            )
            _drive_to_play(g, guess)
            tried += 1
            sol = solve(g, node_limit=budget)
            spent += sol.nodes
            budget -= sol.nodes
            if sol.winnable:
                return _verdict(sol, g, tried, spent)
            if sol.winnable is None or budget <= 0:
                unsettled = True
                break
        if unsettled:
            break
    word = "unknown" if unsettled else "no"
    return Verdict(word, (), {}, {}, spent, tried, tuple(game.players))


def feasibility_of(
    game: CrewGame, *, node_limit: int = DEFAULT_NODE_LIMIT, assign: str = "best", bot_seed: int = 0
) -> Verdict:
    """Can ``game``'s mission still succeed, every seat cooperating and **every hand known**?

    In the trick play (or between tricks, or over): the solver's exact answer for the game as it
    stands.  Before any task has an owner: the answer for the best reachable assignment
    (``assign="best"``) or for the crewmate bots' assignment (``assign="crewmate"``), as in
    :func:`feasibility`.  ``node_limit`` bounds the completed tricks the solver evaluates in all;
    when it runs out the verdict is ``"unknown"``.  ``game`` is not changed.
    Teaching mode only: this reads every hand.
    """
    if assign not in ASSIGN_MODES:
        raise ValueError(f"assign must be one of {', '.join(ASSIGN_MODES)}, not {assign!r}")
    if game.step in _PLAY or game.is_over:
        return _verdict(solve(game, node_limit=node_limit), game)
    if game.step == "timing":
        raise CrewError("feasibility_of: choose timed or untimed first (nothing is dealt yet)")
    if all(t.owner is not None for t in game.tasks):
        g = game.clone()
        preds = [t.prediction for t in g.tasks if _is_predicted(g.table[t.id]) and t.prediction is None]
        if preds:
            raise CrewError("feasibility_of: make the predictions first (the answer depends on them)")
        _drive_to_play(g, ())
        return _verdict(solve(g, node_limit=node_limit), g)
    if any(t.owner is not None for t in game.tasks):
        raise CrewError(
            "feasibility_of: the assignment is half done; ask before it starts or once it is over"
        )
    if assign == "crewmate":
        g = _crewmate_setup(game, bot_seed)
        return _verdict(solve(g, node_limit=node_limit), g)
    return _best(game, node_limit, bot_seed=bot_seed)


# --------------------------------------------------------------------------- many deals


@dataclass(frozen=True)
class DealResult:
    """One deal of :func:`feasibility`: the game's ``seed``, the drawn ``tasks``, ``winnable``
    (True / False / None = unsettled) and the solver's ``nodes``."""

    seed: int
    tasks: tuple[int, ...]
    winnable: bool | None
    nodes: int


@dataclass(frozen=True)
class Estimate:
    """The result of :func:`feasibility`: an **estimate**, not an exact chance.

    ``wins`` / ``losses`` / ``unsettled`` count the deals (``unsettled``: the node limit ran out
    first; counted apart, never as a win or a loss).  ``rate`` = wins / settled deals, with the
    95% Wilson interval ``low`` - ``high`` over the ``settled`` deals; :attr:`bounds` is the
    widest the rate over *all* deals could be, whatever the unsettled deals hide.  (Losses take
    longer to prove than wins, so the unsettled deals probably lean towards losses and the
    settled rate high.)
    """

    players: int
    target: int | None
    mission: Mapping[str, Any]
    assign: str
    wins: int
    losses: int
    unsettled: int
    seed: int | str
    node_limit: int
    results: tuple[DealResult, ...] = field(repr=False, compare=False)
    seconds: float = field(default=0.0, compare=False)

    @property
    def deals(self) -> int:
        return self.wins + self.losses + self.unsettled

    @property
    def settled(self) -> int:
        return self.wins + self.losses

    @property
    def rate(self) -> float:
        """Wins per settled deal (0.0 when no deal was settled)."""
        return self.wins / self.settled if self.settled else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        """The 95% Wilson interval of :attr:`rate` over the settled deals ((0, 1) if none)."""
        return wilson(self.wins, self.settled) if self.settled else (0.0, 1.0)

    @property
    def low(self) -> float:
        return self.interval[0]

    @property
    def high(self) -> float:
        return self.interval[1]

    @property
    def bounds(self) -> tuple[float, float]:
        """The rate over every deal if all unsettled deals were losses, and if all were wins."""
        if not self.deals:
            return (0.0, 1.0)
        return (self.wins / self.deals, (self.wins + self.unsettled) / self.deals)

    def _what(self) -> str:
        what = "2 players and Tonoja" if self.players == 2 else f"{self.players} seats"
        if self.target is not None:
            what += f", target {self.target}"
        extra = {k: v for k, v in self.mission.items() if k != "target"}
        if extra:
            what += f", {extra}"
        return f"{what} ({self.assign} assignment)"

    def __repr__(self) -> str:
        lo, hi = self.interval
        a, b = self.bounds
        text = (
            f"feasibility of {self._what()}: {self.rate:.1%} winnable [{lo:.1%}, {hi:.1%}] — estimate, "
            f"95% Wilson interval, n = {self.settled} settled deals; "
            f"{self.unsettled} of {self.deals} unsettled (node limit {self.node_limit:,})"
        )
        if self.unsettled:
            text += f": over all deals between {a:.1%} and {b:.1%} before sampling error"
        return text

    def _repr_html_(self) -> str:
        e = html.escape
        lo, hi = self.interval
        a, b = self.bounds
        w = 240

        def x(p: float) -> float:
            return round(10 + w * p, 1)

        svg = (
            f"<svg width='{w + 20}' height='34' fill='currentColor' font-size='10'>"
            f"<line x1='10' y1='14' x2='{w + 10}' y2='14' stroke='currentColor' stroke-opacity='0.3'/>"
            f"<rect x='{x(a)}' y='9' width='{x(b) - x(a):.1f}' height='10' fill='#fbbf24' opacity='0.5'>"
            "<title>what the unsettled deals could make of it</title></rect>"
            f"<rect x='{x(lo)}' y='10' width='{x(hi) - x(lo):.1f}' height='8' fill='#93c5fd'>"
            "<title>95% Wilson interval</title></rect>"
            f"<rect x='{x(self.rate) - 1:.1f}' y='6' width='2' height='16' fill='#1d4ed8'/>"
            f"<text x='10' y='32'>0%</text><text x='{w - 10}' y='32'>100%</text></svg>"
        )
        return (
            f"<div><p><b>Feasibility of {e(self._what())}</b>: {self.rate:.1%} of the settled deals are "
            f"winnable with every hand known — <i>estimate, 95% Wilson interval, n = {self.settled}</i>: "
            f"[{lo:.1%}, {hi:.1%}].</p>{svg}"
            f"<p>{self.wins} winnable, {self.losses} not, {self.unsettled} unsettled (the solver's node "
            f"limit of {self.node_limit:,} ran out; counted apart) of {self.deals} deals, seed "
            f"{e(str(self.seed))}; over all deals between {a:.1%} and {b:.1%} before sampling "
            f"error ({self.seconds:.1f} s). A loss takes longer to prove than a win, so the settled "
            "rate leans high: the range over all deals is the safe statement.</p></div>"
        )


_DEFAULTS = {**Mission(target=0).to_dict(), "target": None}


def _mission_dict(target: int | None, mission: Mission | Mapping[str, Any] | None) -> dict[str, Any]:
    if mission is None:
        if target is None:
            raise ValueError("give a target or a mission")
        return Mission(target=target).to_dict()
    m = mission if isinstance(mission, Mission) else Mission.from_dict(mission)
    return m.to_dict()


def feasibility(
    players: int = 4,
    target: int | None = 3,
    *,
    mission: Mission | Mapping[str, Any] | None = None,
    deals: int = 200,
    seed: int | str = 1,
    node_limit: int = DEFAULT_NODE_LIMIT,
    assign: str = "best",
    options: Mapping[str, Any] | None = None,
    progress: bool | None = None,
) -> Estimate:
    """The share of random deals on which a drawn mission can be won with every hand known:
    an estimate over ``deals`` deals, with a 95% Wilson interval (see the module docstring).

    ``players`` 2-5 (2: two humans and Tonoja); ``target`` the difficulty to draw to, or
    ``mission`` any mission (a :class:`~dsa_widget.crew.mission.Mission` or its dict: fixed
    tasks, an allocation mode, constraints; it replaces ``target``).  Deal ``i`` is the game
    ``CrewGame(players, mission=…, seed=s_i)`` with ``s_i`` derived from ``seed`` and ``i``
    only (its draw of tasks and its deal of cards, redeals of R-6.10 included), so the same
    seed gives the same figures.  ``assign``: ``"best"`` or ``"crewmate"``.  ``node_limit``:
    completed tricks the solver may evaluate per deal.  ``progress``: a progress bar (default:
    for 50 deals or more).
    """
    if assign not in ASSIGN_MODES:
        raise ValueError(f"assign must be one of {', '.join(ASSIGN_MODES)}, not {assign!r}")
    if not isinstance(deals, int) or deals < 1:
        raise ValueError(f"deals must be a positive int, not {deals!r}")
    if not isinstance(node_limit, int) or node_limit < 1:
        raise ValueError(f"node_limit must be a positive int, not {node_limit!r}")
    m = _mission_dict(target, mission)
    CrewGame(players, mission=m, options=options, seed=0, timed=True)  # a bad setup fails now
    bar = Progress(deals, deals >= 50 if progress is None else progress, unit="deals")
    results: list[DealResult] = []
    t0 = time.perf_counter()
    for i in range(deals):
        s = _derive(seed, "deal", i)
        game = CrewGame(players, mission=m, options=options, seed=s, timed=True)
        v = feasibility_of(game, node_limit=node_limit, assign=assign, bot_seed=_derive(seed, "bots", i))
        results.append(DealResult(s, tuple(game.task_ids), v.winnable, v.nodes))
        bar.update(i + 1)
    bar.close()
    wins = sum(1 for r in results if r.winnable is True)
    losses = sum(1 for r in results if r.winnable is False)
    return Estimate(
        players=players,
        target=m.get("target") if m.get("fixed_tasks") is None else None,
        mission={k: v for k, v in m.items() if v != _DEFAULTS.get(k, v) or k == "fixed_tasks" and v},
        assign=assign,
        wins=wins,
        losses=losses,
        unsettled=deals - wins - losses,
        seed=seed,
        node_limit=node_limit,
        results=tuple(results),
        seconds=time.perf_counter() - t0,
    )
