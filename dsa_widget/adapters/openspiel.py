"""The package's games as OpenSpiel games (``pyspiel``), written against the game protocol.

Importing this module registers with OpenSpiel every game of the game registry
(:mod:`dsa_widget.core.registry`) that names OpenSpiel rules for this adapter; Deep Sea
Adventure registers as ``python_deep_sea_adventure``.  Registering twice is harmless.

>>> import pyspiel
>>> game = pyspiel.load_game("python_deep_sea_adventure", {"players": 2})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(2, 69, 9)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), len(state.chance_outcomes())     # chip 1's value: 0, 1, 2 or 3
(True, 4)
>>> for _ in range(32):                                       # the hidden deal
...     state.apply_action(state.chance_outcomes()[0][0])
>>> [state.action_to_string(a) for a, _ in state.chance_outcomes()][:3]
['roll 1+1', 'roll 1+2', 'roll 1+3']
>>> state.apply_action(4)                                     # roll 2+2: 4 spaces down
>>> [state.action_to_string(a) for a in state.legal_actions()]
['none', 'take']
>>> state.apply_action(3)                                     # take
>>> state.information_state_string(1)                         # seat | public history | known
'1|/4 3|'

**Design.**  The generic part (this module) is the pyspiel ``Game``, ``State`` and observer;
each game supplies *rules* (:class:`SpielRules`: names, parameters) that configure a
:class:`SpielConfig` for one parameter set: the hidden deal as explicit chance nodes, the
engine built after it, bounds, and what a seat knows.  Deep Sea Adventure's are in
:mod:`dsa_widget.deep_sea.openspiel`.  A state is

* the **deal**: ``deal_length`` chance nodes before play with exact probabilities
  (:meth:`SpielState.chance_outcomes_exact`; OpenSpiel gets their floats); nobody observes a
  deal outcome, only that it happened;
* then the **engine** (a protocol :class:`~dsa_widget.core.protocol.GameState`, its history
  and event log off).  Its chance nodes become OpenSpiel chance nodes, outcome ``i`` being
  the ``i``-th of ``engine.chance_outcomes()`` (the dice: ``DICE_OUTCOMES[i]``); its actions
  are numbered by the game's :class:`~dsa_widget.core.encoding.Encoding`.  Engine chance
  outcomes and actions are public.

Parameters: the game's own (Deep Sea Adventure: ``players`` 2..6, ``air``, ``rounds`` and
the rule options) plus ``returns``: ``"score"`` (the final points, default) or ``"win"``
(``1/k`` to each of ``k`` winners, 0 to the others), and ``skip_forced`` (default false: true
applies every decision with one legal action at once; such actions are then not in
``history()``).  Rewards are terminal, the game general-sum (The Crew's: identical).

:meth:`SpielState.state_tensor` is the centralised state for training (hidden information:
never an acting player's input).  A game's config answers optional hooks for what only it
needs (see :class:`SpielConfig`); The Crew's use them all.

**What a seat knows.**  The *information state string* of seat ``p`` is
``"p|<public>|<known>"``: the public history since the deal, in order (an engine chance outcome
``i`` as ``/i``, an action ``a`` as a space and ``a``; the deal's outcomes are left out; a
config with ``public_action(number)`` gives what every seat sees of an action instead of its
number, for a game whose actions are not all public), and the hidden values ``p`` knows now
(Deep Sea Adventure: the banked chips' values, ``chip=value``).  Knowledge only grows, and it
is revealed at points the public history fixes, so the pair is ``p``'s whole observation
history: the string has perfect recall, and every state consistent with ``p``'s knowledge has
the same string.  The *information state tensor* is **not** of perfect recall: it is the
observation tensor, then the config's knowledge tensor (Deep Sea Adventure: per chip whether
``p`` knows its value and that value; The Crew: the order the cards were played in), then the
share of the deal done; the past enters only through the current position and that knowledge.
The *observation* tensor is ``Encoding.observe(engine.view(p))`` and the observation string a
one-line rendering of the same view.  Observers with ``private_info=NONE`` give the public
knowledge instead (an onlooker's view); ``ALL_PLAYERS`` is not offered.

**Resampling.**  :meth:`SpielState.resample_from_infostate` draws the unknown values from the
player's view (:meth:`~dsa_widget.deep_sea.view.View.sample`), turns them into a deal and
replays the public actions on it: a genuine state, history included.  A game whose hidden
actions or history that would leak resamples itself (the config's ``resample`` hook): The
Crew's replays a drawn deal and keeps it only when the seat's string agrees; Submarine's draws
the whole position from the seat's view at once (:func:`state_with_engine`: the public history
and the seat's log kept, no deal, an empty ``history()``).  A state built from a
view (:func:`state_from_view`, what :class:`IsmctsBot` searches from) has no deal; its string
starts ``"p@<origin>|"`` and :class:`ViewResampler` resamples it for
``ISMCTSBot.set_resampler``.

Serialisation (``pyspiel.serialize_game_and_state``) pickles the state's one Python attribute;
states clone cheaply (the engine's ``copy(history=False, events=False)``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any, ClassVar, Protocol

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from ..core.bots import Bot, draw_chance
from ..core.encoding import Encoding, legal_action
from ..core.protocol import CHANCE, TERMINAL, GameState
from ..core.registry import game_of, games

__all__ = [
    "IsmctsBot",
    "SpielConfig",
    "SpielGame",
    "SpielObserver",
    "SpielRules",
    "SpielState",
    "ViewResampler",
    "deal_prefix",
    "load_game",
    "python_tensor",
    "register",
    "rules_of",
    "state_from_view",
    "state_with_engine",
]

RETURNS = ("score", "win")


class SpielConfig(Protocol):
    """One game for one parameter set, as the adapter needs it (shared and immutable)."""

    num_players: int
    num_actions: int
    encoding: Encoding
    #: chance nodes of the hidden deal before play
    deal_length: int
    max_chance_outcomes: int
    max_game_length: int
    min_score: float
    max_score: float
    #: floats of :meth:`knowledge_tensor`
    knowledge_size: int
    #: an engine in the starting position, for observations while the deal goes on (its
    #: views must hold nothing a deal could change)
    placeholder: GameState

    def deal_outcomes(self, dealt: Sequence[int]) -> Sequence[tuple[int, Fraction]]: ...
    def deal_string(self, i: int, k: int) -> str: ...
    def deal_of(self, game: Any) -> tuple[int, ...]: ...
    def start(self, dealt: Sequence[int]) -> GameState: ...
    def rebase(self, root: Any, like: Any) -> GameState: ...
    def knowledge_epoch(self, game: Any) -> Hashable: ...
    def knowledge(self, game: Any, seat: int, public: bool = False) -> Mapping[int, int]: ...
    def knowledge_string(self, known: Mapping[int, int]) -> str: ...
    def knowledge_tensor(self, known: Mapping[int, int]) -> list[float]: ...
    def observation_string(self, view: Any) -> str: ...
    def chance_string(self, outcome: Any) -> str: ...

    # Optional hooks, for what only some games need (the adapter asks ``getattr(cfg, name)``;
    # The Crew's, in :mod:`dsa_widget.crew.openspiel`, use them all):
    #
    # * ``deal_observation(dealt, seat)`` / ``deal_observation_string(dealt, seat)``: what a seat
    #   (None: the public) observes while the deal goes on (a seat sees its own cards arrive);
    #   default: the ``placeholder``'s view;
    # * ``information_string(dealt, engine, seat)``: the information state string after
    #   ``"p|"`` (default: the public history and ``knowledge_string``);
    # * ``narrow_legal(numbers, public)``: the legal action numbers the adapter offers, given
    #   those the engine allows and the public history string (a bound on a game's length);
    # * ``public_view(engine, seat)``: an onlooker's view for ``private_info=NONE`` observers
    #   (default: ``engine.view(seat, knower=None)``);
    # * ``resample(state, player, rng)``: :meth:`SpielState.resample_from_infostate` for a game
    #   whose hidden actions the default (replaying the true history) would leak;
    # * ``engine_from_view(view, rng)``: the engine of :func:`state_from_view` (default:
    #   ``view.sample(rng)``), for a game whose adapter engine keeps more than its rules' one;
    # * ``pack_engine(engine)`` / ``unpack_engine(packed, dealt)``: serialisation of an engine
    #   that does not pickle (default: the engine is pickled);
    # * ``full_state(engine, dealt)``: the centralised training state (default: every player's
    #   observation side by side);
    # * ``knowledge_shared``: true when ``knowledge(game, seat, public)`` is the same for every
    #   seat and for the public (The Crew's: the order of the cards played), so it is worked out
    #   once per knowledge epoch instead of once per seat.


class SpielRules(Protocol):
    """A game's OpenSpiel rules: what the registry needs, and :meth:`configure`."""

    short_name: str
    long_name: str
    min_players: int
    max_players: int
    parameters: Mapping[str, int | float | bool | str]

    def configure(self, params: Mapping[str, Any]) -> SpielConfig: ...
    def params_of(self, game: Any) -> dict[str, Any]: ...


