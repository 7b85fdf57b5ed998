"""A move's four statements, written once per process instead of compiled by the ORM for every move.

A move in the player's time locks the game (with its table), reads the seats,
inserts the move and updates the game (with ``SET LOCAL`` before them when the
commit need not wait for the disk). Through the ORM, building the same SQL
again for every move, the whole move cost its web process 4.4 ms of CPU and a
refused stale click 1.8 ms; with these, 2.3 ms and 0.7 ms (a move's thread
timed in a shell, ``process_time``, PostgreSQL).
The statements are made from the models' own metadata, and every value goes
through the field's own database adapters and converters, so a field added to
a model is read and written here as well and the instances are the ORM's own
(as ``Model.from_db`` makes them): the code after them works on them as before.
Queries run in Django's transaction; whenever its query log or an execute
wrapper watches, through Django's cursor, so they see them like any other.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from datetime import datetime
from functools import cache
from typing import Any, TypeVar

from django.conf import settings
from django.db import connections, models, router
from django.db.models.base import ModelState
from django.db.models.fields.related_descriptors import ForeignKeyDeferredAttribute, ForwardManyToOneDescriptor
from django.db.models.query_utils import DeferredAttribute
from django.db.models.signals import post_init, pre_init
from psycopg import _cmodule, generators, pq
from psycopg import errors as driver_errors
from psycopg._queries import PostgresClientQuery
from psycopg._tz import get_tzinfo
from psycopg.adapt import Transformer
from psycopg.types.json import Jsonb

from core import jsontext
from core.durability import commit_unflushed
from tables.models import Game, Move, Seat, Table

M = TypeVar("M", bound=models.Model)

Converter = Callable[[Any, Any, Any], Any]

#: psycopg's own timestamptz loader in C (None without its C module); Django's, a Python subclass of psycopg's Python
#: one, parses every timestamp in Python (6 us each: a move's lock reads about eight)
_C_TIMESTAMPTZ: Any = getattr(_cmodule._psycopg, "TimestamptzLoader", None) if _cmodule._psycopg is not None else None
_TIMESTAMPTZ_OID = 1184

#: the descriptors of a column read back with nothing but its value stored on the instance
_PLAIN = (DeferredAttribute, ForeignKeyDeferredAttribute)


def _column(field: models.Field[Any, Any]) -> str:
    """A concrete field's column (the stubs allow None, which only a field stored nowhere has)."""
    if field.column is None:
        raise TypeError(f"{field} has no column")
    return field.column


class _Reader:
    """A model's concrete columns in a SELECT, and the row turned back into an instance."""

    def __init__(self, model: type[models.Model], alias: str) -> None:
        connection = connections[alias]
        self.model, self.alias = model, alias
        self.fields = list(model._meta.concrete_fields)
        table = connection.ops.quote_name(model._meta.db_table)
        self.columns = ", ".join(f"{table}.{connection.ops.quote_name(_column(f))}" for f in self.fields)
        self.names = [f.attname for f in self.fields]
        # every column a plain attribute (or a foreign key's id, whose setter only drops a cached related object a
        # new instance has not got): the instance may be made without ``Model.__init__``, as it sets no more
        self.plain = (
            model.__init__ is models.Model.__init__
            and model.from_db.__func__ is models.Model.from_db.__func__  # type: ignore[attr-defined]
            and all(type(getattr(model, name, None)) in _PLAIN for name in self.names)
        )
        # what the ORM's compiler applies to each column it reads (the backend's, then the field's)
        self.converters: list[tuple[int, list[Converter], Any]] = []
        for i, field in enumerate(self.fields):
            col = field.get_col(model._meta.db_table)
            converters = [
                _json_from_db if _plain_json(field) and convert == field.from_db_value else convert  # type: ignore[attr-defined]
                for convert in connection.ops.get_db_converters(col) + field.get_db_converters(connection)
            ]
            if converters:
                self.converters.append((i, converters, col))

    def instance(self, row: Sequence[Any]) -> models.Model:
        values = list(row)
        connection = connections[self.alias]
        for i, converters, col in self.converters:
            for convert in converters:
                values[i] = convert(values[i], col, connection)
        model = self.model
        if not self.plain or pre_init.has_listeners(model) or post_init.has_listeners(model):
            return model.from_db(self.alias, self.names, values)
        # what ``from_db`` makes, in half its time (22 against 40 us for a move's game, table and two seats):
        # ``Model.__init__`` sets each value through ``setattr`` and sends its two signals to no one
        instance = model.__new__(model)
        instance.__dict__.update(zip(self.names, values, strict=True))
        state = instance._state = ModelState()
        state.adding, state.db = False, self.alias
        return instance


