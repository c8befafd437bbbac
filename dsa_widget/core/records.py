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
import math
import os
import re
import sys
from collections.abc import Callable, Mapping
from typing import Any

from .errors import GameError, RecordError, is_int, short_repr
from .registry import GameSpec, games

__all__ = [
    "MAX_BYTES",
    "MAX_DEPTH",
    "RecordFormatError",
    "formats",
    "is_count",
    "load",
    "name_problem",
    "place",
    "read_document",
    "read_record",
    "refuse",
    "replay",
]


class RecordFormatError(RecordError):
    """A document that is not a record of any known game (bad JSON, no or unknown ``format``).

    ``key`` (``"setup.air"``, ``"turns"``, ...) and ``turn`` (counted from 1) say where, as
    the message's first words do (:func:`place`)."""


def formats() -> dict[str, GameSpec]:
    """Every registered game, by its record ``format`` string."""
    return {spec.record_format: spec for spec in games()}


#: the largest record read, in bytes (RECORD.md: at most 10 MB) ...
MAX_BYTES = 10_000_000
#: ... and the deepest nesting of objects and lists (at most 16 levels)
MAX_DEPTH = 16
#: the top-level keys whose own keys a message names (``setup key 'air'``, ``chance key 'deal'``)
SECTIONS = ("setup", "chance")

#: a position in a document: the keys and list indices from the top object down
Path = tuple[str | int, ...]


def place(path: Path) -> tuple[str, str | None, int | None]:
    """Where ``path`` lies, in the words every record format's errors start with, and the
    ``key`` and ``turn`` an error carries: ``turn N`` (counted from 1) for anything inside a
    turn, ``setup key 'K'`` (or ``chance key 'K'``) inside a section, ``key 'K'`` for the rest
    of a top-level key, and ``record`` for the document as a whole.

    >>> place(("turns", 2, "dice", 0))
    ('turn 3', 'turns', 3)
    >>> place(("setup", "options", "reveal"))
    ("setup key 'options'", 'setup.options', None)
    >>> place(("format",)), place(())
    (("key 'format'", 'format', None), ('record', None, None))
    """
    if not path:
        return "record", None, None
    top = str(path[0])
    if top == "turns" and len(path) > 1 and isinstance(path[1], int):
        return f"turn {path[1] + 1}", "turns", path[1] + 1
    if top in SECTIONS and len(path) > 1 and isinstance(path[1], str):
        return f"{top} key {short_repr(path[1], 40)}", f"{top}.{path[1][:40]}", None
    return f"key {short_repr(top, 40)}", top[:40], None


def refuse(path: Path, what: str, error: Callable[..., GameError] = RecordFormatError) -> GameError:
    """The error for a fault at ``path``: ``error('<place>: <what>', key=..., turn=...)``, the
    one way every game's record reader says where a record is wrong.

    >>> print(refuse(("turns", 0, "dice"), "dice must be two integers"))
    turn 1: dice must be two integers
    """
    where, key, turn = place(path)
    return error(f"{where}: {what}", key=key, turn=turn)


def is_count(x: object, lo: int, hi: int) -> bool:
    """Whether ``x`` is an integer from ``lo`` to ``hi``: a seat, an index or a count in a
    record is never a boolean (``true``) nor a float (``1.0``); the bounds are checked before
    anything else touches the number, so a huge one costs nothing.

    >>> is_count(1, 0, 3), is_count(True, 0, 3), is_count(1.0, 0, 3), is_count(10**400, 0, 3)
    (True, False, False, False)
    """
    return is_int(x) and lo <= x <= hi


def name_problem(name: object, limit: int = 64) -> str | None:
    """What is wrong with a player's name, or ``None``: a name is a string of 1 to ``limit``
    characters, not only blanks, with no control character, that UTF-8 can encode (no lone
    surrogate, which JSON's ``\\ud800`` escapes can carry).

    >>> name_problem("Ann"), name_problem("\\ud800x"), name_problem(" ")
    (None, 'holds a lone surrogate (not encodable as UTF-8)', 'is blank')
    """
    if not isinstance(name, str):
        return f"is not a string: {short_repr(name)}"
    if not 1 <= len(name) <= limit:
        return f"must be 1 to {limit} characters, has {len(name)}"
    if name.isspace():
        return "is blank"
    if any(0xD800 <= ord(ch) <= 0xDFFF for ch in name):
        return "holds a lone surrogate (not encodable as UTF-8)"
    if any(ord(ch) < 32 or 127 <= ord(ch) < 160 for ch in name):
        return "holds a control character"
    return None


class _Twice(dict[str, Any]):
    """An object in which a key appeared twice (:func:`_pairs` marks it; :func:`_check_tree`
    refuses it where it lies)."""

    twice = ""


class _NotANumber:
    """``NaN``, ``Infinity`` or ``-Infinity`` where the text had it (refused by :func:`_check_tree`)."""

    def __init__(self, name: str) -> None:
        self.name = name


