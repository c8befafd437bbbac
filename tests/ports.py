"""A free TCP port, for every test that starts a server (standard library only: the e2e
harness uses it without importing the package)."""

from __future__ import annotations

import socket


def free_port() -> int:
    """A TCP port nothing listens on now (the OS picks it). Another process may still take it
    before the caller binds it: a server started on it must be ready to be started again."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])
