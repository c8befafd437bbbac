"""Inference from *how* the cards were played: holding chances weighted by a model of the players.

:func:`~dsa_widget.crew.analysis.holding_chances` counts every deal that fits what was seen as
equally likely: it uses *which* cards were played (a seat that did not follow has none of the
colour) but not *why*.  Here a play model says how likely a seat was to play the card it played,
given the hand it held then, and each fitting deal is weighted by the product of those
likelihoods over the observed plays (Bayes' rule: prior = the fitting deals, equally likely;
likelihood = the play model).

* :func:`lowest_card`, :func:`random_card`, :func:`any_card` — three play models;
* :func:`observed_plays` — the plays a seat's view shows, in order (public information only);
* :func:`behaviour_chances` — per hidden card, the chance each seat holds it under a play model:
  exact over all fitting deals when they are few (fractions), else a weighted sample;
* :func:`calibration_points`, :func:`calibration_bins`, :func:`calibration_svg` — how well the
  predicted chances match the real holdings over many engine games (deals from
  :class:`~dsa_widget.crew.rules.CrewGame`, not from the model's own sampler).

Restricted choice in one line: Bob holds B3 and one of B4, G1, G2 (three fitting deals) and
follows a blue lead with B3.  If he plays any legal card at random, with B3 and B4 he had a
choice (chance 1/2 to play B3), with a green card none (chance 1): B4 is now 1/5, not 1/3.

>>> from fractions import Fraction
>>> from dsa_widget.crew.cards import card, mask_of
>>> from dsa_widget.crew.knowledge import Knowledge
>>> pool = mask_of(["B4", "G1", "G2"])
>>> k = Knowledge(seats=3, viewer=0, pool=pool, slots=(0, 1, 2), known=(mask_of(["P9"]), 0, 0),
...               allowed=(0, pool, pool))
>>> plays = [Play(seat=0, card=card("B1"), lead=None), Play(seat=1, card=card("B3"), lead=card("B1"))]
>>> behaviour_chances(k, plays, random_card())["B4"][1]
Fraction(1, 5)
>>> behaviour_chances(k, plays, any_card())["B4"][1]
Fraction(1, 3)
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ...core.progress import Progress
from ...core.stats import wilson
from ..cards import DECK, NCARDS, SUIT_MASK, bits
from ..knowledge import Knowledge, count_deals, sample_deal
from ..view import CrewView
from .holding import holding_chances

__all__ = [
    "Bin",
    "InferenceError",
    "CalibrationPoint",
    "Play",
    "PlayModel",
    "any_card",
    "behaviour_chances",
    "calibration_bins",
    "calibration_points",
    "calibration_svg",
    "likelihood",
    "deals",
    "legal_cards",
    "lowest_card",
    "lowest_card_bot",
    "observed_plays",
    "random_card",
]

#: a play model: (the hand held, the legal cards of it, the card played) -> chance of that card
PlayModel = Callable[[int, int, int], Fraction | float]

_SUITS = tuple(SUIT_MASK[s] for s in "PYBGS")

#: the most fitting deals :func:`behaviour_chances` lists one by one for an exact answer
EXACT_LIMIT = 20_000


class InferenceError(ValueError):
    """Bad input to an inference function (nothing is changed)."""


@dataclass(frozen=True)
class Play:
    """One observed play: ``seat`` played ``card`` (an int 0-39) to a trick whose first card was
    ``lead`` (None: this card led the trick)."""

    seat: int
    card: int
    lead: int | None


def _suit_mask(c: int) -> int:
    return _SUITS[4] if c >= 36 else _SUITS[c // 9]


def legal_cards(hand: int, lead: int | None) -> int:
    """The cards of ``hand`` (a mask) that may be played to a trick led by ``lead`` (R-10.2: follow
    the led colour when you can; anything when you lead or cannot follow).

    >>> from dsa_widget.crew.cards import card, mask_of, names
    >>> names(legal_cards(mask_of(["B3", "B7", "G2"]), card("B1")))
    ['B3', 'B7']
    >>> names(legal_cards(mask_of(["B3", "G2"]), card("P5")))
    ['B3', 'G2']
    """
    if lead is None:
        return hand
    follow = hand & _suit_mask(lead)
    return follow if follow else hand


def _low_key(c: int) -> tuple[int, int, int]:
    """Lowest first: coloured cards by rank (pink, yellow, blue, green within a rank), then the
    submarines."""
    return (1, c, 0) if c >= 36 else (0, c % 9, c // 9)


def lowest_card(epsilon: Fraction | float = 0) -> PlayModel:
    """The model "plays the lowest legal card" (lowest rank; a submarine only when nothing else is
    legal), except that with chance ``epsilon`` it plays any legal card at random."""
    if not 0 <= epsilon <= 1:
        raise InferenceError(f"epsilon must be a chance 0-1, not {epsilon!r}")
    eps: Fraction | float = Fraction(epsilon) if isinstance(epsilon, int) else epsilon

    def model(hand: int, legal: int, played: int) -> Fraction | float:
        options = bits(legal)
        low = min(options, key=_low_key)
        return (1 - eps) * (played == low) + eps / len(options)

    return model


def random_card() -> PlayModel:
    """The model "plays any legal card, each equally likely" (the source of restricted choice)."""

    def model(hand: int, legal: int, played: int) -> Fraction:
        return Fraction(1, legal.bit_count())

    return model


def any_card() -> PlayModel:
    """The model that tells nothing: every play has likelihood 1 (gives the uniform answer)."""

    def model(hand: int, legal: int, played: int) -> Fraction:
        return Fraction(1)

    return model


def observed_plays(view: CrewView) -> list[Play]:
    """Every card played so far, in order, as ``view`` shows it (completed tricks, then the
    trick in progress): public information only."""
    out: list[Play] = []
    tricks = [t.plays for t in view.all_tricks] + [view.current_trick]
    for plays in tricks:
        lead: int | None = None
        for seat, c in plays:
            out.append(Play(seat, c, lead))
            if lead is None:
                lead = c
    return out


def _check(k: Knowledge, plays: Sequence[Play]) -> None:
    for p in plays:
        if not isinstance(p, Play) or not 0 <= p.seat < k.seats or not 0 <= p.card < NCARDS:
            raise InferenceError(f"not a play of this game: {p!r}")
        if k.pool >> p.card & 1 or any(m >> p.card & 1 for m in k.known):
            raise InferenceError(f"{DECK[p.card]} is listed as played but the knowledge has it unplayed")


def likelihood(hands: Sequence[int], plays: Sequence[Play], model: PlayModel) -> Fraction | float:
    """The chance, under ``model``, that seats holding ``hands`` now (masks of unplayed cards)
    made ``plays``: each seat's hand at a play is its hand now plus the cards it played from
    that play on."""
    held = list(hands)
    result: Fraction | float = Fraction(1)
    for p in reversed(plays):
        held[p.seat] |= 1 << p.card
        hand = held[p.seat]
        result *= model(hand, legal_cards(hand, p.lead), p.card)
        if not result:
            return result
    return result


def deals(k: Knowledge) -> Iterator[tuple[int, ...]]:
    """Every deal consistent with ``k`` (per seat, the mask of pool cards it gets), one by one:
    for small cases (counting them first with :func:`~dsa_widget.crew.knowledge.count_deals`)."""
    cards = bits(k.pool)
    order = range(k.seats)

    def fits(hands: list[int]) -> bool:
        for s, masks in k.alternatives:
            if all(hands[s] & m for m in masks):
                return False
        for s, m in k.requires:
            if not hands[s] & m:
                return False
        return all(hands[s] & m != m for s, m in k.forbids)

    def rec(i: int, hands: list[int], left: list[int]) -> Iterator[tuple[int, ...]]:
        if i == len(cards):
            if fits(hands):
                yield tuple(hands)
            return
        c = cards[i]
        for s in order:
            if left[s] and k.allowed[s] >> c & 1:
                hands[s] |= 1 << c
                left[s] -= 1
                yield from rec(i + 1, hands, left)
                left[s] += 1
                hands[s] &= ~(1 << c)

    yield from rec(0, [0] * k.seats, list(k.slots))


def behaviour_chances(
    k: Knowledge,
    plays: Sequence[Play],
    model: PlayModel,
    *,
    samples: int | None = None,
    seed: int = 0,
) -> dict[str, list[Any]]:
    """Per unplayed card (the pool, then the known cards at 1 and 0, in deck order as
    :func:`~dsa_widget.crew.analysis.holding_chances` gives them), the chance each seat holds
    it when the fitting deals are
    weighted by the likelihood of ``plays`` under ``model``.

    ``samples=None``: exact, over every fitting deal (at most :data:`EXACT_LIMIT`; fractions
    when the model gives fractions).  Else ``samples`` deals drawn from the fitting deals (each
    equally likely, seeded), each weighted by its likelihood (floats).  Raises
    :class:`InferenceError` when no fitting deal makes the plays possible under the model.
    """
    _check(k, plays)
    if samples is None:
        n = count_deals(k)
        if n > EXACT_LIMIT:
            raise InferenceError(f"{n:,} deals fit: too many to list; pass samples=… for an estimate")
        source: Iterator[tuple[int, ...]] = deals(k)
    else:
        if samples < 1:
            raise InferenceError(f"samples must be at least 1, not {samples!r}")
        rng = random.Random(seed)
        source = (sample_deal(k, rng) for _ in range(samples))
    cards = bits(k.pool)
    mass: dict[int, list[Any]] = {c: [0] * k.seats for c in cards}
    total: Fraction | float = 0
    for d in source:
        w = likelihood([d[s] | k.known[s] for s in range(k.seats)], plays, model)
        if samples is not None:
            w = float(w)
        if not w:
            continue
        total += w
        for s in range(k.seats):
            for c in bits(d[s]):
                mass[c][s] += w
    if not total:
        raise InferenceError("no fitting deal makes these plays possible under this model")
    out: dict[int, list[Any]] = {c: [m / total for m in mass[c]] for c in cards}
    one = Fraction(1) if samples is None else 1.0
    for s, m in enumerate(k.known):
        for c in bits(m):
            out[c] = [one * (t == s) for t in range(k.seats)]
    return {DECK[c]: out[c] for c in sorted(out)}


# ---------------------------------------------------------------------------------------------
# Calibration against the engine's games
# ---------------------------------------------------------------------------------------------


def lowest_card_bot(epsilon: float, rng: random.Random) -> Callable[[CrewView, tuple[str, ...]], str]:
    """A bot that plays by :func:`lowest_card` (chance ``epsilon`` of a random legal card), never
    communicates nor asks for the distress signal: the partners whose play the model describes."""

    def bot(view: CrewView, legal: tuple[str, ...]) -> str:
        plays = [a for a in legal if a.startswith("play ")]
        if plays:
            if rng.random() < epsilon:
                return rng.choice(plays)
            return min(plays, key=lambda a: _low_key(DECK.index(a[5:])))
        for quiet in ("no distress", "pass"):
            if quiet in legal:
                return quiet
        return legal[0]

    return bot


@dataclass(frozen=True)
class CalibrationPoint:
    """One prediction checked: after ``trick`` tricks the viewer gave ``uniform`` (every fitting
    deal alike) and ``behaviour`` (weighted by the play model) to ``seat`` holding ``card``;
    ``held`` is the truth; ``below_followed``: the seat followed this card's colour with a
    higher card earlier (under "lowest card" it would rather have played this one)."""

    game: int
    trick: int
    seat: int
    card: str
    uniform: float
    behaviour: float
    held: bool
    below_followed: bool


def calibration_points(
    games: int,
    *,
    epsilon: float = 0.2,
    play_epsilon: float | None = None,
    after: Sequence[int] = (3, 6),
    samples: int = 300,
    seed: int = 0,
    progress: bool = True,
) -> list[CalibrationPoint]:
    """Play ``games`` four-seat games of the engine (its own deals; one task, "win the last
    trick", to seat 0, so every game goes to the end), every seat played by
    :func:`lowest_card_bot` with slip ``play_epsilon`` (default: the model's ``epsilon``; give
    another to test the model against players it does not describe); after each number of
    tricks in ``after``, seat 0 predicts from its own view who holds each hidden card, both ways
    (the model: :func:`lowest_card` with ``epsilon``); the truth is read from the game."""
    if games < 1:
        raise InferenceError(f"games must be at least 1, not {games!r}")
    from ...core.bots import play_bot_move
    from ..rules import CrewGame

    model = lowest_card(epsilon)
    out: list[CalibrationPoint] = []
    bar = Progress(games, enabled=progress, unit="games")
    for i in range(games):
        rng = random.Random(seed * 1_000_003 + i)
        game = CrewGame(4, tasks=[73], assignment={73: 0}, seed=rng.getrandbits(48))
        bot = lowest_card_bot(epsilon if play_epsilon is None else play_epsilon, rng)
        while not game.is_over:
            view = game.view(0)
            if view.step == "play" and not view.current_trick and len(view.all_tricks) in after:
                truth = [set(game.view(s).hand or ()) for s in range(4)]
                k = view.knowledge()
                flat = holding_chances(k)
                hidden = set(DECK[c] for c in bits(k.pool))
                plays = observed_plays(view)
                followed = [0] * 4  # per seat, the cards below one it followed with
                for q in plays:
                    if q.lead is not None and _suit_mask(q.card) == _suit_mask(q.lead):
                        followed[q.seat] |= _suit_mask(q.card) & ((1 << q.card) - 1)
                fitted = behaviour_chances(k, plays, model, samples=samples, seed=i)
                for name, per_seat in flat.items():
                    if name not in hidden:
                        continue
                    for s in range(1, 4):
                        out.append(
                            CalibrationPoint(
                                i,
                                len(view.all_tricks),
                                s,
                                name,
                                float(per_seat[s]),
                                float(fitted[name][s]),
                                name in truth[s],
                                bool(followed[s] >> DECK.index(name) & 1),
                            )
                        )
            play_bot_move(game, bot)
        bar.update(i + 1)
    bar.close()
    return out


@dataclass(frozen=True)
class Bin:
    """Predictions between ``low`` and ``high``: how many, their mean, how often the card was
    held, and that frequency's 95% Wilson interval."""

    low: float
    high: float
    n: int
    predicted: float
    observed: float
    interval: tuple[float, float]


def calibration_bins(points: Sequence[CalibrationPoint], which: str, bins: int = 10) -> list[Bin]:
    """Group the predictions of ``which`` ("uniform" or "behaviour") into ``bins`` equal ranges
    of probability; empty ranges are left out."""
    if which not in ("uniform", "behaviour"):
        raise InferenceError(f"which must be 'uniform' or 'behaviour', not {which!r}")
    groups: list[list[CalibrationPoint]] = [[] for _ in range(bins)]
    for p in points:
        x = getattr(p, which)
        groups[min(bins - 1, int(x * bins))].append(p)
    out = []
    for j, g in enumerate(groups):
        if not g:
            continue
        hits = sum(p.held for p in g)
        out.append(
            Bin(
                j / bins,
                (j + 1) / bins,
                len(g),
                sum(getattr(p, which) for p in g) / len(g),
                hits / len(g),
                wilson(hits, len(g)),
            )
        )
    return out


def calibration_svg(series: Sequence[tuple[str, Sequence[Bin]]], size: int = 320) -> str:
    """A reliability diagram as inline SVG: predicted chance (across) against how often the card
    was really held (up), one line of dots with 95% bars per series, the diagonal = perfect."""
    pad = 40
    w = size - 2 * pad

    def x(p: float) -> float:
        return pad + p * w

    def y(p: float) -> float:
        return size - pad - p * w

    dashes = ("", "5,3")
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{size + 120}" height="{size}" '
        f'viewBox="0 0 {size + 120} {size}" fill="currentColor" font-size="11" role="img">',
        "<title>calibration: predicted chance against observed frequency</title>",
        f'<rect x="{pad}" y="{pad}" width="{w}" height="{w}" fill="none" stroke="currentColor" '
        'stroke-opacity="0.4"/>',
        f'<line x1="{x(0)}" y1="{y(0)}" x2="{x(1)}" y2="{y(1)}" stroke="currentColor" stroke-opacity="0.3"/>',
        f'<text x="{size / 2}" y="{size - 8}" text-anchor="middle">predicted chance</text>',
        f'<text x="12" y="{size / 2}" text-anchor="middle" transform="rotate(-90 12 {size / 2})">'
        "how often held</text>",
    ]
    for t in (0, 0.5, 1):
        parts.append(f'<text x="{x(t)}" y="{y(0) + 14}" text-anchor="middle">{t:g}</text>')
        parts.append(f'<text x="{x(0) - 4}" y="{y(t) + 4}" text-anchor="end">{t:g}</text>')
    for i, (label, bins) in enumerate(series):
        dash = dashes[i % 2]
        pts = " ".join(f"{x(b.predicted):.1f},{y(b.observed):.1f}" for b in bins)
        parts.append(
            f'<polyline points="{pts}" fill="none" stroke="currentColor" stroke-dasharray="{dash}"/>'
        )
        for b in bins:
            lo, hi = b.interval
            parts.append(
                f'<line x1="{x(b.predicted):.1f}" y1="{y(lo):.1f}" x2="{x(b.predicted):.1f}" '
                f'y2="{y(hi):.1f}" stroke="currentColor" stroke-opacity="0.5"/>'
            )
            shape = (
                f'<circle cx="{x(b.predicted):.1f}" cy="{y(b.observed):.1f}" r="3"/>'
                if i % 2 == 0
                else f'<rect x="{x(b.predicted) - 3:.1f}" y="{y(b.observed) - 3:.1f}" width="6" height="6"/>'
            )
            parts.append(shape)
        ly = pad + 16 * i + 6
        parts.append(
            f'<line x1="{size - pad + 12}" y1="{ly}" x2="{size - pad + 32}" y2="{ly}" stroke="currentColor" '
            f'stroke-dasharray="{dash}"/><text x="{size - pad + 36}" y="{ly + 4}">{label}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)
