"""Command line: ``python -m dsa_widget replay FILE`` and friends."""

from __future__ import annotations

import argparse
import json
import pathlib
import random
import sys
from collections.abc import Sequence
from typing import Any

from .core import registry
from .core.errors import GameError
from .core.registry import GameSpec, Option


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


def _option_value(schema: Sequence[Option], key: str, text: str, flag: str = "") -> Any:
    """``text`` read as the value of rule option ``key`` (its schema says which values exist);
    ``flag``: how an error names it (default ``--option KEY``)."""
    flag = flag or f"--option {key}"
    for opt in schema:
        if opt.key != key:
            continue
        if not opt.choices:
            try:
                return int(text)
            except ValueError:
                raise ValueError(f"{flag}: a whole number, got {text!r}") from None
        for value, _words in opt.choices:
            spelled = ",".join(map(str, value)) if isinstance(value, tuple) else str(value)
            if spelled.lower() == text.lower():
                return value
        listed = ", ".join(
            ",".join(map(str, v))
            if isinstance(v, tuple)
            else str(v).lower()
            if isinstance(v, bool)
            else str(v)
            for v, _ in opt.choices
        )
        raise ValueError(f"{flag}: one of {listed}, got {text!r}")
    known = ", ".join(o.key for o in schema) or "none"
    raise ValueError(f"--option: unknown option {key!r}; this game's options: {known}")


def _setup(spec: GameSpec, args: argparse.Namespace, *, players: bool) -> dict[str, Any]:
    """The setup keywords the command line gives for ``spec``'s game (``--players``, ``--seed``,
    the game's own setup flags such as ``--air``, ``--option KEY=VALUE``, ``--reveal``)."""
    setup: dict[str, Any] = {}
    if players:
        names = args.players or [str(spec.default_players)]
        setup["players"] = int(names[0]) if len(names) == 1 and names[0].isdigit() else names
    if getattr(args, "seed_game", None) is not None:
        setup["seed"] = args.seed_game
    own = {o.key for o in spec.setup_schema()}
    for key in sorted(_SETUP_FLAGS):
        value = getattr(args, key, None)
        if value is None:
            continue
        if key not in own:
            raise ValueError(f"--{key} is not a setting of {spec.title}")
        # a number, or a word where the setup form offers words (The Crew's --communication)
        setup[key] = _option_value(spec.setup_schema(), key, value, f"--{key}")
    schema = spec.option_schema()
    options: dict[str, Any] = {}
    for opt in args.option or []:
        key, eq, text = opt.partition("=")
        if not eq:
            raise ValueError(f"--option expects KEY=VALUE, got {opt!r}")
        options[key] = _option_value(schema, key, text)
    if getattr(args, "reveal", None):
        options["reveal"] = _option_value(schema, "reveal", args.reveal)
    if options:
        setup["options"] = options
    return setup


#: the games' own setup flags (``--air``, ``--target``, ...), gathered from the registry
_SETUP_FLAGS: dict[str, str] = {}


def _add_setup_flags(p: argparse.ArgumentParser) -> None:
    # gathered afresh for each command that has them (adding to the texts of an earlier one
    # said each game's default twice: "crew: mission difficulty (default 3); crew: default 3")
    flags: dict[str, str] = {}
    for spec in registry.games():
        for opt in spec.setup_schema():
            if opt.key not in flags:
                words = f": one of {', '.join(str(v) for v, _ in opt.choices)}" if opt.choices else ""
                flags[opt.key] = f"{spec.name}: {opt.label.lower()}{words} (default {opt.default})"
            else:
                flags[opt.key] += f"; {spec.name}: default {opt.default}"
    _SETUP_FLAGS.update(flags)
    for key, text in flags.items():
        p.add_argument(f"--{key}", default=None, help=text)  # read by the game's schema
    p.add_argument("--option", action="append", metavar="KEY=VALUE", help="a rule option, repeatable")


def _fail(e: BaseException) -> int:
    print(f"error: {' '.join(str(e).split())}", file=sys.stderr)
    return 2


def _cmd_games(args: argparse.Namespace) -> int:
    """List the registered games, one a line, with their record format."""
    for spec in registry.games():
        print(spec.line())
    return 0


def _cmd_tournament(args: argparse.Namespace) -> int:
    """Rank bots over many seeded games: ``python -m dsa_widget tournament mc baseline --games 100``."""
    from .core.tournament import tournament

    try:
        spec = registry.game(args.game)
        arena = spec.arena_of()
        if arena is None:
            raise ValueError(f"{spec.title} has no tournaments; see its README section")
        result = tournament(
            args.bots,
            games=args.games,
            setups=[_setup(spec, args, players=False)],
            seed=args.seed,
            workers=args.workers,
            progress=not args.quiet,
            executor="ray" if args.ray is not None else "process",
            address=args.ray,
            game=arena,
        )
    except ValueError as e:  # every input error is a ValueError (GameError)
        return _fail(e)
    if args.json:
        data = result.to_dict()
        if not args.per_game:
            data.pop("games")
        print(json.dumps(data, indent=1))
    else:
        print(result)
    return 0


