"""Records of every game: reading JSON documents and dispatching on their ``format``.

Each game registers its record format once (see :func:`register_format`);
``python -m dsa_widget replay FILE`` reads the document, finds the game by
the record's ``format`` and replays it with that game's loader.

>>> sorted(f for f in formats())            # the games known to replay
['deep-sea-adventure/record@1']
>>> replay({"format": "chess/pgn@1"})
Traceback (most recent call last):
...
dsa_widget.core.records.RecordFormatError: key 'format': unknown record format 'chess/pgn@1'; known: 'deep-sea-adventure/record@1'
"""

from __future__ import annotations

import importlib
import json
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import GameError

__all__ = ["RecordFormat", "RecordFormatError", "formats", "read_document", "register_format", "replay"]


class RecordFormatError(GameError):
    """A document that is not a record of any known game (bad JSON, no or unknown ``format``)."""

    def __init__(self, message: str, key: str | None = None) -> None:
        super().__init__(message)
        self.key = key
        self.turn: int | None = None


@dataclass(frozen=True)
class RecordFormat:
    """How one game reads and shows its records."""

    format: str
    #: the document (a dict) -> the game after its last turn; raises the game's record error
    load: Callable[[Mapping[str, Any]], Any]
    #: the game -> the JSON object ``replay`` prints
    show: Callable[[Any], Any]


_FORMATS: dict[str, RecordFormat] = {}
#: modules that register a format when imported (imported on first use, so the CLI stays light)
_GAME_MODULES = ("dsa_widget.deep_sea.record",)


def register_format(fmt: RecordFormat) -> None:
    """Make ``replay`` (and :func:`replay`) know a record format."""
    _FORMATS[fmt.format] = fmt


def formats() -> dict[str, RecordFormat]:
    """Every registered record format, by its ``format`` string."""
    for mod in _GAME_MODULES:
        importlib.import_module(mod)
    return dict(_FORMATS)


def read_document(source: Any) -> dict[str, Any]:
    """A record as a dict, from a dict, JSON text or bytes, a path or a file object.

    A string that starts with ``{`` (after blanks) is JSON text; any other string is a path.
    """
    if isinstance(source, Mapping):
        return dict(source)
    if hasattr(source, "read"):
        text = source.read()
    elif isinstance(source, os.PathLike) or (isinstance(source, str) and not source.lstrip().startswith("{")):
        try:
            with open(source, encoding="utf-8") as f:
                text = f.read()
        except OSError as e:
            raise RecordFormatError(f"cannot read the record: {e.strerror}: {os.fspath(source)}") from None
    elif isinstance(source, (str, bytes)):
        text = source
    else:
        raise RecordFormatError(f"a record is a JSON object, text or path, got {type(source).__name__}")
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise RecordFormatError(f"not valid JSON: {e}") from None
    if not isinstance(doc, dict):
        raise RecordFormatError("a record is a JSON object")
    return doc


def _format_of(doc: Mapping[str, Any]) -> RecordFormat:
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
    fmt = _format_of(doc)
    return fmt.show(fmt.load(doc))


def load(source: Any) -> Any:
    """The game a record of any known game describes, after its last turn."""
    doc = read_document(source)
    return _format_of(doc).load(doc)
