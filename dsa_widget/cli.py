"""Command line: ``python -m dsa_widget replay FILE`` and friends."""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import sys
from collections.abc import Sequence
from typing import Any

from .core.errors import GameError


def _cmd_replay(args: argparse.Namespace) -> int:
    """Replay a record of any game the package knows (dispatched on its ``format``)."""
    from .core.records import replay

    try:
        # standard input is read as a stream: its text is never taken for a file name
        state = replay(sys.stdin.buffer if args.file == "-" else pathlib.Path(args.file))
    except GameError as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    print(json.dumps(state, indent=2))
    return 0


def _cmd_demo(args: argparse.Namespace) -> int:
    """Play a game between random-legal players in the terminal, then replay its record."""
    from .deep_sea.events import narrate
    from .deep_sea.record import load_record
    from .deep_sea.rules import Game

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


def _cmd_tournament(args: argparse.Namespace) -> int:
    """Rank bots over many seeded games: ``python -m dsa_widget tournament mc baseline --games 100``."""
    from .deep_sea.bots import tournament

    setup: dict[str, Any] = {}
    if args.air is not None:
        setup["air"] = args.air
    if args.rounds is not None:
        setup["rounds"] = args.rounds
    options = {}
    for opt in args.option or []:
        key, eq, value = opt.partition("=")
        if not eq:
            print(f"error: --option expects key=value, got {opt!r}", file=sys.stderr)
            return 2
        options[key] = {"true": True, "false": False}.get(value.lower(), value)
    if options:
        setup["options"] = options
    try:
        result = tournament(
            args.bots,
            games=args.games,
            setups=[setup],
            seed=args.seed,
            workers=args.workers,
            progress=not args.quiet,
            executor="ray" if args.ray is not None else "process",
            address=args.ray,
        )
    except ValueError as e:  # every input error is a ValueError (GameError)
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    if args.json:
        data = result.to_dict()
        if not args.per_game:
            data.pop("games")
        print(json.dumps(data, indent=1))
    else:
        print(result)
    return 0


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
    p = sub.add_parser("tournament", help="rank bots over many seeded games, seats rotated")
    p.add_argument(
        "bots",
        nargs="+",
        help="one bot per seat: a name (random, take_n, depth, air, baseline, planner, mc, "
        "ismcts) or name:knob=value,knob=value, e.g. mc:playouts=40",
    )
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the same seed gives the same results")
    p.add_argument("--workers", type=int, default=2, help="processes to use (default 2)")
    p.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="play on a Ray cluster instead of local processes: 'local' starts one on this "
        "machine, 'auto' joins the running one, or ray://host:10001 (pip install dsa_widget[ray])",
    )
    p.add_argument("--air", type=int, default=None, help="air per round (default 25)")
    p.add_argument("--rounds", type=int, default=None, help="rounds (default 3)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rule option, repeatable")
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--per-game", action="store_true", help="with --json: include every game")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_tournament)
    args = parser.parse_args(argv)
    return int(args.func(args))
