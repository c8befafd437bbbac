"""The game registry: every game of the package is declared here once, and everything that
is not one game's rules (records, ``replay``, the command line, the seat server, the
adapters, the contract tests) finds the games through it.

A game is a folder (``dsa_widget/<folder>/``) with a ``registration.py`` whose ``GAME`` is a
:class:`GameSpec`.  A spec names the game's parts as ``"module:attribute"`` strings, so
reading the registry imports no rules, bots or widget code until a part is asked for:

>>> [g.name for g in games()]
['deep-sea', 'crew', 'submarine', 'pig']
>>> spec = game("crew")
>>> spec.title, spec.record_format, spec.seats
('The Crew: Mission Deep Sea', 'the-crew-deep-sea/record@1', (2, 5))
>>> game("chess")
Traceback (most recent call last):
...
dsa_widget.core.registry.UnknownGameError: unknown game 'chess'; games: deep-sea, crew, submarine, pig

A game outside the package registers itself with :func:`register_game` (its module calls it
when imported).
"""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import GameError, SetupError, is_int

__all__ = [
    "GameSpec",
    "Option",
    "UnknownGameError",
    "game",
    "game_of",
    "games",
    "register_game",
]


class UnknownGameError(GameError):
    """A game name the registry does not know."""


#: the platform's seat server, every game's unless it names its own (``GameSpec.table``)
_SESSION_TABLE = "dsa_widget.server.session_table:SessionTable"


def check_setup_keys(
    make: Callable[..., Any],
    setup: Mapping[str, Any],
    shown_without: tuple[str, ...] = (),
    passes_to: Callable[..., Any] | None = None,
) -> None:
    """Raise a :class:`~dsa_widget.core.errors.SetupError` (a ``ValueError``) naming a key of
    ``setup`` that ``make`` (a game class or factory) takes no keyword for, and the keys it
    takes (less ``shown_without``): setups come as data (a cell's dict, a tournament's setups, a
    served table's settings), and Python's ``TypeError`` for an unexpected keyword would name
    neither.  A ``make`` that takes ``**kwargs`` checks its own keys, unless it hands them on to
    ``passes_to`` (a factory to its game class): then the keys of both are known.

    >>> from dsa_widget.pig import Game
    >>> check_setup_keys(Game, {"players": 3, "goal": 50})
    >>> check_setup_keys(Game, {"gaol": 50})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    dsa_widget.core.errors.SetupError: setup key 'gaol': unknown; the keys are players, goal, seed, ...
    """
    keyword = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    known: list[str] = []
    for f in (make,) if passes_to is None else (make, passes_to):
        try:
            params = inspect.signature(f).parameters.values()
        except (TypeError, ValueError):  # a callable Python cannot read: it checks its own keys
            return
        known += [p.name for p in params if p.kind in keyword and p.name not in known]
        if not any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params):
            break
    else:  # the last callable asked takes **kwargs: it checks its own keys
        return
    for key in setup:
        if key not in known:
            shown = ", ".join(k for k in known if k not in shown_without and not k.startswith("_"))
            raise SetupError(f"setup key {key!r}: unknown; the keys are {shown}", key)


def _resolve(ref: str) -> Any:
    """The object a ``"module:attribute"`` reference names (imported on first use)."""
    mod, _, attr = ref.partition(":")
    obj: Any = importlib.import_module(mod)
    for part in filter(None, attr.split(".")):
        obj = getattr(obj, part)
    return obj


@dataclass(frozen=True)
class Option:
    """One rule option of a game, as a setup form shows it.

    ``choices`` pairs each allowed value with its words (the default first is not required:
    ``default`` says which); an option with no choices takes an integer between ``minimum``
    and ``maximum``.

    >>> Option("air", "Air per round", 25, minimum=1, maximum=99).describe(25)
    '25'
    >>> Option("reveal", "Who sees banked chips", "public",
    ...        choices=(("public", "everyone"), ("owner", "only their owner"))).describe("owner")
    'only their owner'
    """

    key: str
    label: str
    default: Any
    choices: tuple[tuple[Any, str], ...] = ()
    help: str = ""
    minimum: int | None = None
    maximum: int | None = None

    def describe(self, value: Any) -> str:
        """The words for one value of this option."""
        for v, words in self.choices:
            if v == value:
                return words
        return str(value)

    def check(self, value: Any) -> Any:
        """``value`` if this option takes it, else a ``ValueError`` that says what it takes
        (one of the choices; or a whole number in range, or nothing where the default is
        nothing).

        >>> Option("air", "Air per round", 25, minimum=1, maximum=99).check(0)
        Traceback (most recent call last):
        ...
        ValueError: Air per round is a whole number from 1 to 99
        """
        if self.choices:
            if any(value == v and type(value) is type(v) for v, _ in self.choices):
                return value
            raise ValueError(f"{self.label}: one of {', '.join(words for _, words in self.choices)}")
        if value is None and self.default is None:
            return value
        lo = -(2**63) if self.minimum is None else self.minimum
        hi = 2**63 if self.maximum is None else self.maximum
        if not is_int(value) or not lo <= value <= hi:
            raise ValueError(f"{self.label} is a whole number from {lo} to {hi}")
        return value

    def to_dict(self) -> dict[str, Any]:
        """JSON for the front end's generated setup form."""

        def js(v: Any) -> Any:  # a tuple value (three difficulties) is a list in JSON
            return list(v) if isinstance(v, tuple) else v

        out: dict[str, Any] = {
            "key": self.key,
            "label": self.label,
            "default": js(self.default),
            "help": self.help,
        }
        if self.choices:
            out["choices"] = [{"value": js(v), "label": words} for v, words in self.choices]
        else:
            out["min"], out["max"] = self.minimum, self.maximum
        return out


