"""The bot protocol, the :class:`Bot` base class and the functions that let bots move, for
every game of the package.

A *bot* is any callable ``bot(view, legal) -> action``: it gets the current
player's view (``game.view(seat)``, never the game itself, so it cannot see
hidden information) and the tuple of legal actions, and returns one of them.
A plain function qualifies:

>>> from dsa_widget import Game
>>> def greedy(view, legal):
...     return "take" if "take" in legal else legal[-1]
>>> g = Game(players=["Ann", "Bob"], seed=1)
>>> play_bot_move(g, greedy)        # a chance step: the runner rolls, not the bot
'roll'
>>> play_bot_move(g, greedy)
'take'

Bots are never asked at a chance node (``game.to_move == CHANCE``): the
runner draws the outcome (from the game's own generator, or ``rng``).
Bot *names* are looked up in the game's own :class:`BotRegistry`, which the game registry
(:mod:`dsa_widget.core.registry`) names.
"""

from __future__ import annotations

import math
import numbers
import random
from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, TypeAlias

from .errors import GameError, short_repr
from .protocol import CHANCE, TERMINAL

__all__ = [
    "Bot",
    "BotError",
    "BotLike",
    "BotRegistry",
    "Played",
    "RandomBot",
    "UnknownBotError",
    "Until",
    "action_words",
    "bot_name",
    "draw_chance",
    "play_bot_move",
    "play_until",
    "resolve_bot",
]

#: Anything that can play: a callable ``(view, legal) -> action``.
BotLike = Callable[[Any, tuple[Any, ...]], Any]

#: Where :func:`play_until` stops: ``"turn"``, ``"game"`` (a game may know more words), or a
#: function of the game, true before a move it must not play.
Until: TypeAlias = str | Callable[[Any], bool]

#: The moves :func:`play_until` played: ``(seat, action)`` pairs, chance steps included.
Played: TypeAlias = list[tuple[int, Any]]


class BotError(GameError):
    """A bot failed: it raised, or returned a choice that is not legal.

    ``bot`` is the bot's name, ``seat`` and ``turn`` (1-based, ``None`` if the
    game keeps no history) say when, ``choice`` is what it returned (if it
    returned) and ``legal`` what was legal.  The game is left unchanged.
    """

    def __init__(
        self,
        message: str,
        *,
        bot: str,
        seat: int | None,
        turn: int | None,
        choice: object = None,
        legal: tuple[str, ...] = (),
    ) -> None:
        self.bot = bot
        self.seat = seat
        self.turn = turn
        self.choice = choice
        self.legal = legal
        super().__init__(message)

    def __reduce__(self) -> Any:  # picklable across tournament worker processes
        return (_rebuild_bot_error, (str(self), self.bot, self.seat, self.turn, self.choice, self.legal))


def _rebuild_bot_error(message: str, bot: str, seat: Any, turn: Any, choice: Any, legal: Any) -> BotError:
    return BotError(message, bot=bot, seat=seat, turn=turn, choice=choice, legal=legal)


class UnknownBotError(GameError, KeyError):
    """An unknown bot name or knob.  ``names`` lists what is available."""

    def __init__(self, message: str, names: tuple[str, ...] = ()) -> None:
        self.names = names
        super().__init__(message)

    def __reduce__(self) -> Any:
        return (UnknownBotError, (str(self), self.names))

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0])


def bot_name(bot: object) -> str:
    """A readable name for any bot: its ``name`` attribute, a function's
    ``__name__``, else its class name.

    >>> bot_name(lambda v, l: l[0])
    '<lambda>'
    """
    name = getattr(bot, "name", None)
    if isinstance(name, str) and name:
        return name
    name = getattr(bot, "__name__", None)
    if isinstance(name, str) and name:
        return name
    return type(bot).__name__


def action_words(view: Any, action: Any) -> str:
    """``action`` as a player says it, in the words of ``view``'s game (its registry entry's
    ``words``, from that view only); the action's code for a game that has none.

    >>> from dsa_widget.pig import PigGame
    >>> action_words(PigGame(2, seed=1).view(0), "hold")
    'hold (bank the turn total)'
    """
    from .registry import UnknownGameError, game_of

    try:
        spec = game_of(view)
    except UnknownGameError:
        return repr(action)
    return spec.action_words(action, view)