def move_new(game: Game, **values: Any) -> Move:
    """``Move(game=game, **values)`` in less than half its time (12-18 -> 5-8 us, in a shell): ``Model.__init__``
    sends its two signals to no one, pops each field's value through exceptions and sets the game through its
    descriptor's checks and the router's. The same instance: its fields in the same order, each given value or the
    field's default, the game's id, the game kept as its cached related object and the game's database as its own.
    As ``Move(...)`` when any of that could differ (a router, an init signal's listener, a field not named here)."""
    made = _move_made()
    if (
        made is None
        or not values.keys() <= made[1]
        or game._state.db is None
        or pre_init.has_listeners(Move)
        or post_init.has_listeners(Move)
    ):
        return Move(game=game, **values)
    move = Move.__new__(Move)
    state = move._state = ModelState()
    state.db, state.fields_cache = game._state.db, {"game": game}
    attributes = move.__dict__
    for attname, field in made[0]:
        if attname == "game_id":
            attributes[attname] = game.pk
        else:
            attributes[attname] = values[attname] if attname in values else field.get_default()
    return move


@cache
def _move_made() -> tuple[list[tuple[str, models.Field[Any, Any]]], frozenset[str]] | None:
    """Move's fields in ``Model.__init__``'s order, and the names ``move_new`` may set, when it makes what that does:
    no router (which would choose the database and allow the relation), ``__init__`` and the descriptors Django's,
    the game its only related field."""
    fields = [f for f in Move._meta.fields if f.column is not None and not f.generated]
    reader = _Reader(Move, router.db_for_write(Move))
    if settings.DATABASE_ROUTERS or not reader.plain or [f.name for f in fields if f.is_relation] != ["game"]:
        return None
    game = Move._meta.get_field("game")
    if type(Move.game) is not ForwardManyToOneDescriptor or game.target_field is not Game._meta.pk:
        return None
    return [(f.attname, f) for f in fields], frozenset(f.attname for f in fields if not f.is_relation)


def copied(instance: M) -> M:
    """``copy.copy(instance)`` in half its time: its attributes, and its state with the related objects it
    caches, in a dict of its own (what ``Model.__getstate__`` copies; no Django version is stamped on it)."""
    model = type(instance)
    if (
        hasattr(model, "__copy__")
        or model.__reduce__ is not models.Model.__reduce__
        or model.__getstate__ is not models.Model.__getstate__
        or getattr(model, "__setstate__", None) is not getattr(models.Model, "__setstate__", None)
        or any(isinstance(value, memoryview) for value in instance.__dict__.values())
    ):
        return copy.copy(instance)
    fresh = model.__new__(model)
    fresh.__dict__.update(instance.__dict__)
    state = fresh._state = ModelState()
    state.__dict__.update(instance._state.__dict__)
    state.fields_cache = instance._state.fields_cache.copy()
    return fresh


def _plain_json(field: models.Field[Any, Any]) -> bool:
    """A JSON field read and written as Django's own with no encoder or decoder of its own (``json``'s)."""
    return (
        isinstance(field, models.JSONField)
        and field.encoder is None
        and field.decoder is None
        and type(field).from_db_value is models.JSONField.from_db_value
        and type(field).get_db_prep_save is models.JSONField.get_db_prep_save
        and type(field).get_db_prep_value is models.JSONField.get_db_prep_value
    )


def _json_from_db(value: Any, expression: Any, connection: Any) -> Any:
    """``JSONField.from_db_value`` for a column (``core.jsontext``: the same values in a quarter of the time)."""
    if value is None:
        return value
    try:
        return jsontext.loads(value)
    except jsontext.JSONDecodeError:
        return value


