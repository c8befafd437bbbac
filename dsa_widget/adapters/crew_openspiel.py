"""*The Crew: Mission Deep Sea* as an OpenSpiel game: ``python_the_crew_deep_sea``.

Importing this module registers it (again: harmless).

>>> import pyspiel
>>> game = pyspiel.load_game("python_the_crew_deep_sea", {"players": 4, "tasks": "70"})
>>> game.num_players(), game.num_distinct_actions(), game.max_chance_outcomes()
(4, 371, 4)
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()            # P1 goes to seat 0, 1, 2 or 3
(True, [(0, 0.25), (1, 0.25), (2, 0.25), (3, 0.25)])
>>> for i in range(40):                                       # seat i % 4 gets the i-th card
...     state.apply_action(i % 4)
>>> state.current_player(), [state.action_to_string(a) for a in state.legal_actions()][:2]
(3, ['pass', 'take 70'])
>>> state.information_state_string(0)[:23]
'0|P1>0,P2?,P3?,P4?,P5>0'

**Players** are the humans, in seat order (``game.config.humans[p]`` is player ``p``'s seat):
with two players Tonoja is not a player; the captain plays for it.  **Chance**: the deal (and
the terrain card, and the seat of the 14th card with three players), explicit and exact:
:mod:`dsa_widget.crew.openspiel`.  The tasks are fixed for a loaded game (parameter ``tasks``,
or drawn from ``seed`` when it is made).  **Actions**: the numbering of
:mod:`dsa_widget.adapters.crew_encoding` (371); allocations with free proposals are refused;
after ``max_rejections`` (default 8) ``reject`` / ``decline`` actions the game stops offering
them (so that ``max_game_length`` is a true bound).  **Returns**: 1 for every player on
success, 0 on failure (identical interest).

**Observers.**  ``observation_tensor`` is ``CrewEncoding.observe(engine.view(seat))`` (while the
cards are dealt: the cards received so far); ``observation_string`` is the view's JSON
(``CrewView.to_dict()`` without mission and options).  ``information_state_string(p)`` is
``"p|<the deal as p saw it>|<public history as p knows it>|<what p knows now>"``: the deal node
by node (``P3>1`` seen: P3 went to outcome 1; ``P3?`` not seen), the actions with another seat's
distress card and a hidden prediction masked (``CrewGame.public_history``), then the revealed
facts (Tonoja's turned-up cards, the distress cards, predictions, communications as the seat
sees them).  Knowledge only grows, at moments the public history fixes, so the string has
perfect recall and is the same for every state the seat cannot tell apart.  Observers with
``private_info=NONE`` give the public's (no hand, nothing private).  There is no information
state tensor.

**Resampling**: ``state.resample_from_infostate(p, sampler)`` draws the hidden cards from p's view
with :func:`dsa_widget.crew.knowledge.sample_deal` (exactly uniform among consistent deals),
rebuilds the deal (``CrewGame.from_view``) and replays the actions, keeping the draw only when
the new state has p's information state string (rejection: deals R-6.10 excludes, and anything
the knowledge does not model).  **Serialisation** pickles the chance outcomes and the actions.
"""

from __future__ import annotations

import json
import random
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

import numpy as np
import pyspiel

from ..crew.cards import card
from ..crew.draw import deal_exception
from ..crew.knowledge import sample_deal
from ..crew.openspiel import RULES, CrewConfig
from ..crew.rules import CrewGame
from .crew_encoding import (
    ACCEPT,
    DECLINE,
    NUM_ACTIONS,
    OBSERVATION_SIZE,
    REJECT,
    CrewEncoding,
    check_supported,
    crew_text,
)

__all__ = ["GAME_TYPE", "CrewSpielGame", "CrewSpielObserver", "CrewSpielState"]

_ENC = CrewEncoding()

GAME_TYPE = pyspiel.GameType(
    short_name=RULES.short_name,
    long_name=RULES.long_name,
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.IDENTICAL,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=RULES.max_players,
    min_num_players=RULES.min_players,
    provides_information_state_string=True,
    provides_information_state_tensor=False,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=dict(RULES.parameters),
)


