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
from django.db.models import QuerySet
from django.db.models.query import ModelIterable, get_related_populators

#: stands for the first value while the SQL is written (the next ones count down from it): no real id or count is
#: ever one of these, and as text (a key's lookup) neither is any key
SENTINEL = -7_319_004_113


class _Reader:
    """A model query's rows turned into instances as the ORM's own iterable does (``ModelIterable``): the fields'
    converters, ``Model.from_db``, the ``select_related`` instances, the annotations; worked out once, from the
    compiler that wrote the SQL, instead of per query as ``Model.objects.raw`` does."""

    def __init__(self, compiler: Any, alias: str) -> None:
        select, klass_info = compiler.select, compiler.klass_info
        self.model = klass_info["model"]
        fields = klass_info["select_fields"]
        self.start, self.end = fields[0], fields[-1] + 1
        self.names = [column[0].target.attname for column in select[self.start : self.end]]
        # (django-stubs describe a later Django, whose populators take a fetch mode too)
        self.related = get_related_populators(klass_info, select, alias)  # type: ignore[call-arg]
        self.annotations = list(compiler.annotation_col_map.items())
        self.converters = [
            (i, functions, expression)
            for i, (functions, expression) in compiler.get_converters([column[0] for column in select]).items()
        ]
        self.alias = alias

    def instances(self, rows: list[tuple[Any, ...]]) -> list[Any]:
        connection = connections[self.alias]
        found = []
        for row in rows:
            values = list(row)
            for i, functions, expression in self.converters:
                for convert in functions:
                    values[i] = convert(values[i], expression, connection)
            instance = self.model.from_db(self.alias, self.names, values[self.start : self.end])
            for populator in self.related:
                populator.populate(values, instance)
            for name, i in self.annotations:
                setattr(instance, name, values[i])
            found.append(instance)
        return found


class Prepared:
    """``build(*values)`` (a queryset) written once per database alias, run as ``rows(*values)`` or
    ``instances(*values)``.

    ``rows`` are the database driver's own: the fields' converters do not run (a boolean comes back as 0 or 1 from
    SQLite, a JSON field as text there), so they suit columns that need none, as ids and counts. ``instances``, of
    a query of model instances (not ``values_list``), are what iterating the queryset gives: the converters run,
    ``select_related`` instances and annotations are set."""

    def __init__(self, build: Callable[..., QuerySet[Any, Any]]) -> None:
        self.build = build
        self.arity = len(inspect.signature(build).parameters)
        self._written: dict[str, tuple[str, tuple[Any, ...], tuple[tuple[int, int], ...], _Reader | None]] = {}

    def _write(self, alias: str) -> tuple[str, tuple[Any, ...], tuple[tuple[int, int], ...], _Reader | None]:
        written = self._written.get(alias)
        if written is None:
            sentinels = [SENTINEL - n for n in range(self.arity)]
            queryset = self.build(*sentinels)
            compiler = queryset.query.get_compiler(alias)
            sql, params = compiler.as_sql()
            # a sentinel reaches the SQL as itself, or as text where the field is a text one
            slots = tuple(
                (i, n)
                for i, param in enumerate(params)
                for n, sentinel in enumerate(sentinels)
                if param == sentinel or param == str(sentinel)
            )
            if {n for _i, n in slots} != set(range(self.arity)):
                raise ValueError("the query does not use each of its values")
            reader = _Reader(compiler, alias) if queryset._iterable_class is ModelIterable else None
            written = self._written[alias] = (sql, tuple(params), slots, reader)
        return written

    def rows(self, *values: Any, alias: str = "default") -> list[tuple[Any, ...]]:
        if len(values) != self.arity:
            raise TypeError(f"the query takes {self.arity} values, not {len(values)}")
        sql, params, slots, _reader = self._write(alias)
        filled = list(params)
        for i, n in slots:
            filled[i] = values[n]
        with connections[alias].cursor() as cursor:
            cursor.execute(sql, filled)
            return list(cursor.fetchall())

    def instances(self, *values: Any, alias: str = "default") -> list[Any]:
        rows = self.rows(*values, alias=alias)
        reader = self._written[alias][3]
        if reader is None:
            raise TypeError("a values() or values_list() query has no instances: read its rows")
        return reader.instances(rows)