def rules_of(game_class: type) -> SpielRules:
    """The OpenSpiel rules of a game class (the game registry names them)."""
    spec = game_of(game_class)
    rules: SpielRules | None = spec.openspiel_rules()
    if rules is None:
        raise TypeError(f"{spec.title} has no OpenSpiel rules for the generic adapter")
    return rules


_TYPES: dict[str, Any] = {}
_CLASSES: dict[str, type[SpielGame]] = {}


def _game_type(rules: SpielRules) -> Any:
    return pyspiel.GameType(
        short_name=rules.short_name,
        long_name=rules.long_name,
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=getattr(pyspiel.GameType.Utility, getattr(rules, "utility", "GENERAL_SUM")),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.max_players,
        min_num_players=rules.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={**rules.parameters, "returns": RETURNS[0], "skip_forced": False},
    )


def register(rules: SpielRules) -> type[SpielGame]:
    """Register ``rules`` with OpenSpiel and return the game class made for them (again: the
    same class, the first registration stays)."""
    cls = _CLASSES.get(rules.short_name)
    if cls is None:
        # the registry is given a class: OpenSpiel keeps its creator until the interpreter has
        # gone, and releasing a class then is safe where releasing an instance is not
        name = "".join(w.title() for w in rules.short_name.split("_")) + "Game"
        cls = _CLASSES[rules.short_name] = type(name, (SpielGame,), {"rules": rules, "__module__": __name__})
        globals()[name] = cls  # found by name: games pickle
        _TYPES[rules.short_name] = _game_type(rules)
        if rules.short_name not in pyspiel.registered_names():
            pyspiel.register_game(_TYPES[rules.short_name], cls)
    return cls


_GAMES: dict[tuple[str, tuple[tuple[str, Any], ...]], SpielGame] = {}


def load_game(short_name: str, params: Mapping[str, Any] | None = None) -> SpielGame:
    """``pyspiel.load_game`` for our games, kept per parameter set in this process (bots ask
    for the same game at every decision)."""
    key = (short_name, tuple(sorted((params or {}).items())))
    game = _GAMES.get(key)
    if game is None:
        game = _GAMES[key] = pyspiel.load_game(short_name, dict(params or {}))
    return game


# ---------------------------------------------------------------------- the game


