"""Estimated figures where exact ones are out of reach: playouts with 95% intervals.

Who wins from here depends on thousands of future decisions and rolls, and on
chip values nobody has seen.  So we *play it out*: many times, fill in the
unseen chip values at random from the unseen pool (a *determinization*:
:meth:`View.sample <dsa_widget.deep_sea.view.View.sample>`), let every seat play its
bot to the end of the game with random dice, and count wins.  A seat's
share of wins estimates its chance; the 95% Wilson interval says how sure
that estimate is (the true chance lies inside it in 95% of such studies).

Whose knowledge?  A player asking "what are my chances?" must not use values
he cannot see: pass his :class:`~dsa_widget.deep_sea.view.View` (or a Game and
``seat=``) and the hidden values are re-drawn in every playout.  A teacher
who can see everything may pass a Game with ``god=True``: the playouts then
use the true hidden values.

>>> wilson_interval(50, 100)
(0.4038..., 0.5961...)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ...core.errors import is_int
from ...core.executors import default_workers, run_chunks
from ...core.progress import Progress
from ...core.stats import Z95, wilson
from ._common import AnalysisError, board_of, check_seat

__all__ = [
    "wilson_interval",
    "simple_bot",
    "WinEstimate",
    "win_chances",
    "HomeEstimate",
    "estimate_home_chance",
]


def wilson_interval(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default).

    Better than "estimate ± 2 standard errors" near 0 and 1: it never leaves
    [0, 1] and is not empty when every trial succeeded or failed.

    >>> wilson_interval(0, 20)
    (0.0, 0.1611...)
    >>> wilson_interval(5, 0)
    Traceback (most recent call last):
    ...
    dsa_widget.deep_sea.analysis._common.AnalysisError: no trials: an interval needs n >= 1
    """
    if n <= 0:
        raise AnalysisError("no trials: an interval needs n >= 1")
    if not 0 <= successes <= n:
        raise AnalysisError(f"successes must be between 0 and n={n}, got {successes}")
    return wilson(successes, n, z)


# ---------------------------------------------------------------- the built-in policy


def _simple_rule(step: str, legal: Sequence[str], k: int, pos: int, air: int, up: bool) -> str:
    if step == "turn_back":
        return "back" if (k >= 2 or air <= 2 * pos) else "continue"
    if step == "search":
        if "take" in legal and (k == 0 or (not up and k < 2)):
            return "take"
        return "none"
    return legal[0]


def simple_bot(view: Any, legal: Sequence[str]) -> str:
    """A plain, sensible policy using only what the player sees (the default of playouts).

    Take a treasure while heading down with fewer than 2 items (or when
    carrying nothing); turn back once carrying 2 items or when the air left is
    at most twice the depth; never put anything down.

    >>> from dsa_widget import Game
    >>> g = Game(players=2, seed=0)
    >>> simple_bot(g.view(0), g.legal_choices())
    'roll'
    """
    s = view.seat
    return _simple_rule(
        view.step, legal, len(view.carrying[s]), view.positions[s], view.air, view.heading_up[s]
    )


def _simple_fast(g: Any) -> str:
    p = g.current_player
    return _simple_rule(g.step, g.legal_choices(), len(g.carrying[p]), g.positions[p], g.air, g.heading_up[p])


class _PolicySeat:
    """A built-in heuristic bot's policy, run on the playout game itself (fast path).

    The heuristics read only public things (positions, headings, carried items and their
    levels, the air, the path's levels), which is why the search bots run them on game copies
    too; this skips building a View and the bot's explanation at every choice (about 1.6x).
    """

    __slots__ = ("choose", "policy")

    def __init__(self, policy: Any) -> None:
        self.policy = policy
        self.choose = policy.choose


def _fast(bot: Callable[..., Any]) -> Callable[..., Any] | _PolicySeat:
    """The bot, or its :class:`_PolicySeat` when it is a built-in heuristic (same choices)."""
    try:
        from ..bots import heuristics as hb
    except ImportError:  # pragma: no cover - the rules core without the bots package
        return bot
    # the built-in classes only: a subclass may have its own policy, which has not promised
    # to read public things only (on the playout game it could read the dealt values)
    if isinstance(bot, hb.HeuristicBot) and type(bot) in (
        hb.TakeNBot,
        hb.DepthBot,
        hb.AirAwareBot,
        hb.BaselineBot,
        hb.PlannerBot,
    ):
        return _PolicySeat(bot.policy)
    return bot


