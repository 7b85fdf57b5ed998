"""Bot tables per user are capped, and a table only bots still play ends by itself."""

from datetime import timedelta

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone

from core.redis_client import redis_client
from lobbies import services
from tables import tasks
from tables.models import Game, Seat, Table
from tables.presence import presence_add
from tables.services import game_play_bot as bot_play

pytestmark = pytest.mark.django_db


def test_one_user_cannot_start_unlimited_bot_tables(host, client_of, settings):
    settings.BOT_TABLES_PER_USER = 3
    client = client_of(host)
    for _ in range(3):
        client.post(reverse("play_against_bots"), {"game": "biznes", "seats": "6", "level": "strong"})
    resp = client.post(reverse("play_against_bots"), {"game": "biznes", "seats": "6", "level": "strong"})
    assert "You already have 3 tables with bots" in " ".join(str(m) for m in get_messages(resp.wsgi_request))
    assert Table.objects.filter(created_by=host).count() == 3
    # nor by adding bots to a table of his own
    table = services.table_create(user=host, game="durak", options={}, seats=2)
    with pytest.raises(services.LobbyRefused, match="tables with bots"):
        services.seat_add_bot(table_id=table.pk, user=host)
    # a finished one no longer counts
    Table.objects.filter(pk=Table.objects.filter(status=Table.Status.PLAYING).first().pk).update(
        status=Table.Status.FINISHED
    )
    services.seat_add_bot(table_id=table.pk, user=host)


def abandon(table: Table, seconds: int) -> None:
    """Every human left (away) and nobody has moved for ``seconds``."""
    Seat.objects.filter(table=table, user__isnull=False).update(away=True)
    Table.objects.filter(pk=table.pk).update(started_at=timezone.now() - timedelta(seconds=seconds))


def test_a_table_only_bots_still_play_ends_by_itself(host, settings):
    settings.ABANDONED_TABLE_SECONDS = 300
    gone = services.table_against_bots(user=host, game="durak", level="random")
    watched = services.table_against_bots(user=host, game="verish", seats=3, level="random")
    recent = services.table_against_bots(user=host, game="biznes", seats=4, level="random")
    for table in (gone, watched, recent):  # ids repeat across tests: no socket of an earlier test counts
        redis_client().delete(f"cards:table-present:{table.pk}")
    abandon(gone, 600)
    abandon(watched, 600)
    abandon(recent, 60)  # left only a minute ago: not yet
    presence_add(watched.pk, host.pk, "specific.channel!abc")  # still has the table open (watching the bots)

    assert tasks.end_abandoned_tables.apply().get() == 1
    statuses = dict(Table.objects.values_list("pk", "status"))
    assert statuses[gone.pk] == Table.Status.ABORTED
    assert statuses[watched.pk] == statuses[recent.pk] == Table.Status.PLAYING
    game = Game.objects.get(table=gone)
    assert game.status == Game.Status.ABORTED and game.deadline is None and game.annulled
    # a bot task still queued for it does nothing
    assert bot_play(game.pk, game.move_number) is False
    assert tasks.end_abandoned_tables.apply().get() == 0
