"""A query the ORM writes once per process and database, run again with other values.

Building a query costs the ORM far more CPU than the database spends answering a small one: cloning the
queryset, resolving its lookups and expressions (``Exists``, ``Subquery``, ``OuterRef``, an aggregate) and
compiling the SQL happen again on every call (about 0.4 ms a query on this machine, against 0.1 ms for the round
trip itself). A hot query that differs only in a few values (a player's id, a queue's key) is written once from
the ORM's own queryset, built with sentinels in the values' places, and then run with the values put where the
sentinels were. The SQL stays the ORM's: a renamed column or a changed model is written the same way, and the
query runs through Django's cursor (its transaction, its query log).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

from django.db import connections
from django.db.models import Model, QuerySet

#: stands for the first value while the SQL is written (the next ones count down from it): no real id or count is
#: ever one of these, and as text (a key's lookup) neither is any key
SENTINEL = -7_319_004_113


class Prepared:
    """``build(*values)`` (a queryset) written once per database alias, run as ``rows(*values)`` or
    ``instances(*values)``.

    ``rows`` are the database driver's own: the fields' converters do not run (a boolean comes back as 0 or 1 from
    SQLite, a JSON field as text there), so they suit columns that need none, as ids and counts. ``instances`` are
    the model's, made as ``Model.objects.raw`` makes them (the converters run), for a query of one model's rows;
    a column of another table it selects (``select_related``) is set on the instance under its column's name when
    the model has no column of that name."""

    def __init__(self, build: Callable[..., QuerySet[Any, Any]]) -> None:
        self.build = build
        self.arity = len(inspect.signature(build).parameters)
        self._written: dict[str, tuple[type[Model], str, tuple[Any, ...], tuple[tuple[int, int], ...]]] = {}

    def _write(self, alias: str) -> tuple[type[Model], str, tuple[Any, ...], tuple[tuple[int, int], ...]]:
        written = self._written.get(alias)
        if written is None:
            sentinels = [SENTINEL - n for n in range(self.arity)]
            queryset = self.build(*sentinels)
            sql, params = queryset.query.get_compiler(alias).as_sql()
            # a sentinel reaches the SQL as itself, or as text where the field is a text one
            slots = tuple(
                (i, n)
                for i, param in enumerate(params)
                for n, sentinel in enumerate(sentinels)
                if param == sentinel or param == str(sentinel)
            )
            if {n for _i, n in slots} != set(range(self.arity)):
                raise ValueError("the query does not use each of its values")
            written = self._written[alias] = (queryset.model, sql, tuple(params), slots)
        return written

    def _statement(self, values: tuple[Any, ...], alias: str) -> tuple[type[Model], str, list[Any]]:
        if len(values) != self.arity:
            raise TypeError(f"the query takes {self.arity} values, not {len(values)}")
        model, sql, params, slots = self._write(alias)
        filled = list(params)
        for i, n in slots:
            filled[i] = values[n]
        return model, sql, filled

    def rows(self, *values: Any, alias: str = "default") -> list[tuple[Any, ...]]:
        _model, sql, params = self._statement(values, alias)
        with connections[alias].cursor() as cursor:
            cursor.execute(sql, params)
            return list(cursor.fetchall())

    def instances(self, *values: Any, alias: str = "default") -> list[Any]:
        model, sql, params = self._statement(values, alias)
        return list(model._default_manager.db_manager(alias).raw(sql, params))
