"""What a move changed, carried by the table's group event so its sockets need no query to show it.

The move service writes the game row's move fields and the new log rows; the
same values, encoded as the database would give them back (JSON for the JSON
fields, ISO text for times), travel in the ``table.changed`` event to every web
process with sockets on the table (``tables.live``). The delta holds the whole
engine state, secret cards included: it stays between server processes (the
channel layer), and each socket still gets only its own seat's view of it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from core import jsontext
from tables.models import Game, Move
from tables.rows import copied

#: what a move changes on the game row (``services.table_apply_action`` saves these)
MOVE_FIELDS = (
    "move_number",
    "state",
    "status",
    "result",
    "finished_at",
    "deadline",
    "turn_started_at",
    "bot_substituted",
)
TIMES = frozenset({"finished_at", "deadline", "turn_started_at"})
MOVE_ROW = ("number", "seat", "action", "text", "words", "public", "by")
#: a log row's columns in the order ``Move(*values)`` takes them: by position ``Model.__init__`` sets them in
#: two thirds of its time by name; every one but the id comes in the delta (a column missing there fails loudly)
_MOVE_COLUMNS = tuple(f.attname for f in Move._meta.concrete_fields)
_MOVE_PK = Move._meta.pk.attname if Move._meta.pk is not None else "id"


def _time(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def move_delta(game: Game, moves: list[Move]) -> str:
    """The game row's move fields after ``moves`` (the rows this move wrote), as text."""
    row = {name: _time(getattr(game, name)) if name in TIMES else getattr(game, name) for name in MOVE_FIELDS}
    logged = [{**{name: getattr(m, name) for name in MOVE_ROW}, "created_at": _time(m.created_at)} for m in moves]
    return jsontext.dumps_text({"game": game.pk, "row": row, "moves": logged})


def delta_apply(game: Game, delta: str) -> tuple[Game, list[Move]] | None:
    """``game`` (as read at the move before) and the new log rows after the move ``delta`` describes,
    or None when it does not follow on from ``game`` (another game, or moves missed in between)."""
    data: dict[str, Any] = jsontext.loads(delta)
    row, moves = data["row"], data["moves"]
    if data["game"] != game.pk or row["move_number"] != game.move_number + len(moves):
        return None
    fresh = copied(game)
    for name, value in row.items():
        setattr(fresh, name, datetime.fromisoformat(value) if name in TIMES and value is not None else value)
    logged = []
    for m in moves:
        values = {**m, _MOVE_PK: None, "game_id": game.pk, "created_at": datetime.fromisoformat(m["created_at"])}
        columns: Any = [values[name] for name in _MOVE_COLUMNS]
        logged.append(Move(*columns))
    return fresh, logged
