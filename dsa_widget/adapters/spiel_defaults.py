"""What a game with no hidden deal and nothing hidden tells the OpenSpiel adapter, written once
(:mod:`dsa_widget.adapters.openspiel` asks every game's config the same questions; this module
imports no OpenSpiel, so a game's rules module may use it).

A game's config subclasses :class:`OpenGameConfig` and adds only what is its own: ``start``,
the sizes and the strings of its observations and chance outcomes.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from typing import Any

__all__ = ["OpenGameConfig"]


class OpenGameConfig:
    """No deal before play starts (every chance node is the game's own), nothing hidden."""

    deal_length = 0
    knowledge_size = 0

    def __deepcopy__(self, memo: dict[int, Any]) -> Any:
        return self  # shared and immutable

    def deal_outcomes(self, dealt: Sequence[int]) -> tuple[tuple[int, Fraction], ...]:
        return ()

    def deal_string(self, i: int, k: int) -> str:
        return ""

    def deal_of(self, game: Any) -> tuple[int, ...]:
        return ()

    def rebase(self, root: Any, like: Any) -> Any:
        return root.clone()

    def knowledge_epoch(self, game: Any) -> int:
        return 0

    def knowledge(self, game: Any, seat: int, public: bool = False) -> Mapping[int, int]:
        return {}

    def knowledge_string(self, known: Mapping[int, int]) -> str:
        return ""

    def knowledge_tensor(self, known: Mapping[int, int]) -> list[float]:
        return []