def _resolve_bots(bots: Any, n: int, seed: int | None) -> list[Callable[..., Any] | _PolicySeat | None]:
    """One policy per seat; None stands for the built-in simple policy (fast path)."""

    def one(b: Any, i: int) -> Callable[..., Any] | _PolicySeat | None:
        if b is None or b is simple_bot or b == "simple":
            return None
        if isinstance(b, str):
            try:
                from ..bots import make_bot
            except ImportError:
                raise AnalysisError(
                    f"bot {b!r}: the dsa_widget.deep_sea.bots package is not available; "
                    "pass callables bot(view, legal) -> choice"
                ) from None
            try:
                return _fast(make_bot(b, seed=None if seed is None else seed + i))
            except ValueError as e:
                raise AnalysisError(f"seat {i}: {e}") from None
        if callable(b):
            return _fast(b)
        raise AnalysisError(
            f"seat {i}: a bot is a callable bot(view, legal) -> choice or a bot name, got {b!r}"
        )

    if bots is None or callable(bots) or isinstance(bots, str):
        return [one(bots, i) for i in range(n)]
    if isinstance(bots, Mapping):
        bad = [k for k in bots if not (isinstance(k, int) and 0 <= k < n)]
        if bad:
            raise AnalysisError(f"bots: unknown seat {bad[0]!r}")
        return [one(bots.get(i), i) for i in range(n)]
    if isinstance(bots, Sequence):
        if len(bots) != n:
            raise AnalysisError(f"bots: {len(bots)} given for {n} seats")
        return [one(b, i) for i, b in enumerate(bots)]
    raise AnalysisError(
        f"bots must be a callable, a name, a list or a dict by seat; got {type(bots).__name__}"
    )


def _play_out(h: Any, policies: list[Callable[..., Any] | _PolicySeat | None]) -> None:
    while True:
        st = h.step
        if st == "roll":
            h.apply_unchecked("roll")
            continue
        if st == "over":
            return
        legal = h.legal_choices()
        if len(legal) == 1:
            h.apply_unchecked(legal[0])
            continue
        p = h.current_player
        b = policies[p]
        if b is None:
            c = _simple_fast(h)
        elif type(b) is _PolicySeat:
            c = b.choose(h, p, legal, False)[0]
        else:
            c = b(h.view(p), legal)
            if c not in legal:
                raise AnalysisError(
                    f"the bot of seat {p} chose {c!r}, which is not legal "
                    f"(legal: {', '.join(map(repr, legal))})"
                )
        h.apply_unchecked(c)


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class WinEstimate:
    """Each seat's estimated chance to win, from ``playouts`` games played to the end.

    ``wins[q]`` counts the playouts seat ``q`` won (a shared win counts for
    every winner, so the chances may add up to more than 1); ``chance(q)``
    is the share and ``interval(q)`` its 95% Wilson interval.
    """

    players: tuple[str, ...]
    wins: tuple[int, ...]
    playouts: int
    knowledge: str
    seconds: float = field(default=0.0, compare=False)

    def chance(self, seat: int) -> float:
        return self.wins[seat] / self.playouts

    def interval(self, seat: int) -> tuple[float, float]:
        return wilson_interval(self.wins[seat], self.playouts)

    def rows(self) -> list[tuple[str, float, float, float]]:
        return [(name, self.chance(q), *self.interval(q)) for q, name in enumerate(self.players)]

    def _ties(self) -> str:
        """The note a table needs when the chances add up to more than 1 (ties won by several)."""
        if sum(self.wins) <= self.playouts:
            return ""
        return "; a tie counts as a win for each winner, so the chances add up to more than 100%"

    def __repr__(self) -> str:
        head = f"win chances from {self.playouts:,} playouts ({self.knowledge}); 95% Wilson intervals"
        lines = [head + self._ties()]
        for name, p, lo, hi in self.rows():
            lines.append(f"  {name:<12} {100 * p:5.1f}%  [{100 * lo:5.1f}%, {100 * hi:5.1f}%]")
        return "\n".join(lines)

    def _repr_html_(self) -> str:
        import html

        body = "".join(
            f"<tr><td>{html.escape(name)}</td><td style='text-align:right'>{100 * p:.1f}%</td>"
            f"<td>[{100 * lo:.1f}%, {100 * hi:.1f}%]</td>"
            f"<td><svg width='200' height='10'><rect x='{200 * lo:.1f}' y='2' width='{200 * (hi - lo):.1f}' "
            f"height='6' fill='#93c5fd'/>"
            f"<rect x='{200 * p - 1:.1f}' y='0' width='2' height='10' fill='#1d4ed8'/>"
            "</svg></td></tr>"
            for name, p, lo, hi in self.rows()
        )
        return (
            f"<table><caption>Win chances: {self.playouts:,} playouts ({html.escape(self.knowledge)}), "
            f"95% Wilson intervals{html.escape(self._ties())}</caption>"
            "<tr><th>player</th><th>estimate</th><th>95% interval</th>"
            f"<th></th></tr>{body}</table>"
        )


