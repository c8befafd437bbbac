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


def _key_values(pairs: Sequence[str] | None) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for opt in pairs or []:
        key, eq, value = opt.partition("=")
        if not eq:
            raise ValueError(f"--option expects key=value, got {opt!r}")
        out[key] = {"true": True, "false": False}.get(value.lower(), value)
    return out


def _seat_bots(specs: Sequence[str] | None) -> dict[int, str]:
    seats: dict[int, str] = {}
    for spec in specs or []:
        q, eq, bot = spec.partition("=")
        if not eq or not q.isdigit():
            raise ValueError(f"--seat expects SEAT=BOT (e.g. 2=planner), got {spec!r}")
        seats[int(q)] = bot
    return seats


def _crew_table(args: argparse.Namespace) -> Any:
    """``serve --game crew``: a table of The Crew (dsa_widget.crew.remote)."""
    from .crew.remote import make_crew_table

    for key in ("air", "rounds", "reveal"):
        if getattr(args, key) is not None:
            raise ValueError(f"--{key} is for --game deep-sea")
    if args.resume:
        return make_crew_table(resume=args.resume, record=args.record, bot_delay=args.bot_delay)
    names = args.players or ["Player 1", "Player 2", "Player 3"]
    setup: dict[str, Any] = {
        "players": int(names[0]) if len(names) == 1 and names[0].isdigit() else names,
        "target": 3 if args.target is None else args.target,
    }
    if args.seed is not None:
        setup["seed"] = args.seed
    options = _key_values(args.option)
    if options:
        setup["options"] = options
    return make_crew_table(seats=_seat_bots(args.seat), record=args.record, bot_delay=args.bot_delay, **setup)


def _submarine_table(args: argparse.Namespace) -> Any:
    """``serve --game submarine``: a table of Submarine (dsa_widget.submarine.remote)."""
    from .submarine.remote import make_submarine_table

    for key in ("air", "rounds", "reveal", "target"):
        if getattr(args, key) is not None:
            raise ValueError(f"--{key} is not for --game submarine")
    if args.resume:
        return make_submarine_table(resume=args.resume, record=args.record, bot_delay=args.bot_delay)
    names = args.players or ["Player 1", "Player 2", "Player 3"]
    setup: dict[str, Any] = {"players": int(names[0]) if len(names) == 1 and names[0].isdigit() else names}
    if args.seed is not None:
        setup["seed"] = args.seed
    options = {
        k: int(v) if isinstance(v, str) and v.isdigit() else v for k, v in _key_values(args.option).items()
    }
    if options:
        setup["options"] = options
    return make_submarine_table(
        seats=_seat_bots(args.seat), record=args.record, bot_delay=args.bot_delay, **setup
    )


def _cmd_serve(args: argparse.Namespace) -> int:
    """Serve a game: one link per seat (each sees only its own view), one for spectators."""
    try:
        from .server import Server, make_table
    except ImportError as e:  # the server extra is not installed
        print(f"error: {e}; install it with pip install 'dsa_widget[server]'", file=sys.stderr)
        return 2
    try:
        if args.game == "crew":
            table = _crew_table(args)
        elif args.game == "submarine":
            table = _submarine_table(args)
        elif args.target is not None:
            raise ValueError("--target is for --game crew")
        elif args.resume:
            table = make_table(resume=args.resume, record=args.record, bot_delay=args.bot_delay)
        else:
            setup: dict[str, Any] = {}
            names = args.players or ["Player 1", "Player 2"]
            setup["players"] = int(names[0]) if len(names) == 1 and names[0].isdigit() else names
            for key in ("air", "rounds", "seed"):
                if getattr(args, key) is not None:
                    setup[key] = getattr(args, key)
            options: dict[str, Any] = {}
            for opt in args.option or []:
                key, eq, value = opt.partition("=")
                if not eq:
                    raise ValueError(f"--option expects key=value, got {opt!r}")
                options[key] = {"true": True, "false": False}.get(value.lower(), value)
            if args.reveal:
                options["reveal"] = args.reveal
            if options:
                setup["options"] = options
            seats: dict[int, str] = {}
            for spec in args.seat or []:
                q, eq, bot = spec.partition("=")
                if not eq or not q.isdigit():
                    raise ValueError(f"--seat expects SEAT=BOT (e.g. 2=planner), got {spec!r}")
                seats[int(q)] = bot
            table = make_table(seats=seats, record=args.record, bot_delay=args.bot_delay, **setup)
        srv = Server(
            table,
            host=args.host,
            port=args.port,
            base_url=args.base_url,
            allowed_origins=args.allow_origin or (),
        )
    except (ValueError, OSError) as e:
        print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
        return 2
    if args.start:
        table.start(fill=args.fill)
    else:
        table.autostart = True  # starts when every human seat has connected
    if args.json:
        print(json.dumps({"base_url": srv.base_url, "seats": srv.seat_urls, "spectator": srv.spectator_url}))
    else:
        print(f"Serving {', '.join(table.players)} at {srv.base_url} (bound to {args.host}).")
        print("Send each player his own link (whoever holds a link plays that seat):")
        for label, url in srv.urls.items():
            print(f"  {label}: {url}")
        if not args.start:
            print("The game starts when every human seat has connected. Ctrl-C stops the server.")
    sys.stdout.flush()
    srv.run_forever()
    return 0


