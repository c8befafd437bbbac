"""The JSON state the widget syncs to the browser, built from a :class:`~dsa_widget.deep_sea.rules.Game`.

Pure functions, no widget or kernel needed, so the exact bytes that leave
Python can be tested.  The front end draws *only* from this dict.

Hidden information: a chip's value is sent only when the viewer may know it
(a banked chip under ``reveal="public"``, the viewer's own banked chips
under ``reveal="owner"``, everything once the game is over) or when
``reveal_all=True`` (the teaching switch).  Otherwise a chip is ``[level]``.

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], seed=1)
>>> s = build_state(g, seats=["human", "random"], seq=1)
>>> s["step"], s["current"], s["legal"], s["path"][:3]
('roll', 0, ['roll'], [[[1]], [[1]], [[1]]])
>>> g.roll((2, 3)); g.apply("take")
>>> s = build_state(g, seats=["human", "random"], seq=2)
>>> s["divers"][0]["items"], s["path"][4]        # carried and blank: no values
([[[1]]], 0)
>>> build_state(g, seats=["human", "random"], seq=3, reveal_all=True)["divers"][0]["items"][0][0][0] == 1
True
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterable, Mapping, Sequence
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from .events import narrate
from .view import View

if TYPE_CHECKING:
    from .rules import Game

__all__ = ["EVENT_TAIL", "LOG_TAIL", "HistoryBuilder", "build_state", "expand_frames", "history_frame", "known_values", "mask_event", "overlay_for", "setup_summary", "state_bytes"]

#: how many sentences of the turn log travel with each state
LOG_TAIL = 40
#: at most this many new events travel with one state (for animation)
EVENT_TAIL = 40

SCHEMA = 1


def known_values(game: Game, viewer: int | None, reveal_all: bool = False) -> dict[int, int]:
    """The chip ids (index in the setup path) whose value the screen may show.

    ``viewer`` is the seat looking at the screen (``None``: a shared
    screen, which sees only what every player may see).

    >>> from dsa_widget import Game
    >>> g = Game(players=2, path=[(1, 0), (2, 5)], rounds=2)
    >>> known_values(g, None), len(known_values(g, None, reveal_all=True))
    ({}, 2)
    """
    if reveal_all:
        return {c: game.chip(c)[1] for c in range(len(game.setup.path))}
    if viewer is not None:
        return dict(game.view(viewer).known)
    public = game.setup.options.reveal == "public" or game.is_over
    if not public:
        return {}
    out: dict[int, int] = {}
    for chips in game.view(0).banked:
        for c in chips:
            out[c] = game.chip(c)[1]
    return out


def _chip(c: int, levels: Sequence[int], known: Mapping[int, int]) -> list[int]:
    v = known.get(c)
    return [levels[c]] if v is None else [levels[c], v]


def _item(item: Iterable[int], levels: Sequence[int], known: Mapping[int, int]) -> list[list[int]]:
    return [_chip(c, levels, known) for c in item]


def mask_event(event: Mapping[str, Any], visible_seats: set[int] | None) -> dict[str, Any]:
    """A copy of ``event`` safe to send: a ``bank`` event keeps its values only
    for seats in ``visible_seats`` (``None``: all)."""
    e = dict(event)
    if e.get("type") == "bank" and visible_seats is not None and e["seat"] not in visible_seats:
        e["chips"] = [[c[0], "?"] for c in e["chips"]]
    return e


def mask_branch_event(event: Mapping[str, Any], reveal_all: bool) -> dict[str, Any]:
    """A what-if branch's event, safe to send: the branch plays on with the real
    game's hidden values, so what it banks (and its final scores) stay hidden
    unless ``reveal_all``."""
    e = dict(event)
    if reveal_all:
        return e
    if e.get("type") == "bank":
        e["chips"] = [[c[0], "?"] for c in e["chips"]]
    elif e.get("type") == "game_over" and "scores" in e:
        e["scores"] = ["?" for _ in e["scores"]]
        e["winners"] = []  # the winner follows from the hidden values
    return e


def _visible_bank_seats(game: Game, viewer: int | None, reveal_all: bool) -> set[int] | None:
    if reveal_all or game.setup.options.reveal == "public" or game.is_over:
        return None
    return set() if viewer is None else {viewer}


def setup_summary(game: Game, *, reveal_all: bool = False) -> dict[str, Any]:
    """The setup as the setup panel pre-fills it, without chip values.

    The seed is sent only when every value may be shown (``reveal_all`` or the
    game is over): it rebuilds the shuffled path and the dice, so it would
    give every hidden value away.

    >>> from dsa_widget import Game
    >>> g = Game(players=2, seed=42)
    >>> setup_summary(g)["seed"], setup_summary(g)["seeded"], setup_summary(g, reveal_all=True)["seed"]
    (None, True, 42)
    """
    s = game.setup
    return {
        "players": list(s.players),
        "air": s.air,
        "rounds": s.rounds,
        "first_player": s.first_player,
        "seed": s.seed if reveal_all or game.is_over else None,
        "seeded": s.seed is not None,
        "custom_path": _is_custom(s.path),
        "path_levels": "".join(str(c[0]) for c in s.path),
        "options": s.options.to_dict(),
    }


def _is_custom(path: Sequence[Sequence[int]]) -> bool:
    """True unless ``path`` is the 32 standard chips, each level shuffled on its own."""
    from .setup import STANDARD_CHIPS

    if len(path) != len(STANDARD_CHIPS):
        return True
    return any(a[0] != b[0] for a, b in zip(path, STANDARD_CHIPS)) or sorted(map(tuple, path)) != sorted(
        STANDARD_CHIPS
    )


def build_state(
    game: Game,
    *,
    seats: Sequence[str],
    seq: int,
    reveal_all: bool = False,
    viewer: int | None = None,
    new_events: Sequence[Mapping[str, Any]] = (),
    log: Sequence[str] = (),
    log_total: int | None = None,
    paused: bool = False,
    bot_delay: int = 600,
    known: Mapping[int, int] | None = None,
) -> dict[str, Any]:
    """The synced ``state`` dict of the widget (see the module docstring).

    Keys: ``v`` schema, ``seq``, ``players``, ``seats`` ("human" or a bot
    name per seat), ``round``/``rounds``, ``air``/``start_air``, ``step``,
    ``current`` (seat or ``None``), ``legal``, ``must_turn_back``,
    ``turn`` (turns completed), ``path`` (per space: ``0`` blank, else a
    list of chips ``[level]`` or ``[level, value]``), ``divers`` (``pos``,
    ``up``, ``home``, ``items``), ``banked`` (chips per seat), ``scores``
    (``None`` where unknown), ``winners``, ``over``, ``events`` (new events
    since the previous state, for animation), ``log`` (the last sentences
    of the turn log) and ``log_total``, ``reveal_all``, ``setup``,
    ``paused``, ``bot_delay``.  ``known`` overrides which chip values may be
    shown (what-if branches show only what the real game lets the viewer know).
    """
    if known is None:
        known = known_values(game, viewer, reveal_all)
    v = game.view(0)
    levels = v.levels
    path: list[Any] = []
    for x in v.path[1:]:
        path.append(0 if x is None else _item(x, levels, known))
    n = len(v.players)
    divers = []
    for q in range(n):
        divers.append(
            {
                "pos": v.positions[q],
                "up": v.heading_up[q],
                "home": v.returned[q],
                "items": [_item(it, levels, known) for it in v.carrying[q]],
            }
        )
    banked = [[_chip(c, levels, known) for c in v.banked[q]] for q in range(n)]
    scores: list[int | None] = []
    true_scores = game.scores
    for q in range(n):
        scores.append(true_scores[q] if all(c in known for c in v.banked[q]) else None)
    vis = _visible_bank_seats(game, viewer, reveal_all)
    events = [mask_event(e, vis) for e in list(new_events)[-EVENT_TAIL:]]
    return {
        "v": SCHEMA,
        "seq": seq,
        "players": list(v.players),
        "seats": list(seats),
        "round": v.round,
        "rounds": v.rounds,
        "air": max(0, v.air),
        "start_air": v.start_air,
        "step": v.step,
        "current": v.current_player,
        "legal": list(v.legal),
        "must_turn_back": v.must_turn_back,
        "turn": game.turn_number,
        "path": path,
        "divers": divers,
        "banked": banked,
        "scores": scores,
        # who won follows from the values: shown only when every score may be
        "winners": list(v.winners) if None not in scores else [],
        "over": v.finished,
        "events": events,
        "log": list(log)[-LOG_TAIL:],
        "log_total": len(log) if log_total is None else log_total,
        "reveal_all": bool(reveal_all),
        "viewer": viewer,
        "setup": setup_summary(game, reveal_all=reveal_all),
        "paused": bool(paused),
        "bot_delay": int(bot_delay),
    }


def sentences(events: Iterable[Mapping[str, Any]], players: Sequence[str]) -> list[str]:
    """The turn log in words for (already masked) events."""
    return narrate(list(events), players)


def state_bytes(state: Mapping[str, Any]) -> int:
    """Size of ``state`` as JSON (what one update costs on the wire, roughly).

    >>> state_bytes({"a": [1, 2]})
    11
    """
    return len(json.dumps(state, separators=(",", ":")).encode())


# ---------------------------------------------------------------------- history frames

HISTORY_SCHEMA = 1


def _search_text(search: Any) -> str:
    if isinstance(search, Mapping):
        return f"drop {search.get('drop')}"
    return str(search or "none")


def history_frame(game: Game, k: int, *, viewer: int | None, reveal_all: bool, turn: Mapping[str, Any] | None,
                  seat: int | None, prev: dict[str, Any] | None) -> tuple[dict[str, Any], dict[str, Any]]:
    """The compact frame of ``game`` after ``k`` turns and its full board (for the next delta).

    The first frame of a chunk (``prev`` is ``None``) holds the whole board:
    ``P`` path, ``D`` divers, ``B`` banked chips and scores.  A later frame
    holds only what changed since the previous one: ``pd`` (``[space index,
    space]`` pairs), ``dd`` (``[seat, diver]`` pairs), and ``B`` or ``P`` when
    they changed.  A diver is ``[pos, up, home, items]``.
    """
    known = known_values(game, viewer, reveal_all)
    v = game.view(0)
    levels = v.levels
    n = len(v.players)
    path = [0 if x is None else _item(x, levels, known) for x in v.path[1:]]
    divers = [
        [v.positions[q], int(v.heading_up[q]), int(v.returned[q]), [_item(it, levels, known) for it in v.carrying[q]]]
        for q in range(n)
    ]
    banked = [[_chip(c, levels, known) for c in b] for b in v.banked]
    true_scores = game.scores
    scores = [true_scores[q] if all(c in known for c in v.banked[q]) else None for q in range(n)]
    bank = [banked, scores]
    frame: dict[str, Any] = {"k": k, "r": v.round, "a": max(0, v.air), "c": v.current_player, "s": v.step}
    if prev is None:
        frame.update(P=path, D=divers, B=bank)
    else:
        if len(path) != len(prev["path"]):
            frame["P"] = path
        else:
            pd = [[i, x] for i, (x, y) in enumerate(zip(path, prev["path"])) if x != y]
            if pd:
                frame["pd"] = pd
        dd = [[q, d] for q, (d, e) in enumerate(zip(divers, prev["divers"])) if d != e]
        if dd:
            frame["dd"] = dd
        if bank != prev["bank"]:
            frame["B"] = bank
    if turn is not None:
        dice = list(turn.get("dice") or ())
        frame["t"] = [seat, int(bool(turn.get("back", False))), dice, _search_text(turn.get("search", "none"))]
    if v.finished:
        frame["o"] = 1
        frame["w"] = list(v.winners) if None not in scores else []
    return frame, {"path": path, "divers": divers, "bank": bank}


class HistoryBuilder:
    """The game's past as compact frames, one per completed turn, built incrementally.

    Frame ``k`` is the board after ``k`` turns: exactly the game that a
    record of the first ``k`` turns replays to (it is replayed from the
    record's turns).  Frames of completed rounds are in :attr:`done` (one
    chunk per round, unchanged once the round is over); the current round's
    frames are in :attr:`tail`.  So while a round is played only the small
    tail changes, and the widget syncs the two as separate traits.

    A chunk is ``{"paths": [...], "banks": [...], "frames": [...]}``.  Chip
    values appear only where :func:`known_values` allows them *in that
    frame's state* (levels only unless revealed).
    """

    def __init__(self, *, viewer: int | None = None, reveal_all: bool = False) -> None:
        self.viewer = viewer
        self.reveal_all = reveal_all
        self.done: list[dict[str, Any]] = []
        self.tail: dict[str, Any] = _new_chunk()
        self._replay: Game | None = None
        self._turns: list[dict[str, Any]] = []
        self._setup: Any = None
        self._prev: dict[str, Any] | None = None

    @property
    def n_turns(self) -> int:
        return len(self._turns)

    def reset(self) -> None:
        self.done, self.tail, self._replay, self._turns, self._setup = [], _new_chunk(), None, [], None
        self._prev = None

    def update(self, game: Game, *, viewer: int | None = None, reveal_all: bool = False) -> bool:
        """Bring the frames up to ``game``'s completed turns; True if anything changed."""
        from .rules import Game as _Game

        turns = game._turns
        if turns is None:
            return False
        changed = False
        if (
            self._replay is None
            or viewer != self.viewer
            or bool(reveal_all) != self.reveal_all
            or (game.setup is not self._setup and game.setup != self._setup)
            or len(turns) < len(self._turns)
            or (self._turns and turns[len(self._turns) - 1] != self._turns[-1])
        ):
            self.reset()
            self.viewer, self.reveal_all, self._setup = viewer, bool(reveal_all), game.setup
            self._replay = _Game(game.setup, events=False)
            self._add(None, None)
            changed = True
        for t in turns[len(self._turns):]:
            seat = self._replay.current_player
            self._replay.play_turn(back=t.get("back", False), dice=t["dice"], search=t.get("search", "none"))
            self._turns.append(dict(t))
            self._add(t, seat)
            changed = True
        return changed

    def _add(self, turn: Mapping[str, Any] | None, seat: int | None) -> None:
        g = self._replay
        assert g is not None
        frames = self.tail["frames"]
        if frames and frames[0]["r"] != g.round and not g.is_over:
            self.done.append(self.tail)
            self.tail = _new_chunk()
            self._prev = None
        frame, self._prev = history_frame(g, len(self._turns), viewer=self.viewer, reveal_all=self.reveal_all,
                                          turn=turn, seat=seat, prev=self._prev)
        self.tail["frames"].append(frame)

    def game_after(self, k: int) -> Game:
        """A fresh game after the first ``k`` recorded turns (a copy: change it freely)."""
        from .rules import Game as _Game

        if not 0 <= k <= len(self._turns):
            raise ValueError(f"turn {k} is not in the history (turns 0..{len(self._turns)})")
        g = _Game(self._setup)
        for t in self._turns[:k]:
            g.play_turn(back=t.get("back", False), dice=t["dice"], search=t.get("search", "none"))
        return g

    def traits(self) -> tuple[dict[str, Any], dict[str, Any]]:
        """``(history, history_tail)`` as the widget syncs them."""
        # new containers every time: a trait only syncs when its value compares unequal to the old one
        return (
            {"v": HISTORY_SCHEMA, "chunks": list(self.done), "n": sum(len(c["frames"]) for c in self.done)},
            {"v": HISTORY_SCHEMA, "start": sum(len(c["frames"]) for c in self.done),
             "frames": list(self.tail["frames"])},
        )