class _FromGod:
    """Fresh copies of the true game (a teacher's estimate), each with its own dice."""

    def __init__(self, game: Any) -> None:
        self.game = game.copy(history=False, events=False)

    def __call__(self, rng: random.Random) -> Any:
        return self.game.copy(history=False, events=False, rng=rng)


def _source(
    state: Any, seat: int | None, god: bool
) -> tuple[Callable[[random.Random], Any], int, tuple[str, ...], str, Any]:
    """How to draw a full game from ``state`` (a View, or a Game with ``seat`` or ``god``); the
    number of seats, the players' names, whose knowledge it is in words, and the View the
    draws come from (None for ``god``)."""
    from ..rules import Game
    from ..view import View

    if isinstance(state, View):
        if god:
            raise AnalysisError("a View holds no hidden values: god=True needs the Game itself")
        if seat is not None and seat != state.seat:
            raise AnalysisError(f"this view is seat {state.seat}'s, not seat {seat}'s")
        view = state
        return view.sample, len(view.players), view.players, f"what {view.players[view.seat]} knows", view
    if isinstance(state, Game):
        if god and seat is not None:
            raise AnalysisError(
                "give either seat= (a player's knowledge) or god=True (the true values), not both"
            )
        if god:
            return (
                _FromGod(state),
                len(state.players),
                state.setup.players,
                "true hidden values (teacher)",
                None,
            )
        if seat is None:
            raise AnalysisError(
                "whose knowledge? pass seat=<seat> (hidden values re-drawn from what that "
                "player knows) or god=True (a teacher using the true hidden values), or "
                "pass a View"
            )
        view = state.view(check_seat(board_of(state), seat))
        return (
            view.sample,
            len(state.players),
            state.setup.players,
            f"what {view.players[view.seat]} knows",
            view,
        )
    raise AnalysisError(f"expected a Game or a View, got {type(state).__name__}")


#: playouts per block: each block draws from its own generator, derived from the seed and
#: the block's number, so the result is the same whichever backend plays the blocks
WIN_BLOCK = 500


def _kernel_policies(policies: list[Callable[..., Any] | _PolicySeat | None]) -> list[Any] | None:
    """The playout kernel's policy for every seat, or None when some seat's bot is not one the
    kernel plays (then the playouts run on the checked engine's fast path)."""
    try:
        from ..bots import heuristics as hb
        from ..playouts import Policy
    except ImportError:  # pragma: no cover - the rules core without the bots package
        return None
    out = []
    for b in policies:
        if b is None:
            out.append(Policy("simple"))
            continue
        pol = b.policy if type(b) is _PolicySeat else None
        if type(pol) is hb.PlannerPolicy and pol.middle == 0.5:
            knobs = (pol.carry, pol.slack, pol.up_slack)
            if all(float(x).is_integer() and abs(x) < 2**31 for x in knobs):
                out.append(
                    Policy("planner", carry=int(knobs[0]), slack=int(knobs[1]), up_slack=int(knobs[2]))
                )
                continue
        if type(b) is hb.RandomBot:
            out.append(Policy("uniform"))
            continue
        return None
    return out


def _unseen_in_play(view: Any) -> list[int]:
    """The chips whose values ``view`` does not know and no score holds yet."""
    banked = {x for chips in view.banked for x in chips}
    return [c for c in range(len(view.levels)) if c not in view.known and c not in banked]


