"""Seat keys: one unguessable token per seat, and one for spectators.

A token is 32 random bytes from :mod:`secrets` (43 URL-safe characters).  Looking a token up
compares it with *every* key in constant time (:func:`hmac.compare_digest`), so the time an
answer takes says nothing about how much of a guess was right, nor which seat it was near.

>>> keys = SeatKeys(2)
>>> keys.role(keys.seat_token(1)), keys.role(keys.spectator_token), keys.role("nope")
(1, None, -1)
>>> SeatKeys.from_dict(keys.to_dict()).seat_token(0) == keys.seat_token(0)
True
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping
from typing import Any

__all__ = ["NOBODY", "SPECTATOR", "SeatKeys"]

#: ``role()`` of a spectator (public knowledge only)
SPECTATOR = None
#: ``role()`` of a token that opens nothing
NOBODY = -1

_TOKEN_BYTES = 32
#: a token is compared only when its length is sane (the length of a real one is public anyway)
MAX_TOKEN_CHARS = 128


class SeatKeys:
    """The tokens of one table: ``n_seats`` seat tokens and a spectator token."""

    def __init__(
        self, n_seats: int, *, tokens: list[str] | None = None, spectator: str | None = None
    ) -> None:
        if tokens is None:
            tokens = [secrets.token_urlsafe(_TOKEN_BYTES) for _ in range(n_seats)]
        if len(tokens) != n_seats:
            raise ValueError(f"{len(tokens)} seat tokens for {n_seats} seats")
        self._seats = list(tokens)
        self._spectator = spectator if spectator is not None else secrets.token_urlsafe(_TOKEN_BYTES)
        every = [*self._seats, self._spectator]
        if len(set(every)) != len(every) or any(len(t) < 16 for t in every):
            raise ValueError("seat tokens must be distinct and at least 16 characters long")

    @property
    def n_seats(self) -> int:
        return len(self._seats)

    def seat_token(self, seat: int) -> str:
        """The token of ``seat`` (whoever holds it plays that seat)."""
        return self._seats[seat]

    @property
    def spectator_token(self) -> str:
        return self._spectator

    def role(self, token: Any) -> int | None:
        """The seat ``token`` opens, :data:`SPECTATOR` (``None``) or :data:`NOBODY` (``-1``).

        Every key is compared, whatever matched, each in constant time.
        """
        if not isinstance(token, str) or not 0 < len(token) <= MAX_TOKEN_CHARS:
            return NOBODY
        given = token.encode("utf-8", "surrogatepass")
        found: int | None = NOBODY
        for q, key in enumerate(self._seats):
            if hmac.compare_digest(given, key.encode()):
                found = q
        if hmac.compare_digest(given, self._spectator.encode()):
            found = SPECTATOR
        return found

    def renew(self, seat: int) -> str:
        """A fresh token for ``seat`` (the old link stops working); returns it."""
        self._seats[seat] = secrets.token_urlsafe(_TOKEN_BYTES)
        return self._seats[seat]

    def to_dict(self) -> dict[str, Any]:
        """The keys as JSON (kept beside a record, so that a resumed table keeps its links)."""
        return {"seats": list(self._seats), "spectator": self._spectator}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatKeys:
        seats = data.get("seats")
        spectator = data.get("spectator")
        if not isinstance(seats, list) or not all(isinstance(t, str) for t in seats):
            raise ValueError("seat keys: 'seats' must be a list of tokens")
        if not isinstance(spectator, str):
            raise ValueError("seat keys: 'spectator' must be a token")
        return cls(len(seats), tokens=seats, spectator=spectator)
