"""Tables only bots are still playing end by themselves.

A table whose every human seat is away (stand-in bots play for them), with no
player of it connected, and no move of a human for ``ABANDONED_TABLE_SECONDS``,
would otherwise keep the workers busy with bots playing bots until the match
ends. The beat sweeper stops it as a moderator's abort does (``table_stop``):
the game in progress is never rated, the table is aborted, and any bot task or
timer still queued for it finds the game over and does nothing.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone

from tables.models import Game, Move, Seat, Table
from tables.presence import present_users
from tables.services import table_stop

REASON = "no player was at the table any more; only bots were playing"


def _abandoned(table: Table) -> bool:
    humans = list(Seat.objects.filter(table=table, user__isnull=False, user__is_bot=False).values("user_id", "away"))
    if any(not seat["away"] for seat in humans):
        return False
    since = timezone.now() - timedelta(seconds=settings.ABANDONED_TABLE_SECONDS)
    if (table.started_at or table.created_at) > since:
        return False
    if Move.objects.filter(game__table=table, by="player", created_at__gt=since).exists():
        return False
    return not present_users(table.pk) & {seat["user_id"] for seat in humans}


@transaction.atomic
def table_end_abandoned(table_id: int) -> bool:
    """End one table if only bots are still playing it (re-checked under its locks). True if it ended."""
    # the game's lock before the table's, as a move takes them
    game = Game.objects.select_for_update().filter(table_id=table_id, status=Game.Status.PLAYING).first()
    table = Table.objects.select_for_update().filter(pk=table_id, status=Table.Status.PLAYING).first()
    if table is None or not _abandoned(table):
        return False
    table_stop(table, game, by=None, reason=REASON)
    return True


def tables_end_abandoned(limit: int = 200) -> int:
    """The beat sweeper: end every table only bots are still playing. Returns how many ended."""
    since = timezone.now() - timedelta(seconds=settings.ABANDONED_TABLE_SECONDS)
    # cheap filter first: playing tables with an away human and no recent human move
    candidates = (
        Table.objects.filter(status=Table.Status.PLAYING, started_at__lte=since, seats__away=True)
        .exclude(games__moves__by="player", games__moves__created_at__gt=since)
        .values_list("pk", flat=True)
        .distinct()[:limit]
    )
    return sum(table_end_abandoned(pk) for pk in list(candidates))