def _cmd_compile(args: argparse.Namespace) -> int:
    """Build the compiled twin of Deep Sea Adventure's checked rules (mypyc)."""
    from .deep_sea import native

    if args.if_stale and native.up_to_date():
        print("the compiled rules are up to date (built from rules.py as it is)")
        return 0
    try:
        files = native.build(quiet=not args.verbose)
    except RuntimeError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    print(f"compiled the Deep Sea Adventure rules: {', '.join(f.name for f in files)}")
    print("a new Python process runs them (DSA_WIDGET_NO_COMPILED=1 switches them off)")
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
    p = sub.add_parser("serve", help="serve a game: one link per seat, each seeing only its own view")
    p.add_argument(
        "--game",
        choices=["deep-sea", "crew", "submarine"],
        default="deep-sea",
        help="deep-sea (Deep Sea Adventure, the default), crew (The Crew: Mission Deep Sea) or submarine",
    )
    p.add_argument(
        "--players",
        nargs="+",
        help="names in seat order, or a number of seats (default 2; crew, submarine: 3)",
    )
    p.add_argument(
        "--seat", action="append", metavar="SEAT=BOT", help="a bot seat, e.g. 2=planner; repeatable"
    )
    p.add_argument("--air", type=int, default=None)
    p.add_argument("--rounds", type=int, default=None)
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--reveal", choices=["public", "owner"], help="who sees banked values (a rule option)")
    p.add_argument("--target", type=int, default=None, help="crew: the tasks' difficulty target (default 3)")
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rule option, repeatable")
    p.add_argument(
        "--host", default="127.0.0.1", help="the address to bind (default 127.0.0.1: this machine only)"
    )
    p.add_argument("--port", type=int, default=0, help="the port (default: a free one)")
    p.add_argument("--base-url", help="how players reach the server, e.g. a jupyter-server-proxy URL")
    p.add_argument("--allow-origin", action="append", metavar="ORIGIN", help="another page origin allowed")
    p.add_argument("--record", help="write the record here after every turn")
    p.add_argument("--resume", help="go on with a record this server wrote (same seats, same links)")
    p.add_argument("--start", action="store_true", help="start at once (else: when every human has joined)")
    p.add_argument("--fill", default=None, help="with --start: the bot for seats nobody holds")
    p.add_argument("--bot-delay", type=float, default=0.6, help="seconds before each bot choice")
    p.add_argument("--json", action="store_true", help="print the links as one JSON line")
    p.set_defaults(func=_cmd_serve)
    p = sub.add_parser(
        "compile",
        help="compile Deep Sea Adventure's checked rules with mypyc, about 3x faster "
        "(pip install dsa_widget[compile]; needs a C compiler)",
    )
    p.add_argument("--if-stale", action="store_true", help="do nothing when the build is up to date")
    p.add_argument("--verbose", action="store_true", help="print the compiler's output")
    p.set_defaults(func=_cmd_compile)
    args = parser.parse_args(argv)
    return int(args.func(args))