class CrewSpielGame(pyspiel.Game):  # type: ignore[misc]
    """The Crew for one parameter set (``pyspiel.load_game("python_the_crew_deep_sea", {...})``)."""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        cfg = RULES.configure(dict(params or {}))
        check_supported(cfg.mission.allocation, cfg.mission.volunteers)
        self.config: CrewConfig = cfg
        info = pyspiel.GameInfo(
            num_distinct_actions=NUM_ACTIONS,
            max_chance_outcomes=cfg.max_chance_outcomes,
            num_players=cfg.num_players,
            min_utility=0.0,
            max_utility=1.0,
            utility_sum=None,
            max_game_length=cfg.max_game_length,
        )
        super().__init__(GAME_TYPE, info, dict(cfg.params))

    def new_initial_state(self) -> CrewSpielState:
        return CrewSpielState(self, _Core(self.config))

    def make_py_observer(
        self, iig_obs_type: Any = None, params: Mapping[str, Any] | None = None
    ) -> CrewSpielObserver:
        return CrewSpielObserver(
            self.config, iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class _Core:
    """A state's Python side: the deal so far, the engine after it, the actions (numbers)."""

    __slots__ = ("cfg", "deal", "engine", "actions", "rejections", "pending")

    def __init__(self, cfg: CrewConfig) -> None:
        self.cfg = cfg
        self.deal: dict[str, Any] = {"cards": []}
        self.engine: CrewGame | None = None
        self.actions: list[int] = []
        self.rejections = 0
        self.pending: tuple[tuple[int, Fraction], ...] | None = None  # the next chance node's

    def chance(self) -> tuple[tuple[int, Fraction], ...]:
        """The next chance node's outcomes (kept until it is applied)."""
        if self.pending is None:
            self.pending = self.cfg.chance_outcomes(self.deal)
        return self.pending

    def apply_chance(self, o: int) -> None:
        if o not in dict(self.chance()):
            raise ValueError(f"{o} is not an outcome of chance node {self.cfg.dealt_count(self.deal)}")
        self.cfg.record_chance(self.deal, o)
        self.pending = None
        if len(self.deal["cards"]) == 40:
            self.engine = self.cfg.start(self.deal)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Core:
        c = _Core.__new__(_Core)
        c.cfg = self.cfg
        c.deal = {k: (list(v) if k == "cards" else v) for k, v in self.deal.items()}
        c.engine = None if self.engine is None else self.engine.clone()
        c.actions = list(self.actions)
        c.rejections = self.rejections
        c.pending = self.pending
        return c

    def __getstate__(self) -> tuple[Any, ...]:
        return (self.cfg, self.deal, self.actions)

    def __setstate__(self, s: tuple[Any, ...]) -> None:
        cfg, deal, actions = s
        self.cfg, self.deal, self.actions, self.rejections, self.pending = cfg, deal, [], 0, None
        self.engine = cfg.start(deal) if len(deal["cards"]) == 40 else None
        for a in actions:
            self.apply(a)

    def legal(self) -> list[int]:
        e = self.engine
        if e is None or e.is_over:
            return []
        out = sorted(_ENC.index(a) for a in e.legal_actions())
        if self.rejections >= self.cfg.max_rejections:
            out = [a for a in out if a not in (REJECT, DECLINE)]
            if not out:  # pragma: no cover - confirm / accept are always there
                out = [ACCEPT]
        return out

    def apply(self, action: int) -> None:
        e = self.engine
        assert e is not None
        if action not in self.legal():
            what = _ENC.action(action) if 0 <= action < NUM_ACTIONS else "?"
            raise ValueError(f"action {action} ({what}) is not legal here")
        e.apply(_ENC.decode(action, e.task_ids))
        self.actions.append(action)
        if action in (REJECT, DECLINE):
            self.rejections += 1


class CrewSpielState(pyspiel.State):  # type: ignore[misc]
    """A state of :class:`CrewSpielGame`."""

    def __init__(self, game: CrewSpielGame, core: _Core) -> None:
        super().__init__(game)
        self._c = core

    @property
    def core(self) -> _Core:
        return self._c

    @property
    def engine(self) -> CrewGame | None:
        """The engine once the deal is complete (the truth: never give it to a player)."""
        return self._c.engine

    def current_player(self) -> int:
        c = self._c
        e = c.engine
        if e is None:
            return int(pyspiel.PlayerId.CHANCE)
        if e.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return c.cfg.humans.index(e.to_move)

    def _legal_actions(self, player: int) -> list[int]:
        if self._c.engine is None or self.current_player() != player:
            return []
        return self._c.legal()

    def chance_outcomes_exact(self) -> list[tuple[int, Fraction]]:
        """The chance outcomes as exact fractions (they sum to 1); ``[]`` after the deal."""
        c = self._c
        return [] if c.engine is not None else list(c.chance())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(a, float(p)) for a, p in self.chance_outcomes_exact()]

    def _apply_action(self, action: int) -> None:
        c = self._c
        if c.engine is None:
            c.apply_chance(action)
            return
        c.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        c = self._c
        if player == pyspiel.PlayerId.CHANCE or c.engine is None:
            return c.cfg.chance_string(c.deal, action)
        return _ENC.decode(action, c.engine.task_ids)

    def is_terminal(self) -> bool:
        e = self._c.engine
        return e is not None and e.is_over

    def returns(self) -> list[float]:
        e = self._c.engine
        ok = e is not None and e.outcome is not None and e.outcome.result == "success"
        return [1.0 if ok else 0.0] * self._c.cfg.num_players

    def __str__(self) -> str:
        c = self._c
        if c.engine is None:
            return f"deal {c.cfg.dealt_count(c.deal)}/{c.cfg.deal_length}"
        return crew_text(c.engine)

    def _replayed(self, deal: Mapping[str, Any], actions: list[int]) -> CrewSpielState:
        """A new state of this game: ``deal``'s chance outcomes, then ``actions``."""
        st: CrewSpielState = self.get_game().new_initial_state()
        for a in _outcomes(deal) + actions:
            st.apply_action(a)
        return st

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> CrewSpielState:
        """A state drawn from those ``player_id`` cannot tell from this one (see the module
        docstring); ``probability_sampler`` (OpenSpiel's) seeds the draw."""
        seed = probability_sampler() if callable(probability_sampler) else None
        rng = random.Random(seed)
        c = self._c
        seat = c.cfg.humans[player_id]
        if c.engine is None:
            return self._replayed(c.cfg.resample_deal(c.deal, seat, rng), [])
        target = self.information_state_string(player_id)
        view = c.engine.view(seat)
        k = view.knowledge()
        for _ in range(1000):
            extra = sample_deal(k, rng)
            world = CrewGame.from_view(view, [k.known[s] | int(extra[s]) for s in range(view.seats)], rng)
            masks = [sum(1 << card(x) for x in h) for h in world.dealt]
            if not c.cfg.valid(masks) or (c.cfg.deal_check and deal_exception(masks, c.cfg.tasks)):
                continue
            deal = c.cfg.deal_of(world, c.deal.get("terrain"), c.deal.get("extra"))
            try:  # the public actions, the hidden ones (distress cards, predictions) as sampled
                st = self._replayed(deal, [_ENC.index(h["action"]) for h in world.history])
            except Exception:  # noqa: BLE001 - pyspiel wraps the ValueError of an illegal action
                continue
            if st.information_state_string(player_id) == target:
                return st
        raise RuntimeError("no state consistent with the information state was found")


