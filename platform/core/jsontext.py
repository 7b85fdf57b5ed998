"""JSON text on a move's hot paths through orjson, with the values the standard library's ``json`` gives.

A move's engine state (about 1.2 KB for Durak) is written to its game row and into the move's event, and read
back by the game's lock and by every web process with sockets on the table; orjson does each in a fraction of
``json``'s time. Where the two differ, these keep ``json``'s values: keys that are not strings become strings
(``OPT_NON_STR_KEYS``, as ``json`` writes them), and whatever orjson refuses that ``json`` takes (integers beyond
64 bits) or takes that ``json`` refuses (times, dataclasses) goes through ``json``, and so does text orjson will
not read (``NaN``, a lone surrogate, deeper than 1024). Left as orjson has them: its text is compact and UTF-8 (no
``\\u`` escapes), so callers compare values, never the text; a float NaN or infinity is written as ``null``
(PostgreSQL's ``jsonb`` refuses ``json``'s ``NaN``); and an integer beyond 64 bits is read as a float (what
looks for one costs more than orjson saves: the engines' states and actions hold none, and a frame's is refused
either way).
"""

from __future__ import annotations

import json
from typing import Any

import orjson

_OPTIONS = orjson.OPT_NON_STR_KEYS | orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS

JSONDecodeError = json.JSONDecodeError  # orjson's is a subclass


def dumps(value: Any) -> bytes:
    """``value`` as UTF-8 JSON text."""
    try:
        return orjson.dumps(value, option=_OPTIONS)
    except TypeError:
        return json.dumps(value).encode()


def dumps_text(value: Any) -> str:
    """``value`` as JSON text."""
    return dumps(value).decode()


def loads(text: str | bytes) -> Any:
    """The value of JSON text, as ``json.loads`` gives it (errors included)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return json.loads(text)
