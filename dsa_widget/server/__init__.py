"""A screen per player: serve a game so that each seat's browser gets only its own view.

Jupyter cannot keep a secret between browsers (every browser on a kernel receives every widget
message), so a game with hidden information is served from a small ASGI server instead: one
unguessable link per seat, a spectator link that shows public knowledge only, and over each
link's WebSocket only the state built from that seat's view.  Needs the ``server`` extra
(``pip install "dsa_widget[server]"``: Starlette, uvicorn, websockets).  See docs/SERVER.md.

From a notebook, ``DeepSea(...).serve()`` (the widget becomes the lobby); from a shell,
``python -m dsa_widget serve --players Ann Bob Bot --seat 2=planner``.  Here::

    srv = serve(players=["Ann", "Bob"], options={"reveal": "owner"}, record="game.json")
    srv.seat_urls, srv.spectator_url
    srv.table.start(fill="planner")   # seats nobody holds get a bot
    srv.stop()
    srv = serve(resume="game.json")   # after a restart: the same game and the same links
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core import registry
from ..core.registry import GameSpec
from ..core.session import seat_list
from . import _browser_guard  # noqa: F401 (before the server's own modules: see there)
from .limits import Limits, RateLimit
from .runner import Server
from .seats import SeatKeys
from .table import IntentError, Table, TableGame, read_sidecar, sidecar_path

__all__ = [
    "IntentError",
    "Limits",
    "RateLimit",
    "SeatKeys",
    "Server",
    "Table",
    "TableGame",
    "for_game",
    "make_table",
    "serve",
    "sidecar_path",
]


def _spec(game: str | GameSpec | None) -> GameSpec:
    if isinstance(game, GameSpec):
        return game
    return registry.game("deep-sea" if game is None else game)


def _source(source: Any, game: str | GameSpec | None) -> tuple[GameSpec, Any, list[Any] | None]:
    """``(spec, state, seat labels or None)`` of what :func:`make_table` was given: a state of a
    registered game, a game's widget (its game and its seats), a record or a record's path."""
    if isinstance(source, (Mapping, str, os.PathLike)):
        from ..core.records import formats, read_document

        doc = read_document(source)
        spec = formats().get(str(doc.get("format")))
        if spec is None:
            raise ValueError(
                f"not a record of a game this server knows: format {str(doc.get('format'))[:40]!r}"
            )
        return spec, spec.from_record(doc), None
    inner = getattr(source, "game", None)
    labels: list[Any] | None = None
    if inner is not None and not isinstance(source, type):
        try:
            registry.game_of(source)
        except registry.UnknownGameError:  # a widget: its game and its seats
            labels = list(getattr(source, "seats", None) or []) or None
            source = inner
    try:
        spec = registry.game_of(source)
    except registry.UnknownGameError:
        raise TypeError(
            f"cannot serve {type(source).__name__}: give a game, a game's widget or a record"
        ) from None
    if game is not None and _spec(game) != spec:
        raise ValueError(f"game={_spec(game).name!r} but the source is a game of {spec.title}")
    return spec, source, labels


def make_table(
    source: Any = None,
    /,
    *,
    game: str | GameSpec | None = None,
    seats: Mapping[int, Any] | Sequence[Any] | None = None,
    record: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | None = None,
    limits: Limits | None = None,
    bot_delay: float = 0.6,
    bot_seed: int | None = None,
    started: bool = False,
    **setup: Any,
) -> Table:
    """A table of any registered game: from setup keywords (those of the game's state class;
    ``game`` names it, Deep Sea Adventure by default), a game, a game's widget (its game and
    its seats), a record or its path, or ``resume=PATH`` (a record this server wrote, with
    its sidecar: the same seats, the same links, the turn under way replayed).  ``record``:
    where the record is written after every turn (``resume`` keeps writing to the file it
    resumed from).

    >>> t = make_table(game="submarine", players=["Ann", "Bob"], seats={1: "random"}, seed=1)
    >>> t.players, t.game.seats
    (('Ann', 'Bob'), ['human', 'random'])
    """
    delay_ms = int(bot_delay * 1000)
    if resume is not None:
        if source is not None or setup or seats is not None:
            raise TypeError("resume=PATH takes the game, its seats and links from the files")
        from ..core.records import formats, read_document

        side = read_sidecar(resume)
        fmt = str(read_document(resume).get("format"))
        spec = formats().get(fmt)
        if spec is None or spec.table_class() is None:
            raise ValueError(f"{os.fspath(resume)}: not a record of a game this server knows ({fmt[:40]!r})")
        table_game = spec.table_class().resume(
            resume, side["seats"], side=side, bot_seed=bot_seed, bot_delay_ms=delay_ms
        )
        return Table(
            table_game,
            keys=SeatKeys.from_dict(side["keys"]),
            limits=limits,
            record=record or resume,
            bot_delay=bot_delay,
            started=bool(side.get("started")),
        )
    if source is None:
        spec = _spec(game)
        state, labels = spec.new_game(**setup), None
    elif setup:
        raise TypeError("give either a game (or a widget, or a record) or setup keywords, not both")
    else:
        from .session_table import SessionTable

        session = getattr(source, "session", None)
        spec = registry.game_of(source.game) if session is not None else None
        if spec is not None and seats is None and spec.table_class() is SessionTable:
            # a board on the platform: serve its own session (its game, seats, history)
            return Table(
                SessionTable(None, session=session, bot_seed=bot_seed, bot_delay_ms=delay_ms),
                limits=limits,
                record=record,
                bot_delay=bot_delay,
                started=started,
            )
        spec, state, labels = _source(source, game)
    table_class = spec.table_class()
    if table_class is None:
        raise ValueError(f"{spec.title} cannot be served yet")
    n = len(state.players)
    if seats is None and labels is not None:
        names = set(spec.bot_registry().names)
        specs = [s if s in names else "human" for s in labels]
    elif isinstance(seats, Sequence) and not isinstance(seats, str) and len(seats) != n:
        specs = list(seats)  # one per seat someone sits at (the session knows the others)
    else:
        specs = seat_list(seats, n)
    return Table(
        table_class(state, specs, bot_seed=bot_seed, bot_delay_ms=delay_ms),
        limits=limits,
        record=record,
        bot_delay=bot_delay,
        started=started,
    )


def serve(
    source: Any = None,
    /,
    *,
    host: str = "127.0.0.1",
    port: int = 0,
    base_url: str | None = None,
    allowed_origins: Sequence[str] = (),
    fill: str | None = None,
    **kwargs: Any,
) -> Server:
    """Serve a table (keywords as :func:`make_table`) and return the running :class:`Server`:
    ``srv.seat_urls``, ``srv.spectator_url``, ``srv.table.start(fill=...)``, ``srv.lobby`` in
    a notebook.  ``fill``: the bot the lobby's Start button offers for the seats nobody holds
    (the game's default bot unless given).

    >>> srv = serve(players=["Ann", "Bob"], seats={1: "random"}, seed=1)
    >>> srv.host, len(srv.seat_urls), srv.table.game.seats, srv.fill
    ('127.0.0.1', 2, ['human', 'random'], 'planner')
    >>> srv.stop()
    """
    table = make_table(source, **kwargs)
    srv = Server(table, host=host, port=port, base_url=base_url, allowed_origins=allowed_origins)
    srv.fill = fill if fill is not None else registry.game_of(table.game.game).default_bot
    return srv.start()


def for_game(game: str) -> tuple[Callable[..., Table], Callable[..., Server]]:
    """:func:`make_table` and :func:`serve` with ``game`` filled in: a game's own names for
    them (``make_crew_table, serve_crew = for_game("crew")``).

    >>> make_pig_table, serve_pig = for_game("pig")
    >>> make_pig_table(players=["Ann", "Bob"], seats={1: "random"}, seed=1).game.seats
    ['human', 'random']
    >>> print(serve_pig.__doc__)
    :func:`dsa_widget.server.serve` with ``game="pig"``.
    """

    def make(source: Any = None, /, **kwargs: Any) -> Table:
        return make_table(source, game=game, **kwargs)

    def serve_game(source: Any = None, /, **kwargs: Any) -> Server:
        return serve(source, game=game, **kwargs)

    for f, name in ((make, "make_table"), (serve_game, "serve")):
        f.__doc__ = f':func:`dsa_widget.server.{name}` with ``game="{game}"``.'
    return make, serve_game