def _prepared(field: models.Field[Any, Any], value: Any, connection: Any) -> Any:
    """The field's value (``pre_save``'s) for an INSERT or UPDATE, as ``get_db_prep_save`` gives it; a plain JSON
    field's value for PostgreSQL is dumped by orjson (``core.jsontext``: the same value, in a fifth of the time)."""
    value = field.get_db_prep_save(value, connection)
    return _dumped_by_orjson(value) if type(value) is Jsonb and _plain_json(field) else value


def _dumped_by_orjson(value: Any) -> Any:
    """A plain JSON field's prepared value (psycopg's ``Jsonb`` with ``json.dumps``) dumped by ``core.jsontext``."""
    if type(value) is Jsonb and value.dumps is json.dumps:
        value.dumps = jsontext.dumps
    return value


#: the methods between an instance's attribute and the value saved (``pre_save``, then ``get_db_prep_save``)
_PREP_METHODS = ("pre_save", "get_db_prep_save", "get_db_prep_value", "get_prep_value", "to_python")
#: the fields whose value of one exact type Django saves as it is, or as one call of the backend's adapter gives it
_PREP_KINDS = (
    ("int", models.IntegerField, int),
    ("str", models.CharField, str),
    ("bool", models.BooleanField, bool),
    ("time", models.DateTimeField, datetime),
)


def _kind(field: models.Field[Any, Any]) -> tuple[str, Any]:
    """How a field's value is prepared in ``_values``: by kind when the field is Django's own class or one that
    changes none of the methods from the attribute to the saved value, else ("orm", None)."""
    for kind, base, _type in _PREP_KINDS:
        if isinstance(field, base) and all(getattr(type(field), m) is getattr(base, m) for m in _PREP_METHODS):
            if kind == "time" and (getattr(field, "auto_now", False) or getattr(field, "auto_now_add", False)):
                return kind, "auto"  # (its ``pre_save`` sets the time)
            return kind, field.get_internal_type() if kind == "int" else None
    if _plain_json(field) and all(getattr(type(field), m) is getattr(models.JSONField, m) for m in _PREP_METHODS):
        return "json", None
    return "orm", None


Plan = list[tuple["models.Field[Any, Any]", str, str, Any]]


def _plan(fields: Sequence[models.Field[Any, Any]]) -> Plan:
    return [(field, field.attname, *_kind(field)) for field in fields]


def _values(plan: Plan, instance: models.Model, add: bool, connection: Any) -> list[Any]:
    """Each field's value for an INSERT or UPDATE (``_prepared``), without Django's layers where they provably hand
    the value on: an int, str or bool in a field of that kind, an aware datetime, a dict or list in a plain JSON
    field, each given to the backend's own adapter where Django gives it (``adapt_integerfield_value``,
    ``adapt_datetimefield_value``, ``adapt_json_value``); anything else (None, an expression, a lazy string, an
    enum's member) through them all.
    A move's 17 values 51 -> 19 us (shell)."""
    ops, attributes = connection.ops, instance.__dict__
    values = []
    for field, attname, kind, extra in plan:
        # (``Field.pre_save`` reads the attribute; an auto time's sets it, and a deferred one is read by it)
        value = field.pre_save(instance, add) if extra == "auto" or attname not in attributes else attributes[attname]
        of = type(value)
        if kind == "int" and of is int:
            values.append(ops.adapt_integerfield_value(value, extra))
        elif (kind == "str" and of is str) or (kind == "bool" and of is bool):
            values.append(value)
        elif kind == "time" and of is datetime and value.utcoffset() is not None:
            values.append(ops.adapt_datetimefield_value(value))
        elif kind == "json" and (of is dict or of is list):
            values.append(_dumped_by_orjson(ops.adapt_json_value(value, None)))
        else:
            values.append(_prepared(field, value, connection))
    return values


