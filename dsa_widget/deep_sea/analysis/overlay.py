"""The live probability overlay of the board: landing chances, the chance to get home, the
air forecast and what the diver carries, for the player to move.

Every figure is exact or an estimate with its interval, and which one a
position gets depends only on the position (a budget of states for the
exact sum, a fixed number of playouts for the estimate), never on the
machine's speed: the same position shows the same figures everywhere (the
budget is larger where the exact sum runs compiled, with the ``fast`` extra).
"""

from __future__ import annotations

import random
from fractions import Fraction
from typing import Any

from ..rules import SINK_STEP, Game
from ..view import View
from ._common import AnalysisError
from .estimate import HomeEstimate, estimate_home_chance
from .home import COMPILED, live_home_chances, live_home_estimates
from .landing import landing_distributions
from .values import item_value

__all__ = [
    "AIR_ASSUMPTION",
    "HOME_ASSUMPTION",
    "OVERLAY_EXACT_STATES",
    "OVERLAY_LATER_STATES",
    "OVERLAY_MAX_LAYER",
    "OVERLAY_MAX_STATES",
    "OVERLAY_MAX_STATES_PYTHON",
    "OVERLAY_PLAYOUTS",
    "OVERLAY_SAMPLES",
    "air_forecast",
    "exact_later",
    "needs_exact",
    "overlay_for",
    "with_exact",
]

# ---------------------------------------------------------------------- probability overlays

#: the live overlay's home chances, compiled: exact fractions within this many states of the
#: DP (all the choices of one position together; a few ms) ...
OVERLAY_EXACT_STATES = 10_000
#: ... past it, the same DP in double precision within this many more (tens of ms); the choices
#: left are estimated instead
OVERLAY_MAX_STATES = 150_000
#: ... or as soon as one turn of that DP holds more than this many states: a position that is
#: going to need far more than the budget is given up early (and estimated) instead of
#: spending the whole budget first
OVERLAY_MAX_LAYER = 40_000
#: ... and beyond this many without numba (the DP in Python: a few tens of ms too)
OVERLAY_MAX_STATES_PYTHON = 2_500

#: past the live budgets the board asks for the exact fractions again in the background, under
#: this budget (home_chance()'s own): the exact figure then replaces the estimate or the float
OVERLAY_LATER_STATES = 5_000_000

FLOAT_NOTE = (
    "the exact sum over the dice, computed in floating point (to about 1e-13): too many cases to "
    "show its fraction live; home_chance() in a cell gives the fraction"
)

HOME_ASSUMPTION = (
    "Exact over the dice, assuming every other diver keeps what he carries and heads home at his first "
    "chance, and that after this choice the player to move takes nothing more and heads home too."
)
AIR_ASSUMPTION = (
    "Exact if nobody takes or puts down anything and nobody gets back: then every diver still in play "
    "breathes what he carries now at the start of each of his turns, and the round ends after the turn "
    "in which the air reaches 0."
)


def air_forecast(view: Any) -> dict[str, Any]:
    """The air ahead of the player to move, if nobody takes, puts down or gets back (exact then).

    ``now``: the air as the game stands; ``after``: the air after this turn's breath (the
    same as ``now`` once he has breathed; RULES.md: a turn starts with the breath);
    ``per_round``: what one round of turns breathes; ``mine``: what he breathes; ``others``:
    what the others breathe between two of his turns; ``next``: the air at the start of his
    next turn, before he breathes (``None`` when the round ends first); ``turns_left``: how
    many more turns he starts after this one before the round ends (``None``: the air never
    drops).

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=5, seed=0)
    >>> g.play_turn(dice=(1, 1), search="take"); g.play_turn(dice=(1, 1), search="take")
    >>> f = air_forecast(g.view(0)); f["now"], f["after"], f["others"], f["next"], f["turns_left"]
    (5, 4, 1, 3, 2)
    """
    seat = view.current_player
    loads = [len(c) for c in view.carrying]
    n = len(loads)
    per_round = sum(k for q, k in enumerate(loads) if not view.returned[q])
    air = view.air
    out: dict[str, Any] = {
        "now": max(0, air),
        "per_round": per_round,
        "mine": loads[seat],
        "others": per_round - (0 if view.returned[seat] else loads[seat]),
        "after": max(0, air if view.breathed else air - loads[seat]),
        "next": None,
        "turns_left": None,
        "note": AIR_ASSUMPTION,
    }
    if not view.breathed:
        air -= loads[seat]  # he breathes as this turn starts
    if air <= 0:
        out["turns_left"] = 0  # this turn is the last
        return out
    if per_round == 0:
        out["next"] = air  # nobody breathes: the air stays (the round ends when everybody is back)
        return out
    turns = 0
    q = seat
    while True:
        q = (q + 1) % n
        if view.returned[q]:
            continue
        if q == seat:
            if out["next"] is None:
                out["next"] = air
            turns += 1
        air -= loads[q]
        if air <= 0:
            break
    out["turns_left"] = turns
    return out


