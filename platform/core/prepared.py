"""A query the ORM writes once per process and database, run again with another value.

Building a query with subqueries (``Exists``, ``Subquery``, ``OuterRef``) costs the ORM far more CPU than the
database spends answering it: resolving the expressions and compiling the SQL happen again on every call. A hot
query that differs only in one value (a player's id) is written once from the ORM's own queryset, built with a
sentinel in the value's place, and then run with the value put where the sentinel was. The SQL stays the ORM's:
a renamed column or a changed model is written the same way, and the query runs through Django's cursor (its
transaction, its query log).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import QuerySet

#: stands for the value while the SQL is written: no real id or count is ever this
SENTINEL = -7_319_004_113


class Prepared:
    """``build(value)`` (a ``values_list`` queryset) written once per database alias, run as ``rows(value)``.

    The rows are the database driver's own: the fields' converters do not run (a boolean comes back as 0 or 1
    from SQLite, a JSON field as text there), so it suits columns that need none, as ids and counts."""

    def __init__(self, build: Callable[[int], QuerySet[Any, Any]]) -> None:
        self.build = build
        self._written: dict[str, tuple[str, tuple[Any, ...], tuple[int, ...]]] = {}

    def _write(self, alias: str) -> tuple[str, tuple[Any, ...], tuple[int, ...]]:
        written = self._written.get(alias)
        if written is None:
            sql, params = self.build(SENTINEL).query.get_compiler(alias).as_sql()
            slots = tuple(i for i, param in enumerate(params) if param == SENTINEL)
            if not slots:
                raise ValueError("the query does not use its value")
            written = self._written[alias] = (sql, tuple(params), slots)
        return written

    def rows(self, value: int, alias: str = "default") -> list[tuple[Any, ...]]:
        sql, params, slots = self._write(alias)
        values = list(params)
        for i in slots:
            values[i] = value
        with connections[alias].cursor() as cursor:
            cursor.execute(sql, values)
            return list(cursor.fetchall())
