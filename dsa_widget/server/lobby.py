"""The lobby of a served table, in the notebook: seat links (and QR codes), who is connected,
bots for the seats nobody holds, start, pause and stop.

Every browser attached to the kernel sees the lobby, links included: whoever can see the
notebook can open any seat (and could run a cell anyway).  Send each player his own link.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import anywidget
import traitlets

from .runner import Server

__all__ = ["Lobby", "qr_data_uri"]

_ESM = Path(__file__).resolve().parent.parent / "static" / "lobby.js"
# The lobby's own look: its buttons were drawn with the boards' .dsa-btn, whose colours are
# defined for a board only (and whose rule is not even on the page until a board is shown), so
# Start, Stop and Copy looked like plain words; a long link squeezed "Spectators" mid-word.
_CSS = """
.dsa-lobby { font-family: system-ui, sans-serif; font-size: 14px; color: var(--jp-ui-font-color1, #1f2328); }
.dsa-lobby-seats td { padding: 2px 8px; vertical-align: middle; }
.dsa-lobby-seats td:nth-child(-n+3) { white-space: nowrap; }
.dsa-lobby-link { font-family: monospace; font-size: 12px; word-break: break-all; }
.dsa-lobby-qr { background: #fff; padding: 2px; }
.dsa-lobby-buttons { display: flex; gap: 8px; align-items: center; margin: 6px 0; }
.dsa-lobby .dsa-btn {
  font: inherit; color: inherit; background: var(--jp-layout-color2, #eeeeee); cursor: pointer;
  border: 1px solid var(--jp-border-color1, #bdbdbd); border-radius: 6px; padding: 3px 10px;
}
.dsa-lobby .dsa-btn:hover { border-color: var(--jp-brand-color1, #1976d2); }
.dsa-lobby .dsa-btn.dsa-primary {
  background: var(--jp-brand-color1, #1976d2); border-color: var(--jp-brand-color1, #1976d2);
  color: var(--jp-ui-inverse-font-color1, #fff);
}
"""


def qr_data_uri(text: str) -> str | None:
    """A QR code of ``text`` as an SVG data URI, or ``None`` without ``segno`` installed."""
    try:
        import segno
    except ImportError:
        return None
    return str(segno.make(text, error="m").svg_data_uri(scale=3, border=2))


def _bot_names(server: Server) -> list[str]:
    """The bots the table's game offers (``TableGame.bot_names``)."""
    return [str(n) for n in server.table.game.bot_names]


class Lobby(anywidget.AnyWidget):
    """The notebook's view of a :class:`~dsa_widget.server.runner.Server`; ``fill`` is the bot
    the Start button offers for empty seats (``None``: leave them empty)."""

    _esm = _ESM.read_text(encoding="utf-8") if _ESM.is_file() else "export default {render(){}}"
    _css = _CSS
    #: what the lobby draws (no secret beyond the links themselves)
    info = traitlets.Dict().tag(sync=True)

    def __init__(self, server: Server, *, fill: str | None = "planner", qr: bool = True) -> None:
        super().__init__()
        self.server = server
        self.fill = fill
        self._qr: dict[str, str | None] = {}
        self._want_qr = qr
        self.on_msg(self._on_msg)
        server.table.on_change(self.refresh)
        self.refresh()

    def _qr_of(self, url: str) -> str | None:
        if not self._want_qr:
            return None
        if url not in self._qr:
            self._qr[url] = qr_data_uri(url)
        return self._qr[url]

    def refresh(self) -> None:
        """Draw the table's status again (called after every change of the table)."""
        srv = self.server
        st = srv.table.status()
        seats = [
            {
                "seat": q,
                "name": name,
                "kind": st["seats"][q],
                "connected": st["connected"][q],
                "url": srv.seat_url(q),
                "qr": self._qr_of(srv.seat_url(q)),
            }
            for q, name in enumerate(st["players"])
        ]
        info = {
            "seats": seats,
            "spectator": {
                "seat": None,
                "name": "spectators",
                "url": srv.spectator_url,
                "qr": self._qr_of(srv.spectator_url),
            },
            "spectators": st["spectators"],
            "started": st["started"],
            "paused": st["paused"],
            "closed": st["closed"],
            "over": st["over"],
            "turn": st["turn"],
            "fill": self.fill,
            "bot_names": _bot_names(srv),
            "note": f"Serving at {srv.base_url} (bound to {srv.host})."
            + (
                " Only this machine can open these links: on a hub, serve through"
                " jupyter-server-proxy (docs/SERVER.md)."
                if srv.host in ("127.0.0.1", "localhost", "::1") and srv.base_url.startswith("http://")
                else ""
            ),
        }
        if info != self.info:
            self.info = info

    def _on_msg(self, _widget: Any, content: Any, buffers: Any = None) -> None:
        if not isinstance(content, dict):
            return
        kind = content.get("type")
        srv = self.server
        table = srv.table
        if kind == "start" and not table.started:
            fill = content.get("fill")
            bot = fill if isinstance(fill, str) and fill in _bot_names(srv) else None
            srv.call(lambda: table.start(fill=bot))
        elif kind == "pause" and isinstance(content.get("paused"), bool):
            paused = bool(content["paused"])
            srv.call(lambda: table.pause(paused))
        elif kind == "stop":
            srv.stop()
            self.refresh()
