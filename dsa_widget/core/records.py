"""Records of every game: reading JSON documents and dispatching on their ``format``.

Each game names its record format in the game registry (:mod:`dsa_widget.core.registry`);
``python -m dsa_widget replay FILE`` reads the document, finds the game by
the record's ``format`` and replays it with that game's loader.

>>> sorted(f for f in formats())            # the games known to replay
['deep-sea-adventure/record@1', 'pig/record@1', 'submarine/record@1', 'the-crew-deep-sea/record@1']
>>> replay({"format": "chess/pgn@1"})
Traceback (most recent call last):
...
dsa_widget.core.records.RecordFormatError: key 'format': unknown record format 'chess/pgn@1'; known: 'deep-sea-adventure/record@1', 'pig/record@1', 'submarine/record@1', 'the-crew-deep-sea/record@1'
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import Any

from .errors import GameError, short_repr
from .registry import GameSpec, games

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "RecordFormatError",
    "formats",
    "load",
    "read_document",
    "read_record",
    "replay",
]


class RecordFormatError(GameError):
    """A document that is not a record of any known game (bad JSON, no or unknown ``format``)."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.turn: int | None = None


def formats() -> dict[str, GameSpec]:
    """Every registered game, by its record ``format`` string."""
    return {spec.record_format: spec for spec in games()}


#: the largest record read, in bytes (RECORD.md: at most 10 MB) ...
MAX_BYTES = 10_000_000
#: ... and the deepest nesting of objects and lists (at most 16 levels)
MAX_DEPTH = 16


class _Refused(ValueError):
    """A document that is JSON but not a valid record document (see :func:`read_document`)."""


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out:
            raise _Refused(f"key {k[:40]!r} appears twice in one object")
        out[k] = v
    return out


def _constant(name: str) -> Any:
    raise _Refused(f"{name} is not a JSON number")


def _check_tree(x: Any, depth: int = 1) -> None:
    """Nesting at most :data:`MAX_DEPTH`, and never ``null`` (a key is absent or holds a value)."""
    if depth > MAX_DEPTH:
        raise _Refused(f"nested deeper than {MAX_DEPTH} levels")
    if isinstance(x, dict):
        for k, v in x.items():
            if v is None:
                raise _Refused(f"key {k[:40]!r} is null; leave a key out to take its default")
            _check_tree(v, depth + 1)
    elif isinstance(x, list):
        for v in x:
            if v is None:
                raise _Refused("null in a list; a list holds values only")
            _check_tree(v, depth + 1)


def _read_bytes(source: Any) -> bytes | str:
    """At most :data:`MAX_BYTES` + 1 bytes (or characters) of a path or a file object."""
    if hasattr(source, "read"):
        data = source.read(MAX_BYTES + 1)
        if not isinstance(data, (bytes, str)):
            raise RecordFormatError(f"reading the record gave {type(data).__name__}, not text")
        return data
    try:
        with open(source, "rb") as f:
            return f.read(MAX_BYTES + 1)
    except OSError as e:
        raise RecordFormatError(f"cannot read the record: {e.strerror}: {os.fspath(source)}") from None


def read_document(source: Any) -> dict[str, Any]:
    """A record as a dict, from a dict, JSON text or bytes, a path or a file object (standard
    input included: a stream is read, never taken for a file name).

    A string that starts with ``{`` (after blanks) is JSON text; any other string is a path.
    Checked as RECORD.md says a record must be, whatever game it is of: UTF-8 with no
    byte-order mark, at most :data:`MAX_BYTES`, one object, nesting at most
    :data:`MAX_DEPTH`, no key twice in an object, no ``null``, no ``NaN``.  The work done is
    bounded by the size of the input, and every failure is a :class:`RecordFormatError`.

    >>> read_document('{"format": "x", "setup": {"air": null}}')
    Traceback (most recent call last):
    ...
    dsa_widget.core.records.RecordFormatError: not a valid record: key 'air' is null; leave a key out to take its default
    """
    if isinstance(source, Mapping):
        doc: Any = dict(source)
    else:
        if isinstance(source, (bytes, bytearray)) or (
            isinstance(source, str) and source.lstrip().startswith("{")
        ):
            data: bytes | str = bytes(source) if isinstance(source, bytearray) else source
        elif isinstance(source, (str, os.PathLike)) or hasattr(source, "read"):
            data = _read_bytes(source)
        else:
            raise RecordFormatError(f"a record is a JSON object, text or path, got {type(source).__name__}")
        size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
        if size > MAX_BYTES:
            raise RecordFormatError(f"the record is larger than {MAX_BYTES:,} bytes")
        if isinstance(data, bytes):
            if data.startswith(b"\xef\xbb\xbf"):
                raise RecordFormatError("the record starts with a byte-order mark; write plain UTF-8")
            try:
                data = data.decode("utf-8")
            except UnicodeDecodeError as e:
                raise RecordFormatError(f"the record is not UTF-8 (byte {e.start})") from None
        if data.startswith("\ufeff"):
            raise RecordFormatError("the record starts with a byte-order mark; write plain UTF-8")
        try:
            doc = json.loads(data, object_pairs_hook=_pairs, parse_constant=_constant)
        except _Refused as e:
            raise RecordFormatError(f"not a valid record: {e}") from None
        except RecursionError:
            raise RecordFormatError(f"not a valid record: nested deeper than {MAX_DEPTH} levels") from None
        except ValueError as e:
            raise RecordFormatError(f"not valid JSON: {str(e)[:200]}") from None
    if not isinstance(doc, dict):
        raise RecordFormatError("a record is a JSON object")
    try:
        _check_tree(doc)
    except _Refused as e:
        raise RecordFormatError(f"not a valid record: {e}") from None
    return doc


def read_record(source: Any, fmt: str, error: Callable[..., GameError]) -> dict[str, Any]:
    """A record document of one game (:func:`read_document`, then its ``format`` checked to be
    ``fmt``); every failure is ``error(message, key=...)``, the game's own record error.

    >>> read_record('{"format": "pig/record@1"}', "chess/pgn@1", RecordFormatError)
    Traceback (most recent call last):
    ...
    dsa_widget.core.records.RecordFormatError: key 'format': expected 'chess/pgn@1', got 'pig/record@1'
    """
    try:
        doc = read_document(source)
    except RecordFormatError as e:
        raise error(str(e), key=e.key) from None
    if doc.get("format") != fmt:
        raise error(f"key 'format': expected {fmt!r}, got {short_repr(doc.get('format'))}", key="format")
    return doc


def _format_of(doc: Mapping[str, Any]) -> GameSpec:
    known = formats()
    name = doc.get("format")
    fmt = known.get(name) if isinstance(name, str) else None
    if fmt is None:
        listed = ", ".join(repr(k) for k in sorted(known))
        raise RecordFormatError(
            f"key 'format': unknown record format {name!r}; known: {listed}", key="format"
        )
    return fmt


def replay(source: Any) -> Any:
    """Replay a record of any known game: the JSON object ``python -m dsa_widget replay`` prints."""
    doc = read_document(source)
    spec = _format_of(doc)
    return spec.show(spec.from_record(doc))


def load(source: Any) -> Any:
    """The game a record of any known game describes, after its last turn."""
    doc = read_document(source)
    return _format_of(doc).from_record(doc)
