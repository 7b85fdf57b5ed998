"""The move's hand-written statements (``tables.rows``) read and write exactly what the ORM does, on
SQLite and on PostgreSQL (CI runs this module on both)."""

import copy
from datetime import timedelta

import pytest
from django.db import models, transaction
from django.utils import timezone

from tables import rows
from tables.delta import MOVE_FIELDS
from tables.models import Game, Move, Seat
from tests.platform.tables.factories import started_table


def fields_of(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


@pytest.mark.django_db
def test_the_locked_game_and_its_table_are_the_orms_instances():
    table, _players, game = started_table("biznes", 4)  # JSON options, a dict state, times, booleans
    Game.objects.filter(pk=game.pk).update(result={"points": [1, -2]}, bot_substituted=True)
    with transaction.atomic():
        locked = rows.game_lock(game.pk)
    assert locked is not None
    read = locked[0]
    orm = Game.objects.select_related("table").get(pk=game.pk)
    assert fields_of(read) == fields_of(orm)
    assert fields_of(read.table) == fields_of(orm.table) and read.table.options == table.options
    assert isinstance(read.deadline, type(orm.deadline)) and read.deadline == orm.deadline
    assert read._state.adding is False and read._state.db == "default"
    assert rows.game_lock(game.pk + 1000) is None


@pytest.mark.django_db
def test_the_locked_rows_times_are_the_orms_to_their_time_zone():
    # on PostgreSQL with psycopg's C module they are parsed by its C loader, not by Django's (tables.rows)
    _table, _players, game = started_table("durak", 2)
    Game.objects.filter(pk=game.pk).update(finished_at=timezone.now() - timedelta(days=400, microseconds=7))
    with transaction.atomic():
        read, seats = rows.game_lock(game.pk)
    orm = Game.objects.select_related("table").get(pk=game.pk)
    pairs = [(read, orm), (read.table, orm.table)]
    pairs += [(s, Seat.objects.get(pk=s.pk)) for s in seats]
    times = 0
    for ours, theirs in pairs:
        for field in type(ours)._meta.concrete_fields:
            if isinstance(field, models.DateTimeField) and getattr(theirs, field.attname) is not None:
                value, expected = getattr(ours, field.attname), getattr(theirs, field.attname)
                assert repr(value) == repr(expected) and value.tzinfo is expected.tzinfo
                times += 1
    assert times >= 7


@pytest.mark.django_db
def test_the_seats_are_the_orms_instances():
    table, players, game = started_table("durak", 3)
    started_table("durak", 2)  # another table's seats are not read
    Seat.objects.filter(table=table, index=1).update(away=True, timeouts_in_row=2)
    _locked, seats = rows.game_lock(game.pk)
    read = {s.index: fields_of(s) for s in seats}
    assert read == {s.index: fields_of(s) for s in Seat.objects.filter(table=table)}
    assert read[0]["user_id"] == players[0].pk and read[1]["away"] is True


@pytest.mark.django_db
def test_a_move_row_and_the_games_move_fields_read_back_as_written():
    _table, _players, game = started_table("durak", 2)
    move = Move(
        game=game,
        number=1,
        seat=0,
        action={"type": "attack", "cards": ["7H"]},
        text="attacks with 7♥ «ü»",
        words={"key": "attacks", "args": {"cards": ["7H"]}},
        by="player",
        public={"type": "attack", "cards": ["7H"]},
    )
    game.move_number, game.state = 1, {**game.state, "note": "ü"}
    game.deadline = timezone.now() + timedelta(seconds=30)
    game.bot_substituted = True
    with transaction.atomic():
        rows.move_store(move, game, MOVE_FIELDS)
    stored = Move.objects.get(pk=move.pk)
    assert fields_of(stored) == fields_of(move) and move.created_at is not None
    assert move._state.adding is False
    again = Game.objects.get(pk=game.pk)
    assert {name: getattr(again, name) for name in MOVE_FIELDS} == {name: getattr(game, name) for name in MOVE_FIELDS}


@pytest.mark.django_db(transaction=True)
def test_the_lock_begins_the_transaction_and_holds_the_row_until_it_ends():
    """At a transaction's start the lock's query begins it (on PostgreSQL with its BEGIN inside): the row stays
    locked against another connection until the commit, a failed query rolls back, and the connection's later
    transactions work as before."""
    import threading

    from django.db import connection, connections

    table, _players, game = started_table("durak", 2)

    def locked_elsewhere() -> bool:
        """Whether another connection finds the game row locked (it does not wait for it)."""
        found: list[bool] = []

        def probe() -> None:
            other = connections["default"]
            try:
                with transaction.atomic():
                    if other.vendor == "postgresql":
                        with other.cursor() as cursor:
                            cursor.execute("SET LOCAL lock_timeout = '50ms'")
                    Game.objects.select_for_update(nowait=other.vendor == "postgresql").get(pk=game.pk)
                found.append(False)
            except Exception:
                found.append(True)
            finally:
                other.close()

        thread = threading.Thread(target=probe)
        thread.start()
        thread.join()
        return found[0]

    with transaction.atomic():
        locked, seats = rows.game_lock(game.pk)
        assert locked.pk == game.pk and sorted(s.index for s in seats) == [0, 1]
        if connection.vendor == "postgresql":
            assert locked_elsewhere()
            with connection.cursor() as cursor:
                cursor.execute("SELECT now() = statement_timestamp()")
                assert cursor.fetchone() == (False,)  # the transaction began before this query: at the lock's
    assert not locked_elsewhere()
    with pytest.raises(ValueError), transaction.atomic():
        rows.game_lock(game.pk)
        Game.objects.filter(pk=game.pk).update(move_number=99)
        raise ValueError("refused")
    assert Game.objects.get(pk=game.pk).move_number == 0
    with transaction.atomic():
        rows.game_lock(game.pk)
        Game.objects.filter(pk=game.pk).update(move_number=5)
    assert Game.objects.get(pk=game.pk).move_number == 5 and table.pk


@pytest.mark.django_db
def test_a_copied_game_is_what_copy_gives():
    _table, _players, game = started_table("durak", 2)
    game = Game.objects.select_related("table").get(pk=game.pk)
    fresh, orm = rows.copied(game), copy.copy(game)
    assert type(fresh) is Game and fields_of(fresh) == fields_of(orm) and fresh.table is orm.table is game.table
    assert vars(fresh._state) == vars(orm._state) and fresh._state is not game._state
    fresh.move_number += 1
    fresh._state.fields_cache.clear()
    assert game.move_number == orm.move_number and game._state.fields_cache == {"table": game.table}


@pytest.mark.django_db
def test_the_values_written_are_what_the_fields_own_preparation_gives(monkeypatch):
    # tables.rows hands a value of one known type on without Django's layers: each is compared with theirs
    from django.db import connection

    now = timezone.now()
    monkeypatch.setattr(timezone, "now", lambda: now)
    _table, _players, game = started_table("durak", 2)
    plans = [rows._statements("default")["move_fields"], rows._update("default", MOVE_FIELDS)[1]]
    moves = [
        Move(game=game, number=3, seat=1, action={"type": "take"}, text="takes", words=[1, "x"], public={}),
        Move(game=game, number=4, seat=0, action={"type": "x"}, text="é" * 3, words=None, by="timeout"),
    ]
    games = [game, Game(pk=game.pk, table=game.table, status=Game.Status.FINISHED, result=None, bot_substituted=True)]
    games[1].move_number, games[1].state, games[1].finished_at = 7, ["a", {"b": 1}], now - timedelta(hours=3)
    for plan, instances, add in ((plans[0], moves, True), (plans[1], games, False)):
        for instance in instances:
            ours = rows._values(plan, instance, add, connection)
            theirs = [rows._prepared(field, field.pre_save(instance, add), connection) for field, *_ in plan]
            assert [type(v) for v in ours] == [type(v) for v in theirs]
            for a, b in zip(ours, theirs, strict=True):
                assert (a.obj, a.dumps) == (b.obj, b.dumps) if hasattr(a, "obj") else a == b
    assert {kind for _field, _name, kind, _extra in plans[0] + plans[1]} >= {"int", "str", "bool", "time", "json"}


@pytest.mark.django_db
def test_a_new_move_is_what_the_models_constructor_makes():
    _table, _players, game = started_table("durak", 2)
    values = {"number": 1, "seat": 0, "action": {"type": "pass"}, "text": "passes", "words": None, "by": "player"}
    ours, theirs = rows.move_new(game, **values), Move(game=game, **values)
    assert list(ours.__dict__) == list(theirs.__dict__)
    assert {**ours.__dict__, "_state": None} == {**theirs.__dict__, "_state": None}
    assert ours._state.__dict__ == theirs._state.__dict__ and ours._state.adding and ours.game is game
    assert ours.public == {} and ours.public is not rows.move_new(game, **values).public  # each its own default
    with pytest.raises(TypeError):  # a name that is no field of it: the constructor's way, which refuses it
        rows.move_new(game, **values, colour="red")
