"""Command line: ``python -m dsa_widget replay FILE`` and friends."""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import sys
from typing import Sequence

from .errors import DeepSeaError


def _cmd_replay(args: argparse.Namespace) -> int:
    from .record import load_record

    try:
        if args.file == "-":
            game = load_record(sys.stdin.read(), events=False)
        else:
            game = load_record(pathlib.Path(args.file), events=False)
    except DeepSeaError as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    print(json.dumps(game.state_dict(), indent=2))
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    """Play a game between random-legal players in the terminal, then replay its record."""
    from .events import narrate
    from .game import Game
    from .record import load_record

    game = Game(players=args.players, seed=args.seed)
    rng = random.Random(args.seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_choices()))
    for line in narrate(game.events, game.players):
        print(line)
    if args.save:
        game.save(args.save)
        print(f"\nRecord saved to {args.save}")
    replayed = load_record(game.to_record())
    same = replayed.state_dict() == game.state_dict()
    print(f"\nReplayed from its record: {'identical state' if same else 'MISMATCH'}")
    return 0 if same else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m dsa_widget", description=__doc__)
    sub = parser.add_subparsers(dest="command", required=True)
    p = sub.add_parser("replay", help="check a game record and print the state after its last turn")
    p.add_argument("file", help="a record file (RECORD.md), or - for standard input")
    p.set_defaults(func=_cmd_replay)
    p = sub.add_parser("demo", help="play a game in the terminal and replay it from its record")
    p.add_argument("--players", nargs="+", default=["Ann", "Bob", "Cy"])
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--save", help="write the game's record to this file")
    p.set_defaults(func=_cmd_demo)
    args = parser.parse_args(argv)
    return int(args.func(args))
