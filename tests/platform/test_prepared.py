"""core.prepared: a query the ORM writes once answers as the ORM's own query would, for any value."""

import pytest
from django.db.models import Count, Exists, OuterRef

from accounts.models import User
from core.prepared import Prepared
from tables.models import Seat, Table

pytestmark = pytest.mark.django_db


def _build(user_id: int):
    at_table = Exists(Seat.objects.filter(user=OuterRef("pk"), table__status=Table.Status.OPEN))
    return (
        User.objects.filter(pk=user_id)
        .annotate(seated=at_table, seat_count=Count("seats"))
        .values_list("username", "seated", "seat_count")
    )


def test_each_value_gets_the_answer_the_orm_gives_it():
    alice = User.objects.create(username="alice", display_name="alice")
    bob = User.objects.create(username="bob", display_name="bob")
    table = Table.objects.create(game="durak", seats_count=2, created_by=alice)
    Seat.objects.create(table=table, index=0, user=alice)
    prepared = Prepared(_build)
    for user in (alice, bob, alice):  # written once, run for each
        ((name, seated, seats),) = prepared.rows(user.pk)
        assert (name, bool(seated), seats) == _build(user.pk).get()
        assert (name, bool(seated), seats) == (user.username, user is alice, int(user is alice))
    assert prepared.rows(-1) == []


def test_a_query_that_ignores_its_value_is_refused():
    with pytest.raises(ValueError):
        Prepared(lambda _value: User.objects.values_list("pk")).rows(1)


def test_instances_are_the_models_own_for_several_values_text_included():
    alice = User.objects.create(username="alice", display_name="alice")
    bob = User.objects.create(username="bob", display_name="bob", is_active=False)
    table = Table.objects.create(game="durak", seats_count=2, created_by=alice, options={"deck": 36})
    Seat.objects.create(table=table, index=0, user=alice)
    Seat.objects.create(table=table, index=1, user=bob)
    prepared = Prepared(lambda table_id, name: Table.objects.filter(pk=table_id, game=name))
    (found,) = prepared.instances(table.pk, "durak")
    assert found == table and found.options == {"deck": 36}  # converted, as the ORM reads it
    assert prepared.instances(table.pk, "biznes") == [] and prepared.instances(-1, "durak") == []
    # the instances it joins (select_related) are made as the ORM makes them
    seats = Prepared(
        lambda table_id: (
            Seat.objects.select_related("user")
            .only("index", "user__is_active")
            .filter(table_id=table_id)
            .order_by("index")
        )
    )
    assert [(s.index, s.user.is_active) for s in seats.instances(table.pk)] == [(0, True), (1, False)]


def test_a_query_written_without_one_of_its_values_is_refused_and_the_count_of_values_is_checked():
    with pytest.raises(ValueError):
        Prepared(lambda a, _b: User.objects.filter(pk=a)).rows(1, 2)
    prepared = Prepared(lambda a: User.objects.filter(pk=a).values_list("pk"))
    with pytest.raises(TypeError):
        prepared.rows(1, 2)
    assert Prepared(lambda: User.objects.filter(is_active=True).values_list("pk")).rows() == []


def test_instances_carry_their_annotations_and_a_values_query_has_none():
    alice = User.objects.create(username="alice", display_name="alice")
    table = Table.objects.create(game="durak", seats_count=2, created_by=alice)
    Seat.objects.create(table=table, index=0, user=alice)
    counted = Prepared(lambda user_id: User.objects.filter(pk=user_id).annotate(n=Count("seats")))
    ((found,),) = [counted.instances(alice.pk)]
    assert (found, found.n) == (alice, 1)
    with pytest.raises(TypeError):
        Prepared(lambda user_id: User.objects.filter(pk=user_id).values_list("pk")).instances(alice.pk)


