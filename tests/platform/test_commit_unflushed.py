"""core.durability: only the transaction that asks commits without waiting for the disk."""

import pytest
from django.db import connection, transaction

from core.durability import commit_unflushed

pytestmark = pytest.mark.django_db(transaction=True)


def _setting() -> str | None:
    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SHOW synchronous_commit")
        return cursor.fetchone()[0]


def test_the_transaction_that_asks_and_no_other_skips_the_wait():
    before = _setting()
    with transaction.atomic():
        commit_unflushed()
        inside = _setting()
    after = _setting()
    commit_unflushed()  # outside a transaction it would last for the connection: it does nothing
    outside = _setting()
    if connection.vendor == "postgresql":
        assert (before, inside, after, outside) == ("on", "off", "on", "on")
    else:
        assert (before, inside, after, outside) == (None, None, None, None)