@cache
def _statements(alias: str) -> dict[str, Any]:
    connection = connections[alias]
    q = connection.ops.quote_name
    game, table, seat = _Reader(Game, alias), _Reader(Table, alias), _Reader(Seat, alias)
    lock = " FOR UPDATE" if connection.features.has_select_for_update else ""  # SQLite: the transaction is IMMEDIATE
    g, t, s = q(Game._meta.db_table), q(Table._meta.db_table), q(Seat._meta.db_table)
    move_fields = [f for f in Move._meta.concrete_fields if not f.primary_key]
    returning = connection.features.can_return_columns_from_insert
    return {
        "game": game,
        "table": table,
        "seat": seat,
        "lock": (
            f"SELECT {game.columns}, {table.columns} FROM {g} INNER JOIN {t} ON {g}.{q('table_id')} = {t}.{q('id')}"
            f" WHERE {g}.{q('id')} = %s{lock}"
        ),
        "seats": (
            f"SELECT {seat.columns} FROM {s}"
            f" WHERE {s}.{q('table_id')} = (SELECT {q('table_id')} FROM {g} WHERE {q('id')} = %s)"
        ),
        "move_fields": _plan(move_fields),
        "insert": (
            f"INSERT INTO {q(Move._meta.db_table)} ({', '.join(q(_column(f)) for f in move_fields)})"
            f" VALUES ({', '.join(['%s'] * len(move_fields))})" + (f" RETURNING {q('id')}" if returning else "")
        ),
        "returning": returning,
    }


def _alias(model: type[models.Model]) -> str:
    return router.db_for_write(model)


@contextmanager
def _together(connection: Any) -> Iterator[None]:
    """The statements inside sent in one round trip on PostgreSQL (psycopg's pipeline mode; a transaction's
    BEGIN it sends first, in a round trip of its own), one by one elsewhere. Results are read after the block."""
    if connection.vendor != "postgresql":
        yield
        return
    with connection.wrap_database_errors, connection.connection.pipeline():
        yield


def game_lock(game_id: int) -> tuple[Game, list[Seat]] | None:
    """The game row, locked until the transaction ends, with its table (as ``select_related("table")``), and
    the table's seat rows in no order; on PostgreSQL one round trip with the transaction's start."""
    alias = _alias(Game)
    sql = _statements(alias)
    connection = connections[alias]
    # every writer of a playing seat takes this game's lock first, so the seats' rows are current unlocked
    if _several_in_one(connection):
        row, seat_rows = _lock_in_one(connection, sql, game_id)
    else:
        with connection.cursor() as game_cursor, connection.cursor() as seats_cursor:
            with _together(connection):
                game_cursor.execute(sql["lock"], [game_id])
                seats_cursor.execute(sql["seats"], [game_id])
            row, seat_rows = game_cursor.fetchone(), seats_cursor.fetchall()
    if row is None:
        return None
    split = len(sql["game"].fields)
    game = sql["game"].instance(row[:split])
    Game.table.field.set_cached_value(game, sql["table"].instance(row[split:]))
    return game, [sql["seat"].instance(r) for r in seat_rows]


def _lock_in_one(connection: Any, sql: dict[str, Any], game_id: int) -> tuple[Any, list[Any]]:
    """The lock and the seats' read as one query of several, with the transaction's BEGIN as its first statement
    when the transaction has not begun: one round trip, where psycopg's pipeline mode took two (it waits for its
    BEGIN's answer before sending the rest) and more of its own work. Sent straight to the driver's connection
    (``_exchange``) it gets no BEGIN of its own from psycopg, which reads the transaction's state from the
    connection, so its commit and rollback act as after its own."""
    connection.ensure_connection()
    raw = connection.connection
    begin = raw.pgconn.transaction_status == pq.TransactionStatus.IDLE and not raw.autocommit
    query = _lock_query(connection.alias, raw._get_tx_start_command() if begin else b"")
    if not _watched(connection):
        with _driver(connection) as rows:
            lock, seats = _exchange(connection, rows, query, [game_id, game_id])[-2:]
            rows.set_pgresult(lock)
            row = rows.load_row(0, tuple) if lock.ntuples else None
            rows.set_pgresult(seats)
            return row, rows.load_rows(0, seats.ntuples, tuple)
    with connection.cursor() as cursor:
        _c_timestamps(connection, cursor)  # (as the driver's rows read them)
        # psycopg's cursor would send its BEGIN alone before the query: it is told the connection commits by itself
        # while the query that begins the transaction is sent
        if begin:
            raw._autocommit = True
        try:
            cursor.execute(query, [game_id, game_id])
        finally:
            if begin:
                raw._autocommit = False
        if begin:
            cursor.nextset()  # past the BEGIN's empty result, to the lock's
        row = cursor.fetchone()
        cursor.nextset()
        return row, cursor.fetchall()


