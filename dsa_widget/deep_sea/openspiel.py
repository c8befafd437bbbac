"""Deep Sea Adventure's part of the OpenSpiel game: its parameters, the hidden deal as explicit
chance, its bounds and what a seat knows.  The generic pyspiel game, state and observer live in
:mod:`dsa_widget.adapters.openspiel`, which finds this module through ``Game.OPENSPIEL``; this
module imports no OpenSpiel, so it loads (and its doctests run) without it.

**The deal.**  Before play, one chance node per chip of the standard path, in chip-id order
(the 8 level-1 chips, then level 2, 3, 4): each draws that chip's value from the values still
left at its level, with probability ``count / remaining`` (exact :class:`~fractions.Fraction`
objects; OpenSpiel gets their floats).  Outcome ``k`` is the ``k``-th of the level's sorted
distinct values.  Nobody observes a deal outcome: a chip's value becomes known only when it is
banked (RULES.md).  After the last deal node the engine's
:class:`~dsa_widget.deep_sea.rules.Game` is built with that path and plays; its dice are chance
nodes too (outcome ``i`` is ``DICE_OUTCOMES[i]``, 1/9 each).

>>> cfg = RULES.configure({"players": 3})
>>> cfg.deal_length, cfg.num_actions, cfg.max_chance_outcomes
(32, 69, 9)
>>> cfg.deal_outcomes(())                # chip 0 (level 1): values 0, 1, 2, 3, two of each
((0, Fraction(1, 4)), (1, Fraction(1, 4)), (2, Fraction(1, 4)), (3, Fraction(1, 4)))
>>> cfg.deal_outcomes((0, 0, 1))         # both 0s are gone, one 1 is left of 5 chips
((1, Fraction(1, 5)), (2, Fraction(2, 5)), (3, Fraction(2, 5)))
>>> g = cfg.start((0, 0, 1, 1, 2, 2, 3, 3) * 4)
>>> g.chip(8), g.players, g.setup.air
((2, 4), ('Player 1', 'Player 2', 'Player 3'), 25)
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

from .encoding import Encoding
from .rules import DICE_OUTCOMES, Game
from .setup import CHIP_VALUES, MAX_PLAYERS, MIN_PLAYERS, STANDARD_CHIPS, Options, Setup
from .view import View

__all__ = ["RULES", "DeepSeaConfig", "DeepSeaRules"]

_LEVELS: tuple[int, ...] = tuple(lv for lv, _ in STANDARD_CHIPS)
#: by level, the sorted distinct values (deal outcome k is the k-th) and how many chips have each
_DISTINCT: dict[int, tuple[int, ...]] = {lv: tuple(sorted(set(v))) for lv, v in CHIP_VALUES.items()}
_COUNTS: dict[int, tuple[int, ...]] = {
    lv: tuple(CHIP_VALUES[lv].count(x) for x in _DISTINCT[lv]) for lv in CHIP_VALUES
}
_OPTION_DEFAULTS: dict[str, bool | str] = dict(Options().to_dict())
#: by deal node, the earlier nodes of the same level (what decides its outcomes)
_SAME_LEVEL: tuple[tuple[int, ...], ...] = tuple(
    tuple(c for c in range(i) if _LEVELS[c] == lv) for i, lv in enumerate(_LEVELS)
)
#: a deal node's outcomes by its level and the sorted outcomes of its level dealt before it (one
#: shared tuple each: OpenSpiel asks twice a node, and the adapter converts a tuple once)
_DEAL_OUTCOMES: dict[tuple[int, tuple[int, ...]], tuple[tuple[int, Fraction], ...]] = {}


class DeepSeaRules:
    """What OpenSpiel's registry needs before any game is loaded: the names and the
    parameters with their defaults (``players`` 2..6, ``air``, ``rounds`` and the rule options
    of :class:`~dsa_widget.deep_sea.setup.Options`; the adapter adds ``returns``)."""

    short_name = "python_deep_sea_adventure"
    long_name = "Python Deep Sea Adventure"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    parameters: Mapping[str, int | float | bool | str] = {
        "players": 4,
        "air": 25,
        "rounds": 3,
        **_OPTION_DEFAULTS,
    }

    def configure(self, params: Mapping[str, Any]) -> DeepSeaConfig:
        """The game for these parameters (missing ones take their defaults); a bad value
        raises :class:`~dsa_widget.deep_sea.errors.SetupError` naming it."""
        unknown = sorted(k for k in params if k not in self.parameters)
        if unknown:
            raise ValueError(f"unknown parameter {unknown[0]!r}; they are {', '.join(self.parameters)}")
        full = {**self.parameters, **params}
        return _configure(tuple(sorted(full.items())))

    def params_of(self, game: Game | View) -> dict[str, Any]:
        """The parameters of a game's (or a view's) setup, for rebuilding it in OpenSpiel.
        Only setups with the standard 32-chip path have an OpenSpiel game."""
        if tuple(game.levels) != _LEVELS:
            raise ValueError("the OpenSpiel game plays the standard path of 32 chips only")
        if isinstance(game, View):
            n, air, rounds, options = len(game.players), game.start_air, game.rounds, game.options
        else:
            s = game.setup
            n, air, rounds, options = len(s.players), s.air, s.rounds, s.options
        return {"players": n, "air": air, "rounds": rounds, **options.to_dict()}

    def __reduce__(self) -> str:
        return "RULES"  # the module's one instance, by name (pickles as a reference)


@functools.lru_cache(maxsize=64)
def _configure(items: tuple[tuple[str, Any], ...]) -> DeepSeaConfig:
    return DeepSeaConfig(dict(items))


class DeepSeaConfig:
    """Deep Sea Adventure for one set of parameters: everything the generic adapter asks.

    Instances are shared (one per parameter set) and immutable; copying or pickling one
    gives the shared instance.
    """

    def __init__(self, params: Mapping[str, Any]) -> None:
        self.params = dict(params)
        options = {k: params[k] for k in _OPTION_DEFAULTS}
        # Setup.create checks every value and names the one at fault
        self._setup = Setup.create(
            int(params["players"]), air=params["air"], rounds=params["rounds"], options=options
        )
        self.num_players = self._setup.n_players
        self._public_reveal = self._setup.options.reveal == "public"
        self.placeholder = self.start(self.deal_of_values([v for _, v in STANDARD_CHIPS]))
        self.encoding = Encoding(self.placeholder)
        self.num_actions = self.encoding.num_actions
        self.deal_length = len(_LEVELS)
        self.max_chance_outcomes = max(len(DICE_OUTCOMES), *(len(d) for d in _DISTINCT.values()))
        self.min_score = 0.0
        self.max_score = float(sum(v for _, v in STANDARD_CHIPS))
        self.max_game_length = self._max_game_length()
        self.knowledge_size = 2 * len(_LEVELS)

    def __deepcopy__(self, memo: dict[int, Any]) -> DeepSeaConfig:
        return self

    def __reduce__(self) -> Any:
        return (RULES.configure, (self.params,))

    # ---------------------------------------------------------------- the deal

    def deal_outcomes(self, dealt: Sequence[int]) -> tuple[tuple[int, Fraction], ...]:
        """The outcomes of the next deal node, given the outcomes ``dealt`` so far: ``(k,
        count / remaining)`` for each distinct value ``k`` of the chip's level still left."""
        i = len(dealt)
        lv = _LEVELS[i]
        key = (lv, tuple(sorted([dealt[c] for c in _SAME_LEVEL[i]])))
        hit = _DEAL_OUTCOMES.get(key)
        if hit is None:
            left = list(_COUNTS[lv])
            for k in key[1]:
                left[k] -= 1
            total = sum(left)
            hit = _DEAL_OUTCOMES[key] = tuple((k, Fraction(m, total)) for k, m in enumerate(left) if m)
        return hit

    def deal_string(self, i: int, k: int) -> str:
        """Deal node ``i``'s outcome ``k`` in words."""
        return f"chip {i + 1} (level {_LEVELS[i]}) is worth {_DISTINCT[_LEVELS[i]][k]}"

    def deal_of_values(self, values: Sequence[int]) -> tuple[int, ...]:
        """The deal outcomes that give chip ``c`` the value ``values[c]``."""
        return tuple(_DISTINCT[lv].index(v) for lv, v in zip(_LEVELS, values, strict=True))

    def deal_of(self, game: Game) -> tuple[int, ...]:
        """The deal outcomes that would have dealt ``game``'s chips (its true values: for the
        adapter's resampling, on a sampled game, never on a live one)."""
        return self.deal_of_values([game.chip(c)[1] for c in range(len(_LEVELS))])

    def start(self, dealt: Sequence[int]) -> Game:
        """The engine once the deal is complete (no event log, no turn list: the adapter keeps
        the action history; its own dice are never rolled, chance is applied explicitly)."""
        path = [(lv, _DISTINCT[lv][k]) for lv, k in zip(_LEVELS, dealt, strict=True)]
        s = self._setup
        return Game(
            players=s.n_players,
            air=s.air,
            rounds=s.rounds,
            path=path,
            options=s.options,
            rng=0,
            events=False,
            history=False,
        )

    def rebase(self, root: Game, like: Game) -> Game:
        """``root``'s position with the chip values of ``like`` (a sample drawn later in the
        same game), for replaying a search from a position that was not dealt."""
        values = [like.chip(c)[1] for c in range(len(root.levels))]
        return Game.from_view(root.view(0), values, rng=0)

    # ---------------------------------------------------------------- bounds

    def _max_game_length(self) -> int:
        """A true upper bound on the number of OpenSpiel actions (chance included) in a game.

        With ``C`` = 32 chips, ``n`` divers, air ``A`` and ``R`` rounds, and ``P`` <= C the
        number of path spaces in a round (each space of a later round holds at least one chip),
        a round's turns are of three kinds (RULES.md):

        * a diver carrying an item breathes: the air falls by at least 1 and the turn that
          brings it to 0 or below is the round's last, so at most ``A`` such turns;
        * a diver carrying nothing who is not stuck moves every turn (his dice sum is at least
          2, nothing slows him): heading down his space grows by at least 1 (he never moves
          back), heading up it falls by at least 2 (the submarine is always free) and he heads
          up at most once a round, so at most ``P + ceil(P / 2)`` such turns per diver;
        * a *stuck* turn: a diver in the submarine heading down while all P spaces hold other
          divers (so ``P <= n - 1``).  Every diver on the path moves or breathes on his turn,
          so stuck turns come in runs of at most ``n - 1`` between two turns of the other kinds.

        So with ``T = A + n (P + ceil(P/2))`` moving or breathing turns there are at most
        ``(n - 1)(T + 1)`` stuck turns when ``P <= n - 1``.  A turn is at most 3 actions (turn
        back, roll, search; a stuck turn is 1: the roll), and the sink step after a round's
        last turn lays at most ``C`` chips one action each.  The bound is the deal's ``C``
        actions plus ``R`` times the worst round over ``P`` = 1..C.
        """
        c = len(_LEVELS)
        n, air, rounds = self.num_players, self._setup.air, self._setup.rounds
        worst = 0
        for p in range(1, c + 1):
            moving = air + n * (p + (p + 1) // 2)
            stuck = (n - 1) * (moving + 1) if p <= n - 1 else 0
            worst = max(worst, 3 * moving + stuck + c)
        return c + rounds * worst

    # ---------------------------------------------------------------- knowledge

    def knowledge_epoch(self, game: Game) -> tuple[int, bool]:
        """What a seat knows changes only when chips are banked: at a round's end (and at the
        game's end, under ``reveal="owner"``)."""
        return game.round, game.is_over

    def knowledge(self, game: Game, seat: int, public: bool = False) -> Mapping[int, int]:
        """The chip values ``seat`` knows (``public``: those every seat knows), from the
        engine's own view: no other hidden value is ever read."""
        return game.view(seat, knower=None if public else seat).known

    def knowledge_string(self, known: Mapping[int, int]) -> str:
        return ",".join(f"{c}={v}" for c, v in sorted(known.items()))

    def knowledge_tensor(self, known: Mapping[int, int]) -> list[float]:
        """For each chip: 1 if its value is known, then that value (0 when unknown)."""
        out = [0.0] * self.knowledge_size
        for c, v in known.items():
            out[2 * c] = 1.0
            out[2 * c + 1] = float(v)
        return out

    def observation_string(self, view: View) -> str:
        """A seat's view in one compact line: round, air, step, seat to act, the path (each
        space a blank ``_`` or its chips' levels), each diver (space, ``d``own/``u``p, ``h``ome,
        carried items' levels), the values known, the scores known, the sink step, winners."""

        def item(it: tuple[int, ...] | None) -> str:
            return "_" if it is None else "".join(str(view.levels[c]) for c in it)

        cur = "-" if view.current_player is None or view.finished else str(view.current_player)
        divers = " ".join(
            f"{view.positions[q]}{'u' if view.heading_up[q] else 'd'}{'h' if view.returned[q] else ''}"
            f"[{'.'.join(item(it) for it in view.carrying[q])}]"
            for q in range(len(view.players))
        )
        scores = ",".join("?" if s is None else str(s) for s in view.scores)
        text = (
            f"r{view.round}/{view.rounds} a{view.air} {view.step} p{cur}"
            f"{' forced' if view.must_turn_back else ''}{' breathed' if view.breathed else ''}"
            f" | {' '.join(item(it) for it in view.path[1:])} | {divers}"
            f" | known {self.knowledge_string(view.known)} | scores {scores}"
        )
        if view.sink_queue:
            text += f" | sink {view.sink_queue} laid {view.laying}"
        if view.finished:
            text += f" | winners {list(view.winners)}"
        return text

    def chance_string(self, outcome: Any) -> str:
        return f"roll {outcome[0]}+{outcome[1]}"


#: Deep Sea Adventure's OpenSpiel rules (``Game.OPENSPIEL`` names it)
RULES = DeepSeaRules()