# ---------------------------------------------------------------------- observers


def _revealed(view: Any) -> str:
    """What a view knows beyond its history: the captain, Tonoja's turned-up cards, the distress cards, the
    predictions and statuses, the communications as shown to it."""
    layout = ",".join(d or "?" for _, d in view.dummy_layout)
    d = view.distress
    dist = f"{d.get('given') or '-'}>{d.get('given_to')}<{d.get('received') or '-'}"
    tasks = ",".join(f"{t}:{o}:{st}:{'?' if h else p}" for t, o, st, p, _pr, h in view.tasks)
    comms = ",".join(f"{cm.seat}{cm.card}{cm.position[0]}" for cm in view.communicated)
    return f"cap{view.captain}|{layout}|{dist}|{tasks}|{comms}"


class CrewSpielObserver:
    """OpenSpiel's Python observer: see the module docstring."""

    def __init__(self, cfg: CrewConfig, iig_obs_type: Any, params: Mapping[str, Any] | None) -> None:
        if params:
            raise ValueError(f"observation parameters are not supported; got {dict(params)}")
        private = iig_obs_type.private_info
        if private == pyspiel.PrivateInfoType.ALL_PLAYERS or not iig_obs_type.public_info:
            raise ValueError("the observer gives one seat's or the public knowledge (public_info=True)")
        self.cfg = cfg
        self.public = private == pyspiel.PrivateInfoType.NONE
        self.recall = bool(iig_obs_type.perfect_recall)
        size = 0 if self.recall else OBSERVATION_SIZE
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor} if size else {}

    def _seat(self, player: int) -> int | None:
        return None if self.public else self.cfg.humans[player]

    def set_from(self, state: CrewSpielState, player: int) -> None:
        if self.recall:
            return
        c = state.core
        cfg = self.cfg
        seat = self._seat(player)
        if c.engine is None:
            obs = _ENC.observe_deal(cfg.seats, cfg.dummy, seat, cfg.seen_cards(c.deal, seat))
        else:
            obs = _ENC.observe(c.engine.view(seat), origin=cfg.humans[player])
        self.tensor[:] = obs

    def string_from(self, state: CrewSpielState, player: int) -> str:
        c = state.core
        seat = self._seat(player)
        if self.recall:
            head = f"{player}|{self.cfg.deal_string(c.deal, seat)}"
            if c.engine is None:
                return head
            view = c.engine.view(seat)
            hist = " ".join(f"{s}:{a}" for s, a in view.public_history)
            return f"{head}|{hist}|{_revealed(view)}"
        if c.engine is None:
            done = self.cfg.dealt_count(c.deal)
            return f"deal {done}/{self.cfg.deal_length} {self.cfg.deal_string(c.deal, seat)}"
        d = c.engine.view(seat).to_dict()
        d.pop("mission", None)
        d.pop("options", None)
        return json.dumps(d, sort_keys=True, separators=(",", ":"))


def _outcomes(deal: Mapping[str, Any]) -> list[int]:
    """The chance outcomes of a deal, in node order."""
    head = [deal[k] for k in ("terrain", "extra") if k in deal]
    return head + list(deal["cards"])


def _register() -> None:
    if RULES.short_name not in pyspiel.registered_names():
        pyspiel.register_game(GAME_TYPE, CrewSpielGame)


_register()
