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