#: playouts behind a live estimate when the exact home chance is out of reach, played on the
#: game engine (without numba: a few ms) ...
OVERLAY_PLAYOUTS = 400
#: ... and with numba, random rounds of the compiled DP's own model (``live_home_estimates``,
#: about 2-3 us each: some 10 ms, an interval of about +-1.5 points at 50%)
OVERLAY_SAMPLES = 4_000


def _home_estimate(view: View, seat: int, choice: str, playouts: int) -> list[float] | None:
    """``[chance, low, high, playouts]`` for ``choice`` by simulation on the game engine (public
    facts only)."""
    g = view.sample(random.Random(0))  # hidden values play no part in getting home
    if choice != "roll":
        g.apply_unchecked(choice)
    if g.is_over or (g.round != view.round):
        return None
    try:
        est = estimate_home_chance(g, seat=seat, playouts=playouts, seed=1)
    except AnalysisError:
        return None
    return _estimate_row(est)


def _estimate_row(est: HomeEstimate) -> list[float]:
    lo, hi = est.interval
    return [round(est.chance, 4), round(lo, 4), round(hi, 4), est.playouts]


def _home_estimates(
    view: View, seat: int, choices: list[str], playouts: int | None
) -> tuple[dict[str, Any], int]:
    """The estimates of ``choices`` and the playouts behind each: compiled, random rounds of the
    DP's model (:data:`OVERLAY_SAMPLES` by default), else rounds on the game engine
    (:data:`OVERLAY_PLAYOUTS`)."""
    count = OVERLAY_SAMPLES if playouts is None else playouts
    sims = live_home_estimates(view, choices, count, others="home", seed=1)
    if sims is not None:
        return {c: _estimate_row(e) for c, e in sims.items()}, count
    count = OVERLAY_PLAYOUTS if playouts is None else playouts
    return {c: _home_estimate(view, seat, c, count) for c in choices}, count


#: JavaScript numbers hold integers exactly up to this
_JS_SAFE_INT = 2**53 - 1


def _frac(x: Any) -> list[int | str]:
    """``[num, den]``; as decimal strings when either is beyond JavaScript's exact integers
    (the front end reads those with BigInt: nothing is rounded on the way)."""
    num, den = int(x.numerator), int(x.denominator)
    if den > _JS_SAFE_INT or abs(num) > _JS_SAFE_INT:
        return [str(num), str(den)]
    return [num, den]


