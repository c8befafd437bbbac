"""What one connection may send: frame size and rate (a token bucket).

>>> clock = [0.0]
>>> b = RateLimit(rate=2, burst=3, clock=lambda: clock[0])
>>> [b.allow() for _ in range(4)]
[True, True, True, False]
>>> clock[0] = 0.5; b.allow(), b.allow()
(True, False)
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Limits", "RateLimit"]


@dataclass(frozen=True)
class Limits:
    """The limits of a table's connections (see docs/SERVER.md)."""

    #: the largest frame a client may send, in bytes (an intent is under 100)
    max_frame_bytes: int = 4096
    #: the transport's hard cap: a larger frame closes the connection (code 1009)
    transport_max_bytes: int = 65536
    #: frames per second a connection may send, on average
    rate: float = 20.0
    #: frames a connection may send at once
    burst: int = 40
    #: frames dropped for rate before the connection is closed (code 1008)
    max_dropped: int = 200
    #: seconds a new connection has to send its ``join`` frame
    join_timeout: float = 10.0
    #: WebSockets open at once (all seats and spectators together, joined or not)
    max_connections: int = 200
    #: joins a second one link may make on average (each seat's link, the spectator link): not
    #: per address, since every player behind jupyter-server-proxy comes from the same one
    join_rate: float = 1.0
    #: joins a seat's link may make at once (the spectator link, shared: ``max_connections``)
    join_burst: int = 10
    #: seconds a connection has to send a whole request head (a page, the WebSocket's
    #: handshake), and an idle connection between requests stays open; then it is closed
    request_timeout: float = 10.0

    def __post_init__(self) -> None:
        if self.max_frame_bytes < 64 or self.transport_max_bytes < self.max_frame_bytes:
            raise ValueError("max_frame_bytes must be >= 64 and <= transport_max_bytes")
        if self.rate <= 0 or self.burst < 1 or self.max_dropped < 1 or self.max_connections < 1:
            raise ValueError("rate, burst, max_dropped and max_connections must be positive")
        if not self.join_rate > 0 or self.join_burst < 1:
            raise ValueError("join_rate and join_burst must be positive")
        if not self.request_timeout > 0 or not self.join_timeout > 0:
            raise ValueError("request_timeout and join_timeout must be positive")


class RateLimit:
    """A token bucket: ``burst`` frames at once, refilled at ``rate`` per second."""

    def __init__(self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic) -> None:
        self._rate = float(rate)
        self._burst = float(burst)
        self._clock = clock
        self._tokens = float(burst)
        self._t = clock()

    def allow(self) -> bool:
        """Take one token if there is one; ``False`` means drop the frame."""
        now = self._clock()
        self._tokens = min(self._burst, self._tokens + (now - self._t) * self._rate)
        self._t = now
        if self._tokens >= 1.0:
            self._tokens -= 1.0
            return True
        return False
