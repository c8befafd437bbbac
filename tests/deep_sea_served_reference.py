"""The screen a served Deep Sea Adventure seat was sent before the platform (the old
``dsa_widget.deep_sea.remote.SeatScreen``), kept as the reference the platform's presenter
(:mod:`dsa_widget.deep_sea.presenter`) is checked against, step by step: the served page draws
the same keys from it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from dsa_widget.deep_sea.rules import Game
from dsa_widget.deep_sea.state import _visible_bank_seats, build_state, mask_event, sentences
from dsa_widget.deep_sea.summary import RoundBook


class SeatScreen:
    """One viewer's screen, kept up to date turn by turn: the log, the round summaries and the
    state built for it (its history frames are the platform's now)."""

    def __init__(self, viewer: int | None) -> None:
        self.viewer = viewer
        self._game: Game | None = None
        self._ev_sent = 0
        self._log: list[str] = []
        self._book = RoundBook()
        self._summary: dict[str, Any] | None = None
        self._first = True  # the first model holds every key; later ones what changed
        self._sent_delay: int | None = None

    def _reset(self, game: Game) -> None:
        self._game = game
        vis = _visible_bank_seats(game, self.viewer, False)
        masked = [mask_event(e, vis) for e in game.events]
        self._log = sentences(masked, game.players)
        self._book = RoundBook()
        s = self._book_add(game, masked)
        self._summary = s if s is not None and s["over"] else None
        self._ev_sent = game.n_events

    def _book_add(self, game: Game, events: list[dict[str, Any]]) -> dict[str, Any] | None:
        return self._book.add(
            events, game.players, path_length=game.path_length, tiebreak=game.setup.options.tiebreak
        )

    def build(
        self, game: Game, *, seats: Sequence[str], seq: int, bot_said: Mapping[int, str], bot_delay: int
    ) -> dict[str, Any]:
        """The model for this viewer at ``seq``: every key the first time, then ``state`` and the
        keys that changed since the previous call."""
        new: list[dict[str, Any]] = []
        if game is not self._game or game.n_events < self._ev_sent:
            self._reset(game)
        elif game.n_events > self._ev_sent:
            vis = _visible_bank_seats(game, self.viewer, False)
            new = [mask_event(e, vis) for e in game.events_since(self._ev_sent)]
            self._ev_sent = game.n_events
            self._log.extend(sentences(new, game.players))
            s = self._book_add(game, new)
            if s is not None:
                s["id"] = f"{s['id']}@{seq}"
                self._summary = s
        state = build_state(game, seats=seats, seq=seq, viewer=self.viewer, new_events=new, log=self._log)
        state["mode"] = "real"
        state["bot_said"] = {str(q): t for q, t in bot_said.items()}
        summary = None
        if self._summary is not None:
            summary = dict(self._summary)
            if summary["over"]:
                summary.update(
                    self._book.game_table(
                        game.players, state["scores"], state["winners"], game.setup.options.tiebreak
                    )
                )
        state["summary"] = summary
        out: dict[str, Any] = {"state": state}
        if self._first or bot_delay != self._sent_delay:
            out["bot_delay"] = self._sent_delay = bot_delay
        if self._first:
            # the board's settings on a served page: no setup panel, no hints, bots on the server
            out.update(
                {"bot_names": [], "bot_help": _bot_help(), "hints": False, "overlay": {}, "paused": False}
            )
            self._first = False
        return out


def _bot_help() -> dict[str, str]:
    from dsa_widget.deep_sea.bots.registry import BOT_SUMMARIES

    return dict(BOT_SUMMARIES)


def compare_row(name: str, g: Game, known: Mapping[int, int]) -> dict[str, Any]:
    """A what-if comparison row as the notebook's board built it before the platform (the
    presenter's rows are checked against it)."""
    v = g.view(0)
    scores = [g.scores[q] if all(c in known for c in v.banked[q]) else None for q in range(len(v.players))]
    return {
        "name": name,
        "round": v.round,
        "air": v.air,
        "over": v.finished,
        "scores": scores,
        "banked": [len(b) for b in v.banked],
        "divers": [
            {"pos": v.positions[q], "up": v.heading_up[q], "home": v.returned[q], "items": len(v.carrying[q])}
            for q in range(len(v.players))
        ],
    }
