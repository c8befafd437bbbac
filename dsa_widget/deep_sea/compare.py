"""Deep Sea Adventure's games side by side (a real game and its what-if branches): see
:func:`compare`."""

from __future__ import annotations

import html
from dataclasses import dataclass
from typing import Any

from .rules import Game

__all__ = ["Comparison", "compare"]


def _cell_place(d: dict[str, Any]) -> str:
    """Where a diver is, for a table cell: ``back``, ``space N`` or ``sub``."""
    if d["position"] or d["returned"]:
        return "back" if d["returned"] else "space " + str(d["position"])
    return "sub"


@dataclass(frozen=True)
class Comparison:
    """Games side by side: round, air, scores, positions, items carried.

    Shows as a table in a notebook.  Values carried stay hidden: only levels
    appear, as in the game.
    """

    rows: tuple[dict[str, Any], ...]
    players: tuple[str, ...]

    def _repr_html_(self) -> str:
        esc = html.escape
        head = "".join(f"<th>{esc(p)}</th>" for p in self.players)
        body = []
        for r in self.rows:
            cells = "".join(
                f"<td>{s} pts · {_cell_place(d)} · {d['items']} item{'s' if d['items'] != 1 else ''}</td>"
                for s, d in zip(r["scores"], r["divers"], strict=False)
            )
            body.append(
                f"<tr><th>{esc(r['name'])}</th><td>{'over' if r['finished'] else r['round']}</td>"
                f"<td>{r['air']}</td>{cells}</tr>"
            )
        return (
            "<table><thead><tr><th></th><th>round</th><th>air</th>"
            + head
            + "</tr></thead><tbody>"
            + "".join(body)
            + "</tbody></table>"
        )

    def __repr__(self) -> str:
        lines = []
        for r in self.rows:
            scores = ", ".join(f"{p} {s}" for p, s in zip(self.players, r["scores"], strict=False))
            where = ", ".join(f"{p} {_where(d)}" for p, d in zip(self.players, r["divers"], strict=False))
            head = f"{r['name']:>12}: " + (
                "game over" if r["finished"] else f"round {r['round']}, air {r['air']}"
            )
            lines.append(f"{head}, scores {scores}\n{'':>14}{where}")
        return "\n".join(lines)


def _where(d: dict[str, Any]) -> str:
    """``back``, ``sub`` (not dived yet) or ``space 5 ↓ 2 items`` (heading down)."""
    if d["returned"]:
        return "back"
    if not d["position"]:
        return "sub"
    k = d["items"]
    return f"space {d['position']} {'↑' if d['heading'] == 'up' else '↓'} {k} item{'' if k == 1 else 's'}"


def compare(**games: Game) -> Comparison:
    """Compare games (usually a real one and its what-if branches) side by side.

    >>> from dsa_widget import Game
    >>> a = Game(players=2, seed=1); b = a.copy(); b.roll((3, 3)); b.apply("take")
    >>> print(compare(before=a, after=b))
          before: round 1, air 25, scores Player 1 0, Player 2 0
                  Player 1 sub, Player 2 sub
           after: round 1, air 25, scores Player 1 0, Player 2 0
                  Player 1 space 6 ↓ 1 item, Player 2 sub
    """
    if not games:
        raise ValueError("compare() needs at least one game, given as name=game")
    players = next(iter(games.values())).players
    rows = []
    for name, g in games.items():
        rows.append(
            {
                "name": name,
                "round": g.round,
                "air": g.air,
                "finished": g.is_over,
                "scores": g.scores,
                "divers": [
                    {
                        "position": d.position,
                        "returned": d.returned,
                        "items": len(d.carrying),
                        "heading": d.heading,
                    }
                    for d in g.divers
                ],
            }
        )
    return Comparison(tuple(rows), players)