def _new_chunk() -> dict[str, Any]:
    return {"frames": []}


def expand_frames(history: Mapping[str, Any], tail: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The frames of the two history traits as board states (what the front end draws).

    Each has ``turn``, ``round``, ``air``, ``current``, ``step``, ``over``,
    ``winners``, ``path``, ``divers`` (``pos``/``up``/``home``/``items``),
    ``banked``, ``scores`` (the keys of :func:`build_state`) and
    ``last_turn`` (``[seat, back, dice, search]`` of the turn that led here,
    or ``None``).  ``js/history.js`` decodes the same way in the browser.
    """
    out = []
    for ch in [*history.get("chunks", ()), tail]:
        path: list[Any] = []
        divers: list[Any] = []
        bank: list[Any] = [[], []]
        for f in ch.get("frames", ()):
            if "P" in f:
                path = list(f["P"])
            for i, x in f.get("pd", ()):
                path[i] = x
            if "D" in f:
                divers = list(f["D"])
            for q, d in f.get("dd", ()):
                divers[q] = d
            if "B" in f:
                bank = f["B"]
            out.append({
                "turn": f["k"], "round": f["r"], "air": f["a"], "current": f["c"], "step": f["s"],
                "over": bool(f.get("o", 0)), "winners": list(f.get("w", [])),
                "path": list(path),
                "divers": [{"pos": d[0], "up": bool(d[1]), "home": bool(d[2]), "items": d[3]} for d in divers],
                "banked": bank[0], "scores": bank[1], "last_turn": f.get("t"),
            })
    return out


# ---------------------------------------------------------------------- probability overlays

#: the whole overlay aims to take at most this many ms (a move's budget is 100 ms; the board is sent first)
OVERLAY_MS = 50
#: the exact home-chance DP gives up beyond this many states (a few ms) ...
OVERLAY_MAX_STATES = 2_500
#: ... and the exact sums together get at most this many ms: the choices left are estimated
OVERLAY_HOME_MS = 20

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

    ``now``; ``per_round``: what one round of turns breathes; ``mine``: what he breathes;
    ``next``: the air at the start of his next turn, before he breathes (``None`` when the round
    ends first); ``turns_left``: how many more turns he starts before the round ends
    (``None``: the air never drops).

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], path=[(1, 0)] * 12, air=5, seed=0)
    >>> g.play_turn(dice=(1, 1), search="take"); g.play_turn(dice=(1, 1), search="take")
    >>> f = air_forecast(g.view(0)); f["now"], f["per_round"], f["next"], f["turns_left"]
    (5, 2, 3, 2)
    """
    seat = view.current_player
    loads = [len(c) for c in view.carrying]
    n = len(loads)
    per_round = sum(k for q, k in enumerate(loads) if not view.returned[q])
    air = view.air
    out: dict[str, Any] = {"now": max(0, air), "per_round": per_round, "mine": loads[seat],
                           "next": None, "turns_left": None, "note": AIR_ASSUMPTION}
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


#: playouts behind a live estimate when the exact home chance is out of reach: at most ...
OVERLAY_PLAYOUTS = 400
#: ... and at least (fewer when time runs short; the interval shows it)
OVERLAY_MIN_PLAYOUTS = 100


def _home_estimate(view: Any, seat: int, choice: str, seconds: float) -> list[float] | None:
    """``[chance, low, high, playouts]`` for ``choice`` by simulation (public facts only)."""
    import random

    from .analysis import AnalysisError
    from .analysis.estimate import estimate_home_chance

    g = view.sample(random.Random(0))  # hidden values play no part in getting home
    if choice != "roll":
        g._apply(choice)
    if g.is_over or (g.round != view.round):
        return None
    try:
        est = estimate_home_chance(g, seat=seat, playouts=OVERLAY_PLAYOUTS, seed=1, max_seconds=seconds,
                                   min_playouts=OVERLAY_MIN_PLAYOUTS)
    except AnalysisError:
        return None
    lo, hi = est.interval
    return [round(est.chance, 4), round(lo, 4), round(hi, 4), est.playouts]


#: JavaScript numbers hold integers exactly up to this
_JS_SAFE_INT = 2**53 - 1


def _frac(x: Any) -> list[int | str]:
    """``[num, den]``; as decimal strings when either is beyond JavaScript's exact integers
    (the front end reads those with BigInt: nothing is rounded on the way)."""
    num, den = int(x.numerator), int(x.denominator)
    if den > _JS_SAFE_INT or abs(num) > _JS_SAFE_INT:
        return [str(num), str(den)]
    return [num, den]


def overlay_for(game: Game, real: Game | None = None, viewer: int | None = None) -> dict[str, Any]:
    """The live probability overlay for the player to move in ``game``.

    * ``landing``: for each legal swim choice, ``[[space, num, den], ...]``
      (:func:`~dsa_widget.deep_sea.analysis.landing_distributions`; space 0 = the submarine);
    * ``home``: for each legal choice, the exact chance ``[num, den]`` that the
      player to move is back when the round ends
      (:func:`~dsa_widget.deep_sea.analysis.home_chances`, ``others="home"``), or
      ``None`` with ``home_note`` when the exact sum is too big for a live overlay;
    * ``air``: now, the breath per round of turns, the forecast at the
      player's next turn;
    * ``carry``: the expected value of what he carries, from the viewer's
      knowledge (``real``'s, for a what-if branch: a branch never tells more
      than the real game).

    Only public information and the knowing seat's :class:`~dsa_widget.deep_sea.view.View`
    are used: never a hidden value.
    """
    from .analysis import AnalysisError, home_chance, landing_distributions
    from .analysis.values import item_value

    seat = game.current_player
    if seat is None:
        return {"seat": None}
    view = game.view(seat)
    out: dict[str, Any] = {"seat": seat, "step": view.step}
    out["landing"] = {c: [[pos, *_frac(p)] for pos, p in d.items()] for c, d in landing_distributions(view).items()}
    home: dict[str, Any] = {}
    t0 = time.perf_counter()
    for c in view.legal:
        left = OVERLAY_HOME_MS / 1000 - (time.perf_counter() - t0)
        if left <= 0:
            home[c] = None
            continue
        try:
            home[c] = _frac(home_chance(view, choice=c, others="home", max_states=OVERLAY_MAX_STATES,
                                        max_seconds=left))
        except AnalysisError:
            home[c] = None
    if None in home.values():
        # Too many cases for a live exact sum: estimate those choices by simulation instead,
        # shown with its 95% interval (every number on screen is exact or carries its interval),
        # sharing what is left of the overlay's time.
        todo = [c for c, v in home.items() if v is None]
        est: dict[str, Any] = {}
        for i, c in enumerate(todo):
            left = OVERLAY_MS / 1000 - (time.perf_counter() - t0)
            est[c] = _home_estimate(view, seat, c, max(0.0, left / (len(todo) - i)))
        out["home_est"] = est
        counts = sorted({e[3] for e in est.values() if e})
        note = "too many cases for a live exact figure; home_chance() in a cell gives it exactly"
        if counts:
            many = f"{counts[0]:,}" if len(counts) == 1 else f"{counts[0]:,}–{counts[-1]:,}"
            note = f"≈ estimated from {many} playouts (95% interval): {note}"
        out["home_note"] = note
    out["home"] = home
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
