"""The ``search`` bot for *The Crew*: determinized Monte Carlo over what its seat may know.

For a card to play, the bot draws ``samples`` complete games consistent with its
:class:`~dsa_widget.crew.view.CrewView` (:meth:`CrewView.sample`: the hidden cards from
:func:`dsa_widget.crew.knowledge.sample_deal`, exact uniform over the deals consistent with the
public facts), and on each of them plays every legal card followed by a playout of the rest of
the attempt on bit masks (:mod:`dsa_widget.crew.playouts`, every seat playing the crewmate's
card rule by default, ``rollout="random"`` for uniform cards).  The card with the most
successful playouts wins; ties go to the card the crewmate would play.  Every other decision
(tasks, predictions, distress, communication) is the crewmate's.  It never looks at the game:
only at the view it is given, and the deals it draws from it.

The default budget (16 samples) keeps one decision well under a second on one core (the
benchmark ``benchmarks/bench_crew.py`` measures it).

>>> from dsa_widget.crew.rules import CrewGame
>>> from dsa_widget.core.bots import play_bot_move
>>> g = CrewGame(4, seed=5, target=2, mission={"target": 2, "communication": "none"})
>>> bot = SearchBot(seed=1, samples=4)
>>> while not g.is_over:
...     _ = play_bot_move(g, bot)
>>> g.outcome.result in ("success", "failure")
True
>>> sorted(bot.last_explanation)[:3]
['choice', 'reason', 'samples']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from ...core.bots import Bot
from ...core.errors import is_int
from ..cards import card
from ..errors import CrewError
from ..playouts import PlayState, Policy, greedy_play, random_play
from .crewmate import CrewmateBot

if TYPE_CHECKING:
    from ..rules import CrewGame

__all__ = ["SearchBot"]


class SearchBot(Bot):
    """Determinized Monte Carlo (see the module docstring).  Knobs: ``samples`` (deals drawn
    per decision), ``rollout`` (``"greedy"``: the crewmate's card rule, or ``"random"``),
    ``communicate`` (passed to the crewmate that makes the other decisions), ``kernel``
    (False: roll out in Python even where the compiled kernel can, the slower path kept to
    compare against)."""

    name = "search"
    summary = "Monte Carlo: tries each card on deals drawn from what it may know, keeps the most successful"
    KNOBS: ClassVar[dict[str, Any]] = {
        "samples": 16,
        "rollout": "greedy",
        "communicate": True,
        "kernel": True,
    }

    def _check_knobs(self) -> None:
        if not is_int(self.knobs["samples"]) or self.knobs["samples"] < 1:
            raise ValueError(f"samples must be an int >= 1, not {self.knobs['samples']!r}")
        if not isinstance(self.knobs["kernel"], bool):
            raise ValueError(f"kernel must be True or False, not {self.knobs['kernel']!r}")
        if self.knobs["rollout"] not in ("greedy", "random"):
            raise ValueError(f"rollout must be 'greedy' or 'random', not {self.knobs['rollout']!r}")
        self._crewmate = CrewmateBot(seed=self.seed, communicate=self.knobs["communicate"])
        self._crewmate.rng = self.rng  # one generator: the same view and seed give the same choice

    def spawn(self, seed: int | None) -> SearchBot:
        return SearchBot(seed=seed, **self.knobs)

    def decide(self, view: Any, legal: tuple[Any, ...]) -> tuple[Any, dict[str, Any]]:
        plays = [a for a in legal if a.startswith("play ")]
        base, why = self._crewmate.decide(view, legal)
        if view.step != "play" or len(plays) < 2 or not base.startswith("play "):
            return base, dict(why, reason=f"crewmate: {why.get('reason', '')}")
        rng = self.rng
        games = []
        for _ in range(self.knobs["samples"]):
            try:
                games.append(view.sample(rng))
            except (ValueError, CrewError):
                continue
        wins = self._kernel_wins(games, plays) if self.knobs["kernel"] and games else None
        if wins is None:
            wins = self._python_wins(games, plays)
        done = wins.pop("", 0)
        if not done:
            return base, dict(why, reason="no consistent deal drawn: crewmate's card", samples=0)
        best = max(plays, key=lambda a: (wins[a], a == base))
        values = {a: wins[a] / done for a in plays}
        return best, {
            "reason": f"{wins[best]} of {done} sampled deals succeed after it",
            "values": values,
            "samples": done,
        }

    def _kernel_wins(self, games: list[CrewGame], plays: list[str]) -> dict[str, int] | None:
        """The rollouts on the compiled kernel, every sample and card in one call (None: the
        kernel cannot play this position: Tonoja, constraints, options that change judging)."""
        from ..kernel import game_position, game_sample, kernel_rollouts  # numba loads on first use

        pos = game_position(games[0])
        if pos is None:
            return None
        samples = [game_sample(g) for g in games]
        counts = kernel_rollouts(
            pos,
            [card(a[5:]) for a in plays],
            samples,
            policy=self.knobs["rollout"],
            seed=self.rng.getrandbits(63),
        )
        wins = dict(zip(plays, counts, strict=True))
        wins[""] = len(games)
        return wins

    def _python_wins(self, games: list[CrewGame], plays: list[str]) -> dict[str, int]:
        """The rollouts in Python on :class:`PlayState` (every position; ``kernel=False``)."""
        policy: Policy = greedy_play if self.knobs["rollout"] == "greedy" else random_play
        wins = dict.fromkeys(plays, 0)
        done = 0
        rng = self.rng
        for game in games:
            try:
                st0 = PlayState.from_game(game)
            except (ValueError, CrewError):
                continue
            done += 1
            for a in plays:
                st = st0.copy()
                st.play(card(a[5:]))
                if st.play_out(policy, rng) == "success":
                    wins[a] += 1
        wins[""] = done
        return wins
