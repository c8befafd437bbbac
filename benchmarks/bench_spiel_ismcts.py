"""OpenSpiel's own ISMCTS (``open_spiel.python.algorithms.ismcts.ISMCTSBot``, random-rollout
leaves) in one seat against random seats, on one of our OpenSpiel games.  Not a test: it prints
numbers.  The searching seat rotates game by game; a decision with one legal action is played
without a search.  Each game prints a line as it ends (a stopped run still has its games).

    python benchmarks/bench_spiel_ismcts.py                      # Submarine, 2 players, 24 games
    python benchmarks/bench_spiel_ismcts.py --players 3 --games 24 --simulations 48
    python benchmarks/bench_spiel_ismcts.py --turn-limit 0      # whole games (about 80 s CPU each)

By default a game ends after 40 turns (Submarine's ``turn_limit``, E5: the scores then decide):
random rollouts of whole games cost about 0.6 s CPU a search.

Measured (a loaded 2-core machine, one process under nice -n 10, seed 2026; ``returns="win"``,
uct_c 1, one rollout a leaf; also in docs/AI.md, Submarine's OpenSpiel section):

    (defaults)                 2 players, turn_limit 40: 24 of 24 (100%, Wilson 86.2-100%),
                               183 ms CPU a search (before the adapter's log got cheaper);
                               again after it: 23.5 of 24 (97.9%, 82.8-99.8%), 132 ms a search
                               (runs do not repeat exactly: OpenSpiel's sampler seeds resamples)
    --players 3                23 of 24 (95.8%, Wilson 79.8-99.3%), 109 ms CPU a search
    --turn-limit 0 --games 6   whole games, 2 players: 6 of 6 (Wilson 61.0-100%), 475 ms a search
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import dsa_widget.adapters.openspiel  # noqa: F401  (registers the games)
from dsa_widget.core.stats import wilson


def play(game: pyspiel.Game, seat: int, simulations: int, seed: int) -> tuple[float, float, int]:
    """One game: ISMCTS in ``seat``, the others random.  (ISMCTS's return, its CPU s, decisions)."""
    rng = random.Random(seed)
    np_rng = np.random.RandomState(seed)
    bot = ismcts.ISMCTSBot(
        game, mcts.RandomRolloutEvaluator(1, np_rng), 1.0, simulations, random_state=np_rng
    )
    s = game.new_initial_state()
    cpu, decided = 0.0, 0
    while not s.is_terminal():
        if s.is_chance_node():
            actions, probs = zip(*s.chance_outcomes(), strict=True)
            s.apply_action(rng.choices(actions, probs)[0])
            continue
        legal = s.legal_actions()
        if s.current_player() == seat and len(legal) > 1:
            t0 = time.process_time()
            action = bot.step(s)
            cpu += time.process_time() - t0
            decided += 1
        else:
            action = rng.choice(legal)
        s.apply_action(action)
    return s.returns()[seat], cpu, decided


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--game", default="python_submarine")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=24)
    ap.add_argument("--turn-limit", type=int, default=40, help="the game's turn_limit (0: its default)")
    ap.add_argument("--simulations", type=int, default=48)
    ap.add_argument("--seed", type=int, default=2026)
    a = ap.parse_args()
    params: dict[str, int | str] = {"players": a.players, "returns": "win"}
    if a.turn_limit:
        params["turn_limit"] = a.turn_limit
    game = pyspiel.load_game(a.game, params)
    wins, cpu, decided = 0.0, 0.0, 0
    for i in range(a.games):
        won, c, d = play(game, i % a.players, a.simulations, a.seed + i)
        wins, cpu, decided = wins + won, cpu + c, decided + d
        print(f"game {i + 1}: seat {i % a.players} got {won:.2f}; {d} searches, {c:.0f} s CPU", flush=True)
    lo, hi = wilson(wins, a.games)
    print(
        f"{a.game}, {params}: ISMCTS ({a.simulations} simulations) vs random: "
        f"{wins:g} of {a.games} ({wins / a.games:.1%}, Wilson {lo:.1%}-{hi:.1%}; uniform "
        f"{1 / a.players:.0%}); {cpu:.0f} s CPU in {decided} searches "
        f"({1000 * cpu / max(decided, 1):.0f} ms each)"
    )


if __name__ == "__main__":
    main()
