"""Round and game summaries for the board: what was banked and revealed, who drowned, what
sank into which stacks; at the end a score table by round, the winner and the tie-break.

Built from events already masked for the viewer (:func:`~dsa_widget.deep_sea.state.mask_event`),
so a summary never says more than the log does.

>>> from dsa_widget import Game
>>> g = Game(players=["Ann", "Bob"], path=[(1, 3), (2, 5), (3, 7), (4, 9)], air=3, rounds=1, seed=1)
>>> g.play_turn(dice=(1, 1), search="take"); g.play_turn(dice=(1, 2), search="take")
>>> while not g.is_over:                       # both keep diving until the air runs out
...     legal = g.legal_choices()
...     g.roll((1, 1)) if g.step == "roll" else g.apply("continue" if "continue" in legal else "none")
>>> book = RoundBook()
>>> s = book.add(g.events, g.players, path_length=g.path_length, tiebreak="level4")
>>> s["why"], [(d["seat"], d["levels"]) for d in s["drowned"]], s["stacks"]
('the air ran out', [(1, [4]), (0, [2])], [{'space': 3, 'levels': [4, 2]}])
>>> book.game_table(g.players, g.scores, g.winners, "level4")["why_winner"]
'Ann and Bob tie on 0 points and on level-4 chips (0 each): they share the win.'
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = ["RoundBook", "winner_text"]


def winner_text(
    players: Sequence[str],
    scores: Sequence[int | None],
    winners: Sequence[int],
    level4: Sequence[int] | None,
    tiebreak: str,
) -> str:
    """Who won and why, in words (the tie-break explained when points were tied).

    >>> winner_text(["Ann", "Bob"], [12, 9], [0], None, "level4")
    'Ann wins with 12 points.'
    >>> winner_text(["Ann", "Bob"], [12, 12], [1], [0, 2], "level4")
    'Ann and Bob tie on 12 points; Bob has more level-4 chips (2 against 0) and wins the tie-break.'
    >>> winner_text(["Ann", "Bob"], [12, 12], [0, 1], [1, 1], "level4")
    'Ann and Bob tie on 12 points and on level-4 chips (1 each): they share the win.'
    """
    if not winners or any(scores[q] is None for q in range(len(players))):
        return "The winner depends on values still hidden."
    best = max(s for s in scores if s is not None)
    tied = [q for q, s in enumerate(scores) if s == best]
    names = " and ".join(players[q] for q in tied)
    if len(tied) == 1:
        return f"{players[tied[0]]} wins with {best} point{'' if best == 1 else 's'}."
    rule = "level-4 chips" if tiebreak == "level4" else "chips of level 4, then 3, 2 and 1"
    if len(winners) == len(tied):
        each = f" ({level4[tied[0]]} each)" if level4 is not None and tiebreak == "level4" else ""
        return f"{names} tie on {best} points and on {rule}{each}: they share the win."
    won = " and ".join(players[q] for q in winners)
    if level4 is not None and tiebreak == "level4" and len(winners) == 1:
        others = ", ".join(str(level4[q]) for q in tied if q not in winners)
        return (
            f"{names} tie on {best} points; {won} has more level-4 chips "
            f"({level4[winners[0]]} against {others}) and wins the tie-break."
        )
    verb = "wins" if len(winners) == 1 else "win"
    return f"{names} tie on {best} points; {won} {verb} the tie-break ({rule})."


class RoundBook:
    """Collects (masked) events as they are published and builds a summary at each round's
    end: :meth:`add` returns the new summary, or ``None`` when no round ended."""

    def __init__(self) -> None:
        #: round -> seat -> points banked (``None`` when some value is hidden from the viewer)
        self.points: dict[int, dict[int, int | None]] = {}
        self.level4: list[int] | None = None

    def add(
        self,
        events: Iterable[Mapping[str, Any]],
        players: Sequence[str],
        *,
        path_length: int,
        tiebreak: str,
    ) -> dict[str, Any] | None:
        out: dict[str, Any] | None = None
        n = len(players)
        if self.level4 is None:
            self.level4 = [0] * n
        for e in events:
            t = e.get("type")
            if t == "round_end":
                out = {
                    "id": f"round-{e['round']}",
                    "round": e["round"],
                    "why": "the air ran out" if e["air_ran_out"] else "every diver is back",
                    "banked": [],
                    "drowned": [],
                    "stacks": [],
                    "over": False,
                }
                self.points[e["round"]] = {}
            elif out is not None and t == "bank":
                chips = [list(c) for c in e["chips"]]
                hidden = any(len(c) < 2 or c[1] == "?" for c in chips)
                pts = None if hidden else sum(int(c[1]) for c in chips)
                out["banked"].append({"seat": e["seat"], "chips": chips, "points": pts})
                self.points[out["round"]][e["seat"]] = pts
                self.level4[e["seat"]] += sum(1 for c in chips if c[0] == 4)
            elif out is not None and t == "sink":
                out["drowned"].append({"seat": e["seat"], "levels": list(e["chips"])})
            elif out is not None and t == "game_over":
                out["over"] = True
                if path_length == 0:
                    # RULES.md: a round that ends with an empty path ends the game at once
                    out["ended"] = (
                        "Every chip has been brought back: nothing is left on the path, "
                        "so the game ends here."
                    )
        if out is None:
            return None
        sunk = [lv for d in out["drowned"] for lv in d["levels"]]
        k = (len(sunk) + 2) // 3
        out["stacks"] = [
            {"space": path_length - k + 1 + i, "levels": sunk[3 * i : 3 * i + 3]} for i in range(k)
        ]
        for q in range(n):  # a seat that banked nothing this round banked 0 points
            self.points[out["round"]].setdefault(q, 0)
        out["id"] = "game" if out["over"] else out["id"]
        return out

    def game_table(
        self,
        players: Sequence[str],
        scores: Sequence[int | None],
        winners: Sequence[int],
        tiebreak: str,
    ) -> dict[str, Any]:
        """The score table by round (``None`` where hidden), the totals and the winner text."""
        rounds = sorted(self.points)
        return {
            "rounds": rounds,
            "rows": [[self.points[r].get(q) for r in rounds] for q in range(len(players))],
            "totals": list(scores),
            "winners": list(winners),
            "why_winner": winner_text(players, scores, winners, self.level4, tiebreak),
        }
