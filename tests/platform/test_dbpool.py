"""core.dbpool: the pool's check before a hand-out is skipped for a connection a socket's call just used."""

import pytest

from core import dbpool


class _Conn:
    pass


def test_a_connection_that_just_answered_goes_unchecked_and_an_idle_one_is_checked(monkeypatch):
    checks = []
    check = dbpool._check_unless_answered(checks.append)
    idle, answered = _Conn(), _Conn()
    clock = [100.0]
    monkeypatch.setattr(dbpool.time, "monotonic", lambda: clock[0])
    answered.cards_answered_at = 99.0
    check(answered)
    check(idle)  # never marked: checked
    assert checks == [idle]
    clock[0] = 99.0 + dbpool.ANSWERED_WITHIN  # marked too long ago: checked again
    check(answered)
    assert checks == [idle, answered]


def test_a_failed_check_still_fails_the_hand_out():
    def broken(conn):
        raise OSError("gone")

    with pytest.raises(OSError):
        dbpool._check_unless_answered(broken)(_Conn())


@pytest.mark.django_db(transaction=True)
def test_a_socket_call_on_a_connection_without_a_pool_is_left_as_it_was():
    import asyncio

    from accounts.models import User
    from core.sockets import database_sync_to_async

    assert asyncio.run(database_sync_to_async(User.objects.count)()) == 0