@cache
def _lock_query(alias: str, begin: bytes) -> str:
    """The lock and the seats' read, after ``begin`` when it is a transaction's start (made once)."""
    sql = _statements(alias)
    query = f"{sql['lock']}; {sql['seats']}"
    return f"{begin.decode()}; {query}" if begin else query


#: the results a move's statements give; any other is their error
_ANSWERED = frozenset({pq.ExecStatus.TUPLES_OK, pq.ExecStatus.COMMAND_OK})


def _exchange(connection: Any, rows: Any, query: str, params: Sequence[Any]) -> list[Any]:
    """``query`` with ``params`` put in, sent on the driver's connection, and every statement's result: what
    psycopg's client-side cursor sends and reads for ``execute`` (the values quoted by the same dumpers, the simple
    query protocol, the same errors), without the cursor's work around it (its transaction's start, its prepared
    statements' bookkeeping, its results' selection and row maker): a lock 50-100 us of CPU less, in a shell."""
    quoted = PostgresClientQuery(rows)
    quoted.convert(_encoded(query), params)
    raw = connection.connection
    with raw.lock:
        raw.pgconn.send_query(quoted.query)
        results: list[Any] = raw.wait(generators.execute(raw.pgconn))
    if not results:
        raise driver_errors.InternalError("got no result from the query")
    for result in results:
        if result.status not in _ANSWERED:
            if result.status == pq.ExecStatus.FATAL_ERROR:
                raise driver_errors.error_from_result(result, encoding=raw.pgconn._encoding)
            raise driver_errors.InternalError(f"unexpected result status from query: {result.status.name}")
    return results


@cache
def _encoded(query: str) -> bytes:
    return query.encode()


def _c_timestamps(connection: Any, cursor: Any) -> None:
    """The cursor's timestamps read by psycopg's C loader where it gives what Django's gives: Django's parses in
    Python into the session's time zone and then sets its own on the value, the C one parses into the session's,
    so when the two zones are one (UTC, as Django sets the session) the values are the same."""
    if _C_TIMESTAMPTZ is None or connection.timezone is None:
        return
    if get_tzinfo(connection.connection.pgconn) is connection.timezone:
        cursor.adapters.register_loader(_TIMESTAMPTZ_OID, _C_TIMESTAMPTZ)


def move_store(move: Move, game: Game, fields: Sequence[str], durable: bool = True, last: bool = False) -> Move:
    """Insert the new move row (as ``Move.objects.create``: ``created_at`` set, ``pk`` filled in) and write
    ``fields`` of the game row (as ``game.save(update_fields=fields)``, without its signals: none listen), in
    one round trip.

    ``durable=False``: on PostgreSQL the transaction's commit does not wait for its WAL to reach the disk
    (``synchronous_commit`` off for this transaction only). What that can lose, and how the tables recover,
    is told in ``tables.services.table_apply_action``.

    ``last``: nothing else is written in the transaction, which commits as the caller's ``atomic`` block ends. When
    that block is the outermost, the COMMIT goes with the statements, in their round trip instead of one of its own
    (psycopg's commit then has nothing left to do, and Django runs the commit's hooks as after its own): should the
    caller raise after this, the move stays stored and the hooks (its events) are dropped.
    """
    alias = _alias(Move)
    sql = _statements(alias)
    connection = connections[alias]
    values = _values(sql["move_fields"], move, True, connection)
    update, chosen = _update(alias, tuple(fields))
    changes = _values(chosen, game, False, connection)
    if _several_in_one(connection):
        # the statements as one query of several (the transaction is open, so no BEGIN goes before it):
        # one round trip as in psycopg's pipeline mode, with a tenth of a millisecond less of its work
        query = _store_query(alias, update, durable, last and _commits_on_exit(connection))
        params = [*values, *changes, game.pk]
        if not _watched(connection):
            with _driver(connection) as rows:
                rows.set_pgresult(_exchange(connection, rows, query, params)[0 if durable else 1])
                move.pk = rows.load_row(0, tuple)[0]
        else:
            with connection.cursor() as cursor:
                cursor.execute(query, params)
                if not durable:
                    cursor.nextset()  # past the SET's empty result, to the INSERT's
                move.pk = cursor.fetchone()[0]
    else:
        with connection.cursor() as cursor:
            if not durable:
                commit_unflushed(alias)  # (server-side binding on PostgreSQL: one statement a query)
            cursor.execute(sql["insert"], values)
            move.pk = cursor.fetchone()[0] if sql["returning"] else cursor.lastrowid
            cursor.execute(update, [*changes, game.pk])
    move._state.adding, move._state.db = False, alias
    return move