def _pairs(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if k in out and not isinstance(out, _Twice):
            out = _Twice(out)
            out.twice = k
        out.setdefault(k, v)
    return out


def _subject(path: Path) -> str:
    """``"key 'K' "`` for the key at the end of ``path`` when :func:`place` has not named it
    already (``turn 3: key 'dice' is null``, but ``setup key 'air': is null``)."""
    named = 2 if path and (path[0] == "turns" or path[0] in SECTIONS) else 1
    if len(path) > named and isinstance(path[-1], str):
        return f"key {short_repr(path[-1], 40)} "
    return ""


class _Fault(Exception):
    """A fault of the document found by :func:`_walk`: ``path`` (built innermost first, while
    the walk unwinds, so a valid document pays nothing for it) and what is wrong there."""

    def __init__(self, last: str | int | None, kind: str, what: str = "") -> None:
        self.path: list[str | int] = [] if last is None else [last]
        self.kind, self.what = kind, what


def _walk(x: Any, depth: int = 1) -> None:
    if isinstance(x, dict):
        if depth > MAX_DEPTH:
            raise _Fault(None, "deep")
        if isinstance(x, _Twice):
            raise _Fault(x.twice, "twice")
        for k, v in x.items():
            if v is None:
                raise _Fault(k, "null")
            try:
                _walk(v, depth + 1)
            except _Fault as e:
                e.path.append(k)
                raise
    elif isinstance(x, list):
        if depth > MAX_DEPTH:
            raise _Fault(None, "deep")
        for i, v in enumerate(x):
            if v is None:
                raise _Fault(i, "null in a list")
            try:
                _walk(v, depth + 1)
            except _Fault as e:
                e.path.append(i)
                raise
    elif isinstance(x, _NotANumber):
        raise _Fault(None, "number", x.name)
    elif isinstance(x, float) and not math.isfinite(x):
        raise _Fault(None, "number", "a number too large for a float (infinity)")


def _check_tree(doc: Any) -> None:
    """Nesting at most :data:`MAX_DEPTH`, never ``null`` (a key is absent or holds a value), no
    key twice, no ``NaN`` nor infinity: the first fault refused naming where it lies."""
    try:
        _walk(doc)
    except _Fault as e:
        path = tuple(reversed(e.path))
        what = {
            "deep": f"nested deeper than {MAX_DEPTH} levels",
            "twice": f"{_subject(path)}appears twice in one object",
            "null": f"{_subject(path)}is null; leave a key out to take its default",
            "null in a list": "null in a list; a list holds values only",
            "number": f"{e.what} is not a JSON number",
        }[e.kind]
        raise refuse(path, what) from None


_BLANK = re.compile(r"[ \t\n\r]*")
_PLAIN = json.JSONDecoder()


def _skip(text: str, i: int) -> int:
    """The offset of the first character at or after ``i`` that is not JSON whitespace."""
    m = _BLANK.match(text, i)
    return m.end() if m else i


def _broken(text: str, i: int = 0, path: Path = ()) -> Path:
    """The path of the value that does not parse in ``text`` (its value starting at ``i``):
    each child is read by the parser itself, and the first that fails is looked into, down to
    where the fault is (or to :data:`MAX_DEPTH` levels, for nesting the parser cannot follow).
    At most :data:`MAX_DEPTH` passes over the text, however broken it is."""
    i = _skip(text, i)
    opening = text[i : i + 1]
    if opening not in ("{", "[") or len(path) >= MAX_DEPTH:
        return path
    closing, index = ("}" if opening == "{" else "]"), 0
    i = _skip(text, i + 1)
    if text[i : i + 1] == closing:
        return path
    while True:
        step: str | int = index
        if opening == "{":
            if text[i : i + 1] != '"':
                return path
            try:
                step, i = json.decoder.scanstring(text, i + 1)  # type: ignore[attr-defined]
            except ValueError:
                return path
            i = _skip(text, i)
            if text[i : i + 1] != ":":
                return (*path, step)
            i += 1
        try:
            i = _PLAIN.raw_decode(text, _skip(text, i))[1]
        except (ValueError, RecursionError):
            return _broken(text, i, (*path, step))
        i = _skip(text, i)
        if text[i : i + 1] != ",":  # closed (what follows is at fault), or broken off after it
            return path if text[i : i + 1] == closing else (*path, step)
        i, index = _skip(text, i + 1), index + 1


def _read_bytes(source: Any) -> bytes | str:
    """At most :data:`MAX_BYTES` + 1 bytes (or characters) of a path or a file object."""
    if hasattr(source, "read"):
        data = source.read(MAX_BYTES + 1)
        if not isinstance(data, (bytes, str)):
            raise RecordFormatError(f"record: reading it gave {type(data).__name__}, not text")
        return data
    try:
        with open(source, "rb") as f:
            return f.read(MAX_BYTES + 1)
    except OSError as e:
        raise RecordFormatError(f"record: cannot read it: {e.strerror}: {os.fspath(source)}") from None


def _parse(data: bytes | str) -> Any:
    """The JSON value of ``data``; a fault of the text is refused naming where it lies."""
    size = len(data) if isinstance(data, bytes) else len(data.encode("utf-8", "surrogatepass"))
    if size > MAX_BYTES:
        raise RecordFormatError(f"record: larger than {MAX_BYTES:,} bytes")
    if isinstance(data, bytes):
        if data.startswith(b"\xef\xbb\xbf"):
            raise RecordFormatError("record: starts with a byte-order mark; write plain UTF-8")
        raw = data
        try:
            data = raw.decode("utf-8")
        except UnicodeDecodeError as e:
            before = raw[: e.start].decode("utf-8")
            raise refuse(_broken(before), f"not UTF-8 (byte {e.start})") from None
    if data.startswith("\ufeff"):
        raise RecordFormatError("record: starts with a byte-order mark; write plain UTF-8")
    try:
        return json.loads(data, object_pairs_hook=_pairs, parse_constant=_NotANumber)
    except RecursionError:
        raise refuse(_broken(data), f"nested deeper than {MAX_DEPTH} levels") from None
    except json.JSONDecodeError as e:
        where = f"{e.msg} (line {e.lineno} column {e.colno})"
        raise refuse(_broken(data), f"not valid JSON: {where}") from None
    except ValueError:  # an integer longer than Python converts (4300 digits by default)
        limit = sys.get_int_max_str_digits()
        raise refuse(_broken(data), f"not valid JSON: an integer of more than {limit} digits") from None


def read_document(source: Any) -> dict[str, Any]:
    """A record as a dict, from a dict, JSON text or bytes, a path or a file object (standard
    input included: a stream is read, never taken for a file name).

    A string that starts with ``{`` (after blanks) is JSON text; any other string is a path.
    Checked as RECORD.md says a record must be, whatever game it is of: UTF-8 with no
    byte-order mark, at most :data:`MAX_BYTES`, one object, nesting at most
    :data:`MAX_DEPTH`, no key twice in an object, no ``null``, no ``NaN``.  The work done is
    bounded by the size of the input, and every failure is a :class:`RecordFormatError` whose
    message starts by saying where (:func:`place`): the turn, the setup key or the key.

    >>> read_document('{"format": "x", "setup": {"air": null}}')
    Traceback (most recent call last):
    ...
    dsa_widget.core.records.RecordFormatError: setup key 'air': is null; leave a key out to take its default
    >>> read_document('{"format": "x", "turns": [{"dice": [1, 1]}, {"dice": [1, NaN]}]}')
    Traceback (most recent call last):
    ...
    dsa_widget.core.records.RecordFormatError: turn 2: NaN is not a JSON number
    """
    if isinstance(source, Mapping):
        doc: Any = dict(source)
    elif isinstance(source, (bytes, bytearray)) or (
        isinstance(source, str) and source.lstrip().startswith("{")
    ):
        doc = _parse(bytes(source) if isinstance(source, bytearray) else source)
    elif isinstance(source, (str, os.PathLike)) or hasattr(source, "read"):
        doc = _parse(_read_bytes(source))
    else:
        raise RecordFormatError(f"record: a JSON object, text or path, got {type(source).__name__}")
    if not isinstance(doc, dict):
        raise RecordFormatError("record: a record is a JSON object")
    _check_tree(doc)
    return doc


def read_record(source: Any, fmt: str | None, error: Callable[..., GameError]) -> dict[str, Any]:
    """A record document of one game (:func:`read_document`, then its ``format`` checked to be
    ``fmt`` unless that is ``None``); every failure is ``error(message, key=..., turn=...)``,
    the game's own record error.

    >>> read_record('{"format": "pig/record@1"}', "chess/pgn@1", RecordFormatError)
    Traceback (most recent call last):
    ...
    dsa_widget.core.records.RecordFormatError: key 'format': expected 'chess/pgn@1', got 'pig/record@1'
    """
    try:
        doc = read_document(source)
    except RecordFormatError as e:
        raise error(str(e), key=e.key, turn=e.turn) from None
    if fmt is not None and doc.get("format") != fmt:
        got = f"got {short_repr(doc['format'])}" if "format" in doc else "it is missing"
        raise refuse(("format",), f"expected {fmt!r}, {got}", error)
    return doc


def _format_of(doc: Mapping[str, Any]) -> GameSpec:
    known = formats()
    name = doc.get("format")
    fmt = known.get(name) if isinstance(name, str) else None
    if fmt is None:
        listed = ", ".join(repr(k) for k in sorted(known))
        what = (
            "missing: a record names its format" if "format" not in doc else f"unknown record format {name!r}"
        )
        raise RecordFormatError(f"key 'format': {what}; known: {listed}", key="format")
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