def _win_block(payload: tuple[Any, ...], block: tuple[int, int]) -> list[int]:
    """Play one block of playouts (``(number, playouts)``); the wins by seat.

    On the playout kernel (every seat's policy one it plays): one game drawn for the block,
    and every playout deals the unseen values anew (``redeal``), so each is a fresh draw."""
    sample, policies, n, base, kernel, redeal = payload
    number, count = block
    rng = random.Random(f"{base}/win/{number}")
    wins = [0] * n
    if kernel is not None:
        from ..playouts import playout_from

        r = playout_from(sample(rng), count, seed=rng.getrandbits(63), policy=kernel, redeal=redeal)
        for m in r.winners:
            for q in range(n):
                if m >> q & 1:
                    wins[q] += 1
        return wins
    for _ in range(count):
        h = sample(rng)
        _play_out(h, policies)
        for w in h.winners:
            wins[w] += 1
    return wins


def win_chances(
    state: Any,
    bots: Any = None,
    *,
    playouts: int = 2000,
    seat: int | None = None,
    god: bool = False,
    seed: int | None = None,
    progress: bool | None = None,
    workers: int | None = 2,
    executor: str = "process",
    address: str | None = None,
    engine: str = "auto",
) -> WinEstimate:
    """Estimate every seat's chance to win from here when all seats follow ``bots``.

    ``state`` is a View (that player's knowledge), or a Game with ``seat=``
    (that player's knowledge) or ``god=True`` (a teacher: the true hidden
    values).  ``bots`` is a callable ``bot(view, legal) -> choice`` for every
    seat, a list or dict of them by seat, or bot names from
    ``dsa_widget.deep_sea.bots``; by default every seat plays :func:`simple_bot`.
    At the sink step (drowning divers lay their chips) each seat's bot chooses the order;
    :func:`simple_bot` and the built-in heuristics lay them in pickup order.
    ``progress`` shows a progress bar (a widget in a kernel, text on stderr
    elsewhere); by default only for 20,000 playouts or more.

    ``engine="auto"`` plays the playouts on the compiled playout kernel
    (:mod:`dsa_widget.deep_sea.playouts`) when it plays every seat's bot (the default simple
    policy, ``planner``, ``random``), else on the rules engine in Python (``"python"``
    forces that; ``"kernel"`` refuses any other bot).

    The playouts come in blocks of :data:`WIN_BLOCK`, each with its own generator derived
    from ``seed``: the local process pool (``workers`` processes; runs of one block stay in
    this process), ``executor="local"`` (this process) and ``executor="ray"`` (a Ray
    cluster at ``address``, as for tournaments) give the same result for the same seed.

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob", "Cy"], seed=1)
    >>> est = win_chances(g, seat=0, playouts=300, seed=2)
    >>> est.playouts, sum(est.wins) >= 300
    (300, True)
    >>> lo, hi = est.interval(0); 0 <= lo <= est.chance(0) <= hi <= 1
    True
    """
    if not is_int(playouts) or playouts < 1:
        raise AnalysisError(f"playouts must be a whole number >= 1, got {playouts!r}")
    sample, n, players, knowledge, view = _source(state, seat, god)
    if board_of(state).current is None:
        raise AnalysisError("the game is over: its winners are known")
    policies = _resolve_bots(bots, n, seed)
    kernel = _kernel_policies(policies) if engine != "python" else None
    if engine == "kernel" and kernel is None:
        raise AnalysisError("engine='kernel': the playout kernel does not play every seat's bot here")
    if engine not in ("auto", "kernel", "python"):
        raise AnalysisError(f"engine must be 'auto', 'kernel' or 'python', got {engine!r}")
    redeal = None if view is None else _unseen_in_play(view)
    base = random.getrandbits(64) if seed is None else seed
    blocks = [(b, min(WIN_BLOCK, playouts - a)) for b, a in enumerate(range(0, playouts, WIN_BLOCK))]
    wins = [0] * n
    done = [0]
    bar = Progress(playouts, playouts >= 20000 if progress is None else bool(progress), unit="playouts")

    def block_done(i: int, part: list[int]) -> None:
        for q in range(n):
            wins[q] += part[q]
        done[0] += blocks[i][1]
        bar.update(done[0])

    t0 = time.perf_counter()
    try:
        run_chunks(
            _win_block,
            (sample, policies, n, base, kernel, redeal),
            blocks,
            executor=executor,
            workers=default_workers(workers),
            address=address,
            on_chunk=block_done,
            what="a bot of this estimate",
        )
    finally:
        bar.close()
    return WinEstimate(players, tuple(wins), playouts, knowledge, time.perf_counter() - t0)


