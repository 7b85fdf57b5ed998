"""A query the ORM writes once per process and database, run again with other values; an insert written once.

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

from django.core.exceptions import EmptyResultSet
from django.db import connections, router
from django.db.models import NOT_PROVIDED, QuerySet, signals, sql
from django.db.models.deletion import Collector
from django.db.models.query import ModelIterable, get_related_populators

#: stands for the first value while the SQL is written (the next ones count down from it, a thousand apart, and
#: the items of a list value down from its own): no real id or count is ever one of these, and as text (a key's
#: lookup) neither is any key
SENTINEL = -7_319_004_113
#: a list value (``pk__in``) is written once per length up to this one; a longer one is written for each call
LONGEST_WRITTEN = 64

#: the SQL, its parameters, where each value goes (the parameter, the value, the item of a list value or None),
#: and the reader of its rows (None for a values() query); no SQL for a query that can match nothing (an empty list)
Written = tuple[str | None, tuple[Any, ...], tuple[tuple[int, int, int | None], ...], "_Reader | None"]


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
    """``build(*values)`` (a queryset) written once per database alias, run as ``rows(*values)``,
    ``instances(*values)`` or ``delete(*values)``.

    ``rows`` are the database driver's own: the fields' converters do not run (a boolean comes back as 0 or 1 from
    SQLite, a JSON field as text there), so they suit columns that need none, as ids and counts. ``instances``, of
    a query of model instances (not ``values_list``), are what iterating the queryset gives: the converters run,
    ``select_related`` instances and annotations are set. A value may be a list (as ``pk__in`` takes): the query
    is written once for each length of it. ``delete`` deletes the rows the query finds, as ``QuerySet.delete``
    does for a model whose deletion cascades to nothing and that no signal listens to (its only one statement);
    any other is refused when it is written."""

    def __init__(self, build: Callable[..., QuerySet[Any, Any]]) -> None:
        self.build = build
        self.arity = len(inspect.signature(build).parameters)
        self._written: dict[tuple[str, bool, tuple[int, ...]], Written] = {}

    def _write(self, alias: str, values: tuple[Any, ...], deleting: bool = False) -> Written:
        # a list value's length is part of the SQL (one placeholder an item); -1 for a single value
        shape = tuple(len(v) if isinstance(v, list | tuple) else -1 for v in values)
        written = self._written.get((alias, deleting, shape))
        if written is None:
            written = self._written_now(alias, shape, deleting)
            if max(shape, default=-1) <= LONGEST_WRITTEN:
                self._written[alias, deleting, shape] = written
        return written

    def _written_now(self, alias: str, shape: tuple[int, ...], deleting: bool) -> Written:
        sentinels: list[Any] = [
            SENTINEL - 1000 * n if length < 0 else [SENTINEL - 1000 * n - 1 - i for i in range(length)]
            for n, length in enumerate(shape)
        ]
        queryset = self.build(*sentinels)
        query = queryset.query
        if deleting:
            if not Collector(alias, origin=None).can_fast_delete(queryset):
                raise TypeError("the query's rows cannot be deleted by one statement: delete them with the ORM")
            query = query.clone()
            query.__class__ = sql.DeleteQuery
        compiler = query.get_compiler(alias)
        try:
            text, params = compiler.as_sql()
        except EmptyResultSet:  # an empty list: nothing can match
            return None, (), (), None
        wanted = {
            str(sentinel): (n, i)
            for n, value in enumerate(sentinels)
            for i, sentinel in (enumerate(value) if isinstance(value, list) else [(None, value)])
        }
        # a sentinel reaches the SQL as itself, or as text where the field is a text one
        slots = tuple((p, *wanted[str(param)]) for p, param in enumerate(params) if str(param) in wanted)
        if {n for _p, n, _i in slots} != {n for n, length in enumerate(shape) if length != 0}:
            raise ValueError("the query does not use each of its values")
        reader = _Reader(compiler, alias) if not deleting and queryset._iterable_class is ModelIterable else None
        return text, tuple(params), slots, reader

    def _run(self, alias: str, values: tuple[Any, ...], deleting: bool = False) -> tuple[Any, Written]:
        if len(values) != self.arity:
            raise TypeError(f"the query takes {self.arity} values, not {len(values)}")
        written = self._write(alias, values, deleting)
        text, params, slots, _reader = written
        if text is None:
            return None, written
        filled = list(params)
        for p, n, i in slots:
            filled[p] = values[n] if i is None else values[n][i]
        with connections[alias].cursor() as cursor:
            cursor.execute(text, filled)
            return (cursor.rowcount if deleting else list(cursor.fetchall())), written

    def rows(self, *values: Any, alias: str = "default") -> list[tuple[Any, ...]]:
        found, _written = self._run(alias, values)
        return found or []

    def instances(self, *values: Any, alias: str = "default") -> list[Any]:
        found, (text, _params, _slots, reader) = self._run(alias, values)
        if reader is None and text is not None:
            raise TypeError("a values() or values_list() query has no instances: read its rows")
        return reader.instances(found) if reader is not None else []

    def delete(self, *values: Any, alias: str = "default") -> int:
        """The rows deleted."""
        found, _written = self._run(alias, values, deleting=True)
        return found or 0


#: an insert's SQL, the fields whose values it takes (in order), and whether it gives back the new rows' ids
WrittenInsert = tuple[str, list[Any], bool]


class Insert:
    """``Model.objects.create`` and ``bulk_create`` of one model with the INSERT written once per process, database
    and count of rows, instead of compiled by the ORM for each (about 0.3 ms of CPU an insert on this machine).

    Each value goes through its field's ``pre_save`` (``auto_now_add``) and ``get_db_prep_save`` (JSON, dates),
    as in the ORM's own insert, and the new rows' ids are set on the instances. It sends no ``pre_save`` or
    ``post_save`` signal (``create`` does): a model something listens to is refused when it is written, as one
    whose fields the database fills itself (``db_default``, a generated field)."""

    def __init__(self, model: type[Any]) -> None:
        self.model = model
        self._written: dict[tuple[str, int], WrittenInsert] = {}

    def _write(self, alias: str, count: int) -> WrittenInsert:
        written = self._written.get((alias, count))
        if written is not None:
            return written
        opts, connection = self.model._meta, connections[alias]
        if signals.pre_save.has_listeners(self.model) or signals.post_save.has_listeners(self.model):
            raise TypeError(f"{self.model.__name__} has save signals' listeners: create it with the ORM")
        fields = [f for f in opts.local_concrete_fields if f is not opts.auto_field]
        if any(f.generated or f.db_default is not NOT_PROVIDED for f in fields) or opts.parents:
            raise TypeError(f"{self.model.__name__}: the database fills some of its fields; create it with the ORM")
        q = connection.ops.quote_name
        row = f"({', '.join(['%s'] * len(fields))})"
        text = f"INSERT INTO {q(opts.db_table)} ({', '.join(q(f.column) for f in fields)}) VALUES "
        text += ", ".join([row] * count)
        features = connection.features
        returning = opts.auto_field is not None and bool(
            features.can_return_rows_from_bulk_insert if count > 1 else features.can_return_columns_from_insert
        )
        if returning:  # as PostgreSQL and SQLite (3.35 on) write it
            text += f" RETURNING {q(opts.db_table)}.{q(opts.auto_field.column)}"
        written = (text, fields, returning)
        if count <= LONGEST_WRITTEN:
            self._written[alias, count] = written
        return written

    def create(self, instance: Any) -> Any:
        """Insert ``instance`` (made, not saved): as ``instance.save(force_insert=True)`` without its signals."""
        self.bulk([instance])
        return instance

    def bulk(self, instances: list[Any]) -> list[Any]:
        """Insert ``instances`` in one statement, their ids set where the database gives them back (as
        ``bulk_create``, which PostgreSQL and SQLite do)."""
        if not instances:
            return instances
        alias = router.db_for_write(self.model)
        text, fields, returning = self._write(alias, len(instances))
        connection = connections[alias]
        values = [f.get_db_prep_save(f.pre_save(obj, True), connection) for obj in instances for f in fields]
        with connection.cursor() as cursor:
            cursor.execute(text, values)
            if returning:
                for obj, (pk,) in zip(instances, cursor.fetchall(), strict=True):
                    obj.pk = pk
            elif len(instances) == 1 and self.model._meta.auto_field is not None:
                instances[0].pk = connection.ops.last_insert_id(
                    cursor, self.model._meta.db_table, self.model._meta.pk.column
                )
        for obj in instances:
            obj._state.adding, obj._state.db = False, alias
        return instances


class Update:
    """``instance.save(update_fields=fields)`` with the UPDATE written once per process and database, instead of
    compiled by the ORM for each (0.38-0.39 -> 0.09-0.12 ms of CPU for a table's two fields, in a shell): each value
    through its field's ``pre_save`` and ``get_db_prep_save``; no save signal is sent (a model something listens to
    is refused when it is written)."""

    def __init__(self, model: type[Any], fields: tuple[str, ...]) -> None:
        self.model, self.names = model, fields
        self._written: dict[str, tuple[str, list[Any]]] = {}

    def _write(self, alias: str) -> tuple[str, list[Any]]:
        written = self._written.get(alias)
        if written is None:
            opts, q = self.model._meta, connections[alias].ops.quote_name
            if signals.pre_save.has_listeners(self.model) or signals.post_save.has_listeners(self.model):
                raise TypeError(f"{self.model.__name__} has save signals' listeners: save it with the ORM")
            fields = [opts.get_field(name) for name in self.names]
            if any(not getattr(f, "concrete", False) or f.primary_key for f in fields):
                raise TypeError(f"{self.model.__name__}: only columns other than its key are updated so")
            assignments = ", ".join(f"{q(f.column)} = %s" for f in fields)
            text = f"UPDATE {q(opts.db_table)} SET {assignments} WHERE {q(opts.pk.column)} = %s"
            written = self._written[alias] = (text, fields)
        return written

    def save(self, instance: Any) -> int:
        """Write the fields' values of ``instance`` (stored) to its row; the rows changed (1, or 0 if it is gone)."""
        alias = router.db_for_write(self.model, instance=instance)
        text, fields = self._write(alias)
        connection = connections[alias]
        values = [f.get_db_prep_save(f.pre_save(instance, False), connection) for f in fields]
        with connection.cursor() as cursor:
            cursor.execute(text, [*values, instance.pk])
            return int(cursor.rowcount)