class Bot:
    """Base class of the built-in bots.

    A subclass sets ``name`` and ``summary`` (one line for menus), lists its knobs in
    ``KNOBS`` (name → default)
    and implements :meth:`decide`, which returns ``(choice, explanation)``;
    the explanation is a dict kept as :attr:`last_explanation` and rendered by
    :meth:`explain`.  Bots are seeded (``seed``), so the same seed replays the
    same game; ``spawn(seed)`` makes a fresh bot with the same knobs.
    """

    name: str = "bot"
    #: one line for menus: what the bot does, in a player's words
    summary: str = ""
    KNOBS: ClassVar[dict[str, Any]] = {}

    def __init__(self, seed: int | None = None, **knobs: Any) -> None:
        unknown = set(knobs) - set(self.KNOBS)
        if unknown:
            raise UnknownBotError(
                f"bot {self.name!r} has no knob {min(unknown)!r}; its knobs are "
                + (", ".join(f"{k}={v!r}" for k, v in self.KNOBS.items()) or "none"),
                tuple(self.KNOBS),
            )
        self.seed = seed
        self.rng = random.Random(seed)
        self.knobs: dict[str, Any] = {**self.KNOBS, **knobs}
        for k, v in self.knobs.items():
            setattr(self, k, v)
        self.last_explanation: dict[str, Any] | None = None
        #: the view of the last decision: its choices are said in words from it
        self.last_view: Any = None
        self._check_knobs()

    def _check_knobs(self) -> None:
        """Validate knob values (subclasses raise ValueError on bad ones)."""

    def _check_knob_kinds(self, keys: Sequence[str] | None = None) -> None:
        """Refuse, with a ``ValueError`` naming the knob, a value of another kind than its
        default: ``True`` or ``False`` where the default is a ``bool``, a whole number where it is
        an ``int``, a finite real number where it is a ``float`` (other defaults, ``None`` among
        them, are left to the bot).  ``keys``: the knobs to check (default: all).  Called from a
        bot's :meth:`_check_knobs`: a text or ``None`` in a number knob would fail only
        mid-game, as a ``TypeError`` inside a playout or a tournament.
        """
        for key in self.KNOBS if keys is None else keys:
            default, value = self.KNOBS[key], self.knobs[key]
            if isinstance(default, bool):
                ok, want = isinstance(value, bool), "True or False"
            elif isinstance(default, int):  # numpy's whole numbers too (a knob swept with arange)
                ok = isinstance(value, numbers.Integral) and not isinstance(value, bool)
                want = "a whole number"
            elif isinstance(default, float):
                ok = isinstance(value, numbers.Real) and not isinstance(value, bool) and math.isfinite(value)
                want = "a number"
            else:
                continue
            if not ok:
                raise ValueError(
                    f"{self.name}: {key} must be {want} (default {default!r}), got {short_repr(value)}"
                )

    def spawn(self, seed: int | None) -> Bot:
        """A fresh bot of the same kind and knobs with another seed."""
        return type(self)(seed=seed, **self.knobs)

    def decide(self, view: Any, legal: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
        raise NotImplementedError

    def __call__(self, view: Any, legal: tuple[Any, ...]) -> Any:
        choice, why = self.decide(view, legal)
        why = dict(why)
        why.setdefault("choice", choice)
        self.last_explanation = why
        self.last_view = view
        return choice

    def choice_words(self, choice: Any) -> str:
        """``choice`` as a player would say it in :meth:`explain`: the game's words
        (:func:`action_words`) from the view the bot decided on."""
        return action_words(self.last_view, choice)

    def explain(self) -> str:
        """Why the last choice was made, in words (``''`` before the first one): a first line
        ``"<name>: <the choice in the game's words> — <the reason>"`` (a choice the reason quotes
        by its code, ``'place 3'``, is said in words too), then each choice's value when the bot
        weighed them."""
        e = self.last_explanation
        if not e:
            return ""
        said = self.choice_words
        values = e.get("values")
        reason = str(e.get("reason") or "")
        for c in {e["choice"], *(values or ())}:  # a reason names a choice by its code, quoted
            if isinstance(c, str) and repr(c) in reason:
                reason = reason.replace(repr(c), said(c))
        lines = [f"{self.name}: {said(e['choice'])}" + (f" — {reason}" if reason else "")]
        if values:
            p_home = e.get("p_home", {})
            visits = e.get("visits", {})
            own = e.get("self_rollout", {})  # the own policy that valued each choice best
            width = max(len(said(c)) for c in values)
            for c, v in sorted(values.items(), key=lambda kv: -kv[1]):
                extra = []
                if c in p_home:
                    extra.append(f"back home {p_home[c]:.0%}")
                if c in visits:
                    extra.append(f"{visits[c]} visits")
                if c in own:
                    extra.append(f"own moves by {own[c]}")
                lines.append(
                    f"  {said(c):<{width}} value {v:.3f}" + (f" ({', '.join(extra)})" if extra else "")
                )
        return "\n".join(lines)

    def __repr__(self) -> str:
        changed = {k: v for k, v in self.knobs.items() if self.KNOBS.get(k) != v}
        args = [f"seed={self.seed!r}"] + [f"{k}={v!r}" for k, v in changed.items()]
        return f"{type(self).__name__}({', '.join(args)})"


class RandomBot(Bot):
    """Any legal action, uniformly at random (seeded): a game's yardstick, as it stands or
    subclassed with the game's own ``summary``.

    >>> RandomBot(seed=3)(None, ("roll", "hold")), RandomBot.name
    ('roll', 'random')
    """

    name = "random"
    summary = "any legal action at random: a yardstick"

    def decide(self, view: Any, legal: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
        return self.rng.choice(legal), {"reason": "at random"}


# ---------------------------------------------------------------------- moving


def _turn_of(game: Any) -> int:
    return int(game.turn_number) + 1


def _where(game: Any) -> str:
    p = game.current_player
    who = f"seat {p} ({game.players[p]})" if p is not None else "no seat"
    return f"{who}, turn {_turn_of(game)}"


class BotRegistry:
    """One game's built-in bots by name (the game registry names each game's):
    ``bot_class``, ``make_bot`` and ``parse_bot_spec``.

    ``names`` lists the bots (simplest first, as menus show them); ``classes`` gives the bot
    class of each name, called on first use (so that importing a registry stays cheap).

    >>> class Lazy(Bot):
    ...     name = "lazy"
    >>> reg = BotRegistry(("lazy",), lambda: {"lazy": Lazy})
    >>> reg.parse_bot_spec("lazy", seed=3).seed
    3
    >>> reg.make_bot("busy")
    Traceback (most recent call last):
    ...
    dsa_widget.core.bots.UnknownBotError: unknown bot 'busy'; available: lazy
    """

    def __init__(
        self,
        names: tuple[str, ...],
        classes: Callable[[], Mapping[str, type[Bot]]],
        summaries: Mapping[str, str] | None = None,
    ) -> None:
        self.names = names
        self._load = classes
        #: one line per bot, for menus and help
        self.summaries: dict[str, str] = dict(summaries or {})
        #: old names kept working for seats saved by earlier versions: alias -> bot name
        self.aliases: dict[str, str] = {}

    @classmethod
    def of(cls, *bots: type[Bot]) -> BotRegistry:
        """A game's registry from its bot classes, simplest first (as menus show them): each
        one's ``name`` and ``summary``.

        >>> from dsa_widget.pig.bots import HoldAtBot, RandomBot
        >>> reg = BotRegistry.of(RandomBot, HoldAtBot)
        >>> reg.names, reg.summaries["random"], reg.make_bot("hold_at_20", n=10)
        (('random', 'hold_at_20'), 'rolls or holds at random: a yardstick', HoldAtBot(seed=None, n=10))
        """
        classes = {b.name: b for b in bots}
        return cls(tuple(classes), lambda: classes, {b.name: b.summary for b in bots})

    def bot_class(self, name: str) -> type[Bot]:
        """The class behind a bot name (raises :class:`UnknownBotError`)."""
        classes = self._load()
        if isinstance(name, str) and name not in classes:
            name = self.aliases.get(name, name)
        if not isinstance(name, str) or name not in classes:
            raise UnknownBotError(f"unknown bot {name!r}; available: {', '.join(self.names)}", self.names)
        return classes[name]

    def make_bot(self, name: str, seed: int | None = None, **knobs: Any) -> Bot:
        """A new built-in bot by name, seeded, with optional knobs."""
        return self.bot_class(name)(seed=seed, **knobs)

    def parse_bot_spec(self, spec: str, seed: int | None = None) -> Bot:
        """A bot from a spec ``name`` or ``name:knob=value,knob=value`` (values are read as
        int, float, true/false, none, else kept as text)."""
        name, _, rest = spec.partition(":")
        knobs: dict[str, Any] = {}
        for part in filter(None, rest.split(",")):
            key, eq, value = part.partition("=")
            if not eq:
                raise UnknownBotError(f"bot spec {spec!r}: expected knob=value, got {part!r}", self.names)
            knobs[key.strip()] = _spec_value(value.strip())
        return self.make_bot(name.strip(), seed=seed, **knobs)


def _spec_value(text: str) -> Any:
    for conv in (int, float):
        try:
            return conv(text)
        except ValueError:
            pass
    if text.lower() in ("true", "false"):
        return text.lower() == "true"
    if text.lower() == "none":
        return None
    return text


def resolve_bot(bot: Any, game_type: type, seed: int | None = None) -> Any:
    """A bot from a callable (as it is) or a bot spec of ``game_type``'s game (its
    :class:`BotRegistry` in the game registry)."""
    if isinstance(bot, str):
        from .registry import game_of

        return game_of(game_type).bot_registry().parse_bot_spec(bot, seed=seed)
    if not callable(bot):
        raise TypeError(f"a bot must be callable as bot(view, legal) or a bot name, got {bot!r}")
    return bot


def draw_chance(outcomes: Sequence[tuple[Any, Fraction]], rng: random.Random) -> Any:
    """One outcome of a chance node drawn with ``rng`` by its probability."""
    first = outcomes[0][1]
    if all(p == first for _, p in outcomes):
        return rng.choice(outcomes)[0]
    x = Fraction(rng.random())
    for outcome, p in outcomes:
        x -= p
        if x < 0:
            return outcome
    return outcomes[-1][0]


def play_bot_move(game: Any, bot: Any, *, rng: random.Random | None = None) -> Any:
    """Make one decision for the current player and apply it; return the action.

    At a chance node the outcome is drawn (with ``rng`` if given, else the game's own
    generator) and the game's ``CHANCE_ACTION`` (``'roll'`` for Deep Sea Adventure) is
    returned: bots are never asked.  Otherwise ``bot(game.view(seat), legal)`` is asked;
    ``bot`` may be a bot name of the game.  If the bot raises or returns an illegal action,
    :class:`BotError` names the bot and the turn and the game is unchanged.

    >>> from dsa_widget import Game
    >>> g = Game(players=2, seed=3)
    >>> play_bot_move(g, "random"), g.step
    ('roll', 'search')
    >>> play_bot_move(g, lambda view, legal: "dive!")
    Traceback (most recent call last):
    ...
    dsa_widget.core.bots.BotError: bot '<lambda>' returned 'dive!', which is not legal at seat 0 (Player 1), turn 1; legal: 'none', 'take'
    """
    to_move = game.to_move
    if to_move == TERMINAL:
        raise BotError("the game is over; no bot can move", bot=bot_name(bot), seat=None, turn=_turn_of(game))
    if to_move == CHANCE:
        if rng is None:
            game.sample_chance()
        else:
            game.apply_chance(draw_chance(game.chance_outcomes(), rng))
        return type(game).CHANCE_ACTION
    bot = resolve_bot(bot, type(game))
    seat: int = to_move
    legal = game.legal_actions()
    view = game.view(seat)
    name = bot_name(bot)
    try:
        choice = bot(view, legal)
    except Exception as e:
        raise BotError(
            f"bot {name!r} raised {type(e).__name__}: {e} at {_where(game)}",
            bot=name,
            seat=seat,
            turn=_turn_of(game),
            legal=legal,
        ) from e
    if choice not in legal:
        shown = ", ".join(repr(c) for c in legal)
        raise BotError(
            f"bot {name!r} returned {choice!r}, which is not legal at {_where(game)}; legal: {shown}",
            bot=name,
            seat=seat,
            turn=_turn_of(game),
            choice=choice,
            legal=legal,
        )
    game.apply(choice)
    return choice


def _seat_map(game: Any, bots: Any) -> dict[int, Any]:
    n = len(game.players)
    kind = type(game)
    if isinstance(bots, Mapping):
        out = {}
        for k, b in bots.items():
            if isinstance(k, str) and k in game.players:
                k = game.players.index(k)
            if not isinstance(k, int) or not 0 <= k < n:
                raise ValueError(f"bots must be keyed by seat 0..{n - 1} or player name, got {k!r}")
            out[k] = resolve_bot(b, kind)
        return out
    if isinstance(bots, (list, tuple)):
        if len(bots) != n:
            raise ValueError(f"{len(bots)} bots given for {n} seats; use a mapping seat -> bot to seat some")
        return {i: resolve_bot(b, kind) for i, b in enumerate(bots) if b is not None}
    return {i: resolve_bot(bots, kind) for i in range(n)}


def play_until(game: Any, bots: Any, until: Until = "turn", *, rng: random.Random | None = None) -> Played:
    """Let the seated bots play until the end of the ``"turn"`` or the ``"game"``, or until a
    seat without a bot must act.

    ``bots`` maps seats (or player names) to bots or bot names; a list gives
    one bot per seat (``None`` for a human) and a single bot plays every
    seat.  Returns the ``(seat, action)`` pairs applied, chance steps included.

    >>> from dsa_widget import Game
    >>> g = Game(players=["Ann", "Bob"], seed=2)
    >>> moves = play_until(g, {0: "random", 1: "baseline"}, until="game")
    >>> g.is_over, len(moves) > 10
    (True, True)
    >>> g = Game(players=["Ann", "Bob"], seed=2)
    >>> play_until(g, {1: "random"}, until="game")   # Ann (seat 0) is human: nothing to do
    []

    ``until`` may also be a function of the game: play stops before a move once it is true.
    """
    if not (until in ("turn", "game") or callable(until)):
        raise ValueError(f"until must be 'turn', 'game' or a function of the game, got {until!r}")
    seats = _seat_map(game, bots)
    done: Played = []
    while not game.is_over:
        p = game.current_player
        if until == "turn" and done and game.at_turn_boundary:
            break
        if callable(until) and until(game):
            break
        if p not in seats:
            break
        done.append((p, play_bot_move(game, seats[p], rng=rng)))
    return done