# ---------------------------------------------------------------- sampled chance to get home


@dataclass(frozen=True)
class HomeEstimate:
    """A simulated chance to be back at the round's end: ``hits`` of ``playouts``, with its interval."""

    hits: int
    playouts: int

    @property
    def chance(self) -> float:
        return self.hits / self.playouts

    @property
    def interval(self) -> tuple[float, float]:
        return wilson_interval(self.hits, self.playouts)

    def __repr__(self) -> str:
        lo, hi = self.interval
        return (
            f"{100 * self.chance:.1f}% [{100 * lo:.1f}%, {100 * hi:.1f}%] "
            f"(95% interval, {self.playouts:,} playouts)"
        )


def estimate_home_chance(
    state: Any,
    seat: int | None = None,
    *,
    others: Any = "home",
    me: str = "home",
    playouts: int = 4000,
    seed: int | None = None,
    max_seconds: float | None = None,
    min_playouts: int = 100,
) -> HomeEstimate:
    """:func:`~dsa_widget.deep_sea.analysis.home.home_chance` by simulation, for states too big to solve
    exactly.

    Same assumptions (policies ``others`` and ``me``; nobody takes or puts
    down anything); the engine plays the rest of the round with random dice.
    Only public facts matter, so the hidden values are never used.

    ``max_seconds`` stops early (but not before ``min_playouts``): the result
    says how many playouts it rests on, and its interval is as wide as that
    number makes it.  The live overlay uses it to keep a move fast.

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=8, seed=0)
    >>> g.play_turn(dice=(2, 3), search="take"); g.play_turn(dice=(1, 2), search="take")
    >>> estimate_home_chance(g, playouts=500, seed=1).hits
    500
    """
    from ..rules import Game
    from ..view import View
    from .home import _policies

    board = board_of(state)
    d = check_seat(board, seat)
    pol = _policies(board, d, others, me)
    if not is_int(playouts) or playouts < 1:
        raise AnalysisError(f"playouts must be a whole number >= 1, got {playouts!r}")
    if max_seconds is not None and not max_seconds >= 0:
        raise AnalysisError(f"max_seconds must be a number >= 0 or None, got {max_seconds!r}")
    if not is_int(min_playouts) or min_playouts < 1:
        raise AnalysisError(f"min_playouts must be a whole number >= 1, got {min_playouts!r}")
    if board.home[d]:
        return HomeEstimate(playouts, playouts)
    rng = random.Random(seed)
    if isinstance(state, View):

        def fresh() -> Any:
            return state.sample(rng)
    elif isinstance(state, Game):

        def fresh() -> Any:
            return state.copy(history=False, events=False, rng=rng)
    else:  # pragma: no cover - board_of already refused it
        raise AnalysisError("expected a Game or a View")
    deadline = None if max_seconds is None else time.perf_counter() + max_seconds
    hits = 0
    done = 0
    while done < playouts:
        if deadline is not None and done >= min_playouts and time.perf_counter() > deadline:
            break
        done += 1
        h = fresh()
        r = h.round
        pos_d = board.positions[d]  # 0 and still in the submarine counts as back, as in home_chance
        while True:
            st = h.step
            if st == "turn_back":
                h.apply_unchecked("back" if pol[h.current_player] else "continue")
            elif st == "search":
                h.apply_unchecked("none")
            elif st == "sink":
                break  # the round is over (the drowning divers are laying their chips)
            elif h.current_player == d:
                # Only his own swim can bring him home, and the round may end with it (then the
                # board is reset at once): the roll itself says where he ended.
                pos_d, back = h.roll_unchecked()
                if back:
                    break  # back in the submarine: he stays there until the round ends
            else:
                h.roll_unchecked()
            if h.round != r or h.is_over:
                break
        hits += pos_d == 0
    return HomeEstimate(hits, done)