@dataclass(frozen=True)
class GameSpec:
    """One game, declared once.  Every ``str`` part is a ``"module:attribute"`` reference.

    ``name`` is the short name (``serve --game NAME``); ``folder`` the game's package under
    ``dsa_widget``; ``state`` the class of its states (a
    :class:`~dsa_widget.core.protocol.GameState`), called with setup keywords; ``view`` the
    class of its views; ``load_record`` turns a record document into the game after its last
    turn and ``show_record`` a game into what ``replay`` prints; ``bots`` its
    :class:`~dsa_widget.core.bots.BotRegistry`; ``encoding`` its action numbering and
    observation layout (a class taking a state) and ``openspiel`` its OpenSpiel rules, where
    the generic adapters serve it; ``options`` its rule options (a tuple of :class:`Option`);
    ``table`` its seat-server plug-in (a class taking ``(game, seats, **kwargs)``; by default
    the platform's :class:`dsa_widget.server.session_table.SessionTable`, which serves any game
    with a ``presenter``; ``None``: the game has no seat server),
    ``presenter`` what it draws a screen from (:class:`dsa_widget.core.session.Presenter`),
    ``widget`` its widget class and ``bundle`` the front end the browser draws it with;
    ``factory``, where setup keywords are not the state class's own (a form's settings that
    make a mission), the function that makes a new game from them; ``warm`` compiles its
    optional compiled code ahead (``python -m dsa_widget warm``).
    """

    name: str
    title: str
    folder: str
    summary: str
    state: str
    view: str
    record_format: str
    load_record: str
    show_record: str
    bots: str
    seats: tuple[int, int]
    default_players: int
    default_bot: str
    options: str | None = None
    setup: str | None = None
    arena: str | None = None
    encoding: str | None = None
    openspiel: str | None = None
    table: str | None = _SESSION_TABLE
    presenter: str | None = None
    widget: str | None = None
    bundle: str | None = None
    aliases: tuple[str, ...] = ()
    factory: str | None = None
    #: ``"module:function"`` compiling the game's optional compiled code now (numba caches), for
    #: ``python -m dsa_widget warm`` at set-up; ``None``: nothing to compile
    warm: str | None = None
    #: ``"module:function"`` saying an action as a player would, ``words(action, view) -> str``:
    #: a verb phrase ("keep diving", "play pink 3") from the acting seat's view only; the bots'
    #: explanations and the table use it (:func:`dsa_widget.core.bots.action_words`)
    words: str | None = None

    # ------------------------------------------------------------------ parts, loaded on use

    def state_class(self) -> type:
        """The class of this game's states."""
        cls: type = _resolve(self.state)
        return cls

    def view_class(self) -> type:
        cls: type = _resolve(self.view)
        return cls

    def new_game(self, **setup: Any) -> Any:
        """A new game from setup keywords (the state class's, or the ``factory``'s); a keyword
        it does not take raises :class:`~dsa_widget.core.errors.SetupError` naming the keys it
        does (:func:`check_setup_keys`)."""
        make = self.state_class() if self.factory is None else _resolve(self.factory)
        check_setup_keys(make, setup, passes_to=None if self.factory is None else self.state_class())
        return make(**setup)

    def from_record(self, document: Mapping[str, Any]) -> Any:
        """The game a record document of this game describes, after its last turn."""
        return _resolve(self.load_record)(document)

    def show(self, game: Any) -> Any:
        """The JSON object ``python -m dsa_widget replay`` prints for ``game``."""
        return _resolve(self.show_record)(game)

    def bot_registry(self) -> Any:
        """This game's :class:`~dsa_widget.core.bots.BotRegistry`."""
        return _resolve(self.bots)

    def option_schema(self) -> tuple[Option, ...]:
        """This game's rule options, as a setup form shows them (``()`` when it has none)."""
        if self.options is None:
            return ()
        return tuple(_resolve(self.options))

    def setup_schema(self) -> tuple[Option, ...]:
        """This game's setup keywords besides ``players``, ``seed`` and ``options``."""
        if self.setup is None:
            return ()
        return tuple(_resolve(self.setup))

    def arena_of(self) -> Any:
        return None if self.arena is None else _resolve(self.arena)

    def encoding_class(self) -> Callable[[Any], Any] | None:
        return None if self.encoding is None else _resolve(self.encoding)

    def openspiel_rules(self) -> Any:
        return None if self.openspiel is None else _resolve(self.openspiel)

    def table_class(self) -> Any:
        """The seat server's class; ``None`` when the game has none, or is served by the
        platform's :class:`SessionTable` but has no presenter yet (a game half added: its pages
        would have no board)."""
        if self.table is None or (self.table == _SESSION_TABLE and self.presenter is None):
            return None
        return _resolve(self.table)

    def presenter_class(self) -> Any:
        return None if self.presenter is None else _resolve(self.presenter)

    def warm_up(self) -> bool:
        """Compile the game's optional compiled code now; False when it has none."""
        if self.warm is None:
            return False
        _resolve(self.warm)()
        return True

    def action_words(self, action: Any, view: Any) -> str:
        """``action`` in a player's words, as ``view``'s seat may say it (its code when the game
        has no words)."""
        if self.words is None:
            return repr(action)
        return str(_resolve(self.words)(action, view))

    def widget_class(self) -> Any:
        return None if self.widget is None else _resolve(self.widget)

    def line(self) -> str:
        """One line for ``python -m dsa_widget games``."""
        lo, hi = self.seats
        return f"{self.name:<10} {self.title:<28} {lo}-{hi} players  {self.record_format}"