@cache
def _store_query(alias: str, update: str, durable: bool, commit: bool) -> str:
    """The move's insert and the game's update as one query (made once, as ``_lock_query``), with the
    transaction's commit after them when ``commit``."""
    relaxed = "" if durable else "SET LOCAL synchronous_commit = off; "
    return f"{relaxed}{_statements(alias)['insert']}; {update}" + ("; COMMIT" if commit else "")


def _commits_on_exit(connection: Any) -> bool:
    """Whether the one ``atomic`` block open began the transaction and ends it with a commit (not a test's
    block around it, a savepoint, or one already marked to roll back)."""
    return bool(
        len(connection.atomic_blocks) == 1
        and connection.commit_on_exit
        and not connection.savepoint_ids
        and not connection.needs_rollback
    )


def _watched(connection: Any) -> bool:
    """Whether something watches the queries: a query log (as ``DEBUG`` or a test's capture keeps) or an execute
    wrapper. They then go through Django's cursor, so they see them like any other."""
    return bool(connection.queries_logged or connection.execute_wrappers)


@contextmanager
def _driver(connection: Any) -> Iterator[Any]:
    """What reads and writes the driver's rows of the connection (``_kept``), inside the checks and the error
    translation Django's cursor would make: its wrapper's layers cost about 20 us of CPU a query (timed in a
    shell), two of them a move."""
    connection.ensure_connection()
    connection.validate_thread_sharing()
    connection.validate_no_broken_transaction()
    with connection.wrap_database_errors:
        yield _kept(connection)


def _kept(connection: Any) -> Any:
    """psycopg's transformer of values and rows for the driver's connection, made once per connection and time
    zone, with the C timestamp loader: made for each query, with a cursor (7 us) and the loader registered on it (9
    us, a copy of the cursor's loaders), it cost more than the rest; kept, it keeps its adapters of values and
    columns. Kept on the driver's connection, not on Django's: a pool (``DB_POOL_MAX``) hands a thread whichever
    connection has been idle longest, seldom the one it had."""
    raw, zone = connection.connection, connection.timezone
    kept: tuple[Any, Any] | None = getattr(raw, "cards_rows", None)
    if kept is None or kept[0] is not zone:
        cursor = connection.create_cursor()
        _c_timestamps(connection, cursor)
        kept = raw.cards_rows = (zone, Transformer(cursor))
    return kept[1]


def _several_in_one(connection: Any) -> bool:
    """Whether one ``execute`` may hold several statements: PostgreSQL with Django's client-side binding (its
    default; server-side binding prepares one statement at a time)."""
    return bool(
        connection.vendor == "postgresql" and connection.settings_dict["OPTIONS"].get("server_side_binding") is not True
    )


@cache
def _update(alias: str, fields: tuple[str, ...]) -> tuple[str, Plan]:
    q = connections[alias].ops.quote_name
    chosen = [_stored(Game, name) for name in fields]
    assignments = ", ".join(f"{q(_column(f))} = %s" for f in chosen)
    return f"UPDATE {q(Game._meta.db_table)} SET {assignments} WHERE {q('id')} = %s", _plan(chosen)


def _stored(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    if not isinstance(field, models.Field) or not field.concrete:
        raise TypeError(f"{model.__name__}.{name} is not a column")
    return field