def _seat_bots(specs: Sequence[str] | None) -> dict[int, str]:
    seats: dict[int, str] = {}
    for spec in specs or []:
        q, eq, bot = spec.partition("=")
        if not eq or not q.isdigit():
            raise ValueError(f"--seat expects SEAT=BOT (e.g. 2=planner), got {spec!r}")
        seats[int(q)] = bot
    return seats


def _cmd_serve(args: argparse.Namespace) -> int:
    """Serve a game: one link per seat (each sees only its own view), one for spectators."""
    try:
        from .server import Server, make_table
    except ImportError as e:  # the server extra is not installed
        print(f"error: {e}; install it with pip install 'dsa_widget[server]'", file=sys.stderr)
        return 2
    try:
        if args.resume:
            table = make_table(resume=args.resume, record=args.record, bot_delay=args.bot_delay)
        else:
            spec = registry.game(args.game)
            table = make_table(
                game=spec,
                seats=_seat_bots(args.seat),
                record=args.record,
                bot_delay=args.bot_delay,
                **_setup(spec, args, players=True),
            )
        srv = Server(
            table,
            host=args.host,
            port=args.port,
            base_url=args.base_url,
            allowed_origins=args.allow_origin or (),
        )
    except (ValueError, OSError) as e:
        return _fail(e)
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


def _cmd_warm(args: argparse.Namespace) -> int:
    """Compile every game's optional compiled code now (numba's caches), one line per game."""
    import time

    from .core.registry import games

    for spec in games():
        t0 = time.perf_counter()
        did = spec.warm_up()
        took = time.perf_counter() - t0
        print(f"{spec.title}: {f'ready in {took:.1f} s' if did else 'nothing to compile'}", flush=True)
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
    names = [g.name for g in registry.games()]
    game_help = ", ".join(f"{g.name} ({g.title})" for g in registry.games())
    p = sub.add_parser("games", help="list the games, one a line, with their record format")
    p.set_defaults(func=_cmd_games)
    p = sub.add_parser("tournament", help="rank bots over many seeded games, seats rotated")
    p.add_argument(
        "bots",
        nargs="+",
        help="one bot per seat: a name of the game's bots (Deep Sea Adventure: random, take_n, depth, "
        "air, baseline, planner, mc, ismcts) or name:knob=value,knob=value, e.g. mc:playouts=40",
    )
    p.add_argument("--game", default="deep-sea", metavar="GAME", help=f"one of {game_help}")
    p.add_argument("--games", type=int, default=100, help="games to play (default 100)")
    p.add_argument("--seed", type=int, default=0, help="the same seed gives the same results")
    p.add_argument("--workers", type=int, default=2, help="processes to use (default 2)")
    p.add_argument(
        "--ray",
        metavar="ADDRESS",
        default=None,
        help="play on a Ray cluster instead of local processes: 'local' starts one on this "
        "machine, 'auto' joins the running one, HOST:PORT the head there (pip install "
        "'dsa_widget[ray]'; a cluster with token authentication: set RAY_AUTH_MODE=token and "
        "RAY_AUTH_TOKEN)",
    )
    _add_setup_flags(p)
    p.add_argument("--json", action="store_true", help="print the results as JSON")
    p.add_argument("--per-game", action="store_true", help="with --json: include every game")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(func=_cmd_tournament)
    p = sub.add_parser("serve", help="serve a game: one link per seat, each seeing only its own view")
    p.add_argument("--game", default="deep-sea", choices=names, metavar="GAME", help=f"one of {game_help}")
    p.add_argument(
        "--players",
        nargs="+",
        help="names in seat order, or a number of seats (default: the game's usual count)",
    )
    p.add_argument(
        "--seat", action="append", metavar="SEAT=BOT", help="a bot seat, e.g. 2=planner; repeatable"
    )
    p.add_argument("--seed", dest="seed_game", type=int, default=None, help="the game's seed")
    p.add_argument("--reveal", choices=["public", "owner"], help="deep-sea: who sees banked values")
    _add_setup_flags(p)
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
    p = sub.add_parser(
        "warm",
        help="compile the games' numba code now (the fast extra), so a first board is quick; set-up runs it",
    )
    p.set_defaults(func=_cmd_warm)
    args = parser.parse_args(argv)
    return int(args.func(args))