_GAMES: dict[str, GameSpec] = {}
_DISCOVERED = False


def register_game(spec: GameSpec) -> GameSpec:
    """Add a game to the registry (again with the same spec: nothing happens).  Its name and
    aliases must be new."""
    old = _GAMES.get(spec.name)
    if old is not None:
        if old == spec:
            return spec
        raise ValueError(f"a game named {spec.name!r} is registered already")
    taken = {a for g in _GAMES.values() for a in (g.name, *g.aliases)}
    clash = {spec.name, *spec.aliases} & taken
    if clash:
        raise ValueError(f"game {spec.name!r}: the name(s) {', '.join(sorted(clash))} are taken")
    _GAMES[spec.name] = spec
    return spec


def _discover() -> None:
    """Register the package's own games: every ``dsa_widget/<folder>/registration.py``."""
    global _DISCOVERED
    if _DISCOVERED:
        return
    _DISCOVERED = True
    import dsa_widget

    found: list[GameSpec] = []
    for root in dsa_widget.__path__:
        for info in pkgutil.iter_modules([root]):
            if info.ispkg and os.path.exists(os.path.join(root, info.name, "registration.py")):
                mod = importlib.import_module(f"dsa_widget.{info.name}.registration")
                found.append(mod.GAME)
    # the order games are listed in: as each registration says (``ORDER``), then by name
    for spec in sorted(found, key=lambda s: (_order(s), s.name)):
        register_game(spec)


def _order(spec: GameSpec) -> int:
    return int(getattr(importlib.import_module(f"dsa_widget.{spec.folder}.registration"), "ORDER", 99))


def games() -> list[GameSpec]:
    """Every registered game, in the order menus list them."""
    _discover()
    return list(_GAMES.values())


def game(name: str) -> GameSpec:
    """The game with this name (or alias); raises :class:`UnknownGameError`."""
    _discover()
    if isinstance(name, str):
        for spec in _GAMES.values():
            if name == spec.name or name in spec.aliases:
                return spec
    listed = ", ".join(_GAMES)
    raise UnknownGameError(f"unknown game {str(name)[:40]!r}; games: {listed}")


def game_of(obj: Any) -> GameSpec:
    """The game a state, a view or a state class belongs to.

    >>> from dsa_widget.submarine import Game
    >>> game_of(Game(3, seed=1)).name, game_of(Game).name
    ('submarine', 'submarine')
    """
    cls = obj if isinstance(obj, type) else type(obj)
    for spec in games():
        for ref in (spec.state, spec.view):
            mod, _, attr = ref.partition(":")
            if cls.__module__ == mod and cls.__qualname__ == attr:
                return spec
    # a subclass (a variant) belongs to its base's game; so does a compiled twin of a class
    for spec in games():
        if issubclass(cls, (spec.state_class(), spec.view_class())):
            return spec
    raise UnknownGameError(f"{cls.__name__} is not a registered game's state or view")