def overlay_for(
    game: Game,
    real: Game | None = None,
    viewer: int | None = None,
    *,
    max_states: int | None = None,
    max_layer: int | None = None,
    playouts: int | None = None,
    exact_states: int | None = OVERLAY_EXACT_STATES,
) -> dict[str, Any]:
    """The live probability overlay for the player to move in ``game``.

    * ``landing``: for each legal swim choice, ``[[space, num, den], ...]``
      (:func:`~dsa_widget.deep_sea.analysis.landing_distributions`; space 0 = the submarine);
    * ``home``: for each legal choice, the exact chance ``[num, den]`` that the
      player to move is back when the round ends
      (:func:`~dsa_widget.deep_sea.analysis.home.live_home_chances`, ``others="home"``: the
      same fractions as :func:`~dsa_widget.deep_sea.analysis.home_chance`), or ``None``.
      With the compiled DP the fractions stop past ``exact_states`` states for the whole
      position (default :data:`OVERLAY_EXACT_STATES`); the choices left get the same DP in
      double precision in ``home_float`` (``[chance, 1 - chance]``, said by
      ``home_float_note``) within ``max_states`` more states (default
      :data:`OVERLAY_MAX_STATES`) and ``max_layer`` in one turn of the DP (default
      :data:`OVERLAY_MAX_LAYER`; -1: no cap).  ``exact_states=None``: fractions only, within
      ``max_states``.  Without numba: fractions within :data:`OVERLAY_MAX_STATES_PYTHON`.
      The choices past every budget get ``home_est``
      (``[chance, low, high, playouts]`` from ``playouts`` simulated rounds: by default
      :data:`OVERLAY_SAMPLES` rounds of the compiled DP's model, or without numba
      :data:`OVERLAY_PLAYOUTS` on the game engine) and ``home_note`` says so;
    * ``air``: now, the breath per round of turns, the forecast at the
      player's next turn;
    * ``carry``: the expected value of what he carries, from the viewer's
      knowledge (``real``'s, for a what-if branch: a branch never tells more
      than the real game).

    Which figure a choice gets depends on the position and these counts only, never on
    the clock or on what was computed before (the exact sums start cold every time).  Only
    public information and the knowing seat's :class:`~dsa_widget.deep_sea.view.View` are
    used: never a hidden value.
    """
    seat = game.current_player
    if seat is None:
        return {"seat": None}
    view = game.view(seat)
    out: dict[str, Any] = {"seat": seat, "step": view.step}
    out["landing"] = {
        c: [[pos, *_frac(p)] for pos, p in d.items()] for c, d in landing_distributions(view).items()
    }
    if max_states is None:
        max_states = OVERLAY_MAX_STATES if COMPILED else OVERLAY_MAX_STATES_PYTHON
    # at the sink step the round is over: nobody swims any more, so there is no chance to show
    layer = OVERLAY_MAX_LAYER if max_layer is None else max_layer
    live = (
        {}
        if view.step == SINK_STEP
        else live_home_chances(
            view,
            max_states,
            others="home",
            max_layer=layer if layer >= 0 else None,
            exact_states=exact_states,
        )
    )
    home: dict[str, Any] = {c: _frac(v) if isinstance(v, Fraction) else None for c, v in live.items()}
    floats = {c: [v, 1.0 - v] for c, v in live.items() if isinstance(v, float)}
    if floats:
        out["home_float"] = floats
        out["home_float_note"] = FLOAT_NOTE
    if any(v is None for v in live.values()):
        # Too many cases for a live exact sum: estimate those choices by simulation instead,
        # shown with its 95% interval (every number on screen is exact or carries its interval).
        est, count = _home_estimates(view, seat, [c for c, v in live.items() if v is None], playouts)
        out["home_est"] = est
        out["home_note"] = (
            f"≈ estimated from {count:,} playouts (95% interval): too many cases for a live exact "
            "figure; home_chance() in a cell gives it exactly"
        )
    out["home"] = home
    if view.step == SINK_STEP:
        out["home"] = None
        out["home_note"] = "the round is over: the divers still in the water lay their chips past the end"
    out["home_assumption"] = HOME_ASSUMPTION
    out["air"] = air_forecast(view)
    # What the screen may know: the viewer's seat, or on a shared screen only what everybody knows.
    source = real or game
    knower = View.of(source, seat, knower=viewer)
    try:
        total = sum((item_value(knower, it) for it in view.carrying[seat]), Fraction(0))
        out["carry"] = _frac(Fraction(total))
    except AnalysisError:
        out["carry"] = None
    return out


# ---------------------------------------------------------------------- the exact figure, later


def needs_exact(ov: dict[str, Any]) -> list[str]:
    """The choices whose chance to get home the overlay ``ov`` shows as an estimate or a float
    (past the live budget of exact fractions): the ones :func:`exact_later` may settle."""
    home = ov.get("home")
    return [c for c, v in home.items() if v is None] if isinstance(home, dict) else []


def exact_later(game: Game, choices: list[str], max_states: int = OVERLAY_LATER_STATES) -> dict[str, Any]:
    """The exact chances ``[num, den]`` of ``choices`` for the player to move, under
    ``max_states`` (``None`` for a choice still past it): the figure the board shows once it
    has been computed beside the kernel.  The same fractions as ``home_chance()``'s.

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=8, seed=0)
    >>> g.play_turn(dice=(2, 3), search="take"); g.play_turn(dice=(1, 2), search="take")
    >>> exact_later(g, ["continue"])
    {'continue': [42978374, 43046721]}
    """
    seat = game.current_player
    if seat is None or not choices:
        return {}
    live = live_home_chances(game.view(seat), max_states, others="home")
    return {c: _frac(live[c]) if isinstance(live.get(c), Fraction) else None for c in choices}


def with_exact(ov: dict[str, Any], found: dict[str, Any]) -> dict[str, Any]:
    """A copy of the overlay ``ov`` with the exact chances ``found`` in place of its estimates
    and floats; ``home_later`` names the choices that changed (the board marks them)."""
    out = dict(ov)
    out.pop("refining", None)
    home = dict(out.get("home") or {})
    later = [c for c, v in found.items() if v is not None and home.get(c, 0) is None]
    for c in later:
        home[c] = found[c]
    out["home"] = home
    out["home_later"] = later
    for key, note in (("home_float", "home_float_note"), ("home_est", "home_note")):
        rest = {c: v for c, v in (out.get(key) or {}).items() if c not in later}
        if rest:
            out[key] = rest
        elif key in out:
            del out[key]
            out.pop(note, None)
    if any(v is None for v in home.values()):
        out["home_note"] = (
            "too many cases for an exact figure even in the background: the estimate stands "
            "(home_chance(max_states=...) in a cell can take longer)"
        )
    return out