def test_a_list_value_is_written_once_per_length_and_answers_as_the_orm():
    users = [User.objects.create(username=f"u{i}", display_name=f"u{i}") for i in range(4)]
    prepared = Prepared(lambda ids, name: User.objects.filter(pk__in=ids).exclude(username=name).values_list("pk"))
    for ids in ([users[0].pk, users[2].pk], [users[1].pk, users[3].pk], [u.pk for u in users], [users[3].pk]):
        for name in ("u1", "nobody"):
            expected = set(User.objects.filter(pk__in=ids).exclude(username=name).values_list("pk", flat=True))
            assert {pk for (pk,) in prepared.rows(ids, name)} == expected
    assert prepared.rows([], "u1") == []  # an empty list matches nothing
    assert prepared.rows([users[0].pk, users[0].pk], "u1") == [(users[0].pk,)]  # a repeated item counts once
    # the same list used twice (each pair of them who... both in it)
    both = Prepared(lambda ids: Seat.objects.filter(user_id__in=ids, table__created_by_id__in=ids).values_list("pk"))
    table = Table.objects.create(game="durak", seats_count=2, created_by=users[0])
    seat = Seat.objects.create(table=table, index=0, user=users[1])
    assert both.rows([users[0].pk, users[1].pk]) == [(seat.pk,)]
    assert both.rows([users[1].pk, users[2].pk]) == []
    # longer lists than the ones kept are written for the call
    many = [u.pk for u in users] + list(range(-200, -100))
    assert {pk for (pk,) in prepared.rows(many, "u1")} == {u.pk for u in users} - {users[1].pk}


def test_delete_deletes_what_the_query_finds_and_is_refused_where_the_orm_must_cascade():
    alice = User.objects.create(username="alice", display_name="alice")
    bob = User.objects.create(username="bob", display_name="bob")
    table = Table.objects.create(game="durak", seats_count=2, created_by=alice)
    seats = [Seat.objects.create(table=table, index=i, user=u) for i, u in enumerate((alice, bob))]
    by_user = Prepared(lambda ids: Seat.objects.filter(table__game="durak", user_id__in=ids))
    assert by_user.delete([bob.pk, -5]) == 1
    assert list(Seat.objects.values_list("pk", flat=True)) == [seats[0].pk]
    assert by_user.delete([]) == 0 and by_user.delete([bob.pk]) == 0
    with pytest.raises(TypeError):  # a table's deletion cascades to its seats
        Prepared(lambda table_id: Table.objects.filter(pk=table_id)).delete(table.pk)
    assert Table.objects.filter(pk=table.pk).exists()


def test_an_insert_written_once_stores_what_the_orm_would_and_sets_the_ids():
    from django.db.models.signals import post_save

    from core.prepared import Insert

    alice = User.objects.create(username="alice", display_name="alice")
    bob = User.objects.create(username="bob", display_name="bob")
    tables = Insert(Table)
    made = tables.create(Table(game="durak", seats_count=2, created_by=alice, options={"deck": 36}))
    again = tables.create(Table(game="durak", seats_count=3, created_by=bob))
    assert made.pk and again.pk and made.pk != again.pk and not made._state.adding
    stored = Table.objects.get(pk=made.pk)
    assert stored.options == {"deck": 36} and stored.created_by == alice and stored.created_at == made.created_at
    assert stored.created_at is not None and stored.invite_token == made.invite_token  # auto_now_add, defaults
    seats = Insert(Seat).bulk([Seat(table=made, index=i, user=u) for i, u in enumerate((alice, bob))])
    assert [s.pk for s in seats] == list(Seat.objects.filter(table=made).order_by("index").values_list("pk", flat=True))
    assert Insert(Seat).bulk([]) == []

    def listener(**kwargs):
        pass

    post_save.connect(listener, sender=Seat)
    try:
        with pytest.raises(TypeError):  # create() would have told it; this does not
            Insert(Seat).create(Seat(table=again, index=0, user=alice))
    finally:
        post_save.disconnect(listener, sender=Seat)
    assert not Seat.objects.filter(table=again).exists()


def test_an_update_written_once_writes_its_fields_only():
    from django.utils import timezone

    from core.prepared import Update

    alice = User.objects.create(username="alice", display_name="alice")
    table = Table.objects.create(game="durak", seats_count=2, created_by=alice, options={"deck": 36})
    started = Update(Table, ("status", "started_at"))
    table.status, table.started_at, table.seats_count = Table.Status.PLAYING, timezone.now(), 5
    assert started.save(table) == 1
    stored = Table.objects.get(pk=table.pk)
    assert (stored.status, stored.started_at, stored.seats_count) == (Table.Status.PLAYING, table.started_at, 2)
    table.pk = -1
    assert started.save(table) == 0
    with pytest.raises(TypeError):
        Update(Table, ("id",)).save(stored)