class SpielGame(pyspiel.Game):  # type: ignore[misc]
    """One of our games for one parameter set (build it with ``pyspiel.load_game``; each game
    registers its own subclass, whose ``rules`` are the game's)."""

    rules: ClassVar[SpielRules]

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        rules = self.rules
        params = dict(params or {})
        mode = params.pop("returns", RETURNS[0])
        if mode not in RETURNS:
            raise ValueError(f"returns must be 'score' or 'win', got {mode!r}")
        skip = params.pop("skip_forced", False)
        if not isinstance(skip, bool):
            raise ValueError(f"skip_forced must be true or false, got {skip!r}")
        cfg = rules.configure(params)
        self.config = cfg
        self.win = mode == "win"
        #: decisions with one legal action are applied at once (parameter ``skip_forced``)
        self.skip_forced = skip
        low, high = (0.0, 1.0) if self.win else (cfg.min_score, cfg.max_score)
        info = pyspiel.GameInfo(
            num_distinct_actions=cfg.num_actions,
            max_chance_outcomes=cfg.max_chance_outcomes,
            num_players=cfg.num_players,
            min_utility=low,
            max_utility=high,
            utility_sum=None,
            max_game_length=cfg.max_game_length,
        )
        super().__init__(_TYPES[rules.short_name], info, {**params, "returns": mode, "skip_forced": skip})

    def get_type(self) -> Any:
        """pyspiel's ``get_type()``: the game's registered type, one shared object (it is read
        only; pyspiel's own call copies it, and ``rl_environment`` asks twice a step)."""
        return _TYPES[self.rules.short_name]

    def new_initial_state(self) -> SpielState:
        """The start of a game: the first deal node (a game with no deal starts with its engine)."""
        core = _Core(self.config, self.win, self.skip_forced)
        if self.config.deal_length == 0:
            core.engine = self.config.start(())
            core.settle()
        return SpielState(self, core)

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> SpielObserver:
        """An observer (default: the observation, ``perfect_recall=False``)."""
        return SpielObserver(
            self.config, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _Core:
    """All the Python-side state of a :class:`SpielState` in one object, so that OpenSpiel's
    clone (a deep copy of each attribute) and serialisation (a pickle) stay one cheap step."""

    __slots__ = (
        "cfg",
        "win",
        "skip",
        "engine",
        "dealt",
        "public",
        "origin",
        "root",
        "known",
        "tracker",
        "at",
        "offer",
        "choices",
        "now",
    )

    def __init__(self, cfg: SpielConfig, win: bool, skip: bool = False) -> None:
        self.cfg = cfg
        self.win = win
        self.skip = skip  # skip_forced
        self.engine: Any = None  # None while the deal goes on
        self.dealt: tuple[int, ...] = ()
        self.public = ""  # the public history since the deal (or the root)
        self.origin = ""  # "@<the view>" for a state built from a view
        self.root: Any = None  # that view's determinized engine
        # what each seat knows, by the engine's knowledge epoch (and the knowledge part of the
        # information state tensor, by epoch, seat, public, "tensor"); a clone starts with a copy:
        # what was known up to the clone holds for both, but two clones that play on differently
        # bank different chips by the next epoch, so they must not share what comes after
        self.known: dict[Hashable, Any] = {}
        # the encoding's tracker of this engine (``(engine, tracker, seat -> its observation as a
        # list, whether the tracker makes that list itself)``), made when first observed: every
        # seat's observation kept up to date as the engine goes on (never copied)
        self.tracker: tuple[Any, Any, Callable[[int], list[float]], bool] | None = None
        # the engine's knowledge epoch in this position, worked out once (every seat's read of
        # the information state asks for it); ``_UNKNOWN`` again whenever the engine moves on
        self.at: Hashable = _UNKNOWN
        # the action numbers offered in this position (``legal()``, read only), None again when it
        # moves on; with the engine's action of each number (``choices``), for ``play``
        self.offer: list[int] | None = None
        self.choices: Mapping[int, Any] = {}
        # the engine's ``(to_move, is_over)`` in this position (``turn()``), None when it moves on
        self.now: tuple[int, bool] | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        c = _Core.__new__(_Core)
        c.cfg, c.win, c.skip, c.dealt, c.public, c.origin, c.root, c.known = (
            self.cfg,
            self.win,
            self.skip,
            self.dealt,
            self.public,
            self.origin,
            self.root,
            dict(self.known),
        )
        e = self.engine
        c.engine = None if e is None else _copy(e)
        c.tracker = None
        # the same position (``offer`` and ``choices`` are never changed, only replaced)
        c.at, c.offer, c.choices, c.now = self.at, self.offer, self.choices, self.now
        return c

    def __getstate__(self) -> tuple[Any, ...]:
        # an engine that does not pickle is packed by its game (``pack_engine``: The Crew's
        # actions since the deal, replayed by ``unpack_engine``)
        pack, e = getattr(self.cfg, "pack_engine", None), self.engine
        engine = e if pack is None or e is None else pack(e)
        return (self.cfg, self.win, self.skip, engine, self.dealt, self.public, self.origin, self.root)

    def __setstate__(self, s: tuple[Any, ...]) -> None:
        self.cfg, self.win, self.skip, self.engine, self.dealt, self.public, self.origin, self.root = s
        unpack = getattr(self.cfg, "unpack_engine", None)
        if unpack is not None and self.engine is not None:
            self.engine = unpack(self.engine, self.dealt)
        self.known = {}
        self.tracker = None
        self.moved()

    def legal(self) -> list[int]:
        """The action numbers offered to the engine's seat to act (sorted; a fresh list, the
        numbers worked out once per position: OpenSpiel asks for them several times a step)."""
        offer = self.offer
        return (self.offered() if offer is None else offer)[:]

    def offered(self) -> list[int]:
        """Work out ``offer`` and ``choices`` for this position."""
        numbers, self.choices = _legal_numbers(self.cfg.encoding, self.engine.legal_actions())
        narrow = getattr(self.cfg, "narrow_legal", None)
        offer = self.offer = numbers if narrow is None else list(narrow(numbers[:], self.public))
        return offer

    def play(self, action: int) -> None:
        """Apply a decision (checked: ``ValueError``), then, with ``skip_forced``, the forced ones."""
        cfg, e = self.cfg, self.engine
        offer = self.offer
        if offer is None:
            offer = self.offered()
        # a number offered here is the engine's legal action (a game's ``narrow_legal`` may offer
        # fewer than the engine has, never one it lacks: ``choices`` then has none)
        choice = self.choices.get(action) if action in offer else None
        if choice is None:
            raise ValueError(f"action {action} ({cfg.encoding.action(action)!r}) is not legal here")
        e.apply_unchecked(choice)
        self.moved()
        # a game whose actions are not all public says what everybody sees of one
        hide = getattr(cfg, "public_action", None)
        self.public += f" {action}" if hide is None else f" {hide(action)}"
        self.settle()

    def settle(self) -> None:
        """With ``skip_forced``: apply every decision that has one legal action, until a real
        decision, a chance node or the end."""
        e = self.engine
        while self.skip and e is not None and not self.turn()[1] and self.turn()[0] >= 0:
            legal = self.legal()
            if len(legal) != 1:
                return
            self.skip = False  # play() settles again: once is enough
            try:
                self.play(legal[0])
            finally:
                self.skip = True

    def moved(self) -> None:
        """Forget what was worked out for the engine's last position (it moved on)."""
        self.at, self.offer, self.now = _UNKNOWN, None, None

    def turn(self) -> tuple[int, bool]:
        """The engine's ``(to_move, is_over)``, read once per position (an engine's
        ``to_move`` may be a property that asks its view, and OpenSpiel asks many times)."""
        now = self.now
        if now is None:
            e = self.engine
            now = self.now = (e.to_move, bool(e.is_over))
        return now

    def epoch(self) -> Hashable:
        """The engine's knowledge epoch (``cfg.knowledge_epoch``), once per position."""
        at = self.at
        if at is _UNKNOWN:
            at = self.at = self.cfg.knowledge_epoch(self.engine)
        return at

    def knowledge(self, seat: int, public: bool) -> tuple[str, Mapping[int, int]]:
        """``(string, chip -> value)`` of what ``seat`` (or, ``public``, everybody) knows."""
        if self.engine is None:
            return "", {}
        key = (
            (self.epoch(),) if getattr(self.cfg, "knowledge_shared", False) else (self.epoch(), seat, public)
        )
        hit = self.known.get(key)
        if hit is None:
            known = self.cfg.knowledge(self.engine, seat, public)
            hit = self.known[key] = (self.cfg.knowledge_string(known), known)
        return hit


class SpielState(pyspiel.State):  # type: ignore[misc]
    """A state of a :class:`SpielGame` (see the module docstring for its parts)."""

    def __init__(self, game: SpielGame, core: _Core) -> None:
        super().__init__(game)
        self._c = core

    # ------------------------------------------------------------ the pyspiel API

    @property
    def core(self) -> _Core:
        """The state's Python side (the deal so far, the engine, the public history): for the
        observer, which lives in this module."""
        return self._c

    def current_player(self) -> int:
        c = self._c
        if c.engine is None:
            return _SPIEL_CHANCE
        p: int = c.turn()[0]
        if p == CHANCE:
            return _SPIEL_CHANCE
        if p == TERMINAL:
            return _SPIEL_TERMINAL
        return p

    def _legal_actions(self, player: int) -> list[int]:
        c = self._c
        if c.engine is None:
            return []
        p, over = c.turn()
        if p != player or over:
            return []
        return self._c.legal()

    # pyspiel's calls that an RL loop makes for every player at every step, answered here when a
    # seat decides (pyspiel's own path goes through C++ and back into this class several times);
    # anywhere else (chance, the end, a pseudo-player) pyspiel answers, as before

    def legal_actions(self, *player: Any) -> list[int]:
        """pyspiel's ``legal_actions([player])``."""
        c = self._c
        if c.engine is not None and len(player) <= 1:
            p, over = c.turn()
            if p >= 0 and not over:
                if player:
                    q = player[0]
                    if type(q) is not int or q < 0:
                        return pyspiel.State.legal_actions(self, *player)  # type: ignore[no-any-return]
                    if q != p:
                        return []
                offer = c.offer
                return (c.offered() if offer is None else offer)[:]
        return pyspiel.State.legal_actions(self, *player)  # type: ignore[no-any-return]

    def is_chance_node(self) -> bool:
        """pyspiel's ``is_chance_node()``."""
        c = self._c
        return c.engine is None or c.turn()[0] == CHANCE

    def rewards(self) -> list[float]:
        """pyspiel's ``rewards()`` (terminal rewards: the returns at the end, zeros before)."""
        return self.returns()

    def chance_outcomes_exact(self) -> list[tuple[int, Fraction]]:
        """The chance outcomes as exact fractions (they sum to 1); ``[]`` elsewhere."""
        c = self._c
        if c.engine is None:
            return list(c.cfg.deal_outcomes(c.dealt))
        return [(i, p) for i, (_, p) in enumerate(c.engine.chance_outcomes())]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        c = self._c
        e = c.engine
        if e is None:  # a deal node: the outcomes are (action, probability) pairs
            dealt = c.cfg.deal_outcomes(c.dealt)
            hit = _DEAL_FLOATS.get(id(dealt))
            if hit is None or hit[0] is not dealt:
                if len(_DEAL_FLOATS) > 4096:
                    _DEAL_FLOATS.clear()
                hit = _DEAL_FLOATS[id(dealt)] = (dealt, [(a, float(p)) for a, p in dealt])
            return hit[1][:]
        outcomes = e.chance_outcomes()
        hit = _FLOATS.get(id(outcomes))
        if hit is None or hit[0] is not outcomes:
            if len(_FLOATS) > 256:
                _FLOATS.clear()
            hit = _FLOATS[id(outcomes)] = (outcomes, [(i, float(p)) for i, (_, p) in enumerate(outcomes)])
        return hit[1][:]

    def _apply_action(self, action: int) -> None:
        c = self._c
        e = c.engine
        if e is None:
            if action not in dict(c.cfg.deal_outcomes(c.dealt)):
                raise ValueError(f"{action} is not an outcome of deal node {len(c.dealt)}")
            c.dealt += (action,)
            if len(c.dealt) == c.cfg.deal_length:
                c.engine = c.cfg.start(c.dealt)
                c.moved()
                c.settle()
            return
        if c.turn()[0] == CHANCE:
            outcomes = e.chance_outcomes()
            if not 0 <= action < len(outcomes):
                raise ValueError(f"{action} is not a chance outcome here (0..{len(outcomes) - 1})")
            e.apply_chance(outcomes[action][0])
            c.moved()
            c.public += f"/{action}"
            c.settle()
            return
        c.play(action)

    def information_state_tensor(self, *player: Any) -> list[float]:
        """pyspiel's ``information_state_tensor([player])``: the same numbers, written by the
        game's information state observer here (pyspiel's own path, kept for a bad player,
        also builds a new initial state and writes a tensor there, for its shape)."""
        return _tensor(self, True, player)

    def observation_tensor(self, *player: Any) -> list[float]:
        """pyspiel's ``observation_tensor([player])``, as :meth:`information_state_tensor`."""
        return _tensor(self, False, player)

    def _action_to_string(self, player: int, action: int) -> str:
        c = self._c
        if player == pyspiel.PlayerId.CHANCE:
            if c.engine is None:
                return c.cfg.deal_string(len(c.dealt), action)
            outcomes = c.engine.chance_outcomes()
            if 0 <= action < len(outcomes):
                return c.cfg.chance_string(outcomes[action][0])
            return f"chance outcome {action}"
        if c.engine is not None and not c.engine.is_over:  # the action itself where it is legal
            choice = legal_action(c.cfg.encoding, action, c.engine.legal_actions())
            if choice is not None:
                return str(choice)
        return str(c.cfg.encoding.action(action))

    def is_terminal(self) -> bool:
        c = self._c
        return c.engine is not None and c.turn()[1]

    def returns(self) -> list[float]:
        c = self._c
        e = c.engine
        n = c.cfg.num_players
        if e is None or not e.is_over:
            return [0.0] * n
        if not c.win:  # a seat that is no player (The Crew's dummy) comes last and is left out
            return [float(x) for x in e.returns()][:n]
        winners = [q for q in e.winners if q < n]  # players only (not The Crew's dummy seat)
        return [1.0 / len(winners) if q in winners else 0.0 for q in range(n)]

    def __str__(self) -> str:
        c = self._c
        if c.engine is None:
            return f"deal {len(c.dealt)}/{c.cfg.deal_length}: {list(c.dealt)}"
        e = c.engine
        if hasattr(e, "state_dict"):
            return f"{c.origin}{e!r}\n{e.state_dict()}"
        return f"{c.origin}{game_of(e).show(e)}"  # the registry's picture of a whole state

    def state_tensor(self) -> list[float]:
        """The **centralised** state, for a centralised critic or value function in training:
        the config's ``full_state`` where it has one (The Crew: every card's place), else every
        player's observation tensor side by side.  It holds hidden information: never feed it
        to a player that acts on its own observation or information state."""
        c = self._c
        own = getattr(c.cfg, "full_state", None)
        if own is not None:
            return [float(x) for x in own(c.engine, c.dealt)]
        obs = SpielObserver(c.cfg, pyspiel.IIGObservationType(perfect_recall=False), None)
        out: list[float] = []
        for p in range(c.cfg.num_players):
            obs.set_from(self, p)
            out += obs.tensor.tolist()
        return out

    # ------------------------------------------------------------ resampling

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> SpielState:
        """A state drawn from those ``player_id`` cannot tell from this one: the values it does
        not know are dealt afresh from its view (never from the true ones), and the public
        actions replayed.  ``probability_sampler`` (OpenSpiel's, a callable giving floats in
        [0, 1)) seeds the draw; without it the draw is random."""
        seed = probability_sampler() if callable(probability_sampler) else None
        rng = random.Random(seed)
        c = self._c
        own = getattr(c.cfg, "resample", None)
        if own is not None:
            st: SpielState = own(self, player_id, rng)
            return st
        game = self.get_game()
        if c.engine is None:  # nothing is known during the deal: any prefix of a deal will do
            return deal_prefix(game, len(c.dealt), rng)
        world = c.engine.view(player_id).sample(rng)
        if c.root is None:
            st = game.new_initial_state()
            for a in c.cfg.deal_of(world):
                st.apply_action(a)
            replay = self.history()[c.cfg.deal_length :]
        else:
            st = _from_engine(game, c.cfg.rebase(c.root, world), c.origin)
            replay = self.history()
        for a in replay:
            st.apply_action(a)
        return st


#: the observers of the Python tensor calls, by kind (``_OBSERVERS[recall]``) and config id (the
#: config kept: ids are reused)
_OBSERVERS: tuple[dict[int, tuple[Any, _ListObserver]], ...] = ({}, {})


def _tensor(state: SpielState, recall: bool, args: tuple[Any, ...]) -> list[float]:
    """A seat's information state (``recall``) or observation tensor, as pyspiel gives it."""
    c = state.core
    cfg = c.cfg
    if len(args) == 1:  # the usual call (every player at every step of an RL loop): no detour
        player = args[0]
        hit = _OBSERVERS[recall].get(id(cfg))
        if hit is not None and hit[0] is cfg and type(player) is int and 0 <= player < cfg.num_players:
            lo = hit[1]
            tr = c.tracker
            if (
                tr is not None
                and tr[0] is c.engine
                and "observe" not in lo.own
                and (lo.quick or (lo.listed and tr[3]))
            ):
                # the tracker's list (a small one, or a tracker's own ``observe_list``) and, for an
                # information state, the knowledge part's and ``dealt``: what
                # ``SpielObserver.list_from`` gives, without its checks made once per engine
                out = tr[2](player)
                if recall:
                    out += lo.observer.known_list(c, player)
                return out
            return lo.tensor_list(state, player)
    return python_tensor(state, cfg, recall, args, lambda t: SpielObserver(cfg, t, None))


def python_tensor(
    state: Any, cfg: Any, recall: bool, args: tuple[Any, ...], make: Callable[[Any], Any]
) -> list[float]:
    """``state.information_state_tensor(*args)`` (``recall``) or ``observation_tensor(*args)``
    as pyspiel gives them, written by a Python observer of the game (``make(obs_type)``, one
    kept per config ``cfg`` and kind) without pyspiel's detour: its C++ path builds a new
    initial state and writes a tensor there (for the shape) before the state's own, then
    makes a fresh float per entry.  A bad player goes to pyspiel's own call and its error."""
    player = args[0] if args else state.current_player()
    if len(args) > 1 or type(player) is not int or not 0 <= player < cfg.num_players:
        base = pyspiel.State.information_state_tensor if recall else pyspiel.State.observation_tensor
        return base(state, *args)  # type: ignore[no-any-return]
    kept = _OBSERVERS[recall]
    hit = kept.get(id(cfg))
    if hit is None or hit[0] is not cfg:
        if len(kept) > 128:
            kept.clear()
        observer = make(pyspiel.IIGObservationType(perfect_recall=recall))
        hit = kept[id(cfg)] = (cfg, _ListObserver(observer, cfg.num_players))
    return hit[1].tensor_list(state, player)


class _ListObserver:
    """An observer whose tensors are given as lists of floats, as pyspiel gives them.

    Making a float per entry costs more than writing the tensor, and a seat's tensor changes in
    a few entries from one call to the next: so the list last given to each player is kept
    (with its numbers), and only the entries that differ are made anew (a fresh list each call,
    of the same float objects elsewhere).  A player's list holds only what that player's own
    tensor held.  A small tensor (at most :data:`_SMALL` floats, Pig's) costs less made whole
    (``tolist``) than compared, and a tracked one is then read from the tracker as a list
    (:meth:`SpielObserver.list_from`) without being written into the tensor first."""

    def __init__(self, observer: Any, players: int) -> None:
        self.observer = observer
        size = len(observer.tensor)
        self.small = size <= _SMALL
        # a small tensor that is the tracker's list (and ``dealt``, for a game that hides nothing)
        # is read from the state's tracker at once while the encoding's ``observe`` is its own
        # (``own``: the encoding's attributes, where a replaced ``observe`` would be)
        self.quick = self.small and isinstance(observer, SpielObserver) and observer.plain
        # a large tensor of a seat whose tracker keeps its observation as a list itself (Deep
        # Sea Adventure's, ``observe_list``): that list, with the knowledge part's after it
        self.listed = not self.small and isinstance(observer, SpielObserver) and observer.tracked
        own = self.quick or self.listed
        self.own = getattr(observer.cfg.encoding, "__dict__", {}) if own else {}
        self.last = [np.zeros(size, np.float32) for _ in range(players)]
        self.lists = [[0.0] * size for _ in range(players)]
        # the knowledge part (and dealt) last put in each player's list, by identity: the
        # observer keeps one array per knowledge epoch, so the same one needs no comparing
        self.known: list[Any] = [None] * players

    def tensor_list(self, state: Any, player: int) -> list[float]:
        obs = self.observer
        t = obs.tensor
        if self.small:
            fast: list[float] | None = obs.list_from(state, player)
            if fast is not None:
                return fast
            obs.set_from(state, player)
            return t.tolist()  # type: ignore[no-any-return]
        # a tracker that keeps each seat's observation as a list (Deep Sea Adventure's): that
        # list, a copy, and the knowledge part's list (once per knowledge epoch) after it
        fast = obs.list_from(state, player, native=True)
        if fast is not None:
            return fast
        last, out = self.last[player], self.lists[player]
        parts = obs.parts_from(state, player)
        if parts is None:
            obs.set_from(state, player)
            self._update(t, last, out, 0)
            self.known[player] = None  # the whole tensor was compared: no part to trust
        else:  # the tracker's fresh observation and the knowledge part compared where they are
            seen, known = parts
            self._update(seen, last, out, 0)
            if known is not None and self.known[player] is not known:
                self._update(known, last, out, seen.size)
                self.known[player] = known
        return out[:]

    def _update(self, now: np.ndarray, last: np.ndarray, out: list[float], at: int) -> None:
        """Bring ``last[at:at + len(now)]`` and ``out`` (the same numbers as floats) to ``now``."""
        mine = last[at : at + now.size]
        changed = (now != mine).nonzero()[0]
        if changed.size:
            new = now[changed]
            mine[changed] = new
            for i, x in zip((changed + at).tolist(), new.tolist(), strict=True):
                out[i] = x


#: the largest tensor :class:`_ListObserver` makes whole every time (``tolist`` of a few hundred
#: float32 costs about what comparing them with the last one and copying the list does)
_SMALL = 256


#: pyspiel's chance and terminal player ids, as ints
_SPIEL_CHANCE, _SPIEL_TERMINAL = int(pyspiel.PlayerId.CHANCE), int(pyspiel.PlayerId.TERMINAL)

#: a position's knowledge epoch not worked out yet (see ``_Core.at``)
_UNKNOWN: Hashable = object()

#: an engine's legal actions as ``(sorted numbers, number -> action)``, by encoding and actions
#: (both read only)
_LEGAL: dict[tuple[int, tuple[Any, ...]], tuple[list[int], dict[int, Any]]] = {}
#: the engine's chance outcomes as OpenSpiel's floats, by the identity of the outcomes (a game
#: that returns one shared tuple, as Deep Sea Adventure's dice, converts them once)
_FLOATS: dict[int, tuple[Any, list[tuple[int, float]]]] = {}
#: the same for a deal node's outcomes (a game that gives one tuple for the same odds, as The
#: Crew's unconstrained cards, converts them once)
_DEAL_FLOATS: dict[int, tuple[Any, list[tuple[int, float]]]] = {}


def _legal_numbers(enc: Encoding, legal: tuple[Any, ...]) -> tuple[list[int], dict[int, Any]]:
    """The numbers of ``legal`` (sorted) and each number's action (both shared: read only)."""
    key = (id(enc), legal)
    hit = _LEGAL.get(key)
    if hit is None:
        if len(_LEGAL) > 4096:
            _LEGAL.clear()
        choices = {enc.index(a): a for a in legal}
        hit = _LEGAL[key] = (sorted(choices), choices)
    return hit


def _copy(engine: Any) -> Any:
    """An independent copy of an engine, without its history where it can leave it out."""
    copy = getattr(engine, "copy", None)
    return engine.clone() if copy is None else copy(history=False, events=False)


def _from_engine(game: SpielGame, engine: Any, origin: str) -> SpielState:
    core = _Core(game.config, game.win, game.skip_forced)
    core.engine = engine
    core.root = _copy(engine)
    core.origin = origin
    core.settle()
    return SpielState(game, core)


def deal_prefix(game: SpielGame, n: int, rng: random.Random) -> SpielState:
    """A new state of ``game`` after ``n`` deal nodes, their outcomes drawn with ``rng`` at their
    odds: a state resampled during a deal nobody observes."""
    st = game.new_initial_state()
    for _ in range(n):
        st.apply_action(draw_chance(st.chance_outcomes_exact(), rng))
    return st


def state_with_engine(state: SpielState, engine: Any) -> SpielState:
    """A state of ``state``'s game whose engine is ``engine`` (in the same public position), with
    ``state``'s public history and origin, so every information state string that ``engine``'s
    knowledge log keeps gives the same string: for a game's ``resample`` hook that draws the
    whole engine at once (Submarine's).  It has no deal and an empty ``history()``: the true
    ones are not the drawn world's."""
    c = state.core
    core = _Core(c.cfg, c.win, c.skip)
    core.engine = engine
    core.public = c.public
    core.origin = c.origin
    core.settle()
    return SpielState(state.get_game(), core)


def state_from_view(game: SpielGame, view: Any, rng: random.Random) -> SpielState:
    """A state in ``view``'s position with the values ``view`` does not know drawn with
    ``rng`` (``view.sample``): the root of a search that was given only a view.  Its
    information state strings start ``"p@<the view's observation string>|"`` and its history
    is the actions applied since (none before: they are not in the view)."""
    origin = "@" + game.config.observation_string(view)
    own = getattr(game.config, "engine_from_view", None)
    return _from_engine(game, view.sample(rng) if own is None else own(view, rng), origin)


class ViewResampler:
    """``ISMCTSBot.set_resampler`` for a search rooted at :func:`state_from_view`: every root
    sample is a fresh determinization of the same view (``view.sample``), so every sample has
    the root's information state."""

    def __init__(self, game: SpielGame, view: Any, rng: random.Random) -> None:
        self.game, self.view, self.rng = game, view, rng

    def __call__(self, state: SpielState, player: int) -> SpielState:
        if player != self.view.seat:
            raise ValueError(f"this resampler draws seat {self.view.seat}'s worlds, not seat {player}'s")
        return state_from_view(self.game, self.view, self.rng)


# ---------------------------------------------------------------------- observers


class SpielObserver:
    """OpenSpiel's Python observer for our games.

    ``perfect_recall=False`` (the observation): the tensor is the game's
    ``Encoding.observe(engine.view(p))`` (field ``observation``) and the string a one-line
    rendering of that view.  ``perfect_recall=True`` (the information state): the string is
    ``"p|<public history>|<known values>"`` (perfect recall, see the module docstring); the
    tensor adds, after the observation, ``knowledge`` (per chip: known?, value) and ``dealt``
    (the share of the deal done) and is *not* of perfect recall.  ``private_info=NONE`` gives an
    onlooker's knowledge instead of the seat's.
    """

    def __init__(self, cfg: SpielConfig, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or not iig_obs_type.public_info:
            raise ValueError("the observer gives one seat's or the public knowledge (public_info=True)")
        self.cfg = cfg
        self.public = private == pyspiel.PrivateInfoType.NONE
        self.recall = bool(iig_obs_type.perfect_recall)
        n_obs = cfg.encoding.observation_size
        size = n_obs + (cfg.knowledge_size + 1 if self.recall else 0)
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor[:n_obs]}
        if self.recall:
            self.dict["knowledge"] = self.tensor[n_obs : n_obs + cfg.knowledge_size]
            self.dict["dealt"] = self.tensor[n_obs + cfg.knowledge_size :]
        # A seat's observation comes from the encoding's tracker of the engine when it has one
        # (``encoding.tracker(engine, new_buffer).observe(seat)``, equal to the reference
        # ``encoding.observe(engine.view(seat))`` and kept up to date field by field as the
        # engine goes on), unless ``encoding.observe`` is replaced on the instance.  An
        # onlooker's observation (``private_info=NONE``) always takes the reference path.
        self._tracks = not self.public and callable(getattr(cfg.encoding, "tracker", None))
        # an information state with no knowledge part (a game that hides nothing): its tensor
        # after the deal is the observation and ``dealt`` = 1
        self._bare = self.recall and cfg.knowledge_size == 0
        #: a tracked observer whose tensor is the tracker's observation, with ``dealt`` for an
        #: information state with no knowledge part
        self.plain = self._tracks and (not self.recall or self._bare)
        #: a tracked observer (an encoding's tracker gives a seat's observation)
        self.tracked = self._tracks
        self._shared = bool(getattr(cfg, "knowledge_shared", False))
        # the tensors while the deal goes on, by (deals done, player): they depend on nothing
        # else (OpenSpiel asks for the first one at every tensor call, for the tensor's shape),
        # unless the game says what a seat observes of the deal (The Crew: a seat sees its own
        # cards arrive), which is then written every time
        self._dealing: dict[tuple[int, int], np.ndarray] = {}
        self._deal_cached = getattr(cfg, "deal_observation", None) is None
        # an encoding that writes an observation into a buffer (``observe_into(view, buf)``,
        # the buffer zeroed first) writes it in the tensor in place, through a memoryview (which
        # sets one float faster than numpy); a replaced ``encoding.observe`` is still honoured
        into = callable(getattr(cfg.encoding, "observe_into", None))
        self._floats: Any = memoryview(self.tensor.data)[:n_obs] if into else None

    def _view(self, c: _Core, player: int) -> Any:
        e: Any = c.engine if c.engine is not None else self.cfg.placeholder
        if not self.public:
            return e.view(player)
        # an onlooker's view: the engine's ``view(seat, knower=None)`` unless the game says
        own = getattr(self.cfg, "public_view", None)
        return e.view(player, knower=None) if own is None else own(e, player)

    def set_from(self, state: SpielState, player: int) -> None:
        c = state.core
        e = c.engine
        if e is None and self._deal_cached:
            key = (len(c.dealt), player)
            hit = self._dealing.get(key)
            if hit is None:
                self._write(c, player)
                if len(self._dealing) > 4096:
                    self._dealing.clear()
                hit = self._dealing[key] = self.tensor.copy()
            self.tensor[:] = hit
            return
        tr = self._tracker(c)
        if tr is None:
            self._write(c, player)  # the reference path (and a deal the game observes itself)
            return
        self.dict["observation"][:] = tr.observe(player)
        if self.recall:
            self.dict["knowledge"][:] = self._known_part(c, player)
            self.tensor[-1] = 1.0

    def list_from(self, state: SpielState, player: int, native: bool = False) -> list[float] | None:
        """The tensor :meth:`set_from` would write, as a list of floats (those of float32), read
        from the encoding's tracker; None where there is none (then :meth:`set_from`), or with
        ``native`` where the tracker has no ``observe_list`` of its own."""
        c = state.core
        if self._tracker(c) is None or (native and not c.tracker[3]):  # type: ignore[index]
            return None
        out: list[float] = c.tracker[2](player)  # type: ignore[index]
        if self.recall:
            out += self.known_list(c, player)
        return out

    def known_list(self, c: _Core, player: int) -> list[float]:
        """What follows the observation in ``player``'s information state tensor once the deal
        is done, as a list (read only): the knowledge part (once per knowledge epoch) and
        ``dealt``, 1."""
        if self._bare:  # no knowledge part
            return _DEALT
        tkey = (c.epoch(), None if self._shared else (player, self.public), "list")
        part: list[float] | None = c.known.get(tkey)
        if part is None:
            part = c.known[tkey] = [*self._known_part(c, player).tolist(), 1.0]
        return part

    def parts_from(self, state: SpielState, player: int) -> tuple[np.ndarray, np.ndarray | None] | None:
        """The tensor :meth:`set_from` would write in two parts, not written: the tracker's
        observation (a fresh array) and, for the information state, the knowledge part with
        ``dealt`` (1: the deal is done; one array per knowledge epoch, read only); None where
        there is no tracker (then :meth:`set_from`)."""
        c = state.core
        tr = self._tracker(c)
        if tr is None:
            return None
        seen: np.ndarray = tr.observe(player)
        if not self.recall:
            return seen, None
        seat = None if getattr(self.cfg, "knowledge_shared", False) else (player, self.public)
        tkey = (c.epoch(), seat, "tail")
        tail: np.ndarray | None = c.known.get(tkey)
        if tail is None:
            tail = c.known[tkey] = np.append(self._known_part(c, player), np.float32(1.0))
        return seen, tail

    def _tracker(self, c: _Core) -> Any:
        """The encoding's tracker of the state's engine (made when first asked), or None where
        the reference path writes the tensor: no tracker, an onlooker, the deal, or an
        ``encoding.observe`` replaced on the instance."""
        e = c.engine
        if not self._tracks or e is None:
            return None
        enc = self.cfg.encoding
        if "observe" in getattr(enc, "__dict__", ()):
            return None
        tr = c.tracker
        if tr is None or tr[0] is not e:
            t = enc.tracker(e, _float32_zeros)  # type: ignore[attr-defined]
            # a seat's observation as a list: the tracker's own ``observe_list`` where it has one
            # (Pig's, without numpy), else the array's ``tolist``
            own = getattr(t, "observe_list", None)
            lister = own or (lambda seat: t.observe(seat).tolist())
            tr = c.tracker = (e, t, lister, own is not None)
        return tr[1]

    def _known_part(self, c: _Core, player: int) -> np.ndarray:
        """The knowledge part of ``player``'s information state tensor, once per knowledge epoch."""
        seat = None if getattr(self.cfg, "knowledge_shared", False) else (player, self.public)
        tkey = (c.epoch(), seat, "tensor")
        part: np.ndarray | None = c.known.get(tkey)
        if part is None:
            known = c.knowledge(player, self.public)[1]
            part = c.known[tkey] = np.asarray(self.cfg.knowledge_tensor(known), np.float32)
        return part

    def _write(self, c: _Core, player: int) -> None:
        """The reference tensor: the encoding's ``observe`` of the seat's view."""
        n_obs = self.cfg.encoding.observation_size
        dealing = getattr(self.cfg, "deal_observation", None) if c.engine is None else None
        enc = self.cfg.encoding
        if dealing is not None:
            self.tensor[:n_obs] = dealing(c.dealt, None if self.public else player)
        elif self._floats is not None and "observe" not in getattr(enc, "__dict__", ()):
            # written in place (The Crew's ``observe_into``): no list of floats to convert
            self.tensor[:n_obs] = 0.0
            enc.observe_into(self._view(c, player), self._floats)  # type: ignore[attr-defined]
        else:
            self.tensor[:n_obs] = enc.observe(self._view(c, player))
        if self.recall:
            known = c.knowledge(player, self.public)[1]
            self.tensor[n_obs:-1] = self.cfg.knowledge_tensor(known)
            self.tensor[-1] = 1.0 if c.engine is not None else len(c.dealt) / self.cfg.deal_length

    def string_from(self, state: SpielState, player: int) -> str:
        c = state.core
        seat = None if self.public else player
        if self.recall:
            own = getattr(self.cfg, "information_string", None)
            if own is not None:
                return f"{player}{c.origin}|{own(c.dealt, c.engine, seat)}"
            if c.engine is None:
                return f"{player}|deal {len(c.dealt)}"
            return f"{player}{c.origin}|{c.public}|{c.knowledge(player, self.public)[0]}"
        dealing = getattr(self.cfg, "deal_observation_string", None) if c.engine is None else None
        if dealing is not None:
            return str(dealing(c.dealt, seat))
        text: str = self.cfg.observation_string(self._view(c, player))
        return text if c.engine is not None else f"deal {len(c.dealt)}/{self.cfg.deal_length} | {text}"


#: the tail of an information state tensor with no knowledge part: ``dealt``, 1 (read only)
_DEALT = [1.0]


def _float32_zeros(size: int) -> np.ndarray:
    return np.zeros(size, np.float32)


# ---------------------------------------------------------------------- a bot for our tournaments


class IsmctsBot(Bot):
    """OpenSpiel's own information-set MCTS (``open_spiel.python.algorithms.ismcts``) as one
    of our bots: ``bot(view, legal) -> action``.

    It sees only the view: the search's root is a determinization of it
    (:func:`state_from_view`) and every simulation starts from a fresh one
    (:class:`ViewResampler`); leaves are valued by ``rollouts`` random playouts
    (``RandomRolloutEvaluator``).  Knobs: ``simulations`` per decision, ``uct_c``
    (exploration, on the scale of ``returns``: ``"win"`` 0..1 or ``"score"`` points),
    ``rollouts``.  Picklable: it keeps no OpenSpiel object between decisions.

    >>> from dsa_widget import Game
    >>> g = Game(players=2, seed=3); g.roll((3, 3))
    >>> bot = IsmctsBot(seed=1, simulations=8)
    >>> bot(g.view(0), g.legal_choices()) in ("none", "take")
    True
    >>> sorted(bot.last_explanation["visits"])
    ['none', 'take']
    """

    name = "openspiel_ismcts"
    KNOBS: ClassVar[dict[str, Any]] = {"simulations": 48, "uct_c": 1.0, "rollouts": 1, "returns": "win"}
    simulations: int
    uct_c: float
    rollouts: int
    returns: str

    def _check_knobs(self) -> None:
        if not isinstance(self.simulations, int) or self.simulations < 1:
            raise ValueError(f"simulations must be a positive integer, got {self.simulations!r}")
        if not isinstance(self.rollouts, int) or self.rollouts < 1:
            raise ValueError(f"rollouts must be a positive integer, got {self.rollouts!r}")
        if self.returns not in RETURNS:
            raise ValueError(f"returns must be 'score' or 'win', got {self.returns!r}")

    def decide(self, view: Any, legal: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
        if len(legal) == 1:
            return legal[0], {"reason": "the only legal choice"}
        world = view.sample(self.rng)
        rules = rules_of(type(world))
        game = load_game(rules.short_name, {**rules.params_of(world), "returns": self.returns})
        seed = self.rng.getrandbits(32)
        np_rng = np.random.RandomState(seed)
        search = ismcts.ISMCTSBot(
            game,
            mcts.RandomRolloutEvaluator(self.rollouts, np_rng),
            self.uct_c,
            self.simulations,
            random_state=np_rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        worlds = random.Random(seed)
        search.set_resampler(ViewResampler(game, view, worlds))
        root = state_from_view(game, view, worlds)
        policy = search.run_search(root)
        actions = [a for a, _ in policy]
        chosen = int(np_rng.choice(actions, p=[p for _, p in policy]))
        enc = game.config.encoding
        node = search.lookup_node(root)  # the root's visits and values, for the explanation
        children = node.child_info if node is not None else {}
        # the legal action of each number (a numbering may give labels: Submarine's collections)
        named = {a: legal_action(enc, a, legal) for a in {chosen, *children}}
        visits = {named[a]: int(ch.visits) for a, ch in children.items()}
        values = {named[a]: float(ch.value()) for a, ch in children.items() if ch.visits}
        choice = named[chosen]
        if choice is None:  # pragma: no cover - the search plays the view's own position
            raise RuntimeError(f"ISMCTS chose {enc.action(chosen)!r}, which is not legal")
        return choice, {
            "reason": f"most visited of {self.simulations} simulations",
            "visits": visits,
            "values": values,
        }


def _register_builtin() -> None:
    for spec in games():
        rules = spec.openspiel_rules()
        if rules is not None:
            register(rules)


_register_builtin()
