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
from collections.abc import Mapping, Sequence
from typing import Any

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
    "make_table",
    "serve",
    "sidecar_path",
]


def _seat_list(seats: Mapping[int, Any] | Sequence[Any] | None, n: int) -> list[Any]:
    specs: list[Any] = ["human"] * n
    if seats is None:
        return specs
    if isinstance(seats, Mapping):
        for k, v in seats.items():
            if not isinstance(k, int) or isinstance(k, bool) or not 0 <= k < n:
                raise ValueError(f"seats: seat {k!r} is not 0..{n - 1}")
            specs[k] = v
        return specs
    if isinstance(seats, str) or len(seats) != n:
        raise ValueError(f"seats: one entry per seat ({n})")
    return list(seats)


def make_table(
    source: Any = None,
    /,
    *,
    seats: Mapping[int, Any] | Sequence[Any] | None = None,
    record: str | os.PathLike[str] | None = None,
    resume: str | os.PathLike[str] | None = None,
    limits: Limits | None = None,
    bot_delay: float = 0.6,
    bot_seed: int | None = None,
    started: bool = False,
    **setup: Any,
) -> Table:
    """A Deep Sea Adventure table: from setup keywords (as ``Game``), a ``Game``, a record,
    or ``resume=PATH`` (a record this server wrote, with its sidecar: same seats, same links,
    the turn under way replayed).  ``record``: where to write the record after every turn
    (``resume`` keeps writing to the file it resumed from)."""
    from ..deep_sea.remote import DeepSeaTable
    from ..deep_sea.rules import Game

    delay_ms = int(bot_delay * 1000)
    if resume is not None:
        if source is not None or setup or seats is not None:
            raise TypeError("resume=PATH takes the game, its seats and links from the files")
        side = read_sidecar(resume)
        game = DeepSeaTable.resume(
            resume, side["seats"], side.get("pending"), bot_seed=bot_seed, bot_delay_ms=delay_ms
        )
        keys = SeatKeys.from_dict(side["keys"])
        return Table(
            game,
            keys=keys,
            limits=limits,
            record=record or resume,
            bot_delay=bot_delay,
            started=bool(side.get("started")),
        )
    if source is None:
        g = Game(**setup)
    elif setup:
        raise TypeError("give either a game or a record, or setup keywords, not both")
    elif isinstance(source, Game):
        g = source
    else:
        g = Game.from_record(source)
    specs = _seat_list(seats, len(g.players))
    return Table(
        DeepSeaTable(g, specs, bot_seed=bot_seed, bot_delay_ms=delay_ms),
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
    **kwargs: Any,
) -> Server:
    """Serve a table (keywords as :func:`make_table`) and return the running :class:`Server`.

    >>> srv = serve(players=["Ann", "Bob"], seats={1: "random"}, seed=1)
    >>> srv.host, len(srv.seat_urls), srv.table.game.seats
    ('127.0.0.1', 2, ['human', 'random'])
    >>> srv.stop()
    """
    table = make_table(source, **kwargs)
    return Server(table, host=host, port=port, base_url=base_url, allowed_origins=allowed_origins).start()
