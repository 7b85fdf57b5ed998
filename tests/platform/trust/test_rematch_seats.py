"""A new table checks every seat when it starts: a banned, playbanned or blocked player is never seated."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from lobbies.services import LobbyRefused, seat_join, table_create, table_rematch
from moderation import services as moderation
from moderation.models import Sanction
from moderation.selectors import standing_forget
from social.services import block_add
from tables.models import Seat, Table
from tables.services import table_resign
from tests.platform.tables.factories import make_players, started_table

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fresh_standing():
    yield
    from accounts.models import User

    for uid in User.objects.values_list("pk", flat=True):
        standing_forget(uid)


def finished_table(seats: int = 2):
    table, players, _game = started_table("durak", seats)
    table_resign(table.pk, players[0])
    return table, players


def test_a_player_banned_after_his_vote_is_not_seated_by_the_others_vote():
    table, (a, b) = finished_table()
    mod = make_players(1, prefix="mod")[0]
    assert table_rematch(table_id=table.pk, user=a) is None
    moderation.user_ban(a, by=mod, reason="cheating")
    with pytest.raises(LobbyRefused, match="cannot start"):
        table_rematch(table_id=table.pk, user=b)
    assert Table.objects.get(pk=table.pk).rematch_id is None
    assert not Seat.objects.filter(user=a, table__status=Table.Status.PLAYING).exists()


def test_a_playbanned_voter_is_not_seated_either():
    table, (a, b) = finished_table()
    table_rematch(table_id=table.pk, user=a)
    Sanction.objects.create(user=a, kind=Sanction.Kind.PLAYBAN, until=timezone.now() + timedelta(hours=1), reason="x")
    standing_forget(a.pk)
    with pytest.raises(LobbyRefused, match="cannot start"):
        table_rematch(table_id=table.pk, user=b)
    assert Table.objects.get(pk=table.pk).rematch_id is None


def test_a_block_between_two_voters_stops_the_rematch():
    table, (a, b) = finished_table()
    table_rematch(table_id=table.pk, user=a)
    block_add(a, b)
    with pytest.raises(LobbyRefused, match="cannot start"):
        table_rematch(table_id=table.pk, user=b)
    assert Table.objects.get(pk=table.pk).rematch_id is None


def test_a_blocked_player_cannot_join_a_table_where_the_blocker_sits_nor_the_other_way():
    a, b, c = make_players(3, prefix="j")
    block_add(a, b)
    table = table_create(user=a, game="durak", options={}, seats=3)
    with pytest.raises(LobbyRefused):
        seat_join(table_id=table.pk, user=b)
    other = table_create(user=b, game="durak", options={}, seats=3)
    with pytest.raises(LobbyRefused):
        seat_join(table_id=other.pk, user=a)
    seat_join(table_id=table.pk, user=c)  # anybody else still sits down
    assert list(Table.objects.get(pk=table.pk).seats.exclude(user=None).values_list("user_id", flat=True)) == [
        a.pk,
        c.pk,
    ]


def test_a_full_table_does_not_start_with_a_seat_whose_player_may_no_longer_play():
    a, b, c = make_players(3, prefix="f")
    table = table_create(user=a, game="durak", options={}, seats=3)
    seat_join(table_id=table.pk, user=b)
    Sanction.objects.create(user=b, kind=Sanction.Kind.PLAYBAN, until=timezone.now() + timedelta(hours=1), reason="x")
    standing_forget(b.pk)
    seat_join(table_id=table.pk, user=c)
    table.refresh_from_db()
    assert table.status == Table.Status.OPEN
    assert not table.seats.filter(user=b).exists()


def test_no_notification_reaches_a_player_from_someone_he_blocked():
    from lobbies.services import seat_kick
    from notifications.models import Notification

    host, guest = make_players(2, prefix="n")
    table = table_create(user=host, game="durak", options={}, seats=3)
    seat_join(table_id=table.pk, user=guest)
    block_add(guest, host)  # after both sat down
    seat_kick(table_id=table.pk, user=host, index=1)
    assert not Notification.objects.filter(user=guest).exists()
    seat_join(table_id=table.pk, user=make_players(1, prefix="m")[0])
    seat_kick(table_id=table.pk, user=host, index=1)  # anybody else is still told
    assert Notification.objects.filter(user__username="m0").exists()
